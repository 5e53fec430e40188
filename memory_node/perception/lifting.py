"""Lift a detection into the map: masked depth -> point cloud (open3d) -> cleaned object -> 3D box.

Steps:
1. back-projection of the masked, valid depth pixels through the pinhole intrinsics and the camera pose
   (optical frame z forward, x right, y down, as ROS publishes it). numpy does this one: it touches only the
   mask's pixels, while open3d's ``create_from_depth_image`` walks the whole image for every object (8-25 ms
   per object at 640x480 here, against well under 1 ms). A mask of more than ``max_pixels`` valid pixels is
   thinned to an even pixel grid first: a table filling half the image needs no 50,000 points for a box.
   Mask pixels on a depth step to another pixel of the mask are dropped before (``depth_edge_steps``):
   there the mask spans two surfaces (its outline off by a pixel from the depth image's, flying pixels);
   under depth noise (``depth_noise``) the masked depth is smoothed first by a window sized to the noise (mean
   of the mask's own valid pixels), and the noise left is kept per map axis (``LiftedObject.sigma``);
2. voxel downsampling (open3d ``voxel_down_sample``): equal weight per volume, not per pixel, so a near
   object's thousands of pixels cost what a far one's hundreds do. When more than ``max_points`` remain,
   the voxel grows until they fit (a big object keeps its extent, at a coarser grain);
3. clean-up: DBSCAN keeping the largest cluster (open3d ``cluster_dbscan``; mask pixels that strayed onto a
   background far away in depth make clusters of their own), or statistical outlier removal
   (``remove_statistical_outlier``; a few isolated flying pixels at depth edges), or none. A mask that
   bleeds onto the surface an object touches (the table under a mug) stays one cluster: erode learned
   masks first (``mask_erosion``);
4. the axis-aligned box in the map frame (open3d's ``get_axis_aligned_bounding_box``), its centre and size,
   and the points' centroid. Depth noise spreads a surface along the rays, so the exact extent grows with
   the noisiest point; ``box_percentile`` trims it (see LiftingParams for the trade-off measured), and under
   ``depth_noise`` the box is trimmed and shrunk by the noise left (docs/perception_robustness.md). When the
   top points hold a level surface, the box's top is that surface's height (``top_surface``).

A single view sees only an object's near surfaces: the box spans what was seen. Seen from above at an angle
(a robot's head camera), the top and two sides of a box-like object span its whole extent, so the box
centre is the object's centre; seen straight from the front, the depth extent is missing and the centre
lies on the front face. Association averages over views.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from memory_node.core.models import InvalidInput

from .boxes import Box3D
from .camera import RgbdFrame
from .detection import PixelBox

try:
    import open3d as o3d
except ImportError as exc:  # pragma: no cover - exercised only where the perception extra is missing
    raise ImportError(
        "memory_node.perception.lifting needs open3d: install the perception requirements "
        "(pip install -r requirements-perception.txt; scripts/setup.sh does it, and apt-get install "
        "libusb-1.0-0 which open3d loads)") from exc

Cleanup = Literal["dbscan", "statistical", "none"]


class LiftingError(InvalidInput):
    """A detection that cannot be placed in 3D (no valid depth under it, too few points); the message says
    why. The pipeline skips such a detection and counts it."""


@dataclass(frozen=True)
class LiftingParams:
    """Defaults for household objects seen from 0.3-6 m by a depth camera or the simulator."""

    voxel_size: float = 0.01  # m; 1 cm keeps a mug's shape, a table top becomes a few thousand points
    cleanup: Cleanup = "dbscan"
    dbscan_eps: float = 0.04  # m; neighbourhood radius, a few voxels (surfaces are dense at 1 cm voxels)
    dbscan_min_points: int = 5  # points within eps for a core point
    outlier_neighbors: int = 20  # statistical removal: neighbours whose mean distance is compared
    outlier_std_ratio: float = 2.0  # ... and how many standard deviations above the mean is an outlier
    min_depth: float = 0.05  # m; nearer returns are the sensor's own housing or noise
    max_depth: float = 8.0  # m; beyond this depth cameras' error grows past object size
    min_points: int = 5  # points left after clean-up for a usable object
    mask_erosion: int = 0  # pixels to erode learned masks by (they bleed onto the background); 0 = exact masks
    max_pixels: int = 6000  # valid pixels back-projected per object at most (an even grid of them beyond)
    max_points: int = 1000  # points after downsampling at most (DBSCAN and voxelling cost grows with them)
    # Mask pixels on a depth edge within the mask are dropped: a depth step to a neighbour in the mask of
    # more than this many pixel footprints (depth / fx) means the mask spans two surfaces, and there a mask
    # and the depth image often disagree by a pixel. Measured in Genesis: the coffee table's mask held
    # pixels that carry the depth of the fruit on it, chains of such points joined the table's cluster, and
    # its top came out 4.5 cm high, so nothing on it was "on" it; learned masks bleed onto what lies behind
    # the same way, and depth cameras return flying pixels there. A surface seen closer than atan(1 / steps)
    # to grazing (14 degrees for 4) is an edge too. When too few pixels are left (a thin object far away),
    # the mask is kept whole. 0 = off.
    depth_edge_steps: float = 4.0
    # The depth sensor's noise (standard deviation at 1 m, m; it grows with depth squared): a step within
    # three of its standard deviations is noise, not an edge. The simulator's depth is exact: 0. Without it a
    # noisy 640x480 sensor (4 mm at 1 m) loses half of a table to "edges" (test/perception/test_lifting.py).
    depth_noise: float = 0.0
    # The box spans these percentiles of the points on each axis; 0 = their exact extent (open3d's AABB).
    # Measured on rendered boxes (test/perception): the exact extent gives the best centres (max error 4 mm
    # without noise, 7 mm with 2 mm-at-1-m depth noise) but sizes grow with noise (+2 cm median); 2 halves
    # the size error under noise and doubles the centre error. Centres are what memory stores: 0. (Measured
    # before depth edges were dropped, which removes most of that size growth: the noisiest points are there.)
    box_percentile: float = 0.0
    # Under depth noise (depth_noise > 0) the masked depth is smoothed before back-projection: each pixel
    # takes the mean depth of the valid mask pixels in a window around it (normalized convolution: pixels
    # beyond the mask or without depth take no part, so the outline is not pulled towards what lies behind).
    # Only depth is noisy, pixel positions are exact, so the outline stays where it is while the noise along
    # the rays falls with the window's side. The window grows with the noise at the object's depth until the
    # mean's noise is about ``denoise_target`` (m), up to ``denoise_max_window`` pixels and a third of the
    # mask's smaller side (a window as wide as the object would flatten it). Measured in Genesis with 3 cm
    # at 1 m (12 cm at 2 m): without it no thing on a table was "on" it (docs/perception_robustness.md).
    denoise_target: float = 0.01
    denoise_max_window: int = 11
    # Under depth noise (when box_percentile is 0) the box spans these percentiles of the points (a lone
    # point the clean-up kept does not set a face), less ``noise_shrink`` times the noise left (``sigma``)
    # on each side: the extremes of a noisy surface lie that far beyond it. Chosen on the synthetic kitchen
    # (test/perception, 640x480, 0.4-3 cm at 1 m, 4 seeds): median size error 1.1-3.2 cm, centre 0.9-1.7 cm,
    # against 2.9-4.6 cm and 1.1-2.0 cm with 2 % tails and the same shrink; the exact extent less 2.5 sigma
    # did as well there but rests on the single outermost point.
    noisy_box_percentile: float = 0.5
    noise_shrink: float = 2.0
    # The box's top is the height of the object's top surface when it shows one: among the points within
    # ``top_band`` half-widths of the box's top, the horizontal slab (half-width: ``top_halfwidth`` times the
    # noise left along z, at least a voxel) that holds the most points, if it holds at least
    # ``top_min_share`` of them; the top is then the median height of that slab's points. The map frame is
    # level and so are tops, so the plane model has one parameter and the consensus search over it is exact
    # (RANSAC's random sampling would only approximate it). Under depth noise the extreme points of a top
    # lie above it (the far rim, seen at a grazing angle, is the noisiest): measured on TestScene1 at
    # 3 cm at 1 m, supports' tops came out 1.6 cm high (median; tables 3 cm, tv stands 5 cm, a rug 12 cm)
    # and things resting on them were not "on" them. 0 = off (the percentile top).
    top_band: float = 6.0
    top_halfwidth: float = 2.0
    top_min_share: float = 0.5

    def __post_init__(self) -> None:
        if self.voxel_size < 0 or self.dbscan_eps <= 0 or self.min_depth < 0 or self.max_depth <= self.min_depth \
                or not self.depth_edge_steps >= 0 or not self.depth_noise >= 0:
            raise InvalidInput(f"invalid lifting parameters {self}")
        if not self.denoise_target > 0 or self.denoise_max_window < 1 or not self.noise_shrink >= 0 \
                or not 0.0 <= self.noisy_box_percentile < 50.0:
            raise InvalidInput(f"invalid lifting parameters {self}")
        if not self.top_band >= 0 or not self.top_halfwidth > 0 or not 0.0 < self.top_min_share <= 1.0:
            raise InvalidInput(f"invalid lifting parameters {self}")
        if not 0.0 <= self.box_percentile < 50.0:
            raise InvalidInput(f"box_percentile must be in [0, 50), got {self.box_percentile}")
        if self.cleanup not in ("dbscan", "statistical", "none"):
            raise InvalidInput(f"cleanup must be dbscan, statistical or none, got {self.cleanup!r}")


@dataclass(frozen=True)
class LiftedObject:
    box: Box3D  # axis-aligned, map frame
    centroid: np.ndarray  # (3,) mean of the kept points, map frame
    points: np.ndarray  # (N, 3) kept points, map frame
    valid_pixels: int  # masked pixels with valid depth
    # per map axis, the standard deviation left in a point's position by the depth noise after smoothing
    # (the noise model's, at the object's depth, along its rays; median over the points): 0 without noise.
    # Relations widen their tolerances by it.
    sigma: np.ndarray = field(default_factory=lambda: np.zeros(3))

    @property
    def center(self) -> np.ndarray:
        """The box centre: the object's position memory stores."""
        return self.box.center

    @property
    def size(self) -> np.ndarray:
        return self.box.size


