"""*Revolution!* with a bid built one token at a time: :data:`TOKEN_GAME`, a kit :class:`~tablekit.game.Game`
every decision of which awaits one seat, and :class:`RevolutionEncoder`, its actions as integers.

Why: a legal bid spreads up to all of a seat's tokens over up to six characters, so a seat holding ten tokens
has millions of legal bids (:func:`~revolution.rules.bids.legal_bids`), and the whole game's count exceeds
10^8: no framework wants one integer per bid. Here a bid is a sequence of small decisions:

* :class:`Place` one token of kind ``kind`` on character ``character`` (its board index), then the next, ...,
  then :class:`Done`. The placements come in **board order**: character by character, and on one character
  Force, then Blackmail, then Gold. So every legal bid is exactly one sequence (no two orders give the same
  bid), and a placement is offered only if the bid can still be finished legally (every token bid, at most six
  characters, no token on a character immune to it, rules 4.2-4.4); :class:`Done` is offered once every token
  is placed. Every sequence thus ends in a legal bid, and every legal bid is a sequence.
* **In turn, hidden**: at the Bidding, seat 0 builds its whole bid, then seat 1, and so on; the bids are revealed
  together after the last seat's :class:`Done` (the wrapped :func:`~revolution.rules.engine.step`). A seat's
  view (:class:`TokenView`) shows its own bid so far and whose turn it is, never another seat's placements:
  the Bidding is still secret and simultaneous in what each seat knows, though the seats choose one after
  another (rule 4.1, 9.3).
* The Spy's and the Apothecary's winners choose as in the rules (:class:`~revolution.rules.actions.Replace`,
  :class:`~revolution.rules.actions.Swap`, :class:`~revolution.rules.actions.Decline`), each its own action.
* **A bound**: *Revolution!* has no last round (a table of seats that tie on every character could play on
  forever), but a framework wants a longest game. :class:`TokenConfig` has ``max_rounds``: a game still
  running when round ``max_rounds + 1`` would begin is over, unfinished, and every seat's return is 0.

The game has **no chance**: the rules draw nothing (set-up, rewards and Patronage are all fixed).

Action integers (:class:`RevolutionEncoder`, for ``m`` characters, ``a`` areas, ``p`` seats): 0 is the kit's
NO_OP; ``1 + 3c + k`` places a token of kind ``k`` (0 Force, 1 Blackmail, 2 Gold) on character ``c``; then
:class:`Done`; then the Spy's replacement of the cube ``CubeAt(area i, seat s)`` at ``i p + s``; then the
Apothecary's swap of ``(area i, seat s)`` and ``(area j, seat t)``, ``i < j``, at the pair's index among the
area pairs times ``p^2`` plus ``s p + t``; last :class:`Decline`. On the base board that is 403 integers for
four seats and 249 for three.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias

import attrs

from revolution.rules import engine
from revolution.rules.actions import Action, CubeAt, Decline, Replace, Swap
from revolution.rules.bids import MAX_CHARACTERS, Bid
from revolution.rules.data import Board
from revolution.rules.errors import ConfigError, ImmuneCharacterError, IllegalBidError, InvalidValueError
from revolution.rules.errors import TokensNotAllBidError, TooManyCharactersError, WrongStepError
from revolution.rules.events import RevolutionEvent
from revolution.rules.game import GAME
from revolution.rules.state import Phase, RevolutionConfig, RevolutionState
from revolution.rules.tokens import Token, Tokens
from revolution.rules.views import RevolutionView
from tablekit import game as kit_game
from tablekit.adapters.flow import NO_OP
from tablekit.chance import ChanceSource

__all__ = ["KINDS", "TOKEN_GAME", "Building", "Done", "OrderError", "Place", "RevolutionEncoder", "SubAction",
           "TokenBids", "TokenConfig", "TokenView", "legal_placements", "max_decisions", "placed_tokens"]

#: The kinds of token in placement order on one character (and in the action integers): Force, Blackmail, Gold.
KINDS: Final = (Token.FORCE, Token.BLACKMAIL, Token.GOLD)


@attrs.frozen(order=True)
class Place:
    """Place one token of kind ``kind`` on the character of board index ``character``.

    :ivar character: the character's index in board order.
    :ivar kind: the token's kind.
    """

    character: int
    kind: Token = attrs.field(order=KINDS.index)


@attrs.frozen
class Done:
    """The seat's bid is complete (every token is placed): the turn passes to the next seat, or the bids are
    revealed."""


#: A decision of :data:`TOKEN_GAME`: a placement, the end of a bid, or a Spy's or Apothecary's choice.
SubAction: TypeAlias = Place | Done | Replace | Swap | Decline


class OrderError(IllegalBidError):
    """A placement out of board order (this adapter's one-sequence-per-bid rule, see the module docstring), or
    one after which the bid could not be finished legally."""


def _max_rounds(instance: TokenConfig, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or value < 1:
        raise ConfigError(f"max_rounds is a whole number from 1, not {value!r}", field="TokenConfig.max_rounds")


def _rules(instance: TokenConfig, attribute: attrs.Attribute[RevolutionConfig], value: object) -> None:
    if not isinstance(value, RevolutionConfig):
        raise ConfigError(f"rules is a RevolutionConfig, not {value!r:.40}", field="TokenConfig.rules")


@attrs.frozen
class TokenConfig:
    """The config of :data:`TOKEN_GAME`: the game's own and the bound on its length.

    :ivar rules: the game's config (players, optional rules, board).
    :ivar max_rounds: the most rounds played; a game not over by then ends unfinished, every return 0.
    :raises ~revolution.rules.errors.ConfigError: for a ``rules`` that is no config, or a ``max_rounds`` below 1.
    """

    rules: RevolutionConfig = attrs.field(factory=RevolutionConfig, validator=_rules)
    max_rounds: int = attrs.field(default=100, validator=_max_rounds)


@attrs.frozen
class Building:
    """A state of :data:`TOKEN_GAME`: the game's state and the Bidding's bids so far.

    :ivar state: the game's state (at the Bidding: before the reveal, so it holds no bid).
    :ivar max_rounds: the bound of :class:`TokenConfig`.
    :ivar bids: the complete bids of the seats that have bid this round (seats ``0 .. len(bids) - 1``); hidden.
    :ivar placed: the placements of the seat building its bid, in board order; hidden.
    """

    state: RevolutionState
    max_rounds: int
    bids: tuple[Bid, ...] = ()
    placed: tuple[Place, ...] = ()

    @property
    def bidder(self) -> int | None:
        """The seat building its bid now; ``None`` when nobody bids."""
        return len(self.bids) if self.state.phase is Phase.BIDDING and not self.truncated else None

    @property
    def truncated(self) -> bool:
        """Whether the game stopped unfinished at its bound (a round beyond ``max_rounds`` would begin)."""
        return self.state.phase is Phase.BIDDING and self.state.round > self.max_rounds

    def bid_of(self, seat: int) -> tuple[Tokens, ...]:
        """``seat``'s own bid this round, in board order: complete, being built, or empty (a secret of the
        seat's until the reveal)."""
        characters = self.state.config.board.characters
        if seat < len(self.bids):
            return tuple(self.bids[seat].on(character.name) for character in characters)
        if seat != self.bidder:
            return (Tokens(),) * len(characters)
        return placed_tokens(self.placed, len(characters))


def placed_tokens(placed: Sequence[Place], characters: int) -> tuple[Tokens, ...]:
    """The tokens of ``placed`` on each of ``characters`` characters, in board order."""
    counts = [[0, 0, 0] for _ in range(characters)]
    for place in placed:
        counts[place.character][KINDS.index(place.kind)] += 1
    return tuple(Tokens(*row) for row in counts)


def _bid(board: Board, placed: Sequence[Place]) -> Bid:
    tokens = placed_tokens(placed, len(board.characters))
    return Bid([(character.name, part) for character, part in zip(board.characters, tokens) if part])


@attrs.frozen
class TokenView:
    """What a seat sees of a :class:`Building` (rule 9.3).

    :ivar view: the game's view of the seat (:func:`~revolution.rules.views.view`).
    :ivar bidder: the seat building its bid now, ``None`` outside the Bidding (public: whose turn it is).
    :ivar own: the seat's own bid this round so far, one :class:`Tokens` per character in board order; empty
        for a spectator.
    :ivar truncated: whether the game stopped unfinished at its bound.
    """

    view: RevolutionView
    bidder: int | None
    own: tuple[Tokens, ...]
    truncated: bool


def _left(building: Building) -> tuple[int, int, int]:
    """The bidder's tokens not placed yet."""
    assert building.bidder is not None
    held = building.state.held[building.bidder].strength
    counts = [0, 0, 0]
    for place in building.placed:
        counts[KINDS.index(place.kind)] += 1
    return (held[0] - counts[0], held[1] - counts[1], held[2] - counts[2])


def _covers(board: Board, after: int, kinds: frozenset[int], slots: int) -> bool:
    """Whether at most ``slots`` characters of board index above ``after`` accept every kind of ``kinds``."""
    if not kinds:
        return True
    later = board.characters[after + 1:]
    accepted = {frozenset(k for k in kinds if character.accepts(KINDS[k])) for character in later}
    useful = [found for found in accepted if found]
    for size in range(1, min(slots, len(kinds)) + 1):
        if any(frozenset().union(*combo) == kinds for combo in itertools.combinations(useful, size)):
            return True
    return False


def _finishable(board: Board, last: Place, used: int, left: tuple[int, int, int]) -> bool:
    """Whether a bid whose last placement is ``last``, on ``used`` characters, can place ``left`` legally from
    ``last`` on in board order."""
    here = board.characters[last.character]
    kinds = frozenset(k for k in range(3) if left[k] and not (k >= KINDS.index(last.kind) and here.accepts(KINDS[k])))
    return _covers(board, last.character, kinds, MAX_CHARACTERS - used)


def legal_placements(building: Building) -> tuple[SubAction, ...]:
    """The bidder's legal decisions, in the order of their integers: each placement in board order after which
    the bid can still be finished legally (rules 4.2-4.4), then :class:`Done` once every token is placed."""
    board, left = building.state.config.board, _left(building)
    if not any(left):
        return (Done(),)
    last = building.placed[-1] if building.placed else None
    used = len({place.character for place in building.placed})
    options: list[SubAction] = []
    for index, character in enumerate(board.characters):
        for k, kind in enumerate(KINDS):
            place = Place(index, kind)
            if not left[k] or not character.accepts(kind) or (last is not None and place < last):
                continue
            now = used + (0 if last is not None and last.character == index else 1)
            rest = (left[0] - (k == 0), left[1] - (k == 1), left[2] - (k == 2))
            if now <= MAX_CHARACTERS and _finishable(board, place, now, rest):
                options.append(place)
    return tuple(options)


def _refuse_placement(building: Building, seat: int, action: SubAction) -> None:
    """Raise the error naming the rule that the bidder's ``action`` breaks (it is not legal)."""
    board, left = building.state.config.board, _left(building)
    if isinstance(action, Done):
        raise TokensNotAllBidError(f"every token is bid: {left[0]} Force, {left[1]} Blackmail, {left[2]} Gold are "
                                   "left to place", rule="4.2", seat=seat)  # fmt: skip
    if not isinstance(action, Place) or type(action.character) is not int \
            or not 0 <= action.character < len(board.characters):  # fmt: skip
        raise WrongStepError(f"at the Bidding a seat places a token or is done, not {action!r:.60}", rule="9.1",
                             seat=seat)  # fmt: skip
    character = board.characters[action.character]
    if not character.accepts(action.kind):
        raise ImmuneCharacterError(f"the {character.name} is immune to {action.kind.value.title()}", rule="4.4",
                                   seat=seat)  # fmt: skip
    if not left[KINDS.index(action.kind)]:
        raise TokensNotAllBidError(f"no {action.kind.value.title()} token is left to place", rule="4.2", seat=seat)
    if len({p.character for p in building.placed} | {action.character}) > MAX_CHARACTERS:
        raise TooManyCharactersError(f"a bid is spread over at most {MAX_CHARACTERS} characters", rule="4.3",
                                     seat=seat)  # fmt: skip
    raise OrderError(f"{action!r} comes before the last placement in board order, or leaves a bid that cannot be "
                     "finished legally", rule="4.1", seat=seat)  # fmt: skip


class TokenBids:
    """*Revolution!* with bids built token by token, in turn (see the module docstring); use
    :data:`TOKEN_GAME`. Everything but the Bidding is the rules' :data:`~revolution.rules.game.GAME`."""

    @property
    def name(self) -> str:
        """``"revolution"``: the same game."""
        return GAME.name

    @property
    def version(self) -> int:
        """The rules' version."""
        return GAME.version

    def initial(self, config: TokenConfig, chance: ChanceSource) -> kit_game.Transition[Building, RevolutionEvent]:
        """The rules' set-up; ``chance`` is not drawn from."""
        done = GAME.initial(config.rules, chance)
        return kit_game.Transition(Building(done.state, config.max_rounds), done.events, done.chance)

    def players(self, state: Building) -> int:
        """The number of seats."""
        return state.state.players

    def awaited(self, state: Building) -> frozenset[int]:
        """The bidder at the Bidding, the chooser at a Choosing step, nobody at the end or at the bound."""
        if state.truncated:
            return frozenset()
        return frozenset({state.bidder}) if state.bidder is not None else GAME.awaited(state.state)

    def legal_actions(self, state: Building, seat: int) -> Sequence[SubAction]:
        """The bidder's :func:`legal_placements`, or the chooser's effect choices; nothing for any other seat."""
        if seat not in self.awaited(state):
            return ()
        if state.bidder is not None:
            return legal_placements(state)
        return tuple(action for action in GAME.legal_actions(state.state, seat) if not isinstance(action, Bid))

    def check(self, state: Building, seat: int, action: SubAction) -> None:
        """Raise the error naming the rule unless ``seat`` may choose ``action`` now.

        :raises ~revolution.rules.errors.WrongStepError: ``seat`` does not choose now (rule 9.1), or the game is
            over (rule 7.1).
        :raises ~revolution.rules.errors.IllegalBidError: a placement or :class:`Done` that breaks rule 4.2, 4.3
            or 4.4, or :class:`OrderError` (out of board order, or a bid that could not be finished).
        :raises ~revolution.rules.errors.IllegalTargetError: the Spy's or Apothecary's choice that the rules
            refuse (rules 5.7, 5.8).
        """
        if seat not in self.awaited(state):
            raise WrongStepError(f"seat {seat} does not choose now; seats {sorted(self.awaited(state))} do",
                                 rule="7.1" if not self.awaited(state) else "9.1", seat=seat)  # fmt: skip
        if state.bidder is None:
            GAME.check(state.state, seat, _effect(action, seat))
            return
        if action not in legal_placements(state):
            _refuse_placement(state, seat, action)

    def step(self, state: Building, choices: Mapping[int, SubAction],
             chance: ChanceSource) -> kit_game.Transition[Building, RevolutionEvent]:  # fmt: skip
        """Apply the one awaited seat's checked decision; the last seat's :class:`Done` reveals every bid."""
        ((seat, action),) = choices.items()
        if state.bidder is None:
            done = GAME.step(state.state, {seat: _effect(action, seat)}, chance)
            return kit_game.Transition(attrs.evolve(state, state=done.state), done.events, done.chance)
        if isinstance(action, Place):
            return kit_game.Transition(attrs.evolve(state, placed=(*state.placed, action)), (), chance)
        bids = (*state.bids, _bid(state.state.config.board, state.placed))
        if len(bids) < state.state.players:
            return kit_game.Transition(attrs.evolve(state, bids=bids, placed=()), (), chance)
        done = GAME.step(state.state, dict(enumerate(bids)), chance)
        return kit_game.Transition(Building(done.state, state.max_rounds), done.events, done.chance)

    def view(self, state: Building, seat: int | None) -> TokenView:
        """The rules' view, whose turn it is, and the seat's own bid so far."""
        own = () if seat is None else state.bid_of(seat)
        return TokenView(GAME.view(state.state, seat), state.bidder, own, state.truncated)

    def is_over(self, state: Building) -> bool:
        """Whether the game has ended (rule 7.1), or stopped at its bound."""
        return state.state.is_over or state.truncated

    def returns(self, state: Building) -> tuple[float, ...]:
        """The rules' returns at the end (the winners share +1, the others -1); 0 each at the bound."""
        if state.truncated:
            return (0.0,) * state.state.players
        return GAME.returns(state.state)


def _effect(action: object, seat: int) -> Action:
    if isinstance(action, (Replace, Swap, Decline)):
        return action
    raise WrongStepError(f"the Spy's or Apothecary's winner chooses its effect, not {action!r:.60}", rule="9.1",
                         seat=seat)  # fmt: skip


#: The one :class:`TokenBids`; mypy checks here that it implements the kit's protocol.
TOKEN_GAME: kit_game.Game[TokenConfig, Building, SubAction, TokenView, RevolutionEvent] = TokenBids()


def max_decisions(config: TokenConfig) -> int:
    """The most decisions in a game: per round, one per token in the box (a seat places what it holds, and no
    seat holds more than the box has) and one :class:`Done` per seat, and the Spy's and Apothecary's choices."""
    box = config.rules.board.tokens_in_box.total
    return config.max_rounds * (box + config.rules.players + 2)


@attrs.frozen
class RevolutionEncoder:
    """The decisions of :data:`TOKEN_GAME` as integers (see the module docstring), for one board and number of
    seats; ``0`` is the kit's NO_OP.

    :ivar characters: the board's number of characters.
    :ivar areas: the board's area names, in board order.
    :ivar players: the number of seats.
    """

    characters: int
    areas: tuple[str, ...]
    players: int

    @classmethod
    def of(cls, config: RevolutionConfig) -> RevolutionEncoder:
        """The encoder of a game's config."""
        board = config.board
        return cls(len(board.characters), tuple(area.name for area in board.areas), config.players)

    @property
    def _done(self) -> int:
        return 1 + 3 * self.characters

    @property
    def _replace(self) -> int:
        return self._done + 1

    @property
    def _swap(self) -> int:
        return self._replace + len(self.areas) * self.players

    @property
    def _pairs(self) -> tuple[tuple[int, int], ...]:
        return tuple(itertools.combinations(range(len(self.areas)), 2))

    @property
    def _decline(self) -> int:
        return self._swap + len(self._pairs) * self.players**2

    @property
    def num_actions(self) -> int:
        """How many integers there are, NO_OP included."""
        return self._decline + 1

    def _cube(self, cube: CubeAt) -> int:
        return self.areas.index(cube.area) * self.players + cube.seat

    def encode(self, state: Building, seat: int, action: SubAction) -> int:
        """The integer of ``action`` (it does not depend on the state or the seat).

        :raises ~revolution.rules.errors.InvalidValueError: for a value that is no decision of this game or names
            no area or seat.
        """
        if isinstance(action, Place) and 0 <= action.character < self.characters:
            return 1 + 3 * action.character + KINDS.index(action.kind)
        if isinstance(action, Done):
            return self._done
        if isinstance(action, Decline):
            return self._decline
        try:
            if isinstance(action, Replace):
                return self._replace + self._cube(action.target)
            if isinstance(action, Swap):
                pair = self._pairs.index((self.areas.index(action.first.area), self.areas.index(action.second.area)))
                return self._swap + pair * self.players**2 + action.first.seat * self.players + action.second.seat
        except ValueError:
            pass
        raise InvalidValueError(f"no decision of this game: {action!r:.80}", field="action")

    def decode(self, state: Building, seat: int, index: int) -> SubAction:
        """The decision of integer ``index`` (1 .. ``num_actions - 1``).

        :raises ~revolution.rules.errors.InvalidValueError: for an integer outside that range.
        """
        if type(index) is not int or not NO_OP < index < self.num_actions:
            raise InvalidValueError(f"an action is an integer 1-{self.num_actions - 1}, not {index!r:.20}",
                                    field="action")  # fmt: skip
        if index < self._done:
            return Place((index - 1) // 3, KINDS[(index - 1) % 3])
        if index == self._done:
            return Done()
        if index == self._decline:
            return Decline()
        if index < self._swap:
            area, owner = divmod(index - self._replace, self.players)
            return Replace(CubeAt(self.areas[area], owner))
        pair, rest = divmod(index - self._swap, self.players**2)
        (one, other), (first, second) = self._pairs[pair], divmod(rest, self.players)
        return Swap(CubeAt(self.areas[one], first), CubeAt(self.areas[other], second))
