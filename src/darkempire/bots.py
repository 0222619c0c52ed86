"""Bots that play a seat, and a driver that plays whole games with them (spec sections 9.2-9.4).

A bot sees exactly what its seat may see: the seat's
:class:`~darkempire.rules.views.PlayerView` and the seat's legal actions. It never
gets the :class:`~darkempire.rules.state.GameState`, so it cannot peek at other
hands, victor cards or pending choices.

* :class:`RandomBot` picks uniformly among the legal actions.
* :class:`GreedyBot` follows a short list of documented preferences (see its
  docstring).
* :func:`run_game` plays a whole game; :func:`iter_game` yields every
  decision on the way, for logging. Both are deterministic: the same config,
  game seed and bot seeds give the same game (rule 9.3).

>>> from darkempire.rules.state import GameConfig
>>> state = run_game(GameConfig(players=3), seed=1, bots=[GreedyBot(1), RandomBot(2), RandomBot(3)])
>>> state.is_over and state.verdict is not None
True
"""

from __future__ import annotations

import importlib
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar, runtime_checkable

import attrs

from darkempire import kernel
from darkempire.kernel.greedy import GreedySeat
from darkempire.kernel.playout import play_bots
from darkempire.rules.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    Reinforce,
    Reorganize,
    Side,
)
from darkempire.rules.cards import EMPEROR_CARDS, Faction, HandCard
from darkempire.rules.engine import apply, awaited_seats, deal, legal_actions
from darkempire.rules.scoring import emperor_strength, faction_strengths
from darkempire.rules.state import MONTHS, WEEKS, GameConfig, GameState, Phase
from darkempire.rules.table import WeekTable
from darkempire.rules.views import PlayerView, player_view

__all__ = [
    "BOT_KINDS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "Turn",
    "expects_emperor_victory",
    "iter_game",
    "make_bot",
    "run_game",
]

A = TypeVar("A")


@runtime_checkable
class Bot(Protocol):
    """Anything that chooses a seat's action from what the seat may see (spec 9.4)."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return one element of ``legal``.

        :param view: the seat's view of the game now.
        :param legal: the seat's legal actions now, never empty.
        """
        ...


def _require_choice(legal: Sequence[Action]) -> None:
    if not legal:
        raise ValueError("a bot is asked only when its seat has at least one legal action")


