"""Pointing the Vega's head camera at a point: pan and tilt from the robot's own URDF.

dexcontrol moves the head in joint space only (``head_j1`` neck pitch about y, ``head_j2`` pan about z,
``head_j3`` tilt about -y, per ``dexmate-urdf``, whose joint names are dexcontrol's). ``look_at`` needs the
inverse: which pan and tilt make the head camera's optical axis pass through a target. The chain from the
base to the camera depends on the torso's joints too (the head rides on the torso), so the forward
kinematics are read from the URDF (revolute and fixed joints: origin, axis) and the two angles solved by
Gauss-Newton on the target's angles off the optical axis, starting from the direct pan/tilt guess. The
neck pitch is held where it is. The camera link's optical axis is its +z (ROS optical frame convention,
which the URDF's camera mounts follow).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PAN, TILT = "head_j2", "head_j3"


def _rpy(r: float, p: float, y: float) -> np.ndarray:
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def _axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    x, y, z = axis / np.linalg.norm(axis)
    c, s, t = math.cos(angle), math.sin(angle), 1.0 - math.cos(angle)
    return np.array([[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                     [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                     [t * x * z - s * y, t * y * z + s * x, t * z * z + c]])


@dataclass(frozen=True)
class _Joint:
    name: str
    moving: bool
    origin: np.ndarray  # 4x4
    axis: np.ndarray


@dataclass(frozen=True)
class Aim:
    pan: float
    tilt: float
    off_axis: float  # rad between the optical axis and the target, at the solved angles (after limits)
    within_limits: bool


class HeadKinematics:
    """The base -> head camera chain of a Vega URDF."""

    def __init__(self, chain: list[_Joint]) -> None:
        self.chain = chain
        names = [j.name for j in chain if j.moving]
        if PAN not in names or TILT not in names:
            raise ValueError(f"the chain to the head camera has no {PAN}/{TILT} (joints: {', '.join(names)})")

    @classmethod
    def from_urdf(cls, path: str | Path, camera: str = "zed_left_camera", root: str = "base") -> HeadKinematics:
        tree = ET.parse(str(path)).getroot()
        by_child = {j.find("child").get("link"): j for j in tree.findall("joint")}
        chain: list[_Joint] = []
        link = camera
        while link != root:
            if link not in by_child:
                raise ValueError(f"{path}: no joint chain from {root} to {camera} (stuck at {link})")
            j = by_child[link]
            kind = j.get("type")
            if kind not in ("revolute", "continuous", "fixed"):
                raise ValueError(f"{path}: joint {j.get('name')} is {kind}; only revolute and fixed joints are read")
            o = j.find("origin")
            xyz = [float(v) for v in (o.get("xyz", "0 0 0") if o is not None else "0 0 0").split()]
            rpy = [float(v) for v in (o.get("rpy", "0 0 0") if o is not None else "0 0 0").split()]
            origin = np.eye(4)
            origin[:3, :3], origin[:3, 3] = _rpy(*rpy), xyz
            a = j.find("axis")
            axis = np.array([float(v) for v in (a.get("xyz") if a is not None else "1 0 0").split()])
            chain.append(_Joint(j.get("name"), kind != "fixed", origin, axis))
            link = j.find("parent").get("link")
        return cls(chain[::-1])

    @property
    def joints(self) -> list[str]:
        return [j.name for j in self.chain if j.moving]

    def camera(self, q: dict[str, float]) -> np.ndarray:
        """Base -> camera link transform for joint values ``q`` (joints not given are at 0)."""
        t = np.eye(4)
        for j in self.chain:
            t = t @ j.origin
            if j.moving:
                rot = np.eye(4)
                rot[:3, :3] = _axis_angle(j.axis, float(q.get(j.name, 0.0)))
                t = t @ rot
        return t

    def _direction(self, q: dict[str, float], target: np.ndarray) -> np.ndarray:
        """The target's direction in the camera frame (optical: x right, y down, z along the axis)."""
        t = self.camera(q)
        d = t[:3, :3].T @ (target - t[:3, 3])
        return d / max(np.linalg.norm(d), 1e-9)

    def _error(self, q: dict[str, float], target: np.ndarray) -> np.ndarray:
        """Horizontal and vertical angles of the target off the optical axis: zero only in front of the
        camera (a target straight behind it is pi off, not aligned)."""
        d = self._direction(q, target)
        return np.array([math.atan2(d[0], d[2]), math.atan2(d[1], math.hypot(d[0], d[2]))])

    def off_axis(self, q: dict[str, float], target: np.ndarray) -> float:
        d = self._direction(q, target)
        return math.acos(max(-1.0, min(1.0, float(d[2]))))

    def aim(self, target: np.ndarray, q: dict[str, float],
            limits: dict[str, tuple[float, float]] | None = None) -> Aim:
        """Pan and tilt that put ``target`` (base frame) on the optical axis, the other joints at ``q``;
        clipped to ``limits`` (joint -> (low, high)), with what is left of the error after clipping."""
        target = np.asarray(target, dtype=float)
        q = dict(q)
        # direct guess: the target's bearing and elevation from the pan joint
        upto = {name: q.get(name, 0.0) for name in self.joints}
        upto[PAN] = upto[TILT] = 0.0
        v = self._direction(upto, target)
        q[PAN] = math.atan2(-v[0], v[2])  # pan about the head's up axis: a target on the left turns it left
        q[TILT] = math.atan2(-v[1], math.hypot(v[0], v[2]))  # tilt about -y: up is positive
        for _ in range(30):
            r = self._error(q, target)
            if float(np.linalg.norm(r)) < 1e-7:
                break
            jac = np.zeros((2, 2))
            for col, name in enumerate((PAN, TILT)):
                dq = dict(q)
                dq[name] += 1e-6
                jac[:, col] = (self._error(dq, target) - r) / 1e-6
            step = np.linalg.lstsq(jac, -r, rcond=None)[0]
            q[PAN] += float(np.clip(step[0], -0.5, 0.5))
            q[TILT] += float(np.clip(step[1], -0.5, 0.5))
        pan, tilt = math.atan2(math.sin(q[PAN]), math.cos(q[PAN])), q[TILT]
        inside = True
        if limits:
            for name in (PAN, TILT):
                low, high = limits.get(name, (-math.inf, math.inf))
                value = pan if name == PAN else tilt
                if not low <= value <= high:
                    inside = False
                clipped = min(max(value, low), high)
                pan, tilt = (clipped, tilt) if name == PAN else (pan, clipped)
        q[PAN], q[TILT] = pan, tilt
        return Aim(pan, tilt, self.off_axis(q, target), inside)


def map_to_base(point: tuple[float, float, float], pose: tuple[float, float, float], base_height: float) -> np.ndarray:
    """A map-frame point in the base frame of a robot at ``pose`` (x, y, yaw), base ``base_height`` m above
    the map's floor."""
    x, y, yaw = pose
    dx, dy = point[0] - x, point[1] - y
    return np.array([math.cos(yaw) * dx + math.sin(yaw) * dy, -math.sin(yaw) * dx + math.cos(yaw) * dy,
                     point[2] - base_height])


__all__ = ["Aim", "HeadKinematics", "map_to_base"]
