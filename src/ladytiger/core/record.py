"""Game records: a JSON document of game, options and history as move texts.

A record is the whole truth of a game, hidden cards included, so it is handed out only
when a game has ended (or kept server-side). Loading replays and validates every entry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ladytiger.core.errors import LadyTigerError, RecordError
from ladytiger.core.game import Game
from ladytiger.core.registry import load_game
from ladytiger.core.state import State

FORMAT = "ladytiger-record"
VERSION = 1
_KEYS = {"format", "version", "game", "options", "history", "metadata"}


def to_record(state: State, metadata: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of `state`: every action as text, replayable with `from_record`."""
    replay = state.game.new_initial_state()
    texts = []
    for action in state.history():
        texts.append(replay.action_to_string(action))
        replay.apply_action(action)
    meta: dict[str, Any] = {"saved_at": datetime.now(UTC).isoformat(timespec="seconds")}
    if state.is_terminal():
        meta["returns"] = state.returns()
        meta["scores"] = state.scores()
    meta.update(metadata or {})
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game.info.name,
        "options": dict(state.game.options),
        "history": texts,
        "metadata": meta,
    }


def from_record(record: Any) -> State:
    """Replay a record. Any malformed or illegal entry raises RecordError naming it."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    missing = sorted({"format", "version", "game", "options", "history"} - set(record))
    if missing:
        raise RecordError(f"the record lacks the field(s): {', '.join(missing)}")
    unknown = sorted(set(record) - _KEYS)
    if unknown:
        raise RecordError(f"the record has unknown field(s): {', '.join(unknown)}")
    if record["format"] != FORMAT:
        raise RecordError(f"not a ladytiger record (format is {record['format']!r})")
    if record["version"] != VERSION:
        raise RecordError(f"record version {record['version']!r} is not supported (need 1)")
    if not isinstance(record["options"], Mapping):
        raise RecordError("'options' must be an object")
    if not isinstance(record["history"], list):
        raise RecordError("'history' must be a list of move texts")
    try:
        game: Game = load_game(str(record["game"]), **record["options"])
    except LadyTigerError as error:
        raise RecordError(str(error)) from error
    state = game.new_initial_state()
    for index, text in enumerate(record["history"]):
        if not isinstance(text, str):
            raise RecordError(f"expected a move text, found {text!r}", entry=index)
        try:
            state.apply_action(state.string_to_action(text))
        except LadyTigerError as error:
            raise RecordError(f"{text!r} cannot be played: {error}", entry=index) from error
    return state


def save(state: State, path: str | Path, metadata: Mapping[str, Any] | None = None) -> None:
    Path(path).write_text(json.dumps(to_record(state, metadata), indent=1) + "\n")


def load(path: str | Path) -> State:
    try:
        record = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read {path}: {error}") from error
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not valid JSON: {error}") from error
    return from_record(record)
