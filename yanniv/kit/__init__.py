"""The shared card-game kit: pure, standard library only, used by every game's rules.

Cards of any design (`cards`), seeded chance (`chance`), sets and runs with options
(`combos`), events and their redaction (`events`), the illegal-action error with its words
(`errors`), and the decisions a state opens (`decisions`). Nothing here knows a game.
"""
