"""Reading JSON text strictly: a size limit, no repeated key, no ``NaN`` or ``Infinity``.

:func:`parse_json` is the first step of every loader of :mod:`darkempire.serialization`, and the adapters use
it for their own documents. It is the kit's strict loader, :func:`tablekit.wire.load_json`, with this
format's default limit and its errors: refusing a hostile document costs no more than reading the largest
real one, since a text longer than ``max_size`` is refused before it is parsed, and the search for a repeated
key walks the parsed document without recursion.
"""

from __future__ import annotations

from typing import Any, Final

from darkempire.errors import InvalidArgumentError
from darkempire.wire.wire_errors import (
    DocumentTooLargeError,
    DuplicateKeyError,
    MalformedJSONError,
    SerializationError,
    quote,
    quote_key,
)
from tablekit import wire as kit
from tablekit.wire import json_path

__all__ = ["DEFAULT_MAX_SIZE", "parse_json"]

#: The longest document a loader reads by default: 4 MiB (in bytes; a ``str`` is counted in UTF-8). The largest
#: reachable documents are about 25 kB compact (the record of a long 5-player game, a late state, a prompt) and
#: 60 kB indented; pass ``max_size`` to a loader to change the limit.
DEFAULT_MAX_SIZE: Final = 4 * 1024 * 1024


def _check_max_size(max_size: object) -> int:
    if type(max_size) is not int or max_size < 0:
        raise InvalidArgumentError(f"max_size is a number of bytes (an int of 0 or more), not {quote(max_size)}")
    return max_size


def parse_json(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> Any:
    """JSON text (UTF-8 if bytes) as Python data, as strictly as the loaders read it: no ``NaN`` or
    ``Infinity``, no object that repeats a key, no document longer than ``max_size``.

    :raises DocumentTooLargeError: the text is longer than ``max_size`` bytes (a ``str`` counted in UTF-8); it
        is not parsed.
    :raises DuplicateKeyError: an object repeats a key; the ``path`` names the key.
    :raises MalformedJSONError: the text is not JSON.
    :raises InvalidArgumentError: ``max_size`` is not an int of 0 or more.
    """
    limit = _check_max_size(max_size)
    try:
        return kit.load_json(text, max_bytes=limit)
    except kit.WireError as error:
        raise _ours(error) from None


def _ours(error: kit.WireError) -> SerializationError:
    """The kit's refusal as this format's error: its class, and a repeated key's path naming the key."""
    if isinstance(error, kit.DuplicateKeyError):
        parts = [quote_key(part) if isinstance(part, str) else part for part in (*error.parts, error.key)]
        message = f"the key {quote(error.key)} appears twice in one object; each key may appear once"
        return DuplicateKeyError(message, path=json_path(parts), key=error.key)
    if isinstance(error, kit.DocumentTooLargeError):
        return DocumentTooLargeError(f"{error.message} (max_size)")
    return MalformedJSONError(error.message)
