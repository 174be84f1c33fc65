"""Bots: players that see only what their seat may see. Load them with `load_bot`."""

from ladytiger.bots.base import Bot
from ladytiger.bots.registry import load_bot, register_bot, registered_bots

__all__ = ["Bot", "load_bot", "register_bot", "registered_bots"]
