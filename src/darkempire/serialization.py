"""The JSON wire format, version 1: states, views, actions, events, records and prompts (spec 9.3, 9.4).

Every message is one JSON object with a format version and a type::

    {"format": "darkempire/1", "type": "action", "kind": "play-card", "card": 12, "side": "REVOLUTION"}

========================  ===============================================  ===========================
``type``                  Python value                                     schema file
========================  ===============================================  ===========================
``"game-state"``          :class:`~darkempire.state.GameState`             ``game-state.json``
``"player-view"``         :class:`~darkempire.views.PlayerView`            ``player-view.json``
``"prompt"``              :class:`Prompt` (a view and the legal actions)   ``prompt.json``
``"action"``              :data:`~darkempire.actions.Action`               ``action.json``
``"event"``               :data:`~darkempire.events.Event`                 ``event.json``
``"game-record"``         :class:`~darkempire.records.GameRecord`          ``game-record.json``
``"public-record"``       :class:`~darkempire.public_record.PublicRecord`  ``public-record.json``
========================  ===============================================  ===========================

Encoding rules, the same everywhere:

* attrs classes are objects with one key per field; actions and events carry
  a ``"kind"`` tag (kebab case of the class name: ``"play-card"``,
  ``"week-started"``);
* hand cards are their ids (0-74), emperor cards their ids (0-7), a revolution
  card its faction;
* enumerations (factions, phases, sides, add-on cards, reasons) are their
  member names: ``"WORKERS"``, ``"PLAY_1"``, ``"EMPEROR"``, ``"FIVE_PLUS"``;
* tuples are arrays; sets are arrays sorted by id or enumeration order, with
  no repeated item; ``None`` is ``null``;
* integers are JSON integers (``7``, never ``7.0``). A game's seed may be any
  integer, but JavaScript numbers keep only seeds up to 2**53 exactly.

Conversion is done by a ``cattrs`` converter with strict hooks, and the
JSON Schemas in ``darkempire/schemas/`` are generated from the same types
(:mod:`darkempire.schema`). Round trips are exact: ``from_json(to_json(x)) == x``.

Loading is safe on untrusted input. Every problem raises a
:class:`SerializationError` subclass whose ``path``
names the bad value, such as ``choices[3].action.card``; nothing is returned
half-loaded. A loaded state must be a moment some game can reach
(:func:`check_state`: card conservation, hand and pile sizes, calendar,
table, history, pending choices), so the engine can be trusted with it;
:func:`load_action` can check that the seat holds the cards it names.
Encoding a value built by hand that the format cannot carry raises a
:class:`SerializationError` too.

Limits, so that refusing a hostile document costs no more than loading the
largest real one:

* a loader reads at most ``max_size`` bytes (characters for a ``str``),
  :data:`DEFAULT_MAX_SIZE` (4 MiB) unless told otherwise; the largest
  reachable documents are about 25 kB (:class:`DocumentTooLargeError`);
* an object may not repeat a key (:class:`DuplicateKeyError`, whose ``path``
  names the key): parsers disagree on which copy counts;
* no array may be longer than the rules allow anywhere in a game
  (:data:`ARRAY_LIMITS`: 75 cards in a pile, 9 in a hand, 5 seats, 12 weeks,
  ...); the length is checked before any item is (:class:`TooManyItemsError`);
* an error quotes at most :data:`QUOTE_LIMIT` characters of any value from the
  document, and its message and path are at most :data:`MESSAGE_LIMIT` each.
"""

from __future__ import annotations

import enum
import functools
import json
import re
import reprlib
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, NoReturn, TypeAlias, TypeVar, cast

import attrs
import cattrs
from cattrs.errors import AttributeValidationNote, ForbiddenExtraKeysError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from darkempire import engine
from darkempire.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
    Side,
)
from darkempire.cards import (
    ADD_ON_FOR_PLAYERS,
    EMPEROR_CARDS,
    FACTION_CARDS,
    HAND_CARDS,
    REVOLUTION_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    HandCard,
    RevolutionCard,
    add_on_for,
)
from darkempire.errors import DarkEmpireError, InvalidArgumentError
from darkempire.events import (
    EVENT_TYPES,
    CardsPassed,
    DraftDiscarded,
    Event,
    HandDealt,
    HandRefilled,
    Reorganized,
    RevealedPlay,
    StrengthsRevealed,
)
from darkempire.public_record import PublicRecord, PublicStep, hidden_information
from darkempire.records import Choice, GameRecord
from darkempire.scoring import (
    AwardReason,
    MonthScore,
    PlacementDue,
    TokenAward,
    WeekScore,
    score_month_tally,
    score_table,
)
from darkempire.state import (
    DEAL_SIZE,
    HAND_SIZE,
    MONTHS,
    PLAY_PHASES,
    STEPS,
    WEEKS,
    GameConfig,
    GameState,
    Phase,
    ScoredCard,
    ScoredEmperorCard,
    WeekRecord,
)
from darkempire.table import Play, Reinforcement, WeekTable
from darkempire.views import PlayerView, player_view

__all__ = [
    "ACTION_TYPES",
    "ARRAY_LIMITS",
    "DEFAULT_MAX_SIZE",
    "FORMAT",
    "FORMAT_VERSION",
    "MESSAGE_LIMIT",
    "MESSAGE_TYPES",
    "QUOTE_LIMIT",
    "quote",
    "ArrayLimit",
    "CardNotHeldError",
    "ConservationError",
    "DocumentTooLargeError",
    "DuplicateKeyError",
    "FormatVersionError",
    "InconsistentStateError",
    "InvalidValueError",
    "MalformedJSONError",
    "Message",
    "MissingFieldError",
    "NotAMessageError",
    "Prompt",
    "SerializationError",
    "TooManyItemsError",
    "UnknownCardError",
    "UnknownFieldError",
    "WrongTypeError",
    "canonical_json",
    "check_state",
    "from_data",
    "from_json",
    "kind_of",
    "load_action",
    "load_event",
    "load_record",
    "load_prompt",
    "load_public_record",
    "load_state",
    "load_view",
    "make_prompt",
    "message_type",
    "parse_json",
    "to_data",
    "to_json",
]

#: The wire format's version number.
FORMAT_VERSION: Final = 1
#: The value of every message's ``"format"`` field.
FORMAT: Final = f"darkempire/{FORMAT_VERSION}"
_FORMAT_RE = re.compile(r"darkempire/([0-9]{1,9})")


# --------------------------------------------------------------------------- errors


class SerializationError(DarkEmpireError, ValueError):
    """A JSON document that is not a valid message of this format.

    The message and the path are each cut to :data:`MESSAGE_LIMIT` characters, and a value quoted from the
    document to :data:`QUOTE_LIMIT`, so that a huge input does not make a huge error.

    :ivar path: where the bad value is, e.g. ``"choices[3].action.card"``;
        ``""`` for the document as a whole.
    :ivar message: the explanation without the path.
    """

    path: str
    message: str

    def __init__(self, message: str, *, path: str = "") -> None:
        message, path = _cut(message, MESSAGE_LIMIT), _cut(path, MESSAGE_LIMIT)
        super().__init__(f"{path or '(document)'}: {message}")
        self.message = message
        self.path = path


class MalformedJSONError(SerializationError):
    """The text is not JSON (or uses NaN/Infinity, or nests too deeply)."""


class DuplicateKeyError(MalformedJSONError):
    """An object repeats a key (``{"kind": "pass-cards", "kind": "discard-cards"}``): JSON parsers disagree on
    which one counts, so this format refuses them. The ``path`` names the repeated key."""


class DocumentTooLargeError(SerializationError):
    """The document is longer than the loader's ``max_size`` (by default :data:`DEFAULT_MAX_SIZE`)."""


class FormatVersionError(SerializationError):
    """The ``format`` field is missing, not this format, or a version this library does not know (a future one)."""


class UnknownFieldError(SerializationError):
    """An object has a key its type does not define."""


class MissingFieldError(SerializationError):
    """An object lacks a required key."""


class WrongTypeError(SerializationError):
    """A value has the wrong JSON type (a string for a number, an object for an array, ...)."""


class InvalidValueError(SerializationError):
    """A value of the right JSON type that is not allowed: an unknown name or tag, a repeated set item,
    an array of the wrong length, a number out of range."""


class UnknownCardError(InvalidValueError):
    """A card id that does not exist: hand cards are 0-74, emperor cards 0-7."""


class CardNotHeldError(SerializationError):
    """An action names a hand card that the seat does not hold."""


class InconsistentStateError(SerializationError):
    """A game state (or view) that no game can reach: per-seat lengths, phase and table, history and score
    track, tokens, pending choices."""


class ConservationError(InconsistentStateError):
    """A game state in which a card is missing or appears twice (hand, emperor or revolution cards)."""


class TooManyItemsError(InvalidValueError, InconsistentStateError):
    """An array longer than the rules let it be anywhere in a game: a pile of more than the 75 hand cards, a
    hand of more than 9, more than 5 seats, 12 weeks, ... (see :data:`ARRAY_LIMITS`). It is found before the
    array's items are looked at, so an oversized document costs little to refuse."""


class NotAMessageError(SerializationError, TypeError):
    """A value given to :func:`to_data` or :func:`to_json` that is not a state, view, prompt, action, event
    or record (also a :class:`TypeError`)."""


class _Bad(Exception):
    """An error found while structuring, with the path parts from the value that failed to the point raised."""

    def __init__(self, kind: type[SerializationError], message: str, parts: Sequence[str | int] = ()) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.parts: list[str | int] = list(parts)

    def error(self, prefix: Sequence[str | int] = ()) -> SerializationError:
        return self.kind(self.message, path=_path([*prefix, *self.parts]))


#: A value quoted from the document in an error message is cut to this many characters (its length is given).
QUOTE_LIMIT: Final = 60
#: No error message, and no error path, is longer than this many characters.
MESSAGE_LIMIT: Final = 500


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def quote(value: Any) -> str:
    """``repr(value)`` for an error message, cut to :data:`QUOTE_LIMIT` characters: the input may be huge,
    and building its whole ``repr`` would already cost as much as the document.

    >>> quote("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx' (100 characters)"
    """
    short = reprlib.Repr()
    short.maxstring = short.maxlong = short.maxother = QUOTE_LIMIT
    text = _cut(short.repr(value), QUOTE_LIMIT)
    if isinstance(value, str) and len(value) > QUOTE_LIMIT:
        text += f" ({len(value)} characters)"
    return text


_quote = quote


def _key(key: Any) -> str:
    """An object key from the document as a path part, cut to :data:`QUOTE_LIMIT` characters."""
    return _cut(str(key), QUOTE_LIMIT)


