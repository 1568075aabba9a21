"""Request and response bodies of the REST routes (OpenAPI is generated from these)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from meeple.errors import Family
from meeple.games import GAME_NAMES
from meeple.web.takeback_schemas import TakebackOut


class BotStatsOut(BaseModel):
    """What this server's bot pool has done since it started (for operators and benches)."""

    requests: int
    queue_wait_p50: float = Field(description="seconds a bot waited for a worker, median")
    queue_wait_p95: float
    queue_wait_max: float
    fallbacks: dict[str, int] = Field(
        description="greedy moves played instead: 'queue' (no worker in time), 'overrun'"
    )


class CallStatsOut(BaseModel):
    """What this server's forwarded changes have done since it started (several servers
    sharing tables: a change asked of a server that does not run the table is sent to
    the one that does)."""

    sent: int = Field(description="changes sent to the server running their table")
    sent_again: int = Field(
        description="changes sent again under the same id (the answer was late, or the"
        " table's server had changed); run once all the same"
    )
    timed_out: int = Field(description="changes whose answer did not come within the time-out")
    answered: int = Field(description="changes run here for another server")
    answered_again: int = Field(description="repeats answered from memory, not run again")


class HealthOut(BaseModel):
    """The server is up."""

    status: Literal["ok"]
    version: str
    bots: BotStatsOut | None = None
    calls: CallStatsOut | None = None


class ErrorOut(BaseModel):
    """A refusal: what is wrong in plain words, and for table errors a stable code."""

    detail: str = Field(examples=["it is not your turn"])
    code: str | None = Field(None, examples=["not_your_turn"])
    family: Family | None = Field(None, description="the kind of refusal, to switch on")
    reason: str | None = Field(
        None, description="the exact rule, for translations", examples=["eq_false"]
    )
    params: dict[str, Any] | None = Field(None, description="the blanks of the reason's sentence")
    retry_after: int | None = Field(
        None, description="429 only: seconds to wait (as the Retry-After header)", examples=[1841]
    )


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "refused by the table's rules"},
    401: {"model": ErrorOut, "description": "not signed in"},
    403: {"model": ErrorOut, "description": "not allowed for you (not the creator, not seated)"},
    404: {"model": ErrorOut, "description": "no such table (or a private one without its link)"},
    409: {"model": ErrorOut, "description": "conflicts with the table's state"},
    410: {"model": ErrorOut, "description": "a link used already or expired"},
    422: {"model": ErrorOut, "description": "the request is not valid (code `invalid`)"},
    429: {"model": ErrorOut, "description": "too many: wait `Retry-After` seconds"},
}
"""Every error answer of the REST routes, one shape for all (each router declares them once)."""


class Input(BaseModel):
    """A request body: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class Credentials(Input):
    """A name and password, to register or log in."""

    name: str = Field(max_length=64, examples=["ada"])
    password: str = Field(max_length=1024, examples=["correct horse battery"])


class PasswordChange(Input):
    """The password now, and the new one."""

    current_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class UserPublic(BaseModel):
    """A user as anyone may see them."""

    id: int
    name: str
    guest: bool
    bot: bool = Field(False, description="a bot account (shown with a BOT mark)")


def _known_game(name: str) -> str:
    if name not in GAME_NAMES:
        raise ValueError(f"unknown game; choose one of: {', '.join(GAME_NAMES)}")
    return name


GameName = Annotated[
    str,
    AfterValidator(_known_game),
    WithJsonSchema({"type": "string", "enum": list(GAME_NAMES)}),
]
"""A registered game's name (the list comes from the registry, :data:`GAME_NAMES`)."""


class TableCreate(Input):
    """A table to open."""

    game: GameName
    seats: int = Field(ge=1, description="within the game's players (GET /api/games)")
    bots: dict[int, str] = Field(
        default_factory=dict,
        description="seat -> bot level (random, greedy, strong, expert)",
        examples=[{"2": "greedy", "3": "strong"}],
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's options (GET /api/games gives each game's)"
    )
    private: bool = Field(False, description="only reachable through its invite link")
    rated: bool = False
    pace: Literal["realtime", "turn"] = "realtime"
    move_seconds: int | None = Field(
        None, description="clock per move: realtime 5-3600 s (60), turn 3600 s-14 days (1 day)"
    )
    sit: bool = Field(True, description="seat the creator")
    seat: int | None = Field(None, description="the creator's seat (default: first free)")


