"""The actions a seat can take, one type per kind of decision (spec section 9).

Each decision phase takes its own action types:

===========================  ====================================================  ========================
phase                        action                                                rule
===========================  ====================================================  ========================
``DRAFT_PASS``               :class:`PassCards`                                    2.5, ruling A
``DRAFT_DISCARD``            :class:`DiscardCards`                                 2.6
``CHOOSE_SUPPORT``           :class:`ChooseSupport`                                3.2
``PLAY_1`` to ``PLAY_3``     :class:`PlayCard`, :class:`Reinforce`,                4.2-4.6, rulings G, H
                             :class:`PlayNothing`
``PLACEMENT``                :class:`PlaceCards`                                   5.6, ruling E
``REORGANIZE``               :class:`Reorganize`                                   6.1-6.3, ruling K
===========================  ====================================================  ========================

Actions are frozen values: equal actions compare equal and hash alike, and
card sets are frozensets, so the order in which cards are named never matters.
"""

from __future__ import annotations

import enum
from typing import TypeAlias

import attrs

from darkempire.rules.cards import Faction, HandCard

__all__ = [
    "Action",
    "ChooseSupport",
    "DiscardCards",
    "PassCards",
    "PlaceCards",
    "PlayCard",
    "PlayNothing",
    "Reinforce",
    "Reorganize",
    "Side",
]


class Side(enum.Enum):
    """Where a faction card is played (rule 4.3)."""

    #: Toward the revolution card: adds to its faction's strength.
    REVOLUTION = "revolution"
    #: Toward the emperor card, as a traitor card: adds to the emperor's
    #: strength and subtracts from its faction's.
    EMPEROR = "emperor"


def _cards(value: frozenset[HandCard] | tuple[HandCard, ...] | list[HandCard]) -> frozenset[HandCard]:
    return frozenset(value)


@attrs.frozen
class PassCards:
    """Draft: pass two hand cards to the next seat, seat ``i`` to ``i + 1 mod n`` (rule 2.5, ruling A).

    :ivar cards: exactly 2 distinct cards from the seat's 9.
    """

    cards: frozenset[HandCard] = attrs.field(converter=_cards)


@attrs.frozen
class DiscardCards:
    """Draft: discard two of the nine cards held after the pass (rule 2.6).

    :ivar cards: exactly 2 distinct cards from the seat's hand.
    """

    cards: frozenset[HandCard] = attrs.field(converter=_cards)


@attrs.frozen
class ChooseSupport:
    """Secretly choose this month's temporary support card (rule 3.2).

    :ivar faction: a faction whose support card the seat has not used yet.
    """

    faction: Faction


@attrs.frozen
class PlayCard:
    """Play a faction card to the revolution side, or to the emperor side as a traitor card (rule 4.3).

    :ivar card: a faction card in the seat's hand.
    :ivar side: :attr:`Side.EMPEROR` makes it the seat's one traitor play of the
        week (rule 4.4) and needs an emperor card on the table (ruling J).
    """

    card: HandCard
    side: Side = Side.REVOLUTION


@attrs.frozen
class Reinforce:
    """Attach a reinforcement card (+3) to a faction card played in an earlier step this week (rule 4.6, ruling G).

    :ivar card: a reinforcement card in the seat's hand.
    :ivar target: a faction card on this week's table, played by any seat in
        an earlier step. If it is a traitor card, this is the seat's traitor
        play of the week.
    """

    card: HandCard
    target: HandCard


@attrs.frozen
class PlayNothing:
    """Play no card at this step: the only legal action of a seat that holds cards but none it may play,
    e.g. only reinforcement cards at the first step (ruling H).

    The seat still submits it, like any other play, so that whether it could
    play is not revealed before the step is (ruling N).
    """


@attrs.frozen
class PlaceCards:
    """Choose which of one's revolution-side cards go to the score track (rule 5.6, ruling E).

    :ivar cards: one card for each faction the seat must place this week.
    """

    cards: frozenset[HandCard] = attrs.field(converter=_cards)


@attrs.frozen
class Reorganize:
    """Re-organize at the end of a week (rules 6.2 and 6.3, ruling K).

    :ivar take_back: one of the seat's own revolution-side faction cards still
        on the table, to return to its hand, or ``None``.
    :ivar discards: any number of cards from the seat's hand (as held before
        the take-back) to discard.
    """

    take_back: HandCard | None = None
    discards: frozenset[HandCard] = attrs.field(default=frozenset(), converter=_cards)


#: Any action a seat can take.
Action: TypeAlias = (
    PassCards | DiscardCards | ChooseSupport | PlayCard | Reinforce | PlayNothing | PlaceCards | Reorganize
)
