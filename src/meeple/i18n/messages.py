"""Translating the engines' and the server's English messages by their known shapes.

The engines explain a refused action in plain English ("2+3x4 is 14, not
20"). Each known shape is a regular expression with numbered groups and a
catalog key whose text uses ``{0}``, ``{1}``... for those groups. The same
table is sent to the browser (see :func:`message_patterns`), so a message that
arrives over the WebSocket is translated the same way as one checked here. A
message of an unknown shape is shown as it is.

>>> translate("fr", "2+3x4 is 14, not 20")
'2+3x4 vaut 14, pas 20.'
>>> translate("ja", "something new")
'something new'
"""

from __future__ import annotations

import re
from functools import cache

from meeple.i18n import catalog

_ANY = r"(.+?)"
_CELL = r"(\(-?\d+, ?-?\d+\))"
_HOLE = "you cannot slide a card straight into the hole: the hole is in "

PATTERNS: tuple[tuple[str, str], ...] = (
    # Summy equations (games/summy/equation.py)
    (r"an equation needs tiles", "engine.eq_empty"),
    (rf"{_ANY} has no =: an equation needs exactly one =", "engine.eq_no_equals"),
    (rf"{_ANY} has (\d+) = signs: an equation needs exactly one", "engine.eq_many_equals"),
    (rf"{_ANY} starts with (.): it must start with a number", "engine.eq_starts"),
    (rf"{_ANY} ends with (.): it must end with a number", "engine.eq_ends"),
    (rf"{_ANY} has (..): two signs side by side", "engine.eq_two_signs"),
    (rf"{_ANY}: after the = there must be one number and nothing else", "engine.eq_right"),
    (
        rf"{_ANY}: before the = there must be two or more numbers with an operator between",
        "engine.eq_left",
    ),
    (rf"{_ANY} has a leading zero", "engine.eq_leading_zero"),
    (rf"{_ANY} divides by zero", "engine.eq_div_zero"),
    (rf"{_ANY} is {_ANY}, not {_ANY}", "engine.eq_false"),
    (rf"'?{_ANY}'? is not a Summy tile", "engine.eq_bad_tile"),
    # Summy placements (games/summy/rules.py)
    (rf"the cell {_CELL} is sealed: it is just before the equation {_ANY}", "engine.sealed_before"),
    (rf"the cell {_CELL} is sealed: it is just after the equation {_ANY}", "engine.sealed_after"),
    (r"a placement puts at least one tile on the table", "engine.no_tiles"),
    (rf"the cell {_CELL} is given two tiles", "engine.two_tiles_one_cell"),
    (rf"the cell {_CELL} already holds {_ANY}", "engine.occupied"),
    (rf"tile {_ANY} is not in your hand", "engine.not_in_hand"),
    (rf"you place (\d+) tiles {_ANY} but your hand holds only (\d+)", "engine.too_many_of"),
    (r"the placed tiles are not all in one row", "engine.not_one_row"),
    (r"the placed tiles are not all in one column", "engine.not_one_column"),
    (rf"there is an empty cell {_CELL} between placed tiles", "engine.gap"),
    (r"the equation must use at least one tile already on the table", "engine.no_old_tile"),
    # Slide (games/slide/rules.py, grid.py)
    (_HOLE + "column 0, so the card cannot enter from the left", "engine.hole_left"),
    (_HOLE + "column 3, so the card cannot enter from the right", "engine.hole_right"),
    (_HOLE + "row 0, so the card cannot enter from the top", "engine.hole_top"),
    (_HOLE + "row 3, so the card cannot enter from the bottom", "engine.hole_bottom"),
    (rf"the card at {_CELL} is face up: pick one of your face-down cards", "engine.face_up"),
    (r"seat (\d+) has already picked a card this round", "engine.already_picked"),
    (rf"there is no (\d+) in the pool \(the pool holds {_ANY}\)", "engine.not_in_pool"),
    (r"it is the reveal: pick a face-down card of your grid first", "engine.reveal_first"),
    (
        r"the reveal is over: it is the draft, and seat (\d+) takes a card from the pool",
        "engine.reveal_over",
    ),
    (r"it is seat (\d+)'s turn to take a card, not seat (\d+)'s", "engine.other_turn"),
    # Results (Result.reason)
    (r"the stock is empty and a full round made no equation", "engine.reason_summy_round"),
    (r"the stock is empty and a turn made no equation", "engine.reason_summy_turn"),
    (
        r"16 rounds played: lowest score after cancelling wins, then fewer cards left",
        "engine.reason_slide",
    ),
    (
        r"a running total reached (\d+) after (\d+) deals: lowest running total wins, "
        r"then fewer cards left in the last deal",
        "engine.reason_slide_match",
    ),
    # Accounts and tables (web/security.py, tables/)
    (r"wrong name or password", "engine.wrong_password"),
    (r"too many [a-z -]+; try again in (\d+) s", "engine.rate_limited"),
    (r"a guest has no password: sign up to choose one", "engine.guest_no_password"),
    (rf"there is no player {_ANY}", "engine.no_player"),
    (rf"there is no table {_ANY}", "engine.no_table"),
    (rf"the name {_ANY} is taken", "engine.name_taken"),
    (r"a name is 3 to 20 letters, digits, '_' or '-', starting with a letter", "engine.name_shape"),
    (r"names starting with 'guest' are kept for guests", "engine.name_guest"),
    (r"the password is too short: at least (\d+) characters", "engine.password_short"),
    (r"the password is too long: at most 256 characters", "engine.password_long"),
    (r"the password is one of the most common ones; choose another", "engine.password_common"),
    (r"the password must not contain the name", "engine.password_name"),
    (r"the password needs at least 5 different characters", "engine.password_varied"),
    (r"seat (\d+) is taken", "engine.seat_taken"),
    (r"you already have a seat at this table", "engine.already_seated"),
    (r"every seat must be taken before the start", "engine.seats_free"),
    (r"there is no free seat at this table", "engine.table_full"),
    (r"you have no seat at this table", "engine.not_seated"),
    (r"a chat message cannot be empty", "engine.chat_empty"),
    (r"sign in \(or play as a guest\) to do that", "engine.sign_in"),
    (r"the game has already started", "engine.started"),
    (r"the game is not running", "engine.not_running"),
    (r"a bot plays your seat for the rest of this game", "engine.zombie_seat"),
    # Turns, whatever the game
    (r"the game is over", "engine.game_over"),
    (r"it is not your turn", "engine.not_your_turn"),
    (r"it is seat (\d+)'s turn, not seat (\d+)'s", "engine.summy_other_turn"),
    (r"you may pass only when the stock is empty.*", "engine.pass_refused"),
)


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(pattern), key) for pattern, key in PATTERNS)


def message_patterns() -> list[list[str]]:
    """The pattern table as ``[[regex, key], ...]`` for the pages' scripts."""
    return [[pattern, key] for pattern, key in PATTERNS]


def translate(lang: str, message: str) -> str:
    """``message`` in ``lang`` when its shape is known, else ``message`` unchanged."""
    for pattern, key in _compiled():
        match = pattern.fullmatch(message)
        if match:
            text = catalog(lang).messages.get(key)
            if text:
                return text.format(*match.groups())
            return message
    return message
