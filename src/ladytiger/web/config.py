"""The server's settings, with the defaults `ladytiger serve` uses."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    db_path: str = "ladytiger.sqlite3"
    # Seconds a bot waits before moving, so humans can follow; a table may set its own.
    bot_pause: float = 0.3
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
