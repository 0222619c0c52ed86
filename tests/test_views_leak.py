"""Player views leak nothing: whatever a seat may not see can change without changing its view (spec 9.4).

For a seat ``p`` and a game state, :func:`resample_hidden` draws another state that ``p`` cannot tell
apart from it: the other hands and both hand-card piles redistributed (sizes kept), the other victor
cards permuted among the factions ``p`` does not hold, the other seats' support choices and pending
choices re-picked among their legal ones, the unrevealed revolution and emperor cards shuffled between
pile and reserve, and a new random generator state. :func:`assert_view_hides` requires ``p``'s view and
``p``'s legal actions to be the same in both states, and the view to hold no field from which a hidden
part could be read back (no seed, no generator state, no pile contents, no other hand).

The states come from random legal play, from every decision phase and after the game's end, with some
seats' choices still pending. A planted leak (the view showing another seat's hand) is caught.
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from darkempire.rules import engine, views
from darkempire.rules.actions import Action, ChooseSupport, DiscardCards, PassCards, PlayCard, Reinforce, Reorganize
from darkempire.rules.cards import EmperorCard, Faction, HandCard, RevolutionCard
from darkempire.rules.chance import Chance
from darkempire.rules.state import DECISION_PHASES, GameConfig, GameState, Phase
from darkempire.rules.views import PlayerView
from invariants import check_card_conservation

C = TypeVar("C", EmperorCard, RevolutionCard)

#: Hypothesis examples (random states) for the leak property, by profile.
STATES: Mapping[str, int] = {"ci": 40, "dev": 4, "long": 3000}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
#: Phases a leak test must visit: every decision phase and the end of the game.
COVERED = (*sorted(DECISION_PHASES, key=lambda p: list(Phase).index(p)), Phase.GAME_OVER)


# --------------------------------------------------------------------------- states from random play


def play_until(players: int, seed: int, steps: int, target: Phase, rng: random.Random) -> GameState:
    """Deal with ``seed``, play ``steps`` random legal choices, go on to ``target`` (or the game's end),
    then record pending choices for some, not all, of the awaited seats."""
    state = engine.deal(GameConfig(players=players), seed)
    if target in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        steps %= 2 * players  # the draft is the game's first 2 x players choices

    def step() -> None:
        nonlocal state
        seat = rng.choice(sorted(engine.awaited_seats(state)))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))

    for _ in range(steps):
        if state.is_over:
            break
        step()
    while not state.is_over and state.phase is not target:
        step()
    awaited = sorted(engine.awaited_seats(state))
    for seat in rng.sample(awaited, rng.randrange(len(awaited))) if awaited else ():
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


# --------------------------------------------------------------------------- resampling what p cannot see


def _revealed_this_month(state: GameState) -> tuple[set[EmperorCard], set[RevolutionCard]]:
    tables = [r.table for r in state.history if r.month == state.month]
    if state.table is not None:
        tables.append(state.table)
    emperor = {t.emperor_card for t in tables if t.emperor_card is not None}
    emperor |= {s.card for s in state.score_track.emperor_cards}
    return emperor, {t.revolution_card for t in tables}


def _reshuffle_unseen(
    pile: tuple[C, ...], reserve: tuple[C, ...], seen: set[C], rng: random.Random
) -> tuple[tuple[C, ...], tuple[C, ...]]:
    """Permute the cards of ``pile + reserve`` that nobody has seen among their places."""
    both = list(pile + reserve)
    places = [i for i, c in enumerate(both) if c not in seen]
    cards = [both[i] for i in places]
    rng.shuffle(cards)
    for i, c in zip(places, cards, strict=True):
        both[i] = c
    return tuple(both[: len(pile)]), tuple(both[len(pile) :])


def _repick(state: GameState, seat: int, rng: random.Random) -> Action:
    """A legal pending choice of ``seat`` in ``state`` (its own pending choice cleared)."""
    pending = list(state.pending)
    pending[seat] = None
    free = attrs.evolve(state, pending=tuple(pending))
    return rng.choice(engine.legal_actions(free, seat))


def resample_hidden(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A state that ``seat`` (``None``: a spectator) cannot tell apart from ``state`` (spec 9.4).

    :raises AssertionError: if the resampled state breaks card conservation (a bug of this helper).
    """
    others = [s for s in state.seats if s != seat]
    # Hand cards: other hands, draw pile and discard pile are one unseen pool (sizes are public).
    pool = [c for s in others for c in state.hands[s]] + list(state.draw_pile) + list(state.discard_pile)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        k = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:k], key=lambda c: c.id)), pool[k:]
    draw_pile, discard_pile = tuple(pool[: len(state.draw_pile)]), tuple(pool[len(state.draw_pile) :])
    # Victor cards stay secret until the verdict reveals them.
    victors = list(state.victors)
    if not state.is_over:
        free = [f for f in Faction if seat is None or f is not state.victors[seat]]
        for s, f in zip(others, rng.sample(free, len(others)), strict=True):
            victors[s] = f
    support = list(state.support)
    for s in others:
        if support[s] is not None:
            support[s] = rng.choice([f for f in Faction if f not in state.support_used[s]])
    emperor_seen, revolution_seen = _revealed_this_month(state)
    emperor_pile, emperor_reserve = _reshuffle_unseen(state.emperor_pile, state.emperor_reserve, emperor_seen, rng)
    revolution_pile, revolution_reserve = _reshuffle_unseen(
        state.revolution_pile, state.revolution_reserve, revolution_seen, rng
    )
    new = attrs.evolve(
        state,
        hands=tuple(hands),
        draw_pile=draw_pile,
        discard_pile=discard_pile,
        victors=tuple(victors),
        support=tuple(support),
        emperor_pile=emperor_pile,
        emperor_reserve=emperor_reserve,
        revolution_pile=revolution_pile,
        revolution_reserve=revolution_reserve,
        chance=Chance(rng.randrange(2**64), rng.randrange(100)),
    )
    pending = list(new.pending)
    for s in others:
        if pending[s] is not None:
            pending[s] = _repick(new, s, rng)
    new = attrs.evolve(new, pending=tuple(pending))
    check_card_conservation(new)
    return new


