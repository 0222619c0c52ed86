"""Chance: the game's random generator as a small immutable value (rules 2.3, 2.4, 3.3, 6.4).

Every shuffle in the game draws from a :class:`Chance`, which is part of the
game state, so a state is a complete value and the same seed and choices
always give the same game. No global random state is read or written.

The generator is counter-based: shuffle number ``k`` of a game with seed
``s`` uses the standard library's Mersenne Twister seeded with the string
``"darkempire:s:k"``, which Python seeds through SHA-512 the same way on every
platform and version since 3.2.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import attrs

__all__ = ["Chance"]

T = TypeVar("T")


@attrs.frozen
class Chance:
    """The state of the game's random generator.

    :ivar seed: the game's seed (any integer).
    :ivar draws: how many shuffles have been made so far.
    """

    seed: int
    draws: int = 0

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Chance]:
        """Return ``items`` in a random order and the generator's next state."""
        rng = random.Random(f"darkempire:{self.seed}:{self.draws}")
        order = list(items)
        rng.shuffle(order)
        return tuple(order), Chance(self.seed, self.draws + 1)
