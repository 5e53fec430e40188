"""What perception needs to know about the camera: pinhole intrinsics (sensor_msgs/CameraInfo), the optical
frame's pose in the map frame, depth images in either ROS encoding, and one RGB-D frame bundling them.

Optical frame convention (REP 103): z forward, x right, y down. ``CameraPose.rotation`` turns optical-frame
vectors into map-frame vectors, so a point ``p_cam`` is ``rotation @ p_cam + position`` in the map.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memory_node.core.models import InvalidInput

Vector3 = Sequence[float] | np.ndarray  # three numbers: a tuple, a list or a numpy vector


@dataclass(frozen=True)
class CameraIntrinsics:
    """Pinhole intrinsics in pixels, as CameraInfo's K matrix holds them (distortion is not modelled: depth
    cameras and the simulator publish rectified images)."""

    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int

    def __post_init__(self) -> None:
        values = (self.fx, self.fy, self.cx, self.cy)
        if not all(math.isfinite(v) for v in values) or self.fx <= 0 or self.fy <= 0:
            raise InvalidInput(f"camera intrinsics need finite fx, fy > 0 (got fx={self.fx}, fy={self.fy}, "
                               f"cx={self.cx}, cy={self.cy})")
        if self.width <= 0 or self.height <= 0:
            raise InvalidInput(f"camera image size must be positive, got {self.width}x{self.height}")

    @classmethod
    def from_k(cls, k: Sequence[float], width: int, height: int) -> CameraIntrinsics:
        """From CameraInfo's row-major 3x3 ``k`` (9 numbers)."""
        if len(k) != 9:
            raise InvalidInput(f"CameraInfo K must have 9 values, got {len(k)}")
        return cls(fx=float(k[0]), fy=float(k[4]), cx=float(k[2]), cy=float(k[5]), width=int(width),
                   height=int(height))

    @classmethod
    def from_fov(cls, width: int, height: int, fov_y_deg: float) -> CameraIntrinsics:
        """Square pixels, principal point at the image centre, vertical field of view (as Genesis sets it)."""
        f = 0.5 * height / math.tan(math.radians(fov_y_deg) / 2.0)
        return cls(fx=f, fy=f, cx=(width - 1) / 2.0, cy=(height - 1) / 2.0, width=width, height=height)

    def matrix(self) -> np.ndarray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])


def _quaternion_matrix(x: float, y: float, z: float, w: float) -> np.ndarray:
    n = math.sqrt(x * x + y * y + z * z + w * w)
    if not math.isfinite(n) or n < 1e-9:
        raise InvalidInput(f"camera orientation quaternion ({x}, {y}, {z}, {w}) is not a rotation")
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


@dataclass(frozen=True)
class CameraPose:
    """The camera's optical frame in the map frame."""

    position: np.ndarray  # (3,) metres
    rotation: np.ndarray  # (3, 3) optical -> map

    def __post_init__(self) -> None:
        pos = np.asarray(self.position, dtype=np.float64).reshape(-1)
        rot = np.asarray(self.rotation, dtype=np.float64)
        if pos.shape != (3,) or rot.shape != (3, 3):
            raise InvalidInput(f"camera pose needs a 3-vector and a 3x3 rotation, got {pos.shape} and {rot.shape}")
        if not (np.isfinite(pos).all() and np.isfinite(rot).all()):
            raise InvalidInput("camera pose contains NaN or inf")
        if not np.allclose(rot @ rot.T, np.eye(3), atol=1e-4) or np.linalg.det(rot) < 0:
            raise InvalidInput("camera rotation is not a proper rotation matrix")
        object.__setattr__(self, "position", pos)
        object.__setattr__(self, "rotation", rot)

    @classmethod
    def from_quaternion(cls, position: Vector3, quaternion_xyzw: Sequence[float]) -> CameraPose:
        """From a geometry_msgs/Pose: position and orientation (x, y, z, w) of the optical frame."""
        if len(quaternion_xyzw) != 4:
            raise InvalidInput(f"quaternion needs 4 values (x, y, z, w), got {len(quaternion_xyzw)}")
        return cls(position=np.asarray(position, dtype=np.float64), rotation=_quaternion_matrix(*quaternion_xyzw))

    @classmethod
    def look_at(cls, eye: Vector3, target: Vector3, up: Vector3 = (0.0, 0.0, 1.0)) -> CameraPose:
        """A camera at ``eye`` looking at ``target`` with the map's ``up`` pointing up in the image."""
        eye_v = np.asarray(eye, dtype=np.float64)
        forward = np.asarray(target, dtype=np.float64) - eye_v
        if np.linalg.norm(forward) < 1e-9:
            raise InvalidInput("look_at: eye and target coincide")
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, np.asarray(up, dtype=np.float64))
        if np.linalg.norm(right) < 1e-9:
            raise InvalidInput("look_at: viewing direction is parallel to up")
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        return cls(position=eye_v, rotation=np.column_stack([right, down, forward]))

    def quaternion_xyzw(self) -> tuple[float, float, float, float]:
        """The rotation as a unit quaternion (x, y, z, w), w >= 0, for a geometry_msgs/Pose.

        Shepperd's method: the largest of the four components comes from the diagonal and the others from
        the off-diagonal sums divided by it. Taking the signs of x, y, z from ``m[2,1] - m[1,2]`` and the
        like alone (as this did before) loses them for a half turn, where those differences are all zero:
        a head camera facing one way in the simulator (18 of 99 tour frames of TestScene1) then went out
        with another orientation, and everything it saw was lifted metres away."""
        m = self.rotation
        trace = m[0, 0] + m[1, 1] + m[2, 2]
        if trace > max(m[0, 0], m[1, 1], m[2, 2]):
            r = 2.0 * math.sqrt(1.0 + trace)  # 4w
            q = ((m[2, 1] - m[1, 2]) / r, (m[0, 2] - m[2, 0]) / r, (m[1, 0] - m[0, 1]) / r, r / 4.0)
        elif m[0, 0] >= m[1, 1] and m[0, 0] >= m[2, 2]:
            r = 2.0 * math.sqrt(max(1.0 + m[0, 0] - m[1, 1] - m[2, 2], 0.0))  # 4x
            q = (r / 4.0, (m[0, 1] + m[1, 0]) / r, (m[0, 2] + m[2, 0]) / r, (m[2, 1] - m[1, 2]) / r)
        elif m[1, 1] >= m[2, 2]:
            r = 2.0 * math.sqrt(max(1.0 - m[0, 0] + m[1, 1] - m[2, 2], 0.0))  # 4y
            q = ((m[0, 1] + m[1, 0]) / r, r / 4.0, (m[1, 2] + m[2, 1]) / r, (m[0, 2] - m[2, 0]) / r)
        else:
            r = 2.0 * math.sqrt(max(1.0 - m[0, 0] - m[1, 1] + m[2, 2], 0.0))  # 4z
            q = ((m[0, 2] + m[2, 0]) / r, (m[1, 2] + m[2, 1]) / r, r / 4.0, (m[1, 0] - m[0, 1]) / r)
        n = math.sqrt(sum(v * v for v in q))
        sign = -1.0 if q[3] < 0 else 1.0  # q and -q are one rotation: w >= 0
        return tuple(sign * v / n for v in q)  # type: ignore[return-value]

    def then(self, child: CameraPose) -> CameraPose:
        """``child`` given in this pose's frame, in the map: a robot's pose then the camera's static
        extrinsic (the optical frame in the robot's base frame) gives the camera in the map."""
        return CameraPose(position=self.rotation @ child.position + self.position,
                          rotation=self.rotation @ child.rotation)

    def camera_to_map(self) -> np.ndarray:
        """4x4 homogeneous transform optical -> map."""
        t = np.eye(4)
        t[:3, :3] = self.rotation
        t[:3, 3] = self.position
        return t

    def map_to_camera(self) -> np.ndarray:
        """4x4 homogeneous transform map -> optical (open3d's ``extrinsic``)."""
        t = np.eye(4)
        t[:3, :3] = self.rotation.T
        t[:3, 3] = -self.rotation.T @ self.position
        return t


