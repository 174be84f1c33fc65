"""Replays, computed off the event loop: a record is replayed through the rules, which for a
long game takes a good part of a second. It runs in a worker process of its own (a thread in
the server's "thread" bot-pool mode), so it holds neither the event loop nor the interpreter
the loop runs in, and the tables are served meanwhile. Work is bounded three ways: a record's
length, the number of replays computing or waiting at once, and each client address's rate,
checked before a request's body is even read. A finished table never changes, so what its
replays compute is kept (least recently used dropped first) and served again for free.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from ladytiger.web.config import Settings
from ladytiger.web.pool import BotPool, BotTimeout
from ladytiger.web.protocol import ProtocolError
from ladytiger.web.quotas import ClientRate

log = logging.getLogger("ladytiger.web.replays")
T = TypeVar("T")
REPLAY_TIMEOUT = 30.0  # seconds one replay may take before its worker is stopped


class ReplayService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rate = ClientRate(settings.replays_per_minute, settings.replay_burst,
                               "replay requests")
        self._workers = BotPool(settings.bot_pool, 1, REPLAY_TIMEOUT)
        self._busy = 0
        self._cache: OrderedDict[Hashable, Any] = OrderedDict()

    def check_record(self, record: dict[str, Any]) -> None:
        """Refuse a record longer than the server replays."""
        history = record.get("history")
        limit = self.settings.max_record_moves
        if isinstance(history, list) and len(history) > limit:
            raise ProtocolError(
                "too_large",
                f"the record holds {len(history)} moves; the most a replay takes is {limit}",
                status=413,
            )

    def admit(self, client: str) -> None:
        """Count a replay request of `client` against its rate, and refuse it while too many
        replays are under way."""
        self.rate.take(client)
        if self._busy >= self.settings.replay_queue:
            raise ProtocolError(
                "busy",
                f"the server is already computing {self._busy} replays; try again in a moment",
                status=503,
                retry_after=1,
            )

    async def compute(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` (a module-level function: it may travel to a process)."""
        self._busy += 1
        try:
            return await self._workers.compute(REPLAY_TIMEOUT, work, *args)
        except BotTimeout:
            log.warning("a replay took over %g s and was stopped", REPLAY_TIMEOUT)
            raise ProtocolError("busy", "that replay took too long and was stopped",
                                status=503, retry_after=1) from None
        finally:
            self._busy -= 1

    async def cached(
        self, key: Hashable, client: str, work: Callable[..., T], *args: Any
    ) -> T:
        """`work(*args)` kept under `key`: a kept answer costs nothing and counts against no
        rate."""
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]  # type: ignore[no-any-return]
        self.admit(client)
        value = await self.compute(work, *args)
        self._cache[key] = value
        while len(self._cache) > self.settings.replay_cache:
            self._cache.popitem(last=False)
        return value

    def close(self) -> None:
        self._workers.close()
