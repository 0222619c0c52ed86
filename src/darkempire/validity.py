"""Which game states (and views) some game can reach: :func:`check_state`, the rules' check of a state.

The engine's functions trust the states they are given and check only the actions, as a chess library's
board trusts its position until asked ``is_valid``. :func:`check_state` is that question for this game: it
checks a state against the rules (card conservation, hand and pile sizes, calendar, table, history and score
track, pending choices) and raises :class:`InconsistentStateError` at the first problem, with a ``path`` that
names the field in the state's JSON form. The loaders of :mod:`darkempire.serialization` run it on every
state they load, and :func:`check_view` on every view.

The errors are :class:`~darkempire.wire.wire_errors.SerializationError` subclasses, because a state that no
game reaches is above all a document that must be refused; :mod:`darkempire.serialization` re-exports them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, NoReturn, TypeAlias

import attrs

from darkempire.rules import engine
from darkempire.rules.actions import Side
from darkempire.rules.cards import (
    ADD_ON_FOR_PLAYERS,
    EMPEROR_CARDS,
    HAND_CARDS,
    REVOLUTION_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    HandCard,
    RevolutionCard,
    add_on_for,
)
from darkempire.rules.scoring import PlacementDue, score_month_tally, score_table
from darkempire.rules.state import (
    DEAL_SIZE,
    HAND_SIZE,
    MONTHS,
    PLAY_PHASES,
    STEPS,
    WEEKS,
    GameState,
    Phase,
    ScoredCard,
    ScoredEmperorCard,
    WeekRecord,
)
from darkempire.rules.table import WeekTable
from darkempire.rules.views import PlayerView
from darkempire.wire.typecheck import check_types
from darkempire.wire.wire_errors import InvalidValueError, SerializationError
from tablekit.wire import json_path

__all__ = [
    "CardPlace",
    "ConservationError",
    "InconsistentStateError",
    "card_places",
    "check_card_conservation",
    "check_seat",
    "check_state",
    "check_state_consistency",
    "check_view",
]


class InconsistentStateError(SerializationError):
    """A game state (or view) that no game can reach: per-seat lengths, phase and table, history and score
    track, tokens, pending choices."""


class ConservationError(InconsistentStateError):
    """A game state in which a card is missing or appears twice (hand, emperor or revolution cards)."""


def _fail(kind: type[SerializationError], message: str, *parts: str | int) -> NoReturn:
    raise kind(message, path=json_path(parts))


def _check_seat_tuples(players: int, fields: Mapping[str, Sequence[Any]]) -> None:
    for name, values in fields.items():
        if len(values) != players:
            _fail(InconsistentStateError, f"{len(values)} entries for {players} seats", name)


def check_seat(seat: int, players: int, *parts: str | int) -> None:
    """Raise :class:`~darkempire.wire.wire_errors.InvalidValueError` at the path ``parts`` unless ``seat`` is a
    seat of a ``players``-player game."""
    if not 0 <= seat < players:
        _fail(InvalidValueError, f"there is no seat {seat} in a {players}-player game", *parts)


def _check_non_negative(values: Sequence[int], *parts: str | int) -> None:
    for index, value in enumerate(values):
        if value < 0:
            _fail(InvalidValueError, f"{value} is negative", *parts, index)


def _check_table(table: WeekTable, players: int, *parts: str | int, add_on: AddOnCard | None) -> None:
    """What holds for any table, the current one as for a finished week's: seats, steps, reinforcements, add-on."""
    if table.players != players:
        _fail(
            InconsistentStateError, f"a table for {table.players} seats in a {players}-player game", *parts, "players"
        )
    if not 0 <= table.steps_revealed <= STEPS:
        _fail(InvalidValueError, f"steps_revealed is 0-{STEPS}", *parts, "steps_revealed")
    for index, play in enumerate(table.plays):
        check_seat(play.seat, players, *parts, "plays", index, "seat")
        if not 1 <= play.step <= table.steps_revealed:
            _fail(InconsistentStateError, f"step {play.step} is not a revealed step", *parts, "plays", index, "step")
        for r_index, r in enumerate(play.reinforcements):
            check_seat(r.seat, players, *parts, "plays", index, "reinforcements", r_index, "seat")
            if not play.step < r.step <= table.steps_revealed:
                _fail(
                    InconsistentStateError,
                    "a reinforcement comes in a later revealed step than its target (rule 4.6)",
                    *parts, "plays", index, "reinforcements", r_index, "step",
                )  # fmt: skip
            if not r.card.is_reinforcement:
                _fail(InconsistentStateError, "only reinforcement cards are attached", *parts, "plays", index,
                      "reinforcements", r_index, "card")  # fmt: skip
    for index, (step, seat) in enumerate(sorted(table.idle)):
        if not 1 <= step <= table.steps_revealed or not 0 <= seat < players:
            _fail(InconsistentStateError, f"idle entry {[step, seat]} is not a revealed step and seat", *parts, "idle")
    expected = add_on if table.emperor_card is not None else None
    if table.add_on is not expected:
        _fail(
            InconsistentStateError,
            f"the add-on card under the emperor card is {expected.name if expected else 'none'} in a "
            f"{players}-player game{'' if table.emperor_card is not None else ' without an emperor card'} "
            "(rule 2.2, ruling J)",
            *parts, "add_on",
        )  # fmt: skip


