"""The Game (Steffen Benndorf): rules, strategies and win-probability analysis.

The game loop and the strategies run in the Cython engine ``solver._ext.thegame``; this package
holds the Python side: variants (:mod:`.variants`), strategy specs (:mod:`.strategies`), the
Monte Carlo experiment (:mod:`.experiment`), one logged game (:mod:`.play`) and the log checker
(:mod:`.replay`).
"""
