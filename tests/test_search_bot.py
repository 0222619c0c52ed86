"""SearchBot plays legal actions, deterministically, from its view alone (issue 15, parts 1 and 3; spec 9.4).

Its strength is measured by ``benchmarks/strength.py`` (``nox -s strength``), not here: no timed tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs
import pytest

from darkempire.bots import BOT_KINDS, GreedyBot, RandomBot, iter_game, make_bot, run_game
from darkempire.rules.actions import Action
from darkempire.rules.engine import legal_actions
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import PlayerView, player_view
from darkempire.search.bot import SearchBot

SRC = Path(__file__).resolve().parents[1] / "src"


class Checked:
    """Asserts that the wrapped bot returns one of the legal actions, and records its choices."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.choices: list[Action] = []

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        assert action in legal
        self.choices.append(action)
        return action


def _small(seed: int) -> SearchBot:
    return SearchBot(seed, iterations=8, worlds=2, candidates=4)


@pytest.mark.spec("9.2")
def test_a_whole_game_of_legal_actions() -> None:
    checked = Checked(_small(1))
    state = run_game(GameConfig(players=3), 11, [checked, GreedyBot(2), RandomBot(3)])
    assert state.verdict is not None
    assert len(checked.choices) > 30  # it was asked all game long


@pytest.mark.spec("9.3")
def test_the_same_seed_and_budget_give_the_same_game() -> None:
    games = []
    for _ in range(2):
        checked = Checked(_small(5))
        games.append((run_game(GameConfig(players=3), 3, [GreedyBot(1), checked, GreedyBot(2)]), checked.choices))
    assert games[0] == games[1]


def _decision_with_choice(seed: int) -> GameState:
    """A play-step state of a 4-player greedy game where seat 0 has several legal actions."""
    state = None
    for turn in iter_game(GameConfig(players=4), seed, [GreedyBot(s) for s in range(4)]):
        if turn.seat == 0 and turn.before.phase.name == "PLAY_2" and len(legal_actions(turn.before, 0)) > 3:
            state = turn.before
            break
    assert state is not None
    return state


@pytest.mark.spec("9.4")
def test_other_seats_hidden_cards_do_not_change_the_choice() -> None:
    state = _decision_with_choice(4)
    # Another world with the same view for seat 0: seat 1's hand swapped with the top of the draw pile,
    # seats 1 and 2's victor factions exchanged.
    hand, draw = state.hands[1], state.draw_pile
    swapped = attrs.evolve(
        state,
        hands=(state.hands[0], tuple(sorted(draw[: len(hand)], key=lambda c: c.id)), *state.hands[2:]),
        draw_pile=hand + draw[len(hand) :],
        victors=(state.victors[0], state.victors[2], state.victors[1], *state.victors[3:]),
    )
    view = player_view(state, 0)
    assert player_view(swapped, 0) == view and swapped.hands[1] != state.hands[1]
    legal = legal_actions(state, 0)
    assert legal_actions(swapped, 0) == legal
    first = SearchBot(8, iterations=30, worlds=3).choose(view, legal)
    second = SearchBot(8, iterations=30, worlds=3).choose(player_view(swapped, 0), legal_actions(swapped, 0))
    assert first == second


def test_a_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="iteration"):
        SearchBot(0, iterations=0)


def test_ismcts_is_a_bot_kind() -> None:
    assert "ismcts" in BOT_KINDS
    assert isinstance(make_bot("ismcts", 3), SearchBot)


def test_a_short_game_through_the_cli() -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    result = subprocess.run(
        [sys.executable, "-m", "darkempire", "simulate", "--games", "1", "--players", "3", "--bots", "ismcts,greedy,random", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 1 and report["bots"] == ["ismcts", "greedy", "random"]
    assert report["seats"][0]["bot"] == "ismcts" and report["seats"][0]["played"] == 1
