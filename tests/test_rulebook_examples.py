"""The rulebook's three worked examples, reproduced exactly (rules 5.1-5.7, 7.1-7.3, 8.1-8.4).

Every expected figure below is the rulebook's own, or is worked out by hand
from the rulebook's sums; none is read back from the engine.
"""

from __future__ import annotations

import pytest
from builders import CO, ME, ST, SU, W, build, card, check_conservation, emperor, plus, rev_play, scored_emperor_cards
from builders import traitor_play, week_table

from darkempire.rules import engine
from darkempire.rules.actions import PlaceCards, PlayCard, Reinforce, Side
from darkempire.rules.cards import AddOnCard, HandCard
from darkempire.rules.scoring import AwardReason, PlacementDue, TokenAward, VerdictReason, final_verdict
from darkempire.rules.scoring import score_month_tally, score_table
from darkempire.rules.state import Phase, ScoredCard
from darkempire.rules.table import WeekTable

# --------------------------------------------------------------------------- weekly scoring
#
# "The player on the right has placed a card as a 'traitor' next to the emperor card - thus the
# emperor has a total of 21 (5 + 10 + 6). The calendrical order ends with a total of 25 points
# (11 + 8 + 3 + 9 - 6). The students end with a total of 15 points (7 + 8). [...] The player in the
# foreground has supported the strongest faction the most (11) and has also played the highest card
# for this faction (again 11). He gains 3 points in the form of tokens and places his '8' to the
# score track - without its reinforcement card."
#
# 4 players ("5 +" add-on). Seat 0 is the player in the foreground, seat 3 the player on the right.
#   11 = seat 0's Calendrical Order 8 with a reinforcement (attached by seat 1: whoever attaches it,
#        it counts for the card's owner, ruling C)
#    8 = seat 1's Calendrical Order 8
#    9 = seat 2's Calendrical Order 6 with its own reinforcement
#    3 = the Calendrical Order revolution card
#   -6 = seat 3's Calendrical Order 6 played as a traitor card
#   Students 7 (seat 3) + 8 (seat 1); the other factions stay well below 25.

CO8_LEAD = card(CO, 8, 0)
CO8_OTHER = card(CO, 8, 1)
CO6_REINFORCED = card(CO, 6, 0)
CO6_TRAITOR = card(CO, 6, 1)
ST7 = card(ST, 7, 0)
ST8 = card(ST, 8, 0)
PLUS_ON_LEAD = plus(0)
PLUS_ON_SIX = plus(1)
W5 = card(W, 5, 0)
ME4 = card(ME, 4, 0)
SU6 = card(SU, 6, 0)
W4 = card(W, 4, 0)

STEP_1: dict[int, PlayCard | Reinforce] = {0: PlayCard(CO8_LEAD), 1: PlayCard(CO8_OTHER), 2: PlayCard(CO6_REINFORCED), 3: PlayCard(ST7)}
STEP_2: dict[int, PlayCard | Reinforce] = {
    0: PlayCard(W5),
    1: Reinforce(PLUS_ON_LEAD, CO8_LEAD),
    2: Reinforce(PLUS_ON_SIX, CO6_REINFORCED),
    3: PlayCard(CO6_TRAITOR, Side.EMPEROR),
}
STEP_3: dict[int, PlayCard | Reinforce] = {0: PlayCard(ME4), 1: PlayCard(ST8), 2: PlayCard(SU6), 3: PlayCard(W4)}


def weekly_example_table() -> WeekTable:
    """The example's table after the three play steps, built by hand."""
    return week_table(
        4,
        CO,
        emperor(10),
        (
            rev_play(0, CO8_LEAD, 1, [(PLUS_ON_LEAD, 1, 2)]),
            rev_play(1, CO8_OTHER, 1),
            rev_play(2, CO6_REINFORCED, 1, [(PLUS_ON_SIX, 2, 2)]),
            rev_play(3, ST7, 1),
            rev_play(0, W5, 2),
            traitor_play(3, CO6_TRAITOR, 2),
            rev_play(0, ME4, 3),
            rev_play(1, ST8, 3),
            rev_play(2, SU6, 3),
            rev_play(3, W4, 3),
        ),
    )


