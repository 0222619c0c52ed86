"""Which bots ``darkempire simulate`` plays when ``--bots`` is not given: the strongest that fit the run.

Balance figures are only worth what the play behind them is worth: random bots feed the emperor (about 98%
emperor victories in 4-player games), greedy bots give about 13% emperor victories, 64% revolutions and 23%
leaders too powerful. So the default is the strongest kind whose estimated time for the whole run stays
within :data:`RUN_BUDGET_SECONDS`; a kind not registered in :data:`darkempire.bots.BOT_KINDS` (a search bot
not installed yet) is passed over, and random bots are never a default: they play only when asked.

The estimate depends on the run's size alone (games, seats, worker processes), never on a clock, so the
same command picks the same bots on every machine.

>>> default_bots(players=4, games=1000)
'greedy'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final

from darkempire.bots import BOT_KINDS

__all__ = ["FALLBACK", "RUN_BUDGET_SECONDS", "SEAT_GAME_SECONDS", "STRENGTH_ORDER", "default_bots"]

#: Bot kinds from the strongest to the weakest that may be a default, as measured by ``nox -s strength``.
#: ``random`` is not one. ``ismcts`` is not one yet: it won 20.0% of 100 games against three GreedyBots
#: (Wilson 13.3-28.9%), where a GreedyBot in its seat wins 23.0%, so it is no stronger and costs 400 times more.
#: It goes first here once the benchmark shows it stronger.
STRENGTH_ORDER: Final[tuple[str, ...]] = ("greedy",)

#: What a default run may cost: the estimated seconds of the whole run on one worker process, divided by the
#: workers. Ten minutes: a study one waits for, not one left overnight.
RUN_BUDGET_SECONDS: Final = 600.0

#: Estimated seconds one seat of a kind spends deciding in one game, on one core of the 2-core reference
#: machine: greedy measured at about 0.012 s (0.05 s for a 4-player game); the search bot at its budget of
#: about 50 ms for each of its roughly 40 decisions a game.
SEAT_GAME_SECONDS: Final[Mapping[str, float]] = {"ismcts": 2.0, "greedy": 0.012}

#: The default when no stronger kind fits: greedy games are cheap enough for any run.
FALLBACK: Final = "greedy"


def default_bots(
    players: int, games: int, *, jobs: int = 1, kinds: Collection[str] | None = None,
    order: Sequence[str] = STRENGTH_ORDER,
    budget: float = RUN_BUDGET_SECONDS,
) -> str:
    """The bot kind for every seat of a run of ``games`` games of ``players`` seats on ``jobs`` processes.

    :param kinds: the registered kinds (default :data:`darkempire.bots.BOT_KINDS`).
    :param order: the kinds that may be chosen, strongest first (default :data:`STRENGTH_ORDER`).
    :param budget: the run's budget in seconds (default :data:`RUN_BUDGET_SECONDS`).
    :returns: the first kind of ``order`` that is registered and whose estimated run time
        (``games * players * SEAT_GAME_SECONDS[kind] / jobs``) is within ``budget``, else :data:`FALLBACK`.
    """
    registered = BOT_KINDS if kinds is None else kinds
    for kind in order:
        if kind in registered and games * players * SEAT_GAME_SECONDS[kind] / max(jobs, 1) <= budget:
            return kind
    return FALLBACK
