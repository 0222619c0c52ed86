"""The ``darkempire`` command: ``demo`` prints a whole bot game that agrees with the engine, and
``play`` lets a person play one seat through standard input while showing only that seat's view."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Sequence

import pytest
from rich.console import Console

import darkempire.bots
from darkempire.rules import engine
from darkempire.rules.actions import Action, PlayCard, PlayNothing, Reinforce
from darkempire.bots import make_bot, run_game
from darkempire.rules.cards import Faction, Theme, faction_name
from darkempire.cli import HumanSeat, main
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import PlayerView, player_view

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CARD_ID = re.compile(r"#(\d+)")
STEAM_NOIR_ONLY = ("Workers", "Calendrical Order", "Suffragettes", "Mechandros")
DARK_EMPIRE_ONLY = ("Beggars", "City Guard", "Alchemists", "Apparats")
REASON_WORDS = {"emperor victory", "revolution", "leader too powerful"}


def plain(text: str) -> str:
    """The text without colour codes, in case the environment forces colour."""
    return ANSI.sub("", text)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, plain(captured.out), plain(captured.err)


def week_headers(out: str) -> list[tuple[str, str]]:
    return [(m[1], m[2]) for m in re.finditer(r"^Month (\d), week (\d)$", out, flags=re.MULTILINE)]


def parse_verdict(out: str, theme: Theme) -> dict[str, object]:
    """The final judgement's lines, parsed back into engine values."""
    names = {faction_name(f, theme): f for f in Faction}
    final = out[out.index("Final judgement") :]
    victors_line = re.search(r"Victor cards revealed: (.*)", final)
    totals_line = re.search(r"Faction totals: (.*)", final)
    emperor_line = re.search(r"Emperor total: (\d+)", final)
    reason_line = re.search(r"Reason: ([a-z ]+):", final)
    winners_line = re.search(r"Winners?(?: \(shared\))?: (.*)", final)
    assert victors_line and totals_line and emperor_line and reason_line and winners_line
    victors = [names[name] for _, name in re.findall(r"seat (\d+)(?: \(you\))?: ([A-Za-z ]+?)(?:,|$)", victors_line[1])]
    totals = [0] * 5
    cards = [0] * 5
    for name, total, card_only in re.findall(r"([A-Za-z ]+?) (-?\d+) \(cards only (-?\d+)\)(?:, |$)", totals_line[1]):
        totals[names[name.strip()]] = int(total)
        cards[names[name.strip()]] = int(card_only)
    return {
        "victors": victors,
        "totals": totals,
        "cards": cards,
        "emperor": int(emperor_line[1]),
        "reason": reason_line[1],
        "winners": {int(s) for s in re.findall(r"seat (\d+)", winners_line[1])},
    }


def check_verdict_against_engine(out: str, theme: Theme, players: int) -> dict[str, object]:
    """The printed judgement is the engine's judgement of the printed totals (rule 8, ruling M)."""
    parsed = parse_verdict(out, theme)
    victors = parsed["victors"]
    totals = parsed["totals"]
    cards = parsed["cards"]
    assert isinstance(victors, list) and isinstance(totals, list) and isinstance(cards, list)
    assert len(victors) == players
    banked = [totals[f] - cards[f] for f in victors]
    emperor = parsed["emperor"]
    assert isinstance(emperor, int)
    verdict = engine.judge_winner(card_points=cards, emperor_total=emperor, banked_tokens=banked, victors=victors)
    assert parsed["reason"] == verdict.reason.value
    assert parsed["winners"] == set(verdict.winners)
    return parsed


# --------------------------------------------------------------------------- demo


