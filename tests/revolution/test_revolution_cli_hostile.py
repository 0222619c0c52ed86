"""Hostile answers at the terminal and hostile options (a hostile review's findings): a count of thousands of
digits, a digit that is not ASCII, a seed no record can hold. Each is asked again or refused with one line;
none escapes as a bare ``ValueError``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from revolution.cli import main
from revolution.cli.play import BidTextError, HumanSeat, parse_bid
from revolution.rules.actions import Replace
from revolution.rules.data import BASE_BOARD
from revolution.rules.game import GAME
from revolution.rules.tokens import Tokens
from revolution_builders import bid, holding, play, start, with_cubes

G1 = Tokens(gold=1)


@pytest.mark.spec("revolution:9.2")
@pytest.mark.parametrize("count", ["9" * 5000, "0" * 4300 + "1", "100", "000"])
def test_a_count_of_too_many_digits_is_no_count(count: str) -> None:
    with pytest.raises(BidTextError, match="a count is 1 to 99"):
        parse_bid(f"{count}F:Priest")


@pytest.mark.spec("revolution:9.2")
def test_a_count_in_other_digits_is_no_placement() -> None:
    with pytest.raises(BidTextError, match="is no placement"):
        parse_bid("\u0663G:Priest")  # ARABIC-INDIC DIGIT THREE: int() reads it as 3


@pytest.mark.spec("revolution:5.7", "revolution:9.3")
@pytest.mark.parametrize("answer", ["\u00b2", "\u0663", "9" * 5000])
def test_a_spy_choice_that_is_no_ascii_number_is_asked_again(answer: str) -> None:
    state = with_cubes(holding(start(3), [G1] * 3), {"Cathedral": (1, 2, 1)})
    choosing, _ = play(state, {0: bid(Spy=G1), 1: bid(Printer=G1), 2: bid(Printer=G1)})
    legal = GAME.legal_actions(choosing, 0)
    out = io.StringIO()
    seat = HumanSeat(out, io.StringIO(f"{answer}\n2\n"), BASE_BOARD)
    assert seat.choose(GAME.view(choosing, 0), legal) == legal[1] and isinstance(legal[1], Replace)
    assert f"Type a number from 1 to {len(legal)}." in out.getvalue()


@pytest.mark.spec("revolution:9.4")
@pytest.mark.parametrize("seed", ["99999999999999999999999", "-9223372036854775809", "9" * 5000])
def test_a_seed_no_record_can_hold_is_refused_before_the_game(
    seed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    with pytest.raises(SystemExit) as stopped:
        main(["demo", "--seed", seed, "--record", str(record)])
    assert stopped.value.code == 2 and not record.exists()
    assert "a seed is a whole number from -9223372036854775808" in capsys.readouterr().err


@pytest.mark.spec("revolution:9.4")
def test_the_largest_seed_plays_and_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    assert main(["demo", "--players", "3", "--seed", str(2**64), "--record", str(record)]) == 0
    assert main(["replay", str(record)]) == 0
    capsys.readouterr()
