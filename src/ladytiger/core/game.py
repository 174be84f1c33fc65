"""What a game is: its declaration (GameInfo) and the Game object that makes states."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ladytiger.core.options import Option, resolve_options

if TYPE_CHECKING:
    from ladytiger.core.state import State


@dataclass(frozen=True)
class GameInfo:
    """A game's declaration: who plays it, what it is, which options it takes."""

    name: str
    title: str
    description: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = field(default=())
    imperfect_information: bool = True
    rules_page: str = ""
    # Option sets beyond the player count that tests and benchmarks must also cover,
    # e.g. ({"mode": "short"},) or one per difficulty.
    variants: tuple[dict[str, object], ...] = field(default=())

    def all_options(self) -> tuple[Option, ...]:
        """The declared options, with `players` first when the count can vary."""
        players = Option(
            "players",
            self.min_players,
            "number of players",
            choices=tuple(range(self.min_players, self.max_players + 1)),
        )
        return (players, *self.options)

    def player_counts(self) -> tuple[int, ...]:
        return tuple(range(self.min_players, self.max_players + 1))

    def configurations(self) -> list[dict[str, object]]:
        """Every player count, and every declared variant at each count it allows."""
        configs: list[dict[str, object]] = [{"players": n} for n in self.player_counts()]
        for variant in self.variants:
            counts = [variant["players"]] if "players" in variant else self.player_counts()
            configs.extend({"players": n, **variant} for n in counts)
        return configs


class Game:
    """A game with fixed options. It makes initial states and knows its action space.

    Subclasses set `info`, implement `new_initial_state` and the sizes below.
    """

    info: ClassVar[GameInfo]

    def __init__(self, /, **options: Any) -> None:
        self.options: dict[str, Any] = resolve_options(
            self.info.name, self.info.all_options(), options
        )
        self.num_players: int = self.options["players"]

    @property
    def name(self) -> str:
        return self.info.name

    def new_initial_state(self) -> State:
        raise NotImplementedError

    def num_distinct_actions(self) -> int:
        """Size of the player action space: actions are ints in range(num_distinct_actions())."""
        raise NotImplementedError

    def max_chance_outcomes(self) -> int:
        """Size of the chance outcome space."""
        raise NotImplementedError

    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance included) in one game."""
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{self.info.name}({args})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.info.name == self.info.name
            and other.options == self.options
        )

    def __hash__(self) -> int:
        return hash((self.info.name, tuple(sorted(self.options.items()))))
