"""The hooks a second game needs from the kit's adapter bases, proved on Toyspiel (not on Dark Empire).

* :func:`tablekit.adapters.openspiel.replay_history`: the one loop that replays a history of integers (every
  ``deserialize_state``, and a turn-based history with a joint action half chosen).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from kit.test_kit_openspiel import KEEP  # noqa: E402  # registers toyspiel
from tablekit.adapters.flow import NO_OP  # noqa: E402
from tablekit.adapters.openspiel import replay_history  # noqa: E402


class _Refused(Exception):
    """The error a caller asks for, carrying where the history broke."""

    def __init__(self, at: int, action: object) -> None:
        super().__init__(at, action)
        self.at, self.action = at, action


def _history(players: int, seed: int) -> list[int]:
    state, rng = pyspiel.load_game(f"toyspiel(players={players})").new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_actions([rng.choice(state.legal_actions(seat)) for seat in range(players)])
    return list(state.history())


@pytest.mark.parametrize("seed", range(5))
def test_a_history_replays_to_the_same_state_and_a_cut_one_gives_its_half_chosen_joint_action(seed: int) -> None:
    game = pyspiel.load_game("toyspiel(players=3)")
    history = _history(3, seed)
    whole = game.new_initial_state()
    assert replay_history(whole, history, _Refused) == [] and whole.is_terminal()
    assert whole.history() == history and whole.returns() == game.deserialize_state(whole.serialize()).returns()
    # The first decision's joint action, cut after one seat: that seat's action is handed back.
    first = next(at for at in range(len(history)) if not _prefix_is_chance(game, history[:at]))
    cut = game.new_initial_state()
    assert replay_history(cut, history[: first + 1], _Refused) == [history[first]]
    assert cut.history() == history[:first]  # nothing of the half-chosen joint action is applied


def _prefix_is_chance(game: Any, prefix: list[int]) -> bool:
    state = game.new_initial_state()
    replay_history(state, prefix, _Refused)
    return bool(state.is_chance_node())


def test_a_tail_of_chosen_actions_is_carried_on_into_the_joint_action() -> None:
    game = pyspiel.load_game("toyspiel(players=3)")
    state = game.new_initial_state()
    replay_history(state, [0], _Refused)  # the first prize
    assert replay_history(state, [2], _Refused, buffered=[4]) == [4, 2]
    assert replay_history(state, [3], _Refused, buffered=[4, 2]) == []
    assert state.history() == [0, 4, 2, 3]  # seat 0 won the bid with 4 and alone claims
    assert [state.legal_actions(seat) for seat in range(3)] == [[KEEP, KEEP + 1], [NO_OP], [NO_OP]]


@pytest.mark.parametrize("bad", [True, 1.0, "1", 7, -1, None])
def test_an_action_that_is_not_a_legal_integer_is_refused_with_the_callers_error_naming_where(bad: object) -> None:
    state = pyspiel.load_game("toyspiel(players=3)").new_initial_state()
    with pytest.raises(_Refused) as caught:
        replay_history(state, [0, 1, bad], _Refused)
    assert (caught.value.at, caught.value.action) == (2, bad)
    assert state.history() == [0]  # the joint action with the bad integer was not applied


# --------------------------------------------------------------------------- the hooks of the flow

from collections.abc import Callable, Mapping  # noqa: E402

import attrs  # noqa: E402

from kit.test_kit_openspiel import ToyEncoder, _config  # noqa: E402
from kit.toy import GAME, Bid, Keep, Peek, ToyAction, ToyConfig, ToyState  # noqa: E402
from tablekit.adapters.flow import AdapterError, KitFlow, OutcomeError  # noqa: E402
from tablekit.adapters.openspiel import KitGame, KitObserver, KitState, Limits, Spec, register  # noqa: E402
from tablekit.chance import SeededChance  # noqa: E402
from tablekit.errors import ChanceError, GameContractError  # noqa: E402


def _prize_id(prize: object) -> int:
    """Toyspiel's prizes named by ten times their value: ids that are not the options' indices."""
    assert isinstance(prize, int)
    return 10 * prize


def _id_limits(config: ToyConfig) -> Limits:
    return Limits(config.players, 10 * config.cards + 1, 2 * config.cards, 0.0, config.cards * (config.cards + 1) / 2)


if "toyspiel_ids" not in pyspiel.registered_names():
    register(GAME, ToyEncoder(), "toyspiel_ids", config=_config, limits=_id_limits,
             parameters={"players": 2, "cards": 4}, players=(2, 4), outcome=_prize_id)  # fmt: skip


def test_chance_outcomes_are_named_by_the_outcome_hook_and_a_history_replays_by_them() -> None:
    game = pyspiel.load_game("toyspiel_ids(players=3)")
    state = game.new_initial_state()
    assert [outcome for outcome, _ in state.chance_outcomes()] == [10, 20, 30, 40]
    with pytest.raises(OutcomeError, match="not an outcome"):
        state.apply_action(1)  # an index is no outcome id here
    state.apply_action(30)
    assert state.flow.state.prize == 3 and state.flow.drawn == ()  # decided: nothing drawn since
    state.apply_actions([4, 1, 1])
    state.apply_actions([KEEP, NO_OP, NO_OP])
    assert state.is_chance_node() and state.flow.drawn == ()
    assert [o for o, _ in state.chance_outcomes()] == [10, 20, 40]  # the deck without the 3
    copy = game.deserialize_state(state.serialize())
    assert copy.history() == state.history() == [30, 4, 1, 1, KEEP, NO_OP, NO_OP]
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_an_outcome_error_is_an_adapter_error_and_a_chance_error_quoting_a_huge_integer_by_size() -> None:
    flow = KitFlow.start(GAME, ToyConfig(2, 4), 2, outcome=_prize_id)
    with pytest.raises(OutcomeError) as caught:
        flow.apply_chance(10**5000)
    assert isinstance(caught.value, AdapterError) and isinstance(caught.value, ChanceError)
    assert "an integer of 16610 bits" in str(caught.value)
    with pytest.raises(OutcomeError, match="0..3"):
        flow.draw(4)
    decided = flow.draw(0)
    with pytest.raises(OutcomeError, match="no chance node"):
        decided.draw(0)


def test_outcome_ids_that_clash_are_the_games_fault() -> None:
    flow = KitFlow.start(GAME, ToyConfig(2, 4), 2, outcome=lambda prize: 7)
    with pytest.raises(GameContractError, match="not distinct"):
        flow.apply_chance(7)


def test_a_draw_is_recorded_by_name_and_outcome_id_until_its_step_is_decided() -> None:
    flow = KitFlow.start(GAME, ToyConfig(2, 2), 2, outcome=_prize_id).apply_chance(20)
    flow = flow.apply_joint({0: Bid(1), 1: Bid(2)}).apply_joint({1: Keep()})
    assert flow.is_chance and flow.drawn == ()
    decided = flow.draw(0)
    assert decided.drawn == () and decided.state is not None and decided.state.prize == 1  # its one draw


@attrs.frozen
class _Noted(KitFlow[ToyConfig, ToyState, ToyAction]):
    """A game's own flow: one more field, carried through the kit's transitions."""

    note: str = ""


def test_a_subclass_of_the_flow_keeps_its_type_and_fields_through_every_transition() -> None:
    flow = attrs.evolve(_Noted.start(GAME, ToyConfig(2, 2), 2), note="mine")
    assert isinstance(flow, _Noted)
    steps: list[Callable[[_Noted], _Noted]] = [lambda f: f.apply_chance(0),
                                               lambda f: f.apply_joint({0: Bid(2), 1: Bid(1)}),
                                               lambda f: f.sample(SeededChance(1))]  # fmt: skip
    for step in steps:
        flow = step(flow)
        assert isinstance(flow, _Noted) and flow.note == "mine"


@pytest.mark.parametrize("seed", range(6))
def test_sampling_makes_every_due_draw_at_once_after_the_ones_already_drawn(seed: int) -> None:
    config = ToyConfig(3, 4)
    start = KitFlow.start(GAME, config, 3)
    sampled = start.sample(SeededChance(seed))
    assert not sampled.is_chance and sampled.state == GAME.initial(config, SeededChance(seed)).state
    assert sampled.sample(SeededChance(seed)) is sampled  # nothing due: unchanged
    # A claim that peeks draws twice; one drawn by index first, the sample continues after it.
    flow = start.draw(1).apply_joint({0: Bid(4), 1: Bid(1), 2: Bid(1)}).apply_joint({0: Peek()})
    assert flow.is_chance
    drawn = flow.draw(0).sample(SeededChance(seed))
    assert not drawn.is_chance and drawn.state is not None and drawn.state.deck == tuple(sorted(drawn.state.deck))
    assert 1 not in drawn.state.deck and 2 not in drawn.state.deck  # prize 2 was index 0 of the 1-less deck


# --------------------------------------------------------------------------- the hooks of the OpenSpiel base


class _NotedGame(KitGame):
    """A game's own KitGame: its own flow class and an observer offering the seat's private part alone."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = Spec(GAME, ToyEncoder(), pyspiel.load_game("toyspiel").get_type(), _config,
                    lambda config: Limits(config.players, config.cards, 2 * config.cards, 0.0, 10.0))  # fmt: skip
        super().__init__(spec, params)

    def start_flow(self, config: Any, players: int) -> KitFlow[Any, Any, Any]:
        return attrs.evolve(_Noted.start(GAME, config, players), note="started")


