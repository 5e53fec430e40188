"""Ctrl-C (SIGINT) or SIGTERM at any moment of a demo (memory_demo, the quick replay demo; sim_demo and
replay_epic go through the same memory_node.ros.shutdown.run_program): one line, status 128 + signal, no
traceback, and the memory node the demo started is stopped cleanly (its own log says so), not orphaned.

The delays and the awaited output lines only pick the moment of the signal; every wait that decides a result
is bounded by a generous timeout (a loaded 2-core machine starts the node in 1-4 s).
"""

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from memory_node.ros.process import installed_paths

EXIT_TIMEOUT_S = 60.0
BAD_OUTPUT = ("Traceback", "KeyboardInterrupt", "RCLError", "context is invalid", "terminate called")


def _demo() -> Path:
    return installed_paths("vega")[0].parent / "memory_demo"


def _processes_using(path: Path) -> list[int]:
    """Pids whose command line names ``path`` (the demo's node, started on that database)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(path).encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _run_and_signal(tmp_path, signums, after_line="", delay=0.0):
    """Start the demo, wait for ``after_line`` in its output (or ``delay`` s), send ``signums`` 0.05 s apart;
    returns (status, output, node log)."""
    db, node_log, out = tmp_path / "memory.db", tmp_path / "node.log", tmp_path / "demo.txt"
    with open(out, "w") as f:
        proc = subprocess.Popen([str(_demo()), "--database", str(db), "--log", str(node_log)], stdout=f,
                                stderr=subprocess.STDOUT)
    deadline = time.monotonic() + EXIT_TIMEOUT_S
    while after_line and after_line not in out.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"demo never printed {after_line!r}:\n{out.read_text()}")
        time.sleep(0.05)
    time.sleep(delay)
    for signum in signums:
        proc.send_signal(signum)
        time.sleep(0.05)
    try:
        rc = proc.wait(timeout=EXIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"demo still running {EXIT_TIMEOUT_S} s after the signal:\n{out.read_text()}")
    deadline = time.monotonic() + 10
    while _processes_using(db) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_using(db) == [], "the demo's memory node outlived it"
    return rc, out.read_text(), node_log.read_text() if node_log.exists() else ""


def _check(rc, output, signum):
    assert rc == 128 + signum, output
    for bad in BAD_OUTPUT:
        assert bad not in output, output
    name = signal.Signals(signum).name
    assert output.splitlines()[-1] == f"memory_demo: stopped by {name}", output
    assert output.count("stopped by") == 1, output


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_during_the_imports_stops_the_demo_with_one_line(tmp_path, signum):
    rc, output, _ = _run_and_signal(tmp_path, [signum], delay=0.05)
    _check(rc, output, signum)


@pytest.mark.parametrize("after_line,delay", [("memory_node demo:", 0.2), ("node up", 0.0), ("requests", 0.0)],
                         ids=["node-starting", "experience", "after-requests"])
def test_ctrl_c_while_the_demo_runs_stops_its_node_cleanly(tmp_path, after_line, delay):
    rc, output, node_log = _run_and_signal(tmp_path, [signal.SIGINT], after_line=after_line, delay=delay)
    if rc == 0:  # the demo got to its end first (a fast machine): nothing to check at this moment
        pytest.skip("the demo finished before the signal")
    _check(rc, output, signal.SIGINT)
    # the node was stopped by the demo's clean-up (SIGINT from NodeProcess.stop), not killed with it
    assert "shutting down" in node_log or "during start-up" in node_log, node_log
    for bad in BAD_OUTPUT:
        assert bad not in node_log, node_log


def test_ctrl_c_twice_does_not_interrupt_the_clean_up(tmp_path):
    rc, output, node_log = _run_and_signal(tmp_path, [signal.SIGINT, signal.SIGINT, signal.SIGINT],
                                           after_line="node up")
    if rc == 0:
        pytest.skip("the demo finished before the signal")
    _check(rc, output, signal.SIGINT)
    assert "shutting down" in node_log, node_log


def test_run_program_in_process_returns_main_status_and_passes_exceptions():
    """Without a signal run_program is main(): its status, its errors."""
    from memory_node.ros.shutdown import run_program

    assert run_program("t", lambda: 3) == 3
    with pytest.raises(ValueError):
        run_program("t", lambda: (_ for _ in ()).throw(ValueError("boom")))


def _swallowing_step(seconds_swallowing: float, seconds_total: float) -> int:
    """Like Genesis's kernel compiler: for a while every exception (ShutdownRequested too) is caught by a
    bare except and dropped, then plain work; returns how many were dropped."""
    dropped = 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds_total:
        if time.monotonic() - t0 < seconds_swallowing:
            try:
                time.sleep(0.01)
            except BaseException:  # noqa: BLE001 - what the library does
                dropped += 1
        else:
            time.sleep(0.01)
    return dropped


@pytest.fixture
def fresh_signals():
    """A ShutdownSignals with its handler installed for the test only (pytest's own put back after)."""
    from memory_node.ros.shutdown import SIGNALS, ShutdownSignals

    signals = ShutdownSignals()
    saved = {s: signal.signal(s, signals._handle) for s in SIGNALS}
    try:
        yield signals
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)


