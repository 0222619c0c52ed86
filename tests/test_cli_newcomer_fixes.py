"""The ``darkempire`` command's newcomer fixes (Dark Empire side), tried as a person meets them: the command in
a subprocess 80 columns wide, or on a pseudo-terminal of 80 columns.

1. ``play`` keeps ``--theme`` in its ``--record`` and ``--save`` files;
2. ``demo`` and ``replay`` wrap at word boundaries on a terminal;
3. card labels, seat names and add-ons stay whole when a terminal wraps;
4. the rules' messages in a replay name factions as the record's theme does;
5. ``replay`` of a saved game points to ``play --resume``;
6. ``replay --seat`` without ``--week`` is a usage error;
7. re-organize news names your own discarded cards;
8. no internal issue notes in the docs;
9. ``prompt.json`` requires ``theme`` and ``labels``.
"""

from __future__ import annotations

import ast
import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from jsonschema import Draft202012Validator

from darkempire.cli.record_files import read_record
from darkempire.records import GameRecord
from darkempire.rules.cards import Theme
from darkempire.rules.engine import deal
from darkempire.rules.events import HandRefilled
from darkempire.rules.state import GameConfig
from darkempire.serialization import load_prompt, to_json
from darkempire.text import cards_text
from darkempire.wire.prompts import make_prompt, prompt_labels
from test_cli_play_newcomer import ESCAPES, FIRST_CHOICES, darkempire, env, game_events, pty_session

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- 1: the theme in play's files