class RandomBot:
    """Picks uniformly at random among the legal actions, with its own generator.

    :param seed: seeds the bot's own :class:`random.Random`; the global
        :mod:`random` state is never read or written.
    """

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal``.

        :raises ValueError: if ``legal`` is empty.
        """
        size = len(legal)  # one call of a lazy listing's __len__
        if not size:
            _require_choice(legal)  # raises
        return legal[self._rng.randrange(size)]


# --------------------------------------------------------------------------- GreedyBot

#: Sum of the printed values of all eight emperor cards, in points (rule 1.3).
_EMPEROR_DECK_POINTS = sum(card.value for card in EMPEROR_CARDS)
#: Weeks in a game.
_GAME_WEEKS = MONTHS * WEEKS
#: Rough points the leading faction gains in a week the emperor does not win
#: (a placed card of about 6 shared among the leaders, plus tokens).
_LEADER_GAIN_PER_FREE_WEEK = 5.0
#: A traitor play must leave the emperor this many points below the strongest
#: faction, because later steps of the week can still add traitor cards.
_TRAITOR_MARGIN = 3
#: Emperor wins and losses assumed before the first week, when projecting the emperor's total.
_PRIOR_WINS = 1
_PRIOR_LOSSES = 3
#: Traitor plays per other seat and week from which the bot expects the emperor to win: RandomBots
#: make about 0.8, rising GreedyBots under 0.05.
_HOSTILE_TRAITOR_RATE = 0.3


class GreedyBot:
    """A simple heuristic bot that plays for its own victor faction (spec 8.2-8.4).

    First it decides which ending its victor faction should aim for, from
    public information only (:func:`expects_emperor_victory`): if the other
    seats play traitor cards often, or the emperor's projected final total
    reaches the leading faction's, an emperor victory is expected and the
    *lowest* held faction will win (rule 8.2), so the bot **sinks**: it keeps
    its own victor faction low. Otherwise it **rises**: it pushes its victor
    faction up and avoids feeding the emperor. It starts out rising.

    Rising, it:

    * keeps cards of its victor faction, then reinforcements, then cards of its
      month support faction at the draft and re-organize, and discards weak
      (value 5 or less) cards of other factions at re-organize;
    * chooses as temporary support the faction it holds most points of,
      counting its victor faction double;
    * plays its victor faction's cards to the revolution side (highest first),
      then its support faction's, then low cards of other factions;
    * reinforces revolution-side cards of its victor faction, its own first;
    * plays a traitor card only against a rival faction at least as strong as
      its victor faction, and only if the emperor stays at least 3 points below
      the strongest faction after it (comparing with the strengths visible on
      the table), never one of its victor faction;
    * places its highest card of its victor faction, the lowest of others;
    * takes back its best card at re-organize.

    Sinking, it:

    * makes its traitor play each week, preferably with its victor faction's
      highest card (weakening it and feeding the emperor);
    * otherwise plays low cards to weak factions, avoiding its victor faction,
      so it rarely wins tokens (tokens count for its victor faction);
    * reinforces traitor cards and other seats' cards rather than its own;
    * chooses as temporary support the faction it holds fewest points of,
      avoiding its victor faction, to miss the monthly bonus;
    * places its lowest card of its victor faction, the highest of others;
    * takes nothing back and discards high cards of other factions.

    Ties between equally good actions are broken by the bot's own seeded
    :class:`random.Random`.

    :param seed: seeds the bot's own generator.
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    # ------------------------------------------------------------------ entry point

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The best legal action by the heuristic above.

        :raises ValueError: if ``legal`` is empty or ``view`` is a spectator view.
        """
        _require_choice(legal)
        if view.seat is None or view.victor is None:
            raise ValueError("a bot plays a seat: it needs a player view, not the spectator view")
        if len(legal) == 1:
            return legal[0]
        sinking = expects_emperor_victory(view)
        phase = view.phase
        if phase is Phase.REORGANIZE:
            return self._reorganize(view, legal, sinking)
        if phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
            # Give away (or discard) the two cards worth least to this seat.
            return self._best(legal, lambda a: -sum(_keep_value(view, c, sinking) for c in _cards_of(a)))
        if phase is Phase.CHOOSE_SUPPORT:
            return self._best(legal, lambda a: _support_value(view, a, sinking))
        if phase is Phase.PLACEMENT:
            return self._best(legal, lambda a: _placement_value(view, a, sinking))
        table = view.table
        assert table is not None
        strengths = faction_strengths(table)
        emperor = emperor_strength(table)
        return self._best(legal, lambda a: _play_value(view, table, strengths, emperor, a, sinking))

    def _best(self, legal: Sequence[A], value: Callable[[A], float]) -> A:
        scored = [(value(a), a) for a in legal]
        top = max(v for v, _ in scored)
        best = [a for v, a in scored if v == top]
        return best[self._rng.randrange(len(best))]

    def _reorganize(self, view: PlayerView, legal: Sequence[Action], sinking: bool) -> Action:
        # Build the action instead of scoring up to 256 of them: every take-back
        # and discard subset is legal, so the built one is among ``legal``.
        take_backs = [a.take_back for a in legal if isinstance(a, Reorganize) and a.take_back is not None]
        take_back: HandCard | None = None
        if take_backs and not sinking:
            take_back = self._best(sorted(set(take_backs), key=lambda c: c.id), lambda c: _keep_value(view, c, False))
        if sinking:
            discards = frozenset(c for c in view.hand if c.faction not in (None, view.victor) and c.value >= 7)
        else:
            discards = frozenset(
                c for c in view.hand if c.faction not in (None, view.victor, view.support) and c.value <= 5
            )
        action = Reorganize(take_back, discards)
        if action in set(legal):
            return action
        return self._best(legal, lambda a: 0)  # not reached with the engine's listing of every subset


def expects_emperor_victory(view: PlayerView) -> bool:
    """Whether the emperor is on course to end at or above the leading faction (rule 8.2).

    Public information only. It is expected when either

    * the other seats play traitor cards often: at least 0.3 traitor plays per
      seat and week with an emperor card, counting the revealed steps of this
      week as a fraction of a week and one quiet week per seat beforehand
      (RandomBots make about 0.8, rising GreedyBots under 0.05); or
    * the projection says so: the emperor's projected total is its scored
      points plus its unscored cards' average value for each remaining week it
      is expected to win, at the rate it won the weeks with an emperor card so
      far (with 1 win and 3 losses assumed beforehand); the leader's projected
      total is the highest faction's scored card points plus the most tokens
      any seat holds, plus 5 points for each remaining week the emperor is
      expected to lose.

    :param view: a seat's (or the spectator's) view.
    :returns: True if an emperor victory is expected.
    """
    return _others_traitor_rate(view) >= _HOSTILE_TRAITOR_RATE or _projected_emperor_ahead(view)


def _others_traitor_rate(view: PlayerView) -> float:
    tables = [r.table for r in view.history]
    weeks = float(sum(1 for t in tables if t.emperor_card is not None))
    current = view.table
    if current is not None and view.phase in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3) and current.emperor_card:
        tables.append(current)
        weeks += current.steps_revealed / 3
    traitors = sum(1 for t in tables for p in t.traitor_plays() if p.seat != view.seat)
    return traitors / ((view.players - 1) * (weeks + 1))


def _projected_emperor_ahead(view: PlayerView) -> bool:
    history = view.history
    with_emperor = [r for r in history if r.table.emperor_card is not None]
    wins = sum(1 for r in with_emperor if r.score.emperor_scored)
    rate = (wins + _PRIOR_WINS) / (len(with_emperor) + _PRIOR_WINS + _PRIOR_LOSSES)
    scored = view.score_track.emperor_cards
    emperor_now = view.score_track.emperor_total
    unscored_points = _EMPEROR_DECK_POINTS - emperor_now
    unscored_cards = len(EMPEROR_CARDS) - len(scored)
    weeks_left = _GAME_WEEKS - len(history)
    average = unscored_points / unscored_cards if unscored_cards else 0.0
    emperor_final = emperor_now + min(float(unscored_points), rate * weeks_left * average)
    tokens = [b + m for b, m in zip(view.banked_tokens, view.month_tokens, strict=True)]
    leader_now = max(view.score_track.card_points()) + max(tokens)
    leader_final = leader_now + (1 - rate) * weeks_left * _LEADER_GAIN_PER_FREE_WEEK
    return emperor_final >= leader_final


def _cards_of(action: Action) -> frozenset[HandCard]:
    if isinstance(action, (PassCards, DiscardCards, PlaceCards)):
        return action.cards
    return frozenset()


def _keep_value(view: PlayerView, card: HandCard, sinking: bool) -> float:
    """How much the seat wants to hold ``card`` (higher: keep)."""
    if card.faction is None:
        return 12.0
    if card.faction is view.victor:
        # Rising, the victor faction's cards win weeks; sinking, its high cards make the best traitor cards.
        return 20.0 + card.value
    if sinking:
        return 10.0 - card.value  # low cards of other factions rarely win tokens
    if card.faction is view.support:
        return 8.0 + card.value
    return float(card.value)


def _hand_points(view: PlayerView, faction: Faction) -> int:
    return sum(c.value for c in view.hand if c.faction is faction)


def _support_value(view: PlayerView, action: Action, sinking: bool) -> float:
    assert isinstance(action, ChooseSupport)
    faction = action.faction
    if sinking:
        return -_hand_points(view, faction) - (100.0 if faction is view.victor else 0.0)
    return _hand_points(view, faction) * (2.0 if faction is view.victor else 1.0)


def _placement_value(view: PlayerView, action: Action, sinking: bool) -> float:
    assert isinstance(action, PlaceCards)
    own = sum(c.value if c.faction is view.victor else -c.value for c in action.cards)
    return float(-own if sinking else own)


def _play_value(
    view: PlayerView,
    table: WeekTable,
    strengths: tuple[int, ...],
    emperor: int | None,
    action: Action,
    sinking: bool,
) -> float:
    """Score one play-step action; see :class:`GreedyBot` for the preferences."""
    victor = view.victor
    assert victor is not None
    if isinstance(action, PlayCard):
        card = action.card
        faction = card.faction
        assert faction is not None
        if action.side is Side.EMPEROR:
            if sinking:
                return (100.0 if faction is victor else 80.0) + card.value
            if faction is victor or not _traitor_is_safe(strengths, emperor, faction, card.value):
                return -100.0
            if strengths[faction] >= strengths[victor]:
                return 50.0 + card.value  # weakens a rival that threatens the victor faction
            return 5.0 + card.value / 2
        if sinking:
            # Low cards to weak factions: the seat should not support this week's strongest faction most.
            return 40.0 - (strengths[faction] + card.value) - (30.0 if faction is victor else 0.0)
        if faction is victor:
            return 100.0 + card.value
        if faction is view.support:
            return 60.0 + card.value
        return 20.0 - card.value
    if isinstance(action, Reinforce):
        target = table.play_of(action.target)
        assert target is not None
        if target.side is Side.EMPEROR:
            if sinking:
                return 70.0
            if target.faction is victor or not _traitor_is_safe(strengths, emperor, target.faction, 3):
                return -100.0
            return 45.0 if strengths[target.faction] >= strengths[victor] else 0.0
        own = target.seat == view.seat
        if sinking:
            if own or target.faction is victor:
                return -30.0
            return 50.0 + (10.0 if strengths[target.faction] + 3 >= max(strengths) else 0.0)
        if target.faction is victor:
            return 90.0 + (5.0 if own else 0.0)
        if own and target.faction is view.support:
            return 55.0
        return 10.0 if own else 0.0
    return 0.0  # PlayNothing: only ever the sole legal action


def _traitor_is_safe(strengths: tuple[int, ...], emperor: int | None, faction: Faction | None, points: int) -> bool:
    """Whether adding ``points`` to the emperor (and taking them from ``faction``) leaves the emperor
    at least :data:`_TRAITOR_MARGIN` points below the strongest faction (rulings B, E)."""
    if emperor is None:
        return False
    after = list(strengths)
    if faction is not None:
        after[faction] -= points
    return emperor + points <= max(after) - _TRAITOR_MARGIN


# --------------------------------------------------------------------------- driving a game


@attrs.frozen
class Turn:
    """One decision of a game driven by :func:`iter_game`.

    :ivar before: the state in which the seat chose.
    :ivar seat: the seat that chose.
    :ivar action: its action.
    :ivar after: the state after :func:`~darkempire.rules.engine.apply` (the step
        resolves, and automatic steps run, once every awaited seat chose).
    """

    before: GameState
    seat: int
    action: Action
    after: GameState


def iter_game(config: GameConfig, seed: int, bots: Sequence[Bot]) -> Iterator[Turn]:
    """Play a game between ``bots`` (one per seat) and yield every decision (spec 9.2, 9.3).

    In each step the awaited seats are asked in seat order, each with its own
    :func:`~darkempire.rules.views.player_view` and
    :func:`~darkempire.rules.engine.legal_actions`; the choices are applied one seat
    at a time with :func:`~darkempire.rules.engine.apply`, so a seat never sees
    another seat's pending choice. The last turn's ``after`` is the finished game.

    :param config: the game's options.
    :param seed: the game's seed (shuffles).
    :param bots: one bot per seat.
    :raises ValueError: if the number of bots differs from the number of seats.
    :raises IllegalActionError: if a bot returns an illegal action.
    """
    return itertools.starmap(Turn, _decisions(config, seed, bots))


def _decisions(config: GameConfig, seed: int, bots: Sequence[Bot]) -> Iterator[tuple[GameState, int, Action, GameState]]:
    """:func:`iter_game`'s decisions as ``(before, seat, action, after)``, the fields of a :class:`Turn`."""
    if len(bots) != config.players:
        raise ValueError(f"{len(bots)} bots for {config.players} seats")
    state = deal(config, seed)
    awaited = awaited_seats(state)
    while not state.is_over:
        seat = min(awaited)
        action = bots[seat].choose(player_view(state, seat, awaited=awaited), legal_actions(state, seat))
        after = apply(state, seat, action)
        yield state, seat, action, after
        # Until its step resolves, a choice only joins the pending ones, and the step awaits the same seats
        # but this one. Resolving clears every pending choice; then the next step's seats are counted.
        awaited = awaited - {seat} if after.pending[seat] is not None else awaited_seats(after)
        state = after


