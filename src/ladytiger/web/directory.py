"""The server's players in memory: one `Player` object per player, shared by every table
they sit at, found by id or by the digest of their secret.

Only players seen since the server started are held; the rest stay in the database until
asked for. Lookups of unknown secrets are not cached, so a guesser costs a database read per
guess and holds no memory.
"""

from __future__ import annotations

import time

from ladytiger.web import store as db
from ladytiger.web.players import (
    MAX_SECRET_LENGTH,
    Player,
    bot_player,
    clean_name,
    friendly_name,
    hash_secret,
    new_player_id,
    new_secret,
)
from ladytiger.web.protocol import ProtocolError
from ladytiger.web.store import Store


class Directory:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._by_id: dict[str, Player] = {}
        self._by_hash: dict[str, Player] = {}

    def intern(self, player_id: str, name: str, bot: str | None = None,
               created_at: float = 0.0) -> Player:
        """The one object for this player (made from a database row if new)."""
        player = self._by_id.get(player_id)
        if player is None:
            player = self._by_id[player_id] = Player(player_id, name, bot, created_at)
        return player

    async def create(self, name: str | None) -> tuple[Player, str]:
        """A new player and their secret (shown this once)."""
        chosen = friendly_name() if name is None else clean_name(name)
        secret = new_secret()
        digest = hash_secret(secret)
        player = Player(new_player_id(), chosen, created_at=time.time())
        await self.store.call(db.insert_player, player.id, digest, player.name, None,
                              player.created_at)
        self._by_id[player.id] = player
        self._by_hash[digest] = player
        return player, secret

    async def by_secret(self, secret: str) -> Player:
        """The player whose secret this is, or 401 unknown_player."""
        refused = ProtocolError(
            "unknown_player", "that player secret belongs to no player here", status=401
        )
        if not secret or len(secret) > MAX_SECRET_LENGTH:
            raise refused
        digest = hash_secret(secret)
        player = self._by_hash.get(digest)
        if player is not None:
            return player
        row = await self.store.call(db.player_by_secret, digest)
        if row is None:
            raise refused
        player = self.intern(*row)
        self._by_hash[digest] = player
        return player

    async def by_id(self, player_id: str) -> Player | None:
        player = self._by_id.get(player_id)
        if player is not None:
            return player
        if len(player_id) > 80:
            return None
        row = await self.store.call(db.player_by_id, player_id)
        return None if row is None else self.intern(*row)

    async def rename(self, player: Player, name: str) -> None:
        chosen = clean_name(name)
        await self.store.call(db.rename_player, player.id, chosen)
        player.name = chosen

    async def bot(self, bot: str, options: dict) -> Player:
        """The rated player of a bot level, made on first use."""
        made = bot_player(bot, options)
        known = self._by_id.get(made.id)
        if known is not None:
            return known
        await self.store.call(db.insert_player, made.id, None, made.name, bot, made.created_at)
        return self.intern(made.id, made.name, bot, made.created_at)
