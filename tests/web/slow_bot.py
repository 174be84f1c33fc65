"""A test-only bot that thinks far past any move deadline (tests/web/test_bot_limits.py).

It lives in a module of its own so that a worker process can import it to unpickle it. It is
not registered on import: registered, every test that walks `registered_bots()` would seat
it; the tests that want it register it for their own duration.
"""

from __future__ import annotations

import os
import threading

from ladytiger.bots import Bot
from ladytiger.core import State

NAME = "test_slow"
# Where each move appends the id of the process thinking it, so a test can check that the
# worker was killed.
PIDS_FILE_VARIABLE = "LADYTIGER_TEST_SLOW_BOT_PIDS"
THINK_SECONDS = 30.0
# Set by a test when it is done, so threads it left thinking end (a thread cannot be killed).
RELEASE = threading.Event()


class SlowBot(Bot):
    name = NAME

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        path = os.environ.get(PIDS_FILE_VARIABLE)
        if path:
            with open(path, "a") as pids:
                pids.write(f"{os.getpid()}\n")
        RELEASE.wait(THINK_SECONDS)
        return state.legal_actions()[0]
