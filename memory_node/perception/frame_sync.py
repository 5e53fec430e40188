"""Putting camera streams together into frames, and keeping only the newest frame for a slow consumer.

``FrameAssembler`` collects the parts of a frame as they arrive on their own topics (colour, depth, an
optional segmentation image, camera poses, intrinsics) and returns an ``RgbdFrame`` once a colour image has
depth (and segmentation) stamped within ``sync_tolerance_ns`` of it and a camera pose within
``pose_tolerance_ns``. Registered RGB-D drivers and the simulator stamp colour and depth alike; cameras
whose colour and depth are separate streams stamp them apart (30 ms is common), so the default tolerance
(``sync_tolerance_ns`` 0) is an approximate-time policy fitted to the camera's rate: half the median period
of the colour images, at least 20 ms and at most 100 ms (50 ms until two images came). Poses come at their
own rate, so the nearest one is taken. A colour image that never completes (its depth was lost on
a best-effort topic) is dropped once a newer frame completes or when more than ``history`` wait.

"Nearest" is only decided once nothing nearer can still come: a part stamped exactly with the image, or one
stamped at or after it, or a newer colour image waiting (the stream has moved on). Parts of one frame arrive
on separate topics in any order, and a subscriber's callbacks run in their own order: an image taken
before its own pose must not be completed with the previous frame's pose, which is within the tolerance
whenever frames come faster than it (a turning robot's views 60-80 ms apart were lifted with the view
before's pose, 45 degrees off: objects metres away from where they were).

``LatestFrame`` is a one-frame mailbox between the callbacks and the worker that runs perception: a new
frame replaces one still waiting, which is counted as dropped. Perception then always works on the newest
frame and never falls behind the camera; how many frames it skipped is in the counts.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass

import numpy as np

from memory_node.core.models import InvalidInput

from .camera import CameraIntrinsics, CameraPose, RgbdFrame


@dataclass
class _Part:
    stamp_ns: int
    data: np.ndarray
    frame_id: str = ""


class FrameAssembler:
    AUTO_MIN_NS, AUTO_MAX_NS, AUTO_FIRST_NS = 20_000_000, 100_000_000, 50_000_000

    def __init__(self, *, needs_segmentation: bool = False, sync_tolerance_ns: int = 0,
                 pose_tolerance_ns: int = 100_000_000, history: int = 8) -> None:
        if sync_tolerance_ns < 0 or pose_tolerance_ns < 0 or history < 1:
            raise InvalidInput("frame assembly tolerances must be >= 0 and history >= 1")
        self.needs_segmentation = needs_segmentation
        self.sync_tolerance_ns = sync_tolerance_ns
        self.pose_tolerance_ns = pose_tolerance_ns
        self.history = history
        self.intrinsics: CameraIntrinsics | None = None
        self._rgb: list[_Part] = []
        self._depth: list[_Part] = []
        self._seg: list[_Part] = []
        self._poses: list[tuple[int, CameraPose]] = []
        self.dropped = Counter[str]()  # why colour images never became frames
        self.completed = 0  # frames put together
        self._rgb_stamps: list[int] = []  # the last colour stamps seen, for the camera's period

    # ---- parts -----------------------------------------------------------------------------------------

    def set_intrinsics(self, intrinsics: CameraIntrinsics) -> RgbdFrame | None:
        self.intrinsics = intrinsics
        return self._complete()

    def add_pose(self, stamp_ns: int, pose: CameraPose) -> RgbdFrame | None:
        self._poses.append((stamp_ns, pose))
        self._poses.sort(key=lambda p: p[0])
        del self._poses[:-4 * self.history]
        return self._complete()

    def add_rgb(self, stamp_ns: int, rgb: np.ndarray, frame_id: str = "") -> RgbdFrame | None:
        self._rgb_stamps = sorted({*self._rgb_stamps, stamp_ns})[-2 * self.history:]
        return self._add(self._rgb, _Part(stamp_ns, rgb, frame_id))

    @property
    def tolerance_ns(self) -> int:
        """The colour/depth stamp tolerance in force: the fixed one, or half the colour period (see above)."""
        if self.sync_tolerance_ns > 0:
            return self.sync_tolerance_ns
        if len(self._rgb_stamps) < 2:
            return self.AUTO_FIRST_NS
        period = float(np.median(np.diff(self._rgb_stamps)))
        return int(min(max(period / 2.0, self.AUTO_MIN_NS), self.AUTO_MAX_NS))

    def add_depth(self, stamp_ns: int, depth_m: np.ndarray) -> RgbdFrame | None:
        return self._add(self._depth, _Part(stamp_ns, depth_m))

    def add_segmentation(self, stamp_ns: int, seg: np.ndarray) -> RgbdFrame | None:
        return self._add(self._seg, _Part(stamp_ns, seg))

    def _add(self, parts: list[_Part], part: _Part) -> RgbdFrame | None:
        parts.append(part)
        parts.sort(key=lambda p: p.stamp_ns)
        while len(parts) > self.history:
            old = parts.pop(0)
            if parts is self._rgb:
                self.dropped["incomplete"] += 1  # waited too long for its depth, segmentation or pose
            del old
        return self._complete()

    # ---- matching --------------------------------------------------------------------------------------

    @staticmethod
    def _nearest(parts: list[_Part], stamp_ns: int, tolerance_ns: int, settled: bool = True) -> _Part | None:
        best = min(parts, key=lambda p: abs(p.stamp_ns - stamp_ns), default=None)
        if best is None or abs(best.stamp_ns - stamp_ns) > tolerance_ns:
            return None
        return best if settled or parts[-1].stamp_ns >= stamp_ns else None

    def _pose_at(self, stamp_ns: int, settled: bool = True) -> CameraPose | None:
        best = min(self._poses, key=lambda p: abs(p[0] - stamp_ns), default=None)
        if best is None or abs(best[0] - stamp_ns) > self.pose_tolerance_ns:
            return None
        return best[1] if settled or self._poses[-1][0] >= stamp_ns else None

    def _complete(self) -> RgbdFrame | None:
        """The newest colour image that has every other part; older waiting ones are dropped."""
        if self.intrinsics is None:
            return None
        tolerance = self.tolerance_ns
        for i in range(len(self._rgb) - 1, -1, -1):
            rgb = self._rgb[i]
            settled = i < len(self._rgb) - 1  # a newer image waits: no part nearer to this one will come
            depth = self._nearest(self._depth, rgb.stamp_ns, tolerance, settled)
            seg = self._nearest(self._seg, rgb.stamp_ns, tolerance, settled) if self.needs_segmentation else None
            pose = self._pose_at(rgb.stamp_ns, settled)
            if depth is None or pose is None or (self.needs_segmentation and seg is None):
                continue
            self.dropped["incomplete"] += i  # older colour images that never completed
            self.completed += 1
            del self._rgb[:i + 1]
            self._depth = [p for p in self._depth if p.stamp_ns > depth.stamp_ns]
            if seg is not None:
                self._seg = [p for p in self._seg if p.stamp_ns > seg.stamp_ns]
            # RgbdFrame checks sizes against the intrinsics: a mismatch is an InvalidInput naming both
            return RgbdFrame(rgb=rgb.data, depth_m=depth.data, intrinsics=self.intrinsics, pose=pose,
                             stamp_ns=rgb.stamp_ns, segmentation=None if seg is None else seg.data,
                             frame_id=rgb.frame_id)
        return None

    def missing(self) -> str:
        """What the newest waiting colour image lacks, and how far the nearest of each part was, for
        diagnostics ('' when nothing waits)."""
        if not self._rgb:
            return ""
        rgb = self._rgb[-1]
        tolerance = self.tolerance_ns
        lacks = []
        if self.intrinsics is None:
            lacks.append("camera info (none received)")

        def off(stamps: list[int], what: str, limit_ns: int, name: str) -> None:
            if not stamps:
                lacks.append(f"{what} (none waiting)")
                return
            nearest = min(stamps, key=lambda t: abs(t - rgb.stamp_ns))
            gap = nearest - rgb.stamp_ns
            if abs(gap) > limit_ns:
                lacks.append(f"{what} (the nearest is {gap / 1e6:+.0f} ms from the colour image; {name} "
                             f"{limit_ns / 1e6:.0f} ms)")

        off([p.stamp_ns for p in self._depth], "depth", tolerance, "sync_tolerance")
        if self.needs_segmentation:
            off([p.stamp_ns for p in self._seg], "segmentation", tolerance, "sync_tolerance")
        off([t for t, _ in self._poses], "camera pose", self.pose_tolerance_ns, "pose_tolerance")
        if not lacks and (self._nearest(self._depth, rgb.stamp_ns, tolerance, settled=False) is None
                          or self._pose_at(rgb.stamp_ns, settled=False) is None
                          or self.needs_segmentation
                          and self._nearest(self._seg, rgb.stamp_ns, tolerance, settled=False) is None):
            lacks.append("a part stamped at or after the colour image (a nearer one may still come)")
        return ", ".join(lacks)


class LatestFrame:
    """One-frame mailbox: ``put`` replaces a waiting frame (counted in ``dropped``), ``take`` waits for one."""

    def __init__(self) -> None:
        self._frame: RgbdFrame | None = None
        self._cond = threading.Condition()
        self.dropped = 0
        self.closed = False

    def put(self, frame: RgbdFrame) -> RgbdFrame | None:
        """The waiting frame this one replaced (dropped), None when none waited."""
        with self._cond:
            dropped = self._frame
            if dropped is not None:
                self.dropped += 1
            self._frame = frame
            self._cond.notify()
            return dropped

    def take(self, timeout: float | None = None) -> RgbdFrame | None:
        with self._cond:
            if self._frame is None and not self.closed:
                self._cond.wait(timeout)
            frame, self._frame = self._frame, None
            return frame

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()
