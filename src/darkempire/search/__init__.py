"""The search bot and its parts, one module each:

* :mod:`darkempire.search.worlds`: whole states drawn from one seat's view, every hidden card dealt again;
* :mod:`darkempire.search.belief`: who holds which victor card, weighed by what the other seats played;
* :mod:`darkempire.search.plans`: the two ways to win (rise to a revolution, sink to an emperor victory),
  each an own-seat policy on the playout kernel and the objective it is judged by;
* :mod:`darkempire.search.bot`: :class:`~darkempire.search.bot.SearchBot`, which chooses its plan and its
  moves by playouts on those worlds, the other seats played by :mod:`darkempire.kernel.greedy`.
"""
