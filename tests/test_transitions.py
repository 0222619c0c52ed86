"""Transitions over whole games: simultaneous vs per-seat play, forced choices, determinism, replay and
card conservation (spec 9.2, 9.3, rules 1.2-1.4, 3.1, ruling N, ruling O).

The games are driven by a seeded random driver written here (``builders.drive`` /
``builders.choose_all``), not by the library's bots.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from builders import check_conservation, choose_all, drive, one_by_one, reference_month, reference_week
from builders import random_choice, reference_winners, simultaneous
from hypothesis import given, settings
from hypothesis import strategies as st

from darkempire.rules import engine
from darkempire.rules.actions import Action, ChooseSupport, PlayCard, Reinforce, Reorganize, Side
from darkempire.rules.cards import Faction
from darkempire.rules.scoring import VerdictReason
from darkempire.rules.state import GameConfig, GameState, Phase

PLAYER_COUNTS = (3, 4, 5)


@attrs.frozen
class Game:
    """A whole game: every state after a step, and every (seat, action) choice in the order applied."""

    states: tuple[GameState, ...]
    choices: tuple[tuple[int, Action], ...]
    #: ``len(choices)`` after each step: replaying ``choices[:ends[k]]`` gives ``states[k + 1]``.
    ends: tuple[int, ...]

    @property
    def final(self) -> GameState:
        return self.states[-1]


def loyal_choice(state: GameState, seat: int, rng: random.Random) -> Action:
    """A random legal action that never helps the emperor nor throws away more than one card, so that whole
    games also end in revolutions and too-powerful leaders (uniformly random play feeds the emperor)."""
    actions = engine.legal_actions(state, seat)
    table = state.table

    def loyal(action: Action) -> bool:
        if isinstance(action, PlayCard):
            return action.side is Side.REVOLUTION
        if isinstance(action, Reinforce):
            assert table is not None
            target = table.play_of(action.target)
            return target is not None and target.side is Side.REVOLUTION
        if isinstance(action, Reorganize):
            return len(action.discards) <= 1
        return True

    return rng.choice([a for a in actions if loyal(a)] or list(actions))


LOYAL_SEEDS = range(100, 103)


def play_game(players: int, seed: int, *, check_apply: bool = True) -> Game:
    """Play a whole game with random choices (loyal ones for seeds in :data:`LOYAL_SEEDS`); every step is
    resolved through the simultaneous transition and, when ``check_apply``, also seat by seat in both
    orders, which must give the same state (rule 9.2)."""
    chooser = loyal_choice if seed in LOYAL_SEEDS else random_choice
    rng = random.Random(seed * 7919 + players)
    state = engine.deal(GameConfig(players=players), seed)
    states = [state]
    choices: list[tuple[int, Action]] = []
    ends: list[int] = []
    while not state.is_over:
        check_step(state)
        chosen = choose_all(state, rng, chooser)
        assert chosen, f"no seat awaited in the decision phase {state.phase}"
        after = simultaneous(state, chosen)
        if check_apply:
            assert one_by_one(state, chosen) == after
            reverse = state
            for seat in sorted(chosen, reverse=True):
                reverse = engine.apply(reverse, seat, chosen[seat])
            assert reverse == after
        choices += sorted(chosen.items(), key=lambda item: item[0])
        ends.append(len(choices))
        state = after
        states.append(state)
    check_conservation(state)
    return Game(tuple(states), tuple(choices), tuple(ends))


def check_step(state: GameState) -> None:
    """Checks at every decision point: card conservation, and awaited seats are exactly those with legal
    actions (ruling N: the others are not asked)."""
    check_conservation(state)
    assert state.phase.is_decision
    assert all(p is None for p in state.pending)
    awaited = engine.awaited_seats(state)
    for seat in state.seats:
        actions = engine.legal_actions(state, seat)
        assert bool(actions) == (seat in awaited)
        if state.phase not in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3):
            # Outside the play steps a single legal action is made for the seat, so an awaited seat has two.
            assert len(actions) != 1


GAMES = {(p, seed): play_game(p, seed) for p in PLAYER_COUNTS for seed in (*range(3), *LOYAL_SEEDS)}


# --------------------------------------------------------------------------- whole games


@pytest.mark.spec("3.1", "8.1", "9.2", "R-N", "R-O")
@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_a_whole_game_reaches_a_verdict(players: int, seed: int) -> None:
    game = GAMES[(players, seed)]
    final = game.final
    assert final.phase is Phase.GAME_OVER and final.verdict is not None
    assert final.verdict == engine.judge_winner(final)
    assert engine.awaited_seats(final) == frozenset()
    assert len(final.history) == 12
    assert [(r.month, r.week) for r in final.history] == [(m, w) for m in (1, 2, 3) for w in (1, 2, 3, 4)]
    assert [m.month for m in final.month_scores] == [1, 2, 3]
    # Eleven re-organizes: none after the twelfth week (ruling O).
    reorganizes = sum(1 for a, b in zip(game.states, game.states[1:]) if a.phase is Phase.REORGANIZE)
    assert reorganizes == 11
    # Each seat used three different temporary support cards (rule 3.2).
    assert all(len(used) == 3 for used in final.support_used)
    # Banked tokens are exactly the weekly tokens plus the monthly bonuses (rules 5.4, 7.2, 7.3).
    weekly = [sum(r.score.tokens[s] for r in final.history) for s in final.seats]
    bonus = [sum(m.bonus[s] for m in final.month_scores) for s in final.seats]
    assert final.banked_tokens == tuple(w + b for w, b in zip(weekly, bonus))
    assert final.month_tokens == (0,) * players
    # The verdict's totals: printed values of the scored cards + the banked tokens of the victor's seat.
    totals = [0] * 5
    for scored in final.score_track.faction_cards:
        assert scored.card.faction is not None
        totals[scored.card.faction] += scored.card.value
    for seat, faction in enumerate(final.victors):
        totals[faction] += final.banked_tokens[seat]
    assert final.verdict.totals == tuple(totals)
    assert final.verdict.emperor_total == sum(s.card.value for s in final.score_track.emperor_cards)
    assert final.verdict.winners and final.verdict.winners <= set(final.seats)


@pytest.mark.spec("1.2", "1.3", "1.4", "6.4", "R-S")
@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_every_card_is_in_exactly_one_place_at_every_step(players: int, seed: int) -> None:
    for state in GAMES[(players, seed)].states:
        check_conservation(state)


@pytest.mark.spec("2.2", "2.3", "2.4", "3.3", "4.1")
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_and_month_piles(players: int) -> None:
    states = GAMES[(players, 0)].states
    first = states[0]
    assert len(set(first.victors)) == players
    assert len(first.revolution_pile) == 4 and len(first.emperor_pile) == 4
    for state in states:
        if state.phase is Phase.CHOOSE_SUPPORT:
            # At the start of a month: 4 of the 5 revolution cards, min(4, unscored) emperor cards.
            assert len(state.revolution_pile) == 4
            unscored = 8 - len(state.score_track.emperor_cards)
            assert len(state.emperor_pile) == min(4, unscored)
        if state.phase is Phase.PLAY_1 and state.table is not None and state.table.emperor_card is not None:
            assert state.table.add_on is GameConfig(players=players).add_on


@pytest.mark.spec("5.6", "R-E", "R-N")
@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_every_placement_due_is_made_with_one_of_its_candidates(players: int, seed: int) -> None:
    for record in GAMES[(players, seed)].final.history:
        placed = Counter((s.seat, s.card.faction) for s in record.placed)
        assert placed == Counter((d.seat, d.faction) for d in record.score.placements)
        for scored in record.placed:
            due = next(d for d in record.score.placements if d.seat == scored.seat and d.faction == scored.faction)
            assert scored.card in due.candidates


@pytest.mark.spec("6.4", "R-K")
@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_hands_are_refilled_to_seven_while_cards_remain(players: int, seed: int) -> None:
    for state in GAMES[(players, seed)].states:
        if state.phase is Phase.PLAY_1 and (state.draw_pile or state.discard_pile):
            assert all(len(hand) == 7 for hand in state.hands)


@pytest.mark.spec("5.1", "5.4", "5.5", "5.7", "7.1", "7.2", "8.2", "8.3", "8.4", "8.5")
@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_every_scoring_of_the_game_agrees_with_an_independent_reading(players: int, seed: int) -> None:
    final = GAMES[(players, seed)].final
    for record in final.history:
        ref = reference_week(record.table)
        assert record.score.strengths == ref.strengths
        assert record.score.emperor_strength == ref.emperor_strength
        assert record.score.tokens == ref.tokens
        assert record.score.emperor_scored == ref.emperor_scored
        assert {(d.seat, d.faction) for d in record.score.placements} == set(ref.placements)
    for month in final.month_scores:
        placed = [s.card for s in final.score_track.faction_cards if s.month == month.month]
        tokens = [sum(r.score.tokens[s] for r in final.history if r.month == month.month) for s in final.seats]
        totals, bonus = reference_month(placed, tokens, month.support)
        assert month.totals == totals and month.bonus == bonus
    assert final.verdict is not None
    reason, winners = reference_winners(
        final.score_track.card_points(), final.score_track.emperor_total, final.banked_tokens, final.victors
    )
    assert final.verdict.winners == winners
    expected = {"emperor": "emperor victory", "revolution": "revolution", "too powerful": "leader too powerful"}
    assert final.verdict.reason.value == expected[reason]


@pytest.mark.spec("8.2", "8.3", "8.4")
def test_the_recorded_games_reach_every_kind_of_verdict() -> None:
    reasons = {game.final.verdict.reason for game in GAMES.values() if game.final.verdict is not None}
    assert reasons == set(VerdictReason)


# --------------------------------------------------------------------------- forced choices


@pytest.mark.spec("9.2", "R-N")
def test_forced_placements_are_made_without_being_awaited() -> None:
    forced = 0
    for game in GAMES.values():
        for before, after in zip(game.states, game.states[1:]):
            if after.phase is Phase.PLACEMENT:
                assert after.week_score is not None
                for due in after.week_score.placements:
                    combos = 1
                    for other in after.week_score.placements:
                        if other.seat == due.seat:
                            combos *= len(other.candidates)
                    assert (due.seat in engine.awaited_seats(after)) == (combos >= 2)
                    forced += combos == 1
    assert forced > 0, "no forced placement in these games: choose other seeds"


@pytest.mark.spec("9.2", "R-N")
def test_placement_with_one_choice_per_seat_is_not_awaited() -> None:
    """Among the recorded games, find a week where placements were all forced: no PLACEMENT state was
    ever offered to the seats, and the cards are on the score track."""
    found = False
    for game in GAMES.values():
        placement_weeks = {(s.month, s.week) for s in game.states if s.phase is Phase.PLACEMENT}
        for record in game.final.history:
            dues = record.score.placements
            if dues and all(len(d.candidates) == 1 for d in dues):
                assert (record.month, record.week) not in placement_weeks
                assert {s.card for s in record.placed} == {d.candidates[0] for d in dues}
                found = True
    assert found


# --------------------------------------------------------------------------- determinism and replay


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_same_seed_and_choices_give_the_same_states(players: int) -> None:
    again = play_game(players, 1, check_apply=False)
    assert again.states == GAMES[(players, 1)].states
    assert hash(again.final) == hash(GAMES[(players, 1)].final)
    assert engine.deal(GameConfig(players=players), 1) == engine.deal(GameConfig(players=players), 1)
    assert engine.deal(GameConfig(players=players), 1) != engine.deal(GameConfig(players=players), 2)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(("players", "seed"), sorted(GAMES))
def test_replay_reproduces_the_game(players: int, seed: int) -> None:
    game = GAMES[(players, seed)]
    assert engine.replay(GameConfig(players=players), seed, game.choices) == game.final
    for k in (0, len(game.ends) // 3, len(game.ends) // 2):
        assert engine.replay(GameConfig(players=players), seed, game.choices[: game.ends[k]]) == game.states[k + 1]
    assert engine.replay(GameConfig(players=players), seed, ()) == game.states[0]


@pytest.mark.spec("9.3")
def test_transitions_do_not_change_their_input() -> None:
    game = GAMES[(4, 2)]
    rng = random.Random(0)
    for state in game.states[:-1]:
        copy = attrs.evolve(state)
        simultaneous(state, choose_all(state, rng))
        assert state == copy


# --------------------------------------------------------------------------- property: many seeds


@pytest.mark.spec("1.2", "1.3", "1.4", "9.2", "9.3")
@settings(max_examples=20, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_conserve_cards_and_end(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = engine.deal(GameConfig(players=players), seed)
    while not state.is_over:
        check_conservation(state)
        state = simultaneous(state, choose_all(state, rng))
    check_conservation(state)
    assert state.verdict is not None and state.verdict.winners


@pytest.mark.spec("3.2", "9.2")
def test_support_choices_stay_pending_until_every_seat_chose() -> None:
    state = drive(engine.deal(GameConfig(players=3), 4), random.Random(4),
                  until=lambda s: s.phase is Phase.CHOOSE_SUPPORT)
    partial = engine.apply(state, 0, ChooseSupport(Faction.WORKERS))
    assert partial.phase is Phase.CHOOSE_SUPPORT
    assert partial.support == (None, None, None)
    assert partial.pending[0] == ChooseSupport(Faction.WORKERS)
    assert engine.awaited_seats(partial) == frozenset({1, 2})
    assert engine.legal_actions(partial, 0) == ()
    done = engine.apply(partial, 2, ChooseSupport(Faction.WORKERS))
    done = engine.apply(done, 1, ChooseSupport(Faction.STUDENTS))
    assert done.phase is Phase.PLAY_1 and done.week == 1
    assert done.support == (Faction.WORKERS, Faction.STUDENTS, Faction.WORKERS)
    assert done.pending == (None, None, None)
