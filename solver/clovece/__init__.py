"""Člověče, nezlob se (classic) and Člověče, napij se!: rules engine and Monte Carlo analysis.

Modules: :mod:`.board` (board graph files), :mod:`.deck` (card deck files), :mod:`.strategies`
(strategy names and seats), :mod:`.experiment` (the Monte Carlo experiment).  The engines are in
``ext/clovece.pyx`` (``solver._ext.clovece``).
"""