class SeatOut(BaseModel):
    """Who sits in a seat: a user, a bot of a level, or nobody."""

    seat: int
    user_id: int | None
    name: str | None
    bot: str | None = Field(description="the bot level, if a bot sits here")
    bot_account: bool = Field(False, description="a bot account (a program) sits here")
    zombie: bool = Field(description="a bot plays the seat for a player who left or timed out")
    left: bool
    timeouts: int
    wants_rematch: bool


class ResultOut(BaseModel):
    """How a finished game ended: per seat scores and ranks (1 is first), the winners."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    reason: str = Field(description="in English")
    reason_code: str = Field("", description="the reason's code, for translations")
    reason_params: dict[str, Any] = Field(default_factory=dict)
    details: dict[str, Any] = Field(description="the game's own figures (grids, totals ...)")


class TableSummary(BaseModel):
    """A table's public description (never its seed, never its invite token)."""

    id: str
    game: str
    options: dict[str, Any]
    seat_count: int
    seats: list[SeatOut]
    private: bool
    rated: bool = Field(description="the game can change ratings: asked rated, two seats not bots")
    unrated_by_bots: bool = Field(
        False, description="asked rated, but bots hold all seats but one: nobody is rated"
    )
    pace: Literal["realtime", "turn"]
    move_seconds: int
    creator_id: int
    quick: bool = Field(description="a quick-play table: it starts by itself once full")
    status: Literal["open", "playing", "finished", "closed"]
    version: int
    to_act: list[int]
    deadlines: dict[str, float] = Field(description="seat -> when its move clock runs out")
    spectators: int
    present: list[int] = Field(
        default_factory=list, description="seats whose players are connected now (any server)"
    )
    bots_at: float | None = Field(
        None, description="a quick-play table: when bots take the free seats (server clock)"
    )
    result: ResultOut | None
    aborted: bool = Field(
        False,
        description="the game ended before every player made their first moves (one left or"
        " lost on time): it rated nobody, whatever the result",
    )
    rematch_of: str | None
    rematch_id: str | None
    created_at: float
    takeback: TakebackOut = Field(default_factory=lambda: TakebackOut(allowed=True, asked=None))


class RecordOut(BaseModel):
    """A finished game's record: what ``meeple <game> replay`` reads."""

    game: str
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, Any]] = Field(description="[seat, action] in the order applied")


class ReviewOut(BaseModel):
    """A finished game's review: the game's reviewer's line per action, a summary per seat."""

    table_id: str
    game: str
    lines: list[dict[str, Any]] = Field(
        description="one per action: index, seat and the game's own fields (Summy: position,"
        " played, best, best_score, missed, strong, strong_differs)"
    )
    summary: list[dict[str, Any]] = Field(
        description="one per seat: seat, turns, best_played, best_share and the game's own"
        " (Summy: missed, missed_per_turn, biggest_miss)"
    )


class AnalysisOut(BaseModel):
    """Every legal move of a position (Summy: every placement), ranked by score."""

    count: int = Field(description="how many legal moves there are in all")
    moves: list[dict[str, Any]] = Field(
        description="the best first, each in the game's own form (Summy: ties in the move"
        " generator's order, each a move in the position format's move JSON with its score"
        " and equation)"
    )


class PuzzleOut(BaseModel):
    """A puzzle as a solver gets it (never its answer)."""

    id: str
    view: dict[str, Any] = Field(description="the position as a view of its game: seat 0 to move")
    points: int = Field(description="what the best move scores")
    rating: int
    attempts: int
    solved: int
    from_bots: bool = Field(
        description="cut from a game between the server's own bots, not from people's games"
    )


class PuzzleStats(BaseModel):
    """A puzzle's rating and how often it was tried and solved (the answers that count)."""

    rating: int
    attempts: int
    solved: int


class PuzzleAnswerOut(BaseModel):
    """Right or wrong, the answer, and the solver's puzzle rating before and after (if rated)."""

    correct: bool
    answer: dict[str, Any] | None = Field(
        description="the best move, in the position format's move JSON; null when the answer"
        " is anonymous (sign in, or play as a guest, to see it)"
    )
    points: int
    rating: dict[str, int] | None = Field(
        None, description="{before, after}: a signed-in player's first answer to this puzzle"
    )
    puzzle: PuzzleStats = Field(description="the puzzle's own figures after this answer")


