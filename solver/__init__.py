"""Solver and analysis engine for four tabletop games.

Layers, each importing only the ones below it:

* ``solver._ext``       Cython engines (compiled from ``ext/*.pyx``)
* ``solver.montecarlo`` the game-agnostic Monte Carlo runner (blocks, seeding, stats, output)
* ``solver.<game>``     one package per game: rules data, Python face of the engine, analysis
* ``solver.cli``        the Click command line (source in ``cli/``)
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tabletop-solver")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
