"""The scripted demo experience, replayed into a real MemoryStore."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_node.core.models import (
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.store import MemoryStore
from memory_node.scenes import experience as ex
from memory_node.scenes import virtualhome as vh

START_NS = 1_700_000_000 * ex.SECOND_NS


@pytest.fixture(scope="module")
def scene() -> vh.VirtualHomeScene:
    return vh.load_scene()


@pytest.fixture(scope="module")
def steps(scene: vh.VirtualHomeScene) -> list[ex.ExperienceStep]:
    return ex.demo_experience(scene, START_NS)


@pytest.fixture()
def store(tmp_path: Path, steps: list[ex.ExperienceStep]) -> MemoryStore:
    memory = MemoryStore(tmp_path / "m.db")
    ex.replay(steps, memory)
    return memory


def test_cast_is_checked_against_the_scene(scene: vh.VirtualHomeScene) -> None:
    cast = ex.choose_cast(scene)
    assert (cast.mug, cast.container, cast.fridge, cast.person) == (
        "mug_190", "cabinet_399", "fridge_289", "character_65")
    assert (cast.mug_origin.predicate, cast.mug_origin.object) == ("on", "desk_104")
    locked = scene.entities[cast.locked]
    assert locked.id not in (cast.container, cast.fridge)
    assert "closed" in locked.states and locked.attributes["openable"] == "true"
    assert len(scene.with_label(locked.label)) == 1  # "is the <label> locked?" has one answer


def test_experience_is_time_ordered(steps: list[ex.ExperienceStep]) -> None:
    stamps = [s.stamp_ns for s in steps]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    assert stamps[0] == START_NS
    assert all(s.payload.stamp_ns == s.stamp_ns for s in steps)


def test_experience_tells_the_story_in_order(scene: vh.VirtualHomeScene,
                                              steps: list[ex.ExperienceStep]) -> None:
    kinds = [s.kind for s in steps]
    tour = len(scene.rooms)
    assert kinds == ["scene_graph"] * (tour + 1) + ["skill_feedback", "utterance"]
    assert [s.payload.room for s in steps[:tour]] == list(scene.rooms)  # type: ignore[union-attr]
    assert all(s.payload.complete for s in steps[:tour])  # type: ignore[union-attr]
    fb = steps[tour + 1].payload
    assert isinstance(fb, SkillFeedbackObservation)
    assert (fb.skill, fb.success, fb.status) == ("open", False, "EXECUTION_FAILURE")
    assert fb.target_id in scene.entities and "locked" in fb.message
    utt = steps[tour + 2].payload
    assert isinstance(utt, UtteranceObservation) and utt.speaker == "user" and "mug" in utt.text


def test_move_step_really_moves_the_mug(scene: vh.VirtualHomeScene, steps: list[ex.ExperienceStep]) -> None:
    cast = ex.choose_cast(scene)
    move = next(s.payload for s in steps if s.stamp_ns == ex.move_stamp_ns(steps))
    assert isinstance(move, SceneGraphObservation) and not move.complete
    container = scene.entities[cast.container]
    assert move.room == container.room
    ents = {e.id: e for e in move.entities}
    assert ents[cast.container].states == ["closed"]
    assert ents[cast.mug].room == container.room and ents[cast.mug].position == container.position
    [rel] = [r for r in move.relations if r.subject == cast.mug]
    assert (rel.predicate, rel.object) == ("in", cast.container)
    assert (rel.predicate, rel.object) != (cast.mug_origin.predicate, cast.mug_origin.object)


def test_step_kind_must_match_payload() -> None:
    with pytest.raises(TypeError):
        ex.ExperienceStep(1, "utterance", SceneGraphObservation(stamp_ns=1))
    with pytest.raises(ValueError):
        ex.ExperienceStep(2, "utterance", UtteranceObservation(stamp_ns=1, text="hi"))


def test_replay_into_memory_rejects_nothing(tmp_path: Path, steps: list[ex.ExperienceStep]) -> None:
    results = ex.replay(steps, MemoryStore(tmp_path / "m.db"))
    assert len(results) == len(steps)
    assert [r for res in results for r in res.rejected] == []
    assert all(res.removed == 0 for res in results)


def test_memory_knows_where_the_mug_is_now_and_was(store: MemoryStore, scene: vh.VirtualHomeScene,
                                                    steps: list[ex.ExperienceStep]) -> None:
    cast = ex.choose_cast(scene)
    moved = ex.move_stamp_ns(steps)
    now = store.entity(cast.mug)
    assert now is not None and now.location is not None
    assert (now.location.predicate, now.location.object) == ("in", cast.container)
    assert now.room == scene.entities[cast.container].room
    before = store.entity(cast.mug, as_of_ns=moved - 1)
    assert before is not None and before.location is not None
    assert (before.location.predicate, before.location.object) == ("on", "desk_104")
    assert before.room == "bedroom_67"


def test_memory_holds_the_apartment(store: MemoryStore, scene: vh.VirtualHomeScene) -> None:
    cast = ex.choose_cast(scene)
    assert [e.id for e in store.entities(label="person")] == [cast.person]
    assert store.entity(cast.fridge).states == ["closed"]  # type: ignore[union-attr]
    assert {e.id for e in store.entities(label="room")} == set(scene.rooms)
    mugs = store.entities(label="mug")
    assert mugs[0].id == cast.mug  # newest seen first: the mug that moved
    assert len(store.entities(room="bathroom_1")) == len(scene.in_room("bathroom_1")) + 1  # + the room
    kinds = sorted(e.kind for e in store.events())
    assert kinds == ["change", "skill", "utterance"]


def test_requests_have_checkable_expectations(scene: vh.VirtualHomeScene) -> None:
    cast = ex.choose_cast(scene)
    asked = ex.demo_requests(scene)
    reqs = {r.text: r for r in asked}
    mugs = {m.id for m in scene.with_label("mug")}
    which = f"the one in the {scene.entities[cast.container].label}"
    if len(mugs) > 1:  # memory asks which mug, then the answer to that finds the moved one
        assert reqs["where is the mug?"].asks_which and set(reqs["where is the mug?"].all_of) == mugs
        follow = [r for r in asked if r.text == which]
        assert [r.kind for r in follow] == ["ask", "plan"] and follow[0].all_of == (cast.container,)
        assert set(follow[1].all_of) == {cast.mug, cast.container, cast.person}
    else:
        assert reqs["where is the mug?"].all_of == (cast.container,)
    wine = reqs["where is a wine glass?"].any_of
    assert wine and all(scene.entities[w].label != "wineglass" for w in wine)
    assert set(wine) == {scene.location(g.id).object  # type: ignore[union-attr]
                         for g in scene.with_label("wineglass")}
    assert reqs["is the fridge closed?"].answer_word == "yes"
    assert reqs["where is the unicorn?"].expect_success is False
    assert not scene.with_label("unicorn")
    bring = reqs["bring me the mug"]
    assert bring.kind == "plan" and (bring.asks_which or set(bring.all_of) == {cast.mug, cast.container,
                                                                            cast.person})
    assert all(i in scene.entities for r in reqs.values() for i in (*r.all_of, *r.any_of))


def test_request_check_semantics() -> None:
    r = ex.DemoRequest("ask", "is the fridge closed?", any_of=("fridge_289",), answer_word="yes")
    assert r.check(True, ["fridge_289"], "Yes, fridge_289 is closed.")
    assert not r.check(True, ["fridge_289"], "No.")
    assert not r.check(False, ["fridge_289"], "yes")
    unknown = ex.DemoRequest("ask", "where is the unicorn?", expect_success=False)
    assert unknown.check(False, [], "I have not seen a unicorn")
    assert not unknown.check(True, ["sofa_352"], "on the sofa")
    plan = ex.DemoRequest("plan", "bring me the mug", all_of=("mug_190", "cabinet_399"))
    assert plan.check(True, ["cabinet_399", "mug_190", "character_65"])
    assert not plan.check(True, ["mug_190"])
