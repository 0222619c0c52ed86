"""Bots and the game driver: whole games end in a verdict, bots choose legal actions from
their seat's view only, games are deterministic, and GreedyBot beats RandomBots."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from darkempire.rules import engine
from darkempire.rules.actions import Action, PlaceCards, PlayCard, Reorganize, Side
from darkempire.bots import (
    BOT_KINDS,
    Bot,
    GreedyBot,
    RandomBot,
    Turn,
    expects_emperor_victory,
    iter_game,
    make_bot,
    run_game,
)
from darkempire.rules.cards import Faction
from darkempire.rules.scoring import emperor_strength, faction_strengths
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import PlayerView, player_view

PLAYERS = (3, 4, 5)


class Spy:
    """Wraps a bot and records what it was shown and what it answered."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.calls: list[tuple[PlayerView, tuple[Action, ...], Action]] = []

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        self.calls.append((view, tuple(legal), action))
        return action


def mixed_bots(players: int, seed: int) -> list[Bot]:
    """Greedy and random seats, alternating, the first one chosen by the seed."""
    return [
        GreedyBot(seed * 10 + s) if (s + seed) % 2 == 0 else RandomBot(seed * 10 + s) for s in range(players)
    ]


# --------------------------------------------------------------------------- whole games


@pytest.mark.spec("8.1", "9.2", "9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_games_between_random_and_greedy_bots_reach_the_verdict(players: int) -> None:
    config = GameConfig(players=players)
    for seed in range(5):
        for bots in (mixed_bots(players, seed), [GreedyBot(seed + s) for s in range(players)]):
            state = run_game(config, seed, bots)
            assert state.phase is Phase.GAME_OVER and state.is_over
            assert (state.month, state.week) == (3, 4)
            assert [(r.month, r.week) for r in state.history] == [(m, w) for m in (1, 2, 3) for w in (1, 2, 3, 4)]
            assert len(state.month_scores) == 3
            verdict = state.verdict
            assert verdict is not None
            assert verdict == engine.judge_winner(state)
            assert verdict.winners and verdict.winners <= set(range(players))
            assert {state.victors[s] for s in verdict.winners} == verdict.winning_factions
            assert engine.awaited_seats(state) == frozenset()


@pytest.mark.spec("9.2", "9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_bots_get_their_own_seat_view_and_return_a_legal_action(players: int) -> None:
    config = GameConfig(players=players)
    for seed in range(2):
        spies = [Spy(bot) for bot in mixed_bots(players, seed)]
        turns = list(iter_game(config, seed, spies))
        seen = Counter(turn.seat for turn in turns)
        for seat, spy in enumerate(spies):
            assert len(spy.calls) == seen[seat] > 0
            for view, legal, action in spy.calls:
                assert isinstance(view, PlayerView)
                assert view.seat == seat and view.victor is not None
                assert legal and action in legal
        for turn in turns:
            # The driver asked the right seat with exactly that seat's view and legal actions.
            assert turn.seat in engine.awaited_seats(turn.before)
            assert turn.action in engine.legal_actions(turn.before, turn.seat)
            assert turn.after == engine.apply(turn.before, turn.seat, turn.action)
        shown = [view for spy in spies for view, _, _ in spy.calls]
        views = [player_view(turn.before, turn.seat) for turn in turns]
        assert sorted(map(repr, shown)) == sorted(map(repr, views))


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_same_seeds_give_equal_games_and_replay_reproduces_them(players: int) -> None:
    config = GameConfig(players=players)
    first = list(iter_game(config, 5, mixed_bots(players, 5)))
    second = list(iter_game(config, 5, mixed_bots(players, 5)))
    assert first == second
    final = first[-1].after
    assert final.is_over
    assert run_game(config, 5, mixed_bots(players, 5)) == final
    assert engine.replay(config, 5, [(t.seat, t.action) for t in first]) == final
    # Another bot seed changes the bots' choices, so the game differs.
    other = run_game(config, 5, mixed_bots(players, 6))
    assert other != final


@pytest.mark.spec("9.3")
def test_bots_never_touch_the_global_random_generator() -> None:
    random.seed(1234)
    before = random.getstate()
    run_game(GameConfig(players=4), 3, [GreedyBot(1), RandomBot(2), GreedyBot(3), RandomBot(4)])
    assert random.getstate() == before


@pytest.mark.spec("9.2")
def test_iter_game_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match="2 bots for 3 seats"):
        list(iter_game(GameConfig(players=3), 1, [RandomBot(1), RandomBot(2)]))


@pytest.mark.spec("9.2")
def test_bots_refuse_an_empty_list_of_legal_actions() -> None:
    view = player_view(engine.deal(GameConfig(players=3), 1), 0)
    for bot in (RandomBot(1), GreedyBot(1)):
        with pytest.raises(ValueError, match="at least one legal action"):
            bot.choose(view, ())


@pytest.mark.spec("9.2")
def test_make_bot_knows_every_kind_and_rejects_others() -> None:
    assert sorted(BOT_KINDS) == ["greedy", "ismcts", "random"]
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), Bot)
    with pytest.raises(ValueError, match="unknown bot kind 'clever'"):
        make_bot("clever", 1)


