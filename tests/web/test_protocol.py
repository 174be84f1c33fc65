"""Message validation: every malformed client message is refused with a named problem."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladytiger.web.protocol import (
    CLIENT_MESSAGES,
    MAX_MESSAGE_BYTES,
    ProtocolError,
    error_message,
    message,
    parse_client_message,
)


def refusal(raw: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    return caught.value


def test_a_valid_action_passes_as_sent():
    sent = {"type": "action", "version": 3, "action": "take Red Lady", "ref": "a1"}
    assert parse_client_message(json.dumps(sent)) == sent
    assert parse_client_message(json.dumps({"type": "action", "version": 0, "action": 7}))


@pytest.mark.parametrize(
    ("raw", "code", "words"),
    [
        ("not json", "bad_json", "not valid JSON"),
        ("[1, 2]", "bad_message", "JSON object"),
        ('{"version": 1}', "unknown_type", "unknown message type None"),
        ('{"type": "shout"}', "unknown_type", "the types are: hello, action"),
        ('{"type": "ping", "extra": 1}', "unknown_field", "unknown field(s) 'extra'"),
        ('{"type": "action", "action": 3}', "missing_field", "needs the field 'version'"),
        ('{"type": "action", "version": "3", "action": 3}', "bad_field",
         "'version' must be a whole"),
        ('{"type": "action", "version": true, "action": 3}', "bad_field", "'version' must be"),
        ('{"type": "action", "version": -1, "action": 3}', "bad_field", "from 0 up"),
        ('{"type": "action", "version": 1, "action": 2.5}', "bad_field", "'action' must be"),
        ('{"type": "action", "version": 1, "action": ""}', "bad_field", "must not be empty"),
        ('{"type": "action", "version": 1, "action": [1]}', "bad_field", "'action' must be"),
        ('{"type": "hello", "token": 5}', "bad_field", "'token' must be a string"),
        ('{"type": "ping", "ref": {"a": 1}}', "bad_field", "'ref' must be"),
        ('{"type": "action", "version": NaN, "action": 1}', "bad_json", "NaN is not valid JSON"),
        ("[" * 5000 + "]" * 5000, "bad_json", "not valid JSON"),
    ],
)
def test_each_malformed_message_is_refused_with_its_problem(raw, code, words):
    error = refusal(raw)
    assert error.code == code
    assert words in error.message


def test_an_oversized_message_is_refused_and_closes_the_connection():
    raw = json.dumps({"type": "why", "action": "x" * MAX_MESSAGE_BYTES})
    error = refusal(raw)
    assert error.code == "too_large" and error.close == 1009
    assert f"the limit is {MAX_MESSAGE_BYTES}" in error.message


def test_a_long_action_text_is_refused():
    assert refusal(json.dumps({"type": "why", "action": "x" * 500})).code == "bad_field"


def test_server_messages_are_compact_json_and_echo_a_ref_only_when_given():
    assert json.loads(message("pong", ref=None)) == {"type": "pong"}
    assert json.loads(message("pong", ref=4)) == {"type": "pong", "ref": 4}
    error = json.loads(error_message(ProtocolError("stale_version", "old", version=3), "r"))
    assert error == {"type": "error", "code": "stale_version", "message": "old", "version": 3,
                     "ref": "r"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
message_like = st.fixed_dictionaries(
    {"type": st.sampled_from([*CLIENT_MESSAGES, "nope"])},
    optional={
        "version": json_values,
        "action": json_values,
        "token": json_values,
        "ref": json_values,
        "protocol": json_values,
        "other": json_values,
    },
)


@given(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                 json_values.map(json.dumps), message_like.map(json.dumps)))
def test_the_parser_accepts_or_names_the_problem_never_crashes(raw):
    try:
        parsed = parse_client_message(raw)
    except ProtocolError as error:
        assert error.code and error.message
    else:
        assert parsed["type"] in CLIENT_MESSAGES
        schema = CLIENT_MESSAGES[parsed["type"]]
        assert set(parsed) <= {"type", "ref", *schema}
