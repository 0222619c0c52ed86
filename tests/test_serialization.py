"""The JSON wire format: exact round trips, schemas, and typed errors with paths on untrusted input (spec 9.3, 9.4)."""

from __future__ import annotations

import copy
import functools
import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tablekit.errors import ChanceError
from darkempire.rules import engine
from darkempire.rules.actions import Action, PassCards, PlayCard, PlayNothing, Reinforce, Reorganize, Side
from darkempire.bots import iter_game, make_bot
from darkempire.rules.cards import HAND_CARDS, Faction, FactionCard
from darkempire.rules.chance import Chance
from darkempire.rules.errors import DarkEmpireError, InvalidArgumentError
from darkempire.rules.events import EVENT_TYPES, opening_events
from darkempire.records import GameRecord
from darkempire.schema import SCHEMA_FILES, generate_schemas, main as schema_main, shipped_schemas
from darkempire.serialization import (
    ACTION_TYPES,
    FORMAT,
    MESSAGE_TYPES,
    CardNotHeldError,
    ConservationError,
    FormatVersionError,
    InconsistentStateError,
    InvalidValueError,
    MalformedJSONError,
    Message,
    MissingFieldError,
    NotAMessageError,
    SerializationError,
    UnknownCardError,
    UnknownFieldError,
    WrongTypeError,
    canonical_json,
    card_table,
    check_state,
    from_data,
    from_json,
    kind_of,
    load_action,
    load_event,
    load_prompt,
    load_record,
    load_state,
    load_view,
    make_prompt,
    message_type,
    to_data,
    to_json,
)
from darkempire.rules.state import DECISION_PHASES, PLAY_PHASES, GameConfig, GameState, Phase
from darkempire.rules.table import Play
from darkempire.rules.views import player_view, spectator_view
from embedding_games import finished_game, game_states, random_history, steps

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
#: Fuzz cases per fuzz test, by Hypothesis profile.
FUZZ_CASES = {"ci": 5000, "dev": 800, "long": 50000}.get(PROFILE, 5000)
#: Round-trip examples per test, by profile.
ROUND_TRIPS = {"ci": 60, "dev": 20, "long": 2000}.get(PROFILE, 60)
SCHEMA_DIR = Path(__file__).resolve().parent.parent / "src" / "darkempire" / "schemas"


# --------------------------------------------------------------------------- samples of every type


def _messages_of(before: GameState, seat: int, action: Action, after: GameState) -> Iterator[Message]:
    yield action
    yield from engine.events_between(before, after, choices={seat: action})


@functools.cache
def samples() -> tuple[Message, ...]:
    """Messages of every type and kind, from whole random games of each player count."""
    found: list[Message] = []
    for players in (3, 4, 5):
        game = finished_game(players, 1)
        found += opening_events(game.states[0])
        for index, (before, seat, action, after) in enumerate(steps(game)):
            found += _messages_of(before, seat, action, after)
            if index % 60 == 0:  # big documents: a few from each part of the game
                found += [after, spectator_view(after), player_view(after, seat), make_prompt(after, seat)]
        record = game.record()
        found += [game.current, player_view(game.current, 0), record, attrs.evolve(record, digests=())]
    undo = random_history(3, 2, choices=1)
    found += engine.withdraw_reporting(undo.current, undo.choices[0].seat).events
    found.append(PlayNothing())  # random games almost never need it (a hand of reinforcement cards only)
    found.append(random_history(3, 2, choices=30).public_record())  # short: a whole game's takes long to validate
    found.append(card_table())
    return tuple(found)


@pytest.mark.spec("9.4")
def test_the_samples_cover_every_message_type_and_kind() -> None:
    kinds = {type(m) for m in samples()}
    assert set(ACTION_TYPES) <= kinds
    assert set(EVENT_TYPES) <= kinds
    assert {message_type(m) for m in samples()} == set(MESSAGE_TYPES)


# --------------------------------------------------------------------------- round trips


@pytest.mark.spec("9.3", "9.4")
def test_every_sample_round_trips_exactly() -> None:
    for message in samples():
        text = to_json(message)
        assert from_json(text) == message
        assert from_json(to_json(message, indent=2)) == message
        assert from_data(json.loads(text)) == message


@pytest.mark.spec("9.3")
@settings(max_examples=ROUND_TRIPS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states())
def test_states_round_trip_exactly(state: GameState) -> None:
    loaded = load_state(to_json(state))
    assert loaded == state
    assert engine.awaited_seats(loaded) == engine.awaited_seats(state)
    assert canonical_json(loaded) == canonical_json(state)


@pytest.mark.spec("9.4")
@settings(max_examples=ROUND_TRIPS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(), seat=st.integers(0, 4))
def test_views_prompts_and_legal_actions_round_trip_exactly(state: GameState, seat: int) -> None:
    seat %= state.players
    view = player_view(state, seat)
    assert load_view(to_json(view)) == view
    assert load_view(to_json(spectator_view(state))) == spectator_view(state)
    prompt = make_prompt(state, seat)
    assert load_prompt(to_json(prompt)) == prompt
    for action in prompt.legal_actions[:40]:
        assert load_action(to_json(action), hand=view.hand) == action


@pytest.mark.spec("9.2")
@settings(max_examples=ROUND_TRIPS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from((3, 4, 5)), seed=st.integers(0, 7), index=st.integers(0, 10_000))
def test_events_round_trip_exactly(players: int, seed: int, index: int) -> None:
    game = finished_game(players, seed)
    index %= len(game.choices)
    for event in game.events(index)[:30]:
        assert load_event(to_json(event)) == event


@pytest.mark.spec("9.3")
def test_records_round_trip_exactly() -> None:
    record = finished_game(5, 2).record()
    assert load_record(to_json(record)) == record


# --------------------------------------------------------------------------- the encoding


