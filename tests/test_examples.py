"""The embedding examples run: the minimal embedding and the hot-seat JSON client/server (spec 9.2-9.4)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from darkempire.bots import GreedyBot, run_game
from darkempire.rules.engine import deal
from darkempire.rules.state import GameConfig

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.spec("9.2", "9.4")
def test_the_minimal_embedding_is_short_and_plays_a_whole_game() -> None:
    source = (EXAMPLES / "minimal_embedding.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) < 40
    assert "legal_actions" in source and "apply(" in source and "player_view" in source
    result = run("minimal_embedding.py", "3", "5")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    weeks = re.findall(r"^month (\d), week (\d):$", out, flags=re.M)
    assert weeks == [(str(m), str(w)) for m in (1, 2, 3) for w in (1, 2, 3, 4)]
    first = out.split("month 1, week 2:")[0]
    hands = [set(h.split()) for h in re.findall(r"hand \[([\d ]+)\]", first)]
    assert len(hands) == 3 and all(len(h) == 7 for h in hands)
    assert not (hands[0] & hands[1] or hands[1] & hands[2] or hands[0] & hands[2])
    # The victors printed are the dealt victor cards of seed 5.
    victors = re.findall(r"seat (\d): victor ([A-Za-z ]+),", first)
    dealt = deal(GameConfig(players=3), 5).victors
    assert [name for _, name in victors] == [f.name.replace("_", " ").title() for f in dealt]
    assert re.search(r"^verdict: (emperor victory|revolution|leader too powerful), winners \[[\d, ]+\]$", out, re.M)


@pytest.mark.spec("9.3", "9.4")
@pytest.mark.parametrize("players", [3, 5])
def test_hot_seat_auto_plays_through_json_to_the_bots_verdict(players: int) -> None:
    result = run("hot_seat.py", "--auto", "--players", str(players), "--seed", "4")
    assert result.returncode == 0, result.stderr
    # The bots chose from views and legal actions that went through JSON: the same game as without it.
    expected = run_game(GameConfig(players=players), 4, [GreedyBot(40 + s) for s in range(players)]).verdict
    assert expected is not None
    winners = ", ".join(f"seat {s}" for s in sorted(expected.winners))
    assert f"Verdict: {expected.reason.value}; winners: {winners}" in result.stdout
    choices, messages = map(int, re.findall(r"(\d+) choices, (\d+) JSON messages", result.stdout)[0])
    assert messages > 3 * choices


@pytest.mark.spec("9.1", "9.3")
def test_the_hot_seat_server_refuses_bad_messages_with_typed_replies() -> None:
    hot_seat = load_example("hot_seat")
    server = hot_seat.Server(3, 2)
    state = server.history.current
    replies = {
        "garbage": json.loads(server.submit(0, "not json")),
        "unheld": json.loads(
            server.submit(
                0,
                json.dumps(
                    {
                        "format": "darkempire/1",
                        "type": "action",
                        "kind": "pass-cards",
                        "cards": [state.hands[1][0].id, state.hands[0][0].id],
                    }
                ),
            )  # fmt: skip
        ),
        "phase": json.loads(
            server.submit(
                0,
                json.dumps(
                    {"format": "darkempire/1", "type": "action", "kind": "play-card", "card": state.hands[0][0].id}
                ),
            )  # fmt: skip
        ),
        "future": json.loads(server.submit(0, json.dumps({"format": "darkempire/3", "type": "action"}))),
    }
    assert replies["garbage"]["error"] == "MalformedJSONError"
    assert replies["unheld"] == {**replies["unheld"], "ok": False, "error": "CardNotHeldError"}
    assert replies["unheld"]["path"].startswith("cards[")
    assert replies["phase"]["error"] == "WrongPhaseError" and replies["phase"]["rule"] == "9.1"
    assert replies["future"]["error"] == "FormatVersionError" and replies["future"]["path"] == "format"
    assert server.history.current == state  # nothing was applied


@pytest.mark.spec("9.4")
def test_the_hot_seat_news_shows_a_seat_only_its_own_secrets() -> None:
    hot_seat = load_example("hot_seat")
    server = hot_seat.Server(3, 6)
    for seat in (0, 1, 2):
        prompt = json.loads(server.prompt(seat))
        action = prompt["legal_actions"][0]
        assert json.loads(server.submit(seat, json.dumps({"format": "darkempire/1", "type": "action", **action})))["ok"]
    news = [json.loads(text) for text in server.news(1)]
    dealt = [e for e in news if e["kind"] == "hand-dealt"]
    assert [e["seat"] for e in dealt] == [1]
    passes = {e["seat"]: e["cards"] for e in news if e["kind"] == "cards-passed"}
    assert passes[0] is not None and passes[1] is not None and passes[2] is None  # seat 1 gives and receives
    chosen = [e for e in news if e["kind"] == "choice-made"]
    assert [e["action"] is not None for e in chosen] == [False, True, False]
    assert server.news(1) == []  # nothing new since


@pytest.mark.spec("9.4")
def test_hot_seat_takes_turns_at_the_terminal_and_stops_at_the_end_of_input() -> None:
    result = run("hot_seat.py", "--players", "3", "--seed", "2", stdin="\n1 2\n\n9 9\n3 4\n")
    assert result.returncode == 1
    out = result.stdout
    assert "Pass the terminal to seat 0" in out and "Pass the terminal to seat 1" in out
    assert "please give 2 different card numbers" in out  # "9 9" is asked again
    assert "end of input" in out
    state = deal(GameConfig(players=3), 2)
    seat0 = out.split("Pass the terminal to seat 1")[0]
    assert all(f"#{card.id}" in seat0 for card in state.hands[0])
    assert not any(re.search(rf"#{card.id}\b", seat0) for card in state.hands[1] + state.hands[2])


@pytest.mark.spec("9.2", "9.4")
def test_the_readme_embedding_snippet_runs_and_prints_a_verdict() -> None:
    """README's "Embedding in a dozen lines" runs as written and ends the game with a verdict it prints."""
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    found = re.search(r"## Embedding in a dozen lines\n\n```python\n(.*?)```", readme, flags=re.DOTALL)
    assert found is not None, "README lost its embedding snippet"
    done = subprocess.run([sys.executable, "-c", found.group(1)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.strip()
    assert re.fullmatch(r"(emperor victory|revolution|leader too powerful) \[\d(, \d)*\]", printed), printed
