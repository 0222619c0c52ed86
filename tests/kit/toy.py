"""Toyspiel: a tiny game on tablekit, to prove the kit carries a game that is not Dark Empire.

A Goofspiel variant for 2-4 players. Each seat holds the cards ``1 .. cards``; the prize deck holds the same
values. Each round:

1. chance draws the round's prize from the deck (public), unless it was peeked last round;
2. **bid** (simultaneous, hidden): every seat bids a card from its hand; the bids are revealed together;
   the highest bid wins, the lowest seat among equal bids (rule T2);
3. **claim** (sequential, the winner alone): ``Keep`` scores the prize; ``Peek`` scores the prize minus 1 and
   draws the next round's prize now, seen only by the winner until the next bids are revealed (rule T3), so its
   draw is a private chance event and the other seats bid on a prize they do not know.

After the last round the game is over; a seat's return is its score. The two step shapes are those of
*Revolution!*: a simultaneous bid, then a one-seat choice during resolution.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TypeAlias

import attrs

from tablekit.chance import ChanceSource, Concealed, Outcome
from tablekit.errors import IllegalChoiceError, KitError
from tablekit.events import Event
from tablekit.game import Game, LazyActions, Transition

__all__ = ["GAME", "Bid", "BidsRevealed", "CardNotHeldError", "Claimed", "GameEnded", "NothingToPeekError", "Phase",
           "PrizeRevealed", "Started", "ToyConfigError", "WrongPhaseError", "Keep", "Peek", "Toyspiel", "ToyAction", "ToyConfig", "ToyEvent", "ToyState", "ToyView"]


class ToyConfigError(KitError, ValueError):
    """A config outside 2-4 players or 1-9 cards."""


class WrongPhaseError(IllegalChoiceError):
    """An action of another step (a bid at the claim, a claim at the bid)."""


class CardNotHeldError(IllegalChoiceError):
    """A bid of a card the seat does not hold (rule T1)."""


class NothingToPeekError(IllegalChoiceError):
    """A peek when the prize deck is empty (rule T3)."""


@attrs.frozen
class ToyConfig:
    """The options: ``players`` (2-4) and ``cards`` per hand and in the deck (1-9)."""

    players: int = 2
    cards: int = 4

    def __attrs_post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 4:
            raise ToyConfigError(f"Toyspiel is for 2-4 players, not {self.players!r}")
        if type(self.cards) is not int or not 1 <= self.cards <= 9:
            raise ToyConfigError(f"Toyspiel uses 1-9 cards, not {self.cards!r}")


class Phase(enum.Enum):
    """The step: BID (everyone), CLAIM (the winner), OVER."""

    BID = "bid"
    CLAIM = "claim"
    OVER = "over"


@attrs.frozen
class Bid:
    """Bid ``card`` from the hand."""

    card: int


@attrs.frozen
class Keep:
    """Score the prize."""


@attrs.frozen
class Peek:
    """Score the prize minus 1 and see the next prize now."""


ToyAction: TypeAlias = Bid | Keep | Peek


@attrs.frozen
class ToyState:
    """The whole game: hands, scores, the undrawn deck (sorted), the round's prize (known to ``peeker`` alone
    if it was peeked), the step, and the claimant at a claim."""

    players: int
    hands: tuple[frozenset[int], ...]
    scores: tuple[int, ...]
    deck: tuple[int, ...]
    prize: int | None
    phase: Phase
    claimant: int | None = None
    peeker: int | None = None


@attrs.frozen
class ToyView:
    """What ``seat`` (``None``: a spectator) sees: its own hand, the prize unless another seat peeked it, and
    everything public."""

    seat: int | None
    hand: frozenset[int] | None
    scores: tuple[int, ...]
    prize: int | None
    deck_size: int
    phase: Phase
    claimant: int | None


@attrs.frozen
class Started:
    """The game began with ``players`` seats holding ``cards`` cards each."""

    players: int
    cards: int


@attrs.frozen
class BidsRevealed:
    """Every seat's bid, revealed together, and the winning seat."""

    bids: tuple[int, ...]
    winner: int


@attrs.frozen
class Claimed:
    """The winner kept or peeked, and scored ``points``."""

    seat: int
    peeked: bool
    points: int


@attrs.frozen
class PrizeRevealed:
    """The peeked prize, shown to everyone with the bids."""

    prize: int


@attrs.frozen
class GameEnded:
    """The final scores."""

    scores: tuple[int, ...]


ToyEvent: TypeAlias = Started | Outcome[int] | Concealed | BidsRevealed | Claimed | PrizeRevealed | GameEnded


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


