"""`protocol.plain_action`, the shortcut past pydantic for plain action messages, against
pydantic's own validation of `ActionIn` (the oracle): whatever the shortcut accepts, pydantic
accepts too and reads the same; the messages clients send take the shortcut."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from yanniv.server.realtime.protocol import CLIENT_MESSAGE, ActionIn, plain_action

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 2**70), st.floats(allow_nan=False),
                     st.text(max_size=70), st.lists(st.integers(), max_size=2),
                     st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
_FIELDS = {
    "type": st.one_of(st.just("action"), st.just("ping"), _SCALARS),
    "id": st.one_of(st.text(min_size=0, max_size=70), _SCALARS),
    "version": st.one_of(st.integers(-3, 2**40), st.booleans(), _SCALARS),
    "action": st.one_of(st.fixed_dictionaries({"type": st.just("Draw")}), _SCALARS),
}


@st.composite
def messages(draw: st.DrawFn) -> Any:
    names = draw(st.sets(st.sampled_from([*_FIELDS, "extra"]), min_size=0, max_size=5))
    data = {n: draw(_FIELDS.get(n, _SCALARS)) for n in names}
    return draw(st.one_of(st.just(data), _SCALARS))


@given(messages())
def test_what_the_shortcut_accepts_pydantic_accepts_the_same(data: Any) -> None:
    quick = plain_action(data)
    if quick is None:
        return
    parsed = CLIENT_MESSAGE.validate_python(data)
    assert isinstance(parsed, ActionIn)
    assert (parsed.id, parsed.version, parsed.action) == quick


@given(st.text(min_size=1, max_size=64), st.integers(0, 2**31), st.sampled_from(
    [{"type": "Draw"}, {"type": "Play", "cards": ["AS", "2S"]}, {"type": "Yanniv"}]))
def test_a_client_s_action_takes_the_shortcut(message_id: str, version: int,
                                              action: dict[str, Any]) -> None:
    data = {"type": "action", "id": message_id, "version": version, "action": action}
    quick = plain_action(data)
    assert quick == (message_id, version, action)


def test_the_shortcut_leaves_refusals_to_pydantic() -> None:
    for data in ({"type": "action", "id": "", "version": 1, "action": {}},
                 {"type": "action", "id": "x" * 65, "version": 1, "action": {}},
                 {"type": "action", "id": "a", "version": True, "action": {}},
                 {"type": "action", "id": "a", "version": 1, "action": {}, "more": 1},
                 {"type": "action", "id": "a", "version": "1", "action": {}}):
        assert plain_action(data) is None
        try:
            CLIENT_MESSAGE.validate_python(data)
        except ValidationError:
            continue
        raise AssertionError(f"pydantic accepted {data}")
