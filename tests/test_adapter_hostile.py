"""The adapters against hostile input (review fault 7, adapter parts; spec 9.2, 9.3).

* The PettingZoo environments refuse actions that are not integers (``1.9``, ``"5"``, ``True``) instead of
  rounding or parsing them through ``int()``; numpy integers stay accepted. Illegal and missing actions raise
  the project's typed errors. PettingZoo's shipped ``parallel_seed_test`` cannot run on the parallel
  environment (it samples unmasked actions): shown here, as the module docs say.
* The OpenSpiel adapter's ``deserialize_state`` reads its own JSON and never unpickles: a crafted string
  carrying a pickle that would create a file raises a typed error and creates nothing; malformed documents
  raise the serialization errors; the JSON round trip keeps the state, its history and its observations.

Each part is skipped when its extra is not installed.
"""

from __future__ import annotations

import base64
import json
import pickle
import random
from pathlib import Path
from typing import Any, cast

import pytest

from darkempire.rules.errors import DarkEmpireError, IllegalActionError, InvalidArgumentError, MissingChoiceError
from darkempire.serialization import (
    DEFAULT_MAX_SIZE,
    DocumentTooLargeError,
    DuplicateKeyError,
    FormatVersionError,
    InconsistentStateError,
    InvalidValueError,
    MalformedJSONError,
    MissingFieldError,
    SerializationError,
    TooManyItemsError,
    UnknownFieldError,
    WrongTypeError,
)

# --------------------------------------------------------------------------- PettingZoo: integer actions

NOT_INTEGERS: tuple[object, ...] = (1.9, 1.0, "5", True, None, [5], b"5", complex(5))


def _pettingzoo() -> Any:
    pytest.importorskip("pettingzoo")
    from darkempire.adapters import pettingzoo

    return pettingzoo


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
def test_parallel_env_refuses_actions_that_are_not_integers(action: object) -> None:
    pz = _pettingzoo()
    np = pytest.importorskip("numpy")
    penv = pz.parallel_env(players=3)
    observations, _ = penv.reset(seed=0)
    legal = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in penv.agents}
    state = penv.state_now
    with pytest.raises(InvalidArgumentError, match="player_0 must be an integer"):
        penv.step({**legal, "player_0": action})
    assert penv.state_now is state  # nothing applied


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
def test_aec_env_refuses_actions_that_are_not_integers(action: object) -> None:
    pz = _pettingzoo()
    aec = pz.raw_env(players=3)
    aec.reset(seed=0)
    state = aec.seen
    with pytest.raises(InvalidArgumentError, match="must be an integer"):
        aec.step(action)
    assert aec.seen is state and aec.agent_selection == "player_0"


@pytest.mark.spec("9.2")
def test_numpy_integers_are_integers() -> None:
    """``action_space.sample()`` gives numpy integers; they (and 0-d integer arrays) are accepted as they are."""
    pz = _pettingzoo()
    np = pytest.importorskip("numpy")
    penv = pz.parallel_env(players=3)
    observations, _ = penv.reset(seed=0)
    kinds = (np.int64, np.int32, np.uint16, lambda i: np.array(i, dtype=np.int64))
    actions = {a: kind(int(np.flatnonzero(observations[a]["action_mask"])[0]))
               for a, kind in zip(penv.agents, kinds, strict=False)}  # fmt: skip
    penv.step(actions)
    assert all(penv.state_now.pending[s] is None for s in range(3))  # the step resolved
    aec = pz.raw_env(players=3)
    aec.reset(seed=0)
    observation = aec.observe("player_0")
    aec.step(np.int16(np.flatnonzero(observation["action_mask"])[0]))
    assert aec.agent_selection == "player_1"
    assert pz.action_index("player_0", np.int64(7)) == 7 and pz.action_index("player_0", np.array(7)) == 7
    with pytest.raises(InvalidArgumentError):
        pz.action_index("player_0", np.float64(7.0))
    with pytest.raises(InvalidArgumentError):
        pz.action_index("player_0", np.array([7]))


