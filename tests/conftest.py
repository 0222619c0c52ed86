"""Shared pytest configuration: Hypothesis profiles, the kernel's build, and a check of the spec ids that tests cite."""

from __future__ import annotations

import os
import sys

# The suite tests the pure kernel, whether or not a compiled build (python -m darkempire.kernel.build) sits in
# src/, unless DARKEMPIRE_EXPECT_KERNEL=compiled (nox -s compiled_kernel): then the compiled build must be the
# one loaded. Set before anything imports the kernel; subprocesses the tests start inherit it.
EXPECT_COMPILED = os.environ.get("DARKEMPIRE_EXPECT_KERNEL") == "compiled"
if not EXPECT_COMPILED:
    os.environ["DARKEMPIRE_PURE_KERNEL"] = "1"

import pytest
from hypothesis import HealthCheck, settings
from traceability import reject_unknown_ids

settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=50, deadline=None, print_blob=True)
settings.register_profile(
    "long", max_examples=5000, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Collection stops with a clear message when a test cites an id that is not a heading of a game's rules.md,
# interface.md or rulings.md in spec/ (issue 3, item 4; spec/README.md); tests/test_traceability.py checks that
# every id is cited.
pytest_collection_modifyitems = reject_unknown_ids


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop at once when the kernel loaded is not the one this run is meant to test."""
    import darkempire.kernel

    if darkempire.kernel.COMPILED != EXPECT_COMPILED:
        wanted = "the compiled" if EXPECT_COMPILED else "the pure"
        raise pytest.UsageError(f"this run tests {wanted} kernel, but: {darkempire.kernel.BUILD_REASON}")


def pytest_report_header() -> str:
    """Which kernel the run tests, in pytest's header."""
    import darkempire.kernel

    return f"darkempire kernel: {darkempire.kernel.BUILD_REASON}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print how many whole games the stateful tests played to the end (issue 4: the ``long`` run's figure)."""
    stateful = sys.modules.get("test_stateful")
    finished = getattr(stateful, "FINISHED", None)
    if finished:
        counts = ", ".join(f"{finished[n]:,} with {n} players" for n in sorted(finished))
        terminalreporter.write_line(f"stateful games finished: {sum(finished.values()):,} ({counts})")
