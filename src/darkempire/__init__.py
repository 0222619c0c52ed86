"""darkempire: the rules engine for the card game *Dark Empire: Revolution* (*Steam Noir: Revolution*).

The whole game state is one immutable value (:class:`GameState`) and the
rules are pure functions of it (:mod:`darkempire.rules.engine`).

>>> import darkempire
>>> state = darkempire.deal(darkempire.GameConfig(players=4), seed=1)
>>> state.phase
Phase.DRAFT_PASS
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
from darkempire.rules.cards import (
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
from darkempire.rules.engine import (
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
from darkempire.rules.errors import DarkEmpireError, IllegalActionError
from darkempire.rules.scoring import MonthScore, Verdict, VerdictReason, WeekScore
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.table import Play, WeekTable

# The rules modules' old paths (darkempire.engine and the others: shims of darkempire.rules), imported so that
# ``import darkempire`` still makes them attributes of the package, as it did before they moved.
from darkempire import actions, cards, chance, engine, errors, events, game, scoring, state, table, views  # noqa: F401

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
