"""Shared pytest configuration: Hypothesis profiles, and a check of the spec ids that tests cite."""

from __future__ import annotations

import os
import sys

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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print how many whole games the stateful tests played to the end (issue 4: the ``long`` run's figure)."""
    stateful = sys.modules.get("test_stateful")
    finished = getattr(stateful, "FINISHED", None)
    if finished:
        counts = ", ".join(f"{finished[n]:,} with {n} players" for n in sorted(finished))
        terminalreporter.write_line(f"stateful games finished: {sum(finished.values()):,} ({counts})")
