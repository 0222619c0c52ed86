"""Sphinx configuration for the darkempire documentation.

Build with ``nox -s docs`` or ``sphinx-build -W -n -b html docs docs/_build/html``; the doctests with
``sphinx-build -W -n -b doctest docs docs/_build/doctest``.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
# The docs and their doctests describe the pure kernel, whether or not a compiled build is in src/ (docs/kernel.md).
os.environ["DARKEMPIRE_PURE_KERNEL"] = "1"

import darkempire  # noqa: E402  # after the path set-up, so the version below is the installed package's

project = "darkempire"
author = "darkempire developers"
copyright = "2026, darkempire developers"  # noqa: A001  # Sphinx reads this name
release = darkempire.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx_autodoc_typehints",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "myst_parser",
    "sphinx_copybutton",
    "importrefs",
    "optionaldeps",
    "spectrace",
    "weekfigure",
]

# sphinx-autodoc-typehints 3.6 calls an API that Sphinx 10 removes; the notice says nothing about our docs.
warnings.filterwarnings("ignore", message=".*set_application.*is deprecated", module="sphinx_autodoc_typehints")

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "_static/balance/index.md"]  # balance.md shows its figures
templates_path: list[str] = []

# -- HTML -------------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"darkempire {release}"
html_static_path: list[str] = []

# -- MyST -------------------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "fieldlist"]
myst_heading_anchors = 3

# -- copy buttons -----------------------------------------------------------------------------------
# Every code block gets a copy button. An example written as a Python session copies as code: the
# ">>> " and "... " prompts are left out, and so are the lines without one (the output); a shell line
# copies without its "$ ".
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_remove_prompts = True

# -- autodoc and type hints -------------------------------------------------------------------------
autodoc_default_options = {"members": True, "show-inheritance": True, "member-order": "bysource"}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = False  # True would print attrs internals such as attr_dict[...].default
typehints_fully_qualified = False
always_document_param_types = False
typehints_document_rtype = False
typehints_use_signature = True
typehints_use_signature_return = True
always_use_bars_union = True

# -- broken references ------------------------------------------------------------------------------
# The machine that builds the docs reaches no intersphinx inventory, so references to the standard
# library and the few third-party libraries named below cannot be resolved. Only those are ignored: every
# reference into darkempire stays checked.
nitpicky = True
_STDLIB = "|".join(sorted(name for name in sys.stdlib_module_names if not name.startswith("_")))
nitpick_ignore_regex = [
    (r"py:(class|obj|data|mod|func|meth|attr|exc)", rf"(?:{_STDLIB})(?:\..+)?"),
    (r"py:data", r"Ellipsis"),  # the "..." of tuple[int, ...]
    # importlib.machinery's classes (ModuleSpec in darkempire.kernel.compiled) live in a private module at run time.
    (r"py:class", r"_frozen_importlib(?:_external)?\..+"),
    # Third-party libraries the public API names: rich (the terminal output of darkempire.cli).
    (r"py:(class|obj|mod|func)", r"rich(?:\..+)?"),
    # cattrs, whose converter darkempire.wire.converter builds.
    (r"py:(class|obj|mod|func)", r"cattrs(?:\..+)?"),
    # The server's libraries (extra server): Starlette, whose application and WebSocket its API names.
    (r"py:(class|obj|mod|func)", r"(?:starlette|uvicorn)(?:\..+)?"),
    # The adapters' optional libraries (extras openspiel and pettingzoo), and numpy under them.
    (r"py:(class|obj|data|mod|func|meth|attr)", r"(?:pyspiel|open_spiel|pettingzoo|gymnasium|numpy|np)(?:\..+)?"),
    # How a type hint naming a mocked numpy type renders when numpy is not installed (see optionaldeps).
    (r"py:class", r".*\bnumpy\.ndarray\b.*"),
    # A TypeVar of the kit is not an object to document; it appears only inside generic signatures.
    (r"py:(class|obj)", r"tablekit\.[\w.]+\.(?:[A-Z](?:_co|_contra)?|Src|CounterT)"),
    # The repr of Revolution!'s default board (BASE_BOARD) in signatures: its immunities print as
    # frozenset({<Token.FORCE: 'force'>}), whose pieces Sphinx takes for class names.
    (r"py:class", r".*'(?:force|blackmail|gold)'>}\)"),
]
# A TypeVar is not an object to document; it appears only inside generic signatures.
nitpick_ignore = [
    ("py:class", "darkempire.rules.chance.T"),
    ("py:class", "tablekit.game.A"),
    ("py:obj", "tablekit.game.A"),
    ("py:class", "revolution.wire.T"),
    ("py:obj", "revolution.wire.T"),
    ("py:class", "darkempire.execution.T"),
    ("py:class", "darkempire.execution.R"),
]

# -- doctest ----------------------------------------------------------------------------------------
# Nothing is imported for the examples: each page imports what it uses, so every example can be copied
# as it is. The API pages run their docstrings in the documented module's namespace (see api/*.md).
doctest_global_setup = ""
doctest_test_doctest_blocks = "default"


def _class_signature(app: object, what: str, name: str, obj: object, options: object, signature: str | None,
                     return_annotation: str | None) -> tuple[str, str | None] | None:
    """sphinx-autodoc-typehints' signature, without the ``-> None`` of ``__init__`` on classes.

    Objects made by a library that autodoc mocks (see optionaldeps) keep the signature autodoc found:
    sphinx-autodoc-typehints cannot unwrap a mock.
    """
    from sphinx.ext.autodoc.mock import ismock  # type: ignore[attr-defined]
    from sphinx_autodoc_typehints import process_signature

    if ismock(obj):
        return None
    result = process_signature(app, what, name, obj, options, signature, return_annotation)  # type: ignore[arg-type]
    if what == "class" and result is not None and result[0].endswith(" -> None"):
        return result[0][: -len(" -> None")], None
    return result


def _docstring_types(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """sphinx-autodoc-typehints' docstring handler, except on mocked objects (see ``_class_signature``)."""
    from sphinx.ext.autodoc.mock import ismock  # type: ignore[attr-defined]
    from sphinx_autodoc_typehints import process_docstring

    if not ismock(obj):
        process_docstring(app, what, name, obj, options, lines)  # type: ignore[arg-type]


def setup(app: Any) -> None:
    """Put ``_class_signature`` and ``_docstring_types`` in the place of sphinx-autodoc-typehints' handlers."""
    from sphinx_autodoc_typehints import process_docstring, process_signature

    replacements = {
        "autodoc-process-signature": (process_signature, _class_signature),
        "autodoc-process-docstring": (process_docstring, _docstring_types),
    }
    for event, (theirs, ours) in replacements.items():
        for listener in list(app.events.listeners[event]):
            if listener.handler is theirs:
                app.disconnect(listener.id)
                app.connect(event, ours, priority=listener.priority)
