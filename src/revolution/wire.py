"""The wire format of *Revolution!*, ``revolution/1``: JSON forms of the config, state, view, actions, events and
records, each in the kit's envelope (:mod:`tablekit.wire`).

Every message is one JSON object with ``"format": "revolution/1"`` and a ``"type"``, one of
:data:`MESSAGE_TYPES`; the rest is the value's fields::

    {"format": "revolution/1", "type": "action", "kind": "bid", "placements": {"Priest": {"force": 0, ...}}}

:func:`to_json` writes any of them; the loaders (:func:`config_from_json`, :func:`state_from_json`, ...) read
one strictly, with the kit's :func:`~tablekit.wire.load_json` (size limit, no duplicate key, no ``NaN``), and
refuse with a located :class:`~tablekit.wire.WireError` naming the JSON path of the fault: an unknown field
(:class:`UnknownFieldError`), a missing one or a wrong JSON type (the kit's
:class:`~tablekit.wire.MissingFieldError`, :class:`~tablekit.wire.WrongTypeError`), a number or name out of
range (:class:`OutOfRangeError`), and a value the rules could not reach (:class:`InconsistentError`): a state
whose tokens or cubes are not all accounted for, a final score that is not the board's, a view at the Bidding
that carries a bid.

Privacy: a state's JSON is the owner's (a server's). It never holds a pending bid, because the state never does:
the bids behind the screens wait in the kit's collector (:mod:`tablekit.simultaneous`), and a state's ``bids``
are the revealed ones (rule 9.3). A view's JSON is the view's fields and nothing else, so it holds only what its
seat may see; a view document at the Bidding that names any bid is refused.

One table of codecs describes every message; :mod:`revolution.schema` turns the same table into JSON Schemas,
so the two cannot drift apart.

>>> from revolution.rules.bids import Bid
>>> from revolution.rules.tokens import Tokens
>>> text = to_json(Bid({"Priest": Tokens(gold=2)}))
>>> action_from_json(text) == Bid({"Priest": Tokens(gold=2)})
True
"""

from __future__ import annotations

import enum
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar

import attrs

from revolution.rules import events as ev
from revolution.rules.actions import Action, CubeAt, Decline, Replace, Swap
from revolution.rules.bids import Bid
from revolution.rules.data import Board, load_board
from revolution.rules.errors import RevolutionError
from revolution.rules.scoring import final_scores
from revolution.rules.state import FinalScore, Phase, RevolutionConfig, RevolutionState
from revolution.rules.tokens import Token, Tokens
from revolution.rules.views import RevolutionView
from tablekit.errors import KitError
from tablekit.records import Choice, Record
from tablekit.wire import DEFAULT_MAX_BYTES, Format, MissingFieldError, WireError, WrongTypeError, dump_json
from tablekit.wire import load_json, make_envelope, open_envelope, quote

__all__ = [
    "FORMAT",
    "MAX_ARRAY",
    "MAX_COUNT",
    "SEEDS",
    "MAX_NAME",
    "MESSAGE_TYPES",
    "Codec",
    "InconsistentError",
    "OutOfRangeError",
    "RevolutionWireError",
    "UnknownFieldError",
    "action_from_json",
    "codec",
    "config_from_json",
    "event_from_json",
    "from_json",
    "record_from_json",
    "state_from_json",
    "to_document",
    "to_json",
    "view_from_json",
]

T = TypeVar("T")

#: The format of every message: ``"revolution/1"``.
FORMAT: Final = Format("revolution", 1)
#: The largest count (tokens, support, cubes, rounds) a document may hold: far above any real game.
MAX_COUNT: Final = 1_000_000
#: The longest name (of a character, an area, a board) a document may hold.
MAX_NAME: Final = 100
#: The most items of any array but a record's choices (seats, areas, characters, placements).
MAX_ARRAY: Final = 64
#: The most choices a record may hold: a game of a hundred rounds is a few hundred.
MAX_CHOICES: Final = 100_000

Path = tuple[str | int, ...]


class RevolutionWireError(WireError, RevolutionError):
    """A document that is not a valid ``revolution/1`` message (located, as every kit wire error)."""


class UnknownFieldError(RevolutionWireError):
    """An object has a key its message type does not define (a view with a ``"pending"`` bid, say)."""


