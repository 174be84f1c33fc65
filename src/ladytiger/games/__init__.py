"""The games. Importing this package registers every game module with the core."""

from ladytiger.games import doors  # noqa: F401

# favor goes here
# traps goes here
# hoard goes here
# labyrinth goes here
# tighee goes here
# shady_lady goes here
