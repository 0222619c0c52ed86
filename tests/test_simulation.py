"""``darkempire simulate`` and :mod:`darkempire.simulation`: many seeded bot games summed up (issue 6).

The summary must count every game once, agree with the games it played (each of which can be replayed
from its derived seed), and not depend on how many worker processes played them.
"""

from __future__ import annotations

import json
import re

import pytest

from darkempire.bots import make_bot, run_game
from darkempire.cli import main
from darkempire.rules.scoring import VerdictReason
from darkempire.simulation import (
    OUTCOMES,
    SHARED_WIN,
    GameResult,
    game_seeds,
    play_game,
    simulate,
    summarize,
    wilson_interval,
)
from darkempire.rules.state import GameConfig

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.spec("8.2", "8.3", "8.4", "8.5")
def test_outcomes_count_every_game_once_and_agree_with_the_results() -> None:
    summary = simulate(players=3, games=12, seed=4, bots=["random"])
    assert summary.games == len(summary.results) == 12
    assert list(summary.outcomes) == list(OUTCOMES)
    assert sum(summary.outcomes.values()) == 12
    for outcome in OUTCOMES:
        assert summary.outcomes[outcome] == sum(1 for r in summary.results if r.outcome == outcome)
    assert sum(summary.shared_by_reason.values()) == summary.outcomes[SHARED_WIN]
    for seat, rate in enumerate(summary.seats):
        assert rate.wins == sum(1 for r in summary.results if seat in r.winners)
        assert rate.played == 12
        assert rate.low <= rate.rate <= rate.high
    # Every game has a winner, so the seats' wins add up to at least the games (more with shared wins).
    assert sum(rate.wins for rate in summary.seats) >= 12
    assert summary.mean_emperor_total == pytest.approx(sum(r.emperor_total for r in summary.results) / 12)


@pytest.mark.spec("9.3")
def test_each_game_is_the_seeded_game_that_run_game_plays() -> None:
    """Game i of a run is run_game with the i-th derived seed and seat s's bot seeded 10 * seed + s."""
    seeds = game_seeds(7, 3)
    assert seeds == game_seeds(7, 5)[:3]  # a longer run starts with the same games
    assert len(set(seeds)) == 3
    summary = simulate(players=4, games=3, seed=7, bots=["greedy", "random", "random", "greedy"])
    for seed, result in zip(seeds, summary.results, strict=True):
        assert result.seed == seed
        kinds = ("greedy", "random", "random", "greedy")
        state = run_game(GameConfig(4), seed, [make_bot(kind, 10 * seed + s) for s, kind in enumerate(kinds)])
        assert state.verdict is not None
        assert result.reason is state.verdict.reason
        assert result.winners == tuple(sorted(state.verdict.winners))
        assert result.totals == state.verdict.totals
        assert result.tokens == state.banked_tokens
    greedy = summary.bot_rates["greedy"]
    assert greedy.played == 6
    assert greedy.wins == summary.seats[0].wins + summary.seats[3].wins


@pytest.mark.spec("9.3")
def test_the_summary_does_not_depend_on_the_number_of_jobs() -> None:
    one = simulate(players=3, games=10, seed=11, bots=["random"], jobs=1)
    two = simulate(players=3, games=10, seed=11, bots=["random"], jobs=2)
    assert one == two
    assert one.to_json() == two.to_json()
    other_seed = simulate(players=3, games=10, seed=12, bots=["random"], jobs=1)
    assert [r.seed for r in other_seed.results] != [r.seed for r in one.results]


@pytest.mark.spec("8.5")
def test_a_shared_win_is_its_own_outcome_and_counts_for_every_winner() -> None:
    results = [
        GameResult(1, VerdictReason.REVOLUTION, (0, 2), (10, 0, 10, 0, 0), 5, (1, 2, 3)),
        GameResult(2, VerdictReason.EMPEROR_VICTORY, (1,), (0, 0, 0, 0, 0), 40, (0, 0, 0)),
    ]
    summary = summarize(3, 0, ["random", "greedy", "random"], results)
    assert summary.outcomes == {
        "emperor victory": 1,
        "revolution": 0,
        "leader too powerful": 0,
        "shared win": 1,
    }
    assert summary.shared_by_reason["revolution"] == 1
    assert [rate.wins for rate in summary.seats] == [1, 1, 1]
    assert (summary.bot_rates["random"].wins, summary.bot_rates["random"].played) == (2, 4)
    assert summary.mean_tokens == (0.5, 1.0, 1.5)
    assert summary.mean_totals[0] == 5.0


@pytest.mark.spec("8.5")
def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28  # never below zero, unlike the normal approximation
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.spec("9.3")
def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="3 to 5"):
        simulate(players=6, games=1, seed=0, bots=["random"])
    with pytest.raises(ValueError, match="unknown bot kind"):
        simulate(players=3, games=1, seed=0, bots=["clever"])
    with pytest.raises(ValueError, match="one per seat"):
        simulate(players=3, games=1, seed=0, bots=["random", "greedy"])
    with pytest.raises(ValueError, match="3 seats"):
        play_game(3, 0, ["random"])


@pytest.mark.spec("8.2", "8.3", "8.4", "8.5", "9.3")
def test_the_command_prints_outcomes_that_add_up_and_json_with_the_documented_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--players", "3", "--games", "8", "--seed", "5", "--jobs", "2", "--bots", "greedy"]) == 0
    text = ANSI.sub("", capsys.readouterr().out)
    counts = {name: int(re.search(rf"{name}\W+(\d+)", text)[1]) for name in OUTCOMES}  # type: ignore[index]
    assert sum(counts.values()) == 8
    assert "95%" in text and "seat 2 tokens" in text

    assert main(["simulate", "--players", "3", "--games", "8", "--seed", "5", "--json", "--bots", "greedy"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "players",
        "games",
        "seed",
        "bots",
        "outcomes",
        "shared_by_reason",
        "seats",
        "bot_rates",
        "mean_faction_totals",
        "mean_emperor_total",
        "mean_tokens",
    }
    assert {name: entry["count"] for name, entry in data["outcomes"].items()} == counts
    assert sum(entry["percent"] for entry in data["outcomes"].values()) == pytest.approx(100.0)
    assert [seat["seat"] for seat in data["seats"]] == [0, 1, 2]
    assert set(data["seats"][0]) == {"seat", "bot", "wins", "played", "rate", "ci95"}
    assert set(data["mean_faction_totals"]) == {"WORKERS", "CALENDRICAL_ORDER", "SUFFRAGETTES", "MECHANDROS", "STUDENTS"}
    assert len(data["mean_tokens"]["per_seat"]) == 3
    assert data == simulate(players=3, games=8, seed=5, bots=["greedy"]).to_json()


@pytest.mark.spec("9.3")
def test_the_command_refuses_a_wrong_number_of_bot_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--players", "3", "--games", "2", "--bots", "random,greedy"])
    assert exit_info.value.code == 2
    assert "one per seat" in capsys.readouterr().err


def test_the_rate_stays_readable_from_thousands_of_games_a_second_to_seconds_a_game() -> None:
    """A small run of search bots plays about one game in four seconds: it once printed "0 games/s"."""
    from darkempire.simulation import _rate

    assert _rate(1000, 0.8) == "1,250 games/s"
    assert _rate(20, 8.0) == "2.5 games/s"
    assert _rate(20, 86.0) == "4.3 s a game"
    assert _rate(999, 100.01) == "10 games/s"  # not "10.0 games/s" beside another run's "10 games/s"
    assert _rate(1, 3600.0) == "3,600.0 s a game"
