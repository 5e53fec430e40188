"""Soak test of the node over real DDS: hours of a robot's input, faster than real time, then the figures.

    scripts/soak.sh --minutes 30        # = python -m memory_node.bench.soak --minutes 30

A publisher (this process) feeds the node's real input topics, in event-time order, what a robot with a
mapper, a camera and a task layer sends: a 300-entity scene graph at 10 Hz (the shipped VirtualHome
apartment; every entity re-reported with centimetre jitter, one object moved to another piece of furniture
per second), 640x480 rgb8 frames at 30 Hz (a real camera image from the shared rosbag2 recording, the view
panning for 2 s every minute so the admission gate has something to admit), and one event per second
(skill feedback, utterance, observed activity in turn). Event time is the messages' header stamps, so
``--minutes`` is minutes of the robot's life, not of the wall clock.

Pacing: every 0.1 s of event time (one graph, three frames, an event each second) the publisher waits on
``~/sync`` until the node has processed it, so it runs as fast as the node keeps up (``--speed N`` caps it at
N times real time) and at most three best-effort frames are in flight (the node's sensor queue holds five).

What it checks and prints at the end:
- loss: graphs and events published vs processed by the node (``~/sync``), rejected (``/diagnostics``) and
  held by memory (rows in the database after a clean stop); frames processed and admitted;
- the node process's RSS over event time (sampled every event minute, or ``sample_every_s``): first, after warm-up, last, max,
  and its growth after warm-up in MB per event hour;
- database growth (SQLite file + WAL) and frame files, bytes per event hour;
- the node's own write latency per input (median / p99 over its last 1000 messages, from /diagnostics) and
  the sustained rate (event seconds per wall second).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SECOND_NS = 1_000_000_000
T0_NS = 1_700_000_000 * SECOND_NS  # event time of the soak: far from the wall clock, as a replay would be
TICK_NS = SECOND_NS // 10          # one scene graph per tick (10 Hz)
FRAMES_PER_TICK = 3                # 30 Hz camera
JITTER_M = 0.015                   # per axis: well inside the node's position_tolerance (0.05 m)
BAG = (Path(__file__).resolve().parents[2].parent / "shared" / "data" / "ros2_bags" / "amber_soccer_goal"
       / "soccer_goal_12.mcap")


@dataclass
class Sample:
    event_s: float
    wall_s: float
    rss_mb: float
    db_bytes: int
    frame_bytes: int


@dataclass
class SoakResult:
    minutes: float
    wall_s: float
    entities_per_graph: int
    published: dict[str, int]
    processed: dict[str, int]
    rejected: dict[str, int]
    stored: dict[str, int]
    frames_admitted: int
    samples: list[Sample] = field(default_factory=list)
    write_ms: dict[str, str] = field(default_factory=dict)
    tick_wall_ms: list[float] = field(default_factory=list)

    @property
    def lost(self) -> dict[str, int]:
        """Graphs and events memory does not hold although they were published (should be all zeros)."""
        return {k: self.published[k] - self.stored.get(k, 0) for k in ("scene_graphs", "events")}

    @property
    def speed(self) -> float:
        return self.minutes * 60.0 / self.wall_s if self.wall_s > 0 else math.nan

    def rss_growth_mb_per_hour(self) -> float:
        """Slope of RSS over event time after warm-up (the first fifth of the run), least squares."""
        warm = self._after_warm_up()
        if len(warm) < 2:
            return math.nan
        t = np.array([s.event_s / 3600.0 for s in warm])
        r = np.array([s.rss_mb for s in warm])
        return float(np.polyfit(t, r, 1)[0])

    def growth_bytes_per_hour(self, what: str) -> float:
        warm = self._after_warm_up()
        if len(warm) < 2:
            return math.nan
        a, b = warm[0], warm[-1]
        return (getattr(b, what) - getattr(a, what)) / ((b.event_s - a.event_s) / 3600.0)

    def _after_warm_up(self) -> list[Sample]:
        return [s for s in self.samples if s.event_s >= 0.2 * self.minutes * 60.0]

    def report(self) -> str:
        warm = self._after_warm_up()
        rss = [s.rss_mb for s in self.samples]
        ticks = sorted(self.tick_wall_ms)
        lines = [
            f"memory_node soak: {self.minutes:g} min of event time in {self.wall_s:.0f} s wall "
            f"({self.speed:.2f}x real time), {self.entities_per_graph}-entity graphs at 10 Hz, 640x480 frames "
            f"at 30 Hz, 1 event/s",
            f"  scene graphs   published {self.published['scene_graphs']}, processed "
            f"{self.processed['scene_graphs']}, rejected {self.rejected['scene_graphs']}, in memory "
            f"{self.stored['scene_graphs']}, lost {self.lost['scene_graphs']}",
            f"  events         published {self.published['events']}, processed {self.processed['events']}, "
            f"rejected {self.rejected['events']}, in memory {self.stored['events']}, lost {self.lost['events']}",
            f"  frames         published {self.published['images']}, processed {self.processed['images']} "
            f"(best effort), rejected {self.rejected['images']}, admitted {self.frames_admitted}, in memory "
            f"{self.stored['frames']}",
            f"  node RSS MB    first {rss[0]:.0f}, after warm-up {warm[0].rss_mb if warm else math.nan:.0f}, "
            f"last {rss[-1]:.0f}, max {max(rss):.0f}; growth after warm-up "
            f"{self.rss_growth_mb_per_hour():+.1f} MB per event hour",
            f"  database       {self.samples[-1].db_bytes / 1e6:.1f} MB at the end; "
            f"{self.growth_bytes_per_hour('db_bytes') / 1e6:.1f} MB per event hour (SQLite file + WAL)",
            f"  frame files    {self.samples[-1].frame_bytes / 1e6:.1f} MB at the end; "
            f"{self.growth_bytes_per_hour('frame_bytes') / 1e6:.1f} MB per event hour",
        ]
        if ticks:
            lines.append(f"  per 0.1 s tick  wall ms median {statistics.median(ticks):.1f}, "
                         f"p99 {ticks[min(len(ticks) - 1, int(0.99 * len(ticks)))]:.1f} (publish + node + sync)")
        for name in ("scene_graphs", "images", "skill_feedback", "utterances", "activities"):
            med, p99 = self.write_ms.get(f"write_ms_median_{name}"), self.write_ms.get(f"write_ms_p99_{name}")
            if med is not None:
                lines.append(f"  node write ms  {name}: median {med}, p99 {p99} (last 1000 messages)")
        return "\n".join(lines)


# ---- what the robot reports -----------------------------------------------------------------------


class ApartmentFeed:
    """Scene graphs of the shipped VirtualHome apartment as a mapper would stream them."""

    def __init__(self, entities: int, seed: int = 0) -> None:
        from memory_node.ros import conversions as conv
        from memory_node.scenes.virtualhome import load_scene

        scene = load_scene()
        chosen = sorted(scene.entities.values(), key=lambda e: e.id)
        chosen = [e for e in chosen if e.position is not None][:max(0, entities - len(scene.rooms))]
        members = list(scene.rooms.values()) + chosen
        ids = {e.id for e in members}
        relations = [r for r in scene.relations if r.subject in ids and r.object in ids]
        self.rooms = list(scene.rooms)
        self.rng = np.random.default_rng(seed)
        self.msg = conv.scene_graph_to_msg(T0_NS, members, relations, source="soak")
        self.base = np.array([[e.position.x, e.position.y, e.position.z] for e in members])
        self.index = {e.id: i for i, e in enumerate(members)}
        # movable: small things located on/in a piece of furniture we report; furniture: those holders
        self.location = {i: r for i, r in enumerate(self.msg.relations)}
        self.furniture = sorted({r.object for r in relations})
        self.movable = [k for k, r in self.location.items()]
        self.room_of = {e.id: e.room for e in members}

    def __len__(self) -> int:
        return len(self.msg.entities)

    def graph(self, tick: int, stamp_ns: int):
        from memory_node.ros.conversions import ns_to_stamp

        if tick % 10 == 0 and self.movable:  # once a second somebody moves something
            k = int(self.rng.choice(self.movable))
            rel = self.location[k]
            target = str(self.rng.choice([f for f in self.furniture if f not in (rel.object, rel.subject)]))
            rel.object = target
            self.base[self.index[rel.subject]] = self.base[self.index[target]] + (0.0, 0.0, 0.3)
        jitter = self.rng.uniform(-JITTER_M, JITTER_M, self.base.shape)
        for ent, (x, y, z) in zip(self.msg.entities, (self.base + jitter).tolist()):
            p = ent.position
            p.x, p.y, p.z = x, y, z
        # the robot wanders: a new room every five event minutes (frames are bound to it)
        self.msg.room = self.rooms[(tick // 3000) % len(self.rooms)]
        self.msg.header.stamp = ns_to_stamp(stamp_ns)
        return self.msg


class CameraFeed:
    """640x480 rgb8 frames: a real camera image (the shared rosbag2 recording) or, without it, a textured
    synthetic one; the view holds still and pans for 2 s every event minute."""

    def __init__(self) -> None:
        self.base = self._image()
        self.offset = 0

    @staticmethod
    def _image() -> np.ndarray:
        if BAG.exists():
            from memory_node.ros.bag import read_messages

            for _, msg, _ in read_messages(BAG, ["/camera/image_raw"]):
                if msg.encoding == "rgb8" and (msg.width, msg.height) == (640, 480):
                    return np.frombuffer(bytes(msg.data), dtype=np.uint8).reshape(480, 640, 3).copy()
        y, x = np.mgrid[0:480, 0:640]
        return np.stack([(x * 255 // 639), (y * 255 // 479), ((x + y) * 7 % 256)], axis=-1).astype(np.uint8)

    def frame(self, index: int, stamp_ns: int):
        from memory_node.ros.conversions import image_to_msg

        if index % 1800 < 60:  # 2 s of every 60 s at 30 Hz
            self.offset = (self.offset + 6) % 640
        return image_to_msg(np.roll(self.base, self.offset, axis=1), stamp_ns, "camera")


def event(i: int, stamp_ns: int, labels: list[str]):
    """One event per second, the three kinds in turn."""
    from memory_node.core.models import ActivityObservation, SkillFeedbackObservation, UtteranceObservation

    label = labels[i % len(labels)]
    kind = i % 3
    if kind == 0:
        return "skill_feedback", SkillFeedbackObservation(stamp_ns=stamp_ns, robot="vega", skill="navigate_to",
                                                          args=[label], target_id=label, success=i % 7 != 0,
                                                          status="" if i % 7 else "ABORTED")
    if kind == 1:
        return "utterances", UtteranceObservation(stamp_ns=stamp_ns, speaker="alex",
                                                  text=f"have you seen the {label.split('_')[0]}?")
    return "activities", ActivityObservation(stamp_ns=stamp_ns, actor="alex", verb="pick-up",
                                             objects=[label.split("_")[0]], location="kitchen")


# ---- measuring --------------------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return math.nan


def db_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def dir_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.glob("*")) if folder.exists() else 0


def stored_counts(db: Path) -> dict[str, int]:
    """What memory holds after the run, read through a reader of the stopped node's memory."""
    from memory_node.core.store import MemoryStore

    reader = MemoryStore.open_reader(db)
    try:
        storage = reader.storage
        graphs = storage.kind_counts("observations").get("scene_graph", 0)
        events = sum(n for kind, n in storage.kind_counts("events").items()
                     if kind in ("skill", "utterance", "activity"))
        frames = storage.count("frames")
        if not storage.integrity_ok():
            raise RuntimeError(f"{db} fails its integrity check")
    finally:
        reader.close()
    return {"scene_graphs": graphs, "events": events, "frames": frames}


