"""SIGINT and SIGTERM as a shutdown request, for the node's and the bridge's ``main()``.

Why not rclpy's own handlers: on SIGINT they shut the ROS context down from under whatever the main thread
is doing and raise ``KeyboardInterrupt`` wherever it happens to be. Measured on this package: a Ctrl-C in
the middle of node construction ended in ``RCLError ... context is invalid``, a second one during clean-up
in ``KeyboardInterrupt`` inside ``destroy_node()`` / ``store.close()`` or "terminate called without an
active exception", and one during the imports was lost. Here a signal only sets a flag (nothing is
interrupted halfway); the main loop polls it, and clean-up runs once, in order, with further signals
ignored. ``main()`` passes ``SignalHandlerOptions.NO`` to ``rclpy.init`` so rclpy installs none of its own.

The executables' shebang (``env --block-signal=INT,TERM``) starts Python with both signals blocked, so one
that arrives while Python starts and imports is kept pending until :meth:`ShutdownSignals.install`
unblocks it, and is then seen as a request like any other.

A program that runs to an end of its own (the demos) has no loop to poll a flag from: :func:`run_program`
runs its ``main()`` inside :meth:`ShutdownSignals.interruptible`, so the first signal raises wherever it is,
its ``finally`` blocks stop the nodes it started and close its client (further signals ignored), and it
exits with one line.

This module imports nothing heavy (no rclpy): the entry scripts install the handlers before anything else.
"""

from __future__ import annotations

import importlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


REDELIVER_AFTER_S = 0.02  # how soon a stop that was raised where Python drops exceptions is raised again


class ShutdownRequested(BaseException):
    """Raised by the handler inside :meth:`ShutdownSignals.interruptible` (a BaseException, like
    KeyboardInterrupt, so that library code catching ``Exception`` does not swallow it)."""


class ShutdownSignals:
    """Process-wide: the first SIGINT/SIGTERM is recorded as the shutdown request; later ones are ignored
    (clean-up must not be interrupted)."""

    _installed: ShutdownSignals | None = None

    def __init__(self) -> None:
        self.signal_name = ""          # name of the first signal received, '' = none yet
        self.signum = 0
        self.count = 0                 # signals handled: > 0 once shutdown is requested (later ones ignored)
        self._interruptible = 0        # > 0: inside interruptible(), the first signal raises there
        self._insisting = False        # inside insistent(): a re-delivered signal raises again
        self._raise_again = False      # set by insistent()'s watcher just before it re-delivers the signal
        self._redeliver = False        # set when the first raise was lost (see _hook_lost_raises)

    @classmethod
    def install(cls) -> ShutdownSignals:
        """Install the handlers (once; later calls return the same object) and unblock the signals.

        Only the main thread may install signal handlers; called from another thread (a test calling
        ``main()`` on a thread) this returns an object that never sees a signal."""
        if cls._installed is not None:
            return cls._installed
        signals = cls()
        if threading.current_thread() is not threading.main_thread():
            return signals
        for signum in SIGNALS:
            signal.signal(signum, signals._handle)
        signals._hook_lost_raises()
        cls._installed = signals
        # a signal kept pending since exec (see module docstring) is delivered now, to _handle
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
        return signals

    @property
    def requested(self) -> bool:
        return self.count > 0

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """Within this block a signal raises :class:`ShutdownRequested` at once, for long start-up steps
        (imports, building the simulated scene) after which the caller destroys its node and exits anyway,
        with no other thread using it; one that came earlier raises on entry."""
        self._interruptible += 1
        try:
            if self.requested:
                raise ShutdownRequested(self.signal_name)
            yield
        finally:
            self._interruptible -= 1

    @contextmanager
    def insistent(self, period: float = 0.5) -> Iterator[None]:
        """:meth:`interruptible`, for a step run by library code that may swallow the exception: Genesis's
        kernel compiler (quadrants) wraps the work of each of its thousands of kernel decorators in a bare
        ``except:``, and a Ctrl-C measured 9 s into a scene build was lost there (the build and the demo
        went on for 80 s). While the block still runs after a signal, a watcher thread re-delivers it every
        ``period`` seconds and the handler raises again, until it gets out of the block."""
        done = threading.Event()
        main = threading.main_thread().ident

        def watch() -> None:
            while not done.wait(period):
                if self.requested and self._insisting:
                    self._raise_again = True
                    signal.pthread_kill(main, self.signum)

        with self.interruptible():
            outer, self._insisting = self._insisting, True
            watcher = threading.Thread(target=watch, name="insistent_signal", daemon=True)
            watcher.start()
            try:
                yield
            finally:
                self._insisting = outer  # first: a signal re-delivered from now on raises nothing
                done.set()
                watcher.join()

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """A step in native code a Python exception must not cut into (importing Genesis: an exception raised
        inside an extension module's initialisation aborts the process, "terminate called after throwing an
        instance of 'nanobind::python_error'"): a signal meanwhile is recorded and raised right after it."""
        with self.shielded():
            yield
        if self.requested and self._interruptible > 0:
            raise ShutdownRequested(self.signal_name)

    @contextmanager
    def shielded(self) -> Iterator[None]:
        """Within an interruptible block, a step a signal must not cut short (joining a thread): a signal
        meanwhile is only recorded, and the code after the block sees ``requested``."""
        saved, self._interruptible = self._interruptible, 0
        try:
            yield
        finally:
            self._interruptible = saved

    def ignore_further(self) -> None:
        """Call when clean-up begins, from ordinary code (not a handler): from then on the kernel ignores
        both signals. Needed because at exit Python puts back the default action of every signal it has
        a handler for (measured: a second Ctrl-C during the interpreter's finalization killed the process,
        status -2), while it leaves an ignored one ignored."""
        try:
            for signum in SIGNALS:
                signal.signal(signum, signal.SIG_IGN)
            for _ in range(2):  # a signal caught just before the switch is checked in this loop...
                pass
        except OSError:  # ...and reported as "Signal N ignored due to race condition": ignored it is
            pass

    def _hook_lost_raises(self) -> None:
        """The handler's exception raised where Python cannot pass it on (measured: inside importlib's
        module-lock weakref callback during an import, 1 run in ~40 under load) is printed as "Exception ignored
        in ..." with a traceback and dropped, and the program ran on to its end. Such a lost request is
        re-delivered to the main thread at once, where the handler raises it again; nothing is printed."""
        default = sys.unraisablehook
        main = threading.main_thread().ident

        def hook(unraisable: Any) -> None:
            if not isinstance(unraisable.exc_value, ShutdownRequested):
                default(unraisable)
                return
            if self._interruptible > 0 and main is not None:
                self._redeliver = True
                # a moment later, once the main thread is out of the code that dropped it
                again = threading.Timer(REDELIVER_AFTER_S, signal.pthread_kill, args=(main, self.signum))
                again.daemon = True
                again.start()

        sys.unraisablehook = hook

    def _handle(self, signum: int, frame: Any) -> None:
        # Runs in the main thread between two bytecodes: record, and raise only where asked to. No locks
        # here: the main thread may hold one at the moment it is interrupted.
        self.count += 1
        if self.count == 1:
            self.signal_name = signal.Signals(signum).name
            self.signum = signum
            if self._interruptible > 0:
                raise ShutdownRequested(self.signal_name)
        elif self._raise_again and self._insisting and self._interruptible > 0:  # see insistent()
            self._raise_again = False
            raise ShutdownRequested(self.signal_name)
        elif self._redeliver and self._interruptible > 0:  # see _hook_lost_raises()
            self._redeliver = False
            raise ShutdownRequested(self.signal_name)


