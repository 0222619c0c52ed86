"""Dark Empire on the kit's Game protocol (darkempire.rules.game): the kit's collector, driver, replay, event filter and
scripted chance all work for it, and a seat learns nothing from them that it may not see (spec 9.2-9.4)."""

from __future__ import annotations

import random
from typing import cast

import attrs
import pytest

from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.errors import IllegalActionError
from darkempire.rules.events import CardsPassed, ChoiceMade, DraftDiscarded, Event, GameStarted, HandDealt, HandRefilled
from darkempire.rules.events import Reorganized, WeekStarted
from darkempire.rules.game import GAME
from darkempire.rules.state import GameConfig, GameState, Phase
from tablekit.bots import RandomBot, run_game
from tablekit.chance import ChanceNode, ScriptedChance, SeededChance, run_scripted
from tablekit.errors import IllegalChoiceError, NotAwaitedError
from tablekit.events import events_for
from tablekit.records import replay
from tablekit.simultaneous import Round, choose, start

PLAYERS = (3, 4, 5)


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("players", PLAYERS)
def test_the_kit_driver_plays_whole_games_and_its_replay_repeats_them(players: int) -> None:
    for seed in range(3):
        played = run_game(GAME, GameConfig(players), seed, [RandomBot(seed * 10 + s) for s in range(players)])
        assert played.state.is_over and played.state.verdict is not None
        winners = played.state.verdict.winners
        assert played.returns == tuple(1 / len(winners) if s in winners else -1.0 for s in range(players))
        transitions = list(replay(GAME, played.record))
        assert transitions[-1].state == played.state
        # the log is the concatenation of the transitions' events: the deal's first, the verdict last
        assert isinstance(played.events[0].payload, GameStarted)
        assert [e.payload for t in transitions for e in t.events] == [e.payload for e in played.events]


@pytest.mark.spec("2.3", "2.4", "3.3", "4.1", "6.4")
def test_a_kit_game_draws_from_the_source_it_is_given() -> None:
    """Two seeds of the kit's source give two deals; the same seed, the same deal. The kit's seed is not the
    engine's: a kit game draws through the source, not the state's generator."""
    first = GAME.initial(GameConfig(4), SeededChance(1)).state
    assert GAME.initial(GameConfig(4), SeededChance(1)).state == first
    assert GAME.initial(GameConfig(4), SeededChance(2)).state.hands != first.hands
    assert first.hands != engine.deal(GameConfig(4), 1).hands or first.victors != engine.deal(GameConfig(4), 1).victors


def _own(event: Event, seat: int | None) -> bool:
    """Whether ``event``, as ``seat`` sees it, holds only what ``seat`` may see (the table of rules.events)."""
    if isinstance(event, (HandDealt, HandRefilled)):
        return event.seat == seat
    if isinstance(event, ChoiceMade):
        return event.action is None or event.seat == seat
    if isinstance(event, CardsPassed):
        return event.cards is None or seat in (event.seat, event.to_seat)
    if isinstance(event, DraftDiscarded):
        return event.cards is None or event.seat == seat
    return True


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_each_seat_sees_only_its_own_secrets_in_the_kit_log(players: int) -> None:
    played = run_game(GAME, GameConfig(players), 5, [RandomBot(s) for s in range(players)])
    for seat in (*range(players), None):
        seen = events_for(played.events, seat)
        assert all(_own(event, seat) for event in seen)
        if seat is not None:  # a seat sees its own hand dealt and refilled
            assert sum(isinstance(e, HandDealt) for e in seen) == 1
        else:
            assert not any(isinstance(e, (HandDealt, HandRefilled)) for e in seen)
    # the public draws are the same for everyone
    draws = {seat: [e.draws for e in events_for(played.events, seat) if isinstance(e, (GameStarted, WeekStarted,
                                                                                         Reorganized))]
             for seat in (*range(players), None)}
    assert len({repr(d) for d in draws.values()}) == 1