def _check_complete_table(table: WeekTable, players: int, *parts: str | int) -> None:
    """A table with every play of its revealed steps (before weekly scoring took anything off it).

    Each seat reveals exactly one card or plays nothing at each step (rule 4.2, ruling H); one traitor play
    per seat and week (rule 4.4, ruling G), none without an emperor card (rule 4.5).
    """
    entries: dict[tuple[int, int], int] = {}
    traitor = [0] * players
    for index, play in enumerate(table.plays):
        entries[play.step, play.seat] = entries.get((play.step, play.seat), 0) + 1
        if play.side is Side.EMPEROR:
            if table.emperor_card is None:
                _fail(
                    InconsistentStateError,
                    "a traitor card in a week without an emperor card (rule 4.5)",
                    *parts, "plays", index, "side",
                )  # fmt: skip
            traitor[play.seat] += 1
        for r in play.reinforcements:
            entries[r.step, r.seat] = entries.get((r.step, r.seat), 0) + 1
            if play.side is Side.EMPEROR:
                traitor[r.seat] += 1
    for step, seat in table.idle:
        entries[step, seat] = entries.get((step, seat), 0) + 1
    for step in range(1, table.steps_revealed + 1):
        for seat in range(players):
            count = entries.get((step, seat), 0)
            if count != 1:
                _fail(
                    InconsistentStateError,
                    f"seat {seat} has {count} cards and idle entries at step {step}; a seat reveals one card "
                    "or plays nothing at each step (rule 4.2, ruling H)",
                    *parts, "plays" if count > 1 else "idle",
                )  # fmt: skip
    for seat, count in enumerate(traitor):
        if count > 1:
            _fail(
                InconsistentStateError,
                f"seat {seat} made {count} traitor plays in one week; one at most (rule 4.4, ruling G)",
                *parts, "plays",
            )  # fmt: skip


#: A card and where it is, as the path of its place in the state's JSON form (``("hands", 0, 3)``).
CardPlace: TypeAlias = tuple[Any, tuple[str | int, ...]]


def card_places(state: GameState) -> dict[str, list[CardPlace]]:
    """Every card of the game and where it is, by kind: ``"hand card"``, ``"emperor card"``,
    ``"revolution card"`` (rules 1.2-1.4).

    Hand cards are in the draw pile, the discard pile, a hand, this week's table (faction cards and the
    reinforcements attached to them) and the score track; emperor cards in their pile and reserve, on the
    table and on the score track; revolution cards in their pile and reserve and on the table. A pending
    choice moves no card: the cards it names are still in the hand. In a state some game reaches, each card
    of :data:`~darkempire.rules.cards.HAND_CARDS`, :data:`~darkempire.rules.cards.EMPEROR_CARDS` and
    :data:`~darkempire.rules.cards.REVOLUTION_CARDS` is listed exactly once (:func:`check_card_conservation`).
    """
    hand: list[CardPlace] = []
    hand += [(c, ("draw_pile", i)) for i, c in enumerate(state.draw_pile)]
    hand += [(c, ("discard_pile", i)) for i, c in enumerate(state.discard_pile)]
    for seat, cards in enumerate(state.hands):
        hand += [(c, ("hands", seat, i)) for i, c in enumerate(cards)]
    emperor: list[CardPlace] = []
    revolution: list[CardPlace] = []
    emperor += [(c, ("emperor_pile", i)) for i, c in enumerate(state.emperor_pile)]
    emperor += [(c, ("emperor_reserve", i)) for i, c in enumerate(state.emperor_reserve)]
    revolution += [(c, ("revolution_pile", i)) for i, c in enumerate(state.revolution_pile)]
    revolution += [(c, ("revolution_reserve", i)) for i, c in enumerate(state.revolution_reserve)]
    if state.table is not None:
        for i, play in enumerate(state.table.plays):
            hand.append((play.card, ("table", "plays", i, "card")))
            hand += [
                (r.card, ("table", "plays", i, "reinforcements", j, "card")) for j, r in enumerate(play.reinforcements)
            ]
        revolution.append((state.table.revolution_card, ("table", "revolution_card")))
        if state.table.emperor_card is not None:
            emperor.append((state.table.emperor_card, ("table", "emperor_card")))
    track = state.score_track
    hand += [(s.card, ("score_track", "faction_cards", i, "card")) for i, s in enumerate(track.faction_cards)]
    emperor += [(s.card, ("score_track", "emperor_cards", i, "card")) for i, s in enumerate(track.emperor_cards)]
    return {"hand card": hand, "emperor card": emperor, "revolution card": revolution}


#: The cards of each kind that :func:`card_places` lists.
_EVERY_CARD: Final[Mapping[str, Sequence[HandCard | EmperorCard | RevolutionCard]]] = {
    "hand card": HAND_CARDS,
    "emperor card": EMPEROR_CARDS,
    "revolution card": REVOLUTION_CARDS,
}


