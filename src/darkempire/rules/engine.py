"""The rules as pure transition functions (spec sections 2-9).

Every decision in this game is simultaneous, so there are two ways to drive a game:

* **One step at a time, all seats together:** :func:`pass_cards`,
  :func:`discard`, :func:`choose_support`, :func:`play`, :func:`place_cards`
  and :func:`reorganize` each take the choices of every awaited seat as a
  mapping ``{seat: action}`` and return the state after the step.
* **One seat at a time**, as a front end receives moves: :func:`apply` records
  a seat's hidden pending choice and resolves the step once every awaited
  seat has chosen. :func:`legal_actions` lists what a seat may do and
  :func:`awaited_seats` who still has to choose.

Every transition reports what it did: :func:`step` (all seats together),
:func:`apply_reporting` (one seat), :func:`withdraw_reporting` and
:func:`deal_reporting` return a :class:`Transition`, the new state and the
events it caused (:mod:`darkempire.rules.events`), as the resolvers made them. The
functions above return the state alone. The engine keeps no module state: no
memo, no cache.

Chance is explicit: every random card (each victor card, each dealt card, each
week's revolution and emperor card, each re-organize refill card) is one named
draw, reported in the public event of the moment (:class:`~darkempire.rules.events.Draw`).
:func:`deal_reporting`, :func:`step` and :func:`apply_reporting` take a
``chance=`` source (a :class:`tablekit.chance.ChanceSource`) that makes every
draw among the cards still unseen; without one, the state's own generator and
pile order decide, as they always did.

Week start (revealing the emperor and revolution cards), weekly scoring
(:func:`score_week`), monthly scoring (:func:`score_month`), the month
reset and the final judgement (:func:`judge_winner`) happen automatically
inside these transitions.

At a play step every seat holding cards is awaited, even one whose only legal
action is :class:`~darkempire.rules.actions.PlayNothing` (ruling H), so that no hand
is revealed early. Elsewhere a seat is awaited only when it has a real choice:
a seat whose single legal action follows from public information has it made
for it (ruling N).

>>> from darkempire.rules import engine
>>> state = engine.deal(GameConfig(players=3), seed=7)
>>> state.phase, sorted(engine.awaited_seats(state))
(Phase.DRAFT_PASS, [0, 1, 2])
>>> state = engine.apply(state, 0, engine.legal_actions(state, 0)[0])
>>> sorted(engine.awaited_seats(state))
[1, 2]
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeVar, cast, overload

import attrs

from tablekit import records as kit_records
from tablekit.game import LazyActions
from tablekit.wire import quote
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
    REVOLUTION_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    FactionCard,
    HandCard,
    ReinforcementCard,
    RevolutionCard,
    faction_name,
    is_hand_card,
)
from darkempire.rules.chance import Chance
from tablekit.chance import ChanceSource
from tablekit.errors import ChanceError, KitError
from darkempire.rules.errors import (
    AlreadyChoseError,
    ConfigError,
    InvalidArgumentError,
    CardNotInHandError,
    IllegalActionError,
    InvalidPickUpError,
    InvalidPlacementError,
    InvalidTargetError,
    MalformedActionError,
    MissingChoiceError,
    NoEmperorCardError,
    ReinforcementOnFirstStepError,
    ReinforcementOnSameStepError,
    SecondTraitorCardError,
    SupportAlreadyUsedError,
    WrongCardCountError,
    WrongPhaseError,
    WrongSeatError,
)
from darkempire.rules.events import (
    CardsPassed,
    CardsPlaced,
    ChoiceMade,
    ChoiceWithdrawn,
    DraftDiscarded,
    Draw,
    EmperorCardScored,
    Event,
    EventDerivationError,
    GameOver,
    GameStarted,
    HandDealt,
    HandRefilled,
    MonthScored,
    MonthStarted,
    PlacementsDue,
    PlaysRevealed,
    Reorganized,
    RevealedPlay,
    StrengthsRevealed,
    TokensAwarded,
    WeekStarted,
    deal_draws,
)
from darkempire.rules.scoring import MonthScore, Verdict, WeekScore, final_verdict, score_month_tally, score_table
from darkempire.rules.state import (
    DEAL_SIZE,
    HAND_SIZE,
    MONTHS,
    PLAY_PHASES,
    STEPS,
    WEEKS,
    GameConfig,
    GameState,
    Phase,
    ScoredCard,
    ScoredEmperorCard,
    ScoreTrack,
    WeekRecord,
)
from darkempire.rules.table import Play, Reinforcement, WeekTable

__all__ = [
    "Transition",
    "advance",
    "apply",
    "apply_reporting",
    "awaited_seats",
    "check_choice",
    "check_seat",
    "check_shape",
    "choose_support",
    "deal",
    "deal_reporting",
    "discard",
    "events_between",
    "judge_winner",
    "legal_actions",
    "pass_cards",
    "place_cards",
    "play",
    "reorganize",
    "replay",
    "score_month",
    "score_week",
    "step",
    "withdraw",
    "withdraw_reporting",
]

T = TypeVar("T")
A = TypeVar("A", bound=Action)

#: Seeds are integers of magnitude below this (they travel in JSON and as strings to the generator).
SEED_LIMIT = 2**64

_ACTION_OF_PHASE: Mapping[Phase, tuple[type, ...]] = MappingProxyType({
    Phase.DRAFT_PASS: (PassCards,),
    Phase.DRAFT_DISCARD: (DiscardCards,),
    Phase.CHOOSE_SUPPORT: (ChooseSupport,),
    Phase.PLAY_1: (PlayCard, Reinforce, PlayNothing),
    Phase.PLAY_2: (PlayCard, Reinforce, PlayNothing),
    Phase.PLAY_3: (PlayCard, Reinforce, PlayNothing),
    Phase.PLACEMENT: (PlaceCards,),
    Phase.REORGANIZE: (Reorganize,),
})


#: The decision phases, in a tuple: ``phase in`` it compares by identity in C, where a dict or a set would call
#: the enum's Python-level ``__hash__``.
_DECISION_PHASES = tuple(_ACTION_OF_PHASE)

_CARD_ID = operator.attrgetter("id")  # a C-level sort key: no Python call per card
_FACTION = operator.attrgetter("faction")


def _by_id(cards: Iterable[HandCard]) -> tuple[HandCard, ...]:
    return tuple(sorted(cards, key=_CARD_ID))


def _set_seat(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def _table_now(state: GameState) -> WeekTable:
    """The week's table of a state in one of a week's phases (rules 4-6).

    Every state the rules reach has one there; a state built by hand may not, and gets a typed error rather
    than an ``AttributeError`` on ``None`` (:func:`~darkempire.validity.check_state` tells all its faults).

    :raises InvalidArgumentError: ``state`` has no table.
    """
    table = state.table
    if table is None:
        raise InvalidArgumentError(_missing(state, "table"))
    return table


def _week_score_now(state: GameState) -> WeekScore:
    """The week's scoring of a state at card placement (rule 5.7), or a typed error, as :func:`_table_now`.

    :raises InvalidArgumentError: ``state`` has no week score.
    """
    score = state.week_score
    if score is None:
        raise InvalidArgumentError(_missing(state, "week_score"))
    return score


def _missing(state: GameState, field: str) -> str:
    return (
        f"a state in the {state.phase.value} phase has a {field}; this one has none, so no game reaches it "
        f"(check_state tells what else is wrong)"
    )


# --------------------------------------------------------------------------- setup


def deal(config: GameConfig, seed: int) -> GameState:
    """Set up a new game (rules 2.1-2.4): the state awaiting the draft pass.

    Shuffles and deals the victor cards (one per seat), deals 9 hand cards to
    each seat, and makes the first month's revolution pile (4 of the 5 cards)
    and emperor pile (4 of the 8 cards). :func:`deal_reporting` does the same
    and reports the deal's events; given a chance source, it draws every card
    from it instead.

    :param config: the game's options (number of players).
    :param seed: an integer of magnitude below 2**64; the same seed and the
        same choices always give the same game.
    :returns: a state in :attr:`Phase.DRAFT_PASS`.
    :raises ConfigError: if ``config`` is not a valid configuration, or
        ``seed`` is not such an integer.
    """
    return _deal(config, seed, _Drawer(None, report=False))


def _deal(config: GameConfig, seed: int, drawer: _Drawer) -> GameState:
    """The deal (rules 2.1-2.4), each victor card and then each hand card drawn one at a time with ``drawer``.

    The state's own generator shuffles the four piles first, as it always did. With no chance source each
    draw takes the top card; with one, the source draws every card among those left, sorted, so what is
    drawn never depends on the shuffled order (which only decides where the cards left lie).
    """
    if not isinstance(config, GameConfig):
        config = GameConfig(players=config)  # the validator raises ConfigError on bad input
    if type(seed) is not int or not -SEED_LIMIT < seed < SEED_LIMIT:
        shown = f"an integer of {seed.bit_length()} bits" if type(seed) is int else repr(seed)  # repr of a huge int fails
        raise ConfigError(f"a seed is an integer of magnitude below 2**64, not {shown} (rule 9.3)")
    n = config.players
    chance = Chance(seed)
    factions, chance = chance.shuffled(tuple(Faction))
    deck, chance = chance.shuffled(HAND_CARDS)
    revolution, chance = chance.shuffled(REVOLUTION_CARDS)
    emperor, chance = chance.shuffled(EMPEROR_CARDS)
    left_factions = list(factions)
    victors = tuple(drawer.take(f"victor seat {s}", left_factions, int) for s in range(n))
    left = list(deck)
    hands = tuple(
        _by_id(drawer.take_each(f"deal seat {s} #", 0, DEAL_SIZE, left, _CARD_ID)) for s in range(n)
    )
    return GameState(
        config=config,
        phase=Phase.DRAFT_PASS,
        month=1,
        week=0,
        hands=hands,
        draw_pile=tuple(left),
        discard_pile=(),
        victors=victors,
        support=(None,) * n,
        support_used=(frozenset(),) * n,
        revolution_pile=revolution[:WEEKS],
        revolution_reserve=revolution[WEEKS:],
        emperor_pile=emperor[:WEEKS],
        emperor_reserve=emperor[WEEKS:],
        table=None,
        week_score=None,
        score_track=ScoreTrack(),
        month_tokens=(0,) * n,
        banked_tokens=(0,) * n,
        pending=(None,) * n,
        history=(),
        month_scores=(),
        verdict=None,
        chance=chance,
    )


class _Drawer:
    """The chance draws of one transition, made one card at a time (rules 2.3, 2.4, 3.3, 4.1, 6.4, ruling R).

    ``source`` is the :class:`tablekit.chance.ChanceSource` the caller gave, advanced after each draw, or
    ``None``: then every draw takes the top card of the pile the state's own generator shuffled, so a seed
    gives the same game as it always did. When ``report`` is true (a transition that returns its events),
    each draw is recorded as a :class:`~darkempire.rules.events.Draw` (its name and the number of cards it was
    among) for the events to report; :func:`apply`, :func:`deal` and :func:`advance` drop their events, so
    their drawer records nothing and names no draw. Made afresh by each transition and dropped with it: no
    module state.
    """

    __slots__ = ("draws", "report", "source")

    def __init__(self, source: ChanceSource | None, *, report: bool = True) -> None:
        self.source = source
        self.report = report or source is not None  # a source is told each draw's name
        self.draws: list[Draw] = []

    def take(self, name: str, left: list[T], key: Callable[[T], Any]) -> T:
        """Draw one of ``left`` (in pile order: its top card first) and remove it from ``left``.

        With a source the options are ``left`` sorted by ``key`` (never in pile order: that would tell the
        pile), and the source's outcome names the one drawn; without, the top card ``left[0]`` is drawn.
        """
        if self.report:
            self.draws.append(Draw(name, len(left)))
        if self.source is None:
            return left.pop(0)
        options = sorted(left, key=key)
        index, self.source = _outcome_index(self.source, name, options)
        drawn = options[index]  # the game's own card, never the source's (a copy or subclass could lie)
        left.remove(drawn)
        return drawn

    def take_each(self, label: str, first: int, count: int, left: list[T], key: Callable[[T], Any]) -> list[T]:
        """``count`` :meth:`take` in turn from a ``left`` of at least as many cards, named ``label`` and a number
        from ``first`` on: the cards drawn, in order. Without a source, the top cards, taken at once."""
        names = [f"{label}{k}" for k in range(first, first + count)] if self.report else []
        if self.source is not None:
            return [self.take(name, left, key) for name in names]
        size = len(left)
        self.draws += map(Draw, names, range(size, size - count, -1))  # each draw was among the cards left then
        drawn = left[:count]
        del left[:count]
        return drawn

    def flush(self) -> tuple[Draw, ...]:
        """The draws recorded since the last flush, for the event that reports them."""
        draws, self.draws = tuple(self.draws), []
        return draws


def _outcome_index(source: ChanceSource, name: str, options: list[T]) -> tuple[int, ChanceSource]:
    """The index ``source`` drew among ``options``, and its next state, checked: a source is the caller's
    code, and an outcome outside the options must not reach the state.

    :raises InvalidArgumentError: ``source`` has no ``draw`` method.
    :raises ChanceError: the draw did not return ``(Outcome, source)`` with an ``int`` index of ``options``.
    """
    draw = getattr(source, "draw", None)
    if not callable(draw):
        raise InvalidArgumentError(f"chance= takes a tablekit.chance.ChanceSource, not {type(source).__name__}")
    result = draw(name, options)
    outcome = result[0] if type(result) is tuple and len(result) == 2 else None
    index = getattr(outcome, "index", None)
    if type(index) is not int or not 0 <= index < len(options):
        raise ChanceError(f"the chance source's outcome of {name!r} is no index in 0..{len(options) - 1}")
    return index, result[1]


# --------------------------------------------------------------------------- legal actions


def _options(state: GameState, seat: int) -> Sequence[Action]:
    """Every legal action of ``seat`` in the current step, ignoring pending choices: a
    :class:`~tablekit.game.LazyActions` (:func:`_card_pairs`, :func:`_play_options`, :func:`_reorganizations`,
    or :func:`_listed` of a tuple built at once), or ``()`` when there is none (no element, so no value's ``__eq__`` runs)."""
    phase = state.phase
    hand = state.hands[seat]
    if phase is Phase.DRAFT_PASS or phase is Phase.DRAFT_DISCARD:
        kind = PassCards if phase is Phase.DRAFT_PASS else DiscardCards
        return _card_pairs(kind, hand)
    if phase is Phase.CHOOSE_SUPPORT:
        return _SUPPORT_LISTINGS[state.support_used[seat]]
    if phase in PLAY_PHASES:
        return _play_options(state, seat)
    if phase is Phase.PLACEMENT:
        dues = [d for d in _week_score_now(state).placements if d.seat == seat]
        if not dues:
            return ()
        return _listed(tuple([PlaceCards(frozenset(combo)) for combo in itertools.product(*(d.candidates for d in dues))]))
    if phase is Phase.REORGANIZE:
        take_backs: tuple[HandCard | None, ...] = (None,)
        take_backs += tuple(p.card for p in _table_now(state).plays if p.seat == seat and p.side is Side.REVOLUTION)
        return _reorganizations(take_backs, hand)
    return ()


def _listed(actions: tuple[Action, ...]) -> LazyActions[Action]:
    """The few ``actions`` of a phase built at once (the support cards left, the placements), as a
    :class:`~tablekit.game.LazyActions` whose ``in`` is the engine's own (:func:`_is_listed`).

    A plain tuple would answer ``in``, ``index`` and ``count`` with each action's ``__eq__``, which raises
    ``AttributeError`` for a value built without its fields and says True when a subclass of an action says
    so of itself, though :func:`apply` refuses both. Equal to the tuple and hashing like it, all the same.
    """
    return LazyActions(len(actions), actions.__getitem__, functools.partial(_is_listed, actions))


def _is_listed(actions: tuple[Action, ...], value: object) -> bool:
    """Whether ``value`` is one of ``actions``, as :func:`apply` would take it (:func:`_own`)."""
    own = _own(value)
    return own is not None and own in actions  # the game's own objects only: no caller's __eq__ runs


def _support_listings() -> Mapping[frozenset[Faction], LazyActions[Action]]:
    """The choose-support listing for each set of support cards used (rule 3.2): the cards left, in faction order."""
    used_sets = [frozenset(combo) for size in range(len(Faction) + 1) for combo in itertools.combinations(Faction, size)]
    return MappingProxyType({used: _listed(tuple(ChooseSupport(f) for f in Faction if f not in used)) for used in used_sets})


#: The choose-support listings, all 32 built once (immutable, as the actions are): a look-up at each choice.
_SUPPORT_LISTINGS = _support_listings()


def _card_pairs(kind: type[PassCards] | type[DiscardCards], hand: tuple[HandCard, ...]) -> Sequence[Action]:
    """``kind`` of every pair of ``hand``, in :func:`itertools.combinations` order (rules 2.5, 2.6): 36 of
    9 cards, built on demand (:func:`_card_pair`) in a :class:`~tablekit.game.LazyActions`."""
    return LazyActions(
        math.comb(len(hand), 2),
        functools.partial(_card_pair, kind, hand),
        functools.partial(_is_card_pair, kind, hand),
    )


def _card_pair(kind: type[PassCards] | type[DiscardCards], hand: tuple[HandCard, ...], index: int) -> Action:
    """Pair ``index`` of :func:`_card_pairs`: the pairs follow the empty set and the single cards in
    :func:`_subset_at`'s order."""
    return kind(frozenset(_subset_at(hand, 1 + len(hand) + index)))


def _is_card_pair(kind: type[PassCards] | type[DiscardCards], hand: tuple[HandCard, ...], value: object) -> bool:
    """Whether ``value`` is one of :func:`_card_pairs`, without building them: a ``kind`` that :func:`apply`
    would take (:func:`_own`) of two cards of ``hand``."""
    own = _own(value)
    return type(own) is kind and len(own.cards) == 2 and own.cards.issubset(hand)


def _reorganizations(take_backs: tuple[HandCard | None, ...], hand: tuple[HandCard, ...]) -> LazyActions[Reorganize]:
    """Every re-organize: each of ``take_backs`` with each subset of ``hand`` to discard, in that order, the
    subsets by size and each size in :func:`itertools.combinations` order (rules 6.2, 6.3).

    Up to 512 actions, of which a driver takes one: they are built on demand, by index
    (:func:`_reorganization`), and ``in`` is answered without building any (:func:`_is_reorganization`).
    The partials hold only the two tuples, so the sequence pickles as the tuple of its actions would.
    """
    return LazyActions(
        len(take_backs) << len(hand),
        functools.partial(_reorganization, take_backs, hand),
        functools.partial(_is_reorganization, take_backs, hand),
    )


def _reorganization(take_backs: tuple[HandCard | None, ...], hand: tuple[HandCard, ...], index: int) -> Reorganize:
    """Action ``index`` of :func:`_reorganizations`: ``2 ** len(hand)`` subsets per take-back."""
    size = len(hand)
    return Reorganize(take_backs[index >> size], frozenset(_subset_at(hand, index & ((1 << size) - 1))))


def _subset_at(cards: tuple[HandCard, ...], index: int) -> list[HandCard]:
    """Subset ``index`` of ``cards``, counting every subset by size, each size in
    :func:`itertools.combinations` order: the ``index``-th of ``chain(combinations(cards, k) for k in 0..n)``.

    Combinations come in lexicographic order of positions, and ``comb(n - x - 1, left - 1)`` of those of a
    size start at position ``x``: skip whole blocks until ``index`` falls inside one.
    """
    n = len(cards)
    size = 0
    while index >= (block := math.comb(n, size)):
        index -= block
        size += 1
    chosen: list[HandCard] = []
    position = 0
    for left in range(size, 0, -1):
        while index >= (block := math.comb(n - position - 1, left - 1)):
            index -= block
            position += 1
        chosen.append(cards[position])
        position += 1
    return chosen


def _is_reorganization(take_backs: tuple[HandCard | None, ...], hand: tuple[HandCard, ...], value: object) -> bool:
    """Whether ``value`` is one of :func:`_reorganizations`, without building them: a :class:`Reorganize`
    that :func:`apply` would take (:func:`_own`), whose take-back is one of ``take_backs`` and whose discards
    are a subset of ``hand``."""
    own = _own(value)
    return type(own) is Reorganize and own.take_back in take_backs and own.discards.issubset(hand)


def _is_genuine(card: object) -> bool:
    """``card`` is one of the game's own 75 card objects (not an equal copy, whose fields could lie)."""
    if type(card) is not FactionCard and type(card) is not ReinforcementCard:  # is_hand_card, without the call
        return False
    number = getattr(card, "id", None)  # a card built with object.__new__ may lack it
    return type(number) is int and 0 <= number < len(HAND_CARDS) and HAND_CARDS[number] is card


def _play_options(state: GameState, seat: int) -> Sequence[Action]:
    """A play step's actions: for each card of the hand in turn, a faction card to the revolution side, then
    (while the seat may make its traitor play) to the emperor side; a reinforcement card on each earlier
    play it may reinforce, in the table's order (rules 4.2-4.6, ruling G). :class:`PlayNothing` alone when
    the seat holds cards but none of them is playable (ruling H).

    Counted without building them: a :class:`~tablekit.game.LazyActions` (:func:`_play_at` builds one).
    """
    table = _table_now(state)
    hand = state.hands[seat]
    step = PLAY_PHASES.index(state.phase) + 1  # Phase.step, without hashing the phase in Python
    traitor_allowed = table.emperor_card is not None and not table.has_traitor_play(seat)
    reinforcements = list(map(_FACTION, hand)).count(None)  # a reinforcement card has no faction
    targets: tuple[HandCard, ...] = ()
    if reinforcements and step > 1:  # only a reinforcement card has targets, and none at the first step
        revolution = Side.REVOLUTION
        targets = tuple(p.card for p in table.plays if p.step < step and (p.side is revolution or traitor_allowed))
    size = (len(hand) - reinforcements) * (2 if traitor_allowed else 1) + reinforcements * len(targets)  # _play_count
    if not size:
        return _listed((PlayNothing(),)) if hand else ()  # holds cards, none playable (ruling H)
    return LazyActions(
        size,
        functools.partial(_play_at, hand, targets, traitor_allowed),
        functools.partial(_is_play, hand, targets, traitor_allowed),
    )


def _play_at(hand: tuple[HandCard, ...], targets: tuple[HandCard, ...], traitor_allowed: bool, index: int) -> Action:
    """Action ``index`` of :func:`_play_options`: each card of ``hand`` in turn takes 1 or 2 places (a faction
    card) or one per target (a reinforcement card)."""
    for card in hand:
        if card.faction is None:  # a reinforcement card
            if index < len(targets):
                return Reinforce(card, targets[index])
            index -= len(targets)
        elif not traitor_allowed:
            if not index:
                return PlayCard(card, Side.REVOLUTION)
            index -= 1
        else:
            if index < 2:
                return PlayCard(card, Side.EMPEROR if index else Side.REVOLUTION)
            index -= 2
    raise IndexError(f"action index {index} past the play options")  # LazyActions asks only within its size


def _is_play(hand: tuple[HandCard, ...], targets: tuple[HandCard, ...], traitor_allowed: bool, value: object) -> bool:
    """Whether ``value`` is one of :func:`_play_options`'s actions, without building them: a play that
    :func:`apply` would take (:func:`_own`) whose card is in ``hand`` and of the right kind, and whose side
    or target is one listed. :class:`PlayNothing` is never among them: it is listed alone (:func:`_listed`).
    """
    own = _own(value)
    if type(own) is PlayCard:
        side_ok = own.side is Side.REVOLUTION or traitor_allowed
        return side_ok and own.card.faction is not None and own.card in hand
    if type(own) is Reinforce:
        return own.card.faction is None and own.card in hand and own.target in targets
    return False


def _play_count(hand: tuple[HandCard, ...], targets: tuple[HandCard, ...], traitor_allowed: bool) -> int:
    """How many actions :func:`_play_options` lists: 1 or 2 per faction card, one per target per reinforcement card."""
    reinforcements = list(map(_FACTION, hand)).count(None)  # a reinforcement card has no faction
    return (len(hand) - reinforcements) * (2 if traitor_allowed else 1) + reinforcements * len(targets)


def _required(state: GameState) -> Sequence[int]:
    """Seats that must choose in this step (rule 9.2, ruling N), from the option counts without listing the
    options.

    At a play step, every seat holding cards, even one with a single legal
    action: whether a hand allows a choice must stay secret until the step is
    revealed. Elsewhere, only seats with two or more legal actions; how many a
    seat has there depends on public information alone (hand sizes, the table).

    Counted afresh at every call (a driver asks several times per decision): the reference engine keeps
    no memo, so each phase first tries the common case, every seat, with one C-level pass.
    """
    phase = state.phase
    hands = state.hands
    if phase in PLAY_PHASES:
        if all(hands):  # the common case: every hand holds a card
            return range(len(hands))
        return tuple(itertools.compress(range(len(hands)), hands))  # a hand is true when it holds a card
    if phase is Phase.REORGANIZE:
        if all(hands):  # (1 + own cards to take back) * 2 ** hand size options: two or more with a card
            return range(len(hands))
        owners = {play.seat for play in _table_now(state).plays if play.side is Side.REVOLUTION}
        # Two or more options unless the seat has neither a card in hand nor one to take back.
        return tuple(seat for seat, hand in enumerate(hands) if hand or seat in owners)
    if phase is Phase.DRAFT_PASS or phase is Phase.DRAFT_DISCARD:
        return tuple(seat for seat, hand in enumerate(hands) if len(hand) >= 3)  # C(n, 2) >= 2 pairs
    if phase is Phase.CHOOSE_SUPPORT:
        used = state.support_used
        if max(map(len, used)) <= len(Faction) - 2:  # at most 3 used: 2 or more of the 5 are left to each
            return range(len(used))
        return tuple(seat for seat, spent in enumerate(used) if sum(1 for f in Faction if f not in spent) >= 2)
    if phase is Phase.PLACEMENT:
        combinations: list[int | None] = [None] * state.players  # None: no card to place
        for due in _week_score_now(state).placements:
            before = combinations[due.seat]
            combinations[due.seat] = (1 if before is None else before) * len(due.candidates)
        return tuple(seat for seat, count in enumerate(combinations) if count is not None and count >= 2)
    if type(phase) is not Phase:  # checked here, past every decision phase: no cost where a seat chooses
        check_shape(state, "the engine")
    return ()


def awaited_seats(state: GameState) -> frozenset[int]:
    """The seats whose choice the current step still waits for (rule 9.2, ruling N).

    Empty once the game is over.

    :raises InvalidArgumentError: if ``state`` is not a :class:`GameState`.
    """
    try:
        _check_state(state, "awaited_seats")
        return _awaited(state, _required(state))
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand? (_check_state)
            check_shape(state, "awaited_seats")
        raise


def _awaited(state: GameState, required: Iterable[int]) -> frozenset[int]:
    """The ``required`` seats that have no pending choice yet."""
    pending = state.pending
    if pending == (None,) * len(pending):  # nobody has chosen yet (compared by identity, element by element)
        return frozenset(required)
    return frozenset([seat for seat in required if pending[seat] is None])


def legal_actions(state: GameState, seat: int) -> Sequence[Action]:
    """The actions ``seat`` may take now, in a fixed order (rule 9.2).

    Non-empty exactly when the seat is awaited. Empty when it already chose,
    or the step needs no choice from it: outside the play steps, a seat whose
    only legal action is known from public information has it taken for it
    (ruling N); at a play step, a seat with an empty hand plays nothing (ruling H).

    A :class:`~tablekit.game.LazyActions`, or ``()`` when the seat has no choice: at the draft (36 pairs of
    9 cards), at a play step and at the
    re-organize (up to 512 actions: every take-back with every subset of the hand) it builds action ``i``
    only when it is indexed and answers ``in`` without building any; elsewhere it holds the few actions
    built at once. It is equal to (and hashes like) the tuple of the same actions in the same order; call
    ``tuple()`` on it for a tuple.

    Its ``in``, ``index`` and ``count`` are the engine's own: ``value in legal_actions(state, seat)`` holds
    exactly when :func:`apply` accepts ``value`` from ``seat`` now, an action of the listed class itself
    whose cards are the game's own or exact copies of them; a value built without its fields or a subclass
    of an action class (whatever its ``__eq__`` says) is in no listing, and ``index`` refuses it with a
    :class:`~tablekit.errors.NotListedError`, never an ``AttributeError``.

    :raises WrongSeatError: if ``seat`` is not a seat of this game.
    """
    try:
        _check_state(state, "legal_actions")
        if type(seat) is not int or not 0 <= seat < state.config.players:
            check_seat(state, seat)  # raises
        if state.pending[seat] is not None:
            return ()
        # At a play step every seat holding a card is required, and an empty hand has no option anyway: the
        # required seats need counting only elsewhere (this runs at every decision).
        if state.phase not in PLAY_PHASES and seat not in _required(state):
            return ()
        return _options(state, seat)
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand? (_check_state)
            check_shape(state, "legal_actions")
        raise


# --------------------------------------------------------------------------- checking an action


def _check_state(state: object, name: str) -> None:
    """``state`` is a :class:`GameState`: anything else is a typed error, not an ``AttributeError`` from deep inside.

    A state built by hand must pass :func:`darkempire.validity.check_state`: the engine checks only what costs
    nearly nothing (:func:`_check_seat_tuples` where a state is made), and when an untyped error escapes
    from inside, the public functions tell what is out of shape (:func:`check_shape`).
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"{name} takes a GameState, not {type(state).__name__}")


def _check_seat_tuples(state: GameState, name: str) -> None:
    """A hand and a pending choice per seat, the two per-seat tuples that a choice reads and writes, and a
    table that is a table or none, which a choice left pending passes on unread: so that no state is
    returned with a seat missing or a table of another type (:func:`check_shape` tells which is wrong)."""
    players = state.config.players
    table = state.table
    try:
        shaped = len(state.hands) == players and len(state.pending) == players
    except TypeError:  # no sequence at all
        shaped = False
    if table is not None and type(table) is not WeekTable:
        shaped = False
    if not shaped:
        check_shape(state, name)


#: The per-seat tuples of a state, one entry per seat.
_SEAT_FIELDS = ("hands", "victors", "support", "support_used", "month_tokens", "banked_tokens", "pending")


def check_shape(state: GameState, name: str = "check_shape") -> None:
    """Raise :class:`InvalidArgumentError` naming the field at fault if ``state`` is out of shape, as only a
    state built by hand can be: its config, phase, table or week score of another type, a per-seat tuple of
    another length than the players, a hand that is no tuple of hand cards.

    The public functions of the engine and :mod:`~darkempire.rules.views` call it when an untyped error
    escapes from inside them, so that such a state gets this error, naming ``name`` (the function given the
    state), and never an ``AttributeError``; for a state in shape it returns, and they re-raise what they
    caught. It is no full check: a state built by hand must pass :func:`darkempire.validity.check_state`.
    """
    fault = _shape_fault(state)
    if fault is not None:
        raise InvalidArgumentError(
            f"{name} was given a state no game reaches: {fault} (a state built by hand must pass "
            "darkempire.validity.check_state, which tells every fault)"
        )


def _shape_fault(state: GameState) -> str | None:
    """What is out of shape in ``state``, if anything: its config, phase, table, week score, a per-seat tuple
    of another length than the players, a hand that is no tuple of hand cards, support cards used that are
    no frozenset. The rest of :func:`darkempire.validity.check_state`'s checks are left to it."""
    if type(state.config) is not GameConfig:
        return f"config is a GameConfig, not {quote(state.config)}"
    if type(state.phase) is not Phase:
        return f"phase is a Phase, not {quote(state.phase)}"
    for field, kind in (("table", WeekTable), ("week_score", WeekScore)):
        value = getattr(state, field)
        if value is not None and type(value) is not kind:
            return f"{field} is a {kind.__name__} or None, not {quote(value)}"
    players = state.players
    for field in _SEAT_FIELDS:
        value = getattr(state, field)
        if type(value) is not tuple:
            return f"{field} is a tuple (one entry per seat), not {quote(value)}"
        if len(value) != players:
            return f"{field} has {len(value)} entries for {players} seats"
    for seat, hand in enumerate(state.hands):
        if type(hand) is not tuple or not all(map(is_hand_card, hand)):
            return f"hands[{seat}] is a tuple of hand cards, not {quote(hand)}"
    for seat, used in enumerate(state.support_used):
        if type(used) is not frozenset:
            return f"support_used[{seat}] is a frozenset of factions, not {quote(used)}"
    return None


def _card_label(card: object) -> str:
    """How a message names a value given as a card: a real card by its label, anything else by its repr, with
    a hint for a card subclass (it is no physical card, whatever its ``__eq__`` says)."""
    if is_hand_card(card):
        return card.label()
    if isinstance(card, (FactionCard, ReinforcementCard)):
        base = FactionCard if isinstance(card, FactionCard) else ReinforcementCard
        return f"{card!r} (a card is a {base.__name__} itself, not a {type(card).__name__})"
    return repr(card)


def check_seat(state: GameState, seat: object) -> None:
    """Check that ``seat`` is a seat of ``state``'s game: a plain ``int`` from 0 to players - 1 (rule 9.1).

    Not a ``bool`` (``True == 1`` would act for seat 1) nor another ``int`` subclass such as an ``IntEnum``:
    such a seat would be stored in pending choices, views and records that must hold plain numbers, and its
    own ``__eq__`` could make it match another seat. :func:`~darkempire.rules.views.player_view` checks its seat
    with it too.

    :raises WrongSeatError: if ``seat`` is not a plain ``int`` or names no seat of this game.
    """
    if type(seat) is int and 0 <= seat < state.config.players:
        return
    subclass = isinstance(seat, int) and type(seat) is not int  # a bool, an IntEnum: not a plain int out of range
    hint = f" (a seat is a plain int; use int(seat) for a {type(seat).__name__})" if subclass else ""
    raise WrongSeatError(f"there is no seat {quote(seat)} in a {state.players}-player game{hint}", rule="9.1")


def _check_awaited(state: GameState, seat: int, required: Collection[int]) -> None:
    """``seat`` may choose now: it is a seat, the phase is a decision, it has not chosen, and it is one of the
    ``required`` seats of this step (:func:`_required`)."""
    if type(seat) is not int or not 0 <= seat < state.config.players:
        check_seat(state, seat)  # raises
    if state.phase not in _DECISION_PHASES:  # is_decision, without the property call or the enum's hash
        raise WrongPhaseError(f"no seat chooses in the {state.phase.value} phase", rule="9.1")
    if state.pending[seat] is not None:
        raise AlreadyChoseError(f"seat {seat} already chose in this step", rule="9.2")
    if seat not in required:
        raise WrongSeatError(f"seat {seat} has no choice to make in this step", rule="R-N")


def _require_in_hand(state: GameState, seat: int, cards: Iterable[HandCard], rule: str) -> None:
    """Every one of ``cards`` is a card of ``seat``'s own hand.

    Only a hand card itself can be (:func:`~darkempire.rules.cards.is_hand_card`): a hand holds nothing else, and
    ``card in hand`` would let a value of another type (a card subclass, say) answer with its own
    ``__eq__``, which may say True to anything.
    """
    hand = state.hands[seat]
    for card in cards:
        # is_hand_card(card), inline (a play checks one card per decision), and the card itself among the hand,
        # found by `is` in C (no Python-level __eq__ per card) before an equal copy is looked for.
        if (type(card) is not FactionCard and type(card) is not ReinforcementCard) or not (
            any(map(operator.is_, hand, itertools.repeat(card))) or card in hand
        ):
            raise CardNotInHandError(f"seat {seat} does not hold {_card_label(card)}", rule=rule)


def _position(cards: tuple[HandCard, ...], card: HandCard) -> int:
    """``cards.index(card)``: where a card checked to be among ``cards`` is (the object itself first)."""
    found = next(itertools.compress(itertools.count(), map(operator.is_, cards, itertools.repeat(card))), None)
    return cards.index(card) if found is None else found


def _check_action(state: GameState, seat: int, action: Action, played_now: Collection[HandCard] = ()) -> bool:
    """Raise the precise :class:`IllegalActionError` if ``action`` is not legal for ``seat`` now.

    Every check reads only what ``seat`` may see: its own hand and support cards used, and the public
    table, week score and phase; never another seat's hand, pending choice, support or victor card. So the
    answer, error or none, tells the seat nothing it may not know (spec 9.4).

    :param played_now: the cards that the seats of the same simultaneous call play in this step. A
        reinforcement aimed at one of them is left to :func:`_check_same_step`, which runs once every seat's
        own checks passed.
    :returns: whether every card of ``action`` is the game's own object (:func:`_check_fields`); if not,
        store :func:`_genuine` of it.
    """
    phase = state.phase
    kind = type(action)
    # The action classes themselves: a subclass could answer each field read differently. The class is hashed
    # (in C) and the phase compared by identity.
    if phase not in _PHASES_OF_ACTION.get(kind, ()):
        wanted = " or ".join(k.__name__ for k in _ACTION_OF_PHASE[phase])
        raise WrongPhaseError(
            f"{kind.__name__} is not an action of the {phase.value} phase; it takes {wanted}", rule="9.1"
        )
    genuine = _check_fields(action)
    if isinstance(action, PlayCard):  # the class itself, checked above: the most frequent first
        _check_play(state, seat, action)
    elif isinstance(action, Reinforce):
        _check_reinforce(state, seat, action, played_now)
    elif isinstance(action, Reorganize):
        _check_reorganize(state, seat, action)
    elif isinstance(action, (PassCards, DiscardCards)):
        rule = "2.5" if kind is PassCards else "2.6"
        verb = "passes" if kind is PassCards else "discards"
        if len(action.cards) != 2:
            raise WrongCardCountError(f"a seat {verb} exactly 2 cards, not {len(action.cards)}", rule=rule)
        _require_in_hand(state, seat, action.cards, rule)
    elif isinstance(action, ChooseSupport):
        if not isinstance(action.faction, Faction):
            raise IllegalActionError(f"{action.faction!r} is not a faction", rule="3.2")
        if action.faction in state.support_used[seat]:
            raise SupportAlreadyUsedError(
                f"seat {seat} already used its {faction_name(action.faction)} temporary support card", rule="3.2"
            )
    elif isinstance(action, PlayNothing):
        if any(not isinstance(a, PlayNothing) for a in _play_options(state, seat)):
            raise IllegalActionError(
                f"seat {seat} holds a card it may play, and playing is mandatory", rule="R-H"
            )
    elif isinstance(action, PlaceCards):  # the last action class: _PHASES_OF_ACTION let no other through
        _check_placement(state, seat, action)
    return genuine


#: The type each field of each action class must have: ``(frozenset,)``, or ``(object,)`` for single cards,
#: factions and sides, which need only be present: the rules' own checks refuse a wrong one, naming the rule
#: (and hinting at a card subclass).
_FIELD_TYPES: Mapping[type, tuple[tuple[str, tuple[type, ...]], ...]] = MappingProxyType({
    PassCards: (("cards", (frozenset,)),),
    DiscardCards: (("cards", (frozenset,)),),
    ChooseSupport: (("faction", (object,)),),
    PlayCard: (("card", (object,)), ("side", (object,))),
    Reinforce: (("card", (object,)), ("target", (object,))),
    PlayNothing: (),
    PlaceCards: (("cards", (frozenset,)),),
    Reorganize: (("take_back", (object,)), ("discards", (frozenset,))),
})


def _check_fields(action: Action) -> bool:
    """Every field of ``action`` is present and of its declared type: an immutable ``frozenset``, not a
    tuple that may name a card twice or a set that may change after this check (rule 9.1).

    :returns: whether every hand card in the fields is the game's own object (:func:`_is_genuine`), as a
        listed action's are: then :func:`_genuine` has nothing to replace.
    """
    genuine = True
    for name, kinds in _FIELD_TYPES[type(action)]:
        value = getattr(action, name, _MISSING)
        if value is _MISSING:
            raise MalformedActionError(f"{type(action).__name__} has no {name}", rule="9.1")
        # A frozenset field is the frozenset class itself; any other field's kinds take any value.
        if kinds[0] is frozenset:
            if type(value) is not frozenset:
                raise MalformedActionError(
                    f"{type(action).__name__}.{name} is a frozenset, not {type(value).__name__}", rule="9.1"
                )
            for card in value:
                if not _is_genuine(card):
                    genuine = _check_card(action, name, card) and genuine
        elif (type(value) is FactionCard or type(value) is ReinforcementCard) and not _is_genuine(value):
            genuine = _check_card(action, name, value) and genuine  # a copy of a card (a side, a faction pass)
    return genuine


def _check_card(action: Action, name: str, card: object) -> bool:
    """A value in field ``name`` of ``action`` that is not one of the game's own card objects: if it is a hand
    card, it must be an equal copy of one of the 75 real cards. Whether it is no hand card at all."""
    if not is_hand_card(card):
        return True  # no hand card: the rule checks refuse it where a card is due
    if not _is_real(card):
        raise MalformedActionError(
            f"{type(action).__name__}.{name} holds a HandCard that is none of the 75 real cards", rule="1.2"
        )
    return False


_MISSING = object()

#: The fields of the action classes that hold an enumeration member, and its enumeration.
_ENUM_FIELDS: Mapping[str, type] = MappingProxyType({"faction": Faction, "side": Side})


def _own(value: object) -> Action | None:
    """``value`` as the action of the game's own objects it stands for, or ``None`` if it stands for none.

    It stands for one when it is of an action class itself (not a subclass, whose ``__eq__`` or fields could
    say anything), has every field, each frozenset field a ``frozenset`` of hand cards and each other field
    a hand card, a member of its enumeration or (a take-back) ``None``, every card one of the game's own 75
    objects or an exact copy of one (:func:`_is_real`). That is what :func:`apply` takes as that action, so
    the listings' ``in``, ``index`` and ``count`` use it: ``value in legal_actions(...)`` implies that
    :func:`apply` accepts ``value``, and no caller's ``__eq__`` runs, nor an ``AttributeError`` from a value
    built without its fields (``object.__new__``). The action itself when it is already of the game's own
    objects (the common case: an action taken from a listing).
    """
    fields = _FIELD_TYPES.get(type(value))
    if fields is None:
        return None
    changes: dict[str, object] = {}
    for name, kinds in fields:
        field = getattr(value, name, _MISSING)
        if kinds[0] is frozenset:
            if type(field) is not frozenset:
                return None  # a missing field too
            cards = [_own_card(card) for card in field]
            if not all(map(operator.is_, cards, field)):
                if any(card is None for card in cards):
                    return None
                changes[name] = frozenset(cards)
        elif name in _ENUM_FIELDS:
            if type(field) is not _ENUM_FIELDS[name]:
                return None
        elif not (field is None and name == "take_back"):
            card = _own_card(field)
            if card is None:
                return None
            if card is not field:
                changes[name] = card
    return cast(Action, attrs.evolve(cast(Any, value), **changes)) if changes else cast(Action, value)


def _own_card(card: object) -> HandCard | None:
    """``card`` if it is one of the game's own card objects, the real card an exact copy stands for, or ``None``."""
    if _is_genuine(card):
        return cast(HandCard, card)
    if (type(card) is FactionCard or type(card) is ReinforcementCard) and _is_real(card):
        return HAND_CARDS[card.id]
    return None

#: The decision phases each action class belongs to (the inverse of ``_ACTION_OF_PHASE``).
_PHASES_OF_ACTION: Mapping[type, tuple[Phase, ...]] = MappingProxyType({
    kind: tuple(phase for phase, kinds in _ACTION_OF_PHASE.items() if kind in kinds) for kind in _FIELD_TYPES
})


def _is_real(card: HandCard) -> bool:
    """``card`` has the very fields of the real card of its id. A HandCard built with ``object.__new__``
    skips the class's own check, and a field such as an int subclass equal to everything would pass ``==``."""
    number = getattr(card, "id", None)
    if type(number) is not int or not 0 <= number < len(HAND_CARDS):
        return False
    real = HAND_CARDS[number]
    value = getattr(card, "value", None)
    return getattr(card, "faction", None) is real.faction and type(value) is int and value == real.value


def _genuine(action: Action) -> Action:
    """``action`` with the game's own card objects in place of the caller's equal copies: a checked action
    is stored and acted on only as objects the caller cannot change afterwards."""
    changes: dict[str, Any] = {}
    for name, _ in _FIELD_TYPES[type(action)]:
        value = getattr(action, name)
        if is_hand_card(value) and value is not HAND_CARDS[value.id]:
            changes[name] = HAND_CARDS[value.id]
        elif type(value) is frozenset and any(c is not HAND_CARDS[c.id] for c in value):
            changes[name] = frozenset(HAND_CARDS[c.id] for c in value)
    return attrs.evolve(action, **changes) if changes else action


def _check_play(state: GameState, seat: int, action: PlayCard) -> None:
    table = _table_now(state)
    _require_in_hand(state, seat, (action.card,), "4.2")
    if type(action.card) is ReinforcementCard:  # is_reinforcement, without the property call
        raise InvalidTargetError(
            f"{action.card.label()} is a reinforcement card: attach it with Reinforce", rule="R-G"
        )
    if action.side is Side.EMPEROR:
        if table.emperor_card is None:
            raise NoEmperorCardError("no emperor card is out this week, so no traitor card may be played", rule="4.5")
        if table.has_traitor_play(seat):
            raise SecondTraitorCardError(f"seat {seat} already made its one traitor play this week", rule="4.4")
    elif action.side is not Side.REVOLUTION:
        raise IllegalActionError(f"{action.side!r} is not a side", rule="4.3")


def _check_reinforce(state: GameState, seat: int, action: Reinforce, played_now: Collection[HandCard]) -> None:
    table = _table_now(state)
    _require_in_hand(state, seat, (action.card,), "4.2")
    if type(action.card) is not ReinforcementCard:
        raise InvalidTargetError(f"{action.card.label()} is a faction card: play it with PlayCard", rule="R-G")
    if state.phase is Phase.PLAY_1:
        raise ReinforcementOnFirstStepError(
            "a reinforcement card may never be a seat's first card of the week", rule="4.6"
        )
    aim = action.target
    if is_hand_card(aim) and aim in played_now:
        return  # a card of this same call: _check_same_step says so once every seat's own checks passed
    # Only the table decides: a card another seat chose in this step but has not revealed (a pending choice)
    # is as much "not on the table" as any other card, or the error would give that hidden choice away.
    target = table.play_of(aim) if is_hand_card(aim) else None  # a foreign __eq__ would match any play
    if target is None:
        raise InvalidTargetError(
            f"{_card_label(aim)} is not a faction card played in an earlier step this week", rule="R-G"
        )
    if target.side is Side.EMPEROR:
        if table.has_traitor_play(seat):
            raise SecondTraitorCardError(
                f"reinforcing a traitor card is seat {seat}'s traitor play, and it already made one this week",
                rule="R-G",
            )


def _check_placement(state: GameState, seat: int, action: PlaceCards) -> None:
    dues = {d.faction: d for d in _week_score_now(state).placements if d.seat == seat}
    cards = list(action.cards)
    for card in cards:
        if not is_hand_card(card):  # a subclass's own __eq__ could match any candidate
            raise InvalidPlacementError(f"{_card_label(card)} is not a card seat {seat} may place", rule="R-E")
    factions = [c.faction for c in cards]
    if len(cards) != len(dues) or set(factions) != set(dues):
        wanted = ", ".join(faction_name(f) for f in sorted(dues))
        raise WrongCardCountError(f"seat {seat} places exactly one card of each of: {wanted}", rule="R-E")
    for card in cards:
        # A reinforcement card has no faction due, so the count check above has refused it already.
        if isinstance(card, FactionCard) and card not in dues[card.faction].candidates:
            raise InvalidPlacementError(
                f"{card.label()} is not one of seat {seat}'s revolution-side {faction_name(card.faction)} cards on the table",
                rule="R-E",
            )


def _check_reorganize(state: GameState, seat: int, action: Reorganize) -> None:
    table = _table_now(state)
    take_back = action.take_back
    if take_back is not None:
        play = table.play_of(take_back) if is_hand_card(take_back) else None  # no foreign __eq__
        if play is None or play.seat != seat or play.side is not Side.REVOLUTION:
            raise InvalidPickUpError(
                f"seat {seat} may take back only one of its own revolution-side faction cards still on the table, "
                f"not {_card_label(take_back)}",
                rule="R-K",
            )
    _require_in_hand(state, seat, action.discards, "6.3")


# --------------------------------------------------------------------------- deciding a step


@attrs.frozen
class Transition:
    """What one transition did: the state after it and the events it caused, in the rulebook's order.

    Each event knows who may see it (its ``visibility``, see :mod:`darkempire.rules.events`); give the events
    to a seat through :func:`~darkempire.rules.events.events_for`. A game's log is the concatenation of its
    transitions' events, starting with :func:`deal_reporting`'s: nothing is recovered by comparing states.

    :ivar state: the state after the transition.
    :ivar events: the events it caused: the choices made, then what resolving the step revealed, scored
        and drew, and every automatic step after it (ruling N).
    :ivar chance: the chance source after the transition, to pass to the next one (as the kit's
        ``tablekit.game.Transition`` carries it); ``None`` when the transition was given none (the state's
        own generator drew).
    """

    state: GameState
    events: tuple[Event, ...]
    chance: ChanceSource | None = None


# Every decision reports its choice and returns a transition: built like the states, without the attrs
# __init__ (their fields have no converter).


def deal_reporting(config: GameConfig, seed: int, *, chance: ChanceSource | None = None) -> Transition:
    """:func:`deal`, with the deal's events: :class:`~darkempire.rules.events.GameStarted` (with the deal's chance
    draws, :func:`~darkempire.rules.events.deal_draws`), then one private :class:`~darkempire.rules.events.HandDealt` per
    seat (rules 2.1-2.4).

    :param chance: where the draws come from. ``None``: the state's own generator, seeded with ``seed``,
        shuffles the piles (the game :func:`deal` gives). A :class:`tablekit.chance.ChanceSource`: it draws
        each seat's victor card, then each seat's 9 cards one at a time, each among the cards left, in
        order of id; the revolution and emperor cards are drawn when a week reveals them. Pass the same kind
        of source to every later transition. A :class:`tablekit.chance.ScriptedChance` that runs out raises
        :class:`tablekit.chance.ChanceNeeded` naming the draw that is due.
    :returns: the transition, with the source after the deal (``None`` without one).
    :raises ConfigError: as :func:`deal`.
    :raises tablekit.errors.ChanceError: a scripted outcome is not one of its draw's options.
    """
    drawer = _Drawer(chance)
    state = _deal(config, seed, drawer)
    started = GameStarted(state.players, state.config.add_on, tuple(len(h) for h in state.hands), drawer.flush())
    dealt = [HandDealt(s, state.hands[s], state.victors[s]) for s in state.seats]
    return Transition(state, (started, *dealt), drawer.source)


def apply(state: GameState, seat: int, action: Action) -> GameState:
    """Record ``seat``'s choice; resolve the step once every awaited seat has chosen (rule 9.2).

    Until then the choice is a hidden pending choice: other seats' views show
    only that this seat has chosen. :func:`apply_reporting` does the same and
    also reports the events.

    Every action is checked against the rules, even one that
    :func:`legal_actions` listed: a frozen object can still be changed with
    ``object.__setattr__``, so no object is trusted for where it came from.

    :returns: the new state; the input state is unchanged.
    :raises WrongSeatError: the seat does not exist or is not awaited.
    :raises AlreadyChoseError: the seat already chose in this step.
    :raises WrongPhaseError: the action does not belong to this phase.
    :raises IllegalActionError: any other broken rule (see :mod:`darkempire.rules.errors`).
    :raises InvalidArgumentError: ``state`` is not a :class:`GameState`.

    The checks read only the seat's own hand and public information, never
    another seat's pending choice: a reinforcement aimed at a card another seat
    chose but has not revealed is an :class:`InvalidTargetError`, like one aimed
    at any card not on the table (spec 9.4).
    """
    try:
        # apply_reporting's steps, without the event of a choice that leaves other seats awaited: nobody reads it.
        _check_state(state, "apply")
        _check_seat_tuples(state, "apply")
        required = _required(state)
        action = _checked_choice(state, seat, action, required)
        pending = _set_seat(state.pending, seat, action)
        if _any_unchosen(pending, required):
            return _with_pending(state, pending)
        log: list[Event] = [ChoiceMade(seat, state.phase, action)]
        return _advance(_decide(state, {seat: action}, log), log)
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand? (_check_state)
            check_shape(state, "apply")
        raise


def apply_reporting(state: GameState, seat: int, action: Action, *, chance: ChanceSource | None = None) -> Transition:
    """:func:`apply`, with the events it caused.

    A choice that leaves other seats awaited reports one
    :class:`~darkempire.rules.events.ChoiceMade`; the last awaited seat's choice
    reports its :class:`~darkempire.rules.events.ChoiceMade`, then everything the
    step's resolution and the automatic steps after it did.

    :param chance: where the resolution's draws come from, as for :func:`step`; unused (and returned as
        is) when the choice leaves other seats awaited.
    :raises IllegalActionError: as :func:`apply`.
    """
    try:
        _check_state(state, "apply")
        _check_seat_tuples(state, "apply")
        required = _required(state)
        action = _checked_choice(state, seat, action, required)
        choice = ChoiceMade(seat, state.phase, action)
        pending = _set_seat(state.pending, seat, action)
        if _any_unchosen(pending, required):
            return Transition(_with_pending(state, pending), (choice,), chance)
        # The last awaited choice: the step resolves from the state as it is, with this choice given alongside
        # the pending ones, and every resolver clears the pending choices (one state built fewer).
        log: list[Event] = [choice]
        drawer = _Drawer(chance)
        return Transition(_advance(_decide(state, {seat: action}, log, drawer), log, drawer), tuple(log), drawer.source)
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand? (_check_state)
            check_shape(state, "apply")
        raise


def check_choice(state: GameState, seat: int, action: Action) -> Action:
    """Check that ``seat`` may choose ``action`` now, by the rules and the state alone (rule 9.2).

    The check :func:`apply` makes before it records a choice, without recording it: the seat is awaited and
    has not chosen, and the action is legal for it (its phase, its own cards, the public table). Like every
    check here it reads nothing hidden from ``seat``, pending choices of other seats included, so a refusal
    tells ``seat`` nothing it could not see. The kit's collector calls it
    (:meth:`darkempire.rules.game.DarkEmpire.check`).

    :returns: ``action`` made of the game's own card objects (equal to ``action``).
    :raises WrongSeatError: the seat does not exist or is not awaited.
    :raises AlreadyChoseError: the seat already chose in this step.
    :raises IllegalActionError: any other broken rule, naming it.
    :raises InvalidArgumentError: ``state`` is not a :class:`GameState`.
    """
    try:
        _check_state(state, "check_choice")
        return _checked_choice(state, seat, action, _required(state))
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand? (_check_state)
            check_shape(state, "check_choice")
        raise


def _checked_choice(state: GameState, seat: int, action: Action, required: Collection[int]) -> Action:
    """``action``, checked to be a legal choice of ``seat`` now (:func:`_check_awaited`, :func:`_check_action`),
    made of the game's own card objects (:func:`_genuine`)."""
    _check_awaited(state, seat, required)
    return action if _check_action(state, seat, action) else _genuine(action)


def _any_unchosen(pending: tuple[Action | None, ...], required: Iterable[int]) -> bool:
    """Whether one of the ``required`` seats has no pending choice: compared by identity in C, so no action's
    Python-level ``__eq__`` runs."""
    return any(map(operator.is_, map(pending.__getitem__, required), itertools.repeat(None)))


def _with_pending(state: GameState, pending: tuple[Action | None, ...]) -> GameState:
    """``state`` with ``pending`` choices: the most frequent copy of a game (every choice that leaves another
    seat awaited), :func:`_evolve` of one field without its walk over the changes."""
    values = list(_STATE_VALUES(state))
    values[_PENDING] = pending
    return GameState(*values)


#: GameState's fields in the order of its ``__init__``, read all at once by one C-level getter.
_STATE_FIELDS = tuple(field.name for field in attrs.fields(GameState))
_STATE_VALUES = operator.attrgetter(*_STATE_FIELDS)
_STATE_INDEX: Mapping[str, int] = MappingProxyType({name: index for index, name in enumerate(_STATE_FIELDS)})
_PENDING = _STATE_INDEX["pending"]


def _evolve(state: GameState, **changes: Any) -> GameState:
    """``attrs.evolve(state, **changes)``, for the engine's many copies of a game: the same new state through
    the class's own ``__init__`` (so its converters and validators run alike), with the fields read by one
    :func:`operator.attrgetter` call rather than ``evolve``'s Python-level walk over the 24 of them.

    :raises KeyError: for a name that is no field of :class:`GameState` (a bug of the engine's own).
    """
    values = list(_STATE_VALUES(state))
    for name, value in changes.items():
        values[_STATE_INDEX[name]] = value
    return GameState(*values)


def withdraw(state: GameState, seat: int) -> GameState:
    """Take back ``seat``'s pending choice before its step resolves; the step waits for it again (rule 9.2).

    :func:`withdraw_reporting` does the same and also reports the event.

    :raises WrongSeatError: the seat does not exist, or has no pending choice (it has not chosen in this step,
        or the step resolved and revealed it).
    :raises InvalidArgumentError: ``state`` is not a :class:`GameState`.
    """
    return withdraw_reporting(state, seat).state


def withdraw_reporting(state: GameState, seat: int) -> Transition:
    """:func:`withdraw`, with its one public :class:`~darkempire.rules.events.ChoiceWithdrawn`.

    :raises IllegalActionError: as :func:`withdraw`.
    """
    try:
        _check_state(state, "withdraw")
        _check_seat_tuples(state, "withdraw")
        check_seat(state, seat)
        if state.pending[seat] is None:
            raise WrongSeatError(f"seat {seat} has no pending choice to take back in this step", rule="9.2")
        after = _with_pending(state, _set_seat(state.pending, seat, None))
        return Transition(after, (ChoiceWithdrawn(seat, state.phase),))
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand? (_check_state)
            check_shape(state, "withdraw")
        raise


def events_between(before: GameState, after: GameState, *, choices: Mapping[int, Action]) -> tuple[Event, ...]:
    """The events of applying ``choices`` to ``before``, checked to lead to ``after`` (spec 9.2).

    The choices are replayed with :func:`apply_reporting`, one seat at a time in the mapping's order, and
    the events are what it reports; nothing is recovered from the two states. Where you make the choices
    yourself, keep the reported :class:`Transition` instead.

    :param before: the earlier state.
    :param after: the state the choices must lead to.
    :param choices: ``{seat: action}``, the choices made between the two states (the seat and action passed
        to :func:`apply`); empty when the two states are equal.
    :returns: the events in the rulebook's order, with every private detail; filter them with
        :func:`~darkempire.rules.events.events_for` before sending them to a seat.
    :raises EventDerivationError: if a choice is not legal, or the choices do not lead from ``before`` to
        ``after``.
    :raises InvalidArgumentError: if ``choices`` is not a mapping.
    """
    if not isinstance(choices, Mapping):
        raise InvalidArgumentError(f"events_between takes a mapping {{seat: action}}, not {type(choices).__name__}")
    events: list[Event] = []
    state = before
    for seat, action in choices.items():
        try:
            transition = apply_reporting(state, seat, action)
        except IllegalActionError as error:
            raise EventDerivationError(f"seat {seat}'s choice does not follow: {error.message}") from error
        state = transition.state
        events += transition.events
    if state != after:
        raise EventDerivationError("the choices given do not lead from the earlier state to the later one")
    return tuple(events)


def _decide(
    state: GameState, choices: Mapping[int, Action], log: list[Event], drawer: _Drawer | None = None
) -> GameState:
    """Resolve the current step with the pending choices, ``choices`` and the forced actions, reporting
    its events to ``log`` and drawing with ``drawer`` (``None``: the state's own generator, naming no draw)."""
    drawer = _Drawer(None, report=False) if drawer is None else drawer
    full: dict[int, Action] = {}
    for seat in state.seats:
        chosen = state.pending[seat] or choices.get(seat)
        if chosen is None:
            options = _options(state, seat)
            if len(options) == 1:
                chosen = options[0]
        if chosen is not None:
            full[seat] = chosen
    # Each resolver clears the pending choices in the first copy it makes (a copy fewer per step).
    phase = state.phase
    if phase is Phase.DRAFT_PASS:
        return _resolve_pass(state, full, log)
    if phase is Phase.DRAFT_DISCARD:
        return _resolve_discard(state, full, log)
    if phase is Phase.CHOOSE_SUPPORT:
        return _resolve_support(state, full, log, drawer)
    if phase in PLAY_PHASES:
        return _resolve_play(state, full, log)
    if phase is Phase.PLACEMENT:
        return _resolve_placement(state, full, log)
    return _resolve_reorganize(state, full, log, drawer)


def step(state: GameState, choices: Mapping[int, Action], *, chance: ChanceSource | None = None) -> Transition:
    """Resolve the current step with every awaited seat's choice at once, and report what it did.

    The one-call form of :func:`pass_cards`, :func:`discard`,
    :func:`choose_support`, :func:`play`, :func:`place_cards` and
    :func:`reorganize`, whichever the phase needs, with the same checks. In an
    automatic phase (weekly or monthly scoring of a state built by hand),
    ``choices`` is empty and the step is :func:`advance`.

    :param choices: ``{seat: action}`` for every awaited seat (none in an automatic phase).
    :param chance: where the step's draws come from (the week's revealed cards, rule 4.1; the re-organize
        refill, rule 6.4). ``None``: the state's own generator and pile order, as :func:`apply`. A
        :class:`tablekit.chance.ChanceSource` draws each card among those still unseen: the revolution and
        emperor cards among this month's cards not revealed yet, each refill card among the draw pile's (then,
        once it is empty, among the discard pile's, which becomes the draw pile: ruling R). A
        :class:`tablekit.chance.ScriptedChance` that runs out raises
        :class:`tablekit.chance.ChanceNeeded` naming the draw that is due, so
        :func:`tablekit.chance.run_scripted` finds the chance nodes of a step.
    :returns: the state at the next decision and the events: one
        :class:`~darkempire.rules.events.ChoiceMade` per seat of ``choices``, in
        seat order, then the resolution's and the automatic steps' events; and the source after the step.
    :raises WrongPhaseError: the game is over.
    :raises IllegalActionError: see :func:`apply`; also :class:`MissingChoiceError`.
    :raises tablekit.errors.ChanceError: a scripted outcome is not one of its draw's options.
    """
    try:
        _check_state(state, "step")
        _check_seat_tuples(state, "step")
        if state.phase in _ACTION_OF_PHASE:
            return _simultaneous(state, choices, (state.phase,), "step", chance)
        if state.phase is Phase.GAME_OVER:
            raise WrongPhaseError("the game is over: no step is left to resolve", rule="9.1")
        _check_mapping(choices, "step")
        for seat in choices:
            _check_awaited(state, seat, ())  # raises: nobody chooses in an automatic phase
        log: list[Event] = []
        drawer = _Drawer(chance)
        return Transition(_advance(state, log, drawer), tuple(log), drawer.source)
    except Exception as error:
        if not isinstance(error, KitError):  # untyped: a state built by hand? (_check_state)
            check_shape(state, "step")
        raise


def _check_mapping(choices: object, name: str) -> None:
    if not isinstance(choices, Mapping):
        raise MissingChoiceError(f"{name} takes a mapping {{seat: action}}, not {type(choices).__name__}", rule="9.2")


def _simultaneous(
    state: GameState,
    choices: Mapping[int, Action],
    phases: Sequence[Phase],
    name: str,
    chance: ChanceSource | None = None,
) -> Transition:
    """Check the choices of a simultaneous transition, then resolve the step.

    The checks run in an order where the submitting seats learn nothing they may not see (spec 9.4): first
    what is public (phase, seats, who is still awaited), then each submitted action against its own seat's
    hand and the table, and only then what one submitted choice says about another (a reinforcement aimed at
    a card played in this same call). Pending choices of other seats are never consulted: they are hidden,
    and were checked when they were made.
    """
    _check_state(state, name)
    if state.phase not in phases:
        raise WrongPhaseError(f"{name} is a transition of the {phases[0].value} phase, not {state.phase.value}", rule="9.1")
    required = _required(state)
    _check_mapping(choices, name)
    # One reading of the caller's mapping: a Mapping whose items() and [] disagree would be checked as one
    # set of choices and resolved as another.
    choices = dict(choices)
    for seat in choices:
        _check_awaited(state, seat, required)
    missing = sorted(_awaited(state, required) - set(choices))
    if missing:
        raise MissingChoiceError(f"the choices of seats {missing} are missing", rule="9.2")
    played_now = _played_now(state, choices)
    genuine = {seat: _check_action(state, seat, action, played_now) for seat, action in choices.items()}
    _check_same_step(choices, played_now)
    choices = {seat: action if genuine[seat] else _genuine(action) for seat, action in choices.items()}
    phase = state.phase
    log: list[Event] = [ChoiceMade(seat, phase, choices[seat]) for seat in sorted(choices)]
    drawer = _Drawer(chance)
    return Transition(_advance(_decide(state, choices, log, drawer), log, drawer), tuple(log), drawer.source)


def _played_now(state: GameState, choices: Mapping[int, Action]) -> frozenset[HandCard]:
    """The cards that the seats of a play step's simultaneous call play (a seat that reinforces plays none)."""
    if state.phase not in PLAY_PHASES:
        return frozenset()
    return frozenset([a.card for a in choices.values() if type(a) is PlayCard and is_hand_card(a.card)])


def _check_same_step(choices: Mapping[int, Action], played_now: frozenset[HandCard]) -> None:
    """No reinforcement of the call aims at a card another seat of the call plays in this step (rule 4.6).

    Runs after every seat's own checks: the error depends on another submitted choice."""
    for seat, action in choices.items():
        if type(action) is Reinforce and is_hand_card(action.target) and action.target in played_now:
            raise ReinforcementOnSameStepError(
                f"seat {seat} cannot attach a reinforcement to a card played in the same step", rule="4.6"
            )


def pass_cards(state: GameState, choices: Mapping[int, PassCards]) -> GameState:
    """Draft pass: every seat passes 2 cards to the next seat at once (rule 2.5, ruling A).

    Seat ``i``'s cards go to seat ``i + 1 mod n``. :func:`step` does the same and reports the events.

    :param choices: ``{seat: PassCards}`` for every awaited seat.
    :returns: the state in :attr:`Phase.DRAFT_DISCARD`.
    :raises IllegalActionError: see :func:`apply`; also :class:`MissingChoiceError`.
    """
    return _simultaneous(state, choices, (Phase.DRAFT_PASS,), "pass_cards").state


def discard(state: GameState, choices: Mapping[int, DiscardCards]) -> GameState:
    """Draft discard: every seat discards 2 of its 9 cards, keeping 7 (rule 2.6).

    :param choices: ``{seat: DiscardCards}`` for every awaited seat.
    :returns: the state in :attr:`Phase.CHOOSE_SUPPORT`.
    """
    return _simultaneous(state, choices, (Phase.DRAFT_DISCARD,), "discard").state


def choose_support(state: GameState, choices: Mapping[int, ChooseSupport]) -> GameState:
    """Month start: every seat secretly chooses a temporary support card (rule 3.2).

    Then the week starts: the top emperor and revolution cards are revealed (rule 4.1).

    :param choices: ``{seat: ChooseSupport}`` for every awaited seat.
    :returns: the state in :attr:`Phase.PLAY_1`.
    """
    return _simultaneous(state, choices, (Phase.CHOOSE_SUPPORT,), "choose_support").state


def play(state: GameState, choices: Mapping[int, PlayCard | Reinforce | PlayNothing]) -> GameState:
    """One play step: every seat plays a card at once (rules 4.2-4.6, rulings G, H).

    After the third step, weekly scoring follows automatically (:func:`score_week`).

    :param choices: ``{seat: PlayCard | Reinforce | PlayNothing}`` for every
        awaited seat (every seat holding cards).
    :returns: the state at the next decision.
    :raises ReinforcementOnSameStepError: a reinforcement aimed at a card
        that another seat of ``choices`` plays in this same step, once every
        seat's own action passed its checks. A card that another seat chose
        earlier through :func:`apply` is hidden and not on the table yet: a
        reinforcement aimed at it is an :class:`InvalidTargetError`, as from
        :func:`apply` (spec 9.4).
    """
    return _simultaneous(state, choices, PLAY_PHASES, "play").state


def place_cards(state: GameState, choices: Mapping[int, PlaceCards]) -> GameState:
    """Card placement: seats that supported a placed faction most choose the card to place (rule 5.6, ruling E).

    :param choices: ``{seat: PlaceCards}`` for every awaited seat.
    :returns: the state at the next decision (re-organize, or the next month).
    """
    return _simultaneous(state, choices, (Phase.PLACEMENT,), "place_cards").state


def reorganize(state: GameState, choices: Mapping[int, Reorganize]) -> GameState:
    """Re-organize: take back a card, discard, refill hands to 7 (rules 6.1-6.4, ruling K).

    After the fourth week of a month, monthly scoring follows automatically
    (:func:`score_month`); otherwise the next week starts.

    :param choices: ``{seat: Reorganize}`` for every awaited seat.
    :returns: the state at the next decision.
    """
    return _simultaneous(state, choices, (Phase.REORGANIZE,), "reorganize").state


# --------------------------------------------------------------------------- resolving steps
#
# Each resolver appends the events it causes to ``log`` as it acts, in the rulebook's order: what a
# transition reports is what it did, never something recovered afterwards from the states.


def _of_kind(full: Mapping[int, Action], kind: type[A]) -> dict[int, A]:
    """The choices of ``full`` that are ``kind`` actions: in its phase the action checks let no other through."""
    return {seat: action for seat, action in full.items() if isinstance(action, kind)}


def _resolve_pass(state: GameState, full: Mapping[int, Action], log: list[Event]) -> GameState:
    n = state.players
    chosen = _of_kind(full, PassCards)
    passed = [chosen[s].cards for s in range(n)]
    log += [CardsPassed(s, (s + 1) % n, passed[s]) for s in range(n)]
    hands = tuple(
        _by_id([c for c in state.hands[s] if c not in passed[s]] + list(passed[(s - 1) % n])) for s in range(n)
    )
    return _evolve(state, hands=hands, phase=Phase.DRAFT_DISCARD, pending=(None,) * n)


def _resolve_discard(state: GameState, full: Mapping[int, Action], log: list[Event]) -> GameState:
    discarded: list[HandCard] = []
    hands = []
    chosen = _of_kind(full, DiscardCards)
    for s in state.seats:
        cards = chosen[s].cards
        log.append(DraftDiscarded(s, len(cards), cards))
        discarded += _by_id(cards)
        hands.append(tuple(c for c in state.hands[s] if c not in cards))
    log.append(MonthStarted(state.month, len(state.revolution_pile), len(state.emperor_pile)))
    return _evolve(
        state,
        hands=tuple(hands),
        discard_pile=state.discard_pile + tuple(discarded),
        phase=Phase.CHOOSE_SUPPORT,
        pending=(None,) * state.players,
    )


def _resolve_support(state: GameState, full: Mapping[int, Action], log: list[Event], drawer: _Drawer) -> GameState:
    """The support cards stay face down until monthly scoring: resolving the choice reports nothing, and the
    week starts at once (rule 4.1)."""
    chosen = _of_kind(full, ChooseSupport)
    support = tuple(chosen[s].faction for s in state.seats)
    week = _week_start(state, log, drawer, state.revolution_reserve, state.emperor_reserve)
    return _evolve(state, support=support, pending=(None,) * state.players, **week)


def _week_start(
    state: GameState,
    log: list[Event],
    drawer: _Drawer,
    revolution_reserve: tuple[RevolutionCard, ...],
    emperor_reserve: tuple[EmperorCard, ...],
) -> dict[str, Any]:
    """Week start: reveal the revolution and emperor cards (rule 4.1, ruling J). The changes to ``state``,
    for the caller to make together with its own in one copy; the reserves are given, since a re-organize
    has just put last week's cards there.

    Each card is a draw among this month's cards not revealed yet (rule 3.3): those of the pile and the
    reserve (which holds the revealed ones after each re-organize) less this month's earlier tables'.
    Without a chance source that draw is the pile's top card, as it always was."""
    month, week = state.month, state.week + 1
    revealed = [record.table for record in state.history if record.month == month]
    revolution, revolution_pile, revolution_reserve = _reveal(
        drawer, f"revolution m{month}w{week}", state.revolution_pile, revolution_reserve,
        {t.revolution_card for t in revealed}, _FACTION_OF,
    )  # fmt: skip
    emperor, emperor_pile = None, state.emperor_pile
    if emperor_pile:  # an empty pile reveals no emperor card (ruling J)
        emperor, emperor_pile, emperor_reserve = _reveal(
            drawer, f"emperor m{month}w{week}", emperor_pile, emperor_reserve,
            {t.emperor_card for t in revealed}, _CARD_ID,
        )  # fmt: skip
    table = _week_table(state.config, revolution, emperor)
    log.append(WeekStarted(month, week, table.revolution_card, table.emperor_card, table.add_on, drawer.flush()))
    return {
        "phase": Phase.PLAY_1,
        "week": week,
        "table": table,
        "revolution_pile": revolution_pile,
        "revolution_reserve": revolution_reserve,
        "emperor_pile": emperor_pile,
        "emperor_reserve": emperor_reserve,
    }


_FACTION_OF = operator.attrgetter("faction")


def _reveal(
    drawer: _Drawer, name: str, pile: tuple[T, ...], reserve: tuple[T, ...], revealed: Collection[object],
    key: Callable[[T], Any],
) -> tuple[T, tuple[T, ...], tuple[T, ...]]:  # fmt: skip
    """Draw the card a week reveals among the pile's and the reserve's cards not ``revealed`` this month; the
    card, and the pile and reserve after it.

    The top card of the pile leaves it; if another card was drawn, the top card takes its place (in the pile
    or the reserve), so the piles keep their sizes and no card is lost. Without a source the top card is
    drawn, and the piles are the pile's rest and the reserve, as they always were."""
    top = pile[0]
    card = drawer.take(name, [top, *[c for c in pile[1:] + reserve if c not in revealed]], key)
    if card == top:
        return card, pile[1:], reserve
    return card, tuple(top if c == card else c for c in pile[1:]), tuple(top if c == card else c for c in reserve)


def _week_table(config: GameConfig, revolution_card: RevolutionCard, emperor_card: EmperorCard | None) -> WeekTable:
    """The week's table with its revolution and emperor cards revealed (rule 4.1, ruling J)."""
    return WeekTable(
        players=config.players,
        revolution_card=revolution_card,
        emperor_card=emperor_card,
        add_on=config.add_on if emperor_card is not None else None,
    )


def _resolve_play(state: GameState, full: Mapping[int, Action], log: list[Event]) -> GameState:
    table = _table_now(state)
    step = PLAY_PHASES.index(state.phase) + 1  # Phase.step, without hashing the phase in Python
    hands = list(state.hands)
    plays = list(table.plays)
    revealed: list[RevealedPlay] = []
    idle_now: list[int] = []
    for seat in state.seats:
        action = full.get(seat)
        if action is None or type(action) is PlayNothing:
            idle_now.append(seat)
            continue
        if type(action) is PlayCard and type(action.card) is FactionCard:
            plays.append(Play(seat, action.card, action.side, step))
        else:
            assert isinstance(action, Reinforce) and isinstance(action.card, ReinforcementCard)
            at = _play_at_card(plays, action.target)
            target = plays[at]
            plays[at] = Play(
                target.seat,
                target.card,
                target.side,
                target.step,
                target.reinforcements + (Reinforcement(action.card, seat, step),),
            )
        revealed.append(RevealedPlay(seat, action))
        hand = hands[seat]
        at = _position(hand, action.card)  # checked to be in the hand; each card is in one place only
        hands[seat] = hand[:at] + hand[at + 1 :]
    log.append(PlaysRevealed(state.month, state.week, step, tuple(revealed), frozenset(idle_now)))
    idle = table.idle
    if idle_now:
        more = set(idle)
        more.update([(step, seat) for seat in idle_now])
        idle = frozenset(more)
    table = WeekTable(
        table.players, table.revolution_card, table.emperor_card, table.add_on, tuple(plays), idle, step
    )
    phase = PLAY_PHASES[step] if step < STEPS else Phase.WEEK_SCORING
    return _evolve(state, hands=tuple(hands), table=table, phase=phase, pending=(None,) * state.players)


def _play_at_card(plays: Sequence[Play], card: HandCard) -> int:
    """Where among ``plays`` the play of ``card`` (checked to be on the table) is: the object itself first,
    in C, then by equality."""
    found = next(itertools.compress(itertools.count(), map(operator.is_, map(_CARD, plays), itertools.repeat(card))), None)
    return next(i for i, p in enumerate(plays) if p.card == card) if found is None else found


_CARD = operator.attrgetter("card")


def score_week(state: GameState) -> GameState:
    """Weekly scoring of the completed table (rules 5.1-5.7, rulings B-F, J).

    Awards the week's tokens (to the seats' month tokens), places the emperor
    card to the score track if the emperor is at least as strong as the
    strongest faction, and moves to card placement. Whatever is automatic
    after that follows too (forced placements, and after the game's last week
    the final monthly scoring), as in every transition; :func:`step` with no
    choices does the same and reports the events.
    The scoring itself is :func:`darkempire.rules.scoring.score_table`.

    :param state: a state in :attr:`Phase.WEEK_SCORING`.
    :raises WrongPhaseError: in any other phase.
    """
    return _automatic(state, "score_week", Phase.WEEK_SCORING, "weekly scoring follows the third play step")


def _automatic(state: GameState, name: str, phase: Phase, when: str) -> GameState:
    """:func:`advance` from ``phase``, an automatic phase, for the function ``name``; in another phase a
    :class:`WrongPhaseError` that says ``when`` the phase comes."""
    _check_state(state, name)
    if state.phase is not phase:
        raise WrongPhaseError(f"{when}, not the {state.phase.value} phase", rule="9.1")
    return advance(state)


def _score_week(state: GameState, log: list[Event]) -> GameState:
    table = _table_now(state)
    month, week = state.month, state.week
    score = score_table(table)
    month_tokens = tuple(t + w for t, w in zip(state.month_tokens, score.tokens, strict=True))
    log.append(StrengthsRevealed(month, week, score.strengths, score.emperor_strength, score.strongest, score.support))
    log.append(TokensAwarded(month, week, score.awards, score.tokens, month_tokens))
    track = state.score_track
    after = table
    if score.emperor_scored and table.emperor_card is not None:  # the score says so only when there is one
        track = ScoreTrack(
            track.faction_cards,
            track.emperor_cards + (ScoredEmperorCard(table.emperor_card, month, week),),
        )
        after = attrs.evolve(table, emperor_card=None, add_on=None)
        log.append(EmperorCardScored(month, week, table.emperor_card, track.emperor_total))
    if score.placements:
        log.append(PlacementsDue(month, week, score.placements))
    record = WeekRecord(month=month, week=week, table=table, score=score, placed=())
    return _evolve(
        state,
        month_tokens=month_tokens,
        score_track=track,
        table=after,
        week_score=score,
        history=state.history + (record,),
        phase=Phase.PLACEMENT if score.placements else _week_end_phase(state),
    )


def _resolve_placement(state: GameState, full: Mapping[int, Action], log: list[Event]) -> GameState:
    table = _table_now(state)
    placed: list[ScoredCard] = []
    for seat in state.seats:
        action = full.get(seat)
        if isinstance(action, PlaceCards):
            placed += [ScoredCard(c, seat, state.month, state.week) for c in _by_id(action.cards) if isinstance(c, FactionCard)]
    placed_cards = {s.card for s in placed}
    freed: list[HandCard] = []
    plays = []
    for p in table.plays:
        if p.card in placed_cards:
            freed += [r.card for r in p.reinforcements]  # placed without its reinforcements (rule 5.5)
        else:
            plays.append(p)
    last = state.history[-1]
    record = WeekRecord(last.month, last.week, last.table, last.score, tuple(placed))
    track = ScoreTrack(state.score_track.faction_cards + tuple(placed), state.score_track.emperor_cards)
    if placed:
        log.append(CardsPlaced(state.month, state.week, tuple(placed), track.card_points()))
    return _evolve(
        state,
        table=attrs.evolve(table, plays=tuple(plays)),
        discard_pile=state.discard_pile + tuple(freed),
        score_track=track,
        history=state.history[:-1] + (record,),
        phase=_week_end_phase(state),
        pending=(None,) * state.players,
    )


def _week_end_phase(state: GameState) -> Phase:
    """The phase after a week's scoring and placement: re-organize, or monthly scoring after the game's
    last week, since nothing is played again (ruling O)."""
    if state.month == MONTHS and state.week == WEEKS:
        return Phase.MONTH_SCORING
    return Phase.REORGANIZE


def _resolve_reorganize(state: GameState, full: Mapping[int, Action], log: list[Event], drawer: _Drawer) -> GameState:
    table = _table_now(state)
    seats = state.seats
    take_backs = tuple(a.take_back if isinstance(a, Reorganize) else None for a in map(full.get, seats))
    drops = tuple(a.discards if isinstance(a, Reorganize) else frozenset() for a in map(full.get, seats))
    # Cards are told apart by their ids (the 75 cards have 75), hashed in C: a card's own hash is a Python call.
    taken = {card.id for card in take_backs if card is not None}
    discarded: list[HandCard] = []
    # First traitor and reinforcement cards, then the rest of the table, then hand discards (ruling K).
    emperor_side = Side.EMPEROR
    for p in table.plays:
        discarded += [r.card for r in p.reinforcements]
        if p.side is emperor_side:
            discarded.append(p.card)
    discarded += [p.card for p in table.plays if p.side is not emperor_side and p.card.id not in taken]
    # Each seat's kept cards and take-back, unsorted: the refill counts them, and the new hand is sorted once.
    hands: list[list[HandCard]] = []
    for seat in seats:
        drop = drops[seat]
        if drop:
            discarded += _by_id(drop)
            dropped = set(map(_CARD_ID, drop))
            kept = [c for c in state.hands[seat] if c.id not in dropped]
        else:
            kept = list(state.hands[seat])
        take_back = take_backs[seat]
        if take_back is not None:
            kept.append(take_back)
        hands.append(kept)
    refill = _refill(state, hands, state.discard_pile + tuple(discarded), drawer)
    drawn = refill.drawn
    counts = (tuple(map(len, drops)), tuple(map(len, drawn)))
    log.append(Reorganized(state.month, state.week, take_backs, *counts, refill.reshuffled, drawer.flush()))
    log += [HandRefilled(state.month, state.week, seat, drops[seat], drawn[seat]) for seat in seats]
    # The week's cards go to the reserve before the next week's start (rule 4.1) reveals new ones; the
    # rest of the week's end, or that start, is made in the same copy.
    revolution_reserve = state.revolution_reserve + (table.revolution_card,)
    emperor_reserve = state.emperor_reserve + ((table.emperor_card,) if table.emperor_card is not None else ())
    after: dict[str, Any] = {
        "table": None,
        "phase": Phase.MONTH_SCORING,
        "revolution_reserve": revolution_reserve,
        "emperor_reserve": emperor_reserve,
    }
    if state.week < WEEKS:
        after = _week_start(state, log, drawer, revolution_reserve, emperor_reserve)
    return _evolve(
        state,
        **after,
        hands=tuple([_by_id(hands[seat] + list(drawn[seat])) for seat in seats]),
        draw_pile=refill.draw_pile,
        discard_pile=refill.discard_pile,
        chance=refill.chance,
        week_score=None,
        pending=(None,) * state.players,
    )


@attrs.frozen
class _Refill:
    """The outcome of refilling the hands at re-organize (rules 6.3, 6.4): each seat's drawn cards, the piles
    and the generator after it, and whether the discard pile was shuffled into a new draw pile."""

    drawn: tuple[tuple[HandCard, ...], ...]
    draw_pile: tuple[HandCard, ...]
    discard_pile: tuple[HandCard, ...]
    chance: Chance
    reshuffled: bool


def _refill(
    state: GameState, hands: Sequence[Sequence[HandCard]], discard_pile: tuple[HandCard, ...], drawer: _Drawer
) -> _Refill:
    """Each seat in turn draws up to 7 cards, one at a time; an empty draw pile is replaced by the discard
    pile, shuffled with the state's generator (rule 6.4, ruling R).

    Without a chance source each draw takes the top card, as it always did; with one, the source draws each
    card among the draw pile's cards."""
    draw = list(state.draw_pile)
    chance = state.chance
    reshuffled = False
    drawn_by_seat: list[tuple[HandCard, ...]] = []
    month, week = state.month, state.week
    for seat, hand in enumerate(hands):
        drawn: list[HandCard] = []
        label = f"refill m{month}w{week} seat {seat} #"
        while (need := HAND_SIZE - len(hand) - len(drawn)) > 0:
            if not draw:
                if not discard_pile:
                    break  # both piles are empty: this seat and later ones get fewer cards (ruling K)
                shuffled, chance = chance.shuffled(discard_pile)  # the shuffled discard pile is the new draw pile
                draw, discard_pile, reshuffled = list(shuffled), (), True
            # As many draws as the pile allows, one at a time: the names number this seat's draws from #0.
            start = len(drawn)
            drawn += drawer.take_each(label, start, min(need, len(draw)), draw, _CARD_ID)
        drawn_by_seat.append(tuple(drawn))
    return _Refill(tuple(drawn_by_seat), tuple(draw), discard_pile, chance, reshuffled)


def score_month(state: GameState) -> GameState:
    """Monthly scoring, then the month reset or the end of the game (rules 7.1-7.4, 8, ruling L).

    Reveals the support cards, shares 6 points among the seats that supported
    the month's strongest faction, moves all month tokens to the victor
    cards, and retires the used support cards. After months 1 and 2 the
    revolution cards and the unscored emperor cards are reshuffled into new
    piles (ruling J); after month 3 the game ends with :func:`judge_winner`.
    :func:`step` with no choices does the same and reports the events.
    The scoring itself is :func:`darkempire.rules.scoring.score_month_tally`.

    :param state: a state in :attr:`Phase.MONTH_SCORING`.
    :raises WrongPhaseError: in any other phase.
    """
    return _automatic(state, "score_month", Phase.MONTH_SCORING, "monthly scoring follows the fourth week")


def _score_month(state: GameState, log: list[Event]) -> GameState:
    """Monthly scoring and the month reset (see :func:`score_month`). The next month's piles are shuffled with
    the state's own generator; with a chance source, each week's cards are drawn among the month's cards not
    revealed yet whatever that order (:func:`_week_start`)."""
    support = tuple(f for f in state.support if f is not None)
    if len(support) != state.players:
        raise InvalidArgumentError(
            f"a state in the {state.phase.value} phase holds every seat's support card; this one holds "
            f"{len(support)} of {state.players} (check_state tells what else is wrong)"
        )
    score = score_month_tally(
        state.score_track.placed_in_month(state.month), state.month_tokens, support, month=state.month
    )
    banked = tuple(b + t + x for b, t, x in zip(state.banked_tokens, state.month_tokens, score.bonus, strict=True))
    log.append(MonthScored(score, banked))
    state = _evolve(
        state,
        banked_tokens=banked,
        month_tokens=(0,) * state.players,
        support=(None,) * state.players,
        support_used=tuple(used | {f} for used, f in zip(state.support_used, support, strict=True)),
        month_scores=state.month_scores + (score,),
    )
    if state.month == MONTHS:
        state = _evolve(state, phase=Phase.GAME_OVER)
        verdict = judge_winner(state)
        log.append(GameOver(verdict))
        return _evolve(state, verdict=verdict)
    chance = state.chance
    revolution, chance = chance.shuffled(REVOLUTION_CARDS)
    unscored = _by_emperor_id(state.emperor_pile + state.emperor_reserve)
    emperor, chance = chance.shuffled(unscored)
    log.append(MonthStarted(state.month + 1, len(revolution[:WEEKS]), len(emperor[:WEEKS])))
    return _evolve(
        state,
        phase=Phase.CHOOSE_SUPPORT,
        month=state.month + 1,
        week=0,
        revolution_pile=revolution[:WEEKS],
        revolution_reserve=revolution[WEEKS:],
        emperor_pile=emperor[:WEEKS],
        emperor_reserve=emperor[WEEKS:],
        chance=chance,
    )


def _by_emperor_id(cards: Iterable[EmperorCard]) -> tuple[EmperorCard, ...]:
    return tuple(sorted(cards, key=lambda c: c.id))


def advance(state: GameState) -> GameState:
    """Run every automatic step until a seat must choose or the game is over.

    Weekly and monthly scoring, and steps in which no seat has a real choice
    (every seat's action is forced, ruling N). The decision transitions call
    it; call it yourself only on a state built by hand (:func:`step` with no
    choices does the same and reports the events).

    :raises InvalidArgumentError: if ``state`` is not a :class:`GameState`.
    """
    _check_state(state, "advance")
    return _advance(state, [])


def _advance(state: GameState, log: list[Event], drawer: _Drawer | None = None) -> GameState:
    """:func:`advance`, reporting the automatic steps' events to ``log`` and drawing with ``drawer``
    (``None``: the state's own generator)."""
    drawer = _Drawer(None, report=False) if drawer is None else drawer
    while True:
        phase = state.phase
        if phase is Phase.WEEK_SCORING:
            state = _score_week(state, log)
        elif phase is Phase.MONTH_SCORING:
            state = _score_month(state, log)
        elif phase in _DECISION_PHASES and not _awaited(state, _required(state)):  # a decision phase
            state = _decide(state, {}, log, drawer)
        else:
            return state


# --------------------------------------------------------------------------- judgement and replay


@overload
def judge_winner(state: GameState, /) -> Verdict: ...


@overload
def judge_winner(
    *,
    card_points: Sequence[int],
    emperor_total: int,
    banked_tokens: Sequence[int],
    victors: Sequence[Faction],
) -> Verdict: ...


def judge_winner(
    state: GameState | None = None,
    /,
    *,
    card_points: Sequence[int] | None = None,
    emperor_total: int | None = None,
    banked_tokens: Sequence[int] | None = None,
    victors: Sequence[Faction] | None = None,
) -> Verdict:
    """The final judgement (rules 8.1-8.5, ruling M), of a finished game or of its inputs.

    ``judge_winner(state)`` judges a game whose third monthly scoring is done.
    ``judge_winner(card_points=..., emperor_total=..., banked_tokens=...,
    victors=...)`` judges a score track built by hand; see
    :func:`darkempire.rules.scoring.final_verdict` for the arguments.

    :raises WrongPhaseError: if ``state`` is given and its game is not over.
    :raises InvalidArgumentError: if neither a state nor all four inputs are
        given, or the inputs have the wrong shape.
    """
    if state is not None:
        _check_state(state, "judge_winner")
        if type(state.phase) is not Phase:
            check_shape(state, "judge_winner")
        if state.phase is not Phase.GAME_OVER:
            raise WrongPhaseError(f"the winner is judged after the third monthly scoring, not in the {state.phase.value} phase", rule="9.1")
        return final_verdict(
            state.score_track.card_points(), state.score_track.emperor_total, state.banked_tokens, state.victors
        )
    if card_points is None or emperor_total is None or banked_tokens is None or victors is None:
        raise InvalidArgumentError(
            "judge_winner takes a finished GameState, or all of card_points, emperor_total, banked_tokens, victors"
        )
    return final_verdict(card_points, emperor_total, banked_tokens, victors)


def replay(config: GameConfig, seed: int, choices: Iterable[tuple[int, Action]]) -> GameState:
    """Replay a game from its config, seed and every ``(seat, action)`` choice in order (rule 9.3).

    The choices are re-run by the kit's one replay loop, :func:`tablekit.records.replay_choices`, with
    :func:`apply` as its step, as every replay of a game record is.

    :returns: the state after the last choice.
    :raises IllegalActionError: at the first choice that is not legal, with the
        choice's index in the message.
    :raises InvalidArgumentError: if ``choices`` is not an iterable of
        ``(seat, action)`` pairs (tuples or lists of two).
    """
    state = deal(config, seed)
    if isinstance(choices, (str, bytes)) or not isinstance(choices, Iterable):
        raise InvalidArgumentError(f"replay takes an iterable of (seat, action) pairs, not {type(choices).__name__}")

    def pairs() -> Iterable[tuple[int, Action]]:
        for index, choice in enumerate(choices):
            if not isinstance(choice, (tuple, list)) or len(choice) != 2:
                raise InvalidArgumentError(f"choice {index} is not a (seat, action) pair: {quote(choice)}")
            yield choice[0], choice[1]

    try:
        for _, _, state in kit_records.replay_choices(state, pairs(), apply):
            pass
    except kit_records.DivergentChoiceError as diverged:
        error = diverged.__cause__
        if not isinstance(error, IllegalActionError):
            raise
        raise type(error)(f"choice {diverged.index} (seat {diverged.seat}): {error.message}", rule=error.rule) from error
    return state
