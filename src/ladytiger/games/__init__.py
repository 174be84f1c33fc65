"""The games. Importing this package registers every game module with the core."""

from ladytiger.games import (  # noqa: F401
    doors,
    favor,
    hoard,
    labyrinth,
    shady_lady,
    tighee,
    traps,
)
