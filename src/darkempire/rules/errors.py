"""Typed errors. Every error the library raises on purpose is a :class:`DarkEmpireError`.

An illegal action raises a subclass of :class:`IllegalActionError` whose
message names the broken rule, and whose ``rule`` attribute
holds that rule's id in ``spec/darkempire/``. States are immutable, so the state passed
in is never changed by a failed call.

Dark Empire is one game on the kit, so its errors are the kit's families too (:mod:`tablekit.errors`): a
:class:`DarkEmpireError` is a :class:`~tablekit.errors.KitError`, an :class:`IllegalActionError` a
:class:`~tablekit.errors.IllegalChoiceError` (with the same ``rule`` and ``message``), and an
:class:`AlreadyChoseError` the kit's :class:`~tablekit.errors.AlreadyChoseError`. A front end written for
any game of the kit catches Dark Empire's errors with the kit's names.

:class:`WrongSeatError` is not the kit's :class:`~tablekit.errors.NotAwaitedError`, though it is raised for a
seat that does not exist or is not awaited: it also stands for a withdrawal with nothing pending (the kit's
:class:`~tablekit.errors.NothingToWithdrawError`) and is the base of :class:`MissingChoiceError`, a step
called without an awaited seat's choice, the opposite of "not awaited". A front end that caught the kit's
``NotAwaitedError`` would misread those, so Dark Empire's seat errors are caught as the kit's
``IllegalChoiceError``, with their ``rule`` saying which (``"9.1"`` no such seat, ``"R-N"`` not awaited,
``"9.2"`` nothing to take back or a choice missing).
"""

from __future__ import annotations

from tablekit import errors as kit

__all__ = [
    "AlreadyChoseError",
    "InvalidArgumentError",
    "InvalidCardError",
    "CardNotInHandError",
    "ConfigError",
    "DarkEmpireError",
    "IllegalActionError",
    "InvalidPickUpError",
    "InvalidPlacementError",
    "InvalidTargetError",
    "MalformedActionError",
    "MissingChoiceError",
    "NoEmperorCardError",
    "ReinforcementOnFirstStepError",
    "ReinforcementOnSameStepError",
    "SecondTraitorCardError",
    "SupportAlreadyUsedError",
    "WrongCardCountError",
    "WrongPhaseError",
    "WrongSeatError",
]


class DarkEmpireError(kit.KitError):
    """Base class of every error raised by :mod:`darkempire` on purpose (a :class:`~tablekit.errors.KitError`)."""


class ConfigError(DarkEmpireError, ValueError):
    """A game configuration that the rules do not allow (rule 2.1: 3 to 5 players)."""


class InvalidCardError(DarkEmpireError, ValueError):
    """A card value that is none of the game's physical cards (rules 1.2-1.4), e.g. a
    ``HandCard`` whose faction or value does not match its id."""


class InvalidArgumentError(DarkEmpireError, ValueError, TypeError):
    """An argument of the wrong type or shape for a pure function (a seed that is not an
    integer, per-faction tuples of the wrong length, a missing argument)."""


class IllegalActionError(DarkEmpireError, kit.IllegalChoiceError):
    """An action the rules forbid at this moment (the kit's :class:`~tablekit.errors.IllegalChoiceError`).

    Unlike the kit's, the rule is required: every refusal of Dark Empire's rules names its rule.

    :ivar rule: the id of the broken rule or ruling in ``spec/darkempire/``, e.g. ``"4.4"``.
    :ivar message: the explanation without the rule id.
    :ivar seat: the seat that chose, if the raiser gave it, else ``None``.
    """

    def __init__(self, message: str, *, rule: str, seat: int | None = None) -> None:
        super().__init__(message, seat=seat, rule=rule)


class MalformedActionError(IllegalActionError):
    """An action whose fields are not what its class declares: a missing field, a set of cards that is no
    ``frozenset``, a side that is no :class:`~darkempire.rules.actions.Side` (rule 9.1). Such an object can only be
    built around the class's own checks (``object.__setattr__``, ``__new__``); it could change after it was
    checked, or count one card twice."""


class WrongPhaseError(IllegalActionError):
    """The action or transition does not belong to the current phase (rule 9.1)."""


class WrongSeatError(IllegalActionError):
    """The seat does not exist or is not awaited in this step (rule 9.1)."""


class AlreadyChoseError(WrongSeatError, kit.AlreadyChoseError):
    """The seat already made its hidden choice for this step (rule 9.2; the kit's
    :class:`~tablekit.errors.AlreadyChoseError`)."""


class MissingChoiceError(WrongSeatError):
    """A simultaneous transition was not given the choice of every awaited seat (rule 9.2)."""


class CardNotInHandError(IllegalActionError):
    """The action names a card that is not in the seat's hand."""


class WrongCardCountError(IllegalActionError):
    """The action names the wrong number of cards (rules 2.5, 2.6, 5.6)."""


class SecondTraitorCardError(IllegalActionError):
    """A seat's second traitor play in one week (rule 4.4, ruling G)."""


class NoEmperorCardError(IllegalActionError):
    """A traitor play in a week with no emperor card (rule 4.5, ruling J)."""


class ReinforcementOnFirstStepError(IllegalActionError):
    """A reinforcement card as a seat's first card of the week (rule 4.6)."""


class ReinforcementOnSameStepError(IllegalActionError):
    """A reinforcement attached to a card played in the same step (rule 4.6)."""


class InvalidTargetError(IllegalActionError):
    """A reinforcement aimed at something that is not a faction card on the table,
    or a reinforcement card played as if it were a faction card (ruling G)."""


class SupportAlreadyUsedError(IllegalActionError):
    """A temporary support card whose faction the seat already used (rule 3.2)."""


class InvalidPickUpError(IllegalActionError):
    """A re-organize pick-up of a card the seat may not take back (ruling K)."""


class InvalidPlacementError(IllegalActionError):
    """A card placed to the score track that the weekly scoring does not allow (ruling E)."""
