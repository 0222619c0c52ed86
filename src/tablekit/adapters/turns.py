"""Any game with its simultaneous steps taken in turn: :class:`InTurns`, a :class:`~tablekit.game.Game` too.

A framework that wants one actor per node (a sequential OpenSpiel game, a PettingZoo AEC environment that
never shows a step half chosen) can play a simultaneous game so: the seats a step awaits choose one at a time,
in seat order, and each choice stays hidden from every other seat until the last of them has chosen and the
wrapped game's step resolves with them all, as the kit's collector (:mod:`tablekit.simultaneous`) would.
Nothing else changes: the legal actions, the checks, the events (reported when the wrapped step resolves), the
views and the returns are the wrapped game's.

A seat's view (:class:`TurnView`) is the wrapped view, the seats that have chosen in this step (public: the
turn moves on), and the seat's own choice; never another seat's choice. Imports no framework.

>>> from tablekit.adapters.openspiel import register  # doctest: +SKIP
>>> register(InTurns(GAME), encoder, "toyspiel_turns", sequential=True, ...)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic

import attrs

from tablekit._typevars import A, C, S
from tablekit.chance import ChanceSource
from tablekit.errors import NotAwaitedError
from tablekit.game import Game, Transition

__all__ = ["InTurns", "TurnView", "Turns"]


@attrs.frozen
class Turns(Generic[S, A]):
    """A state of :class:`InTurns`: the wrapped game's decided state and the choices of its step so far.

    :ivar state: the wrapped game's state.
    :ivar chosen: ``(seat, action)`` of each awaited seat that has chosen in this step, in seat order; hidden.
    """

    state: S
    chosen: tuple[tuple[int, A], ...] = ()


@attrs.frozen
class TurnView(Generic[A]):
    """What a seat sees of a :class:`Turns`.

    :ivar view: the wrapped game's view.
    :ivar chosen: the seats that have chosen in this step (public: whose turn it is says as much).
    :ivar own: the seat's own choice in this step, ``None`` if it has not chosen (or for a spectator).
    """

    view: Any
    chosen: tuple[int, ...]
    own: A | None


class InTurns(Generic[C, S, A]):
    """``game`` with the awaited seats of every step choosing one after another, lowest seat first.

    :param game: the wrapped game; its name and version are this game's too (its records are the same game).
    """

    def __init__(self, game: Game[C, S, A, Any, Any]) -> None:
        self.game = game

    @property
    def name(self) -> str:
        """The wrapped game's name."""
        return self.game.name

    @property
    def version(self) -> int:
        """The wrapped game's version."""
        return self.game.version

    def initial(self, config: C, chance: ChanceSource) -> Transition[Turns[S, A], Any]:
        """The wrapped game's set-up."""
        done = self.game.initial(config, chance)
        return Transition(Turns(done.state), done.events, done.chance)

    def players(self, state: Turns[S, A]) -> int:
        """The wrapped game's number of seats."""
        return self.game.players(state.state)

    def awaited(self, state: Turns[S, A]) -> frozenset[int]:
        """The lowest awaited seat of the wrapped step that has not chosen yet; nobody at the end."""
        left = self.game.awaited(state.state) - {seat for seat, _ in state.chosen}
        return frozenset({min(left)}) if left else frozenset()

    def legal_actions(self, state: Turns[S, A], seat: int) -> Sequence[A]:
        """The wrapped game's legal actions (they read the decided state alone, never a pending choice)."""
        return self.game.legal_actions(state.state, seat)

    def check(self, state: Turns[S, A], seat: int, action: A) -> None:
        """The wrapped game's check, for the seat whose turn it is.

        :raises ~tablekit.errors.NotAwaitedError: ``seat`` is not the seat to choose now.
        """
        if seat not in self.awaited(state):
            raise NotAwaitedError(f"seat {seat} does not choose now: seat {sorted(self.awaited(state))} does",
                                  seat=seat)  # fmt: skip
        self.game.check(state.state, seat, action)

    def step(self, state: Turns[S, A], choices: Mapping[int, A], chance: ChanceSource) -> Transition[Turns[S, A], Any]:
        """Record the one seat's choice; after the last awaited seat's, resolve the wrapped step with them all."""
        chosen = tuple(sorted((*state.chosen, *choices.items()), key=lambda item: item[0]))
        if {seat for seat, _ in chosen} != self.game.awaited(state.state):
            return Transition(Turns(state.state, chosen), (), chance)
        done = self.game.step(state.state, dict(chosen), chance)
        return Transition(Turns(done.state), done.events, done.chance)

    def view(self, state: Turns[S, A], seat: int | None) -> TurnView[A]:
        """The wrapped view, the seats that have chosen, and the seat's own choice."""
        own = next((action for chosen, action in state.chosen if chosen == seat), None)
        return TurnView(self.game.view(state.state, seat), tuple(s for s, _ in state.chosen), own)

    def is_over(self, state: Turns[S, A]) -> bool:
        """Whether the wrapped game is over."""
        return self.game.is_over(state.state)

    def returns(self, state: Turns[S, A]) -> tuple[float, ...]:
        """The wrapped game's returns."""
        return self.game.returns(state.state)
