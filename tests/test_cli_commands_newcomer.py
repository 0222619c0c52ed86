"""``darkempire`` as a newcomer meets it: each command run as a process on an 80-column terminal (spec 9.3, 9.4).

What a first session found, each checked here the way a newcomer would see it:

* a path printed back through ``rich`` lost ``[plot]`` as markup (``--plot out[plot].png``);
* ``replay`` of a ``demo --theme dark-empire`` record showed Steam Noir's faction names;
* ``demo`` played greedy bots and ``simulate`` random ones; a stray argument got the program's usage, not the
  subcommand's; there was no ``--version``; ``--help`` left some defaults out; a plot path that cannot be
  written was found after the games; ``demo | head -1`` exited 1;
* replay errors printed Python values: ``Verdict(reason=<VerdictReason...>)``, ``bonus [0, 0, 0, 6]``,
  ``winners [2]``, ``PassCards(cards=frozenset({FactionCard(...)}))``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import darkempire
from darkempire.cli.app import COMMANDS, DESCRIPTION, console
from tablekit.cli import Shell

SRC = Path(darkempire.__file__).resolve().parents[1]

#: Python values that must never reach a reader of the command's output or errors.
PYTHON_WORDS = re.compile(r"Verdict\(|VerdictReason|frozenset|Faction\.|FactionCard\(|PassCards\(|\[\d+(, \d+)*\]")

#: A matplotlib stand-in: ``simulate --plot`` runs through it without the real library (not installed here).
FAKE_PYPLOT = """
from unittest.mock import MagicMock

def subplots(*args, **kwargs):
    return MagicMock(), MagicMock()

def close(figure):
    pass
"""


def darkempire_run(
    *argv: str, cwd: Path, extra_path: Path | None = None, module: str = "darkempire"
) -> subprocess.CompletedProcess[str]:
    """``python -m darkempire argv`` as a process with this tree's sources, its output a pipe, 80 columns."""
    path = [str(SRC)] + ([str(extra_path)] if extra_path is not None else [])
    env = {**os.environ, "COLUMNS": "80", "LINES": "24", "PYTHONPATH": os.pathsep.join(path)}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", module, *argv], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


def fake_matplotlib(root: Path) -> Path:
    package = root / "fake-site" / "matplotlib"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("def use(backend):\n    pass\n", encoding="utf-8")
    (package / "pyplot.py").write_text(FAKE_PYPLOT, encoding="utf-8")
    return package.parent


def hiding(root: Path, *names: str) -> Path:
    """A folder that, put first on ``PYTHONPATH``, makes ``import name`` fail as if ``name`` were not installed:
    a fresh machine's plain ``pip install -e .``, on a machine that has every extra."""
    site = root / "hiding-site"
    for name in names:
        (site / name).mkdir(parents=True)
        failure = f"raise ModuleNotFoundError(\"No module named '{name}'\", name={name!r})\n"
        (site / name / "__init__.py").write_text(failure, encoding="utf-8")
    return site


# --------------------------------------------------------------------------- 6: text is not markup


