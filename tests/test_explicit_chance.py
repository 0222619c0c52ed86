"""Chance is explicit: every draw of the engine is named and reported, and the adapters' chance nodes are those
draws (issue 13, item 1; rules 2.3, 2.4, 3.3, 4.1, 6.4, ruling R).

The engine draws each victor card, each dealt card, each week's revolution and emperor card and each refill
card one at a time from the :class:`tablekit.chance.ChanceSource` it is given, and the public event of the
moment lists the draws (:class:`darkempire.rules.events.Draw`: name and count). The OpenSpiel adapter's
:class:`~darkempire.adapters.core.Flow` runs the engine with a scripted source, so its chance nodes are where
the script runs out. These tests check, for random games of 3, 4 and 5 players:

* the chance nodes the adapter exposes are, node by node, the draws the engine reports in its events;
* a game driven through the adapter with the chance outcomes read off a seeded engine run's events
  reproduces that run's states;
* an outcome that is not one of a draw's options is a :class:`tablekit.errors.ChanceError`, and the flow
  it was given to is unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.adapters import core
from darkempire.rules.cards import EMPEROR_CARDS, HAND_CARDS, REVOLUTION_CARDS, Faction
from darkempire.rules.events import (
    Draw,
    Event,
    GameStarted,
    HandDealt,
    HandRefilled,
    Reorganized,
    WeekStarted,
    deal_draws,
    events_for,
)
from darkempire.rules.state import DEAL_SIZE, GameConfig, GameState, Phase
from darkempire.validity import check_state
from tablekit.chance import ChanceNode, ScriptedChance, SeededChance, run_scripted
from tablekit.errors import ChanceError

PLAYERS = (3, 4, 5)


def _draws(events: Sequence[Event]) -> list[tuple[str, int]]:
    """The draws the events report, in order, as (name, count)."""
    out: list[tuple[str, int]] = []
    for event in events:
        if isinstance(event, (GameStarted, WeekStarted, Reorganized)):
            out += [(d.name, d.count) for d in event.draws]
    return out


def _choose(state: GameState, rng: random.Random) -> dict[int, Action]:
    return {seat: rng.choice(engine.legal_actions(state, seat)) for seat in sorted(engine.awaited_seats(state))}


@attrs.frozen
class _Played:
    """A flow driven to its end at random: every chance node met, every joint action, the outcome indices."""

    nodes: tuple[ChanceNode, ...]
    joints: tuple[tuple[int, ...], ...]
    scripts: tuple[tuple[int, ...], ...]  # the outcome indices of the deal, then of each joint action's step
    final: core.Flow


def _play_flow(players: int, seed: int) -> _Played:
    rng = random.Random(seed)
    flow = core.Flow.new(players)
    nodes: list[ChanceNode] = []
    joints: list[tuple[int, ...]] = []
    scripts: list[list[int]] = [[]]
    while not flow.is_over:
        if flow.node is not None:
            nodes.append(flow.node)
            outcome = rng.choice(flow.chance_outcomes())[0]
            scripts[-1].append([o for o, _ in flow.chance_outcomes()].index(outcome))
            flow = flow.apply_chance(outcome)
        else:
            joint = tuple(rng.choice(flow.legal(s)) for s in range(players))
            assert flow.state is not None
            joints.append(joint)
            scripts.append([])
            flow = flow.apply_joint(joint)
    return _Played(tuple(nodes), tuple(joints), tuple(map(tuple, scripts)), flow)


def _engine_replay(players: int, played: _Played) -> tuple[list[Event], GameState]:
    """The flow's game played on the engine alone, each step with a scripted source of its outcome indices."""
    transition = engine.deal_reporting(GameConfig(players=players), 0, chance=ScriptedChance(played.scripts[0]))
    assert transition.chance == ScriptedChance(played.scripts[0], len(played.scripts[0]))  # every outcome used
    events, state = list(transition.events), transition.state
    for joint, script in zip(played.joints, played.scripts[1:], strict=True):
        choices = {s: a for s, i in enumerate(joint) if (a := core.decode(state, s, i)) is not None}
        transition = engine.step(state, choices, chance=ScriptedChance(script))
        assert transition.chance == ScriptedChance(script, len(script))
        events += transition.events
        state = transition.state
    return events, state


