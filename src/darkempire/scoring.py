"""Weekly scoring, monthly scoring and the final verdict as pure functions (spec sections 5, 7, 8).

These functions take only what the rule reads, so front ends and rules readers
can ask "who wins this week?" without building a game:

* :func:`score_table` scores one :class:`~darkempire.table.WeekTable`
  (rules 5.1-5.7, rulings B-F, J);
* :func:`score_month_tally` scores a month from its placed cards, tokens and
  support choices (rules 7.1-7.2, ruling L);
* :func:`final_verdict` judges the final score track (rules 8.1-8.5, ruling M).

The engine (:mod:`darkempire.engine`) calls the same functions.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

import attrs

from darkempire.cards import Faction, HandCard
from darkempire.table import WeekTable

__all__ = [
    "LEADER_MARGIN",
    "AwardReason",
    "MONTH_BONUS",
    "MonthScore",
    "PlacementDue",
    "TokenAward",
    "Verdict",
    "VerdictReason",
    "WeekScore",
    "final_verdict",
    "month_bonus_share",
    "score_month_tally",
    "score_table",
]

#: Points shared by the seats that supported the month's strongest faction (rule 7.2).
MONTH_BONUS = 6
#: A lone leader this many points (or more) ahead of every other faction is too powerful (rule 8.4).
LEADER_MARGIN = 15

_FACTIONS = tuple(Faction)


class AwardReason(enum.Enum):
    """Why a seat got tokens in weekly scoring (ruling D)."""

    #: 2 points: the seat supported a strongest faction most (rule 5.4).
    MOST_SUPPORT = "most support"
    #: 1 point: the seat played the single highest card of a strongest faction (rule 5.4).
    HIGHEST_CARD = "highest card"


@attrs.frozen
class TokenAward:
    """Revolution points given to one seat for one strongest faction (ruling D).

    :ivar seat: the seat.
    :ivar faction: the strongest faction the award is for.
    :ivar points: 2 for most support, 1 for the single highest card.
    :ivar reason: which of the two criteria.
    """

    seat: int
    faction: Faction
    points: int
    reason: AwardReason


@attrs.frozen
class PlacementDue:
    """A seat that must place one of its cards of a faction to the score track (ruling E).

    :ivar seat: the seat that supported the faction most.
    :ivar faction: a strongest faction stronger than (or tied with) the emperor.
    :ivar candidates: the seat's revolution-side cards of that faction on the
        table, sorted by id; it chooses one.
    """

    seat: int
    faction: Faction
    candidates: tuple[HandCard, ...]


@attrs.frozen
class WeekScore:
    """The result of weekly scoring (rules 5.1-5.7).

    :ivar strengths: strength of each faction in points, indexed by
        :class:`~darkempire.cards.Faction` (5 entries; may be zero or negative).
    :ivar emperor_strength: the emperor's strength in points, or ``None`` in a
        week with no emperor card (ruling J).
    :ivar strongest: the faction(s) of highest strength (ties: all of them).
    :ivar support: ``support[seat][faction]``: the seat's support in points
        (ruling C).
    :ivar awards: token awards in seat order (ruling D).
    :ivar tokens: tokens per seat this week, in points (the sum of its awards).
    :ivar emperor_scored: whether the emperor card goes to the score track.
    :ivar placements: which seats must place a card of which faction (ruling E).
    """

    strengths: tuple[int, ...]
    emperor_strength: int | None
    strongest: frozenset[Faction]
    support: tuple[tuple[int, ...], ...]
    awards: tuple[TokenAward, ...]
    tokens: tuple[int, ...]
    emperor_scored: bool
    placements: tuple[PlacementDue, ...]

    def strength(self, faction: Faction) -> int:
        """The strength of ``faction`` in points."""
        return self.strengths[faction]


def faction_strengths(table: WeekTable) -> tuple[int, ...]:
    """Each faction's strength, indexed by faction (ruling B).

    strength(f) = 3 if the revolution card is f's, plus every revolution-side
    card of f with its reinforcements, minus every traitor card of f with its
    reinforcements.
    """
    strengths = [0] * len(_FACTIONS)
    strengths[table.revolution_card.faction] += table.revolution_card.value
    for play in table.plays:
        strengths[play.faction] += -play.strength if play.is_traitor else play.strength
    return tuple(strengths)


def emperor_strength(table: WeekTable) -> int | None:
    """The emperor's strength, or ``None`` without an emperor card (rulings B, J).

    Emperor card + add-on card (if out) + every traitor card with its reinforcements.
    """
    if table.emperor_card is None:
        return None
    add_on = int(table.add_on) if table.add_on is not None else 0
    return table.emperor_card.value + add_on + sum(p.strength for p in table.traitor_plays())


def seat_support(table: WeekTable) -> tuple[tuple[int, ...], ...]:
    """``support[seat][faction]``: the values, with reinforcements, of the seat's own
    revolution-side cards of the faction (ruling C). Traitor cards do not count."""
    support = [[0] * len(_FACTIONS) for _ in range(table.players)]
    for play in table.revolution_plays():
        support[play.seat][play.faction] += play.strength
    return tuple(tuple(row) for row in support)


def score_table(table: WeekTable) -> WeekScore:
    """Score one week's table (rules 5.1-5.7, rulings B, C, D, E, F, J).

    :param table: the week's table after the third play step (any table is
        accepted, so a front end can preview a week in progress).
    :returns: strengths, tokens and placements; see :class:`WeekScore`.

    >>> from darkempire.cards import EMPEROR_CARDS, REVOLUTION_CARDS, Faction
    >>> table = WeekTable(players=3, revolution_card=REVOLUTION_CARDS[Faction.STUDENTS],
    ...                   emperor_card=EMPEROR_CARDS[0])
    >>> score = score_table(table)
    >>> score.strength(Faction.STUDENTS), score.emperor_strength, score.emperor_scored
    (3, 8, True)
    """
    strengths = faction_strengths(table)
    emperor = emperor_strength(table)
    top = max(strengths)
    strongest = frozenset(f for f in _FACTIONS if strengths[f] == top)
    support = seat_support(table)

    awards: list[TokenAward] = []
    placements: list[PlacementDue] = []
    for faction in sorted(strongest):
        most = max(row[faction] for row in support)
        leaders = [seat for seat in range(table.players) if most > 0 and support[seat][faction] == most]
        for seat in leaders:
            awards.append(TokenAward(seat, faction, 2, AwardReason.MOST_SUPPORT))
        plays = list(table.revolution_plays(faction))
        if plays:
            highest = max(p.strength for p in plays)
            for seat in sorted({p.seat for p in plays if p.strength == highest}):
                awards.append(TokenAward(seat, faction, 1, AwardReason.HIGHEST_CARD))
        if emperor is None or strengths[faction] >= emperor:
            for seat in leaders:
                candidates = tuple(sorted((p.card for p in plays if p.seat == seat), key=lambda c: c.id))
                placements.append(PlacementDue(seat, faction, candidates))
    awards.sort(key=lambda a: (a.seat, a.faction, a.reason is AwardReason.HIGHEST_CARD))
    tokens = [0] * table.players
    for award in awards:
        tokens[award.seat] += award.points
    placements.sort(key=lambda d: (d.seat, d.faction))
    return WeekScore(
        strengths=strengths,
        emperor_strength=emperor,
        strongest=strongest,
        support=support,
        awards=tuple(awards),
        tokens=tuple(tokens),
        emperor_scored=emperor is not None and emperor >= top,
        placements=tuple(placements),
    )


def month_bonus_share(supporters: int) -> int:
    """Each seat's share of the 6 monthly points when ``supporters`` seats share them (ruling L).

    1 seat: 6, 2 seats: 3, 3 seats: 2, 4 or 5 seats: 1, nobody: 0.

    :pre: 0 <= supporters <= 5
    :post: __return__ * supporters <= 6
    """
    if supporters <= 0:
        return 0
    return MONTH_BONUS // supporters


@attrs.frozen
class MonthScore:
    """The result of monthly scoring (rules 7.1-7.2, ruling L).

    :ivar month: the month scored, 1-3 (0 for a tally scored outside a game).
    :ivar support: each seat's revealed temporary support card.
    :ivar card_points: printed values of each faction's cards placed this
        month, indexed by faction.
    :ivar totals: month totals, indexed by faction: card points plus the month
        tokens of every seat supporting it.
    :ivar strongest: the faction(s) with the highest month total; empty when
        every total is 0 (ruling P).
    :ivar bonus: points per seat from the 6-point split.
    """

    month: int
    support: tuple[Faction, ...]
    card_points: tuple[int, ...]
    totals: tuple[int, ...]
    strongest: frozenset[Faction]
    bonus: tuple[int, ...]


def score_month_tally(
    placed: Iterable[HandCard],
    month_tokens: Sequence[int],
    support: Sequence[Faction],
    *,
    month: int = 0,
) -> MonthScore:
    """Score a month (rules 7.1 and 7.2, rulings L and P).

    :param placed: the faction cards placed to the score track this month.
    :param month_tokens: tokens (points) each seat won this month, by seat.
    :param support: each seat's temporary support faction, by seat.
    :param month: the month number, only recorded in the result.
    :returns: totals, strongest factions and each seat's share of 6 points.
    :raises ValueError: if ``month_tokens`` and ``support`` differ in length,
        or a placed card is a reinforcement card.

    >>> from darkempire.cards import HAND_CARDS, Faction
    >>> s = score_month_tally([HAND_CARDS[0]], [0, 2, 0], [Faction.WORKERS, Faction.WORKERS, Faction.STUDENTS])
    >>> s.totals[Faction.WORKERS], s.bonus
    (6, (3, 3, 0))
    """
    if len(month_tokens) != len(support):
        raise ValueError(f"{len(month_tokens)} token counts for {len(support)} support cards")
    card_points = [0] * len(_FACTIONS)
    for card in placed:
        if card.faction is None:
            raise ValueError(f"reinforcement card {card.id} cannot be on the score track (rule 5.5)")
        card_points[card.faction] += card.value
    totals = list(card_points)
    for seat, faction in enumerate(support):
        totals[faction] += month_tokens[seat]
    top = max(totals)
    strongest = frozenset(f for f in _FACTIONS if totals[f] == top and top > 0)
    supporters = [seat for seat, faction in enumerate(support) if faction in strongest]
    share = month_bonus_share(len(supporters))
    bonus = tuple(share if seat in supporters else 0 for seat in range(len(support)))
    return MonthScore(
        month=month,
        support=tuple(support),
        card_points=tuple(card_points),
        totals=tuple(totals),
        strongest=strongest,
        bonus=bonus,
    )


class VerdictReason(enum.Enum):
    """How the game was decided (rules 8.2-8.4)."""

    #: The emperor's total is at least the highest faction total: the lowest held faction wins.
    EMPEROR_VICTORY = "emperor victory"
    #: The revolution wins and the highest held faction wins.
    REVOLUTION = "revolution"
    #: The revolution wins, but the lone leader was 15+ ahead and dropped out.
    LEADER_TOO_POWERFUL = "leader too powerful"


@attrs.frozen
class Verdict:
    """The final judgement (rules 8.1-8.5, ruling M).

    :ivar reason: emperor victory, revolution, or leader too powerful.
    :ivar winners: the winning seat(s); more than one is a shared win.
    :ivar winning_factions: the winners' victor factions.
    :ivar totals: each faction's final total in points (cards + banked tokens
        of the seat holding its victor card), indexed by faction.
    :ivar card_points: each faction's points from scored cards only.
    :ivar emperor_total: points of the scored emperor cards.
    :ivar too_powerful: the faction that dropped out under rule 8.4, if any.
    :ivar victors: each seat's victor faction, revealed.
    """

    reason: VerdictReason
    winners: frozenset[int]
    winning_factions: frozenset[Faction]
    totals: tuple[int, ...]
    card_points: tuple[int, ...]
    emperor_total: int
    too_powerful: Faction | None
    victors: tuple[Faction, ...]

    @property
    def shared(self) -> bool:
        """True when two or more seats share the win (rule 8.5)."""
        return len(self.winners) > 1


def final_verdict(
    card_points: Sequence[int],
    emperor_total: int,
    banked_tokens: Sequence[int],
    victors: Sequence[Faction],
) -> Verdict:
    """Judge the winner from the final score track (rules 8.1-8.5, ruling M).

    :param card_points: points of each faction's scored cards, indexed by faction (5 entries).
    :param emperor_total: points of the scored emperor cards.
    :param banked_tokens: each seat's revolution points, by seat.
    :param victors: each seat's victor faction, by seat (distinct).
    :returns: the :class:`Verdict`.
    :raises ValueError: on inputs of the wrong length or repeated victor factions.

    The rulebook's final example: Students 45, Mechandros 29, so the Students
    are 16 ahead and drop out; the Mechandros seat wins.

    >>> from darkempire.cards import Faction as F
    >>> v = final_verdict([10, 5, 8, 29, 45], 30, [0, 0, 0], [F.STUDENTS, F.MECHANDROS, F.WORKERS])
    >>> v.reason.value, sorted(v.winners)
    ('leader too powerful', [1])
    """
    if len(card_points) != len(_FACTIONS):
        raise ValueError(f"card_points needs {len(_FACTIONS)} entries, got {len(card_points)}")
    if len(banked_tokens) != len(victors):
        raise ValueError(f"{len(banked_tokens)} token counts for {len(victors)} victor cards")
    if len(set(victors)) != len(victors):
        raise ValueError("each faction's victor card is held by one seat at most (rule 2.3)")
    totals = list(card_points)
    for seat, faction in enumerate(victors):
        totals[faction] += banked_tokens[seat]
    held = set(victors)
    top = max(totals)
    too_powerful: Faction | None = None
    if emperor_total >= top:
        reason = VerdictReason.EMPEROR_VICTORY
        place = min(totals[f] for f in held)
        tied = [f for f in held if totals[f] == place]
        best_cards = min(card_points[f] for f in tied)
    else:
        leaders = [f for f in _FACTIONS if totals[f] == top]
        contenders = set(_FACTIONS)
        reason = VerdictReason.REVOLUTION
        if len(leaders) == 1:
            runner_up = max(totals[f] for f in _FACTIONS if f != leaders[0])
            if top - runner_up >= LEADER_MARGIN:
                too_powerful = leaders[0]
                contenders.discard(too_powerful)
                reason = VerdictReason.LEADER_TOO_POWERFUL
        eligible = held & contenders
        place = max(totals[f] for f in eligible)
        tied = [f for f in eligible if totals[f] == place]
        best_cards = max(card_points[f] for f in tied)
    winning = frozenset(f for f in tied if card_points[f] == best_cards)
    return Verdict(
        reason=reason,
        winners=frozenset(seat for seat, f in enumerate(victors) if f in winning),
        winning_factions=winning,
        totals=tuple(totals),
        card_points=tuple(card_points),
        emperor_total=emperor_total,
        too_powerful=too_powerful,
        victors=tuple(victors),
    )
