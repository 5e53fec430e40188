"""Batched ingest against one transaction per observation, through ``memory_node.Memory``.

    python -m memory_node.bench.batch_bench [--observations 2000] [--repeats 5] [--batch 0,100]

The workload is what a program writing memory itself sends: one sighting per call (an object with its
position, room and what it stands on), 200 objects moving among 20 pieces of furniture, in event-time order,
into a fresh SQLite file (WAL, the store's settings) per run. Each mode runs ``--repeats`` times,
interleaved so machine load hits every mode alike; the table shows the median observations per second and
the speed-up over one transaction per observation, by wall-clock time and by the process's CPU time (the
figure to read on a loaded machine, where wall time mostly measures waiting for a core), and the bytes the
process wrote per observation (``wchar`` of /proc/self/io, Linux: each commit writes its changed pages
to the write-ahead log again; flash storage on a robot wears by it). Batch size 0 = one transaction per observation;
``--batch`` sizes N > 0 wrap every N calls in ``mem.batch()``; "all" wraps the whole run in one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from memory_node.memory import Memory

FURNITURE = 20
OBJECTS = 200


def workload(n: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    calls = [dict(entity_id=f"table_{i}", label="table", position=(i * 1.0, 0.0, 0.0), room=f"room_{i % 4}")
             for i in range(FURNITURE)]
    for k in range(n - FURNITURE):
        f = rng.randrange(FURNITURE)
        calls.append(dict(entity_id=f"mug_{rng.randrange(OBJECTS)}", label="mug",
                          position=(f + rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), 0.8),
                          room=f"room_{f % 4}", on=f"table_{f}"))
    return [dict(c, t=1000.0 + i * 0.1) for i, c in enumerate(calls)]


def written_bytes() -> int:
    """Bytes this process has passed to write calls so far (0 where /proc/self/io is absent)."""
    try:
        for line in Path("/proc/self/io").read_text().splitlines():
            if line.startswith("wchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(calls: list[dict], batch: int | None, folder: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, bytes written) to write ``calls``; batch None = one transaction per call, 0 = all
    in one."""
    with Memory(folder / f"bench_{time.perf_counter_ns()}.db") as mem:
        start, cpu, wrote = time.perf_counter(), time.process_time(), written_bytes()
        if batch is None:
            for c in calls:
                mem.observe(**c)
        else:
            size = batch or len(calls)
            for lo in range(0, len(calls), size):
                with mem.batch():
                    for c in calls[lo:lo + size]:
                        mem.observe(**c)
        seconds = (time.perf_counter() - start, time.process_time() - cpu, written_bytes() - wrote)
        assert mem.store.counts()["observations"] == len(calls)
    return seconds


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--observations", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--batch", default="100,all", help="comma-separated batch sizes (all = one batch)")
    args = ap.parse_args(argv)
    calls = workload(args.observations)
    modes: list[tuple[str, int | None]] = [("one transaction per observation", None)]
    for b in args.batch.split(","):
        b = b.strip()
        if b:
            modes.append((f"batch of {b}" if b != "all" else f"one batch of {len(calls)}",
                          0 if b == "all" else int(b)))
    seconds: dict[str, list[tuple[float, float, int]]] = {name: [] for name, _ in modes}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeats):
            for name, batch in modes:
                seconds[name].append(run(calls, batch, Path(tmp)))
    def med(name: str, i: int) -> float:
        return statistics.median(s[i] for s in seconds[name])

    base = [med(modes[0][0], i) for i in (0, 1)]
    print(f"{len(calls)} observations (facade observe(), file database), median of {args.repeats} runs")
    print(f"{'mode':<34} {'obs/s wall':>10} {'speed-up':>9} {'obs/s CPU':>10} {'speed-up':>9} {'KB/obs':>7}")
    for name, _ in modes:
        wall, cpu, wrote = med(name, 0), med(name, 1), med(name, 2)
        print(f"{name:<34} {len(calls) / wall:>10.0f} {base[0] / wall:>8.2f}x {len(calls) / cpu:>10.0f} "
              f"{base[1] / cpu:>8.2f}x {wrote / len(calls) / 1024:>7.1f}")


if __name__ == "__main__":
    main()
