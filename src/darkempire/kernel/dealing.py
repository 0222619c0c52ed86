"""Setting up a game on the kernel without the reference (rules 2.1-2.4), for playouts from the start.

The reference's :func:`~darkempire.rules.engine.deal` shuffles four piles with draws 0-3 of the seed's
generator: the five factions (victor cards), the 75 hand cards, the five revolution cards and the eight
emperor cards, each in id order, and deals from the tops. :func:`deal_into` does the same on ids.
"""

from __future__ import annotations

from typing import Any

from darkempire.kernel import encoding as enc
from darkempire.kernel import listing, steps
from darkempire.kernel.mutable import Table
from darkempire.rules.engine import SEED_LIMIT
from darkempire.rules.errors import ConfigError
from darkempire.rules.state import DEAL_SIZE, WEEKS, GameConfig

__all__ = ["deal_into"]


def deal_into(k: Table, config: object, seed: object) -> None:
    """Set ``k`` to the start of the game :func:`darkempire.rules.engine.deal` deals for ``config`` and ``seed``.

    ``config`` and ``seed`` are typed ``object``, not ``GameConfig | int`` and ``int``: the compiled build
    (:mod:`darkempire.kernel.build`) checks annotated types at the call, and a wrong one must still raise the
    rules' error below, not a ``TypeError``.

    :param config: the game's options, or the number of players.
    :raises ~darkempire.rules.errors.ConfigError: as the reference: 3-5 players, a seed of magnitude below 2**64.
    """
    # GameConfig refuses a count of any wrong type (rule 2.1); typed Any, not cast (mypyc checks a cast).
    players: Any = config
    game = config if isinstance(config, GameConfig) else GameConfig(players=players)
    if type(seed) is not int or not -SEED_LIMIT < seed < SEED_LIMIT:
        raise ConfigError(f"a seed is an integer of magnitude below 2**64, not {seed!r} (rule 9.3)")
    n = game.players
    k.n, k.seed, k.draws = n, seed, 0
    add_on = game.add_on
    k.add_on = int(add_on) if add_on is not None else 0
    factions, deck, revolution, emperor = list(range(5)), list(range(75)), list(range(5)), list(range(8))
    for pile in (factions, deck, revolution, emperor):
        steps.shuffle(k, pile)
    k.phase, k.month, k.week = enc.DRAFT_PASS, 1, 0
    k.victors = factions[:n]
    k.hands = [sorted(deck[DEAL_SIZE * s : DEAL_SIZE * (s + 1)]) for s in range(n)]
    k.draw, k.draw_top, k.discard = deck, DEAL_SIZE * n, []
    k.support, k.used = [-1] * n, [0] * n
    k.revolution_pile, k.revolution_reserve = revolution[:WEEKS], revolution[WEEKS:]
    k.emperor_pile, k.emperor_reserve = emperor[:WEEKS], emperor[WEEKS:]
    k.has_table, k.table_revolution, k.table_emperor = False, 0, -1
    k.plays, k.idle, k.revealed, k.traitor = [], [], 0, [False] * n
    k.scored, k.placements = False, []
    k.faction_track, k.emperor_track = [], []
    k.month_tokens, k.banked = [0] * n, [0] * n
    k.pending = [-1] * n
    k.history, k.month_scores, k.verdict = [], [], None
    k.awaiting = listing.prepare(k)