@pytest.mark.spec("9.2")
def test_illegal_and_missing_actions_raise_typed_errors() -> None:
    pz = _pettingzoo()
    penv = pz.parallel_env(players=3)
    penv.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal for player_0"):
        penv.step({a: 0 for a in penv.agents})
    with pytest.raises(MissingChoiceError, match="no action for player_2"):
        penv.step({"player_0": 0, "player_1": 0})
    aec = pz.raw_env(players=3)
    aec.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal for player_0"):
        aec.step(6856)


@pytest.mark.spec("9.2", "9.3")
def test_pettingzoos_parallel_seed_test_cannot_run_on_the_env() -> None:
    """PettingZoo's ``parallel_seed_test`` samples actions without the mask: the first step is illegal.
    The module docs say so; tests/test_adapters_pettingzoo.py runs ``seed_test`` on both forms instead."""
    pz = _pettingzoo()
    from pettingzoo.test import parallel_seed_test

    with pytest.raises(IllegalActionError, match=r"action \d+ is not legal"):
        parallel_seed_test(lambda: pz.parallel_env(players=3))
    assert "parallel_seed_test" in (pz.__doc__ or "") and "seed_test" in (pz.__doc__ or "")


# --------------------------------------------------------------------------- OpenSpiel: no unpickling


def _openspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from darkempire.adapters import openspiel

    return pyspiel, openspiel


def _played(game: Any, seed: int, joint_actions: int) -> Any:
    """A state after random play: ``joint_actions`` decisions (and every chance node before them)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal() and (state.is_chance_node() or done < joint_actions):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            done += 1
    return state


class _CreatesAFile:
    """Unpickling this creates the file: the payload of a crafted serialized state."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (open, (str(self.path), "w"))


def _crafted(path: Path) -> list[str]:
    payload = pickle.dumps({"_flow": _CreatesAFile(path)})
    b64 = base64.b64encode(payload).decode("ascii")
    return [
        f"history=\nmove_number=0\n__dict__={b64}",  # OpenSpiel's own form for Python games
        b64,
        payload.decode("latin-1"),
        json.dumps({"format": "darkempire-openspiel/2", "players": 3, "history": [], "flow": b64}),
        json.dumps({"format": "darkempire-openspiel/2", "players": 3, "history": [], "flow": {"pickle": b64}}),
    ]


@pytest.mark.spec("9.3")
def test_deserialize_state_never_unpickles(tmp_path: Path) -> None:
    """A crafted string whose unpickling would create a file raises a typed error and creates nothing."""
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("dark_empire_revolution(players=3)")
    target = tmp_path / "pwned"
    pickle.loads(pickle.dumps(_CreatesAFile(target))).close()  # the payload works when unpickled...
    assert target.exists()
    target.unlink()
    for text in _crafted(target):
        with pytest.raises(SerializationError):
            game.deserialize_state(text)
        assert not target.exists(), f"unpickled: {text[:40]!r}"


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("joint_actions", [0, 1, 7, 40, 10_000])
def test_the_json_round_trip_keeps_state_history_and_observations(joint_actions: int) -> None:
    pyspiel, adapter = _openspiel()
    game = pyspiel.load_game("dark_empire_revolution(players=3)")
    state = _played(game, seed=joint_actions, joint_actions=joint_actions)
    text = state.serialize()
    document = json.loads(text)
    assert document["format"] == adapter.STATE_FORMAT and document["history"] == state.history()
    assert document["flow"]["state"] is None or document["flow"]["state"]["format"] == "darkempire/1"
    loaded = game.deserialize_state(text)
    assert isinstance(loaded, adapter.DarkEmpireState)
    assert str(loaded) == str(state) and loaded.history() == state.history()
    assert loaded.serialize() == text
    for seat in range(3):
        assert loaded.information_state_string(seat) == state.information_state_string(seat)
        assert loaded.observation_string(seat) == state.observation_string(seat)
        assert loaded.observation_tensor(seat) == state.observation_tensor(seat)


