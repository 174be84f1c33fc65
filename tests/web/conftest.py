"""Fixtures of the server tests: a fresh database per test and a live server per module."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    # Starlette would rather its test client ran on httpx2; httpx works the same here.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ladytiger.web import create_app
from tests.web.support import LiveServer, quick_settings


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    """The app in-process (ASGI, no network), on its own database, bots without a pause."""
    with TestClient(create_app(quick_settings(tmp_path / "tables.sqlite3"))) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[LiveServer]:
    """The real server on 127.0.0.1, shared by a module's tests."""
    path = tmp_path_factory.mktemp("live") / "tables.sqlite3"
    with LiveServer(quick_settings(path)) as server:
        yield server
