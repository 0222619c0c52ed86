"""From a reference :class:`~darkempire.rules.state.GameState` to the kernel's
:class:`~darkempire.kernel.mutable.Table`, and back.

:func:`read_state` reads every field into the kernel's encoding; :func:`snapshot` builds the reference's
values again (cards are the game's own objects of :data:`~darkempire.rules.cards.HAND_CARDS` and friends, so
the snapshot compares equal to the reference state, field by field). The week records are built once per
week and kept on the kernel's :class:`~darkempire.kernel.mutable.Record` until a placement changes them; the
weekly scoring inside a record is the reference's :func:`~darkempire.rules.scoring.score_table` of the
recorded table, the one value the kernel does not compute in the reference's form.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from darkempire.kernel import encoding as enc
from darkempire.kernel import listing
from darkempire.kernel.mutable import Play, Record, Table
from darkempire.rules.actions import Action, Side
from darkempire.rules.cards import (
    EMPEROR_CARDS,
    HAND_CARDS,
    REVOLUTION_CARDS,
    EmperorCard,
    FactionCard,
    HandCard,
    ReinforcementCard,
    add_on_for,
)
from darkempire.rules.chance import Chance
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.scoring import score_table
from darkempire.rules.state import GameConfig, GameState, Phase, ScoredCard, ScoredEmperorCard, ScoreTrack, WeekRecord
from darkempire.rules.table import Play as TablePlay
from darkempire.rules.table import Reinforcement, WeekTable

__all__ = ["read_state", "snapshot"]


def _ids(cards: Iterable[HandCard | EmperorCard]) -> list[int]:
    return [card.id for card in cards]


def _play_of(play: TablePlay) -> Play:
    side = 1 if play.side is Side.EMPEROR else 0
    return (play.seat, play.card.id, side, play.step, tuple((r.card.id, r.seat, r.step) for r in play.reinforcements))


def read_state(k: Table, state: GameState) -> None:
    """Set ``k`` to the moment ``state`` is: every pile, hand, table, score and pending choice.

    :raises ~darkempire.rules.errors.InvalidArgumentError: ``state`` is no
        :class:`~darkempire.rules.state.GameState`, or sits in weekly or monthly
        scoring (automatic phases no transition of the reference leaves a state in).
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"Kernel.from_state takes a GameState, not {type(state).__name__}")
    if state.phase is Phase.WEEK_SCORING or state.phase is Phase.MONTH_SCORING:
        raise InvalidArgumentError(
            f"the kernel starts from a state the rules reach, not one in the automatic {state.phase.value} "
            "phase (call darkempire.rules.engine.advance on it first)"
        )
    n = k.n = state.players
    add_on = state.config.add_on
    k.add_on = int(add_on) if add_on is not None else 0
    k.phase = enc.PHASE_CODE[state.phase]
    k.month, k.week = state.month, state.week
    k.hands = [_ids(hand) for hand in state.hands]
    k.draw, k.draw_top = _ids(state.draw_pile), 0
    k.discard = _ids(state.discard_pile)
    k.victors = [int(f) for f in state.victors]
    k.support = [int(f) if f is not None else -1 for f in state.support]
    k.used = [sum(1 << int(f) for f in used) for used in state.support_used]
    k.revolution_pile = [int(card.faction) for card in state.revolution_pile]
    k.revolution_reserve = [int(card.faction) for card in state.revolution_reserve]
    k.emperor_pile = _ids(state.emperor_pile)
    k.emperor_reserve = _ids(state.emperor_reserve)
    _read_table(k, state.table)
    k.scored = state.week_score is not None
    k.placements = []
    if state.week_score is not None and state.phase is Phase.PLACEMENT:
        dues = state.week_score.placements
        k.placements = [(d.seat, int(d.faction), tuple(c.id for c in d.candidates)) for d in dues]
    k.faction_track = [(s.card.id, s.seat, s.month, s.week) for s in state.score_track.faction_cards]
    k.emperor_track = [(s.card.id, s.month, s.week) for s in state.score_track.emperor_cards]
    k.month_tokens = list(state.month_tokens)
    k.banked = list(state.banked_tokens)
    k.history = [_record_of(record) for record in state.history]
    k.month_scores = list(state.month_scores)
    k.verdict = state.verdict
    k.seed, k.draws = state.chance.seed, state.chance.draws
    k.pending = [-1] * n
    required = listing.prepare(k)
    k.awaiting = []
    if k.phase != enc.GAME_OVER:
        pending = state.pending
        k.pending = [_index_of(k, seat, action) if action is not None else -1 for seat, action in enumerate(pending)]
        k.awaiting = [seat for seat in required if k.pending[seat] < 0]


def _read_table(k: Table, table: WeekTable | None) -> None:
    k.has_table = table is not None
    k.plays, k.idle, k.revealed, k.traitor = [], [], 0, [False] * k.n
    k.table_revolution, k.table_emperor = 0, -1
    if table is None:
        return
    k.table_revolution = int(table.revolution_card.faction)
    k.table_emperor = table.emperor_card.id if table.emperor_card is not None else -1
    k.plays = [_play_of(p) for p in table.plays]
    k.idle = sorted(table.idle)
    k.revealed = table.steps_revealed
    k.traitor = [table.has_traitor_play(seat) for seat in range(k.n)]


