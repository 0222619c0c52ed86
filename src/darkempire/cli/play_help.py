"""The help screen of ``darkempire play``: the rules that matter at the question being asked (spec 9.4).

Typing ``?`` (or ``h``, ``help``) at any question of ``darkempire play`` prints :func:`help_lines` for the
seat's current :class:`~darkempire.rules.views.PlayerView`: what the victor card is for and how the game is
won, then the rules of the phase being played (the draft, the temporary support card, the play steps with
traitor cards, reinforcement cards and the add-on card, the placement, the re-organize), each with its rule
number in ``spec/darkempire/rules.md``, then the sizes of every hand and of the piles, and the answers the
game understands.

>>> from darkempire.rules.engine import deal
>>> from darkempire.rules.state import GameConfig
>>> from darkempire.rules.views import player_view
>>> from darkempire.rules.cards import Theme
>>> lines = help_lines(player_view(deal(GameConfig(players=4), 1), 0), Theme.STEAM_NOIR)
>>> any("(rule 2.5)" in line for line in lines)
True
"""

from __future__ import annotations

from darkempire.rules.cards import Faction, Theme, faction_name
from darkempire.rules.state import Phase
from darkempire.rules.views import PlayerView
from darkempire.text import seat_name

__all__ = ["COMMANDS_LINE", "help_lines", "piles_line"]

#: The answers every question understands besides its numbers.
COMMANDS_LINE = "Answer with the numbers asked for; ? for help, s to save the game, q to leave."

_WINNING = (
    "the secret faction you want to win with (rules 1.5, 2.3). At the end its total is its "
    "cards' printed values on the score track plus your banked tokens (rule 8.1). If some faction ends ahead of "
    "the emperor, the revolution wins: the held faction with the highest total wins (rule 8.3), unless one "
    "faction alone leads by 15 points or more; it is too powerful and the next one wins (rule 8.4). If the "
    "emperor's total reaches the strongest faction's, the emperor wins and the held faction with the lowest "
    "total wins (rule 8.2)."
)

_SUPPORT = (
    "Temporary support card (rule 3.2): your secret bet on the faction that will be strongest at this month's "
    "monthly scoring; your own victor faction or any other. There, the tokens you won this month are added to "
    "that faction's month total (rule 7.1), and the seats whose support card names a strongest faction of the "
    "month share 6 points: 6 for one seat, 3 each for two, 2 each for three, 1 each for four or five (rule "
    "7.2). A support card once used is revealed, then removed from the game (rules 3.2, 7.3): each faction "
    "can be your support only once per game, so it is gone from your choices in later months."
)

_PLAYS = (
    "Play step {step} of 3 (rule 4.2): every seat chooses one card at the same time and all are revealed "
    "together; you must play if you can.",
    "Revolution side (rule 4.3): the card adds its value to its faction's strength (rule 5.1) and to your "
    "support for that faction (rule 5.3).",
    "Traitor card (rules 4.3, 4.4): a faction card played to the emperor side lowers its faction's strength by "
    "its value and raises the emperor's strength by the same (rules 5.1, 5.2); it gives you no support. One "
    "traitor play per seat per week, and none in a week without an emperor card (rule 4.5).",
    'Reinforcement card "+3" (rule 4.6): attach it to a faction card revealed at an earlier step of this '
    "week, yours or another seat's (so never at step 1); the card is worth 3 more, for its owner. Attaching it "
    "to a traitor card is your traitor play of the week (rule 4.4).",
    "Weekly scoring (rules 5.4-5.7): for the strongest faction, the seat with the most support gets 2 tokens "
    "and the seat with its single highest card 1. If that faction is at least as strong as the emperor, the "
    "seat with the most support places one of its cards of it on the score track (rule 5.5); if the emperor "
    "is at least as strong, the emperor card is placed (rule 5.7).",
)


