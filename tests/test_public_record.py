"""Public records and the spectator replay (spec 9.3, 9.4), and History's typed argument errors (issue 12).

A full record (``History.record()``) carries the seed, so whoever holds one mid-game knows every hidden card.
A public record carries only what a spectator saw, and the spectator replay checks it move by move against the
rules from public information alone.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable, Iterator
from typing import Any, cast

import attrs
import pytest
from jsonschema import Draft202012Validator

from darkempire.rules import engine
from darkempire.rules.cards import HAND_CARDS, EmperorCard, HandCard
from darkempire.rules.errors import DarkEmpireError, InvalidArgumentError
from darkempire.rules.actions import PlayCard
from darkempire.rules.events import (
    ChoiceMade,
    Event,
    HandDealt,
    MonthScored,
    PlaysRevealed,
    Reorganized,
    RevealedPlay,
    StrengthsRevealed,
    TokensAwarded,
    WeekStarted,
    events_for,
)
from darkempire.history import History
from darkempire.public_record import (
    PublicRecord,
    PublicRecordError,
    PublicStep,
    public_record,
    spectator_replay,
)
from darkempire.records import RecordError
from darkempire.schema import generate_schemas
from darkempire.serialization import (
    InconsistentStateError,
    SerializationError,
    from_data,
    from_json,
    load_public_record,
    to_json,
)
from darkempire.rules.state import GameConfig
from darkempire.rules.views import PlayerView, spectator_view
from embedding_games import emperor_cards_in, finished_game, hand_cards_in, random_history

PLAYERS = (3, 4, 5)


@functools.cache
def in_progress(players: int, seed: int = 3) -> History:
    """A game in its second month: cards dealt, passed, discarded, played, placed and re-organized."""
    game = finished_game(players, seed)
    return History(game.states[: len(game.states) // 2], game.choices[: len(game.states) // 2 - 1])


def _json_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _json_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _json_keys(v)}
    return set()


# --------------------------------------------------------------------------- what each record reveals


@pytest.mark.spec("9.3", "9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_full_record_of_a_game_in_progress_reveals_every_hidden_card(players: int) -> None:
    # Why a full record stays on the server: its seed deals the game again, hands, victor cards and piles.
    game = in_progress(players)
    record = game.record()
    redealt = engine.deal(record.config, record.seed)
    assert redealt.hands == game.states[0].hands
    assert redealt.victors == game.current.victors
    assert History.from_record(record).current == game.current  # every hand and pile order of now


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_the_public_record_shows_no_card_before_the_spectator_saw_it(players: int) -> None:
    for game in (in_progress(players), finished_game(players, 2)):
        record = game.public_record()
        assert "seed" not in _json_keys(json.loads(to_json(record)))
        assert "chance" not in _json_keys(json.loads(to_json(record)))
        seen_hand: set[HandCard] = set()
        seen_emperor: set[EmperorCard] = set()
        for index, step in enumerate(record.steps):
            view = spectator_view(game.states[index + 1])
            seen_hand |= hand_cards_in(view)
            seen_emperor |= emperor_cards_in(view)
            assert hand_cards_in(step.events) <= seen_hand, index
            assert emperor_cards_in(step.events) <= seen_emperor, index
            assert events_for(step.events, None) == step.events  # a spectator's log is unchanged by redaction
        assert record.verdict == game.current.verdict


def _twin(players: int, seed: int) -> History:
    """The draft and all but the last support choice: every choice so far is hidden from a spectator."""
    history = History.start(GameConfig(players=players), seed)
    for _ in range(3 * players - 1):
        seat = min(engine.awaited_seats(history.current))
        history = history.apply(seat, engine.legal_actions(history.current, seat)[0])
    return history


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_twin_games_that_differ_only_in_hidden_cards_have_one_public_record(players: int) -> None:
    one, other = _twin(players, 1), _twin(players, 2)
    assert one.states[0].hands != other.states[0].hands
    assert one.record() != other.record()
    assert to_json(one.public_record()) == to_json(other.public_record())


@pytest.mark.spec("9.4")
def test_the_public_record_of_a_record_is_that_of_its_history() -> None:
    game = in_progress(4)
    assert public_record(game.record()) == public_record(game)
    with pytest.raises(InvalidArgumentError):
        public_record(cast(Any, game.current))
    with pytest.raises(RecordError, match="starts later"):
        History.from_state(game.current).public_record()


# --------------------------------------------------------------------------- the wire format


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_a_public_record_round_trips_through_json_and_fits_its_schema(players: int) -> None:
    record = in_progress(players).public_record()
    text = to_json(record)
    assert load_public_record(text) == record
    assert from_json(text) == record
    Draft202012Validator(generate_schemas()["public-record.json"]).validate(json.loads(text))


@pytest.mark.spec("9.4")
def test_loading_refuses_a_public_record_that_shows_hidden_information() -> None:
    game = in_progress(3)
    record = game.public_record()
    leaked = engine.events_between(game.states[0], game.states[1], choices={0: game.choices[0].action})
    dealt = HandDealt(0, game.states[0].hands[0], game.states[0].victors[0])
    for events in (leaked, (*record.steps[0].events, dealt)):
        bad = attrs.evolve(record, steps=(PublicStep(events), *record.steps[1:]))
        with pytest.raises(InconsistentStateError) as caught:
            load_public_record(to_json(bad))
        assert caught.value.path == "steps[0]"
        with pytest.raises(PublicRecordError) as refused:
            spectator_replay(bad)
        assert (refused.value.step, refused.value.rule) == (0, "9.4")


# --------------------------------------------------------------------------- the spectator replay


@pytest.mark.spec("9.3", "9.4")
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 4, 6])
def test_the_spectator_replay_rebuilds_every_spectator_view_of_a_genuine_game(players: int, seed: int) -> None:
    game = finished_game(players, seed)
    views = spectator_replay(game.public_record())
    assert list(views) == [spectator_view(s) for s in game.states]
    assert views[-1].verdict == game.current.verdict is not None
    partial = in_progress(players, seed)
    assert list(spectator_replay(partial.public_record())) == [spectator_view(s) for s in partial.states]


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_the_deal_looks_the_same_to_a_spectator_whatever_the_seed(players: int) -> None:
    # The spectator replay starts from this public face of the deal.
    config = GameConfig(players=players)
    assert len({to_json(spectator_view(engine.deal(config, seed))) for seed in range(6)}) == 1


def _where(record: PublicRecord, kind: type, nth: int = 0) -> tuple[int, int]:
    """``(step, event)`` indices of the ``nth`` event of class ``kind`` in ``record``."""
    found = [(i, j) for i, s in enumerate(record.steps) for j, e in enumerate(s.events) if type(e) is kind]
    return found[nth]


def _replace(record: PublicRecord, at: tuple[int, int], event: Event) -> PublicRecord:
    step, index = at
    events = list(record.steps[step].events)
    events[index] = event
    steps = list(record.steps)
    steps[step] = PublicStep(events)
    return attrs.evolve(record, steps=tuple(steps))


def _revealed_card_already_face_up(record: PublicRecord) -> tuple[PublicRecord, int]:
    at = _where(record, PlaysRevealed, 1)  # the second play step: the first step's cards are on the table
    first = record.steps[_where(record, PlaysRevealed, 0)[0]].events[_where(record, PlaysRevealed, 0)[1]]
    event = record.steps[at[0]].events[at[1]]
    assert isinstance(first, PlaysRevealed) and isinstance(event, PlaysRevealed)
    old = event.plays[0].action
    face_up = first.plays[0].action.card
    new = attrs.evolve(old, card=face_up)
    plays = (RevealedPlay(event.plays[0].seat, new), *event.plays[1:])
    return _replace(record, at, attrs.evolve(event, plays=plays)), at[0]


def _revolution_card_seen_this_month(record: PublicRecord) -> tuple[PublicRecord, int]:
    at = _where(record, WeekStarted, 1)
    first = record.steps[_where(record, WeekStarted, 0)[0]].events[_where(record, WeekStarted, 0)[1]]
    event = record.steps[at[0]].events[at[1]]
    assert isinstance(first, WeekStarted) and isinstance(event, WeekStarted)
    return _replace(record, at, attrs.evolve(event, revolution_card=first.revolution_card)), at[0]


def _strengths(record: PublicRecord) -> tuple[PublicRecord, int]:
    at = _where(record, StrengthsRevealed, 2)
    event = record.steps[at[0]].events[at[1]]
    assert isinstance(event, StrengthsRevealed)
    return _replace(record, at, attrs.evolve(event, strengths=(event.strengths[0] + 1, *event.strengths[1:]))), at[0]


def _tokens(record: PublicRecord) -> tuple[PublicRecord, int]:
    at = _where(record, TokensAwarded, 3)
    event = record.steps[at[0]].events[at[1]]
    assert isinstance(event, TokensAwarded)
    tokens = (event.month_tokens[0] + 2, *event.month_tokens[1:])
    return _replace(record, at, attrs.evolve(event, month_tokens=tokens)), at[0]


def _banked(record: PublicRecord) -> tuple[PublicRecord, int]:
    at = _where(record, MonthScored)
    event = record.steps[at[0]].events[at[1]]
    assert isinstance(event, MonthScored)
    return _replace(record, at, attrs.evolve(event, banked_tokens=(0,) * len(event.banked_tokens))), at[0]


def _drawn(record: PublicRecord) -> tuple[PublicRecord, int]:
    at = _where(record, Reorganized)
    event = record.steps[at[0]].events[at[1]]
    assert isinstance(event, Reorganized)
    return _replace(record, at, attrs.evolve(event, drawn=(event.drawn[0] + 1, *event.drawn[1:]))), at[0]


def _swapped(record: PublicRecord) -> tuple[PublicRecord, int]:
    # A step that resolves, swapped with the next one: a choice from the next phase comes too early.
    index = next(i for i, s in enumerate(record.steps) if len(s.events) > 1 and i > 0)
    steps = list(record.steps)
    steps[index], steps[index + 1] = steps[index + 1], steps[index]
    return attrs.evolve(record, steps=tuple(steps)), index


def _dropped(record: PublicRecord) -> tuple[PublicRecord, int]:
    index = _where(record, PlaysRevealed)[0] - 1  # a non-resolving play choice: then a seat's card is missing
    return attrs.evolve(record, steps=record.steps[:index] + record.steps[index + 1 :]), index


def _chooser(record: PublicRecord) -> tuple[PublicRecord, int]:
    at = (0, 0)
    event = record.steps[0].events[0]
    assert isinstance(event, ChoiceMade)
    return _replace(record, at, attrs.evolve(event, seat=record.steps[1].events[0].seat)), 1  # type: ignore[union-attr]


def _after_reorganize(
    record: PublicRecord, card_of: Callable[[PlayerView, Reorganized], tuple[HandCard, int | None] | None]
) -> tuple[PublicRecord, int]:
    """Play, at the first play step after a re-organize without a reshuffle, the card ``card_of`` picks there.

    ``card_of`` gets the view before the re-organize and its event, and returns the card and the seat that
    may still play it (``None``: none may), or ``None`` to look further. Another seat plays it.
    """
    views = spectator_replay(record)
    for index, step in enumerate(record.steps):
        for event in step.events:
            picked = card_of(views[index], event) if isinstance(event, Reorganized) and not event.reshuffled else None
            if picked is None:
                continue
            card, owner = picked
            at = next(
                (i, j)
                for i, later in enumerate(record.steps[index + 1 :], index + 1)
                for j, e in enumerate(later.events)
                if isinstance(e, PlaysRevealed)
            )
            revealed = record.steps[at[0]].events[at[1]]
            assert isinstance(revealed, PlaysRevealed)
            if card in [p.action.card for p in revealed.plays]:
                continue  # its owner plays it again at once: the card would be face up twice
            play = next(i for i, p in enumerate(revealed.plays) if p.seat != owner and isinstance(p.action, PlayCard))
            plays = list(revealed.plays)
            plays[play] = RevealedPlay(plays[play].seat, attrs.evolve(plays[play].action, card=card))
            return _replace(record, at, attrs.evolve(revealed, plays=tuple(plays))), at[0]
    raise AssertionError("no such re-organize in the game")


def _taken_back_card_played_by_another_seat(record: PublicRecord) -> tuple[PublicRecord, int]:
    def taken(_: PlayerView, event: Reorganized) -> tuple[HandCard, int | None] | None:
        return next(((c, s) for s, c in enumerate(event.take_backs) if c is not None), None)

    return _after_reorganize(record, taken)


def _discarded_card_played(record: PublicRecord) -> tuple[PublicRecord, int]:
    def discarded(before: PlayerView, event: Reorganized) -> tuple[HandCard, int | None] | None:
        assert before.table is not None
        cards = [p.card for p in before.table.plays if p.card not in event.take_backs]
        return (cards[0], None) if cards else None

    return _after_reorganize(record, discarded)


TAMPERINGS: dict[str, tuple[Callable[[PublicRecord], tuple[PublicRecord, int]], str]] = {
    "a revealed card already face up": (_revealed_card_already_face_up, "1.2"),
    "a revolution card seen this month": (_revolution_card_seen_this_month, "3.3"),
    "a faction strength": (_strengths, "5.1"),
    "a seat's month tokens": (_tokens, "5.4"),
    "the banked tokens": (_banked, "7.2"),
    "the cards drawn at re-organize": (_drawn, "6.4"),
    "two steps swapped": (_swapped, "9.1"),
    "a choice dropped": (_dropped, "9.2"),
    "a taken-back card played by another seat": (_taken_back_card_played_by_another_seat, "6.2"),
    "a card from the discard pile played before a reshuffle": (_discarded_card_played, "6.4"),
}


@pytest.mark.spec("9.3", "9.4")
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_the_spectator_replay_refuses_a_tampered_record_naming_the_step_and_the_rule(name: str, players: int) -> None:
    tamper, rule = TAMPERINGS[name]
    record, step = tamper(finished_game(players, 1).public_record())
    with pytest.raises(PublicRecordError) as caught:
        spectator_replay(record)
    assert (caught.value.step, caught.value.rule) == (step, rule), str(caught.value)
    assert isinstance(caught.value, RecordError) and isinstance(caught.value, DarkEmpireError)
    assert f"step {step}" in str(caught.value) and f"rule {rule}" in str(caught.value)


@pytest.mark.spec("9.2")
def test_the_spectator_replay_refuses_a_seat_that_was_not_awaited() -> None:
    record, step = _chooser(finished_game(3, 1).public_record())
    with pytest.raises(PublicRecordError) as caught:
        spectator_replay(record)
    assert (caught.value.step, caught.value.rule) == (step, "9.2")


@pytest.mark.spec("8.1", "9.3")
def test_the_spectator_replay_refuses_a_verdict_the_steps_do_not_reach() -> None:
    game = finished_game(4, 1)
    record = game.public_record()
    with pytest.raises(PublicRecordError) as caught:
        spectator_replay(attrs.evolve(record, verdict=None))
    assert (caught.value.step, caught.value.rule) == (None, "9.3")
    unfinished = in_progress(4, 1).public_record()
    with pytest.raises(PublicRecordError):
        spectator_replay(attrs.evolve(unfinished, verdict=record.verdict))
    with pytest.raises(InvalidArgumentError):
        spectator_replay(game.record())  # type: ignore[arg-type]


@pytest.mark.spec("9.4")
def test_a_mangled_public_record_raises_only_typed_errors() -> None:
    base = json.loads(to_json(finished_game(3, 2).public_record()))
    leaves = list(_leaves(base))
    rng = random.Random(12)
    for _ in range(150):
        data = copy.deepcopy(base)
        *parents, key = rng.choice(leaves)
        holder = functools.reduce(lambda value, k: value[k], parents, data)
        old = holder[key]
        holder[key] = rng.choice([0, 1, 70, None, "WORKERS"]) if not isinstance(old, int) else old + rng.choice([-1, 1])
        try:
            record = from_data(data)
        except SerializationError:
            continue
        assert isinstance(record, PublicRecord)
        try:
            spectator_replay(record)
        except PublicRecordError:
            pass


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    elif path and path[0] == "steps":
        yield path


# --------------------------------------------------------------------------- History's argument checks


@pytest.mark.spec("9.2")
@pytest.mark.parametrize("choices", [[(0,)], [None], [(0, 1, 2)], 5, "ab"])
def test_history_extend_refuses_what_is_no_list_of_choices_with_a_typed_error(choices: Any) -> None:
    history = random_history(3, 2, choices=2)
    with pytest.raises(InvalidArgumentError, match="choice|choices"):
        history.extend(choices)


@pytest.mark.spec("9.2")
def test_history_refuses_bad_states_and_start_indices_with_typed_errors() -> None:
    history = random_history(3, 2, choices=2)
    with pytest.raises(InvalidArgumentError, match="one more state"):
        History(history.states, ())
    with pytest.raises(InvalidArgumentError, match="GameState"):
        History((history.current, 1), history.choices[:1])  # type: ignore[arg-type]
    for start in (-1, 3, "0", True):
        with pytest.raises(InvalidArgumentError, match="start"):
            history.events(start)  # type: ignore[arg-type]
    assert history.extend(history.choices[:0]) == history


@pytest.mark.spec("5.1", "9.4")
def test_the_spectator_replay_refuses_a_revealed_card_swapped_for_an_unseen_one() -> None:
    record = finished_game(4, 1).public_record()
    at = _where(record, PlaysRevealed)
    event = record.steps[at[0]].events[at[1]]
    assert isinstance(event, PlaysRevealed)
    old = event.plays[0].action
    assert old.card.faction is not None
    seen = hand_cards_in(record)
    unseen = next(c for c in HAND_CARDS if c.faction not in (None, old.card.faction) and c not in seen)
    plays = (RevealedPlay(event.plays[0].seat, attrs.evolve(old, card=unseen)), *event.plays[1:])
    with pytest.raises(PublicRecordError) as caught:
        spectator_replay(_replace(record, at, attrs.evolve(event, plays=plays)))
    # The week's scoring, or a later reinforcement of the card that is no longer there, gives it away.
    assert caught.value.rule in ("5.1", "R-G") and caught.value.step is not None and caught.value.step > at[0]
