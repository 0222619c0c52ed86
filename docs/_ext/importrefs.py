"""Sphinx extension: resolve Python cross-references the way Python resolves names.

A docstring of :mod:`darkempire.rules.engine` may write ``:attr:`Phase.PLAY_1``` because ``Phase`` is imported
there, and these pages may write ``darkempire.GameState`` because the package re-exports it. Sphinx looks
such names up only where they are documented (``darkempire.rules.state.Phase``), so they would be broken
references. When Sphinx finds no target, this extension imports the module the reference was written in
(or the module the target names), follows the first name to the object it is bound to, and retries with
that object's documented name. A constant carries no name of its own, so for one the extension reads the
module's ``from ... import`` of it instead (the old paths of the rules re-import theirs from
:mod:`darkempire.rules`). A name bound to nothing stays a broken reference: nothing is guessed.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from sphinx.domains.python import PythonDomain


def _import_prefix(dotted: str, mock_imports: Sequence[str] = ()) -> tuple[ModuleType, list[str]] | None:
    """The longest importable module prefix of ``dotted`` and the names after it.

    Modules are imported as autodoc imports them, with ``mock_imports`` mocked (see optionaldeps), so a
    module needing a missing optional library resolves as it did when its page was read.
    """
    from sphinx.ext.autodoc.mock import mock  # type: ignore[attr-defined]

    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            with mock(list(mock_imports)):
                module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return module, parts[cut:]
    return None


def _imported_from(module: ModuleType, name: str) -> str | None:
    """Where ``module`` takes ``name`` from by a top-level ``from m import x [as name]``: ``"m.x"``, or ``None``."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return f"{node.module}.{alias.name}"
    return None


def canonical_name(dotted: str, mock_imports: Sequence[str] = ()) -> str | None:
    """The documented name of what ``dotted`` is bound to, if it is bound to a class or function elsewhere, or
    to a constant imported from elsewhere.

    >>> canonical_name("darkempire.GameState")
    'darkempire.rules.state.GameState'
    >>> canonical_name("darkempire.rules.engine.Phase.PLAY_1")
    'darkempire.rules.state.Phase.PLAY_1'
    >>> canonical_name("darkempire.engine.apply")  # an old path of the rules (a module that re-imports them)
    'darkempire.rules.engine.apply'
    >>> canonical_name("darkempire.cards.HAND_CARDS")  # a constant, found by the import that binds it
    'darkempire.rules.cards.HAND_CARDS'
    >>> canonical_name("darkempire.rules.engine.NoSuchName") is None
    True
    """
    found = _import_prefix(dotted, mock_imports)
    if found is None:
        return None
    module, rest = found
    if not rest or not rest[0].isidentifier():
        return None
    if not hasattr(module, rest[0]):
        return None
    bound = getattr(module, rest[0])
    if not (inspect.isclass(bound) or inspect.isfunction(bound)):
        source = _imported_from(module, rest[0])
        if source is None:
            return None
        followed = ".".join([source, *rest[1:]])
        return canonical_name(followed, mock_imports) or followed
    name = ".".join([bound.__module__, bound.__qualname__, *rest[1:]])
    return name if name != dotted else None


def _missing_reference(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if target.partition(".")[0] in app.config.autodoc_mock_imports:
        return None  # a mocked optional library (optionaldeps) has no documented names to resolve to
    module = node.get("py:module")
    candidates = [f"{module}.{target}"] if module else []
    candidates.append(target)
    domain = env.get_domain("py")
    for candidate in candidates:
        name = canonical_name(candidate, app.config.autodoc_mock_imports)
        if name is None:
            continue
        resolved = domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], name, node, contnode)
        if resolved is not None:
            return resolved
    return None


class _ImportingPythonDomain(PythonDomain):
    """The Python domain, choosing among several targets of a short name the one Python binds it to.

    A short name Sphinx does not find where the reference was written is searched for everywhere, and two
    packages may document classes of that name: :mod:`darkempire.serialization`'s ``MalformedJSONError``
    derives from :mod:`tablekit.wire`'s. The one meant is the one the reference's module imports.
    """

    def find_obj(self, env: Any, modname: str, classname: str, name: str, type: str | None,
                 searchmode: int = 0) -> list[tuple[str, Any]]:
        matches: list[tuple[str, Any]] = super().find_obj(env, modname, classname, name, type, searchmode)
        if len(matches) < 2:
            return matches
        for candidate in ([f"{modname}.{name}"] if modname else []) + [name]:
            bound = canonical_name(candidate, env.config.autodoc_mock_imports)
            chosen = [match for match in matches if match[0] == bound]
            if chosen:
                return chosen
        return matches


def setup(app: Any) -> dict[str, Any]:
    """Register the resolver as a fallback for references Sphinx did not find, and the domain that picks
    among several targets by import."""
    app.connect("missing-reference", _missing_reference)
    app.add_domain(_ImportingPythonDomain, override=True)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
