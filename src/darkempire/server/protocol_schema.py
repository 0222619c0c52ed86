"""JSON Schemas (draft 2020-12) of the game protocol's messages (:mod:`darkempire.server.protocol`).

One file per message type in ``darkempire/server/schemas/``, generated from the table below, as
:mod:`darkempire.schema` generates the wire format's. What the messages carry of the game refers to the wire
format's schemas by their ``$id``: a prompt is ``prompt.json``, an event ``event.json``, and the action of an
``act`` is one item of a prompt's ``legal_actions``. Regenerate them after changing the protocol::

    python -m darkempire.server.protocol_schema            # rewrite src/darkempire/server/schemas/*.json
    python -m darkempire.server.protocol_schema --check    # exit 1 if a shipped file is out of date
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

from darkempire.schema import SCHEMA_ID_BASE
from darkempire.server import refusals
from darkempire.server.protocol import CLIENT_TYPES, PROTOCOL, SERVER_TYPES
from darkempire.wire.parsing import parse_json
from tablekit.wire import schema_files_main

__all__ = ["ERROR_CODES", "PROTOCOL_SCHEMA_FILES", "PROTOCOL_SCHEMA_ID_BASE", "generate_protocol_schemas", "main", "shipped_protocol_schemas"]

#: The base of every protocol schema's ``$id``.
PROTOCOL_SCHEMA_ID_BASE: Final = SCHEMA_ID_BASE + "server/"
#: The schema file of each message type.
PROTOCOL_SCHEMA_FILES: Final[dict[str, str]] = {name: f"{name}.json" for name in (*CLIENT_TYPES, *SERVER_TYPES)}
_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"

_SEQ: Final = {"type": "integer", "minimum": 0}
_SEAT: Final = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 4}, {"type": "null"}]}
_CREDENTIAL: Final = {"type": "string", "maxLength": 256}
_PROMPT: Final = {"$ref": SCHEMA_ID_BASE + "prompt.json"}
_EVENTS: Final = {"type": "array", "items": {"$ref": SCHEMA_ID_BASE + "event.json"}}

#: Every ``code`` an ``"error"`` message may carry: those of :mod:`darkempire.server.refusals`, and
#: ``illegal-action`` for a move the rules refuse.
ERROR_CODES: Final = tuple(
    sorted({"illegal-action"} | {kind.code for kind in vars(refusals).values() if isinstance(kind, type) and issubclass(kind, refusals.ServerError)})
)

#: Each message's description and fields (all required).
_MESSAGES: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "hello": (
        "A client's first message: a seat and its credential to play it, both null to watch; since, the last seq seen.",
        {"seat": _SEAT, "credential": {"anyOf": [_CREDENTIAL, {"type": "null"}]}, "since": {"anyOf": [_SEQ, {"type": "null"}]}},
    ),
    "act": (
        "A move: the seat's credential and one of its prompt's legal actions, as the prompt lists it.",
        {"credential": _CREDENTIAL, "action": {"$ref": SCHEMA_ID_BASE + "prompt.json#/properties/legal_actions/items"}},
    ),
    "welcome": (
        "The answer to hello: the seat (null for a spectator), the match's seq, the events missed since, the prompt.",
        {
            "seat": _SEAT,
            "seq": _SEQ,
            "missed": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"seq": _SEQ, "events": _EVENTS},
                    "required": ["seq", "events"],
                    "additionalProperties": False,
                },
            },
            "prompt": _PROMPT,
        },
    ),
    "update": (
        "One accepted choice as this seat sees it: its seq, its events, the seat's new prompt.",
        {"seq": _SEQ, "events": _EVENTS, "prompt": _PROMPT},
    ),
    "ack": ("The sender's move was accepted and stored: its seq.", {"seq": _SEQ}),
    "timeout": (
        "A human seat let its time for a decision run out: the server's bot made its choice seq.",
        {"seat": {"type": "integer", "minimum": 0, "maximum": 4}, "seq": _SEQ},
    ),
    "error": (
        "A refusal; nothing changed and the connection stays open (but after seat-lost, hello-timeout and "
        "too-many-connections, sent before the server closes it): its code, the broken rule of an illegal move, why.",
        {"code": {"enum": list(ERROR_CODES)}, "rule": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "message": {"type": "string"}},
    ),
}


def _schema(name: str) -> dict[str, Any]:
    description, fields = _MESSAGES[name]
    properties: dict[str, Any] = {"format": {"const": PROTOCOL.tag}, "type": {"const": name}, **fields}
    return {
        "$schema": _DIALECT,
        "$id": PROTOCOL_SCHEMA_ID_BASE + PROTOCOL_SCHEMA_FILES[name],
        "title": f"darkempire server {name} message ({PROTOCOL.tag})",
        "description": description,
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def generate_protocol_schemas() -> dict[str, dict[str, Any]]:
    """Every protocol message's schema, by file name (:data:`PROTOCOL_SCHEMA_FILES`)."""
    return {PROTOCOL_SCHEMA_FILES[name]: _schema(name) for name in PROTOCOL_SCHEMA_FILES}


def shipped_protocol_schemas() -> dict[str, dict[str, Any]]:
    """The protocol's schema files shipped in the installed package, by file name."""
    folder = resources.files("darkempire.server") / "schemas"
    return {name: parse_json((folder / name).read_text(encoding="utf-8")) for name in PROTOCOL_SCHEMA_FILES.values()}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m darkempire.server.protocol_schema [--check] [DIR]``: write or check the schema files.

    :returns: 0, or 1 if ``--check`` finds a missing or outdated file.
    """
    here = Path(__file__).resolve().parent / "schemas"
    return schema_files_main("python -m darkempire.server.protocol_schema", __doc__.split("\n\n")[0], generate_protocol_schemas, here, argv)


if __name__ == "__main__":
    raise SystemExit(main())
