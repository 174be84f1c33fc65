"""What a bot worker process runs (ladytiger.web.pool starts them): jobs from a pipe, answers
back down it.

A job is a pickled `(function, args)`. The answer is a pickled `(status, value)`: "ok" with
the function's result, "error" with the text of what it raised (text, because an exception of
a bot's own may not survive a trip through pickle), or "unloadable" when this process cannot
unpickle the job (a bot class it cannot import), so that the server can let that bot think in
a thread instead.

A worker leaves by itself when the server is gone. An idle one reads the end of its pipe; a
busy one cannot, so a watchdog thread checks that its parent is still its parent: a server
killed outright (SIGKILL) stops nothing on its way out, and a worker deep in a search would
otherwise go on thinking, orphaned.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
import time
import traceback
from multiprocessing.connection import Connection

READY = b"ready"
WATCH_INTERVAL = 0.5


def serve(connection: Connection, parent: int) -> None:
    """The worker's life: say it is ready, then answer jobs until the pipe closes."""
    # Ctrl-C in a terminal reaches every process of the group; the server stops its workers
    # itself, after its own shutdown, so a worker must not die first with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)
    preload()
    try:
        connection.send_bytes(READY)
        while True:
            job = connection.recv_bytes()
            connection.send_bytes(answer(job))
    except (EOFError, OSError):
        return  # the server closed the pipe, or is gone


def watch_parent(parent: int) -> None:
    def watch() -> None:
        # When the parent dies the worker is handed to another process (init or a
        # subreaper), so its parent id changes.
        while os.getppid() == parent:
            time.sleep(WATCH_INTERVAL)
        os._exit(0)

    threading.Thread(target=watch, name="ladytiger-parent-watch", daemon=True).start()


def preload() -> None:
    """Import every game and bot now, so that no move's deadline pays for the imports."""
    import ladytiger
    from ladytiger.bots import registered_bots

    ladytiger.registered_games()
    registered_bots()


def answer(job: bytes) -> bytes:
    try:
        function, args = pickle.loads(job)
    except Exception as error:
        return pickle.dumps(("unloadable", f"{type(error).__name__}: {error}"))
    try:
        result = function(*args)
    except Exception:
        return pickle.dumps(("error", traceback.format_exc()))
    try:
        return pickle.dumps(("ok", result), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:
        return pickle.dumps(("error", f"the result could not be sent back: {error!r}"))