def check_card_conservation(state: GameState) -> None:
    """Raise :class:`ConservationError` unless each of the 75 hand cards, 8 emperor cards and 5 revolution
    cards is in exactly one place of ``state`` (:func:`card_places`; rules 1.2-1.4).

    A card found twice is named with both places, the second as the error's ``path``; a missing card has the
    path of the document.

    >>> from darkempire.rules import engine
    >>> from darkempire.rules.state import GameConfig
    >>> state = engine.deal(GameConfig(players=3), seed=1)
    >>> check_card_conservation(state)
    >>> check_card_conservation(attrs.evolve(state, draw_pile=state.draw_pile[1:]))
    Traceback (most recent call last):
    ...
    darkempire.validity.ConservationError: (document): hand cards missing from the game: ...
    """
    for kind, found in card_places(state).items():
        _count(kind, found, _EVERY_CARD[kind])


def _count(kind: str, found: list[CardPlace], everything: Sequence[Any]) -> None:
    """Raise :class:`ConservationError` unless each of ``everything`` occurs exactly once in ``found``."""
    seen: dict[Any, tuple[str | int, ...]] = {}
    for card, where in found:
        if card in seen:
            label = card.id if hasattr(card, "id") else card.faction.name
            raise ConservationError(
                f"{kind} {label} is also at {json_path(seen[card]) or '(document)'}: a card appears twice",
                path=json_path(where),
            )
        seen[card] = where
    missing = [c for c in everything if c not in seen]
    if missing:
        labels = ", ".join(str(c.id if hasattr(c, "id") else c.faction.name) for c in missing)
        raise ConservationError(f"{kind}s missing from the game: {labels}")


_DRAFT_PHASES = frozenset({Phase.DRAFT_PASS, Phase.DRAFT_DISCARD})
_TABLE_PHASES = frozenset({*PLAY_PHASES, Phase.WEEK_SCORING, Phase.PLACEMENT, Phase.REORGANIZE})
_NO_TABLE_PHASES = frozenset({Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.CHOOSE_SUPPORT})
#: Phases whose week has not been scored yet: the table holds every play of the revealed steps.
_OPEN_WEEK_PHASES = frozenset({*PLAY_PHASES, Phase.WEEK_SCORING})
#: Phases in which no seat holds a temporary support card: before it is chosen, and once the last one is retired.
_NO_SUPPORT_PHASES = frozenset({*_NO_TABLE_PHASES, Phase.GAME_OVER})
#: Shuffles made by the deal (victor cards, hand cards, revolution and emperor piles) and by each month reset.
_DEAL_SHUFFLES: Final = 4
_MONTH_SHUFFLES: Final = 2
#: Cards each seat discards in the draft: it is dealt 9 and keeps 7 (rules 2.4, 2.6).
_DRAFT_DISCARDS: Final = DEAL_SIZE - HAND_SIZE


def _weeks_finished(state: GameState) -> int:
    """The weeks scored so far, from the phase, month and week (one history record each)."""
    phase = state.phase
    before = WEEKS * (state.month - 1)
    if phase in _DRAFT_PHASES:
        return 0
    if phase is Phase.CHOOSE_SUPPORT:
        return before
    if phase in _OPEN_WEEK_PHASES:
        return before + state.week - 1
    return before + state.week  # placement, re-organize, month scoring, game over


def _emperor_pile_size(state: GameState, month: int) -> tuple[int, int]:
    """``(cards, unscored)``: the emperor pile made at the start of ``month``, min(4, unscored), and the
    unscored emperor cards it was made from (rule 3.3, ruling J). The history must be checked first."""
    scored = sum(1 for r in state.history if r.month < month and r.score.emperor_scored)
    unscored = len(EMPEROR_CARDS) - scored
    return min(WEEKS, unscored), unscored


def _check_emperor_revealed(state: GameState, table: WeekTable, month: int, week: int, *parts: str | int) -> None:
    """A week's table has an emperor card exactly when the month's pile still had one at its start (ruling J)."""
    pile, unscored = _emperor_pile_size(state, month)
    if (table.emperor_card is not None) != (pile >= week):
        has = "an emperor card" if table.emperor_card is not None else "no emperor card"
        _fail(
            InconsistentStateError,
            f"week {week} of month {month} has {has}, but the month's emperor pile held {pile} of the {unscored} "
            "unscored emperor cards, one revealed per week (rule 3.3, ruling J)",
            *parts, "emperor_card",
        )  # fmt: skip


