"""``darkempire play`` for a newcomer (issue 19, points 1-4), tried as a person meets it: the command in a
subprocess with its output 80 columns wide, or on a pseudo-terminal of 80 or 40 columns.

1. it tells the cards received at the draft and drawn at every re-organize;
2. ``?`` gives a help screen of the rules that matter at the question, with real rule numbers, and the
   hand sizes and piles are shown;
3. on a terminal, text wraps at word boundaries to its width (a card's ``#21`` never splits);
4. ``--bots``, ``--record``, saving (``s``, ``--save``) and ``--resume``, the resumed game being the
   uninterrupted one.
"""

from __future__ import annotations

import fcntl
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
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console

from darkempire.bots import Bot, iter_game, make_bot
from darkempire.cli import HumanSeat
from darkempire.cli.record_files import read_record
from darkempire.history import History
from darkempire.records import GameRecord, replay_record
from darkempire.rules.actions import Action, ChooseSupport
from darkempire.rules.cards import Faction, Theme, faction_name
from darkempire.rules.engine import legal_actions
from darkempire.rules.events import CardsPassed, HandRefilled, events_for
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import PlayerView, player_view
from darkempire.text import cards_text

ROOT = Path(__file__).resolve().parents[1]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
#: Answers that are valid at every question: cards 1 and 2 at the draft, then option 1, take back card 1,
#: discard hand card 1.
FIRST_CHOICES = ("1 2", "1 2", *["1"] * 400)


def env(columns: int = 80) -> dict[str, str]:
    """The environment of a ``darkempire`` subprocess: this tree's sources, ``columns`` wide."""
    out = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    out.update(PYTHONPATH=str(ROOT / "src"), COLUMNS=str(columns), LINES="24", TERM="xterm-256color")
    return out


