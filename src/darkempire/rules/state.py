"""The game state: one immutable, hashable value (spec sections 2-8).

A :class:`GameState` holds everything: the phase, month and week, every pile,
every hand, the week's table, the score track, tokens, support choices, the
seats' hidden pending choices and the random generator's state. Two states
are equal exactly when they are the same moment of the same game.

States never change; the functions of :mod:`darkempire.rules.engine` return new
ones. Share them freely between threads.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

import attrs

from darkempire.rules.actions import Action
from darkempire.rules.cards import AddOnCard, EmperorCard, Faction, FactionCard, HandCard, RevolutionCard, add_on_for
from darkempire.rules.chance import Chance
from darkempire.rules.errors import ConfigError
from darkempire.rules.scoring import MonthScore, Verdict, WeekScore
from darkempire.rules.table import WeekTable

__all__ = [
    "DECISION_PHASES",
    "HAND_SIZE",
    "MONTHS",
    "STEPS",
    "WEEKS",
    "GameConfig",
    "GameState",
    "Phase",
    "ScoreTrack",
    "ScoredCard",
    "ScoredEmperorCard",
    "WeekRecord",
]

#: Months in a game (rule 3.1).
MONTHS = 3
#: Weeks in a month (rule 3.1).
WEEKS = 4
#: Play steps in a week (rule 4.2).
STEPS = 3
#: Cards in hand after the draft and after each re-organize (rules 2.6, 6.4).
HAND_SIZE = 7
#: Cards dealt to each seat at setup (rule 2.4).
DEAL_SIZE = 9


class Phase(enum.Enum):
    """Where the game stands, following the rulebook's order (spec section 9).

    Decision phases await the seats' simultaneous choices. The automatic
    phases (week scoring, month scoring) await nobody: every transition of
    :mod:`darkempire.rules.engine` passes straight through them, so they are only
    seen by code that calls :func:`~darkempire.rules.engine.score_week` or
    :func:`~darkempire.rules.engine.score_month` on a state built by hand.
    """

    #: Setup g): every seat passes 2 of its 9 cards to the next seat.
    DRAFT_PASS = "draft pass"
    #: Setup g): every seat discards 2 of its 9 cards.
    DRAFT_DISCARD = "draft discard"
    #: Month start: every seat secretly chooses a temporary support card.
    CHOOSE_SUPPORT = "choose support"
    #: The first play step of the week.
    PLAY_1 = "play 1"
    #: The second play step of the week.
    PLAY_2 = "play 2"
    #: The third play step of the week.
    PLAY_3 = "play 3"
    #: Automatic: weekly scoring of the completed table.
    WEEK_SCORING = "week scoring"
    #: The seats that supported a placed faction most choose which card to place.
    PLACEMENT = "placement"
    #: End of week: take back one card, discard, refill to 7.
    REORGANIZE = "reorganize"
    #: Automatic: monthly scoring after the fourth week.
    MONTH_SCORING = "month scoring"
    #: The game is over; the state holds the verdict.
    GAME_OVER = "game over"

    @property
    def step(self) -> int:
        """The play step, 1-3, of a play phase; 0 for every other phase."""
        return _STEPS.get(self, 0)

    @property
    def is_decision(self) -> bool:
        """Whether seats choose in this phase."""
        return self in DECISION_PHASES

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


_STEPS = {Phase.PLAY_1: 1, Phase.PLAY_2: 2, Phase.PLAY_3: 3}
#: The phases in which seats make choices.
DECISION_PHASES = frozenset(
    {
        Phase.DRAFT_PASS,
        Phase.DRAFT_DISCARD,
        Phase.CHOOSE_SUPPORT,
        Phase.PLAY_1,
        Phase.PLAY_2,
        Phase.PLAY_3,
        Phase.PLACEMENT,
        Phase.REORGANIZE,
    }
)
#: The play phase of each step.
PLAY_PHASES = (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3)


def _check_players(_instance: object, _attribute: object, players: int) -> None:
    if not isinstance(players, int) or isinstance(players, bool) or not 3 <= players <= 5:
        raise ConfigError(f"the game is for 3 to 5 players, not {players!r} (rule 2.1)")


@attrs.frozen
class GameConfig:
    """The options of a game (rule 2.1).

    :ivar players: number of seats, 3-5. Seats are numbered ``0 .. players - 1``.
    :raises ConfigError: for any other number.
    """

    players: int = attrs.field(default=4, validator=_check_players)

    @property
    def add_on(self) -> AddOnCard | None:
        """The add-on emperor card in play: "5 +" with 4, "10 +" with 5, none with 3 (rule 2.2)."""
        return add_on_for(self.players)


@attrs.frozen
class ScoredCard:
    """A faction card placed to the score track (rule 5.5).

    :ivar card: the faction card; it scores its printed value.
    :ivar seat: the seat that placed it.
    :ivar month: month placed, 1-3.
    :ivar week: week placed, 1-4.
    """

    card: FactionCard
    seat: int
    month: int
    week: int

    @property
    def faction(self) -> Faction:
        """The card's faction."""
        return self.card.faction


