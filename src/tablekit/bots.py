"""Bots, and the driver that plays a whole game of any kit game with them.

A :class:`Bot` sees what its seat may see and nothing more: the seat's view
(:meth:`~tablekit.game.Game.view`) and its legal actions. It never gets the state, so it cannot look at other
hands, and the driver asks the awaited seats one at a time through :mod:`tablekit.simultaneous`, so a bot
never sees another seat's pending choice either (those are not in the state its view is made from).

:func:`iter_game` yields every decision on the way; :func:`run_game` plays to the end and returns the
:class:`Played` game, whose ``record`` replays it with :func:`tablekit.records.replay`. Both are
deterministic: the same game, config, seed and bots give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Generic, Protocol, TypeVar

import attrs

from tablekit._typevars import A, C, E, S, V
from tablekit.chance import SeededChance
from tablekit.errors import KitError
from tablekit.events import Event
from tablekit.game import Game
from tablekit.records import Choice, Record
from tablekit.simultaneous import Collected, choose, start

__all__ = ["Bot", "BotCountError", "Played", "RandomBot", "Turn", "iter_game", "run_game"]

V_contra = TypeVar("V_contra", contravariant=True)


class Bot(Protocol[V_contra, A]):
    """Something that plays a seat: it picks one of the legal actions, given the seat's view."""

    def choose(self, view: V_contra, legal: Sequence[A]) -> A:
        """One of ``legal`` (never empty), chosen from what ``view`` shows."""
        ...


class BotCountError(KitError, ValueError):
    """The number of bots is not the number of seats."""


class RandomBot(Generic[A]):
    """A bot that picks uniformly among the legal actions, with its own seeded generator.

    It counts the legal actions and builds only the one it picks, so it is cheap on a
    :class:`~tablekit.game.LazyActions`.
    """

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(f"tablekit-random-bot:{seed}")

    def choose(self, view: object, legal: Sequence[A]) -> A:
        """A uniformly random element of ``legal``."""
        return legal[self._rng.randrange(len(legal))]


@attrs.frozen
class Turn(Generic[S, A, E]):
    """One decision of a game driven by :func:`iter_game`.

    :ivar seat: the seat that chose.
    :ivar action: its action.
    :ivar collected: what the collector did with it (the step's transition, if the choice resolved it).
    """

    seat: int
    action: A
    collected: Collected[S, A, E]


@attrs.frozen
class Played(Generic[C, S, A, E]):
    """A finished game played by :func:`run_game`.

    :ivar record: the game's record, to replay or store.
    :ivar state: the final state.
    :ivar returns: each seat's result (:meth:`~tablekit.game.Game.returns`).
    :ivar events: every event of every transition, the set-up's first (filter them with
        :func:`~tablekit.events.events_for`).
    """

    record: Record[C, A]
    state: S
    returns: tuple[float, ...]
    events: tuple[Event[E], ...]


def iter_game(
    game: Game[C, S, A, V, E], config: C, seed: int, bots: Sequence[Bot[V, A]]
) -> Iterator[Turn[S, A, E] | Event[E]]:
    """Play a game and yield, in order, the set-up's events, then each decision as a :class:`Turn`.

    The awaited seats are asked in seat order, each with its own view and legal actions.

    :raises BotCountError: ``bots`` does not have one bot per seat.
    :raises IllegalChoiceError: a bot chose an action the rules refuse.
    """
    round, opening = start(game, config, SeededChance(seed))
    if len(bots) != game.players(round.state):
        raise BotCountError(f"{len(bots)} bots for {game.players(round.state)} seats")
    yield from opening.events
    while not game.is_over(round.state):
        seat = min(game.awaited(round.state) - round.chosen)
        action = bots[seat].choose(game.view(round.state, seat), game.legal_actions(round.state, seat))
        collected: Collected[S, A, E] = choose(game, round, seat, action)
        yield Turn(seat, action, collected)
        round = collected.round


def run_game(game: Game[C, S, A, V, E], config: C, seed: int, bots: Sequence[Bot[V, A]]) -> Played[C, S, A, E]:
    """Play a whole game between ``bots``, one per seat, and return it (see :func:`iter_game` for the errors)."""
    choices: list[Choice[A]] = []
    events: list[Event[E]] = []
    state: S | None = None
    for item in iter_game(game, config, seed, bots):
        if isinstance(item, Event):
            events.append(item)
            continue
        choices.append(Choice(item.seat, item.action))
        if item.collected.transition is not None:
            events.extend(item.collected.transition.events)
        state = item.collected.round.state
    if state is None:  # a game over at the set-up: replay it to have its state
        state = start(game, config, SeededChance(seed))[0].state
    record = Record(game.name, game.version, config, seed, tuple(choices))
    return Played(record, state, game.returns(state), tuple(events))
