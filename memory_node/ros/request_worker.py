"""Requests run on a worker thread of their own, and a caller waits for one at most a deadline.

Why: Python cannot stop a thread, so a request that runs long (a path not yet bounded, a model that does not
answer) would hold whatever thread runs it. Run on the worker, it holds only the worker: the service callback
answers "took too long" at the deadline, ingestion and /diagnostics go on on the main executor, and Ctrl-C
is acted on at once. A request that overran keeps the worker until it ends (its reads are interrupted
through ``on_overrun``); what it returns then is dropped, and requests queued behind it are answered at
their own deadlines. Requests only read memory (through the node's read-only connection), so an abandoned
one leaves nothing half-written. No rclpy here.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any


class RequestTimeout(RuntimeError):
    """The request did not finish within its deadline (or the node is shutting down)."""


class _Job:
    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.abandoned = False  # its caller stopped waiting: not started if still queued


class RequestWorker:
    """One daemon thread running jobs in order (the parser, the conversation state and the reader
    connection are used by one thread at a time)."""

    def __init__(self, name: str, on_overrun: Callable[[], None] = lambda: None) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._on_overrun = on_overrun
        self.running: _Job | None = None
        self.overruns = 0
        # a daemon: a request still running at exit must not hold the process (Ctrl-C within 2 s)
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if job.abandoned:
                job.done.set()
                continue
            self.running = job
            try:
                job.result = job.fn()
            except BaseException as err:  # noqa: BLE001 - handed to the caller, who decides
                job.error = err
            finally:
                self.running = None
                job.done.set()

    @property
    def busy(self) -> bool:
        return self.running is not None

    def run(self, fn: Callable[[], Any], deadline_s: float, stopping: threading.Event) -> Any:
        """``fn()``'s result, or its exception; RequestTimeout after ``deadline_s`` seconds or as soon as
        ``stopping`` is set (checked every 50 ms)."""
        job = _Job(fn)
        self._jobs.put(job)
        end = time.monotonic() + deadline_s
        while not job.done.wait(timeout=max(0.0, min(0.05, end - time.monotonic()))):
            if stopping.is_set():
                job.abandoned = True
                raise RequestTimeout("the node is shutting down")
            if time.monotonic() >= end:
                job.abandoned = True
                self.overruns += 1
                if self.running is job:
                    self._on_overrun()
                raise RequestTimeout(f"took too long (over {deadline_s:g} s)")
        if job.error is not None:
            raise job.error
        return job.result

    def stop(self) -> None:
        """Let the thread end after the job it runs (it is a daemon: the process need not wait for it)."""
        self._jobs.put(None)
