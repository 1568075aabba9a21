"""The Python SDK (``meeple.client``) against a live server: every call over real HTTP.

The bot account opens its own tables against built-in bots (a token with
``bot:play`` may), plays from the game stream's ``legal`` lines, and the
lines it got pass the socket tests' secret check. A TCP proxy between the
SDK and the server cuts the connections mid-game: the streams come back with
nothing missed or doubled, and an action cut in flight is applied once.
"""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from bot_api_support import bot_account, check_stream_secrets, consecutive, record_of
from server_harness import GAMES, LiveServer, make_settings, run_async, start_server
from tcp_proxy import TcpProxy

from meeple.client import (
    AuthError,
    Backoff,
    ForbiddenError,
    GameError,
    MeepleClient,
    MeepleError,
    NotFoundError,
    RateLimited,
)
from meeple.games.base import replay


async def open_table(client: MeepleClient, game: str, seats: int = 2) -> str:
    """A table the bot account opens at seat 0, the other seats built-in bots, started."""
    bots = {str(seat): "greedy" for seat in range(1, seats)}
    answer = await client.request(
        "POST", "/api/tables", {"game": game, "seats": seats, "bots": bots}
    )
    table_id: str = answer["table"]["id"]
    await client.request("POST", f"/api/tables/{table_id}/start")
    return table_id


async def play(
    client: MeepleClient, table_id: str, cut: Any = None, cut_after: int = 3
) -> tuple[list[dict[str, Any]], Any]:
    """Play the table to the end with random legal actions; every line, and the stream.

    ``cut()`` is called just before the ``cut_after``-th action is sent: that action
    goes out on a connection the cut hit, and the stream's connection is hit too."""
    stream = client.game(table_id, backoff=Backoff((0.05,)))
    rng = random.Random(5)
    lines: list[dict[str, Any]] = []
    acted, acted_through = 0, 0
    async for line in stream:
        lines.append(dict(line))
        legal = line.get("legal")
        # A line sent before our own action's event may still ask (Slide's reveal is
        # simultaneous): only that event's line, or a later one, asks anew.
        if legal and line["version"] >= acted_through:  # type: ignore[typeddict-item]
            if line["type"] == "event":
                assert stream.seat in line["to_act"]
            acted += 1
            if cut is not None and acted == cut_after:
                cut()
            acted_through = (await client.act(table_id, rng.choice(legal)))["version"]
    return lines, stream


def test_the_account_and_the_refusals_carry_the_server_code(server: LiveServer) -> None:
    _, token = bot_account(server, "robo")
    _, read_only = bot_account(server, "reader", scopes=("games:read",))

    async def main() -> None:
        async with MeepleClient(server.url, token) as client:
            me = await client.account()
            assert me["name"] == "robo" and me["bot"] is True
            table_id = await open_table(client, "summy")
            with pytest.raises(NotFoundError) as missing:
                await client.table("no-such-table")
            assert missing.value.code == "no_table" and missing.value.status == 404
            assert missing.value.family == "not_found"
            # Once it is the bot's turn (the deal may give the first move to the other seat),
            # an action the game cannot read is refused as such, not as out of turn.
            async for line in client.game(table_id):
                if line.get("legal"):
                    break
            with pytest.raises(GameError) as illegal:
                await client.act(table_id, {"type": "nonsense"})
            assert illegal.value.status in (400, 422)
            assert illegal.value.family in ("illegal", "request", "invalid")
        async with MeepleClient(server.url, "meeple_not-a-token") as stranger:
            with pytest.raises(AuthError) as bad:
                await stranger.account()
            assert bad.value.code == "bad_token" and bad.value.status == 401
        async with MeepleClient(server.url, read_only) as reader:
            with pytest.raises(ForbiddenError) as scope:
                await reader.act(table_id, {"type": "pass"})
            assert scope.value.code == "token_scope"
            assert isinstance(scope.value, MeepleError)

    run_async(main())


