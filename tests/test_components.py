"""Rules 1.1 to 1.6: the game's components, as the engine's values hold them.

Expected numbers are the spec's (spec/darkempire/rules.md section 1), written out here, not read from the engine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from builders import choose_all, drive, simultaneous

from darkempire.rules import engine
from darkempire.rules.actions import ChooseSupport
from darkempire.rules.cards import (
    EMPEROR_CARDS,
    FACTION_CARDS,
    HAND_CARDS,
    REINFORCEMENT_CARDS,
    REVOLUTION_CARDS,
    AddOnCard,
    Faction,
    Theme,
    faction_name,
)
from darkempire.rules.scoring import final_verdict, score_month_tally, score_table
from darkempire.rules.state import GameConfig, Phase

# Rule 1.1's table: order, Steam Noir name, Dark Empire name.
NAMES = [
    ("Workers", "Beggars"),
    ("Calendrical Order", "City Guard"),
    ("Suffragettes", "Alchemists"),
    ("Mechandros", "Apparats"),
    ("Students", "Students"),
]


@pytest.mark.spec("1.1")
def test_five_factions_in_the_spec_order_with_the_names_of_both_themes() -> None:
    assert [int(f) for f in Faction] == [0, 1, 2, 3, 4]
    assert [faction_name(f, Theme.STEAM_NOIR) for f in Faction] == [sn for sn, _ in NAMES]
    assert [faction_name(f, Theme.DARK_EMPIRE) for f in Faction] == [de for _, de in NAMES]
    assert [faction_name(f) for f in Faction] == [sn for sn, _ in NAMES]  # the default theme


@pytest.mark.spec("1.1", "5.1")
def test_no_rule_depends_on_the_theme() -> None:
    """Scoring reads factions, never names: the same table scores the same whichever theme is shown."""
    month = score_month_tally([FACTION_CARDS[0]], [0, 0, 0], [Faction.WORKERS, Faction.STUDENTS, Faction.STUDENTS])
    assert month.strongest == {Faction.WORKERS}
    assert {faction_name(f, theme) for f in month.strongest for theme in Theme} == {"Workers", "Beggars"}


@pytest.mark.spec("1.2")
def test_seventy_five_distinct_hand_cards_65_faction_cards_and_10_reinforcements() -> None:
    assert len(HAND_CARDS) == 75
    assert len(set(HAND_CARDS)) == 75  # two Workers 4s are two different cards
    assert [c.id for c in HAND_CARDS] == list(range(75))
    assert len(FACTION_CARDS) == 65 and len(REINFORCEMENT_CARDS) == 10
    for faction in Faction:
        values = sorted(c.value for c in FACTION_CARDS if c.faction is faction)
        assert values == [4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8]
        assert sum(values) == 75
    assert all(c.faction is None and c.value == 3 and c.is_reinforcement for c in REINFORCEMENT_CARDS)
    assert not any(c.is_reinforcement for c in FACTION_CARDS)


@pytest.mark.spec("1.2", "2.4")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_only_hand_cards_are_dealt(players: int) -> None:
    state = engine.deal(GameConfig(players=players), seed=players)
    dealt = [c for hand in state.hands for c in hand] + list(state.draw_pile)
    assert sorted(c.id for c in dealt) == list(range(75))


@pytest.mark.spec("1.3")
def test_eight_emperor_cards_and_two_add_on_cards() -> None:
    assert sorted(e.value for e in EMPEROR_CARDS) == [8, 9, 10, 10, 11, 11, 12, 13]
    assert sum(e.value for e in EMPEROR_CARDS) == 84
    assert len({e.id for e in EMPEROR_CARDS}) == 8
    assert {a: int(a) for a in AddOnCard} == {AddOnCard.FIVE_PLUS: 5, AddOnCard.TEN_PLUS: 10}


@pytest.mark.spec("1.3", "3.3")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_add_on_card_is_never_in_an_emperor_pile(players: int) -> None:
    state = engine.deal(GameConfig(players=players), seed=7)
    piles = list(state.emperor_pile) + list(state.emperor_reserve)
    assert sorted(piles, key=lambda e: e.id) == list(EMPEROR_CARDS)


@pytest.mark.spec("1.4")
def test_five_revolution_cards_one_per_faction_worth_three() -> None:
    assert [r.faction for r in REVOLUTION_CARDS] == list(Faction)
    assert all(r.value == 3 for r in REVOLUTION_CARDS)


@pytest.mark.spec("1.5", "2.3")
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(8))
def test_each_seat_gets_one_distinct_victor_card_and_a_full_support_set(players: int, seed: int) -> None:
    state = engine.deal(GameConfig(players=players), seed=seed)
    assert len(state.victors) == players
    assert len(set(state.victors)) == players  # distinct: one victor card per faction
    assert set(state.victors) <= set(Faction)
    assert state.support_used == (frozenset(),) * players  # a full set: no support card used yet


@pytest.mark.spec("1.5", "2.3")
def test_victor_cards_are_dealt_at_random() -> None:
    """Over many seeds every faction is held by every seat at some time (5 - n factions left unheld)."""
    seen = Counter((seat, f) for seed in range(200) for seat, f in enumerate(engine.deal(GameConfig(3), seed).victors))
    assert set(seen) == {(seat, f) for seat in range(3) for f in Faction}


@pytest.mark.spec("1.5", "3.2", "7.3")
@pytest.mark.parametrize("players", [3, 5])
def test_a_support_set_offers_every_faction_once_per_game(players: int) -> None:
    """Month 1 offers all 5 support cards; each month's card is retired, so months 2 and 3 offer 4 and 3."""
    state = engine.deal(GameConfig(players=players), seed=3)
    rng = random.Random(3)
    chosen: list[list[Faction]] = [[] for _ in range(players)]
    for month in (1, 2, 3):
        state = drive(state, rng, until=lambda s: s.phase is Phase.CHOOSE_SUPPORT)
        assert state.month == month
        for seat in state.seats:
            offered = {a.faction for a in engine.legal_actions(state, seat) if isinstance(a, ChooseSupport)}
            assert offered == set(Faction) - set(chosen[seat])
            assert len(offered) == 6 - month
            assert state.support_used[seat] == frozenset(chosen[seat])
        choice = {seat: ChooseSupport(rng.choice(sorted(set(Faction) - set(chosen[seat])))) for seat in state.seats}
        for seat, action in choice.items():
            chosen[seat].append(action.faction)
        state = engine.choose_support(state, choice)
    state = drive(state, rng)
    assert all(len(set(c)) == 3 for c in chosen)  # no faction chosen twice
    assert [ms.support for ms in state.month_scores] == [tuple(c[m] for c in chosen) for m in range(3)]


