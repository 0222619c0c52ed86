"""Sphinx extension: for each rule and ruling of a game of ``spec/``, the tests that check it.

The ``spec-tests`` directive renders one table row per id of a game (option ``:game:``, by default the default
game, Dark Empire): the id (linked to its heading), its title and the tests that cite it. Ids no test cites are
marked, so a reader sees the gap at once. The ids and the citations come from ``tests/traceability.py``, the
scan that ``tests/test_traceability.py`` checks: the games' id headings in ``spec/`` (``spec/README.md``), and
every ``@pytest.mark.spec(...)`` in ``tests/``, read from the test files' syntax trees (nothing is imported or
run). On every page that includes a game's spec files, the ids in the running text become links.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from docutils import nodes  # type: ignore[import-untyped]
from docutils.parsers.rst import directives  # type: ignore[import-untyped]
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective


def traceability(tests: Path) -> ModuleType:
    """``traceability.py`` of the ``tests`` folder, loaded from its file (tests/ is no package), once per process."""
    path = (tests / "traceability.py").resolve()
    name = "_spectrace_traceability_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None, path
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # importlib's recipe: registered before it runs
        spec.loader.exec_module(module)
    return sys.modules[name]


def target(spec_id: str, trace: ModuleType) -> str:
    """The Sphinx label of an id's heading (``spec/README.md``): ``rule-5.4``, ``ruling-r-e``, ``revolution-rule-3.2``.

    ``spec_id`` is written as tests cite it: bare for the default game, ``<game>:<id>`` for another.
    """
    game, local = trace.split(spec_id)
    return _label(local, "" if game == trace.DEFAULT_GAME else f"{game}-")


def _label(local: str, prefix: str) -> str:
    """The label of a game's own (bare) id: ``prefix`` is empty for the default game, ``"<game>-"`` for another."""
    return (prefix + (f"ruling-{local}" if local.startswith("R-") else f"rule-{local}")).lower()


def rows(spec: Path, tests: Path, game: str) -> list[tuple[str, str, list[str]]]:
    """``(id, title, citing tests)`` of every id of ``game``, ids as tests cite them, in the spec's order."""
    trace = traceability(tests)
    cited = trace.citing_tests(trace.citations(trace.python_files(tests)))
    qualified = [(trace.qualify(game, local), title) for local, title, _ in trace.headings(spec, game)]
    return [(spec_id, title, cited.get(spec_id, [])) for spec_id, title in qualified]


def unknown_citations(spec: Path, tests: Path) -> list[str]:
    """Ids that tests cite and no game of ``spec`` has, spelt as the traceability scan spells them."""
    trace = traceability(tests)
    cited = trace.citing_tests(trace.citations(trace.python_files(tests)))
    return sorted(set(cited) - set(trace.spec_ids(spec)))


def _xref(spec_id: str, trace: ModuleType, text: str) -> addnodes.pending_xref:
    link = addnodes.pending_xref(
        "", refdomain="std", reftype="ref", reftarget=target(spec_id, trace), refexplicit=True, refwarn=True
    )
    link += nodes.inline(text=text)
    return link


