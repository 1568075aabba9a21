"""Every refusal the server sends, defined once: its code, its family, its English sentence.

A refusal is a :class:`TableError`: a stable :class:`Code`, a message in plain
English, a ``reason`` naming the exact rule for translations (the catalog key
``engine.<reason>``) and the ``params`` filling its blanks. Each code belongs
to one :class:`Family`, the kind of refusal a client acts on (sign in, wait,
choose another name, look again at the table); the web layer answers each
family with one HTTP status (:data:`meeple.web.errors.HTTP_STATUS`) and names no
code. A raise site names its code here, ``raise Code.SEAT_TAKEN.error(seat=2)``,
and never spells the word: a misspelt code fails type checking, and "find
usages" lists every place that sends it.

This module sits below every layer that refuses (the rate limits, the tables,
the web routes) and imports only :mod:`meeple.games.base`. The games' own
refusal codes (``eq_false``, ``other_turn``...) stay with the games: a table
passes them on as the ``reason`` and ``params`` of ``illegal`` or ``bad_options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from string import Formatter
from typing import cast

from meeple.games.base import JSON


class Family(StrEnum):
    """The kinds of refusal a client can switch on, each answered with one HTTP status."""

    AUTH = "auth"
    """Who is asking is unknown: sign in, or send a valid token (401)."""
    FORBIDDEN = "forbidden"
    """Not yours to do: another seat, the creator's call, a scope the token lacks (403)."""
    NOT_FOUND = "not_found"
    """No such thing, or none this user may see (404)."""
    GONE = "gone"
    """A link used already or expired (410)."""
    CONFLICT = "conflict"
    """The present state forbids it: a name taken, a cap reached, a write raced (409)."""
    INVALID = "invalid"
    """A value refused as it is: a name, a password, an address, a request's fields (422)."""
    REQUEST = "request"
    """A request malformed or asking for what cannot be: not JSON, a bad option (400)."""
    RULES = "rules"
    """The table's rules refuse it now: not your turn, the game started, a seat taken (400)."""
    ILLEGAL = "illegal"
    """The game refuses the action; ``reason`` names the game's rule (400)."""
    LIMIT = "limit"
    """Too many at once or too fast: wait, or close something first (429)."""
    TOO_LARGE = "too_large"
    """A body or message over the size limit (413)."""
    UNAVAILABLE = "unavailable"
    """The table's server does not answer now: try again (400)."""
    SERVER = "server"
    """The server failed on its own (a bug); nothing changed (500)."""


