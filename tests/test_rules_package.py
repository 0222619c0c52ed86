"""Dark Empire's rules live in one package, ``darkempire.rules``, and their old module paths still work (issue 13).

The rules modules moved from ``src/darkempire/`` into ``src/darkempire/rules/`` so that the file list shows the
layers. Issue 13 (point 4) promises that every name exported before the move keeps working with the same
meaning: each old module (``darkempire.engine`` and the others) is now a shim that re-imports the names of its
new module. The name lists below were generated once from the modules as they were before the move (main at
5e6ef01: each module's ``__all__, and the public names it defined outside ``__all__); they are written out
here so that a name dropped from a module later is caught, not silently forgiven.

The package is the bottom layer of the game: a module of ``darkempire.rules`` imports only other modules of
``darkempire.rules``, the kit ``tablekit``, the standard library and attrs (read with :mod:`ast`, so imports
inside functions count too).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import pickle
import subprocess
import sys
from pathlib import Path
from types import FunctionType, ModuleType

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: Each moved module's ``__all__`` before the move (main at 5e6ef01).
EXPORTED: dict[str, list[str]] = {
    "actions": (
        "Action ChooseSupport DiscardCards PassCards PlaceCards PlayCard PlayNothing Reinforce Reorganize "
        "Side"
    ).split(),
    "cards": (
        "ADD_ON_FOR_PLAYERS AddOnCard EMPEROR_CARDS EmperorCard FACTION_CARDS FACTION_CARD_VALUES Faction "
        "FactionCard HAND_CARDS HandCard REINFORCEMENT_BONUS REINFORCEMENT_CARDS REVOLUTION_CARDS "
        "REVOLUTION_CARD_VALUE ReinforcementCard RevolutionCard Theme add_on_for faction_name is_hand_card"
    ).split(),
    "chance": (
        "Chance"
    ).split(),
    "engine": (
        "Transition advance apply apply_reporting awaited_seats check_choice check_seat choose_support deal "
        "deal_reporting discard events_between judge_winner legal_actions pass_cards place_cards play "
        "reorganize replay score_month score_week step withdraw withdraw_reporting"
    ).split(),
    "errors": (
        "AlreadyChoseError CardNotInHandError ConfigError DarkEmpireError IllegalActionError "
        "InvalidArgumentError InvalidCardError InvalidPickUpError InvalidPlacementError InvalidTargetError "
        "MalformedActionError MissingChoiceError NoEmperorCardError ReinforcementOnFirstStepError "
        "ReinforcementOnSameStepError SecondTraitorCardError SupportAlreadyUsedError WrongCardCountError "
        "WrongPhaseError WrongSeatError"
    ).split(),
    "events": (
        "CardsPassed CardsPlaced ChoiceMade ChoiceWithdrawn DraftDiscarded Draw EVENT_TYPES EmperorCardScored "
        "Event EventDerivationError GameOver GameStarted HandDealt HandRefilled MonthScored MonthStarted "
        "PlacementsDue PlaysRevealed PublicEvent Reorganized RevealedPlay StrengthsRevealed TokensAwarded "
        "WeekStarted as_kit_event deal_draws events_for opening_events"
    ).split(),
    "game": (
        "DarkEmpire GAME"
    ).split(),
    "scoring": (
        "AwardReason LEADER_MARGIN MONTH_BONUS MonthScore PlacementDue TokenAward Verdict VerdictReason "
        "WeekScore emperor_card_scored emperor_strength_of faction_strength final_verdict highest_card_owners "
        "judge month_bonus_share month_strongest placing_factions score_month_tally score_table seat_tokens "
        "six_point_split strongest supported_most"
    ).split(),
    "state": (
        "DECISION_PHASES GameConfig GameState HAND_SIZE MONTHS Phase STEPS ScoreTrack ScoredCard "
        "ScoredEmperorCard WEEKS WeekRecord"
    ).split(),
    "table": (
        "Play Reinforcement WeekTable"
    ).split(),
    "views": (
        "PlayerView player_view spectator_view"
    ).split(),
}

#: Public names the modules defined outside their ``__all__`` before the move; importable from the old path too.
ALSO_PUBLIC: dict[str, list[str]] = {
    "engine": ["SEED_LIMIT"],
    "scoring": ["emperor_strength", "faction_strengths", "seat_support"],
    "state": ["DEAL_SIZE", "PLAY_PHASES"],
}

MOVED = sorted(EXPORTED)

#: Rules modules written after the move, so without an old path.
NEW = ("resample",)

#: Top-level modules a rules module may import besides ``darkempire.rules`` and ``tablekit``.
ALLOWED_THIRD_PARTY = frozenset({"attrs", "__future__"})

#: A tuple of rules values pickled by the code before the move (5e6ef01, protocol 2): a faction card, a
#: reinforcement, an emperor card, a game configuration and a phase, with their classes named by the old paths
#: (``darkempire.cards``, ``darkempire.state``).
OLD_PICKLE = (
    b"\x80\x02(cdarkempire.cards\nFactionCard\nq\x00)\x81q\x01}q\x02(X\x02\x00\x00\x00idq\x03K\x03X\x07\x00\x00\x00"
    b"factionq\x04cdarkempire.cards\nFaction\nq\x05K\x00\x85q\x06Rq\x07X\x05\x00\x00\x00valueq\x08K\x05ubcdarkempire"
    b".cards\nReinforcementCard\nq\t)\x81q\n}q\x0bh\x03KFsbcdarkempire.cards\nEmperorCard\nq\x0c)\x81q\r}q\x0e(h\x03K"
    b"\x00h\x08K\x08ubcdarkempire.state\nGameConfig\nq\x0f)\x81q\x10}q\x11X\x07\x00\x00\x00playersq\x12K\x04sbcdar"
    b"kempire.state\nPhase\nq\x13X\n\x00\x00\x00draft passq\x14\x85q\x15Rq\x16tq\x17."
)

#: SHA-256 of the JSON form of ``deal(GameConfig(players=4), seed=13)``, computed before the move.
DEALT_JSON_SHA256 = "a28a7a1ca762cbd41be930a9b9095a7785925ae39b18989dc8f6dd678b3236a5"


def _old_and_new(name: str) -> tuple[ModuleType, ModuleType]:
    return importlib.import_module(f"darkempire.{name}"), importlib.import_module(f"darkempire.rules.{name}")


@pytest.mark.parametrize("name", MOVED)
def test_every_name_of_the_old_path_is_the_same_object_as_in_the_rules_package(name: str) -> None:
    old, new = _old_and_new(name)
    assert old is not new
    assert sorted(old.__all__) == sorted(EXPORTED[name])
    missing = [n for n in EXPORTED[name] + ALSO_PUBLIC.get(name, []) if not hasattr(old, n)]
    assert missing == []
    different = [n for n in EXPORTED[name] + ALSO_PUBLIC.get(name, []) if getattr(old, n) is not getattr(new, n)]
    assert different == []


@pytest.mark.parametrize("name", MOVED)
def test_the_new_module_keeps_every_name_and_its_classes_and_functions_live_there(name: str) -> None:
    """The names were moved, not copied: each class and function says it lives in ``darkempire.rules``."""
    _, new = _old_and_new(name)
    assert set(EXPORTED[name]) <= set(new.__all__)
    homes = {getattr(new, n).__module__ for n in EXPORTED[name] if isinstance(getattr(new, n), type | FunctionType)}
    assert homes and all(home.startswith(("darkempire.rules.", "tablekit.")) for home in homes), homes


@pytest.mark.parametrize("name", MOVED)
def test_an_old_path_is_only_a_shim(name: str) -> None:
    """The old module defines nothing: a docstring, imports from its new module, and ``__all__``."""
    tree = ast.parse((SRC / "darkempire" / f"{name}.py").read_text(encoding="utf-8"))
    kinds = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            kinds.append(f"from {node.module}")
        elif isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
            kinds.append("__all__")
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node is tree.body[0]:
            kinds.append("docstring")
        else:
            kinds.append(ast.dump(node)[:60])
    assert set(kinds) == {"docstring", f"from darkempire.rules.{name}", "__all__"}


def test_the_package_names_are_the_rules_objects() -> None:
    """Every name ``darkempire`` exports is one of the rules modules' own objects (through either path)."""
    import darkempire

    for export in darkempire.__all__:
        if export == "__version__":
            continue
        homes = [name for name in MOVED if export in EXPORTED[name]]
        assert homes, export
        for name in homes:
            old, new = _old_and_new(name)
            assert getattr(old, export) is getattr(new, export) is getattr(darkempire, export), (name, export)