@pytest.mark.spec("8.1", "8.2", "8.3", "8.4", "9.3")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_demo_prints_every_week_every_month_and_the_engines_verdict(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    code, out, err = run(capsys, "demo", "--players", str(players), "--seed", "3")
    assert code == 0 and err == ""
    assert week_headers(out) == [(str(m), str(w)) for m in (1, 2, 3) for w in (1, 2, 3, 4)]
    # Each monthly scoring follows its month's fourth week and precedes the next month.
    for month in (1, 2, 3):
        at = out.index(f"Monthly scoring, month {month}")
        assert out.index(f"Month {month}, week 4") < at
        if month < 3:
            assert at < out.index(f"Month {month + 1}, week 1")
    assert out.index("Monthly scoring, month 3") < out.index("Final judgement")
    for phrase in ("Revealed: revolution card", "Step 1", "Step 2", "Step 3", "Strengths:", "Tokens:",
                   "Score track:", "Support cards revealed:", "Month totals:", "Emperor total:"):
        assert phrase in out
    parsed = check_verdict_against_engine(out, Theme.STEAM_NOIR, players)
    # The log is the game the bots really play: seat s's bot is seeded 10 * seed + s.
    final = run_game(GameConfig(players=players), 3, [make_bot("greedy", 30 + s) for s in range(players)])
    assert final.verdict is not None
    assert parsed["winners"] == set(final.verdict.winners)
    assert parsed["emperor"] == final.score_track.emperor_total
    assert out.count(" places ") == len(final.score_track.faction_cards)
    assert out.count("the emperor card") == len(final.score_track.emperor_cards)


@pytest.mark.spec("9.3")
def test_demo_is_deterministic_and_the_seed_matters(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "demo", "--seed", "11")
    again = run(capsys, "demo", "--seed", "11")
    other = run(capsys, "demo", "--seed", "12")
    assert first == again
    assert first[1] != other[1]


@pytest.mark.spec("1.1")
def test_demo_uses_the_themes_faction_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--players", "5", "--seed", "2", "--theme", "dark-empire")
    assert code == 0
    assert all(name in out for name in DARK_EMPIRE_ONLY)
    assert not any(name in out for name in STEAM_NOIR_ONLY)
    check_verdict_against_engine(out, Theme.DARK_EMPIRE, 5)
    code, out, _ = run(capsys, "demo", "--players", "5", "--seed", "2")
    assert all(name in out for name in STEAM_NOIR_ONLY)
    assert not any(name in out for name in DARK_EMPIRE_ONLY)


@pytest.mark.spec("8.1")
def test_demo_takes_a_bot_kind_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--players", "3", "--seed", "4", "--bots", "random,greedy,random")
    assert code == 0
    assert "Bots: seat 0: random, seat 1: greedy, seat 2: random" in out
    parsed = check_verdict_against_engine(out, Theme.STEAM_NOIR, 3)
    bots = [make_bot("random", 40), make_bot("greedy", 41), make_bot("random", 42)]
    final = run_game(GameConfig(players=3), 4, bots)
    assert final.verdict is not None and parsed["winners"] == set(final.verdict.winners)


@pytest.mark.spec("2.1")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "required"),
        (["demo", "--players", "6"], "invalid choice"),
        (["demo", "--players", "two"], "invalid int value"),
        (["demo", "--seed", "x"], "invalid int value"),
        (["demo", "--theme", "noir"], "invalid choice"),
        (["demo", "--bots", "greedy,clever"], "unknown bot kind 'clever'"),
        (["demo", "--players", "4", "--bots", "greedy,random"], "one per seat (4), not 2"),
        (["play", "--players", "3", "--seat", "3"], "--seat must be from 0 to 2"),
        (["play", "--seat", "-1"], "--seat must be from 0 to 3"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_with_status_2_and_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = plain(capsys.readouterr().err)
    assert message in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- play


class ScriptedStdin:
    """Standard input that answers each prompt by reading it from the captured output.

    It answers the first option everywhere: cards 1 and 2 at the draft, option 1 of a menu,
    take back the first card, and discard the first hand card at re-organize.
    """

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self._capsys = capsys
        self.transcript: list[str] = []
        self.prompts: list[str] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        out = plain(self._capsys.readouterr().out)
        self.transcript.append(out)
        prompt = out.rsplit("\n", 1)[-1]
        self.prompts.append(prompt)
        if "two card numbers" in prompt:
            return "1 2\n"
        return "1\n"

    def output(self) -> str:
        self.transcript.append(plain(self._capsys.readouterr().out))
        return "".join(self.transcript)


def public_ids(state: GameState) -> set[int]:
    """Ids of every hand card that has been face up on the table or the score track."""
    seen = {c.id for record in state.history for c in record.table.cards()}
    if state.table is not None:
        seen |= {c.id for c in state.table.cards()}
    seen |= {s.card.id for s in state.score_track.faction_cards}
    return seen


@pytest.mark.spec("9.2", "9.4")
@pytest.mark.parametrize(("players", "seat", "theme"), [(3, 1, Theme.STEAM_NOIR), (5, 4, Theme.DARK_EMPIRE)])
def test_play_completes_a_game_from_stdin_and_shows_only_the_seats_own_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, players: int, seat: int, theme: Theme
) -> None:
    asked: list[GameState] = []
    applied: list[GameState] = []
    real_view: Callable[..., PlayerView] = player_view
    real_apply: Callable[[GameState, int, Action], GameState] = engine.apply

    def spy_view(state: GameState, who: int, **options: object) -> PlayerView:
        if who == seat:
            asked.append(state)
        return real_view(state, who, **options)  # the driver passes the awaited seats it counted

    def spy_apply(state: GameState, who: int, action: Action) -> GameState:
        applied.append(real_apply(state, who, action))
        return applied[-1]

    monkeypatch.setattr(darkempire.bots, "player_view", spy_view)
    monkeypatch.setattr(darkempire.bots, "apply", spy_apply)
    stdin = ScriptedStdin(capsys)
    monkeypatch.setattr("sys.stdin", stdin)
    code = main(["play", "--players", str(players), "--seed", "8", "--seat", str(seat), "--theme", theme.value])
    out = stdin.output()
    assert code == 0
    assert "Traceback" not in out
    final = applied[-1]
    assert final.is_over and final.verdict is not None
    # The whole game was played: twelve weeks, three monthly scorings, the judgement, win or loss.
    assert week_headers(out) == [(str(m), str(w)) for m in (1, 2, 3) for w in (1, 2, 3, 4)]
    parsed = check_verdict_against_engine(out, theme, players)
    assert parsed["winners"] == set(final.verdict.winners)
    if seat not in final.verdict.winners:
        assert "You lose." in out
    else:
        assert ("You share the win!" if final.verdict.shared else "You win!") in out
    # The scripted answers were taken: the draft pass and discard, and a take-back each week but the last.
    assert stdin.prompts[0].startswith("Pass 2 cards to seat")
    assert sum("take back" in p for p in stdin.prompts) >= 10
    # Each week but the last ends with its public re-organize line: the card each seat took back, the number it
    # discarded; printed once the step is over, before the next week, and naming the seat's own pick-up.
    weeks = re.split(r"(?m)^Month \d, week \d$", out)[1:]
    lines = [re.findall(r"(?m)^\s*Re-organize: (seat \d.*)$", week) for week in weeks]
    assert [len(found) for found in lines] == [1] * 11 + [0]
    assert all(f"seat {seat} takes back" in found[0] for found in lines[:11])

    # Every question starts with a header: split the output there, one chunk per question.
    chunks = re.split(r"(?m)^(?=-- )", out)[1:]
    assert len(chunks) == len(asked) > 40
    horizon = asked[1:] + [final]
    held: set[int] = set()  # every card the seat has held: its own discards are named to it
    for chunk, state, later in zip(chunks, asked, horizon, strict=True):
        own_hand = [c.id for c in state.hands[seat]]
        held |= set(own_hand)
        # The hand listing (twice at a re-organize: again before the discard question) is exactly the seat's
        # own hand at that moment, in order.
        listings = re.findall(r"^Your hand \(\d+ cards\): (.*)$", chunk, flags=re.MULTILINE)
        assert 1 <= len(listings) <= 2
        assert all([int(x) for x in CARD_ID.findall(listing)] == own_hand for listing in listings)
        # No other card is named unless the seat held it or it has been face up on the table or the score
        # track. The record at the end of a chunk is printed at the next question, so that question's state is
        # the horizon.
        named = {int(x) for x in CARD_ID.findall(chunk)}
        assert named <= held | public_ids(later), sorted(named - held - public_ids(later))
        # Victor cards stay secret until the end: only the seat's own is named before.
        own_victor = faction_name(state.victors[seat], theme)
        assert re.findall(r"Your victor faction \(secret\): ([A-Za-z ]+);", chunk) == [own_victor]
        if later is not final:
            assert "Victor cards revealed" not in chunk