@pytest.mark.spec("9.3")
def test_malformed_documents_raise_typed_errors() -> None:
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("dark_empire_revolution(players=3)")
    state = _played(game, seed=1, joint_actions=3)
    good = json.loads(state.serialize())
    history = good["history"]
    earlier = json.loads(_played(game, seed=1, joint_actions=2).serialize())["history"]
    assert history[: len(earlier)] == earlier
    cases: list[tuple[object, type[SerializationError], str]] = [
        ("", MalformedJSONError, ""),
        ("{", MalformedJSONError, ""),
        ('{"format": NaN}', MalformedJSONError, ""),
        (b"{}", MalformedJSONError, ""),
        ("[1, 2]", WrongTypeError, ""),
        ({**good, "format": "darkempire/1"}, FormatVersionError, "format"),
        ({k: v for k, v in good.items() if k != "flow"}, MissingFieldError, "flow"),
        ({**good, "extra": 1}, UnknownFieldError, "extra"),
        ({**good, "players": 4}, InvalidValueError, "players"),
        ({**good, "history": "1,2"}, WrongTypeError, "history"),
        ({**good, "history": [*history[:-1], 6856]}, InvalidValueError, f"history[{len(history) - 1}]"),
        ({**good, "history": [*history[:5], 1.5]}, InvalidValueError, "history[5]"),
        ({**good, "history": [*history[:5], True]}, InvalidValueError, "history[5]"),
        ({**good, "history": [*history, state.legal_actions(0)[0]]}, InvalidValueError, "history"),
        ({**good, "history": earlier}, InconsistentStateError, "flow"),
        ({**good, "flow": {**good["flow"], "trail": [["forged"]] * 3}}, InconsistentStateError, "flow"),
        ('{"format": "a", "format": "b"}', DuplicateKeyError, "format"),
        (" " * (DEFAULT_MAX_SIZE + 1), DocumentTooLargeError, ""),
        ({**good, "history": [0] * 200_000}, TooManyItemsError, "history"),
    ]
    for value, error, path in cases:
        text = value if isinstance(value, (str, bytes)) else json.dumps(value)
        with pytest.raises(error) as caught:
            game.deserialize_state(text)
        assert isinstance(caught.value, DarkEmpireError) and caught.value.path == path, (value, caught.value)
    with pytest.raises(FormatVersionError) as caught:
        game.deserialize_state(json.dumps({**good, "format": "x" * 100_000}))
    assert len(str(caught.value)) < 200, "an error quotes a huge value cut short"


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("huge", [10**5000, 10**4000, -(10**4000), 2**64], ids=["5000 digits", "4000 digits", "negative", "2**64"])
def test_huge_integer_actions_are_typed_errors_with_short_messages(huge: int) -> None:
    """A 5000-digit int cannot even be printed by Python: the message names its bit length instead."""
    from darkempire.adapters.pettingzoo import parallel_env, raw_env

    aec = raw_env(3)
    aec.reset(seed=1)
    with pytest.raises(IllegalActionError) as caught:
        aec.step(huge)
    assert len(str(caught.value)) < 200 and "bits" in str(caught.value)
    parallel = parallel_env(3)
    parallel.reset(seed=1)
    with pytest.raises(IllegalActionError):
        parallel.step({agent: huge for agent in parallel.agents})


@pytest.mark.spec("9.1")
def test_a_parallel_step_without_a_mapping_is_a_typed_error() -> None:
    from darkempire.adapters.pettingzoo import parallel_env

    parallel = parallel_env(3)
    parallel.reset(seed=1)
    with pytest.raises(InvalidArgumentError, match="mapping of agents"):
        parallel.step(cast(Any, None))
