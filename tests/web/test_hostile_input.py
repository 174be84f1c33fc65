"""Hostile input over HTTP and the WebSocket: whatever a client sends, the server answers
with a JSON error naming the problem, never a 5xx, and a socket survives a bad message.

The first tests pin known holes (lone surrogates, option names that collide with Python
parameters, digits that `int` refuses); the sweeps then throw hypothesis-made bodies, query
strings and path parameters at every route of the app, and messages at a live socket.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount, Route

import ladytiger
from ladytiger.bots import registered_bots
from ladytiger.web.protocol import (
    CLIENT_MESSAGES,
    ProtocolError,
    decode_json,
    encode,
    error_message,
    parse_client_message,
    ref_of,
)
from tests.web.support import auth, join_seats, play_out

# JSON text (escapes written out, as a client would send them) holding lone surrogates.
SURROGATE_TEXTS = [
    r'{"type":"hello","ref":"\ud800"}',
    r'{"type":"\ud800"}',
    r'{"type":"ping","ref":"\udfff"}',
    r'{"type":"why","action":"take \udc00 Red Lady"}',
    r'{"type":"ping","ref":"x\ude00\ud800"}',
    r'{"\ud800":1}',
]


def error_of(response) -> dict[str, Any]:
    assert response.headers["content-type"].startswith("application/json"), response.text
    return response.json()["error"]


def create(client, **request: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "doors", **request})
    assert response.status_code == 201, response.text
    return response.json()


def receive_until(ws, kind: str) -> list[dict[str, Any]]:
    """Every message up to and including the first of type `kind` (views and presence
    notices arrive in between on their own schedule)."""
    seen = []
    while True:
        seen.append(ws.receive_json())
        if seen[-1]["type"] == kind:
            return seen


def assert_names_the_surrogate(error: dict[str, Any] | ProtocolError) -> None:
    code, words = (
        (error.code, error.message) if isinstance(error, ProtocolError)
        else (error["code"], error["message"])
    )
    assert code == "bad_json", error
    assert "lone surrogate" in words and "not a character" in words, words


# ---------------------------------------------------------------------------- lone surrogates
@pytest.mark.parametrize("raw", SURROGATE_TEXTS)
def test_a_lone_surrogate_is_refused_in_plain_words(raw):
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    assert_names_the_surrogate(caught.value)
    # The same text arriving as UTF-8 bytes, or with the surrogate itself in it rather than
    # its escape (a str from the transport can hold one), is refused the same way.
    for same in (raw.encode(), json.dumps(json.loads(raw), ensure_ascii=False),
                 json.dumps(json.loads(raw), ensure_ascii=False).encode("utf-8", "surrogatepass")):
        with pytest.raises(ProtocolError) as caught:
            decode_json(same, 1 << 16, "the message")
        assert_names_the_surrogate(caught.value)


def test_a_ref_holding_a_lone_surrogate_is_not_echoed_and_nothing_raises():
    assert ref_of(json.loads(SURROGATE_TEXTS[0])) is None
    assert ref_of({"ref": "fine"}) == "fine"
    text = error_message(ProtocolError("bad_json", "about \ud800 here"), "\udc00")
    assert json.loads(text) == {"type": "error", "code": "bad_json",
                                "message": "about \ufffd here", "ref": "\ufffd"}
    assert json.loads(encode({"a\ud800": ["\udfff", {"k": "ok"}], 3: "x"})) == {
        "a\ufffd": ["\ufffd", {"k": "ok"}], "3": "x"}


def test_a_lone_surrogate_over_the_socket_gets_bad_json_and_the_connection_stays_open(client):
    made = create(client, options={"gems_to_win": 3})
    table_id = made["table"]["id"]
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
        receive_until(ws, "welcome")
        for raw in SURROGATE_TEXTS:
            ws.send_text(raw)
            error = receive_until(ws, "error")[-1]
            assert_names_the_surrogate(error)
            assert "ref" not in error  # a ref that is not text cannot be echoed
        ws.send_json({"type": "ping", "ref": "still here"})
        assert receive_until(ws, "pong")[-1]["ref"] == "still here"


def test_a_lone_surrogate_in_an_http_body_is_a_400(client):
    made = create(client)
    table_id = made["table"]["id"]
    targets = ["/api/tables", f"/api/tables/{table_id}/join", f"/api/tables/{table_id}/actions",
               f"/api/tables/{table_id}/why", "/api/replay"]
    for path in targets:
        for body in (rb'{"game":"\ud800"}', b'{"game":"\xed\xa0\x80"}'):
            response = client.post(path, content=body, headers=auth(made["tokens"]["0"]))
            assert response.status_code == 400, (path, body, response.text)
            assert_names_the_surrogate(error_of(response))


# ---------------------------------------------------------------------------- names and numbers
@pytest.mark.parametrize(
    ("request_body", "culprit"),
    [
        ({"game": "doors", "options": {"name": "x"}}, "'name'"),
        ({"game": "doors", "options": {"self": 1}}, "'self'"),
        ({"game": "doors", "options": {"options": 1}}, "'options'"),
        ({"game": "doors", "options": {"colour": "red", "gems_to_win": 3}}, "'colour'"),
        ({"game": "doors", "options": {"name": "x"}, "seats": [{"kind": "human"}] * 2},
         "'name'"),
    ],
)
def test_unknown_or_reserved_option_names_are_a_400_listing_the_real_ones(
    client, request_body, culprit
):
    response = client.post("/api/tables", json=request_body)
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert error["code"] == "bad_options"
    assert "'options'" in error["message"] and culprit in error["message"]
    doors = next(info for info in ladytiger.registered_games() if info.name == "doors")
    for option in doors.all_options():
        assert option.name in error["message"]


def test_options_for_an_unknown_game_still_say_the_game_is_unknown(client):
    response = client.post("/api/tables", json={"game": "chess", "options": {"self": 1}})
    assert response.status_code == 404 and error_of(response)["code"] == "unknown_game"


def finished_table(client) -> dict[str, Any]:
    made = create(client, options={"gems_to_win": 3})
    join_seats(client, made["table"]["id"], made["tokens"])
    play_out(client, made)
    return made


def test_a_viewer_that_is_no_seat_number_is_a_400_naming_the_field(client):
    table_id = finished_table(client)["table"]["id"]
    # str.isdigit passes the first five: superscripts, other scripts' digits, and digits
    # past the 4,300 that int() converts.
    for viewer in ["²", "٠", "①", "0²", "9" * 5000, "-1", " 1", "x"]:
        response = client.get(f"/api/tables/{table_id}/replay/3", params={"viewer": viewer})
        assert response.status_code == 400, (viewer, response.text)
        error = error_of(response)
        assert error["code"] == "bad_field" and "viewer" in error["message"], viewer
    assert client.get(f"/api/tables/{table_id}/replay/3?viewer=1").status_code == 200


def test_a_step_past_python_s_int_limit_is_a_400(client):
    # Python refuses to turn more than 4,300 digits into an int: the route must not try.
    response = client.get("/api/tables/nosuchtable/replay/" + "9" * 5000)
    assert response.status_code == 400 and error_of(response)["code"] == "bad_field"


@pytest.mark.parametrize("name", ["self", "name"])
def test_record_options_named_like_parameters_are_refused(client, name):
    record = {"format": "ladytiger-record", "version": 1, "game": "doors",
              "options": {name: 1}, "history": []}
    response = client.post("/api/replay", json={"record": record})
    assert response.status_code == 400 and error_of(response)["code"] == "bad_record"


# ---------------------------------------------------------------------------- the sweeps
GAMES = [info.name for info in ladytiger.registered_games()]
OPTION_NAMES = sorted({option.name for info in ladytiger.registered_games()
                       for option in info.all_options()})
# Names that collide, or could, with parameters of code that builds a game from keyword
# arguments.
RESERVED_NAMES = ["self", "name", "options", "cls", "kwargs"]


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """Each strategy in proportion to its weight. (Giving one_of the same strategy twice
    does not do it: one_of counts it once.) Shrinking moves towards the first."""
    slots = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(slots) - 1).flatmap(slots.__getitem__)


# Generated strings hold no lone surrogate: one anywhere stops a body at the JSON parser,
# so `as_bytes` puts one in a quarter of the bodies instead. Refs get surrogate_texts too.
surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
clean_texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=24)
# (Joined from a list: text() given this alphabet merges the two and drops the surrogates.)
surrogate_texts = st.lists(st.characters() | surrogates, min_size=1, max_size=12).map(
    "".join).filter(lambda text: any("\ud800" <= char <= "\udfff" for char in text))
huge_ints = st.sampled_from([2**53, 2**63, 2**64, 2**64 + 1, -(2**63) - 1, 10**30, 10**300])
finite = st.floats(allow_nan=False, allow_infinity=False)
scalars = (st.none() | st.booleans() | st.integers() | huge_ints | texts
           | weighted((3, finite), (1, st.floats())))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(texts, inner, max_size=4), max_leaves=16)


def mostly(good: st.SearchStrategy[Any], other: st.SearchStrategy[Any] = values
           ) -> st.SearchStrategy[Any]:
    """`good` three times in four, `other` (anything) the other time: each field of a
    request is plausible often enough that a request gets past its other fields to the odd
    one."""
    return weighted((3, good), (1, other))


def nested(depth: int, kind: str) -> str:
    return "[" * depth + "]" * depth if kind == "list" else '{"a":' * depth + "0" + "}" * depth


deep_texts = st.builds(nested, st.integers(1, 2500), st.sampled_from(["list", "object"]))
# JSON text a careful client would not send: numbers no double holds, more digits than
# Python turns into an int, lone surrogates as escapes, NaN, a trailing comma, nothing.
odd_texts = st.sampled_from([
    "1e400", "-1e400", "1e-400", "9" * 400, "9" * 4400, "-0", "0.1e99999",
    '"\\ud800"', '"\\udfff\\ud800"', '{"\\udc00": 1}', '"\\u0000"', "NaN", "[1,]", "",
])


def as_bytes(value: Any, surrogate: str | None, raw: bool) -> bytes:
    """JSON text of `value`, with `surrogate` (if any) at the start of its first string.

    Lone surrogates are written as escapes (what a client's JSON library writes), or `raw`,
    as the three bytes a lenient UTF-8 encoder makes of one.
    """
    text = json.dumps(value, ensure_ascii=not raw)
    if surrogate is not None:
        text = text.replace('"', '"' + (surrogate if raw else f"\\u{ord(surrogate):04x}"), 1)
    return text.encode("utf-8", "surrogatepass")


def json_bytes(shape: st.SearchStrategy[Any]) -> st.SearchStrategy[bytes]:
    """`shape` as JSON text, one time in four with a lone surrogate in it."""
    return st.builds(as_bytes, shape, mostly(st.none(), surrogates), st.booleans())


def spliced(shape: Any, inner: str) -> bytes:
    """`shape` with its first "@" string replaced by raw JSON text `inner`."""
    return json.dumps(shape).replace('"@"', inner, 1).encode("utf-8", "surrogatepass")


option_maps = st.dictionaries(
    mostly(st.sampled_from(OPTION_NAMES + RESERVED_NAMES), texts),
    mostly(st.integers(-5, 60) | st.sampled_from(["easy", "short", "true", "9" * 64])),
    max_size=4,
)
seat_plans = st.lists(
    st.fixed_dictionaries(
        {"kind": mostly(st.sampled_from(["human", "bot"]))},
        optional={"open": mostly(st.booleans()),
                  "bot": mostly(st.sampled_from([*registered_bots(), "oracle"])),
                  "options": st.dictionaries(mostly(st.sampled_from(["seed", "depth",
                                                                     "iterations", "self"]),
                                                    texts), scalars, max_size=3)},
    ),
    max_size=7,
)
create_bodies = st.fixed_dictionaries(
    {"game": mostly(st.sampled_from(GAMES))},
    optional={
        "options": mostly(option_maps),
        "seats": mostly(seat_plans),
        "clock": mostly(st.none() | st.fixed_dictionaries(
            {"seconds": mostly(st.floats(0, 100))},
            optional={"bot": mostly(st.sampled_from(["random", "oracle"])),
                      "options": option_maps})),
        "bot_pause": mostly(st.none() | st.floats(0, 40)),
        "public": mostly(st.booleans()),
    },
)
# Just a game and its options: the requests that reach the game's constructor.
plain_creates = st.fixed_dictionaries({
    "game": st.sampled_from(GAMES),
    "options": st.dictionaries(mostly(st.sampled_from(OPTION_NAMES + RESERVED_NAMES), texts),
                               st.integers(-5, 60) | st.sampled_from(["easy", "short", "9"]),
                               min_size=1, max_size=3),
})
versions = st.integers(-2, 400) | huge_ints | values
action_values = st.integers(-3, 60) | huge_ints | st.sampled_from(["take Red Lady", "end turn"])
action_values = action_values | texts | values
move_bodies = st.fixed_dictionaries({"version": versions, "action": action_values},
                                    optional={"junk": values})


@st.composite
def records(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    """A finished game's record, changed in one or two places."""
    record = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 2))):
        edit = draw(st.sampled_from(["field", "drop", "extra", "options", "history", "move"]))
        key = draw(st.sampled_from(sorted(record) or ["format"]))
        if edit == "field":
            record[key] = draw(values)
        elif edit == "drop":
            record.pop(key, None)
        elif edit == "extra":
            record[draw(texts)] = draw(values)
        elif edit == "options":
            record["options"] = draw(st.dictionaries(
                st.sampled_from(OPTION_NAMES + RESERVED_NAMES) | texts, scalars, max_size=3))
        elif edit == "history" and isinstance(record.get("history"), list):
            record["history"] = record["history"][: draw(st.integers(0, 40))]
        elif edit == "move" and isinstance(record.get("history"), list) and record["history"]:
            index = draw(st.integers(0, len(record["history"]) - 1))
            record["history"][index] = draw(st.sampled_from(["take Red Lady", "end turn"])
                                            | values)
    return record


