"""One test (or more) per error kind (issue 2, "Errors"; spec 9.1, 9.2 and the broken rules).

Every test checks the exception's exact type, its ``rule`` (the spec id of the broken rule), that the
message is informative (it names the seat, card or phase at fault and ends with the rule id), and that
the state passed in is unchanged: equal to a copy taken before, same hash, and still playable.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import attrs
import pytest
from builders import CO, ME, ST, SU, W, build, card, emperor, plus, rev_play, traitor_play, week_table
from darkempire.rules.cards import HandCard

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
from darkempire.rules.errors import (
    AlreadyChoseError,
    CardNotInHandError,
    ConfigError,
    DarkEmpireError,
    IllegalActionError,
    InvalidPickUpError,
    InvalidPlacementError,
    InvalidTargetError,
    MissingChoiceError,
    NoEmperorCardError,
    ReinforcementOnFirstStepError,
    ReinforcementOnSameStepError,
    SecondTraitorCardError,
    SupportAlreadyUsedError,
    WrongCardCountError,
    WrongPhaseError,
    WrongSeatError,
)
from darkempire.rules.state import GameConfig, GameState, Phase


def expect(
    error: type[IllegalActionError],
    rules: Collection[str],
    state: GameState,
    call: Callable[[], Any],
    *words: str,
) -> IllegalActionError:
    """Run ``call`` on ``state`` and check the error it raises.

    :param error: the exact exception type expected.
    :param rules: the acceptable spec ids: the id in spec/darkempire/interface.md 9.1's error table; more than
        one only where two ids name the same rule (4.5 and R-J: no traitor play without an emperor card).
    :param words: words the message must contain (case-insensitive).
    """
    before = attrs.evolve(state)
    with pytest.raises(IllegalActionError) as info:
        call()
    raised = info.value
    assert type(raised) is error, f"expected {error.__name__}, got {type(raised).__name__}: {raised}"
    assert isinstance(raised, DarkEmpireError)
    assert raised.rule in rules, f"rule {raised.rule!r}, expected one of {sorted(rules)}"
    text = str(raised)
    assert text.endswith(f"(rule {raised.rule})")
    assert len(raised.message) > 15
    for word in words:
        assert word.lower() in text.lower(), f"{word!r} not in {text!r}"
    assert state == before and hash(state) == hash(before)
    still_usable(state)
    return raised


def still_usable(state: GameState) -> None:
    """The state still accepts a legal choice (or, once the game is over, still has its verdict)."""
    if state.is_over:
        assert engine.judge_winner(state) is not None
        return
    awaited = sorted(engine.awaited_seats(state))
    if awaited:
        after = engine.apply(state, awaited[0], engine.legal_actions(state, awaited[0])[0])
        assert after != state
    else:
        assert engine.advance(state) != state


# --------------------------------------------------------------------------- states


def draft() -> GameState:
    return engine.deal(GameConfig(players=4), seed=3)


def discard_step() -> GameState:
    state = draft()
    return engine.pass_cards(state, {s: PassCards(state.hands[s][:2]) for s in state.seats})


def month_2_support() -> GameState:
    used = (frozenset({W}), frozenset({CO}), frozenset({SU}), frozenset({ME}))
    return build(4, Phase.CHOOSE_SUPPORT, month=2, week=0, support_used=used)


def step_1(with_emperor: bool = True) -> GameState:
    table = week_table(4, ST, emperor(11) if with_emperor else None, steps_revealed=0)
    hands: dict[int, list[HandCard]] = {0: [plus(0), card(ST, 4)], 1: [card(CO, 4)], 2: [card(SU, 5)], 3: [card(ST, 5)]}
    return build(4, Phase.PLAY_1, table=table, hands=hands, emperor_pile=() if not with_emperor else None)


def step_2() -> GameState:
    """Step 1 was seat 0 W6, seat 1 CO5, seat 2 SU4 and seat 3 a traitor ME7."""
    table = week_table(
        4,
        ST,
        emperor(11),
        (
            rev_play(0, card(W, 6), 1),
            rev_play(1, card(CO, 5), 1),
            rev_play(2, card(SU, 4), 1),
            traitor_play(3, card(ME, 7), 1),
        ),
        steps_revealed=1,
    )
    hands: dict[int, list[HandCard]] = {0: [plus(0), card(ST, 4)], 1: [plus(2), card(CO, 4)], 2: [card(SU, 5)], 3: [plus(1), card(ST, 5)]}
    return build(4, Phase.PLAY_2, table=table, hands=hands, hand_size=6)


CO6, CO4, CO5 = card(CO, 6), card(CO, 4), card(CO, 5)


def placement() -> GameState:
    """Seat 0 supported the Cal. Order most with a 6 and a 4 (and made its traitor play with a Cal. Order 7);
    seat 1 played a Cal. Order 5, seat 2 an 8: the Cal. Order (3 + 6 + 4 + 5 + 8 - 7 = 19) beats the
    emperor (8 + 7 = 15)."""
    table = week_table(
        3,
        CO,
        emperor(8),
        (
            rev_play(0, CO6, 1),
            rev_play(1, CO5, 1),
            rev_play(2, card(W, 4), 1),
            rev_play(0, CO4, 2),
            rev_play(1, card(W, 5), 2),
            rev_play(2, card(CO, 8, 1), 2),
            traitor_play(0, card(CO, 7), 3),
            rev_play(2, card(SU, 4), 3),
        ),
    )
    state = engine.score_week(build(3, Phase.WEEK_SCORING, table=table, hands={0: [card(CO, 8)]}, hand_size=4))
    assert state.phase is Phase.PLACEMENT and engine.awaited_seats(state) == frozenset({0})
    return state


def reorganize() -> GameState:
    state = engine.place_cards(placement(), {0: PlaceCards(frozenset({CO6}))})
    assert state.phase is Phase.REORGANIZE
    return state


def game_over() -> GameState:
    state = build(3, Phase.MONTH_SCORING, month=3, week=4, support=(W, CO, SU))
    over = engine.score_month(state)
    assert over.is_over
    return over


# --------------------------------------------------------------------------- seats and phases


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("seat", [-1, 4, 99])
def test_wrong_seat_out_of_range(seat: int) -> None:
    state = draft()
    expect(WrongSeatError, {"9.1"}, state, lambda: engine.apply(state, seat, PassCards(state.hands[0][:2])), str(seat))
    expect(WrongSeatError, {"9.1"}, state, lambda: engine.legal_actions(state, seat), str(seat))
    choices = {s: PassCards(state.hands[s][:2]) for s in state.seats} | {seat: PassCards(state.hands[0][:2])}
    expect(WrongSeatError, {"9.1"}, state, lambda: engine.pass_cards(state, choices), str(seat))


@pytest.mark.spec("9.1")
def test_wrong_seat_that_is_not_a_number() -> None:
    state = draft()
    expect(WrongSeatError, {"9.1"}, state, lambda: engine.apply(state, True, PassCards(state.hands[1][:2])))


@pytest.mark.spec("9.1")
def test_a_seat_is_a_plain_int() -> None:
    """Seats are plain ints: an IntEnum member or another int subclass is refused with a hint, even one whose
    value is a seat, so that pending choices, views and records only ever hold plain numbers, and an int
    subclass with its own ``__ne__`` cannot pass for another seat in apply's check of a listed action."""
    import enum
    from darkempire.rules.views import player_view

    class Seat(enum.IntEnum):
        NORTH = 0
        EAST = 1

    class Sly(int):
        def __ne__(self, other: object) -> bool:
            return False

    state = draft()
    for seat in (Seat.NORTH, Seat.EAST, Sly(0)):
        action = PassCards(state.hands[int(seat)][:2])
        expect(WrongSeatError, {"9.1"}, state, lambda: engine.legal_actions(state, seat), "plain int")
        expect(WrongSeatError, {"9.1"}, state, lambda: engine.apply(state, seat, action), "plain int")
        expect(WrongSeatError, {"9.1"}, state, lambda: player_view(state, seat), "plain int")
    listed = engine.legal_actions(state, 0)[0]
    expect(CardNotInHandError, {"2.5"}, state, lambda: engine.apply(state, 1, listed), "seat 1")
    expect(WrongSeatError, {"9.1"}, state, lambda: engine.legal_actions(state, False), "False")
    # The hint names the subclass, and only an int subclass gets one.
    hinted = expect(WrongSeatError, {"9.1"}, state, lambda: engine.legal_actions(state, Seat.EAST))
    assert "in a 4-player game (a seat is a plain int; use int(seat) for a Seat)" in str(hinted)
    others: tuple[Any, ...] = ("north", 1.0, None)
    for other in others:
        plain = expect(WrongSeatError, {"9.1"}, state, lambda: engine.legal_actions(state, other))
        assert str(plain) == f"there is no seat {other!r} in a 4-player game (rule 9.1)"


