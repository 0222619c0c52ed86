"""What the server sends each seat is made once per choice and reused (labels once per decision): the reuse
must never show a seat anything but what the prompt would say if made afresh from its view."""

from __future__ import annotations

from typing import Any

import pytest

from darkempire.rules import engine
from darkempire.rules.views import player_view, spectator_view
from darkempire.serialization import from_data, to_data
from darkempire.server.match import Match
from darkempire.server.storage import SQLiteStorage, StoredMatch
from darkempire.wire.prompts import Prompt, check_prompt


class _Outbox:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.prompts: list[dict[str, Any]] = []

    def put(self, message: dict[str, Any]) -> None:
        if "prompt" in message:
            self.prompts.append(message["prompt"])


def _afresh(match: Match, seat: int | None) -> dict[str, Any]:
    """The prompt of ``seat`` now, made from nothing but the state, its labels by the prompt itself."""
    if seat is None:
        return to_data(Prompt(spectator_view(match.state), ()))
    return to_data(Prompt(player_view(match.state, seat), tuple(engine.legal_actions(match.state, seat))))


@pytest.mark.parametrize("seed", [7, 11])
def test_every_prompt_sent_in_a_whole_game_is_the_one_made_afresh(seed: int) -> None:
    bots = (None, "greedy", None, "random")
    stored = StoredMatch("m1", len(bots), "steam-noir", seed, bots, 0.0)
    storage = SQLiteStorage(":memory:")
    storage.create_match(stored)
    match = Match(stored)
    boxes = [_Outbox(seat) for seat in (0, 2, 0, None)]  # two connections of seat 0
    for box in boxes:
        match.subscribe(box, None)
    match.play_bots(storage)
    sent = 0
    while not match.is_over:
        seat = min(engine.awaited_seats(match.state) - match.bot_seats())
        match.accept(seat, engine.legal_actions(match.state, seat)[-1], storage)
        for box in boxes:
            assert box.prompts[-1] == _afresh(match, box.seat)
        match.play_bots(storage)
    for box in boxes:
        for data in box.prompts:
            prompt = from_data({**data}, "prompt")
            assert isinstance(prompt, Prompt)
            check_prompt(prompt)  # the labels are prompt_labels' of its view and actions
            sent += 1
    assert boxes[0].prompts == boxes[2].prompts
    assert sent > 400
