"""Plane geometry the simulator reasons with: the occupancy grid of a scene, where the base can stand near
a target, and where an object fits on a surface.

Pure numpy, no Genesis: the map comes from the scene file's footprints (exact, and no ray casting is needed
when the scene is known), and the skill checks can be tested without building a simulation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from memory_node.sim.scene_spec import SIDE_NORMALS, Rect, SceneSpec, Vec2

FREE, OCCUPIED, UNKNOWN = 0, 100, -1
# Furniture whose underside is above this does not block the base (ceiling lamps, a stove hood), nor does
# furniture flat enough to drive over (rugs).
BLOCKING_BELOW_M = 1.8
BLOCKING_ABOVE_M = 0.05
ROBOT_RADIUS_M = 0.36  # Vega base: ~0.62 x 0.5 m footprint, its centre ~0.05 m behind the base origin
STANDOFF_M = 0.45  # base origin to the target's edge when standing at it: arms reach ~0.6 m forward


def yaw_to_quat(yaw: float) -> tuple[float, float, float, float]:
    """(w, x, y, z), Genesis' order."""
    return (math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2))


def quat_to_yaw(q: Sequence[float]) -> float:
    w, x, y, z = (float(v) for v in q)
    return math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))


def rect_distance(x: float, y: float, r: Rect) -> float:
    """Distance from a point to a rectangle (0 inside)."""
    return math.hypot(max(r[0] - x, 0.0, x - r[2]), max(r[1] - y, 0.0, y - r[3]))


def rects_overlap(a: Rect, b: Rect, margin: float = 0.0) -> bool:
    return a[0] < b[2] + margin and b[0] < a[2] + margin and a[1] < b[3] + margin and b[1] < a[3] + margin


def rect_around(x: float, y: float, sx: float, sy: float) -> Rect:
    return (x - sx / 2, y - sy / 2, x + sx / 2, y + sy / 2)


@dataclass
class OccupancyGrid:
    """ROS OccupancyGrid semantics: ``data[row, col]`` is the cell at (origin_x + col*res, origin_y +
    row*res), 0 free, 100 occupied, -1 unknown (outside every room)."""

    data: np.ndarray
    origin_x: float
    origin_y: float
    resolution: float

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return (math.floor((y - self.origin_y) / self.resolution),
                math.floor((x - self.origin_x) / self.resolution))

    def value(self, x: float, y: float) -> int:
        row, col = self.cell(x, y)
        if 0 <= row < self.data.shape[0] and 0 <= col < self.data.shape[1]:
            return int(self.data[row, col])
        return UNKNOWN

    def disc_free(self, x: float, y: float, radius: float) -> bool:
        """Every cell within ``radius`` of (x, y) is known free: where the base may stand."""
        r0, c0 = self.cell(x - radius, y - radius)
        r1, c1 = self.cell(x + radius, y + radius)
        if r0 < 0 or c0 < 0 or r1 >= self.data.shape[0] or c1 >= self.data.shape[1]:
            return False
        rows, cols = np.mgrid[r0:r1 + 1, c0:c1 + 1]
        cx = self.origin_x + (cols + 0.5) * self.resolution
        cy = self.origin_y + (rows + 0.5) * self.resolution
        inside = (cx - x) ** 2 + (cy - y) ** 2 <= radius ** 2
        return bool(np.all(self.data[r0:r1 + 1, c0:c1 + 1][inside] == FREE))

    def _fill(self, rect: Rect, value: int) -> None:
        r0, c0 = self.cell(rect[0], rect[1])
        r1, c1 = self.cell(rect[2] - 1e-9, rect[3] - 1e-9)
        r0, c0 = max(r0, 0), max(c0, 0)
        r1, c1 = min(r1, self.data.shape[0] - 1), min(c1, self.data.shape[1] - 1)
        if r1 >= r0 and c1 >= c0:
            self.data[r0:r1 + 1, c0:c1 + 1] = value


def occupancy_grid(spec: SceneSpec, resolution: float = 0.05, margin: float = 0.5) -> OccupancyGrid:
    """Rasterize floors (free), then walls and the footprints of furniture that reaches down into the
    base's way (occupied); everything outside the floors is unknown."""
    x0, y0, x1, y1 = spec.bounds()
    x0, y0 = x0 - margin, y0 - margin
    width = math.ceil((x1 + margin - x0) / resolution)
    height = math.ceil((y1 + margin - y0) / resolution)
    grid = OccupancyGrid(np.full((height, width), UNKNOWN, dtype=np.int8), x0, y0, resolution)
    for room in spec.rooms:
        for rect in room.floor:
            grid._fill(rect, FREE)
    for w in spec.walls:
        for rect in _wall_rects(w.start, w.end, w.thickness, resolution):
            grid._fill(rect, OCCUPIED)
    for f in spec.furniture:
        if f.bottom < BLOCKING_BELOW_M and f.top > BLOCKING_ABOVE_M:
            grid._fill(f.footprint(), OCCUPIED)
    return grid


