"""The table database on PostgreSQL, shared by several server processes (`--db postgresql://`).

It answers the same jobs as the SQLite store (`Store.call(db.insert_table, ...)`): each job
of ladytiger.web.store has a PostgreSQL twin here, run on a connection of an asyncpg pool.
A job returns only after its transaction committed, so an acknowledged move is in the
database, as with SQLite.

What sharing adds:

* Races are settled by the database. A move is written by one call of the function
  `ladytiger_append`, which locks the table's row first: two processes writing the same
  table queue there. The history index is part of the key of `actions`, so a second move at
  a taken index fails (`WriteConflict`), and a move on a table that has ended is refused.
* Every change of a table sends a notice on the channel `ladytiger` in the same transaction
  (PostgreSQL delivers it only if the transaction commits): "<process> <kind> <table>".
  Each process listens and catches up the tables it holds in memory.
* Each process has a row in `processes` that it touches every `heartbeat_interval`; each
  unfinished table has an `owner`, the process that runs its bots, clock and sweep. A
  process whose row has not been touched for `lease_seconds` is dead: the first live process
  to notice takes its tables over (`take_over`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ladytiger.web import store as db
from ladytiger.web.store import (
    CHAT_KEPT,
    StoreClosedError,
    StoredTable,
    TableDelta,
    WriteConflict,
)

try:  # the `postgres` extra
    import asyncpg
except ImportError:  # pragma: no cover - reported when a PostgreSQL URL is given
    asyncpg = None

log = logging.getLogger("ladytiger.web.store_postgres")
T = TypeVar("T")
CHANNEL = "ladytiger"
ENDED_CODE = "LT409"  # raised by ladytiger_append for a table that has ended
# Changes a notice names. "move": the history, status, rematch or end changed; anything else
# (a seat claimed, joined or bound, a chat line, the start) asks for the whole table.
LIGHT_KINDS = ("move", "ended", "rematch", "rated")
# The most moves written in one group commit (one round trip, one transaction).
MOVES_PER_COMMIT = 256

# Each entry brings a database from the version before it to its own; `start` runs those
# the database has not had yet, under an advisory lock so that processes starting together
# do not run them twice.
MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    started_at DOUBLE PRECISION,
    finished_at DOUBLE PRECISION,
    rematch TEXT,
    result TEXT,
    owner TEXT
);
CREATE INDEX tables_by_status ON tables (status, created_at);
CREATE INDEX tables_by_end ON tables (status, finished_at);
CREATE INDEX tables_by_owner ON tables (owner) WHERE status IN ('waiting', 'playing');
CREATE TABLE seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    token_hash TEXT,
    joined INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE actions (
    table_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action INTEGER NOT NULL,
    actor INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    secret_hash TEXT UNIQUE,
    name TEXT NOT NULL,
    bot TEXT,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE seat_players (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_by_player ON seat_players (player_id, table_id);
CREATE TABLE chat (
    table_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER,
    player_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE ratings (
    player_id TEXT NOT NULL,
    game TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    shown DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_by_game ON ratings (game, shown);
CREATE TABLE processes (
    id TEXT PRIMARY KEY,
    started_at DOUBLE PRECISION NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL
);
-- One move (with the chance outcomes after it) in one round trip: lock the table's row,
-- refuse an ended table, write, and announce, all or nothing.
CREATE FUNCTION ladytiger_append(
    p_table TEXT, p_start INTEGER, p_actions INTEGER[], p_actors INTEGER[], p_status TEXT,
    p_result TEXT, p_joined INTEGER, p_at DOUBLE PRECISION, p_notice TEXT
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    current_status TEXT;
BEGIN
    SELECT status INTO current_status FROM tables WHERE id = p_table FOR UPDATE;
    IF current_status IS NULL OR current_status IN ('finished', 'abandoned') THEN
        RAISE EXCEPTION 'table % has ended or is gone', p_table USING ERRCODE = 'LT409';
    END IF;
    IF p_joined IS NOT NULL THEN
        UPDATE seats SET joined = 1 WHERE table_id = p_table AND seat = p_joined;
    END IF;
    INSERT INTO actions (table_id, idx, action, actor, at)
        SELECT p_table, p_start + n - 1, a, b, p_at
        FROM unnest(p_actions, p_actors) WITH ORDINALITY AS s(a, b, n);
    IF p_status = 'playing' THEN
        UPDATE tables SET status = 'playing', started_at = p_at WHERE id = p_table;
    ELSIF p_status = 'finished' THEN
        UPDATE tables SET status = 'finished', finished_at = p_at, result = p_result
            WHERE id = p_table;
    END IF;
    PERFORM pg_notify('ladytiger', p_notice);
END $$;
""",
    2: """
-- Moves of many tables in one round trip and one commit (the store's group commit): each
-- move is ladytiger_append in a block of its own, so a move refused (its history index
-- taken: 1; its table ended or gone: 2) leaves the others written (0). A move's steps are
-- p_counts[i] entries of the flat p_actions and p_actors, in order.
CREATE FUNCTION ladytiger_append_many(
    p_tables TEXT[], p_starts INTEGER[], p_counts INTEGER[], p_actions INTEGER[],
    p_actors INTEGER[], p_statuses TEXT[], p_results TEXT[], p_joined INTEGER[],
    p_at DOUBLE PRECISION[], p_notices TEXT[]
) RETURNS INTEGER[] LANGUAGE plpgsql AS $$
DECLARE
    outcomes INTEGER[] := '{}';
    taken INTEGER := 0;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_tables, 1), 0) LOOP
        BEGIN
            PERFORM ladytiger_append(
                p_tables[i], p_starts[i], p_actions[taken + 1 : taken + p_counts[i]],
                p_actors[taken + 1 : taken + p_counts[i]], p_statuses[i], p_results[i],
                p_joined[i], p_at[i], p_notices[i]);
            outcomes := outcomes || 0;
        EXCEPTION
            WHEN unique_violation THEN outcomes := outcomes || 1;
            WHEN SQLSTATE 'LT409' THEN outcomes := outcomes || 2;
        END;
        taken := taken + p_counts[i];
    END LOOP;
    RETURN outcomes;
END $$;
""",
    3: """
-- A seat may now be given back before the game begins (leave_seat): a start that was queued
-- behind such a change on the table's row must not deal to an empty seat, so the start is
-- refused (as for a table that ended) unless every human seat has joined.
CREATE OR REPLACE FUNCTION ladytiger_append(
    p_table TEXT, p_start INTEGER, p_actions INTEGER[], p_actors INTEGER[], p_status TEXT,
    p_result TEXT, p_joined INTEGER, p_at DOUBLE PRECISION, p_notice TEXT
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    current_status TEXT;
BEGIN
    SELECT status INTO current_status FROM tables WHERE id = p_table FOR UPDATE;
    IF current_status IS NULL OR current_status IN ('finished', 'abandoned') THEN
        RAISE EXCEPTION 'table % has ended or is gone', p_table USING ERRCODE = 'LT409';
    END IF;
    IF p_joined IS NOT NULL THEN
        UPDATE seats SET joined = 1 WHERE table_id = p_table AND seat = p_joined;
    END IF;
    IF p_status = 'playing' AND current_status = 'waiting' AND EXISTS (
        SELECT 1 FROM seats s JOIN tables t ON t.id = s.table_id
        WHERE s.table_id = p_table AND s.joined = 0
        AND (t.spec::jsonb -> 'seats' -> s.seat ->> 'kind') = 'human'
    ) THEN
        RAISE EXCEPTION 'table % lost a seat before it began', p_table USING ERRCODE = 'LT409';
    END IF;
    INSERT INTO actions (table_id, idx, action, actor, at)
        SELECT p_table, p_start + n - 1, a, b, p_at
        FROM unnest(p_actions, p_actors) WITH ORDINALITY AS s(a, b, n);
    IF p_status = 'playing' THEN
        UPDATE tables SET status = 'playing', started_at = p_at WHERE id = p_table;
    ELSIF p_status = 'finished' THEN
        UPDATE tables SET status = 'finished', finished_at = p_at, result = p_result
            WHERE id = p_table;
    END IF;
    PERFORM pg_notify('ladytiger', p_notice);
END $$;
""",
    4: """
-- A start records the arrival of the last seat with it; that arrival now names the token it
-- came with, and counts only if that token still holds the seat (it may have been given back
-- in another process while the arrival was on its way). Otherwise the start is refused.
DROP FUNCTION ladytiger_append_many(TEXT[], INTEGER[], INTEGER[], INTEGER[], INTEGER[], TEXT[],
    TEXT[], INTEGER[], DOUBLE PRECISION[], TEXT[]);
DROP FUNCTION ladytiger_append(TEXT, INTEGER, INTEGER[], INTEGER[], TEXT, TEXT, INTEGER,
    DOUBLE PRECISION, TEXT);
CREATE FUNCTION ladytiger_append(
    p_table TEXT, p_start INTEGER, p_actions INTEGER[], p_actors INTEGER[], p_status TEXT,
    p_result TEXT, p_joined INTEGER, p_joined_token TEXT, p_at DOUBLE PRECISION,
    p_notice TEXT
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    current_status TEXT;
BEGIN
    SELECT status INTO current_status FROM tables WHERE id = p_table FOR UPDATE;
    IF current_status IS NULL OR current_status IN ('finished', 'abandoned') THEN
        RAISE EXCEPTION 'table % has ended or is gone', p_table USING ERRCODE = 'LT409';
    END IF;
    IF p_joined IS NOT NULL THEN
        UPDATE seats SET joined = 1
            WHERE table_id = p_table AND seat = p_joined AND token_hash = p_joined_token;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'table % lost a seat before it began', p_table
                USING ERRCODE = 'LT409';
        END IF;
    END IF;
    IF p_status = 'playing' AND current_status = 'waiting' AND EXISTS (
        SELECT 1 FROM seats s JOIN tables t ON t.id = s.table_id
        WHERE s.table_id = p_table AND s.joined = 0
        AND (t.spec::jsonb -> 'seats' -> s.seat ->> 'kind') = 'human'
    ) THEN
        RAISE EXCEPTION 'table % lost a seat before it began', p_table USING ERRCODE = 'LT409';
    END IF;
    INSERT INTO actions (table_id, idx, action, actor, at)
        SELECT p_table, p_start + n - 1, a, b, p_at
        FROM unnest(p_actions, p_actors) WITH ORDINALITY AS s(a, b, n);
    IF p_status = 'playing' THEN
        UPDATE tables SET status = 'playing', started_at = p_at WHERE id = p_table;
    ELSIF p_status = 'finished' THEN
        UPDATE tables SET status = 'finished', finished_at = p_at, result = p_result
            WHERE id = p_table;
    END IF;
    PERFORM pg_notify('ladytiger', p_notice);
END $$;
CREATE FUNCTION ladytiger_append_many(
    p_tables TEXT[], p_starts INTEGER[], p_counts INTEGER[], p_actions INTEGER[],
    p_actors INTEGER[], p_statuses TEXT[], p_results TEXT[], p_joined INTEGER[],
    p_joined_tokens TEXT[], p_at DOUBLE PRECISION[], p_notices TEXT[]
) RETURNS INTEGER[] LANGUAGE plpgsql AS $$
DECLARE
    outcomes INTEGER[] := '{}';
    taken INTEGER := 0;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_tables, 1), 0) LOOP
        BEGIN
            PERFORM ladytiger_append(
                p_tables[i], p_starts[i], p_actions[taken + 1 : taken + p_counts[i]],
                p_actors[taken + 1 : taken + p_counts[i]], p_statuses[i], p_results[i],
                p_joined[i], p_joined_tokens[i], p_at[i], p_notices[i]);
            outcomes := outcomes || 0;
        EXCEPTION
            WHEN unique_violation THEN outcomes := outcomes || 1;
            WHEN SQLSTATE 'LT409' THEN outcomes := outcomes || 2;
        END;
        taken := taken + p_counts[i];
    END LOOP;
    RETURN outcomes;
END $$;
""",
    5: """
-- The games a player won on each game, and how many were tallied for it (a database from
-- before counts its earlier games in `games` only).
ALTER TABLE ratings ADD COLUMN wins INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN tallied INTEGER NOT NULL DEFAULT 0;
""",
}
SCHEMA_VERSION = max(MIGRATIONS)
MIGRATION_LOCK = 0x1AD7_16E5  # the advisory lock key migrations run under


