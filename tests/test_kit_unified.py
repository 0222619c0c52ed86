"""Dark Empire as one game on the kit: its errors are the kit's, its loader and its replays are the kit's (issue 13).

Each test here fails on the code before the unification (main at b635d5b): there, Dark Empire's errors were
its own classes, ``parse_json`` was a second strict loader, and four loops re-ran a game's choices.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator
from typing import cast, Any

import pytest

import tablekit.errors
import tablekit.records
import tablekit.wire
from darkempire.rules import engine, errors
from darkempire import records, serialization
from darkempire.bots import GreedyBot, RandomBot
from darkempire.history import History
from darkempire.records import GameRecord, record_game, record_states, replay_record
from darkempire.rules.state import GameConfig
from darkempire.wire.parsing import parse_json

#: (Dark Empire's class, the kit's class it is): the honest mapping of issue 13's step 1 and step 6.
KIT_PARENTS: list[tuple[type[Exception], type[Exception]]] = [
    (errors.DarkEmpireError, tablekit.errors.KitError),
    (errors.IllegalActionError, tablekit.errors.IllegalChoiceError),
    (errors.AlreadyChoseError, tablekit.errors.AlreadyChoseError),
    (serialization.SerializationError, tablekit.wire.WireError),
    (serialization.MalformedJSONError, tablekit.wire.MalformedJSONError),
    (serialization.DuplicateKeyError, tablekit.wire.DuplicateKeyError),
    (serialization.DocumentTooLargeError, tablekit.wire.DocumentTooLargeError),
    (serialization.FormatVersionError, tablekit.wire.FormatVersionError),
    (serialization.MissingFieldError, tablekit.wire.MissingFieldError),
    (serialization.WrongTypeError, tablekit.wire.WrongTypeError),
    (records.RecordError, tablekit.records.RecordError),
    (records.DivergentChoiceError, tablekit.records.DivergentChoiceError),
]


@pytest.mark.spec("9.1")
@pytest.mark.parametrize(("ours", "kits"), KIT_PARENTS, ids=[ours.__name__ for ours, _ in KIT_PARENTS])
def test_each_dark_empire_error_is_its_kit_namesake(ours: type[Exception], kits: type[Exception]) -> None:
    assert issubclass(ours, kits)


@pytest.mark.spec("9.1")
def test_a_seat_error_is_the_kits_illegal_choice_but_not_its_not_awaited() -> None:
    """WrongSeatError also means "nothing to withdraw" and is the base of MissingChoiceError (a step called
    without an awaited seat's choice): the kit's NotAwaitedError would misname both."""
    for name in ("WrongSeatError", "MissingChoiceError"):
        cls = getattr(errors, name)
        assert issubclass(cls, tablekit.errors.IllegalChoiceError), name
        assert not issubclass(cls, tablekit.errors.NotAwaitedError), name
    assert not issubclass(errors.WrongSeatError, tablekit.errors.NothingToWithdrawError)


@pytest.mark.spec("9.1")
def test_a_front_end_for_any_kit_game_catches_an_illegal_move_with_its_rule() -> None:
    state = engine.deal(GameConfig(players=3), seed=4)
    action = engine.legal_actions(state, 0)[0]
    chosen = engine.apply(state, 0, action)
    with pytest.raises(tablekit.errors.AlreadyChoseError) as again:
        engine.apply(chosen, 0, action)
    assert isinstance(again.value, errors.AlreadyChoseError) and again.value.rule == "9.2"
    with pytest.raises(tablekit.errors.IllegalChoiceError) as stranger:
        engine.apply(state, 7, action)
    assert stranger.value.rule == "9.1" and stranger.value.message.startswith("there is no seat 7")
    assert stranger.value.seat is None and str(stranger.value).endswith("(rule 9.1)")


@pytest.mark.spec("9.4")
def test_a_wire_error_is_located_as_text_and_as_the_kits_parts() -> None:
    data = serialization.to_data(engine.legal_actions(engine.deal(GameConfig(players=3), seed=4), 0)[0])
    data["cards"] = "two cards"
    with pytest.raises(tablekit.wire.WireError) as caught:
        serialization.from_data(data)
    error = caught.value
    assert isinstance(error, serialization.WrongTypeError)
    assert error.path == "cards" and error.parts == ("cards",) and error.where == "cards"
    moved = error.within("choices", 3, "action")
    assert type(moved) is serialization.WrongTypeError and moved.path == "choices[3].action.cards"
    assert str(moved) == f"choices[3].action.cards: {error.message}" and error.path == "cards"


@pytest.mark.spec("9.4")
def test_a_repeated_key_names_its_key_for_both_the_kit_and_dark_empire() -> None:
    with pytest.raises(tablekit.wire.DuplicateKeyError) as caught:
        serialization.from_json('{"format": "darkempire/1", "config": {"players": 3, "players": 4}}')
    assert isinstance(caught.value, serialization.DuplicateKeyError)
    assert caught.value.key == "players" and caught.value.path == "config.players"


def _planted_loader(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Replace the kit's loader with one that refuses everything and records what it was given."""
    given: list[object] = []

    def planted(text: str | bytes | bytearray, *, max_bytes: int = 0) -> Any:
        given.append((text, max_bytes))
        raise tablekit.wire.MalformedJSONError("planted refusal")

    monkeypatch.setattr(tablekit.wire, "load_json", planted)
    return given


LOADERS: dict[str, Callable[[str], object]] = {
    "parse_json": parse_json,
    "from_json": serialization.from_json,
    "load_action": serialization.load_action,
    "load_record": serialization.load_record,
    "load_state": serialization.load_state,
}


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("name", list(LOADERS))
def test_every_loader_reads_its_text_with_the_kits_one_strict_loader(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = _planted_loader(monkeypatch)
    text = '{"format": "darkempire/1", "type": "action", "kind": "play-nothing"}'
    with pytest.raises(serialization.MalformedJSONError, match="planted refusal"):
        LOADERS[name](text)
    assert given == [(text, serialization.DEFAULT_MAX_SIZE)]


@pytest.mark.spec("9.4")
def test_the_kit_loaders_refusals_become_dark_empires_errors_with_their_messages() -> None:
    too_large = "[" + " " * 20 + "]"
    with pytest.raises(serialization.DocumentTooLargeError) as large:
        parse_json(too_large, max_size=10)
    assert isinstance(large.value, tablekit.wire.DocumentTooLargeError)
    assert large.value.message == "the document is 22 characters, more than the limit of 10 bytes (max_size)"
    with pytest.raises(serialization.MalformedJSONError) as malformed:
        parse_json('{"a": NaN}')
    assert isinstance(malformed.value, tablekit.wire.MalformedJSONError)
    assert "NaN is not JSON" in malformed.value.message


@functools.cache
def _record() -> GameRecord:
    return record_game(GameConfig(players=3), 5, [RandomBot(1), GreedyBot(2), RandomBot(3)])


#: Every replay of Dark Empire, each run on the record's config, seed and choices: what it gives back.
REPLAYS: dict[str, Callable[[GameRecord], object]] = {
    "engine.replay": lambda r: engine.replay(r.config, r.seed, r.pairs()),
    "records.record_states": lambda r: tuple(record_states(r)),
    "records.replay_record": lambda r: replay_record(r).states,
    "History.extend": lambda r: History.start(r.config, r.seed).extend(r.choices).states,
    "History.from_record": lambda r: History.from_record(r).states,
}


def _outcome(replay: Callable[[GameRecord], object], record: GameRecord) -> object:
    try:
        return replay(record)
    except errors.DarkEmpireError as error:  # a replay that notices the divergence refuses the record
        return type(error)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("name", list(REPLAYS))
def test_every_replay_is_the_kits_one_loop_a_planted_divergence_shows_in_each(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _record()
    honest = _outcome(REPLAYS[name], record)
    loop = tablekit.records.replay_choices

    def planted(start: Any, choices: Iterable[Any], apply: Any, **options: Any) -> Iterator[Any]:
        """The one loop, except that it drops the record's last choice."""
        given = list(choices)
        return loop(start, given[:-1], apply, **options)

    monkeypatch.setattr(tablekit.records, "replay_choices", planted)
    assert _outcome(REPLAYS[name], record) != honest, f"{name} does not replay through tablekit.records.replay_choices"


@pytest.mark.spec("9.3")
def test_a_divergent_choice_is_the_same_error_from_every_replay_of_a_record() -> None:
    record = _record()
    seat, action = record.choices[-1].seat, record.choices[0].action  # a first-step action at the end: illegal
    forged = GameRecord(record.config, record.seed, (*record.choices[:-1], (seat, action)), None)
    index = len(record.choices) - 1
    replays: dict[str, Callable[[], object]] = {
        "record_states": lambda: tuple(record_states(forged)),
        "History.from_record": lambda: History.from_record(forged),
    }
    for name, replay in replays.items():
        with pytest.raises(tablekit.records.DivergentChoiceError) as caught:
            replay()
        error = caught.value
        assert isinstance(error, records.DivergentChoiceError), name
        assert (error.index, error.seat, error.action) == (index, seat, action), name
        assert isinstance(error.__cause__, errors.IllegalActionError), name
    with pytest.raises(errors.IllegalActionError, match=f"^choice {index} \\(seat {seat}\\)"):
        engine.replay(forged.config, forged.seed, forged.pairs())


@pytest.mark.spec("9.3")
def test_a_recorded_choice_is_the_kits_choice_and_still_reads_as_a_record() -> None:
    record = _record()
    assert issubclass(records.Choice, tablekit.records.Choice)
    assert all(isinstance(choice, tablekit.records.Choice) for choice in record.choices)
    kit_record = tablekit.records.Record("darkempire", 1, record.config, record.seed, record.choices)
    assert kit_record.choices == record.choices  # the kit keeps Dark Empire's choices as they are
    assert serialization.load_record(serialization.to_json(record)) == record  # and travels as before


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("reader", ["from_data", "from_json", "load_action"])
def test_every_loader_opens_the_envelope_with_the_kits_open_envelope(
    reader: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[tuple[str, int]] = []

    def planted(data: Any, fmt: tablekit.wire.Format, types: Any, **options: Any) -> Any:
        opened.append((fmt.name, fmt.version))
        raise tablekit.wire.UnknownTypeError("planted refusal", path=("type",))

    monkeypatch.setattr(tablekit.wire, "open_envelope", planted)
    document = {"format": "darkempire/1", "type": "action", "kind": "play-nothing"}
    load: Callable[[Any], object] = getattr(serialization, reader)
    with pytest.raises(serialization.InvalidValueError, match="planted refusal") as caught:
        load(document if reader == "from_data" else json.dumps(document))
    assert caught.value.path == "type" and opened == [("darkempire", 1)]


@pytest.mark.spec("9.4")
def test_the_format_is_the_kits_format_and_its_refusals_keep_dark_empires_quoting() -> None:
    assert serialization.FORMAT == tablekit.wire.Format("darkempire", serialization.FORMAT_VERSION).tag
    with pytest.raises(tablekit.wire.FormatVersionError) as caught:
        serialization.from_json(json.dumps({"format": "x" * 1000, "type": "action"}))
    assert isinstance(caught.value, serialization.FormatVersionError) and "(1000 characters)" in caught.value.message
    with pytest.raises(serialization.InvalidValueError, match="expected one of game-state, player-view"):
        serialization.from_json('{"format": "darkempire/1", "type": "chat"}')


def test_counter_based_sources_differ_by_namespace_and_draw_number() -> None:
    """Draw k of a seed depends on the namespace, the seed and k alone: Dark Empire's legacy shuffles
    (``darkempire.rules.chance.Chance``) and the kit's draws never share a generator."""
    from darkempire.rules.chance import Chance
    from tablekit.chance import Counter, SeededChance

    assert SeededChance(3).following() == SeededChance(3, 1) and Chance(3).following() == Chance(3, 1)
    assert isinstance(Chance(3), Counter) and isinstance(SeededChance(3), Counter)
    rolls = {source: source.generator().random() for source in (Chance(3), SeededChance(3), SeededChance(3, 1))}
    assert len(set(rolls.values())) == 3
    assert SeededChance(3).generator().random() == rolls[SeededChance(3)]  # the same draw, the same value
    assert Chance(3) != cast(object, SeededChance(3))  # different classes, never equal