@pytest.mark.spec("9.3")
def test_play_record_keeps_the_theme_and_replay_shows_it(tmp_path: Path) -> None:
    played = darkempire(
        ["play", "--players", "5", "--seed", "3", "--theme", "dark-empire", "--record", "r.json"],
        FIRST_CHOICES,
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr
    assert json.loads((tmp_path / "r.json").read_text())["theme"] == "DARK_EMPIRE"
    replayed = darkempire(["replay", "r.json"], cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "Apparats" in replayed.stdout and "Mechandros" not in replayed.stdout


@pytest.mark.spec("9.3")
def test_a_saved_game_keeps_the_theme_and_theme_on_resume_overrides_it(tmp_path: Path) -> None:
    saved = darkempire(["play", "--theme", "dark-empire", "--save", "s.json"], FIRST_CHOICES[:1], cwd=tmp_path)
    assert saved.returncode == 1 and (tmp_path / "s.json").exists(), saved.stderr
    resumed = darkempire(["play", "--resume", "s.json"], cwd=tmp_path)
    assert "theme dark-empire" in resumed.stdout.splitlines()[0]
    overridden = darkempire(["play", "--resume", "s.json", "--theme", "steam-noir"], cwd=tmp_path)
    assert "theme steam-noir" in overridden.stdout.splitlines()[0]
    document = json.loads((tmp_path / "s.json").read_text())
    del document["record"]["theme"]  # a game saved before saves kept the theme is still read, as Steam Noir's
    (tmp_path / "old.json").write_text(json.dumps(document))
    old = darkempire(["play", "--resume", "old.json"], cwd=tmp_path)
    assert "theme steam-noir" in old.stdout.splitlines()[0], old.stderr


# --------------------------------------------------------------------------- 2, 3: wrapping on a terminal


def pty_output(args: Sequence[str], columns: int = 80) -> str:
    """What a terminal ``columns`` wide shows of ``darkempire args`` (no input), colour codes removed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "darkempire", *args],
        stdin=slave, stdout=slave, stderr=slave, env=env(columns), close_fds=True,
    )  # fmt: skip
    os.close(slave)
    received = b""
    try:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the command ended and closed the terminal
                break
            if not chunk:
                break
            received += chunk
        process.wait(timeout=60)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
    return ESCAPES.sub("", received.decode("utf-8", "replace")).replace("\r\n", "\n")


def demo_and_replay(tmp_path: Path) -> list[tuple[list[str], str]]:
    """``demo --players 5`` and ``replay`` of a 5-player record, each with what a terminal showed."""
    assert darkempire(["demo", "--players", "5", "--seed", "3", "--record", "r.json"], cwd=tmp_path).returncode == 0
    commands = [["demo", "--players", "5"], ["replay", str(tmp_path / "r.json")]]
    return [(args, pty_output(args)) for args in commands]


@pytest.mark.spec("9.4")
def test_demo_and_replay_wrap_at_word_boundaries_on_a_terminal(tmp_path: Path) -> None:
    for args, screen in demo_and_replay(tmp_path):
        assert "Final judgement" in screen, args
        assert max(len(line.rstrip()) for line in screen.split("\n")) <= 80, args
        piped = darkempire(args).stdout
        assert screen.split() == piped.split(), args  # the very same words: none broken
        assert max(len(line) for line in piped.splitlines()) > 80, args  # a pipe keeps each line whole


#: What a terminal must not split: a card label, an add-on, a seat's name.
LABELS = re.compile(r'(?:[A-Z][a-z]+ )*[+-]?\d+ #\d+|add-on "[^"]*"|seat \d+')


def labels(text: str) -> list[str]:
    """Every label that one line of ``text`` holds whole, sorted."""
    return sorted(label for line in text.split("\n") for label in LABELS.findall(line))


@pytest.mark.spec("9.4")
def test_a_terminal_keeps_labels_whole_and_indents_continuations(tmp_path: Path) -> None:
    args = ["play", "--players", "5", "--seed", "3"]
    screen, answers = pty_session(args, 80, questions=30)
    assert labels(screen) == labels(darkempire(args, answers).stdout)
    for args, screen in demo_and_replay(tmp_path):
        assert labels(screen) == labels(darkempire(args).stdout), args
        week = screen[screen.index("Month 1, week 1") :]
        for line in week.split("\n"):  # the week summary's lines, continuations included, are indented
            assert not line or line.startswith(("  ", "Month", "Monthly scoring", "Final judgement", "Verdict")), line
        assert "\n    " in week  # a continuation of a two-space line is deeper


# --------------------------------------------------------------------------- 4: factions named as in the rulebook


def tampered_replay(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> str:
    """What ``replay`` says of a 5-player Dark Empire demo record after ``change`` (status 1)."""
    args = ["demo", "--players", "5", "--seed", "3", "--theme", "dark-empire", "--record", "r.json"]
    assert darkempire(args, cwd=tmp_path).returncode == 0
    document = json.loads((tmp_path / "r.json").read_text())
    change(document)
    (tmp_path / "t.json").write_text(json.dumps(document))
    replayed = darkempire(["replay", "t.json"], cwd=tmp_path)
    assert replayed.returncode == 1, replayed.stdout
    return replayed.stderr


def actions(document: dict[str, Any], kind: str, seat: int) -> list[dict[str, Any]]:
    """The actions of ``kind`` that ``seat`` chose in the record ``document``, in order."""
    return [c["action"] for c in document["choices"] if c["seat"] == seat and c["action"]["kind"] == kind]


ENUM_NAMES = re.compile(r"\b(?:WORKERS|CALENDRICAL_ORDER|SUFFRAGETTES|MECHANDROS|STUDENTS)\b")


@pytest.mark.spec("3.2")
def test_a_replay_names_the_support_card_used_again_in_the_records_theme(tmp_path: Path) -> None:
    def support_again(document: dict[str, Any]) -> None:
        first, second = actions(document, "choose-support", 0)[:2]
        second["faction"] = first["faction"]

    message = tampered_replay(tmp_path, support_again)
    assert "already used its" in message and not ENUM_NAMES.search(message), message
    assert re.search(r"its (Beggars|City Guard|Alchemists|Apparats|Students) temporary support card", message)


@pytest.mark.spec("R-E")
def test_a_replay_names_the_factions_to_place_in_the_records_theme(tmp_path: Path) -> None:
    def place_nothing(document: dict[str, Any]) -> None:
        next(c["action"] for c in document["choices"] if c["action"]["kind"] == "place-cards")["cards"] = []

    message = tampered_replay(tmp_path, place_nothing)
    assert "places exactly one card of each of:" in message and not ENUM_NAMES.search(message), message
    assert re.search(r"each of: (Beggars|City Guard|Alchemists|Apparats|Students)", message), message


@pytest.mark.spec("9.3")
def test_wire_errors_name_the_json_object_kind_not_a_python_class(tmp_path: Path) -> None:
    def discard_field(document: dict[str, Any]) -> None:
        actions(document, "reorganize", 0)[0]["discard"] = []

    assert "unknown field 'discard' in a reorganize object" in tampered_replay(tmp_path, discard_field)

    def verdict_string(document: dict[str, Any]) -> None:
        document["verdict"] = "won"

    message = tampered_replay(tmp_path, verdict_string)
    assert "expected a verdict object, got a string" in message and "(Verdict)" not in message, message


# --------------------------------------------------------------------------- 5, 6: replay's own mistakes


@pytest.mark.spec("9.3")
def test_replay_of_a_saved_game_points_to_play_resume(tmp_path: Path) -> None:
    assert darkempire(["play", "--save", "s.json"], FIRST_CHOICES[:1], cwd=tmp_path).returncode == 1
    replayed = darkempire(["replay", "s.json"], cwd=tmp_path)
    assert replayed.returncode == 1
    assert "s.json is a saved game" in replayed.stderr and "darkempire play --resume s.json" in replayed.stderr
    assert "is not a darkempire format" not in replayed.stderr


@pytest.mark.spec("9.3")
def test_replay_seat_without_week_is_a_usage_error(tmp_path: Path) -> None:
    assert darkempire(["demo", "--players", "3", "--record", "r.json"], cwd=tmp_path).returncode == 0
    replayed = darkempire(["replay", "r.json", "--seat", "1"], cwd=tmp_path)
    assert replayed.returncode == 2
    assert replayed.stderr.startswith("usage: darkempire replay")
    assert "--seat needs --week" in replayed.stderr


# --------------------------------------------------------------------------- 7: re-organize names your discards


@pytest.mark.spec("6.3")
def test_reorganize_news_names_your_own_discards_and_the_hand_is_shown_before_the_discard_question(
    tmp_path: Path,
) -> None:
    args = ["play", "--players", "5", "--seed", "3", "--seat", "1", "--record", "r.json"]
    done = darkempire(args, FIRST_CHOICES, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = read_record(tmp_path / "r.json")
    assert isinstance(record, GameRecord)
    refills = [e for e in game_events(record, 1) if isinstance(e, HandRefilled) and e.seat == 1]
    told = re.findall(r"^Re-organize: you .*?discarded (.*?) and drew", done.stdout, re.MULTILINE)
    assert told == ["none" if not e.discarded else cards_text(e.discarded, Theme.STEAM_NOIR) for e in refills]
    assert any(e.discarded for e in refills)
    # After the take-back menu, the hand is listed again, numbered, right before the discard question.
    asked = re.findall(r"take back one of your cards \(0-\d\) > .*\n(.*)\n(.*)> ", done.stdout)
    assert asked and all(hand.startswith("Your hand (") and "1) " in hand for hand, _ in asked)
    assert all(question.startswith("Discard which hand cards?") for _, question in asked)


# --------------------------------------------------------------------------- 8: no internal issue notes in the docs

ISSUE_NOTE = re.compile(r"\b[Ii]ssues? #?\d")


def docstrings(path: Path) -> list[str]:
    """The docstrings of the module at ``path``, of its classes and of its functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)))]
    return [text for node in nodes if (text := ast.get_docstring(node)) is not None]


