"""An independent oracle: weekly scoring, monthly scoring and the verdict, restated from spec/ (issue 3, item 5).

Each function below is the formula of one rule of ``spec/darkempire/``, written out as directly as Python allows,
with the rule's symbols as names (``S``, ``E``, ``U``, ``M``, ``H``, ``T``, ``Q``, ``K``, ``X``, ``Z``). It shares
no code with the engine: it imports only the value types that hold its inputs (cards, sides and the week's
table) and reads their fields; every number the rules define (3 for a revolution card or a reinforcement card,
the add-on value, the six-point split, the 15-point margin) is written here again from the spec.

The results are plain tuples, dicts and frozensets, so the tests compare them with the engine's field by field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from darkempire.rules.actions import Side
from darkempire.rules.cards import AddOnCard, Faction, HandCard
from darkempire.rules.table import Play, WeekTable

#: The five factions in the spec's fixed order (rule 1.1 and the conventions of spec/darkempire/rules.md).
FACTIONS: tuple[Faction, ...] = (
    Faction.WORKERS,
    Faction.CALENDRICAL_ORDER,
    Faction.SUFFRAGETTES,
    Faction.MECHANDROS,
    Faction.STUDENTS,
)

#: A revolution card is worth 3 points to its faction (rule 1.4).
REVOLUTION_CARD_POINTS = 3
#: Each reinforcement card adds 3 to its target (rule 4.6).
REINFORCEMENT_POINTS = 3
#: The add-on value ``a`` (rule 2.2): "5 +" adds 5, "10 +" adds 10.
ADD_ON_POINTS = {AddOnCard.FIVE_PLUS: 5, AddOnCard.TEN_PLUS: 10}
#: ``share(k)`` of rule 7.2, as the spec's table states it.
SHARE = {1: 6, 2: 3, 3: 2, 4: 1, 5: 1}
#: The too-powerful margin of rule 8.4, in points.
MARGIN = 15


# --------------------------------------------------------------------------- weekly scoring (section 5)


@dataclass(frozen=True)
class OracleWeek:
    """Weekly scoring by the spec's formulas.

    :ivar S: ``S(f)`` per faction, in faction order (rule 5.1), points.
    :ivar E: the emperor's strength ``E`` (rule 5.2), or ``None`` with no emperor card.
    :ivar F_star: the strongest factions ``F*`` (rule 5.1).
    :ivar U: ``U[s][f]``, support of seat ``s`` for faction ``f`` (rule 5.3), points.
    :ivar awards: ``(seat, faction, points)`` for every token award (rule 5.4), sorted.
    :ivar T: ``T(s)`` per seat (rule 5.4), points.
    :ivar emperor_scored: whether the emperor card goes to the score track (rule 5.7).
    :ivar placements: ``(seat, faction, candidate card ids)`` for every card due on the score track (5.5, 5.6),
        sorted by seat and faction; the ids are sorted.
    """

    S: tuple[int, ...]
    E: int | None
    F_star: frozenset[Faction]
    U: tuple[tuple[int, ...], ...]
    awards: tuple[tuple[int, Faction, int], ...]
    T: tuple[int, ...]
    emperor_scored: bool
    placements: tuple[tuple[int, Faction, tuple[int, ...]], ...]


def w(p: Play) -> int:
    """``w(p) = printed(p) + 3 · (number of reinforcement cards attached to p)``, points (section 5 preamble)."""
    return p.card.value + REINFORCEMENT_POINTS * len(p.reinforcements)


def faction_of(p: Play) -> Faction:
    """``f(p)``: the faction printed on a played faction card."""
    assert p.card.faction is not None, "a play on the table is a faction card (rule 4.3)"
    return p.card.faction


def oracle_week(table: WeekTable) -> OracleWeek:
    """Score ``table`` by rules 5.1 to 5.7 (rulings R-B to R-F, R-J)."""
    n = table.players
    seats = range(n)
    P = table.plays
    rev = [p for p in P if p.side is Side.REVOLUTION]
    Tr = [p for p in P if p.side is Side.EMPEROR]

    def Rev(f: Faction) -> list[Play]:
        return [p for p in rev if faction_of(p) == f]

    def Tr_of(f: Faction) -> list[Play]:
        return [p for p in Tr if faction_of(p) == f]

    # 5.1: S(f) = 3·[r is f's revolution card] + Σ_{Rev(f)} w(p) − Σ_{Tr(f)} w(p)
    r = table.revolution_card.faction
    S = {
        f: REVOLUTION_CARD_POINTS * (1 if r == f else 0) + sum(w(p) for p in Rev(f)) - sum(w(p) for p in Tr_of(f))
        for f in FACTIONS
    }
    S_star = max(S.values())
    F_star = frozenset(f for f in FACTIONS if S[f] == S_star)

    # 5.2: E = printed(e) + a + Σ_{Tr} w(p), only in a week with an emperor card (R-J)
    E: int | None = None
    if table.emperor_card is not None:
        a = ADD_ON_POINTS[table.add_on] if table.add_on is not None else 0
        E = table.emperor_card.value + a + sum(w(p) for p in Tr)

    # 5.3: U(s, f) = Σ_{p ∈ Rev(f), owner(p) = s} w(p); M(f) = max_s U(s, f)
    U = {(s, f): sum(w(p) for p in Rev(f) if p.seat == s) for s in seats for f in FACTIONS}
    M = {f: max(U[s, f] for s in seats) for f in FACTIONS}

    def supported_most(s: int, f: Faction) -> bool:
        return U[s, f] == M[f] and M[f] > 0

    # 5.4: for each f ∈ F*: 2 to each seat that supported f most, 1 to each owner of a card of value H(f)
    awards: list[tuple[int, Faction, int]] = []
    for f in F_star:
        for s in seats:
            if supported_most(s, f):
                awards.append((s, f, 2))
        if Rev(f):
            H = max(w(p) for p in Rev(f))
            for s in seats:
                if any(p.seat == s and w(p) == H for p in Rev(f)):
                    awards.append((s, f, 1))
    T = tuple(sum(points for seat, _, points in awards if seat == s) for s in seats)

    # 5.5 / 5.6: with no emperor card or S* ≥ E, every seat that supported f ∈ F* most places one of its
    # own revolution-side cards of f (it chooses which: the candidates).
    placements: list[tuple[int, Faction, tuple[int, ...]]] = []
    if E is None or S_star >= E:
        for f in F_star:
            for s in seats:
                if supported_most(s, f):
                    placements.append((s, f, tuple(sorted(p.card.id for p in Rev(f) if p.seat == s))))

    # 5.7: the emperor card is scored when the week has one and E ≥ S*
    emperor_scored = E is not None and E >= S_star

    return OracleWeek(
        S=tuple(S[f] for f in FACTIONS),
        E=E,
        F_star=F_star,
        U=tuple(tuple(U[s, f] for f in FACTIONS) for s in seats),
        awards=tuple(sorted(awards)),
        T=T,
        emperor_scored=emperor_scored,
        placements=tuple(sorted(placements)),
    )


# --------------------------------------------------------------------------- monthly scoring (section 7)


@dataclass(frozen=True)
class OracleMonth:
    """Monthly scoring by the spec's formulas.

    :ivar C_m: ``C_m(f)`` per faction: printed values of the cards placed this month (rule 7.1), points.
    :ivar Q: ``Q(f)`` per faction: the month totals (rule 7.1), points.
    :ivar F_m: the strongest factions of the month, all five when every total is 0 (rule 7.1, R-L).
    :ivar bonus: ``bonus(s)`` per seat (rule 7.2), points.
    """

    C_m: tuple[int, ...]
    Q: tuple[int, ...]
    F_m: frozenset[Faction]
    bonus: tuple[int, ...]


def oracle_month(placed: Iterable[HandCard], t: Sequence[int], sup: Sequence[Faction]) -> OracleMonth:
    """Score a month by rules 7.1 and 7.2 (ruling R-L).

    :param placed: the faction cards placed to the score track this month.
    :param t: ``t(s)``, each seat's month tokens, points.
    :param sup: ``sup(s)``, each seat's temporary support faction.
    """
    cards = list(placed)
    seats = range(len(sup))
    # 7.1: Q(f) = C_m(f) + Σ_{s : sup(s) = f} t(s)
    C_m = {f: sum(c.value for c in cards if c.faction == f) for f in FACTIONS}
    Q = {f: C_m[f] + sum(t[s] for s in seats if sup[s] == f) for f in FACTIONS}
    top = max(Q.values())
    F_m = frozenset(f for f in FACTIONS if Q[f] == top)
    # 7.2: K = {s : sup(s) ∈ F_m}; bonus(s) = share(|K|) · [s ∈ K]
    K = [s for s in seats if sup[s] in F_m]
    bonus = tuple(SHARE[len(K)] if s in K else 0 for s in seats)
    return OracleMonth(
        C_m=tuple(C_m[f] for f in FACTIONS), Q=tuple(Q[f] for f in FACTIONS), F_m=F_m, bonus=bonus
    )


# --------------------------------------------------------------------------- final scoring (section 8)


@dataclass(frozen=True)
class OracleVerdict:
    """The final judgement by the spec's rules.

    :ivar X: ``X(f)`` per faction: final totals (rule 8.1), points.
    :ivar outcome: ``"emperor"`` (8.2), ``"revolution"`` (8.3) or ``"too powerful"`` (8.4: a revolution in
        which the lone leader dropped out).
    :ivar too_powerful: the faction ``L`` that dropped out (8.4), or ``None``.
    :ivar winning_factions: the held factions that win (8.2, 8.3, 8.5).
    :ivar winners: the seats holding them.
    """

    X: tuple[int, ...]
    outcome: str
    too_powerful: Faction | None
    winning_factions: frozenset[Faction]
    winners: frozenset[int]


def oracle_verdict(C: Sequence[int], Z: int, B: Sequence[int], victors: Sequence[Faction]) -> OracleVerdict:
    """Judge the game by rules 8.1 to 8.5 (ruling R-M).

    :param C: ``C(f)`` per faction in faction order: printed values of the faction's scored cards, points.
    :param Z: the emperor's total, points.
    :param B: each seat's banked tokens, points.
    :param victors: each seat's victor faction (distinct).
    """
    holder = {victors[s]: s for s in range(len(victors))}
    held = set(holder)
    # 8.1: X(f) = C(f) + B(holder of f), X(f) = C(f) if f is unheld; X* over all five factions
    X = {f: C[f] + (B[holder[f]] if f in holder else 0) for f in FACTIONS}
    X_star = max(X.values())

    L: Faction | None = None
    if Z >= X_star:
        # 8.2: the held faction with the lowest total; 8.5: then fewer card points
        outcome = "emperor"
        place = min(X[f] for f in held)
        tied = {f for f in held if X[f] == place}
        best = min(C[f] for f in tied)
    else:
        # 8.4: exactly one faction at X*, at least 15 ahead of every other faction (held or unheld)
        leaders = [f for f in FACTIONS if X[f] == X_star]
        outcome = "revolution"
        if len(leaders) == 1:
            leader = leaders[0]
            if all(X[leader] - X[g] >= MARGIN for g in FACTIONS if g != leader):
                L = leader
                outcome = "too powerful"
        # 8.3: the held faction, not too powerful, with the highest total; 8.5: then more card points
        eligible = {f for f in held if f != L}
        place = max(X[f] for f in eligible)
        tied = {f for f in eligible if X[f] == place}
        best = max(C[f] for f in tied)
    winning = frozenset(f for f in tied if C[f] == best)
    return OracleVerdict(
        X=tuple(X[f] for f in FACTIONS),
        outcome=outcome,
        too_powerful=L,
        winning_factions=winning,
        winners=frozenset(holder[f] for f in winning),
    )
