"""Revolution! on the kit's Game protocol (revolution.rules.game): the kit's driver, collector, replay and event
filter play it unchanged, and a seat learns nothing of another's pending bid from them (rules 9.1-9.4)."""

from __future__ import annotations

import random
from typing import cast

import pytest

from revolution import GAME, Bid, CubeAt, Decline, Phase, Replace, RevolutionConfig, RevolutionState, Swap, Tokens
from revolution.rules.actions import Action
from revolution.rules.errors import IllegalBidError, RevolutionError, WrongStepError
from revolution.rules.events import BidsRevealed, GameEnded, GameStarted
from tablekit.bots import RandomBot, run_game
from tablekit.chance import SeededChance
from tablekit.errors import IllegalChoiceError, KitError, NotAwaitedError
from tablekit.events import events_for
from tablekit.game import LazyActions
from tablekit.records import Choice, Record, public_record, replay, resume
from tablekit.simultaneous import Round, choose, start, withdraw

CONFIGS = [RevolutionConfig(3), RevolutionConfig(4), RevolutionConfig(4, bid_refunds=True, area_control_bonus=True)]


@pytest.mark.spec("revolution:9.4", "revolution:7.4")
@pytest.mark.parametrize("config", CONFIGS)
def test_the_kit_driver_plays_whole_games_and_its_replay_repeats_them(config: RevolutionConfig) -> None:
    for seed in range(3):
        played = run_game(GAME, config, seed, [RandomBot(seed * 10 + s) for s in range(config.players)])
        assert played.state.is_over and played.state.board_full
        winners = played.state.winners
        assert played.returns == tuple(1 / len(winners) if s in winners else -1.0 for s in range(config.players))
        transitions = list(replay(GAME, played.record))
        assert transitions[-1].state == played.state
        assert [e.payload for t in transitions for e in t.events] == [e.payload for e in played.events]
        assert isinstance(played.events[0].payload, GameStarted) and isinstance(played.events[-1].payload, GameEnded)
        assert all(t.chance == SeededChance(seed) for t in transitions)  # no chance: the source is never drawn
        spectator = public_record(GAME, played.record).events
        assert spectator == events_for(played.events, None) == events_for(played.events, 0)  # all public


def _round_at(config: RevolutionConfig, seed: int, phase: Phase) -> Round[RevolutionState, Action]:
    """The kit's round at the first step of ``phase`` of a random game, nobody having chosen yet."""
    bots: list[RandomBot[Action]] = [RandomBot(seed + s) for s in range(config.players)]
    round, _ = start(GAME, config, SeededChance(seed))
    first = True
    while first or round.state.phase is not phase or round.chosen:
        first = False
        seat = min(GAME.awaited(round.state) - round.chosen)
        action = bots[seat].choose(GAME.view(round.state, seat), GAME.legal_actions(round.state, seat))
        round = choose(GAME, round, seat, action).round
        assert not round.state.is_over, "the phase should come before the end"
    return round


def _answer(round: Round[RevolutionState, Action], seat: object, action: object) -> object:
    try:
        collected = choose(GAME, round, cast(int, seat), cast(Action, action))  # hostile input on purpose
    except Exception as error:  # the kind, rule and message are what the seat learns
        return type(error), getattr(error, "rule", None), str(error)
    return collected.round.pending_of(cast(int, seat)), GAME.view(collected.round.state, cast(int, seat))


