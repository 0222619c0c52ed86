"""The OpenSpiel adapter's kernel path is the reference path's game (darkempire.adapters.kernel_flow).

Whole games are played side by side: a state on a :class:`~darkempire.adapters.kernel_flow.KernelFlow` (what
``new_initial_state`` gives) and a state on the reference :class:`~darkempire.adapters.core.Flow`, both driven
through pyspiel with the same seeded random choices. At every node both must show the same node kind, chance
outcomes and probabilities, legal actions of every seat, returns, and history; at a sample of nodes the
observation and information-state strings, the observation tensor, ``str`` and the JSON too; at every decision
the kernel's snapshot must be the reference flow's decided state. Clones taken at random nodes (chance nodes
mid-step included) must go on as the original does.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

from darkempire.adapters import core  # noqa: E402
from darkempire.adapters import openspiel as adapter  # noqa: E402
from darkempire.adapters.kernel_flow import KernelFlow, encode_listing  # noqa: E402
from darkempire.kernel import Kernel  # noqa: E402
from darkempire.rules.state import Phase  # noqa: E402

#: Games per player count: 3 with the ``dev`` profile, 8 with ``ci``, 80 with ``long``.
GAMES = {"dev": 3, "ci": 8, "long": 80}.get(os.environ.get("HYPOTHESIS_PROFILE", "ci"), 8)


def _pair(players: int) -> tuple[Any, Any, Any]:
    game = pyspiel.load_game(f"dark_empire_revolution(players={players})")
    fast = game.new_initial_state()
    slow = adapter.DarkEmpireState(game, core.Flow.new(players))
    assert fast.kernel_flow is not None and slow.kernel_flow is None
    return game, fast, slow


def _same_node(fast: Any, slow: Any, players: int) -> None:
    assert fast.current_player() == slow.current_player()
    assert fast.is_terminal() == slow.is_terminal()
    assert fast.is_chance_node() == slow.is_chance_node()
    assert fast.history() == slow.history()
    assert fast.returns() == slow.returns()
    if fast.is_chance_node():
        assert fast.chance_outcomes() == slow.chance_outcomes()
        assert fast.legal_actions() == slow.legal_actions()
    elif not fast.is_terminal():
        for seat in range(players):
            assert fast.legal_actions(seat) == slow.legal_actions(seat), seat


def _same_texts(game: Any, fast: Any, slow: Any, players: int) -> None:
    tensor_fast, tensor_slow = np.zeros(game.observation_tensor_size()), np.zeros(game.observation_tensor_size())
    for seat in range(players):
        assert fast.observation_string(seat) == slow.observation_string(seat)
        assert fast.information_state_string(seat) == slow.information_state_string(seat)
        tensor_fast[:] = fast.observation_tensor(seat)
        tensor_slow[:] = slow.observation_tensor(seat)
        assert (tensor_fast == tensor_slow).all()
    assert str(fast) == str(slow)
    assert fast.serialize() == slow.serialize()


def _play_side_by_side(players: int, seed: int) -> int:
    """One game through both paths; the number of nodes."""
    rng = random.Random(seed)
    game, fast, slow = _pair(players)
    nodes = 0
    clones: list[tuple[Any, Any]] = []
    while True:
        _same_node(fast, slow, players)
        if rng.random() < 0.03:
            _same_texts(game, fast, slow, players)
        if fast.kernel_flow.drawing is None and not fast.is_terminal() and slow.flow.state is not None:
            assert fast.kernel_flow.kernel.snapshot() == slow.flow.state
        if rng.random() < 0.02 and len(clones) < 3:
            clones.append((fast.clone(), slow.clone()))
        if fast.is_terminal():
            break
        if fast.is_chance_node():
            outcome = rng.choice(fast.chance_outcomes())[0]
            fast.apply_action(outcome)
            slow.apply_action(outcome)
        else:
            joint = [rng.choice(fast.legal_actions(seat)) for seat in range(players)]
            fast.apply_actions(joint)
            slow.apply_actions(joint)
        nodes += 1
    _same_texts(game, fast, slow, players)
    assert fast.flow == slow.flow  # the reference flow the kernel path builds is the one played
    for fast_clone, slow_clone in clones:  # a clone goes on as its original would
        assert isinstance(fast_clone.kernel_flow, KernelFlow)
        while not fast_clone.is_terminal():
            _same_node(fast_clone, slow_clone, players)
            if fast_clone.is_chance_node():
                outcome = rng.choice(fast_clone.chance_outcomes())[0]
                fast_clone.apply_action(outcome)
                slow_clone.apply_action(outcome)
            else:
                joint = [rng.choice(fast_clone.legal_actions(seat)) for seat in range(players)]
                fast_clone.apply_actions(joint)
                slow_clone.apply_actions(joint)
        assert fast_clone.returns() == slow_clone.returns()
    return nodes


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("game_number", range(GAMES))
def test_kernel_path_plays_the_reference_game(players: int, game_number: int) -> None:
    assert _play_side_by_side(players, 1000 * players + game_number) > 100


def test_listing_encodes_the_kernel_actions() -> None:
    """Entry ``i`` of the encoded listing is the integer of the kernel's action ``i`` (every phase but re-organize)."""
    rng = random.Random(3)
    flow = KernelFlow.new(4)
    checked = 0
    while not flow.is_over:
        if flow.is_chance:
            flow.apply_chance(rng.choice(flow.chance_outcomes())[0])
            continue
        k = flow.kernel
        state = k.snapshot()
        for seat in k.awaiting:
            if state.phase is not Phase.REORGANIZE:
                codes = encode_listing(k, seat)
                assert codes == [core.encode(state, seat, k.action(seat, i)) for i in range(k.action_count(seat))]
                checked += 1
        flow.apply_joint([rng.choice(flow.legal(s)) for s in range(4)])
    assert checked > 100


