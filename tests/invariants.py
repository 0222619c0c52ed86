"""Whole-game invariants of darkempire, reusable by any test (spec sections 1-9).

Every check takes states (and, for transitions, the action that led from one to
the other), raises :class:`AssertionError` with a message that names the broken
rule, and returns ``None`` otherwise. Call :func:`check_state` after every step
of a game and :func:`check_transition` on every pair of consecutive states.

The scoring checks recompute weekly scoring, monthly scoring and the final
verdict with small reference implementations written from the rulings (B-F,
J, L, M) below, independent of :mod:`darkempire.rules.scoring`, so a wrong
engine cannot agree with itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from darkempire.rules import engine
import attrs

from darkempire.rules.actions import Action, DiscardCards, PassCards, PlayCard, Reinforce, Reorganize, Side
from darkempire.rules.cards import EMPEROR_CARDS, HAND_CARDS, REVOLUTION_CARDS, EmperorCard, Faction, HandCard
from darkempire.rules.state import DECISION_PHASES, MONTHS, WEEKS, GameState, Phase, ScoredCard
from darkempire.rules.table import WeekTable

__all__ = [
    "DEAL",
    "HAND",
    "RefVerdict",
    "RefWeek",
    "check_state",
    "check_transition",
    "check_card_conservation",
    "check_hand_sizes",
    "check_score_track",
    "check_revolution_points",
    "check_support",
    "check_tables",
    "check_calendar",
    "check_game_over",
    "check_piles",
    "deciding_seats",
    "game_time",
    "ref_month_bonus",
    "ref_score_week",
    "ref_verdict",
    "seat_cards_on_table",
]

#: Cards dealt to each seat (rule 2.4).
DEAL = 9
#: Cards in hand after the draft and after each re-organize (rules 2.6, 6.4).
HAND = 7
_FACTIONS = tuple(Faction)
_PLAY_PHASES = (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3)


def _once(found: Sequence[HandCard] | Sequence[EmperorCard], universe: Sequence[object], what: str) -> None:
    # Fast path: the cards carry their index in the universe as id.
    if sorted(c.id for c in found) == list(range(len(universe))) and all(universe[c.id] == c for c in found):
        return
    counts = Counter(found)
    twice = [c for c, k in counts.items() if k > 1]
    assert not twice, f"{what} in two places at once: {twice} (rule 1)"
    missing = [c for c in universe if c not in counts]
    assert not missing, f"{what} vanished: {missing} (rule 1)"
    known = set(universe)
    extra = [c for c in counts if c not in known]
    assert not extra, f"{what} that are not in the game appeared: {extra} (rule 1)"


# --------------------------------------------------------------------------- conservation


def check_card_conservation(state: GameState) -> None:
    """Each of the 75 hand cards, 8 emperor cards and 5 revolution cards is in exactly one place (rule 1).

    Places for hand cards: draw pile, discard pile, a hand, the week's table
    (faction cards and attached reinforcements), the score track. Pending
    choices move no card: a card named by a pending choice is still in its hand.
    """
    hand_cards: list[HandCard] = [*state.draw_pile, *state.discard_pile]
    for hand in state.hands:
        hand_cards += hand
    if state.table is not None:
        for p in state.table.plays:
            hand_cards.append(p.card)
            hand_cards += [r.card for r in p.reinforcements]
    hand_cards += [s.card for s in state.score_track.faction_cards]
    _once(hand_cards, HAND_CARDS, "hand cards")
    assert list(state.hand_cards()) == hand_cards, "GameState.hand_cards() does not list every hand card"

    emperor: list[EmperorCard] = [*state.emperor_pile, *state.emperor_reserve]
    if state.table is not None and state.table.emperor_card is not None:
        emperor.append(state.table.emperor_card)
    emperor += [s.card for s in state.score_track.emperor_cards]
    _once(emperor, EMPEROR_CARDS, "emperor cards")

    revolution = [*state.revolution_pile, *state.revolution_reserve]
    if state.table is not None:
        revolution.append(state.table.revolution_card)
    assert sorted(c.faction for c in revolution) == list(Faction), f"revolution cards: {revolution} (rule 1.4)"
    assert all(c == REVOLUTION_CARDS[c.faction] for c in revolution)

    for seat, action in enumerate(state.pending):
        for card in _cards_named(action):
            assert card in state.hands[seat], f"seat {seat}'s pending choice names {card}, not in its hand (rule 9.2)"


def _cards_named(action: Action | None) -> tuple[HandCard, ...]:
    """The hand cards an action takes from the seat's hand."""
    if action is None:
        return ()
    if isinstance(action, (PlayCard, Reinforce)):
        return (action.card,)
    if isinstance(action, (PassCards, DiscardCards)):
        return tuple(action.cards)
    if isinstance(action, Reorganize):
        return tuple(action.discards)
    return ()