@pytest.mark.spec("revolution:9.2", "revolution:9.3", "revolution:4.1")
def test_a_seats_answer_does_not_depend_on_the_others_pending_bids() -> None:
    """Twin rounds that differ only in another seat's pending bid give every candidate action of seat 0 the same
    answer: the error's kind, rule and message, or the same pending choice and view."""
    rng = random.Random(18)
    for config in CONFIGS:
        round = _round_at(config, rng.randrange(1000), Phase.BIDDING)
        other = config.players - 1
        options = GAME.legal_actions(round.state, other)
        twins = [choose(GAME, round, other, action).round for action in (options[0], options[len(options) - 1])]
        assert twins[0].pending != twins[1].pending
        mine = GAME.legal_actions(round.state, 0)
        candidates: list[object] = [mine[0], mine[len(mine) // 2], options[0], Bid({"Priest": Tokens(force=9)}),
                                    Decline(), None, "pass", 0]
        for action in candidates:
            assert _answer(twins[0], 0, action) == _answer(twins[1], 0, action)


@pytest.mark.spec("revolution:9.1", "revolution:9.2", "revolution:5.7")
def test_the_kit_awaits_the_spys_winner_alone_and_refuses_with_the_rules_errors() -> None:
    for seed in range(200):
        config = RevolutionConfig(3)
        try:
            round = _round_at(config, seed, Phase.CHOOSING)
        except AssertionError:
            continue
        chooser = round.state.chooser
        assert chooser is not None and GAME.awaited(round.state) == {chooser}
        legal = GAME.legal_actions(round.state, chooser)
        assert isinstance(legal, tuple) and legal[-1] == Decline()
        with pytest.raises(NotAwaitedError):
            choose(GAME, round, (chooser + 1) % 3, Decline())
        with pytest.raises(WrongStepError) as error:
            choose(GAME, round, chooser, Bid())
        assert isinstance(error.value, IllegalChoiceError) and error.value.rule == "9.1"
        after = choose(GAME, round, chooser, legal[0])
        assert after.transition is not None and not after.round.chosen
        break
    else:
        pytest.fail("no random game reached a Spy's or Apothecary's choice")


@pytest.mark.spec("revolution:9.1", "revolution:9.2", "revolution:4.2")
def test_the_bidding_awaits_everyone_and_keeps_bids_in_the_collector() -> None:
    round, _ = start(GAME, RevolutionConfig(3), SeededChance(0))
    assert GAME.awaited(round.state) == {0, 1, 2}
    legal = GAME.legal_actions(round.state, 0)
    assert isinstance(legal, LazyActions) and len(legal) == 7 * 7 * 364
    with pytest.raises(IllegalBidError) as error:
        choose(GAME, round, 0, Bid({"Priest": Tokens(gold=3)}))
    assert error.value.rule == "4.2" and isinstance(error.value, RevolutionError) and isinstance(error.value, KitError)
    one = choose(GAME, round, 0, legal[5]).round
    assert one.pending_of(0) == legal[5] and one.state == round.state  # the state holds no pending bid
    back = withdraw(GAME, one, 0).round
    assert back.chosen == frozenset()
    record = Record(GAME.name, GAME.version, RevolutionConfig(3), 0, ((0, legal[5]), (1, legal[0])))
    resumed = resume(GAME, record)
    assert resumed.chosen == {0, 1} and resumed.state == round.state
    full: Record[RevolutionConfig, Action] = Record(GAME.name, GAME.version, RevolutionConfig(3), 0,
                                                    (*record.choices, Choice(2, legal[1])))
    revealed = [e.payload for t in replay(GAME, full) for e in t.events if isinstance(e.payload, BidsRevealed)]
    assert revealed == [BidsRevealed(1, (legal[5], legal[0], legal[1]))]


@pytest.mark.spec("revolution:5.7", "revolution:5.8", "revolution:R-I", "revolution:9.1")
def test_at_every_choosing_step_check_accepts_exactly_the_legal_actions() -> None:
    """In random games, each Spy's or Apothecary's choice: of Decline, every Replace the board could name, the
    listed actions and 40 random swaps of any two cubes, the check accepts those listed and refuses the others
    with rule 5.7 or 5.8."""
    seen, rng = 0, random.Random(5)
    for seed in range(6):
        config = RevolutionConfig(3 + seed % 2, area_control_bonus=seed % 3 == 0)
        bots: list[RandomBot[Action]] = [RandomBot(seed * 5 + s) for s in range(config.players)]
        round, _ = start(GAME, config, SeededChance(seed))
        while not round.state.is_over:
            seat = min(GAME.awaited(round.state) - round.chosen)
            legal = GAME.legal_actions(round.state, seat)
            if round.state.phase is Phase.CHOOSING:
                seen += 1
                cubes = [CubeAt(area.name, s) for area in config.board.areas for s in range(config.players)]
                swaps = [Swap(a, b) for a in cubes for b in cubes]
                candidates = [Decline(), *(Replace(c) for c in cubes), *legal, *rng.sample(swaps, 40)]
                for action in candidates:
                    try:
                        GAME.check(round.state, seat, action)
                    except IllegalChoiceError as error:
                        assert action not in legal and error.rule in ("5.7", "5.8")
                    else:
                        assert action in legal
            round = choose(GAME, round, seat, bots[seat].choose(GAME.view(round.state, seat), legal)).round
    assert seen >= 5
