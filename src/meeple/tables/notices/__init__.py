"""Bringing players back: notifications, an account's events, My games and its turn count,
email (outbox, turn emails, unsubscribe).
"""