# --------------------------------------------------------------------------- the property


def _walk(value: object) -> Iterator[tuple[str, object]]:
    """Every ``(field name, value)`` reachable from ``value`` through attrs classes and containers."""
    stack: list[tuple[str, object]] = [("view", value)]
    while stack:
        name, item = stack.pop()
        yield name, item
        if attrs.has(type(item)):
            cls: Any = type(item)
            stack += [(f.name, getattr(item, f.name)) for f in attrs.fields(cls)]
        elif isinstance(item, (tuple, list, frozenset, set)):
            stack += [(name, x) for x in item]
        elif isinstance(item, dict):
            stack += [(name, x) for kv in item.items() for x in kv]


def public_cards(state: GameState) -> set[object]:
    """Cards every seat has seen: this week's and earlier weeks' tables and the score track."""
    seen: set[object] = set()
    tables = [r.table for r in state.history] + ([state.table] if state.table is not None else [])
    for t in tables:
        seen.add(t.revolution_card)
        if t.emperor_card is not None:
            seen.add(t.emperor_card)
        seen.update(t.cards())
    seen.update(s.card for s in state.score_track.faction_cards)
    seen.update(s.card for s in state.score_track.emperor_cards)
    return seen


def _action_cards(action: Action | None) -> set[HandCard]:
    if isinstance(action, (PassCards, DiscardCards)):
        return set(action.cards)
    if isinstance(action, (PlayCard, Reinforce)):
        return {action.card} | ({action.target} if isinstance(action, Reinforce) else set())
    if isinstance(action, Reorganize):
        return set(action.discards) | ({action.take_back} if action.take_back is not None else set())
    return set()


