"""The guided first games (ladytiger.lessons) over HTTP: the page /learn/<game> and its
frames at /api/lessons/<game>.

A lesson is the same for everyone and never changes while the server runs, so its frames are
made once (the engine replays the script) and served from memory.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ladytiger.core import registered_games
from ladytiger.lessons import frames, lesson_for
from ladytiger.web.pages import page


@lru_cache(maxsize=8)
def lesson_json(game: str) -> dict[str, Any] | None:
    lesson = lesson_for(game)
    if lesson is None:
        return None
    titles = {info.name: info.title for info in registered_games()}
    return {
        "game": game,
        "title": lesson.title,
        "game_title": titles.get(game, game),
        "seat": lesson.seat,
        "frames": frames(lesson),
    }


def _missing(game: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": "not_found", "message": f"there is no guided game of {game!r}"}},
        status_code=404)


async def lesson_api(request: Request) -> Response:
    game = request.path_params["game"]
    data = lesson_json(game)
    if data is None:
        return _missing(game)
    return JSONResponse(data, headers={"cache-control": "public, max-age=300"})


async def lesson_page(request: Request) -> Response:
    # The page itself says so when the game has no lesson: it asks the API, which answers 404.
    return page("learn.html")


def lesson_routes() -> list[BaseRoute]:
    return [
        Route("/api/lessons/{game}", lesson_api),
        Route("/learn", lesson_page),
        Route("/learn/{game}", lesson_page),
    ]
