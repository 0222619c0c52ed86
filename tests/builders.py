"""Helpers for the rules tests: named cards, week tables and hand-built game states.

Expected values in the tests are worked out from the rulebook and the rulings,
so these helpers only *arrange* cards; they never call the scoring code.

A hand-built state starts from :func:`darkempire.rules.engine.deal` and is changed
with :func:`attrs.evolve`, so every field the tests do not name keeps a value
the engine itself produced. Every one of the 75 hand cards, 8 emperor cards and
5 revolution cards is kept in exactly one place (see :func:`check_conservation`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

from darkempire.rules import engine
from darkempire.rules.actions import Action, Side
from darkempire.rules.cards import (
    EMPEROR_CARDS,
    FACTION_CARDS,
    HAND_CARDS,
    REINFORCEMENT_CARDS,
    REVOLUTION_CARDS,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
    add_on_for,
)
from darkempire.rules.state import GameConfig, GameState, Phase, ScoredCard, ScoredEmperorCard
from darkempire.rules.table import Play, Reinforcement, WeekTable

W = Faction.WORKERS
CO = Faction.CALENDRICAL_ORDER
SU = Faction.SUFFRAGETTES
ME = Faction.MECHANDROS
ST = Faction.STUDENTS

# --------------------------------------------------------------------------- cards


def card(faction: Faction, value: int, nth: int = 0) -> FactionCard:
    """The ``nth`` (0-based) physical faction card of ``faction`` with printed ``value`` (4-8 points).

    Rule 1.2: values 4, 5, 6 exist three times per faction, 7 and 8 twice.

    :raises IndexError: if there is no such card.
    """
    matches = [c for c in FACTION_CARDS if c.faction is faction and c.value == value]
    return matches[nth]


def plus(k: int) -> ReinforcementCard:
    """The ``k``-th reinforcement card ("+3"), ``k`` in 0-9."""
    return REINFORCEMENT_CARDS[k]


def emperor(value: int, nth: int = 0) -> EmperorCard:
    """The ``nth`` emperor card of printed ``value`` (8-13 points; 10 and 11 exist twice)."""
    return [e for e in EMPEROR_CARDS if e.value == value][nth]


def revolution(faction: Faction) -> RevolutionCard:
    """The revolution card (3 points) of ``faction``."""
    return REVOLUTION_CARDS[faction]


# --------------------------------------------------------------------------- tables

PlusSpec = tuple[ReinforcementCard, int, int]
"""A reinforcement attached to a play: (reinforcement card, attaching seat, step)."""


def rev_play(seat: int, faction_card: FactionCard, step: int = 1, pluses: Sequence[PlusSpec] = ()) -> Play:
    """A revolution-side play of ``faction_card`` by ``seat`` in ``step`` with attached reinforcements."""
    return Play(seat, faction_card, Side.REVOLUTION, step, tuple(Reinforcement(c, s, t) for c, s, t in pluses))


def traitor_play(seat: int, faction_card: FactionCard, step: int = 1, pluses: Sequence[PlusSpec] = ()) -> Play:
    """An emperor-side play (a traitor card) by ``seat`` in ``step`` with attached reinforcements."""
    return Play(seat, faction_card, Side.EMPEROR, step, tuple(Reinforcement(c, s, t) for c, s, t in pluses))


def week_table(
    players: int,
    revolution_faction: Faction,
    emperor_card: EmperorCard | None = None,
    plays: Iterable[Play] = (),
    *,
    idle: Iterable[tuple[int, int]] = (),
    steps_revealed: int = 3,
) -> WeekTable:
    """A week's table; the add-on card is out exactly when an emperor card is and the player count has one
    (rules 2.2, 4.1, ruling J)."""
    return WeekTable(
        players=players,
        revolution_card=revolution(revolution_faction),
        emperor_card=emperor_card,
        add_on=add_on_for(players) if emperor_card is not None else None,
        plays=tuple(plays),
        idle=frozenset(idle),
        steps_revealed=steps_revealed,
    )


# --------------------------------------------------------------------------- states


def _table_cards(table: WeekTable | None) -> list[HandCard]:
    if table is None:
        return []
    out: list[HandCard] = []
    for p in table.plays:
        out.append(p.card)
        out += [r.card for r in p.reinforcements]
    return out


def build(
    players: int = 4,
    phase: Phase = Phase.PLAY_1,
    *,
    month: int = 1,
    week: int = 1,
    seed: int = 0,
    hands: Mapping[int, Sequence[HandCard]] | None = None,
    hand_size: int = 7,
    table: WeekTable | None = None,
    track: Sequence[ScoredCard] = (),
    draw_pile: Sequence[HandCard] | None = None,
    discard_pile: Sequence[HandCard] | None = None,
    rest: Literal["draw", "discard", "track"] = "draw",
    emperor_pile: Sequence[EmperorCard] | None = None,
    scored_emperor: Sequence[ScoredEmperorCard] = (),
    revolution_pile: Sequence[RevolutionCard] | None = None,
    support: Sequence[Faction | None] | None = None,
    **fields: Any,
) -> GameState:
    """A hand-built state: ``deal(players, seed)`` with the named cards moved where the test wants them.

    :param hands: cards in hand by seat; every hand is topped up to ``hand_size`` cards with unnamed
        faction cards, lowest ids first (Workers cards unless those are named). ``hand_size=0`` keeps
        the named hands exact.
    :param table: the week's table (its cards are taken out of the pool).
    :param track: faction cards already on the score track.
    :param draw_pile: the draw pile, top first; by default the unnamed cards (``rest="draw"``).
    :param discard_pile: the discard pile; by default empty, or the unnamed cards (``rest="discard"``).
    :param rest: where the unnamed hand cards go: the draw pile, the discard pile, or the score track
        (as cards of month ``month - 1``; only faction cards may go there).
    :param emperor_pile: this month's emperor pile, top first; default: the unnamed unscored emperor
        cards, at most ``4 - week`` of them (rule 3.3). The other unnamed ones are the reserve.
    :param scored_emperor: emperor cards already on the score track.
    :param revolution_pile: this month's revolution pile, top first; default: ``4 - week`` of the
        revolution cards not on the table.
    :param support: each seat's temporary support faction; default: seat ``i`` supports faction ``i``
        once the month's support is chosen, ``None`` before.
    :param fields: any other :class:`GameState` field, passed to :func:`attrs.evolve`.
    :raises ValueError: if a card is named twice, or reinforcement cards are left for the score track.
    """
    state = engine.deal(GameConfig(players=players), seed)
    hands = dict(hands or {})
    named: list[HandCard] = [c for h in hands.values() for c in h] + _table_cards(table)
    named += [s.card for s in track] + list(draw_pile or ()) + list(discard_pile or ())
    if len(set(named)) != len(named):
        raise ValueError("a hand card is named twice")
    pool = [c for c in HAND_CARDS if c not in set(named)]
    for seat in range(players):
        held = list(hands.get(seat, ()))
        fill = [c for c in pool if not c.is_reinforcement][: max(0, hand_size - len(held))]
        hands[seat] = held + fill
        pool = [c for c in pool if c not in fill]
    draw = list(draw_pile) if draw_pile is not None else []
    discard = list(discard_pile) if discard_pile is not None else []
    scored = list(track)
    if rest == "draw" and draw_pile is None:
        draw, pool = pool, []
    elif rest == "discard" and discard_pile is None:
        discard, pool = pool, []
    elif rest == "track":
        if any(c.is_reinforcement for c in pool):
            raise ValueError("reinforcement cards cannot be left on the score track")
        scored += [ScoredCard(c, 0, month - 1, 1) for c in pool if isinstance(c, FactionCard)]
        pool = []
    if pool:
        raise ValueError(f"{len(pool)} hand cards have no place")

    scored_ids = {s.card for s in scored_emperor}
    on_table = {table.emperor_card} if table is not None and table.emperor_card is not None else set()
    unscored = [e for e in EMPEROR_CARDS if e not in scored_ids and e not in on_table]
    if emperor_pile is None:
        emperor_pile = unscored[: max(0, 4 - week)]
    emperor_reserve = tuple(e for e in unscored if e not in emperor_pile)

    rev_on_table = {table.revolution_card} if table is not None else set()
    rev_left = [r for r in REVOLUTION_CARDS if r not in rev_on_table]
    if revolution_pile is None:
        revolution_pile = rev_left[: max(0, 4 - week)]
    revolution_reserve = tuple(r for r in rev_left if r not in revolution_pile)

    if support is None:
        chosen = phase not in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.CHOOSE_SUPPORT)
        support = tuple(Faction(s) if chosen else None for s in range(players))

    state = attrs.evolve(
        state,
        phase=phase,
        month=month,
        week=week,
        hands=tuple(tuple(sorted(hands[s], key=lambda c: c.id)) for s in range(players)),
        draw_pile=tuple(draw),
        discard_pile=tuple(discard),
        table=table,
        score_track=attrs.evolve(state.score_track, faction_cards=tuple(scored), emperor_cards=tuple(scored_emperor)),
        emperor_pile=tuple(emperor_pile),
        emperor_reserve=emperor_reserve,
        revolution_pile=tuple(revolution_pile),
        revolution_reserve=revolution_reserve,
        support=tuple(support),
    )
    state = attrs.evolve(state, **fields)
    check_conservation(state)
    return state


def scored_emperor_cards(cards: Iterable[EmperorCard], month: int = 1) -> tuple[ScoredEmperorCard, ...]:
    """Emperor cards on the score track, scored in weeks 1, 2, ... of ``month``."""
    return tuple(ScoredEmperorCard(e, month, 1 + k % 4) for k, e in enumerate(cards))


# --------------------------------------------------------------------------- conservation


def check_conservation(state: GameState) -> None:
    """Assert that every card is in exactly one place (rules 1.2-1.4, 6.1-6.5, ruling S).

    Hand cards (75): draw pile, discard pile, hands, the table (faction cards and attached
    reinforcements), the score track. Emperor cards (8): pile, reserve, table, score track.
    Revolution cards (5): pile, reserve, table.
    """
    hand_ids: list[int] = [c.id for c in state.draw_pile] + [c.id for c in state.discard_pile]
    for hand in state.hands:
        hand_ids += [c.id for c in hand]
    hand_ids += [c.id for c in _table_cards(state.table)]
    hand_ids += [s.card.id for s in state.score_track.faction_cards]
    assert sorted(hand_ids) == list(range(75)), "hand cards lost or duplicated"

    emperor_ids = [e.id for e in state.emperor_pile] + [e.id for e in state.emperor_reserve]
    if state.table is not None and state.table.emperor_card is not None:
        emperor_ids.append(state.table.emperor_card.id)
    emperor_ids += [s.card.id for s in state.score_track.emperor_cards]
    assert sorted(emperor_ids) == list(range(8)), "emperor cards lost or duplicated"

    rev = [r.faction for r in state.revolution_pile] + [r.faction for r in state.revolution_reserve]
    if state.table is not None:
        rev.append(state.table.revolution_card.faction)
    assert sorted(rev) == list(Faction), "revolution cards lost or duplicated"


# --------------------------------------------------------------------------- a random driver

Chooser = Callable[[GameState, int, random.Random], Action]


def random_choice(state: GameState, seat: int, rng: random.Random) -> Action:
    """A uniformly random legal action of an awaited ``seat``."""
    return rng.choice(engine.legal_actions(state, seat))


def choose_all(state: GameState, rng: random.Random, chooser: Chooser = random_choice) -> dict[int, Action]:
    """One choice for every awaited seat, in seat order, all made on the same ``state``."""
    return {seat: chooser(state, seat, rng) for seat in sorted(engine.awaited_seats(state))}


_TRANSITIONS: dict[Phase, Callable[[GameState, Any], GameState]] = {
    Phase.DRAFT_PASS: engine.pass_cards,
    Phase.DRAFT_DISCARD: engine.discard,
    Phase.CHOOSE_SUPPORT: engine.choose_support,
    Phase.PLAY_1: engine.play,
    Phase.PLAY_2: engine.play,
    Phase.PLAY_3: engine.play,
    Phase.PLACEMENT: engine.place_cards,
    Phase.REORGANIZE: engine.reorganize,
}


def simultaneous(state: GameState, choices: Mapping[int, Action]) -> GameState:
    """Resolve the current step with the phase's simultaneous transition function."""
    return _TRANSITIONS[state.phase](state, choices)


