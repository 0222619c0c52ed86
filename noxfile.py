"""Development sessions: ``nox -s tests``, ``nox -s typecheck``, ``nox -s long``.

Every session installs the project from its own files into a fresh virtualenv.
"""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests", "typecheck"]


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite with the CI Hypothesis profile."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "pytest", "-q", *session.posargs, env={"HYPOTHESIS_PROFILE": "ci"})


@nox.session
def typecheck(session: nox.Session) -> None:
    """``mypy --strict`` on src and tests."""
    session.install("-e", ".[dev]")
    session.run("mypy", "--strict")


@nox.session
def long(session: nox.Session) -> None:
    """The test suite with the ``long`` Hypothesis profile (overnight runs)."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "pytest", "-q", *session.posargs, env={"HYPOTHESIS_PROFILE": "long"})


@nox.session
def docs(session: nox.Session) -> None:
    """Build the Sphinx docs and run every doctest in them; warnings and broken references are errors."""
    session.install("-e", ".[dev]")
    session.run("sphinx-build", "-W", "-n", "--keep-going", "-b", "html", "docs", "docs/_build/html")
    session.run("sphinx-build", "-W", "-n", "--keep-going", "-b", "doctest", "docs", "docs/_build/doctest")