def is_postgres_url(text: str) -> bool:
    return text.startswith(("postgresql://", "postgres://"))


def new_process_id() -> str:
    return f"{os.uname().nodename[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


Notice = Callable[[str, str, str], None]  # (kind, table id, detail: see `move_detail`)


class PostgresStore:
    """PostgreSQL behind the server: `await start()`, `await call(job, ...)`, `await close()`."""

    shared = True

    def __init__(self, url: str, pool_size: int = 10, process_id: str | None = None) -> None:
        if asyncpg is None:
            raise RuntimeError("a PostgreSQL database needs the postgres extra: "
                               "pip install 'ladytiger[postgres]'")
        self.url = url
        self.pool_size = max(2, pool_size)
        self.origin = process_id or new_process_id()
        self.started_at = time.time()
        self._pool: Any = None
        self._listener: Any = None
        self._listening: asyncio.Task[None] | None = None
        self._closing = False
        # Set by the hub: called with (kind, table id, detail) for each change another
        # process made, and after a lost listening connection is back (notices may have
        # been missed).
        self.on_notice: Notice | None = None
        self.on_resync: Callable[[], None] | None = None
        self._moves: list[PendingMove] = []
        self._writing: asyncio.Future[None] | None = None
        self.commits = 0
        self.jobs_done = 0
        self.statements = 0  # round trips to the database, for the cost per move
        self.notices_heard = 0

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self._pool = await asyncpg.create_pool(
            self.url, min_size=2, max_size=self.pool_size, reset=keep_session
        )
        async with self._pool.acquire() as connection:
            await migrate(connection)
        await self._listen()

    async def _listen(self) -> None:
        listener = await asyncpg.connect(self.url)
        await listener.add_listener(CHANNEL, self._heard)
        listener.add_termination_listener(self._lost)
        self._listener = listener

    def _heard(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        origin, _, rest = payload.partition(" ")
        if origin == self.origin:
            return  # this process made the change and holds it already
        kind, _, rest = rest.partition(" ")
        table_id, _, detail = rest.partition(" ")
        self.notices_heard += 1
        if self.on_notice is not None:
            try:
                self.on_notice(kind, table_id, detail)
            except Exception:
                log.exception("a notice about table %s could not be handled", table_id)

    def _lost(self, connection: Any) -> None:
        if self._closing:
            return
        log.warning("the connection listening for other processes' changes was lost; "
                    "reconnecting")
        self._listener = None
        if self._listening is None or self._listening.done():
            self._listening = asyncio.ensure_future(self._relisten())

    async def _relisten(self) -> None:
        wait = 0.1
        while not self._closing:
            try:
                await self._listen()
            except (OSError, asyncpg.PostgresError) as error:
                log.warning("cannot listen again yet: %s", error)
                await asyncio.sleep(wait)
                wait = min(wait * 2, 5.0)
                continue
            if self.on_resync is not None:
                self.on_resync()
            return

    async def close(self) -> None:
        if self._writing is not None and not self._writing.done():
            await asyncio.wait([self._writing])  # queued moves are committed first
        self._closing = True
        if self._listening is not None:
            self._listening.cancel()
        if self._listener is not None:
            try:
                await self._listener.close(timeout=5)
            except Exception:
                self._listener.terminate()
            self._listener = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    # ------------------------------------------------------------------ jobs
    async def call(self, job: Callable[..., T], *args: Any) -> T:
        """Run the PostgreSQL twin of `job` (a job of ladytiger.web.store) with `args`;
        return once it is committed."""
        twin = JOBS.get(job) or JOBS_BY_NAME.get(getattr(job, "__name__", ""))
        if twin is None:
            raise TypeError(f"{getattr(job, '__name__', job)!r} has no PostgreSQL version")
        if self._pool is None:
            raise StoreClosedError("the store is closed")
        if twin is append_actions:
            await self._append(PendingMove.of(self, *args))
            self.jobs_done += 1
            return None  # type: ignore[return-value]
        async with self._pool.acquire() as connection:
            result = await twin(self, connection, *args)
        self.commits += 1
        self.jobs_done += 1
        return result  # type: ignore[no-any-return]

    async def _append(self, move: PendingMove) -> None:
        """Queue a move for the next group commit and return once it is committed (or
        raise what refused it)."""
        move.done = asyncio.get_running_loop().create_future()
        self._moves.append(move)
        if self._writing is None or self._writing.done():
            self._writing = asyncio.ensure_future(self._write_moves())
        await move.done

    async def _write_moves(self) -> None:
        # One batch in flight at a time: the moves made while it commits wait for the
        # next one, so a busy server writes many moves per round trip and per commit,
        # and a quiet one still writes each move at once.
        while self._moves:
            batch = self._moves[:MOVES_PER_COMMIT]
            del self._moves[:MOVES_PER_COMMIT]
            # Tables are locked in one order (by id) by every process: no deadlock
            # between two processes' batches. The sort is stable: a table's moves keep
            # their order.
            batch.sort(key=lambda move: move.table_id)
            try:
                outcomes = await self._write_batch(batch)
            except Exception as error:  # the whole batch failed: each move reports it
                for move in batch:
                    if not move.done.done():
                        move.done.set_exception(error)
                continue
            for move, outcome in zip(batch, outcomes, strict=True):
                if move.done.done():  # its caller gave up waiting
                    continue
                if outcome == 0:
                    move.done.set_result(None)
                elif outcome == 1:
                    move.done.set_exception(WriteConflict(
                        f"table {move.table_id}: history index {move.start} is taken"))
                else:
                    move.done.set_exception(
                        WriteConflict(f"table {move.table_id} has ended or is gone"))

    async def _write_batch(self, batch: list[PendingMove]) -> list[int]:
        if self._pool is None:
            raise StoreClosedError("the store is closed")
        async with self._pool.acquire() as connection:
            self.statements += 1
            outcomes = await connection.fetchval(
                "SELECT ladytiger_append_many($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                [move.table_id for move in batch],
                [move.start for move in batch],
                [len(move.actions) for move in batch],
                [action for move in batch for action in move.actions],
                [actor for move in batch for actor in move.actors],
                [move.status for move in batch],
                [move.result for move in batch],
                [move.joined for move in batch],
                [move.joined_token for move in batch],
                [move.at for move in batch],
                [move.notice for move in batch],
            )
        self.commits += 1
        return list(outcomes)

    def notice(self, kind: str, table_id: str, detail: str = "") -> str:
        return f"{self.origin} {kind} {table_id}" + (f" {detail}" if detail else "")

    async def _notify(self, connection: Any, kind: str, table_id: str) -> None:
        self.statements += 1
        await connection.execute("SELECT pg_notify($1, $2)", CHANNEL,
                                 self.notice(kind, table_id))

    # ------------------------------------------------------------------ several processes
    async def heartbeat(self) -> bool:
        """Say this process is alive; False if the others had given it up for dead (its
        tables are theirs now: the caller must let them go)."""
        async with self._pool.acquire() as connection:
            self.statements += 1
            touched = await connection.fetchval(
                "UPDATE processes SET seen_at = clock_timestamp() WHERE id = $1 RETURNING 1",
                self.origin)
            if touched:
                return True
            self.statements += 1
            await connection.execute(
                "INSERT INTO processes (id, started_at, seen_at) VALUES ($1, $2, "
                "clock_timestamp()) ON CONFLICT (id) DO UPDATE SET seen_at = clock_timestamp()",
                self.origin, self.started_at)
            return False

    async def take_over(self, lease_seconds: float) -> list[str]:
        """Make this process the owner of every unfinished table whose owner is gone (its
        row not touched for `lease_seconds`, or none at all); the tables taken."""
        async with self._pool.acquire() as connection, connection.transaction():
            self.statements += 2
            await connection.execute(
                "DELETE FROM processes WHERE seen_at < clock_timestamp() - "
                "make_interval(secs => $1)", lease_seconds)
            rows = await connection.fetch(
                "UPDATE tables SET owner = $1 WHERE status IN ('waiting', 'playing') "
                "AND (owner IS NULL OR NOT EXISTS "
                "(SELECT 1 FROM processes p WHERE p.id = tables.owner)) RETURNING id",
                self.origin)
        return [row["id"] for row in rows]

    async def owned(self) -> set[str]:
        async with self._pool.acquire() as connection:
            self.statements += 1
            rows = await connection.fetch(
                "SELECT id FROM tables WHERE owner = $1 AND status IN ('waiting', 'playing')",
                self.origin)
        return {row["id"] for row in rows}

    async def let_go(self) -> None:
        """On a clean shutdown: leave this process's tables to the others at once."""
        if self._pool is None:
            return
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "UPDATE tables SET owner = NULL WHERE owner = $1 "
                "AND status IN ('waiting', 'playing')", self.origin)
            await connection.execute("DELETE FROM processes WHERE id = $1", self.origin)
            await connection.execute("SELECT pg_notify($1, $2)", CHANNEL,
                                     self.notice("released", "*"))

    async def unfinished_ids(self, status: str, limit: int) -> list[str]:
        """Ids of the newest unfinished tables with `status`, whichever process owns them."""
        async with self._pool.acquire() as connection:
            self.statements += 1
            rows = await connection.fetch(
                "SELECT id FROM tables WHERE status = $1 ORDER BY created_at DESC LIMIT $2",
                status, limit)
        return [row["id"] for row in rows]

    async def unfinished_of_player(self, player_id: str) -> list[str]:
        async with self._pool.acquire() as connection:
            self.statements += 1
            rows = await connection.fetch(
                "SELECT t.id FROM seat_players s JOIN tables t ON t.id = s.table_id "
                "WHERE s.player_id = $1 AND t.status IN ('waiting', 'playing')", player_id)
        return [row["id"] for row in rows]


