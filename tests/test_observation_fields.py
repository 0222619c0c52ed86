"""The adapters' observation string and tensor hold the same information (OpenSpiel #1086, spec 9.4).

Both are rendered from one structure (:func:`darkempire.adapters.core.observation_fields`). For every pair of
observations of random games of 3, 4 and 5 players (every seat, the spectator and the private-only observer,
at every flow, and at states where only some seats have chosen), different strings <=> different tensors,
for the whole observation and for each field on its own. Targeted pairs differ in exactly one of the fields
the tensor used to drop: the seat's pending choice, a month's revealed support, the verdict's victor factions
and totals, the week a card was placed, which table belonged to which week, and the deal's progress. A
planted bug (a field dropped from the tensor) is caught.

Needs numpy (both adapter extras bring it); neither OpenSpiel nor PettingZoo.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest

np = pytest.importorskip("numpy")

from darkempire.rules import engine  # noqa: E402
from darkempire.rules.actions import PassCards, PlayNothing, Reorganize  # noqa: E402
from darkempire.adapters import core  # noqa: E402
from darkempire.rules.cards import HAND_CARDS, Faction  # noqa: E402
from darkempire.rules.state import GameState, ScoredCard, ScoreTrack  # noqa: E402
from darkempire.rules.views import PlayerView, player_view, spectator_view  # noqa: E402

PLAYERS = (3, 4, 5)
#: Observer kinds: (public, private).
KINDS = ((True, True), (True, False), (False, True))


def random_flows(players: int, seed: int) -> Iterator[core.Flow]:
    """Every flow of one game with uniformly random chance outcomes and legal actions."""
    rng = random.Random(seed)
    flow = core.Flow.new(players)
    yield flow
    while not flow.is_over:
        if flow.is_chance:
            flow = flow.apply_chance(rng.choice(flow.chance_outcomes())[0])
        else:
            flow = flow.apply_joint([rng.choice(flow.legal(s)) for s in range(players)])
        yield flow


def partly_chosen(state: GameState, rng: random.Random) -> GameState | None:
    """``state`` after the first awaited seat chose at random, the others not yet (as in the AEC env)."""
    awaited = sorted(engine.awaited_seats(state))
    if len(awaited) < 2:
        return None
    seat = awaited[0]
    return engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


def tensor_of(fields: tuple[core.Group, ...], players: int) -> bytes:
    flat = np.zeros(core.tensor_size(players), dtype=np.float32)
    core.fill_fields(flat, fields, players)
    return bytes(flat.tobytes())


@attrs.define
class Equivalence:
    """Collects (text, tensor) pairs of one kind of observation and of each field; checks both directions."""

    players: int
    whole: dict[str, set[bytes]] = attrs.Factory(dict)
    back: dict[bytes, set[str]] = attrs.Factory(dict)
    fields: dict[str, tuple[dict[str, set[bytes]], dict[bytes, set[str]]]] = attrs.Factory(dict)
    count: int = 0

    def add(self, text: str, fields: tuple[core.Group, ...]) -> None:
        self.count += 1
        flat = np.zeros(core.tensor_size(self.players), dtype=np.float32)
        core.fill_fields(flat, fields, self.players)
        assert text == core.fields_text(fields)
        tensor = bytes(flat.tobytes())
        self.whole.setdefault(text, set()).add(tensor)
        self.back.setdefault(tensor, set()).add(text)
        offset = 0
        pieces = dict(core.tensor_layout(self.players))
        for group in fields:
            present, offset = bytes(flat[offset : offset + 1].tobytes()), offset + 1
            for name, value in group.fields:
                key = f"{group.key}.{name}"
                size = int(np.prod(pieces[key]))
                piece = present + bytes(flat[offset : offset + size].tobytes())  # with the group's presence cell
                shown = f"{group.present}:{value.text() if group.present else ''}"
                forth, backward = self.fields.setdefault(key, ({}, {}))
                forth.setdefault(shown, set()).add(piece)
                backward.setdefault(piece, set()).add(shown)
                offset += size
        assert offset == flat.size

    def check(self) -> None:
        """Equal strings <=> equal tensors, for the whole observation and for each field."""
        split = {t[:300]: len(v) for t, v in self.whole.items() if len(v) > 1}
        assert not split, f"one string, several tensors: {split}"
        merged = [sorted(v)[:2] for v in self.back.values() if len(v) > 1]
        assert not merged, f"one tensor, several strings: {merged[:1]}"
        for key, (forth, backward) in self.fields.items():
            assert all(len(v) == 1 for v in forth.values()), f"field {key}: one text, several tensor pieces"
            bad = [sorted(v) for v in backward.values() if len(v) > 1]
            assert not bad, f"field {key}: one tensor piece, several texts: {bad[:1]}"


def collect(
    players: int, seeds: range, step: int = 1, kinds: tuple[tuple[bool, bool], ...] = KINDS
) -> dict[tuple[bool, bool], Equivalence]:
    """Observations of each kind at every ``step``-th flow of random games, and at partly chosen states."""
    rng = random.Random(players)
    found = {kind: Equivalence(players) for kind in kinds}
    for seed in seeds:
        for k, flow in enumerate(random_flows(players, seed)):
            if k % step:
                continue
            for public, private in kinds:
                for seat in (*range(players), None):
                    if seat is None and (private or not public):
                        continue
                    fields = core.observation_fields(flow, seat, public=public, private=private)
                    text = core.observation_text(flow, seat, public=public, private=private)
                    found[public, private].add(text, fields)
            state = flow.state
            if state is not None and not flow.is_chance and not state.is_over:
                partial = partly_chosen(state, rng)
                if partial is not None and (True, True) in found:
                    for seat in range(players):
                        view = player_view(partial, seat)
                        found[True, True].add(core.view_text(view), core.view_fields(view))
    return found


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_strings_and_tensors_of_random_games_determine_each_other(players: int) -> None:
    """Over random games: different observation strings <=> different tensors, whole and field by field."""
    found = collect(players, range(1), step=2)
    for kind, eq in found.items():
        assert eq.count > 300, kind
        eq.check()
    assert len(found[True, True].whole) > 200  # the property is about many different observations


@pytest.mark.spec("9.4")
def test_a_field_dropped_from_the_tensor_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: the pending choice left out of the tensor (as before OpenSpiel #1086's fix)."""
    full = ((True, True),)
    collect(4, range(1), step=4, kinds=full)[True, True].check()
    monkeypatch.setattr(core.ActionOf, "cells", lambda self: [])
    with pytest.raises(AssertionError, match="field private.pending: one tensor piece, several texts"):
        collect(4, range(1), step=4, kinds=full)[True, True].check()


