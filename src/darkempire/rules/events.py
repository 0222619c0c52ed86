"""The event log: what each transition did, as typed values a client can animate (spec 9.2, 9.4).

Every transition of :mod:`darkempire.rules.engine` reports the events it caused as it acts (a
:class:`~darkempire.rules.engine.Transition`: the new state and its events). Nothing here compares two states or
searches for the choices that explain them: a log is the concatenation of the transitions' events.

* :func:`~darkempire.rules.engine.deal_reporting`, :func:`~darkempire.rules.engine.apply_reporting`,
  :func:`~darkempire.rules.engine.step` and :func:`~darkempire.rules.engine.withdraw_reporting` report them;
  :meth:`History.events() <darkempire.history.History.events>` gives a game's log.
* :func:`events_for` shows a seat (or a spectator) only what it may see.
* :func:`opening_events` describes a freshly dealt game.
* :func:`~darkempire.rules.engine.events_between` replays given choices from a state and checks where they lead.

Events come in the rulebook's order: a seat's choice (:class:`ChoiceMade`),
then, once the step resolves, the draft exchange (:class:`CardsPassed`,
:class:`DraftDiscarded`), :class:`MonthStarted`, :class:`WeekStarted` (the
emperor and revolution cards revealed), :class:`PlaysRevealed` for each play
step (idle seats included, ruling H), :class:`StrengthsRevealed`,
:class:`TokensAwarded`, :class:`EmperorCardScored`, :class:`PlacementsDue`,
:class:`CardsPlaced`, :class:`Reorganized`, :class:`MonthScored` and
:class:`GameOver`.

Each event carries its visibility (``event.visibility``): :data:`tablekit.events.PUBLIC`, or
:class:`tablekit.events.KnownTo` the seats that see it whole; the others see ``event.redacted()``.
Hidden information travels only in the *private* events and fields:

=========================  ==================================================
event                      who sees the hidden part
=========================  ==================================================
:class:`ChoiceMade`        the choosing seat sees its action; others see only
                           that it chose (``action`` is ``None``)
:class:`ChoiceWithdrawn`   public (a pending choice was undone)
:class:`CardsPassed`       the passing and the receiving seat see the cards
:class:`DraftDiscarded`    the discarding seat sees its cards
:class:`HandDealt`         only the seat itself (others get nothing)
:class:`HandRefilled`      only the seat itself (others get nothing)
=========================  ==================================================

Re-organize (rules 6.1-6.4): the card a seat takes back is **public** in
:class:`Reorganized`, because it lay face up on the table and everyone sees
it picked up; the *number* of hand cards each seat discards and draws is
public too, as at the table. *Which* hand cards a seat discarded and which it
drew are private (:class:`HandRefilled`). The engine reports the choices it
applied, so a card discarded and drawn again after a reshuffle is reported as
exactly that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeAlias, cast

import attrs

from darkempire.rules.actions import Action, PlayCard, Reinforce
from darkempire.rules.cards import HAND_CARDS, AddOnCard, EmperorCard, Faction, HandCard, RevolutionCard
from darkempire.rules.errors import DarkEmpireError, IllegalActionError, InvalidArgumentError, WrongSeatError
from darkempire.rules.scoring import MonthScore, PlacementDue, TokenAward, Verdict
from darkempire.rules.state import DEAL_SIZE, GameState, Phase, ScoredCard
from tablekit import events as kit
from tablekit.events import PUBLIC, KnownTo, Visibility
from tablekit.wire import quote

__all__ = [
    "CardsPassed",
    "CardsPlaced",
    "ChoiceMade",
    "ChoiceWithdrawn",
    "DraftDiscarded",
    "Draw",
    "EmperorCardScored",
    "Event",
    "EventDerivationError",
    "EVENT_TYPES",
    "GameOver",
    "GameStarted",
    "HandDealt",
    "HandRefilled",
    "MonthScored",
    "MonthStarted",
    "PlacementsDue",
    "PlaysRevealed",
    "PublicEvent",
    "Reorganized",
    "RevealedPlay",
    "SeatEvent",
    "StrengthsRevealed",
    "TokensAwarded",
    "WeekStarted",
    "as_kit_event",
    "deal_draws",
    "events_for",
    "opening_events",
]


class EventDerivationError(DarkEmpireError, ValueError):
    """The choices given to :func:`~darkempire.rules.engine.events_between` do not lead from its earlier state to
    its later one, or :func:`opening_events` was given a state that is not freshly dealt."""


def _cards(value: Iterable[HandCard]) -> frozenset[HandCard]:
    return frozenset(value)


def _opt_cards(value: Iterable[HandCard] | None) -> frozenset[HandCard] | None:
    return None if value is None else frozenset(value)


# --------------------------------------------------------------------------- visibility


class PublicEvent:
    """The base of every public event class: every seat and spectator sees such an event whole.

    The private classes say the same two things of themselves: their ``visibility``, a
    :class:`tablekit.events.KnownTo`, and their ``redacted()`` form. Those known to one seat derive from
    :class:`SeatEvent`; :class:`CardsPassed`, known to two, says it itself.
    """

    __slots__ = ()

    @property
    def visibility(self) -> Visibility:
        """Who sees this event whole: everyone (:data:`tablekit.events.PUBLIC`)."""
        return PUBLIC

    def redacted(self) -> Event | None:
        """What the seats outside :attr:`visibility` see: nothing is hidden, so there are none."""
        return None


class SeatEvent:
    """The base of the event classes known to their ``seat`` alone: :class:`HandDealt`, :class:`ChoiceMade`,
    :class:`DraftDiscarded` and :class:`HandRefilled`.

    Each class names in :attr:`hidden` the field the other seats see as ``None`` (they learn that the event
    happened, not what it held), or leaves it ``None``: then they see nothing of the event, and a public event
    of the same moment tells them what they may know (the hand sizes, the counts).
    """

    __slots__ = ()
    #: The seat that knows the event (a field of each subclass).
    seat: int
    #: The field the other seats see as ``None``; ``None``: they see nothing of the event.
    hidden: ClassVar[str | None] = None

    @property
    def visibility(self) -> Visibility:
        """Known to ``seat`` alone.

        :raises InvalidArgumentError: the event was built without its fields (``object.__new__``).
        """
        try:
            seat = self.seat
        except AttributeError:
            raise InvalidArgumentError(_unbuilt(self)) from None
        return KnownTo((seat,))

    def redacted(self) -> Event | None:
        """What the other seats see: this event with its :attr:`hidden` field ``None``, or nothing.

        :raises InvalidArgumentError: the event was built without its fields (``object.__new__``).
        """
        if self.hidden is None:
            return None
        if _missing_field(self) is not None:
            raise InvalidArgumentError(_unbuilt(self))
        event: Event = attrs.evolve(cast(Any, self), **{self.hidden: None})  # each subclass is an attrs class
        return event


def _missing_field(event: object) -> str | None:
    """The first field of ``event``'s attrs class that it lacks (built with ``object.__new__``), if any."""
    fields = attrs.fields(cast(Any, type(event)))  # every event class is an attrs class
    return next((f.name for f in fields if not hasattr(event, f.name)), None)


