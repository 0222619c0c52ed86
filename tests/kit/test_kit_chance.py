"""tablekit.chance: seeded and scripted draws, shuffles, and chance nodes from a step, without undoing draws."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit.toy import GAME, Bid, Peek, ToyConfig, ToyState
from tablekit.chance import ChanceNode, Concealed, Outcome, ScriptedChance, SeededChance, run_scripted, shuffle
from tablekit.errors import ChanceError
from tablekit.game import Transition
from tablekit.simultaneous import choose, start


@given(st.integers(), st.lists(st.integers(), min_size=1, max_size=20))
def test_a_seeded_draw_depends_on_the_seed_and_count_only(seed: int, options: list[int]) -> None:
    random.seed(0)
    first, after = SeededChance(seed).draw("x", options)
    random.seed(1)
    again, _ = SeededChance(seed).draw("another name", options)
    assert first.index == again.index and first.value == options[first.index] and after == SeededChance(seed, 1)
    assert first.probability == 1 / len(options)


def test_seeded_draws_are_spread_over_the_options() -> None:
    source = SeededChance(3)
    counts = [0, 0, 0]
    for _ in range(300):
        outcome, source = source.draw("die", (0, 1, 2))
        counts[outcome.value] += 1
    assert min(counts) > 70


@given(st.integers(), st.lists(st.integers(), max_size=12, unique=True))
def test_a_shuffle_is_a_permutation_drawn_one_item_at_a_time(seed: int, items: list[int]) -> None:
    order, outcomes, source = shuffle(SeededChance(seed), "deck", items)
    assert sorted(order) == sorted(items) and len(outcomes) == len(items) == source.draws
    assert [o.value for o in outcomes] == list(order)
    assert [len(o.options) for o in outcomes] == list(range(len(items), 0, -1))
    replayed, _, _ = shuffle(ScriptedChance([o.index for o in outcomes]), "deck", items)
    assert replayed == order


def test_scripted_draws_take_the_given_outcomes_and_refuse_a_bad_one() -> None:
    outcome, source = ScriptedChance([2, 0]).draw("d", "abc")
    assert outcome.value == "c" and source.position == 1
    with pytest.raises(ChanceError):
        ScriptedChance([3]).draw("d", "abc")
    with pytest.raises(ChanceError):
        SeededChance(1).draw("nothing", ())


def test_a_scripted_source_that_runs_out_names_the_chance_node() -> None:
    node = run_scripted(lambda chance: chance.draw("prize", (1, 2, 3))[0], ())
    assert node == ChanceNode("prize", 3, 0, (1, 2, 3))
    assert run_scripted(lambda chance: chance.draw("prize", (1, 2, 3))[0], (1,)) == Outcome("prize", (1, 2, 3), 1)
    assert Outcome("prize", (1, 2, 3), 1).concealed() == Concealed("prize", 3)


def _outcomes(transition: Transition[ToyState, object]) -> list[int]:
    return [e.payload.index for e in transition.events if isinstance(e.payload, Outcome)]


@given(st.integers(2, 4), st.integers(0, 10_000))
def test_the_reported_outcomes_are_the_whole_chance_of_a_step(players: int, seed: int) -> None:
    """The adapter's way: a step's chance nodes, found by running it with a growing script, no draw undone."""
    opening = GAME.initial(ToyConfig(players, 3), SeededChance(seed))
    script: list[int] = []
    while isinstance(node := run_scripted(lambda c: GAME.initial(ToyConfig(players, 3), c), script), ChanceNode):
        assert node.position == len(script)
        script.append(_outcomes(opening)[len(script)])
    assert isinstance(node, Transition) and node.state == opening.state and node.events == opening.events


def test_a_peek_is_a_private_chance_event() -> None:
    round = start(GAME, ToyConfig(2, 3), SeededChance(4))[0]
    for seat in (0, 1):
        round = choose(GAME, round, seat, Bid(3 - seat)).round
    collected = choose(GAME, round, 0, Peek())
    assert collected.transition is not None
    drawn = [e for e in collected.transition.events if isinstance(e.payload, Outcome)]
    assert len(drawn) == 1 and drawn[0].seen_by(0) == drawn[0].payload
    assert drawn[0].seen_by(1) == drawn[0].seen_by(None) == Concealed("prize", 2)
    outcome = drawn[0].payload
    assert isinstance(outcome, Outcome) and GAME.view(collected.round.state, 0).prize == outcome.value
    assert GAME.view(collected.round.state, 1).prize is None is GAME.view(collected.round.state, None).prize

