"""Rule behaviour that mutation testing showed no other test pinned down (issue 4; spec 2-9).

Each test states a rule and asserts what a wrong engine would get wrong; they were written against the
mutants that survived ``nox -s mutation``, but every one checks the rules, not the mutants.
"""

from __future__ import annotations

import copy as copy_module
import random
from typing import Any

import attrs
import pytest

from darkempire.rules import engine
from darkempire.rules.actions import (
    Action,
    ChooseSupport,
    DiscardCards,
    PassCards,
    PlaceCards,
    PlayCard,
    Reinforce,
    Reorganize,
    Side,
)
from darkempire.rules.cards import FACTION_CARDS, REINFORCEMENT_CARDS, AddOnCard, Faction, faction_name
from darkempire.rules.errors import (
    CardNotInHandError,
    ConfigError,
    IllegalActionError,
    InvalidPickUpError,
    InvalidPlacementError,
    InvalidTargetError,
    MissingChoiceError,
    NoEmperorCardError,
    ReinforcementOnFirstStepError,
    WrongCardCountError,
    WrongPhaseError,
)
from darkempire.rules.scoring import PlacementDue, final_verdict, month_bonus_share, score_month_tally, supported_most
from darkempire.rules.state import GameConfig, GameState, Phase
from darkempire.rules.table import Play


def play_random(players: int, seed: int, until: Any = None) -> list[GameState]:
    """Every resting state of a game of random legal choices (``Random(seed)``), up to the first state for
    which ``until(state)`` is true, or the end."""
    rng = random.Random(seed)
    states = [engine.deal(GameConfig(players=players), seed)]
    while not states[-1].is_over and not (until is not None and until(states[-1])):
        state = states[-1]
        seat = rng.choice(sorted(engine.awaited_seats(state)))
        states.append(engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))))
    return states


