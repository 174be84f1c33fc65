"""Replays, computed off the event loop: a record is replayed through the rules, which for a
long game takes a good part of a second, so it runs in a worker thread of its own while the
event loop serves the tables. Work is bounded three ways: a record's length, the number of
replays waiting at once, and each client address's rate. A finished table never changes, so
what its replays compute is kept (least recently used dropped first) and served again for
free.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ladytiger.web.config import Settings
from ladytiger.web.protocol import ProtocolError
from ladytiger.web.quotas import ClientRate

log = logging.getLogger("ladytiger.web.replays")
T = TypeVar("T")


class ReplayService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rate = ClientRate(settings.replays_per_minute, settings.replay_burst,
                               "replay requests")
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="ladytiger-replay")
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

    async def run(self, client: str, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in the replay thread, for `client` (rate-limited), unless too many
        replays are already waiting."""
        self.rate.take(client)
        if self._busy >= self.settings.replay_queue:
            raise ProtocolError(
                "busy",
                f"the server is already computing {self._busy} replays; try again in a moment",
                status=503,
                retry_after=1,
            )
        self._busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._worker, work, *args)
        finally:
            self._busy -= 1

    async def cached(
        self, key: Hashable, client: str, work: Callable[..., T], *args: Any
    ) -> T:
        """`run`, kept under `key`: a kept answer costs nothing and counts against no rate."""
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]  # type: ignore[no-any-return]
        value = await self.run(client, work, *args)
        self._cache[key] = value
        while len(self._cache) > self.settings.replay_cache:
            self._cache.popitem(last=False)
        return value

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)
