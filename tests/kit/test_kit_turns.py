"""Toyspiel in turns: :class:`tablekit.adapters.turns.InTurns` and the OpenSpiel base's sequential form.

The bid of Toyspiel is simultaneous; through ``InTurns`` the seats bid one after another, each bid hidden until
the last is in, and ``register(..., sequential=True)`` makes that an OpenSpiel game whose every decision has
one player. OpenSpiel's own random simulation (with serialization) runs it; a pending bid is never seen by
another seat; and a simultaneous game registered as sequential is the game's fault, not a silent wrong node.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from kit.toy import GAME, Bid, Keep, Peek, ToyAction, ToyConfig, ToyState  # noqa: E402
from tablekit.adapters.openspiel import Limits, register  # noqa: E402
from tablekit.adapters.turns import InTurns, Turns  # noqa: E402
from tablekit.chance import SeededChance  # noqa: E402
from tablekit.errors import GameContractError, NotAwaitedError  # noqa: E402

KEEP, PEEK = 10, 11


class TurnsEncoder:
    """A bid of card ``c`` is ``c``, Keep 10, Peek 11 (the state is a :class:`Turns` of a Toyspiel state)."""

    num_actions = 12

    def encode(self, state: Turns[ToyState, ToyAction], seat: int, action: ToyAction) -> int:
        return action.card if isinstance(action, Bid) else KEEP if isinstance(action, Keep) else PEEK

    def decode(self, state: Turns[ToyState, ToyAction], seat: int, index: int) -> ToyAction:
        return Bid(index) if index < KEEP else Keep() if index == KEEP else Peek()


def _config(params: Mapping[str, Any]) -> ToyConfig:
    return ToyConfig(params["players"], params["cards"])


def _limits(config: ToyConfig) -> Limits:
    return Limits(config.players, config.cards, (config.players + 1) * config.cards, 0.0,
                  config.cards * (config.cards + 1) / 2)  # fmt: skip


TURNS = InTurns(GAME)
if "toyspiel_turns" not in pyspiel.registered_names():
    register(TURNS, TurnsEncoder(), "toyspiel_turns", config=_config, limits=_limits,
             parameters={"players": 3, "cards": 4}, players=(2, 4), sequential=True)  # fmt: skip
    register(GAME, TurnsEncoder(), "toyspiel_wrongly_sequential", config=_config, limits=_limits,
             parameters={"players": 3, "cards": 4}, players=(2, 4), sequential=True)  # fmt: skip


def _at_first_bid() -> Any:
    state = pyspiel.load_game("toyspiel_turns").new_initial_state()
    state.apply_action(0)  # the first prize
    return state


def test_every_decision_has_one_player_and_no_wait_action() -> None:
    game = pyspiel.load_game("toyspiel_turns")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    state = _at_first_bid()
    for seat in range(3):
        assert state.current_player() == seat
        assert state.legal_actions() == [1, 2, 3, 4] and state.legal_actions((seat + 1) % 3) == []
        state.apply_action(4 - seat)
    assert state.history() == [0, 4, 3, 2]  # no NO_OP of the seats that wait
    assert state.current_player() == 0  # seat 0 won the bid with 4 and alone claims
    assert state.legal_actions() == [KEEP, PEEK]


@pytest.mark.parametrize("players", [2, 4])
def test_openspiels_random_simulation_runs_the_game_in_turns(players: int) -> None:
    game = pyspiel.load_game(f"toyspiel_turns(players={players})")
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_a_serialized_state_in_turns_replays_to_an_equal_one() -> None:
    game, rng = pyspiel.load_game("toyspiel_turns"), random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        copy = game.deserialize_state(state.serialize())
        assert copy.flow == state.flow and copy.history() == state.history()
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_pending_bid_is_seen_by_its_seat_alone() -> None:
    worlds = []
    for card in (1, 4):
        state = _at_first_bid()
        state.apply_action(card)  # seat 0's bid, pending
        worlds.append(state)
    one, four = worlds
    for seat in (1, 2):
        assert one.observation_string(seat) == four.observation_string(seat)
        assert one.information_state_string(seat) == four.information_state_string(seat)
    assert one.observation_string(0) != four.observation_string(0)
    assert one.information_state_string(0) != four.information_state_string(0)


def test_the_wrapped_check_refuses_a_seat_out_of_turn() -> None:
    state = TURNS.initial(ToyConfig(3, 4), SeededChance(1)).state
    with pytest.raises(NotAwaitedError, match="seat 1 does not choose now"):
        TURNS.check(state, 1, Bid(1))


def test_a_simultaneous_step_in_a_sequential_game_is_the_games_fault() -> None:
    state = pyspiel.load_game("toyspiel_wrongly_sequential").new_initial_state()
    state.apply_action(0)
    with pytest.raises(GameContractError, match="awaits one seat"):
        state.current_player()


def test_a_clone_shares_the_immutable_flow_and_moves_on_alone() -> None:
    """OpenSpiel clones a Python state by deep-copying its attributes: the flow is immutable, so the copy is the
    same object (no copy of the whole game so far at every clone), and the clone still moves on by itself."""
    import copy

    state = _at_first_bid()
    assert copy.deepcopy(state.flow) is state.flow
    clone = state.clone()
    assert clone.flow is state.flow
    clone.apply_action(3)
    assert clone.history() == [0, 3] and state.history() == [0] and clone.flow is not state.flow