class RecentPlayer(BaseModel):
    """Who sat in a seat of a table on a profile."""

    seat: int
    name: str | None = Field(description="the player's name (None: a bot or nobody)")
    bot: str | None = Field(description="the bot level, if a bot sat here")
    bot_account: bool = Field(False, description="a bot account (a program) sat here")


class RecentTable(BaseModel):
    """A table on a profile."""

    id: str
    game: str
    status: str
    rated: bool
    created_at: float
    result: ResultOut | None
    aborted: bool = Field(False, description="ended before it began: it rated nobody")
    private: bool = Field(False, description="shown to the player themself only")
    seat: int | None = Field(None, description="the profile's player's seat at it")
    players: list[RecentPlayer] = Field(
        default_factory=list, description="everyone at the table, by seat (the opponents)"
    )


class TableOut(BaseModel):
    """A table: its public summary, plus its invite link for the people at it."""

    table: TableSummary
    invite_url: str | None = None


class JoinIn(Input):
    """Take a seat (a free one if ``seat`` is not given)."""

    seat: int | None = None
    invite: str | None = Field(None, description="the invite token of a private table")


class SeatIn(Input):
    """A seat number."""

    seat: int


class ActionIn(Input):
    """A game action, with the client's own id so a repeat applies once."""

    id: str | None = Field(None, max_length=64)
    action: Any
    seat: int | None = None


class ActionOut(BaseModel):
    """The version of the event the action made (an earlier one for a repeat)."""

    version: int
    duplicate: bool


class ChatIn(Input):
    """A chat line."""

    text: str = Field(max_length=4000)


class RematchOut(BaseModel):
    """The rematch table, once every player asked for one."""

    rematch_id: str | None


class QuickPlayIn(Input):
    """The game to play now."""

    game: GameName


class ReplayStep(BaseModel):
    """One step of a finished game: the action taken and the position after it."""

    step: int
    steps: int
    seat: int | None = Field(None, description="whose view is shown (None: spectator)")
    action: Any = Field(None, description="[seat, action] that led here (None at step 0)")
    events: list[Any] = Field(default_factory=list)
    view: dict[str, Any] = Field(description="the game's view for that seat")
    result: ResultOut | None


class RatingOut(BaseModel):
    """A user's rating in one game."""

    game: str
    rating: int = Field(description="1500 + 40 x (mu - 3 sigma), as shown on leaderboards")
    provisional: bool = Field(description="fewer than 10 rated games")
    mu: float
    sigma: float
    games: int
    wins: int


class ProfileOut(BaseModel):
    """What a profile page shows."""

    user: UserPublic
    ratings: list[RatingOut]
    finished: dict[str, int] = Field(description="games finished, per game")
    won: dict[str, int] = Field(description="games won (shared victories too), per game")
    recent_tables: list[RecentTable]


class HistoryPoint(BaseModel):
    """A rating after one rated game (shown scale: 1500 + 40 x (mu - 3 sigma))."""

    table_id: str
    rating: int
    previous: int = Field(description="the shown rating before this game")
    mu: float
    sigma: float
    rank: int
    at: float


class LeaderboardLine(BaseModel):
    """One line of a leaderboard."""

    place: int
    name: str
    bot: bool = Field(False, description="a bot account")
    rating: int = Field(description="1500 + 40 x (mu - 3 sigma)")
    provisional: bool = Field(description="fewer than 10 rated games")
    games: int
    wins: int


class GameOut(BaseModel):
    """What a game offers a table: seats, quick play, options, bots."""

    name: str = Field(examples=GAME_NAMES[-1:])
    min_players: int
    max_players: int
    quick_play_seats: int = Field(description="the seats of a quick-play table")
    options: dict[str, Any] = Field(
        description="JSON Schema of the table options besides the player count"
    )
    option_defaults: dict[str, Any]
    bot_levels: list[str] = Field(description="weakest first")


class PreviewIn(Input):
    """A staged action, and the position its player sees (built from their own view)."""

    position: dict[str, Any] = Field(description="the game's position format (Summy: tiles, ...)")
    action: dict[str, Any] = Field(description="the action, as the game's action JSON")


class PreviewOut(BaseModel):
    """Legal with its score and text, or refused with the rule (translated, and in English)."""

    legal: bool
    score: int | None = None
    text: str | None = Field(None, description="what the action makes (Summy: the equation)")
    message: str | None = Field(None, description="the refusal in the page's language")
    message_en: str | None = None
    reason: str | None = Field(None, description="the refusal's code, for translations")
    params: dict[str, Any] | None = Field(None, description="the blanks of its sentence")
