"""Perception benchmark on synthetic frames: per-stage latency, 3D error, and memory growth.

    python -m memory_node.perception.bench                 # 320x240 and 640x480, 30 frames each
    python -m memory_node.perception.bench --frames 60 --sizes 640x480 --noise 0.002

Frames are rendered first (``synthetic.kitchen_scene`` from a swaying head camera; rendering is not timed
as part of perception) and then run through ``PerceptionPipeline`` with the segmentation detector. Printed
per resolution: the median and p90 of each stage and of the whole frame (wall time, and the process's
CPU time, which other work on a shared machine does not inflate), the median and p90 3D position
error of the published objects against the scene's boxes, and what memory stores when every frame's graph
is ingested (``--memory-seconds`` of graphs at ``--rate``, the frames' graphs over and over): entity
versions with the store's position tolerance and without it (0), and database growth per hour.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from memory_node.core.models import SceneGraphObservation
from memory_node.core.store import DEFAULT_POSITION_TOLERANCE, MemoryStore

from .association import AssociationParams
from .camera import CameraPose, RgbdFrame
from .pipeline import STAGES, PerceptionPipeline
from .segmentation_detector import SegmentationDetector
from .synthetic import SyntheticScene, head_camera, kitchen_scene

S = 1_000_000_000


def render_frames(scene: SyntheticScene, width: int, height: int, n: int, noise: float, seed: int = 0,
                  rate_hz: float = 1.0) -> list[RgbdFrame]:
    k, _ = head_camera(width, height)
    rng = np.random.default_rng(seed)
    frames = []
    for i in range(n):
        eye = np.array([0.4, -0.5, 1.5]) + rng.normal(0, 0.03, 3)
        target = np.array([2.0, 0.4, 0.5]) + rng.normal(0, 0.05, 3)
        frames.append(scene.render(k, CameraPose.look_at(eye, target), stamp_ns=int((i + 1) * S / rate_hz),
                                   depth_noise=noise, color_noise=3.0, seed=seed + i))
    return frames


def _pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def _memory_growth(graphs: list[SceneGraphObservation], tolerance: float, messages: int,
                   rate_hz: float) -> tuple[int, int]:
    """(entity versions, database bytes added) after ingesting ``messages`` graphs into a fresh store: the
    frames' graphs over and over, restamped at ``rate_hz``, so their real jitter recurs for the whole run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "memory.db"
        store = MemoryStore(path, position_tolerance=tolerance)
        store.storage.checkpoint()  # the empty schema, all in the main file
        empty = path.stat().st_size
        for i in range(messages):
            g = graphs[i % len(graphs)]
            store.ingest_scene_graph(g.model_copy(update={"stamp_ns": int((i + 1) * S / rate_hz)}))
        versions = store.counts()["entity_versions"]
        store.storage.checkpoint()
        store.close()
        return versions, path.stat().st_size - empty


