"""Bots for every game at four levels, behind one interface (:class:`Bot`).

The game server and the arena call :func:`get_bot` to put a bot in a seat:

>>> bot = get_bot("slide", "greedy", seed=7)
>>> (bot.game, bot.level)
('slide', 'greedy')
"""

from __future__ import annotations

from importlib import import_module

from meeple.bots.base import LEVEL_LABELS, LEVELS, Bot

__all__ = ["BOT_CLASSES", "LEVELS", "LEVEL_LABELS", "Bot", "get_bot", "levels_for", "register_bot"]

BOT_CLASSES: dict[tuple[str, str], str] = {
    ("summy", "random"): "meeple.bots.summy_basic:RandomSummyBot",
    ("summy", "greedy"): "meeple.bots.summy_basic:GreedySummyBot",
    ("summy", "strong"): "meeple.bots.summy_strong:StrongSummyBot",
    ("summy", "expert"): "meeple.bots.summy_expert:ExpertSummyBot",
    ("slide", "random"): "meeple.bots.slide_basic:RandomSlideBot",
    ("slide", "greedy"): "meeple.bots.slide_basic:GreedySlideBot",
    ("slide", "strong"): "meeple.bots.slide_strong:StrongSlideBot",
    ("slide", "expert"): "meeple.bots.slide_expert:ExpertSlideBot",
}
"""Where each ``(game, level)`` bot class lives, as ``module:Class`` (imported lazily)."""


def register_bot(game: str, level: str, where: str) -> None:
    """Add the bot of ``game`` at ``level``, a class at ``where`` (``module:Class``).

    A game that is not built in registers at least ``greedy``: the server has
    a greedy bot move for a player whose clock runs out, and for a seat left.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    BOT_CLASSES[(game, level)] = where


def get_bot(game: str, level: str, seed: int) -> Bot:
    """A new bot for ``game`` at ``level``, deterministic for ``seed``.

    ``KeyError`` naming the choices for an unknown game or level.
    """
    where = BOT_CLASSES.get((game, level))
    if where is None:
        games = sorted({g for g, _ in BOT_CLASSES})
        raise KeyError(
            f"no {level!r} bot for {game!r}; games: {', '.join(games)}; levels: {', '.join(LEVELS)}"
        )
    module_name, _, class_name = where.partition(":")
    bot: Bot = getattr(import_module(module_name), class_name)(seed)
    return bot


def levels_for(game: str) -> tuple[str, ...]:
    """The bot levels ``game`` has, weakest first.

    >>> levels_for("summy")
    ('random', 'greedy', 'strong', 'expert')
    """
    return tuple(level for level in LEVELS if (game, level) in BOT_CLASSES)
