"""The store when the disk fails it: full (a file-size limit on this process, or SQLite's page limit) or a
memory file from a newer version. A write that cannot happen is refused whole with MemoryNotWritable, what
was stored before stays, reads keep working, and writing works again once the disk has room."""

import resource
import sqlite3
from contextlib import contextmanager

import pytest

from memory_node.core.models import (
    EntityObservation,
    FrameObservation,
    Point,
    RelationObservation,
    SceneGraphObservation,
    UtteranceObservation,
)
from memory_node.core.store import SCHEMA_VERSION, IncompatibleMemory, MemoryNotWritable, MemoryStore

S = 1_000_000_000


def room_graph(i: int, n: int = 40) -> SceneGraphObservation:
    """Graph i moves every object of the pantry a little: n new versions, dozens of pages to write."""
    return SceneGraphObservation(
        stamp_ns=(10 + i) * S, room="pantry",
        entities=[EntityObservation(id=f"jar_{k}", label="jar", room="pantry",
                                    position=Point(x=k + i * 0.2, y=0.0, z=1.0), attributes={"n": str(i)})
                  for k in range(n)])


@contextmanager
def file_size_limit(nbytes: int):
    """No file this process writes may grow past ``nbytes`` (Python ignores SIGXFSZ, so writes fail with
    EFBIG, which SQLite reports as a full disk)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def seeded(tmp_path) -> MemoryStore:
    store = MemoryStore(tmp_path / "m.db")
    store.ingest_scene_graph(SceneGraphObservation(
        stamp_ns=1 * S, room="hall", entities=[EntityObservation(id="keys_1", label="keys", room="hall"),
                                               EntityObservation(id="bowl_1", label="bowl", room="hall")],
        relations=[RelationObservation(subject="keys_1", predicate="in", object="bowl_1")]))
    store.ingest_utterance(UtteranceObservation(stamp_ns=2 * S, speaker="anna", text="the keys go in the bowl"))
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # an empty log: the limit below bites on it first
    return store


def assert_intact(store: MemoryStore, stored_graphs: int) -> None:
    assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert store.entity("keys_1").location.object == "bowl_1"
    assert store.db.execute("SELECT COUNT(*) FROM observations WHERE kind='scene_graph'").fetchone()[0] == \
        stored_graphs + 1
    assert [e.text for e in store.events(kind="utterance")] == ["anna said: the keys go in the bowl"]


def test_a_full_disk_refuses_the_write_whole_keeps_memory_and_recovers(tmp_path):
    store = seeded(tmp_path)
    stored = 0
    with file_size_limit((tmp_path / "m.db").stat().st_size + 96 * 1024):
        with pytest.raises(MemoryNotWritable, match="could not be written") as refused:
            for i in range(200):
                store.ingest_scene_graph(room_graph(i))
                stored += 1
        assert "I/O" in str(refused.value) or "full" in str(refused.value)  # EFBIG reads as an I/O error
        assert 0 < stored < 200
        # nothing half-written is left open or visible, and reads keep working while the disk is full
        assert not store.db.in_transaction
        assert_intact(store, stored)
        assert store.entity("jar_0").attributes["n"] == str(stored - 1)
        with pytest.raises(MemoryNotWritable):  # and stays refused, cleanly, while it is full
            store.ingest_scene_graph(room_graph(stored))
    # room again: the very next write works (a COMMIT that failed used to leave its transaction open,
    # and every later write failed with "cannot start a transaction within a transaction")
    store.ingest_scene_graph(room_graph(stored))
    assert_intact(store, stored + 1)
    store.close()
    reopened = MemoryStore(tmp_path / "m.db")
    assert_intact(reopened, stored + 1)
    reopened.close()


def test_a_frame_file_that_cannot_be_written_is_refused_and_not_recorded(tmp_path):
    store = seeded(tmp_path)
    frame = FrameObservation(stamp_ns=5 * S, encoded=b"\xff\xd8" + bytes(200_000), thumbnail=[1.0] * 256,
                             room="hall")
    with file_size_limit(64 * 1024):
        with pytest.raises(MemoryNotWritable, match="could not be written"):
            store.ingest_frame(frame)
    assert store.frames() == [] and list((tmp_path / "frames").glob("*")) == []
    assert store.ingest_frame(frame).admitted  # and works once the disk has room
    store.close()


def test_the_page_limit_of_sqlite_refuses_inside_the_transaction_too(tmp_path):
    """A full database (here SQLite's max_page_count) fails a statement inside the transaction rather
    than its COMMIT: refused the same way, rolled back whole."""
    store = seeded(tmp_path)
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count={pages + 3}")
    stored = 0
    with pytest.raises(MemoryNotWritable, match="full"):
        for i in range(200):
            store.ingest_scene_graph(room_graph(i))
            stored += 1
    assert not store.db.in_transaction
    assert_intact(store, stored)
    store.db.execute("PRAGMA max_page_count=1073741823")
    store.ingest_scene_graph(room_graph(stored))
    assert_intact(store, stored + 1)
    store.close()


def test_a_reader_refuses_writes_with_the_same_error(tmp_path):
    store = seeded(tmp_path)
    reader = MemoryStore.open_reader(tmp_path / "m.db")
    with pytest.raises(MemoryNotWritable, match="read-only"):
        reader.ingest_scene_graph(room_graph(0))
    with pytest.raises(sqlite3.OperationalError):  # still the OperationalError it is documented to raise
        reader.ingest_scene_graph(room_graph(0))
    assert reader.entity("keys_1").location.object == "bowl_1"
    reader.close()
    store.close()


def test_a_memory_from_a_newer_version_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "m.db"
    seeded(tmp_path).close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(IncompatibleMemory, match="newer"):
        MemoryStore(path)
    with pytest.raises(RuntimeError, match=f"schema {SCHEMA_VERSION + 1}"):
        MemoryStore.open_reader(path)
    assert path.read_bytes() == before  # nothing migrated, nothing written
