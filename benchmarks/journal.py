"""A table of games too long for one sitting, played over several.

Each finished game is appended to a journal (one JSON line), and a later sitting of the same
table plays only the games still missing. Every game is a function of its seed and its
index (the searches count iterations; only a move that hits its deadline on a loaded machine
differs), so the games of two sittings make the same table as one run. The journal is
removed once the table is whole, and what came from earlier sittings is reported so the
record can say so.
"""

from __future__ import annotations

import dataclasses
import datetime
import fcntl
import importlib
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ladytiger.arena.backends import run_games

JOURNALS = Path(__file__).resolve().parent / "results" / "journal"


def revision() -> str:
    """The commit the package runs at, marked when its sources have uncommitted changes."""
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=here, timeout=10)
    except OSError:
        return "unknown"
    changed = subprocess.run(["git", "status", "--porcelain", "--", "src"], capture_output=True,
                             text=True, cwd=here, timeout=10)
    # Uncommitted changes to the package: the revision alone would not say what ran.
    return (done.stdout.strip() or "unknown") + (" with changes" if changed.stdout else "")


def journaled_game(payload: dict[str, Any], index: int) -> Any:
    """Play the `index`th missing game with the payload's worker and append it to the
    journal (a worker, so module-level)."""
    number = payload["missing"][index]
    began = time.perf_counter()
    result = payload["worker"](payload["inner"], number)
    kept = dataclasses.asdict(result) if dataclasses.is_dataclass(result) else result
    line = json.dumps({"index": number, "revision": payload["revision"],
                       "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M"),
                       "seconds": round(time.perf_counter() - began, 2), "result": kept})
    with open(payload["journal"], "a") as journal:
        fcntl.flock(journal, fcntl.LOCK_EX)
        journal.write(line + "\n")
    return result


def importable(worker: Callable[[Any, int], Any]) -> Callable[[Any, int], Any]:
    """`worker` by a name a spawned process can import.

    A benchmark run as a script defines its worker in `__main__`. The journal's own worker
    (`journaled_game`, in this module) carries it in its payload, and the process pool hides
    the script while it starts workers that only need the package, so a worker left in
    `__main__` could not be sent to them. The same function is found in the script's module
    under `benchmarks.`, importable from any process started at the repository's root.
    """
    if getattr(worker, "__module__", None) != "__main__":
        return worker
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    if script is None or Path(script).resolve().parent != Path(__file__).resolve().parent:
        return worker
    module = importlib.import_module(f"benchmarks.{Path(script).stem}")
    return getattr(module, worker.__name__)  # type: ignore[no-any-return]


def read_journal(path: Path) -> dict[int, dict[str, Any]]:
    """The games a journal holds by index; a line cut short by a killed sitting is skipped."""
    found: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            found[entry["index"]] = entry
    return found


def play_journaled(worker: Callable[[Any, int], Any], payload: Any, games: int,
                   jobs: int | None, journal: Path | None,
                   decode: Callable[[dict[str, Any]], Any] = lambda kept: kept,
                   ) -> tuple[list[Any], dict[str, Any]]:
    """`[worker(payload, i) for i in range(games)]`: the games the journal holds from
    earlier sittings (rebuilt by `decode`) and the rest played now. Also returns what came
    from earlier sittings (empty if nothing did). Without a journal, plays them all."""
    if journal is None:
        return run_games(worker, payload, games, jobs=jobs, chunk_size=1), {}
    journal.parent.mkdir(parents=True, exist_ok=True)
    earlier = {i: e for i, e in read_journal(journal).items() if i < games}
    missing = [i for i in range(games) if i not in earlier]
    fresh = run_games(journaled_game, {"worker": importable(worker), "inner": payload,
                                       "missing": missing,
                                       "journal": str(journal), "revision": revision()},
                      len(missing), jobs=jobs, chunk_size=1)
    played = dict(zip(missing, fresh, strict=True))
    for index, entry in earlier.items():
        played[index] = decode(entry["result"])
    journal.unlink()
    resumed: dict[str, Any] = {}
    if earlier:
        resumed = {"games": len(earlier),
                   "revisions": sorted({e["revision"] for e in earlier.values()}),
                   "first_date": min(e["date"] for e in earlier.values()),
                   "minutes": round(sum(e["seconds"] for e in earlier.values()) / 60, 1)}
    return [played[i] for i in range(games)], resumed


def resumed_note(resumed: dict[str, Any] | None, games: int) -> str:
    """A sentence for a record whose games came partly from earlier sittings."""
    if not resumed:
        return ""
    revisions = ", ".join(f"`{r}`" for r in resumed["revisions"])
    return (f" {resumed['games']} of its {games} games were played in earlier sittings from "
            f"{resumed['first_date']} UTC at revision {revisions} ({resumed['minutes']:g} "
            "minutes of play), carried from sitting to sitting in a journal.")
