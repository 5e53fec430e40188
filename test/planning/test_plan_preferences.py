"""'Where does the fork go?' answered from corrections and rules (answering/placement.py via ask)."""

from __future__ import annotations

import pytest

from memory_node.core.models import UtteranceObservation
from memory_node.core.store import MemoryStore
from memory_node.requests.dispatch import answer_question

S = 1_000_000_000


def say(store: MemoryStore, t: int, text: str) -> str:
    return store.ingest_utterance(UtteranceObservation(stamp_ns=t, speaker="alice", text=text)).observation_id


@pytest.fixture
def told(mem) -> tuple[MemoryStore, str, str]:
    mem.scene(S, [mem.ent("drawer_1", "drawer"), mem.ent("fork_1", "cutleryfork"), mem.ent("mug_1", "mug")])
    e1 = say(mem.store, 2 * S, "put the fork in the drawer")
    e2 = say(mem.store, 3 * S, "no, the spoons go in the drawer")
    return mem.store, e1, e2


def test_told_object_cites_its_correction(told) -> None:
    store, e1, _ = told
    a = answer_question(store, "Where does the fork go?")
    assert a.success and a.answer_ids == ["drawer_1"] and a.evidence_ids == [e1]
    assert a.answer == "The fork goes in the drawer (drawer_1): you told me so." and a.confidence == 1.0


@pytest.mark.parametrize("question", ["where should I put the butter knife?", "Where do the teaspoons go",
                                      "where does a steak knife belong?", "where should we keep the chopsticks"])
def test_uncorrected_object_goes_where_its_category_rule_says(told, question: str) -> None:
    store, e1, e2 = told
    a = answer_question(store, question)
    assert a.success and a.answer_ids == ["drawer_1"] and a.evidence_ids == [e1, e2]
    assert "cutlery" in a.answer and "2 corrections" in a.answer and 0.5 < a.confidence < 1.0


def test_object_known_only_by_its_memory_label(told) -> None:
    store, e1, _ = told
    a = answer_question(store, "where does cutleryfork go?")
    assert a.answer_ids == ["drawer_1"] and a.evidence_ids == [e1]


def test_nothing_told_is_not_stated_as_where_it_goes(told) -> None:
    store, _, _ = told
    a = answer_question(store, "where does the passport go?")  # nothing like cutlery
    # what memory holds that is made to keep things is offered and asked about, resting on no one's word
    assert a.success and a.answer.startswith("I have not been told where the passport goes.")
    assert a.answer.endswith("Is that where they belong?") and a.answer_ids == ["drawer_1"]
    assert a.evidence_ids == [] and a.confidence < 0.5


def test_nothing_told_and_nothing_to_keep_it_in_is_not_a_guess(mem) -> None:
    mem.scene(S, [mem.ent("mug_1", "mug"), mem.ent("apple_1", "apple")])
    a = answer_question(mem.store, "where does the passport go?")
    assert a.success and a.answer == "I have not been told where the passport goes." and a.confidence == 0.0
    assert a.answer_ids == [] and a.evidence_ids == []


def test_object_of_no_rule_is_placed_with_the_most_similar_and_says_so(told) -> None:
    store, e1, e2 = told
    a = answer_question(store, "where does the mug go?")  # a mug is not cutlery: no rule, a guess
    assert a.success and a.answer_ids == ["drawer_1"] and set(a.evidence_ids) == {e1, e2}
    assert a.answer.startswith("The mug goes in the drawer (drawer_1): I was not told about it, but it is most "
                               "like the spoon") and "which went there (2 corrections" in a.answer
    assert 0.0 < a.confidence < 0.67  # below the cutlery rule's


def test_as_of_sees_only_what_had_been_said(told) -> None:
    store, e1, _ = told
    then = answer_question(store, "where does the spoon go?", as_of_ns=2 * S)  # only the fork was told
    assert then.answer.startswith("At that time: The spoon goes in the drawer (drawer_1): I was not told about "
                                  "it, but it is most like the fork") and then.evidence_ids == [e1]
    a = answer_question(store, "where does the fork go?", as_of_ns=2 * S)
    assert a.evidence_ids == [e1] and a.answer.startswith("At that time:")


def test_where_is_still_answers_from_the_scene(told) -> None:
    store, _, _ = told
    a = answer_question(store, "where is the mug?")
    assert "have not been told" not in a.answer and "mug" in a.answer


def test_where_it_goes_and_where_it_was_last_seen(mem) -> None:
    """"Where are the remotes kept?" may mean either: the one remote memory holds is said where it was seen too."""
    mem.scene(S, [mem.ent("drawer_1", "drawer"), mem.ent("shelf_1", "shelf"), mem.ent("remote_1", "remotecontrol"),
                  mem.ent("scarf_1", "scarf"), mem.ent("bed_1", "bed")],
              [("remote_1", "on", "shelf_1"), ("scarf_1", "on", "bed_1")])
    say(mem.store, 2 * S, "the remote goes in the drawer")
    a = answer_question(mem.store, "where is the remote kept?")
    assert a.answer_ids == ["drawer_1", "shelf_1"] and "I last saw the remote" in a.answer
    untold = answer_question(mem.store, "where should the scarf go?")
    assert untold.answer.startswith("I have not been told") and untold.answer_ids == ["bed_1"]


def test_a_weak_guess_from_similar_things_is_offered_as_a_guess(mem) -> None:
    """One correction about something else is weak evidence: the answer says it is a guess and asks."""
    mem.scene(S, [mem.ent("shelf_1", "shelf"), mem.ent("magazine_1", "magazine")])
    say(mem.store, 2 * S, "the magazine goes on the shelf")
    a = answer_question(mem.store, "where does the brochure go?")
    assert a.answer_ids == ["shelf_1"] and a.confidence < 0.5
    assert a.answer.startswith("I have not been told") and "My guess" in a.answer and a.answer.endswith("?")
    # a shirt is nothing like a magazine (clothing, not reading matter): no guess from it at all
    shirt = answer_question(mem.store, "where does the shirt go?")
    assert "shelf_1" not in shirt.answer_ids and "My guess" not in shirt.answer
