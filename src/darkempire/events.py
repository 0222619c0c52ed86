"""The public event log: what happened between two states, as typed values a client can animate (spec 9.2, 9.4).

The engine keeps no log: every event here is derived by comparing two states
of the same game (and the finished weeks in ``GameState.history``), so the
engine stays a set of pure transitions.

* :func:`events_between` lists the events from one state to the next.
* :func:`events_for` shows a seat (or a spectator) only what it may see.
* :func:`opening_events` describes a freshly dealt game.

Events come in the rulebook's order: a seat's choice (:class:`ChoiceMade`),
then, once the step resolves, the draft exchange (:class:`CardsPassed`,
:class:`DraftDiscarded`), :class:`MonthStarted`, :class:`WeekStarted` (the
emperor and revolution cards revealed), :class:`PlaysRevealed` for each play
step (idle seats included, ruling H), :class:`StrengthsRevealed`,
:class:`TokensAwarded`, :class:`EmperorCardScored`, :class:`PlacementsDue`,
:class:`CardsPlaced`, :class:`Reorganized`, :class:`MonthScored` and
:class:`GameOver`.

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
drew are private (:class:`HandRefilled`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TypeAlias

import attrs

from darkempire import engine
from darkempire.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
)
from darkempire.cards import AddOnCard, EmperorCard, Faction, HandCard, RevolutionCard
from darkempire.errors import DarkEmpireError, IllegalActionError, InvalidArgumentError, WrongSeatError
from darkempire.scoring import MonthScore, PlacementDue, TokenAward, Verdict
from darkempire.state import MONTHS, PLAY_PHASES, WEEKS, GameState, Phase, ScoredCard, WeekRecord
from darkempire.table import WeekTable

__all__ = [
    "CardsPassed",
    "CardsPlaced",
    "ChoiceMade",
    "ChoiceWithdrawn",
    "DraftDiscarded",
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
    "Reorganized",
    "RevealedPlay",
    "StrengthsRevealed",
    "TokensAwarded",
    "WeekStarted",
    "events_between",
    "events_for",
    "opening_events",
]


class EventDerivationError(DarkEmpireError, ValueError):
    """The two states given to :func:`events_between` are not one step apart in one game."""


def _cards(value: Iterable[HandCard]) -> frozenset[HandCard]:
    return frozenset(value)


def _opt_cards(value: Iterable[HandCard] | None) -> frozenset[HandCard] | None:
    return None if value is None else frozenset(value)


# --------------------------------------------------------------------------- event types


@attrs.frozen
class GameStarted:
    """The game was dealt (rules 2.1-2.4). Public.

    :ivar players: number of seats, 3-5.
    :ivar add_on: the add-on emperor card in play, if any (rule 2.2).
    :ivar hand_sizes: cards dealt to each seat (9 each).
    """

    players: int
    add_on: AddOnCard | None
    hand_sizes: tuple[int, ...]


@attrs.frozen
class HandDealt:
    """The cards and the victor card a seat was dealt (rules 2.3, 2.4). Private to ``seat``.

    :ivar seat: the seat.
    :ivar cards: its 9 hand cards.
    :ivar victor: its secret victor faction.
    """

    seat: int
    cards: frozenset[HandCard] = attrs.field(converter=_cards)
    victor: Faction


@attrs.frozen
class ChoiceMade:
    """A seat made its choice for the current step (rule 9.2).

    :ivar seat: the seat that chose.
    :ivar phase: the decision phase the choice belongs to.
    :ivar action: the choice; ``None`` in every other seat's log, where only
        the fact that the seat chose is visible.
    """

    seat: int
    phase: Phase
    action: Action | None


@attrs.frozen
class ChoiceWithdrawn:
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


@attrs.frozen
class DraftDiscarded:
    """Draft: ``seat`` discarded 2 cards face down (rule 2.6).

    :ivar seat: the seat.
    :ivar count: how many cards it discarded (2).
    :ivar cards: the cards, seen only by the seat itself; ``None`` for others.
    """

    seat: int
    count: int
    cards: frozenset[HandCard] | None = attrs.field(converter=_opt_cards)


@attrs.frozen
class MonthStarted:
    """A month began; the seats now secretly choose their temporary support (rules 3.1-3.3). Public.

    :ivar month: 1-3.
    :ivar revolution_pile_size: face-down revolution cards in the month's pile (4).
    :ivar emperor_pile_size: face-down emperor cards in the month's pile, ``min(4, unscored)`` (ruling J).
    """

    month: int
    revolution_pile_size: int
    emperor_pile_size: int


@attrs.frozen
class WeekStarted:
    """A week began: the top revolution and emperor cards are revealed (rule 4.1, ruling J). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar revolution_card: this week's revolution card (+3 to its faction).
    :ivar emperor_card: this week's emperor card, or ``None`` when the emperor pile is empty.
    :ivar add_on: the add-on card under the emperor card, if it counts this week.
    """

    month: int
    week: int
    revolution_card: RevolutionCard
    emperor_card: EmperorCard | None
    add_on: AddOnCard | None


@attrs.frozen
class RevealedPlay:
    """One seat's revealed card at a play step (rules 4.2-4.6).

    :ivar seat: the seat.
    :ivar action: the faction card and its side, or the reinforcement card and its target.
    """

    seat: int
    action: PlayCard | Reinforce


@attrs.frozen
class PlaysRevealed:
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
class StrengthsRevealed:
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
class TokensAwarded:
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
class EmperorCardScored:
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
class PlacementsDue:
    """Weekly scoring: which seats must place a card of which faction (rules 5.5, 5.6, ruling E). Public.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar dues: the seats, factions and candidate cards.
    """

    month: int
    week: int
    dues: tuple[PlacementDue, ...]


@attrs.frozen
class CardsPlaced:
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
class Reorganized:
    """Re-organize is done (rules 6.1-6.5, ruling K). Public.

    :ivar month: 1-3.
    :ivar week: 1-4, the week that ended.
    :ivar take_backs: per seat, the face-up table card it took back, or ``None``.
    :ivar discarded: per seat, how many hand cards it discarded.
    :ivar drawn: per seat, how many cards it drew to refill.
    :ivar reshuffled: whether the discard pile was shuffled into a new draw pile (rule 6.4).
    """

    month: int
    week: int
    take_backs: tuple[HandCard | None, ...]
    discarded: tuple[int, ...]
    drawn: tuple[int, ...]
    reshuffled: bool


@attrs.frozen
class HandRefilled:
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
class MonthScored:
    """Monthly scoring: support cards revealed, totals, 6-point split, tokens banked (rules 7.1-7.3, ruling L). Public.

    :ivar score: the month's scoring; ``score.support`` reveals every seat's support card.
    :ivar banked_tokens: each seat's banked tokens afterwards, in points.
    """

    score: MonthScore
    banked_tokens: tuple[int, ...]


@attrs.frozen
class GameOver:
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


def _redact(event: Event, seat: int | None) -> Event | None:
    """``event`` as ``seat`` (``None``: a spectator) may see it, or ``None`` if it sees nothing of it."""
    if isinstance(event, (HandDealt, HandRefilled)):
        return event if event.seat == seat else None
    if isinstance(event, ChoiceMade):
        return event if event.seat == seat else attrs.evolve(event, action=None)
    if isinstance(event, CardsPassed):
        return event if seat in (event.seat, event.to_seat) else attrs.evolve(event, cards=None)
    if isinstance(event, DraftDiscarded):
        return event if event.seat == seat else attrs.evolve(event, cards=None)
    return event


def events_for(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    """The events as ``seat`` may see them (spec 9.4); ``seat=None`` gives the spectator's log.

    Public events pass unchanged. A private event keeps its hidden part only
    for the seats entitled to it (see the table in the module docstring):
    another seat gets the event with the hidden field set to ``None``, or
    nothing at all for :class:`HandDealt` and :class:`HandRefilled`, whose
    public counterparts are :class:`GameStarted` and :class:`Reorganized`.

    :param events: events from :func:`events_between` or :func:`opening_events`.
    :param seat: the viewing seat, or ``None`` for a spectator.
    :returns: the visible events, in order.
    :raises WrongSeatError: if ``seat`` is neither ``None`` nor a seat number: an ``int`` (not a ``bool``) from
        0 to 4, and below the number of players when the events tell it (as :func:`~darkempire.views.player_view`
        refuses such a seat, rule 9.1). A wrong seat must not be read as another one: ``True == 1``.
    :raises InvalidArgumentError: if ``events`` is not an iterable of events (a string or ``None``, say, or
        one with an item of no event type): an item of no known type cannot be redacted, so it is not
        passed on as if it were public.
    """
    events = _events_given(events)
    if seat is not None:
        _check_viewer(events, seat)
    visible = (_redact(e, seat) for e in events)
    return tuple(e for e in visible if e is not None)


def _events_given(events: object) -> tuple[Event, ...]:
    """``events`` as a tuple, checked to hold events only."""
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise InvalidArgumentError(f"events_for takes an iterable of events, not {type(events).__name__}")
    given = tuple(events)
    for index, event in enumerate(given):
        if type(event) not in EVENT_TYPES:
            raise InvalidArgumentError(f"item {index} given to events_for is no event: {event!r:.80}")
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


# --------------------------------------------------------------------------- deriving events


def opening_events(state: GameState) -> tuple[Event, ...]:
    """The events of the deal, for a state straight from :func:`~darkempire.engine.deal` (rules 2.1-2.4).

    :returns: :class:`GameStarted`, then one private :class:`HandDealt` per seat.
    :raises EventDerivationError: if ``state`` is not a freshly dealt game.
    """
    if state.phase is not Phase.DRAFT_PASS or any(p is not None for p in state.pending):
        raise EventDerivationError("opening events describe a freshly dealt game, before any choice")
    started: list[Event] = [GameStarted(state.players, state.config.add_on, tuple(len(h) for h in state.hands))]
    return tuple(started + [HandDealt(s, state.hands[s], state.victors[s]) for s in state.seats])


def events_between(
    before: GameState, after: GameState, *, choices: Mapping[int, Action] | None = None
) -> tuple[Event, ...]:
    """The events from ``before`` to ``after``, two states of one game a single step apart (spec 9.2).

    ``after`` must follow ``before`` by

    * recording or withdrawing pending choices without resolving the step
      (:func:`~darkempire.engine.apply` of a seat that is not the last one
      awaited): one :class:`ChoiceMade` or :class:`ChoiceWithdrawn` per seat; or
    * resolving one step, by :func:`~darkempire.engine.apply` of the last
      awaited seat or by one simultaneous transition such as
      :func:`~darkempire.engine.play`, together with every automatic step the
      engine runs after it (scoring, forced choices, the next week or month).

    Give ``choices``, the ``{seat: action}`` choices made between the two
    states (the seat and action passed to ``apply``), when you have them: they
    are checked by re-running the engine's transition and used as they are.
    Without them the choices are recovered from the two states and checked the
    same way, so the events always describe a game that the rules allow.

    Re-organize is the one step whose choices the states do not always show:
    after the discard pile was reshuffled into the draw pile, a seat may have
    drawn back a card it discarded, or drawn one of its own table cards
    instead of taking it back. Without ``choices`` the candidates are tried,
    fewest redraws first, and the first that the engine confirms is
    reported. Rarely (about one re-organize choice in a thousand in random
    games) two different choices lead to exactly the same state; the events
    then report the one with fewer redraws, which can differ from the real
    choice in which card came back to the hand, or whether a card was taken
    back or drawn. Pass ``choices`` to avoid this (:class:`~darkempire.history.History`
    and :mod:`darkempire.records` do).

    :param before: the earlier state.
    :param after: the later state.
    :param choices: the choices made between them, if known.
    :returns: the events in the rulebook's order, with every private detail;
        filter them with :func:`events_for` before sending them to a seat.
    :raises EventDerivationError: if the states belong to different games,
        ``after`` does not follow ``before`` by one step, or ``choices`` do not
        lead from one to the other.
    """
    if before.config != after.config or before.chance.seed != after.chance.seed:
        raise EventDerivationError("the two states belong to different games (config or seed differ)")
    if before == after and not choices:
        return ()
    if attrs.evolve(before, pending=after.pending) == after:
        events = _pending_events(before, after)
        made = {e.seat: e.action for e in events if isinstance(e, ChoiceMade)}
        if choices is not None and made != dict(choices):
            raise EventDerivationError("the choices given are not the ones recorded between the two states")
        return events
    if not before.phase.is_decision:
        raise EventDerivationError(f"no step resolves from the automatic {before.phase.value} phase")
    if choices is None:
        found = _recover_choices(before, after)
    else:
        found = dict(choices)
        if _resolve(before, found) != after:
            raise EventDerivationError("the choices given do not lead from the earlier state to the later one")
    result: list[Event] = [ChoiceMade(s, before.phase, a) for s, a in sorted(found.items())]
    result += _Walker(before, after, found).run()
    return tuple(result)


def _pending_events(before: GameState, after: GameState) -> tuple[Event, ...]:
    events: list[Event] = []
    for seat in before.seats:
        old, new = before.pending[seat], after.pending[seat]
        if old == new:
            continue
        if old is None and new is not None:
            events.append(ChoiceMade(seat, before.phase, new))
        elif old is not None and new is None:
            events.append(ChoiceWithdrawn(seat, before.phase))
        else:
            raise EventDerivationError(f"seat {seat}'s pending choice changed; a choice is withdrawn before another")
    return tuple(events)


# --------------------------------------------------------------------------- recovering the choices


def _week_table(state: GameState, month: int, week: int) -> WeekTable | None:
    """The table of week ``(month, week)`` as complete as ``state`` knows it, before any placement."""
    record = _record(state, month, week)
    if record is not None:
        return record.table
    if state.table is not None and state.month == month and state.week == week:
        return state.table
    return None


def _record(state: GameState, month: int, week: int) -> WeekRecord | None:
    for record in reversed(state.history):
        if record.month == month and record.week == week:
            return record
    return None


def _step_actions(table: WeekTable, step: int) -> dict[int, PlayCard | Reinforce]:
    """Each seat's action at play step ``step`` of ``table``, in seat order."""
    actions: dict[int, PlayCard | Reinforce] = {}
    for play in table.plays:
        if play.step == step:
            actions[play.seat] = PlayCard(play.card, play.side)
        for r in play.reinforcements:
            if r.step == step:
                actions[r.seat] = Reinforce(r.card, play.card)
    return dict(sorted(actions.items()))


