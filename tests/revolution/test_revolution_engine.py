"""Revolution!: the engine's transitions pinned to the rules text (set-up, resolution, rewards, the Spy and the
Apothecary, Patronage, the end and the scoring)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from revolution.rules import engine
from revolution.rules.actions import CubeAt, Decline, Replace, Swap
from revolution.rules.bids import Bid
from revolution.rules.events import BidTokensReturned, CharacterResolved, CubeNotPlaced, CubePlaced, CubeReplaced
from revolution.rules.events import CubesSwapped, EffectAwaited, EffectDeclined, EffectSkipped, GameEnded
from revolution.rules.events import RevolutionEvent, GameStarted, PatronageGiven, RoundStarted, SupportGained, TokensGained
from revolution.rules.errors import IllegalTargetError, InvalidValueError, WrongStepError
from revolution.rules.scoring import controller, final_scores, patronage
from revolution.rules.state import Phase, RevolutionConfig, RevolutionState
from revolution.rules.tokens import Tokens
from revolution_builders import NEARLY_FULL, AREAS, bid, holding, play, start, total_tokens, with_cubes

G1 = Tokens(gold=1)
CHARACTERS = ("General", "Captain", "Innkeeper", "Magistrate", "Priest", "Aristocrat", "Merchant", "Printer",
              "Rogue", "Spy", "Apothecary", "Mercenary")


def gold(state: RevolutionState, *counts: int) -> RevolutionState:
    """Each seat holding only Gold, ``counts[seat]`` of it."""
    return holding(state, [Tokens(gold=n) for n in counts])


@pytest.mark.spec("revolution:2.1", "revolution:2.2", "revolution:1.1", "revolution:1.6", "revolution:3.2",
                  "revolution:R-E", "revolution:R-T")
@pytest.mark.parametrize(("players", "bank"), [(3, Tokens(9, 9, 23)), (4, Tokens(8, 8, 20))])
def test_set_up_gives_each_seat_its_tokens_and_the_bank_the_rest_of_the_box(players: int, bank: Tokens) -> None:
    done = engine.setup(RevolutionConfig(players))
    state = done.state
    assert state.held == (Tokens(1, 1, 3),) * players and state.bank == bank
    assert total_tokens(state) == Tokens(12, 12, 32)
    assert state.supply == (25,) * players and state.support == (0,) * players
    assert all(sum(row) == 0 for row in state.cubes) and state.phase is Phase.BIDDING and state.round == 1
    assert [type(e.payload) for e in done.events] == [GameStarted, RoundStarted]
    assert done.events[1].payload == RoundStarted(1, state.held)  # Espionage: everyone's tokens, public


@pytest.mark.spec("revolution:7.2")
def test_the_cathedral_examples_a_and_b() -> None:
    """Red (seat 0), Blue (seat 1) and Green (seat 2). A: 2, 3 and 2 cubes: Blue scores the Cathedral's 35.
    B: 3, 3 and 1: the area is tied and nobody scores it."""
    a = with_cubes(start(3), {"Cathedral": (2, 3, 2)})
    assert controller((2, 3, 2)) == 1
    assert [s.area_bonus for s in final_scores(a)] == [0, 35, 0] and final_scores(a)[1].areas == ("Cathedral",)
    b = with_cubes(start(3), {"Cathedral": (3, 3, 1)})
    assert controller((3, 3, 1)) is None and [s.area_bonus for s in final_scores(b)] == [0, 0, 0]


@pytest.mark.spec("revolution:5.1", "revolution:5.4", "revolution:5.5", "revolution:5.6", "revolution:5.9",
                  "revolution:6.1")
def test_a_round_resolves_in_board_order_pays_rewards_and_returns_the_bids() -> None:
    state = gold(start(3), 2, 1, 1)
    bids = {0: bid(General=Tokens(gold=2)), 1: bid(Merchant=G1), 2: bid(General=G1)}
    after, events = play(state, bids)
    resolved = [e for e in events if isinstance(e, CharacterResolved)]
    assert [e.character for e in resolved] == list(CHARACTERS)
    assert resolved[0] == CharacterResolved("General", 0, ()) and resolved[6] == CharacterResolved("Merchant", 1, ())
    assert SupportGained(0, "General", 1, 1) in events and CubePlaced(0, "General", "Fortress") in events
    assert TokensGained(1, "Merchant", Tokens(gold=5), Tokens()) in events
    assert after.support == (1, 3, 0) and after.cubes[AREAS.index("Fortress")] == (1, 0, 0)
    assert BidTokensReturned(Tokens(gold=4), (Tokens(),) * 3) in events  # every bid token to the bank
    # Patronage: seat 0 holds its Force and 4 Gold; seat 1 its 5 Gold (nothing more); seat 2 five Gold
    assert after.held == (Tokens(force=1, gold=4), Tokens(gold=5), Tokens(gold=5))
    assert PatronageGiven(0, 4, 0) in events and PatronageGiven(2, 5, 0) in events
    assert not any(isinstance(e, PatronageGiven) and e.seat == 1 for e in events)
    assert after.round == 2 and after.phase is Phase.BIDDING and isinstance(events[-1], RoundStarted)


@pytest.mark.spec("revolution:6.1")
def test_patronage_tops_up_to_five_with_gold_only() -> None:
    held = (Tokens(force=2, blackmail=2), Tokens(), Tokens(force=1, blackmail=5), Tokens(gold=4))
    given, short = patronage(held, Tokens(12, 12, 32))
    assert given == (1, 5, 0, 1) and short == (0,) * 4
    topped = [tokens + Tokens(gold=g) for tokens, g in zip(held, given)]
    assert [t.total for t in topped] == [5, 5, 6, 5]
    assert [(t.force, t.blackmail) for t in topped] == [(t.force, t.blackmail) for t in held]  # Gold only


@pytest.mark.spec("revolution:5.3", "revolution:5.6")
def test_a_tie_wins_nothing_and_a_full_area_places_no_cube_but_pays_the_rest() -> None:
    state = with_cubes(gold(start(3), 1, 1, 2), {"Tavern": (2, 1, 1)})
    after, events = play(state, {0: bid(Priest=G1), 1: bid(Priest=G1), 2: bid(Innkeeper=Tokens(gold=2))})
    assert CharacterResolved("Priest", None, (0, 1)) in events and after.support[:2] == (0, 0)
    assert CubeNotPlaced(2, "Innkeeper", "Tavern", "area full") in events
    assert SupportGained(2, "Innkeeper", 3, 3) in events
    assert TokensGained(2, "Innkeeper", Tokens(blackmail=1), Tokens()) in events
    assert after.cubes[AREAS.index("Tavern")] == (2, 1, 1) and after.supply[2] == state.supply[2]


@pytest.mark.spec("revolution:R-G")
def test_a_seat_with_no_cube_left_places_none_and_keeps_its_other_rewards() -> None:
    state = gold(start(3), 1, 1, 1)
    state = attrs.evolve(state, supply=(0, 25, 25), cubes=tuple((0, 0, 0) for _ in AREAS))  # 25 cubes elsewhere
    after, events = play(state, {0: bid(Priest=G1), 1: bid(Printer=G1), 2: bid(Rogue=G1)})
    assert CubeNotPlaced(0, "Priest", "Cathedral", "no cube left") in events and after.support[0] == 6


def at_spy(state: RevolutionState, chooser: int = 0) -> tuple[RevolutionState, list[RevolutionEvent]]:
    """The round after ``chooser`` alone bids 1 Gold on the Spy (the others on the Printer, tying)."""
    others = {seat: bid(Printer=G1) for seat in range(state.players) if seat != chooser}
    return play(gold(state, *([1] * state.players)), {chooser: bid(Spy=G1), **others})


@pytest.mark.spec("revolution:5.7", "revolution:R-H", "revolution:9.1")
def test_the_spys_winner_replaces_an_opponents_cube_at_the_spys_place() -> None:
    state = with_cubes(start(3), {"Cathedral": (1, 2, 0), "Fortress": (0, 0, 8)})
    choosing, events = at_spy(state)
    assert choosing.phase is Phase.CHOOSING and engine.awaited(choosing) == {0}
    assert EffectAwaited(0, "Spy") in events
    assert [e.character for e in events if isinstance(e, CharacterResolved)] == list(CHARACTERS[:10])
    options = engine.legal_actions(choosing, 0)
    assert options == (Replace(CubeAt("Cathedral", 1)), Replace(CubeAt("Fortress", 2)), Decline())
    after, more = play(choosing, {0: Replace(CubeAt("Fortress", 2))})  # a full area too
    assert CubeReplaced(0, "Spy", CubeAt("Fortress", 2)) in more
    assert after.cubes[AREAS.index("Fortress")] == (1, 0, 7) and after.supply == (23, 23, 18)
    assert [e.character for e in more if isinstance(e, CharacterResolved)] == ["Apothecary", "Mercenary"]
    assert after.phase is Phase.BIDDING and after.round == 2


@pytest.mark.spec("revolution:R-K")
def test_the_spy_sees_the_cube_the_general_placed_this_round_and_skips_without_target() -> None:
    """The winner chooses at the Spy's place: the cube seat 1 placed with the General this round is a target.
    With no opponent's cube on the board, nobody is asked."""
    state = gold(start(3), 2, 1, 1)
    choosing, events = play(state, {0: bid(Spy=Tokens(gold=2)), 1: bid(General=G1), 2: bid(Printer=G1)})
    assert engine.legal_actions(choosing, 0) == (Replace(CubeAt("Fortress", 1)), Decline())
    empty, events = at_spy(start(3))
    assert EffectSkipped(0, "Spy") in events and empty.phase is Phase.BIDDING
    own_only, events = at_spy(with_cubes(start(3), {"Market": (3, 0, 0)}))
    assert EffectSkipped(0, "Spy") in events  # its own cubes are no target


