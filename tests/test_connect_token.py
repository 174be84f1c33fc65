"""Where `ladytiger connect` finds a seat token: never on its command line (where `ps` shows
it), but in LADYTIGER_SEAT_TOKEN, a file (`--seat-file PATH`), standard input
(`--seat-file -`) or, for convenience, an invite link's `#seat=` fragment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
from typer.testing import CliRunner

from ladytiger.cli.main import app
from ladytiger.web.protocol import MAX_TOKEN_LENGTH
from tests.web.support import LiveServer, quick_settings

runner = CliRunner()
VARIABLE = "LADYTIGER_SEAT_TOKEN"


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("live") / "tables.sqlite3"
    with LiveServer(quick_settings(path)) as server:
        yield server


@pytest.fixture(autouse=True)
def no_token_in_the_environment(monkeypatch) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)


def human_against_bot(live: LiveServer) -> tuple[str, str]:
    """A short table with a human seat 0 and a bot: its URL (no token) and seat 0's token."""
    made = httpx.post(f"{live.base}/api/tables", json={
        "game": "doors", "options": {"gems_to_win": 2},
        "seats": [{"kind": "human"}, {"kind": "bot"}]}, timeout=10).json()
    return made["links"]["spectate"], made["tokens"]["0"]


def assert_played_seat_0(result) -> None:
    assert result.exit_code == 0, result.output
    assert "playing seat 0" in result.output and "seat 0 (you)" in result.output


def test_connect_reads_the_token_from_a_file(live, tmp_path):
    url, token = human_against_bot(live)
    path = tmp_path / "seat"
    path.write_text(f"  {token}\n\n")
    assert_played_seat_0(runner.invoke(app, ["connect", url, "--seat-file", str(path),
                                             "--seed", "1"]))


def test_connect_reads_the_token_from_standard_input(live):
    url, token = human_against_bot(live)
    assert_played_seat_0(runner.invoke(app, ["connect", url, "--seat-file", "-", "--seed", "1"],
                                       input=f"{token}\n"))


def test_connect_takes_the_token_from_the_environment(live):
    url, token = human_against_bot(live)
    # A process of its own, as a user would run it; bounded, should it wait for ever instead.
    done = subprocess.run(
        [sys.executable, "-m", "ladytiger.cli.main", "connect", url, "--seed", "1"],
        env={**os.environ, VARIABLE: token}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "playing seat 0" in done.stdout and "seat 0 (you)" in done.stdout
    assert token not in done.stdout + done.stderr


def test_a_seat_file_outranks_the_links_token_which_outranks_the_environment(live, tmp_path):
    url, token = human_against_bot(live)
    path = tmp_path / "seat"
    path.write_text(token)
    assert_played_seat_0(runner.invoke(app, ["connect", f"{url}#seat=stale", "--seat-file",
                                             str(path), "--seed", "1"]))
    url, token = human_against_bot(live)
    assert_played_seat_0(runner.invoke(app, ["connect", f"{url}#seat={token}", "--seed", "1"],
                                       env={VARIABLE: "another-tables-token"}))


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ({"env": "   \n"}, f"the seat token in {VARIABLE} is empty"),
        ({"stdin": "\n"}, "the seat token on standard input is empty"),
        ({"file": ""}, "the seat token in the seat file {path} is empty"),
        ({"env": "x" * (MAX_TOKEN_LENGTH + 1)},
         f"is {MAX_TOKEN_LENGTH + 1} characters long; a seat token has at most "
         f"{MAX_TOKEN_LENGTH}"),
        ({"file": "x" * 100_000}, f"a seat token has at most {MAX_TOKEN_LENGTH}"),
        ({"file": "first-token\nsecond-token\n"}, "holds spaces or control characters"),
        ({"file": b"\xff\xfe"}, "the seat token in the seat file {path} is not text"),
    ],
)
def test_connect_refuses_an_unusable_token(live, tmp_path, source, message):
    args = ["connect", f"{live.base}/play/nosuch"]
    env, stdin = {}, None
    if "env" in source:
        env = {VARIABLE: source["env"]}
    elif "stdin" in source:
        args += ["--seat-file", "-"]
        stdin = source["stdin"]
    else:
        path = tmp_path / "seat"
        content = source["file"]
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        args += ["--seat-file", str(path)]
        message = message.format(path=path)
    result = runner.invoke(app, args, env=env, input=stdin)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())


def test_a_seat_file_that_cannot_be_read_is_named(live, tmp_path):
    missing = tmp_path / "no-such-file"
    result = runner.invoke(app, ["connect", f"{live.base}/play/nosuch",
                                 "--seat-file", str(missing)])
    assert result.exit_code == 2
    assert f"cannot read the seat file {missing}" in " ".join(result.output.split())
    result = runner.invoke(app, ["connect", f"{live.base}/play/nosuch",
                                 "--seat-file", str(tmp_path)])
    assert result.exit_code == 2
    assert f"cannot read the seat file {tmp_path}" in " ".join(result.output.split())


def test_a_token_on_the_command_line_is_refused_with_the_alternatives(live):
    result = runner.invoke(app, ["connect", f"{live.base}/play/nosuch", "--seat", "secret"])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "--seat is gone" in text and VARIABLE in text and "--seat-file" in text
    assert "secret" not in text
