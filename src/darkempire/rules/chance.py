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

from collections.abc import Sequence
from typing import ClassVar, TypeVar

import attrs

from tablekit.chance import Counter

__all__ = ["Chance"]

T = TypeVar("T")


@attrs.frozen
class Chance(Counter):
    """The state of the game's random generator: a :class:`tablekit.chance.Counter` of namespace
    ``"darkempire"`` whose every draw is one whole shuffle.

    :ivar seed: the game's seed (any integer).
    :ivar draws: how many shuffles have been made so far.
    """

    #: The legacy shuffles' namespace: shuffle ``k`` of seed ``s`` seeds with ``"darkempire:s:k"``, as it always did.
    NAMESPACE: ClassVar[str] = "darkempire"

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Chance]:
        """Return ``items`` in a random order and the generator's next state."""
        order = list(items)
        self.generator().shuffle(order)
        return tuple(order), self.following()
