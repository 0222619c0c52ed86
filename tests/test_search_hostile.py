"""A hostile review of the search bot and the kernel's GreedyBot (spec 9.2-9.4): misuse is refused clearly,
one bot object may play two seats, and nothing hidden from a seat changes its choices.

Each test failed before the fix it came with, except the twin-state test, which guards the search bot's
non-negotiable (a choice is a function of the view, the legal actions and the bot's own memory) over whole
games rather than the single decisions of ``tests/test_search_bot.py``.
"""

from __future__ import annotations

import copy
import random
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

import builders
from darkempire.rules.resample import resample_hidden
from darkempire.balance.policy import STRENGTH_ORDER
from darkempire.bots import GreedyBot, run_game
from darkempire.kernel import encoding as enc
from darkempire.kernel.greedy import Forecast, greedy_index
from darkempire.kernel.interface import Kernel, deal
from darkempire.rules.actions import Action, PassCards
from darkempire.rules.cards import HAND_CARDS
from darkempire.rules.engine import apply, awaited_seats, legal_actions
from darkempire.rules.engine import deal as deal_state
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import PlayerView, player_view
from darkempire.search import bot as search_bot
from darkempire.search.bot import SearchBot
from darkempire.search.worlds import sample_world
from darkempire.serialization import check_state
from darkempire.simulation import NATIVE_KINDS, add_arguments


def _small(seed: int) -> SearchBot:
    return SearchBot(seed, worlds=2, playouts=12, plan_worlds=1)


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Fail the test instead of hanging it when the block runs longer than ``seconds``."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------- the constructor


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"milliseconds": float("inf")}, "milliseconds"),  # searched forever: the deadline was never reached
        ({"milliseconds": True}, "milliseconds"),
        ({"milliseconds": "5"}, "milliseconds"),
        ({"worlds": float("nan")}, "worlds"),  # accepted, and then no world was ever tried
        ({"playouts": float("nan")}, "playouts"),
        ({"worlds": 2.5}, "worlds"),
        ({"plan_worlds": 1.5}, "plan_worlds"),  # accepted, then a TypeError from range() at the first choice
        ({"worlds": True}, "worlds"),
        ({"worlds": "3"}, "worlds"),
        ({"playouts": float("inf")}, "playouts"),
        ({"switch": float("inf")}, "switch"),
        ({"switch": "2"}, "switch"),
        # Past a float's range: math.isfinite raised OverflowError, and repr() of a 5,000-digit int ValueError.
        ({"milliseconds": 10**309}, "milliseconds"),
        ({"switch": 10**309}, "switch"),
        ({"worlds": -(10**5000)}, "worlds"),
        # Finite but past the documented maxima: a decision that never returned, keeping every world it drew.
        ({"worlds": 10**9}, "worlds"),
        ({"plan_worlds": 10**6}, "plan_worlds"),
        ({"playouts": 10**9}, "playouts"),
        ({"milliseconds": 1e300}, "milliseconds"),
    ],
)
def test_a_budget_that_is_no_finite_number_of_the_right_kind_is_refused_naming_it(
    options: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"\b{field}\b"):
        SearchBot(0, **options)


def test_the_largest_budgets_are_accepted() -> None:
    from darkempire.search.bot import MAX_MILLISECONDS, MAX_PLAYOUTS, MAX_WORLDS

    bot = SearchBot(0, worlds=MAX_WORLDS, playouts=MAX_PLAYOUTS, plan_worlds=MAX_WORLDS, milliseconds=MAX_MILLISECONDS)
    assert (bot.worlds, bot.playouts, bot.plan_worlds, bot.milliseconds) == (10_000, 1_000_000, 10_000, 60_000)
    with pytest.raises(InvalidArgumentError, match="not an integer of 16610 bits"):
        SearchBot(0, worlds=-(10**5000))


def test_a_whole_number_of_another_type_is_a_count() -> None:
    class Count(int):
        pass

    bot = SearchBot(0, worlds=Count(3), playouts=Count(30), plan_worlds=Count(1))
    assert (bot.worlds, bot.playouts, bot.plan_worlds) == (3, 30, 1)
    assert all(type(n) is int for n in (bot.worlds, bot.playouts, bot.plan_worlds))


# --------------------------------------------------------------------------- the arguments of a choice


def _play_step(seed: int = 3) -> GameState:
    """A play-step state of a 4-player greedy game where seat 1 has more than three legal actions."""
    state = deal_state(GameConfig(players=4), seed)
    bots = [GreedyBot(s) for s in range(4)]
    while not (state.phase is Phase.PLAY_2 and len(legal_actions(state, 1)) > 3):
        seat = min(awaited_seats(state))
        state = apply(state, seat, bots[seat].choose(player_view(state, seat), legal_actions(state, seat)))
    return state


def _finished() -> GameState:
    return run_game(GameConfig(players=4), 1, [GreedyBot(s) for s in range(4)])


