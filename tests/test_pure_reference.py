"""The reference engine is plain (issue 13): no slot writers, no identity hashing, cards as a sum type.

The speed these tricks bought belongs to a separate playout kernel; the reference states the rules with
plain attrs values, their validators run, and types that need no ``type: ignore``.
"""

from __future__ import annotations

import ast
import enum
import importlib.util
import re
import typing
from pathlib import Path

import attrs
import pytest

from darkempire.rules.actions import Side
from darkempire.rules.cards import (
    FACTION_CARDS,
    HAND_CARDS,
    REINFORCEMENT_CARDS,
    FactionCard,
    HandCard,
    ReinforcementCard,
    is_hand_card,
)
from darkempire.rules.errors import InvalidCardError
from darkempire.rules.state import Phase, ScoredCard
from darkempire.rules.table import Play, Reinforcement

SRC = Path(__file__).resolve().parent.parent / "src"

#: The untyped third-party modules a ``type: ignore`` may be for.
THIRD_PARTY = ("matplotlib", "PettingZoo", "pyspiel")


def test_there_are_no_slot_writers() -> None:
    assert importlib.util.find_spec("darkempire._values") is None


@pytest.mark.parametrize("kind", [Phase, Side])
def test_phases_and_sides_hash_as_enum_members_do(kind: type[enum.Enum]) -> None:
    assert kind.__hash__ is enum.Enum.__hash__
    assert all(hash(member) == hash(member._name_) for member in kind)


def test_every_hand_card_is_a_faction_card_or_a_reinforcement_card() -> None:
    assert all(type(c) is FactionCard for c in FACTION_CARDS)
    assert all(type(c) is ReinforcementCard for c in REINFORCEMENT_CARDS)
    assert HAND_CARDS == FACTION_CARDS + REINFORCEMENT_CARDS
    assert [c.id for c in HAND_CARDS] == list(range(75))
    assert all(isinstance(c, HandCard) and is_hand_card(c) for c in HAND_CARDS)
    assert all(c.faction is None and c.value == 3 and c.is_reinforcement for c in REINFORCEMENT_CARDS)
    assert not any(c.is_reinforcement for c in FACTION_CARDS)


def test_a_card_subclass_is_no_hand_card() -> None:
    @attrs.frozen
    class Marked(FactionCard):
        pass

    assert not is_hand_card(Marked(0, FACTION_CARDS[0].faction, 4))
    assert not is_hand_card(0)


def test_a_reinforcement_card_is_only_one_of_the_ten() -> None:
    for bad in (0, 64, 75):
        with pytest.raises(InvalidCardError, match="65-74"):
            ReinforcementCard(bad)


def test_played_and_scored_cards_are_typed_as_faction_cards() -> None:
    assert typing.get_type_hints(Play)["card"] is FactionCard
    assert typing.get_type_hints(ScoredCard)["card"] is FactionCard
    assert typing.get_type_hints(Reinforcement)["card"] is ReinforcementCard


def test_no_type_ignore_in_src_but_for_untyped_third_party_modules() -> None:
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"#\s*type:\s*ignore", line) and not any(name in line for name in THIRD_PARTY)
    ]
    assert found == []


#: The longest a function of src/ may be (issue 13) unless its docstring says why it is longer.
LONGEST = 60


def long_functions(root: Path) -> list[str]:
    """Functions of ``root``'s modules over :data:`LONGEST` lines whose docstring does not say why (a docstring
    that names its length, "long" or "lines")."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                why = re.search(r"\blong|\blines\b", ast.get_docstring(node) or "", re.IGNORECASE)
                if length > LONGEST and not why:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_in_src_is_over_60_lines_unless_its_docstring_says_why(tmp_path: Path) -> None:
    assert long_functions(SRC) == []
    body = "\n".join(f"    x{k} = {k}" for k in range(LONGEST))
    (tmp_path / "plant.py").write_text(f"def planted():\n{body}\n\ndef kept():\n    '''Long: one table.'''\n{body}\n")
    assert long_functions(tmp_path) == [f"plant.py:1 planted ({LONGEST + 1} lines)"]
