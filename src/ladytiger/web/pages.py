"""The browser interface's pages: home, table, replay, rules, the player's own page, players'
pages and leaderboards, and the static files they load.

`mount_pages(app)` adds them to the server's Starlette app (replacing its placeholder `/` and
`/play/{table_id}` pages). The pages are plain HTML and ES modules from `static/`, shipped in
the package: nothing is built. They talk to the server only through its public protocol
(docs/protocol.md), so a page shows a seat exactly what the server sends that seat.
"""

from __future__ import annotations

import html
from functools import lru_cache
from importlib import resources

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ladytiger.core import registered_games

# Paths of the server's placeholder pages, which these pages replace.
REPLACED_PATHS = ("/", "/play/{table_id}")

# The pages run only their own scripts from this origin and talk only to this server. Styles
# may be set inline because game views draw positions and colours from the observation.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


def static_text(name: str) -> str:
    return resources.files("ladytiger.web").joinpath("static", name).read_text("utf-8")


def page(name: str) -> HTMLResponse:
    # No caching of the pages themselves: they are tiny and name the scripts they load.
    headers = {**SECURITY_HEADERS, "cache-control": "no-cache"}
    return HTMLResponse(static_text(name), headers=headers)


async def home(request: Request) -> Response:
    return page("home.html")


async def play(request: Request) -> Response:
    return page("table.html")


async def replay(request: Request) -> Response:
    return page("replay.html")


async def me(request: Request) -> Response:
    # The personal link's secret rides in the fragment, which never reaches this handler.
    return page("me.html")


async def player(request: Request) -> Response:
    return page("player.html")


async def leaderboard(request: Request) -> Response:
    return page("leaderboard.html")


@lru_cache(maxsize=16)
def rules_html(game: str) -> str | None:
    """The game's rules page (docs/rules/<game>.md, shipped in the package) as HTML."""
    source = resources.files("ladytiger").joinpath("rules", f"{game}.md")
    if not source.is_file():
        return None
    # Raw HTML in the markdown is shown as text: the pages are ours, but escaping costs nothing.
    renderer = MarkdownIt("commonmark", {"html": False, "typographer": True})
    renderer.enable(["table", "replacements", "smartquotes"])
    return renderer.render(source.read_text("utf-8"))


async def rules(request: Request) -> Response:
    game = request.path_params["game"]
    infos = {info.name: info for info in registered_games()}
    info = infos.get(game)
    body = rules_html(game) if info is not None else None
    if info is None or body is None:
        known = ", ".join(
            f'<a href="/rules/{html.escape(name)}">{html.escape(i.title)}</a>'
            for name, i in infos.items()
        )
        return HTMLResponse(
            RULES_TEMPLATE.format(
                title="No such game",
                body=f"<h1>No such game</h1><p>The games are: {known}.</p>",
                nav="",
            ),
            status_code=404,
            headers=SECURITY_HEADERS,
        )
    nav = "".join(
        f'<a href="/rules/{html.escape(name)}"'
        + (' aria-current="page"' if name == game else "")
        + f">{html.escape(other.title)}</a>"
        for name, other in infos.items()
    )
    play = (f'<p class="rules-play"><a class="button primary" href="/?game={html.escape(game)}'
            f'#create">Play {html.escape(info.title)}</a></p>')
    return HTMLResponse(
        RULES_TEMPLATE.format(title=html.escape(info.title), body=play + body, nav=nav),
        headers=SECURITY_HEADERS,
    )


RULES_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} rules · ladytiger</title>
<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/site.css">
<script type="module" src="/static/js/topbar.js"></script>
</head>
<body class="page-rules">
<a class="skip" href="#main">Skip to the rules</a>
<header class="topbar">
  <a class="brand" href="/"><img src="/static/img/favicon.svg" alt="" width="28" height="28">
  <span>ladytiger</span></a>
  <nav class="rules-nav" aria-label="Rules of each game">{nav}</nav>
</header>
<main id="main" class="rules">
{body}
<p class="back"><a href="/">Back to the tables</a></p>
</main>
</body>
</html>
"""


def page_routes() -> list[BaseRoute]:
    return [
        Route("/", home),
        Route("/play/{table_id}", play),
        Route("/replay", replay),
        Route("/replay/{table_id}", replay),
        Route("/rules/{game}", rules),
        Route("/me", me),
        Route("/players/{player_id}", player),
        Route("/leaderboard", leaderboard),
        Route("/leaderboard/{game}", leaderboard),
        Mount("/static", StaticFiles(packages=[("ladytiger.web", "static")]), name="static"),
    ]


def mount_pages(app: Starlette) -> None:
    """Serve the browser interface from `app`. Calling it twice changes nothing."""
    if getattr(app.state, "pages_mounted", False):
        return
    routes = app.router.routes
    routes[:] = [
        route for route in routes
        if not (isinstance(route, Route) and route.path in REPLACED_PATHS)
    ]
    # First, so that no catch-all of the server's can shadow them.
    routes[0:0] = page_routes()
    app.state.pages_mounted = True
