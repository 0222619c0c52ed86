"""The ``"card-table"`` message: every card and faction with its kind, value and names, through its schema (issue 19,
point 10).

A client in another language reads what a card id means from this table alone: the message validates against
its shipped schema (which carries the table as its example), every card a view can show has its entry where
the schema of card ids says (``hand_cards[id]``, ``emperor_cards[id]``, by faction), the names are the words
of :mod:`darkempire.text`, and a loaded table that is not the game's own is refused with the path of the
first wrong field.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from jsonschema import Draft202012Validator

from darkempire.rules.cards import (
    ADD_ON_FOR_PLAYERS,
    EMPEROR_CARDS,
    HAND_CARDS,
    REVOLUTION_CARDS,
    AddOnCard,
    EmperorCard,
    Faction,
    FactionCard,
    ReinforcementCard,
    RevolutionCard,
    Theme,
    faction_name,
)
from darkempire.rules.views import player_view, spectator_view
from darkempire.schema import SCHEMA_FILES, generate_schemas, shipped_schemas
from darkempire.serialization import (
    FORMAT,
    InvalidValueError,
    TooManyItemsError,
    card_table,
    from_json,
    load_card_table,
    message_type,
    to_data,
    to_json,
)
from darkempire.text import plain_text, revealed_line
from darkempire.wire.card_table import CardKind, ThemeNames
from embedding_games import emperor_cards_in, finished_game, hand_cards_in

#: The file of the card table's schema, the one every card id's description points at.
TABLE_FILE = "card-table.json"


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    schema = shipped_schemas()[SCHEMA_FILES[name]]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


# --------------------------------------------------------------------------- the message and its schema


@pytest.mark.spec("9.4")
def test_the_card_table_is_a_message_that_validates_against_its_shipped_schema() -> None:
    data = to_data(card_table())
    assert data["format"] == FORMAT and data["type"] == "card-table" == message_type(card_table())
    assert SCHEMA_FILES["card-table"] == TABLE_FILE
    assert shipped_schemas()[TABLE_FILE] == generate_schemas()[TABLE_FILE]
    _validator("card-table").validate(data)
    assert load_card_table(to_json(card_table())) == card_table() == from_json(to_json(card_table(), indent=2))


@pytest.mark.spec("9.4")
def test_the_schema_ships_the_table_itself_as_its_example() -> None:
    """A client that has only the schema files can read the table from ``card-table.json``."""
    schema = shipped_schemas()[TABLE_FILE]
    assert schema["examples"] == [to_data(card_table())]
    _validator("card-table").validate(schema["examples"][0])


@pytest.mark.spec("9.4")
def test_the_schema_refuses_a_table_of_the_wrong_shape() -> None:
    validator = _validator("card-table")
    for path, value in [
        (("hand_cards", 0, "names", "STEAM_NOIR"), 7),
        (("hand_cards", 70, "kind"), "PLUS_THREE"),
        (("factions", 1, "faction"), "CITY_GUARD"),
        (("add_on_cards", 0, "card"), "FIFTEEN_PLUS"),
        (("emperor_cards", 2, "value"), "10"),
    ]:
        data = to_data(card_table())
        parent: Any = data
        for part in path[:-1]:
            parent = parent[part]
        parent[path[-1]] = value
        assert not validator.is_valid(data), path
    data = to_data(card_table())
    del data["support_cards"]
    assert not validator.is_valid(data)
    data = to_data(card_table())
    data["hand_cards"].append(data["hand_cards"][0])
    assert not validator.is_valid(data)  # 76 hand cards: more than maxItems


# --------------------------------------------------------------------------- what the table says


@pytest.mark.spec("1.1", "1.2")
def test_every_hand_card_is_at_its_id_with_its_kind_faction_value_and_label() -> None:
    table = card_table()
    assert [entry.id for entry in table.hand_cards] == list(range(len(HAND_CARDS)))
    for entry, card in zip(table.hand_cards, HAND_CARDS, strict=True):
        if isinstance(card, FactionCard):
            assert (entry.kind, entry.faction, entry.value) == (CardKind.FACTION_CARD, card.faction, card.value)
            assert entry.faction is Faction(card.id // 13)
            assert 4 <= entry.value <= 8
        else:
            assert (entry.kind, entry.faction, entry.value) == (CardKind.REINFORCEMENT_CARD, None, 3)
        for theme in Theme:
            assert entry.names[theme] == card.label(theme)  # the words of text.card_text and the prompts' labels
    assert sum(e.kind is CardKind.FACTION_CARD for e in table.hand_cards) == 65
    assert sum(e.kind is CardKind.REINFORCEMENT_CARD for e in table.hand_cards) == 10


@pytest.mark.spec("1.1")
def test_every_faction_has_its_name_in_each_theme_and_the_rulebooks_colour() -> None:
    table = card_table()
    assert [entry.faction for entry in table.factions] == list(Faction)
    for entry in table.factions:
        assert [entry.names[t] for t in Theme] == [faction_name(entry.faction, t) for t in Theme]
    assert table.factions[Faction.WORKERS].names[Theme.DARK_EMPIRE] == "Beggars"
    colours = {entry.faction: entry.colour for entry in table.factions if entry.colour is not None}
    assert colours == {Faction.CALENDRICAL_ORDER: "green", Faction.STUDENTS: "blue"}  # rulebook, weekly scoring


@pytest.mark.spec("1.3", "1.4", "1.5", "2.2")
def test_the_other_cards_are_listed_with_their_values() -> None:
    table = card_table()
    assert [(e.id, e.kind, e.value) for e in table.emperor_cards] == [
        (c.id, CardKind.EMPEROR_CARD, c.value) for c in EMPEROR_CARDS
    ]
    assert [(e.card, e.kind, e.value, e.players) for e in table.add_on_cards] == [
        (AddOnCard.FIVE_PLUS, CardKind.ADD_ON_CARD, 5, 4),
        (AddOnCard.TEN_PLUS, CardKind.ADD_ON_CARD, 10, 5),
    ]
    assert all(ADD_ON_FOR_PLAYERS[e.players] is e.card for e in table.add_on_cards)
    for field, kind, value in [
        ("revolution_cards", CardKind.REVOLUTION_CARD, 3),
        ("victor_cards", CardKind.VICTOR_CARD, None),
        ("support_cards", CardKind.SUPPORT_CARD, None),
    ]:
        entries = getattr(table, field)
        assert [(e.faction, e.kind, e.value) for e in entries] == [(f, kind, value) for f in Faction], field
    every_kind = {e.kind for field in ("hand_cards", "emperor_cards", "add_on_cards", "revolution_cards",
                                       "victor_cards", "support_cards") for e in getattr(table, field)}  # fmt: skip
    assert every_kind == set(CardKind)


@pytest.mark.spec("1.3", "1.4")
def test_the_names_are_the_words_the_text_of_a_week_uses() -> None:
    """The revealed line of a week names the revolution card, the emperor card and the add-on as the table does."""
    game = finished_game(4, 1)
    table = card_table()
    shown = 0
    for state in game.states:
        week = state.table
        if week is None or week.emperor_card is None or week.add_on is None:
            continue
        for theme in Theme:
            line = plain_text(revealed_line(week, theme))
            assert table.revolution_cards[week.revolution_card.faction].names[theme] in line
            assert table.emperor_cards[week.emperor_card.id].names[theme] in line
            add_on = next(e for e in table.add_on_cards if e.card is week.add_on)
            assert add_on.names[theme] in line
        shown += 1
    assert shown > 0


@pytest.mark.spec("9.4")
def test_names_are_keyed_by_the_wire_names_of_the_themes() -> None:
    """A client indexes ``names`` with a prompt's ``"theme"``: the keys are the Theme member names."""
    data = to_data(card_table())
    keys = [set(entry["names"]) for field in data if isinstance(data[field], list) for entry in data[field]]
    assert keys and all(k == {t.name for t in Theme} for k in keys)
    assert [f.name for f in ThemeNames.__attrs_attrs__] == [t.name for t in Theme]


