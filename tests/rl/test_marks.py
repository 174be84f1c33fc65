"""The small pieces of the RL step: the mask, the chance walk and the writers."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from ladytiger.rl.encoders.marks import (  # noqa: E402
    bits_at,
    chance_outcome,
    counts_at,
    legal_mask,
    observation_of,
    one_at,
    seat_at,
)


def test_the_mask_marks_exactly_the_legal_actions() -> None:
    mask = legal_mask([0, 3, 7], 8)
    assert mask.dtype == np.int8
    assert mask.tolist() == [1, 0, 0, 1, 0, 0, 0, 1]
    assert legal_mask([], 4).tolist() == [0, 0, 0, 0]
    # numpy reads the mask's bytes in place: it must still be an array a caller may change.
    mask[1] = 1
    assert mask.tolist()[:2] == [1, 1]


def test_a_draw_lands_on_the_outcome_whose_share_of_the_unit_interval_holds_it() -> None:
    outcomes = [(10, 0.5), (11, 0.25), (12, 0.25)]
    assert chance_outcome(outcomes, 0.0) == 10
    assert chance_outcome(outcomes, 0.49) == 10
    assert chance_outcome(outcomes, 0.5) == 11
    assert chance_outcome(outcomes, 0.74) == 11
    assert chance_outcome(outcomes, 0.75) == 12
    # Rounding can leave the sum a hair under 1: the last outcome takes what is left.
    assert chance_outcome([(1, 0.3), (2, 0.3), (3, 0.3999999)], 0.99999999) == 3


def test_the_writers_go_through_a_memoryview_to_the_array() -> None:
    tensor = np.zeros(12, np.float32)
    view = memoryview(tensor)
    bits_at(view, 4, 0b1011)  # cards 0, 1 and 3
    counts_at(view, 0, [2, 0, 1], [4, 1, 2])
    seat_at(view, 8, 1, 3, 4)  # seat 1 seen from seat 3 of 4 is two places on
    seat_at(view, 8, -1, 3, 4)  # chance is no seat
    assert tensor.tolist() == [0.5, 0, 0.5, 0, 1, 1, 0, 1, 0, 0, 1, 0]


def test_ones_land_at_every_index_whether_boxed_in_advance_or_not() -> None:
    tensor = np.zeros(1100, np.float32)
    view = memoryview(tensor)
    for index in (0, 255, 256, 257, 1023, 1024, 1099):  # either side of both boundaries
        one_at(view, index)
    assert np.flatnonzero(tensor).tolist() == [0, 255, 256, 257, 1023, 1024, 1099]
    assert set(tensor.tolist()) == {0.0, 1.0}


def test_an_observation_pairs_the_fast_tensor_with_the_mask_of_the_seat() -> None:
    import ladytiger
    from ladytiger.rl.encoders import encoder_for

    game = ladytiger.load_game("favor", players=3)
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.legal_actions()[0])
    encoder = encoder_for(game)
    mover = state.current_player()
    other = (mover + 1) % 3
    actions = game.num_distinct_actions()
    mine = observation_of(encoder.fast, state, mover, encoder.size, actions)
    theirs = observation_of(encoder.fast, state, other, encoder.size, actions)
    assert mine is not None and theirs is not None
    assert np.array_equal(mine["observation"], encoder.encode_state(state, mover))
    assert np.flatnonzero(mine["action_mask"]).tolist() == state.legal_actions()
    assert not theirs["action_mask"].any()  # not their turn
    # A state the fast path cannot read is left to the caller's reference path.
    assert observation_of(lambda state, seat, t: False, state, mover, encoder.size,
                          actions) is None