@pytest.mark.spec("9.2")
@pytest.mark.parametrize(
    "case",
    [
        "reversed",  # the same actions in another order: the bot returned another action than it chose
        "another seat's",  # another seat's legal actions: it returned one of that seat's actions
        "shorter",  # an IndexError
        "finished",  # a finished game's view with some actions: it returned one
        "already chosen",  # the seat has chosen in this step: it chose again
    ],
)
def test_legal_actions_that_are_not_the_views_are_refused(case: str) -> None:
    state = _play_step()
    view, legal = player_view(state, 1), legal_actions(state, 1)
    arguments: dict[str, tuple[PlayerView, Sequence[Action]]] = {
        "reversed": (view, tuple(reversed(legal))),
        "another seat's": (view, legal_actions(state, 2)),
        "shorter": (view, tuple(legal)[:2]),
        "finished": (player_view(_finished(), 1), legal),
        "already chosen": (player_view(apply(state, 1, legal[0]), 1), legal),
    }
    with pytest.raises(InvalidArgumentError, match="legal|chose|over"):
        _small(2).choose(*arguments[case])


# --------------------------------------------------------------------------- a view of no game


@pytest.mark.spec("9.2")
def test_a_view_of_no_game_the_rules_reach_is_refused_instead_of_searched_forever() -> None:
    """A draft pass with hands of one, four and no cards: the kernel resolved the step by counting out the pair
    of a seat that had none to give, a loop that never ended, in the bot's playouts and in any kernel's."""
    state = builders.build(3, Phase.DRAFT_PASS, hands={0: HAND_CARDS[:1], 1: HAND_CARDS[1:5], 2: ()}, hand_size=0)
    assert len(legal_actions(state, 1)) == 6
    with _deadline(60), pytest.raises(InvalidArgumentError, match="no game the rules reach"):
        _small(0).choose(player_view(state, 1), legal_actions(state, 1))
    with _deadline(60), pytest.raises(InvalidArgumentError, match="seat 0 holds 1 card at the draft"):
        Kernel.from_state(state).playout(random.Random(0))


# --------------------------------------------------------------------------- one bot, two seats


@pytest.fixture
def checked_worlds(monkeypatch: pytest.MonkeyPatch) -> list[GameState]:
    """Every world the search bot draws from now on, each checked by the state oracle as it is drawn."""
    drawn: list[GameState] = []

    def checked(view: PlayerView, rng: random.Random, *, passed: Sequence[Any] = ()) -> GameState:
        world = sample_world(view, rng, passed=passed)
        check_state(world)
        drawn.append(world)
        return world

    monkeypatch.setattr(search_bot, "sample_world", checked)
    return drawn


@pytest.mark.spec("9.4")
def test_one_search_bot_in_two_seats_draws_worlds_of_each_seats_own(checked_worlds: list[GameState]) -> None:
    """The bot remembered the cards it passed per object, not per seat: in seats 0 and 2 of three, seat 0's
    draft discard pinned seat 2's passed cards (in seat 0's own hand) to seat 1, a world with a card twice."""
    shared = _small(4)
    state = run_game(GameConfig(players=3), 2, [shared, GreedyBot(1), shared])
    assert state.verdict is not None
    assert sum(w.phase is Phase.DRAFT_DISCARD for w in checked_worlds) >= 2  # both seats searched there


@pytest.mark.spec("9.4")
def test_a_reused_bot_forgets_passed_cards_that_do_not_fit_its_hand(checked_worlds: list[GameState]) -> None:
    """A bot that passed cards in one game and is then first asked at the draft discard of another (a resumed
    game) pinned the old cards to the next seat, though it holds one of them now: a card twice."""
    bot = _small(1)
    first = deal_state(GameConfig(players=3), 1)
    old = bot.choose(player_view(first, 0), legal_actions(first, 0))  # remembers seat 0's pass of game 1
    assert isinstance(old, PassCards)
    state = deal_state(GameConfig(players=3), 4)
    for seat in range(3):
        state = apply(state, seat, legal_actions(state, seat)[-1])
    view = player_view(state, 0)
    assert view.phase is Phase.DRAFT_DISCARD and set(old.cards) & set(view.hand)  # the case the test is about
    assert bot.choose(view, legal_actions(state, 0)) in legal_actions(state, 0)
    assert checked_worlds


@pytest.mark.spec("9.4")
def test_sample_world_refuses_passed_cards_the_seat_can_see() -> None:
    state = deal_state(GameConfig(players=3), 5)
    passed_by_0 = legal_actions(state, 0)[0]
    assert isinstance(passed_by_0, PassCards)
    for seat in range(3):
        state = apply(state, seat, passed_by_0 if seat == 0 else legal_actions(state, seat)[0])
    view = player_view(state, 0)
    real = tuple(sorted(passed_by_0.cards, key=lambda c: c.id))
    check_state(sample_world(view, random.Random(1), passed=real))
    for wrong in (view.hand[:2], real[:1], (*real, view.hand[0]), (real[0], real[0])):
        with pytest.raises(InvalidArgumentError, match="passed"):
            sample_world(view, random.Random(1), passed=wrong)


# --------------------------------------------------------------------------- hidden information, whole games


