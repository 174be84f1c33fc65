"""Shady Lady in the terminal: each seat's points, hand (unknown cards as ??) and pile."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

# Low and high numbers in different colours: runs never mix them (there is no 5).
_LOW = "bold black on light_goldenrod2"
_HIGH = "bold white on dark_cyan"
_UNKNOWN = "bold black on grey50"


def number_card(value: int | None) -> Text:
    if value is None:
        return Text(" ?? ", style=_UNKNOWN)
    return Text(f" {value} ", style=_LOW if value < 5 else _HIGH)


def hand_text(hand: list[int | None]) -> Text:
    if not hand:
        return Text("(no cards)", style="dim")
    return Text(" ").join(number_card(value) for value in hand)


def pile_text(pile: list[int]) -> Text:
    """The whole pile, bottom first; the top card, the only one anybody may take, stands out."""
    if not pile:
        return Text("(empty)", style="dim")
    under = Text(" ".join(str(value) for value in pile[:-1]), style="dim")
    if pile[:-1]:
        under.append(" ")
    return under + number_card(pile[-1])


def _status(view: dict[str, Any]) -> str:
    answer = view["try"]
    if answer is not None:
        return (
            f"[bold magenta]Try![/] by seat {answer['declarer']}: best so far {answer['best']} "
            f"(seat {answer['best_seat']}); seat {answer['to_answer']} may reveal a stronger one"
        )
    if view["discarding"]:
        seats = ", ".join(f"seat {seat}" for seat in view["discarding"])
        return f"revealed hands go to the piles, one card at a time: {seats}"
    if view["terminal"]:
        if view["winner"] is None:
            return "[yellow]the turn limit is reached: a draw[/]"
        return f"[bold green]seat {view['winner']} wins with {view['points_to_win']} points[/]"
    return f"seat {view['turn_player']}'s turn"


def render(view: dict[str, Any]) -> RenderableType:
    seat = view["viewer"]
    to_move = view["current_player"]
    table = Table(show_header=True, box=None, padding=(0, 1), header_style="dim")
    for column in ("", "seat", "points", "hand", "discard pile (top last)"):
        table.add_column(column)
    for other, hand in enumerate(view["hands"]):
        you = " (you)" if other == seat else ""
        table.add_row(
            "[bold green]>[/]" if other == to_move else " ",
            f"[bold]seat {other}{you}[/]",
            f"{view['scores'][other]} / {view['points_to_win']}",
            hand_text(hand),
            pile_text(view["piles"][other]),
        )
    parts: list[RenderableType] = [table]
    facts = (
        f"draw pile: {view['draw_pile']}   turn {view['turn']} of {view['turn_limit']}"
        + (f"   rebuilt {view['reshuffles']}x" if view["reshuffles"] else "")
    )
    if view["combination"]:
        facts += f"   [bold]you hold {view['combination']}[/]"
    parts.append(facts)
    parts.append(_status(view))
    if view["results"]:
        last = view["results"][-1]
        shown = "; ".join(
            f"seat {hand['seat']} showed {' '.join(map(str, hand['cards']))}"
            for hand in last["revealed"]
        )
        parts.append(
            f"[dim]last {last['call']} (turn {last['turn']}, seat {last['declarer']}): "
            f"{shown}; seat {last['scorer']} scored ({last['why']})[/]"
        )
    return Panel(Group(*parts), title="Shady Lady", expand=False)
