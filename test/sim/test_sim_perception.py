"""A shipped scenario through the perception path: the bridge publishes no scene graph, only RGB-D, camera
info, camera_pose and the segmentation image with its table; the perception node (its own process) turns
them into the scene graphs the memory node (its own process) ingests; requests are graded as always."""

from __future__ import annotations

import uuid

import numpy as np
import pytest

pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")
pytest.importorskip("open3d")


@pytest.fixture
def perceiving_bridge(world, start_node, tmp_path):
    from memory_node.ros.genesis_bridge import SimBridge
    from memory_node.ros.process import PerceptionProcess
    from memory_node.ros.sim_demo import sim_perception_parameters

    ns = f"t{uuid.uuid4().hex[:8]}"
    _, client = start_node("vega", namespace=ns)
    log = open(tmp_path / "perception.log", "w")
    perception = PerceptionProcess(log=log, namespace=ns, **sim_perception_parameters("small_home"))
    bridge = SimBridge(world, client, perception_only=True)
    try:
        bridge.wait_for_perception(timeout=60)
    except TimeoutError:
        log.flush()
        raise AssertionError((tmp_path / "perception.log").read_text())
    bridge.publish_map()
    yield bridge
    perception.stop()
    log.close()


def test_moved_twice_through_the_perception_node(perceiving_bridge) -> None:
    from memory_node.ros.sim_scenario import run_scenario
    from memory_node.sim.scenario import load_scenario

    bridge = perceiving_bridge
    report = run_scenario(load_scenario("moved_twice"), bridge)
    failed = [(o.request, o.reply, o.executed, o.why) for o in report.outcomes if not o.passed]
    assert not failed, failed
    # memory's mug came from lifted depth, not from the simulator's state: close to, not at, its centre,
    # and its size is the lifted box's (2 decimals), not the scene file's
    mug = next(e for e in bridge.memory.scene_graph(as_of_ns=0).graph.entities if e.id == "mug_431")
    attrs = dict(zip(mug.attribute_keys, mug.attribute_values))
    assert len(attrs["size"].split(",")[0].split(".")[1]) == 2 and "kind" not in attrs
    assert bridge.memory.published["scene_graphs"] > 0  # all of them the perception node's, counted by its results
