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
from darkempire.rules.engine import apply, legal_actions
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import PlayerView, player_view
from darkempire.search.bot import SearchBot
from darkempire.search.plans import PLANS
from test_cli_commands_newcomer import hiding

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
    return SearchBot(seed, worlds=2, playouts=24, plan_worlds=1)


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
    first = SearchBot(8, worlds=4).choose(view, legal)
    second = SearchBot(8, worlds=4).choose(player_view(swapped, 0), legal_actions(swapped, 0))
    assert first == second


@pytest.mark.spec("9.4")
def test_the_others_pending_choices_do_not_change_the_choice() -> None:
    """Seat 2 decides after seats 0 and 1 chose: their hidden choices, different in a twin state with the same
    view, are made again in each world by the model, never read."""
    for seed in range(20):
        state = _decision_with_choice(seed)
        for seat in (0, 1):
            state = apply(state, seat, legal_actions(state, seat)[0])
        legal_1 = legal_actions(attrs.evolve(state, pending=(state.pending[0], None, *state.pending[2:])), 1)
        if len(legal_1) < 2:
            continue
        twin = attrs.evolve(state, pending=(state.pending[0], legal_1[-1], *state.pending[2:]))
        assert twin.pending != state.pending and player_view(twin, 2) == player_view(state, 2)
        legal = legal_actions(state, 2)
        first = SearchBot(3, worlds=3).choose(player_view(state, 2), legal)
        second = SearchBot(3, worlds=3).choose(player_view(twin, 2), legal_actions(twin, 2))
        assert first == second
        return
    pytest.fail("no decision with two choices for seat 1")


@pytest.mark.parametrize(
    "options", [{"worlds": 0}, {"playouts": 0}, {"plan_worlds": 0}, {"milliseconds": 0.0}, {"milliseconds": -5.0},
                {"switch": -1.0}, {"milliseconds": float("nan")}]
)
def test_a_bad_budget_is_refused(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="world|budget|switch"):
        SearchBot(0, **options)  # type: ignore[arg-type]


@pytest.mark.spec("9.2")
def test_a_time_budget_plays_legal_actions() -> None:
    """With ``milliseconds`` the bot searches by CPU time (at least one world) and still plays legal moves."""
    checked = Checked(SearchBot(2, milliseconds=5))
    run_game(GameConfig(players=4), 6, [GreedyBot(0), checked, GreedyBot(2), GreedyBot(3)])
    assert len(checked.choices) > 30
    assert checked.bot.plan in PLANS


@pytest.mark.spec("9.3")
def test_the_tally_of_the_plans_is_a_paired_z_score() -> None:
    """The plan switches on the mean paired difference in standard errors, 0 until it can be told."""
    from darkempire.search.bot import _Tally

    tally = _Tally()
    assert tally.z() == 0.0
    for difference in (1.0, 0.0, 1.0, 1.0):
        tally.add(difference)
    # mean 0.75, sample variance 0.25, standard error 0.25: three standard errors
    assert tally.z() == pytest.approx(3.0)
    same = _Tally()
    for _ in range(5):
        same.add(0.5)
    assert same.z() == 0.0  # no spread: nothing to tell the plans apart by


def test_ismcts_is_a_bot_kind() -> None:
    assert "ismcts" in BOT_KINDS
    assert isinstance(make_bot("ismcts", 3), SearchBot)


#: What a plain ``pip install -e .`` lacks: every extra's libraries (pyproject.toml).
EXTRAS_ONLY = ("numpy", "matplotlib", "openskill", "dask", "distributed", "starlette", "uvicorn", "websockets",
               "httpx", "psycopg", "playwright", "pyspiel", "pettingzoo", "gymnasium")  # fmt: skip


def test_a_short_game_through_the_cli_on_a_plain_install(tmp_path: Path) -> None:
    """The search bot is the default of a small ``simulate`` and a ``--bots`` choice of ``demo``: both must run on
    the README's install, which has no extra (it once drew its worlds through the adapters, which need numpy)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hiding(tmp_path, *EXTRAS_ONLY)), str(SRC)])}
    simulate = ["simulate", "--games", "1", "--players", "3", "--bots", "ismcts,greedy,random", "--json"]
    demo = ["demo", "--players", "3", "--seed", "2", "--bots", "ismcts"]
    runs = [subprocess.run([sys.executable, "-m", "darkempire", *argv], capture_output=True, text=True, env=env,
                           timeout=600, check=False) for argv in (simulate, demo)]  # fmt: skip
    assert [run.returncode for run in runs] == [0, 0], [run.stderr[-2000:] for run in runs]
    report = json.loads(runs[0].stdout)
    assert report["games"] == 1 and report["bots"] == ["ismcts", "greedy", "random"]
    assert report["seats"][0]["bot"] == "ismcts" and report["seats"][0]["played"] == 1
    assert "Reason: " in runs[1].stdout and "Winner" in runs[1].stdout.splitlines()[-1]
