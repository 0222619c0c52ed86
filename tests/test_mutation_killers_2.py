"""Rules that the second reproducible ``nox -s mutation`` run (issue 13) showed no rules test pinned down.

The session runs only the tests of the rules (``[tool.mutmut]`` in pyproject.toml leaves out the adapters',
the public record's and the front ends' tests, which alone took more than half the suite's time). Some rules
functions were checked only by those higher layers: the table's reinforcement targets and "reinforcement cards
only" inference (rule 4.6, ruling H), and the engine's withdrawal and event derivation messages (spec 9.2).
Each test states the rule and asserts what a wrong engine would get wrong; see tests/mutation.md.
"""

from __future__ import annotations

import copy
from typing import Any, cast

import attrs
import pytest

from darkempire.rules import engine
from darkempire.rules.actions import Action, PassCards, PlayCard
from darkempire.rules.cards import HAND_CARDS, Faction, FactionCard
from darkempire.rules.errors import (
    InvalidArgumentError,
    MalformedActionError,
    MissingChoiceError,
    WrongPhaseError,
    WrongSeatError,
)
from darkempire.rules.events import EventDerivationError
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.table import Play, Reinforcement
from builders import card, emperor, plus, rev_play, traitor_play, week_table
from test_mutation_killers import play_random

W, CO, ME, ST = Faction.WORKERS, Faction.CALENDRICAL_ORDER, Faction.MECHANDROS, Faction.STUDENTS


# --------------------------------------------------------------------------- reinforcement targets (rule 4.6, R-G)


def _targets_table(emperor_out: bool = True) -> tuple[Any, Play, Play, Play]:
    """Seat 0 plays a Workers card (revolution side) at step 1, seat 1 a Colonies traitor card at step 1, seat 2 a
    Mechandros card (revolution side) at step 2."""
    first, traitor, second = rev_play(0, card(W, 4), 1), traitor_play(1, card(CO, 5), 1), rev_play(2, card(ME, 6), 2)
    table = week_table(3, ST, emperor(9) if emperor_out else None, [first, traitor, second], steps_revealed=2)
    return table, first, traitor, second


@pytest.mark.spec("4.6", "R-G")
def test_a_reinforcement_goes_on_a_card_of_an_earlier_step() -> None:
    """A reinforcement card is attached to a faction card played at an earlier step of the week: none at step 1,
    only step 1's cards at step 2, every card of steps 1 and 2 at step 3 (rule 4.6)."""
    table, first, traitor, second = _targets_table()
    assert table.reinforcement_targets(0, 1) == ()
    assert table.reinforcement_targets(0, 2) == (first, traitor)
    assert table.reinforcement_targets(0, 3) == (first, traitor, second)


@pytest.mark.spec("4.4", "4.6", "R-G")
def test_reinforcing_a_traitor_card_is_the_seats_traitor_play() -> None:
    """Reinforcing a traitor card is a traitor play (ruling G): a seat that made its traitor play this week may
    only reinforce revolution-side cards; another seat may reinforce the traitor card too."""
    table, first, traitor, _ = _targets_table()
    assert table.reinforcement_targets(1, 2) == (first,)
    assert table.reinforcement_targets(2, 2) == (first, traitor)
    # Seat 2 reinforced the traitor card at step 2: at step 3 it has made its traitor play.
    reinforced = Play(traitor.seat, traitor.card, traitor.side, traitor.step, (Reinforcement(plus(0), 2, 2),))
    later = week_table(3, ST, emperor(9), [first, reinforced], steps_revealed=2)
    assert later.reinforcement_targets(2, 3) == (first,)
    assert later.reinforcement_targets(0, 3) == (first, reinforced)


@pytest.mark.spec("4.5", "4.6", "R-J")
def test_without_an_emperor_card_only_revolution_side_cards_are_targets() -> None:
    """With no emperor card out there is no traitor play (rule 4.5), so a reinforcement only goes on a
    revolution-side card."""
    first, second = rev_play(0, card(W, 4), 1), rev_play(1, card(CO, 5), 2)
    table = week_table(3, ST, None, [first, second], steps_revealed=2)
    assert table.reinforcement_targets(2, 3) == (first, second)
    assert table.reinforcement_targets(0, 2) == (first,)


