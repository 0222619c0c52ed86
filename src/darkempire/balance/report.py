"""The balance report folder: the plots, a Markdown page that embeds them, and the per-game CSV.

:func:`write_report` writes into ``DIR`` (what ``darkempire simulate --report DIR`` does):

* ``index.md``: the run (seed, games, bots of each player count), tables of every figure with its 95%
  interval, and every plot of :data:`~darkempire.balance.plots.PLOTS`;
* one PNG per plot;
* ``games.csv``: one row per game, enough to recompute every figure (:data:`CSV_COLUMNS`).

:func:`check_folder` refuses a folder that cannot be written before any game is played.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from tablekit.errors import KitError

from darkempire.balance.figures import Figures
from darkempire.balance.plots import PLOTS, draw_all
from darkempire.balance.stats import Mean, Share
from darkempire.rules.cards import Faction, Theme, faction_name
from darkempire.simulation import OUTCOMES

__all__ = ["CSV_COLUMNS", "CSV_NAME", "PAGE_NAME", "ReportError", "check_folder", "write_csv", "write_page",
           "write_report"]

#: The Markdown page of a report.
PAGE_NAME: Final = "index.md"
#: The per-game CSV of a report.
CSV_NAME: Final = "games.csv"
#: The CSV's columns: ``winners`` (seats), ``victors`` and ``tokens`` (by seat) are ``;``-separated;
#: ``total_<FACTION>`` and ``cards_<FACTION>`` are by faction; ``too_powerful`` is empty when 8.4 did not fire.
CSV_COLUMNS: Final[tuple[str, ...]] = (
    "players", "seed", "outcome", "reason", "winners", "too_powerful", "emperor_total",
    *(f"total_{f.name}" for f in Faction), *(f"cards_{f.name}" for f in Faction), "victors", "tokens",
)


class ReportError(KitError, OSError):
    """A report folder that cannot be created or written."""


def check_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) if needed and check that files can be written in it.

    :raises ReportError: it is not a folder or cannot be written, naming it.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as failure:
        raise ReportError(f"cannot create the report folder {folder}: {failure.strerror or failure}") from None
    probe = folder / f".darkempire-report-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as failure:
        raise ReportError(f"cannot write in the report folder {folder}: {failure.strerror or failure}") from None


def write_report(
    folder: Path, figs: Sequence[Figures], *, seed: int, theme: Theme = Theme.STEAM_NOIR, with_csv: bool = True
) -> list[Path]:
    """Write the report of ``figs`` (one per player count) into ``folder``.

    :param seed: the run's seed, for the page.
    :param with_csv: also write :data:`CSV_NAME`.
    :returns: the files written: the plots, then the page, then the CSV.
    :raises ReportError: the folder or a file cannot be written.
    :raises ImportError: without matplotlib.
    """
    check_folder(folder)
    try:
        plots = list(draw_all(figs, folder, theme).values())
        if with_csv:
            write_csv(folder / CSV_NAME, figs)
        (folder / PAGE_NAME).write_text(write_page(figs, seed=seed, theme=theme, with_csv=with_csv), encoding="utf-8")
    except OSError as failure:
        raise ReportError(f"cannot write the report in {folder}: {failure.strerror or failure}") from None
    return [*plots, folder / PAGE_NAME, *([folder / CSV_NAME] if with_csv else [])]


def write_csv(path: Path, figs: Sequence[Figures]) -> None:
    """Write every game of ``figs`` as a row of :data:`CSV_COLUMNS` to ``path``."""
    with path.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(CSV_COLUMNS)
        for f in figs:
            for r in f.results:
                writer.writerow([
                    f.players, r.seed, r.outcome, r.reason.value, ";".join(map(str, r.winners)),
                    "" if r.too_powerful is None else r.too_powerful.name, r.emperor_total,
                    *r.totals, *r.card_points, ";".join(v.name for v in r.victors), ";".join(map(str, r.tokens)),
                ])


def _pct(share: Share) -> str:
    return f"{100 * share.rate:.1f}% ({100 * share.low:.1f}-{100 * share.high:.1f})"


def _mean(mean: Mean, scale: float = 1.0, unit: str = "") -> str:
    return f"{scale * mean.mean:.1f}{unit} ({scale * mean.low:.1f}-{scale * mean.high:.1f})"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows] + [""]


def write_page(figs: Sequence[Figures], *, seed: int, theme: Theme = Theme.STEAM_NOIR, with_csv: bool = True) -> str:
    """The Markdown page of the report: figures as tables with 95% intervals, and every plot embedded."""
    heads = [f"{f.players} players" for f in figs]
    runs = "; ".join(f"{f.players} players: {f.games} games, bots {','.join(f.bots)}" for f in figs)
    lines = [
        "# Balance report", "",
        f"Seed {seed}; {runs}. Every figure has its 95% interval in brackets: Wilson intervals for shares, "
        "percentile-bootstrap intervals for means. A shared win (rule 8.5) counts once as an outcome and once "
        "for each of its winners elsewhere.", "",
        "## Outcomes", "",
        *_table(["outcome", *heads], [[o, *(_pct(f.outcomes[o]) for f in figs)] for o in OUTCOMES]),
        "## The 15-point rule", "",
        "How often the lone leader was 15 points or more ahead of the next faction and dropped out (rule 8.4), "
        "and how often that leader was a seat's faction (an unheld leader costs no seat the win).", "",
        *_table(["", *heads], [
            ["rule fires", *(_pct(f.rule_15) for f in figs)],
            ["leader held by a seat (of those)", *(_pct(f.rule_15_held) for f in figs)],
        ]),
        "## Winners' points", "",
        "A winner's total is its faction's card points plus its banked tokens (rule 8.1); means per winner.", "",
        *_table(["", *heads], [
            ["winner's total", *(_mean(f.winner_total) for f in figs)],
            ["from tokens", *(_mean(f.winner_tokens) for f in figs)],
            ["from cards", *(_mean(f.winner_cards) for f in figs)],
            ["tokens' share of the total", *(_mean(f.winner_token_share, 100, "%") for f in figs)],
            ["emperor's total", *(_mean(f.emperor_total) for f in figs)],
            ["a faction's total", *(_mean(f.faction_total) for f in figs)],
        ]),
        "## Win share by seat", "",
        *_table(["seat", *heads], [
            [str(s), *(_pct(f.seats[s]) if s < f.players else "" for f in figs)]
            for s in range(max(f.players for f in figs))
        ] if figs else []),
        "## Win share by faction", "",
        "Over the games in which a seat held the faction's victor card.", "",
        *_table(["faction", *heads], [[faction_name(x, theme), *(_pct(f.factions[x]) for f in figs)] for x in Faction]),
        "## Plots", "",
    ]
    for stem, caption, _draw in PLOTS:
        lines += [f"### {caption}", "", f"![{caption}]({stem}.png)", ""]
    if with_csv:
        lines += ["## Data", "", f"Every game, one row each: [{CSV_NAME}]({CSV_NAME}).", ""]
    return "\n".join(lines)
