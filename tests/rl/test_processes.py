"""Games and environments cross process boundaries: pickled here, used in a fresh `spawn`
worker (as vector environments and Ray workers do), with the same results."""

from __future__ import annotations

import multiprocessing
import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel")
gymnasium = pytest.importorskip("gymnasium")

import ladytiger.rl.gymnasium  # noqa: E402
import ladytiger.rl.openspiel  # noqa: E402,F401
from ladytiger.rl.pettingzoo import env  # noqa: E402


def play_spiel(game, seed):
    import numpy as np

    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.history(), state.returns()


def play_zoo(environment, seed):
    environment.reset(seed=seed)
    steps = 0
    for _ in environment.agent_iter(max_iter=5000):
        observation, _, terminated, truncated, _ = environment.last()
        action = None if terminated or truncated else int(
            environment.np_random.choice(observation["action_mask"].nonzero()[0]))
        environment.step(action)
        steps += 1
    return environment.unwrapped.state.history(), steps


def play_gym(environment, seed):
    observation, _ = environment.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        legal = observation["action_mask"].nonzero()[0]
        observation, reward, terminated, truncated, _ = environment.step(
            int(environment.unwrapped.np_random.choice(legal)))
        total += reward
        done = terminated or truncated
    return total, environment.unwrapped.state.history()


def run_all(payload):
    spiel_game, zoo_env, gym_env = pickle.loads(payload)
    return play_spiel(spiel_game, 3), play_zoo(zoo_env, 4), play_gym(gym_env, 5)


def test_games_and_envs_work_in_a_spawned_process():
    spiel_game = pyspiel.load_game("ladytiger_doors(gems_to_win=2,zero_sum=True)")
    zoo_env = env("favor", players=3)
    gym_env = gymnasium.make("ladytiger/Hoard-v0", difficulty="moderate", reward="treasure")
    payload = pickle.dumps((spiel_game, zoo_env, gym_env))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        there = pool.apply(run_all, (payload,))
    here = run_all(payload)
    assert there == here
    assert there[0][1] in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
