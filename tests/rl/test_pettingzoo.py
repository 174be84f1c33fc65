"""The PettingZoo adapter, checked by PettingZoo's own API and seed tests, and wrapped as
PettingZoo's classic games are."""

from __future__ import annotations

import functools
import pickle
import warnings

import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ladytiger.core import IllegalActionError
from ladytiger.rl.pettingzoo import env, raw_env


def make(game_config, **extra):
    name, options = game_config
    return env(name, **options, **extra)


def play_out(environment, seed):
    environment.reset(seed=seed)
    rewards = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter(max_iter=20_000):
        observation, reward, terminated, truncated, _ = environment.last()
        rewards[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0]
        environment.step(int(environment.np_random.choice(legal)))
    return rewards


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
    rewards = play_out(environment, seed=5)
    state = environment.unwrapped.state
    assert state.is_terminal()
    assert list(rewards.values()) == state.returns()


def test_envs_are_wrapped_like_pettingzoo_classic():
    environment = env("doors")
    assert isinstance(environment, OrderEnforcingWrapper)
    with pytest.raises(Exception, match="reset"):
        environment.step(0)  # order enforcing: reset comes first
    assert type(raw_env("doors")).__name__ == "LadyTigerAECEnv"


def test_an_illegal_action_ends_the_game_with_minus_one_by_default():
    environment = env("favor", players=3)
    environment.reset(seed=1)
    offender = environment.agent_selection
    observation = environment.observe(offender)
    illegal = int((observation["action_mask"] == 0).nonzero()[0][0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        environment.step(illegal)
    assert all(environment.terminations.values())
    assert environment.rewards[offender] == -1.0
    assert all(r == 0.0 for agent, r in environment.rewards.items() if agent != offender)


def test_an_illegal_action_can_raise_with_the_rule_instead():
    environment = env("doors", illegal="raise")
    environment.reset(seed=1)
    observation = environment.observe(environment.agent_selection)
    illegal = int((observation["action_mask"] == 0).nonzero()[0][0])
    before = environment.unwrapped.state.clone()
    with pytest.raises(IllegalActionError):
        environment.step(illegal)
    assert environment.unwrapped.state == before


def test_zero_sum_rewards_are_plus_and_minus_one():
    seen = set()
    for seed in range(6):
        rewards = play_out(env("doors", zero_sum=True, gems_to_win=2), seed)
        assert sum(rewards.values()) == 0.0
        seen.add(rewards["player_0"])
    assert seen <= {-1.0, 0.0, 1.0} and seen & {-1.0, 1.0}
    with pytest.raises(Exception, match="two players"):
        env("favor", players=3, zero_sum=True)


def test_an_env_pickles_mid_game_and_goes_on_the_same_way():
    environment = env("traps", players=3)
    environment.reset(seed=2)
    for _ in range(15):
        observation = environment.observe(environment.agent_selection)
        environment.step(int(observation["action_mask"].nonzero()[0][0]))
    copy = pickle.loads(pickle.dumps(environment))
    assert copy.unwrapped.state == environment.unwrapped.state
    for which in (environment, copy):
        observation = which.observe(which.agent_selection)
        which.step(int(observation["action_mask"].nonzero()[0][-1]))
    assert copy.unwrapped.state == environment.unwrapped.state
