"""The lazy legal actions of the draft, the play steps and the re-organize (issue 13's speed pass).

:func:`darkempire.rules.engine.legal_actions` returns a :class:`~tablekit.game.LazyActions` there. It must be the very
listing the engine made before, built eagerly: the same actions in the same order, by index, so that seeded
games stay the same. :func:`eager_listing` is that listing, written out as the rules say (rules 2.5, 2.6,
4.2-4.6, 6.2, 6.3, rulings G, H); the tests compare the lazy sequence with it element by element, and ``in`` with the
tuple's ``in`` for listed actions, equal copies and near misses.
"""

from __future__ import annotations

import itertools
import pickle
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from darkempire.rules import engine
from darkempire.rules.actions import Action, DiscardCards, PassCards, PlayCard, PlayNothing, Reinforce, Reorganize, Side
from darkempire.rules.cards import HAND_CARDS, HandCard
from darkempire.rules.state import PLAY_PHASES, GameConfig, GameState, Phase
from tablekit.game import LazyActions


def eager_listing(state: GameState, seat: int) -> tuple[Action, ...]:
    """Every legal action of an awaited ``seat`` at the draft, a play step or the re-organize, built at once."""
    hand = state.hands[seat]
    if state.phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        kind = PassCards if state.phase is Phase.DRAFT_PASS else DiscardCards
        return tuple(kind(frozenset(pair)) for pair in itertools.combinations(hand, 2))
    table = state.table
    assert table is not None
    if state.phase is Phase.REORGANIZE:
        take_backs = [None] + [p.card for p in table.plays if p.seat == seat and p.side is Side.REVOLUTION]
        subsets = [frozenset(c) for size in range(len(hand) + 1) for c in itertools.combinations(hand, size)]
        return tuple(Reorganize(t, s) for t in take_backs for s in subsets)
    step = state.phase.step
    traitor = table.emperor_card is not None and not table.has_traitor_play(seat)
    actions: list[Action] = []
    for card in hand:
        if card.faction is None:
            targets = [p for p in table.plays if p.step < step and (p.side is Side.REVOLUTION or traitor)]
            actions += [Reinforce(card, p.card) for p in targets]
        else:
            actions.append(PlayCard(card, Side.REVOLUTION))
            if traitor:
                actions.append(PlayCard(card, Side.EMPEROR))
    return tuple(actions) if actions else (PlayNothing(),)


def lazy_states(players: int, seed: int) -> Iterator[tuple[GameState, int]]:
    """``(state, seat)`` for every awaited seat of a random game at the draft, a play step or the re-organize."""
    rng = random.Random(seed)
    state = engine.deal(GameConfig(players=players), seed)
    while not state.is_over:
        awaited = sorted(engine.awaited_seats(state))
        if state.phase in LAZY_PHASES:
            yield from ((state, seat) for seat in awaited)
        seat = awaited[0]
        state = engine.apply(state, seat, rng.choice(tuple(engine.legal_actions(state, seat))))


#: The phases whose listings are lazy.
LAZY_PHASES = (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, *PLAY_PHASES, Phase.REORGANIZE)


def copy_of(card: HandCard) -> HandCard:
    """An equal card that is not the game's own object."""
    return attrs.evolve(card)


