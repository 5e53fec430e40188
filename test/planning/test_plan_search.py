"""The planner searches the skill library (planning/search.py) rather than filling templates, and the G1
drink path: the person's remembered cup and beverages, poured in the remembered order."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_node.core.models import ActivityObservation, PlanResult, UtteranceObservation
from memory_node.core.store import MemoryStore
from memory_node.requests.dispatch import plan_request
from memory_node.planning.search import SearchFailed, find_steps
from memory_node.planning.skills import SkillLibrary, default_library_path
from memory_node.planning.validator import PlanValidator
from memory_node.world.state import WorldState

T0 = 1_000_000_000
MIN = 60 * 10**9


def calls(result: PlanResult) -> list[tuple[str, list[str]]]:
    assert result.success, result.error
    return [(s.skill, s.args) for s in result.plan.steps]


@pytest.fixture
def bar(mem) -> MemoryStore:
    """A kitchen with a counter (juice, milk, two cups) and a closed fridge holding a second juice."""
    e = mem.ent
    mem.scene(T0, [
        e("counter_1", "counter"), e("fridge_1", "fridge", states=["closed"]),
        e("juice_1", "orange juice"), e("milk_1", "milk"), e("juice_2", "apple juice"),
        e("cup_1", "cup", attributes={"color": "red"}), e("cup_2", "cup", attributes={"color": "blue"}),
        e("person_1", "person", name="alice"),
    ], [("counter_1", "in", "kitchen_201"), ("fridge_1", "in", "kitchen_201"), ("juice_1", "on", "counter_1"),
        ("milk_1", "in", "fridge_1"), ("juice_2", "in", "fridge_1"), ("cup_1", "on", "counter_1"),
        ("cup_2", "on", "counter_1")])
    return mem.store


def say(store: MemoryStore, t: int, text: str, speaker: str = "alice") -> None:
    store.ingest_utterance(UtteranceObservation(stamp_ns=t, speaker=speaker, text=text))


def pour(store: MemoryStore, t: int, what: str, into: str, actor: str = "alice") -> str:
    return store.ingest_activity(ActivityObservation(stamp_ns=t, actor=actor, verb="pour", objects=[what, into],
                                                     text=f"pour {what} into {into}")).observation_id


def test_drink_follows_the_observed_pours_in_order(bar: MemoryStore, g1: SkillLibrary) -> None:
    old = pour(bar, T0 + 1, "juice_2", "cup_1")  # a drink long ago: a different session
    first = pour(bar, T0 + 60 * MIN, "milk_1", "cup_2")
    second = pour(bar, T0 + 61 * MIN, "juice_1", "cup_2")
    say(bar, T0 + 62 * MIN, "thanks")
    result = plan_request(bar, g1, "make me a drink", robot="g1")
    steps = calls(result)
    pours = [args for skill, args in steps if skill == "pour"]
    assert pours == [["milk_1", "cup_2"], ["juice_1", "cup_2"]]
    assert steps[:3] == [("walk_to", ["fridge_1"]), ("open", ["fridge_1"]), ("pick", ["milk_1"])]
    assert ("place", ["milk_1", "fridge_1"]) in steps  # the bottle goes back where it stood
    assert first in result.plan.evidence_ids and second in result.plan.evidence_ids
    assert old not in result.plan.evidence_ids
    assert not PlanValidator(g1).validate(result.plan, WorldState.from_store(bar, hands=g1.hands))
    assert "alice's drink" in result.plan.explanation


def test_drink_from_what_was_said(bar: MemoryStore, g1: SkillLibrary) -> None:
    say(bar, T0 + 1, "I prefer orange juice")
    say(bar, T0 + 2, "My cup is the red one")
    steps = calls(plan_request(bar, g1, "prepare a drink for alice"))
    assert [a for s, a in steps if s == "pour"] == [["juice_1", "cup_1"]]


def test_drink_without_memory_is_an_explicit_refusal(bar: MemoryStore, g1: SkillLibrary, vega) -> None:
    result = plan_request(bar, g1, "make me a drink")
    assert not result.success and "do not know what user drinks" in result.error
    say(bar, T0 + 1, "I prefer orange juice")
    result = plan_request(bar, g1, "make alice a drink")
    assert not result.success and "which cup is alice's" in result.error
    # a library without a pour skill invents no pouring: it brings a drink it can carry, and says why
    result = plan_request(bar, vega, "make me a drink")
    assert result.success and not any(s.skill == "pour" for s in result.plan.steps)
    picked = [s.args[0] for s in result.plan.steps if s.skill == "pick"]
    assert picked and picked[0] in ("juice_1", "milk_1", "juice_2"), result.plan.steps
    assert "cannot pour" in result.plan.explanation


def test_search_uses_the_librarys_own_conditions(bar: MemoryStore, tmp_path: Path) -> None:
    """A robot that must stand at the fridge itself (not only near its furniture) and opens it with a
    differently named skill: the same planner finds the plan from the library alone."""
    text = default_library_path("vega").read_text()
    text = text.replace("  - name: open\n", "  - name: pull_door\n")
    text = text.replace("preconditions: [near(container), accessible(container), not open(container)",
                        "preconditions: [robot_at(container), accessible(container), not open(container)")
    path = tmp_path / "picky.yaml"
    path.write_text(text)
    lib = SkillLibrary.load(path)
    steps = calls(plan_request(bar, lib, "bring me the milk"))
    assert steps[:3] == [("navigate_to", ["fridge_1"]), ("pull_door", ["fridge_1"]), ("pick", ["milk_1"])]


def test_search_never_generates_a_known_failure(bar: MemoryStore, mem, vega: SkillLibrary) -> None:
    world = WorldState.from_store(bar)
    mem.feedback(T0 + 5, "open", ["fridge_1"], success=False, message="stuck")
    failing = WorldState.from_store(bar)
    goal = lambda s: "milk_1" in s.holding  # noqa: E731
    steps, end = find_steps(vega, world, goal, ["milk_1", "fridge_1"], ["fridge_1"])
    assert [s.skill.name for s in steps] == ["navigate_to", "open", "pick"] and "milk_1" in end.holding
    with pytest.raises(SearchFailed):
        find_steps(vega, failing, goal, ["milk_1", "fridge_1"], ["fridge_1"])
    assert "stuck" in plan_request(bar, vega, "bring me the milk").error


def test_bring_my_cup_uses_possession(bar: MemoryStore, vega: SkillLibrary) -> None:
    say(bar, T0 + 1, "My cup is the blue one")
    assert ("pick", ["cup_2"]) in calls(plan_request(bar, vega, "bring me my cup"))