# --------------------------------------------------------------------------- RandomBot


@pytest.mark.spec("9.2")
def test_random_bot_is_uniform_over_the_legal_actions_and_seeded() -> None:
    state = engine.deal(GameConfig(players=3), 2)
    view = player_view(state, 0)
    legal = engine.legal_actions(state, 0)  # 36 pairs of 9 cards
    assert len(legal) == 36
    bot = RandomBot(7)
    counts = Counter(bot.choose(view, legal) for _ in range(36 * 300))
    assert set(counts) == set(legal)
    # Expected 300 each; a binomial standard deviation is about 17, so 200..400 is a very loose bound.
    assert all(200 <= n <= 400 for n in counts.values())
    a, b = RandomBot(7), RandomBot(7)
    assert [a.choose(view, legal) for _ in range(50)] == [b.choose(view, legal) for _ in range(50)]


# --------------------------------------------------------------------------- GreedyBot


def greedy_turns(players: int, seeds: range) -> list[tuple[Turn, PlayerView]]:
    """Every decision of a GreedyBot seat (with its view) in games of one GreedyBot and RandomBots,
    and in all-GreedyBot games."""
    found = []
    for seed in seeds:
        for bots in (
            [GreedyBot(seed) if s == seed % players else RandomBot(seed * 10 + s) for s in range(players)],
            [GreedyBot(seed * 10 + s) for s in range(players)],
        ):
            for turn in iter_game(GameConfig(players=players), seed, bots):
                if isinstance(bots[turn.seat], GreedyBot):
                    found.append((turn, player_view(turn.before, turn.seat)))
    return found


@pytest.fixture(scope="module")
def greedy_decisions() -> list[tuple[Turn, PlayerView]]:
    return [d for players in PLAYERS for d in greedy_turns(players, range(3))]


@pytest.mark.spec("4.4", "5.1", "5.2", "R-B")
def test_greedy_traitor_plays_while_rising_leave_the_emperor_below_the_strongest(
    greedy_decisions: list[tuple[Turn, PlayerView]],
) -> None:
    checked = 0
    for turn, view in greedy_decisions:
        action = turn.action
        if not (isinstance(action, PlayCard) and action.side is Side.EMPEROR) or expects_emperor_victory(view):
            continue
        assert view.table is not None and action.card.faction is not None
        assert action.card.faction is not view.victor
        strengths = list(faction_strengths(view.table))
        emperor = emperor_strength(view.table)
        assert emperor is not None
        strengths[action.card.faction] -= action.card.value
        assert emperor + action.card.value < max(strengths)
        checked += 1
    assert checked > 0  # the rule was exercised


@pytest.mark.spec("5.6", "R-E")
def test_greedy_places_its_highest_victor_card_when_rising_and_its_lowest_when_sinking(
    greedy_decisions: list[tuple[Turn, PlayerView]],
) -> None:
    seen = Counter[bool]()
    for turn, view in greedy_decisions:
        if not isinstance(turn.action, PlaceCards):
            continue
        assert view.week_score is not None
        sinking = expects_emperor_victory(view)
        for due in view.week_score.placements:
            if due.seat != turn.seat:
                continue
            (chosen,) = [c for c in turn.action.cards if c.faction is due.faction]
            values = [c.value for c in due.candidates]
            wants_high = (due.faction is view.victor) != sinking
            assert chosen.value == (max(values) if wants_high else min(values))
            seen[sinking] += 1
    assert seen[False] > 0 and seen[True] > 0


