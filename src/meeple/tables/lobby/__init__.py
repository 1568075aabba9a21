"""Finding a game: the lobby's lists, opening tables and quick play, challenges, online bot
accounts.
"""