def darkempire(
    args: Sequence[str], answers: Sequence[str] = (), cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``darkempire args`` with ``answers`` piped to it, one a line, 80 columns wide."""
    return subprocess.run(
        [sys.executable, "-m", "darkempire", *args],
        input="".join(a + "\n" for a in answers),
        capture_output=True,
        text=True,
        env=env(),
        cwd=cwd,
        timeout=120,
    )


def game_events(record: GameRecord, seat: int) -> list[object]:
    """The events of the recorded game as ``seat`` saw them, from the engine (no text involved)."""
    replayed = replay_record(record)
    return list(events_for(History(replayed.states, record.choices).events(), seat))


# --------------------------------------------------------------------------- point 1: the cards you get


@pytest.mark.spec("2.5", "6.4", "9.4")
@pytest.mark.parametrize(("players", "seat", "seed"), [(3, 0, 5), (4, 2, 11), (5, 4, 2)])
def test_play_tells_the_cards_received_at_the_draft_and_drawn_at_every_refill(
    tmp_path: Path, players: int, seat: int, seed: int
) -> None:
    record_file = tmp_path / "game.json"
    args = ["play", "--players", str(players), "--seed", str(seed), "--seat", str(seat), "--record", str(record_file)]
    done = darkempire(args, FIRST_CHOICES)
    assert done.returncode == 0, done.stderr
    record = read_record(record_file)
    assert isinstance(record, GameRecord)
    events = game_events(record, seat)
    theme = Theme.STEAM_NOIR

    (passed,) = [e for e in events if isinstance(e, CardsPassed) and e.to_seat == seat]
    assert passed.cards is not None
    received = re.findall(r"^Draft: you received (.*) from seat (\d) \(rule 2\.5\)\.$", done.stdout, re.MULTILINE)
    assert received == [(cards_text(passed.cards, theme), str((seat - 1) % players))]

    # Every re-organize (11: all weeks but the last), in order, with the very cards the engine dealt.
    refills = [e for e in events if isinstance(e, HandRefilled) and e.seat == seat]
    assert len(refills) == 11
    told = r"^Re-organize: .*discarded (.*?) and drew (.*) \(rule 6\.4"
    drawn = re.findall(told, done.stdout, re.MULTILINE)
    assert [d for _, d in drawn] == [cards_text(e.drawn, theme) for e in refills]
    assert [c for c, _ in drawn] == [
        "none" if not e.discarded else cards_text(e.discarded, theme) for e in refills
    ]
    # Each is told at the seat's next question, under its header, before the hand that now holds them.
    for chunk in re.split(r"(?m)^(?=-- )", done.stdout)[1:]:
        news = re.search(r"^(?:Draft: you received|Re-organize: .*drew) (.*?)(?: from seat \d)? \(rule", chunk, re.M)
        if news:
            hand = re.search(r"^Your hand \(\d+ cards\): (.*)$", chunk, re.MULTILINE)
            assert hand is not None
            assert set(re.findall(r"#\d+", news[1])) <= set(re.findall(r"#\d+", hand[1]))


# --------------------------------------------------------------------------- point 2: help and counts


def rule_ids() -> set[str]:
    rules = (ROOT / "spec" / "darkempire" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^### (\d\.\d) ", rules, re.MULTILINE))


def cited(text: str) -> set[str]:
    """The rule numbers cited as "rule 2.5" or "rules 4.3, 4.4" or "rules 6.1-6.4"."""
    found: set[str] = set()
    for group in re.findall(r"rules? (\d\.\d(?:(?:, |-)\d\.\d)*)", text):
        for part in group.split(", "):
            ends = part.split("-")
            if len(ends) == 2:
                major, low, high = ends[0][0], int(ends[0][2]), int(ends[1][2])
                found |= {f"{major}.{n}" for n in range(low, high + 1)}
            else:
                found.add(part)
    return found


@pytest.mark.spec("1.3", "2.2", "3.2", "4.3", "9.4")
def test_question_mark_shows_the_rules_of_the_question_with_real_rule_numbers() -> None:
    answers = ["?", "1 2", "help", "1 2", "?", "1", "h", "q"]
    done = darkempire(["play", "--players", "4", "--seed", "3"], answers)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Please answer with numbers" not in out  # "?" is no bad answer
    helps = re.split(r"(?m)^(?=Help \()", out)[1:]
    phases = ["draft pass", "draft discard", "choose support", "play 1"]
    assert [h.split(";")[0] for h in helps] == [f"Help ({p}" for p in phases]
    for screen in helps:
        assert "Your victor card is " in screen and "secret faction you want to win with (rules 1.5, 2.3)" in screen
        assert "reveals every hand and victor card" in screen  # a saved file holds the seed: said honestly
    draft, discard, support, play = helps
    assert "rule 2.5" in draft and "seat 1, your left neighbour" in draft and "seat 3 passes" in draft
    assert "rule 2.6" in discard
    assert "Temporary support card (rule 3.2)" in support and "share 6 points" in support
    assert "removed from the game (rules 3.2, 7.3)" in support and "only once per game" in support
    assert "Traitor card (rules 4.3, 4.4)" in play
    assert "lowers its faction's strength by its value and raises the emperor's strength" in play
    assert 'The add-on "5 +" (rules 1.3, 2.2)' in play and "adds 5 to the emperor's strength" in play
    assert 'Reinforcement card "+3" (rule 4.6)' in play
    numbers = cited("".join(helps))
    assert numbers >= {"1.3", "1.5", "2.2", "2.3", "2.5", "2.6", "3.2", "4.3", "4.4", "4.5", "4.6", "7.2", "8.2"}
    assert numbers <= rule_ids(), sorted(numbers - rule_ids())
    assert "ruling F" in play and "(rule-" not in out
    rulings = (ROOT / "spec" / "darkempire" / "rulings.md").read_text(encoding="utf-8")
    assert re.search(r"^#+ R-F\b", rulings, re.MULTILINE)
    # Hand sizes and piles at every question: 9 cards each and 75 - 36 = 39 in the draw pile after the deal.
    assert "Hand sizes: seat 0 (you) 9, seat 1 9, seat 2 9, seat 3 9; draw pile 39 cards, discard pile 0" in out
    assert "Hand sizes: seat 0 (you) 7, seat 1 7, seat 2 7, seat 3 7; draw pile 39 cards, discard pile 8" in out


@pytest.mark.spec("3.2", "7.3")
def test_help_at_a_later_month_names_the_support_factions_already_used() -> None:
    state = first_state(GameConfig(players=3), 4, lambda s: s.phase is Phase.CHOOSE_SUPPORT and s.month == 2)
    used = state.support_used[0]
    assert len(used) == 1
    printed = io.StringIO()
    console = Console(file=printed, width=80, soft_wrap=True, highlight=False)
    seat = HumanSeat(console, io.StringIO("?\n1\n"), Theme.STEAM_NOIR, 0)
    chosen = seat.choose(player_view(state, 0), legal_actions(state, 0))
    out = printed.getvalue()
    (gone,) = used
    name = faction_name(gone, Theme.STEAM_NOIR)
    assert f"Your support cards used in earlier months, gone from your choices: {name}." in out
    menu = re.findall(r"^  \d\) (.*)$", out, re.MULTILINE)
    assert name not in menu and len(menu) == 4
    assert isinstance(chosen, ChooseSupport) and chosen.faction is not gone


def first_state(config: GameConfig, seed: int, wanted: Callable[[GameState], bool]) -> GameState:
    """The first state of a greedy bots' game for which ``wanted`` holds."""
    bots = [make_bot("greedy", s) for s in range(config.players)]
    for turn in iter_game(config, seed, bots):
        if wanted(turn.after):
            return turn.after
    raise AssertionError("the game never got there")


# --------------------------------------------------------------------------- point 3: wrapping


def answer_for(screen: str) -> str:
    """The answer of :data:`FIRST_CHOICES` to the question at the end of ``screen``, however it is wrapped."""
    return "1 2" if "two card numbers" in " ".join(screen.split()[-12:]) else "1"


def pty_session(args: Sequence[str], columns: int, questions: int) -> tuple[str, list[str]]:
    """Run ``darkempire args`` on a pseudo-terminal ``columns`` wide; answer ``?`` at the first question, then
    :func:`answer_for` each question, ``q`` after ``questions``. The terminal echoes the answers, as for a person.

    :returns: what the terminal received, colour codes removed, and the answers given.
    """
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "darkempire", *args],
        stdin=slave, stdout=slave, stderr=slave, env=env(columns), close_fds=True,
    )  # fmt: skip
    os.close(slave)
    received, answers = b"", list[str]()
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the command ended and closed the terminal
                    break
                if not chunk:
                    break
                received += chunk
                continue
            text = ESCAPES.sub("", received.decode("utf-8", "replace"))
            if text.rstrip(" ").endswith(">") and process.poll() is None:
                answer = "?" if not answers else "q" if len(answers) > questions else answer_for(text)
                answers.append(answer)
                os.write(master, (answer + "\n").encode())
                received += b"\x00"  # this prompt is answered: wait for the next one
        process.wait(timeout=30)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
    text = ESCAPES.sub("", received.replace(b"\x00", b"").decode("utf-8", "replace"))
    return text.replace("\r\n", "\n"), answers


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("columns", [80, 40])
def test_on_a_terminal_lines_wrap_at_word_boundaries_to_its_width(columns: int) -> None:
    args = ["play", "--players", "4", "--seed", "3"]
    screen, answers = pty_session(args, columns, questions=20)
    assert answers[0] == "?" and answers[-1] == "q" and len(answers) == 22
    assert "Help (draft pass" in screen and "Re-organize:" in screen  # the help and a week were shown
    for line in screen.split("\n"):
        shown = line.rstrip()
        for answer in answers:  # the terminal's echo of an answer follows a full-width prompt line
            if shown.endswith("> " + answer):
                shown = shown[: -len(answer)].rstrip()
        assert len(shown) <= columns, line
    # The same game through a pipe prints each line whole; the terminal's words are the very same words, so no
    # word (no "#21") was broken: a break inside one would leave two pieces that the pipe never shows.
    piped = darkempire(args, answers)
    assert screen.split() == (piped.stdout + piped.stderr).split()
    assert max(len(line) for line in piped.stdout.splitlines()) > 80  # the pipe's lines are whole


