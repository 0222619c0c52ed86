"""Adapters that let other game frameworks play darkempire (spec 9.2-9.4).

* :mod:`darkempire.adapters.openspiel`: importing it registers the game with OpenSpiel as
  ``dark_empire_revolution`` (install the ``openspiel`` extra: ``pip install "darkempire[openspiel]"``).
* :mod:`darkempire.adapters.pettingzoo`: ``parallel_env(players=N)`` and ``env(players=N)``, PettingZoo
  environments (install the ``pettingzoo`` extra).

Both share one integer action encoding and one observation tensor, built from the seats'
:class:`~darkempire.rules.views.PlayerView` values, so they show a seat nothing its view does not. Importing this
package needs neither extra.
"""

from __future__ import annotations

__all__: list[str] = []
