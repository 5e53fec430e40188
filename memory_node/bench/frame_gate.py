"""The node's frame gate on rendered camera frames: how many a 30 Hz head camera gets stored, and why the
rest were not.

A simulated Vega tours the small home in Genesis (every room, then every piece of furniture in it, as the
scenarios' ``tour`` does) driving along collision-free paths on the occupancy map at walking pace, turning
on the spot, and standing still for a moment at each piece. Its head camera is rendered at 30 Hz of camera
time, and every frame goes through the node's own input path (``sensor_msgs/Image`` -> ``InputIngestor``,
the code ``memory_node`` runs on each camera message, with the node's default parameters) into a real
SQLite memory; a 1 Hz scene graph of what is in view (the simulator's) gives memory its rooms and
entities, as a perception node would.

    scripts/bench_frame_gate.sh                 # small_home at 320x240, the node's defaults
    scripts/bench_frame_gate.sh --camera 640x480 --speed 0.5 --dwell 3

Prints frames rendered and admitted, admitted per minute of camera time, what got frames admitted (first
frame of a room, a changed view, an entity new to the room) and, for the refused ones, what the robot was
doing (standing, turning, driving) and how far they were from the room's last admitted frame.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

CAMERA_HZ = 30.0
GRAPH_EVERY = 30  # frames between scene graphs (1 Hz)
PATH_CELL_M = 0.1  # path planning grid
_LATTICES: dict = {}


def free_path(grid, start: tuple[float, float], goal: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    """Shortest path on the occupancy map between two poses, through cells where the base fits (A* over a
    ``PATH_CELL_M`` lattice, networkx); the straight line when the lattice does not connect them."""
    import networkx as nx

    x0, y0 = grid.origin_x, grid.origin_y
    cols = int(grid.data.shape[1] * grid.resolution / PATH_CELL_M)
    rows = int(grid.data.shape[0] * grid.resolution / PATH_CELL_M)

    def centre(cell):
        return x0 + (cell[1] + 0.5) * PATH_CELL_M, y0 + (cell[0] + 0.5) * PATH_CELL_M

    def nearest(p):
        return (min(max(int((p[1] - y0) / PATH_CELL_M), 0), rows - 1),
                min(max(int((p[0] - x0) / PATH_CELL_M), 0), cols - 1))

    key = (id(grid), radius)
    if key not in _LATTICES:  # (one map per tour: built once)
        lattice = nx.grid_2d_graph(rows, cols)
        lattice.remove_nodes_from([c for c in list(lattice) if not grid.disc_free(*centre(c), radius)])
        _LATTICES[key] = lattice
    free = _LATTICES[key].copy()
    a, b = nearest(start), nearest(goal)
    free.add_edges_from([(a, n) for n in _neighbours(a) if n in free])
    free.add_edges_from([(b, n) for n in _neighbours(b) if n in free])
    try:
        cells = nx.astar_path(free, a, b, heuristic=lambda u, v: math.dist(u, v))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return [start, goal]
    return _shortcut(grid, [start, *[centre(c) for c in cells[1:-1]], goal], radius)


def _shortcut(grid, path: list[tuple[float, float]], radius: float) -> list[tuple[float, float]]:
    """Straight segments instead of the lattice's zigzag: from each kept point, on to the farthest point
    the base can reach in a straight line (a robot drives so, and does not turn at every cell)."""
    def clear(p, q):
        n = max(1, math.ceil(math.dist(p, q) / (grid.resolution / 2)))
        return all(grid.disc_free(p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n, radius * 0.9)
                   for k in range(1, n))

    out, i = [path[0]], 0
    while i < len(path) - 1:
        j = len(path) - 1
        while j > i + 1 and not clear(path[i], path[j]):
            j -= 1
        out.append(path[j])
        i = j
    return out


def _neighbours(cell):
    r, c = cell
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def _angle_diff(a: float, b: float) -> float:
    return (b - a + math.pi) % (2 * math.pi) - math.pi


class Tour:
    """Drives the simulated robot and feeds each rendered frame through the node's ingestor."""

    def __init__(self, world, ingestor, speed: float, turn_rate: float, dwell_s: float) -> None:
        from memory_node.ros import conversions as conv

        self.world, self.ingestor, self.conv = world, ingestor, conv
        self.speed, self.turn_rate, self.dwell_s = speed, turn_rate, dwell_s
        self.t_ns = 1_700_000_000 * 10**9  # camera time
        self.frames = 0
        self.records: list[dict] = []  # per frame: phase, admitted, room, diff to the room's last admitted
        self._last_admitted: dict[str, tuple[list[float], frozenset[str]]] = {}
        self.render_s = 0.0

    def _frame(self, phase: str) -> None:
        from memory_node.perception.frames import thumbnail, to_bgr8

        world = self.world
        graph_now = self.frames % GRAPH_EVERY == 0
        t0 = time.perf_counter()
        frame = world.render(segmentation=graph_now)
        self.render_s += time.perf_counter() - t0
        if graph_now:  # what a perception node would report at 1 Hz: the room and the entities in view
            self.ingestor.scene_graph(self.conv.observation_to_msg(world.observe(self.t_ns, frame)))
        room = self.ingestor.current_room
        # for the report only (the decision is the ingestor's): what the gate compares, as it computes it
        in_room = frozenset(e.id for e in self.ingestor.store.entities(room=room) if e.id != room) \
            if room else frozenset()
        thumb = thumbnail(to_bgr8(frame.rgb, "rgb8"))
        before = self.ingestor.frames_admitted
        self.ingestor.image(self.conv.image_to_msg(frame.rgb, self.t_ns, frame.info.frame_id))
        admitted = self.ingestor.frames_admitted > before
        last = self._last_admitted.get(room)
        record = {"phase": phase, "admitted": admitted, "room": room, "diff": None, "new_entities": False}
        if last is not None:
            record["diff"] = sum(abs(a - b) for a, b in zip(last[0], thumb)) / len(thumb)
            record["new_entities"] = not in_room <= last[1]
        if admitted:
            self._last_admitted[room] = (thumb, in_room)
        self.records.append(record)
        self.frames += 1
        self.t_ns += int(1e9 / CAMERA_HZ)

    def _set(self, x: float, y: float, yaw: float) -> None:
        r = self.world.state.robot
        r.x, r.y, r.yaw = x, y, yaw
        self.world.move_base(x, y, yaw)

    def turn_to(self, yaw: float) -> None:
        r = self.world.state.robot
        delta = _angle_diff(r.yaw, yaw)
        steps = max(1, math.ceil(abs(delta) / (self.turn_rate / CAMERA_HZ)))
        start = r.yaw
        if abs(delta) < 1e-3:
            return
        for k in range(1, steps + 1):
            self._set(r.x, r.y, start + delta * k / steps)
            self._frame("turning")

    def drive(self, path: list[tuple[float, float]]) -> None:
        step_m = self.speed / CAMERA_HZ
        for (ax, ay), (bx, by) in zip(path, path[1:]):
            length = math.dist((ax, ay), (bx, by))
            if length < 1e-6:
                continue
            self.turn_to(math.atan2(by - ay, bx - ax))
            n = max(1, math.ceil(length / step_m))
            yaw = self.world.state.robot.yaw
            for k in range(1, n + 1):
                self._set(ax + (bx - ax) * k / n, ay + (by - ay) * k / n, yaw)
                self._frame("driving")

    def dwell(self) -> None:
        for _ in range(int(self.dwell_s * CAMERA_HZ)):
            self._frame("standing")

    def go(self, target: str) -> bool:
        """navigate_to ``target`` as the skill decides the pose, but driven there frame by frame."""
        from memory_node.sim.geometry import ROBOT_RADIUS_M

        r = self.world.state.robot
        start = (r.x, r.y, r.yaw)
        outcome = self.world.execute("navigate_to", [target])  # teleports: where the skill stands
        goal = (r.x, r.y, r.yaw)
        self._set(*start)
        if not outcome.success:
            return False
        self.drive(free_path(self.world.grid, start[:2], goal[:2], ROBOT_RADIUS_M))
        self.turn_to(goal[2])
        self._set(*goal)
        return True


