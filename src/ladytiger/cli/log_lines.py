"""How the terminal prints a game's log: new lines only, each escaped for rich, and a run
of the same line (five cards put out face down, several draws) as one line with a count,
so the moves that matter are not scrolled away by repetition."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.console import Console
from rich.markup import escape


def grouped(lines: Iterable[str]) -> list[tuple[str, int]]:
    """Each line with how many times it came in a row."""
    runs: list[tuple[str, int]] = []
    for line in lines:
        if runs and runs[-1][0] == line:
            runs[-1] = (line, runs[-1][1] + 1)
        else:
            runs.append((line, 1))
    return runs


def print_log(console: Console, lines: Iterable[str],
              word: Callable[[str], str] = str) -> None:
    """Print log lines as the terminal shows them; `word` rewrites a line first (names)."""
    for line, times in grouped(word(str(line)) for line in lines):
        count = f" [dim](×{times})[/]" if times > 1 else ""
        console.print(f"[dim]·[/] {escape(line)}{count}")
