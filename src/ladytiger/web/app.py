"""The Starlette application: the JSON HTTP API, the table WebSocket and the home page.

`/` and `/static` belong to the browser interface; until it exists `/` is a plain page that
says the server is up and lists the games. Everything a program uses lives under `/api`.
docs/protocol.md is the reference for every route and message.
"""

from __future__ import annotations

import html
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from ladytiger.bots import registered_bots
from ladytiger.core import LadyTigerError, registered_games
from ladytiger.core.game import GameInfo
from ladytiger.web import collector
from ladytiger.web.bot_options import BotLimits
from ladytiger.web.config import Settings
from ladytiger.web.hub import Hub
from ladytiger.web.pages import mount_pages
from ladytiger.web.protocol import (
    MAX_BODY_BYTES,
    PROTOCOL,
    Field,
    ProtocolError,
    action_value,
    decode_json,
    encode,
    natural,
    validate,
)
from ladytiger.web.replays import parse_viewer, replay_steps, replay_view
from ladytiger.web.sessions import serve_socket
from ladytiger.web.specs import parse_create_request
from ladytiger.web.tables import ABANDONED, FINISHED, PLAYING, WAITING, Table

log = logging.getLogger("ladytiger.web")

Handler = Callable[[Request], Awaitable[Response]]

JOIN_SCHEMA = {"seat": Field((int,), required=False, check=natural)}
ACTION_SCHEMA = {
    "version": Field((int,), check=natural),
    "action": Field((int, str), check=action_value),
}
WHY_SCHEMA = {"action": Field((int, str), check=action_value)}
REPLAY_SCHEMA = {
    "record": Field((dict,)),
    "step": Field((int,), required=False, check=natural),
    "viewer": Field((int, type(None)), required=False),
}


# ---------------------------------------------------------------------------- helpers
def api_error(error: ProtocolError) -> JSONResponse:
    headers = None
    if "retry_after" in error.extra:
        headers = {"retry-after": str(error.extra["retry_after"])}
    return JSONResponse({"error": error.payload()}, status_code=error.status, headers=headers)


def client_address(request: Request) -> str:
    """Who asks, for the per-client limits: the peer's address (behind a proxy, run uvicorn
    with --forwarded-allow-ips so that this is the player's, not the proxy's)."""
    return request.client.host if request.client is not None else "unknown"