def body_strategies(path: str, record: dict[str, Any]) -> st.SearchStrategy[bytes | None]:
    """Bodies for the route at `path`, mostly the shape it expects with wrong values in it (a
    wrong value inside the right shape gets further into the server than noise does)."""
    shape: st.SearchStrategy[Any] = values
    template: dict[str, Any] = {"a": "@"}  # where raw odd JSON text goes
    if path == "/api/tables":
        shape = create_bodies | plain_creates
        template = {"game": "doors", "options": {"gems_to_win": "@"}}
    elif path.endswith(("/actions", "/why")):
        shape, template = move_bodies, {"version": 1, "action": "@"}
    elif path.endswith("/join"):
        shape = st.fixed_dictionaries({}, optional={"seat": mostly(versions)})
        template = {"seat": "@"}
    elif path == "/api/replay":
        shape = st.fixed_dictionaries(
            {"record": mostly(records(record))},
            optional={"step": mostly(st.integers(0, 30) | versions),
                      "viewer": mostly(st.none() | st.integers(-1, 3) | versions)},
        )
        template = {"record": "@", "step": 0}
    return weighted(
        (6, json_bytes(shape)),
        (1, st.none()),
        (1, json_bytes(values)),
        (1, st.builds(spliced, st.just(template), deep_texts | odd_texts)),
        (1, (deep_texts | odd_texts).map(str.encode)),
        (1, st.binary(max_size=64)),
    )


