"""The browser interface's pages: home, table, replay, rules, the player's own page, players'
pages and leaderboards, and the static files they load; and the page a browser gets at an
address with nothing on it (the API's own paths answer JSON errors instead).

The rules pages are the players' guides (ladytiger.guides), drawn here as HTML; their scenes
are drawn in the browser by the games' own view modules from /api/guides/<game>, which the
table's "?" panel reads too.

`mount_pages(app)` adds them to the server's Starlette app (replacing its placeholder `/` and
`/play/{table_id}` pages). The pages are plain HTML and ES modules from `static/`, shipped in
the package: nothing is built. They talk to the server only through its public protocol
(docs/protocol.md), so a page shows a seat exactly what the server sends that seat.
"""

from __future__ import annotations

import html
from functools import lru_cache
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ladytiger import guides
from ladytiger.core import registered_games
from ladytiger.lessons import LESSON_GAMES

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


# What a browser reads at an address with no page, by the status the server answers.
_MISSING_WORDS = {
    404: ("Page not found", "There is no page here",
          "The address may be mistyped, or the link may be older than the page it named."),
    405: ("Not a page", "This address is not a page",
          "It takes requests from the game's own pages, not from a browser's address bar."),
}


def missing_page(status: int, detail: str = "") -> HTMLResponse:
    """The page of an address with nothing to show, in the site's own look and with the ways
    back into it, rather than a bare line of text."""
    eyebrow, title, words = _MISSING_WORDS.get(
        status, ("Something went wrong", "This page cannot be shown", detail or ""))
    text = (static_text("missing.html")
            .replace("{eyebrow}", html.escape(eyebrow))
            .replace("{title}", html.escape(title))
            .replace("{detail}", html.escape(words)))
    return HTMLResponse(text, status_code=status,
                        headers={**SECURITY_HEADERS, "cache-control": "no-cache"})


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


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    # Raw HTML in the guides is shown as text: they are ours, but escaping costs nothing.
    renderer = MarkdownIt("commonmark", {"html": False, "typographer": True})
    renderer.enable(["table", "replacements", "smartquotes"])
    return renderer


def md(text: str) -> str:
    return markdown().render(text)


def md_inline(text: str) -> str:
    return markdown().renderInline(text)


def scene_figure(game: str, scene: dict[str, Any]) -> str:
    """A scene's place on the page: rules.js draws the table view into it."""
    return (
        f'<figure class="scene" id="scene-{html.escape(scene["id"])}" '
        f'data-scene="{html.escape(scene["id"])}">'
        f'<div class="scene-view game-view game-{html.escape(game)}" aria-busy="true">'
        '<p class="scene-wait">Drawing the example…</p></div>'
        f"<figcaption>{md_inline(scene['caption'])}</figcaption></figure>"
    )


def section_html(game: str, section: dict[str, Any], with_scenes: bool = True) -> str:
    parts = [f'<section class="guide-section" id="{html.escape(section["id"])}">',
             f"<h2>{md_inline(section['title'])}</h2>"]
    if section.get("body"):
        parts.append(md(section["body"]))
    if section.get("steps"):
        parts.append('<ol class="guide-steps">')
        parts.extend(f"<li>{md(step)}</li>" for step in section["steps"])
        parts.append("</ol>")
    if with_scenes and section.get("scenes"):
        parts.append('<div class="scenes">')
        parts.extend(scene_figure(game, scene) for scene in section["scenes"])
        parts.append("</div>")
    if section.get("after"):
        parts.append(md(section["after"]))
    parts.append("</section>")
    return "\n".join(parts)


@lru_cache(maxsize=16)
def guide_html(game: str) -> str | None:
    """The body of the game's rules page for players, from its guide."""
    data = guides.guide(game)
    if data is None:
        return None
    title = html.escape(data["title"])
    toc = [("minute", "In one minute")]
    toc += [(s["id"], s.get("short", s["title"])) for s in data["sections"]]
    toc.append(("fine-points", "Fine points"))
    parts = [
        '<header class="guide-head">',
        f"<h1>{title}</h1>",
        f'<p class="guide-facts">{md_inline(data["facts"])}</p>',
        md(data["intro"]),
        f'<p class="guide-play"><a class="button primary" href="/?game={html.escape(game)}">'
        f"Play {title}</a>"
        + (f' <a class="button" id="guide-learn" href="/learn/{html.escape(game)}">'
           f"Learn {title} in a guided game</a>" if game in LESSON_GAMES else "")
        + "</p>",
        "</header>",
        '<nav class="guide-toc" aria-label="On this page"><ol>',
        *(f'<li><a href="#{html.escape(key)}">{md_inline(label)}</a></li>' for key, label in toc),
        "</ol></nav>",
        '<section class="guide-section guide-minute" id="minute"><h2>In one minute</h2><ol>',
        *(f"<li>{md_inline(line)}</li>" for line in data["minute"]),
        "</ol></section>",
        *(section_html(game, section) for section in data["sections"]),
        '<section class="guide-section guide-fine" id="fine-points"><h2>Fine points</h2>',
        "<p>Every question the rulebook leaves open, and how it is settled here.</p><ol>",
        *(
            f'<li>{md(point["rule"])}<p class="why"><b>Why:</b> {md_inline(point["why"])}</p></li>'
            for point in data["fine_points"]
        ),
        "</ol></section>",
    ]
    return "\n".join(parts)