class _PrivateObserver(KitObserver):
    def refused(self) -> str | None:
        return None if self.private and not self.recall else "private parts only"


def test_a_games_kit_game_starts_its_own_flow_and_its_observer_offers_its_own_kinds() -> None:
    game = _NotedGame({"players": 3})
    state = game.new_initial_state()
    assert isinstance(state, KitState) and isinstance(state.flow, _Noted) and state.flow.note == "started"
    state.apply_action(0)
    assert isinstance(state.flow, _Noted) and state.flow.note == "started"
    private = pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)  # fmt: skip
    observer = _PrivateObserver(game.spec, private, None)
    assert (observer.public, observer.private, observer.recall) == (False, True, False)
    with pytest.raises(AdapterError, match="observation"):
        KitObserver(game.spec, private, None)  # the kit's own kinds do not include it
    with pytest.raises(AdapterError, match="private parts only"):
        _PrivateObserver(game.spec, pyspiel.IIGObservationType(perfect_recall=True), None)
    with pytest.raises(AdapterError, match="every seat's"):
        _PrivateObserver(game.spec, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS), None)  # fmt: skip


# --------------------------------------------------------------------------- one decoding of joint actions

import numpy as np  # noqa: E402

from tablekit.adapters.flow import decode_joint  # noqa: E402