@pytest.mark.spec("1.2", "9.4")
def test_the_encoding_uses_card_ids_and_names() -> None:
    card = HAND_CARDS[14]  # Calendrical Order 4 #14
    assert to_json(PlayCard(card, Side.EMPEROR)) == (
        '{"format":"darkempire/1","type":"action","kind":"play-card","card":14,"side":"EMPEROR"}'
    )
    assert to_data(PassCards([HAND_CARDS[70], HAND_CARDS[3]]))["cards"] == [3, 70]  # sets sorted by id
    assert to_data(Reorganize()) == {
        "format": FORMAT,
        "type": "action",
        "kind": "reorganize",
        "take_back": None,
        "discards": [],
    }
    state = finished_game(3, 1).states[0]
    data = to_data(state)
    assert data["victors"] == [f.name for f in state.victors]
    assert data["hands"][0] == [c.id for c in state.hands[0]]
    assert data["revolution_pile"] == [r.faction.name for r in state.revolution_pile]
    assert data["chance"] == {"seed": 1, "draws": state.chance.draws}
    assert kind_of(Reorganize) == "reorganize" and message_type(state) == "game-state"
    with pytest.raises(TypeError):
        message_type(42)


@pytest.mark.spec("9.4")
def test_defaults_may_be_left_out_by_a_client() -> None:
    assert load_action('{"format":"darkempire/1","type":"action","kind":"play-card","card":5}') == PlayCard(
        HAND_CARDS[5]
    )
    assert load_action('{"format":"darkempire/1","type":"action","kind":"reorganize"}') == Reorganize()


# --------------------------------------------------------------------------- untrusted input: typed errors with paths


@functools.cache
def _short_record() -> GameRecord:
    """A finished game's record cut to its first 12 choices (loading does not replay it)."""
    record = finished_game(3, 3).record()
    return attrs.evolve(record, choices=record.choices[:12], digests=record.digests[:12])


def _record_data() -> dict[str, Any]:
    return to_data(_short_record())


@functools.cache
def _rich_state() -> GameState:
    """A re-organize state with cards on the score track, emperor cards left and a pending choice."""
    for seed in range(8):
        for state in finished_game(4, seed).states:
            if (
                state.phase is Phase.REORGANIZE
                and state.score_track.faction_cards
                and state.emperor_pile
                and any(p is not None for p in state.pending)
            ):
                return state
    raise AssertionError("no such state in the sampled games")


def _state_data() -> dict[str, Any]:
    return to_data(_rich_state())


