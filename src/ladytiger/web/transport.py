"""How the server meets the network: uvicorn's settings and the connection limits it lacks.

`server_config` builds the uvicorn `Config` for a `Settings`; `ladytiger serve` and the
tests' live server both run it, so the limits tested are the limits served.

Three limits guard the server's connections (docs/protocol.md, "Limits"):

- **header timeout**: a connection gets `header_timeout` seconds, from the moment it is
  accepted, to send a complete request head (request line and headers). Uvicorn has no such
  timeout: a connection that sends nothing, or half a head, is otherwise held for ever, and
  a few thousand of them exhaust the process's open files. The protocol classes here add
  it. A client that sent part of a head is answered `408 Request Timeout` and closed; one
  that sent nothing is closed without a word, since a client about to use the connection
  (a browser opens some ahead of need) would take an answer it never asked for as the
  answer to its next request. On a keep-alive connection the clock starts again with the
  first byte of the next request. A body, once its head is in, is not timed here.
- **idle keep-alive**: after a response, a connection that sends nothing more is closed
  after `keep_alive_timeout` seconds, without a word (uvicorn's `timeout_keep_alive`).
- **connection cap**: at most `max_connections` connections, HTTP and WebSocket together,
  are open at once. Uvicorn's own `limit_concurrency` does not cap connections: it accepts
  every one, answers an HTTP request that arrives while the count is at the limit with
  `503 Service Unavailable`, and lets every WebSocket handshake through, whatever the count.
  So the cap is enforced here when a connection is accepted: a connection over the cap
  never reaches uvicorn and never counts as open; once its request head has arrived (an
  HTTP request or a WebSocket handshake alike) it is answered `503 Service Unavailable`
  with `retry-after: 5` and closed. One that sends no complete head within a second is
  answered the same if it sent anything, and closed without a word if it sent nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ladytiger.web.config import Settings
from ladytiger.web.protocol import MAX_MESSAGE_BYTES

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools is optional for uvicorn; h11 always comes with it
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

log = logging.getLogger("ladytiger.web.transport")

DEFAULTS = Settings()


def _response(status: str, text: str, *extra: str) -> bytes:
    body = text.encode("ascii")
    lines = [f"HTTP/1.1 {status}", "content-type: text/plain; charset=utf-8",
             f"content-length: {len(body)}", *extra, "connection: close", "", ""]
    return "\r\n".join(lines).encode("ascii") + body


BUSY_RESPONSE = _response("503 Service Unavailable",
                          "the server has too many open connections; try again shortly\n",
                          "retry-after: 5")
TIMEOUT_RESPONSE = _response("408 Request Timeout",
                             "the request's headers did not arrive in time\n")
# A connection over the cap waits at most this long for its request head, so that its 503 is
# an answer to a request (some clients, such as websockets' synchronous one, trip over an
# answer that comes before their request is sent). Nothing said by then: closed unanswered.
REFUSED_WAIT = 1.0
# After its 503, how long a refused connection is kept reading (and dropping) what its client
# still sends. Closing a socket with unread input sends a reset, which may destroy the 503
# before the client has read it.
REFUSED_LINGER = 1.0
# The most of a refused request's head kept to look for its end.
REFUSED_HEAD_BYTES = 16 * 1024
# Refusals come in floods when they come at all: one log line per this many seconds.
REFUSAL_LOG_INTERVAL = 10.0
# Open files the server needs besides its connections: standard streams, the listening
# socket, the event loop, SQLite's database, journal and shared-memory files, logging.
SPARE_FILES = 64
# Pipes and sentinels per bot worker process.
FILES_PER_BOT_WORKER = 4


class _Refusals:
    """Counts refused connections and logs them at most once per interval."""

    def __init__(self) -> None:
        self.unlogged = 0
        self.logged_at = float("-inf")

    def note(self, open_now: int, cap: int) -> None:
        self.unlogged += 1
        now = time.monotonic()
        if now - self.logged_at >= REFUSAL_LOG_INTERVAL:
            log.warning("refused %d connection(s) since the last such warning: %d open "
                        "reach max_connections (%d); refusals are logged at most every %.0f s",
                        self.unlogged, open_now, cap, REFUSAL_LOG_INTERVAL)
            self.unlogged = 0
            self.logged_at = now


_refusals = _Refusals()


class _Guard:
    """The header timeout and the connection cap, on top of one of uvicorn's HTTP protocols.

    Each concrete class below says when a request head begins and when it is complete; this
    part keeps the timer and the cap. Read with the uvicorn class it is mixed into, whose
    `transport`, `loop`, `connections` and `cycle` it uses.
    """

    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    connections: set[Any]
    cycle: Any

    def __init__(self, config: uvicorn.Config, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)  # type: ignore[call-arg]
        self.header_timeout: float | None = getattr(config, "header_timeout",
                                                    DEFAULTS.header_timeout)
        self.max_connections: int | None = getattr(config, "max_connections", None)
        self._head_timer: asyncio.TimerHandle | None = None
        self._heard = False
        self._refused = False
        self._refused_head: bytes | None = b""  # None once the 503 is written

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        cap = self.max_connections
        if cap is not None and len(self.connections) >= cap:
            _refusals.note(len(self.connections), cap)
            self._refuse(transport)  # type: ignore[arg-type]
            return
        super().connection_made(transport)  # type: ignore[misc]
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        self._heard = True
        if self._refused:
            self._refused_data(data)
            return
        super().data_received(data)  # type: ignore[misc]

    def eof_received(self) -> bool | None:
        if self._refused and self._heard:
            self._answer_refused()
        return super().eof_received()  # type: ignore[misc,no-any-return]

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        if self._refused:
            return  # uvicorn never knew of this connection
        super().connection_lost(exc)  # type: ignore[misc]

    def _refuse(self, transport: asyncio.Transport) -> None:
        self._refused = True
        self.transport = transport
        self._head_timer = self.loop.call_later(REFUSED_WAIT, self._refused_wait_over)

    def _refused_data(self, data: bytes) -> None:
        if self._refused_head is None:
            return  # answered: only read so that closing sends no reset
        head = self._refused_head + data
        if b"\r\n\r\n" in head or len(head) >= REFUSED_HEAD_BYTES:
            self._answer_refused()
        else:
            self._refused_head = head

    def _refused_wait_over(self) -> None:
        self._head_timer = None
        if self._heard:
            self._answer_refused()
        else:
            self.transport.close()

    def _answer_refused(self) -> None:
        if self._refused_head is None or self.transport.is_closing():
            return
        self._refused_head = None
        self._cancel_head_timer()
        self.transport.write(BUSY_RESPONSE)
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._head_timer = self.loop.call_later(REFUSED_LINGER, self.transport.close)

    def _arm_head_timer(self) -> None:
        if self._head_timer is None and self.header_timeout is not None:
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_overdue)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_overdue(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            # A pipelined head waits while the previous request is answered (uvicorn stops
            # reading meanwhile): the client is not the one keeping it waiting.
            self._arm_head_timer()
            return
        if self._heard:
            self.transport.write(TIMEOUT_RESPONSE)
        self.transport.close()


if HttpToolsProtocol is not None:

    class GuardedHttpToolsProtocol(_Guard, HttpToolsProtocol):  # type: ignore[misc]
        """Uvicorn's httptools protocol with the header timeout and the connection cap."""

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm_head_timer()

        def on_headers_complete(self) -> None:
            self._cancel_head_timer()
            super().on_headers_complete()


