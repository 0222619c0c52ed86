"""The rules as pure transitions: set-up, the Bidding, the Resolution in board order, Patronage and the end.

Every function takes a :class:`~revolution.rules.state.RevolutionState` (or a config) and returns a new one
with the events it caused (:class:`Step`); nothing is changed in place and no module state is kept. The kit's
:class:`~tablekit.game.Game` (:mod:`revolution.rules.game`) is a thin layer over these functions.

A game runs so (rules 3.1, 9.1):

1. :func:`setup` deals every seat 1 Force, 1 Blackmail and 3 Gold from the box; the rest is the bank
   (rule 2.1, R-E). Espionage is the state itself: every seat's tokens are public (rule 3.2).
2. The **Bidding** step awaits every seat (rule 4.1). :func:`step` reveals the bids and resolves the
   characters one by one in board order (rule 5.1): the strictly strongest bid on a character wins its
   rewards (rules 5.2-5.6).
3. When the Spy's or the Apothecary's winner has a choice, the Resolution stops there at a **Choosing** step
   awaiting that seat alone (rules 5.7, 5.8, R-J, R-K); its choice resumes it at the next character.
4. After the last character, the bid tokens go to the bank (rule 5.9; with Bid Refunds a lost or tied bid
   comes back, rule 8.1). If every influence space is filled, the game ends and is scored (rules 7.1-7.4);
   otherwise Patronage tops up every seat to five tokens with Gold (rule 6.1) and the next round's Bidding
   begins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

import attrs

from revolution.rules.actions import Action, CubeAt, Decline, Replace, Swap
from revolution.rules.bids import Bid, check_bid, counted_bid, legal_bids, winner
from revolution.rules.data import Character
from revolution.rules.effects import apply_effect, effect_actions
from revolution.rules.errors import InvalidValueError, MalformedActionError, WrongStepError
from revolution.rules.events import BidTokensReturned, BidsRevealed, CharacterResolved, CubeNotPlaced, CubePlaced
from revolution.rules.events import CubeReplaced, CubesSwapped, EffectAwaited, EffectDeclined, EffectSkipped
from revolution.rules.events import GameEnded, GameStarted, PatronageGiven, RevolutionEvent, RoundStarted
from revolution.rules.events import SupportGained, TokensGained, TokensRemoved
from revolution.rules.scoring import final_scores, patronage
from revolution.rules.state import Phase, RevolutionConfig, RevolutionState
from revolution.rules.tokens import NO_TOKENS, Token, Tokens
from tablekit.events import Event
from tablekit.wire import quote

__all__ = ["Step", "awaited", "check", "legal_actions", "setup", "step"]

T = TypeVar("T")


@attrs.frozen
class Step:
    """What a transition did: the state after it and its events, in order.

    :ivar state: the new state.
    :ivar events: the events, each public (rule 9.3).
    """

    state: RevolutionState
    events: tuple[Event[RevolutionEvent], ...]


def _public(payloads: Sequence[RevolutionEvent]) -> tuple[Event[RevolutionEvent], ...]:
    return tuple(Event.public(payload) for payload in payloads)


def setup(config: RevolutionConfig) -> Step:
    """A new game (rules 2.1, 2.2): each seat's starting tokens from the box, the rest in the bank, every cube in
    its owner's supply, no support; then the first round's Espionage."""
    board, players = config.board, config.players
    held = (board.starting_tokens,) * players
    bank = Tokens(*(box - players * each for box, each in zip(board.tokens_in_box.strength,
                                                              board.starting_tokens.strength)))
    state = RevolutionState(
        config=config,
        round=1,
        phase=Phase.BIDDING,
        support=(0,) * players,
        held=held,
        bank=bank,
        cubes=tuple((0,) * players for _ in board.areas),
        supply=(board.cubes_per_player,) * players,
    )
    return Step(state, _public([GameStarted(players, held, bank, board.cubes_per_player), RoundStarted(1, held)]))


def awaited(state: RevolutionState) -> frozenset[int]:
    """Every seat at the Bidding (rule 4.1), the winner alone at a Choosing step (rules 5.7, 5.8), nobody at the
    end (rule 9.1)."""
    if state.phase is Phase.BIDDING:
        return frozenset(range(state.players))
    if state.phase is Phase.CHOOSING and state.chooser is not None:
        return frozenset({state.chooser})
    return frozenset()


def _character(state: RevolutionState) -> Character:
    return state.config.board.characters[state.resolving]


def legal_actions(state: RevolutionState, seat: int) -> Sequence[Action]:
    """``seat``'s legal actions now, in a fixed order (rule 9.1): at the Bidding every legal bid, built on demand
    (:func:`~revolution.rules.bids.legal_bids`); at a Choosing step the chooser's replacements or swaps and
    :class:`~revolution.rules.actions.Decline`; otherwise none."""
    if state.phase is Phase.BIDDING:
        return legal_bids(state.config.board, state.held[seat])
    effect = _character(state).effect
    if state.phase is Phase.CHOOSING and seat == state.chooser and effect is not None:
        return effect_actions(state, seat, effect)
    return ()


def check(state: RevolutionState, seat: int, action: object) -> Action:
    """``action`` made of the rules' own objects, checked to be a choice ``seat`` may make now; it reads
    ``state`` alone, never another seat's bid (rule 9.2).

    What comes back is equal to ``action`` but shares none of its objects: the kit keeps it instead of the
    caller's, so an action changed after the check (a frozen value changed with ``object.__setattr__``),
    built around its class's checks (``__new__``), or of a subclass that says one thing to the check and
    another to the step cannot reach the state.

    :raises WrongStepError: the game is over (rule 7.1), or ``action`` belongs to another step or seat
        (rule 9.1).
    :raises MalformedActionError: ``action`` is of a subclass of an action class, or its fields are not what
        the class declares (rule 9.2).
    :raises IllegalBidError: a bid that breaks rule 1.4, 4.2, 4.3 or 4.4 (in the table mode only 1.4 and 4.2,
        rule 4.5).
    :raises IllegalTargetError: a replacement or swap that the Spy or Apothecary does not allow now (rules 5.7,
        5.8).
    """
    _check_seat(state, seat)
    if state.phase is Phase.OVER:
        raise WrongStepError("the game is over: nobody chooses any more", rule="7.1", seat=seat)
    if state.phase is Phase.BIDDING:
        if not isinstance(action, Bid):
            raise WrongStepError(f"at the Bidding every seat chooses a Bid, not {_shown(action)}", rule="9.1",
                                 seat=seat)
        bid = _genuine_bid(action, seat)
        check_bid(state.config.board, state.held[seat], bid, table_mode=state.config.table_mode, seat=seat)
        return bid
    if state.phase is not Phase.CHOOSING:
        raise WrongStepError("no step awaits a choice in the middle of the Resolution", rule="9.1", seat=seat)
    character = _character(state)
    if seat != state.chooser:
        raise WrongStepError(f"only the {character.name}'s winner, seat {state.chooser}, chooses now", rule="9.1",
                             seat=seat)
    if isinstance(action, Bid):
        raise WrongStepError(f"the {character.name}'s winner chooses its effect, not a Bid", rule="9.1", seat=seat)
    choice = _genuine_choice(action, seat)
    if choice is None:  # no action at all; never compared with the listed choices (its __eq__ may be anything)
        raise _malformed(f"{_shown(action)} is no Replace, Swap or Decline, whatever it compares equal to", seat)
    apply_effect(state, seat, choice, character)  # refused with its rule if it is no choice of the chooser's
    return choice


def _check_seat(state: RevolutionState, seat: object) -> None:
    """``seat`` must be a seat of the game, an ``int`` itself (``True`` or ``1.0`` would pass for seat 1, ``-1``
    index the last seat's tokens)."""
    if type(seat) is not int or not 0 <= seat < state.players:
        raise WrongStepError(f"a seat is a whole number from 0 to {state.players - 1}, not {_shown(seat)}",
                             rule="9.1")


def _shown(value: object) -> str:
    """``value`` quoted short, with its type: a forged object's ``repr`` may itself fail (a missing field)."""
    try:
        text = quote(value, 60)
    except Exception:  # anything a hostile __repr__ raises: the type name is enough to tell the fault
        text = "an object"
    return f"{text} (a {type(value).__name__:.40})"


def _malformed(message: str, seat: int) -> MalformedActionError:
    return MalformedActionError(message, rule="9.2", seat=seat)


def _exactly(value: object, cls: type[T], field: str, seat: int) -> T:
    """``value`` if it is of ``cls`` itself (no subclass: it could override what the checks read)."""
    if type(value) is not cls:
        raise _malformed(f"{field} is a {cls.__name__}, not {_shown(value)}", seat)
    return value


def _genuine_bid(bid: Bid, seat: int) -> Bid:
    """``bid`` rebuilt: its placements must be the sorted tuple of ``(str, Tokens)`` pairs without empty ones
    that :class:`~revolution.rules.bids.Bid`'s constructor makes, and each :class:`Tokens` is built anew."""
    _exactly(bid, Bid, "a bid", seat)
    placements = _exactly(getattr(bid, "placements", None), tuple, "Bid.placements", seat)
    pairs: list[tuple[str, Tokens]] = []
    for item in placements:
        if not (type(item) is tuple and len(item) == 2 and type(item[0]) is str and type(item[1]) is Tokens):
            raise _malformed(f"Bid.placements holds (str, Tokens) pairs, not {_shown(item)}", seat)
        pairs.append((item[0], _genuine_tokens(item[1], seat)))
    try:
        genuine = Bid(pairs)
    except InvalidValueError as error:  # a name given twice
        raise _malformed(str(error), seat) from None
    if genuine.placements != tuple(pairs):
        raise _malformed("Bid.placements are sorted by character name, without empty ones: build the Bid with "
                         "its constructor", seat)
    return genuine


def _genuine_tokens(tokens: Tokens, seat: int) -> Tokens:
    counts: list[int] = []
    for kind in Token:
        count = getattr(tokens, kind.value, None)
        if type(count) is not int or count < 0:
            raise _malformed(f"Tokens.{kind.value} is a whole number from 0, not {_shown(count)}", seat)
        counts.append(count)
    return Tokens(*counts)


def _genuine_cube(cube: object, field: str, seat: int) -> CubeAt:
    cube = _exactly(cube, CubeAt, field, seat)
    area, owner = getattr(cube, "area", None), getattr(cube, "seat", None)
    if type(area) is not str or type(owner) is not int:
        raise _malformed(f"{field} names an area (a str) and a seat (an int), not {_shown(area)} and "
                         f"{_shown(owner)}", seat)
    return CubeAt(area, owner)


def _genuine_choice(action: object, seat: int) -> Action | None:
    """A Spy's or Apothecary's choice rebuilt of its own class and a fresh :class:`CubeAt`; ``None`` for an
    object of no action class (left to the effect's refusal)."""
    if type(action) is Replace:
        return Replace(_genuine_cube(getattr(action, "target", None), "Replace.target", seat))
    if type(action) is Swap:
        return Swap(_genuine_cube(getattr(action, "first", None), "Swap.first", seat),
                    _genuine_cube(getattr(action, "second", None), "Swap.second", seat))
    if type(action) is Decline:
        return Decline()
    if isinstance(action, (Replace, Swap, Decline)):
        raise _malformed(f"a choice is a Replace, Swap or Decline itself, not a {type(action).__name__:.40}", seat)
    return None


def _one_per_awaited(state: RevolutionState, choices: Mapping[int, Action]) -> dict[int, Action]:
    """The choices, each checked (:func:`check`) and made of the rules' own objects."""
    if not isinstance(choices, Mapping):
        raise WrongStepError(f"a step's choices are a mapping from seat to action, not {_shown(choices)}",
                             rule="9.1")
    for seat in choices:
        _check_seat(state, seat)
    if state.phase is Phase.OVER:
        raise WrongStepError("the game is over: there is no step to resolve", rule="7.1")
    if not awaited(state):
        raise WrongStepError("no step awaits a choice in the middle of the Resolution", rule="9.1")
    if set(choices) != set(awaited(state)):
        raise WrongStepError(f"a step takes one choice of each awaited seat {sorted(awaited(state))}, not of "
                             f"{sorted(choices)}", rule="9.1")
    return {seat: check(state, seat, action) for seat, action in choices.items()}


def step(state: RevolutionState, choices: Mapping[int, Action]) -> Step:
    """Resolve the current step with one checked choice of each awaited seat (rule 9.1).

    At the Bidding: reveal the bids and resolve (``_reveal``). At a Choosing step: apply the winner's
    choice and resume the Resolution at the next character.

    :raises WrongStepError: choices missing or of seats not awaited; or any error of :func:`check`.
    """
    choices = _one_per_awaited(state, choices)
    events: list[RevolutionEvent] = []
    if state.phase is Phase.BIDDING:
        bids = tuple(choices[seat] for seat in range(state.players))
        state = _reveal(state, tuple(bid for bid in bids if isinstance(bid, Bid)), events)
    else:
        assert state.chooser is not None
        state = _choose(state, state.chooser, choices[state.chooser], events)
    return Step(state, _public(events))


def _reveal(state: RevolutionState, bids: tuple[Bid, ...], events: list[RevolutionEvent]) -> RevolutionState:
    """The screens are lifted (rule 5.1): every bid is shown, the tokens that do not count in the table mode go
    to the bank (rule 4.5, R-L), and the Resolution starts at the first character."""
    events.append(BidsRevealed(state.round, bids))
    board, bank, counted = state.config.board, state.bank, []
    for seat, bid in enumerate(bids):
        part = counted_bid(board, bid)
        for reason, removed in (("immune", part.immune), ("beyond six", part.beyond_six)):
            for name, tokens in removed:
                events.append(TokensRemoved(seat, name, tokens, reason))
                bank += tokens
        counted.append(part.bid)
    state = attrs.evolve(state, bids=tuple(counted), held=(NO_TOKENS,) * state.players, bank=bank, resolving=0,
                         phase=Phase.RESOLUTION)
    return _resolve(state, 0, events)


def _choose(state: RevolutionState, chooser: int, action: Action, events: list[RevolutionEvent]) -> RevolutionState:
    """The winner's choice for the Spy or the Apothecary (rules 5.7, 5.8, R-J), then the rest of the
    Resolution."""
    character = _character(state)
    if isinstance(action, Replace):
        events.append(CubeReplaced(chooser, character.name, action.target))
    elif isinstance(action, Swap):
        events.append(CubesSwapped(chooser, character.name, action.first, action.second))
    else:
        events.append(EffectDeclined(chooser, character.name))
    state = attrs.evolve(apply_effect(state, chooser, action, character), phase=Phase.RESOLUTION, chooser=None)
    return _resolve(state, state.resolving + 1, events)


def _resolve(state: RevolutionState, start: int, events: list[RevolutionEvent]) -> RevolutionState:
    """Resolve the characters from board index ``start`` on (rule 5.1); stop at a winner's choice, or end the
    round after the last character."""
    for index in range(start, len(state.config.board.characters)):
        state = _resolve_character(attrs.evolve(state, resolving=index), events)
        if state.phase is Phase.CHOOSING:
            return state
    return _end_round(state, events)


def _bids_on(state: RevolutionState, character: Character) -> tuple[Tokens, ...]:
    return tuple(bid.on(character.name) for bid in state.bids)


def _resolve_character(state: RevolutionState, events: list[RevolutionEvent]) -> RevolutionState:
    """One character (rules 5.2-5.8): its winner, if any, takes its rewards, then, for the Spy and the
    Apothecary, chooses if it has a choice (R-K)."""
    character = _character(state)
    bids = _bids_on(state, character)
    won = winner(bids)
    best = max(tokens.strength for tokens in bids)
    tied = () if won is not None or not any(bids) else tuple(s for s, t in enumerate(bids) if t.strength == best)
    events.append(CharacterResolved(character.name, won, tied))
    if won is None:
        return state
    state = _reward(state, won, character, events)
    if character.effect is None:
        return state
    if not effect_actions(state, won, character.effect):
        events.append(EffectSkipped(won, character.name))
        return state
    events.append(EffectAwaited(won, character.name))
    return attrs.evolve(state, phase=Phase.CHOOSING, chooser=won)


def _reward(state: RevolutionState, seat: int, character: Character, events: list[RevolutionEvent]) -> RevolutionState:
    """The winner's rewards (rules 5.4-5.6): support at once, tokens from the bank as far as it has them (R-F),
    and a cube in the character's area if a space is free and it has a cube left (R-G)."""
    if character.support:
        support = _set(state.support, seat, state.support[seat] + character.support)
        state = attrs.evolve(state, support=support)
        events.append(SupportGained(seat, character.name, character.support, support[seat]))
    if character.tokens:
        paid = character.tokens.capped_by(state.bank)
        held = _set(state.held, seat, state.held[seat] + paid)
        state = attrs.evolve(state, held=held, bank=state.bank - paid)
        events.append(TokensGained(seat, character.name, paid, character.tokens - paid))
    if character.influence is not None:
        state = _influence(state, seat, character, character.influence, events)
    return state


def _influence(state: RevolutionState, seat: int, character: Character, name: str,
               events: list[RevolutionEvent]) -> RevolutionState:
    area = state.config.board.area_index(name)
    if state.filled(area) >= state.config.board.areas[area].spaces:
        events.append(CubeNotPlaced(seat, character.name, name, "area full"))
        return state
    if not state.supply[seat]:
        events.append(CubeNotPlaced(seat, character.name, name, "no cube left"))
        return state
    row = _set(state.cubes[area], seat, state.cubes[area][seat] + 1)
    events.append(CubePlaced(seat, character.name, name))
    return attrs.evolve(state, cubes=_set(state.cubes, area, row), supply=_set(state.supply, seat, state.supply[seat] - 1))


def _end_round(state: RevolutionState, events: list[RevolutionEvent]) -> RevolutionState:
    """After the last character: bid tokens to the bank or back (rules 5.9, 8.1); then the end of the game if
    every influence space is filled (rule 7.1), else Patronage (rule 6.1) and the next round's Espionage."""
    state = _return_bid_tokens(state, events)
    if state.board_full:
        scores = final_scores(state)
        state = attrs.evolve(state, phase=Phase.OVER, final=scores)
        events.append(GameEnded(scores, tuple(sorted(state.winners))))
        return state
    given, short = patronage(state.held, state.bank)
    for seat, (gold, lacking) in enumerate(zip(given, short)):
        if gold or lacking:
            events.append(PatronageGiven(seat, gold, lacking))
    held = tuple(tokens + Tokens(gold=gold) for tokens, gold in zip(state.held, given))
    state = attrs.evolve(state, held=held, bank=state.bank - Tokens(gold=sum(given)), phase=Phase.BIDDING,
                         round=state.round + 1, resolving=0)
    events.append(RoundStarted(state.round, held))
    return state


def _return_bid_tokens(state: RevolutionState, events: list[RevolutionEvent]) -> RevolutionState:
    """Every bid token goes to the bank (rule 5.9, R-N); with Bid Refunds, the tokens of a bid that did not win
    its character go back behind their seat's screen instead (rule 8.1, R-Q)."""
    refunded = [NO_TOKENS] * state.players
    to_bank = NO_TOKENS
    for character in state.config.board.characters:
        bids = _bids_on(state, character)
        won = winner(bids)
        for seat, tokens in enumerate(bids):
            if state.config.bid_refunds and seat != won:
                refunded[seat] += tokens
            else:
                to_bank += tokens
    held = tuple(tokens + back for tokens, back in zip(state.held, refunded))
    events.append(BidTokensReturned(to_bank, tuple(refunded)))
    return attrs.evolve(state, held=held, bank=state.bank + to_bank, bids=(), resolving=0, chooser=None)


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return values[:index] + (value,) + values[index + 1:]