def _resolve(state: GameState, choices: Mapping[int, Action]) -> GameState | None:
    """The engine's result of the current step with ``choices`` (for the awaited seats), or ``None`` if illegal."""
    try:
        return _transition(state, choices)
    except IllegalActionError:
        return None


def _transition(state: GameState, choices: Mapping[int, Action]) -> GameState:
    phase = state.phase
    if phase is Phase.DRAFT_PASS:
        return engine.pass_cards(state, choices)  # type: ignore[arg-type]
    if phase is Phase.DRAFT_DISCARD:
        return engine.discard(state, choices)  # type: ignore[arg-type]
    if phase is Phase.CHOOSE_SUPPORT:
        return engine.choose_support(state, choices)  # type: ignore[arg-type]
    if phase in PLAY_PHASES:
        return engine.play(state, choices)  # type: ignore[arg-type]
    if phase is Phase.PLACEMENT:
        return engine.place_cards(state, choices)  # type: ignore[arg-type]
    return engine.reorganize(state, choices)  # type: ignore[arg-type]


def _recover_choices(before: GameState, after: GameState) -> dict[int, Action]:
    """The choices of the seats awaited in ``before`` that turn ``before`` into ``after``, checked with the engine."""
    unknown = sorted(engine.awaited_seats(before))
    if before.phase is Phase.REORGANIZE:
        return _recover_reorganize(before, after, unknown)
    choices: dict[int, Action] = {}
    phase = before.phase
    month, week = before.month, before.week
    for seat in unknown:
        action: Action | None = None
        if phase is Phase.DRAFT_PASS:
            action = PassCards(frozenset(before.hands[seat]) - frozenset(after.hands[seat]))
        elif phase is Phase.DRAFT_DISCARD:
            action = DiscardCards(frozenset(before.hands[seat]) - frozenset(after.hands[seat]))
        elif phase is Phase.CHOOSE_SUPPORT:
            support = after.support[seat] if after.month == month else _month_support(after, month, seat)
            action = ChooseSupport(support) if support is not None else None
        elif phase in PLAY_PHASES:
            table = _week_table(after, month, week)
            if table is not None:
                action = _step_actions(table, phase.step).get(seat)
                if action is None and (phase.step, seat) in table.idle:
                    action = PlayNothing()
        else:
            record = _record(after, month, week)
            if record is not None:
                action = PlaceCards(tuple(s.card for s in record.placed if s.seat == seat))
        if action is None:
            raise EventDerivationError(f"the later state does not show seat {seat}'s choice")
        choices[seat] = action
    if _resolve(before, choices) != after:
        raise EventDerivationError("the later state does not follow the earlier one by one step")
    return choices


