"""Worlds drawn from one seat's view are sound and really drawn (issue 15, part 1; spec 9.4).

Sound: a world shows the seat exactly its view and legal actions, keeps every card once, and gives the other
seats that have chosen a legal pending choice. Really drawn: over many draws the other seats' hands and victor
factions are not the true ones every time (a sampler that returned the real state would pass every soundness
check; :func:`_drawn_like_chance` is shown to reject it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from darkempire.bots import GreedyBot, RandomBot, iter_game
from darkempire.rules.actions import PassCards
from darkempire.rules.cards import HandCard
from darkempire.rules.engine import legal_actions
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import PlayerView, player_view, spectator_view
from darkempire.search.worlds import sample_world
from darkempire.serialization import check_state

pytestmark = pytest.mark.spec("9.4")


def _decision(players: int, seed: int, index: int) -> tuple[GameState, int, tuple[HandCard, ...]]:
    """The state, seat and that seat's passed cards at decision ``index`` of a game of mixed bots."""
    bots = [GreedyBot(seed + s) if s % 2 else RandomBot(seed + s) for s in range(players)]
    passed: dict[int, tuple[HandCard, ...]] = {}
    last = None
    for i, turn in enumerate(iter_game(GameConfig(players=players), seed, bots)):
        last = (turn.before, turn.seat, passed.get(turn.seat, ()))
        if i == index:
            break
        if isinstance(turn.action, PassCards):
            passed[turn.seat] = tuple(turn.action.cards)
    assert last is not None
    return last


@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 10_000),
    index=st.integers(0, 350),
    draw=st.integers(0, 2**32),
)
def test_a_world_shows_the_seat_its_view(players: int, seed: int, index: int, draw: int) -> None:
    state, seat, passed = _decision(players, seed, index)
    view = player_view(state, seat)
    world = sample_world(view, random.Random(draw), passed=passed)
    assert player_view(world, seat) == view
    assert legal_actions(world, seat) == legal_actions(state, seat)
    check_state(world)  # every card once, every field in range
    for other in view.chosen - {seat}:
        chosen = world.pending[other]
        assert chosen is not None
        free = attrs.evolve(world, pending=tuple(None if s == other else p for s, p in enumerate(world.pending)))
        assert chosen in legal_actions(free, other)
    if state.phase is Phase.DRAFT_DISCARD and passed:
        assert set(passed) <= set(world.hands[(seat + 1) % players])  # the seat knows where its cards went


Sampler = Callable[[GameState, PlayerView, random.Random], GameState]


def _drawn_like_chance(sampler: Sampler) -> bool:
    """Whether ``sampler`` keeps the other seats' hidden things true only about as often as a uniform draw.

    At the deal of 60 games the victor faction of seat 1 is one of 4 for seat 0, so a uniform draw keeps it
    in about a quarter of the games; a hand of 9 of the 66 cards seat 0 does not hold is kept almost never.
    """
    kept_victor = kept_hand = 0
    games = 60
    for seed in range(games):
        state = _decision(4, seed, 0)[0]
        world = sampler(state, player_view(state, 0), random.Random(seed))
        kept_victor += world.victors[1] == state.victors[1]
        kept_hand += world.hands[1] == state.hands[1]
    # Binomial(60, 1/4): 15 expected; below 3 or above 30 has probability well under 1e-4.
    return 3 <= kept_victor <= 30 and kept_hand <= 1


def test_worlds_are_drawn_not_copied() -> None:
    assert _drawn_like_chance(lambda state, view, rng: sample_world(view, rng))


def test_the_check_rejects_a_sampler_that_returns_the_truth() -> None:
    assert not _drawn_like_chance(lambda state, view, rng: state)


def test_the_draw_order_and_pending_choices_are_drawn_again() -> None:
    # Late in the draft pass the earlier seats' choices are pending; seat 3 must not see them.
    state, seat, _ = _decision(4, 7, 3)
    assert seat == 3 and state.pending[0] is not None
    view = player_view(state, seat)
    worlds = [sample_world(view, random.Random(i)) for i in range(30)]
    assert any(w.pending[0] != state.pending[0] for w in worlds)
    assert any(w.draw_pile != state.draw_pile for w in worlds)
    assert len({w.draw_pile for w in worlds}) > 20


def test_the_same_generator_state_gives_the_same_world() -> None:
    state, seat, _ = _decision(3, 4, 40)
    view = player_view(state, seat)
    assert sample_world(view, random.Random(9)) == sample_world(view, random.Random(9))


def test_a_spectator_view_is_refused() -> None:
    state, _, _ = _decision(3, 1, 0)
    with pytest.raises(InvalidArgumentError, match="player view"):
        sample_world(spectator_view(state), random.Random(0))


def test_the_cards_passed_stay_with_the_next_seat_until_it_discards() -> None:
    state, seat, passed = _decision(4, 2, 5)  # seat 1 in the draft discard step
    assert state.phase is Phase.DRAFT_DISCARD and len(passed) == 2
    view = player_view(state, seat)
    receiver = (seat + 1) % 4
    worlds = [sample_world(view, random.Random(i), passed=passed) for i in range(20)]
    assert all(set(passed) <= set(w.hands[receiver]) for w in worlds)
    assert not all(set(passed) <= set(w.hands[receiver]) for w in (sample_world(view, random.Random(i)) for i in range(20)))
