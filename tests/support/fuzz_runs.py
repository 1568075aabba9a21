"""Fuzzing the server: the runs that send the inputs of ``fuzz_strategies.py`` and judge them.

Shared by ``test_fuzz.py`` (small runs, in the suite) and
``bench/fuzz_server.py`` (long runs), which start their server with
:func:`fuzz_server`. What is checked, for every input:

* WebSocket: every message gets an answer (``ack``, ``pong``, ``resume``,
  ``hello`` or ``{"type": "error", "code", "message"}``), every reply is strict
  JSON (no ``NaN`` or ``Infinity``), the connection stays open (a ``ping``
  after each input must get its ``pong``), and inputs that are not valid
  (unknown keys, wrong types, values out of range, ``NaN``, huge integers,
  lone surrogates, deep nesting, non-objects, binary frames) get an ``error``.
* REST: every request gets a 2xx or 4xx with a JSON body (errors with a
  ``detail``), never a 5xx or a reset, and the next request on the same
  keep-alive connection still works; hostile bodies get a 4xx.
* REST, schemathesis: positive and negative cases of every ``/api`` operation
  of ``/openapi.json``, signed in and anonymous, judged the same way.
* Afterwards every table used still plays to the end and its
  ``GET /api/tables/{id}/events`` (and ``/record``) answer 200.

A run never stops at the first failure: it tries every input and collects
what failed (one line per kind of failure, with its first input), so a long
run lists everything at once. Inputs are planned by hypothesis; actions that
must be legal (and the nearly valid ones made from them) are taken from the
seat's real view when the input is sent, by the random bot.
"""

from __future__ import annotations

import http.client
import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from fuzz_strategies import (
    FRESH_ID,
    LEGAL,
    WS_RUNS,
    RestProbe,
    WsProbe,
    encode,
    mutate,
    rest_probes,
)
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from server_harness import Client, LiveServer, brain, make_settings, play_out, start_server
from websockets.exceptions import ConnectionClosed

from meeple.config import Settings
from meeple.web.security import SESSION_COOKIE

ANSWERS = frozenset({"ack", "error", "pong", "resume", "hello"})
"""Reply types that answer a client message (``event`` messages come on their own)."""

ANSWER_TIMEOUT_S = 10.0
"""How long a message may wait for its answer, in seconds."""


# -- replies and inputs, as JSON and as text -----------------------------------------------------


class NotStrictJson(ValueError):
    """A reply that a strict JSON parser (a browser's) would refuse."""


def _refuse_constant(name: str) -> Any:
    raise NotStrictJson(f"{name} is not a JSON number")


