"""Revolution!: tokens, bids, their comparison and legality (rules 1.4, 1.5, 4.2-4.5, 5.2, 5.3)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from revolution.rules.bids import MAX_CHARACTERS, Bid, bid_problems, check_bid, counted_bid, legal_bids, winner
from revolution.rules.data import BASE_BOARD, Board, Character
from revolution.rules.errors import IllegalBidError, ImmuneCharacterError, InvalidValueError, TokensNotAllBidError
from revolution.rules.errors import TooManyCharactersError, UnknownCharacterError
from revolution.rules.tokens import Token, Tokens
from tablekit.errors import IllegalChoiceError
from tablekit.game import LazyActions

F, B, G = Tokens(force=1), Tokens(blackmail=1), Tokens(gold=1)


@pytest.mark.spec("revolution:5.2")
@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        pytest.param(Tokens(force=2), Tokens(force=1), id="two Force beat one"),
        pytest.param(Tokens(force=3), Tokens(force=2), id="three Force beat two"),
        pytest.param(Tokens(force=1, blackmail=1), Tokens(force=1), id="Force and Blackmail beat Force"),
        pytest.param(Tokens(blackmail=1, gold=3), Tokens(blackmail=1, gold=2), id="B+3G beat B+2G"),
        pytest.param(Tokens(force=1), Tokens(blackmail=9, gold=30), id="Force beats any Blackmail and Gold"),
        pytest.param(Tokens(blackmail=1), Tokens(gold=30), id="a Blackmail beats any Gold"),
        pytest.param(Tokens(gold=1), Tokens(), id="Gold wins when nothing stronger is bid"),
    ],
)
def test_every_comparison_of_the_rules_text(stronger: Tokens, weaker: Tokens) -> None:
    """The text's examples, in both seat orders: the stronger bid wins the character."""
    assert stronger.strength > weaker.strength
    assert winner([stronger, weaker]) == 0 and winner([weaker, stronger]) == 1


@pytest.mark.spec("revolution:5.3")
def test_a_tie_for_the_strongest_bid_wins_nothing_whatever_the_others_bid() -> None:
    assert winner([Tokens(force=1, gold=2), Tokens(force=1, gold=2), Tokens(gold=9)]) is None
    assert winner([Tokens(), Tokens(), Tokens()]) is None  # nobody bid
    assert winner([Tokens(), Tokens(gold=1), Tokens()]) == 1  # a lone bid wins
    assert winner([Tokens(gold=2), Tokens(gold=2), Tokens(blackmail=1)]) == 2  # a tie below the strongest is no tie


@pytest.mark.spec("revolution:5.2", "revolution:5.3")
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 4)), min_size=2, max_size=4))
def test_the_winner_is_the_unique_lexicographic_maximum(bids: list[tuple[int, int, int]]) -> None:
    tokens = [Tokens(*b) for b in bids]
    won = winner(tokens)
    if won is None:
        best = max(bids)
        assert best == (0, 0, 0) or bids.count(best) > 1
    else:
        assert all(bids[won] > other for seat, other in enumerate(bids) if seat != won)


@pytest.mark.spec("revolution:1.5", "revolution:9.2")
def test_tokens_are_whole_counts_and_add_up() -> None:
    assert Tokens(1, 1, 3) + Tokens(gold=2) == Tokens(1, 1, 5)
    assert Tokens(1, 1, 3).total == 5 and Tokens.of(Token.BLACKMAIL, 2) == Tokens(blackmail=2)
    assert Tokens(2, 1, 3).support == 2 * 5 + 3 + 3  # rule 7.3's values
    for bad in (-1, True, 1.0, "2"):
        with pytest.raises(InvalidValueError, match="Tokens.gold"):
            Tokens(gold=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="Tokens.force"):
        Tokens(force=1) - Tokens(force=2)


