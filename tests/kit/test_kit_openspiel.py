"""The kit's OpenSpiel base carries a game that is not Dark Empire: Toyspiel, through OpenSpiel's own harnesses.

Toyspiel has a simultaneous bid, a one-seat claim and a private chance draw (a peek), so these tests check the
three things the base must get right for any game: simultaneous nodes from ``awaited`` (a non-awaited seat
waits), chance nodes from ``run_scripted`` (the outcomes are the draws' option indices), and observations from
``view`` (a seat never sees another seat's peeked prize).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import get_all_states  # noqa: E402

from kit.toy import GAME, Bid, Keep, Peek, ToyAction, ToyConfig, ToyState  # noqa: E402
from tablekit.adapters.flow import NO_OP, AdapterError  # noqa: E402
from tablekit.adapters.openspiel import KitState, Limits, register  # noqa: E402
from tablekit.chance import ScriptedChance  # noqa: E402
from tablekit.errors import GameContractError  # noqa: E402

KEEP, PEEK = 10, 11


class ToyEncoder:
    """A bid of card ``c`` is ``c`` (1-9), Keep 10, Peek 11; 0 is the kit's NO_OP."""

    num_actions = 12

    def encode(self, state: ToyState, seat: int, action: ToyAction) -> int:
        return action.card if isinstance(action, Bid) else KEEP if isinstance(action, Keep) else PEEK

    def decode(self, state: ToyState, seat: int, index: int) -> ToyAction:
        return Bid(index) if index < KEEP else Keep() if index == KEEP else Peek()


def _config(params: Mapping[str, Any]) -> ToyConfig:
    return ToyConfig(params["players"], params["cards"])


def _limits(config: ToyConfig) -> Limits:
    return Limits(config.players, config.cards, 2 * config.cards, 0.0, config.cards * (config.cards + 1) / 2)


if "toyspiel" not in pyspiel.registered_names():
    register(GAME, ToyEncoder(), "toyspiel", config=_config, limits=_limits, parameters={"players": 2, "cards": 4},
             players=(2, 4), long_name="Toyspiel")  # fmt: skip


def _play(game: Any, rng: random.Random, *, peek: bool = False) -> tuple[Any, list[int]]:
    """A random playout through the pyspiel API; the chance outcomes drawn, in order."""
    state, outcomes = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            outcome = rng.choices(actions, probabilities)[0]
            outcomes.append(outcome)
            state.apply_action(outcome)
            continue
        joint = [rng.choice(state.legal_actions(seat)) for seat in range(game.num_players())]
        joint = [PEEK if peek and PEEK in state.legal_actions(seat) else a for seat, a in enumerate(joint)]
        state.apply_actions(joint)
    return state, outcomes


def test_the_registered_game_loads_with_its_parameters_and_sizes() -> None:
    game = pyspiel.load_game("toyspiel(players=3,cards=5)")
    kind = game.get_type()
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (3, 12, 5)
    assert game.max_game_length() == 10 and game.max_utility() == 15.0
    assert kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert pyspiel.load_game("toyspiel").num_players() == 2  # the defaults


def test_a_bad_parameter_is_a_typed_error_naming_the_config() -> None:
    with pytest.raises(AdapterError, match="2-4 players"):
        pyspiel.load_game("toyspiel(players=7)")


@pytest.mark.parametrize("serialize", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_openspiels_random_simulation_runs_the_simultaneous_and_the_turn_based_form(serialize: bool,
                                                                                     players: int) -> None:
    game = pyspiel.load_game(f"toyspiel(players={players})")
    pyspiel.random_sim_test(game, num_sims=10, serialize=serialize, verbose=False)
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=10, serialize=serialize, verbose=False)


def test_every_state_of_a_small_game_has_uniform_chance_and_returns_that_add_up() -> None:
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("toyspiel(cards=3)"))
    states = get_all_states.get_all_states(game, include_terminals=True, include_chance_states=True)
    chance = [s for s in states.values() if s.is_chance_node()]
    terminals = [s for s in states.values() if s.is_terminal()]
    assert chance and terminals
    for state in chance:
        probabilities = [p for _, p in state.chance_outcomes()]
        assert sum(probabilities) == pytest.approx(1.0) and len(set(probabilities)) == 1
    for state in terminals:  # every prize is scored, minus one per peek (Peek is action 11 in the history)
        assert sum(state.returns()) == 6 - state.history().count(PEEK)


def test_a_playout_is_the_kit_game_run_with_the_same_chance_indices() -> None:
    rng = random.Random(3)
    for _ in range(20):
        state, outcomes = _play(pyspiel.load_game("toyspiel(players=3)"), rng)
        final: ToyState = state.flow.state
        assert state.returns() == list(GAME.returns(final))
        # Replaying the chance indices with the kit's own collector reproduces the game exactly.
        transition = GAME.initial(ToyConfig(3, 4), ScriptedChance(outcomes))
        kit, chance = transition.state, transition.chance
        for past, joint in state.flow.past:
            assert past == kit
            step = GAME.step(kit, dict(joint), chance)
            kit, chance = step.state, step.chance
        assert kit == final


