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

# 1: tables, seats, actions. 2 adds players, the seats they hold, chat and ratings: new
# tables only, so a database of version 1 is brought up to 2 by creating them.
SCHEMA_VERSION = 3
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
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    secret_hash TEXT UNIQUE,
    name TEXT NOT NULL,
    bot TEXT,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seat_players (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS seats_by_player ON seat_players (player_id, table_id);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER,
    player_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ratings (
    player_id TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    shown REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    wins INTEGER NOT NULL DEFAULT 0,
    tallied INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, game)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_by_game ON ratings (game, shown);
"""
MIGRATABLE = (1, 2)  # versions `open` brings up to SCHEMA_VERSION (the schema script, then
# WIN_COLUMNS where the ratings table lacks them)
# Schema 3: the games a player won, and how many games were tallied for it (a database from
# before counts its earlier games in `games` only).
WIN_COLUMNS = ("wins", "tallied")
CHAT_KEPT = 50  # chat lines a table sends to a new connection

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
    # What its game did to each rated seat's rating (Hub._rate), once it has been rated.
    ratings: list[dict[str, Any]] | None = None
    # Per seat: (player id, name, bot) of the player holding it, or None.
    players: list[tuple[str, str, str | None] | None] | None = None
    chat: list[dict[str, Any]] | None = None  # the latest lines, oldest first
    chat_count: int = 0


@dataclass
class TableDelta:
    """What changed in a table's row since a copy in memory last saw it: a process catching
    up with a change another process made (see ladytiger.web.store_postgres)."""

    status: str
    finished_at: float | None
    ended_reason: str | None
    rematch: str | None
    actions: list[tuple[int, int]]  # (action, actor) from the index asked for on
    last_activity: float | None
    ratings: list[dict[str, Any]] | None = None  # what the game did to each rating, if rated
    # Only in a full delta (seats, players or chat may have changed), else None:
    token_hashes: list[str | None] | None = None
    joined: list[bool] | None = None
    players: list[tuple[str, str, str | None] | None] | None = None
    chat: list[dict[str, Any]] | None = None  # lines from the index asked for on
    chat_count: int | None = None


class StoreClosedError(RuntimeError):
    pass


class WriteConflict(RuntimeError):
    """The database refused a write that raced another for the same place: a move at a
    history index already taken, or on a table that has ended. Nothing was written."""


class Store:
    """The database behind the server: `open()`, then `await call(job, ...)`, `await close()`."""

    # One process owns the file: no other server writes it, so nothing is shared.
    shared = False

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
        if found in MIGRATABLE:
            columns = {row[1] for row in connection.execute("PRAGMA table_info(ratings)")}
            for column in WIN_COLUMNS:
                if column not in columns:
                    connection.execute(
                        f"ALTER TABLE ratings ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0")
        if found == 0 or found in MIGRATABLE:
            connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        elif found != SCHEMA_VERSION:
            connection.close()
            raise RuntimeError(
                f"{self.path} has database schema {found}; this server needs {SCHEMA_VERSION}"
            )
        self._connection = connection
        if self.synchronous != "NORMAL":
            self._committer = ThreadPoolExecutor(1, thread_name_prefix="ladytiger-commit")

    async def start(self) -> None:
        """`open`, for a caller that may hold either store (ladytiger.web.stores)."""
        self.open()

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
    joined: tuple[int, str] | None = None,
) -> None:
    """Add moves from history index `start` on; the key (table, index) forbids a second
    move at an index already taken. `status` moves the table to 'playing' or 'finished';
    `joined` is the seat whose arrival starts the game, with the digest of the token it
    came with: the start is refused if that token no longer holds the seat."""
    now = time.time()
    row = connection.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None or row[0] in ("finished", "abandoned"):
        raise WriteConflict(f"table {table_id} has ended or is gone")
    if joined is not None and not mark_joined(connection, table_id, *joined):
        raise WriteConflict(f"table {table_id} lost a seat before it began")
    if status == "playing" and row[0] == "waiting" and _seat_not_joined(connection, table_id):
        # A seat was given back (leave_seat) since the starter last looked.
        raise WriteConflict(f"table {table_id} lost a seat before it began")
    try:
        connection.executemany(
            "INSERT INTO actions (table_id, idx, action, actor, at) VALUES (?, ?, ?, ?, ?)",
            [(table_id, start + i, action, actor, now)
             for i, (action, actor) in enumerate(steps)],
        )
    except sqlite3.IntegrityError:
        raise WriteConflict(f"table {table_id}: history index {start} is taken") from None
    if status == "playing":
        connection.execute(
            "UPDATE tables SET status = 'playing', started_at = ? WHERE id = ?", (now, table_id)
        )
    elif status == "finished":
        connection.execute(
            "UPDATE tables SET status = 'finished', finished_at = ?, result = ? WHERE id = ?",
            (now, json.dumps(result), table_id),
        )


def _seat_not_joined(connection: sqlite3.Connection, table_id: str) -> bool:
    """Whether a human seat of the table has not joined (its spec says which are human)."""
    spec = json.loads(connection.execute(
        "SELECT spec FROM tables WHERE id = ?", (table_id,)).fetchone()[0])
    waiting = {seat for (seat,) in connection.execute(
        "SELECT seat FROM seats WHERE table_id = ? AND joined = 0", (table_id,))}
    return any(plan["kind"] == "human" and seat in waiting
               for seat, plan in enumerate(spec["seats"]))


def mark_joined(connection: sqlite3.Connection, table_id: str, seat: int, digest: str) -> bool:
    """Record the arrival of the token with `digest` at `seat`; False when the seat is no
    longer that token's (given back, maybe taken again, while the arrival was on its way)."""
    cursor = connection.execute(
        "UPDATE seats SET joined = 1 WHERE table_id = ? AND seat = ? AND token_hash = ?",
        (table_id, seat, digest),
    )
    return cursor.rowcount == 1


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


def leave_seat(connection: sqlite3.Connection, table_id: str, seat: int, digest: str) -> bool:
    """Give back a seat taken from the lobby, joined or not, while the table still waits;
    False when the game began first or the seat is no longer that token's."""
    cursor = connection.execute(
        "UPDATE seats SET token_hash = NULL, joined = 0 "
        "WHERE table_id = ? AND seat = ? AND token_hash = ? "
        "AND EXISTS (SELECT 1 FROM tables WHERE id = ? AND status = 'waiting')",
        (table_id, seat, digest, table_id),
    )
    if cursor.rowcount != 1:
        return False
    connection.execute("DELETE FROM seat_players WHERE table_id = ? AND seat = ?",
                       (table_id, seat))
    return True


def abandon_table(connection: sqlite3.Connection, table_id: str, reason: str) -> bool:
    """End an unfinished table without a result; `reason` says why. False if it had ended
    already (another process finished or closed it first)."""
    cursor = connection.execute(
        "UPDATE tables SET status = 'abandoned', finished_at = ?, result = ? "
        "WHERE id = ? AND status NOT IN ('finished', 'abandoned')",
        (time.time(), json.dumps({"abandoned": reason}), table_id),
    )
    return cursor.rowcount == 1


def restart_table(
    connection: sqlite3.Connection,
    table_id: str,
    absent: list[int],
    reason: str,
    spec: dict[str, Any],
    token_hashes: list[str | None],
) -> bool:
    """End a table still waiting for the `absent` seats and make `spec` (its rematch, with
    bots in those seats) in one transaction. False, changing nothing, when the table began
    or ended first or one of the absent arrived meanwhile: there is never a game at both."""
    row = connection.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None or row[0] != "waiting":
        return False
    arrived = {seat for (seat,) in connection.execute(
        "SELECT seat FROM seats WHERE table_id = ? AND joined = 1", (table_id,))}
    if arrived & set(absent):
        return False
    abandon_table(connection, table_id, reason)
    insert_table(connection, spec, token_hashes)
    return True


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
        for kept in ("actions", "seats", "seat_players", "chat"):
            connection.execute(f"DELETE FROM {kept} WHERE table_id = ?", (table_id,))
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
    stored_result = json.loads(result) if result else {}
    ended = stored_result if status == "abandoned" else {}
    players: list[tuple[str, str, str | None] | None] = [None] * len(seats)
    for seat, player_id, name, bot in connection.execute(
        "SELECT s.seat, p.id, p.name, p.bot FROM seat_players s JOIN players p "
        "ON p.id = s.player_id WHERE s.table_id = ?", (table_id,)
    ):
        if 0 <= seat < len(players):
            players[seat] = (player_id, name, bot)
    chat_count = connection.execute(
        "SELECT COUNT(*) FROM chat WHERE table_id = ?", (table_id,)).fetchone()[0]
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
        ratings=stored_result.get("ratings"),
        players=players,
        chat=recent_chat(connection, table_id) if chat_count else [],
        chat_count=chat_count,
    )


