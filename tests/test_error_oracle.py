"""Errors are no oracle: what a call answers a seat depends only on what that seat may see (spec 9.4, issue 12).

A seat learns from an error as much as from a view. If ``play({...})`` answered "reinforcement on a card
played in the same step" (rule 4.6) for exactly the card another seat chose face down, and "card not in
hand" for every other card, a seat could read that hidden card by trying all 65. So every check that a
seat's own information decides (its hand, the public table) runs before any that looks at another seat's
choice, and no check consults a pending choice at all: a card another seat chose but has not revealed is
"not on the table", like any other.

The property builds twin states that differ only in what seat ``p`` may not see
(:func:`test_views_leak.resample_hidden`: other hands and piles redistributed, other victor cards permuted,
other pending choices re-picked) and requires every call by or for ``p`` to give the same outcome in both:
success, or the same error type, rule and message. The calls are every candidate action of the phase's
kinds over all 75 hand cards, legal or not, through :func:`~darkempire.rules.engine.apply` and through the
phase's all-seats transition, alone and together with the other seats' choices.

Also here: non-state arguments and forged cards give typed errors (issue 12, fault 7).
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import pytest
from builders import CO, ME, ST, SU, W, build, card, emperor, plus, rev_play, traitor_play, week_table
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_views_leak import play_until, resample_hidden

from darkempire.rules import engine, events, views
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
from darkempire.rules.cards import FACTION_CARDS, HAND_CARDS, REINFORCEMENT_CARDS, Faction, FactionCard, HandCard, ReinforcementCard
from darkempire.rules.errors import (
    CardNotInHandError,
    DarkEmpireError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidPickUpError,
    InvalidPlacementError,
    InvalidTargetError,
    ReinforcementOnSameStepError,
    WrongPhaseError,
)
from darkempire.rules.state import DECISION_PHASES, PLAY_PHASES, GameConfig, GameState, Phase

#: Hypothesis examples (random states) for the property, by profile.
STATES: Mapping[str, int] = {"ci": 60, "dev": 15, "long": 3000}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")

PlayChoices = dict[int, PlayCard | Reinforce | PlayNothing]

Outcome = tuple[str, str, str]
"""``("ok", "", "")``, or an error's type name, rule (empty for an error without one) and message."""

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


def outcome(call: Callable[[], object]) -> Outcome:
    """What a call tells its caller. Any exception that is not a :class:`DarkEmpireError` propagates."""
    try:
        call()
    except IllegalActionError as error:
        return type(error).__name__, error.rule, str(error)
    except DarkEmpireError as error:
        return type(error).__name__, "", str(error)
    return "ok", "", ""


# --------------------------------------------------------------------------- (1) the regression of the issue


def step_2_with_a_hidden_card() -> GameState:
    """Play step 2 of a 4-player week; seat 1 has chosen, face down through ``apply``, its Cal. Order 4.

    Step 1 was seat 0 W6, seat 1 CO5, seat 2 SU4 and seat 3 a traitor ME7. Seat 0 holds a +3, seat 2 none.
    """
    table = week_table(
        4,
        ST,
        emperor(11),
        (rev_play(0, card(W, 6), 1), rev_play(1, card(CO, 5), 1), rev_play(2, card(SU, 4), 1),
         traitor_play(3, card(ME, 7), 1)),
        steps_revealed=1,
    )
    hands: dict[int, list[HandCard]] = {0: [plus(0), card(ST, 4)], 1: [plus(2), card(CO, 4)], 2: [card(SU, 5)], 3: [plus(1), card(ST, 5)]}
    state = build(4, Phase.PLAY_2, table=table, hands=hands, hand_size=6)
    return engine.apply(state, 1, PlayCard(card(CO, 4)))


def _general(error: Outcome, named: HandCard) -> Outcome:
    """The outcome with the card the caller named replaced by a placeholder."""
    kind, rule, message = error
    return kind, rule, message.replace(named.label(), "<X>")


