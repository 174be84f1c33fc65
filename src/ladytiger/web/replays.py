"""Stepping through a finished game's record: the list of moves and the view after any step.

Only records of finished games reach here (a table's record is refused before the end, and an
uploaded record is the uploader's own), so any seat's view of any step may be shown.
"""

from __future__ import annotations

from typing import Any

from ladytiger.core import LadyTigerError, State
from ladytiger.core.record import from_record
from ladytiger.core.seen_steps import hidden_words
from ladytiger.web.protocol import ProtocolError


def _replay(record: Any) -> State:
    try:
        return from_record(record)
    except LadyTigerError as error:
        raise ProtocolError("bad_record", str(error)) from None


def replay_steps(record: Any) -> list[dict[str, Any]]:
    """Each history entry: its index, who made it (a seat, or -1 for chance), its text, and
    `seen`: null if every viewer knows it at the end; else, for each viewer (the spectator
    first, then seat 0, 1, ...), what that viewer saw of it if it stayed hidden from them to
    the end (else null). A step hidden for a while (a Door until its contest ends) is in the
    `hidden` of the views of the steps while it was."""
    final = _replay(record)
    steps = [
        {"index": index, "actor": actor, "text": text, "seen": None}
        for index, (actor, text) in enumerate(zip(final.actors(), record["history"], strict=True))
    ]
    viewers: list[int | None] = [None, *range(final.num_players())]
    for slot, found in enumerate(hidden_words(final, viewers)):
        for index, words in found.items():
            if steps[index]["seen"] is None:
                steps[index]["seen"] = [None] * len(viewers)
            steps[index]["seen"][slot] = words
    return steps


def replay_view(record: Any, step: int, viewer: int | None) -> dict[str, Any]:
    """What `viewer` (None: a spectator) saw after the first `step` history entries."""
    final = _replay(record)
    history = final.history()
    if not 0 <= step <= len(history):
        raise ProtocolError("bad_field", f"step must be from 0 to {len(history)}")
    if viewer is not None and not 0 <= viewer < final.num_players():
        raise ProtocolError(
            "bad_field", f"viewer must be a seat from 0 to {final.num_players() - 1}, or none"
        )
    state = final.game.new_initial_state()
    for action in history[:step]:
        state.apply_action(action)
    # The steps taken so far whose outcome `viewer` still does not know: a replay lists
    # them in the words the viewer saw them in.
    (hidden,) = hidden_words(state, [viewer])
    return {"step": step, "of": len(history), "viewer": viewer,
            "observation": state.observation(viewer),
            "hidden": [{"index": index, "seen": words} for index, words in sorted(hidden.items())]}


def parse_viewer(value: str | None) -> int | None:
    if value is None or value in ("", "spectator", "none"):
        return None
    # str.isdigit also passes superscripts and other scripts' digits, which int() refuses
    # or reads as a number the client did not write; a seat is a few ASCII digits.
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise ProtocolError(
            "bad_field", "viewer must be a seat number (0, 1, ...) or 'spectator'"
        )
    return int(value)