def _set(path: list[str | int], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target: Any = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return mutate


def _delete(path: list[str | int]) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target: Any = data
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return mutate


RECORD_CASES: list[tuple[Callable[[dict[str, Any]], None], type[SerializationError], str]] = [
    (_set(["choices", 3, "action", "cards", 0], 75), UnknownCardError, "choices[3].action.cards[0]"),
    (_set(["choices", 3, "action", "cards", 1], -1), UnknownCardError, "choices[3].action.cards[1]"),
    (_set(["choices", 3, "action", "cards", 0], "7"), WrongTypeError, "choices[3].action.cards[0]"),
    (_set(["choices", 3, "action", "cards"], {"a": 1}), WrongTypeError, "choices[3].action.cards"),
    (_set(["choices", 3, "action", "extra"], 1), UnknownFieldError, "choices[3].action.extra"),
    (_delete(["choices", 3, "action", "cards"]), MissingFieldError, "choices[3].action.cards"),
    (_delete(["choices", 3, "action", "kind"]), MissingFieldError, "choices[3].action.kind"),
    (_set(["choices", 3, "action", "kind"], "steal-card"), InvalidValueError, "choices[3].action.kind"),
    (_set(["choices", 3, "seat"], True), WrongTypeError, "choices[3].seat"),
    (_set(["choices", 3, "seat"], 3), InvalidValueError, "choices[3].seat"),
    (_set(["choices", 3], [0, {}]), WrongTypeError, "choices[3]"),
    (_set(["config", "players"], 6), InvalidValueError, "config.players"),
    (_set(["config", "players"], "4"), WrongTypeError, "config.players"),
    (_set(["config", "theme"], "x"), UnknownFieldError, "config.theme"),
    (_set(["seed"], None), WrongTypeError, "seed"),
    (_set(["verdict", "reason"], "COUP"), InvalidValueError, "verdict.reason"),
    (_set(["verdict", "victors", 0], "PIRATES"), InvalidValueError, "verdict.victors[0]"),
    (_set(["verdict", "winners"], [0, 0]), InvalidValueError, "verdict.winners[1]"),
    (_set(["digests", 5], "not-hex"), InvalidValueError, "digests[5]"),
    (_delete(["verdict"]), MissingFieldError, "verdict"),
    (_set(["format"], "darkempire/2"), FormatVersionError, "format"),
    (_set(["format"], "darkempire/0"), FormatVersionError, "format"),
    (_set(["format"], "darkempire/01"), FormatVersionError, "format"),
    (_set(["format"], "chess/1"), FormatVersionError, "format"),
    (_delete(["format"]), FormatVersionError, "format"),
    (_set(["type"], "game-state"), InvalidValueError, "type"),
    (_set(["type"], "spell"), InvalidValueError, "type"),
]


@pytest.mark.spec("9.3")
def test_numbers_with_a_fraction_are_not_integers_even_when_whole() -> None:
    # JSON Schema counts 7.0 as an integer; the loaders want integers written as integers, as JSON.stringify does.
    data = _record_data()
    data["choices"][3]["action"]["cards"][0] = 7.0
    with pytest.raises(WrongTypeError) as caught:
        load_record(json.dumps(data))
    assert caught.value.path == "choices[3].action.cards[0]"


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(("mutate", "error", "path"), RECORD_CASES)
def test_a_bad_record_raises_a_typed_error_with_the_path(
    mutate: Callable[[dict[str, Any]], None], error: type[SerializationError], path: str
) -> None:
    data = _record_data()
    mutate(data)
    with pytest.raises(error) as caught:
        load_record(json.dumps(data))
    assert caught.value.path == path
    assert type(caught.value) is error
    assert str(caught.value).startswith(path + ":")
    assert isinstance(caught.value, ValueError)


def _swap_hand_card_with_draw(data: dict[str, Any]) -> None:
    data["hands"][1][0] = data["draw_pile"][0]


STATE_CASES: list[tuple[Callable[[dict[str, Any]], None], type[SerializationError], str]] = [
    (_swap_hand_card_with_draw, ConservationError, "hands[1][0]"),
    (lambda d: d["draw_pile"].pop(), ConservationError, ""),
    (
        lambda d: d["discard_pile"].append(d["score_track"]["faction_cards"][0]["card"]),
        ConservationError,
        "score_track.faction_cards[0].card",
    ),
    (lambda d: d["emperor_pile"].pop(), ConservationError, ""),
    (
        lambda d: d["revolution_reserve"].append(d["table"]["revolution_card"]),
        ConservationError,
        "table.revolution_card",
    ),
    (_set(["month_tokens", 0], 99), InconsistentStateError, "month_tokens"),
    (_set(["month_tokens", 0], -1), InvalidValueError, "month_tokens[0]"),
    (lambda d: d["victors"].pop(), InconsistentStateError, "victors"),
    (lambda d: d.__setitem__("victors", [d["victors"][0]] * len(d["victors"])), InconsistentStateError, "victors"),
    (_set(["phase"], "DRAFT_PASS"), InconsistentStateError, "table"),
    (_set(["phase"], "GAME_OVER"), InconsistentStateError, "verdict"),
    (_set(["phase"], "BRUNCH"), InvalidValueError, "phase"),
    (_set(["month"], 4), InvalidValueError, "month"),
    (_set(["week"], 5), InvalidValueError, "week"),
    (_set(["week_score"], None), InconsistentStateError, "week_score"),
    (_set(["history", 0, "score", "tokens", 0], 50), InconsistentStateError, "history[0].score"),
    (_set(["table", "plays", 0, "seat"], 9), InvalidValueError, "table.plays[0].seat"),
    (_set(["table", "plays", 0, "step"], 4), InconsistentStateError, "table.plays[0].step"),
    (_set(["table", "idle"], [[1, 2, 3]]), InvalidValueError, "table.idle[0]"),
    (_set(["chance", "draws"], -2), InvalidValueError, "chance.draws"),
]


@pytest.mark.spec("1.2", "1.3", "1.4", "9.3")
@pytest.mark.parametrize(("mutate", "error", "path"), STATE_CASES)
def test_a_bad_state_raises_a_typed_error_with_the_path(
    mutate: Callable[[dict[str, Any]], None], error: type[SerializationError], path: str
) -> None:
    data = _state_data()
    mutate(data)
    with pytest.raises(error) as caught:
        load_state(json.dumps(data))
    assert caught.value.path == path


@pytest.mark.spec("9.3")
def test_a_state_with_a_pending_choice_that_is_not_legal_is_refused() -> None:
    history = random_history(4, 6, choices=2)
    data = to_data(history.current)
    seat = next(s for s, p in enumerate(history.current.pending) if p is not None)
    stranger = next(c for c in history.current.hands[(seat + 1) % 4])
    data["pending"][seat]["cards"][0] = stranger.id
    with pytest.raises(InconsistentStateError) as caught:
        load_state(json.dumps(data))
    assert caught.value.path == f"pending[{seat}]"


# --------------------------------------------------------------------------- states the rules cannot reach


@functools.cache
def _phase_state(phase: Phase, month: int = 1, *, pending: bool = False, players: int = 4) -> GameState:
    """The first state of the cached random games in ``phase`` and ``month``, with or without a pending choice;
    a play phase's state has an emperor card on the table and, from step 2, a card played at every step."""
    for seed in range(8):
        for state in finished_game(players, seed).states:
            if (
                state.phase is phase
                and state.month == month
                and any(p is not None for p in state.pending) == pending
                and (state.table is None or phase not in PLAY_PHASES or state.table.emperor_card is not None)
                and (phase is not Phase.REORGANIZE or state.score_track.faction_cards)
            ):
                return state
    raise AssertionError(f"no {phase} state in month {month} in the sampled games")


def _data(phase: Phase, month: int = 1, *, pending: bool = False) -> dict[str, Any]:
    return to_data(_phase_state(phase, month, pending=pending))


def _deal_to_hand(data: dict[str, Any], seat: int, count: int) -> None:
    """Move ``count`` cards from the draw pile into ``seat``'s hand, kept sorted: card conservation holds."""
    data["hands"][seat] = sorted(data["hands"][seat] + data["draw_pile"][:count])
    data["draw_pile"] = data["draw_pile"][count:]


def _hand_to_draw_pile(data: dict[str, Any], seat: int, count: int) -> None:
    data["draw_pile"] += data["hands"][seat][:count]
    data["hands"][seat] = data["hands"][seat][count:]


def _move(source: list[str | int], target: list[str | int]) -> Callable[[dict[str, Any]], None]:
    """Move the first item of the list at path ``source`` to the end of the list at path ``target``."""

    def mutate(data: dict[str, Any]) -> None:
        src: Any = data
        for part in source:
            src = src[part]
        dst: Any = data
        for part in target:
            dst = dst[part]
        dst.append(src.pop(0))

    return mutate


def _every_awaited_seat_chooses(data: dict[str, Any]) -> None:
    state = load_state(json.dumps(data))
    for seat in engine.awaited_seats(state):
        data["pending"][seat] = _payload(engine.legal_actions(state, seat)[0])


def _payload(action: Action) -> dict[str, Any]:
    """An action as a state's JSON holds it: without the message envelope."""
    return {k: v for k, v in to_data(action).items() if k not in ("format", "type")}


def _lay_the_emperor_card_aside(data: dict[str, Any]) -> None:
    data["emperor_reserve"].append(data["table"]["emperor_card"])
    data["table"].update(emperor_card=None, add_on=None)


def _discard_a_table_card(data: dict[str, Any]) -> None:
    play = next(p for p in data["table"]["plays"] if not p["reinforcements"])
    data["table"]["plays"].remove(play)
    data["discard_pile"].append(play["card"])


def _remove_first_play(data: dict[str, Any]) -> None:
    """Take the table's first play back into its seat's hand: the seat then has no entry for step 1."""
    play = data["table"]["plays"].pop(0)
    assert not play["reinforcements"]
    data["hands"][play["seat"]] = sorted(data["hands"][play["seat"]] + [play["card"]])


def _idle_seat_that_played(data: dict[str, Any]) -> None:
    data["table"]["idle"] = sorted(data["table"]["idle"] + [[1, data["table"]["plays"][0]["seat"]]])


def _unused_faction(data: dict[str, Any], seat: int) -> str:
    used = set(data["support_used"][seat]) | {data["support"][seat]}
    return next(f.name for f in Faction if f.name not in used)


def _swap_a_used_support(data: dict[str, Any]) -> None:
    data["support_used"][0] = sorted([*data["support_used"][0][1:], _unused_faction(data, 0)])


def _set_support(data: dict[str, Any]) -> None:
    data["support"][0] = _unused_faction(data, 0)


def _first_placed(data: dict[str, Any]) -> int:
    return next(i for i, record in enumerate(data["history"]) if record["placed"])


def _move_a_placement_to_another_week(data: dict[str, Any]) -> None:
    data["history"][_first_placed(data)]["placed"][0]["week"] = 4 - data["history"][_first_placed(data)]["week"]


def _set_verdict_reason(data: dict[str, Any]) -> None:
    data["verdict"]["reason"] = "LEADER_TOO_POWERFUL" if data["verdict"]["reason"] == "REVOLUTION" else "REVOLUTION"


#: (phase and month of the base state, mutation, error, path); every mutation keeps card conservation.
REACH_CASES: list[tuple[tuple[Phase, int], Callable[[dict[str, Any]], None], type[SerializationError], str]] = [
    # Hand sizes against the phase (rules 2.4-2.6, 6.4).
    ((Phase.DRAFT_PASS, 1), lambda d: _hand_to_draw_pile(d, 1, 8), InconsistentStateError, "hands[1]"),
    ((Phase.DRAFT_DISCARD, 1), lambda d: _deal_to_hand(d, 2, 1), InconsistentStateError, "hands[2]"),
    ((Phase.CHOOSE_SUPPORT, 1), lambda d: _deal_to_hand(d, 0, 1), InconsistentStateError, "hands[0]"),
    ((Phase.CHOOSE_SUPPORT, 1), _move(["discard_pile"], ["draw_pile"]), InconsistentStateError, "discard_pile"),
    ((Phase.CHOOSE_SUPPORT, 2), lambda d: _deal_to_hand(d, 3, 1), InconsistentStateError, "hands[3]"),
    ((Phase.CHOOSE_SUPPORT, 2), lambda d: _hand_to_draw_pile(d, 1, 1), InconsistentStateError, "hands[1]"),
    ((Phase.PLAY_2, 1), lambda d: _deal_to_hand(d, 1, 1), InconsistentStateError, "hands[1]"),
    ((Phase.REORGANIZE, 1), lambda d: _deal_to_hand(d, 0, 1), InconsistentStateError, "hands[0]"),
    ((Phase.DRAFT_PASS, 1), _move(["draw_pile"], ["discard_pile"]), InconsistentStateError, "discard_pile"),
    # Week and month against the phase (rules 2.5, 3.2, ruling O).
    ((Phase.DRAFT_PASS, 1), _set(["month"], 2), InconsistentStateError, "month"),
    ((Phase.DRAFT_DISCARD, 1), _set(["week"], 1), InconsistentStateError, "week"),
    ((Phase.CHOOSE_SUPPORT, 1), _set(["week"], 4), InconsistentStateError, "week"),
    ((Phase.PLAY_1, 1), _set(["week"], 0), InconsistentStateError, "week"),
    ((Phase.REORGANIZE, 1), lambda d: d.update(month=3, week=4), InconsistentStateError, "phase"),
    ((Phase.GAME_OVER, 3), _set(["week"], 3), InconsistentStateError, "week"),
    # Pile sizes against the week (rule 3.3, ruling J).
    ((Phase.PLAY_1, 1), _move(["revolution_pile"], ["revolution_reserve"]), InconsistentStateError, "revolution_pile"),
    ((Phase.PLAY_2, 2), _move(["emperor_pile"], ["emperor_reserve"]), InconsistentStateError, "emperor_pile"),
    ((Phase.CHOOSE_SUPPORT, 2), _move(["emperor_pile"], ["emperor_reserve"]), InconsistentStateError, "emperor_pile"),
    # The add-on card and the emperor card (rule 2.2, ruling J).
    ((Phase.PLAY_1, 1), _set(["table", "add_on"], "TEN_PLUS"), InconsistentStateError, "table.add_on"),
    ((Phase.PLAY_2, 1), _set(["table", "add_on"], None), InconsistentStateError, "table.add_on"),
    (
        (Phase.PLAY_1, 1),
        _lay_the_emperor_card_aside,
        InconsistentStateError,
        "table.emperor_card",
    ),
    # The table against the phase (rules 4.2, 4.4, ruling H).
    ((Phase.PLAY_2, 1), _set(["table", "steps_revealed"], 2), InconsistentStateError, "table.steps_revealed"),
    ((Phase.PLAY_2, 1), _remove_first_play, InconsistentStateError, "table.idle"),
    ((Phase.PLAY_2, 1), _idle_seat_that_played, InconsistentStateError, "table.plays"),
    ((Phase.REORGANIZE, 1), _discard_a_table_card, InconsistentStateError, "table.plays"),
    # Choices that would have resolved (rule 9.2).
    ((Phase.DRAFT_PASS, 1), _every_awaited_seat_chooses, InconsistentStateError, "pending"),
    ((Phase.PLAY_3, 2), _every_awaited_seat_chooses, InconsistentStateError, "pending"),
    ((Phase.REORGANIZE, 2), _every_awaited_seat_chooses, InconsistentStateError, "pending"),
    # Finished weeks and months (rules 3.2, 5.5, 7.1-7.3, 8.1).
    ((Phase.REORGANIZE, 1), lambda d: d["history"].pop(), InconsistentStateError, "history"),
    ((Phase.GAME_OVER, 3), _set(["history", 1, "week"], 3), InconsistentStateError, "history[1].week"),
    ((Phase.GAME_OVER, 3), _move_a_placement_to_another_week, InconsistentStateError, "history[{placed}].placed[0]"),
    ((Phase.GAME_OVER, 3), lambda d: d["month_scores"][0]["bonus"].reverse(), InconsistentStateError,
     "month_scores[0]"),  # fmt: skip
    ((Phase.GAME_OVER, 3), _swap_a_used_support, InconsistentStateError, "support_used[0]"),
    ((Phase.GAME_OVER, 3), _set_support, InconsistentStateError, "support[0]"),
    ((Phase.GAME_OVER, 3), _set_verdict_reason, InconsistentStateError, "verdict"),
    # The random generator (rules 2.3, 2.4, 9.3).
    ((Phase.CHOOSE_SUPPORT, 2), _set(["chance", "draws"], 5), InconsistentStateError, "chance.draws"),
    ((Phase.DRAFT_PASS, 1), _set(["chance", "seed"], 2**64), InvalidValueError, "chance.seed"),
]


@pytest.mark.spec("2.2", "2.4", "2.6", "3.2", "3.3", "4.2", "6.4", "9.2", "9.3", "R-H", "R-J", "R-K", "R-O")
@pytest.mark.parametrize(("base", "mutate", "error", "path"), REACH_CASES)
def test_a_state_the_rules_cannot_reach_is_refused_with_the_path(
    base: tuple[Phase, int], mutate: Callable[[dict[str, Any]], None], error: type[SerializationError], path: str
) -> None:
    data = _data(*base)
    load_state(json.dumps(data))  # the base state loads
    mutate(data)
    if "{placed}" in path:
        path = path.format(placed=_first_placed(data))
    with pytest.raises(error) as caught:
        load_state(json.dumps(data))
    assert caught.value.path == path


@pytest.mark.spec("2.6", "6.4", "9.3")
@pytest.mark.parametrize("extra", [1, 14, 44])
@pytest.mark.parametrize("pending", [False, True])
def test_a_huge_hand_at_re_organize_is_refused_before_its_choices_are_listed(extra: int, pending: bool) -> None:
    # A hand of n cards has 2**n re-organize discard choices: loading used to list them all to check the
    # pending choice, and the engine listed them again for legal_actions (hostile sample: 18 cards, seconds).
    data = _data(Phase.REORGANIZE)
    _deal_to_hand(data, 0, extra)
    if pending:
        data["pending"][0] = _payload(Reorganize())
    with pytest.raises(InconsistentStateError) as caught:
        load_state(json.dumps(data))
    assert caught.value.path == "hands[0]"
    assert "at most 7" in caught.value.message


@pytest.mark.spec("9.3")
def test_a_programs_own_unreachable_state_loads_only_without_the_checks() -> None:
    # The OpenSpiel adapter saves states between two chance draws of a refill (hands short of 7): not moments of
    # a game, so loading refuses them unless told they are the program's own.
    data = _data(Phase.PLAY_1, 2)
    _hand_to_draw_pile(data, 1, 3)
    with pytest.raises(InconsistentStateError):
        from_data(data)
    loaded = from_data(data, "game-state", check=False)
    assert isinstance(loaded, GameState) and len(loaded.hands[1]) == len(_phase_state(Phase.PLAY_1, 2).hands[1]) - 3
    assert from_json(to_json(loaded), check=False) == loaded
    data["hands"][1][0] = "seven"
    with pytest.raises(WrongTypeError):  # the types are still checked
        from_data(data, check=False)


# --------------------------------------------------------------------------- check_state


@pytest.mark.spec("9.3")
def test_check_state_accepts_every_state_of_random_and_bot_games() -> None:
    phases: set[Phase] = set()
    states = [s for players in (3, 4, 5) for s in finished_game(players, 1).states]
    bots = [make_bot("greedy", seat) if seat % 2 else make_bot("random", seat) for seat in range(5)]
    states += [turn.after for turn in iter_game(GameConfig(players=5), 3, bots)]
    for state in states:
        check_state(state)
        phases.add(state.phase)
    assert phases == set(DECISION_PHASES) | {Phase.GAME_OVER}


@pytest.mark.spec("4.2", "9.3", "R-H")
def test_check_state_accepts_idle_seats() -> None:
    # A seat that holds reinforcement cards only plays nothing at step 1 (ruling H): random games almost never
    # deal such a hand, so deal it by hand (a reachable deal: 7 of the 10 reinforcement cards) and play on.
    state = _phase_state(Phase.CHOOSE_SUPPORT, players=3)
    spare = [c for c in state.draw_pile + state.discard_pile if c.is_reinforcement][:7]
    assert len(spare) == 7
    swap = dict(zip(spare, state.hands[0], strict=True))
    state = attrs.evolve(
        state,
        hands=(tuple(sorted(spare, key=lambda c: c.id)), *state.hands[1:]),
        draw_pile=tuple(swap.get(c, c) for c in state.draw_pile),
        discard_pile=tuple(swap.get(c, c) for c in state.discard_pile),
    )
    rng = random.Random(0)
    idle = 0
    while state.month == 1:
        check_state(state)
        idle += bool(state.table and state.table.idle)
        seat = min(engine.awaited_seats(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert idle > 0


def _before_month_scoring(after: GameState) -> GameState:
    """The state in the automatic monthly scoring phase that led to ``after`` (the next month's support choice, or
    the end of the game), built by undoing the month's scoring and reset (rules 7.1-7.4)."""
    score = after.month_scores[-1]
    month = score.month
    month_tokens = [0] * after.players
    for record in after.history:
        if record.month == month:
            month_tokens = [t + w for t, w in zip(month_tokens, record.score.tokens, strict=True)]
    banked = tuple(b - t - x for b, t, x in zip(after.banked_tokens, month_tokens, score.bonus, strict=True))
    state = attrs.evolve(
        after,
        phase=Phase.MONTH_SCORING,
        month=month,
        week=4,
        support=score.support,
        support_used=tuple(used - {f} for used, f in zip(after.support_used, score.support, strict=True)),
        month_scores=after.month_scores[:-1],
        month_tokens=tuple(month_tokens),
        banked_tokens=banked,
        verdict=None,
    )
    if month == 3:
        return state
    # Before the reset: the month's revolution and emperor cards are out of the piles; the same two shuffles
    # (counter-based, Chance) make the same new piles.
    return attrs.evolve(
        state,
        revolution_pile=(),
        revolution_reserve=after.revolution_pile + after.revolution_reserve,
        emperor_pile=(),
        emperor_reserve=after.emperor_pile + after.emperor_reserve,
        chance=attrs.evolve(after.chance, draws=after.chance.draws - 2),
    )


@pytest.mark.spec("7.1", "7.4", "9.3", "R-O")
@pytest.mark.parametrize("month", [2, 3, 4])
def test_check_state_accepts_the_automatic_month_scoring_phase(month: int) -> None:
    after = _phase_state(Phase.CHOOSE_SUPPORT, month) if month < 4 else finished_game(4, 0).current
    before = _before_month_scoring(after)
    check_state(before)
    assert engine.score_month(before) == after  # it is the state the engine scored
    with pytest.raises(InconsistentStateError) as caught:
        check_state(attrs.evolve(before, week=3))
    assert caught.value.path == "week"


@pytest.mark.spec("4.2", "9.3")
def test_check_state_accepts_the_automatic_week_scoring_phase() -> None:
    before = _phase_state(Phase.PLAY_3, 2)
    table = before.table
    assert table is not None
    hands = list(before.hands)
    plays = list(table.plays)
    idle = set(table.idle)
    choices: dict[int, PlayCard | Reinforce | PlayNothing] = {}
    for seat in engine.awaited_seats(before):
        choices[seat] = next(a for a in engine.legal_actions(before, seat) if isinstance(a, (PlayCard, PlayNothing)))
    for seat in before.seats:
        action = choices.get(seat)
        if isinstance(action, PlayCard) and isinstance(action.card, FactionCard):
            plays.append(Play(seat, action.card, action.side, 3))
            hands[seat] = tuple(c for c in hands[seat] if c != action.card)
        else:
            assert action is None or isinstance(action, PlayNothing)
            idle.add((3, seat))
    scoring = attrs.evolve(
        before,
        phase=Phase.WEEK_SCORING,
        hands=tuple(hands),
        table=attrs.evolve(table, plays=tuple(plays), idle=frozenset(idle), steps_revealed=3),
    )
    check_state(scoring)
    assert engine.score_week(scoring) == engine.play(before, choices)



def _forged_chance(seed: Any) -> Chance:
    """A generator whose seed was changed behind its frozen back (its validator refuses such a seed): what the
    encoder and ``check_state`` must still refuse, naming the field."""
    forged = Chance(1)
    object.__setattr__(forged, "seed", seed)
    return forged

@pytest.mark.spec("9.3")
def test_check_state_refuses_values_of_the_wrong_type_with_the_path() -> None:
    state = _phase_state(Phase.PLAY_2)
    check_state(state)
    cases: list[tuple[GameState, str]] = [
        (attrs.evolve(state, hands=tuple(list(h) for h in state.hands)), "hands[0]"),  # type: ignore[misc]
        (
            attrs.evolve(state, hands=((7, *state.hands[0][1:]), *state.hands[1:])),  # type: ignore[arg-type]
            "hands[0][0]",
        ),
        (attrs.evolve(state, chance=_forged_chance("abc")), "chance.seed"),
        (attrs.evolve(state, chance=_forged_chance(True)), "chance.seed"),
        (attrs.evolve(state, month=2.0), "month"),  # type: ignore[arg-type]
        (attrs.evolve(state, pending=(PassCards(state.hands[0][:2]), *state.pending[1:])), "pending[0]"),
        (attrs.evolve(state, victors=tuple(int(f) for f in state.victors)), "victors[0]"),  # type: ignore[misc]
    ]
    for bad, path in cases:
        with pytest.raises(InconsistentStateError) as caught:
            check_state(bad)
        assert caught.value.path == path, caught.value
    with pytest.raises(InconsistentStateError) as huge:
        check_state(attrs.evolve(state, hands=(state.hands[0] + state.draw_pile[:1], *state.hands[1:])))
    assert huge.value.path == "hands[0]"


# --------------------------------------------------------------------------- arguments and values built by hand


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("seed", ["abc", 1.5, float("nan"), True, object()])
def test_encoding_a_value_the_format_cannot_carry_raises_a_typed_error(seed: Any) -> None:
    with pytest.raises(ChanceError) as refused:  # the generator refuses it itself, naming the field
        Chance(seed)
    assert refused.value.field == "seed"
    state = attrs.evolve(finished_game(3, 1).states[0], chance=_forged_chance(seed))
    for encode in (to_json, canonical_json, to_data):
        with pytest.raises(SerializationError) as caught:
            encode(state)
        assert caught.value.path == "chance.seed"
        assert not isinstance(caught.value, TypeError)
    card = attrs.evolve(finished_game(3, 1).states[0], discard_pile=(12,))  # type: ignore[arg-type]
    with pytest.raises(WrongTypeError) as not_a_card:
        to_json(card)
    assert not_a_card.value.path == "discard_pile[0]"


@pytest.mark.spec("9.3")
def test_encoding_a_value_that_is_no_message_raises_a_typed_type_error() -> None:
    with pytest.raises(NotAMessageError) as caught:
        to_json(5)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, DarkEmpireError)


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("expected", ["bogus", "", 5, ["action"], "Action"])
def test_an_expected_type_that_is_no_message_type_is_a_bad_argument(expected: Any) -> None:
    text = to_json(Reorganize())
    with pytest.raises(InvalidArgumentError):
        from_json(text, expected=expected)
    with pytest.raises(InvalidArgumentError):
        from_json("not json", expected=expected)  # the argument, not the document, is at fault
    with pytest.raises(InvalidArgumentError):
        from_data(json.loads(text), expected=expected)
    assert from_json(text, expected="action") == Reorganize()


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("hand", [5, "12", None.__class__, [1, 2], {HAND_CARDS[1]: 1}, [HAND_CARDS[1], 2]])
def test_a_hand_that_is_no_iterable_of_cards_is_a_bad_argument(hand: Any) -> None:
    with pytest.raises(InvalidArgumentError):
        load_action(to_json(PlayCard(HAND_CARDS[1])), hand=hand)
    assert load_action(to_json(PlayCard(HAND_CARDS[1])), hand=iter([HAND_CARDS[1]])) == PlayCard(HAND_CARDS[1])


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", MalformedJSONError),
        ("{", MalformedJSONError),
        ('{"format": "darkempire/1", "type": "action", "kind": "play-nothing"', MalformedJSONError),
        ("NaN", MalformedJSONError),
        ('{"format": "darkempire/1", "type": "action", "kind": "play-card", "card": Infinity}', MalformedJSONError),
        ("[" * 100_000, MalformedJSONError),
        ("1" * 5000, MalformedJSONError),
        (b"\xff\xfe", MalformedJSONError),
        ("[]", WrongTypeError),
        ('"darkempire/1"', WrongTypeError),
        ("{}", FormatVersionError),
        ('{"format": 1}', FormatVersionError),
        ('{"format": "darkempire/1"}', MissingFieldError),
        ('{"format": "darkempire/1", "type": "action"}', MissingFieldError),
    ],
)
def test_malformed_documents_raise_typed_errors(text: str | bytes, error: type[SerializationError]) -> None:
    with pytest.raises(error):
        from_json(text)


