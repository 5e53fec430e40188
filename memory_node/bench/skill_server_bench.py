"""The plan executor with a Vega (dexcontrol's loopback) and a team's skill servers over ROS 2: how long each
step takes and what reaches memory.

Runs ``--plans`` plans of four steps — navigate_to a seeded random approach pose 0.5-2 m away (the pose
controller on the SDK's wheel state), look_at the object (head pan/tilt through dexcontrol), pick (a
memory_node/action/RunSkill server), place (a memory_node/srv/RunSkill server) — through ``PlanExecutor``
with the routing backend the plan executor node builds. The servers stand in for a team's: they answer at
once, and every ``--fail-every``-th pick fails (status no_grasp), so the failure path is measured too.
Prints plans run end to end, steps run, failures reported and the median seconds per step. Needs the
colcon build (the action and service types) and ROS_DOMAIN_ID set apart from other runs.

    python -m memory_node.bench.skill_server_bench --plans 10
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import threading
import uuid

import rclpy
from rclpy.action import ActionServer
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import MultiThreadedExecutor

from memory_node.core.models import Plan, Point, Pose, SkillCall
from memory_node.execution.executor import PlanExecutor
from memory_node.execution.navigation import NavigationLimits
from memory_node.execution.skill_servers import RoutedBackend, SkillServerMap
from memory_node.execution.vega import VegaBackend, VegaConfig, connect, wheel_odometry
from memory_node.planning.skills import SkillLibrary
from memory_node.ros.skill_server_backend import SkillServerBackend


def main(argv: list[str] | None = None) -> int:
    from memory_node.action import RunSkill as RunSkillAction
    from memory_node.srv import RunSkill as RunSkillService

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plans", type=int, default=10)
    parser.add_argument("--fail-every", type=int, default=5, help="every n-th pick fails (0 = never)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rclpy.init()
    prefix = f"/bench_{uuid.uuid4().hex[:6]}"
    node = rclpy.create_node(f"executor_{prefix[1:]}")
    team = rclpy.create_node(f"team_{prefix[1:]}")
    picks = [0]

    def pick(handle):
        picks[0] += 1
        fail = args.fail_every and picks[0] % args.fail_every == 0
        handle.abort() if fail else handle.succeed()
        return RunSkillAction.Result(success=not fail, status="no_grasp" if fail else "",
                                     message="the object slipped" if fail else "grasped")

    def place(_req, resp):
        resp.success, resp.message = True, "placed"
        return resp

    group = ReentrantCallbackGroup()
    server = ActionServer(team, RunSkillAction, f"{prefix}/pick", execute_callback=pick, callback_group=group)
    team.create_service(RunSkillService, f"{prefix}/place", place, callback_group=group)
    spinner = MultiThreadedExecutor(num_threads=4)
    spinner.add_node(node)
    spinner.add_node(team)
    threading.Thread(target=spinner.spin, daemon=True).start()
    dex = connect("vega_1_gripper", simulation=True)
    try:
        skill_map = SkillServerMap.model_validate({"robot": "vega", "servers": {
            "pick": {"action": f"{prefix}/pick"}, "place": {"service": f"{prefix}/place"}}})
        odom = wheel_odometry(dex)
        limits = NavigationLimits(max_linear=0.8, max_lateral=0.3, max_angular=1.0)
        vega = VegaBackend(dex, odom, VegaConfig(limits=limits))
        feedback = []
        executor = PlanExecutor(RoutedBackend(vega, SkillServerBackend(node, "vega", skill_map), skill_map),
                                feedback.append, timeouts={"navigate": 120}, library=SkillLibrary.for_robot("vega"))
        seconds: dict[str, list[float]] = {"navigate_to": [], "look_at": [], "pick": [], "place": []}
        end_to_end = steps = 0
        for i in range(args.plans):
            x0, y0, yaw0, _ = odom()
            d, bearing = rng.uniform(0.5, 2.0), rng.uniform(-math.pi, math.pi)
            gx, gy, gyaw = x0 + d * math.cos(bearing), y0 + d * math.sin(bearing), rng.uniform(-math.pi, math.pi)
            thing = (gx + 0.6 * math.cos(gyaw), gy + 0.6 * math.sin(gyaw), 0.8)  # in front of where it stops
            obj = Point(x=thing[0], y=thing[1], z=thing[2])
            plan = Plan(robot="vega", instruction="tidy", steps=[
                SkillCall(skill="navigate_to", args=["table_1"], approach=Pose(position=Point(x=gx, y=gy, z=0.0),
                                                                               yaw=gyaw)),
                SkillCall(skill="look_at", args=["cup_1"], arg_positions=[obj]),
                SkillCall(skill="pick", args=["cup_1"], arg_positions=[obj]),
                SkillCall(skill="place", args=["cup_1", "table_1"], arg_positions=[None, None])])
            run = executor.execute(plan, f"bench-{i}")
            end_to_end += run.succeeded
            steps += len(run.steps)
            for s in run.steps:
                seconds[s.skill].append(s.seconds)
        failures = [f for f in feedback if not f.success]
        print(f"{args.plans} plans (dexcontrol loopback + skill servers over ROS 2): {end_to_end} end to end, "
              f"{steps} steps run, {len(feedback)} reported, {len(failures)} failures reported "
              f"({', '.join(sorted({f'{f.skill} {f.status}' for f in failures})) or 'none'})")
        for skill, values in seconds.items():
            if values:
                print(f"  {skill:12s} median {statistics.median(values) * 1000:8.1f} ms  max "
                      f"{max(values) * 1000:8.1f} ms  ({len(values)} steps)")
        return 0
    finally:
        dex.shutdown()
        spinner.shutdown(timeout_sec=2.0)
        server.destroy()
        node.destroy_node()
        team.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    raise SystemExit(main())
