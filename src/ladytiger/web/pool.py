"""The worker pool bots think in, so the event loop never waits for a bot.

Threads suit light bots (the random bot) and cost nothing to start; a process pool suits
search bots, which would otherwise hold the interpreter lock while the server has messages to
send. A process worker gets a pickled copy of the bot and the state and hands the bot back
with its move, so the bot's own random stream carries on across moves. A bot that cannot be
pickled thinks in a thread instead.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ladytiger.bots import Bot
from ladytiger.core import State

log = logging.getLogger("ladytiger.web.pool")
T = TypeVar("T")


def _ready() -> None:
    """Nothing: a first task that makes a worker process start (and import the games)."""


def bot_step(bot: Bot, state: State, seat: int) -> tuple[int, Bot]:
    """One bot move; the bot comes back with it (it may have changed, e.g. its rng)."""
    return bot.step(state, seat), bot


class BotPool:
    def __init__(self, kind: str = "thread", workers: int = 2) -> None:
        if kind not in ("thread", "process"):
            raise ValueError(f"the bot pool is 'thread' or 'process', not {kind!r}")
        self.kind = kind
        self.workers = max(1, workers)
        self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="ladytiger-bot")
        self._processes: ProcessPoolExecutor | None = None
        self._thread_only: set[type] = set()  # bot classes that cannot be pickled

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._processes is None:
            # spawn: the server has threads, and forking a threaded process is unsafe.
            context = multiprocessing.get_context("spawn")
            self._processes = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._processes

    def warm(self) -> None:
        """Start the worker processes now, in the background, so that the first bot move
        does not wait for them to start (once a table has a bot)."""
        if self.kind == "process" and self._processes is None:
            pool = self._process_pool()
            for _ in range(self.workers):
                pool.submit(_ready)

    async def step(self, bot: Bot, state: State, seat: int) -> tuple[int, Bot]:
        """The bot's move for `seat` in (a copy of) `state`, and the bot to keep."""
        loop = asyncio.get_running_loop()
        if self.kind == "process" and type(bot) not in self._thread_only:
            try:
                return await loop.run_in_executor(
                    self._process_pool(), bot_step, bot, state.clone(), seat
                )
            except (pickle.PicklingError, TypeError, AttributeError) as error:
                log.warning("%r cannot think in a process (%s); it thinks in a thread", bot,
                            error)
                self._thread_only.add(type(bot))
            except BrokenProcessPool:
                log.error("a bot process died; starting a new pool")
                self._processes = None
        return await loop.run_in_executor(self._threads, bot_step, bot, state.clone(), seat)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run other engine work (a resample) in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._threads, function, *args)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
