"""Hoard as a Gymnasium environment, checked by Gymnasium's own env checker."""

import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import ladytiger.rl.gymnasium  # noqa: E402,F401

DIFFICULTIES = ["easy", "moderate", "hard", "impossible"]


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_gymnasium_check_env_passes(difficulty):
    env = gymnasium.make("ladytiger/Hoard-v0", difficulty=difficulty)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("reward", ["win", "treasure"])
def test_an_episode_follows_the_mask_to_the_end(reward):
    env = gymnasium.make("ladytiger/Hoard-v0", difficulty="easy", reward=reward)
    observation, _ = env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        legal = observation["action_mask"].nonzero()[0]
        observation, gained, terminated, truncated, _ = env.step(
            int(env.unwrapped.np_random.choice(legal)))
        total += gained
        done = terminated or truncated
    state = env.unwrapped.state
    assert state.is_terminal()
    collected = state.observation(0)["collected"]
    expected = state.returns()[0]
    if reward == "treasure":
        expected += 0.1 * (collected["red"] + collected["blue"])
    assert total == pytest.approx(expected)


def test_an_illegal_action_changes_nothing_and_says_why():
    env = gymnasium.make("ladytiger/Hoard-v0")
    observation, _ = env.reset(seed=1)
    illegal = int((observation["action_mask"] == 0).nonzero()[0][0])
    before = env.unwrapped.state.clone()
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == 0.0 and not terminated
    assert info["illegal"]
    assert env.unwrapped.state == before


def test_same_seed_same_episode():
    first = gymnasium.make("ladytiger/Hoard-v0", difficulty="impossible")
    second = gymnasium.make("ladytiger/Hoard-v0", difficulty="impossible")
    a, _ = first.reset(seed=42)
    b, _ = second.reset(seed=42)
    assert (a["observation"] == b["observation"]).all()