def _month_support(state: GameState, month: int, seat: int) -> Faction | None:
    if len(state.month_scores) >= month:
        return state.month_scores[month - 1].support[seat]
    return None


#: How many candidate re-organize choices :func:`events_between` checks with the engine before giving up.
REORGANIZE_SEARCH_LIMIT = 20_000


def _refilled_hands(before: GameState, after: GameState) -> list[frozenset[HandCard]]:
    """Each seat's hand right after re-organize: its hand in ``after`` plus what it played since (forced plays)."""
    hands = [set(h) for h in after.hands]
    if after.table is not None and (after.month, after.week) != (before.month, before.week):
        for play in after.table.plays:
            hands[play.seat].add(play.card)
            for r in play.reinforcements:
                hands[r.seat].add(r.card)
    return [frozenset(h) for h in hands]


def _seat_candidates(before: GameState, seat: int, refilled: frozenset[HandCard]) -> list[tuple[int, Reorganize]]:
    """``(redraws, action)`` pairs for one seat's possible re-organize choices, fewest redraws first.

    A card that left the hand was discarded. A card still in hand was kept,
    or discarded and drawn again after a reshuffle (a redraw). An own table
    card now in hand was taken back, or (at most one is taken back) drawn.
    """
    assert before.table is not None
    hand = frozenset(before.hands[seat])
    gone = hand - refilled
    stayed = sorted(hand & refilled, key=lambda c: c.id)
    own = [p.card for p in before.table.revolution_plays() if p.seat == seat and p.card in refilled]
    take_backs: list[HandCard | None] = [None, *own]
    candidates: list[tuple[int, Reorganize]] = []
    for take in take_backs:
        drawn_table = len(own) - (take is not None)
        for k in range(len(stayed) + 1):
            for redrawn in itertools.combinations(stayed, k):
                candidates.append((k + drawn_table, Reorganize(take, gone | frozenset(redrawn))))
    candidates.sort(key=lambda pair: pair[0])
    return candidates