def one_by_one(state: GameState, choices: Mapping[int, Action]) -> GameState:
    """Resolve the current step by :func:`darkempire.rules.engine.apply`, one seat at a time in seat order."""
    for seat in sorted(choices):
        state = engine.apply(state, seat, choices[seat])
    return state


def drive(
    state: GameState,
    rng: random.Random,
    *,
    until: Callable[[GameState], bool] = lambda s: s.is_over,
    chooser: Chooser = random_choice,
) -> GameState:
    """Play random legal choices with the simultaneous transitions until ``until(state)`` holds."""
    while not until(state):
        if state.is_over:
            raise AssertionError("the game ended before the awaited moment")
        state = simultaneous(state, choose_all(state, rng, chooser))
    return state


# --------------------------------------------------------------------------- an independent reference
#
# A second, deliberately plain reading of rules 5.1-5.7, 7.1-7.2 and 8.1-8.5 (rulings B-F, J, L, M),
# written from the rulebook and spec/darkempire/rules.md without looking at darkempire.rules.scoring. The tests
# compare the engine with it on random inputs and on every week of whole games.


@attrs.frozen
class RefWeek:
    """Reference weekly scoring: strengths by faction, emperor strength (None without an emperor card),
    strongest factions, tokens by seat, placements as {(seat, faction): candidate card ids}, emperor scored."""

    strengths: tuple[int, ...]
    emperor_strength: int | None
    strongest: frozenset[Faction]
    tokens: tuple[int, ...]
    placements: dict[tuple[int, Faction], frozenset[int]]
    emperor_scored: bool


