"""Revolution!'s records: a whole random game saved as JSON, loaded and replayed through the kit to the same
final state and events; a record that does not replay names its first divergent choice."""

from __future__ import annotations

import json

import pytest

from revolution.records import RevolutionRecord, load_record, record_game, replay_record, save_record
from revolution.records import table_record
from revolution.rules.bids import Bid
from revolution.rules.game import GAME
from revolution.rules.state import Phase, RevolutionConfig
from revolution.rules.tokens import Tokens
from revolution.wire import OutOfRangeError
from tablekit.bots import RandomBot, run_game
from tablekit.chance import SeededChance
from tablekit.records import DivergentChoiceError, Record

CONFIG = RevolutionConfig(players=3, bid_refunds=True)


@pytest.mark.spec("revolution:9.4")
def test_a_whole_random_game_replays_from_its_json_record() -> None:
    played = run_game(GAME, CONFIG, 21, [RandomBot(seat) for seat in range(3)])
    text = save_record(played.record, indent=1)
    loaded = load_record(text)
    assert loaded == played.record and save_record(loaded, indent=1) == text
    replayed = replay_record(loaded)
    assert replayed.state == played.state and replayed.state.is_over
    assert replayed.events == played.events and replayed.pending == ()
    assert record_game(CONFIG, 21, [RandomBot(seat) for seat in range(3)]) == played.record


@pytest.mark.spec("revolution:9.4", "revolution:4.2")
def test_a_record_that_diverges_names_its_choice_and_rule() -> None:
    record = record_game(CONFIG, 2, [RandomBot(seat) for seat in range(3)])
    data = json.loads(save_record(record))
    data["choices"][4]["action"] = {"kind": "bid", "placements": {"Priest": {"force": 0, "blackmail": 0, "gold": 1}}}
    with pytest.raises(DivergentChoiceError) as raised:
        replay_record(load_record(json.dumps(data)))
    assert raised.value.index == 4 and "4.2" in raised.value.reason


def test_a_table_record_with_a_round_in_progress_keeps_its_pending_bids() -> None:
    config = RevolutionConfig(players=3, table_mode=True)
    start = GAME.initial(config, SeededChance(0)).state
    everything = Bid({"Printer": Tokens(force=1, blackmail=1, gold=3)})
    record = table_record(config, [(2, everything), (0, everything)])
    replayed = replay_record(load_record(save_record(record)))
    assert replayed.state == start and replayed.state.phase is Phase.BIDDING
    assert replayed.pending == ((0, everything), (2, everything))


def test_a_record_of_another_game_is_refused_when_loaded() -> None:
    record: RevolutionRecord = Record("darkempire", 1, CONFIG, 0, ())
    with pytest.raises(OutOfRangeError) as raised:
        load_record(save_record(record))
    assert raised.value.path == "game"
