"""The old path of :mod:`darkempire.rules.scoring`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.scoring`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.scoring import (
    AwardReason,
    LEADER_MARGIN,
    MONTH_BONUS,
    MonthScore,
    PlacementDue,
    TokenAward,
    Verdict,
    VerdictReason,
    WeekScore,
    emperor_card_scored,
    emperor_strength_of,
    faction_strength,
    final_verdict,
    highest_card_owners,
    judge,
    month_bonus_share,
    month_strongest,
    placing_factions,
    score_month_tally,
    score_table,
    seat_tokens,
    six_point_split,
    strongest,
    supported_most,
)
# Public, though never in the module's __all__; `as` re-exports them for mypy --strict.
from darkempire.rules.scoring import emperor_strength as emperor_strength
from darkempire.rules.scoring import faction_strengths as faction_strengths
from darkempire.rules.scoring import seat_support as seat_support

__all__ = [
    "AwardReason",
    "LEADER_MARGIN",
    "MONTH_BONUS",
    "MonthScore",
    "PlacementDue",
    "TokenAward",
    "Verdict",
    "VerdictReason",
    "WeekScore",
    "emperor_card_scored",
    "emperor_strength_of",
    "faction_strength",
    "final_verdict",
    "highest_card_owners",
    "judge",
    "month_bonus_share",
    "month_strongest",
    "placing_factions",
    "score_month_tally",
    "score_table",
    "seat_tokens",
    "six_point_split",
    "strongest",
    "supported_most",
]
