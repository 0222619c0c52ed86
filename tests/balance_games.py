"""Hand-built game results for the balance tests: every count of their figures is known (issue 15)."""

from __future__ import annotations

from darkempire.rules.cards import Faction
from darkempire.rules.scoring import VerdictReason
from darkempire.simulation import GameResult

__all__ = ["C", "GAMES", "M", "S", "ST", "W", "game"]

W, C, S, M, ST = Faction  # Workers, Calendrical Order, Suffragettes, Mechandros, Students


def game(
    seed: int,
    reason: VerdictReason,
    winners: tuple[int, ...],
    victors: tuple[Faction, ...],
    cards: tuple[int, int, int, int, int],
    tokens: tuple[int, ...],
    emperor: int,
    too_powerful: Faction | None = None,
) -> GameResult:
    """A result whose totals are its cards plus its holders' tokens, as rule 8.1 adds them up."""
    totals = list(cards)
    for seat, faction in enumerate(victors):
        totals[faction] += tokens[seat]
    return GameResult(seed, reason, winners, tuple(totals), emperor, tokens, cards, victors, too_powerful)


#: Four 3-player games, one of each outcome. Seats hold (Workers, Suffragettes, Students) in games 1-3.
GAMES = (
    # Emperor victory: lowest held total wins: Workers 2+3=5 (seat 0).
    game(1, VerdictReason.EMPEROR_VICTORY, (0,), (W, S, ST), (2, 9, 10, 4, 8), (3, 6, 4), emperor=40),
    # Revolution: Students 20+10=30 lead (seat 2), 2 ahead of the unheld Calendrical Order's 28.
    game(2, VerdictReason.REVOLUTION, (2,), (W, S, ST), (10, 28, 12, 5, 20), (6, 4, 10), emperor=12),
    # Too powerful: Suffragettes 40+20=60 held by seat 1 drop out (60-28=32); Workers 20+8=28 win (seat 0).
    game(3, VerdictReason.LEADER_TOO_POWERFUL, (0,), (W, S, ST), (20, 10, 40, 3, 12), (8, 20, 5), 9, S),
    # Shared revolution: seats 1 (Mechandros 20+10) and 2 (Workers 24+6) share the lead at 30; the figures
    # count the winners the result names.
    game(4, VerdictReason.REVOLUTION, (1, 2), (C, M, W), (24, 5, 1, 20, 3), (7, 10, 6), emperor=11),
)
