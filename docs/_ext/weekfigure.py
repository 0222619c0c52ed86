"""Sphinx extension: draw the rulebook's weekly-scoring example as an SVG at build time.

The figure is not a pasted image: :func:`sample_week_table` builds the table with
:class:`darkempire.rules.table.WeekTable`, :func:`darkempire.rules.scoring.score_table` scores it, and
:func:`render_svg` draws whatever the scoring says, so the figure changes if the engine's scoring does.
The SVG is written to ``docs/_generated/sample-week.svg`` when the builder starts, and the pages show it
with an ordinary ``figure`` directive.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from darkempire.rules.actions import Side
from darkempire.rules.cards import EMPEROR_CARDS, HAND_CARDS, REINFORCEMENT_CARDS, AddOnCard, Faction, HandCard, Theme
from darkempire.rules.cards import REVOLUTION_CARDS, faction_name
from darkempire.rules.scoring import WeekScore, score_table
from darkempire.rules.table import Play, Reinforcement, WeekTable

#: Where the figure is written, relative to the documentation's source folder.
FIGURE = Path("_generated") / "sample-week.svg"

# The rulebook names two colours (Calendrical Order green, Students blue); the others only tell factions apart.
COLOURS: dict[Faction, str] = {
    Faction.WORKERS: "#b5473a",
    Faction.CALENDRICAL_ORDER: "#3d8b4f",
    Faction.SUFFRAGETTES: "#8a4f9e",
    Faction.MECHANDROS: "#a87932",
    Faction.STUDENTS: "#3a6fb5",
}
EMPEROR_COLOUR = "#5a5a5a"
REINFORCEMENT_COLOUR = "#d9a400"


def _card(faction: Faction, value: int, nth: int = 0) -> HandCard:
    """The ``nth`` card of ``faction`` with printed ``value`` (each value is printed on 2 or 3 cards)."""
    matches = [c for c in HAND_CARDS if c.faction is faction and c.value == value]
    return matches[nth]


def sample_week_table() -> WeekTable:
    """The table of the rulebook's "Example of weekly scoring", completed to three plays per seat.

    Four seats, so the "5 +" add-on lies under the emperor card "10". Seat 0 (the player in the
    foreground) plays a Calendrical Order 8 and reinforces it to 11; seat 3 (the player on the right)
    plays a Calendrical Order 6 as a traitor card. The rulebook gives: emperor 5 + 10 + 6 = 21,
    Calendrical Order 11 + 8 + 3 + 9 - 6 = 25, Students 7 + 8 = 15. The third-step cards of the other
    factions are ours; the rulebook only says those factions "don't have to be taken into consideration".
    """
    co = Faction.CALENDRICAL_ORDER
    plus = iter(REINFORCEMENT_CARDS)
    co_8_seat0 = _card(co, 8, 0)
    co_6_seat2 = _card(co, 6, 0)
    plays = [
        Play(0, co_8_seat0, Side.REVOLUTION, 1, (Reinforcement(next(plus), 0, 2),)),
        Play(1, _card(co, 8, 1), Side.REVOLUTION, 1),
        Play(2, co_6_seat2, Side.REVOLUTION, 1, (Reinforcement(next(plus), 2, 2),)),
        Play(3, _card(co, 6, 1), Side.EMPEROR, 1),
        Play(1, _card(Faction.STUDENTS, 7), Side.REVOLUTION, 2),
        Play(3, _card(Faction.WORKERS, 5), Side.REVOLUTION, 2),
        Play(0, _card(Faction.MECHANDROS, 4), Side.REVOLUTION, 3),
        Play(1, _card(Faction.SUFFRAGETTES, 5), Side.REVOLUTION, 3),
        Play(2, _card(Faction.STUDENTS, 8), Side.REVOLUTION, 3),
        Play(3, _card(Faction.WORKERS, 4), Side.REVOLUTION, 3),
    ]
    return WeekTable(
        players=4,
        revolution_card=REVOLUTION_CARDS[co],
        emperor_card=next(e for e in EMPEROR_CARDS if e.value == 10),
        add_on=AddOnCard.FIVE_PLUS,
        plays=tuple(plays),
        steps_revealed=3,
    )


class _Svg:
    """A minimal SVG writer: enough rectangles, lines and text for one figure."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **extra: Any) -> None:
        attributes = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
        self.parts.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}"{attributes}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, **extra: Any) -> None:
        attributes = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
        self.parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}"{attributes}/>')

    def text(self, x: float, y: float, content: str, size: int = 13, fill: str = "#222", **extra: Any) -> None:
        attributes = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}"{attributes}>{escape(content)}</text>'
        )

    def render(self, title: str) -> str:
        body = "\n".join(self.parts)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="sans-serif" role="img">\n'
            f"<title>{escape(title)}</title>\n"
            f'<rect width="{self.width}" height="{self.height}" fill="#fbf8f1"/>\n{body}\n</svg>\n'
        )