def _refusing(seat: int | None, value: object, message: str) -> _Refused:
    return _Refused(-1 if seat is None else seat, value)


def test_a_joint_action_decodes_with_a_games_own_legal_lists_and_errors() -> None:
    flow = KitFlow.start(GAME, ToyConfig(3, 4), 3).draw(0)
    listed: list[int] = []

    def legal(seat: int) -> list[int]:
        listed.append(seat)
        return [1, 2, 3, 4]

    encoder = ToyEncoder()
    numpy_too: list[Any] = [np.int64(1), 2, 3]
    assert decode_joint(flow, encoder, numpy_too, legal=legal) == {0: Bid(1), 1: Bid(2), 2: Bid(3)}
    assert listed == [0, 1, 2]
    forged: list[tuple[Any, int]] = [([1, 2], -1), (5, -1), ([1, True, 2], 1), ([1, 2, 2.0], 2), ([1, 2, 9], 2)]
    for joint, at in forged:
        with pytest.raises(_Refused) as caught:
            decode_joint(flow, encoder, joint, legal=legal, refuse=_refusing)
        assert caught.value.at == at
    with pytest.raises(AdapterError, match="no sequence but int: actions for 3 seats"):
        decode_joint(flow, encoder, forged[1][0])  # no sequence
    with pytest.raises(AdapterError, match="action 10 is not legal for seat 0"):
        decode_joint(flow, encoder, [KEEP, 1, 1])  # the kit's own listing: a bid step has no keep
