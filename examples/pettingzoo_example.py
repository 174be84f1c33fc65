"""Play random games of a ladytiger game through its PettingZoo AEC environment.

Run: python examples/pettingzoo_example.py [game] [games]
"""

import sys

from ladytiger.rl.pettingzoo import env


def main(game: str = "doors", games: int = 3) -> None:
    environment = env(game)
    for episode in range(games):
        environment.reset(seed=episode)
        totals = dict.fromkeys(environment.possible_agents, 0.0)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            totals[agent] += reward
            if terminated or truncated:
                environment.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            environment.step(int(environment.np_random.choice(legal)))
        print(f"episode {episode}: rewards {totals}")
    environment.close()


if __name__ == "__main__":
    main(*(sys.argv[1:2] or ["doors"]), *(int(a) for a in sys.argv[2:3]))