# --------------------------------------------------------------------------- hand sizes


def seat_cards_on_table(table: WeekTable | None, seat: int) -> int:
    """Cards ``seat`` put on this week's table: its faction cards and the reinforcements it attached."""
    if table is None:
        return 0
    own = sum(1 for p in table.plays if p.seat == seat)
    return own + sum(1 for p in table.plays for r in p.reinforcements if r.seat == seat)


def check_hand_sizes(state: GameState) -> None:
    """Hand sizes (rules 2.4, 2.6, 4.2, 6.4): 9 in the draft; 7 at the start of each week, less only when
    both the draw pile and the discard pile ran dry (ruling K); never above 9; never above 7 after the draft.
    """
    sizes = [len(h) for h in state.hands]
    for seat, hand in enumerate(state.hands):
        assert len(set(hand)) == len(hand), f"seat {seat} holds a card twice"
        assert list(hand) == sorted(hand, key=lambda c: c.id), f"seat {seat}'s hand is not sorted by id"
    assert max(sizes) <= DEAL, f"a hand above {DEAL} cards: {sizes}"
    if state.phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        assert sizes == [DEAL] * state.players, f"the draft holds 9 cards per seat, not {sizes} (rules 2.4, 2.5)"
        return
    assert max(sizes) <= HAND, f"a hand above 7 cards after the draft: {sizes} (rule 6.4)"
    if state.phase is Phase.CHOOSE_SUPPORT or state.phase in _PLAY_PHASES:
        # Nothing is drawn or discarded between a re-organize and the week's third step, so the piles still
        # show whether the refill ran dry.
        dry = not state.draw_pile and not state.discard_pile
        for seat in state.seats:
            at_start = sizes[seat] + seat_cards_on_table(state.table, seat)
            if dry:
                assert at_start <= HAND, f"seat {seat} started the week with {at_start} cards"
            else:
                assert at_start == HAND, (
                    f"seat {seat} started the week with {at_start} cards though the piles hold cards (rule 6.4)"
                )


# --------------------------------------------------------------------------- reference scoring


