"""Shared pytest configuration: Hypothesis profiles."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=50, deadline=None, print_blob=True)
settings.register_profile(
    "long", max_examples=5000, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