@pytest.mark.spec("9.1", "9.2", "R-N")
def test_wrong_seat_not_awaited() -> None:
    state = placement()  # only seat 0 places
    action = PlaceCards(frozenset({CO5}))
    expect(WrongSeatError, {"R-N"}, state, lambda: engine.apply(state, 1, action), "seat 1")
    choices = {0: PlaceCards(frozenset({CO6})), 1: action}
    expect(WrongSeatError, {"R-N"}, state, lambda: engine.place_cards(state, choices), "seat 1")


@pytest.mark.spec("9.2")
def test_already_chose() -> None:
    state = engine.apply(draft(), 0, PassCards(draft().hands[0][:2]))
    again = PassCards(state.hands[0][2:4])
    expect(AlreadyChoseError, {"9.2"}, state, lambda: engine.apply(state, 0, again), "seat 0")
    choices = {s: PassCards(state.hands[s][:2]) for s in state.seats}
    expect(AlreadyChoseError, {"9.2"}, state, lambda: engine.pass_cards(state, choices), "seat 0")


@pytest.mark.spec("9.2")
def test_missing_choice() -> None:
    state = draft()
    choices = {0: PassCards(state.hands[0][:2]), 2: PassCards(state.hands[2][:2])}
    error = expect(MissingChoiceError, {"9.2"}, state, lambda: engine.pass_cards(state, choices), "1", "3")
    assert isinstance(error, WrongSeatError)


