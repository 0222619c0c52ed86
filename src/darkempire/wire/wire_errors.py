"""The errors of the wire format, and the bounded quoting every error message uses.

Every problem with a document raises a :class:`SerializationError` subclass whose ``path`` names the bad
value, such as ``choices[3].action.card``. They are the kit's wire errors too (:mod:`tablekit.wire`):
:class:`SerializationError` is a :class:`~tablekit.wire.WireError`, and :class:`MalformedJSONError`,
:class:`DuplicateKeyError`, :class:`DocumentTooLargeError`, :class:`FormatVersionError`,
:class:`MissingFieldError` and :class:`WrongTypeError` are the kit's namesakes (:func:`from_kit` turns the
kit's refusals into them). The errors of states that no game can reach
(:class:`~darkempire.validity.InconsistentStateError`) are in :mod:`darkempire.validity`, and the error of an
array longer than the rules allow (:class:`~darkempire.wire.limits.TooManyItemsError`) in
:mod:`darkempire.wire.limits`; :mod:`darkempire.serialization` re-exports them all.

An error quotes at most :data:`QUOTE_LIMIT` characters of any value from the document, and its message and
path are at most :data:`MESSAGE_LIMIT` characters each, so that a huge input does not make a huge error.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from darkempire.rules.errors import DarkEmpireError
from tablekit import wire as kit
from tablekit.wire import json_path

__all__ = [
    "MESSAGE_LIMIT",
    "QUOTE_LIMIT",
    "CardNotHeldError",
    "DocumentTooLargeError",
    "DuplicateKeyError",
    "Fault",
    "FormatVersionError",
    "InvalidValueError",
    "MalformedJSONError",
    "MissingFieldError",
    "NotAMessageError",
    "SerializationError",
    "UnknownCardError",
    "UnknownFieldError",
    "WrongTypeError",
    "cut",
    "from_kit",
    "quote",
    "quote_key",
]

#: A value quoted from the document in an error message is cut to this many characters (its length is given).
QUOTE_LIMIT: Final = 60
#: No error message, and no error path, is longer than this many characters.
MESSAGE_LIMIT: Final = 500


def cut(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its start and ``"..."``, ``limit`` in all.

    >>> cut("abcdefghij", 6)
    'abc...'
    """
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def quote(value: Any) -> str:
    """``repr(value)`` for an error message, cut to :data:`QUOTE_LIMIT` characters: the input may be huge,
    and building its whole ``repr`` would already cost as much as the document.

    >>> quote("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx' (100 characters)"
    """
    if isinstance(value, int) and value.bit_length() > 4 * QUOTE_LIMIT:
        return f"an integer of {value.bit_length()} bits"  # Python refuses the repr of a 4,300-digit int
    short = reprlib.Repr()
    short.maxstring = short.maxlong = short.maxother = QUOTE_LIMIT
    text = cut(short.repr(value), QUOTE_LIMIT)
    if isinstance(value, str) and len(value) > QUOTE_LIMIT:
        text += f" ({len(value)} characters)"
    return text


def quote_key(key: Any) -> str:
    """An object key from the document as a path part, cut to :data:`QUOTE_LIMIT` characters."""
    return cut(str(key), QUOTE_LIMIT)


class SerializationError(DarkEmpireError, kit.WireError):
    """A JSON document that is not a valid message of this format (the kit's :class:`~tablekit.wire.WireError`).

    The message and the path are each cut to :data:`MESSAGE_LIMIT` characters, and a value quoted from the
    document to :data:`QUOTE_LIMIT`, so that a huge input does not make a huge error. The path is given as
    text, so it is the one part of the kit's ``parts``.

    :ivar path: where the bad value is, e.g. ``"choices[3].action.card"``;
        ``""`` for the document as a whole.
    :ivar message: the explanation without the path.
    """

    #: The path is cut to :data:`MESSAGE_LIMIT` characters, like the message.
    path_limit: ClassVar[int] = MESSAGE_LIMIT

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(cut(message, MESSAGE_LIMIT), path=(path,) if path else ())


class MalformedJSONError(SerializationError, kit.MalformedJSONError):
    """The text is not JSON (or uses NaN/Infinity, or nests too deeply)."""


