"""The Game (Steffen Benndorf): rules, strategies and win-probability analysis.

The game loop and the strategies run in the Cython engine ``solver._ext.thegame``; this package
holds the Python side: variants (:mod:`.variants`), strategy specs (:mod:`.strategies`), the
Monte Carlo experiment (:mod:`.experiment`), one logged game (:mod:`.play`), the log checker
(:mod:`.replay`), the perfect-information solver of one deal (:mod:`.solve`, search in
``solver._ext.thegame_solve``), how many deals can be won at all (:mod:`.bound`) and the
strategies' advice at the table (:mod:`.advise`).
"""
