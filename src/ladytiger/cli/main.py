"""The `ladytiger` command: list games, play in the terminal, simulate, replay records."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ladytiger.bots import load_bot, registered_bots
from ladytiger.cli import balance_commands
from ladytiger.cli.log_lines import print_log
from ladytiger.cli.views import view_for
from ladytiger.core import CHANCE, Game, LadyTigerError, State, load_game, registered_games
from ladytiger.core.playout import sample_chance
from ladytiger.core.record import load as load_record
from ladytiger.core.record import save as save_record
from ladytiger.core.seen_steps import hidden_words

app = typer.Typer(
    help="ladytiger: play, simulate and study seven tabletop card games.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False)

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="a game option as NAME=VALUE (repeatable)"),
]


def say_error(message: object) -> None:
    """Print an error in red, unwrapped, with any square brackets shown as typed."""
    console.print(f"[red]{escape(str(message))}[/]", soft_wrap=True)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        options[name.strip()] = value.strip()
    return options


def games_progress(unit: str = "") -> Progress:
    """The progress bar of a run of games (simulate, arena): done/total, time left."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}" + (f" {unit}" if unit else "")),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def make_game(name: str, pairs: list[str] | None, players: int | None) -> Game:
    options = parse_options(pairs)
    if players is not None:
        options["players"] = players
    try:
        return load_game(name, **options)
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err


@app.command()
def info() -> None:
    """Say which engine runs the rules here: compiled by mypyc, or the Python source."""
    import ladytiger
    import ladytiger.games
    from ladytiger.engine_build import CHOICE, COMPILED_MODULES, engine_is_compiled
    from ladytiger.games.tighee_compiled import compiled_available

    engine = "compiled (mypyc)" if engine_is_compiled() else "pure Python"
    console.print(f"ladytiger {ladytiger.__version__}")
    console.print(f"rules engine: [bold]{engine}[/] - {escape(CHOICE.reason)}")
    rules = [m.rsplit(".", 1)[1] for m in COMPILED_MODULES if ".rl." not in m]
    tensors = [m.rsplit(".", 1)[1] for m in COMPILED_MODULES if ".rl." in m]
    console.print(f"  modules: {', '.join(rules)}; RL tensors: {', '.join(tensors)}")
    tighee = "built" if compiled_available() else "not built"
    console.print(f"hand-written C Tighee engine (load_compiled_tighee): {tighee}")


@app.command("games")
def list_games() -> None:
    """List the games, their player counts and options."""
    table = Table(title="ladytiger games")
    for column in ("name", "players", "about", "options"):
        table.add_column(column)
    for info in registered_games():
        counts = (
            str(info.min_players)
            if info.min_players == info.max_players
            else f"{info.min_players}-{info.max_players}"
        )
        options = ", ".join(f"{o.name}={o.default}" for o in info.options)
        table.add_row(info.name, counts, info.description, options)
    console.print(table)


@app.command()
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="which game to play")],
    seat: Annotated[int, typer.Option(help="your seat")] = 0,
    bot: Annotated[str, typer.Option(
        help="the bot in every other seat: a level (beginner, casual, strong, expert) or any "
        "bot `ladytiger bots` lists")] = "casual",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for the deal and the bots")] = None,
    option: OptionList = None,
    save: Annotated[Path | None, typer.Option(help="save the game record here")] = None,
) -> None:
    """Play a game in the terminal against bots. Type a move's number or its text."""
    game = make_game(game_name, option, players)
    if not 0 <= seat < game.num_players:
        say_error(f"there is no seat {seat}; seats are 0 to {game.num_players - 1}")
        raise typer.Exit(2)
    rng = random.Random(seed)
    # Hints draw from their own stream: asking for one leaves the deal and the bots as they
    # would have been with the same seed.
    hint_rng = random.Random(None if seed is None else f"hints {seed}")
    try:
        bots = {
            other: load_bot(bot, game, seed=rng.randrange(2**32))
            for other in range(game.num_players)
            if other != seat
        }
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err
    state = game.new_initial_state()
    render = view_for(game.info.name)
    shown = 0
    try:
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            if player != seat:
                state.apply_action(bots[player].step(state, player))
                continue
            view = state.observation(seat)
            shown = _print_new_log(view["log"], shown)
            console.print(render(view))
            state.apply_action(_ask_move(state, hint_rng))
    except (EOFError, KeyboardInterrupt, typer.Abort):
        console.print("\n[yellow]game abandoned[/]")
        if save:
            save_record(state, save, {"abandoned": True})
            console.print(f"record saved to {save}")
        raise typer.Exit(1) from None
    view = state.observation(seat)
    _print_new_log(view["log"], shown)
    console.print(render(view))
    _print_result(state, seat)
    if save:
        save_record(state, save, {"human_seat": seat, "bot": bot})
        console.print(f"record saved to {save}")


def _print_new_log(log: list[str], shown: int) -> int:
    print_log(console, log[shown:])
    return len(log)


HINT_WORDS = ("hint", "?")
# A hint's search stops here at the latest, as the server's does (hint_seconds).
HINT_SECONDS = 4.0


def _ask_move(state: State, rng: random.Random) -> int:
    legal = state.legal_actions()
    for number, action in enumerate(legal, start=1):
        console.print(f"  [bold cyan]{number:>2}[/] {state.action_to_string(action)}")
    while True:
        answer = console.input("[bold]your move[/] (number or text; hint for advice): ").strip()
        if answer.lower() in HINT_WORDS:
            _print_hint(state, rng)
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        if answer.isdigit():
            say_error(f"choose a number from 1 to {len(legal)}")
            continue
        try:
            action = state.string_to_action(answer)
        except LadyTigerError as err:
            say_error(err)
            continue
        reason = state.illegal_reason(action)
        if reason is None:
            return action
        say_error(f"you cannot {answer}: {reason}")


