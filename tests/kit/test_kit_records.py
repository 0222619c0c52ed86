"""tablekit.records and tablekit.bots: play, record, the one replay, resume, and the public record."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit.toy import GAME, Bid, CardNotHeldError, Keep, ToyAction, ToyConfig, ToyState, ToyView
from tablekit.bots import BotCountError, RandomBot, Turn, iter_game, run_game
from tablekit.chance import Outcome
from tablekit.events import Event, events_for
from tablekit.game import LazyActions
from tablekit.records import Choice, DivergentChoiceError, PublicRecord, Record, WrongGameError, public_record
from tablekit.records import replay, resume


def _bots(players: int) -> list[RandomBot[ToyAction]]:
    return [RandomBot(seat) for seat in range(players)]


@given(st.integers(2, 4), st.integers(1, 5), st.integers(0, 10_000))
def test_a_played_game_replays_to_the_same_states_and_events(players: int, cards: int, seed: int) -> None:
    played = run_game(GAME, ToyConfig(players, cards), seed, _bots(players))
    transitions = list(replay(GAME, played.record))
    assert transitions[-1].state == played.state and GAME.is_over(played.state)
    assert tuple(e for t in transitions for e in t.events) == played.events
    assert played.returns == tuple(float(s) for s in played.state.scores)
    assert len(transitions) == 1 + 2 * cards  # the set-up, then a bid and a claim per round


def test_the_same_seeds_give_the_same_game() -> None:
    first = run_game(GAME, ToyConfig(3, 4), 9, _bots(3))
    assert run_game(GAME, ToyConfig(3, 4), 9, _bots(3)) == first


def test_a_refused_choice_is_named_by_its_index() -> None:
    record: Record[ToyConfig, ToyAction] = Record("toyspiel", 1, ToyConfig(2, 3), 1, [(0, Bid(1)), (1, Bid(1)), (0, Keep()), (0, Bid(1))])
    with pytest.raises(DivergentChoiceError) as error:
        list(replay(GAME, record))
    assert (error.value.index, error.value.seat) == (3, 0)
    assert isinstance(error.value.__cause__, CardNotHeldError)


@pytest.mark.parametrize(("name", "version"), [("othergame", 1), ("toyspiel", 2)])
def test_a_record_of_another_game_or_version_is_refused(name: str, version: int) -> None:
    with pytest.raises(WrongGameError):
        list(replay(GAME, Record[ToyConfig, ToyAction](name, version, ToyConfig(), 1)))


def test_a_record_that_stops_mid_step_resumes_with_its_pending_choice() -> None:
    record: Record[ToyConfig, ToyAction] = Record("toyspiel", 1, ToyConfig(3, 3), 5, [Choice(2, Bid(3))])
    assert len(list(replay(GAME, record))) == 1  # only the set-up resolved
    round = resume(GAME, record)
    assert round.chosen == {2} and round.pending_of(2) == Bid(3)


def test_the_public_record_holds_no_seed_and_no_private_payload() -> None:
    played = run_game(GAME, ToyConfig(2, 6), 3, [_Peeker(), _Peeker()])
    private = [e.payload for e in played.events if e.others_see is not None]
    assert private, "the game peeked, so some draws were private"
    public = public_record(GAME, played.record)
    assert isinstance(public, PublicRecord) and not hasattr(public, "seed")
    assert not set(private) & set(public.events)
    assert public.events == events_for(played.events, None)


class _Peeker:
    """Bids its highest card, and peeks whenever it may (the last legal action)."""

    def choose(self, view: ToyView, legal: Sequence[ToyAction]) -> ToyAction:
        return legal[-1]


class _Snoop:
    """Records what it is shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[ToyView, int]] = []

    def choose(self, view: ToyView, legal: Sequence[ToyAction]) -> ToyAction:
        self.seen.append((view, len(legal)))
        return legal[0]


def test_a_bot_sees_only_its_seats_view() -> None:
    snoops = [_Snoop(), _Snoop()]
    run_game(GAME, ToyConfig(2, 3), 1, snoops)
    for seat, snoop in enumerate(snoops):
        assert snoop.seen and all(view.seat == seat for view, _ in snoop.seen)
        assert all(not isinstance(view, ToyState) for view, _ in snoop.seen)


def test_the_driver_wants_one_bot_per_seat() -> None:
    with pytest.raises(BotCountError):
        run_game(GAME, ToyConfig(3, 3), 1, _bots(2))


def test_iter_game_yields_the_set_up_events_then_each_decision() -> None:
    items = list(iter_game(GAME, ToyConfig(2, 2), 4, _bots(2)))
    first_turn = next(i for i, item in enumerate(items) if isinstance(item, Turn))
    opening = items[1]
    assert first_turn == 2 and isinstance(opening, Event) and isinstance(opening.payload, Outcome)
    assert sum(isinstance(item, Turn) for item in items) == 2 * 2 + 2  # two bids and a claim per round


def test_a_random_bot_builds_only_the_action_it_picks() -> None:
    built: list[int] = []

    def build(i: int) -> int:
        built.append(i)
        return i

    choice = RandomBot[int](1).choose(None, LazyActions(10_000, build))
    assert built == [choice]


def test_records_are_values() -> None:
    record = Record("toyspiel", 1, ToyConfig(), 1, [(0, Bid(1))])
    assert record.choices == (Choice(0, Bid(1)),) and attrs.evolve(record) == record and hash(record)
