"""Whole games played by Hypothesis through the per-seat API, with every invariant checked after every step.

A :class:`GameMachine` deals a game for 3, 4 or 5 players and plays it to the end: each step picks an
awaited seat and one of its legal actions (``legal_actions`` / ``apply``), or a whole step at once through
the simultaneous transitions (``pass_cards`` ... ``reorganize``), which must give the same state. Before
each legal step it tries an illegal action of a chosen kind, which must raise the matching
:class:`~darkempire.rules.errors.IllegalActionError` and leave the state as it was. Between steps it stirs
Python's global ``random``; at the end, replaying the recorded choices must give the same final state.

The number of games scales with the Hypothesis profile (``HYPOTHESIS_PROFILE``): see :data:`GAMES`.
Spec: 1-9; rulings A-R.
"""

from __future__ import annotations

import collections
import functools
import os
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from darkempire.rules import engine
from darkempire.rules.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
    Side,
)
from darkempire.rules.cards import FACTION_CARDS, HAND_CARDS, REINFORCEMENT_CARDS, Faction, HandCard
from darkempire.rules.errors import (
    AlreadyChoseError,
    CardNotInHandError,
    IllegalActionError,
    InvalidPickUpError,
    InvalidPlacementError,
    InvalidTargetError,
    MissingChoiceError,
    NoEmperorCardError,
    ReinforcementOnFirstStepError,
    ReinforcementOnSameStepError,
    SecondTraitorCardError,
    SupportAlreadyUsedError,
    WrongCardCountError,
    WrongPhaseError,
    WrongSeatError,
)
from darkempire.rules.state import GameConfig, GameState, Phase
from invariants import check_state, check_transition

#: Complete games per player count, by Hypothesis profile. ``long`` runs 3 x 3,400 = 10,200 games.
GAMES: Mapping[str, int] = {"ci": 12, "dev": 2, "long": 3400}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
#: Games played to the end with every check passed, by player count: the figure a ``long`` run reports
#: (``pytest_terminal_summary`` in conftest.py prints it).
FINISHED: collections.Counter[int] = collections.Counter()
#: Rule calls per game; a game takes about 215 steps, and teardown plays whatever is left.
STEPS_PER_GAME = 240

_PLAY_PHASES = (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3)

#: The kinds of illegal action the machine tries before each legal step.
ILLEGAL_KINDS = (
    "seat out of range",
    "seat not awaited",
    "wrong action kind",
    "card not held",
    "wrong card count",
    "second traitor play",
    "traitor without emperor card",
    "reinforcement on first step",
    "reinforcement misused",
    "play nothing while holding a playable card",
    "used support faction",
    "bad pick-up",
    "bad placement",
    "wrong transition",
)

Attempt = tuple[int, Action, type[IllegalActionError]]

#: The simultaneous transition of each decision phase (rule 9.2).
TRANSITIONS: Mapping[Phase, Callable[[GameState, Any], GameState]] = {
    Phase.DRAFT_PASS: engine.pass_cards,
    Phase.DRAFT_DISCARD: engine.discard,
    Phase.CHOOSE_SUPPORT: engine.choose_support,
    Phase.PLAY_1: engine.play,
    Phase.PLAY_2: engine.play,
    Phase.PLAY_3: engine.play,
    Phase.PLACEMENT: engine.place_cards,
    Phase.REORGANIZE: engine.reorganize,
}


def _not_held(state: GameState, seat: int, pool: tuple[HandCard, ...]) -> list[HandCard]:
    return [c for c in pool if c not in state.hands[seat]]