def choices_of(players: int, seed: int) -> list[tuple[int, Action]]:
    """The ``(seat, action)`` choices of :func:`play_random`'s game."""
    rng = random.Random(seed)
    state = engine.deal(GameConfig(players=players), seed)
    out: list[tuple[int, Action]] = []
    while not state.is_over:
        seat = rng.choice(sorted(engine.awaited_seats(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        out.append((seat, action))
        state = engine.apply(state, seat, action)
    return out


# --------------------------------------------------------------------------- setup


@pytest.mark.spec("2.1", "9.3")
def test_deal_accepts_a_player_count_for_the_config() -> None:
    """``deal(4, seed)`` is the game of ``GameConfig(players=4)``; a bad count raises ConfigError (rule 2.1)."""
    assert engine.deal(4, 3) == engine.deal(GameConfig(players=4), 3)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        engine.deal(6, 3)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- wrong transitions


@pytest.mark.spec("9.1")
@pytest.mark.parametrize(
    "name", ["pass_cards", "discard", "choose_support", "play", "place_cards", "reorganize"]
)
def test_a_transition_in_the_wrong_phase_names_itself_and_the_phase(name: str) -> None:
    """Calling a simultaneous transition in another phase raises WrongPhaseError naming the transition
    and the current phase, so a front end can tell the user what went wrong (rule 9.1)."""
    state = engine.deal(GameConfig(players=3), 1)
    if name == "pass_cards":
        state = play_random(3, 1, until=lambda s: s.phase is Phase.DRAFT_DISCARD)[-1]
    transition = getattr(engine, name)
    with pytest.raises(WrongPhaseError) as caught:
        transition(state, {})
    assert caught.value.rule == "9.1"
    assert caught.value.message.startswith(f"{name} is a transition of the ")
    assert f"not {state.phase.value}" in caught.value.message


@pytest.mark.spec("9.1")
def test_automatic_steps_and_the_verdict_refuse_other_phases() -> None:
    """score_week, score_month and judge_winner raise WrongPhaseError outside their phase (rule 9.1)."""
    state = engine.deal(GameConfig(players=3), 2)
    for call, words in (
        (engine.score_week, "weekly scoring follows the third play step"),
        (engine.score_month, "monthly scoring follows the fourth week"),
        (engine.judge_winner, "the winner is judged after the third monthly scoring"),
    ):
        with pytest.raises(WrongPhaseError) as caught:
            call(state)
        assert caught.value.rule == "9.1" and caught.value.message.startswith(words)
        assert "draft pass" in caught.value.message


_JUDGE_INPUTS: dict[str, Any] = {
    "card_points": [10, 0, 0, 0, 0],
    "emperor_total": 0,
    "banked_tokens": [0, 0, 0],
    "victors": [Faction.WORKERS, Faction.STUDENTS, Faction.MECHANDROS],
}


@pytest.mark.spec("8.1", "R-M")
@pytest.mark.parametrize("missing", sorted(_JUDGE_INPUTS))
def test_judge_winner_needs_all_its_inputs(missing: str) -> None:
    """``judge_winner`` judges a finished game or all four inputs; without any one of them it raises a
    TypeError that says what it takes (rule 8.1)."""
    partial = {k: v for k, v in _JUDGE_INPUTS.items() if k != missing}
    with pytest.raises(TypeError, match="^judge_winner takes a finished GameState, or all of card_points"):
        engine.judge_winner(**partial)
    assert engine.judge_winner(**_JUDGE_INPUTS).winners == frozenset({0})


# --------------------------------------------------------------------------- replay


@pytest.mark.spec("9.3")
def test_replay_names_the_first_illegal_choice() -> None:
    """Replaying a record with an illegal choice raises that choice's error type and rule, with its index
    and seat in the message (rule 9.3)."""
    choices = choices_of(3, 5)[:40]
    seat, action = choices[30]
    broken = choices[:30] + [((seat + 1) % 3, action)] + choices[31:]
    state = engine.replay(GameConfig(players=3), 5, choices[:30])
    with pytest.raises(IllegalActionError) as direct:
        engine.apply(state, (seat + 1) % 3, action)
    with pytest.raises(IllegalActionError) as caught:
        engine.replay(GameConfig(players=3), 5, broken)
    assert type(caught.value) is type(direct.value)
    assert caught.value.rule == direct.value.rule
    assert caught.value.message == f"choice 30 (seat {(seat + 1) % 3}): {direct.value.message}"


# --------------------------------------------------------------------------- automatic steps called directly


@pytest.mark.spec("5.4", "5.5", "5.7", "9.1")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_score_week_on_a_hand_built_state_is_what_the_play_step_does(seed: int) -> None:
    """A state resting in WEEK_SCORING (built by hand) scored with ``score_week`` gives the same state as
    the third play step that leads through weekly scoring (rules 5.1-5.7)."""
    states = play_random(4, seed)
    for before, after in zip(states, states[1:]):
        if before.phase is Phase.PLAY_3 and len(after.history) > len(before.history):
            table = after.history[len(before.history)].table
            resting = attrs.evolve(
                before, phase=Phase.WEEK_SCORING, table=table, hands=_hands_after_play(before, after),
                pending=(None,) * before.players,
            )
            assert engine.score_week(resting) == after
            return
    pytest.fail("no third play step resolved")


def _hands_after_play(before: GameState, after: GameState) -> tuple[tuple[Any, ...], ...]:
    played = set(after.history[len(before.history)].table.cards())
    return tuple(tuple(c for c in hand if c not in played) for hand in before.hands)


@pytest.mark.spec("7.2", "7.3", "8.1", "9.1")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_score_month_on_a_hand_built_state_ends_the_game(players: int) -> None:
    """Undo the third monthly scoring of a finished game; ``score_month`` redoes it exactly (rules 7.1-7.3,
    8.1-8.5): bonuses, banked tokens, retired support cards and the verdict."""
    over = play_random(players, 7)[-1]
    last = over.month_scores[-1]
    tokens = tuple(sum(r.score.tokens[s] for r in over.history if r.month == 3) for s in over.seats)
    resting = attrs.evolve(
        over,
        phase=Phase.MONTH_SCORING,
        verdict=None,
        month_scores=over.month_scores[:-1],
        month_tokens=tokens,
        banked_tokens=tuple(b - t - x for b, t, x in zip(over.banked_tokens, tokens, last.bonus, strict=True)),
        support=last.support,
        support_used=tuple(u - {f} for u, f in zip(over.support_used, last.support, strict=True)),
    )
    assert engine.score_month(resting) == over


# --------------------------------------------------------------------------- error messages and rule ids


def first_state(players: int, predicate: Any, seeds: range = range(100)) -> GameState:
    """The first resting state of random play (seeds in order) for which ``predicate(state)`` holds."""
    for seed in seeds:
        for state in play_random(players, seed, until=predicate):
            if predicate(state):
                return state
    raise AssertionError("no game reached the wanted state")


def _raises(state: GameState, seat: int, action: Action) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        engine.apply(state, seat, action)
    return caught.value


def _reinforcement_holder(state: GameState) -> int | None:
    return next(
        (s for s in sorted(engine.awaited_seats(state)) if any(c.is_reinforcement for c in state.hands[s])), None
    )


@pytest.mark.spec("4.2", "4.6", "2.5", "2.6", "6.3")
def test_a_card_not_held_cites_the_rule_of_the_step() -> None:
    """Naming a card the seat does not hold raises CardNotInHandError citing the step's rule: 2.5 in the
    draft pass, 2.6 in the draft discard, 4.2 at a play step (faction or reinforcement card), 6.3 at
    re-organize; the message names the seat and the card."""
    draft = engine.deal(GameConfig(players=3), 0)
    foreign = draft.hands[1][0]
    error = _raises(draft, 0, PassCards((draft.hands[0][0], foreign)))
    assert type(error) is CardNotInHandError and error.rule == "2.5"
    assert error.message == f"seat 0 does not hold {foreign.label()}"
    discard = first_state(3, lambda s: s.phase is Phase.DRAFT_DISCARD)
    error = _raises(discard, 0, DiscardCards((discard.hands[0][0], discard.hands[1][0])))
    assert type(error) is CardNotInHandError and error.rule == "2.6"
    play = first_state(4, lambda s: s.phase is Phase.PLAY_2 and _reinforcement_holder(s) is not None)
    seat = _reinforcement_holder(play)
    assert seat is not None and play.table is not None
    outside = next(c for c in REINFORCEMENT_CARDS if c not in play.hands[seat])
    error = _raises(play, seat, Reinforce(outside, play.table.plays[0].card))
    assert type(error) is CardNotInHandError and error.rule == "4.2"
    error = _raises(play, seat, PlayCard(next(c for c in FACTION_CARDS if c not in play.hands[seat])))
    assert type(error) is CardNotInHandError and error.rule == "4.2"
    reorganize = first_state(3, lambda s: s.phase is Phase.REORGANIZE and bool(engine.awaited_seats(s)))
    seat = min(engine.awaited_seats(reorganize))
    not_held = next(c for c in FACTION_CARDS if c not in reorganize.hands[seat])
    error = _raises(reorganize, seat, Reorganize(None, frozenset({not_held})))
    assert type(error) is CardNotInHandError and error.rule == "6.3"


@pytest.mark.spec("4.6")
def test_a_reinforcement_as_first_card_says_why() -> None:
    """A reinforcement at the first step raises ReinforcementOnFirstStepError, rule 4.6, whose message
    says a reinforcement card may never be a seat's first card of the week."""
    state = first_state(4, lambda s: s.phase is Phase.PLAY_1 and _reinforcement_holder(s) is not None)
    seat = _reinforcement_holder(state)
    assert seat is not None
    card = next(c for c in state.hands[seat] if c.is_reinforcement)
    error = _raises(state, seat, Reinforce(card, FACTION_CARDS[0]))
    assert type(error) is ReinforcementOnFirstStepError and error.rule == "4.6"
    assert error.message == "a reinforcement card may never be a seat's first card of the week"


@pytest.mark.spec("5.6", "R-E")
def test_a_placement_of_the_wrong_factions_names_the_factions_due() -> None:
    """Placing cards of the wrong factions raises WrongCardCountError (ruling E) whose message lists the
    factions the seat must place, by name, in faction order."""
    state = first_state(4, lambda s: s.phase is Phase.PLACEMENT, seeds=range(300))
    seat = min(engine.awaited_seats(state))
    assert state.week_score is not None
    dues = sorted({d.faction for d in state.week_score.placements if d.seat == seat})
    error = _raises(state, seat, PlaceCards(()))
    assert type(error) is WrongCardCountError and error.rule == "R-E"
    assert error.message == f"seat {seat} places exactly one card of each of: {', '.join(faction_name(f) for f in dues)}"


@pytest.mark.spec("4.6", "R-G")
def test_a_reinforcement_aimed_at_something_that_is_no_card_is_an_invalid_target() -> None:
    """A front end may send garbage: a reinforcement aimed at a value that is no hand card raises
    InvalidTargetError (ruling G) naming that value, not a crash."""
    state = first_state(4, lambda s: s.phase is Phase.PLAY_2 and _reinforcement_holder(s) is not None)
    seat = _reinforcement_holder(state)
    assert seat is not None
    card = next(c for c in state.hands[seat] if c.is_reinforcement)
    error = _raises(state, seat, Reinforce(card, "the emperor card"))  # type: ignore[arg-type]
    assert type(error) is InvalidTargetError and error.rule == "R-G"
    assert error.message == "'the emperor card' is not a faction card played in an earlier step this week"
    aimed_at_hand = next(c for c in state.hands[seat] if c != card)
    error = _raises(state, seat, Reinforce(card, aimed_at_hand))
    assert error.message == f"{aimed_at_hand.label()} is not a faction card played in an earlier step this week"


@pytest.mark.spec("6.2", "R-K")
def test_a_pick_up_of_something_that_is_no_card_is_refused_by_name() -> None:
    """Re-organize: taking back a value that is no card raises InvalidPickUpError (ruling K) naming the
    value; taking back a card still in hand names the card."""
    state = first_state(3, lambda s: s.phase is Phase.REORGANIZE and bool(engine.awaited_seats(s)))
    seat = min(engine.awaited_seats(state))
    error = _raises(state, seat, Reorganize("my card"))  # type: ignore[arg-type]
    assert type(error) is InvalidPickUpError and error.rule == "R-K"
    assert error.message.endswith("still on the table, not 'my card'")
    assert error.message.startswith(f"seat {seat} may take back only one of its own revolution-side faction cards")
    held = state.hands[seat][0]
    assert _raises(state, seat, Reorganize(held)).message.endswith(f"not {held.label()}")


# --------------------------------------------------------------------------- components and pure scoring inputs


@pytest.mark.spec("2.1")
@pytest.mark.parametrize("players", [2, 6, 0, True, "4", 4.0])
def test_only_three_to_five_players(players: Any) -> None:
    """A game is for 3 to 5 players, given as an int (rule 2.1); the error names the bad value."""
    with pytest.raises(ConfigError) as caught:
        GameConfig(players=players)
    assert str(caught.value) == f"the game is for 3 to 5 players, not {players!r} (rule 2.1)"


@pytest.mark.spec("2.1", "2.2")
@pytest.mark.parametrize(("players", "add_on"), [(3, None), (4, AddOnCard.FIVE_PLUS), (5, AddOnCard.TEN_PLUS)])
def test_config_seats_and_add_on(players: int, add_on: AddOnCard | None) -> None:
    """Seats are numbered 0..n-1 and the add-on card follows the player count (rules 2.1, 2.2)."""
    state = engine.deal(GameConfig(players=players), 0)
    assert state.players == players and state.seats == range(players)
    assert GameConfig(players=players).add_on is add_on
    assert GameConfig().players == 4


@pytest.mark.spec("9.1")
def test_phases_know_their_step_and_whether_seats_choose() -> None:
    """Play phases are steps 1-3, every other phase step 0; scoring phases are automatic (rule 9.1)."""
    assert [p.step for p in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3)] == [1, 2, 3]
    assert all(p.step == 0 for p in Phase if not p.name.startswith("PLAY_"))
    automatic = {p for p in Phase if not p.is_decision}
    assert automatic == {Phase.WEEK_SCORING, Phase.MONTH_SCORING, Phase.GAME_OVER}
    assert repr(Phase.PLAY_2) == "Phase.PLAY_2"


@pytest.mark.spec("7.2", "R-L")
def test_the_six_points_split() -> None:
    """1 supporter 6, 2 get 3, 3 get 2, 4 or 5 get 1, nobody 0 (rule 7.2, ruling L)."""
    assert [month_bonus_share(n) for n in range(6)] == [0, 6, 3, 2, 1, 1]
    assert month_bonus_share(-1) == 0


@pytest.mark.spec("5.3", "R-C")
def test_support_most_needs_some_support_and_ties_share() -> None:
    """The seats that supported a faction most have the highest support above 0, ties all (rule 5.3, ruling C);
    a faction nobody supported, or an empty table of seats, has none."""
    assert supported_most((1, 0, 1)) == frozenset({0, 2})
    assert supported_most((0, 4, 11, 7)) == frozenset({2})
    assert supported_most((0, 0, 0)) == frozenset()
    assert supported_most(()) == frozenset()


@pytest.mark.spec("7.1")
def test_month_tally_records_the_month_it_is_given() -> None:
    """The month number is only recorded: 0 when the caller gives none, else the month given."""
    support = [Faction.WORKERS, Faction.WORKERS, Faction.STUDENTS]
    assert score_month_tally([], [0, 2, 0], support).month == 0
    assert score_month_tally([], [0, 2, 0], support, month=3).month == 3


@pytest.mark.spec("7.1", "5.5")
def test_month_tally_rejects_inconsistent_inputs() -> None:
    """score_month_tally needs one token count per support card and only faction cards (rules 7.1, 5.5)."""
    with pytest.raises(ValueError, match="^2 token counts for 3 support cards$"):
        score_month_tally([], [0, 0], [Faction.WORKERS] * 3)
    reinforcement = REINFORCEMENT_CARDS[0]
    with pytest.raises(ValueError, match=f"^reinforcement card {reinforcement.id} cannot be on the score track"):
        score_month_tally([reinforcement], [0, 0, 0], [Faction.WORKERS] * 3)


@pytest.mark.spec("8.1", "2.3")
def test_final_verdict_rejects_inconsistent_inputs() -> None:
    """final_verdict needs 5 card totals, one token count per victor card, distinct victors (rules 8.1, 2.3)."""
    victors = [Faction.WORKERS, Faction.STUDENTS, Faction.MECHANDROS]
    with pytest.raises(ValueError, match="^card_points needs 5 entries, got 4$"):
        final_verdict([0] * 4, 0, [0, 0, 0], victors)
    with pytest.raises(ValueError, match="^2 token counts for 3 victor cards$"):
        final_verdict([0] * 5, 0, [0, 0], victors)
    with pytest.raises(ValueError, match=r"^each faction's victor card is held by one seat at most \(rule 2\.3\)$"):
        final_verdict([0] * 5, 0, [0, 0, 0], [Faction.WORKERS, Faction.WORKERS, Faction.STUDENTS])


@pytest.mark.spec("R-G", "1.2")
def test_a_play_holds_a_faction_card() -> None:
    """Only faction cards are played; a reinforcement card is attached, never a Play (ruling G)."""
    reinforcement = REINFORCEMENT_CARDS[3]
    with pytest.raises(ValueError, match=f"not the reinforcement card {reinforcement.id} \\(ruling G\\)"):
        Play(seat=0, card=reinforcement, side=Side.REVOLUTION, step=1)  # type: ignore[arg-type]
    play = Play(seat=1, card=FACTION_CARDS[14], side=Side.EMPEROR, step=2, reinforcements=[])
    assert play.reinforcements == () and play.faction is Faction.CALENDRICAL_ORDER and play.is_traitor


# --------------------------------------------------------------------------- states rebuilt from equal values


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_copied_state_plays_like_the_original(players: int) -> None:
    """A state rebuilt from equal values (a deep copy, as a loaded save would be: equal cards that are
    other objects) lists the same legal actions and gives equal states for the same choices (rule 9.3)."""
    rng = random.Random(players)
    state = engine.deal(GameConfig(players=players), players)
    seen = set()
    while not state.is_over:
        seat = rng.choice(sorted(engine.awaited_seats(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        after = engine.apply(state, seat, action)
        if state.week == 0 or rng.random() < 0.25:  # the draft, month starts and a quarter of the rest
            seen.add(type(action).__name__)
            copy = copy_module.deepcopy(state)
            assert copy == state and copy.hands[0][0] is not state.hands[0][0]
            assert engine.awaited_seats(copy) == engine.awaited_seats(state)
            for other in state.seats:
                assert engine.legal_actions(copy, other) == engine.legal_actions(state, other)
            assert engine.apply(copy, seat, copy_module.deepcopy(action)) == after
        state = after
    assert {"PassCards", "DiscardCards", "ChooseSupport", "PlayCard", "Reinforce", "Reorganize"} <= seen


@pytest.mark.spec("9.2")
def test_a_simultaneous_step_takes_a_mapping_of_choices() -> None:
    """The simultaneous transitions take ``{seat: action}``; a list raises MissingChoiceError (rule 9.2)
    naming the transition and what it got, and a mapping that leaves out an awaited seat names that seat."""
    state = engine.deal(GameConfig(players=3), 8)
    actions = [engine.legal_actions(state, seat)[0] for seat in state.seats]
    with pytest.raises(MissingChoiceError) as caught:
        engine.pass_cards(state, actions)  # type: ignore[arg-type]
    assert caught.value.rule == "9.2"
    assert caught.value.message == "pass_cards takes a mapping {seat: action}, not list"
    with pytest.raises(MissingChoiceError) as caught:
        engine.pass_cards(state, {0: actions[0]})  # type: ignore[dict-item]
    assert caught.value.rule == "9.2" and caught.value.message == "the choices of seats [1, 2] are missing"


@pytest.mark.spec("8.1")
def test_judge_winner_of_something_that_is_no_state() -> None:
    """``judge_winner`` of a value that is no GameState raises an error naming the type it got (rule 8.1)."""
    with pytest.raises(TypeError) as caught:
        engine.judge_winner(42)  # type: ignore[call-overload]
    assert str(caught.value) == "judge_winner takes a GameState, not int"


@pytest.mark.spec("5.6", "R-E")
def test_a_seat_due_two_factions_is_told_both() -> None:
    """A seat that supported two tied strongest factions most places one card of each (rule 5.6, ruling E):
    placing none raises WrongCardCountError naming both factions, comma-separated in faction order; one card
    of each, from the candidates, is accepted."""
    base = first_state(4, lambda s: s.phase is Phase.PLACEMENT, seeds=range(300))
    assert base.week_score is not None and base.table is not None
    workers = [c for c in FACTION_CARDS if c.faction is Faction.WORKERS][:2]
    students = [c for c in FACTION_CARDS if c.faction is Faction.STUDENTS][:1]
    dues = (PlacementDue(0, Faction.WORKERS, tuple(workers)), PlacementDue(0, Faction.STUDENTS, tuple(students)))
    state = attrs.evolve(base, week_score=attrs.evolve(base.week_score, placements=dues), pending=(None,) * 4)
    assert engine.awaited_seats(state) == frozenset({0})
    assert {a.cards for a in engine.legal_actions(state, 0)} == {  # type: ignore[union-attr]
        frozenset({workers[0], students[0]}), frozenset({workers[1], students[0]})
    }
    error = _raises(state, 0, PlaceCards(()))
    assert type(error) is WrongCardCountError
    assert error.message == "seat 0 places exactly one card of each of: Workers, Students"
    other_student = [c for c in FACTION_CARDS if c.faction is Faction.STUDENTS][5]
    error = _raises(state, 0, PlaceCards((workers[0], other_student)))
    assert type(error) is InvalidPlacementError and error.rule == "R-E"
    assert error.message == (
        f"{other_student.label()} is not one of seat 0's revolution-side Students cards on the table"
    )


@pytest.mark.spec("9.1", "2.5", "2.6", "4.5")
def test_messages_name_what_was_wrong() -> None:
    """Error messages say what was wrong: an action of another phase names the kinds the phase takes (rule
    9.1); a wrong card count says passes or discards and the count (rules 2.5, 2.6); a card that is no card
    is named as given; a traitor card without an emperor card says so (rule 4.5)."""
    draft = engine.deal(GameConfig(players=3), 4)
    error = _raises(draft, 0, ChooseSupport(Faction.WORKERS))
    assert type(error) is WrongPhaseError
    assert error.message == "ChooseSupport is not an action of the draft pass phase; it takes PassCards"
    hand = draft.hands[0]
    error = _raises(draft, 0, PassCards(hand[:3]))
    assert type(error) is WrongCardCountError and error.message == "a seat passes exactly 2 cards, not 3"
    discard = first_state(3, lambda s: s.phase is Phase.DRAFT_DISCARD)
    error = _raises(discard, 0, DiscardCards(discard.hands[0][:1]))
    assert type(error) is WrongCardCountError and error.message == "a seat discards exactly 2 cards, not 1"
    play = first_state(3, lambda s: s.phase is Phase.PLAY_1)
    seat = min(engine.awaited_seats(play))
    error = _raises(play, seat, Reorganize())
    assert error.message == (
        "Reorganize is not an action of the play 1 phase; it takes PlayCard or Reinforce or PlayNothing"
    )
    error = _raises(play, seat, PlayCard("a joker"))  # type: ignore[arg-type]
    assert type(error) is CardNotInHandError and error.message == f"seat {seat} does not hold 'a joker'"
    no_emperor = first_state(
        5, lambda s: s.phase in (Phase.PLAY_1, Phase.PLAY_2) and s.table is not None and s.table.emperor_card is None,
        seeds=range(300),
    )
    seat = next(s for s in sorted(engine.awaited_seats(no_emperor)) if any(c.faction for c in no_emperor.hands[s]))
    card = next(c for c in no_emperor.hands[seat] if c.faction is not None)
    error = _raises(no_emperor, seat, PlayCard(card, Side.EMPEROR))
    assert type(error) is NoEmperorCardError and error.rule == "4.5"
    assert error.message == "no emperor card is out this week, so no traitor card may be played"
