"""The main job on its embedded default: the shipped scenarios, end to end, in Genesis on the CPU.

For each scenario (``config/scenarios``): start the installed memory node (its own process, a fresh
database, real DDS on this machine), let the Genesis bridge live through the scenario's experience in the
simulated home, then send each request to the memory node over ``~/ask`` / ``~/plan``, execute plans
open-loop in the simulator and grade them on the final simulator state. Prints a table per scenario and
writes a few rendered frames.

    sim_demo [--scenario NAME ...] [--out DIR] [--camera WxH] [--perception]

With ``--perception`` memory gets no scene graph from the simulator: a perception node (its own process,
started per scenario beside the memory node) turns the bridge's RGB-D, camera info, camera pose and
segmentation image into the scene graphs memory ingests.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def sim_perception_parameters(scene: str) -> dict[str, object]:
    """The perception node's overrides in the simulator: the scene file is the room layout; the segment
    table's instance keys are the simulator's ids, which scenarios' steps and graders name, so they are the
    entity ids, and a sighting is enough to confirm an object (the renderer's segments are no false
    positives)."""
    from memory_node.sim.scene_spec import shipped_scene

    path = Path(scene) if Path(scene).suffix in (".yaml", ".yml") else shipped_scene(scene)
    return {"rooms_file": str(path), "instance_ids": True, "association.confirm_after": 1, "source": "perception"}


def main(argv: list[str] | None = None) -> int:
    from memory_node.sim.scenario import load_scenario, shipped_scenarios

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", action="append", default=[],
                        help=f"scenario name or path, repeatable (default: all of {', '.join(shipped_scenarios())})")
    parser.add_argument("--out", default="", help="folder for rendered frames (default: a temporary folder)")
    parser.add_argument("--camera", default="320x240", help="head camera resolution WxH")
    parser.add_argument("--perception", action="store_true",
                        help="through the perception node: the bridge publishes camera streams, no scene graphs")
    args = parser.parse_args(argv)
    scenarios = [load_scenario(s) for s in (args.scenario or shipped_scenarios())]
    width, height = (int(v) for v in args.camera.lower().split("x"))
    tmp = Path(tempfile.mkdtemp(prefix="memory_sim_"))
    out = Path(args.out) if args.out else tmp / "frames"

    import rclpy
    from rclpy.signals import SignalHandlerOptions

    from memory_node.ros.client import MemoryClient
    from memory_node.ros.genesis_bridge import SimBridge, build_world, start_genesis
    from memory_node.ros.process import NodeProcess, PerceptionProcess, private_namespace
    from memory_node.ros.sim_scenario import print_report, run_scenario
    from memory_node.ros.shutdown import ShutdownSignals
    from memory_node.sim.progress import building_scene, still_running

    print(f"memory_node sim demo: {len(scenarios)} scenario(s) in Genesis on the CPU, robot vega; "
          f"{'through the perception node' if args.perception else 'perfect perception'}; work folder {tmp}",
          flush=True)
    print(f"order: {', '.join(sc.name for sc in scenarios)}" + ("" if args.scenario else " (smallest scene first)"),
          flush=True)
    signals = ShutdownSignals.install()  # run_program's (an inert one when main() runs off the main thread)
    reports = []
    bridges: dict[str, SimBridge] = {}  # one simulated home (and its publishers) per scene
    t_all = time.perf_counter()
    client = None
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)  # run_program handles signals
    try:
        ns = private_namespace("sim_demo")  # another run's nodes on this machine must not answer ours
        client = MemoryClient(node_name=f"{ns}/memory_node", namespace=ns, client_name="sim_demo")
        for sc in scenarios:
            if sc.scene not in bridges:
                t0 = time.perf_counter()
                print(f"building scene {sc.scene} in Genesis ...", flush=True)
                with still_running(building_scene(sc.scene), emit=lambda line: print(f"  {line}", flush=True)):
                    with signals.deferred():  # its extensions must not be interrupted while they load
                        start_genesis()
                    with signals.insistent():  # Genesis's compiler can swallow a Ctrl-C (shutdown.py)
                        world = build_world(sc.scene, (width, height))
                bridges[sc.scene] = SimBridge(world, client, robot=sc.robot, perception_only=args.perception)
                print(f"scene {sc.scene} built in {time.perf_counter() - t0:.1f} s "
                      f"(Genesis kernels compile on the first build, then come from ~/.cache)")
            bridge = bridges[sc.scene]
            with open(tmp / f"{sc.name}_node.log", "w") as log:
                node = NodeProcess(sc.robot, log=log, namespace=ns, database_path=str(tmp / f"{sc.name}.db"))
                perception = PerceptionProcess(log=log, namespace=ns, **sim_perception_parameters(sc.scene)) \
                    if args.perception else None
                try:
                    client.wait_for_node(timeout=180, alive=node.alive)  # minutes under load on 2 shared cores
                    client.reset_counts()  # a fresh node has ingested nothing yet
                    if perception is not None:
                        bridge.perception_restarted()
                        bridge.wait_for_perception(timeout=180)
                    bridge.publish_map()
                    report = run_scenario(sc, bridge, out=out)
                finally:
                    if perception is not None:
                        perception.stop()
                    node.stop()
            reports.append(report)
            print(f"  {sc.name}: {report.passed}/{len(report.outcomes)} passed "
                  f"(experience {report.experience_s:.1f} s, requests {report.requests_s:.1f} s)", flush=True)
    finally:
        if client is not None:
            client.close()
        if rclpy.ok():
            rclpy.shutdown()
    print_report(reports)
    print(f"wall time {time.perf_counter() - t_all:.1f} s; node logs and databases in {tmp}")
    return 0 if all(r.passed == len(r.outcomes) for r in reports) else 1


if __name__ == "__main__":
    from memory_node.ros.shutdown import run_program

    sys.exit(run_program("sim_demo", main))