def depth_in_metres(depth: np.ndarray, encoding: str) -> np.ndarray:
    """A float32 depth image in metres with every invalid pixel (NaN, inf, 0, negative) set to NaN.

    ``32FC1`` is already metres (NaN/inf mark no return); ``16UC1`` (and ``mono16``) is millimetres with 0
    for no return, as OpenNI-style drivers publish it."""
    enc = encoding.strip().lower()
    if depth.ndim != 2:
        raise InvalidInput(f"depth image must be 2-D (HxW), got shape {depth.shape}")
    if enc == "32fc1":
        if depth.dtype != np.float32 and depth.dtype != np.float64:
            raise InvalidInput(f"depth encoding 32FC1 needs float data, got {depth.dtype}")
        metres = depth.astype(np.float32, copy=True)
    elif enc in ("16uc1", "mono16"):
        if depth.dtype != np.uint16:
            raise InvalidInput(f"depth encoding {encoding} needs uint16 data, got {depth.dtype}")
        metres = depth.astype(np.float32) * np.float32(0.001)
    else:
        raise InvalidInput(f"unsupported depth encoding {encoding!r}; supported: 32FC1 (m), 16UC1 (mm)")
    with np.errstate(invalid="ignore"):
        metres[~(np.isfinite(metres) & (metres > 0))] = np.nan
    return metres


@dataclass
class RgbdFrame:
    """One synchronised camera frame: what every detector and the lifting stage take.

    ``segmentation`` is only there when the source renders one (the simulator): an integer segment id per
    pixel, named by the segment table the source publishes with it."""

    rgb: np.ndarray  # HxWx3 uint8, RGB order
    depth_m: np.ndarray  # HxW float32 metres, NaN where invalid (see depth_in_metres)
    intrinsics: CameraIntrinsics
    pose: CameraPose
    stamp_ns: int
    segmentation: np.ndarray | None = None
    frame_id: str = ""

    def __post_init__(self) -> None:
        h, w = self.intrinsics.height, self.intrinsics.width
        if self.rgb.ndim != 3 or self.rgb.shape[2] != 3 or self.rgb.dtype != np.uint8:
            raise InvalidInput(f"RGB image must be HxWx3 uint8, got {self.rgb.shape} {self.rgb.dtype}")
        if self.rgb.shape[:2] != (h, w):
            raise InvalidInput(f"RGB image is {self.rgb.shape[1]}x{self.rgb.shape[0]} but the camera info says {w}x{h}")
        if self.depth_m.shape != (h, w):
            raise InvalidInput(f"depth image is {self.depth_m.shape[1]}x{self.depth_m.shape[0]} but the camera "
                               f"info says {w}x{h} (register depth to the colour camera first)")
        if self.depth_m.dtype != np.float32:
            raise InvalidInput(f"depth_m must be float32 metres (use depth_in_metres), got {self.depth_m.dtype}")
        if self.segmentation is not None and self.segmentation.shape != (h, w):
            raise InvalidInput(f"segmentation image is {self.segmentation.shape} but the camera info says {h}x{w}")
