"""Minimal embedding: play a whole game through legal_actions / apply, printing what each seat sees.

Run: python examples/minimal_embedding.py [PLAYERS] [SEED]
"""

import random
import sys

from darkempire import GameConfig, Phase, apply, awaited_seats, deal, faction_name, legal_actions
from darkempire.rules.views import player_view


def main(players: int = 4, seed: int = 2026) -> None:
    state = deal(GameConfig(players=players), seed=seed)
    rng = random.Random(seed)  # the seats choose at random; a front end would ask its players here
    while not state.is_over:
        for seat in sorted(awaited_seats(state)):  # every decision is simultaneous: each awaited seat chooses
            state = apply(state, seat, rng.choice(legal_actions(state, seat)))
        if state.phase is Phase.PLAY_1 and state.table is not None and not state.table.plays:
            print(f"month {state.month}, week {state.week}:")
            for seat in state.seats:
                view = player_view(state, seat)  # all that this seat may know
                hand = " ".join(str(card.id) for card in view.hand)
                victor = faction_name(view.victor) if view.victor is not None else "?"
                tokens = view.banked_tokens[seat] + view.month_tokens[seat]
                print(f"  seat {seat}: victor {victor}, tokens {tokens}, hand [{hand}]")
    assert state.verdict is not None
    print(f"verdict: {state.verdict.reason.value}, winners {sorted(state.verdict.winners)}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
