"""The old path of :mod:`darkempire.rules.state`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.state`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.state import (
    DECISION_PHASES,
    GameConfig,
    GameState,
    HAND_SIZE,
    MONTHS,
    Phase,
    STEPS,
    ScoreTrack,
    ScoredCard,
    ScoredEmperorCard,
    WEEKS,
    WeekRecord,
)
# Public, though never in the module's __all__; `as` re-exports them for mypy --strict.
from darkempire.rules.state import DEAL_SIZE as DEAL_SIZE
from darkempire.rules.state import PLAY_PHASES as PLAY_PHASES

__all__ = [
    "DECISION_PHASES",
    "GameConfig",
    "GameState",
    "HAND_SIZE",
    "MONTHS",
    "Phase",
    "STEPS",
    "ScoreTrack",
    "ScoredCard",
    "ScoredEmperorCard",
    "WEEKS",
    "WeekRecord",
]
