"""Latency of understanding a request, in process: parse (spaCy) and ground (memory lookups) per utterance.

    python -m memory_node.bench.language_bench [--runs 5]

Memory holds a whole VirtualHome apartment (TestScene1, ~330 entities). The utterances are everyday
requests written for this benchmark (not the paraphrase benchmark's). Prints median and p99 in ms for the
parse, the grounding of its object phrases, both together, and the whole request (answer or plan).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import tempfile
import time
from pathlib import Path

from memory_node.core import similarity
from memory_node.core.embedding import single_blas_thread
from memory_node.core.store import MemoryStore
from memory_node.language import Conversation, parse
from memory_node.language.grounding import Grounder
from memory_node.language.uses import default_uses
from memory_node.requests.dispatch import answer_question, known_people, plan_request
from memory_node.planning.skills import SkillLibrary, default_library_path
from memory_node.world.state import WorldState
from memory_node.scenes.virtualhome import default_scene_path, load_scene, room_graphs

UTTERANCES = (
    "where did I put the remote?", "have you seen my phone?", "is the fridge open?", "what's on the kitchen table?",
    "how many books are in the bedroom?", "could you bring me an apple please", "put the mug in the sink",
    "where can I wash my hands?", "go to the bathroom", "which room is the sofa in?", "is there a towel?",
    "what colour is the mug on the desk?", "grab the salmon out of the microwave", "tidy up the folder",
    "when did you last see the cellphone?", "look for the keyboard", "close the microwave",
    "bring me the remote and the cellphone",
)
COMMANDS_START = ("could", "put", "go", "grab", "tidy", "look", "close", "bring")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="passes over the utterances (default 5)")
    ap.add_argument("--no-freeze", dest="freeze", action="store_false",
                    help="leave the start-up objects to the garbage collector (the node freezes them)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore(Path(tmp) / "m.db")
        for g in room_graphs(load_scene(default_scene_path()), 1_700_000_000 * 10**9):
            store.ingest_scene_graph(g)
        library = SkillLibrary.load(default_library_path("vega"))
        names = known_people(store)
        parse("warm up the pipeline")  # loading spaCy and MiniLM is start-up cost, not request cost
        Grounder(store, WorldState.from_store(store)).ground(parse("where is the zorblax?").objects[0])
        # what the node reads on its warm-up thread at start-up (ros/node.py _warm_up_uses)
        default_uses().warm({e.label for e in store.entities()})
        similarity.warm()
        if args.freeze:
            gc.freeze()  # what the node does after start-up (see ros/node.py)
        timings: dict[str, list[float]] = {"parse": [], "ground": [], "parse+ground": [], "request": []}
        with single_blas_thread():
            for _ in range(args.runs):
                for text in UTTERANCES:
                    t0 = time.perf_counter()
                    req = parse(text, names=names)
                    t1 = time.perf_counter()
                    world = WorldState.from_store(store)
                    grounder = Grounder(store, world)
                    for ref in req.objects:
                        grounder.ground(ref)
                    t2 = time.perf_counter()
                    if text.split()[0].lower() in COMMANDS_START:
                        plan_request(store, library, text, conversation=Conversation())
                    else:
                        answer_question(store, text, conversation=Conversation())
                    t3 = time.perf_counter()
                    timings["parse"].append((t1 - t0) * 1e3)
                    timings["ground"].append((t2 - t1) * 1e3)
                    timings["parse+ground"].append((t2 - t0) * 1e3)
                    timings["request"].append((t3 - t2) * 1e3)
        store.close()
    n = len(timings["parse"])
    print(f"memory_node language bench: {len(UTTERANCES)} utterances x {args.runs} runs = {n}, TestScene1 in memory")
    print(f"  {'stage':14s} {'median ms':>10s} {'p99 ms':>8s}")
    for stage, values in timings.items():
        print(f"  {stage:14s} {statistics.median(values):10.1f} {_pct(values, 0.99):8.1f}")
    print("  (ground includes reading the memory snapshot, WorldState.from_store; request = the whole ~/ask or "
          "~/plan call in process, parse included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