def _wall_rects(a: Vec2, b: Vec2, thickness: float, step: float) -> Iterable[Rect]:
    """An axis-aligned wall is one rectangle; a slanted one is covered by squares along it."""
    h = thickness / 2
    if abs(a[0] - b[0]) < 1e-9 or abs(a[1] - b[1]) < 1e-9:
        yield (min(a[0], b[0]) - h, min(a[1], b[1]) - h, max(a[0], b[0]) + h, max(a[1], b[1]) + h)
        return
    n = max(1, int(math.dist(a, b) / step))
    for i in range(n + 1):
        x, y = a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n
        yield (x - h, y - h, x + h, y + h)


def approach_pose(grid: OccupancyGrid, target: Rect, focus: Vec2, sides: Sequence[str],
                  standoff: float = STANDOFF_M, radius: float = ROBOT_RADIUS_M,
                  reach: float = math.inf) -> tuple[float, float, float] | None:
    """A collision-free base pose (x, y, yaw) at ``target``'s edge, facing ``focus`` (the point to work
    at), with ``focus`` within ``reach``. Sides are tried in order, each from the point nearest the focus
    outwards along the side and then further back. When no free pose is within reach, the free pose nearest
    the focus (the skill's reach check then fails honestly); None when the target is walled in."""
    fallback: tuple[float, float, float] | None = None
    fallback_d = math.inf
    for side in sides:
        nx, ny = SIDE_NORMALS[side]
        # point on the side's line nearest the focus
        ex = target[2] if nx > 0 else target[0] if nx < 0 else min(max(focus[0], target[0]), target[2])
        ey = target[3] if ny > 0 else target[1] if ny < 0 else min(max(focus[1], target[1]), target[3])
        along = (-ny, nx)
        for back in (0.0, 0.1, 0.2, 0.35):
            for shift in (0.0, 0.15, -0.15, 0.3, -0.3, 0.5, -0.5):
                x = ex + nx * (standoff + back) + along[0] * shift
                y = ey + ny * (standoff + back) + along[1] * shift
                if not grid.disc_free(x, y, radius):
                    continue
                pose = (x, y, math.atan2(focus[1] - y, focus[0] - x))
                d = math.dist((x, y), focus)
                if d <= reach:
                    return pose
                if d < fallback_d:
                    fallback, fallback_d = pose, d
    return fallback


def nearest_free_pose(grid: OccupancyGrid, x: float, y: float, radius: float = ROBOT_RADIUS_M,
                      max_dist: float = 3.0, inside: Rect | None = None) -> tuple[float, float] | None:
    """The free base position nearest (x, y), searched on rings of growing size (a room's centre is often
    under a table)."""
    step = max(grid.resolution * 2, 0.1)
    for k in range(int(max_dist / step) + 1):
        d = k * step
        n = max(1, int(2 * math.pi * d / step))
        for i in range(n):
            a = 2 * math.pi * i / n
            px, py = x + d * math.cos(a), y + d * math.sin(a)
            if inside is not None and not (inside[0] <= px <= inside[2] and inside[1] <= py <= inside[3]):
                continue
            if grid.disc_free(px, py, radius):
                return (px, py)
    return None


def free_spot(surface: Rect, occupants: Iterable[Rect], size: Vec2, prefer: Vec2,
              gap: float = 0.02, step: float = 0.025) -> Vec2 | None:
    """Centre (x, y) of a place on ``surface`` where a footprint of ``size`` overlaps no occupant (with a
    ``gap``), nearest to ``prefer``; None when the surface is full (the place skill's "occupied")."""
    sx, sy = size
    lo_x, hi_x = surface[0] + sx / 2, surface[2] - sx / 2
    lo_y, hi_y = surface[1] + sy / 2, surface[3] - sy / 2
    if lo_x > hi_x or lo_y > hi_y:
        return None
    occ = list(occupants)
    xs = np.append(np.arange(lo_x, hi_x + 1e-9, step), (lo_x + hi_x) / 2)
    ys = np.append(np.arange(lo_y, hi_y + 1e-9, step), (lo_y + hi_y) / 2)
    best: Vec2 | None = None
    best_d = float("inf")
    for x in xs:
        for y in ys:
            d = (x - prefer[0]) ** 2 + (y - prefer[1]) ** 2
            if d >= best_d:
                continue
            fp = rect_around(float(x), float(y), sx, sy)
            if any(rects_overlap(fp, o, gap) for o in occ):
                continue
            best, best_d = (float(x), float(y)), d
    return best
