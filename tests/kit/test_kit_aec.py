"""The kit's PettingZoo hooks, proved on Toyspiel: the AEC base over the parallel one (PettingZoo's own
``api_test`` and ``seed_test``), a game's own errors and legal lists, and the sampled chance."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from kit.test_kit_openspiel import KEEP  # noqa: E402
from kit.test_kit_pettingzoo import CARDS, _env, _toy  # noqa: E402
from kit.toy import GAME, Phase  # noqa: E402
from tablekit.adapters.flow import NO_OP, AdapterError  # noqa: E402
from tablekit.adapters.pettingzoo import KitAECEnv, KitParallelEnv, action_integer  # noqa: E402


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoos_api_test_and_seed_test_pass_on_the_aec_base(players: int) -> None:
    api_test(KitAECEnv(_env(players)), num_cycles=200)
    seed_test(lambda: KitAECEnv(_env(players)), num_cycles=100)


def test_only_the_awaited_seats_are_selected_in_seat_order_and_the_last_resolves_the_step() -> None:
    aec = KitAECEnv(_env(3))
    aec.reset(seed=2)
    assert aec.agent_selection == "player_0"
    for agent, bid in (("player_0", 4), ("player_1", 1)):
        aec.step(bid)
        assert aec.pending and aec.parallel.flow.past == ()  # nothing resolved yet
    aec.step(2)  # seat 2's bid resolves the bid: seat 0 won and alone claims
    assert aec.pending == {} and _toy(aec.parallel).phase is Phase.CLAIM
    assert aec.agent_selection == "player_0"
    aec.step(KEEP)
    assert _toy(aec.parallel).phase is Phase.BID and aec.agent_selection == "player_0"


def test_a_bad_action_in_the_aec_base_is_the_parallel_envs_error_and_changes_nothing() -> None:
    aec = KitAECEnv(_env(2))
    aec.reset(seed=0)
    with pytest.raises(AdapterError, match="player_0 must be an integer"):
        aec.step(1.0)
    with pytest.raises(AdapterError, match="not legal for player_0"):
        aec.step(KEEP)
    with pytest.raises(AdapterError, match="not legal for player_0"):
        aec.step(NO_OP)  # an awaited seat does not wait
    assert aec.pending == {} and aec.agent_selection == "player_0"


class _GameError(Exception):
    """A game's own error, carrying the kind the kit named."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


class _OwnErrors(KitParallelEnv):
    """A game's parallel environment with its own errors and its own (counted) legal lists."""

    listed = 0

    def error(self, kind: str, message: str) -> Exception:
        return _GameError(kind, message)

    def legal(self, seat: int) -> list[int]:
        type(self).listed += 1
        return super().legal(seat)


def _own(players: int = 2) -> _OwnErrors:
    base = _env(players)
    return _OwnErrors(GAME, base._config, players, base._encoder, base._tensor, CARDS + players + 2 + 3 + players,
                      "toyspiel_v0")  # fmt: skip


@pytest.mark.parametrize(
    ("actions", "kind"),
    [
        pytest.param([("player_0", 1)], "mapping", id="no-mapping"),
        pytest.param({"player_0": 1}, "missing", id="missing"),
        pytest.param({"player_0": "1", "player_1": 1}, "integer", id="no-integer"),
        pytest.param({"player_0": 10**5000, "player_1": 1}, "illegal", id="huge"),
        pytest.param({"player_0": 1, "player_1": KEEP}, "illegal", id="illegal"),
    ],
)
def test_a_games_error_hook_names_what_is_wrong_and_nothing_is_applied(actions: Any, kind: str) -> None:
    env = _own()
    env.reset(seed=0)
    before = env.flow
    with pytest.raises(_GameError) as caught:
        env.step(actions)
    assert caught.value.kind == kind and env.flow == before


def test_the_legal_hook_makes_both_the_masks_and_the_checks() -> None:
    env = _own()
    _OwnErrors.listed = 0
    observations, _ = env.reset(seed=0)
    assert _OwnErrors.listed == 2  # one mask per agent
    env.step({a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents})
    assert _OwnErrors.listed == 2 + 2 + 2  # each action checked, then the next masks


def test_an_action_integer_is_an_int_or_a_numpy_integer_and_nothing_else() -> None:
    assert action_integer("a", np.int16(3)) == 3 and action_integer("a", np.array(4)) == 4
    for bad in (True, 1.0, "1", np.array([1]), np.float64(1)):
        with pytest.raises(AdapterError, match="a must be an integer"):
            action_integer("a", bad)


def test_the_environment_draws_a_steps_chance_through_seeded_sources_and_replays_by_seed() -> None:
    def prizes(seed: int) -> list[int | None]:
        env, seen = _env(2), []
        observations, _ = env.reset(seed=seed)
        while env.agents:
            seen.append(_toy(env).prize)
            observations, *_ = env.step({a: int(np.flatnonzero(observations[a]["action_mask"])[-1])
                                         for a in env.agents})  # fmt: skip
        return seen

    assert prizes(3) == prizes(3)
    assert len({tuple(prizes(seed)) for seed in range(10)}) > 1
