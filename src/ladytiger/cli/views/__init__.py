"""Terminal drawings of a seat's observation, one module per game, with a generic fallback.

A view draws only what the observation holds; it never consults the state.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from rich.console import RenderableType
from rich.table import Table

View = Callable[[dict[str, Any]], RenderableType]

_SKIP = {"game", "options", "viewer", "log", "current_player", "terminal"}


def generic_view(observation: dict[str, Any]) -> RenderableType:
    table = Table(show_header=False, box=None, padding=(0, 1))
    for key, value in observation.items():
        if key not in _SKIP:
            table.add_row(f"[bold]{key}[/]", str(value))
    return table


def view_for(game: str) -> View:
    """The drawing function of `game` (module ladytiger.cli.views.<game>), else the generic one."""
    try:
        module = import_module(f"ladytiger.cli.views.{game}")
    except ModuleNotFoundError:
        return generic_view
    return module.render  # type: ignore[no-any-return]
