"""Prompts label every legal action in words, through the prompt's schema (issue 19, point 10).

A client in another language draws its menu from ``labels``: one per legal action, in the same order, unique
within the prompt, in the prompt's theme, and the words of :mod:`darkempire.text` (the ``darkempire`` command's
own). A seat's labels name only its own cards and public ones: like its view (``test_views_leak``), they do not
change when anything the seat may not see changes. The fields a prompt had before labels are written as before,
and a prompt without labels still loads.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable, Iterator

import attrs
import pytest
from jsonschema import Draft202012Validator

from darkempire.rules import engine
from darkempire.rules.actions import Action, ChooseSupport, DiscardCards, PassCards, PlaceCards, PlayCard, Reinforce, Reorganize
from darkempire.rules.cards import HandCard, Theme, faction_name
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameState, Phase
from darkempire.schema import SCHEMA_FILES, shipped_schemas
from darkempire.serialization import InvalidValueError, Prompt, SerializationError, from_data, load_prompt, make_prompt, to_data, to_json
from darkempire.text import action_label, action_text, owner_name, plain_text, seat_name
from embedding_games import finished_game
from test_views_leak import public_cards, resample_hidden

#: The names that only one theme uses (Students is the same in both).
ONLY_IN = {
    Theme.STEAM_NOIR: ("Workers", "Calendrical Order", "Suffragettes", "Mechandros"),
    Theme.DARK_EMPIRE: ("Beggars", "City Guard", "Alchemists", "Apparats"),
}
#: The third person of each imperative a label begins a clause with: text.action_text's verbs.
THIRD_PERSON = {"Pass": "passes", "Discard": "discards", "Support": "supports", "Play": "plays",
                "Attach": "attaches", "Place": "places", "Take": "takes"}  # fmt: skip

MakePrompt = Callable[[GameState, int, Theme], Prompt]


@functools.cache
def _awaited_states() -> tuple[tuple[GameState, int], ...]:
    """(state, awaited seat) from whole random games of each player count: every decision phase, with other
    seats' choices pending."""
    found = []
    for players in (3, 4, 5):
        game = finished_game(players, 3)
        for index, state in enumerate(game.states):
            awaited = sorted(engine.awaited_seats(state))
            if awaited and (index % 9 == 0 or state.phase in (Phase.PLACEMENT, Phase.REORGANIZE) and index % 3 == 0):
                found.append((state, awaited[index % len(awaited)]))
    return tuple(found)


def _prompts() -> Iterator[tuple[GameState, int, Prompt]]:
    for state, seat in _awaited_states():
        for theme in Theme:
            yield state, seat, make_prompt(state, seat, theme)


def _cards(action: Action) -> list[HandCard]:
    if isinstance(action, (PassCards, DiscardCards, PlaceCards)):
        return sorted(action.cards, key=lambda c: c.id)
    if isinstance(action, (PlayCard, Reinforce)):
        return [action.card] + ([action.target] if isinstance(action, Reinforce) else [])
    if isinstance(action, Reorganize):
        return sorted(action.discards, key=lambda c: c.id) + ([action.take_back] if action.take_back else [])
    return []


# --------------------------------------------------------------------------- one label per action, unique, in words


@pytest.mark.spec("9.2", "9.4")
def test_every_legal_action_has_one_label_and_the_labels_of_a_prompt_differ() -> None:
    kinds: set[type] = set()
    for state, seat, prompt in _prompts():
        assert len(prompt.labels) == len(prompt.legal_actions) > 0
        assert len(set(prompt.labels)) == len(prompt.labels), f"two legal actions share a label ({state.phase})"
        assert all(label and label == label.strip() and "[" not in label for label in prompt.labels)  # plain text
        kinds |= {type(a) for a in prompt.legal_actions}
    assert {PassCards, DiscardCards, ChooseSupport, PlayCard, Reinforce, PlaceCards, Reorganize} <= kinds


@pytest.mark.spec("9.4")
def test_a_seat_that_is_not_awaited_gets_no_actions_and_no_labels() -> None:
    state = next(s for s, _ in _awaited_states() if len(engine.awaited_seats(s)) < s.players)
    idle = next(s for s in state.seats if s not in engine.awaited_seats(state))
    prompt = make_prompt(state, idle)
    assert prompt.legal_actions == () and prompt.labels == ()


