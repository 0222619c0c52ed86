"""The protocol's messages fit their shipped JSON Schemas; the storage and the credentials, without a server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from darkempire.rules import engine
from darkempire.rules.errors import IllegalActionError
from darkempire.schema import shipped_schemas
from darkempire.server.credentials import credential_hash, credential_matches, new_credential
from darkempire.server.match import Match
from darkempire.server.protocol import (
    PROTOCOL,
    Act,
    Hello,
    error_message,
    message_text,
    parse_client_message,
    spliced_text,
)
from darkempire.server.refusals import BadRequestError, ChoiceConflictError, FrameTooLargeError
from darkempire.server.protocol_schema import generate_protocol_schemas, shipped_protocol_schemas
from darkempire.server.storage import SeatHolder, SQLiteStorage, StoredChoice, StoredMatch


class _Outbox:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.messages: list[dict[str, Any]] = []

    def put(self, message: dict[str, Any]) -> None:
        self.messages.append(json.loads(json.dumps(message)))


def _validator(name: str) -> Draft202012Validator:
    schemas = [*shipped_schemas().values(), *shipped_protocol_schemas().values()]
    registry: Registry[Any] = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)
    return Draft202012Validator(shipped_protocol_schemas()[f"{name}.json"], registry=registry)


def _stored(match_id: str = "m1", bots: tuple[str | None, ...] = (None, "greedy", "random")) -> StoredMatch:
    return StoredMatch(match_id, len(bots), "steam-noir", 7, bots, 0.0)


def test_the_shipped_protocol_schemas_are_the_generated_ones() -> None:
    assert shipped_protocol_schemas() == generate_protocol_schemas()


def test_every_message_of_a_whole_game_fits_its_schema() -> None:
    storage = SQLiteStorage(":memory:")
    storage.create_match(_stored())
    match = Match(_stored())
    seat, spectator = _Outbox(0), _Outbox(None)
    match.subscribe(seat, None)
    match.subscribe(spectator, None)
    match.play_bots(storage)
    while not match.is_over:
        action = engine.legal_actions(match.state, 0)[0]
        match.accept(0, action, storage, sender=seat)
        match.play_bots(storage)
    try:
        engine.apply_reporting(match.state, 0, action)
    except IllegalActionError as refused:
        seat.put(error_message(refused))
    validators = {name: _validator(name) for name in ("welcome", "update", "ack", "error")}
    kinds = set()
    messages = seat.messages + spectator.messages
    # Every kind of message, and every 12th update (validating a late view against the schema takes 20 ms).
    for index, message in enumerate(messages):
        if message["type"] not in kinds or index % 12 == 0 or message is messages[-1]:
            validators[message["type"]].validate(message)
            kinds.add(message["type"])
    assert kinds == {"welcome", "update", "ack", "error"}
    bad = dict(seat.messages[-2], extra=1)
    assert not validators[bad["type"]].is_valid(bad)  # the schemas refuse what the protocol does not define
    act = {"format": PROTOCOL.tag, "type": "act", "credential": "c", "action": seat.messages[0]["prompt"]["legal_actions"][0]}
    _validator("act").validate(act)
    assert isinstance(parse_client_message(json.dumps(act)), Act)
    hello = {"format": PROTOCOL.tag, "type": "hello", "seat": None, "credential": None, "since": 3}
    _validator("hello").validate(hello)
    assert parse_client_message(json.dumps(hello)) == Hello(None, None, 3)


def test_a_frame_is_refused_unparsed_when_too_large_and_field_by_field_otherwise() -> None:
    with pytest.raises(FrameTooLargeError):
        parse_client_message("[" * 20000)
    with pytest.raises(BadRequestError, match="^since"):
        parse_client_message(json.dumps({"format": PROTOCOL.tag, "type": "hello", "seat": None, "credential": None, "since": "0"}))
    with pytest.raises(BadRequestError, match="^action"):
        parse_client_message(json.dumps({"format": PROTOCOL.tag, "type": "act", "credential": "c", "action": {"kind": "x"}}))


def test_the_storage_keeps_the_choices_in_order_and_refuses_a_second_at_one_position(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "m.sqlite3"
    storage = SQLiteStorage(path)
    storage.create_match(_stored())
    storage.append_choice("m1", StoredChoice(0, 0, "{}"))
    storage.append_choice("m1", StoredChoice(1, 2, "[]"))
    with pytest.raises(ChoiceConflictError):
        storage.append_choice("m1", StoredChoice(1, 1, "{}"))
    assert storage.hold_seat("m1", SeatHolder(0, "ann", "h"))
    assert not storage.hold_seat("m1", SeatHolder(0, "bob", "h2"))
    storage.close()
    reopened = SQLiteStorage(path)
    assert reopened.choices("m1") == [StoredChoice(0, 0, "{}"), StoredChoice(1, 2, "[]")]
    assert reopened.choices("m1", 1) == [StoredChoice(1, 2, "[]")]
    assert reopened.seats("m1") == [SeatHolder(0, "ann", "h")] and reopened.matches() == [_stored()]
    reopened.free_seat("m1", 0)
    assert reopened.seats("m1") == [] and reopened.match("nope") is None


def test_a_match_rebuilt_from_its_stored_choices_is_the_match_that_stored_them() -> None:
    storage = SQLiteStorage(":memory:")
    storage.create_match(_stored(bots=("greedy", "random", "greedy")))
    match = Match(_stored(bots=("greedy", "random", "greedy")))
    match.play_bots(storage)
    assert match.is_over
    again = Match(_stored(bots=("greedy", "random", "greedy")))
    again.replay(storage.choices("m1"))
    assert again.state == match.state and again.public_record() == match.public_record()


def test_a_second_server_process_that_wrote_first_is_caught_up_with_and_the_move_judged_again() -> None:
    storage = SQLiteStorage(":memory:")
    storage.create_match(_stored(bots=(None, None, None)))
    mine, theirs = Match(_stored(bots=(None, None, None))), Match(_stored(bots=(None, None, None)))
    watcher = _Outbox(2)
    mine.subscribe(watcher, None)
    theirs.accept(1, engine.legal_actions(theirs.state, 1)[0], storage)  # the other process's move
    assert mine.accept(0, engine.legal_actions(mine.state, 0)[0], storage) == 2
    assert mine.state == engine.apply(theirs.state, 0, engine.legal_actions(theirs.state, 0)[0])
    assert [m["seq"] for m in watcher.messages] == [0, 1, 2]  # told of the other process's move too


def test_credentials_are_random_and_match_only_their_own_hash() -> None:
    one, two = new_credential(), new_credential()
    assert one != two and len(one) >= 40
    assert credential_matches(one, credential_hash(one)) and not credential_matches(two, credential_hash(one))
    assert not credential_matches(one, None) and not credential_matches(None, credential_hash(one))
    assert not credential_matches(one * 10, credential_hash(one * 10))  # too long to be one: refused unhashed


def test_the_protocol_page_lists_every_error_code_and_close_code() -> None:
    pytest.importorskip("starlette")
    from darkempire.server import asgi
    from darkempire.server.protocol_schema import ERROR_CODES

    page = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = page.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    listed = [line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")]
    assert sorted(listed) == sorted(ERROR_CODES)
    closing = page.split("## Closing", 1)[1]
    codes = [value for name, value in vars(asgi).items() if name.endswith("_CLOSE") and isinstance(value, int)]
    assert len(codes) >= 5 and all(f"`{code}`" in closing for code in codes)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(max_size=8), _JSON, min_size=1, max_size=6), st.data())
def test_a_spliced_text_is_the_text_of_the_whole_message(message: dict[str, Any], data: st.DataObject) -> None:
    """A part encoded once and spliced into a message gives the bytes of the message encoded whole, wherever
    the part's key is (first, last, alone) and whatever the text holds (quotes, non-ASCII, lone surrogates)."""
    key = data.draw(st.sampled_from(sorted(message)))
    assert spliced_text(message, key, message_text(message[key])) == message_text(message)