def _recover_reorganize(before: GameState, after: GameState, unknown: Sequence[int]) -> dict[int, Action]:
    refilled = _refilled_hands(before, after)
    per_seat = [_seat_candidates(before, s, refilled[s]) for s in unknown]
    tried = 0
    for combo in _by_total_cost(per_seat):
        tried += 1
        if tried > REORGANIZE_SEARCH_LIMIT:
            break
        choices: dict[int, Action] = {s: a for s, (_, a) in zip(unknown, combo, strict=True)}
        if _resolve(before, choices) == after:
            return choices
    raise EventDerivationError("the later state does not follow the earlier one by one re-organize step")


def _by_total_cost(
    per_seat: Sequence[Sequence[tuple[int, Reorganize]]],
) -> Iterator[tuple[tuple[int, Reorganize], ...]]:
    """Every combination of one candidate per seat, in order of total redraws."""
    if not per_seat:
        yield ()
        return
    by_cost: list[dict[int, list[tuple[int, Reorganize]]]] = []
    for candidates in per_seat:
        groups: dict[int, list[tuple[int, Reorganize]]] = {}
        for pair in candidates:
            groups.setdefault(pair[0], []).append(pair)
        by_cost.append(groups)
    top = sum(max(groups) for groups in by_cost if groups)
    for total in range(top + 1):
        for costs in _compositions(total, [sorted(g) for g in by_cost]):
            yield from itertools.product(*(by_cost[i][c] for i, c in enumerate(costs)))


