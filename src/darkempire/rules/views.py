"""What one seat may see: player views and the spectator view (spec section 9.4).

A :class:`PlayerView` holds the seat's own hand, victor card, support choice
and pending choice, and all public information (the table, the score track,
tokens, hand and pile sizes, revealed history). It never holds another
seat's hand, victor card, unrevealed support choice or pending choice, nor
any pile order or the random generator's state, so a view can be sent to a
client or given to a bot as it is.
"""

from __future__ import annotations

import itertools
import operator

import attrs

from darkempire.rules.actions import Action
from darkempire.rules.cards import AddOnCard, Faction, HandCard
from darkempire.rules.engine import check_shape, awaited_seats, check_seat
from darkempire.rules.errors import InvalidArgumentError, WrongSeatError
from darkempire.rules.scoring import MonthScore, Verdict, WeekScore
from darkempire.rules.state import GameState, Phase, ScoreTrack, WeekRecord
from darkempire.rules.table import WeekTable
from tablekit.errors import KitError

__all__ = ["PlayerView", "player_view", "spectator_view"]


# An instance dict rather than slots, like GameState's: a view is built for every decision, and attrs fills a
# dict class's 26 fields by dict assignment, not one object.__setattr__ call each.
@attrs.frozen(slots=False)
class PlayerView:
    """One seat's knowledge of a game at one moment; ``seat is None`` for a spectator.

    Per-seat tuples are indexed by seat.

    :ivar seat: the viewing seat, or ``None`` for the spectator view.
    :ivar players: number of seats.
    :ivar phase: the current phase.
    :ivar month: 1-3.
    :ivar week: 1-4, or 0 before the month's first week.
    :ivar add_on: the game's add-on emperor card, if any (public at setup).
    :ivar hand: the seat's own hand, sorted by id (empty for a spectator).
    :ivar victor: the seat's own victor faction (``None`` for a spectator).
    :ivar support: the seat's own temporary support this month, if chosen.
    :ivar pending: the seat's own hidden choice in the current step, if made.
    :ivar awaited: seats whose choice the current step still waits for.
    :ivar chosen: seats that have made a hidden choice in the current step.
    :ivar support_used: each seat's support cards revealed in earlier months.
    :ivar hand_sizes: number of cards in each seat's hand.
    :ivar draw_pile_size: cards in the draw pile.
    :ivar discard_pile_size: cards in the discard pile.
    :ivar revolution_pile_size: face-down revolution cards left this month.
    :ivar emperor_pile_size: face-down emperor cards left this month.
    :ivar table: this week's table, as revealed.
    :ivar week_score: this week's scoring, once made.
    :ivar score_track: every card placed to the score track.
    :ivar month_tokens: each seat's tokens this month, in points (public).
    :ivar banked_tokens: each seat's banked tokens, in points (public).
    :ivar history: the finished weeks.
    :ivar month_scores: the finished monthly scorings (support cards revealed).
    :ivar verdict: the final verdict (all victor cards revealed), once the game is over.
    """

    seat: int | None
    players: int
    phase: Phase
    month: int
    week: int
    add_on: AddOnCard | None
    hand: tuple[HandCard, ...]
    victor: Faction | None
    support: Faction | None
    pending: Action | None
    awaited: frozenset[int]
    chosen: frozenset[int]
    support_used: tuple[frozenset[Faction], ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discard_pile_size: int
    revolution_pile_size: int
    emperor_pile_size: int
    table: WeekTable | None
    week_score: WeekScore | None
    score_track: ScoreTrack
    month_tokens: tuple[int, ...]
    banked_tokens: tuple[int, ...]
    history: tuple[WeekRecord, ...]
    month_scores: tuple[MonthScore, ...]
    verdict: Verdict | None


def _view(state: GameState, seat: int | None, awaited: frozenset[int] | None = None) -> PlayerView:
    pending = state.pending
    config = state.config
    hands = state.hands
    hand: tuple[HandCard, ...]
    if seat is None:
        hand, victor, support, own = (), None, None, None
    else:
        hand, victor, support, own = hands[seat], state.victors[seat], state.support[seat], pending[seat]
    # The seats whose pending choice is not None, told apart by identity in C (no action's __eq__ runs).
    chosen = frozenset(itertools.compress(range(len(pending)), map(operator.is_not, pending, itertools.repeat(None))))
    # Positionally, in the order of the fields: the view is built at every decision.
    return PlayerView(
        seat,
        config.players,
        state.phase,
        state.month,
        state.week,
        config.add_on,
        hand,
        victor,
        support,
        own,
        awaited_seats(state) if awaited is None else awaited,
        chosen,
        state.support_used,
        tuple(map(len, hands)),
        len(state.draw_pile),
        len(state.discard_pile),
        len(state.revolution_pile),
        len(state.emperor_pile),
        state.table,
        state.week_score,
        state.score_track,
        state.month_tokens,
        state.banked_tokens,
        state.history,
        state.month_scores,
        state.verdict,
    )


def player_view(state: GameState, seat: int, *, awaited: frozenset[int] | None = None) -> PlayerView:
    """What ``seat`` may know now (spec 9.4).

    :param awaited: the seats :func:`~darkempire.rules.engine.awaited_seats` gives for ``state``, when the caller
        has them already (a driver counts them to pick the seat to ask, as :func:`darkempire.bots.run_game`
        does): the view takes them as its ``awaited`` field instead of counting them again. They are
        not recounted, so pass exactly what ``awaited_seats(state)`` returned. ``None``: the view counts them.
    :raises InvalidArgumentError: if ``state`` is not a :class:`GameState`, or ``awaited`` is neither ``None``
        nor a frozenset.
    :raises WrongSeatError: if ``seat`` is not a seat of this game.
    """
    _require_state(state, "player_view")
    try:
        check_seat(state, seat)
        if awaited is not None and type(awaited) is not frozenset:
            raise InvalidArgumentError(
                f"player_view takes the awaited seats as a frozenset (awaited_seats(state)), not {type(awaited).__name__}"
            )
        return _view(state, seat, awaited)
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand, out of shape?
            check_shape(state, "player_view")
        raise


def spectator_view(state: GameState) -> PlayerView:
    """Public information only: what a spectator may know now (spec 9.4).

    :raises InvalidArgumentError: if ``state`` is not a :class:`GameState`.
    """
    _require_state(state, "spectator_view")
    try:
        return _view(state, None)
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand, out of shape?
            check_shape(state, "spectator_view")
        raise


def _require_state(state: object, name: str) -> None:
    # A typed error naming the function, not an AttributeError from deep inside the view builder.
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"{name} takes a GameState, not {type(state).__name__}")
