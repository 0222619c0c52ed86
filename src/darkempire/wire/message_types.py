"""The kinds of value that travel as messages, and the ``"type"`` of each (spec 9.4)."""

from __future__ import annotations

from typing import Any, Final, TypeAlias

from darkempire.rules.actions import Action
from darkempire.rules.events import EVENT_TYPES, Event
from darkempire.public_record import PublicRecord
from darkempire.records import GameRecord
from darkempire.rules.state import GameState
from darkempire.rules.views import PlayerView
from darkempire.wire.card_table import CardTable
from darkempire.wire.converter import ACTION_TYPES
from darkempire.wire.prompts import Prompt
from darkempire.wire.wire_errors import NotAMessageError

__all__ = ["MESSAGE_TYPES", "Message", "message_type"]

#: Any value that travels as a message.
Message: TypeAlias = GameState | PlayerView | Prompt | Action | Event | GameRecord | PublicRecord | CardTable

#: The message ``type`` of each kind of value.
MESSAGE_TYPES: Final[dict[str, Any]] = {
    "game-state": GameState,
    "player-view": PlayerView,
    "prompt": Prompt,
    "action": Action,
    "event": Event,
    "game-record": GameRecord,
    "public-record": PublicRecord,
    "card-table": CardTable,
}


def message_type(value: object) -> str:
    """The ``"type"`` of the message that carries ``value``.

    :raises NotAMessageError: (a :class:`TypeError`) if ``value`` is not a state, view, prompt, action, event,
        record or card table.
    """
    for name, cls in (
        ("game-state", GameState),
        ("player-view", PlayerView),
        ("prompt", Prompt),
        ("game-record", GameRecord),
        ("public-record", PublicRecord),
        ("card-table", CardTable),
    ):
        if isinstance(value, cls):
            return name
    if type(value) in ACTION_TYPES:
        return "action"
    if type(value) in EVENT_TYPES:
        return "event"
    raise NotAMessageError(f"{type(value).__name__} values do not travel as darkempire messages")
