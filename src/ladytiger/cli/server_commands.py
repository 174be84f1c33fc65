"""The `ladytiger` subcommands of the server adapter, added to the main app by `register`.

`serve` runs the game server (docs/protocol.md); `connect` plays one seat of a table on a
server with a local bot, `join` lets a person play it from the keyboard, and `host` sets a
table up and plays its first seat, all through the reference client in `ladytiger.web.client`.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import os
import sys
from collections.abc import Coroutine, Mapping
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from ladytiger.cli.log_lines import print_log

console = Console(highlight=False)
T = TypeVar("T")

# Where `connect` finds a seat token when neither a file nor the link gives one.
SEAT_TOKEN_VARIABLE = "LADYTIGER_SEAT_TOKEN"
# Where `join` finds the player's secret (or personal link) without --player-file.
PLAYER_VARIABLE = "LADYTIGER_PLAYER"


def register(app: typer.Typer) -> None:
    """Add this adapter's commands to `app`."""
    app.command()(serve)
    app.command()(connect)
    app.command()(join)
    app.command()(host)
    app.command()(tables)


def serve(
    db: Annotated[str, typer.Option(
        help="the database of tables and moves: a SQLite file, or a postgresql://USER@HOST/DB "
             "URL that several server processes may share (docs/deploy.md)")
    ] = "ladytiger.sqlite3",
    host: Annotated[str, typer.Option(help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the port to listen on")] = 8000,
    bot_pause: Annotated[
        float, typer.Option(help="seconds a bot waits before moving, so people can follow "
                            "(a table may set its own pace: fast 0.3, normal 1, slow 2)")
    ] = 1.0,
    bot_workers: Annotated[int, typer.Option(min=1, help="workers bots think in")] = 2,
    bot_pool: Annotated[
        str, typer.Option(help="'process' (bots never slow the server) or 'thread' (light "
                          "bots only)")
    ] = "process",
    synchronous: Annotated[
        str, typer.Option(help="SQLite synchronous: FULL (survives power loss) or NORMAL")
    ] = "FULL",
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "info",
    access_log: Annotated[bool, typer.Option(help="log every HTTP request")] = False,
    ws_impl: Annotated[
        str, typer.Option(help="uvicorn's WebSocket implementation (auto, websockets, "
                          "websockets-sansio, wsproto)")
    ] = "auto",
    header_timeout: Annotated[
        float, typer.Option(help="seconds a connection may take to send a request's headers "
                            "before it is closed")
    ] = 10.0,
    keep_alive_timeout: Annotated[
        float, typer.Option(help="seconds an idle keep-alive connection stays open")
    ] = 5.0,
    max_connections: Annotated[
        int, typer.Option(min=1, help="open connections (HTTP and WebSocket) at once; one "
                          "more is answered 503 and closed")
    ] = 4000,
    setting: Annotated[
        list[str] | None,
        typer.Option("--setting", help="any other server setting, NAME=VALUE (repeatable; "
                     "docs/protocol.md lists them all, e.g. tables_per_client=50)"),
    ] = None,
) -> None:
    """Run the game server: tables, seats and bots over HTTP and WebSocket."""
    try:
        import uvicorn

        from ladytiger.web import Settings, create_app
        from ladytiger.web.config import with_overrides
        from ladytiger.web.store_postgres import asyncpg, is_postgres_url
        from ladytiger.web.stores import describe
        from ladytiger.web.transport import (
            open_files_warning,
            raise_open_files_limit,
            server_config,
        )
    except ImportError as error:
        console.print(f"[red]the server needs the web extra: pip install 'ladytiger[web]' "
                      f"({escape(str(error))})[/]")
        raise typer.Exit(2) from error
    if bot_pool not in ("thread", "process"):
        raise typer.BadParameter("must be 'thread' or 'process'", param_hint="--bot-pool")
    if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
        raise typer.BadParameter("must be FULL, NORMAL or EXTRA", param_hint="--synchronous")
    for value, hint in ((header_timeout, "--header-timeout"),
                        (keep_alive_timeout, "--keep-alive-timeout")):
        if not value > 0:
            raise typer.BadParameter("must be more than 0 seconds", param_hint=hint)
    if is_postgres_url(db) and asyncpg is None:
        console.print("[red]a PostgreSQL database needs the postgres extra: pip install "
                      "'ladytiger[postgres]'[/]")
        raise typer.Exit(2)
    settings = Settings(
        db_path=db,
        bot_pause=bot_pause,
        bot_workers=bot_workers,
        bot_pool=bot_pool,
        synchronous=synchronous.upper(),
        tune_collector=True,
        header_timeout=header_timeout,
        keep_alive_timeout=keep_alive_timeout,
        max_connections=max_connections,
    )
    try:
        settings = with_overrides(settings, setting or [])
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--setting") from None
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    # Each connection holds a file; a default soft limit (often 1024) would run out long
    # before max_connections, and the hard limit is as far as a process may raise its own.
    warning = open_files_warning(settings, raise_open_files_limit())
    if warning is not None:
        console.print(f"[yellow]warning: {escape(warning)}[/]", soft_wrap=True)
    console.print(f"ladytiger server on http://{host}:{port} with database "
                  f"{escape(describe(db))}")
    config = server_config(create_app(settings), settings, host, port,
                           log_level=log_level.lower(), access_log=access_log, ws=ws_impl)
    server = uvicorn.Server(config)
    # Uvicorn shuts down on Ctrl-C, then raises the signal again on its way out.
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise typer.Exit(3)  # what uvicorn.run exits with when a server fails to start


def connect(
    url: Annotated[
        str, typer.Argument(help="an invite link or a table URL (or the server URL with --table)")
    ],
    seat_file: Annotated[
        str | None, typer.Option(help="read the seat token from this file ('-': standard "
                                 "input); without it, from the link's #seat= part, else from "
                                 f"{SEAT_TOKEN_VARIABLE}. A link on the command line can be "
                                 "read by other users of this machine (ps); these cannot.")
    ] = None,
    seat: Annotated[str | None, typer.Option(hidden=True)] = None,
    bot: Annotated[str, typer.Option(help="the bot that plays the seat")] = "random",
    bot_option: Annotated[
        list[str] | None, typer.Option("--bot-option", help="a bot option NAME=VALUE")
    ] = None,
    table: Annotated[str | None, typer.Option(help="the table id, if URL is the server")] = None,
    quiet: Annotated[bool, typer.Option(help="print only the result")] = False,
    seed: Annotated[int | None, typer.Option(help="seed of the bot")] = None,
) -> None:
    """Play a seat of a table on a server with a bot (without a token: watch the table)."""
    # The token never comes from an option of its own: every user of the machine can read a
    # command line (ps). An invite link's #seat= part is still taken, as the convenient form.
    from ladytiger.bots import registered_bots
    from ladytiger.cli.main import parse_options, say_error
    from ladytiger.web.client import ClientError, play_seat

    if seat is not None:
        # Refused although it would work: taking it would keep alive the habit that shows
        # tokens to everyone on the machine.
        say_error(f"--seat is gone: a token on the command line shows in the process list "
                  f"(ps) to every user of this machine. Put it in {SEAT_TOKEN_VARIABLE}, or in "
                  f"a file read with --seat-file PATH (--seat-file - reads standard input).")
        raise typer.Exit(2)
    link, token, table_id = _table_and_token(url, seat_file, table)
    if bot not in registered_bots():
        say_error(f"there is no bot called {bot!r}; the bots are: {', '.join(registered_bots())}")
        raise typer.Exit(2)
    options = parse_options(bot_option)
    printer = _Printer(quiet)
    try:
        end = asyncio.run(
            play_seat(link.base, table_id, token, bot, options, printer.show, seed=seed)
        )
    except ClientError as error:
        say_error(error)
        raise typer.Exit(1) from error
    except KeyboardInterrupt:
        raise typer.Exit(1) from None
    seat_number = printer.seat
    for index, (score, share) in enumerate(zip(end["scores"], end["returns"], strict=True)):
        you = " (you)" if index == seat_number else ""
        mark = " [bold green]wins[/]" if share > 0 else ""
        console.print(f"seat {index}{you}: {score}{mark}")


def join(
    url: Annotated[
        str, typer.Argument(help="an invite link (your seat), or a table's link (then the "
                            "first open seat is taken for you)")
    ],
    seat_file: Annotated[
        str | None, typer.Option(help="read the seat token from this file ('-': standard "
                                 "input), as `connect` does")
    ] = None,
    table: Annotated[str | None, typer.Option(help="the table id, if URL is the server")] = None,
    player_file: Annotated[
        str | None, typer.Option(help="play as your player (named, rated, in the chat): a "
                                 "file holding your personal link (…/me#player=…) or its "
                                 f"secret; without it, from {PLAYER_VARIABLE} if set")
    ] = None,
) -> None:
    """Play a seat of a table on a server yourself, in the terminal, with friends who may be
    in their browsers. Type a move's number or its text."""
    from ladytiger.cli.main import say_error
    from ladytiger.cli.remote_seat import LineReader, play_in_terminal
    from ladytiger.web.client import ServerClient

    link, token, table_id = _table_and_token(url, seat_file, table)
    try:
        player = read_player_secret(player_file)
    except ValueError as error:
        say_error(error)
        raise typer.Exit(2) from error

    async def sit_and_play() -> dict[str, Any] | None:
        seat_token = token
        if seat_token is None:
            async with ServerClient(link.base) as client:
                claimed = await client.join(table_id)
            seat_token = claimed["token"]
            console.print(f"You took seat {claimed['seat']}. To come back to it, keep this "
                          f"link: {link.base}/play/{table_id}#seat={seat_token}",
                          soft_wrap=True)
        return await play_in_terminal(link.base, table_id, seat_token, LineReader(console),
                                      console, player=player)

    if _run_remote(sit_and_play()) is None:
        raise typer.Exit(1)  # the table ended without a result, or the player left it


def _table_and_token(url: str, seat_file: str | None,
                     table: str | None) -> tuple[Any, str | None, str]:
    """The server, seat token and table a command names, or exit 2 saying what is missing."""
    from ladytiger.cli.main import say_error
    from ladytiger.web.client import parse_link

    try:
        link = parse_link(url)
        token = read_seat_token(seat_file, link.token)
    except ValueError as error:
        say_error(error)
        raise typer.Exit(2) from error
    table_id = table or link.table
    if table_id is None:
        say_error("which table? give an invite link, a table URL, or --table ID")
        raise typer.Exit(2)
    return link, token, table_id


def read_seat_token(seat_file: str | None, link_token: str | None,
                    environ: Mapping[str, str] | None = None) -> str | None:
    """The seat token `connect` plays with, or None to watch: from `seat_file` ('-' is
    standard input) if given, else the link's, else the environment's. Surrounding
    whitespace is dropped; a token that cannot be one is refused with a ValueError."""
    if seat_file == "-":
        return _checked(_read_standard_input(), "on standard input")
    if seat_file is not None:
        return _checked(_read_file(seat_file), f"in the seat file {seat_file}")
    if link_token is not None:
        return _checked(link_token, "in the link")
    value = (os.environ if environ is None else environ).get(SEAT_TOKEN_VARIABLE)
    return None if value is None else _checked(value, f"in {SEAT_TOKEN_VARIABLE}")


def host(
    server: Annotated[str, typer.Argument(help="the server's address, e.g. "
                                          "http://127.0.0.1:8000")],
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="which game")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option("--seat", help="who sits in seats 1, 2, … in turn (repeatable): 'friend' "
                     "(an invite link for you to send), 'open' (listed in the lobby for "
                     "anyone), or a bot level (beginner, casual, strong, expert); seats not "
                     "given are friends'"),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="a game option NAME=VALUE")
    ] = None,
    clock: Annotated[int | None, typer.Option(help="seconds a move, then a bot moves for "
                                              "whoever ran out")] = None,
    unrated: Annotated[bool, typer.Option(help="a game that does not count for ratings")] = False,
    hints: Annotated[bool | None, typer.Option(
        "--hints/--no-hints", help="whether the players may ask for hints (without either: "
        "yes at a table with a bot, no at a table of people only)")] = None,
    player_file: Annotated[
        str | None, typer.Option(help="play as your player, as `join` does")
    ] = None,
) -> None:
    """Set up a table on a server, print the links to send, and play seat 0 in the terminal
    (the game starts once every seat is taken)."""
    from ladytiger.cli.main import parse_options, say_error
    from ladytiger.cli.remote_seat import LineReader, play_in_terminal
    from ladytiger.web.client import ServerClient, parse_link

    try:
        base = parse_link(server).base
        player = read_player_secret(player_file)
    except ValueError as error:
        say_error(error)
        raise typer.Exit(2) from error
    options: dict[str, Any] = parse_options(option)
    if players is not None:
        options["players"] = players
    seats = [{"kind": "human"}] + [_seat_plan(word) for word in seat or []]
    if players is not None and len(seats) > players:
        say_error(f"{len(seats) - 1} --seat given for {players - 1} other seats")
        raise typer.Exit(2)
    count = players if players is not None else max(len(seats), 2)
    seats += [{"kind": "human"}] * (count - len(seats))
    options.setdefault("players", count)
    request: dict[str, Any] = {"options": options, "seats": seats, "rated": not unrated}
    if clock is not None:
        request["clock"] = {"seconds": clock}
    if hints is not None:
        request["hints"] = hints

    async def make_and_play() -> dict[str, Any] | None:
        async with ServerClient(base) as client:
            made = await client.create_table(game_name, **request)
        table_id = made["table"]["id"]
        console.print(f"{escape(made['table']['title'])} at {base}/play/{table_id}")
        invites = made["links"]["invites"]
        for number, plan in enumerate(seats[1:], start=1):
            if plan["kind"] == "bot":
                console.print(f"  seat {number}: a {plan['bot']} bot")
            elif plan.get("open"):
                console.print(f"  seat {number}: open to anyone, listed in the lobby")
            else:
                # Unwrapped: a link broken over two lines cannot be copied whole.
                console.print(f"  seat {number}: send this link to its player: "
                              f"{invites[str(number)]}", soft_wrap=True)
        console.print(f"  seat 0 is yours; to come back to it: {invites['0']}",
                      soft_wrap=True)
        return await play_in_terminal(base, table_id, made["tokens"]["0"], LineReader(console),
                                      console, player=player)

    if _run_remote(make_and_play()) is None:
        raise typer.Exit(1)


