"""``darkempire`` on the kit's shell (tablekit.cli): the flaws the old shell had, each refused now (spec 9.2, 9.3).

* ``simulate --games 0`` ran an empty simulation; it is a usage error.
* ``demo --bots foo`` showed the top-level usage; it shows ``demo``'s.
* a huge ``--seed`` came back whole in the error; it is quoted cut short.
* ``demo --record /nonexistent/dir/x.json`` played the whole game before failing; the path is checked first.
* an error message holding a line break (a file name can) took two lines on standard error; it takes one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from darkempire.cli import main
from darkempire.cli.record_files import check_writable
from darkempire.records import RecordError


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Standard error of ``darkempire argv``, which must exit with status 2 through argparse."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    ("option", "value", "named"),
    [("--games", "0", "--games"), ("--games", "-3", "--games"), ("--jobs", "0", "--workers"), ("--workers", "0", "--workers")],
)
def test_simulate_refuses_no_games_or_no_workers_as_a_usage_error(
    capsys: pytest.CaptureFixture[str], option: str, value: str, named: str
) -> None:
    err = usage_error(capsys, "simulate", "--players", "3", option, value)
    assert err.startswith("usage: darkempire simulate ")
    assert err.splitlines()[-1] == f"darkempire simulate: error: {named} must be at least 1, not {value}"


@pytest.mark.spec("9.2")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--bots", "foo"], "--bots: unknown bot kind 'foo'; choose from greedy, ismcts, random"),
        (["simulate", "--players", "3", "--bots", "random,greedy"], "--bots: give one kind, or one per seat (3), not 2"),
        (["play", "--players", "3", "--seat", "5"], "--seat must be from 0 to 2 in a 3-player game"),
        # Refused before the seeds are listed: a typo's billions of seeds filled gigabytes first.
        (["simulate", "--games", "10" * 10], f"--games must be at most 1,000,000 in one run, not {int('10' * 10):,}; run several seeds"),
        (["tournament", "--bots", "random,random,random", "--games", "3000003"], "--games must be at most 1,000,000 in one run, not 3,000,003; run several seeds"),
    ],
)
def test_a_refused_combination_shows_the_subcommands_usage(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    err = usage_error(capsys, *argv)
    assert err.startswith(f"usage: darkempire {argv[0]} [-h]")
    assert err.splitlines()[-1] == f"darkempire {argv[0]}: error: {message}"


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("command", ["demo", "play", "simulate"])
def test_a_huge_seed_is_quoted_cut_short(capsys: pytest.CaptureFixture[str], command: str) -> None:
    seed = "7" * 50_000  # not an int to Python (over 4,300 digits), so argparse refuses it
    err = usage_error(capsys, command, "--seed", seed)
    assert "argument --seed: invalid int value: '777" in err and "(50002 characters)" in err
    assert len(err) < 1000


@pytest.mark.spec("9.3")
def test_demo_refuses_an_unwritable_record_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "x.json"
    assert main(["demo", "--record", str(missing)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # the old shell printed the whole game first
    assert captured.err == f"darkempire: cannot write {missing}: No such file or directory\n"


@pytest.mark.spec("9.3")
def test_demo_writes_neither_record_when_the_second_cannot_be_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    assert main(["demo", "--record", str(good), "--public-record", str(tmp_path)]) == 1  # a directory
    captured = capsys.readouterr()
    assert captured.out == "" and "Is a directory" in captured.err
    assert not good.exists()  # the check leaves no file behind


def test_the_check_leaves_an_existing_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    path.write_text("old")
    check_writable(path)
    assert path.read_text() == "old"
    check_writable(tmp_path / "new.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]
    with pytest.raises(RecordError, match="cannot write"):
        check_writable(tmp_path / "missing" / "x.json")


@pytest.mark.spec("9.3")
def test_an_error_naming_a_file_with_a_line_break_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two\nlines.json"
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "two\\nlines.json" in captured.err and "cannot read" in captured.err
