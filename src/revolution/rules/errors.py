"""Typed errors of *Revolution!*: every error the rules raise on purpose is a :class:`RevolutionError`.

They derive from the kit's families (:mod:`tablekit.errors`), so a front end written for any game of the kit
catches them by the kit's names: a refused choice is an :class:`IllegalBidError`, an :class:`IllegalTargetError`
or a :class:`WrongStepError`, all :class:`~tablekit.errors.IllegalChoiceError` with the ``rule`` they break as
``spec/revolution/`` numbers it (``"4.3"``, ``"R-I"``). A value that cannot be built at all (a negative token
count, a board file that names an area it lacks) is an :class:`InvalidValueError` or a :class:`BoardError`
naming the field.
"""

from __future__ import annotations

from tablekit import errors as kit

__all__ = [
    "BoardError",
    "ConfigError",
    "IllegalBidError",
    "IllegalTargetError",
    "ImmuneCharacterError",
    "InvalidValueError",
    "MalformedActionError",
    "RevolutionError",
    "RevolutionChoiceError",
    "TokensNotAllBidError",
    "TooManyCharactersError",
    "UnknownCharacterError",
    "WrongStepError",
]


class RevolutionError(kit.KitError):
    """Base class of every error raised by :mod:`revolution` on purpose (a :class:`~tablekit.errors.KitError`)."""


class InvalidValueError(RevolutionError, ValueError, TypeError):
    """A value of the wrong type or range for a field (a negative token count, a bid on a number).

    :ivar field: the field at fault, e.g. ``"Tokens.gold"``.
    """

    field: str

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class BoardError(InvalidValueError):
    """A board (rule 1.3, 1.4) that cannot be played: an unknown area, a repeated name, a bad number."""


class ConfigError(InvalidValueError):
    """A game configuration the rules do not allow (rule 1.1: three or four players)."""


class RevolutionChoiceError(RevolutionError, kit.IllegalChoiceError):
    """A choice the rules refuse now; unlike the kit's, the rule is required.

    :ivar rule: the id of the broken rule or ruling in ``spec/revolution/``.
    :ivar message: the explanation without the rule.
    :ivar seat: the seat that chose, if known.
    """

    def __init__(self, message: str, *, rule: str, seat: int | None = None) -> None:
        super().__init__(message, seat=seat, rule=rule)


class WrongStepError(RevolutionChoiceError):
    """An action of another step: a bid while a winner chooses, a swap at the bidding, anything at the end
    (rule 9.1)."""


class IllegalBidError(RevolutionChoiceError):
    """A bid the rules refuse (rules 4.2-4.4)."""


class UnknownCharacterError(IllegalBidError):
    """A bid on a name that is no character of the board (rule 1.4)."""


class TokensNotAllBidError(IllegalBidError):
    """A bid that is not exactly the tokens the seat holds: every token is bid (rule 4.2)."""


class TooManyCharactersError(IllegalBidError):
    """A bid on more than six characters (rule 4.3)."""


class ImmuneCharacterError(IllegalBidError):
    """A token on a character immune to that persuasion (rule 4.4)."""


class IllegalTargetError(RevolutionChoiceError):
    """A Spy's or Apothecary's choice that is not one of the cubes it may take or swap (rules 5.7, 5.8)."""


class MalformedActionError(RevolutionChoiceError):
    """An action that is not what its class declares (rule 9.2): a subclass or look-alike of an action class,
    a bid whose placements are no sorted tuple of ``(str, Tokens)`` pairs, a cube whose area is no ``str``.
    Such an object can only be built around the classes' own checks (``object.__setattr__``, ``__new__``, a
    subclass that overrides a method); it could change after it was checked, or say one thing to the check
    and another to the step, so the engine keeps none of it."""