@pytest.mark.spec("9.1")
def test_wrong_phase_action_type() -> None:
    state = draft()
    expect(WrongPhaseError, {"9.1"}, state, lambda: engine.apply(state, 0, ChooseSupport(W)), "ChooseSupport")
    support = month_2_support()
    expect(WrongPhaseError, {"9.1"}, support, lambda: engine.apply(support, 0, PlayCard(support.hands[0][0])),
           "PlayCard")


@pytest.mark.spec("9.1")
def test_wrong_phase_transition_function() -> None:
    state = discard_step()
    choices = {s: PassCards(state.hands[s][:2]) for s in state.seats}
    expect(WrongPhaseError, {"9.1"}, state, lambda: engine.pass_cards(state, choices), "draft discard")


@pytest.mark.spec("9.1")
def test_wrong_phase_score_week_and_score_month() -> None:
    state = step_1()
    expect(WrongPhaseError, {"9.1"}, state, lambda: engine.score_week(state), "play 1")
    expect(WrongPhaseError, {"9.1"}, state, lambda: engine.score_month(state), "play 1")


@pytest.mark.spec("9.1", "8.1")
def test_wrong_phase_judge_winner_before_game_over() -> None:
    state = step_1()
    expect(WrongPhaseError, {"9.1"}, state, lambda: engine.judge_winner(state), "play 1")


@pytest.mark.spec("9.1")
def test_wrong_phase_after_game_over() -> None:
    state = game_over()
    any_hand_card = state.hands[0][0]
    expect(WrongPhaseError, {"9.1"}, state, lambda: engine.apply(state, 0, PlayCard(any_hand_card)), "game over")


# --------------------------------------------------------------------------- cards


