"""What loading refuses before it costs much: repeated keys, oversized documents and arrays, huge quotations
(spec 9.4; issue 12, hostile review faults 4-7).

Refusal must come before the expensive part, so the tests count the calls of that part (parsing, structuring)
instead of timing them.
"""

from __future__ import annotations

import functools
import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from darkempire.rules import engine
from darkempire import serialization
from darkempire.rules.actions import PassCards
from darkempire.adapters import core
from darkempire.bots import make_bot
from darkempire.rules.cards import HAND_CARDS
from darkempire.cli import main
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.events import PlaysRevealed
from darkempire.records import GameRecord, record_game
from darkempire.schema import shipped_schemas
from darkempire.serialization import (
    ARRAY_LIMITS,
    DEFAULT_MAX_SIZE,
    MESSAGE_LIMIT,
    QUOTE_LIMIT,
    DocumentTooLargeError,
    DuplicateKeyError,
    InconsistentStateError,
    Message,
    SerializationError,
    TooManyItemsError,
    UnknownFieldError,
    from_data,
    from_json,
    load_action,
    load_event,
    load_prompt,
    load_record,
    load_state,
    load_view,
    make_prompt,
    parse_json,
    to_data,
    to_json,
)
from darkempire.rules.state import DEAL_SIZE, GameConfig, GameState
from darkempire.rules.views import player_view
from darkempire.wire import messages
from embedding_games import finished_game, steps

ROOT = Path(__file__).resolve().parent.parent
Loader = Callable[[str], Message]
#: Big enough for the 10 MB quotations below.
ROOMY = 64 * 1024 * 1024


# --------------------------------------------------------------------------- one document of every kind


@functools.cache
def _state() -> GameState:
    """A 5-player state of month 2 with finished weeks and a table, awaiting a choice."""
    game = finished_game(5, 1)
    return next(s for s in game.states if s.month == 2 and s.table is not None and engine.awaited_seats(s))


@functools.cache
def _plays_revealed() -> PlaysRevealed:
    for before, seat, action, after in steps(finished_game(5, 1)):
        for event in engine.events_between(before, after, choices={seat: action}):
            if isinstance(event, PlaysRevealed) and event.plays:
                return event
    raise AssertionError("no plays revealed")  # pragma: no cover


def _record() -> GameRecord:
    return finished_game(5, 1).record()


def _prompt() -> serialization.Prompt:
    state = _state()
    return make_prompt(state, min(engine.awaited_seats(state)))


def _action_loader(text: str) -> Message:
    return load_action(text)


#: (loader, sample, path of a nested key to repeat): one case per document kind.
KINDS: dict[str, tuple[Loader, Callable[[], Message], list[str | int]]] = {
    "game-state": (load_state, _state, ["history", 0, "table", "plays", 1, "card"]),
    "player-view": (load_view, lambda: player_view(_state(), 2), ["history", 1, "score", "emperor_scored"]),
    "prompt": (load_prompt, _prompt, ["view", "table", "revolution_card"]),
    "action": (_action_loader, lambda: PassCards(HAND_CARDS[2:4]), ["cards"]),
    "event": (load_event, _plays_revealed, ["plays", 0, "action", "card"]),
    "game-record": (load_record, _record, ["choices", 3, "action", "kind"]),
}


def _with_repeated_key(data: Any, path: Sequence[str | int], value: Any = None) -> str:
    """``data`` as JSON text in which the object holding ``path[-1]`` repeats that key, last with ``value``
    (or the same value again)."""
    target, key = tuple(path[:-1]), path[-1]

    def encode(node: Any, at: tuple[str | int, ...]) -> str:
        if isinstance(node, dict):
            members = [f"{json.dumps(k)}:{encode(v, (*at, k))}" for k, v in node.items()]
            if at == target:
                members.append(f"{json.dumps(key)}:{json.dumps(node[key] if value is None else value)}")
            return "{" + ",".join(members) + "}"
        if isinstance(node, list):
            return "[" + ",".join(encode(v, (*at, i)) for i, v in enumerate(node)) + "]"
        return json.dumps(node)

    return encode(data, ())