async def migrate(connection: Any) -> int:
    """Bring the database's schema up to SCHEMA_VERSION; the version it had."""
    await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS ladytiger_schema (version INTEGER NOT NULL)")
        found = await connection.fetchval("SELECT max(version) FROM ladytiger_schema") or 0
        if found > SCHEMA_VERSION:
            raise RuntimeError(f"the database has schema {found}; this server knows up to "
                               f"{SCHEMA_VERSION}: run a newer server")
        for version in range(found + 1, SCHEMA_VERSION + 1):
            async with connection.transaction():
                await connection.execute(MIGRATIONS[version])
                await connection.execute("INSERT INTO ladytiger_schema VALUES ($1)", version)
            log.info("database schema brought to version %d", version)
        return int(found)
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


async def keep_session(connection: Any) -> None:
    """How a pooled connection is made ready for its next job: nothing beyond what asyncpg
    always does (roll back a transaction left open).

    asyncpg's default also sends `RESET ALL`, `UNLISTEN *`, `CLOSE ALL` and the release of
    advisory locks on every release: a round trip and a transaction of its own, as many as
    the jobs themselves (half of the database's transactions per move). No job leaves any of
    that behind: none sets a session variable, listens (the listener has its own
    connection), opens a cursor, or keeps an advisory lock (migrations release theirs in a
    `finally`).
    """