@pytest.mark.spec("5.1", "5.2", "5.3", "5.4", "5.5", "R-B", "R-C", "R-D", "R-E", "R-F")
def test_weekly_scoring_example_as_a_table() -> None:
    score = score_table(weekly_example_table())
    assert score.emperor_strength == 5 + 10 + 6 == 21
    assert score.strength(CO) == 11 + 8 + 3 + 9 - 6 == 25
    assert score.strength(ST) == 7 + 8 == 15
    assert score.strengths == (5 + 4, 25, 6, 4, 15)
    assert score.strongest == frozenset({CO})
    assert [row[CO] for row in score.support] == [11, 8, 9, 0]
    assert score.awards == (
        TokenAward(0, CO, 2, AwardReason.MOST_SUPPORT),
        TokenAward(0, CO, 1, AwardReason.HIGHEST_CARD),
    )
    assert score.tokens == (3, 0, 0, 0)
    assert score.emperor_scored is False  # 25 > 21
    assert score.placements == (PlacementDue(0, CO, (CO8_LEAD,)),)


@pytest.mark.spec("4.2", "4.3", "4.6", "5.4", "5.5", "5.7", "R-E", "R-N", "R-S")
def test_weekly_scoring_example_through_the_engine() -> None:
    hands: dict[int, list[HandCard]] = {
        0: [CO8_LEAD, W5, ME4],
        1: [CO8_OTHER, PLUS_ON_LEAD, ST8],
        2: [CO6_REINFORCED, PLUS_ON_SIX, SU6],
        3: [ST7, CO6_TRAITOR, W4],
    }
    start = build(4, Phase.PLAY_1, hands=hands, table=week_table(4, CO, emperor(10), steps_revealed=0))
    assert start.table is not None and start.table.add_on is AddOnCard.FIVE_PLUS
    state = engine.play(start, STEP_1)
    state = engine.play(state, STEP_2)
    state = engine.play(state, STEP_3)

    record = state.history[-1]
    assert record.table == weekly_example_table()
    assert record.score.tokens == (3, 0, 0, 0)
    assert state.month_tokens == (3, 0, 0, 0)
    # Seat 0 supported with the one card (its 8): the placement has a single candidate and is made
    # for it (ruling N); the 8 scores its printed value, without the reinforcement (rule 5.5).
    assert state.score_track.faction_cards == (ScoredCard(CO8_LEAD, 0, 1, 1),)
    assert state.score_track.card_points() == (0, 8, 0, 0, 0)
    assert record.placed == (ScoredCard(CO8_LEAD, 0, 1, 1),)
    assert state.score_track.emperor_cards == ()
    assert state.phase is Phase.REORGANIZE
    assert state.table is not None
    assert state.table.play_of(CO8_LEAD) is None
    assert state.table.emperor_card == emperor(10)  # not scored: laid aside at re-organize
    # The placed card's reinforcement leaves the table at once, to the discard pile (ruling S).
    assert PLUS_ON_LEAD in state.discard_pile
    assert PLUS_ON_SIX not in state.discard_pile
    assert all(len(h) == 4 for h in state.hands)
    check_conservation(state)


@pytest.mark.spec("5.6", "R-E")
def test_weekly_scoring_example_with_a_choice_of_cards_to_place() -> None:
    """The same week, but the leading seat also plays a Calendrical Order 4 at step 3: its support is
    15, it still has the single highest card (11), and it chooses which card goes to the score track."""
    co4 = card(CO, 4, 0)
    hands: dict[int, list[HandCard]] = {
        0: [CO8_LEAD, W5, co4],
        1: [CO8_OTHER, PLUS_ON_LEAD, ST8],
        2: [CO6_REINFORCED, PLUS_ON_SIX, SU6],
        3: [ST7, CO6_TRAITOR, W4],
    }
    start = build(4, Phase.PLAY_1, hands=hands, table=week_table(4, CO, emperor(10), steps_revealed=0))
    state = engine.play(engine.play(start, STEP_1), STEP_2)
    state = engine.play(state, {**STEP_3, 0: PlayCard(co4)})
    assert state.phase is Phase.PLACEMENT
    assert state.history[-1].score.strength(CO) == 25 + 4
    assert engine.awaited_seats(state) == frozenset({0})
    options = {frozenset(a.cards) for a in engine.legal_actions(state, 0)}  # type: ignore[union-attr]
    assert options == {frozenset({CO8_LEAD}), frozenset({co4})}
    placed = engine.place_cards(state, {0: PlaceCards(frozenset({CO8_LEAD}))})
    assert placed.score_track.faction_cards == (ScoredCard(CO8_LEAD, 0, 1, 1),)
    assert placed.month_tokens == (3, 0, 0, 0)
    assert placed.table is not None and placed.table.play_of(co4) is not None  # the 4 goes back to the table
    assert PLUS_ON_LEAD in placed.discard_pile