seat_texts = st.sampled_from(["0", "1", "²", "٠", "①", "9" * 5000, "spectator", "-1"])
queries = st.one_of(
    st.fixed_dictionaries({}, optional={"viewer": seat_texts | clean_texts,
                                        "status": st.sampled_from(["finished", "abandoned"])
                                        | clean_texts}),
    st.dictionaries(st.sampled_from(["viewer", "status", "seat", "step"]) | clean_texts,
                    seat_texts | clean_texts, max_size=3),
    # Raw query text: percent escapes of invalid UTF-8 and of control characters.
    st.sampled_from(["viewer=%ED%A0%80", "viewer=%FF", "status=%00", "viewer=%C2%B2&viewer=1",
                     "%%%", "=&=&", "viewer"]),
)


def route_cases(app) -> list[tuple[str, str]]:
    """(method, path template) of every HTTP route of the app, plus the static files."""
    cases = []
    for route in app.routes:
        if isinstance(route, Route):
            cases.extend((method, route.path) for method in sorted(route.methods or ["GET"]))
        elif isinstance(route, Mount):
            cases.append(("GET", route.path + "/{path}"))
    return cases


SWEEP_EXAMPLES = 30  # per route and method
# Routes that read a body or a query have the most to get wrong, and get more examples.
BUSY_ROUTES = {
    ("POST", "/api/tables"), ("POST", "/api/replay"),
    ("GET", "/api/tables/{table_id}/replay/{step}"), ("GET", "/api/tables"),
    ("POST", "/api/tables/{table_id}/actions"), ("POST", "/api/tables/{table_id}/why"),
    ("POST", "/api/tables/{table_id}/join"),
}


