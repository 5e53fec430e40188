"""Play a scenario (``memory_node.sim.scenario``) through the Genesis bridge and the memory node over ROS.

Experience first: the simulated Vega tours rooms and looks (camera, depth, pose and scene graphs are
published), people move things while it is away (the simulator changes, nothing is published), the user
speaks, the robot tries skills (their feedback is published). Then each request goes to the memory node
over ``~/ask`` or ``~/plan``; a plan is executed open-loop in the simulator and graded on the final
simulator state, an answer on its words and ids. Only the contract's topics and services are used, so the
memory node could be any process on the network.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_node.core.models import ActivityObservation, UtteranceObservation
from memory_node.ros.genesis_bridge import SimBridge, plan_steps
from memory_node.sim.scenario import Outcome, Request, Scenario, grade_answer, grade_plan

# ~/sync answers as soon as the node has processed everything, so a long bound costs nothing when all is well;
# on a loaded 2-core machine the perception path took >30 s for its last graphs (CI run, load average ~15)
SYNC_TIMEOUT_S = 120.0


@dataclass
class Report:
    scenario: str
    description: str
    outcomes: list[Outcome] = field(default_factory=list)
    experience_s: float = 0.0
    requests_s: float = 0.0
    frames: list[Path] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)


class StateFacts:
    """What graders read, from the simulator's ground truth (``WorldState``)."""

    def __init__(self, world: Any) -> None:
        self.state = world.state

    def parent_of(self, obj: str) -> tuple[str, str] | None:
        body = self.state.bodies.get(obj)
        if body is None or body.parent is None or body.relation not in ("on", "in"):
            return None
        return body.relation, body.parent

    def held(self) -> set[str]:
        return set(self.state.holding())

    def states_of(self, ent: str) -> set[str]:
        body = self.state.bodies.get(ent)
        if body is None or body.container is None:
            return set()
        return set(body.container.states())

    def handed_over(self) -> set[str]:
        robot_hands = set(self.state.holding())
        return {b.id for b in self.state.bodies.values()
                if b.relation == "held_by" and b.id not in robot_hands}


def tour(bridge: SimBridge, room: str) -> None:
    """Go to the room, look all around, then stand at each piece of furniture in it and look at it."""
    bridge.execute("navigate_to", [room], look=False)
    bridge.look(around=True)
    state = bridge.world.state
    for body in sorted(state.furniture(), key=lambda b: b.id):
        if body.room == room and body.parent is None:
            outcome = bridge.execute("navigate_to", [body.id], look=False)
            if outcome.success:
                bridge.look()


def play_experience(scenario: Scenario, bridge: SimBridge) -> None:
    world, memory = bridge.world, bridge.memory
    for step in scenario.experience:
        if step.tour is not None:
            for room in step.tour:
                tour(bridge, room)
        elif step.look is not None:
            for target in step.look:
                bridge.execute("navigate_to", [target], look=False)
                bridge.look()
        elif step.move is not None:
            world.relocate(step.move.object, step.move.to, step.move.relation)  # unseen: nothing published
        elif step.set_state is not None:
            s = step.set_state.state
            world.set_container(step.set_state.object, closed={"open": False, "closed": True}.get(s),
                                locked={"locked": True, "unlocked": False}.get(s))
        elif step.say is not None:
            memory.publish_utterance(UtteranceObservation(stamp_ns=bridge.clock(), speaker=step.say.speaker,
                                                          text=step.say.text))
        elif step.do is not None:
            bridge.execute(step.do.skill, list(step.do.args))
        elif step.activity is not None:
            a = step.activity
            memory.publish_activity(ActivityObservation(stamp_ns=bridge.clock(), actor=a.actor, verb=a.verb,
                                                        objects=list(a.objects), location=a.location))
    memory.sync(timeout=SYNC_TIMEOUT_S)


def _steps_text(steps: list[tuple[str, list[str]]]) -> str:
    return " -> ".join(f"{s}({', '.join(a)})" for s, a in steps)


def run_request(req: Request, bridge: SimBridge, robot: str) -> Outcome:
    memory = bridge.memory
    t0 = time.perf_counter()
    if req.ask is not None:
        r = memory.ask(req.ask)
        why = [f"error: {r.error}"] if not r.success else grade_answer(req.expect, r.answer, list(r.answer_ids),
                                                                        float(r.confidence))
        return Outcome(request=req.ask, kind="ask", passed=not why, reply=r.answer or r.error, why=why,
                       seconds=time.perf_counter() - t0)
    r = memory.plan(str(req.plan), robot=req.robot or robot)
    steps, approaches = plan_steps(r.plan) if r.success else ([], [])
    done = bridge.execute_plan(steps, approaches, plan_id=r.plan.plan_id) if r.success else []
    all_ok = len(done) == len(steps) and all(o.success for o in done)
    memory.sync(timeout=SYNC_TIMEOUT_S)
    why = grade_plan(req.expect, None if r.success else r.error, steps, all_ok, StateFacts(bridge.world))
    if not r.success:
        executed = "nothing (refused)"
    elif all_ok:
        executed = f"{len(done)}/{len(steps)} steps"
    else:
        bad = done[-1]
        executed = f"failed at step {len(done)} {bad.skill}: {bad.status} ({bad.message})"
    return Outcome(request=str(req.plan), kind="plan", passed=not why,
                   reply=_steps_text(steps) if r.success else f"refused: {r.error}", executed=executed, why=why,
                   seconds=time.perf_counter() - t0)


def run_scenario(scenario: Scenario, bridge: SimBridge, out: Path | None = None) -> Report:
    """Play ``scenario`` from the scene's initial state into the memory the bridge's client talks to."""
    bridge.world.reset()
    report = Report(scenario=scenario.name, description=scenario.description)
    t0 = time.perf_counter()
    play_experience(scenario, bridge)
    report.experience_s = time.perf_counter() - t0
    if out is not None:
        saved = bridge.save_frame(out / f"{scenario.name}_experience.png")
        report.frames += [saved] if saved else []
    t1 = time.perf_counter()
    for k, req in enumerate(scenario.requests, start=1):
        report.outcomes.append(run_request(req, bridge, scenario.robot))
        if out is not None and req.plan is not None:
            saved = bridge.save_frame(out / f"{scenario.name}_request{k}.png")
            report.frames += [saved] if saved else []
    report.requests_s = time.perf_counter() - t1
    return report


def print_report(reports: list[Report], width: int = 100) -> None:
    for rep in reports:
        print(f"\nscenario {rep.scenario}: {rep.description}")
        print(f"  experience {rep.experience_s:.1f} s, requests {rep.requests_s:.1f} s, "
              f"{rep.passed}/{len(rep.outcomes)} passed")
        for o in rep.outcomes:
            mark = "PASS" if o.passed else "FAIL"
            print(f"  {mark}  {o.kind:4} {o.request}")
            print(f"        memory: {_cut(o.reply, width)}")
            if o.kind == "plan":
                print(f"        sim:    {o.executed}")
            for why in o.why:
                print(f"        why:    {why}")
    total = sum(len(r.outcomes) for r in reports)
    passed = sum(r.passed for r in reports)
    print(f"\n{passed}/{total} requests passed in {len(reports)} scenario(s)")
    frames = [str(f) for r in reports for f in r.frames]
    if frames:
        print(f"frames: {', '.join(frames[:3])}{' ...' if len(frames) > 3 else ''}")


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."