@pytest.mark.spec("revolution:4.1", "revolution:9.2")
def test_a_bid_is_its_placements_whatever_their_order() -> None:
    assert Bid({"Spy": G, "Priest": F}) == Bid([("Priest", F), ("Spy", G)]) == Bid({"Priest": F, "Spy": G, "Rogue": Tokens()})
    assert Bid({"Spy": G}).on("Spy") == G and Bid({"Spy": G}).on("Priest") == Tokens()
    with pytest.raises(InvalidValueError, match="named twice"):
        Bid([("Spy", G), ("Spy", G)])
    for bad in ([("Spy", 1)], [(3, G)], ["Spy"]):
        with pytest.raises(InvalidValueError, match="Bid.placements"):
            Bid(bad)  # type: ignore[arg-type]


HELD = Tokens(1, 1, 3)


@pytest.mark.spec("revolution:4.2", "revolution:4.3", "revolution:4.4", "revolution:1.4", "revolution:9.2")
@pytest.mark.parametrize(
    ("bid", "error", "rule", "words"),
    [
        pytest.param(Bid({"Priest": Tokens(1, 1, 2)}), TokensNotAllBidError, "4.2", "every token is bid", id="one kept"),
        pytest.param(Bid({"Priest": Tokens(2, 1, 3)}), TokensNotAllBidError, "4.2", "holds 1 Force", id="not held"),
        pytest.param(Bid({"General": F, "Priest": Tokens(0, 1, 3)}), ImmuneCharacterError, "4.4",
                     "General is immune to Force", id="Force on the General"),
        pytest.param(Bid({"Rogue": Tokens(0, 1, 3), "Priest": F}), ImmuneCharacterError, "4.4",
                     "Rogue is immune to Blackmail", id="Blackmail on the Rogue"),
        pytest.param(Bid({"Pope": HELD}), UnknownCharacterError, "1.4", "'Pope'", id="no such character"),
    ],
)
def test_an_illegal_bid_is_refused_with_the_rule_it_breaks(bid: Bid, error: type[IllegalBidError], rule: str,
                                                           words: str) -> None:
    with pytest.raises(error, match=words) as raised:
        check_bid(BASE_BOARD, HELD, bid, seat=2)
    assert isinstance(raised.value, IllegalChoiceError) and raised.value.rule == rule and raised.value.seat == 2
    assert bid not in legal_bids(BASE_BOARD, HELD)


SEVEN = Bid({name: G for name in ("General", "Captain", "Innkeeper", "Magistrate", "Priest", "Aristocrat",
                                     "Merchant")})


@pytest.mark.spec("revolution:4.3")
def test_seven_characters_are_one_too_many() -> None:
    with pytest.raises(TooManyCharactersError, match="at most 6 characters, not 7") as raised:
        check_bid(BASE_BOARD, Tokens(gold=7), SEVEN)
    assert raised.value.rule == "4.3"
    six = Bid(SEVEN.placements[:5] + (("Merchant", Tokens(gold=2)),))
    check_bid(BASE_BOARD, Tokens(gold=7), six)  # six characters: legal


@pytest.mark.spec("revolution:4.5", "revolution:R-L", "revolution:R-M")
def test_the_table_mode_accepts_only_the_two_illegal_bids_the_text_names() -> None:
    """Immune tokens and a seventh character pass in the table mode; a bid of other tokens never does (R-M)."""
    check_bid(BASE_BOARD, Tokens(gold=7), SEVEN, table_mode=True)
    check_bid(BASE_BOARD, HELD, Bid({"General": F, "Priest": Tokens(0, 1, 3)}), table_mode=True)
    for wrong in (Bid({"Priest": Tokens(1, 1, 2)}), Bid({"Pope": HELD})):
        with pytest.raises(IllegalBidError):
            check_bid(BASE_BOARD, HELD, wrong, table_mode=True)


