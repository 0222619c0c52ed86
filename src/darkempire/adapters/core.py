"""What the OpenSpiel and PettingZoo adapters share: the action encoding, the explicit chance, the observations.

Nothing here imports OpenSpiel or PettingZoo; numpy (in both extras) builds the tensors.

Action encoding
===============

One fixed integer action space of :data:`NUM_ACTIONS` (= 6857) actions for every player count. Card ids are
those of :data:`darkempire.cards.HAND_CARDS` (faction cards 0-64, reinforcement cards 65-74).

=====================  ======================================  =================================================
range                  action                                  index
=====================  ======================================  =================================================
0                      wait (:data:`NO_OP`)                    the one action of a seat the step does not await
1 - 2775               ``PassCards({a, b})``                   ``PASS_BASE + rank(a, b)``: ``rank`` numbers the
                                                               pairs ``a < b`` of ids 0-74 in
                                                               ``itertools.combinations`` order
2776 - 5550            ``DiscardCards({a, b})``                ``DISCARD_BASE + rank(a, b)``
5551 - 5555            ``ChooseSupport(f)``                    ``SUPPORT_BASE + f``
5556 - 5685            ``PlayCard(c, side)``                   ``PLAY_BASE + 2 * c + side`` (0 revolution,
                                                               1 emperor), ``c`` a faction card id
5686 - 6335            ``Reinforce(r, t)``                     ``REINFORCE_BASE + 65 * (r - 65) + t``
6336                   ``PlayNothing()``                       :data:`PLAY_NOTHING`
6337 - 6344            ``PlaceCards(cards)``                   ``PLACE_BASE + mask``: bit ``k`` set places the
                                                               ``k``-th of the seat's own revolution-side cards
                                                               on the table, sorted by id (at most 3 such cards)
6345 - 6856            ``Reorganize(take_back, discards)``     ``REORGANIZE_BASE + 128 * slot + mask``: ``slot``
                                                               0 takes nothing back, ``k`` in 1-3 takes back the
                                                               ``k``-th own revolution-side card on the table
                                                               (sorted by id); bit ``j`` of ``mask`` discards the
                                                               ``j``-th card of the hand sorted by id (a hand
                                                               holds at most 7 cards at re-organize, rule 6.4)
=====================  ======================================  =================================================

Placement and re-organize are encoded over positions because their card sets are too many to number one by
one (2\\ :sup:`7` discard sets for each take-back); every other action names its cards by id.

Explicit chance
===============

The engine draws every shuffle from the :class:`~darkempire.chance.Chance` inside the state. The adapters
instead make each random event a chance node with uniform outcomes, so a history of integers replays the game:

* the deal: each seat's victor card (outcome: the faction), then 9 hand cards per seat, one card at a time
  (outcome: the card id);
* at each week start, the revolution card (outcome: its faction) and the emperor card (outcome: its id) among
  the cards of this month's piles not revealed yet (rules 3.3, 4.1);
* at each re-organize, every card drawn to refill a hand (outcome: the card id), in seat order, from the draw
  pile and then, once it is empty, from the discard pile (rules 6.4, R-R).

After a joint action the engine resolves the step with its own generator; the adapter then draws again,
uniformly, the cards the engine drew or revealed, and puts them in their place. The piles are kept sorted, so
their order carries no information. This gives the rulebook's distribution: the order of a shuffled pile only
matters through the cards drawn from it, and each of those is uniform among the cards not drawn yet.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from darkempire import engine
from darkempire.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
    Side,
)
from darkempire.cards import (
    EMPEROR_CARDS,
    HAND_CARDS,
    REVOLUTION_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    HandCard,
    RevolutionCard,
)
from darkempire.chance import Chance
from darkempire.errors import InvalidArgumentError
from darkempire.state import DEAL_SIZE, HAND_SIZE, MONTHS, STEPS, WEEKS, GameConfig, GameState, Phase
from darkempire.table import WeekTable
from darkempire.views import PlayerView, player_view, spectator_view

__all__ = [
    "DISCARD_BASE",
    "MAX_DECISIONS",
    "MAX_OWN_PLAYS",
    "MAX_REORGANIZE_HAND",
    "NO_OP",
    "NUM_ACTIONS",
    "PASS_BASE",
    "PLACE_BASE",
    "PLAY_BASE",
    "PLAY_NOTHING",
    "REINFORCE_BASE",
    "REORGANIZE_BASE",
    "SUPPORT_BASE",
    "Event",
    "Flow",
    "action_text",
    "card_text",
    "decode",
    "encode",
    "fill_observation",
    "fill_tensor",
    "index_text",
    "info_state_text",
    "legal_indices",
    "make_pieces",
    "max_chance_events",
    "observation_text",
    "own_plays",
    "private_observation_text",
    "private_text",
    "resample_hidden",
    "tensor_layout",
    "tensor_size",
    "view_text",
]

# --------------------------------------------------------------------------- action encoding

_FACTION_CARDS: Final = 65
_REINFORCEMENTS: Final = 10
_PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(itertools.combinations(range(len(HAND_CARDS)), 2))
_PAIR_RANK: Final[dict[tuple[int, int], int]] = {pair: rank for rank, pair in enumerate(_PAIRS)}
#: Most own revolution-side cards a seat can have on the table: one per play step (rule 4.2).
MAX_OWN_PLAYS: Final = STEPS
#: Largest hand at re-organize: hands are refilled to 7 and only shrink during a week (rules 2.6, 6.4).
MAX_REORGANIZE_HAND: Final = HAND_SIZE

#: The action of a seat that the current step does not await.
NO_OP: Final = 0
#: First ``PassCards`` action.
PASS_BASE: Final = 1
#: First ``DiscardCards`` action.
DISCARD_BASE: Final = PASS_BASE + len(_PAIRS)
#: First ``ChooseSupport`` action.
SUPPORT_BASE: Final = DISCARD_BASE + len(_PAIRS)
#: First ``PlayCard`` action.
PLAY_BASE: Final = SUPPORT_BASE + len(Faction)
#: First ``Reinforce`` action.
REINFORCE_BASE: Final = PLAY_BASE + 2 * _FACTION_CARDS
#: The ``PlayNothing`` action.
PLAY_NOTHING: Final = REINFORCE_BASE + _REINFORCEMENTS * _FACTION_CARDS
#: First ``PlaceCards`` action (mask 0 is never legal).
PLACE_BASE: Final = PLAY_NOTHING + 1
#: First ``Reorganize`` action.
REORGANIZE_BASE: Final = PLACE_BASE + (1 << MAX_OWN_PLAYS)
#: Size of the action space.
NUM_ACTIONS: Final = REORGANIZE_BASE + (MAX_OWN_PLAYS + 1) * (1 << MAX_REORGANIZE_HAND)

_SIDES: Final = (Side.REVOLUTION, Side.EMPEROR)
_LETTER: Final = {
    Faction.WORKERS: "W",
    Faction.CALENDRICAL_ORDER: "C",
    Faction.SUFFRAGETTES: "S",
    Faction.MECHANDROS: "M",
    Faction.STUDENTS: "T",
}


def own_plays(state: GameState, seat: int) -> tuple[HandCard, ...]:
    """The seat's own revolution-side faction cards on this week's table, sorted by id.

    The positions that :class:`PlaceCards` and the take-back of :class:`Reorganize` are encoded over.
    """
    if state.table is None:
        return ()
    return tuple(sorted((p.card for p in state.table.revolution_plays() if p.seat == seat), key=lambda c: c.id))


def _pair(cards: Iterable[HandCard]) -> int:
    a, b = sorted(c.id for c in cards)
    return _PAIR_RANK[(a, b)]


def _mask(chosen: Iterable[HandCard], positions: Sequence[HandCard]) -> int:
    index = {c: k for k, c in enumerate(positions)}
    return sum(1 << index[c] for c in chosen)


def _masked(mask: int, positions: Sequence[HandCard]) -> frozenset[HandCard]:
    if mask >> len(positions):
        raise ValueError(f"mask {mask:b} names a position beyond the {len(positions)} cards")
    return frozenset(c for k, c in enumerate(positions) if mask >> k & 1)


def encode(state: GameState, seat: int, action: Action) -> int:
    """The integer of ``seat``'s ``action`` in ``state`` (see the module docstring).

    :raises ValueError: if a card the action names is not where its encoding needs it.
    """
    if isinstance(action, PassCards):
        return PASS_BASE + _pair(action.cards)
    if isinstance(action, DiscardCards):
        return DISCARD_BASE + _pair(action.cards)
    if isinstance(action, ChooseSupport):
        return SUPPORT_BASE + int(action.faction)
    if isinstance(action, PlayCard):
        return PLAY_BASE + 2 * action.card.id + _SIDES.index(action.side)
    if isinstance(action, Reinforce):
        return REINFORCE_BASE + _FACTION_CARDS * (action.card.id - _FACTION_CARDS) + action.target.id
    if isinstance(action, PlayNothing):
        return PLAY_NOTHING
    own = own_plays(state, seat)
    if isinstance(action, PlaceCards):
        return PLACE_BASE + _mask(action.cards, own)
    slot = 0 if action.take_back is None else own.index(action.take_back) + 1
    return REORGANIZE_BASE + (1 << MAX_REORGANIZE_HAND) * slot + _mask(action.discards, state.hands[seat])


def decode(state: GameState, seat: int, index: int) -> Action | None:
    """The action that ``index`` stands for, for ``seat`` in ``state``; ``None`` for :data:`NO_OP`.

    Only placement and re-organize depend on the state (their positions). The result is not checked for
    legality: see :func:`legal_indices`.

    :raises ValueError: if ``index`` is outside the action space or names a position that does not exist.
    """
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action {index} is not in 0-{NUM_ACTIONS - 1}")
    if index == NO_OP:
        return None
    if index < DISCARD_BASE:
        return PassCards(frozenset(HAND_CARDS[i] for i in _PAIRS[index - PASS_BASE]))
    if index < SUPPORT_BASE:
        return DiscardCards(frozenset(HAND_CARDS[i] for i in _PAIRS[index - DISCARD_BASE]))
    if index < PLAY_BASE:
        return ChooseSupport(Faction(index - SUPPORT_BASE))
    if index < REINFORCE_BASE:
        card, side = divmod(index - PLAY_BASE, 2)
        return PlayCard(HAND_CARDS[card], _SIDES[side])
    if index < PLAY_NOTHING:
        card, target = divmod(index - REINFORCE_BASE, _FACTION_CARDS)
        return Reinforce(HAND_CARDS[_FACTION_CARDS + card], HAND_CARDS[target])
    if index == PLAY_NOTHING:
        return PlayNothing()
    own = own_plays(state, seat)
    if index < REORGANIZE_BASE:
        return PlaceCards(_masked(index - PLACE_BASE, own))
    slot, mask = divmod(index - REORGANIZE_BASE, 1 << MAX_REORGANIZE_HAND)
    if slot > len(own):
        raise ValueError(f"take-back slot {slot}, but seat {seat} has {len(own)} own cards on the table")
    take_back = own[slot - 1] if slot else None
    return Reorganize(take_back, _masked(mask, state.hands[seat]))


def legal_indices(state: GameState, seat: int) -> list[int]:
    """``seat``'s legal actions in ``state`` as sorted integers: the encodings of
    :func:`darkempire.engine.legal_actions`, or ``[NO_OP]`` when the step does not await the seat."""
    if state.is_over:
        return []
    if state.phase is Phase.REORGANIZE:
        # Every take-back (or none) with every discard set (rules 6.2, 6.3): listed without building the
        # actions; the tests compare this with the engine's legal actions.
        if not engine.awaited_seats(state) >= {seat}:
            return [NO_OP]
        hand = len(state.hands[seat])
        slots = range(1 + len(own_plays(state, seat)))
        return [REORGANIZE_BASE + (1 << MAX_REORGANIZE_HAND) * t + m for t in slots for m in range(1 << hand)]
    legal = engine.legal_actions(state, seat)
    if not legal:
        return [NO_OP]
    return sorted(encode(state, seat, a) for a in legal)


def card_text(card: HandCard) -> str:
    """A short card name: faction letter, value and id, such as ``W4#0``; ``+3#65`` for a reinforcement card."""
    if card.faction is None:
        return f"+3#{card.id}"
    return f"{_LETTER[card.faction]}{card.value}#{card.id}"


