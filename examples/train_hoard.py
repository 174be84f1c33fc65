"""Train a small agent on Hoard (Gymnasium) that beats random play.

The agent is a linear policy over the observation tensor: each legal action gets the score
W[action] . observation, and the agent plays the best one. The weights are found with the
cross-entropy method (sample weights around a mean, keep the best fifth, refit), judged by
the "treasure" reward (0.1 per Treasure, +1 for a win). Then the agent and a uniformly random
player are compared on the same fresh deals.

Run: python examples/train_hoard.py [generations]
"""

from __future__ import annotations

import sys

import gymnasium
import numpy as np

import ladytiger.rl.gymnasium  # noqa: F401  (registers ladytiger/Hoard-v0)


def play(env: gymnasium.Env, weights: np.ndarray | None, seed: int, rng: np.random.Generator
         ) -> float:
    observation, _ = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        legal = observation["action_mask"].nonzero()[0]
        if weights is None:
            action = int(rng.choice(legal))
        else:
            scores = weights[legal] @ observation["observation"]
            action = int(legal[np.argmax(scores)])
        observation, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
    return total


def train(generations: int = 12, population: int = 24, episodes: int = 3,
          seed: int = 0) -> tuple[np.ndarray, float, float]:
    env = gymnasium.make("ladytiger/Hoard-v0", difficulty="easy", reward="treasure")
    rng = np.random.default_rng(seed)
    actions = env.action_space.n
    size = env.observation_space["observation"].shape[0]
    mean = np.zeros((actions, size))
    spread = np.ones((actions, size))
    for generation in range(generations):
        candidates = mean + spread * rng.standard_normal((population, actions, size))
        seeds = rng.integers(0, 2**31, episodes)
        fitness = np.array([
            np.mean([play(env, weights, int(s), rng) for s in seeds]) for weights in candidates
        ])
        elite = candidates[np.argsort(fitness)[-population // 5:]]
        mean, spread = elite.mean(axis=0), elite.std(axis=0) + 0.05
        print(f"generation {generation + 1}: best {fitness.max():.2f}, "
              f"mean {fitness.mean():.2f}")
    test_seeds = range(10_000, 10_040)
    agent = float(np.mean([play(env, mean, s, rng) for s in test_seeds]))
    random_play = float(np.mean([play(env, None, s, rng) for s in test_seeds]))
    return mean, agent, random_play


def main(generations: int = 12) -> None:
    _, agent, random_play = train(generations)
    print(f"on 40 fresh deals: trained agent {agent:.3f}, random play {random_play:.3f} "
          "(mean treasure reward)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
