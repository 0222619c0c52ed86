"""*Revolution!* for OpenSpiel (``revolution_sjg``): OpenSpiel's own random simulation with serialization,
whole games that end as the engine ends them, the bid-by-token encoding against the rules' legal bids, typed
refusals, and observations that show nothing of another seat's bid before the reveal.

Games in the harness are bounded (``max_rounds``) so the suite stays quick; the whole games are played through
the pyspiel API without the harness's per-state checks.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from revolution.adapters import openspiel as adapter  # noqa: E402
from revolution.adapters.encoding import TOKEN_GAME, Building, Done, OrderError, Place, RevolutionEncoder  # noqa: E402
from revolution.adapters.encoding import TokenConfig, legal_placements, max_decisions  # noqa: E402
from revolution.rules.bids import legal_bids  # noqa: E402
from revolution.rules.data import BASE_BOARD  # noqa: E402
from revolution.rules.errors import ConfigError, ImmuneCharacterError, TokensNotAllBidError  # noqa: E402
from revolution.rules.errors import TooManyCharactersError, WrongStepError  # noqa: E402
from revolution.rules.game import GAME  # noqa: E402
from revolution.rules.state import Phase, RevolutionConfig  # noqa: E402
from revolution.rules.tokens import Token, Tokens  # noqa: E402
from tablekit.adapters.flow import AdapterError  # noqa: E402
from tablekit.chance import SeededChance  # noqa: E402

SHORT = adapter.SHORT_NAME


def load(players: int, **params: object) -> Any:
    extra = "".join(f",{key}={str(value).lower()}" for key, value in params.items())
    return pyspiel.load_game(f"{SHORT}(players={players}{extra})")


def _playout(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action at a decision of seat {state.current_player()}"
        state.apply_action(rng.choice(legal))
    return state


@pytest.mark.spec("revolution:9.1")
@pytest.mark.parametrize(("players", "actions"), [(3, 249), (4, 403)])
def test_the_registered_game_is_sequential_deterministic_with_its_sizes(players: int, actions: int) -> None:
    game = load(players)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (players, actions, 0)
    assert game.max_game_length() == 100 * (56 + players + 2) == max_decisions(TokenConfig(RevolutionConfig(players)))
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    options = load(players, bid_refunds=True, area_control_bonus=True, max_rounds=5)
    config = options.new_initial_state().flow.state.state.config
    assert (config.bid_refunds, config.area_control_bonus, config.table_mode) == (True, True, False)
    assert options.max_game_length() == 5 * (56 + players + 2)


@pytest.mark.spec("revolution:1.1", "revolution:9.2")
def test_parameters_the_rules_refuse_are_typed_errors() -> None:
    with pytest.raises(ConfigError, match="three or four"):
        adapter.RevolutionGame({"players": 5})
    with pytest.raises(ConfigError, match="unknown parameters"):
        adapter.RevolutionGame({"colour": "red"})
    with pytest.raises(ConfigError, match="max_rounds"):
        adapter.RevolutionGame({"max_rounds": 0})


@pytest.mark.spec("revolution:9.1", "revolution:9.3")
@pytest.mark.parametrize("players", [3, 4])
def test_openspiels_random_simulation_with_serialization(players: int) -> None:
    game = load(players, max_rounds=3)
    visited: list[int] = []

    def check(state: Any) -> None:
        visited.append(1)
        if not state.is_terminal():
            assert state.legal_actions()

    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False, state_checker_fn=check)
    assert len(visited) > 60


@pytest.mark.spec("revolution:7.1", "revolution:7.4", "revolution:9.4")
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_whole_games_end_with_the_engines_returns(players: int, seed: int) -> None:
    """A random game ends (at the rules' end, not the bound) with legal actions at every decision, and its
    returns are the engine's, its winners those of the final scores; replaying its revealed bids and effect
    choices with the rules' own game gives the same final state."""
    game = load(players)
    state = _playout(game, random.Random(seed))
    final = state.flow.state
    assert isinstance(final, Building) and not final.truncated and final.state.is_over
    assert len(state.history()) <= game.max_game_length()
    totals = [score.total for score in final.state.final]
    winners = [seat for seat, total in enumerate(totals) if total == max(totals)]
    assert state.returns() == list(GAME.returns(final.state))
    assert state.returns() == [1 / len(winners) if seat in winners else -1.0 for seat in range(players)]
    engine = GAME.initial(RevolutionConfig(players), SeededChance(0)).state
    bids: dict[int, Any] = {}
    for building, joint in state.flow.past:
        ((seat, action),) = joint
        if building.bidder is None:
            engine = GAME.step(engine, {seat: action}, SeededChance(0)).state
        elif isinstance(action, Done):
            bids[seat] = building.bid_of(seat)
            if len(bids) == players:
                placed = [
                    {c.name: t for c, t in zip(BASE_BOARD.characters, bids[s]) if t} for s in range(players)
                ]
                from revolution.rules.bids import Bid

                engine = GAME.step(engine, {s: Bid(placed[s]) for s in range(players)}, SeededChance(0)).state
                bids = {}
    assert engine == final.state


@pytest.mark.spec("revolution:9.4")
def test_a_serialized_state_deserializes_to_the_same_state() -> None:
    game = load(3, max_rounds=4)
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if rng.random() < 0.2:
            copy = game.deserialize_state(state.serialize())
            assert copy.flow == state.flow and copy.history() == state.history()
            assert copy.information_state_string(1) == state.information_state_string(1)
        state.apply_action(rng.choice(state.legal_actions()))
    copy = game.deserialize_state(state.serialize())
    assert copy.is_terminal() and copy.returns() == state.returns()
    for text in ("x", "1", "0", "-3", "9" * 30):
        with pytest.raises(AdapterError):
            game.deserialize_state(text)


@pytest.mark.spec("revolution:4.2", "revolution:4.3", "revolution:4.4")
@pytest.mark.parametrize("held", [Tokens(2, 0, 2), Tokens(0, 1, 2), Tokens(0, 0, 7)])
def test_the_sequences_of_placements_are_exactly_the_legal_bids(held: Tokens) -> None:
    """Every sequence ending with Done is one legal bid, and every legal bid is one sequence: the count is
    the rules' count of legal bids (seven Gold exceed six characters, so the cap of rule 4.3 counts too)."""
    start = TOKEN_GAME.initial(TokenConfig(), SeededChance(0)).state
    start = attrs.evolve(start, state=attrs.evolve(start.state, held=(held, *start.state.held[1:])))
    seen: set[Any] = set()

    def walk(building: Building) -> int:
        options = legal_placements(building)
        if options == (Done(),):
            bid = TOKEN_GAME.step(building, {0: Done()}, SeededChance(0)).state.bids[0]
            GAME.check(building.state, 0, bid)
            seen.add(bid)
            return 1
        places = [option for option in options if isinstance(option, Place)]
        assert places and len(places) == len(options)  # no Done before every token is placed
        return sum(walk(attrs.evolve(building, placed=(*building.placed, place))) for place in places)

    assert walk(start) == len(legal_bids(BASE_BOARD, held)) == len(seen)


@pytest.mark.spec("revolution:4.2", "revolution:4.3", "revolution:4.4", "revolution:9.2")
def test_a_placement_the_rules_refuse_names_the_rule() -> None:
    start = TOKEN_GAME.initial(TokenConfig(RevolutionConfig(3)), SeededChance(0)).state
    general, priest = BASE_BOARD.character_index("General"), BASE_BOARD.character_index("Priest")
    with pytest.raises(TokensNotAllBidError, match="every token is bid") as refused:
        TOKEN_GAME.check(start, 0, Done())
    assert refused.value.rule == "4.2"
    with pytest.raises(ImmuneCharacterError, match="General is immune to Force"):
        TOKEN_GAME.check(start, 0, Place(general, Token.FORCE))
    with pytest.raises(WrongStepError, match="seat 1 does not choose now"):
        TOKEN_GAME.check(start, 1, Place(priest, Token.GOLD))
    later = attrs.evolve(start, placed=(Place(priest, Token.GOLD),))
    with pytest.raises(OrderError, match="board order"):
        TOKEN_GAME.check(later, 0, Place(general, Token.GOLD))
    with pytest.raises(TokensNotAllBidError, match="no Force"):
        TOKEN_GAME.check(attrs.evolve(start, placed=(Place(priest, Token.FORCE),)), 0, Place(priest, Token.FORCE))
    rich = attrs.evolve(start, state=attrs.evolve(start.state, held=(Tokens(gold=8), *start.state.held[1:])),
                        placed=tuple(Place(i, Token.GOLD) for i in range(6)))  # fmt: skip
    with pytest.raises(TooManyCharactersError) as many:
        TOKEN_GAME.check(rich, 0, Place(6, Token.GOLD))
    assert many.value.rule == "4.3"
    state = load(3).new_initial_state()
    with pytest.raises(AdapterError, match="not legal"):
        state.apply_action(RevolutionEncoder.of(RevolutionConfig(3)).encode(start, 0, Done()))


@pytest.mark.parametrize("players", [3, 4])
def test_the_encoder_inverts_on_every_action_of_its_space(players: int) -> None:
    encoder = RevolutionEncoder.of(RevolutionConfig(players))
    start = TOKEN_GAME.initial(TokenConfig(RevolutionConfig(players)), SeededChance(0)).state
    for index in range(1, encoder.num_actions):
        assert encoder.encode(start, 0, encoder.decode(start, 0, index)) == index


# --------------------------------------------------------------------------- nothing of an unrevealed bid leaks


def _seen(state: Any, seat: int) -> tuple[object, ...]:
    game = state.get_game()
    public = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                              private_info=pyspiel.PrivateInfoType.NONE))  # fmt: skip
    public.set_from(state, seat)
    legal = tuple(state.legal_actions(seat))
    return (state.observation_string(seat), tuple(state.observation_tensor(seat)),
            state.information_state_string(seat), tuple(state.information_state_tensor(seat)),
            public.string_from(state, seat), tuple(np.asarray(public.tensor)), legal)  # fmt: skip