@pytest.mark.spec("4.6", "9.4", "R-G")
def test_a_reinforcement_not_held_answers_the_same_for_every_target() -> None:
    """The issue's oracle: seat 2 holds no +3 and sends ``Reinforce(+3, X)`` with the other seats' plays, for
    each of the 65 faction cards X. It does not hold the +3, so every X gets the same CardNotInHandError;
    before the fix, X = seat 1's hidden card (and the cards of the same mapping) got rule 4.6 instead."""
    state = step_2_with_a_hidden_card()
    outcomes = set()
    for x in FACTION_CARDS:
        choices: PlayChoices = {0: PlayCard(card(ST, 4)), 2: Reinforce(plus(5), x), 3: PlayCard(card(ST, 5))}
        outcomes.add(outcome(lambda: engine.play(state, choices)))
    assert outcomes == {("CardNotInHandError", "4.2", "seat 2 does not hold +3 #70 (rule 4.2)")}


@pytest.mark.spec("4.6", "9.4", "R-G")
def test_a_reinforcement_on_the_hidden_card_is_like_one_on_any_card_off_the_table() -> None:
    """Seat 0 holds its +3: aimed at seat 1's hidden card, it gets the answer of every other card that is not
    on the table (an invalid target, ruling G). Only a card played in the same call is "the same step"."""
    state = step_2_with_a_hidden_card()
    assert state.table is not None
    on_table = set(state.table.cards())
    same_call = {card(SU, 5), card(ST, 5)}
    answers: dict[Outcome, set[HandCard]] = {}
    for x in FACTION_CARDS:
        if x in on_table:
            continue
        choices: PlayChoices = {0: Reinforce(plus(0), x), 2: PlayCard(card(SU, 5)), 3: PlayCard(card(ST, 5))}
        answers.setdefault(_general(outcome(lambda: engine.play(state, choices)), x), set()).add(x)
    not_on_table = (
        "InvalidTargetError", "R-G", "<X> is not a faction card played in an earlier step this week (rule R-G)"
    )
    same_step = (
        "ReinforcementOnSameStepError", "4.6",
        "seat 0 cannot attach a reinforcement to a card played in the same step (rule 4.6)",
    )
    assert answers.keys() == {not_on_table, same_step}
    assert answers[same_step] == same_call
    assert card(CO, 4) in answers[not_on_table]


@pytest.mark.spec("4.6", "9.4")
def test_a_seat_own_error_comes_before_a_same_step_error() -> None:
    """When one call is wrong in two ways, the submitting seats' own information decides first: seat 3's card
    not in hand is reported before seat 0's reinforcement on seat 2's card of the same call."""
    state = step_2_with_a_hidden_card()
    choices: PlayChoices = {0: Reinforce(plus(0), card(SU, 5)), 2: PlayCard(card(SU, 5)), 3: PlayCard(card(ST, 8))}
    assert outcome(lambda: engine.play(state, choices))[:2] == ("CardNotInHandError", "4.2")
    choices[3] = PlayCard(card(ST, 5))
    with pytest.raises(ReinforcementOnSameStepError):
        engine.play(state, choices)


# --------------------------------------------------------------------------- (2) the property


def candidates(state: GameState, seat: int) -> list[Action]:
    """Actions of the phase's kinds for ``seat`` over all hand cards, legal or not, and one of another kind."""
    phase = state.phase
    hand = state.hands[seat]
    legal = list(engine.legal_actions(state, seat))
    out: list[Action] = legal[:6] + [Reorganize() if phase in PLAY_PHASES else PlayNothing()]
    if phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        kind = PassCards if phase is Phase.DRAFT_PASS else DiscardCards
        anchor = hand[0] if hand else HAND_CARDS[0]
        out += [kind(frozenset({anchor, c})) for c in HAND_CARDS]  # c == anchor: a single card
        out += [kind(frozenset({c, HAND_CARDS[(c.id + 1) % 75]})) for c in HAND_CARDS]
        out += [kind(frozenset(hand[:3])), kind(frozenset())]
    elif phase is Phase.CHOOSE_SUPPORT:
        out += [ChooseSupport(f) for f in Faction]
    elif phase in PLAY_PHASES:
        out += [PlayCard(c, side) for c in FACTION_CARDS for side in Side]
        out += [PlayCard(r) for r in REINFORCEMENT_CARDS] + [PlayNothing()]
        out += [Reinforce(r, t) for r in REINFORCEMENT_CARDS for t in FACTION_CARDS]
    elif phase is Phase.PLACEMENT:
        out += [PlaceCards(frozenset({c})) for c in HAND_CARDS] + [PlaceCards(frozenset())]
        out += [PlaceCards(a.cards | {c}) for a in legal[:2] if isinstance(a, PlaceCards) for c in FACTION_CARDS[::4]]
    elif phase is Phase.REORGANIZE:
        out += [Reorganize(c) for c in FACTION_CARDS]
        out += [Reorganize(None, frozenset({c})) for c in HAND_CARDS]
        out += [Reorganize(None, frozenset(hand) | {c}) for c in HAND_CARDS[::3]]
    return out


