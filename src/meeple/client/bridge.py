"""The bridge: any :class:`meeple.games.kit.bots.Bot` plays on a server through the Bot API.

This is what ``meeple bot run`` runs. It listens to the account's event
stream: a challenge for a game it plays is accepted (any other is declined
with the reason ``variant``), and every ``game_start`` opens the game's
stream and plays the seat to the end. With a :class:`Seek`, it also opens
tables itself, the other seats filled with the site's built-in bots.

The bots are made as the arena makes them: a factory ``(game, seed) -> Bot``
(:func:`builtin_bots` for a level of the registry, :func:`module_bots` for a
``module:Class`` whose class takes the seed, as the registry's classes do),
so a bot written for the arena plays here unchanged. Each move it gets the
seat's view and a budget from the table's move clock, in a thread so the
streams keep being read while it thinks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from meeple.bots import games_with_bot, get_bot, levels_for
from meeple.client.client import MeepleClient, new_action_id
from meeple.client.errors import AuthError, ForbiddenError, GameError, MeepleError
from meeple.client.lines import AccountEvent, GameLine
from meeple.client.streams import EventStream, GameStream
from meeple.games.kit.bots import Bot

log = logging.getLogger("meeple.bridge")

BotFactory = Callable[[str, int], Bot]
"""Makes the bot for one game: ``factory(game, seed)``."""

BUDGET_SHARE = 0.25
"""The share of a move clock a bot may think for (the rest covers the network and slack)."""


class BridgeError(Exception):
    """The bridge cannot run as asked (an unknown bot, a module that is not a bot)."""


def builtin_bots(level: str) -> tuple[BotFactory, set[str]]:
    """The built-in bots of ``level`` (one per game), and the games that have one."""
    games = set(games_with_bot(level))
    if not games:
        raise BridgeError(f"no built-in bot of level {level!r}")
    return (lambda game, seed: get_bot(game, level, seed)), games


def module_bots(wheres: Iterable[str]) -> tuple[BotFactory, set[str]]:
    """Bots from ``module:Class`` names, each class made with a seed as the arena's are
    (``Class(seed)``); its ``game`` attribute says which game it plays."""
    classes: dict[str, Callable[[int], Bot]] = {}
    for where in wheres:
        module_name, _, name = where.partition(":")
        if not module_name or not name:
            raise BridgeError(f"--module takes module:Class, not {where!r}")
        if "" not in sys.path:
            sys.path.insert(0, "")  # as `python -m`: the current folder's modules
        try:
            made = getattr(import_module(module_name), name)
        except (ImportError, AttributeError) as exc:
            raise BridgeError(f"cannot load {where}: {exc}") from exc
        game = getattr(made, "game", None) or getattr(made(0), "game", None)
        if not isinstance(game, str) or not callable(getattr(made(0), "choose", None)):
            raise BridgeError(f"{where} is not a bot: it needs a game and choose(view, seat, s)")
        classes[game] = made
    return (lambda game, seed: classes[game](seed)), set(classes)


def bot_seed(table_id: str, seat: int) -> int:
    """The seed of the bot at ``seat`` of ``table_id``: fixed, so a restart plays the same."""
    return random.Random(f"bridge:{table_id}:{seat}").getrandbits(62)


@dataclass(frozen=True)
class Seek:
    """Tables the bridge opens itself: ``games`` tables of ``game`` with ``players`` seats,
    the others filled with built-in bots of ``opponents``' level."""

    game: str
    players: int
    opponents: str
    games: int = 1
    move_seconds: int | None = None


@dataclass
class Played:
    """What the bridge did at one table: its seat, actions sent, and the result line."""

    table_id: str
    game: str
    seat: int
    actions: int = 0
    result: dict[str, Any] | None = None
    lines: list[GameLine] = field(default_factory=list)


