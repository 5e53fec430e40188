"""Spatial relations from 3D boxes: ``in``, ``on`` and ``near``.

- ``A in B``: B can hold things (a container label) and A's box lies inside B's box, allowing
  ``in_margin`` on every side (lifted boxes are a voxel or two too large or too small).
- ``A on B``: A's bottom is within ``on_vertical`` of B's top (resting, not floating above or sunk into it)
  and at least ``on_min_overlap`` of A's footprint lies over B's footprint (a mug at a table's edge is on it,
  a mug next to the table at the same height is not). When A's lowest part was never seen (cut off by the
  image's lower edge: ``bottom_open``), its bottom is only an upper bound, and any top below it will do.
- ``A near B``: the boxes' gap is at most ``near_distance`` and neither is in or on the other; only each
  object's ``near_max`` nearest neighbours, so a cluttered shelf does not make n^2 relations.

Under depth noise, lifting reports the noise left in each box's faces (``PlacedObject.sigma``): the ``on``
tolerance and the ``in`` margin grow by ``noise_k`` times the two boxes' combined deviation, and ``in`` needs
A's centre inside B's box itself (a thing on top of a cabinet is within the grown margin of its box).

Each object gets at most one location relation (``in`` and ``on`` are one family in memory): ``in`` wins
(the innermost container), else ``on`` the upper of a stack of supports (a mat on a desk: the mat), then the
highest supporting top. The defaults suit household objects
lifted from a depth camera at 0.5-4 m, whose surfaces come out within 1-2 cm.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from memory_node.core.models import normalize_label

from .boxes import Box3D

# Labels of things other things go inside (compared after normalize_label). Furniture with shelves or
# doors, appliances with a cavity, and open receptacles; a robot's own catalogue can pass its own.
DEFAULT_CONTAINER_LABELS = frozenset(normalize_label(w) for w in (
    "cabinet", "kitchen cabinets", "cupboard", "closet", "wardrobe", "drawer", "dresser", "bookshelf", "shelf",
    "fridge", "freezer", "microwave", "oven", "dishwasher", "washing machine", "box", "basket", "bin",
    "trash can", "bowl", "dish bowl", "sink", "bathtub", "bag", "pot", "bucket", "crate",
))

# Labels of things that open and close (a door or a lid): class knowledge, not something seen. Perception
# reports such objects with the affordance attributes ``container`` and ``openable`` (as a mapper's class
# catalogue would), so the planner opens them before putting things in; whether one is open, closed or
# locked it does not claim (memory learns that from skill feedback).
DEFAULT_OPENING_LABELS = frozenset(normalize_label(w) for w in (
    "cabinet", "kitchen cabinets", "cupboard", "closet", "wardrobe", "drawer", "dresser", "fridge", "freezer",
    "microwave", "oven", "dishwasher", "washing machine", "washingmachine", "coffeemaker", "garbagecan",
    "trash can", "toilet",
))


@dataclass(frozen=True)
class RelationTolerances:
    on_vertical: float = 0.03  # m: |bottom(A) - top(B)|
    on_min_overlap: float = 0.5  # fraction of A's footprint over B's
    in_margin: float = 0.02  # m: how far A may stick out of the container's box
    near_distance: float = 0.3  # m: gap between the boxes
    near_max: int = 3  # nearest neighbours per object that can be "near"
    # Under depth noise the faces of lifted boxes are off by the noise lifting leaves (``PlacedObject.sigma``):
    # the vertical tolerance and the containment margin grow by this many of the two boxes' combined
    # standard deviations (along z for "on", per axis for "in"). 0 sigma (exact depth) leaves them as set.
    noise_k: float = 2.0


@dataclass(frozen=True)
class PlacedObject:
    id: str
    label: str
    box: Box3D
    # its lowest part was never in view (cut off by the image's lower edge): it reaches at least as low as
    # its box, so it rests on the highest support below it rather than on one within ``on_vertical``
    bottom_open: bool = False
    # per map axis, the standard deviation of its box's faces from depth noise (0: exact depth)
    sigma: np.ndarray | None = None


@dataclass(frozen=True)
class SpatialRelation:
    subject: str
    predicate: str
    object: str


def _noise(a: PlacedObject, b: PlacedObject, tol: RelationTolerances) -> np.ndarray:
    """Per axis, how far the two boxes' facing faces may be off together from depth noise."""
    sa = np.zeros(3) if a.sigma is None else np.asarray(a.sigma, float)
    sb = np.zeros(3) if b.sigma is None else np.asarray(b.sigma, float)
    return tol.noise_k * np.hypot(sa, sb)