class RefWeek:
    """Weekly scoring of a table recomputed from rulings B-F and J (independent of the engine).

    :ivar strengths: points per faction.
    :ivar emperor: emperor strength in points, ``None`` without an emperor card.
    :ivar strongest: factions of the highest strength.
    :ivar support: ``support[seat][faction]`` in points (ruling C).
    :ivar awards: ``(seat, faction, points)`` of every token award, by seat, faction, most support first.
    :ivar tokens: points per seat.
    :ivar emperor_scored: whether the emperor card goes to the score track.
    :ivar dues: ``{(seat, faction): candidate cards}`` of the placements due.
    """

    def __init__(self, table: WeekTable) -> None:
        strengths = [0] * len(_FACTIONS)
        strengths[table.revolution_card.faction] += 3
        emperor: int | None = None
        if table.emperor_card is not None:
            emperor = table.emperor_card.value + (int(table.add_on) if table.add_on is not None else 0)
        support = [[0] * len(_FACTIONS) for _ in range(table.players)]
        for p in table.plays:
            assert p.card.faction is not None
            strength = p.card.value + 3 * len(p.reinforcements)
            if p.side is Side.EMPEROR:
                strengths[p.card.faction] -= strength
                assert emperor is not None, "a traitor card in a week without an emperor card (ruling J)"
                emperor += strength
            else:
                strengths[p.card.faction] += strength
                support[p.seat][p.card.faction] += strength
        top = max(strengths)
        self.strengths = tuple(strengths)
        self.emperor = emperor
        self.strongest = frozenset(f for f in _FACTIONS if strengths[f] == top)
        tokens = [0] * table.players
        self.support = tuple(tuple(row) for row in support)
        # (seat, faction, points), sorted as WeekScore lists them: by seat, faction, most support first.
        self.awards: list[tuple[int, Faction, int]] = []
        self.dues: dict[tuple[int, Faction], tuple[HandCard, ...]] = {}
        for f in self.strongest:
            most = max(row[f] for row in support)
            leaders = [s for s in range(table.players) if most > 0 and support[s][f] == most]
            for s in leaders:
                tokens[s] += 2
                self.awards.append((s, f, 2))
            plays = [p for p in table.plays if p.side is Side.REVOLUTION and p.card.faction is f]
            if plays:
                best = max(p.card.value + 3 * len(p.reinforcements) for p in plays)
                for s in {p.seat for p in plays if p.card.value + 3 * len(p.reinforcements) == best}:
                    tokens[s] += 1
                    self.awards.append((s, f, 1))
            if emperor is None or strengths[f] >= emperor:
                for s in leaders:
                    self.dues[(s, f)] = tuple(sorted((p.card for p in plays if p.seat == s), key=lambda c: c.id))
        self.awards.sort(key=lambda a: (a[0], a[1], -a[2]))
        self.tokens = tuple(tokens)
        self.emperor_scored = emperor is not None and emperor >= top


def ref_score_week(table: WeekTable) -> RefWeek:
    """:class:`RefWeek` of ``table``."""
    return RefWeek(table)


def ref_month_bonus(placed: Iterable[HandCard], tokens: Sequence[int], support: Sequence[Faction]) -> tuple[int, ...]:
    """Each seat's share of the 6 monthly points (rules 7.1, 7.2, ruling L)."""
    totals = [0] * len(_FACTIONS)
    for card in placed:
        assert card.faction is not None
        totals[card.faction] += card.value
    for seat, f in enumerate(support):
        totals[f] += tokens[seat]
    top = max(totals)
    winners = [s for s, f in enumerate(support) if totals[f] == top]
    share = {0: 0, 1: 6, 2: 3, 3: 2, 4: 1, 5: 1}[len(winners)]
    return tuple(share if s in winners else 0 for s in range(len(support)))


class RefVerdict:
    """The final judgement recomputed from rules 8.1-8.5 and ruling M.

    :ivar totals: points per faction (cards + banked tokens of its victor card's holder).
    :ivar winners: the winning seats.
    :ivar emperor_victory: whether the emperor won.
    :ivar too_powerful: the faction that dropped out under rule 8.4, if any.
    """

    def __init__(
        self, card_points: Sequence[int], emperor_total: int, banked: Sequence[int], victors: Sequence[Faction]
    ) -> None:
        totals = list(card_points)
        for seat, f in enumerate(victors):
            totals[f] += banked[seat]
        self.totals = tuple(totals)
        self.too_powerful: Faction | None = None
        top = max(totals)
        held = list(victors)
        self.emperor_victory = emperor_total >= top
        if self.emperor_victory:
            # Lowest held total wins; ties: fewest card-only points; still tied: shared.
            key = {f: (totals[f], card_points[f]) for f in held}
            best = min(key.values())
        else:
            ranked = sorted(_FACTIONS, key=lambda f: -totals[f])
            leader, second = ranked[0], ranked[1]
            if totals[leader] > totals[second] and totals[leader] - totals[second] >= 15:
                self.too_powerful = leader
            held = [f for f in held if f is not self.too_powerful]
            key = {f: (-totals[f], -card_points[f]) for f in held}
            best = min(key.values())
        self.winners = frozenset(s for s, f in enumerate(victors) if f in key and key[f] == best)


