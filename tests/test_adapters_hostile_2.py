"""The adapters against the hostile review of 2026-12-02 (findings F01-F20, adapter parts; spec 9.1, 9.2).

* F18: the flow resolves the actions it checked, made of the engine's own cards, never the caller's objects:
  a card copy changed after the check cannot change the step (nor its trail).
* F01: an action integer outside the action space (or an ``int`` subclass whose ``__eq__`` lies) is an
  :class:`~darkempire.rules.errors.IllegalActionError` naming the seat, never a bare ``ValueError``.
* F02: :meth:`Flow.apply_joint <darkempire.adapters.core.Flow.apply_joint>` given the kit's mapping checks each
  action before anything encodes it: a malformed, forged or wrong-phase action is a typed refusal.

Each test builds its flow with the kit's seeded chance, so it is quick and the same every run.
"""

from __future__ import annotations

import enum
import json
import random
from typing import Any

import attrs
import pytest

from darkempire.adapters.core import NUM_ACTIONS, Flow, observation_text
from darkempire.rules import engine
from darkempire.rules.actions import Action, PassCards, PlaceCards, Reorganize
from darkempire.rules.cards import FactionCard
from darkempire.rules.errors import IllegalActionError, InvalidArgumentError, WrongPhaseError, WrongSeatError
from darkempire.serialization import InconsistentStateError
from darkempire.rules.state import Phase
from tablekit.adapters.flow import AdapterError, OutcomeError
from tablekit.chance import SeededChance

# --------------------------------------------------------------------------- F18: the checked action is kept


def _become(target: FactionCard, card: FactionCard) -> None:
    for field in attrs.fields(FactionCard):
        object.__setattr__(target, field.name, getattr(card, field.name))


def _reorganize_with_two_faction_cards() -> Flow:
    rng = random.Random(1)
    flow = Flow.new(3).sample(SeededChance(4))
    while not (flow.state is not None and flow.state.phase is Phase.REORGANIZE and flow.awaited == {0, 1, 2}
               and sum(c.faction is not None for c in flow.state.hands[0]) >= 2):  # fmt: skip
        flow = flow.apply_joint([rng.choice(flow.legal(s)) for s in range(3)])
        while flow.is_chance:
            flow = flow.draw(0)
    return flow


@pytest.mark.spec("9.2")
def test_a_card_copy_changed_after_the_check_does_not_change_the_step() -> None:
    flow = _reorganize_with_two_faction_cards()
    assert flow.state is not None
    x, y = [c for c in flow.state.hands[0] if isinstance(c, FactionCard)][:2]
    copy = object.__new__(FactionCard)
    _become(copy, x)  # equal to X: the check accepts it
    flow = flow.apply_joint({0: Reorganize(None, frozenset([copy])), 1: Reorganize(), 2: Reorganize()})
    assert flow.is_chance  # the refill draws: every draw runs the step again
    kept = dict(flow.choices or ())[0]
    assert isinstance(kept, Reorganize) and all(c is x for c in kept.discards)  # the engine's own card
    _become(copy, y)  # ... and now the caller's copy says Y
    while flow.is_chance:
        flow = flow.draw(0)
    assert flow.state is not None
    assert x not in flow.state.hands[0] and y in flow.state.hands[0]  # X was discarded, as checked
    assert flow.trail[0][-1].endswith(f"discard C{x.value}#{x.id}")


# --------------------------------------------------------------------------- F01: out-of-range integers


