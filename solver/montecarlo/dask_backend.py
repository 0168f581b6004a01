"""Run the blocks of games on a Dask cluster through the same Executor interface as local workers.

``dask_executor(address, workers)`` yields a ``concurrent.futures``-compatible executor: a
``Client`` connected to ``address`` (a running ``dask scheduler``) or, without an address, to a
``LocalCluster`` on loopback with ``workers`` single-threaded worker processes.  Blocks lost with
a dying worker are recomputed by Dask's scheduler; since each block's seed depends only on the
user's seed and the block index, the merged result is identical to the local backend's.
"""

from __future__ import annotations

import contextlib
import logging
import signal
from collections.abc import Iterator

from solver.errors import SolverError

CONNECT_TIMEOUT_S = 3
WORKER_TIMEOUT_S = 20


def _check_address(distributed, address: str) -> None:
    """Reject a malformed scheduler address before Dask tries (and retries) to connect to it."""
    try:
        protocol, location = distributed.comm.parse_address(address)
        host, port = distributed.comm.parse_host_port(location)
    except (ValueError, TypeError):
        raise SolverError(f"bad Dask scheduler address {address!r}: use tcp://HOST:PORT") from None
    if protocol not in ("tcp", "tls", "inproc", "ucx", "ws", "wss") or not host or not port:
        raise SolverError(f"bad Dask scheduler address {address!r}: use tcp://HOST:PORT")


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise SolverError(
            "--backend dask needs Dask: install it with  pip install '.[dask]'  (from the source tree) "
            "or  pip install 'dask[distributed]'"
        ) from None
    return distributed


@contextlib.contextmanager
def dask_client(address: str | None, workers: int) -> Iterator:
    """A Dask ``Client`` for ``address`` or for a new loopback ``LocalCluster`` (closed on exit)."""
    distributed = _import_distributed()
    for name in ("distributed", "distributed.worker", "distributed.nanny", "distributed.scheduler",
                 "distributed.core", "distributed.comm", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    cluster = None
    try:
        if address:
            if "://" not in address:
                address = f"tcp://{address}"
            _check_address(distributed, address)
            try:
                client = distributed.Client(address, timeout=f"{CONNECT_TIMEOUT_S}s", set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise SolverError(f"cannot reach the Dask scheduler at {address} ({type(exc).__name__})") from None
            try:
                client.wait_for_workers(1, timeout=WORKER_TIMEOUT_S)
            except (TimeoutError, OSError):
                client.close()
                raise SolverError(f"the Dask scheduler at {address} has no workers "
                                  f"(none joined within {WORKER_TIMEOUT_S} s)") from None
        else:
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # workers inherit: Ctrl-C is ours
            try:
                cluster = distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None, silence_logs=logging.CRITICAL,
                )
            except Exception as exc:  # noqa: BLE001 - any start-up failure is reported in one line
                raise SolverError(f"could not start a local Dask cluster: {exc}") from None
            finally:
                signal.signal(signal.SIGINT, previous)
            client = distributed.Client(cluster, set_as_default=False)
    except SolverError:
        raise
    except ValueError as exc:  # malformed address
        raise SolverError(f"bad Dask scheduler address {address!r}: {exc}") from None
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=5)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=5)


@contextlib.contextmanager
def dask_executor(address: str | None, workers: int) -> Iterator[tuple[object, int]]:
    """``(executor, number of worker threads)`` for a Dask cluster; see :func:`dask_client`."""
    with dask_client(address, workers) as client:
        n_threads = sum(client.nthreads().values()) or workers
        # pure=False: every block is its own task (no hashing of the arguments);
        # retries: a block that failed for a transient reason is tried again.
        executor = client.get_executor(pure=False, retries=2)
        try:
            yield executor, n_threads
        finally:
            executor.shutdown(wait=False)
