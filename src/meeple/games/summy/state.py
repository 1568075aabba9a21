"""Summy's immutable game state, its setup from a seed, and the turn that changes it.

Everything random happens in :func:`new_state`: the 93 tiles left after the
start ``=`` are shuffled with ``random.Random(seed)``, seat 0 draws the first
8, seat 1 the next 8, and the same generator breaks a tie for first player.
After that a game is a pure function of its actions: the stock is drawn from
the front.

>>> state = new_state(2, seed=7)
>>> len(state.stock), [len(hand) for hand in state.hands], dict(state.table)
(77, [8, 8], {(0, 0): '='})
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from meeple.games.base import IllegalAction, Result, Seat, ranks_from_keys
from meeple.games.summy.rules import check_placement, take_from_hand
from meeple.games.summy.tiles import (
    BAG,
    DIGITS,
    EQUALS,
    HAND_SIZE,
    START_CELL,
    TILES,
    Action,
    Cell,
    Discard,
    Equation,
    Move,
    Pass,
    Placement,
    Position,
)

T = TypeVar("T")


class Table(Mapping[Cell, str]):
    """The tiles on the table, cell to tile: an immutable, hashable, picklable mapping.

    >>> table = Table({(0, 0): "="})
    >>> table.with_tiles([((0, 1), "2")]) == {(0, 0): "=", (0, 1): "2"}, len(table)
    (True, 1)
    """

    __slots__ = ("_tiles",)

    def __init__(self, tiles: Mapping[Cell, str] | None = None) -> None:
        self._tiles: dict[Cell, str] = dict(tiles or {})

    def __getitem__(self, cell: Cell) -> str:
        return self._tiles[cell]

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, cell: object) -> bool:
        return cell in self._tiles

    def __hash__(self) -> int:
        return hash(frozenset(self._tiles.items()))

    def __repr__(self) -> str:
        return f"Table({self._tiles!r})"

    def __getstate__(self) -> dict[Cell, str]:
        return self._tiles

    def __setstate__(self, tiles: dict[Cell, str]) -> None:
        self._tiles = tiles

    def with_tiles(self, pairs: Iterable[tuple[Cell, str]]) -> Table:
        """A new table with these tiles added (this one is unchanged)."""
        tiles = dict(self._tiles)
        tiles.update(pairs)
        return Table(tiles)


@dataclass(frozen=True)
class Turn:
    """What a turn did, as everyone saw it: the move placed, or how many tiles went out."""

    seat: Seat
    kind: str
    """``"place"``, ``"discard"`` or ``"pass"``."""
    move: Move | None = None
    discarded: int = 0
    drew: int = 0


@dataclass(frozen=True)
class SummyState:
    """A Summy game at one moment. Never changed: every turn makes a new one.

    ``hands[s]`` is sorted; ``stock`` is drawn from the front;
    ``discards[s]`` holds the tiles seat ``s`` put out face down, sorted (a
    secret like the hands: views show only how many); ``idle_turns`` counts
    the consecutive turns that began with an empty stock and made no equation
    (the game ends when it reaches ``players``).
    """

    players: int
    table: Table
    equations: tuple[Equation, ...]
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    scores: tuple[int, ...]
    turn: Seat
    first_player: Seat
    turns_taken: int = 0
    idle_turns: int = 0
    discards: tuple[tuple[str, ...], ...] = ()
    last: Turn | None = None
    result: Result | None = None

    def __repr__(self) -> str:
        """The public part only, with counts for the secrets: a logged state leaks nothing."""
        return (
            f"SummyState(players={self.players}, turn={self.turn}, scores={self.scores}, "
            f"table={dict(self.table)}, equations={self.equations}, "
            f"hand_sizes={[len(hand) for hand in self.hands]}, stock={len(self.stock)}, "
            f"discarded={list(self.discarded)}, idle_turns={self.idle_turns}, "
            f"turns_taken={self.turns_taken}, result={self.result})"
        )

    @property
    def discarded(self) -> tuple[int, ...]:
        """How many tiles each seat has discarded (public, unlike which)."""
        return tuple(len(pile) for pile in self.discards)

    def position(self) -> Position:
        """The :class:`Position` faced by the seat whose turn it is."""
        return Position(dict(self.table), self.equations, self.hands[self.turn])


def initial_stock() -> list[str]:
    """The 93 tiles that are not the start ``=``, in a fixed order (before shuffling)."""
    tiles = [tile for tile in TILES for _ in range(BAG[tile])]
    tiles.remove(EQUALS)
    return tiles


def first_player_key(hand: Sequence[str]) -> tuple[int, ...]:
    """The key compared to choose the first player: the hand's digits sorted, then 10.

    The 10 makes a list that runs out count as higher than any digit.

    >>> first_player_key(["7", "+", "2", "2"])
    (2, 2, 7, 10)
    """
    return (*sorted(int(tile) for tile in hand if tile in DIGITS), 10)


def choose_first_player(hands: Sequence[Sequence[str]], rng: random.Random) -> Seat:
    """The seat with the lowest :func:`first_player_key`; ``rng`` breaks a tie.

    >>> choose_first_player([["1", "5", "="], ["1", "3", "9"]], random.Random(0))
    1
    """
    keys = [first_player_key(hand) for hand in hands]
    lowest = min(keys)
    starters = [seat for seat, key in enumerate(keys) if key == lowest]
    return starters[0] if len(starters) == 1 else starters[rng.randrange(len(starters))]


def new_state(players: int, seed: int) -> SummyState:
    """A new game: the start ``=`` on (0,0), the stock shuffled, 8 tiles dealt to each seat."""
    rng = random.Random(seed)
    stock = initial_stock()
    rng.shuffle(stock)
    hands = tuple(tuple(sorted(stock[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(players))
    first = choose_first_player(hands, rng)
    return SummyState(
        players=players,
        table=Table({START_CELL: EQUALS}),
        equations=(),
        hands=hands,
        stock=tuple(stock[players * HAND_SIZE :]),
        scores=(0,) * players,
        turn=first,
        first_player=first,
        discards=((),) * players,
    )


def _take_from_hand(hand: tuple[str, ...], tiles: Sequence[str]) -> tuple[str, ...]:
    """The hand without ``tiles`` (a multiset); :class:`IllegalAction` if it lacks some."""
    left = take_from_hand(hand, tiles, "give", "too_many_given")
    return tuple(sorted(left.elements()))


def take_turn(state: SummyState, seat: Seat, action: Action) -> SummyState:
    """The state after ``seat`` takes ``action``; :class:`IllegalAction` saying why not."""
    if state.result is not None:
        raise IllegalAction("the game is over", "game_over")
    if seat != state.turn:
        raise IllegalAction(
            f"it is seat {state.turn}'s turn, not seat {seat}'s",
            "summy_other_turn",
            turn=state.turn,
            seat=seat,
        )
    hand = state.hands[seat]
    table = state.table
    equations = state.equations
    scores = state.scores
    discards = state.discards
    if isinstance(action, Placement):
        move = check_placement(table, equations, hand, action)
        hand = _take_from_hand(hand, [tile for _, tile in action.tiles])
        table = table.with_tiles(action.tiles)
        equations = (*equations, move.equation)
        scores = _replaced(scores, seat, scores[seat] + move.score)
        turn = Turn(seat, "place", move=move)
    elif isinstance(action, Discard):
        if not action.tiles:
            raise IllegalAction("a discard puts out at least one tile", "empty_discard")
        hand = _take_from_hand(hand, action.tiles)
        discards = _replaced(discards, seat, tuple(sorted(discards[seat] + action.tiles)))
        turn = Turn(seat, "discard", discarded=len(action.tiles))
    elif isinstance(action, Pass):
        if state.stock:
            raise IllegalAction(
                "you may pass only when the stock is empty; discard at least one tile instead",
                "pass_refused",
            )
        turn = Turn(seat, "pass")
    else:
        raise IllegalAction(f"{action!r} is not a Summy action")
    drawn = min(HAND_SIZE - len(hand), len(state.stock))
    hand = tuple(sorted(hand + state.stock[:drawn]))
    idle = 0 if turn.kind == "place" or state.stock else state.idle_turns + 1
    after = replace(
        state,
        table=table,
        equations=equations,
        hands=_replaced(state.hands, seat, hand),
        stock=state.stock[drawn:],
        scores=scores,
        turn=(seat + 1) % state.players,
        turns_taken=state.turns_taken + 1,
        idle_turns=idle,
        discards=discards,
        last=replace(turn, drew=drawn),
    )
    if idle >= state.players:
        after = replace(after, result=final_result(after))
    return after


def final_result(state: SummyState) -> Result:
    """The result of a game that has just ended: highest total first, equal totals share."""
    if state.players == 1:
        reason, code = "the stock is empty and a turn made no equation", "reason_summy_turn"
    else:
        reason, code = "the stock is empty and a full round made no equation", "reason_summy_round"
    return Result(
        scores=state.scores,
        ranks=ranks_from_keys([(-score,) for score in state.scores]),
        reason=reason,
        reason_code=code,
        details={
            "turns": state.turns_taken,
            "tiles_in_hand": [len(hand) for hand in state.hands],
            "tiles_discarded": list(state.discarded),
        },
    )


def _replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with the item at ``index`` replaced."""
    return (*values[:index], value, *values[index + 1 :])
