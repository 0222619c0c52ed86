"""Revolution! at the terminal: the ``revolution`` command (demo, play, replay, simulate), the same commands as
``darkempire --game revolution``, and the kit's shell that lets one command host several games."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tomllib
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import attrs
import pytest

import darkempire.cli.app as darkempire_app
from revolution.cli import main
from revolution.cli.play import BID_HELP, EFFECT_HELP, BidTextError, HumanSeat, PlayerLeft, parse_bid, run
from revolution.cli.options import make_bot
from revolution.records import load_record, save_record
from revolution.rules.actions import Decline, Replace
from revolution.rules.bids import Bid
from revolution.rules.data import BASE_BOARD
from revolution.rules.game import GAME
from revolution.rules.state import RevolutionConfig
from revolution.rules.tokens import Tokens
from revolution_builders import bid, holding, play, start, with_cubes
from tablekit.cli import Command, Shell
from tablekit.errors import KitError
from tablekit.records import Choice

ROOT = Path(__file__).resolve().parents[2]
G1 = Tokens(gold=1)


def ran(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``revolution argv``: its status, standard output and standard error."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str,
                command: Callable[[Sequence[str]], int] = main) -> str:
    """Standard error of a command that must exit with status 2 through argparse."""
    with pytest.raises(SystemExit) as exit_info:
        command(list(argv))
    assert exit_info.value.code == 2
    return capsys.readouterr().err


# --------------------------------------------------------------------------- demo and replay


@pytest.mark.spec("revolution:9.4", "revolution:5.1", "revolution:6.1", "revolution:7.4")
def test_demo_prints_a_whole_game_round_by_round_and_its_record_replays(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    status, out, err = ran(capsys, "demo", "--players", "3", "--seed", "2", "--record", str(path))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Revolution! - 3 players, seed 2"
    assert lines[1] == "Bots: seat 0: greedy, seat 1: greedy, seat 2: greedy"
    assert "== Round 1 ==" in lines and "Bids revealed:" in lines
    assert any(re.fullmatch(r"  General: (won by seat \d|tied by .*; nobody wins)", line) for line in lines)
    assert any(line.startswith("Patronage: seat ") for line in lines)
    assert "Every influence space is filled: the game is over." in lines and "Final scoring:" in lines
    assert re.fullmatch(r"Record of \d+ choices written to .*game\.json", lines[-1])
    assert re.fullmatch(r"(Won by seat \d\.|Shared by .*)", lines[-2])
    record = load_record(path.read_text(encoding="utf-8"))
    status, replayed, err = ran(capsys, "replay", str(path))
    assert status == 0 and err == ""
    assert replayed.splitlines()[0] == f"Replay of a 3-player game of Revolution!: {len(record.choices)} choices"
    verdict = lines[-2][:-1].lower()
    assert replayed.splitlines()[-1] == f"Record verified: every choice replays through the rules; {verdict}."
    assert replayed.splitlines()[1:-1] == lines[2:-1]  # the same game, event by event


@pytest.mark.spec("revolution:9.4", "revolution:8.1", "revolution:8.2")
def test_demo_takes_the_optional_rules_and_bots_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = ran(capsys, "demo", "--players", "4", "--bots", "greedy,random,random,greedy", "--bid-refunds",
                         "--area-control-bonus")
    assert status == 0
    assert out.splitlines()[0] == "Revolution! - 4 players, seed 1, with Bid Refunds and Area Control Bonus"
    assert "seat 1: random" in out.splitlines()[1]
    assert "refunded: seat" in out


@pytest.mark.spec("revolution:9.4", "revolution:9.2", "revolution:4.2")
def test_replay_refuses_a_record_with_a_choice_the_rules_refuse(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert ran(capsys, "demo", "--players", "3", "--record", str(path))[0] == 0
    record = load_record(path.read_text(encoding="utf-8"))
    forged = attrs.evolve(record, choices=(Choice(0, bid(Priest=Tokens(gold=9))), *record.choices[1:]))
    path.write_text(save_record(forged), encoding="utf-8")
    status, out, err = ran(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("revolution: ") and "choice 0" in err and "rule 4.2" in err


@pytest.mark.spec("revolution:9.4")
def test_replay_of_no_record_is_one_error_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_text('{"format": "revolution/1", "type": "view"}\n', encoding="utf-8")
    for path in (garbage, tmp_path / "missing.json", tmp_path):
        status, out, err = ran(capsys, "replay", str(path))
        assert status == 1 and out == "" and len(err.splitlines()) == 1 and err.startswith("revolution: ")
    assert "cannot read" in ran(capsys, "replay", str(tmp_path / "missing.json"))[2]


@pytest.mark.spec("revolution:9.4")
def test_replay_of_a_game_in_progress_says_where_it_stops(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert ran(capsys, "demo", "--players", "3", "--record", str(path))[0] == 0
    record = load_record(path.read_text(encoding="utf-8"))
    path.write_text(save_record(attrs.evolve(record, choices=record.choices[:4])), encoding="utf-8")
    status, out, _ = ran(capsys, "replay", str(path))
    assert status == 0
    assert re.search(r"it stops in round 2, at the bidding, 1 bid of it made, before the game is over, "
                     r"as recorded\.$", out)


# --------------------------------------------------------------------------- simulate


@pytest.mark.spec("revolution:9.4", "revolution:R-O")
def test_simulate_sums_up_many_seeded_games(capsys: pytest.CaptureFixture[str]) -> None:
    mixed = ("--bots", "greedy,random,random")
    status, out, _ = ran(capsys, "simulate", "--players", "3", "--games", "6", "--seed", "3", *mixed)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Revolution!: 6 games, 3 players, seed 3"
    seat = r"  seat 0 \(greedy\): +\d+\.\d% \(95% interval .* of 6\); mean final support \d+\.\d"
    assert re.fullmatch(seat, lines[2])
    assert lines[5] == "Win rate by bot kind:" and re.match(r"  random: .* of 12\)$", lines[7])
    assert lines[-1].startswith("Rounds a game lasted: ")
    status, text, _ = ran(capsys, "simulate", "--players", "3", "--games", "6", "--seed", "3", "--json", *mixed)
    summary = json.loads(text)
    assert summary["games"] == 6 and summary["bots"] == ["greedy", "random", "random"]
    assert sum(seat["wins"] for seat in summary["seats"]) >= 6  # every game has a winner, a shared win counts twice
    again = ran(capsys, "simulate", "--players", "3", "--games", "6", "--seed", "3", "--json", *mixed)[1]
    assert again == text  # seeded


@pytest.mark.spec("revolution:9.4")
@pytest.mark.parametrize(
    ("argv", "last"),
    [
        (("simulate", "--games", "0"), "revolution simulate: error: --games must be at least 1, not 0"),
        (("demo", "--bots", "clever"),
         "revolution demo: error: --bots: unknown bot kind 'clever'; choose from greedy, random"),
        (("demo", "--players", "3", "--bots", "greedy,random"),
         "revolution demo: error: --bots: give one kind, or one per seat (3), not 2"),
        (("play", "--players", "3", "--seat", "3"),
         "revolution play: error: --seat must be from 0 to 2 in a 3-player game"),
        (("demo", "--players", "5"),
         "revolution demo: error: argument --players: invalid choice: 5 (choose from 3, 4)"),
    ],
)
def test_options_that_do_not_fit_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: Sequence[str],
                                                  last: str) -> None:
    assert usage_error(capsys, *argv).splitlines()[-1] == last


# --------------------------------------------------------------------------- play


@pytest.mark.spec("revolution:4.1")
def test_a_bid_is_typed_as_placements() -> None:
    assert parse_bid("F:Priest B:gen 3G:Printer") == Bid({"Priest": Tokens(force=1), "General": Tokens(blackmail=1),
                                                           "Printer": Tokens(gold=3)})
    assert parse_bid("g:pries, G:Priest  gold:MERCENARY") == Bid({"Priest": Tokens(gold=2), "Mercenary": G1})
    assert parse_bid("") == Bid()
    for text, message in [("X:Priest", "is no placement"), ("Priest", "is no placement"),
                          ("G:Pri", "names Priest, Printer"),
                          ("G:Mayor", "names no character"), ("0G:Priest", "a count is 1 to 99")]:
        with pytest.raises(BidTextError, match=message):
            parse_bid(text, BASE_BOARD)
    assert issubclass(BidTextError, KitError)


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


@pytest.mark.spec("revolution:9.2", "revolution:4.4", "revolution:4.3")
def test_play_explains_a_refused_bid_with_its_rule_and_asks_again(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, "F:General B:Priest 3G:Printer\n?\nG:Pri\nt\nq\n")
    status, out, err = ran(capsys, "play", "--players", "3")
    assert status == 0 and err == "Game abandoned: you left.\n"
    refused = "The rules refuse it: the General is immune to Force (rule 4.4)"
    assert f"Your bid (?: help, c: characters): F:General B:Priest 3G:Printer\n{refused}" in out
    assert BID_HELP in out and '4.3 "A bid places tokens on at most six characters."' in BID_HELP
    assert "Not a bid: 'Pri' names Priest, Printer" in out
    assert out.count("Round 1, bidding") == 2  # the table before the bid, and again for "t"
    assert out.startswith("Revolution! - 3 players, seed 1; you are seat 0\n")


@pytest.mark.spec("revolution:9.1")
def test_play_abandoned_at_the_end_of_input_exits_1(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, "")
    status, _, err = ran(capsys, "play", "--players", "4", "--seat", "2")
    assert status == 1 and err == "Game abandoned: end of input.\n"


class _Answers:
    """A player who reads the prompts: every token on the Printer (which takes every kind), the first choice of
    the Spy or the Apothecary; it notes the prompts it answered."""

    def __init__(self, out: io.StringIO) -> None:
        self._out = out
        self.prompts: list[str] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        prompt = self._out.getvalue().rsplit("\n", 1)[-1]
        self.prompts.append(prompt)
        if prompt.startswith("Your choice"):
            return "1\n"
        held = re.match(r"You hold (.*)\. Your bid", prompt)
        assert held is not None, prompt
        counts = {kind: int(n) for n, kind in re.findall(r"(\d+) (Force|Blackmail|Gold)", held.group(1))}
        return " ".join(f"{n}{kind[0]}:Printer" for kind, n in counts.items()) + "\n"


@pytest.mark.spec("revolution:9.1", "revolution:9.3", "revolution:7.4")
def test_a_person_plays_a_whole_game_against_bots() -> None:
    out = io.StringIO()
    answers = _Answers(out)
    config = RevolutionConfig(players=3)
    assert run(out, answers, config, 4, 1, [make_bot("greedy", 40 + seat) for seat in range(3)]) == 0
    text = out.getvalue()
    assert "Revolution! - 3 players, seed 4; you are seat 1" in text and "Final scoring:" in text
    assert "  you: " in text and "won by you" in text  # the Printer, at least once
    assert len([p for p in answers.prompts if "Your bid" in p]) == text.count("Bids revealed:")


@pytest.mark.spec("revolution:5.7", "revolution:R-J", "revolution:9.3")
def test_the_spys_winner_chooses_by_number() -> None:
    state = with_cubes(holding(start(3), [G1] * 3), {"Cathedral": (1, 2, 1)})
    choosing, _ = play(state, {0: bid(Spy=G1), 1: bid(Printer=G1), 2: bid(Printer=G1)})
    legal = GAME.legal_actions(choosing, 0)
    out = io.StringIO()
    seat = HumanSeat(out, io.StringIO("?\n9\nnone\n2\n"), BASE_BOARD)
    assert seat.choose(GAME.view(choosing, 0), legal) == legal[1] and isinstance(legal[1], Replace)
    text = out.getvalue()
    first = "  1. replace seat 1's cube in the Cathedral with one of your cubes"
    assert f"You won the Spy. Your choices:\n{first}\n" in text
    assert f"  {len(legal)}. decline: leave the board as it is\n" in text and legal[-1] == Decline()
    assert EFFECT_HELP in text and text.count(f"Type a number from 1 to {len(legal)}.") == 2
    with pytest.raises(PlayerLeft) as left:
        HumanSeat(io.StringIO(), io.StringIO("quit\n"), BASE_BOARD).choose(GAME.view(choosing, 0), legal)
    assert left.value.chosen


# --------------------------------------------------------------------------- the game chosen


@pytest.mark.spec("revolution:9.4")
def test_darkempire_runs_revolution_with_the_game_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert darkempire_app.main(["--game", "revolution", "demo", "--players", "3", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Revolution! - 3 players, seed 1\n")
    assert main(["demo", "--players", "3"]) == 0
    assert capsys.readouterr().out in out  # the same game, but for the line of the record
    assert darkempire_app.main(["--game=revolution", "replay", str(path)]) == 0
    assert "Record verified" in capsys.readouterr().out
    assert darkempire_app.main(["replay", str(path)]) == 0  # the record's format names the game
    assert capsys.readouterr().out.startswith("Replay of a 3-player game of Revolution!")
    err = usage_error(capsys, "--game", "revolution", "demo", "--players", "5", command=darkempire_app.main)
    assert err.startswith("usage: darkempire --game revolution demo ")
    err = usage_error(capsys, "--game", "chess", "demo", command=darkempire_app.main)
    assert "argument --game: invalid choice: 'chess' (choose from 'dark-empire', 'revolution')" in err
    assert darkempire_app.main(["--game", "revolution", "replay", str(tmp_path / "none.json")]) == 1
    assert capsys.readouterr().err.startswith("darkempire --game revolution: cannot read ")


@pytest.mark.spec("revolution:9.4")
def test_darkempire_plays_its_own_game_without_or_with_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert darkempire_app.main(["--game", "dark-empire", "demo", "--players", "3"]) == 0
    own = capsys.readouterr().out
    assert own.startswith("Dark Empire: Revolution - 3 players")
    assert darkempire_app.main(["demo", "--players", "3"]) == 0 and capsys.readouterr().out == own
    with pytest.raises(SystemExit):
        darkempire_app.main(["--help"])
    assert "--game {dark-empire,revolution}" in capsys.readouterr().out


def test_python_m_revolution_and_the_console_script_run_the_command(tmp_path: Path) -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, name = scripts["revolution"].partition(":")
    assert getattr(__import__(module, fromlist=[name]), name) is main
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "revolution", "simulate", "--players", "3", "--games", "2"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.startswith("Revolution!: 2 games, 3 players, seed 1\n"), done.stderr


# --------------------------------------------------------------------------- the kit's shell hosting games


def _toy(name: str, said: list[str]) -> Shell[TextIO]:
    def hello(args: object, out: TextIO) -> int:
        said.append(name)
        print(f"{name} says hello", file=out)
        return 0

    command = Command("hello", "say hello", hello, lambda parser: parser.add_argument("word", nargs="?"))
    return Shell(name, f"The {name} game.", [command], lambda stream: stream, game=name,
                 recognizes=lambda argv: list(argv) == ["hello", name])


def test_a_shell_hosts_other_games_shells(capsys: pytest.CaptureFixture[str]) -> None:
    said: list[str] = []
    host = attrs.evolve(_toy("chess", said), hosted={"go": _toy("go", said), "shogi": _toy("shogi", said)})
    assert host.main(["hello"]) == 0 and host.main(["--game", "go", "hello"]) == 0
    assert host.main(["--game=shogi", "hello"]) == 0 and host.main(["--game", "chess", "hello"]) == 0
    assert host.main(["hello", "go"]) == 0  # go recognizes these arguments
    assert said == ["chess", "go", "shogi", "chess", "go"]
    capsys.readouterr()
    with pytest.raises(SystemExit):
        host.main(["--game", "go"])
    assert capsys.readouterr().err.startswith("usage: chess --game go [-h] {hello} ...")
    with pytest.raises(SystemExit):
        host.main(["--game", "checkers", "hello"])
    assert "invalid choice: 'checkers'" in capsys.readouterr().err
    with pytest.raises(KitError, match="needs a game name of its own"):
        Shell("host", "", [Command("x", "x", lambda a, o: 0)], lambda s: s, hosted={"go": _toy("go", said)})
    assert isinstance(host.hosted, types.MappingProxyType) and sorted(host.hosted) == ["go", "shogi"]