def run(scene: str, camera: tuple[int, int], speed: float, turn_rate: float, dwell_s: float,
        threshold: float | None, out: Path) -> dict:
    from memory_node.ros.genesis_bridge import build_world
    from memory_node.ros.ingest import InputIngestor, open_store
    from memory_node.ros.node import PARAMETERS

    params = {name: default for name, (default, *_rest) in PARAMETERS.items()}
    if threshold is not None:
        params["frames.similarity_threshold"] = threshold
    store = open_store(out / "memory.db", params)
    ingestor = InputIngestor(store, params, now_ns=time.time_ns)
    t0 = time.perf_counter()
    world = build_world(scene, camera)
    build_s = time.perf_counter() - t0
    tour = Tour(world, ingestor, speed, turn_rate, dwell_s)
    t0 = time.perf_counter()
    state = world.state
    for room in sorted(state.rooms):
        if not tour.go(room):
            continue
        tour.dwell()
        for body in sorted(state.furniture(), key=lambda b: b.id):
            if body.room == room and body.parent is None and tour.go(body.id):
                tour.dwell()
    wall_s = time.perf_counter() - t0
    counts = store.counts()
    store.close()
    return {"scene": scene, "camera": camera, "records": tour.records, "frames_stored": counts["frames"],
            "build_s": build_s, "wall_s": wall_s, "render_s": tour.render_s,
            "threshold": params["frames.similarity_threshold"], "speed": speed, "turn_rate": turn_rate,
            "dwell_s": dwell_s}


