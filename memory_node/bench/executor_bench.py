"""The plan executor on the Vega backend in dexcontrol's loopback simulation: how close navigation gets
and how long steps take.

Runs ``--plans`` plans of three steps each — navigate_to a seeded random approach pose 0.5-2.5 m away
(pose from the SDK's own wheel state), handover (right arm to its "L_shape" pose, gripper opened), pick
(refused: not offered by dexcontrol) — through ``PlanExecutor``, as the plan executor node would, and prints
the medians: final position and heading error, seconds per step, the speed limit used. No ROS, no robot.

    python -m memory_node.bench.executor_bench --plans 10 --speed 0.5
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from memory_node.core.models import Plan, Point, Pose, SkillCall
from memory_node.execution.executor import PlanExecutor
from memory_node.execution.navigation import NavigationLimits, wrap
from memory_node.execution.vega import VegaBackend, VegaConfig, connect, wheel_odometry
from memory_node.planning.skills import SkillLibrary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plans", type=int, default=10)
    parser.add_argument("--speed", type=float, default=0.5, help="max linear speed, m/s")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    dex = connect("vega_1_gripper", simulation=True)
    try:
        odom = wheel_odometry(dex)
        limits = NavigationLimits(max_linear=args.speed, max_lateral=min(0.3, args.speed), max_angular=0.8)
        feedback = []
        executor = PlanExecutor(VegaBackend(dex, odom, VegaConfig(limits=limits)), feedback.append,
                                timeouts={"navigate": 120}, library=SkillLibrary.for_robot("vega"))
        errors, headings, seconds = [], [], {"navigate_to": [], "handover": [], "pick": []}
        statuses: dict[str, int] = {}
        for k in range(args.plans):
            x, y, yaw, _ = odom()
            distance, bearing = rng.uniform(0.5, 2.5), rng.uniform(-math.pi, math.pi)
            goal = (x + distance * math.cos(bearing), y + distance * math.sin(bearing), rng.uniform(-math.pi, math.pi))
            plan = Plan(robot="vega", instruction=f"bench {k}", steps=[
                SkillCall(skill="navigate_to", args=["spot"], approach=Pose(position=Point(x=goal[0], y=goal[1], z=0.0),
                                                                           yaw=goal[2])),
                SkillCall(skill="handover", args=["thing"]), SkillCall(skill="pick", args=["thing"])])
            dex.right_arm.go_to_pose("folded", wait=True, timeout=5.0)  # each handover moves the arm again
            run = executor.execute(plan, f"bench-{k}")
            x, y, yaw, _ = odom()
            errors.append(math.hypot(goal[0] - x, goal[1] - y))
            headings.append(abs(math.degrees(wrap(goal[2] - yaw))))
            for step in run.steps:
                seconds[step.skill].append(step.seconds)
                statuses[f"{step.skill}:{step.outcome.status}"] = statuses.get(f"{step.skill}:{step.outcome.status}", 0) + 1
        print(f"{args.plans} plans on dexcontrol's loopback Vega, speed limit {args.speed} m/s, "
              f"{len(feedback)} steps reported")
        print(f"  navigate: final error median {statistics.median(errors):.3f} m (max {max(errors):.3f}), heading "
              f"median {statistics.median(headings):.1f} deg; {statistics.median(seconds['navigate_to']):.2f} s median")
        for skill in ("handover", "pick"):
            print(f"  {skill}: {statistics.median(seconds[skill]) * 1000:.1f} ms median")
        print("  outcomes: " + ", ".join(f"{k} x{v}" for k, v in sorted(statuses.items())))
    finally:
        dex.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