@pytest.mark.spec("9.4")
def test_labels_are_the_words_of_text_py_in_the_imperative() -> None:
    """Each label is text.action_label's; with its verbs put back in the third person it is text.action_text's
    plain text, and with the seat's view it adds only the public receiver of a pass and owner of a target."""
    for _, seat, prompt in _prompts():
        view, theme = prompt.view, prompt.theme
        for action, label in zip(prompt.legal_actions, prompt.labels, strict=True):
            assert label == action_label(action, theme, view)
            bare = action_label(action, theme)
            words = bare.split(" ", 1)
            reported = f"{THIRD_PERSON[words[0]]} {words[1] if len(words) > 1 else ''}".strip()
            reported = reported.replace(", discard ", ", discards ")
            assert reported == plain_text(action_text(action, theme))
            for card in _cards(action):
                assert card.label(theme) in label  # the card table's name of the card
            if isinstance(action, ChooseSupport):
                assert label == f"Support {faction_name(action.faction, theme)}"
            if isinstance(action, PassCards):
                assert label == f"{bare} to {seat_name((seat + 1) % view.players)}"
            elif isinstance(action, Reinforce):
                assert view.table is not None
                play = view.table.play_of(action.target)
                assert play is not None
                assert label.endswith(f" ({owner_name(play.seat, seat)})")
                assert ("to traitor card " in label) == play.is_traitor
            else:
                assert label == bare


@pytest.mark.spec("9.4")
def test_labels_are_in_the_prompts_theme_and_steam_noir_by_default() -> None:
    state, seat = next((s, p) for s, p in _awaited_states() if s.phase is Phase.CHOOSE_SUPPORT)
    assert make_prompt(state, seat) == make_prompt(state, seat, Theme.STEAM_NOIR)
    assert make_prompt(state, seat).theme is Theme.STEAM_NOIR
    for _, _, prompt in _prompts():
        other = next(t for t in Theme if t is not prompt.theme)
        text = " ".join(prompt.labels)
        assert not any(name in text for name in ONLY_IN[other]), prompt.theme
    support = make_prompt(state, seat, Theme.DARK_EMPIRE).labels
    assert "Support Beggars" in support or "Beggars" not in " ".join(support)


@pytest.mark.spec("9.4")
def test_a_theme_that_is_no_theme_is_refused() -> None:
    state, seat = _awaited_states()[0]
    with pytest.raises(InvalidArgumentError, match="theme is a Theme"):
        make_prompt(state, seat, "dark-empire")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- labels reveal nothing hidden


def _named_ids(labels: tuple[str, ...]) -> set[int]:
    return {int(n) for label in labels for n in re.findall(r"#(\d+)", label)}


def assert_labels_hide(state: GameState, seat: int, rng: random.Random, make: MakePrompt = make_prompt) -> None:
    """Seat ``seat``'s labels name only its own and public cards, and stay the same when what it may not see
    changes (:func:`test_views_leak.resample_hidden`).

    :raises AssertionError: naming the card or the label that gives something away.
    """
    for theme in Theme:
        labels = make(state, seat, theme).labels
        allowed = {c.id for c in state.hands[seat]} | {c.id for c in public_cards(state) if isinstance(c, HandCard)}
        leaked = _named_ids(labels) - allowed
        assert not leaked, f"seat {seat}'s labels name hand cards {sorted(leaked)} it has not seen"
        for _ in range(2):
            other = make(resample_hidden(state, seat, rng), seat, theme).labels
            assert other == labels, f"seat {seat}'s labels changed with hidden information ({state.phase})"


@pytest.mark.spec("9.4")
def test_labels_name_only_the_seats_own_cards_and_public_ones() -> None:
    rng = random.Random(7)
    for state, seat in _awaited_states()[::2]:
        assert_labels_hide(state, seat, rng)


def _leaky(state: GameState, seat: int, theme: Theme) -> Prompt:
    """A planted leak: each label also names the first card of the next seat's hand."""
    prompt = make_prompt(state, seat, theme)
    hand = state.hands[(seat + 1) % state.players]
    tail = f" (next seat holds {hand[0].label(theme)})" if hand else ""
    return attrs.evolve(prompt, labels=tuple(label + tail for label in prompt.labels))


