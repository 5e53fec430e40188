"""memory-node forget: says what it deletes, asks, deletes in one transaction, leaves a sound file."""

import sqlite3
import subprocess
import sys

from cli_helpers import ROOT, T0

from memory_node.core.store import MemoryStore


def _integrity(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0], db.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        db.close()


def test_forget_an_entity_with_yes(cli, memory_db):
    code, out, _ = cli("forget", memory_db, "--entity", "mug_1", "--yes")
    assert code == 0
    assert 'entity mug_1 (mug "Alex\'s mug", room living_room) with its 2 stored versions' in out
    assert "forgot 1 records" in out
    store = MemoryStore(memory_db)
    assert store.entity("mug_1") is None and store.history("mug_1") == []
    assert store.relations(subject="mug_1") == [] and store.entity("book_1") is not None
    store.close()
    assert _integrity(memory_db) == ("ok", [])


def test_without_confirmation_nothing_is_deleted(memory_db):
    before = memory_db.read_bytes()
    r = subprocess.run([sys.executable, "-m", "memory_node.cli", "forget", str(memory_db), "--everything"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2
    assert "not deleting without confirmation" in r.stderr and "everything: 8 entities" in r.stdout
    store = MemoryStore.open_reader(memory_db)
    assert store.counts()["entities"] == 8
    store.close()


def test_forget_before_a_time_keeps_what_came_after(cli, memory_db):
    cut = (T0 + 35 * 10**9) / 1e9  # after the skill feedback, before the utterance
    code, out, _ = cli("forget", memory_db, "--before", cut, "--yes")
    assert code == 0 and "2 events" in out  # the move and the failed skill
    store = MemoryStore(memory_db)
    assert [e.kind for e in store.events()] == ["utterance"]
    assert store.counts()["entities"] == 0  # every entity was first seen before the cut
    store.close()
    assert _integrity(memory_db) == ("ok", [])


def test_bad_selection_is_refused_before_anything_changes(cli, memory_db):
    code, _, err = cli("forget", memory_db, "--entity", "unicorn_1", "--entity", "mug_1", "--yes")
    assert code == 2 and "no entity, event or frame 'unicorn_1'" in err
    code, _, err = cli("forget", memory_db, "--room", "attic", "--yes")
    assert code == 2 and "no room 'attic'" in err
    code, _, err = cli("forget", memory_db, "--yes")
    assert code == 2 and "say what to forget" in err
    code, _, err = cli("forget", memory_db, "--before", "yesterday-ish", "--yes")
    assert code == 2 and "ISO date/time" in err
    store = MemoryStore.open_reader(memory_db)
    assert store.entity("mug_1") is not None and store.counts()["events"] == 3
    store.close()
