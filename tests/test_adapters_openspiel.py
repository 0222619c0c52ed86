"""The OpenSpiel adapter passes OpenSpiel's own conformance harnesses, and leaks nothing (spec 9.2-9.4).

* ``pyspiel.random_sim_test`` with serialization, on the simultaneous game and on its turn-based conversion,
  for 3, 4 and 5 players, with a state checker that runs the leak property at every visited state: each
  seat's observation string, observation tensor, information-state string and legal actions stay the same
  when everything the seat may not see is drawn again (tests/test_views_leak.py's ``resample_hidden``), and
  the other seats' trails are replaced.
* The partial-tree suite of ``open_spiel.integration_tests.api_test`` on the registered game (whose sampler
  sees only the initial state of a simultaneous game), on its turn-based form, and once more on the
  turn-based form with states taken from whole random games, so that its checks reach every phase.
* The action encoding, the explicit chance and the returns, checked against the engine.

Skipped when the ``openspiel`` extra is not installed.
"""

from __future__ import annotations

import itertools
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel")
api_test = pytest.importorskip("open_spiel.integration_tests.api_test")

from darkempire.rules import engine, views  # noqa: E402
from darkempire.rules.actions import PlaceCards, Reorganize  # noqa: E402
from darkempire.adapters import core  # noqa: E402
from darkempire.adapters import openspiel as adapter  # noqa: E402
from darkempire.rules.cards import HAND_CARDS, Faction  # noqa: E402
from darkempire.rules.state import GameState, Phase  # noqa: E402
from test_views_leak import resample_hidden  # noqa: E402

PLAYERS = (3, 4, 5)
#: Random games per player count and form in the harness runs (each takes a few seconds).
SIMS = 1


def load(players: int) -> Any:
    return pyspiel.load_game(f"dark_empire_revolution(players={players})")


def random_flows(players: int, seed: int) -> Iterator[core.Flow]:
    """Every flow of one game played with uniformly random chance outcomes and legal actions."""
    rng = random.Random(seed)
    flow = core.Flow.new(players)
    yield flow
    while not flow.is_over:
        if flow.is_chance:
            flow = flow.apply_chance(rng.choice(flow.chance_outcomes())[0])
        else:
            flow = flow.apply_joint([rng.choice(flow.legal(s)) for s in range(players)])
        yield flow


# --------------------------------------------------------------------------- the leak property


def _resampled_flow(flow: core.Flow, seat: int, rng: random.Random) -> core.Flow:
    """A flow that ``seat`` cannot tell from ``flow``: hidden cards and choices drawn again, other trails replaced."""
    trail = tuple(lines if s == seat else (f"secret of seat {s}",) for s, lines in enumerate(flow.trail))
    if flow.state is None:
        # During the deal: the other seats' cards and victor cards so far are hidden. The deal is drawn again
        # through the flow's own chance nodes, the seat's own cards kept.
        victors, dealt = list(flow.victors), [list(hand) for hand in flow.dealt]
        free = [f for f in Faction if seat >= len(victors) or f is not victors[seat]]
        rng.shuffle(free)
        victors = [v if s == seat else free.pop() for s, v in enumerate(victors)]
        pool = [c for c in HAND_CARDS if c not in dealt[seat]]
        rng.shuffle(pool)
        for s in range(flow.players):
            if s != seat:
                dealt[s], pool = pool[: len(dealt[s])], pool[len(dealt[s]) :]
        again = core.Flow.new(flow.players)
        for outcome in [int(v) for v in victors] + [c.id for hand in dealt for c in hand]:
            again = again.apply_chance(outcome)
        assert again.node is not None and flow.node is not None and again.victors == tuple(victors)
        assert (again.node.name, again.node.count) == (flow.node.name, flow.node.count)
        return attrs.evolve(again, trail=trail)
    if flow.choices is None:
        return attrs.evolve(flow, state=resample_hidden(flow.state, seat, rng), trail=trail)
    # Between a joint action and its draws: the seats see the step before it resolved, the choices pending.
    shown = flow.shown
    assert shown is not None
    world = resample_hidden(shown, seat, rng)
    decided = attrs.evolve(world, pending=(None,) * flow.players)
    choices = tuple((s, action) for s, action in enumerate(world.pending) if action is not None)  # the kit's pairs
    return attrs.evolve(flow, state=decided, choices=choices, trail=trail)