class DuplicateKeyError(MalformedJSONError, kit.DuplicateKeyError):
    """An object repeats a key (``{"kind": "pass-cards", "kind": "discard-cards"}``): JSON parsers disagree on
    which one counts, so this format refuses them. The ``path`` names the repeated key (the kit's names its
    object).

    :ivar key: the key repeated.
    """

    def __init__(self, message: str, *, path: str = "", key: str = "") -> None:
        super().__init__(message, path=path)
        self.key = key


class DocumentTooLargeError(SerializationError, kit.DocumentTooLargeError):
    """The document is longer than the loader's ``max_size`` (by default
    :data:`~darkempire.wire.parsing.DEFAULT_MAX_SIZE`)."""


class FormatVersionError(SerializationError, kit.FormatVersionError):
    """The ``format`` field is missing, not this format, or a version this library does not know (a future one)."""


class UnknownFieldError(SerializationError):
    """An object has a key its type does not define."""


class MissingFieldError(SerializationError, kit.MissingFieldError):
    """An object lacks a required key."""


class WrongTypeError(SerializationError, kit.WrongTypeError):
    """A value has the wrong JSON type (a string for a number, an object for an array, ...)."""


class InvalidValueError(SerializationError):
    """A value of the right JSON type that is not allowed: an unknown name or tag, a repeated set item,
    an array of the wrong length, a number out of range."""


class UnknownCardError(InvalidValueError):
    """A card id that does not exist: hand cards are 0-74, emperor cards 0-7."""


class CardNotHeldError(SerializationError):
    """An action names a hand card that the seat does not hold."""


class NotAMessageError(SerializationError, TypeError):
    """A value given to :func:`~darkempire.wire.messages.to_data` or :func:`~darkempire.wire.messages.to_json`
    that is not a state, view, prompt, action, event or record (also a :class:`TypeError`)."""


def from_kit(error: kit.WireError) -> SerializationError:
    """The refusal of one of the kit's wire functions (:func:`~tablekit.wire.load_json`,
    :func:`~tablekit.wire.open_envelope`) as this format's error of the same meaning, message and path.

    A repeated key's path names the key, not only its object as the kit's does; a ``type`` that is no message
    type is an :class:`InvalidValueError`, as it always was in this format.
    """
    if isinstance(error, kit.DuplicateKeyError):
        parts = [quote_key(part) if isinstance(part, str) else part for part in (*error.parts, error.key)]
        message = f"the key {quote(error.key)} appears twice in one object; each key may appear once"
        return DuplicateKeyError(message, path=json_path(parts), key=error.key)
    if isinstance(error, kit.DocumentTooLargeError):
        return DocumentTooLargeError(f"{error.message} (max_size)", path=error.path)
    namesakes: tuple[tuple[type[kit.WireError], type[SerializationError]], ...] = (
        (kit.MalformedJSONError, MalformedJSONError),
        (kit.FormatVersionError, FormatVersionError),
        (kit.MissingFieldError, MissingFieldError),
        (kit.WrongTypeError, WrongTypeError),
        (kit.UnknownTypeError, InvalidValueError),
    )
    ours = next((mine for theirs, mine in namesakes if isinstance(error, theirs)), SerializationError)
    return ours(error.message, path=error.path)


class Fault(Exception):
    """A problem found deep inside a value, on its way out to the value's root.

    The hooks that structure or measure a nested value raise it; each level it passes through puts its own
    field name or array index in front of ``parts``, and the outermost caller turns it into the
    :class:`SerializationError` it stands for with :meth:`error`. It never escapes the wire modules.

    :ivar kind: the :class:`SerializationError` subclass to raise.
    :ivar message: the explanation without the path.
    :ivar parts: the path from the value that failed to the point raised (field names and array indices).
    """

    def __init__(self, kind: type[SerializationError], message: str, parts: Sequence[str | int] = ()) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.parts: list[str | int] = list(parts)

    def error(self, prefix: Sequence[str | int] = ()) -> SerializationError:
        """The ``kind`` of error, its path ``prefix`` followed by ``parts``."""
        return self.kind(self.message, path=json_path([*prefix, *self.parts]))
