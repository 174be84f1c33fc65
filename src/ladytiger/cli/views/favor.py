"""Favor in the terminal: the lot, each seat's gems, bid and collection, and the last day."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from ladytiger.cli.views.cards import card, cards
from ladytiger.core.words import plural


def _bid_text(bid: Any) -> str:
    if bid is None:
        return ""
    if bid == "pass":
        return "[dim]passed[/]"
    return f"[bold yellow]bids {bid}[/]"


def _auction_line(auction: dict[str, Any]) -> str:
    if auction["final"]:
        kind = "[bold magenta]final auction[/] (the gems go to the supply)"
    else:
        kind = f"auction called by seat {auction['caller']}"
    if auction["high_bidder"] is None:
        high = "no bid yet"
    else:
        high = f"high bid {auction['high_bid']} by seat {auction['high_bidder']}"
    return f"{kind}: {high}; seat {auction['to_bid']} to bid"


def _last_day(record: dict[str, Any]) -> Table:
    table = Table(title=f"day {record['day']} scoring", title_justify="left", box=None,
                  padding=(0, 1), show_header=True, header_style="dim")
    for column in ("seat", "identity", "cards", "gems", "day", "total", "wilds"):
        table.add_column(column)
    for seat, name in enumerate(record["identities"]):
        bonus = " +3" if record["gem_bonus"][seat] else ""
        table.add_row(
            str(seat),
            card(name),
            str(record["card_points"][seat]),
            f"{record['gems'][seat]}{bonus}",
            str(record["points"][seat]),
            str(record["totals"][seat]),
            "; ".join(record["wilds"][seat]) or "",
        )
    return table


def render(view: dict[str, Any]) -> RenderableType:
    seat = view["viewer"]
    auction = view["auction"]
    to_move = view["current_player"]
    table = Table(show_header=False, box=None, padding=(0, 1))
    for other, gems in enumerate(view["gems"]):
        you = " (you)" if other == seat else ""
        mark = "[bold green]>[/]" if other == to_move else " "
        bid = _bid_text(auction["bids"][other]) if auction else ""
        table.add_row(
            mark,
            f"[bold]seat {other}{you}[/]",
            card(view["identities"][other]),
            f"{gems} gem" if gems == 1 else f"{gems} gems",
            bid,
            f"{view['scores'][other]} pts",
            cards(view["collections"][other]),
        )
    parts: list[RenderableType] = [table]
    parts.append(
        f"[bold]lot[/] {cards(view['lot']).markup}   deck: {view['deck']}   "
        f"supply: {view['supply']}   new lots: {plural(view['new_lot_size'], 'card')}"
    )
    if view["discarded"]:
        parts.append(f"[dim]discarded:[/] {cards(view['discarded']).markup}")
    if auction:
        parts.append(_auction_line(auction))
    if view["past_days"]:
        parts.append(_last_day(view["past_days"][-1]))
    if view["terminal"]:
        parts.append(f"[bold green]seat {view['winner']} wins[/]")
    title = f"Favor, day {view['day']} of {view['days']} (seat {view['first_player']} began)"
    return Panel(Group(*parts), title=title, expand=False)