# ---------------------------------------------------------------------------- the jobs
# Each takes (store, connection, *the arguments of its SQLite twin).
Connection = Any


async def insert_table(store: PostgresStore, connection: Connection, spec: dict[str, Any],
                       token_hashes: list[str | None]) -> None:
    async with connection.transaction():
        store.statements += 2
        await connection.execute(
            "INSERT INTO tables (id, game, spec, status, created_at, owner) "
            "VALUES ($1, $2, $3, 'waiting', $4, $5)",
            spec["id"], spec["game"], json.dumps(spec), spec["created_at"], store.origin)
        await connection.executemany(
            "INSERT INTO seats (table_id, seat, token_hash) VALUES ($1, $2, $3)",
            [(spec["id"], seat, digest) for seat, digest in enumerate(token_hashes)])
        if spec.get("rematch_of"):
            # A finished table has one rematch: of two processes making it at once, the
            # second finds the place taken, and its new table is rolled back.
            store.statements += 1
            done = await connection.fetchval(
                "UPDATE tables SET rematch = $2 WHERE id = $1 AND rematch IS NULL RETURNING 1",
                spec["rematch_of"], spec["id"])
            if not done:
                raise WriteConflict(f"table {spec['rematch_of']} has its rematch already")
            await store._notify(connection, "rematch", spec["rematch_of"])


