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
from ladytiger.lessons import LESSON_GAMES
from ladytiger.web import collector
from ladytiger.web import store as db
from ladytiger.web.bot_options import BotLimits
from ladytiger.web.config import Settings
from ladytiger.web.hub import Hub, ended_entry
from ladytiger.web.lessons import lesson_routes
from ladytiger.web.pages import missing_page, mount_pages
from ladytiger.web.players import Player
from ladytiger.web.protocol import (
    CLIENT_MESSAGES,
    MAX_BODY_BYTES,
    MAX_NAME_LENGTH,
    PROTOCOL,
    Field,
    ProtocolError,
    action_value,
    decode_json,
    encode,
    fill_choice,
    natural,
    text_up_to,
    validate,
)
from ladytiger.web.replays import parse_viewer, replay_steps, replay_view
from ladytiger.web.sessions import serve_socket
from ladytiger.web.specs import HUMAN, parse_create_request
from ladytiger.web.tables import ABANDONED, FINISHED, PLAYING, WAITING, Table

log = logging.getLogger("ladytiger.web")

Handler = Callable[[Request], Awaitable[Response]]

JOIN_SCHEMA = {"seat": Field((int,), required=False, check=natural)}
ACTION_SCHEMA = {
    "version": Field((int,), check=natural),
    "action": Field((int, str), check=action_value),
}
WHY_SCHEMA = {"action": Field((int, str), check=action_value)}
FILL_SCHEMA = CLIENT_MESSAGES["fill"]
PLAYER_SCHEMA = {"name": Field((str,), required=False, check=text_up_to(MAX_NAME_LENGTH))}
LEADERBOARD_SIZE = 50
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


def player_json(player: Player) -> dict[str, Any]:
    return {**player.public(), "created_at": player.created_at}


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
    if (declared is not None and declared.isascii() and declared.isdigit()
            and int(declared) > MAX_BODY_BYTES):
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