def _path(parts: Iterable[str | int]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _located(exc: BaseException) -> _Bad:
    """Turn any exception raised while structuring into a :class:`_Bad` with its path."""
    if isinstance(exc, _Bad):
        return exc
    if isinstance(exc, ForbiddenExtraKeysError):
        key = min(exc.extra_fields, key=str)  # not sorted: an object may have a million unknown keys
        return _Bad(UnknownFieldError, f"unknown field {_quote(key)} for {exc.cl.__name__}", [_key(key)])
    if isinstance(exc, BaseExceptionGroup):
        first = exc.exceptions[0]
        part: str | int | None = None
        for note in getattr(first, "__notes__", ()):
            if isinstance(note, AttributeValidationNote):
                part = note.name
            elif isinstance(note, IterableValidationNote) and isinstance(note.index, int):
                part = note.index
        inner = _located(first)
        if part is not None:
            if isinstance(first, KeyError) and not isinstance(first, _Bad):
                return _Bad(MissingFieldError, f"missing field {part!r}", [part])
            inner.parts.insert(0, part)
        return inner
    if isinstance(exc, KeyError):
        return _Bad(MissingFieldError, f"missing field {exc.args[0]!r}" if exc.args else "missing field")
    return _Bad(InvalidValueError, _cut(str(exc), MESSAGE_LIMIT) or type(exc).__name__)


# --------------------------------------------------------------------------- the converter


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


#: Every action class, in the order of :data:`~darkempire.actions.Action`.
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
#: The ``"kind"`` tag of each action and event class.
_TAGS: Final[dict[type, str]] = {cls: _kebab(cls.__name__) for cls in (*ACTION_TYPES, *EVENT_TYPES)}
_TAG_KEY: Final = "kind"

_NONE_TYPE = type(None)


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType)


def _order_key(value: Any) -> Any:
    """Sort key for set items: cards by id, enumerations in their order, tuples item by item."""
    if isinstance(value, (HandCard, EmperorCard)):
        return (0, value.id)
    if isinstance(value, enum.IntEnum):
        return (0, int(value))
    if isinstance(value, enum.Enum):
        return (1, value.name)
    if isinstance(value, tuple):
        return (2, tuple(_order_key(v) for v in value))
    if isinstance(value, int):
        return (0, value)
    return (3, repr(value))


def _strict_int(value: Any, _: Any = None) -> int:
    if type(value) is not int:
        raise _Bad(WrongTypeError, f"expected an integer, got {_json_type(value)}")
    return value


def _strict_str(value: Any, _: Any = None) -> str:
    if not isinstance(value, str):
        raise _Bad(WrongTypeError, f"expected a string, got {_json_type(value)}")
    return value


def _strict_bool(value: Any, _: Any = None) -> bool:
    if not isinstance(value, bool):
        raise _Bad(WrongTypeError, f"expected true or false, got {_json_type(value)}")
    return value


def _int_out(value: Any) -> int:
    if type(value) is not int:
        raise _Bad(WrongTypeError, f"cannot encode {_json_type(value)} ({value!r:.40}) as an integer")
    return value