def _unbuilt(event: object) -> str:
    return (
        f"a {type(event).__name__} without its {_missing_field(event) or 'fields'} is no event: an event is built "
        f"by its class, with every field"
    )


# --------------------------------------------------------------------------- chance draws


@attrs.frozen
class Draw:
    """One chance draw as every seat sees it: its name and how many equally likely options it had.

    The engine draws every random card one at a time (``tablekit.chance``), and the public event of the
    moment lists those draws in order: :class:`GameStarted` the deal's, :class:`WeekStarted` the revealed
    revolution and emperor cards', :class:`Reorganized` the refill's. This is the kit's
    :class:`~tablekit.chance.Concealed` form of an outcome: what was drawn is told where it may be seen (the
    revealed cards in :class:`WeekStarted`, the seat's own cards in :class:`HandDealt` and
    :class:`HandRefilled`), and the options themselves, the cards still in a pile, are never told.

    :ivar name: what the draw is: ``victor seat 1``, ``deal seat 1 #4`` (the deal's 9 cards of a seat, from
        ``#0``), ``revolution m1w2``, ``emperor m1w2``, ``refill m1w2 seat 0 #1``.
    :ivar count: the number of options: the cards (or factions) it was drawn among.
    """

    name: str
    count: int


# --------------------------------------------------------------------------- event types


