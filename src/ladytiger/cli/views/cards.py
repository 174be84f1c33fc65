"""Small rich helpers to draw The Lady and the Tiger's cards in colour and in words."""

from __future__ import annotations

from rich.columns import Columns
from rich.console import RenderableType
from rich.text import Text

_STYLES = {
    "Red": "bold white on red3",
    "Blue": "bold white on blue3",
    "Blue/Red": "bold white on purple4",
    "Lady/Tiger": "bold black on grey70",
}


def card(name: str | None) -> Text:
    """A card face: its colour as background, its full name as the printed word."""
    if name is None:
        return Text(" ?? ", style="bold black on grey50")
    style = _STYLES.get(name) or _STYLES.get(name.split()[0], "bold")
    return Text(f" {name} ", style=style)


def cards(names: list[str]) -> Text:
    if not names:
        return Text("(none)", style="dim")
    return Text(" ").join(card(name) for name in names)


def lined_up(faces: list[Text]) -> RenderableType:
    """Cards side by side, wrapped between two cards when the row is too long for the
    terminal, never inside a card's name ("Blue" at the end of a line, "Tiger" on the next)."""
    if not faces:
        return Text("(none)", style="dim")
    return Columns(faces, padding=(0, 1))


def card_row(names: list[str]) -> RenderableType:
    return lined_up([card(name) for name in names])
