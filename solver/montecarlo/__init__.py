"""The game-agnostic Monte Carlo runner.

A game plugs in by writing an :class:`~solver.montecarlo.experiment.Experiment` (a picklable
description of one configuration that can simulate a block of games and turn merged tallies into
CSV rows).  The runner splits the games into fixed-size blocks, seeds each block from
``(seed, block index)`` only, runs the blocks on any ``concurrent.futures.Executor`` and merges the
tallies in block order, so a seed gives identical output whatever the worker count or backend.
"""

from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.runner import RunResult, run_experiments
from solver.montecarlo.seeding import block_seed

__all__ = ["Experiment", "RunResult", "Tally", "block_seed", "run_experiments"]
