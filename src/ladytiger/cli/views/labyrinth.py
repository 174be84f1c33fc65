"""Labyrinth in the terminal: the 4x4 grid with each player's cubs, and the two Switch cards."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ladytiger.cli.views.cards import card

CUB = "●"
CUB_STYLES = {"red": "bold red1", "blue": "bold dodger_blue1"}
GEM_STYLES = {"Blue/Red": "bold black on yellow", "Lady/Tiger": "bold black on white"}
GEM_NAMES = {"Blue/Red": "yellow", "Lady/Tiger": "white"}
SIDES = {"Blue/Red": ("Blue", "Red"), "Lady/Tiger": ("Lady", "Tiger")}


def _cell(square: dict[str, Any], view: dict[str, Any]) -> Text:
    face = card(square["card"])
    if square["door"]:
        face.append(" door", style="bold")
    lines = [face]
    for seat, colour in enumerate(view["seat_colours"]):
        if square["cell"] == view["start_doors"][seat]:
            lines.append(Text(f"{colour} start", style="dim"))
        if square["cell"] == view["goal_doors"][seat]:
            lines.append(Text(f"{colour} goal", style=CUB_STYLES[colour]))
    cubs = Text()
    for colour, count in square["cubs"].items():
        if count:
            cubs.append(CUB * count + " ", style=CUB_STYLES[colour])
    moved = view["cub_moved"]
    if moved and moved["to"] == square["cell"]:
        cubs.append(f"(from {moved['from']})", style="italic")
    lines.append(cubs)
    return Text("\n").join(lines)


def _switch(name: str, gem_on: str) -> Text:
    line = Text(f"{name}: ", style="bold")
    for side in SIDES[name]:
        if side == gem_on:
            line.append(f" {side} ◆ ", style=GEM_STYLES[name])
        else:
            line.append(f" {side} ", style="dim")
    line.append(f"  ({GEM_NAMES[name]} gem: switch two {gem_on} cards)", style="dim")
    return line


def render(view: dict[str, Any]) -> RenderableType:
    grid = Table(show_lines=True, padding=(0, 1))
    grid.add_column("")
    for letter in "ABCD":
        grid.add_column(letter, justify="center", min_width=14)
    for number, row in enumerate(view["grid"], start=1):
        grid.add_row(str(number), *(_cell(square, view) for square in row))

    parts: list[RenderableType] = [grid]
    parts.extend(_switch(name, gem_on) for name, gem_on in view["switches"].items())

    colours = view["seat_colours"]
    seat = view["viewer"]
    home = Table(show_header=False, box=None, padding=(0, 1))
    for other, colour in enumerate(colours):
        you = " (you)" if other == seat else ""
        home.add_row(
            Text(f"seat {other}{you}", style="bold"),
            Text(f"{colour}", style=CUB_STYLES[colour]),
            f"{view['scores'][other]} of 5 cubs home on {view['goal_doors'][other]}",
        )
    parts.append(home)

    if view["winner"] is not None:
        parts.append(Text(f"seat {view['winner']} wins!", style="bold green"))
    elif view["terminal"]:
        parts.append(Text("the turn cap is reached: a draw", style="bold yellow"))
    elif view["current_player"] in (0, 1):
        mover = view["current_player"]
        step = "move a cub" if view["phase"] == "move a cub" else "switch two cards"
        parts.append(Text(f"seat {mover} ({colours[mover]}) to {step}", style="bold"))
    title = f"Labyrinth, turn {view['turn']} of {view['turn_cap']}"
    return Panel(Group(*parts), title=title, expand=False)
