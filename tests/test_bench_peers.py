"""The peer benchmark's counting (``benchmarks/peers.py``; issue: playout kernel, point 5). No timing is checked.

A decision is an action a player applied. The darkempire contestants must count the choices of the very game
that :func:`~darkempire.records.record_game` records with the same seeds; the OpenSpiel stepping must count
the players' entries of the state's full history (chance excluded, and the adapter's waits); a contestant
whose package is missing must become a row with a note, not a crash.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from darkempire.bots import RandomBot
from darkempire.records import record_game
from darkempire.rules.state import GameConfig

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _peers() -> ModuleType:
    """``benchmarks/peers.py`` as a module (the benchmarks are scripts, not a package)."""
    if "peers" in sys.modules:
        return sys.modules["peers"]
    spec = importlib.util.spec_from_file_location("peers", BENCHMARKS / "peers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["peers"] = module
    spec.loader.exec_module(module)
    return module


peers = _peers()


def recorded_choices(players: int, game: int) -> int:
    """The choices of the recorded RandomBot game ``game`` (bots seeded as ``run_game``'s callers do)."""
    bots = [RandomBot(10 * game + seat) for seat in range(players)]
    return len(record_game(GameConfig(players=players), game, bots, digests=False).choices)


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("maker", ["kernel_player", "reference_player"])
def test_darkempire_counts_the_recorded_games_choices(maker: str, players: int) -> None:
    play = getattr(peers, maker)(players)
    assert play(1, 4) == (recorded_choices(players, 4), 1)
    assert play(2, 7) == (recorded_choices(players, 7) + recorded_choices(players, 8), 2)


def _players_entries(state: Any, waiting: int | None) -> int:
    return sum(1 for entry in state.full_history() if entry.player >= 0 and entry.action != waiting)


@pytest.mark.parametrize(("name", "waiting"), [("dark_empire_revolution(players=3)", 0), ("hearts", None),
                                               ("goofspiel(num_cards=5)", None)])  # fmt: skip
def test_openspiel_counts_the_players_actions_not_chance_nor_waits(name: str, waiting: int | None) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import darkempire.adapters.openspiel  # noqa: F401  # registers dark_empire_revolution

    state = pyspiel.load_game(name).new_initial_state()
    decisions = peers.spiel_game(random.Random(3), state, waiting)
    assert state.is_terminal()
    assert decisions == _players_entries(state, waiting) > 0
    assert len(state.history()) > decisions  # chance (and, for the adapter, waits) were applied but not counted


def test_measure_plays_consecutive_games_and_adds_them_up() -> None:
    seen: list[int] = []

    def play(games: int, seed: int) -> tuple[int, int]:
        seen.extend(range(seed, seed + games))
        return 3 * games, games

    sample = peers.measure(play, 0.0005)
    assert seen == list(range(len(seen))) and seen
    assert (sample.decisions, sample.games) == (3 * len(seen), len(seen))
    assert sample.cpu >= 0.0005


def test_a_missing_peer_is_a_row_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'rlcard'", name="rlcard")

    monkeypatch.setattr(peers, "rlcard_player", missing)
    monkeypatch.setattr(peers, "pokerkit_player", lambda: 1 / 0)
    table = {row.name: row for row in peers.contestants(3)}
    assert (table["RLCard Leduc"].play, table["RLCard Leduc"].note) == (None, "not installed (rlcard)")
    assert table["PokerKit NLHE 6"].play is None and "ZeroDivisionError" in table["PokerKit NLHE 6"].note
    peers.run_rounds([table[peers.KERNEL], table["RLCard Leduc"]], 1, 0.001)
    rows = {row["name"]: row for row in peers.summary([table[peers.KERNEL], table["RLCard Leduc"]])}
    assert rows["RLCard Leduc"]["rounds"] == 0 and rows[peers.KERNEL]["kernel_ratio"] == [1.0, 1.0]


def test_the_compiled_kernel_row_counts_the_recorded_games_or_says_why_it_is_missing() -> None:
    """The compiled kernel's worker (a subprocess that may load the build) plays and counts the same games as
    the pure kernel; without a fresh build its row is a note with the build's reason."""
    answer = peers.compiled_sample(3, 0.001)
    row = peers.compiled_contestant(3)
    if not answer["compiled"]:
        assert row.sampler is None and row.note == answer["reason"] and "pure modules" in row.note
        return
    sample = answer["sample"]
    assert sample["games"] >= 1
    assert sample["decisions"] == sum(recorded_choices(3, game) for game in range(sample["games"]))
    assert row.sampler is not None and row.note == ""
