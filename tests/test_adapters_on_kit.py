"""Dark Empire's adapters stand on the kit's bases: what is game-agnostic runs in ``tablekit.adapters``.

* the OpenSpiel game, state and observer are the kit's :class:`~tablekit.adapters.openspiel.KitGame`,
  :class:`~tablekit.adapters.openspiel.KitState` and :class:`~tablekit.adapters.openspiel.KitObserver`, and the
  flow is a :class:`~tablekit.adapters.flow.KitFlow` over :data:`darkempire.rules.game.GAME`: a game played through
  Dark Empire's flow is, state for state and node for node, the kit's flow of the same game;
* the PettingZoo environments are the kit's :class:`~tablekit.adapters.pettingzoo.KitParallelEnv` and
  :class:`~tablekit.adapters.pettingzoo.KitAECEnv`;
* what users and harnesses read did not move: serialized states (format ``darkempire-openspiel/2``),
  information states and observation tensors of fixed playouts are those of the adapter before the port.
"""

from __future__ import annotations

import hashlib
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from darkempire.adapters import core  # noqa: E402
from darkempire.adapters import openspiel as adapter  # noqa: E402
from darkempire.adapters import pettingzoo as pz  # noqa: E402
from darkempire.rules.game import GAME  # noqa: E402
from darkempire.rules.actions import Action  # noqa: E402
from darkempire.rules.state import GameConfig, GameState  # noqa: E402
from tablekit.adapters.flow import KitFlow  # noqa: E402
from tablekit.adapters.openspiel import KitGame, KitObserver, KitState  # noqa: E402
from tablekit.adapters.pettingzoo import KitAECEnv, KitParallelEnv  # noqa: E402


def test_the_openspiel_classes_and_the_flow_are_the_kits() -> None:
    game = pyspiel.load_game("dark_empire_revolution(players=3)")
    state = game.new_initial_state()
    assert isinstance(game, adapter.DarkEmpireGame) and isinstance(game, KitGame)
    assert isinstance(state, KitState) and isinstance(state.flow, KitFlow) and state.flow.game is GAME
    assert isinstance(game.make_py_observer(), KitObserver)
    assert game.spec is adapter.SPEC and adapter.SPEC.outcome is core.outcome_id


def test_the_pettingzoo_environments_are_the_kits() -> None:
    penv = pz.parallel_env(players=3)
    assert isinstance(penv, KitParallelEnv) and isinstance(pz.raw_env(players=3), KitAECEnv)
    observations, _ = penv.reset(seed=4)
    while penv.agents:  # the kit's loop: every step's draws made at once, the flow always at a decision
        assert not penv.flow.is_chance and penv.flow.game is GAME
        legal = {a: int(observations[a]["action_mask"].nonzero()[0][0]) for a in penv.agents}
        observations, *_ = penv.step(legal)
    assert penv.flow.is_over and len(penv.flow.past) > 40


@pytest.mark.parametrize("players", [3, 4, 5])
def test_dark_empires_flow_is_the_kits_flow_of_the_same_game(players: int) -> None:
    """Played in lockstep, Dark Empire's flow and a plain kit flow with the same outcome ids and choices
    stand at the same chance nodes and decided states: the deal and steps are run by the kit."""
    rng = random.Random(players)
    ours = core.Flow.new(players)
    kit: KitFlow[GameConfig, GameState, Action] = KitFlow.start(GAME, GameConfig(players=players), players,
                                                              outcome=core.outcome_id)  # fmt: skip
    nodes = 0
    while not ours.is_over:
        assert (ours.node, ours.state, ours.outcomes) == (kit.node, kit.state, kit.outcomes)
        if ours.is_chance:
            outcome = rng.choice(ours.outcomes)
            ours, kit, nodes = ours.apply_chance(outcome), kit.apply_chance(outcome), nodes + 1
            continue
        joint = [rng.choice(ours.legal(seat)) for seat in range(players)]
        ours = ours.apply_joint(joint)
        kit = kit.apply_joint(dict(ours.past[-1][1]))  # the choices Dark Empire's flow decoded
    assert kit.is_over and kit.state == ours.state and kit.returns() == ours.returns()
    assert {3: 185 <= nodes <= 204, 4: 247 <= nodes <= 269, 5: 299 <= nodes <= 314}[players]


#: Fixed random playouts (players, seed, actions at most) and, from the adapter before it stood on the kit
#: (main at 5e6ef01), the SHA-256 of the serialized state, of seat 1's information state and of seat 2's
#: observation tensor (each float times 7, mod 256, as bytes; ``-`` at the end).
GOLDEN = [
    (3, 1, 10**6, "c4532a0b7e15114c63b12f264852f6002483f54c0d1cc086f09e06b821cc8d2d",
     "044f2e3e98e10af623af069c5be215bc714af7cc208df6144181fff7f041502c", "-"),
    (4, 2, 120, "3a2d5926f4cd58a1d3050754f15ae52e594196bf12e89125dc020d87a8cf3fe3",
     "e8131233c1d3588f32b206dd88cb87c2cf9395cbfe15175242010bb8a6f67cfc",
     "677bfd99fe6322da458feeebb37b6a8eaf78b48804c14edcad813ee66686c36a"),
    (5, 3, 400, "17eab0e57dc8a0cb8496c0c6fc8297329f5980d5dd73a92489f5289d88f26a89",
     "857d7ddb122bbbd8cc291cf68f28c5f3f44e6df13ec0527496b54c0751c040c5",
     "9c618b1a8d50c74b3e8607f0c8cac8c15c61f7acadc2d7c70285fa598752acab"),
]  # fmt: skip


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize(("players", "seed", "cut", "serialized", "info_state", "tensor"), GOLDEN)
def test_serialized_states_information_states_and_tensors_are_those_before_the_port(
    players: int, seed: int, cut: int, serialized: str, info_state: str, tensor: str
) -> None:
    state = pyspiel.load_game(f"dark_empire_revolution(players={players})").new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history()) < cut:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_actions([rng.choice(state.legal_actions(s)) for s in range(players)])
    assert f'"format":"{adapter.STATE_FORMAT}"' in state.serialize() and adapter.STATE_FORMAT.endswith("/2")
    assert _sha(state.serialize().encode()) == serialized
    assert _sha(state.information_state_string(1).encode()) == info_state
    if not state.is_terminal():
        assert _sha(bytes(int(x * 7) % 256 for x in state.observation_tensor(2))) == tensor