@pytest.mark.spec("9.3")
def test_a_future_format_version_is_named() -> None:
    data = to_data(Reorganize())
    data["format"] = "darkempire/7"
    with pytest.raises(FormatVersionError, match="newer version") as caught:
        from_data(data)
    assert caught.value.path == "format"


@pytest.mark.spec("4.2", "9.1")
def test_an_action_naming_a_card_the_seat_does_not_hold_is_refused() -> None:
    state = finished_game(4, 1).states[0]
    hand = state.hands[2]
    stranger = state.hands[3][0]
    text = to_json(PassCards([hand[0], stranger]))
    with pytest.raises(CardNotHeldError) as caught:
        load_action(text, hand=hand)
    index = json.loads(text)["cards"].index(stranger.id)
    assert caught.value.path == f"cards[{index}]" and str(stranger.id) in caught.value.message
    assert load_action(text) == PassCards([hand[0], stranger])  # without a hand only the value is checked
    with pytest.raises(CardNotHeldError) as play:
        load_action(to_json(PlayCard(stranger)), hand=hand)
    assert play.value.path == "card"
    discards = Reorganize(None, [hand[1], stranger])
    with pytest.raises(CardNotHeldError):
        load_action(to_json(discards), hand=hand)


@pytest.mark.spec("9.4")
def test_a_view_that_no_seat_could_have_is_refused() -> None:
    state = finished_game(3, 2).states[30]
    data = to_data(player_view(state, 1))
    data["hand"].pop()
    with pytest.raises(InconsistentStateError) as caught:
        load_view(json.dumps(data))
    assert caught.value.path == "hand"
    spectator = to_data(spectator_view(state))
    spectator["victor"] = "WORKERS"
    with pytest.raises(InconsistentStateError):
        load_view(json.dumps(spectator))
    prompt = to_data(make_prompt(state, 0))
    prompt["view"]["seat"] = 5
    with pytest.raises(InvalidValueError) as wrong_seat:
        load_prompt(json.dumps(prompt))
    assert wrong_seat.value.path == "view.seat"


