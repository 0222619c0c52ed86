"""Reading JSON text strictly: a size limit, no repeated key, no ``NaN`` or ``Infinity``.

:func:`parse_json` is the first step of every loader of :mod:`darkempire.serialization`, and the adapters use
it for their own documents. It is the kit's strict loader, :func:`tablekit.wire.load_json`, with this
format's default limit and its errors: refusing a hostile document costs no more than reading the largest
real one, since a text longer than ``max_size`` is refused before it is parsed, and the search for a repeated
key walks the parsed document without recursion.
"""

from __future__ import annotations

from typing import Any, Final

from darkempire.rules.errors import InvalidArgumentError
from darkempire.wire.wire_errors import from_kit, quote
from tablekit import wire as kit

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

    :raises ~darkempire.wire.wire_errors.DocumentTooLargeError: the text is longer than ``max_size`` bytes (a
        ``str`` counted in UTF-8); it is not parsed.
    :raises ~darkempire.wire.wire_errors.DuplicateKeyError: an object repeats a key; the ``path`` names the key.
    :raises ~darkempire.wire.wire_errors.MalformedJSONError: the text is not JSON.
    :raises InvalidArgumentError: ``max_size`` is not an int of 0 or more.
    """
    limit = _check_max_size(max_size)
    try:
        return kit.load_json(text, max_bytes=limit)
    except kit.WireError as error:
        raise from_kit(error) from None
