"""What follows a table's change runs after it: each fact noted at once by the subscribers to
its kind, the work done in passes, never in the way of the change (:mod:`meeple.tables.facts`)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from meeple.tables.facts import ActionApplied, Fact, GameStarted, TableFacts


def table(table_id: str) -> Any:
    return SimpleNamespace(info=SimpleNamespace(id=table_id))


def moved(table_id: str) -> ActionApplied:
    return ActionApplied(table(table_id), seat=0, version=2, by="player")


def test_subscribers_note_each_fact_at_once_and_work_in_one_pass_after() -> None:
    async def scenario() -> tuple[list[str], list[list[str]], int]:
        facts = TableFacts(every_s=0.05)
        noted: list[str] = []
        passes: list[list[str]] = []
        gathered: list[str] = []

        def on_fact(fact: ActionApplied) -> None:
            noted.append(fact.table_id)
            gathered.append(fact.table_id)

        async def after_pass() -> None:
            if gathered:
                passes.append(list(gathered))
                gathered.clear()

        facts.subscribe(ActionApplied, on_fact)
        facts.each_pass(after_pass)
        facts.start()
        for n in range(5):  # five facts in one turn of the loop: noted each, done once
            facts.publish(moved(f"t{n}"))
        await asyncio.sleep(0.2)
        facts.publish(moved("late"))
        await asyncio.sleep(0.2)
        await facts.stop()
        return noted, passes, facts.failures

    noted, passes, failures = asyncio.run(scenario())
    assert noted == ["t0", "t1", "t2", "t3", "t4", "late"]
    assert passes == [["t0", "t1", "t2", "t3", "t4"], ["late"]]
    assert failures == 0


def test_a_subscriber_hears_only_the_facts_of_its_kind_and_fact_hears_them_all() -> None:
    facts = TableFacts()
    heard: dict[str, list[str]] = {"started": [], "moved": [], "all": []}
    facts.subscribe(GameStarted, lambda fact: heard["started"].append(fact.table_id))
    facts.subscribe(ActionApplied, lambda fact: heard["moved"].append(fact.table_id))
    facts.subscribe(Fact, lambda fact: heard["all"].append(type(fact).__name__))
    facts.publish(GameStarted(table("t1")))
    facts.publish(moved("t1"))
    assert heard == {"started": ["t1"], "moved": ["t1"], "all": ["GameStarted", "ActionApplied"]}
    assert facts.published == 2


def test_a_failing_subscriber_or_job_is_counted_and_the_others_still_run() -> None:
    async def scenario() -> tuple[list[str], int]:
        facts = TableFacts(every_s=0.01)
        done: list[str] = []

        def broken(fact: Fact) -> None:
            raise RuntimeError("a bug in a subscriber")

        async def broken_pass() -> None:
            raise RuntimeError("a bug in a pass")

        def fine(fact: Fact) -> None:
            done.append(f"noted {fact.table_id}")

        async def job_fails() -> None:
            raise RuntimeError("the store is gone")

        async def job_works() -> None:
            done.append("job")

        facts.subscribe(Fact, broken)
        facts.each_pass(broken_pass)
        facts.subscribe(Fact, fine)
        facts.publish(moved("t1"))  # the change itself never sees the subscriber's failure
        facts.soon(job_fails)
        facts.soon(job_works)
        await facts.settle()
        return done, facts.failures

    done, failures = asyncio.run(scenario())
    assert done == ["noted t1", "job"]
    assert failures == 3


def test_jobs_waiting_are_bounded_and_the_ones_beyond_are_dropped_and_counted() -> None:
    async def scenario() -> tuple[int, int]:
        facts = TableFacts(max_jobs=3)
        ran = 0

        async def job() -> None:
            nonlocal ran
            ran += 1

        for _ in range(5):
            facts.soon(job)
        await facts.settle()
        return ran, facts.dropped

    assert asyncio.run(scenario()) == (3, 2)


def test_stopping_does_what_is_still_due() -> None:
    async def scenario() -> list[str]:
        facts = TableFacts(every_s=10)  # the loop would not come back before the stop
        done: list[str] = []

        async def job() -> None:
            done.append("told")

        facts.start()
        await asyncio.sleep(0)
        facts.soon(job)
        facts.soon(job)
        await facts.stop()
        return done

    assert asyncio.run(scenario()) == ["told", "told"]


class FakeTable:
    """A playing two-seat table as MyTurns reads it: who sits where, whose turn it is."""

    def __init__(self, table_id: str, users: tuple[int, int]) -> None:
        seats = [
            SimpleNamespace(seat=n, user_id=u, left=False, bot_account=False)
            for n, u in enumerate(users)
        ]
        self.info = SimpleNamespace(id=table_id)
        self.owned = True
        self.turn = 0
        self.snap = SimpleNamespace(
            status="playing",
            state=None,
            seats=seats,
            seat_of=lambda user_id: next(s.seat for s in seats if s.user_id == user_id),
        )
        self.game = SimpleNamespace(to_act=lambda state: [self.turn])


def test_the_turn_counts_of_every_account_noted_in_a_pass_are_read_in_one_query() -> None:
    from meeple.tables.notices.my_turns import MyTurns

    tables = {f"t{n}": FakeTable(f"t{n}", (100 + n, 200 + n)) for n in range(30)}
    tables["shared"] = FakeTable("shared", (100, 200))  # accounts 100 and 200 sit at two tables
    reads: list[list[int]] = []
    published: list[tuple[str, dict[str, Any]]] = []

    class Store:
        async def run(self, query: Any, user_ids: list[int]) -> dict[int, list[tuple[str, int]]]:
            reads.append(list(user_ids))
            return {
                u: [(t.info.id, t.snap.seat_of(u)) for t in tables.values() if u in users_of(t)]
                for u in user_ids
            }

    class Bus:
        async def publish(self, channel: str, line: dict[str, Any]) -> None:
            published.append((channel, line))

    def users_of(t: FakeTable) -> list[int]:
        return [s.user_id for s in t.snap.seats]

    class Source:
        async def get(self, table_id: str) -> FakeTable:
            return tables[table_id]

        def current(self, table_id: str) -> FakeTable | None:
            return tables[table_id] if table_id != "shared" else None  # a copy: caught up

    async def scenario() -> None:
        turns = MyTurns(Bus(), Store(), Source())  # type: ignore[arg-type]
        for t in tables.values():  # every game starts: seat 0's turn
            turns.changed(t)  # type: ignore[arg-type]
        for t in tables.values():  # then every seat 0 moves: seat 1's turn
            t.turn = 1
            turns.changed(t)  # type: ignore[arg-type]
        await turns.tell_due()
        await turns.tell_due()  # nothing new: no read

    asyncio.run(scenario())
    assert len(reads) == 1 and sorted(reads[0]) == sorted(
        {100 + n for n in range(30)} | {200 + n for n in range(30)}
    )
    counts = {channel: line["count"] for channel, line in published}
    assert counts["user:100"] == 0 and counts["user:101"] == 0  # their turn began and ended
    assert counts["user:200"] == 2  # two tables wait for account 200
    assert counts["user:201"] == 1
    assert len(published) == 60