class Code(StrEnum):
    """Each refusal code the server sends: its family, English shape and params.

    A member is ``"word", family, shape[, params]``: ``shape`` is the English
    message with ``{blanks}`` (:meth:`error` fills them), ``params`` the names of
    the blanks sent to the client, so a catalog text ``engine.<code>`` may use
    them. ``None`` for params: the game's own (``illegal``, ``bad_options``).
    """

    family: Family
    shape: str
    params: tuple[str, ...] | None

    def __new__(
        cls, word: str, family: Family, shape: str, params: tuple[str, ...] | None = ()
    ) -> Code:
        member = str.__new__(cls, word)
        member._value_ = word
        member.family, member.shape, member.params = family, shape, params
        return member

    SIGN_IN = "sign_in", Family.AUTH, "sign in (or play as a guest) first"
    WRONG_PASSWORD = "wrong_password", Family.AUTH, "wrong name or password"
    BAD_TOKEN = "bad_token", Family.AUTH, "the access token is malformed, unknown or revoked"

    TOKEN_SCOPE = (
        "token_scope",
        Family.FORBIDDEN,
        "this token lacks the scope {scope!r}",
        ("scope",),
    )
    NOT_SEATED = "not_seated", Family.FORBIDDEN, "you have no seat at this table"
    NOT_YOUR_SEAT = (
        "not_your_seat",
        Family.FORBIDDEN,
        "seat {seat} is not yours (you are seat {own})",
    )
    NOT_CREATOR = "not_creator", Family.FORBIDDEN, "only the table's creator can {what}"
    BOT_QUICK_PLAY = (
        "bot_quick_play",
        Family.FORBIDDEN,
        "bot accounts do not take part in quick play: challenge a player, or open a table",
    )
    CROSS_SITE = (
        "cross_site",
        Family.FORBIDDEN,
        "a request that changes something must come from this site's pages",
    )
    NO_BOTS_HERE = "no_bots_here", Family.FORBIDDEN, "this tournament is not open to bot accounts"
    NOT_ORGANIZER = "not_organizer", Family.FORBIDDEN, "only the tournament's creator can {what}"
    MUTED = "muted", Family.FORBIDDEN, "a moderator muted you until {when}", ("until", "when")
    ACCOUNT_CLOSED = "account_closed", Family.FORBIDDEN, "closed by a moderator", ("reason",)
    BLOCKED = "blocked", Family.FORBIDDEN, "{name} takes no challenges from you", ("name",)
    STAFF_TARGET = "staff_target", Family.FORBIDDEN, "not on a moderator or an admin"

    NO_TABLE = "no_table", Family.NOT_FOUND, "there is no table {table}", ("table",)
    NO_PLAYER = "no_player", Family.NOT_FOUND, "there is no player {name}", ("name",)
    NO_CHALLENGE = "no_challenge", Family.NOT_FOUND, "no such challenge"
    NO_TOKEN = "no_token", Family.NOT_FOUND, "you have no such token"
    NO_PUZZLE = "no_puzzle", Family.NOT_FOUND, "there is no puzzle {puzzle!r}"
    NOT_REVIEWED = (
        "not_reviewed",
        Family.NOT_FOUND,
        "the review is not ready yet; ask again in a few seconds",
        ("game",),
    )
    NO_FEATURE = "no_feature", Family.NOT_FOUND, "{game!r} has no {what}", ("game", "feature")
    NO_PATH = "no_path", Family.NOT_FOUND, "no such path"
    NO_TOURNAMENT = (
        "no_tournament",
        Family.NOT_FOUND,
        "no such tournament (or not without its link)",
    )

    BAD_LINK = "bad_link", Family.GONE, "this link is unknown, used or expired: ask for a new one"

    CONFLICT = "conflict", Family.CONFLICT, "the table changed meanwhile; try again"
    NOT_OVER = "not_over", Family.CONFLICT, "the game is not over"
    NAME_TAKEN = "name_taken", Family.CONFLICT, "the name {name} is taken", ("name",)
    GUEST_NO_ACCOUNT = (
        "guest_no_account",
        Family.CONFLICT,
        "a guest has no account to manage: sign up first",
    )
    GUEST_NO_PASSWORD = (
        "guest_no_password",
        Family.CONFLICT,
        "a guest has no password: sign up to choose one",
    )
    ACCOUNT_IN_GAME = (
        "account_in_game",
        Family.CONFLICT,
        "leave your {count} unfinished tables first",
        ("count", "tables"),
    )
    HAS_PLAYED = (
        "has_played",
        Family.CONFLICT,
        "this account has played as a person: it cannot be a bot",
    )
    TOO_MANY_TOKENS = (
        "too_many_tokens",
        Family.CONFLICT,
        "an account holds at most {count} tokens: revoke one first",
        ("count",),
    )
    TOO_MANY_TABLES = (
        "too_many_tables",
        Family.CONFLICT,
        "you already have {limit} tables waiting for players: start, close or wait out"
        " one of them first",
        ("limit",),
    )
    TOO_MANY_CHALLENGES = (
        "too_many_challenges",
        Family.CONFLICT,
        "you have {limit} open challenges: cancel one or wait for an answer",
        ("limit",),
    )
    PLAYER_TOO_MANY_CHALLENGES = (
        "player_too_many_challenges",
        Family.CONFLICT,
        "{name} has {limit} open challenges waiting: try again later",
        ("limit", "name"),
    )
    CHALLENGE_CLOSED = "challenge_closed", Family.CONFLICT, "this challenge is no longer open"
    TOO_MANY_FOLLOWS = "too_many_follows", Family.CONFLICT, "you follow {limit} already", ("limit",)
    FOLLOW_GUEST = "follow_guest", Family.CONFLICT, "a guest follows nobody: sign up first"
    TOO_MANY_TOURNAMENTS = (
        "too_many_tournaments",
        Family.CONFLICT,
        "you have {limit} tournaments not over yet: cancel one or wait for its end",
        ("limit",),
    )
    EMAIL_OFF = (
        "email_off",
        Family.CONFLICT,
        "this server sends no email (MEEPLE_SMTP_URL is not set)",
    )

    INVALID = "invalid", Family.INVALID, "the request is not valid"
    NAME_SHAPE = (
        "name_shape",
        Family.INVALID,
        "a name is 3 to 20 letters, digits, '_' or '-', starting with a letter",
    )
    NAME_GUEST = (
        "name_guest",
        Family.INVALID,
        "names starting with 'guest' are kept for guests",
    )
    PASSWORD_SHORT = (
        "password_short",
        Family.INVALID,
        "the password is too short: at least {count} characters",
        ("count",),
    )
    PASSWORD_LONG = (
        "password_long",
        Family.INVALID,
        "the password is too long: at most {most} characters",
    )
    PASSWORD_COMMON = (
        "password_common",
        Family.INVALID,
        "the password is one of the most common ones; choose another",
    )
    PASSWORD_NAME = "password_name", Family.INVALID, "the password must not contain the name"
    PASSWORD_VARIED = (
        "password_varied",
        Family.INVALID,
        "the password needs at least {least} different characters",
    )
    EMAIL_SHAPE = "email_shape", Family.INVALID, "that is not an email address: {why}"
    BAD_MOVE = "bad_move", Family.INVALID, "the move is not valid: {why}"
    BAD_NOTATION = "bad_notation", Family.INVALID, "the game text is not valid", None
    UNKNOWN_GAME = "unknown_game", Family.INVALID, "accept: games are among {games}"

    BAD_JSON = "bad_json", Family.REQUEST, "messages are JSON text, not binary"
    BAD_MESSAGE = "bad_message", Family.REQUEST, 'a message is a JSON object with a "type"'
    UNKNOWN_TYPE = "unknown_type", Family.REQUEST, "unknown message type {type!r}"
    BAD_URL = "bad_url", Family.REQUEST, "a URL cannot hold a NUL character"
    BAD_GAME = "bad_game", Family.REQUEST, "unknown game {game!r}; choose {games}"
    BAD_SEATS = (
        "bad_seats",
        Family.REQUEST,
        "{game} is for {least} to {most} players, not {seats}",
    )
    BAD_SEAT = "bad_seat", Family.REQUEST, "there is no seat {seat!r} at this table"
    BAD_LEVEL = "bad_level", Family.REQUEST, "unknown bot level {level!r}; choose {levels}"
    BAD_PACE = "bad_pace", Family.REQUEST, "unknown pace {pace!r}; choose {paces}"
    BAD_CLOCK = (
        "bad_clock",
        Family.REQUEST,
        "a {pace} move clock must be {least} to {most} seconds",
    )
    BAD_OPTIONS = "bad_options", Family.REQUEST, "the game's options are not valid", None
    BAD_REASON = "bad_reason", Family.REQUEST, "a reason is one of {reasons}"
    BAD_ROUNDS = (
        "bad_rounds",
        Family.REQUEST,
        "a Swiss has {least} to {most} rounds",
        ("least", "most"),
    )
    BAD_DURATION = (
        "bad_duration",
        Family.REQUEST,
        "an arena lasts {least} to {most} minutes",
        ("least", "most"),
    )
    BAD_ROUND_DAYS = (
        "bad_round_days",
        Family.REQUEST,
        "a turn-based round lasts {least} to {most} days",
        ("least", "most"),
    )
    BAD_START = (
        "bad_start",
        Family.REQUEST,
        "the start must be after now and within {days} days",
        ("days",),
    )
    CHAT_EMPTY = "chat_empty", Family.REQUEST, "a chat message cannot be empty"
    CHAT_TOO_LONG = (
        "chat_too_long",
        Family.REQUEST,
        "a chat message has at most {limit} characters",
        ("limit",),
    )

    STARTED = "started", Family.RULES, "the game has already started"
    CLOSED = "closed", Family.RULES, "this table was closed before its game started"
    FULL = "full", Family.RULES, "there is no free seat at this table"
    OVER = "over", Family.RULES, "the game is over; there is nothing to leave"
    SEAT_TAKEN = "seat_taken", Family.RULES, "seat {seat} is taken", ("seat",)
    ALREADY_SEATED = "already_seated", Family.RULES, "you already have a seat at this table"
    SEAT_EMPTY = "seat_empty", Family.RULES, "seat {seat} is empty"
    SEATS_FREE = "seats_free", Family.RULES, "every seat must be taken before the start"
    NOT_PLAYING = "not_playing", Family.RULES, "the game is not running"
    NOT_YOUR_TURN = "not_your_turn", Family.RULES, "it is not {whose} turn"
    ZOMBIE = "zombie", Family.RULES, "a bot plays your seat for the rest of this game"
    TOURNAMENT_FULL = (
        "tournament_full",
        Family.RULES,
        "this tournament has its {limit} players",
        ("limit",),
    )
    TOURNAMENT_OVER = "tournament_over", Family.RULES, "this tournament is {status}"
    TOURNAMENT_STARTED = "tournament_started", Family.RULES, "the tournament has started"
    NOT_ENTERED = "not_entered", Family.RULES, "you are not in this tournament"
    NO_BUILTIN_BOTS = (
        "no_builtin_bots",
        Family.RULES,
        "built-in bots join only a casual (unrated) tournament",
    )
    CHALLENGE_SELF = "challenge_self", Family.RULES, "you cannot challenge yourself"
    FOLLOW_SELF = "follow_self", Family.RULES, "you cannot follow yourself"
    BOT_UNRATED = "bot_unrated", Family.RULES, "games between bots and people are not rated here"
    HINT_RATED = "hint_rated", Family.RULES, "there are no hints in a rated game"
    HINT_PEOPLE = "hint_people", Family.RULES, "hints are only for games against built-in bots"
    TAKEBACK_RATED = "takeback_rated", Family.RULES, "there are no takebacks in a rated game"
    TAKEBACK_TOURNAMENT = "takeback_tournament", Family.RULES, "no takebacks in a tournament game"
    TAKEBACK_OVER = "takeback_over", Family.RULES, "the game is over: its moves stand"
    TAKEBACK_NONE = "takeback_none", Family.RULES, "you have no move to take back"
    TAKEBACK_NOT_YOURS = "takeback_not_yours", Family.RULES, "another player moved after your move"
    TAKEBACK_ASKED = "takeback_asked", Family.RULES, "a takeback is asked already: await its answer"
    TAKEBACK_DECLINED = "takeback_declined", Family.RULES, "declined: ask again after the next move"
    TAKEBACK_NO_ASK = "takeback_no_ask", Family.RULES, "nobody is asking you for a takeback"
    VERSION = "version", Family.RULES, "event {version} does not follow version {last}"
    UNKNOWN_EVENT = "unknown_event", Family.RULES, "unknown table event {kind!r}"

    ILLEGAL = "illegal", Family.ILLEGAL, "the game does not allow that action", None

    RATE_LIMITED = (
        "rate_limited",
        Family.LIMIT,
        "too many {what}; try again in {wait}{hint}",
        ("seconds",),
    )
    TOO_MANY_STREAMS = (
        "too_many_streams",
        Family.LIMIT,
        "at most {limit} streams may be open at once per {per}",
        ("limit", "per", "seconds"),
    )
    TOO_MANY_SOCKETS = (
        "too_many_sockets",
        Family.LIMIT,
        "{whose} has {limit} table connections open already; close one",
        ("limit",),
    )

    TOO_BIG = "too_big", Family.TOO_LARGE, "a message has at most {limit} bytes", ("limit",)

    UNAVAILABLE = "unavailable", Family.UNAVAILABLE, "the table's server does not answer; try again"

    SERVER_ERROR = "server_error", Family.SERVER, "the server failed on that message"

    @classmethod
    def named(cls, word: str) -> Code:
        """The code spelled ``word`` (as a refusal crossing the bus carries it); ``KeyError``
        for a word that is no code."""
        return cast(Code, cls._value2member_map_[word])

    def blanks(self) -> set[str]:
        """The names of the blanks in this code's English shape."""
        return {name for _, name, _, _ in Formatter().parse(self.shape) if name}

    def sentence(self, **fields: JSON) -> str:
        """The English message: the shape with ``fields`` in its blanks (a field may also be
        one of :attr:`params` the shape does not show)."""
        self._check(fields)
        return self.shape.format(**fields)

    def _check(self, fields: Mapping[str, JSON]) -> None:
        unknown = set(fields) - self.blanks() - set(self.params or ())
        if unknown:
            raise TypeError(f"{self.value} has no blank nor param {sorted(unknown)}")

    def error(self, words: str | None = None, /, **fields: JSON) -> TableError:
        """This refusal, to raise: ``fields`` fill the shape's blanks, and those among
        :attr:`params` go to the client; ``words`` say it otherwise for one place.

        >>> error = Code.SEAT_TAKEN.error(seat=2)
        >>> error.message, error.params, error.family
        ('seat 2 is taken', {'seat': 2}, <Family.RULES: 'rules'>)
        """
        self._check(fields)
        message = self.shape.format(**fields) if words is None else words
        sent = self.params or ()
        return TableError(self, message, params={k: v for k, v in fields.items() if k in sent})