def check_state(state: GameState) -> None:
    """Raise :class:`InconsistentStateError` unless ``state`` is a moment that some game can reach (spec 9.3).

    The engine's functions trust the states they are given and check only the actions. States from
    :func:`~darkempire.rules.engine.deal` and the transitions are always consistent, and
    :func:`~darkempire.serialization.load_state` runs this check on every state it loads. A state built or
    changed by hand (``attrs.evolve(state, hands=...)``, a test fixture, a puzzle) is the caller's
    responsibility: on an inconsistent one the engine may answer wrongly, raise untyped errors, or take
    exponential time (a seat holding ``n`` cards at re-organize has ``2 ** n`` discard choices). Call this
    function on such a state before giving it to the engine.

    What is checked, against the rules:

    * types: every field holds values of its declared type: the game's own cards, enumeration members,
      integers that are not booleans, tuples and frozensets;
    * one entry per seat in every per-seat tuple; months 1-3, weeks 0-4; distinct victor cards (rule 2.3);
      the seed and the number of shuffles made (rule 9.3);
    * card conservation: each of the 75 hand cards, 8 emperor cards and 5 revolution cards exactly once;
    * the calendar: the draft in month 1 week 0 (rules 2.5, 2.6), week 0 only there and when choosing
      support (rule 3.2), weeks 1-4 during a week, no re-organize after the last week (ruling O);
    * the table: present exactly during a week, ``steps_revealed`` fitting the phase, one card or nothing
      per seat and revealed step (rule 4.2, ruling H), one traitor play per seat (rule 4.4), none without an
      emperor card (rule 4.5), the add-on by player count under an emperor card only (rule 2.2, ruling J);
      after weekly scoring, the scored table less the placed cards and the scored emperor card;
    * the finished weeks and months: one record per finished week in order, each week's score the scoring
      of its table, placements that follow the scoring (ruling E), the score track, tokens, month scores,
      support cards used (rule 3.2) and the verdict that follow from them;
    * pile sizes: 4 - (weeks started) revolution cards (rule 3.3), min(4, unscored) - (weeks started)
      emperor cards (ruling J); the draft's empty discard pile;
    * hand sizes: 9 during the draft (rule 2.4), 7 after it (rule 2.6), and at most 7 at a week's start, less
      the cards each seat played this week; fewer than 7 only when the draw and discard piles ran out
      (rule 6.4, ruling K);
    * choices: the state of a decision phase awaits some seat (a step whose every choosing seat has chosen
      would have resolved, rules 9.2, H, N), and each pending choice is a legal action.

    :param state: the state to check; it is not changed.
    :raises InconsistentStateError: at the first problem found, with its ``path`` in the state's JSON form
        (e.g. ``"hands[0]"``); :class:`ConservationError` for a card missing or appearing twice.
    """
    try:
        check_types(state, GameState, ())
        check_state_consistency(state)
    except InconsistentStateError:
        raise
    except SerializationError as error:  # a value the JSON form could not even hold
        raise InconsistentStateError(error.message, path=error.path) from None


def check_state_consistency(state: GameState) -> None:
    """The checks of :func:`check_state` but the type check, each problem raising its own error: for a state
    whose values are known to have their declared types, as a state structured from JSON has.

    :func:`~darkempire.serialization.load_state` runs it on the state it loaded. Out-of-range numbers (a
    month 7, a seat 9) raise :class:`~darkempire.wire.wire_errors.InvalidValueError` here, where
    :func:`check_state` raises :class:`InconsistentStateError` for everything.

    :raises InconsistentStateError, InvalidValueError: at the first problem found, with its ``path``.
    """
    _check_fields(state)
    check_card_conservation(state)
    _check_phase_table(state)
    _check_support(state)
    _check_calendar(state)
    _check_history(state)
    _check_week_table(state)
    _check_piles(state)
    _check_hands(state)
    _check_awaited(state)
    _check_pending(state)


def _check_players(players: int, *parts: str | int) -> None:
    low, high = min(ADD_ON_FOR_PLAYERS), max(ADD_ON_FOR_PLAYERS)
    if not low <= players <= high:
        _fail(InvalidValueError, f"the game is for {low} to {high} players, not {players} (rule 2.1)", *parts)


def _check_month_and_week(month: int, week: int) -> None:
    if not 1 <= month <= MONTHS:
        _fail(InvalidValueError, f"month {month} is not 1-{MONTHS}", "month")
    if not 0 <= week <= WEEKS:
        _fail(InvalidValueError, f"week {week} is not 0-{WEEKS}", "week")


def _check_fields(state: GameState) -> None:
    """What each field allows on its own: seats, month and week, victors, tokens, the seed, sorted hands."""
    n = state.players
    _check_players(n, "config", "players")
    _check_seat_tuples(
        n,
        {
            "hands": state.hands,
            "victors": state.victors,
            "support": state.support,
            "support_used": state.support_used,
            "month_tokens": state.month_tokens,
            "banked_tokens": state.banked_tokens,
            "pending": state.pending,
        },
    )
    _check_month_and_week(state.month, state.week)
    if len(set(state.victors)) != n:
        _fail(InconsistentStateError, "two seats hold the same victor card (rule 2.3)", "victors")
    _check_non_negative(state.month_tokens, "month_tokens")
    _check_non_negative(state.banked_tokens, "banked_tokens")
    if not -engine.SEED_LIMIT < state.chance.seed < engine.SEED_LIMIT:
        _fail(InvalidValueError, "a seed is an integer of magnitude below 2**64 (rule 9.3)", "chance", "seed")
    if state.chance.draws < 0:
        _fail(InvalidValueError, "draws is never negative", "chance", "draws")
    for seat, cards in enumerate(state.hands):
        if list(cards) != sorted(cards, key=lambda c: c.id):
            _fail(InconsistentStateError, "a hand is kept sorted by card id", "hands", seat)