@pytest.mark.spec("9.4")
def test_a_planted_leak_in_the_labels_is_caught() -> None:
    rng = random.Random(3)
    state, seat = next((s, p) for s, p in _awaited_states() if s.hands[(p + 1) % s.players])
    with pytest.raises(AssertionError, match="has not seen|changed with hidden information"):
        assert_labels_hide(state, seat, rng, make=_leaky)
    with pytest.raises(InvalidValueError) as caught:  # and a loader refuses such a prompt
        load_prompt(to_json(_leaky(state, seat, Theme.STEAM_NOIR)))
    assert caught.value.path == "labels[0]"


# --------------------------------------------------------------------------- through the schema, and compatibility


@functools.cache
def _validator() -> Draft202012Validator:
    schema = shipped_schemas()[SCHEMA_FILES["prompt"]]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.mark.spec("9.4")
def test_labelled_prompts_validate_against_the_prompt_schema_and_round_trip() -> None:
    validated = 0
    for index, (_, _, prompt) in enumerate(_prompts()):
        data = to_data(prompt)
        assert data["labels"] == list(prompt.labels) and data["theme"] == prompt.theme.name
        if index % 4 == 0 or len(prompt.legal_actions) > 100:
            _validator().validate(data)
            validated += 1
        assert load_prompt(to_json(prompt)) == prompt
    assert validated > 10
    data = to_data(next(_prompts())[2])
    data["labels"] = [7]
    assert not _validator().is_valid(data)


@pytest.mark.spec("9.4")
def test_the_fields_a_prompt_had_before_labels_are_written_as_before() -> None:
    """``format``, ``type``, ``view`` and ``legal_actions`` come first and hold what they held; the new fields follow."""
    for state, seat, prompt in list(_prompts())[::5]:
        data = to_data(prompt)
        assert list(data)[:4] == ["format", "type", "view", "legal_actions"]
        assert list(data)[4:] == ["theme", "labels"]
        view = to_data(prompt.view)
        assert data["view"] == {k: v for k, v in view.items() if k not in ("format", "type")}
        assert data["legal_actions"] == [
            {k: v for k, v in to_data(a).items() if k not in ("format", "type")} for a in engine.legal_actions(state, seat)
        ]


@pytest.mark.spec("9.4")
def test_a_prompt_without_labels_loads_with_them_made() -> None:
    """A prompt written before labels existed is still read, and gets the Steam Noir labels."""
    state, seat = _awaited_states()[4]
    data = to_data(make_prompt(state, seat, Theme.DARK_EMPIRE))
    del data["labels"], data["theme"]
    assert not _validator().is_valid(data)  # the schema requires what a server always sends; the loader does not
    loaded = from_data(data)
    assert isinstance(loaded, Prompt)
    assert loaded == make_prompt(state, seat) and loaded.labels == make_prompt(state, seat).labels
    data["theme"] = "DARK_EMPIRE"
    assert from_data(data) == make_prompt(state, seat, Theme.DARK_EMPIRE)


@pytest.mark.spec("9.4")
def test_labels_that_are_not_the_actions_own_are_refused_with_their_path() -> None:
    state, seat = _awaited_states()[2]
    prompt = make_prompt(state, seat)
    assert len(prompt.labels) >= 2
    swapped = to_data(prompt)
    swapped["labels"][0], swapped["labels"][1] = swapped["labels"][1], swapped["labels"][0]
    with pytest.raises(InvalidValueError) as caught:
        load_prompt(json.dumps(swapped))
    assert caught.value.path == "labels[0]"
    short = to_data(prompt)
    short["labels"].pop()
    with pytest.raises(InvalidValueError) as missing:
        load_prompt(json.dumps(short))
    assert missing.value.path == "labels"
    other_theme = to_data(prompt)
    other_theme["theme"] = "DARK_EMPIRE"
    if any(name in " ".join(prompt.labels) for name in ONLY_IN[Theme.STEAM_NOIR]):
        with pytest.raises(InvalidValueError):
            load_prompt(json.dumps(other_theme))


@pytest.mark.spec("9.4")
def test_a_prompt_built_by_hand_that_the_format_cannot_carry_gets_no_labels_and_fails_to_encode() -> None:
    state, seat = _awaited_states()[0]
    good = make_prompt(state, seat)
    bad = Prompt("a view", good.legal_actions)  # type: ignore[arg-type]
    assert bad.labels == ()
    with pytest.raises(SerializationError) as caught:
        to_data(bad)
    assert caught.value.path == "view"
