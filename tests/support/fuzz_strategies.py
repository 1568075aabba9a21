"""Fuzzing the server: hypothesis strategies for its inputs, and the helpers that build them.

Used by the runs of ``fuzz_runs.py``, which send these inputs and judge the
answers (for ``test_fuzz.py`` and ``bench/fuzz_server.py``). Here:

* JSON text no encoder writes (:class:`Raw`: ``NaN``, huge integers, deep
  nesting) and :func:`encode`, which writes it along with lone surrogates;
* placeholders filled in when an input is sent (:data:`LEGAL`, the seat's
  legal action then, and :data:`FRESH_ID`);
* game actions of both games, and :func:`mutate`, which makes nearly valid
  or hostile ones of them (wrong types, values out of range, unknown keys);
* hostile values and frames (``NaN``, huge integers, lone surrogates, deep
  nesting, non-objects, broken JSON, binary frames);
* WebSocket probes (``ws_*``, by name in :data:`WS_RUNS`) and REST probes
  (``rest_*``), each with what its answer must be.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from meeple.games.slide.grid import SIDES, SIZE
from meeple.games.summy.tiles import HAND_SIZE, TILES

GAMES = ("slide", "summy")
MAX_MESSAGE_BYTES = 16384
"""The server's default frame limit: hostile frames stay under it, oversize ones go over."""


# -- JSON text with fragments no encoder writes ------------------------------------------------


class Raw(str):
    """A JSON fragment written as is: ``NaN``, ``10**5000`` as digits, deep nesting ..."""

    __slots__ = ()


class Placeholder:
    """A value filled in when the input is sent (the seat's legal action, a fresh id)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


LEGAL = Placeholder("LEGAL")
"""The seat's legal action now (a random valid shape if the seat may not act)."""

FRESH_ID = Placeholder("FRESH_ID")
"""A client id not used before in the run."""