def _check_phase_table(state: GameState) -> None:
    """A table exactly in the phases of a week (and at the game's end), with the steps the phase has revealed."""
    phase = state.phase
    if phase in _TABLE_PHASES and state.table is None:
        _fail(InconsistentStateError, f"the {phase.value} phase needs this week's table", "table")
    if phase in _NO_TABLE_PHASES and state.table is not None:
        _fail(InconsistentStateError, f"there is no table in the {phase.value} phase", "table")
    if phase is Phase.GAME_OVER and state.table is None:
        _fail(InconsistentStateError, "the game ends with the last week's table (ruling O)", "table")
    if phase is Phase.MONTH_SCORING and (state.table is not None) != (state.month == MONTHS):
        _fail(
            InconsistentStateError,
            "monthly scoring follows re-organize, which clears the table, except after the game's last week "
            "(ruling O)",
            "table",
        )
    if state.table is not None:
        _check_table(state.table, state.players, "table", add_on=state.config.add_on)
        revealed = phase.step - 1 if phase in PLAY_PHASES else STEPS
        if state.table.steps_revealed != revealed:
            _fail(
                InconsistentStateError,
                f"{state.table.steps_revealed} steps revealed in the {phase.value} phase, not {revealed}",
                "table",
                "steps_revealed",
            )


def _check_support(state: GameState) -> None:
    """Support cards: chosen for the month's weeks, each used once a game, none on the table between months;
    and a verdict exactly at the game's end (rules 3.2, 7.3)."""
    phase = state.phase
    if phase in _TABLE_PHASES | {Phase.MONTH_SCORING} and None in state.support:
        _fail(InconsistentStateError, f"every seat has chosen its support in the {phase.value} phase", "support")
    for seat, (support, used) in enumerate(zip(state.support, state.support_used, strict=True)):
        if support is not None and support in used:
            _fail(InconsistentStateError, "a support card is used once per game (rule 3.2)", "support", seat)
        if len(used) != len(state.month_scores):
            _fail(InconsistentStateError, "one support card is retired per month scored", "support_used", seat)
    if (phase is Phase.GAME_OVER) != (state.verdict is not None):
        _fail(InconsistentStateError, "a verdict exactly when the game is over", "verdict")
    if phase in _NO_SUPPORT_PHASES and any(s is not None for s in state.support):
        seat = next(s for s, f in enumerate(state.support) if f is not None)
        _fail(
            InconsistentStateError,
            f"no support card is on the table in the {phase.value} phase (rules 3.2, 7.3)",
            "support",
            seat,
        )


def _check_calendar(state: GameState) -> None:
    """The month and week that the phase allows (rules 2.5, 2.6, 3.1, 3.2, ruling O), and the shuffles made by
    then."""
    phase, month, week = state.phase, state.month, state.week
    if phase in _DRAFT_PHASES:
        if month != 1:
            _fail(InconsistentStateError, f"the draft is in month 1, not {month} (rules 2.5, 2.6)", "month")
        if week != 0:
            _fail(InconsistentStateError, f"the draft comes before week 1, not in week {week}", "week")
    elif phase is Phase.CHOOSE_SUPPORT:
        if week != 0:
            _fail(InconsistentStateError, f"support is chosen before the month's first week, not in week {week} "
                  "(rule 3.2)", "week")  # fmt: skip
    elif week == 0:
        _fail(InconsistentStateError, f"week 0 is before the month's first week, not in the {phase.value} phase",
              "week")  # fmt: skip
    elif phase is Phase.MONTH_SCORING and week != WEEKS:
        _fail(InconsistentStateError, f"monthly scoring follows week 4, not week {week} (rule 7.1)", "week")
    elif phase is Phase.GAME_OVER and (month, week) != (MONTHS, WEEKS):
        _fail(InconsistentStateError, "the game ends after week 4 of month 3 (rule 3.1)",
              "month" if month != MONTHS else "week")  # fmt: skip
    elif phase is Phase.REORGANIZE and (month, week) == (MONTHS, WEEKS):
        _fail(InconsistentStateError, "there is no re-organize after the game's last week (ruling O)", "phase")
    shuffles = _DEAL_SHUFFLES + _MONTH_SHUFFLES * (state.month - 1)
    if state.chance.draws < shuffles:
        _fail(
            InconsistentStateError,
            f"{state.chance.draws} shuffles by month {state.month}: the deal makes {_DEAL_SHUFFLES} and each new "
            f"month {_MONTH_SHUFFLES} more (rules 2.3, 2.4, 3.3)",
            "chance", "draws",
        )  # fmt: skip


