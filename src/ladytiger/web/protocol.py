"""The wire protocol: message schemas, their validation, and the errors a client can get.

Every message either way is one JSON object with a `type`. Client messages are checked
against the schemas below before anything else looks at them: unknown types, unknown or
missing fields, wrong kinds of value and oversized text are refused with an error naming
the problem. docs/protocol.md describes every message with examples.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

PROTOCOL = 1
MAX_MESSAGE_BYTES = 16 * 1024  # one WebSocket message from a client
MAX_BODY_BYTES = 64 * 1024  # one HTTP request body
MAX_REF_LENGTH = 64
MAX_TOKEN_LENGTH = 128
MAX_ACTION_TEXT = 200
MAX_NAME_LENGTH = 64
MAX_OPTIONS = 32
MAX_CHAT_LENGTH = 300

# Close codes of the WebSocket (4000-4999 are the application's own).
CLOSE_POLICY = 1008  # a flood of messages, or too many bad ones
CLOSE_TOO_LARGE = 1009
CLOSE_TRY_AGAIN_LATER = 1013  # the table or the server is full for now
CLOSE_BAD_MESSAGE = 4400  # the first message was not a valid hello
CLOSE_UNAUTHORIZED = 4401
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_SLOW_CONSUMER = 4408  # the client did not read its messages


class ProtocolError(Exception):
    """A request the server refuses, with a stable `code` and words a player can read.

    `status` is the HTTP status for the HTTP API; `close`, when set, is the WebSocket close
    code that follows the error message; `extra` fields go into the error payload.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int = 400,
        close: int | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.close = close
        self.extra = extra

    def payload(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


# ---------------------------------------------------------------------------- schemas
Check = Callable[[Any], str | None]


@dataclass(frozen=True)
class Field:
    """One field of a JSON object: the JSON kinds it may take, whether it must be present,
    and an extra check returning what is wrong with a value (None when fine)."""

    kinds: tuple[type, ...]
    required: bool = True
    check: Check | None = None


Schema = Mapping[str, Field]

_KIND_NAMES = {
    str: "a string",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    dict: "an object",
    list: "a list",
    type(None): "null",
}


def text_up_to(limit: int) -> Check:
    def check(value: str) -> str | None:
        if not value.strip():
            return "must not be empty"
        return f"must be at most {limit} characters" if len(value) > limit else None

    return check


def natural(value: int) -> str | None:
    return None if 0 <= value < 2**53 else "must be a whole number from 0 up"


def number_between(low: float, high: float) -> Check:
    def check(value: float) -> str | None:
        if not math.isfinite(value) or not low <= value <= high:
            return f"must be a number from {low:g} to {high:g}"
        return None

    return check


def action_value(value: int | str) -> str | None:
    if isinstance(value, str):
        return text_up_to(MAX_ACTION_TEXT)(value)
    return None if -(2**53) < value < 2**53 else "is out of range"


def option_map(value: dict[str, Any]) -> str | None:
    """Game or bot options: a small object of names to plain JSON values."""
    if len(value) > MAX_OPTIONS:
        return f"may hold at most {MAX_OPTIONS} options"
    for name, item in value.items():
        if len(name) > MAX_NAME_LENGTH:
            return f"has an option name longer than {MAX_NAME_LENGTH} characters"
        if not isinstance(item, str | int | float | bool) or (
            isinstance(item, float) and not math.isfinite(item)
        ):
            return f"option {name!r} must be a string, number or true/false"
        if isinstance(item, str) and len(item) > MAX_NAME_LENGTH:
            return f"option {name!r} is longer than {MAX_NAME_LENGTH} characters"
    return None


def ref_check(value: str | int) -> str | None:
    if isinstance(value, str):
        too_long = len(value) > MAX_REF_LENGTH
        return f"must be at most {MAX_REF_LENGTH} characters" if too_long else None
    return action_value(value)


REF = Field((str, int), required=False, check=ref_check)

# What a client may send over the WebSocket. Every message may carry `ref`, a label of the
# client's choosing echoed in the replies to it.
CLIENT_MESSAGES: dict[str, Schema] = {
    "hello": {
        "token": Field((str,), required=False, check=text_up_to(MAX_TOKEN_LENGTH)),
        "player": Field((str,), required=False, check=text_up_to(MAX_TOKEN_LENGTH)),
        "protocol": Field((int,), required=False, check=natural),
    },
    "action": {
        "version": Field((int,), check=natural),
        "action": Field((int, str), check=action_value),
    },
    "why": {"action": Field((int, str), check=action_value)},
    "sample": {},
    "rematch": {},
    "follow": {},
    "chat": {"text": Field((str,), check=text_up_to(MAX_CHAT_LENGTH))},
    # The reader has seen the moment shown with view `version`: bots need not wait for them.
    "seen": {"version": Field((int,), check=natural)},
    # A suggested move for the asking seat, on its own turn (docs/protocol.md, Hints).
    "hint": {},
    # Let a bot play the turns of `seat`, whose human has left, until they come back.
    "stand_in": {"seat": Field((int,), check=natural)},
    # The asking seat gives up: the game ends at once, lost by it and won by every other.
    "resign": {},
    # The asking seat closes a table still waiting for players (nothing was dealt).
    "close": {},
    # The asking seat, taken from the lobby, is given back before the game begins.
    "leave": {},
    # The asking seat starts a waiting table now, bot `bot` (a level) in every empty seat;
    # or, with `lobby` true, opens the empty invited seats to anyone (fill_choice).
    "fill": {"bot": Field((str,), required=False, check=text_up_to(40)),
             "lobby": Field((bool,), required=False)},
    "ping": {},
}


def _accepts(field: Field, value: Any) -> bool:
    # JSON true/false must not pass for numbers, and 3 passes for a float field.
    kind = type(value)
    if kind is bool:
        return bool in field.kinds
    if kind is int and float in field.kinds:
        return True
    return kind in field.kinds


def validate(obj: Any, schema: Schema, where: str) -> dict[str, Any]:
    """Check `obj` is an object with exactly the schema's fields, each of the right kind."""
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", f"{where} must be a JSON object")
    unknown = sorted(set(obj) - set(schema))
    if unknown:
        allowed = ", ".join(schema) or "none"
        raise ProtocolError(
            "unknown_field",
            f"{where} has unknown field(s) {', '.join(map(repr, unknown))}; "
            f"its fields are: {allowed}",
        )
    for name, field in schema.items():
        if name not in obj:
            if field.required:
                raise ProtocolError("missing_field", f"{where} needs the field {name!r}")
            continue
        value = obj[name]
        if not _accepts(field, value):
            wanted = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in field.kinds)
            raise ProtocolError("bad_field", f"{where}: {name!r} must be {wanted}")
        problem = field.check(value) if field.check is not None else None
        if problem is not None:
            raise ProtocolError("bad_field", f"{where}: {name!r} {problem}")
    return obj


