"""Which kernel modules Python imports: the compiled build (mypyc) when it is there and fresh, else the pure ones.

``python -m darkempire.kernel.build`` (:mod:`darkempire.kernel.build`) compiles the kernel's hot modules,
:data:`MODULES`, into extension modules beside their sources, and writes a stamp, :data:`STAMP_NAME`, with
each source's SHA-256. Python's own import prefers an extension module to a ``.py`` file of the same name,
so :func:`select`, called once by ``darkempire/kernel/__init__.py`` before any of them is imported, decides:

* the compiled modules, when every one of them is built and the stamp names each source as it is now;
* the pure modules otherwise: when nothing is built, when the stamp is missing or a source changed since the
  build (a stale extension would play the old rules), or when :data:`PURE_ENV` is set (the test suite and
  the docs' doctests set it). A finder put first on :data:`sys.meta_path` then loads the ``.py`` sources of
  :data:`MODULES` despite the extensions beside them.

All of them or none: the compiled modules call each other directly, so a mix is never loaded. The decision
and its reason are :data:`darkempire.kernel.COMPILED` and :data:`darkempire.kernel.BUILD_REASON`.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from importlib.abc import MetaPathFinder
from pathlib import Path
from types import ModuleType
from typing import Final

__all__ = [
    "MODULES",
    "PACKAGE",
    "PURE_ENV",
    "STAMP_NAME",
    "KERNEL_DIR",
    "PureFinder",
    "extension_of",
    "loaded_compiled",
    "select",
    "source_hash",
    "stamp",
    "status",
]

#: The package whose modules are compiled.
PACKAGE: Final = "darkempire.kernel"
#: The compiled modules, in the package: the mutable table and everything a playout runs through.
#: The interface (:mod:`~darkempire.kernel.interface`) and the conversions stay pure: they run once per game.
MODULES: Final[tuple[str, ...]] = ("mutable", "encoding", "draws", "listing", "tally", "steps", "dealing", "playout", "greedy")
#: The environment variable that forces the pure modules when set to anything but ``""`` or ``"0"``.
PURE_ENV: Final = "DARKEMPIRE_PURE_KERNEL"
#: The build's stamp, beside the modules: the SHA-256 of each source compiled, and the tools' versions.
STAMP_NAME: Final = "_compiled.json"
#: The kernel package's folder, where the sources, the extensions and the stamp are.
KERNEL_DIR: Final = Path(__file__).resolve().parent

_BUILD_COMMAND = "python -m darkempire.kernel.build"


def source_hash(path: Path) -> str:
    """The SHA-256 of a source file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extension_of(directory: Path, module: str) -> Path | None:
    """The extension module ``module`` built in ``directory`` for this interpreter, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = directory / f"{module}{suffix}"
        if path.is_file():
            return path
    return None


def stamp(directory: Path, modules: Sequence[str] = MODULES) -> dict[str, object]:
    """The stamp of a build of ``modules`` from their sources in ``directory`` as they are now."""
    import platform

    return {
        "python": platform.python_version(),
        "sources": {f"{module}.py": source_hash(directory / f"{module}.py") for module in modules},
    }


def status(
    directory: Path = KERNEL_DIR, environ: Mapping[str, str] = os.environ, modules: Sequence[str] = MODULES
) -> tuple[bool, str]:
    """Whether the compiled build of ``modules`` in ``directory`` may be loaded, and why (or why not)."""
    if environ.get(PURE_ENV, "") not in ("", "0"):
        return False, f"pure modules: {PURE_ENV} is set"
    missing = [module for module in modules if extension_of(directory, module) is None]
    if len(missing) == len(modules):
        return False, f"pure modules: not built (run {_BUILD_COMMAND})"
    if missing:
        return False, f"pure modules: the build is incomplete, no compiled {', '.join(missing)} (run {_BUILD_COMMAND})"
    try:
        recorded = json.loads((directory / STAMP_NAME).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):  # RecursionError: a stamp nested too deep
        return False, f"pure modules: no readable build stamp {STAMP_NAME} (run {_BUILD_COMMAND})"
    current = stamp(directory, modules)["sources"]
    assert isinstance(current, dict)
    for name, digest in current.items():
        if not isinstance(recorded, dict) or recorded.get(name) != digest:
            return False, f"pure modules: the build is stale, {name} changed since it was compiled (run {_BUILD_COMMAND})"
    return True, f"compiled with mypyc ({len(modules)} modules: {', '.join(modules)})"


class PureFinder(MetaPathFinder):
    """Finds the ``.py`` source of each of the kernel's compiled modules, ahead of the extension beside it."""

    def __init__(self, directory: Path = KERNEL_DIR, modules: Sequence[str] = MODULES) -> None:
        self.sources = {f"{PACKAGE}.{module}": directory / f"{module}.py" for module in modules}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of ``fullname``'s ``.py`` source when it is one of the compiled modules, else ``None``
        (the import system asks the next finder)."""
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def select() -> tuple[bool, str]:
    """Decide, before the kernel's modules are imported, which of them load (:func:`status`); when the pure
    ones must and an extension is there, put a :class:`PureFinder` first on :data:`sys.meta_path`."""
    compiled, reason = status()
    if not compiled and any(extension_of(KERNEL_DIR, module) for module in MODULES):
        if not any(isinstance(finder, PureFinder) for finder in sys.meta_path):
            sys.meta_path.insert(0, PureFinder())
    return compiled, reason


def loaded_compiled(modules: Sequence[str] = MODULES) -> bool:
    """Whether every one of ``modules`` imported so far is an extension module (a check of :func:`select`)."""
    loaded = [sys.modules.get(f"{PACKAGE}.{module}") for module in modules]
    return all(
        module is not None and isinstance(getattr(module.__spec__, "loader", None), importlib.machinery.ExtensionFileLoader)
        for module in loaded
    )
