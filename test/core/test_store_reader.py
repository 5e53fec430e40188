"""A read-only MemoryStore beside the writer (``MemoryStore.open_reader``), as the node's LLM thread uses one:
it sees every committed message, never half of one, cannot write, and serves the read paths that would
otherwise write (on-demand consolidation, the embedding cache, as-of search)."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from memory_node.core import consolidation as cons
from memory_node.core.models import (
    ActivityObservation,
    EntityObservation,
    RelationObservation,
    SceneGraphObservation,
)
from memory_node.core.retrieval import retriever_for
from memory_node.core.storage.errors import storage_errors
from memory_node.core.store import MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000
T0 = 1_700_000_000 * S


def graph(t_s: float, *entities: EntityObservation, relations=()) -> SceneGraphObservation:
    return SceneGraphObservation(stamp_ns=T0 + int(t_s * S), room="kitchen", entities=list(entities),
                                 relations=list(relations))


def E(id: str, label: str, x: float = 0.0) -> EntityObservation:
    return EntityObservation(id=id, label=label, room="kitchen", position={"x": x, "y": 0.0, "z": 0.0})


@pytest.fixture
def pair(tmp_path):
    writer = MemoryStore(tmp_path / "memory.db")
    reader = MemoryStore.open_reader(tmp_path / "memory.db")
    yield writer, reader
    reader.close()
    writer.close()


def test_reader_sees_each_commit_and_cannot_write(pair):
    writer, reader = pair
    assert reader.read_only and not writer.read_only
    assert reader.entity("mug_1") is None
    writer.ingest_scene_graph(graph(0, E("mug_1", "mug"), E("table_1", "table")))
    assert reader.entity("mug_1") is not None  # no reopening: the next read sees the commit

    with pytest.raises(sqlite3.OperationalError):
        reader.ingest_scene_graph(graph(1, E("cup_1", "cup")))
    with pytest.raises(storage_errors()):
        reader.storage.execute("DELETE FROM entities")
    with pytest.raises(sqlite3.OperationalError):
        reader.set_meta("robot", {"room": "kitchen"})
    assert not reader.storage.in_transaction  # a refused write leaves no transaction that would freeze its view
    writer.ingest_scene_graph(graph(2, E("plate_1", "plate")))
    assert {e.id for e in reader.entities()} == {"kitchen", "mug_1", "table_1", "plate_1"}
    assert writer.entity("cup_1") is None


def test_snapshot_holds_one_state_until_it_ends(pair):
    writer, reader = pair
    writer.ingest_scene_graph(graph(0, E("mug_1", "mug")))
    with reader.snapshot():
        before = {e.id for e in reader.entities()}
        writer.ingest_scene_graph(graph(1, E("plate_1", "plate")))  # the writer is not blocked by it
        with reader.snapshot():  # nests
            assert {e.id for e in reader.entities()} == before
        assert reader.entity("plate_1") is None
    assert reader.entity("plate_1") is not None
    with writer.snapshot():  # on the writer there is nothing to hold, and writes still work inside
        writer.ingest_scene_graph(graph(2, E("cup_1", "cup")))
    assert reader.entity("cup_1") is not None


@pytest.mark.sqlite_only
def test_open_reader_needs_the_writers_file(tmp_path):
    with pytest.raises(ValueError):
        MemoryStore.open_reader(":memory:")
    with pytest.raises(FileNotFoundError):
        MemoryStore.open_reader(tmp_path / "none.db")
    plain = sqlite3.connect(tmp_path / "plain.db")  # not a memory the writer prepared (no WAL, no schema)
    plain.execute("CREATE TABLE x(y)")
    plain.close()
    with pytest.raises(RuntimeError):
        MemoryStore.open_reader(tmp_path / "plain.db")


def test_reader_reads_whole_messages_while_the_writer_writes(pair):
    """A thread reads while the main thread ingests: every read succeeds, and an entity is never seen
    without the relation the same message gave it."""
    writer, reader = pair
    writer.ingest_scene_graph(graph(0, E("table_1", "table")))
    n = 150
    problems: list[str] = []
    seen = [0]
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            try:
                with reader.snapshot():
                    ids = {e.id for e in reader.entities(label="cup")}
                    on = {r.subject for r in reader.relations(obj="table_1")}
                if not ids <= on:
                    problems.append(f"cups without their relation: {sorted(ids - on)[:3]}")
                seen[0] = max(seen[0], len(ids))
            except Exception as err:  # noqa: BLE001 - reported below
                problems.append(f"{type(err).__name__}: {err}")

    thread = threading.Thread(target=read)
    thread.start()
    try:
        for i in range(n):
            writer.ingest_scene_graph(graph(1 + i, E(f"cup_{i}", "cup", x=i),
                                            relations=[RelationObservation(subject=f"cup_{i}", predicate="on",
                                                                           object="table_1")]))
    finally:
        done.set()
        thread.join(timeout=10)
    assert not problems, problems[:5]
    assert len(reader.entities(label="cup")) == n and seen[0] > 0


def test_reader_read_paths_that_would_write(pair):
    writer, reader = pair
    for day in range(3):  # three mornings: a routine
        for j, (verb, obj) in enumerate((("open", "fridge"), ("take", "milk"), ("close", "fridge"))):
            writer.ingest_activity(ActivityObservation(stamp_ns=T0 + (day * 86400 + j * 5) * S, actor="alex",
                                                       verb=verb, objects=[obj]))
    # consolidation is out of date: the reader computes what the writer would store, and stores nothing
    from_reader = cons.knowledge(reader)
    assert cons.latest_run(writer) is None
    assert from_reader and from_reader == cons.knowledge(writer)  # the writer consolidates on demand
    assert cons.latest_run(writer) is not None

    writer.ingest_scene_graph(graph(0, E("mug_1", "mug")))
    writer.ingest_scene_graph(graph(10, E("mug_1", "mug", x=2.0), E("plate_1", "plate")))
    search = retriever_for(reader)
    with reader.snapshot():  # as-of search builds temporary tables: they are the reader's own
        past = search.search("mug", kind="entities", as_of_ns=T0 + 5 * S)
        assert [r.id for r in past] == ["mug_1"]
        assert "plate_1" not in {r.id for r in search.search("plate", kind="entities", as_of_ns=T0 + 5 * S)}
    assert search.search("plate", kind="entities")[0].id == "plate_1"
    # vectors the reader computed stay in its memory (the writer's embedding_cache is the writer's to fill)
    assert writer.storage.count("embedding_cache") == 0
