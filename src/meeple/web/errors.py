"""How the web layer answers a refusal from the layers below: the HTTP status of each code.

The tables layer refuses with a :class:`~meeple.tables.errors.TableError`
(a stable code and a sentence) and knows nothing of HTTP; a code not listed
here is a plain ``400``. The WebSocket sends the code itself.
"""

from __future__ import annotations

from meeple.tables.errors import TableError

HTTP_STATUS: dict[str, int] = {
    "sign_in": 401,
    "wrong_password": 401,
    "bad_token": 401,
    "token_scope": 403,
    "no_token": 404,
    "has_played": 409,
    "too_many_tokens": 409,
    "name_shape": 422,
    "name_guest": 422,
    "password_short": 422,
    "password_long": 422,
    "password_common": 422,
    "password_name": 422,
    "password_varied": 422,
    "not_seated": 403,
    "not_your_seat": 403,
    "not_creator": 403,
    "no_table": 404,
    "no_player": 404,
    "not_reviewed": 404,
    "no_puzzle": 404,
    "no_challenge": 404,
    "no_feature": 404,
    "bad_move": 422,
    "conflict": 409,
    "name_taken": 409,
    "guest_no_password": 409,
    "guest_no_account": 409,
    "account_in_game": 409,
    "not_over": 409,
    "challenge_closed": 409,
    "email_off": 409,
    "email_shape": 422,
    "bad_link": 410,
    "rate_limited": 429,
    "too_many_streams": 429,
}
"""Codes answered with a status other than 400: 401 who are you, 403 not yours, 404 none,
409 state, 422 a bad name or password, 429 wait."""


def http_status(error: TableError) -> int:
    """The HTTP status a REST route answers ``error`` with."""
    return HTTP_STATUS.get(error.code, 400)
