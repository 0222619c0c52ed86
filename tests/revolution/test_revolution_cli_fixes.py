"""The ``revolution`` command after a newcomer's review: replay errors in the game's words, the characters
shown in ``play``, help wrapped to the terminal, ``--bots`` and ``--record`` as Dark Empire's, the defaults, and
"you" agreeing with its verb."""

from __future__ import annotations

import fcntl
import importlib.metadata
import io
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs
import pytest

from darkempire.cli.app import main as darkempire_main
from revolution.cli import main
from revolution.cli.play import BID_HELP
from revolution.cli.text import event_lines
from revolution.records import load_record, save_record
from revolution.rules.actions import Action, CubeAt
from revolution.rules.data import BASE_BOARD
from revolution.rules.events import CubeReplaced, CubesSwapped, EffectDeclined, PatronageGiven, TokensRemoved
from revolution.rules.tokens import Tokens
from revolution_builders import bid
from tablekit.records import Choice


def ran(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``revolution argv``: its status, standard output and standard error."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def recorded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    """A 3-player demo's record file."""
    path = tmp_path / "game.json"
    assert ran(capsys, "demo", "--players", "3", "--record", str(path))[0] == 0
    return path


def _rewrite(path: Path, *choices: Choice[Action]) -> None:
    record = load_record(path.read_text(encoding="utf-8"))
    path.write_text(save_record(attrs.evolve(record, choices=choices)), encoding="utf-8")


# --------------------------------------------------------------------------- 1. replay in words


@pytest.mark.spec("revolution:9.4", "revolution:4.4")
def test_a_refused_choice_is_told_in_the_games_words(capsys: pytest.CaptureFixture[str], recorded: Path) -> None:
    record = load_record(recorded.read_text(encoding="utf-8"))
    forged = bid(Captain=Tokens(gold=1), General=Tokens(force=1), Priest=Tokens(blackmail=1, gold=2))
    _rewrite(recorded, Choice(0, forged), *record.choices[1:])
    status, out, err = ran(capsys, "replay", str(recorded))
    assert status == 1 and out == ""
    assert err == ("revolution: choice 0: seat 0 bids 1 Gold on the Captain, 1 Force on the General, 1 Blackmail "
                   "and 2 Gold on the Priest; the rules refuse it: the General is immune to Force (rule 4.4)\n")
    assert "Tokens(" not in err and "Bid(" not in err


@pytest.mark.spec("revolution:9.4", "revolution:4.1")
def test_two_bids_of_one_seat_in_a_round_are_the_records_fault(capsys: pytest.CaptureFixture[str],
                                                                 recorded: Path) -> None:
    record = load_record(recorded.read_text(encoding="utf-8"))
    _rewrite(recorded, record.choices[0], *record.choices)
    status, _, err = ran(capsys, "replay", str(recorded))
    assert status == 1
    assert err == "revolution: choice 1: the record has two bids of seat 0 in round 1 (rule 4.1)\n"


@pytest.mark.spec("revolution:9.4")
def test_a_seat_out_of_a_3_player_record_names_seats_0_to_2(capsys: pytest.CaptureFixture[str],
                                                              recorded: Path) -> None:
    text = recorded.read_text(encoding="utf-8").replace('"choices":[{"seat":0', '"choices":[{"seat":3', 1)
    recorded.write_text(text, encoding="utf-8")
    status, _, err = ran(capsys, "replay", str(recorded))
    assert status == 1 and err == "revolution: choices[0].seat: 3 is not from 0 to 2\n"


@pytest.mark.spec("revolution:9.4")
def test_a_record_cut_short_says_one_bid_and_replays_as_a_game_in_progress(capsys: pytest.CaptureFixture[str],
                                                                           recorded: Path) -> None:
    record = load_record(recorded.read_text(encoding="utf-8"))
    _rewrite(recorded, *record.choices[:4])
    status, out, _ = ran(capsys, "replay", str(recorded))
    assert status == 0  # as Dark Empire's replay of a record that claims no verdict
    assert out.endswith("it stops in round 2, at the bidding, 1 bid of it made, before the game is over, "
                        "as recorded.\n")


# --------------------------------------------------------------------------- 2. the characters in play


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


CHARACTER_ROWS = (
    (1, "General", "Fortress", "Force", "+1 support, 1 Force"),
    (5, "Priest", "Cathedral", "-", "+6 support"),
    (9, "Rogue", "-", "Force, Blackmail", "2 Blackmail"),
    (10, "Spy", "-", "Blackmail", "replace a cube (5.7)"),
    (12, "Mercenary", "-", "Force, Blackmail", "+3 support, 1 Force"),
)


def _rows(out: str) -> list[tuple[str, ...]]:
    """The character table's rows in ``out``: number, name, area, immunities, reward."""
    return [tuple(re.split(r"\s{2,}", line.strip())) for line in out.splitlines()
            if re.fullmatch(r"\s+\d+\s+[A-Z]\w+\s{2,}.*", line)]


@pytest.mark.spec("revolution:4.4", "revolution:5.1", "revolution:5.4", "revolution:5.5", "revolution:5.6")
@pytest.mark.parametrize("answer", ["?", "c"])
def test_play_lists_the_characters_with_their_immunities_and_rewards(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
    _stdin(monkeypatch, f"{answer}\nq\n")
    status, out, _ = ran(capsys, "play", "--players", "3")
    assert status == 0
    rows = _rows(out)
    assert [row[1] for row in rows] == [character.name for character in BASE_BOARD.characters]
    for number, name, area, immune, reward in CHARACTER_ROWS:
        assert rows[number - 1] == (str(number), name, area, immune, reward)
    assert "Your bid (?: help, c: characters): " in out


# --------------------------------------------------------------------------- 3. wrapped to the terminal


def _on_a_terminal(argv: Sequence[str], answers: Sequence[str], prompt: bytes, columns: int) -> str:
    """What ``revolution argv`` writes to a terminal (a pty) ``columns`` wide, each of ``answers`` typed once
    the output has shown ``prompt`` once more (as a person types after the prompt, not ahead of it)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    child = subprocess.Popen([sys.executable, "-m", "revolution", *argv], stdin=slave, stdout=slave, stderr=slave,
                             env=env, close_fds=True)
    os.close(slave)
    out, typed = b"", 0
    while True:
        if typed < len(answers) and out.count(prompt) > typed:
            os.write(master, answers[typed].encode() + b"\n")
            typed += 1
        ready, _, _ = select.select([master], [], [], 15)
        try:
            chunk = os.read(master, 65536) if ready else b""
        except OSError:  # the child is gone and the terminal closed (EIO)
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert child.wait(timeout=30) == 0
    return out.decode().replace("\r\n", "\n")


@pytest.mark.spec("revolution:4.2")
def test_play_wraps_its_help_to_an_80_column_terminal() -> None:
    out = _on_a_terminal(["play", "--players", "3"], ["?", "q"], b"c: characters): ", 80)
    assert "\n".join(line for line in out.splitlines() if len(line) > 80) == ""
    assert " ".join(BID_HELP.split()) in " ".join(out.split())  # every word kept, none cut in two
    assert "\n  4.2 \"A player bids all its tokens, and only its own: the tokens of its bid are\n      exactly" in out


@pytest.mark.spec("revolution:4.2")
def test_play_into_a_pipe_keeps_whole_lines(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, "?\nq\n")
    lines = ran(capsys, "play", "--players", "3")[1].splitlines()
    rule = '  4.2 "A player bids all its tokens, and only its own: the tokens of its bid are exactly those behind ' \
           'its screen."'
    assert rule in lines  # one line a paragraph, for a reader that wraps (or not) as it likes


# --------------------------------------------------------------------------- 4. play's --bots and --record


class _PrinterPlayer:
    """A person who reads each prompt (from the captured output) and bids every token on the Printer, which
    takes every kind, or picks the first choice of the Spy or the Apothecary."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self._capsys = capsys
        self.out = ""

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        self.out += self._capsys.readouterr().out
        prompt = self.out.rsplit("\n", 1)[-1]
        if prompt.startswith("Your choice"):
            return "1\n"
        held = re.match(r"You hold (.*)\. Your bid", prompt)
        assert held is not None, prompt
        return " ".join(f"{n}{kind[0]}:Printer" for n, kind in re.findall(r"(\d+) (Force|Blackmail|Gold)",
                                                                          held.group(1))) + "\n"


@pytest.mark.spec("revolution:9.1")
def test_play_bots_name_one_kind_per_other_seat_as_dark_empires(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, "q\n")
    status, _, err = ran(capsys, "play", "--players", "3", "--seat", "1", "--bots", "greedy,random")
    assert status == 0 and err == "Game abandoned: you left.\n"
    with pytest.raises(SystemExit):
        main(["play", "--players", "3", "--bots", "greedy,random,random"])
    assert "--bots: give one kind, or one for each of the 2 other seats in seat order, not 3" in \
        capsys.readouterr().err


@pytest.mark.spec("revolution:9.4")
def test_play_record_is_refused_before_the_game_if_it_cannot_be_written(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _stdin(monkeypatch, "q\n")
    status, out, err = ran(capsys, "play", "--players", "3", "--record", str(tmp_path / "no" / "game.json"))
    assert status == 1 and out == ""
    assert err.startswith("revolution: cannot write ") and "No such file or directory" in err


@pytest.mark.spec("revolution:9.4", "revolution:9.1")
def test_play_record_of_the_finished_game_replays(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    player = _PrinterPlayer(capsys)
    monkeypatch.setattr(sys, "stdin", player)
    path = tmp_path / "game.json"
    assert main(["play", "--players", "3", "--seat", "2", "--bots", "random", "--record", str(path)]) == 0
    out = player.out + capsys.readouterr().out
    assert "Final scoring:" in out and out.endswith(f"written to {path}\n")
    status, replayed, _ = ran(capsys, "replay", str(path))
    assert status == 0 and "Record verified" in replayed
    assert replayed.split("Final scoring:")[1].split("Record verified")[0] \
        == out.split("Final scoring:")[1].split("Record of")[0].replace("you:", "seat 2:").replace(" you.", " seat 2.")


@pytest.mark.spec("revolution:9.4")
def test_demo_record_is_refused_before_the_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = ran(capsys, "demo", "--players", "3", "--record", str(tmp_path / "no" / "game.json"))
    assert status == 1 and out == "" and err.startswith("revolution: cannot write ")


# --------------------------------------------------------------------------- 5. defaults and --version


@pytest.mark.spec("revolution:9.4")
def test_simulate_plays_greedy_bots_at_every_seat_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, text, _ = ran(capsys, "simulate", "--players", "3", "--games", "2", "--json")
    assert status == 0 and json.loads(text)["bots"] == ["greedy", "greedy", "greedy"]


@pytest.mark.parametrize(("command", "argv", "shown"), [
    (main, ["--version"], "revolution "),
    (darkempire_main, ["--game", "revolution", "--version"], "darkempire --game revolution "),
])
def test_the_revolution_command_says_its_version(capsys: pytest.CaptureFixture[str],
                                                 command: Callable[[list[str]], int], argv: list[str],
                                                 shown: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        command(argv)
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"{shown}{importlib.metadata.version('darkempire')}\n"


# --------------------------------------------------------------------------- 6. "you" and its verb


@pytest.mark.spec("revolution:6.1", "revolution:5.7", "revolution:5.8", "revolution:R-J")
def test_you_agrees_with_its_verb() -> None:
    tavern, market = CubeAt("Tavern", 2), CubeAt("Market", 1)
    said = [line for event in (PatronageGiven(seat=0, gold=4, short=0),
                               CubeReplaced(seat=0, character="Spy", target=tavern),
                               CubesSwapped(seat=0, character="Apothecary", first=tavern, second=market),
                               EffectDeclined(seat=0, character="Spy"),
                               TokensRemoved(seat=0, character="General", tokens=Tokens(force=1), reason="immune"))
            for line in event_lines(event, you=0)]
    assert said == ["Patronage: you take 4 Gold",
                    "    you replace seat 2's cube in the Tavern",
                    "    you swap seat 2's cube in the Tavern with seat 1's cube in the Market",
                    "    you decline the Spy's move",
                    "  your 1 Force on the General do not count (immune)"]
    assert event_lines(PatronageGiven(seat=1, gold=4, short=0), you=0) == ["Patronage: seat 1 takes 4 Gold"]


@pytest.mark.spec("revolution:4.2")
def test_a_bid_refused_for_its_tokens_is_said_to_you(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, "G:Priest\nq\n")
    out = ran(capsys, "play", "--players", "3")[1]
    assert "The rules refuse it: every token is bid: you hold 1 Force, 1 Blackmail, 3 Gold, your bid places " \
           "1 Gold (rule 4.2)\n" in out