# --------------------------------------------------------------------------- point 4: bots, record, save


class Answers:
    """A person's seat that gives recorded actions, in order (to re-run a recorded game with other bots)."""

    def __init__(self, actions: Sequence[Action]) -> None:
        self._actions = list(actions)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return self._actions.pop(0)


def rerun(record: GameRecord, seat: int, kinds: Sequence[str | None]) -> list[tuple[int, Action]]:
    """The choices of the recorded game played again: the person's recorded answers, bots of ``kinds`` seeded
    ``10 * seed + s`` at the other seats."""
    mine = Answers([c.action for c in record.choices if c.seat == seat])
    bots: list[Bot] = [mine if k is None else make_bot(k, 10 * record.seed + s) for s, k in enumerate(kinds)]
    return [(t.seat, t.action) for t in iter_game(record.config, record.seed, bots)]


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    ("bots", "kinds"),
    [("random", (None, "random", "random")), ("random,greedy", (None, "random", "greedy")),
     ("ismcts,greedy", (None, "ismcts", "greedy"))],  # fmt: skip
)
def test_bots_names_the_other_seats_kinds_and_record_writes_the_game(
    tmp_path: Path, bots: str, kinds: tuple[str | None, ...]
) -> None:
    record_file = tmp_path / "game.json"
    args = ["play", "--players", "3", "--seed", "6", "--bots", bots, "--record", str(record_file)]
    done = darkempire(args, FIRST_CHOICES)
    assert done.returncode == 0, done.stderr
    names = ", ".join(f"seat {s} {k}" for s, k in enumerate(kinds) if k is not None)
    assert f"the other seats are bots: {names}." in done.stdout
    assert f"written to {record_file}" in done.stdout
    record = read_record(record_file)
    assert isinstance(record, GameRecord)
    assert record.verdict is not None and record.digests  # the same record demo --record writes: it replays
    replay_record(record)
    assert rerun(record, 0, kinds) == list(record.pairs())
    replayed = subprocess.run(
        [sys.executable, "-m", "darkempire", "replay", str(record_file)], capture_output=True, text=True, env=env()
    )
    assert replayed.returncode == 0 and "Verdict reproduced" in replayed.stdout


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--record", "/nonexistent-dir/game.json"], 1, "cannot write /nonexistent-dir/game.json"),
        (["--save", "/nonexistent-dir/save.json"], 1, "cannot write /nonexistent-dir/save.json"),
        (["--bots", "clever"], 2, "--bots: unknown bot kind 'clever'"),
        (["--bots", "greedy,random,random"], 2, "one for each of the 2 other seats"),
    ],
)
def test_play_refuses_bad_options_before_the_game(args: list[str], status: int, message: str) -> None:
    done = darkempire(["play", "--players", "3", *args], FIRST_CHOICES)
    assert done.returncode == status
    assert message in done.stderr
    assert "-- draft pass" not in done.stdout and "Traceback" not in done.stderr


