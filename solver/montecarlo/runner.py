"""Run experiments in seeded blocks on any executor and merge the tallies in block order."""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.errors import SolverError
from solver.montecarlo.experiment import Experiment, Tally, merge_tallies
from solver.montecarlo.seeding import block_seed
from solver.montecarlo.signals import STOP_SIGNALS, SignalGuard

DEFAULT_BLOCK_SIZE = 1000
#: Most games per configuration (10^12: decades of simulation; keeps block counts machine integers).
MAX_GAMES = 10**12


class WorkerError(SolverError):
    """A worker died or a block raised: the run cannot be completed."""


@dataclass
class RunResult:
    """Merged tallies of a (possibly interrupted) run, one per experiment."""

    experiments: list[Experiment]
    tallies: list[Tally | None]
    games: list[int]
    complete: bool
    seed: int
    elapsed: float = 0.0
    extra_columns: dict[str, Any] = field(default_factory=dict)

    @property
    def total_games(self) -> int:
        return sum(self.games)

    def rows(self) -> list[dict[str, Any]]:
        """All result rows: the experiments' own columns plus complete, seed and solver_version."""
        from solver import __version__

        out: list[dict[str, Any]] = []
        for exp, tally, games in zip(self.experiments, self.tallies, self.games, strict=True):
            for row in exp.rows(tally or {}, games):
                row = dict(row)
                row.update(self.extra_columns)
                row["complete"] = self.complete and games > 0
                row["seed"] = self.seed
                row["solver_version"] = __version__
                out.append(row)
        return out


def run_block(experiment: Experiment, seed_word: int, n_games: int) -> Tally:
    """Simulate one block (module-level so that every executor can pickle it)."""
    return experiment.simulate(seed_word, n_games)


def _worker_init() -> None:
    """Worker initializer: stop signals are the parent's business (it saves the finished blocks and
    then kills the workers), and a worker dies with its parent, so none is ever left behind."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    _die_with_parent()


def _die_with_parent() -> None:
    """Linux: ask the kernel to SIGKILL this process when its parent ends (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before the call
            os._exit(1)
    except (OSError, AttributeError):  # pragma: no cover - no usable libc
        pass


def local_executor(workers: int) -> cf.Executor:
    """A process pool whose workers leave stop signals to the parent."""
    return cf.ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)