@pytest.mark.spec("2.5", "2.6", "4.2", "6.3")
def test_card_not_in_hand() -> None:
    state = draft()
    foreign = PassCards((state.hands[0][0], state.hands[1][0]))
    expect(CardNotInHandError, {"2.5"}, state, lambda: engine.apply(state, 0, foreign), "seat 0",
           state.hands[1][0].label())
    discarding = discard_step()
    drawn = DiscardCards((discarding.hands[0][0], discarding.draw_pile[0]))
    expect(CardNotInHandError, {"2.6"}, discarding, lambda: engine.apply(discarding, 0, drawn), "seat 0")
    playing = step_1()
    expect(CardNotInHandError, {"4.2"}, playing, lambda: engine.apply(playing, 1, PlayCard(card(ST, 4))),
           card(ST, 4).label())
    reorganizing = reorganize()
    bad = Reorganize(None, frozenset({card(CO, 8)}))
    expect(CardNotInHandError, {"6.3"}, reorganizing, lambda: engine.apply(reorganizing, 1, bad), "seat 1")


@pytest.mark.spec("2.5", "2.6", "5.6", "R-E")
def test_wrong_card_count() -> None:
    state = draft()
    expect(WrongCardCountError, {"2.5"}, state, lambda: engine.apply(state, 0, PassCards(state.hands[0][:1])), "2")
    expect(WrongCardCountError, {"2.5"}, state, lambda: engine.apply(state, 0, PassCards(state.hands[0][:3])), "3")
    discarding = discard_step()
    expect(WrongCardCountError, {"2.6"}, discarding, lambda: engine.apply(discarding, 2, DiscardCards(())), "0")
    placing = placement()
    both = PlaceCards(frozenset({CO6, CO4}))
    expect(WrongCardCountError, {"R-E"}, placing, lambda: engine.apply(placing, 0, both), "seat 0")


@pytest.mark.spec("4.4", "R-G")
def test_second_traitor_card() -> None:
    state = step_2()
    expect(SecondTraitorCardError, {"4.4"}, state, lambda: engine.apply(state, 3, PlayCard(card(ST, 5), Side.EMPEROR)),
           "seat 3")
    on_traitor = Reinforce(plus(1), card(ME, 7))
    expect(SecondTraitorCardError, {"R-G"}, state, lambda: engine.apply(state, 3, on_traitor), "seat 3")


@pytest.mark.spec("4.5", "R-J")
def test_no_emperor_card() -> None:
    state = step_1(with_emperor=False)
    expect(NoEmperorCardError, {"4.5", "R-J"}, state,
           lambda: engine.apply(state, 1, PlayCard(card(CO, 4), Side.EMPEROR)), "emperor")


@pytest.mark.spec("4.6")
def test_reinforcement_on_first_step() -> None:
    state = step_1()
    expect(ReinforcementOnFirstStepError, {"4.6"}, state, lambda: engine.apply(state, 0, Reinforce(plus(0), card(W, 6))),
           "first")


@pytest.mark.spec("4.6", "R-G")
def test_reinforcement_on_same_step_through_simultaneous_play() -> None:
    """Seat 1 plays a Cal. Order 4 while seat 0 tries to reinforce it in the same step (rule 4.6)."""
    state = step_2()
    choices: dict[int, PlayCard | Reinforce] = {
        0: Reinforce(plus(0), card(CO, 4)),
        1: PlayCard(card(CO, 4)),
        2: PlayCard(card(SU, 5)),
        3: PlayCard(card(ST, 5)),
    }
    expect(ReinforcementOnSameStepError, {"4.6"}, state, lambda: engine.play(state, choices), "same step")


@pytest.mark.spec("4.6", "R-G", "9.4")
def test_reinforcement_on_a_pending_choice_through_simultaneous_play_is_an_invalid_target() -> None:
    """Seat 1 already chose (hidden) its Cal. Order 4; the simultaneous call with the others' choices
    rejects a reinforcement on it as aimed at a card not on the table, as for any other such card: naming
    rule 4.6 here would tell the callers seat 1's hidden card (spec 9.4, issue 12)."""
    state = engine.apply(step_2(), 1, PlayCard(card(CO, 4)))
    choices: dict[int, PlayCard | Reinforce] = {
        0: Reinforce(plus(0), card(CO, 4)),
        2: PlayCard(card(SU, 5)),
        3: PlayCard(card(ST, 5)),
    }
    expect(InvalidTargetError, {"R-G"}, state, lambda: engine.play(state, choices), card(CO, 4).label())


