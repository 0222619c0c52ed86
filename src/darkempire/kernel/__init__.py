"""A playout kernel for Dark Empire: the whole game, mutable and integer-encoded, equal to the reference.

The reference engine (:mod:`darkempire.rules`) is pure: every choice builds a new immutable state. That is
what a front end, a record or a proof wants, and too slow for the millions of decisions a search bot plays
out. The kernel plays the same game in place on lists of small ints, and is held to the reference by
differential tests: from the same state and the same choices it draws the same cards, and its snapshot
equals the reference state at every step (``tests/test_kernel_differential.py``,
``tests/test_kernel_hops.py``; see ``docs/kernel.md``).

* :func:`~darkempire.kernel.interface.deal` makes a kernel at the deal, and
  :meth:`Kernel.from_state <darkempire.kernel.interface.Kernel.from_state>` one of any state reached;
* :meth:`~darkempire.kernel.interface.Kernel.action_count`, :meth:`~darkempire.kernel.interface.Kernel.action`
  and :meth:`~darkempire.kernel.interface.Kernel.apply_index` choose by index, the index of the reference's
  :func:`~darkempire.rules.engine.legal_actions`;
* :meth:`~darkempire.kernel.interface.Kernel.playout` plays to the end at random, and
  :meth:`~darkempire.kernel.interface.Kernel.snapshot` gives the reference state back.

The package re-exports ``Kernel``, ``KernelIndexError`` and ``deal``. The modules, one job each:

* :mod:`~darkempire.kernel.encoding`: the ints and the fixed tables;
* :mod:`~darkempire.kernel.mutable`: the mutable table, the game's fields;
* :mod:`~darkempire.kernel.interface`: :class:`~darkempire.kernel.interface.Kernel`, the table's methods, and ``deal``;
* :mod:`~darkempire.kernel.dealing`: the deal;
* :mod:`~darkempire.kernel.listing`: legal actions, counted and decoded by index;
* :mod:`~darkempire.kernel.steps`: resolving a step and the automatic steps after it;
* :mod:`~darkempire.kernel.tally`: weekly and monthly scoring, the verdict;
* :mod:`~darkempire.kernel.draws`: the reference's random draws, made faster;
* :mod:`~darkempire.kernel.convert`: to and from a :class:`~darkempire.rules.state.GameState`;
* :mod:`~darkempire.kernel.playout`: random playouts;
* :mod:`~darkempire.kernel.greedy`: :class:`~darkempire.bots.GreedyBot`'s choices on the kernel's ints, and
  playouts of greedy seats;
* :mod:`~darkempire.kernel.compiled` and :mod:`~darkempire.kernel.build`: the optional compiled build (mypyc)
  of the hot modules, loaded in place of the pure ones when it is built and fresh. :data:`COMPILED` says
  which are loaded, :data:`BUILD_REASON` why (``docs/kernel.md``, "A compiled build").
* :mod:`~darkempire.kernel.explicit`: explicit chance, each card drawn by an outcome given (for adapters).

Speed tricks and mutable state live here and nowhere else.
"""

from __future__ import annotations

from typing import Final

from darkempire.kernel import compiled as _compiled

# Before any kernel module is imported: the choice between the compiled and the pure modules is made once.
_CHOSEN, _REASON = _compiled.select()

from darkempire.kernel import greedy  # noqa: E402,F401  (compiled with the rest: COMPILED checks every module)
from darkempire.kernel.interface import Kernel, KernelIndexError, deal  # noqa: E402

#: Whether the kernel's hot modules are the compiled build (mypyc), not the pure Python ones.
COMPILED: Final[bool] = _CHOSEN and _compiled.loaded_compiled()
#: Why the kernel is compiled or pure: not built, a stale build, or ``DARKEMPIRE_PURE_KERNEL`` set.
BUILD_REASON: Final[str] = _REASON if COMPILED or not _CHOSEN else (
    "pure modules: a fresh build is there, but the modules imported are not it"
)

__all__ = ["BUILD_REASON", "COMPILED", "Kernel", "KernelIndexError", "deal"]
