"""The old path of :mod:`darkempire.rules.chance`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.chance`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.chance import (
    Chance,
)

__all__ = [
    "Chance",
]