def decode_json(raw: str | bytes, limit: int, what: str) -> Any:
    """Parse JSON text of at most `limit` bytes, refusing NaN/Infinity and deep nesting."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise ProtocolError(
            "too_large", f"{what} is {size} bytes; the limit is {limit}", status=413,
            close=CLOSE_TOO_LARGE,
        )
    try:
        # orjson refuses NaN and Infinity (they are not JSON) and bounds nesting depth. It
        # also refuses lone surrogates, escaped or not, so no string it returns holds one:
        # nothing downstream (the echoed `ref`, move texts in errors, orjson's own encoder)
        # has to cope with them, and an ordinary message pays nothing for that guarantee.
        return orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        problem = _json_problem(raw) or str(error)
        raise ProtocolError("bad_json", f"{what} is not valid JSON: {problem}") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _json_problem(raw: str | bytes) -> str | None:
    """The standard library's account of what is wrong with `raw` (it names NaN and the
    like), asked only once orjson has refused it; None if it finds nothing wrong."""
    try:
        parsed = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        return str(error)
    # The standard library lets lone surrogates through, which is what orjson then refused:
    # orjson's words for that ("no low surrogate in string") mean little to a player.
    surrogate = first_surrogate(parsed)
    if surrogate is not None:
        return (f"the text holds a lone surrogate, \\u{ord(surrogate):04x}, which is half "
                "of a UTF-16 pair and not a character on its own")
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def first_surrogate(value: Any) -> str | None:
    """The first lone surrogate in any string (key or value) of a parsed JSON value.

    A Python string holds a surrogate only as a lone one (a proper pair is decoded into a
    single character), and no encoder that writes UTF-8 can take it. The walk keeps its own
    stack: the value may be nested as deep as the standard library's parser allowed.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found is not None:
                return found.group()
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def parse_client_message(raw: str | bytes) -> dict[str, Any]:
    """A validated client message, or ProtocolError saying what is wrong with it."""
    obj = decode_json(raw, MAX_MESSAGE_BYTES, "the message")
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object with a 'type'")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {kind!r}; the types are: {', '.join(CLIENT_MESSAGES)}",
        )
    schema = {"type": Field((str,)), "ref": REF, **CLIENT_MESSAGES[kind]}
    return validate(obj, schema, f"a {kind!r} message")