class Progress:
    """Games done, games per second and time left on stderr, drawn by Click's progress bar; only
    when stderr is a terminal (never in files, pipes or CI logs)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.bar = None
        if self.enabled:
            import click

            self.bar = click.progressbar(length=max(total, 1), label="games", file=sys.stderr, show_pos=True,
                                         show_eta=True, item_show_func=lambda rate: rate)

    def update(self, done: int, force: bool = False) -> None:
        if self.bar is None:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        self.bar.update(done - self.bar.pos, f"{rate:,.0f} games/s")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.render_finish()


class BlockPlan:
    """Every (experiment index, block index, games in block) of a run, computed on demand.

    Block-major (block 0 of every experiment, then block 1, ...) so that an interrupted run has
    played every configuration about equally.  Nothing is stored, so 10^9 games cost no memory.

    >>> plan = BlockPlan(2, 5, 2)
    >>> len(plan), [plan[k] for k in range(len(plan))]
    (6, [(0, 0, 2), (1, 0, 2), (0, 1, 2), (1, 1, 2), (0, 2, 1), (1, 2, 1)])
    """

    def __init__(self, n_experiments: int, games: int, block_size: int) -> None:
        self.n_experiments = n_experiments
        self.games = games
        self.block_size = block_size
        self.n_blocks = (games + block_size - 1) // block_size

    def __len__(self) -> int:
        return self.n_experiments * self.n_blocks

    def __getitem__(self, k: int) -> tuple[int, int, int]:
        if not 0 <= k < len(self):
            raise IndexError(k)
        b, i = divmod(k, self.n_experiments)
        return i, b, min(self.block_size, self.games - b * self.block_size)

    def take(self, start: int, count: int) -> list[tuple[int, int, int]]:
        return [self[k] for k in range(start, min(start + count, len(self)))]


class OrderedMerge:
    """Merges block tallies per experiment strictly in block order, as soon as they can be.

    Blocks arriving early wait until every earlier block is in; so memory holds only the blocks
    still out of order, and floating-point sums come out the same for any completion order.
    """

    def __init__(self, n_experiments: int) -> None:
        self.merged: list[Tally | None] = [None] * n_experiments
        self.next_block = [0] * n_experiments
        self.waiting: list[dict[int, Tally]] = [{} for _ in range(n_experiments)]

    def add(self, i: int, b: int, tally: Tally) -> None:
        waiting = self.waiting[i]
        waiting[b] = tally
        while self.next_block[i] in waiting:
            self.merged[i] = merge_tallies(self.merged[i], waiting.pop(self.next_block[i]))
            self.next_block[i] += 1

    def result(self) -> list[Tally | None]:
        """The merged tallies, including blocks after a gap (an interrupted run), in block order."""
        out = []
        for merged, waiting in zip(self.merged, self.waiting, strict=True):
            for b in sorted(waiting):
                merged = merge_tallies(merged, waiting[b])
            out.append(merged)
        return out


def run_experiments(
    experiments: Sequence[Experiment],
    games: int,
    seed: int,
    workers: int = 1,
    block_size: int = DEFAULT_BLOCK_SIZE,
    executor: cf.Executor | None = None,
    progress: bool = False,
    on_interrupt: Callable[[], None] | None = None,
    guard: SignalGuard | None = None,
) -> RunResult:
    """Simulate ``games`` games of every experiment; identical output for any worker count.

    With ``executor=None`` and ``workers == 1`` the blocks run in this process; with more workers
    a local process pool is made (and shut down).  Pass any ``concurrent.futures.Executor`` (for
    example a Dask client's executor) to run elsewhere.  Ctrl-C stops the run and returns the
    finished blocks with ``complete=False``; so does SIGTERM or SIGHUP when a :class:`SignalGuard`
    is passed (armed for the run only: a signal after it is only recorded in the guard).
    """
    if not 1 <= games <= MAX_GAMES:
        raise SolverError(f"the number of games must be between 1 and {MAX_GAMES:,}")
    if block_size < 1:
        raise SolverError("the block size must be at least 1")
    if seed < 0:
        raise SolverError("the seed must be a non-negative integer")
    experiments = list(experiments)
    plan = BlockPlan(len(experiments), games, block_size)
    workers = max(1, min(workers, len(plan)))  # more workers than blocks would only idle
    finished = OrderedMerge(len(experiments))
    played = [0] * len(experiments)
    bar = Progress(games * len(experiments), progress)
    start = time.monotonic()
    complete = True
    own_executor = executor is None and workers > 1
    if own_executor:
        executor = local_executor(workers)
    try:
        if guard is not None:
            guard.arm()
        if executor is None:
            for k in range(len(plan)):
                i, b, n = plan[k]
                finished.add(i, b, run_block(experiments[i], block_seed(seed, b), n))
                played[i] += n
                bar.update(sum(played))
        else:
            _run_on_executor(executor, experiments, plan, seed, workers, finished, played, bar)
    except KeyboardInterrupt:
        complete = False
        if on_interrupt:
            on_interrupt()
        if own_executor:
            _kill_pool(executor)
            own_executor = False
    finally:
        if guard is not None:
            guard.disarm()
        if own_executor:
            executor.shutdown(wait=True)
        bar.update(sum(played), force=True)
        bar.close()
    return RunResult(experiments, finished.result(), played, complete, seed, time.monotonic() - start)


def run_blocks(experiments: dict[int, Experiment], jobs: list[tuple[int, int, int]]) -> tuple[list[Tally], float]:
    """Simulate several blocks in one task: ``jobs`` are (experiment index, seed word, games).

    Returns the tallies block by block (the runner merges them in block order, so grouping blocks
    into tasks never changes a result) and the seconds the task took.
    """
    start = time.perf_counter()
    tallies = [experiments[i].simulate(seed_word, n) for i, seed_word, n in jobs]
    return tallies, time.perf_counter() - start


class TaskSizer:
    """Groups consecutive blocks into tasks of about ``target`` seconds.

    Scheduling a task costs about 0.2 ms on a local process pool and 3-5 ms on Dask; tasks of
    half a second keep that below 1 % of the run.  The first tasks hold one block each; later ones
    are sized from the measured seconds per game, but never so large that fewer than two tasks per
    worker remain (the last blocks must still spread over all workers).  Results do not depend on
    the grouping, only on the blocks.
    """

    def __init__(self, workers: int, target: float = 0.5) -> None:
        self.workers = max(workers, 1)
        self.target = target
        self.seconds = 0.0
        self.games = 0

    def observe(self, seconds: float, games: int) -> None:
        self.seconds += seconds
        self.games += games

    def blocks_per_task(self, remaining_blocks: int, block_size: int) -> int:
        if self.games == 0 or self.seconds <= 0:
            return 1
        per_block = self.seconds / self.games * block_size
        wanted = max(1, int(self.target / per_block)) if per_block > 0 else remaining_blocks
        spread = max(1, remaining_blocks // (2 * self.workers))
        return max(1, min(wanted, spread))


def _run_on_executor(executor, experiments, plan, seed, workers, finished, played, bar) -> None:
    """Keep a bounded number of tasks in flight; collect block results as they finish."""
    max_in_flight = max(2, 2 * max(workers, 1))
    block_size = plan.block_size
    sizer = TaskSizer(workers)
    pending: dict[cf.Future, list[tuple[int, int, int]]] = {}
    position = 0
    try:
        while True:
            while position < len(plan) and len(pending) < max_in_flight:
                k = sizer.blocks_per_task(len(plan) - position, block_size)
                blocks = plan.take(position, k)
                position += len(blocks)
                needed = {i: experiments[i] for i, _, _ in blocks}
                jobs = [(i, block_seed(seed, b), n) for i, b, n in blocks]
                pending[executor.submit(run_blocks, needed, jobs)] = blocks
            if not pending:
                return
            done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED, timeout=0.5)
            for fut in done:
                blocks = pending.pop(fut)
                try:
                    tallies, seconds = fut.result()
                except cf.process.BrokenProcessPool as exc:
                    raise WorkerError(f"a worker process died unexpectedly ({exc})") from None
                except (cf.CancelledError, KeyboardInterrupt):
                    raise
                except SolverError:
                    raise
                except Exception as exc:  # a block raised inside a worker
                    first = blocks[0][1]
                    raise WorkerError(f"block {first} failed in a worker: {type(exc).__name__}: {exc}") from exc
                for (i, b, n), tally in zip(blocks, tallies, strict=True):
                    finished.add(i, b, tally)
                    played[i] += n
                sizer.observe(seconds, sum(n for _, _, n in blocks))
            bar.update(sum(played))
    except BaseException:
        for fut in pending:
            fut.cancel()
        raise


def _kill_pool(executor: cf.Executor) -> None:
    """Stop a process pool at once: cancel queued blocks and terminate running workers.

    The queue feeding the workers is told not to wait for its pipe at exit: with the workers gone
    nobody would read it, and the interpreter would hang on shutdown.
    """
    processes = list(getattr(executor, "_processes", {}).values())
    call_queue = getattr(executor, "_call_queue", None)
    _silence_cancelled_future_errors()
    for proc in processes:
        try:
            proc.kill()  # SIGKILL: the workers ignore the stop signals
        except Exception:  # already gone
            pass
    if call_queue is not None:
        call_queue.cancel_join_thread()
    executor.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.join(timeout=2)


def _silence_cancelled_future_errors() -> None:
    """Hide CPython's InvalidStateError from a killed pool's manager thread.

    When workers are terminated, Python 3.11's pool manager tries to set an exception on futures
    we already cancelled and prints a traceback from its thread (harmless, but alarming).
    """
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if isinstance(args.exc_value, cf.InvalidStateError):
            return
        previous(args)

    threading.excepthook = hook


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
