"""A finished game's steps as one viewer saw them, for replays (the web's and the terminal's).

A record names every step in full, hidden cards included. Watching it again from one seat (or
as a spectator) should tell only what that viewer knew: a card put out face down, another
seat's deal. The engine already answers both questions for the bots and the information-state
tensors: `_hidden_steps(viewer)`, the steps a viewer does not know (yet), and `_describe`,
the words each viewer's log gives a step.
"""

from __future__ import annotations

from ladytiger.core.state import CHANCE, State


def seen_when_taken(final: State, viewer: int | None) -> dict[int, str]:
    """The steps of `final`'s history whose outcome `viewer` did not know right after they
    were taken, with the words `viewer`'s log gave them ("Seat 1 puts out a card face
    down.")."""
    state = final.game.new_initial_state()
    seen: dict[int, str] = {}
    for index, (actor, action) in enumerate(zip(final.actors(), final.history(), strict=True)):
        before = state.clone()
        state.apply_action(action)
        if index in state._hidden_steps(viewer):
            lines = before._describe(action, actor, viewer, state)
            words = " ".join(str(line) for line in lines).strip()
            # A deal's steps may say nothing one by one: the log writes the run once.
            seen[index] = words or (
                "A hidden deal." if actor == CHANCE else f"Seat {actor} makes a hidden move.")
    return seen


def still_hidden(state: State, viewer: int | None) -> set[int]:
    """The steps so far whose outcome `viewer` does not know at `state` (a Door is known once
    its contest shows it; who put out a Forest card never is)."""
    return set(state._hidden_steps(viewer))