def tables(
    server: Annotated[str, typer.Argument(help="the server's address, e.g. "
                                          "http://127.0.0.1:8000")],
    game: Annotated[str | None, typer.Option(help="only this game's tables")] = None,
) -> None:
    """The server's lobby: tables with an open seat, who sits there, and how to join."""
    from ladytiger.cli.main import say_error
    from ladytiger.web.client import ServerClient, parse_link

    try:
        base = parse_link(server).base
    except ValueError as error:
        say_error(error)
        raise typer.Exit(2) from error

    async def read() -> list[dict[str, Any]]:
        async with ServerClient(base) as client:
            return await client.lobby("waiting")

    listed = _run_remote(read())
    open_tables = [t for t in listed if t["free_seats"] and game in (None, t["game"])]
    if not open_tables:
        console.print("No table has an open seat" + (f" at {game}" if game else "") + ". Set "
                      f"one up: ladytiger host {base} GAME --seat open")
        return
    for entry in open_tables:
        ratings = entry.get("seat_ratings") or []
        seated = []
        for seat in entry["seats"]:
            if seat["kind"] == "human" and seat["seat"] in entry["free_seats"]:
                continue
            rating = ratings[seat["seat"]] if seat["seat"] < len(ratings) else None
            seated.append(seat["name"] + (f" ({round(rating['rating'])})" if rating else ""))
        free = len(entry["free_seats"])
        terms = [f"{k}={v}" for k, v in entry["options"].items() if k != "players"]
        terms.append("rated" if entry.get("rated", True) else "not rated")
        if entry.get("clock"):
            terms.append(f"{entry['clock']['seconds']:g} s a move")
        console.print(f"[bold]{escape(entry['title'])}[/], {len(entry['seats'])} players, "
                      f"{free} open · with {escape(', '.join(seated) or 'nobody yet')} · "
                      f"{escape(', '.join(terms))}", soft_wrap=True)
        # On a line of its own, unwrapped, to be copied whole.
        console.print(f"    ladytiger join {base}/play/{entry['id']}", soft_wrap=True)


