"""tablekit.wire: the strict loader, the envelope, and located errors that quote input cut short."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit.toy import Bid, ToyAction, ToyConfig
from tablekit.errors import KitError
from tablekit.records import Choice, Record
from tablekit.wire import DEFAULT_MAX_BYTES, QUOTE_LIMIT, DocumentTooLargeError, DuplicateKeyError, Format
from tablekit.wire import FormatVersionError, MalformedJSONError, MissingFieldError, UnknownTypeError, WireError
from tablekit import wire
from tablekit.wire import WrongTypeError, dump_json, json_path, load_json, make_envelope, open_envelope, quote

TOY = Format("toyspiel", 1)
TYPES = ("action", "game-record")


def test_a_repeated_key_is_refused_with_the_path_of_its_object() -> None:
    with pytest.raises(DuplicateKeyError) as error:
        load_json('{"choices": [{"seat": 0}, {"seat": 1, "seat": 2}]}')
    assert error.value.parts == ("choices", 1) and error.value.where == "choices[1]" and error.value.key == "seat"
    assert "'seat'" in error.value.message
    with pytest.raises(DuplicateKeyError) as top:
        load_json('{"a": 1, "a": 1}')
    assert top.value.where == "(document)"


def test_the_size_cap_has_a_default_and_can_be_changed() -> None:
    big = json.dumps({"x": "y" * DEFAULT_MAX_BYTES})
    with pytest.raises(DocumentTooLargeError):
        load_json(big)
    assert load_json(big, max_bytes=2 * DEFAULT_MAX_BYTES)["x"][:1] == "y"
    with pytest.raises(DocumentTooLargeError):
        load_json('"é"', max_bytes=3)  # four UTF-8 bytes: the cap counts bytes, not characters
    assert load_json('"é"'.encode(), max_bytes=4) == "é"


@pytest.mark.parametrize("text", ["{", "[1,]", "NaN", '{"a": Infinity}', b"\xff", "[" * 100_000])
def test_text_that_is_not_strict_json_is_malformed(text: str | bytes) -> None:
    with pytest.raises(MalformedJSONError):
        load_json(text)


def test_an_error_quotes_the_input_cut_to_the_documented_length() -> None:
    with pytest.raises(MalformedJSONError) as error:
        load_json('{"a": ' + "x" * 500 + "}")
    quoted = error.value.message.rpartition("input there: ")[2]
    assert len(quoted) == QUOTE_LIMIT and quoted.endswith("...")
    assert isinstance(error.value, KitError) and isinstance(error.value, ValueError)


@given(st.text(max_size=200), st.integers(3, 60))
def test_quote_never_exceeds_its_limit(value: str, limit: int) -> None:
    text = quote(value, limit)
    assert len(text) <= limit and (text == repr(value) or text.endswith("..."))


def test_json_path_joins_keys_and_indices() -> None:
    assert json_path(("choices", 3, "action")) == "choices[3].action" and json_path(()) == ""
    assert WireError("bad", path=("card",)).within("choices", 0).where == "choices[0].card"


@pytest.mark.parametrize(
    ("data", "kind", "words"),
    [
        ([], WrongTypeError, "object"),
        ({"type": "action"}, FormatVersionError, "missing"),
        ({"format": "darkempire/1", "type": "action"}, FormatVersionError, "not a toyspiel format"),
        ({"format": "toyspiel/2", "type": "action"}, FormatVersionError, "newer"),
        ({"format": "toyspiel/01", "type": "action"}, FormatVersionError, "exactly"),
        ({"format": "toyspiel/1"}, MissingFieldError, "type"),
        ({"format": "toyspiel/1", "type": "state"}, UnknownTypeError, "state"),
    ],
)
def test_the_envelope_refuses_each_fault_with_its_own_error(data: Any, kind: type[WireError], words: str) -> None:
    with pytest.raises(kind) as error:
        open_envelope(data, TOY, TYPES)
    assert words in error.value.message


def _record_data(record: Record[ToyConfig, ToyAction]) -> dict[str, Any]:
    payload = {
        "config": {"players": record.config.players, "cards": record.config.cards},
        "seed": record.seed,
        "choices": [{"seat": c.seat, "card": c.action.card} for c in record.choices if isinstance(c.action, Bid)],
    }
    return make_envelope(Format(record.game, record.version), "game-record", payload)


def test_a_record_travels_in_the_envelope() -> None:
    record: Record[ToyConfig, ToyAction] = Record("toyspiel", 1, ToyConfig(3, 2), 8, [Choice(1, Bid(2))])
    text = dump_json(_record_data(record))
    name, payload = open_envelope(load_json(text), TOY, TYPES)
    assert name == "game-record" and payload["choices"] == [{"seat": 1, "card": 2}]
    assert text.startswith('{"format":"toyspiel/1","type":"game-record"')
    with pytest.raises(WireError):
        make_envelope(TOY, "action", {"type": "x"})
    with pytest.raises(WrongTypeError):
        dump_json({"x": float("nan")})


@pytest.mark.parametrize(("name", "version"), [("Toy", 1), ("toy spiel", 1), ("toyspiel", 0), ("toyspiel", True)])
def test_a_format_needs_a_lowercase_name_and_a_positive_version(name: str, version: int) -> None:
    with pytest.raises(KitError):
        Format(name, version)


def test_a_huge_key_or_deep_nesting_gives_a_short_path() -> None:
    """The path is cut too: a 500,000-character key, or 300 levels of arrays, must not flood a log."""
    for text in ('{"' + "k" * 500_000 + '": {"a": 1, "a": 2}}', "[" * 300 + '{"a": 1, "a": 2}' + "]" * 300):
        with pytest.raises(DuplicateKeyError) as caught:
            wire.load_json(text)
        assert len(str(caught.value)) <= wire.PATH_LIMIT + 100


@pytest.mark.parametrize("text", ["1e999", "[-1e400]", '{"a": 1e309}'])
def test_a_number_too_large_for_a_float_is_malformed(text: str) -> None:
    """``1e999`` would be read as infinity, which JSON cannot write back."""
    with pytest.raises(MalformedJSONError, match="too large"):
        wire.load_json(text)


@pytest.mark.parametrize("limit", [-1, True, 1.5, "10"])
def test_a_size_cap_that_is_no_count_is_refused(limit: object) -> None:
    with pytest.raises(WireError, match="max_bytes"):
        wire.load_json("1", max_bytes=cast(Any, limit))
