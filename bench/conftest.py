"""Shared helper for the benchmark suites."""


def record_rates(benchmark, **counts: float) -> None:
    """Store ``name = count / mean seconds`` in the benchmark's extra info (per-second figures).

    Does nothing under ``--benchmark-disable`` (CI's smoke pass), where no timing exists.
    """
    if not benchmark.stats:
        return
    mean = benchmark.stats.stats.mean
    benchmark.extra_info.update({name: count / mean for name, count in counts.items()})