class SpecTestsDirective(SphinxDirective):
    """``.. spec-tests::`` renders the table of a game's ids and the tests that check them.

    Option ``:game:`` names the game (a folder of ``spec/``); without it, the default game.
    """

    has_content = False
    option_spec = {"game": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        root = Path(self.env.srcdir).parent
        spec, tests = root / "spec", root / "tests"
        trace = traceability(tests)
        game = self.options.get("game") or trace.DEFAULT_GAME
        if game not in trace.games(spec):
            raise self.error(f"spec-tests: spec/ holds no game {game!r}; its games: {', '.join(trace.games(spec))}")
        for path in [*sorted((spec / game).glob("*.md")), *trace.python_files(tests)]:
            self.env.note_dependency(str(path))
        table_rows = rows(spec, tests, game)
        unknown = unknown_citations(spec, tests)
        summary = nodes.paragraph(
            text=f"{len(table_rows)} ids; {sum(1 for _, _, names in table_rows if names)} cited by at least one "
            f"test; {len({name for _, _, names in table_rows for name in names})} tests cite them."
            + (f" Cited but not a rule or ruling id: {', '.join(unknown)}." if unknown else "")
        )
        return [summary, _table(table_rows, trace)]


def _table(table_rows: list[tuple[str, str, list[str]]], trace: ModuleType) -> nodes.table:
    table = nodes.table(classes=["spec-tests"])
    group = nodes.tgroup(cols=3)
    table += group
    for width in (8, 30, 62):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += _row([nodes.paragraph(text=label) for label in ("id", "title", "tests")])
    body = nodes.tbody()
    for spec_id, title, names in table_rows:
        tests_cell = nodes.paragraph()
        for k, name in enumerate(names):
            if k:
                tests_cell += nodes.Text(", ")
            tests_cell += nodes.literal(text=name)
        if not names:
            tests_cell += nodes.strong(text="no test cites this id")
        body += _row([nodes.paragraph("", "", _xref(spec_id, trace, spec_id)), nodes.paragraph(text=title), tests_cell])
    group += head
    group += body
    return table


def _row(cells: list[nodes.Element]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell
        row += entry
    return row


#: An include directive of a MyST page; group 1 is the included path.
_INCLUDE = re.compile(r"^\s*(?:```|:::)\{include\}\s+(\S+)", re.M)
_ID_IN_TEXT = re.compile(r"(?<![\w.-])(R-[A-Z]|\d+\.\d+)(?![\w%]|\.\d)")
_NO_LINKS_INSIDE = (nodes.literal, nodes.literal_block, nodes.title, nodes.reference, nodes.raw, addnodes.pending_xref)


def link_ids(doctree: nodes.Node, ids: set[str], prefix: str = "") -> int:
    """Turn every spec id in the running text of ``doctree`` into a reference to its heading.

    ``ids`` are one game's own ids, bare as its files write them; ``prefix`` starts their labels (empty for the
    default game, ``"revolution-"`` for the game of ``spec/revolution/``). Only ids that exist are linked, never
    inside code, titles or existing links; a number such as ``2.5%`` or ``1.2.3`` is left alone. Returns how
    many links were made.
    """
    made = 0
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or any(isinstance(a, _NO_LINKS_INSIDE) for a in _ancestors(parent)):
            continue
        pieces: list[nodes.Node] = []
        last = 0
        source = str(text)
        for match in _ID_IN_TEXT.finditer(source):
            spec_id = match.group(1)
            if spec_id not in ids:
                continue
            pieces.append(nodes.Text(source[last : match.start()]))
            link = addnodes.pending_xref(
                "", refdomain="std", reftype="ref", reftarget=_label(spec_id, prefix), refexplicit=True,
                refwarn=True,
            )
            link += nodes.inline(text=spec_id)
            pieces.append(link)
            last = match.end()
        if pieces:
            pieces.append(nodes.Text(source[last:]))
            parent.replace(text, pieces)
            made += len(pieces) // 2
    return made


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found = []
    while node is not None:
        found.append(node)
        node = node.parent
    return found


def included_game(page: Path, spec: Path, games: list[str]) -> str | None:
    """The game whose spec files the MyST ``page`` includes (``{include} ../../spec/darkempire/rules.md``), if any."""
    for included in _INCLUDE.findall(page.read_text(encoding="utf-8")):
        folder = (page.parent / included).resolve().parent
        if folder.parent == spec.resolve() and folder.name in games:
            return folder.name
    return None


def _link_spec_pages(app: Any, doctree: nodes.document) -> None:
    """On a page that includes a game's spec files, link the ids of that game in the running text."""
    root = Path(app.srcdir).parent
    spec, trace = root / "spec", traceability(root / "tests")
    game = included_game(Path(app.env.doc2path(app.env.docname)), spec, trace.games(spec))
    if game is not None:
        prefix = "" if game == trace.DEFAULT_GAME else f"{game}-"
        link_ids(doctree, {local for local, _, _ in trace.headings(spec, game)}, prefix)


def setup(app: Any) -> dict[str, Any]:
    """Register the ``spec-tests`` directive and the linking of ids on the pages that include spec files."""
    app.add_directive("spec-tests", SpecTestsDirective)
    app.connect("doctree-read", _link_spec_pages)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