def ref_of(raw: Any) -> str | int | None:
    """The client's `ref` from a message that may have failed validation, if it is usable."""
    if isinstance(raw, dict):
        ref = raw.get("ref")
        # The message may have been read by a lenient parser, which lets a lone surrogate
        # into the ref; such a ref cannot be sent back as it came, so none is echoed.
        if (isinstance(ref, str) and len(ref) <= MAX_REF_LENGTH
                and _SURROGATE.search(ref) is None) or (type(ref) is int and abs(ref) < 2**53):
            return ref
    return None


# ---------------------------------------------------------------------------- server side
def encode(payload: Mapping[str, Any]) -> str:
    """Compact JSON text of a server message.

    Every move sends a view to every seat, so encoding is one of the server's main costs;
    orjson does it about nine times faster than the standard library. Integer keys become
    strings, as the standard library would make them.
    """
    try:
        return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        # A lone surrogate that slipped into a payload (a client's text echoed in an error,
        # say) must not turn a reply into an exception that drops the connection: it is sent
        # as U+FFFD, the replacement character. Anything else orjson refuses is a bug of
        # the server's own making, and the second attempt raises it.
        cleaned = _replace_surrogates(payload)
        return orjson.dumps(cleaned, option=orjson.OPT_NON_STR_KEYS).decode()


def _replace_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, Mapping):
        return {_replace_surrogates(key): _replace_surrogates(item)
                for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_replace_surrogates(item) for item in value]
    return value


def message(kind: str, **fields: Any) -> str:
    """A server message; `ref` is left out when the client gave none."""
    if fields.get("ref", 0) is None:
        del fields["ref"]
    return encode({"type": kind, **fields})


def error_message(error: ProtocolError, ref: str | int | None = None) -> str:
    payload: dict[str, Any] = {"type": "error", **error.payload()}
    if ref is not None:
        payload["ref"] = ref
    return encode(payload)


SERVER_MESSAGES = (
    "welcome",
    "view",
    "ack",
    "error",
    "why",
    "sample",
    "end",
    "rematch",
    "presence",
    "timeout",
    "pong",
    "chat",
    "hint",
    "rated",
    "unseated",
)


def fill_choice(msg: dict[str, Any]) -> str | None:
    """What a `fill` asks for: the bot to seat in the empty seats, or None to open them to
    the lobby instead. Exactly one of the two must be said."""
    bot, lobby = msg.get("bot"), msg.get("lobby")
    if bot is not None and lobby is None:
        return str(bot)
    if bot is None and lobby is True:
        return None
    raise ProtocolError("bad_field", "say either 'bot' (a level, to start now with bots in "
                        "the empty seats) or 'lobby': true (to open them to anyone)")
