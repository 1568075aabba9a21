"""meeple: play board games in the browser, with friends, strangers or bots."""

__version__ = "0.1.0"
