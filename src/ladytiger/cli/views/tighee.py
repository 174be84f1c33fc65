"""Tighee in the terminal: scores and won piles, the Forest card, the trick and your hand."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ladytiger.cli.views.cards import lined_up

_STYLES = {
    "Red": "bold white on red3",
    "Purple": "bold white on purple4",
    "Blue": "bold white on blue3",
    "Green": "bold white on green4",
    "Black": "bold white on grey11",
}


def card(name: str | None) -> Text:
    if name is None:
        return Text(" -- ", style="dim")
    return Text(f" {name} ", style=_STYLES.get(name.split()[0], "bold"))


def played(entry: dict[str, Any]) -> Text:
    """A played card; a Black card shows the colour it counts as in this trick."""
    shown = card(entry["card"])
    if entry["counts_as"] != entry["card"]:
        shown.append(" = ").append_text(card(entry["counts_as"]))
    return shown


def render(view: dict[str, Any]) -> RenderableType:
    seat = view["viewer"]
    n = len(view["scores"])
    seats = Table(box=None, padding=(0, 1))
    for column in ("seat", "total", "tricks", "pile top", "hand", "put out"):
        seats.add_column(column, justify="left" if column in ("seat", "pile top") else "right")
    for other in range(n):
        marks = []
        if other == seat:
            marks.append("you")
        if other == view["current_player"]:
            marks.append("to move")
        if other == view["first_lead"]:
            marks.append("led first")
        label = f"seat {other}" + (f" ({', '.join(marks)})" if marks else "")
        seats.add_row(
            f"[bold]{label}[/]",
            str(view["scores"][other]),
            str(view["tricks_won"][other]),
            card(view["pile_tops"][other]),
            str(view["hand_sizes"][other]),
            f"{view['put_out_counts'][other]}/{view['put_out_per_player']}",
        )
    table = Table(show_header=False, box=None, padding=(0, 1))
    forest = card(view["forest"])
    forest.append(f"  deck: {view['forest_deck']}", style="dim")
    table.add_row("[bold]Forest[/]", forest)
    if view["trick"]:
        trick = Text("  ").join(
            Text(f"seat {entry['seat']}: ").append_text(played(entry)) for entry in view["trick"]
        )
        table.add_row("[bold]trick[/]", trick)
        table.add_row("[bold]follow[/]", card(view["follow"]))
    if view["tricks"]:
        last = view["tricks"][-1]
        line = Text(f"led by seat {last['lead']}, Forest ", style="dim")
        line.append_text(card(last["forest"])).append(": ")
        line.append_text(Text(" ").join(card(name) for _, name in last["cards"]))
        line.append(f"  taken by seat {last['winner']}", style="dim")
        table.add_row("[bold]last trick[/]", line)
    if seat is not None:
        table.add_row("[bold]your hand[/]", lined_up([card(name) for name in view["hand"]]))
        table.add_row("[bold]you put out[/]",
                      lined_up([card(name) for name in view["put_out"] or []]))
    parts: list[RenderableType] = [seats, table]
    if view["past_rounds"]:
        last_round = view["past_rounds"][-1]
        points = ", ".join(
            f"seat {other} {p:+d}" if p else f"seat {other} 0"
            for other, p in enumerate(last_round["points"])
        )
        parts.append(Text(f"round {last_round['round']} scored: {points}", style="dim"))
    if "winners" in view:
        who = " and ".join(f"seat {other}" for other in view["winners"])
        parts.append(Text(f"{who} {'wins' if len(view['winners']) == 1 else 'share the win'}",
                          style="bold green"))
    if view["phase"] in ("deal", "put out"):
        stage = f"put out {view['put_out_per_player']} cards for the Forest deck"
    else:
        trick_number = min(sum(view["tricks_won"]) + 1, view["tricks_per_round"])
        stage = f"trick {trick_number} of {view['tricks_per_round']}"
    title = f"Tighee ({view['mode']}), round {view['round']} of {view['rounds']}: {stage}"
    return Panel(Group(*parts), title=title, expand=False)
