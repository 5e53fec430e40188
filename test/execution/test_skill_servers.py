"""The skill-server map (which plan skills go to a team's own servers) and the routing backend, without ROS:
the shipped maps load and fit the shipped skill libraries, bad maps are refused with the reason, and the
routing sends mapped skills to the servers' backend and halt/e-stop to both."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from memory_node.core.models import Plan, SkillCall
from memory_node.execution.backend import CANCELLED, SUCCEEDED, StepContext, StepOutcome, StepRequest
from memory_node.execution.executor import PlanExecutor
from memory_node.execution.skill_servers import (
    ACTION_TYPE,
    SERVICE_TYPE,
    TRIGGER_TYPE,
    NoSdkBackend,
    RoutedBackend,
    SkillServerMap,
    SkillServerMapError,
)
from memory_node.planning.skills import SkillLibrary

MAPS = Path(__file__).parents[2] / "config" / "execution" / "skill_servers"


@pytest.mark.parametrize("robot", ["vega", "g1"])
def test_the_shipped_maps_load_and_name_only_skills_of_the_robots_library(robot):
    skill_map = SkillServerMap.load(MAPS / f"{robot}.yaml")
    library = SkillLibrary.for_robot(robot)
    skill_map.check(robot, {s.name: s.role for s in library.skills})
    assert {"pick", "place", "open", "close"} <= set(skill_map.servers)
    assert all(s.interface == ACTION_TYPE and s.timeout_s for s in skill_map.servers.values())


def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "map.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, says", [
    ("robot: vega\nservers:\n  pick: {action: /a, service: /b}\n", "exactly one of action or service"),
    ("robot: vega\nservers:\n  pick: {}\n", "exactly one of action or service"),
    ("robot: vega\nservers:\n  pick: {action: 'bad name'}\n", "not a ROS name"),
    ("robot: vega\nservers:\n  pick: {action: /a, type: std_srvs/srv/Trigger}\n", "not supported"),
    ("robot: vega\nservers:\n  pick: {service: /a, type: example/srv/Other}\n", "not supported"),
    ("robot: vega\nservers:\n  pick: {action: /a, timeout_s: 0}\n", "greater than 0"),
    ("robot: vega\nservers:\n  pick: {action: /a, colour: red}\n", "Extra inputs"),
    ("robot: vega\nservers: [pick]\n", "servers"),
    ("- just a list\n", "must be a mapping"),
    ("robot: vega\nservers: {pick: {action: /a}\n", "not valid YAML"),
])
def test_a_malformed_map_is_refused_with_the_reason(tmp_path, text, says):
    with pytest.raises(SkillServerMapError, match=says):
        SkillServerMap.load(_write(tmp_path, text))


def test_a_map_for_another_robot_or_naming_an_unknown_skill_is_refused(tmp_path):
    skills = {s.name: s.role for s in SkillLibrary.for_robot("vega").skills}
    with pytest.raises(SkillServerMapError, match="for g1"):
        SkillServerMap.load(MAPS / "g1.yaml").check("vega", skills)
    typo = SkillServerMap.load(_write(tmp_path, "robot: vega\nservers:\n  pik: {action: /a}\n"))
    with pytest.raises(SkillServerMapError, match="pik, not a skill or role"):
        typo.check("vega", skills)


def test_types_default_by_kind_and_steps_match_by_name_then_role(tmp_path):
    m = SkillServerMap.load(_write(tmp_path, "robot: vega\nservers:\n  pick: {action: /p, timeout_s: 9}\n"
                                             "  open: {service: /o}\n  close: {service: /c, type: std_srvs/srv/Trigger}\n"))
    assert [m.servers[k].interface for k in ("pick", "open", "close")] == [ACTION_TYPE, SERVICE_TYPE, TRIGGER_TYPE]
    assert m.timeouts() == {"pick": 9.0}
    assert m.for_step(StepRequest("grab", ("cup",), role="pick")).name == "/p"  # by role
    assert m.for_step(StepRequest("navigate_to", ("desk",), role="navigate")) is None


class _Recorder:
    """A backend that records what reached it; ``hold`` makes a step wait until it is aborted."""

    def __init__(self, name: str, hold: bool = False) -> None:
        self.name, self.robot, self.hold = name, "vega", hold
        self.ran: list[str] = []
        self.halts = 0
        self.estops: list[bool] = []
        self.started = threading.Event()

    def capabilities(self) -> dict[str, str]:
        return {"navigate": "drives"}

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        self.ran.append(step.skill)
        self.started.set()
        while self.hold:
            ctx.wait(0.01)
        return StepOutcome(True, SUCCEEDED, f"{self.name} did {step.skill}", step.args[0])

    def halt(self) -> None:
        self.halts += 1

    def set_estop(self, engaged: bool) -> None:
        self.estops.append(engaged)

    def close(self) -> None:
        pass


def test_mapped_skills_run_on_the_servers_backend_the_rest_on_the_sdk_and_halt_reaches_both(tmp_path):
    m = SkillServerMap.load(_write(tmp_path, "robot: vega\nservers:\n  pick: {action: /team/pick}\n"))
    sdk, servers = _Recorder("dexcontrol"), _Recorder("skill_servers", hold=True)
    routed = RoutedBackend(sdk, servers, m)
    assert routed.capabilities()["pick"] == f"action /team/pick ({ACTION_TYPE})"
    reports = []
    executor = PlanExecutor(routed, reports.append, step_timeout_s=30.0, library=SkillLibrary.for_robot("vega"))
    plan = Plan(robot="vega", instruction="fetch", steps=[SkillCall(skill="navigate_to", args=["desk_1"]),
                                                        SkillCall(skill="pick", args=["cup_1"])])
    done: list = []
    worker = threading.Thread(target=lambda: done.append(executor.execute(plan, "p1")))
    worker.start()
    assert servers.started.wait(10)
    assert executor.cancel()
    worker.join(10)
    assert sdk.ran == ["navigate_to"] and servers.ran == ["pick"]
    assert [(r.skill, r.status) for r in reports] == [("navigate_to", SUCCEEDED), ("pick", CANCELLED)]
    assert "(dexcontrol+skill_servers)" in reports[1].message and "plan p1 step 2/2" in reports[1].message
    assert sdk.halts >= 1 and servers.halts >= 1  # the cancel stopped the base and the server's goal
    executor.engage_estop()
    assert sdk.estops == [True] and servers.estops == [True]


def test_without_an_sdk_only_the_mapped_skills_run():
    step = StepRequest("navigate_to", ("desk_1",), role="navigate")
    out = NoSdkBackend("vega").run(step, StepContext(deadline=time.monotonic() + 1))
    assert not out.success and out.status == "not_offered" and "no robot SDK" in out.message
