"""What the search bot plays for: two plans, each an own-seat policy on the kernel and an objective.

A seat wins in one of two ways (rules 8.2-8.5), and they pull in opposite directions:

* **rise** (:data:`RISE`): a revolution, with the seat's victor faction the strongest, or the second
  strongest when the strongest is 15 points or more ahead. Played as :class:`~darkempire.bots.GreedyBot`
  plays when it rises (:func:`~darkempire.kernel.greedy.greedy_index` with ``sink=False``).
* **sink** (:data:`SINK`): an emperor victory, which the *lowest* held faction wins. Played by
  :func:`evasive_index`: a traitor card each week (it weakens a faction and feeds the emperor, and a
  traitor card supports nobody, rule 5.3), and otherwise plays that leave another seat the top supporter
  and the highest card of any faction that may end the week strongest, so that the tokens go to the
  others (rules 5.3, 5.4); its own faction is played low or not at all.

Each plan is judged by what it is for. :func:`win_share` is the end of a game: the seat's share of the win.
:func:`margin` is a moment of a game seen by a sinking seat: how far its faction's total (placed cards and
its holder's tokens, rule 8.1) is below the lowest of the others'; an emperor victory goes to the lowest,
so a sinking seat wants it large. It is read at any moment, so a search can stop a playout at the end of
the week or the month instead of playing to the end of the game.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Final

from darkempire.kernel import encoding as enc
from darkempire.kernel.greedy import Strengths, greedy_index
from darkempire.kernel.mutable import Table

__all__ = ["PLANS", "RISE", "SINK", "evasive_index", "margin", "plan_index", "totals", "win_share"]

#: The plan that plays for a revolution won by the seat's faction (rules 8.3, 8.4).
RISE: Final = "rise"
#: The plan that plays for an emperor victory won by the seat's faction, the lowest (rule 8.2).
SINK: Final = "sink"
#: Both plans, in the order a search tries them.
PLANS: Final = (RISE, SINK)

_VALUES: Final = enc.CARD_VALUE
_FACTION: Final = enc.CARD_FACTION
_FIRST_REINFORCEMENT: Final = enc.FACTION_CARD_COUNT
_BONUS: Final = enc.REINFORCEMENT_BONUS

# The evasive play's weights, in points of danger. A play is dangerous when the faction may end the week
# strongest and the seat would be its top supporter (2 tokens) or hold its highest card (1 token).
#: Another seat's support must exceed the seat's by more than this for the seat to be safe from the 2 tokens.
_SAFE_LEAD: Final = 2
#: How many points below the strongest faction a faction still counts as a danger, fading linearly.
_DANGER_SPAN: Final = 8.0
#: Danger of being the top supporter, of holding the highest card, and of playing the own victor faction.
_TOP_SUPPORTER: Final = 10.0
_HIGHEST_CARD: Final = 4.0
_OWN_FACTION: Final = 6.0
#: Each point of a card played to the revolution side: a low card is the safer one.
_PER_POINT: Final = 0.1
#: Preference for a traitor card (plus its value, and more for the own faction's card), and for a
#: reinforcement card on a traitor card or on another seat's card of another faction.
_TRAITOR: Final = 50.0
_OWN_TRAITOR: Final = 5.0
_REINFORCE_TRAITOR: Final = 40.0
_REINFORCE_OTHER: Final = 20.0
_REINFORCE_LEADER: Final = 5.0
_REINFORCE_OWN: Final = -40.0


def totals(k: Table) -> list[int]:
    """Each seat's faction total now: the placed cards of its victor faction and its tokens (rule 8.1)."""
    points = [0, 0, 0, 0, 0]
    for card, _, _, _ in k.faction_track:
        points[_FACTION[card]] += _VALUES[card]
    return [points[k.victors[s]] + k.banked[s] + k.month_tokens[s] for s in range(k.n)]


def margin(k: Table, seat: int) -> float:
    """How far ``seat``'s faction total is below the lowest other seat's (:func:`totals`): positive when it
    would win an emperor victory now (rule 8.2)."""
    each = totals(k)
    return float(min([t for s, t in enumerate(each) if s != seat]) - each[seat])


