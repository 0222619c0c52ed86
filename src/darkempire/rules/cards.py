"""The game's components as typed values (spec section 1).

Every physical card has its own identity, so two Workers 4s are two different
cards and a card can be followed from the draw pile to the score track:

* 75 hand cards (:data:`HAND_CARDS`, ids 0-74): 65 faction cards
  (:class:`FactionCard`), 13 per faction with printed values 4, 4, 4, 5, 5,
  5, 6, 6, 6, 7, 7, 8, 8, and ten reinforcement cards ("+3",
  :class:`ReinforcementCard`). A :data:`HandCard` is either.
* 8 emperor cards (:data:`EMPEROR_CARDS`, ids 0-7) with values 8, 9, 10, 10,
  11, 11, 12, 13, and the add-on cards "5 +" (4 players) and "10 +"
  (5 players) (:class:`AddOnCard`).
* 5 revolution cards (:data:`REVOLUTION_CARDS`), value 3, one per faction.
* 5 victor cards and a temporary support set per seat: both are simply a
  :class:`Faction` in the game state.

Faction names depend on the theme (:class:`Theme`); the rules never do.
"""

from __future__ import annotations

import enum
from typing import Final, TypeAlias, TypeGuard

import attrs

from darkempire.rules.errors import InvalidCardError

__all__ = [
    "ADD_ON_FOR_PLAYERS",
    "EMPEROR_CARDS",
    "FACTION_CARD_VALUES",
    "FACTION_CARDS",
    "HAND_CARDS",
    "REINFORCEMENT_BONUS",
    "REINFORCEMENT_CARDS",
    "REVOLUTION_CARDS",
    "REVOLUTION_CARD_VALUE",
    "AddOnCard",
    "EmperorCard",
    "Faction",
    "FactionCard",
    "HandCard",
    "ReinforcementCard",
    "RevolutionCard",
    "Theme",
    "add_on_for",
    "faction_name",
    "is_hand_card",
]


class Faction(enum.IntEnum):
    """One of the five revolutionary factions (rule 1.1).

    The member names are the Steam Noir names; :func:`faction_name` gives the
    Dark Empire names. The integer value indexes every per-faction tuple in
    this library (strengths, totals), in this order.
    """

    #: Workers (Dark Empire: Beggars).
    WORKERS = 0
    #: Calendrical Order (Dark Empire: City Guard).
    CALENDRICAL_ORDER = 1
    #: Suffragettes (Dark Empire: Alchemists).
    SUFFRAGETTES = 2
    #: Mechandros (Dark Empire: Apparats).
    MECHANDROS = 3
    #: Students (the same name in both themes).
    STUDENTS = 4

    def __repr__(self) -> str:
        return f"Faction.{self.name}"


class Theme(enum.Enum):
    """The edition whose faction names are shown. Rules never depend on it."""

    #: *Steam Noir: Revolution* (2013), the names the code uses.
    STEAM_NOIR = "steam-noir"
    #: *Dark Empire: Revolution*, the later edition.
    DARK_EMPIRE = "dark-empire"


_NAMES: Final[dict[Theme, tuple[str, str, str, str, str]]] = {
    Theme.STEAM_NOIR: ("Workers", "Calendrical Order", "Suffragettes", "Mechandros", "Students"),
    Theme.DARK_EMPIRE: ("Beggars", "City Guard", "Alchemists", "Apparats", "Students"),
}


def faction_name(faction: Faction, theme: Theme = Theme.STEAM_NOIR) -> str:
    """Return the printed name of ``faction`` in ``theme`` (rule 1.1).

    >>> faction_name(Faction.WORKERS, Theme.DARK_EMPIRE)
    'Beggars'
    >>> faction_name(Faction.CALENDRICAL_ORDER)
    'Calendrical Order'
    """
    return _NAMES[theme][faction]