def _cards_text(cards: Iterable[HandCard]) -> str:
    return " ".join(card_text(c) for c in sorted(cards, key=lambda c: c.id)) or "-"


def action_text(action: Action | None) -> str:
    """A short, unambiguous text of an action (``None``: wait)."""
    if action is None:
        return "wait"
    if isinstance(action, PassCards):
        return f"pass {_cards_text(action.cards)}"
    if isinstance(action, DiscardCards):
        return f"discard {_cards_text(action.cards)}"
    if isinstance(action, ChooseSupport):
        return f"support {action.faction.name}"
    if isinstance(action, PlayCard):
        return f"play {card_text(action.card)} {action.side.name.lower()}"
    if isinstance(action, Reinforce):
        return f"reinforce {card_text(action.target)} with {card_text(action.card)}"
    if isinstance(action, PlayNothing):
        return "play nothing"
    if isinstance(action, PlaceCards):
        return f"place {_cards_text(action.cards)}"
    back = card_text(action.take_back) if action.take_back is not None else "nothing"
    return f"take back {back}, discard {_cards_text(action.discards)}"


def index_text(state: GameState | None, seat: int, index: int) -> str:
    """:func:`action_text` of ``index`` for ``seat``; positions are named when ``state`` cannot resolve them."""
    if state is not None:
        try:
            return action_text(decode(state, seat, index))
        except ValueError:
            pass
    if PLACE_BASE <= index < REORGANIZE_BASE:
        return f"place own-play positions {index - PLACE_BASE:03b}"
    if REORGANIZE_BASE <= index < NUM_ACTIONS:
        slot, mask = divmod(index - REORGANIZE_BASE, 1 << MAX_REORGANIZE_HAND)
        return f"take back own-play position {slot}, discard hand positions {mask:07b}"
    return action_text(decode(_EMPTY_STATE, seat, index))


