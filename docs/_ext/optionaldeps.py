"""Sphinx extension: document modules whose optional third-party libraries are not installed.

The adapters need libraries that only their extras install (``pip install -e ".[openspiel]"``). Without
them the documentation still builds: autodoc imports those modules with the missing libraries mocked
(``autodoc_mock_imports``), so every page, signature and cross-reference is checked, and the doctest
builder leaves out the examples of a page whose module cannot be imported for real, because an example
needs the real library to run. It says so in the build log, naming the page and the missing library.
With the extras installed, nothing is mocked and every example runs.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path
from typing import Any

from sphinx.util import logging

#: Top-level modules that only the optional extras install.
OPTIONAL_LIBRARIES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy", "starlette", "uvicorn", "psycopg")

_LOGGER = logging.getLogger(__name__)
_AUTOMODULE = re.compile(r"automodule::\s+(\S+)")


def missing_libraries() -> list[str]:
    """The optional libraries that cannot be imported here."""
    return [name for name in OPTIONAL_LIBRARIES if importlib.util.find_spec(name) is None]


def missing_for(module: str) -> str | None:
    """The optional library whose absence keeps ``module`` from being imported, or ``None`` if it imports.

    Any other import error is not hidden: it propagates.
    """
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        root = (error.name or "").partition(".")[0]
        if root in OPTIONAL_LIBRARIES:
            return root
        raise
    return None


#: darkempire modules that cannot be imported for real, and the optional library each misses. Found when
#: the configuration is read, before autodoc imports anything with mocks (a module imported with a mocked
#: library stays in sys.modules and would then seem importable).
UNIMPORTABLE: dict[str, str] = {}


def _find_unimportable() -> dict[str, str]:
    import pkgutil

    import darkempire

    found = {}
    for info in pkgutil.walk_packages(darkempire.__path__, "darkempire.", onerror=lambda _name: None):
        library = missing_for(info.name)
        if library is not None:
            found[info.name] = library
    return found


def _is_test_node(node: Any) -> bool:
    from docutils import nodes  # type: ignore[import-untyped]

    if isinstance(node, nodes.doctest_block):
        return True
    return isinstance(node, (nodes.literal_block, nodes.comment)) and "testnodetype" in node


def _drop_examples(app: Any, doctree: Any) -> None:
    if app.builder.name != "doctest":
        return
    source = Path(app.env.doc2path(app.env.docname))
    modules = _AUTOMODULE.findall(source.read_text(encoding="utf-8")) if source.exists() else []
    for module in modules:
        library = UNIMPORTABLE.get(module)
        if library is None:
            continue
        dropped = [node for node in doctree.findall(_is_test_node)]
        for node in dropped:
            node.parent.remove(node)
        _LOGGER.info(
            "optionaldeps: %d examples of %s not run: %s needs %s, which is not installed",
            len(dropped),
            app.env.docname,
            module,
            library,
        )
        return


def _mock_missing(app: Any, config: Any) -> None:
    UNIMPORTABLE.clear()
    UNIMPORTABLE.update(_find_unimportable())
    config.autodoc_mock_imports = sorted(set(config.autodoc_mock_imports) | set(missing_libraries()))


def setup(app: Any) -> dict[str, Any]:
    """Mock the missing optional libraries for autodoc; leave out examples that need them."""
    app.connect("config-inited", _mock_missing)
    app.connect("doctree-read", _drop_examples)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
