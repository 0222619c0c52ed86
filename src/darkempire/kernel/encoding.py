"""The kernel's integer encoding of the components, and the fixed tables it reads (spec section 1).

Everything the kernel holds is a small ``int`` or a list of them, so that a step of the game is list
indexing and integer arithmetic, not attribute reads and object builds:

* a **hand card** is its id, 0-74 (:data:`~darkempire.rules.cards.HAND_CARDS`): ids 0-64 are faction cards,
  faction ``id // 13`` and printed value ``FACTION_CARD_VALUES[id % 13]`` (:data:`CARD_FACTION`,
  :data:`CARD_VALUE`); ids 65-74 are reinforcement cards (faction :data:`NO_FACTION`);
* an **emperor card** is its id, 0-7 (value :data:`EMPEROR_VALUE`), and "no emperor card" is ``-1``;
* a **faction** is its :class:`~darkempire.rules.cards.Faction` value, 0-4, and so is a revolution card;
* a **side** is ``0`` (revolution) or ``1`` (emperor, a traitor card);
* a **set of factions** (the support cards a seat used) is a bit mask, bit ``f`` for faction ``f``.

The tables here are immutable tuples built once at import from the reference's own constants, so the
kernel never disagrees with :mod:`darkempire.rules.cards` about a card. They hold no state.
"""

from __future__ import annotations

import itertools
from typing import Final

from darkempire.rules.actions import Side
from darkempire.rules.cards import (
    EMPEROR_CARDS,
    FACTION_CARDS,
    HAND_CARDS,
    REINFORCEMENT_BONUS,
    REVOLUTION_CARD_VALUE,
    Faction,
)
from darkempire.rules.state import Phase

__all__ = [
    "CARD_FACTION",
    "CARD_VALUE",
    "EMPEROR_VALUE",
    "FACTIONS",
    "NO_FACTION",
    "PAIRS",
    "PHASES",
    "PHASE_CODE",
    "REINFORCEMENT_BONUS",
    "REVOLUTION_CARD_VALUE",
    "SIDES",
    "SUBSETS",
    "SUBSET_POSITIONS",
    "subset_masks",
]

#: The faction of a reinforcement card, which has none.
NO_FACTION: Final = -1
#: Faction of each hand card by id; :data:`NO_FACTION` for the ten reinforcement cards.
CARD_FACTION: Final[tuple[int, ...]] = tuple(
    int(card.faction) if card.faction is not None else NO_FACTION for card in HAND_CARDS
)
#: Printed value of each hand card by id (3 for a reinforcement card, which is never summed as a value).
CARD_VALUE: Final[tuple[int, ...]] = tuple(card.value for card in HAND_CARDS)
#: Printed value of each emperor card by id.
EMPEROR_VALUE: Final[tuple[int, ...]] = tuple(card.value for card in EMPEROR_CARDS)
#: The factions in their fixed order (rule 1.1), for turning an int back into the enum.
FACTIONS: Final[tuple[Faction, ...]] = tuple(Faction)
#: The sides by code: 0 revolution, 1 emperor.
SIDES: Final[tuple[Side, Side]] = (Side.REVOLUTION, Side.EMPEROR)
#: The number of faction cards: hand-card ids from here on are reinforcement cards.
FACTION_CARD_COUNT: Final[int] = len(FACTION_CARDS)

#: The phases by the kernel's phase code: the code is the position here (the rulebook's order).
PHASES: Final[tuple[Phase, ...]] = tuple(Phase)
#: The kernel's code of each phase.
PHASE_CODE: Final = {phase: code for code, phase in enumerate(PHASES)}
DRAFT_PASS: Final = PHASE_CODE[Phase.DRAFT_PASS]
DRAFT_DISCARD: Final = PHASE_CODE[Phase.DRAFT_DISCARD]
CHOOSE_SUPPORT: Final = PHASE_CODE[Phase.CHOOSE_SUPPORT]
PLAY_1: Final = PHASE_CODE[Phase.PLAY_1]
PLAY_2: Final = PHASE_CODE[Phase.PLAY_2]
PLAY_3: Final = PHASE_CODE[Phase.PLAY_3]
WEEK_SCORING: Final = PHASE_CODE[Phase.WEEK_SCORING]
PLACEMENT: Final = PHASE_CODE[Phase.PLACEMENT]
REORGANIZE: Final = PHASE_CODE[Phase.REORGANIZE]
MONTH_SCORING: Final = PHASE_CODE[Phase.MONTH_SCORING]
GAME_OVER: Final = PHASE_CODE[Phase.GAME_OVER]
# The play phases' codes are consecutive, in step order: step = code - PLAY_1 + 1.
assert (PLAY_1 + 1, PLAY_1 + 2) == (PLAY_2, PLAY_3)


def subset_masks(size: int) -> tuple[int, ...]:
    """Every subset of ``size`` positions as a bit mask, in the reference engine's order: by size, and each
    size in :func:`itertools.combinations` order (the order of ``darkempire.rules.engine._subset_at``).

    Subset ``k`` of a hand is the cards at the set bits of ``subset_masks(len(hand))[k]``, so a
    re-organize's discards are one table look-up, not a walk through binomial blocks.

    >>> subset_masks(2)
    (0, 1, 2, 3)
    """
    masks: list[int] = []
    for count in range(size + 1):
        for combo in itertools.combinations(range(size), count):
            masks.append(sum(1 << position for position in combo))
    return tuple(masks)


#: :func:`subset_masks` of every hand size a game reaches (at most 9, at the draft), built once.
SUBSETS: Final[tuple[tuple[int, ...], ...]] = tuple(subset_masks(size) for size in range(10))
#: The positions in each subset of :data:`SUBSETS`, in order: ``SUBSET_POSITIONS[size][k]`` lists subset
#: ``k``'s positions (a re-organize's discards as one look-up and one list build).
SUBSET_POSITIONS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(p for p in range(size) if mask >> p & 1) for mask in masks) for size, masks in enumerate(SUBSETS)
)
#: The pairs of positions of a hand of each size, in :func:`itertools.combinations` order (rules 2.5, 2.6).
PAIRS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple(itertools.combinations(range(size), 2)) for size in range(10)
)
