"""The games. Importing this package registers every game module with the core."""

from ladytiger.games import doors  # noqa: F401

from ladytiger.games import favor  # noqa: F401
# traps goes here
from ladytiger.games import hoard  # noqa: F401
from ladytiger.games import labyrinth  # noqa: F401
from ladytiger.games import tighee  # noqa: F401
from ladytiger.games import shady_lady  # noqa: F401
