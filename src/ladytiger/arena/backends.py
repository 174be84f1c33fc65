"""Running many independent games: inline, on a local process pool, or on a Ray cluster.

Every backend runs the same function on the same game numbers and returns the results in
game order, so a run's figures do not depend on where it ran, on how many workers it had or
on how the games were split into tasks (each game draws its randomness from its own number).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ladytiger.core import LadyTigerError

BACKENDS = ("local", "ray")

# A worker plays game `index` of a run described by `payload` and returns its result; it
# must be a module-level function so that it can be sent to other processes.
Worker = Callable[[Any, int], Any]
Progress = Callable[[int], None]


def game_rng(seed: int, index: int) -> random.Random:
    """The generator for game `index` of a run: independent of how games are split up."""
    return random.Random(f"{seed}:{index}")


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not every platform has affinity
        return max(1, os.cpu_count() or 1)


def run_chunk(worker: Worker, payload: Any, indices: Sequence[int]) -> list[Any]:
    return [worker(payload, index) for index in indices]


def chunks(count: int, size: int) -> list[range]:
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


def run_games(
    worker: Worker,
    payload: Any,
    count: int,
    *,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
    on_progress: Progress | None = None,
) -> list[Any]:
    """`[worker(payload, i) for i in range(count)]`, spread over `jobs` workers.

    `backend` is "local" (a process pool; in this process when jobs is 1) or "ray" (a Ray
    cluster at `address`, or a new local one on the loopback interface). `on_progress` is
    called with the number of games finished so far.
    """
    if backend not in BACKENDS:
        raise LadyTigerError(f"there is no backend {backend!r}; the backends are: "
                             + ", ".join(BACKENDS))
    if address is not None and backend != "ray":
        raise LadyTigerError("--address joins a Ray cluster; use it with --backend ray")
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise LadyTigerError(f"jobs must be at least 1, not {jobs}")
    if chunk_size is None:
        # A few tasks per worker balance the load without drowning in messages.
        chunk_size = max(1, min(256, count // (4 * jobs) or 1))
    parts = chunks(count, chunk_size)
    results: list[Any] = [None] * count
    done = 0

    def finished(part: range, values: list[Any]) -> None:
        nonlocal done
        results[part.start : part.stop] = values
        done += len(values)
        if on_progress is not None:
            on_progress(done)

    if backend == "ray":
        _run_on_ray(worker, payload, parts, jobs, address, finished)
    elif jobs == 1 or len(parts) == 1:
        for part in parts:
            finished(part, run_chunk(worker, payload, part))
    else:
        _run_on_pool(worker, payload, parts, jobs, finished)
    return results


def _run_on_pool(
    worker: Worker,
    payload: Any,
    parts: list[range],
    jobs: int,
    finished: Callable[[range, list[Any]], None],
) -> None:
    # "spawn" starts clean interpreters: forking a process that runs a progress-bar thread
    # can deadlock, and spawn behaves the same on every platform.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=min(jobs, len(parts)), mp_context=context
    ) as pool:
        # The workers start as the tasks are submitted.
        with _main_left_behind(worker):
            futures = {pool.submit(run_chunk, worker, payload, part): part for part in parts}
        try:
            for future in concurrent.futures.as_completed(futures):
                finished(futures[future], future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise


@contextlib.contextmanager
def _main_left_behind(worker: Worker) -> Iterator[None]:
    """Start spawned workers without running the main script again.

    A spawned worker imports the parent's main script (so that functions defined there can
    be unpickled); a script that starts a run at its top level, with no `if __name__ ==
    "__main__":` guard, would then start it again inside every worker, and the pool breaks.
    Workers and payloads from ladytiger's own modules do not need the script, so while the
    workers start, the main module looks like a notebook's, which workers never import.
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(worker, "__module__", "__main__") == "__main__":
        yield
        return
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_on_ray(
    worker: Worker,
    payload: Any,
    parts: list[range],
    jobs: int,
    address: str | None,
    finished: Callable[[range, list[Any]], None],
) -> None:
    if address is None:
        # A Ray started here listens on the loopback interface only; this must be set
        # before ray is first imported.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray
    except ImportError as error:
        raise LadyTigerError(
            "the ray backend needs Ray: pip install 'ladytiger[ray]'"
        ) from error
    started_here = False
    if not ray.is_initialized():
        if address is None:
            ray.init(address="local", num_cpus=jobs, include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        started_here = True
    try:
        remote_chunk = ray.remote(run_chunk)
        pending = {
            remote_chunk.remote(worker, payload, part): part for part in parts
        }
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                finished(pending.pop(ref), ray.get(ref))
    finally:
        if started_here:
            ray.shutdown()
