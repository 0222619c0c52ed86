"""The old path of :mod:`darkempire.rules.errors`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.errors`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.errors import (
    AlreadyChoseError,
    CardNotInHandError,
    ConfigError,
    DarkEmpireError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidPickUpError,
    InvalidPlacementError,
    InvalidTargetError,
    MalformedActionError,
    MissingChoiceError,
    NoEmperorCardError,
    ReinforcementOnFirstStepError,
    ReinforcementOnSameStepError,
    SecondTraitorCardError,
    SupportAlreadyUsedError,
    WrongCardCountError,
    WrongPhaseError,
    WrongSeatError,
)

__all__ = [
    "AlreadyChoseError",
    "CardNotInHandError",
    "ConfigError",
    "DarkEmpireError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidCardError",
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
