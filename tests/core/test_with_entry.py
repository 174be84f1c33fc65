"""with_entry: how tuple fields shared between clones change one entry."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ladytiger.core.state import with_entry


@given(st.lists(st.integers(), min_size=1, max_size=8), st.data())
def test_only_the_named_entry_changes(values, data):
    index = data.draw(st.integers(0, len(values) - 1))
    before = tuple(values)
    after = with_entry(before, index, "new")
    assert after[index] == "new"
    assert len(after) == len(before)
    assert [v for i, v in enumerate(after) if i != index] == [
        v for i, v in enumerate(before) if i != index
    ]
    assert before == tuple(values)  # the original, which clones may share, is untouched
