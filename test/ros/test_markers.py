"""~/markers from a real store (no node): rooms, objects with labels and relation lines, in the map frame,
in the namespaces config/memory_node.rviz shows."""

from pathlib import Path

import pytest
import yaml

from builtin_interfaces.msg import Time
from visualization_msgs.msg import Marker

from memory_node.core.models import EntityObservation, Point, RelationObservation, SceneGraphObservation
from memory_node.core.store import MemoryStore
from memory_node.ros.markers import memory_markers

ROOT = Path(__file__).resolve().parents[2]


def test_markers_show_rooms_objects_labels_and_relations(tmp_path):
    store = MemoryStore(tmp_path / "m.db")
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=1, room="kitchen", entities=[
        EntityObservation(id="table_1", label="table", room="kitchen", position=Point(x=1.0, y=1.0, z=0.4)),
        EntityObservation(id="mug_1", label="mug", name="Alex's mug", room="kitchen",
                          position=Point(x=1.2, y=1.1, z=0.8)),
        EntityObservation(id="spoon_1", label="spoon", room="kitchen")],  # no position: not drawn
        relations=[RelationObservation(subject="mug_1", predicate="on", object="table_1")]))
    markers = memory_markers(store, Time(sec=5)).markers
    store.close()
    assert markers[0].action == Marker.DELETEALL
    by_ns = {}
    for m in markers[1:]:
        by_ns.setdefault(m.ns, []).append(m)
        assert m.header.frame_id == "map"
    (room,) = by_ns["rooms"]
    assert room.type == Marker.CUBE and room.pose.position.x == pytest.approx(1.1) and room.scale.x > 0.2  # around both
    assert [m.text for m in by_ns["room_labels"]] == ["kitchen"]
    assert sorted(m.text for m in by_ns["label"]) == ["Alex's mug", "table_1"]
    assert len(by_ns["entity"]) == 2 and all(m.type == Marker.SPHERE for m in by_ns["entity"])
    (lines,) = by_ns["relations"]
    assert lines.type == Marker.LINE_LIST
    assert [(p.x, p.y) for p in lines.points] == [(1.2, 1.1), (1.0, 1.0)]  # mug -> table
    # the shipped RViz view shows exactly these namespaces on ~/markers
    rviz = yaml.safe_load((ROOT / "config" / "memory_node.rviz").read_text())
    (display,) = [d for d in rviz["Visualization Manager"]["Displays"]
                  if d["Class"] == "rviz_default_plugins/MarkerArray"]
    assert display["Topic"]["Value"] == "/memory_node/markers"
    assert set(display["Namespaces"]) == set(by_ns)
    assert rviz["Visualization Manager"]["Global Options"]["Fixed Frame"] == "map"