@attrs.frozen
class GameStarted(PublicEvent):
    """The game was dealt (rules 2.1-2.4). Public.

    :ivar players: number of seats, 3-5.
    :ivar add_on: the add-on emperor card in play, if any (rule 2.2).
    :ivar hand_sizes: cards dealt to each seat (9 each).
    :ivar draws: the deal's chance draws: each seat's victor card, then each seat's hand cards one at a time
        (the drawn values are in each seat's :class:`HandDealt`).
    """

    players: int
    add_on: AddOnCard | None
    hand_sizes: tuple[int, ...]
    draws: tuple[Draw, ...] = ()


@attrs.frozen
class HandDealt(SeatEvent):
    """The cards and the victor card a seat was dealt (rules 2.3, 2.4). Private to ``seat``.

    :ivar seat: the seat.
    :ivar cards: its 9 hand cards.
    :ivar victor: its secret victor faction.
    """

    seat: int
    cards: frozenset[HandCard] = attrs.field(converter=_cards)
    victor: Faction


@attrs.frozen
class ChoiceMade(SeatEvent):
    """A seat made its choice for the current step (rule 9.2).

    :ivar seat: the seat that chose.
    :ivar phase: the decision phase the choice belongs to.
    :ivar action: the choice; ``None`` in every other seat's log, where only
        the fact that the seat chose is visible.
    """

    seat: int
    phase: Phase
    action: Action | None

    hidden = "action"


@attrs.frozen
class ChoiceWithdrawn(PublicEvent):
    """A seat's pending choice was taken back before the step resolved (see :mod:`darkempire.history`). Public.

    :ivar seat: the seat.
    :ivar phase: the decision phase.
    """

    seat: int
    phase: Phase


@attrs.frozen
class CardsPassed:
    """Draft: ``seat`` passed 2 cards to ``to_seat`` (rule 2.5, ruling A).

    :ivar seat: the passing seat.
    :ivar to_seat: the receiving seat, ``seat + 1 mod players``.
    :ivar cards: the 2 cards, seen by both seats; ``None`` for every other seat.
    """

    seat: int
    to_seat: int
    cards: frozenset[HandCard] | None = attrs.field(converter=_opt_cards)

    @property
    def visibility(self) -> Visibility:
        """Known to the passing and the receiving seat.

        :raises InvalidArgumentError: the event was built without its fields (``object.__new__``).
        """
        if _missing_field(self) is not None:
            raise InvalidArgumentError(_unbuilt(self))
        return KnownTo((self.seat, self.to_seat))

    def redacted(self) -> Event | None:
        """Other seats see that 2 cards went from ``seat`` to ``to_seat`` (``cards`` is ``None``).

        :raises InvalidArgumentError: the event was built without its fields (``object.__new__``).
        """
        if _missing_field(self) is not None:
            raise InvalidArgumentError(_unbuilt(self))
        return attrs.evolve(self, cards=None)


@attrs.frozen
class DraftDiscarded(SeatEvent):
    """Draft: ``seat`` discarded 2 cards face down (rule 2.6).

    :ivar seat: the seat.
    :ivar count: how many cards it discarded (2).
    :ivar cards: the cards, seen only by the seat itself; ``None`` for others.
    """

    seat: int
    count: int
    cards: frozenset[HandCard] | None = attrs.field(converter=_opt_cards)

    hidden = "cards"


