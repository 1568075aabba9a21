"""Bot accounts over real HTTP: turning an account into one (one way, before it plays), the
bot flag in every user JSON and seat, the two leaderboards, and the rated-vs-people setting."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
from secrets_check import check_messages
from server_harness import GAMES, Client, LiveServer, make_settings, running

from meeple.games.base import GameRecord, replay
from meeple.store.models import Rating, User
from meeple.tables.core.log import SeatInfo
from meeple.tables.core.ratings import rates_anyone


def bot_account(server: LiveServer, name: str) -> tuple[dict[str, Any], httpx.Client]:
    """A new bot account and a client signed in with its bot:play token."""
    owner = server.client(name)
    owner.register(name)
    user: dict[str, Any] = owner.post("/api/account/bot")
    token = owner.post("/api/account/tokens", {"label": "bot", "scopes": ["bot:play"]}, 201)
    program = httpx.Client(
        base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {token['token']}"}
    )
    return user, program


def test_an_account_that_has_not_played_becomes_a_bot_for_good(server: LiveServer) -> None:
    owner = server.client("owner")
    person = owner.register("DeepSlide")
    assert person["bot"] is False
    became = owner.post("/api/account/bot")
    assert became == {**person, "bot": True}
    assert owner.get("/api/auth/me")["bot"] is True
    assert owner.get("/api/users/DeepSlide")["user"]["bot"] is True
    assert owner.post("/api/account/bot") == became  # (once a bot, always)
    row = server.services.db.call(lambda s: s.get(User, person["id"]))
    assert row.bot is True


def test_an_account_that_sat_down_or_a_guest_cannot_become_a_bot(server: LiveServer) -> None:
    ada = server.client("ada")
    ada.register("Ada")
    ada.create_table(game="slide", seats=2)
    refused = ada.post("/api/account/bot", expect=409)
    assert refused["code"] == "has_played"
    assert ada.get("/api/auth/me")["bot"] is False
    guest = server.client("guest")
    guest.guest()
    assert guest.post("/api/account/bot", expect=409)["code"] == "guest_no_account"
    assert server.client("nobody").post("/api/account/bot", expect=401)["code"] == "sign_in"


def test_seats_and_the_lobby_carry_the_bot_account_flag(server: LiveServer) -> None:
    bot, program = bot_account(server, "DeepSlide")
    created = program.post("/api/tables", json={"game": "slide", "seats": 2})
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    assert table["seats"][0] == {**table["seats"][0], "user_id": bot["id"], "bot_account": True}
    assert table["seats"][1]["bot_account"] is False
    ada = server.client("ada")
    me = ada.register("Ada")
    joined = ada.post(f"/api/tables/{table['id']}/join", {})
    seats = {s["user_id"]: s["bot_account"] for s in joined["table"]["seats"]}
    assert seats == {bot["id"]: True, me["id"]: False}
    lobby = {t["id"]: t for t in ada.get("/api/tables")}
    assert [s["bot_account"] for s in lobby[table["id"]]["seats"]] == [True, False]
    profile = ada.get("/api/users/Ada")["recent_tables"][0]["players"]
    assert [p["bot_account"] for p in profile] == [True, False]
    program.close()


def test_the_people_and_the_bots_have_their_own_leaderboards(server: LiveServer) -> None:
    bot, program = bot_account(server, "DeepSlide")
    ada = server.client("ada")
    me = ada.register("Ada")

    def rate(session: Any) -> None:
        for user_id, mu in ((bot["id"], 30.0), (me["id"], 26.0)):
            session.add(Rating(user_id=user_id, game="slide", mu=mu, sigma=2.0, games=12, wins=6))

    server.services.db.call(rate)
    people = ada.get("/api/leaderboard/slide")
    assert [(line["name"], line["bot"]) for line in people] == [("Ada", False)]
    bots = ada.get("/api/leaderboard/slide", bots="true")
    assert [(line["place"], line["name"], line["bot"]) for line in bots] == [(1, "DeepSlide", True)]
    program.close()


def seats_of(*accounts: bool) -> list[SeatInfo]:
    return [SeatInfo(n, user_id=n + 1, name=f"p{n}", bot_account=a) for n, a in enumerate(accounts)]


def test_the_setting_decides_whether_bots_and_people_are_rated_together() -> None:
    mixed, bots, people = seats_of(True, False), seats_of(True, True), seats_of(False, False)
    assert rates_anyone(True, mixed) and rates_anyone(True, mixed, bots_vs_people=True)
    assert not rates_anyone(True, mixed, bots_vs_people=False)
    assert rates_anyone(True, bots, bots_vs_people=False)
    assert rates_anyone(True, people, bots_vs_people=False)
    assert not rates_anyone(False, mixed)


def test_a_server_that_keeps_bots_unrated_against_people_says_so(tmp_path: Path) -> None:
    for setting, rated in ((True, True), (False, False)):
        folder = tmp_path / str(setting)
        folder.mkdir()
        settings = make_settings(folder, bots_rated_vs_people=setting)
        with running(settings) as server:
            _bot, program = bot_account(server, "DeepSlide")
            created = program.post(
                "/api/tables", json={"game": "slide", "seats": 2, "rated": True}
            ).json()["table"]
            ada = server.client("ada")
            ada.register("Ada")
            joined = ada.post(f"/api/tables/{created['id']}/join", {})["table"]
            assert (joined["rated"], joined["unrated_by_bots"]) == (rated, not rated)
            program.close()


def test_a_bot_accounts_socket_only_watches(server: LiveServer) -> None:
    """A bot account plays through the API: its socket, even at its own seat, watches."""
    _bot, program = bot_account(server, "DeepSlide")
    table = program.post("/api/tables", json={"game": "slide", "seats": 2}).json()["table"]
    owner = server.clients[0]
    sock = owner.connect(table["id"])
    hello = sock.recv()
    assert hello["type"] == "hello" and hello["seat"] is None
    sock.send({"type": "chat", "text": "hello"})
    refused = sock.recv_until(lambda m: m.get("type") == "error")
    assert refused["code"] == "sign_in"
    program.close()


def first_line(http: httpx.Client, table_id: str) -> dict[str, Any]:
    """The game stream's first line for the caller's seat (its hello: the view, and
    ``legal`` when the seat must act)."""
    with http.stream("GET", f"/api/stream/game/{table_id}") as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if line.strip():
                found: dict[str, Any] = json.loads(line)
                return found
    raise AssertionError("the stream ended before its first line")


def check_stream_secrets(
    client: Client, table_id: str, lines: list[dict[str, Any]], seat: int
) -> int:
    """The socket tests' secret check on the stream lines a seat read (a finished game);
    how many views were checked."""
    game = GAMES[client.get(f"/api/tables/{table_id}")["table"]["game"]]
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record"))
    versions: dict[int, int] = {}
    actions: dict[int, Any] = {}
    count, started = 0, False
    for event in client.get(f"/api/tables/{table_id}/events"):
        started = started or event["kind"] == "start"
        if event["kind"] == "action":
            actions[event["version"]] = record.actions[count][1]
            count += 1
        if started:
            versions[event["version"]] = count
    return check_messages(game, replay(game, record), versions, actions, lines, seat)


def play_through_the_api(
    players: list[httpx.Client], table_id: str
) -> dict[int, list[dict[str, Any]]]:
    """Each player reads its seat's hello and plays a random legal action when it must act,
    until the game is over (a bot account and a person alike, through the Bot API); the
    lines each seat read."""
    chooser = random.Random(7)
    lines: dict[int, list[dict[str, Any]]] = {}
    for turn in range(2000):
        acted = False
        for http in players:
            hello = first_line(http, table_id)
            if hello["table"]["status"] == "finished":
                return lines
            lines.setdefault(hello["seat"], []).append(hello)
            if hello.get("legal"):
                body = {"id": f"a{turn}", "action": chooser.choice(hello["legal"])}
                answer = http.post(f"/api/tables/{table_id}/actions", json=body)
                assert answer.status_code == 200, answer.text
                acted = True
        assert acted or turn == 0, "nobody could act"
    raise AssertionError("the game did not finish")


def test_a_rated_game_between_a_bot_and_a_person_rates_them_as_the_setting_says(
    tmp_path: Path,
) -> None:
    for setting in (True, False):
        folder = tmp_path / f"rated-{setting}"
        folder.mkdir()
        with running(make_settings(folder, bots_rated_vs_people=setting)) as server:
            _bot, program = bot_account(server, "DeepSlide")
            table = program.post(
                "/api/tables", json={"game": "slide", "seats": 2, "rated": True}
            ).json()["table"]
            ada = server.client("ada")
            ada.register("Ada")
            ada.post(f"/api/tables/{table['id']}/join", {})
            program.post(f"/api/tables/{table['id']}/start").raise_for_status()
            lines = play_through_the_api([program, ada.http], table["id"])
            for seat, seen in lines.items():
                assert check_stream_secrets(ada, table["id"], seen, seat) == len(seen)
            people = [line["name"] for line in ada.get("/api/leaderboard/slide")]
            bots = [line["name"] for line in ada.get("/api/leaderboard/slide", bots="true")]
            assert (people, bots) == ((["Ada"], ["DeepSlide"]) if setting else ([], []))
            program.close()