@pytest.mark.spec("revolution:R-G", "revolution:R-K")
def test_a_spy_with_no_cube_left_has_nothing_to_choose() -> None:
    state = with_cubes(start(3), {"Cathedral": (0, 2, 0)})
    state = attrs.evolve(state, supply=(0, 23, 25))
    after, events = at_spy(state)
    assert EffectSkipped(0, "Spy") in events and after.phase is Phase.BIDDING


@pytest.mark.spec("revolution:5.8", "revolution:R-I")
def test_the_apothecary_swaps_two_cubes_of_different_colours_and_areas() -> None:
    """The text's example: Red (0) swaps Blue's (1) cube in the Cathedral with Yellow's (2) in the Tavern."""
    state = with_cubes(gold(start(3), 1, 1, 1), {"Tavern": (1, 0, 1), "Cathedral": (2, 2, 0)})
    choosing, _ = play(state, {0: bid(Apothecary=G1), 1: bid(Printer=G1), 2: bid(Printer=G1)})
    options = engine.legal_actions(choosing, 0)
    # not offered: two cubes of one colour (Red's in the Tavern and the Cathedral), or of one area
    assert set(options) == {Swap(CubeAt("Tavern", 0), CubeAt("Cathedral", 1)),
                            Swap(CubeAt("Tavern", 2), CubeAt("Cathedral", 0)),
                            Swap(CubeAt("Tavern", 2), CubeAt("Cathedral", 1)), Decline()}
    swap = Swap.between(CubeAt("Cathedral", 1), CubeAt("Tavern", 2), AREAS)
    assert swap == Swap(CubeAt("Tavern", 2), CubeAt("Cathedral", 1))
    with pytest.raises(IllegalTargetError, match="names no cube") as error:
        engine.check(choosing, 0, Swap(CubeAt("Cathedral", 1), CubeAt("Tavern", 2)))  # the later area first
    assert error.value.rule == "5.8"
    after, events = play(choosing, {0: swap})
    assert CubesSwapped(0, "Apothecary", CubeAt("Tavern", 2), CubeAt("Cathedral", 1)) in events
    assert after.cubes[AREAS.index("Tavern")] == (1, 1, 0) and after.cubes[AREAS.index("Cathedral")] == (2, 1, 1)
    assert controller(after.cubes[AREAS.index("Cathedral")]) == 0 and after.supply == state.supply