class Diagnostics:
    """The node's latest /diagnostics status as a dict of its key/values."""

    def __init__(self, node, name: str) -> None:
        self.name = name
        from diagnostic_msgs.msg import DiagnosticArray

        self.values: dict[str, str] = {}
        self.received = 0
        node.create_subscription(DiagnosticArray, "/diagnostics", self._on, 10)

    def _on(self, msg) -> None:
        for status in msg.status:
            if status.name == self.name:
                self.values = {kv.key: kv.value for kv in status.values}
                self.received += 1


# ---- the run ----------------------------------------------------------------------------------------


def run_soak(minutes: float, entities: int = 300, speed: float = 0.0, workdir: Path | None = None,
             robot: str = "vega", progress: bool = True, wall_limit_s: float = 0.0,
             sample_every_s: float = 60.0) -> SoakResult:
    """``wall_limit_s`` > 0: stop publishing after that much wall time and report the event time reached
    (``SoakResult.minutes``), for a machine too slow or too busy to keep up. RSS and sizes are sampled every
    ``sample_every_s`` of event time."""
    import rclpy
    from rclpy.qos import qos_profile_sensor_data
    from sensor_msgs.msg import Image

    from memory_node.ros.client import MemoryClient
    from memory_node.ros.process import NodeProcess

    workdir = Path(workdir or tempfile.mkdtemp(prefix="memory_soak_"))
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "soak.db"
    ns = f"soak{uuid.uuid4().hex[:6]}"
    if not rclpy.ok():
        rclpy.init()
    feed, camera = ApartmentFeed(entities), CameraFeed()
    labels = [e.id for e in feed.msg.entities if feed.room_of.get(e.id) != e.id][:50]
    log = open(workdir / "node.log", "w")
    node = NodeProcess(robot, log=log, namespace=ns, database_path=str(db))
    client = MemoryClient(node_name=f"/{ns}/memory_node", namespace=f"/{ns}", client_name=f"soak_{ns}")
    diagnostics = Diagnostics(client.node, client.diagnostics_name)
    images = client.node.create_publisher(Image, f"/{ns}/camera/image_raw", qos_profile_sensor_data)
    published = {"scene_graphs": 0, "events": 0, "images": 0}
    samples: list[Sample] = []
    tick_ms: list[float] = []
    try:
        client.wait_for_node(timeout=120, alive=node.alive)
        while images.get_subscription_count() == 0:
            client.spin(0.05)
        ticks = int(round(minutes * 60 * SECOND_NS / TICK_NS))
        sample_ticks = max(1, int(round(sample_every_s * SECOND_NS / TICK_NS)))
        started = time.monotonic()
        sent_images = 0

        def sample(event_s: float) -> None:
            samples.append(Sample(event_s, time.monotonic() - started, rss_mb(node.proc.pid), db_bytes(db),
                                  dir_bytes(workdir / "frames")))

        for tick in range(ticks):
            t_tick = time.monotonic()
            if wall_limit_s > 0 and t_tick - started > wall_limit_s:
                ticks = tick
                break
            stamp = T0_NS + tick * TICK_NS
            if tick % sample_ticks == 0:
                sample(tick * TICK_NS / SECOND_NS)
                if progress and tick and tick % 600 == 0:
                    s = samples[-1]
                    print(f"  {tick // 600} event min, {s.wall_s:.0f} s wall, RSS {s.rss_mb:.0f} MB, "
                          f"db {s.db_bytes / 1e6:.1f} MB", flush=True)
            for j in range(FRAMES_PER_TICK):
                images.publish(camera.frame(tick * FRAMES_PER_TICK + j, stamp + j * TICK_NS // FRAMES_PER_TICK))
                client.published["images"] += 1
                sent_images += 1
            client.publish_scene_graph(feed.graph(tick, stamp))
            if tick % 10 == 0:
                kind, obs = event(tick // 10, stamp + TICK_NS // 2, labels)
                {"skill_feedback": client.publish_skill_feedback, "utterances": client.publish_utterance,
                 "activities": client.publish_activity}[kind](obs)
            _wait_processed(client)
            tick_ms.append((time.monotonic() - t_tick) * 1000)
            if speed > 0:
                time.sleep(max(0.0, started + (tick + 1) * TICK_NS / SECOND_NS / speed - time.monotonic()))
        wall = time.monotonic() - started
        sample(ticks * TICK_NS / SECOND_NS)
        final = client.sync(timeout=60, check=False)
        # a fresh /diagnostics after the last message (published every diagnostics_period)
        seen = diagnostics.received
        deadline = time.monotonic() + 10
        while diagnostics.received < seen + 2 and time.monotonic() < deadline:
            client.spin(0.1)
        d = diagnostics.values
        published = {"scene_graphs": client.published["scene_graphs"],
                     "events": sum(client.published[k] for k in ("skill_feedback", "utterances", "activities")),
                     "images": sent_images}
        processed = {"scene_graphs": final.scene_graphs,
                     "events": final.skill_feedback + final.utterances + final.activities, "images": final.images}
        rejected = {"scene_graphs": int(d.get("rejected_scene_graphs", -1)),
                    "events": sum(int(d.get(f"rejected_{k}", -1)) for k in ("skill_feedback", "utterances",
                                                                             "activities")),
                    "images": int(d.get("rejected_images", -1))}
        admitted = int(d.get("frames_admitted", -1))
        write_ms = {k: v for k, v in d.items() if k.startswith("write_ms_")}
    finally:
        client.close()
        code = node.stop(timeout=30)
        log.close()
    if code != 0:
        raise RuntimeError(f"node exited with {code}; log: {workdir / 'node.log'}")
    return SoakResult(minutes=ticks * TICK_NS / SECOND_NS / 60.0, wall_s=wall, entities_per_graph=len(feed),
                      published=published, processed=processed, rejected=rejected, stored=stored_counts(db), frames_admitted=admitted,
                      samples=samples, write_ms=write_ms, tick_wall_ms=tick_ms)


def _wait_processed(client) -> None:
    """Until the node has processed this tick: graphs and events must all arrive (reliable, keep all);
    a camera frame the best-effort transport dropped is not waited for beyond a short grace."""
    resp = client.sync(timeout=1.0, check=False)
    if resp.reached:
        return
    if any(getattr(resp, k) < client.published[k] for k in ("scene_graphs", "skill_feedback", "utterances",
                                                            "activities")):
        resp = client.sync(timeout=60.0, check=False)  # a slow write, not a loss: keep waiting
    # frames not processed by now were dropped on the way: expect only what the node saw from here on
    client.published["images"] = min(client.published["images"], resp.images)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="memory_node soak test over ROS (event time faster than real)")
    parser.add_argument("--minutes", type=float, default=30.0, help="minutes of event time")
    parser.add_argument("--entities", type=int, default=300, help="entities per scene graph")
    parser.add_argument("--speed", type=float, default=0.0,
                        help="at most this many times real time (0 = as fast as the node keeps up)")
    parser.add_argument("--wall-limit", type=float, default=0.0,
                        help="stop after this many wall seconds and report the event time reached (0 = none)")
    parser.add_argument("--workdir", type=Path, default=None, help="database and log here (default: a temp dir)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures and samples here")
    args = parser.parse_args(argv)
    result = run_soak(args.minutes, entities=args.entities, speed=args.speed, workdir=args.workdir,
                      wall_limit_s=args.wall_limit)
    print(result.report())
    if args.json:
        out = asdict(result) | {"lost": result.lost, "speed": result.speed,
                                "rss_growth_mb_per_event_hour": result.rss_growth_mb_per_hour(),
                                "db_bytes_per_event_hour": result.growth_bytes_per_hour("db_bytes"),
                                "frame_bytes_per_event_hour": result.growth_bytes_per_hour("frame_bytes")}
        args.json.write_text(json.dumps(out, indent=1))
    return 0 if not any(result.lost.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
