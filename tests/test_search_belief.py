"""The victor belief reads the view alone, keeps every possible hand-out, and finds the victor factions of
seats that play for them (:mod:`darkempire.search.belief`; spec 9.4)."""

from __future__ import annotations

import itertools
import random

import attrs
import pytest

from darkempire.bots import GreedyBot, iter_game
from darkempire.rules.cards import Faction
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameConfig, Phase
from darkempire.rules.views import player_view, spectator_view
from darkempire.search.belief import VictorBelief
from darkempire.search.bot import SearchBot


def _decisions(players: int, seed: int, seat: int):  # type: ignore[no-untyped-def]
    """The states of a game of three GreedyBots and a SearchBot in ``seat`` at which ``seat`` decides."""
    bots = [GreedyBot(10 * seed + s) for s in range(players)]
    bots[seat] = SearchBot(seed, worlds=2, playouts=16, plan_worlds=1)  # type: ignore[call-overload]
    return [t.before for t in iter_game(GameConfig(players=players), seed, bots) if t.seat == seat]


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", (3, 4, 5))
def test_every_hand_out_the_view_allows_keeps_a_chance(players: int) -> None:
    state = _decisions(players, 1, 0)[-1]
    view = player_view(state, 0)
    belief = VictorBelief(view)
    assert view.victor is not None
    free = [f for f in Faction if f is not view.victor]
    assert sorted(belief.assignments) == sorted(itertools.permutations(free, players - 1))
    assert all(w > 0 for w in belief.weights) and sum(belief.weights) == pytest.approx(1.0)
    for seat in belief.seats:
        chances = belief.marginal(seat)
        assert chances[view.victor] == 0.0 and sum(chances.values()) == pytest.approx(1.0)
    drawn = belief.sample(random.Random(0))
    assert sorted(drawn) == list(belief.seats) and len(set(drawn.values())) == players - 1
    assert view.victor not in drawn.values()


@pytest.mark.spec("9.4")
def test_before_anything_is_played_every_hand_out_is_as_likely() -> None:
    state = _decisions(4, 2, 1)[0]
    assert state.phase is Phase.DRAFT_PASS
    weights = VictorBelief(player_view(state, 1)).weights
    assert max(weights) == pytest.approx(min(weights))


@pytest.mark.spec("9.4")
def test_the_belief_is_a_function_of_the_view() -> None:
    """Twin states with the same view for seat 0 (other seats' victor cards and hands swapped) give one belief."""
    for state in _decisions(4, 3, 0)[10:40:6]:
        twin = attrs.evolve(
            state,
            hands=(state.hands[0], state.hands[2], state.hands[1], state.hands[3]),
            victors=(state.victors[0], state.victors[2], state.victors[1], state.victors[3]),
        )
        if player_view(twin, 0) != player_view(state, 0):  # hand sizes differ: not a twin
            continue
        assert VictorBelief(player_view(twin, 0)).weights == VictorBelief(player_view(state, 0)).weights


@pytest.mark.spec("9.4")
def test_the_seats_victor_factions_are_found_from_their_plays() -> None:
    """After the first week, the most likely faction of a GreedyBot seat is its victor faction four times in
    five, where a guess is right one time in four."""
    right = asked = 0
    for seed in range(8):
        for state in _decisions(4, seed, seed % 4):
            if len(state.history) < 1:
                continue
            seat = seed % 4
            belief = VictorBelief(player_view(state, seat))
            for other in belief.seats:
                chances = belief.marginal(other)
                right += max(chances, key=lambda f: chances[f]) is state.victors[other]
                asked += 1
    assert asked > 500 and right / asked > 0.8


def test_a_spectator_holds_no_belief() -> None:
    state = _decisions(3, 0, 0)[3]
    with pytest.raises(InvalidArgumentError, match="player view"):
        VictorBelief(spectator_view(state))
