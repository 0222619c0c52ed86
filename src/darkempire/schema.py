"""JSON Schemas (draft 2020-12) of the wire format, generated from the types (spec 9.4).

:func:`generate_schemas` walks the same attrs classes and type annotations
that :mod:`darkempire.serialization` converts, applying the same encoding
rules, so the schemas cannot drift from the converter. The package ships the
result in ``darkempire/schemas/``: one file per message type
(:data:`SCHEMA_FILES`). Regenerate them after changing a type::

    python -m darkempire.schema            # rewrite src/darkempire/schemas/*.json
    python -m darkempire.schema --check    # exit 1 if a shipped file is out of date

Card ids, factions and add-on cards are described as entries of the ``"card-table"`` message, whose schema
``card-table.json`` carries the whole table as its one example (:func:`~darkempire.wire.card_table.card_table`),
so that a client can read what every card is from the schema files alone.

The schemas check the shape of a message (types, card id ranges, enumeration
names, required and unknown fields, set items unique, the array lengths the
rules bound as ``maxItems``: :data:`~darkempire.wire.limits.ARRAY_LIMITS`). The loaders check more
(card conservation in a state, a card the seat does not hold), so a message
can pass its schema and still be refused by :func:`~darkempire.serialization.from_json`.
"""

from __future__ import annotations

import enum
import inspect
import types
import typing
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

import attrs

from darkempire.rules.cards import (
    EMPEROR_CARDS,
    FACTION_CARDS,
    HAND_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
)
from darkempire.rules.state import GameConfig
from darkempire.wire.converter import KIND_KEY, KINDS, union_members
from darkempire.wire.card_table import card_table
from darkempire.wire.envelope import FORMAT, encode
from darkempire.wire.limits import ARRAY_LIMITS
from darkempire.wire.message_types import MESSAGE_TYPES
from darkempire.wire.parsing import parse_json
from darkempire.wire.prompts import ALWAYS_SENT
from tablekit.wire import schema_files_main, write_schema_files

__all__ = ["SCHEMA_FILES", "SCHEMA_ID_BASE", "generate_schemas", "main", "shipped_schemas", "write_schemas"]

#: The base of every schema's ``$id``.
SCHEMA_ID_BASE: Final = "https://darkempire.invalid/schemas/"
#: The schema file of each message type.
SCHEMA_FILES: Final[dict[str, str]] = {name: f"{name}.json" for name in MESSAGE_TYPES}
_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


def _description(cls: type) -> str:
    doc = inspect.getdoc(cls) or cls.__name__
    return doc.split("\n\n")[0].replace("\n", " ")


