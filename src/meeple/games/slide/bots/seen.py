"""What a Slide bot reads from its seat's view, and the actions that view allows.

The view's grids (``0`` face-down, ``null`` the hole) are turned into the
engine's grid encoding with ``-1`` for every face-down card, whose value the
bot never knows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from meeple.games.base import JSON, Seat
from meeple.games.slide.bots.evaluate import unseen_counts
from meeple.games.slide.grid import ENTRIES, HOLE, SIZE, Grid, Side

UNKNOWN = -1
"""A face-down card in a bot's grid: its value is not known."""


@dataclass(frozen=True)
class SlideSeen:
    """A Slide view, read once into the shapes the bots compute with.

    ``grids[s]`` is seat ``s``'s grid (``UNKNOWN`` face-down, 0 the hole);
    ``pool`` is sorted; ``my_pick`` is the cell index of the viewer's pending
    pick, if any; ``first``/``turn`` are ``None`` when the view says so.
    """

    seat: Seat
    players: int
    phase: str
    round: int
    rounds: int
    first: int | None
    turn: int | None
    picked: tuple[bool, ...]
    my_pick: int | None
    grids: tuple[Grid, ...]
    pool: tuple[int, ...]

    @property
    def grid(self) -> Grid:
        """The viewer's own grid."""
        return self.grids[self.seat]

    def unseen(self) -> list[int]:
        """Per value 1..10 (index), how many cards of this deal nobody has seen."""
        seen = [c for grid in self.grids for c in grid if c > 0]
        return unseen_counts(seen + list(self.pool))

    def takers_after_me(self) -> list[Seat]:
        """During the draft: the seats that take a card after the viewer this round."""
        if self.turn is None or self.first is None:
            return []
        done = (self.turn - self.first) % self.players
        return [(self.turn + k) % self.players for k in range(1, self.players - done)]

    def draft_position(self) -> int:
        """0 if the viewer takes first this round, 1 second, ...; 0 if not known yet."""
        return 0 if self.first is None else (self.seat - self.first) % self.players


def read_view(view: Mapping[str, JSON], seat: Seat) -> SlideSeen:
    """Read a Slide view of ``seat`` (see :func:`meeple.games.slide.view.view`)."""
    grids = []
    for rows in view["grids"]:
        cells: list[int] = []
        for row in rows:
            for card in row:
                cells.append(HOLE if card is None else (UNKNOWN if card == 0 else int(card)))
        grids.append(tuple(cells))
    pick = view.get("my_pick")
    return SlideSeen(
        seat=seat,
        players=int(view["players"]),
        phase=str(view["phase"]),
        round=int(view["round"]),
        rounds=int(view["rounds"]),
        first=view.get("first_player"),
        turn=view.get("turn"),
        picked=tuple(bool(p) for p in view["picked"]),
        my_pick=None if pick is None else int(pick[0]) * SIZE + int(pick[1]),
        grids=tuple(grids),
        pool=tuple(sorted(int(v) for v in view["pool"])),
    )


def reveal_json(index: int) -> dict[str, JSON]:
    """The JSON of revealing the card at grid index ``index``."""
    return {"type": "reveal", "cell": [index // SIZE, index % SIZE]}


def take_json(value: int, side: Side) -> dict[str, JSON]:
    """The JSON of taking ``value`` from the pool and sliding it in from ``side``."""
    return {"type": "take", "value": value, "side": side}


def legal_reveals(seen: SlideSeen) -> list[int]:
    """The grid indexes the viewer may reveal now (empty outside its reveal)."""
    if seen.phase != "reveal" or seen.my_pick is not None or seen.picked[seen.seat]:
        return []
    return [i for i, card in enumerate(seen.grid) if card < 0]


def legal_takes(seen: SlideSeen) -> list[tuple[int, Side]]:
    """The ``(value, side)`` takes the viewer may make now (empty if not its turn)."""
    if seen.phase != "draft" or seen.turn != seen.seat or HOLE not in seen.grid:
        return []
    sides = ENTRIES[seen.grid.index(HOLE)]
    return [(value, side) for value in sorted(set(seen.pool)) for side in sides]


def legal_action_jsons(seen: SlideSeen) -> list[dict[str, JSON]]:
    """Every action the view allows, as JSON (reveals, or takes)."""
    return [reveal_json(i) for i in legal_reveals(seen)] + [
        take_json(value, side) for value, side in legal_takes(seen)
    ]


class NoActionError(ValueError):
    """A bot was asked to act from a view in which its seat may not act."""


def reveal_or_take(
    seen: SlideSeen,
    choose_reveal: Callable[[list[int]], int],
    choose_take: Callable[[list[tuple[int, Side]]], tuple[int, Side]],
) -> dict[str, JSON]:
    """The viewer's action as JSON: during its reveal, the cell ``choose_reveal`` picks among
    the legal ones; else the take ``choose_take`` picks among the legal takes.
    :class:`NoActionError` if the view allows neither."""
    reveals = legal_reveals(seen)
    if reveals:
        return reveal_json(choose_reveal(reveals))
    takes = legal_takes(seen)
    if not takes:
        raise NoActionError(f"seat {seen.seat} has nothing to do in this Slide view")
    value, side = choose_take(takes)
    return take_json(value, side)