def sweep_route(client, method: str, template: str, tables: dict[str, dict[str, Any]],
                record: dict[str, Any]) -> None:
    table_ids = st.sampled_from([made["table"]["id"] for made in tables.values()])
    tokens = [token for made in tables.values() for token in made["tokens"].values()]
    params = {
        "table_id": weighted((2, table_ids), (1, clean_texts.filter(bool))),
        "step": st.integers(0, 10**30).map(str)
        | st.sampled_from(["0" * 40, "9" * 4000, "9" * 5000, "²", "-1"]),
        "game": st.sampled_from(GAMES) | clean_texts.filter(bool),
        "path": st.sampled_from(["css/site.css", "../pyproject.toml", "%00", "."]) | clean_texts,
    }
    # A parameter the sweep does not know yet (a new route's) still gets text and numbers.
    anything_else = clean_texts.filter(bool) | st.integers().map(str)
    names = re.findall(r"{(\w+)(?::\w+)?}", template)
    examples = SWEEP_EXAMPLES * (4 if (method, template) in BUSY_ROUTES else 1)

    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(
        method=st.sampled_from([method, method, "DELETE"]),
        path_values=st.fixed_dictionaries(
            {name: params.get(name, anything_else) for name in names}),
        query=queries,
        body=body_strategies(template, record),
        token=st.none() | st.sampled_from(tokens) | st.text(
            st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=40),
    )
    def probe(method: str, path_values: dict[str, str], query: Any, body: bytes | None,
              token: str | None) -> None:
        path = re.sub(r"{(\w+)(?::\w+)?}",
                      lambda found: quote(path_values[found.group(1)], safe=""), template)
        headers = auth(token) if token is not None else {}
        if isinstance(query, str):
            path, query = f"{path}?{query}", None
        response = client.request(method, path, params=query, content=body, headers=headers)
        assert response.status_code < 500, (method, path, query, body, response.text)
        if path.startswith("/api") and response.status_code >= 400 and method != "HEAD":
            error = error_of(response)
            assert error["code"] and error["message"], error

    probe()