def _dotted(path: Sequence[str | int]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


# --------------------------------------------------------------------------- repeated keys (fault 4)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("nested", [False, True], ids=["top", "nested"])
def test_a_repeated_key_is_refused_with_its_path_in_every_document_kind(kind: str, nested: bool) -> None:
    loader, sample, deep = KINDS[kind]
    data = to_data(sample())
    assert loader(json.dumps(data)) == sample()  # the document itself loads
    path: list[str | int] = deep if nested else ["format"]
    with pytest.raises(DuplicateKeyError) as caught:
        loader(_with_repeated_key(data, path))
    assert caught.value.path == _dotted(path)
    assert f"key {path[-1]!r} appears twice" in caught.value.message


@pytest.mark.spec("9.4")
def test_the_review_samples_of_repeated_keys_are_refused() -> None:
    # Last one wins in json.loads: the first loaded as a format-1 message, the second as DiscardCards.
    with pytest.raises(DuplicateKeyError) as version:
        from_json('{"format":"darkempire/9","format":"darkempire/1","type":"action","kind":"play-nothing"}')
    assert version.value.path == "format"
    with pytest.raises(DuplicateKeyError) as kind:
        load_action(
            '{"format":"darkempire/1","type":"action","kind":"pass-cards","cards":[2,3],"kind":"discard-cards"}'
        )
    assert kind.value.path == "kind"


@pytest.mark.spec("9.4")
def test_a_repeated_key_is_refused_as_bytes_and_by_parse_json() -> None:
    text = _with_repeated_key(to_data(_record()), ["config", "players"], 3)
    with pytest.raises(DuplicateKeyError) as caught:
        load_record(text.encode())
    assert caught.value.path == "config.players"
    with pytest.raises(DuplicateKeyError):
        parse_json('[1, {"a": [{"b": 1, "b": 1}]}]')
    assert parse_json('{"a": {"b": 1}, "b": {"a": 1}}') == {"a": {"b": 1}, "b": {"a": 1}}  # one key per object


@pytest.mark.spec("9.4")
def test_the_adapters_saved_flows_refuse_repeated_keys() -> None:
    text = json.dumps(core.Flow.new(3).to_data())
    repeated = text.replace('{"players": 3,', '{"players": 3, "players": 4,', 1)
    assert repeated != text
    with pytest.raises(DuplicateKeyError):
        core._flow_from_json(repeated)


# --------------------------------------------------------------------------- arrays the rules bound (fault 5)


@pytest.fixture
def structuring(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The payloads handed to the structuring step (the costly part of loading), recorded as it runs."""
    calls: list[object] = []
    structure = messages._structure

    def counted(payload: dict[str, Any], tp: Any) -> Any:
        calls.append(tp)
        return structure(payload, tp)

    monkeypatch.setattr(messages, "_structure", counted)
    return calls


def _long(data: dict[str, Any], path: Sequence[str | int], items: int) -> dict[str, Any]:
    """``data`` (changed in place) with the array at ``path`` made ``items`` long by repeating its items."""
    parent: Any = data
    for part in path[:-1]:
        parent = parent[part]
    array = parent[path[-1]] or [0]
    parent[path[-1]] = (array * (items // len(array) + 1))[:items]
    return data


#: (document kind, path of an array, its length, words of the rule named in the error).
LONG_ARRAYS: list[tuple[str, list[str | int], int, str]] = [
    ("game-state", ["draw_pile"], 10_000, "there are 75 hand cards"),
    ("game-state", ["hands", 0], 10_000, "a hand holds at most 9 cards"),
    ("game-state", ["hands"], 10_000, "at most 5 seats"),
    ("game-state", ["history"], 100, "a game has 12 weeks"),
    ("game-state", ["history", 0, "table", "plays"], 10_000, "at most 15"),
    ("player-view", ["hand"], 10_000, "a hand holds at most 9 cards"),
    ("prompt", ["legal_actions"], 10_000, "at most 512 legal actions"),
    ("action", ["cards"], 10_000, "a hand holds at most 9 cards"),
    ("event", ["plays"], 10_000, "each seat reveals one card"),
    ("game-record", ["choices"], 10_000, "a game has at most 325 choices"),
    ("game-record", ["digests"], 10_000, "one digest per choice"),
]


@pytest.mark.spec("9.4")
@pytest.mark.parametrize(
    ("kind", "path", "items", "rule"), LONG_ARRAYS, ids=[f"{k}:{_dotted(p)}" for k, p, _, _ in LONG_ARRAYS]
)
def test_an_array_longer_than_the_rules_allow_is_refused_before_structuring(
    kind: str, path: list[str | int], items: int, rule: str, structuring: list[object]
) -> None:
    loader, sample, _ = KINDS[kind]
    text = json.dumps(_long(to_data(sample()), path, items))
    assert len(text) < DEFAULT_MAX_SIZE  # within the size limit: the array limit refuses it
    with pytest.raises(TooManyItemsError) as caught:
        loader(text)
    assert caught.value.path == _dotted(path)
    assert caught.value.message.startswith(f"{items} items, but ") and rule in caught.value.message
    assert structuring == [], "refused only after structuring the items"


@pytest.mark.spec("2.4", "9.3")
def test_an_oversized_hand_is_refused_before_structuring_as_an_inconsistent_state(structuring: list[object]) -> None:
    data = _long(to_data(_state()), ["hands", 3], DEAL_SIZE + 1)
    with pytest.raises(InconsistentStateError) as caught:  # and an InvalidValueError: too many items
        from_data(data)
    assert isinstance(caught.value, TooManyItemsError) and caught.value.path == "hands[3]"
    assert structuring == []


@pytest.mark.spec("9.4")
def test_the_array_limits_are_the_rules_and_the_schemas_state_them() -> None:
    limits = {name: [limit for limit, _ in pairs] for (cls, name), pairs in ARRAY_LIMITS.items() if cls is GameState}
    assert limits["hands"] == [5, DEAL_SIZE] and limits["draw_pile"] == [len(HAND_CARDS)]
    assert limits["history"] == [12] and limits["month_scores"] == [3] and limits["revolution_pile"] == [4]
    schema = shipped_schemas()["game-state.json"]
    assert schema["properties"]["draw_pile"]["maxItems"] == len(HAND_CARDS)
    assert schema["properties"]["hands"]["maxItems"] == 5
    assert schema["properties"]["hands"]["items"]["maxItems"] == DEAL_SIZE
    data = to_data(_state())
    validator = Draft202012Validator(schema)
    assert validator.is_valid(data)
    assert not validator.is_valid(_long(data, ["draw_pile"], len(HAND_CARDS) + 1))
    record = shipped_schemas()["game-record.json"]
    assert record["properties"]["choices"]["maxItems"] == record["properties"]["digests"]["maxItems"] == 325


# --------------------------------------------------------------------------- the document size limit (fault 5)


@functools.cache
def _long_record() -> GameRecord:
    """The record of a 5-player game between bots (about the longest a game makes)."""
    return record_game(GameConfig(players=5), 3, [make_bot("greedy", seat) for seat in range(5)])


@pytest.mark.spec("9.4")
def test_a_huge_document_is_refused_by_the_size_limit_without_being_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    # 50 MB of whitespace after a valid record: valid JSON, which json.loads would take in.
    text = to_json(_long_record()) + " " * 50_000_000
    parsed: list[str] = []
    loads = json.loads

    def counted(text: str, **options: Any) -> Any:
        parsed.append(text)
        return loads(text, **options)

    monkeypatch.setattr(json, "loads", counted)
    for document in (text, text.encode()):
        with pytest.raises(DocumentTooLargeError) as caught:
            load_record(document)
        assert str(len(document)) in caught.value.message and str(DEFAULT_MAX_SIZE) in caught.value.message
    assert parsed == []


@pytest.mark.spec("9.4")
def test_the_size_limit_is_a_documented_default_far_above_real_documents_and_can_be_changed() -> None:
    record = _long_record()
    text = to_json(record, indent=2)
    assert DEFAULT_MAX_SIZE == 4 * 1024 * 1024 and "4 MiB" in (serialization.__doc__ or "")
    assert len(text.encode()) * 50 < DEFAULT_MAX_SIZE
    padded = text + " " * (DEFAULT_MAX_SIZE - len(text))
    assert load_record(padded) == record  # exactly the limit loads
    with pytest.raises(DocumentTooLargeError):
        load_record(padded + " ")
    assert load_record(padded + " " * 1000, max_size=DEFAULT_MAX_SIZE + 1000) == record
    with pytest.raises(DocumentTooLargeError) as caught:
        from_json(text, max_size=len(text) - 1)
    assert f"{len(text)} characters, more than the limit of {len(text) - 1}" in caught.value.message
    assert from_json(text, max_size=len(text)) == record
    action = to_json(PassCards(HAND_CARDS[2:4]))
    with pytest.raises(DocumentTooLargeError):
        load_action(action, max_size=10)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("max_size", [-1, 1.5, "4", True, None])
def test_a_size_limit_that_is_no_count_is_a_bad_argument(max_size: Any) -> None:
    with pytest.raises(InvalidArgumentError):
        load_state(to_json(_state()), max_size=max_size)


# --------------------------------------------------------------------------- quotations (fault 7)


#: (what is huge, a document with HUGE where a 10 MB string goes, the error's path with HUGE likewise).
QUOTING = [
    ("unknown key", '{"format":"darkempire/1","type":"action","kind":"play-nothing","HUGE":1}', "HUGE"),
    ("config key", '{"format":"darkempire/1","type":"game-record","config":{"players":3,"HUGE":1}}', "config.HUGE"),
    ("format", '{"format":"HUGE","type":"action"}', "format"),
    ("type", '{"format":"darkempire/1","type":"HUGE"}', "type"),
    ("kind", '{"format":"darkempire/1","type":"action","kind":"HUGE"}', "kind"),
    ("faction", '{"format":"darkempire/1","type":"action","kind":"choose-support","faction":"HUGE"}', "faction"),
    ("repeated key", '{"HUGE":1,"HUGE":1}', "HUGE"),
]


@pytest.mark.spec("9.4")
@pytest.mark.parametrize(("template", "where"), [(t, p) for _, t, p in QUOTING], ids=[i for i, _, _ in QUOTING])
def test_an_error_quotes_at_most_the_documented_length_of_a_huge_value(template: str, where: str) -> None:
    huge = "x" * 10_000_000
    text, path = template.replace("HUGE", huge), where.replace("HUGE", huge)
    with pytest.raises(SerializationError) as caught:
        from_json(text, max_size=ROOMY)
    error = caught.value
    assert "(10000000 characters)" in error.message
    assert len(error.message) <= MESSAGE_LIMIT and len(str(error)) <= 2 * MESSAGE_LIMIT + 2
    assert error.path.startswith(path[: QUOTE_LIMIT // 2]) and len(error.path) <= len(path[:QUOTE_LIMIT]) + 8
    quoted = max(error.message.split(), key=len)  # the quotation, cut
    assert len(quoted) <= QUOTE_LIMIT
    if "key" in error.message:
        assert isinstance(error, (UnknownFieldError, DuplicateKeyError))


@pytest.mark.spec("9.4")
def test_no_error_message_is_longer_than_the_documented_limit() -> None:
    # A month of 4000 digits is an integer Python parses; the state check quotes it in its message.
    data = to_data(_state())
    data["month"] = 10**4000
    with pytest.raises(SerializationError) as caught:
        from_data(data)
    assert caught.value.path == "month"
    assert len(caught.value.message) == MESSAGE_LIMIT and caught.value.message.endswith("...")


# --------------------------------------------------------------------------- darkempire replay (fault 6)


def _limited_memory() -> None:  # pragma: no cover - runs in the child process
    # The unfixed command read /dev/zero until MemoryError: keep that from taking the machine's memory.
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


@pytest.mark.spec("9.3")
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_replay_of_dev_zero_stops_with_a_one_line_error() -> None:
    path = os.pathsep.join([str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "40"}  # a narrow terminal must not wrap the line
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from darkempire.cli import main; sys.exit(main())", "replay", "/dev/zero"],
        capture_output=True, text=True, env=env, timeout=120, preexec_fn=_limited_memory,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr[-2000:]
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert lines[0].startswith("darkempire: ") and "/dev/zero is not a regular file" in lines[0]


@pytest.mark.spec("9.3")
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_replay_of_a_fifo_fails_at_once_instead_of_waiting_for_a_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # open() of a FIFO without a writer blocks forever: the unfixed command hung here
    assert main(["replay", str(fifo)]) == 1
    assert "is not a regular file" in capsys.readouterr().err


@pytest.mark.spec("9.3")
def test_replay_of_a_file_over_the_limit_stops_with_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "padded.json"
    path.write_text(to_json(_long_record()) + " " * DEFAULT_MAX_SIZE)  # a valid record, 4 MiB of spaces after it
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and f"holds more than {DEFAULT_MAX_SIZE} bytes" in captured.err


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("digits", [200, 4000])
def test_a_huge_card_id_is_named_by_its_size(digits: int) -> None:
    """A long number is no card, and the error says so in a few words: it neither quotes every digit nor
    fails to print a 4,000-digit int (a newcomer's review)."""
    text = '{"format":"darkempire/1","type":"action","kind":"pass-cards","cards":[%s,2]}' % ("9" * digits)
    with pytest.raises(SerializationError) as caught:
        load_action(text)
    assert "bits; hand card ids are 0-74" in str(caught.value) and len(str(caught.value)) < 120
