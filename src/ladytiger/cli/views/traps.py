"""Traps in the terminal: the goal, pot and treasury, every seat's gems, stack and bid."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ladytiger.cli.views.cards import card, cards


def _stack(stack: dict[str, Any]) -> Text:
    """Face-down cards as blocks (or, for the owner, the cards bottom to top), then the
    revealed ones beside them."""
    if stack["cards"] is not None:
        down = cards(stack["cards"]) if stack["cards"] else Text("")
    else:
        down = Text("▮ " * stack["face_down"], style="bold grey50")
    if stack["revealed"]:
        return Text.assemble(down, " │ ", cards(stack["revealed"]))
    return down


def render(view: dict[str, Any]) -> RenderableType:
    seat = view["viewer"]
    revealer = view["revealer"]
    table = Table(box=None, padding=(0, 1))
    for column in ("seat", "gems", "hand", "stack (│ revealed)", ""):
        table.add_column(column)
    for other, gems in enumerate(view["gems"]):
        notes = []
        if other == view["starting_player"]:
            notes.append("starts")
        if other == view["high_bidder"]:
            notes.append(f"high bid {view['high_bid']}")
        if view["passed"][other]:
            notes.append("passed")
        if other == revealer:
            notes.append(f"revealing: {view['matched']} of {view['high_bid']}")
        if other == view["current_player"]:
            notes.append("[bold yellow]to move[/]")
        you = " (you)" if other == seat else ""
        table.add_row(
            f"[bold]seat {other}{you}[/]",
            "●" * gems + f" {gems}",
            str(view["hand_sizes"][other]),
            _stack(view["stacks"][other]),
            ", ".join(notes),
        )
    header = Text.assemble(
        "goal ", card(view["goal"]) if view["goal"] else Text("(not yet)", style="dim"),
        f"   pot {view['pot']}   treasury {view['treasury']}",
        f"   doors left {view['door_deck']}",
    )
    parts: list[RenderableType] = [header, table]
    if view["hand"] is not None:
        parts.append(Text.assemble("your hand: ", cards(view["hand"])))
    if view["past_seasons"]:
        last = view["past_seasons"][-1]
        parts.append(f"[dim]season {last['season']}: {last['how']}[/]")
    if view["terminal"]:
        winner = view.get("winner")
        parts.append(
            f"[bold]seat {winner} wins[/]" if winner is not None else "[bold]a draw[/]"
        )
    title = f"Traps, year {view['year']}, season {view['season']} of at most {view['max_seasons']}"
    return Panel(Group(*parts), title=title, expand=False)
