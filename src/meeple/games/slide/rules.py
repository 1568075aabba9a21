"""Slide's turn structure: the simultaneous reveal, the draft, the end of a deal.

Every function here is pure: it reads a :class:`State` and returns a new one
with the public events of the step. Messages of :class:`IllegalAction` name
the rule an action breaks.
"""

from __future__ import annotations

from functools import lru_cache

from meeple.games.base import JSON, Effect, IllegalAction, Result, Seat, ranks_from_keys
from meeple.games.slide.actions import REVEALS, TAKES, Action, Reveal, Take
from meeple.games.slide.grid import (
    ENTRIES,
    HOLE,
    SIDES,
    SIZE,
    cell_index,
    entry_refusal,
    final_tally,
    index_cell,
    landing_index,
    rows,
    slide_in,
    with_hole,
)
from meeple.games.slide.state import (
    DRAFT,
    MATCH_TARGET,
    MAX_PLAYERS,
    NO_PICK,
    NO_SEAT,
    OVER,
    REVEAL,
    ROUNDS,
    State,
    start_deal,
)

_NOBODY: frozenset[Seat] = frozenset()
_SINGLE: dict[Seat, frozenset[Seat]] = {s: frozenset((s,)) for s in range(MAX_PLAYERS)}


def to_act(state: State) -> frozenset[Seat]:
    """Seats that may act: every seat yet to pick in the reveal, the taker in the draft."""
    if state.phase == DRAFT:
        return _SINGLE[state.turn]
    if state.phase == REVEAL:
        return state.waiting
    return _NOBODY


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now, each once (a take per distinct pool value)."""
    phase = state.phase
    if phase == DRAFT:
        if seat != state.turn:
            return []
        return list(_takes(state.pool, state.grids[seat].index(HOLE)))
    if phase == REVEAL and seat in state.waiting:
        return [REVEALS[i] for i, card in enumerate(state.grids[seat]) if card < 0]
    return []


@lru_cache(maxsize=4096)
def _takes(pool: tuple[int, ...], hole: int) -> tuple[Take, ...]:
    """Each distinct pool value (the pool is sorted) from each side open for ``hole``."""
    sides = ENTRIES[hole]
    return tuple(TAKES[(value, side)] for value in sorted(set(pool)) for side in sides)


def apply(state: State, seat: Seat, action: Action) -> tuple[State, list[Effect]]:
    """The state after ``seat`` acts and its public events; :class:`IllegalAction` if refused."""
    if not 0 <= seat < state.options.players:
        raise IllegalAction(
            f"there is no seat {seat} at this {state.options.players}-player table", "no_seat"
        )
    if state.phase == OVER:
        raise IllegalAction("the game is over", "game_over")
    if isinstance(action, Reveal):
        return _reveal(state, seat, action)
    if isinstance(action, Take):
        return _take(state, seat, action)
    raise IllegalAction(f"{action!r} is not a Slide action")


def _reveal(state: State, seat: Seat, action: Reveal) -> tuple[State, list[Effect]]:
    if state.phase != REVEAL:
        raise IllegalAction(
            "the reveal is over: it is the draft, and seat "
            f"{state.turn} takes a card from the pool",
            "reveal_over",
            seat=state.turn,
        )
    if seat not in state.waiting:
        raise IllegalAction(
            f"seat {seat} has already picked a card this round", "already_picked", seat=seat
        )
    cell = action.cell
    # A Reveal built in Python (not by parse_action) may hold anything.
    if not (
        isinstance(cell, tuple | list) and len(cell) == 2 and all(type(x) is int for x in cell)
    ):
        raise IllegalAction(f"a reveal names a cell (row, col) of two integers, not {cell!r}")
    row, col = cell
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise IllegalAction(f"there is no cell ({row},{col}): rows and columns go from 0 to 3")
    index = cell_index((row, col))
    if state.grids[seat][index] >= 0:
        raise IllegalAction(
            f"the card at ({row},{col}) is face up: pick one of your face-down cards",
            "face_up",
            cell=f"({row},{col})",
        )
    picks = (*state.picks[:seat], index, *state.picks[seat + 1 :])
    events: list[Effect] = [{"type": "picked", "seat": seat}]
    waiting = state.waiting - {seat}
    if waiting:
        return state._replace(picks=picks, waiting=waiting), events
    return _turn_up_picks(state, picks, events)


def _turn_up_picks(
    state: State, picks: tuple[int, ...], events: list[Effect]
) -> tuple[State, list[Effect]]:
    """Everyone has picked: all picked cards enter the pool at once and leave holes."""
    grids = []
    values = []
    cards: list[Effect] = []
    for seat, (grid, index) in enumerate(zip(state.grids, picks, strict=True)):
        value = -grid[index]
        grids.append(with_hole(grid, index))
        values.append(value)
        cards.append({"seat": seat, "cell": list(index_cell(index)), "value": value})
    pool = tuple(sorted(values))
    first = state.first
    events.append({"type": "revealed", "round": state.round, "cards": cards, "pool": list(pool)})
    if first == NO_SEAT:  # lowest_reveal_starts, round 1: lowest card, earliest seat on ties
        first = min(range(len(values)), key=lambda s: (values[s], s))
        events.append({"type": "first_player", "seat": first, "reason": "lowest revealed card"})
    new = state._replace(
        phase=DRAFT,
        grids=tuple(grids),
        picks=(NO_PICK,) * len(picks),
        waiting=frozenset(),
        pool=pool,
        first=first,
        turn=first,
        takes=0,
    )
    return new, events


def _take(state: State, seat: Seat, action: Take) -> tuple[State, list[Effect]]:
    if state.phase != DRAFT:
        raise IllegalAction(
            "it is the reveal: pick a face-down card of your grid first", "reveal_first"
        )
    if seat != state.turn:
        raise IllegalAction(
            f"it is seat {state.turn}'s turn to take a card, not seat {seat}'s",
            "other_turn",
            turn=state.turn,
            seat=seat,
        )
    pool = state.pool
    value, side = action.value, action.side
    if side not in SIDES:
        raise IllegalAction(f"the side must be one of {', '.join(SIDES)}, not {side!r}")
    if type(value) is not int:  # True == 1 and 1.0 == 1 would pass "in pool"
        raise IllegalAction(f"a card value must be an integer from 1 to 10, not {value!r}")
    if value not in pool:
        shown = ", ".join(map(str, pool))
        raise IllegalAction(
            f"there is no {value} in the pool (the pool holds {shown})",
            "not_in_pool",
            value=value,
            pool=shown,
        )
    grid = state.grids[seat]
    hole = grid.index(HOLE)
    refusal = entry_refusal(hole, side)
    if refusal is not None:
        raise IllegalAction(refusal, f"hole_{side}")
    at = pool.index(value)
    grids = state.grids
    grids = (*grids[:seat], slide_in(grid, value, side), *grids[seat + 1 :])
    event: Effect = {
        "type": "take",
        "seat": seat,
        "value": value,
        "side": side,
        "hole": list(index_cell(hole)),
        "cell": list(index_cell(landing_index(hole, side))),
    }
    takes = state.takes + 1
    players = state.options.players
    if takes < players:
        new = state._replace(
            grids=grids, pool=pool[:at] + pool[at + 1 :], turn=(seat + 1) % players, takes=takes
        )
        return new, [event]
    return _end_round(state, grids, [event])


def _end_round(
    state: State, grids: tuple[tuple[int, ...], ...], events: list[Effect]
) -> tuple[State, list[Effect]]:
    """The draft is done: the token passes left; after round 16 the deal ends."""
    players = state.options.players
    first = (state.first + 1) % players
    events.append({"type": "round_over", "round": state.round, "first_player": first})
    if state.round < ROUNDS:
        new = state._replace(
            round=state.round + 1,
            phase=REVEAL,
            waiting=frozenset(range(players)),
            first=first,
            grids=grids,
            pool=(),
            turn=NO_SEAT,
            takes=0,
        )
        return new, events
    return _end_deal(state._replace(grids=grids, first=first, pool=(), turn=NO_SEAT), events)


def _end_deal(state: State, events: list[Effect]) -> tuple[State, list[Effect]]:
    """Cancel and score every grid; end the game, or deal again in a match to 100."""
    tallies = [final_tally(grid) for grid in state.grids]
    scores = tuple(t[0] for t in tallies)
    cards_left = tuple(t[1] for t in tallies)
    final_grids = tuple(t[2] for t in tallies)
    totals = tuple(a + b for a, b in zip(state.totals, scores, strict=True))
    deal_scores = (*state.deal_scores, scores)
    events.append(
        {
            "type": "deal_over",
            "deal": state.deal,
            "grids": [rows(g) for g in final_grids],
            "scores": list(scores),
            "cards_left": list(cards_left),
            "totals": list(totals),
        }
    )
    options = state.options
    if options.match_to_100 and max(totals) < MATCH_TARGET:
        new = start_deal(
            options, state.seed, state.deal + 1, totals, deal_scores, cards_left, final_grids
        )
        events.append({"type": "new_deal", "deal": new.deal, "first_player": _seat_or_none(new)})
        return new, events
    ranked = totals if options.match_to_100 else scores
    keys = [(points, left) for points, left in zip(ranked, cards_left, strict=True)]
    params: dict[str, JSON] = {}
    if options.match_to_100:
        reason = (
            f"a running total reached {MATCH_TARGET} after {state.deal} deals: "
            "lowest running total wins, then fewer cards left in the last deal"
        )
        code, params = "reason_slide_match", {"target": MATCH_TARGET, "deals": state.deal}
    else:
        reason = "16 rounds played: lowest score after cancelling wins, then fewer cards left"
        code = "reason_slide"
    result = Result(
        scores=ranked,
        ranks=ranks_from_keys(keys),
        reason=reason,
        reason_code=code,
        reason_params=params,
        details={
            "cards_left": list(cards_left),
            "final_grids": [rows(g) for g in final_grids],
            "running_totals": list(totals),
            "deal_scores": [list(s) for s in deal_scores],
            "deals": state.deal,
        },
    )
    new = state._replace(
        phase=OVER,
        totals=totals,
        deal_scores=deal_scores,
        cards_left=cards_left,
        final_grids=final_grids,
        result=result,
    )
    events.append({"type": "game_over", "result": result.to_json()})
    return new, events


def _seat_or_none(state: State) -> int | None:
    return None if state.first == NO_SEAT else state.first
