"""Hostile review 2026-12-02, the engine's findings: forged actions in listings (F08), forged events (F09) and
hand-built states (F11).

* F08: ``in``, ``index`` and ``count`` on every listing answer without ``AttributeError`` for a value built
  without its fields, and ``value in legal_actions(state, seat)`` implies that ``apply`` accepts ``value``: a
  subclass of an action class whose ``__eq__`` says True of everything is in no listing (``apply`` refuses it).
* F09: ``events_for`` and ``redacted()`` of an event built without its fields raise a typed error.
* F11: a hand-built state whose phase is no :class:`Phase`, whose table is no table, whose hand is ``None`` or
  whose per-seat tuples do not match the player count gets a typed error naming the field, never an
  ``AttributeError``, ``TypeError`` or ``IndexError``, and ``apply`` returns no corrupted state; and
  :func:`darkempire.validity.check_state`, which a hand-built state must pass, refuses each of them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from typing import Any, cast

import attrs
import pytest

from builders import ST, build, emperor, plus, random_choice, week_table
from darkempire.rules import engine
from darkempire.rules.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    PlayNothing,
    Reinforce,
    Reorganize,
    Side,
)
from darkempire.rules.cards import HAND_CARDS, FactionCard
from darkempire.rules.errors import DarkEmpireError, IllegalActionError, InvalidArgumentError
from darkempire.rules.events import (
    EVENT_TYPES,
    CardsPassed,
    ChoiceMade,
    DraftDiscarded,
    HandDealt,
    HandRefilled,
    as_kit_event,
    events_for,
    opening_events,
)
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.views import player_view, spectator_view
from darkempire.validity import InconsistentStateError, check_state
from tablekit.errors import KitError, NotListedError

# --------------------------------------------------------------------------- F08: forged actions in listings


def _decisions(players: int, seed: int) -> Iterator[tuple[GameState, int]]:
    """Every (state, awaited seat) of a seeded random game, one seat choosing at a time."""
    rng = random.Random(seed)
    state = engine.deal(GameConfig(players=players), seed)
    while not state.is_over:
        seat = min(engine.awaited_seats(state))
        yield state, seat
        state = engine.apply(state, seat, random_choice(state, seat, rng))


def _first(phase: Phase) -> tuple[GameState, int]:
    for seed in range(200):
        for state, seat in _decisions(4, seed):
            if state.phase is phase:
                return state, seat
    raise AssertionError(f"no {phase} decision in 200 games")


def _idle() -> tuple[GameState, int]:
    """Seat 0 holds only reinforcement cards at the first step: PlayNothing alone is listed (ruling H)."""
    table = week_table(3, ST, emperor(8), steps_revealed=0)
    return build(3, Phase.PLAY_1, hands={0: [plus(k) for k in range(7)]}, table=table), 0


WHERE: dict[str, Callable[[], tuple[GameState, int]]] = {
    phase.name: functools.partial(_first, phase)
    for phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD, Phase.CHOOSE_SUPPORT, Phase.PLAY_2, Phase.PLACEMENT, Phase.REORGANIZE)
}
WHERE["PLAY_NOTHING"] = _idle

KINDS: tuple[type[Action], ...] = (
    PassCards, DiscardCards, ChooseSupport, PlayCard, Reinforce, PlayNothing, PlaceCards, Reorganize
)  # fmt: skip


def _liar(kind: type[Action]) -> type[Any]:
    """A subclass of ``kind`` that says it equals everything and hashes like anything of its class would."""
    return type(f"Lying{kind.__name__}", (kind,), {"__eq__": lambda self, other: True, "__hash__": lambda self: 0})


def _refused_everywhere(legal: Any, value: object) -> None:
    assert value not in legal
    assert legal.count(value) == 0
    with pytest.raises(NotListedError) as refused:
        legal.index(value)
    assert isinstance(refused.value, ValueError)  # as a tuple's index raises


@pytest.mark.spec("9.1", "9.2")
@pytest.mark.parametrize("where", [where for where in WHERE if where != "PLAY_NOTHING"])
def test_a_fieldless_action_is_in_no_listing_and_has_no_index(where: str) -> None:
    state, seat = WHERE[where]()
    legal = engine.legal_actions(state, seat)
    assert legal, where
    for kind in KINDS:
        if kind is not PlayNothing:  # PlayNothing has no fields: object.__new__ builds the real thing
            _refused_everywhere(legal, object.__new__(kind))


@pytest.mark.spec("9.1", "9.2")
@pytest.mark.parametrize("where", list(WHERE))
def test_a_subclass_that_equals_everything_is_in_no_listing_as_apply_refuses_it(where: str) -> None:
    state, seat = WHERE[where]()
    legal = engine.legal_actions(state, seat)
    listed = legal[0]
    fieldless = object.__new__(_liar(type(listed)))
    with_fields = _liar(type(listed))(*attrs.astuple(listed, recurse=False))
    for liar in (fieldless, with_fields):
        assert liar == listed  # what a tuple's ``in`` would go by
        _refused_everywhere(legal, liar)
        with pytest.raises(IllegalActionError):
            engine.apply(state, seat, liar)
    if where == "PLAY_NOTHING":  # PlayNothing has no fields: object.__new__ builds the real thing
        nothing = object.__new__(PlayNothing)
        assert nothing in legal and legal.index(nothing) == 0 and legal.count(nothing) == 1
        engine.apply(state, seat, nothing)  # in the listing, so apply takes it


class _LyingCard(FactionCard):
    """A faction card subclass equal to every card, hashing like the card it copies."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(HAND_CARDS[self.id])


