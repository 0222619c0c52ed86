"""Revolution!: the two optional rules (8.1, 8.2), the table mode for revealed illegal bids (4.5), a short bank
(R-F), and the board as data (1.3, 1.4, R-A to R-D)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from revolution.rules import engine
from revolution.rules.actions import CubeAt, Decline, Replace, Swap
from revolution.rules.data import BASE_BOARD, Effect, base_board_text, load_board
from revolution.rules.errors import BoardError, ConfigError, ImmuneCharacterError, TooManyCharactersError
from revolution.rules.events import BidTokensReturned, CharacterResolved, PatronageGiven, TokensGained
from revolution.rules.events import TokensRemoved
from revolution.rules.scoring import patronage
from revolution.rules.state import Phase, RevolutionConfig
from revolution.rules.tokens import Token, Tokens
from revolution_builders import NEARLY_FULL, AREAS, bid, holding, play, start, total_tokens, with_cubes

G1 = Tokens(gold=1)


@pytest.mark.spec("revolution:8.1", "revolution:R-Q")
def test_bid_refunds_give_back_lost_and_tied_bids_and_bank_the_winners() -> None:
    state = holding(start(3, bid_refunds=True), [Tokens(gold=3), Tokens(gold=2), Tokens(force=1, gold=2)])
    bids = {0: bid(Priest=Tokens(gold=2), Printer=G1), 1: bid(Priest=G1, Printer=G1), 2: bid(Printer=Tokens(force=1, gold=2))}
    after, events = play(state, bids)
    # Priest: seat 0 wins (2 Gold to the bank), seat 1 lost (1 back); Printer: seat 2 wins, seats 0 and 1 lost
    assert BidTokensReturned(Tokens(force=1, gold=4), (G1, Tokens(gold=2), Tokens())) in events
    assert after.held[0] == G1 + Tokens(gold=4) and after.held[1] == Tokens(gold=2) + Tokens(gold=3)
    tie = holding(start(3, bid_refunds=True), [G1, G1, G1])
    after, events = play(tie, {0: bid(Priest=G1), 1: bid(Priest=G1), 2: bid(Rogue=G1)})
    assert BidTokensReturned(G1, (G1, G1, Tokens())) in events  # a tie comes back
    assert total_tokens(after) == Tokens(12, 12, 32)


@pytest.mark.spec("revolution:8.1", "revolution:7.3", "revolution:R-P")
def test_refunded_tokens_count_at_the_end() -> None:
    state = start(3, bid_refunds=True)
    cubes = NEARLY_FULL
    state = holding(with_cubes(state, cubes), [Tokens(force=1), G1, G1])
    over, _ = play(state, {0: bid(Printer=Tokens(force=1)), 1: bid(Priest=G1), 2: bid(Innkeeper=G1)})
    assert over.is_over
    # seat 1 won the Priest (bank); seat 0 won the Printer (bank); nothing lost: only rewards are left
    assert [s.tokens for s in over.final] == [Tokens(), Tokens(), Tokens(blackmail=1)]
    lost = holding(with_cubes(start(3, bid_refunds=True), cubes), [Tokens(force=1), Tokens(force=1, gold=1), G1])
    over, _ = play(lost, {0: bid(Printer=Tokens(force=1)), 1: bid(Printer=Tokens(force=1, gold=1)), 2: bid(Innkeeper=G1)})
    assert over.final[0].tokens == Tokens(force=1) and over.final[0].token_support == 5


@pytest.mark.spec("revolution:8.2", "revolution:R-R")
def test_area_control_closes_a_full_area_to_opponents_and_scores_ten_more() -> None:
    cubes = {"Tavern": (4, 0, 0), "Cathedral": (1, 2, 0)}
    for option in (False, True):
        state = with_cubes(start(3, area_control_bonus=option), cubes)
        choosing, _ = play(holding(state, [G1, G1, G1]), {1: bid(Spy=G1), 0: bid(Printer=G1), 2: bid(Printer=G1)})
        targets = set(engine.legal_actions(choosing, 1))
        assert (Replace(CubeAt("Tavern", 0)) in targets) is not option
        assert Replace(CubeAt("Cathedral", 0)) in targets
    # the owner's own Apothecary may still swap its cube out of the area it fills (R-R)
    state = with_cubes(start(3, area_control_bonus=True), cubes)
    choosing, _ = play(holding(state, [G1, G1, G1]), {0: bid(Apothecary=G1), 1: bid(Printer=G1), 2: bid(Printer=G1)})
    assert Swap(CubeAt("Tavern", 0), CubeAt("Cathedral", 1)) in engine.legal_actions(choosing, 0)
    rival, _ = play(holding(state, [G1, G1, G1]), {1: bid(Apothecary=G1), 0: bid(Printer=G1), 2: bid(Printer=G1)})
    assert not any(isinstance(a, Swap) and CubeAt("Tavern", 0) in (a.first, a.second)
                   for a in engine.legal_actions(rival, 1))
    # the bonus: 10 on top of each area's own, for every area one fills alone
    full = {"Tavern": (4, 0, 0), "Market": (5, 0, 0), "Plantation": (6, 0, 0), "Harbor": (6, 0, 0),
            "Cathedral": (0, 7, 0), "Town Hall": (0, 1, 6), "Fortress": (0, 7, 0)}
    for option in (False, True):
        state = holding(with_cubes(start(3, area_control_bonus=option), full), [G1, G1, G1])
        over, _ = play(state, {0: bid(Printer=G1), 1: bid(General=G1), 2: bid(Rogue=G1)})
        assert over.is_over
        alone = [s.full_control for s in over.final]
        # seat 1's eighth cube, placed by the General, fills the Fortress alone
        # seat 2 has six of Town Hall's seven spaces: the most, not all
        assert alone == ([("Tavern", "Market", "Plantation", "Harbor"), ("Cathedral", "Fortress"), ()]
                         if option else [(), (), ()])
        assert [s.control_bonus for s in over.final] == ([40, 20, 0] if option else [0, 0, 0])
        assert [s.area_bonus for s in over.final] == [20 + 25 + 30 + 40, 35 + 50, 45]


@pytest.mark.spec("revolution:4.5", "revolution:R-L", "revolution:R-Q")
def test_the_table_mode_removes_what_does_not_count_and_the_rest_may_win() -> None:
    for refunds in (False, True):
        state = holding(start(3, table_mode=True, bid_refunds=refunds),
                        [Tokens(force=1, gold=1), Tokens(gold=7), G1])
        seven = bid(General=G1, Captain=G1, Innkeeper=G1, Magistrate=G1, Priest=G1, Aristocrat=G1, Merchant=G1)
        illegal = bid(General=Tokens(force=1, gold=1))  # Force on the General, who is immune to it
        with pytest.raises(ImmuneCharacterError):
            engine.check(attrs.evolve(state, config=attrs.evolve(state.config, table_mode=False)), 0, illegal)
        engine.check(state, 0, illegal)
        engine.check(state, 1, seven)
        after, events = play(state, {0: illegal, 1: seven, 2: bid(Printer=G1)})
        assert TokensRemoved(0, "General", Tokens(force=1), "immune") in events
        assert TokensRemoved(1, "Merchant", G1, "beyond six") in events
        # seat 0's remaining Gold ties seat 1's on the General: nobody wins it; the Merchant's bid did not count
        assert CharacterResolved("General", None, (0, 1)) in events
        assert CharacterResolved("Merchant", None, ()) in events
        returned = next(e for e in events if isinstance(e, BidTokensReturned))
        assert returned.refunded[0] == (G1 if refunds else Tokens())  # the removed Force never comes back
        assert total_tokens(after) == Tokens(12, 12, 32)


@pytest.mark.spec("revolution:4.3", "revolution:4.5")
def test_without_the_table_mode_the_engine_refuses_a_seventh_character() -> None:
    state = holding(start(3), [Tokens(gold=7), G1, G1])
    seven = bid(General=G1, Captain=G1, Innkeeper=G1, Magistrate=G1, Priest=G1, Aristocrat=G1, Merchant=G1)
    with pytest.raises(TooManyCharactersError):
        engine.check(state, 0, seven)


@pytest.mark.spec("revolution:R-F", "revolution:1.6")
def test_a_short_bank_pays_what_it_has_and_patronage_goes_round_in_seat_order() -> None:
    given, short = patronage((Tokens(), Tokens(gold=3), Tokens(gold=9)), Tokens(gold=4))
    assert given == (2, 2, 0) and short == (3, 0, 0)  # one Gold at a time to seats 0, 1, 0, 1: the bank is empty
    state = holding(start(3, bid_refunds=True), [Tokens(gold=14), Tokens(gold=14), Tokens(gold=1)])
    assert state.bank.gold == 3
    after, events = play(state, {0: bid(Printer=Tokens(gold=14)), 1: bid(Priest=Tokens(gold=14)),
                                 2: bid(Merchant=G1)})
    assert TokensGained(2, "Merchant", Tokens(gold=3), Tokens(gold=2)) in events
    assert PatronageGiven(2, 2, 0) in events and after.held[2] == Tokens(gold=3 + 2)
    assert total_tokens(after) == Tokens(12, 12, 32)


@pytest.mark.spec("revolution:1.3", "revolution:1.4", "revolution:R-A", "revolution:R-B", "revolution:R-C",
                  "revolution:R-D")
def test_the_shipped_board_holds_the_rulings_figures() -> None:
    board = BASE_BOARD
    assert [(a.name, a.spaces, a.bonus) for a in board.areas][:1] == [("Tavern", 4, 20)]
    assert board.area("Town Hall").spaces == 7 and board.spaces == 43
    for name in ("Rogue", "Mercenary"):
        assert board.character(name).immune == {Token.FORCE, Token.BLACKMAIL}
    mercenary = board.character("Mercenary")
    assert (mercenary.support, mercenary.tokens, mercenary.influence) == (3, Tokens(force=1), None)
    assert [c.effect for c in board.characters if c.effect] == [Effect.SPY, Effect.APOTHECARY]
    assert sum(1 for c in board.characters if c.immune == {Token.FORCE, Token.BLACKMAIL}) == 2


@pytest.mark.spec("revolution:1.3", "revolution:R-A", "revolution:9.2")
def test_a_table_can_play_another_reading_of_the_board() -> None:
    """Town Hall with six spaces (jwylie's reading): 42 spaces, and the game is played on it."""
    data = json.loads(base_board_text())
    next(a for a in data["areas"] if a["name"] == "Town Hall")["spaces"] = 6
    board = load_board(json.dumps(data))
    assert board.spaces == 42 and board.area("Town Hall").spaces == 6
    state = engine.setup(RevolutionConfig(3, board=board)).state
    assert state.config.board is board and state.phase is Phase.BIDDING
    changes: list[tuple[Callable[[Any], object], str]] = [
        (lambda d: d["areas"].append(d["areas"][0]), "areas"),
        (lambda d: d["characters"][0].update(influence="Palace"), "characters[0].influence"),
        (lambda d: d["characters"][3].update(immune=["gold"]), "characters[3].immune"),
        (lambda d: d["characters"][1].update(effect="mayor"), "characters[1].effect"),
        (lambda d: d["areas"][2].update(spaces=-1), "areas[2].spaces"),
        (lambda d: d.pop("cubes_per_player"), "board"),
    ]
    for change, field in changes:
        broken = json.loads(base_board_text())
        change(broken)
        with pytest.raises(BoardError) as error:
            load_board(json.dumps(broken))
        assert error.value.field == field, error.value
    with pytest.raises(BoardError, match="not JSON"):
        load_board("{")


@pytest.mark.spec("revolution:1.1", "revolution:9.2")
def test_the_config_allows_three_or_four_and_boolean_options() -> None:
    for players in (2, 5, True, "4"):
        with pytest.raises(ConfigError, match="three or four"):
            RevolutionConfig(players)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="bid_refunds"):
        RevolutionConfig(3, bid_refunds=1)  # type: ignore[arg-type]
    config = RevolutionConfig()
    assert (config.players, config.bid_refunds, config.area_control_bonus, config.table_mode) == (4, False, False,
                                                                                                   False)
    poor = attrs.evolve(BASE_BOARD, tokens_in_box=Tokens(3, 12, 32))
    with pytest.raises(ConfigError, match="starting tokens"):
        RevolutionConfig(4, board=poor)
    assert Decline() == Decline()
