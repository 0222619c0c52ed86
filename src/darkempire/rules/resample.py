"""Worlds a seat cannot tell from the true state: everything hidden from it drawn again (spec 9.4).

Determinized search plays its choices out on whole states; a state it is handed must hold nothing the seat
may not see, or the search would play on knowledge it does not have. :func:`resample_hidden` keeps what the
seat's view (:func:`~darkempire.rules.views.player_view`) shows and what it remembers of its draft pass, and
draws everything else uniformly among the values that knowledge allows. The search bot
(:mod:`darkempire.search.worlds`) and the adapters' ``resample`` (:meth:`darkempire.adapters.core.Flow.resample`)
both draw their worlds here; ``tests/test_resample.py`` checks the draw is uniform and leaks nothing.

It lives beside the views, not with the adapters, because it needs only the rules: a bot that searches must
not need numpy (the adapters' tensors) to draw a world.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from darkempire.rules import engine
from darkempire.rules.cards import EmperorCard, Faction, HandCard, RevolutionCard
from darkempire.rules.chance import Chance
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameState, Phase
from darkempire.rules.views import player_view

__all__ = ["resample_hidden"]


def _sorted(cards: Iterable[HandCard]) -> tuple[HandCard, ...]:
    return tuple(sorted(cards, key=lambda c: c.id))


def _revealed_this_month(state: GameState) -> tuple[set[RevolutionCard], set[EmperorCard]]:
    """Revolution and emperor cards of this month's earlier weeks (not the current table's)."""
    tables = [r.table for r in state.history if r.month == state.month]
    revolution = {t.revolution_card for t in tables}
    emperor = {t.emperor_card for t in tables if t.emperor_card is not None}
    return revolution, emperor



def resample_hidden(
    state: GameState, seat: int, rng: random.Random, *, passed: Iterable[HandCard] = ()
) -> GameState:
    """A world for determinized search: a legal state that ``seat`` cannot tell from ``state``.

    Everything hidden from ``seat`` is drawn again, uniformly among the values its knowledge allows; what it
    knows is its view (:func:`~darkempire.rules.views.player_view`, spec 9.4) and, in the draft discard step, the
    two cards it passed (``passed``). The world's view for ``seat`` equals the real one, it passes
    :func:`darkempire.serialization.check_state`, and its step resolves. In detail:

    * hand cards: the other seats' hands and the draw and discard piles are one pool, dealt again with every
      size kept. Exceptions the view implies: a seat shown idle at an earlier step of this week while it still
      held cards held only reinforcement cards then (ruling H), so it gets reinforcement cards only; and the
      cards ``seat`` passed stay in the next seat's hand until it has discarded;
    * the other seats' victor cards: a random assignment of the factions ``seat`` does not hold (kept once
      the verdict has revealed them);
    * the other seats' support cards, once chosen: each among the factions that seat has not used yet;
    * the other seats' pending choices: whether a seat has chosen is public and kept, but its choice is drawn
      again, uniformly among its legal actions with its new hand. (Keeping the true choices would leak them,
      and they would name cards the new hand does not hold: resolving the step would break card conservation.)
    * the revolution and emperor cards not revealed this month, shuffled among their pile and reserve places;
    * the generator: a random seed, so the engine's own shuffles are random from here on; the number of
      shuffles made, which is public, is kept.

    Pending choices are drawn as if the other seats chose uniformly at random, and nothing else is inferred
    from how they played: the world is uniform given what ``seat`` saw, not given a model of its opponents.
    What ``seat`` remembers beyond its view and the draft pass (its own face-down discards, its passed
    cards after the receiver's discard, last weeks' table cards in the discard pile) is not used: those
    cards are dealt like any other hidden card, a coarser but never a leaking draw.

    :param state: an engine state (any phase).
    :param seat: the seat whose knowledge the world keeps.
    :param rng: draws the world.
    :param passed: the cards ``seat`` passed in the draft; used in the draft discard step only, where
        they are still in the next seat's hand.
    :raises WrongSeatError: if ``seat`` is not a seat of this game.
    :raises InvalidArgumentError: if ``passed`` is not hand cards, or is given in the draft discard step but is
        not two cards of the next seat's hand.

    This function reads the whole true ``state``, so it runs where the state is kept (a server, or the
    process of a search bot that was handed its own view's worlds), never on a client's request: a
    ``passed`` chosen by a client would make the refusal above an oracle for the next seat's hand.
    :meth:`darkempire.adapters.core.Flow.resample` fills ``passed`` from the seat's own trail, and
    :func:`darkempire.search.worlds.sample_world` from the search bot's memory.
    """
    player_view(state, seat)  # checks the seat number
    hands, draw_pile, discard_pile = _redeal(state, seat, _pinned(state, seat, passed), rng)
    world = attrs.evolve(
        _redraw_piles(state, rng),
        hands=hands,
        draw_pile=draw_pile,
        discard_pile=discard_pile,
        victors=_redraw_victors(state, seat, rng),
        support=tuple(
            f if f is None or s == seat else rng.choice([g for g in Faction if g not in state.support_used[s]])
            for s, f in enumerate(state.support)
        ),
        chance=Chance(rng.randrange(2**63), state.chance.draws),
    )
    return _redraw_pending(world, seat, rng)


def _redraw_piles(state: GameState, rng: random.Random) -> GameState:
    """``state`` with the revolution and emperor cards not revealed this month shuffled among their pile and
    reserve places (the revealed ones keep theirs)."""
    revolution_seen, emperor_seen = _revealed_this_month(state)
    if state.table is not None:
        revolution_seen.add(state.table.revolution_card)
        if state.table.emperor_card is not None:
            emperor_seen.add(state.table.emperor_card)
    revolution_pile, revolution_reserve = _reshuffle(
        state.revolution_pile, state.revolution_reserve, revolution_seen, rng
    )
    emperor_pile, emperor_reserve = _reshuffle(state.emperor_pile, state.emperor_reserve, emperor_seen, rng)
    return attrs.evolve(
        state,
        revolution_pile=revolution_pile,
        revolution_reserve=revolution_reserve,
        emperor_pile=emperor_pile,
        emperor_reserve=emperor_reserve,
    )


def _pinned(state: GameState, seat: int, passed: Iterable[HandCard]) -> dict[int, frozenset[HandCard]]:
    """The cards ``seat`` knows to be in another seat's hand: in the draft discard step, those it passed."""
    try:
        given = tuple(passed)
    except TypeError:
        raise InvalidArgumentError(f"passed: hand cards, not {type(passed).__name__}") from None
    if not all(isinstance(c, HandCard) for c in given):
        raise InvalidArgumentError(f"passed: hand cards, not {', '.join(sorted({type(c).__name__ for c in given}))}")
    cards = frozenset(given)
    if state.phase is not Phase.DRAFT_DISCARD or not cards:
        return {}
    receiver = (seat + 1) % state.players
    if len(cards) != 2 or not cards <= set(state.hands[receiver]):
        raise InvalidArgumentError(
            f"passed: seat {seat} passed 2 cards that seat {receiver} holds in the draft discard step (rule 2.5), "
            f"not the cards {sorted(c.id for c in cards)}"
        )
    return {receiver: cards}


def _reinforcements_only(state: GameState) -> set[int]:
    """Seats whose hand the view shows to hold reinforcement cards only (ruling H).

    A seat idle at a play step while it held cards had no playable card; a faction card is always playable,
    so it held reinforcement cards only, and its hand has only lost cards since, until the re-organize.
    """
    table = state.history[-1].table if state.week_score is not None else state.table  # placed cards included
    if table is None:
        return set()
    return set(table.reinforcements_only([len(hand) for hand in state.hands]))


def _redeal(
    state: GameState, seat: int, pinned: Mapping[int, frozenset[HandCard]], rng: random.Random
) -> tuple[tuple[tuple[HandCard, ...], ...], tuple[HandCard, ...], tuple[HandCard, ...]]:
    """The hands and the draw and discard piles, the cards ``seat`` cannot place dealt again uniformly.

    The pool is shuffled once; the seats that may hold reinforcement cards only take theirs first, in pool
    order, and everyone else takes the rest in pool order: each consistent deal is equally likely.
    """
    others = [s for s in state.seats if s != seat]
    pool = [c for s in others for c in state.hands[s] if c not in pinned.get(s, ())]
    pool += [*state.draw_pile, *state.discard_pile]
    rng.shuffle(pool)
    hands = list(state.hands)
    # A reachable state's idle seats hold reinforcement cards only; the test only spares a hand-built state
    # that breaks this from a deal short of cards.
    restricted = {s for s in _reinforcements_only(state) - {seat} if all(c.is_reinforcement for c in state.hands[s])}
    reinforcements = [c for c in pool if c.is_reinforcement]
    for s in sorted(restricted):
        hands[s], reinforcements = _sorted(reinforcements[: len(hands[s])]), reinforcements[len(hands[s]) :]
    taken = {c for s in restricted for c in hands[s]}
    rest = [c for c in pool if c not in taken]
    for s in others:
        if s not in restricted:
            free = len(hands[s]) - len(pinned.get(s, ()))
            hands[s], rest = _sorted([*pinned.get(s, ()), *rest[:free]]), rest[free:]
    draw = len(state.draw_pile)
    return tuple(hands), tuple(rest[:draw]), tuple(rest[draw:])


def _redraw_victors(state: GameState, seat: int, rng: random.Random) -> tuple[Faction, ...]:
    """The other seats' victor cards, a random assignment of the factions ``seat`` does not hold; the
    true ones once the verdict has revealed them."""
    if state.is_over:
        return state.victors
    victors = list(state.victors)
    others = [s for s in state.seats if s != seat]
    free = [f for f in Faction if f is not state.victors[seat]]
    for s, f in zip(others, rng.sample(free, len(others)), strict=True):
        victors[s] = f
    return tuple(victors)


def _redraw_pending(world: GameState, seat: int, rng: random.Random) -> GameState:
    """``world`` with each other seat's pending choice drawn again among its legal actions in ``world``.

    Whether a seat has chosen is public (:attr:`~darkempire.rules.views.PlayerView.chosen`), so only the seats
    that have chosen get a choice. A seat's legal actions do not depend on the other seats' pending choices.
    """
    pending = list(world.pending)
    redrawn = [s for s, choice in enumerate(pending) if choice is not None and s != seat]
    if not redrawn:
        return world
    for s in redrawn:
        pending[s] = None
    free = attrs.evolve(world, pending=tuple(pending))
    for s in redrawn:
        pending[s] = rng.choice(engine.legal_actions(free, s))
    return attrs.evolve(world, pending=tuple(pending))


def _reshuffle(
    pile: tuple[Any, ...], reserve: tuple[Any, ...], seen: set[Any], rng: random.Random
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Permute the cards of ``pile + reserve`` that ``seen`` does not hold among their places."""
    both = list(pile + reserve)
    places = [i for i, c in enumerate(both) if c not in seen]
    cards = [both[i] for i in places]
    rng.shuffle(cards)
    for i, c in zip(places, cards, strict=True):
        both[i] = c
    return tuple(both[: len(pile)]), tuple(both[len(pile) :])
