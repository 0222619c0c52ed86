"""tablekit.events under hostile viewers: ``Event.seen_by`` refuses every viewer ``events_for`` refuses.

Hostile review 2026-12-02, F10: ``seen_by`` had no viewer check, so ``True``, ``1.0`` or an ``IntEnum`` member
equal to 1 (all ``== 1``, all hashing like 1) saw seat 1's private payload, while ``events_for`` refused them.
"""

from __future__ import annotations

import enum
from typing import Any

import pytest

from tablekit.events import Event, WrongViewerError, events_for


class _Seat(enum.IntEnum):
    ONE = 1


class _LyingInt(int):
    """An int subclass equal to every seat, the way a forged viewer would try to match ``KnownTo.seats``."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 1


SECRET = Event.private("seat 1 holds card 7", {1}, others_see="seat 1 holds a card")
NOT_VIEWERS: list[Any] = [True, False, 1.0, _Seat.ONE, _LyingInt(5), -1, "1", b"1", (1,), object()]


def _name(viewer: Any) -> str:
    return "object" if type(viewer) is object else f"{type(viewer).__name__}-{viewer!r}"


@pytest.mark.parametrize("viewer", NOT_VIEWERS, ids=_name)
def test_seen_by_refuses_what_events_for_refuses(viewer: Any) -> None:
    with pytest.raises(WrongViewerError):
        events_for((SECRET,), viewer)
    with pytest.raises(WrongViewerError):
        SECRET.seen_by(viewer)


@pytest.mark.parametrize("viewer", NOT_VIEWERS, ids=_name)
def test_seen_by_refuses_a_wrong_viewer_even_of_a_public_event(viewer: Any) -> None:
    # Same answer whatever the event: the check is on the viewer, so it cannot depend on what is hidden.
    with pytest.raises(WrongViewerError):
        Event.public("dealt").seen_by(viewer)


def test_seen_by_answers_seats_and_spectators_but_not_true() -> None:
    with pytest.raises(WrongViewerError):
        SECRET.seen_by(True)
    assert SECRET.seen_by(1) == "seat 1 holds card 7"
    assert SECRET.seen_by(0) == SECRET.seen_by(None) == "seat 1 holds a card"
    assert Event.private("x", {1}).seen_by(2) is None
    assert Event.public("dealt").seen_by(None) == "dealt"