def _value(p: Play) -> int:
    return p.card.value + 3 * len(p.reinforcements)


def reference_week(table: WeekTable) -> RefWeek:
    """Score ``table`` by the rules alone (5.1-5.7)."""
    strengths = {f: 0 for f in Faction}
    strengths[table.revolution_card.faction] += 3
    for p in table.plays:
        assert p.card.faction is not None
        strengths[p.card.faction] += -_value(p) if p.side is Side.EMPEROR else _value(p)
    emperor_strength: int | None = None
    if table.emperor_card is not None:
        add = 0 if table.add_on is None else int(table.add_on)
        emperor_strength = table.emperor_card.value + add + sum(_value(p) for p in table.plays if p.side is Side.EMPEROR)
    top = max(strengths.values())
    strongest = frozenset(f for f in Faction if strengths[f] == top)
    tokens = [0] * table.players
    placements: dict[tuple[int, Faction], frozenset[int]] = {}
    places = emperor_strength is None or top >= emperor_strength
    for f in strongest:
        rev = [p for p in table.plays if p.side is Side.REVOLUTION and p.card.faction is f]
        support = [sum(_value(p) for p in rev if p.seat == s) for s in range(table.players)]
        most = max(support)
        for s in range(table.players):
            if most > 0 and support[s] == most:
                tokens[s] += 2
                if places:
                    placements[(s, f)] = frozenset(p.card.id for p in rev if p.seat == s)
        if rev:
            high = max(_value(p) for p in rev)
            for s in {p.seat for p in rev if _value(p) == high}:
                tokens[s] += 1
    return RefWeek(
        strengths=tuple(strengths[f] for f in Faction),
        emperor_strength=emperor_strength,
        strongest=strongest,
        tokens=tuple(tokens),
        placements=placements,
        emperor_scored=emperor_strength is not None and emperor_strength >= top,
    )


