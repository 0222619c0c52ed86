"""The kernel refuses a bad call before it changes anything, as the reference's ``step`` does (rule 9.2).

Found by a hostile review: ``apply_joint`` applied seat by seat and raised on a late bad entry after the
step had resolved, so a corrected retry played into the next step; ``copy.copy`` shared the lists; a wrong
``playout`` generator raised bare errors after some seats had chosen.
"""

from __future__ import annotations

import copy
import random

import pytest

from darkempire.kernel import Kernel, KernelIndexError, deal
from darkempire.rules import engine
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameConfig


def _first_choices(kernel: Kernel) -> dict[int, int]:
    return {seat: 1 for seat in kernel.awaited()}


@pytest.mark.spec("9.2")
@pytest.mark.parametrize(
    "extra",
    [{9: 0}, {-1: 0}, {"a": 0}, {2.5: 0}],  # a seat that is none, as its own key after the awaited ones
)
def test_a_bad_joint_choice_changes_nothing_and_a_corrected_retry_plays_this_step(extra: dict[object, int]) -> None:
    kernel = deal(4, 7)
    before = kernel.snapshot()
    with pytest.raises(KernelIndexError):
        kernel.apply_joint({**_first_choices(kernel), **extra})  # type: ignore[dict-item]
    assert kernel.snapshot() == before
    kernel.apply_joint(_first_choices(kernel))
    reference = engine.step(before, {seat: engine.legal_actions(before, seat)[1] for seat in range(4)})
    assert kernel.snapshot() == reference.state


@pytest.mark.spec("9.2")
def test_an_index_out_of_a_late_seats_listing_changes_nothing() -> None:
    kernel = deal(4, 7)
    before = kernel.snapshot()
    with pytest.raises(KernelIndexError, match="seat 3"):
        kernel.apply_joint({0: 1, 1: 1, 2: 1, 3: 10**6})
    assert kernel.snapshot() == before
    with pytest.raises(KernelIndexError, match="map seats"):
        kernel.apply_joint(None)  # type: ignore[arg-type]


def test_copy_copy_is_an_independent_kernel() -> None:
    kernel = deal(4, 7)
    before = kernel.snapshot()
    other = copy.copy(kernel)
    other.playout(random.Random(1))
    assert other.is_over() and kernel.snapshot() == before


@pytest.mark.parametrize(
    "rng",
    [None, 3, "abc", [], [random.Random(i) for i in range(4)], [1, 2, 3, 4, 5]],
)
def test_playout_refuses_generators_it_cannot_use_before_any_choice(rng: object) -> None:
    kernel = deal(GameConfig(players=5), 1)
    before = kernel.snapshot()
    with pytest.raises(InvalidArgumentError, match="random.Random"):
        kernel.playout(rng)  # type: ignore[arg-type]
    assert kernel.snapshot() == before
    assert kernel.playout([random.Random(i) for i in range(5)]) > 0  # one per seat is fine
