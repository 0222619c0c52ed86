"""The kit's PettingZoo base carries Toyspiel: PettingZoo's own API test, seeding, masks and private views."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test  # noqa: E402

from kit.test_kit_openspiel import KEEP, PEEK, ToyEncoder  # noqa: E402
from kit.toy import GAME, Peek, Phase, ToyConfig, ToyState, ToyView  # noqa: E402
from tablekit.adapters.flow import NO_OP, AdapterError  # noqa: E402
from tablekit.adapters.pettingzoo import KitParallelEnv  # noqa: E402

CARDS = 4


def _tensor(players: int) -> Any:
    def tensor(view: ToyView) -> np.ndarray[Any, np.dtype[np.float32]]:
        hand = [float(card in (view.hand or ())) for card in range(1, CARDS + 1)]
        phase = [float(view.phase is phase) for phase in Phase]
        claimant = [float(view.claimant == seat) for seat in range(players)]
        prize = [float(view.prize or 0), float(view.deck_size)]
        return np.array([*hand, *view.scores, *prize, *phase, *claimant], dtype=np.float32)

    return tensor


def _toy(env: KitParallelEnv) -> ToyState:
    state = env.flow.state
    assert isinstance(state, ToyState)  # the environment draws chance itself: a decided state is always there
    return state


def _env(players: int = 3) -> KitParallelEnv:
    return KitParallelEnv(GAME, ToyConfig(players, CARDS), players, ToyEncoder(), _tensor(players),
                          CARDS + players + 2 + 3 + players, "toyspiel_v0", render_mode="ansi")  # fmt: skip


def _random_joint(env: KitParallelEnv, observations: dict[str, Any], rng: np.random.Generator,
                  prefer: int | None = None) -> dict[str, int]:  # fmt: skip
    joint: dict[str, int] = {}
    for agent in env.agents:
        legal = np.flatnonzero(observations[agent]["action_mask"])
        joint[agent] = prefer if prefer is not None and prefer in legal else int(rng.choice(legal))
    return joint


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoos_parallel_api_test_passes(players: int) -> None:
    parallel_api_test(_env(players), num_cycles=100)


def test_a_seeded_reset_replays_the_same_game() -> None:
    def play(seed: int) -> list[Any]:
        env, rng = _env(), np.random.default_rng(0)
        observations, _ = env.reset(seed=seed)
        seen = []
        while env.agents:
            seen.append(observations["player_0"]["observation"].tolist())
            observations, *_ = env.step(_random_joint(env, observations, rng))
        return seen

    assert play(7) == play(7)
    assert any(play(7) != play(seed) for seed in range(8, 12))


def test_a_playout_ends_with_the_games_returns_and_waiting_seats_only_wait() -> None:
    env, rng = _env(), np.random.default_rng(1)
    observations, _ = env.reset(seed=1)
    rewards: dict[str, float] = {}
    while env.agents:
        awaited = env.flow.awaited
        for seat, agent in enumerate(env.agents):
            legal = np.flatnonzero(observations[agent]["action_mask"]).tolist()
            assert (legal == [NO_OP]) == (seat not in awaited)
        observations, rewards, terminations, *_ = env.step(_random_joint(env, observations, rng))
    assert list(rewards.values()) == list(GAME.returns(_toy(env))) and all(terminations.values())
    peeks = sum(isinstance(action, Peek) for _, joint in env.flow.past for _, action in joint)
    assert sum(rewards.values()) == 10 - peeks  # every prize scored, minus one per peek


def test_a_peeked_prize_is_in_the_peekers_observation_alone() -> None:
    env = _env()
    for seed in range(50):
        observations, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents and _toy(env).peeker is None:
            observations, *_ = env.step(_random_joint(env, observations, rng, prefer=PEEK))
        toy = _toy(env)
        if toy.peeker is not None:
            break
    else:
        raise AssertionError("no peek in 50 games")
    prize_slot = CARDS + 3
    for seat, agent in enumerate(env.possible_agents):
        expected = toy.prize if seat == toy.peeker else 0
        assert observations[agent]["observation"][prize_slot] == expected
    assert env.state()[prize_slot] == 0 and "prize=None" in (env.render() or "")


@pytest.mark.parametrize("bad", [1.0, True, "2", None])
def test_an_action_that_is_not_an_integer_is_a_typed_error(bad: object) -> None:
    env = _env(2)
    env.reset(seed=0)
    with pytest.raises(AdapterError, match="player_0 must be an integer"):
        env.step({"player_0": bad, "player_1": 1})


def test_an_illegal_or_missing_action_is_a_typed_error_and_changes_nothing() -> None:
    env = _env(2)
    env.reset(seed=0)
    before = env.flow
    with pytest.raises(AdapterError, match="not legal for player_1"):
        env.step({"player_0": 1, "player_1": KEEP})
    with pytest.raises(AdapterError, match="every agent"):
        env.step({"player_0": 1})
    assert env.flow == before
    env.step({"player_0": np.int64(1), "player_1": np.array(2)})  # numpy integers are integers
    assert env.flow.past[-1][1] != () and env.flow != before
