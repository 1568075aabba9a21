"""Email: rendering a message, the outbox it waits in, and the sender that sends it.

Every email goes through :func:`enqueue`, which only stores a row (no request
ever waits on SMTP). Each server runs one :class:`Sender`: it looks for due
rows, claims each with a conditional UPDATE (so with several servers a row is
sent once; a claim older than :data:`STALE_CLAIM_S` is taken again, its server
having died mid-send), sends it with aiosmtplib and marks it sent, or puts it
back with an exponential backoff (capped at :data:`MAX_BACKOFF_S`). A row that
cannot become a message (its address not one plain mailbox, a header value
with a line break) is marked failed at once with the reason: retrying would
never send it. Every message has ``Date`` and ``Message-ID``, and its SMTP
envelope names the stored address only (never what a header parser reads
into the ``To:`` line).

:func:`render` makes ``(subject, text, html)`` from a template pair under
``web/pages/templates/emails/`` in the reader's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from sqlalchemy.exc import IntegrityError

from meeple.config import Settings
from meeple.i18n import catalog
from meeple.store import emails as queries
from meeple.store.database import Database
from meeple.store.mailboxes import NotAnAddress, clean_address
from meeple.store.names import one_line
from meeple.tables.clock import Clock
from meeple.tasks import cancel_and_wait

log = logging.getLogger(__name__)

STALE_CLAIM_S = 60.0
"""A claim this old is taken as its server's death: another sender may retake the row."""
FIRST_BACKOFF_S = 30.0
"""The wait after a first failure; doubled after each next one, up to :data:`MAX_BACKOFF_S`."""
MAX_BACKOFF_S = 3600.0
MAX_ATTEMPTS = 30
"""After this many failures (about a day of capped waits) an email is given up on."""
POLL_S = 0.5
"""How often (real seconds) the sender looks for due rows; :func:`enqueue` also wakes it."""
BATCH = 20
SEND_TIMEOUT_S = 30.0

