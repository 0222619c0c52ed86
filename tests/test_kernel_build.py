"""The kernel's compiled build is loaded only when it is whole and fresh (darkempire.kernel.compiled).

:func:`~darkempire.kernel.compiled.status` is checked on folders of stand-in files; the loader end to end in
subprocesses on a copy of the package whose "extension modules" are garbage files: if Python ever loads one,
the import fails, so a subprocess that imports the kernel and plays a game proves the pure sources were used.
With a real build in src/ (``nox -s compiled_kernel``), the last tests check that it is the one loaded.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import darkempire.kernel
from darkempire.kernel.compiled import (
    KERNEL_DIR,
    MODULES,
    PURE_ENV,
    STAMP_NAME,
    PureFinder,
    extension_of,
    stamp,
    status,
)

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
PACKAGE_SRC = Path(darkempire.__file__).resolve().parent


def fake_build(directory: Path, modules: tuple[str, ...] = MODULES) -> None:
    """Sources, stand-in extension files and a stamp that matches the sources, as a build leaves them."""
    for module in modules:
        (directory / f"{module}.py").write_text(f"NAME = {module!r}\n", encoding="utf-8")
        (directory / f"{module}{SUFFIX}").write_bytes(b"not an extension module")
    (directory / STAMP_NAME).write_text(json.dumps(stamp(directory, modules)), encoding="utf-8")


def test_a_whole_fresh_build_is_loaded(tmp_path: Path) -> None:
    fake_build(tmp_path)
    compiled, reason = status(tmp_path, environ={})
    assert compiled, reason
    assert "mypyc" in reason


def test_no_build_means_the_pure_modules(tmp_path: Path) -> None:
    for module in MODULES:
        (tmp_path / f"{module}.py").write_text("", encoding="utf-8")
    assert status(tmp_path, environ={}) == (False, "pure modules: not built (run python -m darkempire.kernel.build)")


def test_a_changed_source_makes_the_build_stale_and_names_the_file(tmp_path: Path) -> None:
    fake_build(tmp_path)
    with (tmp_path / "tally.py").open("a", encoding="utf-8") as source:
        source.write("# edited after the build\n")
    compiled, reason = status(tmp_path, environ={})
    assert not compiled
    assert "stale" in reason and "tally.py" in reason
    assert "steps.py" not in reason


def test_a_build_without_its_stamp_or_with_a_broken_one_is_refused(tmp_path: Path) -> None:
    fake_build(tmp_path)
    (tmp_path / STAMP_NAME).write_text("{not json", encoding="utf-8")
    assert status(tmp_path, environ={})[0] is False
    (tmp_path / STAMP_NAME).write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")  # json recurses too deep
    assert status(tmp_path, environ={})[0] is False
    (tmp_path / STAMP_NAME).unlink()
    compiled, reason = status(tmp_path, environ={})
    assert not compiled and STAMP_NAME in reason


def test_a_stamp_that_leaves_a_module_out_is_stale(tmp_path: Path) -> None:
    fake_build(tmp_path)
    recorded = json.loads((tmp_path / STAMP_NAME).read_text(encoding="utf-8"))
    del recorded["sources"]["listing.py"]
    (tmp_path / STAMP_NAME).write_text(json.dumps(recorded), encoding="utf-8")
    compiled, reason = status(tmp_path, environ={})
    assert not compiled and "listing.py" in reason


def test_an_incomplete_build_is_refused_and_names_what_is_missing(tmp_path: Path) -> None:
    fake_build(tmp_path)
    (tmp_path / f"draws{SUFFIX}").unlink()
    compiled, reason = status(tmp_path, environ={})
    assert not compiled
    assert "incomplete" in reason and "draws" in reason


@pytest.mark.parametrize("value", ["1", "yes"])
def test_the_environment_variable_forces_the_pure_modules(tmp_path: Path, value: str) -> None:
    fake_build(tmp_path)
    compiled, reason = status(tmp_path, environ={PURE_ENV: value})
    assert not compiled and PURE_ENV in reason


@pytest.mark.parametrize("value", ["", "0"])
def test_an_empty_or_zero_variable_forces_nothing(tmp_path: Path, value: str) -> None:
    fake_build(tmp_path)
    assert status(tmp_path, environ={PURE_ENV: value})[0] is True


def test_the_finder_gives_the_source_of_a_compiled_module_only(tmp_path: Path) -> None:
    fake_build(tmp_path)
    finder = PureFinder(tmp_path)
    spec = finder.find_spec("darkempire.kernel.steps", None)
    assert spec is not None and spec.origin == str(tmp_path / "steps.py")
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert finder.find_spec("darkempire.kernel.interface", None) is None
    assert finder.find_spec("steps", None) is None


# --------------------------------------------------------------------------- the loader, in subprocesses

PROBE = """
import importlib.machinery, json, random, sys
import darkempire.kernel as kernel
origins = {m: sys.modules["darkempire.kernel." + m].__spec__.origin for m in %r}
decisions = kernel.deal(5, 7).playout(random.Random(7))
print(json.dumps({"compiled": kernel.COMPILED, "reason": kernel.BUILD_REASON, "origins": origins,
                  "decisions": decisions}))
