"""Weekly scoring, monthly scoring and the final verdict on the kernel's ints (spec sections 5, 7, 8).

The same formulas as :mod:`darkempire.rules.scoring`, written once more on plain lists so that a week costs
one pass over its plays: strengths ``S(f)`` (rule 5.1), the emperor's ``E`` (5.2), each seat's support
``U(s, f)`` (5.3), the tokens (5.4), the placements due (5.5, 5.6) and the emperor card scored (5.7). The
differential tests hold these to the reference's results at every step; only the weekly scoring's record
(:class:`~darkempire.rules.scoring.WeekScore`) is left to the reference's
:func:`~darkempire.rules.scoring.score_table`, which :func:`darkempire.kernel.convert.snapshot` calls on
the recorded table.
"""

from __future__ import annotations

from darkempire.kernel import encoding as enc
from darkempire.kernel.mutable import Record, Table
from darkempire.rules.scoring import LEADER_MARGIN, MONTH_BONUS, MonthScore, Verdict, VerdictReason


__all__ = ["judge", "score_month", "score_week", "week_end_phase"]

_MONTHS = 3
_WEEKS = 4
_BONUS = enc.REINFORCEMENT_BONUS
_FACTIONS = range(5)


def score_week(k: Table) -> None:
    """Weekly scoring of the completed table (rules 5.1-5.7, rulings B-F, J): tokens to the month tokens,
    the placements due, the emperor card to the score track when ``E >= S*``; then placement, or the week's
    end when nothing is due."""
    n = k.n
    strengths = [0] * 5
    strengths[k.table_revolution] += enc.REVOLUTION_CARD_VALUE
    support = [0] * (5 * n)
    high = [0] * 5
    high_seats = [0] * 5  # bit masks of the seats owning a highest revolution-side card
    traitors = 0
    for seat, card, side, _, attached in k.plays:
        faction = enc.CARD_FACTION[card]
        value = enc.CARD_VALUE[card] + _BONUS * len(attached)
        if side:
            strengths[faction] -= value
            traitors += value
            continue
        strengths[faction] += value
        support[5 * seat + faction] += value
        if value > high[faction]:
            high[faction], high_seats[faction] = value, 1 << seat
        elif value == high[faction]:
            high_seats[faction] |= 1 << seat
    top = max(strengths)
    emperor = k.table_emperor
    strength = enc.EMPEROR_VALUE[emperor] + k.add_on + traitors if emperor >= 0 else None
    placing = strength is None or strength <= top
    tokens = k.month_tokens
    placements: list[tuple[int, int, tuple[int, ...]]] = []
    for faction in _FACTIONS:
        if strengths[faction] != top:
            continue
        most = max(support[faction::5])
        for seat in range(n):
            if most > 0 and support[5 * seat + faction] == most:
                tokens[seat] += 2
                if placing:
                    placements.append((seat, faction, _candidates(k, seat, faction)))
            if high_seats[faction] >> seat & 1:
                tokens[seat] += 1
    placements.sort()
    k.history.append(Record(k.month, k.week, tuple(k.plays), k.table_revolution, emperor, tuple(k.idle)))
    if strength is not None and strength >= top:
        k.emperor_track.append((emperor, k.month, k.week))
        k.table_emperor = -1
    k.scored = True
    k.placements = placements
    k.phase = enc.PLACEMENT if placements else week_end_phase(k)


def _candidates(k: Table, seat: int, faction: int) -> tuple[int, ...]:
    """``seat``'s revolution-side cards of ``faction`` on the table, in id order (rule 5.6)."""
    return tuple(sorted(p[1] for p in k.plays if p[0] == seat and not p[2] and enc.CARD_FACTION[p[1]] == faction))