@pytest.mark.spec("1.6", "R-I")
def test_revolution_points_are_unbounded_integers() -> None:
    """Far more points than the 46 physical tokens (or the 40-space track) can show still count exactly."""
    huge = 10**12
    month = score_month_tally([], [huge, huge + 1, 0], [Faction.WORKERS, Faction.STUDENTS, Faction.STUDENTS])
    assert month.totals[Faction.WORKERS] == huge and month.totals[Faction.STUDENTS] == huge + 1
    assert month.strongest == {Faction.STUDENTS}  # one point decides, however large the totals
    assert month.bonus == (0, 3, 3)
    victors = [Faction.WORKERS, Faction.SUFFRAGETTES, Faction.MECHANDROS]
    verdict = final_verdict([40, 0, 41, 3, 0], 50, [huge, 0, 0], victors)
    assert verdict.totals[Faction.WORKERS] == huge + 40
    assert isinstance(verdict.totals[Faction.WORKERS], int)
    assert verdict.too_powerful is Faction.WORKERS and verdict.winners == {1}  # the Suffragettes (41) are next


@pytest.mark.spec("1.6", "7.3")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_month_tokens_and_banked_tokens_are_whole_numbers_that_only_grow_until_banked(players: int) -> None:
    """Both counts start at 0; month tokens never fall except to 0 when banked, banked tokens never fall."""
    state = engine.deal(GameConfig(players=players), seed=11 + players)
    assert state.month_tokens == (0,) * players and state.banked_tokens == (0,) * players
    rng = random.Random(players)
    while not state.is_over:
        before = state
        state = simultaneous(state, choose_all(state, rng))
        for seat in state.seats:
            assert type(state.month_tokens[seat]) is int and type(state.banked_tokens[seat]) is int
            assert state.banked_tokens[seat] >= before.banked_tokens[seat]
            if len(state.month_scores) == len(before.month_scores):
                assert state.month_tokens[seat] >= before.month_tokens[seat]
            else:  # a monthly scoring banked the month's weekly tokens and the bonus, and reset t(s) (7.3)
                month = len(state.month_scores)
                weekly = sum(record.score.tokens[seat] for record in state.history if record.month == month)
                assert weekly >= before.month_tokens[seat]
                assert state.month_tokens[seat] == 0
                bonus = state.month_scores[-1].bonus[seat]
                assert state.banked_tokens[seat] == before.banked_tokens[seat] + weekly + bonus