def _check_history(state: GameState) -> None:
    """The finished weeks, and the score track, tokens, month scores and verdict that follow from them."""
    finished = _weeks_finished(state)
    if len(state.history) != finished:
        _fail(
            InconsistentStateError,
            f"{len(state.history)} finished weeks, but the {state.phase.value} phase of month {state.month}, "
            f"week {state.week} follows {finished}",
            "history",
        )
    placed: list[ScoredCard] = []
    emperor: list[ScoredEmperorCard] = []
    for index, record in enumerate(state.history):
        _check_finished_week(state, index, record)
        placed += record.placed
        if record.score.emperor_scored and record.table.emperor_card is not None:
            emperor.append(ScoredEmperorCard(record.table.emperor_card, record.month, record.week))
    if list(state.score_track.faction_cards) != placed:
        _fail(
            InconsistentStateError, "the score track's faction cards are not the ones the weeks placed", "score_track"
        )
    if list(state.score_track.emperor_cards) != emperor:
        _fail(
            InconsistentStateError, "the score track's emperor cards are not the ones the weeks scored", "score_track"
        )
    _check_week_score(state)
    _check_tokens(state)
    if state.verdict is not None and state.verdict != engine.judge_winner(state):
        _fail(InconsistentStateError, "the verdict is not the judgement of the final score track (rules 8.1-8.5)",
              "verdict")  # fmt: skip


def _check_finished_week(state: GameState, index: int, record: WeekRecord) -> None:
    """The ``index``-th finished week: its place in the calendar, its complete table, its score, its placements."""
    n = state.players
    month, week = divmod(index, WEEKS)
    if (record.month, record.week) != (month + 1, week + 1):
        _fail(InconsistentStateError, f"finished week {index} is week {week + 1} of month {month + 1}",
              "history", index, "month" if record.month != month + 1 else "week")  # fmt: skip
    _check_table(record.table, n, "history", index, "table", add_on=state.config.add_on)
    if record.table.steps_revealed != STEPS:
        _fail(InconsistentStateError, f"a finished week revealed its {STEPS} steps", "history", index, "table",
              "steps_revealed")  # fmt: skip
    _check_complete_table(record.table, n, "history", index, "table")
    _check_emperor_revealed(state, record.table, record.month, record.week, "history", index, "table")
    if record.score != score_table(record.table):
        _fail(InconsistentStateError, "the week's score is not the scoring of its table", "history", index, "score")
    # In the placement phase the last week's cards are being placed now.
    if state.phase is Phase.PLACEMENT and index == len(state.history) - 1:
        if record.placed:
            _fail(InconsistentStateError, "no card is placed before placement resolves", "history", index,
                  "placed")  # fmt: skip
    else:
        _check_placed(record, n, "history", index, "placed")


def _check_week_score(state: GameState) -> None:
    """The week score: the last finished week's, present exactly after this week's scoring."""
    if state.week_score is not None and (not state.history or state.week_score != state.history[-1].score):
        _fail(InconsistentStateError, "the week score is the last finished week's", "week_score")
    scored_week = state.table is not None and state.phase not in _OPEN_WEEK_PHASES
    if scored_week and state.week_score is None:
        _fail(InconsistentStateError, f"the {state.phase.value} phase follows weekly scoring", "week_score")
    if not scored_week and state.week_score is not None:
        _fail(InconsistentStateError, f"no week has been scored yet in the {state.phase.value} phase", "week_score")


def _check_tokens(state: GameState) -> None:
    """The month scores, and the tokens that follow from the weeks and the month bonuses (rules 5.4, 7.1, 7.2)."""
    n = state.players
    month_tokens = [0] * n
    banked = [0] * n
    for record in state.history:
        target = banked if record.month <= len(state.month_scores) else month_tokens
        for seat, tokens in enumerate(record.score.tokens):
            target[seat] += tokens
    for score in state.month_scores:
        for seat, bonus in enumerate(score.bonus):
            if seat < n:
                banked[seat] += bonus
    _check_month_scores(state)
    if tuple(month_tokens) != state.month_tokens:
        _fail(InconsistentStateError, "month tokens are the tokens of this month's weeks", "month_tokens")
    if tuple(banked) != state.banked_tokens:
        _fail(InconsistentStateError, "banked tokens are earlier months' tokens and bonuses", "banked_tokens")


def _check_placed(record: WeekRecord, players: int, *parts: str | int) -> None:
    """The cards a finished week placed: one per placement due, from its candidates, in seat order and by id
    within a seat (rules 5.5, 5.6, ruling E)."""
    dues: dict[tuple[int, Faction], PlacementDue] = {(d.seat, d.faction): d for d in record.score.placements}
    if list(record.placed) != sorted(record.placed, key=lambda s: (s.seat, s.card.id)):
        _fail(InconsistentStateError, "placed cards are listed by seat, then by card id", *parts)
    taken: set[tuple[int, Faction]] = set()
    for index, scored in enumerate(record.placed):
        check_seat(scored.seat, players, *parts, index, "seat")
        if (scored.month, scored.week) != (record.month, record.week):
            _fail(InconsistentStateError, f"a card placed in week {record.week} of month {record.month}",
                  *parts, index)  # fmt: skip
        key = (scored.seat, scored.card.faction) if scored.card.faction is not None else None
        due = dues.get(key) if key is not None else None
        if key is None or due is None or key in taken or scored.card not in due.candidates:
            _fail(
                InconsistentStateError,
                f"seat {scored.seat} may not place hand card {scored.card.id}: a seat places one of its "
                "revolution-side cards of each faction the scoring lets it place (ruling E)",
                *parts, index, "card",
            )  # fmt: skip
        taken.add(key)
    if len(taken) != len(dues):
        _fail(InconsistentStateError, f"{len(dues) - len(taken)} placements due were not made (rule 5.5)", *parts)


