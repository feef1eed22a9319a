"""Spoken announcements: whose turn it is, a hand or trick won, a trap set off, the end of a
round with its leader, the winner (``[voice] enabled``, off by default).

``announce`` builds the words from the table's *public* views only (``game.view(None)``
before and after an event), so nothing a seat keeps secret can be spoken; ``speaker`` says
them through espeak-ng in a worker thread, in the table's language, the latest announcement
winning when they pile up, so the daemon's loop never waits for speech; ``audible`` checks
that they can be heard (``companion doctor``, ``companion voice``).
"""