# --------------------------------------------------------------------------- reinforcement cards only (ruling H)


@pytest.mark.spec("R-H")
def test_a_seat_idle_while_holding_cards_holds_reinforcement_cards_only() -> None:
    """A seat idle at a step while it held cards had nothing playable, so reinforcement cards only (ruling H).
    Its hand then was its hand now plus what it played at later steps."""
    # Seat 1 is idle at step 1 and attaches a reinforcement at step 2: it held a card at step 1.
    target = rev_play(0, card(W, 4), 1, [(plus(0), 1, 2)])
    table = week_table(3, ST, None, [target], idle=[(1, 1)], steps_revealed=2)
    assert table.reinforcements_only([6, 0, 7]) == frozenset({1})
    # With a card still in hand it is the same seat; with nothing then and nothing now it held no card at all.
    assert table.reinforcements_only([6, 2, 7]) == frozenset({1})
    assert table.reinforcements_only([6, 1, 7]) == frozenset({1})
    idle_empty = week_table(3, ST, None, [target], idle=[(1, 1), (3, 2)], steps_revealed=3)
    assert idle_empty.reinforcements_only([6, 0, 0]) == frozenset({1})
    assert week_table(3, ST, None, [], idle=[(1, 2)], steps_revealed=1).reinforcements_only([7, 7, 0]) == frozenset()


@pytest.mark.spec("R-H")
def test_only_the_idle_seats_own_later_plays_count() -> None:
    """Cards played before the idle step, or by other seats, do not tell what the idle seat held then (ruling H)."""
    # Seat 2 played at step 1 and is idle at steps 2 and 3 with an empty hand: it ran out of cards.
    early = rev_play(2, card(ME, 6), 1)
    table = week_table(3, ST, None, [early], idle=[(2, 2), (3, 2)], steps_revealed=3)
    assert table.reinforcements_only([4, 4, 0]) == frozenset()
    # Seat 0 reinforces at step 3 after seat 2 went idle at step 2: that is seat 0's card, not seat 2's.
    reinforced = rev_play(2, card(ME, 6), 1, [(plus(1), 0, 3)])
    other = week_table(3, ST, None, [reinforced], idle=[(2, 2), (3, 2)], steps_revealed=3)
    assert other.reinforcements_only([4, 4, 0]) == frozenset()
    # Two later reinforcements of seat 1: its hand at step 1 was 0 + 2 cards.
    two = rev_play(0, card(W, 4), 1, [(plus(0), 1, 2), (plus(1), 1, 3)])
    assert week_table(3, ST, None, [two], idle=[(1, 1)], steps_revealed=3).reinforcements_only([4, 0, 4]) == {1}


# --------------------------------------------------------------------------- withdrawal (spec 9.2)


def _with_pending(players: int, seed: int, seat: int) -> Any:
    state = engine.deal(GameConfig(players=players), seed)
    return state, engine.apply(state, seat, engine.legal_actions(state, seat)[0])


@pytest.mark.spec("9.2")
def test_withdraw_takes_back_a_pending_choice() -> None:
    """``withdraw`` takes back a seat's pending choice: the state is the one before the choice (rule 9.2)."""
    before, chosen = _with_pending(3, 4, 2)
    assert engine.withdraw(chosen, 2) == before


@pytest.mark.spec("9.2")
def test_withdraw_without_a_pending_choice_names_the_seat_and_rule() -> None:
    """A seat with nothing pending cannot take anything back: WrongSeatError of rule 9.2 naming the seat."""
    _, chosen = _with_pending(3, 4, 2)
    for call in (engine.withdraw, engine.withdraw_reporting):
        with pytest.raises(WrongSeatError) as caught:
            call(chosen, 1)
        assert caught.value.rule == "9.2"
        assert caught.value.message == "seat 1 has no pending choice to take back in this step"


@pytest.mark.spec("9.2")
def test_withdraw_of_something_else_than_a_state_names_the_transition() -> None:
    """``withdraw`` of a non-state is an InvalidArgumentError that names ``withdraw`` and what it got."""
    for call in (engine.withdraw, engine.withdraw_reporting):
        with pytest.raises(InvalidArgumentError) as caught:
            call(cast(Any, "state"), 0)
        assert str(caught.value) == "withdraw takes a GameState, not str"


