"""Adapters of any :class:`~tablekit.game.Game` to other frameworks' interfaces.

Each submodule imports its framework (install the matching extra), so importing this package imports none:

* :mod:`tablekit.adapters.openspiel`: a ``pyspiel.Game``/``pyspiel.State`` pair for any game, with explicit
  chance and simultaneous nodes (extra ``openspiel``).
"""
