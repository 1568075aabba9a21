"""Personal access tokens looked up in the store, many at once.

Every request with ``Authorization: Bearer`` looks its token up in the store
(so a revoked token stops working at once, on every server); open streams ask
again when told of a revocation, and all together every
``MEEPLE_STREAM_RECHECK_S`` (:mod:`meeple.web.revocations`). :class:`TokenChecks`
reads the tokens asked about meanwhile in one query (:class:`~meeple.batching.Batches`),
always after the asking: a hundred bots' requests cost a few queries, and no
answer predates the question.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from meeple.batching import Batches
from meeple.store.database import Database
from meeple.store.models import User
from meeple.store.tokens import live_tokens, users_of_tokens


@dataclass(frozen=True)
class TokenInfo:
    """A live personal access token: its public id, its account, its scopes."""

    id: str
    user_id: int
    scopes: frozenset[str]


class TokenChecks:
    """Shared, batched answers to "whose is this token?" and "is this token still live?"."""

    def __init__(self, db: Database, now: Callable[[], float]) -> None:
        self.db, self.now = db, now
        self._users: Batches[str, tuple[TokenInfo, User]] = Batches(
            self._look_up, join_running=False
        )
        self._live: Batches[str, bool] = Batches(self._check, join_running=False)
        self.queries = 0
        """How many store queries the checks took (tests and benches)."""

    async def user_of(self, token_hash: str) -> tuple[TokenInfo, User] | None:
        """The token with this hash and its user, if the token is live now."""
        return await self._users.ask(token_hash)

    async def still_valid(self, token_id: str) -> bool:
        """Whether the token ``token_id`` is live (not revoked), as the store says now."""
        return bool(await self._live.ask(token_id))

    async def _look_up(
        self, token_hashes: list[str], _first: bool
    ) -> dict[str, tuple[TokenInfo, User]]:
        self.queries += 1
        rows = await self.db.run(users_of_tokens, sorted(token_hashes), self.now())
        return {
            token_hash: (TokenInfo(token.id, user.id, frozenset(token.scopes.split())), user)
            for token_hash, (token, user) in rows.items()
        }

    async def _check(self, token_ids: list[str], _first: bool) -> dict[str, bool]:
        self.queries += 1
        live = await self.db.run(live_tokens, sorted(token_ids))
        return {token_id: token_id in live for token_id in token_ids}
