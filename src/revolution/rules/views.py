"""What a seat may see (rule 9.3): everything on the table, and nothing behind another seat's screen.

In *Revolution!* all of the table is public: every seat's tokens (Espionage, rule 3.2), support, cubes and
supply, the bank, and from the reveal to the end of the Resolution every bid. The one secret is a bid before
the reveal, and it is never in the state (it waits in the kit's collector), so a view, made from the state
alone, cannot show it. A view is the same for every seat but for ``RevolutionView.seat`` and
``RevolutionView.own``, and a spectator (``None``) sees what the seats see.
"""

from __future__ import annotations

import attrs

from revolution.rules.bids import Bid
from revolution.rules.state import FinalScore, Phase, RevolutionState
from revolution.rules.tokens import Tokens

__all__ = ["RevolutionView", "view"]


@attrs.frozen
class RevolutionView:
    """One seat's view of the table (rule 9.3).

    :ivar seat: the viewer, ``None`` for a spectator.
    :ivar round: the round.
    :ivar phase: where the round is.
    :ivar support: each seat's support.
    :ivar held: each seat's tokens (public by Espionage, rule 3.2).
    :ivar own: the viewer's own tokens, or ``None`` for a spectator.
    :ivar bank: the bank.
    :ivar cubes: ``(area name, cubes of each seat)`` for every area, in board order.
    :ivar supply: each seat's cubes off the board.
    :ivar bids: the revealed bids during the Resolution; empty at the Bidding.
    :ivar choosing: at a Choosing step, ``(character, seat)``: who chooses for which character; else ``None``.
    :ivar final: the final scores once the game is over; else empty.
    """

    seat: int | None
    round: int
    phase: Phase
    support: tuple[int, ...]
    held: tuple[Tokens, ...]
    own: Tokens | None
    bank: Tokens
    cubes: tuple[tuple[str, tuple[int, ...]], ...]
    supply: tuple[int, ...]
    bids: tuple[Bid, ...]
    choosing: tuple[str, int] | None
    final: tuple[FinalScore, ...]


def view(state: RevolutionState, seat: int | None) -> RevolutionView:
    """What ``seat`` (``None``: a spectator) sees of ``state`` (rule 9.3)."""
    board = state.config.board
    choosing = None
    if state.phase is Phase.CHOOSING and state.chooser is not None:
        choosing = (board.characters[state.resolving].name, state.chooser)
    return RevolutionView(
        seat=seat,
        round=state.round,
        phase=state.phase,
        support=state.support,
        held=state.held,
        own=None if seat is None else state.held[seat],
        bank=state.bank,
        cubes=tuple((area.name, row) for area, row in zip(board.areas, state.cubes)),
        supply=state.supply,
        bids=state.bids,
        choosing=choosing,
        final=state.final,
    )
