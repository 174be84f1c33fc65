"""A throwaway PostgreSQL for the server tests: Debian's initdb and pg_ctl on a temporary
directory, listening on a loopback port, started on first use and stopped when the test
process exits. Each test gets a database of its own in it.

Where the server binaries (Debian's `postgresql` package) or the driver (the `postgres`
extra) are missing, the tests that need them are skipped with a message saying which;
scripts/test installs both, so CI always runs them.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

# The two stores a parametrized test runs on: the path of a SQLite file, or a fresh database.
STORES = ["sqlite", "postgresql"]


def _server_binaries() -> Path | None:
    """The directory of initdb and pg_ctl: on PATH, else Debian's newest version."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                      key=lambda path: int(Path(path).parent.parent.name))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """One PostgreSQL server of the test process's own."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.port = _free_port()
        # PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres`
        # user the Debian package makes.
        self.user = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root, PostgreSQL needs a 'postgres' user "
                                   "(Debian's postgresql package makes one)") from None
        self.root = Path(tempfile.mkdtemp(prefix="ladytiger-pg-"))
        if self.user is not None:
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        self.data = self.root / "data"
        self.log = self.root / "server.log"

    def _run(self, *command: str) -> None:
        subprocess.run(command, check=True, capture_output=True, timeout=120,
                       user=self.user.pw_uid if self.user else None,
                       group=self.user.pw_gid if self.user else None, cwd=self.root)

    def start(self) -> None:
        self._run(str(self.binaries / "initdb"), "-D", str(self.data), "-U", "ladytiger",
                  "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C")
        # fsync off: these tests kill server processes, never the database's machine.
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} "
                   "-c fsync=off -c full_page_writes=off -c max_connections=200")
        try:
            self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-l",
                      str(self.log), "-o", options, "-w", "-t", "60", "start")
        except subprocess.CalledProcessError as error:
            text = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {error.stderr!r} {text}") from None

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m",
                      "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://ladytiger@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        import asyncpg

        name = "t_" + secrets.token_hex(6)

        async def create() -> None:
            connection = await asyncpg.connect(self.url())
            try:
                await connection.execute(f"CREATE DATABASE {name}")
            finally:
                await connection.close()

        # In a thread of its own: the caller may be inside an event loop already.
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, create()).result(60)
        return self.url(name)


_cluster: Cluster | None = None
_missing: str | None = None


def cluster() -> Cluster:
    """This test process's cluster, started on first use; skips the test where it cannot
    be had."""
    global _cluster, _missing
    if _cluster is not None:
        return _cluster
    if _missing is None:
        try:
            import asyncpg  # noqa: F401
        except ImportError:
            _missing = ("the PostgreSQL driver is not installed: pip install "
                        "'ladytiger[postgres]' (scripts/test does)")
        binaries = _server_binaries()
        if _missing is None and binaries is None:
            _missing = ("PostgreSQL's server binaries (initdb, pg_ctl) are not installed: "
                        "apt-get install postgresql (scripts/test does)")
        if _missing is None and binaries is not None:
            made = Cluster(binaries)
            made.start()
            atexit.register(made.stop)
            _cluster = made
            return made
    pytest.skip(_missing or "PostgreSQL is unavailable")


def database(kind: str, directory: Path, name: str = "tables") -> str:
    """Where a test's server keeps its tables: a SQLite file in `directory`, or a fresh
    PostgreSQL database."""
    if kind == "sqlite":
        return str(directory / f"{name}.sqlite3")
    return cluster().new_database()