CARD_W = 46
CARD_H = 58


def _draw_card(svg: _Svg, x: float, y: float, play: Play) -> None:
    colour = COLOURS[play.faction]
    svg.rect(x, y, CARD_W, CARD_H, colour, rx=5, stroke="#222" if play.is_traitor else "none", stroke_width=2)
    if play.reinforcements:
        svg.text(x + CARD_W / 2, y + CARD_H + 12, f"= {play.strength}", size=11, fill="#555", text_anchor="middle")
    svg.text(x + CARD_W / 2, y + 36, str(play.card.value), size=20, fill="#fff", text_anchor="middle")
    svg.text(x + 4, y + 12, f"#{play.card.id}", size=9, fill="#fff")
    for k, _reinforcement in enumerate(play.reinforcements):
        svg.rect(x + CARD_W - 14, y - 8 + 14 * k, 22, 14, REINFORCEMENT_COLOUR, rx=3)
        svg.text(x + CARD_W - 3, y + 3 + 14 * k, "+3", size=10, fill="#222", text_anchor="middle")


def render_svg(table: WeekTable, score: WeekScore, theme: Theme = Theme.STEAM_NOIR) -> str:
    """Draw ``table`` and its weekly scoring: each seat's cards, the emperor's side and the strengths.

    :param table: the week's table (any number of seats, 3-5).
    :param score: ``score_table(table)``.
    :param theme: whose faction names to print.
    :returns: a standalone SVG document.
    """
    left, seat_h = 20, 78
    table_top = 64
    bars_top = table_top + seat_h * table.players + 40
    bar_h, bar_gap = 22, 8
    height = bars_top + 30 + (bar_h + bar_gap) * len(Faction) + 40
    svg = _Svg(840, height)
    svg.text(left, 26, "A week's table after the third play step, and its weekly scoring", size=16, font_weight="bold")
    svg.text(left, 46, "revolution side", size=12, fill="#555")
    svg.text(600, 46, "emperor side (traitor cards outlined)", size=12, fill="#555")

    # Revolution side: one row per seat, cards in play order.
    for seat in range(table.players):
        y = table_top + seat_h * seat
        svg.text(left, y + 34, f"seat {seat}", size=13)
        revolution = [p for p in table.plays if p.seat == seat and p.side is Side.REVOLUTION]
        for k, play in enumerate(revolution):
            _draw_card(svg, left + 60 + k * (CARD_W + 18), y + 6, play)
        awards = [a for a in score.awards if a.seat == seat]
        for k, award in enumerate(awards):
            svg.text(left + 60 + 3 * (CARD_W + 18) + 4, y + 24 + 16 * k,
                     f"+{award.points} token{'s' if award.points > 1 else ''}: {award.reason.value}", size=12,
                     fill="#7a5a00")
    revolution_x, revolution_y = 470, table_top
    revolution_colour = COLOURS[table.revolution_card.faction]
    svg.rect(revolution_x, revolution_y + 6, CARD_W, CARD_H, revolution_colour, rx=5, opacity="0.55")
    svg.text(revolution_x + CARD_W / 2, revolution_y + 40, str(table.revolution_card.value), size=20, fill="#fff",
             text_anchor="middle")
    svg.text(revolution_x + CARD_W / 2, revolution_y + CARD_H + 20, "revolution card", size=11, fill="#555",
             text_anchor="middle")
    svg.text(revolution_x + CARD_W / 2, revolution_y + CARD_H + 33, faction_name(table.revolution_card.faction, theme),
             size=11, fill="#555", text_anchor="middle")

    # Emperor side: the emperor card, the add-on under it, then the traitor cards.
    ex = 600
    if table.emperor_card is not None:
        if table.add_on is not None:
            svg.rect(ex + 8, table_top + 20, CARD_W, CARD_H, "#9a9a9a", rx=5)
            svg.text(ex + 8 + CARD_W / 2, table_top + 20 + CARD_H - 6, f"{int(table.add_on)} +", size=11,
                     fill="#fff", text_anchor="middle")
        svg.rect(ex, table_top + 6, CARD_W, CARD_H - 10, EMPEROR_COLOUR, rx=5)
        svg.text(ex + CARD_W / 2, table_top + 36, str(table.emperor_card.value), size=20, fill="#fff",
                 text_anchor="middle")
        for k, play in enumerate(table.traitor_plays()):
            _draw_card(svg, ex + 70 + k * (CARD_W + 14), table_top + 6, play)
            svg.text(ex + 70 + k * (CARD_W + 14) + CARD_W / 2, table_top + CARD_H + 20, f"seat {play.seat}",
                     size=11, fill="#555", text_anchor="middle")
        svg.text(ex, table_top + CARD_H + 50, f"emperor strength: {score.emperor_strength}", size=13,
                 font_weight="bold")
    else:
        svg.text(ex, table_top + 36, "no emperor card this week", size=13)

    # Strengths: one bar per faction, the emperor as a dashed line.
    svg.text(left, bars_top, "Faction strengths (points)", size=14, font_weight="bold")
    lowest = min(0, *score.strengths)
    highest = max(max(score.strengths), score.emperor_strength or 0, 1)
    x0, scale = 190.0, 420.0 / (highest - lowest)
    zero = x0 - lowest * scale
    for faction in Faction:
        y = bars_top + 16 + (bar_h + bar_gap) * faction
        strength = score.strength(faction)
        svg.text(left, y + 16, faction_name(faction, theme), size=13)
        start = min(zero, zero + strength * scale)
        svg.rect(start, y, abs(strength) * scale, bar_h, COLOURS[faction], rx=3)
        star = "  strongest" if faction in score.strongest else ""
        svg.text(max(zero, zero + strength * scale) + 6, y + 16, f"{strength}{star}", size=13,
                 font_weight="bold" if star else "normal")
    bottom = bars_top + 16 + (bar_h + bar_gap) * len(Faction)
    svg.line(zero, bars_top + 10, zero, bottom, "#222")
    if score.emperor_strength is not None:
        ex_line = zero + score.emperor_strength * scale
        svg.line(ex_line, bars_top + 10, ex_line, bottom, EMPEROR_COLOUR, stroke_dasharray="5,4", stroke_width=2)
        svg.text(ex_line + 4, bottom + 14, f"emperor {score.emperor_strength}", size=12, fill=EMPEROR_COLOUR)
    placements = "; ".join(
        f"seat {d.seat} places "
        + " or ".join(f"its {faction_name(d.faction, theme)} {c.value} (#{c.id})" for c in d.candidates)
        + " to the score track, without reinforcements"
        for d in score.placements
    )
    verdict = "the emperor card is scored" if score.emperor_scored else placements or "no card is placed"
    svg.text(left, height - 14, f"Result: {verdict}.", size=13)
    return svg.render("Sample week: table and strengths")


def write_figure(srcdir: Path) -> Path:
    """Score :func:`sample_week_table` and write the SVG under ``srcdir``; return its path."""
    table = sample_week_table()
    path = srcdir / FIGURE
    path.parent.mkdir(parents=True, exist_ok=True)
    svg = render_svg(table, score_table(table))
    # Rewriting an unchanged file would make Sphinx rebuild the pages that show it.
    if not path.exists() or path.read_text(encoding="utf-8") != svg:
        path.write_text(svg, encoding="utf-8")
    return path


def _on_builder_inited(app: Any) -> None:
    write_figure(Path(app.srcdir))


def setup(app: Any) -> dict[str, Any]:
    """Register the figure writer with Sphinx."""
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