def encode(value: Any) -> str:
    """JSON text for ``value``; :class:`Raw` parts verbatim, lone surrogates as ``\\udXXX``.

    >>> encode({"a": [Raw("NaN"), "x\\ud800"], "n": 1.5})
    '{"a":[NaN,"x\\\\ud800"],"n":1.5}'
    """
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        items = (f"{json.dumps(str(k))}:{encode(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value)


_SURROGATE = re.compile("[\ud800-\udfff]")


def value_kind(value: Any) -> str:
    """What kind of hostile value or frame this is, for labels.

    >>> value_kind(huge_int(5001)), value_kind("x\\ud800"), value_kind(b"")
    ('huge int', 'lone surrogate', 'binary')
    """
    if isinstance(value, bytes):
        return "binary"
    if isinstance(value, list):
        return "deep array"
    text = str(value)
    if not isinstance(value, Raw) and _SURROGATE.search(text):
        return "lone surrogate"
    if not isinstance(value, Raw) and "\x00" in text:
        return "NUL character"
    if text.startswith("[" * 50) or '{"type":"ping","x":[[[' in text:
        return "deep array"
    if text.startswith('{"a":{"a":'):
        return "deep object"
    if re.fullmatch(r"-?\d{41,}", text):
        return "huge int"
    if any(word in text for word in ("NaN", "Infinity", "1e400", "1e309", "1E999")):
        return "NaN/Infinity"
    try:
        parsed = json.loads(text)
    except ValueError:
        return "not JSON"
    return "object" if isinstance(parsed, dict) else "non-object JSON"


# -- game actions --------------------------------------------------------------------------------


def slide_actions() -> SearchStrategy[dict[str, Any]]:
    """Well-formed Slide actions: ``reveal`` of a cell, ``take`` of a value from a side."""
    index = st.integers(0, SIZE - 1)
    reveal = st.builds(lambda r, c: {"type": "reveal", "cell": [r, c]}, index, index)
    take = st.builds(
        lambda v, s: {"type": "take", "value": v, "side": s},
        st.integers(1, 10),
        st.sampled_from(SIDES),
    )
    return st.one_of(reveal, take)


def summy_actions() -> SearchStrategy[dict[str, Any]]:
    """Well-formed Summy actions: ``place`` tiles in a line, ``discard`` tiles, ``pass``."""
    tile = st.sampled_from(TILES)
    placed = st.fixed_dictionaries(
        {"row": st.integers(-6, 6), "col": st.integers(-6, 6), "tile": tile}
    )
    place = st.fixed_dictionaries(
        {
            "type": st.just("place"),
            "dir": st.sampled_from(("H", "V")),
            "tiles": st.lists(placed, min_size=1, max_size=6),
        }
    )
    discard = st.fixed_dictionaries(
        {"type": st.just("discard"), "tiles": st.lists(tile, min_size=1, max_size=HAND_SIZE)}
    )
    return st.one_of(place, discard, st.just({"type": "pass"}))


def action_shapes(game: str) -> SearchStrategy[dict[str, Any]]:
    """Well-formed (not necessarily legal now) actions of ``game``."""
    return slide_actions() if game == "slide" else summy_actions()


# -- mutations: nearly valid and hostile versions of an action or body -------------------------

NEARLY_VALID = (
    "drop_key",
    "extra_key",
    "wrong_type",
    "out_of_range",
    "bool_for_int",
    "float_for_int",
    "wrong_length",
)
"""Mutations that make a valid action invalid while keeping it close to valid."""

HOSTILE = ("hostile_leaf", "hostile_key")
"""Mutations that put a hostile value in place of a field, or under a new key."""

EXTRA_KEYS = ("extra", "x", "Type", "types", "value2", "__proto__", "seat", "id", "", "cell ")

_OTHER_KIND = (7, "7", [7], {"v": 7}, None, 7.5, True)
_STR_OUT_OF_RANGE = {
    "type": ("fly", "Reveal", "take ", "", "PLACE"),
    "side": ("middle", "LEFT", "", "left "),
    "dir": ("D", "h", "HV", ""),
}
_TILE_OUT_OF_RANGE = ("a", "10", "", "==", "÷", "X")


@dataclass(frozen=True)
class Mutation:
    """One change to a JSON value: ``kind`` at the ``pick``-th place it applies, with ``value``."""

    kind: str
    pick: int
    key: str = "extra"
    value: Any = None


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _out_of_range(path: tuple[Any, ...], value: Any, pick: int) -> Any:
    """A value of the same type that the game refuses at ``path``."""
    if _is_int(value):
        if "cell" in path:
            options: tuple[Any, ...] = (-1, SIZE, 99, -(10**15))
        elif path[-1] == "value":
            options = (0, 11, -3, 10**15)
        else:  # a Summy row or column: far from every tile on the table
            options = (10**15, -(10**15), 10**9)
        return options[pick % len(options)]
    if isinstance(path[-1], str) and path[-1] in _STR_OUT_OF_RANGE:
        options = _STR_OUT_OF_RANGE[path[-1]]
    else:
        options = _TILE_OUT_OF_RANGE
    return options[pick % len(options)]


def _kind_of(value: Any) -> type:
    return bool if isinstance(value, bool) else type(value)


def mutate(value: Any, mutation: Mutation) -> tuple[Any, str]:
    """``value`` (a valid action or body) changed by ``mutation``; also what was changed.

    A mutation that does not apply (no integer for ``bool_for_int`` ...) drops a
    key instead, so the result is always invalid.

    >>> mutate({"type": "take", "value": 3, "side": "left"}, Mutation("float_for_int", 0))
    ({'type': 'take', 'value': 3.5, 'side': 'left'}, 'float_for_int at value')
    """
    value = _copy(value)
    kind = mutation.kind
    nodes = list(_paths(value))
    leaves = [(p, v) for p, v in nodes if p]
    candidates: list[tuple[tuple[Any, ...], Any]]
    if kind == "extra_key" or kind == "hostile_key":
        candidates = [(p, v) for p, v in nodes if isinstance(v, dict)]
    elif kind in ("wrong_type", "hostile_leaf"):
        candidates = leaves
    elif kind == "out_of_range":
        candidates = [(p, v) for p, v in leaves if _is_int(v) or isinstance(v, str)]
    elif kind in ("bool_for_int", "float_for_int"):
        candidates = [(p, v) for p, v in leaves if _is_int(v)]
    elif kind == "wrong_length":
        candidates = [(p, v) for p, v in leaves if isinstance(v, list) and "cell" in p]
    else:
        candidates = []
    if not candidates:
        kind = "drop_key"
        candidates = [(p, v) for p, v in nodes if isinstance(v, dict) and v]
    path, target = candidates[mutation.pick % len(candidates)]
    where = ".".join(map(str, path)) or "top"
    if kind in ("extra_key", "hostile_key"):
        key = mutation.key
        while key in target:
            key += "_"
        target[key] = mutation.value if kind == "hostile_key" else 1
        return value, f"{kind} {key!r} at {where}"
    if kind == "drop_key":
        keys = list(target)
        key = keys[mutation.pick % len(keys)]
        del target[key]
        return value, f"drop_key {key!r} at {where}"
    if kind == "wrong_length":
        if mutation.pick % 2:
            target.append(0)
        else:
            target.pop()
        return value, f"wrong_length at {where}"
    if kind == "wrong_type":
        others = [v for v in _OTHER_KIND if _kind_of(v) is not _kind_of(target)]
        new: Any = others[mutation.pick % len(others)]
    elif kind == "hostile_leaf":
        new = mutation.value
    elif kind == "out_of_range":
        new = _out_of_range(path, target, mutation.pick)
    elif kind == "bool_for_int":
        new = bool(mutation.pick % 2)
    else:  # float_for_int
        new = float(target) if mutation.pick % 2 else target + 0.5
    parent = _at(value, path[:-1])
    parent[path[-1]] = new
    return value, f"{kind} at {where}"


def nearly_valid_mutations() -> SearchStrategy[Mutation]:
    """A key missing, an extra key, a wrong type, out of range, bool or float for an int ..."""
    return st.builds(
        Mutation,
        kind=st.sampled_from(NEARLY_VALID),
        pick=st.integers(0, 63),
        key=st.sampled_from(EXTRA_KEYS) | st.text(min_size=1, max_size=8),
    )


# -- hostile values ------------------------------------------------------------------------------

UNSTORABLE_STRINGS = (
    *("x\ud800y", "\udfff", "\ud83d", "\ude00\ud83d", "ok\udbff", "\ud800"),
    *("a\x00b", "\x00"),
)
"""Strings no store can keep: lone UTF-16 surrogates, and NUL (PostgreSQL text refuses it)."""


def deep_array(depth: int) -> Raw:
    """``[[[…]]]`` nested ``depth`` deep."""
    return Raw("[" * depth + "]" * depth)


def deep_object(depth: int) -> Raw:
    """``{"a":{"a":…0…}}`` nested ``depth`` deep."""
    return Raw('{"a":' * depth + "0" + "}" * depth)


def huge_int(digits: int, negative: bool = False) -> Raw:
    """An integer of ``digits`` digits written out (``10**5000`` has 5001)."""
    return Raw(("-" if negative else "") + "1" + "0" * (digits - 1))


def hostile_values() -> SearchStrategy[Any]:
    """Values refused wherever they appear: NaN/Infinity, huge ints, lone surrogates, deep nests.

    Each stays well under the 16 KB frame limit once inside a message.
    """
    constants = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1E999", "1e309"])
    surrogate = st.sampled_from(UNSTORABLE_STRINGS) | st.builds(
        lambda a, s, b: a + s + b,
        st.text(max_size=5),
        st.sampled_from(UNSTORABLE_STRINGS),
        st.text(max_size=5),
    )
    return st.one_of(
        constants.map(Raw),
        st.builds(
            huge_int, st.sampled_from([4301, 5001]) | st.integers(1000, 12000), st.booleans()
        ),
        surrogate,
        st.builds(deep_array, st.integers(1000, 7000)),
        st.builds(deep_object, st.integers(1000, 2500)),
        st.builds(lambda d: [[deep_array(d)]], st.integers(1000, 6000)),
    )


def hostile_frames() -> SearchStrategy[str | bytes]:
    """Whole frames that are not a JSON object with a type: non-objects, broken, binary, deep."""
    return st.one_of(
        st.sampled_from(
            ["[]", "[1, 2]", '"ping"', "42", "-0", "null", "true", "false", "{}", '{"id": "x"}']
        ),
        st.sampled_from(
            ["NaN", "Infinity", "1e400", '{"type": NaN}', '{"type": "ping", "x": NaN}']
        ),
        st.sampled_from(
            [
                "",
                " ",
                "{",
                "}",
                '{"type":"ping"',
                '{"type":"ping"}}',
                "{'type': 'ping'}",
                '{"type":"ping",}',
                "\x00",
                "ping",
                '{"type":"ping"} {"type":"ping"}',
                '{"type":"ping" "id":"x"}',
            ]
        ),
        st.text(max_size=40),
        st.builds(lambda d: str(deep_array(d)), st.integers(1000, 8000)),
        st.builds(lambda d: str(deep_object(d)), st.integers(1000, 2700)),
        st.builds(lambda d: '{"type":"ping","x":' + deep_array(d) + "}", st.integers(1000, 7000)),
        st.builds(lambda n: str(huge_int(n)), st.integers(4301, 12000)),
        st.binary(max_size=64),
        st.just(b'{"type": "ping"}'),
    )


def _text_no_surrogates(min_size: int = 1, max_size: int = 80) -> SearchStrategy[str]:
    # No surrogates and no NUL: the two characters no store can keep, refused by the server.
    chars = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")
    return st.text(chars, min_size=min_size, max_size=max_size)


def client_ids_of_odd_types() -> SearchStrategy[Any]:
    """``id`` values that are not a string of at most 64 characters."""
    return st.one_of(
        st.integers(-(10**18), 10**18),
        st.floats(allow_nan=False, allow_infinity=False),
        st.booleans(),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        st.integers(65, 2000).map(lambda n: "i" * n),
    )


# -- WebSocket inputs ----------------------------------------------------------------------------


@dataclass(frozen=True)
class WsProbe:
    """One WebSocket input: a fixed ``frame``, or a ``message`` filled in when sent.

    ``expect``: ``"error"`` (it must be refused), ``"ack"`` (a legal action, if
    the seat may act), or ``"answer"`` (any answer will do).
    """

    label: str
    expect: str
    frame: str | bytes | None = None
    message: dict[str, Any] | None = None
    mutation: Mutation | None = None
    shape: dict[str, Any] | None = None


def _action_message(action: Any = LEGAL, **extra: Any) -> dict[str, Any]:
    return {"type": "action", "id": FRESH_ID, "action": action, **extra}


def ws_valid(game: str) -> SearchStrategy[WsProbe]:
    """Valid messages: legal actions (from the view), well-formed actions, ping, sync, chat."""
    shape = action_shapes(game)
    legal = shape.map(lambda s: WsProbe("legal action", "ack", message=_action_message(), shape=s))
    return st.one_of(
        legal,
        legal,
        legal,
        shape.map(lambda a: WsProbe("well-formed action", "answer", message=_action_message(a))),
        st.just(WsProbe("ping", "answer", message={"type": "ping"})),
        st.just(WsProbe("ping with id", "answer", message={"type": "ping", "id": FRESH_ID})),
        st.integers(0, 12).map(
            lambda n: WsProbe("sync", "answer", message={"type": "sync", "since": n})
        ),
        _text_no_surrogates(1, 200).map(
            lambda t: WsProbe("chat", "answer", message={"type": "chat", "id": FRESH_ID, "text": t})
        ),
        st.just(WsProbe("rematch", "answer", message={"type": "rematch", "id": FRESH_ID})),
    )


def ws_nearly_valid(game: str) -> SearchStrategy[WsProbe]:
    """The seat's legal action with one thing wrong (it must be refused)."""
    return st.builds(_nearly, nearly_valid_mutations(), action_shapes(game))


def _nearly(mutation: Mutation, shape: dict[str, Any]) -> WsProbe:
    return WsProbe(
        f"nearly valid action: {mutation.kind}",
        "error",
        message=_action_message(),
        mutation=mutation,
        shape=shape,
    )


def _with_field(kind: str, key: str, value: Any) -> dict[str, Any]:
    """A message of ``kind`` whose other fields are valid, with ``key`` set to ``value``."""
    base: dict[str, Any] = {
        "ping": {"type": "ping"},
        "sync": {"type": "sync", "since": 1},
        "action": _action_message(),
        "chat": {"type": "chat", "id": FRESH_ID, "text": "hello"},
        "rematch": {"type": "rematch", "id": FRESH_ID},
        "leave": {"type": "leave", "id": FRESH_ID},
    }[kind]
    return {**base, key: value}


def _unknown_key(kind: str) -> SearchStrategy[WsProbe]:
    keys = [k for k in UNKNOWN_KEYS if k not in _FIELDS[kind]]
    return st.sampled_from(keys).map(
        lambda key: WsProbe(
            f"{kind} with an unknown key", "error", message=_with_field(kind, key, 1)
        )
    )


UNKNOWN_KEYS = ("extra", "x", "Type", "ids", "seat", "since", "text", "action", "version")
MESSAGE_TYPES = ("ping", "sync", "action", "chat", "rematch", "leave")
_FIELDS = {
    "ping": ("id",),
    "sync": ("since", "id"),
    "action": ("id", "seat", "action"),
    "chat": ("text", "id"),
    "rematch": ("id",),
    "leave": ("id",),
}
_SAFE_TYPES = ("ping", "sync", "action", "chat", "rematch")
"""Types whose refusal changes nothing (a ``leave`` that is wrongly accepted ends the seat)."""


def ws_hostile(game: str) -> SearchStrategy[WsProbe]:
    """Hostile frames, hostile values in the action or in any field, oversize strings."""
    hostile = hostile_values()
    kind_and_field = st.sampled_from([(k, f) for k in MESSAGE_TYPES for f in ("type", *_FIELDS[k])])
    return st.one_of(
        hostile_frames().map(
            lambda f: WsProbe(f"hostile frame ({value_kind(f)})", "error", frame=f)
        ),
        hostile.map(
            lambda v: WsProbe(
                f"hostile action ({value_kind(v)})", "error", message=_action_message(v)
            )
        ),
        st.builds(
            lambda m, s: WsProbe(
                f"hostile in action: {m.kind} ({value_kind(m.value)})",
                "error",
                message=_action_message(),
                mutation=m,
                shape=s,
            ),
            st.builds(
                Mutation,
                st.sampled_from(HOSTILE),
                st.integers(0, 63),
                st.sampled_from(EXTRA_KEYS) | st.sampled_from(UNSTORABLE_STRINGS),
                hostile,
            ),
            action_shapes(game),
        ),
        st.builds(
            lambda kf, v: WsProbe(
                f"hostile {kf[0]}.{kf[1]} ({value_kind(v)})",
                "error",
                message=_with_field(kf[0], kf[1], v),
            ),
            kind_and_field,
            hostile,
        ),
        st.builds(
            lambda k, key, v: WsProbe(
                f"hostile extra key in {k} ({value_kind(v)})",
                "error",
                message=_with_field(k, key, v),
            ),
            st.sampled_from(_SAFE_TYPES),
            st.sampled_from(("x", "\ud800", "extra")),
            hostile,
        ),
        st.integers(501, 15000).map(
            lambda n: WsProbe(
                "chat text too long", "error", message=_with_field("chat", "text", "t" * n)
            )
        ),
        st.integers(65, 15000).map(
            lambda n: WsProbe("id too long", "error", message=_with_field("action", "id", "i" * n))
        ),
        st.integers(MAX_MESSAGE_BYTES, 40000).map(
            lambda n: WsProbe(
                "oversize frame", "error", frame=encode({"type": "chat", "text": "o" * n})
            )
        ),
        st.integers(100, 15000).map(
            lambda n: WsProbe(
                "huge string in action",
                "error",
                message=_action_message({"type": "take", "value": 5, "side": "s" * n}),
            )
        ),
    )


def ws_envelopes(game: str) -> SearchStrategy[WsProbe]:
    """Messages of each type, valid and with a field corrupted (odd ids, since, seat, text ...)."""
    odd_id = client_ids_of_odd_types()
    odd_since = st.one_of(
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=5),
        st.booleans(),
        st.none(),
        st.lists(st.integers(), max_size=2),
    )
    odd_seat = st.one_of(
        st.sampled_from(["0", 0.0, True, False, [0], {"seat": 0}, 1, -1, 10**18, 2, 7])
    )
    valid = st.one_of(
        st.sampled_from(MESSAGE_TYPES).map(
            lambda k: WsProbe(f"valid {k}", "answer", message=_with_field(k, "id", FRESH_ID))
        ),
        st.one_of(st.integers(-(10**18), 0), st.integers(50, 10**18)).map(
            lambda n: WsProbe(
                "sync since unusable", "answer", message=_with_field("sync", "since", n)
            )
        ),
        st.just(WsProbe("action with own seat", "answer", message=_action_message(seat=0))),
        st.just(WsProbe("no id", "answer", message={"type": "action", "action": LEGAL})),
    )
    corrupted = st.one_of(
        st.builds(
            lambda k, v: WsProbe(
                f"{k} with id of odd type", "error", message=_with_field(k, "id", v)
            ),
            st.sampled_from(MESSAGE_TYPES),
            odd_id,
        ),
        st.sampled_from(_SAFE_TYPES).flatmap(_unknown_key),
        st.one_of(
            st.sampled_from(["dance", "PING", " ping", "ping ", "Action", "", "hello", "event"]),
            st.integers(),
            st.none(),
            st.lists(st.just("ping"), max_size=2),
            st.booleans(),
        ).map(lambda t: WsProbe("bad type", "error", message={"type": t, "id": FRESH_ID})),
        st.just(WsProbe("no type", "error", message={"id": FRESH_ID, "action": LEGAL})),
        odd_since.map(
            lambda v: WsProbe(
                "sync with odd since", "error", message=_with_field("sync", "since", v)
            )
        ),
        st.just(WsProbe("sync without since", "error", message={"type": "sync"})),
        st.just(WsProbe("action without action", "error", message={"type": "action", "id": "a"})),
        st.just(WsProbe("action null", "error", message=_action_message(None))),
        odd_seat.map(
            lambda s: WsProbe("action with odd seat", "error", message=_action_message(seat=s))
        ),
        st.one_of(
            st.integers(),
            st.none(),
            st.lists(st.text(max_size=3), max_size=2),
            st.sampled_from(["", "   ", "\n\t"]),
            st.integers(501, 3000).map(lambda n: "c" * n),
        ).map(
            lambda t: WsProbe("chat with bad text", "error", message=_with_field("chat", "text", t))
        ),
        st.just(WsProbe("chat without text", "error", message={"type": "chat", "id": FRESH_ID})),
    )
    return st.one_of(valid, corrupted, corrupted)