@attrs.frozen
class ScoredEmperorCard:
    """An emperor card placed to the score track (ruling F).

    :ivar card: the emperor card; it scores its printed value (8-13).
    :ivar month: month placed, 1-3.
    :ivar week: week placed, 1-4.
    """

    card: EmperorCard
    month: int
    week: int


@attrs.frozen
class ScoreTrack:
    """Every card placed to the score track so far (rules 5.5, 5.7, 8.1).

    :ivar faction_cards: faction cards in the order placed.
    :ivar emperor_cards: emperor cards in the order placed.
    """

    faction_cards: tuple[ScoredCard, ...] = ()
    emperor_cards: tuple[ScoredEmperorCard, ...] = ()

    def card_points(self) -> tuple[int, ...]:
        """Points of each faction's placed cards, indexed by faction (5 entries)."""
        points = [0] * len(Faction)
        for scored in self.faction_cards:
            points[scored.faction] += scored.card.value
        return tuple(points)

    @property
    def emperor_total(self) -> int:
        """Points of the placed emperor cards."""
        return sum(s.card.value for s in self.emperor_cards)

    def placed_in_month(self, month: int) -> tuple[FactionCard, ...]:
        """The faction cards placed in ``month`` (those "below the track", rule 7.1)."""
        return tuple(s.card for s in self.faction_cards if s.month == month)


@attrs.frozen
class WeekRecord:
    """A finished week, public to all seats.

    :ivar month: 1-3.
    :ivar week: 1-4.
    :ivar table: the table as scored, before any card was placed.
    :ivar score: the weekly scoring of that table.
    :ivar placed: faction cards placed to the score track, by seat order.
    """

    month: int
    week: int
    table: WeekTable
    score: WeekScore
    placed: tuple[ScoredCard, ...]


# Frozen like every value here, but with an instance dict rather than slots: attrs then fills the 24 fields by
# dict assignment instead of one object.__setattr__ call each, which makes building a state (every choice builds
# one) about twice as fast; reading a field costs a few nanoseconds more.
@attrs.frozen(slots=False)
class GameState:
    """A complete moment of a game. Build one with :func:`darkempire.rules.engine.deal`.

    Per-seat tuples are indexed by seat. Piles list their top card first.

    :ivar config: the game's options.
    :ivar phase: the current :class:`Phase`.
    :ivar month: 1-3.
    :ivar week: 1-4 during a month's weeks; 0 before the month's first week.
    :ivar hands: each seat's hand, sorted by card id.
    :ivar draw_pile: face-down hand cards to deal from.
    :ivar discard_pile: discarded hand cards, most recent last.
    :ivar victors: each seat's secret victor faction.
    :ivar support: each seat's temporary support faction this month (``None``
        until chosen).
    :ivar support_used: each seat's support factions revealed in earlier months.
    :ivar revolution_pile: this month's face-down revolution cards.
    :ivar revolution_reserve: revolution cards out of this month's pile
        (the surplus and the revealed ones laid aside).
    :ivar emperor_pile: this month's face-down emperor cards.
    :ivar emperor_reserve: unscored emperor cards out of this month's pile.
    :ivar table: this week's table, or ``None`` outside the weeks.
    :ivar week_score: this week's scoring, once made.
    :ivar score_track: every card placed to the score track.
    :ivar month_tokens: tokens won this month (on the support sets), in points.
    :ivar banked_tokens: tokens moved to the victor cards, in points.
    :ivar pending: each seat's hidden choice for the current step, if made.
    :ivar history: the finished weeks.
    :ivar month_scores: the finished monthly scorings.
    :ivar verdict: the final verdict once the game is over.
    :ivar chance: the random generator's state.
    """

    config: GameConfig
    phase: Phase
    month: int
    week: int
    hands: tuple[tuple[HandCard, ...], ...]
    draw_pile: tuple[HandCard, ...]
    discard_pile: tuple[HandCard, ...]
    victors: tuple[Faction, ...]
    support: tuple[Faction | None, ...]
    support_used: tuple[frozenset[Faction], ...]
    revolution_pile: tuple[RevolutionCard, ...]
    revolution_reserve: tuple[RevolutionCard, ...]
    emperor_pile: tuple[EmperorCard, ...]
    emperor_reserve: tuple[EmperorCard, ...]
    table: WeekTable | None
    week_score: WeekScore | None
    score_track: ScoreTrack
    month_tokens: tuple[int, ...]
    banked_tokens: tuple[int, ...]
    pending: tuple[Action | None, ...]
    history: tuple[WeekRecord, ...]
    month_scores: tuple[MonthScore, ...]
    verdict: Verdict | None
    chance: Chance

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.config.players

    @property
    def seats(self) -> range:
        """The seat numbers, ``range(players)``."""
        return range(self.config.players)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended with a verdict."""
        return self.phase is Phase.GAME_OVER

    def hand_cards(self) -> Iterator[HandCard]:
        """Every hand card wherever it is: piles, hands, pending choices excluded,
        the table and the score track. Each of the 75 appears exactly once."""
        yield from self.draw_pile
        yield from self.discard_pile
        for hand in self.hands:
            yield from hand
        if self.table is not None:
            yield from self.table.cards()
        for scored in self.score_track.faction_cards:
            yield scored.card
