"""The longest each array of a message may be, and the check that refuses a longer one before reading it.

The rules bound every array of the wire format: a pile holds at most the 75 hand cards, a hand 9, a game has
5 seats and 12 weeks, ... :data:`ARRAY_LIMITS` gives each array field its limits, and :func:`check_sizes`
checks a parsed document against them before any item of an array is structured, so that refusing an
oversized document costs little (:class:`TooManyItemsError`). The JSON Schemas state the same limits as
``maxItems`` (:mod:`darkempire.schema`).
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, TypeAlias

import attrs

from darkempire.rules.actions import DiscardCards, PassCards, PlaceCards, Reorganize
from darkempire.rules.cards import (
    ADD_ON_FOR_PLAYERS,
    AddOnCard,
    EMPEROR_CARDS,
    FACTION_CARDS,
    HAND_CARDS,
    REVOLUTION_CARDS,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
)
from darkempire.rules.events import (
    EVENT_TYPES,
    CardsPassed,
    DraftDiscarded,
    Draw,
    HandDealt,
    HandRefilled,
    Reorganized,
    RevealedPlay,
    StrengthsRevealed,
)
from darkempire.public_record import PublicRecord, PublicStep
from darkempire.records import Choice, GameRecord
from darkempire.rules.scoring import AwardReason, MonthScore, PlacementDue, TokenAward, WeekScore
from darkempire.rules.state import DEAL_SIZE, HAND_SIZE, MONTHS, STEPS, WEEKS, GameConfig, GameState, ScoredCard
from darkempire.rules.state import ScoredEmperorCard, WeekRecord
from darkempire.rules.table import Play, Reinforcement, WeekTable
from darkempire.validity import InconsistentStateError
from darkempire.rules.views import PlayerView
from darkempire.wire.card_table import CardTable
from darkempire.wire.converter import KIND_KEY, KINDS, NONE_TYPE, field_types, is_union, optional_member
from darkempire.wire.message_types import MESSAGE_TYPES
from darkempire.wire.prompts import Prompt
from darkempire.wire.wire_errors import Fault, InvalidValueError

__all__ = ["ARRAY_LIMITS", "ArrayLimit", "TooManyItemsError", "check_sizes"]


class TooManyItemsError(InvalidValueError, InconsistentStateError):
    """An array longer than the rules let it be anywhere in a game: a pile of more than the 75 hand cards, a
    hand of more than 9, more than 5 seats, 12 weeks, ... (see :data:`ARRAY_LIMITS`). It is found before the
    array's items are looked at, so an oversized document costs little to refuse."""


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
    Draw: (
        _SEATS * (1 + DEAL_SIZE),
        f"the deal makes the most draws of any event: a victor card and {DEAL_SIZE} hand cards per seat, "
        f"{_SEATS * (1 + DEAL_SIZE)} (rules 2.3, 2.4)",
    ),
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
    (Prompt, "labels"): ((_LEGAL_ACTIONS, f"one label per legal action, and a seat has at most {_LEGAL_ACTIONS}"),),
    (CardTable, "factions"): (_PER_FACTION,),
    (CardTable, "hand_cards"): ((len(HAND_CARDS), f"there are {len(HAND_CARDS)} hand cards (rule 1.2)"),),
    (CardTable, "emperor_cards"): ((len(EMPEROR_CARDS), f"there are {len(EMPEROR_CARDS)} emperor cards (rule 1.3)"),),
    (CardTable, "add_on_cards"): ((len(AddOnCard), f"there are {len(AddOnCard)} add-on cards (rule 1.3)"),),
    (CardTable, "revolution_cards"): (_PER_FACTION,),
    (CardTable, "victor_cards"): (_PER_FACTION,),
    (CardTable, "support_cards"): (_PER_FACTION,),
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


def _is_array_of_any_length(tp: Any) -> bool:
    args = typing.get_args(tp)
    origin = typing.get_origin(tp)
    return origin is frozenset or (origin is tuple and len(args) == 2 and args[1] is Ellipsis)


def _array_items(tp: Any) -> list[Any]:
    """The item type of each nested array of any length in a field of type ``tp``, outermost first."""
    items = []
    tp = optional_member(tp)
    while _is_array_of_any_length(tp):
        tp = optional_member(typing.get_args(tp)[0])
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
    done: set[Any] = {GameConfig, HandCard, FactionCard, ReinforcementCard, EmperorCard, RevolutionCard}  # own hooks
    while todo:
        cls = todo.pop()
        if cls in done:
            continue
        done.add(cls)
        for name, field_type in field_types(cls):
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


#: Checks one parsed JSON value against the array limits; ``Fault`` carries the path of a long array out.
_SizeCheck: TypeAlias = Callable[[Any], None]


def check_sizes(payload: dict[str, Any], tp: Any) -> None:
    """Raise :class:`TooManyItemsError` for the first array in ``payload`` (parsed JSON of type ``tp``) longer
    than its limit. An array's items are looked at only once its length is known to be within the limit, so
    the work is bounded by the largest reachable document; anything not of the shape ``tp`` is left for
    structuring to refuse."""
    check = _size_check(tp, ())
    if check is None:
        return
    try:
        check(payload)
    except Fault as bad:
        raise bad.error() from None


@functools.cache
def _size_check(tp: Any, limits: tuple[ArrayLimit, ...]) -> _SizeCheck | None:
    """The check of a value of type ``tp`` whose arrays have ``limits`` (outermost first), or ``None`` when
    such a value holds no array: made once per type, so that checking a document introspects no types."""
    tp = optional_member(tp)
    if is_union(tp):
        return _tagged_size_check(tp)
    if _is_array_of_any_length(tp):
        return _array_size_check(typing.get_args(tp)[0], limits)
    if not (isinstance(tp, type) and attrs.has(tp)):
        return None
    checks = [(name, _size_check(ft, ARRAY_LIMITS.get((tp, name), ()))) for name, ft in field_types(tp)]
    fields = [(name, check) for name, check in checks if check is not None]
    if not fields:
        return None

    def check_object(value: Any) -> None:
        if isinstance(value, dict):
            for name, check in fields:
                if name in value:
                    try:
                        check(value[name])
                    except Fault as bad:
                        bad.parts.insert(0, name)
                        raise

    return check_object


def _tagged_size_check(tp: Any) -> _SizeCheck | None:
    """The check of an action or event (or ``None``), by its ``"kind"`` tag."""
    checks = {KINDS[m]: _size_check(m, ()) for m in typing.get_args(tp) if m is not NONE_TYPE}
    by_tag = {tag: check for tag, check in checks.items() if check is not None}
    if not by_tag:
        return None

    def check_tagged(value: Any) -> None:
        tag = value.get(KIND_KEY) if isinstance(value, dict) else None
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
            raise Fault(TooManyItemsError, f"{len(value)} items, but {rule}")
        if inner is not None:
            for index, member in enumerate(value):
                try:
                    inner(member)
                except Fault as bad:
                    bad.parts.insert(0, index)
                    raise

    return check_array