def _round_segments(state: Any) -> tuple[list[int], list[list[int]]]:
    """The history before this round's Bidding and each seat's actions in it so far."""
    flow, history = state.flow, list(state.history())
    start = len(history)
    for at in range(len(flow.past) - 1, -1, -1):
        building, _ = flow.past[at]
        if building.bidder is None or building.state.round != flow.state.state.round:
            break
        start = at
    segments: list[list[int]] = [[] for _ in range(flow.players)]
    for (building, _), action in zip(flow.past[start:], history[start:]):
        segments[building.bidder].append(action)
    return history[:start], segments


def _other_world(game: Any, head: list[int], segments: list[list[int]], keep: int, rng: random.Random) -> Any:
    """The same game but for every seat other than ``keep``'s placements this round, drawn again (as many)."""
    state = game.new_initial_state()
    for action in head:
        state.apply_action(action)
    for seat, actions in enumerate(segments):
        for action in actions:
            state.apply_action(action if seat == keep else rng.choice(state.legal_actions()))
    return state


@pytest.mark.spec("revolution:9.3")
@pytest.mark.parametrize("players", [3, 4])
def test_another_seats_unrevealed_bid_changes_nothing_a_seat_sees(players: int) -> None:
    """At Bidding states of random games, each seat's observation and information state (strings and tensors),
    the public observation and its legal actions are the same in a world where every other seat's placements
    this round were drawn again; and the world does differ (the bidder sees its own bid)."""
    game, rng = load(players, max_rounds=4), random.Random(players)
    checked = differed = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            building = state.flow.state
            if building.bidder is not None and rng.random() < 0.15:
                head, segments = _round_segments(state)
                for seat in range(players):
                    other = _other_world(game, head, segments, seat, rng)
                    assert _seen(other, seat) == _seen(state, seat), f"seat {seat} saw another seat's bid"
                    differed += other.flow.state != building
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20 and differed > 5


@pytest.mark.spec("revolution:9.3")
def test_a_partial_bid_is_seen_by_its_bidder_alone() -> None:
    """Two worlds differing only in seat 0's first placement: seat 0's observations differ, no other's do."""
    game = load(3)
    priest, printer = BASE_BOARD.character_index("Priest"), BASE_BOARD.character_index("Printer")
    encoder = RevolutionEncoder.of(RevolutionConfig(3))
    one, other = game.new_initial_state(), game.new_initial_state()
    start = one.flow.state
    one.apply_action(encoder.encode(start, 0, Place(priest, Token.FORCE)))
    other.apply_action(encoder.encode(start, 0, Place(printer, Token.FORCE)))
    assert _seen(one, 0)[:4] != _seen(other, 0)[:4]
    for seat in (1, 2):
        assert _seen(one, seat) == _seen(other, seat)
    assert "own bid: 0 0 0" in one.observation_string(1)
