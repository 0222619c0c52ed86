"""The ``darkempire`` command: watch bots play a game, play one seat yourself, replay a record, simulate many.

* ``darkempire demo [--players N] [--seed S] [--theme T] [--bots greedy,random,...]
  [--record FILE] [--public-record FILE]`` plays a whole seeded game between
  bots and prints it week by week, and can write its record
  (:mod:`darkempire.cli.demo`).
* ``darkempire play [--players N] [--seed S] [--theme T] [--seat K] [--bots ...]
  [--record FILE] [--save FILE] [--resume FILE]`` lets one person play seat
  ``K`` against bots at the terminal, seeing only that seat's view, with a
  help screen at every question and saved games (:mod:`darkempire.cli.play`).
* ``darkempire replay FILE [--seat N] [--week W]`` re-runs a game record or
  checks a public record, prints it and confirms its verdict, or shows one
  week as a seat or a spectator saw it (:mod:`darkempire.cli.replay`).
* ``darkempire simulate [--players N] [--games G] [--seed S] [--bots ...]
  [--jobs J] [--json] [--plot FILE.png]`` plays many seeded bot games and
  sums up how they ended (:mod:`darkempire.cli.simulate`).

The package is Dark Empire's plug-in into the kit's shell (:mod:`tablekit.cli`)
and one module per subcommand: :mod:`darkempire.cli.app` lists the
subcommands and their options, and the kit's shell parses the arguments, runs
the subcommand and maps errors to exit statuses; the subcommand modules never
import each other. What they share lives below
them: the game's words in :mod:`darkempire.text`, record files in
:mod:`darkempire.cli.record_files`. ``python -m darkempire.cli`` and
``python -m darkempire`` run :func:`main`, as the ``darkempire`` script does.

The names below are re-exported here, where earlier versions defined them:
:func:`~darkempire.cli.app.main`, the exit statuses of
:mod:`~darkempire.cli.app`, :class:`~darkempire.cli.play.HumanSeat` and
:class:`~darkempire.cli.play.LineReader`, and the record commands' names that
:mod:`darkempire.record_cli` held.
"""

from darkempire.cli.app import EXIT_INTERRUPTED, EXIT_LEFT, EXIT_OK, main
from darkempire.cli.demo import save_demo_record
from darkempire.cli.play import HumanSeat, LineReader, PlayerLeft
from darkempire.cli.record_files import read_record, write_record
from darkempire.cli.replay import replay_command
from darkempire.text import action_text, event_lines, view_lines

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_LEFT",
    "EXIT_OK",
    "HumanSeat",
    "LineReader",
    "PlayerLeft",
    "action_text",
    "event_lines",
    "main",
    "read_record",
    "replay_command",
    "save_demo_record",
    "view_lines",
    "write_record",
]
