"""The request worker (ros/request_worker.py) without ROS: results and errors come back, a job past its deadline
raises RequestTimeout and interrupts it, a job queued behind one that overran is never started, and a
shutdown stops the wait at once."""

import threading
import time

import pytest

from memory_node.ros.request_worker import RequestTimeout, RequestWorker


def test_result_and_error_come_back():
    worker = RequestWorker("t")
    never = threading.Event()
    assert worker.run(lambda: 42, 5.0, never) == 42
    with pytest.raises(ValueError, match="bad"):
        worker.run(lambda: (_ for _ in ()).throw(ValueError("bad")), 5.0, never)
    worker.stop()


def test_a_job_past_its_deadline_is_interrupted_and_the_next_is_answered():
    interrupted = threading.Event()
    release = threading.Event()
    worker = RequestWorker("t", on_overrun=interrupted.set)
    never = threading.Event()
    with pytest.raises(RequestTimeout, match="took too long"):
        worker.run(lambda: release.wait(30), 0.05, never)
    assert interrupted.is_set() and worker.busy and worker.overruns == 1
    started = []
    with pytest.raises(RequestTimeout):  # queued behind the one still running: answered at its own deadline
        worker.run(lambda: started.append(1), 0.05, never)
    release.set()  # the overrunning job ends; the abandoned one behind it is skipped, a new one runs
    assert worker.run(lambda: "next", 5.0, never) == "next"
    assert started == []
    worker.stop()


def test_shutdown_ends_the_wait_at_once():
    worker = RequestWorker("t")
    stopping = threading.Event()
    release = threading.Event()
    threading.Timer(0.1, stopping.set).start()
    t = time.monotonic()
    with pytest.raises(RequestTimeout, match="shutting down"):
        worker.run(lambda: release.wait(30), 60.0, stopping)
    assert time.monotonic() - t < 5.0  # against a 60 s deadline
    release.set()
    worker.stop()
