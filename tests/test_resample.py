"""Determinized worlds draw every hidden thing again and are legal states (issue 12; spec 9.4).

:func:`darkempire.rules.resample.resample_hidden` gives search a world that the observing seat cannot tell
from the real state. Two ways to get it wrong: keep something true that the seat may not know (the other
seats' pending choices were kept, as in OpenSpiel PR 1613), or build a world the rules cannot reach (those
kept choices named cards the resampled hands do not hold, so resolving the step broke card conservation).

The statistical test draws :data:`WORLDS` worlds from states of random play with 3, 4 and 5 players, at every
decision phase and at the end, with every other awaited seat's choice pending. Each world is a legal state
that shows the seat the same view and legal actions, and its step resolves. Each hidden item (where each
hidden hand card is, each other seat's victor card, support card and pending choice, each unrevealed
revolution and emperor place) may keep its true value only as often as a uniform draw from its consistent
set would:

* a hand card the seat cannot place is in one of ``N`` pool places (other hands, the draw and discard piles;
  in the draft discard step, the next seat's hand less the two cards the seat passed it, which are known):
  it stays where it was with probability ``|its place| / N``;
* a victor card: ``1 / 4`` (the factions the seat does not hold, dealt to the other seats);
* a support card: ``1 / (factions that seat has not used)``;
* a pending choice: in world ``i``, ``1 / |legal_i|`` if the true choice is among the seat's legal actions
  ``legal_i`` there, else 0; the expected count is the sum over the worlds;
* a revolution or emperor place: ``1 / (cards not revealed this month)``.

**Tolerance.** An item fails when its count of truth-keeping worlds is so far from that expectation that a
uniform draw gets that far, on that side, with probability below :data:`ALPHA` = 1e-6: the exact binomial
tail of ``Binomial(WORLDS, p)`` (for a pending choice, ``p`` is the mean of the per-world probabilities; the
sum of independent Bernoulli draws with those probabilities is more concentrated than that binomial, so its
tail is an upper bound). With 200 worlds this allows a victor card (``p = 1/4``, 50 expected) to be kept in
at most 81 worlds, and a card of a 7-card hand in a 60-card pool (``p = 7/60``, 23 expected) in at most 47; a
sampler that keeps the truth keeps it in all 200. About 2,100 items are tested, so a correct sampler fails
with probability below 2,100 x 1e-6 = 0.2 %, and the worlds are seeded, so a run is repeatable.
Every world keeps each card once, holds legal pending choices and shows the seat its view; the first
:data:`CHECKED` worlds of each state also pass the whole :func:`~darkempire.serialization.check_state` and
resolve their step (that check costs tens of milliseconds late in a game).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import pytest

from darkempire.rules import engine
from darkempire.rules.actions import Action, PassCards
from darkempire.adapters import core
from darkempire.rules import resample
from darkempire.rules.resample import resample_hidden
from darkempire.rules.cards import HAND_CARDS, Faction, HandCard
from darkempire.rules.errors import InvalidArgumentError
from darkempire.serialization import check_state
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import player_view
from invariants import check_card_conservation

#: Worlds drawn per state and seat.
WORLDS = 200
#: Worlds per state that also pass the whole :func:`check_state` and resolve their step (slower to check).
CHECKED = 10
#: Per-item probability that a uniform draw fails the bound, on each side.
ALPHA = 1e-6
#: The phases sampled: every decision phase and the game's end.
PHASES = (
    Phase.DRAFT_PASS,
    Phase.DRAFT_DISCARD,
    Phase.CHOOSE_SUPPORT,
    Phase.PLAY_1,
    Phase.PLAY_2,
    Phase.PLAY_3,
    Phase.PLACEMENT,
    Phase.REORGANIZE,
    Phase.GAME_OVER,
)

Sampler = Callable[[GameState, int, random.Random, frozenset[HandCard]], GameState]


def _sampler(state: GameState, seat: int, rng: random.Random, passed: frozenset[HandCard]) -> GameState:
    return resample_hidden(state, seat, rng, passed=passed)


@attrs.frozen
class Sample:
    """A state of random play, the seat that observes it, and the cards that seat passed in the draft."""

    state: GameState
    seat: int
    passed: frozenset[HandCard]


# --------------------------------------------------------------------------- states from random play


def _choose(state: GameState, seat: int, rng: random.Random) -> GameState:
    return engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


@functools.cache
def samples(players: int) -> tuple[Sample, ...]:
    """One state per phase of :data:`PHASES`: the first of its kind in random play (seeds 0, 1, ...) with
    two or more awaited seats; every awaited seat but the last has chosen, the last is the observer."""
    found: dict[Phase, Sample] = {}
    for seed in range(100):
        rng = random.Random(seed)
        state = engine.deal(GameConfig(players=players), seed)
        passed: dict[int, frozenset[HandCard]] = {}

        def choose(seat: int) -> None:
            nonlocal state
            action = rng.choice(engine.legal_actions(state, seat))
            if isinstance(action, PassCards):
                passed[seat] = action.cards
            state = engine.apply(state, seat, action)

        while not state.is_over:
            awaited = sorted(engine.awaited_seats(state))
            if len(awaited) >= 2 and state.phase not in found:
                for seat in awaited[:-1]:
                    choose(seat)
                found[state.phase] = Sample(state, awaited[-1], passed.get(awaited[-1], frozenset()))
            choose(min(engine.awaited_seats(state)))
        found.setdefault(Phase.GAME_OVER, Sample(state, seed % players, frozenset()))
        if len(found) == len(PHASES):
            return tuple(found[p] for p in PHASES)
    raise AssertionError(f"random play never reached {set(PHASES) - set(found)} with two seats awaited")


# --------------------------------------------------------------------------- the hidden items


@attrs.frozen
class World:
    """A drawn world, with where each hand card is and the legal actions of each seat that has chosen (its
    own pending choice set aside), computed once for every item."""

    state: GameState
    where: Mapping[HandCard, str]
    legal: Mapping[int, Sequence[Action]]

    @classmethod
    def of(cls, state: GameState) -> World:
        where = {c: f"hand {s}" for s, hand in enumerate(state.hands) for c in hand}
        where |= {c: "draw pile" for c in state.draw_pile} | {c: "discard pile" for c in state.discard_pile}
        legal = {s: _legal_without(state, s) for s, choice in enumerate(state.pending) if choice is not None}
        return cls(state, where, legal)


@attrs.frozen
class Item:
    """A hidden item: its name, what it is (``kind``: ``"card"``, ``"victors"``, ``"support"``, ``"pending"``,
    ``"revolution"``, ``"emperor"``, and ``key``: the card, seat or pile place), its true value, and the
    probability that a uniform draw from its consistent set keeps it (``None`` for a pending choice, where
    it depends on the world's hand)."""

    name: str
    kind: str
    key: Any
    truth: object
    chance: float | None

    def value(self, world: World) -> object:
        """The item's value in ``world``."""
        if self.kind == "card":
            return world.where[self.key]
        if self.kind in ("victors", "support", "pending"):
            return getattr(world.state, self.kind)[self.key]
        return _month_places(world.state, self.kind)[self.key]

    def chance_in(self, world: World) -> float:
        """The probability that a uniform draw keeps the true value, given ``world``'s hands."""
        if self.chance is not None:
            return self.chance
        legal = world.legal[self.key]
        return 1 / len(legal) if self.truth in legal else 0.0


def _where(state: GameState, card: HandCard) -> str:
    return World.of(state).where.get(card, "public")


def _card_items(sample: Sample) -> Iterator[Item]:
    state, seat = sample.state, sample.seat
    pinned = sample.passed if state.phase is Phase.DRAFT_DISCARD else frozenset()
    places = {f"hand {s}": len(h) - (len(pinned) if s == (seat + 1) % state.players else 0)
              for s, h in enumerate(state.hands) if s != seat}  # fmt: skip
    places |= {"draw pile": len(state.draw_pile), "discard pile": len(state.discard_pile)}
    pool = sum(places.values())
    truth = World.of(state).where
    for card in HAND_CARDS:
        where = truth.get(card, "public")
        if where in places and card not in pinned:
            yield Item(f"{card.label()} in {where}", "card", card, where, places[where] / pool)


def _legal_without(world: GameState, seat: int) -> Sequence[Action]:
    pending = list(world.pending)
    pending[seat] = None
    return engine.legal_actions(attrs.evolve(world, pending=tuple(pending)), seat)


def items(sample: Sample) -> list[Item]:
    """Every item hidden from the sample's seat, with its uniform chance of keeping its true value."""
    state, seat = sample.state, sample.seat
    found = list(_card_items(sample))
    for s in state.seats:
        if s == seat:
            continue
        if not state.is_over:
            found.append(Item(f"seat {s}'s victor card", "victors", s, state.victors[s], 1 / (len(Faction) - 1)))
        if state.support[s] is not None:
            unused = len(Faction) - len(state.support_used[s])
            found.append(Item(f"seat {s}'s support", "support", s, state.support[s], 1 / unused))
        if state.pending[s] is not None:
            found.append(Item(f"seat {s}'s pending {state.pending[s]}", "pending", s, state.pending[s], None))
    return found + [*_month_items(state, "revolution"), *_month_items(state, "emperor")]


def _month_places(state: GameState, kind: str) -> tuple[Any, ...]:
    return tuple(getattr(state, f"{kind}_pile")) + tuple(getattr(state, f"{kind}_reserve"))


def _month_items(state: GameState, kind: str) -> Iterator[Item]:
    tables = [r.table for r in state.history if r.month == state.month]
    tables += [state.table] if state.table is not None else []
    seen = {getattr(t, f"{kind}_card") for t in tables}
    places = _month_places(state, kind)
    unseen = [i for i, c in enumerate(places) if c not in seen]
    for i in unseen:
        yield Item(f"{kind} place {i}", kind, i, places[i], 1 / len(unseen))


# --------------------------------------------------------------------------- the checks


def _binomial_tail(n: int, p: float, k: int, upper: bool) -> float:
    """``P(X >= k)`` (``upper``) or ``P(X <= k)`` for ``X ~ Binomial(n, p)``."""
    ks = range(k, n + 1) if upper else range(0, k + 1)
    return sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in ks)


