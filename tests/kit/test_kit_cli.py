"""tablekit.cli carries a game that is not Dark Empire: a small ``toy`` command for Toyspiel, run in-process.

``toy demo`` plays a seeded game between random bots with :func:`tablekit.bots.run_game` and can write its
record; ``toy replay FILE`` re-runs a record with :func:`tablekit.records.replay`. The tests check what the
shell promises: the output, the exit statuses, and exactly one line on standard error for a refusal.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

import pytest

from kit.toy import GAME, Bid, Keep, Peek, ToyAction, ToyConfig
from tablekit.bots import RandomBot, run_game
from tablekit.cli import EXIT_INTERRUPTED, Command, CommandExit, Shell, UsageError, main, one_line
from tablekit.errors import KitError
from tablekit.records import Record, RecordError, replay
from tablekit.wire import Format, dump_json, load_json, make_envelope, open_envelope

TOY = Format("toyspiel", 1)
#: Not 1, so that a shell that ignored its ``error_status`` is caught.
TOY_ERROR = 3


def _action_data(action: ToyAction) -> dict[str, Any]:
    return {"kind": "bid", "card": action.card} if isinstance(action, Bid) else {"kind": type(action).__name__.lower()}


def _action(data: dict[str, Any]) -> ToyAction:
    return Bid(data["card"]) if data["kind"] == "bid" else (Keep() if data["kind"] == "keep" else Peek())


def _add_demo(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--cards", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, help="also print this seat's final hand size")
    parser.add_argument("--record", metavar="FILE")


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    if args.show is not None and not 0 <= args.show < args.players:
        raise UsageError(f"--show must be a seat from 0 to {args.players - 1}")
    bots = [RandomBot[ToyAction](10 * args.seed + seat) for seat in range(args.players)]
    played = run_game(GAME, ToyConfig(args.players, args.cards), args.seed, bots)
    print(f"Toyspiel, {args.players} players, seed {args.seed}: {len(played.record.choices)} choices", file=out)
    print("scores " + " ".join(str(int(score)) for score in played.returns), file=out)
    if args.record is not None:
        payload = {
            "config": {"players": args.players, "cards": args.cards},
            "seed": args.seed,
            "choices": [{"seat": c.seat, **_action_data(c.action)} for c in played.record.choices],
        }
        Path(args.record).write_text(dump_json(make_envelope(TOY, "game-record", payload)))
    return 0


def _replay(args: argparse.Namespace, out: TextIO) -> int:
    _, payload = open_envelope(load_json(Path(args.file).read_bytes()), TOY, frozenset({"game-record"}))
    config = ToyConfig(**payload["config"])
    choices = [(c["seat"], _action(c)) for c in payload["choices"]]
    transitions = list(replay(GAME, Record(TOY.name, TOY.version, config, payload["seed"], choices)))
    if not GAME.is_over(transitions[-1].state):
        raise RecordError("the record stops before the end of the game")
    print("replayed, scores " + " ".join(str(int(s)) for s in GAME.returns(transitions[-1].state)), file=out)
    return 0


def _add_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file")


COMMANDS = [
    Command("demo", "watch random bots play Toyspiel", _demo, _add_demo),
    Command("replay", "replay a Toyspiel record", _replay, _add_replay),
]


def toy(capsys: pytest.CaptureFixture[str], *argv: str, commands: list[Command[TextIO]] = COMMANDS) -> tuple[int, str, str]:
    """Run ``toy`` with ``argv``; its status, standard output and standard error."""
    code = main("toy", "Toyspiel, the kit's toy game.", commands, list(argv), output=lambda s: s, error_status=TOY_ERROR)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Standard error of ``toy`` with ``argv``, which must be a usage error (status 2)."""
    with pytest.raises(SystemExit) as exit_info:
        toy(capsys, *argv)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


