"""The kit's adapters against the hostile review of 2026-12-02, on Toyspiel (findings F18, F01 and later).

* F18: :meth:`KitFlow.apply_joint <tablekit.adapters.flow.KitFlow.apply_joint>` (and the kit's collector,
  :func:`tablekit.simultaneous.choose`) keep the action the game's ``check`` returned: an action object the
  caller changes after the check does not change the step, not even when the step runs again at a draw.
* F01: :func:`~tablekit.adapters.flow.decode_joint` reads an integer as a plain ``int``, so an ``int``
  subclass whose ``__eq__`` says yes to everything is not "in" the legal list.
* F06: the parallel environment refuses a step with an action for no agent.
* F04: OpenSpiel's ``action_to_string`` at a chance node reads the game's outcome ids (the outcome hook) and
  refuses an integer that is no outcome; a seat or action integer out of range is refused too.
* F16: the kit's Python observer refuses what is no seat and what is no kind of observation.
* F14: a flow refuses a number of seats that is not its config's, a chance source that is none and a game
  that is none.
* F20: a kit game refuses an unknown parameter (``pyspiel.load_game`` could never load it back) and parameters
  that are no mapping; a draw at the end says the game is over.
"""

from __future__ import annotations

from typing import Any

import pytest

from kit.toy import GAME, Bid, Keep, Peek, Phase, ToyAction, ToyConfig, ToyState
from tablekit import simultaneous
from tablekit.adapters.flow import AdapterError, KitFlow, decode_joint
from tablekit.chance import ScriptedChance

KEEP, PEEK = 10, 11


class _Encoder:
    """A bid of card ``c`` is ``c``, Keep 10, Peek 11; 0 is the kit's NO_OP."""

    num_actions = 12

    def encode(self, state: ToyState, seat: int, action: ToyAction) -> int:
        return action.card if isinstance(action, Bid) else KEEP if isinstance(action, Keep) else PEEK

    def decode(self, state: ToyState, seat: int, index: int) -> ToyAction:
        return Bid(index) if index < KEEP else Keep() if index == KEEP else Peek()


def _at_claim() -> KitFlow[ToyConfig, ToyState, ToyAction]:
    """A 2-player game of 3 cards at its first claim (seat 1 bid higher), prizes left in the deck."""
    flow: KitFlow[ToyConfig, ToyState, ToyAction] = KitFlow.start(GAME, ToyConfig(2, 3), 2).draw(0)
    flow = flow.apply_joint({0: Bid(1), 1: Bid(3)})
    assert flow.state is not None and flow.state.phase is Phase.CLAIM and flow.awaited == {1}
    return flow


# --------------------------------------------------------------------------- F18: the checked action is kept


def test_an_action_changed_after_the_check_does_not_change_the_step_drawing_its_outcomes() -> None:
    flow = _at_claim()
    assert flow.state is not None and flow.state.prize is not None
    prize, score = flow.state.prize, flow.state.scores[1]
    keep = Keep()
    flow = flow.apply_joint({1: keep})
    assert flow.is_chance  # the next prize: the draw runs the step again
    object.__setattr__(keep, "__class__", Peek)  # the caller's object is now a Peek
    flow = flow.draw(0)
    assert flow.state is not None
    assert flow.state.scores[1] == score + prize and flow.state.peeker is None  # kept, as checked
    assert flow.past[-1][1] == ((1, Keep()),) and type(flow.past[-1][1][0][1]) is Keep


def test_the_collector_resolves_the_checked_action_not_the_callers_changed_object() -> None:
    round, _ = simultaneous.start(GAME, ToyConfig(2, 3), ScriptedChance((0,)))
    bid = Bid(1)
    round = simultaneous.choose(GAME, round, 0, bid).round
    object.__setattr__(bid, "card", 3)  # changed after its check, before the step resolves
    collected = simultaneous.choose(GAME, round, 1, Bid(2))
    assert collected.transition is not None
    assert collected.transition.state.hands[0] == frozenset({2, 3})  # seat 0 gave the card it was checked for


# --------------------------------------------------------------------------- F01: integers read as ints


