"""Occupancy maps saved by nav2/map_server (a PGM/PNG image plus YAML) read into the grid that a
nav_msgs/OccupancyGrid carries, with map_server's thresholds, so a saved SLAM map can be replayed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import yaml

from memory_node.core.models import InvalidInput


@dataclass(frozen=True)
class OccupancyMap:
    grid: np.ndarray  # int8, row 0 = lowest y (as OccupancyGrid.data), 0 free .. 100 occupied, -1 unknown
    resolution: float  # metres per cell
    origin: tuple[float, float, float]  # x, y, yaw of cell (0, 0)


def load_map(yaml_path: str | Path) -> OccupancyMap:
    """map_server "trinary" mode: p = (255 - v) / 255 (inverted if negate); occupied above
    occupied_thresh, free below free_thresh, unknown between."""
    yaml_path = Path(yaml_path)
    meta = yaml.safe_load(yaml_path.read_text())
    try:
        image_path = yaml_path.parent / meta["image"]
        resolution = float(meta["resolution"])
        origin = tuple(float(v) for v in meta["origin"][:3])
        occupied, free = float(meta["occupied_thresh"]), float(meta["free_thresh"])
    except (KeyError, TypeError, ValueError) as err:
        raise InvalidInput(f"{yaml_path}: not a map_server map description ({err})") from None
    image = cv2.imread(str(image_path), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise InvalidInput(f"{image_path}: map image missing or unreadable")
    p = image.astype(np.float32) / 255.0
    if not meta.get("negate", 0):
        p = 1.0 - p
    grid = np.full(image.shape, -1, dtype=np.int8)
    grid[p > occupied] = 100
    grid[p < free] = 0
    # image row 0 is the top (highest y); OccupancyGrid row 0 is the bottom
    return OccupancyMap(grid=np.flipud(grid).copy(), resolution=resolution, origin=origin)  # type: ignore[arg-type]
