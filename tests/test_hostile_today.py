"""Hostile input against what landed on 2026-12-01: explicit chance, lazy legal actions, the game on the kit's
protocol and the OpenSpiel flow's serialized form.

Each test here is a fault found by attacking those parts as a hostile caller would: a value that reached a
state it should not have reached, or a bare ``TypeError``/``IndexError``/``AttributeError``/``ValueError``/
``AssertionError`` where the project promises a typed error naming the broken rule or field.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from darkempire.rules import engine
from darkempire.adapters import core
from darkempire.rules.cards import HAND_CARDS, FactionCard, is_hand_card
from darkempire.rules.errors import IllegalActionError, InvalidArgumentError
from darkempire.rules.game import GAME
from darkempire.serialization import SerializationError
from darkempire.rules.state import GameConfig
from tablekit.chance import Outcome, ScriptedChance, SeededChance
from tablekit.errors import ChanceError, KitError
from tablekit.records import Record, RecordError

CONFIG = GameConfig(players=3)


def _forged(value: object) -> Any:
    """``value``, typed as anything: the hostile arguments below are what a typed caller cannot pass."""
    return value


class _Source:
    """A chance source that answers every draw with ``answer(name, options)`` and stays as it is."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def draw(self, name: str, options: Sequence[Any]) -> tuple[Any, _Source]:
        return self.answer(name, tuple(options)), self


# --------------------------------------------------------------------------- a hostile chance source


@pytest.mark.spec("2.3", "2.4")
@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(lambda name, options: Outcome(name, options, len(options)), id="index-past-the-end"),
        pytest.param(lambda name, options: Outcome(name, options, -1), id="negative-index"),
        pytest.param(lambda name, options: Outcome(name, options, 10**30), id="huge-index"),
        pytest.param(lambda name, options: Outcome(name, options, _forged(0.0)), id="float-index"),
        pytest.param(lambda name, options: Outcome(name, options, _forged("0")), id="str-index"),
        pytest.param(lambda name, options: Outcome(name, options, True), id="bool-index"),
        pytest.param(lambda name, options: 5, id="no-outcome"),
    ],
)
def test_a_source_outcome_outside_the_options_is_a_chance_error(answer: Any) -> None:
    """The engine checks what a caller's source drew: an index that is not one of the options' is refused as
    a :class:`~tablekit.errors.ChanceError` (a negative one used to draw from the end of the list)."""
    with pytest.raises(ChanceError, match="victor seat 0"):
        engine.deal_reporting(CONFIG, 0, chance=_Source(answer))


@pytest.mark.spec("2.3")
def test_a_draw_that_returns_nothing_is_a_chance_error() -> None:
    class Silent:
        def draw(self, name: str, options: Sequence[Any]) -> None:
            return None

    with pytest.raises(ChanceError):
        engine.deal_reporting(CONFIG, 0, chance=_forged(Silent()))


@pytest.mark.spec("2.3")
@pytest.mark.parametrize("source", [42, object(), "seeded"])
def test_a_chance_argument_that_is_no_source_is_refused(source: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="ChanceSource"):
        engine.deal_reporting(CONFIG, 0, chance=source)


@pytest.mark.spec("2.4")
def test_a_source_cannot_put_its_own_card_objects_into_a_hand() -> None:
    """A source that answers with an equal card of a subclass (whose fields could lie): the hand holds the
    game's own card objects, drawn at the index the source gave."""

    class Forged(FactionCard):
        pass

    def forged(card: Any) -> Any:
        if isinstance(card, FactionCard):
            return Forged(card.id, card.faction, card.value)
        return copy.copy(card)

    done = engine.deal_reporting(CONFIG, 0, chance=_Source(lambda n, o: Outcome(n, tuple(map(forged, o)), 0)))
    cards = [card for hand in done.state.hands for card in hand]
    assert all(is_hand_card(card) and HAND_CARDS[card.id] is card for card in cards)


# --------------------------------------------------------------------------- the game on the kit's protocol


