"""The `ladytiger` subcommands of the arena adapter, added to the main app by `register`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ladytiger.core import LadyTigerError


def register(app: typer.Typer) -> None:
    """Add this adapter's commands to `app`."""
    app.command("arena")(arena)


def arena(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="which game")],
    bots: Annotated[
        str,
        typer.Option(
            help="bots separated by commas, options after colons "
            "(ismcts:seconds=1,heuristic,random)"
        ),
    ] = "ismcts,heuristic,random",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games to play")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="a game option as NAME=VALUE (repeatable)"),
    ] = None,
    iterations: Annotated[
        int | None, typer.Option(min=1, help="search budget per move, in iterations")
    ] = None,
    seconds: Annotated[
        float | None, typer.Option(min=0.001, help="search budget per move, in seconds")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="workers (default: every core)")
    ] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[
        str | None, typer.Option(help="a Ray cluster to join (with --backend ray)")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="write results here")] = None,
) -> None:
    """Play bots against each other over every seating; print win rates, scores and Elo."""
    from ladytiger.arena.tournament import parse_bots, run_arena
    from ladytiger.cli.main import console, games_progress, make_game, say_error

    game = make_game(game_name, option, players)
    if iterations is not None and seconds is not None:
        say_error("give the budget in --iterations or in --seconds, not both")
        raise typer.Exit(2)
    budget = (
        {"iterations": iterations} if iterations is not None
        else {"seconds": seconds} if seconds is not None
        else None
    )
    try:
        specs = parse_bots(bots)
        with games_progress("games") as progress:
            task = progress.add_task(f"{game.info.name} arena", total=games)
            report = run_arena(
                game, specs, games, seed, budget=budget, jobs=jobs, backend=backend,
                address=address,
                on_progress=lambda done: progress.update(task, completed=done),
            )
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err
    fair = report.fair_share
    table = Table(
        title=f"{games} games of {game!r}, seed {seed}, {len(report.seatings)} seatings "
        f"(fair share {fair:.1%})"
    )
    for column in ("bot", "seat-games", "win rate", "95% CI", "mean score", "Elo", "s/move"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for standing in sorted(report.standings, key=lambda s: -s.elo):
        low, high = standing.interval
        table.add_row(
            standing.label,
            str(standing.seat_games),
            f"{standing.win_rate:.1%}",
            f"{100 * low:.0f}–{100 * high:.0f}%",
            f"{standing.mean_score:.2f}",
            f"{standing.elo:.0f}",
            f"{standing.seconds_per_move:.3f}",
        )
    console.print(table)
    if games % len(report.seatings):
        console.print(
            f"[yellow]{games} games do not divide evenly over {len(report.seatings)} "
            "seatings; use a multiple for an exactly fair rotation[/]"
        )
    if report.draws:
        console.print(f"games nobody won: {report.draws}")
    if json_out:
        json_out.write_text(json.dumps(report.to_json(), indent=1) + "\n")
        console.print(f"results written to {json_out}")
