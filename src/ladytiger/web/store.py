"""The table database: SQLite in WAL mode, with group commit.

Every read and write the server makes goes through `Store.call`, which queues a job. Once per
turn of the event loop, every queued job runs inside one transaction (each in its own
savepoint, so a failing job undoes only itself), the transaction commits, and only then are
the jobs' futures resolved. A move is acknowledged after its future resolves, so an
acknowledged move is in the database.

The statements run on the event loop's thread: each takes microseconds, and handing them to
a thread would cost more in interpreter-lock hand-offs than it saves. Only a COMMIT that must
reach the disk (synchronous FULL: an fsync of the WAL, milliseconds) goes to a thread, one at
a time; jobs that arrive meanwhile wait and commit together in the next batch.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

log = logging.getLogger("ladytiger.web.store")

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL,
    rematch TEXT,
    result TEXT
);
CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, created_at);
CREATE INDEX IF NOT EXISTS tables_by_end ON tables (status, finished_at);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    token_hash TEXT,
    joined INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action INTEGER NOT NULL,
    actor INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
"""

T = TypeVar("T")
Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


@dataclass
class StoredTable:
    """A table as kept in the database."""

    spec: dict[str, Any]
    status: str
    token_hashes: list[str | None]
    joined: list[bool]
    actions: list[tuple[int, int]]  # (action, actor) in order
    rematch: str | None
    finished_at: float | None  # when the table ended, finished or abandoned
    ended_reason: str | None = None  # why an abandoned table was abandoned
    last_activity: float | None = None  # the last move, or the creation


class StoreClosedError(RuntimeError):
    pass


