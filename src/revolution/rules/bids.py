"""Bids: what one seat places on the characters of its bid board, how bids compare, and which are legal.

A :class:`Bid` is one seat's whole bid for a round: for each character it bids on, the :class:`Tokens` it
places there (rule 4.1). Bids on one character compare by their strength, Force first, then Blackmail, then
Gold (rule 5.2, :func:`winner`); the single strongest bid wins, and a tie for the strongest means nobody wins
(rule 5.3).

A bid is legal (rules 4.2-4.4, :func:`bid_problems`) when it places exactly the tokens the seat holds, on at
most six characters, none of them immune to a token placed on it. In the table mode (rule 4.5) an already
revealed bid that breaks only rule 4.3 or 4.4 is counted as the table would count it
(:func:`counted_bid`).

The legal bids of a seat are listed in a fixed order, built one at a time (:func:`legal_bids`): a seat holding
ten tokens has millions of them, so the list is a :class:`~tablekit.game.LazyActions` that counts them with a
small table and builds bid ``i`` from it.

>>> from revolution.rules.data import BASE_BOARD
>>> winner([Tokens(force=1), Tokens(force=1, blackmail=1), Tokens(gold=9)])
1
>>> winner([Tokens(force=1), Tokens(force=1), Tokens(gold=9)]) is None
True
>>> len(legal_bids(BASE_BOARD, Tokens(force=1, blackmail=1, gold=3)))
17836
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import attrs

from revolution.rules.data import Board, Character
from revolution.rules.errors import ImmuneCharacterError, IllegalBidError, InvalidValueError
from revolution.rules.errors import TokensNotAllBidError, TooManyCharactersError, UnknownCharacterError
from revolution.rules.tokens import NO_TOKENS, Token, Tokens
from tablekit.game import LazyActions

__all__ = ["MAX_CHARACTERS", "Bid", "Counted", "bid_problems", "check_bid", "counted_bid", "legal_bids", "placed",
           "winner"]

#: The most characters one bid may be spread over (rule 4.3).
MAX_CHARACTERS: Final = 6


def _placements(value: Mapping[str, Tokens] | Iterable[tuple[str, Tokens]]) -> tuple[tuple[str, Tokens], ...]:
    """The placements as ``(character, tokens)`` pairs sorted by name, empty ones dropped, each name once."""
    items = list(value.items()) if isinstance(value, Mapping) else list(value)
    seen: set[str] = set()
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
                and isinstance(item[1], Tokens)):
            raise InvalidValueError(f"a placement is a (character name, Tokens) pair, not {item!r:.60}",
                                    field="Bid.placements")
        if item[0] in seen:
            raise InvalidValueError(f"{item[0]!r} is named twice: put all its tokens in one placement",
                                    field="Bid.placements")
        seen.add(item[0])
    return tuple(sorted((item for item in items if item[1]), key=lambda item: item[0]))


@attrs.frozen
class Bid:
    """One seat's bid for a round: the tokens it places on each character (rule 4.1).

    Two bids with the same tokens on the same characters are equal, however they were written: the
    placements are kept sorted by character name, without empty ones.

    :ivar placements: ``(character name, tokens)`` pairs; a mapping is accepted.
    :raises ~revolution.rules.errors.InvalidValueError: a placement that is not a name and a :class:`Tokens`, or a name given twice.

    >>> Bid({"Priest": Tokens(gold=2), "General": Tokens(gold=1), "Spy": Tokens()}).placements
    (('General', Tokens(force=0, blackmail=0, gold=1)), ('Priest', Tokens(force=0, blackmail=0, gold=2)))
    """

    placements: tuple[tuple[str, Tokens], ...] = attrs.field(default=(), converter=_placements)

    @property
    def characters(self) -> tuple[str, ...]:
        """The names of the characters bid on, sorted."""
        return tuple(name for name, _ in self.placements)

    @property
    def total(self) -> Tokens:
        """All the tokens of the bid."""
        return sum((tokens for _, tokens in self.placements), NO_TOKENS)

    def on(self, character: str) -> Tokens:
        """The tokens placed on ``character`` (none if it is not bid on)."""
        return next((tokens for name, tokens in self.placements if name == character), NO_TOKENS)


def placed(board: Board, bid: Bid) -> tuple[Tokens, ...]:
    """The tokens of ``bid`` on each character of ``board``, in board order (unknown names are left out)."""
    return tuple(bid.on(character.name) for character in board.characters)


def winner(bids: Sequence[Tokens]) -> int | None:
    """The seat whose bid on one character is strictly the strongest, or ``None`` (rules 5.2, 5.3).

    ``bids[seat]`` is what ``seat`` placed on the character. Bids compare by
    :attr:`~revolution.rules.tokens.Tokens.strength`: Force, then Blackmail, then Gold. Nobody wins if nobody
    bid, or if two or more seats tie for the strongest bid, whatever the weaker bids are.

    The contracts below state rules 5.2 and 5.3; ``nox -s crosshair`` checks them symbolically.

    :pre: len(bids) <= 4
    :post: __return__ is None or bids[__return__].total > 0
    :post: __return__ is None or all(bids[__return__].strength > t.strength for i, t in enumerate(bids) if i != __return__)
    :post: __return__ is not None or all(t.total == 0 for t in bids) or [t.strength for t in bids].count(max(t.strength for t in bids)) > 1
    """
    best = max((tokens.strength for tokens in bids), default=(0, 0, 0))
    strongest = [seat for seat, tokens in enumerate(bids) if tokens.total > 0 and tokens.strength == best]
    return strongest[0] if len(strongest) == 1 else None


def bid_problems(board: Board, held: Tokens, bid: Bid) -> list[IllegalBidError]:
    """Every rule ``bid`` breaks for a seat holding ``held``, in rule order; empty if it is legal.

    Rule 1.4 (a name that is no character), 4.2 (not exactly the tokens held), 4.3 (more than six characters),
    4.4 (a token on a character immune to it).
    """
    names = {character.name for character in board.characters}
    found: list[IllegalBidError] = []
    unknown = [name for name in bid.characters if name not in names]
    if unknown:
        found.append(UnknownCharacterError(f"no character is called {', '.join(map(repr, unknown))}", rule="1.4"))
    if bid.total != held:
        found.append(TokensNotAllBidError(f"every token is bid: the seat holds {_show(held)}, the bid places "
                                          f"{_show(bid.total)}", rule="4.2"))
    if len(bid.placements) > MAX_CHARACTERS:
        found.append(TooManyCharactersError(f"a bid is spread over at most {MAX_CHARACTERS} characters, not "
                                            f"{len(bid.placements)}", rule="4.3"))
    for character in board.characters:
        kinds = bid.on(character.name).kinds & character.immune
        if kinds:
            found.append(ImmuneCharacterError(f"the {character.name} is immune to "
                                              f"{' and '.join(sorted(kind.value.title() for kind in kinds))}",
                                              rule="4.4"))
    return found


def check_bid(board: Board, held: Tokens, bid: Bid, *, table_mode: bool = False, seat: int | None = None) -> None:
    """Raise the first rule ``bid`` breaks, as its typed error naming the rule; nothing if it is legal.

    In the table mode (rule 4.5) a bid that breaks only rules 4.3 and 4.4 is accepted: :func:`counted_bid` says
    what of it counts.

    :raises IllegalBidError: the subclass for the broken rule (:class:`UnknownCharacterError`,
        :class:`TokensNotAllBidError`, :class:`TooManyCharactersError`, :class:`ImmuneCharacterError`).
    """
    for problem in bid_problems(board, held, bid):
        if table_mode and problem.rule in ("4.3", "4.4"):
            continue
        problem.seat = seat
        raise problem


def _show(tokens: Tokens) -> str:
    return f"{tokens.force} Force, {tokens.blackmail} Blackmail, {tokens.gold} Gold"


@attrs.frozen
class Counted:
    """What counts of a bid revealed at the table (rule 4.5, R-L).

    :ivar bid: the bid as it counts: no token on an immune character, at most six characters.
    :ivar immune: ``(character, tokens)`` removed because the character is immune to them.
    :ivar beyond_six: ``(character, tokens)`` set aside because they are beyond the first six characters in
        board order.
    """

    bid: Bid
    immune: tuple[tuple[str, Tokens], ...]
    beyond_six: tuple[tuple[str, Tokens], ...]


def _legal_part(character: Character, tokens: Tokens) -> Tokens:
    return Tokens(*(0 if not character.accepts(kind) else tokens.count(kind) for kind in Token))


def counted_bid(board: Board, bid: Bid) -> Counted:
    """The part of ``bid`` that counts when it is revealed at the table (rule 4.5, R-L).

    First the tokens on a character immune to them are removed; then, of the characters still bid on, only
    the first six in board order count, the others' tokens are set aside. Both go to the bank (R-L). A legal
    bid counts whole.
    """
    immune: list[tuple[str, Tokens]] = []
    kept: list[tuple[str, Tokens]] = []
    for character in board.characters:
        tokens = bid.on(character.name)
        legal = _legal_part(character, tokens)
        if legal != tokens:
            immune.append((character.name, tokens - legal))
        if legal:
            kept.append((character.name, legal))
    return Counted(Bid(kept[:MAX_CHARACTERS]), tuple(immune), tuple(kept[MAX_CHARACTERS:]))


def _options(character: Character, left: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The non-empty ``(force, blackmail, gold)`` one character may take from ``left``, in lexicographic order."""
    force = range(left[0] + 1) if character.accepts(Token.FORCE) else range(1)
    blackmail = range(left[1] + 1) if character.accepts(Token.BLACKMAIL) else range(1)
    return [(f, b, g) for f in force for b in blackmail for g in range(left[2] + 1) if f or b or g]


