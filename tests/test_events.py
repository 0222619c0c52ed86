"""The event log: the events each transition reports, and each seat's filtered log (spec 9.2, 9.4)."""

from __future__ import annotations

import collections
import random
from collections.abc import Iterable, Iterator
from typing import TypeVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from darkempire.rules import engine
from darkempire.rules.actions import Action, PassCards, PlayCard, PlayNothing, Reinforce, Reorganize
from darkempire.rules.cards import HandCard
from darkempire.rules.events import (
    EVENT_TYPES,
    CardsPassed,
    CardsPlaced,
    ChoiceMade,
    ChoiceWithdrawn,
    DraftDiscarded,
    EmperorCardScored,
    Event,
    EventDerivationError,
    GameOver,
    GameStarted,
    HandDealt,
    HandRefilled,
    MonthScored,
    MonthStarted,
    PlacementsDue,
    PlaysRevealed,
    Reorganized,
    StrengthsRevealed,
    TokensAwarded,
    WeekStarted,
    events_for,
    opening_events,
)
from darkempire.rules.errors import WrongSeatError
from darkempire.history import History
from darkempire.rules.state import GameConfig, GameState, Phase
from builders import ST, build, emperor, plus, simultaneous, week_table
from embedding_games import finished_game, hand_cards_in, random_history, steps

PLAYERS = (3, 4, 5)


def game_events(history: History) -> list[Event]:
    return [*opening_events(history.states[0]), *history.events()]


def reported_steps(history: History) -> Iterator[tuple[GameState, int, Action, GameState, tuple[Event, ...]]]:
    """``(before, seat, action, after, events)`` for every choice of ``history``: the events its choice reported."""
    for index, (before, seat, action, after) in enumerate(steps(history)):
        yield before, seat, action, after, history.events(index, index + 1)


E = TypeVar("E")


