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
