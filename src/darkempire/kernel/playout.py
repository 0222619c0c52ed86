"""Random playouts on the kernel: uniformly random legal choices to the end of the game.

A playout draws each awaited seat's choice, in seat order, as ``rng.randrange(count)`` over the seat's
listing, exactly as :class:`darkempire.bots.RandomBot` draws ``legal[rng.randrange(len(legal))]``: with one
generator per seat seeded as the bots are, a playout is the game :func:`darkempire.bots.run_game` plays
with those bots. No action object is built on the way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from darkempire.kernel import convert, draws, steps
from darkempire.kernel import encoding as enc
from darkempire.kernel.greedy import Forecast, GreedySeat, greedy_index
from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.views import PlayerView, player_view

if TYPE_CHECKING:
    from darkempire.kernel.mutable import Table

__all__ = ["Chooser", "play_bots", "playout"]


class Chooser(Protocol):
    """A bot as :func:`play_bots` asks it: the shape of :class:`darkempire.bots.Bot`, restated here so that
    the kernel does not import the bots (which use the kernel)."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One element of ``legal``, chosen from what the seat may see."""
        ...


def playout(k: Table, rng: random.Random | Sequence[random.Random]) -> int:
    """Play ``k`` to the end with uniformly random choices.

    :param rng: one generator for every seat, or one per seat (``rng[seat]`` draws that seat's choices).
    :returns: the number of decisions made (one per seat's choice, as the reference's ``apply`` calls).
    """
    generators = [rng] * k.n if isinstance(rng, random.Random) else list(rng)
    picks = [draws.picker(generator) for generator in generators]
    decisions = 0
    while k.phase != enc.GAME_OVER:
        pending = k.pending
        counts = k.counts
        for seat in k.awaiting:
            pending[seat] = picks[seat](counts[seat])
        decisions += len(k.awaiting)
        k.awaiting = []
        steps.resolve(k)
    return decisions


def play_bots(k: Table, seats: Sequence[random.Random | GreedySeat | Chooser]) -> int:
    """Play ``k`` to the end, each seat choosing as ``seats[seat]`` says, as :func:`darkempire.bots.run_game`
    asks its bots: in each step the awaited seats choose in seat order, one at a time.

    A seat given as a generator draws ``randrange(count)`` over its listing, as a
    :class:`~darkempire.bots.RandomBot` holding that generator does, and no action object is built. A seat
    given as a :class:`~darkempire.kernel.greedy.GreedySeat` chooses as a :class:`~darkempire.bots.GreedyBot`
    holding its generator does (:func:`~darkempire.kernel.greedy.greedy_index`), also without a view. A seat
    given as a bot (a :class:`Chooser`, such as any :class:`~darkempire.bots.Bot`) is asked with the reference's
    :func:`~darkempire.rules.views.player_view` and :func:`~darkempire.rules.engine.legal_actions` of
    :meth:`snapshot() <darkempire.kernel.interface.Kernel.snapshot>`, built only at that seat's decisions,
    so it sees what it would see in the reference game, and the game is the one ``run_game`` plays.

    :param seats: one generator or bot per seat.
    :returns: the number of decisions made.
    :raises ~darkempire.rules.errors.InvalidArgumentError: if ``seats`` does not give one per seat.
    :raises ~darkempire.rules.errors.IllegalActionError: a bot's action is not legal, with the error
        :func:`~darkempire.rules.engine.apply` raises for it.
    """
    if len(seats) != k.n:
        raise InvalidArgumentError(f"{len(seats)} generators or bots for {k.n} seats")
    picks = [draws.picker(s) if isinstance(s, random.Random) else None for s in seats]
    forecast = Forecast(k.n)
    decisions = 0
    while k.phase != enc.GAME_OVER:
        for seat in sorted(k.awaiting):
            pick, player = picks[seat], seats[seat]
            if pick is not None:
                index = pick(k.counts[seat])
            elif isinstance(player, GreedySeat):
                index = greedy_index(k, seat, player.rng, forecast)
            else:
                index = _bot_index(k, seat, player)
            k.pending[seat] = index
            k.awaiting.remove(seat)
            decisions += 1
        steps.resolve(k)
    return decisions


def _bot_index(k: Table, seat: int, bot: random.Random | GreedySeat | Chooser) -> int:
    """The index in ``seat``'s listing of the action ``bot`` chooses from the reference's view of ``k``."""
    assert not isinstance(bot, (random.Random, GreedySeat))
    state = convert.snapshot(k)
    legal = engine.legal_actions(state, seat)
    action = bot.choose(player_view(state, seat, awaited=frozenset(k.awaiting)), legal)
    if action not in legal:
        engine.apply(state, seat, action)  # raises the reference's error for this action
    return legal.index(action)
