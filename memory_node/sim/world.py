"""``SimWorld``: a scene file built in Genesis with a robot (the Dexmate Vega, or the Unitree G1 where its
model is installed: ``robot_bodies.py``), its head camera and its skills.

Settings follow what was measured to work on the 2-core CPU machines (DESIGN.md section 4): CPU backend,
one fixed box per piece of furniture, containers as small articulated URDFs, hibernation on, shadows off,
no ``performance_mode`` (it recompiles per scene size). The robot's base is fixed and teleported by
``navigate_to`` (the research grades plans, not driving) and its collision geometry is off: it never
pushes anything, and the cold build skips decomposing its meshes (~80 s here). Small objects are
kinematic (see ``state.py``).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from memory_node.core.models import Point, Pose, SceneGraphObservation
from memory_node.perception.camera import CameraPose
from memory_node.sim.colors import rgb
from memory_node.sim.containers import DOOR_JOINT, DOOR_LIMIT, front_yaw, local_size, write_container_urdf
from memory_node.sim.geometry import OccupancyGrid, occupancy_grid, yaw_to_quat
from memory_node.sim.perception import scene_graph
from memory_node.sim.robot_bodies import BODIES, VEGA
from memory_node.sim.scene_spec import SceneSpec, load_scene_spec
from memory_node.sim.skills import OPEN_ANGLE, SkillExecutor, SkillOutcome
from memory_node.sim.state import WorldState

CAMERA_FRAME = "head_camera"
CAMERA_LINK = VEGA.camera_link
CAMERA_PITCH = -0.35  # rad: looking down at table tops from 1.6 m
HOLD_POSE = VEGA.hold_pose
HAND_LINKS = VEGA.hand_links
BASE_Z = VEGA.base_z  # the base origin stands this high: the wheels reach below it
SETTLE_STEPS = 10
_init_lock = threading.Lock()


@dataclass(frozen=True)
class CameraInfo:
    """Pinhole intrinsics of the head camera, what sensor_msgs/CameraInfo carries."""

    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int
    frame_id: str = CAMERA_FRAME


@dataclass(frozen=True)
class Frame:
    rgb: np.ndarray  # uint8 HxWx3
    depth: np.ndarray  # float32 HxW metres along the optical axis; inf where nothing is in range
    info: CameraInfo
    segmentation: np.ndarray | None = None  # int segment index per pixel (named by SimWorld.segment_table)
    camera_pose: CameraPose | None = None  # the optical frame in the map (REP 103 axes) when rendered


def genesis() -> Any:
    """Import Genesis and initialize it once per process on the CPU (``gs.init`` twice raises)."""
    import genesis as gs

    with _init_lock:
        if not getattr(gs, "_initialized", False):
            gs.init(backend=gs.cpu, logging_level=os.environ.get("MEMORY_NODE_SIM_LOG", "error"))
    return gs


def urdf_cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "memory_node" / "sim_urdf"


class SimWorld:
    """The simulated home: build once, then render, observe and execute skills.

    Not thread-safe: Genesis scenes are driven from one thread (the bridge calls it from one executor).
    """

    def __init__(self, spec: SceneSpec | str | Path, *, camera_res: tuple[int, int] = (320, 240),
                 camera_fov: float = 60.0, perceive_locks: bool = False, min_pixels: int = 6,
                 robot: str = "vega") -> None:
        if robot not in BODIES:
            raise ValueError(f"no simulated body for robot {robot!r}; simulated: {', '.join(BODIES)}")
        self.body = BODIES[robot]
        self.robot_name = robot
        self.spec = spec if isinstance(spec, SceneSpec) else load_scene_spec(spec)
        self.state = WorldState(self.spec)
        self.grid = occupancy_grid(self.spec)
        self.perceive_locks = perceive_locks
        self.min_pixels = min_pixels
        self._grids: dict[float, OccupancyGrid] = {0.05: self.grid}
        t0 = time.perf_counter()
        gs = genesis()
        self.gs = gs
        self.scene = gs.Scene(
            sim_options=gs.options.SimOptions(dt=0.01),
            rigid_options=gs.options.RigidOptions(use_hibernation=True),
            vis_options=gs.options.VisOptions(shadow=False, segmentation_level="entity"),
            show_viewer=False)
        self._entities: dict[str, Any] = {}
        self._add_structure()
        self._add_bodies()
        self.robot = self._add_robot()
        self.camera = self.scene.add_camera(res=camera_res, fov=camera_fov, near=0.05, far=20.0, GUI=False)
        t1 = time.perf_counter()
        self.scene.build()
        self.build_seconds = time.perf_counter() - t0
        self.compile_seconds = time.perf_counter() - t1
        self._by_index = {ent.idx: eid for eid, ent in self._entities.items()}
        self._init_robot()
        for body in self.state.furniture():
            if body.container is not None and body.container.openable:
                self._hold_door(body.id, 0.0 if body.container.closed else OPEN_ANGLE)
        self.skills = SkillExecutor(self.state, self.grid, actuator=self, robot=robot)
        self.settle()

    # ---- building ------------------------------------------------------------------------------------

    def _add_structure(self) -> None:
        gs = self.gs
        self.scene.add_entity(gs.morphs.Plane(), surface=gs.surfaces.Default(color=rgb("grey")))
        for w in self.spec.walls:
            (ax, ay), (bx, by) = w.start, w.end
            length = math.dist((ax, ay), (bx, by)) + w.thickness
            yaw = math.atan2(by - ay, bx - ax)
            self.scene.add_entity(
                gs.morphs.Box(pos=((ax + bx) / 2, (ay + by) / 2, w.height / 2), size=(length, w.thickness, w.height),
                              quat=yaw_to_quat(yaw), fixed=True),
                surface=gs.surfaces.Default(color=rgb("beige")))

    def _add_bodies(self) -> None:
        gs = self.gs
        urdf_dir = urdf_cache_dir() / self.spec.name
        for body in self.state.bodies.values():
            surface = gs.surfaces.Default(color=rgb(body.color))
            if body.container is not None:
                size = local_size(body.size, body.front)
                path = write_container_urdf(urdf_dir, body.id, size, body.container.openable, rgb(body.color))
                morph = gs.morphs.URDF(file=str(path), pos=tuple(body.center), quat=yaw_to_quat(front_yaw(body.front)),
                                       fixed=True, merge_fixed_links=True)
            else:
                morph = gs.morphs.Box(pos=tuple(body.center), size=body.size, fixed=True)
            self._entities[body.id] = self.scene.add_entity(morph, surface=surface, name=_genesis_name(body.id))

    def _add_robot(self) -> Any:
        r = self.state.robot
        morph = self.body.morph(self.gs, (r.x, r.y), yaw_to_quat(r.yaw), urdf_cache_dir() / "robots")
        return self.scene.add_entity(morph, name=self.body.name)

    def _init_robot(self) -> None:
        n = self.robot.n_dofs
        q = np.zeros(n)
        for joint, value in self.body.hold_pose.items():
            q[self.robot.get_joint(joint).dofs_idx_local[0]] = value
        self._hold_q = q
        self.robot.set_dofs_position(q)
        # stiff PD on every joint: the pose stays put under gravity while the base is teleported
        self.robot.set_dofs_kp(np.full(n, 4000.0))
        self.robot.set_dofs_kv(np.full(n, 200.0))
        self.robot.control_dofs_position(q)

    def _hold_door(self, container_id: str, angle: float) -> None:
        ent = self._entities[container_id]
        dofs = ent.get_joint(DOOR_JOINT).dofs_idx_local
        ent.set_dofs_kp(np.array([500.0]), dofs)
        ent.set_dofs_kv(np.array([50.0]), dofs)
        ent.set_dofs_position(np.array([angle]), dofs)
        ent.control_dofs_position(np.array([angle]), dofs)

    def reset(self) -> None:
        """Back to the scene file's initial state without rebuilding (a rebuild costs seconds): tests and
        scenario runs start from the same home."""
        self.state = WorldState(self.spec)
        self.skills = SkillExecutor(self.state, self.grid, actuator=self, robot=self.robot_name)
        for body in self.state.bodies.values():
            if body.kind == "object":
                self.move_object(body.id, body.center)
            elif body.container is not None and body.container.openable:
                self._hold_door(body.id, 0.0 if body.container.closed else OPEN_ANGLE)
        r = self.state.robot
        self.move_base(r.x, r.y, r.yaw)
        self.settle()

    # ---- changes made by people (scenario events, not robot skills) ---------------------------------------

    def relocate(self, object_id: str, to: str, relation: str = "on") -> tuple[float, float, float]:
        """A person moves ``object_id`` ``relation`` (on | in) furniture ``to``, onto a free spot (out of the
        robot's hand if it held it). ValueError with the reason when it cannot be done."""
        obj, holder = self.state.bodies.get(object_id), self.state.bodies.get(to)
        if obj is None or obj.kind != "object":
            raise ValueError(f"{object_id} is not a small object of this scene")
        if holder is None or holder.kind != "furniture":
            raise ValueError(f"{to} is not furniture of this scene")
        if relation not in ("on", "in") or (relation == "in" and holder.container is None):
            raise ValueError(f"cannot put {object_id} {relation} {to}: only on furniture or in a container")
        spot = self.state.spot_for(obj, holder, relation, (holder.center[0], holder.center[1]))
        if spot is None:
            raise ValueError(f"no free spot {relation} {to} for {object_id}")
        hand = self.state.hand_of(object_id)
        if hand is not None:
            del self.state.robot.held[hand]
        obj.parent, obj.relation, obj.center = to, relation, list(spot)
        obj.room = self.state.outermost(to).room
        self.move_object(object_id, spot)
        self.settle()
        return spot

    def set_container(self, container_id: str, *, closed: bool | None = None, locked: bool | None = None) -> None:
        """A person opens, closes, locks or unlocks a container (locking closes it)."""
        body = self.state.bodies.get(container_id)
        if body is None or body.container is None or not body.container.openable:
            raise ValueError(f"{container_id} is not a container that opens")
        c = body.container
        if locked is not None:
            c.locked = locked
            if locked:
                c.closed = True
        if closed is not None:
            if not closed and c.locked:
                raise ValueError(f"{container_id} is locked; unlock it before opening")
            c.closed = closed
        self._hold_door(container_id, 0.0 if c.closed else OPEN_ANGLE)
        self.settle()

    # ---- actuator (what skills make the body do) -----------------------------------------------------

    def move_base(self, x: float, y: float, yaw: float) -> None:
        self.robot.set_pos(np.array([x, y, self.body.base_z]))
        self.robot.set_quat(np.array(yaw_to_quat(yaw)))
        self.robot.set_dofs_position(self._hold_q)

    def move_object(self, obj_id: str, center: Sequence[float]) -> None:
        self._entities[obj_id].set_pos(np.asarray(center, dtype=float))

    def set_door(self, container_id: str, open_: bool) -> None:
        self._hold_door(container_id, min(OPEN_ANGLE, DOOR_LIMIT) if open_ else 0.0)

    def hand_position(self, hand: str) -> tuple[float, float, float]:
        p = self.robot.get_link(self.body.hand_links[hand]).get_pos().cpu().numpy().reshape(-1)
        return (float(p[0]), float(p[1]), float(p[2]) - 0.08)  # in the gripper, below the wrist link

    def settle(self, steps: int = SETTLE_STEPS) -> None:
        for _ in range(steps):
            self.scene.step()

    def step(self, steps: int = 1) -> None:
        self.settle(steps)

    # ---- public API ----------------------------------------------------------------------------------

    def execute(self, skill: str, args: Sequence[str], focus: str = "",
                approach: tuple[float, float, float] | None = None) -> SkillOutcome:
        t = time.perf_counter()
        outcome = self.skills.execute(skill, args, focus=focus, approach=approach)
        return replace(outcome, duration_s=time.perf_counter() - t)

    def robot_pose(self) -> Pose:
        r = self.state.robot
        return Pose(position=Point(x=r.x, y=r.y, z=0.0), yaw=r.yaw, frame_id="map")

    def occupancy_grid(self, resolution: float = 0.05) -> OccupancyGrid:
        if resolution not in self._grids:
            self._grids[resolution] = occupancy_grid(self.spec, resolution)
        return self._grids[resolution]

    def camera_info(self) -> CameraInfo:
        w, h = self.camera.res
        f = float(self.camera.f)
        return CameraInfo(fx=f, fy=f, cx=float(self.camera.cx), cy=float(self.camera.cy), width=int(w), height=int(h))

    def render(self, segmentation: bool = False) -> Frame:
        """Head camera image: RGB, depth in metres (inf beyond the far plane) and intrinsics."""
        pose = self._aim_camera()
        color, depth, seg, _ = self.camera.render(rgb=True, depth=True, segmentation=segmentation)
        depth = np.asarray(depth, dtype=np.float32).copy()
        depth[depth >= 0.999 * self.camera.far] = np.inf
        return Frame(rgb=np.ascontiguousarray(color, dtype=np.uint8), depth=depth, info=self.camera_info(),
                     segmentation=None if seg is None else np.asarray(seg), camera_pose=pose)

    def segment_table(self) -> dict[int, dict[str, str]]:
        """What each segmentation index stands for: the body's label and, as its instance key, its id.
        Walls, floor and the robot are left out (perception ignores segments it cannot name)."""
        out: dict[int, dict[str, str]] = {}
        for i, ent_idx in self.scene.segmentation_idx_dict.items():
            if isinstance(ent_idx, tuple):
                ent_idx = ent_idx[0]
            body_id = self._by_index.get(ent_idx)
            if body_id is not None and isinstance(i, (int, np.integer)):
                out[int(i)] = {"label": self.state.bodies[body_id].label, "instance": body_id}
        return out

    def visible_ids(self, frame: Frame | None = None) -> set[str]:
        """Entities covering at least ``min_pixels`` of the head camera's segmentation."""
        if frame is None or frame.segmentation is None:
            frame = self.render(segmentation=True)
        assert frame.segmentation is not None
        idx, counts = np.unique(frame.segmentation, return_counts=True)
        lookup = self.scene.segmentation_idx_dict
        out = set()
        for i, c in zip(idx.tolist(), counts.tolist()):
            ent_idx = lookup.get(i, -1)
            if isinstance(ent_idx, tuple):
                ent_idx = ent_idx[0]
            if c >= self.min_pixels and ent_idx in self._by_index:
                out.add(self._by_index[ent_idx])
        return out

    def observe(self, stamp_ns: int, frame: Frame | None = None) -> SceneGraphObservation:
        """What the head camera sees now. Never ``complete``: one view of a room misses most of it, and a
        complete graph would make memory retire everything outside the view."""
        return scene_graph(self.state, self.visible_ids(frame), stamp_ns, perceive_locks=self.perceive_locks)

    def observe_room(self, stamp_ns: int, views: int = 8) -> SceneGraphObservation:
        """Turn on the spot and look all around. ``complete`` only when the sweep saw every thing of the room
        that can be seen and no closed container in it holds anything: otherwise memory would retire what
        it rightly remembers behind a door or out of sight."""
        r = self.state.robot
        yaw0, seen = r.yaw, set()
        for k in range(views):
            r.yaw = yaw0 + 2 * math.pi * k / views
            self.move_base(r.x, r.y, r.yaw)
            self.scene.step()
            seen |= self.visible_ids()
        r.yaw = yaw0
        self.move_base(r.x, r.y, yaw0)
        self.scene.step()
        room = self.state.robot_room()
        visible_here = {b.id for b in self.state.bodies.values()
                        if self.state.outermost(b.id).room == room and b.relation != "held_by"
                        and self.state.enclosing_closed(b.id) is None}
        hidden_here = any(self.state.enclosing_closed(b.id) is not None for b in self.state.bodies.values()
                          if self.state.outermost(b.id).room == room)
        complete = bool(room) and visible_here <= seen and not hidden_here
        return scene_graph(self.state, seen, stamp_ns, perceive_locks=self.perceive_locks, complete=complete)

    def state_snapshot(self) -> dict[str, Any]:
        """Ground truth for grading, with positions read back from the simulator."""
        snap = self.state.snapshot()
        for eid, ent in self._entities.items():
            if self.state.bodies[eid].kind == "object":
                snap["entities"][eid]["sim_position"] = [round(float(v), 4) for v in
                                                         ent.get_pos().cpu().numpy().reshape(-1)]
        return snap

    def door_angle(self, container_id: str) -> float:
        ent = self._entities[container_id]
        dofs = ent.get_joint(DOOR_JOINT).dofs_idx_local
        return float(ent.get_dofs_position(dofs).cpu().numpy().reshape(-1)[0])

    def entity_position(self, entity_id: str) -> tuple[float, float, float]:
        p = self._entities[entity_id].get_pos().cpu().numpy().reshape(-1)
        return (float(p[0]), float(p[1]), float(p[2]))

    # ---- camera --------------------------------------------------------------------------------------

    def _aim_camera(self) -> CameraPose:
        r = self.state.robot
        link = self.robot.get_link(self.body.camera_link)
        eye = link.get_pos().cpu().numpy().reshape(-1).astype(float)
        if any(self.body.camera_offset):
            w, x, y, z = (float(v) for v in link.get_quat().cpu().numpy().reshape(-1))
            rot = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
            eye = eye + rot @ np.asarray(self.body.camera_offset)
        d = np.array([math.cos(r.yaw) * math.cos(CAMERA_PITCH), math.sin(r.yaw) * math.cos(CAMERA_PITCH),
                      math.sin(CAMERA_PITCH)])
        # up=(0, 0, 1) always: Genesis' default up for set_pose is not z
        self.camera.set_pose(pos=eye + 0.05 * d, lookat=eye + d, up=(0.0, 0.0, 1.0))
        return CameraPose.look_at(eye + 0.05 * d, eye + d)


def _genesis_name(entity_id: str) -> str:
    """Genesis entity names must be unique identifiers; our ids may hold . : / -"""
    return "e_" + "".join(c if c.isalnum() else "_" for c in entity_id)