# PostgreSQL refuses a notice payload of 8,000 bytes or more; a move's detail is kept well
# under, and a longer one (a long run of chance outcomes) is left out: it is then read back.
MOVE_DETAIL_MOST = 2000


def move_detail(start: int, steps: list[tuple[int, int]], at: float) -> str:
    """A move's steps for its notice: "START AT ACTION:ACTOR,ACTION:ACTOR..." ("" when too
    long to send)."""
    text = f"{start} {at!r} " + ",".join(f"{action}:{actor}" for action, actor in steps)
    return text if len(text) <= MOVE_DETAIL_MOST else ""


def read_move_detail(detail: str) -> tuple[int, float, list[tuple[int, int]]] | None:
    """`move_detail` read back: (start, at, steps), or None for no or a garbled detail."""
    try:
        start, at, listed = detail.split(" ")
        steps = [(int(action), int(actor)) for action, actor in
                 (step.split(":") for step in listed.split(","))]
        return int(start), float(at), steps
    except ValueError:
        return None


@dataclass(slots=True)
class PendingMove:
    """A move waiting for the store's next group commit (`PostgresStore._append`)."""

    table_id: str
    start: int
    actions: list[int]
    actors: list[int]
    status: str | None
    result: str | None
    joined: int | None
    joined_token: str | None
    at: float
    notice: str
    done: asyncio.Future[None] = field(init=False)

    @classmethod
    def of(
        cls, store: PostgresStore, table_id: str, start: int, steps: Iterable[tuple[int, int]],
        status: str | None = None, result: dict[str, Any] | None = None,
        joined: tuple[int, str] | None = None,
    ) -> PendingMove:
        """The move `append_actions` is asked to write, with its notice."""
        steps = list(steps)
        kind = "move" if joined is None and status != "playing" else "start"
        # A plain move travels in its notice, so the processes holding a copy of the table
        # apply it without reading it back; a start or an end (more than moves) is read
        # back.
        now = time.time()
        detail = move_detail(start, steps, now) if kind == "move" and status is None else ""
        return cls(
            table_id, start, [action for action, _ in steps], [actor for _, actor in steps],
            status, json.dumps(result) if status == "finished" else None,
            None if joined is None else joined[0], None if joined is None else joined[1], now,
            store.notice(kind, table_id, detail),
        )


async def append_actions(
    store: PostgresStore, connection: Connection, table_id: str, start: int,
    steps: Iterable[tuple[int, int]], status: str | None = None,
    result: dict[str, Any] | None = None, joined: tuple[int, str] | None = None,
) -> None:
    """One move on its own connection and commit. The server goes through
    `PostgresStore.call`, which gathers moves into group commits instead; this is the
    job's twin for the table of jobs and for a caller holding a connection already."""
    move = PendingMove.of(store, table_id, start, steps, status, result, joined)
    store.statements += 1
    try:
        await connection.execute(
            "SELECT ladytiger_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            move.table_id, move.start, move.actions, move.actors, move.status, move.result,
            move.joined, move.joined_token, move.at, move.notice)
    except asyncpg.UniqueViolationError:
        raise WriteConflict(f"table {table_id}: history index {start} is taken") from None
    except asyncpg.PostgresError as error:
        if getattr(error, "sqlstate", None) == ENDED_CODE:
            raise WriteConflict(f"table {table_id} has ended or is gone") from None
        raise


async def mark_joined(store: PostgresStore, connection: Connection, table_id: str,
                      seat: int, digest: str) -> bool:
    """Record the token's arrival; False when the seat is no longer that token's."""
    return await _seat_change_once(
        store, connection, table_id,
        "UPDATE seats SET joined = 1 WHERE table_id = $1 AND seat = $2 AND token_hash = $3 "
        "RETURNING 1", table_id, seat, digest)


async def _seat_change_once(store: PostgresStore, connection: Connection, table_id: str,
                            sql: str, *args: Any) -> bool:
    """A seat change that may find it was already made (then nothing changes); a change is
    told to the other processes in the same transaction."""
    async with connection.transaction():
        store.statements += 1
        done = await connection.fetchval(sql, *args)
        if done:
            await store._notify(connection, "seat", table_id)
        return bool(done)


async def claim_seat(store: PostgresStore, connection: Connection, table_id: str, seat: int,
                     digest: str) -> bool:
    return await _seat_change_once(
        store, connection, table_id,
        "UPDATE seats SET token_hash = $3 WHERE table_id = $1 AND seat = $2 "
        "AND token_hash IS NULL RETURNING 1", table_id, seat, digest)


async def release_seat(store: PostgresStore, connection: Connection, table_id: str, seat: int,
                       digest: str) -> None:
    async with connection.transaction():
        store.statements += 1
        await connection.execute(
            "UPDATE seats SET token_hash = NULL WHERE table_id = $1 AND seat = $2 "
            "AND token_hash = $3 AND joined = 0", table_id, seat, digest)
        await store._notify(connection, "seat", table_id)


