"""Masks from a box and the depth image, without a segmentation model: the ``MaskStage`` a box detector
(YOLOv3-tiny, a YOLO box model) uses by default.

In a detection box the object is, most of the time, the largest surface at one depth near the box's centre;
what lies behind it (a wall, the floor, a table top around a mug) is at another depth or behind a depth
step. So, per box:

1. the seed depth: the most common depth (a histogram of bins that grow with depth, as a sensor's noise
   does) among the valid pixels of the box's central part;
2. the candidates: valid pixels within a depth band around it as deep as the object may be (its box's
   width or height in metres, at least ``min_band``) and not on a depth step (``lifting.depth_edges``:
   both sides of a jump between two surfaces);
3. the connected region of candidates (OpenCV's connected components) that covers most of the central part,
   grown back by a pixel onto the step pixels within the band (the object's own outline).

Before step 1, pixels whose point lies on the floor (within ``floor_margin`` of the map's ``floor_height``,
z up) are left out: an object's sides meet the floor without a depth step, so without this the floor in a
table's box joins the table (measured on rendered kitchens: the table's centre 27 cm off). None turns it off
(a map whose z=0 is not the floor).

SAM stays the better mask where its weights and a GPU are at hand (``sam_masks.py``); this needs neither and
costs well under a millisecond per box at 320x240. Measured against the simulator's segmentation in
``memory_node.bench.perception_sim --mask-iou``.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from memory_node.core.models import InvalidInput

from .camera import RgbdFrame
from .detection import MaskStage, PixelBox
from .lifting import depth_edges


class DepthMaskStage(MaskStage):
    name = "depth"

    def __init__(self, *, centre_fraction: float = 0.5, min_band: float = 0.05, bin_size: float = 0.02,
                 edge_steps: float = 4.0, depth_noise: float = 0.0, min_depth: float = 0.05,
                 max_depth: float = 8.0, min_pixels: int = 10, floor_height: float | None = 0.0,
                 floor_margin: float = 0.02) -> None:
        if not 0.0 < centre_fraction <= 1.0:
            raise InvalidInput(f"centre_fraction must be in (0, 1], got {centre_fraction}")
        if min_band <= 0 or bin_size <= 0 or edge_steps < 0 or depth_noise < 0 or min_pixels < 1:
            raise InvalidInput("depth masks: min_band and bin_size must be > 0, edge_steps and depth_noise >= 0, "
                               "min_pixels >= 1")
        self.centre_fraction = centre_fraction
        self.min_band = min_band
        self.bin_size = bin_size
        self.edge_steps = edge_steps
        self.depth_noise = depth_noise
        self.min_depth = min_depth
        self.max_depth = max_depth
        self.min_pixels = min_pixels
        self.floor_height = floor_height
        self.floor_margin = floor_margin

    def masks(self, frame: RgbdFrame, boxes: Sequence[PixelBox]) -> list[np.ndarray | None]:
        """One mask per box; a pixel two masks share goes to the smaller box's: the things on a table lie in
        its box at its depth and touch it without a depth step, and a table top that kept them would come
        out as high as they are, with nothing "on" it."""
        found = [self.mask(frame, b) for b in boxes]
        claimed = np.zeros(frame.depth_m.shape, dtype=bool)
        for i in sorted(range(len(boxes)), key=lambda i: boxes[i].area):
            m = found[i]
            if m is None:
                continue
            own = m & ~claimed
            claimed |= m
            found[i] = own if int(own.sum()) >= self.min_pixels else None
        return found

    def _centre(self, box: PixelBox) -> tuple[slice, slice]:
        """Rows and columns (in the box's crop) of its central part."""
        h, w = box.y1 - box.y0, box.x1 - box.x0
        mh, mw = max(1, round(h * self.centre_fraction)), max(1, round(w * self.centre_fraction))
        r0, c0 = (h - mh) // 2, (w - mw) // 2
        return slice(r0, r0 + mh), slice(c0, c0 + mw)

    def seed_depth(self, depth: np.ndarray, valid: np.ndarray) -> float | None:
        """The most common depth among ``valid`` pixels, in bins of ``bin_size`` at 1 m growing with depth
        (and with the sensor's noise); None when no pixel is valid."""
        d = depth[valid]
        if d.size == 0:
            return None
        # log-spaced bins: a bin's width grows in proportion to its depth (noise and footprint both do)
        step = np.log1p(self.bin_size + 3.0 * self.depth_noise)
        idx = np.floor(np.log(d) / step).astype(np.int64)
        values, counts = np.unique(idx, return_counts=True)
        best = values[np.argmax(counts)]
        near = np.abs(idx - best) <= 1  # the mode's bin and its neighbours: a surface split by a bin border
        return float(np.median(d[near]))

    def _on_floor(self, frame: RgbdFrame, box: PixelBox, depth: np.ndarray) -> np.ndarray:
        """Pixels of the box whose point is within ``floor_margin`` of the floor (map z up)."""
        k = frame.intrinsics
        v, u = np.mgrid[box.y0:box.y1, box.x0:box.x1]
        # only the map z of each ray is needed: the rotation's last row
        r = frame.pose.rotation[2]
        ray_z = r[0] * (u - k.cx) / k.fx + r[1] * (v - k.cy) / k.fy + r[2]
        with np.errstate(invalid="ignore"):
            z = frame.pose.position[2] + depth * ray_z
            return np.abs(z - self.floor_height) <= self.floor_margin

    def mask(self, frame: RgbdFrame, box: PixelBox) -> np.ndarray | None:
        depth = frame.depth_m[box.y0:box.y1, box.x0:box.x1]
        with np.errstate(invalid="ignore"):
            valid = np.isfinite(depth) & (depth >= self.min_depth) & (depth <= self.max_depth)
        if self.floor_height is not None:
            valid &= ~self._on_floor(frame, box, depth)
        rows, cols = self._centre(box)
        d0 = self.seed_depth(depth[rows, cols], valid[rows, cols])
        if d0 is None:
            d0 = self.seed_depth(depth, valid)
            if d0 is None:
                return None
        k = frame.intrinsics
        # an object is about as deep as it is wide or tall: the band it may span around the seed depth
        extent = max((box.x1 - box.x0) / k.fx, (box.y1 - box.y0) / k.fy) * d0
        band = max(self.min_band, 0.5 * extent) + 3.0 * self.depth_noise * d0 * d0
        with np.errstate(invalid="ignore"):
            in_band = valid & (np.abs(depth - d0) <= band)
        candidates = in_band
        if self.edge_steps > 0:
            candidates = in_band & ~depth_edges(np.where(valid, depth, np.nan), k.fx, self.edge_steps,
                                                self.depth_noise)
        n, labels = cv2.connectedComponents(candidates.astype(np.uint8), connectivity=8)
        region = None
        if n > 1:
            centre = labels[rows, cols]
            counts = np.bincount(centre[centre > 0].ravel(), minlength=n)
            if counts.any():
                region = labels == int(np.argmax(counts))
        if region is None:  # nothing off the steps in the centre (a thin object): the band itself
            region = in_band
        else:
            # the outline: step pixels next to the region and in the band belong to it
            grown = cv2.dilate(region.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            region = region | (grown & in_band)
        if int(region.sum()) < self.min_pixels:
            return None
        out = np.zeros(frame.depth_m.shape, dtype=bool)
        out[box.y0:box.y1, box.x0:box.x1] = region
        return out
