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

#: Bot kinds from the strongest to the weakest that may be a default, as measured by ``nox -s strength``:
#: the search bot (``ismcts``) wins more than half of its 4-player games against three GreedyBots, where a
#: GreedyBot in its seat wins a quarter (docs/bots.md). ``random`` is not one.
STRENGTH_ORDER: Final[tuple[str, ...]] = ("ismcts", "greedy")

#: What a default run may cost: the estimated seconds of the whole run on one worker process, divided by the
#: workers. Ten minutes: a study one waits for, not one left overnight.
RUN_BUDGET_SECONDS: Final = 600.0

#: Estimated seconds one seat of a kind spends deciding in one game, on one core of the 2-core reference
#: machine: greedy measured at about 0.012 s on the reference engine (less on the kernel); the search bot at
#: about 17 ms of CPU for each of its roughly 52 decisions a game, rounded up.
SEAT_GAME_SECONDS: Final[Mapping[str, float]] = {"ismcts": 1.0, "greedy": 0.012}

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
