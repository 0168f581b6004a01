"""Per-block random seeds: the only source of randomness for every simulation.

The seed of block ``b`` depends on the user's seed and ``b`` alone, never on the worker that
runs it, which is what makes results independent of the worker count and the backend.
"""

import numpy as np


def block_seed(seed: int, block: int) -> int:
    """64-bit seed word for block ``block`` of a run seeded with ``seed``.

    Derived with ``numpy.random.SeedSequence(seed, spawn_key=(block,))``; the C engines expand it
    into a xoshiro256** state through splitmix64.

    >>> block_seed(1, 0) == block_seed(1, 0)
    True
    >>> block_seed(1, 0) != block_seed(1, 1)
    True
    """
    if seed < 0 or block < 0:
        raise ValueError("seed and block must be non-negative")
    state = np.random.SeedSequence(seed, spawn_key=(block,)).generate_state(1, np.uint64)
    return int(state[0])


def decision_seed(seed: int, step: int) -> int:
    """64-bit seed of the ``step``-th decision a player makes in a game of ``seed`` (the decision
    APIs: a strategy asked one move at a time): one stream per decision, so a game goes the same
    whoever -- a person, a GUI, a test -- takes the other seats.

    >>> decision_seed(1, 2)
    1000005
    >>> decision_seed(2**64 - 1, 1) < 2**64
    True
    """
    return (seed * 1_000_003 + step) % 2**64
