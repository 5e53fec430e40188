"""Replay one EPIC-KITCHENS-100 participant's annotated actions into the memory node as Activity messages.

What a person did in their kitchen over days of egocentric video (EPIC-KITCHENS-100, CC BY-NC 4.0: see
memory_node/scenes/epic_kitchens.py), published in time order on the node's ``activity`` topic with each
action's start time as the header stamp (the participant's videos one after another on one timeline). After
``~/sync`` confirms every message was ingested, it shows what memory consolidated: routines, habits and
preferences from ``~/query`` and answers to a few questions over ``~/ask``.

    scripts/replay_epic.sh P03                     # starts its own node on a temporary memory
    scripts/replay_epic.sh P03 --node /memory_node  # into a node already running (scripts/run_node.sh)
    python -m memory_node.ros.replay_epic P20 --videos 2 --data /path/to/epic_kitchens_100
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from memory_node.scenes.epic_kitchens import SECOND_NS, load_participant

SYNC_EVERY = 500  # messages between ~/sync calls: progress, and a bounded backlog in the node


def _questions(participant: str, client) -> list[str]:
    """A few questions this participant's memory can answer (from what it consolidated)."""
    qs = [f"how does {participant} usually wash up?"]
    habits = client.query(store="habits", entity_id=participant, limit=1).records
    if habits:
        after = json.loads(habits[0].json)["steps"][0].replace("-", " ")
        qs.append(f"what does {participant} usually do after {after}?")
    prefs = [r for r in client.query(store="preferences", entity_id=participant, limit=1000).records
             if json.loads(r.json)["data"].get("preference") == "receptacle"]
    if prefs:
        qs.append(f"where does {participant} usually put the {json.loads(prefs[0].json)['steps'][0]}?")
    return qs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("participant", help="EPIC-KITCHENS participant id, e.g. P03")
    parser.add_argument("--data", default="", help="EPIC-KITCHENS-100 annotations folder (default: "
                        "$EPIC_KITCHENS_DIR or ../shared/data/epic_kitchens_100 beside the repository)")
    parser.add_argument("--videos", type=int, default=None, help="only the participant's first N videos")
    parser.add_argument("--limit", type=int, default=0, help="only the first N actions (0 = all)")
    parser.add_argument("--raw", action="store_true", help="parsed verbs/nouns instead of EPIC's class keys")
    parser.add_argument("--rate", type=float, default=0.0, help="messages per second (0 = as fast as ingested)")
    parser.add_argument("--node", default="", help="name of a running memory node (e.g. /memory_node); "
                        "default: start one on --database")
    parser.add_argument("--robot", default="vega", choices=("vega", "g1"), help="robot of a started node")
    parser.add_argument("--database", default="", help="memory of a started node (default: temporary)")
    parser.add_argument("--show", type=int, default=5, help="knowledge records to print per store")
    args = parser.parse_args(argv)

    acts = load_participant(args.participant, args.data or None, raw=args.raw, max_videos=args.videos)
    if args.limit:
        acts = acts[:args.limit]
    if not acts:
        print(f"no annotated actions for participant {args.participant!r}", file=sys.stderr)
        return 1

    import rclpy
    from rclpy.signals import SignalHandlerOptions

    from memory_node.ros.client import MemoryClient
    from memory_node.ros.process import NodeProcess, private_namespace

    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)  # run_program handles signals
    node = None
    client = None
    log = None
    try:
        if args.node:
            client = MemoryClient(node_name=args.node)
            client.wait_for_node(timeout=30)
        else:
            tmp = Path(tempfile.mkdtemp(prefix="memory_epic_"))
            db = Path(args.database) if args.database else tmp / "memory.db"
            log = open(tmp / "node.log", "w")
            ns = private_namespace("replay_epic")  # another run's node on this machine must not answer ours
            node = NodeProcess(args.robot, log=log, namespace=ns, database_path=str(db))
            print(f"started memory node on {db} (log {tmp / 'node.log'})")
            client = MemoryClient(node_name=f"{ns}/memory_node", namespace=ns)
            client.wait_for_node(timeout=60, alive=node.alive)

        span_s = (acts[-1].stamp_ns - acts[0].stamp_ns) / SECOND_NS
        print(f"replaying {len(acts)} actions of {args.participant} ({span_s / 3600:.1f} h of event time)")
        t0 = time.perf_counter()
        for i, act in enumerate(acts, 1):
            client.publish_activity(act)
            if args.rate > 0:
                time.sleep(max(0.0, t0 + i / args.rate - time.perf_counter()))
            if i % SYNC_EVERY == 0:
                client.sync(timeout=60)
                print(f"  {i} ingested", flush=True)
        client.sync(timeout=60)
        print(f"{len(acts)} activities published and ingested in {time.perf_counter() - t0:.2f} s")

        t0 = time.perf_counter()
        shown = {}
        for store in ("routines", "habits", "preferences"):
            shown[store] = client.query(store=store, entity_id=args.participant, limit=1000).records
        total = sum(len(v) for v in shown.values())
        print(f"consolidated into {total} knowledge records "
              f"({', '.join(f'{len(v)} {k}' for k, v in shown.items())}; {len(acts) / max(total, 1):.0f}:1) "
              f"in {time.perf_counter() - t0:.2f} s")
        for store, records in shown.items():
            print(f"\n{store} (strongest first)")
            for r in records[:args.show]:
                print(f"  {r.text}")
        print("\nquestions")
        for q in _questions(args.participant, client):
            r = client.ask(q)
            print(f"  {q}\n    {r.answer if r.success else 'error: ' + r.error} "
                  f"[confidence {r.confidence:.2f}, {len(r.evidence_ids)} evidence events]")
    finally:
        if client is not None:
            client.close()
        if node is not None:
            node.stop()
        if log is not None:
            log.close()
        if rclpy.ok():
            rclpy.shutdown()
    return 0


if __name__ == "__main__":
    from memory_node.ros.shutdown import run_program

    sys.exit(run_program("replay_epic", main))
