"""`ladytiger balance`: the designer's sweep over player counts, options and players.

Also the output shared with `ladytiger simulate` (tables, CSV, JSON Lines, plots, report).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ladytiger.core import LadyTigerError

BOTS_HELP = (
    "players: one for every seat (heuristic), or one per seat separated by / "
    "(ismcts:iterations=200/heuristic; the last fills the other seats)"
)


def register(app: typer.Typer) -> None:
    app.command("balance")(balance)


CsvOption = Annotated[
    Path | None, typer.Option("--csv", help="write one row per game here (CSV)")
]
JsonlOption = Annotated[
    Path | None, typer.Option("--jsonl", help="write one row per game here (JSON Lines)")
]
PlotOption = Annotated[
    Path | None, typer.Option("--plot", help="write PNG plots into this directory")
]
ReportOption = Annotated[
    Path | None, typer.Option("--report", help="write a self-contained HTML report here")
]
JsonOption = Annotated[
    Path | None, typer.Option("--json", help="write the summary here (JSON)")
]
JobsOption = Annotated[
    int | None, typer.Option("--jobs", "-j", min=1, help="workers (default: every core)")
]
BackendOption = Annotated[str, typer.Option(help="local (process pool) or ray")]
AddressOption = Annotated[
    str | None, typer.Option(help="a Ray cluster to join (with --backend ray)")
]


def balance(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="which game")],
    players: Annotated[
        str | None, typer.Option(help="player counts: 2,3,4 or 2-4 (default: the game's)")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o",
                     help="a game option and its values, NAME=V1,V2 (repeatable)"),
    ] = None,
    bots: Annotated[
        str, typer.Option(help="player mixes separated by commas; each is " + BOTS_HELP)
    ] = "heuristic",
    games: Annotated[int, typer.Option("--games", "-n", help="games per cell")] = 200,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    jobs: JobsOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    csv_out: CsvOption = None,
    jsonl_out: JsonlOption = None,
    json_out: JsonOption = None,
    plot_dir: PlotOption = None,
    report_out: ReportOption = None,
) -> None:
    """Play every cell of a grid (player counts x option values x player mixes) and print a
    row per cell: win share by turn order and by seat, draws and length, 95% intervals."""
    from ladytiger.arena.lab import build_cells, parse_counts, parse_mixes, parse_option_grid
    from ladytiger.cli.main import say_error

    try:
        if games < 1:
            raise LadyTigerError(f"--games must be at least 1 game per cell, not {games}")
        counts = parse_counts(players) if players is not None else None
        grid = parse_option_grid(option or [])
        mixes = parse_mixes(bots)
        cells = build_cells(game_name, counts, grid, mixes)
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err
    command: list[Any] = ["ladytiger", "balance", cells[0].game]
    if players is not None:
        command += ["--players", players]
    for pair in option or []:
        command += ["-o", pair]
    command += ["--bots", bots, "-n", games, "--seed", seed]
    run_and_show(cells, games, seed, jobs, backend, address, command,
                 csv_out, jsonl_out, json_out, plot_dir, report_out)


def run_and_show(
    cells: list[Any],
    games: int,
    seed: int,
    jobs: int | None,
    backend: str,
    address: str | None,
    command: list[Any],
    csv_out: Path | None,
    jsonl_out: Path | None,
    json_out: Path | None,
    plot_dir: Path | None,
    report_out: Path | None,
    one_cell: bool = False,
) -> Any:
    """Run the cells with a progress bar for the whole run, print the tables, write files.

    `one_cell` prints a single configuration seat by seat (simulate) instead of a row per
    cell (balance)."""
    from ladytiger.arena.lab import run_cells
    from ladytiger.arena.report import command_line
    from ladytiger.cli.main import console, games_progress, say_error

    total = games * len(cells)
    try:
        with games_progress("games") as progress:
            task = progress.add_task(f"{cells[0].game}: {len(cells)} cells", total=total)
            report = run_cells(
                cells, games, seed, jobs=jobs, backend=backend, address=address,
                on_progress=lambda done: progress.update(task, completed=done),
            )
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err
    if one_cell:
        print_cell(report)
    else:
        print_tables(report)
    console.print(f"{total} games in {report.seconds:.1f} s "
                  f"({total / max(report.seconds, 1e-9):,.0f} games/s)")
    text = command_line(command)
    written = write_outputs(report, text, csv_out, jsonl_out, json_out, plot_dir, report_out)
    for line in written:
        console.print(line)
    return report


def write_outputs(
    report: Any,
    command: str,
    csv_out: Path | None,
    jsonl_out: Path | None,
    json_out: Path | None,
    plot_dir: Path | None,
    report_out: Path | None,
) -> list[str]:
    from ladytiger.arena.export import write_csv, write_jsonl
    from ladytiger.cli.main import say_error

    said = []
    try:
        if csv_out:
            said.append(f"{write_csv(report, csv_out)} game rows written to {csv_out}")
        if jsonl_out:
            said.append(f"{write_jsonl(report, jsonl_out)} game rows written to {jsonl_out}")
        if json_out:
            data = {"command": command, **report.to_json()}
            json_out.write_text(json.dumps(data, indent=1) + "\n")
            said.append(f"summary written to {json_out}")
        if plot_dir:
            from ladytiger.arena.plots import write_plots

            paths = write_plots(report, plot_dir)
            said.append(f"plots written: {', '.join(str(p) for p in paths)}")
        if report_out:
            from ladytiger.arena.report import write_report

            write_report(report, report_out, command)
            said.append(f"report written to {report_out}")
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err
    return said


def print_tables(report: Any) -> None:
    from ladytiger.arena.report import (
        PLAYER_COLUMNS,
        fact_columns,
        fact_rows,
        player_rows,
        summary_columns,
        summary_rows,
    )
    from ladytiger.cli.main import console

    title = (f"{report.game}: {report.games} games per cell, seed {report.seed} "
             "(95% intervals in brackets)")
    _print(console, title, summary_columns(report), summary_rows(report))
    players = player_rows(report)
    if players:
        _print(console, "by player (mixed tables)", PLAYER_COLUMNS, players)
    columns = fact_columns(report)
    if len(columns) > 1:
        _print(console, "the game's own facts (numbers: mean per game; texts: share of games)",
               columns, fact_rows(report))


def print_cell(report: Any) -> None:
    """One configuration: a row per seat, a row per turn position, length, facts."""
    from ladytiger.arena.lab import format_mean, format_share
    from ladytiger.arena.report import fact_columns, fact_rows, interval_text, percent
    from ladytiger.cli.main import console

    cell = report.cells[0]
    players = " / ".join(cell.cell.seat_labels())
    for title, standings in ((f"by seat ({players})", cell.by_seat),
                             ("by turn order (from the seat that played first)", cell.by_turn)):
        table = Table(title=f"{cell.games} games of {cell.cell.game} {cell.cell.label}, seed "
                      f"{report.seed}: {title}")
        for column in ("", "win share (95% CI)", "sole wins", "mean score (95% CI)",
                       "min", "max"):
            table.add_column(column, justify="right")
        for standing in standings:
            table.add_row(standing.label, format_share(standing), str(standing.sole_wins),
                          format_mean(standing.scores), str(min(standing.scores)),
                          str(max(standing.scores)))
        console.print(table)
    low, high = cell.draw_interval
    nobody = "games lost" if cell.solo else "games nobody won"
    console.print(
        f"game length in {cell.unit}: {format_mean(cell.lengths)}; in actions: "
        f"{format_mean(cell.actions)}; {nobody}: {cell.draws} "
        f"({percent(cell.draws / cell.games)}, {interval_text(low, high)})"
    )
    columns = fact_columns(report)
    if len(columns) > 1:
        rows = fact_rows(report)[0]
        table = Table(title="the game's own facts (numbers: mean per game; texts: shares)")
        table.add_column("fact")
        table.add_column("value (95% CI)", justify="right")
        for name, value in zip(columns[1:], rows[1:], strict=True):
            table.add_row(name, value)
        console.print(table)


def _print(console: Any, title: str, columns: list[str], rows: list[list[str]]) -> None:
    table = Table(title=title, show_lines=True)
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console.print(table)