WS_RUNS: dict[str, Callable[[str], SearchStrategy[WsProbe]]] = {
    "valid": ws_valid,
    "nearly_valid": ws_nearly_valid,
    "hostile": ws_hostile,
    "envelope": ws_envelopes,
}
"""The WebSocket runs of each game, by name."""


# -- REST inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RestProbe:
    """One REST input; ``expect``: ``"refused"`` (a 4xx), ``"ok"`` (a 2xx) or ``"any"``."""

    label: str
    expect: str
    method: str
    path: str
    body: Any = None
    raw_body: bytes | None = None
    content_type: str | None = "application/json"
    mutation: Mutation | None = None
    shape: dict[str, Any] | None = None
    target: str = "body"
    """What ``mutation`` changes: the whole ``body`` or only its ``action``."""


def rest_bodies(game: str) -> list[tuple[str, str, dict[str, Any]]]:
    """A valid body for each REST route that reads one (``{table_id}`` is filled in)."""
    return [
        ("POST", "/api/auth/register", {"name": "fuzz-name", "password": "Tile-Slider-42"}),
        ("POST", "/api/auth/login", {"name": "fuzz-name", "password": "Tile-Slider-42"}),
        ("POST", "/api/tables", {"game": game, "seats": 2, "bots": {"1": "random"}}),
        ("POST", "/api/quickplay", {"game": game}),
        ("POST", "/api/tables/{table_id}/join", {"seat": 1}),
        ("POST", "/api/tables/{table_id}/kick", {"seat": 1}),
        ("POST", "/api/tables/{table_id}/actions", {"id": FRESH_ID, "action": LEGAL}),
        ("POST", "/api/tables/{table_id}/chat", {"text": "hello"}),
    ]