@pytest.mark.spec("revolution:R-J", "revolution:9.1")
def test_the_winner_may_decline_and_other_actions_are_refused() -> None:
    state = with_cubes(start(3), {"Cathedral": (1, 2, 0)})
    choosing, _ = at_spy(state)
    with pytest.raises(IllegalTargetError, match="opponent's cube") as error:
        engine.check(choosing, 0, Replace(CubeAt("Cathedral", 0)))
    assert error.value.rule == "5.7"
    with pytest.raises(IllegalTargetError, match="Replace or Decline"):
        engine.check(choosing, 0, Swap(CubeAt("Cathedral", 1), CubeAt("Fortress", 2)))
    with pytest.raises(WrongStepError) as wrong:
        engine.check(choosing, 0, bid(Priest=G1))
    assert wrong.value.rule == "9.1"
    with pytest.raises(WrongStepError, match="only the Spy's winner"):
        engine.check(choosing, 1, Decline())
    after, events = play(choosing, {0: Decline()})
    assert EffectDeclined(0, "Spy") in events and after.cubes == state.cubes


@pytest.mark.spec("revolution:9.1")
def test_a_bidding_step_takes_bids_only_and_one_of_every_seat() -> None:
    state = start(3)
    with pytest.raises(WrongStepError, match="chooses a Bid") as error:
        engine.check(state, 0, Decline())
    assert error.value.rule == "9.1"
    with pytest.raises(WrongStepError, match="one choice of each awaited seat"):
        engine.step(state, {0: bid(Priest=Tokens(1, 1, 3))})


def last_space(state: RevolutionState) -> RevolutionState:
    """Every space filled but one of the Tavern's (:data:`NEARLY_FULL`)."""
    return with_cubes(state, NEARLY_FULL)


