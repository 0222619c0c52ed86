"""The week's table: the revealed emperor and revolution cards and the seats' plays (spec section 4).

A :class:`WeekTable` is all that weekly scoring needs, so
:func:`darkempire.rules.scoring.score_table` can answer "who wins this week?" for a
table built by hand, without a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from darkempire.rules.actions import Side
from darkempire.rules.errors import InvalidCardError
from darkempire.rules.cards import (
    REINFORCEMENT_BONUS,
    AddOnCard,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
    is_hand_card,
)

__all__ = ["Play", "Reinforcement", "WeekTable"]


def _tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(value)


@attrs.frozen
class Reinforcement:
    """A reinforcement card attached to a played faction card (rule 4.6).

    :ivar card: the reinforcement card (+3).
    :ivar seat: the seat that attached it. It does not own the target: the
        rulebook says the card "is no longer assigned to its original player".
    :ivar step: the play step (1-3) it was played in; always later than the
        target's step.
    """

    card: ReinforcementCard
    seat: int
    step: int


@attrs.frozen
class Play:
    """A faction card on the week's table (rules 4.3 and 4.6).

    :ivar seat: the seat that played it, and so owns it for support (ruling C).
    :ivar card: the faction card.
    :ivar side: revolution side, or emperor side (a traitor card).
    :ivar step: the play step (1-3) it was revealed in.
    :ivar reinforcements: reinforcement cards attached to it, in play order.
    """

    seat: int
    card: FactionCard = attrs.field()
    side: Side
    step: int
    reinforcements: tuple[Reinforcement, ...] = attrs.field(default=(), converter=_tuple)

    @card.validator
    def _faction_card_only(self, _attribute: object, card: object) -> None:
        if type(card) is not FactionCard:
            what = f"the reinforcement card {card.id}" if isinstance(card, ReinforcementCard) else f"{card!r:.60}"
            raise InvalidCardError(f"a Play holds a faction card, not {what} (ruling G)")

    @property
    def faction(self) -> Faction:
        """The card's faction."""
        return self.card.faction

    @property
    def strength(self) -> int:
        """Printed value plus 3 per attached reinforcement card, in points (ruling B)."""
        return self.card.value + REINFORCEMENT_BONUS * len(self.reinforcements)

    @property
    def is_traitor(self) -> bool:
        """True for a card played to the emperor side."""
        return self.side is Side.EMPEROR


@attrs.frozen
class WeekTable:
    """Everything on the table in one week (rules 4.1-4.6, ruling B).

    :ivar players: number of seats, 3-5.
    :ivar revolution_card: this week's revolution card (+3 to its faction).
    :ivar emperor_card: this week's emperor card, or ``None`` when the month's
        emperor pile is empty (ruling J).
    :ivar add_on: the "5 +" / "10 +" card when it counts this week: only with
        4 or 5 players and only under an emperor card (ruling J).
    :ivar plays: the faction cards played, in reveal order, with their
        attached reinforcements.
    :ivar idle: ``(step, seat)`` pairs of seats that had no legal card and
        played nothing at that step (ruling H).
    :ivar steps_revealed: how many of the three play steps have been revealed.
    """

    players: int
    revolution_card: RevolutionCard
    emperor_card: EmperorCard | None = None
    add_on: AddOnCard | None = None
    plays: tuple[Play, ...] = attrs.field(default=(), converter=_tuple)
    idle: frozenset[tuple[int, int]] = frozenset()
    steps_revealed: int = 0

    def revolution_plays(self, faction: Faction | None = None) -> Iterator[Play]:
        """Revolution-side plays, of ``faction`` if given."""
        return (
            p for p in self.plays if p.side is Side.REVOLUTION and (faction is None or p.card.faction is faction)
        )

    def traitor_plays(self) -> Iterator[Play]:
        """Emperor-side plays (traitor cards)."""
        return (p for p in self.plays if p.side is Side.EMPEROR)

    def play_of(self, card: HandCard) -> Play | None:
        """The play whose faction card is ``card``, or ``None``."""
        for p in self.plays:
            if p.card == card:
                return p
        return None

    def has_traitor_play(self, seat: int) -> bool:
        """Whether ``seat`` made its traitor play this week: a traitor card, or a
        reinforcement attached to anyone's traitor card (rule 4.4, ruling G)."""
        for p in self.plays:
            if p.side is Side.EMPEROR:
                if p.seat == seat:
                    return True
                for r in p.reinforcements:
                    if r.seat == seat:
                        return True
        return False

    def reinforcement_targets(self, seat: int, step: int) -> tuple[Play, ...]:
        """The plays a reinforcement card of ``seat`` may be attached to at play step ``step`` (rule 4.6, ruling G).

        Faction cards played at an earlier step this week: any revolution-side card, and a traitor card only
        while ``seat`` may still make its traitor play (an emperor card is out and it made none this week).
        At the first step there are none.
        """
        traitor_allowed = self.emperor_card is not None and not self.has_traitor_play(seat)
        return tuple(p for p in self.plays if p.step < step and (p.side is Side.REVOLUTION or traitor_allowed))

    def reinforcements_only(self, hand_sizes: Sequence[int]) -> frozenset[int]:
        """The seats this table shows to hold reinforcement cards only, given each seat's hand size now (ruling H).

        A seat idle at a play step while it held cards had nothing playable. A faction card is always
        playable (revolution side), so that seat held reinforcement cards only, and until the re-organize its
        hand only loses cards. Its hand size at that step is its size now plus the cards it played at later
        steps. Only public facts go in, so a spectator tells this as surely as the engine.

        Pass the week's table with all its plays: a table after placement lacks the placed cards.
        """
        later = [(p.seat, p.step) for p in self.plays]
        later += [(r.seat, r.step) for p in self.plays for r in p.reinforcements]
        return frozenset(
            seat for step, seat in self.idle if hand_sizes[seat] + sum(1 for s, at in later if s == seat and at > step)
        )

    def cards(self) -> Iterator[HandCard]:
        """Every hand card on the table: faction cards and attached reinforcements."""
        for p in self.plays:
            yield p.card
            for r in p.reinforcements:
                yield r.card
