"""The workers bots think in, so that the event loop never waits for a bot and no bot thinks
past the move deadline.

"process" (the server's default): each worker is a process of its own with a pipe to the
server, started lazily (or by `warm`) from the spawn context, since forking a process that
has threads is unsafe. A move goes down the pipe as a pickled copy of the bot and the state,
and the bot comes back with the move, so its random stream carries on across moves. A helper
thread per worker sends the move and waits for the answer, so the event loop never blocks on
a pipe. A move still running at its deadline has its worker killed (a fresh one starts when
next needed) and raises `BotTimeout`. `close` stops every worker; a worker whose server died
without closing it (SIGKILL) notices and exits by itself (ladytiger.web.bot_worker).

"thread": bots think in a small thread pool. A thread cannot be stopped, so at the deadline
the pool only stops waiting (`BotTimeout` says so) and the thread thinks on until its bot is
done, holding its thread: the thread pool is for trusted light bots (the random bot) and
tests. A bot that cannot be pickled thinks in a thread in either mode, and so does other
engine work (`run`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from ladytiger.bots import Bot
from ladytiger.core import State
from ladytiger.web import bot_worker
from ladytiger.web.config import Settings

log = logging.getLogger("ladytiger.web.pool")
T = TypeVar("T")

# A worker imports every game before it says it is ready; on a loaded machine that can take
# a while, and none of it counts against a move.
STARTUP_TIMEOUT = 60.0
# How long `close` lets workers exit on SIGTERM before it kills them.
STOP_GRACE = 1.0


class BotTimeout(Exception):
    """A bot move ran past its deadline. `stopped`: its worker process was killed; otherwise
    it still runs in its thread, and the bot object may still change under it."""

    def __init__(self, limit: float, elapsed: float, stopped: bool) -> None:
        how = ("its worker process was killed" if stopped
               else "it thinks on in its thread, which cannot be stopped")
        super().__init__(f"the bot was still thinking after {elapsed:.1f} s, past the "
                         f"{limit:g} s move deadline; {how}")
        self.limit = limit
        self.elapsed = elapsed
        self.stopped = stopped


class WorkerFailed(Exception):
    """The move failed in its worker: the bot raised (the text holds its traceback), or the
    worker died or could not start."""


class _Unpicklable(Exception):
    """The job cannot travel to a worker process (either way of the pipe)."""


def bot_step(bot: Bot, state: State, seat: int) -> tuple[int, Bot]:
    """One bot move; the bot comes back with it (it may have changed, e.g. its rng)."""
    return bot.step(state, seat), bot


class _Slot:
    """A place for one worker process: empty until needed, emptied when the worker dies or
    is killed. A helper thread holds a slot for the whole of a move."""

    __slots__ = ("connection", "process")

    def __init__(self) -> None:
        self.process: BaseProcess | None = None
        self.connection: Connection | None = None


class BotPool:
    def __init__(
        self,
        kind: str = "thread",
        workers: int = 2,
        move_timeout: float = Settings.bot_move_timeout,
    ) -> None:
        if kind not in ("thread", "process"):
            raise ValueError(f"the bot pool is 'thread' or 'process', not {kind!r}")
        self.kind = kind
        self.workers = max(1, workers)
        self.move_timeout = move_timeout
        self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="ladytiger-bot")
        self._helpers: ThreadPoolExecutor | None = None
        self._slots = [_Slot() for _ in range(self.workers)]
        # As many helper threads as slots, so a helper never waits long for a free slot.
        self._free: queue.SimpleQueue[_Slot] = queue.SimpleQueue()
        for slot in self._slots:
            self._free.put(slot)
        self._lock = threading.Lock()  # guards every slot's process and connection
        self._closed = False
        self._warmed = False
        self._thread_only: set[type] = set()  # bot classes that cannot travel to a process
        self._context = multiprocessing.get_context("spawn")

    # ------------------------------------------------------------------ the public side
    def warm(self) -> None:
        """Start the worker processes now, in the background, so that the first bot move
        does not wait for them (called once a table has a bot)."""
        if self.kind == "process" and not self._warmed and not self._closed:
            self._warmed = True
            for _ in self._slots:
                self._helper_threads().submit(self._warm_one)

    async def step(
        self, bot: Bot, state: State, seat: int, timeout: float | None = None
    ) -> tuple[int, Bot]:
        """The bot's move for `seat` in (a copy of) `state`, and the bot to keep. Raises
        `BotTimeout` past `timeout` seconds (default: the pool's `move_timeout`)."""
        limit = self.move_timeout if timeout is None else timeout
        copy = state.clone()
        if self.kind == "process" and type(bot) not in self._thread_only:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(
                    self._helper_threads(), self._in_worker, limit, bot_step, bot, copy, seat
                )
            except _Unpicklable as error:
                log.warning("%r cannot think in a process (%s); it thinks in a thread", bot,
                            error)
                self._thread_only.add(type(bot))
        return await self._in_thread(limit, bot_step, bot, copy, seat)

    async def compute(self, limit: float, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` (picklable, from a module) in a worker process, or a thread in
        thread mode; `BotTimeout` past `limit` seconds. For heavy engine work that must not
        hold the interpreter the event loop runs in (replays)."""
        if self.kind == "process":
            return await asyncio.get_running_loop().run_in_executor(
                self._helper_threads(), self._in_worker, limit, function, *args
            )
        return await self._in_thread(limit, function, *args)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run other engine work (a resample) in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._threads, function, *args)

    def close(self) -> None:
        """Stop every worker process: SIGTERM, then SIGKILL for any still there after a short
        grace. Threads cannot be stopped; queued work is dropped."""
        with self._lock:
            self._closed = True
            taken = [self._take(slot) for slot in self._slots]
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._helpers is not None:
            self._helpers.shutdown(wait=False, cancel_futures=True)
        processes = [process for process, _ in taken if process is not None]
        for process in processes:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                log.warning("bot worker %s ignored SIGTERM; killing it", process.pid)
                process.kill()
                process.join(STOP_GRACE)
        for _, connection in taken:
            if connection is not None:
                connection.close()

    # ------------------------------------------------------------------ threads
    def _helper_threads(self) -> ThreadPoolExecutor:
        if self._helpers is None:
            self._helpers = ThreadPoolExecutor(
                self.workers, thread_name_prefix="ladytiger-bot-helper"
            )
        return self._helpers

    async def _in_thread(self, limit: float, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` in a worker thread; past `limit` seconds, stop waiting for it.

        The time counts from the submission, queueing included: a thread that never ends
        (a bot stuck in a loop) holds its thread for good, and the moves queued behind it
        must still come to an end. Work given up on before it started never runs.
        """
        loop = asyncio.get_running_loop()
        began = loop.time()
        done = loop.run_in_executor(self._threads, function, *args)
        # Work given up on may still end some day; its outcome must not be reported as lost.
        done.add_done_callback(_consume)
        try:
            return await asyncio.wait_for(done, limit)
        except TimeoutError:
            raise BotTimeout(limit, loop.time() - began, stopped=False) from None

    # ------------------------------------------------------------------ processes
    def _warm_one(self) -> None:
        slot = self._free.get()
        try:
            self._worker(slot)
        except WorkerFailed as error:
            if not self._closed:
                log.error("a bot worker could not start: %s", error)
        finally:
            self._free.put(slot)

    def _in_worker(self, limit: float, function: Callable[..., T], *args: Any) -> T:
        """In a helper thread: `function(*args)` in a worker process, which is killed if the
        answer has not come `limit` seconds after the job was sent."""
        try:
            job = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # PicklingError, or TypeError/AttributeError for locals
            raise _Unpicklable(str(error)) from error
        slot = self._free.get()
        try:
            connection = self._worker(slot)
            try:
                connection.send_bytes(job)
                began = time.monotonic()
                if not connection.poll(limit):
                    elapsed = time.monotonic() - began
                    self._stop(slot, kill=True)
                    raise BotTimeout(limit, elapsed, stopped=True)
                reply = connection.recv_bytes()
            except (EOFError, OSError) as error:
                code = self._stop(slot, kill=True)
                raise WorkerFailed(f"the bot's worker process died (exit code {code})"
                                   ) from error
        finally:
            self._free.put(slot)
        status, value = pickle.loads(reply)
        if status == "ok":
            return value  # type: ignore[no-any-return]
        if status == "unloadable":
            raise _Unpicklable(value)
        raise WorkerFailed(value)

    def _worker(self, slot: _Slot) -> Connection:
        """The slot's worker, started (and ready) if it is not running."""
        with self._lock:
            process, connection = slot.process, slot.connection
        if process is not None and connection is not None and process.is_alive():
            return connection
        self._stop(slot)
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=bot_worker.serve,
            args=(theirs, os.getpid()),
            name="ladytiger-bot-worker",
            # Daemonic: should the server exit without `close`, multiprocessing's exit
            # handler still terminates the worker.
            daemon=True,
        )
        with self._lock:
            if self._closed:
                ours.close()
                theirs.close()
                raise WorkerFailed("the bot pool is closed")
            process.start()
            slot.process, slot.connection = process, ours
        theirs.close()
        try:
            ready = ours.poll(STARTUP_TIMEOUT) and ours.recv_bytes() == bot_worker.READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            code = self._stop(slot, kill=True)
            raise WorkerFailed(f"a bot worker process did not start (exit code {code})")
        return ours

    def _take(self, slot: _Slot) -> tuple[BaseProcess | None, Connection | None]:
        # Under the lock: whoever takes a worker out of its slot is the one who stops it.
        taken = slot.process, slot.connection
        slot.process = slot.connection = None
        return taken

    def _stop(self, slot: _Slot, kill: bool = False) -> int | None:
        """Empty the slot, stopping its worker; returns the worker's exit code."""
        with self._lock:
            process, connection = self._take(slot)
        if connection is not None:
            connection.close()
        if process is None:
            return None
        if process.is_alive():
            if kill:
                process.kill()
            else:
                process.terminate()
            process.join(STOP_GRACE)
            if process.is_alive():
                process.kill()
        process.join(STOP_GRACE)
        return process.exitcode


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