#: The schemas of the scalar types.
_SCALARS: Final[dict[type, dict[str, str]]] = {
    type(None): {"type": "null"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    str: {"type": "string"},
}


def _card_id(description: str, cards: Sequence[object]) -> dict[str, Any]:
    return {"description": description, "type": "integer", "minimum": 0, "maximum": len(cards) - 1}


def _table_entry(where: str) -> str:
    """The sentence of a card id's description that points at the card's entry in the card table."""
    return f" The card-table message ({SCHEMA_FILES['card-table']}) describes each, with its name in each theme: {where}."


_HAND_ENTRY: Final = _table_entry("hand_cards[id]")
#: The enumerations that name a faction or a card: their entries in the card table.
_ENUM_ENTRIES: Final[dict[type, str]] = {
    Faction: _table_entry("factions, in this order"),
    AddOnCard: _table_entry("add_on_cards, by card"),
}


#: The types with hooks of their own in the converter, by the name of their schema.
_OWN_NAMES: dict[Any, str] = {
    HandCard: "HandCard",
    FactionCard: "FactionCard",
    ReinforcementCard: "ReinforcementCard",
    EmperorCard: "EmperorCard",
    RevolutionCard: "RevolutionCard",
    GameConfig: "GameConfig",
}


class _Builder:
    """Builds one schema document, collecting the attrs classes it refers to in ``$defs``."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}

    def ref(self, name: str, build: typing.Callable[[], dict[str, Any]]) -> dict[str, Any]:
        if name not in self.defs:
            self.defs[name] = {}  # placeholder: the class may refer to itself
            self.defs[name] = build()
        return {"$ref": f"#/$defs/{name}"}

    def of(self, tp: Any) -> dict[str, Any]:
        """The schema of a value of type ``tp``."""
        if isinstance(tp, type) and tp in _SCALARS:
            return dict(_SCALARS[tp])
        if tp in _OWN_NAMES:
            return self.ref(_OWN_NAMES[tp], lambda: self._own(tp))
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            cls = tp
            return self.ref(
                cls.__name__,
                lambda: {"description": _description(cls) + _ENUM_ENTRIES.get(cls, ""), "enum": [m.name for m in cls]},
            )
        origin = typing.get_origin(tp)
        if origin in (typing.Union, types.UnionType):
            return self._union(union_members(tp))
        if origin is tuple or origin is frozenset:
            return self._array(origin, typing.get_args(tp))
        if attrs.has(tp):
            return self.ref(tp.__name__, lambda: self.object(tp))
        raise TypeError(f"no JSON Schema for {tp!r}")

    def _own(self, tp: Any) -> dict[str, Any]:
        """The schema of a type with a hook of its own in the converter: the cards and the config."""
        if tp == HandCard:
            return _card_id(
                "A hand card by id: 0-64 faction cards (13 * faction + k), 65-74 reinforcements." + _HAND_ENTRY, HAND_CARDS
            )
        if tp is FactionCard:
            return _card_id("A faction card by id, 0-64 (13 * faction + k)." + _HAND_ENTRY, FACTION_CARDS)
        if tp is ReinforcementCard:
            return {**_card_id("A reinforcement card by id, 65-74." + _HAND_ENTRY, HAND_CARDS), "minimum": len(FACTION_CARDS)}
        if tp is EmperorCard:
            return _card_id(
                "An emperor card by id, 0-7 (values 8, 9, 10, 10, 11, 11, 12, 13)." + _table_entry("emperor_cards[id]"),
                EMPEROR_CARDS,
            )
        if tp is RevolutionCard:
            faction = self.of(typing.get_type_hints(RevolutionCard)["faction"])
            described = "A revolution card, by its faction." + _table_entry("revolution_cards, by faction")
            return {"description": described, **faction}
        return {
            "description": _description(GameConfig),
            "type": "object",
            "properties": {"players": {"type": "integer", "minimum": 3, "maximum": 5}},
            "required": ["players"],
            "additionalProperties": False,
        }

    def _union(self, args: tuple[Any, ...]) -> dict[str, Any]:
        members = [a for a in args if a is not type(None)]
        if len(members) == 1:
            return {"anyOf": [self.of(members[0]), {"type": "null"}]}
        options = [self.of(m) for m in members]
        if type(None) in args:
            options.append({"type": "null"})
        return {"oneOf": options}

    def _array(self, origin: Any, args: tuple[Any, ...]) -> dict[str, Any]:
        if origin is frozenset:
            return {"type": "array", "items": self.of(args[0]), "uniqueItems": True}
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.of(args[0])}
        return {
            "type": "array",
            "prefixItems": [self.of(a) for a in args],
            "items": False,
            "minItems": len(args),
            "maxItems": len(args),
        }

    def object(self, cls: type, extra: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
        """The object schema of attrs class ``cls``, with ``extra`` properties (all required) first."""
        hints = typing.get_type_hints(cls)
        properties: dict[str, Any] = dict(extra or {})
        required = list(properties)
        tag = KINDS.get(cls)
        if tag is not None:
            properties[KIND_KEY] = {"const": tag}
            required.append(KIND_KEY)
        for field in attrs.fields(cls):
            properties[field.name] = _limited(self.of(hints[field.name]), ARRAY_LIMITS.get((cls, field.name), ()))
            if field.default is attrs.NOTHING or field.metadata.get(ALWAYS_SENT, False):
                required.append(field.name)
        return {
            "description": _description(cls),
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }


def _limited(schema: dict[str, Any], limits: Sequence[tuple[int, str]]) -> dict[str, Any]:
    """``schema`` with the ``maxItems`` the rules set on each of its nested arrays (outermost first)."""
    node = schema
    for limit, _ in limits:
        if "anyOf" in node:  # an array or null
            node = next(option for option in node["anyOf"] if option.get("type") == "array")
        node["maxItems"] = limit
        node = node["items"]
    return schema


def _message_schema(name: str) -> dict[str, Any]:
    tp = MESSAGE_TYPES[name]
    builder = _Builder()
    envelope = {"format": {"const": FORMAT}, "type": {"const": name}}
    members = [a for a in typing.get_args(tp)] if typing.get_origin(tp) in (typing.Union, types.UnionType) else [tp]
    bodies = [builder.object(member, envelope) for member in members]
    schema: dict[str, Any] = {
        "$schema": _DIALECT,
        "$id": SCHEMA_ID_BASE + SCHEMA_FILES[name],
        "title": f"darkempire {name} message ({FORMAT})",
    }
    if len(bodies) == 1:
        schema.update(bodies[0])
    else:
        schema["description"] = f"One of the {len(bodies)} kinds of {name}, told apart by {KIND_KEY!r}."
        schema["oneOf"] = bodies
    if name == "card-table":  # the table is the same in every game: the schema ships it too
        schema["examples"] = [encode(card_table(), name)]
    schema["$defs"] = dict(sorted(builder.defs.items()))
    return schema


def generate_schemas() -> dict[str, dict[str, Any]]:
    """Every message schema, by file name (:data:`SCHEMA_FILES`)."""
    return {SCHEMA_FILES[name]: _message_schema(name) for name in MESSAGE_TYPES}


def shipped_schemas() -> dict[str, dict[str, Any]]:
    """The schema files shipped in the installed package, by file name."""
    folder = resources.files("darkempire") / "schemas"
    return {name: parse_json((folder / name).read_text(encoding="utf-8")) for name in SCHEMA_FILES.values()}


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema to ``directory`` (created if needed); return the paths written."""
    return write_schema_files(generate_schemas(), directory)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m darkempire.schema [--check] [DIR]``: write or check the schema files.

    :returns: 0, or 1 if ``--check`` finds a missing or outdated file.
    """
    return schema_files_main("python -m darkempire.schema", __doc__.split("\n\n")[0], generate_schemas, Path(__file__).resolve().parent / "schemas", argv)


if __name__ == "__main__":
    raise SystemExit(main())
