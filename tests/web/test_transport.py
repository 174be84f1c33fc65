"""Connection limits of a real server: the header timeout, idle keep-alive, the connection cap
and the open-files limit (ladytiger.web.transport).

Most tests run `ladytiger serve` itself as a subprocess, so that its options are what is
tested. Every connection is to 127.0.0.1, and every loop is bounded in count and time.
"""

from __future__ import annotations

import inspect
import json
import selectors
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from ladytiger.cli.server_commands import serve
from ladytiger.web import Settings, create_app
from tests.web.support import free_port, quick_settings

HOST = "127.0.0.1"
HEADER_TIMEOUT = 1.0
KEEP_ALIVE = 2.0
# Slack for timers and scheduling on a loaded test machine (the suite may run in parallel).
MARGIN = 2.0
EARLY = 0.1  # asyncio may fire a timer this much before its time, by clock resolution
HALF_HEAD = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # no blank line: never complete
FULL_REQUEST = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
CROWD = 150  # connections of each kind held against the server at once


# Starts the CLI after lowering the open-files limit (a soft limit, and optionally the hard
# one), so that the server has to raise it; done in the child itself, not in a preexec_fn,
# which is unsafe while the test process runs threads (the live servers).
LOWERED_LIMIT_LAUNCHER = """
import resource, runpy, sys
soft, hard = int(sys.argv[1]), int(sys.argv[2])
hard = hard if hard > 0 else resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, hard), hard))
sys.argv = ["ladytiger", *sys.argv[3:]]
runpy.run_module("ladytiger.cli.main", run_name="__main__")
"""


class Served:
    """`ladytiger serve` in a subprocess on a free port of 127.0.0.1 and a fresh database,
    optionally started with a lowered open-files limit (soft, hard; 0 keeps the hard)."""

    def __init__(self, directory: Path, *options: str,
                 open_files: tuple[int, int] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        arguments = ["serve", "--db", str(directory / "tables.sqlite3"), "--host", HOST,
                     "--port", str(self.port), "--bot-pool", "thread", "--synchronous", "NORMAL",
                     "--log-level", "warning", *options]
        if open_files is None:
            command = [sys.executable, "-m", "ladytiger.cli.main", *arguments]
        else:
            command = [sys.executable, "-c", LOWERED_LIMIT_LAUNCHER, *map(str, open_files),
                       *arguments]
        # A file, not a pipe: a pipe nobody reads would stall a server that logs a lot.
        self.log = directory / f"serve-{self.port}.log"
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self.output = ""

    def __enter__(self) -> Served:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.base}/api", timeout=1).status_code == 200:
                    # Let the server see the probe's connection close before counting.
                    time.sleep(0.2)
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError(f"the server did not start:\n{self.output}")

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)
        self.output = self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    """A server with a 1 s header timeout and 2 s keep-alive, started with a soft open-files
    limit of 256 (below the hard limit, which it should raise it to)."""
    directory = tmp_path_factory.mktemp("served")
    with Served(directory, "--header-timeout", str(HEADER_TIMEOUT),
                "--keep-alive-timeout", str(KEEP_ALIVE), open_files=(256, 0)) as server:
        yield server


@contextmanager
def thread_server(settings: Settings, http: type) -> Iterator[str]:
    """The app in a thread with one chosen protocol class, through `server_config`."""
    from ladytiger.web.transport import server_config

    listener = socket.socket()
    listener.bind((HOST, 0))
    port = listener.getsockname()[1]
    config = server_config(create_app(settings), settings, HOST, port, log_level="warning",
                           http=http)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://{HOST}:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def open_raw(port: int, count: int, send: bytes = b"") -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        raw = socket.create_connection((HOST, port), timeout=5)
        if send:
            raw.sendall(send)
        raw.setblocking(False)
        sockets.append(raw)
    return sockets


def watch_until_closed(sockets: list[socket.socket], seconds: float
                       ) -> list[tuple[float | None, bytes]]:
    """For each socket, when (monotonic) the server closed it, or None if it did not within
    `seconds`, and every byte it sent before closing."""
    received = [b""] * len(sockets)
    closed: list[float | None] = [None] * len(sockets)
    with selectors.DefaultSelector() as selector:
        for index, raw in enumerate(sockets):
            selector.register(raw, selectors.EVENT_READ, index)
        deadline = time.monotonic() + seconds
        while selector.get_map() and time.monotonic() < deadline:
            for key, _ in selector.select(min(0.2, max(0.0, deadline - time.monotonic()))):
                index = key.data
                try:
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except (ConnectionResetError, BlockingIOError):
                    data = b""
                if data:
                    received[index] += data
                    continue
                closed[index] = time.monotonic()
                selector.unregister(key.fileobj)
    for raw in sockets:
        raw.close()
    return list(zip(closed, received, strict=True))


