"""``python -m darkempire.kernel.build``: compile the kernel's hot modules with mypyc, in place.

Needs the ``compiled`` extra (``pip install "darkempire[compiled]"``: mypy, which ships mypyc, and setuptools)
and a C compiler. The extension modules of :data:`~darkempire.kernel.compiled.MODULES` are built in a
scratch folder and moved beside their sources (a new file each, never one rewritten in place: a process that
loaded the old build keeps it), then the stamp :data:`~darkempire.kernel.compiled.STAMP_NAME` is written
with each source's SHA-256, so that :func:`darkempire.kernel.compiled.status` refuses a build whose sources
changed since. ``--clean`` removes the build and its stamp instead. The ``.so`` files and the stamp are not
part of the repository (``.gitignore``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from darkempire.kernel.compiled import KERNEL_DIR, MODULES, STAMP_NAME, extension_of, stamp

__all__ = ["build", "clean", "main"]


def clean(directory: Path = KERNEL_DIR) -> list[Path]:
    """Remove the compiled modules, mypyc's shared library and the stamp from ``directory``; the paths removed."""
    removed = []
    candidates = [extension_of(directory, module) for module in (*MODULES, "_native__mypyc")]
    for path in [*candidates, directory / STAMP_NAME]:
        if path is not None and path.exists():
            path.unlink()
            removed.append(path)
    return removed


def build(directory: Path = KERNEL_DIR, modules: Sequence[str] = MODULES) -> list[Path]:
    """Compile ``modules`` of the kernel package in ``directory`` with mypyc; the extension files written.

    :raises ImportError: mypy (mypyc) or setuptools is not installed (the ``compiled`` extra).
    :raises SystemExit: the compiler failed (setuptools' own error).
    """
    from mypyc.build import mypycify

    setuptools = importlib.import_module("setuptools")  # untyped in the versions without type hints
    root = directory.parent.parent  # the folder holding the darkempire package
    clean(directory)  # no stamp while the build is half done: a crash leaves the pure kernel in use
    with tempfile.TemporaryDirectory(prefix="darkempire-mypyc-") as scratch:
        here, cache = Path.cwd(), os.environ.get("MYPY_CACHE_DIR")
        os.chdir(root)  # mypyc names the modules after their paths from here
        os.environ["MYPY_CACHE_DIR"] = f"{scratch}/mypy_cache"  # not a .mypy_cache left in the source tree
        try:
            sources = [str(Path("darkempire", "kernel", f"{module}.py")) for module in modules]
            extensions = mypycify(sources, group_name="darkempire.kernel._native", target_dir=f"{scratch}/c")
            setuptools.setup(
                name="darkempire-kernel-compiled",
                ext_modules=extensions,
                script_args=["--quiet", "build_ext", "--build-lib", f"{scratch}/lib", "--build-temp", f"{scratch}/tmp"],
            )
        finally:
            os.chdir(here)
            if cache is None:
                del os.environ["MYPY_CACHE_DIR"]
            else:
                os.environ["MYPY_CACHE_DIR"] = cache
        built = sorted(Path(scratch, "lib", "darkempire", "kernel").iterdir())
        written = []
        for path in built:
            target = directory / path.name
            fresh = directory / f".{path.name}.new"
            shutil.copyfile(path, fresh)
            os.replace(fresh, target)  # a new inode: a process that mapped the old file keeps it intact
            written.append(target)
    (directory / STAMP_NAME).write_text(json.dumps(stamp(directory, modules), indent=2) + "\n", encoding="utf-8")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: build (or ``--clean``); 0 on success, 1 when mypyc or setuptools is missing."""
    parser = argparse.ArgumentParser(prog="python -m darkempire.kernel.build", description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled build and its stamp instead")
    args = parser.parse_args(argv)
    if args.clean:
        for path in clean():
            print(f"removed {path}")
        return 0
    try:
        written = build()
    except ImportError as error:
        print(f"the compiled build needs mypyc and setuptools (pip install 'darkempire[compiled]'): {error}",
              file=sys.stderr)
        return 1
    for path in written:
        print(f"built {path}")
    print(f"stamp {KERNEL_DIR / STAMP_NAME}; new processes load the compiled kernel "
          "(darkempire.kernel.COMPILED, darkempire.kernel.BUILD_REASON)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
