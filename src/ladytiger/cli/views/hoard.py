"""Hoard in the terminal: the 2x2 square of doors with their gems, the piles and the deck."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ladytiger.cli.views.cards import card, card_row

# Shapes tell Treasure (diamonds) from Trash (circles) even without colour; white Trash is
# hollow and black is filled, so neither vanishes on a light or a dark background.
GLYPHS = {
    "red": ("◆", "bold red"),
    "blue": ("◆", "bold blue"),
    "white": ("○", "bold"),
    "black": ("●", "bold"),
}
ROUNDS = 3
DOOR_WIDTH = 36


def gems(counts: dict[str, int], separator: str = "\n") -> Text:
    """The gems as coloured shapes, then their counts in words."""
    shapes = Text()
    for gem, (glyph, style) in GLYPHS.items():
        if counts.get(gem):
            shapes.append(glyph * counts[gem], style=style)
            shapes.append(" ")
    words = "  ".join(f"{n} {gem}" for gem, n in counts.items() if n)
    if not words:
        return Text("(empty)", style="dim")
    return shapes + Text(f"{separator}{words}", style="dim")


def counted(names: list[str]) -> Text:
    """Cards listed once per kind with a count, e.g. Red Lady x2 (names come sorted)."""
    if not names:
        return Text("(none)", style="dim")
    text = Text()
    for name in dict.fromkeys(names):
        if text:
            text.append(" ")
        text.append_text(card(name))
        if names.count(name) > 1:
            text.append(f"x{names.count(name)}")
    return text


def door_panel(name: str, counts: dict[str, int], style: str) -> Panel:
    return Panel(gems(counts), title=card(name), width=DOOR_WIDTH, border_style=style, height=4)


def highlight(view: dict[str, Any]) -> dict[str, str]:
    """Border styles: the revealed card's door in bold yellow, a door a gem may move to or
    from in yellow."""
    revealed = view["revealed"]
    if revealed is None or "/" in revealed:
        return {}
    role = revealed.split()[1]
    return {
        name: "bold yellow" if name == revealed else "yellow"
        for row in view["layout"]
        for name in row
        if name.endswith(role)
    }


def hint(view: dict[str, Any]) -> str:
    """What the revealed card allows, in a player's words."""
    revealed = view["revealed"]
    if revealed is None:
        return ""
    if "/" in revealed:
        where = "the two Red or the two Blue doors"
        if revealed == "Lady/Tiger":
            where = "the two Lady or the two Tiger doors"
        if view["removed"]["white"]:
            return f"put a removed white and black Trash on {where}, one on each"
        return "swap a black Trash on one door with a white Trash on another"
    colour, role = revealed.split()
    return (
        f"move a gem between the {role} doors, remove pairs from the {revealed}, or collect "
        f"{colour.lower()} Treasure from it when it holds no Trash"
    )


def square(view: dict[str, Any]) -> Table:
    styles = highlight(view)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", vertical="middle")
    grid.add_column(justify="center")
    grid.add_column(justify="center")
    grid.add_row("", Text("Red", style="bold red"), Text("Blue", style="bold blue"))
    for row in view["layout"]:
        role = row[0].split()[1]
        grid.add_row(
            Text(role, style="bold"),
            *(door_panel(name, view["doors"][name], styles.get(name, "dim")) for name in row),
        )
    return grid


def markers(view: dict[str, Any]) -> Text:
    slots = Text()
    for index in range(ROUNDS):
        if index:
            slots.append("  ")
        if index < len(view["round_markers"]):
            slots.append_text(card(view["round_markers"][index]))
        else:
            slots.append(" ◇ empty ", style="yellow")
    return slots


def pile(view: dict[str, Any]) -> Text:
    white, black = view["removed"]["white"], view["removed"]["black"]
    text = gems({"white": white, "black": black}, "  ") if white or black else Text("(none)")
    if view["terminal"]:
        return text
    return text + Text(f"   score if you win now: {white + black} of 10", style="dim")


def treasure(view: dict[str, Any]) -> Text:
    text = Text()
    for colour in ("red", "blue"):
        glyph, style = GLYPHS[colour]
        got = view["collected"][colour]
        text.append(glyph * got, style=style)
        text.append("·" * (5 - got), style="dim")
        text.append(f" {colour} {got}/5   ")
    return text


def aside(view: dict[str, Any]) -> Text:
    shown = counted(view["set_aside"]) if view["set_aside"] else Text("")
    if view["face_down"]:
        hidden = Text(" ").join(card(None) for _ in range(view["face_down"]))
        shown = hidden if not view["set_aside"] else shown + Text(" ") + hidden
        shown.append(" face down", style="dim")
    if not shown.plain:
        return Text("(none)", style="dim")
    return shown


def render(view: dict[str, Any]) -> RenderableType:
    info = Table(show_header=False, box=None, padding=(0, 1))
    revealed = view["revealed"]
    info.add_row(
        "[bold]revealed[/]",
        card(revealed) + Text(f"  {hint(view)}", style="italic") if revealed else "(none)",
    )
    unseen = f"{view['deck']} cards left this round"
    if view["face_down"]:
        unseen += f" (the {len(view['still_unseen'])} unseen include the face-down ones)"
    info.add_row("[bold]deck[/]", unseen)
    info.add_row("[bold]still unseen[/]", counted(view["still_unseen"]))
    info.add_row("[bold]played this round[/]", card_row(view["played"]))
    info.add_row("[bold]round markers[/]", markers(view))
    info.add_row("[bold]removed Trash[/]", pile(view))
    info.add_row("[bold]collected[/]", treasure(view))
    info.add_row("[bold]set aside[/]", aside(view))
    parts: list[RenderableType] = [square(view), info]
    if view["terminal"]:
        if view["won"]:
            parts.append(f"[bold green]All 10 Treasures collected: score {view['scores'][0]}[/]")
        else:
            parts.append("[bold red]The third round is over: the hoard is lost[/]")
    title = f"Hoard · {view['difficulty']} · round {view['round']} of {ROUNDS}"
    return Panel(Group(*parts), title=title, expand=False)