class _Liar(int):
    """An int whose ``__eq__`` says yes to everything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


@pytest.mark.parametrize("action", [_Liar(99), _Liar(-1), _Liar(7)], ids=repr)
def test_an_integer_outside_the_legal_list_is_refused_even_if_its_eq_lies(action: int) -> None:
    flow = _at_claim()
    with pytest.raises(AdapterError, match="seat 1"):
        decode_joint(flow, _Encoder(), [0, action])
    with pytest.raises(AdapterError, match="seat 1"):
        decode_joint(flow, _Encoder(), [0, action], legal=lambda seat: [0] if seat == 0 else [KEEP, PEEK])
    assert decode_joint(flow, _Encoder(), [0, KEEP]) == {1: Keep()}


# --------------------------------------------------------------------------- F06: unknown agents


def test_a_parallel_step_with_an_action_for_no_agent_is_refused_on_the_kit() -> None:
    pytest.importorskip("pettingzoo")
    from kit.test_kit_pettingzoo import _env

    env = _env(2)
    observations, _ = env.reset(seed=0)
    joint = {a: int(o["action_mask"].argmax()) for a, o in observations.items()}
    for extra in ("player_2", 1, None):
        bad: dict[Any, Any] = {**joint, extra: 1}
        with pytest.raises(AdapterError, match="no other"):
            env.step(bad)
    env.step(joint)


# --------------------------------------------------------------------------- F04: chance action strings


def test_a_chance_action_string_reads_the_outcome_id_and_refuses_what_is_no_outcome() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import kit.test_kit_adapter_hooks  # noqa: F401  registers toyspiel_ids (outcome ids 10, 20, 30, 40)
    from tablekit.adapters.flow import OutcomeError
    from tablekit.adapters.openspiel import KitState

    state = pyspiel.load_game("toyspiel_ids(players=3)").new_initial_state()
    assert isinstance(state, KitState)
    chance = pyspiel.PlayerId.CHANCE
    assert state.action_to_string(chance, 10) == "prize: outcome 10 (1)"  # the option of id 10: prize 1
    assert state.action_to_string(chance, 40) == "prize: outcome 40 (4)"
    for no_outcome in (1, 3, 0, -1, 41):
        with pytest.raises(OutcomeError, match="not a chance outcome"):
            state.action_to_string(chance, no_outcome)
    state.apply_action(30)
    with pytest.raises(OutcomeError, match="no chance node"):
        state.action_to_string(chance, 10)
    for seat, action in ((5, 1), (-3, 1), (0, -1), (0, 2**40)):
        with pytest.raises(AdapterError):
            state.action_to_string(seat, action)


# --------------------------------------------------------------------------- F16: observers


def test_the_kits_observer_refuses_what_is_no_seat_and_what_is_no_kind() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import kit.test_kit_openspiel  # noqa: F401  registers toyspiel

    game = pyspiel.load_game("toyspiel(players=2)")
    state = game.new_initial_state()
    state.apply_action(0)
    for recall in (False, True):
        observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
        assert observer.string_from(state, 1)
        for seat in (2, -1, None, 1.0, True):
            with pytest.raises(AdapterError, match="no seat"):
                observer.string_from(state, seat)
    with pytest.raises(AdapterError, match="IIGObservationType"):
        game.make_py_observer("junk")


# --------------------------------------------------------------------------- F14: a flow's misuse


def test_a_flow_refuses_a_number_of_seats_not_the_configs_no_chance_source_and_no_game() -> None:
    with pytest.raises(AdapterError, match="2 seats, not of the 3"):
        KitFlow.start(GAME, ToyConfig(2, 3), 3).draw(0)  # the set-up's state has 2 seats
    flow: KitFlow[ToyConfig, ToyState, ToyAction] = KitFlow.start(GAME, ToyConfig(2, 3), 2)
    nothing: Any = object()  # no chance source, no game
    with pytest.raises(AdapterError, match="chance source"):
        flow.sample(nothing)
    with pytest.raises(AdapterError, match="no tablekit Game"):
        KitFlow.start(nothing, None, 3)
    two: Any = 2.0
    with pytest.raises(AdapterError, match="positive int"):
        KitFlow.start(GAME, ToyConfig(2, 3), two)
    assert flow.sample(ScriptedChance((0,))).awaited == {0, 1}


# --------------------------------------------------------------------------- F20: parameters and the end


def test_a_kit_game_refuses_an_unknown_parameter_and_a_draw_at_the_end_says_the_game_is_over() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import kit.test_kit_openspiel  # noqa: F401  registers toyspiel
    from tablekit.adapters.flow import OutcomeError
    from tablekit.adapters.openspiel import KitGame

    spec = pyspiel.load_game("toyspiel").spec
    with pytest.raises(AdapterError, match="unknown parameter 'zzz'"):
        KitGame(spec, {"players": 2, "zzz": 1})
    pairs: Any = [("players", 2)]
    with pytest.raises(AdapterError, match="mapping"):
        KitGame(spec, pairs)
    assert KitGame(spec, {"players": 3}).num_players() == 3
    flow: KitFlow[ToyConfig, ToyState, ToyAction] = KitFlow.start(GAME, ToyConfig(2, 1), 2).draw(0)
    flow = flow.apply_joint({0: Bid(1), 1: Bid(1)}).apply_joint({0: Keep()})
    assert flow.is_over
    with pytest.raises(OutcomeError, match="the game is over"):
        flow.draw(0)