class OutOfRangeError(RevolutionWireError):
    """A number beyond its bounds, a string too long, an array too long or short, or an unknown name."""


class InconsistentError(RevolutionWireError):
    """Well-formed values that the rules could not reach together: tokens or cubes not accounted for, a
    final score that is not the board's, a bid in a view at the Bidding (rule 9.3)."""


class Codec(Generic[T]):
    """How one type is written as JSON, read back strictly, and described as a JSON Schema.

    The base class is abstract; the concrete codecs are private. :func:`codec` gives the codec of a message type.
    """

    def encode(self, value: T) -> Any:
        """``value`` as JSON-ready data (dicts, lists, str, int, bool, None)."""
        raise NotImplementedError

    def decode(self, data: Any, path: Path) -> T:
        """The value ``data`` (parsed JSON) stands for; faults are located at ``path``.

        :raises WireError: ``data`` is not a valid value of this codec.
        """
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of the data this codec writes and reads."""
        raise NotImplementedError


def _wrong(wanted: str, data: Any, path: Path) -> WrongTypeError:
    return WrongTypeError(f"expected {wanted}, not {quote(data)}", path=path)


class _Int(Codec[int]):
    def __init__(self, minimum: int = 0, maximum: int = MAX_COUNT) -> None:
        self.minimum, self.maximum = minimum, maximum

    def encode(self, value: int) -> Any:
        return value

    def decode(self, data: Any, path: Path) -> int:
        if type(data) is not int:
            raise _wrong("an integer", data, path)
        if not self.minimum <= data <= self.maximum:
            raise OutOfRangeError(f"{quote(data)} is not from {self.minimum} to {self.maximum}", path=path)
        return data

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}


class _Bool(Codec[bool]):
    def encode(self, value: bool) -> Any:
        return value

    def decode(self, data: Any, path: Path) -> bool:
        if type(data) is not bool:
            raise _wrong("true or false", data, path)
        return data

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


class _Str(Codec[str]):
    def __init__(self, const: str | None = None) -> None:
        self.const = const

    def encode(self, value: str) -> Any:
        return value

    def decode(self, data: Any, path: Path) -> str:
        if not isinstance(data, str):
            raise _wrong("a string", data, path)
        if not 0 < len(data) <= MAX_NAME or (self.const is not None and data != self.const):
            wanted = repr(self.const) if self.const is not None else f"a name of 1 to {MAX_NAME} characters"
            raise OutOfRangeError(f"expected {wanted}, not {quote(data)}", path=path)
        return data

    def schema(self) -> dict[str, Any]:
        if self.const is not None:
            return {"const": self.const}
        return {"type": "string", "minLength": 1, "maxLength": MAX_NAME}


E = TypeVar("E", bound=enum.Enum)


class _Enum(Codec[E]):
    def __init__(self, cls: type[E]) -> None:
        self.cls = cls

    def encode(self, value: E) -> Any:
        return value.value

    def decode(self, data: Any, path: Path) -> E:
        for member in self.cls:
            if data == member.value and type(data) is type(member.value):
                return member
        names = ", ".join(repr(member.value) for member in self.cls)
        raise OutOfRangeError(f"{quote(data)} is not one of {names}", path=path)

    def schema(self) -> dict[str, Any]:
        return {"enum": [member.value for member in self.cls]}


class _Optional(Codec[T | None]):
    def __init__(self, inner: Codec[T]) -> None:
        self.inner = inner

    def encode(self, value: T | None) -> Any:
        return None if value is None else self.inner.encode(value)

    def decode(self, data: Any, path: Path) -> T | None:
        return None if data is None else self.inner.decode(data, path)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "null"}, self.inner.schema()]}


class _Array(Codec[tuple[T, ...]]):
    def __init__(self, inner: Codec[T], max_items: int = MAX_ARRAY, *, unique: bool = False) -> None:
        self.inner, self.max_items, self.unique = inner, max_items, unique

    def encode(self, value: tuple[T, ...]) -> Any:
        return [self.inner.encode(item) for item in value]

    def decode(self, data: Any, path: Path) -> tuple[T, ...]:
        if not isinstance(data, list):
            raise _wrong("an array", data, path)
        if len(data) > self.max_items:
            raise OutOfRangeError(f"an array of at most {self.max_items} items, not {len(data)}", path=path)
        items = tuple(self.inner.decode(item, (*path, i)) for i, item in enumerate(data))
        if self.unique and len(set(items)) != len(items):
            raise OutOfRangeError("the items of this array must differ", path=path)
        return items

    def schema(self) -> dict[str, Any]:
        out = {"type": "array", "items": self.inner.schema(), "maxItems": self.max_items}
        return {**out, "uniqueItems": True} if self.unique else out


def _object(data: Any, names: Sequence[str], path: Path) -> dict[str, Any]:
    """``data`` if it is an object with exactly the keys ``names``."""
    if not isinstance(data, dict):
        raise _wrong("an object", data, path)
    unknown = [key for key in data if key not in names]
    if unknown:
        raise UnknownFieldError(f"unknown field {quote(unknown[0])}; expected {', '.join(names)}",
                                path=(*path, unknown[0]))
    missing = [name for name in names if name not in data]
    if missing:
        raise MissingFieldError(f"missing field {missing[0]!r}", path=(*path, missing[0]))
    return data


class _Object(Codec[T]):
    """An object with fixed fields, built by ``build(**fields)`` and taken apart by ``parts``; a refusal of
    ``build`` (a rule's validator) becomes an :class:`InconsistentError` at the object's path."""

    def __init__(self, description: str, fields: Mapping[str, Codec[Any]], build: Callable[..., T],
                 parts: Callable[[T], Mapping[str, Any]]) -> None:
        self.description, self.fields, self.build, self.parts = description, dict(fields), build, parts

    def encode(self, value: T) -> Any:
        parts = self.parts(value)
        return {name: field.encode(parts[name]) for name, field in self.fields.items()}

    def decode(self, data: Any, path: Path) -> T:
        data = _object(data, list(self.fields), path)
        values = {name: field.decode(data[name], (*path, name)) for name, field in self.fields.items()}
        try:
            return self.build(**values)
        except KitError as error:
            raise InconsistentError(str(error), path=path) from None

    def schema(self) -> dict[str, Any]:
        return {"description": self.description, "type": "object", "additionalProperties": False,
                "required": list(self.fields), "properties": {n: f.schema() for n, f in self.fields.items()}}


def _described(cls: type) -> str:
    return (cls.__doc__ or cls.__name__).split("\n\n")[0].replace("\n", " ").strip()


def _attrs_object(cls: type[T], **overrides: Codec[Any]) -> _Object[T]:
    """The codec of an attrs class: one field per attribute, each by its annotation unless overridden."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: overrides.get(f.name) or _by_type(hints[f.name]) for f in attrs.fields(typing.cast(Any, cls))}
    return _Object(_described(cls), fields, cls, lambda value: {name: getattr(value, name) for name in fields})


def _by_type(hint: Any) -> Codec[Any]:
    """The codec of an annotation: the scalars, the game's value types, ``X | None`` and ``tuple[X, ...]``."""
    scalars: dict[Any, Codec[Any]] = {int: _Int(), str: _Str(), bool: _Bool(), Phase: _Enum(Phase)}
    if hint in scalars:
        return scalars[hint]
    # The game's value types by name, looked up when asked: each is defined below, before any type uses it.
    own = {Tokens: "TOKENS", Bid: "BID", CubeAt: "CUBE", FinalScore: "FINAL_SCORE"}
    if hint in own:
        found: Codec[Any] = globals()[own[hint]]
        return found
    args = typing.get_args(hint)
    if isinstance(hint, types.UnionType) and len(args) == 2 and type(None) in args:
        return _Optional(_by_type(next(arg for arg in args if arg is not type(None))))
    if typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _Array(_by_type(args[0]))
    raise TypeError(f"no codec for {hint!r}")  # pragma: no cover - a new field type needs one


#: Tokens: ``{"force": 1, "blackmail": 0, "gold": 3}``.
TOKENS: Final[Codec[Tokens]] = _Object(_described(Tokens), {kind.value: _Int() for kind in Token}, Tokens,
                                       lambda tokens: {kind.value: tokens.count(kind) for kind in Token})


class _BidCodec(Codec[Bid]):
    """A bid as an object: the character's name, then the tokens placed on it."""

    def encode(self, value: Bid) -> Any:
        return {"placements": {name: TOKENS.encode(tokens) for name, tokens in value.placements}}

    def decode(self, data: Any, path: Path) -> Bid:
        placements = _object(data, ["placements"], path)["placements"]
        where = (*path, "placements")
        if not isinstance(placements, dict):
            raise _wrong("an object of character names and tokens", placements, where)
        if len(placements) > MAX_ARRAY:
            raise OutOfRangeError(f"at most {MAX_ARRAY} placements, not {len(placements)}", path=where)
        pairs = [(_Str().decode(name, (*where, name)), TOKENS.decode(tokens, (*where, name)))
                 for name, tokens in placements.items()]
        return Bid(pairs)

    def schema(self) -> dict[str, Any]:
        placements = {"type": "object", "maxProperties": MAX_ARRAY, "additionalProperties": TOKENS.schema(),
                      "propertyNames": _Str().schema()}
        return {"description": _described(Bid), "type": "object", "additionalProperties": False,
                "required": ["placements"], "properties": {"placements": placements}}


#: A bid: ``{"placements": {"Priest": {...tokens...}, ...}}``, characters in any order, empty ones dropped.
BID: Final[Codec[Bid]] = _BidCodec()
#: A cube on the board: ``{"area": "Cathedral", "seat": 2}``.
CUBE: Final[Codec[CubeAt]] = _attrs_object(CubeAt, seat=_Int(0, 3))
#: A seat's final score.
FINAL_SCORE: Final[Codec[FinalScore]] = _attrs_object(FinalScore, seat=_Int(0, 3))


def _raw(description: str, fields: Mapping[str, Codec[Any]]) -> _Object[dict[str, Any]]:
    """An object read as a plain dict (the board's parts, which :func:`~revolution.rules.data.load_board`
    checks)."""
    return _Object(description, fields, lambda **values: values, lambda value: value)


_RAW_TOKENS = _raw("Tokens", {kind.value: _Int() for kind in Token})
_BOARD_SHAPE = _raw("The board (the shape of board.json, rules 1.3, 1.4, 1.6)", {
    "name": _Str(),
    "tokens_in_box": _RAW_TOKENS,
    "starting_tokens": _RAW_TOKENS,
    "cubes_per_player": _Int(),
    "areas": _Array(_raw("An area", {"name": _Str(), "spaces": _Int(1), "bonus": _Int()})),
    "characters": _Array(_raw("A character", {
        "name": _Str(), "immune": _Array(_Str(), 3, unique=True), "support": _Int(), "tokens": _RAW_TOKENS,
        "influence": _Optional(_Str()), "effect": _Optional(_Str()),
    })),
})


def _raw_tokens(tokens: Tokens) -> dict[str, int]:
    return {kind.value: tokens.count(kind) for kind in Token}


def _board_data(board: Board) -> dict[str, Any]:
    """``board`` in the shape of ``board.json``."""
    return {
        "name": board.name, "tokens_in_box": _raw_tokens(board.tokens_in_box),
        "starting_tokens": _raw_tokens(board.starting_tokens), "cubes_per_player": board.cubes_per_player,
        "areas": [{"name": a.name, "spaces": a.spaces, "bonus": a.bonus} for a in board.areas],
        "characters": [{"name": c.name, "immune": [kind.value for kind in Token if kind in c.immune],
                        "support": c.support, "tokens": _raw_tokens(c.tokens), "influence": c.influence,
                        "effect": None if c.effect is None else c.effect.value} for c in board.characters],
    }


class _BoardCodec(Codec[Board]):
    """A board, written whole, so that a record of a table's own reading replays on it; read back through
    :func:`~revolution.rules.data.load_board`, which checks it as it checks a board file."""

    def encode(self, value: Board) -> Any:
        return _BOARD_SHAPE.encode(_board_data(value))

    def decode(self, data: Any, path: Path) -> Board:
        shape = _BOARD_SHAPE.decode(data, path)
        try:
            return load_board(dump_json(_BOARD_SHAPE.encode(shape)))
        except RevolutionError as error:
            raise InconsistentError(str(error), path=path) from None

    def schema(self) -> dict[str, Any]:
        return _BOARD_SHAPE.schema()


#: A game's config.
CONFIG: Final[Codec[RevolutionConfig]] = _attrs_object(RevolutionConfig, players=_Int(3, 4), board=_BoardCodec())


class _Checked(Codec[T]):
    """A codec whose decoded values pass one more check (a state's or view's consistency)."""

    def __init__(self, inner: Codec[T], check: Callable[[T], str | None]) -> None:
        self.inner, self.check = inner, check

    def encode(self, value: T) -> Any:
        return self.inner.encode(value)

    def decode(self, data: Any, path: Path) -> T:
        value = self.inner.decode(data, path)
        problem = self.check(value)
        if problem:
            raise InconsistentError(problem, path=path)
        return value

    def schema(self) -> dict[str, Any]:
        return self.inner.schema()


def _state_problem(state: RevolutionState) -> str | None:
    """What makes ``state`` one no game reaches, or ``None`` (rules 1.1, 1.6, 7.2-7.4, 9.1, 9.3, R-E)."""
    board, players = state.config.board, state.players
    if state.phase is Phase.RESOLUTION:
        return "no step returns a state in the middle of a Resolution (rule 9.1)"
    if (state.phase is Phase.CHOOSING) != bool(state.bids):
        return "bids are held from the reveal to the end of the Resolution only (rules 5.1, 9.3)"
    if state.phase is Phase.CHOOSING and board.characters[state.resolving].effect is None:
        return f"the {board.characters[state.resolving].name} has no effect to choose (rules 5.7, 5.8)"
    tokens = sum(state.held, state.bank) + sum((bid.total for bid in state.bids), Tokens())
    if tokens != board.tokens_in_box:
        return f"the tokens held, bid and in the bank are {tokens}, not the box's {board.tokens_in_box} (R-E)"
    for seat in range(players):
        if state.supply[seat] + sum(row[seat] for row in state.cubes) != board.cubes_per_player:
            return f"seat {seat}'s cubes on the board and in its supply are not {board.cubes_per_player} (rule 1.1)"
    expected = final_scores(state) if state.is_over else ()
    if state.final != expected:
        return "the final scores are the board's at the end (rules 7.2-7.4) and empty before it"
    return None


def _view_problem(view: RevolutionView) -> str | None:
    """What makes ``view`` one no seat is shown, or ``None`` (rule 9.3)."""
    players = len(view.support)
    if players not in (3, 4):
        return f"a view has one support per seat, three or four, not {players}"
    rows = (view.held, view.supply, *(cubes for _, cubes in view.cubes))
    if any(len(row) != players for row in rows) or len(view.bids) not in (0, players):
        return f"every per-seat array of a view has {players} items, one per seat"
    if view.seat is not None and view.seat >= players:
        return f"the viewer {view.seat} is no seat of {players}"
    if view.own != (None if view.seat is None else view.held[view.seat]):
        return "own is the viewer's held tokens, and null for a spectator"
    if view.phase is Phase.RESOLUTION:
        return "no step returns a state in the middle of a Resolution (rule 9.1)"
    if (view.phase is Phase.CHOOSING) != bool(view.bids):
        return "a view shows bids from the reveal to the end of the Resolution only: at the Bidding they are hidden (rule 9.3)"
    if (view.phase is Phase.CHOOSING) != (view.choosing is not None) or (view.choosing or ("", 0))[1] >= players:
        return "choosing names a seat at a Choosing step and is null otherwise"
    if (view.phase is Phase.OVER) != bool(view.final) or (view.final and len(view.final) != players):
        return "the final scores are one per seat at the end and empty before it"
    return None


#: A game's state: private (a server's), but it never holds a pending bid (rule 9.3).
STATE: Final[Codec[RevolutionState]] = _Checked(_attrs_object(
    RevolutionState, config=CONFIG, round=_Int(1), support=_Array(_Int(), 4), held=_Array(TOKENS, 4),
    cubes=_Array(_Array(_Int(), 4)), supply=_Array(_Int(), 4), bids=_Array(BID, 4), resolving=_Int(0, MAX_ARRAY),
    chooser=_Optional(_Int(0, 3)), final=_Array(FINAL_SCORE, 4)), _state_problem)

_AREA_ROW = _Object("An area and each seat's cubes there", {"area": _Str(), "cubes": _Array(_Int(), 4)},
                    lambda area, cubes: (area, cubes), lambda row: {"area": row[0], "cubes": row[1]})
_CHOOSING = _Object("Who chooses for which character", {"character": _Str(), "seat": _Int(0, 3)},
                    lambda character, seat: (character, seat), lambda pair: {"character": pair[0], "seat": pair[1]})

#: A seat's view: only what the seat may see (rule 9.3).
VIEW: Final[Codec[RevolutionView]] = _Checked(_attrs_object(
    RevolutionView, seat=_Optional(_Int(0, 3)), round=_Int(1), support=_Array(_Int(), 4), held=_Array(TOKENS, 4),
    cubes=_Array(_AREA_ROW), supply=_Array(_Int(), 4), bids=_Array(BID, 4), choosing=_Optional(_CHOOSING),
    final=_Array(FINAL_SCORE, 4)), _view_problem)


def _kind(cls: type) -> str:
    """A class's name in kebab case: ``CubesSwapped`` is ``"cubes-swapped"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "-", cls.__name__).lower()


class _Tagged(Codec[T]):
    """One of several object types, told apart by a ``"kind"`` field."""

    def __init__(self, description: str, members: Sequence[tuple[type, Codec[Any]]]) -> None:
        self.description = description
        self.kinds = {cls: _kind(cls) for cls, _ in members}
        self.codecs: dict[str, Codec[Any]] = {_kind(cls): member for cls, member in members}

    def encode(self, value: T) -> Any:
        return {"kind": self.kinds[type(value)], **self.codecs[self.kinds[type(value)]].encode(value)}

    def decode(self, data: Any, path: Path) -> T:
        if not isinstance(data, dict):
            raise _wrong("an object", data, path)
        if "kind" not in data:
            raise MissingFieldError("missing field 'kind'", path=(*path, "kind"))
        kind = data["kind"]
        if not isinstance(kind, str) or kind not in self.codecs:
            raise OutOfRangeError(f"{quote(kind)} is not one of {', '.join(self.codecs)}", path=(*path, "kind"))
        value: T = self.codecs[kind].decode({k: v for k, v in data.items() if k != "kind"}, path)
        return value

    def schema(self) -> dict[str, Any]:
        branches = []
        for kind, member in self.codecs.items():
            branch = member.schema()
            branch["properties"] = {"kind": {"const": kind}, **branch["properties"]}
            branch["required"] = ["kind", *branch["required"]]
            branches.append(branch)
        return {"description": self.description, "oneOf": branches}


#: An action: a bid, the Spy's replacement, the Apothecary's swap, or a decline (rules 4, 5.7, 5.8).
ACTION: Final[Codec[Action]] = _Tagged("An action of Revolution!", [
    (Bid, BID), (Replace, _attrs_object(Replace)), (Swap, _attrs_object(Swap)), (Decline, _attrs_object(Decline)),
])
#: An event's payload (every event of the game is public, rule 9.3).
EVENT: Final[Codec[ev.RevolutionEvent]] = _Tagged("An event of Revolution!", [
    (cls, _attrs_object(cls)) for cls in typing.get_args(ev.RevolutionEvent)
])


def _record(game: str, version: int, config: RevolutionConfig, seed: int,
            choices: tuple[Choice[Action], ...]) -> Record[RevolutionConfig, Action]:
    return Record(game, version, config, seed, choices)


class _RecordCodec(_Object[Record[RevolutionConfig, Action]]):
    """A record, whose choices' seats are those of its config: ``choices[0].seat`` of a 3-player record is
    0 to 2 (the schema's choice knows only the widest game, 0 to 3)."""

    def decode(self, data: Any, path: Path) -> Record[RevolutionConfig, Action]:
        data = _object(data, list(self.fields), path)
        values = {name: field.decode(data[name], (*path, name)) for name, field in self.fields.items()
                  if name != "choices"}
        choices = _choices(values["config"].players).decode(data["choices"], (*path, "choices"))
        try:
            return self.build(**values, choices=choices)
        except KitError as error:
            raise InconsistentError(str(error), path=path) from None


def _choice(players: int) -> _Object[Choice[Action]]:
    """The codec of one choice of a game of ``players`` seats."""
    return _Object("One seat's choice", {"seat": _Int(0, players - 1), "action": ACTION}, Choice,
                   lambda choice: {"seat": choice.seat, "action": choice.action})


def _choices(players: int) -> _Array[Choice[Action]]:
    """The codec of a record's choices in a game of ``players`` seats."""
    return _Array(_choice(players), MAX_CHOICES)


_CHOICE = _choice(4)
#: The seeds a record holds, from -2**63 to 2**64 (what the command line lets a game be played with).
SEEDS: Final = range(-(2**63), 2**64 + 1)
#: A record: the config, the seed and every choice (rule 9.4).
RECORD: Final[Codec[Record[RevolutionConfig, Action]]] = _RecordCodec(
    "A whole game: enough to replay it (rule 9.4)",
    {"game": _Str("revolution"), "version": _Int(1, 1), "config": CONFIG, "seed": _Int(SEEDS.start, SEEDS.stop - 1),
     "choices": _Array(_CHOICE, MAX_CHOICES)},
    _record, lambda record: {name: getattr(record, name) for name in ("game", "version", "config", "seed", "choices")})

#: Each message type and its codec, in the order of :data:`MESSAGE_TYPES`.
_CODECS: Final[Mapping[str, Codec[Any]]] = types.MappingProxyType({
    "config": CONFIG, "state": STATE, "view": VIEW, "action": ACTION, "event": EVENT, "record": RECORD,
})
#: The message types of ``revolution/1``.
MESSAGE_TYPES: Final = tuple(_CODECS)


def codec(type_name: str) -> Codec[Any]:
    """The codec of message type ``type_name`` (one of :data:`MESSAGE_TYPES`).

    :raises KeyError: no such message type (a programming error, not bad input).
    """
    return _CODECS[type_name]


def _type_of(value: object) -> str:
    if isinstance(value, RevolutionConfig):
        return "config"
    if isinstance(value, RevolutionState):
        return "state"
    if isinstance(value, RevolutionView):
        return "view"
    if isinstance(value, Record):
        return "record"
    if isinstance(value, (Bid, Replace, Swap, Decline)):
        return "action"
    if isinstance(value, typing.get_args(ev.RevolutionEvent)):
        return "event"
    raise RevolutionWireError(f"{quote(value)} is no value of a revolution/1 message")


def to_document(value: object) -> dict[str, Any]:
    """``value`` (a config, state, view, action, event payload or record) as its message, JSON-ready.

    :raises RevolutionWireError: ``value`` is none of those.
    """
    type_name = _type_of(value)
    return make_envelope(FORMAT, type_name, _CODECS[type_name].encode(value))


def to_json(value: object, *, indent: int | None = None) -> str:
    """``value`` as the JSON text of its message (:func:`to_document`)."""
    return dump_json(to_document(value), indent=indent)


def from_json(text: str | bytes, expected: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """The value of a message of type ``expected`` read strictly from ``text``.

    :raises WireError: the text is not such a message (see the module's summary for the subclasses).
    """
    data = load_json(text, max_bytes=max_bytes)
    _, payload = open_envelope(data, FORMAT, [expected])
    return _CODECS[expected].decode(payload, ())


def config_from_json(text: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> RevolutionConfig:
    """A config message read strictly (:func:`from_json`)."""
    value: RevolutionConfig = from_json(text, "config", max_bytes=max_bytes)
    return value


def state_from_json(text: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> RevolutionState:
    """A state message read strictly, refused unless the rules could reach it (:func:`from_json`)."""
    value: RevolutionState = from_json(text, "state", max_bytes=max_bytes)
    return value


def view_from_json(text: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> RevolutionView:
    """A view message read strictly, refused if it shows what no seat may see (:func:`from_json`)."""
    value: RevolutionView = from_json(text, "view", max_bytes=max_bytes)
    return value


def action_from_json(text: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Action:
    """An action message read strictly (:func:`from_json`); whether the rules allow it now is the engine's
    check."""
    value: Action = from_json(text, "action", max_bytes=max_bytes)
    return value


def event_from_json(text: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> ev.RevolutionEvent:
    """An event message read strictly (:func:`from_json`)."""
    value: ev.RevolutionEvent = from_json(text, "event", max_bytes=max_bytes)
    return value


def record_from_json(text: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Record[RevolutionConfig, Action]:
    """A record message read strictly (:func:`from_json`); whether it replays is :mod:`tablekit.records`'s
    check."""
    value: Record[RevolutionConfig, Action] = from_json(text, "record", max_bytes=max_bytes)
    return value
