"""Forwarded calls: a caller waiting on a dead owner stops waiting once the lease has moved;
a command crosses as its tag and fields and is run on the owner as the same typed command."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from meeple.bus.memory import InProcessBus
from meeple.tables.cluster.calls import Answers, CallRouter, CallTimeout, NotOwner, server_channel
from meeple.tables.commands import (
    COMMANDS,
    Act,
    AskRematch,
    Chat,
    Claim,
    Close,
    Command,
    FillWithBots,
    Join,
    Kick,
    Leave,
    Start,
    Takeback,
    command_json,
    command_of,
)

ACT = Act(user_id=1, client_id="c", action={"move": 3}, seat=None)
CHAT = Chat(user_id=1, name="alice", text="gg")


async def answer(table: Any, command: Command) -> Any:
    """The fake tables below answer a command themselves (the server runs it with Writes.here)."""
    return await table.answer(command)


def test_a_call_to_an_owner_whose_lease_moved_fails_at_once_not_at_its_time_out() -> None:
    async def scenario() -> tuple[float, int]:
        bus = InProcessBus()
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await caller.start()
        checks = 0

        async def still_owner() -> bool:
            nonlocal checks
            checks += 1
            return checks < 3  # the dead owner's lease runs out at the third look

        started = time.monotonic()
        with pytest.raises(CallTimeout):
            # "west" is dead: nobody listens on its channel.
            await caller.call(
                "west", "t1", ACT, timeout=30, still_owner=still_owner, check_every=0.05
            )
        took = time.monotonic() - started
        await caller.stop()
        return took, checks

    took, checks = asyncio.run(scenario())
    assert checks == 3
    assert took < 2  # three looks 50 ms apart, not the 30 s time-out


def test_a_slow_owner_still_holding_the_lease_is_waited_for() -> None:
    async def scenario() -> tuple[object, int]:
        bus = InProcessBus()
        checks = 0

        class SlowTable:
            owned = True

            async def answer(self, command: Command) -> str:
                await asyncio.sleep(0.3)
                return "done"

        async def find(table_id: str) -> SlowTable:
            return SlowTable()

        async def still_owner() -> bool:
            nonlocal checks
            checks += 1
            return True

        owner = CallRouter(bus, "west", find=find)  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start(answer)  # type: ignore[arg-type]
        await caller.start()
        result = await caller.call(
            "west", "t1", ACT, timeout=5, still_owner=still_owner, check_every=0.05
        )
        await caller.stop()
        await owner.stop()
        return result, checks

    result, checks = asyncio.run(scenario())
    assert result == "done"
    assert checks >= 3  # it looked at the lease while it waited, and kept waiting


def test_an_owner_answering_tells_where_its_clients_reach_it_and_a_silent_one_is_forgotten() -> (
    None
):
    async def scenario() -> tuple[dict[str, str], dict[str, str]]:
        bus = InProcessBus()

        class Table:
            owned = True

            async def answer(self, command: Command) -> str:
                return "done"

        async def find(table_id: str) -> Table:
            return Table()

        owner = CallRouter(bus, "west", find=find, public_url="https://play.example/west")  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start(answer)  # type: ignore[arg-type]
        await caller.start()
        assert await caller.call("west", "t1", ACT, timeout=5) == "done"
        heard = dict(caller.addresses)
        await owner.stop()  # west dies
        with pytest.raises(CallTimeout):
            await caller.call("west", "t1", ACT, timeout=0.2)
        await caller.stop()
        return heard, caller.addresses

    heard, after = asyncio.run(scenario())
    assert heard == {"west": "https://play.example/west"}
    assert after == {}


@pytest.mark.redis
def test_callers_waiting_on_one_server_share_one_look_at_its_leases() -> None:
    """A thousand calls waiting on a dead server ask Redis about it a few times a second, not
    once each; once its leases run out they all hear it."""
    import redis.asyncio as aioredis
    from server_harness import require_redis, run_async

    from meeple.tables.cluster.owners import LOOK_AGAIN_S, RedisLeases

    url = require_redis()

    async def scenario() -> tuple[list[bool], list[bool], int, float]:
        client = aioredis.Redis.from_url(url)
        lease_s = 2.0  # long enough that a loaded machine renews it in time while alive
        owner = RedisLeases(client, lease_s, url)
        caller = RedisLeases(client, lease_s, url)
        tables = [f"look-test-{time.time_ns()}-{n}" for n in range(1000)]
        looks = 0
        real_owner_of = caller.owner_of

        async def counted_owner_of(table_id: str) -> str | None:
            nonlocal looks
            looks += 1
            return await real_owner_of(table_id)

        caller.owner_of = counted_owner_of  # type: ignore[method-assign]
        try:
            assert await owner.acquire_many(tables) == tables
            asking = 0.0  # time spent in the two waves of calls: a stalled loop may look again
            started = time.monotonic()
            alive = await asyncio.gather(*(caller.still_holds(owner.server_id, t) for t in tables))
            asking += time.monotonic() - started
            owner.close()  # it dies: nothing renews its leases
            await asyncio.sleep(lease_s + LOOK_AGAIN_S)
            started = time.monotonic()
            dead = await asyncio.gather(*(caller.still_holds(owner.server_id, t) for t in tables))
            asking += time.monotonic() - started
            return alive, dead, looks, asking
        finally:
            caller.close()
            await client.aclose()

    alive, dead, looks, asking = run_async(scenario())
    assert all(alive) and not any(dead)
    # One look per wave, plus one per LOOK_AGAIN_S the waves took on a loaded machine.
    assert 2 <= looks <= 2 + int(asking / LOOK_AGAIN_S)


def test_a_call_sent_again_under_its_id_runs_once_and_every_send_gets_its_answer() -> None:
    """A late answer makes the caller send the call again: the owner runs it once, answers
    the repeat that came while it ran and the one that came after from memory."""

    async def scenario() -> tuple[list[object], int, dict[str, int], dict[str, int]]:
        bus = InProcessBus()
        runs = 0

        class Table:
            owned = True

            async def answer(self, command: Command) -> int:
                nonlocal runs
                runs += 1
                await asyncio.sleep(0.3)  # slower than the caller's time-out below
                return runs

        async def find(table_id: str) -> Table:
            return Table()

        owner = CallRouter(bus, "west", find=find)  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start(answer)  # type: ignore[arg-type]
        await caller.start()
        answers: list[object] = []
        with pytest.raises(CallTimeout):
            await caller.call("west", "t1", CHAT, timeout=0.1, call_id="c1")
        # Sent again while the first send still runs, then once more after it ran.
        answers.append(await caller.call("west", "t1", CHAT, timeout=5, call_id="c1", again=True))
        answers.append(await caller.call("west", "t1", CHAT, timeout=5, call_id="c1", again=True))
        # Another call (another id) runs.
        answers.append(await caller.call("west", "t1", CHAT, timeout=5))
        await caller.stop()
        await owner.stop()
        return answers, runs, caller.stats.to_json(), owner.stats.to_json()

    answers, runs, sent, answered = asyncio.run(scenario())
    assert answers == [1, 1, 2]
    assert runs == 2
    assert sent["sent"] == 4 and sent["sent_again"] == 2 and sent["timed_out"] == 1
    assert answered["answered"] == 2 and answered["answered_again"] == 2


def test_an_answer_that_the_table_is_not_owned_is_not_kept() -> None:
    """'Not the owner' ran nothing: the same call sent again once the server owns the table runs."""

    async def scenario() -> list[object]:
        bus = InProcessBus()

        class Table:
            owned = False

            async def answer(self, command: Command) -> str:
                return "ran"

        table = Table()

        async def find(table_id: str) -> Table:
            return table

        owner = CallRouter(bus, "west", find=find)  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start(answer)  # type: ignore[arg-type]
        await caller.start()
        answers: list[object] = []
        try:
            await caller.call("west", "t1", CHAT, timeout=5, call_id="c2")
        except NotOwner:
            answers.append("not owner")
        table.owned = True
        answers.append(await caller.call("west", "t1", CHAT, timeout=5, call_id="c2", again=True))
        await caller.stop()
        await owner.stop()
        return answers

    assert asyncio.run(scenario()) == ["not owner", "ran"]


def test_the_answers_kept_are_bounded_by_age_and_count() -> None:
    async def scenario() -> list[int]:
        answers = Answers(keep_s=60, most=3)
        loop = asyncio.get_running_loop()
        sizes = []
        for n in range(5):
            answers.keep(f"c{n}", loop.create_future())
            sizes.append(len(answers))
        assert answers.get("c0") is None and answers.get("c4") is not None
        aged = Answers(keep_s=0.0, most=100)
        aged.keep("old", loop.create_future())
        await asyncio.sleep(0.01)
        aged.keep("new", loop.create_future())
        sizes.append(len(aged))
        return sizes

    assert asyncio.run(scenario()) == [1, 2, 3, 3, 3, 1]


EVERY_COMMAND: list[Command] = [
    Join(user_id=1, name="alice", seat=None),
    Join(user_id=2, name="bob", seat=1),
    Leave(user_id=1),
    Kick(user_id=1, seat=2),
    FillWithBots(user_id=None),
    FillWithBots(user_id=1, level="expert"),
    Start(user_id=1),
    Close(user_id=1),
    Act(user_id=1, client_id=None, action=[[0, 1], {"to": "e4"}], seat=0),
    ACT,
    CHAT,
    AskRematch(user_id=1),
    Claim(guest_id=7, user_id=1, name="alice"),
    Takeback(user_id=1, answer="accept"),
]


def test_every_command_crosses_the_bus_as_its_tag_and_fields_and_comes_back_the_same() -> None:
    assert {type(command) for command in EVERY_COMMAND} == set(COMMANDS.values())
    for command in EVERY_COMMAND:
        tag, fields = command_json(command)
        carried = json.loads(json.dumps({"op": tag, "args": fields}))  # as Redis carries it
        back = command_of(carried["op"], carried["args"])
        assert type(back) is type(command) and back == command


def test_a_call_naming_no_command_runs_nothing_and_the_owner_runs_the_same_typed_command() -> None:
    """The owner reads a call back through the closed table of commands: a tag outside it (a
    method of the table, a typo) or fields the command has not are refused ``unavailable``
    without running anything; a command runs as the object the caller sent."""

    async def scenario() -> tuple[list[dict[str, Any]], list[Command], list[object]]:
        bus = InProcessBus()
        ran: list[Command] = []

        class Table:
            owned = True

            async def answer(self, command: Command) -> Any:
                ran.append(command)
                return (7, False) if isinstance(command, Act) else None

        async def find(table_id: str) -> Table:
            return Table()

        owner = CallRouter(bus, "west", find=find)  # type: ignore[arg-type]
        caller = CallRouter(bus, "east", find=None)  # type: ignore[arg-type]
        await owner.start(answer)  # type: ignore[arg-type]
        await caller.start()
        probe = await bus.subscribe(server_channel("probe"))
        refused = []
        for n, (op, args) in enumerate(
            [("write", {"kind": "close"}), ("acts", {"user_id": 1}), ("leave", {"seat": 1})]
        ):
            call = {"type": "call", "id": f"f{n}", "from": "probe", "table": "t1"}
            await bus.publish(server_channel("west"), {**call, "op": op, "args": args})
            refused.append(await asyncio.wait_for(probe.get(), 5))
        answers = [await caller.call("west", "t1", command, timeout=5) for command in EVERY_COMMAND]
        await probe.close()
        await caller.stop()
        await owner.stop()
        return refused, ran, answers

    refused, ran, answers = asyncio.run(scenario())
    assert [reply["error"]["code"] for reply in refused] == ["unavailable"] * 3
    assert ran == EVERY_COMMAND
    assert [type(command) for command in ran] == [type(command) for command in EVERY_COMMAND]
    assert ACT.result_of(answers[EVERY_COMMAND.index(ACT)]) == (7, False)
