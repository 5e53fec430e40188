"""Timing of the simulation on this machine: scene build (cold and warm caches), physics step, render and
skills, as medians over several fresh processes (a build is only cold or warm in a new process).

    python -m memory_node.sim.bench                       # small_home, warm caches, 3 runs
    python -m memory_node.sim.bench --scene TestScene1 --runs 3
    python -m memory_node.sim.bench --cold --runs 3      # moves the compile caches aside for each run

``--cold`` moves ``~/.cache/genesis``, ``~/.cache/quadrants`` and our URDF cache to a temporary folder for
each run and puts them back afterwards (nothing is deleted).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

CACHE_DIRS = (Path.home() / ".cache" / "genesis", Path.home() / ".cache" / "quadrants",
              Path.home() / ".cache" / "memory_node" / "sim_urdf")
SMALL_SKILLS: list[tuple[str, list[str]]] = [
    ("navigate_to", ["fridge_289"]), ("open", ["fridge_289"]), ("pick", ["salmon_311"]),
    ("close", ["fridge_289"]), ("navigate_to", ["kitchentable_226"]), ("place", ["salmon_311", "kitchentable_226"]),
    ("navigate_to", ["cabinet_399"]), ("open", ["cabinet_399"]), ("navigate_to", ["livingroom_319"]),
]


def measure(scene: str, steps: int = 200, renders: int = 20) -> dict[str, Any]:
    """One process: build, then time steps, renders, a scene-graph observation and skills."""
    t0 = time.perf_counter()
    import genesis  # noqa: F401  (import cost reported on its own)

    import_s = time.perf_counter() - t0
    from memory_node.sim.scene_spec import shipped_scene
    from memory_node.sim.world import SimWorld

    path = Path(scene) if Path(scene).is_file() else shipped_scene(scene)
    world = SimWorld(path)
    out: dict[str, Any] = {"scene": path.stem, "import_s": import_s, "build_s": world.build_seconds,
                           "scene_build_s": world.compile_seconds, "bodies": len(world.state.bodies)}
    world.step(20)
    t = time.perf_counter()
    world.step(steps)
    out["step_ms"] = (time.perf_counter() - t) / steps * 1e3
    world.render()
    t = time.perf_counter()
    for _ in range(renders):
        world.render()
    out["render_ms"] = (time.perf_counter() - t) / renders * 1e3
    t = time.perf_counter()
    for _ in range(renders):
        world.render(segmentation=True)
    out["render_seg_ms"] = (time.perf_counter() - t) / renders * 1e3
    t = time.perf_counter()
    world.observe(0)
    out["observe_ms"] = (time.perf_counter() - t) * 1e3
    skills = SMALL_SKILLS if path.stem == "small_home" else [("navigate_to", [r.id]) for r in world.spec.rooms]
    times: dict[str, list[float]] = {}
    for skill, args in skills:
        outcome = world.execute(skill, args)
        times.setdefault(skill, []).append(outcome.duration_s * 1e3)
    out["skill_ms"] = {k: statistics.median(v) for k, v in times.items()}
    return out


def _child(scene: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "memory_node.sim.bench", "--child", scene],
                          capture_output=True, text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"benchmark run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1])


def _run(scene: str, cold: bool) -> dict[str, Any]:
    if not cold:
        return _child(scene)
    with tempfile.TemporaryDirectory(prefix="sim_bench_caches_") as tmp:
        moved = []
        for i, d in enumerate(CACHE_DIRS):
            if d.exists():
                dst = Path(tmp) / str(i)
                shutil.move(str(d), dst)
                moved.append((dst, d))
        try:
            return _child(scene)
        finally:
            # put the user's caches back as they were; the cold run's fresh caches are dropped
            for dst, d in moved:
                if d.exists():
                    shutil.rmtree(d)
                shutil.move(str(dst), d)


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memory_node.sim.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default="small_home", help="shipped scene name or a scene file")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="empty compile caches for each run")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child)))
        return 0
    if not args.cold:
        _child(args.scene)  # one run to make the caches warm
    runs = [_run(args.scene, args.cold) for _ in range(args.runs)]
    kind = "cold" if args.cold else "warm"
    print(f"{runs[0]['scene']}: {runs[0]['bodies']} bodies, median of {len(runs)} runs, {kind} caches, "
          f"{os.cpu_count()} CPUs")
    for key, label in (("import_s", "import genesis [s]"), ("build_s", "SimWorld build [s]"),
                       ("scene_build_s", "  of it scene.build [s]"), ("step_ms", "physics step [ms]"),
                       ("render_ms", "render RGB+depth [ms]"), ("render_seg_ms", "  + segmentation [ms]"),
                       ("observe_ms", "observe (scene graph) [ms]")):
        print(f"  {label:28s} {_median(runs, key):8.2f}   runs: {', '.join(f'{r[key]:.2f}' for r in runs)}")
    for skill in runs[0]["skill_ms"]:
        print(f"  skill {skill:22s} {statistics.median(r['skill_ms'][skill] for r in runs):8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