# --------------------------------------------------------------------------- targeted pairs


def late_state(players: int = 4, seed: int = 1) -> GameState:
    """The last state of a random game: history, month scores, score track and verdict all filled in."""
    *_, last = random_flows(players, seed)
    assert last.state is not None and last.state.verdict is not None
    return last.state


def _assert_told_apart(a: PlayerView, b: PlayerView) -> None:
    assert core.view_text(a) != core.view_text(b), "the pair is meant to differ"
    assert tensor_of(core.view_fields(a), a.players) != tensor_of(core.view_fields(b), b.players)


def _with_pending(view: PlayerView) -> list[PlayerView]:
    hand = sorted(HAND_CARDS[:9], key=lambda c: c.id)
    return [
        attrs.evolve(view, pending=None),
        attrs.evolve(view, pending=PlayNothing()),
        attrs.evolve(view, pending=PassCards(frozenset(hand[:2]))),
        attrs.evolve(view, pending=PassCards(frozenset(hand[1:3]))),
        attrs.evolve(view, pending=Reorganize(None, frozenset(hand[:1]))),
        attrs.evolve(view, pending=Reorganize(hand[2], frozenset(hand[:1]))),
    ]


@pytest.mark.spec("9.4")
def test_the_pending_choice_is_in_the_tensor() -> None:
    """The seat's own pending choice: none, or which one."""
    view = player_view(late_state(), 0)
    variants = _with_pending(view)
    for i, a in enumerate(variants):
        for b in variants[i + 1 :]:
            _assert_told_apart(a, b)


