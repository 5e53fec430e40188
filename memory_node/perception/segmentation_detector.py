"""A detector that reads a segmentation image: each pixel holds a segment id, and a table names each id.

This is what the Genesis bridge can publish (``VisOptions(segmentation_level="entity")`` and
``scene.segmentation_idx_dict`` give entity ids per pixel), so the whole perception path runs end to end in
the simulator and its output can be measured against the simulator's ground truth. Any other source of
instance segmentation (a recorded dataset, a panoptic model run elsewhere) fits the same table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from memory_node.core.models import InvalidInput, normalize_label

from .camera import RgbdFrame
from .detection import Detection, Detector, PixelBox


@dataclass(frozen=True)
class Segment:
    """What a segment id stands for: a class label and, when the source has one, its instance key."""

    label: str
    instance: str = ""


class SegmentationDetector(Detector):
    """Detections from ``frame.segmentation`` and a segment table.

    Segment ids missing from the table (background, the robot's own links) are ignored, and so are labels
    in ``ignore_labels`` (walls and floors are structure, not objects memory should keep). A segment
    smaller than ``min_pixels`` is dropped: a few pixels at an edge lift to a handful of noisy points."""

    name = "segmentation"

    def __init__(self, segments: Mapping[int, Segment | str], *, min_pixels: int = 30,
                 ignore_labels: Iterable[str] = ("wall", "floor", "ceiling")) -> None:
        if min_pixels < 1:
            raise InvalidInput(f"min_pixels must be at least 1, got {min_pixels}")
        table: dict[int, Segment] = {}
        for seg_id, seg in segments.items():
            entry = Segment(label=seg) if isinstance(seg, str) else seg
            if not normalize_label(entry.label):
                raise InvalidInput(f"segment {seg_id} has an empty label")
            table[int(seg_id)] = entry
        self.segments = table
        self.min_pixels = min_pixels
        self.ignore_labels = frozenset(normalize_label(label) for label in ignore_labels)

    def detect(self, frame: RgbdFrame) -> list[Detection]:
        seg = frame.segmentation
        if seg is None:
            raise InvalidInput("the segmentation detector needs a frame with a segmentation image")
        if not np.issubdtype(seg.dtype, np.integer):
            raise InvalidInput(f"segmentation image must hold integer segment ids, got {seg.dtype}")
        ids, counts = np.unique(seg, return_counts=True)
        out: list[Detection] = []
        for seg_id, count in zip(ids.tolist(), counts.tolist()):
            entry = self.segments.get(seg_id)
            if entry is None or count < self.min_pixels or normalize_label(entry.label) in self.ignore_labels:
                continue
            mask = seg == seg_id
            # the renderer's segmentation is exact: score 1
            out.append(Detection(label=entry.label, score=1.0, box=PixelBox.of_mask(mask), mask=mask,
                                 instance=entry.instance or str(seg_id)))
        return out


def segments_from_table(table: Mapping[str, object]) -> dict[int, Segment]:
    """The id -> segment table as the simulator publishes it (JSON): ``{"3": "mug"}`` or
    ``{"3": {"label": "mug", "instance": "mug_431"}}``; InvalidInput for anything else."""
    if not isinstance(table, Mapping):
        raise InvalidInput("segment table must map segment ids to labels")
    out: dict[int, Segment] = {}
    for key, value in table.items():
        try:
            seg_id = int(key)
        except (TypeError, ValueError):
            raise InvalidInput(f"segment table key {key!r} is not an integer id") from None
        if isinstance(value, str):
            out[seg_id] = Segment(label=value)
        elif isinstance(value, Mapping) and isinstance(value.get("label"), str):
            out[seg_id] = Segment(label=value["label"], instance=str(value.get("instance") or ""))
        else:
            raise InvalidInput(f"segment {key}: expected a label or {{label, instance}}, got {value!r}")
        if not normalize_label(out[seg_id].label):
            raise InvalidInput(f"segment {key} has an empty label")
    return out
