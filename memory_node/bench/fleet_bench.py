"""Fleet memory: 1, 2 and 4 robots writing at once into one PostgreSQL database against one SQLite file per
robot (issue 21).

    python -m memory_node.bench.fleet_bench [--seconds 10] [--rate 10] [--entities 20] [--writers 1,2,4]

Each robot is a process with its own store that sends scene graphs of ``--entities`` objects (a few of them
moved each time, as a robot walking through a room sees) at ``--rate`` Hz, paced by the clock (0 = as fast
as it can: the capacity). While they write, this process reads as a request does (an entity's state, a
label's entities, a lexical search) through a read-only store, on the first robot's file for SQLite and on
the shared database for PostgreSQL, and times every read. At the end every robot's messages are counted in
memory: "lost" is sent minus stored. The PostgreSQL server is a throwaway cluster started here (fsync off,
as in the tests: these figures measure the engine and the server, not the disk).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import queue
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from memory_node.core.models import EntityObservation, RelationObservation, SceneGraphObservation
from memory_node.core.retrieval import Retriever
from memory_node.core.store import MemoryStore

S = 1_000_000_000
T0 = 1_700_000_000 * S
LABELS = ("mug", "plate", "book", "cup", "bowl", "apple", "remote", "phone")


def scene_graph(robot: int, k: int, entities: int, rng: random.Random) -> SceneGraphObservation:
    room = f"room_{robot}"
    ents = [EntityObservation(id="table_1", label="table", room=room, position={"x": 0.0, "y": 0.0, "z": 0.4})]
    rels = []
    for i in range(entities - 1):
        moved = rng.random() < 0.1  # about one in ten objects seen somewhere else than last time
        x = (i % 10) * 0.5 + (rng.uniform(0.1, 0.3) if moved else 0.0)
        ents.append(EntityObservation(id=f"{LABELS[i % len(LABELS)]}_{i}", label=LABELS[i % len(LABELS)], room=room,
                                      position={"x": x, "y": (i // 10) * 0.5, "z": 0.8}))
        rels.append(RelationObservation(subject=f"{LABELS[i % len(LABELS)]}_{i}", predicate="on", object="table_1"))
    return SceneGraphObservation(stamp_ns=T0 + k * (S // 10), source=f"robot_{robot}", room=room, entities=ents,
                                 relations=rels)


def writer(target: str, robot: int, seconds: float, rate: float, entities: int, start_at: float, out) -> None:
    store = MemoryStore(target, robot=f"r{robot}", id_namespace=f"r{robot}")
    rng = random.Random(robot)
    graphs = [scene_graph(robot, k, entities, rng) for k in range(int(seconds * (rate or 200)) + 1)]
    while time.time() < start_at:
        time.sleep(0.001)
    sent, latencies, failed = 0, [], 0
    began = time.monotonic()
    for k, g in enumerate(graphs):
        if rate:
            due = began + k / rate
            # the clock read once: read twice, it moved past ``due`` between the test and the sleep
            while (left := due - time.monotonic()) > 0:
                time.sleep(min(0.002, left))
        if time.monotonic() - began >= seconds:
            break
        t = time.perf_counter()
        try:
            store.ingest_scene_graph(g)
        except Exception:  # noqa: BLE001 - counted: a message that could not be written is lost to the bench
            failed += 1
        latencies.append(time.perf_counter() - t)
        sent += 1
    elapsed = time.monotonic() - began
    store.close()
    out.put((robot, sent, failed, elapsed, latencies))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_config(backend: str, n: int, args, workdir: Path, cluster) -> dict:
    if backend == "postgresql":
        schema = f"bench_{uuid.uuid4().hex[:8]}"
        import psycopg
        with psycopg.connect(cluster.url(), autocommit=True) as admin:
            admin.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
            admin.execute(f"CREATE SCHEMA {schema}")
        url = cluster.url() + f"&options=-csearch_path%3D{schema},public"
        targets = [url] * n
    else:
        targets = [str(workdir / f"{uuid.uuid4().hex[:8]}_r{i}.db") for i in range(n)]
    for t in dict.fromkeys(targets):  # schema made before the clock starts
        MemoryStore(t, robot="setup").close()
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start_at = time.time() + 3.0  # all writers start together, after their imports
    procs = [ctx.Process(target=writer, args=(targets[i], i, args.seconds, args.rate, args.entities, start_at, out))
             for i in range(n)]
    for p in procs:
        p.start()
    reader = MemoryStore.open_reader(targets[0])
    search = Retriever(reader, semantic=False)
    reads: list[float] = []
    by_kind: dict[str, list[float]] = {"entity": [], "label": [], "search": []}
    while time.time() < start_at:
        time.sleep(0.01)
    k = 0
    while any(p.is_alive() for p in procs) and out.qsize() < n:
        t = time.perf_counter()
        what = k % 3
        if what == 0:
            reader.entity(f"r0/mug_{8 * (k % 3)}")
        elif what == 1:
            reader.entities(label="book")
        else:
            search.search("mug on the table", kind="entities", limit=5)
        reads.append(time.perf_counter() - t)
        by_kind[("entity", "label", "search")[what]].append(reads[-1])
        k += 1
        time.sleep(0.01)  # a request every ~10 ms, not a busy loop that starves the writers
    results = []
    while len(results) < n:
        try:
            results.append(out.get(timeout=1.0))
        except queue.Empty:
            # a writer that died puts nothing: waiting on the queue alone hung the bench for ever
            crashed = [(i, p.exitcode) for i, p in enumerate(procs) if p.exitcode not in (None, 0)]
            if crashed:
                raise RuntimeError(f"{backend}: writer (robot, exit code) {crashed} died") from None
    for p in procs:
        p.join()
    sent = sum(r[1] for r in results)
    failed = sum(r[2] for r in results)
    stored = 0
    for i in range(n):
        check = reader if backend == "postgresql" else MemoryStore.open_reader(targets[i])
        stored += len(check.storage.observation_rows(None, None, "scene_graph", 10**9, robot=f"r{i}"))
        if check is not reader:
            check.close()
    reader.close()
    write_lat = [x for r in results for x in r[4]]
    elapsed = max(r[3] for r in results)
    return {"backend": backend, "writers": n, "sent": sent, "failed": failed, "lost": sent - stored,
            "writes_per_s": sent / elapsed, "write_p50_ms": 1000 * percentile(write_lat, 0.5),
            "write_p99_ms": 1000 * percentile(write_lat, 0.99), "reads": len(reads),
            "read_p50_ms": 1000 * percentile(reads, 0.5), "read_p99_ms": 1000 * percentile(reads, 0.99),
            "read_p99_by_kind_ms": {k: 1000 * percentile(v, 0.99) for k, v in by_kind.items()}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=10.0, help="scene graphs per second per robot (0 = as fast as it can)")
    ap.add_argument("--entities", type=int, default=20)
    ap.add_argument("--writers", default="1,2,4")
    ap.add_argument("--backends", default="sqlite,postgresql")
    args = ap.parse_args(argv)
    from memory_node.core.storage.pg_cluster import ThrowawayCluster

    rows = []
    with tempfile.TemporaryDirectory() as tmp, ThrowawayCluster() as cluster:
        for n in [int(x) for x in args.writers.split(",")]:
            for backend in args.backends.split(","):
                rows.append(run_config(backend, n, args, Path(tmp), cluster))
                r = rows[-1]
                print(f"{r['backend']:>10} {r['writers']} writers: {r['writes_per_s']:7.1f} graphs/s "
                      f"(write p50 {r['write_p50_ms']:.1f} ms, p99 {r['write_p99_ms']:.1f} ms), "
                      f"reads {r['reads']} p50 {r['read_p50_ms']:.2f} ms p99 {r['read_p99_ms']:.2f} ms, "
                      f"sent {r['sent']} lost {r['lost']} failed {r['failed']}; read p99 by kind "
                      + ", ".join(f"{k} {v:.2f}" for k, v in r["read_p99_by_kind_ms"].items()), flush=True)
    print(f"\n{args.entities} entities a graph, {args.rate or 'max'} Hz a robot, {args.seconds:.0f} s")
    print("| backend | robots | graphs/s (all robots) | write p50 / p99 ms | read p50 / p99 ms | sent | lost |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['backend']} | {r['writers']} | {r['writes_per_s']:.1f} | {r['write_p50_ms']:.1f} / "
              f"{r['write_p99_ms']:.1f} | {r['read_p50_ms']:.2f} / {r['read_p99_ms']:.2f} | {r['sent']} | "
              f"{r['lost']} |")


if __name__ == "__main__":
    main()
