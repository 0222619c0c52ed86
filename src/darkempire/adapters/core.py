"""What the OpenSpiel and PettingZoo adapters share: the action encoding, the explicit chance, the observations.

Nothing here imports OpenSpiel or PettingZoo; numpy (in both extras) builds the tensors.

Action encoding
===============

One fixed integer action space of :data:`NUM_ACTIONS` (= 6857) actions for every player count. Card ids are
those of :data:`darkempire.rules.cards.HAND_CARDS` (faction cards 0-64, reinforcement cards 65-74).

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

The engine draws every random card one at a time from the :class:`tablekit.chance.ChanceSource` it is
given (:func:`darkempire.rules.engine.deal_reporting` and :func:`darkempire.rules.engine.step` with ``chance=``), each
draw a named choice among the cards still unseen, listed in order of id. Each is a chance node here, with
uniform outcomes named by what they draw:

* the deal: each seat's victor card (outcome: the faction), then 9 hand cards per seat, one card at a time
  (outcome: the card id), among the factions and cards not drawn yet (rules 2.3, 2.4);
* at each week start, the revolution card (outcome: its faction) and the emperor card (outcome: its id) among
  the cards of this month's piles not revealed yet (rules 3.3, 4.1);
* at each re-organize, every card drawn to refill a hand (outcome: the card id), in seat order, among the
  draw pile's cards and then, once it is empty, the discard pile's (rules 6.4, R-R).

A :class:`Flow` is the kit's :class:`~tablekit.adapters.flow.KitFlow` over :data:`darkempire.rules.game.GAME`: it
keeps the last decided engine state, the joint choices waiting for their draws, and the script of outcome
indices drawn since. A chance node is where the step ran out of script: the kit runs the step (or the deal)
through the game with a :class:`tablekit.chance.ScriptedChance` of that script, and the engine raises
:class:`tablekit.chance.ChanceNeeded` at the first draw it has no outcome for
(:func:`tablekit.chance.run_scripted`). :meth:`~tablekit.adapters.flow.KitFlow.apply_chance` takes the outcome
id (:func:`outcome_id`, the kit's ``outcome`` hook), appends its index and runs the step again, which repeats
the same draws and goes one further; once the step draws no more, its state is the next decision. Nothing
the engine drew is ever undone, and the chance nodes are exactly the draws the engine reports in its events
(:class:`darkempire.rules.events.Draw`). Each draw is uniform among the cards not drawn yet,
which is the rulebook's distribution: the order of a shuffled pile only matters through the cards drawn from
it.

Observations
============

An observation is one structure, :func:`observation_fields` (or :func:`view_fields` of a view): a tuple of
:class:`Group` values, each a named group of named fields (``private``: the seat's own hand, victor card,
support and pending choice; ``deal``; ``game``; ``table``; ``week_score``; ``score_track``; ``m1w1`` to
``m3w4``: the finished weeks' tables; ``month1`` to ``month3``; ``verdict``). Every field is of a kind
(:class:`OneOf`, :class:`SetOf`, :class:`Numbers`, :class:`MaybeNumber`, :class:`Rows`, :class:`ActionOf`)
that renders its value one-to-one both as text (:func:`fields_text`: one line per present group) and as the
cells of a tensor piece of fixed shape (:func:`fill_fields`, laid out by :func:`tensor_layout`). So the
observation string and tensor hold the same information: two observations of a game have equal strings
exactly when they have equal tensors.
"""

from __future__ import annotations

import itertools
import math
import numbers
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence  # Callable: see the kit flow's fields
from types import MappingProxyType
from typing import Any, Final, Self

import attrs
import numpy as np
import numpy.typing as npt

