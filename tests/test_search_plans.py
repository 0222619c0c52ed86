"""The search bot's plans (:mod:`darkempire.search.plans`): their objectives are the rules' totals, and the
sink plan's own policy plays legal, evasive moves (rules 5.3, 5.4, 8.1, 8.2)."""

from __future__ import annotations

import random

import pytest

from darkempire.kernel import encoding as enc
from darkempire.kernel import steps
from darkempire.kernel.greedy import Forecast, choose_for, greedy_index
from darkempire.kernel.interface import Kernel, deal
from darkempire.rules.actions import PlayCard, Reinforce, Side
from darkempire.rules.state import GameConfig
from darkempire.search.plans import RISE, SINK, evasive_index, margin, plan_index, totals, win_share


def _play(k: Kernel, seed: int, sinker: int | None = None, decisions: list[tuple[Kernel, int]] | None = None) -> None:
    """Play ``k`` to the end: ``sinker`` by the sink plan, the others as GreedyBot; record the sinker's turns."""
    rngs = [random.Random(seed + s) for s in range(k.n)]
    forecast = Forecast(k.n)
    while not k.is_over():
        others = [s for s in k.awaiting if s != sinker]
        if sinker in k.awaiting:
            if decisions is not None:
                decisions.append((k.copy(), sinker))
            k.pending[sinker] = evasive_index(k, sinker, rngs[sinker])
        choose_for(k, others, rngs, forecast)
        k.awaiting = []
        steps.resolve(k)


@pytest.mark.spec("8.1", "8.2")
@pytest.mark.parametrize("players", (3, 4, 5))
def test_the_totals_are_the_verdicts_and_the_margin_names_the_lowest(players: int) -> None:
    for seed in range(6):
        k = deal(GameConfig(players=players), seed)
        _play(k, seed, sinker=seed % players)
        verdict = k.verdict
        assert verdict is not None
        each = totals(k)
        assert each == [verdict.totals[f] for f in k.victors]
        for seat in range(players):
            assert margin(k, seat) == min(each[:seat] + each[seat + 1 :]) - each[seat]
            assert win_share(k, seat) == (1 / len(verdict.winners) if seat in verdict.winners else 0.0)
        if verdict.reason.value == "emperor victory":
            lowest = min(each)
            assert all((margin(k, s) >= 0) == (each[s] == lowest) for s in range(players))


@pytest.mark.spec("4.4", "5.3")
def test_the_sink_plan_plays_legal_moves_and_its_traitor_play_first() -> None:
    """Every choice is in the listing; at a play step where the seat may still make its traitor play it
    makes it (a traitor card supports nobody, rule 5.3), and it never reinforces its own card."""
    seen_traitor = 0
    for seed in range(10):
        decisions: list[tuple[Kernel, int]] = []
        _play(deal(GameConfig(players=4), seed), seed, sinker=seed % 4, decisions=decisions)
        for k, seat in decisions:
            index = evasive_index(k, seat, random.Random(seed))
            assert 0 <= index < k.counts[seat]
            if not enc.PLAY_1 <= k.phase <= enc.PLAY_3:
                assert index == greedy_index(k, seat, random.Random(seed), sink=True)
                continue
            action = k.action(seat, index)
            if isinstance(action, Reinforce):
                assert not any(p[0] == seat and p[1] == action.target.id for p in k.plays)
            if k.table_emperor >= 0 and not k.traitor[seat] and len(k.hands[seat]) > 0:
                traitor = (isinstance(action, PlayCard) and action.side is Side.EMPEROR) or (
                    isinstance(action, Reinforce) and any(p[1] == action.target.id and p[2] for p in k.plays)
                )
                assert traitor
                seen_traitor += 1
    assert seen_traitor > 50


@pytest.mark.spec("5.3", "5.4")
def test_the_sink_plan_leaves_the_tokens_to_the_others() -> None:
    """Over whole games against GreedyBots the sinking seat wins fewer weekly tokens than the others do on
    average: it plays so that another seat is the top supporter."""
    own = others = 0
    for seed in range(30):
        k = deal(GameConfig(players=4), seed)
        sinker = seed % 4
        _play(k, seed, sinker=sinker)
        bonus = [sum(m.bonus[s] for m in k.month_scores) for s in range(4)]
        weekly = [k.banked[s] - bonus[s] for s in range(4)]
        own += weekly[sinker]
        others += sum(weekly) - weekly[sinker]
    assert own < 0.8 * others / 3


@pytest.mark.spec("8.2")
def test_plan_index_is_the_plans_policy() -> None:
    for seed in range(5):
        k = deal(GameConfig(players=3), seed)
        for seat in k.awaiting:
            assert plan_index(RISE, k, seat, random.Random(1)) == greedy_index(k, seat, random.Random(1), sink=False)
            assert plan_index(SINK, k, seat, random.Random(1)) == evasive_index(k, seat, random.Random(1))
