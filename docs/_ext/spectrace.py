"""Sphinx extension: for each rule and ruling of ``spec/``, the tests that check it.

The ``spec-tests`` directive reads the rule ids (``### 5.4 Tokens``) from ``spec/rules.md`` and the ruling
ids (``### R-E ...``) from ``spec/rulings.md`` with the regular expressions that ``spec/README.md`` gives,
finds every test marked ``@pytest.mark.spec(...)`` in ``tests/`` by reading the test files' syntax trees
(nothing is imported or run), and renders one table row per id: the id (linked to its heading), its title
and the tests that cite it. Ids no test cites are marked, so a reader sees the gap at once.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from docutils import nodes  # type: ignore[import-untyped]
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

RULE_HEADING = re.compile(r"^### (\d+\.\d+) (.+)$", re.M)
RULING_HEADING = re.compile(r"^### (R-[A-Z]) (.+)$", re.M)


def spec_ids(spec: Path) -> list[tuple[str, str]]:
    """``(id, title)`` of every rule, then every ruling, in the order the spec states them."""
    rules = RULE_HEADING.findall((spec / "rules.md").read_text(encoding="utf-8"))
    rulings = RULING_HEADING.findall((spec / "rulings.md").read_text(encoding="utf-8"))
    return [(i, t.strip()) for i, t in rules + rulings]


def _spec_marks(decorators: list[ast.expr]) -> list[str]:
    """The string arguments of every ``pytest.mark.spec(...)`` among ``decorators``."""
    ids: list[str] = []
    for decorator in decorators:
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr == "spec"
            and isinstance(decorator.func.value, ast.Attribute)
            and decorator.func.value.attr == "mark"
        ):
            ids += [arg.value for arg in decorator.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    return ids


def cited_ids(tests: Path) -> dict[str, list[str]]:
    """For each cited id, the tests citing it as ``file.py::[Class::]test_name``, sorted.

    Marks on a test class apply to its tests, and a module-level ``pytestmark = pytest.mark.spec(...)``
    to every test of the module, as pytest applies them.
    """
    cited: dict[str, set[str]] = defaultdict(set)
    for path in sorted(tests.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_ids: list[str] = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
            ):
                values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
                module_ids += _spec_marks(list(values))

        def visit(body: list[ast.stmt], prefix: str, inherited: list[str]) -> None:
            for node in body:
                if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                    visit(node.body, f"{prefix}{node.name}::", inherited + _spec_marks(node.decorator_list))
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                    for spec_id in inherited + _spec_marks(node.decorator_list):
                        cited[spec_id].add(f"{path.name}::{prefix}{node.name}")

        visit(tree.body, "", module_ids)
    return {spec_id: sorted(names) for spec_id, names in cited.items()}


def _target(spec_id: str) -> str:
    return f"ruling-{spec_id}" if spec_id.startswith("R-") else f"rule-{spec_id}"


class SpecTestsDirective(SphinxDirective):
    """``.. spec-tests::`` renders the table of ids and the tests that check them."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        root = Path(self.env.srcdir).parent
        spec, tests = root / "spec", root / "tests"
        for path in [spec / "rules.md", spec / "rulings.md", *sorted(tests.glob("test_*.py"))]:
            self.env.note_dependency(str(path))
        ids = spec_ids(spec)
        cited = cited_ids(tests)
        unknown = sorted(set(cited) - {spec_id for spec_id, _ in ids})
        summary = nodes.paragraph(
            text=f"{len(ids)} ids; {sum(1 for i, _ in ids if i in cited)} cited by at least one test; "
            f"{len({name for names in cited.values() for name in names})} tests cite ids."
            + (f" Cited but not a rule or ruling id: {', '.join(unknown)}." if unknown else "")
        )
        table = nodes.table(classes=["spec-tests"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (8, 30, 62):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row([nodes.paragraph(text=label) for label in ("id", "title", "tests")])
        body = nodes.tbody()
        for spec_id, title in ids:
            link = addnodes.pending_xref(
                "", refdomain="std", reftype="ref", reftarget=_target(spec_id).lower(), refexplicit=True, refwarn=True
            )
            link += nodes.inline(text=spec_id)
            names = cited.get(spec_id, [])
            tests_cell = nodes.paragraph()
            if names:
                for k, name in enumerate(names):
                    if k:
                        tests_cell += nodes.Text(", ")
                    tests_cell += nodes.literal(text=name)
            else:
                tests_cell += nodes.strong(text="no test cites this id")
            body += _row([nodes.paragraph("", "", link), nodes.paragraph(text=title), tests_cell])
        group += head
        group += body
        return [summary, table]


def _row(cells: list[nodes.Element]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell
        row += entry
    return row


#: The pages that include spec/ files; ids in their text become links to the rule or ruling.
SPEC_PAGES = ("rules/overview", "rules/rules", "rules/rulings", "rules/phases", "rules/coverage")
_ID_IN_TEXT = re.compile(r"(?<![\w.-])(R-[A-Z]|\d+\.\d+)(?![\w%]|\.\d)")
_NO_LINKS_INSIDE = (nodes.literal, nodes.literal_block, nodes.title, nodes.reference, nodes.raw, addnodes.pending_xref)


def link_ids(doctree: nodes.Node, ids: set[str]) -> int:
    """Turn every spec id in the running text of ``doctree`` into a reference to its heading.

    Only ids that exist are linked, never inside code, titles or existing links; a number such as ``2.5%``
    or ``1.2.3`` is left alone. Returns how many links were made.
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
                "", refdomain="std", reftype="ref", reftarget=_target(spec_id).lower(), refexplicit=True,
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


def _link_spec_pages(app: Any, doctree: nodes.document) -> None:
    if app.env.docname in SPEC_PAGES:
        spec = Path(app.srcdir).parent / "spec"
        link_ids(doctree, {spec_id for spec_id, _ in spec_ids(spec)})


def setup(app: Any) -> dict[str, Any]:
    """Register the ``spec-tests`` directive and the linking of ids on the spec pages."""
    app.add_directive("spec-tests", SpecTestsDirective)
    app.connect("doctree-read", _link_spec_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