@pytest.mark.spec("revolution:4.5", "revolution:R-L")
def test_a_revealed_illegal_bid_counts_as_the_table_counts_it() -> None:
    """Tokens on an immune character are removed first; of the rest, the first six characters in board order
    count (R-L), whatever the order the placements were written in."""
    messy = Bid({"Mercenary": Tokens(force=1, gold=2), "General": Tokens(force=1, gold=1), "Captain": G,
                 "Innkeeper": G, "Magistrate": G, "Priest": G, "Aristocrat": G, "Spy": Tokens(force=1)})
    counted = counted_bid(BASE_BOARD, messy)
    assert counted.immune == (("General", F), ("Mercenary", F))
    assert counted.bid.characters == tuple(sorted(("General", "Captain", "Innkeeper", "Magistrate", "Priest",
                                                   "Aristocrat")))
    assert counted.bid.on("General") == G and counted.beyond_six == (("Spy", F), ("Mercenary", Tokens(gold=2)))
    total = counted.bid.total + sum((t for _, t in counted.immune + counted.beyond_six), Tokens())
    assert total == messy.total  # nothing is lost: what does not count goes to the bank
    assert counted_bid(BASE_BOARD, Bid({"Priest": HELD})).bid == Bid({"Priest": HELD})  # a legal bid counts whole


def _brute(board: Board, held: Tokens) -> Iterator[Bid]:
    """Every legal bid, by plain recursion over what each character takes of what is left (no counting)."""
    def spread(index: int, left: Tokens, placed: tuple[tuple[str, Tokens], ...]) -> Iterator[Bid]:
        if index == len(board.characters):
            if not left and len(placed) <= MAX_CHARACTERS:
                yield Bid(placed)
            return
        character = board.characters[index]
        for f in range(left.force + 1):
            for b in range(left.blackmail + 1):
                for g in range(left.gold + 1):
                    tokens = Tokens(f, b, g)
                    if tokens.kinds & character.immune:
                        continue
                    more = ((character.name, tokens),) if tokens else ()
                    yield from spread(index + 1, left - tokens, placed + more)

    return spread(0, held, ())


SMALL = Board("small", BASE_BOARD.areas, tuple(BASE_BOARD.characters[i] for i in (0, 2, 4, 8, 9, 10, 11, 3)),
              BASE_BOARD.tokens_in_box, BASE_BOARD.starting_tokens, 25)


@pytest.mark.spec("revolution:4.2", "revolution:4.3", "revolution:4.4", "revolution:9.1")
@pytest.mark.parametrize("held", [Tokens(), Tokens(gold=1), Tokens(1, 1, 1), Tokens(0, 2, 2), Tokens(1, 0, 6),
                                  Tokens(gold=7), Tokens(2, 1, 4)])
def test_the_lazy_legal_bids_are_exactly_the_legal_bids_each_once(held: Tokens) -> None:
    """On an eight-character board, so that seven tokens can break the six-character limit: the list counts and
    builds every legal bid once, in its order, and nothing else; its membership test agrees."""
    listed = legal_bids(SMALL, held)
    assert isinstance(listed, LazyActions)
    built = list(listed)
    expected = set(_brute(SMALL, held))
    assert len(built) == len(set(built)) == len(expected) and set(built) == expected
    assert all(bid in listed for bid in built[:: max(1, len(built) // 40)])
    assert Bid({"Priest": held + G}) not in listed


@pytest.mark.spec("revolution:4.3")
def test_the_six_character_limit_cuts_the_count() -> None:
    """Seven Gold on the eight-character board: C(14, 7) = 3432 ways to spread them, less the C(8, 7) = 8 that
    put one Gold on each of seven characters."""
    assert len(legal_bids(SMALL, Tokens(gold=7))) == 3432 - 8


@pytest.mark.spec("revolution:4.1")
def test_the_base_boards_opening_bids_are_counted_without_building_them() -> None:
    """1 Force on 7 characters, 1 Blackmail on 7, 3 Gold on 12 (C(14, 3) = 364); a seat with many tokens has
    millions of bids, counted at once."""
    assert len(legal_bids(BASE_BOARD, Tokens(1, 1, 3))) == 7 * 7 * 364
    many = legal_bids(BASE_BOARD, Tokens(2, 3, 10))
    assert len(many) > 10**8 and many[len(many) // 2] in many
