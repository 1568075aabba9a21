"""Email addresses as the server takes them: one plain mailbox, in one form.

:func:`clean_address` has the maintained library ``email-validator`` read the
address, without quoted local parts (``"a b"@x``), IP literals (``a@[127.0.0.1]``)
or non-ASCII before the ``@`` (which needs SMTPUTF8, that many mail servers lack).
An internationalised domain is accepted and kept in its ASCII (IDNA) form:
``ada@bücher.de`` is stored, shown and sent as ``ada@xn--bcher-kva.de``, so
both spellings are one address. RFC 2047 encoded-words (``=?utf-8?q?…?=``) are
valid characters of a local part, but a mail library reading the ``To:``
header decodes them, into a second recipient: they are refused. The whole
address is kept in lower case (the local part's case is almost never
significant, and one address must not become two accounts' by its case).

:func:`mailbox_key` is the mailbox behind an address, for limits: ``A+2@X.org``
and ``a@x.org`` are the mailbox ``a@x.org``, so plus-tags cannot bomb one inbox.
"""

from __future__ import annotations

import re

from email_validator import EmailNotValidError, validate_email

MAX_ADDRESS_CHARS = 254
"""The longest address SMTP carries (RFC 5321's path, less its angle brackets)."""

ENCODED_WORD = re.compile(r"=\?.*\?=", re.DOTALL)
"""An RFC 2047 encoded-word: decoded by whoever parses the header it lands in."""


class NotAnAddress(ValueError):
    """The text is not one plain, sendable mailbox address; the message says why."""


def clean_address(text: str) -> str:
    """The address as stored and sent (see the module's docstring); :class:`NotAnAddress`
    if it is not one."""
    candidate = text.strip()
    if ENCODED_WORD.search(candidate):
        raise NotAnAddress("an address may not hold an encoded-word (=?…?=)")
    try:
        found = validate_email(
            candidate,
            check_deliverability=False,
            allow_smtputf8=False,
            allow_quoted_local=False,
            allow_domain_literal=False,
            allow_display_name=False,
        )
    except EmailNotValidError as exc:
        raise NotAnAddress(str(exc)) from None
    address = str(found.ascii_email or "").lower()
    if not address or len(address) > MAX_ADDRESS_CHARS:
        raise NotAnAddress(f"an address has at most {MAX_ADDRESS_CHARS} characters")
    return address


def mailbox_key(address: str) -> str:
    """The mailbox an address reaches: lower case, without a ``+tag`` in its local part."""
    local, _, domain = address.strip().lower().rpartition("@")
    return f"{local.split('+', 1)[0]}@{domain}"