def assert_view_structurally_closed(state: GameState, seat: int | None, view: PlayerView) -> None:
    """The view holds no generator state, no seed, no pile contents, no card or choice ``seat`` has not seen."""
    allowed = public_cards(state)
    if seat is not None:
        allowed |= set(state.hands[seat]) | _action_cards(state.pending[seat])
    forbidden_names = {"seed", "draws", "chance", "draw_pile", "discard_pile", "hands", "emperor_pile",
                       "revolution_pile", "emperor_reserve", "revolution_reserve"}
    if not state.is_over:
        forbidden_names.add("victors")  # the verdict reveals them
    for name, item in _walk(view):
        assert name not in forbidden_names, f"the view has a field {name!r}"
        assert not isinstance(item, Chance), "the view holds the random generator"
        if isinstance(item, (HandCard, EmperorCard, RevolutionCard)):
            assert item in allowed, f"the view shows {item} ({name}), which seat {seat} has not seen"
        if isinstance(item, int) and not isinstance(item, bool):
            assert item != state.chance.seed or abs(item) < 1000, f"the view holds the seed ({name})"
        if isinstance(item, (PassCards, DiscardCards, ChooseSupport, PlayCard, Reinforce, Reorganize)):
            assert seat is not None and item == state.pending[seat], f"the view shows a hidden choice {item}"
    if seat is not None:
        assert view.victor == state.victors[seat]
    if not state.is_over:
        assert view.verdict is None


def _view(state: GameState, seat: int | None) -> PlayerView:
    # Looked up on the module at call time, so a test can plant a leaky view.
    return views.spectator_view(state) if seat is None else views.player_view(state, seat)


def assert_view_hides(state: GameState, seat: int | None, rng: random.Random, resamples: int = 3) -> None:
    """``seat``'s view and legal actions do not change when anything it may not see changes (spec 9.4).

    :raises AssertionError: naming the first view field that changed.
    """
    view = _view(state, seat)
    assert_view_structurally_closed(state, seat, view)
    legal = engine.legal_actions(state, seat) if seat is not None else ()
    for _ in range(resamples):
        other = resample_hidden(state, seat, rng)
        other_view = _view(other, seat)
        if other_view != view:
            changed = [f.name for f in attrs.fields(PlayerView) if getattr(view, f.name) != getattr(other_view, f.name)]
            raise AssertionError(f"seat {seat}'s view changed with hidden information: {changed} ({state.phase})")
        if seat is not None:
            assert engine.legal_actions(other, seat) == legal, f"seat {seat}'s legal actions changed"
        assert engine.awaited_seats(other) == engine.awaited_seats(state)


# --------------------------------------------------------------------------- tests


