"""tablekit.records.replay_choices: the one loop that re-runs a game's choices, for the kit and for any game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from kit.toy import GAME, Bid, CardNotHeldError, Keep, ToyAction, ToyConfig
from tablekit import records
from tablekit.bots import RandomBot, run_game
from tablekit.errors import IllegalChoiceError
from tablekit.records import Choice, DivergentChoiceError, Record, replay_choices


def _count(total: int, seat: int, action: int) -> int:
    """A one-choice step of a game that only adds: a negative action is refused."""
    if action < 0:
        raise IllegalChoiceError(f"{action} is negative", seat=seat, rule="1")
    return total + action


def test_the_loop_yields_each_choice_with_the_result_after_it() -> None:
    folded = list(replay_choices(10, [(0, 1), Choice(1, 2), (0, 3)], _count))
    assert folded == [(0, Choice(0, 1), 11), (1, Choice(1, 2), 13), (2, Choice(0, 3), 16)]


class _GameDivergence(DivergentChoiceError):
    """A game's own subclass, with the kit's constructor."""


def test_a_refused_choice_raises_the_games_divergence_with_the_action_and_the_cause() -> None:
    with pytest.raises(_GameDivergence) as caught:
        list(replay_choices(0, [(0, 1), (2, -5)], _count, divergence=_GameDivergence))
    error = caught.value
    assert (error.index, error.seat, error.action) == (1, 2, -5)
    assert isinstance(error.__cause__, IllegalChoiceError) and error.reason == "-5 is negative (rule 1)"
    assert str(error) == "choice 1 (seat 2, -5) diverges: -5 is negative (rule 1)"


def test_the_choices_are_read_one_at_a_time_so_a_checking_iterable_stops_the_replay() -> None:
    seen: list[int] = []

    def checked() -> Iterator[tuple[int, int]]:
        yield 0, 1
        raise LookupError("the second choice is not a pair")

    with pytest.raises(LookupError):
        for _, _, total in replay_choices(0, checked(), _count):
            seen.append(total)
    assert seen == [1]


def test_a_long_action_is_quoted_cut_short_in_the_message() -> None:
    with pytest.raises(DivergentChoiceError) as caught:
        list(replay_choices(0, [(0, "x" * 10_000)], lambda total, seat, action: _count(total, seat, -len(action))))
    assert caught.value.action == "x" * 10_000 and len(str(caught.value)) < records.ACTION_QUOTE_LIMIT + 100


def _played() -> Record[ToyConfig, ToyAction]:
    return run_game(GAME, ToyConfig(3, 3), 11, [RandomBot(seat) for seat in range(3)]).record


#: The kit's replays of a record, each with what it gives back.
KIT_REPLAYS: dict[str, Callable[[Record[ToyConfig, ToyAction]], object]] = {
    "replay": lambda record: [t.state for t in records.replay(GAME, record)],
    "resume": lambda record: records.resume(GAME, record),
    "public_record": lambda record: records.public_record(GAME, record),
}


@pytest.mark.parametrize("name", list(KIT_REPLAYS))
def test_the_kits_replays_are_the_one_loop_a_planted_divergence_shows_in_each(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _played()
    honest = KIT_REPLAYS[name](record)
    loop = records.replay_choices

    def planted(start: Any, choices: Iterable[Any], apply: Any, **options: Any) -> Iterator[Any]:
        return loop(start, list(choices)[:-1], apply, **options)

    monkeypatch.setattr(records, "replay_choices", planted)
    assert KIT_REPLAYS[name](record) != honest


def test_the_kits_replay_still_names_a_refused_choice_with_its_action() -> None:
    choices: list[tuple[int, ToyAction]] = [(0, Bid(1)), (1, Bid(1)), (0, Keep()), (0, Bid(1))]
    record: Record[ToyConfig, ToyAction] = Record("toyspiel", 1, ToyConfig(2, 3), 1, choices)
    with pytest.raises(DivergentChoiceError) as error:
        list(records.replay(GAME, record))
    assert error.value.action == Bid(1) and isinstance(error.value.__cause__, CardNotHeldError)