def assert_legal_world(sample: Sample, drawn: World, rng: random.Random, full: bool) -> None:
    """``world`` shows the seat its view and legal actions, keeps every card once and holds legal pending
    choices; with ``full``, it passes :func:`check_state` and its step resolves to a state that passes it too
    (the whole check costs tens of milliseconds late in a game, so it runs on the first worlds only)."""
    state, seat, world = sample.state, sample.seat, drawn.state
    assert player_view(world, seat) == player_view(state, seat), "the seat's view changed"
    assert engine.legal_actions(world, seat) == engine.legal_actions(state, seat)
    assert engine.awaited_seats(world) == engine.awaited_seats(state)
    check_card_conservation(world)
    for s, choice in enumerate(world.pending):
        assert choice is None or choice in drawn.legal[s], f"seat {s}'s pending {choice} is not legal"
    if full:
        check_state(world)
        if not world.is_over:
            after = world
            for s in sorted(engine.awaited_seats(world)):
                after = _choose(after, s, rng)
            assert after.pending == (None,) * after.players, "the step did not resolve"
            check_state(after)


def assert_uniform(sample: Sample, sampler: Sampler = _sampler, worlds: int = WORLDS) -> None:
    """Draw ``worlds`` worlds of ``sample``: each is legal and no hidden item keeps its true value more (or
    less) often than a uniform draw would, by the binomial bound of the module docstring."""
    rng = random.Random(sample.state.month * 1000 + sample.seat)
    hidden = items(sample)
    kept = [0] * len(hidden)
    expected = [0.0] * len(hidden)
    for i in range(worlds):
        world = World.of(sampler(sample.state, sample.seat, rng, sample.passed))
        assert_legal_world(sample, world, rng, full=i < CHECKED)
        for k, item in enumerate(hidden):
            kept[k] += item.value(world) == item.truth
            expected[k] += item.chance_in(world)
    for item, count, mean in zip(hidden, kept, expected, strict=True):
        p, upper = min(1.0, mean / worlds), count > mean  # only the side the count is on can be improbable
        tail = _binomial_tail(worlds, p, count, upper)
        assert tail > ALPHA, f"{item.name}: kept in {count} of {worlds} worlds, uniform expects {mean:.1f}"


