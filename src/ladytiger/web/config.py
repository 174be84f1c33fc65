"""The server's settings, with the defaults `ladytiger serve` uses.

Every limit the server enforces is a setting here; docs/protocol.md ("Limits") lists each
one with its default and what a client gets when it reaches it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

DAY = 24 * 3600.0


@dataclass(frozen=True)
class Settings:
    db_path: str = "ladytiger.sqlite3"
    # Seconds a bot waits before moving, so humans can follow; a table may set its own (its
    # pace). About the time a person needs to see what the last move changed.
    bot_pause: float = 1.0
    # After a moment (a contest, day, season, round or trick scored, a Try! or Jack!, the
    # end) the next bot move waits this long at most, or until every connected human seat
    # has said it has seen the moment. Tables whose bots do not pause skip this wait too.
    moment_pause: float = 4.0
    bot_workers: int = 2
    # "process": bots think in worker processes, so a search bot never holds the interpreter
    # the server's event loop runs in; "thread" is cheaper for light bots (and tests).
    bot_pool: str = "process"
    # SQLite's synchronous setting under WAL: FULL survives power loss, NORMAL survives a
    # crash of the server process (every acknowledged move is in the WAL either way).
    synchronous: str = "FULL"
    # Generous enough for a remote bot that plays as fast as the round trip allows.
    messages_per_second: float = 200.0
    message_burst: float = 400.0
    # Throttled messages a connection may send before it is closed.
    throttle_limit: int = 200
    # Malformed or refused messages a connection may send before it is closed.
    bad_message_limit: int = 20
    hello_timeout: float = 10.0
    outbox_limit: int = 256
    max_active_tables: int = 5000
    finished_cache: int = 256
    # Tune Python's garbage collector for a long-running server (ladytiger.web.collector).
    # Off by default so that an app made inside another program (a test) leaves the
    # process's collector alone; `ladytiger serve` turns it on.
    tune_collector: bool = False

    # ---------------------------------------------------------------- bots' budgets
    # The most a bot seat may be given to think per move, whatever its options ask.
    bot_max_seconds: float = 5.0
    bot_max_iterations: int = 5_000
    # A bot move still running after this many seconds is stopped (its worker process is
    # killed) and a random legal move is played for the seat instead.
    bot_move_timeout: float = 15.0

    # ---------------------------------------------------------------- who may create what
    # Unfinished tables one client address may have created and still open.
    tables_per_client: int = 20
    # Tables created or seats claimed per client address: a sustained rate and a burst.
    creates_per_minute: float = 20.0
    create_burst: int = 20
    # New players per client address (a browser makes one on its first visit).
    players_per_minute: float = 10.0
    player_burst: int = 10
    # Addresses of reverse proxies whose X-Forwarded-For header is believed, comma-separated
    # ("*": any). Empty: none, so a client cannot pose as another address.
    trusted_proxies: str = ""

    # ---------------------------------------------------------------- table lifecycle
    # A table still waiting for players this long after its creation expires.
    waiting_expiry: float = 30 * 60.0
    # An unfinished game with no human seat connected for this long ends as abandoned.
    abandon_after: float = DAY
    # Finished and abandoned tables are deleted this long after they ended (0: kept forever).
    finished_retention: float = 365 * DAY
    # A human seat with no connection for this long may be handed to a stand-in bot (the
    # casual level) by another player at the table, until its human comes back (0: never).
    away_grace: float = 60.0
    # A lobby seat claimed but never connected to is given back after this long.
    seat_claim_timeout: float = 120.0
    # How often the server looks for tables to expire, abandon, release or delete.
    sweep_interval: float = 30.0

    # ---------------------------------------------------------------- replays
    # History entries (moves and chance outcomes) of an uploaded record.
    max_record_moves: int = 5000
    # Replay computations waiting or running at once, beyond which a replay request is
    # refused as busy; they run in their own worker thread, off the event loop.
    replay_queue: int = 8
    # Replay requests per client address: a sustained rate and a burst.
    replays_per_minute: float = 60.0
    replay_burst: int = 20
    # Replay views of finished tables kept computed.
    replay_cache: int = 512

    # ---------------------------------------------------------------- connections
    # Seconds a new HTTP connection may take to send its request's headers, and an idle
    # keep-alive connection stays open.
    header_timeout: float = 10.0
    keep_alive_timeout: float = 5.0
    # Open connections (HTTP and WebSocket) the server accepts at once.
    max_connections: int = 4000
    # Presence (who is connected) goes out at most once per table per this many seconds.
    presence_interval: float = 0.25
    # Spectators one table accepts at once.
    max_spectators: int = 200

    # ---------------------------------------------------------------- hints
    # Hints one seat may ask for (ladytiger.bots.advice): a sustained rate and a burst. Asking
    # again about the same position is answered from memory and not counted.
    hints_per_minute: float = 4.0
    hint_burst: int = 3
    # Simulations the search runs for one hint, and the seconds it may take at most (a slow
    # machine gets a hint from fewer simulations rather than a late one).
    hint_iterations: int = 2000
    hint_seconds: float = 4.0

    # ---------------------------------------------------------------- PostgreSQL, several processes
    # (only with db_path a postgresql:// URL; docs/deploy.md)
    # Connections this process keeps to the database for its jobs (plus one that listens).
    db_pool_size: int = 10
    # How this process is known to the others; empty: made up at start (host, pid, random).
    process_id: str = ""
    # Every this many seconds a process says it is alive and looks for tables left behind.
    heartbeat_interval: float = 1.0
    # A process not heard from for this long is dead: another takes its tables (their bots,
    # clock and sweep). Clients of those tables may play on meanwhile, at any process.
    lease_seconds: float = 5.0
    # A table held in memory only to serve clients (another process owns it) is let go this
    # long after its last client left.
    mirror_idle: float = 60.0


def with_overrides(settings: Settings, pairs: list[str]) -> Settings:
    """`settings` with each "NAME=VALUE" of `pairs` set (`ladytiger serve --setting`).
    Raises ValueError naming the unknown setting or the value that does not fit."""
    known = {f.name: f for f in fields(Settings)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or name not in known:
            raise ValueError(
                f"{pair!r} is not NAME=VALUE with a known setting; the settings are: "
                + ", ".join(sorted(known))
            )
        default = getattr(Settings, name)
        changes[name] = _parse(name, text.strip(), type(default))
    return replace(settings, **changes)


def _parse(name: str, text: str, kind: type) -> Any:
    if kind is bool:
        if text.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise ValueError(f"setting {name} must be true or false, not {text!r}")
        return text.lower() in ("true", "1", "yes", "on")
    try:
        value = kind(text)
    except ValueError:
        wanted = {int: "a whole number", float: "a number"}.get(kind, "text")
        raise ValueError(f"setting {name} must be {wanted}, not {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"setting {name} must be a finite number, not {text!r}")
    if isinstance(value, int | float) and value < 0:
        raise ValueError(f"setting {name} must not be negative, not {text!r}")
    return value
