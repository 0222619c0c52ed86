"""The old path of :mod:`darkempire.rules.engine`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.engine`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.engine import (
    Transition,
    advance,
    apply,
    apply_reporting,
    awaited_seats,
    check_choice,
    check_seat,
    choose_support,
    deal,
    deal_reporting,
    discard,
    events_between,
    judge_winner,
    legal_actions,
    pass_cards,
    place_cards,
    play,
    reorganize,
    replay,
    score_month,
    score_week,
    step,
    withdraw,
    withdraw_reporting,
)
# Public, though never in the module's __all__; `as` re-exports them for mypy --strict.
from darkempire.rules.engine import SEED_LIMIT as SEED_LIMIT

__all__ = [
    "Transition",
    "advance",
    "apply",
    "apply_reporting",
    "awaited_seats",
    "check_choice",
    "check_seat",
    "choose_support",
    "deal",
    "deal_reporting",
    "discard",
    "events_between",
    "judge_winner",
    "legal_actions",
    "pass_cards",
    "place_cards",
    "play",
    "reorganize",
    "replay",
    "score_month",
    "score_week",
    "step",
    "withdraw",
    "withdraw_reporting",
]