def _str_out(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad(WrongTypeError, f"cannot encode {_json_type(value)} ({value!r:.40}) as a string")
    return value


def _bool_out(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(WrongTypeError, f"cannot encode {_json_type(value)} ({value!r:.40}) as true or false")
    return value


def _json_type(value: Any) -> str:
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


def _hand_card(value: Any, _: Any = None) -> HandCard:
    card_id = _strict_int(value)
    if not 0 <= card_id < len(HAND_CARDS):
        raise _Bad(UnknownCardError, f"there is no hand card {card_id}; hand card ids are 0-74")
    return HAND_CARDS[card_id]


def _emperor_card(value: Any, _: Any = None) -> EmperorCard:
    card_id = _strict_int(value)
    if not 0 <= card_id < len(EMPEROR_CARDS):
        raise _Bad(UnknownCardError, f"there is no emperor card {card_id}; emperor card ids are 0-7")
    return EMPEROR_CARDS[card_id]


def _enum_hook(cls: type[enum.Enum]) -> Callable[[Any, Any], enum.Enum]:
    names = ", ".join(m.name for m in cls)

    def structure(value: Any, _: Any = None) -> enum.Enum:
        name = _strict_str(value)
        try:
            return cls[name]
        except KeyError:
            raise _Bad(InvalidValueError, f"{_quote(name)} is not a {cls.__name__}; expected one of {names}") from None

    return structure


_FACTION_HOOK: Final = _enum_hook(Faction)


def _revolution_card(value: Any, _: Any = None) -> RevolutionCard:
    return REVOLUTION_CARDS[cast(Faction, _FACTION_HOOK(value, Faction))]


def _config(value: Any, _: Any = None) -> GameConfig:
    if not isinstance(value, dict):
        raise _Bad(WrongTypeError, f"expected an object (GameConfig), got {_json_type(value)}")
    extra = set(value) - {"players"}
    if extra:
        key = min(extra, key=str)
        raise _Bad(UnknownFieldError, f"unknown field {_quote(key)} for GameConfig", [_key(key)])
    if "players" not in value:
        raise _Bad(MissingFieldError, "missing field 'players'", ["players"])
    if type(value["players"]) is not int:
        raise _Bad(WrongTypeError, f"expected an integer, got {_json_type(value['players'])}", ["players"])
    players: int = value["players"]
    if not 3 <= players <= 5:
        raise _Bad(InvalidValueError, f"the game is for 3 to 5 players, not {players} (rule 2.1)", ["players"])
    return GameConfig(players=players)


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)

    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)
    # A value built by hand may hold anything: encoding checks the scalar types too, so that what is written
    # is what loading accepts (a seed of "abc" or 1.5 would be written, and then refused).
    conv.register_unstructure_hook(int, _int_out)
    conv.register_unstructure_hook(str, _str_out)
    conv.register_unstructure_hook(bool, _bool_out)
    conv.register_structure_hook(HandCard, _hand_card)
    conv.register_unstructure_hook(HandCard, lambda c: c.id)
    conv.register_structure_hook(EmperorCard, _emperor_card)
    conv.register_unstructure_hook(EmperorCard, lambda c: c.id)
    conv.register_structure_hook(RevolutionCard, _revolution_card)
    conv.register_unstructure_hook(RevolutionCard, lambda c: c.faction.name)
    conv.register_structure_hook(GameConfig, _config)
    conv.register_unstructure_hook(GameConfig, lambda c: {"players": c.players})

    def is_enum(tp: Any) -> bool:
        return isinstance(tp, type) and issubclass(tp, enum.Enum)

    conv.register_structure_hook_factory(is_enum, lambda cls: _enum_hook(cls))
    conv.register_unstructure_hook_factory(is_enum, lambda cls: lambda member: member.name)
    # Integer enumerations are ints too, and cattrs' hooks for int would take them: name them one by one.
    for int_enum in (Faction, AddOnCard):
        conv.register_structure_hook(int_enum, _enum_hook(int_enum))
        conv.register_unstructure_hook(int_enum, lambda member: member.name)

    def is_var_tuple(tp: Any) -> bool:
        args = typing.get_args(tp)
        return typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis

    def is_fixed_tuple(tp: Any) -> bool:
        args = typing.get_args(tp)
        return typing.get_origin(tp) is tuple and not (len(args) == 2 and args[1] is Ellipsis)

    def is_frozenset(tp: Any) -> bool:
        return typing.get_origin(tp) is frozenset

    def array(value: Any) -> list[Any]:
        if not isinstance(value, (list, tuple)):
            raise _Bad(WrongTypeError, f"expected an array, got {_json_type(value)}")
        return list(value)

    def items(values: list[Any], hook: Callable[[Any, Any], Any], tp: Any) -> list[Any]:
        out = []
        for index, item in enumerate(values):
            try:
                out.append(hook(item, tp))
            except Exception as exc:  # every failure becomes a located SerializationError
                bad = _located(exc)
                bad.parts.insert(0, index)
                raise bad from None
        return out

    def var_tuple_structure(tp: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
        item = typing.get_args(tp)[0]
        hook = conv.get_structure_hook(item)
        return lambda value, _: tuple(items(array(value), hook, item))

    def fixed_tuple_structure(tp: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
        args = typing.get_args(tp)
        hooks = [conv.get_structure_hook(a) for a in args]

        def structure(value: Any, _: Any) -> tuple[Any, ...]:
            values = array(value)
            if len(values) != len(args):
                raise _Bad(InvalidValueError, f"expected an array of {len(args)} items, got {len(values)}")
            out = []
            for index, (item, hook, arg) in enumerate(zip(values, hooks, args, strict=True)):
                try:
                    out.append(hook(item, arg))
                except Exception as exc:
                    bad = _located(exc)
                    bad.parts.insert(0, index)
                    raise bad from None
            return tuple(out)

        return structure

    def frozenset_structure(tp: Any) -> Callable[[Any, Any], frozenset[Any]]:
        item = typing.get_args(tp)[0]
        hook = conv.get_structure_hook(item)

        def structure(value: Any, _: Any) -> frozenset[Any]:
            out = items(array(value), hook, item)
            seen: set[Any] = set()
            for index, member in enumerate(out):
                if member in seen:
                    raise _Bad(InvalidValueError, "a set lists an item twice", [index])
                seen.add(member)
            return frozenset(out)

        return structure

    conv.register_structure_hook_factory(is_var_tuple, var_tuple_structure)
    conv.register_structure_hook_factory(is_fixed_tuple, fixed_tuple_structure)
    conv.register_structure_hook_factory(is_frozenset, frozenset_structure)

    def tuple_unstructure(tp: Any) -> Callable[[tuple[Any, ...]], list[Any]]:
        args = typing.get_args(tp)
        if is_var_tuple(tp):
            hook = conv.get_unstructure_hook(args[0])
            return lambda value: [hook(v) for v in value]
        hooks = [conv.get_unstructure_hook(a) for a in args]
        return lambda value: [h(v) for h, v in zip(hooks, value, strict=True)]

    def frozenset_unstructure(tp: Any) -> Callable[[frozenset[Any]], list[Any]]:
        hook = conv.get_unstructure_hook(typing.get_args(tp)[0])
        return lambda value: [hook(v) for v in sorted(value, key=_order_key)]

    def is_tuple(tp: Any) -> bool:
        return typing.get_origin(tp) is tuple

    conv.register_unstructure_hook_factory(is_tuple, tuple_unstructure)
    conv.register_unstructure_hook_factory(is_frozenset, frozenset_unstructure)

    def union_structure(tp: Any) -> Callable[[Any, Any], Any]:
        args = typing.get_args(tp)
        optional = _NONE_TYPE in args
        members = [a for a in args if a is not _NONE_TYPE]
        if len(members) == 1:
            hook = conv.get_structure_hook(members[0])

            def structure_optional(value: Any, _: Any) -> Any:
                return None if value is None else hook(value, members[0])

            return structure_optional
        by_tag = {_TAGS[m]: m for m in members}
        tags = ", ".join(by_tag)

        def structure_tagged(value: Any, _: Any) -> Any:
            if value is None and optional:
                return None
            if not isinstance(value, dict):
                raise _Bad(WrongTypeError, f"expected an object, got {_json_type(value)}")
            if _TAG_KEY not in value:
                raise _Bad(MissingFieldError, f"missing field {_TAG_KEY!r}; expected one of {tags}", [_TAG_KEY])
            tag = value[_TAG_KEY]
            if not isinstance(tag, str) or tag not in by_tag:
                raise _Bad(InvalidValueError, f"{_quote(tag)} is not one of {tags}", [_TAG_KEY])
            member = by_tag[tag]
            return conv.get_structure_hook(member)(value, member)

        return structure_tagged

    def union_unstructure(tp: Any) -> Callable[[Any], Any]:
        members = [a for a in typing.get_args(tp) if a is not _NONE_TYPE]
        if len(members) == 1:
            hook = conv.get_unstructure_hook(members[0])
            return lambda value: None if value is None else hook(value)
        return lambda value: None if value is None else conv.unstructure(value, unstructure_as=value.__class__)

    conv.register_structure_hook_factory(_is_union, union_structure)
    conv.register_unstructure_hook_factory(_is_union, union_unstructure)

    def attrs_structure(cls: type) -> Callable[[Any, Any], Any]:
        base: Callable[[Any, Any], Any] = make_dict_structure_fn(
            cls, conv, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
        )
        tag = _TAGS.get(cls)

        def structure(value: Any, _: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad(WrongTypeError, f"expected an object ({cls.__name__}), got {_json_type(value)}")
            if tag is not None:
                if _TAG_KEY not in value:
                    raise _Bad(MissingFieldError, f"missing field {_TAG_KEY!r}", [_TAG_KEY])
                if value[_TAG_KEY] != tag:
                    raise _Bad(InvalidValueError, f"{_quote(value[_TAG_KEY])} is not {tag!r}", [_TAG_KEY])
                value = {k: v for k, v in value.items() if k != _TAG_KEY}
            try:
                return base(value, cls)
            except Exception as exc:  # every failure becomes a located SerializationError
                raise _located(exc) from None

        return structure

    def attrs_unstructure(cls: type) -> Callable[[Any], dict[str, Any]]:
        base: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(cls, conv)
        tag = _TAGS.get(cls)
        if tag is None:
            return base
        return lambda value: {_TAG_KEY: tag, **base(value)}

    conv.register_structure_hook_factory(attrs.has, attrs_structure)
    conv.register_unstructure_hook_factory(attrs.has, attrs_unstructure)
    # The specific hooks registered first must win over the attrs factory.
    for cls, structure_hook, unstructure_hook in (
        (HandCard, _hand_card, lambda c: c.id),
        (EmperorCard, _emperor_card, lambda c: c.id),
        (RevolutionCard, _revolution_card, lambda c: c.faction.name),
        (GameConfig, _config, lambda c: {"players": c.players}),
    ):
        conv.register_structure_hook(cls, structure_hook)
        conv.register_unstructure_hook(cls, unstructure_hook)
    return conv


_CONVERTER: Final = _make_converter()


# --------------------------------------------------------------------------- prompts


@attrs.frozen
class Prompt:
    """What a server sends a seat whose choice it awaits: its view and its legal actions (spec 9.2, 9.4).

    :ivar view: the seat's :class:`~darkempire.views.PlayerView`.
    :ivar legal_actions: the seat's legal actions, in the engine's order; the
        client answers with one of them as an ``"action"`` message.
    """

    view: PlayerView
    legal_actions: tuple[Action, ...]


def make_prompt(state: GameState, seat: int) -> Prompt:
    """The prompt for ``seat`` now: :func:`~darkempire.views.player_view` and
    :func:`~darkempire.engine.legal_actions` (empty when the seat is not awaited).

    :raises WrongSeatError: if ``seat`` is not a seat of this game.
    """
    return Prompt(player_view(state, seat), engine.legal_actions(state, seat))


# --------------------------------------------------------------------------- messages

#: Any value that travels as a message.
Message: TypeAlias = GameState | PlayerView | Prompt | Action | Event | GameRecord | PublicRecord

#: The message ``type`` of each kind of value.
MESSAGE_TYPES: Final[dict[str, Any]] = {
    "game-state": GameState,
    "player-view": PlayerView,
    "prompt": Prompt,
    "action": Action,
    "event": Event,
    "game-record": GameRecord,
    "public-record": PublicRecord,
}

T = TypeVar("T")


# --------------------------------------------------------------------------- array limits

@functools.cache
def _field_types(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((field.name, hints[field.name]) for field in attrs.fields(cls))


#: One limit on an array's length: ``(limit, rule)``, the rule being the reason given in the error message.
ArrayLimit: TypeAlias = tuple[int, str]

_SEATS: Final = max(ADD_ON_FOR_PLAYERS)
_TABLE_ENTRIES: Final = _SEATS * STEPS
_GAME_CHOICES: Final = _SEATS * (2 + MONTHS * (1 + WEEKS * (STEPS + 2)))
_LEGAL_ACTIONS: Final = (1 + STEPS) * 2**HAND_SIZE

_PER_SEAT: Final[ArrayLimit] = (_SEATS, f"one entry per seat, and a game has at most {_SEATS} seats (rule 2.1)")
_PER_FACTION: Final[ArrayLimit] = (len(Faction), f"one entry per faction, and there are {len(Faction)}")
_HAND: Final[ArrayLimit] = (
    DEAL_SIZE,
    f"a hand holds at most {DEAL_SIZE} cards: {DEAL_SIZE} when dealt (rule 2.4), at most {HAND_SIZE} after the "
    "draft (rules 2.6, 6.4)",
)
_TABLE: Final[ArrayLimit] = (
    _TABLE_ENTRIES,
    f"a table holds one card or idle entry per seat and step, at most {_TABLE_ENTRIES} (rule 4.2, ruling H)",
)
_CHOICES: Final[ArrayLimit] = (
    _GAME_CHOICES,
    f"a game has at most {_GAME_CHOICES} choices: per seat a pass and a discard (rules 2.5, 2.6), a support "
    f"card a month (rule 3.2), and each week {STEPS} plays, a placement and a re-organize (rules 4.2, 5.6, 6.1)",
)

#: The limit of an array by what it holds, for the fields :data:`_FIELD_LIMITS` does not name: a collection of
#: cards holds each card once, a per-seat or per-faction list of numbers has at most 5 entries, ...
_ITEM_LIMITS: Final[dict[Any, ArrayLimit]] = {
    HandCard: (len(HAND_CARDS), f"there are {len(HAND_CARDS)} hand cards"),
    EmperorCard: (len(EMPEROR_CARDS), f"there are {len(EMPEROR_CARDS)} emperor cards"),
    RevolutionCard: (len(REVOLUTION_CARDS), f"there are {len(REVOLUTION_CARDS)} revolution cards"),
    Faction: _PER_FACTION,
    int: (max(_SEATS, len(Faction)), f"one entry per seat (at most {_SEATS}) or per faction ({len(Faction)})"),
    ScoredCard: (len(FACTION_CARDS), f"only the {len(FACTION_CARDS)} faction cards are placed (rule 5.5)"),
    ScoredEmperorCard: (len(EMPEROR_CARDS), f"there are {len(EMPEROR_CARDS)} emperor cards"),
    WeekRecord: (MONTHS * WEEKS, f"a game has {MONTHS * WEEKS} weeks (rule 3.1)"),
    MonthScore: (MONTHS, f"a game has {MONTHS} months (rule 3.1)"),
    Play: _TABLE,
    Reinforcement: _TABLE,
    RevealedPlay: (_SEATS, f"each seat reveals one card at a step, and a game has at most {_SEATS} seats (rule 4.2)"),
    PlacementDue: (_SEATS * len(Faction), "one placement per seat and faction (ruling E)"),
    TokenAward: (_SEATS * len(Faction) * len(AwardReason), "one award per seat, faction and reason (ruling D)"),
    Choice: _CHOICES,
}

#: The limits of the fields that need their own (one per nested array, outermost first).
_FIELD_LIMITS: Final[dict[tuple[type, str], tuple[ArrayLimit, ...]]] = {
    (GameState, "hands"): (_PER_SEAT, _HAND),
    (GameState, "support"): (_PER_SEAT,),
    (GameState, "support_used"): (_PER_SEAT, (MONTHS, f"one support card is used per month, {MONTHS} (rule 3.2)")),
    (GameState, "pending"): (_PER_SEAT,),
    (GameState, "revolution_pile"): ((WEEKS, f"a month's pile holds {WEEKS} revolution cards (rule 3.3)"),),
    (GameState, "emperor_pile"): ((WEEKS, f"a month's pile holds at most {WEEKS} emperor cards (rule 3.3, ruling J)"),),
    (PlayerView, "hand"): (_HAND,),
    (PlayerView, "support_used"): (_PER_SEAT, (MONTHS, f"one support card is used per month, {MONTHS} (rule 3.2)")),
    (Prompt, "legal_actions"): (
        (
            _LEGAL_ACTIONS,
            f"a seat has at most {_LEGAL_ACTIONS} legal actions: a re-organize takes back one of at most {STEPS} "
            f"cards or none, and discards any part of a hand of at most {HAND_SIZE} (rules 6.1-6.3)",
        ),
    ),
    (GameRecord, "digests"): ((_GAME_CHOICES, f"one digest per choice, and {_CHOICES[1]}"),),
    (PublicRecord, "steps"): ((_GAME_CHOICES, f"one step per choice, and {_CHOICES[1]}"),),
    (PublicStep, "events"): (
        (
            len(EVENT_TYPES) * _SEATS,
            f"one choice sets off each of the {len(EVENT_TYPES)} kinds of event at most once per seat (spec 9.4)",
        ),
    ),
    (WeekTable, "idle"): (_TABLE,),
    (WeekScore, "support"): (_PER_SEAT, _PER_FACTION),
    (StrengthsRevealed, "support"): (_PER_SEAT, _PER_FACTION),
    (PlacementDue, "candidates"): ((STEPS, f"a seat has at most {STEPS} cards on the table, one per step (rule 4.2)"),),
    (PassCards, "cards"): (_HAND,),
    (DiscardCards, "cards"): (_HAND,),
    (PlaceCards, "cards"): ((len(Faction), "a seat places one card per faction it is due to place (ruling E)"),),
    (Reorganize, "discards"): (_HAND,),
    (HandDealt, "cards"): (_HAND,),
    (CardsPassed, "cards"): (_HAND,),
    (DraftDiscarded, "cards"): (_HAND,),
    (HandRefilled, "discarded"): (_HAND,),
    (HandRefilled, "drawn"): (_HAND,),
    (Reorganized, "take_backs"): (_PER_SEAT,),
}


def _optional_member(tp: Any) -> Any:
    """``X`` for ``X | None``; any other type unchanged."""
    if _is_union(tp):
        members = [m for m in typing.get_args(tp) if m is not _NONE_TYPE]
        if len(members) == 1:
            return members[0]
    return tp


def _is_array_of_any_length(tp: Any) -> bool:
    args = typing.get_args(tp)
    origin = typing.get_origin(tp)
    return origin is frozenset or (origin is tuple and len(args) == 2 and args[1] is Ellipsis)


def _array_items(tp: Any) -> list[Any]:
    """The item type of each nested array of any length in a field of type ``tp``, outermost first."""
    items = []
    tp = _optional_member(tp)
    while _is_array_of_any_length(tp):
        tp = _optional_member(typing.get_args(tp)[0])
        items.append(tp)
    return items


def _classes(tp: Any) -> Iterator[type]:
    """The attrs classes that a value of type ``tp`` may hold, ``tp`` itself included."""
    if isinstance(tp, type) and attrs.has(tp):
        yield tp
    for arg in typing.get_args(tp):
        if arg is not Ellipsis:
            yield from _classes(arg)


def _array_limits() -> dict[tuple[type, str], tuple[ArrayLimit, ...]]:
    """The limits of every array field of every message type, from the two tables above."""
    limits: dict[tuple[type, str], tuple[ArrayLimit, ...]] = {}
    todo = [cls for tp in MESSAGE_TYPES.values() for cls in _classes(tp)]
    done: set[type] = {GameConfig, HandCard, EmperorCard, RevolutionCard}  # these have hooks of their own
    while todo:
        cls = todo.pop()
        if cls in done:
            continue
        done.add(cls)
        for name, field_type in _field_types(cls):
            todo += _classes(field_type)
            items = _array_items(field_type)
            if not items:
                continue
            own = _FIELD_LIMITS.get((cls, name))
            if own is None and not all(item in _ITEM_LIMITS for item in items):
                raise TypeError(f"no array limit for {cls.__name__}.{name}")  # pragma: no cover
            limits[cls, name] = own if own is not None else tuple(_ITEM_LIMITS[item] for item in items)
            if len(limits[cls, name]) != len(items):
                raise TypeError(f"{cls.__name__}.{name} has {len(items)} nested arrays")  # pragma: no cover
    if set(_FIELD_LIMITS) - set(limits):
        raise TypeError(f"array limits for no field: {set(_FIELD_LIMITS) - set(limits)}")  # pragma: no cover
    return limits


#: The longest each array of the wire format may be, by ``(class, field name)``: one ``(limit, rule)`` pair per
#: nested array, outermost first (``GameState.hands`` has two: 5 seats, 9 cards a hand). The rules set them,
#: and loading checks them before it looks at an array's items (:class:`TooManyItemsError`); the JSON Schemas
#: state them as ``maxItems``.
ARRAY_LIMITS: Final[Mapping[tuple[type, str], tuple[ArrayLimit, ...]]] = types.MappingProxyType(_array_limits())


#: Checks one parsed JSON value against the array limits; ``_Bad`` carries the path of a long array out.
_SizeCheck: TypeAlias = Callable[[Any], None]


def _check_sizes(payload: dict[str, Any], tp: Any) -> None:
    """Raise :class:`TooManyItemsError` for the first array in ``payload`` (parsed JSON of type ``tp``) longer
    than its limit. An array's items are looked at only once its length is known to be within the limit, so
    the work is bounded by the largest reachable document; anything not of the shape ``tp`` is left for
    structuring to refuse."""
    check = _size_check(tp, ())
    if check is None:
        return
    try:
        check(payload)
    except _Bad as bad:
        raise bad.error() from None


@functools.cache
def _size_check(tp: Any, limits: tuple[ArrayLimit, ...]) -> _SizeCheck | None:
    """The check of a value of type ``tp`` whose arrays have ``limits`` (outermost first), or ``None`` when
    such a value holds no array: made once per type, so that checking a document introspects no types."""
    tp = _optional_member(tp)
    if _is_union(tp):
        return _tagged_size_check(tp)
    if _is_array_of_any_length(tp):
        return _array_size_check(typing.get_args(tp)[0], limits)
    if not (isinstance(tp, type) and attrs.has(tp)):
        return None
    checks = [(name, _size_check(ft, ARRAY_LIMITS.get((tp, name), ()))) for name, ft in _field_types(tp)]
    fields = [(name, check) for name, check in checks if check is not None]
    if not fields:
        return None

    def check_object(value: Any) -> None:
        if isinstance(value, dict):
            for name, check in fields:
                if name in value:
                    try:
                        check(value[name])
                    except _Bad as bad:
                        bad.parts.insert(0, name)
                        raise

    return check_object


def _tagged_size_check(tp: Any) -> _SizeCheck | None:
    """The check of an action or event (or ``None``), by its ``"kind"`` tag."""
    checks = {_TAGS[m]: _size_check(m, ()) for m in typing.get_args(tp) if m is not _NONE_TYPE}
    by_tag = {tag: check for tag, check in checks.items() if check is not None}
    if not by_tag:
        return None

    def check_tagged(value: Any) -> None:
        tag = value.get(_TAG_KEY) if isinstance(value, dict) else None
        check = by_tag.get(tag) if isinstance(tag, str) else None
        if check is not None:
            check(value)

    return check_tagged


def _array_size_check(item: Any, limits: tuple[ArrayLimit, ...]) -> _SizeCheck:
    (limit, rule), inner = limits[0], _size_check(item, limits[1:])

    def check_array(value: Any) -> None:
        if not isinstance(value, list):
            return
        if len(value) > limit:
            raise _Bad(TooManyItemsError, f"{len(value)} items, but {rule}")
        if inner is not None:
            for index, member in enumerate(value):
                try:
                    inner(member)
                except _Bad as bad:
                    bad.parts.insert(0, index)
                    raise

    return check_array


def message_type(value: object) -> str:
    """The ``"type"`` of the message that carries ``value``.

    :raises NotAMessageError: (a :class:`TypeError`) if ``value`` is not a state, view, prompt, action, event
        or record.
    """
    for name, cls in (
        ("game-state", GameState),
        ("player-view", PlayerView),
        ("prompt", Prompt),
        ("game-record", GameRecord),
        ("public-record", PublicRecord),
    ):
        if isinstance(value, cls):
            return name
    if type(value) in ACTION_TYPES:
        return "action"
    if type(value) in EVENT_TYPES:
        return "event"
    raise NotAMessageError(f"{type(value).__name__} values do not travel as darkempire messages")


def kind_of(cls: type) -> str:
    """The ``"kind"`` tag of an action or event class, e.g. ``"play-card"``."""
    return _TAGS[cls]


def to_data(value: Message) -> dict[str, Any]:
    """``value`` as a JSON-ready dict with ``format`` and ``type`` (see the module docstring).

    :raises NotAMessageError: (a :class:`TypeError`) for a value that is not a message.
    :raises SerializationError: for a message built by hand that holds a value the format cannot carry
        (a seed that is not an integer, a card that is not one of the game's); its ``path`` names it.
    """
    name = message_type(value)
    try:
        payload = _CONVERTER.unstructure(value, unstructure_as=type(value))
    except Exception as exc:  # every failure becomes a located SerializationError
        raise _unencodable(value, exc) from None
    return {"format": FORMAT, "type": name, **payload}


def _unencodable(value: Message, exc: Exception) -> SerializationError:
    """The error for a value that failed to encode: the type check finds where (the hooks do not know)."""
    try:
        _check_types(value, type(value), ())
    except SerializationError as located:
        return located
    if isinstance(exc, _Bad):
        return exc.error()
    return SerializationError(f"cannot encode the value: {type(exc).__name__}: {exc}")


def _dumps(value: Message, **options: Any) -> str:
    data = to_data(value)
    try:
        return json.dumps(data, allow_nan=False, **options)
    except (TypeError, ValueError) as exc:  # to_data checks the types; this is the last line of defence
        raise SerializationError(f"cannot encode the value as JSON: {exc}") from None


def to_json(value: Message, *, indent: int | None = None) -> str:
    """``value`` as a JSON message (compact unless ``indent`` is given).

    :raises NotAMessageError, SerializationError: see :func:`to_data`.
    """
    separators = (",", ":") if indent is None else (",", ": ")
    return _dumps(value, indent=indent, separators=separators, ensure_ascii=False)


def canonical_json(value: Message) -> str:
    """One fixed text per value: sorted keys, no spaces (used for digests).

    :raises NotAMessageError, SerializationError: see :func:`to_data`.
    """
    return _dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: The longest document a loader reads by default: 4 MiB (in bytes, or characters for a ``str``). The largest
#: reachable documents are about 25 kB compact (the record of a long 5-player game, a late state, a prompt) and
#: 60 kB indented; pass ``max_size`` to a loader to change the limit.
DEFAULT_MAX_SIZE: Final = 4 * 1024 * 1024


class _Repeated(dict[str, Any]):
    """A parsed JSON object that repeated a key; ``repeated`` is the first key seen twice."""

    __slots__ = ("repeated",)
    repeated: str


def _check_max_size(max_size: object) -> int:
    if type(max_size) is not int or max_size < 0:
        raise InvalidArgumentError(f"max_size is a number of bytes (an int of 0 or more), not {max_size!r:.40}")
    return max_size


def parse_json(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> Any:
    """JSON text (UTF-8 if bytes) as Python data, as strictly as the loaders read it: no ``NaN`` or
    ``Infinity``, no object that repeats a key, no document longer than ``max_size``.

    :raises DocumentTooLargeError: the text is longer than ``max_size`` (bytes, or characters of a ``str``);
        it is not parsed.
    :raises DuplicateKeyError: an object repeats a key; the ``path`` names it.
    :raises MalformedJSONError: the text is not JSON.
    :raises InvalidArgumentError: ``max_size`` is not an int of 0 or more.
    """
    limit = _check_max_size(max_size)
    if not isinstance(text, (str, bytes, bytearray)):
        raise MalformedJSONError(f"expected JSON text, got {type(text).__name__}")
    if len(text) > limit:
        unit = "characters" if isinstance(text, str) else "bytes"
        raise DocumentTooLargeError(f"the document is {len(text)} {unit}, more than the limit of {limit} (max_size)")
    repeated: list[_Repeated] = []

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) == len(pairs):
            return value
        marked = _Repeated(value)
        marked.repeated = _first_repeated(pairs)
        repeated.append(marked)
        return marked

    try:
        if not isinstance(text, str):
            text = bytes(text).decode("utf-8")
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=unique_keys)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise MalformedJSONError(f"not valid JSON: {_cut(str(exc), QUOTE_LIMIT * 2)}") from None
    if repeated:
        raise _repeated_key(data)
    return data


def _first_repeated(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no key is repeated")  # pragma: no cover


def _repeated_key(data: Any) -> DuplicateKeyError:
    """The error for the first object (in document order) that repeats a key, with the key's path."""
    parents: list[tuple[int, str | int]] = [(-1, "")]  # (parent node, key in it) of each container visited
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, node = stack.pop()
        if isinstance(value, _Repeated):
            parts: list[str | int] = [_key(value.repeated)]
            while node > 0:
                node, part = parents[node]
                parts.append(part)
            return DuplicateKeyError(
                f"the key {_quote(value.repeated)} appears twice in one object; each key may appear once",
                path=_path(reversed(parts)),
            )
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        pushed: list[tuple[Any, int]] = []
        for key, child in children:
            if isinstance(child, (dict, list)):
                parents.append((node, _key(key) if isinstance(key, str) else key))
                pushed.append((child, len(parents) - 1))
        stack.extend(reversed(pushed))
    raise AssertionError("a repeated key was marked but not found")  # pragma: no cover


def _envelope(data: Any, expected: str | None) -> tuple[str, dict[str, Any]]:
    if not isinstance(data, dict):
        raise WrongTypeError(f"a message is a JSON object, not {_json_type(data)}")
    fmt = data.get("format")
    if fmt is None:
        raise FormatVersionError("missing field 'format'; expected 'darkempire/1'", path="format")
    match = _FORMAT_RE.fullmatch(fmt) if isinstance(fmt, str) else None
    if match is None:
        raise FormatVersionError(f"{_quote(fmt)} is not a darkempire format; expected {FORMAT!r}", path="format")
    version = int(match.group(1))
    if version > FORMAT_VERSION:
        raise FormatVersionError(f"{_quote(fmt)} is a newer version; this library reads {FORMAT!r}", path="format")
    if fmt != FORMAT:  # an older version, or this one spelt another way ("darkempire/01"): one string per version
        raise FormatVersionError(
            f"{_quote(fmt)} is an unknown version; this library reads exactly {FORMAT!r}", path="format"
        )
    if "type" not in data:
        raise MissingFieldError("missing field 'type'", path="type")
    name = data["type"]
    if not isinstance(name, str) or name not in MESSAGE_TYPES:
        raise InvalidValueError(
            f"{_quote(name)} is not a message type; expected one of {', '.join(MESSAGE_TYPES)}", path="type"
        )
    if expected is not None and name != expected:
        raise InvalidValueError(f"expected a {expected!r} message, got {name!r}", path="type")
    return name, {k: v for k, v in data.items() if k not in ("format", "type")}


def _structure(payload: dict[str, Any], tp: Any) -> Any:
    try:
        return _CONVERTER.structure(payload, tp)
    except SerializationError:
        raise
    except Exception as exc:  # every failure becomes a located SerializationError
        raise _located(exc).error() from None


def _check_expected(expected: object) -> None:
    if expected is not None and (not isinstance(expected, str) or expected not in MESSAGE_TYPES):
        raise InvalidArgumentError(
            f"expected is a message type ({', '.join(MESSAGE_TYPES)}) or None, not {expected!r:.40}"
        )


def from_data(data: Any, expected: str | None = None, *, check: bool = True) -> Message:
    """The value of a parsed JSON message (a dict), checked.

    :param data: the parsed message.
    :param expected: the message ``type`` required, or ``None`` for any.
    :param check: see :func:`from_json`.
    :raises InvalidArgumentError: if ``expected`` is neither ``None`` nor a message type (a key of
        :data:`MESSAGE_TYPES`); the document is not looked at.
    :raises SerializationError: see :func:`from_json`.
    """
    _check_expected(expected)
    name, payload = _envelope(data, expected)
    _check_sizes(payload, MESSAGE_TYPES[name])
    value = _structure(payload, MESSAGE_TYPES[name])
    if check:
        _CHECKS[name](value)
    return cast(Message, value)


def from_json(
    text: str | bytes | bytearray, expected: str | None = None, *, check: bool = True, max_size: int = DEFAULT_MAX_SIZE
) -> Message:
    """The value of a JSON message; ``from_json(to_json(x)) == x``.

    :param text: the message.
    :param expected: the message ``type`` required, or ``None`` for any.
    :param max_size: the longest text read, in bytes (characters for a ``str``); see :data:`DEFAULT_MAX_SIZE`.
    :param check: ``False`` skips the consistency checks (:func:`check_state` for a state, the checks of views,
        prompts and records): the value is only structured, with its types, card ids and names checked. Only
        for a program's own values that are deliberately not moments of a game, such as a state saved between
        two chance draws; never for input from elsewhere, on which the engine may then fail or take
        exponential time.
    :raises DocumentTooLargeError: the text is longer than ``max_size``; it is not parsed.
    :raises MalformedJSONError: not JSON; :class:`DuplicateKeyError` for an object that repeats a key.
    :raises FormatVersionError: a missing, foreign or future ``format``.
    :raises TooManyItemsError: an array longer than the rules allow (:data:`ARRAY_LIMITS`), found before its
        items are looked at.
    :raises UnknownFieldError, MissingFieldError, WrongTypeError, InvalidValueError, UnknownCardError:
        a value that does not fit the message's types.
    :raises InconsistentStateError, ConservationError: a state (or view) that no game can reach (a state is
        checked with :func:`check_state`).
    :raises InvalidArgumentError: if ``expected`` is neither ``None`` nor a message type, or ``max_size`` is not
        an int of 0 or more.
    """
    _check_expected(expected)
    return from_data(parse_json(text, max_size=max_size), expected, check=check)


def _typed(text: str | bytes | bytearray, expected: str, cls: type[T] | tuple[type, ...], max_size: int) -> T:
    value = from_json(text, expected, max_size=max_size)
    assert isinstance(value, cls)
    return cast(T, value)


def load_state(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> GameState:
    """A ``"game-state"`` message, checked for card conservation and consistency (save/resume).

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "game-state", GameState, max_size)


def load_view(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> PlayerView:
    """A ``"player-view"`` message.

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "player-view", PlayerView, max_size)


def load_prompt(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> Prompt:
    """A ``"prompt"`` message.

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "prompt", Prompt, max_size)


def load_event(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> Event:
    """An ``"event"`` message.

    :raises SerializationError: see :func:`from_json`.
    """
    return cast(Event, _typed(text, "event", EVENT_TYPES, max_size))


def load_record(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> GameRecord:
    """A ``"game-record"`` message (replay it with :func:`darkempire.records.replay_record`).

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "game-record", GameRecord, max_size)


def load_public_record(text: str | bytes | bytearray, *, max_size: int = DEFAULT_MAX_SIZE) -> PublicRecord:
    """A ``"public-record"`` message, refused if it carries hidden information (check it move by move with
    :func:`darkempire.public_record.spectator_replay`).

    :raises SerializationError: see :func:`from_json`.
    """
    return _typed(text, "public-record", PublicRecord, max_size)


def load_action(
    text: str | bytes | bytearray, *, hand: Iterable[HandCard] | None = None, max_size: int = DEFAULT_MAX_SIZE
) -> Action:
    """An ``"action"`` message from a client.

    :param hand: the seat's hand (``state.hands[seat]`` on a server,
        ``view.hand`` on a client); if given, every hand card the action
        plays, passes or discards must be in it.
    :raises CardNotHeldError: the action names a hand card the seat does not hold.
    :raises InvalidArgumentError: if ``hand`` is not an iterable of hand cards, or ``max_size`` is not an
        int of 0 or more.
    :raises SerializationError: see :func:`from_json`.

    The action is only checked as a value and against the hand; whether the
    rules allow it now is for :func:`darkempire.engine.apply` to say.
    """
    held = None if hand is None else _hand_argument(hand)
    data = parse_json(text, max_size=max_size)
    action = cast(Action, from_data(data, "action"))
    if held is not None:
        _check_held(action, held, data)
    return action


def _hand_argument(hand: object) -> frozenset[HandCard]:
    if isinstance(hand, (str, bytes, bytearray, Mapping)):
        raise InvalidArgumentError(f"hand is an iterable of hand cards, not a {type(hand).__name__}")
    try:
        cards = frozenset(cast(Iterable[HandCard], hand))
    except TypeError:
        raise InvalidArgumentError(f"hand is an iterable of hand cards, not {hand!r:.40}") from None
    for card in cards:
        if type(card) is not HandCard:
            raise InvalidArgumentError(f"hand holds {card!r:.40}, which is not a hand card")
    return cards


def _check_held(action: Action, hand: frozenset[HandCard], data: dict[str, Any]) -> None:
    fields: list[tuple[str, Iterable[HandCard]]] = []
    if isinstance(action, (PassCards, DiscardCards)):
        fields.append(("cards", action.cards))
    elif isinstance(action, (PlayCard, Reinforce)):
        fields.append(("card", (action.card,)))
    elif isinstance(action, Reorganize):
        fields.append(("discards", action.discards))
    for name, cards in fields:
        for card in sorted(cards, key=lambda c: c.id):
            if card not in hand:
                raw = data.get(name)
                path = f"{name}[{raw.index(card.id)}]" if isinstance(raw, list) else name
                raise CardNotHeldError(f"the seat does not hold hand card {card.id} ({card.label()})", path=path)


# --------------------------------------------------------------------------- consistency checks


def _fail(kind: type[SerializationError], message: str, *parts: str | int) -> NoReturn:
    raise kind(message, path=_path(parts))


def _check_seat_tuples(players: int, fields: Mapping[str, Sequence[Any]]) -> None:
    for name, values in fields.items():
        if len(values) != players:
            _fail(InconsistentStateError, f"{len(values)} entries for {players} seats", name)


def _check_seat(seat: int, players: int, *parts: str | int) -> None:
    if not 0 <= seat < players:
        _fail(InvalidValueError, f"there is no seat {seat} in a {players}-player game", *parts)


def _check_non_negative(values: Sequence[int], *parts: str | int) -> None:
    for index, value in enumerate(values):
        if value < 0:
            _fail(InvalidValueError, f"{value} is negative", *parts, index)


def _check_table(table: WeekTable, players: int, *parts: str | int, add_on: AddOnCard | None) -> None:
    """What holds for any table, the current one as for a finished week's: seats, steps, reinforcements, add-on."""
    if table.players != players:
        _fail(
            InconsistentStateError, f"a table for {table.players} seats in a {players}-player game", *parts, "players"
        )
    if not 0 <= table.steps_revealed <= 3:
        _fail(InvalidValueError, "steps_revealed is 0-3", *parts, "steps_revealed")
    for index, play in enumerate(table.plays):
        _check_seat(play.seat, players, *parts, "plays", index, "seat")
        if not 1 <= play.step <= table.steps_revealed:
            _fail(InconsistentStateError, f"step {play.step} is not a revealed step", *parts, "plays", index, "step")
        for r_index, r in enumerate(play.reinforcements):
            _check_seat(r.seat, players, *parts, "plays", index, "reinforcements", r_index, "seat")
            if not play.step < r.step <= table.steps_revealed:
                _fail(
                    InconsistentStateError,
                    "a reinforcement comes in a later revealed step than its target (rule 4.6)",
                    *parts, "plays", index, "reinforcements", r_index, "step",
                )  # fmt: skip
            if not r.card.is_reinforcement:
                _fail(InconsistentStateError, "only reinforcement cards are attached", *parts, "plays", index,
                      "reinforcements", r_index, "card")  # fmt: skip
    for index, (step, seat) in enumerate(sorted(table.idle)):
        if not 1 <= step <= table.steps_revealed or not 0 <= seat < players:
            _fail(InconsistentStateError, f"idle entry {[step, seat]} is not a revealed step and seat", *parts, "idle")
    expected = add_on if table.emperor_card is not None else None
    if table.add_on is not expected:
        _fail(
            InconsistentStateError,
            f"the add-on card under the emperor card is {expected.name if expected else 'none'} in a "
            f"{players}-player game{'' if table.emperor_card is not None else ' without an emperor card'} "
            "(rule 2.2, ruling J)",
            *parts, "add_on",
        )  # fmt: skip


def _check_complete_table(table: WeekTable, players: int, *parts: str | int) -> None:
    """A table with every play of its revealed steps (before weekly scoring took anything off it).

    Each seat reveals exactly one card or plays nothing at each step (rule 4.2, ruling H); one traitor play
    per seat and week (rule 4.4, ruling G), none without an emperor card (rule 4.5).
    """
    entries: dict[tuple[int, int], int] = {}
    traitor = [0] * players
    for index, play in enumerate(table.plays):
        entries[play.step, play.seat] = entries.get((play.step, play.seat), 0) + 1
        if play.side is Side.EMPEROR:
            if table.emperor_card is None:
                _fail(
                    InconsistentStateError,
                    "a traitor card in a week without an emperor card (rule 4.5)",
                    *parts, "plays", index, "side",
                )  # fmt: skip
            traitor[play.seat] += 1
        for r in play.reinforcements:
            entries[r.step, r.seat] = entries.get((r.step, r.seat), 0) + 1
            if play.side is Side.EMPEROR:
                traitor[r.seat] += 1
    for step, seat in table.idle:
        entries[step, seat] = entries.get((step, seat), 0) + 1
    for step in range(1, table.steps_revealed + 1):
        for seat in range(players):
            count = entries.get((step, seat), 0)
            if count != 1:
                _fail(
                    InconsistentStateError,
                    f"seat {seat} has {count} cards and idle entries at step {step}; a seat reveals one card "
                    "or plays nothing at each step (rule 4.2, ruling H)",
                    *parts, "plays" if count > 1 else "idle",
                )  # fmt: skip
    for seat, count in enumerate(traitor):
        if count > 1:
            _fail(
                InconsistentStateError,
                f"seat {seat} made {count} traitor plays in one week; one at most (rule 4.4, ruling G)",
                *parts, "plays",
            )  # fmt: skip


def _count(kind: str, found: list[tuple[Any, tuple[str | int, ...]]], everything: Sequence[Any]) -> None:
    """Raise :class:`ConservationError` unless each of ``everything`` occurs exactly once in ``found``."""
    seen: dict[Any, tuple[str | int, ...]] = {}
    for card, where in found:
        if card in seen:
            label = card.id if hasattr(card, "id") else card.faction.name
            raise ConservationError(
                f"{kind} {label} is also at {_path(seen[card]) or '(document)'}: a card appears twice",
                path=_path(where),
            )
        seen[card] = where
    missing = [c for c in everything if c not in seen]
    if missing:
        labels = ", ".join(str(c.id if hasattr(c, "id") else c.faction.name) for c in missing)
        raise ConservationError(f"{kind}s missing from the game: {labels}")


def _check_conservation(state: GameState) -> None:
    hand: list[tuple[Any, tuple[str | int, ...]]] = []
    hand += [(c, ("draw_pile", i)) for i, c in enumerate(state.draw_pile)]
    hand += [(c, ("discard_pile", i)) for i, c in enumerate(state.discard_pile)]
    for seat, cards in enumerate(state.hands):
        hand += [(c, ("hands", seat, i)) for i, c in enumerate(cards)]
    emperor: list[tuple[Any, tuple[str | int, ...]]] = []
    revolution: list[tuple[Any, tuple[str | int, ...]]] = []
    emperor += [(c, ("emperor_pile", i)) for i, c in enumerate(state.emperor_pile)]
    emperor += [(c, ("emperor_reserve", i)) for i, c in enumerate(state.emperor_reserve)]
    revolution += [(c, ("revolution_pile", i)) for i, c in enumerate(state.revolution_pile)]
    revolution += [(c, ("revolution_reserve", i)) for i, c in enumerate(state.revolution_reserve)]
    if state.table is not None:
        for i, play in enumerate(state.table.plays):
            hand.append((play.card, ("table", "plays", i, "card")))
            hand += [
                (r.card, ("table", "plays", i, "reinforcements", j, "card")) for j, r in enumerate(play.reinforcements)
            ]
        revolution.append((state.table.revolution_card, ("table", "revolution_card")))
        if state.table.emperor_card is not None:
            emperor.append((state.table.emperor_card, ("table", "emperor_card")))
    track = state.score_track
    hand += [(s.card, ("score_track", "faction_cards", i, "card")) for i, s in enumerate(track.faction_cards)]
    emperor += [(s.card, ("score_track", "emperor_cards", i, "card")) for i, s in enumerate(track.emperor_cards)]
    _count("hand card", hand, HAND_CARDS)
    _count("emperor card", emperor, EMPEROR_CARDS)
    _count("revolution card", revolution, REVOLUTION_CARDS)


_DRAFT_PHASES = frozenset({Phase.DRAFT_PASS, Phase.DRAFT_DISCARD})
_TABLE_PHASES = frozenset({*PLAY_PHASES, Phase.WEEK_SCORING, Phase.PLACEMENT, Phase.REORGANIZE})
_NO_TABLE_PHASES = frozenset({Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.CHOOSE_SUPPORT})
#: Phases whose week has not been scored yet: the table holds every play of the revealed steps.
_OPEN_WEEK_PHASES = frozenset({*PLAY_PHASES, Phase.WEEK_SCORING})
#: Phases in which no seat holds a temporary support card: before it is chosen, and once the last one is retired.
_NO_SUPPORT_PHASES = frozenset({*_NO_TABLE_PHASES, Phase.GAME_OVER})
#: Shuffles made by the deal (victor cards, hand cards, revolution and emperor piles) and by each month reset.
_DEAL_SHUFFLES: Final = 4
_MONTH_SHUFFLES: Final = 2


def _weeks_finished(state: GameState) -> int:
    """The weeks scored so far, from the phase, month and week (one history record each)."""
    phase = state.phase
    before = WEEKS * (state.month - 1)
    if phase in _DRAFT_PHASES:
        return 0
    if phase is Phase.CHOOSE_SUPPORT:
        return before
    if phase in _OPEN_WEEK_PHASES:
        return before + state.week - 1
    return before + state.week  # placement, re-organize, month scoring, game over


def _emperor_pile_size(state: GameState, month: int) -> tuple[int, int]:
    """``(cards, unscored)``: the emperor pile made at the start of ``month``, min(4, unscored), and the
    unscored emperor cards it was made from (rule 3.3, ruling J). The history must be checked first."""
    scored = sum(1 for r in state.history if r.month < month and r.score.emperor_scored)
    unscored = len(EMPEROR_CARDS) - scored
    return min(WEEKS, unscored), unscored


def _check_emperor_revealed(state: GameState, table: WeekTable, month: int, week: int, *parts: str | int) -> None:
    """A week's table has an emperor card exactly when the month's pile still had one at its start (ruling J)."""
    pile, unscored = _emperor_pile_size(state, month)
    if (table.emperor_card is not None) != (pile >= week):
        has = "an emperor card" if table.emperor_card is not None else "no emperor card"
        _fail(
            InconsistentStateError,
            f"week {week} of month {month} has {has}, but the month's emperor pile held {pile} of the {unscored} "
            "unscored emperor cards, one revealed per week (rule 3.3, ruling J)",
            *parts, "emperor_card",
        )  # fmt: skip


def check_state(state: GameState) -> None:
    """Raise :class:`InconsistentStateError` unless ``state`` is a moment that some game can reach (spec 9.3).

    The engine's functions trust the states they are given and check only the actions. States from
    :func:`~darkempire.engine.deal` and the transitions are always consistent, and :func:`load_state` runs this
    check on every state it loads. A state built or changed by hand (``attrs.evolve(state, hands=...)``, a test
    fixture, a puzzle) is the caller's responsibility: on an inconsistent one the engine may answer wrongly,
    raise untyped errors, or take exponential time (a seat holding ``n`` cards at re-organize has
    ``2 ** n`` discard choices). Call this function on such a state before giving it to the engine.

    What is checked, against the rules:

    * types: every field holds values of its declared type: the game's own cards, enumeration members,
      integers that are not booleans, tuples and frozensets;
    * one entry per seat in every per-seat tuple; months 1-3, weeks 0-4; distinct victor cards (rule 2.3);
      the seed and the number of shuffles made (rule 9.3);
    * card conservation: each of the 75 hand cards, 8 emperor cards and 5 revolution cards exactly once;
    * the calendar: the draft in month 1 week 0 (rules 2.5, 2.6), week 0 only there and when choosing
      support (rule 3.2), weeks 1-4 during a week, no re-organize after the last week (ruling O);
    * the table: present exactly during a week, ``steps_revealed`` fitting the phase, one card or nothing
      per seat and revealed step (rule 4.2, ruling H), one traitor play per seat (rule 4.4), none without an
      emperor card (rule 4.5), the add-on by player count under an emperor card only (rule 2.2, ruling J);
      after weekly scoring, the scored table less the placed cards and the scored emperor card;
    * the finished weeks and months: one record per finished week in order, each week's score the scoring
      of its table, placements that follow the scoring (ruling E), the score track, tokens, month scores,
      support cards used (rule 3.2) and the verdict that follow from them;
    * pile sizes: 4 - (weeks started) revolution cards (rule 3.3), min(4, unscored) - (weeks started)
      emperor cards (ruling J); the draft's empty discard pile;
    * hand sizes: 9 during the draft (rule 2.4), 7 after it (rule 2.6), and at most 7 at a week's start, less
      the cards each seat played this week; fewer than 7 only when the draw and discard piles ran out
      (rule 6.4, ruling K);
    * choices: the state of a decision phase awaits some seat (a step whose every choosing seat has chosen
      would have resolved, rules 9.2, H, N), and each pending choice is a legal action.

    :param state: the state to check; it is not changed.
    :raises InconsistentStateError: at the first problem found, with its ``path`` in the state's JSON form
        (e.g. ``"hands[0]"``); :class:`ConservationError` for a card missing or appearing twice.
    """
    try:
        _check_types(state, GameState, ())
        _check_state(state)
    except InconsistentStateError:
        raise
    except SerializationError as error:  # a value the JSON form could not even hold
        raise InconsistentStateError(error.message, path=error.path) from None


def _check_state(state: GameState) -> None:
    n = state.players
    if not 3 <= n <= 5:
        _fail(InvalidValueError, f"the game is for 3 to 5 players, not {n} (rule 2.1)", "config", "players")
    _check_seat_tuples(
        n,
        {
            "hands": state.hands,
            "victors": state.victors,
            "support": state.support,
            "support_used": state.support_used,
            "month_tokens": state.month_tokens,
            "banked_tokens": state.banked_tokens,
            "pending": state.pending,
        },
    )
    if not 1 <= state.month <= MONTHS:
        _fail(InvalidValueError, f"month {state.month} is not 1-3", "month")
    if not 0 <= state.week <= WEEKS:
        _fail(InvalidValueError, f"week {state.week} is not 0-4", "week")
    if len(set(state.victors)) != n:
        _fail(InconsistentStateError, "two seats hold the same victor card (rule 2.3)", "victors")
    _check_non_negative(state.month_tokens, "month_tokens")
    _check_non_negative(state.banked_tokens, "banked_tokens")
    if not -engine.SEED_LIMIT < state.chance.seed < engine.SEED_LIMIT:
        _fail(InvalidValueError, "a seed is an integer of magnitude below 2**64 (rule 9.3)", "chance", "seed")
    if state.chance.draws < 0:
        _fail(InvalidValueError, "draws is never negative", "chance", "draws")
    for seat, cards in enumerate(state.hands):
        if list(cards) != sorted(cards, key=lambda c: c.id):
            _fail(InconsistentStateError, "a hand is kept sorted by card id", "hands", seat)
    _check_conservation(state)
    phase = state.phase
    if phase in _TABLE_PHASES and state.table is None:
        _fail(InconsistentStateError, f"the {phase.value} phase needs this week's table", "table")
    if phase in _NO_TABLE_PHASES and state.table is not None:
        _fail(InconsistentStateError, f"there is no table in the {phase.value} phase", "table")
    if phase is Phase.GAME_OVER and state.table is None:
        _fail(InconsistentStateError, "the game ends with the last week's table (ruling O)", "table")
    if phase is Phase.MONTH_SCORING and (state.table is not None) != (state.month == MONTHS):
        _fail(
            InconsistentStateError,
            "monthly scoring follows re-organize, which clears the table, except after the game's last week "
            "(ruling O)",
            "table",
        )
    if state.table is not None:
        _check_table(state.table, n, "table", add_on=state.config.add_on)
        revealed = phase.step - 1 if phase in PLAY_PHASES else 3
        if state.table.steps_revealed != revealed:
            _fail(
                InconsistentStateError,
                f"{state.table.steps_revealed} steps revealed in the {phase.value} phase, not {revealed}",
                "table",
                "steps_revealed",
            )
    if phase in _TABLE_PHASES | {Phase.MONTH_SCORING} and None in state.support:
        _fail(InconsistentStateError, f"every seat has chosen its support in the {phase.value} phase", "support")
    for seat, (support, used) in enumerate(zip(state.support, state.support_used, strict=True)):
        if support is not None and support in used:
            _fail(InconsistentStateError, "a support card is used once per game (rule 3.2)", "support", seat)
        if len(used) != len(state.month_scores):
            _fail(InconsistentStateError, "one support card is retired per month scored", "support_used", seat)
    if (phase is Phase.GAME_OVER) != (state.verdict is not None):
        _fail(InconsistentStateError, "a verdict exactly when the game is over", "verdict")
    if phase in _NO_SUPPORT_PHASES and any(s is not None for s in state.support):
        seat = next(s for s, f in enumerate(state.support) if f is not None)
        _fail(
            InconsistentStateError,
            f"no support card is on the table in the {phase.value} phase (rules 3.2, 7.3)",
            "support",
            seat,
        )
    _check_calendar(state)
    _check_history(state)
    _check_week_table(state)
    _check_piles(state)
    _check_hands(state)
    _check_awaited(state)
    _check_pending(state)


def _check_calendar(state: GameState) -> None:
    """The month and week that the phase allows (rules 2.5, 2.6, 3.1, 3.2, ruling O), and the shuffles made by
    then."""
    phase, month, week = state.phase, state.month, state.week
    if phase in _DRAFT_PHASES:
        if month != 1:
            _fail(InconsistentStateError, f"the draft is in month 1, not {month} (rules 2.5, 2.6)", "month")
        if week != 0:
            _fail(InconsistentStateError, f"the draft comes before week 1, not in week {week}", "week")
    elif phase is Phase.CHOOSE_SUPPORT:
        if week != 0:
            _fail(InconsistentStateError, f"support is chosen before the month's first week, not in week {week} "
                  "(rule 3.2)", "week")  # fmt: skip
    elif week == 0:
        _fail(InconsistentStateError, f"week 0 is before the month's first week, not in the {phase.value} phase",
              "week")  # fmt: skip
    elif phase is Phase.MONTH_SCORING and week != WEEKS:
        _fail(InconsistentStateError, f"monthly scoring follows week 4, not week {week} (rule 7.1)", "week")
    elif phase is Phase.GAME_OVER and (month, week) != (MONTHS, WEEKS):
        _fail(InconsistentStateError, "the game ends after week 4 of month 3 (rule 3.1)",
              "month" if month != MONTHS else "week")  # fmt: skip
    elif phase is Phase.REORGANIZE and (month, week) == (MONTHS, WEEKS):
        _fail(InconsistentStateError, "there is no re-organize after the game's last week (ruling O)", "phase")
    shuffles = _DEAL_SHUFFLES + _MONTH_SHUFFLES * (state.month - 1)
    if state.chance.draws < shuffles:
        _fail(
            InconsistentStateError,
            f"{state.chance.draws} shuffles by month {state.month}: the deal makes {_DEAL_SHUFFLES} and each new "
            f"month {_MONTH_SHUFFLES} more (rules 2.3, 2.4, 3.3)",
            "chance", "draws",
        )  # fmt: skip


def _check_history(state: GameState) -> None:
    """The finished weeks, and the score track, tokens, month scores and verdict that follow from them."""
    n = state.players
    add_on = state.config.add_on
    finished = _weeks_finished(state)
    if len(state.history) != finished:
        _fail(
            InconsistentStateError,
            f"{len(state.history)} finished weeks, but the {state.phase.value} phase of month {state.month}, "
            f"week {state.week} follows {finished}",
            "history",
        )
    last_open = state.phase is Phase.PLACEMENT  # the last week's cards are being placed now
    placed: list[ScoredCard] = []
    emperor: list[ScoredEmperorCard] = []
    for index, record in enumerate(state.history):
        month, week = divmod(index, WEEKS)
        if (record.month, record.week) != (month + 1, week + 1):
            _fail(InconsistentStateError, f"finished week {index} is week {week + 1} of month {month + 1}",
                  "history", index, "month" if record.month != month + 1 else "week")  # fmt: skip
        _check_table(record.table, n, "history", index, "table", add_on=add_on)
        if record.table.steps_revealed != 3:
            _fail(InconsistentStateError, "a finished week revealed its 3 steps", "history", index, "table",
                  "steps_revealed")  # fmt: skip
        _check_complete_table(record.table, n, "history", index, "table")
        _check_emperor_revealed(state, record.table, record.month, record.week, "history", index, "table")
        if record.score != score_table(record.table):
            _fail(InconsistentStateError, "the week's score is not the scoring of its table", "history", index, "score")
        if last_open and index == len(state.history) - 1:
            if record.placed:
                _fail(InconsistentStateError, "no card is placed before placement resolves", "history", index,
                      "placed")  # fmt: skip
        else:
            _check_placed(record, n, "history", index, "placed")
        placed += record.placed
        if record.score.emperor_scored and record.table.emperor_card is not None:
            emperor.append(ScoredEmperorCard(record.table.emperor_card, record.month, record.week))
    if list(state.score_track.faction_cards) != placed:
        _fail(
            InconsistentStateError, "the score track's faction cards are not the ones the weeks placed", "score_track"
        )
    if list(state.score_track.emperor_cards) != emperor:
        _fail(
            InconsistentStateError, "the score track's emperor cards are not the ones the weeks scored", "score_track"
        )
    if state.week_score is not None and (not state.history or state.week_score != state.history[-1].score):
        _fail(InconsistentStateError, "the week score is the last finished week's", "week_score")
    scored_week = state.table is not None and state.phase not in _OPEN_WEEK_PHASES
    if scored_week and state.week_score is None:
        _fail(InconsistentStateError, f"the {state.phase.value} phase follows weekly scoring", "week_score")
    if not scored_week and state.week_score is not None:
        _fail(InconsistentStateError, f"no week has been scored yet in the {state.phase.value} phase", "week_score")
    month_tokens = [0] * n
    banked = [0] * n
    for record in state.history:
        target = banked if record.month <= len(state.month_scores) else month_tokens
        for seat, tokens in enumerate(record.score.tokens):
            target[seat] += tokens
    for score in state.month_scores:
        for seat, bonus in enumerate(score.bonus):
            if seat < n:
                banked[seat] += bonus
    _check_month_scores(state)
    if tuple(month_tokens) != state.month_tokens:
        _fail(InconsistentStateError, "month tokens are the tokens of this month's weeks", "month_tokens")
    if tuple(banked) != state.banked_tokens:
        _fail(InconsistentStateError, "banked tokens are earlier months' tokens and bonuses", "banked_tokens")
    if state.verdict is not None and state.verdict != engine.judge_winner(state):
        _fail(InconsistentStateError, "the verdict is not the judgement of the final score track (rules 8.1-8.5)",
              "verdict")  # fmt: skip


def _check_placed(record: WeekRecord, players: int, *parts: str | int) -> None:
    """The cards a finished week placed: one per placement due, from its candidates, in seat order and by id
    within a seat (rules 5.5, 5.6, ruling E)."""
    dues: dict[tuple[int, Faction], PlacementDue] = {(d.seat, d.faction): d for d in record.score.placements}
    if list(record.placed) != sorted(record.placed, key=lambda s: (s.seat, s.card.id)):
        _fail(InconsistentStateError, "placed cards are listed by seat, then by card id", *parts)
    taken: set[tuple[int, Faction]] = set()
    for index, scored in enumerate(record.placed):
        _check_seat(scored.seat, players, *parts, index, "seat")
        if (scored.month, scored.week) != (record.month, record.week):
            _fail(InconsistentStateError, f"a card placed in week {record.week} of month {record.month}",
                  *parts, index)  # fmt: skip
        key = (scored.seat, scored.card.faction) if scored.card.faction is not None else None
        due = dues.get(key) if key is not None else None
        if key is None or due is None or key in taken or scored.card not in due.candidates:
            _fail(
                InconsistentStateError,
                f"seat {scored.seat} may not place hand card {scored.card.id}: a seat places one of its "
                "revolution-side cards of each faction the scoring lets it place (ruling E)",
                *parts, index, "card",
            )  # fmt: skip
        taken.add(key)
    if len(taken) != len(dues):
        _fail(InconsistentStateError, f"{len(dues) - len(taken)} placements due were not made (rule 5.5)", *parts)


def _check_month_scores(state: GameState) -> None:
    """One month score per finished month, each the scoring of its month; the support cards they reveal are
    the ones used (rules 3.2, 7.1-7.3)."""
    n = state.players
    scored = MONTHS if state.phase is Phase.GAME_OVER else state.month - 1
    if len(state.month_scores) != scored:
        _fail(InconsistentStateError, f"{len(state.month_scores)} months scored in month {state.month}, not {scored}",
              "month_scores")  # fmt: skip
    for index, score in enumerate(state.month_scores):
        month = index + 1
        if len(score.support) != n:
            _fail(InconsistentStateError, f"{len(score.support)} entries for {n} seats", "month_scores", index,
                  "support")  # fmt: skip
        tokens = [0] * n
        for record in state.history:
            if record.month == month:
                tokens = [t + w for t, w in zip(tokens, record.score.tokens, strict=True)]
        expected = score_month_tally(state.score_track.placed_in_month(month), tokens, score.support, month=month)
        if score != expected:
            _fail(InconsistentStateError, f"not the scoring of month {month} (rules 7.1, 7.2)", "month_scores", index)
    for seat, used in enumerate(state.support_used):
        if used != frozenset(score.support[seat] for score in state.month_scores):
            _fail(InconsistentStateError, "the support cards used are the ones the month scores revealed (rule 7.3)",
                  "support_used", seat)  # fmt: skip


def _week_start(state: GameState) -> tuple[WeekTable | None, int]:
    """``(table, freed)``: this week's table with every play (``None`` outside a week or after re-organize), and
    how many reinforcement cards its placement freed to the discard pile."""
    if state.table is None:
        return None, 0
    if state.phase in _OPEN_WEEK_PHASES:
        return state.table, 0
    record = state.history[-1]
    placed = {s.card for s in record.placed}
    freed = sum(len(p.reinforcements) for p in record.table.plays if p.card in placed)
    return record.table, freed


def _check_week_table(state: GameState) -> None:
    """This week's table: complete while the week is open, and after weekly scoring the scored table less
    the placed faction cards and the scored emperor card (rules 5.5, 5.7, ruling S)."""
    table = state.table
    if table is None:
        return
    if state.phase in _OPEN_WEEK_PHASES:
        _check_complete_table(table, state.players, "table")
        _check_emperor_revealed(state, table, state.month, state.week, "table")
        return
    record = state.history[-1]
    placed = {s.card for s in record.placed}
    emperor_card = None if record.score.emperor_scored else record.table.emperor_card
    expected = {
        "revolution_card": record.table.revolution_card,
        "emperor_card": emperor_card,
        "add_on": record.table.add_on if emperor_card is not None else None,
        "plays": tuple(p for p in record.table.plays if p.card not in placed),
        "idle": record.table.idle,
    }
    for name, value in expected.items():
        if getattr(table, name) != value:
            _fail(
                InconsistentStateError,
                "after weekly scoring the table is the scored week's, less the cards placed to the score track "
                "and the emperor card scored (rules 5.5, 5.7, ruling S)",
                "table", name,
            )  # fmt: skip


def _check_piles(state: GameState) -> None:
    """Face-down revolution and emperor cards: the month's piles less one card per week started (rules 3.3, 4.1)."""
    revolution = WEEKS - state.week
    if len(state.revolution_pile) != revolution:
        _fail(
            InconsistentStateError,
            f"{len(state.revolution_pile)} face-down revolution cards in week {state.week}, not {revolution}: "
            "a month's pile holds 4 and each week reveals one (rules 3.3, 4.1)",
            "revolution_pile",
        )
    pile, unscored = _emperor_pile_size(state, state.month)
    emperor = max(0, pile - state.week)
    if len(state.emperor_pile) != emperor:
        _fail(
            InconsistentStateError,
            f"{len(state.emperor_pile)} face-down emperor cards in week {state.week}, not {emperor}: the month's "
            f"pile held {pile} of the {unscored} unscored emperor cards and each week reveals one "
            "(rule 3.3, ruling J)",
            "emperor_pile",
        )


def _check_hands(state: GameState) -> None:
    """Hand sizes: 9 during the draft, 7 after it, at most 7 at a week's start less the cards played since
    (rules 2.4-2.6, 4.2, 6.4, ruling K)."""
    n = state.players
    if state.phase in _DRAFT_PHASES:
        for seat, hand in enumerate(state.hands):
            if len(hand) != DEAL_SIZE:
                _fail(InconsistentStateError, f"seat {seat} has a hand of {len(hand)}: every seat holds {DEAL_SIZE} "
                      "cards during the draft (rules 2.4, 2.5)", "hands", seat)  # fmt: skip
        if state.discard_pile:
            _fail(InconsistentStateError, "no card is discarded before the draft discard resolves (rule 2.6)",
                  "discard_pile")  # fmt: skip
        return
    if state.phase is Phase.CHOOSE_SUPPORT and state.month == 1:
        for seat, hand in enumerate(state.hands):
            if len(hand) != HAND_SIZE:
                _fail(InconsistentStateError, f"seat {seat} has a hand of {len(hand)}: every seat keeps {HAND_SIZE} "
                      "cards after the draft (rule 2.6)", "hands", seat)  # fmt: skip
        if len(state.discard_pile) != 2 * n:
            _fail(InconsistentStateError, f"{len(state.discard_pile)} discarded cards: the draft discards 2 per "
                  "seat (rule 2.6)", "discard_pile")  # fmt: skip
        return
    table, freed = _week_start(state)
    played = [0] * n
    if table is not None:
        for play in table.plays:
            played[play.seat] += 1
            for r in play.reinforcements:
                played[r.seat] += 1
    short = None
    for seat, hand in enumerate(state.hands):
        start = len(hand) + played[seat]
        if start > HAND_SIZE:
            since = f" and played {played[seat]} this week" if table is not None else ""
            _fail(
                InconsistentStateError,
                f"seat {seat} has a hand of {len(hand)}{since}: a hand holds at most {HAND_SIZE} cards after the "
                "draft and after each re-organize (rules 2.6, 6.4)",
                "hands", seat,
            )  # fmt: skip
        if start < HAND_SIZE and short is None:
            short = seat
    if short is not None and (state.draw_pile or len(state.discard_pile) != freed):
        _fail(
            InconsistentStateError,
            f"seat {short} was refilled to {len(state.hands[short]) + played[short]} cards, fewer than {HAND_SIZE}, "
            "though the draw and discard piles had cards (rule 6.4, ruling K)",
            "hands", short,
        )  # fmt: skip


def _check_awaited(state: GameState) -> None:
    """A decision phase awaits somebody: otherwise the engine would have resolved the step or moved on."""
    if not state.phase.is_decision or engine.awaited_seats(state):
        return
    if any(p is not None for p in state.pending):
        _fail(InconsistentStateError, "every seat that chooses in this step has chosen, so the step would have "
              "resolved (rule 9.2)", "pending")  # fmt: skip
    _fail(InconsistentStateError, f"no seat has a choice to make in the {state.phase.value} phase, so the game "
          "would have moved on (rulings H, N)", "phase")  # fmt: skip


def _check_pending(state: GameState) -> None:
    cleared = attrs.evolve(state, pending=(None,) * state.players)
    for seat, action in enumerate(state.pending):
        if action is None:
            continue
        try:
            legal = action in engine.legal_actions(cleared, seat)
        except (AssertionError, LookupError, TypeError, ValueError):  # the engine trusts states; this one may lie
            legal = False
        if not legal:
            _fail(InconsistentStateError, f"seat {seat}'s pending choice is not a legal choice now", "pending", seat)


# --------------------------------------------------------------------------- type checks of values built by hand


def _type_name(tp: Any) -> str:
    return str(getattr(tp, "__name__", tp))


def _is_member(value: Any, tp: Any) -> bool:
    """Whether ``value`` belongs to the union member ``tp`` at first sight (its items are checked after)."""
    return type(value) is (typing.get_origin(tp) or tp)


_REAL_CARDS: Final[dict[type, Sequence[Any]]] = {HandCard: HAND_CARDS, EmperorCard: EMPEROR_CARDS}


def _is_real_card(value: Any, tp: type) -> bool:
    if type(value) is not tp:
        return False
    if isinstance(value, RevolutionCard):
        return type(value.faction) is Faction and bool(value == REVOLUTION_CARDS[value.faction])
    cards = _REAL_CARDS[tp]
    card_id: Any = getattr(value, "id", None)
    return type(card_id) is int and 0 <= card_id < len(cards) and bool(value == cards[card_id])


def _check_types(value: Any, tp: Any, parts: tuple[str | int, ...]) -> None:
    """Raise :class:`WrongTypeError` (or :class:`InvalidValueError` for a fixed tuple of the wrong length) unless
    ``value`` is of the type ``tp``, as the JSON form can hold it: each field of attrs values, each item."""
    if _is_union(tp):
        members = typing.get_args(tp)
        if value is None:
            if _NONE_TYPE in members:
                return
            _fail(WrongTypeError, "None where a value is required", *parts)
        for member in members:
            if member is not _NONE_TYPE and _is_member(value, member):
                _check_types(value, member, parts)
                return
        names = " or ".join(_type_name(m) for m in members)
        _fail(WrongTypeError, f"{type(value).__name__} {value!r:.40} is not {names}", *parts)
    origin = typing.get_origin(tp)
    if origin is tuple or origin is frozenset:
        if type(value) is not origin:
            _fail(WrongTypeError, f"expected a {origin.__name__}, got {type(value).__name__}", *parts)
        args = typing.get_args(tp)
        if origin is frozenset:
            try:
                items = sorted(value, key=_order_key)  # the order of the JSON array, for the path
            except TypeError:
                items = list(value)
            args = (args[0], Ellipsis)
        else:
            items = list(value)
        if len(args) == 2 and args[1] is Ellipsis:
            for index, item in enumerate(items):
                _check_types(item, args[0], (*parts, index))
            return
        if len(items) != len(args):
            _fail(InvalidValueError, f"expected {len(args)} items, got {len(items)}", *parts)
        for index, (item, arg) in enumerate(zip(items, args, strict=True)):
            _check_types(item, arg, (*parts, index))
        return
    if tp in (HandCard, EmperorCard, RevolutionCard):
        if not _is_real_card(value, tp):
            _fail(WrongTypeError, f"{value!r:.60} is not one of the game's {tp.__name__}s", *parts)
        return
    if tp is int or tp is bool or tp is str:
        if type(value) is not tp:
            _fail(WrongTypeError, f"expected {tp.__name__}, got {type(value).__name__} {value!r:.40}", *parts)
        return
    if isinstance(tp, type) and (issubclass(tp, enum.Enum) or attrs.has(tp)):
        if type(value) is not tp:
            _fail(WrongTypeError, f"expected {tp.__name__}, got {type(value).__name__} {value!r:.40}", *parts)
        if attrs.has(tp):
            for name, field_type in _field_types(tp):
                _check_types(getattr(value, name), field_type, (*parts, name))


def _check_view(view: PlayerView) -> None:
    n = view.players
    if not 3 <= n <= 5:
        _fail(InvalidValueError, f"the game is for 3 to 5 players, not {n} (rule 2.1)", "players")
    _check_seat_tuples(
        n,
        {
            "support_used": view.support_used,
            "hand_sizes": view.hand_sizes,
            "month_tokens": view.month_tokens,
            "banked_tokens": view.banked_tokens,
        },
    )
    if view.seat is None:
        if view.hand or view.victor is not None or view.support is not None or view.pending is not None:
            _fail(InconsistentStateError, "a spectator view holds no seat's secrets", "seat")
    else:
        _check_seat(view.seat, n, "seat")
        if len(view.hand) != view.hand_sizes[view.seat]:
            _fail(InconsistentStateError, "the hand does not have the seat's hand size", "hand")
    if list(view.hand) != sorted(set(view.hand), key=lambda c: c.id):
        _fail(InconsistentStateError, "a hand lists distinct cards sorted by id", "hand")
    for name in ("awaited", "chosen"):
        for seat in sorted(getattr(view, name)):
            _check_seat(seat, n, name)
    if not 1 <= view.month <= MONTHS:
        _fail(InvalidValueError, f"month {view.month} is not 1-3", "month")
    if not 0 <= view.week <= WEEKS:
        _fail(InvalidValueError, f"week {view.week} is not 0-4", "week")
    if view.add_on is not add_on_for(n):
        _fail(InconsistentStateError, f"the add-on card of a {n}-player game is not {view.add_on} (rule 2.2)", "add_on")
    if view.table is not None:
        _check_table(view.table, n, "table", add_on=view.add_on)
    for index, record in enumerate(view.history):
        _check_table(record.table, n, "history", index, "table", add_on=view.add_on)


def _check_prompt(prompt: Prompt) -> None:
    try:
        _check_view(prompt.view)
    except SerializationError as error:
        raise type(error)(error.message, path=_path(["view", *([error.path] if error.path else [])])) from None


def _check_record(record: GameRecord) -> None:
    for index, choice in enumerate(record.choices):
        _check_seat(choice.seat, record.config.players, "choices", index, "seat")
    for index, digest in enumerate(record.digests):
        if not re.fullmatch(r"[0-9a-f]{16}", digest):
            _fail(InvalidValueError, "a digest is 16 lowercase hex digits", "digests", index)
    if record.digests and len(record.digests) != len(record.choices):
        _fail(InconsistentStateError, "one digest per choice, or none", "digests")


def _check_public_record(record: PublicRecord) -> None:
    """Seats in range and nothing hidden; the rules are :func:`~darkempire.public_record.spectator_replay`'s."""
    for index, step in enumerate(record.steps):
        for at, event in enumerate(step.events):
            seat = getattr(event, "seat", None)
            if isinstance(seat, int):
                _check_seat(seat, record.config.players, "steps", index, "events", at, "seat")
    hidden = hidden_information(record)
    if hidden is not None:
        reason = f"a public record shows no hidden information, but {hidden[1]}"
        _fail(InconsistentStateError, reason, "steps", hidden[0])


def _no_check(_: Any) -> None:
    return None


_CHECKS: Final[dict[str, Callable[[Any], None]]] = {
    "game-state": _check_state,
    "player-view": _check_view,
    "prompt": _check_prompt,
    "action": _no_check,
    "event": _no_check,
    "game-record": _check_record,
    "public-record": _check_public_record,
}