def ref_verdict(state: GameState) -> RefVerdict:
    """:class:`RefVerdict` of a finished game's score track, tokens and victor cards."""
    points = [0] * len(_FACTIONS)
    for scored in state.score_track.faction_cards:
        assert scored.card.faction is not None
        points[scored.card.faction] += scored.card.value
    emperor_total = sum(s.card.value for s in state.score_track.emperor_cards)
    return RefVerdict(points, emperor_total, state.banked_tokens, state.victors)


# --------------------------------------------------------------------------- the score track and the weeks


def check_tables(state: GameState, first: int = 0) -> None:
    """Every table of the game obeys the play rules (rules 4.1-4.6, rulings G, H, J).

    Each seat makes exactly one of (a faction card, a reinforcement, nothing) per revealed step;
    reinforcements never at step 1 and always on a card of an earlier step; at most one traitor play per
    seat per week (a traitor card or a reinforcement on a traitor card); no traitor play without an
    emperor card; the add-on counts only under an emperor card.
    """
    tables = [(rec.table, f"month {rec.month} week {rec.week}") for rec in state.history[first:]]
    live = state.table
    if live is not None and state.phase in (Phase.CHOOSE_SUPPORT, *_PLAY_PHASES):
        tables.append((live, "this week"))
    for table, when in tables:
        assert table.players == state.players
        if table.emperor_card is None:
            assert table.add_on is None, f"{when}: the add-on counts without an emperor card (ruling J)"
            assert not any(p.side is Side.EMPEROR for p in table.plays), f"{when}: traitor without emperor (J)"
        else:
            assert table.add_on == state.config.add_on, f"{when}: add-on {table.add_on} (rule 2.2)"
        for seat in state.seats:
            traitor = sum(1 for p in table.plays if p.side is Side.EMPEROR and p.seat == seat)
            traitor += sum(
                1 for p in table.plays if p.side is Side.EMPEROR for r in p.reinforcements if r.seat == seat
            )
            assert traitor <= 1, f"{when}: seat {seat} made {traitor} traitor plays (rule 4.4, ruling G)"
            for step in range(1, table.steps_revealed + 1):
                made = sum(1 for p in table.plays if p.seat == seat and p.step == step)
                made += sum(1 for p in table.plays for r in p.reinforcements if r.seat == seat and r.step == step)
                made += (step, seat) in table.idle
                assert made == 1, f"{when}: seat {seat} made {made} plays at step {step} (rule 4.2, ruling H)"
        for p in table.plays:
            assert 1 <= p.step <= table.steps_revealed
            for r in p.reinforcements:
                assert r.card.is_reinforcement
                assert r.step > p.step, f"{when}: a reinforcement at step {r.step} on a step-{p.step} card (4.6)"
        assert all(step <= table.steps_revealed for step, _ in table.idle)


