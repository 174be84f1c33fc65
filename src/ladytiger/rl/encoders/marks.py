"""The small pieces a learning loop runs at every step: the writers every encoder's fast
path is made of, the action mask, and the walk that turns one uniform draw into a chance
outcome.

Compiled with the rules when a compiler is present (see engine_build.py), like the game
encoders that call them: a tensor is a few dozen writes, and in a learning loop the Python
bookkeeping around each write costs more than the write itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

import numpy as np

from ladytiger.core.state import CHANCE, State


class Tensor(Protocol):
    """Where a fast path writes: the encoder hands it a memoryview of the float32 buffer,
    since a memoryview takes one number at a time for half what an array's indexing costs."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


# Boxed once, for `one_at`. A write through the buffer takes Python objects; boxing the 1.0
# and the index at every write (past 256, where CPython's own cache of small ints ends)
# costs about a third of the write, and most of a tensor's writes are ones.
_ONE: Final[object] = 1.0
_BOXED_INDICES: Final = 1024
_INDICES: Final[tuple[object, ...]] = tuple(range(_BOXED_INDICES))


def one_at(t: Tensor, index: int) -> None:
    """Write a 1 at `index`."""
    if 0 <= index < _BOXED_INDICES:
        boxed: Any = t  # as Any, the boxed objects go to the buffer as they are
        boxed[_INDICES[index]] = _ONE
    else:
        t[index] = 1.0


def offsets(pieces: Sequence[tuple[str, tuple[int, ...], str]]) -> dict[str, int]:
    """Where each piece starts in the flat tensor."""
    where: dict[str, int] = {}
    start = 0
    for name, shape, _ in pieces:
        where[name] = start
        size = 1
        for extent in shape:
            size *= extent
        start += size
    return where


def one_hot(view: np.ndarray, index: int | None) -> None:
    if index is not None:
        view[index] = 1.0


def seat_at(t: Tensor, start: int, seat: int | None, first: int, players: int) -> None:
    """Mark `seat` in the block of `players` entries at `start`, counted from `first` (the
    viewer), if it is a seat at all (not chance, not the end, not nobody)."""
    if seat is not None and 0 <= seat < players:
        one_at(t, start + (seat - first) % players)


def mark_common(t: Tensor, at: dict[str, int], state: State, viewer: int | None,
                players: int, phase: int) -> int:
    """The entries every game's tensor opens with (the viewer is a seat, who is to move,
    the phase's index); returns the seat the others are counted from (the viewer, or 0)."""
    first = viewer or 0
    if viewer is not None:
        one_at(t, at["is_seat"])
    seat_at(t, at["to_move"], state.current_player(), first, players)
    one_at(t, at["phase"] + phase)
    return first


def seat_order(viewer: int | None, players: int) -> list[int]:
    """Seats starting from the viewer (seat 0 first for a spectator), so a tensor reads the
    same from every chair."""
    first = viewer or 0
    return [(first + k) % players for k in range(players)]


def counts_into(view: np.ndarray, names: list[str] | None, index: dict[str, int],
                copies: Sequence[int]) -> None:
    """Cards per kind / copies of the kind. The division happens once per kind, so the fast
    path (which divides a count it reads) gives the same float32 to the last bit."""
    tally = [0] * len(copies)
    for name in names or ():
        tally[index[name]] += 1
    for kind, count in enumerate(tally):
        if count:
            view[kind] = count / copies[kind]


def counts_at(t: Tensor, start: int, counts: Sequence[int], copies: Sequence[int]) -> None:
    """Counts per kind / copies of the kind, at `start`: the fast path's `counts_into`."""
    for kind in range(len(copies)):
        count = counts[kind]
        if count:
            t[start + kind] = count / copies[kind]


def bits_at(t: Tensor, start: int, mask: int) -> None:
    """A set of cards held as a bitmask (bit c for card c), written as ones at start + c."""
    while mask:
        low = mask & -mask
        one_at(t, start + low.bit_length() - 1)
        mask ^= low


def legal_mask(legal: list[int], size: int) -> np.ndarray:
    """The int8 action mask of a list of legal actions."""
    # Set in a bytearray, which numpy then reads in place (writable, since a bytearray is):
    # a byte costs a third of what an array's item assignment does.
    mask = bytearray(size)
    for action in legal:
        mask[action] = 1
    return np.frombuffer(mask, np.int8)


def mask_for(state: State, seat: int, size: int) -> np.ndarray:
    """The action mask `seat` sees: its legal actions when it is to move, else all zero."""
    return legal_mask(state.legal_actions() if state.current_player() == seat else [], size)


def fresh_tensor(fast: Callable[[State, int | None, Tensor], bool], state: State,
                 seat: int | None, size: int) -> np.ndarray | None:
    """A new tensor of `state` for `seat` by an encoder's fast path, or None when the fast
    path cannot read this state (the caller then takes the reference path)."""
    tensor: Any = np.zeros(size, np.float32)  # numpy's stubs do not say it is a buffer
    return tensor if fast(state, seat, memoryview(tensor)) else None


def observation_of(fast: Callable[[State, int | None, Tensor], bool], state: State,
                   seat: int, size: int, actions: int) -> dict[str, np.ndarray] | None:
    """A PettingZoo observation of `state` for `seat`: a new tensor by the encoder's fast
    path and the seat's action mask, or None when the fast path cannot read this state."""
    tensor = fresh_tensor(fast, state, seat, size)
    if tensor is None:
        return None
    return {"observation": tensor, "action_mask": mask_for(state, seat, actions)}


def play_chance(state: State, draws: list[float], refill: Callable[[], None]) -> None:
    """Resolve every chance node `state` stands on, each with the uniform number popped from
    the end of `draws` (`refill` puts more there when it runs dry)."""
    while state.current_player() == CHANCE:
        if not draws:
            refill()
        state.apply_trusted(chance_outcome(state.chance_outcomes(), draws.pop()))


def advance(state: State, action: int, draws: list[float], refill: Callable[[], None]) -> int:
    """Play `action` (checked: an illegal one raises and changes nothing), then the chance
    nodes after it as `play_chance` does; returns the seat to move next, or TERMINAL."""
    state.apply_action(action)
    play_chance(state, draws, refill)
    return state.current_player()


def chance_outcome(outcomes: list[tuple[int, float]], draw: float) -> int:
    """The outcome a uniform `draw` in [0, 1) lands on, walking the listed probabilities
    (one draw per chance node: numpy's weighted choice costs more than a whole step)."""
    for outcome, probability in outcomes:
        draw -= probability
        if draw < 0:
            return outcome
    return outcomes[-1][0]
