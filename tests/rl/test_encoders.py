"""Observation tensors: fixed size, in [0, 1], and a function of the seat's observation alone."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

import ladytiger
from ladytiger.core.playout import random_step

pytest.importorskip("numpy")
from ladytiger.rl.encoders import encoder_for

RL_DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def states_along_a_game(game_config, seed, every=3):
    name, options = game_config
    state = ladytiger.load_game(name, **options).new_initial_state()
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal() and step < 600:
        if step % every == 0:
            yield state.clone()
        state.apply_action(random_step(state, rng))
        step += 1
    yield state


def test_tensors_have_a_fixed_size_and_stay_in_range(game_config):
    game = ladytiger.load_game(game_config[0], **game_config[1])
    encoder = encoder_for(game)
    for state in states_along_a_game(game_config, seed=1):
        for seat in [*range(game.num_players), None]:
            tensor = encoder.encode(state.observation(seat))
            assert tensor.shape == (encoder.size,) and tensor.dtype == np.float32
            assert tensor.min() >= 0.0 and tensor.max() <= 1.0


def test_a_tensor_depends_only_on_what_the_seat_knows(game_config):
    game = ladytiger.load_game(game_config[0], **game_config[1])
    encoder = encoder_for(game)
    rng = random.Random(3)
    for state in states_along_a_game(game_config, seed=2, every=7):
        for seat in range(game.num_players):
            tensor = encoder.encode(state.observation(seat))
            for _ in range(3):
                other = state.resample(seat, rng)
                assert np.array_equal(encoder.encode(other.observation(seat)), tensor)


def test_tensors_tell_different_positions_apart(game_config):
    """Guard: an encoder that wrote nothing would pass the tests above."""
    game = ladytiger.load_game(game_config[0], **game_config[1])
    encoder = encoder_for(game)
    tensors = {encoder.encode(s.observation(0)).tobytes()
               for s in states_along_a_game(game_config, seed=4, every=1)}
    assert len(tensors) > 5


def test_the_layout_in_docs_matches_the_code(game_config):
    game = ladytiger.load_game(game_config[0], **game_config[1])
    text = RL_DOC.read_text()
    section = re.search(
        rf"<!-- layout:{game.info.name}:{game.num_players} -->\n(.*?)\n<!-- /layout -->",
                        text, re.S)
    assert section, f"docs/rl.md lacks the layout of {game.info.name} for {game.num_players}"
    assert section.group(1).strip() == encoder_for(game).layout_markdown().strip()