# --------------------------------------------------------------------------- tests


def _pending_state(phase: Phase) -> tuple[GameState, int]:
    """A 4-player state in ``phase`` where seats 0-2 have chosen and seat 3 is awaited."""
    rng = random.Random(1)
    state = engine.deal(GameConfig(players=4), 3)
    while state.phase is not phase or len(engine.awaited_seats(state)) < 4:
        state = _choose(state, min(engine.awaited_seats(state)), rng)
    for seat in (0, 1, 2):
        state = _choose(state, seat, rng)
    return state, 3


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("phase", [Phase.DRAFT_PASS, Phase.PLAY_2, Phase.REORGANIZE], ids=lambda p: p.name)
def test_resampled_worlds_do_not_keep_the_true_pending_choices(phase: Phase) -> None:
    """Regression (issue 12): the other seats' pending choices were kept in every world (200 of 200), naming
    cards the new hands do not hold; now they are drawn again, and each world and its resolved step are legal."""
    state, seat = _pending_state(phase)
    rng = random.Random(0)
    worlds = [resample_hidden(state, seat, rng) for _ in range(200)]
    kept = sum(all(w.pending[s] == state.pending[s] for s in (0, 1, 2)) for w in worlds)
    assert kept <= 2, f"{kept} of 200 worlds keep the true pending choices"
    for world in worlds[:20]:
        assert [p is not None for p in world.pending] == [True, True, True, False]
        check_state(world)
        check_state(_choose(world, seat, rng))  # resolves the step


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("phase", PHASES, ids=lambda p: p.name)
def test_resampled_worlds_are_uniform_and_legal(players: int, phase: Phase) -> None:
    """Every hidden item is drawn uniformly from its consistent set; every world is a legal state with the
    seat's view, and its step resolves."""
    sample = samples(players)[PHASES.index(phase)]
    assert sample.state.phase is phase
    assert phase is Phase.GAME_OVER or any(p is not None for p in sample.state.pending)
    assert_uniform(sample)