class Bridge:
    """Plays the token's account's games with bots from ``factory`` (which has a bot for
    the games in ``playable``), accepting challenges to the games in ``accept``.

    ``budget_s`` caps a bot's thinking per move. ``keep_lines`` keeps every
    game line in memory, ``trace_dir`` writes them to ``<table_id>.ndjson``
    there as they come (to see what the bot was told). :meth:`run` returns
    when :meth:`stop` is called or, with a seek, once its tables are over.
    """

    def __init__(
        self,
        client: MeepleClient,
        factory: BotFactory,
        playable: set[str],
        accept: set[str],
        budget_s: float = 2.0,
        keep_lines: bool = False,
        trace_dir: Path | None = None,
    ) -> None:
        self.client = client
        self.factory = factory
        self.playable = playable
        self.accept = accept
        self.budget_s = budget_s
        self.keep_lines = keep_lines
        self.trace_dir = trace_dir
        self.name = ""
        self.played: dict[str, Played] = {}
        self.finished: set[str] = set()
        self._answered: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._streams: list[EventStream | GameStream] = []
        self._stop = asyncio.Event()
        self._fatal: MeepleError | None = None
        self._changed = asyncio.Event()

    def stop(self) -> None:
        """Stop soon: requests in flight finish, then the streams close."""
        self._stop.set()

    async def run(self, seek: Seek | None = None) -> None:
        """Play until stopped (or until the seek's tables are over)."""
        self.name = str((await self.client.account())["name"])
        log.info("signed in as %s; playing %s", self.name, ", ".join(sorted(self.accept)))
        events = self.client.events(sorted(self.accept))
        self._streams.append(events)
        reader = asyncio.create_task(self._read_events(events))
        waiters = [asyncio.create_task(self._stop.wait()), reader]
        if seek is not None:
            waiters.append(asyncio.create_task(self._seek(seek)))
        try:
            done, _ = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is not waiters[0] and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        finally:
            await self._shut_down(waiters)
        if self._fatal is not None:
            raise self._fatal

    async def _shut_down(self, tasks: list[asyncio.Task[Any]]) -> None:
        """Let requests in flight end, then close every stream and task."""
        if self._in_flight:
            await asyncio.wait(self._in_flight, timeout=30)
        for stream in self._streams:
            stream.close()
        for task in [*tasks, *self._tasks.values()]:
            task.cancel()
        await asyncio.gather(*tasks, *self._tasks.values(), return_exceptions=True)
        log.info("stopped")

    async def _read_events(self, events: EventStream) -> None:
        async for event in events:
            await self._on_event(event)

    async def _on_event(self, event: AccountEvent) -> None:
        if event["type"] == "challenge":
            challenge = event["challenge"]
            if challenge["status"] != "open" or challenge["to"]["name"] != self.name:
                return
            if challenge["id"] in self._answered:
                return
            self._answered.add(challenge["id"])
            who, game = challenge["from"]["name"], challenge["game"]
            try:
                if game in self.accept:
                    log.info("accepting %s's %s challenge %s", who, game, challenge["id"])
                    await self._tracked(self.client.accept(challenge["id"]))
                else:
                    log.info("declining %s's %s challenge (variant)", who, game)
                    await self._tracked(self.client.decline(challenge["id"], "variant"))
            except MeepleError as exc:
                log.warning("challenge %s: %s", challenge["id"], exc)
        elif event["type"] == "game_start":
            table_id = event["table_id"]
            if table_id in self._tasks or table_id in self.finished:
                return
            if event["game"] not in self.playable:
                log.warning("seated at %s, a %s table: no bot for it", table_id, event["game"])
                return
            self._tasks[table_id] = asyncio.create_task(
                self._play(table_id, event["game"], event["seat"])
            )

    async def _tracked(self, request: Any) -> Any:
        """Await ``request`` as a task a stop lets finish (shielded from cancellation)."""
        task = asyncio.ensure_future(request)
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)
        return await asyncio.shield(task)

    async def _play(self, table_id: str, game: str, seat: int) -> None:
        """Play ``seat`` of ``table_id`` from its stream until the game is over."""
        bot = self.factory(game, bot_seed(table_id, seat))
        played = self.played.setdefault(table_id, Played(table_id, game, seat))
        stream = self.client.game(table_id)
        self._streams.append(stream)
        move_seconds = 60.0
        # The version of our last action's event: a line before it may still carry the
        # `legal` it had when sent (before we acted); that event's line or a later one asks anew.
        acted_through = 0
        log.info("game %s (%s) started; seat %d, bot %s", table_id, game, seat, bot.level)
        try:
            async for line in stream:
                if self.keep_lines:
                    played.lines.append(line)
                if self.trace_dir is not None:
                    with (self.trace_dir / f"{table_id}.ndjson").open("a", encoding="utf-8") as f:
                        f.write(json.dumps(line) + "\n")
                if line["type"] == "hello":
                    move_seconds = float(line["table"].get("move_seconds") or move_seconds)
                if line["type"] == "event" and line["kind"] == "finish":
                    played.result = line["data"].get("result")
                legal = line.get("legal")
                version = int(line.get("version", 0))
                view = line.get("view")
                stale = version < acted_through or self._stop.is_set()
                if not legal or not isinstance(view, dict) or stale:
                    continue
                budget = min(self.budget_s, max(0.05, move_seconds * BUDGET_SHARE))
                action = await asyncio.to_thread(bot.choose, view, seat, budget)
                try:
                    answer = await self._tracked(self.client.act(table_id, action, new_action_id()))
                    acted_through = answer["version"]
                    played.actions += 1
                    log.info("game %s: seat %d played %s", table_id, seat, _short(action))
                except GameError as exc:
                    acted_through = version + 1
                    log.warning("game %s: %s refused (%s)", table_id, _short(action), exc.code)
        except (AuthError, ForbiddenError) as exc:
            # The token was revoked (or lost its scope): nothing more can be done with it.
            log.error("game %s: %s; stopping", table_id, exc)
            self._fatal = exc
            self._stop.set()
        except MeepleError as exc:
            log.warning("game %s: stream ended (%s)", table_id, exc)
        finally:
            self.finished.add(table_id)
            self._changed.set()
        log.info("game %s (%s) finished: %s", table_id, game, _outcome(played))

    async def _seek(self, seek: Seek) -> None:
        """Open ``seek.games`` tables one after the other and wait for each to end."""
        for _ in range(seek.games):
            if seek.opponents not in levels_for(seek.game):
                raise BridgeError(f"no built-in {seek.opponents!r} bot for {seek.game}")
            spec: dict[str, Any] = {
                "game": seek.game,
                "seats": seek.players,
                "bots": {str(s): seek.opponents for s in range(1, seek.players)},
                "seat": 0,
            }
            if seek.move_seconds is not None:
                spec["move_seconds"] = seek.move_seconds
            answer = await self._tracked(self.client.request("POST", "/api/tables", spec))
            table_id = answer["table"]["id"]
            await self._tracked(self.client.request("POST", f"/api/tables/{table_id}/start"))
            log.info("opened table %s (%s) against %s bots", table_id, seek.game, seek.opponents)
            while table_id not in self.finished:
                self._changed.clear()
                await self._changed.wait()


def _short(action: Any, width: int = 80) -> str:
    text = str(action)
    return text if len(text) <= width else text[: width - 1] + "…"


def _outcome(played: Played) -> str:
    result = played.result
    if not result:
        return "no result seen"
    ranks, scores = result.get("ranks", []), result.get("scores", [])
    if played.seat < len(ranks):
        return f"rank {ranks[played.seat]} of {len(ranks)}, scores {scores}"
    return str(result)