# --------------------------------------------------------------------------- explicit chance


@attrs.frozen
class Event:
    """A pending chance event.

    :ivar kind: ``"victor"`` (a seat's victor card), ``"deal"`` (a card dealt to a seat), ``"draw"`` (a card
        drawn at re-organize), ``"revolution"`` or ``"emperor"`` (the week's revealed card).
    :ivar seat: the seat that gets the card; -1 for the revealed cards.
    """

    kind: str
    seat: int = -1


def _config(players: int) -> GameConfig:
    return GameConfig(players=players)


def _sorted(cards: Iterable[HandCard]) -> tuple[HandCard, ...]:
    return tuple(sorted(cards, key=lambda c: c.id))


_EMPTY_STATE: Final = engine.deal(GameConfig(players=3), 0)


@attrs.frozen(eq=False)
class Flow:
    """A game in progress with explicit chance: an engine state plus the chance events still to draw.

    Immutable: every method returns a new :class:`Flow`.

    :ivar players: number of seats.
    :ivar state: the engine state, or ``None`` while the deal is being drawn.
    :ivar victors: victor factions drawn so far (during the deal).
    :ivar dealt: hand cards drawn so far, by seat (during the deal).
    :ivar queue: chance events still to draw, first first.
    :ivar shown: while ``queue`` is not empty after a joint action, the state the seats see: the step before
        it resolved, with every awaited seat's choice recorded as pending. ``None`` otherwise.
    :ivar trail: for each seat, one line per joint action so far: what the seat saw (without the public logs)
        and what it chose. With the current view, this makes the seat's information state.
    """

    players: int
    state: GameState | None
    victors: tuple[Faction, ...] = ()
    dealt: tuple[tuple[HandCard, ...], ...] = ()
    queue: tuple[Event, ...] = ()
    shown: GameState | None = None
    trail: tuple[tuple[str, ...], ...] = ()
    _cache: dict[str, Any] = attrs.field(factory=dict, init=False, repr=False)

    # ------------------------------------------------------------------ construction

    @classmethod
    def start(cls, players: int) -> Flow:
        """A new game before the deal: its first chance events are the victor cards and the 9 cards per seat.

        :raises ConfigError: if ``players`` is not 3-5.
        """
        _config(players)
        queue = tuple(Event("victor", s) for s in range(players))
        queue += tuple(Event("deal", s) for s in range(players) for _ in range(DEAL_SIZE))
        return cls(players, None, (), ((),) * players, queue, None, ((),) * players)

    # ------------------------------------------------------------------ queries

    @property
    def is_chance(self) -> bool:
        """Whether a chance event is next."""
        return bool(self.queue)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state is not None and self.state.is_over and not self.queue

    @property
    def seen(self) -> GameState | None:
        """The state the seats see now (``None`` during the deal)."""
        return self.shown if self.shown is not None else self.state

    def view(self, seat: int | None) -> PlayerView | None:
        """``seat``'s view of :attr:`seen` (``None``: the spectator's); ``None`` during the deal."""
        seen = self.seen
        if seen is None:
            return None
        key = f"view{seat}"
        if key not in self._cache:
            self._cache[key] = spectator_view(seen) if seat is None else player_view(seen, seat)
        view: PlayerView = self._cache[key]
        return view

    def legal(self, seat: int) -> list[int]:
        """``seat``'s legal actions at a decision (:func:`legal_indices`); ``[]`` at chance nodes and the end."""
        if self.queue or self.state is None or self.state.is_over:
            return []
        key = f"legal{seat}"
        if key not in self._cache:
            self._cache[key] = legal_indices(self.state, seat)
        legal: list[int] = self._cache[key]
        return list(legal)

    def returns(self) -> list[float]:
        """Each seat's return: at the end, the winners share +1 (each gets ``1 / len(winners)``) and every
        other seat gets -1 (rules 8.2-8.5); 0 for everyone before the end."""
        if not self.is_over:
            return [0.0] * self.players
        assert self.state is not None and self.state.verdict is not None
        winners = self.state.verdict.winners
        return [1.0 / len(winners) if s in winners else -1.0 for s in range(self.players)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next chance event's outcomes, uniform, sorted by outcome."""
        outcomes = self._outcomes()
        p = 1.0 / len(outcomes)
        return [(o, p) for o in outcomes]

    def _outcomes(self) -> list[int]:
        event = self.queue[0]
        if event.kind == "victor":
            return [int(f) for f in Faction if f not in self.victors]
        if event.kind == "deal":
            dealt = {c.id for hand in self.dealt for c in hand}
            return [c.id for c in HAND_CARDS if c.id not in dealt]
        state = self.state
        assert state is not None
        if event.kind == "draw":
            return sorted(c.id for c in (state.draw_pile or state.discard_pile))
        if event.kind == "revolution":
            return sorted(int(c.faction) for c in _unseen_revolution(state))
        return sorted(c.id for c in _unseen_emperor(state))

    def outcome_text(self, outcome: int) -> str:
        """What chance outcome ``outcome`` of the next event means."""
        if not self.queue:
            return f"chance outcome {outcome}"
        event = self.queue[0]
        if event.kind == "victor":
            return f"seat {event.seat} gets victor card {Faction(outcome).name}"
        if event.kind in ("deal", "draw"):
            verb = "is dealt" if event.kind == "deal" else "draws"
            return f"seat {event.seat} {verb} {card_text(HAND_CARDS[outcome])}"
        if event.kind == "revolution":
            return f"revolution card {Faction(outcome).name} revealed"
        return f"emperor card {EMPEROR_CARDS[outcome].value}#{outcome} revealed"

    # ------------------------------------------------------------------ transitions

    def apply_chance(self, outcome: int) -> Flow:
        """Draw ``outcome`` for the next chance event.

        :raises ValueError: if ``outcome`` is not one of :meth:`chance_outcomes`.
        """
        if not self.queue:
            raise ValueError("no chance event is pending")
        if outcome not in self._outcomes():
            raise ValueError(f"{outcome} is not an outcome of the {self.queue[0].kind} event")
        event, rest = self.queue[0], self.queue[1:]
        victors, dealt, state = self.victors, self.dealt, self.state
        if event.kind == "victor":
            victors = victors + (Faction(outcome),)
        elif event.kind == "deal":
            hands = list(dealt)
            hands[event.seat] = hands[event.seat] + (HAND_CARDS[outcome],)
            dealt = tuple(hands)
        else:
            assert state is not None
            state = _draw(state, event, outcome)
        if state is None and not rest:
            state = _dealt_state(self.players, victors, dealt)
            victors, dealt = (), ()
        shown = self.shown if rest else None
        return Flow(self.players, state, victors, dealt, rest, shown, self.trail)

    def apply_joint(self, actions: Sequence[int]) -> Flow:
        """Apply one action per seat (:data:`NO_OP` for each seat the step does not await).

        :raises ValueError: if an action is not legal for its seat.
        """
        state = self.state
        if self.queue or state is None or state.is_over:
            raise ValueError("no seat chooses now")
        if len(actions) != self.players:
            raise ValueError(f"{len(actions)} actions for {self.players} seats")
        choices: dict[int, Action] = {}
        for seat, index in enumerate(actions):
            legal = self.legal(seat)
            if index not in legal:
                raise ValueError(f"action {index} ({index_text(state, seat, index)}) is not legal for seat {seat}")
            action = decode(state, seat, index)
            if action is not None:
                choices[seat] = action
        after = state
        for seat, action in choices.items():
            after = engine.apply(after, seat, action)
        trail = tuple(
            self.trail[s] + (f"{view_text(player_view(state, s), logs=False)} => {index_text(state, s, actions[s])}",)
            for s in range(self.players)
        )
        pending = tuple(choices.get(s) for s in range(self.players))
        mid, queue = _events(state, choices, after)
        shown = attrs.evolve(state, pending=pending) if queue else None
        return Flow(self.players, mid, (), (), queue, shown, trail)

    def resample(self, seat: int, rng: random.Random) -> GameState:
        """A complete engine state that ``seat`` cannot tell from this one, for determinized search.

        :func:`resample_hidden` of the flow's ``state``, with the cards ``seat`` passed in the draft (read back
        from its trail) kept in the next seat's hand during the draft discard step. Every hidden card, victor
        card, support card and pending choice is drawn again among the values ``seat``'s knowledge allows, the
        generator gets a random seed (so the engine's own shuffles are random from here on), and the world is
        a legal state with ``seat``'s view.

        :raises ValueError: at a chance node.
        """
        state = self.state
        if self.queue or state is None:
            raise ValueError("resample at a decision or at the end, not at a chance node")
        passed = self._passed(seat) if state.phase is Phase.DRAFT_DISCARD else frozenset()
        return resample_hidden(state, seat, rng, passed=passed)

    def _passed(self, seat: int) -> frozenset[HandCard]:
        """The cards ``seat`` passed in the draft, from the first line of its trail (``... => pass W4#0 C3#20``,
        written by :func:`index_text`); none if the trail does not hold a pass."""
        if not self.trail[seat]:
            return frozenset()
        chosen = self.trail[seat][0].rpartition(" => ")[2]
        if not chosen.startswith("pass "):
            return frozenset()
        return frozenset(HAND_CARDS[int(word.rpartition("#")[2])] for word in chosen.split()[1:])

    # ------------------------------------------------------------------ serialization and text

    def to_data(self) -> dict[str, Any]:
        """The flow as JSON-ready data; engine states are ``"game-state"`` messages of ``darkempire.serialization``."""
        from darkempire import serialization

        return {
            "players": self.players,
            "state": None if self.state is None else serialization.to_data(self.state),
            "victors": [f.name for f in self.victors],
            "dealt": [[c.id for c in hand] for hand in self.dealt],
            "queue": [[e.kind, e.seat] for e in self.queue],
            "shown": None if self.shown is None else serialization.to_data(self.shown),
            "trail": [list(lines) for lines in self.trail],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Flow:
        """The inverse of :meth:`to_data`.

        :raises ValueError: if an engine state does not load (``darkempire.serialization.SerializationError``).
        """
        from darkempire import serialization

        def state(value: Any) -> GameState | None:
            if value is None:
                return None
            # The adapter's own states between a joint action and its chance draws are no moment the rules
            # reach (hands still short of 7, every awaited seat pending), so the rules check is off here.
            loaded = serialization.from_data(value, "game-state", check=False)
            assert isinstance(loaded, GameState)
            return loaded

        return cls(
            players=int(data["players"]),
            state=state(data["state"]),
            victors=tuple(Faction[name] for name in data["victors"]),
            dealt=tuple(tuple(HAND_CARDS[i] for i in hand) for hand in data["dealt"]),
            queue=tuple(Event(kind, seat) for kind, seat in data["queue"]),
            shown=state(data["shown"]),
            trail=tuple(tuple(lines) for lines in data["trail"]),
        )

    def text(self) -> str:
        """Everything in the flow, hidden parts included, as text (for debugging and OpenSpiel's ``ToString``)."""
        if "text" in self._cache:
            text: str = self._cache["text"]
            return text
        lines = [f"{self.players} players"]
        if self.queue:
            lines.append("chance next: " + ", ".join(f"{e.kind}({e.seat})" for e in self.queue[:8]))
            lines.append(f"chance events pending: {len(self.queue)}")
        if self.state is None:
            lines.append("victors " + " ".join(f.name for f in self.victors))
            lines += [f"seat {s} dealt {_cards_text(h)}" for s, h in enumerate(self.dealt)]
        else:
            state = self.state
            lines.append("victors " + " ".join(f.name for f in state.victors))
            lines.append("support " + " ".join(f.name if f else "-" for f in state.support))
            lines += [f"seat {s} hand {_cards_text(h)}" for s, h in enumerate(state.hands)]
            lines.append(f"draw pile {_cards_text(state.draw_pile)}")
            lines.append(f"discard pile {_cards_text(state.discard_pile)}")
            lines.append("revolution pile " + " ".join(c.faction.name for c in state.revolution_pile))
            lines.append("revolution reserve " + " ".join(c.faction.name for c in state.revolution_reserve))
            lines.append("emperor pile " + " ".join(str(c.id) for c in state.emperor_pile))
            lines.append("emperor reserve " + " ".join(str(c.id) for c in state.emperor_reserve))
            lines.append(f"generator {state.chance.seed}:{state.chance.draws}")
            lines.append(view_text(spectator_view(state)))
        if self.shown is not None:
            lines.append("pending " + " | ".join(action_text(a) for a in self.shown.pending))
        text = "\n".join(lines)
        self._cache["text"] = text
        return text

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickling (OpenSpiel serializes a Python state by pickling its attributes) goes through the JSON.
        import json

        return (_flow_from_json, (json.dumps(self.to_data(), separators=(",", ":")),))

    def __deepcopy__(self, memo: dict[int, Any]) -> Flow:
        return self  # immutable: OpenSpiel's clone deep-copies the state's attributes


def _flow_from_json(text: str) -> Flow:
    from darkempire import serialization

    return Flow.from_data(serialization.parse_json(text))


def _dealt_state(players: int, victors: tuple[Faction, ...], dealt: tuple[tuple[HandCard, ...], ...]) -> GameState:
    """The state after the deal, from the drawn victor cards and hands; the piles sorted (rule 2.4)."""
    template = engine.deal(_config(players), 0)
    held = {c for hand in dealt for c in hand}
    return attrs.evolve(
        template,
        victors=victors,
        hands=tuple(_sorted(hand) for hand in dealt),
        draw_pile=tuple(c for c in HAND_CARDS if c not in held),
        revolution_pile=REVOLUTION_CARDS[:WEEKS],
        revolution_reserve=REVOLUTION_CARDS[WEEKS:],
        emperor_pile=EMPEROR_CARDS[:WEEKS],
        emperor_reserve=EMPEROR_CARDS[WEEKS:],
    )


def _revealed_this_month(state: GameState) -> tuple[set[RevolutionCard], set[EmperorCard]]:
    """Revolution and emperor cards of this month's earlier weeks (not the current table's)."""
    tables = [r.table for r in state.history if r.month == state.month]
    revolution = {t.revolution_card for t in tables}
    emperor = {t.emperor_card for t in tables if t.emperor_card is not None}
    return revolution, emperor


def _unseen_revolution(state: GameState) -> set[RevolutionCard]:
    return set(REVOLUTION_CARDS) - _revealed_this_month(state)[0]


def _unseen_emperor(state: GameState) -> set[EmperorCard]:
    assert state.table is not None and state.table.emperor_card is not None
    cards = set(state.emperor_pile) | set(state.emperor_reserve) | {state.table.emperor_card}
    return cards - _revealed_this_month(state)[1]


def _swap(
    pile: tuple[Any, ...], reserve: tuple[Any, ...], old: Any, new: Any
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Put ``old`` where ``new`` was, in the pile or the reserve."""
    return tuple(old if c == new else c for c in pile), tuple(old if c == new else c for c in reserve)


def _draw(state: GameState, event: Event, outcome: int) -> GameState:
    table = state.table
    if event.kind == "draw":
        draw, discard = state.draw_pile, state.discard_pile
        if not draw:
            draw, discard = _sorted(discard), ()  # the discard pile becomes the draw pile (rule 6.4, R-R)
        card = HAND_CARDS[outcome]
        hands = list(state.hands)
        hands[event.seat] = _sorted(hands[event.seat] + (card,))
        return attrs.evolve(
            state, hands=tuple(hands), draw_pile=tuple(c for c in draw if c != card), discard_pile=discard
        )
    assert table is not None
    if event.kind == "revolution":
        new_r, old_r = REVOLUTION_CARDS[outcome], table.revolution_card
        pile_r, reserve_r = _swap(state.revolution_pile, state.revolution_reserve, old_r, new_r)
        return attrs.evolve(
            state,
            table=attrs.evolve(table, revolution_card=new_r),
            revolution_pile=pile_r,
            revolution_reserve=reserve_r,
        )
    new_e, old_e = EMPEROR_CARDS[outcome], table.emperor_card
    pile_e, reserve_e = _swap(state.emperor_pile, state.emperor_reserve, old_e, new_e)
    return attrs.evolve(
        state, table=attrs.evolve(table, emperor_card=new_e), emperor_pile=pile_e, emperor_reserve=reserve_e
    )


def _events(before: GameState, choices: Mapping[int, Action], after: GameState) -> tuple[GameState, tuple[Event, ...]]:
    """Undo what the engine drew with its own generator between ``before`` and ``after``, and list the chance
    events that draw it again: the re-organize refill, then the next week's revealed cards."""
    moved = (after.month, after.week) != (before.month, before.week)
    events: list[Event] = []
    state = after
    if moved and before.phase in (Phase.PLAY_3, Phase.PLACEMENT, Phase.REORGANIZE):
        state, draws = _undo_refill(before, choices, after)
        events += draws
    if moved and after.table is not None:
        # A week started: its cards were revealed from this month's piles (rule 4.1).
        if after.phase is not Phase.PLAY_1 or after.table.plays:
            raise AssertionError("a whole week passed without a choice; the adapter cannot redraw it")
        events.append(Event("revolution"))
        if after.table.emperor_card is not None:
            events.append(Event("emperor"))
    return state, tuple(events)


def _undo_refill(
    before: GameState, choices: Mapping[int, Action], after: GameState
) -> tuple[GameState, list[Event]]:
    """Take the cards drawn at re-organize back out of the hands (rule 6.4).

    The engine drew them from the top of the (sorted) draw pile and, once it was empty, of the shuffled
    discard pile. They go back: those of the old draw pile to the draw pile, the others to the discard pile,
    which becomes the draw pile again when a draw finds the draw pile empty.
    """
    hands = [set(h) for h in before.hands]
    if before.phase is Phase.PLAY_3:
        for seat, played in choices.items():
            if isinstance(played, (PlayCard, Reinforce)):
                hands[seat].discard(played.card)
    kept: list[set[HandCard]] = []
    for seat in before.seats:
        chosen = choices.get(seat) if before.phase is Phase.REORGANIZE else None
        cards = set(hands[seat])
        if isinstance(chosen, Reorganize):
            cards -= chosen.discards
            if chosen.take_back is not None:
                cards.add(chosen.take_back)
        if not cards <= set(after.hands[seat]):
            raise AssertionError(f"seat {seat} lost a kept card at re-organize")
        kept.append(cards)
    drawn = [set(after.hands[s]) - kept[s] for s in before.seats]
    old_draw = set(before.draw_pile)
    reshuffled = (set(after.draw_pile) | set().union(*drawn)) - old_draw
    if reshuffled and after.discard_pile:
        raise AssertionError("the discard pile was reshuffled but is not empty")
    state = attrs.evolve(
        after,
        hands=tuple(_sorted(k) for k in kept),
        draw_pile=_sorted(old_draw),
        discard_pile=after.discard_pile + _sorted(reshuffled),
    )
    return state, [Event("draw", s) for s in before.seats for _ in range(len(drawn[s]))]


# --------------------------------------------------------------------------- determinization


def resample_hidden(
    state: GameState, seat: int, rng: random.Random, *, passed: Iterable[HandCard] = ()
) -> GameState:
    """A world for determinized search: a legal state that ``seat`` cannot tell from ``state``.

    Everything hidden from ``seat`` is drawn again, uniformly among the values its knowledge allows; what it
    knows is its view (:func:`~darkempire.views.player_view`, spec 9.4) and, in the draft discard step, the
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
    :raises InvalidArgumentError: if ``passed`` is given in the draft discard step but is not two cards of the
        next seat's hand.
    """
    player_view(state, seat)  # checks the seat number
    hands, draw_pile, discard_pile = _redeal(state, seat, _pinned(state, seat, passed), rng)
    revolution_seen, emperor_seen = _revealed_this_month(state)
    if state.table is not None:
        revolution_seen.add(state.table.revolution_card)
        if state.table.emperor_card is not None:
            emperor_seen.add(state.table.emperor_card)
    revolution_pile, revolution_reserve = _reshuffle(
        state.revolution_pile, state.revolution_reserve, revolution_seen, rng
    )
    emperor_pile, emperor_reserve = _reshuffle(state.emperor_pile, state.emperor_reserve, emperor_seen, rng)
    world = attrs.evolve(
        state,
        hands=hands,
        draw_pile=draw_pile,
        discard_pile=discard_pile,
        victors=_redraw_victors(state, seat, rng),
        support=tuple(
            f if f is None or s == seat else rng.choice([g for g in Faction if g not in state.support_used[s]])
            for s, f in enumerate(state.support)
        ),
        revolution_pile=revolution_pile,
        revolution_reserve=revolution_reserve,
        emperor_pile=emperor_pile,
        emperor_reserve=emperor_reserve,
        chance=Chance(rng.randrange(2**63), state.chance.draws),
    )
    return _redraw_pending(world, seat, rng)


def _pinned(state: GameState, seat: int, passed: Iterable[HandCard]) -> dict[int, frozenset[HandCard]]:
    """The cards ``seat`` knows to be in another seat's hand: in the draft discard step, those it passed."""
    cards = frozenset(passed)
    if state.phase is not Phase.DRAFT_DISCARD or not cards:
        return {}
    receiver = (seat + 1) % state.players
    if len(cards) != 2 or not cards <= set(state.hands[receiver]):
        raise InvalidArgumentError(
            f"passed: seat {seat} passed 2 cards that seat {receiver} holds in the draft discard step (rule 2.5), "
            f"not {_cards_text(cards)}"
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
    later_plays = [(p.seat, p.step) for p in table.plays]
    later_plays += [(r.seat, r.step) for p in table.plays for r in p.reinforcements]
    return {
        seat
        for step, seat in table.idle
        if len(state.hands[seat]) + sum(1 for s, at in later_plays if s == seat and at > step) > 0
    }


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

    Whether a seat has chosen is public (:attr:`~darkempire.views.PlayerView.chosen`), so only the seats
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


# --------------------------------------------------------------------------- observations: text


def _seats(seats: Iterable[int]) -> str:
    return ",".join(str(s) for s in sorted(seats)) or "-"


def _table_text(table: WeekTable) -> list[str]:
    emperor = "none" if table.emperor_card is None else f"{table.emperor_card.value}#{table.emperor_card.id}"
    add_on = f" +{int(table.add_on)}" if table.add_on is not None else ""
    lines = [f"table: revolution {table.revolution_card.faction.name}, emperor {emperor}{add_on}, "
             f"steps revealed {table.steps_revealed}"]  # fmt: skip
    for p in table.plays:
        extra = "".join(f" +{card_text(r.card)}(s{r.seat}@{r.step})" for r in p.reinforcements)
        lines.append(f"  step {p.step} seat {p.seat} {card_text(p.card)} {p.side.name.lower()}{extra}")
    if table.idle:
        lines.append("  idle " + " ".join(f"s{seat}@{step}" for step, seat in sorted(table.idle)))
    return lines


def view_text(view: PlayerView, logs: bool = True) -> str:
    """A compact text of ``view``, a function of the view alone; without the public logs (finished weeks,
    month scores, score track) when ``logs`` is false. Whatever the text leaves out follows from the rest."""
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    lines = [
        f"{who} of {view.players}; month {view.month} week {view.week}; {view.phase.value}; "
        f"awaited {_seats(view.awaited)}; chosen {_seats(view.chosen)}",
    ]
    if view.seat is not None:
        support = view.support.name if view.support is not None else "-"
        victor = view.victor.name if view.victor is not None else "-"
        lines.append(f"hand {_cards_text(view.hand)}; victor {victor}; support {support}; "
                     f"pending {action_text(view.pending) if view.pending is not None else '-'}")  # fmt: skip
    used = " ".join(f"s{s}:" + ("".join(_LETTER[f] for f in sorted(u)) or "-") for s, u in enumerate(view.support_used))
    lines.append(f"support used {used}")
    lines.append(
        f"hand sizes {' '.join(map(str, view.hand_sizes))}; draw {view.draw_pile_size}; "
        f"discard {view.discard_pile_size}; revolution pile {view.revolution_pile_size}; "
        f"emperor pile {view.emperor_pile_size}; add-on {int(view.add_on) if view.add_on else '-'}"
    )
    lines.append(f"month tokens {' '.join(map(str, view.month_tokens))}; "
                 f"banked {' '.join(map(str, view.banked_tokens))}")  # fmt: skip
    if view.table is not None:
        lines += _table_text(view.table)
    if view.week_score is not None:
        ws = view.week_score
        dues = " ".join(f"s{d.seat}:{_LETTER[d.faction]}" for d in ws.placements) or "-"
        lines.append(f"week score: strengths {' '.join(map(str, ws.strengths))}; emperor {ws.emperor_strength}; "
                     f"tokens {' '.join(map(str, ws.tokens))}; emperor scored {ws.emperor_scored}; "
                     f"placements {dues}")  # fmt: skip
    if logs:
        track = view.score_track
        placed = " ".join(f"{card_text(s.card)}(s{s.seat} m{s.month}w{s.week})" for s in track.faction_cards)
        emperors = " ".join(f"{s.card.value}#{s.card.id}(m{s.month}w{s.week})" for s in track.emperor_cards)
        lines.append(f"score track: {placed or '-'}; emperor cards {emperors or '-'}")
        for record in view.history:
            lines.append(f"week m{record.month}w{record.week}:")
            lines += ["  " + line for line in _table_text(record.table)]
            lines.append("  placed " + (" ".join(f"{card_text(s.card)}(s{s.seat})" for s in record.placed) or "-"))
        for ms in view.month_scores:
            lines.append(f"month {ms.month}: support {' '.join(f.name for f in ms.support)}; "
                         f"totals {' '.join(map(str, ms.totals))}; bonus {' '.join(map(str, ms.bonus))}")  # fmt: skip
    if view.verdict is not None:
        v = view.verdict
        lines.append(f"verdict {v.reason.name}: winners {_seats(v.winners)}; victors "
                     f"{' '.join(f.name for f in v.victors)}; totals {' '.join(map(str, v.totals))}")  # fmt: skip
    return "\n".join(lines)


def private_text(view: PlayerView | None) -> str:
    """The seat's own secrets in ``view``: hand, victor card, support and pending choice (empty for none)."""
    if view is None or view.seat is None:
        return ""
    support = view.support.name if view.support is not None else "-"
    victor = view.victor.name if view.victor is not None else "-"
    pending = action_text(view.pending) if view.pending is not None else "-"
    return f"seat {view.seat}: hand {_cards_text(view.hand)}; victor {victor}; support {support}; pending {pending}"


def _deal_text(flow: Flow, seat: int | None) -> str:
    dealt = sum(len(hand) for hand in flow.dealt)
    text = f"the cards are being dealt: {len(flow.victors)} victor cards and {dealt} hand cards so far"
    if seat is not None:
        text += "\n" + _deal_private_text(flow, seat)
    return text


def _deal_private_text(flow: Flow, seat: int) -> str:
    victor = flow.victors[seat].name if seat < len(flow.victors) else "-"
    return f"seat {seat}: hand so far {_cards_text(flow.dealt[seat])}; victor {victor}"


def observation_text(flow: Flow, seat: int | None) -> str:
    """``seat``'s observation (``None``: the spectator's): :func:`view_text` of its view; during the deal,
    how many cards are dealt and the seat's own cards so far."""
    view = flow.view(seat)
    return view_text(view) if view is not None else _deal_text(flow, seat)


def private_observation_text(flow: Flow, seat: int) -> str:
    """``seat``'s own secrets: hand, victor card, support and pending choice (its cards so far during the deal)."""
    view = flow.view(seat)
    return private_text(view) if view is not None else _deal_private_text(flow, seat)


def info_state_text(flow: Flow, seat: int) -> str:
    """``seat``'s information state: its trail (one line per joint action: what it saw and chose), then its
    current observation. Perfect recall: it holds every earlier observation and every own action."""
    return "\n".join((*flow.trail[seat], observation_text(flow, seat)))


# --------------------------------------------------------------------------- observations: tensor


def tensor_layout(players: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The named pieces of the observation tensor of a ``players``-player game, in order, with their shapes.

    Counts (cards, points) are raw numbers; everything else is 0/1. The ``private`` pieces are zero in the
    public (spectator) observation; the public pieces are zero in the private-only observation.
    """
    n = players
    return (
        ("private_seat", (n,)),
        ("private_hand", (len(HAND_CARDS),)),
        ("private_victor", (len(Faction),)),
        ("private_support", (len(Faction),)),
        ("phase", (len(Phase),)),
        ("month", (MONTHS,)),
        ("week", (WEEKS + 1,)),
        ("awaited", (n,)),
        ("chosen", (n,)),
        ("support_used", (n, len(Faction))),
        ("hand_sizes", (n,)),
        ("piles", (4,)),
        ("add_on", (len(AddOnCard),)),
        ("table_revolution", (len(Faction),)),
        ("table_emperor", (len(EMPEROR_CARDS) + 1,)),
        ("steps_revealed", (STEPS + 1,)),
        ("plays", (_FACTION_CARDS, 2 + STEPS + n + 1)),
        ("reinforcements", (_REINFORCEMENTS, n + STEPS + 2)),
        ("idle", (STEPS, n)),
        ("week_strengths", (len(Faction) + 2,)),
        ("week_tokens", (n,)),
        ("week_placements", (n, len(Faction))),
        ("score_track", (_FACTION_CARDS, MONTHS + n)),
        ("score_track_emperor", (len(EMPEROR_CARDS),)),
        ("tokens", (2, n)),
        ("played_before", (len(HAND_CARDS),)),
        ("revealed_this_month", (len(REVOLUTION_CARDS) + len(EMPEROR_CARDS),)),
        ("month_bonus", (MONTHS, n)),
        ("verdict", (3 + n,)),
    )


def tensor_size(players: int) -> int:
    """Length of the flat observation tensor of a ``players``-player game."""
    return sum(int(np.prod(shape)) for _, shape in tensor_layout(players))


def fill_tensor(
    pieces: Mapping[str, npt.NDArray[np.float32]], view: PlayerView | None, public: bool = True, private: bool = True
) -> None:
    """Write ``view`` into ``pieces`` (named as in :func:`tensor_layout`), zeroing them first.

    :param view: the view; ``None`` (during the deal) leaves everything zero.
    :param public: write the public pieces.
    :param private: write the seat's own secrets (the ``private_`` pieces).
    """
    for array in pieces.values():
        array.fill(0.0)
    if view is None:
        return
    if private and view.seat is not None:
        pieces["private_seat"][view.seat] = 1
        for c in view.hand:
            pieces["private_hand"][c.id] = 1
        if view.victor is not None:
            pieces["private_victor"][view.victor] = 1
        if view.support is not None:
            pieces["private_support"][view.support] = 1
    if not public:
        return
    pieces["phase"][list(Phase).index(view.phase)] = 1
    pieces["month"][view.month - 1] = 1
    pieces["week"][view.week] = 1
    for s in view.awaited:
        pieces["awaited"][s] = 1
    for s in view.chosen:
        pieces["chosen"][s] = 1
    for s, used in enumerate(view.support_used):
        for f in used:
            pieces["support_used"][s, f] = 1
    pieces["hand_sizes"][:] = view.hand_sizes
    pieces["piles"][:] = (view.draw_pile_size, view.discard_pile_size, view.revolution_pile_size,
                          view.emperor_pile_size)  # fmt: skip
    if view.add_on is not None:
        pieces["add_on"][list(AddOnCard).index(view.add_on)] = 1
    table = view.table
    if table is not None:
        pieces["table_revolution"][table.revolution_card.faction] = 1
        if table.emperor_card is not None:
            pieces["table_emperor"][table.emperor_card.id] = 1
            pieces["table_emperor"][-1] = 1 if table.add_on is not None else 0
        pieces["steps_revealed"][table.steps_revealed] = 1
        plays, reinforcements = pieces["plays"], pieces["reinforcements"]
        n = view.players
        for p in table.plays:
            row = plays[p.card.id]
            row[_SIDES.index(p.side)] = 1
            row[2 + p.step - 1] = 1
            row[2 + STEPS + p.seat] = 1
            row[-1] = len(p.reinforcements)
            for r in p.reinforcements:
                rrow = reinforcements[r.card.id - _FACTION_CARDS]
                rrow[r.seat] = 1
                rrow[n + r.step - 1] = 1
                rrow[n + STEPS + _SIDES.index(p.side)] = 1
        for step, seat in table.idle:
            pieces["idle"][step - 1, seat] = 1
    if view.week_score is not None:
        ws = view.week_score
        pieces["week_strengths"][: len(Faction)] = ws.strengths
        pieces["week_strengths"][-2] = ws.emperor_strength if ws.emperor_strength is not None else 0
        pieces["week_strengths"][-1] = 1 if ws.emperor_scored else 0
        pieces["week_tokens"][:] = ws.tokens
        for d in ws.placements:
            pieces["week_placements"][d.seat, d.faction] = 1
    for scored in view.score_track.faction_cards:
        pieces["score_track"][scored.card.id, scored.month - 1] = 1
        pieces["score_track"][scored.card.id, MONTHS + scored.seat] = 1
    for scored_e in view.score_track.emperor_cards:
        pieces["score_track_emperor"][scored_e.card.id] = 1
    pieces["tokens"][0, :] = view.month_tokens
    pieces["tokens"][1, :] = view.banked_tokens
    for record in view.history:
        for c in record.table.cards():
            pieces["played_before"][c.id] = 1
        if record.month == view.month:
            pieces["revealed_this_month"][record.table.revolution_card.faction] = 1
            if record.table.emperor_card is not None:
                pieces["revealed_this_month"][len(REVOLUTION_CARDS) + record.table.emperor_card.id] = 1
    for ms in view.month_scores:
        pieces["month_bonus"][ms.month - 1, :] = ms.bonus
    if view.verdict is not None:
        pieces["verdict"][list(type(view.verdict.reason)).index(view.verdict.reason)] = 1
        for s in view.verdict.winners:
            pieces["verdict"][3 + s] = 1


def fill_observation(
    pieces: Mapping[str, npt.NDArray[np.float32]], flow: Flow, seat: int | None, public: bool = True,
    private: bool = True,
) -> None:
    """Write ``seat``'s observation of ``flow`` into ``pieces`` (:func:`fill_tensor` of its view; during the
    deal, only the seat's own cards and victor card so far)."""
    view = flow.view(seat)
    fill_tensor(pieces, view, public=public, private=private)
    if view is None and private and seat is not None:
        pieces["private_seat"][seat] = 1
        for c in flow.dealt[seat]:
            pieces["private_hand"][c.id] = 1
        if seat < len(flow.victors):
            pieces["private_victor"][flow.victors[seat]] = 1


def make_pieces(players: int) -> tuple[npt.NDArray[np.float32], dict[str, npt.NDArray[np.float32]]]:
    """A zero flat tensor of :func:`tensor_size` and its named pieces (views into it, shaped by
    :func:`tensor_layout`)."""
    flat = np.zeros(tensor_size(players), dtype=np.float32)
    pieces: dict[str, npt.NDArray[np.float32]] = {}
    offset = 0
    for name, shape in tensor_layout(players):
        size = int(np.prod(shape))
        pieces[name] = flat[offset : offset + size].reshape(shape)
        offset += size
    return flat, pieces


# --------------------------------------------------------------------------- bounds

#: Most joint actions (decision nodes) in a game: 2 draft steps, 3 support choices, and per week 3 play
#: steps, a placement and (not after the last week, ruling O) a re-organize.
MAX_DECISIONS: Final = 2 + MONTHS + MONTHS * WEEKS * (STEPS + 1) + MONTHS * WEEKS - 1


def max_chance_events(players: int) -> int:
    """Most chance events in a game: the deal (victor card and 9 cards per seat), two revealed cards per week,
    and at most 7 cards per seat at each of the 11 re-organizes."""
    return players * (1 + DEAL_SIZE) + 2 * MONTHS * WEEKS + (MONTHS * WEEKS - 1) * HAND_SIZE * players