@attrs.frozen
class MonthStarted(PublicEvent):
    """A month began; the seats now secretly choose their temporary support (rules 3.1-3.3). Public.

    :ivar month: 1-3.
    :ivar revolution_pile_size: face-down revolution cards in the month's pile (4).
    :ivar emperor_pile_size: face-down emperor cards in the month's pile, ``min(4, unscored)`` (ruling J).
    """

    month: int
    revolution_pile_size: int
    emperor_pile_size: int


@attrs.frozen
class WeekStarted(PublicEvent):
    """A week began: the top revolution and emperor cards are revealed (rule 4.1, ruling J). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar revolution_card: this week's revolution card (+3 to its faction).
    :ivar emperor_card: this week's emperor card, or ``None`` when the emperor pile is empty.
    :ivar add_on: the add-on card under the emperor card, if it counts this week.
    :ivar draws: the chance draws that revealed the two cards, among this month's cards not revealed yet
        (rules 3.3, 4.1): the revolution card's, then the emperor card's if there is one.
    """

    month: int
    week: int
    revolution_card: RevolutionCard
    emperor_card: EmperorCard | None
    add_on: AddOnCard | None
    draws: tuple[Draw, ...] = ()


@attrs.frozen
class RevealedPlay:
    """One seat's revealed card at a play step (rules 4.2-4.6).

    :ivar seat: the seat.
    :ivar action: the faction card and its side, or the reinforcement card and its target.
    """

    seat: int
    action: PlayCard | Reinforce


@attrs.frozen
class PlaysRevealed(PublicEvent):
    """All seats revealed their cards of one play step at once (rules 4.2-4.6, ruling H). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar step: the play step, 1-3.
    :ivar plays: the revealed cards in seat order.
    :ivar idle: seats that had no legal card and played nothing (ruling H).
    """

    month: int
    week: int
    step: int
    plays: tuple[RevealedPlay, ...]
    idle: frozenset[int]


@attrs.frozen
class StrengthsRevealed(PublicEvent):
    """Weekly scoring: the factions' and the emperor's strengths (rules 5.1-5.3, rulings B, C). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar strengths: each faction's strength in points, indexed by faction.
    :ivar emperor_strength: the emperor's strength in points, ``None`` without an emperor card.
    :ivar strongest: the strongest faction(s).
    :ivar support: ``support[seat][faction]`` in points (ruling C).
    """

    month: int
    week: int
    strengths: tuple[int, ...]
    emperor_strength: int | None
    strongest: frozenset[Faction]
    support: tuple[tuple[int, ...], ...]


@attrs.frozen
class TokensAwarded(PublicEvent):
    """Weekly scoring: tokens for the seats that supported the strongest faction(s) (rule 5.4, ruling D). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar awards: each award, in seat order (may be empty).
    :ivar tokens: this week's tokens per seat, in points.
    :ivar month_tokens: each seat's tokens this month after the award, in points.
    """

    month: int
    week: int
    awards: tuple[TokenAward, ...]
    tokens: tuple[int, ...]
    month_tokens: tuple[int, ...]


@attrs.frozen
class EmperorCardScored(PublicEvent):
    """The emperor was as strong as the strongest faction or more: its card is scored (rule 5.7, ruling F). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar card: the emperor card; it scores its printed value.
    :ivar emperor_total: the emperor's score-track total afterwards, in points.
    """

    month: int
    week: int
    card: EmperorCard
    emperor_total: int


@attrs.frozen
class PlacementsDue(PublicEvent):
    """Weekly scoring: which seats must place a card of which faction (rules 5.5, 5.6, ruling E). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar dues: the seats, factions and candidate cards.
    """

    month: int
    week: int
    dues: tuple[PlacementDue, ...]


@attrs.frozen
class CardsPlaced(PublicEvent):
    """Faction cards went to the score track (rules 5.5, 5.6, ruling E). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar placed: the placed cards, in seat order.
    :ivar card_points: each faction's score-track points afterwards, indexed by faction.
    """

    month: int
    week: int
    placed: tuple[ScoredCard, ...]
    card_points: tuple[int, ...]


