"""The node when its disk fails it. Full (a file-size limit set on the running node process from outside,
as ``prlimit`` does): inputs are rejected with a clear, counted error, reads keep working, nothing already
stored is lost, and writing resumes once the disk can take it. Read-only from the start (the node in a
mount namespace of its own, which needs no privileges in the machine's) or a memory file from a newer
version: refused at start with one clear line, the file untouched."""

import resource
import shutil
import sqlite3
import subprocess
import uuid

import pytest

from memory_node.core.store import SCHEMA_VERSION, MemoryStore
from memory_node.ros import conversions as conv
from memory_node.ros.process import NodeProcess
from ros_messages import S, T0, entity, graph
from test_node_fuzz import diagnostics


def moving_jars(i: int):
    """Graph i moves 40 jars: new versions every time, so every graph writes pages."""
    return graph(T0 + (10 + i) * S, [entity(f"jar_{k}", "jar", room="pantry", x=k + 0.3 * i) for k in range(40)],
                 [], room="pantry")


def seed(client) -> None:
    client.publish_scene_graph(graph(T0, [entity("keys_1", "keys", room="hall"), entity("bowl_1", "bowl", room="hall")],
                                     [("keys_1", "in", "bowl_1")], room="hall"))
    client.sync(timeout=30)


def publish_until_refused(client, first: int, limit: int = 300) -> tuple[int, dict]:
    """Publish graphs until the node reports a storage error; returns (graphs published, diagnostics)."""
    for i in range(first, first + limit):
        client.publish_scene_graph(moving_jars(i))
        client.sync(timeout=30)
        if i % 5 == 4:
            d = diagnostics(client)
            if int(d["storage_errors"]) > 0:
                return i + 1 - first, d
    raise AssertionError("the node never reported the disk as full or read-only")


def assert_memory_after(db, stored_jar_graphs: int) -> None:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    store = MemoryStore(db)
    assert store.entity("keys_1").location.object == "bowl_1"
    assert store.db.execute("SELECT COUNT(*) FROM observations WHERE kind='scene_graph'").fetchone()[0] == \
        1 + stored_jar_graphs
    store.close()


def test_a_full_disk_is_a_clear_counted_rejection_reads_go_on_and_nothing_is_lost(start_node, tmp_path):
    db = tmp_path / "full.db"
    node, client = start_node(database_path=db, diagnostics_period=0.2)
    seed(client)
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    # no file the node writes may grow by more than a few pages (the write-ahead log grows per message)
    resource.prlimit(node.proc.pid, resource.RLIMIT_FSIZE, (db.stat().st_size + 64 * 1024, hard))
    published, d = publish_until_refused(client, 0)
    assert "could not be written" in d["last_error"] and d["internal_errors"] == "0"
    refused = int(d["storage_errors"])
    assert int(d["rejected_scene_graphs"]) == refused
    # reads keep working while the disk is full
    assert "keys_1" in client.ask("where are the keys?").evidence_ids
    assert client.query(store="entities", entity_id="keys_1").records
    # room again: the next graph is stored
    resource.prlimit(node.proc.pid, resource.RLIMIT_FSIZE, (hard, hard))
    client.publish_scene_graph(moving_jars(published))
    client.sync(timeout=30)
    assert diagnostics(client)["storage_errors"] == str(refused)
    assert node.stop() == 0
    assert_memory_after(db, published + 1 - refused)


def _read_only(folder) -> tuple[str, ...]:
    """Run the node in a user + mount namespace of its own where ``folder`` is mounted read-only (Linux
    refuses to remount a folder read-only while a process has a file in it open for writing, so the medium
    is read-only from the start)."""
    if shutil.which("unshare") is None or \
            subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("unprivileged user and mount namespaces (unshare -rm) are not available here")
    return ("unshare", "-rm", "--propagation", "private", "sh", "-c",
            'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"', str(folder))


def test_a_memory_on_a_read_only_medium_is_refused_at_start_with_one_clear_line(ros, tmp_path):
    folder = tmp_path / "memory"
    folder.mkdir()
    db = folder / "ro.db"
    store = MemoryStore(db)
    store.ingest_scene_graph(conv.scene_graph_from_msg(graph(T0, [entity("keys_1", "keys")], []), T0))
    store.close()
    before = db.read_bytes()
    log_path = tmp_path / "node.log"
    with open(log_path, "w") as log:
        node = NodeProcess(log=log, namespace=f"t{uuid.uuid4().hex[:8]}", wrapper=_read_only(folder),
                           database_path=str(db))
        code = node.proc.wait(timeout=120)
    text = log_path.read_text()
    assert code == 1, text
    assert "cannot use memory" in text and "cannot be opened for writing" in text, text
    assert "Traceback" not in text
    assert db.read_bytes() == before and MemoryStore.open_reader(db).entity("keys_1") is not None


def test_a_memory_from_a_newer_version_is_refused_at_start_with_one_clear_line(ros, tmp_path):
    db = tmp_path / "newer.db"
    MemoryStore(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    before = db.read_bytes()
    log_path = tmp_path / "node.log"
    with open(log_path, "w") as log:
        node = NodeProcess(log=log, namespace=f"t{uuid.uuid4().hex[:8]}", database_path=str(db))
        code = node.proc.wait(timeout=120)
    text = log_path.read_text()
    assert code == 1, text
    assert "cannot use memory" in text and f"memory schema {SCHEMA_VERSION + 1}, newer" in text
    assert "Traceback" not in text
    assert db.read_bytes() == before
