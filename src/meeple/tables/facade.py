"""The table packages as ``web/`` sees them: every name the web layer uses of them, here.

``web/`` imports the table packages through this module only, so a reader finds the
boundary in one file, and a change inside the packages that keeps these names touches no
web code. Modules inside the table packages import each other directly, never this one
(it imports them all, so an import from here would make a circle).
"""

from meeple.tables import commands
from meeple.tables.clock import Clock, SystemClock
from meeple.tables.cluster.calls import CallRouter
from meeple.tables.cluster.cluster import Cluster, let_go
from meeple.tables.cluster.owner_states import OwnerStates
from meeple.tables.cluster.owners import lease_ownership
from meeple.tables.cluster.registry import TableRegistry
from meeple.tables.cluster.writes import Writes
from meeple.tables.core.access import check_finished, check_reach, is_member, may_reach
from meeple.tables.core.bots import BotPool
from meeple.tables.core.log import FINISHED, OPEN, PLAYING, LogEvent
from meeple.tables.core.ratings import (
    MODEL,
    PROVISIONAL_GAMES,
    puzzle_match,
    shown_rating,
    starting_rating,
)
from meeple.tables.core.spec import TableSpec
from meeple.tables.core.table import VIEW_VERSIONS_KEPT, Table, TableContext, channel
from meeple.tables.core.takeback_log import standing_actions
from meeple.tables.facts import (
    ActionApplied,
    Fact,
    GameFinished,
    GameStarted,
    RematchAsked,
    SeatLeft,
    SeatTaken,
    TableClosed,
    TableFacts,
    TableOpened,
    TurnStarted,
)
from meeple.tables.lobby.challenges import ChallengeAsk, Challenges, challenge_json, replay_room
from meeple.tables.lobby.lobby import LOBBY_PAGE, LobbyCache, LobbyNews
from meeple.tables.lobby.matchmaking import (
    Matchmaking,
    build_lobby,
    is_quick_play,
    refuse_bot_account,
)
from meeple.tables.lobby.online_bots import OnlineBots
from meeple.tables.manager import LOBBY_CHANNEL, TableManager
from meeple.tables.moderation.service import ACTIONS, REPORT_REASONS, Moderation
from meeple.tables.notices.friends import ONLINE_SEEN_S, Friends
from meeple.tables.notices.my_turns import MyTurns, my_tables, my_turn_count
from meeple.tables.notices.notifications import (
    EMAILED,
    Note,
    NotificationKind,
    Notifier,
    page_texts,
)
from meeple.tables.notices.outbox import Sender, enqueue, render
from meeple.tables.notices.table_notices import TableNotices
from meeple.tables.notices.turn_emails import TurnEmails
from meeple.tables.notices.unsubscribe import ALL_EMAILS, UNSUBSCRIBE_PATH, UnsubscribeSigner
from meeple.tables.notices.user_events import SeatNews, user_channel
from meeple.tables.study.puzzle_supply import PuzzleSupply
from meeple.tables.study.reviews import Reviewer
from meeple.tables.tournaments.news import tournament_channel
from meeple.tables.tournaments.plan import TournamentAsk
from meeple.tables.tournaments.runner import TournamentRunner
from meeple.tables.tournaments.service import Tournaments

__all__ = [  # noqa: RUF022 - grouped by package, not sorted
    # the table core: one table, its log, access to it, its bots, ratings
    "BotPool",
    "LogEvent",
    "MODEL",
    "OPEN",
    "PLAYING",
    "FINISHED",
    "PROVISIONAL_GAMES",
    "Table",
    "TableContext",
    "TableSpec",
    "VIEW_VERSIONS_KEPT",
    "channel",
    "check_finished",
    "check_reach",
    "is_member",
    "may_reach",
    "puzzle_match",
    "shown_rating",
    "starting_rating",
    "standing_actions",
    # the server's tables, their clock, the typed commands and the facts they publish
    "ActionApplied",
    "Clock",
    "Fact",
    "GameFinished",
    "GameStarted",
    "LOBBY_CHANNEL",
    "RematchAsked",
    "SeatLeft",
    "SeatTaken",
    "SystemClock",
    "TableClosed",
    "TableFacts",
    "TableManager",
    "TableOpened",
    "TurnStarted",
    "commands",
    # the cluster: ownership, loading, forwarding a change to its owner
    "CallRouter",
    "Cluster",
    "OwnerStates",
    "TableRegistry",
    "Writes",
    "lease_ownership",
    "let_go",
    # the lobby, quick play, challenges, online bot accounts
    "ChallengeAsk",
    "Challenges",
    "LOBBY_PAGE",
    "LobbyCache",
    "LobbyNews",
    "Matchmaking",
    "OnlineBots",
    "build_lobby",
    "challenge_json",
    "is_quick_play",
    "refuse_bot_account",
    "replay_room",
    # the notices: notifications, My games, email
    "ALL_EMAILS",
    "EMAILED",
    "Friends",
    "ONLINE_SEEN_S",
    "MyTurns",
    "Note",
    "NotificationKind",
    "Notifier",
    "SeatNews",
    "Sender",
    "TableNotices",
    "TurnEmails",
    "UNSUBSCRIBE_PATH",
    "UnsubscribeSigner",
    "enqueue",
    "my_tables",
    "my_turn_count",
    "page_texts",
    "render",
    "user_channel",
    # moderation and chat safety
    "ACTIONS",
    "REPORT_REASONS",
    "Moderation",
    # the study: reviews and the puzzle pool
    "PuzzleSupply",
    "Reviewer",
    # tournaments: the requests about them, and the runner that pairs them
    "TournamentAsk",
    "tournament_channel",
    "TournamentRunner",
    "Tournaments",
]