def read_response(raw: socket.socket, seconds: float = 5.0) -> bytes:
    """One whole response (head and content-length body) from a blocking socket."""
    raw.settimeout(seconds)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = raw.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = raw.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"first {ordered[0]:.2f} s, median {ordered[len(ordered) // 2]:.2f} s, "
            f"last {ordered[-1]:.2f} s")


def assert_heads_time_out(base: str, crowd: int) -> None:
    """`crowd` silent connections and `crowd` that sent half a head are all closed once the
    header timeout has passed (not before), the half-sent ones with a 408."""
    started = time.monotonic()
    silent = open_raw(port_of(base), crowd)
    halves = open_raw(port_of(base), crowd, HALF_HEAD)
    opened = time.monotonic()
    results = watch_until_closed(silent + halves, opened - started + HEADER_TIMEOUT + MARGIN)
    still_open = [index for index, (when, _) in enumerate(results) if when is None]
    assert not still_open, f"{len(still_open)} of {2 * crowd} connections still open"
    times = [when - started for when, _ in results if when is not None]
    assert min(times) >= HEADER_TIMEOUT - EARLY, summary(times)
    assert all(data == b"" for _, data in results[:crowd]), "a silent connection got an answer"
    assert all(data.startswith(b"HTTP/1.1 408 ") for _, data in results[crowd:])
    print(f"\n{2 * crowd} connections opened in {opened - started:.2f} s, "
          f"closed {summary(times)} after the first was opened")
    assert httpx.get(f"{base}/api", timeout=5).status_code == 200


def test_silent_and_half_sent_connections_are_closed_after_the_header_timeout(served):
    assert_heads_time_out(served.base, CROWD)