def _check_month_scores(state: GameState) -> None:
    """One month score per finished month, each the scoring of its month; the support cards they reveal are
    the ones used (rules 3.2, 7.1-7.3)."""
    n = state.players
    scored = MONTHS if state.phase is Phase.GAME_OVER else state.month - 1
    if len(state.month_scores) != scored:
        _fail(InconsistentStateError, f"{len(state.month_scores)} months scored in month {state.month}, not {scored}",
              "month_scores")  # fmt: skip
    for index, score in enumerate(state.month_scores):
        month = index + 1
        if len(score.support) != n:
            _fail(InconsistentStateError, f"{len(score.support)} entries for {n} seats", "month_scores", index,
                  "support")  # fmt: skip
        tokens = [0] * n
        for record in state.history:
            if record.month == month:
                tokens = [t + w for t, w in zip(tokens, record.score.tokens, strict=True)]
        expected = score_month_tally(state.score_track.placed_in_month(month), tokens, score.support, month=month)
        if score != expected:
            _fail(InconsistentStateError, f"not the scoring of month {month} (rules 7.1, 7.2)", "month_scores", index)
    for seat, used in enumerate(state.support_used):
        if used != frozenset(score.support[seat] for score in state.month_scores):
            _fail(InconsistentStateError, "the support cards used are the ones the month scores revealed (rule 7.3)",
                  "support_used", seat)  # fmt: skip


def _week_start(state: GameState) -> tuple[WeekTable | None, int]:
    """``(table, freed)``: this week's table with every play (``None`` outside a week or after re-organize), and
    how many reinforcement cards its placement freed to the discard pile."""
    if state.table is None:
        return None, 0
    if state.phase in _OPEN_WEEK_PHASES:
        return state.table, 0
    record = state.history[-1]
    placed = {s.card for s in record.placed}
    freed = sum(len(p.reinforcements) for p in record.table.plays if p.card in placed)
    return record.table, freed


def _check_week_table(state: GameState) -> None:
    """This week's table: complete while the week is open, and after weekly scoring the scored table less
    the placed faction cards and the scored emperor card (rules 5.5, 5.7, ruling S)."""
    table = state.table
    if table is None:
        return
    if state.phase in _OPEN_WEEK_PHASES:
        _check_complete_table(table, state.players, "table")
        _check_emperor_revealed(state, table, state.month, state.week, "table")
        return
    record = state.history[-1]
    placed = {s.card for s in record.placed}
    emperor_card = None if record.score.emperor_scored else record.table.emperor_card
    expected = {
        "revolution_card": record.table.revolution_card,
        "emperor_card": emperor_card,
        "add_on": record.table.add_on if emperor_card is not None else None,
        "plays": tuple(p for p in record.table.plays if p.card not in placed),
        "idle": record.table.idle,
    }
    for name, value in expected.items():
        if getattr(table, name) != value:
            _fail(
                InconsistentStateError,
                "after weekly scoring the table is the scored week's, less the cards placed to the score track "
                "and the emperor card scored (rules 5.5, 5.7, ruling S)",
                "table", name,
            )  # fmt: skip


def _check_piles(state: GameState) -> None:
    """Face-down revolution and emperor cards: the month's piles less one card per week started (rules 3.3, 4.1)."""
    revolution = WEEKS - state.week
    if len(state.revolution_pile) != revolution:
        _fail(
            InconsistentStateError,
            f"{len(state.revolution_pile)} face-down revolution cards in week {state.week}, not {revolution}: "
            f"a month's pile holds {WEEKS} and each week reveals one (rules 3.3, 4.1)",
            "revolution_pile",
        )
    pile, unscored = _emperor_pile_size(state, state.month)
    emperor = max(0, pile - state.week)
    if len(state.emperor_pile) != emperor:
        _fail(
            InconsistentStateError,
            f"{len(state.emperor_pile)} face-down emperor cards in week {state.week}, not {emperor}: the month's "
            f"pile held {pile} of the {unscored} unscored emperor cards and each week reveals one "
            "(rule 3.3, ruling J)",
            "emperor_pile",
        )