def _compositions(total: int, options: Sequence[Sequence[int]]) -> Iterator[tuple[int, ...]]:
    """Tuples picking one value from each of ``options`` that add up to ``total``."""
    if not options:
        if total == 0:
            yield ()
        return
    for first in options[0]:
        if first <= total:
            for rest in _compositions(total - first, options[1:]):
                yield (first, *rest)


# --------------------------------------------------------------------------- walking the automatic steps


class _Walker:
    """Emits the events of one resolved step and of the automatic steps after it, in game order."""

    def __init__(self, before: GameState, after: GameState, choices: Mapping[int, Action]) -> None:
        self.before = before
        self.after = after
        self.choices = dict(choices)
        for seat in before.seats:
            pending = before.pending[seat]
            if pending is not None:
                self.choices[seat] = pending
        self.events: list[Event] = []

    def run(self) -> list[Event]:
        b = self.before
        month, week, phase = b.month, b.week, b.phase
        if phase is Phase.DRAFT_PASS:
            self._passed()
            return self.events  # the draft discard always awaits every seat
        if phase is Phase.DRAFT_DISCARD:
            self._discarded()
            self._month_started(1)
            return self.events  # choosing support always awaits every seat
        if phase is Phase.CHOOSE_SUPPORT:
            self._week(month, 1, 1, new=True)
        elif phase in PLAY_PHASES:
            self._week(month, week, phase.step, new=False)
        elif phase is Phase.PLACEMENT:
            self._placement(month, week, decided=True)
        else:
            self._reorganized(month, week)
            self._after_week(month, week)
        return self.events

    def _at(self, month: int, week: int, phase: Phase) -> bool:
        """Whether the walk has reached ``after``'s waiting point."""
        a = self.after
        return (a.month, a.week, a.phase) == (month, week, phase)

    # -- draft

    def _passed(self) -> None:
        n = self.before.players
        for seat in self.before.seats:
            action = self.choices[seat]
            assert isinstance(action, PassCards)
            self.events.append(CardsPassed(seat, (seat + 1) % n, action.cards))

    def _discarded(self) -> None:
        for seat in self.before.seats:
            action = self.choices[seat]
            assert isinstance(action, DiscardCards)
            self.events.append(DraftDiscarded(seat, len(action.cards), action.cards))

    def _month_started(self, month: int) -> None:
        a = self.after
        if not self._at(month, 0, Phase.CHOOSE_SUPPORT):
            raise EventDerivationError(f"month {month} did not start as the later state shows")
        self.events.append(MonthStarted(month, len(a.revolution_pile), len(a.emperor_pile)))

    # -- weeks

    def _week(self, month: int, week: int, first_step: int, *, new: bool) -> None:
        """Events from play step ``first_step`` of week ``(month, week)`` onwards, and its start if ``new``."""
        table = _week_table(self.after, month, week)
        if table is None:
            raise EventDerivationError(f"the later state does not show week {week} of month {month}")
        if new:
            self.events.append(WeekStarted(month, week, table.revolution_card, table.emperor_card, table.add_on))
            if self._at(month, week, Phase.PLAY_1):
                return
        for step in range(first_step, 4):
            if step > first_step and self._at(month, week, PLAY_PHASES[step - 1]):
                return
            self._plays(month, week, table, step)
        self._scored(month, week)

    def _plays(self, month: int, week: int, table: WeekTable, step: int) -> None:
        if table.steps_revealed < step:
            raise EventDerivationError(f"play step {step} of week {week} is not revealed in the later state")
        plays = tuple(RevealedPlay(s, a) for s, a in _step_actions(table, step).items())
        idle = frozenset(seat for (st, seat) in table.idle if st == step)
        self.events.append(PlaysRevealed(month, week, step, plays, idle))

    def _scored(self, month: int, week: int) -> None:
        record = _record(self.after, month, week)
        if record is None:
            raise EventDerivationError(f"week {week} of month {month} is not scored in the later state")
        score = record.score
        self.events.append(
            StrengthsRevealed(month, week, score.strengths, score.emperor_strength, score.strongest, score.support)
        )
        month_tokens = self._month_tokens_after(month, week)
        self.events.append(TokensAwarded(month, week, score.awards, score.tokens, month_tokens))
        if score.emperor_scored:
            assert record.table.emperor_card is not None
            total = sum(
                s.card.value for s in self.after.score_track.emperor_cards if (s.month, s.week) <= (month, week)
            )
            self.events.append(EmperorCardScored(month, week, record.table.emperor_card, total))
        if score.placements:
            self.events.append(PlacementsDue(month, week, score.placements))
            if self._at(month, week, Phase.PLACEMENT):
                return
        self._placement(month, week, decided=False)

    def _month_tokens_after(self, month: int, week: int) -> tuple[int, ...]:
        tokens = [0] * self.before.players
        for record in self.after.history:
            if record.month == month and record.week <= week:
                for seat, t in enumerate(record.score.tokens):
                    tokens[seat] += t
        return tuple(tokens)

    def _placement(self, month: int, week: int, *, decided: bool) -> None:
        record = _record(self.after, month, week)
        assert record is not None
        if record.placed:
            points = [0] * len(Faction)
            for scored in self.after.score_track.faction_cards:
                if (scored.month, scored.week) <= (month, week):
                    points[scored.faction] += scored.card.value
            self.events.append(CardsPlaced(month, week, record.placed, tuple(points)))
        if month == MONTHS and week == WEEKS:
            self._month_scored(month)  # no re-organize after the game's last week (ruling O)
            return
        if self._at(month, week, Phase.REORGANIZE):
            return
        raise EventDerivationError("a re-organize without any choice to make is not derived (it cannot occur in play)")

    def _reorganized(self, month: int, week: int) -> None:
        b = self.before
        assert b.table is not None
        refilled = _refilled_hands(b, self.after)
        take_backs: list[HandCard | None] = []
        discarded: list[int] = []
        drawn: list[int] = []
        private: list[Event] = []
        for seat in b.seats:
            action = self.choices.get(seat, Reorganize())
            assert isinstance(action, Reorganize)
            kept = frozenset(b.hands[seat]) - action.discards
            new = refilled[seat] - kept - ({action.take_back} if action.take_back is not None else set())
            take_backs.append(action.take_back)
            discarded.append(len(action.discards))
            drawn.append(len(new))
            private.append(HandRefilled(month, week, seat, action.discards, new))
        reshuffled = sum(drawn) > len(b.draw_pile)
        self.events.append(Reorganized(month, week, tuple(take_backs), tuple(discarded), tuple(drawn), reshuffled))
        self.events += private

    def _after_week(self, month: int, week: int) -> None:
        if week == WEEKS:
            self._month_scored(month)
        else:
            self._week(month, week + 1, 1, new=True)

    def _month_scored(self, month: int) -> None:
        a = self.after
        if len(a.month_scores) != month:
            raise EventDerivationError(f"month {month} is not the last one scored in the later state")
        # Nothing is banked after a monthly scoring until the next one, which no single step reaches.
        self.events.append(MonthScored(a.month_scores[month - 1], a.banked_tokens))
        if month == MONTHS:
            assert a.verdict is not None
            self.events.append(GameOver(a.verdict))
        else:
            self._month_started(month + 1)
