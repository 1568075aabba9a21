"""The web layer: the FastAPI app, its REST routes and its WebSockets.

Pages for browsers come in a later issue as one more router (``web/pages``).
"""