def near_misses(state: GameState, seat: int, listed: tuple[Action, ...]) -> list[object]:
    """Values ``in`` must answer for as a tuple does: copies of listed actions, actions of other seats'
    cards and sides and targets not listed, and values that are no action."""
    table = state.table
    others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand][:3]
    on_table = [p.card for p in table.plays][:4] if table is not None else []
    own = state.hands[seat]
    values: list[object] = [PlayNothing(), Reorganize(), (), None, listed[0].__class__]
    for action in listed[:: max(1, len(listed) // 12)]:
        if isinstance(action, PlayCard):
            values += [PlayCard(copy_of(action.card), action.side), PlayCard(action.card, Side.EMPEROR)]
            values += [PlayCard(c, Side.REVOLUTION) for c in others]
        elif isinstance(action, Reinforce):
            values += [Reinforce(copy_of(action.card), copy_of(action.target)), Reinforce(action.card, action.card)]
            values += [Reinforce(action.card, c) for c in on_table + others]
        elif isinstance(action, (PassCards, DiscardCards)):
            kind = type(action)
            values += [kind(frozenset(map(copy_of, action.cards))), kind(action.cards | {own[0]}), kind(own[:1])]
            values += [kind(frozenset({*list(action.cards)[:1], c})) for c in others]
        elif isinstance(action, Reorganize):
            values += [Reorganize(action.take_back, frozenset(map(copy_of, action.discards)))]
            values += [Reorganize(c, action.discards) for c in on_table + others[:1]]
            values += [Reorganize(action.take_back, action.discards | {c}) for c in others[:1] + on_table[:1]]
    return values


@pytest.mark.spec("4.2", "4.3", "4.6", "6.2", "6.3", "R-G", "R-H")
@settings(max_examples=12, deadline=None)
@given(st.sampled_from([3, 4, 5]), st.integers(0, 10_000))
def test_lazy_listing_is_the_eager_listing_element_by_element(players: int, seed: int) -> None:
    lazy_seen = 0
    for state, seat in lazy_states(players, seed):
        legal = engine.legal_actions(state, seat)
        eager = eager_listing(state, seat)
        assert len(legal) == len(eager)
        assert [legal[i] for i in range(len(legal))] == list(eager)
        assert [legal[i - len(eager)] for i in range(len(eager))] == list(eager)  # negative indices
        assert tuple(legal) == eager and legal == eager and eager == legal
        if isinstance(legal, LazyActions):
            lazy_seen += 1
            assert hash(legal) == hash(eager) and legal == engine.legal_actions(state, seat)
    assert lazy_seen > 0


@pytest.mark.spec("4.2", "6.3", "R-G")
@settings(max_examples=8, deadline=None)
@given(st.sampled_from([3, 4, 5]), st.integers(0, 10_000))
def test_in_answers_as_the_tuple_does(players: int, seed: int) -> None:
    lazy_seen = 0
    for n, (state, seat) in enumerate(lazy_states(players, seed)):
        if n % 5:
            continue  # every fifth decision: near_misses is the slow part
        legal = engine.legal_actions(state, seat)
        eager = eager_listing(state, seat)
        lazy_seen += isinstance(legal, LazyActions)
        assert all(action in legal for action in eager[:: max(1, len(eager) // 20)])
        for value in near_misses(state, seat, eager):
            assert (value in legal) == (value in eager), value
    assert lazy_seen > 0


def reorganize_state(players: int = 4, seed: int = 3) -> tuple[GameState, int]:
    return next((s, seat) for s, seat in lazy_states(players, seed) if s.phase is Phase.REORGANIZE)


def play_state(players: int = 4, seed: int = 3) -> tuple[GameState, int]:
    return next((s, seat) for s, seat in lazy_states(players, seed) if s.phase is Phase.PLAY_2)


@pytest.mark.spec("6.3")
@pytest.mark.parametrize("where", [reorganize_state, play_state])
def test_the_listing_is_lazy_immutable_and_refuses_indices_out_of_range(where: object) -> None:
    state, seat = where()  # type: ignore[operator]
    legal = engine.legal_actions(state, seat)
    assert isinstance(legal, LazyActions)
    size = len(legal)
    for index in (size, size + 1, -size - 1, 10**9):
        with pytest.raises(IndexError):
            legal[index]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        legal.size = 1  # type: ignore[misc]
    assert legal[-1] == eager_listing(state, seat)[-1] and legal[1:3] == eager_listing(state, seat)[1:3]
    assert len(legal) == size and pickle.loads(pickle.dumps(legal)) == legal


@pytest.mark.spec("6.3")
def test_a_lazy_listing_equals_the_tuple_but_not_a_list() -> None:
    state, seat = reorganize_state(3, 8)
    legal = engine.legal_actions(state, seat)
    assert isinstance(legal, LazyActions) and len(legal) >= 16
    eager = eager_listing(state, seat)
    assert legal == eager and legal != list(eager) and legal != eager[:-1] and legal != eager[::-1]
    by_value: dict[object, int] = {legal: 1}
    assert by_value[eager] == 1  # hashes as the tuple it equals
    assert repr(legal) == f"LazyActions({eager!r})"


@pytest.mark.spec("6.3")
def test_the_reorganize_listing_builds_only_the_action_asked_for() -> None:
    state, seat = reorganize_state()
    legal = engine.legal_actions(state, seat)
    assert isinstance(legal, LazyActions)
    built: list[int] = []

    def build(index: int) -> Action:
        built.append(index)
        action: Action = legal.build(index)
        return action

    counting = LazyActions(legal.size, build, legal.contains)
    assert counting[len(legal) // 2] == eager_listing(state, seat)[len(legal) // 2] and built == [len(legal) // 2]
    assert Reorganize(None, frozenset(state.hands[seat][:1])) in counting and built == [len(legal) // 2]


@pytest.mark.spec("6.3", "9.2")
def test_actions_apply_alike_from_the_lazy_listing_and_a_copy() -> None:
    """An action built by the lazy listing is a plain action of the game's own cards: apply takes it as it
    takes the equal action built by hand, to the same state."""
    state, seat = reorganize_state(5, 11)
    legal = engine.legal_actions(state, seat)
    assert isinstance(legal, LazyActions)
    action = legal[len(legal) - 1]
    assert isinstance(action, Reorganize)
    by_hand = Reorganize(action.take_back, frozenset(HAND_CARDS[c.id] for c in action.discards))
    assert engine.apply(state, seat, action) == engine.apply(state, seat, by_hand)
