"""Axis-aligned 3D boxes in the map frame (z up): what lifting produces and what relations and association
compare. Axis-aligned because the map's z is gravity's axis, which is what ``on`` and ``in`` are about, and
because overlap and containment of such boxes are exact and cheap."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from memory_node.core.models import InvalidInput


@dataclass(frozen=True)
class Box3D:
    min: np.ndarray  # (3,) metres
    max: np.ndarray  # (3,) metres

    def __post_init__(self) -> None:
        lo = np.asarray(self.min, dtype=np.float64).reshape(-1)
        hi = np.asarray(self.max, dtype=np.float64).reshape(-1)
        if lo.shape != (3,) or hi.shape != (3,):
            raise InvalidInput(f"a 3D box needs two 3-vectors, got {lo.shape} and {hi.shape}")
        if not (np.isfinite(lo).all() and np.isfinite(hi).all()) or (hi < lo).any():
            raise InvalidInput(f"invalid 3D box min={lo.tolist()} max={hi.tolist()}")
        object.__setattr__(self, "min", lo)
        object.__setattr__(self, "max", hi)

    @classmethod
    def from_center_size(cls, center: np.ndarray | tuple[float, float, float],
                         size: np.ndarray | tuple[float, float, float]) -> Box3D:
        c = np.asarray(center, dtype=np.float64)
        half = np.asarray(size, dtype=np.float64) / 2.0
        return cls(c - half, c + half)

    @property
    def center(self) -> np.ndarray:
        return (self.min + self.max) / 2.0

    @property
    def size(self) -> np.ndarray:
        return self.max - self.min

    @property
    def volume(self) -> float:
        return float(np.prod(self.size))

    @property
    def bottom(self) -> float:
        return float(self.min[2])

    @property
    def top(self) -> float:
        return float(self.max[2])

    def footprint_overlap(self, other: Box3D) -> float:
        """Area (m^2) of the intersection of the two boxes' xy footprints."""
        d = np.minimum(self.max[:2], other.max[:2]) - np.maximum(self.min[:2], other.min[:2])
        return float(np.prod(np.clip(d, 0.0, None)))

    def footprint_area(self) -> float:
        return float(np.prod(self.size[:2]))

    def intersection_volume(self, other: Box3D) -> float:
        d = np.minimum(self.max, other.max) - np.maximum(self.min, other.min)
        return float(np.prod(np.clip(d, 0.0, None)))

    def iou(self, other: Box3D) -> float:
        """3D intersection over union; 0 for disjoint boxes (and for two degenerate flat ones)."""
        inter = self.intersection_volume(other)
        union = self.volume + other.volume - inter
        return inter / union if union > 0 else 0.0

    def gap(self, other: Box3D) -> float:
        """Shortest distance between the two boxes (0 when they touch or overlap)."""
        d = np.maximum(np.maximum(self.min - other.max, other.min - self.max), 0.0)
        return float(np.linalg.norm(d))

    def contains(self, other: Box3D, tolerance: float = 0.0) -> bool:
        """Whether ``other`` lies inside this box grown by ``tolerance`` on every side."""
        return bool((other.min >= self.min - tolerance).all() and (other.max <= self.max + tolerance).all())
