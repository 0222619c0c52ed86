"""The balance figures of a set of simulated games, computed from their per-game results (rules 8.1-8.5).

:func:`figures` turns the games of one player count (:class:`~darkempire.simulation.GameResult`, with their
card points and victor factions) into :class:`Figures`: the outcome shares, the win share of each seat and
of each faction, how often the 15-point rule (8.4) fires, and the winners' points split into tokens and card
points, each with a 95% interval (:mod:`darkempire.balance.stats`).

Counting: a shared win (8.5) is one game under the outcome :data:`~darkempire.simulation.SHARED_WIN`, and
every one of its winners counts as winning for its seat and its faction, and as a winner in the points
figures. A faction's win share is over the games in which a seat held it (an unheld faction never wins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from darkempire.balance.stats import Mean, Share, bootstrap_mean
from darkempire.rules.cards import Faction
from darkempire.simulation import OUTCOMES, GameResult

__all__ = ["Figures", "ResultsError", "WinnerPoints", "figures", "winner_points"]


class ResultsError(ValueError):
    """Results that cannot be summed up: of another player count, or built without card points or victors."""


@attrs.frozen
class WinnerPoints:
    """Where one winner's points came from: its faction's final total split as rule 8.1 adds it up.

    :ivar seat: the winning seat.
    :ivar faction: its victor faction.
    :ivar cards: the faction's points from scored cards.
    :ivar tokens: the seat's banked tokens.
    """

    seat: int
    faction: Faction
    cards: int
    tokens: int

    @property
    def total(self) -> int:
        """The faction's final total: cards plus tokens (8.1)."""
        return self.cards + self.tokens


@attrs.frozen
class Figures:
    """The balance figures of the games of one player count.

    :ivar players: seats per game.
    :ivar games: games counted.
    :ivar bots: each seat's bot kind.
    :ivar outcomes: each of :data:`~darkempire.simulation.OUTCOMES`' share of the games (they add up to all).
    :ivar seats: each seat's win share over all games.
    :ivar factions: each faction's win share over the games in which a seat held it.
    :ivar rule_15: the share of games in which the 15-point rule (8.4) made the leader drop out.
    :ivar rule_15_held: of those games, the share whose leader was held by a seat (a seat lost the win by
        leading too far; an unheld leader costs nobody anything).
    :ivar winner_total: the winners' final totals, in points.
    :ivar winner_tokens: the winners' banked tokens, in points.
    :ivar winner_cards: the winners' factions' card points.
    :ivar winner_token_share: the winners' tokens as a share of their totals (0-1), mean per winner.
    :ivar emperor_total: the emperor's total, in points.
    :ivar faction_total: every faction's final total (five per game), in points.
    :ivar results: the games, in order (for the distributions the plots draw).
    """

    players: int
    games: int
    bots: tuple[str, ...]
    outcomes: Mapping[str, Share]
    seats: tuple[Share, ...]
    factions: Mapping[Faction, Share]
    rule_15: Share
    rule_15_held: Share
    winner_total: Mean
    winner_tokens: Mean
    winner_cards: Mean
    winner_token_share: Mean
    emperor_total: Mean
    faction_total: Mean
    results: tuple[GameResult, ...] = attrs.field(repr=False)

    @property
    def winners(self) -> tuple[WinnerPoints, ...]:
        """Every winner of every game, in game and seat order."""
        return tuple(w for result in self.results for w in winner_points(result))

    @property
    def leads(self) -> tuple[int, ...]:
        """In each revolution (the emperor beaten, 8.3), how far the lone leader was ahead of the next faction
        (0 for a shared lead): the 15-point rule fires at 15 or more."""
        leads = []
        for result in self.results:
            if result.emperor_total < max(result.totals):
                first, second = sorted(result.totals, reverse=True)[:2]
                leads.append(first - second)
        return tuple(leads)


def winner_points(result: GameResult) -> tuple[WinnerPoints, ...]:
    """The winners of one game with their points split into cards and tokens (8.1).

    :raises ResultsError: the result was built without card points or victors.
    """
    if not result.card_points or not result.victors:
        raise ResultsError(f"game {result.seed}: the result has no card points or victors to split its points")
    return tuple(
        WinnerPoints(seat, result.victors[seat], result.card_points[result.victors[seat]], result.tokens[seat])
        for seat in result.winners
    )


def figures(players: int, bots: Sequence[str], results: Sequence[GameResult], *, seed: int = 0) -> Figures:
    """The balance figures of ``results``, games of ``players`` seats played by ``bots`` (one kind per seat).

    :param seed: seeds the bootstrap of the means, so the same results give the same intervals.
    :raises ResultsError: a result of another player count, or without card points or victors.
    """
    if len(bots) != players:
        raise ResultsError(f"{len(bots)} bot kinds for {players} seats")
    for result in results:
        if not result.card_points or not result.victors:
            raise ResultsError(f"game {result.seed}: the result has no card points or victors to split its points")
        if len(result.tokens) != players or len(result.victors) != players:
            raise ResultsError(f"game {result.seed} is not a {players}-player game with its victors")
    games = len(results)
    outcome_counts = dict.fromkeys(OUTCOMES, 0)
    seat_wins = [0] * players
    held = dict.fromkeys(Faction, 0)
    faction_wins = dict.fromkeys(Faction, 0)
    fired = fired_held = 0
    winners: list[WinnerPoints] = []
    for result in results:
        outcome_counts[result.outcome] += 1
        for faction in result.victors:
            held[faction] += 1
        if result.too_powerful is not None:
            fired += 1
            fired_held += result.too_powerful in result.victors
        for winner in winner_points(result):
            winners.append(winner)
            seat_wins[winner.seat] += 1
            faction_wins[winner.faction] += 1
    return Figures(
        players=players,
        games=games,
        bots=tuple(bots),
        outcomes={name: Share.of(count, games) for name, count in outcome_counts.items()},
        seats=tuple(Share.of(wins, games) for wins in seat_wins),
        factions={f: Share.of(faction_wins[f], held[f]) for f in Faction},
        rule_15=Share.of(fired, games),
        rule_15_held=Share.of(fired_held, fired),
        winner_total=bootstrap_mean([w.total for w in winners], seed=seed),
        winner_tokens=bootstrap_mean([w.tokens for w in winners], seed=seed),
        winner_cards=bootstrap_mean([w.cards for w in winners], seed=seed),
        winner_token_share=bootstrap_mean([w.tokens / w.total if w.total else 0.0 for w in winners], seed=seed),
        emperor_total=bootstrap_mean([r.emperor_total for r in results], seed=seed),
        faction_total=bootstrap_mean([t for r in results for t in r.totals], seed=seed),
        results=tuple(results),
    )