def _check_hands(state: GameState) -> None:
    """Hand sizes: 9 during the draft, 7 after it, at most 7 at a week's start less the cards played since
    (rules 2.4-2.6, 4.2, 6.4, ruling K)."""
    n = state.players
    if state.phase in _DRAFT_PHASES:
        for seat, hand in enumerate(state.hands):
            if len(hand) != DEAL_SIZE:
                _fail(InconsistentStateError, f"seat {seat} has a hand of {len(hand)}: every seat holds {DEAL_SIZE} "
                      "cards during the draft (rules 2.4, 2.5)", "hands", seat)  # fmt: skip
        if state.discard_pile:
            _fail(InconsistentStateError, "no card is discarded before the draft discard resolves (rule 2.6)",
                  "discard_pile")  # fmt: skip
        return
    if state.phase is Phase.CHOOSE_SUPPORT and state.month == 1:
        for seat, hand in enumerate(state.hands):
            if len(hand) != HAND_SIZE:
                _fail(InconsistentStateError, f"seat {seat} has a hand of {len(hand)}: every seat keeps {HAND_SIZE} "
                      "cards after the draft (rule 2.6)", "hands", seat)  # fmt: skip
        if len(state.discard_pile) != _DRAFT_DISCARDS * n:
            _fail(InconsistentStateError, f"{len(state.discard_pile)} discarded cards: the draft discards "
                  f"{_DRAFT_DISCARDS} per seat (rule 2.6)", "discard_pile")  # fmt: skip
        return
    table, freed = _week_start(state)
    played = [0] * n
    if table is not None:
        for play in table.plays:
            played[play.seat] += 1
            for r in play.reinforcements:
                played[r.seat] += 1
    short = None
    for seat, hand in enumerate(state.hands):
        start = len(hand) + played[seat]
        if start > HAND_SIZE:
            since = f" and played {played[seat]} this week" if table is not None else ""
            _fail(
                InconsistentStateError,
                f"seat {seat} has a hand of {len(hand)}{since}: a hand holds at most {HAND_SIZE} cards after the "
                "draft and after each re-organize (rules 2.6, 6.4)",
                "hands", seat,
            )  # fmt: skip
        if start < HAND_SIZE and short is None:
            short = seat
    if short is not None and (state.draw_pile or len(state.discard_pile) != freed):
        _fail(
            InconsistentStateError,
            f"seat {short} was refilled to {len(state.hands[short]) + played[short]} cards, fewer than {HAND_SIZE}, "
            "though the draw and discard piles had cards (rule 6.4, ruling K)",
            "hands", short,
        )  # fmt: skip


def _check_awaited(state: GameState) -> None:
    """A decision phase awaits somebody: otherwise the engine would have resolved the step or moved on."""
    if not state.phase.is_decision or engine.awaited_seats(state):
        return
    if any(p is not None for p in state.pending):
        _fail(InconsistentStateError, "every seat that chooses in this step has chosen, so the step would have "
              "resolved (rule 9.2)", "pending")  # fmt: skip
    _fail(InconsistentStateError, f"no seat has a choice to make in the {state.phase.value} phase, so the game "
          "would have moved on (rulings H, N)", "phase")  # fmt: skip


def _check_pending(state: GameState) -> None:
    cleared = attrs.evolve(state, pending=(None,) * state.players)
    for seat, action in enumerate(state.pending):
        if action is None:
            continue
        try:
            legal = action in engine.legal_actions(cleared, seat)
        except (AssertionError, LookupError, TypeError, ValueError):  # the engine trusts states; this one may lie
            legal = False
        if not legal:
            _fail(InconsistentStateError, f"seat {seat}'s pending choice is not a legal choice now", "pending", seat)


# --------------------------------------------------------------------------- type checks of values built by hand


def check_view(view: PlayerView) -> None:
    """Raise an error unless ``view`` could be a view of some game: one entry per seat, a spectator's view
    without secrets, a seat's hand of its hand size, seats, month and week in range, the add-on card of the
    player count, and tables that fit the game (the table checks of :func:`check_state`).

    A view shows too little to check more: whether its hand and piles add up is for the state behind it.

    :raises InconsistentStateError, InvalidValueError: at the first problem found, with its ``path``.
    """
    n = view.players
    _check_players(n, "players")
    _check_seat_tuples(
        n,
        {
            "support_used": view.support_used,
            "hand_sizes": view.hand_sizes,
            "month_tokens": view.month_tokens,
            "banked_tokens": view.banked_tokens,
        },
    )
    if view.seat is None:
        if view.hand or view.victor is not None or view.support is not None or view.pending is not None:
            _fail(InconsistentStateError, "a spectator view holds no seat's secrets", "seat")
    else:
        check_seat(view.seat, n, "seat")
        if len(view.hand) != view.hand_sizes[view.seat]:
            _fail(InconsistentStateError, "the hand does not have the seat's hand size", "hand")
    if list(view.hand) != sorted(set(view.hand), key=lambda c: c.id):
        _fail(InconsistentStateError, "a hand lists distinct cards sorted by id", "hand")
    for name in ("awaited", "chosen"):
        for seat in sorted(getattr(view, name)):
            check_seat(seat, n, name)
    _check_month_and_week(view.month, view.week)
    if view.add_on is not add_on_for(n):
        _fail(InconsistentStateError, f"the add-on card of a {n}-player game is not {view.add_on} (rule 2.2)", "add_on")
    if view.table is not None:
        _check_table(view.table, n, "table", add_on=view.add_on)
    for index, record in enumerate(view.history):
        _check_table(record.table, n, "history", index, "table", add_on=view.add_on)
