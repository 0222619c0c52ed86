"""The ``cattrs`` converter between the game's values and JSON-ready data, with strict hooks.

:data:`CONVERTER` turns a value into plain lists, dicts, strings and integers (``unstructure``) and back
(``structure``), applying the encoding rules of :mod:`darkempire.serialization`: cards are their ids (a
revolution card its faction), enumerations their member names, tuples and frozensets arrays (a set sorted by
:func:`order_key`, with no repeated item), and every action and event carries its :data:`KIND_KEY` tag.

Structuring is strict: an integer is a JSON integer and never a boolean or a float, a string is a string, an
object has exactly its class's fields. A hook that refuses a value raises a
:class:`~darkempire.wire.wire_errors.Fault`, and the hooks that hold items (arrays, objects) put the item's
index or field name in front of its path on the way out, so that the error names the bad value
(``choices[3].action.card``). The converter is built once, from the small named hooks below, each registered
for the types it serves (:func:`make_converter`).
"""

from __future__ import annotations

import enum
import functools
import itertools
import re
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, Final, cast

import attrs
import cattrs
from cattrs.errors import AttributeValidationNote, ForbiddenExtraKeysError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from tablekit.errors import ChanceError
from darkempire.rules.actions import (
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
)
from darkempire.rules.cards import (
    EMPEROR_CARDS,
    FACTION_CARDS,
    HAND_CARDS,
    REINFORCEMENT_CARDS,
    REVOLUTION_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
)
from darkempire.rules.events import EVENT_TYPES
from darkempire.rules.state import GameConfig
from darkempire.wire.wire_errors import (
    MESSAGE_LIMIT,
    Fault,
    InvalidValueError,
    MissingFieldError,
    UnknownCardError,
    UnknownFieldError,
    WrongTypeError,
    cut,
    quote,
    quote_key,
)

__all__ = [
    "ACTION_TYPES",
    "CONVERTER",
    "KINDS",
    "KIND_KEY",
    "field_types",
    "is_union",
    "union_members",
    "json_type",
    "kind_of",
    "located",
    "make_converter",
    "optional_member",
    "order_key",
]


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


#: Every action class, in the order of :data:`~darkempire.rules.actions.Action`.
ACTION_TYPES: Final[tuple[type, ...]] = (
    PassCards,
    DiscardCards,
    ChooseSupport,
    PlayCard,
    Reinforce,
    PlayNothing,
    PlaceCards,
    Reorganize,
)
#: The ``"kind"`` tag of each action and event class: the kebab case of its name (``"play-card"``).
KINDS: Final[typing.Mapping[type, str]] = types.MappingProxyType(
    {cls: _kebab(cls.__name__) for cls in (*ACTION_TYPES, *EVENT_TYPES)}
)
#: The key of the tag that tells the kinds of action (and of event) apart.
KIND_KEY: Final = "kind"
#: The type of ``None``, as it stands in an optional type (``X | None``).
NONE_TYPE: Final = type(None)


def kind_of(cls: type) -> str:
    """The ``"kind"`` tag of an action or event class, e.g. ``"play-card"``."""
    return KINDS[cls]


def object_name(cls: type) -> str:
    """How an error names a JSON object of class ``cls``: by its kind, as a client knows it, not by the Python
    class (``"a reorganize object"``, ``"a verdict object"``, ``"a game-config object"``)."""
    kind = KINDS.get(cls) or _kebab(cls.__name__)
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} object"


# --------------------------------------------------------------------------- type introspection


#: The members of :data:`~darkempire.rules.cards.HandCard`.
_HAND_CARD_MEMBERS: Final = frozenset(typing.get_args(HandCard))


def union_members(tp: Any) -> tuple[Any, ...]:
    """The members of the union ``tp``, with a faction card and a reinforcement card taken together as one
    :data:`~darkempire.rules.cards.HandCard`: Python flattens ``HandCard | None`` into three members, and the wire
    format has one hand card type (its id)."""
    args = typing.get_args(tp)
    if _HAND_CARD_MEMBERS <= set(args):
        return (HandCard, *(a for a in args if a not in _HAND_CARD_MEMBERS))
    return args


