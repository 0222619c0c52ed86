"""The kit's record files (:mod:`tablekit.files`) and ``--bots`` parsing (:func:`tablekit.cli.seat_kinds`,
:func:`tablekit.cli.other_seat_kinds`), which both games' command lines use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tablekit.cli import UsageError, other_seat_kinds, seat_kinds
from tablekit.files import check_writable, read_limited, write_text
from tablekit.records import RecordError

KINDS = {"greedy", "random"}


def test_check_writable_leaves_no_file_and_refuses_a_missing_folder(tmp_path: Path) -> None:
    check_writable(tmp_path / "new.json")
    assert list(tmp_path.iterdir()) == []
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    check_writable(kept)
    assert kept.read_text() == "old"  # not truncated
    with pytest.raises(RecordError, match=r"cannot write .*missing.*No such file"):
        check_writable(tmp_path / "missing" / "x.json")


def test_read_limited_reads_at_most_the_limit_and_only_regular_files(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_text(path, "x" * 10)
    assert read_limited(path, 11) == b"x" * 10 + b"\n"
    with pytest.raises(RecordError, match="holds more than 10 bytes, the limit of a saved game"):
        read_limited(path, 10, what="saved game")
    with pytest.raises(RecordError, match="is not a regular file"):
        read_limited(tmp_path, 10)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="is not a regular file"):  # would block forever if opened
        read_limited(fifo, 10)

    class Mine(RecordError):
        pass

    with pytest.raises(Mine, match="cannot read"):
        read_limited(tmp_path / "absent", 10, error=Mine)
    with pytest.raises(ValueError, match="holds more than"):
        read_limited(path, 2, error=Mine, too_large=ValueError)


def test_seat_kinds_one_for_all_or_one_per_seat() -> None:
    assert seat_kinds("random", KINDS, 4) == ["random"] * 4
    assert seat_kinds("greedy, random,greedy", KINDS, 3) == ["greedy", "random", "greedy"]
    with pytest.raises(UsageError, match=r"one per seat \(4\), not 2"):
        seat_kinds("greedy,random", KINDS, 4)
    with pytest.raises(UsageError, match="unknown bot kind 'clever'; choose from greedy, random"):
        seat_kinds("clever", KINDS, 4)


def test_other_seat_kinds_leave_the_persons_seat_empty() -> None:
    assert other_seat_kinds("greedy", KINDS, 3, 0) == [None, "greedy", "greedy"]
    assert other_seat_kinds("greedy,random,random", KINDS, 4, 3) == ["greedy", "random", "random", None]
    with pytest.raises(UsageError, match="each of the 2 other seats in seat order, not 3"):
        other_seat_kinds("greedy,random,random", KINDS, 3, 1)
