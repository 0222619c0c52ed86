"""Reading JSON text strictly: a size limit, no repeated key, no ``NaN`` or ``Infinity``.

:func:`parse_json` is the first step of every loader of :mod:`darkempire.serialization`, and the adapters use
it for their own documents. Refusing a hostile document costs no more than reading the largest real one: a
text longer than ``max_size`` is refused before it is parsed, and the search for a repeated key walks the
parsed document without recursion.
"""

from __future__ import annotations

import json
from typing import Any, Final

from darkempire.errors import InvalidArgumentError
from darkempire.wire.wire_errors import (
    QUOTE_LIMIT,
    DocumentTooLargeError,
    DuplicateKeyError,
    MalformedJSONError,
    cut,
    quote,
    quote_key,
)
from tablekit.wire import finite_number, json_path

__all__ = ["DEFAULT_MAX_SIZE", "parse_json"]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: The longest document a loader reads by default: 4 MiB (in bytes, or characters for a ``str``). The largest
#: reachable documents are about 25 kB compact (the record of a long 5-player game, a late state, a prompt) and
#: 60 kB indented; pass ``max_size`` to a loader to change the limit.
DEFAULT_MAX_SIZE: Final = 4 * 1024 * 1024


class _Repeated(dict[str, Any]):
    """A parsed JSON object that repeated a key; ``repeated`` is the first key seen twice."""

    __slots__ = ("repeated",)
    repeated: str


def _check_max_size(max_size: object) -> int:
    if type(max_size) is not int or max_size < 0:
        raise InvalidArgumentError(f"max_size is a number of bytes (an int of 0 or more), not {quote(max_size)}")
    return max_size


def parse_json(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> Any:
    """JSON text (UTF-8 if bytes) as Python data, as strictly as the loaders read it: no ``NaN`` or
    ``Infinity``, no object that repeats a key, no document longer than ``max_size``.

    :raises DocumentTooLargeError: the text is longer than ``max_size`` (bytes, or characters of a ``str``);
        it is not parsed.
    :raises DuplicateKeyError: an object repeats a key; the ``path`` names it.
    :raises MalformedJSONError: the text is not JSON.
    :raises InvalidArgumentError: ``max_size`` is not an int of 0 or more.
    """
    limit = _check_max_size(max_size)
    if not isinstance(text, (str, bytes, bytearray)):
        raise MalformedJSONError(f"expected JSON text, got {type(text).__name__}")
    if len(text) > limit:
        unit = "characters" if isinstance(text, str) else "bytes"
        raise DocumentTooLargeError(f"the document is {len(text)} {unit}, more than the limit of {limit} (max_size)")
    repeated: list[_Repeated] = []

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) == len(pairs):
            return value
        marked = _Repeated(value)
        marked.repeated = _first_repeated(pairs)
        repeated.append(marked)
        return marked

    try:
        if not isinstance(text, str):
            text = bytes(text).decode("utf-8")
        data = json.loads(
            text, parse_constant=_reject_constant, object_pairs_hook=unique_keys, parse_float=finite_number
        )
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise MalformedJSONError(f"not valid JSON: {cut(str(exc), QUOTE_LIMIT * 2)}") from None
    if repeated:
        raise _repeated_key(data)
    return data


def _first_repeated(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no key is repeated")  # pragma: no cover


def _repeated_key(data: Any) -> DuplicateKeyError:
    """The error for the first object (in document order) that repeats a key, with the key's path."""
    parents: list[tuple[int, str | int]] = [(-1, "")]  # (parent node, key in it) of each container visited
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, node = stack.pop()
        if isinstance(value, _Repeated):
            parts: list[str | int] = [quote_key(value.repeated)]
            while node > 0:
                node, part = parents[node]
                parts.append(part)
            return DuplicateKeyError(
                f"the key {quote(value.repeated)} appears twice in one object; each key may appear once",
                path=json_path(list(reversed(parts))),
            )
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        pushed: list[tuple[Any, int]] = []
        for key, child in children:
            if isinstance(child, (dict, list)):
                parents.append((node, quote_key(key) if isinstance(key, str) else key))
                pushed.append((child, len(parents) - 1))
        stack.extend(reversed(pushed))
    raise AssertionError("a repeated key was marked but not found")  # pragma: no cover
