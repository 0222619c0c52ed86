"""Revolution!'s JSON Schemas: the shipped files are the generated ones, are valid draft 2020-12 schemas, accept
every message of a random game and refuse what the loaders refuse by shape."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from revolution.rules.game import GAME
from revolution.rules.state import RevolutionConfig
from revolution.schema import SCHEMA_FILES, generate_schemas, main, shipped_schemas
from revolution.wire import InconsistentError, to_json, view_from_json
from tablekit.bots import RandomBot, run_game
from tablekit.chance import SeededChance
from tablekit.records import replay

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "src" / "revolution" / "schemas"


@functools.cache
def _validators() -> dict[str, Draft202012Validator]:
    schemas = generate_schemas()
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    return {name: Draft202012Validator(schemas[file]) for name, file in SCHEMA_FILES.items()}


def _valid(data: dict[str, Any]) -> bool:
    return _validators()[data["type"]].is_valid(data)


@pytest.mark.spec("revolution:9.4")
def test_the_shipped_schemas_are_the_generated_ones(tmp_path: Path) -> None:
    generated = generate_schemas()
    assert set(generated) == set(SCHEMA_FILES.values()) == {p.name for p in SCHEMA_DIR.glob("*.json")}
    for name, schema in generated.items():
        assert json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8")) == schema, f"regenerate {name}"
    assert shipped_schemas() == generated
    assert main(["--check", str(SCHEMA_DIR)]) == 0
    main([str(tmp_path)])
    (tmp_path / "view.json").write_text("{}")
    assert main(["--check", str(tmp_path)]) == 1


@pytest.mark.spec("revolution:9.4")
def test_every_message_of_a_random_game_validates() -> None:
    config = RevolutionConfig(players=4, bid_refunds=True, area_control_bonus=True)
    played = run_game(GAME, config, 11, [RandomBot(seat) for seat in range(4)])
    messages: list[object] = [config, played.record, *(e.payload for e in played.events)]
    messages += [choice.action for choice in played.record.choices]
    for transition in list(replay(GAME, played.record))[::5]:
        messages += [transition.state, GAME.view(transition.state, 2), GAME.view(transition.state, None)]
    kinds = set()
    for message in messages:
        data = json.loads(to_json(message))
        kinds.add(data["type"])
        assert _valid(data), data["type"]
    assert kinds == set(SCHEMA_FILES)


def test_the_schemas_refuse_bad_shapes() -> None:
    state = json.loads(to_json(GAME.initial(RevolutionConfig(players=3), SeededChance(0)).state))
    assert _valid(state)
    assert not _valid({**state, "secret": 1})
    assert not _valid({**state, "round": True})
    assert not _valid({**state, "bank": {**state["bank"], "gold": -1}})
    assert not _valid({**state, "phase": "espionage"})
    assert not _valid({**state, "format": "revolution/2"})
    assert not _valid({"format": "revolution/1", "type": "action", "kind": "pass"})
    assert _valid({"format": "revolution/1", "type": "action", "kind": "decline"})
    assert not _valid({"format": "revolution/1", "type": "action", "kind": "decline", "seat": 0})


def test_a_hidden_bid_passes_the_shape_but_not_the_loader() -> None:
    """The schema checks shapes only: the rule that a view at the Bidding holds no bid is the loader's."""
    state = GAME.initial(RevolutionConfig(players=3), SeededChance(0)).state
    view = json.loads(to_json(GAME.view(state, 0)))
    bid = json.loads(to_json(GAME.legal_actions(state, 0)[0]))
    view["bids"] = [{"placements": bid["placements"]}] * 3
    assert _valid(view)
    with pytest.raises(InconsistentError):
        view_from_json(json.dumps(view))
