"""Perfect-recall information states: what a seat has seen of the whole game, as a string
and as a fixed-size tensor.

A seat's information state is the present observation plus the course of the game as the
seat saw it: every step, who took it (chance or a seat) and, where the seat knows it, what
it was. The steps a seat does not know are exactly the engine's `_hidden_steps(seat)`, the
set `resample` redraws; so both forms are functions of what the seat knows (the tests
resample and compare), and a seat's own moves are always in them (perfect recall).
"""

from __future__ import annotations

import functools

import numpy as np

from ladytiger.core import CHANCE, Game, State
from ladytiger.rl.encoders import Encoder, Piece

# Above this many floats a history tensor is not offered (the flag says so and the method
# raises): games without a tight bound on their length (Shady Lady and Traps by default)
# would need hundreds of thousands of entries.
MAX_TENSOR_SIZE = 100_000


def masked_history(state: State, seat: int | None) -> list[tuple[int, int | None]]:
    """(actor, action) for every step, the action None where `seat` does not know it."""
    hidden = state._hidden_steps(seat)
    return [
        (actor, None if index in hidden else action)
        for index, (actor, action) in enumerate(zip(state._actors, state._history, strict=True))
    ]


def history_key(state: State, seat: int | None) -> str:
    """The seat's view of the course of the game as a short string ("c" for chance, "?" for
    a step the seat does not know)."""
    # Searches build this key at every node they visit: each step's word is made once per
    # (actor, action) and looked up, then the few hidden steps are masked.
    actors = state._actors
    words = list(map(_step_word, actors, state._history))
    for index in state._hidden_steps(seat):
        words[index] = _step_word(actors[index], None)
    return " ".join(words)


@functools.cache
def _step_word(actor: int, action: int | None) -> str:
    return f"{'c' if actor == CHANCE else actor}:{'?' if action is None else action}"


class InfoStateEncoder:
    """The present observation tensor, then one slot per step of the longest game.

    A slot holds who acted (chance, then the seats from the viewer's chair), a flag for a
    step the viewer does not know, and the action one-hot when it does; slots after the
    last step are all zero.
    """

    def __init__(self, game: Game, observation: Encoder) -> None:
        self.observation = observation
        self.players = game.num_players
        self.steps = game.max_game_length()
        self.width = max(game.num_distinct_actions(), game.max_chance_outcomes())
        self.slot = 1 + self.players + 1 + self.width
        self.size = observation.size + self.steps * self.slot

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return (
            ("observation", (self.observation.size,), "the observation tensor (above)"),
            (
                "history",
                (self.steps, self.slot),
                f"one row per step (max_game_length rows): actor one-hot (chance, then "
                f"{self.players} seat(s) from the viewer's chair), 1 if the viewer does not "
                f"know the step, then the action one-hot ({self.width})",
            ),
        )

    def encode_state(
        self, state: State, seat: int | None, out: np.ndarray | None = None
    ) -> np.ndarray:
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        self.observation.encode_state(state, seat, out[: self.observation.size])
        rows = out[self.observation.size :].reshape(self.steps, self.slot)
        first = seat or 0
        n = self.players
        steps = masked_history(state, seat)
        if len(steps) > self.steps:
            raise ValueError(
                f"{len(steps)} steps exceed the game's max_game_length of {self.steps}"
            )
        for row, (actor, action) in zip(rows, steps, strict=False):
            row[0 if actor == CHANCE else 1 + (actor - first) % n] = 1.0
            if action is None:
                row[1 + n] = 1.0
            else:
                row[2 + n + action] = 1.0
        return out

    def layout_markdown(self) -> str:
        rows = ["| offset | piece | shape | meaning |", "| ---: | --- | --- | --- |"]
        start = 0
        for name, shape, meaning in self.pieces:
            rows.append(f"| {start} | `{name}` | {'x'.join(map(str, shape))} | {meaning} |")
            start += int(np.prod(shape))
        rows.append(f"| {start} | (end) | | total size {start} |")
        return "\n".join(rows)


def info_state_encoder(game: Game, observation: Encoder) -> InfoStateEncoder | None:
    """The history tensor of `game`, or None where it is not offered: games that hide
    nothing (the observation is the whole state) and games whose bound on length makes it
    too large."""
    if not game.info.imperfect_information:
        return None
    encoder = InfoStateEncoder(game, observation)
    return encoder if encoder.size <= MAX_TENSOR_SIZE else None
