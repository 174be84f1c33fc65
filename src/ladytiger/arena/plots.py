"""PNG plots of a balance sweep with matplotlib (the `plot` extra).

Four figures, each naming the game and the players of every cell: win share by seat and by
turn order with 95% Wilson intervals; score histograms by turn order; game length in the
game's own units; and the game's own facts (means with 95% intervals, shares of each value).
The width is fixed (WIDTH_PX) and the height grows with the number of panels.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

from ladytiger.arena.lab import SweepReport, ordinal
from ladytiger.arena.stats import mean_interval, wilson_interval
from ladytiger.core import LadyTigerError

DPI = 100
WIDTH_PX = 1200
PANEL_HEIGHT_PX = 360
COLUMNS = 3
FIGURES = ("win_share", "scores", "length", "facts")


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as error:
        raise LadyTigerError(
            "plots need matplotlib: pip install 'ladytiger[plot]'"
        ) from error
    matplotlib.use("Agg")  # files only: no display is needed or wanted
    import matplotlib.pyplot as plt

    return plt


def _figure(plt: Any, panels: int, columns: int = COLUMNS) -> tuple[Any, list[Any]]:
    columns = max(1, min(columns, panels))
    rows = max(1, math.ceil(panels / columns))
    figure, axes = plt.subplots(
        rows, columns, figsize=(WIDTH_PX / DPI, rows * PANEL_HEIGHT_PX / DPI + 0.6),
        dpi=DPI, squeeze=False,
    )
    flat = [ax for row in axes for ax in row]
    for ax in flat[panels:]:
        ax.set_visible(False)
    return figure, flat[:panels]


def _title(report: SweepReport, what: str) -> str:
    return f"{report.game}: {what} ({report.games} games per cell, seed {report.seed})"


def win_share_figure(report: SweepReport) -> Any:
    plt = _pyplot()
    figure, (by_seat, by_turn) = _figure(plt, 2, 2)
    for ax, kind in ((by_seat, "seat"), (by_turn, "turn order")):
        widest = max(cell.cell.players for cell in report.cells)
        width = 0.8 / widest
        labelled: set[int] = set()
        for number, cell in enumerate(report.cells):
            standings = cell.by_seat if kind == "seat" else cell.by_turn
            for position, standing in enumerate(standings):
                low, high = standing.interval
                x = number + (position - (len(standings) - 1) / 2) * width
                share = standing.win_share
                label = None
                if position not in labelled:
                    labelled.add(position)
                    label = f"seat {position}" if kind == "seat" else f"{ordinal(position)} to play"
                ax.bar(x, share, width * 0.9, color=f"C{position}", label=label,
                       yerr=_errors(share, low, high), capsize=2)
            fair = (1 - cell.draws / cell.games) / cell.cell.players
            ax.hlines(fair, number - 0.45, number + 0.45, colors="black", linestyles="dashed",
                      linewidth=1)
        ax.set_xticks(range(len(report.cells)))
        ax.set_xticklabels([c.cell.label for c in report.cells], rotation=20, ha="right",
                           fontsize=8)
        ax.set_ylabel("win share (95% interval)")
        ax.set_title(f"by {kind}; dashed: fair share of the games won")
        ax.set_ylim(0, 1)
        ax.legend(fontsize=7, loc="upper right")
    figure.suptitle(_title(report, "win share"))
    figure.tight_layout()
    return figure


def scores_figure(report: SweepReport) -> Any:
    plt = _pyplot()
    figure, axes = _figure(plt, len(report.cells))
    for ax, cell in zip(axes, report.cells, strict=True):
        low = min(min(s.scores) for s in cell.by_turn)
        high = max(max(s.scores) for s in cell.by_turn)
        bins = _integer_bins(low, high)
        for position, standing in enumerate(cell.by_turn):
            ax.hist(standing.scores, bins=bins, histtype="step", linewidth=1.5,
                    color=f"C{position}", label=f"{ordinal(position)} to play")
        ax.set_title(cell.cell.label, fontsize=9)
        ax.set_xlabel("final score")
        ax.set_ylabel("games")
        ax.legend(fontsize=7)
    figure.suptitle(_title(report, "scores by turn order"))
    figure.tight_layout()
    return figure


def length_figure(report: SweepReport) -> Any:
    plt = _pyplot()
    figure, axes = _figure(plt, len(report.cells))
    for ax, cell in zip(axes, report.cells, strict=True):
        ax.hist(cell.lengths, bins=_integer_bins(min(cell.lengths), max(cell.lengths)),
                color="C0")
        mean, low, high = mean_interval(cell.lengths)
        ax.axvline(mean, color="black", linestyle="dashed", linewidth=1)
        ax.set_title(f"{cell.cell.label}: mean {mean:.1f} ({low:.1f}–{high:.1f})", fontsize=9)
        ax.set_xlabel(cell.unit)
        ax.set_ylabel("games")
    figure.suptitle(_title(report, "game length"))
    figure.tight_layout()
    return figure


def facts_figure(report: SweepReport) -> Any:
    plt = _pyplot()
    numbers = list(dict.fromkeys(k for cell in report.cells for k in cell.numbers))
    texts = list(dict.fromkeys(k for cell in report.cells for k in cell.texts))
    panels = len(numbers) + len(texts)
    figure, axes = _figure(plt, max(1, panels))
    labels = [cell.cell.label for cell in report.cells]
    ticks = range(len(report.cells))
    for ax, key in zip(axes, numbers, strict=False):
        for number, cell in enumerate(report.cells):
            values = cell.numbers.get(key)
            if not values:
                continue
            mean, low, high = mean_interval(values)
            ax.bar(number, mean, 0.7, color="C0", yerr=_errors(mean, low, high), capsize=3)
        ax.set_title(f"{key} (mean per game)", fontsize=9)
        _cell_ticks(ax, ticks, labels)
    for ax, key in zip(axes[len(numbers):], texts, strict=False):
        values = sorted({v for cell in report.cells for v in cell.texts.get(key, {})})
        bottoms = [0.0] * len(report.cells)
        for colour, value in enumerate(values):
            shares = [cell.texts.get(key, {}).get(value, 0) / cell.games
                      for cell in report.cells]
            errors: list[list[float]] = [[], []]
            for cell, share in zip(report.cells, shares, strict=True):
                low, high = wilson_interval(share * cell.games, cell.games)
                below, above = _errors(share, low, high)
                errors[0].extend(below)
                errors[1].extend(above)
            tops = [b + s for b, s in zip(bottoms, shares, strict=True)]
            ax.bar(ticks, shares, 0.7, bottom=bottoms, color=f"C{colour}", label=value,
                   yerr=errors if len(values) == 1 else None, capsize=3)
            bottoms = tops
        ax.set_title(f"{key} (share of games)", fontsize=9)
        ax.set_ylim(0, 1.05)
        ax.legend(fontsize=7)
        _cell_ticks(ax, ticks, labels)
    if not panels:
        axes[0].text(0.5, 0.5, "this game declares no facts of its own", ha="center")
        axes[0].set_axis_off()
    figure.suptitle(_title(report, "the game's own facts"))
    figure.tight_layout()
    return figure


def _errors(value: float, low: float, high: float) -> list[list[float]]:
    # Rounding can put an interval's end a hair past its value (a share of exactly 0).
    return [[max(0.0, value - low)], [max(0.0, high - value)]]


def _cell_ticks(ax: Any, ticks: range, labels: list[str]) -> None:
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=7)


def _integer_bins(low: float, high: float) -> list[float]:
    # One bin per whole value while that stays readable, else about 40 bins.
    low, high = math.floor(low), math.ceil(high)
    step = max(1, math.ceil((high - low + 1) / 40))
    return [low - 0.5 + step * k for k in range(math.ceil((high - low + 1) / step) + 1)]


BUILDERS = {
    "win_share": win_share_figure,
    "scores": scores_figure,
    "length": length_figure,
    "facts": facts_figure,
}


def render_png(report: SweepReport, name: str) -> bytes:
    """One figure as PNG bytes."""
    plt = _pyplot()
    figure = BUILDERS[name](report)
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=DPI)
    finally:
        plt.close(figure)
    return buffer.getvalue()


def write_plots(report: SweepReport, directory: Path) -> list[Path]:
    """Write every figure into `directory` as NAME.png; return the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in FIGURES:
        path = directory / f"{report.game}_{name}.png"
        path.write_bytes(render_png(report, name))
        paths.append(path)
    return paths


def plots_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True
