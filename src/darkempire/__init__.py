"""darkempire: the rules engine for the card game *Dark Empire: Revolution* (*Steam Noir: Revolution*).

The whole game state is one immutable value (:class:`GameState`) and the
rules are pure functions of it (:mod:`darkempire.engine`).

>>> import darkempire
>>> state = darkempire.deal(darkempire.GameConfig(players=4), seed=1)
>>> state.phase
Phase.DRAFT_PASS
"""

from darkempire.actions import (
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
from darkempire.cards import (
    AddOnCard,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
    Theme,
    faction_name,
)
from darkempire.engine import (
    advance,
    apply,
    awaited_seats,
    choose_support,
    deal,
    discard,
    judge_winner,
    legal_actions,
    pass_cards,
    place_cards,
    play,
    reorganize,
    replay,
    score_month,
    score_week,
)
from darkempire.errors import DarkEmpireError, IllegalActionError
from darkempire.scoring import MonthScore, Verdict, VerdictReason, WeekScore
from darkempire.state import GameConfig, GameState, Phase
from darkempire.table import Play, WeekTable

__version__ = "0.1.0"

__all__ = [
    "Action",
    "AddOnCard",
    "ChooseSupport",
    "DarkEmpireError",
    "DiscardCards",
    "EmperorCard",
    "Faction",
    "FactionCard",
    "GameConfig",
    "GameState",
    "HandCard",
    "IllegalActionError",
    "MonthScore",
    "PassCards",
    "Phase",
    "PlaceCards",
    "Play",
    "PlayCard",
    "PlayNothing",
    "Reinforce",
    "ReinforcementCard",
    "Reorganize",
    "RevolutionCard",
    "Side",
    "Theme",
    "Verdict",
    "VerdictReason",
    "WeekScore",
    "WeekTable",
    "__version__",
    "advance",
    "apply",
    "awaited_seats",
    "choose_support",
    "deal",
    "discard",
    "faction_name",
    "judge_winner",
    "legal_actions",
    "pass_cards",
    "place_cards",
    "play",
    "reorganize",
    "replay",
    "score_month",
    "score_week",
]
