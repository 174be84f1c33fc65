"""Shared by the lesson tests: each module names its lesson as LESSON."""

from __future__ import annotations

import pytest

from ladytiger.lessons import frames


@pytest.fixture(scope="module")
def shown(request: pytest.FixtureRequest) -> list[dict]:
    """The frames of the test module's LESSON, replayed once per module."""
    return frames(request.module.LESSON)
