"""Doors in the terminal: scores, the seat's identity, the display and both piles."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from ladytiger.cli.views.cards import card, card_row


def render(view: dict[str, Any]) -> RenderableType:
    seat = view["viewer"]
    roles = {view["collector"]: "Collector", view["guesser"]: "Guesser"}
    table = Table(show_header=False, box=None, padding=(0, 1))
    for other in (0, 1):
        you = " (you)" if other == seat else ""
        table.add_row(
            f"[bold]seat {other}{you}[/]",
            roles[other],
            f"{view['scores'][other]} / {view['gems_to_win']} gems",
            card(view["identities"][other]),
        )
    table.add_row("[bold]display[/]", "", f"deck: {view['deck']}", card_row(view["display"]))
    table.add_row("[bold]collected[/]", "", "", card_row(view["collected"]))
    table.add_row("[bold]discarded[/]", "", "", card_row(view["discarded"]))
    parts: list[RenderableType] = [table]
    if view["past_contests"]:
        # `how` already says who earned what, in the viewer's words.
        parts.append(f"[dim]last contest: {escape(view['past_contests'][-1]['how'])}[/]")
    return Panel(Group(*parts), title=f"Doors, contest {view['contest']}", expand=False)
