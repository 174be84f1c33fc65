"""Seat tokens and the per-connection rate limit.

A seat token is the only proof that a client holds a seat. Tokens are drawn from the
operating system's randomness, only their SHA-256 digests are stored, and a presented token
is compared with every seat's digest in constant time, so neither the database nor the
timing of a refusal tells anything about a token.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import secrets
import time

TOKEN_BYTES = 24  # 192 bits, 32 URL-safe characters


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_for_token(token: str, digests: list[str | None]) -> int | None:
    """The seat whose stored digest matches `token`, comparing against every seat."""
    presented = hash_token(token)
    found: int | None = None
    for seat, digest in enumerate(digests):
        # Compare with every seat, even after a match, so timing says nothing of position.
        if hmac.compare_digest(presented, digest or "") and digest is not None:
            found = seat
    return found


class TokenBucket:
    """Allows `rate` messages a second on average, with bursts of up to `burst`."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False


class DealerRandom(random.Random):
    """Unpredictable randomness for deals and bot seeds, drawn from the operating system in
    blocks: `random.SystemRandom` asks the kernel for every single number, which cost more
    than the rest of a move; this reads 4 KiB at a time and is just as unpredictable."""

    BLOCK = 4096

    def __init__(self) -> None:
        self._buffer = b""
        self._position = 0
        super().__init__()

    def _take(self, count: int) -> bytes:
        if self._position + count > len(self._buffer):
            self._buffer = os.urandom(max(self.BLOCK, count))
            self._position = 0
        chunk = self._buffer[self._position : self._position + count]
        self._position += count
        return chunk

    def random(self) -> float:
        # 53 random bits, the precision of a float in [0, 1).
        return (int.from_bytes(self._take(7), "big") >> 3) * 2.0**-53

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("the number of bits must be non-negative")
        whole = (k + 7) // 8
        return int.from_bytes(self._take(whole), "big") >> (whole * 8 - k)

    def seed(self, *args: object, **kwargs: object) -> None:
        """The operating system seeds every block; a given seed is ignored."""

    def getstate(self) -> object:
        raise NotImplementedError("the dealer's randomness has no state to save")

    def setstate(self, state: object) -> None:
        raise NotImplementedError("the dealer's randomness has no state to restore")
