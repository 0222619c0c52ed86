"""Development sessions: ``nox -s tests``, ``nox -s typecheck``, ``nox -s long``.

Every session installs the project from its own files into a fresh virtualenv.
"""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests", "typecheck"]


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite, as CI runs it (the README's test command, with the adapters' extras).

    Hypothesis runs with the ``ci`` profile; extra arguments go to pytest.
    """
    session.install("-e", ".[dev,openspiel,pettingzoo]")
    session.run("python", "-m", "pytest", "-q", *session.posargs, env={"HYPOTHESIS_PROFILE": "ci"})


@nox.session
def typecheck(session: nox.Session) -> None:
    """Type-check src and tests with ``mypy --strict``.

    The adapters' extras are installed: their modules import them.
    """
    session.install("-e", ".[dev,openspiel,pettingzoo]")
    session.run("mypy", "--strict")


@nox.session
def long(session: nox.Session) -> None:
    """The test suite with many more Hypothesis examples (the ``long`` profile): an overnight run."""
    session.install("-e", ".[dev,openspiel,pettingzoo]")
    session.run("python", "-m", "pytest", "-q", *session.posargs, env={"HYPOTHESIS_PROFILE": "long"})


@nox.session
def docs(session: nox.Session) -> None:
    """Build the HTML docs and run their examples; a warning or a broken reference fails the session."""
    session.install("-e", ".[dev]")
    session.run("sphinx-build", "-W", "-n", "--keep-going", "-b", "html", "docs", "docs/_build/html")
    session.run("sphinx-build", "-W", "-n", "--keep-going", "-b", "doctest", "docs", "docs/_build/doctest")


def _mutation_score(results: str) -> str:
    """Killed/total per module from ``mutmut results --all true`` lines
    (``darkempire.rules.engine.x_f__mutmut_3: killed``; a module outside ``rules/``, ``darkempire.text.x_f...``).

    Timeouts and mutants caught by the type check count as killed; skipped and unchecked mutants are left out.
    """
    import collections
    import re

    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for line in results.splitlines():
        match = re.match(r"\s*(darkempire\.(?:rules\.)?\w+)\.\S+: (.+)$", line)
        if match:
            counts[match.group(1)][match.group(2).strip()] += 1
    detected = ("killed", "timeout", "caught by type check")
    lines = []
    all_killed = all_total = 0
    for module, statuses in sorted(counts.items()):
        total = sum(n for status, n in statuses.items() if status not in ("skipped", "not checked"))
        killed = sum(statuses[status] for status in detected)
        all_killed, all_total = all_killed + killed, all_total + total
        rest = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()) if status not in detected)
        lines.append(f"{module:26} {killed:5}/{total:<5} killed ({100 * killed / max(total, 1):5.1f}%)  {rest}")
    lines.append(f"{'all':26} {all_killed:5}/{all_total:<5} killed ({100 * all_killed / max(all_total, 1):5.1f}%)")
    return "\n".join(lines)


@nox.session
def mutation(session: nox.Session) -> None:
    """Mutation testing of the rules modules with mutmut: how many planted bugs the tests catch (slow).

    The configuration is ``[tool.mutmut]`` in pyproject.toml. Prints the score, killed/total, per module.
    Extra arguments go to ``mutmut run`` (e.g. mutant names). Hypothesis runs with the ``dev`` profile to keep each mutant's run short. The last score and the reason
    each surviving mutant is equivalent are in tests/mutation.md.
    """
    session.install("-e", ".[dev,openspiel,pettingzoo]")  # tests of the engine's draws read the adapters' flow
    session.run("mutmut", "run", "--max-children", "2", *session.posargs, env={"HYPOTHESIS_PROFILE": "dev"})
    session.run("mutmut", "export-cicd-stats")
    results = session.run("mutmut", "results", "--all", "true", silent=True)
    session.log("mutation score (mutmut):\n" + _mutation_score(str(results)))


#: CrossHair's fixed budget per contract: stop a condition after this many paths that add no coverage, or after
#: this many seconds. About 2 minutes for darkempire.rules.scoring on 2 cores; every bug planted in the contracts'
#: functions during issue 3 was found within it.
CROSSHAIR_BUDGET = ["--max_uninteresting_iterations=100", "--per_condition_timeout=4"]
CROSSHAIR_MODULES = ["src/darkempire/rules/scoring.py", "src/revolution/rules/bids.py", "src/revolution/rules/scoring.py"]


def _crosshair_problems(report: str, modules: list[str]) -> list[str]:
    """What makes a ``crosshair check --report_all`` run fail, besides its exit status.

    A counterexample or error (any line that is not an ``info:`` line), "Unable to meet precondition" (the
    contract was never exercised: the trap of ``inv:`` on slotted classes, or a precondition nothing meets), and
    a ``:post:`` line of a module that the report does not mention (a contract CrossHair did not check at all).
    """
    import re
    from pathlib import Path

    problems = [line for line in report.splitlines() if line.strip() and ": info: " not in line]
    problems += [line for line in report.splitlines() if "Unable to meet precondition" in line]
    found = re.findall(r"^(\S+?):(\d+): info: ", report, re.M)
    reported = {(Path(name).resolve(), int(number)) for name, number in found}
    for module in modules:
        path = Path(module).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if re.match(r"\s*:?post:", line) and (path, number) not in reported:
                problems.append(f"{module}:{number}: never checked: {line.strip()}")
    return problems


@nox.session
def crosshair(session: nox.Session) -> None:
    """Check the scoring rules' ``:pre:``/``:post:`` contracts symbolically with CrossHair.

    Fails on any counterexample, on "Unable to meet precondition" and on a contract the report does not mention.
    In an environment that already has the project installed: ``nox --no-venv --no-install -s crosshair``.
    """
    import time

    session.install("-e", ".[dev]")
    start = time.monotonic()
    report = session.run(
        "crosshair", "check", "--analysis_kind=PEP316,asserts", "--report_all", *CROSSHAIR_BUDGET,
        *CROSSHAIR_MODULES, silent=True, success_codes=[0, 1, 2],
    )
    report = str(report)
    session.log(report)
    problems = _crosshair_problems(report, CROSSHAIR_MODULES)
    checked = sum(1 for line in report.splitlines() if ": info: " in line)
    session.log(f"{checked} contracts checked in {time.monotonic() - start:.0f} s")
    if problems:
        session.error("CrossHair:\n" + "\n".join(problems))


#: The kernel's differential tests and the build's own: what ``compiled_kernel`` runs against the compiled build.
KERNEL_TESTS = ["tests/test_kernel_differential.py", "tests/test_kernel_hops.py", "tests/test_kernel_users.py",
                "tests/test_kernel_greedy.py",
                "tests/test_kernel_build.py"]


@nox.session
def compiled_kernel(session: nox.Session) -> None:
    """Build the kernel with mypyc (``python -m darkempire.kernel.build``) and run its differential tests on it.

    The main suite tests the pure kernel (tests/conftest.py forces it); here ``DARKEMPIRE_EXPECT_KERNEL=compiled``
    makes every test run on the compiled modules, and fail at once if they are not the ones loaded. The build
    stays in src/ (gitignored); ``python -m darkempire.kernel.build --clean`` removes it. In an environment that
    already has the ``dev`` and ``compiled`` extras: ``nox --no-venv --no-install -s compiled_kernel``.
    """
    session.install("-e", ".[dev,compiled]")
    session.run("python", "-m", "darkempire.kernel.build")
    session.run("python", "-m", "pytest", "-q", *KERNEL_TESTS, *session.posargs,
                env={"HYPOTHESIS_PROFILE": "ci", "DARKEMPIRE_EXPECT_KERNEL": "compiled"})


def _build_kernel(session: nox.Session) -> None:
    """Build the compiled kernel for a benchmark; a failure (no C compiler) is a warning, not the end."""
    try:
        session.run("python", "-m", "darkempire.kernel.build")
    except nox.command.CommandFailed:
        session.warn("the kernel's compiled build failed: the compiled kernel's row says why it is missing")


@nox.session
def bench(session: nox.Session) -> None:
    """Random playouts of darkempire against its peers', in one table (not a test).

    Interleaved rounds of one run: darkempire's kernel, reference engine and OpenSpiel adapter, RLCard's Leduc
    Hold'em, PokerKit's no-limit hold'em (6 players), OpenSpiel's C++ goofspiel and hearts stepped from Python.

    Prints one table of decisions/s, games/s and the ratio to the kernel, min and max over rounds, and the
    issue's targets against them. A peer that fails to install is left out with a warning and shows as "not
    installed". Extra arguments go to ``benchmarks/peers.py`` (``--rounds``, ``--seconds``, ``--json FILE``).
    The kernel is built with mypyc first (``python -m darkempire.kernel.build``), so the table has a row for the
    compiled kernel beside the pure one; a failed build leaves that row saying why.
    """
    session.install("-e", ".[openspiel,compiled]")
    _build_kernel(session)
    for peer in ("rlcard==1.2.0", "pokerkit>=0.7,<0.8"):
        try:
            session.install(peer)
        except nox.command.CommandFailed:
            session.warn(f"{peer} did not install: its row of the table says 'not installed'")
    session.run("python", "benchmarks/peers.py", *session.posargs)


@nox.session
def engine_bench(session: nox.Session) -> None:
    """Measure the engine's speed and size beside RLCard and PokerKit (not a test).

    Games/s, decisions/s, microseconds per apply and legal_actions, bytes per state, and the reference
    workloads of RLCard (Leduc Hold'em) and PokerKit with our ratio to each.

    Not a test: it asserts nothing about speed. Extra arguments go to ``benchmarks/bench.py``
    (``nox -s engine_bench -- --profile`` also prints cProfile's top entries); results also go to
    ``build/bench-results.json``.
    """
    # rlcard.agents runs "python -m pip freeze" when imported, and a uv-made environment has no pip.
    session.install("-e", ".[bench]", "pip")
    session.run("python", "benchmarks/bench.py", *session.posargs)


@nox.session
def reference_speed(session: nox.Session) -> None:
    """Compare the reference engine's speed with the old engine's (not a test).

    The reference engine may be at most 1.5 times slower.

    Interleaved rounds of the same workload (100 games of RandomBots with 3, 4 and 5 players) in fresh
    subprocesses, the old engine's ``src/`` taken with ``git archive ae1403c src``; prints each engine's CPU
    seconds and the ratio. Not a test: it asserts nothing about speed. Extra arguments go to
    ``benchmarks/reference_speed.py`` (``--rounds``, ``--games``, ``--players``, ``--rev``; ``--instructions`` counts
    instructions per game with valgrind's callgrind instead, a figure a busy machine does not move).
    """
    session.install("-e", ".")
    session.run("python", "benchmarks/reference_speed.py", *session.posargs)


@nox.session
def strength(session: nox.Session) -> None:
    """How often the search bot wins against three GreedyBots, and GreedyBot against three RandomBots.

    4 players by default, seats rotated, with Wilson intervals and the search's CPU time per decision (mean,
    largest, how many over 50 ms), on the compiled kernel when it builds.

    Not a test. It runs under ``nice``. Extra arguments go to ``benchmarks/strength.py`` (``--games``,
    ``--first``, ``--players``, ``--jobs``, ``--playouts``, ``--milliseconds``, ``--only``).
    """
    session.install("-e", ".[compiled]")
    _build_kernel(session)
    session.run("nice", "python", "benchmarks/strength.py", *session.posargs, external=True)


@nox.session
def kernel_speed(session: nox.Session) -> None:
    """Measure the playout kernel's random playouts against the reference engine's (not a test).

    Decisions per second in interleaved rounds of the same run, and the median CPU time of a whole 5-player
    kernel game.

    Not a test: it asserts nothing about speed (the issue's targets: 300,000 decisions/s, a 5-player game
    under 1 ms). Extra arguments go to ``benchmarks/kernel_speed.py`` (``--rounds``, ``--games``,
    ``--reference-games``, ``--players``). The kernel is built with mypyc first, so the compiled kernel is
    measured beside the pure one.
    """
    session.install("-e", ".[compiled]")
    _build_kernel(session)
    session.run("python", "benchmarks/kernel_speed.py", *session.posargs)


@nox.session
def load(session: nox.Session) -> None:
    """Run the game server's load test, bot clients over WebSockets on loopback (not a test).

    200 concurrent matches through a real server process (benchmarks/server_load.py): no move lost or told
    twice, p99 move-to-broadcast under 100 ms. Arguments go to the script (``nox -s load -- --matches 50``).
    """
    session.install("-e", ".[server]")
    session.run("python", "benchmarks/server_load.py", *session.posargs)