@pytest.mark.parametrize(("game", "seats"), [("summy", 2), ("slide", 4)])
def test_a_game_played_from_the_stream_ends_as_its_record_replays(
    server: LiveServer, game: str, seats: int
) -> None:
    person, token = bot_account(server, f"sdk-{game}")

    async def main() -> tuple[str, list[dict[str, Any]], int | None]:
        async with MeepleClient(server.url, token) as client:
            table_id = await open_table(client, game, seats)
            lines, stream = await play(client, table_id)
            return table_id, lines, stream.seat

    table_id, lines, seat = run_async(main())
    assert lines[0]["type"] == "hello" and seat == 0
    finish = lines[-1]
    assert finish["type"] == "event" and finish["kind"] == "finish"
    consecutive(lines)
    states = replay(GAMES[game], record_of(person, table_id))
    assert finish["data"]["result"] == GAMES[game].result(states[-1]).to_json()  # type: ignore[union-attr]
    # `legal` came only on lines after which seat 0 had to act, and on each such line that
    # was the table's newest when sent (docs/bot-api.md): one without it was overtaken by a
    # later version (the bots of a Slide table act while seat 0 still has to).
    for number, line in enumerate(lines):
        to_act = line["table"]["to_act"] if line["type"] == "hello" else line.get("to_act", [])
        if "legal" in line:
            assert 0 in to_act and line is not finish, line
        elif 0 in to_act and line is not finish:
            later = [other["version"] for other in lines[number + 1 :] if "version" in other]
            assert later and max(later) > line["version"], line
    assert check_stream_secrets(person, table_id, lines, 0) >= len(lines) - 2


def test_an_action_id_applies_once(server: LiveServer) -> None:
    _, token = bot_account(server, "twice")

    async def main() -> None:
        async with MeepleClient(server.url, token) as client:
            table_id = await open_table(client, "summy")
            hello = await anext(aiter(client.game(table_id)))
            first = await client.act(table_id, hello["legal"][0], action_id="same-id")
            again = await client.act(table_id, hello["legal"][0], action_id="same-id")
            assert first == {"version": hello["version"] + 1, "duplicate": False}
            assert again == {"version": first["version"], "duplicate": True}

    run_async(main())


def test_streams_cut_mid_game_come_back_with_nothing_missed_or_doubled(
    server: LiveServer,
) -> None:
    person, token = bot_account(server, "cutter")
    proxy = TcpProxy(server.url)

    async def main() -> tuple[str, list[dict[str, Any]], Any, list[dict[str, Any]]]:
        async with MeepleClient(proxy.url, token, idle_s=10) as client:
            events = client.events(backoff=Backoff((0.05,)))
            seen: list[dict[str, Any]] = []

            async def read_events() -> None:
                async for event in events:
                    seen.append(dict(event))

            reader = asyncio.create_task(read_events())
            table_id = await open_table(client, "summy")
            lines, stream = await play(client, table_id, cut=proxy.cut)
            for _ in range(200):
                if sum(e["type"] == "game_finish" for e in seen) and events.reconnects:
                    break
                await asyncio.sleep(0.05)
            events.close()
            reader.cancel()
            return table_id, lines, stream, seen

    try:
        table_id, lines, stream, seen = run_async(main())
    finally:
        proxy.close()
    assert proxy.cuts == 1 and stream.reconnects >= 1 and stream.duplicates == 0
    assert lines[-1]["kind"] == "finish"
    assert [line["type"] for line in lines].count("resume") >= 1
    consecutive([line for line in lines if line["type"] != "resume"])
    assert check_stream_secrets(person, table_id, lines, 0) > 0
    # The event stream came back too, and told of the game again while it ran.
    starts = [e for e in seen if e["type"] == "game_start"]
    assert starts and all(e["table_id"] == table_id and e["seat"] == 0 for e in starts)
    assert [e["table_id"] for e in seen if e["type"] == "game_finish"] == [table_id]