def reference_month(
    placed: Sequence[HandCard], tokens: Sequence[int], support: Sequence[Faction]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Month totals by faction and the 6-point bonus by seat (rules 7.1, 7.2)."""
    totals = {f: 0 for f in Faction}
    for c in placed:
        assert c.faction is not None
        totals[c.faction] += c.value
    for s, f in enumerate(support):
        totals[f] += tokens[s]
    top = max(totals.values())
    best = {f for f in Faction if totals[f] == top}
    sharing = [s for s, f in enumerate(support) if f in best]
    share = {0: 0, 1: 6, 2: 3, 3: 2, 4: 1, 5: 1}[len(sharing)]
    return tuple(totals[f] for f in Faction), tuple(share if s in sharing else 0 for s in range(len(support)))


def reference_winners(
    cards: Sequence[int], emperor_total: int, banked: Sequence[int], victors: Sequence[Faction]
) -> tuple[str, frozenset[int]]:
    """The reason ("emperor", "revolution", "too powerful") and the winning seats (rules 8.1-8.5)."""
    total = {f: cards[f] for f in Faction}
    for s, f in enumerate(victors):
        total[f] += banked[s]
    best = max(total.values())
    held = set(victors)
    if emperor_total >= best:
        reason = "emperor"
        low = min(total[f] for f in held)
        tied = [f for f in held if total[f] == low]
        key = min(cards[f] for f in tied)
    else:
        reason = "revolution"
        leaders = [f for f in Faction if total[f] == best]
        out: set[Faction] = set()
        if len(leaders) == 1 and all(best - total[g] >= 15 for g in Faction if g is not leaders[0]):
            out = {leaders[0]}
            reason = "too powerful"
        high = max(total[f] for f in held - out)
        tied = [f for f in held - out if total[f] == high]
        key = max(cards[f] for f in tied)
    win = {f for f in tied if cards[f] == key}
    return reason, frozenset(s for s, f in enumerate(victors) if f in win)
