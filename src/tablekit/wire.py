"""The JSON envelope every game's wire format shares: format versions, a strict loader, located errors.

Every message is one JSON object whose ``"format"`` names the game's format and version and whose ``"type"``
names the message type; the rest is the payload, which the game decodes::

    {"format": "toyspiel/1", "type": "action", "kind": "bid", "card": 3}

:func:`load_json` reads a document strictly: at most ``max_bytes`` bytes (default :data:`DEFAULT_MAX_BYTES`),
UTF-8, no duplicate keys, no ``NaN`` or ``Infinity``. :func:`open_envelope` checks the format and type and
returns the payload. Every fault raises a :class:`WireError` subclass that carries the JSON path of the fault
(``"choices[3].action"``, ``""`` for the document) and a message quoting the offending input cut to
:data:`QUOTE_LIMIT` characters, so that a huge or hostile input never floods a log.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

import attrs

from tablekit.errors import KitError

__all__ = [
    "DEFAULT_MAX_BYTES",
    "PATH_LIMIT",
    "QUOTE_LIMIT",
    "DocumentTooLargeError",
    "DuplicateKeyError",
    "Format",
    "FormatVersionError",
    "MalformedJSONError",
    "MissingFieldError",
    "UnknownTypeError",
    "WireError",
    "WrongTypeError",
    "dump_json",
    "finite_number",
    "json_path",
    "load_json",
    "make_envelope",
    "open_envelope",
    "quote",
    "schema_files_main",
    "schema_text",
    "write_schema_files",
]

#: The default largest document :func:`load_json` reads: 1 MiB, far above any game record of these games.
DEFAULT_MAX_BYTES: Final = 1 << 20
#: The most characters of input an error message quotes; longer input is cut and ends with ``"..."``.
QUOTE_LIMIT: Final = 40
#: An error's path (``WireError.path``) is cut to this many characters, unless its class sets another limit.
PATH_LIMIT: Final = 200

_NAME = re.compile(r"[a-z][a-z0-9-]*")


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters, ending with ``...`` when cut.

    An integer too long to show whole is named by its size: Python refuses the ``repr`` of one of more
    than 4,300 digits, and a shorter one would still be cut to nothing useful.

    >>> quote("x" * 100, limit=10)
    "'xxxxxx..."
    >>> quote(10**5000)
    'an integer of 16610 bits'
    """
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


def json_path(parts: Sequence[str | int]) -> str:
    """A JSON path in the dotted form: ``("choices", 3, "action")`` is ``"choices[3].action"``."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class WireError(KitError, ValueError):
    """A document that is not a valid message.

    A game derives its wire errors from this one and its subclasses. A game that locates faults as text
    (``"choices[3].action"``) rather than parts gives that text as the one part; ``path`` is then the text.

    :ivar parts: where the fault is, as parts (object keys and array indices); ``()`` for the document.
    :ivar path: ``parts`` as text (:func:`json_path`), ``""`` for the document, cut to ``path_limit``
        characters: a key of the document, or its nesting, may be huge.
    :ivar message: the explanation without the path.
    """

    #: The most characters of ``path``; a game may set its own limit on its subclass.
    path_limit: ClassVar[int] = PATH_LIMIT

    parts: tuple[str | int, ...]
    path: str
    message: str

    def __init__(self, message: str, *, path: Sequence[str | int] = ()) -> None:
        super().__init__(self._place(message, tuple(path)))

    def _place(self, message: str, parts: tuple[str | int, ...]) -> str:
        """Set the message and the location; return the error's text."""
        self.parts = parts
        self.message = message
        text = json_path(parts)
        limit = self.path_limit
        self.path = text if len(text) <= limit else f"{text[: limit - 3]}..."
        return f"{self.where}: {message}"

    @property
    def where(self) -> str:
        """``path``, or ``"(document)"`` for the document as a whole."""
        return self.path or "(document)"

    def within(self, *prefix: str | int) -> WireError:
        """The same error, of the same class and with the same attributes, located inside ``prefix`` (for a
        decoder that reads a nested part). No constructor is called: a game's subclass may take other
        arguments than the kit's."""
        moved = type(self).__new__(type(self))
        moved.__dict__.update(self.__dict__)
        moved.args = (moved._place(self.message, (*prefix, *self.parts)),)
        return moved


class MalformedJSONError(WireError):
    """The text is not UTF-8 JSON, uses ``NaN`` or ``Infinity``, or nests too deeply."""


class DuplicateKeyError(WireError):
    """An object repeats a key: JSON allows it, but readers disagree on which value wins, so it is refused.

    :ivar key: the key repeated (the path is its object's).
    """

    key: str

    def __init__(self, message: str, *, path: Sequence[str | int] = (), key: str = "") -> None:
        super().__init__(message, path=path)
        self.key = key


class DocumentTooLargeError(WireError):
    """The document is larger than the loader's ``max_bytes``."""


class FormatVersionError(WireError):
    """The ``format`` field is missing, names another format, or a version other than the one read."""


