"""The games. Importing this package registers every game module with the core."""

from ladytiger.games import doors  # noqa: F401
