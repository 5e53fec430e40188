"""'Put it away' plans use what people taught: a correction for that object, or its category's rule for an
object never corrected; a locked receptacle is replaced by another of its kind or the request refused."""

from memory_node.core.models import (
    EntityObservation,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.store import MemoryStore
from memory_node.requests.dispatch import plan_request
from memory_node.planning.skills import SkillLibrary, default_library_path

S = 1_000_000_000


def _kitchen(store, drawer_states=("closed",)):
    ents = [EntityObservation(id="table_1", label="table", room="kitchen"),
            EntityObservation(id="drawer_1", label="drawer", room="kitchen", states=list(drawer_states)),
            EntityObservation(id="drawer_2", label="drawer", room="kitchen", states=["closed"]),
            EntityObservation(id="fork_1", label="fork", room="kitchen"),
            EntityObservation(id="knife_1", label="knife", room="kitchen"),
            EntityObservation(id="apple_1", label="apple", room="kitchen")]
    rels = [RelationObservation(subject=x, predicate="on", object="table_1") for x in ("fork_1", "knife_1", "apple_1")]
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=1 * S, room="kitchen", complete=True, entities=ents,
                                                   relations=rels))


def _say(store, t, text):
    return store.ingest_utterance(UtteranceObservation(stamp_ns=t * S, speaker="alex", text=text)).observation_id


def test_rule_from_two_corrections_applies_to_a_never_corrected_object(tmp_path):
    store = MemoryStore(tmp_path / "m.db")
    _kitchen(store)
    e1 = _say(store, 2, "put the fork in the drawer")
    e2 = _say(store, 3, "no, the spoons go in the drawer")
    lib = SkillLibrary.load(default_library_path("vega"))
    r = plan_request(store, lib, "put the knife away")
    assert r.success, r.error
    steps = [(s.skill, s.args) for s in r.plan.steps]
    assert ("pick", ["knife_1"]) in steps
    place = [a for s, a in steps if s == "place"]
    assert place and place[0][0] == "knife_1" and place[0][1].startswith("drawer_")
    assert steps.index(("open", [place[0][1]])) < steps.index(("place", place[0]))
    assert {e1, e2} <= set(r.plan.evidence_ids) and "corrections" in r.plan.explanation
    # an object nobody said anything about is refused with a clear reason
    r = plan_request(store, lib, "tidy up the apple")
    assert not r.success and "not learned where" in r.error


def test_locked_receptacle_is_replaced_by_another_of_its_kind_or_refused(tmp_path):
    store = MemoryStore(tmp_path / "m.db")
    _kitchen(store)
    _say(store, 2, "forks go in the drawer")
    for d in ("drawer_1", "drawer_2"):
        store.ingest_skill_feedback(SkillFeedbackObservation(
            stamp_ns=4 * S, robot="vega", skill="open", args=[d], target_id=d, success=False,
            status="EXECUTION_FAILURE", message="the drawer is locked"))
        lib = SkillLibrary.load(default_library_path("vega"))
        r = plan_request(store, lib, "put away the fork")
        if d == "drawer_1":
            assert r.success, r.error
            assert ["fork_1", "drawer_2"] in [s.args for s in r.plan.steps if s.skill == "place"]
            assert "cannot be opened" in r.plan.explanation
        else:
            assert not r.success and "locked" in r.error