@pytest.mark.spec("9.3")
def test_a_saved_game_resumes_exactly_as_the_uninterrupted_game(tmp_path: Path) -> None:
    args = ["play", "--players", "4", "--seed", "9", "--seat", "1", "--bots", "random"]
    whole = darkempire([*args, "--record", str(tmp_path / "whole.json")], FIRST_CHOICES)
    assert whole.returncode == 0, whole.stderr
    # Leave after the first support choice and two plays, saving with s; bots play random, so their
    # generators must go on where they were for the rest to be the same game.
    left = darkempire(args, ["1 2", "1 2", "1", "1", "1", "s", "q"], cwd=tmp_path)
    assert left.returncode == 0, left.stderr
    told = "Game saved to darkempire-save.json. To go on later: darkempire play --resume darkempire-save.json"
    assert told in left.stdout
    saved = json.loads((tmp_path / "darkempire-save.json").read_text(encoding="utf-8"))
    assert saved["seat"] == 1 and saved["bots"] == ["random", None, "random", "random"]
    resumed = darkempire(
        ["play", "--resume", "darkempire-save.json", "--record", "resumed.json"], FIRST_CHOICES[5:], cwd=tmp_path
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming a saved game" in resumed.stdout
    whole_record, resumed_record = read_record(tmp_path / "whole.json"), read_record(tmp_path / "resumed.json")
    assert resumed_record == whole_record
    # The transcript's end is the same too: the verdict, word for word.
    def verdict(out: str) -> str:
        return out[out.index("Final judgement") : out.index("Record of")]

    assert verdict(resumed.stdout) == verdict(whole.stdout)


@pytest.mark.spec("9.3")
def test_save_option_saves_at_every_question_and_resume_goes_on_after_the_end_of_input(tmp_path: Path) -> None:
    save = tmp_path / "auto.json"
    args = ["play", "--players", "3", "--seed", "2", "--bots", "random,greedy"]
    whole = darkempire([*args, "--record", str(tmp_path / "whole.json")], FIRST_CHOICES)
    cut = darkempire([*args, "--save", str(save)], FIRST_CHOICES[:9])  # input ends: the game is abandoned
    assert cut.returncode == 1 and "Game abandoned: end of input." in cut.stderr
    resumed = darkempire(["play", "--resume", str(save), "--record", str(tmp_path / "resumed.json")], FIRST_CHOICES[9:])
    assert resumed.returncode == 0, resumed.stderr
    assert read_record(tmp_path / "resumed.json") == read_record(tmp_path / "whole.json")
    assert whole.returncode == 0


@pytest.mark.parametrize(
    ("change", "args", "status", "message"),
    [
        (None, ["--seed", "3"], 2, "--seed differs from the saved game's (2)"),
        (None, ["--bots", "greedy"], 2, "--bots differs from the saved game's"),
        (lambda d: d.update(seat=7), [], 1, "field 'seat' must be a seat from 0 to 2"),
        (lambda d: d.update(bots=["random", "random", None]), [], 1, "field 'bots[0]' must be null (your seat)"),
        (lambda d: d.pop("record"), [], 1, "field 'record' is missing"),
        (lambda d: d["record"]["choices"][3]["action"].update(cards=[0, 1]), [], 1, "save.json: choice 3 (seat 0"),
    ],
)
def test_resume_refuses_a_save_that_does_not_fit(
    tmp_path: Path, change: Callable[[dict[str, object]], object] | None, args: list[str], status: int, message: str
) -> None:
    save = tmp_path / "save.json"
    start = ["play", "--players", "3", "--seed", "2", "--bots", "random", "--save", str(save)]
    left = darkempire(start, ["1 2", "1 2", "1", "q"])
    assert left.returncode == 0
    if change is not None:
        document = json.loads(save.read_text(encoding="utf-8"))
        change(document)
        save.write_text(json.dumps(document), encoding="utf-8")
    done = darkempire(["play", "--resume", str(save), *args], FIRST_CHOICES)
    assert done.returncode == status, done.stdout
    assert message in done.stderr and "Traceback" not in done.stderr
    assert "-- " not in done.stdout