@attrs.frozen
class Reorganized(PublicEvent):
    """Re-organize is done (rules 6.1-6.5, ruling K). Public.

    :ivar month: 1-3.
    :ivar week: 1-4, the week that ended.
    :ivar take_backs: per seat, the face-up table card it took back, or ``None``.
    :ivar discarded: per seat, how many hand cards it discarded.
    :ivar drawn: per seat, how many cards it drew to refill.
    :ivar reshuffled: whether the discard pile was shuffled into a new draw pile (rule 6.4).
    :ivar draws: the refill's chance draws, one per card drawn, in seat order, each among the draw pile's
        cards (rule 6.4, ruling R); which cards a seat drew is in its :class:`HandRefilled`.
    """

    month: int
    week: int
    take_backs: tuple[HandCard | None, ...]
    discarded: tuple[int, ...]
    drawn: tuple[int, ...]
    reshuffled: bool
    draws: tuple[Draw, ...] = ()


@attrs.frozen
class HandRefilled(SeatEvent):
    """Which hand cards a seat discarded and drew at re-organize (rules 6.3, 6.4). Private to ``seat``.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar seat: the seat.
    :ivar discarded: the hand cards it discarded.
    :ivar drawn: the cards it drew.
    """

    month: int
    week: int
    seat: int
    discarded: frozenset[HandCard] = attrs.field(converter=_cards)
    drawn: frozenset[HandCard] = attrs.field(converter=_cards)


@attrs.frozen
class MonthScored(PublicEvent):
    """Monthly scoring: support cards revealed, totals, 6-point split, tokens banked (rules 7.1-7.3, ruling L). Public.

    :ivar score: the month's scoring; ``score.support`` reveals every seat's support card.
    :ivar banked_tokens: each seat's banked tokens afterwards, in points.
    """

    score: MonthScore
    banked_tokens: tuple[int, ...]


@attrs.frozen
class GameOver(PublicEvent):
    """The final judgement; every victor card is revealed (rules 8.1-8.5, ruling M). Public.

    :ivar verdict: the verdict.
    """

    verdict: Verdict


#: Any event.
Event: TypeAlias = (
    GameStarted
    | HandDealt
    | ChoiceMade
    | ChoiceWithdrawn
    | CardsPassed
    | DraftDiscarded
    | MonthStarted
    | WeekStarted
    | PlaysRevealed
    | StrengthsRevealed
    | TokensAwarded
    | EmperorCardScored
    | PlacementsDue
    | CardsPlaced
    | Reorganized
    | HandRefilled
    | MonthScored
    | GameOver
)

#: Every event class, in the order of :data:`Event`.
EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    HandDealt,
    ChoiceMade,
    ChoiceWithdrawn,
    CardsPassed,
    DraftDiscarded,
    MonthStarted,
    WeekStarted,
    PlaysRevealed,
    StrengthsRevealed,
    TokensAwarded,
    EmperorCardScored,
    PlacementsDue,
    CardsPlaced,
    Reorganized,
    HandRefilled,
    MonthScored,
    GameOver,
)


# --------------------------------------------------------------------------- per-seat filtering


def as_kit_event(event: Event) -> kit.Event[Event]:
    """``event`` as a :class:`tablekit.events.Event`: the payload with its visibility and what the other
    seats see of it (its ``redacted()`` form), as the game-agnostic kit carries events."""
    visibility = event.visibility
    if isinstance(visibility, kit.Public):
        return kit.Event(event)
    return kit.Event(event, visibility, event.redacted())