# --------------------------------------------------------------------------- card ids in views point at the table


def _card_id_schemas(schema: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, definition in schema.get("$defs", {}).items():
        if name in ("HandCard", "FactionCard", "ReinforcementCard", "EmperorCard", "RevolutionCard", "Faction",
                    "AddOnCard"):  # fmt: skip
            yield name, definition


#: Where the table lists the cards of each id schema, and the ids it lists there.
_TABLE_FIELD = {
    "HandCard": ("hand_cards[id]", "hand_cards"),
    "FactionCard": ("hand_cards[id]", "hand_cards"),
    "ReinforcementCard": ("hand_cards[id]", "hand_cards"),
    "EmperorCard": ("emperor_cards[id]", "emperor_cards"),
    "RevolutionCard": ("revolution_cards", "revolution_cards"),
    "Faction": ("factions", "factions"),
    "AddOnCard": ("add_on_cards", "add_on_cards"),
}


@pytest.mark.spec("9.4")
def test_every_card_id_schema_points_at_the_table_and_covers_exactly_its_entries() -> None:
    data = to_data(card_table())
    seen = set()
    for file, schema in shipped_schemas().items():
        for name, definition in _card_id_schemas(schema):
            pointer, field = _TABLE_FIELD[name]
            assert TABLE_FILE in definition["description"] and pointer in definition["description"], (file, name)
            if "minimum" in definition:  # an id: every id the schema allows has its entry, and no other
                allowed = set(range(definition["minimum"], definition["maximum"] + 1))
                listed = {entry["id"] for entry in data[field]}
                assert allowed <= listed, (file, name)
            elif "enum" in definition:
                key = "card" if field == "add_on_cards" else "faction"
                assert definition["enum"] == [entry[key] for entry in data[field]], (file, name)
            seen.add((file, name))
    assert {name for _, name in seen} == set(_TABLE_FIELD)
    assert ("player-view.json", "HandCard") in seen and ("prompt.json", "EmperorCard") in seen


def _view_cards(view: Any) -> Iterator[object]:
    yield from hand_cards_in(view)
    yield from emperor_cards_in(view)
    stack = [view]
    while stack:  # revolution cards, factions and add-on cards, which the helpers above do not collect
        item = stack.pop()
        if isinstance(item, (RevolutionCard, Faction, AddOnCard)):
            yield item
        elif isinstance(item, (tuple, frozenset)):
            stack += list(item)
        elif attrs.has(type(item)) and not isinstance(item, (FactionCard, ReinforcementCard, EmperorCard)):
            stack += [getattr(item, f.name) for f in attrs.fields(type(item))]


@functools.cache
def _table_data() -> dict[str, Any]:
    return to_data(card_table())


def _table_entry(card: object) -> dict[str, Any]:
    """The card's entry, found as a client finds it: by the card's JSON form and the schema's pointer."""
    data = _table_data()
    if isinstance(card, EmperorCard):
        return dict(data["emperor_cards"][card.id])
    if isinstance(card, (FactionCard, ReinforcementCard)):
        return dict(data["hand_cards"][card.id])
    if isinstance(card, RevolutionCard):
        return dict(data["revolution_cards"][card.faction])
    if isinstance(card, AddOnCard):
        return dict(next(e for e in data["add_on_cards"] if e["card"] == card.name))
    assert isinstance(card, Faction)
    return dict(data["factions"][card])


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_card_a_view_shows_has_its_entry_in_the_table(players: int) -> None:
    game = finished_game(players, 2)
    found: set[object] = set()
    for index, state in enumerate(game.states):
        if index % 7:
            continue
        for view in (spectator_view(state), *(player_view(state, s) for s in state.seats)):
            for card in _view_cards(view):
                entry = _table_entry(card)
                name = entry["names"][Theme.STEAM_NOIR.name]
                if isinstance(card, (FactionCard, ReinforcementCard)):
                    assert entry["id"] == card.id and name == card.label(Theme.STEAM_NOIR)
                elif isinstance(card, EmperorCard):
                    assert entry["id"] == card.id and entry["value"] == card.value
                elif isinstance(card, RevolutionCard):
                    assert entry["faction"] == card.faction.name and entry["value"] == card.value
                found.add(type(card))
    assert {FactionCard, EmperorCard, RevolutionCard, Faction} <= found
    assert players == 3 or AddOnCard in found


# --------------------------------------------------------------------------- loading refuses another table


def _tampered(path: tuple[str | int, ...], value: Any) -> str:
    data = copy.deepcopy(to_data(card_table()))
    parent: Any = data
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return json.dumps(data)


@pytest.mark.spec("1.2", "1.3", "9.4")
@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("hand_cards", 3, "value"), 8),
        (("hand_cards", 70, "faction"), "WORKERS"),
        (("hand_cards", 1, "kind"), "REINFORCEMENT_CARD"),
        (("hand_cards", 12, "names", "DARK_EMPIRE"), "Workers 8 #12"),
        (("emperor_cards", 7, "value"), 14),
        (("add_on_cards", 1, "players"), 4),
        (("factions", 0, "colour"), "red"),
        (("revolution_cards", 2, "value"), 4),
    ],
    ids=lambda v: str(v),
)
def test_a_table_that_is_not_the_games_own_is_refused_naming_the_field(path: tuple[str | int, ...], value: Any) -> None:
    with pytest.raises(InvalidValueError) as caught:
        load_card_table(_tampered(path, value))
    expected = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert caught.value.path == re.sub(r"\.names\.\w+$", ".names", expected)


@pytest.mark.spec("9.4")
def test_a_table_with_a_card_missing_or_too_many_is_refused() -> None:
    data = to_data(card_table())
    data["victor_cards"].pop()
    with pytest.raises(InvalidValueError) as short:
        load_card_table(json.dumps(data))
    assert short.value.path == "victor_cards"
    data = to_data(card_table())
    data["hand_cards"] *= 2
    with pytest.raises(TooManyItemsError) as long:
        load_card_table(json.dumps(data))
    assert long.value.path == "hand_cards" and "75 hand cards" in str(long.value)


@pytest.mark.spec("1.4")
def test_revolution_cards_are_listed_in_the_order_of_their_factions() -> None:
    assert [e.faction for e in card_table().revolution_cards] == [c.faction for c in REVOLUTION_CARDS]
