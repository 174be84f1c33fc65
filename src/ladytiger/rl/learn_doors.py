"""A learning example: OpenSpiel's tabular Q-learning plays Doors (one gem wins) against
our heuristic bot, and gets better at it.

    python -m ladytiger.rl.learn_doors --episodes 20000 --plot doors_curve.png

Seat 0 learns from its observation tensor (`rl_environment` with observations), with
+1 / -1 returns (`zero_sum=True`); seat 1 is `SpielBot("heuristic", ...)`. Every
`--every` training episodes the greedy policy plays `--eval-games` games against the same
opponent; the curve of win rates is printed and, with `--plot`, drawn to a PNG.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import tabular_qlearner

from ladytiger.rl.openspiel import SpielBot

GAME = "ladytiger_doors(gems_to_win=1,zero_sum=True)"


def play(
    environment: rl_environment.Environment,
    learner: tabular_qlearner.QLearner,
    opponent: SpielBot,
    learn: bool,
) -> float:
    """One episode; the learner's return (+1 win, -1 loss, 0 draw)."""
    time_step = environment.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        if player == 0:
            action = learner.step(time_step, is_evaluation=not learn).action
        else:
            action = opponent.step(environment.get_state)
        time_step = environment.step([action])
    if learn:
        learner.step(time_step)  # the final update with the return
    return float(time_step.rewards[0])


def train(
    episodes: int, every: int, eval_games: int, seed: int = 0
) -> list[tuple[int, float]]:
    """The learning curve: (episodes trained, greedy win rate against the heuristic)."""
    game = pyspiel.load_game(GAME)
    environment = rl_environment.Environment(
        game, observation_type=rl_environment.ObservationType.OBSERVATION, seed=seed
    )
    learner = tabular_qlearner.QLearner(
        player_id=0,
        num_actions=game.num_distinct_actions(),
        step_size=0.1,
        epsilon_schedule=rl_environment_schedule(episodes),
        discount_factor=1.0,
    )
    opponent = SpielBot("heuristic", game, player_id=1, seed=seed)

    def win_rate() -> float:
        results = [play(environment, learner, opponent, learn=False) for _ in range(eval_games)]
        return sum(r > 0 for r in results) / eval_games

    curve = [(0, win_rate())]
    print(f"episodes {0:>7}: greedy win rate {curve[-1][1]:.3f}", flush=True)
    for episode in range(1, episodes + 1):
        play(environment, learner, opponent, learn=True)
        if episode % every == 0:
            curve.append((episode, win_rate()))
            print(f"episodes {episode:>7}: greedy win rate {curve[-1][1]:.3f}", flush=True)
    return curve


def rl_environment_schedule(episodes: int) -> object:
    from open_spiel.python.rl_tools import LinearSchedule

    # Exploration falls from 0.3 to 0.02 over the first half of the learner's own steps
    # (about five per episode), then stays.
    return LinearSchedule(0.3, 0.02, max(1, episodes * 5 // 2))


def plot(curve: list[tuple[int, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.plot([e for e, _ in curve], [w for _, w in curve], marker="o")
    axes.set_xlabel("training episodes")
    axes.set_ylabel("win rate against heuristic")
    axes.set_title("Q-learning on Doors (gems_to_win=1)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> list[tuple[int, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=2_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args(argv)
    np.random.seed(args.seed)  # the Q-learner explores with numpy's global generator
    curve = train(args.episodes, args.every, args.eval_games, args.seed)
    if args.plot is not None:
        plot(curve, args.plot)
        print(f"curve written to {args.plot}")
    return curve


if __name__ == "__main__":
    main()
