"""The old path of :mod:`darkempire.rules.game`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.game`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.game import (
    DarkEmpire,
    GAME,
)

__all__ = [
    "DarkEmpire",
    "GAME",
]
