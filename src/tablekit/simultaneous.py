"""The collector of hidden simultaneous choices: one seat at a time, resolved when every awaited seat chose.

A front end receives choices one seat at a time, but a simultaneous step must resolve with all of them at
once, and no seat may learn another's choice before that. A :class:`Round` holds the current state and the
choices made so far in this step, hidden; :func:`choose` records one seat's choice, :func:`withdraw` takes it
back, and once every awaited seat has chosen, :func:`choose` resolves the step through
:meth:`~tablekit.game.Game.step`.

What a seat learns from the collector never depends on another seat's pending choice:

* :func:`choose` checks who may choose (:class:`~tablekit.errors.NotAwaitedError`), whether the seat itself
  chose already (:class:`~tablekit.errors.AlreadyChoseError`), and the action against the state alone
  (:meth:`~tablekit.game.Game.check`); none of these looks at the other pending choices;
* its events say only *that* a seat chose (:class:`ChoiceMade` with the action known to that seat);
* if the game's ``step`` refuses a combination of individually accepted choices, that is the game's bug and
  raises :class:`~tablekit.errors.GameContractError`, never an error blamed on the last seat to choose.

A sequential step is the same with one awaited seat: its choice resolves the step at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic

import attrs

from tablekit._typevars import A, C, E, S, V
from tablekit.chance import ChanceSource
from tablekit.errors import AlreadyChoseError, GameContractError, IllegalChoiceError, NotAwaitedError
from tablekit.errors import NothingToWithdrawError
from tablekit.events import Event
from tablekit.game import Game, Transition
from tablekit.wire import quote

__all__ = ["ChoiceMade", "ChoiceWithdrawn", "Collected", "Round", "choose", "resolve", "start", "withdraw"]


@attrs.frozen
class ChoiceMade(Generic[A]):
    """A seat chose, and its choice is pending until the step resolves.

    :ivar seat: the seat that chose.
    :ivar action: its action; ``None`` in the form the other seats see.
    """

    seat: int
    action: A | None


@attrs.frozen
class ChoiceWithdrawn:
    """A seat took back its pending choice (public: everyone saw that it had chosen).

    :ivar seat: the seat.
    """

    seat: int


def _pending(value: Mapping[int, A] | tuple[tuple[int, A], ...]) -> tuple[tuple[int, A], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted(items, key=lambda item: item[0]))


@attrs.frozen
class Round(Generic[S, A]):
    """A step being collected: the state, the chance source, and the pending choices (hidden from others).

    :ivar state: the game's state; the pending choices are not in it, so a view of it cannot leak them.
    :ivar chance: the chance source the step will resolve with.
    :ivar pending: ``(seat, action)`` pairs of the seats that chose, in seat order.
    """

    state: S
    chance: ChanceSource
    pending: tuple[tuple[int, A], ...] = attrs.field(default=(), converter=_pending)

    @property
    def chosen(self) -> frozenset[int]:
        """The seats that have chosen in this step: public, as at the table."""
        return frozenset(seat for seat, _ in self.pending)

    def pending_of(self, seat: int) -> A | None:
        """``seat``'s own pending choice, or ``None``: give this only to that seat."""
        return next((action for chosen, action in self.pending if chosen == seat), None)


@attrs.frozen
class Collected(Generic[S, A, E]):
    """What :func:`choose` or :func:`withdraw` did.

    :ivar round: the round to continue with: the same step with the choice recorded or withdrawn, or, if the
        step resolved, the next step with nothing pending.
    :ivar events: the collector's own events (:class:`ChoiceMade`, :class:`ChoiceWithdrawn`), with their
        visibility.
    :ivar transition: the step's transition if it resolved, else ``None``.
    """

    round: Round[S, A]
    events: tuple[Event[ChoiceMade[A] | ChoiceWithdrawn], ...]
    transition: Transition[S, E] | None = None