class Store:
    """The database behind the server: `open()`, then `await call(job, ...)`, `await close()`."""

    def __init__(self, path: str, synchronous: str = "FULL") -> None:
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        self.path = path
        self.synchronous = synchronous.upper()
        self._connection: sqlite3.Connection | None = None
        self._pending: list[Job] = []
        self._flush_scheduled = False
        self._committing: asyncio.Future[Any] | None = None
        self._committer: ThreadPoolExecutor | None = None
        self.commits = 0
        self.jobs_done = 0

    # ------------------------------------------------------------------ lifecycle
    def open(self) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise RuntimeError(f"cannot put {self.path} in WAL mode (got {mode})")
        connection.execute(f"PRAGMA synchronous={self.synchronous}")
        connection.executescript(SCHEMA)
        found = connection.execute("PRAGMA user_version").fetchone()[0]
        if found == 0:
            connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        elif found != SCHEMA_VERSION:
            connection.close()
            raise RuntimeError(
                f"{self.path} has database schema {found}; this server needs {SCHEMA_VERSION}"
            )
        self._connection = connection
        if self.synchronous != "NORMAL":
            self._committer = ThreadPoolExecutor(1, thread_name_prefix="ladytiger-commit")

    async def close(self) -> None:
        """Commit what is queued, then close the database."""
        while self._pending or self._committing is not None or self._flush_scheduled:
            if self._committing is not None:
                await asyncio.wait([self._committing])
            else:
                await asyncio.sleep(0)
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._committer is not None:
            self._committer.shutdown(wait=True)
            self._committer = None

    async def call(self, job: Callable[..., T], *args: Any) -> T:
        """Run `job(connection, *args)` in the next batch; return once it is committed."""
        if self._connection is None:
            raise StoreClosedError("the store is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._pending.append((job, args, future))
        if not self._flush_scheduled and self._committing is None:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return await future

    # ------------------------------------------------------------------ batches
    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._committing is not None or not self._pending or self._connection is None:
            return
        batch, self._pending = self._pending, []
        connection = self._connection
        try:
            outcomes = self._run_jobs(connection, batch)
        except Exception as error:
            self._failed(batch, error)
            return
        if self._committer is None:
            try:
                connection.execute("COMMIT")
            except Exception as error:
                self._failed(batch, error)
                return
            self._settle(batch, outcomes)
            return
        # The fsync goes to a thread; the loop carries on, queueing the next batch.
        loop = asyncio.get_running_loop()
        self._committing = loop.run_in_executor(self._committer, connection.execute, "COMMIT")
        self._committing.add_done_callback(lambda done: self._committed(done, batch, outcomes))

    @staticmethod
    def _run_jobs(
        connection: sqlite3.Connection, batch: list[Job]
    ) -> list[tuple[Any, BaseException | None]]:
        """Run the jobs in one open transaction. Jobs almost never fail, so they run bare;
        when one does, the batch is rolled back and rerun with a savepoint per job, so the
        failure undoes only its own job."""
        connection.execute("BEGIN IMMEDIATE")
        try:
            return [(job(connection, *args), None) for job, args, _ in batch]
        except Exception:
            connection.execute("ROLLBACK")
        connection.execute("BEGIN IMMEDIATE")
        outcomes: list[tuple[Any, BaseException | None]] = []
        for job, args, _ in batch:
            connection.execute("SAVEPOINT job")
            try:
                result = job(connection, *args)
            except Exception as error:
                connection.execute("ROLLBACK TO job")
                connection.execute("RELEASE job")
                outcomes.append((None, error))
            else:
                connection.execute("RELEASE job")
                outcomes.append((result, None))
        return outcomes

    def _committed(
        self,
        done: asyncio.Future[Any],
        batch: list[Job],
        outcomes: list[tuple[Any, BaseException | None]],
    ) -> None:
        self._committing = None
        error = done.exception()
        if error is not None:
            self._failed(batch, error)
        else:
            self._settle(batch, outcomes)
        if self._pending:
            self._flush()

    def _settle(self, batch: list[Job], outcomes: list[tuple[Any, BaseException | None]]) -> None:
        self.commits += 1
        self.jobs_done += len(batch)
        for (_, _, future), (result, error) in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

    def _failed(self, batch: list[Job], error: BaseException) -> None:
        log.error("a database transaction failed; its %d jobs are refused: %s", len(batch),
                  error)
        connection = self._connection
        if connection is not None and connection.in_transaction:
            connection.execute("ROLLBACK")
        for _, _, future in batch:
            if not future.done():
                future.set_exception(error)


# ---------------------------------------------------------------------------- jobs
# Each job runs on the writer thread inside a transaction: `store.call(job, *args)`.
def insert_table(
    connection: sqlite3.Connection, spec: dict[str, Any], token_hashes: list[str | None]
) -> None:
    connection.execute(
        "INSERT INTO tables (id, game, spec, status, created_at) VALUES (?, ?, ?, 'waiting', ?)",
        (spec["id"], spec["game"], json.dumps(spec), spec["created_at"]),
    )
    connection.executemany(
        "INSERT INTO seats (table_id, seat, token_hash) VALUES (?, ?, ?)",
        [(spec["id"], seat, digest) for seat, digest in enumerate(token_hashes)],
    )
    if spec.get("rematch_of"):
        # The finished table points to its rematch in the same transaction.
        set_rematch(connection, spec["rematch_of"], spec["id"])


def append_actions(
    connection: sqlite3.Connection,
    table_id: str,
    start: int,
    steps: Iterable[tuple[int, int]],
    status: str | None = None,
    result: dict[str, Any] | None = None,
    joined: int | None = None,
) -> None:
    """Add moves from history index `start` on; the key (table, index) forbids a second
    move at an index already taken. `status` moves the table to 'playing' or 'finished';
    `joined` marks the seat whose arrival starts the game."""
    now = time.time()
    if joined is not None:
        mark_joined(connection, table_id, joined)
    connection.executemany(
        "INSERT INTO actions (table_id, idx, action, actor, at) VALUES (?, ?, ?, ?, ?)",
        [(table_id, start + i, action, actor, now) for i, (action, actor) in enumerate(steps)],
    )
    if status == "playing":
        connection.execute(
            "UPDATE tables SET status = 'playing', started_at = ? WHERE id = ?", (now, table_id)
        )
    elif status == "finished":
        connection.execute(
            "UPDATE tables SET status = 'finished', finished_at = ?, result = ? WHERE id = ?",
            (now, json.dumps(result), table_id),
        )


def mark_joined(connection: sqlite3.Connection, table_id: str, seat: int) -> None:
    connection.execute(
        "UPDATE seats SET joined = 1 WHERE table_id = ? AND seat = ?", (table_id, seat)
    )


def claim_seat(connection: sqlite3.Connection, table_id: str, seat: int, digest: str) -> bool:
    """Give an open seat its token; False when someone claimed it first."""
    cursor = connection.execute(
        "UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ? AND token_hash IS NULL",
        (digest, table_id, seat),
    )
    return cursor.rowcount == 1


def release_seat(connection: sqlite3.Connection, table_id: str, seat: int, digest: str) -> None:
    """Give back a claimed seat nobody joined (only if the claim is still that one)."""
    connection.execute(
        "UPDATE seats SET token_hash = NULL "
        "WHERE table_id = ? AND seat = ? AND token_hash = ? AND joined = 0",
        (table_id, seat, digest),
    )


def abandon_table(connection: sqlite3.Connection, table_id: str, reason: str) -> None:
    """End an unfinished table without a result; `reason` says why."""
    connection.execute(
        "UPDATE tables SET status = 'abandoned', finished_at = ?, result = ? "
        "WHERE id = ? AND status NOT IN ('finished', 'abandoned')",
        (time.time(), json.dumps({"abandoned": reason}), table_id),
    )


def delete_ended_before(connection: sqlite3.Connection, before: float, limit: int) -> list[str]:
    """Delete up to `limit` finished or abandoned tables that ended before `before`."""
    ids = [
        row[0]
        for row in connection.execute(
            "SELECT id FROM tables WHERE status IN ('finished', 'abandoned') "
            "AND finished_at < ? ORDER BY finished_at LIMIT ?",
            (before, limit),
        )
    ]
    for table_id in ids:
        connection.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
        connection.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        connection.execute("DELETE FROM tables WHERE id = ?", (table_id,))
    return ids


def set_rematch(connection: sqlite3.Connection, table_id: str, rematch_id: str) -> None:
    connection.execute("UPDATE tables SET rematch = ? WHERE id = ?", (rematch_id, table_id))


def _read_table(connection: sqlite3.Connection, row: tuple[Any, ...]) -> StoredTable:
    table_id, spec, status, rematch, finished_at, result, created_at = row
    seats = connection.execute(
        "SELECT token_hash, joined FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
    ).fetchall()
    actions = connection.execute(
        "SELECT action, actor, at FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
    ).fetchall()
    ended = json.loads(result) if status == "abandoned" and result else {}
    return StoredTable(
        spec=json.loads(spec),
        status=status,
        token_hashes=[digest for digest, _ in seats],
        joined=[bool(joined) for _, joined in seats],
        actions=[(action, actor) for action, actor, _ in actions],
        rematch=rematch,
        finished_at=finished_at,
        ended_reason=ended.get("abandoned"),
        last_activity=actions[-1][2] if actions else created_at,
    )


_COLUMNS = "id, spec, status, rematch, finished_at, result, created_at"


def load_table(connection: sqlite3.Connection, table_id: str) -> StoredTable | None:
    row = connection.execute(
        f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,)
    ).fetchone()
    return None if row is None else _read_table(connection, row)


def load_unfinished(connection: sqlite3.Connection) -> list[StoredTable]:
    rows = connection.execute(
        f"SELECT {_COLUMNS} FROM tables WHERE status NOT IN ('finished', 'abandoned') "
        "ORDER BY created_at"
    ).fetchall()
    return [_read_table(connection, row) for row in rows]


def recent_finished(
    connection: sqlite3.Connection, limit: int, status: str = "finished"
) -> list[dict[str, Any]]:
    """The tables that ended last with `status` (finished or abandoned)."""
    rows = connection.execute(
        "SELECT spec, finished_at, result FROM tables WHERE status = ? "
        "ORDER BY finished_at DESC LIMIT ?",
        (status, limit),
    ).fetchall()
    return [
        {"spec": json.loads(spec), "finished_at": finished_at, "result": json.loads(result)}
        for spec, finished_at, result in rows
    ]