def check_score_track(state: GameState, first: int = 0) -> None:
    """The score track holds exactly the cards weekly scoring placed (rules 5.5-5.7, rulings E, F).

    Each week's scoring equals the reference scoring of its table; the placed cards are one chosen
    candidate per placement due; the faction cards on the track are the weeks' placed cards in order;
    the emperor's cards are the scored weeks' emperor cards; totals are the printed values.

    :param first: index of the first finished week whose scoring is recomputed.
    """
    placed_all: list[ScoredCard] = []
    emperor_all: list[tuple[EmperorCard, int, int]] = []
    for index, rec in enumerate(state.history):
        score = rec.score
        placed_all += rec.placed
        if score.emperor_scored:
            assert rec.table.emperor_card is not None
            emperor_all.append((rec.table.emperor_card, rec.month, rec.week))
        if index < first:
            continue
        ref = ref_score_week(rec.table)
        assert score.strengths == ref.strengths, f"month {rec.month} week {rec.week}: strengths (ruling B)"
        assert score.emperor_strength == ref.emperor, f"month {rec.month} week {rec.week}: emperor (ruling B)"
        assert score.strongest == ref.strongest, f"month {rec.month} week {rec.week}: strongest (rule 5.1)"
        assert score.tokens == ref.tokens, f"month {rec.month} week {rec.week}: tokens {score.tokens} (ruling D)"
        assert score.support == ref.support, f"month {rec.month} week {rec.week}: support (ruling C)"
        awards = [(a.seat, a.faction, a.points) for a in score.awards]
        assert awards == ref.awards, f"month {rec.month} week {rec.week}: awards {awards} (ruling D)"
        for a in score.awards:
            assert a.reason.name == ("MOST_SUPPORT" if a.points == 2 else "HIGHEST_CARD"), f"award reason {a}"
        for seat in state.seats:
            assert score.tokens[seat] == sum(a.points for a in score.awards if a.seat == seat), "awards != tokens"
        assert score.emperor_scored == ref.emperor_scored, f"month {rec.month} week {rec.week}: emperor scored (F)"
        dues = {(d.seat, d.faction): d.candidates for d in score.placements}
        assert dues == ref.dues, f"month {rec.month} week {rec.week}: placements {dues} (ruling E)"
        assert [(d.seat, d.faction) for d in score.placements] == sorted(dues), "placements not in seat order"
        if rec is not state.history[-1] or state.phase is not Phase.PLACEMENT:
            assert len(rec.placed) == len(dues), f"month {rec.month} week {rec.week}: placed {rec.placed}"
            for scored in rec.placed:
                key = (scored.seat, scored.card.faction)
                assert key in dues and scored.card in dues[key], f"{scored} was not due (ruling E)"
                assert (scored.month, scored.week) == (rec.month, rec.week)
            assert len({(s.seat, s.card.faction) for s in rec.placed}) == len(rec.placed)
        else:
            assert rec.placed == ()
    track = state.score_track
    assert list(track.faction_cards) == placed_all, "the score track is not the weeks' placed cards (rule 5.5)"
    assert [(s.card, s.month, s.week) for s in track.emperor_cards] == emperor_all, "emperor cards (ruling F)"
    printed = [0] * len(_FACTIONS)
    for scored in placed_all:
        assert scored.card.faction is not None, "a reinforcement card on the score track (rule 5.5)"
        printed[scored.card.faction] += scored.card.value
    assert track.card_points() == tuple(printed), "faction totals are not the printed values (rule 5.5)"
    assert track.emperor_total == sum(c.value for c, _, _ in emperor_all), "emperor total (ruling F)"


def check_revolution_points(state: GameState) -> None:
    """Month tokens and banked tokens equal what the weekly awards and monthly bonuses gave (rules 5.4, 7.2, 7.3)."""
    scored_months = len(state.month_scores)
    for seat in state.seats:
        month = sum(r.score.tokens[seat] for r in state.history if r.month > scored_months)
        banked = sum(r.score.tokens[seat] for r in state.history if r.month <= scored_months)
        banked += sum(m.bonus[seat] for m in state.month_scores)
        assert state.month_tokens[seat] == month, f"seat {seat}: month tokens {state.month_tokens[seat]} != {month}"
        assert state.banked_tokens[seat] == banked, f"seat {seat}: banked {state.banked_tokens[seat]} != {banked}"
        assert state.month_tokens[seat] >= 0 and state.banked_tokens[seat] >= 0
    for m in state.month_scores:
        tokens = [sum(r.score.tokens[s] for r in state.history if r.month == m.month) for s in state.seats]
        placed = [s.card for s in state.score_track.faction_cards if s.month == m.month]
        assert m.bonus == ref_month_bonus(placed, tokens, m.support), f"month {m.month} bonus {m.bonus} (ruling L)"
        printed = [sum(c.value for c in placed if c.faction is f) for f in _FACTIONS]
        assert list(m.card_points) == printed, f"month {m.month} card points {m.card_points} (rule 7.1)"
        totals = [printed[f] + sum(t for t, g in zip(tokens, m.support, strict=True) if g is f) for f in _FACTIONS]
        assert list(m.totals) == totals, f"month {m.month} totals {m.totals} (rule 7.1)"
        top = max(totals)
        assert m.strongest == frozenset(f for f in _FACTIONS if totals[f] == top), "month strongest (R-L)"