def answer_lines(*lines: str) -> io.StringIO:
    return io.StringIO("".join(line + "\n" for line in lines))


@pytest.mark.spec("2.5")
def test_play_asks_again_after_bad_input_and_leaves_cleanly_at_the_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", answer_lines("abc", "0 1", "2 2", "1", "1 2 3", "1 2", "10 1"))
    code = main(["play", "--players", "3", "--seed", "1"])
    captured = capsys.readouterr()
    out, err = plain(captured.out), plain(captured.err)
    assert code == 1
    assert "Please answer with numbers from 1 to 9." in out
    assert out.count("Every number must be from 1 to 9.") == 2  # "0 1" and, at the discard, "10 1"
    assert "Name each number once." in out
    assert out.count("Please give exactly 2 numbers.") == 2  # "1" and "1 2 3"
    assert out.count("Pass 2 cards to seat 1") == 6  # asked until "1 2", then the discard is asked
    assert "Discard 2 cards" in out
    assert "Game abandoned: end of input." in err
    assert "Traceback" not in out + err


@pytest.mark.spec("9.2")
def test_play_leaves_on_q(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", answer_lines("1 2", "q", "1 2"))
    assert main(["play", "--players", "4", "--seed", "2", "--seat", "3"]) == 0  # a chosen quit is no failure
    captured = capsys.readouterr()
    assert "Game abandoned: you left the game." in plain(captured.err)
    assert "Final judgement" not in plain(captured.out)


class InterruptedStdin:
    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        raise KeyboardInterrupt


@pytest.mark.spec("9.2")
def test_play_exits_130_on_ctrl_c(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", InterruptedStdin())
    assert main(["play", "--players", "5", "--seed", "3"]) == 130
    assert "Interrupted." in plain(capsys.readouterr().err)


class SilentStdin:
    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        raise AssertionError("a seat with a single legal action must not be asked")


@pytest.mark.spec("R-H", "R-N")
def test_play_takes_a_single_legal_action_without_asking(capsys: pytest.CaptureFixture[str]) -> None:
    state = engine.deal(GameConfig(players=3), 5)
    for turn in darkempire.bots.iter_game(GameConfig(players=3), 5, [make_bot("greedy", s) for s in range(3)]):
        if turn.after.phase is Phase.PLAY_1:
            state = turn.after
            break
    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    seat = HumanSeat(console, SilentStdin(), Theme.STEAM_NOIR, 0)
    assert seat.choose(player_view(state, 0), (PlayNothing(),)) == PlayNothing()
    out = plain(capsys.readouterr().out)
    assert "Your only choice: play nothing" in out
    assert "Your hand (7 cards)" in out


class AnswerStdin:
    """Standard input that answers every prompt with the same line, recording what was shown."""

    def __init__(self, capsys: pytest.CaptureFixture[str], answer: str) -> None:
        self._capsys = capsys
        self._answer = answer
        self.shown: list[str] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        self.shown.append(plain(self._capsys.readouterr().out))
        return self._answer


def _step_with_interchangeable_reinforcements() -> tuple[GameState, Sequence[Action]]:
    """A play step at which seat 0 may attach either of two "+3" cards to one card (seeds 0, 1, ...)."""
    for seed in range(200):
        for turn in darkempire.bots.iter_game(GameConfig(players=3), seed, [make_bot("random", s) for s in range(3)]):
            state = turn.after
            if state.phase not in (Phase.PLAY_2, Phase.PLAY_3) or 0 not in engine.awaited_seats(state):
                continue
            legal = engine.legal_actions(state, 0)
            targets = [a.target for a in legal if isinstance(a, Reinforce)]
            if any(targets.count(t) >= 2 for t in targets):
                return state, legal
    raise AssertionError("no such step in 200 games")


@pytest.mark.spec("R-G")
def test_play_lists_interchangeable_cards_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Two "+3" cards attached to the same card are one menu entry, as are two faction cards of one value."""
    state, legal = _step_with_interchangeable_reinforcements()
    capsys.readouterr()
    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    stdin = AnswerStdin(capsys, "1\n")
    chosen = HumanSeat(console, stdin, Theme.STEAM_NOIR, 0).choose(player_view(state, 0), legal)
    assert chosen in legal
    menu = [line.split(") ", 1)[1] for line in stdin.shown[-1].splitlines() if re.match(r"\s+\d+\) ", line)]
    attachments = [re.sub(r"\+3 #\d+ ", "+3 ", entry) for entry in menu if entry.startswith("attach +3")]
    targets = {a.target for a in legal if isinstance(a, Reinforce)}
    # One entry per card a "+3" may go to, whichever "+3" card it is; every other legal play is listed.
    assert len(attachments) == len(set(attachments)) == len(targets)
    plays = {(a.card.faction, a.card.value, a.side) for a in legal if isinstance(a, PlayCard)}
    assert len(menu) - len(attachments) == len(plays)