def _keeps_victors(state: GameState, seat: int, rng: random.Random, passed: frozenset[HandCard]) -> GameState:
    return attrs.evolve(_sampler(state, seat, rng, passed), victors=state.victors)


def _prefers_true_pending(state: GameState, seat: int, rng: random.Random, passed: frozenset[HandCard]) -> GameState:
    world = _sampler(state, seat, rng, passed)
    pending = tuple(
        truth if truth is not None and s != seat and truth in _legal_without(world, s) else drawn
        for s, (truth, drawn) in enumerate(zip(state.pending, world.pending, strict=True))
    )
    return attrs.evolve(world, pending=pending)


def _keeps_one_hand(state: GameState, seat: int, rng: random.Random, passed: frozenset[HandCard]) -> GameState:
    world = _sampler(state, seat, rng, passed)
    if rng.random() < 0.5:
        return world
    other = (seat + 1) % state.players
    keep = state.hands[other]
    rest = [c for s in state.seats if s != seat for c in world.hands[s]] + [*world.draw_pile, *world.discard_pile]
    rest = [c for c in rest if c not in keep]
    hands = list(world.hands)
    hands[other] = keep
    for s in state.seats:
        if s not in (seat, other):
            hands[s], rest = tuple(sorted(rest[: len(hands[s])], key=lambda c: c.id)), rest[len(hands[s]) :]
    draw = len(state.draw_pile)
    world = attrs.evolve(world, hands=tuple(hands), draw_pile=tuple(rest[:draw]), discard_pile=tuple(rest[draw:]),
                         pending=state.pending)  # fmt: skip
    return resample._redraw_pending(world, seat, rng)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize(
    "plant", [_keeps_victors, _prefers_true_pending, _keeps_one_hand], ids=lambda f: f.__name__[1:]
)
def test_a_biased_sampler_is_caught(plant: Sampler) -> None:
    """Samplers whose worlds are legal but lean to the truth (victor cards kept; a pending choice kept
    whenever legal; one hand kept half the time) fail the uniformity check."""
    sample = samples(4)[PHASES.index(Phase.PLAY_2)]
    assert_uniform(sample)
    with pytest.raises(AssertionError, match="worlds, uniform expects"):
        assert_uniform(sample, plant)


def _idle_state() -> tuple[GameState, int]:
    """A 4-player second play step in which seat 1 holds only reinforcement cards: it played nothing at step 1
    (it could not, ruling H), so every seat can tell. Seats 1 and 2 have chosen; seat 0 observes."""
    rng = random.Random(5)
    state = engine.deal(GameConfig(players=4), 5)
    while state.phase is not Phase.PLAY_1:
        state = _choose(state, min(engine.awaited_seats(state)), rng)
    # Deal seat 1 reinforcement cards only, from wherever they are but seat 0's hand: a deal some seed makes.
    given = [c for c in state.hands[1] if not c.is_reinforcement]
    wanted = [c for c in state.hand_cards() if c.is_reinforcement and c not in state.hands[0] + state.hands[1]]
    wanted = wanted[: len(given)]
    swap = {**dict(zip(wanted, given, strict=True)), **dict(zip(given, wanted, strict=True))}

    def put(cards: tuple[HandCard, ...]) -> tuple[HandCard, ...]:
        return tuple(swap.get(c, c) for c in cards)

    state = attrs.evolve(state, hands=tuple(tuple(sorted(put(h), key=lambda c: c.id)) for h in state.hands),
                         draw_pile=put(state.draw_pile), discard_pile=put(state.discard_pile))  # fmt: skip
    assert all(c.is_reinforcement for c in state.hands[1])
    check_state(state)
    for seat in (0, 1, 2, 3):
        state = _choose(state, seat, rng)
    assert state.phase is Phase.PLAY_2 and state.table is not None and (1, 1) in state.table.idle
    state = _choose(_choose(state, 1, rng), 2, rng)
    return state, 0