def _record_of(record: WeekRecord) -> Record:
    table = record.table
    emperor = table.emperor_card.id if table.emperor_card is not None else -1
    return Record(
        record.month,
        record.week,
        tuple(_play_of(p) for p in table.plays),
        int(table.revolution_card.faction),
        emperor,
        tuple(sorted(table.idle)),
        tuple((s.card.id, s.seat, s.month, s.week) for s in record.placed),
        record,
    )


def _index_of(k: Table, seat: int, action: Action) -> int:
    """Where a pending ``action`` is in ``seat``'s listing (pending choices are kept as indices)."""
    for index in range(listing.count_options(k, seat)):
        if listing.build_action(k, seat, index) == action:
            return index
    raise InvalidArgumentError(f"seat {seat}'s pending choice {action!r} is none of its legal actions")


# --------------------------------------------------------------------------- back to the reference


def _table(
    k: Table,
    plays: Sequence[Play],
    revolution: int,
    emperor: int,
    idle: Iterable[tuple[int, int]],
    revealed: int,
) -> WeekTable:
    """A reference table of the kernel's plays: the add-on lies under an emperor card only (ruling J)."""
    cards = HAND_CARDS
    emperor_card = EMPEROR_CARDS[emperor] if emperor >= 0 else None
    add_on = add_on_for(k.n) if emperor_card is not None else None
    built = []
    for seat, card, side, step, attached in plays:
        faction_card = cards[card]
        assert isinstance(faction_card, FactionCard)  # only faction cards are played to a side
        reinforcements = []
        for attached_card, by, at in attached:
            reinforcement = cards[attached_card]
            assert isinstance(reinforcement, ReinforcementCard)
            reinforcements.append(Reinforcement(reinforcement, by, at))
        built.append(TablePlay(seat, faction_card, enc.SIDES[side], step, tuple(reinforcements)))
    return WeekTable(k.n, REVOLUTION_CARDS[revolution], emperor_card, add_on, tuple(built), frozenset(idle), revealed)


def _scored(entry: tuple[int, int, int, int]) -> ScoredCard:
    card, seat, month, week = entry
    faction_card = HAND_CARDS[card]
    assert isinstance(faction_card, FactionCard)
    return ScoredCard(faction_card, seat, month, week)


def _week_record(k: Table, record: Record) -> WeekRecord:
    if record.built is None:
        table = _table(k, record.plays, record.revolution, record.emperor, record.idle, 3)
        placed = tuple(map(_scored, record.placed))
        record.built = WeekRecord(record.month, record.week, table, score_table(table), placed)
    return record.built


def snapshot(k: Table) -> GameState:
    """The reference :class:`~darkempire.rules.state.GameState` of the kernel's moment, equal to the one the
    reference engine reaches from the same start with the same choices."""
    cards = HAND_CARDS
    history = tuple(_week_record(k, record) for record in k.history)
    table = None
    if k.has_table:
        table = _table(k, k.plays, k.table_revolution, k.table_emperor, k.idle, k.revealed)
    week_score = history[-1].score if k.scored else None
    pending: tuple[Action | None, ...] = tuple(
        listing.build_action(k, seat, index) if index >= 0 else None for seat, index in enumerate(k.pending)
    )
    return GameState(
        config=GameConfig(players=k.n),
        phase=enc.PHASES[k.phase],
        month=k.month,
        week=k.week,
        hands=tuple(tuple(cards[c] for c in hand) for hand in k.hands),
        draw_pile=tuple(cards[c] for c in k.draw[k.draw_top :]),
        discard_pile=tuple(cards[c] for c in k.discard),
        victors=tuple(enc.FACTIONS[f] for f in k.victors),
        support=tuple(enc.FACTIONS[f] if f >= 0 else None for f in k.support),
        support_used=tuple(frozenset(f for f in enc.FACTIONS if used >> f & 1) for used in k.used),
        revolution_pile=tuple(REVOLUTION_CARDS[f] for f in k.revolution_pile),
        revolution_reserve=tuple(REVOLUTION_CARDS[f] for f in k.revolution_reserve),
        emperor_pile=tuple(EMPEROR_CARDS[e] for e in k.emperor_pile),
        emperor_reserve=tuple(EMPEROR_CARDS[e] for e in k.emperor_reserve),
        table=table,
        week_score=week_score,
        score_track=ScoreTrack(
            tuple(map(_scored, k.faction_track)),
            tuple(ScoredEmperorCard(EMPEROR_CARDS[e], m, w) for e, m, w in k.emperor_track),
        ),
        month_tokens=tuple(k.month_tokens),
        banked_tokens=tuple(k.banked),
        pending=pending,
        history=history,
        month_scores=tuple(k.month_scores),
        verdict=k.verdict,
        chance=Chance(k.seed, k.draws),
    )
