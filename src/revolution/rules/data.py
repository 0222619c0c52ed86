"""The board as data: the characters of the bid board and the areas of the city (rules 1.3, 1.4, 1.6, 2.1).

The facts come from several sources that do not always agree (``spec/revolution/rulings.md``, R-A to R-E), so
they are not code: they are a JSON file shipped inside the package, ``board.json``, loaded into a
:class:`Board`. A table that reads a source differently (Town Hall with six spaces, a Mercenary that takes
Blackmail) writes its own file and passes ``load_board(text)`` in the game's config; the engine reads every
number from the board it is given.

A board holds:

* the **areas** (rule 1.3), each with its number of influence spaces and the support its controller scores at
  the end (rule 7.2), in the order the board lists them;
* the **characters** (rule 1.4), in board order, which is the order of resolution (rule 5.1): each with the
  persuasions it is immune to (rule 4.4), the support and tokens it gives its winner (rules 5.4, 5.5), the
  area where its winner places a cube (rule 5.6), and its effect, if it is the Spy or the Apothecary
  (rules 5.7, 5.8);
* the tokens in the box (rule 1.6, R-E), each player's starting tokens (rule 2.1) and the cubes of each
  colour (rule 1.1).

>>> BASE_BOARD.character("General").immune == frozenset({Token.FORCE})
True
>>> BASE_BOARD.spaces, BASE_BOARD.area("Town Hall").spaces
(43, 7)
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Final, TypeVar

import attrs

from revolution.rules.errors import BoardError
from revolution.rules.tokens import Token, Tokens

__all__ = ["BASE_BOARD", "Area", "Board", "Character", "Effect", "base_board_text", "load_board"]


class Effect(enum.Enum):
    """What a character does besides its rewards, chosen by its winner during the resolution: SPY (rule 5.7),
    APOTHECARY (rule 5.8)."""

    SPY = "spy"
    APOTHECARY = "apothecary"


@attrs.frozen
class Area:
    """An area of the city (rule 1.3).

    :ivar name: its name, e.g. ``"Cathedral"``.
    :ivar spaces: its number of influence spaces, each holding one cube.
    :ivar bonus: the support its controller scores at the end (rule 7.2).
    """

    name: str
    spaces: int
    bonus: int


def _set_repr(members: Iterable[object]) -> str:
    """A frozenset's repr with its members in the order given (a set's own order follows their hashes)."""
    shown = ", ".join(repr(member) for member in members)
    return f"frozenset({{{shown}}})" if shown else "frozenset()"


@attrs.frozen
class Character:
    """A character of the bid board (rule 1.4).

    :ivar name: its name, e.g. ``"Spy"``.
    :ivar immune: the persuasions that may not be bid on it (rule 4.4).
    :ivar support: the support its winner gains at once (rule 5.4).
    :ivar tokens: the tokens its winner takes from the bank for the next round (rule 5.5).
    :ivar influence: the name of the area where its winner places a cube (rule 5.6), or ``None``.
    :ivar effect: its winner's choice during the resolution (rules 5.7, 5.8), or ``None``.
    """

    name: str
    # A set's order follows its members' hashes, which change with PYTHONHASHSEED: shown in token order so that
    # a state's text (OpenSpiel's ToString, a log line) is the same in every process.
    immune: frozenset[Token] = attrs.field(repr=lambda kinds: _set_repr(k for k in Token if k in kinds))
    support: int
    tokens: Tokens
    influence: str | None
    effect: Effect | None

    def accepts(self, kind: Token) -> bool:
        """Whether tokens of ``kind`` may be bid on this character (rule 4.4)."""
        return kind not in self.immune


@attrs.frozen
class Board:
    """The board of a game: its areas, its characters in board order, and its components (rules 1.1-1.6).

    Build one with :func:`load_board`, which checks it; :data:`BASE_BOARD` is the shipped one.

    :ivar name: the board's name, ``"base"`` for the shipped one.
    :ivar areas: the areas, in the board's order.
    :ivar characters: the characters, in board order (rule 5.1).
    :ivar tokens_in_box: every token of the game, the players' starting ones included (rule 1.6, R-E).
    :ivar starting_tokens: each player's tokens at the start (rule 2.1).
    :ivar cubes_per_player: the cubes of each colour (rule 1.1).
    """

    name: str
    areas: tuple[Area, ...]
    characters: tuple[Character, ...]
    tokens_in_box: Tokens
    starting_tokens: Tokens
    cubes_per_player: int

    @property
    def spaces(self) -> int:
        """The number of influence spaces on the board (43 on the base board, R-A)."""
        return sum(area.spaces for area in self.areas)

    def area(self, name: str) -> Area:
        """The area called ``name``.

        :raises BoardError: the board has no such area.
        """
        return _named(self.areas, name, "area")

    def area_index(self, name: str) -> int:
        """The position of area ``name`` in ``areas`` (:raises BoardError: no such area)."""
        return self.areas.index(self.area(name))

    def character(self, name: str) -> Character:
        """The character called ``name``.

        :raises BoardError: the board has no such character.
        """
        return _named(self.characters, name, "character")

    def character_index(self, name: str) -> int:
        """The position of character ``name`` in board order (:raises BoardError: no such character)."""
        return self.characters.index(self.character(name))


Named = TypeVar("Named", Area, Character)


def _named(items: tuple[Named, ...], name: str, what: str) -> Named:
    """The item of ``items`` called ``name``; ``what`` ("area", "character") names the kind in the error.

    :raises BoardError: none is called so.
    """
    for item in items:
        if item.name == name:
            return item
    raise BoardError(f"the board has no {what} {name!r}", field=what)


def _field(data: Mapping[str, object], key: str, where: str) -> object:
    if not isinstance(data, Mapping) or key not in data:
        raise BoardError(f"missing field {key!r}", field=where)
    return data[key]


def _int(data: Mapping[str, object], key: str, where: str) -> int:
    value = _field(data, key, where)
    if type(value) is not int or value < 0:
        raise BoardError(f"{key} is a whole number from 0, not {value!r}", field=f"{where}.{key}")
    return value


def _str(data: Mapping[str, object], key: str, where: str) -> str:
    value = _field(data, key, where)
    if not isinstance(value, str) or not value:
        raise BoardError(f"{key} is a non-empty string, not {value!r}", field=f"{where}.{key}")
    return value


def _tokens(value: object, where: str) -> Tokens:
    if not isinstance(value, Mapping) or not set(value) <= {kind.value for kind in Token}:
        raise BoardError(f"tokens are an object with keys force, blackmail, gold, not {value!r}", field=where)
    return Tokens(**{kind.value: _int(value, kind.value, where) for kind in Token if kind.value in value})


def _kind(value: object, where: str) -> Token:
    try:
        return Token(value)
    except ValueError:
        raise BoardError(f"{value!r} is no token kind (force, blackmail, gold)", field=where) from None


def _area(data: Mapping[str, object], where: str) -> Area:
    area = Area(_str(data, "name", where), _int(data, "spaces", where), _int(data, "bonus", where))
    if area.spaces == 0:
        raise BoardError("an area has at least one influence space", field=f"{where}.spaces")
    return area


def _character(data: Mapping[str, object], areas: tuple[Area, ...], where: str) -> Character:
    immune = _field(data, "immune", where)
    if not isinstance(immune, list):
        raise BoardError(f"immune is a list of token kinds, not {immune!r}", field=f"{where}.immune")
    influence = _field(data, "influence", where)
    if influence is not None and influence not in {area.name for area in areas}:
        raise BoardError(f"influence names no area of the board: {influence!r}", field=f"{where}.influence")
    effect = _field(data, "effect", where)
    try:
        chosen = None if effect is None else Effect(effect)
    except ValueError:
        raise BoardError(f"effect is null, 'spy' or 'apothecary', not {effect!r}", field=f"{where}.effect") from None
    kinds = frozenset(_kind(kind, f"{where}.immune") for kind in immune)
    if Token.GOLD in kinds:
        raise BoardError("no character is immune to Gold: it could not be won", field=f"{where}.immune")
    return Character(_str(data, "name", where), kinds, _int(data, "support", where),
                     _tokens(_field(data, "tokens", where), f"{where}.tokens"), influence, chosen)


def _unique(names: list[str], what: str) -> None:
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise BoardError(f"{what} names must differ: {', '.join(repeated)} repeated", field=what)


def _list(data: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    value = _field(data, key, "board")
    if not isinstance(value, list) or not value:
        raise BoardError(f"{key} is a non-empty list", field=key)
    return value


def load_board(text: str) -> Board:
    """The board described by the JSON ``text`` (the shape of ``board.json``), checked.

    :raises BoardError: the text is no JSON object, a field is missing or of the wrong type, a name is
        repeated, a character names an area the board lacks, or a character is immune to Gold.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(f"not JSON: {error}", field="board") from None
    if not isinstance(data, dict):
        raise BoardError("a board is a JSON object", field="board")
    areas = tuple(_area(item, f"areas[{i}]") for i, item in enumerate(_list(data, "areas")))
    _unique([area.name for area in areas], "areas")
    characters = tuple(_character(item, areas, f"characters[{i}]")
                       for i, item in enumerate(_list(data, "characters")))
    _unique([character.name for character in characters], "characters")
    return Board(_str(data, "name", "board"), areas, characters, _tokens(_field(data, "tokens_in_box", "board"),
                 "tokens_in_box"), _tokens(_field(data, "starting_tokens", "board"), "starting_tokens"),
                 _int(data, "cubes_per_player", "board"))


def base_board_text() -> str:
    """The text of the shipped ``board.json``: a starting point for a table's own reading."""
    return resources.files("revolution.rules").joinpath("board.json").read_text(encoding="utf-8")


#: The shipped board (``board.json``): the base game's twelve characters and seven areas.
BASE_BOARD: Final = load_board(base_board_text())