_COLUMNS = "id, spec, status, rematch, finished_at, result, created_at"


def load_table(connection: sqlite3.Connection, table_id: str) -> StoredTable | None:
    row = connection.execute(
        f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,)
    ).fetchone()
    return None if row is None else _read_table(connection, row)


def table_delta(
    connection: sqlite3.Connection, table_id: str, actions_from: int, chat_from: int,
    full: bool,
) -> TableDelta | None:
    """The table's changes past history index `actions_from` (and, when `full`, its seats,
    players and chat lines past `chat_from`); None if the table is gone."""
    row = connection.execute(
        f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,)
    ).fetchone()
    if row is None:
        return None
    _, _, status, rematch, finished_at, result, _ = row
    actions = connection.execute(
        "SELECT action, actor, at FROM actions WHERE table_id = ? AND idx >= ? ORDER BY idx",
        (table_id, actions_from),
    ).fetchall()
    stored_result = json.loads(result) if result else {}
    ended = stored_result if status == "abandoned" else {}
    delta = TableDelta(
        status=status, finished_at=finished_at, ended_reason=ended.get("abandoned"),
        rematch=rematch, ratings=stored_result.get("ratings"),
        actions=[(action, actor) for action, actor, _ in actions],
        last_activity=actions[-1][2] if actions else None,
    )
    if full:
        whole = _read_table(connection, row)
        delta.token_hashes, delta.joined = whole.token_hashes, whole.joined
        delta.players = whole.players
        delta.chat = [line for line in whole.chat or [] if line["index"] >= chat_from]
        delta.chat_count = whole.chat_count
    return delta


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
        "SELECT id, spec, finished_at, result, rematch FROM tables WHERE status = ? "
        "ORDER BY finished_at DESC LIMIT ?",
        (status, limit),
    ).fetchall()
    holders = seat_holders(connection, [row[0] for row in rows])
    return [
        {"spec": json.loads(spec), "finished_at": finished_at, "result": json.loads(result),
         "rematch": rematch, "players": holders.get(table_id, {})}
        for table_id, spec, finished_at, result, rematch in rows
    ]


