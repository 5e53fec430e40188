"""One frame through perception: detect -> lift -> name colours -> associate -> relations -> scene graph.

The output is the project's ``SceneGraphObservation`` with ``complete=False`` (one view of a room misses
most of it; a complete graph would make memory retire what is out of view), so live perception, recorded
perception and third-party mappers reach memory through the same ``scene_graph`` input. Timings per stage
are kept for diagnostics and the benchmark.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from memory_node.core.models import EntityObservation, Point, RelationObservation, SceneGraphObservation
from memory_node.core.store import ROOM_LABEL

from .association import AssociationParams, ObjectTracker, Sighting, Track
from .camera import RgbdFrame
from .colors import color_of_mask
from .depth_noise import measure_depth_noise
from .detection import Detector
from .lifting import LiftingError, LiftingParams, lift
from .relations import DEFAULT_CONTAINER_LABELS, DEFAULT_OPENING_LABELS, PlacedObject, RelationTolerances, infer_relations
from .rooms import RoomMap

STAGES = ("detect", "lift", "color", "associate", "relations")


def in_view(frame: RgbdFrame, center: np.ndarray, size: np.ndarray, *, margin: float = 0.05,
            min_pixels: float = 10.0, max_depth: float = 8.0) -> bool:
    """Whether a detector should have seen an object with this centre and size in ``frame``: its centre
    projects inside the image (``margin`` of the size in from the edges), it spans at least ``min_pixels``,
    and the depth there is not nearer than its front (something in front hides it)."""
    k = frame.intrinsics
    p = frame.pose.rotation.T @ (np.asarray(center, float) - frame.pose.position)
    z = float(p[2])
    if not 0.1 < z <= max_depth:
        return False
    u, v = k.fx * p[0] / z + k.cx, k.fy * p[1] / z + k.cy
    if not (margin * k.width <= u < (1 - margin) * k.width and margin * k.height <= v < (1 - margin) * k.height):
        return False
    extent = float(np.max(size))
    if k.fx * extent / z < min_pixels:
        return False
    d = float(frame.depth_m[int(v), int(u)])
    return not (np.isfinite(d) and d < z - max(0.1, 0.5 * extent))


@dataclass
class FrameResult:
    graph: SceneGraphObservation
    sightings: list[Sighting]
    timings_ms: dict[str, float]
    skipped: list[str] = field(default_factory=list)  # detections that could not be lifted, and why


class PerceptionPipeline:
    def __init__(self, detector: Detector, *, lifting: LiftingParams | None = None,
                 association: AssociationParams | None = None, tolerances: RelationTolerances | None = None,
                 container_labels: Iterable[str] = DEFAULT_CONTAINER_LABELS, source: str = "perception",
                 rooms: RoomMap | None = None, opening_labels: Iterable[str] = DEFAULT_OPENING_LABELS,
                 measure_noise: bool = False) -> None:
        """``measure_noise``: measure the depth noise in every frame (``depth_noise.measure_depth_noise``)
        and lift with that instead of ``lifting.depth_noise``, for a sensor whose noise is not known."""
        self.detector = detector
        self.measure_noise = measure_noise
        self.depth_noise = lifting.depth_noise if lifting else 0.0  # what the last frame was lifted with
        self.opening_labels = frozenset(opening_labels)
        self.rooms = rooms
        self.lifting = lifting or LiftingParams()
        self.tracker = ObjectTracker(association, source=source)
        self.tolerances = tolerances or RelationTolerances()
        self.container_labels = frozenset(container_labels)
        self.source = source

    def process(self, frame: RgbdFrame, room: str = "") -> FrameResult:
        """``room``: the robot's current room when known otherwise; with a room layout, the room the camera
        stands in is the graph's room and each object's is the room under its centre."""
        if self.rooms is not None:
            room = self.rooms.room_at(float(frame.pose.position[0]), float(frame.pose.position[1])) or room
        timings = dict.fromkeys(STAGES, 0.0)
        t0 = time.perf_counter()
        detections = self.detector.detect(frame)
        timings["detect"] = (time.perf_counter() - t0) * 1e3

        sightings: list[Sighting] = []
        skipped: list[str] = []
        params = self.lifting
        if self.measure_noise:
            t0 = time.perf_counter()
            self.depth_noise = measure_depth_noise(frame.depth_m, min_depth=params.min_depth,
                                                   max_depth=params.max_depth)
            params = replace(params, depth_noise=self.depth_noise)
            timings["lift"] += (time.perf_counter() - t0) * 1e3
        for d in detections:
            if d.mask is None:
                skipped.append(f"{d.label}: no mask (a box-only detector needs a mask stage)")
                continue
            t0 = time.perf_counter()
            try:
                obj = lift(frame, d.mask, params, d.box)
            except LiftingError as exc:
                skipped.append(f"{d.label}: {exc}")
                continue
            finally:
                timings["lift"] += (time.perf_counter() - t0) * 1e3
            t0 = time.perf_counter()
            b = d.box
            color = color_of_mask(frame.rgb, d.mask, box=(b.x0, b.y0, b.x1, b.y1)).name
            timings["color"] += (time.perf_counter() - t0) * 1e3
            sightings.append(Sighting(label=d.label, box=obj.box, score=d.score, color=color, instance=d.instance,
                                      bottom_cut=b.y1 >= frame.depth_m.shape[0], sigma=obj.sigma))

        t0 = time.perf_counter()
        seen = self.tracker.update(sightings, frame.stamp_ns, in_view=lambda t: in_view(frame, t.position, t.size))
        timings["associate"] = (time.perf_counter() - t0) * 1e3

        t0 = time.perf_counter()
        graph = self._graph(seen, frame.stamp_ns, room)
        timings["relations"] = (time.perf_counter() - t0) * 1e3
        return FrameResult(graph=graph, sightings=sightings, timings_ms=timings, skipped=skipped)

    def _graph(self, seen: list[Track], stamp_ns: int, room: str) -> SceneGraphObservation:
        """Entities for the confirmed tracks seen now; relations of those to any confirmed track (a support
        may be out of view this frame, and memory knows it from an earlier one)."""
        # a track restored from memory without a size has no box worth reasoning about yet
        placed = [PlacedObject(t.id, t.label, t.box, bottom_open=not t.bottom_seen, sigma=t.sigma)
                  for t in self.tracker.confirmed() if t.size_known]
        seen_ids = {t.id for t in seen}
        relations = [r for r in infer_relations(placed, self.tolerances, self.container_labels)
                     if r.subject in seen_ids or (r.predicate == "near" and r.object in seen_ids)]
        entities = [self._entity(t, self._room_of(t, room)) for t in seen]
        if self.rooms is not None:  # the rooms named, as entities, so memory knows them by name
            for rid in sorted(({e.room for e in entities} | {room}) - {""}):
                r = self.rooms.rooms[rid]
                cx, cy = r.centre()
                entities.insert(0, EntityObservation(id=r.id, label=ROOM_LABEL, name=r.name, room=r.id,
                                                     position=Point(x=cx, y=cy, z=0.0)))
        return SceneGraphObservation(
            stamp_ns=stamp_ns, source=self.source, room=room, complete=False,
            entities=entities,
            relations=[RelationObservation(subject=r.subject, predicate=r.predicate, object=r.object)
                       for r in relations])

    def _room_of(self, t: Track, room: str) -> str:
        if self.rooms is None:
            return room
        return self.rooms.room_at(float(t.position[0]), float(t.position[1])) or room

    def _entity(self, t: Track, room: str) -> EntityObservation:
        size = t.size_attribute(self.tracker.params.size_tolerance)
        attrs = {"size": ",".join(f"{v:.2f}" for v in size)}
        if t.color:
            attrs["color"] = t.color
        if t.label in self.opening_labels:  # class knowledge (relations.DEFAULT_OPENING_LABELS), not a seen state
            attrs["container"] = attrs["openable"] = "true"
        return EntityObservation(id=t.id, label=t.label, room=room,
                                 position=Point(x=float(t.position[0]), y=float(t.position[1]), z=float(t.position[2])),
                                 attributes=attrs, confidence=min(max(t.score, 0.0), 1.0))
