"""The PettingZoo adapter, checked by PettingZoo's own API and seed tests."""

from __future__ import annotations

import functools
import warnings

import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test

from ladytiger.core import IllegalActionError
from ladytiger.rl.pettingzoo import env


def make(game_config):
    name, options = game_config
    return env(name, **options)


def test_pettingzoo_api_test_passes(game_config):
    with warnings.catch_warnings():
        # A dict observation with an action mask is PettingZoo's own convention for
        # card games; its checker still warns that it is not a Box.
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(game_config), num_cycles=60, verbose_progress=False)


def test_pettingzoo_seed_test_passes(game_config):
    name, options = game_config
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(functools.partial(env, name, **options), num_cycles=60)


def test_a_whole_game_ends_with_the_engines_returns(game_config):
    environment = make(game_config)
    environment.reset(seed=5)
    rewards = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter(max_iter=20_000):
        observation, reward, terminated, truncated, _ = environment.last()
        rewards[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0]
        environment.step(int(environment.np_random.choice(legal)))
    assert environment.state.is_terminal()
    assert list(rewards.values()) == environment.state.returns()


def test_an_illegal_action_is_refused_with_the_rule():
    environment = env("doors")
    environment.reset(seed=1)
    observation = environment.observe(environment.agent_selection)
    illegal = int((observation["action_mask"] == 0).nonzero()[0][0])
    with pytest.raises(IllegalActionError):
        environment.step(illegal)
