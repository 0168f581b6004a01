"""Stopping a run on SIGINT, SIGTERM or SIGHUP without losing the finished games.

The first of these signals interrupts the run (as Ctrl-C does); every later one, however soon it
comes (``timeout -s INT`` and some shells signal the whole process group, so two may arrive
within milliseconds), is only noted, so that cancelling the workers and writing the result table
are never themselves interrupted.  The command then exits with 128 + the first signal's number:
130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType

#: The signals that stop a run (SIGHUP does not exist on Windows).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """Raised in the main thread by the first stop signal while a guarded run is armed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class SignalGuard:
    """Context manager: while installed, stop signals are recorded; while armed, the first one raises
    :class:`Interrupted`.  Only the main thread can install signal handlers; elsewhere it does nothing.

    >>> with SignalGuard() as guard:
    ...     guard.signum is None
    True
    """

    def __init__(self) -> None:
        self.signum: int | None = None
        self.armed = False
        self._previous: dict[int, object] = {}

    def __enter__(self) -> SignalGuard:
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = signum
            if self.armed:
                raise Interrupted(signum)

    def arm(self) -> None:
        """From now on the first signal raises; one that came already raises at once."""
        self.armed = True
        if self.signum is not None:
            raise Interrupted(self.signum)

    def disarm(self) -> None:
        """Signals are only recorded from now on (the results are being saved)."""
        self.armed = False

    def stopped_line(self, games: int) -> str:
        """The line a stopped command ends with: what stopped it and the games it kept.

        >>> SignalGuard().stopped_line(3)
        'solver: interrupted; wrote the 3 finished games'
        """
        what = ("interrupted" if self.signum in (None, signal.SIGINT)
                else f"stopped by {signal.Signals(self.signum).name}")
        return f"solver: {what}; wrote the {games} finished games"

    @property
    def exit_status(self) -> int:
        """128 + the signal's number (130 when none came, as for a plain KeyboardInterrupt)."""
        return 128 + (self.signum if self.signum is not None else signal.SIGINT)
