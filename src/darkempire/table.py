"""The old path of :mod:`darkempire.rules.table`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.table`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.table import (
    Play,
    Reinforcement,
    WeekTable,
)

__all__ = [
    "Play",
    "Reinforcement",
    "WeekTable",
]
