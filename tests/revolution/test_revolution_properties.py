"""Revolution!: invariants over random whole games (Hypothesis): tokens and cubes are conserved, support is
never lost, the game ends exactly when the board fills, every round runs its phases in order, and no seat sees
another's bid before the reveal.

One test plays each random game once and checks every invariant on it, so that the suite stays fast."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

import attrs
from hypothesis import given
from hypothesis import strategies as st

from revolution.rules.actions import Action
from revolution.rules.events import BidTokensReturned, BidsRevealed, CharacterResolved, GameEnded, PatronageGiven
from revolution.rules.events import RevolutionEvent, RoundStarted, TokensGained
from revolution.rules.game import GAME
from revolution.rules.state import Phase, RevolutionConfig, RevolutionState
from revolution.rules.tokens import Tokens
from revolution_builders import total_tokens
from tablekit.bots import RandomBot
from tablekit.chance import SeededChance
from tablekit.events import Event, events_for
from tablekit.simultaneous import ChoiceMade, Round, choose, start

configs = st.builds(RevolutionConfig, players=st.sampled_from([3, 4]), bid_refunds=st.booleans(),
                    area_control_bonus=st.booleans())


@attrs.frozen
class Moment:
    """One choice of a random game: the round before it, the seat, its action, and the step's events if it
    resolved the step (the collector's own events too)."""

    before: Round[RevolutionState, Action]
    seat: int
    action: Action | None
    after: Round[RevolutionState, Action]
    events: tuple[Event[RevolutionEvent], ...]
    collector: tuple[Event[object], ...]


def moments(config: RevolutionConfig, seed: int) -> Iterator[Moment]:
    """A whole game between random bots, choice by choice through the kit's collector."""
    round, opening = start(GAME, config, SeededChance(seed))
    bots: list[RandomBot[Action]] = [RandomBot(seed * 10 + seat) for seat in range(config.players)]
    yield Moment(round, -1, None, round, opening.events, ())
    while not GAME.is_over(round.state):
        seat = min(GAME.awaited(round.state) - round.chosen)
        action = bots[seat].choose(GAME.view(round.state, seat), GAME.legal_actions(round.state, seat))
        collected = choose(GAME, round, seat, action)
        events = collected.transition.events if collected.transition is not None else ()
        yield Moment(round, seat, action, collected.round, events, tuple(collected.events))
        round = collected.round
        assert round.state.round < 60, "a random game should end long before"


def _conserved(state: RevolutionState, previous: RevolutionState | None) -> None:
    """Tokens (R-E), cubes (rule 1.1, R-H, R-I) and support (rule 1.2)."""
    board = state.config.board
    assert total_tokens(state) == board.tokens_in_box
    for seat in range(state.players):
        assert state.supply[seat] + sum(row[seat] for row in state.cubes) == board.cubes_per_player == 25
        assert state.supply[seat] >= 0
    assert all(sum(row) <= area.spaces for row, area in zip(state.cubes, board.areas))
    if previous is not None:
        assert all(now >= then for now, then in zip(state.support, previous.support))


def _rounds(state: RevolutionState, payloads: Sequence[RevolutionEvent]) -> None:
    """Rules 3.1, 5.1, 6.1, 7.1, R-F, R-N on one step's events."""
    if any(isinstance(p, RoundStarted) for p in payloads):  # a new round: the board is not full
        assert not state.board_full and state.phase is Phase.BIDDING
        assert all(tokens.total >= 5 for tokens in state.held)  # Patronage topped everyone up
    if any(isinstance(p, GameEnded) for p in payloads):
        assert state.is_over and state.board_full
    if not state.config.bid_refunds:  # the bank never runs short in the base game (R-F)
        assert all(p.short == Tokens() for p in payloads if isinstance(p, TokensGained))
        assert all(p.short == 0 for p in payloads if isinstance(p, PatronageGiven))


def _phases(config: RevolutionConfig, log: list[RevolutionEvent]) -> None:
    """Espionage, the reveal, the twelve characters in board order, the bid tokens returned after the last of
    them (R-N), then Patronage and the next Espionage, or the end."""
    names = [character.name for character in config.board.characters]
    starts = [i for i, p in enumerate(log) if isinstance(p, RoundStarted)]
    for begin, end in zip(starts, [*starts[1:], len(log)]):
        kinds = [type(p) for p in log[begin:end]]
        assert kinds[1] is BidsRevealed
        assert [p.character for p in log[begin:end] if isinstance(p, CharacterResolved)] == names
        assert kinds.index(BidTokensReturned) > max(i for i, k in enumerate(kinds) if k is CharacterResolved)
    assert isinstance(log[-1], GameEnded) and len(starts) == sum(isinstance(p, BidsRevealed) for p in log)


def _hidden(moment: Moment) -> None:
    """While bids are pending in the collector, every seat's and the spectator's view is the view of the state
    without them, and the collector's event shows a bid to its own seat only; the bids appear for everyone
    together, in the reveal (rules 4.1, 9.3)."""
    state, players = moment.before.state, moment.before.state.players
    for viewer in (*range(players), None):
        if not moment.events:  # still collecting: nobody sees a bid
            seen = GAME.view(moment.after.state, viewer)
            assert seen.bids == () and seen == GAME.view(state, viewer)
        made = events_for(moment.collector, viewer)
        assert all(isinstance(e, ChoiceMade) for e in made)
        assert all((e.action is not None) == (e.seat == viewer) for e in made if isinstance(e, ChoiceMade))
    if moment.events:  # the last bid: the reveal shows all of them to everyone at once
        revealed = [p for p in events_for(moment.events, None) if isinstance(p, BidsRevealed)]
        assert len(revealed) == 1 and revealed[0].bids[moment.seat] == moment.action


@pytest.mark.spec("revolution:1.1", "revolution:1.2", "revolution:1.6", "revolution:3.1", "revolution:4.1",
                  "revolution:5.1", "revolution:5.9", "revolution:6.1", "revolution:7.1", "revolution:9.3",
                  "revolution:R-E", "revolution:R-F", "revolution:R-H", "revolution:R-I", "revolution:R-N")
@given(configs, st.integers(0, 10**6))
def test_random_games_keep_every_invariant(config: RevolutionConfig, seed: int) -> None:
    previous: RevolutionState | None = None
    log: list[RevolutionEvent] = []
    for moment in moments(config, seed):
        state = moment.after.state
        payloads = [event.payload for event in moment.events]
        log += payloads
        _conserved(state, previous)
        _rounds(state, payloads)
        if moment.seat >= 0 and moment.before.state.phase is Phase.BIDDING:
            _hidden(moment)
        previous = state
    assert previous is not None and previous.is_over and previous.board_full
    _phases(config, log)