def test_importing_the_package_still_binds_the_old_module_paths() -> None:
    """``import darkempire; darkempire.engine.deal(...)`` worked before the move, without importing the module."""
    program = (
        "import darkempire, sys\n"
        f"names = {MOVED!r}\n"
        "print(all(getattr(darkempire, n) is sys.modules['darkempire.' + n] for n in names))\n"
        "print(darkempire.engine.deal is darkempire.rules.engine.deal)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["True", "True"]


def test_a_program_written_with_the_old_paths_type_checks_and_runs() -> None:
    """A program from before the move, importing from every old path: mypy --strict checks this test too, so the
    shims re-export for the type checker (the public names outside ``__all__`` as well), not only at run time."""
    from darkempire.actions import PassCards
    from darkempire.cards import HAND_CARDS, REVOLUTION_CARDS, FactionCard
    from darkempire.chance import Chance
    from darkempire.engine import SEED_LIMIT, apply, awaited_seats, deal, deal_reporting, legal_actions
    from darkempire.errors import IllegalActionError
    from darkempire.events import GameStarted
    from darkempire.game import GAME, DarkEmpire
    from darkempire.scoring import faction_strengths
    from darkempire.state import DEAL_SIZE, PLAY_PHASES, GameConfig, GameState
    from darkempire.table import WeekTable
    from darkempire.views import player_view

    state: GameState = deal(GameConfig(players=3), seed=SEED_LIMIT - 1)
    seat = min(awaited_seats(state))
    assert len(state.hands[seat]) == DEAL_SIZE and isinstance(state.chance, Chance)
    action = next(a for a in legal_actions(state, seat) if isinstance(a, PassCards))
    assert apply(state, seat, action) != state
    with pytest.raises(IllegalActionError):
        apply(state, seat, PassCards(cards=()))
    assert isinstance(HAND_CARDS[0], FactionCard) and len(PLAY_PHASES) == 3
    assert player_view(state, seat).seat == seat
    assert isinstance(deal_reporting(GameConfig(players=3), seed=1).events[0], GameStarted)
    assert isinstance(GAME, DarkEmpire)
    assert sum(faction_strengths(WeekTable(players=3, revolution_card=REVOLUTION_CARDS[0]))) == 3


def test_values_pickled_before_the_move_load_as_the_rules_values() -> None:
    from darkempire.rules.cards import EMPEROR_CARDS, HAND_CARDS
    from darkempire.rules.state import GameConfig, Phase

    assert pickle.loads(OLD_PICKLE) == (HAND_CARDS[3], HAND_CARDS[70], EMPEROR_CARDS[0], GameConfig(players=4),
                                        Phase.DRAFT_PASS)


def _midgame() -> object:
    from darkempire.rules import engine
    from darkempire.rules.state import GameConfig

    state = engine.deal(GameConfig(players=3), seed=2)
    for _ in range(60):
        seat = min(engine.awaited_seats(state))
        state = engine.apply(state, seat, min(engine.legal_actions(state, seat), key=repr))
    return state


def test_a_state_pickles_reprs_and_round_trips_through_json_as_before() -> None:
    """A mid-game state pickles (also with the old module paths in the pickle), its repr names no module, and
    its JSON form, which names no module path either, reads back to it; a dealt state's JSON is the one the code
    before the move wrote."""
    from darkempire import serialization
    from darkempire.rules import engine
    from darkempire.rules.cards import HAND_CARDS
    from darkempire.rules.state import GameConfig, GameState

    state = _midgame()
    assert isinstance(state, GameState)
    for protocol in (0, 2, pickle.HIGHEST_PROTOCOL):
        assert pickle.loads(pickle.dumps(state, protocol=protocol)) == state
    with_old_paths = pickle.dumps(state, protocol=0).replace(b"cdarkempire.rules.", b"cdarkempire.")
    assert b"darkempire.rules" not in with_old_paths
    assert pickle.loads(with_old_paths) == state
    assert "darkempire" not in repr(state)
    cards = importlib.import_module("darkempire.cards")
    assert eval(repr(HAND_CARDS[3]), vars(cards)) == HAND_CARDS[3]
    text = serialization.to_json(state)
    assert "darkempire." not in text
    assert serialization.load_state(text) == state
    dealt = serialization.to_json(engine.deal(GameConfig(players=4), seed=13))
    assert hashlib.sha256(dealt.encode()).hexdigest() == DEALT_JSON_SHA256


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def foreign_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """The modules ``source`` (module ``module``) imports, anywhere in it, that a rules module may not import."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            targets = [_absolute(module, is_package, node)]
        else:
            continue
        for target in targets:
            top = target.partition(".")[0]
            allowed = (
                target == "darkempire.rules"
                or target.startswith("darkempire.rules.")
                or top == "tablekit"
                or top in ALLOWED_THIRD_PARTY
                or (top in sys.stdlib_module_names and top != "darkempire")
            )
            if not allowed:
                found.append(f"{module} imports {target}")
    return found


def test_the_rules_import_only_the_rules_the_kit_the_standard_library_and_attrs() -> None:
    package = SRC / "darkempire" / "rules"
    modules = sorted(package.glob("*.py"))
    assert {path.stem for path in modules} == {*MOVED, *NEW, "__init__"}
    found = []
    for path in modules:
        name = "darkempire.rules" if path.stem == "__init__" else f"darkempire.rules.{path.stem}"
        found += foreign_imports(path.read_text(encoding="utf-8"), name, is_package=path.stem == "__init__")
    assert found == []


def test_the_import_check_is_not_vacuous() -> None:
    """It finds a higher layer imported at the top, inside a function, relatively, or as the bare package."""
    source = (
        "import attrs, json\n"
        "from tablekit.game import Game\n"
        "from darkempire.rules.cards import Faction\n"
        "from . import state\n"
        "from darkempire.wire.typecheck import check_types\n"
        "def f():\n"
        "    import darkempire.bots\n"
        "from ..text import action_text\n"
        "from darkempire import deal\n"
        "import numpy\n"
    )
    assert sorted(foreign_imports(source, "darkempire.rules.engine")) == [
        "darkempire.rules.engine imports darkempire",
        "darkempire.rules.engine imports darkempire.bots",
        "darkempire.rules.engine imports darkempire.text",
        "darkempire.rules.engine imports darkempire.wire.typecheck",
        "darkempire.rules.engine imports numpy",
    ]