REST_QUERIES = [
    ("GET", "/api/tables/{table_id}/events", "since"),
    ("GET", "/api/tables/{table_id}/replay", "step"),
    ("GET", "/api/tables/{table_id}/replay", "seat"),
    ("GET", "/api/tables/{table_id}", "invite"),
    ("GET", "/api/tables", "status"),
    ("GET", "/api/tables", "game"),
    ("GET", "/api/leaderboard/slide", "limit"),
]
HOSTILE_QUERY_VALUES = [
    "NaN",
    "Infinity",
    "1e400",
    "-1",
    "",
    "1.5",
    "true",
    "9" * 5000,
    "%ED%A0%80",
    "%FF%FE",
    "%00",
    "x" * 8000,
    "[]",
    "%5B%5D",
]
HOSTILE_PATHS = [
    "/api/tables/%ED%A0%80",
    "/api/tables/%FF",
    "/api/users/%ED%A0%80",
    "/api/users/%00",
    "/api/tables/" + "t" * 8000,
    "/api/users/" + "%F0%9F%98%80" * 300,
    "/api/leaderboard/%ED%A0%80",
    "/api/users/x/history/%FF",
    "/api/tables/x/replay?step=" + "9" * 5000,
]


def rest_probes(game: str) -> SearchStrategy[RestProbe]:
    """REST inputs: hostile and nearly valid bodies, odd content types, hostile queries, paths."""
    routes = rest_bodies(game)
    route = st.sampled_from(routes)
    hostile = hostile_values()
    hostile_mutation = st.builds(
        Mutation,
        st.sampled_from(HOSTILE),
        st.integers(0, 63),
        st.sampled_from(EXTRA_KEYS) | st.sampled_from(UNSTORABLE_STRINGS),
        hostile,
    )
    action_route = next(r for r in routes if r[1].endswith("/actions"))
    shape = action_shapes(game)
    return st.one_of(
        st.builds(
            lambda r, m, s: RestProbe(
                f"{r[1]} {m.kind}", "refused", r[0], r[1], r[2], mutation=m, shape=s
            ),
            route,
            hostile_mutation,
            shape,
        ),
        st.builds(
            lambda r, m, s: RestProbe(
                f"{r[1]} extra key", "refused", r[0], r[1], r[2], mutation=m, shape=s
            ),
            route,
            st.builds(
                Mutation, st.just("extra_key"), st.integers(0, 63), st.sampled_from(EXTRA_KEYS)
            ),
            shape,
        ),
        st.builds(
            lambda m, s: RestProbe(
                f"action nearly valid: {m.kind}",
                "refused",
                action_route[0],
                action_route[1],
                action_route[2],
                mutation=m,
                shape=s,
                target="action",
            ),
            nearly_valid_mutations(),
            shape,
        ),
        st.builds(
            lambda r, f: RestProbe(
                f"{r[1]} hostile body",
                "refused",
                r[0],
                r[1],
                raw_body=f if isinstance(f, bytes) else f.encode("utf-8"),
            ),
            route,
            hostile_frames() | st.sampled_from([b"\xff\xfe", b'{"text": "\xed\xa0\x80"}']),
        ),
        st.builds(
            lambda r, c: RestProbe(f"{r[1]} as {c}", "any", r[0], r[1], r[2], content_type=c),
            route,
            st.sampled_from(
                [
                    None,
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "application/json; charset=latin-1",
                    "multipart/form-data",
                ]
            ),
        ),
        st.builds(
            lambda q, v: RestProbe(
                f"{q[1]}?{q[2]}=hostile", "any", q[0], f"{q[1]}?{q[2]}={quote(v, safe='%')}"
            ),
            st.sampled_from(REST_QUERIES),
            st.sampled_from(HOSTILE_QUERY_VALUES),
        ),
        st.sampled_from(HOSTILE_PATHS).map(lambda p: RestProbe("hostile path", "any", "GET", p)),
        shape.map(lambda s: RestProbe("legal action", "ok", *action_route, shape=s)),
    )