def _run_remote(job: Coroutine[Any, Any, T]) -> T:
    """Run a conversation with a server; what goes wrong is said in words, and exits 1."""
    from ladytiger.cli.main import say_error
    from ladytiger.web.client import ClientError

    try:
        return asyncio.run(job)
    except ClientError as error:
        say_error(error)
        raise typer.Exit(1) from error
    except (OSError, TimeoutError) as error:
        say_error(f"cannot reach the server: {error}")
        raise typer.Exit(1) from error
    except KeyboardInterrupt:
        raise typer.Exit(1) from None


def _seat_plan(word: str) -> dict[str, Any]:
    """A --seat word as the server's seat plan."""
    word = word.strip().lower()
    if word in ("friend", "human"):
        return {"kind": "human"}
    if word == "open":
        return {"kind": "human", "open": True}
    return {"kind": "bot", "bot": word}


def read_player_secret(player_file: str | None,
                       environ: Mapping[str, str] | None = None) -> str | None:
    """The player secret `join` says hello with, or None to play by the seat's token only:
    from `player_file`, else the environment; either may hold the personal link."""
    if player_file is not None:
        text: str | bytes = _read_file(player_file, "player file")
        where = f"in the player file {player_file}"
    else:
        value = (os.environ if environ is None else environ).get(PLAYER_VARIABLE)
        if value is None:
            return None
        text, where = value, f"in {PLAYER_VARIABLE}"
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"the player secret {where} is not text (UTF-8)") from None
    text = text.strip()
    if "#player=" in text:
        text = text.split("#player=", 1)[1]
    secret = text.strip()
    if not secret or any(c.isspace() or not c.isprintable() for c in secret):
        raise ValueError(f"no player secret {where}: give your personal link (…/me#player=…) "
                         "or the secret in it")
    return secret


