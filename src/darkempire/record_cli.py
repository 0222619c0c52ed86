"""Where the record commands of ``darkempire`` used to live; their names moved, and stay importable from here.

* :func:`~darkempire.cli.replay.replay_command` moved to :mod:`darkempire.cli.replay`,
* :func:`~darkempire.cli.demo.save_demo_record` to :mod:`darkempire.cli.demo`,
* :func:`~darkempire.cli.record_files.read_record` and
  :func:`~darkempire.cli.record_files.write_record` to :mod:`darkempire.cli.record_files`,
* :func:`~darkempire.text.action_text`, :func:`~darkempire.text.event_lines` and
  :func:`~darkempire.text.view_lines` to :mod:`darkempire.text`, with the rest of the game's words.

New code should import them from their new modules (or from :mod:`darkempire.cli`).
"""

from darkempire.cli.demo import save_demo_record
from darkempire.cli.record_files import read_record, write_record
from darkempire.cli.replay import replay_command
from darkempire.text import action_text, event_lines, view_lines

__all__ = [
    "action_text",
    "event_lines",
    "read_record",
    "replay_command",
    "save_demo_record",
    "view_lines",
    "write_record",
]