async def _still_waiting(connection: Connection, table_id: str) -> bool:
    """Lock the table's row for the rest of the transaction and say whether it still waits
    for players. A start takes the same lock (ladytiger_append), so it is ordered after."""
    status = await connection.fetchval(
        "SELECT status FROM tables WHERE id = $1 FOR UPDATE", table_id)
    return bool(status == "waiting")


async def leave_seat(store: PostgresStore, connection: Connection, table_id: str, seat: int,
                     digest: str) -> bool:
    """Give back a lobby seat while the table waits; False when the game began first. The
    table's row is locked as a move's is: a start queued behind this sees the seat empty
    (ladytiger_append refuses to start a table with a human seat not joined)."""
    async with connection.transaction():
        store.statements += 1
        if not await _still_waiting(connection, table_id):
            return False
        done = await connection.fetchval(
            "UPDATE seats SET token_hash = NULL, joined = 0 WHERE table_id = $1 AND seat = $2 "
            "AND token_hash = $3 RETURNING 1", table_id, seat, digest)
        if not done:
            return False
        await connection.execute(
            "DELETE FROM seat_players WHERE table_id = $1 AND seat = $2", table_id, seat)
        await store._notify(connection, "seat", table_id)
        return True


async def abandon_table(store: PostgresStore, connection: Connection, table_id: str,
                        reason: str) -> bool:
    """End an unfinished table without a result; False if it had ended already."""
    async with connection.transaction():
        store.statements += 1
        done = await connection.execute(
            "UPDATE tables SET status = 'abandoned', finished_at = $2, result = $3 "
            "WHERE id = $1 AND status NOT IN ('finished', 'abandoned')",
            table_id, time.time(), json.dumps({"abandoned": reason}))
        await store._notify(connection, "ended", table_id)
    return done == "UPDATE 1"


async def restart_table(store: PostgresStore, connection: Connection, table_id: str,
                        absent: list[int], reason: str, spec: dict[str, Any],
                        token_hashes: list[str | None]) -> bool:
    async with connection.transaction():
        store.statements += 2
        if not await _still_waiting(connection, table_id):
            return False
        arrived = await connection.fetchval(
            "SELECT count(*) FROM seats WHERE table_id = $1 AND joined = 1 "
            "AND seat = ANY($2::integer[])", table_id, list(absent))
        if arrived:
            return False
        await abandon_table(store, connection, table_id, reason)
        await insert_table(store, connection, spec, token_hashes)
    return True


async def delete_ended_before(store: PostgresStore, connection: Connection, before: float,
                              limit: int) -> list[str]:
    async with connection.transaction():
        store.statements += 1
        rows = await connection.fetch(
            "SELECT id FROM tables WHERE status IN ('finished', 'abandoned') "
            "AND finished_at < $1 ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED",
            before, limit)
        ids = [row["id"] for row in rows]
        if ids:
            for kept in ("actions", "seats", "seat_players", "chat"):
                store.statements += 1
                await connection.execute(f"DELETE FROM {kept} WHERE table_id = ANY($1)", ids)
            store.statements += 1
            await connection.execute("DELETE FROM tables WHERE id = ANY($1)", ids)
    return ids


async def set_rematch(store: PostgresStore, connection: Connection, table_id: str,
                      rematch_id: str) -> None:
    async with connection.transaction():
        store.statements += 1
        await connection.execute("UPDATE tables SET rematch = $2 WHERE id = $1",
                                 table_id, rematch_id)
        await store._notify(connection, "rematch", table_id)


_COLUMNS = "id, spec, status, rematch, finished_at, result, created_at"


async def _read_table(store: PostgresStore, connection: Connection, row: Any) -> StoredTable:
    table_id = row["id"]
    store.statements += 4
    seats = await connection.fetch(
        "SELECT token_hash, joined FROM seats WHERE table_id = $1 ORDER BY seat", table_id)
    actions = await connection.fetch(
        "SELECT action, actor, at FROM actions WHERE table_id = $1 ORDER BY idx", table_id)
    players: list[tuple[str, str, str | None] | None] = [None] * len(seats)
    for held in await connection.fetch(
        "SELECT s.seat, p.id, p.name, p.bot FROM seat_players s JOIN players p "
        "ON p.id = s.player_id WHERE s.table_id = $1", table_id,
    ):
        if 0 <= held["seat"] < len(players):
            players[held["seat"]] = (held["id"], held["name"], held["bot"])
    chat_count = await connection.fetchval("SELECT count(*) FROM chat WHERE table_id = $1",
                                           table_id)
    status, result = row["status"], row["result"]
    stored_result = json.loads(result) if result else {}
    ended = stored_result if status == "abandoned" else {}
    return StoredTable(
        spec=json.loads(row["spec"]),
        status=status,
        token_hashes=[seat["token_hash"] for seat in seats],
        joined=[bool(seat["joined"]) for seat in seats],
        actions=[(a["action"], a["actor"]) for a in actions],
        rematch=row["rematch"],
        finished_at=row["finished_at"],
        ended_reason=ended.get("abandoned"),
        last_activity=actions[-1]["at"] if actions else row["created_at"],
        ratings=stored_result.get("ratings"),
        players=players,
        chat=await recent_chat(store, connection, table_id) if chat_count else [],
        chat_count=chat_count,
    )


async def load_table(store: PostgresStore, connection: Connection,
                     table_id: str) -> StoredTable | None:
    async with connection.transaction(isolation="repeatable_read", readonly=True):
        store.statements += 1
        row = await connection.fetchrow(f"SELECT {_COLUMNS} FROM tables WHERE id = $1",
                                        table_id)
        return None if row is None else await _read_table(store, connection, row)


async def load_unfinished(store: PostgresStore, connection: Connection) -> list[StoredTable]:
    """The unfinished tables this process owns (see `PostgresStore.take_over`)."""
    async with connection.transaction(isolation="repeatable_read", readonly=True):
        store.statements += 1
        rows = await connection.fetch(
            f"SELECT {_COLUMNS} FROM tables WHERE status IN ('waiting', 'playing') "
            "AND owner = $1 ORDER BY created_at", store.origin)
        return [await _read_table(store, connection, row) for row in rows]


