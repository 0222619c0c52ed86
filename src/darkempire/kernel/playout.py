"""Random playouts on the kernel: uniformly random legal choices to the end of the game.

A playout draws each awaited seat's choice, in seat order, as ``rng.randrange(count)`` over the seat's
listing, exactly as :class:`darkempire.bots.RandomBot` draws ``legal[rng.randrange(len(legal))]``: with one
generator per seat seeded as the bots are, a playout is the game :func:`darkempire.bots.run_game` plays
with those bots. No action object is built on the way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from darkempire.kernel import encoding as enc
from darkempire.kernel import draws, steps

if TYPE_CHECKING:
    from darkempire.kernel.mutable import Table

__all__ = ["playout"]


def playout(k: Table, rng: random.Random | Sequence[random.Random]) -> int:
    """Play ``k`` to the end with uniformly random choices.

    :param rng: one generator for every seat, or one per seat (``rng[seat]`` draws that seat's choices).
    :returns: the number of decisions made (one per seat's choice, as the reference's ``apply`` calls).
    """
    generators = [rng] * k.n if isinstance(rng, random.Random) else list(rng)
    picks = [draws.picker(generator) for generator in generators]
    decisions = 0
    while k.phase != enc.GAME_OVER:
        pending = k.pending
        counts = k.counts
        for seat in k.awaiting:
            pending[seat] = picks[seat](counts[seat])
        decisions += len(k.awaiting)
        k.awaiting = []
        steps.resolve(k)
    return decisions