def test_a_slow_but_complete_head_is_served(served):
    with socket.create_connection((HOST, served.port), timeout=5) as raw:
        for piece in (b"GET /api HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"\r\n"):
            raw.sendall(piece)
            time.sleep(HEADER_TIMEOUT / 4)
        assert read_response(raw).startswith(b"HTTP/1.1 200 ")
        # The same connection serves a next request: the first one left no timer behind.
        time.sleep(HEADER_TIMEOUT * 1.2)
        raw.sendall(FULL_REQUEST)
        assert read_response(raw).startswith(b"HTTP/1.1 200 ")


def test_an_idle_keep_alive_connection_is_closed_after_its_timeout(served):
    raw = socket.create_connection((HOST, served.port), timeout=5)
    raw.sendall(FULL_REQUEST)
    assert read_response(raw).startswith(b"HTTP/1.1 200 ")
    answered = time.monotonic()
    raw.setblocking(False)
    [(closed, data)] = watch_until_closed([raw], KEEP_ALIVE + MARGIN)
    assert closed is not None, "the idle connection is still open"
    idle = closed - answered
    print(f"\nidle keep-alive connection closed after {idle:.2f} s")
    # The keep-alive timeout, not the header timeout, decides an idle connection's end.
    assert KEEP_ALIVE - EARLY <= idle <= KEEP_ALIVE + MARGIN
    assert data == b""


def test_the_next_head_on_a_keep_alive_connection_has_the_header_timeout(served):
    raw = socket.create_connection((HOST, served.port), timeout=5)
    raw.sendall(FULL_REQUEST)
    assert read_response(raw).startswith(b"HTTP/1.1 200 ")
    raw.sendall(HALF_HEAD)
    sent = time.monotonic()
    raw.setblocking(False)
    [(closed, data)] = watch_until_closed([raw], HEADER_TIMEOUT + MARGIN)
    assert closed is not None, "the half-sent second request is still open"
    assert HEADER_TIMEOUT - EARLY <= closed - sent <= HEADER_TIMEOUT + MARGIN
    assert data.startswith(b"HTTP/1.1 408 ")


def test_serve_raises_its_soft_open_files_limit_to_the_hard_limit(served):
    limits = Path(f"/proc/{served.process.pid}/limits")
    if not limits.exists():
        pytest.skip("no /proc to read the server's limits from")
    line = next(x for x in limits.read_text().splitlines() if x.startswith("Max open files"))
    soft, hard = line.split()[3:5]
    assert soft == hard


@pytest.mark.parametrize("protocol", ["httptools", "h11"])
def test_both_protocol_classes_time_out_heads(tmp_path, protocol):
    from ladytiger.web import transport

    http = {"h11": transport.GuardedH11Protocol,
            "httptools": getattr(transport, "GuardedHttpToolsProtocol", None)}[protocol]
    if http is None:
        pytest.skip("httptools is not installed")
    settings = quick_settings(tmp_path / "tables.sqlite3", header_timeout=HEADER_TIMEOUT,
                              keep_alive_timeout=KEEP_ALIVE)
    with thread_server(settings, http) as base:
        assert_heads_time_out(base, 20)
        raw = socket.create_connection((HOST, port_of(base)), timeout=5)
        raw.sendall(FULL_REQUEST)
        assert read_response(raw).startswith(b"HTTP/1.1 200 ")
        raw.sendall(HALF_HEAD)
        raw.setblocking(False)
        [(closed, data)] = watch_until_closed([raw], HEADER_TIMEOUT + MARGIN)
        assert closed is not None and data.startswith(b"HTTP/1.1 408 ")
        # A WebSocket is past its head: no timer is left to close it.
        made = httpx.post(f"{base}/api/tables", json={"game": "doors"}, timeout=5).json()
        url = f"ws://{HOST}:{port_of(base)}/api/tables/{made['table']['id']}/ws"
        with ws_connect(url, open_timeout=5, compression=None) as watcher:
            watcher.send(json.dumps({"type": "hello"}))
            assert json.loads(watcher.recv(timeout=5))["type"] == "welcome"
            time.sleep(HEADER_TIMEOUT * 1.5)
            assert watcher.ping().wait(5)


CAP = 20


@pytest.fixture
def capped(tmp_path) -> Iterator[Served]:
    with Served(tmp_path, "--max-connections", str(CAP), "--keep-alive-timeout", "30") as server:
        yield server


def test_connections_over_the_cap_are_answered_503_and_closed(capped):
    made = httpx.post(f"{capped.base}/api/tables", json={"game": "doors"}, timeout=5).json()
    ws_url = f"ws://{HOST}:{capped.port}/api/tables/{made['table']['id']}/ws"
    with ExitStack() as held:
        # Fill the cap with WebSockets (spectators) and HTTP keep-alive connections.
        for _ in range(CAP // 2):
            watcher = held.enter_context(ws_connect(ws_url, open_timeout=5, compression=None))
            watcher.send(json.dumps({"type": "hello"}))
            assert json.loads(watcher.recv(timeout=5))["type"] == "welcome"
        for _ in range(CAP - CAP // 2):
            raw = held.enter_context(socket.create_connection((HOST, capped.port), timeout=5))
            raw.sendall(FULL_REQUEST)
            assert read_response(raw).startswith(b"HTTP/1.1 200 ")

        # Over the cap: a request is answered 503 at once and closed; a connection that says
        # nothing is closed unanswered, and half a head is answered 503, after a second.
        started = time.monotonic()
        asking = open_raw(capped.port, 30, FULL_REQUEST)
        silent = open_raw(capped.port, 10)
        halves = open_raw(capped.port, 10, HALF_HEAD)
        results = watch_until_closed(asking + silent + halves, 5)
        times = [when - started if when is not None else None for when, _ in results]
        assert all(when is not None and when < 1.0 for when in times[:30]), times[:30]
        assert all(data.startswith(b"HTTP/1.1 503 ") for _, data in results[:30])
        assert all(when is not None and when >= 1.0 - EARLY for when in times[30:]), times[30:]
        assert all(data == b"" for _, data in results[30:40])
        assert all(data.startswith(b"HTTP/1.1 503 ") for _, data in results[40:])
        print(f"\nover the cap: 30 requests answered 503 {summary(times[:30])}; silent and "
              f"half-sent connections closed {summary(times[30:])}")
        refused = httpx.get(f"{capped.base}/api", timeout=5)
        assert refused.status_code == 503 and "too many open connections" in refused.text
        assert refused.headers["retry-after"] == "5"
        with pytest.raises(InvalidStatus) as handshake:
            ws_connect(ws_url, open_timeout=5, compression=None)
        assert handshake.value.response.status_code == 503

    # Once the held connections are gone, the server answers again.
    deadline = time.monotonic() + 5
    while (status := httpx.get(f"{capped.base}/api", timeout=5).status_code) != 200:
        assert time.monotonic() < deadline, f"still {status} once the connections were closed"
        time.sleep(0.1)


def test_serve_warns_when_max_connections_is_beyond_the_open_files_limit(tmp_path):
    with Served(tmp_path, "--max-connections", "1000", "--bot-workers", "1",
                open_files=(128, 128)) as server:
        pass
    assert "max_connections is 1000 but this process may open only 128 files" in server.output


def test_open_files_warning_only_when_the_cap_is_beyond_the_limit():
    from ladytiger.web.transport import open_files_warning

    assert open_files_warning(Settings(max_connections=4000), 20000) is None
    assert open_files_warning(Settings(max_connections=4000), None) is None
    assert "lower --max-connections" in open_files_warning(Settings(max_connections=4000), 1024)


def test_serve_defaults_are_the_settings_defaults():
    defaults = Settings()
    parameters = inspect.signature(serve).parameters
    for name in ("header_timeout", "keep_alive_timeout", "max_connections"):
        assert parameters[name].default == getattr(defaults, name)
