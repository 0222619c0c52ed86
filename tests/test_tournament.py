"""darkempire.tournament: seats rotated, openskill ratings, head to head, JSON (issue 15)."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter

import pytest

from darkempire.cli.app import main
from darkempire.execution import Backend
from darkempire.tournament import (
    TournamentUnavailable,
    entrant_names,
    round_length,
    schedule,
    tournament,
)

pytest.importorskip("openskill")

SERIAL = Backend("serial")


@pytest.mark.parametrize(("entrants", "players"), [(4, 4), (3, 3), (5, 3), (6, 4), (5, 5)])
def test_over_a_round_every_entrant_sits_in_every_seat_equally_often(entrants: int, players: int) -> None:
    plan = schedule(entrants, players, rounds=2)
    assert len(plan) == 2 * round_length(entrants, players)
    seats = Counter((entrant, seat) for _, lineup in plan for seat, entrant in enumerate(lineup))
    assert len(set(seats.values())) == 1  # one count for every (entrant, seat)
    assert len(seats) == entrants * players
    for _, lineup in plan:
        assert len(set(lineup)) == players  # nobody sits twice in one game


def test_a_deal_is_played_once_per_seat_in_a_row_with_the_lineup_rotated() -> None:
    plan = schedule(4, 4, rounds=1)
    assert [deal for deal, _ in plan] == [0, 0, 0, 0]
    lineups = [lineup for _, lineup in plan]
    assert lineups[0] == (0, 1, 2, 3)
    assert lineups[1] == (3, 0, 1, 2)  # each entrant one seat further on
    assert sorted(lineup[0] for lineup in lineups) == [0, 1, 2, 3]


def test_the_result_counts_every_entrant_in_every_seat_and_shares_deals() -> None:
    result = tournament(["greedy", "random", "random", "greedy"], 8, 5, backend=SERIAL)
    assert [e.seat_games for e in result.entrants] == [(2, 2, 2, 2)] * 4
    seeds = [g.seed for g in result.games]
    assert seeds[0:4] == [seeds[0]] * 4 and seeds[4:8] == [seeds[4]] * 4 and seeds[0] != seeds[4]


def test_greedy_outranks_random_over_enough_games() -> None:
    result = tournament(["greedy", "random", "random", "greedy"], 40, 1, backend=SERIAL)
    ranked = [result.entrants[i].kind for i in result.standings()]
    assert ranked == ["greedy", "greedy", "random", "random"]
    greedy = [e for e in result.entrants if e.kind == "greedy"]
    random = [e for e in result.entrants if e.kind == "random"]
    assert min(e.rating.ordinal for e in greedy) > max(e.rating.ordinal for e in random)
    assert all(e.rating.sigma < 25 / 3 for e in result.entrants)  # openskill's prior sigma shrank with games


def test_wins_and_head_to_head_follow_the_games_winners() -> None:
    result = tournament(["greedy", "random", "random"], 9, 2, backend=SERIAL)
    for index, entrant in enumerate(result.entrants):
        won = sum(index in g.winning_entrants for g in result.games)
        assert (entrant.wins.wins, entrant.wins.played) == (won, 9)
    for a, row in result.head_to_head.items():
        for b, h in row.items():
            together = [g for g in result.games if a in g.lineup and b in g.lineup]
            only_a = sum(a in g.winning_entrants and b not in g.winning_entrants for g in together)
            only_b = sum(b in g.winning_entrants and a not in g.winning_entrants for g in together)
            assert (h.games, h.wins, h.losses) == (len(together), only_a, only_b)
            assert result.head_to_head[b][a].wins == h.losses


def test_a_shared_win_ranks_its_winners_together() -> None:
    from openskill.models import PlackettLuce

    from darkempire.tournament import TournamentGame, _rate

    shared = TournamentGame(seed=0, lineup=(1, 2, 0), winners=(0, 2), outcome="shared win")  # entrants 1 and 0 won
    result = _rate(PlackettLuce(), ("random",) * 3, 3, 0, [shared])
    mus = [e.rating.mu for e in result.entrants]
    assert mus[0] == pytest.approx(mus[1]) and mus[0] > 25 > mus[2]  # tied first from equal priors; the loser drops
    assert [e.wins.wins for e in result.entrants] == [1, 1, 0]
    assert result.head_to_head[0][1].ties == 1 and result.head_to_head[0][2].wins == 1


def test_the_json_has_its_keys_and_is_the_same_every_run() -> None:
    one = tournament(["greedy", "random", "random"], 6, 9, backend=SERIAL).to_json()
    two = tournament(["greedy", "random", "random"], 6, 9, backend=Backend("process", workers=2)).to_json()
    assert json.dumps(one) == json.dumps(two)
    assert set(one) == {"players", "seed", "games", "entrants", "head_to_head", "results"}
    assert (one["players"], one["seed"], one["games"]) == (3, 9, 6)
    assert [e["name"] for e in one["entrants"]][0] == "greedy"
    assert set(one["entrants"][0]) == {
        "name", "kind", "mu", "sigma", "ordinal", "wins", "played", "rate", "ci95", "seat_games"
    }
    for e in one["entrants"]:
        assert e["ordinal"] == pytest.approx(e["mu"] - 3 * e["sigma"])
    assert set(one["head_to_head"]["greedy"]) == {"random#1", "random#2"}
    assert len(one["results"]) == 6 and set(one["results"][0]) == {"seed", "lineup", "winners", "outcome", "replay"}
    other = tournament(["greedy", "random", "random"], 6, 10, backend=SERIAL).to_json()
    assert other["results"] != one["results"]


def test_entrants_of_one_kind_are_numbered() -> None:
    assert entrant_names(["greedy", "random", "greedy"]) == ["greedy#1", "random", "greedy#2"]


@pytest.mark.parametrize(
    ("kinds", "games", "players", "message"),
    [
        (["greedy", "nobody", "random"], 3, None, "unknown bot kind 'nobody'"),
        (["greedy", "random"], 2, None, "the game is for 3 to 5 players, not 2"),
        (["greedy", "random", "random"], 3, 4, "4 seats need at least 4 entrants, not 3"),
        (["greedy", "random", "random"], 4, None, "a positive multiple of 3"),
    ],
)
def test_the_tournament_refuses_bad_arguments(kinds: list[str], games: int, players: int | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tournament(kinds, games, 1, players=players, backend=SERIAL)


def test_the_cli_prints_ratings_and_head_to_head(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "greedy,random,random", "--games", "6", "--backend", "serial"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 games, 3 players, seed 1, entrants greedy,random,random")
    assert "ordinal" in out and "Head to head" in out and "random#2" in out


def test_the_cli_json_is_the_api_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "greedy,random,random", "--games", "3", "--seed", "4", "--json"]
    assert main([*argv, "--backend", "serial"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == tournament(["greedy", "random", "random"], 3, 4, backend=SERIAL).to_json()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy,foo,random"], "--bots: unknown bot kind 'foo'; choose from"),
        (["--bots", "greedy,random"], "--bots: 2 entrants; give 3 to 5, or more with --players"),
        (["--bots", "greedy,random,random", "--players", "4"], "--players 4 needs at least 4 entrants in --bots, not 3"),
        (["--bots", "greedy,random,random", "--games", "7"], "such as 6 or 9, not 7"),
        (["--workers", "0"], "--workers must be at least 1, not 0"),
    ],
)
def test_the_cli_refuses_bad_arguments_with_its_usage(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: darkempire tournament ")
    assert message in err.splitlines()[-1]


def test_without_openskill_the_cli_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(TournamentUnavailable):
        tournament(["greedy", "random", "random"], 3, 1, backend=SERIAL)
    assert main(["tournament", "--bots", "greedy,random,random", "--games", "3", "--backend", "serial"]) == 1
    assert capsys.readouterr().err.strip() == (
        "darkempire: darkempire tournament rates with openskill: pip install 'darkempire[tournament]'"
    )


def test_a_results_replay_command_plays_that_game_again(capsys: pytest.CaptureFixture[str]) -> None:
    # The docs once said `demo --seed S --bots <lineup>`, which fails: demo needs --players and bare kinds.
    import shlex

    result = tournament(["greedy", "random", "random", "random"], 8, 4, players=4, backend=Backend("serial", None, None))
    for game, row in zip(result.games, result.to_json()["results"], strict=True):
        capsys.readouterr()
        assert main(shlex.split(row["replay"])[1:]) == 0
        shown = capsys.readouterr().out
        seats = re.findall(r"seat (\d+)", shown.split("Winner")[-1])
        assert {int(seat) for seat in seats} == set(game.winners), row["replay"]
