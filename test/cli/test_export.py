"""memory-node export: JSON, GraphML read back by networkx, and a PNG that really shows the objects."""

import json

import cv2
import networkx as nx
import numpy as np
import pytest

from cli_helpers import SHARED, T0

from memory_node.cli.common import open_memory
from memory_node.cli.picture import OBJECT_COLOUR, draw_memory

AWS_MAP = SHARED / "aws_small_house" / "maps"


def test_json_has_entities_relations_events_and_as_of(cli, memory_db, tmp_path):
    out = tmp_path / "memory.json"
    assert cli("export", memory_db, "--json", out)[0] == 0
    doc = json.loads(out.read_text())
    assert {e["id"] for e in doc["entities"]} >= {"mug_1", "table_1", "kitchen", "living_room"}
    assert {(r["subject"], r["predicate"], r["object"]) for r in doc["relations"]} == {
        ("mug_1", "on", "shelf_1"), ("book_1", "on", "shelf_1")}
    assert [e["kind"] for e in doc["events"]] == ["change", "skill", "utterance"]  # oldest first
    # as of before the move: the mug was on the table
    assert cli("export", memory_db, "--json", out, "--as-of", str((T0 + 15 * 10**9) / 1e9))[0] == 0
    doc = json.loads(out.read_text())
    assert ("mug_1", "on", "table_1") in {(r["subject"], r["predicate"], r["object"]) for r in doc["relations"]}
    assert doc["events"] == []  # the move came later


def test_graphml_round_trips_through_networkx(cli, memory_db, tmp_path):
    out = tmp_path / "graph.graphml"
    code, text, _ = cli("export", memory_db, "--graphml", out)
    assert code == 0 and "8 nodes, 2 edges" in text
    g = nx.read_graphml(out)
    assert g.nodes["mug_1"]["label"] == "mug" and g.nodes["mug_1"]["room"] == "living_room"
    assert float(g.nodes["mug_1"]["x"]) == pytest.approx(7.6)
    assert g.nodes["fridge_1"]["states"] == "closed,locked"  # locked: learned from the failed open
    assert g.has_edge("mug_1", "shelf_1") and not g.has_edge("mug_1", "table_1")


def _colour_near(image, px, py, bgr, radius=3, tol=40):
    patch = image[max(py - radius, 0):py + radius + 1, max(px - radius, 0):px + radius + 1].reshape(-1, 3)
    return bool((np.abs(patch.astype(int) - np.array(bgr)).max(axis=1) < tol).any())


def test_png_is_a_real_picture_with_each_object_drawn_where_it_is(memory_db, tmp_path):
    out = tmp_path / "memory.png"
    store = open_memory(memory_db)
    drawn = draw_memory(store, out, title="test")
    store.close()
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = cv2.imread(str(out))
    assert image.shape[1::-1] == drawn.size == (1000, 800)
    assert sorted(drawn.rooms) == ["kitchen", "living_room"] and drawn.relations == 2
    assert set(drawn.objects) == {"table_1", "mug_1", "fridge_1", "sofa_1", "shelf_1", "book_1"}
    red = tuple(int(OBJECT_COLOUR[i:i + 2], 16) for i in (5, 3, 1))  # BGR
    for ent_id, (px, py) in drawn.objects.items():
        assert _colour_near(image, px, py, red), f"no object dot at {ent_id}'s place ({px}, {py})"
    # the fridge is right of and below the sofa in the map frame: x grows right, y grows up in the picture
    (fx, fy), (sx, sy) = drawn.objects["fridge_1"], drawn.objects["sofa_1"]
    assert fx < sx and fy > sy
    assert not _colour_near(image, 5, 5, red, radius=4)  # the corner is not an object


@pytest.mark.skipif(not (AWS_MAP / "map.yaml").exists() and not any(AWS_MAP.rglob("map.yaml")),
                    reason="shared AWS small house map not found")
def test_png_over_the_occupancy_map(cli, memory_db, tmp_path):
    map_yaml = next(AWS_MAP.rglob("map.yaml"))
    out = tmp_path / "map.png"
    code, text, _ = cli("export", memory_db, "--png", out, "--map", map_yaml)
    assert code == 0 and "6 objects" in text
    image = cv2.imread(str(out))
    grey = (np.abs(image[..., 0].astype(int) - image[..., 2]) < 8) & (image[..., 0] < 100)
    assert grey.sum() > 1000  # the map's walls (dark grey cells) are in the picture


def test_export_errors(cli, memory_db, tmp_path):
    code, _, err = cli("export", memory_db)
    assert code == 2 and "--json OUT" in err
    code, _, err = cli("export", memory_db, "--json", tmp_path / "x.json", "--map", "m.yaml")
    assert code == 2 and "--map goes with --png" in err