from darkempire.rules import engine
from darkempire.rules.actions import (
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
from darkempire.rules.cards import (
    EMPEROR_CARDS,
    HAND_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
)
from darkempire.rules.game import GAME
from darkempire.rules.errors import (
    IllegalActionError,
    InvalidArgumentError,
    MissingChoiceError,
    WrongPhaseError,
    WrongSeatError,
)
# The kit flow's field annotations name these: imported so that they resolve for Flow's signature too.
from tablekit._typevars import A, C, S  # noqa: F401
from tablekit.chance import ChanceNode  # noqa: F401
from tablekit.adapters.flow import AdapterError, KitFlow, OutcomeError, decode_joint
from tablekit.errors import ChanceError
from tablekit.wire import quote
from darkempire.rules.scoring import MonthScore, VerdictReason
from darkempire.rules.state import DEAL_SIZE, HAND_SIZE, MONTHS, STEPS, WEEKS, GameConfig, GameState, Phase
from darkempire.rules.table import WeekTable
from darkempire.rules.resample import resample_hidden as resample_hidden  # its old place; the adapters' worlds
from darkempire.rules.views import PlayerView, player_view, spectator_view

__all__ = [
    "DISCARD_BASE",
    "ENCODER",
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
    "ActionEncoder",
    "ActionOf",
    "Column",
    "FieldValue",
    "Flow",
    "Group",
    "MaybeNumber",
    "Numbers",
    "OneOf",
    "Rows",
    "SetOf",
    "action_text",
    "card_text",
    "decode",
    "encode",
    "fields_text",
    "fill_fields",
    "fill_observation",
    "fill_tensor",
    "index_text",
    "info_state_text",
    "legal_indices",
    "make_pieces",
    "max_chance_events",
    "observation_fields",
    "observation_text",
    "outcome_id",
    "own_plays",
    "private_observation_text",
    "private_text",
    "tensor_layout",
    "tensor_size",
    "view_fields",
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
    :func:`darkempire.rules.engine.legal_actions`, or ``[NO_OP]`` when the step does not await the seat."""
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
    """:func:`action_text` of ``index`` for ``seat``; positions are named when ``state`` cannot resolve them.

    :raises InvalidArgumentError: ``index`` is not an integer of the action space (0-6856).
    """
    if type(index) is not int or not 0 <= index < NUM_ACTIONS:
        raise InvalidArgumentError(f"{quote(index, 20)} is no action integer (0-{NUM_ACTIONS - 1})")
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


def _config(players: int) -> GameConfig:
    return GameConfig(players=players)


def _sorted(cards: Iterable[HandCard]) -> tuple[HandCard, ...]:
    return tuple(sorted(cards, key=lambda c: c.id))


_EMPTY_STATE: Final = engine.deal(GameConfig(players=3), 0)


def outcome_id(value: object) -> int:
    """The chance outcome id of a drawn option: a card's id, a faction's (or revolution card's) number.

    The kit's flow calls it for every option of a draw (``KitFlow``'s ``outcome`` hook), so that a history
    names the card drawn, not its place among the cards still unseen.

    :raises InvalidArgumentError: for an option that is no card or faction.
    """
    if isinstance(value, RevolutionCard):
        return int(value.faction)
    if isinstance(value, Faction):
        return int(value)
    if isinstance(value, (FactionCard, ReinforcementCard, EmperorCard)):
        return value.id
    raise InvalidArgumentError(f"the engine drew {value!r}, which has no chance outcome id")


def _check_seat(flow: Flow, seat: object) -> None:
    """Refuse what is no seat of ``flow``'s game, during the deal too (the engine's views check it after)."""
    if type(seat) is not int or not 0 <= seat < flow.players:
        raise WrongSeatError(f"there is no seat {quote(seat, 20)} in a {flow.players}-player game (a seat is a "
                             f"plain int)", rule="9.1")  # fmt: skip


def _plain(seat: object) -> bool:
    """Whether ``seat`` may key a flow's cache: ``None`` or a plain ``int`` (a subclass may format as another
    seat's number, and the engine refuses it anyway)."""
    return seat is None or type(seat) is int


def _seat_of(name: str) -> int:
    """The seat a draw's name gives the card to (``victor seat 1``, ``deal seat 1 #4``, ``refill m1w2 seat 0 #1``)."""
    words = name.split()
    return int(words[words.index("seat") + 1])


class ActionEncoder:
    """Dark Empire's actions as the kit's :class:`~tablekit.adapters.flow.ActionEncoder`: :func:`encode` and
    :func:`decode` over :data:`NUM_ACTIONS` integers. Use :data:`ENCODER`."""

    @property
    def num_actions(self) -> int:
        """:data:`NUM_ACTIONS`."""
        return NUM_ACTIONS

    def encode(self, state: GameState, seat: int, action: Action) -> int:
        """:func:`encode`."""
        return encode(state, seat, action)

    def decode(self, state: GameState, seat: int, index: int) -> Action:
        """:func:`decode` of a real action (the kit never decodes :data:`NO_OP`).

        :raises InvalidArgumentError: for :data:`NO_OP`.
        """
        action = decode(state, seat, index)
        if action is None:
            raise InvalidArgumentError("action 0 is the wait, no action to decode")
        return action


#: The one :class:`ActionEncoder`.
ENCODER: Final = ActionEncoder()


@attrs.frozen
class Flow(KitFlow[GameConfig, GameState, Action]):
    """A game in progress with explicit chance: the kit's :class:`~tablekit.adapters.flow.KitFlow` over
    :data:`darkempire.rules.game.GAME`, with chance outcomes named by :func:`outcome_id`, plus each seat's trail
    (see "Explicit chance" in the module docstring).

    Immutable: every method returns a new :class:`Flow`. Build one with :meth:`new`. The kit keeps the last
    decided engine state, the joint choices waiting for their draws (``choices``: ``(seat, action)`` pairs of
    the awaited seats), the script of outcome indices and the draws (``drawn``: name and outcome id) since,
    and the chance node due; the integers, the texts, the JSON and the resampling are Dark Empire's.

    :ivar game: :data:`darkempire.rules.game.GAME` (the kit's field).
    :ivar config: the game's :class:`~darkempire.rules.state.GameConfig` (the kit's field).
    :ivar players: number of seats (the kit's field).
    :ivar state: the last decided engine state, or ``None`` while the deal is being drawn (the kit's field).
    :ivar choices: the joint choices whose step is drawing its chance outcomes, ``(seat, action)`` of each
        awaited seat (:attr:`joint` gives them by seat); ``None`` during the deal and at decisions (the kit's).
    :ivar script: the outcome indices drawn since ``state`` (during the deal: since the start), each an index
        into its draw's options (the kit's field).
    :ivar node: the chance node due: where the step (or the deal) ran out of script; ``None`` at decisions.
    :ivar past: the earlier decisions the kit keeps (the state and the joint choices); a flow loaded by
        :meth:`from_data` has none, which is why the information state comes from ``trail``.
    :ivar drawn: each draw since ``state``: its name and outcome id, for the deal's observations and the text.
    :ivar outcome: :func:`outcome_id` (the kit's hook naming chance outcomes by card).
    :ivar trail: for each seat, one line per joint action so far: what the seat saw (without the public logs)
        and what it chose. With the current view, this makes the seat's information state. It is kept as
        text, not derived from the kit's ``past``, because it must survive :meth:`to_data` (a flow loaded
        from a document has its trail but no earlier states).
    """

    trail: tuple[tuple[str, ...], ...] = ()
    _cache: dict[str, Any] = attrs.field(factory=dict, init=False, repr=False, eq=False)

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, players: int) -> Flow:
        """A new game before the deal: its first chance nodes are the victor cards, then 9 cards per seat.

        :raises ~darkempire.rules.errors.ConfigError: if ``players`` is not 3-5.
        """
        flow = cls.start(GAME, _config(players), players, outcome=outcome_id)
        return attrs.evolve(flow, trail=((),) * players)

    # ------------------------------------------------------------------ queries

    @property
    def joint(self) -> tuple[Action | None, ...] | None:
        """The joint choices drawing their outcomes, one per seat (``None`` for a seat the step did not
        await); ``None`` during the deal and at decisions."""
        if self.choices is None:
            return None
        chosen = dict(self.choices)
        return tuple(chosen.get(seat) for seat in range(self.players))

    @property
    def shown(self) -> GameState | None:
        """While a joint action's step draws its outcomes, the state the seats see: the step before it
        resolved, with every awaited seat's choice recorded as pending. ``None`` otherwise."""
        joint = self.joint
        if self.state is None or joint is None:
            return None
        if "shown" not in self._cache:
            self._cache["shown"] = attrs.evolve(self.state, pending=joint)
        shown: GameState = self._cache["shown"]
        return shown

    @property
    def seen(self) -> GameState | None:
        """The state the seats see now (``None`` during the deal)."""
        shown = self.shown
        return shown if shown is not None else self.state

    @property
    def victors(self) -> tuple[Faction, ...]:
        """During the deal, the victor factions drawn so far, by seat."""
        if self.state is not None:
            return ()
        return tuple(Faction(outcome) for name, outcome in self.drawn if name.startswith("victor"))

    @property
    def dealt(self) -> tuple[tuple[HandCard, ...], ...]:
        """During the deal, the hand cards drawn so far, by seat (sorted by id)."""
        if self.state is not None:
            return ()
        hands: list[list[HandCard]] = [[] for _ in range(self.players)]
        for name, outcome in self.drawn:
            if name.startswith("deal"):
                hands[_seat_of(name)].append(HAND_CARDS[outcome])
        return tuple(_sorted(hand) for hand in hands)

    def view(self, seat: int | None) -> PlayerView | None:
        """``seat``'s view of :attr:`seen` (``None``: the spectator's); ``None`` during the deal."""
        seen = self.seen
        if seen is None:
            return None
        if seat is not None and not _plain(seat):  # never served from the cache: player_view refuses it
            return player_view(seen, seat)
        key = f"view{seat}"
        if key not in self._cache:
            self._cache[key] = spectator_view(seen) if seat is None else player_view(seen, seat)
        view: PlayerView = self._cache[key]
        return view

    def legal(self, seat: int) -> list[int]:
        """``seat``'s legal actions at a decision (:func:`legal_indices`); ``[]`` at chance nodes and the end."""
        if self.node is not None or self.state is None or self.state.is_over:
            return []
        if not _plain(seat):  # refused by the engine, never served from the cache
            return legal_indices(self.state, seat)
        key = f"legal{seat}"
        if key not in self._cache:
            self._cache[key] = legal_indices(self.state, seat)
        legal: list[int] = self._cache[key]
        return list(legal)

    def outcome_text(self, outcome: int) -> str:
        """What chance outcome ``outcome`` of the chance node means.

        :raises OutcomeError: no chance node is due, or ``outcome`` is not one of its
            :attr:`~tablekit.adapters.flow.KitFlow.outcomes`.
        """
        if self.node is None or type(outcome) is not int or outcome not in self.outcomes:
            where = "no chance node is due" if self.node is None else f"the draw is {self.node.name!r}"
            raise OutcomeError(f"{quote(outcome, 20)} is not a chance outcome here: {where}")
        name = self.node.name
        kind = name.split()[0]
        if kind == "victor":
            return f"seat {_seat_of(name)} gets victor card {Faction(outcome).name}"
        if kind in ("deal", "refill"):
            verb = "is dealt" if kind == "deal" else "draws"
            return f"seat {_seat_of(name)} {verb} {card_text(HAND_CARDS[outcome])}"
        if kind == "revolution":
            return f"revolution card {Faction(outcome).name} revealed"
        return f"emperor card {EMPEROR_CARDS[outcome].value}#{outcome} revealed"

    # ------------------------------------------------------------------ transitions

    def draw(self, index: int) -> Self:
        """The kit's :meth:`~tablekit.adapters.flow.KitFlow.draw` (``apply_chance`` of an outcome id comes
        here too), keeping the finished weeks' observation groups."""
        return self._child(super().draw(index))

    def apply_joint(self, choices: Mapping[int, Action] | Sequence[int]) -> Self:
        """Apply one action integer per seat (:data:`NO_OP` for each seat the step does not await), or the
        kit's mapping of each awaited seat to its action; each seat's trail gets the line of what it saw
        and chose.

        :raises ValueError: (:class:`~darkempire.rules.errors.IllegalActionError`) if ``choices`` is not a list of
            one ``int`` per seat, or an action is not legal for its seat (``True`` and ``5.0`` are no actions).
        """
        state = self.state
        if self.node is not None or state is None or state.is_over:
            raise WrongPhaseError("no seat chooses now", rule="9.1")
        chosen = dict(choices) if isinstance(choices, Mapping) else self._decoded(state, choices)
        # The kit checks every choice before anything else reads it, and keeps the checked actions (the
        # engine's own cards): the trail names those, never the caller's objects.
        child = super().apply_joint(chosen)
        kept = dict(child.past[-1][1])
        trail = tuple(
            self.trail[s] + (f"{view_text(player_view(state, s), logs=False)} => {action_text(kept.get(s))}",)
            for s in range(self.players)
        )
        return self._child(attrs.evolve(child, trail=trail))

    def _decoded(self, state: GameState, actions: Sequence[int]) -> dict[int, Action]:
        """The choices of a joint action of integers, each checked (the kit's :func:`decode_joint`), with
        Dark Empire's errors."""

        def refuse(seat: int | None, index: object, message: str) -> Exception:
            if seat is None:
                return MissingChoiceError(message, rule="9.2")
            text = "no action integer"
            if isinstance(index, numbers.Integral) and not isinstance(index, bool):
                value = int(index)
                text = index_text(state, seat, value) if 0 <= value < NUM_ACTIONS else f"outside 0-{NUM_ACTIONS - 1}"
            return IllegalActionError(f"action {quote(index, 20)} ({text}) is not legal for seat {seat}", rule="9.1",
                                      seat=seat)  # fmt: skip

        return decode_joint(self, ENCODER, actions, legal=self.legal, refuse=refuse)

    def _child(self, child: Self) -> Self:
        # The finished weeks' observation groups carry over: a game's later observations share them.
        child._cache["weeks"] = self._cache.setdefault("weeks", {})
        return child

    def resample(self, seat: int, rng: random.Random) -> GameState:
        """A complete engine state that ``seat`` cannot tell from this one, for determinized search.

        :func:`~darkempire.rules.resample.resample_hidden` of the flow's ``state``, with the cards ``seat`` passed in the draft (read back
        from its trail) kept in the next seat's hand during the draft discard step. Every hidden card, victor
        card, support card and pending choice is drawn again among the values ``seat``'s knowledge allows, the
        generator gets a random seed (so the engine's own shuffles are random from here on), and the world is
        a legal state with ``seat``'s view.

        :raises WrongPhaseError: (a :class:`ValueError`) at a chance node.
        :raises InvalidArgumentError: the trail's pass (a flow loaded by :meth:`from_data`) names no two cards.
        """
        state = self.state
        if self.node is not None or state is None:
            raise WrongPhaseError("resample at a decision or at the end, not at a chance node", rule="9.1")
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
        ids = [word.rpartition("#")[2] for word in chosen.split()[1:]]
        # A loaded trail is any text: read only plain card ids (never "-1", which would index from the end).
        if len(ids) != 2 or not all(i.isascii() and i.isdigit() and int(i) < len(HAND_CARDS) for i in ids):
            raise InvalidArgumentError(f"seat {seat}'s trail says it passed {quote(chosen, 40)}, which names no two "
                                       f"card ids 0-{len(HAND_CARDS) - 1}")  # fmt: skip
        return frozenset(HAND_CARDS[int(i)] for i in ids)

    # ------------------------------------------------------------------ serialization and text

    def to_data(self) -> dict[str, Any]:
        """The flow as JSON-ready data: the decided state as a ``"game-state"`` message of
        ``darkempire.serialization``, the joint choices as their action integers, the script of outcome
        indices, and the trails. The chance node and the drawn outcomes follow from these."""
        from darkempire import serialization

        state, joint = self.state, self.joint
        encoded = None
        if state is not None and joint is not None:
            encoded = [NO_OP if a is None else encode(state, s, a) for s, a in enumerate(joint)]
        return {
            "players": self.players,
            "state": None if state is None else serialization.to_data(state),
            "choices": encoded,
            "script": list(self.script),
            "trail": [list(lines) for lines in self.trail],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Flow:
        """The inverse of :meth:`to_data`: the step is run again with the script, so what it draws is checked.

        :raises ValueError: if a field is missing or of the wrong type, or the engine state does not load
            (``darkempire.serialization.SerializationError``), a choice is not legal (``IllegalActionError``)
            or an outcome index is not one of its draw's (``ChanceError``).
        """
        players = _checked_flow_data(data)
        state = _loaded_state(data["state"], players)
        trail = tuple(tuple(lines) for lines in data["trail"])
        if state is None:
            flow = attrs.evolve(cls.new(players), trail=trail)
        else:
            flow = cls(GAME, _config(players), players, state, outcome=outcome_id, trail=trail)
        if data["choices"] is not None:
            flow = _pending(flow, data["choices"])
        for index in data["script"]:
            if flow.node is None:
                raise ChanceError("the script holds more outcomes than the step draws")
            flow = flow.draw(index)
        return flow

    def text(self) -> str:
        """Everything in the flow, hidden parts included, as text (for debugging and OpenSpiel's ``ToString``)."""
        if "text" in self._cache:
            text: str = self._cache["text"]
            return text
        lines = [f"{self.players} players"]
        if self.node is not None:
            lines.append(f"chance next: {self.node.name} among {self.node.count}")
            lines.append(f"chance outcomes drawn in this step: {len(self.script)}")
        if self.state is None:
            lines.append("victors " + " ".join(f.name for f in self.victors))
            lines += [f"seat {s} dealt {_cards_text(h)}" for s, h in enumerate(self.dealt)]
        else:
            lines += _state_lines(self.state)
        if self.joint is not None:
            lines.append("pending " + " | ".join(action_text(a) for a in self.joint))
        if self.drawn:
            lines.append("drawn " + " ".join(str(outcome) for _, outcome in self.drawn))
        text = "\n".join(lines)
        self._cache["text"] = text
        return text

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickling (OpenSpiel serializes a Python state by pickling its attributes) goes through the JSON.
        import json

        return (_flow_from_json, (json.dumps(self.to_data(), separators=(",", ":")),))

    def __deepcopy__(self, memo: dict[int, Any]) -> Flow:
        return self  # immutable: OpenSpiel's clone deep-copies the state's attributes


def _state_lines(state: GameState) -> list[str]:
    """Every hidden and public part of a decided state, one line each (for :meth:`Flow.text`)."""
    return [
        "victors " + " ".join(f.name for f in state.victors),
        "support " + " ".join(f.name if f else "-" for f in state.support),
        *(f"seat {s} hand {_cards_text(h)}" for s, h in enumerate(state.hands)),
        f"draw pile {_cards_text(state.draw_pile)}",
        f"discard pile {_cards_text(state.discard_pile)}",
        "revolution pile " + " ".join(c.faction.name for c in state.revolution_pile),
        "revolution reserve " + " ".join(c.faction.name for c in state.revolution_reserve),
        "emperor pile " + " ".join(str(c.id) for c in state.emperor_pile),
        "emperor reserve " + " ".join(str(c.id) for c in state.emperor_reserve),
        f"generator {state.chance.seed}:{state.chance.draws}",
        view_text(spectator_view(state)),
    ]


def _loaded_state(data: object, players: int) -> GameState | None:
    """The decided state of a flow document (``null`` during the deal), of ``players`` seats."""
    from darkempire import serialization

    if data is None:
        return None
    loaded = serialization.from_data(data, "game-state")
    assert isinstance(loaded, GameState)
    if loaded.players != players:
        raise serialization.InvalidValueError(f"a {loaded.players}-player state in a {players}-player flow",
                                              path="state")  # fmt: skip
    return loaded


def _pending(flow: Flow, choices: Sequence[object]) -> Flow:
    """``flow`` with the document's joint choices drawing their outcomes (the trail already holds their line).

    :raises SerializationError: choices during the deal, or choices that are not the step's awaited seats'.
    """
    from darkempire.serialization import InvalidValueError

    state = flow.state
    if state is None:
        raise InvalidValueError("no choices during the deal", path="choices")
    chosen = {s: a for s, i in enumerate(choices) if (a := _decoded(state, s, i)) is not None}
    try:
        return KitFlow.apply_joint(flow, chosen)  # the kit's, not Flow's: the trail has the line already
    except AdapterError as error:
        raise InvalidValueError(str(error), path="choices") from None


def _checked_flow_data(data: object) -> int:
    """The number of players of a :meth:`Flow.to_data` document, once its fields have their types: a mapping
    of ``players`` (3-5), ``state``, ``choices`` (``null`` or one ``int`` per seat), ``script`` (a list) and
    ``trail`` (one list of strings per seat). The values themselves are checked by replaying them.

    :raises SerializationError: naming the first field that is missing or of the wrong type or size.
    """
    from darkempire.serialization import InvalidValueError, MissingFieldError, WrongTypeError

    if not isinstance(data, Mapping):
        raise WrongTypeError(f"a flow is a JSON object, not {type(data).__name__}")
    for key in ("players", "state", "choices", "script", "trail"):
        if key not in data:
            raise MissingFieldError(f"missing field {key!r}", path=key)
    players, choices, trail = data["players"], data["choices"], data["trail"]
    if type(players) is not int or not 3 <= players <= 5:
        raise InvalidValueError(f"{quote(players, 20)} is no number of players (3-5, rule 2.1)", path="players")
    if choices is not None and not (isinstance(choices, list) and len(choices) == players):
        raise WrongTypeError(f"the choices are null or a list of {players} action integers", path="choices")
    if not isinstance(data["script"], list):
        raise WrongTypeError("the script is a list of outcome indices", path="script")
    if not (isinstance(trail, list) and len(trail) == players and all(isinstance(lines, list) for lines in trail)):
        raise WrongTypeError(f"the trail is a list of {players} lists of lines", path="trail")
    if not all(type(line) is str for lines in trail for line in lines):
        raise WrongTypeError("a trail line is a string", path="trail")
    return players


def _decoded(state: GameState, seat: int, index: object) -> Action | None:
    """Choice ``index`` of a flow document (:func:`decode`), its type and range checked; legality is the step's."""
    from darkempire.serialization import InvalidValueError

    if type(index) is not int or not 0 <= index < NUM_ACTIONS:
        raise InvalidValueError(f"{quote(index, 20)} is no action integer (0-{NUM_ACTIONS - 1})", path=f"choices[{seat}]")
    try:
        return decode(state, seat, index)
    except ValueError as error:  # a position that this state does not have
        raise InvalidValueError(str(error), path=f"choices[{seat}]") from None


def _flow_from_json(text: str) -> Flow:
    from darkempire import serialization

    return Flow.from_data(serialization.parse_json(text))


# --------------------------------------------------------------------------- observations: one structure
#
# An observation is a tuple of groups of named fields, built once from the view (or, during the deal, from the
# flow). The observation string and the observation tensor are two renderings of that one structure, so
# nothing can be in one and not the other: each kind of field renders its value one-to-one both as text and
# as the cells of a tensor piece of fixed shape. Labels are data (tuples of strings), so that a test can check
# that they are distinct and free of the separators.


@attrs.frozen
class OneOf:
    """At most one of ``len(labels)`` positions: a one-hot piece, and in the text its label (``-``: none).

    :ivar labels: the text of each position; distinct.
    :ivar value: the position, or ``None``.
    """

    labels: tuple[str, ...]
    value: int | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The piece's shape."""
        return (len(self.labels),)

    def text(self) -> str:
        """The label of the position, ``-`` for none."""
        return "-" if self.value is None else self.labels[self.value]

    def cells(self) -> Iterator[tuple[int, float]]:
        """The nonzero cells of the flat piece."""
        if self.value is not None:
            yield self.value, 1.0


@attrs.frozen
class SetOf:
    """A set of positions of a grid of ``shape``, by flat index: a multi-hot piece, and in the text the labels
    of the members in index order, separated by spaces (``-``: empty).

    :ivar shape: the grid, such as ``(players, 5)`` for seat-faction pairs.
    :ivar labels: the text of each flat index; distinct, without spaces or commas.
    :ivar members: the flat indices in the set.
    """

    shape: tuple[int, ...]
    labels: tuple[str, ...]
    members: frozenset[int] = frozenset()

    def text(self) -> str:
        """The members' labels."""
        return " ".join([self.labels[i] for i in sorted(self.members)]) or "-"

    def cells(self) -> list[tuple[int, float]]:
        """The nonzero cells of the flat piece."""
        return [(i, 1.0) for i in self.members]


@attrs.frozen
class Numbers:
    """A fixed number of integers (counts, points): the piece holds them raw, the text shows them.

    :ivar values: the integers.
    """

    values: tuple[int, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        """The piece's shape."""
        return (len(self.values),)

    def text(self) -> str:
        """The integers, separated by spaces."""
        return " ".join(map(str, self.values))

    def cells(self) -> list[tuple[int, float]]:
        """The nonzero cells of the flat piece."""
        return [(i, float(v)) for i, v in enumerate(self.values) if v]


@attrs.frozen
class MaybeNumber:
    """An integer or nothing: the piece is ``[1, value]`` or ``[0, 0]``, the text the integer or ``-``.

    :ivar value: the integer, or ``None``.
    """

    value: int | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The piece's shape."""
        return (2,)

    def text(self) -> str:
        """The integer, ``-`` for none."""
        return "-" if self.value is None else str(self.value)

    def cells(self) -> Iterator[tuple[int, float]]:
        """The nonzero cells of the flat piece."""
        if self.value is not None:
            yield 0, 1.0
            if self.value:
                yield 1, float(self.value)


@attrs.frozen
class Column:
    """A column of :class:`Rows`: one-hot over its values, or (``raw``) one cell holding the value itself.

    :ivar labels: the text of each value; distinct, without spaces or commas.
    :ivar raw: one cell with the value (such as a card id) instead of a one-hot of ``len(labels)`` cells.
    """

    labels: tuple[str, ...]
    raw: bool = False

    @property
    def width(self) -> int:
        """Cells of the column in each row."""
        return 1 if self.raw else len(self.labels)


@attrs.frozen
class Rows:
    """A partial map from labelled keys to rows of column values (such as a card on the table to its side,
    step and seat): the piece has one row per key, a presence cell and then each column; the text lists the
    present keys in order, ``key value value, key value value`` (``-``: none).

    :ivar keys: the text of each key; distinct, without spaces or commas.
    :ivar columns: the columns.
    :ivar rows: ``(key, values)`` pairs, sorted by key, one value per column.
    """

    keys: tuple[str, ...]
    columns: tuple[Column, ...]
    rows: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def shape(self) -> tuple[int, ...]:
        """The piece's shape."""
        return (len(self.keys), 1 + sum(c.width for c in self.columns))

    def text(self) -> str:
        """The present keys with their values."""
        columns = self.columns
        return ", ".join([
            " ".join([self.keys[k], *[c.labels[v] for c, v in zip(columns, values, strict=True)]])
            for k, values in self.rows
        ]) or "-"  # fmt: skip

    def cells(self) -> list[tuple[int, float]]:
        """The nonzero cells of the flat piece."""
        starts, at = [], 1
        for column in self.columns:
            starts.append(at)
            at += column.width
        out = []
        for key, values in self.rows:
            row = key * at
            out.append((row, 1.0))
            for column, start, value in zip(self.columns, starts, values, strict=True):
                if not column.raw:
                    out.append((row + start + value, 1.0))
                elif value:
                    out.append((row + start, float(value)))
        return out


_ACTION_KINDS: Final = (PassCards, DiscardCards, ChooseSupport, PlayCard, Reinforce, PlayNothing, PlaceCards, Reorganize)


def _action_cards(action: Action) -> Iterable[HandCard]:
    if isinstance(action, (PassCards, DiscardCards, PlaceCards)):
        return action.cards
    if isinstance(action, (PlayCard, Reinforce)):
        return (action.card,)
    if isinstance(action, Reorganize):
        return action.discards
    return ()


@attrs.frozen
class ActionOf:
    """An action or nothing (a seat's pending choice): in the text :func:`action_text` (``-``: none); in the
    piece its kind (one-hot of 8), the cards it names (multi-hot over the 75 hand cards: the pair passed or
    discarded, the card played, the reinforcement card, the cards placed, the re-organize discards), the side,
    the reinforcement's target or the card taken back (one-hot over the hand cards), and the faction supported.

    :ivar action: the action, or ``None``.
    """

    action: Action | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The piece's shape."""
        return (len(_ACTION_KINDS) + len(HAND_CARDS) + len(_SIDES) + len(HAND_CARDS) + len(Faction),)

    def text(self) -> str:
        """:func:`action_text` of the action, ``-`` for none."""
        return "-" if self.action is None else action_text(self.action)

    def cells(self) -> Iterator[tuple[int, float]]:
        """The nonzero cells of the flat piece."""
        action = self.action
        if action is None:
            return
        cards_at = len(_ACTION_KINDS)
        side_at = cards_at + len(HAND_CARDS)
        target_at = side_at + len(_SIDES)
        faction_at = target_at + len(HAND_CARDS)
        yield _ACTION_KINDS.index(type(action)), 1.0
        yield from ((cards_at + c.id, 1.0) for c in _action_cards(action))
        if isinstance(action, PlayCard):
            yield side_at + _SIDES.index(action.side), 1.0
        target = action.target if isinstance(action, Reinforce) else None
        if isinstance(action, Reorganize):
            target = action.take_back
        if target is not None:
            yield target_at + target.id, 1.0
        if isinstance(action, ChooseSupport):
            yield faction_at + int(action.faction), 1.0


#: A field's value: each kind renders it one-to-one as text and as the cells of a piece of fixed shape.
FieldValue = OneOf | SetOf | Numbers | MaybeNumber | Rows | ActionOf


@attrs.frozen
class Group:
    """A group of fields, one line of the observation string: ``key: name text; name text``.

    The tensor holds a presence cell (piece ``key.present``) and then each field (piece ``key.name``). An
    absent group is no line of the text and zero in the tensor: its fields then hold no value.

    :ivar key: the group's name, unique in the observation (``table``, ``m1w2``, ``month1``).
    :ivar present: whether the observation has the group.
    :ivar fields: ``(name, value)`` pairs.
    :ivar log: part of the public logs (finished weeks, month scores, score track), which the trail's lines
        of :func:`view_text` leave out.
    """

    key: str
    present: bool
    fields: tuple[tuple[str, FieldValue], ...]
    log: bool = False
    # A finished week's group is shared by every later observation of the game: render it once.
    _rendered: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    def text(self) -> str:
        """The group's line."""
        if "text" not in self._rendered:
            self._rendered["text"] = f"{self.key}: " + "; ".join([f"{n} {v.text()}" for n, v in self.fields])
        text: str = self._rendered["text"]
        return text

    def cells(self) -> list[list[tuple[int, float]]]:
        """The nonzero cells of each field's flat piece."""
        if "cells" not in self._rendered:
            self._rendered["cells"] = [list(value.cells()) for _, value in self.fields]
        cells: list[list[tuple[int, float]]] = self._rendered["cells"]
        return cells


_FACTIONS: Final = tuple(f.name for f in Faction)
_CARDS: Final = tuple(card_text(c) for c in HAND_CARDS)
_TARGETS: Final = tuple(f"on:{label}" for label in _CARDS[:_FACTION_CARDS])
_STEP_COLUMN: Final = Column(tuple(f"@{step}" for step in range(1, STEPS + 1)))
_MONTH_COLUMN: Final = Column(tuple(f"m{m}" for m in range(1, MONTHS + 1)))
_WEEK_COLUMN: Final = Column(tuple(f"w{w}" for w in range(1, WEEKS + 1)))


@attrs.frozen
class _Labels:
    """The labels and columns of a ``players``-player game's fields, made once per player count."""

    players: int
    seats: tuple[str, ...]  # "0", "1", ...
    seat_factions: tuple[str, ...]  # "s0:W", ... by seat * 5 + faction
    idle: tuple[str, ...]  # "s0@1", ... by (step - 1) * players + seat
    seat_keys: tuple[str, ...]  # "s0", "s1", ...
    plays: tuple[Column, ...]  # side, step, seat
    reinforcements: tuple[Column, ...]  # target (raw card id), seat, step
    track: tuple[Column, ...]  # seat, month, week


def _make_labels(players: int) -> _Labels:
    seat_keys = tuple(f"s{s}" for s in range(players))
    seat = Column(seat_keys)
    return _Labels(
        players,
        tuple(str(s) for s in range(players)),
        tuple(f"s{s}:{_LETTER[f]}" for s in range(players) for f in Faction),
        tuple(f"s{seat}@{step}" for step in range(1, STEPS + 1) for seat in range(players)),
        seat_keys,
        (Column(tuple(s.name.lower() for s in _SIDES)), _STEP_COLUMN, seat),
        (Column(_TARGETS, raw=True), seat, _STEP_COLUMN),
        (seat, _MONTH_COLUMN, _WEEK_COLUMN),
    )


_LABELS: Final[Mapping[int, _Labels]] = MappingProxyType({n: _make_labels(n) for n in (3, 4, 5)})
_PHASES: Final = tuple(Phase)
_REASONS: Final = tuple(VerdictReason)
_ADD_ONS: Final = tuple(AddOnCard)
_FACTION_CARD_LABELS: Final = _CARDS[:_FACTION_CARDS]
_REINFORCEMENT_LABELS: Final = _CARDS[_FACTION_CARDS:]
_EMPERORS: Final = tuple(f"{c.value}#{c.id}" for c in EMPEROR_CARDS)
_ADD_ON_LABELS: Final = tuple(f"+{int(a)}" for a in _ADD_ONS)
_PHASE_LABELS: Final = tuple(p.name for p in _PHASES)
_REASON_LABELS: Final = tuple(r.name for r in _REASONS)
_MONTHS: Final = tuple(map(str, range(1, MONTHS + 1)))
_WEEKS: Final = tuple(map(str, range(WEEKS + 1)))
_STEPS_REVEALED: Final = tuple(map(str, range(STEPS + 1)))
_FACTION_COLUMN: Final = (Column(_FACTIONS),)


def _index(values: Sequence[Any], value: Any) -> int | None:
    return None if value is None else values.index(value)


def _private_group(lab: _Labels, seat: int | None, hand: Iterable[HandCard] = (), victor: Faction | None = None,
                   support: Faction | None = None, pending: Action | None = None) -> Group:  # fmt: skip
    return Group("private", seat is not None, (
        ("seat", OneOf(lab.seats, seat)),
        ("hand", SetOf((len(HAND_CARDS),), _CARDS, frozenset(c.id for c in hand))),
        ("victor", OneOf(_FACTIONS, None if victor is None else int(victor))),
        ("support", OneOf(_FACTIONS, None if support is None else int(support))),
        ("pending", ActionOf(pending)),
    ))  # fmt: skip


def _deal_group(flow: Flow | None) -> Group:
    dealing = flow is not None and flow.state is None
    victors = len(flow.victors) if flow is not None and dealing else 0
    dealt = sum(len(hand) for hand in flow.dealt) if flow is not None and dealing else 0
    return Group("deal", dealing, (("victor_cards", Numbers((victors,))), ("hand_cards", Numbers((dealt,)))))


def _game_group(lab: _Labels, view: PlayerView | None) -> Group:
    v, n = view, lab.players
    zeros = (0,) * n
    used = () if v is None else v.support_used
    return Group("game", v is not None, (
        ("phase", OneOf(_PHASE_LABELS, None if v is None else _PHASES.index(v.phase))),
        ("month", OneOf(_MONTHS, None if v is None else v.month - 1)),
        ("week", OneOf(_WEEKS, None if v is None else v.week)),
        ("awaited", SetOf((n,), lab.seats, frozenset() if v is None else v.awaited)),
        ("chosen", SetOf((n,), lab.seats, frozenset() if v is None else v.chosen)),
        ("support_used", SetOf((n, len(Faction)), lab.seat_factions,
                               frozenset(s * len(Faction) + f for s, fs in enumerate(used) for f in fs))),
        ("hand_sizes", Numbers(zeros if v is None else v.hand_sizes)),
        ("draw_pile", Numbers((0 if v is None else v.draw_pile_size,))),
        ("discard_pile", Numbers((0 if v is None else v.discard_pile_size,))),
        ("revolution_pile", Numbers((0 if v is None else v.revolution_pile_size,))),
        ("emperor_pile", Numbers((0 if v is None else v.emperor_pile_size,))),
        ("add_on", OneOf(_ADD_ON_LABELS, None if v is None else _index(_ADD_ONS, v.add_on))),
        ("month_tokens", Numbers(zeros if v is None else v.month_tokens)),
        ("banked_tokens", Numbers(zeros if v is None else v.banked_tokens)),
    ))  # fmt: skip


def _table_group(key: str, lab: _Labels, table: WeekTable | None, log: bool = False) -> Group:
    t = table
    plays = () if t is None else tuple(sorted(
        (p.card.id, (_SIDES.index(p.side), p.step - 1, p.seat)) for p in t.plays))  # fmt: skip
    reinforcements = () if t is None else tuple(sorted(
        (r.card.id - _FACTION_CARDS, (p.card.id, r.seat, r.step - 1)) for p in t.plays for r in p.reinforcements
    ))  # fmt: skip
    idle = frozenset() if t is None else frozenset((step - 1) * lab.players + seat for step, seat in t.idle)
    return Group(key, t is not None, (
        ("revolution", OneOf(_FACTIONS, None if t is None else int(t.revolution_card.faction))),
        ("emperor", OneOf(_EMPERORS, None if t is None or t.emperor_card is None else t.emperor_card.id)),
        ("add_on", OneOf(_ADD_ON_LABELS, None if t is None else _index(_ADD_ONS, t.add_on))),
        ("steps_revealed", OneOf(_STEPS_REVEALED, None if t is None else t.steps_revealed)),
        ("plays", Rows(_FACTION_CARD_LABELS, lab.plays, plays)),
        ("reinforcements", Rows(_REINFORCEMENT_LABELS, lab.reinforcements, reinforcements)),
        ("idle", SetOf((STEPS, lab.players), lab.idle, idle)),
    ), log)  # fmt: skip


def _week_score_group(lab: _Labels, view: PlayerView | None) -> Group:
    ws, n = None if view is None else view.week_score, lab.players
    placements = frozenset() if ws is None else frozenset(d.seat * len(Faction) + d.faction for d in ws.placements)
    return Group("week_score", ws is not None, (
        ("strengths", Numbers((0,) * len(Faction) if ws is None else ws.strengths)),
        ("emperor_strength", MaybeNumber(None if ws is None else ws.emperor_strength)),
        ("tokens", Numbers((0,) * n if ws is None else ws.tokens)),
        ("emperor_scored", OneOf(("no", "yes"), None if ws is None else int(ws.emperor_scored))),
        ("placements", SetOf((n, len(Faction)), lab.seat_factions, placements)),
    ))  # fmt: skip


def _score_track_group(lab: _Labels, view: PlayerView | None) -> Group:
    track = None if view is None else view.score_track
    cards = () if track is None else tuple(sorted(
        (s.card.id, (s.seat, s.month - 1, s.week - 1)) for s in track.faction_cards))  # fmt: skip
    emperors = () if track is None else tuple(sorted(
        (s.card.id, (s.month - 1, s.week - 1)) for s in track.emperor_cards))  # fmt: skip
    return Group("score_track", track is not None, (
        ("cards", Rows(_FACTION_CARD_LABELS, lab.track, cards)),
        ("emperor_cards", Rows(_EMPERORS, lab.track[1:], emperors)),
    ), log=True)  # fmt: skip


def _history_groups(lab: _Labels, view: PlayerView | None, memo: dict[int, tuple[Any, Group]]) -> list[Group]:
    """The finished weeks' groups; ``memo`` keeps those already built, by table (see :meth:`Flow.apply_joint`)."""
    tables = {} if view is None else {(r.month, r.week): r.table for r in view.history}
    keys = [(f"m{m}w{w}", tables.get((m, w))) for m in range(1, MONTHS + 1) for w in range(1, WEEKS + 1)]
    if view is None:  # building the absent groups themselves
        return [_table_group(key, lab, None, log=True) for key, _ in keys]
    empty = _EMPTY[lab.players]
    groups = []
    for key, table in keys:
        if table is None:
            groups.append(empty[key])
            continue
        known = memo.get(id(table))
        if known is None or known[0] is not table or known[1].key != key:  # an id is only unique while alive
            known = memo[id(table)] = (table, _table_group(key, lab, table, log=True))
        groups.append(known[1])
    return groups


def _month_groups(lab: _Labels, view: PlayerView | None) -> list[Group]:
    scores = {} if view is None else {ms.month: ms for ms in view.month_scores}
    return [_month_group(lab, m, scores.get(m)) for m in range(1, MONTHS + 1)]


def _month_group(lab: _Labels, month: int, ms: MonthScore | None) -> Group:
    n = lab.players
    support = () if ms is None else tuple((s, (int(f),)) for s, f in enumerate(ms.support))
    return Group(f"month{month}", ms is not None, (
        ("support", Rows(lab.seat_keys, _FACTION_COLUMN, support)),
        ("totals", Numbers((0,) * len(Faction) if ms is None else ms.totals)),
        ("bonus", Numbers((0,) * n if ms is None else ms.bonus)),
    ), log=True)  # fmt: skip


def _verdict_group(lab: _Labels, view: PlayerView | None) -> Group:
    v = None if view is None else view.verdict
    victors = () if v is None else tuple((s, (int(f),)) for s, f in enumerate(v.victors))
    return Group("verdict", v is not None, (
        ("reason", OneOf(_REASON_LABELS, None if v is None else _REASONS.index(v.reason))),
        ("winners", SetOf((lab.players,), lab.seats, frozenset() if v is None else v.winners)),
        ("victors", Rows(lab.seat_keys, _FACTION_COLUMN, victors)),
        ("totals", Numbers((0,) * len(Faction) if v is None else v.totals)),
    ))  # fmt: skip


def _public_groups(
    players: int, view: PlayerView | None, flow: Flow | None = None, memo: dict[int, tuple[Any, Group]] | None = None
) -> list[Group]:
    lab = _LABELS[players]
    return [
        _deal_group(flow),
        _game_group(lab, view),
        _table_group("table", lab, None if view is None else view.table),
        _week_score_group(lab, view),
        _score_track_group(lab, view),
        *_history_groups(lab, view, {} if memo is None else memo),
        *_month_groups(lab, view),
        _verdict_group(lab, view),
    ]


def _empty_groups(players: int) -> Mapping[str, Group]:
    """Every group of a ``players``-player observation, absent: the layout, and the absent groups to reuse."""
    groups = (_private_group(_LABELS[players], None), *_public_groups(players, None))
    return MappingProxyType({g.key: g for g in groups})


_EMPTY: Final[Mapping[int, Mapping[str, Group]]] = MappingProxyType({n: _empty_groups(n) for n in (3, 4, 5)})


def view_fields(
    view: PlayerView, public: bool = True, private: bool = True, memo: dict[int, tuple[Any, Group]] | None = None
) -> tuple[Group, ...]:
    """The observation structure of ``view``: the seat's own secrets (group ``private``, absent for a
    spectator or without ``private``), then the public groups (absent without ``public``).

    Both :func:`view_text` and :func:`fill_tensor` render this structure.

    :param memo: finished weeks' groups already built in this game, to reuse (filled as they are built).
    """
    lab = _LABELS[view.players]
    seat = view.seat if private else None
    own = _private_group(lab, None)
    if seat is not None:
        own = _private_group(lab, seat, view.hand, view.victor, view.support, view.pending)
    return (own, *_public_groups(view.players, view if public else None, memo=memo))


def observation_fields(flow: Flow, seat: int | None, public: bool = True, private: bool = True) -> tuple[Group, ...]:
    """``seat``'s observation structure of ``flow`` (``None``: the spectator's): :func:`view_fields` of its
    view; during the deal, the deal's progress (group ``deal``) and the seat's own cards and victor card so far.

    Both :func:`observation_text` and :func:`fill_observation` render this structure.
    """
    if seat is not None:
        _check_seat(flow, seat)  # before the cache: a subclass of int may format as another seat's number
    key = f"fields{seat}{int(public)}{int(private)}"
    if key in flow._cache:
        cached: tuple[Group, ...] = flow._cache[key]
        return cached
    view = flow.view(seat)
    if view is not None:
        fields = view_fields(view, public=public, private=private, memo=flow._cache.setdefault("weeks", {}))
    else:
        lab = _LABELS[flow.players]
        own = _private_group(lab, None)
        if private and seat is not None:
            own = _private_group(lab, seat, flow.dealt[seat], flow.victors[seat] if seat < len(flow.victors) else None)
        fields = (own, *_public_groups(flow.players, None, flow if public else None))
    flow._cache[key] = fields
    return fields


# --------------------------------------------------------------------------- observations: text


def fields_text(fields: Iterable[Group], logs: bool = True) -> str:
    """The text of an observation structure: one line per present group (without the log groups when
    ``logs`` is false)."""
    return "\n".join(g.text() for g in fields if g.present and (logs or not g.log))


def view_text(view: PlayerView, logs: bool = True) -> str:
    """The text of ``view`` (:func:`view_fields`), a function of the view alone; without the public logs
    (finished weeks, month scores, score track) when ``logs`` is false."""
    return fields_text(view_fields(view), logs=logs)


def private_text(view: PlayerView | None) -> str:
    """The seat's own secrets in ``view``: seat, hand, victor card, support and pending choice (empty for none)."""
    return "" if view is None else fields_text(view_fields(view, public=False))


def observation_text(flow: Flow, seat: int | None, public: bool = True, private: bool = True) -> str:
    """``seat``'s observation (``None``: the spectator's) as text: :func:`fields_text` of
    :func:`observation_fields`."""
    return fields_text(observation_fields(flow, seat, public=public, private=private))


def private_observation_text(flow: Flow, seat: int) -> str:
    """``seat``'s own secrets: hand, victor card, support and pending choice (its cards so far during the deal)."""
    return observation_text(flow, seat, public=False)


def info_state_text(flow: Flow, seat: int) -> str:
    """``seat``'s information state: its trail (one line per joint action: what it saw and chose), then its
    current observation. Perfect recall: it holds every earlier observation and every own action.

    :raises WrongSeatError: ``seat`` is not a seat of the game (a plain ``int``).
    """
    _check_seat(flow, seat)
    return "\n".join((*flow.trail[seat], observation_text(flow, seat)))


# --------------------------------------------------------------------------- observations: tensor


def tensor_layout(players: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The named pieces of the observation tensor of a ``players``-player game, in order, with their shapes:
    for each group of the observation structure, ``key.present`` and then ``key.name`` for each field.

    The same for every observation of a game with this many seats. Counts and points are raw numbers,
    everything else is 0/1.

    :raises ~darkempire.rules.errors.ConfigError: if ``players`` is not 3-5.
    """
    _config(players)
    layout: list[tuple[str, tuple[int, ...]]] = []
    for group in _EMPTY[players].values():
        layout.append((f"{group.key}.present", (1,)))
        layout += [(f"{group.key}.{name}", value.shape) for name, value in group.fields]
    return tuple(layout)


def _offsets(players: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each group, the flat offset of its presence cell and those of its fields."""
    at, offsets = 0, []
    for group in _EMPTY[players].values():
        present, fields = at, []
        at += 1
        for _, value in group.fields:
            fields.append(at)
            at += math.prod(value.shape)
        offsets.append((present, tuple(fields)))
    return tuple(offsets)


_OFFSETS: Final[Mapping[int, tuple[tuple[int, tuple[int, ...]], ...]]] = MappingProxyType(
    {n: _offsets(n) for n in (3, 4, 5)}
)
_SIZES: Final[Mapping[int, int]] = MappingProxyType({n: sum(math.prod(s) for _, s in tensor_layout(n)) for n in (3, 4, 5)})


def tensor_size(players: int) -> int:
    """Length of the flat observation tensor of a ``players``-player game.

    :raises ~darkempire.rules.errors.ConfigError: if ``players`` is not 3-5.
    """
    _config(players)
    return _SIZES[players]


def fill_fields(tensor: npt.NDArray[np.float32], fields: Sequence[Group], players: int) -> None:
    """Write an observation structure of a ``players``-player game into the flat ``tensor`` (of
    :func:`tensor_size`, laid out as :func:`tensor_layout` says), zeroing it first.

    :raises InvalidArgumentError: if the tensor or the structure is not of a ``players``-player game.
    """
    if tensor.shape != (tensor_size(players),) or len(fields) != len(_OFFSETS[players]):
        raise InvalidArgumentError(f"tensor of shape {tensor.shape} and {len(fields)} groups are not an observation "
                                   f"of a {players}-player game: {tensor_size(players)} cells, "
                                   f"{len(_OFFSETS[players])} groups")  # fmt: skip
    index: list[int] = []
    cells: list[float] = []
    for group, (present, offsets) in zip(fields, _OFFSETS[players], strict=True):
        if not group.present:
            continue
        index.append(present)
        cells.append(1.0)
        for pairs, at in zip(group.cells(), offsets, strict=True):
            index += [at + i for i, _ in pairs]
            cells += [cell for _, cell in pairs]
    tensor.fill(0.0)
    tensor[index] = cells


def fill_tensor(
    tensor: npt.NDArray[np.float32], view: PlayerView | None, public: bool = True, private: bool = True
) -> None:
    """Write ``view`` (:func:`view_fields`) into the flat ``tensor`` (see :func:`fill_fields`).

    :param view: the view; ``None`` leaves everything zero.
    :param public: write the public groups.
    :param private: write the seat's own secrets (group ``private``).
    """
    if view is None:
        tensor.fill(0.0)
        return
    fill_fields(tensor, view_fields(view, public=public, private=private), view.players)


def fill_observation(
    tensor: npt.NDArray[np.float32], flow: Flow, seat: int | None, public: bool = True, private: bool = True
) -> None:
    """Write ``seat``'s observation of ``flow`` (:func:`observation_fields`) into the flat ``tensor``."""
    fill_fields(tensor, observation_fields(flow, seat, public=public, private=private), flow.players)


def make_pieces(players: int) -> tuple[npt.NDArray[np.float32], dict[str, npt.NDArray[np.float32]]]:
    """A zero flat tensor of :func:`tensor_size` and its named pieces (views into it, shaped by
    :func:`tensor_layout`)."""
    flat = np.zeros(tensor_size(players), dtype=np.float32)
    pieces: dict[str, npt.NDArray[np.float32]] = {}
    offset = 0
    for name, shape in tensor_layout(players):
        size = math.prod(shape)
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