def bench_resolution(width: int, height: int, frames: int, warmup: int, noise: float, rate_hz: float,
                     memory_seconds: float) -> dict:
    scene = kitchen_scene()
    t0 = time.perf_counter()
    rendered = render_frames(scene, width, height, frames + warmup, noise, rate_hz=rate_hz)
    render_ms = (time.perf_counter() - t0) * 1e3 / len(rendered)
    pipe = PerceptionPipeline(SegmentationDetector(scene.labels, min_pixels=10),
                              association=AssociationParams(confirm_after=2))
    stages: dict[str, list[float]] = {s: [] for s in (*STAGES, "frame", "frame_cpu")}
    graphs = []
    errors: list[float] = []
    by_label: dict[str, list[float]] = {}
    truth = {o.label: o.box.center for o in scene.objects}
    for i, f in enumerate(rendered):
        t0, c0 = time.perf_counter(), time.process_time()
        result = pipe.process(f, room="kitchen")
        total, cpu = (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3
        graphs.append(result.graph)
        if i < warmup:
            continue
        for s in STAGES:
            stages[s].append(result.timings_ms[s])
        stages["frame"].append(total)
        stages["frame_cpu"].append(cpu)
        for e in result.graph.entities:
            if e.position is not None:
                err = float(np.linalg.norm(np.array([e.position.x, e.position.y, e.position.z]) - truth[e.label]))
                errors.append(err)
                by_label.setdefault(e.label, []).append(err)
    messages = int(memory_seconds * rate_hz)
    growth: dict[str, float] = {}
    if messages > 0:
        hours = messages / rate_hz / 3600.0
        for name, tolerance in (("tolerance", DEFAULT_POSITION_TOLERANCE), ("no_tolerance", 0.0)):
            versions, added = _memory_growth(graphs, tolerance, messages, rate_hz)
            growth[f"versions_{name}"] = versions
            growth[f"mb_per_hour_{name}"] = added / 1e6 / hours
    return {
        "size": f"{width}x{height}", "frames": frames, "objects": len(pipe.tracker.confirmed()),
        "render_ms": render_ms,
        "stages": {s: (_pct(v, 50), _pct(v, 90)) for s, v in stages.items()},
        "error_m": (_pct(errors, 50), _pct(errors, 90)),
        "error_by_label_m": {label: _pct(v, 50) for label, v in sorted(by_label.items())},
        "messages": messages, "memory": growth,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=30, help="timed frames per resolution (median over them)")
    ap.add_argument("--warmup", type=int, default=3, help="untimed frames first (imports, allocations)")
    ap.add_argument("--sizes", default="320x240,640x480", help="comma-separated WxH")
    ap.add_argument("--noise", type=float, default=0.002,
                    help="depth noise: standard deviation in metres at 1 m, growing with depth squared")
    ap.add_argument("--rate", type=float, default=1.0, help="frames per second, for database growth per hour")
    ap.add_argument("--memory-seconds", type=float, default=300.0,
                    help="seconds of perception ingested into memory for the growth figures, extrapolated to "
                         "an hour (0 = skip; without the tolerance every message writes versions: slow)")
    args = ap.parse_args(argv)
    if args.frames < 1 or args.warmup < 0 or args.rate <= 0:
        ap.error("--frames must be >= 1, --warmup >= 0, --rate > 0")
    try:
        sizes = [tuple(int(v) for v in s.lower().split("x")) for s in args.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes must look like 320x240,640x480, got {args.sizes!r}")
    print(f"perception bench: synthetic kitchen (6 objects), segmentation detector, {args.frames} frames "
          f"(+{args.warmup} warm-up), depth noise {args.noise} m at 1 m; OMP_NUM_THREADS="
          f"{os.environ.get('OMP_NUM_THREADS', 'unset')}, {os.cpu_count()} CPUs")
    for w, h in sizes:
        r = bench_resolution(w, h, args.frames, args.warmup, args.noise, args.rate, args.memory_seconds)
        print(f"\n{r['size']}: {r['objects']} objects tracked (rendering {r['render_ms']:.0f} ms/frame, untimed)")
        print(f"  {'stage':<10} {'median ms':>10} {'p90 ms':>8}")
        for s, (med, p90) in r["stages"].items():
            print(f"  {s:<10} {med:>10.2f} {p90:>8.2f}")
        med, p90 = r["error_m"]
        print(f"  position error vs ground truth: median {100 * med:.1f} cm, p90 {100 * p90:.1f} cm; median by "
              "object: " + ", ".join(f"{k} {100 * v:.1f}" for k, v in r["error_by_label_m"].items()))
        m = r["memory"]
        if m:
            print(f"  memory after {r['messages']} graphs ({r['messages'] / args.rate:.0f} s at {args.rate:g} Hz):"
                  f" {m['versions_tolerance']:.0f} entity versions with the {DEFAULT_POSITION_TOLERANCE} m position"
                  f" tolerance, {m['versions_no_tolerance']:.0f} without; database growth"
                  f" {m['mb_per_hour_tolerance']:.2f} MB/h vs {m['mb_per_hour_no_tolerance']:.2f} MB/h (extrapolated)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
