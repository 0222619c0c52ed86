"""``revolution play``: one person plays a seat against bots at the terminal (rules 4, 5.7, 5.8, 9.3).

``revolution play [--players N] [--seed S] [--seat K] [--bots greedy,...] [--bid-refunds]
[--area-control-bonus] [--record FILE]`` plays a game with the kit's driver in which seat ``K`` is the person at
the terminal (:class:`HumanSeat`) and the other seats are bots (greedy by default; ``--bots`` names one kind for
them all or one per other seat, in seat order; seat ``s``'s bot is seeded with ``10 * S + s``). ``--record
FILE`` writes the finished game's record, as ``demo --record`` does (a file that cannot be written is refused
before the game).
The person sees what any bot sees, its seat's view (rule 9.3): the whole table, and no bid before the reveal.

A bid is typed as one line of *placements* (:func:`parse_bid`), each ``[count]KIND:Character``, where KIND is
``F`` (Force), ``B`` (Blackmail) or ``G`` (Gold) and a character may be shortened to any prefix that names one
alone: ``F:Priest B:General 3G:Printer`` places a Force on the Priest, a Blackmail on the General and three Gold on
the Printer. The same character may be named again (``G:Pri G:Pri`` is ``2G:Priest``). ``?`` prints the rules of a
bid (:data:`BID_HELP`) and the characters, ``c`` the characters alone (board order, area, immunities, rewards:
:func:`~revolution.cli.text.character_lines`), ``t`` the table again, ``q`` leaves the game (exit status 0);
the end of the input abandons it (status 1). A bid the rules refuse is explained with its rule and asked again.

When the person wins the Spy or the Apothecary with a move to make, the choices are listed by number
(:data:`EFFECT_HELP`).

>>> parse_bid("F:Gen 3g:priest B:Innkeeper", BASE_BOARD) == Bid({"General": Tokens(force=1),
...     "Priest": Tokens(gold=3), "Innkeeper": Tokens(blackmail=1)})
True
"""

from __future__ import annotations

import re
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Final, Protocol, TextIO

from revolution.cli.text import action_text, character_lines, event_lines, tokens_text, view_lines
from revolution.records import save_record
from revolution.rules.actions import Action
from revolution.rules.bids import Bid, bid_problems
from revolution.rules.data import BASE_BOARD, Board
from revolution.rules.errors import IllegalBidError, RevolutionError, TokensNotAllBidError
from revolution.rules.events import RevolutionEvent
from revolution.rules.game import GAME
from revolution.rules.state import Phase, RevolutionConfig
from revolution.rules.tokens import Token, Tokens
from revolution.rules.views import RevolutionView
from tablekit.files import write_text
from tablekit.bots import Bot, iter_game
from tablekit.events import Event
from tablekit.records import Choice, Record

__all__ = ["BID_HELP", "EFFECT_HELP", "BidTextError", "HumanSeat", "LineReader", "PlayerLeft", "parse_bid", "run"]

#: What ``?`` prints at the Bidding: how to type a bid, and the rules it must keep (rules 4.2-4.4, 5.2, 5.3). One
#: line a paragraph: a terminal wraps them to its width (:class:`~revolution.cli.app.WrappedOutput`).
BID_HELP: Final = "\n".join((
    "Type your bid as placements separated by spaces: [count]KIND:Character, KIND being F (Force), B (Blackmail) "
    "or G (Gold); a character may be shortened to a prefix that names it alone. Example: F:Priest B:General "
    "3G:Printer",
    "The rules of a bid:",
    '  4.2 "A player bids all its tokens, and only its own: the tokens of its bid are exactly those behind its '
    'screen."',
    '  4.3 "A bid places tokens on at most six characters."',
    '  4.4 "No Force may be placed on a character immune to Force, and no Blackmail on one immune to Blackmail. '
    'Gold may be placed on every character."',
    '  5.2 "Bids on one character are compared by Force; equal Force by Blackmail; equal Force and Blackmail by '
    'Gold."',
    '  5.3 "The player whose bid on a character is strictly the strongest wins it. If two or more tie for the '
    'strongest bid, nobody wins it."',
    "Other answers: c lists the characters, t shows the table, q leaves the game.",
))