def test_no_http_route_answers_anything_with_a_5xx(client):
    finished = finished_table(client)
    tables = {"finished": finished, "waiting": create(client)}
    playing = create(client, options={"gems_to_win": 50})
    join_seats(client, playing["table"]["id"], playing["tokens"])
    tables["playing"] = playing
    record = client.get(f"/api/tables/{finished['table']['id']}/record").json()
    cases = route_cases(client.app)
    templates = {template for _, template in cases}
    # The sweep must keep up with the app: a new route is swept as soon as it exists.
    assert {"/", "/play/{table_id}", "/replay", "/rules/{game}", "/api/tables",
            "/api/replay", "/api/tables/{table_id}/replay/{step}"} <= templates
    for method, template in cases:
        sweep_route(client, method, template, tables, record)


# Every field any message takes (a new message type is swept as soon as it exists), with
# values of its kind most of the time.
ws_fields: dict[str, st.SearchStrategy[Any]] = {
    name: mostly(texts | st.integers()) for schema in CLIENT_MESSAGES.values() for name in schema
}
ws_fields.update(version=mostly(versions), action=mostly(action_values),
                 ref=mostly(texts | st.integers(), surrogate_texts), junk=values)
ws_bodies = st.one_of(
    json_bytes(st.fixed_dictionaries(
        {"type": mostly(st.sampled_from([*CLIENT_MESSAGES, "shout"]))}, optional=ws_fields)),
    json_bytes(values),
    st.builds(spliced, st.just({"type": "why", "action": "@"}), deep_texts | odd_texts),
    (deep_texts | odd_texts).map(str.encode),
    st.binary(max_size=64),
)
# Sent as a binary frame, or as a text frame: the in-process transport hands over any str,
# lone surrogates and all, where a real one would have refused the frame.
ws_messages = st.tuples(ws_bodies, st.booleans())


def text_of(body: bytes) -> str:
    try:
        return body.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return body.decode("utf-8", "surrogateescape")


def test_no_socket_message_drops_the_connection_and_each_bad_one_gets_an_error(client):
    made = create(client, options={"gems_to_win": 50})
    table_id = made["table"]["id"]
    join_seats(client, table_id, made["tokens"])

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seat=st.sampled_from(["0", "1"]), sent=st.lists(ws_messages, min_size=1, max_size=5))
    def converse(seat: str, sent: list[tuple[bytes, bool]]) -> None:
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            ws.send_json({"type": "hello", "token": made["tokens"][seat]})
            receive_until(ws, "welcome")
            for body, as_text in sent:
                raw: str | bytes = text_of(body) if as_text else body
                try:
                    parse_client_message(raw)
                    malformed = False
                except ProtocolError:
                    malformed = True
                if as_text:
                    ws.send_text(raw)
                else:
                    ws.send_bytes(raw)
                # A ping after each message: everything before its pong answers the message.
                mark = uuid.uuid4().hex
                ws.send_json({"type": "ping", "ref": mark})
                replies = [ws.receive_json()]
                while replies[-1]["type"] != "pong" or replies[-1].get("ref") != mark:
                    replies.append(ws.receive_json())
                errors = [reply for reply in replies if reply["type"] == "error"]
                assert all(error["code"] != "internal" for error in errors), errors
                if malformed:
                    assert errors, (raw, replies)
                    assert all(error["message"] for error in errors)

    converse()
