"""tablekit.wire: an error's location as parts and as text, kept by ``within`` for a game's own subclasses."""

from __future__ import annotations

from typing import ClassVar

import pytest

from tablekit import wire
from tablekit.wire import DocumentTooLargeError, DuplicateKeyError, WireError, load_json


class _TextLocated(wire.WrongTypeError):
    """A game's error that takes its location as text and keeps paths longer than the kit's."""

    path_limit: ClassVar[int] = 500

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message, path=(path,) if path else ())


def test_an_error_has_its_path_as_parts_and_as_text() -> None:
    error = WireError("bad", path=("choices", 3, "action"))
    assert error.parts == ("choices", 3, "action") and error.path == "choices[3].action"
    assert str(error) == "choices[3].action: bad" and WireError("bad").path == ""


def test_within_keeps_the_class_and_its_attributes_whatever_the_constructor() -> None:
    error = _TextLocated("not a number", path="seed")
    moved = error.within("records", 2)
    assert type(moved) is _TextLocated and moved.path == "records[2].seed" and moved.message == "not a number"
    assert str(moved) == "records[2].seed: not a number" and error.path == "seed"
    repeated = DuplicateKeyError("twice", path=("a",), key="k").within("doc")
    assert type(repeated) is DuplicateKeyError and repeated.key == "k" and repeated.parts == ("doc", "a")


def test_a_subclass_sets_its_own_path_limit() -> None:
    long = "k" * 400
    assert len(_TextLocated("x", path=long).path) == 400
    kits = WireError("x", path=(long,)).path
    assert len(kits) == wire.PATH_LIMIT and kits.endswith("...")


def test_a_repeated_key_names_the_key_and_the_path_of_its_object() -> None:
    with pytest.raises(DuplicateKeyError) as caught:
        load_json('{"a": [{"b": {"c": 1, "c": 2}}]}')
    assert caught.value.key == "c" and caught.value.parts == ("a", 0, "b")


def test_the_size_refusal_says_what_it_counted() -> None:
    with pytest.raises(DocumentTooLargeError, match="is 5 bytes, more than the limit of 4 bytes"):
        load_json(b"12345", max_bytes=4)
    with pytest.raises(DocumentTooLargeError, match="is 5 characters, more than the limit of 4 bytes"):
        load_json("12345", max_bytes=4)
    with pytest.raises(DocumentTooLargeError, match="is 4 bytes in UTF-8, more than the limit of 3 bytes"):
        load_json('"é"', max_bytes=3)


def test_the_envelope_quotes_with_the_games_quoting_and_lists_the_types() -> None:
    def counted(value: object) -> str:
        return f"<{len(str(value))} characters>"

    toy = wire.Format("toyspiel", 1)
    with pytest.raises(wire.FormatVersionError, match="<300 characters> is not a toyspiel format"):
        wire.open_envelope({"format": "x" * 300, "type": "action"}, toy, ("action",), quoting=counted)
    with pytest.raises(wire.UnknownTypeError, match="expected one of action, game-record"):
        wire.open_envelope({"format": "toyspiel/1", "type": "chat"}, toy, ("action", "game-record"))