def strict_loads(text: str | bytes) -> Any:
    """Parse a reply as strict JSON; :class:`NotStrictJson` for NaN, Infinity or bad text."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except NotStrictJson:
        raise
    except ValueError as exc:
        raise NotStrictJson(str(exc)) from None


_RUN = re.compile(r"(.)\1{15,}", re.DOTALL)


def describe(raw: str | bytes, limit: int = 240) -> str:
    """A short readable form of an input: long runs folded, then truncated.

    >>> describe('{"a":' + "[" * 3000 + "]" * 3000 + "}")
    '{"a":[{x3000}]{x3000}}'
    """
    if isinstance(raw, bytes):
        text = f"<binary frame {raw[:48]!r}{'...' if len(raw) > 48 else ''}>"
    else:
        text = raw.encode("ascii", "backslashreplace").decode("ascii")
        text = _RUN.sub(lambda m: f"{m.group(1)}{{x{len(m.group(0))}}}", text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(raw)} chars)"


# -- running strategies --------------------------------------------------------------------------


def run_examples(
    strategy: SearchStrategy[Any],
    check: Callable[[Any], None],
    examples: int,
    seed: int | None = None,
) -> int:
    """Feed up to ``examples`` draws of ``strategy`` to ``check``; how many it got.

    Reproducible: the draws are derandomized unless ``seed`` is given. ``check``
    records failures instead of raising, so nothing is shrunk and the run goes on.
    """
    count = 0

    def body(value: Any) -> None:
        nonlocal count
        count += 1
        check(value)

    test = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )(given(strategy)(body))
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    test()
    return count


@dataclass
class Report:
    """What one run tried and what failed (one entry per kind of failure)."""

    name: str
    tried: int = 0
    by_label: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    """What the server answered: WebSocket answer types and error codes, HTTP statuses."""
    failures: dict[tuple[str, str], list[Any]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def fail(self, label: str, what: str, example: str) -> None:
        """Record a failure: its kind (``label``, ``what``), counted, first example kept."""
        entry = self.failures.setdefault((label, what), [0, example])
        entry[0] += 1

    @property
    def failed(self) -> int:
        """How many inputs failed, in all."""
        return sum(entry[0] for entry in self.failures.values())

    def summary(self) -> str:
        """One line of counts, then one line per kind of failure."""
        lines = [
            f"{self.name}: {self.tried} inputs tried, {self.failed} failed "
            f"({len(self.failures)} kinds), {self.seconds:.1f} s",
            "  answers: " + ", ".join(f"{k} {n}" for k, n in self.outcomes.most_common(12)),
        ]
        for (label, what), (count, example) in sorted(self.failures.items()):
            lines.append(f"  FAIL x{count} [{label}] {what}\n      input: {example}")
        lines.extend(f"  note: {note}" for note in self.notes)
        return "\n".join(lines)


def fuzz_settings(tmp_path: Any, **overrides: Any) -> Settings:
    """Settings of a fuzzing server: the test defaults with rate limits out of the way."""
    fields = Settings.model_fields
    generous: dict[str, Any] = {}
    for name in ("limit_auth", "limit_guests", "limit_chat", "limit_tables"):
        if name in fields:
            generous[name] = "100000/minute"
    for name in ("chat_per_minute", "auth_attempts_per_minute"):
        if name in fields:
            generous[name] = 100000
    generous.update(overrides)
    return make_settings(tmp_path, **generous)


@contextmanager
def fuzz_server(path: Path, **overrides: Any) -> Iterator[LiveServer]:
    """A live fuzzing server (:func:`fuzz_settings`) with its files in ``path``, then stopped."""
    server = start_server(fuzz_settings(path, **overrides))
    try:
        yield server
    finally:
        server.stop()


# -- a seat at a table, seen through its WebSocket -----------------------------------------------


class Seat:
    """A fuzzing player's seat at a table vs a random bot, tracked through a strict socket."""

    def __init__(self, client: Client, game: str, seed: int = 5) -> None:
        self.client, self.game = client, game
        table = client.create_table(game=game, seats=2, bots={"1": "random"})["table"]
        self.table_id: str = table["id"]
        client.post(f"/api/tables/{self.table_id}/start")
        self.mind = brain(game, seed)
        self.seat = 0
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.to_act: list[int] = []
        self.finished = False
        self.zombie = False
        self.connect()

    def connect(self) -> None:
        """(Re)open the socket and read its hello."""
        self.ws = self.client.connect(self.table_id).ws
        hello = self.recv(ANSWER_TIMEOUT_S)
        assert hello.get("type") == "hello", hello

    def close(self) -> None:
        """Close the socket."""
        with suppress(ConnectionClosed):
            self.ws.close()

    def recv(self, timeout: float) -> dict[str, Any]:
        """The next message, parsed strictly and tracked; :class:`NotStrictJson` if it is not."""
        raw = self.ws.recv(timeout=timeout)
        try:
            message = strict_loads(raw)
        except NotStrictJson as exc:
            raise NotStrictJson(f"{exc}: {describe(raw, 160)}") from None
        if not isinstance(message, dict):
            raise NotStrictJson(f"a reply that is not an object: {describe(raw, 160)}")
        self.track(message)
        return message

    def track(self, message: dict[str, Any]) -> None:
        """Follow the table: view, seats to act, the end, a bot taking the seat."""
        kind = message.get("type")
        if kind == "hello":
            self.version = message["version"]
            self.view = message.get("view")
            self.to_act = message["table"]["to_act"]
            self.finished = message["table"]["status"] != "playing"
            self.zombie = any(
                s.get("zombie") for s in message["table"]["seats"] if s["seat"] == self.seat
            )
        elif kind == "event":
            self.version = max(self.version, message["version"])
            self.view, self.to_act = message.get("view"), message.get("to_act", [])
            if message.get("kind") in ("finish", "close"):
                self.finished = True
            if message.get("kind") == "zombie" and message.get("seat") == self.seat:
                self.zombie = True

    @property
    def may_act(self) -> bool:
        """Whether the seat may act now."""
        return not (self.finished or self.zombie) and self.seat in self.to_act and bool(self.view)

    def wait_turn(self, timeout: float = 3.0) -> bool:
        """Read events until the seat may act (or the game ended); whether it may."""
        deadline = time.monotonic() + timeout
        while not self.may_act and not self.finished and not self.zombie:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                self.recv(min(left, 0.2))
            except TimeoutError:
                continue
        return self.may_act

    def wait_version(self, version: Any, timeout: float = 5.0) -> None:
        """Read events until the socket has seen event ``version`` (an ack's)."""
        if not isinstance(version, int):
            return
        deadline = time.monotonic() + timeout
        while self.version < version and time.monotonic() < deadline:
            try:
                self.recv(min(0.2, max(0.0, deadline - time.monotonic())))
            except TimeoutError:
                continue

    def drain(self) -> None:
        """Read every message waiting now."""
        try:
            while True:
                self.recv(0.0)
        except TimeoutError:
            return

    def legal(self) -> Any:
        """A legal action now (the seat must be able to act)."""
        assert self.view is not None
        return self.mind(self.view, self.seat)