def check_support(state: GameState) -> None:
    """Each support faction used at most once per seat per game; one retired per scored month (rules 3.2, 7.3)."""
    for seat in state.seats:
        used = [m.support[seat] for m in state.month_scores]
        assert len(set(used)) == len(used), f"seat {seat} used a support faction twice: {used} (rule 3.2)"
        assert state.support_used[seat] == frozenset(used), f"seat {seat}: support_used (rule 7.3)"
        current = state.support[seat]
        if state.phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.CHOOSE_SUPPORT, Phase.GAME_OVER):
            assert current is None, f"seat {seat} has a support card outside the month's weeks"
        else:
            assert current is not None and current not in state.support_used[seat], f"seat {seat}: support {current}"


def check_calendar(state: GameState) -> None:
    """Months 1-3 and weeks 1-4 in order (rule 3.1); the phase fits the table and the scoring."""
    assert 1 <= state.month <= MONTHS and 0 <= state.week <= WEEKS, (state.month, state.week)
    expected = [(1 + i // WEEKS, 1 + i % WEEKS) for i in range(len(state.history))]
    assert [(r.month, r.week) for r in state.history] == expected, "weeks out of order (rule 3.1)"
    assert [m.month for m in state.month_scores] == list(range(1, len(state.month_scores) + 1))
    phase = state.phase
    assert phase in DECISION_PHASES or phase is Phase.GAME_OVER, f"the game rests in automatic phase {phase}"
    if phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        assert (state.month, state.week, state.table) == (1, 0, None)
    elif phase is Phase.CHOOSE_SUPPORT:
        assert state.week == 0 and state.table is None and len(state.month_scores) == state.month - 1
        assert len(state.history) == WEEKS * (state.month - 1)
    elif phase is not Phase.GAME_OVER:
        assert state.week >= 1 and state.table is not None and len(state.month_scores) == state.month - 1
        done = WEEKS * (state.month - 1) + state.week
        if phase in _PLAY_PHASES:
            assert len(state.history) == done - 1 and state.table.steps_revealed == phase.step - 1
            assert state.week_score is None
        else:
            assert len(state.history) == done and state.table.steps_revealed == 3
            assert state.week_score == state.history[-1].score
    if phase is not Phase.GAME_OVER:
        assert state.verdict is None
    if phase not in DECISION_PHASES:
        assert state.pending == (None,) * state.players


def check_piles(state: GameState) -> None:
    """Month piles (rule 3.3, ruling J): 4 revolution cards and min(4, unscored) emperor cards, one of each
    revealed per week; a week has no emperor card only once the month's emperor pile is exhausted."""
    if state.phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.GAME_OVER):
        if state.phase is not Phase.GAME_OVER:
            assert len(state.revolution_pile) == WEEKS and len(state.emperor_pile) == WEEKS
        return
    revealed = state.week
    assert len(state.revolution_pile) == WEEKS - revealed, "revolution pile (rule 3.3)"
    assert len(state.revolution_reserve) == len(REVOLUTION_CARDS) - WEEKS + max(0, revealed - (state.table is not None))
    scored_before = sum(1 for s in state.score_track.emperor_cards if s.month < state.month)
    at_start = min(WEEKS, len(EMPEROR_CARDS) - scored_before)
    weeks = [r for r in state.history if r.month == state.month]
    tables = [r.table for r in weeks]
    if state.table is not None and state.phase in _PLAY_PHASES:
        tables.append(state.table)
    with_card = [t for t in tables if t.emperor_card is not None]
    assert len(state.emperor_pile) + len(with_card) == at_start, "emperor pile is not min(4, unscored) (3.3, J)"
    for i, t in enumerate(tables):
        assert (t.emperor_card is None) == (i >= at_start), f"week {i + 1} emperor card {t.emperor_card} (ruling J)"


def check_game_over(state: GameState) -> None:
    """The game ends after month 3 with a verdict, and nothing can be done after it (rules 8, 9.1)."""
    if state.phase is not Phase.GAME_OVER:
        assert state.verdict is None
        return
    assert state.month == MONTHS and len(state.history) == MONTHS * WEEKS and len(state.month_scores) == MONTHS
    assert state.verdict is not None
    assert engine.awaited_seats(state) == frozenset()
    for seat in state.seats:
        assert engine.legal_actions(state, seat) == ()
    assert state.month_tokens == (0,) * state.players
    ref = ref_verdict(state)
    verdict = state.verdict
    assert verdict.totals == ref.totals, f"final totals {verdict.totals} != {ref.totals} (rule 8.1)"
    assert verdict.winners == ref.winners, f"winners {set(verdict.winners)} != {set(ref.winners)} (ruling M)"
    assert verdict.too_powerful == ref.too_powerful, "too powerful (rule 8.4)"
    assert (verdict.reason.name == "EMPEROR_VICTORY") == ref.emperor_victory, "emperor victory (rule 8.2)"
    assert verdict.victors == state.victors
    assert verdict.winning_factions == frozenset(state.victors[s] for s in verdict.winners), "winning factions"
    assert verdict.card_points == state.score_track.card_points(), "verdict card points (rule 8.1)"
    assert verdict.emperor_total == state.score_track.emperor_total, "verdict emperor total (rule 8.1)"
    assert verdict.shared == (len(verdict.winners) > 1)
    expected_reason = (
        "EMPEROR_VICTORY" if ref.emperor_victory else "LEADER_TOO_POWERFUL" if ref.too_powerful else "REVOLUTION"
    )
    assert verdict.reason.name == expected_reason, f"verdict reason {verdict.reason} (rules 8.2-8.4)"


def check_state(state: GameState, first: int = 0) -> None:
    """Every single-state invariant of this module.

    :param first: index of the first finished week whose table and scoring are rechecked; a caller
        that checked every earlier state of the game passes ``len(previous.history) - 1`` (the last
        week's record gains its placed cards later), after :func:`check_transition` made sure the
        earlier records did not change.
    """
    assert len(set(state.victors)) == state.players, "victor cards repeat (rule 2.3)"
    check_card_conservation(state)
    check_hand_sizes(state)
    check_calendar(state)
    check_tables(state, first)
    check_score_track(state, first)
    check_revolution_points(state)
    check_support(state)
    check_piles(state)
    check_game_over(state)
    awaited = engine.awaited_seats(state)
    for seat in state.seats:
        legal = engine.legal_actions(state, seat)
        assert bool(legal) == (seat in awaited), f"seat {seat}: legal actions {len(legal)}, awaited {seat in awaited}"
        if seat in awaited:
            assert state.pending[seat] is None
    expected = {s for s in deciding_seats(state) if state.pending[s] is None}
    assert awaited == expected, f"awaited {set(awaited)} in {state.phase}, expected {expected} (rule 9.2, ruling N)"
    if state.phase not in _PLAY_PHASES:
        for seat in awaited:
            assert len(engine.legal_actions(state, seat)) >= 2, f"seat {seat} awaited without a choice (ruling N)"


def deciding_seats(state: GameState) -> set[int]:
    """The seats that must choose in this step, pending or not, recomputed from the rules (rule 9.2, ruling N).

    At a play step every seat holding cards (even with one legal play, so that the awaited set reveals no
    hand); elsewhere every seat with two or more legal actions: in the draft all seats (9 cards), at month
    start every seat with two unused support cards, at placement a seat with two or more ways to place its
    due cards, at re-organize a seat with a hand card to discard or a card of its own to take back.
    """
    phase, seats = state.phase, state.seats
    if phase in _PLAY_PHASES:
        return {s for s in seats if state.hands[s]}
    if phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        return {s for s in seats if len(state.hands[s]) >= 3}
    if phase is Phase.CHOOSE_SUPPORT:
        return {s for s in seats if len(Faction) - len(state.support_used[s]) >= 2}
    if phase is Phase.PLACEMENT:
        assert state.week_score is not None
        ways: dict[int, int] = {}
        for due in state.week_score.placements:
            ways[due.seat] = ways.get(due.seat, 1) * len(due.candidates)
        return {s for s, n in ways.items() if n >= 2}
    if phase is Phase.REORGANIZE:
        assert state.table is not None
        own = {p.seat for p in state.table.plays if p.side is Side.REVOLUTION}
        return {s for s in seats if state.hands[s] or s in own}
    return set()


# --------------------------------------------------------------------------- transitions


_PHASE_ORDER = {
    phase: rank
    for rank, phase in enumerate(
        (
            Phase.DRAFT_PASS,
            Phase.DRAFT_DISCARD,
            Phase.CHOOSE_SUPPORT,
            *_PLAY_PHASES,
            Phase.WEEK_SCORING,
            Phase.PLACEMENT,
            Phase.REORGANIZE,
            Phase.MONTH_SCORING,
            Phase.GAME_OVER,
        )
    )
}


def game_time(state: GameState) -> tuple[int, int, int]:
    """``(month, week, phase rank)``: strictly increases with every resolved step (rules 3.1, 4.2)."""
    return (state.month, state.week, _PHASE_ORDER[state.phase])


def _has_play(state: GameState, seat: int) -> bool:
    """Whether ``seat`` had any legal card at this play step (rule 4.2, rulings G, H), recomputed."""
    table = state.table
    assert table is not None
    step = state.phase.step
    traitor_ok = table.emperor_card is not None and not any(
        p.side is Side.EMPEROR and (p.seat == seat or any(r.seat == seat for r in p.reinforcements))
        for p in table.plays
    )
    for card in state.hands[seat]:
        if card.faction is not None:
            return True
        if any(p.step < step and (p.side is Side.REVOLUTION or traitor_ok) for p in table.plays):
            return True
    return False


def check_transition(before: GameState, seat: int, action: Action, after: GameState) -> None:
    """What one legal ``apply(before, seat, action)`` may change (rules 3.1, 5.4, 9.2, 9.3).

    Either the choice is only recorded as pending (nothing else changes, no card moves), or the step is
    resolved: time moves forward, revolution points never decrease, the score track, history and
    monthly scorings only grow, the seed stays and a seat that played nothing had no legal card.
    """
    assert before.phase is not Phase.GAME_OVER, "a step was taken after the game ended"
    assert after.config == before.config and after.victors == before.victors
    assert after.chance.seed == before.chance.seed and after.chance.draws >= before.chance.draws
    waiting = engine.awaited_seats(before) - {seat}
    if waiting:
        expected = list(before.pending)
        expected[seat] = action
        assert after.pending == tuple(expected), "the choice was not recorded as pending (rule 9.2)"
        assert after == attrs.evolve(before, pending=after.pending), "recording a pending choice changed the game"
        return
    assert after.pending == (None,) * after.players, "a new step starts with pending choices"
    assert game_time(after) > game_time(before), f"time went from {game_time(before)} to {game_time(after)}"
    for s in before.seats:
        assert after.month_tokens[s] + after.banked_tokens[s] >= before.month_tokens[s] + before.banked_tokens[s], (
            f"seat {s}'s revolution points decreased"
        )
        assert after.support_used[s] >= before.support_used[s]
    assert after.history[: len(before.history) - 1] == before.history[: len(before.history) - 1]
    assert after.month_scores[: len(before.month_scores)] == before.month_scores
    n = len(before.score_track.faction_cards)
    assert after.score_track.faction_cards[:n] == before.score_track.faction_cards, "a scored card left the track"
    n = len(before.score_track.emperor_cards)
    assert after.score_track.emperor_cards[:n] == before.score_track.emperor_cards, "an emperor card left the track"
    if before.phase in _PLAY_PHASES:
        step = before.phase.step
        table = after.history[len(before.history)].table if len(after.history) > len(before.history) else after.table
        assert table is not None and table.steps_revealed >= step
        for s in before.seats:
            if (step, s) in table.idle:
                assert not _has_play(before, s), f"seat {s} played nothing though it had a legal card (ruling H)"
            else:
                assert _has_play(before, s)
    if before.phase is Phase.DRAFT_PASS:
        for s in before.seats:
            given = set(before.hands[s]) - set(after.hands[s])
            got = set(after.hands[s]) - set(before.hands[s])
            prev = (s - 1) % before.players
            assert got == set(before.hands[prev]) - set(after.hands[prev]), "passed to the wrong seat (ruling A)"
            assert len(given) == 2 and len(got) == 2