def _round_at(players: int, seed: int, phase: Phase) -> Round[GameState, Action]:
    """The kit's round at the first step of ``phase`` of a random game, nobody having chosen yet."""
    bots: list[RandomBot[Action]] = [RandomBot(seed + s) for s in range(players)]
    round, _ = start(GAME, GameConfig(players), SeededChance(seed))
    while round.state.phase is not phase:
        seat = min(GAME.awaited(round.state) - round.chosen)
        action = bots[seat].choose(GAME.view(round.state, seat), GAME.legal_actions(round.state, seat))
        round = choose(GAME, round, seat, action).round
    return round


def _answer(round: Round[GameState, Action], seat: object, action: object) -> object:
    try:
        collected = choose(GAME, round, cast(int, seat), cast(Action, action))  # hostile input on purpose
    except Exception as error:  # the kind, rule and message are what the seat learns
        return type(error), getattr(error, "rule", None), str(error)
    return collected.round.pending_of(seat) if isinstance(seat, int) else None


@pytest.mark.spec("9.2", "9.4")
@pytest.mark.parametrize("phase", [Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.CHOOSE_SUPPORT, Phase.PLAY_1,
                                   Phase.REORGANIZE])
def test_a_seats_answer_does_not_depend_on_the_others_pending_choices(phase: Phase) -> None:
    """Twin rounds that differ only in another seat's pending choice give every candidate action of seat 0
    the same answer (the error's kind, rule and message, or the same pending choice)."""
    rng = random.Random(phase.value)
    for players in PLAYERS:
        round = _round_at(players, rng.randrange(1000), phase)
        other = max(GAME.awaited(round.state))
        options = list(GAME.legal_actions(round.state, other))
        if len(options) < 2:
            continue
        twins = [choose(GAME, round, other, action).round for action in (options[0], options[-1])]
        candidates: list[object] = list(GAME.legal_actions(round.state, 0)[:20])
        candidates += [*options[:5], None, "pass", 0]  # the other seat's actions, and junk
        for action in candidates:
            assert _answer(twins[0], 0, action) == _answer(twins[1], 0, action)


@pytest.mark.spec("9.1", "9.2")
def test_the_kit_refuses_with_the_rules_errors() -> None:
    round, _ = start(GAME, GameConfig(3), SeededChance(3))
    with pytest.raises(NotAwaitedError):
        choose(GAME, round, 3, GAME.legal_actions(round.state, 0)[0])
    foreign = GAME.legal_actions(round.state, 1)[0]  # seat 1's cards are not seat 0's
    with pytest.raises(IllegalActionError) as error:
        choose(GAME, round, 0, foreign)
    assert isinstance(error.value, IllegalChoiceError) and error.value.rule
    GAME.check(round.state, 0, GAME.legal_actions(round.state, 0)[0])  # a legal action passes the check


@pytest.mark.spec("2.3", "2.4", "4.1", "6.4")
def test_scripted_chance_stops_at_each_draw_the_engine_reports() -> None:
    """An adapter's chance nodes: the deal run on a growing script stops at each of its draws in turn, and
    those are the draws the deal's GameStarted event names, with their counts."""
    config = GameConfig(3)
    script: list[int] = []
    nodes: list[ChanceNode] = []
    while True:
        result = run_scripted(lambda source: GAME.initial(config, source), script)
        if not isinstance(result, ChanceNode):
            break
        nodes.append(result)
        script.append(result.count - 1)  # always the last option
    started = result.events[0].payload
    assert isinstance(started, GameStarted)
    assert [(n.name, n.count) for n in nodes] == [(d.name, d.count) for d in started.draws]
    assert result.chance == ScriptedChance(tuple(script), len(script))
    assert len(nodes) == 3 + 3 * 9  # a victor card and 9 hand cards per seat (rules 2.3, 2.4)


def test_kit_states_hold_no_pending_choice() -> None:
    """The pending choices are the round's: the states the class returns never carry one."""
    played = run_game(GAME, GameConfig(4), 2, [RandomBot(s) for s in range(4)])
    for transition in replay(GAME, played.record):
        assert all(choice is None for choice in transition.state.pending)
    assert attrs.evolve(played.state).pending == (None,) * 4
