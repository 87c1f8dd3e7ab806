"""The ``child`` agent of each game that has one (a module named after it, ``AGENT`` its class).

A child is a gentle opponent: it forgets, where a program would remember
perfectly. Only the treasure hunt, a memory game, has one.
"""
