"""Worlds for determinized search, drawn from what one seat knows (spec 9.4).

A search bot is handed its seat's :class:`~darkempire.rules.views.PlayerView` and nothing else. To play
out its choices it needs whole states. :func:`sample_world` draws one: a full
:class:`~darkempire.rules.state.GameState` whose :func:`~darkempire.rules.views.player_view` for the seat is
the view it was drawn from, with everything hidden from the seat drawn uniformly among the values its
knowledge allows.

It works in two steps, so that the uniform draw is the one the adapters also use and the tests check
(:func:`darkempire.rules.resample.resample_hidden`, ``tests/test_resample.py``):

1. :func:`consistent_state` builds *some* state the seat cannot tell from the real one, from the view
   alone. Each hidden thing gets an arbitrary value that respects every public count and fact: the hand
   cards the seat cannot place (65 faction and 10 reinforcement cards less its hand, the table and the score
   track) fill the other hands and the draw and discard piles to their public sizes; a seat the table shows
   idle with cards gets reinforcement cards only (ruling H); the cards the seat passed stay in the next
   seat's hand during the draft discard step; the revolution and emperor cards not revealed this month fill
   their piles, and the week's cards already revealed go back to the reserves in the order the engine puts
   them there; other seats get distinct victor factions other than the seat's own (the verdict's once it is
   out), a support faction they have not used once the month's support is chosen, and a legal pending choice
   if the view shows they have chosen.
2. :func:`~darkempire.rules.resample.resample_hidden` then draws every hidden thing again uniformly, so the
   arbitrary values of step 1 leave no trace: which cards lie where, the victor and support factions, the
   pending choices (uniform among the seat's legal actions, which is what "not conditioning on a choice it
   has not seen" means), the unrevealed revolution and emperor cards, and the generator's seed.

What a seat remembers beyond its view and its draft pass (its own face-down discards, last weeks' table
cards now in the discard pile) is not used: those cards are dealt like any unseen card, a coarser draw but
never one that leaks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import attrs

from darkempire.rules.actions import Action
from darkempire.rules.cards import (
    EMPEROR_CARDS,
    HAND_CARDS,
    REVOLUTION_CARDS,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
)
from darkempire.rules.chance import Chance
from darkempire.rules.engine import legal_actions
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.resample import resample_hidden
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import PlayerView

__all__ = ["consistent_state", "sample_world", "unseen_cards"]

#: Shuffles the engine makes at the deal and at each month reset (docs/kernel.md, "Chance is the reference's").
_DEAL_SHUFFLES = 4
_MONTH_SHUFFLES = 2


def unseen_cards(view: PlayerView) -> list[HandCard]:
    """The hand cards ``view``'s seat cannot place: not in its hand, on the table or on the score track.

    They are exactly the other hands and the draw and discard piles, in some order.
    """
    seen = {card.id for card in view.hand}
    if view.table is not None:
        for play in view.table.plays:
            seen.add(play.card.id)
            seen.update(r.card.id for r in play.reinforcements)
    seen.update(scored.card.id for scored in view.score_track.faction_cards)
    return [card for card in HAND_CARDS if card.id not in seen]


def _sorted(cards: Iterable[HandCard]) -> tuple[HandCard, ...]:
    return tuple(sorted(cards, key=lambda c: c.id))


def _piles(
    view: PlayerView,
) -> tuple[tuple[RevolutionCard, ...], tuple[RevolutionCard, ...], tuple[EmperorCard, ...], tuple[EmperorCard, ...]]:
    """Revolution pile and reserve, emperor pile and reserve, with the public cards where the engine keeps them."""
    # During placement and re-organize the week is already in the history and still on the table; its
    # cards go to the reserves only when the week ends.
    finished = view.history[:-1] if view.week_score is not None else view.history
    tables = [r.table for r in finished if r.month == view.month]
    current = [view.table] if view.table is not None else []
    revealed = [t.revolution_card for t in [*tables, *current]]
    unrevealed = [c for c in REVOLUTION_CARDS if c not in revealed]
    size = view.revolution_pile_size
    revolution_pile = tuple(unrevealed[:size])
    revolution_reserve = (*unrevealed[size:], *(t.revolution_card for t in tables))
    scored = {s.card for s in view.score_track.emperor_cards}
    back = [t.emperor_card for t in tables if t.emperor_card is not None and t.emperor_card not in scored]
    shown = {t.emperor_card for t in [*tables, *current] if t.emperor_card is not None}
    hidden = [c for c in EMPEROR_CARDS if c not in scored and c not in shown]
    size = view.emperor_pile_size
    return revolution_pile, revolution_reserve, tuple(hidden[:size]), (*hidden[size:], *back)


def consistent_state(view: PlayerView, *, passed: Iterable[HandCard] = ()) -> GameState:
    """Some state whose view for ``view.seat`` is ``view``: hidden things get arbitrary consistent values.

    Not a sample (use :func:`sample_world`): the hidden values follow a fixed order. It is long because it
    builds every field of the state from the view in turn, each public count checked on the way.

    :param passed: the two cards the seat passed in the draft; placed in the next seat's hand during the
        draft discard step.
    :raises InvalidArgumentError: for a spectator view, a view whose public counts do not add up, or, in the
        draft discard step, a ``passed`` that is not two cards the seat cannot see.
    """
    seat = view.seat
    if seat is None or view.victor is None:
        raise InvalidArgumentError("a world is drawn for a seat: it needs a player view, not the spectator view")
    n = view.players
    pool = unseen_cards(view)
    hidden_total = sum(view.hand_sizes) - len(view.hand) + view.draw_pile_size + view.discard_pile_size
    if len(pool) != hidden_total:
        raise InvalidArgumentError(
            f"the view's hidden places hold {hidden_total} cards but {len(pool)} cards are unseen (rule 1.2)"
        )
    hands: list[tuple[HandCard, ...]] = [()] * n
    hands[seat] = view.hand
    pinned: dict[int, list[HandCard]] = {}
    passed_cards = list(passed)
    if view.phase is Phase.DRAFT_DISCARD and passed_cards:
        unseen = {c.id for c in pool}
        ids = {c.id for c in passed_cards if isinstance(c, (FactionCard, ReinforcementCard))}
        if len(passed_cards) != 2 or len(ids) != 2 or not ids <= unseen:
            raise InvalidArgumentError(
                f"passed: the 2 cards seat {seat} passed at the draft, now in the next seat's hand and unseen "
                f"by it (rule 2.5), not {passed_cards!r:.200}"
            )
        pinned[(seat + 1) % n] = passed_cards
    taken = {c.id for cards in pinned.values() for c in cards}
    table = view.history[-1].table if view.week_score is not None and view.history else view.table
    restricted = set(table.reinforcements_only(view.hand_sizes)) - {seat} if table is not None else set()
    reinforcements = [c for c in pool if c.is_reinforcement and c.id not in taken]
    for s in sorted(restricted):
        size = view.hand_sizes[s]
        hands[s] = _sorted(reinforcements[:size])
        reinforcements = reinforcements[size:]
        taken.update(c.id for c in hands[s])
    rest = [c for c in pool if c.id not in taken]
    for s in range(n):
        if s == seat or s in restricted:
            continue
        own = pinned.get(s, [])
        free = view.hand_sizes[s] - len(own)
        hands[s] = _sorted([*own, *rest[:free]])
        rest = rest[free:]
    draw_pile = tuple(rest[: view.draw_pile_size])
    discard_pile = tuple(rest[view.draw_pile_size :])
    victors: tuple[Faction, ...]
    if view.verdict is not None:
        victors = view.verdict.victors
    else:
        others = iter(f for f in Faction if f is not view.victor)
        victors = tuple(view.victor if s == seat else next(others) for s in range(n))
    support = tuple(
        view.support if s == seat else (
            None if view.support is None else next(f for f in Faction if f not in view.support_used[s])
        )
        for s in range(n)
    )
    revolution_pile, revolution_reserve, emperor_pile, emperor_reserve = _piles(view)
    pending: list[Action | None] = [view.pending if s == seat else None for s in range(n)]
    state = GameState(
        config=GameConfig(players=n),
        phase=view.phase,
        month=view.month,
        week=view.week,
        hands=tuple(hands),
        draw_pile=draw_pile,
        discard_pile=discard_pile,
        victors=victors,
        support=support,
        support_used=view.support_used,
        revolution_pile=revolution_pile,
        revolution_reserve=revolution_reserve,
        emperor_pile=emperor_pile,
        emperor_reserve=emperor_reserve,
        table=view.table,
        week_score=view.week_score,
        score_track=view.score_track,
        month_tokens=view.month_tokens,
        banked_tokens=view.banked_tokens,
        pending=tuple(pending),
        history=view.history,
        month_scores=view.month_scores,
        verdict=view.verdict,
        chance=Chance(0, _DEAL_SHUFFLES + _MONTH_SHUFFLES * (view.month - 1)),
    )
    chosen = sorted(view.chosen - {seat})
    if not chosen:
        return state
    # Placeholders only: sample_world draws every one again.
    for s in chosen:
        pending[s] = legal_actions(state, s)[0]
    return attrs.evolve(state, pending=tuple(pending))


def sample_world(view: PlayerView, rng: random.Random, *, passed: Iterable[HandCard] = ()) -> GameState:
    """A state drawn uniformly among those ``view``'s seat cannot tell from the real one (module docstring).

    :param rng: draws the world; the same generator state gives the same world.
    :param passed: the two cards the seat passed in the draft (its own past choice), which it knows to be in
        the next seat's hand until that seat discards.
    :raises InvalidArgumentError: as :func:`consistent_state`.
    """
    passed_cards = tuple(passed)
    base = consistent_state(view, passed=passed_cards)
    assert view.seat is not None
    return resample_hidden(base, view.seat, rng, passed=passed_cards if view.phase is Phase.DRAFT_DISCARD else ())
