"""How ``darkempire`` prints to a terminal: wrapped at word boundaries to its width, with each card label,
seat name and add-on kept whole on one line, and an indented line's continuations indented under it.

A pipe or a file gets none of this: each line is printed whole, as the program made it, for a script to
read (:func:`darkempire.cli.app.console`). On a terminal, :func:`wrap_for_terminal` switches a console to
wrapping and installs :class:`KeepLabels`, a ``rich`` render hook that wraps each printed line itself: the
spaces inside a label (``Calendrical Order 4 #15``, ``add-on "5 +"``, ``seat 3``) are not places to break
it, and what is shown keeps plain spaces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Console, ConsoleRenderable, RenderHook
from rich.text import Text

from darkempire.rules.cards import Faction, Theme, faction_name

__all__ = ["KeepLabels", "wrap_for_terminal"]

#: Stands for a space that is no place to break a line while a line is wrapped: not whitespace to ``rich``,
#: one cell wide like a space, and never in the game's text (a private-use character).
_JOINER = "\ue000"
#: How much deeper than an indented line its continuations are indented.
_HANGING = 2


def _label_pattern() -> re.Pattern[str]:
    names = sorted({faction_name(f, t) for f in Faction for t in Theme}, key=len, reverse=True)
    faction = "(?:" + "|".join(re.escape(name) for name in names) + ")"
    return re.compile(
        rf"(?:{faction} )?[+-]?\d+ #\d+"  # a hand card: "Workers 4 #2", "+3 #65"
        r'|add-on "[^"]*"'
        r"|emperor card \d+"
        rf"|(?:revolution|victor|support) card {faction}(?: \([+-]\d+\))?"
        rf"|{faction}"
        r"|seat \d+"
    )


class KeepLabels(RenderHook):
    """A render hook that wraps each printed line of text to ``console``'s width itself, never inside a
    label, and indents the continuations of an indented line under it.

    :param console: the terminal's console (its width is read at each line, as the terminal may change).
    """

    def __init__(self, console: Console) -> None:
        self._console = console
        self._labels = _label_pattern()

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        """Each line of text among ``renderables`` as its wrapped lines; anything else as it is."""
        out: list[ConsoleRenderable] = []
        for renderable in renderables:
            if isinstance(renderable, Text) and "\n" not in renderable.plain:
                out += self._wrapped(renderable)
            else:
                out.append(renderable)
        return out

    def _wrapped(self, text: Text) -> list[ConsoleRenderable]:
        plain = text.plain
        indent = len(plain) - len(plain.lstrip(" "))
        body = text[indent:] if indent else text.copy()
        body.end = text.end
        body.plain = self._labels.sub(lambda m: m.group(0).replace(" ", _JOINER), body.plain)
        width = max(self._console.width - indent, 10)
        lines = list(body.wrap(self._console, width, justify="default", overflow="fold"))
        if len(lines) > 1 and indent:  # the continuations are indented deeper, the first line as it was
            lines = [lines[0], *self._wrapped_deeper(lines[1:], width - _HANGING)]
        out: list[ConsoleRenderable] = []
        for number, line in enumerate(lines):
            line.plain = line.plain.replace(_JOINER, " ")
            if number < len(lines) - 1:  # the last keeps a prompt's space before the answer
                line.rstrip()
            line.pad_left(indent + (_HANGING if number and indent else 0))
            line.end = "\n" if number < len(lines) - 1 else text.end
            out.append(line)
        return out

    def _wrapped_deeper(self, lines: Sequence[Text], width: int) -> list[Text]:
        """``lines`` (continuations) wrapped again to the narrower ``width`` of their deeper indent."""
        rest = Text(" ").join(lines)
        return list(rest.wrap(self._console, max(width, 10), justify="default", overflow="fold"))


def wrap_for_terminal(console: Console) -> Console:
    """``console``, wrapping to the terminal's width with :class:`KeepLabels` if it prints to a terminal
    (once: a console already wrapping is left as it is); a pipe's console is left printing whole lines."""
    if console.is_terminal and console.soft_wrap:
        console.soft_wrap = False
        console.push_render_hook(KeepLabels(console))
    return console

