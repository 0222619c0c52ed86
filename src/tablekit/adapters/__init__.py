"""Adapters of any :class:`~tablekit.game.Game` to other frameworks' interfaces.

Each submodule imports its framework (install the matching extra), so importing this package imports none:

* :mod:`tablekit.adapters.flow`: a game in progress with explicit chance (imports no framework);
* :mod:`tablekit.adapters.openspiel`: a ``pyspiel.Game``/``pyspiel.State`` pair for any game, with explicit
  chance and simultaneous nodes (extra ``openspiel``);
* :mod:`tablekit.adapters.pettingzoo`: a PettingZoo parallel environment for any game (extra ``pettingzoo``);
* :mod:`tablekit.adapters.turns`: any game with its simultaneous steps taken one seat at a time, each choice
  hidden (imports no framework), for a sequential OpenSpiel game.
"""
