"""The old path of :mod:`darkempire.rules.views`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.views`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.views import (
    PlayerView,
    player_view,
    spectator_view,
)

__all__ = [
    "PlayerView",
    "player_view",
    "spectator_view",
]
