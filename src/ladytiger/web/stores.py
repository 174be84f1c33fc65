"""Which database a server uses, and what the rest of the server may ask of it.

`Settings.db_path` is a SQLite file (the default: one process owns it) or a
`postgresql://` URL (several processes may share it; ladytiger.web.store_postgres).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ladytiger.web.config import Settings
from ladytiger.web.store import Store

T = TypeVar("T")


class TableStore(Protocol):
    """Both stores: jobs of ladytiger.web.store run with `call`, committed on return."""

    shared: bool  # whether other processes may write the same database

    async def start(self) -> None: ...

    async def call(self, job: Callable[..., T], *args: Any) -> T: ...

    async def close(self) -> None: ...


def open_store(settings: Settings) -> Any:
    """The store `settings.db_path` names (not started yet)."""
    from ladytiger.web.store_postgres import PostgresStore, is_postgres_url

    if is_postgres_url(settings.db_path):
        return PostgresStore(settings.db_path, settings.db_pool_size,
                             settings.process_id or None)
    return Store(settings.db_path, settings.synchronous)


def describe(db_path: str) -> str:
    """The database for a log line: a URL without its password."""
    from ladytiger.web.store_postgres import is_postgres_url

    if not is_postgres_url(db_path):
        return db_path
    scheme, _, rest = db_path.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not at:
        return db_path
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{place}" if ":" in credentials else db_path