class Toyspiel:
    """The rules of Toyspiel, on :class:`tablekit.game.Game`."""

    @property
    def name(self) -> str:
        """``"toyspiel"``."""
        return "toyspiel"

    @property
    def version(self) -> int:
        """Format version 1."""
        return 1

    def initial(self, config: ToyConfig, chance: ChanceSource) -> Transition[ToyState, ToyEvent]:
        """Deal the hands and draw the first prize."""
        cards = frozenset(range(1, config.cards + 1))
        state = ToyState(config.players, (cards,) * config.players, (0,) * config.players, tuple(sorted(cards)), None,
                         Phase.BID)
        state, events, chance = self._next_prize(state, chance)
        return Transition(state, (Event.public(Started(config.players, config.cards)), *events), chance)

    def _draw(self, state: ToyState, chance: ChanceSource) -> tuple[Outcome[int], ToyState, ChanceSource]:
        outcome, chance = chance.draw("prize", state.deck)
        deck = state.deck[: outcome.index] + state.deck[outcome.index + 1 :]
        return outcome, attrs.evolve(state, deck=deck), chance

    def _next_prize(
        self, state: ToyState, chance: ChanceSource
    ) -> tuple[ToyState, tuple[Event[ToyEvent], ...], ChanceSource]:
        outcome, state, chance = self._draw(state, chance)
        return attrs.evolve(state, prize=outcome.value, phase=Phase.BID, claimant=None), (Event.public(outcome),), chance

    def players(self, state: ToyState) -> int:
        """The number of seats."""
        return state.players

    def awaited(self, state: ToyState) -> frozenset[int]:
        """Everyone at a bid, the winner at a claim, no one at the end."""
        if state.phase is Phase.BID:
            return frozenset(range(state.players))
        if state.phase is Phase.CLAIM and state.claimant is not None:
            return frozenset({state.claimant})
        return frozenset()

    def legal_actions(self, state: ToyState, seat: int) -> Sequence[ToyAction]:
        """The bids, lazily (in card order), or Keep and, with prizes left, Peek."""
        if state.phase is Phase.BID:
            hand = sorted(state.hands[seat])
            return LazyActions(len(hand), lambda i: Bid(hand[i]), lambda a: isinstance(a, Bid) and a.card in hand)
        return (Keep(), Peek()) if state.deck else (Keep(),)

    def check(self, state: ToyState, seat: int, action: ToyAction) -> ToyAction:
        """Rules T1-T3; returns the action rebuilt from the state's own values, which the kit keeps (a
        caller's object may change after the check)."""
        if isinstance(action, Bid) != (state.phase is Phase.BID):
            raise WrongPhaseError(f"{action!r} is not an action of the {state.phase.value} step", seat=seat, rule="T2")
        if isinstance(action, Bid):
            card = action.card  # read once
            held = sorted(c for c in state.hands[seat] if c == card)
            if card not in state.hands[seat] or not held:
                raise CardNotHeldError(f"seat {seat} holds no card {card!r}", seat=seat, rule="T1")
            return Bid(held[0])
        if isinstance(action, Peek):
            if not state.deck:
                raise NothingToPeekError("the prize deck is empty", seat=seat, rule="T3")
            return Peek()
        return Keep()

    def step(
        self, state: ToyState, choices: Mapping[int, ToyAction], chance: ChanceSource
    ) -> Transition[ToyState, ToyEvent]:
        """Reveal the bids, or resolve the claim and start the next round."""
        if state.phase is Phase.BID:
            return self._reveal(state, choices, chance)
        assert state.claimant is not None and state.prize is not None
        return self._claim(state, state.claimant, state.prize, choices[state.claimant], chance)

    def _reveal(
        self, state: ToyState, choices: Mapping[int, ToyAction], chance: ChanceSource
    ) -> Transition[ToyState, ToyEvent]:
        bids = tuple(action.card if isinstance(action, Bid) else 0 for _, action in sorted(choices.items()))
        winner = bids.index(max(bids))
        hands = tuple(hand - {bids[seat]} for seat, hand in enumerate(state.hands))
        revealed: tuple[Event[ToyEvent], ...] = ()
        if state.peeker is not None and state.prize is not None:
            revealed = (Event.public(PrizeRevealed(state.prize)),)
        state = attrs.evolve(state, hands=hands, phase=Phase.CLAIM, claimant=winner, peeker=None)
        return Transition(state, (*revealed, Event.public(BidsRevealed(bids, winner))), chance)

    def _claim(
        self, state: ToyState, seat: int, prize: int, action: ToyAction, chance: ChanceSource
    ) -> Transition[ToyState, ToyEvent]:
        peek = isinstance(action, Peek)
        points = prize - 1 if peek else prize
        state = attrs.evolve(state, scores=_set(state.scores, seat, state.scores[seat] + points))
        events: list[Event[ToyEvent]] = [Event.public(Claimed(seat, peek, points))]
        if not any(state.hands):
            state = attrs.evolve(state, phase=Phase.OVER, claimant=None, prize=None)
            events.append(Event.public(GameEnded(state.scores)))
            return Transition(state, events, chance)
        if peek:
            outcome, state, chance = self._draw(state, chance)
            state = attrs.evolve(state, prize=outcome.value, peeker=seat, phase=Phase.BID, claimant=None)
            events.append(Event.private(outcome, {seat}, others_see=outcome.concealed()))
            return Transition(state, events, chance)
        state, more, chance = self._next_prize(state, chance)
        return Transition(state, (*events, *more), chance)

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        """The seat's own hand, and the prize unless another seat peeked it; everything else public."""
        hand = state.hands[seat] if seat is not None else None
        prize = state.prize if state.peeker is None or seat == state.peeker else None
        return ToyView(seat, hand, state.scores, prize, len(state.deck), state.phase, state.claimant)

    def is_over(self, state: ToyState) -> bool:
        """After the last claim."""
        return state.phase is Phase.OVER

    def returns(self, state: ToyState) -> tuple[float, ...]:
        """The scores."""
        return tuple(float(score) for score in state.scores)


#: The toy as the kit sees it: mypy checks here that Toyspiel implements the protocol.
GAME: Game[ToyConfig, ToyState, ToyAction, ToyView, ToyEvent] = Toyspiel()
