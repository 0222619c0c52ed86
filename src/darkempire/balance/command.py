"""``darkempire simulate --report DIR``: play the games of each player count and write the balance report.

:func:`run_report` plays each count's games with :func:`darkempire.simulation.simulate` (the counts that
``--players`` names, :func:`darkempire.simulation.player_counts`) and writes the report
(:func:`darkempire.balance.report.write_report`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from darkempire.balance.figures import Figures, figures
from darkempire.balance.report import PAGE_NAME, write_report
from darkempire.execution import Backend
from darkempire.rules.cards import Theme
from darkempire.simulation import OUTCOMES, simulate

__all__ = ["run_report"]


def run_report(
    console: Console,
    folder: Path,
    kinds: Mapping[int, Sequence[str]],
    *,
    games: int,
    seed: int,
    jobs: int = 1,
    backend: Backend | None = None,
    engine: str = "auto",
    theme: Theme = Theme.STEAM_NOIR,
    progress: Callable[[int], None] | None = None,
) -> list[Figures]:
    """Play ``games`` games for each player count of ``kinds`` (its seats' bot kinds), write the report of
    them all into ``folder``, and print one line per count and where the page is.

    Each count's games are seeded from ``seed`` as ``darkempire simulate --players N --seed S`` seeds them,
    so any count's run, and any game of it, can be played again alone. ``jobs`` and ``backend`` are
    :func:`~darkempire.simulation.simulate`'s: where the games are played, which changes no figure.

    :returns: the figures, one per count.
    :raises darkempire.balance.report.ReportError: the folder cannot be written.
    """
    figs = []
    for players, bots in sorted(kinds.items()):
        summary = simulate(players, games, seed, bots, jobs=jobs, engine=engine, progress=progress, backend=backend)
        figs.append(figures(players, summary.bots, summary.results, seed=seed))
        shares = ", ".join(f"{name} {100 * figs[-1].outcomes[name].rate:.1f}%" for name in OUTCOMES)
        console.print(f"{players} players, {games} games, bots {','.join(summary.bots)}: {shares}")
    write_report(folder, figs, seed=seed, theme=theme)
    console.print(f"Report written to {escape(str(folder / PAGE_NAME))}.")
    return figs
