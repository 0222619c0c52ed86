"""The reference's random draws, made without the standard library's Python-level wrappers.

Two draws dominate a playout's chance: a shuffle (``random.Random.shuffle``, the deal, each month's piles,
each reshuffle of the discard pile, rule 6.4) and a random bot's pick (``rng.randrange(count)``). Both are,
in CPython, loops over ``getrandbits``: ``_randbelow(n)`` draws ``n.bit_length()`` bits until the number is
below ``n``, and ``shuffle`` swaps item ``i`` with item ``_randbelow(i + 1)`` from the last item down.
:func:`shuffle` and :func:`below` make the same calls to ``getrandbits`` and so give the same results, a few
Python frames cheaper per number.

That sameness is the library's implementation, not its documented promise, so it is checked once at import
(:data:`SAME_AS_LIBRARY`, an immutable flag): where it does not hold, both functions call the library.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

__all__ = ["SAME_AS_LIBRARY", "below", "shuffle"]

#: ``n.bit_length()`` for every ``n`` a game draws below (a shuffle of at most the 75 hand cards).
_BITS: Final[tuple[int, ...]] = tuple(n.bit_length() for n in range(129))


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number in ``0 .. n - 1`` as CPython's ``Random._randbelow_with_getrandbits(n)`` draws it (``n > 0``)."""
    bits = _BITS[n] if n < 129 else n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def _shuffle(generator: random.Random, items: list[int]) -> None:
    getrandbits = generator.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        bits = _BITS[n] if n < 129 else n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _same_as_library() -> bool:
    """Whether :func:`_shuffle` and :func:`_below` draw as this Python's ``shuffle`` and ``randrange`` do."""
    for size in (0, 1, 2, 5, 8, 30, 75, 200):
        mine, theirs = list(range(size)), list(range(size))
        _shuffle(random.Random(f"check:{size}"), mine)
        random.Random(f"check:{size}").shuffle(theirs)
        if mine != theirs:
            return False
    ours, library = random.Random("check"), random.Random("check")
    sizes = (*range(1, 140), 512, 1000)
    return all(_below(ours.getrandbits, n) == library.randrange(n) for n in sizes for _ in range(3))


#: Whether the fast draws are this Python's own (checked at import; immutable).
SAME_AS_LIBRARY: Final[bool] = _same_as_library()


def shuffle(generator: random.Random, items: list[int]) -> None:
    """``generator.shuffle(items)``: the same permutation."""
    if SAME_AS_LIBRARY and type(generator) is random.Random:
        _shuffle(generator, items)
    else:
        generator.shuffle(items)


def below(generator: random.Random, n: int) -> int:
    """``generator.randrange(n)`` for ``n > 0``: the same number."""
    if SAME_AS_LIBRARY and type(generator) is random.Random:
        return _below(generator.getrandbits, n)
    return generator.randrange(n)


def picker(generator: random.Random) -> Callable[[int], int]:
    """A function drawing as ``generator.randrange``, bound once for a playout's many picks."""
    if SAME_AS_LIBRARY and type(generator) is random.Random:
        getrandbits = generator.getrandbits
        bits_of = _BITS

        def pick(n: int) -> int:
            bits = bits_of[n] if n < 129 else n.bit_length()
            r = getrandbits(bits)
            while r >= n:
                r = getrandbits(bits)
            return r

        return pick
    return generator.randrange
