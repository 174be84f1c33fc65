"""A game's steps as one viewer saw them, for replays (the web's and the terminal's).

A record names every step in full, hidden cards included. Watching it again from one seat (or
as a spectator) should tell only what that viewer knew: a card put out face down, another
seat's deal. The engine already answers both questions for the bots and the information-state
tensors: `_hidden_steps(viewer)`, the steps a viewer does not know (yet), and `_describe`,
the words each viewer's log gives a step. One pass over the history answers for every viewer
at once, so a long record costs no more than replaying it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ladytiger.core.state import CHANCE, State


def hidden_words(
    state: State, viewers: Sequence[int | None]
) -> list[dict[int, str]]:
    """For each viewer, the steps of `state`'s history whose outcome that viewer does not
    know at `state` (a Door is known once its contest shows it; who put out a Forest card
    never is), each with the words that viewer's log gave it ("Seat 1 puts out a card face
    down.")."""
    hidden = [state._hidden_steps(viewer) for viewer in viewers]
    wanted = set().union(*hidden)
    found: list[dict[int, str]] = [{} for _ in viewers]
    if not wanted:
        return found
    replay = state.game.new_initial_state()
    for index, (actor, action) in enumerate(zip(state.actors(), state.history(), strict=True)):
        if index not in wanted:
            replay.apply_action(action)
            continue
        before = replay.clone()
        replay.apply_action(action)
        for slot, viewer in enumerate(viewers):
            if index in hidden[slot]:
                found[slot][index] = _words(before, action, actor, viewer, replay)
    return found


def _words(before: State, action: int, actor: int, viewer: int | None, after: State) -> str:
    words = " ".join(str(line) for line in before._describe(action, actor, viewer, after))
    # A deal's steps may say nothing one by one: the log writes the whole run once.
    return words.strip() or (
        "A hidden deal." if actor == CHANCE else f"Seat {actor} makes a hidden move.")
