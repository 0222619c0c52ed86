"""GreedyBot on the kernel (:mod:`darkempire.kernel.greedy`) makes GreedyBot's very choices.

Decision by decision, :func:`~darkempire.kernel.greedy.greedy_index` with a generator in the state of a
GreedyBot's own returns the index of the action the bot returns from its view, and draws the same numbers; so
a game played on the kernel by :class:`~darkempire.kernel.greedy.GreedySeat` seats is the game
:func:`~darkempire.bots.run_game` plays with GreedyBots. The forecast that decides between rising and sinking
is held to :func:`~darkempire.bots.expects_emperor_victory` at every decision, in games where it flips.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from darkempire.bots import Bot, GreedyBot, RandomBot, expects_emperor_victory, iter_game, run_game
from darkempire.kernel import encoding as enc
from darkempire.kernel import steps
from darkempire.kernel.greedy import Forecast, GreedySeat, choose_for, greedy_index, play_greedy, sinking
from darkempire.kernel.interface import Kernel, deal
from darkempire.kernel.playout import play_bots
from darkempire.rules.actions import PlayCard, Side
from darkempire.rules.engine import legal_actions
from darkempire.rules.state import GameConfig, GameState
from darkempire.rules.views import player_view


def _table(players: int, seed: int, mask: int) -> list[Bot]:
    """Greedy seats where ``mask`` has a bit, random ones elsewhere, each seeded as in the tests below."""
    return [GreedyBot(100 * seed + s) if mask >> s & 1 else RandomBot(100 * seed + s) for s in range(players)]


def _decisions(players: int, seed: int, mask: int) -> Iterator[tuple[GameState, int]]:
    """Every decision of a seeded game between greedy and random seats: the state and the seat."""
    for turn in iter_game(GameConfig(players=players), seed, _table(players, seed, mask)):
        yield turn.before, turn.seat


@pytest.mark.spec("9.3", "9.4")
@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from((3, 4, 5)), seed=st.integers(0, 2**32), mask=st.integers(0, 31), draw=st.integers(0, 2**32))
def test_each_choice_is_greedybots_with_the_same_draws(players: int, seed: int, mask: int, draw: int) -> None:
    """At every decision of a game the kernel's index names GreedyBot's action, and both generators end alike."""
    for state, seat in _decisions(players, seed, mask | 1):
        legal = legal_actions(state, seat)
        bot = GreedyBot()
        bot._rng.seed(draw + seat)
        mine = random.Random(draw + seat)
        expected = legal.index(bot.choose(player_view(state, seat), legal))
        assert greedy_index(Kernel.from_state(state), seat, mine) == expected
        assert mine.getstate() == bot._rng.getstate()


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", (3, 4, 5))
def test_games_of_greedy_seats_on_the_kernel_are_run_games(players: int) -> None:
    """Whole games, greedy and random seats mixed: play_bots with GreedySeats, play_greedy and run_game's
    kernel path finish the state run_game reaches on the reference engine."""
    for seed in range(8):
        for mask in (2**players - 1, 0b01011, 0b10101):
            config = GameConfig(players=players)
            expected = run_game(config, seed, _table(players, seed, mask))
            seats = [GreedySeat(random.Random(100 * seed + s)) if mask >> s & 1 else random.Random(100 * seed + s)
                     for s in range(players)]
            k = deal(config, seed)
            play_bots(k, seats)
            assert k.snapshot() == expected
            assert run_game(config, seed, _table(players, seed, mask), engine="kernel") == expected
            if mask == 2**players - 1:
                k = deal(config, seed)
                play_greedy(k, [random.Random(100 * seed + s) for s in range(players)])
                assert k.snapshot() == expected


@pytest.mark.spec("9.4")
def test_the_forecast_is_expects_emperor_victory_and_flips() -> None:
    """sinking() agrees with the bot's own forecast at every decision, for the deciding seat; random seats'
    traitor cards make it say True, so both answers are checked."""
    answers = set()
    for seed in range(6):
        forecast = Forecast(4)
        for state, seat in _decisions(4, seed, 0b0101):
            k = Kernel.from_state(state)
            forecast.update(k)
            expected = expects_emperor_victory(player_view(state, seat))
            assert sinking(k, seat, forecast) is expected
            answers.add(expected)
    assert answers == {True, False}


@pytest.mark.spec("8.2")
def test_a_forced_mode_is_played_whatever_the_forecast() -> None:
    """sink=True plays a traitor card at the first play step whenever it may (its most wanted play); sink=False
    never makes its victor faction's card a traitor card."""
    config = GameConfig(players=4)
    for seed in range(10):
        k = deal(config, seed)
        play_greedy_to_play_step(k, seed)
        for seat in k.awaiting:
            sunk = k.action(seat, greedy_index(k, seat, random.Random(seed), sink=True))
            risen = k.action(seat, greedy_index(k, seat, random.Random(seed), sink=False))
            assert isinstance(sunk, PlayCard) and sunk.side is Side.EMPEROR
            victor = k.victors[seat]
            assert not (isinstance(risen, PlayCard) and risen.side is Side.EMPEROR and risen.card.faction == victor)


def play_greedy_to_play_step(k: Kernel, seed: int) -> None:
    """Play greedy seats until a first play step with an emperor card, every seat free to play a traitor card."""
    rngs = [random.Random(seed + s) for s in range(k.n)]
    forecast = Forecast(k.n)
    while not (k.phase == enc.PLAY_1 and k.table_emperor >= 0):
        choose_for(k, k.awaiting, rngs, forecast)
        k.awaiting = []
        steps.resolve(k)


@pytest.mark.spec("9.2")
def test_choose_for_is_greedy_index_seat_by_seat() -> None:
    """Choosing for several seats at once (the table read once) gives each seat greedy_index's choice."""
    for seed in range(10):
        k = deal(GameConfig(players=5), seed)
        play_greedy_to_play_step(k, seed)
        for seat in list(k.awaiting):  # to the second play step: reinforcement targets on the table
            k.apply_index(seat, 0)
        one = k.copy()
        choose_for(one, one.awaiting, [random.Random(s) for s in range(5)], Forecast(5))
        each = [greedy_index(k, s, random.Random(s)) if s in k.awaiting else -1 for s in range(5)]
        assert [one.pending[s] if s in k.awaiting else -1 for s in range(5)] == each


@pytest.mark.spec("9.3")
def test_a_copy_at_placement_keeps_its_own_week_record() -> None:
    """Kernel.copy shares the finished weeks' records but not the one placement is about to change."""
    for seed in range(40):
        k = deal(GameConfig(players=4), seed)
        rngs = [random.Random(seed + s) for s in range(4)]
        forecast = Forecast(4)
        while k.phase not in (enc.PLACEMENT, enc.GAME_OVER):
            choose_for(k, k.awaiting, rngs, forecast)
            k.awaiting = []
            steps.resolve(k)
        if k.phase != enc.PLACEMENT:
            continue
        before = k.snapshot()
        other = k.copy()
        play_greedy(other, rngs)
        assert k.snapshot() == before
        assert k.history[-1].placed == () and other.history[-1] is not k.history[-1]
        return
    pytest.fail("no game of forty reached a placement")