@lru_cache(maxsize=16)
def guide_json(game: str) -> dict[str, Any] | None:
    """The guide as the browser uses it: text as HTML, each scene with its view."""
    data = guides.guide(game)
    if data is None:
        return None
    views = guides.scene_views(game)
    sections = []
    for section in data["sections"]:
        sections.append({
            "id": section["id"],
            "title": section["title"],
            # The "?" panel shows the words only: the page has the pictures.
            "html": section_html(game, section, with_scenes=False),
            "moments": [
                {"phase": m["phase"], "roles": sorted(guides.wanted_roles(m)),
                 "say": md_inline(m["say"])}
                for m in section.get("moments", ())
            ],
            "scenes": [
                {"id": scene["id"], "seat": scene.get("seat"),
                 "names": guides.seat_names(scene, len(views[scene["id"]]["scores"])),
                 "focus": list(scene.get("focus", ())), "observation": views[scene["id"]]}
                for scene in section.get("scenes", ())
            ],
        })
    return {"game": game, "title": data["title"], "roles": data["roles"],
            "lesson": f"/learn/{game}" if game in LESSON_GAMES else None,
            "minute": [md_inline(line) for line in data["minute"]], "sections": sections}


@lru_cache(maxsize=16)
def reference_html(game: str) -> str | None:
    """The developer reference (docs/rules/<game>.md, shipped in the package) as HTML: the
    rules page of a game whose player's guide is not written yet."""
    source = resources.files("ladytiger").joinpath("rules", f"{game}.md")
    if not source.is_file():
        return None
    return md(source.read_text("utf-8"))


def game_titles() -> dict[str, str]:
    infos = {info.name: info.title for info in registered_games()}
    return {name: infos[name] for name in guides.GAMES if name in infos}


async def rules_index(request: Request) -> Response:
    """Every game's rules, one line each, for the "Rules" link of a page that has no game."""
    blurbs = {info.name: info.description for info in registered_games()}
    items = "".join(
        f'<li><a href="/rules/{html.escape(name)}">{html.escape(title)}</a>'
        + (f": {html.escape(blurbs[name])}" if blurbs.get(name) else "") + "</li>"
        for name, title in game_titles().items()
    )
    return HTMLResponse(
        RULES_TEMPLATE.format(
            title="Every game's", game="",
            body=f'<h1>Rules</h1><p>Pick a game to read how it is played.</p>'
                 f'<ul class="rules-index">{items}</ul>',
            nav=_rules_nav(None), others=""),
        headers={**SECURITY_HEADERS, "cache-control": "no-cache"},
    )


def _rules_nav(game: str | None) -> str:
    return "".join(
        f'<a href="/rules/{html.escape(name)}"'
        + (' aria-current="page"' if name == game else "")
        + f">{html.escape(title)}</a>"
        for name, title in game_titles().items()
    )


async def rules(request: Request) -> Response:
    game = request.path_params["game"]
    titles = game_titles()
    body = (guide_html(game) or reference_html(game)) if game in titles else None
    if body is None:
        known = ", ".join(
            f'<a href="/rules/{html.escape(name)}">{html.escape(title)}</a>'
            for name, title in titles.items()
        )
        return HTMLResponse(
            RULES_TEMPLATE.format(
                title="No such game", game="",
                body=f"<h1>No such game</h1><p>The games are: {known}.</p>",
                nav="", others="",
            ),
            status_code=404,
            headers=SECURITY_HEADERS,
        )
    nav = _rules_nav(game)
    others = '<p>The other games: </p><ul class="guide-others">' + "".join(
        f'<li><a href="/rules/{html.escape(name)}">{html.escape(title)}</a></li>'
        for name, title in titles.items() if name != game
    ) + "</ul>"
    return HTMLResponse(
        RULES_TEMPLATE.format(title=html.escape(titles[game]), game=html.escape(game),
                              body=body, nav=nav, others=others),
        headers={**SECURITY_HEADERS, "cache-control": "no-cache"},
    )


async def guide_api(request: Request) -> Response:
    game = request.path_params["game"]
    data = guide_json(game)
    if data is None:
        return JSONResponse(
            {"error": {"code": "unknown_game", "message": f"there is no guide for {game!r}",
                       "games": list(guides.GAMES)}},
            status_code=404,
        )
    return JSONResponse(data, headers={"cache-control": "public, max-age=300"})


RULES_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} rules · ladytiger</title>
<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/site.css">
<link rel="stylesheet" href="/static/css/table.css">
<link rel="stylesheet" href="/static/css/rules.css">
<script type="module" src="/static/js/topbar.js"></script>
<script type="module" src="/static/js/rules.js"></script>
</head>
<body class="page-rules" data-game="{game}" data-ready="0">
<a class="skip" href="#main">Skip to the rules</a>
<header class="topbar">
  <a class="brand" href="/"><img src="/static/img/favicon.svg" alt="" width="28" height="28">
  <span>ladytiger</span></a>
  <nav class="rules-nav" aria-label="Rules of each game">{nav}</nav>
</header>
<main id="main" class="rules guide">
{body}
<footer class="guide-foot">
{others}
<p class="back"><a href="/">Back to the tables</a></p>
</footer>
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
        Route("/rules", rules_index),
        Route("/rules/{game}", rules),
        Route("/api/guides/{game}", guide_api),
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
