"""Every error the engine raises, each carrying words a player can read."""

from __future__ import annotations


class LadyTigerError(Exception):
    """Base class of all ladytiger errors."""


class UnknownGameError(LadyTigerError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message otherwise
        return str(self.args[0]) if self.args else ""


class BadOptionError(LadyTigerError, ValueError):
    """A game option that does not exist or has a value the game does not allow."""


class IllegalActionError(LadyTigerError, ValueError):
    """An action the rules forbid here; the message says which rule and why.

    The state it was tried on is left unchanged.
    """

    def __init__(self, reason: str, action: object = None, text: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.action = action
        self.text = text


class UnknownActionError(IllegalActionError):
    """A move text that names no action of this game at this point."""


class RecordError(LadyTigerError, ValueError):
    """A saved game record that is malformed, tampered with or does not replay."""

    def __init__(self, reason: str, entry: int | None = None):
        super().__init__(reason if entry is None else f"history entry {entry}: {reason}")
        self.reason = reason
        self.entry = entry