def run_game(config: GameConfig, seed: int, bots: Sequence[Bot], *, engine: str = "reference") -> GameState:
    """Play a whole game between ``bots`` and return the finished state (spec 8.1, 9.3).

    See :func:`iter_game` for the arguments and errors. With ``engine="kernel"`` the same game is played on
    the playout kernel (:func:`darkempire.kernel.playout.play_bots`): a :class:`RandomBot` or a
    :class:`GreedyBot` chooses with its own generator on the kernel's integers, without a view or a listing
    (:mod:`darkempire.kernel.greedy` for the greedy one), and any other bot is asked as here, with the
    reference view rebuilt at its decisions. The finished state, and every bot's generator after it, are
    the same; the kernel is much faster when most seats are random or greedy. The reference engine stays
    the default: it is what the kernel is tested against.

    :param engine: ``"reference"`` or ``"kernel"``.
    :raises ValueError: for another ``engine``.
    :returns: a state in :attr:`Phase.GAME_OVER` with its verdict.
    """
    if engine == "kernel":
        return _run_on_kernel(config, seed, bots)
    if engine != "reference":
        raise ValueError(f"unknown engine {engine!r}; choose 'reference' or 'kernel'")
    state: GameState | None = None
    for _, _, _, state in _decisions(config, seed, bots):
        pass
    return state if state is not None else deal(config, seed)  # a game without a decision is only dealt


