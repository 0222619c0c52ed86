"""The built documentation as a newcomer reads it: offline, with examples that copy as code, and true pages.

* The HTML loads no script or style sheet from another host (the phase diagram's mermaid script came from
  a CDN: without a network the page showed its source text).
* Every page has a copy button, and what it copies from a ``>>>`` example is the code alone, without the
  prompts and the output: text that Python compiles.
* The quickstart names every library the package needs (it once named only attrs and rich).
* ``nox -l`` describes each session in a whole sentence, without the issue numbers it was written under.
"""

from __future__ import annotations

import html
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: A tag that fetches a script or a style sheet, and the address it fetches it from.
FETCHING_TAG = re.compile(r"<(script|link)\b[^>]*\b(?:src|href)=[\"']((?:https?:)?//[^\"']+)[\"'][^>]*>", re.I)
#: An ES module import from another host inside an inline script (how the mermaid extension loaded it).
INLINE_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.I | re.S)
REMOTE_IMPORT = re.compile(r"""\bimport\b[^;]*?["']((?:https?:)?//[^"']+)["']""")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML documentation, built once for this module with warnings as errors."""
    missing = [name for name in ("sphinx", "myst_parser", "sphinx_copybutton") if importlib.util.find_spec(name) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the docs' libraries are missing on CI ({', '.join(missing)}): install the dev extras")
        pytest.skip(f"not installed here: {', '.join(missing)} (pip install -e '.[dev]')")
    out = tmp_path_factory.mktemp("html")
    command = [sys.executable, "-m", "sphinx", "-W", "-n", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)]
    run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert run.returncode == 0, f"sphinx-build -b html failed:\n{run.stdout}\n{run.stderr}"
    return out


def _pages(built: Path) -> list[Path]:
    pages = sorted(built.rglob("*.html"))
    assert len(pages) > 20, "the build wrote almost no pages"
    return pages


@pytest.mark.spec("9.4")
def test_no_page_fetches_a_script_or_a_style_sheet_from_another_host(built: Path) -> None:
    remote = []
    for page in _pages(built):
        text = page.read_text(encoding="utf-8")
        remote += [f"{page.relative_to(built)}: {match[1]}" for match in FETCHING_TAG.findall(text)]
        for script in INLINE_SCRIPT.findall(text):
            remote += [f"{page.relative_to(built)}: import {url}" for url in REMOTE_IMPORT.findall(script)]
    assert not remote, "pages that need the network:\n" + "\n".join(remote[:20])


@pytest.mark.spec("9.4")
def test_the_phases_page_shows_the_diagram_as_text(built: Path) -> None:
    page = html.unescape(re.sub(r"<[^>]+>", "", (built / "rules" / "phases.html").read_text(encoding="utf-8")))
    assert "PLAY_1 -> PLAY_2 -> PLAY_3 -> WEEK_SCORING" in page
    assert "stateDiagram" not in page  # no diagram source left for a script to draw


def _copy_settings(built: Path) -> tuple[re.Pattern[str], bool, bool, bool]:
    """The prompt pattern the copy button strips, and whether it is a regexp, copies only the prompt lines
    and removes the prompts, as the built ``copybutton.js`` has them."""
    script = (built / "_static" / "copybutton.js").read_text(encoding="utf-8")
    call = re.search(r"formatCopyText\(text, '((?:[^'\\]|\\.)*)', (true|false), (true|false), (true|false)", script)
    assert call is not None, "copybutton.js no longer calls formatCopyText as expected"
    prompt = call[1].encode().decode("unicode_escape")  # the JavaScript string literal's value
    return re.compile(prompt), call[2] == "true", call[3] == "true", call[4] == "true"


def _copied(block: str, prompt: re.Pattern[str]) -> str:
    """What the copy button copies from ``block`` (prompts on, only prompt lines): copybutton's own rule."""
    kept = []
    for line in block.splitlines():
        match = prompt.match(line)
        if match is not None:
            kept.append(line[match.end() :])
    return "\n".join(kept)


@pytest.mark.spec("9.4")
def test_a_python_example_copies_as_code_without_prompts_or_output(built: Path) -> None:
    prompt, is_regexp, only_prompt_lines, removes = _copy_settings(built)
    assert is_regexp and only_prompt_lines and removes
    quickstart = (built / "quickstart.html").read_text(encoding="utf-8")
    assert "copybutton.js" in quickstart
    blocks = [
        html.unescape(re.sub(r"<[^>]+>", "", block))
        for block in re.findall(r'<div class="highlight"><pre>(.*?)</pre>', quickstart, re.S)
    ]
    examples = [block for block in blocks if block.lstrip().startswith(">>> ")]
    assert examples, "the quickstart has no >>> example any more"
    for block in examples:
        code = _copied(block, prompt)
        assert ">>>" not in code and not code.startswith("...")
        compile(code, "<copied example>", "exec")  # the copied text is Python, output lines left out


@pytest.mark.spec("9.4")
def test_the_quickstart_names_every_library_the_package_needs(built: Path) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed = [re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0] for requirement in project["dependencies"]]
    text = html.unescape(re.sub(r"<[^>]+>", "", (built / "quickstart.html").read_text(encoding="utf-8")))
    assert [name for name in needed if not re.search(rf"\b{re.escape(name)}\b", text)] == []


@pytest.mark.spec("9.4")
def test_nox_lists_each_session_in_a_whole_sentence_without_issue_numbers() -> None:
    if importlib.util.find_spec("nox") is None:
        pytest.skip("nox is not installed here")
    listing = subprocess.run(
        [sys.executable, "-m", "nox", "-l"], capture_output=True, text=True, cwd=ROOT, timeout=120, check=True
    ).stdout
    sessions = [line for line in listing.splitlines() if re.match(r"[*-] \w+ -> ", line)]
    assert len(sessions) >= 5, listing
    for line in sessions:
        description = line.split(" -> ", 1)[1]
        assert not re.search(r"\bissues? \d", description), line
        assert description.endswith((".", ")")) and description.count("(") == description.count(")"), line
