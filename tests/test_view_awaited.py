"""player_view's ``awaited`` keyword: a driver that counted the awaited seats hands them to the view (spec 9.4)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from darkempire.rules.actions import Action
from darkempire.bots import RandomBot, run_game
from darkempire.rules.engine import apply, awaited_seats, deal, legal_actions
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameConfig
from darkempire.rules.views import PlayerView, player_view


@pytest.mark.spec("9.4")
def test_a_view_given_the_awaited_seats_is_the_view_that_counts_them() -> None:
    state = deal(GameConfig(players=4), 3)
    bot = RandomBot(1)
    for _ in range(60):  # the draft, the support choice and the first weeks' plays, with pending choices
        awaited = awaited_seats(state)
        seat = max(awaited)
        given = player_view(state, seat, awaited=awaited)
        assert given == player_view(state, seat)
        assert given.awaited is awaited
        state = apply(state, seat, bot.choose(given, legal_actions(state, seat)))


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("awaited", [{0, 1}, [0], (0,)])
def test_awaited_seats_in_a_mutable_or_other_collection_are_refused(awaited: object) -> None:
    state = deal(GameConfig(players=3), 1)
    with pytest.raises(InvalidArgumentError, match="frozenset"):
        player_view(state, 0, awaited=awaited)  # type: ignore[arg-type]


class _Recorder:
    """A RandomBot that keeps every view it is shown."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.views.append(view)
        return self.bot.choose(view, legal)


@pytest.mark.spec("9.2", "9.4")
def test_the_driver_shows_each_bot_the_view_player_view_counts() -> None:
    config = GameConfig(players=3)
    recorders = [_Recorder(s) for s in range(3)]
    plain = [RandomBot(s) for s in range(3)]
    assert run_game(config, 5, recorders) == run_game(config, 5, plain)
    state = deal(config, 5)
    replaying = [RandomBot(s) for s in range(3)]
    shown = [iter(r.views) for r in recorders]
    while not state.is_over:
        seat = min(awaited_seats(state))
        view = next(shown[seat])
        assert view == player_view(state, seat)
        state = apply(state, seat, replaying[seat].choose(view, legal_actions(state, seat)))
