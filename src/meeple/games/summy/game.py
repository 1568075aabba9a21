"""Summy behind the game contract of :mod:`meeple.games.base`: ``GAME``.

Actions in JSON (``parse_action`` / ``action_json``)::

    {"type": "place", "dir": "H", "tiles": [{"row": 0, "col": -3, "tile": "1"}, ...]}
    {"type": "discard", "tiles": ["9", "x"]}
    {"type": "pass"}

>>> state = GAME.setup({"players": 2}, seed=1)
>>> sorted(GAME.view(state, None))[:5]
['discarded', 'equations', 'first_player', 'game', 'game_over']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from itertools import combinations
from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict

from meeple.games.base import (
    JSON,
    BadOptions,
    Effect,
    IllegalAction,
    Preview,
    Result,
    Seat,
    refuse_unknown_keys,
)
from meeple.games.summy.formats import (
    FormatError,
    equation_to_json,
    placed_tiles_from_json,
    placed_tiles_to_json,
    position_from_json,
    tile_from_json,
)
from meeple.games.summy.notation import move_text
from meeple.games.summy.rules import check_placement, equation_text
from meeple.games.summy.state import SummyState, Turn, new_state, take_turn
from meeple.games.summy.tiles import Action, Discard, Pass, Placement, Position


def turn_json(turn: Turn) -> dict[str, JSON]:
    """The public account of a turn: never a discarded or drawn tile, only how many."""
    data: dict[str, JSON] = {"type": turn.kind, "seat": turn.seat}
    if turn.move is not None:
        move = turn.move
        data.update(
            dir=move.placement.dir,
            tiles=placed_tiles_to_json(move.placement.tiles),
            equation=move.equation_text,
            run=equation_to_json(move.equation),
            score=move.score,
            notation=move_text(move),
        )
    if turn.kind == "discard":
        data["count"] = turn.discarded
    data["drew"] = turn.drew
    return data


def position(state: SummyState) -> Position:
    """The position faced by the player to move (their hand, the table, the equations)."""
    return state.position()


def discards(hand: Iterable[str]) -> list[Discard]:
    """Every distinct discard of 1 or more tiles from ``hand`` (a multiset), smallest first."""
    tiles = sorted(hand)
    found: list[Discard] = []
    for size in range(1, len(tiles) + 1):
        for chosen in sorted(set(combinations(tiles, size))):
            found.append(Discard(chosen))
    return found


class SummyView(TypedDict):
    """What one seat (or a spectator) may know of a Summy game: the JSON every client gets.

    With ``hand``, ``tiles`` and ``equations`` a seat's view is a valid
    position JSON (``formats.position_from_json(view)``).
    """

    game: Literal["summy"]
    seat: int | None
    """The seat shown (``null``: a spectator)."""
    players: int
    hand: list[str] | None
    """This seat's tiles, sorted (``null`` for a spectator); never another seat's hand."""
    tiles: list[dict[str, JSON]]
    """Every table tile ``{"row", "col", "tile"}``, sorted by cell."""
    equations: list[dict[str, JSON]]
    """Every equation made, in order: ``{"row", "col", "dir", "length", "text"}``."""
    sealed: list[dict[str, int]]
    """The sealed cells ``{"row", "col"}``."""
    scores: list[int]
    turn: int | None
    """The seat to move (``null`` once over)."""
    first_player: int
    turns_taken: int
    stock: int
    """How many tiles are left in the stock (not which)."""
    hand_sizes: list[int]
    discarded: list[int]
    """How many tiles each seat has put out of the game (not which)."""
    my_discards: list[str] | None
    """The tiles this seat itself discarded, sorted (``null`` for a spectator)."""
    idle_turns: int
    """Consecutive turns begun with the stock empty that made no equation."""
    last_move: dict[str, JSON] | None
    """The last turn as its public event (:func:`turn_json`), ``null`` before the first."""
    game_over: bool
    result: dict[str, JSON] | None
    """``Result.to_json()`` once over, else ``null``."""


class SummyOptions(BaseModel):
    """Summy has no table option besides the player count."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SummyGame:
    """Summy for 1 or 2 players: make equations with tiles, score their digits."""

    name = "summy"
    min_players = 1
    max_players = 2
    quick_play_seats = 2
    options_model: type[BaseModel] = SummyOptions

    def default_options(self, players: int) -> dict[str, JSON]:
        """``{"players": players}``: Summy has no other option."""
        return {"players": players}

    def setup(self, options: Mapping[str, JSON], seed: int) -> SummyState:
        """A new game for ``options["players"]`` seats, dealt from ``seed``.

        Raises :class:`BadOptions` for a missing or bad player count or any other key.
        """
        if not isinstance(options, Mapping):
            raise BadOptions("Summy options must be an object like {'players': 2}")
        unknown = sorted(set(options) - {"players"})
        if unknown:
            raise BadOptions(f"Summy has no option {unknown[0]!r}; its only option is 'players'")
        players = options.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise BadOptions("Summy needs 'players': 1 or 2")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(f"Summy is for 1 or 2 players, not {players}")
        return new_state(players, seed)

    def to_act(self, state: SummyState) -> frozenset[Seat]:
        """The seat whose turn it is; nobody once the game is over."""
        return frozenset() if state.result is not None else frozenset({state.turn})

    def legal_actions(self, state: SummyState, seat: Seat) -> list[Action]:
        """Every action of ``seat`` now: placements, then discards, then pass if allowed.

        Placements come from :func:`meeple.games.summy.movegen.legal_moves` in
        its order; discards are every distinct sub-multiset of the hand, by size
        then tiles; pass only when the stock is empty.
        """
        if state.result is not None or seat != state.turn:
            return []
        from meeple.games.summy.movegen import legal_moves  # the move generator is optional

        actions: list[Action] = [move.placement for move in legal_moves(state.position())]
        actions.extend(discards(state.hands[seat]))
        if not state.stock:
            actions.append(Pass())
        return actions

    def apply(
        self, state: SummyState, seat: Seat, action: Action
    ) -> tuple[SummyState, list[Effect]]:
        """Take a turn; the events say publicly what happened (never which tiles went out)."""
        after = take_turn(state, seat, action)
        assert after.last is not None
        events: list[Effect] = [{**turn_json(after.last), "stock": len(after.stock)}]
        if after.result is not None:
            events.append({"type": "game_over", "result": after.result.to_json()})
        return after, events

    def view(self, state: SummyState, seat: Seat | None) -> SummyView:
        """What ``seat`` may know (``None``: a spectator); :class:`SummyView` gives the keys.

        Raises ``ValueError`` for a seat the game does not have.
        """
        if seat is not None and not 0 <= seat < state.players:
            seats = "the only seat is 0" if state.players == 1 else "the seats are 0 and 1"
            raise ValueError(f"Summy has no seat {seat}: {seats}")
        sealed = sorted({cell for eq in state.equations for cell in eq.sealed_cells()})
        return {
            "game": "summy",
            "seat": seat,
            "players": state.players,
            "hand": None if seat is None else list(state.hands[seat]),
            "tiles": placed_tiles_to_json(sorted(state.table.items())),
            "equations": [
                {**equation_to_json(eq), "text": equation_text(state.table, eq)}
                for eq in state.equations
            ],
            "sealed": [{"row": row, "col": col} for row, col in sealed],
            "scores": list(state.scores),
            "turn": None if state.result is not None else state.turn,
            "first_player": state.first_player,
            "turns_taken": state.turns_taken,
            "stock": len(state.stock),
            "hand_sizes": [len(hand) for hand in state.hands],
            "discarded": list(state.discarded),
            "my_discards": None if seat is None else sorted(state.discards[seat]),
            "idle_turns": state.idle_turns,
            "last_move": None if state.last is None else turn_json(state.last),
            "game_over": state.result is not None,
            "result": None if state.result is None else state.result.to_json(),
        }

    def resample_hidden(
        self, state: SummyState, seat: Seat | None, rng: random.Random
    ) -> SummyState:
        """The same state with every tile ``seat`` cannot see dealt again at random.

        The other seats' hands, the tiles they discarded face down and the
        stock are pooled, shuffled with ``rng`` and dealt back in the same
        sizes; ``seat``'s own hand and discards (none for a spectator) and the
        table stay. The view of ``seat`` must not change; bots may use this to
        sample what they cannot see.
        """
        hidden = [s for s in range(state.players) if s != seat]
        pool = [tile for s in hidden for tile in (*state.hands[s], *state.discards[s])]
        pool += state.stock
        rng.shuffle(pool)
        hands = list(state.hands)
        discards = list(state.discards)
        for other in hidden:
            size = len(hands[other])
            hands[other], pool = tuple(sorted(pool[:size])), pool[size:]
            size = len(discards[other])
            discards[other], pool = tuple(sorted(pool[:size])), pool[size:]
        return replace(state, hands=tuple(hands), discards=tuple(discards), stock=tuple(pool))

    def result(self, state: SummyState) -> Result | None:
        """The result once the game is over, else ``None``."""
        return state.result

    def parse_action(self, data: JSON) -> Action:
        """An action from its JSON form; :class:`IllegalAction` naming what is malformed.

        Strict: a key the action (or one of its tiles) does not take is refused.
        """
        if not isinstance(data, dict):
            raise IllegalAction("an action must be an object with a 'type'")
        kind = data.get("type")
        try:
            if kind == "place":
                refuse_unknown_keys(data, ("type", "dir", "tiles"), "a placement")
                direction = data.get("dir")
                if direction not in ("H", "V"):
                    raise IllegalAction(f"a placement needs 'dir': 'H' or 'V', not {direction!r}")
                tiles = placed_tiles_from_json(data.get("tiles"), "tiles")
                for index, item in enumerate(data["tiles"]):
                    refuse_unknown_keys(item, ("row", "col", "tile"), f"tiles[{index}]")
                return Placement("H" if direction == "H" else "V", tuple(tiles))
            if kind == "discard":
                refuse_unknown_keys(data, ("type", "tiles"), "a discard")
                items = data.get("tiles")
                if not isinstance(items, list):
                    raise IllegalAction("a discard needs 'tiles': a list of tiles")
                return Discard(tuple(tile_from_json(t, f"tiles[{i}]") for i, t in enumerate(items)))
        except FormatError as exc:
            raise IllegalAction(str(exc)) from None
        if kind == "pass":
            refuse_unknown_keys(data, ("type",), "a pass")
            return Pass()
        raise IllegalAction(f"unknown action type {kind!r}: use 'place', 'discard' or 'pass'")

    def preview(self, position: JSON, action: JSON) -> Preview:
        """Whether a placement is legal in a position (the shared position format), and its score.

        ``ValueError`` (:class:`~meeple.games.summy.formats.FormatError`) for a
        malformed position; a malformed or illegal action is a refusal.
        """
        seen = position_from_json(position)
        try:
            placement = self.parse_action(action)
            if not isinstance(placement, Placement):
                raise IllegalAction("only a placement can be checked before it is played")
            move = check_placement(seen.tiles, seen.equations, seen.hand, placement)
        except IllegalAction as exc:
            return Preview(legal=False, message=str(exc), code=exc.code, params=exc.params)
        return Preview(legal=True, score=move.score, text=move.equation_text)

    def is_move(self, action: JSON) -> bool:
        """Every action is a move: each one (a placement, a discard or a pass) is a whole
        turn of its player.

        >>> GAME.is_move({"type": "pass"})
        True
        """
        return True

    def action_json(self, action: Action) -> JSON:
        """The JSON form of an action (``parse_action`` reads it back)."""
        if isinstance(action, Placement):
            return {"type": "place", "dir": action.dir, "tiles": placed_tiles_to_json(action.tiles)}
        if isinstance(action, Discard):
            return {"type": "discard", "tiles": list(action.tiles)}
        return {"type": "pass"}


GAME = SummyGame()
"""The Summy game, as :func:`meeple.games.get_game` returns it."""
