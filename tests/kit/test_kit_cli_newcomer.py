"""The kit's shell (tablekit.cli) for any game: ``--version``, defaults in ``--help``, a stray argument with the
subcommand's usage, and a closed standard output as a normal end, on a toy command run in-process."""

from __future__ import annotations

import argparse

import pytest

from tablekit.cli import EXIT_OK, Command, Shell


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rounds", type=int, default=3, help="rounds to play")
    parser.add_argument("--seats", type=int, default=2, help="seats at the table (default 2)")
    parser.add_argument("--loud", action="store_true", help="shout")


def _greet(args: argparse.Namespace, out: object) -> int:
    print(f"{args.rounds} rounds")
    return EXIT_OK


def _closed(args: argparse.Namespace, out: object) -> int:
    raise BrokenPipeError("the reader went away")


SHELL = Shell(
    "toy", "A toy.", [Command("greet", "say hello", _greet, _add), Command("pipe", "write to no one", _closed)],
    output=lambda stream: stream, version="1.2",
)  # fmt: skip


@pytest.mark.spec("9.3")
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        SHELL.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == "toy 1.2\n"


@pytest.mark.spec("9.3")
def test_help_gives_each_default_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        SHELL.main(["greet", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "rounds to play (default 3)" in shown
    assert "seats at the table (default 2)" in shown and "(default 2) (default 2)" not in shown
    assert "shout (default" not in shown


@pytest.mark.spec("9.3")
def test_a_stray_argument_gets_the_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        SHELL.main(["greet", "stray"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: toy greet ")
    assert err.splitlines()[-1] == "toy greet: error: unrecognized arguments: stray"


@pytest.mark.spec("9.3")
def test_a_closed_output_is_a_normal_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert SHELL.main(["pipe"]) == EXIT_OK
    assert capsys.readouterr().err == ""