@attrs.frozen
class _Counts:
    """``ways[i][k][(f, b, g)]``: the ways to place exactly ``(f, b, g)`` on characters ``i..`` of the board,
    spread over at most ``k`` of them, each taking only what it accepts."""

    ways: tuple[tuple[Mapping[tuple[int, int, int], int], ...], ...]

    def of(self, i: int, k: int, left: tuple[int, int, int]) -> int:
        return self.ways[i][k].get(left, 0) if k >= 0 else 0


def _count_table(board: Board, held: Tokens) -> _Counts:
    """The table of :class:`_Counts` for ``held``, built from the last character back.

    For each character the sum over what it takes is a prefix sum of the next table along the kinds it
    accepts, less the empty placement, so the table costs a few passes over ``(f + 1)(b + 1)(g + 1)`` cells
    per character and per ``k``.
    """
    cells = [(f, b, g) for f in range(held.force + 1) for b in range(held.blackmail + 1) for g in range(held.gold + 1)]
    after: tuple[dict[tuple[int, int, int], int], ...] = tuple(
        {cell: int(cell == (0, 0, 0)) for cell in cells} for _ in range(MAX_CHARACTERS + 1))
    ways = [after]
    for character in reversed(board.characters):
        prefix = [_prefix(table, character) for table in after]
        after = tuple(
            {cell: after[k][cell] + (prefix[k - 1][cell] - after[k - 1][cell] if k else 0) for cell in cells}
            for k in range(MAX_CHARACTERS + 1))
        ways.append(after)
    return _Counts(tuple(reversed(ways)))