def _add_on_line(view: PlayerView) -> str:
    """What the add-on card of this game does (rules 1.3, 2.2, 4.1, ruling F)."""
    if view.add_on is None:
        return "No add-on card with 3 players (rule 2.2): the emperor's strength is its card plus traitor cards."
    points = int(view.add_on)
    return (
        f'The add-on "{points} +" (rules 1.3, 2.2): with {view.players} players it lies under the emperor card '
        f"and adds {points} to the emperor's strength in every week with an emperor card (rules 4.1, 5.2); it "
        "is never scored on the score track (ruling F)."
    )


def _draft_lines(view: PlayerView) -> list[str]:
    seat = view.seat if view.seat is not None else 0
    left, right = (seat + 1) % view.players, (seat - 1) % view.players
    return [
        f"Draft pass (rule 2.5): choose 2 of your 9 cards; they go face down to seat {left}, your left "
        f"neighbour, and you receive the 2 cards seat {right} passes.",
        "Draft discard (rule 2.6): then discard 2 of the 9 you hold, received cards included, and keep 7. Keep "
        "cards of your victor faction and of the faction you mean to support this month (rule 3.2).",
    ]


def _phase_lines(view: PlayerView, theme: Theme) -> list[str]:
    """The rules of the phase ``view`` is in."""
    phase = view.phase
    if phase in (Phase.DRAFT_PASS, Phase.DRAFT_DISCARD):
        return _draft_lines(view)
    if phase is Phase.CHOOSE_SUPPORT:
        lines = [_SUPPORT]
        used = view.support_used[view.seat] if view.seat is not None else frozenset()
        if used:
            names = ", ".join(faction_name(f, theme) for f in Faction if f in used)
            lines.append(f"Your support cards used in earlier months, gone from your choices: {names}.")
        return lines
    if phase in (Phase.PLAY_1, Phase.PLAY_2, Phase.PLAY_3):
        first, *rest = _PLAYS
        return [first.format(step=phase.step), *rest, _add_on_line(view)]
    if phase is Phase.PLACEMENT:
        return [
            "Placement (rules 5.5, 5.6): you supported a strongest faction most, so you place one of your "
            "revolution-side cards of it on the score track. It scores its printed value (reinforcements do "
            "not count) for this month's monthly scoring and for the final scoring."
        ]
    if phase is Phase.REORGANIZE:
        return [
            "Re-organize (rules 6.1-6.4): traitor and reinforcement cards are discarded (rule 6.1); you may take "
            "one of your revolution-side cards back into your hand (rule 6.2) and discard any of your hand "
            "cards, not the one taken back (rule 6.3); then everyone draws up to 7 cards (rule 6.4)."
        ]
    return []


def piles_line(view: PlayerView) -> str:
    """Every seat's hand size, the draw pile and the discard pile (all public, spec 9.4)."""
    you = view.seat
    hands = ", ".join(f"{seat_name(s, you)} {n}" for s, n in enumerate(view.hand_sizes))
    return f"Hand sizes: {hands}; draw pile {view.draw_pile_size} cards, discard pile {view.discard_pile_size}"


def help_lines(view: PlayerView, theme: Theme) -> list[str]:
    """The help screen for the question asked in ``view``: rich markup lines (see :mod:`darkempire.text`)."""
    victor = faction_name(view.victor, theme) if view.victor is not None else "?"
    return [
        f"[bold]Help[/bold] ({view.phase.value}; rule numbers are those of spec/darkempire/rules.md)",
        f"Your victor card is {victor}: {_WINNING}",
        *_phase_lines(view, theme),
        "Tokens (rule 1.6): won in the weekly scoring, they count for your support faction's month total, "
        "then are banked on your victor card at the monthly scoring (rule 7.3).",
        piles_line(view),
        COMMANDS_LINE,
        "s saves the game to a file; darkempire play --resume FILE continues it. Like a game record, that file "
        "holds the game's seed and every choice: reading it reveals every hand and victor card.",
    ]
