"""The tables of a balance run (for the terminal and the page) and its HTML report.

The report is one self-contained HTML file: the tables, the plots embedded as PNG data, what
the figures suggest, and the exact command, seeds and versions that reproduce the run.
"""

from __future__ import annotations

import base64
import datetime
import html
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

from ladytiger.arena.lab import CellReport, SweepReport, format_mean, format_share, ordinal
from ladytiger.arena.stats import wilson_interval


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval_text(low: float, high: float) -> str:
    return f"{100 * low:.1f}–{100 * high:.1f}"


def edge_text(cell: CellReport) -> str:
    edge, low, high = cell.first_player_edge()
    return f"{100 * edge:+.1f} pts ({100 * low:+.1f} to {100 * high:+.1f})"


def summary_columns(report: SweepReport) -> list[str]:
    unit = report.cells[0].unit
    nobody = "losses" if report.cells[0].solo else "draws"
    return ["cell", "games", "first player edge", "win share by turn order",
            "win share by seat", nobody, f"length ({unit})", "actions"]


def summary_rows(report: SweepReport) -> list[list[str]]:
    """A row per cell: the figures `ladytiger balance` prints, 95% intervals in brackets."""
    rows = []
    for cell in report.cells:
        low, high = cell.draw_interval
        solo = cell.solo
        rows.append([
            cell.cell.label,
            str(cell.games),
            "–" if solo else edge_text(cell),
            "\n".join(f"{ordinal(p)}: {format_share(s)}" for p, s in enumerate(cell.by_turn)),
            "\n".join(f"{s}: {format_share(st)}" for s, st in enumerate(cell.by_seat)),
            f"{percent(cell.draws / cell.games)} ({interval_text(low, high)})",
            format_mean(cell.lengths),
            format_mean(cell.actions),
        ])
    return rows


def fact_columns(report: SweepReport) -> list[str]:
    numbers = dict.fromkeys(k for cell in report.cells for k in cell.numbers)
    texts = dict.fromkeys(k for cell in report.cells for k in cell.texts)
    return ["cell", *numbers, *texts]


def fact_rows(report: SweepReport) -> list[list[str]]:
    """A row per cell: each numeric fact's mean per game, each text fact's shares."""
    columns = fact_columns(report)[1:]
    rows = []
    for cell in report.cells:
        row = [cell.cell.label]
        for key in columns:
            if key in cell.numbers:
                row.append(format_mean(cell.numbers[key]))
            elif key in cell.texts:
                counts = cell.texts[key]
                row.append("\n".join(
                    f"{value}: {percent(count / cell.games)} "
                    f"({interval_text(*wilson_interval(count, cell.games))})"
                    for value, count in counts.most_common()
                ))
            else:
                row.append("–")
        rows.append(row)
    return rows


def player_rows(report: SweepReport) -> list[list[str]]:
    """Mixed tables only: each kind of player's win share over all the seats it held."""
    rows = []
    for cell in report.cells:
        if len(cell.by_player) < 2:
            continue
        fair = (1 - cell.draws / cell.games) / cell.cell.players
        for standing in cell.by_player.values():
            rows.append([cell.cell.label, standing.label, str(standing.games),
                         format_share(standing), percent(fair),
                         format_mean(standing.scores)])
    return rows


PLAYER_COLUMNS = ["cell", "player", "seat-games", "win share", "fair share", "mean score"]