async def table_delta(store: PostgresStore, connection: Connection, table_id: str,
                      actions_from: int, chat_from: int, full: bool) -> TableDelta | None:
    async with connection.transaction(isolation="repeatable_read", readonly=True):
        store.statements += 2
        row = await connection.fetchrow(
            "SELECT status, rematch, finished_at, result FROM tables WHERE id = $1", table_id)
        if row is None:
            return None
        actions = await connection.fetch(
            "SELECT action, actor, at FROM actions WHERE table_id = $1 AND idx >= $2 "
            "ORDER BY idx", table_id, actions_from)
        status, result = row["status"], row["result"]
        stored_result = json.loads(result) if result else {}
        ended = stored_result if status == "abandoned" else {}
        delta = TableDelta(
            status=status, finished_at=row["finished_at"],
            ended_reason=ended.get("abandoned"), rematch=row["rematch"],
            ratings=stored_result.get("ratings"),
            actions=[(a["action"], a["actor"]) for a in actions],
            last_activity=actions[-1]["at"] if actions else None,
        )
        if full:
            store.statements += 4
            seats = await connection.fetch(
                "SELECT token_hash, joined FROM seats WHERE table_id = $1 ORDER BY seat",
                table_id)
            delta.token_hashes = [seat["token_hash"] for seat in seats]
            delta.joined = [bool(seat["joined"]) for seat in seats]
            players: list[tuple[str, str, str | None] | None] = [None] * len(seats)
            for held in await connection.fetch(
                "SELECT s.seat, p.id, p.name, p.bot FROM seat_players s JOIN players p "
                "ON p.id = s.player_id WHERE s.table_id = $1", table_id,
            ):
                if 0 <= held["seat"] < len(players):
                    players[held["seat"]] = (held["id"], held["name"], held["bot"])
            delta.players = players
            delta.chat_count = await connection.fetchval(
                "SELECT count(*) FROM chat WHERE table_id = $1", table_id)
            lines = await connection.fetch(
                "SELECT c.idx, c.seat, c.player_id, p.name, c.text, c.at FROM chat c "
                "JOIN players p ON p.id = c.player_id WHERE c.table_id = $1 AND c.idx >= $2 "
                "ORDER BY c.idx DESC LIMIT $3", table_id, chat_from, CHAT_KEPT)
            delta.chat = [_chat_line(line) for line in reversed(lines)]
        return delta


def _chat_line(row: Any) -> dict[str, Any]:
    return {"index": row["idx"], "seat": row["seat"], "player": row["player_id"],
            "name": row["name"], "text": row["text"], "at": row["at"]}


async def recent_finished(store: PostgresStore, connection: Connection, limit: int,
                          status: str = "finished") -> list[dict[str, Any]]:
    store.statements += 1
    rows = await connection.fetch(
        "SELECT id, spec, finished_at, result, rematch FROM tables WHERE status = $1 "
        "ORDER BY finished_at DESC LIMIT $2", status, limit)
    holders = await seat_holders(store, connection, [row["id"] for row in rows])
    return [
        {"spec": json.loads(row["spec"]), "finished_at": row["finished_at"],
         "result": json.loads(row["result"]), "rematch": row["rematch"],
         "players": holders.get(row["id"], {})}
        for row in rows
    ]


async def seat_holders(store: PostgresStore, connection: Connection,
                       table_ids: list[str]) -> dict[str, dict[int, tuple[str, str]]]:
    found: dict[str, dict[int, tuple[str, str]]] = {}
    if not table_ids:
        return found
    store.statements += 1
    for row in await connection.fetch(
        "SELECT s.table_id, s.seat, p.id, p.name FROM seat_players s JOIN players p "
        "ON p.id = s.player_id WHERE s.table_id = ANY($1)", table_ids,
    ):
        found.setdefault(row["table_id"], {})[row["seat"]] = (row["id"], row["name"])
    return found


# ---------------------------------------------------------------------------- players
async def insert_player(store: PostgresStore, connection: Connection, player_id: str,
                        secret_hash: str | None, name: str, bot: str | None,
                        created_at: float) -> None:
    store.statements += 1
    await connection.execute(
        "INSERT INTO players (id, secret_hash, name, bot, created_at) VALUES ($1, $2, $3, $4, "
        "$5) ON CONFLICT DO NOTHING", player_id, secret_hash, name, bot, created_at)


def _player_row(row: Any) -> db.PlayerRow | None:
    return None if row is None else (row["id"], row["name"], row["bot"], row["created_at"])


async def player_by_secret(store: PostgresStore, connection: Connection,
                           secret_hash: str) -> db.PlayerRow | None:
    store.statements += 1
    return _player_row(await connection.fetchrow(
        "SELECT id, name, bot, created_at FROM players WHERE secret_hash = $1", secret_hash))


async def player_by_id(store: PostgresStore, connection: Connection,
                       player_id: str) -> db.PlayerRow | None:
    store.statements += 1
    return _player_row(await connection.fetchrow(
        "SELECT id, name, bot, created_at FROM players WHERE id = $1", player_id))


async def rename_player(store: PostgresStore, connection: Connection, player_id: str,
                        name: str) -> None:
    store.statements += 1
    await connection.execute("UPDATE players SET name = $2 WHERE id = $1", player_id, name)


async def bind_seat(store: PostgresStore, connection: Connection, table_id: str, seat: int,
                    player_id: str) -> bool:
    return await _seat_change_once(
        store, connection, table_id,
        "INSERT INTO seat_players (table_id, seat, player_id) VALUES ($1, $2, $3) "
        "ON CONFLICT DO NOTHING RETURNING 1", table_id, seat, player_id)


