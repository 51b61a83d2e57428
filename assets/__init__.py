"""Package data (specreplay.assets): the player, live-chart scripts, fonts and the quoted/measured tables.

Read through specreplay.resources.ASSETS, never a path relative to a module file.
"""