def others_in_mapping(state: GameState, seat: int, rng: random.Random) -> tuple[GameState, dict[int, Action]]:
    """The state with the other seats' pending choices taken back, and those choices, plus a legal choice for
    every other seat still awaited: the mapping a caller for all those seats would send with ``seat``'s."""
    choices = {s: a for s, a in enumerate(state.pending) if a is not None and s != seat}
    cleared = attrs.evolve(state, pending=tuple(a if s == seat else None for s, a in enumerate(state.pending)))
    for s in sorted(engine.awaited_seats(cleared) - {seat} - set(choices)):
        choices[s] = rng.choice(engine.legal_actions(cleared, s))
    return cleared, choices


def _played(choices: Mapping[int, Action]) -> set[HandCard]:
    return {a.card for a in choices.values() if isinstance(a, PlayCard)}


def outcomes_for(
    state: GameState, seat: int, actions: list[Action], rng: random.Random, skip_targets: set[HandCard]
) -> Iterator[tuple[str, Action, Outcome]]:
    """Every call by or for ``seat`` with each action: ``apply``; the all-seats transition with ``seat``'s
    choice alone (the other seats' choices pending or missing); and with the others' choices in the mapping,
    for the actions that do not aim a reinforcement at one of ``skip_targets`` (cards the mapping's other
    seats play: that answer depends on the mapping, which its caller knows)."""
    transition = TRANSITIONS.get(state.phase, engine.play)  # after the game: any transition is refused
    cleared, choices = others_in_mapping(state, seat, rng)
    yield "legal_actions", PlayNothing(), ("ok", "", repr(engine.legal_actions(state, seat)))
    for action in actions:
        yield "apply", action, outcome(lambda: engine.apply(state, seat, action))
        yield "alone", action, outcome(lambda: transition(state, {seat: action}))
        if not (isinstance(action, Reinforce) and action.target in skip_targets):
            yield "with others", action, outcome(lambda: transition(cleared, {**choices, seat: action}))


def assert_no_oracle(state: GameState, seat: int, rng: random.Random, twins: int = 1) -> None:
    """Every call by or for ``seat`` answers the same in ``state`` and in ``twins`` states that differ only in
    what ``seat`` may not see (spec 9.4).

    :raises AssertionError: naming the first call whose answer differs.
    """
    actions = candidates(state, seat)
    for _ in range(twins):
        twin = resample_hidden(state, seat, rng)
        mapping_seed = rng.randrange(2**32)
        skip = _played(others_in_mapping(state, seat, random.Random(mapping_seed))[1])
        skip |= _played(others_in_mapping(twin, seat, random.Random(mapping_seed))[1])
        here = outcomes_for(state, seat, actions, random.Random(mapping_seed), skip)
        there = outcomes_for(twin, seat, actions, random.Random(mapping_seed), skip)
        for (how, action, mine), (_, _, theirs) in zip(here, there, strict=True):
            assert mine == theirs, (
                f"{how} of {action} for seat {seat} in {state.phase.name} tells hidden information: "
                f"{mine} in one state, {theirs} in its twin"
            )


def _seat_to_check(state: GameState, rng: random.Random) -> int:
    """An awaited seat that has not chosen yet (the interesting caller), else any seat."""
    free = sorted(s for s in engine.awaited_seats(state) if state.pending[s] is None)
    return rng.choice(free) if free else rng.choice(list(state.seats))


