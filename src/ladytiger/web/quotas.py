"""Per-client limits: how fast one client address may create tables or ask for replays.

Each address has its own token bucket. Buckets are kept for recently seen addresses only, in
a bounded map (least recently used dropped first), so a flood from many addresses cannot grow
the server's memory: an address whose bucket was dropped simply starts full again.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict

from ladytiger.web.protocol import ProtocolError

MAX_TRACKED = 100_000  # addresses whose buckets are kept at once


class ClientRate:
    """`per_minute` requests a minute on average per client, with bursts of `burst`."""

    def __init__(self, per_minute: float, burst: int, what: str) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.what = what
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str) -> None:
        """Count one request of `client`, or refuse it with 429 and when to come back."""
        now = time.monotonic()
        level, stamp = self._buckets.pop(client, (self.burst, now))
        level = min(self.burst, level + (now - stamp) * self.rate)
        if level < 1.0:
            self._buckets[client] = (level, now)
            wait = math.ceil((1.0 - level) / self.rate) if self.rate > 0 else 60
            raise ProtocolError(
                "rate_limited",
                f"too many {self.what} from {_who(client)}: at most {self.rate * 60:g} a minute "
                f"(bursts of {self.burst:g}); try again in {wait} s",
                status=429,
                retry_after=wait,
            )
        self._buckets[client] = (level - 1.0, now)
        while len(self._buckets) > MAX_TRACKED:
            self._buckets.popitem(last=False)


class ClientTables:
    """The unfinished tables each client (an address, or a player) created, against a
    per-client cap."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, set[str]] = {}
        self._owners: dict[str, list[str]] = {}

    def check(self, client: str) -> None:
        held = len(self._open.get(client, ()))
        if held >= self.limit:
            raise ProtocolError(
                "too_many_tables",
                f"{_who(client)} already has {held} tables waiting or in play, the most it may "
                "have; finish one first, or close one still waiting for players (a table "
                "nobody joins closes by itself after a while)",
                status=429,
            )

    def add(self, client: str, table_id: str) -> None:
        self._open.setdefault(client, set()).add(table_id)
        self._owners.setdefault(table_id, []).append(client)

    def ended(self, table_id: str) -> None:
        for client in self._owners.pop(table_id, ()):
            held = self._open.get(client)
            if held is not None:
                held.discard(table_id)
                if not held:
                    del self._open[client]

    def count(self, client: str) -> int:
        return len(self._open.get(client, ()))


def _who(client: str) -> str:
    return "your player" if client.startswith("player:") else "your address"