def _erode(mask: np.ndarray, pixels: int) -> np.ndarray:
    import cv2

    kernel = np.ones((2 * pixels + 1, 2 * pixels + 1), np.uint8)
    # outside the crop counts as background: the default border would keep the mask's edge uneroded
    return cv2.erode(mask.astype(np.uint8), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0).astype(bool)


def masked_cloud(frame: RgbdFrame, mask: np.ndarray, params: LiftingParams,
                 box: PixelBox | None = None) -> tuple[o3d.geometry.PointCloud, int]:
    """The map-frame point cloud of the valid depth pixels under ``mask``, and how many pixels those were.
    ``box``, the mask's pixel box when the caller has it (a detection does), limits the work to it."""
    cloud, n_valid, _ = _masked_cloud(frame, mask, params, box)
    return cloud, n_valid


def _smoothing_window(depth: np.ndarray, valid: np.ndarray, params: LiftingParams, fx: float) -> int:
    """The odd window side whose mean brings the noise at the mask's median depth to ``denoise_target``."""
    d0 = float(np.median(depth[valid]))
    sigma = params.depth_noise * d0 * d0
    side = int(np.ceil(sigma / params.denoise_target))  # a side x side mean has 1/side of the noise
    rows, cols = np.nonzero(valid)
    pixels = min(int(np.ptp(rows)), int(np.ptp(cols))) + 1
    # a third of the object keeps its shape; where the noise exceeds the object's own width (a mug a few
    # metres away) flattening it to one depth costs less than the noise would
    limit = pixels if sigma > pixels * d0 / fx else pixels // 3
    side = min(side, params.denoise_max_window, max(limit, 1))
    return side if side % 2 else max(side - 1, 1)


