"""tablekit.events: visibility and the per-seat filter."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablekit.events import PUBLIC, Event, KnownTo, WrongViewerError, events_for

SEATS = st.integers(0, 4)
EVENTS = st.lists(
    st.one_of(
        st.builds(Event.public, st.text(max_size=3)),
        st.builds(
            Event.private,
            st.text(max_size=3),
            st.frozensets(SEATS, max_size=3),
            others_see=st.none() | st.text(max_size=3).map(lambda t: "redacted " + t),
        ),
    ),
    max_size=8,
)


def test_a_private_event_shows_its_payload_to_its_seats_and_its_redaction_to_others() -> None:
    chose = Event.private("seat 2 chose card 7", {2}, others_see="seat 2 chose")
    dealt = Event.private("seat 1 holds 4", {1})
    log = (Event.public("start"), chose, dealt)
    assert events_for(log, 2) == ("start", "seat 2 chose card 7")
    assert events_for(log, 1) == ("start", "seat 2 chose", "seat 1 holds 4")
    assert events_for(log, None) == ("start", "seat 2 chose")
    assert chose.visibility == KnownTo({2}) and Event.public("x").visibility is PUBLIC


@pytest.mark.parametrize("viewer", [True, -1, 1.0, "0"])
def test_a_viewer_that_is_not_a_seat_number_is_refused(viewer: Any) -> None:
    with pytest.raises(WrongViewerError):
        events_for((Event.public("x"),), viewer)


@given(EVENTS, SEATS | st.none())
def test_the_filter_shows_each_event_by_its_visibility_alone(log: list[Event[str]], seat: int | None) -> None:
    expected = []
    for event in log:
        if isinstance(event.visibility, KnownTo) and seat not in event.visibility.seats:
            if event.others_see is not None:
                expected.append(event.others_see)
        else:
            expected.append(event.payload)
    assert events_for(log, seat) == tuple(expected)
    for event in log:
        if isinstance(event.visibility, KnownTo) and seat not in event.visibility.seats:
            assert event.payload not in events_for([event], seat) or event.payload == event.others_see