def seat_holders(
    connection: sqlite3.Connection, table_ids: list[str]
) -> dict[str, dict[int, tuple[str, str]]]:
    """For each table, the (player id, name) holding each of its seats that has one."""
    found: dict[str, dict[int, tuple[str, str]]] = {}
    for start in range(0, len(table_ids), 500):  # SQLite's bound on parameters
        chunk = table_ids[start:start + 500]
        marks = ",".join("?" * len(chunk))
        for table_id, seat, player_id, name in connection.execute(
            "SELECT s.table_id, s.seat, p.id, p.name FROM seat_players s JOIN players p "
            f"ON p.id = s.player_id WHERE s.table_id IN ({marks})", chunk
        ):
            found.setdefault(table_id, {})[seat] = (player_id, name)
    return found


# ---------------------------------------------------------------------------- players
PlayerRow = tuple[str, str, "str | None", float]  # id, name, bot, created_at


def insert_player(
    connection: sqlite3.Connection, player_id: str, secret_hash: str | None, name: str,
    bot: str | None, created_at: float,
) -> None:
    connection.execute(
        "INSERT OR IGNORE INTO players (id, secret_hash, name, bot, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (player_id, secret_hash, name, bot, created_at),
    )


def player_by_secret(connection: sqlite3.Connection, secret_hash: str) -> PlayerRow | None:
    row = connection.execute(
        "SELECT id, name, bot, created_at FROM players WHERE secret_hash = ?", (secret_hash,)
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


def player_by_id(connection: sqlite3.Connection, player_id: str) -> PlayerRow | None:
    row = connection.execute(
        "SELECT id, name, bot, created_at FROM players WHERE id = ?", (player_id,)
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


def rename_player(connection: sqlite3.Connection, player_id: str, name: str) -> None:
    connection.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))


def bind_seat(connection: sqlite3.Connection, table_id: str, seat: int, player_id: str) -> bool:
    """Give a seat to a player; False if someone holds it already."""
    cursor = connection.execute(
        "INSERT OR IGNORE INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)",
        (table_id, seat, player_id),
    )
    return cursor.rowcount == 1


def bind_seats(connection: sqlite3.Connection, table_id: str, players: dict[int, str]) -> None:
    connection.executemany(
        "INSERT OR IGNORE INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)",
        [(table_id, seat, player_id) for seat, player_id in players.items()],
    )