def win_share(k: Table, seat: int) -> float:
    """``seat``'s share of the win of a finished game: ``1 / len(winners)`` if it is among them, else 0."""
    if k.verdict is None:
        raise ValueError("a game's win is shared out once it is over")
    winners = k.verdict.winners
    return 1 / len(winners) if seat in winners else 0.0


def _table_support(k: Table) -> tuple[list[list[int]], list[list[int]]]:
    """Each seat's support of each faction this week and its highest card of it, with reinforcements (rule 5.3)."""
    support = [[0, 0, 0, 0, 0] for _ in range(k.n)]
    highest = [[0, 0, 0, 0, 0] for _ in range(k.n)]
    for seat, card, side, _, attached in k.plays:
        if side:
            continue
        faction = _FACTION[card]
        value = _VALUES[card] + _BONUS * len(attached)
        support[seat][faction] += value
        highest[seat][faction] = max(highest[seat][faction], value)
    return support, highest


def _evasive_values(k: Table, seat: int) -> list[float]:
    """How much a sinking seat wants each action of its play-step listing, in listing order."""
    hand = k.hands[seat]
    victor = k.victors[seat]
    week = Strengths(k)
    strengths, top = week.strengths, week.top
    support, highest = _table_support(k)
    others = [s for s in range(k.n) if s != seat]
    allowed = k.table_emperor >= 0 and not k.traitor[seat]
    factions = bisect_left(hand, _FIRST_REINFORCEMENT)
    values: list[float] = []
    for position in range(factions):
        card = hand[position]
        faction, value = _FACTION[card], _VALUES[card]
        fade = max(0.0, 1.0 + (strengths[faction] + value - top) / _DANGER_SPAN)
        danger = 0.0
        if max([support[s][faction] for s in others]) - (support[seat][faction] + value) <= _SAFE_LEAD:
            danger += _TOP_SUPPORTER * fade
        if max([highest[s][faction] for s in others]) <= value:
            danger += _HIGHEST_CARD * fade
        if faction == victor:
            danger += _OWN_FACTION
        values.append(-danger - value * _PER_POINT)
        if allowed:
            values.append(_TRAITOR + value + (_OWN_TRAITOR if faction == victor else 0.0))
    if factions < len(hand) and k.phase != enc.PLAY_1:
        per_card: list[float] = []
        for owner, card, side, _, _ in k.plays:
            if side:
                if allowed:  # listing.play_targets: a traitor card only while the seat may still make its traitor play
                    per_card.append(_REINFORCE_TRAITOR)
            elif owner == seat or _FACTION[card] == victor:
                per_card.append(_REINFORCE_OWN)
            else:
                leading = strengths[_FACTION[card]] + _BONUS >= top
                per_card.append(_REINFORCE_OTHER + (_REINFORCE_LEADER if leading else 0.0))
        for _ in range(len(hand) - factions):
            values += per_card
    return values


def evasive_index(k: Table, seat: int, rng: random.Random) -> int:
    """The sink plan's choice for ``seat``, an index of its listing (module docstring).

    At a play step it weighs each action as above; elsewhere it chooses as a sinking GreedyBot does (the
    support and the cards it holds fewest points of, its faction's lowest card placed, nothing taken
    back). Ties are broken by ``rng``. Only the seat's own hand and victor faction and public facts are read.
    """
    if k.counts[seat] <= 1:
        return 0
    if enc.PLAY_1 <= k.phase <= enc.PLAY_3:
        values = _evasive_values(k, seat)
        top = max(values)
        tied = [i for i, v in enumerate(values) if v == top]
        return tied[rng.randrange(len(tied))]
    return greedy_index(k, seat, rng, sink=True)


def plan_index(plan: str, k: Table, seat: int, rng: random.Random) -> int:
    """``seat``'s choice under ``plan`` (:data:`RISE` or :data:`SINK`), an index of its listing."""
    if plan == SINK:
        return evasive_index(k, seat, rng)
    return greedy_index(k, seat, rng, sink=False)