@pytest.mark.spec("4.6", "9.2", "R-G")
def test_reinforcement_on_a_pending_same_step_card_through_apply_is_an_invalid_target() -> None:
    """Seat by seat, the other seat's choice is hidden and its card not on the table yet (spec 9.1)."""
    state = engine.apply(step_2(), 1, PlayCard(card(CO, 4)))
    expect(InvalidTargetError, {"R-G"}, state, lambda: engine.apply(state, 0, Reinforce(plus(0), card(CO, 4))),
           card(CO, 4).label())


@pytest.mark.spec("4.6", "R-G")
def test_invalid_target() -> None:
    state = step_2()
    in_hand = Reinforce(plus(0), card(CO, 4))  # a card still in seat 1's hand, not on the table
    expect(InvalidTargetError, {"R-G"}, state, lambda: engine.apply(state, 0, in_hand), card(CO, 4).label())
    as_faction_card = PlayCard(plus(0))
    expect(InvalidTargetError, {"R-G"}, state, lambda: engine.apply(state, 0, as_faction_card), "+3")
    faction_as_plus = Reinforce(card(ST, 4), card(W, 6))
    expect(InvalidTargetError, {"R-G"}, state, lambda: engine.apply(state, 0, faction_as_plus),
           card(ST, 4).label())


@pytest.mark.spec("4.2", "R-H")
def test_play_nothing_while_holding_a_playable_card() -> None:
    state = step_1()
    expect(IllegalActionError, {"R-H"}, state, lambda: engine.apply(state, 0, PlayNothing()), "seat 0")


@pytest.mark.spec("4.3")
def test_a_side_that_is_not_a_side() -> None:
    state = step_1()
    bad = PlayCard(card(ST, 4), "traitor")  # type: ignore[arg-type]
    expect(IllegalActionError, {"4.3"}, state, lambda: engine.apply(state, 0, bad), "traitor")


@pytest.mark.spec("3.2")
def test_a_support_choice_that_is_not_a_faction() -> None:
    state = month_2_support()
    bad = ChooseSupport("Workers")  # type: ignore[arg-type]
    expect(IllegalActionError, {"3.2"}, state, lambda: engine.apply(state, 0, bad), "Workers")


@pytest.mark.spec("3.2")
def test_support_already_used() -> None:
    state = month_2_support()
    expect(SupportAlreadyUsedError, {"3.2"}, state, lambda: engine.apply(state, 2, ChooseSupport(SU)), "seat 2",
           "suffragettes")


@pytest.mark.spec("6.2", "R-K")
def test_invalid_pick_up() -> None:
    state = reorganize()
    traitor = Reorganize(card(CO, 7))  # seat 0's own traitor card
    expect(InvalidPickUpError, {"R-K"}, state, lambda: engine.apply(state, 0, traitor), card(CO, 7).label())
    others = Reorganize(CO4)  # seat 0's card
    expect(InvalidPickUpError, {"R-K"}, state, lambda: engine.apply(state, 1, others), CO4.label())
    placed = Reorganize(CO6)  # seat 0's own card, but placed to the score track
    expect(InvalidPickUpError, {"R-K"}, state, lambda: engine.apply(state, 0, placed), CO6.label())


@pytest.mark.spec("5.6", "R-E")
def test_invalid_placement() -> None:
    state = placement()
    others = PlaceCards(frozenset({CO5}))  # seat 1's card
    expect(InvalidPlacementError, {"R-E"}, state, lambda: engine.apply(state, 0, others), CO5.label())
    from_hand = PlaceCards(frozenset({card(CO, 8)}))
    expect(InvalidPlacementError, {"R-E"}, state, lambda: engine.apply(state, 0, from_hand),
           card(CO, 8).label())
    traitor = PlaceCards(frozenset({card(CO, 7)}))  # seat 0's own traitor card
    expect(InvalidPlacementError, {"R-E"}, state, lambda: engine.apply(state, 0, traitor))


# --------------------------------------------------------------------------- configuration


@pytest.mark.spec("2.1")
@pytest.mark.parametrize("players", [2, 6, 0, "4", True, 4.0])
def test_config_error(players: object) -> None:
    with pytest.raises(ConfigError) as info:
        GameConfig(players=players)  # type: ignore[arg-type]
    assert isinstance(info.value, DarkEmpireError) and isinstance(info.value, ValueError)
    assert repr(players) in str(info.value) and "2.1" in str(info.value)


