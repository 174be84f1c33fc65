"""Declared game options: name, default, allowed values, and validation with clear errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ladytiger.core.errors import BadOptionError


@dataclass(frozen=True)
class Option:
    """One option a game accepts.

    `choices` lists every allowed value for enumerated options; `minimum`/`maximum` bound
    integer options. Booleans accept only True/False (and the words true/false from a CLI).
    """

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    @property
    def kind(self) -> type:
        return type(self.default)

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind is bool:
            return "true or false"
        if self.kind is int:
            low = "" if self.minimum is None else f" >= {self.minimum}"
            high = "" if self.maximum is None else f" <= {self.maximum}"
            joined = " and".join(part for part in (low, high) if part)
            return "an integer" + joined
        return f"a {self.kind.__name__}"

    def coerce(self, game: str, value: Any) -> Any:
        """Return `value` converted to this option's type, or raise BadOptionError."""
        converted = _convert(value, self.kind)
        bad = converted is _INVALID
        if not bad and self.choices is not None:
            bad = converted not in self.choices
        if not bad and self.kind is int:
            bad = (self.minimum is not None and converted < self.minimum) or (
                self.maximum is not None and converted > self.maximum
            )
        if bad:
            raise BadOptionError(
                f"{game}: option {self.name!r} cannot be {value!r}; it must be {self.allowed()}"
            )
        return converted


_INVALID: Final = object()


def _convert(value: Any, kind: type) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
            return value.lower() in ("true", "yes", "1")
        return _INVALID
    if kind is int:
        if isinstance(value, bool):
            return _INVALID
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                return _INVALID
        return _INVALID
    if kind is str:
        return value if isinstance(value, str) else _INVALID
    return value if isinstance(value, kind) else _INVALID


def resolve_options(
    game: str, declared: tuple[Option, ...], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Merge `given` over the declared defaults, rejecting unknown names and bad values."""
    by_name = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        listing = ", ".join(f"{o.name} ({o.allowed()}, default {o.default!r})" for o in declared)
        raise BadOptionError(
            f"{game} has no option {', '.join(repr(u) for u in unknown)}; "
            f"its options are: {listing or 'none'}"
        )
    resolved = {option.name: option.default for option in declared}
    for name, value in given.items():
        resolved[name] = by_name[name].coerce(game, value)
    return resolved