#: Printed values of one faction's 13 cards (rule 1.2).
FACTION_CARD_VALUES: Final[tuple[int, ...]] = (4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8)
#: What a reinforcement card adds to the faction card it is attached to (rule 1.2).
REINFORCEMENT_BONUS: Final[int] = 3
#: The value of every revolution card (rule 1.4).
REVOLUTION_CARD_VALUE: Final[int] = 3
#: Printed values of the emperor cards, by id (rule 1.3).
_EMPEROR_VALUES: Final[tuple[int, ...]] = (8, 9, 10, 10, 11, 11, 12, 13)


@attrs.frozen(order=False)
class FactionCard:
    """One of the 65 faction cards, 13 per faction (rule 1.2).

    :ivar id: identity, 0-64: ``13 * faction + k`` for the faction's
        ``k``-th card.
    :ivar faction: the card's faction.
    :ivar value: printed value in points, 4-8.

    Compare cards with ``==``; sort them with ``key=lambda c: c.id``.

    :raises InvalidCardError: if ``(id, faction, value)`` is not one of the
        65 real faction cards, so every ``FactionCard`` in existence is a real card.
    """

    id: int
    faction: Faction
    value: int

    def __attrs_post_init__(self) -> None:
        # Equality is field by field, and 0 == Faction.WORKERS: only exact types keep a forged card from
        # passing for a real one (and then scoring as something else).
        if type(self.id) is not int or not 0 <= self.id < 65:
            raise InvalidCardError(f"faction card ids are 0-64, not {self.id!r} (rule 1.2)")
        faction = Faction(self.id // 13)
        value = FACTION_CARD_VALUES[self.id % 13]
        if type(self.faction) is not Faction or self.faction is not faction or type(self.value) is not int or self.value != value:
            raise InvalidCardError(
                f"hand card {self.id} is {faction!r} {value}, not {self.faction!r} {self.value!r} (rule 1.2)"
            )

    @property
    def is_reinforcement(self) -> bool:
        """False: this is no reinforcement card."""
        return False

    def label(self, theme: Theme = Theme.STEAM_NOIR) -> str:
        """A short human label such as ``"Workers 4 #1"``."""
        return f"{faction_name(self.faction, theme)} {self.value} #{self.id}"


@attrs.frozen(order=False)
class ReinforcementCard:
    """One of the ten reinforcement cards, "+3" (rule 1.2).

    It belongs to no faction: it is attached to a faction card on the table
    and adds :data:`REINFORCEMENT_BONUS` to it (rule 4.6).

    :ivar id: identity, 65-74.
    :raises InvalidCardError: if ``id`` is not one of the ten.
    """

    id: int

    def __attrs_post_init__(self) -> None:
        if type(self.id) is not int or not 65 <= self.id < 75:
            raise InvalidCardError(f"reinforcement card ids are 65-74, not {self.id!r} (rule 1.2)")

    @property
    def faction(self) -> None:
        """``None``: a reinforcement card has no faction."""
        return None

    @property
    def value(self) -> int:
        """Always 3 points (:data:`REINFORCEMENT_BONUS`)."""
        return REINFORCEMENT_BONUS

    @property
    def is_reinforcement(self) -> bool:
        """True: this is a "+3" reinforcement card."""
        return True

    def label(self, theme: Theme = Theme.STEAM_NOIR) -> str:
        """A short human label such as ``"+3 #67"``, the same in every theme."""
        return f"+3 #{self.id}"


#: One of the 75 hand cards: a :class:`FactionCard` (ids 0-64) or a
#: :class:`ReinforcementCard` (ids 65-74) (rule 1.2). Tell them apart with
#: ``isinstance(card, FactionCard)``, or read ``card.faction`` (``None`` for a
#: reinforcement card) and ``card.value`` of either.
HandCard: TypeAlias = FactionCard | ReinforcementCard


def is_hand_card(value: object) -> TypeGuard[HandCard]:
    """Whether ``value`` is a hand card: a :class:`FactionCard` or :class:`ReinforcementCard` itself.

    Not an instance of a subclass: its own ``__eq__`` could make it equal to
    any card (and so match a card in a hand or on the table), so the engine
    treats it as no card at all.

    >>> is_hand_card(HAND_CARDS[70]), is_hand_card(70)
    (True, False)
    """
    return type(value) is FactionCard or type(value) is ReinforcementCard


@attrs.frozen(order=False)
class EmperorCard:
    """One of the eight emperor cards (rule 1.3).

    :ivar id: identity, 0-7.
    :ivar value: printed value in points, 8-13.
    :raises InvalidCardError: if ``(id, value)`` is not one of the 8 real cards.
    """

    id: int
    value: int

    def __attrs_post_init__(self) -> None:
        if type(self.id) is not int or not 0 <= self.id < len(_EMPEROR_VALUES):
            raise InvalidCardError(f"emperor card ids are 0-7, not {self.id!r} (rule 1.3)")
        if type(self.value) is not int or self.value != _EMPEROR_VALUES[self.id]:
            raise InvalidCardError(f"emperor card {self.id} is worth {_EMPEROR_VALUES[self.id]}, not {self.value!r} (rule 1.3)")


class AddOnCard(enum.IntEnum):
    """The add-on emperor card: "5 +" with 4 players, "10 +" with 5 (rule 1.3).

    Its integer value is the points it adds to the emperor's strength.
    """

    #: "5 +", used with 4 players.
    FIVE_PLUS = 5
    #: "10 +", used with 5 players.
    TEN_PLUS = 10

    def __repr__(self) -> str:
        return f"AddOnCard.{self.name}"


#: The add-on card used for each player count (rule 2.2).
ADD_ON_FOR_PLAYERS: Final[dict[int, AddOnCard | None]] = {
    3: None,
    4: AddOnCard.FIVE_PLUS,
    5: AddOnCard.TEN_PLUS,
}


def add_on_for(players: int) -> AddOnCard | None:
    """Return the add-on card of a ``players``-player game, or ``None`` for 3 (rule 2.2)."""
    return ADD_ON_FOR_PLAYERS[players]


@attrs.frozen(order=False)
class RevolutionCard:
    """One of the five revolution cards, value 3 (rule 1.4).

    :ivar faction: the faction it adds :data:`REVOLUTION_CARD_VALUE` points to
        in the week it is revealed.
    """

    faction: Faction

    def __attrs_post_init__(self) -> None:
        if type(self.faction) is not Faction:
            raise InvalidCardError(f"a revolution card names a Faction, not {self.faction!r} (rule 1.4)")

    @property
    def value(self) -> int:
        """Always 3 points."""
        return REVOLUTION_CARD_VALUE


#: The 65 faction cards (ids 0-64), indexed by id.
FACTION_CARDS: Final[tuple[FactionCard, ...]] = tuple(
    FactionCard(id=13 * faction + k, faction=faction, value=value)
    for faction in Faction
    for k, value in enumerate(FACTION_CARD_VALUES)
)
#: The 10 reinforcement cards (ids 65-74).
REINFORCEMENT_CARDS: Final[tuple[ReinforcementCard, ...]] = tuple(ReinforcementCard(65 + k) for k in range(10))
#: All 75 hand cards, indexed by id.
HAND_CARDS: Final[tuple[HandCard, ...]] = FACTION_CARDS + REINFORCEMENT_CARDS
#: All 8 emperor cards, indexed by id (the add-on cards are :class:`AddOnCard`).
EMPEROR_CARDS: Final[tuple[EmperorCard, ...]] = tuple(
    EmperorCard(id=i, value=v) for i, v in enumerate(_EMPEROR_VALUES)
)
#: All 5 revolution cards, indexed by faction.
REVOLUTION_CARDS: Final[tuple[RevolutionCard, ...]] = tuple(RevolutionCard(f) for f in Faction)