def api(handler: Handler) -> Handler:
    """Turn a ProtocolError or an engine error raised by `handler` into a JSON error."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ProtocolError as error:
            return api_error(error)
        except LadyTigerError as error:
            return api_error(ProtocolError("bad_request", str(error)))

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


async def read_body(request: Request) -> Any:
    """The request body as JSON, read no further than the size limit (empty body: {})."""
    declared = request.headers.get("content-length")
    too_large = ProtocolError(
        "too_large", f"the request body is over {MAX_BODY_BYTES} bytes", status=413
    )
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY_BYTES:
            raise too_large
    if not body.strip():
        return {}
    return decode_json(bytes(body), MAX_BODY_BYTES, "the request body")


async def read_json(request: Request, schema: dict[str, Field], where: str) -> dict[str, Any]:
    return validate(await read_body(request), schema, where)


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError(
            "unauthorized", "send the seat token as 'Authorization: Bearer TOKEN'", status=401
        )
    return token.strip()


def seat_of(table: Table, request: Request) -> int:
    seat = table.authenticate(bearer_token(request))
    if seat is None:
        raise ProtocolError("unauthorized", "that token holds no seat at this table", status=401)
    return seat


def game_json(info: GameInfo) -> dict[str, Any]:
    return {
        "name": info.name,
        "title": info.title,
        "description": info.description,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "imperfect_information": info.imperfect_information,
        "rules_page": info.rules_page,
        "options": [
            {
                "name": option.name,
                "default": option.default,
                "description": option.description,
                "kind": option.kind.__name__,
                "choices": list(option.choices) if option.choices is not None else None,
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
            for option in info.all_options()
        ],
        "variants": [dict(v) for v in info.variants],
    }


def links(request: Request, table_id: str, tokens: dict[int, str] | None = None) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    socket_base = "ws" + base.removeprefix("http")
    out: dict[str, Any] = {
        "table": f"{base}/api/tables/{table_id}",
        "spectate": f"{base}/play/{table_id}",
        "socket": f"{socket_base}/api/tables/{table_id}/ws",
        "record": f"{base}/api/tables/{table_id}/record",
    }
    if tokens is not None:
        # The token rides in the fragment, which browsers never send to a server.
        out["invites"] = {str(seat): f"{base}/play/{table_id}#seat={token}"
                          for seat, token in sorted(tokens.items())}
    return out


def _steps_body(table: Table) -> bytes:
    record = table.record()
    return encode({"record": record, "steps": replay_steps(record)}).encode()


def _view_body(table: Table, step: int, viewer: int | None) -> bytes:
    return encode(replay_view(table.record(), step, viewer)).encode()


# ---------------------------------------------------------------------------- the app
def create_app(settings: Settings | None = None, *, rng: random.Random | None = None) -> Starlette:
    """The server for `settings`. Its lifespan opens the database and restores tables."""
    settings = settings or Settings()
    hub = Hub(settings, rng)
    bot_limits = BotLimits.from_settings(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        thresholds = collector.tune_for_server() if settings.tune_collector else None
        await hub.open()
        try:
            yield
        finally:
            await hub.close()
            if thresholds is not None:
                collector.restore(thresholds)

    async def home(request: Request) -> Response:
        items = "\n".join(
            f"<li><b>{html.escape(info.title)}</b> ({info.min_players}"
            + (f"–{info.max_players}" if info.max_players != info.min_players else "")
            + f" players): {html.escape(info.description)}</li>"
            for info in registered_games()
        )
        page = (
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>ladytiger</title>\n</head>\n<body>\n<h1>ladytiger server is up</h1>\n"
            f"<p>{len(hub.active)} table(s) in play.</p>\n<h2>Games</h2>\n<ul>\n{items}\n</ul>\n"
            "<p>The API is under <a href=\"/api\">/api</a>; "
            "the protocol is described in docs/protocol.md.</p>\n</body>\n</html>\n"
        )
        return HTMLResponse(page)

    async def play_page(request: Request) -> Response:
        table_id = html.escape(request.path_params["table_id"])
        page = (
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>ladytiger table {table_id}</title>\n</head>\n<body>\n"
            f"<h1>Table {table_id}</h1>\n<p>The browser table view is not built yet. "
            "Play a seat from a terminal with <code>ladytiger connect &lt;this link&gt;</code>, "
            f"or read <a href=\"/api/tables/{table_id}\">the table</a>.</p>\n</body>\n</html>\n"
        )
        return HTMLResponse(page)

    @api
    async def index(request: Request) -> Response:
        return JSONResponse({
            "server": "ladytiger",
            "protocol": PROTOCOL,
            "games": "/api/games",
            "bots": "/api/bots",
            "tables": "/api/tables",
        })

    @api
    async def games(request: Request) -> Response:
        return JSONResponse({"games": [game_json(info) for info in registered_games()]})

    @api
    async def bots(request: Request) -> Response:
        return JSONResponse({"bots": [{"name": name, "summary": summary}
                                      for name, summary in registered_bots().items()]})

    @api
    async def list_tables(request: Request) -> Response:
        status = request.query_params.get("status", WAITING)
        if status not in (WAITING, PLAYING, FINISHED, ABANDONED):
            raise ProtocolError(
                "bad_field", "status must be waiting, playing, finished or abandoned"
            )
        if status in (FINISHED, ABANDONED):
            tables = await hub.recent_finished(status=status)
        else:
            tables = hub.lobby(status)
        return JSONResponse({"status": status, "tables": tables})

    @api
    async def create_table(request: Request) -> Response:
        spec = parse_create_request(await read_body(request), bot_limits)
        table, tokens = await hub.create(spec, client=client_address(request))
        return JSONResponse(
            {
                "table": table.info(),
                "tokens": {str(seat): token for seat, token in sorted(tokens.items())},
                "links": links(request, table.id, tokens),
            },
            status_code=201,
        )

    @api
    async def table_info(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        return JSONResponse({"table": table.info(), "links": links(request, table.id)})

    @api
    async def join(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        body = await read_json(request, JOIN_SCHEMA, "the join request")
        hub.create_rate.take(client_address(request))
        seat, token = await table.claim(body.get("seat"))
        return JSONResponse(
            {"table": table.info(), "seat": seat, "token": token,
             "links": links(request, table.id, {seat: token})},
            status_code=201,
        )

    @api
    async def view(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat = seat_of(table, request) if "authorization" in request.headers else None
        return JSONResponse(table.view(seat))

    @api
    async def act(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat = seat_of(table, request)
        body = await read_json(request, ACTION_SCHEMA, "the action")
        result = await table.play(seat, body["version"], body["action"])
        return JSONResponse({"type": "ack", "table": table.id, **result})

    @api
    async def why(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat = seat_of(table, request)
        body = await read_json(request, WHY_SCHEMA, "the question")
        return JSONResponse({"type": "why", "table": table.id, **table.why(seat, body["action"])})

    @api
    async def rematch(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat_of(table, request)
        new = await hub.rematch(table)
        return JSONResponse({"table": new.info(), "links": links(request, new.id)},
                            status_code=201)

    @api
    async def record(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        name = f"ladytiger-{table.spec.game}-{table.id}.json"
        return JSONResponse(
            table.record(), headers={"content-disposition": f'attachment; filename="{name}"'}
        )

    # Replays are computed in the replay service's thread, never on the event loop; a
    # finished table's answers are kept, since its record never changes.
    @api
    async def replay(request: Request) -> Response:
        """A finished table's steps, for a replay viewer to step through."""
        table = await hub.require(request.path_params["table_id"])
        table.record()  # refuses an unfinished table before any work is queued
        body = await hub.replays.cached(
            ("steps", table.id), client_address(request), _steps_body, table
        )
        return Response(body, media_type="application/json")

    @api
    async def replay_step(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        table.record()
        step = request.path_params["step"]
        viewer = parse_viewer(request.query_params.get("viewer"))
        body = await hub.replays.cached(
            ("view", table.id, step, viewer), client_address(request), _view_body, table,
            step, viewer,
        )
        return Response(body, media_type="application/json")

    @api
    async def replay_upload(request: Request) -> Response:
        """Views of a record the client holds (e.g. a file saved by `ladytiger play`)."""
        body = await read_json(request, REPLAY_SCHEMA, "the replay request")
        hub.replays.check_record(body["record"])
        client = client_address(request)
        if "step" not in body:
            steps = await hub.replays.run(client, replay_steps, body["record"])
            return JSONResponse({"steps": steps})
        view = await hub.replays.run(
            client, replay_view, body["record"], body["step"], body.get("viewer")
        )
        return JSONResponse(view)

    async def socket(websocket: WebSocket) -> None:
        await serve_socket(hub, settings, websocket)

    async def not_found(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if request.url.path.startswith("/api"):
            code = "not_found" if error.status_code == 404 else "bad_request"
            if error.status_code == 405:
                code = "method_not_allowed"
            return JSONResponse({"error": {"code": code, "message": str(error.detail)}},
                                status_code=error.status_code)
        return HTMLResponse(f"<!doctype html><meta charset=\"utf-8\"><p>{error.detail}</p>",
                            status_code=error.status_code)

    async def server_error(request: Request, error: Exception) -> Response:
        log.exception("unhandled error on %s", request.url.path, exc_info=error)
        return JSONResponse({"error": {"code": "internal", "message": "the server failed"}},
                            status_code=500)

    tid = "/api/tables/{table_id}"
    routes = [
        Route("/", home),
        Route("/play/{table_id}", play_page),
        Route("/api", index),
        Route("/api/games", games),
        Route("/api/bots", bots),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route(tid, table_info),
        Route(tid + "/join", join, methods=["POST"]),
        Route(tid + "/view", view),
        Route(tid + "/actions", act, methods=["POST"]),
        Route(tid + "/why", why, methods=["POST"]),
        Route(tid + "/rematch", rematch, methods=["POST"]),
        Route(tid + "/record", record),
        Route(tid + "/replay", replay),
        Route(tid + "/replay/{step:int}", replay_step),
        Route("/api/replay", replay_upload, methods=["POST"]),
        WebSocketRoute(tid + "/ws", socket),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: not_found, Exception: server_error},
    )
    app.state.hub = hub
    app.state.settings = settings
    mount_pages(app)  # the browser interface: /, /play, /replay, /rules, /static
    return app