def finish_table(seat: Seat, report: Report, label: str) -> None:
    """Check the table still plays to the end, then that its events and record answer 200."""
    seat.close()
    client = seat.client
    where = f"table {seat.table_id}"
    try:
        sock = client.connect(seat.table_id)
        sock.recv()
        if sock.seat is not None and not sock.finished:
            zombie = any(
                s["zombie"]
                for s in client.get(f"/api/tables/{seat.table_id}")["table"]["seats"]
                if s["seat"] == sock.seat
            )
            if zombie:
                sock.wait_finished(timeout=60)
            else:
                play_out({sock.seat: sock}, seat.game, timeout=120)
        elif not sock.finished:
            sock.wait_finished(timeout=60)
        sock.close()
    except Exception as exc:
        report.fail(
            label,
            f"the table did not play to the end: {type(exc).__name__}: {str(exc)[:160]}",
            where,
        )
    for path in ("events", "record"):
        try:
            response = client.http.get(f"/api/tables/{seat.table_id}/{path}")
        except httpx.HTTPError as exc:
            report.fail(
                label,
                f"GET /api/tables/{{id}}/{path} after the game: {type(exc).__name__} {exc}",
                where,
            )
            continue
        if response.status_code != 200:
            report.fail(
                label,
                f"GET /api/tables/{{id}}/{path} after the game answered "
                f"{response.status_code}: {response.text[:120]}",
                where,
            )


# -- the WebSocket fuzzer ------------------------------------------------------------------------