class _LyingSide:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(Side.REVOLUTION)


def _with(action: Action, name: str, value: object) -> object:
    """A copy of ``action`` with field ``name`` set to ``value`` as is, past the class's converters."""
    forged = object.__new__(type(action))
    for field in attrs.fields(type(action)):
        object.__setattr__(forged, field.name, getattr(action, field.name))
    object.__setattr__(forged, name, value)
    return forged


def _lying(card: FactionCard) -> _LyingCard:
    return _LyingCard(card.id, card.faction, card.value)


def _forgeries(action: Action) -> list[object]:
    """Values that compare equal to ``action`` but hold something that is not the game's own, and an exact
    copy of it (which apply takes)."""
    out: list[object] = [attrs.evolve(action)]
    for field in attrs.fields(type(action)):
        value = getattr(action, field.name)
        if isinstance(value, frozenset):
            out.append(_with(action, field.name, set(value)))
            faction_cards = sorted((c for c in value if isinstance(c, FactionCard)), key=lambda c: c.id)
            if faction_cards:
                out.append(_with(action, field.name, (value - {faction_cards[0]}) | {_lying(faction_cards[0])}))
        elif isinstance(value, Side):
            out.append(_with(action, field.name, _LyingSide()))
        elif isinstance(value, FactionCard):
            out.append(_with(action, field.name, _lying(value)))
    return out