def test_demo_prints_the_game_of_run_game_and_replay_reproduces_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    code, out, err = toy(capsys, "demo", "--players", "3", "--seed", "7", "--record", str(path))
    played = run_game(GAME, ToyConfig(3, 4), 7, [RandomBot[ToyAction](70 + s) for s in range(3)])
    scores = " ".join(str(int(s)) for s in played.returns)
    assert (code, err) == (0, "")
    assert out == f"Toyspiel, 3 players, seed 7: {len(played.record.choices)} choices\nscores {scores}\n"
    assert json.loads(path.read_text())["format"] == "toyspiel/1"
    assert toy(capsys, "replay", str(path)) == (0, f"replayed, scores {scores}\n", "")


def test_a_kit_error_gives_the_shells_status_and_exactly_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert toy(capsys, "demo", "--seed", "2", "--record", str(path))[0] == 0
    document = json.loads(path.read_text())
    document["choices"][0]["card"] = 99  # a card no seat holds: the replay diverges at choice 0
    path.write_text(json.dumps(document))
    code, out, err = toy(capsys, "replay", str(path))
    assert (code, out) == (TOY_ERROR, "")
    assert err.count("\n") == 1 and err.startswith("toy: ") and "choice 0" in err
    path.write_text("{not json")
    code, _, err = toy(capsys, "replay", str(path))
    assert code == TOY_ERROR and err.count("\n") == 1 and err.startswith("toy: ")


def _raising(error: BaseException) -> list[Command[TextIO]]:
    def run(args: argparse.Namespace, out: TextIO) -> int:
        print("started", file=out)
        raise error

    return [Command("go", "raise", run)]


def test_a_message_with_line_breaks_and_escapes_stays_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = toy(capsys, "go", commands=_raising(KitError("first\nsecond\r\x1b[2Jthird")))
    assert (code, out) == (TOY_ERROR, "started\n")
    assert err == "toy: first\\nsecond\\r\\x1b[2Jthird\n"
    assert one_line("tab\there\u2028") == "tab\\there\\u2028"


def test_ctrl_c_exits_130_and_a_command_exit_keeps_its_status_and_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert toy(capsys, "go", commands=_raising(KeyboardInterrupt())) == (EXIT_INTERRUPTED, "started\n", "Interrupted.\n")
    assert EXIT_INTERRUPTED == 130
    assert toy(capsys, "go", commands=_raising(CommandExit(5, "Game abandoned."))) == (5, "started\n", "Game abandoned.\n")


def test_a_bug_is_not_hidden_as_an_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    """Only the kit's errors are the user's to read; any other exception is a bug and goes up whole."""
    with pytest.raises(ZeroDivisionError):
        toy(capsys, "go", commands=_raising(ZeroDivisionError("bug")))


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "required"),
        (["fly"], "invalid choice: 'fly'"),
        (["demo", "--players", "5"], "invalid choice"),
        (["demo", "--seed", "x"], "invalid int value"),
        (["replay"], "the following arguments are required: file"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    err = usage_error(capsys, *argv)
    assert words in err and err.startswith("usage: toy")


def test_a_usage_error_of_a_command_shows_that_commands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    err = usage_error(capsys, "demo", "--players", "3", "--show", "3")
    assert err.startswith("usage: toy demo ") and "--record FILE" in err
    assert err.splitlines()[-1] == "toy demo: error: --show must be a seat from 0 to 2"


def test_a_huge_argument_is_quoted_cut_short(capsys: pytest.CaptureFixture[str]) -> None:
    err = usage_error(capsys, "demo", "--seed", "9" * 100_000)
    assert len(err) < 1000 and "invalid int value: '999" in err and "(100002 characters)" in err


def test_the_help_lists_the_commands_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        toy(capsys, "--help")
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert "Toyspiel, the kit's toy game." in out and "watch random bots play Toyspiel" in out and "{demo,replay}" in out


def test_a_shell_needs_commands_with_distinct_names() -> None:
    with pytest.raises(KitError):
        Shell("toy", "", [COMMANDS[0], COMMANDS[0]], output=lambda s: s)
    with pytest.raises(KitError):
        Shell("toy", "", [], output=lambda s: s)