def test_a_signal_swallowed_by_library_code_is_raised_again_in_an_insistent_step(fresh_signals):
    from memory_node.ros.shutdown import ShutdownRequested

    threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.monotonic()
    with pytest.raises(ShutdownRequested):
        with fresh_signals.insistent(period=0.1):
            _swallowing_step(seconds_swallowing=0.6, seconds_total=30)
    assert time.monotonic() - t0 < 5  # soon after the swallowing ends, not after the step's 30 s
    assert fresh_signals.signal_name == "SIGINT"


def test_a_plain_interruptible_step_loses_a_swallowed_signal(fresh_signals):
    """Why insistent() exists: with interruptible() alone the step runs to its end."""
    threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
    with fresh_signals.interruptible():
        assert _swallowing_step(seconds_swallowing=0.6, seconds_total=1.0) == 1
    assert fresh_signals.requested


def test_no_signal_is_re_delivered_once_an_insistent_step_is_over(fresh_signals):
    from memory_node.ros.shutdown import ShutdownRequested

    threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT)).start()
    with pytest.raises(ShutdownRequested):
        with fresh_signals.insistent(period=0.05):
            time.sleep(5)
    count = fresh_signals.count
    time.sleep(0.3)  # clean-up time: the watcher is gone, nothing raises here
    assert fresh_signals.count == count
    assert [t.name for t in threading.enumerate() if t.name == "insistent_signal"] == []


def test_the_quick_demo_passes_every_request(tmp_path):
    """The README's quick demo (scripts/demo_replay.sh runs it) over real DDS: every request passes before and
    after the restart, the two-mug question asked back and answered by "the one in the cabinet"."""
    db, node_log = tmp_path / "memory.db", tmp_path / "node.log"
    done = subprocess.run([str(_demo()), "--database", str(db), "--log", str(node_log)], capture_output=True,
                          text=True, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    assert "0 failed" in out and " FAIL " not in out, out[-3000:]
    assert out.count("the one in the cabinet") >= 4, out[-3000:]  # ask and plan, before and after the restart


def test_a_signal_during_a_deferred_step_is_raised_right_after_it(fresh_signals):
    """Importing Genesis's extensions must not be cut into (an exception inside one aborts the process):
    within ``deferred`` a signal is only recorded, and raised once the step is over."""
    from memory_node.ros.shutdown import ShutdownRequested

    finished = []
    with pytest.raises(ShutdownRequested):
        with fresh_signals.interruptible():
            with fresh_signals.deferred():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.3)  # the handler has run meanwhile, raising nothing here
                finished.append(True)
    assert finished == [True] and fresh_signals.signal_name == "SIGINT"


def test_the_main_demo_answers_over_ros_before_the_simulator_is_set_up():
    """scripts/demo.sh: a first real result, memory answering over ROS about the replayed apartment, comes
    before anything of the simulator runs; Ctrl-C then stops the whole script with status 130. Set-up is
    skipped (MEMORY_NODE_SETUP=0): the tests run set up, and a venv shared by several checkouts would have
    pip check it again here for minutes."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "demo.sh"
    proc = subprocess.Popen(["bash", str(script)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "MEMORY_NODE_SETUP": "0"})
    lines: list[str] = []
    answered = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            lines.append(line)
            if " PASS " in line or " FAIL " in line:
                answered.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert answered.wait(timeout=300), "".join(lines)[-3000:]
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=EXIT_TIMEOUT_S) == 130, "".join(lines)[-3000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    reader.join(timeout=10)
    out = "".join(lines)
    first = next(i for i, line in enumerate(lines) if " PASS " in line or " FAIL " in line)
    assert " PASS " in lines[first] and "where is the mug?" in lines[first], lines[first]
    before = "".join(lines[:first])
    assert "demo part 1 of 2" in before and "node up in" in before
    assert not any(word in before for word in ("Genesis", "sim demo", "building scene")), before
    assert "memory_demo: stopped by SIGINT" in out and not any(bad in out for bad in BAD_OUTPUT), out[-3000:]


_LOST_RAISE = """
import os, signal, time, weakref
from memory_node.ros.shutdown import ShutdownSignals, ShutdownRequested
s = ShutdownSignals.install()
class A: pass
try:
    with s.interruptible():
        a = A()
        def cb(_):  # a signal handled inside a weakref callback (importlib's module locks have one)
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):
                pass
        r = weakref.ref(a, cb)
        del a
        for _ in range(300):
            time.sleep(0.01)
    print("ran on")
except ShutdownRequested:
    print("stopped")
"""


def test_a_stop_raised_where_python_drops_exceptions_is_raised_again_silently():
    """Measured in CI: a Ctrl-C handled inside importlib's module-lock callback was printed as "Exception ignored"
    and dropped, and the demo ran to its end with status 0."""
    import sys

    done = subprocess.run([sys.executable, "-c", _LOST_RAISE], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "stopped", (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
