"""Synthetic RGB-D frames of boxes with known geometry: ground truth for tests and the benchmark.

A pinhole ray caster in numpy: every pixel's ray is intersected with every box (slab method), the nearest
hit gives the depth (along the optical axis, as depth cameras report it), the segment id and a Lambert-shaded
colour. An object may be several boxes under one segment id (an open shelf: sides, back, boards), so
``in`` can be seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .boxes import Box3D
from .camera import CameraIntrinsics, CameraPose, RgbdFrame
from .segmentation_detector import Segment

# light from above and a little behind the camera: the top, the front and the sides of a box shade apart
_LIGHT = np.array([-0.3, -0.4, 1.0]) / np.linalg.norm([-0.3, -0.4, 1.0])


@dataclass(frozen=True)
class SyntheticObject:
    label: str
    color: tuple[float, float, float]  # sRGB 0-1
    parts: tuple[Box3D, ...]
    segment_id: int
    instance: str = ""

    @property
    def box(self) -> Box3D:
        """The ground-truth box: the union of the parts."""
        return Box3D(np.min([p.min for p in self.parts], axis=0), np.max([p.max for p in self.parts], axis=0))


def box_object(label: str, color: tuple[float, float, float], center: Sequence[float], size: Sequence[float],
               segment_id: int, instance: str = "") -> SyntheticObject:
    return SyntheticObject(label, color, (Box3D.from_center_size(np.asarray(center), np.asarray(size)),),
                           segment_id, instance or f"{label}_{segment_id}")


def open_shelf(label: str, color: tuple[float, float, float], center: Sequence[float], size: Sequence[float],
               segment_id: int, open_side: str = "-x", board: float = 0.02, instance: str = "") -> SyntheticObject:
    """A box-shaped container with one open side (``-x``/``+x``/``-y``/``+y``): bottom, top, back and two
    sides, all ``board`` thick."""
    c = np.asarray(center, dtype=float)
    s = np.asarray(size, dtype=float)
    lo, hi = c - s / 2, c + s / 2
    axis = {"x": 0, "y": 1}[open_side[1]]
    other = 1 - axis
    parts = []
    for z0, z1 in ((lo[2], lo[2] + board), (hi[2] - board, hi[2])):  # bottom and top boards
        parts.append(Box3D(np.array([lo[0], lo[1], z0]), np.array([hi[0], hi[1], z1])))
    for side in (0, 1):  # the two side walls
        a, b = lo.copy(), hi.copy()
        if side == 0:
            b[other] = lo[other] + board
        else:
            a[other] = hi[other] - board
        parts.append(Box3D(a, b))
    back_lo, back_hi = lo.copy(), hi.copy()  # the wall opposite the open side
    if open_side[0] == "-":
        back_lo[axis] = hi[axis] - board
    else:
        back_hi[axis] = lo[axis] + board
    parts.append(Box3D(back_lo, back_hi))
    return SyntheticObject(label, color, tuple(parts), segment_id, instance or f"{label}_{segment_id}")


@dataclass
class SyntheticScene:
    objects: list[SyntheticObject]
    floor_color: tuple[float, float, float] = (0.6, 0.6, 0.62)
    floor_segment: int = 0
    background_segment: int = -1
    labels: dict[int, Segment] = field(init=False)

    def __post_init__(self) -> None:
        self.labels = {o.segment_id: Segment(o.label, o.instance) for o in self.objects}
        self.labels[self.floor_segment] = Segment("floor")

    @staticmethod
    def _rays_towards(part: Box3D, k: CameraIntrinsics, pose: CameraPose) -> np.ndarray:
        """Flat indices of the pixels whose rays may hit ``part``: those inside its projected corners'
        rectangle (all pixels when a corner is behind the camera). Testing only these keeps a 640x480
        render of a dozen boxes in tens of milliseconds."""
        cam = (_corners(part) - pose.position) @ pose.rotation  # map -> optical
        if (cam[:, 2] <= 1e-6).any():
            return np.arange(k.width * k.height)
        u = k.fx * cam[:, 0] / cam[:, 2] + k.cx
        v = k.fy * cam[:, 1] / cam[:, 2] + k.cy
        u0, u1 = max(int(np.floor(u.min())), 0), min(int(np.ceil(u.max())) + 1, k.width)
        v0, v1 = max(int(np.floor(v.min())), 0), min(int(np.ceil(v.max())) + 1, k.height)
        if u0 >= u1 or v0 >= v1:
            return np.empty(0, dtype=np.int64)
        cols = np.arange(u0, u1)
        return (np.arange(v0, v1)[:, None] * k.width + cols[None, :]).reshape(-1)

    def render(self, intrinsics: CameraIntrinsics, pose: CameraPose, stamp_ns: int = 0, *,
               depth_noise: float = 0.0, color_noise: float = 0.0, seed: int | None = None) -> RgbdFrame:
        """An RGB-D frame with segmentation. ``depth_noise`` is the standard deviation of Gaussian depth
        noise at 1 m (growing with depth squared, as structured-light and stereo error does); ``color_noise``
        in 8-bit levels."""
        k = intrinsics
        u, v = np.meshgrid(np.arange(k.width, dtype=np.float64), np.arange(k.height, dtype=np.float64))
        rays_cam = np.stack([(u - k.cx) / k.fx, (v - k.cy) / k.fy, np.ones_like(u)], axis=-1).reshape(-1, 3)
        dirs = rays_cam @ pose.rotation.T  # map frame, scaled so the optical-axis component is 1
        origin = pose.position
        n = dirs.shape[0]
        depth = np.full(n, np.inf)
        seg = np.full(n, self.background_segment, dtype=np.int32)
        color = np.zeros((n, 3))
        normal_idx = np.zeros(n, dtype=np.int64)
        normal_sign = np.zeros(n)
        with np.errstate(divide="ignore", invalid="ignore"):
            inv = 1.0 / dirs
            # the floor plane z = 0
            t_floor = -origin[2] * inv[:, 2]
            hit = np.isfinite(t_floor) & (t_floor > 0) & (t_floor < depth)
            depth[hit], seg[hit] = t_floor[hit], self.floor_segment
            color[hit], normal_idx[hit], normal_sign[hit] = self.floor_color, 2, 1.0
            for obj in self.objects:
                for part in obj.parts:
                    rays = self._rays_towards(part, intrinsics, pose)
                    if rays.size == 0:
                        continue
                    t1 = (part.min - origin) * inv[rays]
                    t2 = (part.max - origin) * inv[rays]
                    tmin, tmax = np.minimum(t1, t2), np.maximum(t1, t2)
                    tmin = np.where(np.isnan(tmin), -np.inf, tmin)  # a ray parallel to a slab inside it
                    tmax = np.where(np.isnan(tmax), np.inf, tmax)
                    t_near, t_far = tmin.max(axis=1), tmax.min(axis=1)
                    hit_local = (t_near <= t_far) & (t_near > 0) & (t_near < depth[rays])
                    hit = rays[hit_local]
                    depth[hit], seg[hit] = t_near[hit_local], obj.segment_id
                    color[hit] = obj.color
                    axis = tmin[hit_local].argmax(axis=1)
                    normal_idx[hit] = axis
                    # the face hit faces the camera: its normal is against the ray
                    normal_sign[hit] = -np.sign(dirs[hit, axis])
        shade = 0.55 + 0.45 * np.clip(normal_sign * _LIGHT[normal_idx], 0.0, 1.0)
        rgb = color * shade[:, None] * 255.0
        rng = np.random.default_rng(seed)
        if color_noise > 0:
            rgb = rgb + rng.normal(0.0, color_noise, rgb.shape)
        depth_m = depth.astype(np.float32)
        if depth_noise > 0:
            finite = np.isfinite(depth_m)
            z = depth_m[finite]
            depth_m[finite] = z + rng.normal(0.0, depth_noise, z.shape).astype(np.float32) * z * z
        depth_m[~np.isfinite(depth_m)] = np.nan
        return RgbdFrame(rgb=np.clip(rgb, 0, 255).astype(np.uint8).reshape(k.height, k.width, 3),
                         depth_m=depth_m.reshape(k.height, k.width), intrinsics=intrinsics, pose=pose,
                         stamp_ns=stamp_ns, segmentation=seg.reshape(k.height, k.width))


def _corners(box: Box3D) -> np.ndarray:
    return np.array([[x, y, z] for x in (box.min[0], box.max[0]) for y in (box.min[1], box.max[1])
                     for z in (box.min[2], box.max[2])])


BROWN = (0.50, 0.32, 0.18)
BLUE = (0.15, 0.30, 0.85)
RED = (0.80, 0.10, 0.10)
YELLOW = (0.95, 0.85, 0.15)
WHITE = (0.93, 0.93, 0.93)
GREEN = (0.20, 0.65, 0.20)


def kitchen_scene() -> SyntheticScene:
    """A table with a mug and a plate on it, an open shelf with a box inside, an apple on the floor.

    Colours are palette colours; sizes and places are ground truth for the tests and the benchmark."""
    return SyntheticScene([
        box_object("table", BROWN, (2.2, 0.0, 0.375), (0.8, 1.2, 0.75), 1),
        box_object("mug", BLUE, (2.0, 0.2, 0.80), (0.08, 0.08, 0.10), 2),
        box_object("plate", WHITE, (2.1, -0.25, 0.76), (0.24, 0.24, 0.02), 3),
        open_shelf("cabinet", GREEN, (2.2, 1.3, 0.45), (0.5, 0.6, 0.9), 4, open_side="-x"),
        box_object("box", RED, (2.25, 1.3, 0.12), (0.2, 0.2, 0.2), 5),
        box_object("banana", YELLOW, (1.5, -0.3, 0.03), (0.18, 0.06, 0.06), 6),
    ])


def head_camera(width: int = 640, height: int = 480, eye: Sequence[float] = (0.4, -0.5, 1.5),
                target: Sequence[float] = (2.0, 0.4, 0.5)) -> tuple[CameraIntrinsics, CameraPose]:
    """A head camera 1.5 m up looking down at the scene (60 degree vertical field of view, like the
    simulator's)."""
    return CameraIntrinsics.from_fov(width, height, 60.0), CameraPose.look_at(eye, target)
