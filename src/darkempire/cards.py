"""The old path of :mod:`darkempire.rules.cards`, which moved into :mod:`darkempire.rules`.

Every public name the module had here stays importable from here, as the same object. New code imports
from :mod:`darkempire.rules.cards`, or takes the names most programs need from :mod:`darkempire`.
"""

from darkempire.rules.cards import (
    ADD_ON_FOR_PLAYERS,
    AddOnCard,
    EMPEROR_CARDS,
    EmperorCard,
    FACTION_CARDS,
    FACTION_CARD_VALUES,
    Faction,
    FactionCard,
    HAND_CARDS,
    HandCard,
    REINFORCEMENT_BONUS,
    REINFORCEMENT_CARDS,
    REVOLUTION_CARDS,
    REVOLUTION_CARD_VALUE,
    ReinforcementCard,
    RevolutionCard,
    Theme,
    add_on_for,
    faction_name,
    is_hand_card,
)

__all__ = [
    "ADD_ON_FOR_PLAYERS",
    "AddOnCard",
    "EMPEROR_CARDS",
    "EmperorCard",
    "FACTION_CARDS",
    "FACTION_CARD_VALUES",
    "Faction",
    "FactionCard",
    "HAND_CARDS",
    "HandCard",
    "REINFORCEMENT_BONUS",
    "REINFORCEMENT_CARDS",
    "REVOLUTION_CARDS",
    "REVOLUTION_CARD_VALUE",
    "ReinforcementCard",
    "RevolutionCard",
    "Theme",
    "add_on_for",
    "faction_name",
    "is_hand_card",
]
