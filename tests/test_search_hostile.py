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
from darkempire.adapters.core import resample_hidden
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
