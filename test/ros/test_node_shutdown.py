"""Start-up and shutdown of the installed node executable under SIGINT and SIGTERM at any moment.

Each case seeds a database, starts the node on it as its own process (as a launch file would), signals it
at one moment of its life and checks: exit status 0, no traceback or ROS error in its output, one log line
saying why it stopped, and the database whole afterwards. The delays only pick the moment of the signal;
every wait that decides a result is bounded by a generous timeout (a loaded 2-core machine starts the
node in 1-4 s).
"""

import signal
import sqlite3
import subprocess
import time
import uuid

import pytest

from memory_node.core.models import EntityObservation, SceneGraphObservation, UtteranceObservation
from memory_node.core.store import MemoryStore
from memory_node.ros.client import MemoryClient
from memory_node.ros.process import NodeProcess, node_command
from ros_messages import T0, entity, graph

EXIT_TIMEOUT_S = 30.0
BAD_OUTPUT = ("Traceback", "KeyboardInterrupt", "RCLError", "context is invalid", "terminate called",
              "Segmentation fault")


@pytest.fixture
def seeded_db(tmp_path):
    """A memory with one entity and one utterance in it, and its counts."""
    db = tmp_path / "memory.db"
    store = MemoryStore(db)
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=T0, room="kitchen", entities=[
        EntityObservation(id="mug_1", label="mug", room="kitchen")]))
    store.ingest_utterance(UtteranceObservation(stamp_ns=T0 + 1, speaker="alice", text="the mug is mine"))
    counts = store.counts()
    store.close()
    return db, counts


def _start(db, tmp_path, name="node"):
    log_path = tmp_path / f"{name}.log"
    log = open(log_path, "w")
    ns = f"t{uuid.uuid4().hex[:8]}"
    return NodeProcess("vega", log=log, namespace=ns, database_path=str(db)), log, log_path, ns


def _finish(proc, log, log_path):
    """Wait for the exit; return (exit status, output)."""
    try:
        rc = proc.proc.wait(timeout=EXIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        log.close()
        pytest.fail(f"node still running {EXIT_TIMEOUT_S} s after the signal:\n{log_path.read_text()}")
    log.close()
    return rc, log_path.read_text()


def _check_clean(rc, output, db, at_least):
    assert rc == 0, output
    for bad in BAD_OUTPUT:
        assert bad not in output, output
    stops = [line for line in output.splitlines() if "during start-up" in line or "shutting down" in line]
    assert len(stops) == 1, output  # one line says why it stopped, whatever the number of signals
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    store = MemoryStore(db)
    counts = store.counts()
    store.close()
    for table, n in at_least.items():
        assert counts[table] >= n, (table, counts)
    return stops[0]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("delay", [0.0, 0.3, 1.0], ids=["immediately", "0.3s", "1s"])
def test_signal_during_start_up_exits_0_with_one_line(seeded_db, tmp_path, delay, signum):
    db, counts = seeded_db
    proc, log, log_path, _ = _start(db, tmp_path)
    time.sleep(delay)
    proc.proc.send_signal(signum)
    rc, output = _finish(proc, log, log_path)
    line = _check_clean(rc, output, db, counts)
    # depending on the machine's speed the node may already serve at 1 s: either way it says which signal
    assert signum.name in line


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_while_the_node_is_being_built(seeded_db, tmp_path, signum):
    """Sent as soon as the node logs that memory is open, i.e. in the middle of MemoryNode() (subscriptions,
    services and companions still to come) or just after it: where rclpy's own handler used to end in
    ``RCLError ... context is invalid``."""
    db, counts = seeded_db
    proc, log, log_path, _ = _start(db, tmp_path)
    deadline = time.monotonic() + 60
    while "memory at" not in log_path.read_text():
        assert proc.alive() and time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.005)
    proc.proc.send_signal(signum)
    rc, output = _finish(proc, log, log_path)
    line = _check_clean(rc, output, db, counts)
    assert signum.name in line


def test_sigint_right_after_exec_is_kept_by_the_executable_itself(seeded_db, tmp_path):
    """Started by something that does not block signals (a shell, launch): the shebang's env blocks them
    within microseconds of exec; from then on a signal is pending, not lost, until the handlers take it."""
    db, counts = seeded_db
    cmd = node_command("vega", namespace=f"t{uuid.uuid4().hex[:8]}", database_path=str(db))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:  # until env has blocked them (SigBlk bits of SIGINT and SIGTERM)
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                blocked = int(next(line for line in f if line.startswith("SigBlk:")).split()[1], 16)
        except (OSError, StopIteration):
            blocked = 0
        if blocked & (1 << (signal.SIGINT - 1)) and blocked & (1 << (signal.SIGTERM - 1)):
            break
    proc.send_signal(signal.SIGINT)
    output, _ = proc.communicate(timeout=EXIT_TIMEOUT_S)
    _check_clean(proc.returncode, output, db, counts)


def _serving(db, tmp_path, ros):
    proc, log, log_path, ns = _start(db, tmp_path)
    client = MemoryClient(node_name=f"/{ns}/memory_node", namespace=f"/{ns}",
                          client_name=f"client_{uuid.uuid4().hex[:6]}")
    try:
        client.wait_for_node(timeout=60, alive=proc.alive)
    except (TimeoutError, RuntimeError):
        proc.kill()
        log.close()
        client.close()
        pytest.fail("node did not come up:\n" + log_path.read_text())
    # it serves: an answer from the seeded memory, and one more graph ingested
    assert "mug_1" in client.ask("where is the mug?").evidence_ids
    client.publish_scene_graph(graph(T0 + 10, [entity("plate_1", "plate")], []))
    client.sync(timeout=20)
    return proc, log, log_path, client


@pytest.mark.parametrize("signals", [(signal.SIGINT,), (signal.SIGINT, signal.SIGINT), (signal.SIGTERM,),
                                     (signal.SIGINT, signal.SIGTERM)],
                         ids=["sigint", "sigint-twice", "sigterm", "sigint-then-sigterm"])
def test_signal_while_serving_exits_0_and_keeps_memory(seeded_db, tmp_path, ros, signals):
    db, counts = seeded_db
    proc, log, log_path, client = _serving(db, tmp_path, ros)
    try:
        for i, signum in enumerate(signals):
            if i:
                time.sleep(0.05)  # Ctrl-C twice; launch's forward after a process-group signal
            proc.proc.send_signal(signum)
        rc, output = _finish(proc, log, log_path)
    finally:
        client.close()
    line = _check_clean(rc, output, db, {**counts, "entities": counts["entities"] + 1})
    assert f"{signals[0].name}: shutting down" in line


def test_sigint_twice_during_start_up(seeded_db, tmp_path):
    db, counts = seeded_db
    proc, log, log_path, _ = _start(db, tmp_path)
    time.sleep(0.5)
    proc.proc.send_signal(signal.SIGINT)
    time.sleep(0.05)
    proc.proc.send_signal(signal.SIGINT)
    rc, output = _finish(proc, log, log_path)
    _check_clean(rc, output, db, counts)
