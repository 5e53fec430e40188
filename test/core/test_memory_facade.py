"""memory_node.Memory: the engine as a Python library (plain arguments, clear errors, one result shape)."""

import logging
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from memory_node import Memory
from memory_node.core.models import Entity, InvalidInput, RejectedInput
from memory_node.core.query import query
from memory_node.memory import to_ns

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000
MEMORY_DOC = Path(__file__).resolve().parents[2] / "docs" / "memory.md"


@pytest.fixture
def mem(tmp_path):
    m = Memory(tmp_path / "memory.db")
    yield m
    m.close()


def test_observe_where_with_plain_arguments(mem):
    mem.observe("table_1", "table", position=(1.0, 2.0, 0.0), room="kitchen", t=100.0)
    r = mem.observe("mug_1", "mug", position=[1.0, 2.0, 0.8], room="kitchen", on="table_1",
                    attributes={"Color": "blue"}, states=["Clean"], t=101.5)
    assert r.ok and r.added == 1
    mug = mem.where("mug_1")
    assert isinstance(mug, Entity)
    assert (mug.position.x, mug.position.z) == (1.0, 0.8) and mug.room == "kitchen"
    assert mug.location.predicate == "on" and mug.location.object == "table_1"
    assert mug.attributes == {"color": "blue"} and mug.states == ["clean"]
    assert mug.first_seen_ns == 101_500_000_000  # float seconds -> exact nanoseconds

    mem.observe("cabinet_1", "cabinet", room="kitchen", t=199)
    mem.relate("mug_1", "inside", "cabinet_1", t=200)  # a synonym of "in"; supersedes "on"
    assert mem.where("mug_1").location.predicate == "in"
    assert mem.where("mug_1", t=150).location.predicate == "on"  # memory as it stood then
    assert [v.entity.location.predicate for v in mem.history("mug_1")] == ["on", "in"]
    assert mem.where("teapot_1") is None


def test_times_are_seconds_or_datetimes():
    aware = datetime(2026, 1, 2, 3, 4, 5, 250000, tzinfo=timezone.utc)
    assert to_ns(aware) == 1767323045_250_000_000
    assert to_ns(10) == 10 * S and to_ns(0.5) == S // 2
    assert to_ns(None, default_now=False) is None
    for bad in ("10", float("nan"), True, 1.7e18):
        with pytest.raises(InvalidInput):
            to_ns(bad)


def test_relation_to_unknown_entity_raises_and_stores_nothing(mem):
    mem.observe("mug_1", "mug", room="kitchen", t=1)
    with pytest.raises(RejectedInput, match="unknown entity cabinet_9") as err:
        mem.observe("plate_1", "plate", room="kitchen", inside="cabinet_9", t=2)
    assert err.value.reasons == ["relation plate_1 in cabinet_9: unknown entity cabinet_9"]
    assert mem.where("plate_1") is None  # strict: the whole message was refused
    with pytest.raises(RejectedInput, match="itself"):
        mem.relate("mug_1", "near", "mug_1")
    with pytest.raises(InvalidInput, match="unknown relation predicate 'levitating'"):
        mem.relate("mug_1", "levitating", "mug_1")
    with pytest.raises(InvalidInput, match="finite"):
        mem.observe("mug_1", "mug", position=(0.0, float("nan"), 0.0))
    with pytest.raises(InvalidInput, match="label"):
        mem.observe("mug_2", "  ")
    with pytest.raises(InvalidInput, match="at most one"):
        mem.observe("mug_1", "mug", on="a", inside="b")


def test_lenient_memory_reports_what_it_dropped(tmp_path, caplog):
    with Memory(tmp_path / "m.db", strict=False) as mem:
        with caplog.at_level(logging.WARNING, logger="memory_node.memory"):
            r = mem.observe("plate_1", "plate", room="kitchen", inside="cabinet_9", t=2)
        assert not r.ok and r.rejected == ["relation plate_1 in cabinet_9: unknown entity cabinet_9"]
        assert "cabinet_9" in caplog.text
        assert mem.where("plate_1").location is None  # the entity was kept, the relation was not
        # one call can still be strict
        with pytest.raises(RejectedInput):
            mem.relate("plate_1", "on", "table_9", strict=True)


def test_label_normalisation_is_visible(mem):
    mem.observe("t1", "coffee_table", room="lounge", t=1)
    t1 = mem.where("t1")
    assert (t1.label, t1.raw_label) == ("coffeetable", "coffee_table")
    # lookups take the label as given or normalised
    assert [e.id for e in mem.entities(label="coffee_table")] == ["t1"]
    assert [e.id for e in mem.entities(label="Coffee Table")] == ["t1"]
    assert Memory.label_key("Coffee table") == "coffeetable"
    # another spelling of the same label is no new version, but is kept as the latest raw label
    mem.observe("t1", "Coffee Table", room="lounge", t=2)
    assert len(mem.history("t1")) == 1 and mem.where("t1").raw_label == "Coffee Table"


def test_query_records_and_where_share_one_shape(mem):
    mem.observe("table_1", "table", position=(1, 2, 0), room="kitchen", t=1)
    mem.observe("mug_1", "mug", position=(1, 2, 0.8), room="kitchen", on="table_1", t=2)
    rec = mem.query("entities", entity_id="mug_1")[0]
    assert rec.typed() == mem.where("mug_1") == mem.store.entity("mug_1")
    by_text = mem.query("entities", text="mug")[0]
    assert by_text.id == "mug_1" and by_text.typed() == mem.where("mug_1")
    # every kind of record parses back into its model
    mem.event("open", ["fridge"], actor="alice", t=3)
    for store in ("", "events", "history", "relations", "rooms", "observations"):
        entity_id = "mug_1" if store == "history" else ""
        for r in query(mem.store, kind=store, entity_id=entity_id):
            assert r.typed().model_dump_json() == r.json_data


def test_events_utterances_and_skills(mem):
    mem.observe("drawer_1", "drawer", room="kitchen", t=1)
    mem.event("open", ["fridge"], actor="alice", location="kitchen", t=10)
    mem.said("forks go in the drawer", speaker="alice", t=11)
    mem.skill("open", ["drawer_1"], target="drawer_1", success=False, status="EXECUTION_FAILURE",
              message="drawer is locked", t=12)
    assert [e.kind for e in mem.events()] == ["skill", "utterance", "activity"]
    assert [e.kind for e in mem.events(since=10.5, until=11.5)] == ["utterance"]
    assert "locked" in mem.where("drawer_1").states


def test_ask_answers_from_what_was_observed(mem):
    pytest.importorskip("spacy")
    mem.observe("table_1", "table", room="kitchen", t=1)
    mem.observe("mug_1", "mug", room="kitchen", on="table_1", t=2)
    answer = mem.ask("where is the mug?")
    assert answer.success and "table_1" in answer.answer_ids


def test_readme_example_runs():
    """docs/memory.md's "Using the engine from Python" example, run as written (its asserts check it)."""
    text = MEMORY_DOC.read_text()
    section = text.split("## Using the engine from Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code, "docs/memory.md section has no python example"
    exec(compile(code.group(1), "docs/memory.md", "exec"), {})  # noqa: S102 - our own docs


def test_the_facade_imports_neither_ros_nor_the_language_stack():
    code = ("import sys, memory_node; m = memory_node.Memory(); m.observe('a', 'mug', t=1); "
            "print(sorted(k for k in ('rclpy', 'spacy', 'memory_node.planning') if k in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