# --------------------------------------------------------------------------- monthly scoring
#
# "Example of monthly scoring (4 players): In one of the weeks, two factions were tied, so five cards
# were moved to the score track. [...] Cal. Order: 0 points; Workers: 8 + 6 = 14 points;
# Mechandros: 0 + 4 = 4 points; Students: 6 + 0 = 6 points; Suffragettes: 10 + 0 + 4 = 14 points.
# Players 1, 2 and 4 have supported the strongest factions (workers and suffragettes), so each of
# them gains 2 points."
#
# The first term of each sum is the faction's placed cards, the others are the month tokens of the
# seats supporting it: five cards Workers 4 + 4, Suffragettes 4 + 6, Students 6; player 1 (seat 0)
# supports the Workers with 6 tokens, players 2 and 4 (seats 1, 3) the Suffragettes with 0 and 4,
# player 3 (seat 2) the Mechandros with 4. Nobody supports the Calendrical Order or the Students.

MONTH_PLACED = (card(W, 4, 0), card(W, 4, 1), card(SU, 4, 0), card(SU, 6, 0), card(ST, 6, 0))
MONTH_TOKENS = (6, 0, 4, 4)
MONTH_SUPPORT = (W, SU, ME, SU)


@pytest.mark.spec("7.1", "7.2", "R-L")
def test_monthly_scoring_example_as_a_tally() -> None:
    score = score_month_tally(MONTH_PLACED, MONTH_TOKENS, MONTH_SUPPORT)
    assert score.card_points == (8, 0, 10, 0, 6)
    assert score.totals == (8 + 6, 0, 10 + 0 + 4, 0 + 4, 6 + 0)
    assert score.totals[W] == score.totals[SU] == 14
    assert score.strongest == frozenset({W, SU})
    assert score.bonus == (2, 2, 0, 2)


@pytest.mark.spec("7.1", "7.2", "7.3", "7.4", "R-L")
def test_monthly_scoring_example_through_the_engine() -> None:
    """The example as the end of month 2: month 1's cards and banked tokens must not count again."""
    month_1 = (ScoredCard(card(ST, 8, 0), 0, 1, 2), ScoredCard(card(ME, 7, 0), 2, 1, 3))
    month_2 = tuple(ScoredCard(c, seat, 2, week) for c, seat, week in zip(MONTH_PLACED, (0, 0, 3, 1, 2), (1, 2, 2, 3, 4)))
    banked = (5, 1, 0, 7)
    used = (frozenset({ST}), frozenset({W}), frozenset({CO}), frozenset({ME}))
    state = build(
        4,
        Phase.MONTH_SCORING,
        month=2,
        week=4,
        track=month_1 + month_2,
        scored_emperor=scored_emperor_cards([emperor(13), emperor(9)], month=1),
        support=MONTH_SUPPORT,
        support_used=used,
        month_tokens=MONTH_TOKENS,
        banked_tokens=banked,
    )
    after = engine.score_month(state)

    score = after.month_scores[-1]
    assert score.month == 2
    assert score.totals == (14, 0, 14, 4, 6)
    assert score.strongest == frozenset({W, SU})
    assert score.bonus == (2, 2, 0, 2)
    assert after.banked_tokens == (5 + 6 + 2, 1 + 0 + 2, 0 + 4 + 0, 7 + 4 + 2)
    assert after.month_tokens == (0, 0, 0, 0)
    assert after.support_used == (frozenset({ST, W}), frozenset({W, SU}), frozenset({CO, ME}), frozenset({ME, SU}))
    assert after.phase is Phase.CHOOSE_SUPPORT and after.month == 3 and after.week == 0
    assert after.support == (None, None, None, None)
    # The retired support cards can no longer be chosen (rule 3.2).
    chosen = {a.faction for a in engine.legal_actions(after, 0)}  # type: ignore[union-attr]
    assert chosen == {CO, SU, ME}
    check_conservation(after)


