"""Revolution!'s wire format ``revolution/1``: every message round-trips over random whole games, a view's JSON
holds nothing of a pending bid, and hostile input is refused with a located, typed error."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from revolution.rules.actions import Action
from revolution.rules.errors import RevolutionError
from revolution.rules.game import GAME
from revolution.rules.state import Phase, RevolutionConfig, RevolutionState
from revolution.wire import InconsistentError, OutOfRangeError, UnknownFieldError, action_from_json
from revolution.wire import config_from_json, event_from_json, record_from_json, state_from_json
from revolution.wire import to_json, view_from_json
from tablekit.bots import RandomBot, run_game
from tablekit.chance import SeededChance
from tablekit.records import Choice, Record
from tablekit.simultaneous import choose, start
from tablekit.wire import DocumentTooLargeError, DuplicateKeyError, FormatVersionError, MalformedJSONError
from tablekit.wire import MissingFieldError, UnknownTypeError, WireError, WrongTypeError, dump_json

configs = st.builds(RevolutionConfig, players=st.sampled_from([3, 4]), bid_refunds=st.booleans(),
                    area_control_bonus=st.booleans(), table_mode=st.booleans())


def _views(state: RevolutionState) -> list[str]:
    return [to_json(GAME.view(state, viewer)) for viewer in (*range(state.players), None)]


def _round_trips(state: RevolutionState) -> None:
    text = to_json(state)
    assert state_from_json(text) == state and to_json(state_from_json(text)) == text
    for viewer in (*range(state.players), None):
        seen = GAME.view(state, viewer)
        assert view_from_json(to_json(seen)) == seen


@pytest.mark.spec("revolution:9.3", "revolution:9.4")
@settings(max_examples=10)
@given(configs, st.integers(0, 10**6))
def test_every_state_view_action_and_event_of_a_random_game_round_trips(config: RevolutionConfig, seed: int) -> None:
    round, opening = start(GAME, config, SeededChance(seed))
    bots: list[RandomBot[Action]] = [RandomBot(seed + seat) for seat in range(config.players)]
    assert config_from_json(to_json(config)) == config
    _round_trips(round.state)
    choices = []
    while not GAME.is_over(round.state):
        seat = min(GAME.awaited(round.state) - round.chosen)
        action = bots[seat].choose(GAME.view(round.state, seat), GAME.legal_actions(round.state, seat))
        assert action_from_json(to_json(action)) == action
        before = (to_json(round.state), _views(round.state))
        collected = choose(GAME, round, seat, action)
        choices.append(Choice(seat, action))
        if collected.transition is None:  # the bid waits in the collector: no JSON shows it (rule 9.3)
            assert (to_json(collected.round.state), _views(collected.round.state)) == before
        else:
            for event in collected.transition.events:
                assert event_from_json(to_json(event.payload)) == event.payload
            _round_trips(collected.round.state)
        round = collected.round
    record = Record(GAME.name, GAME.version, config, seed, tuple(choices))
    assert record_from_json(to_json(record)) == record


def _game() -> RevolutionState:
    return run_game(GAME, RevolutionConfig(players=3), 3, [RandomBot(s) for s in range(3)]).state


def _bidding_state() -> RevolutionState:
    return start(GAME, RevolutionConfig(players=3), SeededChance(0))[0].state


def _document(value: object) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(to_json(value))
    return document


def _refused(error: type[WireError], path: str, load: Any, doc: dict[str, Any] | str) -> WireError:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(error) as raised:
        load(text)
    assert raised.value.path == path, raised.value
    return raised.value


def test_malformed_duplicate_and_huge_documents_are_refused() -> None:
    text = to_json(_bidding_state())
    _refused(MalformedJSONError, "", state_from_json, text[:-1])
    _refused(MalformedJSONError, "", state_from_json, text.replace('"round":1', '"round":NaN'))
    _refused(DuplicateKeyError, "bank", state_from_json, text.replace('"bank":{', '"bank":{"gold":0,', 1))
    with pytest.raises(DocumentTooLargeError):
        state_from_json(text, max_bytes=len(text) - 1)
    record = _document(Record("revolution", 1, RevolutionConfig(players=3), 0, ()))
    record["choices"] = [{"seat": 0, "action": {"kind": "decline"}}] * 100_001
    _refused(OutOfRangeError, "choices", lambda text: record_from_json(text, max_bytes=10**7), record)


def test_envelope_faults_are_refused() -> None:
    doc = _document(_bidding_state())
    _refused(FormatVersionError, "format", state_from_json, {**doc, "format": "revolution/2"})
    _refused(FormatVersionError, "format", state_from_json, {**doc, "format": "darkempire/1"})
    _refused(UnknownTypeError, "type", view_from_json, doc)
    _refused(WrongTypeError, "", state_from_json, "[1, 2]")


def test_fields_are_located_by_their_json_path() -> None:
    doc = _document(_bidding_state())
    _refused(UnknownFieldError, "secret", state_from_json, {**doc, "secret": 1})
    _refused(MissingFieldError, "round", state_from_json, {k: v for k, v in doc.items() if k != "round"})
    _refused(WrongTypeError, "support[1]", state_from_json, {**doc, "support": [0, "0", 0]})
    _refused(WrongTypeError, "config.bid_refunds", state_from_json, {**doc, "config": {**doc["config"], "bid_refunds": 0}})
    _refused(WrongTypeError, "round", state_from_json, {**doc, "round": True})
    _refused(OutOfRangeError, "bank.gold", state_from_json, {**doc, "bank": {**doc["bank"], "gold": -1}})
    _refused(OutOfRangeError, "phase", state_from_json, {**doc, "phase": "espionage"})
    _refused(OutOfRangeError, "config.players", state_from_json, {**doc, "config": {**doc["config"], "players": 5}})
    action = _document(GAME.legal_actions(_bidding_state(), 0)[0])
    name = next(iter(action["placements"]))
    action["placements"][name]["gold"] = -7
    huge = dump_json(action).replace('"gold":-7', '"gold":' + "9" * 4000)
    error = _refused(OutOfRangeError, f"placements.{name}.gold", action_from_json, huge)
    assert len(str(error)) < 300
    _refused(OutOfRangeError, "kind", action_from_json, {**action, "kind": "pass"})


def test_states_the_rules_cannot_reach_are_refused() -> None:
    doc = _document(_bidding_state())
    _refused(InconsistentError, "", state_from_json, {**doc, "bank": {**doc["bank"], "gold": 0}})  # tokens lost
    _refused(InconsistentError, "", state_from_json, {**doc, "supply": [24, 25, 25]})  # a cube lost
    _refused(InconsistentError, "", state_from_json, {**doc, "phase": "resolution"})
    bid = _document(GAME.legal_actions(_bidding_state(), 0)[0])
    held_bids = [{"placements": bid["placements"]}] * 3
    _refused(InconsistentError, "", state_from_json, {**doc, "bids": held_bids})  # a pending bid in a state
    _refused(InconsistentError, "", state_from_json, {**doc, "support": [0, 0]})  # the constructor's refusal
    over = _document(_game())
    over["final"][0]["area_bonus"] += 5
    _refused(InconsistentError, "", state_from_json, over)
    board = doc["config"]["board"]
    characters = [{**board["characters"][0], "influence": "Moon"}, *board["characters"][1:]]
    bad_board = {**doc, "config": {**doc["config"], "board": {**board, "characters": characters}}}
    error = _refused(InconsistentError, "config.board", state_from_json, bad_board)
    assert "Moon" in str(error)


def test_a_view_at_the_bidding_cannot_carry_a_bid() -> None:
    state = _bidding_state()
    doc = _document(GAME.view(state, 1))
    assert set(doc) == {"format", "type", *(f.name for f in attrs.fields(type(GAME.view(state, 1))))}
    bid = _document(GAME.legal_actions(state, 0)[0])
    hidden = [{"placements": bid["placements"]}] + [{"placements": {}}] * 2
    error = _refused(InconsistentError, "", view_from_json, {**doc, "bids": hidden})
    assert "9.3" in str(error)
    _refused(UnknownFieldError, "pending", view_from_json, {**doc, "pending": bid})
    _refused(InconsistentError, "", view_from_json, {**doc, "own": {**doc["own"], "gold": 0}})
    _refused(InconsistentError, "", view_from_json, {**doc, "seat": 3})


def test_wire_errors_are_the_games_and_the_kits() -> None:
    error = _refused(UnknownFieldError, "x", config_from_json, {**_document(RevolutionConfig()), "x": 0})
    assert isinstance(error, RevolutionError) and isinstance(error, WireError)
    state = attrs.evolve(_bidding_state(), phase=Phase.OVER)
    assert state.is_over  # a hand-built state the wire still writes: it only reads strictly
    with pytest.raises(InconsistentError):
        state_from_json(to_json(state))
