"""*Revolution!* as PettingZoo environments: PettingZoo's ``api_test``, ``parallel_api_test`` and ``seed_test``,
whole episodes whose rewards are the engine's returns, bad actions as typed errors, and observations that show
nothing of another seat's unrevealed bid.

The harnesses run bounded games (``max_rounds``), so the suite stays quick.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pettingzoo = pytest.importorskip("pettingzoo")
import numpy as np  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils import parallel_to_aec  # noqa: E402

from revolution.adapters.encoding import Building  # noqa: E402
from revolution.adapters.pettingzoo import RevolutionAECEnv, env, parallel_env, raw_env  # noqa: E402
from revolution.rules.errors import ConfigError  # noqa: E402
from revolution.rules.game import GAME  # noqa: E402
from tablekit.adapters.flow import NO_OP, AdapterError  # noqa: E402

#: The only warnings the harnesses may give: the observation is a dict with the action mask.
EXPECTED_WARNINGS = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


def _run(harness: Any, *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        harness(*args, **kwargs)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert unexpected == []


@pytest.mark.spec("revolution:9.1")
@pytest.mark.parametrize("players", [3, 4])
def test_pettingzoos_api_tests(players: int) -> None:
    _run(api_test, env(players=players, max_rounds=3), num_cycles=1000)
    _run(parallel_api_test, parallel_env(players=players, max_rounds=3), num_cycles=1000)


@pytest.mark.spec("revolution:9.1")
@pytest.mark.parametrize("players", [3, 4])
def test_pettingzoos_seed_test(players: int) -> None:
    _run(seed_test, lambda: env(players=players, max_rounds=2), num_cycles=300)
    _run(seed_test, lambda: parallel_to_aec(parallel_env(players=players, max_rounds=2)), num_cycles=300)


def _masked(observation: dict[str, Any], rng: random.Random) -> int:
    return rng.choice([int(i) for i in np.flatnonzero(observation["action_mask"])])


@pytest.mark.spec("revolution:7.1", "revolution:7.4")
@pytest.mark.parametrize("players", [3, 4])
def test_a_whole_episode_ends_with_the_engines_returns(players: int) -> None:
    aec, rng = raw_env(players=players), random.Random(players)
    aec.reset(seed=players)
    steps = 0
    while not all(aec.terminations.values()):
        agent = aec.agent_selection
        observation = aec.observe(agent)
        assert observation["action_mask"].any(), f"{agent} has no legal action"
        aec.step(_masked(observation, rng))
        steps += 1
    final = aec.parallel.flow.state
    assert isinstance(final, Building) and final.state.is_over and not final.truncated
    returns = GAME.returns(final.state)
    assert aec._cumulative_rewards == {f"player_{s}": returns[s] for s in range(players)}
    assert sorted(returns)[-1] > 0 > sorted(returns)[0] and steps == len(aec.parallel.flow.past)


@pytest.mark.spec("revolution:9.2")
def test_bad_actions_and_configs_are_typed_errors() -> None:
    parallel = parallel_env(players=3)
    observations, _ = parallel.reset(seed=0)
    assert [int(observations[f"player_{s}"]["action_mask"][NO_OP]) for s in range(3)] == [0, 1, 1]
    legal = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    with pytest.raises(AdapterError, match="not legal for player_1"):
        parallel.step({"player_0": legal, "player_1": legal, "player_2": NO_OP})
    with pytest.raises(AdapterError, match="must be an integer"):
        parallel.step({"player_0": float(legal), "player_1": NO_OP, "player_2": NO_OP})
    with pytest.raises(ConfigError, match="three or four"):
        parallel_env(players=2)


def _bidding_world(seed: int, actions: list[int], seat: int, players: int = 3) -> RevolutionAECEnv:
    """An environment after ``actions``, then random legal placements of every seat before ``seat`` this round,
    and ``seed``'s random placements for them: two seeds give worlds differing only in those seats' bids."""
    aec, rng = raw_env(players=players), random.Random(seed)
    aec.reset(seed=0)
    for action in actions:
        aec.step(action)
    while aec.agent_selection != f"player_{seat}":
        aec.step(_masked(aec.observe(aec.agent_selection), rng))
    return aec


@pytest.mark.spec("revolution:9.3")
@pytest.mark.parametrize("seat", [1, 2])
def test_earlier_bidders_bids_change_nothing_a_later_seat_observes(seat: int) -> None:
    """Seat ``seat`` starts its bid in worlds where the seats before it bid differently: its observation and
    mask (and every later seat's) are the same, while the bids behind the screens differ (and the earlier
    bidders, who see their own, see that)."""
    worlds = [_bidding_world(seed, [], seat) for seed in range(4)]
    states = [world.parallel.flow.state for world in worlds]
    assert all(isinstance(state, Building) for state in states)
    bids = {tuple(state.bids) for state in states if isinstance(state, Building)}
    assert len(bids) > 1
    for agent in worlds[0].possible_agents[seat:]:
        first = worlds[0].observe(agent)
        for world in worlds[1:]:
            other = world.observe(agent)
            assert np.array_equal(first["observation"], other["observation"])
            assert np.array_equal(first["action_mask"], other["action_mask"])
    differ = [w for w in worlds[1:] if not np.array_equal(w.observe("player_0")["observation"],
                                                          worlds[0].observe("player_0")["observation"])]  # fmt: skip
    assert differ, "the first bidder sees its own bid"