@pytest.mark.spec("9.3")
def test_a_plot_path_with_brackets_is_printed_as_typed(tmp_path: Path) -> None:
    plot = tmp_path / "out[plot].png"
    run = darkempire_run(
        "simulate", "--players", "3", "--games", "2", "--bots", "greedy", "--plot", str(plot), cwd=tmp_path,
        extra_path=fake_matplotlib(tmp_path),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert f"Plot written to {plot}." in run.stdout


@pytest.mark.spec("9.3")
def test_the_missing_matplotlib_message_keeps_the_extra_name(tmp_path: Path) -> None:
    run = darkempire_run("simulate", "--games", "1", "--plot", str(tmp_path / "x.png"), cwd=tmp_path,
                         extra_path=hiding(tmp_path, "matplotlib"))  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert "pip install 'darkempire[plot]'" in run.stderr


@pytest.mark.spec("9.3")
def test_a_record_path_with_brackets_is_printed_as_typed(tmp_path: Path) -> None:
    record = tmp_path / "game[1].json"
    run = darkempire_run("demo", "--players", "3", "--record", str(record), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"written to {record}" in run.stdout


# --------------------------------------------------------------------------- 7: the record's theme


def _demo_records(tmp_path: Path, *options: str) -> tuple[Path, Path]:
    record, public = tmp_path / "g.json", tmp_path / "p.json"
    run = darkempire_run(
        "demo", "--players", "3", *options, "--record", str(record), "--public-record", str(public), cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    return record, public


@pytest.mark.spec("9.3", "9.4")
def test_replay_shows_the_names_the_demo_showed_and_theme_overrides_them(tmp_path: Path) -> None:
    demo = darkempire_run("demo", "--players", "3", "--theme", "dark-empire", cwd=tmp_path).stdout
    record, public = _demo_records(tmp_path, "--theme", "dark-empire")
    for path in (record, public):
        shown = darkempire_run("replay", str(path), cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert "Apparats" in shown.stdout and "Mechandros" not in shown.stdout
        assert shown.stdout.splitlines()[-2] == demo.splitlines()[-1]  # the same winner line as the demo's
        overridden = darkempire_run("replay", str(path), "--theme", "steam-noir", cwd=tmp_path)
        assert "Mechandros" in overridden.stdout and "Apparats" not in overridden.stdout


@pytest.mark.spec("9.3")
def test_a_record_without_a_theme_still_replays_as_steam_noir(tmp_path: Path) -> None:
    record, public = _demo_records(tmp_path, "--theme", "dark-empire")
    for path in (record, public):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document.pop("theme") == "DARK_EMPIRE"
        path.write_text(json.dumps(document), encoding="utf-8")
        shown = darkempire_run("replay", str(path), cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert "Mechandros" in shown.stdout and "Apparats" not in shown.stdout


# --------------------------------------------------------------------------- 8: defaults and options


@pytest.mark.spec("9.3")
def test_demo_plays_greedy_bots_and_simulate_the_strongest_that_fit(tmp_path: Path) -> None:
    """demo shows a varied game quickly (greedy bots); simulate plays the strongest kind whose run fits its
    budget (balance.policy): the search bot for one game, greedy bots for a thousand."""
    demo = darkempire_run("demo", "--players", "3", cwd=tmp_path)
    assert "Bots: seat 0: greedy, seat 1: greedy, seat 2: greedy" in demo.stdout
    simulate = darkempire_run("simulate", "--players", "3", "--games", "1", "--json", cwd=tmp_path)
    assert json.loads(simulate.stdout)["bots"] == ["ismcts"] * 3
    simulate = darkempire_run("simulate", "--players", "3", "--games", "1000", "--json", cwd=tmp_path)
    assert json.loads(simulate.stdout)["bots"] == ["greedy"] * 3


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("command", ["demo", "replay", "simulate"])
def test_a_stray_argument_is_reported_with_the_subcommands_usage(tmp_path: Path, command: str) -> None:
    argv = [command, "g.json", "stray"] if command == "replay" else [command, "stray"]
    run = darkempire_run(*argv, cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.startswith(f"usage: darkempire {command} ")
    assert run.stderr.splitlines()[-1] == f"darkempire {command}: error: unrecognized arguments: stray"


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("module", ["darkempire", "darkempire.cli"])
def test_version_is_printed_by_both_module_entry_points(tmp_path: Path, module: str) -> None:
    run = darkempire_run("--version", cwd=tmp_path, module=module)
    assert (run.returncode, run.stdout, run.stderr) == (0, f"darkempire {darkempire.__version__}\n", "")


def _defaults() -> dict[str, list[str]]:
    """Each subcommand's options that have a default a reader should be told (not None, not a flag's False)."""
    _, subparsers = Shell("darkempire", DESCRIPTION, COMMANDS, output=console).parsers()
    return {
        name: [
            action.option_strings[-1]
            for action in parser._actions  # argparse keeps no public list of a parser's options
            if action.option_strings and action.default not in (None, False, argparse.SUPPRESS)
        ]
        for name, parser in subparsers.items()
    }


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("command", sorted(_defaults()))
def test_help_shows_every_default(tmp_path: Path, command: str) -> None:
    shown = darkempire_run(command, "--help", cwd=tmp_path).stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
    blocks = re.split(r"\n(?=  -)", shown.split("options:", 1)[1])
    for option in _defaults()[command]:
        block = next(b for b in blocks if re.match(rf"\s*(-\w, )?{option}\b", b))
        assert "default" in block, f"darkempire {command} --help: {option} does not say its default:\n{block}"


@pytest.mark.spec("9.3")
def test_a_plot_that_cannot_be_written_is_refused_before_the_games(tmp_path: Path) -> None:
    run = darkempire_run(
        "simulate", "--games", "100000", "--plot", str(tmp_path / "missing" / "x.png"), cwd=tmp_path,
        extra_path=fake_matplotlib(tmp_path),
    )  # fmt: skip
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr == f"darkempire: cannot write {tmp_path / 'missing' / 'x.png'}: No such file or directory\n"


@pytest.mark.spec("9.3")
def test_a_record_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path) -> None:
    run = darkempire_run("demo", "--record", str(tmp_path / "missing" / "g.json"), cwd=tmp_path)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr.startswith("darkempire: cannot write ")


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("argv", [["demo"], ["simulate", "--games", "20", "--bots", "greedy"]])
def test_a_reader_that_stops_early_is_a_normal_end(tmp_path: Path, argv: list[str]) -> None:
    """``darkempire demo | head -1``: the reader closes the pipe after one line; the command ends with 0."""
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(SRC)}
    with subprocess.Popen(
        [sys.executable, "-m", "darkempire", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        cwd=tmp_path, text=True,
    ) as process:  # fmt: skip
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()  # before the game's lines are written: as head -1 exits
        status = process.wait(timeout=300)
        error = process.stderr.read()
    assert first.strip()
    assert (status, error) == (0, "")


# --------------------------------------------------------------------------- 9: the game's words


def _tampered(path: Path, change: Any) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    bad = path.with_name("bad-" + path.name)
    bad.write_text(json.dumps(document), encoding="utf-8")
    return bad


def _other_winner(document: dict[str, Any]) -> None:
    document["verdict"]["winners"] = [(document["verdict"]["winners"][0] + 1) % 3]


def _one_more_point(document: dict[str, Any]) -> None:
    document["verdict"]["totals"][1] += 1


def _no_verdict(document: dict[str, Any]) -> None:
    document["verdict"] = None


def _wrong_digest(document: dict[str, Any]) -> None:
    document["digests"][5] = "0" * 16


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    ("record_kind", "change", "words"),
    [
        ("game", _other_winner, r"the record says revolution, won by seat \d \(\w[\w ]*\), the rules give "),
        ("game", _one_more_point, r"but they differ in the City Guard total: \d+ in the record, \d+ by the rules"),
        ("game", _no_verdict, r"the record has no verdict, but the rules reach one: [a-z ]+, won by seat \d"),
        ("game", _wrong_digest, r"choice 5 \(seat \d discards [\w ]+ \d #\d+, [\w ]+ \d #\d+\) diverges"),
        ("public", _other_winner, r"its verdict is not the one its steps reach: the record says "),
    ],
)
def test_replay_errors_are_in_the_games_words(tmp_path: Path, record_kind: str, change: Any, words: str) -> None:
    record, public = _demo_records(tmp_path, "--theme", "dark-empire")
    run = darkempire_run("replay", str(_tampered(record if record_kind == "game" else public, change)), cwd=tmp_path)
    assert run.returncode == 1
    line = run.stderr.strip()
    assert "\n" not in line
    assert re.search(words, line), line
    assert not PYTHON_WORDS.search(line), line
    assert "Workers" not in line and "Mechandros" not in line  # the record's names: Dark Empire's


@pytest.mark.spec("9.3", "9.4")
def test_a_week_shown_at_replay_says_the_month_and_the_verdict_in_words(tmp_path: Path) -> None:
    record, _ = _demo_records(tmp_path)
    shown = darkempire_run("replay", str(record), "--week", "12", "--seat", "1", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert not PYTHON_WORDS.search(shown.stdout), shown.stdout
    assert re.search(r"Month 3 scored: .*; the 6 points: (seat \d( \(you\))? \+\d+(, )?)+", shown.stdout)
    assert re.search(r"Game over: [a-z ]+, won by seat \d( \(you\))? \(\w[\w ]*\)", shown.stdout)
