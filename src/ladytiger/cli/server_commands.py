"""The `ladytiger` subcommands of the server adapter, added to the main app by `register`."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this adapter's commands to `app`."""
