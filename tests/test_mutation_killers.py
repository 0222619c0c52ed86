"""Rule behaviour that mutation testing showed no other test pinned down (issue 4; spec 2-9).

Each test states a rule and asserts what a wrong engine would get wrong; they were written against the
mutants that survived ``nox -s mutation``, but every one checks the rules, not the mutants.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from darkempire import engine
from darkempire.actions import Action
from darkempire.cards import Faction
from darkempire.errors import ConfigError, IllegalActionError, WrongPhaseError
from darkempire.state import GameConfig, GameState, Phase


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


@pytest.mark.spec("8.1", "R-M")
def test_judge_winner_needs_all_its_inputs() -> None:
    """``judge_winner`` judges a finished game or all four inputs; anything less is a TypeError (rule 8)."""
    with pytest.raises(TypeError):
        engine.judge_winner(card_points=[0] * 5, emperor_total=0, banked_tokens=[0, 0, 0])  # type: ignore[call-overload]
    verdict = engine.judge_winner(
        card_points=[10, 0, 0, 0, 0], emperor_total=0, banked_tokens=[0, 0, 0],
        victors=[Faction.WORKERS, Faction.STUDENTS, Faction.MECHANDROS],
    )
    assert verdict.winners == frozenset({0})


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