def _is_in(a: PlacedObject, b: PlacedObject, tol: RelationTolerances) -> bool:
    if b.box.volume <= a.box.volume:
        return False
    margin = tol.in_margin + _noise(a, b, tol)
    # its centre within the container's box itself: a thing on top of a cabinet, its box within the noise's
    # margin of the cabinet's, is on it, not in it
    if not b.box.contains(Box3D(a.box.center, a.box.center)):
        return False
    return bool((a.box.min >= b.box.min - margin).all() and (a.box.max <= b.box.max + margin).all())


def _is_on(a: PlacedObject, b: PlacedObject, tol: RelationTolerances) -> bool:
    gap = a.box.bottom - b.box.top
    vertical = tol.on_vertical + float(_noise(a, b, tol)[2])
    if (gap < -vertical if a.bottom_open else abs(gap) > vertical) \
            or a.box.center[2] <= b.box.top - vertical:
        return False
    area = a.box.footprint_area()
    if area <= 0.0:  # a flat footprint (a sheet seen edge-on): its centre must lie over B
        c = a.box.center
        return bool((c[:2] >= b.box.min[:2]).all() and (c[:2] <= b.box.max[:2]).all())
    return a.box.footprint_overlap(b.box) >= tol.on_min_overlap * area


def _upper_of_stacks(supports: list[PlacedObject], tol: RelationTolerances) -> list[PlacedObject]:
    """The supports that no other of them rests on: a mouse on a mat on a desk is on the mat, though the
    two tops lie within the tolerance of each other and noise may put the desk's higher (measured on
    small_home under 3 cm depth noise: the desk's top 1 mm above the mat's). Two that each pass for
    resting on the other (thin things at one height) both stay; the highest top then decides."""
    if len(supports) < 2:
        return supports
    return [b for b in supports
            if not any(c is not b and _is_on(c, b, tol) and not _is_on(b, c, tol) for c in supports)]


def infer_relations(objects: Sequence[PlacedObject], tolerances: RelationTolerances | None = None,
                    container_labels: Iterable[str] = DEFAULT_CONTAINER_LABELS) -> list[SpatialRelation]:
    """Location (``in``/``on``, at most one per subject) and ``near`` relations among ``objects``.

    The pairs worth testing come from one numpy pass over all boxes (a whole apartment holds ~300 objects:
    testing every pair in Python took 100-230 ms a frame): ``in`` and ``on`` need the footprints to meet,
    ``near`` a gap of at most ``near_distance``; the exact tests then run on those pairs only."""
    tol = tolerances or RelationTolerances()
    containers = frozenset(normalize_label(c) for c in container_labels)
    n = len(objects)
    if n == 0:
        return []
    mins = np.array([o.box.min for o in objects], dtype=float)
    maxs = np.array([o.box.max for o in objects], dtype=float)
    sep = np.maximum(np.maximum(mins[:, None, :] - maxs[None, :, :], mins[None, :, :] - maxs[:, None, :]), 0.0)
    gaps = np.linalg.norm(sep, axis=2)  # the same shortest distance as Box3D.gap, for every pair
    meet = (sep[:, :, 0] <= tol.in_margin) & (sep[:, :, 1] <= tol.in_margin)  # footprints meet (or nearly)
    np.fill_diagonal(meet, False)
    out: list[SpatialRelation] = []
    located: set[frozenset[str]] = set()  # pairs with a location relation between them
    for i, a in enumerate(objects):
        others = [objects[j] for j in np.flatnonzero(meet[i])]
        inside = [b for b in others if b.label in containers and _is_in(a, b, tol)]
        if inside:
            b = min(inside, key=lambda o: (o.box.volume, o.id))  # the innermost container
            out.append(SpatialRelation(a.id, "in", b.id))
            located.add(frozenset((a.id, b.id)))
            continue
        supports = _upper_of_stacks([b for b in others if _is_on(a, b, tol)], tol)
        if supports:
            b = max(supports, key=lambda o: (o.box.top, o.id))
            out.append(SpatialRelation(a.id, "on", b.id))
            located.add(frozenset((a.id, b.id)))
    near_pairs: set[frozenset[str]] = set()
    for i, a in enumerate(objects):
        close = [j for j in np.flatnonzero(gaps[i] <= tol.near_distance) if j != i]
        # the near_max nearest among those close enough are the near_max nearest overall that are close enough
        for j in sorted(close, key=lambda j: (gaps[i, j], objects[j].id))[:tol.near_max]:
            pair = frozenset((a.id, objects[j].id))
            if pair not in located and pair not in near_pairs:
                near_pairs.add(pair)
                s, o = sorted(pair)  # near is symmetric: one relation per pair, in a stable order
                out.append(SpatialRelation(s, "near", o))
    return out
