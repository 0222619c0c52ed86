"""Who holds which victor card: a belief drawn from what the other seats played in public (spec 9.4).

Every seat plays for its secret victor faction, and what it plays shows it. A seat rising to a revolution
plays its own faction's cards to the revolution side and reinforces them; a seat sinking to an emperor victory
makes its traitor play with its own faction's cards and keeps them off the revolution side (rules 4.3-4.6,
8.2). :class:`VictorBelief` weighs every way of handing the victor cards the seat cannot see to the other
seats by how well it explains their plays, and draws from those weights.

The weights are a likelihood with one factor per public fact, each the chance of that fact under a faction
that does *not* explain it relative to one that does (:data:`EVIDENCE`):

* a revolution-side card of faction ``g``, played in a week in which its seat made no traitor play
  (it was rising): every faction but ``g`` is weighed down;
* the same in a week in which its seat made its traitor play (it was sinking): ``g`` is weighed down;
* a traitor card of faction ``g``: every faction but ``g``;
* a reinforcement card on a revolution-side card of ``g`` by a rising seat: every faction but ``g``;
* the support card a seat revealed after the first month: every faction but that one, lightly.

No factor is zero, so every assignment the seat cannot rule out keeps a chance: the belief only ranks what
the rules allow, and it reads nothing but the view. The factors were fitted on games between
:class:`~darkempire.bots.GreedyBot` seats and the search bot; against other players they are a prior that
the plays may overturn.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping
from typing import Final

from darkempire.rules.actions import Side
from darkempire.rules.cards import Faction
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.table import WeekTable
from darkempire.rules.views import PlayerView

__all__ = ["EVIDENCE", "VictorBelief"]

#: Each kind of public fact's factor on the factions it does not point to (module docstring).
EVIDENCE: Final[Mapping[str, float]] = {
    "rising revolution card": 0.3,
    "sinking revolution card": 0.15,
    "traitor card": 0.1,
    "rising reinforcement": 0.3,
    "first support": 0.9,
}


class VictorBelief:
    """A distribution over the other seats' victor factions, from one seat's view (module docstring).

    :param view: a seat's view, before the verdict (once it is out, every victor card is revealed).
    :ivar seats: the other seats, in order.
    :ivar assignments: each possible hand-out, one faction per seat of ``seats``.
    :ivar weights: each assignment's probability, summing to 1.
    :raises InvalidArgumentError: for the spectator's view.
    """

    def __init__(self, view: PlayerView) -> None:
        me, mine = view.seat, view.victor
        if me is None or mine is None:
            raise InvalidArgumentError("a belief is held by a seat: it needs a player view, not the spectator view")
        self.seats = tuple(s for s in range(view.players) if s != me)
        logs = _log_weights(view)
        free = [f for f in Faction if f is not mine]
        self.assignments = tuple(itertools.permutations(free, len(self.seats)))
        scores = [sum(logs[s][f] for s, f in zip(self.seats, a, strict=True)) for a in self.assignments]
        top = max(scores)
        raw = [math.exp(score - top) for score in scores]
        total = sum(raw)
        self.weights = tuple(w / total for w in raw)

    def marginal(self, seat: int) -> dict[Faction, float]:
        """The chance that ``seat`` holds each faction's victor card."""
        position = self.seats.index(seat)
        chances = dict.fromkeys(Faction, 0.0)
        for assignment, weight in zip(self.assignments, self.weights, strict=True):
            chances[assignment[position]] += weight
        return chances

    def sample(self, rng: random.Random) -> dict[int, Faction]:
        """One hand-out drawn from the belief: the victor faction of each other seat."""
        (assignment,) = rng.choices(self.assignments, weights=self.weights)
        return dict(zip(self.seats, assignment, strict=True))


def _log_weights(view: PlayerView) -> list[dict[Faction, float]]:
    """``logs[seat][faction]``: the log of the product of the factors that weigh ``faction`` down for ``seat``."""
    logs = [dict.fromkeys(Faction, 0.0) for _ in range(view.players)]

    def against_all_but(seat: int, faction: Faction, kind: str) -> None:
        penalty = math.log(EVIDENCE[kind])
        for f in Faction:
            if f is not faction:
                logs[seat][f] += penalty

    tables: list[WeekTable] = [record.table for record in view.history]
    if view.table is not None and view.week_score is None:  # once scored, the week is in the history too
        tables.append(view.table)
    for table in tables:
        sinking = {p.seat for p in table.plays if p.side is Side.EMPEROR}
        sinking |= {r.seat for p in table.plays if p.side is Side.EMPEROR for r in p.reinforcements}
        for play in table.plays:
            if play.side is Side.EMPEROR:
                against_all_but(play.seat, play.faction, "traitor card")
                continue
            if play.seat in sinking:
                logs[play.seat][play.faction] += math.log(EVIDENCE["sinking revolution card"])
            else:
                against_all_but(play.seat, play.faction, "rising revolution card")
            for reinforcement in play.reinforcements:
                if reinforcement.seat not in sinking:
                    against_all_but(reinforcement.seat, play.faction, "rising reinforcement")
    for month in view.month_scores[:1]:
        for seat, faction in enumerate(month.support):
            against_all_but(seat, faction, "first support")
    return logs