@pytest.mark.spec("2.3")
def test_the_kit_game_refuses_no_chance_source() -> None:
    """``None`` made the engine use the state's own generator and hand back no source: an AssertionError."""
    with pytest.raises(InvalidArgumentError, match="ChanceSource"):
        GAME.initial(CONFIG, _forged(None))
    state = GAME.initial(CONFIG, SeededChance(1)).state
    choices = {seat: engine.legal_actions(state, seat)[0] for seat in state.seats}
    with pytest.raises(InvalidArgumentError, match="ChanceSource"):
        GAME.step(state, choices, _forged(None))


# --------------------------------------------------------------------------- lazy legal actions


@pytest.mark.spec("2.5")
@pytest.mark.parametrize("index", [1.0, 35.5])
def test_a_lazy_action_list_refuses_a_non_integer_index_as_a_tuple_does(index: Any) -> None:
    """``actions[1.0]`` used to build an action (and ``actions[35.5]`` a wrong one); a tuple refuses both."""
    actions = engine.legal_actions(engine.deal(CONFIG, 1), 0)
    with pytest.raises(TypeError):
        tuple(actions)[index]
    with pytest.raises(TypeError):
        actions[index]


# --------------------------------------------------------------------------- the OpenSpiel flow


def _decision_flow(seed: int = 0) -> core.Flow:
    rng = random.Random(seed)
    flow = core.Flow.new(3)
    while flow.is_chance:
        flow = flow.apply_chance(rng.choice([o for o, _ in flow.chance_outcomes()]))
    return flow


def _drawing_flow() -> core.Flow:
    """A flow in the middle of a step's draws: joint choices recorded, one outcome drawn."""
    rng = random.Random(0)
    flow = _decision_flow()
    while not (flow.is_chance and flow.state is not None):
        if flow.is_chance:
            flow = flow.apply_chance(flow.chance_outcomes()[0][0])
        else:
            flow = flow.apply_joint([rng.choice(flow.legal(s)) for s in range(3)])
    return flow.apply_chance(flow.chance_outcomes()[0][0])


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("bad", ["float", "bool", "none", "str"])
def test_apply_joint_refuses_what_is_no_action_integer(bad: str) -> None:
    """``5553.0`` equals a legal ``5553`` and used to pass the legality test, then fail with a TypeError."""
    flow = _decision_flow()
    legal = [flow.legal(s)[0] for s in range(3)]
    forged: Any = {"float": float(legal[0]), "bool": True, "none": None, "str": "x"}[bad]
    with pytest.raises(IllegalActionError, match="seat 0"):
        flow.apply_joint([forged, *legal[1:]])


@pytest.mark.spec("9.2")
def test_apply_joint_refuses_what_is_no_list() -> None:
    with pytest.raises(IllegalActionError, match="3 seats"):
        _decision_flow().apply_joint(_forged(5))


def _tampered(**changes: Any) -> dict[str, Any]:
    data = _drawing_flow().to_data()
    data.update(changes)
    return data


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({"players": "3"}, id="players-str"),
        pytest.param({"players": True}, id="players-bool"),
        pytest.param({"players": 3.7}, id="players-float"),
        pytest.param({"players": 4}, id="players-not-the-state's"),
        pytest.param({"script": 5}, id="script-int"),
        pytest.param({"choices": ["x", 0, 0]}, id="choice-str"),
        pytest.param({"choices": [10**40, 0, 0]}, id="choice-huge"),
        pytest.param({"choices": [-5, 0, 0]}, id="choice-negative"),
        pytest.param({"choices": [5553.0, 0, 0]}, id="choice-float"),
        pytest.param({"choices": [0]}, id="choices-short"),
        pytest.param({"trail": 5}, id="trail-int"),
        pytest.param({"trail": []}, id="trail-short"),
        pytest.param({"trail": ["abc", "d", "e"]}, id="trail-of-strings"),
        pytest.param({"trail": [[1], [2], [3]]}, id="trail-of-ints"),
    ],
)
def test_a_tampered_flow_document_is_a_serialization_error(changes: dict[str, Any]) -> None:
    """Each used to load silently (a 4-player flow around a 3-player state, ``players=True`` as 1 player, a
    trail of single characters) or to raise a bare KeyError/TypeError/ValueError."""
    with pytest.raises(SerializationError):
        core.Flow.from_data(_tampered(**changes))