@pytest.mark.spec("2.2", "9.4")
def test_a_view_with_the_add_on_of_another_player_count_is_refused() -> None:
    view = to_data(player_view(_phase_state(Phase.PLAY_1), 2))
    load_view(json.dumps(view))
    wrong = copy.deepcopy(view)
    wrong["add_on"] = "TEN_PLUS"
    with pytest.raises(InconsistentStateError) as caught:
        load_view(json.dumps(wrong))
    assert caught.value.path == "add_on"
    view["table"]["add_on"] = "TEN_PLUS"
    with pytest.raises(InconsistentStateError) as on_table:
        load_view(json.dumps(view))
    assert on_table.value.path == "table.add_on"


# --------------------------------------------------------------------------- fuzzing the loaders

# Hypothesis picks the seed of each example and each example tries FUZZ_BATCH documents from it: thousands
# of cases stay within seconds, and a failure still reproduces from the printed example.
FUZZ_BATCH = 8
CASES: dict[str, int] = {}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

_SCALARS: tuple[Any, ...] = (None, True, False, 0, -1, 1, 2, 3, 7, 74, 75, 8, 2**64, -(2**70), 1.5, 7.0, 1e300)
_STRINGS: tuple[str, ...] = ("", "WORKERS", "PLAY_1", "REVOLUTION", "play-card", "reorganize", FORMAT, "darkempire/9")


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth >= 4 or roll < 0.45:
        return rng.choice([*_SCALARS, *_STRINGS, "".join(rng.choice('ab{}[]"0\\') for _ in range(rng.randrange(6)))])
    if roll < 0.7:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = [*_STRINGS, "kind", "type", "format", "card", "cards", "seat", "action", "choices", "players"]
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def _accepts_only_valid(document: str | bytes) -> None:
    """Loading ``document`` either raises a SerializationError or gives a value that round-trips."""
    try:
        loaded = from_json(document)
    except SerializationError:
        return
    assert from_json(to_json(loaded)) == loaded


