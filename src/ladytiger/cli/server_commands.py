"""The `ladytiger` subcommands of the server adapter, added to the main app by `register`.

`serve` runs the game server (docs/protocol.md); `connect` plays one seat of a table on a
server with a local bot, through the reference client in `ladytiger.web.client`.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

console = Console(highlight=False)


def register(app: typer.Typer) -> None:
    """Add this adapter's commands to `app`."""
    app.command()(serve)
    app.command()(connect)


def serve(
    db: Annotated[Path, typer.Option(help="the SQLite database of tables and moves")] = Path(
        "ladytiger.sqlite3"
    ),
    host: Annotated[str, typer.Option(help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the port to listen on")] = 8000,
    bot_pause: Annotated[
        float, typer.Option(help="seconds a bot waits before moving (a table may set its own)")
    ] = 0.3,
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
) -> None:
    """Run the game server: tables, seats and bots over HTTP and WebSocket."""
    try:
        import uvicorn

        from ladytiger.web import Settings, create_app
        from ladytiger.web.protocol import MAX_MESSAGE_BYTES
    except ImportError as error:
        console.print(f"[red]the server needs the web extra: pip install 'ladytiger[web]' "
                      f"({escape(str(error))})[/]")
        raise typer.Exit(2) from error
    if bot_pool not in ("thread", "process"):
        raise typer.BadParameter("must be 'thread' or 'process'", param_hint="--bot-pool")
    if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
        raise typer.BadParameter("must be FULL, NORMAL or EXTRA", param_hint="--synchronous")
    settings = Settings(
        db_path=str(db),
        bot_pause=bot_pause,
        bot_workers=bot_workers,
        bot_pool=bot_pool,
        synchronous=synchronous.upper(),
        tune_collector=True,
    )
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    console.print(f"ladytiger server on http://{host}:{port} with database {db}")
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level=log_level.lower(),
        access_log=access_log,
        # Above the protocol's own limit, so an oversized message gets the protocol's error
        # and a frame beyond any reason is cut off by the transport.
        ws_max_size=MAX_MESSAGE_BYTES * 8,
        ws_per_message_deflate=False,
        ws=ws_impl,
        lifespan="on",
    )


def connect(
    url: Annotated[
        str, typer.Argument(help="an invite link or a table URL (or the server URL with --table)")
    ],
    seat: Annotated[
        str | None, typer.Option(help="the seat token (an invite link carries it)")
    ] = None,
    bot: Annotated[str, typer.Option(help="the bot that plays the seat")] = "random",
    bot_option: Annotated[
        list[str] | None, typer.Option("--bot-option", help="a bot option NAME=VALUE")
    ] = None,
    table: Annotated[str | None, typer.Option(help="the table id, if URL is the server")] = None,
    quiet: Annotated[bool, typer.Option(help="print only the result")] = False,
    seed: Annotated[int | None, typer.Option(help="seed of the bot")] = None,
) -> None:
    """Play a seat of a table on a server with a bot (without a token: watch the table)."""
    from ladytiger.bots import registered_bots
    from ladytiger.cli.main import parse_options, say_error
    from ladytiger.web.client import ClientError, parse_link, play_seat

    try:
        link = parse_link(url)
    except ValueError as error:
        say_error(error)
        raise typer.Exit(2) from error
    table_id = table or link.table
    token = seat or link.token
    if table_id is None:
        say_error("which table? give an invite link, a table URL, or --table ID")
        raise typer.Exit(2)
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
            for line in log[self.shown:]:
                console.print(f"[dim]·[/] {escape(str(line))}")
            self.shown = max(self.shown, len(log))
        elif kind == "error" and not self.quiet and message.get("code") != "stale_version":
            console.print(f"[yellow]{escape(message.get('message', ''))}[/]")
