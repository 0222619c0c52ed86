"""The ``revolution`` command: watch bots play, play a seat yourself, replay a record, simulate many games.

* ``revolution demo [--players N] [--seed S] [--bots greedy,random,...] [--record FILE]`` plays a whole game
  between bots and prints it round by round (:mod:`revolution.cli.demo`);
* ``revolution play [--players N] [--seed S] [--seat K]`` lets one person play seat ``K`` against bots at the
  terminal, seeing only that seat's view (:mod:`revolution.cli.play`);
* ``revolution replay FILE`` re-runs a record through the rules, checks every choice and prints the game
  (:mod:`revolution.cli.replay`);
* ``revolution simulate [--players N] [--games G] [--seed S] [--bots ...] [--json]`` plays many seeded bot
  games and sums up how they ended (:mod:`revolution.cli.simulate`).

Every game option (``--players``, ``--bid-refunds``, ``--area-control-bonus``) and the bots are
:mod:`revolution.cli.options`'; the game in words is :mod:`revolution.cli.text`; :mod:`revolution.cli.app`
plugs the subcommands into the kit's shell (:mod:`tablekit.cli`). The command runs as the ``revolution``
script, as ``python -m revolution`` (or ``python -m revolution.cli``), and as ``darkempire --game revolution``.
"""

from revolution.cli.app import main

__all__ = ["main"]
