"""The hooks a second game needs from the kit's adapter bases, proved on Toyspiel (not on Dark Empire).

* :func:`tablekit.adapters.openspiel.replay_history`: the one loop that replays a history of integers (every
  ``deserialize_state``, and a turn-based history with a joint action half chosen).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from kit.test_kit_openspiel import KEEP  # noqa: E402  # registers toyspiel
from tablekit.adapters.flow import NO_OP  # noqa: E402
from tablekit.adapters.openspiel import replay_history  # noqa: E402


class _Refused(Exception):
    """The error a caller asks for, carrying where the history broke."""

    def __init__(self, at: int, action: object) -> None:
        super().__init__(at, action)
        self.at, self.action = at, action


def _history(players: int, seed: int) -> list[int]:
    state, rng = pyspiel.load_game(f"toyspiel(players={players})").new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_actions([rng.choice(state.legal_actions(seat)) for seat in range(players)])
    return list(state.history())


@pytest.mark.parametrize("seed", range(5))
def test_a_history_replays_to_the_same_state_and_a_cut_one_gives_its_half_chosen_joint_action(seed: int) -> None:
    game = pyspiel.load_game("toyspiel(players=3)")
    history = _history(3, seed)
    whole = game.new_initial_state()
    assert replay_history(whole, history, _Refused) == [] and whole.is_terminal()
    assert whole.history() == history and whole.returns() == game.deserialize_state(whole.serialize()).returns()
    # The first decision's joint action, cut after one seat: that seat's action is handed back.
    first = next(at for at in range(len(history)) if not _prefix_is_chance(game, history[:at]))
    cut = game.new_initial_state()
    assert replay_history(cut, history[: first + 1], _Refused) == [history[first]]
    assert cut.history() == history[:first]  # nothing of the half-chosen joint action is applied


def _prefix_is_chance(game: Any, prefix: list[int]) -> bool:
    state = game.new_initial_state()
    replay_history(state, prefix, _Refused)
    return bool(state.is_chance_node())


def test_a_tail_of_chosen_actions_is_carried_on_into_the_joint_action() -> None:
    game = pyspiel.load_game("toyspiel(players=3)")
    state = game.new_initial_state()
    replay_history(state, [0], _Refused)  # the first prize
    assert replay_history(state, [2], _Refused, buffered=[4]) == [4, 2]
    assert replay_history(state, [3], _Refused, buffered=[4, 2]) == []
    assert state.history() == [0, 4, 2, 3]  # seat 0 won the bid with 4 and alone claims
    assert [state.legal_actions(seat) for seat in range(3)] == [[KEEP, KEEP + 1], [NO_OP], [NO_OP]]


@pytest.mark.parametrize("bad", [True, 1.0, "1", 7, -1, None])
def test_an_action_that_is_not_a_legal_integer_is_refused_with_the_callers_error_naming_where(bad: object) -> None:
    state = pyspiel.load_game("toyspiel(players=3)").new_initial_state()
    with pytest.raises(_Refused) as caught:
        replay_history(state, [0, 1, bad], _Refused)
    assert (caught.value.at, caught.value.action) == (2, bad)
    assert state.history() == [0]  # the joint action with the bad integer was not applied
