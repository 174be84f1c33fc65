"""The small pieces of the RL step: the mask, the chance walk and the writers."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from ladytiger.rl.encoders.marks import (  # noqa: E402
    bits_at,
    chance_outcome,
    counts_at,
    legal_mask,
    seat_at,
)


def test_the_mask_marks_exactly_the_legal_actions() -> None:
    mask = legal_mask([0, 3, 7], 8)
    assert mask.dtype == np.int8
    assert mask.tolist() == [1, 0, 0, 1, 0, 0, 0, 1]
    assert legal_mask([], 4).tolist() == [0, 0, 0, 0]


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