def report(result: dict) -> list[str]:
    records = result["records"]
    n = len(records)
    admitted = [r for r in records if r["admitted"]]
    refused = [r for r in records if not r["admitted"]]
    minutes = n / CAMERA_HZ / 60
    lines = [f"frame gate on Genesis-rendered frames: {result['scene']} tour, {result['camera'][0]}x"
             f"{result['camera'][1]} head camera at {CAMERA_HZ:.0f} Hz, driving {result['speed']} m/s, turning "
             f"{math.degrees(result['turn_rate']):.0f} deg/s, {result['dwell_s']} s at each piece; gate threshold "
             f"{result['threshold']} (node default frames.similarity_threshold)",
             f"  camera time {n / CAMERA_HZ:.0f} s ({n} frames); admitted {len(admitted)} "
             f"({100 * len(admitted) / max(n, 1):.1f} %), {len(admitted) / max(minutes, 1e-9):.1f} per minute of "
             f"camera time; {result['frames_stored']} frame files in memory"]
    why = Counter("first frame of its room" if r["diff"] is None else
                  "the view changed (grey difference >= threshold)" if r["diff"] >= result["threshold"] else
                  "an entity new to the room since its last admitted frame" if r["new_entities"] else
                  "unexplained" for r in admitted)
    lines.append("  admitted because: " + "; ".join(f"{k} {v}" for k, v in why.most_common()))
    by_phase = Counter(r["phase"] for r in records)
    refused_phase = Counter(r["phase"] for r in refused)
    admitted_phase = Counter(r["phase"] for r in admitted)
    lines.append("  refused (a near duplicate of the room's last admitted frame, nothing new in the room): "
                 f"{len(refused)}")
    for phase in ("standing", "turning", "driving"):
        diffs = [r["diff"] for r in refused if r["phase"] == phase and r["diff"] is not None]
        median = f", median grey difference {statistics.median(diffs):.1f}" if diffs else ""
        lines.append(f"    {phase}: {refused_phase[phase]} of {by_phase[phase]} frames refused, "
                     f"{admitted_phase[phase]} admitted{median}")
    lines.append(f"  (wall: scene build {result['build_s']:.1f} s, tour {result['wall_s']:.0f} s of which "
                 f"rendering {result['render_s']:.0f} s)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scene", default="small_home")
    parser.add_argument("--camera", default="320x240", help="head camera resolution WxH")
    parser.add_argument("--speed", type=float, default=0.5, help="driving speed, m/s")
    parser.add_argument("--turn-rate", type=float, default=60.0, help="turning on the spot, deg/s")
    parser.add_argument("--dwell", type=float, default=2.0, help="seconds standing at each room and piece")
    parser.add_argument("--threshold", type=float, default=None,
                        help="frames.similarity_threshold (default: the node's)")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.camera.lower().split("x"))
    out = Path(tempfile.mkdtemp(prefix="memory_frame_gate_"))
    result = run(args.scene, (width, height), args.speed, math.radians(args.turn_rate), args.dwell,
                 args.threshold, out)
    print("\n".join(report(result)))
    print(f"  memory: {out / 'memory.db'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
