"""Batched ingest: store.transaction() wraps ingest_* (one commit, each message a savepoint)."""

import sqlite3

import pytest

from memory_node import Memory
from memory_node.core.models import (EntityObservation, InvalidInput, RejectedInput, RelationObservation,
                                     SceneGraphObservation, UtteranceObservation)
from memory_node.core.store import MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000


def graph(t, ent_id, label="mug", on=None):
    return SceneGraphObservation(stamp_ns=t, room="kitchen", entities=[EntityObservation(id=ent_id, label=label)],
                                 relations=[RelationObservation(subject=ent_id, predicate="on", object=on)] if on else [])


def test_transaction_wraps_ingest_and_commits_once(tmp_path):
    store = MemoryStore(tmp_path / "m.db")
    reader = MemoryStore.open_reader(tmp_path / "m.db")
    with store.transaction():
        store.ingest_scene_graph(graph(1 * S, "table_1", "table"))
        for i in range(50):
            store.ingest_scene_graph(graph((2 + i) * S, f"mug_{i}", on="table_1"))
        store.ingest_utterance(UtteranceObservation(stamp_ns=60 * S, speaker="a", text="hello"))
        assert reader.entity("mug_0") is None  # nothing is visible to others before the commit
        assert store.entity("mug_49").location.object == "table_1"  # the writer sees its own batch
    assert len(reader.entities(label="mug")) == 50 and reader.counts()["observations"] == 52
    reader.close()
    store.close()


def test_a_failing_message_inside_a_batch_is_undone_alone(tmp_path):
    store = MemoryStore(tmp_path / "m.db")
    with store.transaction():
        store.ingest_scene_graph(graph(1 * S, "table_1", "table"))
        with pytest.raises(RejectedInput):
            store.ingest_scene_graph(graph(2 * S, "mug_1", on="shelf_9"), strict=True)
        with pytest.raises(InvalidInput):
            store.ingest_utterance(UtteranceObservation(stamp_ns=3 * S, text="  "))
        store.ingest_scene_graph(graph(4 * S, "mug_2", on="table_1"))
    assert store.entity("mug_1") is None and store.entity("mug_2") is not None
    assert store.counts()["observations"] == 2  # the refused message left no log entry either
    store.close()


def test_an_exception_leaving_the_batch_undoes_all_of_it(tmp_path):
    store = MemoryStore(tmp_path / "m.db")
    store.ingest_scene_graph(graph(1 * S, "table_1", "table"))
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.ingest_scene_graph(graph(2 * S, "mug_1", on="table_1"))
            raise RuntimeError("caller gave up")
    assert store.entity("mug_1") is None and store.counts()["observations"] == 1
    # and the store is usable afterwards, in and out of batches
    store.ingest_scene_graph(graph(3 * S, "mug_1", on="table_1"))
    with store.transaction():
        store.ingest_scene_graph(graph(4 * S, "mug_2", on="table_1"))
    assert store.entity("mug_1") and store.entity("mug_2")
    store.close()


def test_a_statement_the_database_refuses_fails_its_own_message_only(tmp_path):
    # PostgreSQL writes are pipelined (sent without waiting for each result): the refusal must still surface
    # inside the savepoint whose statement caused it, not in a later message or at the commit
    store = MemoryStore(tmp_path / "m.db")
    with store.transaction() as storage:
        storage.insert_observation("obs-1", "utterance", 1 * S, "a", {})
        with pytest.raises(Exception, match="(?i)unique|duplicate"):
            with store.transaction() as inner:
                inner.insert_observation("obs-2", "utterance", 2 * S, "a", {})
                inner.insert_observation("obs-1", "utterance", 3 * S, "a", {})  # the same id again
        store.ingest_scene_graph(graph(4 * S, "mug_1"))
    ids = [o.id for o in store.observations()]  # newest first
    assert len(ids) == 2 and ids[1] == "obs-1" and ids[0].startswith("sg-")  # obs-2 was undone with its message
    assert store.entity("mug_1") is not None
    store.close()


def test_facade_batch_and_nesting(tmp_path):
    with Memory(tmp_path / "m.db") as mem:
        with mem.batch():
            mem.observe("table_1", "table", room="kitchen", t=1)
            with mem.batch():  # nests
                mem.observe("mug_1", "mug", room="kitchen", on="table_1", t=2)
            with pytest.raises(RejectedInput):
                mem.observe("mug_2", "mug", room="kitchen", on="nowhere_1", t=3)
        assert mem.where("mug_1").location.object == "table_1" and mem.where("mug_2") is None


def test_reader_refuses_batches(tmp_path):
    MemoryStore(tmp_path / "m.db").close()
    reader = MemoryStore.open_reader(tmp_path / "m.db")
    with pytest.raises(sqlite3.OperationalError):
        with reader.transaction():
            pass
    reader.close()
