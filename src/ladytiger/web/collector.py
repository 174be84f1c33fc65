"""The garbage collector's settings for a long-running server process.

Python's cyclic collector stops the event loop while it scans, and the scan's length is
the tail of move latency. A busy server holds hundreds of thousands of container objects
(tables, connections, coroutines) and makes many more that live a fraction of a second (a
move's views and log lines, a message's coroutines). Measured at 500 busy Doors tables and
1,000 moves/s (benchmarks/server.py, Python 3.11):

- with the defaults (700, 10, 10), a full pass of the whole heap (100 to 300 ms) came every
  second or two;
- with the young generation collected only every 10,000 allocations, full passes became
  rare but each young and middle scan had grown: young scans up to 30-100 ms and middle
  scans of 50-140 ms, every few seconds;
- with the young generation every 1,000 allocations and the middle one every 4 young scans,
  young scans stay under about 10 ms and middle ones under about 25 ms. At a paced 1,000
  moves/s the time spent collecting stayed about the same, cut into smaller pauses; flat
  out, the more frequent scans cost throughput (Doors at 500 tables: 2,382 moves/s against
  2,855). Full passes (about 300 ms at 500 tables) wait for 250 middle scans and, as always
  in CPython, for the objects promoted since the last one to reach a quarter of the heap;
  none came in the 60-second paced windows measured.

So: everything alive once the server has started (modules, classes, functions) is frozen
out of the scans for good, since it never becomes garbage, and the thresholds above are
set. Garbage cycles that reach the oldest generation wait longer for a full pass; the
benchmark reports memory per table, which did not change measurably.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 1_000
OLDER_THRESHOLDS = (4, 250)


def tune_for_server(young: int = YOUNG_THRESHOLD) -> tuple[int, int, int]:
    """Freeze what exists now and set the thresholds; returns the old thresholds."""
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, *OLDER_THRESHOLDS)
    return old


def restore(thresholds: tuple[int, int, int]) -> None:
    """Undo `tune_for_server` (for a server started inside another program, or a test)."""
    gc.unfreeze()
    gc.set_threshold(*thresholds)
