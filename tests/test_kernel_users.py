"""The programs that play many games play them on the playout kernel, and play the same games as before.

``darkempire simulate`` (:func:`darkempire.simulation.simulate`) plays its games on the kernel whenever a
seat is random (:func:`darkempire.kernel.playout.play_bots`); ``engine="reference"`` forces the reference
engine's :func:`darkempire.bots.run_game`. Both must give every game the same result, and the command the
same output. :func:`~darkempire.kernel.playout.play_bots` itself must finish the very game ``run_game``
plays with the same bots, whatever mix of random and other bots sits at the table.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from darkempire.bots import Bot, GreedyBot, RandomBot, iter_game, run_game
from darkempire.cli import main
from darkempire.kernel import deal
from darkempire.kernel.playout import play_bots
from darkempire.rules.actions import Action, ChooseSupport
from darkempire.rules.cards import Faction
from darkempire.rules.errors import IllegalActionError, InvalidArgumentError
from darkempire.rules.state import GameConfig
from darkempire.rules.views import PlayerView
from darkempire.simulation import play_game, simulate

#: Bot mixes per seat pattern: every seat random, one greedy seat, greedy and random alternating, all greedy.
MIXES = ("random", "greedy,random", "random,greedy", "greedy")


def kinds(mix: str, players: int) -> list[str]:
    """The seats' bot kinds: ``mix``'s kinds repeated round the table."""
    pattern = mix.split(",")
    return [pattern[s % len(pattern)] for s in range(players)]


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", (3, 4, 5))
@pytest.mark.parametrize("mix", MIXES)
def test_simulate_gives_every_game_the_same_result_on_either_engine(players: int, mix: str) -> None:
    """Game for game, the kernel's results are the reference's: verdict, winners, totals and tokens."""
    bots = kinds(mix, players)
    games = 6 if "greedy" in mix else 25
    for run_seed in (1, 2):
        reference = simulate(players, games, run_seed, bots, engine="reference")
        kernel = simulate(players, games, run_seed, bots, engine="kernel")
        assert kernel.results == reference.results
        assert kernel.to_json() == reference.to_json()
        assert simulate(players, games, run_seed, bots).results == reference.results  # "auto", the default


@pytest.mark.spec("9.3")
def test_play_game_on_either_engine_is_the_game_run_game_plays() -> None:
    """One game, seeded as ``darkempire demo`` seeds it, gives the same result on both engines."""
    for seed in (0, 7, 2**62 + 5):
        bots = ["greedy", "random", "random", "greedy"]
        players: list[Bot] = [GreedyBot(10 * seed), RandomBot(10 * seed + 1), RandomBot(10 * seed + 2)]
        players.append(GreedyBot(10 * seed + 3))
        final = run_game(GameConfig(4), seed, players)
        result = play_game(4, seed, bots, engine="kernel")
        assert result == play_game(4, seed, bots, engine="reference")
        assert final.verdict is not None
        assert (result.winners, result.tokens) == (tuple(sorted(final.verdict.winners)), final.banked_tokens)


@pytest.mark.spec("9.3")
def test_the_command_prints_the_same_json_on_either_engine(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for engine in ("reference", "kernel", "auto"):
        options = ["--players", "5", "--games", "30", "--seed", "3", "--bots", "random", "--json"]
        assert main(["simulate", *options, "--engine", engine]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        simulate(3, 1, 1, ["random"], engine="fast")
    with pytest.raises(ValueError, match="unknown engine"):
        play_game(3, 1, ["random"] * 3, engine="")


class Spy:
    """A bot that records what it was shown and answers as its greedy bot does."""

    def __init__(self, seed: int) -> None:
        self.inner = GreedyBot(seed)
        self.seen: list[tuple[PlayerView, tuple[Action, ...]]] = []

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.seen.append((view, tuple(legal)))
        return self.inner.choose(view, legal)


@pytest.mark.spec("9.3", "9.4")
@pytest.mark.parametrize("players", (3, 4, 5))
def test_play_bots_finishes_run_games_game_and_shows_each_bot_the_same_views(players: int) -> None:
    """With random seats as generators and the rest as bots, the finished kernel is ``run_game``'s
    finished state, every bot saw the views and listings it sees in the reference game, and each random
    seat's generator ends where its RandomBot's does."""
    config = GameConfig(players)
    for seed in range(4):
        spied = [Spy(10 * seed + s) if s % 2 == 0 else RandomBot(10 * seed + s) for s in range(players)]
        turns = list(iter_game(config, seed, spied))
        final = turns[-1].after
        spies = [Spy(10 * seed + s) if s % 2 == 0 else random.Random(10 * seed + s) for s in range(players)]
        kernel = deal(config, seed)
        decisions = play_bots(kernel, spies)
        assert kernel.snapshot() == final
        assert decisions == len(turns)
        for theirs, mine in zip(spied, spies, strict=True):
            if isinstance(theirs, Spy):
                assert isinstance(mine, Spy) and mine.seen == theirs.seen
            else:
                assert isinstance(mine, random.Random) and mine.random() == theirs._rng.random()


class Stubborn:
    """Always asks for the same support, legal or not."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return ChooseSupport(Faction(0)) if len(legal) > 1 else legal[0]