# --------------------------------------------------------------------------- final scoring
#
# "The students seize power having gained a total of 45 points. The emperor flees the country.
# However, since the students are 16 points ahead of the mechandros condition 3 takes place.
# Therefore, the player with the mechandros 'victor' card wins the game."
#
# 4 players; nobody holds the Calendrical Order. Cards + banked tokens:
#   Students 37 + 8 = 45 (seat 0), Mechandros 21 + 8 = 29 (seat 1), Suffragettes 20 + 6 = 26 (seat 3),
#   Workers 12 + 5 = 17 (seat 2), Calendrical Order 8. Emperor 8 + 11 + 13 = 32: ahead of the
#   Mechandros but behind the Students, so the emperor flees.

FINAL_CARDS = (12, 8, 20, 21, 37)
FINAL_BANKED = (8, 8, 5, 6)
FINAL_VICTORS = (ST, ME, W, SU)


@pytest.mark.spec("8.1", "8.3", "8.4", "R-M")
def test_final_scoring_example_from_the_track() -> None:
    verdict = final_verdict(FINAL_CARDS, 32, FINAL_BANKED, FINAL_VICTORS)
    assert verdict.totals == (17, 8, 26, 29, 45)
    assert verdict.totals[ST] - verdict.totals[ME] == 16
    assert verdict.reason is VerdictReason.LEADER_TOO_POWERFUL
    assert verdict.too_powerful is ST
    assert verdict.winners == frozenset({1})
    assert verdict.winning_factions == frozenset({ME})
    assert verdict.card_points == FINAL_CARDS
    assert verdict.emperor_total == 32
    same = engine.judge_winner(
        card_points=FINAL_CARDS, emperor_total=32, banked_tokens=FINAL_BANKED, victors=FINAL_VICTORS
    )
    assert same == verdict


@pytest.mark.spec("8.1", "8.3", "8.4", "R-M")
def test_final_scoring_example_from_a_finished_game() -> None:
    track_cards = {
        W: [card(W, 4, 0), card(W, 8, 0)],
        CO: [card(CO, 8, 0)],
        SU: [card(SU, 4, 0), card(SU, 5, 0), card(SU, 5, 1), card(SU, 6, 0)],
        ME: [card(ME, 4, 0), card(ME, 5, 0), card(ME, 6, 0), card(ME, 6, 1)],
        ST: [card(ST, v, k) for v, k in ((4, 0), (4, 1), (4, 2), (5, 0), (5, 1), (7, 0), (8, 0))],
    }
    assert tuple(sum(c.value for c in track_cards[f]) for f in (W, CO, SU, ME, ST)) == FINAL_CARDS
    track = tuple(ScoredCard(c, 0, 1 + k % 3, 1 + k % 4) for k, c in enumerate(sum(track_cards.values(), [])))
    state = build(
        4,
        Phase.GAME_OVER,
        month=3,
        week=4,
        track=track,
        scored_emperor=scored_emperor_cards([emperor(8), emperor(11), emperor(13)]),
        victors=FINAL_VICTORS,
        banked_tokens=FINAL_BANKED,
    )
    verdict = engine.judge_winner(state)
    assert verdict.reason is VerdictReason.LEADER_TOO_POWERFUL
    assert verdict.winners == frozenset({1})
    assert verdict.totals == (17, 8, 26, 29, 45)
    assert verdict.emperor_total == 32


# --------------------------------------------------------------------------- the spec's further examples
#
# spec/darkempire/rules.md completes the rulebook with examples T (weekly ties), E (emperor victory) and R (revolution
# with an unheld leader). Their figures are re-derived here by hand.