def _run_on_kernel(config: GameConfig, seed: int, bots: Sequence[Bot]) -> GameState:
    if len(bots) != config.players:
        raise ValueError(f"{len(bots)} bots for {config.players} seats")
    game = kernel.deal(config, seed)
    # Only an exact RandomBot: a subclass may choose otherwise, so it is asked as any bot is.
    play_bots(game, [_native(bot) for bot in bots])
    return game.snapshot()


def _native(bot: Bot) -> random.Random | GreedySeat | Bot:
    """How the kernel plays ``bot``'s seat: an exact RandomBot or GreedyBot on the kernel's integers, with its
    own generator; any other bot (a subclass may choose otherwise) asked with the reference's view."""
    if type(bot) is RandomBot:
        return bot._rng
    if type(bot) is GreedyBot:
        return GreedySeat(bot._rng)
    return bot


def _search_bot(seed: int) -> Bot:
    # Named, not imported: the search package is a layer above this module (it builds on GreedyBot), so the
    # registry reaches it by name when the kind is asked for, as a plugin registry would.
    factory: Callable[[int], Bot] = getattr(importlib.import_module("darkempire.search.bot"), "SearchBot")
    return factory(seed)


#: Bot kinds by name, as the command line names them. ``ismcts`` is
#: :class:`darkempire.search.bot.SearchBot` with its default budget.
BOT_KINDS: dict[str, Callable[[int], Bot]] = {"greedy": GreedyBot, "ismcts": _search_bot, "random": RandomBot}


def make_bot(kind: str, seed: int) -> Bot:
    """A new bot of ``kind`` (a key of :data:`BOT_KINDS`) seeded with ``seed``.

    :raises ValueError: for an unknown kind.
    """
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(sorted(BOT_KINDS))}") from None
    return factory(seed)
