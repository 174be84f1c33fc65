"""The game server: tables, seats and bots over HTTP and WebSocket (docs/protocol.md).

`create_app(Settings(...))` is the Starlette application `ladytiger serve` runs;
`ladytiger.web.client` is the reference client `ladytiger connect` uses.
"""

from ladytiger.web.app import create_app
from ladytiger.web.config import Settings

__all__ = ["Settings", "create_app"]