class GuardedH11Protocol(_Guard, H11Protocol):  # type: ignore[misc]
    """Uvicorn's h11 protocol with the header timeout and the connection cap."""

    def handle_events(self) -> None:
        super().handle_events()
        # h11 holds the bytes of a head until it is complete, and reads a pipelined request
        # only once the previous response is done, so its state says where the head stands.
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()
        elif self.conn.trailing_data[0]:
            self._arm_head_timer()


GuardedProtocol: type[asyncio.Protocol] = (
    GuardedHttpToolsProtocol if HttpToolsProtocol is not None else GuardedH11Protocol
)


class GuardedConfig(uvicorn.Config):
    """Uvicorn's Config, carrying the limits the guarded protocols read."""

    def __init__(self, app: Any, *, header_timeout: float, max_connections: int,
                 **options: Any) -> None:
        super().__init__(app, **options)
        self.header_timeout = header_timeout
        self.max_connections = max_connections


def server_config(
    app: Any,
    settings: Settings,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "info",
    access_log: bool = False,
    ws: str = "auto",
    ws_max_size: int = MAX_MESSAGE_BYTES * 8,
    http: type[asyncio.Protocol] | None = None,
    **options: Any,
) -> GuardedConfig:
    """Uvicorn's Config for serving `app` under `settings`' connection limits.

    `http` replaces the guarded protocol (the httptools one when httptools is installed);
    the limits only hold with a protocol derived from `_Guard`. `options` go to uvicorn.
    """
    return GuardedConfig(
        app,
        header_timeout=settings.header_timeout,
        max_connections=settings.max_connections,
        host=host,
        port=port,
        http=http or GuardedProtocol,
        ws=ws,
        # Above the protocol's own limit by default, so an oversized message gets the
        # protocol's error and a frame beyond any reason is cut off by the transport.
        ws_max_size=ws_max_size,
        ws_per_message_deflate=False,
        lifespan="on",
        log_level=log_level,
        access_log=access_log,
        timeout_keep_alive=settings.keep_alive_timeout,  # type: ignore[arg-type]
        # Uvicorn counts the connection asking among the open ones, so at the cap itself it
        # would answer 503 to a connection the guard let in: one more keeps its check a
        # backstop, for requests still running after their clients have gone.
        limit_concurrency=settings.max_connections + 1,
        # Uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise, which would
        # let any local client pose as another address and slip the per-client limits.
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies or None,
        **options,
    )


def raise_open_files_limit() -> int | None:
    """Raise this process's soft limit on open files to its hard limit.

    Returns the soft limit in force afterwards, or None where there is none to know of.
    """
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as error:
            # macOS reports an unlimited hard limit yet refuses to go past its own cap.
            log.warning("could not raise the open-files limit from %s to %s: %s",
                        soft, hard, error)
    return None if soft == resource.RLIM_INFINITY else soft


def open_files_warning(settings: Settings, open_files: int | None) -> str | None:
    """A warning when `settings.max_connections` is more than `open_files` allows."""
    if open_files is None:
        return None
    spare = SPARE_FILES + FILES_PER_BOT_WORKER * settings.bot_workers
    room = max(0, open_files - spare)
    if settings.max_connections <= room:
        return None
    return (f"max_connections is {settings.max_connections} but this process may open only "
            f"{open_files} files, about {spare} of which the server needs for itself: beyond "
            f"some {room} connections, new ones wait unaccepted and the database may fail to "
            f"open. Raise the hard limit (ulimit -Hn) or lower --max-connections.")
