"""The resamplers' shuffle: a permutation of its input, every order equally likely."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from ladytiger.core.state import shuffle


@given(st.lists(st.integers(), max_size=40), st.integers(0, 2**32))
def test_a_shuffle_keeps_every_item(items, seed):
    shuffled = items.copy()
    shuffle(shuffled, random.Random(seed))
    assert sorted(shuffled) == sorted(items)


def test_every_order_of_four_items_is_about_equally_likely():
    rng = random.Random(7)
    draws = 240_000
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(draws):
        items = [0, 1, 2, 3]
        shuffle(items, rng)
        seen[tuple(items)] += 1
    assert set(seen) == set(permutations(range(4)))
    expected = draws / 24
    # Each count has a standard deviation of about 98 here: 5 of them is a wide margin, and a
    # shuffle that favoured any order by 5% would fail.
    assert all(abs(count - expected) < 490 for count in seen.values()), seen
    chi_square = sum((count - expected) ** 2 / expected for count in seen.values())
    assert chi_square < 50  # 23 degrees of freedom: p < 0.001 beyond about 49.7