@pytest.mark.spec("9.4")
def test_the_built_docs_hold_no_internal_issue_notes() -> None:
    pages = [p for p in (ROOT / "docs").rglob("*.md") if p.name != "changelog.md"]
    pages += (ROOT / "spec").rglob("*.md")
    found = [f"{p.relative_to(ROOT)}: {m[0]}" for p in pages for m in ISSUE_NOTE.finditer(p.read_text())]
    others = ROOT / "src" / "revolution" / "cli"  # Revolution!'s commands are another change's
    modules = [p for p in (ROOT / "src").rglob("*.py") if others not in p.parents]
    found += [f"{p.relative_to(ROOT)}: {t[:60]!r}" for p in modules for t in docstrings(p) if ISSUE_NOTE.search(t)]
    assert not found, found


# --------------------------------------------------------------------------- 9: prompt.json requires theme and labels


@pytest.mark.spec("9.4")
def test_the_prompt_schema_requires_theme_and_labels_which_the_loader_may_still_miss() -> None:
    schema = json.loads((ROOT / "src" / "darkempire" / "schemas" / "prompt.json").read_text())
    assert {"theme", "labels"} <= set(schema["required"])
    assert "always sends" in schema["description"]
    prompt = make_prompt(deal(GameConfig(players=3), 1), 0, Theme.DARK_EMPIRE)
    sent = json.loads(to_json(prompt))
    Draft202012Validator(schema).validate(sent)
    old = {k: v for k, v in sent.items() if k not in ("theme", "labels")}
    assert not Draft202012Validator(schema).is_valid(old)
    assert load_prompt(json.dumps(old)) == attrs.evolve(prompt, theme=Theme.STEAM_NOIR, labels=prompt_labels(
        prompt.view, prompt.legal_actions, Theme.STEAM_NOIR
    ))