@pytest.mark.spec("9.3")
def test_a_flow_document_without_a_field_or_no_object_is_a_serialization_error() -> None:
    data = _drawing_flow().to_data()
    del data["players"]
    with pytest.raises(SerializationError, match="players"):
        core.Flow.from_data(data)
    with pytest.raises(SerializationError, match="object"):
        core.Flow.from_data(_forged([1]))


@pytest.mark.spec("9.3")
def test_choices_during_the_deal_are_a_serialization_error() -> None:
    """A deal has no choices: the document's ``choices`` used to be dropped without a word."""
    start = core.Flow.new(3)
    data = start.apply_chance(start.chance_outcomes()[0][0]).to_data()
    with pytest.raises(SerializationError, match="choices"):
        core.Flow.from_data(dict(data, choices=[1, 2, 3]))


# --------------------------------------------------------------------------- the kit's chance sources


@pytest.mark.spec("2.3")
@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: ScriptedChance(_forged(None)), id="script-none"),
        pytest.param(lambda: ScriptedChance(_forged(5)), id="script-int"),
        pytest.param(lambda: ScriptedChance(_forged("012")), id="script-str"),
        pytest.param(lambda: ScriptedChance([0, 1], position=-1), id="position-negative"),
        pytest.param(lambda: ScriptedChance([0, 1], position=_forged("0")), id="position-str"),
        pytest.param(lambda: SeededChance(_forged(None)), id="seed-none"),
        pytest.param(lambda: SeededChance(_forged("7")), id="seed-str"),
        pytest.param(lambda: SeededChance(_forged(1.5)), id="seed-float"),
        pytest.param(lambda: SeededChance(10**5000), id="seed-too-long-to-print"),
        pytest.param(lambda: SeededChance(7, draws=-1), id="draws-negative"),
    ],
)
def test_a_chance_source_built_of_junk_is_a_chance_error(build: Any) -> None:
    """A negative position read the script from its end, a ``None`` or ``"7"`` seed seeded a game as well as
    an integer, and a script or seed of the wrong type failed later with a bare TypeError or ValueError."""
    with pytest.raises(ChanceError):
        build()


# --------------------------------------------------------------------------- integers too long to print


@pytest.mark.spec("9.1")
@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: ScriptedChance([10**5000]).draw("d", "ab"), id="scripted-outcome"),
        pytest.param(lambda: core.Flow.new(3).apply_chance(10**5000), id="flow-outcome"),
        pytest.param(lambda: engine.check_choice(engine.deal(CONFIG, 1), 10**5000, _forged(None)), id="seat"),
        pytest.param(lambda: engine.legal_actions(engine.deal(CONFIG, 1), 0)[10**5000], id="lazy-index"),
    ],
)
def test_an_integer_too_long_to_print_is_quoted_by_its_size(call: Any) -> None:
    """Python refuses ``repr`` of an int of more than 4,300 digits, so an error message that quoted one raised
    that bare ValueError instead of its own error: the kit's ``quote`` names it by its size."""
    with pytest.raises((KitError, IndexError), match="an integer of 16610 bits"):
        call()


# --------------------------------------------------------------------------- the OpenSpiel document


@pytest.mark.spec("9.3")
def test_a_serialized_openspiel_state_of_3_0_players_is_refused() -> None:
    pytest.importorskip("pyspiel")
    from darkempire.adapters import openspiel

    game = openspiel.DarkEmpireGame({"players": 3})
    document = json.loads(game.new_initial_state().serialize())
    with pytest.raises(SerializationError, match="players"):
        game.deserialize_state(json.dumps(dict(document, players=3.0)))


# --------------------------------------------------------------------------- the kit's records


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    "choices",
    [
        pytest.param([5], id="a-number"),
        pytest.param([(0,)], id="a-short-pair"),
        pytest.param(["ab"], id="a-two-letter-string"),
        pytest.param(5, id="no-sequence"),
    ],
)
def test_a_record_of_junk_choices_is_a_record_error(choices: Any) -> None:
    """These raised a bare TypeError or IndexError (and ``"ab"`` was read as seat ``"a"`` choosing ``"b"``)."""
    with pytest.raises(RecordError, match="choice"):
        Record("darkempire", 2, CONFIG, 3, choices)