def illegal_attempts(state: GameState, kind: str) -> list[Attempt]:
    """Illegal ``(seat, action, expected error)`` of ``kind`` that make sense in ``state`` (may be empty).

    The expected error is the most precise class the rule calls for (spec 9.1; see darkempire.rules.errors).
    """
    n = state.players
    awaited = sorted(engine.awaited_seats(state))
    phase = state.phase
    some_card = HAND_CARDS[0]
    if kind == "seat out of range":
        return [(seat, PlayCard(some_card), WrongSeatError) for seat in (-1, n, n + 3)]
    if phase is Phase.GAME_OVER:
        return [(seat, PlayCard(some_card), WrongPhaseError) for seat in state.seats]
    out: list[Attempt] = []
    if kind == "seat not awaited":
        for seat in state.seats:
            if seat in awaited:
                continue
            error = AlreadyChoseError if state.pending[seat] is not None else WrongSeatError
            hand = state.hands[seat]
            samples: list[Action] = [Reorganize(), ChooseSupport(Faction.WORKERS)]
            if len(hand) >= 2:
                samples += [PassCards(hand[:2]), DiscardCards(hand[:2])]
            if hand:
                samples.append(PlayCard(hand[0]))
            out += [(seat, a, error) for a in samples]
        return out
    for seat in awaited:
        hand = state.hands[seat]
        table = state.table
        if kind == "wrong action kind":
            samples = [ChooseSupport(Faction.STUDENTS), PlaceCards(()), Reorganize()]
            if len(hand) >= 2:
                samples += [PassCards(hand[:2]), DiscardCards(hand[:2])]
            if hand:
                samples += [PlayCard(hand[0]), Reinforce(hand[0], hand[0])]
            kinds = {
                Phase.DRAFT_PASS: (PassCards,),
                Phase.DRAFT_DISCARD: (DiscardCards,),
                Phase.CHOOSE_SUPPORT: (ChooseSupport,),
                Phase.PLACEMENT: (PlaceCards,),
                Phase.REORGANIZE: (Reorganize,),
            }.get(phase, (PlayCard, Reinforce, PlayNothing))
            out += [(seat, a, WrongPhaseError) for a in samples if not isinstance(a, kinds)]
        elif kind == "card not held":
            other = _not_held(state, seat, FACTION_CARDS)[0]
            other_reinforcement = _not_held(state, seat, REINFORCEMENT_CARDS)[0]
            if phase is Phase.DRAFT_PASS:
                out.append((seat, PassCards((hand[0], other)), CardNotInHandError))
            elif phase is Phase.DRAFT_DISCARD:
                out.append((seat, DiscardCards((other, hand[-1])), CardNotInHandError))
            elif phase in _PLAY_PHASES:
                out.append((seat, PlayCard(other, Side.REVOLUTION), CardNotInHandError))
                assert table is not None
                target = table.plays[0].card if table.plays else other
                out.append((seat, Reinforce(other_reinforcement, target), CardNotInHandError))
            elif phase is Phase.REORGANIZE:
                out.append((seat, Reorganize(None, frozenset(hand[:1]) | {other}), CardNotInHandError))
        elif kind == "wrong card count" and phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
            action_type = PassCards if phase is Phase.DRAFT_PASS else DiscardCards
            out += [(seat, action_type(hand[:k]), WrongCardCountError) for k in (0, 1, 3)]
        elif kind == "second traitor play" and phase in _PLAY_PHASES:
            assert table is not None
            if table.emperor_card is not None and table.has_traitor_play(seat):
                out += [(seat, PlayCard(c, Side.EMPEROR), SecondTraitorCardError) for c in hand if c.faction]
                reinforcements = [c for c in hand if c.is_reinforcement]
                if reinforcements and phase is not Phase.PLAY_1:
                    out += [
                        (seat, Reinforce(reinforcements[0], p.card), SecondTraitorCardError)
                        for p in table.traitor_plays()
                    ]
        elif kind == "traitor without emperor card" and phase in _PLAY_PHASES:
            assert table is not None
            if table.emperor_card is None:
                out += [(seat, PlayCard(c, Side.EMPEROR), NoEmperorCardError) for c in hand if c.faction]
        elif kind == "reinforcement on first step" and phase is Phase.PLAY_1:
            target = _not_held(state, seat, FACTION_CARDS)[0]
            out += [(seat, Reinforce(c, target), ReinforcementOnFirstStepError) for c in hand if c.is_reinforcement]
        elif kind == "reinforcement misused" and phase in _PLAY_PHASES:
            assert table is not None
            reinforcements = [c for c in hand if c.is_reinforcement]
            out += [(seat, PlayCard(c), InvalidTargetError) for c in reinforcements]
            if phase is not Phase.PLAY_1:
                # Targets that are no faction card on this week's table (ruling G).
                off_table = [c for c in (*hand, *FACTION_CARDS[:3]) if table.play_of(c) is None]
                out += [(seat, Reinforce(r, c), InvalidTargetError) for r in reinforcements[:1] for c in off_table[:3]]
                faction_cards = [c for c in hand if c.faction is not None]
                if faction_cards and table.plays:
                    out.append((seat, Reinforce(faction_cards[0], table.plays[0].card), InvalidTargetError))
        elif kind == "play nothing while holding a playable card" and phase in _PLAY_PHASES:
            if any(not isinstance(a, PlayNothing) for a in engine.legal_actions(state, seat)):
                out.append((seat, PlayNothing(), IllegalActionError))
        elif kind == "used support faction" and phase is Phase.CHOOSE_SUPPORT:
            out += [(seat, ChooseSupport(f), SupportAlreadyUsedError) for f in sorted(state.support_used[seat])]
        elif kind == "bad pick-up" and phase is Phase.REORGANIZE:
            assert table is not None
            # Another seat's card, a traitor card, a reinforcement, a hand card, a scored card (ruling K).
            bad = [p.card for p in table.plays] + [r.card for p in table.plays for r in p.reinforcements]
            bad += list(hand[:1]) + [s.card for s in state.score_track.faction_cards[-2:]] + list(FACTION_CARDS[:2])
            for card in bad:
                play = table.play_of(card)
                if play is None or play.seat != seat or play.side is Side.EMPEROR:
                    out.append((seat, Reorganize(card), InvalidPickUpError))
        elif kind == "bad placement" and phase is Phase.PLACEMENT:
            legal = engine.legal_actions(state, seat)
            assert isinstance(legal[0], PlaceCards)
            chosen = sorted(legal[0].cards, key=lambda c: c.id)
            out.append((seat, PlaceCards(()), WrongCardCountError))
            extra = next(c for c in FACTION_CARDS if c.faction not in {x.faction for x in chosen})
            out.append((seat, PlaceCards([*chosen, extra]), WrongCardCountError))
            for i, card in enumerate(chosen):
                allowed = {a.cards for a in legal if isinstance(a, PlaceCards)}
                same_faction = [c for c in FACTION_CARDS if c.faction is card.faction and c != card]
                for wrong in same_faction:
                    cards = frozenset(chosen[:i] + [wrong] + chosen[i + 1 :])
                    if cards not in allowed:
                        out.append((seat, PlaceCards(cards), InvalidPlacementError))
                        break
    return out