@pytest.mark.spec("9.4", "9.2", "4.6")
@settings(max_examples=STATES.get(PROFILE, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(min_value=0, max_value=2**63),
    steps=st.integers(min_value=0, max_value=150),  # more would often end the game before the target
    target=st.sampled_from(sorted(DECISION_PHASES, key=lambda p: list(Phase).index(p))),
    choices=st.randoms(use_true_random=False),
    resample_seed=st.integers(min_value=0, max_value=2**32),
)
def test_errors_do_not_depend_on_hidden_information(
    players: int, seed: int, steps: int, target: Phase, choices: random.Random, resample_seed: int
) -> None:
    """Random states of every decision phase, with some seats' choices pending: every call by or for a seat
    answers the same (success, or the same error type, rule and message) when only what it may not see changes."""
    state = play_until(players, seed, steps, target, choices)
    rng = random.Random(resample_seed)
    seat = _seat_to_check(state, rng)
    event(f"phase {state.phase.name}")
    event(f"others pending: {any(a is not None for s, a in enumerate(state.pending) if s != seat)}")
    assert_no_oracle(state, seat, rng)


def _a_state_with_a_hidden_play() -> tuple[GameState, int]:
    """A 4-player state at play step 2 or 3 where another seat has chosen a card face down, and the seat."""
    for seed in range(200):
        rng = random.Random(seed)
        state = play_until(4, seed, 20, Phase.PLAY_2 if seed % 2 else Phase.PLAY_3, rng)
        hidden = [s for s, a in enumerate(state.pending) if isinstance(a, PlayCard)]
        free = [s for s in engine.awaited_seats(state) if state.pending[s] is None]
        if hidden and free and state.phase in (Phase.PLAY_2, Phase.PLAY_3):
            return state, free[0]
    raise AssertionError("no seed gives a hidden play with a seat still to choose")


@pytest.mark.spec("9.4")
def test_a_planted_oracle_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card check whose message says whether another seat holds the card fails :func:`assert_no_oracle`:
    the property would catch such an oracle in the engine."""
    real = engine._require_in_hand

    def leaky(state: GameState, seat: int, cards: Any, rule: str) -> None:
        for c in cards:
            if any(c in hand for s, hand in enumerate(state.hands) if s != seat):
                raise CardNotInHandError(f"seat {seat} does not hold {c.label()}, another seat does", rule=rule)
        real(state, seat, cards, rule)

    state, seat = _a_state_with_a_hidden_play()
    assert_no_oracle(state, seat, random.Random(0))
    monkeypatch.setattr(engine, "_require_in_hand", leaky)
    with pytest.raises(AssertionError, match="tells hidden information"):
        assert_no_oracle(state, seat, random.Random(0))


# --------------------------------------------------------------------------- (3) fault 7: typed argument errors


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("value", ["state", None, 0, {}], ids=repr)
def test_a_non_state_is_an_argument_error(value: Any) -> None:
    """Every engine entry point that takes a state says so for anything else, by name and type."""
    action = engine.legal_actions(engine.deal(GameConfig(players=3), 1), 0)[0]
    calls: dict[str, Callable[[], object]] = {
        "apply": lambda: engine.apply(value, 0, action),
        "legal_actions": lambda: engine.legal_actions(value, 0),
        "awaited_seats": lambda: engine.awaited_seats(value),
        "advance": lambda: engine.advance(value),
        "score_week": lambda: engine.score_week(value),
        "score_month": lambda: engine.score_month(value),
    }
    for transition in set(TRANSITIONS.values()):
        calls[transition.__name__] = functools.partial(transition, value, {0: action})
    for name, call in calls.items():
        with pytest.raises(InvalidArgumentError) as caught:
            call()
        assert str(caught.value) == f"{name} takes a GameState, not {type(value).__name__}"


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    ("choices", "words"),
    [
        (None, "replay takes an iterable of (seat, action) pairs, not NoneType"),
        (5, "replay takes an iterable of (seat, action) pairs, not int"),
        ("01", "replay takes an iterable of (seat, action) pairs, not str"),
        ([(0,)], "choice 0 is not a (seat, action) pair: (0,)"),
        ([1], "choice 0 is not a (seat, action) pair: 1"),
        ([(0, None, 1)], "choice 0 is not a (seat, action) pair: (0, None, 1)"),
    ],
    ids=repr,
)
def test_replay_of_choices_that_are_no_pairs_is_an_argument_error(choices: Any, words: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        engine.replay(GameConfig(players=3), 1, choices)
    assert str(caught.value) == words


@pytest.mark.spec("9.3")
def test_replay_names_a_bad_pair_after_good_ones() -> None:
    """The index counts the good choices before the bad one; a list of two is a pair too."""
    state = engine.deal(GameConfig(players=3), 1)
    choices: list[Any] = [[0, engine.legal_actions(state, 0)[0]], (1,)]
    with pytest.raises(InvalidArgumentError, match="choice 1 is not"):
        engine.replay(GameConfig(players=3), 1, choices)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize(
    ("given", "words"),
    [(None, "not NoneType"), (0, "not int"), ("events", "not str"), ([1], "item 0 given to events_for is no event: 1")],
    ids=repr,
)
def test_events_for_of_no_events_is_an_argument_error(given: Any, words: str) -> None:
    """``events_for`` refuses what is no list of events, and an item of no event type: it cannot be redacted.
    Real events, from any iterable, still pass."""
    with pytest.raises(InvalidArgumentError, match=words):
        events.events_for(given, 0)
    with pytest.raises(InvalidArgumentError, match=words):
        events.events_for(given, None)
    opening = events.opening_events(engine.deal(GameConfig(players=3), 1))
    assert len(events.events_for(iter(opening), 0)) == 2  # the game's start and seat 0's own hand


# --------------------------------------------------------------------------- (3) fault 7: forged cards


class AlwaysEqualCard(FactionCard):
    """A forged card: a real card's fields, and an ``__eq__`` that says True to anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return object.__hash__(self)  # two forgeries are two elements of a frozenset


class AlwaysEqualReinforcement(ReinforcementCard):
    """A forged reinforcement card, equal to anything like :class:`AlwaysEqualCard`."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return object.__hash__(self)


class Joker:
    """No card at all, equal to anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


#: A :class:`Joker`, typed as anything, for the fields that take a card.
JOKER: Any = Joker()


def forged(real: HandCard) -> HandCard:
    if isinstance(real, FactionCard):
        return AlwaysEqualCard(id=real.id, faction=real.faction, value=real.value)
    return AlwaysEqualReinforcement(id=real.id)


def _first(players: int, wanted: Callable[[GameState, int], bool], seeds: range = range(300)) -> tuple[GameState, int]:
    """The first state of seeded random play with an awaited seat that has not chosen and ``wanted`` holds."""
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.deal(GameConfig(players=players), seed)
        while not state.is_over:
            for seat in sorted(engine.awaited_seats(state)):
                if wanted(state, seat):
                    return state, seat
            seat = rng.choice(sorted(engine.awaited_seats(state)))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    raise AssertionError("no seed gives the state wanted")


def _not_held(state: GameState, seat: int, pool: tuple[HandCard, ...] = FACTION_CARDS) -> HandCard:
    on_table = set(state.table.cards()) if state.table is not None else set()
    return next(c for c in pool if c not in state.hands[seat] and c not in on_table)


def _refused(state: GameState, seat: int, action: Action, error: type[IllegalActionError], rule: str) -> str:
    """``action`` is refused with ``error`` through ``apply`` and through the transition; returns the message."""
    before = attrs.evolve(state)
    with pytest.raises(IllegalActionError) as caught:
        engine.apply(state, seat, action)
    assert type(caught.value) is error and caught.value.rule == rule, caught.value
    if engine.awaited_seats(state) == {seat}:
        with pytest.raises(error):
            TRANSITIONS[state.phase](state, {seat: action})
    assert state == before
    return caught.value.message


def _in_phase(phase: Phase, state: GameState, seat: int) -> bool:
    return state.phase is phase


def _reinforcer(state: GameState, seat: int) -> bool:
    return state.phase in (Phase.PLAY_2, Phase.PLAY_3) and any(c.is_reinforcement for c in state.hands[seat])


def _places(state: GameState, seat: int) -> bool:
    return state.phase is Phase.PLACEMENT


def _owner_first(state: GameState, seat: int) -> bool:
    """At re-organize, the table's first play is this seat's own revolution-side card."""
    table = state.table
    return (state.phase is Phase.REORGANIZE and table is not None and bool(table.plays)
            and table.plays[0].seat == seat and table.plays[0].side is Side.REVOLUTION)


@pytest.mark.spec("2.5", "2.6", "1.2")
def test_a_forged_card_is_not_passed_or_discarded() -> None:
    """Cards the seat does not hold, forged to equal anything, are not in its hand (rules 2.5, 2.6)."""
    for players, phase in ((3, Phase.DRAFT_PASS), (4, Phase.DRAFT_DISCARD)):
        state, seat = _first(players, functools.partial(_in_phase, phase))
        other = state.hands[(seat + 1) % players]
        kind = PassCards if phase is Phase.DRAFT_PASS else DiscardCards
        rule = "2.5" if phase is Phase.DRAFT_PASS else "2.6"
        message = _refused(state, seat, kind(frozenset({forged(other[0]), forged(other[1])})), CardNotInHandError, rule)
        assert "itself, not a AlwaysEqual" in message
        # Even a forged copy of a card it does hold: the hand holds the card, not the forgery.
        held = state.hands[seat]
        _refused(state, seat, kind(frozenset({forged(held[0]), held[1]})), CardNotInHandError, rule)
        _refused(state, seat, kind(frozenset({JOKER, held[1]})), CardNotInHandError, rule)


@pytest.mark.spec("4.2", "R-G", "1.2")
def test_a_forged_card_is_not_played_nor_a_target() -> None:
    """A forged card is no card of the hand to play, and no card on the table to reinforce (ruling G)."""
    state, seat = _first(4, _reinforcer)
    assert state.table is not None
    _refused(state, seat, PlayCard(forged(_not_held(state, seat))), CardNotInHandError, "4.2")
    _refused(state, seat, PlayCard(JOKER), CardNotInHandError, "4.2")
    reinforcement = next(c for c in state.hands[seat] if c.is_reinforcement)
    _refused(state, seat, Reinforce(forged(plus(9) if plus(9) not in state.hands[seat] else plus(8)), state.table.plays[0].card),
             CardNotInHandError, "4.2")
    message = _refused(state, seat, Reinforce(reinforcement, forged(_not_held(state, seat))), InvalidTargetError, "R-G")
    assert "not a AlwaysEqualCard" in message
    _refused(state, seat, Reinforce(reinforcement, JOKER), InvalidTargetError, "R-G")


@pytest.mark.spec("5.6", "R-E", "1.2")
def test_a_forged_card_is_not_placed() -> None:
    """A forged card of the faction due is none of the seat's cards on the table (ruling E)."""
    state, seat = _first(3, _places, seeds=range(400))
    assert state.week_score is not None
    due = next(d for d in state.week_score.placements if d.seat == seat)
    stranger = next(c for c in FACTION_CARDS if c.faction is due.faction and c not in due.candidates)
    others = [d for d in state.week_score.placements if d.seat == seat and d is not due]
    cards = {forged(stranger)} | {d.candidates[0] for d in others}
    _refused(state, seat, PlaceCards(frozenset(cards)), InvalidPlacementError, "R-E")


@pytest.mark.spec("6.2", "6.3", "R-K", "1.2")
def test_a_forged_card_is_not_taken_back_nor_discarded_at_reorganize() -> None:
    """A forged card equal to anything is not the seat's own card on the table (ruling K), even when the
    table's first play is the seat's own, nor a card of its hand (rule 6.3)."""
    state, seat = _first(3, _owner_first, seeds=range(400))
    _refused(state, seat, Reorganize(forged(_not_held(state, seat))), InvalidPickUpError, "R-K")
    _refused(state, seat, Reorganize(JOKER), InvalidPickUpError, "R-K")
    _refused(state, seat, Reorganize(None, frozenset({forged(_not_held(state, seat))})), CardNotInHandError, "6.3")


@pytest.mark.spec("9.1")
def test_an_action_subclass_is_not_an_action() -> None:
    """Only the action classes themselves: a subclass could answer each read of a field differently."""

    class SlyPlay(PlayCard):
        pass

    state, seat = _first(4, lambda s, p: s.phase is Phase.PLAY_1 and any(c.faction for c in s.hands[p]))
    own = next(c for c in state.hands[seat] if c.faction is not None)
    message = _refused(state, seat, SlyPlay(own), WrongPhaseError, "9.1")
    assert message.startswith("SlyPlay is not an action of the play 1 phase")


@pytest.mark.parametrize("function", [views.player_view, lambda state, seat: views.spectator_view(state)])
@pytest.mark.parametrize("state", ["state", None, 0])
def test_views_of_a_non_state_are_typed_errors(function: Any, state: object) -> None:
    """A view of something that is no game state names the function and the type, not an AttributeError."""
    with pytest.raises(InvalidArgumentError, match=f"takes a GameState, not {type(state).__name__}"):
        function(state, 0)
