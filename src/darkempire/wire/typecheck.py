"""Type checks of values built by hand: is a value of its declared type, as the JSON form can hold it?

A value loaded from JSON has its declared types by construction; one built in Python (``attrs.evolve``, a test
fixture) may hold anything. :func:`check_types` walks a value against its type: each field of an attrs value,
each item of a tuple or frozenset, the game's own cards, enumeration members, integers that are not booleans.
:func:`~darkempire.validity.check_state` runs it first, and encoding runs it to find where a value the format
cannot carry is.
"""

from __future__ import annotations

import enum
import typing
from collections.abc import Sequence
from typing import Any, Final, NoReturn

import attrs

from darkempire.rules.cards import (
    EMPEROR_CARDS,
    FACTION_CARDS,
    REINFORCEMENT_CARDS,
    REVOLUTION_CARDS,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
    is_hand_card,
)
from darkempire.wire.converter import NONE_TYPE, field_types, is_union, order_key, union_members
from darkempire.wire.wire_errors import InvalidValueError, SerializationError, WrongTypeError, quote
from tablekit.wire import json_path

__all__ = ["check_types"]


def _fail(kind: type[SerializationError], message: str, parts: Sequence[str | int]) -> NoReturn:
    raise kind(message, path=json_path(parts))


def _type_name(tp: Any) -> str:
    return "HandCard" if tp == HandCard else str(getattr(tp, "__name__", tp))


def _is_member(value: Any, tp: Any) -> bool:
    """Whether ``value`` belongs to the union member ``tp`` at first sight (its items are checked after)."""
    if tp == HandCard:
        return is_hand_card(value)
    return type(value) is (typing.get_origin(tp) or tp)


_REAL_CARDS: Final[dict[Any, Sequence[Any]]] = {
    FactionCard: FACTION_CARDS,
    ReinforcementCard: REINFORCEMENT_CARDS,
    EmperorCard: EMPEROR_CARDS,
}


def _is_real_card(value: Any, tp: Any) -> bool:
    if tp == HandCard:
        return _is_real_card(value, FactionCard) or _is_real_card(value, ReinforcementCard)
    if type(value) is not tp:
        return False
    if isinstance(value, RevolutionCard):
        return type(value.faction) is Faction and bool(value == REVOLUTION_CARDS[value.faction])
    card_id: Any = getattr(value, "id", None)
    return type(card_id) is int and value in _REAL_CARDS[tp]


def check_types(value: Any, tp: Any, parts: tuple[str | int, ...] = ()) -> None:
    """Raise :class:`~darkempire.wire.wire_errors.WrongTypeError` (or
    :class:`~darkempire.wire.wire_errors.InvalidValueError` for a fixed tuple of the wrong length) unless
    ``value`` is of the type ``tp``, as the JSON form can hold it: each field of attrs values, each item.

    :param parts: the path of ``value`` in the document, put in front of the error's path.

    >>> from darkempire.rules.cards import HAND_CARDS
    >>> check_types((HAND_CARDS[3], 7), tuple[HandCard, int])
    >>> check_types((HAND_CARDS[3], True), tuple[HandCard, int])
    Traceback (most recent call last):
    ...
    darkempire.wire.wire_errors.WrongTypeError: [1]: expected int, got bool True
    """
    if is_union(tp):
        _check_union(value, tp, parts)
        return
    origin = typing.get_origin(tp)
    if origin is tuple or origin is frozenset:
        _check_collection(value, tp, origin, parts)
        return
    if tp in (HandCard, FactionCard, ReinforcementCard, EmperorCard, RevolutionCard):
        if not _is_real_card(value, tp):
            _fail(WrongTypeError, f"{quote(value)} is not one of the game's {_type_name(tp)}s", parts)
        return
    if tp is int or tp is bool or tp is str:
        if type(value) is not tp:
            _fail(WrongTypeError, f"expected {tp.__name__}, got {type(value).__name__} {quote(value)}", parts)
        return
    if isinstance(tp, type) and (issubclass(tp, enum.Enum) or attrs.has(tp)):
        if type(value) is not tp:
            _fail(WrongTypeError, f"expected {tp.__name__}, got {type(value).__name__} {quote(value)}", parts)
        if attrs.has(tp):
            for name, field_type in field_types(tp):
                check_types(getattr(value, name), field_type, (*parts, name))


def _check_union(value: Any, tp: Any, parts: tuple[str | int, ...]) -> None:
    members = union_members(tp)
    if value is None:
        if NONE_TYPE in members:
            return
        _fail(WrongTypeError, "None where a value is required", parts)
    for member in members:
        if member is not NONE_TYPE and _is_member(value, member):
            check_types(value, member, parts)
            return
    names = " or ".join(_type_name(m) for m in members)
    _fail(WrongTypeError, f"{type(value).__name__} {quote(value)} is not {names}", parts)


def _check_collection(value: Any, tp: Any, origin: Any, parts: tuple[str | int, ...]) -> None:
    if type(value) is not origin:
        _fail(WrongTypeError, f"expected a {origin.__name__}, got {type(value).__name__}", parts)
    args = typing.get_args(tp)
    if origin is frozenset:
        try:
            items = sorted(value, key=order_key)  # the order of the JSON array, for the path
        except TypeError:
            items = list(value)
        args = (args[0], Ellipsis)
    else:
        items = list(value)
    if len(args) == 2 and args[1] is Ellipsis:
        for index, item in enumerate(items):
            check_types(item, args[0], (*parts, index))
        return
    if len(items) != len(args):
        _fail(InvalidValueError, f"expected {len(args)} items, got {len(items)}", parts)
    for index, (item, arg) in enumerate(zip(items, args, strict=True)):
        check_types(item, arg, (*parts, index))