def start(game: Game[C, S, A, V, E], config: C, chance: ChanceSource) -> tuple[Round[S, A], Transition[S, E]]:
    """A new game's first round, and the set-up's transition (its events are the opening of the log)."""
    opening = game.initial(config, chance)
    return Round(opening.state, opening.chance), opening


def _check_awaited(game: Game[C, S, A, V, E], state: S, seat: object) -> int:
    players = game.players(state)
    if type(seat) is not int or not 0 <= seat < players:
        raise NotAwaitedError(f"seat {quote(seat, 20)} is not a seat of this {players}-seat game (seats are the ints "
                              f"0 to {players - 1})")
    if seat not in game.awaited(state):
        over = " (the game is over)" if game.is_over(state) else ""
        raise NotAwaitedError(f"seat {seat} is not awaited in this step{over}")
    return seat


def choose(game: Game[C, S, A, V, E], round: Round[S, A], seat: int, action: A) -> Collected[S, A, E]:
    """Record ``seat``'s choice of ``action``; resolve the step if it was the last awaited seat.

    :raises NotAwaitedError: ``seat`` is not a seat the step waits for (or the game is over).
    :raises AlreadyChoseError: ``seat`` has a pending choice in this step.
    :raises IllegalChoiceError: the game's :meth:`~tablekit.game.Game.check` refuses ``action``.
    :raises GameContractError: the game's ``step`` refused choices its ``check`` accepted, or stopped
        awaiting anyone before the game is over.
    """
    seat = _check_awaited(game, round.state, seat)
    if seat in round.chosen:
        raise AlreadyChoseError(f"seat {seat} already chose in this step; withdraw it first", seat=seat)
    checked = game.check(round.state, seat, action)
    if checked is not None:  # the game's own objects: the caller's may change before the step resolves
        action = checked
    pending = (*round.pending, (seat, action))
    made = Event.private(ChoiceMade(seat, action), {seat}, others_see=ChoiceMade[A](seat, None))
    events: tuple[Event[ChoiceMade[A] | ChoiceWithdrawn], ...] = (made,)
    if len(pending) < len(game.awaited(round.state)):
        return Collected(Round(round.state, round.chance, pending), events)
    transition = resolve(game, round.state, dict(pending), round.chance)
    return Collected(Round(transition.state, transition.chance), events, transition)


def resolve(game: Game[C, S, A, V, E], state: S, choices: dict[int, A], chance: ChanceSource) -> Transition[S, E]:
    """The step of ``choices`` that the game's ``check`` accepted (one per awaited seat), as :func:`choose`
    resolves it: for an adapter that checked them itself and runs the step again with more chance.

    :raises GameContractError: the step refused them, or stopped awaiting anyone before the game is over.
    """
    try:
        transition = game.step(state, choices, chance)
    except IllegalChoiceError as error:
        raise GameContractError(f"{game.name}: step refused choices that check accepted: {error}") from error
    if not game.awaited(transition.state) and not game.is_over(transition.state):
        raise GameContractError(f"{game.name}: a step left a game that is not over awaiting no seat")
    return transition


def withdraw(game: Game[C, S, A, V, E], round: Round[S, A], seat: int) -> Collected[S, A, E]:
    """Take back ``seat``'s pending choice, so that it may choose again before the step resolves.

    :raises NotAwaitedError: ``seat`` is not a seat the step waits for.
    :raises NothingToWithdrawError: ``seat`` has no pending choice.
    """
    seat = _check_awaited(game, round.state, seat)
    if seat not in round.chosen:
        raise NothingToWithdrawError(f"seat {seat} has no pending choice to withdraw", seat=seat)
    pending = tuple(item for item in round.pending if item[0] != seat)
    event: Event[ChoiceMade[A] | ChoiceWithdrawn] = Event.public(ChoiceWithdrawn(seat))
    return Collected(Round(round.state, round.chance, pending), (event,))
