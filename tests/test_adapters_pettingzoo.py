"""The PettingZoo environments pass PettingZoo's own conformance harnesses (spec 9.2-9.4).

For 3, 4 and 5 players: ``parallel_api_test`` on :func:`parallel_env`, ``api_test`` on :func:`env` (AEC),
``seed_test`` on the AEC form and on ``parallel_to_aec(parallel_env())``. PettingZoo 1.27's
``parallel_seed_test`` is not run: it samples actions without the action mask, which these environments
reject as illegal (and it checks one step only). Its harnesses warn that the observation is a dict (the
observation and its action mask), as they do for PettingZoo's own card games.

Skipped when the ``pettingzoo`` extra is not installed.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pettingzoo = pytest.importorskip("pettingzoo")
import attrs  # noqa: E402
import numpy as np  # noqa: E402  # numpy comes with the pettingzoo extra
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from gymnasium import spaces as pettingzoo_spaces  # noqa: E402
from pettingzoo.utils import parallel_to_aec  # noqa: E402

from darkempire.adapters import core  # noqa: E402
from darkempire.adapters.pettingzoo import env, parallel_env  # noqa: E402
from darkempire.rules.errors import ConfigError  # noqa: E402
from darkempire.rules.state import Phase  # noqa: E402
from darkempire.rules.views import player_view  # noqa: E402
from test_views_leak import resample_hidden  # noqa: E402

PLAYERS = (3, 4, 5)
#: The only warnings the harnesses may give: the observation is a dict with the action mask.
EXPECTED_WARNINGS = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


def _run(harness: Any, *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        harness(*args, **kwargs)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert unexpected == []


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("players", PLAYERS)
def test_parallel_api_test(players: int) -> None:
    _run(parallel_api_test, parallel_env(players=players), num_cycles=1000)


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("players", PLAYERS)
def test_aec_api_test(players: int) -> None:
    _run(api_test, env(players=players), num_cycles=1000)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_seed_test_aec(players: int) -> None:
    _run(seed_test, lambda: env(players=players), num_cycles=500)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_seed_test_parallel_as_aec(players: int) -> None:
    _run(seed_test, lambda: parallel_to_aec(parallel_env(players=players)), num_cycles=500)


def _play(penv: Any, seed: int, rng: random.Random) -> tuple[list[Any], dict[str, float]]:
    """A whole game of random legal actions; the observations of each step and the final rewards."""
    observations, _ = penv.reset(seed=seed)
    seen = [observations]
    rewards: dict[str, float] = {}
    while penv.agents:
        actions = {a: rng.choice(np.flatnonzero(observations[a]["action_mask"]).tolist()) for a in penv.agents}
        observations, rewards, terminations, truncations, _ = penv.step(actions)
        seen.append(observations)
        assert not any(truncations.values())
        assert all(terminations.values()) == (not penv.agents)
    return seen, rewards


@pytest.mark.spec("9.3", "8.2", "8.5")
def test_seeded_reset_replays_and_rewards_share_the_win() -> None:
    """The same seed and actions give the same game; the winners share +1, the others get -1."""
    penv = parallel_env(players=4)
    first, rewards = _play(penv, 3, random.Random(1))
    second, again = _play(penv, 3, random.Random(1))
    assert rewards == again and len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert all(np.array_equal(a[k]["observation"], b[k]["observation"]) for k in a)
    state = penv.state_now
    assert state.is_over and state.verdict is not None
    winners = state.verdict.winners
    assert rewards == {f"player_{s}": (1 / len(winners) if s in winners else -1.0) for s in range(4)}
    other, _ = _play(penv, 4, random.Random(1))
    assert not np.array_equal(other[0]["player_0"]["observation"], first[0]["player_0"]["observation"])


@pytest.mark.spec("9.2")
def test_spaces_masks_and_illegal_actions() -> None:
    """One space object per agent; the mask is the seat's legal actions; an illegal action raises."""
    penv = parallel_env(players=3)
    observations, _ = penv.reset(seed=0)
    for agent in penv.possible_agents:
        assert penv.action_space(agent) is penv.action_space(agent)
        assert penv.observation_space(agent).contains(observations[agent])
        assert penv.action_space(agent) == pettingzoo_spaces.Discrete(core.NUM_ACTIONS)
    state = penv.state_now
    mask = observations["player_1"]["action_mask"]
    assert np.flatnonzero(mask).tolist() == core.legal_indices(state, 1)
    assert mask.sum() == 36  # C(9, 2) passes at the draft (rule 2.5)
    with pytest.raises(ValueError, match="not legal"):
        penv.step({a: 0 for a in penv.agents})
    assert penv.state_now is state  # nothing applied
    with pytest.raises(ConfigError):
        parallel_env(players=6)


@pytest.mark.spec("9.2")
def test_aec_asks_only_awaited_seats_and_hides_their_choices() -> None:
    """In the AEC form the awaited seats act in seat order; a later seat sees only that an earlier one chose."""
    aec = env(players=3)
    aec.reset(seed=5)
    assert aec.agent_selection == "player_0"
    observation, *_ = aec.last()
    aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert aec.agent_selection == "player_1"
    state = aec.unwrapped.seen
    assert state.phase is Phase.DRAFT_PASS and state.pending[0] is not None
    view = player_view(state, 1)
    assert view.chosen == frozenset({0}) and view.pending is None


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_observations_leak_nothing(players: int) -> None:
    """Every seat's observation and mask stay the same when what it may not see is drawn again."""
    penv = parallel_env(players=players)
    penv.reset(seed=players)
    rng = random.Random(players)
    while penv.agents:
        flow = penv.flow
        state = penv.state_now
        for seat in range(players):
            seen = penv._observe(seat)
            penv._flow = attrs.evolve(flow, state=resample_hidden(state, seat, rng))  # the kit's flow, world redrawn
            other = penv._observe(seat)
            penv._flow = flow
            assert np.array_equal(seen["observation"], other["observation"])
            assert np.array_equal(seen["action_mask"], other["action_mask"])
        observations = {a: penv._observe(s) for s, a in enumerate(penv.agents)}
        penv.step({a: rng.choice(np.flatnonzero(observations[a]["action_mask"]).tolist()) for a in penv.agents})