@pytest.mark.spec("revolution:7.1", "revolution:7.3", "revolution:7.4", "revolution:R-P")
def test_the_game_ends_exactly_when_the_last_space_fills_after_the_whole_resolution() -> None:
    state = last_space(gold(start(3), 1, 1, 1))
    # a round that fills nothing: the game goes on
    same, events = play(state, {0: bid(Printer=G1), 1: bid(Priest=G1), 2: bid(Rogue=G1)})
    assert same.phase is Phase.BIDDING and not any(isinstance(e, GameEnded) for e in events)
    # seat 0 fills the Tavern with the Innkeeper; the Spy's winner still chooses after it, then the game ends
    choosing, events = play(gold(state, 1, 1, 1), {0: bid(Innkeeper=G1), 1: bid(Spy=G1), 2: bid(Mercenary=G1)})
    assert choosing.board_full and choosing.phase is Phase.CHOOSING and choosing.chooser == 1
    over, events = play(choosing, {1: Replace(CubeAt("Fortress", 2))})
    assert over.is_over and isinstance(events[-1], GameEnded) and engine.awaited(over) == frozenset()
    assert not any(isinstance(e, (PatronageGiven, RoundStarted)) for e in events)  # no Patronage after the end
    scores = {s.seat: s for s in over.final}
    # leftover tokens: seat 0 won the Innkeeper's Blackmail (3), seat 2 the Mercenary's Force (5)
    assert scores[0].tokens == Tokens(blackmail=1) and scores[0].token_support == 3
    assert scores[2].tokens == Tokens(force=1) and scores[2].token_support == 5
    assert scores[2].areas == ("Market", "Plantation", "Cathedral", "Harbor", "Town Hall", "Fortress")
    assert scores[2].total == 3 + 5 + 25 + 30 + 35 + 40 + 45 + 50 and over.winners == {2}
    assert events[-1] == GameEnded(over.final, (2,))
    with pytest.raises(WrongStepError) as error:
        engine.check(over, 0, bid())
    assert error.value.rule == "7.1"


@pytest.mark.spec("revolution:7.4", "revolution:R-O", "revolution:R-S")
def test_a_tie_for_the_most_support_is_a_shared_win_and_support_has_no_ceiling() -> None:
    state = attrs.evolve(last_space(gold(start(3), 1, 1, 1)), support=(98, 236, 0))
    over, _ = play(state, {0: bid(Printer=G1), 1: bid(Innkeeper=G1), 2: bid(Rogue=G1)})
    totals = [s.total for s in over.final]
    assert over.support[0] == 108 and totals[0] < totals[1]
    tied = attrs.evolve(over, final=tuple(attrs.evolve(s, support=500 - s.total + s.support) if s.seat < 2 else s
                                          for s in over.final))
    assert tied.winners == {0, 1}


@pytest.mark.spec("revolution:1.2")
def test_support_is_never_lost() -> None:
    """Nothing lowers support: a lost bid, a tie, the Spy against the seat (more in the property tests)."""
    state = attrs.evolve(with_cubes(start(3), {"Cathedral": (1, 2, 0)}), support=(4, 9, 2))
    choosing, _ = at_spy(state)
    after, _ = play(choosing, {0: Replace(CubeAt("Cathedral", 1))})
    assert all(a >= b for a, b in zip(after.support, state.support))


@pytest.mark.spec("revolution:9.2", "revolution:1.1")
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("support", (0, 0)),
        ("support", (0, -1, 0)),
        ("held", (Tokens(), Tokens(), 5)),
        ("bank", (1, 1, 1)),
        ("cubes", ((0, 0, 0),)),
        ("cubes", tuple((5, 0, 0) for _ in AREAS)),
        ("supply", (26, 25, 25)),
        ("bids", (Bid(),)),
        ("resolving", 12),
        ("chooser", 1),
        ("round", 0),
        ("phase", "bidding"),
        ("config", None),
    ],
)
def test_a_hand_built_state_that_does_not_fit_its_config_is_refused_naming_the_field(field: str,
                                                                                     value: object) -> None:
    changes: dict[str, Any] = {field: value}
    with pytest.raises(InvalidValueError, match=f"RevolutionState.{field}") as error:
        attrs.evolve(start(3), **changes)
    assert error.value.field == f"RevolutionState.{field}"


@pytest.mark.spec("revolution:9.1")
def test_no_step_resolves_in_the_middle_of_a_resolution() -> None:
    middle = attrs.evolve(start(3), phase=Phase.RESOLUTION)
    assert engine.awaited(middle) == frozenset() and engine.legal_actions(middle, 0) == ()
    with pytest.raises(WrongStepError, match="middle of the Resolution"):
        engine.step(middle, {})
    with pytest.raises(WrongStepError, match="middle of the Resolution"):
        engine.check(middle, 0, Decline())
