"""The balance report folder and ``darkempire simulate --report DIR`` (issue 15).

The page must embed every plot it claims and each must be a PNG on disk; the CSV must hold every game; the
command must refuse bad player counts and folders it cannot write before it plays a game.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from darkempire.balance.figures import figures
from darkempire.balance.plots import PLOTS
from darkempire.balance.report import CSV_COLUMNS, ReportError, check_folder, write_report
from darkempire.cli import main
from darkempire.simulation import player_counts

from balance_games import GAMES

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_report_writes_every_plot_and_a_page_that_embeds_each(tmp_path: Path) -> None:
    figs = [figures(3, ["greedy"] * 3, GAMES)]
    written = write_report(tmp_path / "report", figs, seed=9)
    folder = tmp_path / "report"
    page = (folder / "index.md").read_text(encoding="utf-8")
    embedded = re.findall(r"!\[[^]]*\]\(([^)]+)\)", page)
    assert embedded == [f"{stem}.png" for stem, _caption, _draw in PLOTS]
    for name in embedded:
        assert (folder / name).read_bytes().startswith(PNG)
    assert set(written) == {folder / n for n in [*embedded, "index.md", "games.csv"]}
    # The figures of the hand-built games are on the page: 1 emperor victory in 4 games is 25.0%.
    assert "| emperor victory | 25.0% (4.6-69.9) |" in page
    assert "| rule fires | 25.0% (4.6-69.9) |" in page
    assert "Seed 9; 3 players: 4 games" in page
    rows = list(csv.DictReader((folder / "games.csv").open(encoding="utf-8")))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [int(r["seed"]) for r in rows] == [g.seed for g in GAMES]
    assert rows[2]["too_powerful"] == "SUFFRAGETTES" and rows[0]["too_powerful"] == ""
    assert rows[3]["outcome"] == "shared win" and rows[3]["winners"] == "1;2"
    assert rows[3]["tokens"] == "7;10;6" and rows[3]["total_WORKERS"] == "30"


def test_a_folder_that_cannot_be_made_is_refused_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(ReportError, match="a-file"):
        check_folder(blocker / "report")
    with pytest.raises(ReportError, match="a-file"):
        check_folder(blocker)


@pytest.mark.parametrize(("text", "counts"), [("4", (4,)), ("5,3", (3, 5)), ("3,3", (3,)), ("all", (3, 4, 5))])
def test_player_counts_parse_one_several_or_all(text: str, counts: tuple[int, ...]) -> None:
    assert player_counts(text) == counts


def test_the_command_writes_a_report_for_several_player_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "new" / "report"
    argv = ["simulate", "--players", "3,4", "--games", "3", "--seed", "2", "--bots", "greedy", "--report", str(folder)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "3 players, 3 games, bots greedy,greedy,greedy" in out
    assert f"Report written to {folder / 'index.md'}" in out
    rows = list(csv.DictReader((folder / "games.csv").open(encoding="utf-8")))
    assert [r["players"] for r in rows] == ["3"] * 3 + ["4"] * 3
    page = (folder / "index.md").read_text(encoding="utf-8")
    assert "| outcome | 3 players | 4 players |" in page
    assert main(["simulate", "--players", "3", "--games", "2", "--bots", "random", "--report", str(folder)]) == 0
    assert "bots random,random,random" in (folder / "index.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "6"], "3 to 5 players, not 6"),
        (["--players", "x"], "'x' is not a player count"),
        (["--players", "3,7", "--report", "r"], "not 7"),
        (["--players", "3,4"], "several player counts need --report"),
        (["--players", "3,4", "--bots", "greedy,random,greedy", "--report", "r"], "one kind for every seat"),
        (["--report", "r", "--json"], "without --json"),
    ],
)
def test_the_command_refuses_bad_player_counts_and_combinations(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--games", "2", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "r").exists()  # refused before a folder was made or a game played


def test_the_command_refuses_a_report_folder_it_cannot_write_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["simulate", "--players", "3", "--games", "100000", "--report", str(blocker / "r")]) == 1
    captured = capsys.readouterr()
    assert "cannot create the report folder" in captured.err and "a-file" in captured.err
    assert "games" not in captured.out  # no game was played: 100000 would have taken minutes


def test_the_command_says_how_to_get_matplotlib_when_it_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("darkempire.cli.app.has_matplotlib", lambda: False)
    assert main(["simulate", "--games", "2", "--report", str(tmp_path / "r")]) == 2
    assert "pip install 'darkempire[plot]'" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_the_balance_page_quotes_the_committed_reports_tables_as_they_are() -> None:
    """docs/balance.md shows the default run's tables; each of their rows is a row of the committed report
    (docs/_static/balance/index.md), so a renamed row or a figure copied wrong shows here."""
    docs = Path(__file__).resolve().parents[1] / "docs"
    page = (docs / "balance.md").read_text(encoding="utf-8")
    section = page[page.index("## The report of the default run") :].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    report = set((docs / "_static" / "balance" / "index.md").read_text(encoding="utf-8").splitlines())
    assert len(rows) >= 15 and [row for row in rows if row not in report] == []
