"""Observation tensors: fixed size, in [0, 1], a function of what the seat knows, and the
fast path equal to the reference built from the observation."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import ladytiger  # noqa: E402
from ladytiger.core.playout import random_step  # noqa: E402
from ladytiger.rl.encoders import encoder_for  # noqa: E402
from ladytiger.rl.infostate import info_state_encoder  # noqa: E402

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
            tensor = encoder.encode_state(state, seat)
            assert tensor.shape == (encoder.size,) and tensor.dtype == np.float32
            assert tensor.min() >= 0.0 and tensor.max() <= 1.0


def test_the_fast_path_gives_the_reference_tensor(game_config):
    """The fast path reads the state's fields; equal to the bit to the tensor of
    `observation(seat)`, it shows the seat nothing the observation does not."""
    game = ladytiger.load_game(game_config[0], **game_config[1])
    encoder = encoder_for(game)
    assert encoder.fast is not None
    reached = 0
    for seed in (5, 6):
        for state in states_along_a_game(game_config, seed=seed, every=1):
            for seat in [*range(game.num_players), None]:
                fast = encoder.encode_state(state, seat)
                reference = encoder.encode(state.observation(seat))
                assert np.array_equal(fast, reference), (
                    f"seat {seat} after {state.history()}: entries "
                    f"{np.flatnonzero(fast != reference).tolist()} differ")
            reached += 1
    assert reached > 20


def test_a_tensor_depends_only_on_what_the_seat_knows(game_config):
    game = ladytiger.load_game(game_config[0], **game_config[1])
    encoder = encoder_for(game)
    rng = random.Random(3)
    for state in states_along_a_game(game_config, seed=2, every=7):
        for seat in [*range(game.num_players), None]:
            tensor = encoder.encode_state(state, seat)
            for _ in range(3):
                other = state.resample(seat, rng)
                assert np.array_equal(encoder.encode_state(other, seat), tensor)


def test_the_information_state_tensor_depends_only_on_what_the_seat_knows(game_config):
    game = ladytiger.load_game(game_config[0], **game_config[1])
    history = info_state_encoder(game, encoder_for(game))
    if history is None:
        pytest.skip("no information-state tensor for this configuration")
    rng = random.Random(4)
    for state in states_along_a_game(game_config, seed=3, every=11):
        for seat in range(game.num_players):
            tensor = history.encode_state(state, seat)
            for _ in range(2):
                other = state.resample(seat, rng)
                assert np.array_equal(history.encode_state(other, seat), tensor)


def test_tensors_tell_different_positions_apart(game_config):
    """Guard: an encoder that wrote nothing would pass the tests above."""
    game = ladytiger.load_game(game_config[0], **game_config[1])
    encoder = encoder_for(game)
    tensors = {encoder.encode_state(s, 0).tobytes()
               for s in states_along_a_game(game_config, seed=4, every=1)}
    assert len(tensors) > 5


def test_a_batch_is_the_rows_of_single_tensors_and_a_buffer_is_reused():
    game = ladytiger.load_game("favor", players=3)
    encoder = encoder_for(game)
    states = list(states_along_a_game(("favor", {"players": 3}), seed=8, every=5))
    seats = [i % 3 for i in range(len(states))]
    batch = encoder.encode_batch(states, seats)
    assert batch.shape == (len(states), encoder.size)
    for row, state, seat in zip(batch, states, seats, strict=True):
        assert np.array_equal(row, encoder.encode(state.observation(seat)))
    buffer = np.full(encoder.size, 7.0, np.float32)  # stale values must not survive
    assert encoder.encode_state(states[-1], 1, buffer) is buffer
    assert np.array_equal(buffer, encoder.encode(states[-1].observation(1)))
    with pytest.raises(ValueError):
        encoder.encode_batch(states, seats[:-1])


def test_an_encoder_pickles_and_encodes_the_same():
    game = ladytiger.load_game("tighee", players=4)
    encoder = encoder_for(game)
    copy = pickle.loads(pickle.dumps(encoder))
    state = list(states_along_a_game(("tighee", {"players": 4}), seed=1, every=40))[-1]
    assert np.array_equal(copy.encode_state(state, 2), encoder.encode_state(state, 2))


def test_the_layout_in_docs_matches_the_code(game_config):
    game = ladytiger.load_game(game_config[0], **game_config[1])
    text = RL_DOC.read_text()
    section = re.search(
        rf"<!-- layout:{game.info.name}:{game.num_players} -->\n(.*?)\n<!-- /layout -->",
        text, re.S)
    assert section, f"docs/rl.md lacks the layout of {game.info.name} for {game.num_players}"
    assert section.group(1).strip() == encoder_for(game).layout_markdown().strip()


def test_the_docs_are_what_the_generator_writes():
    from ladytiger.rl.layout_doc import END, START, layouts_markdown

    text = RL_DOC.read_text()
    assert text.split(START)[1].split(END)[0].strip() == layouts_markdown().strip(), (
        "run python -m ladytiger.rl.layout_doc")