class TableError(Exception):
    """A request refused (by a table, a rate limit, a route); nothing changed.

    ``code`` says what (:class:`Code`, its :attr:`family` the kind); ``message``
    says it in plain English, for an illegal action the engine's own message.
    ``reason`` names the exact rule for translations (the engine's refusal code
    for ``illegal`` and ``bad_options``, else the code itself) and ``params``
    fill its blanks: the code's :attr:`Code.params`, or the game's own.
    """

    def __init__(
        self,
        code: Code,
        message: str,
        *,
        reason: str | None = None,
        params: Mapping[str, JSON] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason or code.value
        self.params: dict[str, JSON] = dict(params or {})
        if code.params is not None and not set(self.params) <= set(code.params):
            raise TypeError(f"{code.value} carries no params {sorted(self.params)}")

    @property
    def family(self) -> Family:
        """The kind of refusal (its code's family)."""
        return self.code.family

    def to_json(self) -> dict[str, JSON]:
        """The refusal as clients get it: code, family, English message, reason and params."""
        return {
            "code": self.code.value,
            "family": self.family.value,
            "message": self.message,
            "reason": self.reason,
            "params": self.params,
        }


class MustWait(TableError):
    """A refusal that time lifts: HTTP 429 with ``Retry-After`` (and ``retry_after`` in the
    body) of :attr:`retry_after` seconds."""

    def __init__(
        self,
        code: Code,
        message: str,
        *,
        retry_after: int,
        reason: str | None = None,
        params: Mapping[str, JSON] | None = None,
    ) -> None:
        self.retry_after = retry_after
        super().__init__(code, message, reason=reason, params=params)
