"""The card table: every card of the game with its kind, faction, value and name in each theme (rules 1.1-1.5).

On the wire a card is only an id (a hand card 0-74, an emperor card 0-7), an add-on card its name
(``"FIVE_PLUS"``) and a revolution, victor or support card its faction (``"WORKERS"``). The ``"card-table"``
message (:func:`card_table`) tells a client in any language what each of those is, so that it can draw a
card without knowing how this library numbers them::

    {"format": "darkempire/1", "type": "card-table",
     "factions": [{"faction": "WORKERS", "names": {"STEAM_NOIR": "Workers", "DARK_EMPIRE": "Beggars"},
                   "colour": null}, ...],
     "hand_cards": [{"id": 0, "kind": "FACTION_CARD", "faction": "WORKERS", "value": 4,
                     "names": {"STEAM_NOIR": "Workers 4 #0", "DARK_EMPIRE": "Beggars 4 #0"}}, ...,
                    {"id": 65, "kind": "REINFORCEMENT_CARD", "faction": null, "value": 3,
                     "names": {"STEAM_NOIR": "+3 #65", "DARK_EMPIRE": "+3 #65"}}, ...],
     "emperor_cards": [...], "add_on_cards": [...],
     "revolution_cards": [...], "victor_cards": [...], "support_cards": [...]}

Each list is in the order of its ids (``hand_cards[i]`` is hand card ``i``, ``emperor_cards[i]`` emperor card
``i``) or of the factions (:class:`~darkempire.rules.cards.Faction`). A name is keyed by the theme's wire
name (the :class:`~darkempire.rules.cards.Theme` member's name), and is the wording of :mod:`darkempire.text`
(:meth:`FactionCard.label <darkempire.rules.cards.FactionCard.label>` for a hand card, the same words as
the labels of a :class:`~darkempire.wire.prompts.Prompt`). The table is the same in every game: loading one
checks that it is this library's own (:func:`check_card_table`).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from typing import Final

import attrs

from darkempire.rules.cards import (
    ADD_ON_FOR_PLAYERS,
    EMPEROR_CARDS,
    HAND_CARDS,
    REVOLUTION_CARD_VALUE,
    REVOLUTION_CARDS,
    AddOnCard,
    Faction,
    FactionCard,
    HandCard,
    Theme,
    faction_name,
)
from darkempire.text import (
    add_on_name,
    emperor_card_name,
    revolution_card_name,
    support_card_name,
    victor_card_name,
)
from darkempire.wire.wire_errors import InvalidValueError, quote

__all__ = [
    "FACTION_COLOURS",
    "AddOnCardEntry",
    "CardKind",
    "CardTable",
    "EmperorCardEntry",
    "FactionEntry",
    "HandCardEntry",
    "PerFactionCardEntry",
    "ThemeNames",
    "card_table",
    "check_card_table",
]


class CardKind(enum.Enum):
    """The kinds of card, in the rulebook's words (components; rules 1.2-1.5)."""

    #: One of the 65 faction cards, printed 4-8 (rule 1.2).
    FACTION_CARD = "faction card"
    #: One of the ten reinforcement cards, printed "+3": attached to a card on the table, it adds 3 (rules 1.2, 4.6).
    REINFORCEMENT_CARD = "reinforcement card"
    #: One of the eight emperor cards, printed 8-13 (rule 1.3).
    EMPEROR_CARD = "emperor card"
    #: The add-on emperor card, "5 +" (4 players) or "10 +" (5 players) (rule 1.3).
    ADD_ON_CARD = "add-on card"
    #: One of the five revolution cards, worth 3 to its faction the week it is revealed (rule 1.4).
    REVOLUTION_CARD = "revolution card"
    #: One of the five victor cards: a seat's secret faction (rule 1.5).
    VICTOR_CARD = "victor card"
    #: A temporary support card: each seat's set holds one per faction (rule 1.5).
    SUPPORT_CARD = "support card"


#: The colour of each faction that the rulebook names (in its example of weekly scoring: "the calendrical
#: order (green)", "the students (blue)"); it names no colour for the others.
FACTION_COLOURS: Final[dict[Faction, str]] = {Faction.CALENDRICAL_ORDER: "green", Faction.STUDENTS: "blue"}