@pytest.mark.spec("9.4")
@settings(
    max_examples=STATES.get(PROFILE, 30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(min_value=0, max_value=2**63),
    steps=st.integers(min_value=0, max_value=250),
    target=st.sampled_from(COVERED),
    choices=st.randoms(use_true_random=False),
    resample_seed=st.integers(min_value=0, max_value=2**32),
)
def test_views_do_not_depend_on_hidden_information(
    players: int, seed: int, steps: int, target: Phase, choices: random.Random, resample_seed: int
) -> None:
    """Random mid-game states of every phase: each seat's view and the spectator's hide what they may not see."""
    state = play_until(players, seed, steps, target, choices)
    event(f"phase {state.phase.name}")
    event(f"pending choices: {sum(p is not None for p in state.pending) > 0}")
    rng = random.Random(resample_seed)
    for seat in (*state.seats, None):
        assert_view_hides(state, seat, rng)


@functools.cache
def _phase_samples(players: int) -> Mapping[Phase, GameState]:
    """For each phase of :data:`COVERED`, a state of random play in it, with a seat's choice pending while
    another seat is still awaited (seeds 0, 1, ... until every phase is found)."""
    found: dict[Phase, GameState] = {}
    for seed in range(300):
        rng = random.Random(seed)
        state = engine.deal(GameConfig(players=players), seed)
        while not state.is_over:
            awaited = sorted(engine.awaited_seats(state))
            seat = rng.choice(awaited)
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            if len(awaited) >= 2 and state.phase not in found:
                found[state.phase] = state
        found.setdefault(Phase.GAME_OVER, state)
        if len(found) == len(COVERED):
            return found
    raise AssertionError(f"random play never reached {set(COVERED) - set(found)} with a pending choice")


def _state_in(phase: Phase, players: int) -> GameState:
    return _phase_samples(players)[phase]


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("phase", COVERED, ids=lambda p: p.name)
def test_every_phase_view_hides_hidden_information(phase: Phase, players: int) -> None:
    """Every decision phase and the game's end, for each player count, with another seat's choice pending."""
    state = _state_in(phase, players)
    rng = random.Random(4)
    for seat in (*state.seats, None):
        assert_view_hides(state, seat, rng, resamples=5)


def _leak_other_hand(real: Callable[[GameState, int], PlayerView]) -> Callable[[GameState, int], PlayerView]:
    def leaky(state: GameState, seat: int) -> PlayerView:
        view = real(state, seat)
        return attrs.evolve(view, hand=view.hand + state.hands[(seat + 1) % state.players])

    return leaky


def _leak_top_card(real: Callable[[GameState, int], PlayerView]) -> Callable[[GameState, int], PlayerView]:
    def leaky(state: GameState, seat: int) -> PlayerView:
        view = real(state, seat)
        top = state.draw_pile[0].id if state.draw_pile else -1
        return attrs.evolve(view, draw_pile_size=len(state.draw_pile) + 1000 * top)

    return leaky


def _leak_pending(real: Callable[[GameState, int], PlayerView]) -> Callable[[GameState, int], PlayerView]:
    def leaky(state: GameState, seat: int) -> PlayerView:
        view = real(state, seat)
        return attrs.evolve(view, pending=state.pending[(seat + 1) % state.players])

    return leaky


def _leak_victor_count(real: Callable[[GameState, int], PlayerView]) -> Callable[[GameState, int], PlayerView]:
    def leaky(state: GameState, seat: int) -> PlayerView:
        view = real(state, seat)
        return attrs.evolve(view, month=view.month + 10 * int(state.victors[(seat + 1) % state.players]))

    return leaky


@pytest.mark.spec("9.4")
@pytest.mark.parametrize(
    "plant", [_leak_other_hand, _leak_top_card, _leak_pending, _leak_victor_count], ids=lambda f: f.__name__[1:]
)
def test_a_planted_leak_is_caught(
    plant: Callable[..., Callable[[GameState, int], PlayerView]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A view that shows another seat's hand, the top card, another pending choice or another victor card
    fails :func:`assert_view_hides`: the property would catch such a leak in views.py (spec 9.4)."""
    monkeypatch.setattr(views, "player_view", plant(views.player_view))
    state = _state_in(Phase.PLAY_2, 4)
    seat = next(s for s in state.seats if state.pending[(s + 1) % state.players] is not None)
    with pytest.raises(AssertionError):
        assert_view_hides(state, seat, random.Random(1), resamples=10)


@pytest.mark.spec("9.4")
def test_a_view_with_another_hand_is_caught_structurally() -> None:
    """The structural check alone rejects a view holding another seat's cards (spec 9.4)."""
    state = _state_in(Phase.PLAY_1, 3)
    view = views.player_view(state, 0)
    leaky = attrs.evolve(view, hand=view.hand + state.hands[1])
    assert_view_structurally_closed(state, 0, view)
    with pytest.raises(AssertionError, match="has not seen"):
        assert_view_structurally_closed(state, 0, leaky)