async def bind_seats(store: PostgresStore, connection: Connection, table_id: str,
                     players: dict[int, str]) -> None:
    async with connection.transaction():
        store.statements += 1
        await connection.executemany(
            "INSERT INTO seat_players (table_id, seat, player_id) VALUES ($1, $2, $3) "
            "ON CONFLICT DO NOTHING",
            [(table_id, seat, player_id) for seat, player_id in players.items()])
        await store._notify(connection, "seat", table_id)


async def finished_of_player(store: PostgresStore, connection: Connection, player_id: str,
                             limit: int) -> list[dict[str, Any]]:
    store.statements += 1
    rows = await connection.fetch(
        "SELECT t.id, t.spec, t.status, t.result, t.finished_at, t.rematch, s.seat "
        "FROM seat_players s JOIN tables t ON t.id = s.table_id WHERE s.player_id = $1 "
        "AND t.status IN ('finished', 'abandoned') ORDER BY t.finished_at DESC LIMIT $2",
        player_id, limit)
    holders = await seat_holders(store, connection, [row["id"] for row in rows])
    return [
        {"spec": json.loads(row["spec"]), "status": row["status"],
         "result": json.loads(row["result"]) if row["result"] else None,
         "finished_at": row["finished_at"], "rematch": row["rematch"], "seat": row["seat"],
         "players": holders.get(row["id"], {})}
        for row in rows
    ]


# ---------------------------------------------------------------------------- chat
async def add_chat(store: PostgresStore, connection: Connection, table_id: str, index: int,
                   seat: int | None, player_id: str, text: str, at: float) -> None:
    async with connection.transaction():
        store.statements += 1
        try:
            await connection.execute(
                "INSERT INTO chat (table_id, idx, seat, player_id, text, at) "
                "VALUES ($1, $2, $3, $4, $5, $6)", table_id, index, seat, player_id, text, at)
        except asyncpg.UniqueViolationError:
            raise WriteConflict(f"table {table_id}: chat line {index} is taken") from None
        await store._notify(connection, "chat", table_id)


async def recent_chat(store: PostgresStore, connection: Connection,
                      table_id: str) -> list[dict[str, Any]]:
    store.statements += 1
    rows = await connection.fetch(
        "SELECT c.idx, c.seat, c.player_id, p.name, c.text, c.at FROM chat c "
        "JOIN players p ON p.id = c.player_id WHERE c.table_id = $1 "
        "ORDER BY c.idx DESC LIMIT $2", table_id, CHAT_KEPT)
    return [_chat_line(row) for row in reversed(rows)]


# ---------------------------------------------------------------------------- ratings
async def ratings_of(store: PostgresStore, connection: Connection, game: str,
                     player_ids: list[str]) -> dict[str, tuple[float, float, int]]:
    store.statements += 1
    rows = await connection.fetch(
        "SELECT player_id, mu, sigma, games FROM ratings WHERE game = $1 "
        "AND player_id = ANY($2)", game, player_ids)
    return {row["player_id"]: (row["mu"], row["sigma"], row["games"]) for row in rows}


async def save_ratings(store: PostgresStore, connection: Connection, game: str,
                       rows: list[tuple[str, float, float, float, int, bool]],
                       table_id: str | None = None,
                       changes: list[dict[str, Any]] | None = None) -> None:
    now = time.time()
    async with connection.transaction():
        store.statements += 1
        await connection.executemany(
            "INSERT INTO ratings (player_id, game, mu, sigma, shown, games, updated_at, wins, "
            "tallied) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1) "
            "ON CONFLICT (player_id, game) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown, "
            "games = excluded.games, updated_at = excluded.updated_at, "
            "wins = ratings.wins + excluded.wins, tallied = ratings.tallied + 1",
            [(pid, game, mu, sigma, shown, games, now, int(won))
             for pid, mu, sigma, shown, games, won in rows])
        if table_id is not None:
            store.statements += 2
            found = await connection.fetchval(
                "SELECT result FROM tables WHERE id = $1 FOR UPDATE", table_id)
            result = json.loads(found) if found else {}
            result["ratings"] = changes
            await connection.execute("UPDATE tables SET result = $2 WHERE id = $1",
                                     table_id, json.dumps(result))
            await store._notify(connection, "rated", table_id)


async def player_ratings(store: PostgresStore, connection: Connection,
                         player_id: str) -> list[dict[str, Any]]:
    store.statements += 1
    rows = await connection.fetch(
        "SELECT game, shown, games, wins, tallied FROM ratings WHERE player_id = $1 "
        "ORDER BY game", player_id)
    return [{"game": row["game"], "rating": row["shown"], "games": row["games"],
             "wins": row["wins"], "tallied": row["tallied"]} for row in rows]


async def leaderboard(store: PostgresStore, connection: Connection, game: str,
                      limit: int) -> list[dict[str, Any]]:
    store.statements += 1
    rows = await connection.fetch(
        "SELECT p.id, p.name, p.bot, r.shown, r.games, r.wins, r.tallied FROM ratings r "
        "JOIN players p ON p.id = r.player_id WHERE r.game = $1 "
        "ORDER BY r.shown DESC, r.games DESC LIMIT $2", game, limit)
    return [
        {"rank": rank, "player": {"id": row["id"], "name": row["name"], "bot": row["bot"]},
         "rating": row["shown"], "games": row["games"], "wins": row["wins"],
         "tallied": row["tallied"]}
        for rank, row in enumerate(rows, start=1)
    ]


# Each job of ladytiger.web.store and its twin here. By name too: a test may put a wrapper
# of a job in the store module's place.
JOBS: dict[Any, Any] = {
    getattr(db, twin.__name__): twin
    for twin in (
        insert_table, append_actions, mark_joined, claim_seat, release_seat, leave_seat,
        abandon_table, restart_table, delete_ended_before, set_rematch, load_table,
        load_unfinished, table_delta,
        recent_finished, seat_holders, insert_player, player_by_secret, player_by_id,
        rename_player, bind_seat, bind_seats, finished_of_player, add_chat, recent_chat,
        ratings_of, save_ratings, player_ratings, leaderboard,
    )
}
JOBS_BY_NAME = {job.__name__: twin for job, twin in JOBS.items()}