def test_the_backoff_grows_spreads_and_resets() -> None:
    backoff = Backoff(rng=random.Random(3))
    waits = [backoff.next_delay() for _ in range(7)]
    for wait, base in zip(waits, (0.5, 1, 2, 4, 8, 8, 8), strict=True):
        assert 0.5 * base <= wait <= 1.5 * base
    backoff.reset()
    assert backoff.next_delay() <= 0.75


def test_challenges_from_a_person_told_on_the_event_stream_and_answered(
    server: LiveServer,
) -> None:
    _, token = bot_account(server, "answerer")
    ada = server.client("ada")
    ada.register("ada")

    async def main() -> None:
        async with MeepleClient(server.url, token) as client:
            events = client.events(accept=["summy"])
            lines = aiter(events)
            first = ada.post("/api/challenges", {"to": "answerer", "game": "summy"}, 201)
            told = await anext(lines)
            assert told["type"] == "challenge" and told["challenge"]["id"] == first["id"]
            assert told["challenge"]["from"]["name"] == "ada"
            declined = await client.decline(first["id"], "later")
            assert (declined["status"], declined["reason"]) == ("declined", "later")
            assert (await anext(lines))["type"] == "challenge_declined"
            with pytest.raises(MeepleError) as closed:
                await client.accept(first["id"])
            assert closed.value.code == "challenge_closed" and closed.value.status == 409
            with pytest.raises(NotFoundError) as none:
                await client.accept("no-such-challenge")
            assert none.value.code == "no_challenge"
            second = ada.post("/api/challenges", {"to": "answerer", "game": "summy"}, 201)
            assert (await anext(lines))["challenge"]["id"] == second["id"]
            assert [c["id"] for c in await client.challenges()] == [second["id"]]
            table_id = await client.accept(second["id"])
            assert (await client.get_challenge(second["id"]))["table_id"] == table_id
            start = await anext(lines)
            while start["type"] != "game_start":
                start = await anext(lines)
            assert start["table_id"] == table_id and start["game"] == "summy"
            # And the bot challenges a person, then takes it back.
            mine = await client.challenge("ada", "slide", {"players": 3}, fill="random")
            assert mine["to"]["name"] == "ada" and mine["status"] == "open"
            assert (await client.cancel(mine["id"]))["status"] == "cancelled"
            events.close()

    run_async(main())


def test_a_silent_stream_is_taken_for_dead_and_an_action_sent_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="meeple.client")
    # Keep-alives every 0.2 s: a stream silent for a second is dead, not quiet.
    server = start_server(make_settings(tmp_path, stream_keepalive_s=0.2))
    proxy = TcpProxy(server.url)
    try:
        person, token = bot_account(server, "silenced")

        async def main() -> tuple[str, list[dict[str, Any]], Any]:
            async with MeepleClient(proxy.url, token, idle_s=1.0, timeout=2.0) as client:
                table_id = await open_table(client, "summy")
                lines, stream = await play(client, table_id, cut=proxy.freeze)
                return table_id, lines, stream

        table_id, lines, stream = run_async(main())
        assert stream.reconnects >= 1 and stream.duplicates == 0
        assert lines[-1]["kind"] == "finish"
        consecutive([line for line in lines if line["type"] != "resume"])
        assert check_stream_secrets(person, table_id, lines, 0) > 0
        # The action posted on a silenced connection got no answer and was sent once more.
        assert "sending it again" in caplog.text
    finally:
        proxy.close()
        server.stop()


def test_a_token_over_its_limit_is_told_how_long_to_wait(tmp_path: Path) -> None:
    server = start_server(make_settings(tmp_path, limit_api="3/minute"))
    try:
        _, token = bot_account(server, "chatty")

        async def main() -> RateLimited:
            async with MeepleClient(server.url, token) as client:
                table_id = await open_table(client, "summy")
                for _ in range(3):
                    await client.chat(table_id, "hello")
                with pytest.raises(RateLimited) as refused:
                    await client.chat(table_id, "once more")
                return refused.value

        refused = run_async(main())
    finally:
        server.stop()
    assert (refused.status, refused.code) == (429, "rate_limited")
    assert 0 < refused.retry_after <= 60