def smooth_depth(depth: np.ndarray, valid: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Each valid pixel's depth replaced by the mean over the valid pixels in the ``side`` x ``side`` window
    around it (normalized convolution), and how many pixels each mean took."""
    import cv2

    w = valid.astype(np.float32)
    d = np.where(valid, depth, 0.0).astype(np.float32)
    kw = dict(ddepth=-1, ksize=(side, side), normalize=False, borderType=cv2.BORDER_CONSTANT)
    total = cv2.boxFilter(d, **kw)
    count = cv2.boxFilter(w, **kw)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(valid, total / np.maximum(count, 1.0), np.nan)
    return mean, count

def _masked_cloud(frame: RgbdFrame, mask: np.ndarray, params: LiftingParams,
                  box: PixelBox | None = None) -> tuple[o3d.geometry.PointCloud, int, np.ndarray]:
    if mask.shape != frame.depth_m.shape:
        raise InvalidInput(f"mask shape {mask.shape} does not match the depth image {frame.depth_m.shape}")
    if mask.dtype != np.bool_:
        raise InvalidInput(f"mask must be boolean, got {mask.dtype}")
    if box is None:
        if not mask.any():
            raise LiftingError("mask is empty")
        box = PixelBox.of_mask(mask)
    r0, c0 = box.y0, box.x0
    mask = mask[box.y0:box.y1, box.x0:box.x1]
    depth = frame.depth_m[box.y0:box.y1, box.x0:box.x1]
    if not mask.any():
        raise LiftingError("mask is empty")
    if params.mask_erosion > 0:
        eroded = _erode(mask, params.mask_erosion)
        mask = eroded if eroded.any() else mask  # a thin object would vanish: keep its mask as it is
    with np.errstate(invalid="ignore"):
        valid = mask & np.isfinite(depth) & (depth >= params.min_depth) & (depth <= params.max_depth)
    n_valid = int(valid.sum())
    if n_valid == 0:
        raise LiftingError("no valid depth under the mask (NaN, 0, inf or out of range "
                           f"[{params.min_depth}, {params.max_depth}] m)")
    if params.depth_edge_steps > 0:
        # steps between two pixels of the mask only: its outline against what lies beyond (a table's far
        # rim against the floor) is the object's own extent and stays
        inside = np.where(valid, depth, np.nan)
        off_edges = valid & ~depth_edges(inside, frame.intrinsics.fx, params.depth_edge_steps, params.depth_noise)
        if int(off_edges.sum()) >= params.min_points:
            valid = off_edges
    count = None
    if params.depth_noise > 0:
        side = _smoothing_window(depth, valid, params, frame.intrinsics.fx)
        if side > 1:
            depth, count = smooth_depth(depth, valid, side)
    rows, cols = np.nonzero(valid)
    if len(rows) > params.max_pixels:
        step = int(np.ceil(np.sqrt(len(rows) / params.max_pixels)))
        keep = (rows % step == 0) & (cols % step == 0)  # an even grid keeps the mask's extent
        rows, cols = rows[keep], cols[keep]
    k = frame.intrinsics
    z = depth[rows, cols].astype(np.float64)
    rows, cols = rows + r0, cols + c0  # back to full-image pixel coordinates
    cam = np.column_stack([(cols - k.cx) * z / k.fx, (rows - k.cy) * z / k.fy, z])
    points = cam @ frame.pose.rotation.T + frame.pose.position
    sigma = np.zeros(3)
    if params.depth_noise > 0:
        # the noise left along each ray (a depth error dz moves the point by dz * ray / ray_z), per map axis
        n_mean = count[rows - r0, cols - c0] if count is not None else np.ones(len(z))
        along = params.depth_noise * z * z / np.sqrt(np.maximum(n_mean, 1.0))
        rays = cam / z[:, None]
        sigma = np.median(np.abs(rays @ frame.pose.rotation.T) * along[:, None], axis=0)
    return o3d.geometry.PointCloud(o3d.utility.Vector3dVector(points)), n_valid, sigma


def depth_edges(depth: np.ndarray, fx: float, steps: float, noise: float = 0.0) -> np.ndarray:
    """Pixels whose depth differs from one of their 8 neighbours' by more than ``steps`` pixel footprints
    (the nearer depth / ``fx``, times sqrt(2) to a diagonal neighbour) plus three standard deviations of
    the difference of two noisy depths (``noise`` at 1 m, growing with depth squared): both sides of every
    such step. NaN (invalid) neighbours are no evidence either way."""
    edge = np.zeros(depth.shape, dtype=bool)
    h, w = depth.shape
    with np.errstate(invalid="ignore"):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            a = depth[dr:, max(dc, 0):w + min(dc, 0)]  # each pixel ...
            b = depth[:h - dr, max(-dc, 0):w - max(dc, 0)]  # ... and its neighbour at (dr, dc) before it
            reach = steps * (np.sqrt(2.0) if dr and dc else 1.0) / fx
            near = np.fmin(a, b)
            step = np.abs(a - b) > reach * near + 3.0 * np.sqrt(2.0) * noise * near * near  # False at NaN
            edge[dr:, max(dc, 0):w + min(dc, 0)] |= step
            edge[:h - dr, max(-dc, 0):w - max(dc, 0)] |= step
    return edge


def top_surface(z: np.ndarray, top: float, halfwidth: float, band: float, min_share: float) -> float | None:
    """The height of the horizontal surface at the top of points with heights ``z`` (the box's ``top`` so
    far): the slab of half-width ``halfwidth`` holding the most of the points within ``band`` half-widths of
    ``top`` (above it too), when it holds at least ``min_share`` of them; the median height of its points.
    None when the top shows no such surface (a box seen from the side: heights spread evenly)."""
    z = np.sort(z[z >= top - band * halfwidth])
    if len(z) < 3:
        return None
    # for each point as the slab's lower face, how many points lie within two half-widths above it
    ends = np.searchsorted(z, z + 2.0 * halfwidth, side="right")
    counts = ends - np.arange(len(z))
    best = int(np.argmax(counts))  # the lowest slab among equals
    if counts[best] < min_share * len(z):
        return None
    return float(np.median(z[best:ends[best]]))


def _downsample(cloud: o3d.geometry.PointCloud, params: LiftingParams) -> tuple[o3d.geometry.PointCloud, float]:
    """Voxel downsampling to at most ``max_points``; returns the cloud and the voxel size used."""
    voxel = params.voxel_size
    if voxel > 0:
        cloud = cloud.voxel_down_sample(voxel)
    for _ in range(4):  # surfaces: the point count falls with the voxel's area, so sqrt of the ratio
        n = len(cloud.points)
        if n <= params.max_points:
            break
        voxel = max(voxel, 0.005) * float(np.sqrt(n / params.max_points)) * 1.05
        cloud = cloud.voxel_down_sample(voxel)
    return cloud, voxel


def _largest_cluster(cloud: o3d.geometry.PointCloud, params: LiftingParams, voxel: float) -> o3d.geometry.PointCloud:
    # a coarser voxel spaces points further apart: the neighbourhood grows with it
    eps = max(params.dbscan_eps, 3.0 * voxel)
    labels = np.asarray(cloud.cluster_dbscan(eps=eps, min_points=params.dbscan_min_points))
    kept = labels[labels >= 0]
    if kept.size == 0:
        return cloud.select_by_index([])
    largest = int(np.bincount(kept).argmax())
    return cloud.select_by_index(np.flatnonzero(labels == largest).tolist())


def lift(frame: RgbdFrame, mask: np.ndarray, params: LiftingParams | None = None,
         box: PixelBox | None = None) -> LiftedObject:
    """Place the object under ``mask`` (within pixel ``box`` when given) in the map. Raises LiftingError
    (an InvalidInput) when it cannot."""
    p = params or LiftingParams()
    cloud, n_valid, sigma = _masked_cloud(frame, mask, p, box)
    cloud, voxel = _downsample(cloud, p)
    if p.cleanup == "dbscan":
        # neighbours on one noisy surface lie up to a few of the noise's deviations apart along the rays
        cloud = _largest_cluster(cloud, p, max(voxel, float(np.linalg.norm(sigma))))
    elif p.cleanup == "statistical" and len(cloud.points) > p.outlier_neighbors:
        cloud, _ = cloud.remove_statistical_outlier(nb_neighbors=p.outlier_neighbors, std_ratio=p.outlier_std_ratio)
    n = len(cloud.points)
    if n < p.min_points:
        raise LiftingError(f"only {n} points left after clean-up (need {p.min_points}; {n_valid} valid pixels)")
    points = np.asarray(cloud.points)
    percentile = p.box_percentile or (p.noisy_box_percentile if p.depth_noise > 0 else 0.0)
    if percentile > 0:
        lo, hi = np.percentile(points, [percentile, 100.0 - percentile], axis=0)
    else:
        aabb = cloud.get_axis_aligned_bounding_box()
        lo, hi = np.asarray(aabb.min_bound), np.asarray(aabb.max_bound)
    if p.depth_noise > 0:
        # keep at least a voxel of the extent
        shrink = np.minimum(p.noise_shrink * sigma, np.maximum(hi - lo - p.voxel_size, 0.0) / 2.0)
        lo, hi = lo + shrink, hi - shrink
    if p.top_band > 0:
        top = top_surface(points[:, 2], float(hi[2]), max(p.top_halfwidth * float(sigma[2]), p.voxel_size, 1e-3),
                          p.top_band, p.top_min_share)
        if top is not None and top > lo[2]:
            hi = np.array([hi[0], hi[1], top])
    return LiftedObject(box=Box3D(lo, hi),
                        centroid=points.mean(axis=0), points=points, valid_pixels=n_valid, sigma=sigma)
