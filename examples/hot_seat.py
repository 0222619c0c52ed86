"""Hot-seat Dark Empire at one terminal, with a server and clients that talk JSON as over a network.

The :class:`Server` owns the game state. A client never touches it: for each turn it gets JSON text only,
the ``"event"`` messages of what happened since its last turn (filtered for its seat, so no other hand
shows) and a ``"prompt"`` message (its seat's view and legal actions), and it answers with one
``"action"`` message. The server checks every action it receives as untrusted input and answers with a
small JSON reply: ``{"ok": true}``, or the error kind, the path of the bad value and the message. Replace
the function calls in :func:`play` with a socket and nothing else changes.

Run::

    python examples/hot_seat.py [--players N] [--seed S]   # people take turns at the terminal
    python examples/hot_seat.py --auto                      # greedy bots play every seat, through JSON
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from darkempire.rules.actions import Action, DiscardCards, PassCards, Reorganize
from darkempire.bots import GreedyBot
from darkempire.rules.cards import HandCard, Theme
from darkempire.rules.engine import awaited_seats
from darkempire.rules.errors import IllegalActionError
from darkempire.rules.events import Event, events_for, opening_events
from darkempire.history import History
from darkempire.text import action_text, event_lines, view_lines
from darkempire.serialization import Prompt, SerializationError, load_action, load_event, load_prompt, make_prompt
from darkempire.serialization import to_json
from darkempire.rules.state import GameConfig, Phase

# --------------------------------------------------------------------------- the server side


class Server:
    """Holds the game; speaks JSON text only."""

    def __init__(self, players: int, seed: int) -> None:
        self.history = History.start(GameConfig(players=players), seed)
        self.log: list[Event] = list(opening_events(self.history.current))
        self.seen = [0] * players  # how much of the log each seat has been sent
        self.messages = 0

    @property
    def over(self) -> bool:
        return self.history.current.is_over

    def awaited(self) -> list[int]:
        return sorted(awaited_seats(self.history.current))

    def news(self, seat: int | None) -> list[str]:
        """``"event"`` messages for ``seat`` (``None``: a spectator) since it was last sent news."""
        start = self.seen[seat] if seat is not None else 0
        if seat is not None:
            self.seen[seat] = len(self.log)
        messages = [to_json(event) for event in events_for(self.log[start:], seat)]
        self.messages += len(messages)
        return messages

    def prompt(self, seat: int) -> str:
        """The ``"prompt"`` message of an awaited seat."""
        self.messages += 1
        return to_json(make_prompt(self.history.current, seat))

    def submit(self, seat: int, text: str | bytes) -> str:
        """Take ``seat``'s ``"action"`` message; reply ``{"ok": true}`` or say what is wrong with it."""
        self.messages += 2
        try:
            action = load_action(text, hand=self.history.current.hands[seat])
            history = self.history.apply(seat, action)
        except SerializationError as error:
            return json.dumps(
                {"ok": False, "error": type(error).__name__, "path": error.path, "message": error.message}
            )
        except IllegalActionError as error:
            return json.dumps(
                {"ok": False, "error": type(error).__name__, "rule": error.rule, "message": error.message}
            )
        self.log += history.events(len(self.history.choices))
        self.history = history
        return json.dumps({"ok": True})


# --------------------------------------------------------------------------- the client side

Chooser = Callable[[int, list[Event], Prompt], Action]


def client_turn(seat: int, news: Sequence[str], prompt: str, choose: Chooser) -> str:
    """A client's whole turn: JSON messages in, one JSON action out."""
    return to_json(choose(seat, [load_event(text) for text in news], load_prompt(prompt)))


def bot_chooser(players: int, seed: int) -> Chooser:
    """Greedy bots seeded like ``darkempire demo`` (seat ``s``: ``10 * seed + s``), fed only what they receive."""
    bots = [GreedyBot(10 * seed + s) for s in range(players)]
    return lambda seat, news, prompt: bots[seat].choose(prompt.view, prompt.legal_actions)