def credentials(request: Request) -> tuple[str, str] | None:
    """("bearer", seat token) or ("player", player secret) from the Authorization header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    scheme = scheme.lower()
    if scheme not in ("bearer", "player") or not value.strip():
        raise ProtocolError(
            "unauthorized", "send a seat token as 'Authorization: Bearer TOKEN' or a player's "
            "secret as 'Authorization: Player SECRET'", status=401,
        )
    return scheme, value.strip()


async def player_of(hub: Hub, request: Request, required: bool = True) -> Player | None:
    """The player the request comes from ('Authorization: Player SECRET')."""
    given = credentials(request)
    if given is None or given[0] != "player":
        if not required:
            return None
        raise ProtocolError(
            "unauthorized", "this needs a player: send 'Authorization: Player SECRET' "
            "(POST /api/players makes one)", status=401,
        )
    return await hub.players.by_secret(given[1])


async def seat_of(hub: Hub, table: Table, request: Request) -> int:
    """The seat the request acts for: a seat token's, or the player's seat at this table."""
    given = credentials(request)
    if given is None:
        raise ProtocolError(
            "unauthorized", "send the seat token as 'Authorization: Bearer TOKEN' (or a "
            "player's secret as 'Authorization: Player SECRET')", status=401,
        )
    scheme, value = given
    if scheme == "bearer":
        seat = table.authenticate(value)
        if seat is None:
            raise ProtocolError("unauthorized", "that token holds no seat at this table",
                                status=401)
        return seat
    player = await hub.players.by_secret(value)
    seat = table.seat_of_player(player)
    if seat is None:
        raise ProtocolError("no_seat", "you hold no seat at this table", status=403)
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
        "lesson": f"/learn/{info.name}" if info.name in LESSON_GAMES else None,
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


def _steps_body(record: dict[str, Any]) -> bytes:
    return encode({"record": record, "steps": replay_steps(record)}).encode()


def _view_body(record: dict[str, Any], step: int, viewer: int | None) -> bytes:
    return encode(replay_view(record, step, viewer)).encode()


def parse_step(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise ProtocolError("bad_field", "step must be a whole number from 0 up")
    return int(text)


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
            tables = await hub.listing(status)
        if status == WAITING:
            # Whoever picks an open seat should see whom they would play, and how strong.
            for entry, ratings in zip(tables, await hub.rate_seats(tables), strict=True):
                entry["seat_ratings"] = ratings
        return JSONResponse({"status": status, "tables": tables})

    @api
    async def create_table(request: Request) -> Response:
        body = await read_body(request)
        mine = body.pop("me", None) if isinstance(body, dict) else None
        player = await player_of(hub, request, required=mine is not None)
        spec = parse_create_request(body, bot_limits)
        if mine is not None and (
            type(mine) is not int or not 0 <= mine < len(spec.seats)
            or spec.seats[mine].kind != HUMAN
        ):
            raise ProtocolError("bad_field", "the table request: 'me' must be the number of "
                                "one of its human seats")
        table, tokens = await hub.create(spec, client=client_address(request), player=player)
        if mine is not None and player is not None:
            await table.bind(mine, player)
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
        # Asked once as a page opens (never per move): what each seat's player is rated now.
        info = {**table.info(), "seat_ratings": await hub.seat_ratings(table)}
        return JSONResponse({"table": info, "links": links(request, table.id)})

    @api
    async def join(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        body = await read_json(request, JOIN_SCHEMA, "the join request")
        player = await player_of(hub, request, required=False)
        if player is not None and table.seat_of_player(player) is not None:
            raise ProtocolError("seat_taken", "you already hold a seat at this table",
                                status=409)
        hub.create_rate.take(client_address(request))
        seat, token = await table.claim(body.get("seat"))
        if player is not None:
            await table.bind(seat, player)
        return JSONResponse(
            {"table": table.info(), "seat": seat, "token": token,
             "links": links(request, table.id, {seat: token})},
            status_code=201,
        )

    @api
    async def view(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat = None
        given = credentials(request)
        if given is not None and given[0] == "player":
            seat = table.seat_of_player(await hub.players.by_secret(given[1]))
        elif given is not None:
            seat = await seat_of(hub, table, request)
        return JSONResponse(table.view(seat))

    @api
    async def act(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat = await seat_of(hub, table, request)
        body = await read_json(request, ACTION_SCHEMA, "the action")
        result = await table.play(seat, body["version"], body["action"])
        return JSONResponse({"type": "ack", "table": table.id, **result})

    @api
    async def why(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat = await seat_of(hub, table, request)
        body = await read_json(request, WHY_SCHEMA, "the question")
        return JSONResponse({"type": "why", "table": table.id, **table.why(seat, body["action"])})

    @api
    async def rematch(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        await seat_of(hub, table, request)
        new = await hub.rematch(table)
        return JSONResponse({"table": new.info(), "links": links(request, new.id)},
                            status_code=201)

    @api
    async def fill(request: Request) -> Response:
        table = await hub.require(request.path_params["table_id"])
        seat = await seat_of(hub, table, request)
        body = await read_json(request, FILL_SCHEMA, "the start with bots")
        new = await hub.fill_empty_seats(table, seat, fill_choice(body))
        return JSONResponse({"table": new.info(), "links": links(request, new.id)},
                            status_code=201)

    def seat_step(step: Callable[[Table, int], Awaitable[None]]) -> Handler:
        """A seat's own step at its table (resign, leave, close): the table as it then is."""

        async def handler(request: Request) -> Response:
            table = await hub.require(request.path_params["table_id"])
            await step(table, await seat_of(hub, table, request))
            return JSONResponse({"table": table.info()})

        return api(handler)

    resign = seat_step(Table.resign)
    leave = seat_step(Table.leave)
    close = seat_step(Table.close)

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
        record = table.record()  # refuses an unfinished table before any work is queued
        body = await hub.replays.cached(
            ("steps", table.id), client_address(request), _steps_body, record
        )
        return Response(body, media_type="application/json")

    @api
    async def replay_step(request: Request) -> Response:
        step = parse_step(request.path_params["step"])
        table = await hub.require(request.path_params["table_id"])
        viewer = parse_viewer(request.query_params.get("viewer"))
        record = table.record()
        body = await hub.replays.cached(
            ("view", table.id, step, viewer), client_address(request), _view_body, record,
            step, viewer,
        )
        return Response(body, media_type="application/json")

    @api
    async def replay_upload(request: Request) -> Response:
        """Views of a record the client holds (e.g. a file saved by `ladytiger play`)."""
        hub.replays.admit(client_address(request))  # before the body is even read
        body = await read_json(request, REPLAY_SCHEMA, "the replay request")
        hub.replays.check_record(body["record"])
        if "step" not in body:
            steps = await hub.replays.compute(replay_steps, body["record"])
            return JSONResponse({"steps": steps})
        view = await hub.replays.compute(
            replay_view, body["record"], body["step"], body.get("viewer")
        )
        return JSONResponse(view)

    # ------------------------------------------------------------------ players
    @api
    async def new_player(request: Request) -> Response:
        body = await read_json(request, PLAYER_SCHEMA, "the player request")
        hub.player_rate.take(client_address(request))
        player, secret = await hub.players.create(body.get("name"))
        return JSONResponse({"player": player_json(player), "secret": secret},
                            status_code=201)

    @api
    async def me(request: Request) -> Response:
        player = await player_of(hub, request)
        if request.method == "POST":
            body = await read_json(request, PLAYER_SCHEMA, "the player request")
            if "name" in body:
                await hub.players.rename(player, body["name"])
                for table_id in list(player.tables):
                    table = hub.active.get(table_id) or hub.mirrors.get(table_id)
                    if table is not None:
                        table.presence_changed()
        waiting = await hub.your_turn_tables(player)
        return JSONResponse({"player": player_json(player), "your_turn": len(waiting),
                             "your_turn_tables": waiting})

    @api
    async def my_tables(request: Request) -> Response:
        player = await player_of(hub, request)
        return JSONResponse(await hub.tables_of(player))

    @api
    async def player_page(request: Request) -> Response:
        player = await hub.players.by_id(request.path_params["player_id"])
        if player is None:
            raise ProtocolError("unknown_player", "there is no such player", status=404)
        ratings = await hub.store.call(db.player_ratings, player.id)
        # Ended public games only: where a player sits now is theirs to tell.
        games = [
            {**entry, "seat": row["seat"]}
            for row in await hub.store.call(db.finished_of_player, player.id, 100)
            if row["spec"].get("public", True)
            # A table started again with bots: its game is the next table, listed itself.
            and "restarted" not in (entry := ended_entry(row, row["status"])).get(
                "abandoned", {})
        ][:30]
        return JSONResponse({"player": player.public(), "ratings": ratings, "games": games})

    @api
    async def leaderboard(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in {info.name for info in registered_games()}:
            raise ProtocolError("unknown_game", f"there is no game {game!r}", status=404)
        rows = await hub.store.call(db.leaderboard, game, LEADERBOARD_SIZE)
        return JSONResponse({"game": game, "players": rows})

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
        return missing_page(error.status_code, str(error.detail))

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
        Route(tid + "/resign", resign, methods=["POST"]),
        Route(tid + "/close", close, methods=["POST"]),
        Route(tid + "/fill", fill, methods=["POST"]),
        Route(tid + "/leave", leave, methods=["POST"]),
        Route(tid + "/record", record),
        Route(tid + "/replay", replay),
        Route(tid + "/replay/{step}", replay_step),
        Route("/api/replay", replay_upload, methods=["POST"]),
        Route("/api/players", new_player, methods=["POST"]),
        Route("/api/players/{player_id}", player_page),
        Route("/api/me", me, methods=["GET", "POST"]),
        Route("/api/me/tables", my_tables),
        Route("/api/leaderboard/{game}", leaderboard),
        WebSocketRoute(tid + "/ws", socket),
        *lesson_routes(),  # the guided first games: /learn/<game>, /api/lessons/<game>
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