@attrs.frozen
class ThemeNames:
    """A name in each theme, keyed by the theme's wire name (STEAM_NOIR, DARK_EMPIRE), as a prompt's theme
    names it (:class:`~darkempire.rules.cards.Theme`).

    :ivar STEAM_NOIR: the name in *Steam Noir: Revolution*.
    :ivar DARK_EMPIRE: the name in *Dark Empire: Revolution*.
    """

    STEAM_NOIR: str
    DARK_EMPIRE: str

    @classmethod
    def of(cls, name: Callable[[Theme], str]) -> ThemeNames:
        """The names that ``name`` gives in each theme."""
        return cls(STEAM_NOIR=name(Theme.STEAM_NOIR), DARK_EMPIRE=name(Theme.DARK_EMPIRE))

    @classmethod
    def same(cls, name: str) -> ThemeNames:
        """``name`` in every theme (a card whose name no theme changes)."""
        return cls(STEAM_NOIR=name, DARK_EMPIRE=name)

    def __getitem__(self, theme: Theme) -> str:
        """The name in ``theme``: ``names[Theme.DARK_EMPIRE]``."""
        return self.STEAM_NOIR if theme is Theme.STEAM_NOIR else self.DARK_EMPIRE


@attrs.frozen
class FactionEntry:
    """A faction: its wire name, its name in each theme and its colour where the rulebook names one, else null
    (rule 1.1).

    :ivar faction: the faction, as every message names it (``"WORKERS"``).
    :ivar names: its name in each theme (``"Workers"``, ``"Beggars"``).
    :ivar colour: its colour where the rulebook names one (:data:`FACTION_COLOURS`), else ``None``.
    """

    faction: Faction
    names: ThemeNames
    colour: str | None


@attrs.frozen
class HandCardEntry:
    """A hand card (rule 1.2): a faction card (ids 0-64, 13 * faction + k) with its faction and printed value 4-8,
    or a reinforcement card "+3" (ids 65-74) with no faction and value 3, which it adds to the faction card it is
    attached to (rule 4.6). A faction card played as a traitor card counts its value for the emperor and
    against its faction (rules 5.1, 5.2).

    :ivar id: the card's id, 0-74, as every message names it.
    :ivar kind: :attr:`CardKind.FACTION_CARD` (ids 0-64) or :attr:`CardKind.REINFORCEMENT_CARD` (65-74).
    :ivar faction: a faction card's faction (id ``13 * faction + k``); ``None`` for a reinforcement card.
    :ivar value: the printed value: 4-8 for a faction card; 3 for a reinforcement card, which adds it to the
        card it is attached to (rule 4.6). Played as a traitor card, a faction card counts for the emperor and
        against its faction (rules 5.1, 5.2).
    :ivar names: the card's label in each theme (``"Workers 4 #0"``, ``"+3 #65"``).
    """

    id: int
    kind: CardKind
    faction: Faction | None
    value: int
    names: ThemeNames


@attrs.frozen
class EmperorCardEntry:
    """An emperor card, ids 0-7, with its printed value 8-13 (rule 1.3).

    :ivar id: the card's id, 0-7, as every message names it.
    :ivar kind: :attr:`CardKind.EMPEROR_CARD`.
    :ivar value: the printed value, 8-13.
    :ivar names: its name in each theme (``"emperor card 10"``).
    """

    id: int
    kind: CardKind
    value: int
    names: ThemeNames


@attrs.frozen
class AddOnCardEntry:
    """An add-on emperor card: the value it adds to the emperor's strength in a week with an emperor card, and the
    player count it is used with (rules 1.3, 2.2, 5.2).

    :ivar card: the card, as every message names it (``"FIVE_PLUS"``).
    :ivar kind: :attr:`CardKind.ADD_ON_CARD`.
    :ivar value: what it adds to the emperor's strength in a week with an emperor card (rule 5.2).
    :ivar players: the player count it is used with.
    :ivar names: its name in each theme (``'add-on "5 +"'``).
    """

    card: AddOnCard
    kind: CardKind
    value: int
    players: int
    names: ThemeNames


@attrs.frozen
class PerFactionCardEntry:
    """A revolution, victor or temporary support card: one per faction, named on the wire by its faction; a
    revolution card's value 3 counts for its faction the week it is revealed, victor and support cards have none
    (rules 1.4, 1.5).

    :ivar faction: the card's faction, as every message names it.
    :ivar kind: :attr:`CardKind.REVOLUTION_CARD`, :attr:`CardKind.VICTOR_CARD` or :attr:`CardKind.SUPPORT_CARD`.
    :ivar value: 3 for a revolution card (added to its faction the week it is revealed); ``None`` for victor and
        support cards, which name a faction and count no points.
    :ivar names: its name in each theme (``"revolution card Workers (+3)"``, ``"victor card Workers"``).
    """

    faction: Faction
    kind: CardKind
    value: int | None
    names: ThemeNames


