"""The spectator replay checks idle seats from public facts (ruling R-H; issue 12, review fault 8 follow-up).

At a play step every seat holding cards must play one if it can. A faction card is always playable, so a seat
that holds cards and plays nothing holds reinforcement cards only, and, from the second step on, has nothing
on the table it may reinforce. The spectator replay sees only hand sizes, the table and who played nothing,
and from them it refuses:

* a seat idle while a card it may reinforce is on the table (a revolution-side card of an earlier step, or a
  traitor card while the seat may still make its traitor play);
* a seat idle earlier this week while holding cards (so reinforcements only) that plays a faction card;
* idle seats holding more cards between them than there are reinforcement cards left (10, less those face up
  on the table or known in the discard pile).

The forged records below are built from real games: one step is resolved with choices the engine refuses,
then the game goes on under the rules, so every other event of the record is consistent and the replay
before this check accepted them all. The genuine records include games whose hidden cards were dealt
differently in a way no spectator can see, so that seats really do hold reinforcement cards only.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

from darkempire.rules import engine
from darkempire.rules.actions import Action, PlayCard, PlayNothing, Side
from darkempire.bots import Bot, make_bot
from darkempire.rules.cards import HandCard
from darkempire.rules.events import ChoiceMade, Event, Reorganized, events_for
from darkempire.public_record import PublicRecord, PublicRecordError, PublicStep, spectator_replay
from darkempire.rules.state import PLAY_PHASES, GameConfig, GameState, Phase
from darkempire.rules.table import Play
from darkempire.rules.views import player_view, spectator_view
from embedding_games import hand_cards_in

PLAYERS = (3, 4, 5)
Chooser = Callable[[GameState, int], Action]


@attrs.define
class _Game:
    """A game driven choice by choice, keeping the spectator's steps, every state, and ``known``: the hand
    cards a spectator may know the place of (seen face up since the last reshuffle, and taken back)."""

    states: list[GameState]
    steps: list[PublicStep] = attrs.Factory(list)
    known: set[HandCard] = attrs.Factory(set)

    @property
    def now(self) -> GameState:
        return self.states[-1]

    def apply(self, seat: int, action: Action) -> None:
        """A genuine choice: the engine checks it."""
        before, after = self.now, engine.apply(self.now, seat, action)
        self.step(events_for(engine.events_between(before, after, choices={seat: action}), None), after)

    def step(self, events: tuple[Event, ...], after: GameState) -> None:
        self.steps.append(PublicStep(events))
        self.states.append(after)
        self.known |= hand_cards_in(events)
        for event in events:  # a reshuffle hides where every card but the take-backs went
            if isinstance(event, Reorganized) and event.reshuffled:
                self.known = {card for card in event.take_backs if card is not None}

    def play(self, choose: Chooser, until: Callable[[GameState], bool] = lambda s: s.is_over) -> None:
        """Genuine choices, the lowest awaited seat first, until ``until`` holds at a fresh decision step."""
        while not until(self.now) or any(p is not None for p in self.now.pending):
            if self.now.is_over:
                raise AssertionError("the game ended before the point the test looks for")
            seat = min(engine.awaited_seats(self.now))
            self.apply(seat, choose(self.now, seat))

    def force(self, choices: dict[int, Action]) -> int:
        """Resolve this play step with ``choices`` (one per awaited seat), unchecked: a forgery.

        :returns: the index of the step that reveals the plays.
        """
        state = self.now
        awaited = sorted(engine.awaited_seats(state))
        assert sorted(choices) == awaited and state.phase in PLAY_PHASES
        pending: list[Action | None] = [None] * state.players
        for seat in awaited:
            pending[seat] = choices[seat]
            chosen = attrs.evolve(state, pending=tuple(pending))
            events = events_for([ChoiceMade(seat, state.phase, choices[seat])], None)
            if seat != awaited[-1]:
                self.step(events, chosen)
        resolved: list[Event] = []  # the resolution's events, as the engine reports them
        after = engine._advance(engine._decide(chosen, {}, resolved), resolved)
        self.step(events + events_for(resolved, None), after)
        return len(self.steps) - 1

    def record(self) -> PublicRecord:
        return PublicRecord(self.now.config, tuple(self.steps), self.now.verdict)


def _random(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda state, seat: rng.choice(engine.legal_actions(state, seat))


def _bots(bots: list[Bot]) -> Chooser:
    return lambda state, seat: bots[seat].choose(player_view(state, seat), engine.legal_actions(state, seat))


def _fresh_play_step(step: int, test: Callable[[GameState], bool]) -> Callable[[GameState], bool]:
    """At play step ``step``, every seat holding cards, and ``test``."""
    return lambda s: s.phase is PLAY_PHASES[step - 1] and all(s.hands) and test(s)


def _plays(state: GameState) -> tuple[Play, ...]:
    return () if state.table is None else state.table.plays


def _refused_at(record: PublicRecord) -> tuple[int | None, str]:
    with pytest.raises(PublicRecordError) as caught:
        spectator_replay(record)
    return caught.value.step, caught.value.rule


def _faction_play(state: GameState, seat: int) -> PlayCard:
    return next(PlayCard(c, Side.REVOLUTION) for c in state.hands[seat] if not c.is_reinforcement)


def _reinforcements_into(state: GameState, seat: int, keep: int, known: set[HandCard]) -> GameState:
    """``state`` with reinforcement cards moved into ``seat``'s hand until it keeps ``keep`` faction cards, as
    far as there are any: a change no spectator can see at the start of a week.

    Each comes from another hand, the draw pile or the discard pile, in exchange for a faction card; ``known``
    holds the cards a spectator may know the place of (:attr:`_Game.known`), which neither leave a hand nor
    come out of the discard pile. Hands and piles keep their sizes.
    """
    hands, draw, discard = [list(h) for h in state.hands], list(state.draw_pile), list(state.discard_pile)
    sources = [(h, j) for h in [*hands[:seat], *hands[seat + 1 :], draw] for j in range(len(h))]
    sources += [(discard, j) for j, c in enumerate(discard) if c not in known]
    sources = [(h, j) for h, j in sources if h[j].is_reinforcement]
    faction = [i for i, c in enumerate(hands[seat]) if not c.is_reinforcement and c not in known]
    for i, (there, at) in zip(faction[: max(0, len(faction) - keep)], sources):
        hands[seat][i], there[at] = there[at], hands[seat][i]
    hands = [sorted(h, key=lambda c: c.id) for h in hands]
    moved = attrs.evolve(state, hands=tuple(map(tuple, hands)), draw_pile=tuple(draw), discard_pile=tuple(discard))
    assert spectator_view(moved) == spectator_view(state)
    return moved


def _first_week_with_reinforcements(players: int, seed: int, seat: int, keep: int) -> tuple[_Game, Chooser]:
    """A random game at step 1 of its first week, ``seat`` holding ``keep`` faction cards and the rest
    reinforcement cards: dealt and drafted face down, the hidden cards may lie anywhere, for all a spectator knows.
    """
    game, choose = _Game([engine.deal(GameConfig(players=players), seed)]), _random(seed)
    game.play(choose, until=_fresh_play_step(1, lambda s: True))
    moved = game.states[-1] = _reinforcements_into(game.now, seat, keep, set())
    assert sum(not c.is_reinforcement for c in moved.hands[seat]) == keep
    assert moved.table is not None and moved.table.emperor_card is not None
    return game, choose


def _traitor_play(state: GameState, seat: int) -> PlayCard:
    return next(a for a in engine.legal_actions(state, seat) if isinstance(a, PlayCard) and a.side is Side.EMPEROR)


# --------------------------------------------------------------------------- forged records are refused


@pytest.mark.spec("R-H", "4.2", "4.6")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_idle_while_a_revolution_side_card_of_an_earlier_step_is_on_the_table_is_refused(
    players: int,
) -> None:
    # The reviewer's repro: every card such a seat holds is playable, whatever it is.
    game, choose = _Game([engine.deal(GameConfig(players=players), 11)]), _random(4)
    game.play(choose, until=_fresh_play_step(2, lambda s: any(p.side is Side.REVOLUTION for p in _plays(s))))
    state = game.now
    forged = game.force({s: PlayNothing() if s == 0 else choose(state, s) for s in state.seats})
    game.play(choose)
    assert _refused_at(game.record()) == (forged, "R-H")


@pytest.mark.spec("R-H", "R-G", "4.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_idle_while_it_may_reinforce_a_traitor_card_of_an_earlier_step_is_refused(players: int) -> None:
    # Seat 0 holds reinforcement cards only and is idle at step 1; everyone else plays a traitor card. At
    # step 2 seat 0 made no traitor play, so it may reinforce one: it cannot be idle.
    game, choose = _first_week_with_reinforcements(players, 5, seat=0, keep=0)
    state = game.now
    for seat in state.seats:
        game.apply(seat, PlayNothing() if seat == 0 else _traitor_play(state, seat))
    state = game.now
    forged = game.force({s: PlayNothing() if s == 0 else choose(state, s) for s in state.seats})
    game.play(choose)
    assert _refused_at(game.record()) == (forged, "R-H")


@pytest.mark.spec("R-H", "4.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_idle_at_step_one_that_plays_a_faction_card_later_that_week_is_refused(players: int) -> None:
    # Idle at step 1 while holding cards means reinforcement cards only, until the re-organize.
    game, choose = _Game([engine.deal(GameConfig(players=players), 2)]), _random(3)
    game.play(choose, until=_fresh_play_step(1, lambda s: True))
    state = game.now
    game.force({s: PlayNothing() if s == 1 else choose(state, s) for s in state.seats})
    state = game.now
    assert state.phase is Phase.PLAY_2
    forged = game.force({s: _faction_play(state, s) if s == 1 else choose(state, s) for s in state.seats})
    game.play(choose)
    assert _refused_at(game.record()) == (forged, "R-H")


@pytest.mark.spec("R-H", "1.2")
@pytest.mark.parametrize("players", PLAYERS)
def test_idle_seats_holding_more_cards_than_there_are_reinforcement_cards_are_refused(players: int) -> None:
    # Two seats idle at step 1 with 7 cards each would hold 14 reinforcement cards; there are 10.
    game, choose = _Game([engine.deal(GameConfig(players=players), 8)]), _random(9)
    game.play(choose, until=_fresh_play_step(1, lambda s: True))
    state = game.now
    assert [len(state.hands[s]) for s in (0, 2)] == [7, 7]
    forged = game.force({s: PlayNothing() if s in (0, 2) else choose(state, s) for s in state.seats})
    game.play(choose)
    assert _refused_at(game.record()) == (forged, "R-H")


@pytest.mark.spec("R-H", "6.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_an_idle_seat_holding_more_cards_than_the_reinforcement_cards_not_known_in_the_discard_pile_is_refused(
    players: int,
) -> None:
    # Seven cards idle at step 1 while four reinforcement cards are known to lie in the discard pile: at most
    # six can be in the hands.
    game, choose = _Game([engine.deal(GameConfig(players=players), 2)]), _random(3)

    def four_known_discarded(s: GameState) -> bool:
        return sum(c.is_reinforcement and c in game.known for c in s.discard_pile) >= 4 and len(s.hands[0]) == 7

    game.play(choose, until=_fresh_play_step(1, four_known_discarded))
    state = game.now
    forged = game.force({s: PlayNothing() if s == 0 else choose(state, s) for s in state.seats})
    game.play(choose)
    with pytest.raises(PublicRecordError, match="discard pile") as caught:
        spectator_replay(game.record())
    assert (caught.value.step, caught.value.rule) == (forged, "R-H")


# --------------------------------------------------------------------------- genuine records are accepted


def _accepted(game: _Game) -> None:
    assert list(spectator_replay(game.record())) == [spectator_view(s) for s in game.states]


def _bot_game(players: int, seed: int, kinds: tuple[str, ...]) -> _Game:
    game = _Game([engine.deal(GameConfig(players=players), seed)])
    game.play(_bots([make_bot(kinds[s % len(kinds)], seed * 10 + s) for s in range(players)]))
    return game


@pytest.mark.spec("R-H", "9.3")
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("kinds", [("random",), ("greedy",), ("greedy", "random")])
def test_the_spectator_replay_accepts_genuine_games_of_random_and_greedy_bots(
    players: int, kinds: tuple[str, ...]
) -> None:
    for seed in range(17):  # 9 groups of 17: 153 games
        _accepted(_bot_game(players, seed, kinds))


def _reinforcement_heavy_game(players: int, seed: int) -> tuple[_Game, int, int]:
    """A random game whose hidden cards are rearranged at some week starts to give seats reinforcement cards.

    :returns: the game, and how many times a seat holding cards was idle at step 1 and at a later step.
    """
    rng, choose = random.Random(seed), _random(seed)
    game = _Game([engine.deal(GameConfig(players=players), seed)])
    idle_first = idle_later = 0
    while not game.now.is_over:
        state = game.now
        if state.phase in PLAY_PHASES and all(p is None for p in state.pending):
            if state.phase is Phase.PLAY_1 and rng.random() < 0.6:
                for seat in rng.sample(state.seats, rng.randint(1, 2)):
                    state = _reinforcements_into(state, seat, rng.choice([0, 0, 1, 2]), game.known)
                game.states[-1] = state
            idle = sum(1 for s in state.seats if engine.legal_actions(state, s) == (PlayNothing(),))
            idle_first += idle if state.phase is Phase.PLAY_1 else 0
            idle_later += 0 if state.phase is Phase.PLAY_1 else idle
        seat = min(engine.awaited_seats(state))
        game.apply(seat, choose(state, seat))
    return game, idle_first, idle_later


@pytest.mark.spec("R-H", "R-G", "9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_the_spectator_replay_accepts_genuine_games_where_seats_hold_reinforcement_cards_only(players: int) -> None:
    idle_first = idle_later = 0
    for game, first, later in (_reinforcement_heavy_game(players, seed) for seed in range(20)):
        _accepted(game)
        idle_first, idle_later = idle_first + first, idle_later + later
    assert idle_first >= 10 and idle_later >= 1  # the games do exercise the checks


@pytest.mark.spec("R-H", "R-G", "4.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_whose_only_targets_are_traitor_cards_it_may_no_longer_reinforce_may_be_idle(players: int) -> None:
    # Seat 0 holds one faction card and six reinforcement cards; everyone plays a traitor card at step 1,
    # so at step 2 seat 0, having made its traitor play, has nothing it may play.
    game, choose = _first_week_with_reinforcements(players, 1, seat=0, keep=1)
    state = game.now
    for seat in state.seats:
        game.apply(seat, _traitor_play(state, seat))
    assert engine.legal_actions(game.now, 0) == (PlayNothing(),)
    game.play(choose)
    _accepted(game)
