"""Per-game rows of a balance run as CSV or JSON Lines, for any tool to reanalyse.

A row is one game: its cell (configuration and players), its seed (`game_seed` is the text
the game's generator was seeded with: run seed and game index), who sat where and who played
first, each seat's score and return, the winner, its length in actions and in the game's own
units, and the game's own facts.

CSV has one column per seat (`player_0`, `score_0`, `return_0`, ... up to the largest table
of the run, empty beyond a smaller table's seats) and one per fact (`fact:NAME`); lists are
written space-separated and the options as JSON. JSON Lines keeps the lists and dicts.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ladytiger.arena.lab import SweepReport

BASE_COLUMNS = (
    "cell", "game", "options", "num_players", "mix", "seed", "index", "game_seed",
    "first_player", "turn_order", "winner", "actions", "length", "length_unit",
)
SEAT_FIELDS = (("player", "players"), ("score", "scores"), ("return", "returns"))


def csv_columns(report: SweepReport) -> list[str]:
    width = max(cell.cell.players for cell in report.cells)
    facts: dict[str, None] = {}
    for cell in report.cells:
        facts.update(dict.fromkeys(cell.numbers))
        facts.update(dict.fromkeys(cell.texts))
    seats = [f"{prefix}_{seat}" for prefix, _ in SEAT_FIELDS for seat in range(width)]
    return [*BASE_COLUMNS, *seats, *(f"fact:{name}" for name in facts)]


def csv_row(row: dict[str, Any]) -> dict[str, Any]:
    flat = {key: row[key] for key in BASE_COLUMNS}
    flat["options"] = json.dumps(row["options"], sort_keys=True)
    flat["turn_order"] = " ".join(str(seat) for seat in row["turn_order"])
    winner = row["winner"]
    flat["winner"] = (
        "" if winner is None else " ".join(map(str, winner)) if isinstance(winner, list)
        else winner
    )
    for prefix, key in SEAT_FIELDS:
        for seat, value in enumerate(row[key]):
            flat[f"{prefix}_{seat}"] = value
    for name, value in row["facts"].items():
        flat[f"fact:{name}"] = value
    return flat


def write_csv(report: SweepReport, path: Path) -> int:
    """Write one row per game; return the number of rows."""
    return _write_csv(csv_columns(report), (csv_row(row) for row in report.rows()), path)


def _write_csv(columns: list[str], rows: Iterable[dict[str, Any]], path: Path) -> int:
    count = 0
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, restval="")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
            count += 1
    return count


def write_jsonl(report: SweepReport, path: Path) -> int:
    """Write one JSON object per line and game; return the number of rows."""
    count = 0
    with path.open("w") as handle:
        for row in report.rows():
            handle.write(json.dumps(row, sort_keys=True) + "\n")
            count += 1
    return count