@pytest.mark.spec("2.1")
def test_config_error_through_deal() -> None:
    with pytest.raises(ConfigError):
        engine.deal(6, seed=0)  # type: ignore[arg-type]


@pytest.mark.spec("9.3")
def test_replay_names_the_bad_choice() -> None:
    state = draft()
    good: list[tuple[int, Action]] = [(0, PassCards(state.hands[0][:2]))]
    bad: list[tuple[int, Action]] = [(1, PassCards(state.hands[0][:2]))]
    with pytest.raises(CardNotInHandError) as info:
        engine.replay(GameConfig(players=4), 3, good + bad)
    assert "choice 1" in str(info.value) and info.value.rule == "2.5"


@pytest.mark.spec("9.3")
@pytest.mark.parametrize(
    ("seed", "named"),
    [
        ("abc", "'abc'"),
        (1.5, "1.5"),
        (None, "None"),
        (True, "True"),
        (2**64, "an integer of 65 bits"),
        (-(2**64), "an integer of 65 bits"),
        pytest.param(10**5000, "an integer of 16610 bits", id="5001-digits"),
    ],
)
def test_a_seed_that_is_no_small_integer_is_a_config_error(seed: Any, named: str) -> None:
    """The message names the bad seed: by its repr, or by its size for an integer too big to show."""
    from darkempire.rules.errors import ConfigError

    with pytest.raises(ConfigError, match="seed") as info:
        engine.deal(GameConfig(players=4), seed)
    assert f"not {named} (rule 9.3)" in str(info.value)


@pytest.mark.spec("8.1", "9.1")
def test_judge_winner_without_a_game_or_its_inputs_is_an_argument_error() -> None:
    from darkempire.rules.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError):
        engine.judge_winner()  # type: ignore[call-overload]
    with pytest.raises(InvalidArgumentError):
        engine.judge_winner(5)  # type: ignore[call-overload]
    with pytest.raises(InvalidArgumentError):
        engine.judge_winner(card_points=[1], emperor_total=0, banked_tokens=[0, 0, 0], victors=[])


@pytest.mark.spec("9.2")
def test_simultaneous_choices_must_be_a_mapping() -> None:
    from darkempire.rules.errors import MissingChoiceError

    state = engine.deal(GameConfig(players=3), 1)
    with pytest.raises(MissingChoiceError, match="mapping"):
        engine.pass_cards(state, None)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the listing shortcut of apply


@pytest.mark.spec("9.1", "9.2")
def test_an_action_listed_for_one_seat_is_checked_for_another() -> None:
    """apply trusts an object legal_actions just listed only for that state and seat (issue 6's shortcut):
    seat 0's listed pass names cards seat 1 does not hold, and seat ``True`` is no seat."""
    state = draft()
    listed = engine.legal_actions(state, 0)[0]
    expect(CardNotInHandError, {"2.5"}, state, lambda: engine.apply(state, 1, listed), "seat 1")
    engine.legal_actions(state, 1)
    expect(WrongSeatError, {"9.1"}, state, lambda: engine.apply(state, True, engine.legal_actions(state, 1)[0]))


@pytest.mark.spec("9.2")
def test_an_action_listed_for_an_earlier_state_is_checked_again() -> None:
    """After seat 0's pass is applied, the same listed object is checked against the new state and refused."""
    state = draft()
    listed = engine.legal_actions(state, 0)[0]
    after = engine.apply(state, 0, listed)
    expect(AlreadyChoseError, {"9.2"}, after, lambda: engine.apply(after, 0, listed), "seat 0")
    # The original state still awaits seat 0: applying the listed action to it again is legal and gives the same.
    assert engine.apply(state, 0, listed) == after


@pytest.mark.spec("9.2")
def test_an_equal_action_that_was_not_listed_is_still_checked() -> None:
    """The shortcut compares by identity: a fresh illegal action after a listing gets the full check."""
    state = draft()
    engine.legal_actions(state, 0)
    foreign = PassCards(state.hands[1][:2])
    expect(CardNotInHandError, {"2.5"}, state, lambda: engine.apply(state, 0, foreign), "seat 0")