class MissingFieldError(WireError):
    """An object lacks a required key."""


class WrongTypeError(WireError):
    """A value has the wrong JSON type (a message that is not an object, a string for a number, ...)."""


class UnknownTypeError(WireError):
    """The ``type`` field names no message type of this format."""


@attrs.frozen
class Format:
    """A wire format: a name (the game's) and a version, written ``"<name>/<version>"``.

    :ivar name: lowercase ASCII letters, digits and hyphens, starting with a letter.
    :ivar version: a positive integer; a new version whenever old readers would misread new documents.
    """

    name: str = attrs.field()
    version: int = attrs.field()

    @name.validator
    def _check_name(self, _attribute: object, value: str) -> None:
        if not isinstance(value, str) or not _NAME.fullmatch(value):
            raise KitError(f"a format name is lowercase ASCII (letters, digits, '-'), not {quote(value)}")

    @version.validator
    def _check_version(self, _attribute: object, value: int) -> None:
        if type(value) is not int or value < 1:
            raise KitError(f"a format version is a positive int, not {quote(value)}")

    @property
    def tag(self) -> str:
        """The value of a message's ``"format"`` field: ``"toyspiel/1"``."""
        return f"{self.name}/{self.version}"


def finite_number(text: str) -> float:
    """A JSON number as a float, refusing one too large for a float: ``1e999`` would be read as infinity,
    which JSON cannot write back."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{quote(text)} is too large for a number")
    return value


def _decode(text: str | bytes | bytearray, max_bytes: int) -> str:
    """``text`` as a ``str``, refused unless it is at most ``max_bytes`` bytes of UTF-8.

    A ``str`` longer than the limit in characters is refused before it is encoded (each character is at least
    one byte); the message says what was counted.
    """
    if isinstance(text, (bytes, bytearray)):
        size, unit = len(text), "bytes"
    elif isinstance(text, str):
        size, unit = (len(text), "characters") if len(text) > max_bytes else (_utf8_size(text), "bytes in UTF-8")
    else:
        raise MalformedJSONError(f"expected JSON text (str or bytes), got {type(text).__name__}")
    if size > max_bytes:
        raise DocumentTooLargeError(f"the document is {size} {unit}, more than the limit of {max_bytes} bytes")
    if isinstance(text, str):
        return text
    try:
        return bytes(text).decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedJSONError(f"not UTF-8 at byte {error.start}: {quote(bytes(text[error.start:]))}") from None


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


class _Repeated(dict[str, Any]):
    """An object that repeated a key while parsing; marks where the duplicate is (see :func:`load_json`)."""

    key: str


def _find_repeated(data: Any) -> tuple[tuple[str | int, ...], str]:
    """The path and key of the first object in document order (outer objects first) that repeated a key.

    The walk keeps its own stack, so a document nested as deep as the parser allows is searched without
    running into Python's recursion limit.
    """
    parents: list[tuple[int, str | int]] = [(-1, "")]  # (parent node, key in it) of each container visited
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, node = stack.pop()
        if isinstance(value, _Repeated):
            parts: list[str | int] = []
            while node > 0:
                node, part = parents[node]
                parts.append(part)
            return tuple(reversed(parts)), value.key
        items: Any = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        pushed: list[tuple[Any, int]] = []
        for part, child in items:
            if isinstance(child, (dict, list)):
                parents.append((node, part))
                pushed.append((child, len(parents) - 1))
        stack.extend(reversed(pushed))
    raise AssertionError("a repeated key was marked but not found")  # pragma: no cover


def _first_repeat(items: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in items:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("called only when a key repeats")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_json(text: str | bytes | bytearray, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """Parse a JSON document strictly.

    :param text: the document, as text or UTF-8 bytes.
    :param max_bytes: the largest document read, in UTF-8 bytes (default :data:`DEFAULT_MAX_BYTES`).
    :raises DocumentTooLargeError: the document is larger than ``max_bytes``; it is not parsed.
    :raises MalformedJSONError: not UTF-8 JSON (the message gives the line and column and quotes the input
        there), or ``NaN``/``Infinity``, or nesting deeper than Python's recursion limit.
    :raises DuplicateKeyError: an object repeats a key; the path is the object's.
    """
    if type(max_bytes) is not int or max_bytes < 0:
        raise WireError(f"max_bytes is an int of 0 or more, not {quote(max_bytes)}")
    source = _decode(text, max_bytes)
    repeated: list[bool] = []  # local to this call: set by the hook when it meets a repeated key

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) == len(items):
            return result
        marked = _Repeated(result)
        marked.key = _first_repeat(items)
        repeated.append(True)
        return marked

    try:
        data = json.loads(source, object_pairs_hook=pairs, parse_constant=_reject_constant, parse_float=finite_number)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        raise MalformedJSONError(f"not JSON at {where}: {error.msg}; input there: {quote(source[error.pos:])}") from None
    except (ValueError, RecursionError) as error:
        raise MalformedJSONError(f"not JSON: {error}") from None
    if repeated:
        parts, key = _find_repeated(data)
        raise DuplicateKeyError(f"the key {quote(key)} appears twice in one object", path=parts, key=key)
    return data


def dump_json(data: Any, *, indent: int | None = None) -> str:
    """``data`` as JSON text: compact unless ``indent`` is given, non-ASCII kept, ``NaN`` refused.

    :raises WrongTypeError: ``data`` holds a value JSON cannot represent.
    """
    separators = (",", ":") if indent is None else (",", ": ")
    try:
        return json.dumps(data, allow_nan=False, ensure_ascii=False, indent=indent, separators=separators)
    except (TypeError, ValueError) as error:
        raise WrongTypeError(f"cannot write as JSON: {error}") from None


def make_envelope(fmt: Format, type_name: str, payload: dict[str, Any]) -> dict[str, Any]:
    """A message: ``payload`` with the ``"format"`` and ``"type"`` fields first.

    :raises WireError: the payload already has a ``"format"`` or ``"type"`` key.
    """
    clash = sorted({"format", "type"} & set(payload))
    if clash:
        raise WireError(f"a payload cannot have the envelope's key {clash[0]!r}", path=(clash[0],))
    return {"format": fmt.tag, "type": type_name, **payload}


def open_envelope(
    data: Any, fmt: Format, types: Collection[str], *, quoting: Callable[[object], str] = quote
) -> tuple[str, dict[str, Any]]:
    """Check a parsed message's envelope; return its type and its payload (the other keys).

    Exactly ``fmt.tag`` is read: a missing format, another game's, a newer version (written by a newer
    library) and an older or differently spelt one (``"toyspiel/01"``) are all refused, each with its own
    message.

    :param types: the message types this format defines.
    :param quoting: how a message quotes a value from the document (default :func:`quote`); a game whose
        messages give a long value's length, say, passes its own.
    :raises WrongTypeError: the message is not an object.
    :raises FormatVersionError: the ``format`` is not ``fmt.tag``.
    :raises MissingFieldError: no ``type``.
    :raises UnknownTypeError: the ``type`` is not one of ``types``.
    """
    if not isinstance(data, dict):
        raise WrongTypeError(f"a message is a JSON object, not {quoting(data)}")
    tag = data.get("format")
    if tag != fmt.tag:
        raise FormatVersionError(_format_problem(tag, fmt, quoting), path=("format",))
    if "type" not in data:
        raise MissingFieldError("missing field 'type'", path=("type",))
    name = data["type"]
    if not isinstance(name, str) or name not in types:
        message = f"{quoting(name)} is not a message type of {fmt.tag}; expected one of {', '.join(types)}"
        raise UnknownTypeError(message, path=("type",))
    return name, {key: value for key, value in data.items() if key not in ("format", "type")}


def _format_problem(tag: object, fmt: Format, quoting: Callable[[object], str]) -> str:
    if tag is None:
        return f"missing field 'format'; expected {fmt.tag!r}"
    match = re.fullmatch(r"([a-z][a-z0-9-]*)/([0-9]{1,9})", tag) if isinstance(tag, str) else None
    if match is None or match.group(1) != fmt.name:
        return f"{quoting(tag)} is not a {fmt.name} format; expected {fmt.tag!r}"
    if int(match.group(2)) > fmt.version:
        return f"{quoting(tag)} is a newer version; this reader reads {fmt.tag!r}"
    return f"{quoting(tag)} is not the version read; this reader reads exactly {fmt.tag!r}"


# --------------------------------------------------------------------------- shipped JSON Schema files


def schema_text(schema: Mapping[str, Any]) -> str:
    """A JSON Schema as its shipped file holds it: indented by 2, non-ASCII kept, one final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schema_files(schemas: Mapping[str, Mapping[str, Any]], directory: Path) -> list[Path]:
    """Write ``schemas`` (by file name) to ``directory``, created if needed; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, schema in schemas.items():
        path = directory / file_name
        path.write_text(schema_text(schema), encoding="utf-8")
        written.append(path)
    return written


def schema_files_main(
    prog: str, description: str, schemas: Callable[[], Mapping[str, Mapping[str, Any]]], directory: Path,
    argv: Sequence[str] | None = None,
) -> int:  # fmt: skip
    """A game's ``python -m <game>.schema [--check] [DIR]``: write the files of ``schemas()`` to DIR (default
    ``directory``), or with ``--check`` name on standard error each one missing or out of date there.

    :returns: 0, or 1 if ``--check`` finds a missing or outdated file.
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("directory", nargs="?", type=Path, default=directory)
    parser.add_argument("--check", action="store_true", help="only check that the files are up to date")
    args = parser.parse_args(argv)
    if args.check:
        stale = [
            name
            for name, schema in schemas().items()
            if not (args.directory / name).is_file()
            or (args.directory / name).read_text(encoding="utf-8") != schema_text(schema)
        ]
        for name in stale:
            print(f"out of date: {args.directory / name}", file=sys.stderr)
        return 1 if stale else 0
    for path in write_schema_files(schemas(), args.directory):
        print(path)
    return 0