""" % (MODULES,)


def probe(src: Path, **environ: str) -> dict[str, object]:
    """Import the kernel from ``src`` in a fresh interpreter, play one game; what it loaded."""
    env = {k: v for k, v in os.environ.items() if k not in (PURE_ENV, "PYTHONPATH")}
    env.update(environ, PYTHONPATH=str(src))
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert isinstance(answer, dict)
    return answer


@pytest.fixture
def copied_src(tmp_path: Path) -> Path:
    """A copy of the darkempire package with garbage in place of every compiled module, and a fresh stamp."""
    src = tmp_path / "src"
    shutil.copytree(PACKAGE_SRC, src / "darkempire", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    kernel = src / "darkempire" / "kernel"
    for module in MODULES:
        (kernel / f"{module}{SUFFIX}").write_bytes(b"not an extension module")
    (kernel / STAMP_NAME).write_text(json.dumps(stamp(kernel)), encoding="utf-8")
    return src


def test_the_garbage_build_would_be_loaded_if_fresh(copied_src: Path) -> None:
    """The copy's stand-in build is taken for a real one: without the variable, the import must fail (so the
    tests below, where it succeeds, show the sources were loaded instead)."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    env["PYTHONPATH"] = str(copied_src)
    result = subprocess.run([sys.executable, "-c", "import darkempire.kernel"], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode != 0
    assert "ImportError" in result.stderr


def test_the_variable_loads_every_source_despite_the_extensions(copied_src: Path) -> None:
    answer = probe(copied_src, **{PURE_ENV: "1"})
    assert answer["compiled"] is False and PURE_ENV in str(answer["reason"])
    origins = answer["origins"]
    assert isinstance(origins, dict)
    assert all(str(origin).endswith(f"{module}.py") for module, origin in origins.items())
    assert answer["decisions"] == darkempire.kernel.deal(5, 7).playout(__import__("random").Random(7))


def test_a_stale_stamp_loads_every_source_and_names_the_changed_file(copied_src: Path) -> None:
    with (copied_src / "darkempire" / "kernel" / "steps.py").open("a", encoding="utf-8") as source:
        source.write("\n# changed since the build\n")
    answer = probe(copied_src)
    assert answer["compiled"] is False
    assert "stale" in str(answer["reason"]) and "steps.py" in str(answer["reason"])
    origins = answer["origins"]
    assert isinstance(origins, dict)
    assert all(str(origin).endswith(".py") for origin in origins.values())


# --------------------------------------------------------------------------- a real build, when there is one

BUILT = all(extension_of(KERNEL_DIR, module) for module in MODULES)


@pytest.mark.skipif(not BUILT, reason="no compiled build in src/ (python -m darkempire.kernel.build)")
def test_the_real_build_is_loaded_without_the_variable() -> None:
    answer = probe(KERNEL_DIR.parent.parent)
    assert answer["compiled"] is True, answer["reason"]
    origins = answer["origins"]
    assert isinstance(origins, dict)
    assert all(str(origin).endswith(SUFFIX) for origin in origins.values())
    pure = probe(KERNEL_DIR.parent.parent, **{PURE_ENV: "1"})
    assert pure["compiled"] is False
    assert pure["decisions"] == answer["decisions"]  # the same game, compiled or not


def test_this_run_tests_the_kernel_it_expects() -> None:
    """conftest.py forces the pure kernel unless DARKEMPIRE_EXPECT_KERNEL=compiled."""
    expected = os.environ.get("DARKEMPIRE_EXPECT_KERNEL") == "compiled"
    assert darkempire.kernel.COMPILED is expected, darkempire.kernel.BUILD_REASON
    spec = sys.modules["darkempire.kernel.steps"].__spec__
    assert spec is not None
    loader = spec.loader
    assert isinstance(loader, importlib.machinery.ExtensionFileLoader) is expected
