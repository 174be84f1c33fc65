"""Run the real server with the browser pages for the browser tests (a subprocess of conftest).

`python tests/browser/serve.py --db PATH --port N`: the server's own app factory with
`mount_pages` applied (a no-op once the factory mounts the pages itself), bots without a
pause, bots in threads so the subprocess stays light.
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
    args = parser.parse_args()
    settings = Settings(db_path=args.db, bot_pause=args.bot_pause, bot_pool="thread",
                        synchronous="NORMAL")
    app = create_app(settings)
    mount_pages(app)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", lifespan="on",
                ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