def test_refusals_are_the_reference_flows() -> None:
    game, fast, slow = _pair(3)
    with pytest.raises(Exception) as fast_error:
        fast.apply_actions([0, 0, 0])  # a chance node: no joint action
    with pytest.raises(Exception) as slow_error:
        slow.apply_actions([0, 0, 0])
    assert type(fast_error.value) is type(slow_error.value) and str(fast_error.value) == str(slow_error.value)
    with pytest.raises(Exception) as fast_error:
        fast.apply_action(99)  # no outcome of the first draw
    with pytest.raises(Exception) as slow_error:
        slow.apply_action(99)
    assert type(fast_error.value) is type(slow_error.value) and str(fast_error.value) == str(slow_error.value)
    while fast.is_chance_node():
        outcome = fast.chance_outcomes()[0][0]
        fast.apply_action(outcome)
        slow.apply_action(outcome)
    bad = [fast.legal_actions(0)[0], 6856, fast.legal_actions(2)[0]]
    with pytest.raises(ValueError) as fast_error:
        fast.apply_actions(bad)
    with pytest.raises(ValueError) as slow_error:
        slow.apply_actions(bad)
    assert type(fast_error.value) is type(slow_error.value) and str(fast_error.value) == str(slow_error.value)
    _same_node(fast, slow, 3)  # nothing changed by the refusals


def test_pickled_kernel_state_loads_as_the_reference_flow() -> None:
    rng = random.Random(5)
    _, fast, _ = _pair(3)
    for _ in range(200):
        if fast.is_chance_node():
            fast.apply_action(rng.choice(fast.chance_outcomes())[0])
        else:
            fast.apply_actions([rng.choice(fast.legal_actions(s)) for s in range(3)])
    loaded = pickle.loads(pickle.dumps(fast.kernel_flow))
    assert isinstance(loaded, core.Flow)
    assert loaded.to_data() == fast.flow.to_data()
    assert copy.deepcopy(fast.kernel_flow) is not fast.kernel_flow


def test_copy_mid_step_rebuilt_from_the_reference() -> None:
    """A copy at a draw the flow kept no kernel for is rebuilt from the reference flow, and goes on the same."""
    rng = random.Random(9)
    flow = KernelFlow.new(3)
    while not (flow.is_chance and flow.kernel.phase != 0 and flow._joint is not None):
        if flow.is_chance:
            flow.apply_chance(rng.choice(flow.chance_outcomes())[0])
        else:
            flow.apply_joint([rng.choice(flow.legal(s)) for s in range(3)])
    flow.apply_chance(flow.chance_outcomes()[0][0])  # one draw of the step made: the copy replays it
    flow._base = None  # as if the step was not expected to draw
    other = flow.copy()
    assert other.chance_outcomes() == flow.chance_outcomes()
    while not flow.is_over:
        if flow.is_chance:
            outcome = rng.choice(flow.chance_outcomes())[0]
            flow.apply_chance(outcome)
            other.apply_chance(outcome)
        else:
            joint = [rng.choice(flow.legal(s)) for s in range(3)]
            assert [other.legal(s) for s in range(3)] == [flow.legal(s) for s in range(3)]
            flow.apply_joint(joint)
            other.apply_joint(joint)
    assert other.returns() == flow.returns()
    state = other.reference().state
    assert state is not None and Kernel.from_state(state).snapshot() == state