@attrs.frozen
class CardTable:
    """Every card of the game and every faction, with names in each theme: the "card-table" message. Each list
    is in the order of the ids or of the factions, so that hand_cards[id] is hand card id.

    :ivar factions: the five factions, in order.
    :ivar hand_cards: the 75 hand cards, by id.
    :ivar emperor_cards: the 8 emperor cards, by id.
    :ivar add_on_cards: the two add-on cards, "5 +" then "10 +".
    :ivar revolution_cards: the 5 revolution cards, by faction.
    :ivar victor_cards: the 5 victor cards, by faction.
    :ivar support_cards: the temporary support cards, one per faction (each seat's set holds one of each).
    """

    factions: tuple[FactionEntry, ...]
    hand_cards: tuple[HandCardEntry, ...]
    emperor_cards: tuple[EmperorCardEntry, ...]
    add_on_cards: tuple[AddOnCardEntry, ...]
    revolution_cards: tuple[PerFactionCardEntry, ...]
    victor_cards: tuple[PerFactionCardEntry, ...]
    support_cards: tuple[PerFactionCardEntry, ...]


def _hand_card_entry(card: HandCard) -> HandCardEntry:
    kind = CardKind.FACTION_CARD if isinstance(card, FactionCard) else CardKind.REINFORCEMENT_CARD
    return HandCardEntry(card.id, kind, card.faction, card.value, ThemeNames.of(card.label))


def _per_faction(kind: CardKind, name: Callable[[Faction, Theme], str], value: int | None) -> tuple[PerFactionCardEntry, ...]:
    return tuple(PerFactionCardEntry(f, kind, value, ThemeNames.of(functools.partial(name, f))) for f in Faction)


def _revolution_card_name(faction: Faction, theme: Theme) -> str:
    return revolution_card_name(REVOLUTION_CARDS[faction], theme)


def card_table() -> CardTable:
    """The card table of the game (the same every time): send it to a client once, as a ``"card-table"``
    message (``to_json(card_table())``).

    >>> table = card_table()
    >>> table.hand_cards[13].names[Theme.DARK_EMPIRE], table.hand_cards[13].value
    ('City Guard 4 #13', 4)
    >>> table.hand_cards[70].kind, table.hand_cards[70].faction, table.hand_cards[70].value
    (<CardKind.REINFORCEMENT_CARD: 'reinforcement card'>, None, 3)
    """
    add_ons = sorted((card, players) for players, card in ADD_ON_FOR_PLAYERS.items() if card is not None)
    return CardTable(
        factions=tuple(
            FactionEntry(f, ThemeNames.of(functools.partial(faction_name, f)), FACTION_COLOURS.get(f)) for f in Faction
        ),
        hand_cards=tuple(_hand_card_entry(card) for card in HAND_CARDS),
        emperor_cards=tuple(
            EmperorCardEntry(c.id, CardKind.EMPEROR_CARD, c.value, ThemeNames.same(emperor_card_name(c)))
            for c in EMPEROR_CARDS
        ),
        add_on_cards=tuple(
            AddOnCardEntry(card, CardKind.ADD_ON_CARD, int(card), players, ThemeNames.same(add_on_name(card)))
            for card, players in add_ons
        ),
        revolution_cards=_per_faction(CardKind.REVOLUTION_CARD, _revolution_card_name, REVOLUTION_CARD_VALUE),
        victor_cards=_per_faction(CardKind.VICTOR_CARD, victor_card_name, None),
        support_cards=_per_faction(CardKind.SUPPORT_CARD, support_card_name, None),
    )


def check_card_table(table: CardTable) -> None:
    """Refuse a card table that is not this library's own (:func:`card_table`): the cards are the rules'.

    :raises InvalidValueError: whose ``path`` names the first entry field that differs
        (``"hand_cards[3].value"``), or the list whose length differs.
    """
    own = card_table()
    for field in attrs.fields(CardTable):
        theirs, ours = getattr(table, field.name), getattr(own, field.name)
        if len(theirs) != len(ours):
            raise InvalidValueError(f"the card table has {len(ours)} {field.name}, not {len(theirs)}", path=field.name)
        for index, (entry, real) in enumerate(zip(theirs, ours, strict=True)):
            if entry != real:
                _refuse_entry(entry, real, f"{field.name}[{index}]")


def _refuse_entry(entry: attrs.AttrsInstance, real: attrs.AttrsInstance, path: str) -> None:
    for field in attrs.fields(type(real)):
        if getattr(entry, field.name) != getattr(real, field.name):
            where = f"{path}.{field.name}"
            got, want = getattr(entry, field.name), getattr(real, field.name)
            raise InvalidValueError(f"{where} is {quote(want)} in the game's card table, not {quote(got)}", path=where)