def score_month(k: Table) -> None:
    """Monthly scoring (rules 7.1-7.3, ruling L): this month's placed cards and the supporters' tokens make
    the month totals; the seats supporting a strongest faction share 6 points; every month token is banked
    and the support cards are used up. After the third month the verdict (rule 8); otherwise the next month
    (its piles are :func:`darkempire.kernel.steps.advance`'s to shuffle)."""
    n, month = k.n, k.month
    card_points = [0] * 5
    for card, _, placed_month, _ in k.faction_track:
        if placed_month == month:
            card_points[enc.CARD_FACTION[card]] += enc.CARD_VALUE[card]
    totals = list(card_points)
    for seat in range(n):
        totals[k.support[seat]] += k.month_tokens[seat]
    top = max(totals)
    hits = [totals[k.support[seat]] == top for seat in range(n)]
    share = MONTH_BONUS // sum(hits) if any(hits) else 0
    bonus = tuple(share if hit else 0 for hit in hits)
    k.month_scores.append(
        MonthScore(
            month=month,
            support=tuple(enc.FACTIONS[f] for f in k.support),
            card_points=tuple(card_points),
            totals=tuple(totals),
            strongest=frozenset(enc.FACTIONS[f] for f in _FACTIONS if totals[f] == top),
            bonus=bonus,
        )
    )
    for seat in range(n):
        k.banked[seat] += k.month_tokens[seat] + bonus[seat]
        k.used[seat] |= 1 << k.support[seat]
    k.month_tokens = [0] * n
    k.support = [-1] * n
    if month == _MONTHS:
        k.phase = enc.GAME_OVER
        k.verdict = judge(k)
        return
    k.month += 1
    k.week = 0
    k.phase = enc.CHOOSE_SUPPORT


def judge(k: Table) -> Verdict:
    """The final verdict (rules 8.1-8.5, ruling M): each faction's cards plus its holder's banked tokens;
    the emperor wins at or above the top total (the lowest held faction wins), else the highest held faction
    does, unless a lone leader is 15 or more ahead (it drops out); ties go to the card points, then shared."""
    card_points = [0] * 5
    for card, _, _, _ in k.faction_track:
        card_points[enc.CARD_FACTION[card]] += enc.CARD_VALUE[card]
    totals = list(card_points)
    for seat, faction in enumerate(k.victors):
        totals[faction] += k.banked[seat]
    emperor_total = sum(enc.EMPEROR_VALUE[e] for e, _, _ in k.emperor_track)
    top = max(totals)
    held = list(k.victors)
    too_powerful = -1
    if emperor_total >= top:
        reason = VerdictReason.EMPEROR_VICTORY
        place = min(totals[f] for f in held)
        tied = [f for f in held if totals[f] == place]
        cards = min(card_points[f] for f in tied)
    else:
        reason = VerdictReason.REVOLUTION
        leaders = [f for f in _FACTIONS if totals[f] == top]
        if len(leaders) == 1 and top - max(totals[f] for f in _FACTIONS if f != leaders[0]) >= LEADER_MARGIN:
            too_powerful = leaders[0]
            reason = VerdictReason.LEADER_TOO_POWERFUL
        eligible = [f for f in held if f != too_powerful]
        place = max(totals[f] for f in eligible)
        tied = [f for f in eligible if totals[f] == place]
        cards = max(card_points[f] for f in tied)
    won = {f for f in tied if card_points[f] == cards}
    return Verdict(
        reason=reason,
        winners=frozenset(seat for seat, f in enumerate(k.victors) if f in won),
        winning_factions=frozenset(enc.FACTIONS[f] for f in won),
        totals=tuple(totals),
        card_points=tuple(card_points),
        emperor_total=emperor_total,
        too_powerful=enc.FACTIONS[too_powerful] if too_powerful >= 0 else None,
        victors=tuple(enc.FACTIONS[f] for f in k.victors),
    )


def week_end_phase(k: Table) -> int:
    """Re-organize, or monthly scoring after the game's last week (ruling O)."""
    return enc.MONTH_SCORING if k.month == _MONTHS and k.week == _WEEKS else enc.REORGANIZE