def human_chooser(read: Callable[[str], str], write: Callable[[str], None], theme: Theme) -> Chooser:
    """Ask the person at the terminal, showing only what the prompt and the news contain."""

    def numbers(question: str, hand: Sequence[HandCard], count: int | None) -> list[HandCard]:
        while True:
            words = read(f"{question} > ").replace(",", " ").split()
            if (
                all(w.isdigit() and 1 <= int(w) <= len(hand) for w in words)
                and len(set(words)) == len(words)
                and (count is None or len(words) == count)
            ):
                return [hand[int(w) - 1] for w in words]
            write("  please give " + (f"{count} different" if count else "different") + " card numbers from your hand")

    def choose(seat: int, news: list[Event], prompt: Prompt) -> Action:
        view, legal = prompt.view, prompt.legal_actions
        for event in news:
            for line in event_lines(event, theme, seat):
                write("  | " + line)
        for line in view_lines(view, theme):
            if not line.startswith("Your hand"):  # numbered below
                write(line)
        write("Hand: " + "  ".join(f"{i}) {card.label(theme)}" for i, card in enumerate(view.hand, 1)))
        if view.phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
            passing = view.phase is Phase.DRAFT_PASS
            cards = numbers("Two cards to " + ("pass" if passing else "discard"), view.hand, 2)
            return PassCards(cards) if passing else DiscardCards(cards)
        if view.phase is Phase.REORGANIZE:
            backs = sorted(
                {a.take_back for a in legal if isinstance(a, Reorganize) and a.take_back is not None},
                key=lambda c: c.id,
            )
            back = None
            if backs:
                write("Take back: 0) nothing  " + "  ".join(f"{i}) {c.label(theme)}" for i, c in enumerate(backs, 1)))
                while (answer := read("Take back > ").strip()) not in [str(i) for i in range(len(backs) + 1)]:
                    write(f"  please answer 0 to {len(backs)}")
                back = backs[int(answer) - 1] if answer != "0" else None
            return Reorganize(back, numbers("Hand cards to discard (empty for none)", view.hand, None))
        for index, action in enumerate(legal, 1):
            write(f"  {index}) {action_text(action, theme)}")
        while True:
            answer = read("Your choice > ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            write(f"  please answer 1 to {len(legal)}")

    return choose


# --------------------------------------------------------------------------- one terminal, many seats


def play(server: Server, choose: Chooser, *, hand_over: Callable[[int], None], write: Callable[[str], None]) -> None:
    """Run the game: each awaited seat in turn gets its news and prompt and sends its action."""
    while not server.over:
        for seat in server.awaited():
            hand_over(seat)
            news = server.news(seat)
            while True:
                reply = json.loads(server.submit(seat, client_turn(seat, news, server.prompt(seat), choose)))
                if reply["ok"]:
                    break
                write(f"  the server refused: {reply['error']} at {reply.get('path', '')}: {reply['message']}")
                news = []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(3, 4, 5), default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--auto", action="store_true", help="bots play every seat (no input needed)")
    args = parser.parse_args(argv)
    server = Server(args.players, args.seed)
    theme = Theme.STEAM_NOIR

    def write(line: str) -> None:
        print(line)

    def read(question: str) -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        print(question + line.rstrip("\n"))
        return line.rstrip("\n")

    def hand_over(seat: int) -> None:
        if not args.auto:
            read(f"\n\n=== Pass the terminal to seat {seat} and press Enter ===")
            print("\n" * 40)  # scroll the previous seat's hand out of sight

    choose = bot_chooser(args.players, args.seed) if args.auto else human_chooser(read, write, theme)
    try:
        play(server, choose, hand_over=hand_over, write=write)
    except EOFError:
        print("\nend of input: the game is left unfinished")
        return 1
    for text in server.news(None):  # the public log of the end: the last monthly scoring and the verdict
        for line in event_lines(load_event(text), theme):
            if line.startswith(("Month 3", "Game over")):
                print(line)
    verdict = server.history.current.verdict
    assert verdict is not None
    print(f"Verdict: {verdict.reason.value}; winners: {', '.join(f'seat {s}' for s in sorted(verdict.winners))}")
    print(f"{len(server.history.choices)} choices, {server.messages} JSON messages exchanged")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