@pytest.mark.spec("9.2")
def test_events_between_names_what_it_got_instead_of_a_mapping() -> None:
    """``events_between`` takes ``{seat: action}``; a list of pairs is an InvalidArgumentError saying so."""
    before, chosen = _with_pending(3, 4, 2)
    with pytest.raises(InvalidArgumentError) as caught:
        engine.events_between(before, chosen, choices=cast(Any, [(2, chosen.pending[2])]))
    assert str(caught.value) == "events_between takes a mapping {seat: action}, not list"


@pytest.mark.spec("9.2")
def test_events_between_reports_every_choice_in_order() -> None:
    """The events between two states are those of each choice in turn: two seats' choices give both seats'
    events, the first seat's first (spec 9.2)."""
    state = engine.deal(GameConfig(players=3), 8)
    first = engine.apply_reporting(state, 0, engine.legal_actions(state, 0)[0])
    second = engine.apply_reporting(first.state, 1, engine.legal_actions(state, 1)[0])
    choices = {0: engine.legal_actions(state, 0)[0], 1: engine.legal_actions(state, 1)[0]}
    assert engine.events_between(state, second.state, choices=choices) == first.events + second.events
    assert len(first.events) == len(second.events) == 1


@pytest.mark.spec("9.2")
def test_events_between_says_which_choice_does_not_follow() -> None:
    """A choice that is not legal is an EventDerivationError naming the seat and the rules' own reason; choices
    that lead elsewhere are one saying so (spec 9.2)."""
    before, chosen = _with_pending(3, 4, 2)
    action = chosen.pending[2]
    assert action is not None
    with pytest.raises(WrongSeatError) as direct:
        engine.apply(chosen, 2, action)
    with pytest.raises(EventDerivationError) as caught:
        engine.events_between(chosen, chosen, choices={2: action})
    assert str(caught.value) == f"seat 2's choice does not follow: {direct.value.message}"
    with pytest.raises(EventDerivationError) as elsewhere:
        engine.events_between(before, before, choices={2: action})
    assert str(elsewhere.value) == "the choices given do not lead from the earlier state to the later one"


# --------------------------------------------------------------------------- step (spec 9.1, 9.2)


def _week_scoring_state() -> GameState:
    """A state resting in WEEK_SCORING, as a caller builds it by hand: the state before a third play step
    that went on to weekly scoring, with that step's table and hands."""
    states = play_random(3, 0)
    for before, after in zip(states, states[1:]):
        if before.phase is Phase.PLAY_3 and len(after.history) > len(before.history):
            table = after.history[len(before.history)].table
            played = set(table.cards())
            hands = tuple(tuple(c for c in hand if c not in played) for hand in before.hands)
            return attrs.evolve(before, phase=Phase.WEEK_SCORING, table=table, hands=hands, pending=(None,) * 3)
    raise AssertionError("no third play step resolved")


@pytest.mark.spec("9.2")
def test_step_takes_a_mapping_in_every_phase() -> None:
    """``step``'s choices are ``{seat: action}``, in a decision phase and in an automatic one alike; anything
    else is a MissingChoiceError of rule 9.2 that names ``step`` and what it got."""
    for state in (engine.deal(GameConfig(players=3), 2), _week_scoring_state()):
        with pytest.raises(MissingChoiceError) as caught:
            engine.step(state, cast(Any, [(0, None)]))
        assert caught.value.rule == "9.2", state.phase
        assert caught.value.message == "step takes a mapping {seat: action}, not list", state.phase
    assert engine.step(_week_scoring_state(), {}).state.phase is not Phase.WEEK_SCORING


@pytest.mark.spec("9.1")
def test_step_after_the_end_is_a_wrong_phase_of_rule_9_1() -> None:
    """A finished game has no step left: WrongPhaseError of rule 9.1."""
    over = play_random(3, 3)[-1]
    assert over.is_over
    with pytest.raises(WrongPhaseError) as caught:
        engine.step(over, {})
    assert caught.value.rule == "9.1"
    assert caught.value.message == "the game is over: no step is left to resolve"


