"""tablekit: the game-agnostic kit that table games are built on; it imports no game.

One module per job:

* :mod:`tablekit.game`: the :class:`~tablekit.game.Game` protocol a rules package implements, and the
  :class:`~tablekit.game.Transition` (new state plus the events it caused) that every step returns;
* :mod:`tablekit.events`: events with their visibility, and :func:`~tablekit.events.events_for`;
* :mod:`tablekit.simultaneous`: the collector of hidden simultaneous choices;
* :mod:`tablekit.chance`: explicit, named, reported chance draws;
* :mod:`tablekit.records`: records and the one :func:`~tablekit.records.replay`;
* :mod:`tablekit.wire`: the JSON envelope, strict loading and located errors;
* :mod:`tablekit.bots`: the :class:`~tablekit.bots.Bot` protocol and the game driver;
* :mod:`tablekit.stats`: simulation statistics;
* :mod:`tablekit.errors`: the base errors.
"""

from __future__ import annotations

__all__: list[str] = []
