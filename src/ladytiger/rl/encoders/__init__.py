"""Fixed-size observation tensors, one encoder per game, each a function of an observation.

An encoder sees nothing but the observation dict a seat receives, so its tensor cannot hold
more than the seat knows. Layouts are listed in docs/rl.md (kept in step by a test).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import numpy as np

from ladytiger.core import Game

Fill = Callable[[dict[str, Any], dict[str, np.ndarray]], None]


@dataclass(frozen=True)
class Encoder:
    """A named layout of pieces and the function that fills them from an observation."""

    game: str
    pieces: tuple[tuple[str, tuple[int, ...], str], ...]  # name, shape, meaning
    fill: Fill

    @property
    def size(self) -> int:
        return sum(int(np.prod(shape)) for _, shape, _ in self.pieces)

    def encode(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation as a float32 vector with every entry in [0, 1]."""
        tensor = np.zeros(self.size, np.float32)
        self.fill(observation, self.views(tensor))
        return tensor

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped windows onto `tensor` (writes go through to it)."""
        views, start = {}, 0
        for name, shape, _ in self.pieces:
            size = int(np.prod(shape))
            views[name] = tensor[start : start + size].reshape(shape)
            start += size
        return views

    def layout_markdown(self) -> str:
        rows = ["| offset | piece | shape | meaning |", "| ---: | --- | --- | --- |"]
        start = 0
        for name, shape, meaning in self.pieces:
            rows.append(f"| {start} | `{name}` | {'x'.join(map(str, shape))} | {meaning} |")
            start += int(np.prod(shape))
        rows.append(f"| {start} | (end) | | total size {start} |")
        return "\n".join(rows)


def encoder_for(game: Game) -> Encoder:
    """The encoder of `game` (its size may depend on the player count and options)."""
    module = import_module(f"ladytiger.rl.encoders.{game.info.name}")
    return module.make_encoder(game)  # type: ignore[no-any-return]


def one_hot(view: np.ndarray, index: int | None) -> None:
    if index is not None:
        view[index] = 1.0


def seat_order(viewer: int | None, players: int) -> list[int]:
    """Seats starting from the viewer (seat 0 first for a spectator), so a tensor reads the
    same from every chair."""
    first = viewer or 0
    return [(first + k) % players for k in range(players)]