class WsFuzzer:
    """Sends WebSocket probes to one seat, judging each answer; a new table when one ends."""

    def __init__(self, server: LiveServer, game: str, report: Report) -> None:
        self.server, self.game, self.report = server, game, report
        self.client = server.client(f"fuzz-ws-{game}")
        self.client.guest()
        self.sent = 0
        self.seats: list[Seat] = []
        self.seat = self.new_seat()

    def new_seat(self) -> Seat:
        """A fresh table with this client seated against a bot."""
        seat = Seat(self.client, self.game, seed=len(self.seats) + 1)
        self.seats.append(seat)
        return seat

    def build(self, probe: WsProbe) -> tuple[str | bytes, str]:
        """The frame to send for ``probe`` now, and what to expect of the answer."""
        if probe.frame is not None:
            return probe.frame, probe.expect
        assert probe.message is not None
        expect = probe.expect
        message = dict(probe.message)
        if message.get("id") is FRESH_ID:
            self.sent += 1
            message["id"] = f"fz{self.sent}"
        if message.get("action") is LEGAL:
            if self.seat.wait_turn():
                message["action"] = self.seat.legal()
            else:
                message["action"] = probe.shape or {"type": "pass"}
                if expect == "ack":
                    expect = "answer"
            if probe.mutation is not None:
                message["action"], _what = mutate(message["action"], probe.mutation)
        return encode(message), expect

    def check(self, probe: WsProbe) -> None:
        """Send one probe; record what was wrong with the answer or the connection."""
        self.report.tried += 1
        self.report.by_label[probe.label] += 1
        try:
            self._check(probe)
        except Exception as exc:  # anything else the server did: record it, go on
            what = f"unexpected {type(exc).__name__}: {str(exc)[:120]}"
            self.report.fail(probe.label, what, repr(probe)[:240])
            self.seat.close()
            self.seat.connect()

    def _check(self, probe: WsProbe) -> None:
        frame, expect = self.build(probe)
        shown = describe(frame)
        try:
            self.seat.ws.send(frame)
        except ConnectionClosed:
            self.report.fail(probe.label, "connection closed before sending", shown)
            self.seat.connect()
            return
        answer = self.await_answer(probe, shown)
        if answer is not None:
            self.judge(probe, expect, answer, shown)
            self.check_alive(probe, shown)
            if answer.get("type") == "ack":
                self.seat.wait_version(answer.get("version"))
        if self.seat.finished or self.seat.zombie:
            self.seat.close()
            self.seat = self.new_seat()

    def await_answer(self, probe: WsProbe, shown: str) -> dict[str, Any] | None:
        """The answer to what was sent (events skipped); ``None`` after recording a failure."""
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while True:
            try:
                message = self.seat.recv(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                self.report.fail(probe.label, f"no answer within {ANSWER_TIMEOUT_S:.0f} s", shown)
                return None
            except NotStrictJson as exc:
                self.report.fail(probe.label, f"reply not strict JSON ({str(exc)[:80]})", shown)
                return None
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else "none (no close frame)"
                self.report.fail(probe.label, f"connection dropped, close code {code}", shown)
                self.seat.connect()
                return None
            if message.get("type") in ANSWERS:
                return message
            if message.get("type") != "event":
                self.report.fail(probe.label, f"unknown reply type {message.get('type')!r}", shown)

    def judge(self, probe: WsProbe, expect: str, answer: dict[str, Any], shown: str) -> None:
        """Compare the answer with what the probe expects."""
        kind = answer["type"]
        self.report.outcomes[f"{kind} {answer.get('code', '')}".strip()] += 1
        if kind == "error":
            if not isinstance(answer.get("code"), str) or not isinstance(
                answer.get("message"), str
            ):
                self.report.fail(probe.label, "error without a code and a message", shown)
            if answer.get("code") == "server_error":
                self.report.fail(probe.label, "server_error (an exception in the server)", shown)
        if expect == "error" and kind != "error":
            self.report.fail(probe.label, f"accepted: answered {kind}, not an error", shown)
        elif expect == "ack" and kind != "ack":
            self.report.fail(
                probe.label,
                f"legal action refused: {answer.get('code')}: {str(answer.get('message'))[:80]}",
                shown,
            )

    def check_alive(self, probe: WsProbe, shown: str) -> None:
        """A ping must still get its pong on the same connection."""
        try:
            self.seat.ws.send('{"type":"ping"}')
            deadline = time.monotonic() + ANSWER_TIMEOUT_S
            while self.seat.recv(max(0.0, deadline - time.monotonic())).get("type") != "pong":
                pass
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else "none (no close frame)"
            self.report.fail(
                probe.label, f"connection dropped after the answer, code {code}", shown
            )
            self.seat.connect()
        except TimeoutError:
            self.report.fail(probe.label, "no pong after the answer", shown)
        except NotStrictJson as exc:
            self.report.fail(probe.label, f"reply not strict JSON ({str(exc)[:80]})", shown)

    def finish(self) -> None:
        """Every table used still plays to the end; its events and record answer 200."""
        for seat in self.seats:
            finish_table(seat, self.report, "afterwards")


def run_ws(
    server: LiveServer, game: str, kind: str, examples: int, seed: int | None = None
) -> Report:
    """One WebSocket run: ``examples`` probes of ``kind`` for ``game``, then the play-out."""
    report = Report(f"ws {game} {kind}")
    started = time.monotonic()
    fuzzer = WsFuzzer(server, game, report)
    run_examples(WS_RUNS[kind](game), fuzzer.check, examples, seed)
    fuzzer.finish()
    report.notes.append(f"{len(fuzzer.seats)} table(s) used, each played to the end")
    report.seconds = time.monotonic() - started
    return report


# -- REST ----------------------------------------------------------------------------------------


class KeepAlive:
    """One keep-alive HTTP connection; each request is judged, then a health check follows."""

    def __init__(self, server: LiveServer, report: Report) -> None:
        parts = urlsplit(server.url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.report = report
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def _send(
        self, method: str, target: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, http.client.HTTPResponse, bytes]:
        self.conn.request(method, target, body=body, headers=headers)
        response = self.conn.getresponse()
        if is_stream(response):
            return response.status, response, b""  # its body never ends: judged by its head
        return response.status, response, response.read()

    def check(
        self,
        label: str,
        expect: str,
        method: str,
        target: str,
        body: bytes | None,
        headers: dict[str, str],
        shown: str,
    ) -> tuple[http.client.HTTPResponse, Any] | None:
        """Send one request and judge it (status, JSON body, the connection kept).

        Returns the response and its parsed body (``None`` if it is not JSON).
        """
        self.report.tried += 1
        self.report.by_label[label] += 1
        try:
            status, response, data = self._send(method, target, body, headers)
        except (OSError, http.client.HTTPException) as exc:
            self.report.fail(label, f"connection reset or dropped ({type(exc).__name__})", shown)
            self.conn.close()
            return None
        self.report.outcomes[str(status)] += 1
        if is_stream(response):
            # An open NDJSON stream (the Bot API's): a 200 with the right type is all a fuzzer
            # can judge; the connection is the stream's now, so the next request gets another.
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            return response, None
        if status >= 500:
            self.report.fail(label, f"{status} {data[:100]!r}", shown)
        elif status < 200 or 300 <= status < 400:
            self.report.fail(label, f"status {status}, not a 2xx or 4xx", shown)
        parsed: Any = None
        plain = 200 <= status < 300 and is_text(response)  # a documented text answer
        if status < 500 and (status != 204 or data) and not plain:
            try:
                parsed = strict_loads(data)
            except NotStrictJson:
                self.report.fail(
                    label, f"{status} with a body that is not JSON: {data[:60]!r}", shown
                )
            if (
                400 <= status < 500
                and parsed is not None
                and (not isinstance(parsed, dict) or "detail" not in parsed)
            ):
                self.report.fail(label, f"{status} error without a detail", shown)
        if expect == "refused" and status < 400:
            self.report.fail(label, f"accepted ({status}), not refused", shown)
        elif expect == "ok" and not 200 <= status < 300:
            self.report.fail(label, f"valid request refused: {status} {data[:100]!r}", shown)
        self.check_alive(label, response, shown)
        return response, parsed

    def check_alive(self, label: str, response: http.client.HTTPResponse, shown: str) -> None:
        """The next request on the same connection must work."""
        if response.will_close or self.conn.sock is None:
            self.report.fail(label, "the server closed the keep-alive connection", shown)
            self.conn.close()
            return
        try:
            status, _response, _data = self._send("GET", "/api/health", None, {})
        except (OSError, http.client.HTTPException) as exc:
            self.report.fail(
                label, f"next request on the connection failed ({type(exc).__name__})", shown
            )
            self.conn.close()
            return
        if status != 200:
            self.report.fail(label, f"next request on the connection answered {status}", shown)


def is_text(response: http.client.HTTPResponse) -> bool:
    """Whether ``response`` is plain text (a game's moves as a file to save), not JSON."""
    return (response.getheader("content-type") or "").startswith("text/plain")


def is_stream(response: http.client.HTTPResponse) -> bool:
    """Whether ``response`` is an open NDJSON stream (a 200 whose body goes on for ever)."""
    kind = response.getheader("content-type") or ""
    return response.status == 200 and kind.startswith("application/x-ndjson")


def session_cookie(response: http.client.HTTPResponse) -> str | None:
    """The session cookie a response sets (``None`` if none, or if it removes it)."""
    for header in response.headers.get_all("set-cookie") or []:
        cookie = SimpleCookie()
        cookie.load(header)
        if SESSION_COOKIE in cookie and cookie[SESSION_COOKIE].value:
            return cookie[SESSION_COOKIE].value
    return None


class RestFuzzer:
    """Sends REST probes as the seated player of a table vs a bot (tracked by its socket)."""

    def __init__(self, server: LiveServer, game: str, report: Report) -> None:
        self.server, self.game, self.report = server, game, report
        self.client = server.client(f"fuzz-rest-{game}")
        self.client.guest()
        self.seat = Seat(self.client, game)
        self.http = KeepAlive(server, report)
        self.sent = 0

    def check(self, probe: RestProbe) -> None:
        """Send one probe on the keep-alive connection and judge the answer."""
        expect = probe.expect
        self.seat.drain()
        path = probe.path.replace("{table_id}", self.seat.table_id)
        body = probe.raw_body
        if body is None and probe.body is not None:
            value = dict(probe.body)
            if value.get("id") is FRESH_ID:
                self.sent += 1
                value["id"] = f"rest{self.sent}"
            if value.get("action") is LEGAL:
                self.seat.drain()
                if self.seat.wait_turn(1.0):
                    value["action"] = self.seat.legal()
                else:
                    value["action"] = probe.shape or {"type": "pass"}
                    if expect == "ok":
                        expect = "any"
                if probe.mutation is not None and probe.target == "action":
                    value["action"], _what = mutate(value["action"], probe.mutation)
            if probe.mutation is not None and probe.target == "body":
                value, _what = mutate(value, probe.mutation)
            body = encode(value).encode("utf-8", "surrogatepass")
        headers = {"Cookie": self.client.cookie_header()}
        if probe.content_type is not None and body is not None:
            headers["Content-Type"] = probe.content_type
        shown = f"{probe.method} {describe(path, 100)} " + (
            describe(body.decode("utf-8", "backslashreplace")) if body else ""
        )
        answered = self.http.check(probe.label, expect, probe.method, path, body, headers, shown)
        if answered is not None and isinstance(answered[1], dict) and path.endswith("/actions"):
            self.seat.wait_version(answered[1].get("version"))
        if self.seat.finished or self.seat.zombie:
            finish_table(self.seat, self.report, "afterwards")
            self.seat = Seat(self.client, self.game)

    def finish(self) -> None:
        """The table still plays to the end; its events and record answer 200."""
        self.http.close()
        finish_table(self.seat, self.report, "afterwards")


def run_rest(server: LiveServer, game: str, examples: int, seed: int | None = None) -> Report:
    """One REST run of ``examples`` hostile and nearly valid requests, then the play-out."""
    report = Report(f"rest {game} hostile bodies")
    started = time.monotonic()
    fuzzer = RestFuzzer(server, game, report)
    run_examples(rest_probes(game), fuzzer.check, examples, seed)
    fuzzer.finish()
    report.seconds = time.monotonic() - started
    return report


def run_schemathesis(
    server: LiveServer, signed_in: bool, per_operation: int, seed: int | None = None
) -> Report:
    """Schemathesis over ``/openapi.json``: positive and negative cases of every ``/api`` route.

    Signed in, the client is a guest seated at a Slide table vs a bot, and
    path parameters are half the time real (that table, that player, a game);
    ``POST /api/auth/logout`` is left out then (it would end the session).
    """
    import requests
    import schemathesis
    from schemathesis import GenerationMode

    report = Report(f"schemathesis {'guest' if signed_in else 'anonymous'}")
    started = time.monotonic()
    client = server.client(f"fuzz-openapi-{signed_in}")
    owner = client
    if not signed_in:
        owner = server.client("fuzz-openapi-owner")
    user = owner.guest()
    seat = Seat(owner, "slide")
    real = {"table_id": seat.table_id, "name": user["name"], "game": "slide"}
    http = KeepAlive(server, report)
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if not operation.path.startswith("/api/"):
            continue
        if signed_in and operation.path == "/api/auth/logout":
            continue
        operations.append(operation)

    def check(case: Any) -> None:
        seat.drain()
        headers = {"Cookie": client.cookie_header()} if signed_in else {}
        kwargs = case.as_transport_kwargs(base_url=server.url, headers=headers)
        prepared = requests.Request(
            method=kwargs["method"],
            url=kwargs["url"],
            headers=kwargs.get("headers"),
            params=kwargs.get("params"),
            data=kwargs.get("data"),
            json=kwargs.get("json"),
            files=kwargs.get("files"),
        ).prepare()
        parts = urlsplit(prepared.url or "")
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        body = prepared.body.encode("utf-8") if isinstance(prepared.body, str) else prepared.body
        sent_headers = {k: v for k, v in prepared.headers.items() if k.lower() != "connection"}
        shown = f"{case.method} {describe(target, 120)} " + (
            describe(body.decode("utf-8", "backslashreplace"), 160) if body else ""
        )
        label = f"{case.method} {case.path}"
        answered = http.check(label, "any", case.method, target, body, sent_headers, shown)
        if signed_in and answered is not None and case.path == "/api/auth/register":
            cookie = session_cookie(answered[0])
            if cookie is not None:  # a guest made an account: keep its new session
                client.http.cookies.set(SESSION_COOKIE, cookie)

    for operation in operations:
        modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
        strategies = [operation.as_strategy(mode) for mode in modes]
        names = [p.name for p in operation.path_parameters]
        if names and all(n in real for n in names):
            fixed = {n: real[n] for n in names}
            strategies += [operation.as_strategy(m, path_parameters=fixed) for m in modes]
        try:
            run_examples(st.one_of(strategies), check, per_operation, seed)
        except Exception as exc:  # generation trouble is schemathesis's, not the server's
            report.notes.append(f"{operation.label}: {type(exc).__name__}: {str(exc)[:120]}")
    http.close()
    finish_table(seat, report, "afterwards")
    report.notes.append(f"{len(operations)} operations, up to {per_operation} cases each")
    report.seconds = time.monotonic() - started
    return report
