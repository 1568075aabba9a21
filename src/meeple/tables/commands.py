"""What a request may ask of a table: one typed command per change, made where requests come in.

The table socket, the REST routes (the Bot API's among them) and the server's own
requests (quick play, a waiting table's bots) make a :data:`Command` and hand it to
:meth:`Writes.run <meeple.tables.cluster.writes.Writes.run>`, which runs it on the
table's owner: :meth:`Writes.here <meeple.tables.cluster.writes.Writes.here>` is the
one place that tells the commands apart. A command forwarded to another server crosses
the bus as its tag and its fields (:func:`command_json`) and is read back into the same
type (:func:`command_of`, through the closed table :data:`COMMANDS`); its answer comes
back as JSON and :meth:`TableCommand.result_of` reads it into the command's own result.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Generic, TypeVar, get_args

from meeple.games.base import JSON

R = TypeVar("R")

QUICK_PLAY_BOT = "greedy"
"""The level of the bots that take a quick-play table's free seats (the casual bot)."""


class TableCommand(ABC, Generic[R]):
    """A change asked of a table, answered with an ``R``."""

    tag: ClassVar[str]
    """The command's name on the bus between servers."""

    @abstractmethod
    def result_of(self, answer: JSON) -> R:
        """The command's result, from its answer (as the owner gave it, or as JSON)."""


@dataclass(frozen=True)
class Join(TableCommand[int]):
    """Seat a user at ``seat``, or the first free one; answered with the seat."""

    tag: ClassVar[str] = "join"
    user_id: int
    name: str
    seat: int | None = None

    def result_of(self, answer: JSON) -> int:
        """The seat taken."""
        return int(answer)


@dataclass(frozen=True)
class Leave(TableCommand[None]):
    """Leave: before the start the seat is freed; during the game a zombie bot takes it."""

    tag: ClassVar[str] = "leave"
    user_id: int

    def result_of(self, answer: JSON) -> None:
        """Nothing to read."""


@dataclass(frozen=True)
class Kick(TableCommand[None]):
    """The creator removes whoever sits in ``seat`` before the start."""

    tag: ClassVar[str] = "kick"
    user_id: int
    seat: int

    def result_of(self, answer: JSON) -> None:
        """Nothing to read."""


@dataclass(frozen=True)
class FillWithBots(TableCommand[None]):
    """Seat a bot of ``level`` in every free seat: the creator asks (``user_id``), or the
    table's own wait for players ran out (``user_id`` ``None``)."""

    tag: ClassVar[str] = "fill_with_bots"
    user_id: int | None
    level: str = QUICK_PLAY_BOT

    def result_of(self, answer: JSON) -> None:
        """Nothing to read."""


@dataclass(frozen=True)
class Start(TableCommand[None]):
    """The creator starts the game; every seat must be taken."""

    tag: ClassVar[str] = "start"
    user_id: int

    def result_of(self, answer: JSON) -> None:
        """Nothing to read."""


@dataclass(frozen=True)
class Close(TableCommand[None]):
    """The creator closes a table that has not started."""

    tag: ClassVar[str] = "close"
    user_id: int

    def result_of(self, answer: JSON) -> None:
        """Nothing to read."""


@dataclass(frozen=True)
class Act(TableCommand[tuple[int, bool]]):
    """A player's action (for ``seat``, if given: it must be theirs); answered with
    ``(version, duplicate)``: a repeated ``client_id`` applies once."""

    tag: ClassVar[str] = "act"
    user_id: int
    client_id: str | None
    action: JSON
    seat: int | None = None

    def result_of(self, answer: JSON) -> tuple[int, bool]:
        """The action's version, and whether it repeated one applied before."""
        version, duplicate = answer
        return int(version), bool(duplicate)


@dataclass(frozen=True)
class Chat(TableCommand[int]):
    """A chat line, signed ``name``; answered with its version."""

    tag: ClassVar[str] = "chat"
    user_id: int
    name: str
    text: str

    def result_of(self, answer: JSON) -> int:
        """The line's version."""
        return int(answer)


@dataclass(frozen=True)
class AskRematch(TableCommand[str | None]):
    """A vote for a rematch; answered with the rematch's table id once it is open."""

    tag: ClassVar[str] = "ask_rematch"
    user_id: int

    def result_of(self, answer: JSON) -> str | None:
        """The rematch's table id, or ``None`` while players are still to vote."""
        return None if answer is None else str(answer)


@dataclass(frozen=True)
class Claim(TableCommand[bool]):
    """A guest signed in to an account: the guest's seat becomes the account's (named
    ``name``), unless the account sits at the table already; answered with whether it did."""

    tag: ClassVar[str] = "claim"
    guest_id: int
    user_id: int
    name: str

    def result_of(self, answer: JSON) -> bool:
        """Whether the seat changed hands."""
        return bool(answer)


@dataclass(frozen=True)
class Takeback(TableCommand[int]):
    """Take back my last move (``answer`` ``None``), or accept or decline the takeback another
    player asked of me (``"accept"``, ``"decline"``); answered with the last event's version."""

    tag: ClassVar[str] = "takeback"
    user_id: int
    answer: str | None = None

    def result_of(self, answer: JSON) -> int:
        """The version of the last event written."""
        return int(answer)


Command = (
    Join | Leave | Kick | FillWithBots | Start | Close | Act | Chat | AskRematch | Claim | Takeback
)
"""Every change a request may ask of a table."""

COMMANDS: dict[str, type[Command]] = {kind.tag: kind for kind in get_args(Command)}
"""The command types by tag: the only names a call from another server may carry."""


def closed(command: TableCommand[Any]) -> Command:
    """``command`` as one of :data:`Command` (a ``TypeError`` for any other subclass)."""
    if isinstance(command, Command):
        return command
    raise TypeError(f"not a table command: {command!r}")


def command_json(command: Command) -> tuple[str, dict[str, JSON]]:
    """The command as it crosses the bus: its tag and its fields."""
    return command.tag, asdict(command)


def command_of(tag: str, fields: dict[str, Any]) -> Command:
    """The command :func:`command_json` gave ``tag`` and ``fields`` for (``ValueError`` for
    an unknown tag, ``TypeError`` for fields the type does not have)."""
    kind = COMMANDS.get(tag)
    if kind is None:
        raise ValueError(f"no such table command: {tag!r}")
    return kind(**fields)
