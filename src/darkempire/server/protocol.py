"""The game protocol: the messages a game connection carries, version ``darkempire-server/1``.

Every message is one JSON text frame with the envelope of the wire format (:mod:`tablekit.wire`): a
``"format"`` (:data:`PROTOCOL`) and a ``"type"``. What it carries of the game is the wire format's own
messages (:mod:`darkempire.serialization`): ``"action"``, ``"event"`` and ``"prompt"`` (a view and its legal
actions), each with its own envelope. The JSON Schemas are in ``darkempire/server/schemas/``
(:mod:`darkempire.server.protocol_schema`).

A client sends:

* ``hello`` (first, once): ``seat`` and ``credential`` to play a seat, both ``null`` to watch;
  ``since``, the last ``seq`` it saw (``null`` on a first connection).
* ``act``: ``credential`` and ``action``, one of the prompt's ``legal_actions`` as it lists them (an
  ``"action"`` message without its ``format`` and ``type``).

The server sends:

* ``welcome``: the answer to ``hello``: the ``seat`` (``null`` for a spectator), the ``seq`` of the match
  now, the events ``missed`` after ``since`` (every event the seat may see, from the deal, on a first
  connection) and the ``prompt``.
* ``update``: after each accepted choice, to every connection of the match: its ``seq``, the events it
  caused as this seat may see them (:func:`~darkempire.rules.events.events_for`) and the seat's new
  ``prompt``. The last choice of a simultaneous step resolves it: its one update carries the whole reveal.
* ``ack``: to the connection that sent an accepted ``act``, before the update: its ``seq``.
* ``timeout``: to every connection, after the ``update`` of a choice the server's bot made for a human
  seat that let its time for the decision run out (a match's ``time_limit``, off by default): the ``seat``
  and the choice's ``seq``.
* ``error``: a refusal: its ``code`` (:mod:`darkempire.server.refusals`), the broken ``rule`` for an illegal
  move, a ``message``, and the ``path`` of a bad field. The connection stays open and nothing changed.

``seq`` counts the match's accepted choices: the deal is 0, the ``k``-th choice ``k``. What each seat is sent
is built from that seat's view and events alone (spectators: the public ones), so it can tell nothing more.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final, cast

import attrs

from darkempire.rules.actions import Action
from darkempire.rules.events import Event
from darkempire.rules.errors import IllegalActionError
from darkempire.serialization import FORMAT, SerializationError, from_data, to_data
from darkempire.server.refusals import BadRequestError, FrameTooLargeError, ServerError
from darkempire.wire.prompts import Prompt
from tablekit import wire as kit

__all__ = [
    "CLIENT_TYPES",
    "MAX_FRAME_BYTES",
    "PROTOCOL",
    "RATE_BURST",
    "RATE_PER_SECOND",
    "SERVER_TYPES",
    "Act",
    "Frame",
    "Hello",
    "ack_message",
    "error_message",
    "message_text",
    "timeout_message",
    "parse_client_message",
    "spliced_text",
    "update_message",
    "welcome_message",
]

#: The protocol's format, the ``"format"`` of every message.
PROTOCOL: Final = kit.Format("darkempire-server", 1)
#: The message types a client sends.
CLIENT_TYPES: Final = ("hello", "act")
#: The message types the server sends.
SERVER_TYPES: Final = ("welcome", "update", "ack", "error", "timeout")
#: The longest frame a client may send, in bytes: an action message is under 1 kB.
MAX_FRAME_BYTES: Final = 16 * 1024
#: The messages a connection may send per second on average...
RATE_PER_SECOND: Final = 20.0
#: ... and at once after a pause.
RATE_BURST: Final = 40


class Frame(dict[str, Any]):
    """A server message that is sent to several connections (an ``update`` to every connection of a seat):
    its JSON text is made once, by the first connection that sends it (:meth:`text`), or given when it is made
    from text already encoded (:meth:`encoded`). Do not change it."""

    __slots__ = ("_text",)
    _text: str

    @classmethod
    def encoded(cls, message: dict[str, Any], text: str) -> Frame:
        """``message`` whose text is ``text``, which must be :func:`message_text`'s of it (:func:`spliced_text`
        makes it from the text of its largest part, encoded once for several messages)."""
        frame = cls(message)
        frame._text = text
        return frame

    def text(self) -> str:
        """The message as one compact JSON text frame."""
        try:
            return self._text
        except AttributeError:
            self._text = message_text(self)
            return self._text


#: ``json.dumps(..., separators=(",", ":"), ensure_ascii=False, allow_nan=False)``, made once: dumps makes an
#: encoder per call when given options, a cost paid for every small part :func:`spliced_text` encodes.
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def message_text(message: dict[str, Any]) -> str:
    """A server message as the JSON text of its frame (compact, UTF-8, no NaN)."""
    return _ENCODER.encode(message)


def spliced_text(data: dict[str, Any], key: str, text: str) -> str:
    """:func:`message_text` of ``data``, given ``text``, the JSON text of ``data[key]`` already made.

    The same bytes, as compact JSON is the text of each key and value in order: the keys before ``key`` and
    those after it are encoded as two objects, whose braces come off, and ``text`` goes between them. So a
    part shared by many messages (the finished weeks, in every view of a match) is encoded once, not once per
    message.
    """
    keys = list(data)
    at = keys.index(key)
    head = _ENCODER.encode({k: data[k] for k in keys[:at]})[1:-1]
    tail = _ENCODER.encode({k: data[k] for k in keys[at + 1 :]})[1:-1]
    middle = f"{_ENCODER.encode(key)}:{text}"
    return "{" + ",".join(part for part in (head, middle, tail) if part) + "}"


@attrs.frozen
class Hello:
    """A client's first message.

    :ivar seat: the seat to play, or ``None`` to watch.
    :ivar credential: the seat's credential (``None`` to watch).
    :ivar since: the last ``seq`` the client saw, or ``None``: it is sent the events after it.
    """

    seat: int | None
    credential: str | None
    since: int | None


@attrs.frozen
class Act:
    """A move: the seat's credential and its action.

    :ivar credential: the credential of the connection's seat.
    :ivar action: the action.
    """

    credential: str
    action: Action


_FIELDS: Final[dict[str, dict[str, tuple[type, ...]]]] = {
    "hello": {"seat": (int, type(None)), "credential": (str, type(None)), "since": (int, type(None))},
    "act": {"credential": (str,), "action": (dict,)},
}


def parse_client_message(frame: str | bytes) -> Hello | Act:
    """The message in a client's frame, checked field by field.

    :raises FrameTooLargeError: the frame is longer than :data:`MAX_FRAME_BYTES` (it is not parsed).
    :raises BadRequestError: it is not a ``hello`` or ``act`` message of this protocol: its message names
        the field.
    """
    if isinstance(frame, bytes):
        raise BadRequestError("the protocol's messages are JSON text frames, not binary ones")
    if len(frame) > MAX_FRAME_BYTES:  # characters: at most as many as bytes, a cheap first cut
        raise FrameTooLargeError(f"a message is at most {MAX_FRAME_BYTES} bytes")
    try:
        name, payload = kit.open_envelope(kit.load_json(frame, max_bytes=MAX_FRAME_BYTES), PROTOCOL, CLIENT_TYPES)
    except kit.DocumentTooLargeError:
        raise FrameTooLargeError(f"a message is at most {MAX_FRAME_BYTES} bytes") from None
    except kit.WireError as error:
        raise BadRequestError(str(error)) from None
    _check_fields(name, payload)
    if name == "hello":
        return _hello(payload)
    return Act(payload["credential"], _action(payload["action"]))


def _action(data: dict[str, Any]) -> Action:
    """The action of an ``act``: as the prompt lists it, without an envelope of its own."""
    for key in ("format", "type"):
        if key in data:
            raise BadRequestError(f"action.{key}: an action is sent as the prompt lists it, without {key!r}")
    try:
        return cast(Action, from_data({"format": FORMAT, "type": "action", **data}, "action"))
    except SerializationError as error:
        raise BadRequestError(f"action.{error}") from None


def _check_fields(name: str, payload: dict[str, Any]) -> None:
    fields = _FIELDS[name]
    for key in payload:
        if key not in fields:
            raise BadRequestError(f"{key}: unknown field of a {name!r} message; its fields are {', '.join(fields)}")
    for key, types in fields.items():
        if key not in payload:
            raise BadRequestError(f"{key}: missing field of a {name!r} message")
        value = payload[key]
        if type(value) not in types:
            raise BadRequestError(f"{key}: wrong type {type(value).__name__} in a {name!r} message")


def _hello(payload: dict[str, Any]) -> Hello:
    seat, credential, since = payload["seat"], payload["credential"], payload["since"]
    if (seat is None) != (credential is None):
        raise BadRequestError("seat: give a seat and its credential to play, or neither to watch")
    if since is not None and since < 0:
        raise BadRequestError("since: a seq is 0 or more")
    return Hello(seat, credential, since)


def _envelope(type_name: str, payload: dict[str, Any]) -> dict[str, Any]:
    return kit.make_envelope(PROTOCOL, type_name, payload)


def _events(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [to_data(event) for event in events]


def _prompt(prompt: Prompt | dict[str, Any]) -> dict[str, Any]:
    return prompt if isinstance(prompt, dict) else to_data(prompt)


def welcome_message(
    seat: int | None, seq: int, missed: Sequence[tuple[int, Sequence[Event]]], prompt: Prompt | dict[str, Any]
) -> dict[str, Any]:
    """The answer to ``hello``: the seat, the match's ``seq``, the events missed (``(seq, events)`` pairs)
    and the prompt (a :class:`~darkempire.wire.prompts.Prompt`, or its message data already encoded)."""
    steps = [{"seq": k, "events": _events(events)} for k, events in missed]
    return _envelope("welcome", {"seat": seat, "seq": seq, "missed": steps, "prompt": _prompt(prompt)})


def update_message(seq: int, events: Sequence[Event], prompt: Prompt | dict[str, Any]) -> dict[str, Any]:
    """One accepted choice as a seat sees it: its ``seq``, its events and the seat's new prompt (as for
    :func:`welcome_message`)."""
    return _envelope("update", {"seq": seq, "events": _events(events), "prompt": _prompt(prompt)})


def ack_message(seq: int) -> dict[str, Any]:
    """The acknowledgement of the sender's accepted move, written to storage before it is sent."""
    return _envelope("ack", {"seq": seq})


def error_message(error: ServerError | IllegalActionError) -> dict[str, Any]:
    """A refusal as an ``"error"`` message: its code, the broken rule of an illegal move, its message."""
    if isinstance(error, IllegalActionError):
        return _envelope("error", {"code": "illegal-action", "rule": error.rule, "message": error.message})
    return _envelope("error", {"code": error.code, "rule": None, "message": error.message})


def timeout_message(seat: int, seq: int) -> dict[str, Any]:
    """The notice that ``seat`` let its time run out and the server's bot made its choice ``seq``."""
    return _envelope("timeout", {"seat": seat, "seq": seq})
