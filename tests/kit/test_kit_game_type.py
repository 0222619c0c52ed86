"""The kit's one ``pyspiel.GameType`` builder (:func:`tablekit.adapters.openspiel.game_type`): the shape both
games' OpenSpiel adapters and the kit's own registration share, and what each states of its own."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tablekit.adapters.openspiel import game_type  # noqa: E402

FIELDS = ("short_name", "long_name", "dynamics", "chance_mode", "information", "utility", "reward_model",
          "max_num_players", "min_num_players", "provides_information_state_string",
          "provides_information_state_tensor", "provides_observation_string", "provides_observation_tensor",
          "provides_factored_observation_string", "parameter_specification")


def fields(kind: Any) -> dict[str, Any]:
    return {name: getattr(kind, name) for name in FIELDS}


def test_the_shared_shape_and_its_defaults() -> None:
    kind = fields(game_type("toy", players=(2, 3), parameters={"players": 2}))
    assert kind == {
        "short_name": "toy", "long_name": "toy",
        "dynamics": pyspiel.GameType.Dynamics.SIMULTANEOUS,
        "chance_mode": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        "information": pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        "utility": pyspiel.GameType.Utility.GENERAL_SUM,
        "reward_model": pyspiel.GameType.RewardModel.TERMINAL,
        "max_num_players": 3, "min_num_players": 2,
        "provides_information_state_string": True, "provides_information_state_tensor": False,
        "provides_observation_string": True, "provides_observation_tensor": False,
        "provides_factored_observation_string": False, "parameter_specification": {"players": 2},
    }
    zero_sum = game_type("toy", players=(2, 2), parameters={}, utility=pyspiel.GameType.Utility.ZERO_SUM)
    assert zero_sum.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_each_games_type_states_what_is_its_own() -> None:
    from darkempire.adapters.openspiel import GAME_TYPE as DARK_EMPIRE
    from revolution.adapters.openspiel import GAME_TYPE as REVOLUTION

    shared = ("information", "utility", "reward_model", "provides_information_state_string",
              "provides_observation_string", "provides_observation_tensor")
    assert {n: fields(DARK_EMPIRE)[n] for n in shared} == {n: fields(REVOLUTION)[n] for n in shared}
    assert fields(REVOLUTION) == fields(game_type(
        "revolution_sjg", long_name="Revolution! (Steve Jackson Games)", players=(3, 4),
        parameters={"players": 4, "bid_refunds": False, "area_control_bonus": False, "max_rounds": 100},
        sequential=True, chance=False, information_state_tensor=True, observation_tensor=True))
    assert REVOLUTION.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert REVOLUTION.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert DARK_EMPIRE.provides_factored_observation_string and not DARK_EMPIRE.provides_information_state_tensor
    assert (DARK_EMPIRE.min_num_players, DARK_EMPIRE.max_num_players) == (3, 5)
