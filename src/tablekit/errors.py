"""The kit's base errors: every error ``tablekit`` raises on purpose is a :class:`KitError`.

A rules package derives its own errors from these, so that a front end can catch one family whatever the game:
an illegal move of any game is an :class:`IllegalChoiceError` (and a :class:`ValueError`), a bad document an
:class:`~tablekit.wire.WireError`, a record that does not replay a :class:`~tablekit.records.RecordError`.

The classes here carry what a message needs to be useful without parsing it: the seat at fault and the rule
broken, as the game's rulebook numbers it.
"""

from __future__ import annotations

__all__ = [
    "AlreadyChoseError",
    "ChanceError",
    "GameContractError",
    "IllegalChoiceError",
    "KitError",
    "NotAwaitedError",
    "NotListedError",
    "NothingToWithdrawError",
]


class KitError(Exception):
    """Base class of every error raised by ``tablekit`` on purpose."""


class IllegalChoiceError(KitError, ValueError):
    """A seat's choice that the rules refuse.

    A game raises a subclass of this from :meth:`~tablekit.game.Game.check` naming the rule broken; the
    kit raises the subclasses below for what it checks itself (who may choose, and when).

    :ivar message: the explanation, without the rule.
    :ivar seat: the seat that chose, or ``None`` if the choice names no valid seat.
    :ivar rule: the rule broken, as the game numbers it (``"4.2"``), or ``""``.
    """

    message: str
    seat: int | None
    rule: str

    def __init__(self, message: str, *, seat: int | None = None, rule: str = "") -> None:
        super().__init__(f"{message} (rule {rule})" if rule else message)
        self.message = message
        self.seat = seat
        self.rule = rule


class NotAwaitedError(IllegalChoiceError):
    """The seat does not exist, or the current step does not wait for its choice (the game may be over)."""


class AlreadyChoseError(IllegalChoiceError):
    """The seat already has a pending choice in this step: withdraw it first to choose again."""


class NothingToWithdrawError(IllegalChoiceError):
    """The seat has no pending choice in this step to withdraw."""


class NotListedError(KitError, ValueError):
    """A value that is not one of a listing's actions, from :meth:`LazyActions.index <tablekit.game.LazyActions.index>`:
    a :class:`ValueError`, as a tuple's ``index`` raises."""


class GameContractError(KitError, RuntimeError):
    """A rules package broke a promise of the :class:`~tablekit.game.Game` protocol.

    For example its ``step`` refused a combination of choices that its ``check`` accepted one at a time, or
    a step left a game that is not over with no seat awaited. This is a bug in the game, never in the input,
    and it is never blamed on a seat: an error that depended on another seat's hidden choice would leak it.
    """


class ChanceError(KitError, ValueError):
    """A chance draw that cannot be made: no options, or a scripted outcome that is not one of them; or a
    chance source built of values it cannot hold.

    :ivar field: the source's field at fault (``"seed"``, ``"draws"``), or ``""`` for a draw.
    """

    field: str

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field