def wrong_transitions(state: GameState) -> list[tuple[Callable[[], object], type[IllegalActionError]]]:
    """Transition calls that do not fit ``state``: each must raise the given error (rule 9.1, 9.2)."""
    calls: list[tuple[Callable[[], object], type[IllegalActionError]]] = []
    for phase, transition in TRANSITIONS.items():
        if transition is not TRANSITIONS.get(state.phase):
            calls.append((functools.partial(transition, state, {}), WrongPhaseError))
    calls.append((lambda: engine.score_week(state), WrongPhaseError))
    calls.append((lambda: engine.score_month(state), WrongPhaseError))
    if state.phase is not Phase.GAME_OVER:
        calls.append((lambda: engine.judge_winner(state), WrongPhaseError))
        if engine.awaited_seats(state):
            calls.append((functools.partial(TRANSITIONS[state.phase], state, {}), MissingChoiceError))
    return calls


class GameMachine(RuleBasedStateMachine):
    """Plays one complete game of :attr:`players` seats per Hypothesis example (spec 1-9)."""

    players = 4

    def __init__(self) -> None:
        super().__init__()
        self.seed = 0
        self.state = engine.deal(GameConfig(players=self.players), 0)
        self.choices: list[tuple[int, Action]] = []
        self.busy = False
        self.global_random_calls = 0

    # ------------------------------------------------------------------ helpers

    def _apply(self, seat: int, action: Action) -> None:
        before = self.state
        assert action in engine.legal_actions(before, seat)
        after = engine.apply(before, seat, action)
        check_transition(before, seat, action, after)
        check_state(after, max(0, len(before.history) - 1))
        self.choices.append((seat, action))
        self.state = after

    def _pick_legal(self, pick: int) -> tuple[int, Action]:
        seats = sorted(engine.awaited_seats(self.state))
        seat = seats[pick % len(seats)]
        actions = engine.legal_actions(self.state, seat)
        return seat, actions[(pick // len(seats)) % len(actions)]

    def _try_illegal(self, kind: str, pick: int) -> None:
        before = self.state
        if kind == "wrong transition":
            calls = wrong_transitions(before)
            call, error = calls[pick % len(calls)]
            with pytest.raises(error):
                call()
            assert self.state == before
            return
        attempts = illegal_attempts(before, kind)
        if not attempts:
            return
        seat, action, error = attempts[pick % len(attempts)]
        if 0 <= seat < before.players:
            assert action not in engine.legal_actions(before, seat), f"{action} is listed as legal"
        with pytest.raises(IllegalActionError) as caught:
            engine.apply(before, seat, action)
        if error is IllegalActionError:
            assert isinstance(caught.value, error)
        else:
            assert type(caught.value) is error, f"{action} by seat {seat} raised {caught.value!r}, not {error.__name__}"
        assert caught.value.rule and caught.value.rule in str(caught.value)
        assert self.state == before

    # ------------------------------------------------------------------ rules

    @initialize(seed=st.integers(min_value=0, max_value=2**63))
    def deal(self, seed: int) -> None:
        self.seed = seed
        self.state = engine.deal(GameConfig(players=self.players), seed)
        check_state(self.state)

    @precondition(lambda self: not self.state.is_over)
    @rule(pick=st.integers(min_value=0, max_value=2**16), kind=st.sampled_from(ILLEGAL_KINDS))
    def act(self, pick: int, kind: str) -> None:
        """Try an illegal action of ``kind``, then apply one legal action of one awaited seat."""
        self.busy = True
        self._try_illegal(kind, pick)
        self._apply(*self._pick_legal(pick))
        self.busy = False

    @precondition(lambda self: not self.state.is_over and not any(self.state.pending))
    @rule(pick=st.integers(min_value=0, max_value=2**16))
    def act_together(self, pick: int) -> None:
        """Resolve a whole step through the simultaneous transition; it must equal the per-seat applies."""
        self.busy = True
        before = self.state
        seats = sorted(engine.awaited_seats(before))
        choices: dict[int, Action] = {}
        for i, seat in enumerate(seats):
            actions = engine.legal_actions(before, seat)
            choices[seat] = actions[(pick + 7919 * i) % len(actions)]
        transition = TRANSITIONS[before.phase]
        together = transition(before, choices)
        if len(seats) >= 2:
            with pytest.raises(MissingChoiceError):
                transition(before, dict(list(choices.items())[1:]))
        self.try_same_step_reinforcement(before, choices)
        for seat in seats:
            self._apply(seat, choices[seat])
        assert self.state == together, "the simultaneous transition and the per-seat applies disagree (rule 9.2)"
        self.busy = False

    @rule(seed=st.integers(min_value=0, max_value=2**32))
    def stir_global_random(self, seed: int) -> None:
        """Use Python's global ``random`` between steps; replay at teardown must not notice (rule 9.3)."""
        random.seed(seed)
        random.random()
        random.shuffle(list(range(10)))
        self.global_random_calls += 1

    @precondition(lambda self: self.state.is_over)
    @rule(pick=st.integers(min_value=0, max_value=2**16), kind=st.sampled_from(ILLEGAL_KINDS))
    def act_after_game_over(self, pick: int, kind: str) -> None:
        """Nothing can be done once the game is over (rule 9.1)."""
        self._try_illegal(kind, pick)

    def try_same_step_reinforcement(self, state: GameState, choices: Mapping[int, Action]) -> None:
        """A reinforcement on a card played in the same step is illegal (rule 4.6); only ``play`` can say it."""
        if state.phase not in (Phase.PLAY_2, Phase.PLAY_3):
            return
        for seat in choices:
            reinforcements = [c for c in state.hands[seat] if c.is_reinforcement]
            targets = [a.card for s, a in choices.items() if s != seat and isinstance(a, PlayCard)]
            if reinforcements and targets:
                bad: dict[int, Any] = dict(choices)
                bad[seat] = Reinforce(reinforcements[0], targets[0])
                with pytest.raises(ReinforcementOnSameStepError):
                    engine.play(state, bad)
                return

    def teardown(self) -> None:
        """Finish the game with seeded random legal choices, then replay it (rules 8, 9.3)."""
        if self.busy:
            return  # a rule failed: report that failure, not a later one
        rng = random.Random(self.seed)
        while not self.state.is_over:
            self._try_illegal(rng.choice(ILLEGAL_KINDS), rng.randrange(2**16))
            self._apply(*self._pick_legal(rng.randrange(2**16)))
        assert self.state.verdict is not None and self.state.verdict == engine.judge_winner(self.state)
        assert engine.replay(self.state.config, self.seed, self.choices) == self.state, "replay differs (9.3)"
        FINISHED[self.players] += 1


class Game3Machine(GameMachine):
    """Three seats, no add-on card (rule 2.2)."""

    players = 3


class Game4Machine(GameMachine):
    """Four seats, the "5 +" add-on card (rule 2.2)."""

    players = 4


class Game5Machine(GameMachine):
    """Five seats, the "10 +" add-on card (rule 2.2)."""

    players = 5


for _machine in (Game3Machine, Game4Machine, Game5Machine):
    _machine.TestCase.settings = settings(
        max_examples=GAMES.get(PROFILE, settings().max_examples // 10 + 1),
        stateful_step_count=STEPS_PER_GAME,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@pytest.mark.spec(
    "1.2", "1.3", "1.4", "2.3", "2.4", "2.5", "2.6", "3.1", "3.2", "3.3", "4.2", "4.4", "4.5", "4.6",
    "5.1", "5.2", "5.4", "5.5", "5.6", "5.7", "6.4", "7.2", "7.3", "7.4", "8.1", "8.2", "8.3", "8.4", "8.5",
    "9.1", "9.2", "9.3", "R-A", "R-B", "R-C", "R-D", "R-E", "R-F", "R-G", "R-H", "R-J", "R-K", "R-L", "R-M",
    "R-N",
)
@pytest.mark.parametrize("machine", [Game3Machine, Game4Machine, Game5Machine], ids=["3p", "4p", "5p"])
def test_whole_games_keep_every_invariant(machine: type[GameMachine]) -> None:
    """Complete games for 3, 4 and 5 players keep every invariant of tests/invariants.py after every step."""
    before = FINISHED[machine.players]
    machine.TestCase().runTest()
    # Every example is a whole game (teardown plays out the rest), so the profile's count of games was played.
    assert FINISHED[machine.players] - before >= machine.TestCase.settings.max_examples


def _state_at_second_step(players: int, seed: int) -> GameState:
    """A game at its first week's second play step, played with the first legal action of each seat."""
    state = engine.deal(GameConfig(players=players), seed)
    while state.phase is not Phase.PLAY_2:
        seat = min(engine.awaited_seats(state))
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    return state


@pytest.mark.spec("4.6", "9.2")
def test_reinforcement_on_same_step_has_its_own_error() -> None:
    """``play`` with a reinforcement aimed at a card revealed in the same step raises
    :class:`ReinforcementOnSameStepError` (rule 4.6; issue 2 asks one clear error per kind)."""
    for seed in range(200):
        state = _state_at_second_step(4, seed)
        holders = [s for s in sorted(engine.awaited_seats(state)) if any(c.is_reinforcement for c in state.hands[s])]
        if holders:
            break
    else:
        pytest.fail("no seed gives a seat a reinforcement card at the second step")
    reinforcer = holders[0]
    choices: dict[int, Any] = {}
    for seat in sorted(engine.awaited_seats(state)):
        if seat != reinforcer:
            choices[seat] = next(a for a in engine.legal_actions(state, seat) if isinstance(a, PlayCard))
    target = next(iter(choices.values())).card
    reinforcement = next(c for c in state.hands[reinforcer] if c.is_reinforcement)
    choices[reinforcer] = Reinforce(reinforcement, target)
    with pytest.raises(ReinforcementOnSameStepError) as caught:
        engine.play(state, choices)
    assert caught.value.rule == "4.6"


def _game_with_global_noise(players: int, seed: int, noise: int | None) -> list[GameState]:
    """Every state of a game whose choices come from a private ``Random(seed)``; with ``noise``, Python's
    global ``random`` is reseeded and drawn from before every step."""
    choices = random.Random(seed)
    if noise is not None:
        random.seed(noise)
    states = [engine.deal(GameConfig(players=players), seed)]
    while not states[-1].is_over:
        if noise is not None:
            random.seed(noise + len(states))
            random.random()
            random.shuffle([1, 2, 3])
        state = states[-1]
        seat = choices.choice(sorted(engine.awaited_seats(state)))
        states.append(engine.apply(state, seat, choices.choice(engine.legal_actions(state, seat))))
    return states


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_games_do_not_depend_on_global_random(players: int) -> None:
    """The same config, seed and choices give the same game, step by step, whatever Python's global
    ``random`` does in between (rule 9.3): the engine's chance lives in the state."""
    quiet = _game_with_global_noise(players, 11 * players, None)
    noisy = _game_with_global_noise(players, 11 * players, 12345)
    other = _game_with_global_noise(players, 11 * players, 999)
    assert quiet == noisy == other
    assert quiet[-1].is_over and quiet[-1].verdict is not None
    # A different seed is a different game: the comparison above is not vacuous.
    assert _game_with_global_noise(players, 11 * players + 1, None)[0] != quiet[0]