@pytest.mark.spec("9.1", "9.2")
@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (5, 3)])
def test_in_a_listing_means_apply_accepts_it(players: int, seed: int) -> None:
    refused_in = 0
    for state, seat in _decisions(players, seed):
        legal = engine.legal_actions(state, seat)
        for position in sorted({0, len(legal) // 2, len(legal) - 1}):
            action = legal[position]
            assert legal.index(action) == position and legal.count(action) == 1
            for value in _forgeries(action):
                try:
                    listed = value in legal
                except AttributeError as error:  # pragma: no cover - the defect this test is about
                    pytest.fail(f"{type(value).__name__} in a listing raised {error!r}")
                try:
                    engine.apply(state, seat, cast(Action, value))
                except DarkEmpireError:
                    assert not listed, f"{value!r} is listed, yet apply refuses it"
                    refused_in += 1
    assert refused_in > 0  # the forgeries did reach apply's refusals


# --------------------------------------------------------------------------- F09: events built without fields

PRIVATE_EVENTS = (HandDealt, ChoiceMade, DraftDiscarded, HandRefilled, CardsPassed)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("kind", EVENT_TYPES, ids=lambda kind: kind.__name__)
@pytest.mark.parametrize("viewer", [0, None])
def test_events_for_refuses_an_event_built_without_its_fields(kind: type, viewer: int | None) -> None:
    forged: Any = object.__new__(kind)
    with pytest.raises(InvalidArgumentError, match=rf"item 0 given to events_for: a {kind.__name__} without its "):
        events_for([forged], viewer)
    started = opening_events(engine.deal(GameConfig(players=3), 1))
    with pytest.raises(InvalidArgumentError, match="item 3 given to events_for"):
        events_for([*started[:3], forged, *started[3:]], viewer)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("kind", PRIVATE_EVENTS, ids=lambda kind: kind.__name__)
def test_a_private_event_built_without_its_fields_has_no_visibility_nor_redaction(kind: type) -> None:
    forged: Any = object.__new__(kind)
    with pytest.raises(InvalidArgumentError, match=rf"a {kind.__name__} without its [a-z_]+ is no event"):
        forged.visibility
    if kind not in (HandDealt, HandRefilled):  # these hide the whole event: nothing to build, no field read
        with pytest.raises(InvalidArgumentError, match=rf"a {kind.__name__} without its [a-z_]+ is no event"):
            forged.redacted()
    else:
        assert forged.redacted() is None
    with pytest.raises(InvalidArgumentError):
        as_kit_event(forged)


# --------------------------------------------------------------------------- F11: hand-built states


def _week_state() -> GameState:
    """A 4-player state at the second play step, every seat awaited."""
    rng = random.Random(3)
    state = engine.deal(GameConfig(players=4), 3)
    while state.phase is not Phase.PLAY_2:
        seat = min(engine.awaited_seats(state))
        state = engine.apply(state, seat, random_choice(state, seat, rng))
    return state


def _broken(state: GameState) -> dict[str, tuple[GameState, str, str]]:
    """Hand-built states out of shape, each with what the engine's error says and check_state's path."""
    evolve: Any = attrs.evolve  # the fields' declared types are what these states break
    return {
        "phase a str": (evolve(state, phase="play 2"), "phase is a Phase", "phase"),
        "phase None": (evolve(state, phase=None), "phase is a Phase", "phase"),
        "table a str": (evolve(state, table="x"), "table is a WeekTable or None", "table"),
        "a hand None": (evolve(state, hands=(None, *state.hands[1:])), r"hands\[0\] is a tuple of hand", "hands[0]"),
        "hands None": (evolve(state, hands=None), "hands is a tuple", "hands"),
        "3 hands": (evolve(state, hands=state.hands[:3]), "hands has 3 entries for 4 seats", "hands"),
        "3 pending": (evolve(state, pending=state.pending[:3]), "pending has 3 entries for 4 seats", "pending"),
        "5 pending": (evolve(state, pending=(*state.pending, None)), "pending has 5 entries for 4 seats", "pending"),
    }


BROKEN = list(_broken(_week_state()))


def _producers(state: GameState, action: Action) -> dict[str, Callable[[], object]]:
    """The functions that return a state made from ``state``: none may return one from a state out of shape."""
    return {
        "apply": lambda: engine.apply(state, 0, action),
        "apply_reporting": lambda: engine.apply_reporting(state, 0, action),
        "step": lambda: engine.step(state, {0: action}),
    }


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("broken", [b for b in BROKEN if b != "a hand None"])  # seat 0 then has no choice
def test_no_state_is_made_from_a_hand_built_state_out_of_shape(broken: str) -> None:
    state = _week_state()
    action = engine.legal_actions(state, 0)[0]
    bad, field, _ = _broken(state)[broken]
    for name, call in _producers(bad, action).items():
        with pytest.raises(InvalidArgumentError, match=field) as refused:
            call()  # never AttributeError, TypeError, IndexError, nor a state returned with a seat missing
        assert f"{name.split('_')[0]} was given a state no game reaches" in str(refused.value) or "engine" in str(
            refused.value
        )
        assert "check_state" in str(refused.value)
    if "phase" in broken:  # judge_winner makes no state: it reads the phase, and the score track of a game over
        with pytest.raises(InvalidArgumentError, match=field):
            engine.judge_winner(bad)


@pytest.mark.spec("9.1")
def test_the_readers_refuse_what_they_read_out_of_shape_by_name() -> None:
    """The hostile review's calls: each reads the field that is out of shape, and names it."""
    state = _week_state()
    broken = {name: bad for name, (bad, _, _) in _broken(state).items()}
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: engine.legal_actions(broken["table a str"], 0), "legal_actions .* table is a WeekTable"),
        (lambda: engine.legal_actions(broken["a hand None"], 0), r"legal_actions .* hands\[0\] is a tuple"),
        (lambda: player_view(broken["a hand None"], 0), r"player_view .* hands\[0\] is a tuple"),
        (lambda: engine.legal_actions(broken["3 hands"], 3), "legal_actions .* hands has 3 entries for 4 seats"),
        (lambda: engine.legal_actions(broken["3 pending"], 3), "legal_actions .* pending has 3 entries for 4 seats"),
        (lambda: engine.awaited_seats(broken["phase a str"]), "phase is a Phase, not 'play 2'"),
        (lambda: engine.legal_actions(broken["phase None"], 0), "phase is a Phase, not None"),
    ]
    for call, message in calls:
        with pytest.raises(InvalidArgumentError, match=message):
            call()


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("broken", BROKEN)
def test_check_state_refuses_each_hand_built_state_out_of_shape(broken: str) -> None:
    state = _week_state()
    check_state(state)  # the state they are built from is one a game reaches
    bad, _, path = _broken(state)[broken]
    with pytest.raises(InconsistentStateError) as refused:
        check_state(bad)
    assert isinstance(refused.value, KitError) and refused.value.path == path

