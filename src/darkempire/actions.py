"""The old path of :mod:`darkempire.rules.actions`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.actions`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
    Side,
)

__all__ = [
    "Action",
    "ChooseSupport",
    "DiscardCards",
    "PassCards",
    "PlaceCards",
    "PlayCard",
    "PlayNothing",
    "Reinforce",
    "Reorganize",
    "Side",
]
