"""The balance report's plots, drawn with matplotlib (the ``plot`` extra) to PNG files.

Each function draws one plot of the figures of one or more player counts (:class:`Figures`) and saves it
under ``folder``; shares carry their 95% Wilson intervals as error bars, means their bootstrap intervals.
The plots are drawn on matplotlib's ``Figure`` objects with the Agg canvas, never through
``pyplot``'s global figure registry, so drawing holds no state between reports.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from darkempire.balance.figures import Figures
from darkempire.balance.stats import Mean, Share
from darkempire.rules.cards import Faction, Theme, faction_name
from darkempire.simulation import OUTCOMES

__all__ = ["PLOTS", "draw_all", "has_matplotlib"]

_DPI: Final = 80  # small files: the report is committed to the docs


def has_matplotlib() -> bool:
    """Whether matplotlib (the ``plot`` extra) can be imported: a command checks before it plays its games."""
    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(width: float = 8.0, height: float = 4.5) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # type: ignore[import-not-found,unused-ignore]
    from matplotlib.figure import Figure  # type: ignore[import-not-found,unused-ignore]

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _share_bars(ax: Any, groups: Sequence[str], series: Sequence[tuple[str, Sequence[Share]]]) -> None:
    """Grouped bars in percent: one group per label of ``groups``, one bar per series, Wilson error bars."""
    width = 0.8 / max(len(series), 1)
    for i, (label, shares) in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        heights = [100 * s.rate for s in shares]
        errors = [[100 * (s.rate - s.low) for s in shares], [100 * (s.high - s.rate) for s in shares]]
        ax.bar(xs, heights, width, yerr=errors, capsize=3, label=label)
    ax.set_xticks(range(len(groups)), list(groups))
    ax.set_ylabel("% (95% Wilson interval)")


def _counts(figs: Sequence[Figures]) -> list[str]:
    return [f"{f.players} players" for f in figs]


def outcomes(figs: Sequence[Figures], theme: Theme) -> Any:
    """Outcome shares (emperor victory, revolution, leader too powerful, shared win) by player count."""
    figure = _figure()
    ax = figure.subplots()
    _share_bars(ax, list(OUTCOMES), [(label, [f.outcomes[o] for o in OUTCOMES]) for label, f in zip(_counts(figs), figs)])
    ax.set_title("Outcomes by player count")
    ax.legend()
    return figure


def seats(figs: Sequence[Figures], theme: Theme) -> Any:
    """Win share by seat, with the even share (one in the number of seats) as a dashed line."""
    figure = _figure(4.0 * len(figs), 4.0)
    axes = figure.subplots(1, len(figs), squeeze=False)[0]
    for ax, f in zip(axes, figs):
        _share_bars(ax, [f"seat {s}" for s in range(f.players)], [("win share", f.seats)])
        ax.axhline(100 / f.players, color="grey", linestyle="--", label="even share")
        ax.set_title(f"{f.players} players ({f.games} games)")
    axes[0].legend()
    return figure


def factions(figs: Sequence[Figures], theme: Theme) -> Any:
    """Win share by faction, over the games in which a seat held it."""
    figure = _figure(9.0, 4.5)
    ax = figure.subplots()
    names = [faction_name(faction, theme) for faction in Faction]
    _share_bars(ax, names, [(label, [f.factions[x] for x in Faction]) for label, f in zip(_counts(figs), figs)])
    ax.set_title("Win share by faction (games in which it was held)")
    ax.legend()
    return figure


def points(figs: Sequence[Figures], theme: Theme) -> Any:
    """Distributions of the final totals: the winners', every faction's and the emperor's."""
    figure = _figure(4.0 * len(figs), 4.0)
    axes = figure.subplots(1, len(figs), squeeze=False, sharey=True)[0]
    for ax, f in zip(axes, figs):
        bins = range(0, max([1, *(t for r in f.results for t in r.totals), *(r.emperor_total for r in f.results)]) + 3, 2)
        ax.hist([t for r in f.results for t in r.totals], bins=bins, histtype="step", density=True, label="every faction")
        ax.hist([w.total for w in f.winners], bins=bins, histtype="step", density=True, label="winners")
        ax.hist([r.emperor_total for r in f.results], bins=bins, histtype="step", density=True, label="emperor")
        ax.set_xlabel("final total (points)")
        ax.set_title(f"{f.players} players")
    axes[0].set_ylabel("share of games (density)")
    axes[0].legend()
    return figure


def rule_15(figs: Sequence[Figures], theme: Theme) -> Any:
    """How often the 15-point rule fires, and the leader's lead over the next faction in revolutions."""
    figure = _figure(10.0, 4.0)
    left, right = figure.subplots(1, 2)
    _share_bars(left, [str(f.players) for f in figs], [("rule fires", [f.rule_15 for f in figs]),
                                                         ("of which the leader was held", [f.rule_15_held for f in figs])])
    left.set_xlabel("players")
    left.set_title("15-point rule (8.4)")
    left.legend()
    top = max([15, *(lead for f in figs for lead in f.leads)]) + 2
    for f in figs:
        if f.leads:  # a density of no values divides by zero
            right.hist(f.leads, bins=range(0, top + 1), histtype="step", density=True, label=f"{f.players} players")
    right.axvline(15, color="grey", linestyle="--", label="15 points")
    right.set_xlabel("leader's lead over the next faction (points)")
    right.set_title("Lead in revolutions")
    right.legend()
    return figure


def winner_points(figs: Sequence[Figures], theme: Theme) -> Any:
    """The winners' mean points from tokens and from cards, with bootstrap intervals."""
    figure = _figure(6.0, 4.0)
    ax = figure.subplots()
    series: list[tuple[str, Callable[[Figures], Mean]]] = [
        ("tokens", lambda f: f.winner_tokens), ("cards", lambda f: f.winner_cards)
    ]
    width = 0.38
    for i, (label, pick) in enumerate(series):
        means = [pick(f) for f in figs]
        xs = [g + (i - 0.5) * width for g in range(len(figs))]
        errors = [[m.mean - m.low for m in means], [m.high - m.mean for m in means]]
        ax.bar(xs, [m.mean for m in means], width, yerr=errors, capsize=3, label=label)
    ax.set_xticks(range(len(figs)), _counts(figs))
    ax.set_ylabel("mean points of a winner (95% bootstrap interval)")
    ax.set_title("Winners' points: tokens versus cards")
    ax.legend()
    return figure


#: The plots of a report: file stem, caption, drawing function, in report order.
PLOTS: Final[tuple[tuple[str, str, Callable[[Sequence[Figures], Theme], Any]], ...]] = (
    ("outcomes", "Outcome shares by player count", outcomes),
    ("seats", "Win share by seat", seats),
    ("factions", "Win share by faction", factions),
    ("points", "Final totals", points),
    ("rule_15", "The 15-point rule", rule_15),
    ("winner_points", "Winners' points: tokens versus cards", winner_points),
)


def draw_all(figs: Sequence[Figures], folder: Path, theme: Theme = Theme.STEAM_NOIR) -> dict[str, Path]:
    """Draw every plot of :data:`PLOTS` for ``figs`` (one per player count) to ``folder/<stem>.png``.

    :returns: the files written, by stem.
    :raises ImportError: without matplotlib.
    :raises OSError: a file cannot be written.
    """
    written = {}
    for stem, _caption, draw in PLOTS:
        figure = draw(figs, theme)
        path = folder / f"{stem}.png"
        figure.savefig(path, dpi=_DPI)
        written[stem] = path
    return written
