"""Writing a message: the envelope (``"format"`` and ``"type"``) around a value's JSON form, and its text.

This is the part of encoding that needs no list of message types, so that :mod:`darkempire.records` can
fingerprint a state (:func:`~darkempire.records.state_digest`) without importing the loaders, which know
records. :func:`~darkempire.wire.messages.to_data` and its kin name the type and call :func:`encode`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from darkempire.wire.converter import CONVERTER
from darkempire.wire.typecheck import check_types
from darkempire.wire.wire_errors import Fault, SerializationError
from tablekit.wire import Format, make_envelope

__all__ = ["FORMAT", "FORMAT_PATTERN", "FORMAT_VERSION", "WIRE_FORMAT", "canonical_text", "dump_text", "encode"]

#: The wire format's version number.
FORMAT_VERSION: Final = 1
#: The wire format as the kit names it, whose :func:`~tablekit.wire.make_envelope` and
#: :func:`~tablekit.wire.open_envelope` write and read every message's envelope.
WIRE_FORMAT: Final = Format("darkempire", FORMAT_VERSION)
#: The value of every message's ``"format"`` field.
FORMAT: Final = WIRE_FORMAT.tag
#: A ``"format"`` of this library, of any version (the version is the group).
FORMAT_PATTERN: Final = re.compile(r"darkempire/([0-9]{1,9})")


def encode(value: Any, type_name: str) -> dict[str, Any]:
    """``value`` as a JSON-ready dict: ``format``, ``type`` (``type_name``), then its fields.

    :raises SerializationError: for a value built by hand that holds a value the format cannot carry (a seed
        that is not an integer, a card that is not one of the game's); its ``path`` names it.
    """
    try:
        payload = CONVERTER.unstructure(value, unstructure_as=type(value))
    except Exception as exc:  # every failure becomes a located SerializationError
        raise _unencodable(value, exc) from None
    return make_envelope(WIRE_FORMAT, type_name, payload)


def _unencodable(value: Any, exc: Exception) -> SerializationError:
    """The error for a value that failed to encode: the type check finds where (the hooks do not know)."""
    try:
        check_types(value, type(value), ())
    except SerializationError as located:
        return located
    if isinstance(exc, Fault):
        return exc.error()
    return SerializationError(f"cannot encode the value: {type(exc).__name__}: {exc}")


def dump_text(data: dict[str, Any], **options: Any) -> str:
    """``json.dumps(data, **options)`` with ``NaN`` refused, every failure a :class:`SerializationError`."""
    try:
        return json.dumps(data, allow_nan=False, **options)
    except (TypeError, ValueError) as exc:  # encode checks the types; this is the last line of defence
        raise SerializationError(f"cannot encode the value as JSON: {exc}") from None


def canonical_text(data: dict[str, Any]) -> str:
    """One fixed text per message: sorted keys, no spaces, ASCII only (used for digests)."""
    return dump_text(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