def test_a_seat_the_step_does_not_await_can_only_wait() -> None:
    game = pyspiel.load_game("toyspiel(players=3)")
    state = game.new_initial_state()
    state.apply_action(0)  # the first prize: card 1
    assert all(state.legal_actions(seat) == [1, 2, 3, 4] for seat in range(3))
    state.apply_actions([2, 4, 3])  # seat 1 wins the bid and alone claims
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert [state.legal_actions(seat) for seat in range(3)] == [[NO_OP], [KEEP, PEEK], [NO_OP]]
    with pytest.raises(AdapterError, match="not legal for seat 0"):
        state.apply_actions([KEEP, KEEP, NO_OP])
    with pytest.raises(AdapterError, match="2 actions for 3 seats"):
        state.apply_actions([NO_OP, KEEP])
    state.apply_actions([NO_OP, KEEP, NO_OP])
    assert state.is_chance_node()  # the claim's step draws the next prize before it is decided
    state.apply_action(0)
    assert state.flow.state.scores == (0, 1, 0) and state.flow.state.prize == 2


def test_a_chance_outcome_at_a_decision_or_out_of_range_is_refused() -> None:
    state = pyspiel.load_game("toyspiel").new_initial_state()
    with pytest.raises(AdapterError, match="not an outcome"):
        state.apply_action(4)
    state.apply_action(3)
    with pytest.raises(AdapterError, match="no chance node"):
        state.flow.apply_chance(0)


def test_a_serialized_state_deserializes_to_an_equal_one() -> None:
    game = pyspiel.load_game("toyspiel(players=3)")
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        copy = game.deserialize_state(state.serialize())
        assert isinstance(copy, KitState) and copy.flow == state.flow and copy.history() == state.history()
        assert copy.information_state_string(1) == state.information_state_string(1)
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_actions([rng.choice(state.legal_actions(seat)) for seat in range(3)])


@pytest.mark.parametrize("text", ["x", "0\n0\n2", "0\n1\n1\n9", "0\n" + "9" * 5000, "-1", "0\n\n1", "\u00b2"])
def test_a_serialized_state_that_does_not_replay_is_a_typed_error(text: str) -> None:
    with pytest.raises(AdapterError):
        pyspiel.load_game("toyspiel(players=3)").deserialize_state(text)


def _peeked(players: int = 3) -> Any:
    """A state just after a peek: the peeker holds the next prize, unseen by the others."""
    for seed in range(50):
        state = pyspiel.load_game(f"toyspiel(players={players})").new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            elif PEEK in sum((state.legal_actions(s) for s in range(players)), []):
                state.apply_actions([PEEK if PEEK in state.legal_actions(s) else NO_OP for s in range(players)])
                while state.is_chance_node():
                    state.apply_action(rng.choice(state.legal_actions()))
                if state.flow.state.peeker is not None:
                    return state
            else:
                state.apply_actions([rng.choice(state.legal_actions(s)) for s in range(players)])
    raise AssertionError("no peek in 50 games")


def test_observations_show_a_peeked_prize_to_the_peeker_alone() -> None:
    state = _peeked()
    toy: ToyState = state.flow.state
    peeker, prize = toy.peeker, toy.prize
    shown = f"prize={prize}"
    assert shown in state.observation_string(peeker) and shown in state.information_state_string(peeker)
    for seat in set(range(3)) - {peeker}:
        assert shown not in state.observation_string(seat)
        assert shown not in state.information_state_string(seat)
        assert "prize=None" in state.observation_string(seat)
    public = state.get_game().make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                               private_info=pyspiel.PrivateInfoType.NONE))  # fmt: skip
    assert "prize=None" in public.string_from(state, 0) and "hand=None" in public.string_from(state, 0)


def test_the_information_state_recalls_the_seats_own_choices_only() -> None:
    state = pyspiel.load_game("toyspiel(players=2)").new_initial_state()
    state.apply_action(0)
    state.apply_actions([3, 2])
    zero, one = state.information_state_string(0), state.information_state_string(1)
    assert "=> Bid(card=3)" in zero and "Bid(card=2)" not in zero
    assert "=> Bid(card=2)" in one and "Bid(card=3)" not in one
    assert zero != state.observation_string(0)  # perfect recall is more than the current view


def test_an_encoder_that_breaks_its_contract_is_the_games_fault() -> None:
    class Clashing(ToyEncoder):
        def encode(self, state: ToyState, seat: int, action: ToyAction) -> int:
            return 1

    if "toyspiel_clash" not in pyspiel.registered_names():
        register(GAME, Clashing(), "toyspiel_clash", config=_config, limits=_limits,
                 parameters={"players": 2, "cards": 4}, players=(2, 4))  # fmt: skip
    state = pyspiel.load_game("toyspiel_clash").new_initial_state()
    state.apply_action(0)
    with pytest.raises(GameContractError, match="encoder"):
        state.legal_actions(0)


def test_an_observer_of_every_seats_private_information_is_refused() -> None:
    game = pyspiel.load_game("toyspiel")
    with pytest.raises(AdapterError, match="observation"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                              private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
