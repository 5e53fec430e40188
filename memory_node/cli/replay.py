"""A rosbag2 recording (a bag folder, or one .mcap / .db3 file) ingested into a memory database exactly as
the node would have ingested it live: each message goes through the node's own input code
(ros/ingest.py: limits, conversions, store), keeps its header stamp as event time (an unstamped one gets
the time it was recorded), and a message the node would reject is rejected and counted here too. After the
last message, knowledge is consolidated and the params file's retention applied, as the node does on its
timers. Topics are matched to the node's inputs by name (``/scene_graph``, ``/g1/camera/image_raw``, ...);
``--remap /my/graphs:=scene_graph`` maps others. Needs the colcon build (the message classes), not a
running ROS graph; stop a node that has the same database open.

  memory-node replay BAG --db memory.db                 # as fast as it ingests
  memory-node replay BAG --db memory.db --rate 1        # at recorded speed (2 = twice as fast)
  memory-node replay BAG --db memory.db --robot g1 --params my_g1.yaml --topic /scene_graph
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from memory_node.cli.common import CliError, format_time, need

NS = 1_000_000_000


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("bag", help="rosbag2 folder, or a .mcap / .db3 storage file")
    p.add_argument("--db", required=True, help="memory database to ingest into (created if missing)")
    p.add_argument("--robot", default="vega", help="robot whose params file applies (config/<robot>.yaml)")
    p.add_argument("--params", default="", help="params file instead of config/<robot>.yaml")
    p.add_argument("--rate", type=float, default=0.0,
                   help="play at this multiple of recorded speed (1 = real time); 0 = as fast as possible")
    p.add_argument("--topic", action="append", default=None, help="only these bag topics (repeatable)")
    p.add_argument("--remap", action="append", default=[], metavar="TOPIC:=INPUT",
                   help="feed bag TOPIC to the node input INPUT (e.g. /perception/graph:=scene_graph)")
    p.add_argument("--quiet", action="store_true", help="only the summary line")


def _config_dir() -> Path:
    here = Path(__file__).resolve().parents[2] / "config"
    if here.is_dir():
        return here
    from ament_index_python.packages import get_package_share_directory

    return Path(get_package_share_directory("memory_node")) / "config"


def load_params(robot: str, params_file: str = "") -> dict[str, Any]:
    """The node's parameters from a ROS params file (``/**`` or ``memory_node`` section), flattened to the
    dotted names the node declares (``limits.max_text_length``)."""
    path = Path(params_file) if params_file else _config_dir() / f"{robot}.yaml"
    if not path.is_file():
        raise CliError(f"no params file {path}" + ("" if params_file else f" (is {robot!r} a robot?)"))
    doc = yaml.safe_load(path.read_text()) or {}
    section = next((v["ros__parameters"] for k, v in doc.items()
                    if isinstance(v, dict) and "ros__parameters" in v and k.strip("/") in ("**", "memory_node")),
                   None)
    if section is None:
        raise CliError(f"{path}: no '/**' or 'memory_node' section with ros__parameters")

    def flatten(d: dict, prefix: str = "") -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in d.items():
            out.update(flatten(v, f"{prefix}{k}.") if isinstance(v, dict) else {f"{prefix}{k}": v})
        return out

    return flatten(section)


def input_for_topic(topic: str, remaps: dict[str, str]) -> str | None:
    """The node input a bag topic feeds: a remap, else the input whose relative topic name ends it
    (longest first, so /camera/image_raw/compressed is not taken for /camera/image_raw)."""
    from memory_node.ros.ingest import INPUT_TOPICS

    by_topic = {rel: name for name, (rel, _) in INPUT_TOPICS.items()}
    if topic in remaps:
        return by_topic.get(remaps[topic].strip("/"))
    for rel in sorted(by_topic, key=len, reverse=True):
        if topic == f"/{rel}" or topic.endswith(f"/{rel}"):
            return by_topic[rel]
    return None


@dataclass
class ReplayReport:
    messages: Counter = field(default_factory=Counter)   # per input
    rejected: Counter = field(default_factory=Counter)   # per input, whole messages and dropped parts
    skipped: dict[str, str] = field(default_factory=dict)  # bag topic -> why it was not replayed
    errors: list[str] = field(default_factory=list)
    frames_admitted: int = 0
    first_ns: int | None = None
    last_ns: int | None = None
    seconds: float = 0.0
    knowledge: int = 0


def replay(bag_path: str | Path, db_path: str | Path, params: dict[str, Any], rate: float = 0.0,
           topics: list[str] | None = None, remaps: dict[str, str] | None = None,
           log=print) -> ReplayReport:
    """Ingest the bag into the database; returns what happened. Never stops at a bad message."""
    from memory_node.ros.bag import BagReader
    from memory_node.ros.ingest import open_store

    remaps = remaps or {}
    report = ReplayReport()
    with BagReader(bag_path) as bag:  # opened first: a path that is no recording creates no database
        store = open_store(db_path, params)
        try:
            _replay_into(bag, store, params, report, rate, topics, remaps, log)
        finally:
            store.close()
    return report


def _replay_into(bag, store, params: dict[str, Any], report: ReplayReport, rate: float,
                 topics: list[str] | None, remaps: dict[str, str], log) -> None:
    from memory_node.core.consolidation import run_consolidation
    from memory_node.core.models import InvalidInput
    from memory_node.ros.bag import _normalised, to_ros
    from memory_node.ros.ingest import INPUT_TOPICS, InputIngestor

    clock = {"now": 0}

    def rejected_part(name: str, reason: str) -> None:
        report.rejected[name] += 1
        report.errors.append(f"{name}: {reason}")

    ingest = InputIngestor(store, params, now_ns=lambda: clock["now"], on_rejected_part=rejected_part)
    handlers = ingest.handlers()
    routes: dict[str, str] = {}
    for topic, (msgtype, _) in bag.topics.items():
        if topics is not None and topic not in topics:
            continue
        name = input_for_topic(topic, remaps)
        if name is None:
            report.skipped[topic] = "not an input of the node (see --remap)"
        elif _normalised(msgtype) != INPUT_TOPICS[name][1]:
            report.skipped[topic] = f"{msgtype} is not the {INPUT_TOPICS[name][1]} of input {name}"
        else:
            routes[topic] = name
    for topic, why in report.skipped.items():
        log(f"skipping {topic}: {why}")
    start_wall = time.perf_counter()
    for m in bag.messages(list(routes), skip_broken=True):
        if report.first_ns is None:
            report.first_ns = m.log_time_ns
        report.last_ns = m.log_time_ns
        if rate > 0:
            due = start_wall + (m.log_time_ns - report.first_ns) / NS / rate
            time.sleep(max(0.0, due - time.perf_counter()))
        name = routes[m.topic]
        clock["now"] = m.log_time_ns
        report.messages[name] += 1
        if m.message is None:  # a broken payload: rejected like one the node could not take
            report.rejected[name] += 1
            report.errors.append(f"{name}: {m.error}")
            continue
        try:
            handlers[name](to_ros(m.message))
        except InvalidInput as err:
            report.rejected[name] += 1
            report.errors.append(f"{name}: {err}")
        except Exception as err:  # noqa: BLE001 - like the node: one message never ends the replay
            report.rejected[name] += 1
            report.errors.append(f"{name}: internal error: {type(err).__name__}: {err}")
    report.seconds = time.perf_counter() - start_wall
    # what the node's timers do meanwhile: consolidate knowledge, apply retention
    run = run_consolidation(store)
    report.knowledge = run.records if run is not None else 0
    store.apply_retention(int(params["retention.frames_per_room"]),
                          int(float(params["retention.max_frame_age_s"]) * NS))
    report.frames_admitted = ingest.frames_admitted


def run(args: argparse.Namespace) -> int:
    remaps = {}
    for r in args.remap:
        if ":=" not in r:
            raise CliError(f"--remap {r!r}: write TOPIC:=INPUT")
        src, dst = r.split(":=", 1)
        remaps[src] = dst
    params = load_params(args.robot, args.params)
    need("rosbags", "replay")
    try:
        import memory_node.msg  # noqa: F401  (generated by the colcon build)
    except ImportError:
        raise CliError("replay needs the package's message classes: run scripts/setup.sh, then "
                       "source scripts/env.sh") from None
    if not Path(args.bag).exists():
        raise CliError(f"no bag at {args.bag}")
    if Path(args.db).exists() and not Path(args.db).is_file():
        raise CliError(f"--db {args.db} is not a file")
    try:
        report = replay(args.bag, args.db, params, rate=args.rate, topics=args.topic, remaps=remaps,
                        log=(lambda *a: None) if args.quiet else print)
    except ValueError as err:
        raise CliError(str(err)) from None
    total = sum(report.messages.values())
    rejected = sum(report.rejected.values())
    if not args.quiet:
        for name, n in sorted(report.messages.items()):
            print(f"  {name}: {n} messages" + (f", {report.rejected[name]} rejected" if report.rejected[name] else ""))
        for e in report.errors[:10]:
            print(f"  rejected {e}")
    print(f"replayed {total} messages ({format_time(report.first_ns)} .. {format_time(report.last_ns)}) into "
          f"{args.db} in {report.seconds:.2f} s: {rejected} rejected, {report.frames_admitted} frames admitted, "
          f"{report.knowledge} knowledge records")
    return 0
