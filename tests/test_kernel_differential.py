"""The playout kernel is the reference engine: whole games stepped through both (issue: playout kernel, point 2).

Each game is dealt by both (:func:`darkempire.rules.engine.deal`, :func:`darkempire.kernel.interface.deal`) and driven
decision by decision: the reference with :func:`~darkempire.rules.engine.apply`, the kernel with
:meth:`~darkempire.kernel.Kernel.apply_index` of the same index. At every decision the awaited seats, the
size of the deciding seat's listing and its actions are the same, and after it the kernel's
:meth:`~darkempire.kernel.Kernel.snapshot` equals the reference state, every field. Random bots and greedy
bots choose (a greedy bot's choice is found in the reference's listing by its index, and must be the
kernel's action of that index); 3, 4 and 5 players.

Listings of up to :data:`FULL_LISTING` actions are compared whole at every decision; a larger one (a
re-organize has up to 512) is compared by its size and a sample of its indices, and whole in every
:data:`FULL_EVERY`-th game. The game counts follow the Hypothesis profile: ``ci`` (the default), ten times
as many in ``long``, fewer in ``dev``. A second, cheaper family plays many more whole games through
:func:`darkempire.bots.run_game` and :meth:`~darkempire.kernel.Kernel.playout` with the same random bots'
generators and compares the finished games.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence

import attrs
import pytest

from darkempire.bots import GreedyBot, RandomBot, run_game
from darkempire.kernel import Kernel, KernelIndexError, deal
from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.errors import ConfigError, InvalidArgumentError, WrongPhaseError
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import player_view

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
#: Games stepped in lockstep per player count and bot kind, by profile.
LOCKSTEP_GAMES = {"dev": {"random": 25, "greedy": 5}, "ci": {"random": 60, "greedy": 12}}.get(
    PROFILE, {"random": 600, "greedy": 120}
)
#: Finished games compared per player count (run_game against playout), by profile.
PLAYOUT_GAMES = {"dev": 120, "ci": 300}.get(PROFILE, 3000)
#: Listings up to this size are compared whole at every decision.
FULL_LISTING = 64
#: Every this many-th lockstep game compares every listing whole, however large.
FULL_EVERY = 10
#: Indices sampled from a larger listing: its first and last, and this many at random.
SAMPLED = 8

PLAYERS = (3, 4, 5)
Chooser = Callable[[GameState, int, Sequence[Action]], int]


def differences(snapshot: GameState, state: GameState, verified: dict[tuple[int, int], tuple[object, object]]) -> list[str]:
    """The fields in which the kernel's ``snapshot`` differs from the reference ``state``.

    The week records are immutable and are carried from state to state by both sides, so a pair of records
    found equal once is remembered by identity in ``verified`` (which keeps both alive, so no id is reused)
    and not compared again: equality of the whole state at each decision, at the cost of the new records.
    """
    wrong = []
    for field in attrs.fields(GameState):
        name = field.name
        mine, theirs = getattr(snapshot, name), getattr(state, name)
        if name == "history" and len(mine) == len(theirs):
            for a, b in zip(mine, theirs, strict=True):
                key = (id(a), id(b))
                if key not in verified:
                    if a != b:
                        wrong.append(f"history week {b.month}.{b.week}")
                        break
                    verified[key] = (a, b)
        elif mine != theirs:
            wrong.append(name)
    return wrong


def compare_listings(kernel: Kernel, legal: Sequence[Action], seat: int, rng: random.Random, whole: bool) -> None:
    """The kernel lists ``seat``'s actions as the reference does: the same size, and the same action at each
    index compared (every index of a small listing, or of any listing when ``whole``; else a sample)."""
    size = len(legal)
    assert kernel.action_count(seat) == size
    if whole or size <= FULL_LISTING:
        assert kernel.actions(seat) == tuple(legal)
        return
    for index in {0, size - 1, *(rng.randrange(size) for _ in range(SAMPLED))}:
        assert kernel.action(seat, index) == legal[index], index


def lockstep(players: int, seed: int, choose: Chooser, whole: bool) -> int:
    """Play one game through both, checking at every decision; the number of decisions."""
    state = engine.deal(GameConfig(players=players), seed)
    kernel = deal(players, seed)
    verified: dict[tuple[int, int], tuple[object, object]] = {}
    sampler = random.Random(seed)
    assert differences(kernel.snapshot(), state, verified) == []
    decisions = 0
    while not state.is_over:
        awaited = engine.awaited_seats(state)
        assert kernel.awaited() == awaited, (decisions, state.phase)
        seat = min(awaited)
        legal = engine.legal_actions(state, seat)
        compare_listings(kernel, legal, seat, sampler, whole)
        index = choose(state, seat, legal)
        state = engine.apply(state, seat, legal[index])
        kernel.apply_index(seat, index)
        wrong = differences(kernel.snapshot(), state, verified)
        assert wrong == [], f"seed {seed}, decision {decisions} ({state.phase.value}): {wrong}"
        decisions += 1
    assert kernel.is_over() and kernel.winners() == state.verdict.winners  # type: ignore[union-attr]
    return decisions


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda state, seat, legal: rng.randrange(len(legal))


def greedy_chooser(seed: int, players: int) -> Chooser:
    """Greedy bots for every seat, but one seat in three random, so that both kinds of play meet."""
    bots = [GreedyBot(seed * 10 + s) if s % 3 else RandomBot(seed * 10 + s) for s in range(players)]

    def choose(state: GameState, seat: int, legal: Sequence[Action]) -> int:
        action = bots[seat].choose(player_view(state, seat), legal)
        return legal.index(action)

    return choose


@pytest.mark.spec("9.2", "9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_step_for_step(players: int) -> None:
    """Random choices, thousands of decisions: the snapshot is the reference state after every one."""
    games = LOCKSTEP_GAMES["random"]
    decisions = sum(lockstep(players, seed, random_chooser(seed), seed % FULL_EVERY == 0) for seed in range(games))
    assert decisions > games * 100  # whole games, not a deal and an early stop


@pytest.mark.spec("9.2", "9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_greedy_games_step_for_step(players: int) -> None:
    """Greedy bots (with a random one among them) make the choices random play rarely makes: placements of
    the highest card, take-backs, traitor plays against a leader, empty discards."""
    games = LOCKSTEP_GAMES["greedy"]
    base = 10_000  # other seeds than the random games'
    for seed in range(base, base + games):
        lockstep(players, seed, greedy_chooser(seed, players), seed % FULL_EVERY == 0)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_playouts_are_the_random_bots_games(players: int) -> None:
    """A playout with one generator per seat is the game run_game plays with RandomBots seeded alike: the
    finished game's snapshot is the reference's finished state, verdict, history and all."""
    config = GameConfig(players=players)
    for seed in range(PLAYOUT_GAMES):
        seeds = [seed * 10 + s for s in range(players)]
        finished = run_game(config, seed, [RandomBot(s) for s in seeds])
        kernel = deal(config, seed)
        kernel.playout([random.Random(s) for s in seeds])
        assert kernel.snapshot() == finished, seed


@pytest.mark.spec("9.3")
def test_a_playout_from_a_state_continues_that_game() -> None:
    """From a state mid-game a playout with one shared generator is the game random choices drawn in seat
    order from that generator make in the reference."""
    state = engine.deal(GameConfig(players=4), 3)
    rng = random.Random(0)
    for _ in range(120):
        seat = min(engine.awaited_seats(state))
        legal = engine.legal_actions(state, seat)
        state = engine.apply(state, seat, legal[rng.randrange(len(legal))])
    kernel = Kernel.from_state(state)
    kernel.playout(random.Random(5))
    shared = random.Random(5)
    while not state.is_over:
        seat = min(engine.awaited_seats(state))
        legal = engine.legal_actions(state, seat)
        state = engine.apply(state, seat, legal[shared.randrange(len(legal))])
    assert kernel.snapshot() == state


@pytest.mark.spec("9.2")
def test_joint_choices_are_the_reference_step() -> None:
    """apply_joint with every awaited seat's index is engine.step with their actions."""
    state = engine.deal(GameConfig(players=3), 11)
    kernel = Kernel.from_state(state)
    rng = random.Random(2)
    while not state.is_over:
        picks = {seat: rng.randrange(len(engine.legal_actions(state, seat))) for seat in sorted(engine.awaited_seats(state))}
        state = engine.step(state, {seat: engine.legal_actions(state, seat)[i] for seat, i in picks.items()}).state
        kernel.apply_joint(picks)
        assert kernel.snapshot() == state