@pytest.mark.spec("9.4")
@pytest.mark.parametrize(("players", "seat"), [(3, 0), (3, 2), (5, 0), (5, 4)])
def test_every_choice_of_a_game_is_the_same_in_a_twin_state(players: int, seat: int) -> None:
    """At each of the search seat's decisions of a game (draft, support, play steps, placement, re-organize),
    a twin state drawn with every hidden thing dealt again (other hands, piles, victor and support cards,
    the others' pending choices, the seed) gives the same view, and the bot as it was chooses the same."""
    state = deal_state(GameConfig(players=players), players + seat)
    bots: list[Any] = [GreedyBot(s) for s in range(players)]
    bots[seat] = _small(seat)
    rng = random.Random(seat)
    phases = set()
    passed: frozenset[Any] = frozenset()
    awaited = awaited_seats(state)
    while not state.is_over:
        mover = min(awaited)
        view, legal = player_view(state, mover, awaited=awaited), legal_actions(state, mover)
        before = copy.deepcopy(bots[mover])
        action = bots[mover].choose(view, legal)
        if mover == seat and len(legal) > 1:
            twin = resample_hidden(state, seat, rng, passed=passed if state.phase is Phase.DRAFT_DISCARD else ())
            assert twin != state and player_view(twin, seat, awaited=awaited) == view
            again = before.choose(player_view(twin, seat, awaited=awaited), legal_actions(twin, seat))
            assert again == action and before._rng.getstate() == bots[seat]._rng.getstate()
            phases.add(state.phase)
        if mover == seat and isinstance(action, PassCards):
            passed = action.cards
        after = apply(state, mover, action)
        awaited = awaited - {mover} if after.pending[mover] is not None else awaited_seats(after)
        state = after
    assert {Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.CHOOSE_SUPPORT, Phase.PLAY_1, Phase.REORGANIZE} <= phases


# --------------------------------------------------------------------------- the kernel's GreedyBot


def _at_week_3(k: Kernel, choose: Callable[[Kernel, int], int]) -> Kernel:
    while not (k.week == 3 and k.phase == enc.PLAY_1):
        for seat in list(k.awaiting):
            k.apply_index(seat, choose(k, seat))
    return k


@pytest.mark.spec("9.3")
def test_a_forecast_read_on_another_table_is_read_again() -> None:
    """Two tables at the same counts (finished weeks, placed cards, month): a forecast kept the first one's
    traitor plays and emperor projection, and the second table's seat 0 chose unlike GreedyBot."""
    rng = random.Random(2)
    traitorous = _at_week_3(deal(4, 2), lambda k, s: rng.randrange(k.action_count(s)))
    quiet = _at_week_3(deal(4, 19), lambda k, s: greedy_index(k, s, random.Random(0)))
    forecast = Forecast(4)
    forecast.update(traitorous)
    fresh = Forecast(4)
    fresh.update(quiet)
    assert forecast.key == fresh.key and forecast.traitors != fresh.traitors  # the case the test is about
    assert greedy_index(quiet, 0, random.Random(0), forecast) == greedy_index(quiet, 0, random.Random(0))
    assert (forecast.traitors, forecast.emperor_weeks, forecast.emperor_ahead) == (
        fresh.traitors, fresh.emperor_weeks, fresh.emperor_ahead
    )
    four = Forecast(4)
    four.update(deal(4, 1))  # the same counts as any game's start: it kept four seats' traitor plays
    five = deal(5, 1)
    assert greedy_index(five, 4, random.Random(0), four) == greedy_index(five, 4, random.Random(0))


@pytest.mark.spec("9.2")
def test_greedy_index_refuses_a_seat_that_has_no_choice_or_is_no_seat() -> None:
    k = deal(3, 1)
    assert greedy_index(k, 2, random.Random(0)) < k.counts[2]
    with pytest.raises(InvalidArgumentError, match="seat -1"):
        greedy_index(k, -1, random.Random(0))  # was seat 2's choice
    with pytest.raises(InvalidArgumentError, match="seat 3"):
        greedy_index(k, 3, random.Random(0))
    while k.phase != enc.PLAY_1:
        for seat in list(k.awaiting):
            k.apply_index(seat, 0)
    k.hands[1] = []  # a seat with no card has nothing to choose at a play step (ruling H)
    k.counts[1] = 0
    with pytest.raises(InvalidArgumentError, match="no legal action"):
        greedy_index(k, 1, random.Random(0))  # was 0, an index of no listing


# --------------------------------------------------------------------------- the command line's help


def test_simulates_help_names_its_defaults_as_they_are() -> None:
    """``--bots``' help said the default was "greedy for now" and ``--engine auto`` "the kernel when a seat is
    random"; the search bot is the default of small runs, and auto plays greedy tables on the kernel too."""
    import argparse

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    helps = {action.dest: action.help or "" for action in parser._actions}
    assert "for now" not in helps["bots"]
    assert all(kind in helps["bots"] for kind in STRENGTH_ORDER)
    assert all(kind in helps["engine"] for kind in NATIVE_KINDS)