@pytest.mark.spec("5.4", "5.5", "5.6", "5.7", "R-D", "R-E", "R-F", "R-N")
def test_spec_example_t_tied_factions_tie_with_the_emperor() -> None:
    # 3 players, revolution card Students, emperor card 11, no add-on.
    st8, st4, w8, w7, me5 = card(ST, 8), card(ST, 4), card(W, 8), card(W, 7), card(ME, 5)
    hands: dict[int, list[HandCard]] = {
        0: [st8, w7, st4],
        1: [w8, me5, plus(0)],
        2: [card(SU, 4), card(SU, 6), card(CO, 5)],
    }
    state = build(3, Phase.PLAY_1, hands=hands, table=week_table(3, ST, emperor(11), steps_revealed=0))
    state = engine.play(state, {0: PlayCard(st8), 1: PlayCard(w8), 2: PlayCard(card(SU, 4), Side.EMPEROR)})
    state = engine.play(state, {0: PlayCard(w7), 1: PlayCard(me5), 2: PlayCard(card(SU, 6))})
    state = engine.play(state, {0: PlayCard(st4), 1: Reinforce(plus(0), me5), 2: PlayCard(card(CO, 5))})
    score = state.history[-1].score
    # Workers 8 + 7 = 15, Cal. Order 5, Suffragettes 6 - 4 = 2, Mechandros 5 + 3 = 8, Students 3 + 8 + 4 = 15;
    # emperor 11 + 4 = 15.
    assert score.strengths == (15, 5, 2, 8, 15)
    assert score.emperor_strength == 15
    assert score.tokens == (3, 3, 0)
    assert state.month_tokens == (3, 3, 0)
    # The emperor ties: its card is scored at its printed 11; seat 1's only Workers card is placed for it;
    # seat 0 chooses between its Students 8 and 4.
    assert state.score_track.emperor_total == 11
    assert state.phase is Phase.PLACEMENT
    assert engine.awaited_seats(state) == frozenset({0})
    assert {a for a in engine.legal_actions(state, 0)} == {PlaceCards(frozenset({st8})), PlaceCards(frozenset({st4}))}
    after = engine.place_cards(state, {0: PlaceCards(frozenset({st8}))})
    assert after.score_track.faction_cards == (ScoredCard(st8, 0, 1, 1), ScoredCard(w8, 1, 1, 1))
    assert after.score_track.card_points() == (8, 0, 0, 0, 8)
    assert plus(0) not in after.discard_pile  # the reinforcement was on the Mechandros 5, which stays
    check_conservation(after)


@pytest.mark.spec("8.1", "8.2", "8.5", "R-M")
def test_spec_example_e_emperor_victory_tie_goes_to_fewer_card_points() -> None:
    # Seats hold Workers, Suffragettes, Mechandros, Students; the Cal. Order (9) is unheld.
    verdict = final_verdict((14, 9, 16, 10, 20), 10 + 11 + 12, (6, 5, 10, 4), (W, SU, ME, ST))
    assert verdict.totals == (20, 9, 21, 20, 24)
    assert verdict.reason is VerdictReason.EMPEROR_VICTORY
    assert verdict.winners == frozenset({2})  # Mechandros: 10 card points < the Workers' 14


@pytest.mark.spec("8.1", "8.3", "8.5", "R-M")
def test_spec_example_r_unheld_leader_and_a_tie_on_more_card_points() -> None:
    # 3 players hold Workers (cards 30), Students (cards 27), Mechandros; Cal. Order 38 and Suffragettes 12 unheld.
    verdict = final_verdict((30, 38, 12, 20, 27), 21, (6, 9, 8), (W, ST, ME))
    assert verdict.totals == (36, 38, 12, 28, 36)
    assert verdict.reason is VerdictReason.REVOLUTION
    assert verdict.too_powerful is None
    assert verdict.winners == frozenset({0})


@pytest.mark.spec("8.1", "8.3", "8.4", "R-M")
def test_spec_example_f_completed_final_example() -> None:
    verdict = final_verdict((20, 12, 18, 21, 33), 10 + 8 + 12, (12, 8, 5, 4), (ST, ME, W, SU))
    assert verdict.totals == (25, 12, 22, 29, 45)
    assert verdict.reason is VerdictReason.LEADER_TOO_POWERFUL
    assert verdict.winners == frozenset({1})