@pytest.mark.spec("3.2", "6.2", "6.3", "R-K")
def test_greedy_support_and_reorganize_follow_its_victor_faction(
    greedy_decisions: list[tuple[Turn, PlayerView]],
) -> None:
    reorganized = 0
    for turn, view in greedy_decisions:
        action = turn.action
        if not isinstance(action, Reorganize):
            continue
        reorganized += 1
        if expects_emperor_victory(view):
            assert action.take_back is None
            assert all(c.faction not in (None, view.victor) and c.value >= 7 for c in action.discards)
        else:
            # It never discards a card of its victor faction or a reinforcement card.
            assert all(c.faction not in (None, view.victor) and c.value <= 5 for c in action.discards)
            own = [p.card for p in view.table.plays if p.seat == turn.seat and not p.is_traitor] if view.table else []
            if own:
                assert action.take_back is not None
                best_victor = max((c.value for c in own if c.faction is view.victor), default=None)
                if best_victor is not None:
                    assert action.take_back.faction is view.victor and action.take_back.value == best_victor
    assert reorganized > 0


@pytest.mark.spec("8.2")
def test_greedy_expects_the_revolution_at_first_and_the_emperor_once_he_wins_every_week() -> None:
    state = engine.deal(GameConfig(players=4), 9)
    assert not expects_emperor_victory(player_view(state, 0))
    # Random seats feed the emperor: once he has scored the first weeks, the greedy seat expects him to win.
    for turn in iter_game(GameConfig(players=4), 9, [RandomBot(s) for s in range(4)]):
        history = turn.after.history
        if len(history) >= 3 and all(r.score.emperor_scored for r in history):
            assert expects_emperor_victory(player_view(turn.after, 0))
            break
    else:  # pragma: no cover - the seed is fixed
        pytest.fail("the emperor never won the first three weeks")


def greedy_win_share(players: int, games: int) -> float:
    """Wins of one GreedyBot seat (rotating) against RandomBots; a shared win counts its share."""
    share = 0.0
    for seed in range(games):
        greedy = seed % players
        bots: list[Bot] = [GreedyBot(seed) if s == greedy else RandomBot(seed * 10 + s) for s in range(players)]
        verdict = run_game(GameConfig(players=players), 1000 + seed, bots).verdict
        assert verdict is not None
        if greedy in verdict.winners:
            share += 1 / len(verdict.winners)
    return share


@pytest.mark.spec("8.2", "8.3")
def test_greedy_bot_wins_far_more_often_than_a_random_seat() -> None:
    # Measured over 300 games per player count, one GreedyBot seat wins about 0.85, 0.65 and 0.64 of
    # the games with 3, 4 and 5 players, where a random seat wins 1/3, 1/4 and 1/5. These 12 games per
    # count give it 25 wins where a random seat would get 9.4; the bound asks for 1.5 times that.
    games = 12
    wins = sum(greedy_win_share(players, games) for players in PLAYERS)
    chance = sum(games / players for players in PLAYERS)
    assert wins >= 1.5 * chance, (wins, chance)


@pytest.mark.spec("2.6")
def test_greedy_bot_breaks_ties_with_its_own_seed() -> None:
    # Seat 0 of this deal has several equally weak pairs to discard: GreedyBots with different seeds
    # pick different ones, and one seed always picks the same.
    state = engine.deal(GameConfig(players=5), 0)
    view = player_view(state, 0)
    legal = engine.legal_actions(state, 0)
    a = [GreedyBot(s).choose(view, legal) for s in range(20)]
    b = [GreedyBot(s).choose(view, legal) for s in range(20)]
    assert a == b
    assert len(set(a)) > 1
    assert set(a) <= set(legal)


def _victor_cards_played(state: GameState, seat: int) -> int:
    return sum(1 for r in state.history for p in r.table.plays if p.seat == seat and p.faction is state.victors[seat])


@pytest.mark.spec("4.3")
def test_rising_greedy_bots_play_their_victor_faction_to_the_revolution() -> None:
    # All-greedy games start rising: they play cards of their victor faction to the revolution side
    # far more than a random seat, whose plays spread over five factions.
    greedy = run_game(GameConfig(players=3), 2, [GreedyBot(s) for s in range(3)])
    random_game = run_game(GameConfig(players=3), 2, [RandomBot(s) for s in range(3)])
    victor_share = sum(_victor_cards_played(greedy, s) for s in range(3))
    random_share = sum(_victor_cards_played(random_game, s) for s in range(3))
    assert victor_share > 2 * random_share