#: What ``?`` prints when the person chooses the Spy's or the Apothecary's move (rules 5.7, 5.8, R-J).
EFFECT_HELP: Final = "\n".join((
    "Type the number of your choice.",
    '  5.7 "The Spy\'s winner may take one opponent\'s cube anywhere on the board, full areas included, and put '
    'one of its own in that space."',
    '  5.8 "The Apothecary\'s winner may swap the cubes of any two influence spaces, its own or other players\' '
    'cubes, full areas included."',
    "  R-J Either may decline.",
    "Other answers: c lists the characters, t shows the table, q leaves the game.",
))

_PLACEMENT: Final = re.compile(r"([0-9]*)([A-Za-z]+):(\S+)")  # ASCII digits: int() takes others too
_KINDS: Final = types.MappingProxyType({"f": Token.FORCE, "force": Token.FORCE, "b": Token.BLACKMAIL,
                                        "blackmail": Token.BLACKMAIL, "g": Token.GOLD, "gold": Token.GOLD})
_QUIT: Final = frozenset({"q", "quit", "exit"})


class BidTextError(RevolutionError, ValueError):
    """A line that is no bid: a word that is no placement, an unknown kind, a name that is no character."""


class PlayerLeft(Exception):
    """The player left: by answering ``q`` (``chosen``; the command exits 0) or at the end of the input (1).

    :ivar chosen: whether the player chose to leave.
    """

    def __init__(self, reason: str, *, chosen: bool = False) -> None:
        super().__init__(reason)
        self.chosen = chosen


class LineReader(Protocol):
    """Where :class:`HumanSeat` reads answers: ``sys.stdin``, or anything with these two methods."""

    def readline(self) -> str:
        """The next line with its newline, or ``""`` at the end of the input."""
        ...

    def isatty(self) -> bool:
        """Whether a person types the lines (they are echoed otherwise, so a transcript reads whole)."""
        ...


def _character(word: str, board: Board) -> str:
    """The character ``word`` names: its name or a prefix of one name alone, in any case."""
    names = [character.name for character in board.characters]
    exact = [name for name in names if name.lower() == word.lower()]
    found = exact or [name for name in names if name.lower().startswith(word.lower())]
    if len(found) != 1:
        which = f"names {', '.join(found)}" if found else "names no character"
        raise BidTextError(f"{word!r:.40} {which}; the characters: {', '.join(names)}")
    return found[0]


def parse_bid(text: str, board: Board = BASE_BOARD) -> Bid:
    """The bid that the line ``text`` types (see the module's help); whether it is legal is the rules' matter.

    :raises BidTextError: a word that is no ``[count]KIND:Character`` placement.
    """
    placed: dict[str, Tokens] = {}
    for word in text.replace(",", " ").split():
        match = _PLACEMENT.fullmatch(word)
        if match is None or match.group(2).lower() not in _KINDS:
            raise BidTextError(f"{word!r:.40} is no placement: write [count]KIND:Character, KIND being F, B or G "
                               "(for example 2G:Priest)")
        digits = match.group(1) or "1"
        count = int(digits) if len(digits) <= 2 else 0  # length first: int() of 5,000 digits raises
        if not 1 <= count <= 99:
            raise BidTextError(f"{word!r:.40}: a count is 1 to 99")
        name = _character(match.group(3), board)
        placed[name] = placed.get(name, Tokens()) + Tokens.of(_KINDS[match.group(2).lower()], count)
    return Bid(placed)


def _to_you(problem: IllegalBidError, held: Tokens, bid: Bid) -> str:
    """A refusal of the rules as said to the person who bid: rule 4.2's "the seat holds" becomes "you hold"."""
    if isinstance(problem, TokensNotAllBidError):
        return (f"every token is bid: you hold {tokens_text(held)}, your bid places {tokens_text(bid.total)} "
                f"(rule {problem.rule})")
    return str(problem)


