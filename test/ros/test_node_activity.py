"""Observed activity over DDS: a real person's kitchen actions (EPIC-KITCHENS-100) published on ``activity``,
consolidated by the node into habits, and asked about over ~/ask and ~/query."""

import json
import os
import time
from pathlib import Path

import pytest

from memory_node.core.models import ActivityObservation
from memory_node.msg import Activity
from memory_node.ros import conversions as conv
from memory_node.scenes.epic_kitchens import load_participant

DATA = Path(os.environ.get("EPIC_KITCHENS_DIR")
            or Path(__file__).resolve().parents[3] / "shared" / "data" / "epic_kitchens_100")
PARTICIPANT = "P20"  # 222 actions in 3 videos


def test_activity_conversion_round_trip():
    a = ActivityObservation(stamp_ns=1_600_000_000_123_456_789, actor="P20", verb="turn-on", objects=["tap"],
                            location="kitchen_P20", text="turn on tap")
    msg = conv.activity_to_msg(a)
    assert conv.activity_from_msg(msg, conv.stamp_to_ns(msg.header.stamp)) == a
    with pytest.raises(conv.InvalidInput, match="verb"):
        conv.activity_from_msg(Activity(verb="  "), 1)


def test_node_consolidates_published_activity_into_habits(start_node, tmp_path):
    if not (DATA / "EPIC_100_validation.csv").is_file():
        pytest.skip(f"EPIC-KITCHENS-100 annotations not found at {DATA}")
    acts = load_participant(PARTICIPANT, DATA)
    node, client = start_node(consolidation_period=0.5)
    for a in acts:
        client.publish_activity(a)
    client.publish_activity(Activity(actor=PARTICIPANT, verb=""))  # rejected, counted, node keeps going
    resp = client.sync(timeout=20)
    assert resp.reached and resp.activities == len(acts) + 1

    # the periodic run (not the write path) consolidated what arrived
    log = tmp_path / "node_0.log"
    deadline = time.monotonic() + 10
    while f"consolidated {len(acts)} events" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert f"consolidated {len(acts)} events" in log.read_text()

    r = client.ask(f"what does {PARTICIPANT} usually do after washing the bowl?")
    assert r.success, r.error
    assert "put bowl" in r.answer and r.answer_ids[0].startswith("habit-") and 0 < r.confidence <= 1
    events = {rec.id: rec for rec in client.query(store="events", entity_id=PARTICIPANT, limit=1000).records}
    assert len(events) == len(acts) and r.evidence_ids and set(r.evidence_ids) <= set(events)

    habits = client.query(store="habits", entity_id=PARTICIPANT, limit=1000).records
    assert habits and {h.kind for h in habits} == {"habit"}
    wash_put = next(json.loads(h.json) for h in habits if json.loads(h.json)["steps"] == ["wash bowl", "put bowl"])
    assert wash_put["support"] >= 3 and set(wash_put["evidence_ids"]) <= set(events)
    assert client.query(store="routines", entity_id=PARTICIPANT).records

    # as of the first action, nothing had been seen often enough
    early = client.ask(f"what does {PARTICIPANT} usually do after washing the bowl?", as_of_ns=acts[0].stamp_ns)
    assert early.success and early.confidence == 0 and not early.evidence_ids
    assert not client.query(store="habits", as_of_ns=acts[0].stamp_ns).records
    assert node.alive()
