"""A playout kernel for Dark Empire: the whole game, mutable and integer-encoded, equal to the reference.

The reference engine (:mod:`darkempire.rules`) is pure: every choice builds a new immutable state. That is
what a front end, a record or a proof wants, and too slow for the millions of decisions a search bot plays
out. The kernel plays the same game in place on lists of small ints, and is held to the reference by
differential tests: from the same state and the same choices it draws the same cards, and
:meth:`Kernel.snapshot` equals the reference state at every step (``tests/test_kernel_differential.py``,
``tests/test_kernel_hops.py``; see ``docs/kernel.md``).

* :func:`deal` (or :meth:`Kernel.from_state` of any reached state) makes a kernel;
* :meth:`Kernel.action_count`, :meth:`Kernel.action` and :meth:`Kernel.apply_index` choose by index, the
  index of the reference's :func:`~darkempire.rules.engine.legal_actions`;
* :meth:`Kernel.playout` plays to the end at random; :meth:`Kernel.snapshot` gives the reference state back.

The modules, one job each: :mod:`~darkempire.kernel.encoding` (the ints and tables),
:mod:`~darkempire.kernel.core` (the mutable table), :mod:`~darkempire.kernel.listing` (legal actions),
:mod:`~darkempire.kernel.steps` (resolving steps, chance), :mod:`~darkempire.kernel.scoring` (weekly and
monthly scoring, verdict), :mod:`~darkempire.kernel.convert` (to and from a :class:`GameState`) and
:mod:`~darkempire.kernel.playout`. Speed tricks and mutable state live here and nowhere else.
"""

from __future__ import annotations

from darkempire.kernel.core import Kernel, KernelIndexError
from darkempire.kernel.deal import deal

__all__ = ["Kernel", "KernelIndexError", "deal"]