def of_type(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


# --------------------------------------------------------------------------- the whole log of a game


@pytest.mark.spec("9.2", "3.1", "4.2", "R-O")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_game_log_has_the_rulebook_shape(players: int) -> None:
    events = game_events(finished_game(players, 1))
    counts = collections.Counter(type(e) for e in events)
    assert counts[GameStarted] == 1 and counts[HandDealt] == players
    assert counts[CardsPassed] == players and counts[DraftDiscarded] == players
    assert counts[MonthStarted] == 3 and counts[MonthScored] == 3
    assert counts[WeekStarted] == 12 and counts[StrengthsRevealed] == 12 and counts[TokensAwarded] == 12
    assert counts[PlaysRevealed] == 36
    assert counts[Reorganized] == 11  # none after the game's last week (ruling O)
    assert counts[GameOver] == 1 and isinstance(events[-1], GameOver)
    # One ChoiceMade per choice the seats made, and nothing for the automatic steps.
    assert counts[ChoiceMade] == len(finished_game(players, 1).choices)


@pytest.mark.spec("9.2", "4.1", "5.5", "5.7", "7.3", "8.1")
@pytest.mark.parametrize("players", PLAYERS)
def test_the_log_agrees_with_the_final_state(players: int) -> None:
    game = finished_game(players, 2)
    final = game.current
    events = game_events(game)
    started = of_type(events, WeekStarted)
    assert [(e.month, e.week, e.revolution_card, e.emperor_card) for e in started] == [
        (r.month, r.week, r.table.revolution_card, r.table.emperor_card) for r in final.history
    ]
    placed = [s for e in of_type(events, CardsPlaced) for s in e.placed]
    assert placed == list(final.score_track.faction_cards)
    emperor = [e.card for e in of_type(events, EmperorCardScored)]
    assert emperor == [s.card for s in final.score_track.emperor_cards]
    banked = [0] * players
    for e in of_type(events, TokensAwarded):
        for seat, t in enumerate(e.tokens):
            banked[seat] += t
    for scored in of_type(events, MonthScored):
        for seat, b in enumerate(scored.score.bonus):
            banked[seat] += b
    assert tuple(banked) == final.banked_tokens == of_type(events, MonthScored)[-1].banked_tokens
    game_over = events[-1]
    assert isinstance(game_over, GameOver) and game_over.verdict == final.verdict


@pytest.mark.spec("4.2", "R-H")
@pytest.mark.parametrize("players", PLAYERS)
def test_every_seat_is_in_each_revealed_step_once_played_or_idle(players: int) -> None:
    for e in of_type(game_events(finished_game(players, 3)), PlaysRevealed):
        assert isinstance(e, PlaysRevealed)
        seats = [p.seat for p in e.plays] + sorted(e.idle)
        assert sorted(seats) == list(range(players))


@pytest.mark.spec("4.2", "4.6", "R-H")
def test_plays_revealed_match_the_choices_of_the_step() -> None:
    game = finished_game(4, 4)
    for before, seat, action, after, events in reported_steps(game):
        if before.phase.step == 0:
            continue
        revealed = [e for e in events if isinstance(e, PlaysRevealed)]
        if not revealed:  # the step has not resolved: the play stays hidden
            assert after.pending[seat] == action
            continue
        step = revealed[0]
        assert step.step == before.phase.step
        if isinstance(action, PlayNothing):
            assert seat in step.idle
        else:
            assert [p.action for p in step.plays if p.seat == seat] == [action]


# --------------------------------------------------------------------------- the choices reported


@pytest.mark.spec("9.2", "9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_reported_events_name_the_real_choices(players: int) -> None:
    # Re-organize included: a redraw after a reshuffle used to hide which card was discarded from a diff.
    game = finished_game(players, 5)
    for before, seat, action, after, events in reported_steps(game):
        made = [e for e in events if isinstance(e, ChoiceMade)]
        assert made == [ChoiceMade(seat, before.phase, action)]
        assert engine.events_between(before, after, choices={seat: action}) == events
        assert engine.apply_reporting(before, seat, action) == engine.Transition(after, events)


@pytest.mark.spec("9.2")
def test_a_simultaneous_transition_gives_one_choice_made_per_awaited_seat() -> None:
    rng = random.Random(9)
    state = engine.deal(GameConfig(players=5), 9)
    seen_phases = set()
    while not state.is_over:
        choices = {s: rng.choice(engine.legal_actions(state, s)) for s in engine.awaited_seats(state)}
        transition = engine.step(state, choices)
        assert transition.state == simultaneous(state, choices)
        made = [(e.seat, e.phase, e.action) for e in transition.events if isinstance(e, ChoiceMade)]
        assert made == [(seat, state.phase, choices[seat]) for seat in sorted(choices)]
        seen_phases.add(state.phase)
        state = transition.state
    assert Phase.REORGANIZE in seen_phases and Phase.PLAY_3 in seen_phases


@pytest.mark.spec("6.2", "6.3", "6.4", "R-K")
@pytest.mark.parametrize("players", PLAYERS)
def test_reorganized_reports_take_backs_and_counts(players: int) -> None:
    game = finished_game(players, 6)
    reshuffles = 0
    for before, seat, action, after, events in reported_steps(game):
        done = [e for e in events if isinstance(e, Reorganized)]
        if not done:
            continue
        step = done[0]
        assert isinstance(action, Reorganize)
        assert step.take_backs[seat] == action.take_back
        assert step.discarded[seat] == len(action.discards)
        for s in before.seats:
            pending = before.pending[s]
            if isinstance(pending, Reorganize):
                assert step.take_backs[s] == pending.take_back and step.discarded[s] == len(pending.discards)
            # The next week (or month) awaits choices, so no card has left the refilled hand yet.
            refilled = len(before.hands[s]) - step.discarded[s] + (step.take_backs[s] is not None) + step.drawn[s]
            assert refilled == len(after.hands[s]) == 7
        month_shuffles = 2 if after.month != before.month else 0
        assert step.reshuffled == (after.chance.draws - before.chance.draws - month_shuffles == 1)
        reshuffles += step.reshuffled
        private = [e for e in events if isinstance(e, HandRefilled)]
        assert [e.seat for e in private] == list(before.seats)
        mine = private[seat]
        assert isinstance(mine, HandRefilled)
        assert mine.discarded == action.discards and len(mine.drawn) == step.drawn[seat]
    assert players < 5 or reshuffles > 0  # 5 seats exhaust the draw pile: the reshuffle case is covered


@pytest.mark.spec("9.2")
def test_pending_choices_and_withdrawals() -> None:
    history = History.start(GameConfig(players=3), 11)
    state = history.current
    action = engine.legal_actions(state, 1)[0]
    after = history.apply(1, action)
    assert after.events() == (ChoiceMade(1, Phase.DRAFT_PASS, action),)
    assert engine.apply_reporting(state, 1, action).events == after.events()
    withdrawn = engine.withdraw_reporting(after.current, 1)
    assert withdrawn == engine.Transition(after.undo(1).current, (ChoiceWithdrawn(1, Phase.DRAFT_PASS),))
    assert withdrawn.state == state
    assert engine.events_between(state, state, choices={}) == ()


# --------------------------------------------------------------------------- what each seat sees


def _newly_visible(state: GameState, seat: int | None) -> set[HandCard]:
    """Hand cards ``seat`` may know in ``state``: its own hand and everything on the table this week or before."""
    known = set(state.hands[seat]) if seat is not None else set()
    if state.table is not None:
        known |= set(state.table.cards())
    if state.history:
        known |= set(state.history[-1].table.cards())
    return known


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_seats_events_carry_no_card_it_may_not_see(players: int) -> None:
    game = finished_game(players, 7)
    for seat in [*range(players), None]:
        opening = events_for(opening_events(game.states[0]), seat)
        if seat is None:
            assert opening == (opening[0],) and isinstance(opening[0], GameStarted)
        else:
            assert hand_cards_in(opening) == set(game.states[0].hands[seat])
        allowed = _newly_visible(game.states[0], seat)
        for _, _, _, after, events in reported_steps(game):
            visible = events_for(events, seat)
            allowed |= _newly_visible(after, seat)
            if seat is not None:
                # The draft pass shows the receiver the 2 cards it gets, before they reach its hand.
                allowed |= {
                    c for e in visible if isinstance(e, CardsPassed) and e.to_seat == seat for c in e.cards or ()
                }
            assert hand_cards_in(visible) <= allowed


@pytest.mark.spec("9.4")
def test_private_fields_are_redacted_for_other_seats() -> None:
    game = finished_game(4, 8)
    events = game_events(game)
    for seat in (0, 2, None):
        for e in events_for(events, seat):
            if isinstance(e, ChoiceMade):
                assert (e.action is not None) == (e.seat == seat)
            elif isinstance(e, CardsPassed):
                assert (e.cards is not None) == (seat in (e.seat, e.to_seat))
            elif isinstance(e, DraftDiscarded):
                assert (e.cards is not None) == (e.seat == seat) and e.count == 2
            elif isinstance(e, (HandDealt, HandRefilled)):
                assert e.seat == seat
    # The public events reach everyone unchanged.
    public = [
        e for e in events if not isinstance(e, (ChoiceMade, CardsPassed, DraftDiscarded, HandDealt, HandRefilled))
    ]
    assert [e for e in events_for(events, None) if e in public] == public


@pytest.mark.spec("9.4", "R-A")
def test_the_pass_is_seen_by_the_passer_and_the_receiver() -> None:
    history = random_history(3, 12, choices=3)
    passes = [e for e in history.events() if isinstance(e, CardsPassed)]
    assert [(e.seat, e.to_seat) for e in passes] == [(0, 1), (1, 2), (2, 0)]
    for e in passes:
        assert e.cards is not None and e.cards <= set(history.states[0].hands[e.seat])
        assert e.cards <= set(history.current.hands[e.to_seat])
    seen_by_1 = [e for e in events_for(passes, 1) if isinstance(e, CardsPassed) and e.cards is not None]
    assert [(e.seat, e.to_seat) for e in seen_by_1] == [(0, 1), (1, 2)]


@pytest.mark.spec("9.4")
@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from(PLAYERS), seed=st.integers(0, 7), seat=st.integers(0, 4))
def test_own_pending_choice_is_shown_to_the_seat_only(players: int, seed: int, seat: int) -> None:
    seat %= players
    game = finished_game(players, seed)
    for before, chooser, action, after, events in reported_steps(game):
        if after.pending[chooser] is None:
            continue
        mine = events_for(events, seat)
        assert mine == (ChoiceMade(chooser, before.phase, action if chooser == seat else None),)


# --------------------------------------------------------------------------- errors


@pytest.mark.spec("9.2")
def test_states_of_different_games_or_too_far_apart_are_refused() -> None:
    game = finished_game(3, 1)
    other = finished_game(3, 2)
    fifth = {game.choices[5].seat: game.choices[5].action}
    with pytest.raises(EventDerivationError, match="do not lead"):
        engine.events_between(game.states[5], other.states[6], choices=fifth)
    resolving = [i for i, (b, _, _, a) in enumerate(steps(game)) if a.phase is not b.phase]
    first, second = resolving[0], resolving[1]
    one = {game.choices[first].seat: game.choices[first].action}
    with pytest.raises(EventDerivationError, match="do not lead"):
        engine.events_between(game.states[first], game.states[second + 1], choices=one)
    with pytest.raises(EventDerivationError):  # backwards across a resolved step: the seat is not awaited
        engine.events_between(game.states[first + 1], game.states[first], choices=one)


@pytest.mark.spec("9.2")
def test_choices_that_do_not_lead_to_the_later_state_are_refused() -> None:
    game = finished_game(4, 3)
    before, seat, action, after = next(
        s for s in steps(game) if isinstance(s[2], PassCards) and s[3].phase is Phase.DRAFT_DISCARD
    )
    other = next(a for a in engine.legal_actions(before, seat) if a != action)
    with pytest.raises(EventDerivationError):
        engine.events_between(before, after, choices={seat: other})
    with pytest.raises(EventDerivationError):
        opening_events(after)


@pytest.mark.spec("9.2")
def test_event_types_are_all_produced() -> None:
    events: list[Event] = []
    for players in PLAYERS:
        events += game_events(finished_game(players, 1))
    history = random_history(3, 5, choices=1)
    events += engine.withdraw_reporting(history.current, history.choices[0].seat).events
    produced = {type(e) for e in events}
    assert produced == set(EVENT_TYPES)


@pytest.mark.spec("5.1", "5.4", "5.6")
def test_week_scoring_events_are_the_weeks_score() -> None:
    game = finished_game(5, 4)
    events = game_events(game)
    strengths = of_type(events, StrengthsRevealed)
    dues = of_type(events, PlacementsDue)
    for record, e in zip(game.current.history, strengths, strict=True):
        assert isinstance(e, StrengthsRevealed)
        assert e.strengths == record.score.strengths and e.strongest == record.score.strongest
        assert e.emperor_strength == record.score.emperor_strength and e.support == record.score.support
    assert [d.dues for d in dues] == [r.score.placements for r in game.current.history if r.score.placements]
    assert all(attrs.has(type(e)) for e in events)


@pytest.mark.spec("4.2", "R-H")
def test_play_nothing_is_an_idle_seat() -> None:
    # Seat 0 holds only reinforcement cards at the first step: PlayNothing is its only action.
    state = build(
        3, Phase.PLAY_1, hands={0: [plus(k) for k in range(7)]}, table=week_table(3, ST, emperor(8), steps_revealed=0)
    )
    assert engine.legal_actions(state, 0) == (PlayNothing(),)
    history = History.from_state(state).apply(0, PlayNothing())
    for seat in (1, 2):
        history = history.apply(seat, engine.legal_actions(history.current, seat)[0])
    events = history.events()
    assert events[0] == ChoiceMade(0, Phase.PLAY_1, PlayNothing())
    revealed = [e for e in events if isinstance(e, PlaysRevealed)]
    assert len(revealed) == 1 and revealed[0].idle == frozenset({0})
    assert sorted(p.seat for p in revealed[0].plays) == [1, 2]
    # Replaying the last choice reports the same.
    last = history.choices[-1]
    assert engine.events_between(history.states[2], history.current, choices={last.seat: last.action})[-1] == revealed[0]


@pytest.mark.spec("4.3", "4.6")
def test_revealed_reinforcements_name_their_target() -> None:
    events = game_events(finished_game(4, 5))
    reinforcements = [
        p.action for e in of_type(events, PlaysRevealed) for p in e.plays if isinstance(p.action, Reinforce)
    ]
    plays = [p.action for e in of_type(events, PlaysRevealed) for p in e.plays if isinstance(p.action, PlayCard)]
    assert reinforcements, "random play attaches reinforcement cards"
    targets = {a.card for a in plays}
    assert all(r.target in targets and r.card.is_reinforcement for r in reinforcements)


@pytest.mark.spec("9.1", "9.4")
@pytest.mark.parametrize("seat", [True, False, 1.0, "1", 99, -3, 4])
def test_events_for_a_seat_that_is_no_seat_of_the_game_is_refused(seat: object) -> None:
    # True == 1 and hash(1.0) == hash(1): such a "seat" used to see seat 1's private hand (HandDealt).
    game = finished_game(4, 1)
    for events in (opening_events(game.states[0]), game.events(0)[:40], game.events(len(game.states) - 20)):
        with pytest.raises(WrongSeatError):
            events_for(events, seat)  # type: ignore[arg-type]
    assert of_type(events_for(opening_events(game.states[0]), 1), HandDealt)[0].seat == 1
    assert not of_type(events_for(opening_events(game.states[0]), None), HandDealt)


@pytest.mark.spec("9.1", "9.4")
def test_events_for_checks_the_seat_against_the_player_count_the_events_tell() -> None:
    game = finished_game(3, 2)
    with pytest.raises(WrongSeatError, match="3-player"):
        events_for(opening_events(game.states[0]), 3)
    # Without a per-seat event the player count is unknown: seats 0-4 pass, the events are public or redacted.
    undo = random_history(5, 2, choices=1)
    choice = undo.events()
    assert events_for(choice, 4) == (ChoiceMade(0, Phase.DRAFT_PASS, None),)
    with pytest.raises(WrongSeatError, match="0-4"):
        events_for(choice, 5)
