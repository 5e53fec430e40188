"""The frame-gate benchmark (memory_node/bench/frame_gate.py) without Genesis: its paths on the occupancy
map, and a tour of the small home through the node's real ingestor and store, with a stand-in renderer whose
view depends on the pose only (so standing still gives identical frames and turning changes the view)."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")

from memory_node.bench import frame_gate as fg  # noqa: E402
from memory_node.sim.geometry import ROBOT_RADIUS_M, occupancy_grid  # noqa: E402
from memory_node.sim.perception import scene_graph  # noqa: E402
from memory_node.sim.scene_spec import load_scene_spec, shipped_scene  # noqa: E402
from memory_node.sim.skills import SkillExecutor  # noqa: E402
from memory_node.sim.state import WorldState  # noqa: E402


class KinematicWorld:
    """SimWorld's surface the benchmark uses, without Genesis: the real world state, map and skills."""

    def __init__(self) -> None:
        self.spec = load_scene_spec(shipped_scene("small_home"))
        self.state = WorldState(self.spec)
        self.grid = occupancy_grid(self.spec)
        self.skills = SkillExecutor(self.state, self.grid, actuator=self)

    # actuator: nothing to move in a renderer-less world
    def settle(self, *a) -> None: ...
    def set_door(self, *a) -> None: ...
    def move_object(self, *a) -> None: ...
    def move_base(self, *a) -> None: ...
    def hand_position(self, hand):
        return (0.0, 0.0, 1.0)

    def execute(self, skill, args):
        return self.skills.execute(skill, args)

    def render(self, segmentation=False):
        r = self.state.robot
        u = np.linspace(0, 1, 64)
        phase = r.yaw * 3 + r.x + r.y  # the picture follows heading and position
        grey = (127 + 120 * np.sin(2 * math.pi * (u[None, :] * 2 + u[:, None]) + phase)).astype(np.uint8)
        rgb = np.repeat(grey[:, :, None], 3, axis=2)
        return SimpleNamespace(rgb=rgb, info=SimpleNamespace(frame_id="head_camera"), segmentation=None)

    def observe(self, stamp_ns, frame=None):
        room = self.state.robot_room()
        return scene_graph(self.state, [b.id for b in self.state.bodies.values() if b.room == room], stamp_ns)


def test_paths_keep_the_base_off_walls_and_furniture_and_go_straight_in_the_open():
    grid = KinematicWorld().grid
    kitchen, living = (-1.26, -4.606), (4.5, -8.0)  # two rooms, through the doorway
    path = fg.free_path(grid, kitchen, living, ROBOT_RADIUS_M)
    assert path[0] == kitchen and path[-1] == living
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        for k in range(21):
            x, y = ax + (bx - ax) * k / 20, ay + (by - ay) * k / 20
            assert grid.disc_free(x, y, ROBOT_RADIUS_M * 0.85), (x, y)
    assert len(path) <= 6  # a few straight legs, not a turn at every 0.1 m cell
    assert fg.free_path(grid, kitchen, (-1.26, -3.6), ROBOT_RADIUS_M) == [kitchen, (-1.26, -3.6)]


def test_tour_through_the_real_ingestor(tmp_path, monkeypatch):
    monkeypatch.setattr("memory_node.ros.genesis_bridge.build_world", lambda scene, camera: KinematicWorld())
    result = fg.run("small_home", (64, 64), speed=1.0, turn_rate=math.radians(90), dwell_s=1.0, threshold=None,
                    out=tmp_path)
    records = result["records"]
    standing = [r for r in records if r["phase"] == "standing"]
    assert standing and len({r["phase"] for r in records}) == 3
    # a robot standing still films the same picture: the gate admits at most the first frame of a stop
    assert sum(r["admitted"] for r in standing) <= len({r["room"] for r in records}) + 2
    admitted = sum(r["admitted"] for r in records)
    assert 0 < admitted < len(records)
    assert result["frames_stored"] == admitted  # what the gate admitted is what memory holds
    assert {r["room"] for r in records if r["admitted"] and r["diff"] is None} == {"kitchen_201", "livingroom_319"}
    lines = fg.report(result)
    assert "per minute of camera time" in lines[1]
    assert any(line.strip().startswith("standing:") for line in lines)