@pytest.mark.spec("1.3", "2.2", "4.1", "5.2")
@pytest.mark.parametrize(("players", "add_on"), [(3, None), (4, 5), (5, 10)])
def test_the_add_on_card_in_play_is_fixed_by_the_player_count(players: int, add_on: int | None) -> None:
    """Rule 2.2's table: no add-on with 3 players, "5 +" with 4, "10 +" with 5, under every week's emperor card."""
    state = engine.deal(GameConfig(players=players), seed=21)
    rng = random.Random(21)
    for _ in range(4):  # the first month's four weeks, each with an emperor card (3.3)
        state = drive(state, rng, until=lambda s: s.phase is Phase.PLAY_1)
        table = state.table
        assert table is not None and table.emperor_card is not None
        assert (None if table.add_on is None else int(table.add_on)) == add_on
        assert score_table(table).emperor_strength == table.emperor_card.value + (add_on or 0)  # no plays yet
        state = drive(state, rng, until=lambda s: s.phase is not Phase.PLAY_1)


@pytest.mark.spec("1.2", "R-G")
def test_only_real_cards_exist_and_a_play_holds_a_faction_card() -> None:
    from darkempire.rules.actions import Side
    from darkempire.rules.cards import HAND_CARDS, EmperorCard, Faction, FactionCard, ReinforcementCard, RevolutionCard
    from darkempire.rules.errors import InvalidCardError
    from darkempire.rules.table import Play

    workers_six = HAND_CARDS[8]
    assert FactionCard(8, Faction.WORKERS, 6) == workers_six
    assert ReinforcementCard(70) == HAND_CARDS[70]
    # 0 == Faction.WORKERS and 6.0 == 6: a forged card must not pass for the real one.
    for forged in ((8, 0, 6), (8, Faction.WORKERS, 6.0), (8, Faction.STUDENTS, 6), (65, Faction.STUDENTS, 3), (True, Faction.WORKERS, 4)):
        with pytest.raises(InvalidCardError):
            FactionCard(*forged)
    for forged_id in (64, 75, True, 70.0):
        with pytest.raises(InvalidCardError):
            ReinforcementCard(forged_id)  # type: ignore[arg-type]  # 64 and 75 are ints, but no reinforcement ids
    with pytest.raises(InvalidCardError):
        EmperorCard(0, 9)
    with pytest.raises(InvalidCardError):
        RevolutionCard(0)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError, match="faction card"):
        Play(seat=0, card=HAND_CARDS[65], side=Side.REVOLUTION, step=1)  # type: ignore[arg-type]
