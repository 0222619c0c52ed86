"""Revolution!: actions forged around their classes' checks are refused, and the kit keeps the rules' own copy.

A frozen attrs value can still be changed with ``object.__setattr__``, built without its converter with
``__new__``, or subclassed to tell the check one thing and the step another. The engine's check
(:func:`revolution.rules.engine.check`, the game's ``check``) trusts no object for its class: it refuses
subclasses and fields of the wrong type (``MalformedActionError``, rule 9.2), and returns the action rebuilt of
the rules' own objects, which the kit's collector keeps instead of the caller's (as Dark Empire's does, see
``tests/test_forged_actions.py``).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from revolution.rules import engine
from revolution.rules.actions import CubeAt, Decline, Replace, Swap
from revolution.rules.bids import Bid
from revolution.rules.errors import MalformedActionError
from revolution.rules.events import BidsRevealed
from revolution.rules.game import GAME
from revolution.rules.state import RevolutionConfig, RevolutionState
from revolution.rules.tokens import NO_TOKENS, Tokens
from revolution_builders import bid, holding, play, start, with_cubes
from tablekit.chance import SeededChance
from tablekit.simultaneous import choose
from tablekit.simultaneous import start as start_round

G1 = Tokens(gold=1)
HELD = Tokens(1, 1, 3)


def _forged(action: Any, **fields: object) -> Any:
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


def _at_spy() -> RevolutionState:
    """Seat 0 has won the Spy and chooses; seats 1 and 2 have cubes in the Cathedral."""
    state = with_cubes(holding(start(3), [G1] * 3), {"Cathedral": (1, 2, 1)})
    choosing, _ = play(state, {0: bid(Spy=G1), 1: bid(Printer=G1), 2: bid(Printer=G1)})
    assert choosing.chooser == 0
    return choosing


@pytest.mark.spec("revolution:9.2")
def test_check_returns_an_equal_action_of_the_rules_own_classes() -> None:
    state = start(3)
    legal = bid(Priest=Tokens(gold=3), Printer=Tokens(1, 1))
    checked = GAME.check(state, 0, legal)
    assert type(checked) is Bid and checked == legal
    assert all(type(tokens) is Tokens and tokens is not mine
               for (_, tokens), (_, mine) in zip(checked.placements, legal.placements))
    choosing = _at_spy()
    for action in (Replace(CubeAt("Cathedral", 1)), Decline()):
        again = GAME.check(choosing, 0, action)
        assert type(again) is type(action) and again == action


@pytest.mark.spec("revolution:9.2", "revolution:9.3")
def test_a_bid_changed_after_the_check_does_not_change_the_round() -> None:
    """The caller changes its bid once the collector took it: the bid revealed is the one checked."""
    round, _ = start_round(GAME, RevolutionConfig(players=3), SeededChance(0))
    mine = bid(Priest=HELD)
    round = choose(GAME, round, 0, mine).round
    _forged(mine, placements=(("Printer", HELD),))  # after the check: the Printer's 10 support, not the Priest's 6
    round = choose(GAME, round, 1, bid(Merchant=HELD)).round
    collected = choose(GAME, round, 2, bid(Aristocrat=HELD))
    assert collected.transition is not None
    assert collected.transition.state.support[0] == 6
    revealed = next(e.payload for e in collected.transition.events if isinstance(e.payload, BidsRevealed))
    assert revealed.bids[0] == bid(Priest=HELD) and all(type(b) is Bid for b in revealed.bids)


class _Hiding(Bid):
    """A bid that tells the check it places nothing anywhere (so no character is immune to it)."""

    def on(self, character: str) -> Tokens:
        return NO_TOKENS


@pytest.mark.spec("revolution:9.2", "revolution:4.4")
def test_a_bid_subclass_is_refused() -> None:
    """Force on the General, who is immune to it, hidden by a subclass's ``on``: without the refusal the token
    would be counted on no character and leave the game."""
    state = start(3)
    sneaky = _Hiding({"General": Tokens(force=1), "Priest": Tokens(1, 0, 3)})
    with pytest.raises(MalformedActionError, match="a bid is a Bid") as error:
        GAME.check(state, 0, sneaky)
    assert error.value.rule == "9.2" and error.value.seat == 0
    with pytest.raises(MalformedActionError):
        engine.step(state, {0: sneaky, 1: bid(Priest=HELD), 2: bid(Printer=HELD)})


@pytest.mark.spec("revolution:9.2")
@pytest.mark.parametrize(
    ("placements", "message"),
    [
        ([("Priest", HELD)], "Bid.placements is a tuple"),
        ((("Priest", Tokens(gold=2)), ("General", Tokens(1, 1, 1))), "sorted by character name"),
        ((("Printer", NO_TOKENS), ("Priest", HELD)), "without empty ones"),
        ((("Priest", Tokens(gold=3)), ("Priest", Tokens(1, 1))), "named twice"),
        ((("Priest", HELD, "extra"),), r"\(str, Tokens\) pairs"),
        ((("Priest", (1, 1, 3)),), r"\(str, Tokens\) pairs"),
    ],
)
def test_bid_placements_that_are_not_what_bid_makes_are_refused(placements: object, message: str) -> None:
    """Each would be legal by its tokens; the second and third name the characters in another order or with an
    empty placement, the fourth names the Priest twice (so ``Bid.on`` would see only the first placement)."""
    with pytest.raises(MalformedActionError, match=message):
        GAME.check(start(3), 0, _forged(Bid(), placements=placements))


@pytest.mark.spec("revolution:9.2")
@pytest.mark.parametrize("count", [True, -1, 1.0, None])
def test_forged_token_counts_are_refused(count: object) -> None:
    tokens = _forged(Tokens(gold=3), gold=count)
    forged = _forged(Bid(), placements=(("Printer", Tokens(1, 1)), ("Priest", tokens)))
    with pytest.raises(MalformedActionError, match="Tokens.gold is a whole number"):
        GAME.check(start(3), 0, forged)


@pytest.mark.spec("revolution:9.2")
def test_a_bid_without_its_field_is_a_typed_error() -> None:
    with pytest.raises(MalformedActionError, match="Bid.placements is a tuple"):
        GAME.check(start(3), 0, Bid.__new__(Bid))


@attrs.frozen(eq=False)
class _AnyReplace(Replace):
    """A replacement equal to every object: the Spy's list of choices would take it for any of them."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class _Anything:
    """No action at all, but equal to everything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


@pytest.mark.spec("revolution:9.2", "revolution:5.7")
def test_a_choice_of_a_subclass_or_a_look_alike_is_refused() -> None:
    """Replacing one's own cube is no Spy's choice (rule 5.7); a subclass equal to everything, or an object of no
    action class that is, would pass a check by equality alone."""
    choosing = _at_spy()
    for forged in (_AnyReplace(CubeAt("Cathedral", 0)), _Anything()):
        with pytest.raises(MalformedActionError) as error:
            GAME.check(choosing, 0, forged)  # type: ignore[arg-type]
        assert error.value.rule == "9.2"
        with pytest.raises(MalformedActionError):
            engine.step(choosing, {0: forged})  # type: ignore[dict-item]


@pytest.mark.spec("revolution:9.2")
@pytest.mark.parametrize(
    "cube",
    [
        ("Cathedral", 1),
        CubeAt.__new__(CubeAt),
    ],
)
def test_a_cube_that_is_no_cube_is_refused(cube: object) -> None:
    choosing = _at_spy()
    with pytest.raises(MalformedActionError, match="Replace.target"):
        GAME.check(choosing, 0, _forged(Replace(CubeAt("Cathedral", 1)), target=cube))
    swap = Swap(CubeAt("Cathedral", 1), CubeAt("Tavern", 2))
    with pytest.raises(MalformedActionError, match="Swap.second"):
        engine.check(choosing, 0, _forged(swap, second=cube))