@pytest.mark.spec("9.1", "9.2")
def test_the_kernel_refuses_what_the_reference_refuses() -> None:
    """A seat not awaited, an index out of its listing, a missing joint choice, a finished game, a state
    in an automatic phase, something that is no state: each a typed error of the project's."""
    kernel = deal(3, 1)
    with pytest.raises(KernelIndexError, match="not in seat 0's 36 legal actions"):
        kernel.apply_index(0, 36)
    with pytest.raises(KernelIndexError, match="no seat 7"):
        kernel.action_count(7)
    kernel.apply_index(0, 0)
    assert kernel.action_count(0) == 0 and kernel.awaited() == {1, 2}
    with pytest.raises(KernelIndexError):
        kernel.apply_index(0, 0)  # already chose
    with pytest.raises(KernelIndexError, match=r"seats \[2\] are missing"):
        kernel.apply_joint({1: 0})
    with pytest.raises(InvalidArgumentError, match="takes a GameState"):
        Kernel.from_state("a state")  # type: ignore[arg-type]
    state = engine.deal(GameConfig(players=3), 1)
    with pytest.raises(InvalidArgumentError, match="automatic week scoring"):
        Kernel.from_state(attrs.evolve(state, phase=Phase.WEEK_SCORING))
    with pytest.raises(ConfigError):
        deal(3, 2**64)
    # The compiled build checks annotated types at a call: deal's bad arguments must still be the rules' errors.
    for config, seed in ((3, 1.5), (3, "7"), (3, True), ("3", 1), (None, 1)):
        with pytest.raises(ConfigError) as raised:
            deal(config, seed)  # type: ignore[arg-type]
        with pytest.raises(ConfigError) as expected:
            engine.deal(GameConfig(players=config) if not isinstance(config, GameConfig) else config, seed)  # type: ignore[arg-type]
        assert str(raised.value) == str(expected.value)
    finished = deal(3, 4)
    finished.playout(random.Random(0))
    assert finished.is_over() and finished.awaited() == frozenset() and finished.winners()
    with pytest.raises(WrongPhaseError):
        finished.action(0, 0)
    with pytest.raises(KernelIndexError, match="not a legal action"):
        deal(3, 1).apply_action(0, engine.legal_actions(engine.deal(GameConfig(players=3), 2), 0)[0])


@pytest.mark.spec("9.3")
def test_a_copy_plays_on_alone() -> None:
    """copy() gives an independent kernel: playing the copy out leaves the original where it was."""
    kernel = deal(5, 8)
    for _ in range(60):
        seat = min(kernel.awaited())
        kernel.apply_index(seat, kernel.action_count(seat) - 1)
    before = kernel.snapshot()
    other = kernel.copy()
    other.playout(random.Random(1))
    assert other.is_over() and not kernel.is_over()
    assert kernel.snapshot() == before
