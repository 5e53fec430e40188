"""Occupancy grid and placement geometry, from the scene file alone."""

from __future__ import annotations

import math

from memory_node.sim.geometry import FREE, OCCUPIED, UNKNOWN, approach_pose, free_spot, occupancy_grid
from memory_node.sim.scene_spec import load_scene_spec, shipped_scene


def test_occupancy_grid_marks_furniture_walls_floor_and_outside():
    spec = load_scene_spec(shipped_scene("small_home"))
    grid = occupancy_grid(spec, 0.05)
    assert grid.data.dtype.name == "int8"
    for f in spec.furniture:
        if f.top > 0.05 and f.bottom < 1.8:
            assert grid.value(f.center[0], f.center[1]) == OCCUPIED, f.id
    assert grid.value(spec.robot.x, spec.robot.y) == FREE
    x0, y0, _, _ = spec.bounds()
    assert grid.value(x0 - 0.3, y0 - 0.3) == UNKNOWN
    wall = spec.walls[0]
    assert grid.value((wall.start[0] + wall.end[0]) / 2, (wall.start[1] + wall.end[1]) / 2) == OCCUPIED
    # rooms connect: the doorway between kitchen and living room is free
    assert grid.value(1.15, -7.98) == FREE


def test_free_spot_finds_room_or_reports_full():
    surface = (0.0, 0.0, 0.4, 0.4)
    assert free_spot(surface, [], (0.1, 0.1), (0.2, 0.2)) == (0.2, 0.2)
    spot = free_spot(surface, [(0.0, 0.0, 0.25, 0.4)], (0.1, 0.1), (0.0, 0.0))
    assert spot is not None and spot[0] - 0.05 >= 0.25
    assert free_spot(surface, [(0.05, 0.05, 0.35, 0.35)], (0.1, 0.1), (0.2, 0.2)) is None


def test_approach_pose_is_free_and_faces_the_focus():
    spec = load_scene_spec(shipped_scene("small_home"))
    grid = occupancy_grid(spec)
    fridge = next(f for f in spec.furniture if f.id == "fridge_289")
    x, y, yaw = approach_pose(grid, fridge.footprint(), fridge.center[:2], ["-y", "+x"])
    assert grid.disc_free(x, y, 0.36)
    assert y < fridge.footprint()[1]  # in front (-y) of it
    assert abs(math.atan2(fridge.center[1] - y, fridge.center[0] - x) - yaw) < 1e-9
