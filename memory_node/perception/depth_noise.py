"""The depth sensor's noise measured from one depth image, for a robot whose sensor's noise is not known
(or changes with the light, the range and the surface).

Each pixel whose 3x3 neighbourhood is all valid is compared with the mean of that neighbourhood. Surfaces
are smooth at that scale (a plane's depth is linear in the pixel position up to a small perspective term, and
the mean of a symmetric window keeps a linear ramp), so what is left is the noise: for independent noise of
standard deviation s, ``d - mean`` has 8/9 of its variance. Dividing by depth squared gives the noise at 1 m
under the model lifting uses (it grows with depth squared, as structured-light and stereo error does). The
median absolute deviation makes the estimate ignore depth edges and object outlines, which are a minority of
the pixels in any view a robot takes.
"""

from __future__ import annotations

import numpy as np

# Measured noise below this (m at 1 m) is treated as exact depth: under it a pixel's noise stays below the
# 1 cm voxel lifting works at out to 3 m, and 16-bit millimetre depth's rounding alone measures ~0.1 mm.
EXACT_BELOW = 0.001


def measure_depth_noise(depth_m: np.ndarray, *, min_depth: float = 0.05, max_depth: float = 8.0,
                        min_pixels: int = 500) -> float:
    """The noise at 1 m (m) of ``depth_m`` (metres, NaN or 0 where invalid); 0.0 when fewer than
    ``min_pixels`` pixels can be compared or the noise is below ``EXACT_BELOW``."""
    import cv2

    d = np.asarray(depth_m, dtype=np.float32)
    with np.errstate(invalid="ignore"):
        valid = np.isfinite(d) & (d >= min_depth) & (d <= max_depth)
    filled = np.where(valid, d, 0.0).astype(np.float32)
    kw = dict(ddepth=-1, ksize=(3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
    count = cv2.boxFilter(valid.astype(np.float32), **kw)
    full = valid & (count > 8.5)
    if int(full.sum()) < min_pixels:
        return 0.0
    z = filled[full].astype(np.float64)
    residual = (z - cv2.boxFilter(filled, **kw)[full] / 9.0) / (z * z)
    mad = float(np.median(np.abs(residual - np.median(residual))))
    noise = 1.4826 * mad / np.sqrt(8.0 / 9.0)
    return noise if noise >= EXACT_BELOW else 0.0