def _print_hint(state: State, rng: random.Random) -> None:
    """What the web table's Hint button says: the rules of thumb's move and why, and the
    search's word on it. It is worked out on a resampled state (ladytiger.bots.advice)."""
    from ladytiger.bots.advice import advise

    seat = state.current_player()
    try:
        with console.status("thinking about a hint…"):
            advice = advise(state, seat, seed=rng.randrange(2**32), seconds=HINT_SECONDS)
    except Exception as err:  # a hint that fails must not end the game
        say_error(f"no hint this time: {err}")
        return
    number = state.legal_actions().index(advice.action) + 1
    console.print(f"[bold green]hint:[/] {number} {advice.text}: {advice.reason}")
    if advice.search is not None:
        console.print(f"      {advice.search.note}")


def _print_result(state: State, seat: int | None) -> None:
    returns = state.returns()
    scores = state.scores()
    winners = [s for s, r in enumerate(returns) if r > 0]
    for s in range(len(returns)):
        you = " (you)" if s == seat else ""
        mark = " [bold green]wins[/]" if s in winners else ""
        console.print(f"seat {s}{you}: {scores[s]}{mark}")
    if not winners:
        console.print("[yellow]nobody wins[/]")


@app.command()
def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="which game")],
    games: Annotated[int, typer.Option("--games", "-n", help="games to play")] = 1000,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    option: OptionList = None,
    bots: Annotated[str, typer.Option(help=balance_commands.BOTS_HELP)] = "random",
    json_out: balance_commands.JsonOption = None,
    csv_out: balance_commands.CsvOption = None,
    jsonl_out: balance_commands.JsonlOption = None,
    plot_dir: balance_commands.PlotOption = None,
    report_out: balance_commands.ReportOption = None,
    jobs: balance_commands.JobsOption = None,
    backend: balance_commands.BackendOption = "local",
    address: balance_commands.AddressOption = None,
) -> None:
    """Play games (random players unless --bots says otherwise) and print outcome statistics
    by seat and by turn order, with 95% intervals."""
    from ladytiger.arena.lab import Cell, check_players, parse_mix

    game = make_game(game_name, option, players)
    try:
        if games < 1:
            raise LadyTigerError(f"--games must be at least 1, not {games}")
        cell = Cell(game.info.name, tuple(game.options.items()), parse_mix(bots))
        check_players(cell, game)
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err
    command: list[Any] = ["ladytiger", "simulate", game.info.name, "--players",
                          game.num_players]
    for name, value in game.options.items():
        if name != "players":
            command += ["-o", f"{name}={value}"]
    command += ["--bots", bots, "-n", games, "--seed", seed]
    report = balance_commands.run_and_show(
        [cell], games, seed, jobs, backend, address, command,
        csv_out, jsonl_out, None, plot_dir, report_out, one_cell=True,
    )
    if json_out:
        from ladytiger.arena.simulate import report_from_cell

        summary = report_from_cell(game, report.cells[0])
        json_out.write_text(json.dumps(summary.to_json(), indent=1) + "\n")
        console.print(f"results written to {json_out}")


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="a saved game record (JSON)")],
    seat: Annotated[int | None, typer.Option(
        help="watch from this seat, its secrets named and the others' told as it saw them "
        "(default: everything named)")] = None,
    step: Annotated[bool, typer.Option(help="step with Enter (b: back, q: quit)")] = True,
) -> None:
    """Step through a saved game record."""
    try:
        final = load_record(path)
    except LadyTigerError as err:
        say_error(err)
        raise typer.Exit(2) from err
    render = view_for(final.game.info.name)
    history = final.history()
    states = [final.game.new_initial_state()]
    for action in history:
        states.append(states[-1].clone())
        states[-1].apply_action(action)
    texts = [states[i].action_to_string(a) for i, a in enumerate(history)]
    @functools.cache
    def unseen(at: int) -> dict[int, str]:
        return hidden_words(states[at], [seat])[0] if seat is not None else {}

    def words(index: int, at: int) -> str:
        """Step `index` as the seat watched from knows it after `at` steps: a step it does
        not know (yet) in its own log's words."""
        told = unseen(at)
        return f"[italic]{escape(told[index])}[/]" if index in told else escape(texts[index])

    position = 0 if step else len(history)
    if not step:
        for index in range(len(texts)):
            console.print(f"[dim]{index + 1:>4}[/] {words(index, len(history))}")
    while True:
        shown = states[position]
        console.print(
            f"[bold]after {position} of {len(history)} actions[/]"
            + (f": {words(position - 1, position)}" if position else "")
        )
        viewer = seat if seat is not None else _whole_truth_viewer(shown)
        console.print(render(shown.observation(viewer)))
        if not step:
            break
        try:
            answer = console.input("[dim]Enter: next, b: back, q: quit[/] ").strip().lower()
        except EOFError:
            break
        if answer == "q":
            break
        position = max(0, position - 1) if answer == "b" else min(len(history), position + 1)
    if final.is_terminal():
        _print_result(final, seat)


def _whole_truth_viewer(state: State) -> int | None:
    # With no seat chosen, show the first seat's view mid-game: a record holds everything,
    # but a view is always some seat's.
    return 0 if not state.is_terminal() else None


@app.command("bots")
def list_bots() -> None:
    """List the bots."""
    for name, summary in registered_bots().items():
        console.print(f"[bold]{name}[/]: {summary}")


def _register_adapter_commands() -> None:
    from ladytiger.cli import arena_commands, learn_command, server_commands

    arena_commands.register(app)
    learn_command.register(app, console)
    balance_commands.register(app)
    server_commands.register(app)


_register_adapter_commands()

if __name__ == "__main__":
    app()