def _prefix(table: Mapping[tuple[int, int, int], int], character: Character) -> dict[tuple[int, int, int], int]:
    """``prefix[c]``: the sum of ``table`` over the cells a character accepting what it accepts may leave."""
    prefix = dict(table)
    axes = [2] + [axis for axis, kind in ((0, Token.FORCE), (1, Token.BLACKMAIL)) if character.accepts(kind)]
    for axis in axes:
        for cell in sorted(prefix):  # lexicographic: every cell comes after the one below it on each axis
            if cell[axis]:
                prefix[cell] += prefix[_below(cell, axis)]
    return prefix


def _below(cell: tuple[int, int, int], axis: int) -> tuple[int, int, int]:
    """The cell one token fewer of kind ``axis`` (0 Force, 1 Blackmail, 2 Gold)."""
    f, b, g = cell
    return (f - 1, b, g) if axis == 0 else (f, b - 1, g) if axis == 1 else (f, b, g - 1)


def _build(board: Board, counts: _Counts, held: Tokens, index: int) -> Bid:
    """Bid number ``index`` of the legal bids, in the order of :func:`legal_bids`."""
    left, k, placements = held.strength, MAX_CHARACTERS, []
    for i, character in enumerate(board.characters):
        skip = counts.of(i + 1, k, left)
        if index < skip:
            continue
        index -= skip
        for option in _options(character, left):
            rest = (left[0] - option[0], left[1] - option[1], left[2] - option[2])
            ways = counts.of(i + 1, k - 1, rest)
            if index < ways:
                placements.append((character.name, Tokens(*option)))
                left, k = rest, k - 1
                break
            index -= ways
    return Bid(placements)


def legal_bids(board: Board, held: Tokens) -> LazyActions[Bid]:
    """Every legal bid of a seat holding ``held`` (rules 4.2-4.4), in a fixed order, built on demand.

    The order: a bid placing nothing on the first character comes before any that places something there;
    among those that place something, by the ``(force, blackmail, gold)`` placed, smallest first; and so on
    character by character in board order. A seat holding no token has one legal bid, the empty one.
    """
    counts = _count_table(board, held)
    size = counts.of(0, MAX_CHARACTERS, held.strength)

    def contains(value: object) -> bool:
        return isinstance(value, Bid) and not bid_problems(board, held, value)

    return LazyActions(size, lambda index: _build(board, counts, held, index), contains)
