"""Log lines that merge with their neighbours: a deal of many cards is written down once.

Kept apart from the state module because a `str` subclass cannot be a compiled native class
(see docs/architecture.md, "The compiled engine"); nothing here is on a hot path.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

# Writes the one sentence that stands for a run of parts, from each part's data, in order.
Merge = Callable[[list[dict[str, Any]]], str]


class LogPart(str):
    """A log line that `State.log` merges with its neighbours of the same group.

    `_describe` answers per step, and the bots compare those answers to tell steps apart,
    so a part is a whole sentence by itself: `merge` of its own data alone. A deal of many
    cards is many steps, though, and a player writes it down once; so `log` replaces each
    run of parts sharing a `group` (and a `merge`) by `merge` of all their data. The data
    must hold only what the viewer of the line may know, as the text does.
    """

    group: Hashable
    merge: Merge
    data: dict[str, Any]

    def __new__(cls, group: Hashable, merge: Merge, **data: Any) -> LogPart:
        part = super().__new__(cls, merge([data]))
        part.group = group
        part.merge = merge
        part.data = data
        return part

    def __reduce__(self) -> tuple[Any, ...]:
        # A state's log cache may travel by pickle (to a bot worker) with its parts in it.
        return (_rebuild_part, (self.group, self.merge, self.data))


def _rebuild_part(group: Hashable, merge: Merge, data: dict[str, Any]) -> LogPart:
    return LogPart(group, merge, **data)


def fold_parts(lines: list[str]) -> list[str]:
    """The lines as a player reads them: each run of parts of one group as one sentence."""
    folded: list[str] = []
    run: list[LogPart] = []

    def flush() -> None:
        if run:
            first = run[0]
            folded.append(str(first) if len(run) == 1 else first.merge([p.data for p in run]))
            run.clear()

    for line in lines:
        if isinstance(line, LogPart):
            if run and (line.group != run[0].group or line.merge is not run[0].merge):
                flush()
            run.append(line)
        else:
            flush()
            folded.append(str(line))
    flush()
    return folded


def settled(lines: list[str], start: int) -> int:
    """Where the run that may still grow begins: every line before it folds the same
    whatever comes next (the last run of parts of one group can take in the next step's
    parts; nothing earlier can). `start` is a place known to be settled already."""
    end = len(lines)
    last = lines[end - 1] if end > start else None
    if not isinstance(last, LogPart):
        return end
    begin = end - 1
    while begin > start:
        before = lines[begin - 1]
        if not (isinstance(before, LogPart) and before.group == last.group
                and before.merge is last.merge):
            break
        begin -= 1
    return begin
