"""Game records: recording bot games, replaying them, tampered records, and the record commands (spec 9.3)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import attrs
import pytest

from darkempire.rules import engine
from darkempire.bots import GreedyBot, RandomBot
from darkempire.cli import main
from darkempire.records import (
    Choice,
    DivergentChoiceError,
    GameRecord,
    RecordError,
    UnfinishedRecordError,
    VerdictMismatchError,
    record_game,
    replay_record,
    state_digest,
)
from darkempire.serialization import SerializationError, from_json, load_record, to_json
from darkempire.rules.state import GameConfig, Phase
from darkempire.rules.views import player_view

PLAYERS = (3, 4, 5)


@functools.cache
def recorded(players: int, seed: int = 1) -> GameRecord:
    bots = [GreedyBot(seed * 10 + s) if s % 2 else RandomBot(seed * 10 + s) for s in range(players)]
    return record_game(GameConfig(players=players), seed, bots)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_recorded_bot_game_replays_to_its_verdict(players: int) -> None:
    record = recorded(players)
    assert record.verdict is not None and len(record.digests) == len(record.choices)
    loaded = load_record(to_json(record))
    assert loaded == record
    replayed = replay_record(loaded)
    assert replayed.final.verdict == record.verdict and replayed.final.phase is Phase.GAME_OVER
    assert len(replayed.states) == len(record.choices) + 1
    assert engine.replay(record.config, record.seed, record.pairs()) == replayed.final


def _other_legal(record: GameRecord, index: int) -> Choice:
    """A different legal action for the seat of choice ``index``."""
    states = replay_record(attrs.evolve(record, choices=record.choices[:index], verdict=None, digests=())).states
    choice = record.choices[index]
    other = next(a for a in engine.legal_actions(states[-1], choice.seat) if a != choice.action)
    return Choice(choice.seat, other)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_tampered_legal_choice_is_named_by_its_digest(players: int) -> None:
    record = recorded(players)
    for index in (0, len(record.choices) // 3, len(record.choices) - 2):
        tampered = attrs.evolve(record, choices=_replace(record.choices, index, _other_legal(record, index)))
        with pytest.raises(DivergentChoiceError) as caught:
            replay_record(tampered)
        assert (caught.value.index, caught.value.seat) == (index, record.choices[index].seat)
        assert caught.value.action == tampered.choices[index].action
        assert "digest" in caught.value.reason and f"choice {index}" in str(caught.value)


def _replace(choices: tuple[Choice, ...], index: int, choice: Choice) -> tuple[Choice, ...]:
    return choices[:index] + (choice,) + choices[index + 1 :]


@pytest.mark.spec("9.3", "9.1")
def test_an_illegal_choice_is_named_with_its_rule() -> None:
    record = recorded(4)
    index = 50
    seat = record.choices[index].seat
    wrong = Choice((seat + 1) % 4, record.choices[index].action)  # another seat's move
    bad = attrs.evolve(record, choices=_replace(record.choices, index, wrong), digests=())
    with pytest.raises(DivergentChoiceError) as caught:
        replay_record(bad)
    assert caught.value.index == index and caught.value.seat == wrong.seat and caught.value.action == wrong.action
    assert "rule" in caught.value.reason


@pytest.mark.spec("9.3")
def test_without_digests_a_tampered_game_fails_later_or_at_the_verdict() -> None:
    record = attrs.evolve(recorded(3), digests=())
    index = 20
    tampered = attrs.evolve(record, choices=_replace(record.choices, index, _other_legal(record, index)))
    with pytest.raises(RecordError) as caught:
        replay_record(tampered)
    if isinstance(caught.value, DivergentChoiceError):
        assert caught.value.index > index  # only a later choice can be seen to be illegal
    else:
        assert isinstance(caught.value, VerdictMismatchError)


@pytest.mark.spec("8.1", "9.3")
def test_a_wrong_verdict_or_an_unfinished_game_is_refused() -> None:
    record = recorded(5)
    assert record.verdict is not None
    other_winners = frozenset(range(5)) - record.verdict.winners
    with pytest.raises(VerdictMismatchError) as caught:
        replay_record(attrs.evolve(record, verdict=attrs.evolve(record.verdict, winners=other_winners)))
    assert caught.value.replayed == record.verdict
    with pytest.raises(UnfinishedRecordError):
        replay_record(attrs.evolve(record, choices=record.choices[:-5], digests=record.digests[:-5]))
    with pytest.raises(VerdictMismatchError):
        replay_record(attrs.evolve(record, verdict=None))
    with pytest.raises(RecordError, match="digests"):
        replay_record(attrs.evolve(record, digests=record.digests[:-1]))
    unfinished = attrs.evolve(record, choices=record.choices[:10], digests=record.digests[:10], verdict=None)
    assert not replay_record(unfinished).final.is_over


@pytest.mark.spec("9.3")
def test_state_digests_tell_states_apart() -> None:
    states = replay_record(recorded(3)).states
    digests = [state_digest(s) for s in states[:60]]
    assert len(set(digests)) == len(digests)
    assert all(len(d) == 16 and int(d, 16) >= 0 for d in digests)
    assert state_digest(states[7]) == state_digest(from_json(to_json(states[7])))  # type: ignore[arg-type]


@pytest.mark.spec("9.3")
def test_a_record_accepts_seat_action_pairs() -> None:
    record = recorded(3)
    assert GameRecord(record.config, record.seed, record.pairs(), record.verdict, record.digests) == record


# --------------------------------------------------------------------------- the commands


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_demo_record_then_replay_confirms_the_verdict(
    players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert main(["demo", "--players", str(players), "--seed", "4", "--record", str(path)]) == 0
    demo_out = capsys.readouterr().out
    record = load_record(path.read_text(encoding="utf-8"))
    assert record.config.players == players and record.seed == 4 and record.verdict is not None
    assert f"Record of {len(record.choices)} choices written" in demo_out
    assert main(["replay", str(path)]) == 0
    replay_out = capsys.readouterr().out
    assert "Verdict reproduced" in replay_out
    # The replay prints the same week-by-week log as the demo did.
    log = demo_out[demo_out.index("Month 1, week 1") : demo_out.index("Record of")]
    assert log in replay_out


@pytest.mark.spec("9.3", "9.4")
def test_replay_shows_what_one_seat_saw_in_one_week(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert main(["demo", "--players", "4", "--seed", "2", "--record", str(path)]) == 0
    capsys.readouterr()
    record = load_record(path.read_bytes())
    states = replay_record(record).states
    start = next(s for s in states if (s.month, s.week, s.phase) == (2, 3, Phase.PLAY_1))
    assert main(["replay", str(path), "--seat", "2", "--week", "7"]) == 0
    out = capsys.readouterr().out
    assert "What seat 2 saw in week 7 (month 2, week 3)" in out
    view = player_view(start, 2)
    hand_line = next(line for line in out.splitlines() if "Your hand:" in line)
    assert {int(i) for i in re.findall(r"#(\d+)", hand_line)} == {card.id for card in view.hand}
    assert "Step 3 revealed" in out and "Re-organize" in out
    # Seat 2 sees its own choices and only that the others chose.
    assert "seat 2 (you) plays" in out and "seat 0 has chosen" in out
    assert main(["replay", str(path), "--week", "7"]) == 0
    spectator = capsys.readouterr().out
    assert "What a spectator saw" in spectator and "Your hand" not in spectator


@pytest.mark.spec("9.3")
def test_replay_of_a_tampered_file_names_the_divergent_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = recorded(3)
    index = 40
    path = tmp_path / "tampered.json"
    path.write_text(to_json(attrs.evolve(record, choices=_replace(record.choices, index, _other_legal(record, index)))))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"choice {index} (seat {record.choices[index].seat}" in err and "diverges" in err


@pytest.mark.spec("9.3")
def test_replay_refuses_bad_files_and_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(to_json(recorded(3)))
    broken = tmp_path / "broken.json"
    data = json.loads(to_json(recorded(3)))
    data["choices"][3]["action"]["cards"][0] = 99
    broken.write_text(json.dumps(data))
    cases = [
        ([str(tmp_path / "missing.json")], "cannot read"),
        ([str(broken)], "choices[3].action.cards[0]"),
        ([str(good), "--seat", "7", "--week", "1"], "no seat 7"),
        ([str(good), "--week", "13"], "week 13"),
    ]
    for args, message in cases:
        assert main(["replay", *args]) == 1
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:  # options that do not fit together: a usage error, as argparse's
        main(["replay", str(good), "--seat", "1"])
    assert usage.value.code == 2 and "--seat needs --week" in capsys.readouterr().err


@pytest.mark.spec("9.3")
def test_a_record_file_is_refused_as_another_message_type(tmp_path: Path) -> None:
    record = recorded(3)
    text = to_json(record.choices[0].action)
    with pytest.raises(SerializationError) as caught:
        load_record(text)
    assert caught.value.path == "type"
