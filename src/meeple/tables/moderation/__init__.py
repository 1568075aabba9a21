"""Moderation and chat safety (docs/moderation.md): reports, blocks, the moderators' queue and
actions (:mod:`.service`), the context shown beside a report (:mod:`.queue`), and what
marking a cheater does to ratings (:mod:`.cheaters`).
"""
