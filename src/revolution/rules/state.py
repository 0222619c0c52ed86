"""The game's state: one immutable value holding everything on the table (rules 1-8).

A :class:`RevolutionState` is frozen and hashable; the engine's transitions (:mod:`revolution.rules.engine`)
return new ones. It never holds a bid that is not yet revealed: during the Bidding the bids are behind the
screens, which in software is the kit's collector (:class:`tablekit.simultaneous.Round`), so no view of a
state can show one (rule 9.3). From the reveal to the end of the Resolution, ``RevolutionState.bids`` holds
every seat's counted bid, public.

:class:`RevolutionConfig` is the game's options: three or four players (rule 1.1), the two optional rules of
section 8, both off by default, the table mode of rule 4.5, and the board (:mod:`revolution.rules.data`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable

import attrs

from revolution.rules.bids import Bid
from revolution.rules.data import BASE_BOARD, Board
from revolution.rules.errors import ConfigError, InvalidValueError
from revolution.rules.tokens import Tokens

__all__ = ["FinalScore", "Phase", "RevolutionConfig", "RevolutionState"]


def _players(instance: RevolutionConfig, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or value not in (3, 4):
        raise ConfigError(f"three or four can play (rule 1.1), not {value!r}", field="RevolutionConfig.players")


def _flag(instance: RevolutionConfig, attribute: attrs.Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        raise ConfigError(f"an option is True or False, not {value!r}", field=f"RevolutionConfig.{attribute.name}")


def _board(instance: RevolutionConfig, attribute: attrs.Attribute[Board], value: object) -> None:
    if not isinstance(value, Board):
        raise ConfigError(f"a board is a revolution.rules.data.Board, not {value!r:.40}", field="RevolutionConfig.board")


@attrs.frozen
class RevolutionConfig:
    """The options of a game.

    :ivar players: three or four (rule 1.1).
    :ivar bid_refunds: the optional rule *Bid Refunds* (rule 8.1): a lost or tied bid comes back.
    :ivar area_control_bonus: the optional rule *Area Control Bonus* (rule 8.2).
    :ivar table_mode: record a game played at a real table (rule 4.5): an illegal bid already revealed is
        counted as the table counts it instead of refused.
    :ivar board: the board (:data:`~revolution.rules.data.BASE_BOARD` unless a table reads the sources
        otherwise).
    :raises ~revolution.rules.errors.ConfigError: any other number of players, an option that is not a ``bool``, a board that is not a
        :class:`~revolution.rules.data.Board`, or a board whose box cannot give every player its starting tokens.
    """

    players: int = attrs.field(default=4, validator=_players)
    bid_refunds: bool = attrs.field(default=False, validator=_flag)
    area_control_bonus: bool = attrs.field(default=False, validator=_flag)
    table_mode: bool = attrs.field(default=False, validator=_flag)
    board: Board = attrs.field(default=BASE_BOARD, validator=_board)

    def __attrs_post_init__(self) -> None:
        box, start = self.board.tokens_in_box.strength, self.board.starting_tokens.strength
        if any(total < self.players * each for total, each in zip(box, start)):
            raise ConfigError(f"the box's tokens cannot give {self.players} players their starting tokens (R-E)",
                              field="RevolutionConfig.board")


class Phase(enum.Enum):
    """Where a round is (rule 3.1): BIDDING (every seat bids, rule 4), CHOOSING (the winner of the Spy or the
    Apothecary chooses, during the Resolution, rules 5.7, 5.8), OVER (the game has ended, rule 7.1), and
    RESOLUTION, the characters being resolved inside a step: no step returns a state in it.

    Espionage needs no step (every seat's tokens are public in the state, rule 3.2), nor does Patronage (it
    has no choice, rule 6.1).
    """

    BIDDING = "bidding"
    RESOLUTION = "resolution"
    CHOOSING = "choosing"
    OVER = "over"


@attrs.frozen
class FinalScore:
    """One seat's final score (rules 7.2-7.4, 8.2).

    :ivar seat: the seat.
    :ivar support: its support on the track.
    :ivar areas: the areas it controls, by name, in board order (rule 7.2).
    :ivar area_bonus: their bonuses.
    :ivar full_control: the areas whose every space holds its cube, with the optional Area Control Bonus
        (rule 8.2); empty without it.
    :ivar control_bonus: 10 for each of those.
    :ivar tokens: its leftover tokens (rule 7.3).
    :ivar token_support: what they score.
    """

    seat: int
    support: int
    areas: tuple[str, ...]
    area_bonus: int
    full_control: tuple[str, ...]
    control_bonus: int
    tokens: Tokens
    token_support: int

    @property
    def total(self) -> int:
        """The final support: track, area bonuses, control bonuses and leftover tokens (rule 7.4)."""
        return self.support + self.area_bonus + self.control_bonus + self.token_support


@attrs.frozen
class RevolutionState:
    """Everything on the table at one moment (rules 1-8).

    :ivar config: the game's options and board.
    :ivar round: the round being played, from 1.
    :ivar phase: where the round is.
    :ivar support: each seat's support on the track; never lowered (rule 1.2).
    :ivar held: the tokens behind each seat's screen: at the Bidding what it must bid, during the Resolution
        what it has won for the next round (rule 5.5).
    :ivar bank: the tokens in the bank (rule 1.6, R-E).
    :ivar cubes: ``cubes[area][seat]``: the cubes of ``seat`` in each area, areas in board order.
    :ivar supply: each seat's cubes not on the board (rule 1.1, R-G).
    :ivar bids: from the reveal to the end of the Resolution, each seat's counted bid (rules 4.5, 5.1); else
        empty.
    :ivar resolving: during the Resolution, the board index of the character being resolved; else 0.
    :ivar chooser: at a CHOOSING step, the seat that chooses (the character's winner); else ``None``.
    :ivar final: each seat's final score once the game is over; else empty.
    """

    config: RevolutionConfig
    round: int
    phase: Phase
    support: tuple[int, ...]
    held: tuple[Tokens, ...]
    bank: Tokens
    cubes: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    bids: tuple[Bid, ...] = ()
    resolving: int = 0
    chooser: int | None = None
    final: tuple[FinalScore, ...] = ()

    def __attrs_post_init__(self) -> None:
        """Refuse a hand-built state whose fields do not fit its config (rule 9.2), naming the field, so that no
        rule later fails on it with an ``IndexError`` or an ``AttributeError``."""
        if not isinstance(self.config, RevolutionConfig):
            _refuse("config", "a RevolutionConfig", self.config)
        players, board = self.config.players, self.config.board
        if type(self.round) is not int or self.round < 1:
            _refuse("round", "a whole number from 1", self.round)
        if not isinstance(self.phase, Phase):
            _refuse("phase", "a Phase", self.phase)
        _seats(self.support, players, lambda v: type(v) is int and v >= 0, "support", "whole numbers from 0")
        _seats(self.held, players, lambda v: isinstance(v, Tokens), "held", "Tokens")
        _seats(self.supply, players, lambda v: type(v) is int and 0 <= v <= board.cubes_per_player, "supply",
               f"whole numbers from 0 to {board.cubes_per_player}")
        if not isinstance(self.bank, Tokens):
            _refuse("bank", "Tokens", self.bank)
        if not (isinstance(self.cubes, tuple) and len(self.cubes) == len(board.areas)):
            _refuse("cubes", f"a tuple of {len(board.areas)} rows, one per area", self.cubes)
        for row, area in zip(self.cubes, board.areas):
            _seats(row, players, lambda v: type(v) is int and v >= 0, "cubes", "whole numbers from 0")
            if sum(row) > area.spaces:
                _refuse("cubes", f"at most {area.spaces} cubes in the {area.name}", row)
        if self.bids != ():
            _seats(self.bids, players, lambda v: isinstance(v, Bid), "bids", "Bid values (or empty)")
        if type(self.resolving) is not int or not 0 <= self.resolving < len(board.characters):
            _refuse("resolving", f"a board index from 0 to {len(board.characters) - 1}", self.resolving)
        chooses = self.phase is Phase.CHOOSING
        if chooses != (self.chooser is not None) or (chooses and self.chooser not in range(players)):
            _refuse("chooser", "a seat at a CHOOSING step and None otherwise", self.chooser)

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (rule 7.1)."""
        return self.phase is Phase.OVER

    @property
    def winners(self) -> frozenset[int]:
        """The seats with the most final support, once the game is over (rule 7.4, R-O); else empty."""
        best = max((score.total for score in self.final), default=None)
        return frozenset(score.seat for score in self.final if score.total == best)

    def filled(self, area: int) -> int:
        """The number of occupied influence spaces of area ``area`` (board order)."""
        return sum(self.cubes[area])

    @property
    def board_full(self) -> bool:
        """Whether every influence space of the board holds a cube (rule 7.1)."""
        return all(self.filled(i) >= area.spaces for i, area in enumerate(self.config.board.areas))


def _refuse(field: str, wanted: str, value: object) -> None:
    raise InvalidValueError(f"expected {wanted}, not {value!r:.80}", field=f"RevolutionState.{field}")


def _seats(values: object, players: int, ok: Callable[[object], bool], field: str, wanted: str) -> None:
    """Refuse ``values`` unless it is a tuple of one value per seat, each passing ``ok``."""
    if not (isinstance(values, tuple) and len(values) == players and all(ok(value) for value in values)):
        _refuse(field, f"a tuple of {players} {wanted}, one per seat", values)
