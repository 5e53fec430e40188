"""Facts and rules from corrections (core/rules.py) on a real SQLite memory, written through the store's own
utterance path; and the TidyBot benchmark (all 96 scenarios) as a measure of how rules generalise.

    pytest test/core/test_rules.py -k tidybot -s -q     # prints the TidyBot accuracy and baselines
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from memory_node.bench import shared_data
from memory_node.core.categories import key
from memory_node.core.models import EntityObservation, SceneGraphObservation, UtteranceObservation
from memory_node.core.query import query
from memory_node.core.rules import explain_placement, facts, placement_for, rules
from memory_node.core.store import MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

TIDYBOT = shared_data("tidybot", "benchmark", "scenarios.yml")
S = 1_000_000_000  # one second in ns


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    s = MemoryStore(tmp_path / "memory.db")
    yield s
    s.close()


def say(store: MemoryStore, t: int, text: str, speaker: str = "alice") -> str:
    """Ingest an utterance; its event id (what facts and rules cite)."""
    return store.ingest_utterance(UtteranceObservation(stamp_ns=t, speaker=speaker, text=text)).observation_id


def see(store: MemoryStore, t: int, *ents: EntityObservation) -> None:
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=t, room="kitchen", entities=list(ents)))


def test_one_correction_is_a_fact_that_applies_to_that_object_only(store: MemoryStore) -> None:
    e1 = say(store, 1 * S, "put the fork in the drawer")
    [f] = facts(store)
    assert (f.kind, f.subject, f.predicate, f.target, f.event_id, f.valid_to_ns) == (
        "placement", "fork", "in", "drawer", e1, None)
    assert placement_for(store, "fork") == ("drawer", "in", [e1], 1.0)
    assert placement_for(store, "forks") == ("drawer", "in", [e1], 1.0)
    assert placement_for(store, "cutleryfork")[:3] == ("drawer", "in", [e1])  # a VirtualHome label is a fork
    assert placement_for(store, "spoon", similar=False) is None  # one correction is not a rule for cutlery
    assert rules(store) == []
    # ... but a spoon is most like the fork: a guess from similar objects, citing that fork's correction
    guess = explain_placement(store, "spoon")
    assert (guess.source, guess.receptacle, guess.support_event_ids, guess.record_id) == (
        "similar", "drawer", [e1], f.id)
    assert guess.confidence < 1.0 and guess.category_name == "things like the fork"


def test_two_corrections_make_a_rule_supported_by_both(store: MemoryStore) -> None:
    e1 = say(store, 1 * S, "put the fork in the drawer")
    e2 = say(store, 2 * S, "no, the spoons go in the drawer")
    [rule] = rules(store)
    assert (rule.category, rule.predicate, rule.receptacle) == ("cutlery", "in", "drawer")
    assert rule.support_event_ids == [e1, e2] and len(rule.support_fact_ids) == 2
    assert (rule.valid_from_ns, rule.valid_to_ns, rule.superseded_by) == (2 * S, None, "")
    assert 0.6 < rule.confidence < 0.7  # 2/3: two agreeing facts, nothing against
    # an object never corrected is placed by its category's rule
    receptacle, predicate, support, confidence = placement_for(store, "butter knife")
    assert (receptacle, predicate, support, confidence) == ("drawer", "in", [e1, e2], rule.confidence)
    why = explain_placement(store, "butter knife")
    assert (why.source, why.category, why.record_id) == ("rule", "cutlery", rule.id)
    # the evidence is cutlery, not kitchenware: no rule sends cups to the cutlery drawer (a guess from
    # similar objects may, and says so)
    assert placement_for(store, "cup", similar=False) is None
    assert explain_placement(store, "cup").source == "similar"
    assert [r.category for r in rules(store)] == ["cutlery"]


def test_contradicting_correction_supersedes_the_rule_and_history_keeps_it(store: MemoryStore) -> None:
    e1 = say(store, 1 * S, "put the fork in the drawer")
    e2 = say(store, 2 * S, "the spoons go in the drawer")
    [old] = rules(store)
    e3 = say(store, 3 * S, "no, the knives go on the shelf")
    assert rules(store) == []  # one correction for the shelf is not yet a rule
    [closed] = rules(store, history=True)
    assert closed.id == old.id and closed.support_event_ids == [e1, e2]
    assert (closed.valid_from_ns, closed.valid_to_ns, closed.superseded_by) == (2 * S, 3 * S, e3)
    # as of before the second correction there was no rule; between the two it held; the end is not
    # visible from inside its validity
    assert rules(store, as_of_ns=1 * S) == []
    assert placement_for(store, "teaspoon", as_of_ns=1 * S, similar=False) is None
    [then] = rules(store, as_of_ns=2 * S + 1)
    assert then.id == old.id and (then.valid_to_ns, then.superseded_by) == (None, "")
    assert placement_for(store, "teaspoon", as_of_ns=2 * S + 1)[:3] == ("drawer", "in", [e1, e2])
    [hist] = rules(store, history=True, as_of_ns=2 * S + 1)
    assert hist.valid_to_ns is None
    # the explicit facts still hold for their own objects
    assert placement_for(store, "knife")[:3] == ("shelf", "on", [e3])
    assert placement_for(store, "fork")[:3] == ("drawer", "in", [e1])
    # a second shelf correction makes the new rule; the old one stays in history
    e4 = say(store, 4 * S, "put the teaspoons on the shelf")
    [new] = rules(store)
    assert (new.receptacle, new.predicate, new.support_event_ids, new.valid_from_ns) == ("shelf", "on", [e3, e4], 4 * S)
    assert [r.id for r in rules(store, history=True)] == [new.id, old.id]
    assert placement_for(store, "salad fork")[0] == "drawer"  # "fork" was said explicitly: the fact wins
    assert placement_for(store, "soup spoon")[0] == "drawer"  # so was "spoon"
    assert placement_for(store, "chopsticks")[0] == "shelf"  # the cutlery rule now


def test_more_support_replaces_the_rule_version(store: MemoryStore) -> None:
    say(store, 1 * S, "put the fork in the drawer")
    say(store, 2 * S, "put the spoon in the drawer")
    [first] = rules(store)
    e3 = say(store, 3 * S, "knives go in the drawer too")
    [second] = rules(store)
    assert second.id != first.id and len(second.support_event_ids) == 3 and e3 in second.support_event_ids
    assert second.confidence > first.confidence
    [_, closed] = rules(store, history=True)
    assert (closed.id, closed.valid_to_ns, closed.superseded_by) == (first.id, 3 * S, second.id)


def test_a_later_fact_about_the_same_object_replaces_the_earlier(store: MemoryStore) -> None:
    e1 = say(store, 1 * S, "put the fork in the drawer")
    e2 = say(store, 2 * S, "no, forks go in the sink")
    assert placement_for(store, "fork")[:3] == ("sink", "in", [e2])
    assert placement_for(store, "fork", as_of_ns=1 * S)[:3] == ("drawer", "in", [e1])
    old, = [f for f in facts(store, history=True) if f.event_id == e1]
    assert old.valid_to_ns == 2 * S
    assert [f.event_id for f in facts(store)] == [e2]


def test_negation_rules_a_receptacle_out(store: MemoryStore) -> None:
    say(store, 1 * S, "put the fork in the sink")
    say(store, 2 * S, "put the spoon in the sink")
    assert placement_for(store, "knife")[0] == "sink"
    e3 = say(store, 3 * S, "knives don't go in the sink")
    assert rules(store) == [] and rules(store, history=True)[0].superseded_by == e3
    assert placement_for(store, "knife") is None
    assert placement_for(store, "fork")[0] == "sink"  # what was said about forks stands


def test_one_utterance_can_state_several_facts(store: MemoryStore) -> None:
    e = say(store, 1 * S, "forks and knives go in the drawer, not in the sink")
    assert sorted((f.subject, f.target, f.negated) for f in facts(store)) == [
        ("fork", "drawer", False), ("fork", "sink", True), ("knife", "drawer", False), ("knife", "sink", True)]
    [rule] = rules(store)
    assert (rule.category, rule.support_event_ids) == ("cutlery", [e])


def test_questions_and_states_leave_no_facts(store: MemoryStore) -> None:
    for text in ("where do forks go?", "the drawer is locked", "the fork is in the drawer", "thanks"):
        say(store, 1 * S, text)
    assert facts(store, history=True) == [] and rules(store, history=True) == []
    assert len(store.events(kind="utterance")) == 4


def test_receptacle_is_kept_as_said_and_resolved_to_memory(store: MemoryStore) -> None:
    see(store, 1 * S, EntityObservation(id="drawer_1", label="drawer"), EntityObservation(id="shelf_7", label="wall shelf"))
    say(store, 2 * S, "put the fork in the drawer")
    say(store, 2 * S, "put the plates on the wall shelf")
    say(store, 2 * S, "the cups go on the shelf")  # "shelf": no entity of that label and one "wallshelf" is not it
    got = {f.subject: (f.target, f.target_id) for f in facts(store)}
    assert got == {"fork": ("drawer", "drawer_1"), "plate": ("wall shelf", "shelf_7"), "cup": ("shelf", "")}
    # "top drawer": no entity of that label, but exactly one drawer
    say(store, 3 * S, "the spoons go in the top drawer")
    assert facts(store, subject="spoon")[0].target_id == "drawer_1"
    # two drawers: the exact label picks the most recently seen one; "top drawer" becomes ambiguous
    see(store, 4 * S, EntityObservation(id="drawer_2", label="drawer"))
    say(store, 5 * S, "knives go in the drawer")
    say(store, 5 * S, "the ladle goes in the top drawer")
    assert facts(store, subject="knife")[0].target_id == "drawer_2"
    assert facts(store, subject="ladle")[0].target_id == ""


def test_possession_and_preference_facts(store: MemoryStore) -> None:
    see(store, 1 * S, EntityObservation(id="mug_1", label="mug", attributes={"color": "red"}),
        EntityObservation(id="mug_2", label="mug", attributes={"color": "blue"}))
    e = say(store, 2 * S, "my mug is the blue one", speaker="alice")
    [f] = facts(store, kind="possession")
    assert (f.owner, f.subject, f.target, f.target_id, f.event_id) == ("alice", "mug", "blue", "mug_2", e)
    say(store, 3 * S, "no, my mug is the red one", speaker="alice")
    say(store, 3 * S, "my mug is the blue one", speaker="bob")
    now = {(x.owner, x.target_id) for x in facts(store, kind="possession")}
    assert now == {("alice", "mug_1"), ("bob", "mug_2")}
    assert facts(store, kind="possession", owner="alice", as_of_ns=2 * S)[0].target_id == "mug_2"
    say(store, 4 * S, "I prefer the red cup", speaker="bob")
    [p] = facts(store, kind="preference")
    assert (p.owner, p.subject, p.target) == ("bob", "cup", "red")
    assert rules(store) == []  # only placements make rules


def test_corrections_about_its_narrower_kind_come_before_a_broader_rule(store: MemoryStore) -> None:
    fork = say(store, 1 * S, "put the fork in the drawer")
    say(store, 2 * S, "put the plate in the cupboard")
    say(store, 3 * S, "put the mug in the cupboard")
    [rule] = rules(store)
    assert (rule.category, rule.receptacle) == ("kitchenware", "cupboard")  # the plate and the mug
    # a spoon is cutlery like the fork: that correction is nearer to it than the kitchenware rule
    ans = explain_placement(store, "spoon")
    assert (ans.receptacle, ans.category, ans.support_event_ids) == ("drawer", "cutlery", [fork])
    assert ans.confidence <= rule.confidence
    assert explain_placement(store, "bowl").receptacle == "cupboard"  # no cutlery: the rule
    # where the narrower kind agrees with the rule, the rule answers
    say(store, 4 * S, "no, forks go in the cupboard")
    assert explain_placement(store, "spoon").source == "rule"
    assert explain_placement(store, "spoon").category == "kitchenware"


def test_other_compounds_of_its_head_word_come_before_a_broader_rule(store: MemoryStore) -> None:
    say(store, 1 * S, "put the fork in the drawer")
    say(store, 2 * S, "put the spoon in the drawer")
    block = say(store, 3 * S, "put the kitchen knife in the knife block")
    ans = explain_placement(store, "fish knife")  # cutlery in the map, but a knife like the kitchen knife
    assert (ans.receptacle, ans.category, ans.support_event_ids) == ("knife block", "knife", [block])
    assert explain_placement(store, "knife").receptacle == "drawer"  # no compound: the cutlery rule
    say(store, 4 * S, "put the pocket knife in the drawer")  # knives disagree: the rule again
    assert explain_placement(store, "fish knife").receptacle == "drawer"


def test_what_was_said_about_a_compound_comes_before_its_head_word(store: MemoryStore) -> None:
    say(store, 1 * S, "put the mug in the cupboard")
    plastic = say(store, 2 * S, "put the plastic mug in the bin")
    ans = explain_placement(store, "red plastic mug")
    assert (ans.source, ans.receptacle, ans.category, ans.support_event_ids) == (
        "fact", "bin", "plasticmug", [plastic])
    assert explain_placement(store, "red mug").receptacle == "cupboard"
    say(store, 3 * S, "plastic mugs don't go in the bin")  # a denial about the compound holds for it too
    assert explain_placement(store, "red plastic mug").receptacle == "cupboard"


def test_rules_survive_reopening(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "m.db")
    say(s, 1 * S, "put the fork in the drawer")
    say(s, 2 * S, "put the spoon in the drawer")
    s.close()
    again = MemoryStore(tmp_path / "m.db")
    assert [r.category for r in rules(again)] == ["cutlery"]
    again.close()


def test_query_stores_rules_and_facts(store: MemoryStore) -> None:
    e1 = say(store, 1 * S, "put the fork in the drawer")
    say(store, 2 * S, "put the spoon in the drawer")
    [r] = query(store, kind="rules")
    assert r.kind == "rule" and "cutlery -> in drawer" in r.text and r.data()["support_event_ids"][0] == e1
    assert {x.text for x in query(store, kind="facts")} == {"fork goes in drawer", "spoon goes in drawer"}
    assert [x.text for x in query(store, kind="facts", text="spoon")] == ["spoon goes in drawer"]
    assert query(store, kind="rules", as_of_ns=1 * S) == []


def test_facts_are_written_with_their_utterance(store: MemoryStore) -> None:
    e = say(store, 1 * S, "put the fork in the drawer")
    [ev] = store.events(kind="utterance")
    assert ev.id == e and facts(store)[0].event_id == e
    # a failing write leaves neither the event nor its facts
    store.storage.execute("DROP TABLE fact_categories")
    with pytest.raises(Exception):
        say(store, 2 * S, "put the knife in the drawer")
    assert len(store.events(kind="utterance")) == 1 and len(facts(store, history=True)) == 1


# ---- TidyBot ------------------------------------------------------------------------------------------

_SURFACES = {"table", "shelf", "counter", "desk", "bed", "sofa", "couch", "chair", "stool", "ottoman", "rack",
             "nightstand", "dresser", "floor", "mat", "tray", "plate", "board"}


def _the(x: str) -> str:
    return x if x.lower().startswith("the ") else f"the {x}"


def _utterance(i: int, obj: str, receptacle: str) -> str:
    """A seen placement as a person would say it: "put the X in the Y" / "the X goes on the Y"."""
    last = [w for w in receptacle.lower().split() if not w.isdigit()][-1]
    prep = "on" if last in _SURFACES else "in"
    return (f"put {_the(obj)} {prep} {_the(receptacle)}" if i % 2 == 0
            else f"{_the(obj)} goes {prep} {_the(receptacle)}")


def tidybot_report(scenarios: list[dict], similar: bool = True) -> dict[str, float]:
    """Feed each scenario's seen placements as utterances into a fresh memory, then ask placement_for()
    for each unseen object (``similar``: also from the most similar corrected objects). Baselines: the
    scenario's most common seen receptacle for every object (ties split evenly), and answering only objects
    whose exact label was corrected."""
    right = answered = total = 0
    majority = exact = 0.0
    for sc in scenarios:
        mem = MemoryStore(":memory:")
        for i, (obj, receptacle) in enumerate(sc["seen_placements"]):
            say(mem, (i + 1) * S, _utterance(i, obj, receptacle), speaker="user")
        counts = Counter(key(r) for _, r in sc["seen_placements"])
        top = [r for r, n in counts.items() if n == max(counts.values())]
        seen = {key(o): key(r) for o, r in sc["seen_placements"]}
        for obj, expected in sc["unseen_placements"]:
            total += 1
            got = placement_for(mem, obj, similar=similar)
            answered += got is not None
            right += got is not None and key(got.receptacle) == key(expected)
            majority += (key(expected) in top) / len(top)
            exact += seen.get(key(obj)) == key(expected)
        mem.close()
    return {"scenarios": len(scenarios), "unseen": total, "accuracy": right / total, "answered": answered / total,
            "precision": right / max(answered, 1), "majority_baseline": majority / total,
            "exact_label_baseline": exact / total}


def _print(r: dict[str, float]) -> None:
    print(f"\nTidyBot benchmark, {r['scenarios']:.0f} scenarios, {r['unseen']:.0f} unseen objects: "
          f"accuracy {r['accuracy']:.1%} (answered {r['answered']:.1%}, right when answering "
          f"{r['precision']:.1%}); majority-receptacle baseline {r['majority_baseline']:.1%}; "
          f"exact-label baseline {r['exact_label_baseline']:.1%}; TidyBot's LLM summarisation (paper) 91.2%")


@pytest.mark.skipif(not TIDYBOT.is_file(), reason=f"shared data not found at {TIDYBOT}")
def test_tidybot_all_scenarios() -> None:
    scenarios = yaml.safe_load(TIDYBOT.read_text(encoding="utf-8"))
    assert len(scenarios) == 96
    r = tidybot_report(scenarios)
    _print(r)
    # floors below what this reaches with the shipped category map, which holds no TidyBot-specific names
    # (89.0% accuracy, 98.7% answered, 90.2% right when answering; 88.7% before words the map does not
    # list took their WordNet kind's category, 83.5% before issue 17's kinds, graded WordNet kinds and
    # narrower evidence; the map before issue 9, which held 605 of TidyBot's object names word for word,
    # reached 88.8% -- see memory_node/bench/placement_eval.py)
    assert r["accuracy"] >= 0.87 and r["answered"] >= 0.96
    assert r["accuracy"] >= r["majority_baseline"] + 0.50
    assert r["precision"] >= 0.87
    # facts and rules alone: fewer answers, more often right (49.7%, 51.3% answered, 96.8% right; 47.2%
    # before the rules of a WordNet kind's category covered words the map does not list)
    c = tidybot_report(scenarios, similar=False)
    _print(c)
    assert 0.43 <= c["accuracy"] < r["accuracy"] - 0.15
    assert c["precision"] >= 0.93


if __name__ == "__main__":
    _print(tidybot_report(yaml.safe_load(TIDYBOT.read_text(encoding="utf-8"))))
