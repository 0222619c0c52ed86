"""The prompt: what a server sends a seat whose choice it awaits (spec 9.2, 9.4)."""

from __future__ import annotations

import attrs

from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.state import GameState
from darkempire.validity import check_view
from darkempire.rules.views import PlayerView, player_view
from darkempire.wire.wire_errors import SerializationError

__all__ = ["Prompt", "check_prompt", "make_prompt"]


@attrs.frozen
class Prompt:
    """What a server sends a seat whose choice it awaits: its view and its legal actions (spec 9.2, 9.4).

    :ivar view: the seat's :class:`~darkempire.rules.views.PlayerView`.
    :ivar legal_actions: the seat's legal actions, in the engine's order; the
        client answers with one of them as an ``"action"`` message.
    """

    view: PlayerView
    legal_actions: tuple[Action, ...]


def make_prompt(state: GameState, seat: int) -> Prompt:
    """The prompt for ``seat`` now: :func:`~darkempire.rules.views.player_view` and
    :func:`~darkempire.rules.engine.legal_actions` (empty when the seat is not awaited).

    :raises WrongSeatError: if ``seat`` is not a seat of this game.
    """
    return Prompt(player_view(state, seat), tuple(engine.legal_actions(state, seat)))


def check_prompt(prompt: Prompt) -> None:
    """Raise the error of :func:`~darkempire.validity.check_view` for the prompt's view, its path inside
    ``"view"``; the legal actions are only checked as values (by loading them).

    :raises InconsistentStateError, ~darkempire.wire.wire_errors.InvalidValueError: see :func:`~darkempire.validity.check_view`.
    """
    try:
        check_view(prompt.view)
    except SerializationError as error:
        raise type(error)(error.message, path="view" + (f".{error.path}" if error.path else "")) from None