# --------------------------------------------------------------------------- forged cards (rule 1.2, spec 9.1)


def _play_state() -> GameState:
    """The first play step of a 3-player game, every seat awaited."""
    return play_random(3, 5, until=lambda s: s.phase is Phase.PLAY_1)[-1]


def _forged_card(**fields: object) -> FactionCard:
    """A FactionCard made with ``object.__new__`` (around its class's checks), with only ``fields`` set."""
    forged = object.__new__(FactionCard)
    for name, value in fields.items():
        object.__setattr__(forged, name, value)
    return forged


@pytest.mark.spec("1.2", "9.1")
@pytest.mark.parametrize(
    "fields",
    [
        {"id": len(HAND_CARDS), "faction": W, "value": 4},
        {"id": -1, "faction": W, "value": 4},
        {"id": "0", "faction": W, "value": 4},
        {"id": 0, "faction": W},
        {"id": 0, "value": 4},
    ],
    ids=["id past the last card", "negative id", "id not an int", "no value", "no faction"],
)
def test_a_card_that_is_none_of_the_real_cards_is_a_malformed_action(fields: dict[str, object]) -> None:
    """A played card whose id is no card of the game, or that lacks a field, is one of none of the 75 cards
    (rule 1.2): a MalformedActionError, not an IndexError or AttributeError from inside."""
    state = _play_state()
    real = next(c for c in state.hands[0] if isinstance(c, FactionCard))
    action = PlayCard(real)
    object.__setattr__(action, "card", _forged_card(**fields))
    with pytest.raises(MalformedActionError) as caught:
        engine.apply(state, 0, action)
    assert caught.value.rule == "1.2"
    assert caught.value.message == "PlayCard.card holds a HandCard that is none of the 75 real cards"


@pytest.mark.spec("9.1")
def test_a_played_copy_of_a_card_is_stored_as_the_games_own_card() -> None:
    """A caller's equal copy of a card is accepted, and the pending choice holds the game's own card object,
    which the caller cannot change afterwards (spec 9.1)."""
    state = _play_state()
    real = next(c for c in state.hands[0] if isinstance(c, FactionCard))
    copied = copy.copy(real)
    assert copied == real and copied is not real
    for after in (engine.apply(state, 0, PlayCard(copied)), engine.step(state, _all_play(state, 0, copied)).state):
        if after.phase is Phase.PLAY_1:
            pending = after.pending[0]
            assert isinstance(pending, PlayCard) and pending.card is HAND_CARDS[real.id]
        else:
            played = next(p for p in (after.table.plays if after.table else ()) if p.seat == 0 and p.step == 1)
            assert played.card is HAND_CARDS[real.id]


def _all_play(state: GameState, seat: int, card: FactionCard) -> dict[int, Action]:
    """Every awaited seat's first legal action, ``PlayCard(card)`` for ``seat``."""
    choices: dict[int, Action] = {s: engine.legal_actions(state, s)[0] for s in sorted(engine.awaited_seats(state))}
    choices[seat] = PlayCard(card)
    return choices


@pytest.mark.spec("9.1")
def test_a_malformed_action_names_its_field_and_rule_9_1() -> None:
    """An action without a field, or with a set of cards that is no ``frozenset`` itself (a subclass may change
    what it holds or how it compares), is a MalformedActionError of rule 9.1 naming the class and field."""

    class Frozen(frozenset[Any]):
        pass

    state = engine.deal(GameConfig(players=3), 1)
    cards = state.hands[0][:2]
    with pytest.raises(MalformedActionError) as missing:
        engine.apply(state, 0, PassCards.__new__(PassCards))
    assert (missing.value.rule, missing.value.message) == ("9.1", "PassCards has no cards")
    for value, name in ((5, "int"), (Frozen(cards), "Frozen")):
        action = PassCards(cards)
        object.__setattr__(action, "cards", value)
        with pytest.raises(MalformedActionError) as caught:
            engine.apply(state, 0, action)
        assert (caught.value.rule, caught.value.message) == ("9.1", f"PassCards.cards is a frozenset, not {name}")