def _seen_by(game: Any, flow: core.Flow, seat: int) -> tuple[object, ...]:
    state = adapter.DarkEmpireState(game, flow)
    legal = tuple(state.legal_actions(seat)) if not flow.is_chance and not flow.is_over else ()
    return (
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
        state.information_state_string(seat),
        legal,
    )


def assert_no_leak(game: Any, flow: core.Flow, rng: random.Random, resamples: int = 1) -> None:
    """Each seat's observations, information state and legal actions do not change when hidden parts do."""
    for seat in range(flow.players):
        seen = _seen_by(game, flow, seat)
        for _ in range(resamples):
            other = _seen_by(game, _resampled_flow(flow, seat, rng), seat)
            names = ("observation string", "observation tensor", "information state", "legal actions")
            changed = [name for name, a, b in zip(names, seen, other, strict=True) if a != b]
            assert not changed, f"seat {seat}'s {changed} changed with hidden information:\n{flow.text()}"


class LeakChecker:
    """A ``state_checker_fn`` for ``random_sim_test``: the leak property at every visited state.

    On the turn-based form it follows the game by replaying each new action onto its own flow (the wrapped
    state is not reachable from Python), checks that the turn-based information state is the adapter's
    with OpenSpiel's turn header, and runs the leak property on that flow.
    """

    def __init__(self, game: Any, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.visited = 0
        self.phases: set[Phase] = set()
        self._history: list[int] = []
        self._flow = core.Flow.new(game.num_players())
        self._buffered: list[int] = []

    def __call__(self, state: Any) -> None:
        self.visited += 1
        if isinstance(state, adapter.DarkEmpireState):
            flow = state.flow
        else:
            flow = self._follow(state)
            if not state.is_chance_node() and not state.is_terminal():
                current = state.current_player()
                for seat in range(flow.players):
                    head = f"Current player: {current}\n"
                    if seat < current:
                        head += f"Observer's action this turn: {self._buffered[seat]}\n"
                    assert state.information_state_string(seat) == head + core.info_state_text(flow, seat)
        if flow.state is not None:
            self.phases.add(flow.state.phase)
        assert_no_leak(self.game, flow, self.rng)

    def _follow(self, state: Any) -> core.Flow:
        history = list(state.history())
        if history[: len(self._history)] != self._history:  # a new game
            self._history, self._flow, self._buffered = [], core.Flow.new(self._flow.players), []
        for action in history[len(self._history) :]:
            if self._flow.is_chance:
                self._flow = self._flow.apply_chance(action)
            else:
                self._buffered.append(action)
                if len(self._buffered) == self._flow.players:
                    self._flow, self._buffered = self._flow.apply_joint(self._buffered), []
        self._history = history
        return self._flow


# --------------------------------------------------------------------------- OpenSpiel's harnesses


@pytest.mark.spec("9.2", "9.3", "9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_random_sim_test_simultaneous(players: int) -> None:
    """``random_sim_test`` with serialization on the simultaneous game, the leak property at every state."""
    game = load(players)
    checker = LeakChecker(game, seed=players)
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False, state_checker_fn=checker)
    assert checker.visited > 100
    assert {Phase.DRAFT_PASS, Phase.CHOOSE_SUPPORT, Phase.PLAY_3, Phase.GAME_OVER} <= checker.phases


@pytest.mark.spec("9.2", "9.3", "9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_random_sim_test_turn_based(players: int) -> None:
    """``random_sim_test`` with serialization on ``convert_to_turn_based``, the leak property at every state."""
    turn_based = pyspiel.convert_to_turn_based(load(players))
    pyspiel.random_sim_test(turn_based, num_sims=SIMS, serialize=True, verbose=False)


@pytest.mark.spec("9.4")
@pytest.mark.parametrize("players", PLAYERS)
def test_turn_based_states_leak_nothing(players: int) -> None:
    """The leak property at every state of a random game of the turn-based form.

    ``random_sim_test`` cannot hand a turn-based state to a Python ``state_checker_fn`` (pybind11 refuses to
    copy the C++ wrapper), so this walk plays the game itself and checks every state it visits.
    """
    game = load(players)
    checker = LeakChecker(game, seed=10 + players)
    for state in _turn_based_game_states(pyspiel.convert_to_turn_based(game), seed=players):
        checker(state)
    assert checker.visited > 100
    assert {Phase.DRAFT_PASS, Phase.CHOOSE_SUPPORT, Phase.PLAY_3, Phase.GAME_OVER} <= checker.phases


def _partial_tree_case(name: str, game: Any, states: Callable[[Any], list[Any]] | None = None) -> type:
    """A test class of api_test's partial-tree suite for ``game``; ``states`` replaces its state sampler."""
    attributes: dict[str, Any] = {"game_name": adapter.SHORT_NAME, "game": game}
    if states is not None:

        @classmethod  # type: ignore[misc]
        def setUpClass(cls: Any) -> None:  # noqa: N802  # unittest's name
            cls.some_states = states(cls.game)
            cls.game_type = cls.game.get_type()

        attributes["setUpClass"] = setUpClass
    return type(name, (api_test.EnforceAPIOnPartialTreeBase,), attributes)


def _turn_based_game_states(game: Any, seed: int = 7) -> list[Any]:
    """Every state of one random game of the turn-based form (several hundred, every phase)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


# One class per player count and form; pytest runs unittest classes as they are.
TestApiPartialTree3 = _partial_tree_case("TestApiPartialTree3", load(3))
TestApiPartialTree4 = _partial_tree_case("TestApiPartialTree4", load(4))
TestApiPartialTree5 = _partial_tree_case("TestApiPartialTree5", load(5))
TestApiPartialTreeTurnBased3 = _partial_tree_case("TestApiPartialTreeTurnBased3", pyspiel.convert_to_turn_based(load(3)))
TestApiPartialTreeTurnBased4 = _partial_tree_case("TestApiPartialTreeTurnBased4", pyspiel.convert_to_turn_based(load(4)))
TestApiPartialTreeTurnBased5 = _partial_tree_case("TestApiPartialTreeTurnBased5", pyspiel.convert_to_turn_based(load(5)))
TestApiWholeGame3 = _partial_tree_case("TestApiWholeGame3", pyspiel.convert_to_turn_based(load(3)), _turn_based_game_states)
TestApiWholeGame4 = _partial_tree_case("TestApiWholeGame4", pyspiel.convert_to_turn_based(load(4)), _turn_based_game_states)
TestApiWholeGame5 = _partial_tree_case("TestApiWholeGame5", pyspiel.convert_to_turn_based(load(5)), _turn_based_game_states)


# --------------------------------------------------------------------------- registration and game type


@pytest.mark.spec("2.1")
def test_registered_with_a_players_parameter() -> None:
    """``load_game`` builds 3-5 player games; the default is 4; other counts are refused (rule 2.1)."""
    assert adapter.SHORT_NAME in [t.short_name for t in pyspiel.registered_games()]
    assert pyspiel.load_game("dark_empire_revolution").num_players() == 4
    for players in PLAYERS:
        game = load(players)
        assert game.num_players() == players
        assert str(game) == f"dark_empire_revolution(players={players})"
    with pytest.raises(Exception, match="3 to 5 players"):
        pyspiel.load_game("dark_empire_revolution(players=6)")


@pytest.mark.spec("9.2")
def test_game_type_tells_the_truth() -> None:
    """Simultaneous, explicit chance, imperfect information, general-sum, 3-5 players, terminal rewards."""
    kind = load(4).get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (3, 5)
    assert kind.provides_information_state_string and not kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor


@pytest.mark.spec("8.2", "8.5")
def test_returns_share_the_win_and_are_general_sum() -> None:
    """Winners share +1, losers get -1: the sum depends on the number of winners (rules 8.2-8.5)."""
    sums = set()
    for seed in range(12):
        *_, last = random_flows(3, seed)
        assert last.state is not None and last.state.verdict is not None
        winners = last.state.verdict.winners
        returns = list(last.returns())  # the kit's tuple
        assert returns == [1 / len(winners) if s in winners else -1.0 for s in range(3)]
        sums.add(round(sum(returns), 6))
    assert sums == {-1.0} or len(sums) > 1  # one winner: 1 - 2; a shared win gives another sum
    assert adapter.DarkEmpireState(load(3), core.Flow.new(3)).returns() == [0.0, 0.0, 0.0]


# --------------------------------------------------------------------------- the action encoding


@pytest.mark.spec("9.2")
def test_encoding_ranges_are_the_documented_ones() -> None:
    assert (core.NO_OP, core.PASS_BASE, core.DISCARD_BASE, core.SUPPORT_BASE) == (0, 1, 2776, 5551)
    assert (core.PLAY_BASE, core.REINFORCE_BASE, core.PLAY_NOTHING) == (5556, 5686, 6336)
    assert (core.PLACE_BASE, core.REORGANIZE_BASE, core.NUM_ACTIONS) == (6337, 6345, 6857)
    assert load(5).num_distinct_actions() == 6857


@pytest.mark.spec("9.2", "2.5", "4.3", "4.6", "5.6", "6.2", "6.3")
@pytest.mark.parametrize("players", PLAYERS)
def test_legal_actions_are_the_engines_encoded_one_to_one(players: int) -> None:
    """At every decision of random games, the legal integers decode to exactly the engine's legal actions,
    and encode back; seats not awaited have the single action wait."""
    kinds: set[str] = set()
    for flow in itertools.islice(random_flows(players, players), 5000):
        state = flow.state
        if flow.is_chance or state is None or state.is_over:
            continue
        for seat in range(players):
            legal = flow.legal(seat)
            engine_legal = engine.legal_actions(state, seat)
            if not engine_legal:
                assert legal == [adapter.NO_OP]
                continue
            assert legal == sorted(set(legal)) and adapter.NO_OP not in legal
            decoded = [adapter.decode_action(state, seat, i) for i in legal]
            assert sorted(map(repr, decoded)) == sorted(map(repr, engine_legal))
            assert all(adapter.encode_action(state, seat, a) == i for a, i in zip(decoded, legal, strict=True))
            kinds.update(type(a).__name__ for a in decoded)
    assert {"PassCards", "DiscardCards", "ChooseSupport", "PlayCard", "Reorganize"} <= kinds


@pytest.mark.spec("5.6", "6.2", "6.3", "R-Q")
def test_position_encodings() -> None:
    """Placement masks name own revolution-side cards by id order; re-organize names a take-back slot and
    hand positions."""
    flow = next(f for f in random_flows(4, 3) if f.state is not None and not f.is_chance
                and f.state.phase is Phase.REORGANIZE and core.own_plays(f.state, 0))  # fmt: skip
    state = flow.state
    assert state is not None
    own = core.own_plays(state, 0)
    hand = state.hands[0]
    index = core.REORGANIZE_BASE + 128 * 1 + 0b101
    assert adapter.decode_action(state, 0, index) == Reorganize(own[0], frozenset({hand[0], hand[2]}))
    assert adapter.decode_action(state, 0, core.PLACE_BASE + 0b1) == PlaceCards(frozenset({own[0]}))
    assert len(hand) < 7 and len(own) < 3
    with pytest.raises(ValueError, match="position"):
        adapter.decode_action(state, 0, core.REORGANIZE_BASE + (1 << 6))
    with pytest.raises(ValueError, match="take-back slot"):
        adapter.decode_action(state, 0, core.REORGANIZE_BASE + 128 * 3)
    with pytest.raises(ValueError):
        adapter.decode_action(state, 0, adapter.NUM_ACTIONS)


# --------------------------------------------------------------------------- explicit chance


@pytest.mark.spec("2.4", "6.4", "R-R", "9.3")
def test_chance_outcomes_are_uniform_over_unseen_cards() -> None:
    """Deal outcomes are the undealt cards, draws the draw pile (the discard pile once it is empty), reveals
    the unrevealed cards of this month; probabilities are equal and sum to 1."""
    saw_draw = saw_reveal = False
    for flow in random_flows(5, 11):
        if not flow.is_chance:
            continue
        outcomes = flow.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and len({p for _, p in outcomes}) == 1
        assert flow.node is not None
        kind = flow.node.name.split()[0]
        ids = [o for o, _ in outcomes]
        state = flow.state
        if kind == "deal":
            assert ids == sorted(set(range(len(HAND_CARDS))) - {c.id for hand in flow.dealt for c in hand})
        elif kind == "refill":
            assert state is not None and flow.choices is not None
            drawn = {outcome for _, outcome in flow.drawn}
            if len(flow.drawn) < len(state.draw_pile):  # still drawing from the draw pile
                assert ids == sorted({c.id for c in state.draw_pile} - drawn)
            assert not drawn & set(ids)
            if state.phase is Phase.REORGANIZE:  # no card a seat keeps is drawn
                discards = {c.id for _, a in flow.choices if isinstance(a, Reorganize) for c in a.discards}
                assert not ({c.id for hand in state.hands for c in hand} - discards) & set(ids)
            saw_draw = True
        elif kind == "revolution":
            assert state is not None
            earlier = {int(r.table.revolution_card.faction) for r in state.history if r.month == state.month}
            if state.table is not None:  # the week that ends in this step is of the same month
                earlier.add(int(state.table.revolution_card.faction))
            assert ids == sorted(set(range(len(Faction))) - earlier)
            saw_reveal = True
    assert saw_draw and saw_reveal


@pytest.mark.spec("9.3")
def test_a_history_replays_the_game() -> None:
    """The same integers give the same game: the turn-based form deserializes by replaying its history."""
    game = pyspiel.convert_to_turn_based(load(3))
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        outcomes = state.chance_outcomes() if state.is_chance_node() else [(a, 1) for a in state.legal_actions()]
        state.apply_action(rng.choice(outcomes)[0])
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert str(again) == str(state) and again.returns() == state.returns()


@pytest.mark.spec("9.3")
def test_serialization_goes_through_the_json() -> None:
    """The simultaneous state pickles as our JSON message and comes back equal (same text)."""
    game = load(4)
    flows = list(itertools.islice(random_flows(4, 2), 700))
    for flow in flows[::50]:
        data = pickle.dumps(flow)
        assert b"darkempire/1" in data and b"game-state" in data or flow.state is None
        assert pickle.loads(data).text() == flow.text()
    state = adapter.DarkEmpireState(game, flows[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    loaded_game, loaded = pyspiel.deserialize_game_and_state(text)
    assert str(loaded) == str(state)
    assert loaded.information_state_string(1) == state.information_state_string(1)


@pytest.mark.spec("9.4")
def test_a_planted_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Observations built from a view that shows the next seat's hand fail the leak check of the harness runs."""
    game = load(3)
    flow = next(f for f in random_flows(3, 1) if f.state is not None and f.state.phase is Phase.PLAY_1)
    assert_no_leak(game, flow, random.Random(0))
    real = views.player_view

    def leaky(state: GameState, seat: int) -> Any:
        view = real(state, seat)
        return attrs.evolve(view, hand=view.hand + state.hands[(seat + 1) % state.players])

    monkeypatch.setattr(core, "player_view", leaky)
    with pytest.raises(AssertionError, match="changed with hidden information"):
        assert_no_leak(game, attrs.evolve(flow), random.Random(0), resamples=3)


# --------------------------------------------------------------------------- IS-MCTS support and the example


@pytest.mark.spec("9.4")
def test_ismcts_resampler_keeps_the_seats_information_state() -> None:
    """A resampled world shows the deciding seat the same information state and legal actions as the real
    turn-based state, so OpenSpiel's IS-MCTS tree lines up with the game."""
    game = pyspiel.convert_to_turn_based(load(3))
    resample = adapter.ismcts_resampler(seed=1)
    checked = 0
    for state in _turn_based_game_states(game, seed=2)[::7]:
        if state.is_chance_node() or state.is_terminal():
            continue
        seat = state.current_player()
        world = resample(state, seat)
        assert world.current_player() == seat
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        checked += 1
    assert checked > 20


@pytest.mark.spec("9.2", "9.4")
def test_example_ismcts_vs_greedy_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """examples/ismcts_vs_greedy.py plays a game between OpenSpiel's IS-MCTS bot and GreedyBot."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "ismcts_vs_greedy.py"
    spec = importlib.util.spec_from_file_location("ismcts_vs_greedy", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--games", "1", "--simulations", "2"]) == 0
    out = capsys.readouterr().out
    assert "game  1: IS-MCTS in seat 0" in out and "GreedyBot" in out
