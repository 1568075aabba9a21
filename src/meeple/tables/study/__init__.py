"""After a game: every finished game reviewed once, and the puzzle pool fed from the server's
own bot games.
"""