def test_play_bots_refuses_an_illegal_action_as_the_reference_does() -> None:
    config = GameConfig(3)
    with pytest.raises(IllegalActionError) as reference:
        run_game(config, 4, [Stubborn(), RandomBot(1), RandomBot(2)])
    with pytest.raises(IllegalActionError) as kernel:
        play_bots(deal(config, 4), [Stubborn(), random.Random(1), random.Random(2)])
    assert type(kernel.value) is type(reference.value)
    assert kernel.value.rule == reference.value.rule


def test_play_bots_needs_one_player_per_seat() -> None:
    with pytest.raises(InvalidArgumentError, match="2 generators or bots for 3 seats"):
        play_bots(deal(GameConfig(3), 1), [random.Random(1), random.Random(2)])


class Contrary(RandomBot):
    """A RandomBot that picks the last of the actions its draw skips: a subclass the kernel must ask."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return legal[len(legal) - 1 - legal.index(super().choose(view, legal))]


def table_of(seed: int, players: int) -> list[Bot]:
    """Random, greedy and contrary bots round the table, seeded as ``darkempire demo`` seeds them."""
    makers = (RandomBot, GreedyBot, RandomBot, Contrary, RandomBot)
    return [makers[s](10 * seed + s) for s in range(players)]


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", (3, 4, 5))
def test_run_game_on_the_kernel_is_the_reference_game(players: int) -> None:
    """``run_game(..., engine="kernel")`` returns the reference's finished state, and leaves every bot's
    generator where the reference game leaves it; all-random tables too."""
    config = GameConfig(players)
    for seed in range(5):
        for bots_of in (table_of, lambda seed, n: [RandomBot(10 * seed + s) for s in range(n)]):
            reference_bots, kernel_bots = bots_of(seed, players), bots_of(seed, players)
            final = run_game(config, seed, reference_bots)
            assert run_game(config, seed, kernel_bots, engine="kernel") == final
            for theirs, mine in zip(reference_bots, kernel_bots, strict=True):
                assert isinstance(theirs, (RandomBot, GreedyBot)) and isinstance(mine, (RandomBot, GreedyBot))
                assert mine._rng.getstate() == theirs._rng.getstate()


def test_run_game_refuses_an_unknown_engine_and_a_wrong_table() -> None:
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        run_game(GameConfig(3), 1, [RandomBot(s) for s in range(3)], engine="fast")
    with pytest.raises(ValueError, match="2 bots for 3 seats"):
        run_game(GameConfig(3), 1, [RandomBot(s) for s in range(2)], engine="kernel")