@pytest.mark.spec("9.4", "R-H")
def test_a_seat_shown_idle_keeps_a_hand_of_reinforcement_cards() -> None:
    """A seat idle at step 1 while holding cards held reinforcement cards only: its worlds' hands hold
    reinforcement cards only, drawn uniformly among those the observer cannot place."""
    state, seat = _idle_state()
    rng = random.Random(2)
    pool = [c for c in state.hand_cards() if c.is_reinforcement and c not in state.hands[seat]]
    pool = [c for c in pool if _where(state, c) in {"hand 1", "hand 2", "hand 3", "draw pile", "discard pile"}]
    kept = {c: 0 for c in state.hands[1]}
    for _ in range(WORLDS):
        world = resample_hidden(state, seat, rng)
        assert all(c.is_reinforcement for c in world.hands[1]), "seat 1 got a faction card"
        assert_legal_world(Sample(state, seat, frozenset()), World.of(world), rng, full=True)
        for c in kept:
            kept[c] += c in world.hands[1]
    p = len(state.hands[1]) / len(pool)
    for c, count in kept.items():
        assert _binomial_tail(WORLDS, p, count, upper=True) > ALPHA, f"{c.label()} kept in {count} worlds"


def _draft_discard_flow(players: int, seed: int) -> tuple[core.Flow, frozenset[HandCard]]:
    """A flow of the adapters at the draft discard step, after a random deal and pass, and seat 0's pass."""
    rng = random.Random(seed)
    flow = core.Flow.new(players)
    while flow.is_chance:
        flow = flow.apply_chance(rng.choice(flow.chance_outcomes())[0])
    assert flow.state is not None and flow.state.phase is Phase.DRAFT_PASS
    actions = [rng.choice(flow.legal(s)) for s in range(players)]
    passed = core.decode(flow.state, 0, actions[0])
    assert isinstance(passed, PassCards)
    return flow.apply_joint(actions), passed.cards


@pytest.mark.spec("9.4", "2.5")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_world_keeps_the_passed_cards_with_the_receiver(players: int) -> None:
    """In the draft discard step a seat knows where the two cards it passed are: in the next seat's hand.
    :meth:`Flow.resample <darkempire.adapters.core.Flow.resample>` keeps them there; the rest is redrawn."""
    flow, passed = _draft_discard_flow(players, players)
    state = flow.state
    assert state is not None and state.phase is Phase.DRAFT_DISCARD
    seat, receiver = 0, 1
    assert passed <= set(state.hands[receiver])
    rng = random.Random(0)
    rest = set(state.hands[receiver]) - passed
    moved = 0
    for _ in range(50):
        world = flow.resample(seat, rng)
        assert passed <= set(world.hands[receiver]), "a passed card left the receiver's hand"
        check_state(world)
        moved += set(world.hands[receiver]) != set(state.hands[receiver])
        assert player_view(world, seat) == player_view(state, seat)
    assert moved == 50 and rest, "the receiver's other cards are hidden and redrawn"


@pytest.mark.spec("9.4")
def test_passed_cards_the_receiver_does_not_hold_are_refused() -> None:
    """``passed`` names two cards of the next seat's hand; anything else is a typed error naming the field."""
    state = _draft_discard_flow(4, 1)[0].state
    assert state is not None
    with pytest.raises(InvalidArgumentError, match="passed"):
        resample_hidden(state, 0, random.Random(0), passed=state.hands[2][:2])
    with pytest.raises(InvalidArgumentError, match="passed"):
        resample_hidden(state, 0, random.Random(0), passed=state.hands[1][:3])
    # Things that are not hand cards are named as such, not met with an AttributeError or a TypeError.
    for wrong, said in [([1, 2], "not int"), ("ab", "not str"), (None, "not NoneType"), ([[1], [2]], "not list")]:
        with pytest.raises(InvalidArgumentError, match=rf"passed: hand cards, {said}"):
            resample_hidden(state, 0, random.Random(0), passed=wrong)  # type: ignore[arg-type]