def findings(report: SweepReport) -> list[str]:
    """What the figures suggest, in plain words: only effects larger than their intervals."""
    notes = []
    for cell in report.cells:
        name = cell.cell.label
        if not cell.solo:
            edge, low, high = cell.first_player_edge()
            if low > 0 or high < 0:
                notes.append(
                    f"{name}: the first player wins {abs(100 * edge):.1f} points "
                    f"{'more' if edge > 0 else 'less'} than a fair share "
                    f"(95% interval {100 * low:+.1f} to {100 * high:+.1f}): a real "
                    f"{'advantage' if edge > 0 else 'handicap'} at these players."
                )
            else:
                notes.append(
                    f"{name}: no first-player effect beyond the noise (edge "
                    f"{100 * edge:+.1f} points, 95% interval {100 * low:+.1f} to "
                    f"{100 * high:+.1f}); more games would narrow it."
                )
            rate = cell.draws / cell.games
            if rate >= 0.05:
                low_d, high_d = cell.draw_interval
                notes.append(f"{name}: {percent(rate)} of games end with no winner "
                             f"({interval_text(low_d, high_d)}).")
        else:
            share = cell.by_seat[0]
            notes.append(f"{name}: won {format_share(share)} of games.")
    return notes


def versions(backend: str) -> dict[str, str]:
    found = {"python": platform.python_version(), "platform": platform.platform()}
    packages = ["ladytiger", "matplotlib"] + (["ray"] if backend == "ray" else [])
    for package in packages:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def _table(columns: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(
            f"<td>{html.escape(value).replace(chr(10), '<br>')}</td>" for value in row
        ) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1250px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }
th { background: #f3f1ea; }
code, pre { background: #f6f6f6; padding: 0.2em 0.4em; }
pre { padding: 0.8em; white-space: pre-wrap; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5em 0; }
"""


def render_html(report: SweepReport, command: str, plots: dict[str, bytes] | None) -> str:
    """The report as one HTML page; `plots` maps figure names to PNG bytes (None: none)."""
    title = f"Balance of {report.game}"
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    version_items = "".join(
        f"<li>{html.escape(k)}: {html.escape(v)}</li>" for k, v in versions(report.backend).items()
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{report.games} games per cell, {len(report.cells)} cells, run seed "
        f"{report.seed}; game <i>i</i> of every cell is seeded with "
        f"<code>\"{report.seed}:<i>i</i>\"</code>. Played in {report.seconds:.1f} s on the "
        f"{html.escape(report.backend)} backend ({report.jobs or 'every'} workers), {when}.</p>",
        "<h2>Reproduce</h2>",
        f"<pre>{html.escape(command)}</pre>",
        f"<ul>{version_items}</ul>",
        "<h2>What the figures suggest</h2>",
        "<ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in findings(report)) + "</ul>",
        "<h2>Results by cell</h2>",
        "<p>Win shares count a shared win as its share; intervals are 95% Wilson intervals "
        "(for means, the normal approximation, kept within the values seen). Turn order "
        "counts from the seat that played first, which matters when the first player is "
        "drawn at random. The first player "
        "edge is the first player's win share minus a fair share of the games won.</p>",
        _table(summary_columns(report), summary_rows(report)),
    ]
    players = player_rows(report)
    if players:
        parts += ["<h2>By player (mixed tables)</h2>", _table(PLAYER_COLUMNS, players)]
    parts += ["<h2>The game's own facts</h2>",
              "<p>Numbers are means per game; texts are shares of games.</p>",
              _table(fact_columns(report), fact_rows(report))]
    parts.append("<h2>Plots</h2>")
    if plots:
        for name, png in plots.items():
            data = base64.b64encode(png).decode("ascii")
            parts.append(f'<img alt="{html.escape(name)}" src="data:image/png;base64,{data}">')
    else:
        parts.append("<p>No plots: matplotlib is not installed "
                     "(<code>pip install 'ladytiger[plot]'</code>).</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(report: SweepReport, path: Path, command: str) -> Path:
    from ladytiger.arena import plots as plotting

    figures: dict[str, bytes] | None = None
    if plotting.plots_available():
        figures = {name: plotting.render_png(report, name) for name in plotting.FIGURES}
    path.write_text(render_html(report, command, figures))
    return path


def command_line(args: list[Any]) -> str:
    """A shell command from its words, quoted where needed."""
    import shlex

    return shlex.join(str(a) for a in args)
