"""Run the real server with the browser pages for the browser tests (a subprocess of conftest).

`python tests/browser/serve.py --db PATH --port N`: the server's own app factory with
`mount_pages` applied (a no-op once the factory mounts the pages itself), bots without a
pause, bots in threads so the subprocess stays light. `--bot-pause` and `--moment-pause` set
the server's defaults (a table made with a pace keeps its own).
"""

from __future__ import annotations

import argparse

import uvicorn

from ladytiger.web import Settings, create_app
from ladytiger.web.pages import mount_pages


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bot-pause", type=float, default=0.0)
    parser.add_argument("--moment-pause", type=float, default=Settings.moment_pause)
    parser.add_argument("--away-grace", type=float, default=Settings.away_grace)
    args = parser.parse_args()
    # Every browser context is a new player on one address: the per-client limits are
    # lifted here (their own tests are in tests/web/test_limits.py).
    settings = Settings(db_path=args.db, bot_pause=args.bot_pause, bot_pool="thread",
                        moment_pause=args.moment_pause, away_grace=args.away_grace,
                        synchronous="NORMAL", tables_per_client=1_000_000,
                        creates_per_minute=1e9, create_burst=1_000_000,
                        players_per_minute=1e9, player_burst=1_000_000,
                        replays_per_minute=1e9, replay_burst=1_000_000)
    app = create_app(settings)
    mount_pages(app)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", lifespan="on",
                ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
