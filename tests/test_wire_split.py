"""The wire format's modules (issue 13): one job each, no import cycle, no private name taken across modules.

``darkempire.serialization`` stays the front door: every name it exported keeps working and is the very object
of the module that now defines it. ``darkempire.records`` fingerprints states without importing the loaders
(which import records), and the one card-conservation function lists every card exactly once.
"""

from __future__ import annotations

import ast
import hashlib
import random
import subprocess
import sys
from pathlib import Path

from collections.abc import Sequence
from typing import cast

import attrs
import pytest

from darkempire.rules import engine
from darkempire import serialization
from darkempire.rules.cards import EMPEROR_CARDS, HAND_CARDS, REVOLUTION_CARDS
from darkempire.rules.state import GameConfig, GameState

SRC = Path(__file__).resolve().parent.parent / "src"
#: The modules the split made or changed (those that exist: on the code before the split, only the first four).
SPLIT_MODULES = [
    relative
    for relative in ["darkempire/serialization.py", "darkempire/records.py", "darkempire/schema.py",
                     "darkempire/validity.py", *sorted(f"darkempire/wire/{p.name}" for p in (SRC / "darkempire/wire").glob("*.py"))]
    if (SRC / relative).exists()
]  # fmt: skip

#: Every name ``darkempire.serialization`` exported before the split.
EXPORTED = (
    "ACTION_TYPES ARRAY_LIMITS DEFAULT_MAX_SIZE FORMAT FORMAT_VERSION MESSAGE_LIMIT MESSAGE_TYPES QUOTE_LIMIT quote "
    "ArrayLimit CardNotHeldError ConservationError DocumentTooLargeError DuplicateKeyError FormatVersionError "
    "InconsistentStateError InvalidValueError MalformedJSONError Message MissingFieldError NotAMessageError Prompt "
    "SerializationError TooManyItemsError UnknownCardError UnknownFieldError WrongTypeError canonical_json "
    "check_state from_data from_json kind_of load_action load_event load_record load_prompt load_public_record "
    "load_state load_view make_prompt message_type parse_json to_data to_json"
).split()


def _tree(relative: str) -> ast.Module:
    return ast.parse((SRC / relative).read_text(encoding="utf-8"))


def test_the_facade_exports_every_name_it_did() -> None:
    assert set(EXPORTED) <= set(serialization.__all__)
    for name in EXPORTED:
        assert getattr(serialization, name) is not None, name


def test_the_facade_defines_nothing_of_its_own() -> None:
    """Each name is the object of the module that defines it: one definition, documented once."""
    tree = _tree("darkempire/serialization.py")
    kinds = (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)
    defined = [ast.unparse(node).partition(" ")[0] for node in tree.body if isinstance(node, kinds)]
    assert defined == ["__all__"]
    for name in EXPORTED:
        value = getattr(serialization, name)
        assert getattr(value, "__module__", "darkempire.wire") != "darkempire.serialization", name


def test_no_split_module_imports_a_private_name_of_another() -> None:
    taken = [
        f"{relative}: {node.module}.{alias.name}"
        for relative in SPLIT_MODULES
        for node in ast.walk(_tree(relative))
        if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] in ("darkempire", "tablekit")
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert taken == []


def test_no_function_of_the_split_modules_is_over_60_lines() -> None:
    long = [
        f"{relative}:{node.lineno} {node.name}"
        for relative in SPLIT_MODULES
        for node in ast.walk(_tree(relative))
        if isinstance(node, ast.FunctionDef) and node.end_lineno is not None and node.end_lineno - node.lineno >= 60
    ]
    assert long == []


def test_records_fingerprint_states_without_the_loaders() -> None:
    """``state_digest`` encodes through the envelope: records and serialization no longer import each other."""
    program = (
        "import sys\n"
        "from darkempire import records\n"
        "from darkempire.rules import engine\n"
        "from darkempire.rules.state import GameConfig\n"
        "digest = records.state_digest(engine.deal(GameConfig(players=3), seed=4))\n"
        "print(digest, 'darkempire.serialization' in sys.modules, 'darkempire.wire.messages' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    digest, facade, loaders = run.stdout.split()
    assert (facade, loaders) == ("False", "False")
    state = engine.deal(GameConfig(players=3), seed=4)
    assert digest == hashlib.sha256(serialization.canonical_json(state).encode()).hexdigest()[:16]


def _midgame(seed: int) -> GameState:
    rng = random.Random(seed)
    state = engine.deal(GameConfig(players=rng.choice((3, 4, 5))), seed=seed)
    for _ in range(rng.randrange(1, 120)):
        if state.is_over:
            break
        seat = min(engine.awaited_seats(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_card_places_lists_every_card_once(seed: int) -> None:
    from darkempire.validity import card_places, check_card_conservation

    state = _midgame(seed)
    places = card_places(state)
    every = {"hand card": HAND_CARDS, "emperor card": EMPEROR_CARDS, "revolution card": REVOLUTION_CARDS}
    for kind, cards in every.items():
        found = [card for card, _ in places[kind]]
        assert sorted(found, key=repr) == sorted(cards, key=repr), kind
        for card, where in places[kind]:
            assert _at(state, where) is card, (kind, where)
    check_card_conservation(state)


def _at(state: GameState, where: tuple[str | int, ...]) -> object:
    value: object = state
    for part in where:
        value = cast(Sequence[object], value)[part] if isinstance(part, int) else getattr(value, part)
    return value


def test_a_card_in_two_places_is_named_at_both() -> None:
    from darkempire.validity import ConservationError, check_card_conservation

    state = engine.deal(GameConfig(players=3), seed=2)
    doubled = attrs.evolve(state, discard_pile=(state.hands[1][0],))
    with pytest.raises(ConservationError) as caught:
        check_card_conservation(doubled)
    assert caught.value.path == "hands[1][0]"
    assert "discard_pile[0]" in caught.value.message
    assert isinstance(caught.value, serialization.InconsistentStateError)
