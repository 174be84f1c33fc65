"""`ladytiger learn GAME`: the guided first games (ladytiger.lessons) in the terminal, the same
scripts the browser plays at /learn/<game>. The coach says what to do and why; only the move
the lesson asks for is played, and anything else is answered in words."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from ladytiger.cli.log_lines import print_log
from ladytiger.cli.views import view_for
from ladytiger.lessons import LESSON_GAMES, frames, lesson_for


def register(app: typer.Typer, console: Console) -> None:
    @app.command()
    def learn(
        game_name: Annotated[str | None, typer.Argument(
            metavar="GAME", help="which game to learn (none: list the guided games)")] = None,
    ) -> None:
        """A guided first game: a scripted game with a coach who says what to do and why.
        Type the move the coach asks for (its number or its text)."""
        if game_name is None:
            for name in LESSON_GAMES:
                listed = lesson_for(name)
                title = listed.title if listed else name
                console.print(f"  ladytiger learn [bold]{name:<11}[/] {escape(title)}")
            return
        lesson = lesson_for(game_name)
        if lesson is None:
            message = (f"there is no guided game of {game_name!r}; the games with one are "
                       f"{', '.join(LESSON_GAMES)}")
            console.print(f"[red]{escape(message)}[/]", soft_wrap=True)
            raise typer.Exit(2)
        render = view_for(lesson.game)
        console.print(f"[bold]{escape(lesson.title)}[/]")
        logged = 0
        try:
            shown = frames(lesson)
            for frame in shown:
                view = frame["view"]
                logged = _print_new_log(console, view["observation"].get("log", []), logged)
                expect = frame["expect"]
                # The board is drawn where the learner moves or the coach speaks; the bot's
                # plain moves show only as log lines.
                if expect or frame["say"]:
                    console.print(render(view["observation"]))
                if frame["say"]:
                    console.print(Panel(escape(frame["say"]), title="coach", title_align="left",
                                        border_style="cyan"))
                if expect:
                    _ask_for(console, view["legal_actions"], expect)
                elif frame["say"] and frame is not shown[-1]:
                    console.input("[dim]Enter to go on[/] ")
        except (EOFError, KeyboardInterrupt, typer.Abort):
            console.print("\n[yellow]lesson left[/]")
            raise typer.Exit(1) from None
        console.print(f"Next: [bold]ladytiger play {lesson.game} --bot beginner[/]")


def _print_new_log(console: Console, log: list[str], shown: int) -> int:
    print_log(console, log[shown:])
    return len(log)


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def _ask_for(console: Console, legal: list[dict[str, Any]], expect: str) -> None:
    """Ask until the learner types the lesson's move; another legal move, or something that
    is no move here, is answered in words."""
    texts = [move["text"] for move in legal]
    for number, text in enumerate(texts, start=1):
        console.print(f"  [bold cyan]{number:>2}[/] {escape(text)}")
    while True:
        answer = console.input("[bold]your move[/] (number or text): ")
        chosen = answer.strip()
        if chosen.isdigit() and 1 <= int(chosen) <= len(texts):
            chosen = texts[int(chosen) - 1]
        if _plain(chosen) == _plain(expect):
            return
        if _plain(chosen) in {_plain(text) for text in texts}:
            console.print(f"[yellow]Not this time:[/] in this lesson, {escape(expect)}.")
        else:
            console.print(f"[yellow]{escape(chosen) or 'Nothing'} is not a move here.[/] "
                          f"The lesson's move is {escape(expect)}.")