class HumanSeat:
    """A :class:`~tablekit.bots.Bot` that asks the person at the terminal, given only its seat's view and legal
    actions, like any bot (rule 9.3).

    :param out: where to print.
    :param stdin: where to read answers, one per line.
    :param board: the board played (public).
    """

    def __init__(self, out: TextIO, stdin: LineReader, board: Board = BASE_BOARD) -> None:
        self._out = out
        self._stdin = stdin
        self._board = board

    def choose(self, view: RevolutionView, legal: Sequence[Action]) -> Action:
        """Ask for a bid at the Bidding, for a choice by number at the Spy's or the Apothecary's move."""
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        return self._effect(view, legal)

    def _ask(self, prompt: str, view: RevolutionView, help_text: str) -> str:
        """The next answer that is no command: ``?`` and ``t`` are answered here, ``q`` and the end leave."""
        while True:
            print(prompt, end="", file=self._out, flush=True)
            line = self._stdin.readline()
            if not line:
                print(file=self._out)
                raise PlayerLeft("end of input")
            answer = line.strip()
            if not self._stdin.isatty():
                print(answer, file=self._out)
            if answer.lower() in _QUIT:
                raise PlayerLeft("you left", chosen=True)
            if answer in ("?", "help"):
                print(help_text, file=self._out)
                if view.phase is Phase.BIDDING:
                    self._characters()
            elif answer.lower() in ("c", "characters"):
                self._characters()
            elif answer.lower() in ("t", "table"):
                for text in view_lines(view, self._board, view.seat):
                    print(text, file=self._out)
            elif answer:
                return answer

    def _characters(self) -> None:
        for text in character_lines(self._board):
            print(text, file=self._out)

    def _bid(self, view: RevolutionView) -> Bid:
        assert view.own is not None, "a seat's view shows its tokens"
        for text in view_lines(view, self._board, view.seat):
            print(text, file=self._out)
        while True:
            prompt = f"You hold {tokens_text(view.own)}. Your bid (?: help, c: characters): "
            answer = self._ask(prompt, view, BID_HELP)
            try:
                bid = parse_bid(answer, self._board)
            except BidTextError as error:
                print(f"Not a bid: {error}", file=self._out)
                continue
            problems = bid_problems(self._board, view.own, bid)
            if not problems:
                return bid
            print(f"The rules refuse it: {_to_you(problems[0], view.own, bid)}", file=self._out)

    def _effect(self, view: RevolutionView, legal: Sequence[Action]) -> Action:
        character = view.choosing[0] if view.choosing is not None else "character"
        print(f"You won the {character}. Your choices:", file=self._out)
        for number, action in enumerate(legal, 1):
            print(f"  {number}. {action_text(action, view.seat)}", file=self._out)
        while True:
            answer = self._ask(f"Your choice, 1 to {len(legal)} (? for help): ", view, EFFECT_HELP)
            if answer.isascii() and answer.isdigit() and len(answer) <= 4 and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            print(f"Type a number from 1 to {len(legal)}.", file=self._out)


def run(out: TextIO, stdin: LineReader, config: RevolutionConfig, seed: int, seat: int,
        bots: Sequence[Bot[RevolutionView, Action]], record: str | None = None) -> int:
    """Play a game of ``config`` with the person at ``seat`` and ``bots`` at the other seats (``bots[seat]`` is
    not asked), printing every public event as it happens; once the game is over, write its record to the file
    ``record`` if given (a game left before its end writes none).

    :returns: 0 when the game is over.
    :raises PlayerLeft: the person answered ``q`` or the input ended.
    :raises ~tablekit.records.RecordError: the record file cannot be written.
    """
    seats: list[Bot[RevolutionView, Action]] = list(bots)
    seats[seat] = HumanSeat(out, stdin, config.board)
    print(f"Revolution! - {config.players} players, seed {seed}; you are seat {seat}", file=out)
    choices: list[Choice[Action]] = []
    for item in iter_game(GAME, config, seed, seats):
        if isinstance(item, Event):
            events: tuple[Event[RevolutionEvent], ...] = (item,)
        else:  # a choice: the step's events once it resolved (every bid is in, or the move is made)
            choices.append(Choice(item.seat, item.action))
            transition = item.collected.transition
            events = transition.events if transition is not None else ()
        for event in events:
            for line in event_lines(event.payload, seat):
                print(line, file=out)
    if record is not None:
        played = Record(GAME.name, GAME.version, config, seed, tuple(choices))
        write_text(Path(record), save_record(played))
        print(f"Record of {len(choices)} choices written to {record}", file=out)
    return 0