class _Liar(int):
    """An int whose ``__eq__`` says yes to everything: ``in`` any list of legal actions."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def _draft() -> tuple[Flow, list[int]]:
    flow = Flow.new(3).sample(SeededChance(0))
    return flow, [flow.legal(s)[0] for s in range(3)]


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("action", [-1, -5, NUM_ACTIONS, 10**30, _Liar(9999)], ids=repr)
def test_an_action_integer_outside_the_action_space_is_an_illegal_action_naming_the_seat(action: int) -> None:
    flow, legal = _draft()
    with pytest.raises(IllegalActionError, match="seat 0") as caught:
        flow.apply_joint([action, legal[1], legal[2]])
    assert caught.value.seat == 0
    with pytest.raises(IllegalActionError, match="seat 1"):
        flow.apply_joint([legal[0], action, legal[2]])


@pytest.mark.spec("9.1")
def test_pyspiel_apply_actions_out_of_range_is_an_illegal_action() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import darkempire.adapters.openspiel  # noqa: F401  registers the game

    state = pyspiel.load_game("dark_empire_revolution(players=3)").new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    legal = [state.legal_actions(p)[0] for p in range(3)]
    for action in (-1, NUM_ACTIONS):
        with pytest.raises(IllegalActionError, match="seat 0"):
            state.clone().apply_actions([action, legal[1], legal[2]])


# --------------------------------------------------------------------------- F02: check before encoding


def _bad_draft_actions(flow: Flow) -> dict[str, Any]:
    assert flow.state is not None
    hand = list(flow.state.hands[0])
    return {
        "one card": PassCards(frozenset(hand[:1])),
        "three cards": PassCards(frozenset(hand[:3])),
        "forged": object.__new__(PassCards),
        "reorganize": Reorganize(hand[0]),
        "place": PlaceCards(frozenset(hand[:1])),
        "str": "pass",
    }


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("case", ["one card", "three cards", "forged", "reorganize", "place", "str"])
def test_a_bad_action_in_the_mapping_form_is_refused_by_the_check_before_any_encoding(case: str) -> None:
    flow, _ = _draft()
    assert flow.state is not None
    ok: dict[int, Action] = {s: engine.legal_actions(flow.state, s)[0] for s in range(3)}
    with pytest.raises(IllegalActionError) as caught:
        flow.apply_joint({**ok, 0: _bad_draft_actions(flow)[case]})
    assert "rule" in str(caught.value)
    assert flow.apply_joint(ok).trail[0]  # the flow itself is unchanged and still plays


# --------------------------------------------------------------------------- F06, F07: PettingZoo


def _legal_joint(observations: dict[str, Any]) -> dict[str, int]:
    np = pytest.importorskip("numpy")
    return {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("extra", [("player_9", 12345), (7, "junk"), ("player_0 ", 0)], ids=repr)
def test_a_parallel_step_with_an_action_for_no_agent_is_refused(extra: tuple[object, object]) -> None:
    pytest.importorskip("pettingzoo")
    from darkempire.adapters.pettingzoo import parallel_env

    penv = parallel_env(players=3)
    observations, _ = penv.reset(seed=1)
    before = penv.flow
    bad: dict[Any, Any] = {**_legal_joint(observations), extra[0]: extra[1]}
    with pytest.raises(InvalidArgumentError, match="no other"):
        penv.step(bad)
    assert penv.flow is before  # nothing applied


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("action", [99999, -1, NUM_ACTIONS], ids=repr)
def test_the_wrapped_aec_env_refuses_an_action_out_of_the_space_with_a_typed_error(action: int) -> None:
    pytest.importorskip("pettingzoo")
    from darkempire.adapters.pettingzoo import env

    aec = env(players=3)
    aec.reset(seed=1)
    with pytest.raises(IllegalActionError, match="player_0"):
        aec.step(action)
    aec.step(int(aec.observe("player_0")["action_mask"].argmax()))  # nothing applied: it still plays


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
def test_an_aec_step_before_reset_and_an_unknown_agent_are_typed_errors(wrapped: bool) -> None:
    pytest.importorskip("pettingzoo")
    from darkempire.adapters.pettingzoo import env, raw_env

    aec = (env if wrapped else raw_env)(players=3)
    with pytest.raises(InvalidArgumentError, match="reset"):
        aec.step(0)
    aec.reset(seed=1)
    nobodies: tuple[Any, ...] = ("nobody", 0, None)
    for nobody in nobodies:
        with pytest.raises(InvalidArgumentError, match="agents"):
            aec.observe(nobody)


# --------------------------------------------------------------------------- F03, F05: OpenSpiel action strings


def _pyspiel_state() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import darkempire.adapters.openspiel  # noqa: F401  registers the game

    return pyspiel, pyspiel.load_game("dark_empire_revolution(players=3)").new_initial_state()


@pytest.mark.spec("9.1")
def test_a_chance_action_string_refuses_what_is_no_outcome_of_the_node() -> None:
    pyspiel, state = _pyspiel_state()
    chance = pyspiel.PlayerId.CHANCE
    assert state.action_to_string(chance, 2).startswith("seat 0 gets victor card")
    for no_outcome in (7, -1, 5):
        with pytest.raises(OutcomeError, match="victor seat 0"):
            state.action_to_string(chance, no_outcome)
    rng = random.Random(0)
    while not state.flow.node.name.startswith("deal"):
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    assert state.action_to_string(chance, 74) == "seat 0 is dealt +3#74"
    for no_outcome in (75, -1, -75):  # -1 once named card #74 by negative indexing
        with pytest.raises(OutcomeError, match="deal seat 0"):
            state.action_to_string(chance, no_outcome)


@pytest.mark.spec("9.1")
def test_a_seat_action_string_refuses_an_integer_outside_the_space_and_a_seat_outside_the_game() -> None:
    pyspiel, state = _pyspiel_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    assert state.action_to_string(0, 1) == "seat 0: pass W4#0 W4#1"
    for action in (-1, NUM_ACTIONS, 2**40):
        with pytest.raises(InvalidArgumentError, match="no action integer"):
            state.action_to_string(0, action)
    for seat in (9, 3, -3):
        with pytest.raises(WrongSeatError, match="no seat"):
            state.action_to_string(seat, 1)
    with pytest.raises(OutcomeError, match="no chance node"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 1)


# --------------------------------------------------------------------------- F12, F16, F17: seats and actions


class _Seat(enum.IntEnum):
    ONE = 1


class _FormatsAsZero(int):
    """An int that formats as 0, whatever it is (once the key of seat 0's cached view)."""

    def __format__(self, spec: str) -> str:
        return "0"


@pytest.mark.spec("9.1")
def test_a_flows_cache_never_answers_for_a_seat_the_engine_refuses() -> None:
    flow, _ = _draft()
    flow.view(0), flow.view(1), flow.legal(1), observation_text(flow, 0)  # fill the cache
    for seat in (_Seat.ONE, _FormatsAsZero(2), _FormatsAsZero(0)):
        with pytest.raises(WrongSeatError, match="plain int"):
            flow.view(seat)
        with pytest.raises(WrongSeatError, match="plain int"):
            flow.legal(seat)
        with pytest.raises(WrongSeatError, match="plain int"):
            observation_text(flow, seat)


@pytest.mark.spec("9.1")
def test_the_observers_refuse_what_is_no_seat_during_the_deal_and_after() -> None:
    pyspiel, state = _pyspiel_state()
    game = state.get_game()
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    default = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    rng = random.Random(0)
    for _ in range(2):  # at the deal's first draw, then at the first decision
        for observer in (recall, default):
            for seat in (3, None, 1.0, -1, _Seat.ONE):
                with pytest.raises(WrongSeatError, match="no seat"):
                    observer.string_from(state, seat)
        while state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    with pytest.raises(AdapterError, match="IIGObservationType"):
        game.make_py_observer("junk")


@pytest.mark.spec("9.1")
def test_a_sampled_state_refuses_a_float_or_an_illegal_action_and_changes_nothing() -> None:
    pyspiel, _ = _pyspiel_state()
    from darkempire.adapters.openspiel import ismcts_resampler

    turn = pyspiel.convert_to_turn_based(pyspiel.load_game("dark_empire_revolution(players=3)")).new_initial_state()
    rng = random.Random(2)
    while turn.is_chance_node():
        turn.apply_action(rng.choice([o for o, _ in turn.chance_outcomes()]))
    sampled = ismcts_resampler(1)(turn, 0)
    legal = sampled.legal_actions()[0]
    bad: tuple[Any, ...] = (float(legal), True, 999999, -1, str(legal))
    for action in bad:
        with pytest.raises(IllegalActionError, match="seat 0"):
            sampled.apply_action(action)
    assert sampled.current_player() == 0 and sampled.legal_actions()[0] == legal
    sampled.apply_action(legal)
    assert sampled.current_player() == 1


# --------------------------------------------------------------------------- F19, F20, F13: documents and messages


@pytest.mark.spec("9.3")
def test_a_serialized_flow_with_floats_or_booleans_for_integers_is_not_the_flow_its_history_gives() -> None:
    pyspiel, state = _pyspiel_state()
    rng = random.Random(0)
    for _ in range(3):
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    document = json.loads(state.serialize())
    game = state.get_game()
    assert game.deserialize_state(json.dumps(document)).history() == state.history()
    for key, value in (("players", 3.0), ("script", [float(x) for x in document["flow"]["script"]]),
                       ("script", [True if x == 1 else x for x in [1, *document["flow"]["script"][1:]]])):  # fmt: skip
        tampered = json.loads(json.dumps(document))
        tampered["flow"][key] = value
        with pytest.raises(InconsistentStateError, match="flow"):
            game.deserialize_state(json.dumps(tampered))


@pytest.mark.spec("9.3")
def test_a_game_with_an_unknown_parameter_or_no_mapping_of_parameters_is_refused() -> None:
    _pyspiel_state()
    from darkempire.adapters.openspiel import DarkEmpireGame

    with pytest.raises(AdapterError, match="unknown parameter 'zzz'"):
        DarkEmpireGame({"players": 3, "zzz": 1})
    pairs: Any = [("players", 3)]
    with pytest.raises(AdapterError, match="mapping"):
        DarkEmpireGame(pairs)
    assert DarkEmpireGame({"players": 3}).num_players() == 3


@pytest.mark.spec("9.1")
def test_a_chance_outcome_at_the_end_says_the_game_is_over_and_a_small_bad_action_is_named() -> None:
    flow = Flow.new(3).sample(SeededChance(0))
    rng = random.Random(0)
    while not flow.is_over:
        flow = flow.apply_joint([rng.choice(flow.legal(s)) for s in range(3)]).sample(SeededChance(rng.randrange(99)))
    with pytest.raises(OutcomeError, match="the game is over"):
        flow.apply_chance(0)
    with pytest.raises(OutcomeError, match="the game is over"):
        flow.draw(0)
    pytest.importorskip("pettingzoo")
    from darkempire.adapters.pettingzoo import action_index

    with pytest.raises(IllegalActionError, match="not -1 "):
        action_index("player_0", -1)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("line", ["x => pass W4#999 C3#1", "x => pass W4#abc W4#1", "x => pass W4#-1 W4#-2",
                                  "x => pass W4#1", "x => pass W4#١ W4#2"])  # fmt: skip
def test_resampling_a_loaded_flow_whose_trail_names_no_two_cards_is_a_typed_error(line: str) -> None:
    flow = Flow.new(3).sample(SeededChance(5))
    flow = flow.apply_joint([flow.legal(s)[0] for s in range(3)])  # the draft discard step
    assert flow.state is not None and flow.state.phase is Phase.DRAFT_DISCARD
    flow.resample(0, random.Random(1))  # its own trail reads back
    data = json.loads(json.dumps(flow.to_data()))
    data["trail"][0][0] = line
    with pytest.raises(InvalidArgumentError, match="names no two card ids"):
        Flow.from_data(data).resample(0, random.Random(1))


@pytest.mark.spec("9.4")
def test_resampling_at_a_chance_node_is_a_wrong_phase() -> None:
    with pytest.raises(WrongPhaseError, match="chance node"):
        Flow.new(3).resample(0, random.Random(1))


@pytest.mark.spec("9.2")
def test_a_raw_aec_step_once_every_agent_is_done_is_a_typed_error() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from darkempire.adapters.pettingzoo import raw_env

    aec = raw_env(players=3)
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert not aec.agents
    with pytest.raises(InvalidArgumentError, match="every agent is done"):
        aec.step(None)