def is_union(tp: Any) -> bool:
    """Whether ``tp`` is a union (``X | Y``, ``X | None``, ``typing.Union``); ``HandCard`` itself is not, on the
    wire (see :func:`union_members`)."""
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and len(union_members(tp)) > 1


def optional_member(tp: Any) -> Any:
    """``X`` for ``X | None``; any other type unchanged."""
    if is_union(tp):
        members = [m for m in union_members(tp) if m is not NONE_TYPE]
        if len(members) == 1:
            return members[0]
    return tp


def field_types(cls: type) -> tuple[tuple[str, Any], ...]:
    """``(name, type)`` of each field of the attrs class ``cls``, in order, with the type hints resolved."""
    return _field_types(cls)


@functools.cache
def _field_types(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((field.name, hints[field.name]) for field in attrs.fields(cls))


def _is_var_tuple(tp: Any) -> bool:
    args = typing.get_args(tp)
    return typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis


def _is_fixed_tuple(tp: Any) -> bool:
    return typing.get_origin(tp) is tuple and not _is_var_tuple(tp)


def _is_tuple(tp: Any) -> bool:
    return typing.get_origin(tp) is tuple


def _is_frozenset(tp: Any) -> bool:
    return typing.get_origin(tp) is frozenset


def _is_enum(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def order_key(value: Any) -> Any:
    """Sort key for set items: cards by id, enumerations in their order, tuples item by item."""
    if isinstance(value, (FactionCard, ReinforcementCard, EmperorCard)):
        return (0, value.id)
    if isinstance(value, enum.IntEnum):
        return (0, int(value))
    if isinstance(value, enum.Enum):
        return (1, value.name)
    if isinstance(value, tuple):
        return (2, tuple(order_key(v) for v in value))
    if isinstance(value, int):
        return (0, value)
    return (3, repr(value))


def json_type(value: Any) -> str:
    """The JSON type of a parsed value, for an error message: ``"an integer"``, ``"an array"``, ``"null"``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def located(exc: BaseException) -> Fault:
    """Any exception raised while structuring as a :class:`~darkempire.wire.wire_errors.Fault` with its path.

    cattrs reports a failure inside an attrs object or an array as an exception group whose notes name the
    field or index; a missing key is a ``KeyError``, an unknown one a ``ForbiddenExtraKeysError``.
    """
    if isinstance(exc, Fault):
        return exc
    if isinstance(exc, ForbiddenExtraKeysError):
        key = min(exc.extra_fields, key=str)  # not sorted: an object may have a million unknown keys
        return Fault(UnknownFieldError, f"unknown field {quote(key)} in {object_name(exc.cl)}", [quote_key(key)])
    if isinstance(exc, BaseExceptionGroup):
        return _located_in_group(exc)
    if isinstance(exc, KeyError):
        return Fault(MissingFieldError, f"missing field {exc.args[0]!r}" if exc.args else "missing field")
    if isinstance(exc, ChanceError) and exc.field:  # a generator's own validator names its field
        return Fault(InvalidValueError, cut(str(exc), MESSAGE_LIMIT), [exc.field])
    return Fault(InvalidValueError, cut(str(exc), MESSAGE_LIMIT) or type(exc).__name__)


def _located_in_group(exc: BaseExceptionGroup[Any]) -> Fault:
    first = exc.exceptions[0]
    part: str | int | None = None
    for note in getattr(first, "__notes__", ()):
        if isinstance(note, AttributeValidationNote):
            part = note.name
        elif isinstance(note, IterableValidationNote) and isinstance(note.index, int):
            part = note.index
    inner = located(first)
    if part is not None:
        if isinstance(first, KeyError) and not isinstance(first, Fault):
            return Fault(MissingFieldError, f"missing field {part!r}", [part])
        inner.parts.insert(0, part)
    return inner


# --------------------------------------------------------------------------- scalar hooks


def _strict_int(value: Any, _: Any = None) -> int:
    if type(value) is not int:
        raise Fault(WrongTypeError, f"expected an integer, got {json_type(value)}")
    return value


def _strict_str(value: Any, _: Any = None) -> str:
    if not isinstance(value, str):
        raise Fault(WrongTypeError, f"expected a string, got {json_type(value)}")
    return value


def _strict_bool(value: Any, _: Any = None) -> bool:
    if not isinstance(value, bool):
        raise Fault(WrongTypeError, f"expected true or false, got {json_type(value)}")
    return value


def _int_out(value: Any) -> int:
    if type(value) is not int:
        raise Fault(WrongTypeError, f"cannot encode {json_type(value)} ({quote(value)}) as an integer")
    return value


def _str_out(value: Any) -> str:
    if not isinstance(value, str):
        raise Fault(WrongTypeError, f"cannot encode {json_type(value)} ({quote(value)}) as a string")
    return value


def _bool_out(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Fault(WrongTypeError, f"cannot encode {json_type(value)} ({quote(value)}) as true or false")
    return value


def _hand_card(value: Any, _: Any = None) -> HandCard:
    card_id = _strict_int(value)
    if not 0 <= card_id < len(HAND_CARDS):
        raise Fault(UnknownCardError, f"there is no hand card {quote(card_id)}; hand card ids are 0-74")
    return HAND_CARDS[card_id]


def _faction_card(value: Any, _: Any = None) -> FactionCard:
    card_id = _strict_int(value)
    if not 0 <= card_id < len(FACTION_CARDS):
        raise Fault(UnknownCardError, f"there is no faction card {card_id}; faction card ids are 0-64")
    return FACTION_CARDS[card_id]


def _reinforcement_card(value: Any, _: Any = None) -> ReinforcementCard:
    card_id = _strict_int(value)
    if not len(FACTION_CARDS) <= card_id < len(HAND_CARDS):
        raise Fault(UnknownCardError, f"there is no reinforcement card {card_id}; reinforcement card ids are 65-74")
    return REINFORCEMENT_CARDS[card_id - len(FACTION_CARDS)]


def _emperor_card(value: Any, _: Any = None) -> EmperorCard:
    card_id = _strict_int(value)
    if not 0 <= card_id < len(EMPEROR_CARDS):
        raise Fault(UnknownCardError, f"there is no emperor card {quote(card_id)}; emperor card ids are 0-7")
    return EMPEROR_CARDS[card_id]


def _enum_hook(cls: type[enum.Enum]) -> Callable[[Any, Any], enum.Enum]:
    names = ", ".join(m.name for m in cls)

    def structure(value: Any, _: Any = None) -> enum.Enum:
        name = _strict_str(value)
        try:
            return cls[name]
        except KeyError:
            raise Fault(InvalidValueError, f"{quote(name)} is not a {cls.__name__}; expected one of {names}") from None

    return structure


def _member_name(member: enum.Enum) -> str:
    return member.name


_FACTION_HOOK: Final = _enum_hook(Faction)


def _revolution_card(value: Any, _: Any = None) -> RevolutionCard:
    return REVOLUTION_CARDS[cast(Faction, _FACTION_HOOK(value, Faction))]


def _config(value: Any, _: Any = None) -> GameConfig:
    if not isinstance(value, dict):
        raise Fault(WrongTypeError, f"expected {object_name(GameConfig)}, got {json_type(value)}")
    extra = set(value) - {"players"}
    if extra:
        key = min(extra, key=str)
        raise Fault(UnknownFieldError, f"unknown field {quote(key)} in {object_name(GameConfig)}", [quote_key(key)])
    if "players" not in value:
        raise Fault(MissingFieldError, "missing field 'players'", ["players"])
    if type(value["players"]) is not int:
        raise Fault(WrongTypeError, f"expected an integer, got {json_type(value['players'])}", ["players"])
    players: int = value["players"]
    if not 3 <= players <= 5:
        raise Fault(InvalidValueError, f"the game is for 3 to 5 players, not {players} (rule 2.1)", ["players"])
    return GameConfig(players=players)


#: The types with hooks of their own, ``(type, structure, unstructure)``: they must win over the attrs factory.
_OWN_HOOKS: Final[tuple[tuple[Any, Callable[[Any, Any], Any], Callable[[Any], Any]], ...]] = (
    (int, _strict_int, _int_out),
    (str, _strict_str, _str_out),
    (bool, _strict_bool, _bool_out),
    (HandCard, _hand_card, lambda c: c.id),
    (FactionCard, _faction_card, lambda c: c.id),
    (ReinforcementCard, _reinforcement_card, lambda c: c.id),
    (EmperorCard, _emperor_card, lambda c: c.id),
    (RevolutionCard, _revolution_card, lambda c: c.faction.name),
    (GameConfig, _config, lambda c: {"players": c.players}),
    # Integer enumerations are ints too, and cattrs' hooks for int would take them: name them one by one.
    (Faction, _enum_hook(Faction), _member_name),
    (AddOnCard, _enum_hook(AddOnCard), _member_name),
)


# --------------------------------------------------------------------------- array hooks


def _array(value: Any) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise Fault(WrongTypeError, f"expected an array, got {json_type(value)}")
    return list(value)


def _items(values: list[Any], pairs: Iterable[tuple[Callable[[Any, Any], Any], Any]]) -> list[Any]:
    """Each item structured by its ``(hook, type)`` pair; a failure names the item's index."""
    out = []
    for index, (item, (hook, tp)) in enumerate(zip(values, pairs)):
        try:
            out.append(hook(item, tp))
        except Exception as exc:  # every failure becomes a located SerializationError
            bad = located(exc)
            bad.parts.insert(0, index)
            raise bad from None
    return out


def _var_tuple_structure(conv: cattrs.Converter, tp: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    item = typing.get_args(tp)[0]
    pair = (conv.get_structure_hook(item), item)
    return lambda value, _: tuple(_items(_array(value), itertools.repeat(pair)))


def _fixed_tuple_structure(conv: cattrs.Converter, tp: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    args = typing.get_args(tp)
    pairs = [(conv.get_structure_hook(a), a) for a in args]

    def structure(value: Any, _: Any) -> tuple[Any, ...]:
        values = _array(value)
        if len(values) != len(args):
            raise Fault(InvalidValueError, f"expected an array of {len(args)} items, got {len(values)}")
        return tuple(_items(values, pairs))

    return structure


def _frozenset_structure(conv: cattrs.Converter, tp: Any) -> Callable[[Any, Any], frozenset[Any]]:
    item = typing.get_args(tp)[0]
    pair = (conv.get_structure_hook(item), item)

    def structure(value: Any, _: Any) -> frozenset[Any]:
        out = _items(_array(value), itertools.repeat(pair))
        seen: set[Any] = set()
        for index, member in enumerate(out):
            if member in seen:
                raise Fault(InvalidValueError, "a set lists an item twice", [index])
            seen.add(member)
        return frozenset(out)

    return structure


def _tuple_unstructure(conv: cattrs.Converter, tp: Any) -> Callable[[tuple[Any, ...]], list[Any]]:
    args = typing.get_args(tp)
    if _is_var_tuple(tp):
        hook = conv.get_unstructure_hook(args[0])
        return lambda value: [hook(v) for v in value]
    hooks = [conv.get_unstructure_hook(a) for a in args]
    return lambda value: [h(v) for h, v in zip(hooks, value, strict=True)]


def _frozenset_unstructure(conv: cattrs.Converter, tp: Any) -> Callable[[frozenset[Any]], list[Any]]:
    hook = conv.get_unstructure_hook(typing.get_args(tp)[0])
    return lambda value: [hook(v) for v in sorted(value, key=order_key)]


# --------------------------------------------------------------------------- union and attrs hooks


def _union_structure(conv: cattrs.Converter, tp: Any) -> Callable[[Any, Any], Any]:
    """``X | None`` is ``null`` or an ``X``; a union of actions (or events) is told apart by its tag."""
    args = union_members(tp)
    members = [a for a in args if a is not NONE_TYPE]
    if len(members) == 1:
        hook = conv.get_structure_hook(members[0])
        return lambda value, _: None if value is None else hook(value, members[0])
    by_tag = {KINDS[m]: m for m in members}
    return functools.partial(_structure_tagged, conv, by_tag, ", ".join(by_tag), NONE_TYPE in args)


def _structure_tagged(
    conv: cattrs.Converter, by_tag: dict[str, type], tags: str, optional: bool, value: Any, _: Any
) -> Any:
    """An action or event (or ``None`` if ``optional``), structured as the class its tag names."""
    if value is None and optional:
        return None
    if not isinstance(value, dict):
        raise Fault(WrongTypeError, f"expected an object, got {json_type(value)}")
    if KIND_KEY not in value:
        raise Fault(MissingFieldError, f"missing field {KIND_KEY!r}; expected one of {tags}", [KIND_KEY])
    tag = value[KIND_KEY]
    if not isinstance(tag, str) or tag not in by_tag:
        raise Fault(InvalidValueError, f"{quote(tag)} is not one of {tags}", [KIND_KEY])
    member = by_tag[tag]
    return conv.get_structure_hook(member)(value, member)


def _union_unstructure(conv: cattrs.Converter, tp: Any) -> Callable[[Any], Any]:
    members = [a for a in union_members(tp) if a is not NONE_TYPE]
    if len(members) == 1:
        hook = conv.get_unstructure_hook(members[0])
        return lambda value: None if value is None else hook(value)
    return lambda value: None if value is None else conv.unstructure(value, unstructure_as=value.__class__)


def _attrs_structure(conv: cattrs.Converter, cls: type) -> Callable[[Any, Any], Any]:
    base: Callable[[Any, Any], Any] = make_dict_structure_fn(
        cls, conv, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
    )
    return functools.partial(_structure_object, base, cls, KINDS.get(cls))


def _structure_object(base: Callable[[Any, Any], Any], cls: type, tag: str | None, value: Any, _: Any) -> Any:
    """An attrs object: a JSON object with its fields, and its tag if it is an action or event."""
    if not isinstance(value, dict):
        raise Fault(WrongTypeError, f"expected {object_name(cls)}, got {json_type(value)}")
    if tag is not None:
        if KIND_KEY not in value:
            raise Fault(MissingFieldError, f"missing field {KIND_KEY!r}", [KIND_KEY])
        if value[KIND_KEY] != tag:
            raise Fault(InvalidValueError, f"{quote(value[KIND_KEY])} is not {tag!r}", [KIND_KEY])
        value = {k: v for k, v in value.items() if k != KIND_KEY}
    try:
        return base(value, cls)
    except Exception as exc:  # every failure becomes a located SerializationError
        raise located(exc) from None


def _attrs_unstructure(conv: cattrs.Converter, cls: type) -> Callable[[Any], dict[str, Any]]:
    base: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(cls, conv)
    tag = KINDS.get(cls)
    if tag is None:
        return base
    return lambda value: {KIND_KEY: tag, **base(value)}


# --------------------------------------------------------------------------- the converter


#: ``(predicate, structure factory, unstructure factory)`` for the families of types; each factory is given
#: the converter and the type. ``None`` where cattrs' own hook serves.
_FACTORIES: Final = (
    (_is_enum, lambda _conv, cls: _enum_hook(cls), lambda _conv, _cls: _member_name),
    (_is_var_tuple, _var_tuple_structure, None),
    (_is_fixed_tuple, _fixed_tuple_structure, None),
    (_is_frozenset, _frozenset_structure, _frozenset_unstructure),
    (_is_tuple, None, _tuple_unstructure),
    (is_union, _union_structure, _union_unstructure),
    (attrs.has, _attrs_structure, _attrs_unstructure),
)


def make_converter() -> cattrs.Converter:
    """A new converter with the wire format's hooks (:data:`CONVERTER` is the one the library uses).

    The scalar types have strict hooks both ways: a value built by hand may hold anything, and encoding
    checks the scalar types too, so that what is written is what loading accepts (a seed of ``"abc"`` or
    ``1.5`` would be written, and then refused).
    """
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for predicate, structure, unstructure in _FACTORIES:
        if structure is not None:
            conv.register_structure_hook_factory(predicate, functools.partial(structure, conv))
        if unstructure is not None:
            conv.register_unstructure_hook_factory(predicate, functools.partial(unstructure, conv))
    for cls, structure_hook, unstructure_hook in _OWN_HOOKS:
        conv.register_structure_hook(cls, structure_hook)
        conv.register_unstructure_hook(cls, unstructure_hook)
    return conv


#: The converter of the wire format, built once by :func:`make_converter`.
CONVERTER: Final = make_converter()
