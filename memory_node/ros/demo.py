"""The main job on its embedded default: a real VirtualHome apartment experienced over ROS, then asked.

Starts the installed memory node (its own process, real DDS on this machine), publishes a scripted
experience built from the shipped VirtualHome apartment (a tour of every room, the mug moved into a closed
cabinet, a failed open of a locked container, a user statement), waits on ``~/sync`` until all of it is
ingested, then asks questions and requests over ``~/ask`` and ``~/plan`` and prints a table. Finally it
restarts the node and asks again, to show that memory survives a restart.

    memory_demo [--robot vega|g1] [--database PATH] [--keep]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from memory_node.scenes.experience import demo_experience, demo_requests, move_stamp_ns
from memory_node.scenes.virtualhome import load_scene

SECOND_NS = 1_000_000_000


def _publish(client, steps) -> None:
    for step in steps:
        p = step.payload
        if step.kind == "scene_graph":
            client.publish_scene_graph(p)
        elif step.kind == "skill_feedback":
            client.publish_skill_feedback(p)
        else:
            client.publish_utterance(p)


def _run_requests(client, requests, robot: str) -> list[tuple[str, str, bool, float]]:
    rows = []
    for req in requests:
        t0 = time.perf_counter()
        if req.kind == "ask":
            r = client.ask(req.text)
            ms = (time.perf_counter() - t0) * 1000
            reply = r.answer if r.success else f"error: {r.error}"
            ids = list(r.answer_ids) + list(r.evidence_ids)
            ok = req.check(r.success, list(r.answer_ids) or ids, r.answer)
        else:
            r = client.plan(req.text, robot=robot)
            ms = (time.perf_counter() - t0) * 1000
            if r.success:
                reply = " -> ".join(f"{s.skill}({', '.join(s.args)})" for s in r.plan.steps)
                ids = [a for s in r.plan.steps for a in s.args]
            else:
                reply, ids = f"refused: {r.error}", []
            ok = req.check(r.success, ids, reply)
        rows.append((req.text, reply, ok, ms))
    return rows


def _print_table(title: str, rows) -> None:
    print(f"\n{title}")
    w = max(len(r[0]) for r in rows)
    print(f"  {'request'.ljust(w)}  ok    ms  reply")
    for text, reply, ok, ms in rows:
        print(f"  {text.ljust(w)}  {'PASS' if ok else 'FAIL'} {ms:5.1f}  {reply}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--robot", default="vega", choices=("vega", "g1"))
    parser.add_argument("--database", default="", help="SQLite file (default: a fresh temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary database and print its path")
    parser.add_argument("--log", default="", help="write the node's log here (default: a temp file)")
    args = parser.parse_args(argv)

    import rclpy
    from rclpy.signals import SignalHandlerOptions

    from memory_node.ros.client import MemoryClient
    from memory_node.ros.process import NodeProcess, private_namespace

    tmp = tempfile.mkdtemp(prefix="memory_demo_")
    db = Path(args.database) if args.database else Path(tmp) / "memory.db"
    log_path = Path(args.log) if args.log else Path(tmp) / "node.log"
    scene = load_scene()
    start_ns = 1_700_000_000 * SECOND_NS  # the experience keeps its own (replayed) timeline
    steps = demo_experience(scene, start_ns)
    requests = demo_requests(scene)
    print(f"memory_node demo: VirtualHome {scene.name} ({len(scene.rooms)} rooms, {len(scene.entities)} "
          f"entities), robot {args.robot}, memory {db}")

    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)  # run_program handles signals
    failures = 0
    client = node = None
    try:
        with open(log_path, "w") as log:
            t0 = time.perf_counter()
            ns = private_namespace("memory_demo")  # another run's node on this machine must not answer ours
            node = NodeProcess(args.robot, log=log, namespace=ns, database_path=str(db))
            client = MemoryClient(node_name=f"{ns}/memory_node", namespace=ns)
            client.wait_for_node(timeout=60, alive=node.alive)
            print(f"node up in {time.perf_counter() - t0:.1f} s")
            t0 = time.perf_counter()
            _publish(client, steps)
            client.sync(timeout=60)
            print(f"experience: {len(steps)} messages published and ingested in "
                  f"{time.perf_counter() - t0:.2f} s (mug moved at t+{(move_stamp_ns(steps) - start_ns) / 1e9:.0f} s)")
            rows = _run_requests(client, requests, args.robot)
            _print_table("requests", rows)
            failures += sum(not r[2] for r in rows)

            before = client.ask("where is the mug?", as_of_ns=move_stamp_ns(steps) - 1)
            print(f"\nas of just before the move: {before.answer}")
            plans = len(client.plans)

            node.stop()
            node = NodeProcess(args.robot, log=log, namespace=ns, database_path=str(db))
            client.wait_for_node(timeout=60, alive=node.alive)
            rows = _run_requests(client, requests, args.robot)
            _print_table("after restarting the node (same database)", rows)
            failures += sum(not r[2] for r in rows)
            node.stop()
            client.spin(0.2)
            print(f"\nplans published on ~/plans: {plans}; node log: {log_path}")
    finally:
        if node is not None:
            node.stop()  # (a no-op once stopped; stops it when a signal or an error came first)
        if client is not None:
            client.close()
        if rclpy.ok():
            rclpy.shutdown()
    total = 2 * len(requests)
    print(f"demo: {total - failures} passed, {failures} failed")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    from memory_node.ros.shutdown import run_program

    sys.exit(run_program("memory_demo", main))