def spin_until_shutdown(executor: Any, signals: ShutdownSignals, period: float = 0.1) -> None:
    """Spin ``executor`` in the calling (main) thread until a shutdown request or the context ends.

    The wait is bounded by ``period`` because a Python signal handler runs only once the main thread is
    back in Python: a signal is acted on within ``period`` seconds."""
    while not signals.requested and executor.context.ok():
        executor.spin_once(timeout_sec=period)


class ExecutorThread:
    """An executor spun on a thread of its own until :meth:`stop`, which joins the thread, so the nodes it
    serves can be destroyed afterwards with nothing running in them."""

    def __init__(self, executor: Any, name: str, period: float = 0.1) -> None:
        self.executor = executor
        self._period = period
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set() and self.executor.context.ok():
            try:
                self.executor.spin_once(timeout_sec=self._period)
            except Exception:  # noqa: BLE001 - only ever seen once the context is going away
                if self._stop.is_set() or not self.executor.context.ok():
                    return
                raise

    def stop(self, timeout: float = 5.0) -> bool:
        """Stop spinning and join; False if a callback still runs after ``timeout`` seconds (then its node
        must not be destroyed)."""
        self._stop.set()
        self._thread.join(timeout=timeout)
        if self._thread.is_alive():
            return False
        for node in self.executor.get_nodes():  # free to join another executor afterwards
            self.executor.remove_node(node)
        self.executor.shutdown(timeout_sec=0)
        return True


def startup_interrupted(logger_name: str, signals: ShutdownSignals) -> int:
    """The one log line and exit status (0) of a process stopped before rclpy was even imported, in the
    format of ROS's console output (rclpy's logger may be half imported at this point)."""
    import sys

    signals.ignore_further()
    sys.stderr.write(f"[INFO] [{time.time():.9f}] [{logger_name}]: {signals.signal_name} during start-up: "
                     f"exiting before serving\n")
    sys.stderr.flush()
    return 0


def run_program(name: str, main: str | Callable[[], int]) -> int:
    """Run a program that ends by itself (a demo) so that SIGINT or SIGTERM at any moment, imports included,
    ends it cleanly: the first signal raises :class:`ShutdownRequested` in ``main`` wherever it is (its
    ``finally`` blocks clean up; later signals are ignored), then one line goes to stderr and the status is
    128 + the signal's number (130 for Ctrl-C), as a shell reports an interrupted command.

    An error that comes out of ``main`` after a signal counts as the stop (library code may turn the
    exception into its own). ``main``: the function, or the name of a module whose ``main()`` to import and
    call (the import is interruptible too). Its ``rclpy.init`` must pass ``SignalHandlerOptions.NO``
    (rclpy's handler would replace this one)."""
    signals = ShutdownSignals.install()
    try:
        with signals.interruptible():
            function = importlib.import_module(main).main if isinstance(main, str) else main
            status = function()
        if signals.requested:  # a stop whose raise never reached main (see _hook_lost_raises): still a stop
            raise ShutdownRequested(signals.signal_name)
        return status
    except BaseException:
        if not signals.requested:
            raise
        # after a signal, an error is its echo: library code that caught ShutdownRequested and raised its
        # own instead (measured: quadrants' QuadrantsSyntaxError from inside a kernel decorator), or a Rust
        # extension interrupted while it imported (measured: pyo3's PanicException, a BaseException, when the
        # signal landed inside its import of datetime; 1 run in 12)
        signals.ignore_further()
        sys.stdout.flush()
        sys.stderr.write(f"{name}: stopped by {signals.signal_name}\n")
        sys.stderr.flush()
        return 128 + signals.signum
    finally:
        signals.ignore_further()
