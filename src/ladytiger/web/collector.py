"""The garbage collector's settings for a long-running server process.

Python's cyclic collector stops the event loop while it scans. Its full pass visits every
live container object, and a busy server holds hundreds of thousands of them (tables,
connections, coroutines), so with the default thresholds a full pass came every second or
two and took 100-250 ms: every move in flight waited for it, and the 99th percentile of
move latency was set by the collector, not by the work. Two changes fix most of that:

- everything alive once the server has started (modules, classes, functions) is frozen out
  of the collector's scans for good: it never becomes garbage;
- the youngest generation is collected after many more allocations than the default 700,
  so objects that die young (a move's views, a message's dicts) are mostly freed by their
  reference counts before any scan, and full passes come about twenty times less often.

Memory held by garbage cycles grows in proportion (the benchmark shows how much per table).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
OLDER_THRESHOLDS = (20, 20)


def tune_for_server(young: int = YOUNG_THRESHOLD) -> tuple[int, int, int]:
    """Freeze what exists now and raise the thresholds; returns the old thresholds."""
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, *OLDER_THRESHOLDS)
    return old


def restore(thresholds: tuple[int, int, int]) -> None:
    """Undo `tune_for_server` (for a server started inside another program, or a test)."""
    gc.unfreeze()
    gc.set_threshold(*thresholds)
