"""The ``greedy`` agent of each game: a module named after the game, whose ``AGENT`` is the class.

A game without a module here has no greedy agent (:mod:`pyramids.ai.registry`
offers ``random`` and ``mcts`` for it). A new game's greedy agent is written
in its module here; the four first games' agents live in modules of their own
(``pyramids.ai.greedy.piramides`` ...), which their modules here name.
"""