_TEMPLATES = Environment(
    loader=PackageLoader("meeple", "web/pages/templates/emails"),
    autoescape=select_autoescape(["html"]),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_TEXT_TEMPLATES = Environment(
    loader=PackageLoader("meeple", "web/pages/templates/emails"),
    autoescape=False,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


class HasStore(Protocol):
    """What :func:`enqueue` needs: the store and the clock (``Services`` and ``TableContext``
    both have them)."""

    db: Database
    clock: Clock


_wakers: dict[int, asyncio.Event] = {}
"""Each running sender's wake-up, by its database's id: an enqueue here is sent at once."""


async def enqueue(
    services: HasStore,
    *,
    user_id: int | None,
    to: str,
    subject: str,
    text: str,
    html: str,
    headers: dict[str, str],
    dedupe: str,
) -> None:
    """Store an email for the sender; a second enqueue with the same ``dedupe`` key does
    nothing (say ``"your_turn:<table>:<version>:<user>"``). Never waits on SMTP."""
    values = {
        "user_id": user_id,
        "to": to,
        "subject": subject[:255],
        "text": text,
        "html": html,
        "headers": dict(headers),
        "dedupe": dedupe[:160],
    }
    try:
        stored = await services.db.write(queries.add_email, values, services.clock.now())
    except IntegrityError:  # another server stored the same key between look and write
        return
    waker = _wakers.get(id(services.db))
    if stored and waker is not None:
        waker.set()


def render(lang: str, template: str, **values: Any) -> tuple[str, str, str]:
    """``(subject, text, html)`` of the email ``template`` in ``lang``.

    ``emails/<template>.txt`` and ``emails/<template>.html`` extend the base
    layouts; both get ``_`` (the catalog's gettext), ``lang`` and ``values``.
    The subject is the catalog's ``email.<template>.subject`` filled with ``values``.
    """
    gettext = catalog(lang).gettext
    context = {"_": gettext, "lang": lang, **values}
    subject = one_line(gettext(f"email.{template}.subject", **values))
    text = _TEXT_TEMPLATES.get_template(f"{template}.txt").render(subject=subject, **context)
    html = _TEMPLATES.get_template(f"{template}.html").render(subject=subject, **context)
    return subject, text, html


@dataclass(frozen=True)
class SmtpTarget:
    """Where and how to send: parsed from ``MEEPLE_SMTP_URL``."""

    host: str
    port: int
    use_tls: bool
    """``smtps://``: TLS from the first byte."""
    start_tls: bool | None
    """``?starttls=true``: upgrade after connecting; ``None``: when the server offers it."""
    username: str | None
    password: str | None

    @classmethod
    def parse(cls, url: str) -> SmtpTarget:
        """``smtp[s]://[user:password@]host[:port][?starttls=true|false]``."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("MEEPLE_SMTP_URL: smtp:// or smtps://, then user:password@host:port")
        query = parse_qs(parts.query)
        starttls_text = (query.get("starttls") or [""])[0].lower()
        start_tls = {"true": True, "1": True, "false": False, "0": False}.get(starttls_text)
        use_tls = parts.scheme == "smtps"
        return cls(
            host=parts.hostname,
            port=parts.port or (465 if use_tls else 587 if start_tls else 25),
            use_tls=use_tls,
            start_tls=False if use_tls else start_tls,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
        )


def backoff(attempts: int) -> float:
    """The wait after the ``attempts``-th failure: 30 s, 60 s, 120 s, … at most an hour."""
    return float(min(MAX_BACKOFF_S, FIRST_BACKOFF_S * 2 ** max(0, attempts - 1)))


class Unbuildable(ValueError):
    """An outbox row that can never become a message; the text says why."""


def recipient_of(email: Any) -> str:
    """The one mailbox an outbox row goes to (its address read again, as at sign-up: a
    row stored before that check, or by other code, gets no second recipient from it);
    :class:`Unbuildable` if it is not one plain mailbox."""
    try:
        return clean_address(email.to)
    except NotAnAddress as exc:
        raise Unbuildable(f"the address {email.to!r} cannot be sent to: {exc}") from None


def build_message(email: Any, sender: str, now: float) -> EmailMessage:
    """The MIME message of an outbox row: plain text with an HTML alternative, dated
    ``now``; :class:`Unbuildable` if the row's address or a header cannot be sent."""
    to = recipient_of(email)
    message = EmailMessage()
    try:
        message["From"] = sender
        message["To"] = to
        message["Subject"] = one_line(email.subject)
        message["Date"] = formatdate(now, usegmt=True)
        message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip("> ") or None)
        for name, value in (email.headers or {}).items():
            message[name] = value
        message.set_content(email.text)
        message.add_alternative(email.html, subtype="html")
    except (ValueError, TypeError) as exc:
        raise Unbuildable(f"the message cannot be built: {exc}") from None
    return message


class Sender:
    """This server's sending loop over the shared outbox (started and stopped with the
    tables)."""

    def __init__(self, db: Database, clock: Clock, settings: Settings, server_id: str) -> None:
        self.db, self.clock, self.server_id = db, clock, server_id
        self.target = SmtpTarget.parse(settings.smtp_url) if settings.smtp_url else None
        self.sender = settings.email_from
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.sent = 0
        """Emails this server sent."""
        self.failures = 0
        """Tries to send that failed here (retried later, or given up)."""

    @property
    def enabled(self) -> bool:
        """Whether this server sends email (``MEEPLE_SMTP_URL`` is set)."""
        return self.target is not None

    def start(self) -> None:
        """Start the loop (or say once that email is off)."""
        if self.target is None:
            log.warning("email is off: set MEEPLE_SMTP_URL")
            return
        log.info("email on: %s:%s", self.target.host, self.target.port)
        _wakers[id(self.db)] = self._wake
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop the loop; a row claimed mid-send is retaken by any server after a minute."""
        if _wakers.get(id(self.db)) is self._wake:
            del _wakers[id(self.db)]
        await cancel_and_wait(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.send_due()
            except Exception:  # a database hiccup: the next round tries again
                log.exception("the email sender's round failed")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_S)
            self._wake.clear()

    async def send_due(self) -> int:
        """Claim and send every due email; how many went out."""
        now = self.clock.now()
        stale = now - STALE_CLAIM_S
        sent = 0
        for email_id in await self.db.run(queries.due_emails, now, stale, BATCH):
            email = await self.db.write(
                queries.claim_email, email_id, self.server_id, self.clock.now(), stale
            )
            if email is not None and await self._send(email):
                sent += 1
        return sent

    async def _send(self, email: Any) -> bool:
        assert self.target is not None
        target = self.target
        try:
            message = build_message(email, self.sender, self.clock.now())
            to = recipient_of(email)
        except Unbuildable as error:
            self.failures += 1
            log.error("email %s can never be sent: %s", email.id, error)
            await self.db.write(queries.mark_failed, email.id, self.server_id, str(error), None)
            return False
        try:
            await aiosmtplib.send(
                message,
                sender=parseaddr(self.sender)[1] or None,
                recipients=[to],
                hostname=target.host,
                port=target.port,
                username=target.username,
                password=target.password,
                use_tls=target.use_tls,
                start_tls=target.start_tls,
                timeout=SEND_TIMEOUT_S,
            )
        except ValueError as error:  # the message cannot be written out (an encoding): never
            self.failures += 1
            log.error("email %s can never be sent: %s", email.id, error)
            await self.db.write(queries.mark_failed, email.id, self.server_id, str(error), None)
            return False
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as error:
            attempts = email.attempts + 1
            retry_at = None if attempts >= MAX_ATTEMPTS else self.clock.now() + backoff(attempts)
            self.failures += 1
            log.warning("email %s not sent (try %d): %s", email.id, attempts, error)
            await self.db.write(queries.mark_failed, email.id, self.server_id, str(error), retry_at)
            return False
        await self.db.write(queries.mark_sent, email.id, self.server_id, self.clock.now())
        self.sent += 1
        return True
