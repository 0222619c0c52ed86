"""Weekly scoring, monthly scoring and the final verdict as pure functions (spec sections 5, 7, 8).

These functions take only what the rule reads, so front ends and rules readers
can ask "who wins this week?" without building a game:

* :func:`score_table` scores one :class:`~darkempire.rules.table.WeekTable`
  (rules 5.1-5.7, rulings B-F, J);
* :func:`score_month_tally` scores a month from its placed cards, tokens and
  support choices (rules 7.1-7.2, ruling L);
* :func:`final_verdict` judges the final score track (rules 8.1-8.5, ruling M).

The engine (:mod:`darkempire.rules.engine`) calls the same functions. They are built from small rule helpers on
plain numbers (:func:`faction_strength`, :func:`strongest`, :func:`six_point_split`, :func:`judge`, ...)
whose ``:pre:`` and ``:post:`` fields state what the spec says; ``nox -s crosshair`` checks them symbolically
with CrossHair.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

import attrs

from darkempire.rules.actions import Side
from darkempire.rules.cards import Faction, HandCard
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.table import WeekTable

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
    # rule helpers on plain numbers, with the contracts CrossHair checks
    "emperor_card_scored",
    "emperor_strength_of",
    "faction_strength",
    "highest_card_owners",
    "judge",
    "month_strongest",
    "placing_factions",
    "seat_tokens",
    "six_point_split",
    "strongest",
    "supported_most",
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
        :class:`~darkempire.rules.cards.Faction` (5 entries; may be zero or negative).
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


# --------------------------------------------------------------------------- rule helpers on plain numbers
#
# The formulas of rules 5.1-5.5, 5.7 and 7.1-7.2 on plain integers, tuples and sets. The functions that take a
# table or a tally below are built from them, and CrossHair (``nox -s crosshair``) checks their ``:pre:`` and
# ``:post:`` contracts, which state what the spec says, symbolically.


def faction_strength(revolution_card: int, revolution_side: Sequence[int], traitor_side: Sequence[int]) -> int:
    """A faction's strength in a week, in points (rule 5.1, ruling B).

    ``S(f) = 3·[r is f's revolution card] + Σ Rev(f) − Σ Tr(f)``, with every card at its value with
    reinforcements. The strength may be zero or negative. The contracts say: traitor cards never add to their
    faction, and one more revolution-side card always adds to it.

    :param revolution_card: 3 if this week's revolution card is the faction's, else 0 (points).
    :param revolution_side: the values of the faction's revolution-side cards (points, 4 or more).
    :param traitor_side: the values of the faction's traitor cards (points, 4 or more).
    :returns: the faction's strength in points.

    :pre: revolution_card in (0, 3)
    :pre: all(v >= 4 for v in revolution_side) and all(v >= 4 for v in traitor_side)
    :post: __return__ == revolution_card + sum(revolution_side) - sum(traitor_side)
    :post: __return__ <= revolution_card + sum(revolution_side)
    :post: not revolution_side or __return__ > faction_strength(revolution_card, revolution_side[1:], traitor_side)
    """
    return revolution_card + sum(revolution_side) - sum(traitor_side)


def emperor_strength_of(emperor_card: int, add_on: int, traitor_cards: Sequence[int]) -> int:
    """The emperor's strength in a week with an emperor card, in points (rule 5.2, rulings B and J).

    ``E = printed(e) + a + Σ Tr``: the emperor card, the add-on value and every traitor card of every
    faction with its reinforcements.

    :param emperor_card: the emperor card's printed value (8-13 points).
    :param add_on: the add-on value: 0 (3 players), 5 or 10 (points).
    :param traitor_cards: the values of all traitor cards (points, 4 or more).
    :returns: the emperor's strength in points, at least the emperor card plus the add-on.

    :pre: 8 <= emperor_card <= 13 and add_on in (0, 5, 10)
    :pre: all(v >= 4 for v in traitor_cards)
    :post: __return__ >= emperor_card + add_on
    :post: __return__ == emperor_card + add_on + sum(traitor_cards)
    """
    return emperor_card + add_on + sum(traitor_cards)


def strongest(values: Sequence[int]) -> frozenset[int]:
    """The positions of the highest values: the strongest factions of a week (rule 5.1; ties: all of them).

    :param values: the strengths, indexed by faction (points).
    :returns: the indices whose value is the maximum; never empty.

    :pre: len(values) > 0
    :post: len(__return__) > 0
    :post: all(values[i] == max(values) for i in __return__)
    :post: all(i in __return__ for i in range(len(values)) if values[i] == max(values))
    """
    top = max(values)
    return frozenset(i for i, value in enumerate(values) if value == top)


def supported_most(support: Sequence[int]) -> frozenset[int]:
    """The seats that supported a faction most: support ``U(s, f) = M(f) > 0`` (rule 5.3, ruling C).

    :param support: ``U(s, f)`` of one faction, by seat (points).
    :returns: the seats with the highest support, or none if nobody played a revolution-side card of it.

    :pre: all(u >= 0 for u in support)
    :post: all(support[s] == max(support) and support[s] > 0 for s in __return__)
    :post: all(s in __return__ for s in range(len(support)) if support[s] == max(support) > 0)
    """
    most = max(support, default=0)
    return frozenset(seat for seat, u in enumerate(support) if most > 0 and u == most)


def highest_card_owners(cards: Sequence[tuple[int, int]]) -> frozenset[int]:
    """The seats owning a revolution-side card of the faction's highest value ``H(f)`` (rule 5.4, ruling D).

    :param cards: ``(seat, value with reinforcements)`` of each revolution-side card of one faction.
    :returns: every seat owning a card of the highest value (ties: all); none if there is no card.

    :post: (len(__return__) > 0) == (len(cards) > 0)
    :post: all(any(seat == s and v == max(w for _, w in cards) for seat, v in cards) for s in __return__)
    :post: all(seat in __return__ for seat, v in cards if v == max(w for _, w in cards))
    """
    if not cards:
        return frozenset()
    highest = max(v for _, v in cards)
    return frozenset(seat for seat, v in cards if v == highest)


def seat_tokens(players: int, awards: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Each seat's tokens in a week: the sum of its awards (rule 5.4).

    :param players: the number of seats.
    :param awards: ``(seat, points)`` of every token award.
    :returns: points per seat.

    :pre: players >= 0 and all(0 <= seat < players for seat, _ in awards)
    :post: len(__return__) == players
    :post: all(__return__[s] == sum(p for seat, p in awards if seat == s) for s in range(players))
    :post: sum(__return__) == sum(p for _, p in awards)
    """
    tokens = [0] * players
    for seat, points in awards:
        tokens[seat] += points
    return tuple(tokens)


def placing_factions(strengths: Sequence[int], emperor: int | None) -> frozenset[int]:
    """The factions whose strongest supporters place cards to the score track (rule 5.5, rulings E and J).

    Every strongest faction when the week has no emperor card or ``S* ≥ E``; none when ``E > S*``.

    :param strengths: ``S(f)`` by faction (points).
    :param emperor: the emperor's strength ``E`` (points), or ``None`` with no emperor card.
    :returns: the placing factions' indices.

    :pre: len(strengths) > 0
    :post: all(strengths[f] == max(strengths) for f in __return__)
    :post: emperor is None or not __return__ or max(strengths) >= emperor
    :post: __return__ == strongest(strengths) or (emperor is not None and emperor > max(strengths))
    """
    if emperor is not None and emperor > max(strengths):
        return frozenset()
    return strongest(strengths)


def emperor_card_scored(top: int, emperor: int | None) -> bool:
    """Whether the week's emperor card goes to the score track (rule 5.7, rulings F and J).

    :param top: the strongest factions' strength ``S*`` (points).
    :param emperor: the emperor's strength ``E`` (points), or ``None`` with no emperor card.
    :returns: True when there is an emperor card and ``E ≥ S*``.

    :post: __return__ == (emperor is not None and emperor >= top)
    :post: __return__ or emperor is None or top > emperor
    """
    return emperor is not None and emperor >= top


def faction_strengths(table: WeekTable) -> tuple[int, ...]:
    """Each faction's strength, indexed by faction (ruling B).

    strength(f) = 3 if the revolution card is f's, plus every revolution-side
    card of f with its reinforcements, minus every traitor card of f with its
    reinforcements.
    """
    revolution_side: list[list[int]] = [[] for _ in _FACTIONS]
    traitor_side: list[list[int]] = [[] for _ in _FACTIONS]
    for play in table.plays:  # one pass over the table, not two per faction
        if play.side is Side.REVOLUTION:
            revolution_side[play.card.faction].append(play.strength)
        elif play.side is Side.EMPEROR:
            traitor_side[play.card.faction].append(play.strength)
    bonus = table.revolution_card.faction
    value = table.revolution_card.value
    return tuple(
        faction_strength(value if bonus is faction else 0, revolution_side[faction], traitor_side[faction])
        for faction in _FACTIONS
    )


def emperor_strength(table: WeekTable) -> int | None:
    """The emperor's strength, or ``None`` without an emperor card (rulings B, J).

    Emperor card + add-on card (if out) + every traitor card with its reinforcements.
    """
    if table.emperor_card is None:
        return None
    add_on = int(table.add_on) if table.add_on is not None else 0
    return emperor_strength_of(table.emperor_card.value, add_on, [p.strength for p in table.traitor_plays()])


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

    >>> from darkempire.rules.cards import EMPEROR_CARDS, REVOLUTION_CARDS, Faction
    >>> table = WeekTable(players=3, revolution_card=REVOLUTION_CARDS[Faction.STUDENTS],
    ...                   emperor_card=EMPEROR_CARDS[0])
    >>> score = score_table(table)
    >>> score.strength(Faction.STUDENTS), score.emperor_strength, score.emperor_scored
    (3, 8, True)
    """
    strengths = faction_strengths(table)
    emperor = emperor_strength(table)
    best = frozenset(_FACTIONS[i] for i in strongest(strengths))
    placing = placing_factions(strengths, emperor)
    support = seat_support(table)

    awards: list[TokenAward] = []
    placements: list[PlacementDue] = []
    for faction in sorted(best):
        leaders = sorted(supported_most([row[faction] for row in support]))
        for seat in leaders:
            awards.append(TokenAward(seat, faction, 2, AwardReason.MOST_SUPPORT))
        plays = list(table.revolution_plays(faction))
        for seat in sorted(highest_card_owners([(p.seat, p.strength) for p in plays])):
            awards.append(TokenAward(seat, faction, 1, AwardReason.HIGHEST_CARD))
        if faction in placing:
            for seat in leaders:
                candidates = tuple(sorted((p.card for p in plays if p.seat == seat), key=lambda c: c.id))
                placements.append(PlacementDue(seat, faction, candidates))
    awards.sort(key=lambda a: (a.seat, a.faction, a.reason is AwardReason.HIGHEST_CARD))
    placements.sort(key=lambda d: (d.seat, d.faction))
    return WeekScore(
        strengths=strengths,
        emperor_strength=emperor,
        strongest=best,
        support=support,
        awards=tuple(awards),
        tokens=seat_tokens(table.players, [(a.seat, a.points) for a in awards]),
        emperor_scored=emperor_card_scored(max(strengths), emperor),
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


def month_strongest(totals: Sequence[int]) -> frozenset[int]:
    """The strongest factions of the month: the highest month totals (rule 7.1, ruling L).

    Ties go to all tied factions, also when every total is 0: then all of them are the strongest, and every
    seat shares the 6 points (the rulebook withholds them only when nobody supported a strongest faction).

    :param totals: ``Q(f)`` by faction (points, 0 or more).
    :returns: the indices of the highest totals (ties: all); never empty.

    :pre: len(totals) > 0 and all(q >= 0 for q in totals)
    :post: len(__return__) > 0
    :post: all(totals[f] == max(totals) for f in __return__)
    :post: all(f in __return__ for f in range(len(totals)) if totals[f] == max(totals))
    :post: max(totals) > 0 or __return__ == frozenset(range(len(totals)))
    """
    return strongest(totals)


def six_point_split(supported_strongest: Sequence[bool]) -> tuple[int, ...]:
    """Each seat's share of the 6 monthly points (rule 7.2, ruling L).

    The seats whose support card names a strongest faction of the month share 6 points equally, rounded down
    (6, 3, 2, 1, 1 for 1 to 5 seats); the other seats get nothing.

    :param supported_strongest: by seat, whether its support card names a strongest faction of the month.
    :returns: points per seat.

    :pre: len(supported_strongest) <= 5
    :post: len(__return__) == len(supported_strongest)
    :post: sum(__return__) <= 6
    :post: len({b for b, hit in zip(__return__, supported_strongest) if hit}) <= 1
    :post: all(b > 0 if hit else b == 0 for b, hit in zip(__return__, supported_strongest))
    :post: not any(supported_strongest) or sum(__return__) >= 4
    """
    share = month_bonus_share(sum(1 for hit in supported_strongest if hit))
    return tuple(share if hit else 0 for hit in supported_strongest)


@attrs.frozen
class MonthScore:
    """The result of monthly scoring (rules 7.1-7.2, ruling L).

    :ivar month: the month scored, 1-3 (0 for a tally scored outside a game).
    :ivar support: each seat's revealed temporary support card.
    :ivar card_points: printed values of each faction's cards placed this
        month, indexed by faction.
    :ivar totals: month totals, indexed by faction: card points plus the month
        tokens of every seat supporting it.
    :ivar strongest: the faction(s) with the highest month total (ties: all
        of them; all five when every total is 0).
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
    """Score a month (rules 7.1 and 7.2, ruling L).

    :param placed: the faction cards placed to the score track this month.
    :param month_tokens: tokens (points) each seat won this month, by seat.
    :param support: each seat's temporary support faction, by seat.
    :param month: the month number, only recorded in the result.
    :returns: totals, strongest factions and each seat's share of 6 points.
    :raises InvalidArgumentError: if ``month_tokens`` and ``support`` differ in length,
        or a placed card is a reinforcement card.

    >>> from darkempire.rules.cards import HAND_CARDS, Faction
    >>> s = score_month_tally([HAND_CARDS[0]], [0, 2, 0], [Faction.WORKERS, Faction.WORKERS, Faction.STUDENTS])
    >>> s.totals[Faction.WORKERS], s.bonus
    (6, (3, 3, 0))
    """
    if len(month_tokens) != len(support):
        raise InvalidArgumentError(f"{len(month_tokens)} token counts for {len(support)} support cards")
    card_points = [0] * len(_FACTIONS)
    for card in placed:
        if card.faction is None:
            raise InvalidArgumentError(f"reinforcement card {card.id} cannot be on the score track (rule 5.5)")
        card_points[card.faction] += card.value
    totals = list(card_points)
    for seat, faction in enumerate(support):
        totals[faction] += month_tokens[seat]
    best = frozenset(_FACTIONS[i] for i in month_strongest(totals))
    return MonthScore(
        month=month,
        support=tuple(support),
        card_points=tuple(card_points),
        totals=tuple(totals),
        strongest=best,
        bonus=six_point_split([faction in best for faction in support]),
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


def judge(
    x: Sequence[int], c: Sequence[int], z: int, h: Sequence[bool]
) -> tuple[VerdictReason, frozenset[int], int | None]:
    """Decide the game on plain numbers (rules 8.2-8.5, ruling M); the names are the spec's symbols.

    :param x: ``X(f)``, the final totals by faction (5 entries, points).
    :param c: ``C(f)``, the card points by faction (5 entries, points), for the tie-break.
    :param z: ``Z``, the emperor's total (points).
    :param h: by faction, whether a seat holds its victor card (5 entries, 3 to 5 of them true).
    :returns: how the game was decided, the winning factions' indices (all held; more than one is a shared
        win), and the index of the faction that was too powerful, if any.

    :pre: len(x) == 5 and len(c) == 5 and len(h) == 5 and sum(1 for held in h if held) >= 3
    :post: len(__return__[1]) > 0 and all(h[w] for w in __return__[1])
    :post: (__return__[0] is VerdictReason.EMPEROR_VICTORY) == (z >= max(x))
    :post: (__return__[0] is VerdictReason.LEADER_TOO_POWERFUL) == (__return__[2] is not None)
    :post: __return__[2] is None or all(x[__return__[2]] - x[g] >= 15 for g in range(5) if g != __return__[2])
    :post: z >= max(x) or __return__[2] is not None or sorted(x)[3] > sorted(x)[4] - 15
    :post: __return__[2] not in __return__[1]
    :post: z < max(x) or all(x[w] <= x[f] for w in __return__[1] for f in range(5) if h[f])
    :post: z >= max(x) or all(x[w] >= x[f] for w in __return__[1] for f in range(5) if h[f] and f != __return__[2])
    :post: z < max(x) or all(c[w] <= c[f] for w in __return__[1] for f in range(5) if h[f] and x[f] == x[w])
    :post: z >= max(x) or all(c[w] >= c[f] for w in __return__[1] for f in range(5) if h[f] and x[f] == x[w])
    :post: all(f in __return__[1] for w in __return__[1] for f in range(5) if h[f] and (x[f], c[f]) == (x[w], c[w]))
    """
    top = max(x)
    held = [f for f in range(len(x)) if h[f]]
    too_powerful: int | None = None
    if z >= top:
        reason = VerdictReason.EMPEROR_VICTORY
        place = min(x[f] for f in held)
        tied = [f for f in held if x[f] == place]
        best_cards = min(c[f] for f in tied)
    else:
        leaders = [f for f in range(len(x)) if x[f] == top]
        reason = VerdictReason.REVOLUTION
        if len(leaders) == 1:
            runner_up = max(x[f] for f in range(len(x)) if f != leaders[0])
            if top - runner_up >= LEADER_MARGIN:
                too_powerful = leaders[0]
                reason = VerdictReason.LEADER_TOO_POWERFUL
        eligible = [f for f in held if f != too_powerful]
        place = max(x[f] for f in eligible)
        tied = [f for f in eligible if x[f] == place]
        best_cards = max(c[f] for f in tied)
    return reason, frozenset(f for f in tied if c[f] == best_cards), too_powerful


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
    :raises InvalidArgumentError: on inputs of the wrong length or repeated victor factions.

    :pre: len(card_points) == 5 and 3 <= len(victors) <= 5 and len(banked_tokens) == len(victors)
    :pre: len(set(victors)) == len(victors)
    :post: len(__return__.winners) > 0 and all(0 <= s < len(victors) for s in __return__.winners)
    :post: {victors[s] for s in __return__.winners} == __return__.winning_factions
    :post: all(__return__.totals[f] == card_points[f] + banked_tokens[s] for s, f in enumerate(victors))
    :post: all(__return__.totals[f] == card_points[f] for f in Faction if f not in victors)

    The rulebook's final example: Students 45, Mechandros 29, so the Students
    are 16 ahead and drop out; the Mechandros seat wins.

    >>> from darkempire.rules.cards import Faction as F
    >>> v = final_verdict([10, 5, 8, 29, 45], 30, [0, 0, 0], [F.STUDENTS, F.MECHANDROS, F.WORKERS])
    >>> v.reason.value, sorted(v.winners)
    ('leader too powerful', [1])
    """
    if len(card_points) != len(_FACTIONS):
        raise InvalidArgumentError(f"card_points needs {len(_FACTIONS)} entries, got {len(card_points)}")
    if len(banked_tokens) != len(victors):
        raise InvalidArgumentError(f"{len(banked_tokens)} token counts for {len(victors)} victor cards")
    if len(set(victors)) != len(victors):
        raise InvalidArgumentError("each faction's victor card is held by one seat at most (rule 2.3)")
    totals = list(card_points)
    for seat, faction in enumerate(victors):
        totals[faction] += banked_tokens[seat]
    reason, won, dropped = judge(totals, card_points, emperor_total, [f in victors for f in _FACTIONS])
    winning = frozenset(_FACTIONS[f] for f in won)
    return Verdict(
        reason=reason,
        winners=frozenset(seat for seat, f in enumerate(victors) if f in winning),
        winning_factions=winning,
        totals=tuple(totals),
        card_points=tuple(card_points),
        emperor_total=emperor_total,
        too_powerful=_FACTIONS[dropped] if dropped is not None else None,
        victors=tuple(victors),
    )
