"""The shared session checks: fresh verdicts reused, old ones refreshed together."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from meeple.store.sessions import users_of_sessions
from meeple.web.session_checks import SessionChecks


class FakeStore:
    """Answers ``open_sessions`` from a set of open token hashes, counting the queries."""

    def __init__(self, open_hashes: set[str]) -> None:
        self.open = open_hashes
        self.asked: list[list[str]] = []

    async def run(self, query: Any, token_hashes: list[str], _now: float) -> Any:
        self.asked.append(token_hashes)
        await asyncio.sleep(0)
        if query is users_of_sessions:
            return {h: f"user of {h}" for h in token_hashes if h in self.open}
        return {h for h in token_hashes if h in self.open}


def test_sockets_asking_within_the_allowed_age_share_one_query_and_a_closing_is_seen() -> None:
    store = FakeStore({f"t{n}" for n in range(100)})
    checks = SessionChecks(store, lambda: 0.0)  # type: ignore[arg-type]

    async def scenario() -> None:
        first = await asyncio.gather(*(checks.still_open(f"t{n}", 0.5) for n in range(100)))
        assert all(first) and len(store.asked) == 1
        store.open.discard("t7")  # signed out
        again = [await checks.still_open(f"t{n}", 0.5) for n in range(100)]
        assert all(again) and len(store.asked) == 1  # fresh enough: no query at all
        await asyncio.sleep(0.3)
        assert await checks.still_open("t1", 0.5) is True and len(store.asked) == 1
        await asyncio.sleep(0.3)  # t1 is now too old: its query refreshes every old verdict
        assert await checks.still_open("t1", 0.5) is True
        assert len(store.asked) == 2 and set(store.asked[1]) == {f"t{n}" for n in range(100)}
        assert await checks.still_open("t7", 0.5) is False  # refreshed with t1's query
        assert await checks.still_open("t7", 0.0) is False and len(store.asked) == 3
        assert await checks.still_open("unknown", 0.5) is False

    asyncio.run(scenario())


def test_a_failed_query_fails_only_its_askers_and_the_next_one_asks_again() -> None:
    store = FakeStore({"a"})
    checks = SessionChecks(store, lambda: 0.0)  # type: ignore[arg-type]
    real_run = store.run

    async def broken(*_args: Any) -> set[str]:
        raise OSError("the store went away")

    async def scenario() -> None:
        store.run = broken  # type: ignore[method-assign]
        with pytest.raises(OSError):
            await checks.still_open("a", 5.0)
        store.run = real_run  # type: ignore[method-assign]
        assert await checks.still_open("a", 5.0) is True

    asyncio.run(scenario())


def test_sockets_opening_together_find_their_users_in_one_fresh_query() -> None:
    """A thousand players reconnecting at once cost one query, and a socket opening after a
    sign-out is never let in on a verdict from before it (each asks after it came)."""
    store = FakeStore({f"t{n}" for n in range(1000)})
    checks = SessionChecks(store, lambda: 0.0)  # type: ignore[arg-type]

    async def scenario() -> None:
        users = await asyncio.gather(*(checks.user_of(f"t{n}") for n in range(1000)))
        assert users == [f"user of t{n}" for n in range(1000)] and len(store.asked) == 1
        store.open.discard("t7")  # signed out
        assert await checks.user_of("t7") is None and len(store.asked) == 2
        assert await checks.still_open("t7", 5.0) is False  # the lookup was a verdict too
        assert await checks.still_open("t8", 5.0) is True and len(store.asked) == 2

    asyncio.run(scenario())


def test_a_query_refreshes_only_the_old_verdicts_and_forgets_the_sessions_nobody_asks_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from meeple.web import session_checks

    clock = [0.0]
    monkeypatch.setattr(session_checks, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    store = FakeStore({f"t{n}" for n in range(10)})
    checks = SessionChecks(store, lambda: 0.0)  # type: ignore[arg-type]

    async def ask_at(at: float, *token_hashes: str) -> None:
        clock[0] = at
        assert all(await asyncio.gather(*(checks.still_open(t, 1.0) for t in token_hashes)))

    async def scenario() -> None:
        await ask_at(0.0, "t0", "t1", "t2")
        await ask_at(0.3, "t3")  # nothing is half a second old yet
        await ask_at(0.7, "t4")  # t0-t2 are, t3 is not
        await ask_at(0.8, "t3")  # fresh enough: no query
        await ask_at(session_checks.FORGET_AFTER_S + 1.0, "t5")  # t0-t4 long unasked
        await ask_at(session_checks.FORGET_AFTER_S + 1.7, "t6")  # t5 is old now

    asyncio.run(scenario())
    assert [sorted(q) for q in store.asked] == [
        ["t0", "t1", "t2"],
        ["t3"],
        ["t0", "t1", "t2", "t4"],
        ["t5"],
        ["t5", "t6"],
    ]
