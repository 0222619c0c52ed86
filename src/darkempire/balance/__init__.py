"""Balance studies: the figures a designer asks of many simulated games, drawn and written as a report.

:mod:`~darkempire.balance.figures` computes the figures from per-game results
(:class:`darkempire.simulation.GameResult`), :mod:`~darkempire.balance.stats` holds their confidence
intervals, :mod:`~darkempire.balance.plots` draws them with matplotlib, :mod:`~darkempire.balance.report`
writes the report folder (``darkempire simulate --report DIR``), and :mod:`~darkempire.balance.policy` picks
``simulate``'s default bots.
"""