def events_for(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    """The events as ``seat`` may see them (spec 9.4); ``seat=None`` gives the spectator's log.

    A pure filter over each event's own visibility (:func:`tablekit.events.events_for`): public events pass
    unchanged; a private event keeps its hidden part only for the seats it is known to (see the table in
    the module docstring): another seat gets its ``redacted()`` form, with the hidden field set to
    ``None``, or nothing at all for :class:`HandDealt` and :class:`HandRefilled`, whose public counterparts
    are :class:`GameStarted` and :class:`Reorganized`.

    :param events: events reported by the engine's transitions (a :class:`~darkempire.rules.engine.Transition`'s,
        :meth:`History.events() <darkempire.history.History.events>`, :func:`opening_events`).
    :param seat: the viewing seat, or ``None`` for a spectator.
    :returns: the visible events, in order.
    :raises WrongSeatError: if ``seat`` is neither ``None`` nor a seat number: an ``int`` (not a ``bool``) from
        0 to 4, and below the number of players when the events tell it (as :func:`~darkempire.rules.views.player_view`
        refuses such a seat, rule 9.1). A wrong seat must not be read as another one: ``True == 1``.
    :raises InvalidArgumentError: if ``events`` is not an iterable of events (a string or ``None``, say, or
        one with an item of no event type, or an event built without its fields by ``object.__new__``): an
        item of no known type cannot be redacted, so it is not passed on as if it were public.
    """
    events = _events_given(events)
    if seat is not None:
        _check_viewer(events, seat)
    return kit.events_for([as_kit_event(e) for e in events], seat)


def _events_given(events: object) -> tuple[Event, ...]:
    """``events`` as a tuple, checked to hold events only."""
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise InvalidArgumentError(f"events_for takes an iterable of events, not {type(events).__name__}")
    given = tuple(events)
    for index, event in enumerate(given):
        if type(event) not in EVENT_TYPES:
            raise InvalidArgumentError(f"item {index} given to events_for is no event: {quote(event)}")
        if _missing_field(event) is not None:  # its repr would fail too: it is named by its class
            raise InvalidArgumentError(f"item {index} given to events_for: {_unbuilt(event)}")
    return given


#: The most seats a game has (rule 2.1).
_MAX_SEATS = 5


def _players_told(events: Sequence[Event]) -> int | None:
    """The number of players, from the first event that tells it (a per-seat tuple), if any."""
    for event in events:
        if isinstance(event, GameStarted):
            return event.players
        if isinstance(event, TokensAwarded):
            return len(event.tokens)
        if isinstance(event, Reorganized):
            return len(event.take_backs)
        if isinstance(event, MonthScored):
            return len(event.banked_tokens)
        if isinstance(event, StrengthsRevealed):
            return len(event.support)
    return None


def _check_viewer(events: Sequence[Event], seat: object) -> None:
    players = _players_told(events)
    limit = _MAX_SEATS if players is None else players
    if type(seat) is not int or not 0 <= seat < limit:
        game = "any game (seats are 0-4)" if players is None else f"a {players}-player game"
        raise WrongSeatError(f"there is no seat {seat!r} in {game}", rule="9.1")


# --------------------------------------------------------------------------- the deal


def opening_events(state: GameState) -> tuple[Event, ...]:
    """The events of the deal, for a state straight from :func:`~darkempire.rules.engine.deal` (rules 2.1-2.4).

    :func:`~darkempire.rules.engine.deal_reporting` reports the same events with the state.

    :returns: :class:`GameStarted`, then one private :class:`HandDealt` per seat.
    :raises EventDerivationError: if ``state`` is not a freshly dealt game.
    """
    if state.phase is not Phase.DRAFT_PASS or any(p is not None for p in state.pending):
        raise EventDerivationError("opening events describe a freshly dealt game, before any choice")
    started = GameStarted(state.players, state.config.add_on, tuple(len(h) for h in state.hands), deal_draws(state.players))
    return (started, *[HandDealt(s, state.hands[s], state.victors[s]) for s in state.seats])


def deal_draws(players: int) -> tuple[Draw, ...]:
    """The deal's chance draws for ``players`` seats, in the engine's order (rules 2.3, 2.4): each seat's
    victor card among the factions not drawn yet, then each seat's 9 hand cards one at a time among the
    cards not dealt yet. Their names and counts depend on the number of seats alone."""
    victors = [Draw(f"victor seat {s}", len(Faction) - s) for s in range(players)]
    cards = [
        Draw(f"deal seat {s} #{k}", len(HAND_CARDS) - DEAL_SIZE * s - k) for s in range(players) for k in range(DEAL_SIZE)
    ]
    return (*victors, *cards)