def finished_of_player(
    connection: sqlite3.Connection, player_id: str, limit: int
) -> list[dict[str, Any]]:
    """The player's ended tables, latest first: spec, status, result, seat, finished_at."""
    rows = connection.execute(
        "SELECT t.id, t.spec, t.status, t.result, t.finished_at, t.rematch, s.seat "
        "FROM seat_players s JOIN tables t ON t.id = s.table_id WHERE s.player_id = ? "
        "AND t.status IN ('finished', 'abandoned') ORDER BY t.finished_at DESC LIMIT ?",
        (player_id, limit),
    ).fetchall()
    holders = seat_holders(connection, [row[0] for row in rows])
    return [
        {"spec": json.loads(spec), "status": status,
         "result": json.loads(result) if result else None, "finished_at": finished_at,
         "rematch": rematch, "seat": seat, "players": holders.get(table_id, {})}
        for table_id, spec, status, result, finished_at, rematch, seat in rows
    ]


# ---------------------------------------------------------------------------- chat
def add_chat(
    connection: sqlite3.Connection, table_id: str, index: int, seat: int | None,
    player_id: str, text: str, at: float,
) -> None:
    connection.execute(
        "INSERT INTO chat (table_id, idx, seat, player_id, text, at) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, index, seat, player_id, text, at),
    )


def recent_chat(connection: sqlite3.Connection, table_id: str) -> list[dict[str, Any]]:
    rows = connection.execute(
        "SELECT c.idx, c.seat, c.player_id, p.name, c.text, c.at FROM chat c "
        "JOIN players p ON p.id = c.player_id WHERE c.table_id = ? "
        "ORDER BY c.idx DESC LIMIT ?",
        (table_id, CHAT_KEPT),
    ).fetchall()
    return [
        {"index": idx, "seat": seat, "player": player_id, "name": name, "text": text, "at": at}
        for idx, seat, player_id, name, text, at in reversed(rows)
    ]


# ---------------------------------------------------------------------------- ratings
def ratings_of(
    connection: sqlite3.Connection, game: str, player_ids: list[str]
) -> dict[str, tuple[float, float, int]]:
    marks = ",".join("?" * len(player_ids))
    rows = connection.execute(
        f"SELECT player_id, mu, sigma, games FROM ratings WHERE game = ? "
        f"AND player_id IN ({marks})",
        (game, *player_ids),
    ).fetchall()
    return {pid: (mu, sigma, games) for pid, mu, sigma, games in rows}


def save_ratings(
    connection: sqlite3.Connection, game: str,
    rows: list[tuple[str, float, float, float, int, bool]],
    table_id: str | None = None, changes: list[dict[str, Any]] | None = None,
) -> None:
    """(player id, mu, sigma, shown, games, won) for each rated seat of one game: `won`
    adds to the player's wins, and the game to those tallied; `changes`, what the game did
    to each seat's rating, are kept with table `table_id`'s result."""
    now = time.time()
    if table_id is not None:
        row = connection.execute("SELECT result FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is not None:
            result = json.loads(row[0]) if row[0] else {}
            result["ratings"] = changes
            connection.execute("UPDATE tables SET result = ? WHERE id = ?",
                               (json.dumps(result), table_id))
    connection.executemany(
        "INSERT INTO ratings (player_id, game, mu, sigma, shown, games, updated_at, wins, "
        "tallied) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (player_id, game) DO UPDATE "
        "SET mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown, "
        "games = excluded.games, updated_at = excluded.updated_at, "
        "wins = ratings.wins + excluded.wins, tallied = ratings.tallied + 1",
        [(pid, game, mu, sigma, shown, games, now, int(won))
         for pid, mu, sigma, shown, games, won in rows],
    )


def player_ratings(connection: sqlite3.Connection, player_id: str) -> list[dict[str, Any]]:
    rows = connection.execute(
        "SELECT game, shown, games, wins, tallied FROM ratings WHERE player_id = ? "
        "ORDER BY game", (player_id,),
    ).fetchall()
    return [{"game": game, "rating": shown, "games": games, "wins": wins, "tallied": tallied}
            for game, shown, games, wins, tallied in rows]


def leaderboard(connection: sqlite3.Connection, game: str, limit: int) -> list[dict[str, Any]]:
    rows = connection.execute(
        "SELECT p.id, p.name, p.bot, r.shown, r.games, r.wins, r.tallied FROM ratings r "
        "JOIN players p ON p.id = r.player_id WHERE r.game = ? "
        "ORDER BY r.shown DESC, r.games DESC LIMIT ?",
        (game, limit),
    ).fetchall()
    out = []
    for rank, (pid, name, bot, shown, games, wins, tallied) in enumerate(rows, start=1):
        player: dict[str, Any] = {"id": pid, "name": name, "bot": bot}
        out.append({"rank": rank, "player": player, "rating": shown, "games": games,
                    "wins": wins, "tallied": tallied})
    return out
