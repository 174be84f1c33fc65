"""Load a ladytiger game in OpenSpiel, play random games, and pit OpenSpiel's IS-MCTS
against random play in Doors.

Run: python examples/openspiel_example.py [games]
"""

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ladytiger.rl.openspiel  # noqa: F401  (registers the ladytiger_* games)


def random_game(game, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            index = rng.choice(len(outcomes), p=[p for _, p in outcomes])
            state.apply_action(outcomes[index][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def main(games: int = 4) -> None:
    rng = np.random.RandomState(0)
    game = pyspiel.load_game("ladytiger_doors(gems_to_win=5)")
    print(game)
    for _ in range(games):
        print("random game returns:", random_game(game, rng).returns())

    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                           max_simulations=30, random_state=rng)
    wins = 0.0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                index = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                state.apply_action(outcomes[index][0])
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[0]
    print(f"OpenSpiel IS-MCTS (30 simulations) as seat 0 vs random: {wins}/{games} won")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