# --------------------------------------------------------------------------- (a) nodes are the reported draws


@pytest.mark.spec("2.3", "2.4", "3.3", "4.1", "6.4", "R-R")
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_adapters_chance_nodes_are_the_draws_the_engine_reports(players: int, seed: int) -> None:
    played = _play_flow(players, seed)
    events, state = _engine_replay(players, played)
    assert [(n.name, n.count) for n in played.nodes] == _draws(events)
    assert state == played.final.state
    # About as many nodes as the adapter had when it undid the engine's draws: the deal, 1-2 reveals a week,
    # and the refills.
    assert players * (1 + DEAL_SIZE) + 12 < len(played.nodes) <= core.max_chance_events(players)
    kinds = [n.name.split()[0] for n in played.nodes]
    assert kinds[:players] == ["victor"] * players and kinds.count("deal") == DEAL_SIZE * players
    assert kinds.count("revolution") == 12 and 1 <= kinds.count("emperor") <= 12 and "refill" in kinds


@pytest.mark.spec("2.3", "2.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_the_deals_draws_are_named_and_counted_the_same_with_or_without_a_source(players: int) -> None:
    own = engine.deal_reporting(GameConfig(players=players), 5)
    seeded = engine.deal_reporting(GameConfig(players=players), 5, chance=SeededChance(5))
    for transition in (own, seeded):
        started = transition.events[0]
        assert isinstance(started, GameStarted) and started.draws == deal_draws(players)
    assert own.state == engine.deal(GameConfig(players=players), 5) and own.chance is None
    assert seeded.chance == SeededChance(5, players * (1 + DEAL_SIZE))


# --------------------------------------------------------------------------- (b) outcomes read off a seeded run


def _outcome_ids(events: Sequence[Event], before: GameState | None = None) -> Iterator[int]:
    """The chance outcome ids of a transition's draws, read off its events: the drawn values, in the order the
    engine draws them. A seat's refill cards from the draw pile ``before`` the step come first, then those
    from the reshuffled discard pile (each part in id order: any order of the same cards gives the same
    state)."""
    old_draw_pile = set() if before is None else set(before.draw_pile)
    for event in events:
        if isinstance(event, HandDealt):
            continue  # read with GameStarted below, victors first
        if isinstance(event, GameStarted):
            dealt = [e for e in events if isinstance(e, HandDealt)]
            yield from (int(e.victor) for e in dealt)
            yield from (c.id for e in dealt for c in sorted(e.cards, key=lambda c: c.id))
        elif isinstance(event, HandRefilled):
            yield from sorted(c.id for c in event.drawn if c in old_draw_pile)
            yield from sorted(c.id for c in event.drawn if c not in old_draw_pile)
            old_draw_pile -= event.drawn
        elif isinstance(event, WeekStarted):
            yield int(event.revolution_card.faction)
            if event.emperor_card is not None:
                yield event.emperor_card.id


@pytest.mark.spec("2.3", "2.4", "3.3", "4.1", "6.4", "R-R", "9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_flow_given_a_seeded_runs_outcomes_reproduces_its_states(players: int) -> None:
    rng = random.Random(players)
    transition = engine.deal_reporting(GameConfig(players=players), 0, chance=SeededChance(players))
    flow, fed = core.Flow.new(players), 0
    for outcome in _outcome_ids(transition.events):
        flow, fed = flow.apply_chance(outcome), fed + 1
    state, source = transition.state, transition.chance
    steps = 0
    while not state.is_over:
        assert not flow.is_chance and flow.state == state
        check_state(state)  # a game drawn from a source reaches only states the rules allow
        choices = _choose(state, rng)
        joint = [core.NO_OP if s not in choices else core.encode(state, s, choices[s]) for s in range(players)]
        transition = engine.step(state, choices, chance=source)
        before, state, source = state, transition.state, transition.chance
        flow = flow.apply_joint(joint)
        for outcome in _outcome_ids(transition.events, before):
            assert flow.is_chance
            flow, fed = flow.apply_chance(outcome), fed + 1
        steps += 1
    assert flow.is_over and flow.state == state and steps > 40
    assert isinstance(source, SeededChance) and source.draws == fed  # every draw read off the events


# --------------------------------------------------------------------------- (c) an outcome out of range


@pytest.mark.spec("2.3", "6.4")
def test_a_scripted_outcome_out_of_range_is_a_chance_error() -> None:
    config = GameConfig(players=3)
    with pytest.raises(ChanceError, match="victor seat 0"):
        engine.deal_reporting(config, 0, chance=ScriptedChance([len(Faction)]))
    assert isinstance(run_scripted(lambda c: engine.deal_reporting(config, 0, chance=c), [4]), ChanceNode)
    state, rng = engine.deal(config, 3), random.Random(3)
    while state.phase is not Phase.REORGANIZE:
        state = engine.step(state, _choose(state, rng)).state
    choices = _choose(state, rng)
    node = run_scripted(lambda c: engine.step(state, choices, chance=c), [])
    assert isinstance(node, ChanceNode) and node.name.startswith("refill")
    with pytest.raises(ChanceError, match="refill"):
        engine.step(state, choices, chance=ScriptedChance([node.count]))
    with pytest.raises(ChanceError):
        engine.step(state, choices, chance=ScriptedChance([-1]))


@pytest.mark.spec("2.3", "4.1", "6.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_flow_refuses_an_outcome_out_of_range_and_stays_as_it_was(players: int) -> None:
    rng = random.Random(players)
    flow, refused = core.Flow.new(players), set()
    while not flow.is_over:
        if flow.node is None:
            flow = flow.apply_joint([rng.choice(flow.legal(s)) for s in range(players)])
            continue
        kind = flow.node.name.split()[0]
        outcomes = [o for o, _ in flow.chance_outcomes()]
        if kind not in refused:
            before = (flow.to_data(), flow.text(), flow.node)
            universe = {"victor": len(Faction), "revolution": len(REVOLUTION_CARDS), "emperor": len(EMPEROR_CARDS)}
            missing = sorted(set(range(universe.get(kind, len(HAND_CARDS)))) - set(outcomes))
            hostile: list[Any] = [*missing[:1], -1, 10**6, True, "3"]  # a hostile caller's values
            for bad in hostile:
                with pytest.raises(ChanceError):
                    flow.apply_chance(bad)
            assert (flow.to_data(), flow.text(), flow.node) == before
            refused.add(kind)
        flow = flow.apply_chance(rng.choice(outcomes))
    assert refused == {"victor", "deal", "revolution", "emperor", "refill"}
    with pytest.raises(ChanceError):
        flow.apply_chance(0)


@pytest.mark.spec("9.3")
def test_a_flow_loaded_with_an_outcome_index_out_of_range_is_a_chance_error() -> None:
    flow = core.Flow.new(3).apply_chance(2)
    data = flow.to_data()
    assert core.Flow.from_data(data).text() == flow.text()
    for bad in (4, -1, True):
        with pytest.raises(ChanceError):
            core.Flow.from_data({**data, "script": [*data["script"], bad]})


# --------------------------------------------------------------------------- the draws leak nothing


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_every_seat_sees_the_same_draws_names_and_counts_only(players: int) -> None:
    rng = random.Random(10 + players)
    transition = engine.deal_reporting(GameConfig(players=players), 0, chance=SeededChance(players))
    events, state, source = list(transition.events), transition.state, transition.chance
    while not state.is_over:
        transition = engine.step(state, _choose(state, rng), chance=source)
        events += transition.events
        state, source = transition.state, transition.chance
    every = _draws(events)
    for viewer in (*range(players), None):
        assert _draws(events_for(events, viewer)) == every
    for event in events:
        for draw in getattr(event, "draws", ()):
            assert type(draw) is Draw and type(draw.name) is str and type(draw.count) is int