def _checked(text: str | bytes, where: str) -> str:
    from ladytiger.web.protocol import MAX_TOKEN_LENGTH

    if isinstance(text, bytes):
        if len(text) >= _READ_LIMIT:
            raise ValueError(f"the seat token {where} is at least {_READ_LIMIT} bytes long; a "
                             f"seat token has at most {MAX_TOKEN_LENGTH} characters")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"the seat token {where} is not text (UTF-8)") from None
    token = text.strip()
    if not token:
        raise ValueError(f"the seat token {where} is empty")
    if len(token) > MAX_TOKEN_LENGTH:
        raise ValueError(f"the seat token {where} is {len(token)} characters long; a seat "
                         f"token has at most {MAX_TOKEN_LENGTH}")
    if any(character.isspace() or not character.isprintable() for character in token):
        raise ValueError(f"the seat token {where} holds spaces or control characters; a seat "
                         f"token is one word")
    return token


# Read no more than this of a seat file: a token is short, and a mistaken path may name
# something endless (a device, a pipe, a log).
_READ_LIMIT = 4096


def _read_file(path: str, what: str = "seat file") -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(_READ_LIMIT)
    except OSError as error:
        raise ValueError(f"cannot read the {what} {path}: {error.strerror or error}") from None


def _read_standard_input() -> str | bytes:
    stdin = sys.stdin
    if stdin is None:
        raise ValueError("there is no standard input to read the seat token from")
    if stdin.isatty():
        # Typed by hand: ask without echoing it to the screen.
        return getpass.getpass("seat token: ")
    stream = getattr(stdin, "buffer", None)
    return stdin.read(_READ_LIMIT) if stream is None else stream.read(_READ_LIMIT)


class _Printer:
    """Prints each new line of the seat's log as views arrive."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.shown = 0
        self.seat: int | None = None

    def show(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.seat = message["seat"]
            self.shown = 0
            if not self.quiet:
                who = "watching" if self.seat is None else f"playing seat {self.seat}"
                table = message["table"]
                console.print(f"[bold]{escape(table['title'])}[/] table {table['id']}: {who}")
        elif kind == "view" and not self.quiet:
            log = message["observation"].get("log", [])
            print_log(console, log[self.shown:])
            self.shown = max(self.shown, len(log))
        elif kind == "error" and not self.quiet and message.get("code") != "stale_version":
            console.print(f"[yellow]{escape(message.get('message', ''))}[/]")
