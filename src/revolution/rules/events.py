"""What each transition did, as events with their visibility (rule 9.3).

Every step of the engine reports its events in order, each a :class:`tablekit.events.Event` wrapping one of
the payloads below. All of them are public: in *Revolution!* everything on the table is public (rule 3.2), and
the only secret, the bids before the reveal, is never in the engine's state. Behind the screens means in the
kit's collector (:mod:`tablekit.simultaneous`), whose own event for a seat's choice shows the bid to that seat
alone (``ChoiceMade`` with the action ``None`` for everyone else). The bids become events here only when all are
in, with :class:`BidsRevealed`.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from revolution.rules.actions import CubeAt
from revolution.rules.bids import Bid
from revolution.rules.state import FinalScore
from revolution.rules.tokens import Tokens

__all__ = [
    "BidTokensReturned",
    "BidsRevealed",
    "CharacterResolved",
    "CubeNotPlaced",
    "CubePlaced",
    "CubeReplaced",
    "CubesSwapped",
    "EffectAwaited",
    "EffectDeclined",
    "EffectSkipped",
    "GameEnded",
    "GameStarted",
    "PatronageGiven",
    "RevolutionEvent",
    "RoundStarted",
    "SupportGained",
    "TokensGained",
    "TokensRemoved",
    "WinnerEvent",
]


@attrs.frozen
class WinnerEvent:
    """What befell the winner of one character (rules 5.4-5.8): the fields every such event starts with.

    :ivar seat: the winner.
    :ivar character: the character won.
    """

    seat: int
    character: str


@attrs.frozen
class GameStarted:
    """Set-up (rules 2.1, 2.2): every seat's starting tokens, the bank, each seat's cubes.

    :ivar players: the number of seats.
    :ivar held: each seat's tokens.
    :ivar bank: the bank.
    :ivar cubes: each seat's cubes in its supply.
    """

    players: int
    held: tuple[Tokens, ...]
    bank: Tokens
    cubes: int


@attrs.frozen
class RoundStarted:
    """A round begins with Espionage (rule 3.2): every seat's tokens, shown to all.

    :ivar round: the round, from 1.
    :ivar held: each seat's tokens, which it must bid.
    """

    round: int
    held: tuple[Tokens, ...]


@attrs.frozen
class BidsRevealed:
    """The screens are lifted (rule 5.1): every seat's bid as it was made.

    :ivar round: the round.
    :ivar bids: each seat's bid.
    """

    round: int
    bids: tuple[Bid, ...]


@attrs.frozen
class TokensRemoved:
    """The table mode (rule 4.5, R-L): tokens of a revealed illegal bid that do not count go to the bank.

    :ivar seat: the seat that bid them.
    :ivar character: the character they were on.
    :ivar tokens: the tokens removed.
    :ivar reason: ``"immune"`` (rule 4.4) or ``"beyond six"`` (rule 4.3).
    """

    seat: int
    character: str
    tokens: Tokens
    reason: str


@attrs.frozen
class CharacterResolved:
    """One character is resolved, in board order (rules 5.1-5.3).

    :ivar character: its name.
    :ivar winner: the seat with strictly the strongest bid, or ``None``.
    :ivar tied: the seats tied for the strongest bid when nobody wins because of the tie; else empty.
    """

    character: str
    winner: int | None
    tied: tuple[int, ...]


@attrs.frozen
class SupportGained(WinnerEvent):
    """A winner's support reward (rule 5.4).

    :ivar seat: the winner.
    :ivar character: the character won.
    :ivar support: the support gained.
    :ivar total: the seat's support after it.
    """

    support: int
    total: int


@attrs.frozen
class TokensGained(WinnerEvent):
    """A winner takes its token reward from the bank, for the next round (rule 5.5, R-F).

    :ivar seat: the winner.
    :ivar character: the character won.
    :ivar tokens: the tokens taken.
    :ivar short: what the bank could not pay (R-F); usually none.
    """

    tokens: Tokens
    short: Tokens


@attrs.frozen
class CubePlaced(WinnerEvent):
    """A winner places a cube in the character's area (rule 5.6).

    :ivar seat: the winner.
    :ivar character: the character won.
    :ivar area: the area.
    """

    area: str


@attrs.frozen
class CubeNotPlaced(WinnerEvent):
    """A winner's influence reward places no cube (rule 5.6, R-G); its other rewards stand.

    :ivar seat: the winner.
    :ivar character: the character won.
    :ivar area: the area.
    :ivar reason: ``"area full"`` (rule 5.6) or ``"no cube left"`` (R-G).
    """

    area: str
    reason: str


@attrs.frozen
class EffectAwaited(WinnerEvent):
    """The resolution stops for the winner of the Spy or the Apothecary to choose (rules 5.7, 5.8, 9.1).

    :ivar seat: the winner, who chooses.
    :ivar character: the character.
    """



@attrs.frozen
class EffectSkipped(WinnerEvent):
    """The winner of the Spy or the Apothecary has nothing to choose: no cube it may take or swap (R-K).

    :ivar seat: the winner.
    :ivar character: the character.
    """



@attrs.frozen
class EffectDeclined(WinnerEvent):
    """The winner chose to use neither replacement nor swap (R-J).

    :ivar seat: the winner.
    :ivar character: the character.
    """



@attrs.frozen
class CubeReplaced(WinnerEvent):
    """The Spy (rule 5.7, R-H): ``target`` went back to its owner's supply and ``seat``'s cube took its space.

    :ivar seat: the Spy's winner.
    :ivar character: the character (the Spy).
    :ivar target: the cube replaced.
    """

    target: CubeAt


@attrs.frozen
class CubesSwapped(WinnerEvent):
    """The Apothecary (rule 5.8, R-I): the two cubes changed places.

    :ivar seat: the Apothecary's winner.
    :ivar character: the character (the Apothecary).
    :ivar first: the cube that was in the earlier area, now in the later.
    :ivar second: the cube that was in the later area, now in the earlier.
    """

    first: CubeAt
    second: CubeAt


@attrs.frozen
class BidTokensReturned:
    """The Resolution is over: the bid tokens go to the bank (rule 5.9), or back to a seat that lost or tied
    with Bid Refunds (rule 8.1, R-Q).

    :ivar to_bank: the tokens that went to the bank.
    :ivar refunded: each seat's tokens that came back to it (all none without Bid Refunds).
    """

    to_bank: Tokens
    refunded: tuple[Tokens, ...]


@attrs.frozen
class PatronageGiven:
    """Patronage (rule 6.1, R-F): a seat holding fewer than five tokens takes Gold up to five.

    :ivar seat: the seat.
    :ivar gold: the Gold taken.
    :ivar short: the Gold the bank could not give (R-F); usually 0.
    """

    seat: int
    gold: int
    short: int


@attrs.frozen
class GameEnded:
    """Every influence space is filled at the end of a Resolution: the game is over (rules 7.1-7.4).

    :ivar scores: each seat's final score.
    :ivar winners: the seats with the most final support (R-O).
    """

    scores: tuple[FinalScore, ...]
    winners: tuple[int, ...]


#: Every event payload of the game.
RevolutionEvent: TypeAlias = (
    GameStarted | RoundStarted | BidsRevealed | TokensRemoved | CharacterResolved | SupportGained | TokensGained
    | CubePlaced | CubeNotPlaced | EffectAwaited | EffectSkipped | EffectDeclined | CubeReplaced | CubesSwapped
    | BidTokensReturned | PatronageGiven | GameEnded
)
