"""Fixed-size observation tensors, one encoder per game, each a function of an observation.

Every encoder has two ways to the same tensor:
- `encode(observation)`: the reference, a function of the observation dict a seat receives
  and of nothing else, so its tensor cannot hold more than the seat knows;
- `encode_state(state, seat)`: the fast path learning loops use, which reads the state's
  fields directly into a preallocated buffer and skips building the observation. It copies
  exactly the fields that `_observe(seat)` shows that seat; the tests compare both paths on
  every seat of every game, position by position, and resample the hidden part of each
  position to check the fast tensor does not move.
Layouts are listed in docs/rl.md (kept in step by a test).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from typing import Any

import numpy as np

from ladytiger.core import Game, State
from ladytiger.rl.encoders.marks import (  # noqa: F401 (the writers encoders are made of)
    Tensor,
    bits_at,
    chance_outcome,
    counts_at,
    counts_into,
    fresh_tensor,
    legal_mask,
    mark_common,
    offsets,
    one_hot,
    seat_at,
    seat_order,
)

Fill = Callable[[dict[str, Any], dict[str, np.ndarray]], None]
# Writes the tensor of `state` as seen by the seat (None: a spectator) into a zeroed buffer;
# returns False when it cannot read this state (another implementation of the game), so the
# caller falls back on the reference.
FastFill = Callable[[State, "int | None", Tensor], bool]
Piece = tuple[str, tuple[int, ...], str]  # name, shape, meaning


@dataclass(frozen=True)
class Encoder:
    """A named layout of pieces, the reference fill from an observation and the fast fill
    from a state."""

    game: str
    pieces: tuple[Piece, ...]
    fill: Fill
    fast: FastFill | None = None
    # The game the encoder was made for: pickling rebuilds the encoder from it, since the
    # fills are closures over the game's sizes.
    source: Game | None = field(default=None, compare=False)

    @cached_property
    def size(self) -> int:
        # Asked on every encode: worked out once (a frozen dataclass still has a __dict__).
        return sum(int(np.prod(shape)) for _, shape, _ in self.pieces)

    def encode(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation as a float32 vector with every entry in [0, 1] (the reference)."""
        tensor = np.zeros(self.size, np.float32)
        self.fill(observation, self.views(tensor))
        return tensor

    def encode_state(
        self, state: State, seat: int | None, out: np.ndarray | None = None
    ) -> np.ndarray:
        """The tensor of `observation(seat)` without building the observation.

        `out`, when given, is a float32 buffer of the encoder's size that is overwritten
        (and returned), so a loop can reuse one buffer.
        """
        if out is None:
            if self.fast is not None:
                tensor = fresh_tensor(self.fast, state, seat, self.size)
                if tensor is not None:
                    return tensor
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        if self.fast is None or not self.fast(state, seat, memoryview(out)):
            out.fill(0.0)
            self.fill(state.observation(seat, with_log=False), self.views(out))
        return out

    def encode_batch(
        self,
        states: Sequence[State],
        seats: Sequence[int | None] | int | None,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """One row per state, each from its seat's chair (one seat for all, or one each),
        written into `out` (shape (len(states), size)) when given."""
        count = len(states)
        if out is None:
            out = np.zeros((count, self.size), np.float32)
        per_state = (
            list(seats) if isinstance(seats, Sequence) else [seats] * count  # type: ignore[list-item]
        )
        if len(per_state) != count:
            raise ValueError(f"{count} states but {len(per_state)} seats")
        for row, (state, seat) in enumerate(zip(states, per_state, strict=True)):
            self.encode_state(state, seat, out[row])
        return out

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped windows onto `tensor` (writes go through to it)."""
        views, start = {}, 0
        for name, shape, _ in self.pieces:
            size = int(np.prod(shape))
            views[name] = tensor[start : start + size].reshape(shape)
            start += size
        return views

    def offsets(self) -> dict[str, int]:
        return offsets(self.pieces)

    def layout_markdown(self) -> str:
        rows = ["| offset | piece | shape | meaning |", "| ---: | --- | --- | --- |"]
        start = 0
        for name, shape, meaning in self.pieces:
            rows.append(f"| {start} | `{name}` | {'x'.join(map(str, shape))} | {meaning} |")
            start += int(np.prod(shape))
        rows.append(f"| {start} | (end) | | total size {start} |")
        return "\n".join(rows)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.source is None:
            raise TypeError(f"the {self.game} encoder was made without its game; no pickling")
        return (encoder_for, (self.source,))


def encoder_for(game: Game) -> Encoder:
    """The encoder of `game` (its size may depend on the player count and options)."""
    module = import_module(f"ladytiger.rl.encoders.{game.info.name}")
    encoder: Encoder = module.make_encoder(game)
    return Encoder(encoder.game, encoder.pieces, encoder.fill, encoder.fast, game)
