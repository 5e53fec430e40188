"""Benchmark of the memory engine (in process, real SQLite files): write path, queries at scale, storage.

    scripts/bench_memory.sh [--sizes 1000,100000,1000000] [--quick]

Prints one table. Figures are medians and p99s of repeated operations; each store is a fresh file in a
temporary folder. What is measured:
- ingest: a 300-entity scene graph (the whole VirtualHome apartment, a few objects moved per message),
  10,000 single events (utterances and skill feedback), 640x480 frames (encode + gate + write);
- queries at N entities (with history: every tenth entity moved once): latest location of one entity,
  entities of a label in a room, as-of state of one entity, lexical and semantic retrieval where available;
- storage: database and frame-folder growth for one simulated hour of a 10 Hz room scene graph and a
  1 Hz camera (simulated for a fraction of an hour and scaled);
- compression: raw EPIC-KITCHENS activities of each participant vs the knowledge records consolidated
  from them (routines, habits, preferences).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from memory_node.core.models import (
    EntityObservation,
    FrameObservation,
    Point,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.store import MemoryStore
from memory_node.perception.frames import encode_frame
from memory_node.scenes.virtualhome import load_scene

S = 1_000_000_000
T0 = 1_700_000_000 * S


def _stats(samples_s: list[float]) -> str:
    ms = sorted(x * 1000 for x in samples_s)
    p99 = ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))]
    return f"{statistics.median(ms):.3f} / {p99:.3f}"


def _time(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _apartment_graph(scene, t_ns: int, rng: random.Random, moves: int = 3) -> SceneGraphObservation:
    """All entities of the apartment in one graph; ``moves`` small objects change receptacle."""
    ents = list(scene.entities.values())
    rels = list(scene.relations)
    movable = [i for i, r in enumerate(rels) if r.predicate in ("on", "in")]
    supports = sorted({r.object for r in rels if r.predicate in ("on", "in")})
    for i in rng.sample(movable, min(moves, len(movable))):
        rels[i] = rels[i].model_copy(update={"object": rng.choice(supports)})
    rels = [r for r in rels if r.subject != r.object]
    return SceneGraphObservation(stamp_ns=t_ns, source="bench", room="", complete=False, entities=ents,
                                 relations=rels)


def bench_ingest(tmp: Path, rows: list[tuple[str, str]], quick: bool) -> None:
    scene = load_scene()
    rng = random.Random(0)
    store = MemoryStore(tmp / "ingest.db")
    n_graphs = 50 if quick else 200
    graphs = [_apartment_graph(scene, T0 + i * S // 10, rng) for i in range(n_graphs)]
    store.ingest_scene_graph(graphs[0])
    it = iter(graphs[1:])
    samples = _time(lambda: store.ingest_scene_graph(next(it)), n_graphs - 1)
    n_ent = len(graphs[0].entities)
    rows.append((f"ingest scene graph, {n_ent} entities (3 moved), ms median / p99", _stats(samples)))
    rows.append(("  -> sustainable scene-graph rate (1 / median)", f"{1 / statistics.median(samples):.0f} Hz"))

    n_events = 2000 if quick else 10_000
    counter = iter(range(n_events))

    def one_event() -> None:
        i = next(counter)
        if i % 2:
            store.ingest_utterance(UtteranceObservation(stamp_ns=T0 + i, speaker="alex",
                                                        text=f"the {i % 17}th cup goes on shelf {i % 5}"))
        else:
            store.ingest_skill_feedback(SkillFeedbackObservation(
                stamp_ns=T0 + i, robot="vega", skill="pick", args=[f"cup_{i % 50}"], target_id=f"cup_{i % 50}",
                success=i % 10 != 0, status="SUCCESS" if i % 10 else "EXECUTION_FAILURE"))
    samples = _time(one_event, n_events)
    rows.append((f"ingest single event ({n_events} utterances / skill outcomes), ms median / p99", _stats(samples)))

    rng_np = np.random.default_rng(0)
    base = rng_np.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    k = iter(range(10_000))

    def one_frame() -> None:
        i = next(k)
        encoded, thumb = encode_frame(np.roll(base, i * 40, axis=1), "rgb8")
        store.ingest_frame(FrameObservation(stamp_ns=T0 + i, encoded=encoded, thumbnail=thumb, width=640,
                                            height=480, room=f"room_{i % 4}"))
    samples = _time(one_frame, 30 if quick else 100)
    rows.append(("ingest 640x480 frame (JPEG encode + gate + write), ms median / p99", _stats(samples)))
    rows.append(("  -> sustainable frame rate (1 / median)", f"{1 / statistics.median(samples):.0f} Hz"))
    store.close()


_LABELS = ("mug", "cup", "plate", "book", "apple", "remote", "pillow", "towel", "bottle", "glass", "fork",
           "knife", "bowl", "phone", "keys", "lamp", "box", "shoe", "toy", "vase")


def build_store(path: Path, n: int) -> tuple[MemoryStore, list[str], int]:
    """n entities in 50 rooms, each on a shelf; every tenth later moved. Returns (store, ids, t_mid)."""
    store = MemoryStore(path)
    ids: list[str] = []
    batch = 1000
    shelves = [f"shelf_{r}" for r in range(50)]
    t = T0
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=t, entities=[
        EntityObservation(id=s, label="shelf", room=f"room_{i}", position=Point(x=i, y=0, z=0))
        for i, s in enumerate(shelves)]))
    for start in range(0, n, batch):
        t += S
        ents, rels = [], []
        for i in range(start, min(n, start + batch)):
            eid = f"{_LABELS[i % len(_LABELS)]}_{i}"
            ids.append(eid)
            room = i % 50
            ents.append(EntityObservation(id=eid, label=_LABELS[i % len(_LABELS)], room=f"room_{room}",
                                          position=Point(x=room, y=i % 7, z=1.0),
                                          attributes={"color": ("red", "blue", "green", "white")[i % 4]}))
            rels.append(RelationObservation(subject=eid, predicate="on", object=shelves[room]))
        store.ingest_scene_graph(SceneGraphObservation(stamp_ns=t, entities=ents, relations=rels))
    t_mid = t + S // 2
    for start in range(0, n, batch * 10):
        t += S
        moved = ids[start:start + batch * 10:10]
        store.ingest_scene_graph(SceneGraphObservation(stamp_ns=t, entities=[], relations=[
            RelationObservation(subject=e, predicate="on", object=shelves[(j * 7) % 50])
            for j, e in enumerate(moved)]))
    return store, ids, t_mid


def bench_queries(tmp: Path, sizes: list[int], rows: list[tuple[str, str]], quick: bool) -> None:
    try:
        from memory_node.core.retrieval import Retriever  # added with the retrieval pipeline
    except ImportError:
        Retriever = None  # noqa: N806
    reps = 200 if quick else 1000
    for n in sizes:
        t0 = time.perf_counter()
        store, ids, t_mid = build_store(tmp / f"q{n}.db", n)
        build_s = time.perf_counter() - t0
        rng = random.Random(1)
        rows.append((f"[{n:,} entities] build (ingest) time, s", f"{build_s:.1f}"))
        rows.append((f"[{n:,}] latest location of one entity, ms median / p99",
                     _stats(_time(lambda: store.entity(rng.choice(ids)).location, reps))))
        rows.append((f"[{n:,}] as-of state of one entity, ms median / p99",
                     _stats(_time(lambda: store.entity(rng.choice(ids[::10]), as_of_ns=t_mid), reps))))
        rows.append((f"[{n:,}] relations of one entity as of t, ms median / p99",
                     _stats(_time(lambda: store.relations(subject=rng.choice(ids), as_of_ns=t_mid), reps))))
        rows.append((f"[{n:,}] entities of one label in one room, ms median / p99",
                     _stats(_time(lambda: store.entities(label=rng.choice(_LABELS),
                                                          room=f"room_{rng.randrange(50)}"), reps // 10))))
        if Retriever is not None:
            retriever = Retriever(store)
            rows.append((f"[{n:,}] lexical search 'blue mug', ms median / p99",
                         _stats(_time(lambda: retriever.search("blue mug", limit=12), max(20, reps // 20)))))
            # 'blue mug' names a label, whose exact matches fill the result; 'blue' (a quarter of the
            # entities) is ranked by BM25 alone
            rows.append((f"[{n:,}] lexical search 'blue' (BM25 over every match), ms median / p99",
                         _stats(_time(lambda: retriever.search("blue", limit=12), max(20, reps // 20)))))
            try:
                retriever.search("something to drink from", limit=12)  # loads the model once
                rows.append((f"[{n:,}] semantic search 'something to drink from', ms median / p99",
                             _stats(_time(lambda: retriever.search("something to drink from", limit=12), 20))))
            except Exception as err:  # noqa: BLE001 - report, do not abort the benchmark
                rows.append((f"[{n:,}] semantic search", f"unavailable: {err}"))
        size = sum(f.stat().st_size for f in tmp.glob(f"q{n}.db*"))
        rows.append((f"[{n:,}] database size, MB", f"{size / 1e6:.0f}"))
        store.close()


def bench_storage(tmp: Path, rows: list[tuple[str, str]], quick: bool) -> None:
    """10 Hz complete graphs of one room (a few changes a minute) and 1 Hz camera frames."""
    scene = load_scene()
    room = max(scene.rooms, key=lambda r: sum(e.room == r for e in scene.entities.values()))
    from memory_node.scenes.virtualhome import room_graph

    store = MemoryStore(tmp / "hour.db", frame_dir=tmp / "hour_frames")
    seconds = 60 if quick else 300
    rng = random.Random(2)
    rng_np = np.random.default_rng(2)
    views = [rng_np.integers(0, 255, (480, 640, 3), dtype=np.uint8) for _ in range(8)]
    base = room_graph(scene, room, T0)
    movable = [i for i, r in enumerate(base.relations) if r.predicate in ("on", "in")]
    supports = sorted({r.object for r in base.relations})
    rels = list(base.relations)
    t0 = time.perf_counter()
    for step in range(seconds * 10):
        t = T0 + step * S // 10
        if step % 100 == 0 and movable:  # something moves every 10 s
            i = rng.choice(movable)
            rels[i] = rels[i].model_copy(update={"object": rng.choice([s for s in supports
                                                                       if s != rels[i].subject])})
        store.ingest_scene_graph(base.model_copy(update={"stamp_ns": t, "relations": rels}))
        if step % 10 == 0:  # 1 Hz camera; the robot looks around: a new view every few seconds
            view = views[(step // 50) % len(views)]
            encoded, thumb = encode_frame(view, "rgb8")
            store.ingest_frame(FrameObservation(stamp_ns=t, encoded=encoded, thumbnail=thumb, width=640,
                                                height=480, room=room), visible=[])
    wall = time.perf_counter() - t0
    store.storage.checkpoint()
    db = sum(f.stat().st_size for f in tmp.glob("hour.db*"))
    frames = sum(f.stat().st_size for f in (tmp / "hour_frames").glob("*"))
    scale = 3600 / seconds
    n_frames = store.counts()["frames"]
    rows.append((f"storage: {len(base.entities)}-entity room graph at 10 Hz + 1 Hz camera, simulated {seconds} s "
                 f"({wall:.0f} s wall)", ""))
    rows.append(("  database growth per hour, MB", f"{db * scale / 1e6:.1f}"))
    # (the views are uniform noise: a storage figure, not the gate's; memory_node/bench/frame_gate.py
    # measures the gate on rendered frames)
    rows.append(("  frames admitted per hour (noise views, storage only) / frame files per hour, MB",
                 f"{n_frames * scale:.0f} / {frames * scale / 1e6:.1f}"))
    store.close()


def bench_compression(tmp: Path, rows: list[tuple[str, str]], quick: bool) -> None:
    """Raw activity observations vs consolidated knowledge records, per EPIC-KITCHENS participant."""
    import csv

    from memory_node.core.consolidation import run_consolidation
    from memory_node.scenes.epic_kitchens import _annotation_paths, default_data_dir, load_participant

    data = default_data_dir()
    if not data.exists():
        rows.append(("compression (EPIC-KITCHENS)", f"skipped: no data at {data}"))
        return
    participants: set[str] = set()
    for path in _annotation_paths(data):
        with open(path, newline="") as f:
            participants |= {r["participant_id"] for r in csv.DictReader(f)}
    chosen = sorted(participants)[:4] if quick else sorted(participants)
    raw = kept = 0
    ratios = []
    for who in chosen:
        store = MemoryStore(tmp / f"epic_{who}.db")
        acts = load_participant(who, data)
        for a in acts:
            store.ingest_activity(a)
        run = run_consolidation(store, force=True)
        n_kept = run.records if run else 0
        raw += len(acts)
        kept += n_kept
        if n_kept:
            ratios.append(len(acts) / n_kept)
        store.close()
    rows.append((f"compression: EPIC-KITCHENS, {len(chosen)} participants, raw activities -> knowledge records",
                 f"{raw:,} -> {kept:,} ({raw / max(kept, 1):.1f}x overall, median {statistics.median(ratios):.1f}x)"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000,1000000", help="entity counts for the query tables")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: ingest,queries,storage,compression")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="memory_bench_") as d:
        tmp = Path(d)
        if "ingest" not in skip:
            bench_ingest(tmp, rows, args.quick)
        if "queries" not in skip:
            bench_queries(tmp, [int(s) for s in args.sizes.split(",") if s], rows, args.quick)
        if "storage" not in skip:
            bench_storage(tmp, rows, args.quick)
        if "compression" not in skip:
            bench_compression(tmp, rows, args.quick)
    w = max(len(k) for k, _ in rows)
    print("memory_node memory-engine benchmark (medians and p99 in ms unless stated)")
    for k, v in rows:
        print(f"  {k.ljust(w)}  {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