@pytest.mark.spec("9.4", "7.1")
def test_each_months_revealed_support_is_in_the_tensor() -> None:
    view = spectator_view(late_state())
    scores = list(view.month_scores)
    first = scores[0]
    support = list(first.support)
    support[0] = next(f for f in Faction if f is not support[0])
    scores[0] = attrs.evolve(first, support=tuple(support))
    _assert_told_apart(view, attrs.evolve(view, month_scores=tuple(scores)))
    totals = (first.totals[0] + 1, *first.totals[1:])
    _assert_told_apart(view, attrs.evolve(view, month_scores=(attrs.evolve(first, totals=totals), *scores[1:])))


@pytest.mark.spec("9.4", "8.1")
def test_the_verdicts_victors_and_totals_are_in_the_tensor() -> None:
    view = spectator_view(late_state())
    verdict = view.verdict
    assert verdict is not None
    swapped = (verdict.victors[1], verdict.victors[0], *verdict.victors[2:])
    _assert_told_apart(view, attrs.evolve(view, verdict=attrs.evolve(verdict, victors=swapped)))
    totals = (verdict.totals[0] + 1, *verdict.totals[1:])
    _assert_told_apart(view, attrs.evolve(view, verdict=attrs.evolve(verdict, totals=totals)))


@pytest.mark.spec("9.4", "5.5")
def test_the_week_a_card_was_placed_is_in_the_tensor() -> None:
    view = spectator_view(late_state())
    cards = list(view.score_track.faction_cards)
    assert cards
    first: ScoredCard = cards[0]
    cards[0] = attrs.evolve(first, week=first.week % 4 + 1)
    track = ScoreTrack(tuple(cards), view.score_track.emperor_cards)
    _assert_told_apart(view, attrs.evolve(view, score_track=track))


@pytest.mark.spec("9.4")
def test_which_table_belonged_to_which_week_is_in_the_tensor() -> None:
    """Two finished weeks' tables swapped: the same cards were played, in other weeks."""
    view = spectator_view(late_state())
    history = list(view.history)
    a, b = history[0], history[1]
    history[0], history[1] = attrs.evolve(a, table=b.table), attrs.evolve(b, table=a.table)
    _assert_told_apart(view, attrs.evolve(view, history=tuple(history)))


@pytest.mark.spec("9.4", "2.4")
def test_the_deals_progress_is_in_the_public_tensor() -> None:
    """During the deal the public observation tells how many cards are dealt."""
    flows = [f for f in list(random_flows(3, 0))[:40] if f.state is None]
    assert len(flows) > 20
    texts = {core.observation_text(f, None) for f in flows}
    tensors = {tensor_of(core.observation_fields(f, None), 3) for f in flows}
    assert len(texts) == len(flows) == len(tensors)


# --------------------------------------------------------------------------- fixed shape, sound labels


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_the_tensor_shape_is_fixed_and_every_piece_is_named_once(players: int) -> None:
    layout = core.tensor_layout(players)
    assert len({name for name, _ in layout}) == len(layout)
    flat, pieces = core.make_pieces(players)
    assert flat.shape == (core.tensor_size(players),) and list(pieces) == [name for name, _ in layout]
    for flow in list(random_flows(players, 3))[::40]:
        for seat in (*range(players), None):
            fields = core.observation_fields(flow, seat)
            assert [(f"{g.key}.{n}", v.shape) for g in fields for n, v in g.fields] == [
                entry for entry in layout if not entry[0].endswith(".present")
            ]


def _labels(value: core.FieldValue) -> list[tuple[str, ...]]:
    if isinstance(value, (core.OneOf, core.SetOf)):
        return [value.labels]
    if isinstance(value, core.Rows):
        return [value.keys, *(c.labels for c in value.columns)]
    return []


@pytest.mark.spec("9.4")
def test_labels_are_distinct_and_free_of_the_separators() -> None:
    """What makes each field's text one-to-one: distinct labels, and no space, comma or semicolon in them
    (a one-of's single label may hold spaces: it stands alone)."""
    for players in PLAYERS:
        for group in core.observation_fields(core.Flow.new(players), 0):
            for name, value in group.fields:
                for labels in _labels(value):
                    assert len(set(labels)) == len(labels), f"{group.key}.{name}"
                    assert not any(set(label) & set(" ,;\n") for label in labels), f"{group.key}.{name}"
                    assert "-" not in labels