@pytest.mark.spec("9.3")
@settings(max_examples=FUZZ_CASES // FUZZ_BATCH, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), value=json_values)
def test_random_json_raises_only_typed_errors(seed: int, value: Any) -> None:
    rng = random.Random(seed)
    documents: list[str | bytes] = [json.dumps(value), json.dumps({"format": FORMAT, "type": "action", "value": value})]
    while len(documents) < FUZZ_BATCH:
        body = _random_json(rng)
        if isinstance(body, dict) and rng.random() < 0.7:
            body = {"format": FORMAT, "type": rng.choice(sorted(MESSAGE_TYPES)), **body}
        text = json.dumps(body)
        if rng.random() < 0.2:  # damage the text itself
            cut = rng.randrange(len(text) + 1)
            text = text[:cut] + rng.choice(["", "}", "]", ",", "\\", "\x00", "NaN"]) + text[cut + 1 :]
        documents.append(text.encode() if rng.random() < 0.1 else text)
    for document in documents:
        _accepts_only_valid(document)
    CASES["random"] = CASES.get("random", 0) + len(documents)


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


@functools.cache
def _fuzz_seeds() -> tuple[dict[str, Any], ...]:
    """Valid messages of every type to mutate; early-game states keep each case fast."""
    game = random_history(3, 4, choices=40)
    seeds: list[Message] = [game.current, player_view(game.current, 1), make_prompt(game.current, 0), _short_record()]
    seeds += [m for m in samples() if message_type(m) in ("action", "event")][::25]
    return tuple(to_data(s) for s in seeds)


def _mutate(message: dict[str, Any], rng: random.Random) -> None:
    paths = list(_paths(message))[1:]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        parent: Any = message
        try:
            for part in path[:-1]:
                parent = parent[part]
            operation = rng.choice(["replace", "replace", "delete", "add", "swap"])
            if operation == "replace":
                parent[path[-1]] = _random_json(rng, depth=3)
            elif operation == "delete":
                del parent[path[-1]]
            elif operation == "swap":  # another valid-looking value from elsewhere in the message
                source: Any = message
                for part in rng.choice(paths):
                    source = source[part]
                parent[path[-1]] = copy.deepcopy(source)
            elif isinstance(parent, dict):
                parent[rng.choice(["extra", "kind", "card", *parent])] = _random_json(rng, depth=3)
            else:
                parent.append(_random_json(rng, depth=3))
        except (KeyError, IndexError, TypeError, AttributeError):
            continue  # an earlier mutation removed or replaced the path


@pytest.mark.spec("9.3")
@settings(max_examples=FUZZ_CASES // FUZZ_BATCH, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_mutated_messages_raise_only_typed_errors(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(FUZZ_BATCH):
        message = copy.deepcopy(rng.choice(_fuzz_seeds()))
        _mutate(message, rng)
        try:
            loaded = from_data(message)
        except SerializationError:
            continue
        assert from_json(to_json(loaded)) == loaded  # accepted: a valid message of its type
    CASES["mutated"] = CASES.get("mutated", 0) + FUZZ_BATCH


# --------------------------------------------------------------------------- JSON Schemas


@pytest.mark.spec("9.4")
def test_the_shipped_schemas_are_up_to_date() -> None:
    generated = generate_schemas()
    assert set(generated) == set(SCHEMA_FILES.values())
    for name, schema in generated.items():
        assert json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8")) == schema, f"regenerate {name}"
    assert shipped_schemas() == generated
    assert schema_main(["--check", str(SCHEMA_DIR)]) == 0


@pytest.mark.spec("9.4")
def test_the_check_finds_an_outdated_schema(tmp_path: Path) -> None:
    schema_main([str(tmp_path)])
    assert schema_main(["--check", str(tmp_path)]) == 0
    (tmp_path / "action.json").write_text("{}")
    assert schema_main(["--check", str(tmp_path)]) == 1


@functools.cache
def _validators() -> dict[str, Draft202012Validator]:
    schemas = generate_schemas()
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    return {name: Draft202012Validator(schemas[file]) for name, file in SCHEMA_FILES.items()}


@pytest.mark.spec("9.4")
def test_samples_of_every_type_validate_against_their_schema() -> None:
    validators = _validators()
    by_class: dict[type, list[Message]] = {}
    for message in samples():
        by_class.setdefault(type(message), []).append(message)
    for messages in by_class.values():
        # Validation is slow (milliseconds per message): the first, the last and some between of each class.
        chosen = messages[:: max(1, len(messages) // 12)] + messages[-1:]
        if messages[0].__class__ is GameRecord:  # a whole game's record takes half a second
            chosen = [_short_record(), messages[-1]]
        for message in chosen:
            data = json.loads(to_json(message))
            validators[data["type"]].validate(data)


@pytest.mark.spec("9.4")
def test_the_schemas_refuse_what_the_loaders_refuse_by_shape() -> None:
    validators = _validators()
    # The loader alone knows the player count (seat 3 of 3 seats) and that digests are hex.
    beyond_shape = {(InvalidValueError, "choices[3].seat"), (InvalidValueError, "digests[5]")}
    for mutate, error, path in RECORD_CASES:
        data = _record_data()
        mutate(data)
        if (error, path) in beyond_shape or data.get("type") != "game-record":
            continue
        assert not validators["game-record"].is_valid(data), path
    assert not validators["action"].is_valid({"format": FORMAT, "type": "action", "kind": "play-card", "card": 75})
    assert validators["action"].is_valid({"format": FORMAT, "type": "action", "kind": "play-card", "card": 74})


@pytest.mark.spec("9.4")
def test_event_schema_names_every_event_kind() -> None:
    schema = generate_schemas()["event.json"]
    kinds = {option["properties"]["kind"]["const"] for option in schema["oneOf"]}
    assert kinds == {kind_of(cls) for cls in EVENT_TYPES}
    action_kinds = {o["properties"]["kind"]["const"] for o in generate_schemas()["action.json"]["oneOf"]}
    assert action_kinds == {kind_of(cls) for cls in ACTION_TYPES}
