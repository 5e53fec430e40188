"""Calibration: a grounding that is a guess is asked about, never acted on; "yes" then finishes the request.
Over a real SQLite memory; the phrases name things memory holds under other names (language/confidence.py)."""

from __future__ import annotations

import re

import pytest

from memory_node.core.models import Point
from memory_node.language.conversation import Conversation
from memory_node.requests.dispatch import answer_question, plan_request


@pytest.fixture
def flat(mem):
    e = mem.ent
    labels = ["tablelamp", "coffeetable", "kitchentable", "washingmachine", "cabinet", "bathroomcabinet", "mug",
              "candybar", "chips"]
    mem.scene(1, [e("kitchen_201", "room", name="kitchen")] +
              [e(f"{lab}_{i}", lab, position=Point(x=float(i), y=0.0, z=0.5)) for i, lab in enumerate(labels)],
              [("mug_6", "on", "kitchentable_2"), ("candybar_7", "on", "kitchentable_2"), ("chips_8", "on", "coffeetable_1")])
    return mem.store


def _steps(result):
    return [(s.skill, list(s.args)) for s in result.plan.steps] if result.success else []


def test_a_guess_is_asked_about_and_yes_finishes_it(flat, vega) -> None:
    conv = Conversation()
    # memory holds no coffee machine: whatever the best guess is, it is asked about, not driven to
    asked = plan_request(flat, vega, "go to the coffee machine", speaker="anna", conversation=conv)
    assert not asked.success and "Do you mean" in asked.error
    guess = re.search(r"Do you mean the \w+ \((\w+)\)", asked.error).group(1)
    done = plan_request(flat, vega, "yes please", speaker="anna", conversation=conv)
    assert _steps(done) == [("navigate_to", [guess])]
    # the confirmation is used once: a later "yes" does not repeat it
    assert not plan_request(flat, vega, "yes", speaker="anna", conversation=conv).success


def test_a_word_the_thing_does_not_explain_is_asked_about(flat, vega) -> None:
    # "medicine" is not a word of the plain cabinet: asked, not driven to
    r = plan_request(flat, vega, "go to the medicine cabinet", speaker="anna")
    assert not r.success and "cabinet_4" in r.error
    # of things a category names alike (a candy bar and chips are snacks), the one the describing word fits
    assert ("pick", ["chips_8"]) in _steps(plan_request(flat, vega, "bring me a salty snack", speaker="anna"))
    # and a describing word nothing fits is asked about
    r = plan_request(flat, vega, "bring me a frozen snack", speaker="anna")
    assert not r.success and "Do you mean" in r.error
    # what is said plainly is still done at once
    assert _steps(plan_request(flat, vega, "go to the washing machine"))[-1] == ("navigate_to", ["washingmachine_3"])
    assert ("pick", ["mug_6"]) in _steps(plan_request(flat, vega, "bring me the mug"))


def test_a_place_said_generically_is_any_sure_one_never_a_guess(flat, vega) -> None:
    placed = _steps(plan_request(flat, vega, "put the mug on a table"))
    assert placed and placed[-1][0] == "place" and placed[-1][1][1] in ("coffeetable_1", "kitchentable_2")
    guessed = plan_request(flat, vega, "put the mug on the dining table")
    assert not guessed.success or _steps(guessed)[-1][1][1] != "tablelamp_0"


def test_a_question_about_a_guess_asks_back_instead_of_answering(flat) -> None:
    a = answer_question(flat, "where is the coffee machine?")
    assert a.success and "Do you mean" in a.answer and a.confidence < 0.6 and a.answer_ids[0] in a.answer


def test_brought_to_a_thing_is_put_there(flat, vega) -> None:
    steps = _steps(plan_request(flat, vega, "bring the mug to the coffee table"))
    assert steps[-1] == ("place", ["mug_6", "coffeetable_1"])
    # to a room it is still set down there, to me it is still handed over
    assert _steps(plan_request(flat, vega, "bring me the mug"))[-1][0] == "handover"


def test_a_task_asked_as_how_would_you_is_that_task(flat, vega) -> None:
    # over ~/plan, "how would you ...?" asks for the task: planned (or offered), never handed to the speaker
    r = plan_request(flat, vega, "how would you put the mug on the coffee table?")
    steps = _steps(r)
    assert (steps and steps[-1] == ("place", ["mug_6", "coffeetable_1"])) or ("Say yes" in r.error and "coffeetable_1" in r.error)
    assert ("pick", ["mug_6"]) in _steps(plan_request(flat, vega, "how would you get me the mug?"))


def test_a_phrase_that_names_one_thing_as_a_whole_is_not_asked_about(mem, vega) -> None:
    e = mem.ent
    mem.scene(1, [e("coffeemaker_1", "coffeemaker", position=Point(x=1.0, y=0.0, z=0.9)),
                  e("coffeepot_2", "coffeepot", position=Point(x=2.0, y=0.0, z=0.9)),
                  e("barsoap_3", "barsoap", position=Point(x=3.0, y=0.0, z=0.9)),
                  e("washingmachine_4", "washingmachine", position=Point(x=4.0, y=0.0, z=0.5))])
    # "coffee machine" is the coffee maker by the whole phrase (the coffee pot is well behind): driven to
    assert _steps(plan_request(mem.store, vega, "go to the coffee machine"))[-1] == ("navigate_to", ["coffeemaker_1"])
    # "dish soap" is not the bar soap however alike the words: asked about
    r = plan_request(mem.store, vega, "bring me the dish soap")
    assert not r.success and "Do you mean" in r.error


def test_a_thing_said_to_be_for_someone_is_never_handed_to_the_speaker(kitchen, vega) -> None:
    # word order the tagger reads as a statement, so the learned reader reads the task: the recipient it
    # names comes from the sentence, not the default (the speaker)
    r = plan_request(kitchen, vega, "Please, the blue mug give to Alice.", speaker="bob")
    handed = [s for s in _steps(r) if s[0] == "handover"]
    navs = [s[1][0] for s in _steps(r) if s[0] == "navigate_to"]
    assert r.success, r.error
    assert handed and handed[0][1][0] == "mug_1" and navs[-1] == "person_1", _steps(r)


def test_a_lock_question_is_answered_as_one(kitchen, mem) -> None:
    # "is it locked?" read as "can I use it?" must not answer "yes" meaning usable
    a = answer_question(kitchen, "is the cabinet like locked or something")
    assert a.success and a.answer.startswith(("No", "Not")) and "cabinet_1" in a.answer_ids, a.answer
    mem.feedback(5_000_000_000, "open", ["cabinet_1"], False, message="the cabinet is locked")
    a = answer_question(kitchen, "cabinet locked?")
    assert a.success and a.answer.startswith("Yes") and "cabinet_1" in a.answer_ids, a.answer
    # an either-or question is answered yes or no to its first half
    a = answer_question(kitchen, "can I get into the cabinet, or is it locked up?")
    assert a.success and a.answer.startswith("No") and "cabinet_1" in a.answer_ids, a.answer
    a = answer_question(kitchen, "is the cabinet locked, or can I open it?")
    assert a.success and a.answer.startswith("Yes"), a.answer
    # "locked" said in a remark between two askings of "can I open it?" does not turn the question round
    a = answer_question(kitchen, "Can I open the cabinet? Somebody locked it once, I remember... can I open it now?")
    assert a.success and a.answer.startswith("No") and "cabinet_1" in a.answer_ids, a.answer
    # "not locked" spells out what usable means: yes would mean usable, so the locked cabinet is a no
    a = answer_question(kitchen, "Is the cabinet usable, i.e., not locked, so that it can be opened normally?")
    assert a.success and a.answer.startswith("No") and "cabinet_1" in a.answer_ids, a.answer


def test_a_thing_said_with_a_room_and_a_question_mark_asks_whether_it_is_there(flat, mem) -> None:
    # "washing machine in the kitchen?" asks yes or no; a "no" says where the one memory knows is
    mem.scene(2, [mem.ent("bathroom_202", "room", name="bathroom")])
    a = answer_question(flat, "washing machine in the kitchen?")
    assert a.success and a.answer.startswith("Yes") and "washingmachine_3" in a.answer_ids, a.answer
    a = answer_question(flat, "mug in the bathroom?")
    assert a.success and a.answer.startswith("No") and "the mug (mug_6) is in the kitchen" in a.answer, a.answer


def test_a_class_word_reached_only_through_a_far_sense_is_asked_about(mem, vega) -> None:
    # WordNet files chips under vegetables (french fries -> potato -> root vegetable); the words are far apart,
    # so the robot asks instead of bringing crisps for "a vegetable"; a carrot is simply one
    mem.scene(1, [mem.ent("chips_1", "chips"), mem.ent("table_2", "table")], [("chips_1", "on", "table_2")])
    r = plan_request(mem.store, vega, "bring me a vegetable", speaker="alice")
    assert not r.success and "chips_1" in r.error and "?" in r.error, r
    mem.scene(2, [mem.ent("carrot_3", "carrot")], [("carrot_3", "on", "table_2")])
    r = plan_request(mem.store, vega, "bring me a vegetable", speaker="alice")
    assert r.success and "carrot_3" in _steps(r)[1][1], (r.error, _steps(r))


def test_something_described_by_a_word_no_thing_carries_is_a_guess_never_any_thing(mem, vega) -> None:
    mem.scene(1, [mem.ent("radio_1", "radio"), mem.ent("bananas_2", "bananas"), mem.ent("table_3", "table")],
              [("radio_1", "on", "table_3"), ("bananas_2", "on", "table_3")])
    r = plan_request(mem.store, vega, "bring me something sweet", speaker="alice")
    assert not r.success and "bananas_2" in r.error and "radio_1" not in r.error, r


def test_a_name_matched_only_through_a_rare_sense_is_asked_about(mem, vega) -> None:
    # WordNet's fourth sense of "stool" is a toilet: driving to the toilet for "the stool" is asked first
    mem.scene(1, [mem.ent("toilet_1", "toilet", room="bathroom_2")])
    r = plan_request(mem.store, vega, "go to the stool", speaker="alice")
    assert not r.success and "toilet_1" in r.error and "?" in r.error, r
    assert plan_request(mem.store, vega, "go to the toilet", speaker="alice").success


def test_a_colour_said_of_something_is_the_attributes_business(mem) -> None:
    mem.scene(1, [mem.ent("bellpepper_1", "bellpepper", attributes={"color": "brown"}),
                  mem.ent("radio_2", "radio", attributes={"color": "black"}), mem.ent("table_3", "table")],
              [("bellpepper_1", "on", "table_3"), ("radio_2", "on", "table_3")])
    a = answer_question(mem.store, "What is the brown colored object on the table?")
    assert a.success and "bellpepper_1" in a.answer_ids and "radio_2" not in a.answer_ids, a.answer


@pytest.mark.parametrize("text", ["bring pear, lime", "the pear and the lime, bring them", "get the pear, then the lime"])
def test_a_thing_named_but_left_out_of_the_plan_is_asked_about(mem, vega, text: str) -> None:
    # a list the parser reads as one thing: bringing only the pear would be a plan for the wrong thing
    mem.scene(1, [mem.ent("pear_1", "pear"), mem.ent("lime_2", "lime"), mem.ent("table_3", "table")],
              [("pear_1", "on", "table_3"), ("lime_2", "on", "table_3")])
    r = plan_request(mem.store, vega, text, speaker="alice")
    picked = [s.args[0] for s in r.plan.steps if s.skill == "pick"] if r.success else []
    assert set(picked) == {"pear_1", "lime_2"} or not r.success and "Say yes" in r.error and "lime" in r.error, \
        (r.error, picked)
    # a thing said as where to take it or which one is meant is not left out
    r = plan_request(mem.store, vega, "bring me the pear next to the lime", speaker="alice")
    assert r.success, r.error


@pytest.fixture
def kitchen_things(mem):
    e = mem.ent
    mem.scene(1, [e("kitchen_1", "room", name="kitchen"), e("pear_2", "pear"), e("sink_3", "sink"),
                  e("microwave_4", "microwave"), e("stove_5", "stove"), e("shelf_6", "shelf"), e("knife_7", "knife"),
                  e("counter_8", "kitchencounter"), e("chair_9", "chair"), e("magazine_10", "magazine"),
                  e("milk_11", "milk"), e("teddybear_12", "teddybear"), e("lotionbottle_13", "lotionbottle")],
              [("pear_2", "on", "shelf_6"), ("magazine_10", "on", "shelf_6"), ("milk_11", "on", "shelf_6"),
               ("teddybear_12", "on", "shelf_6"), ("lotionbottle_13", "on", "shelf_6")])
    return mem.store


@pytest.mark.parametrize("text", ["put the pear in the microwave under the sink",
                                  "take the pear from the shelf by the stove and put it in the microwave",
                                  "place the pear on the counter, between the knife and the sink",
                                  "Pick up the pear from the shelf of the stove. Put the pear on the counter."])
def test_things_named_to_say_where_a_place_is_are_not_left_out(kitchen_things, vega, text: str) -> None:
    # a put onto a named place: a thing said after "under", "by", "between", "of" is where, not what to carry
    r = plan_request(kitchen_things, vega, text, speaker="anna")
    assert r.success and _steps(r)[-1][0] == "place" and _steps(r)[-1][1][0] == "pear_2", r.error


@pytest.mark.parametrize("text", ["pick up the magazine from the shelf and set it down beside the chair",
                                  "put the magazine with the carton of milk on the counter"])
def test_a_thing_named_where_no_place_was_read_is_still_asked_about(kitchen_things, vega, text: str) -> None:
    # no place to set it on was read (the chair is where), or a thing is to come along ("with"): carrying the
    # magazine alone, or to the speaker, would be a plan for the wrong thing
    r = plan_request(kitchen_things, vega, text, speaker="anna")
    steps = _steps(r)
    assert not r.success or ("place", ["magazine_10", "chair_9"]) in steps or "milk_11" in str(steps), (r.error, steps)


@pytest.mark.parametrize("text", ["put the pear that is on the shelf in the microwave",
                                  "move the pear which is sitting on the shelf into the microwave"])
def test_the_place_that_says_which_thing_is_not_where_it_goes(kitchen_things, vega, text: str) -> None:
    # both places hang on "is": the first says which pear (the one on the shelf), the next is where it goes
    assert _steps(plan_request(kitchen_things, vega, text, speaker="anna"))[-1] == ("place", ["pear_2", "microwave_4"])


def test_a_place_said_before_under_is_where_it_goes(kitchen_things, vega) -> None:
    # a robot puts things on or in a place: "in the microwave under the sink" is the microwave (done); "on the
    # shelf under the window" may say which pear, so that reading is offered
    from memory_node.language import parse

    assert _steps(plan_request(kitchen_things, vega, "put the pear in the microwave under the sink", speaker="anna")) \
        [-1] == ("place", ["pear_2", "microwave_4"])
    offered = plan_request(kitchen_things, vega, "put the pear on the counter under the window", speaker="anna")
    assert not offered.success and "Do you want me to put the pear" in offered.error, offered.error
    assert parse("put the pear under the table").destination.relation == "under"


def test_a_thing_of_its_own_before_of_is_that_thing(kitchen_things, vega) -> None:
    # "the teddy of lotion" is the teddy (a teddy holds no lotion); "a bottle of lotion", "a carton of milk" are
    # what the bottle or carton holds, or the label naming both
    for text, want in (("bring me the teddy of lotion", "teddybear_12"), ("bring me a bottle of lotion", "lotionbottle_13"),
                       ("bring me a carton of milk", "milk_11")):
        assert ("pick", [want]) in _steps(plan_request(kitchen_things, vega, text, speaker="anna")), text


@pytest.fixture
def bathroom_things(mem):
    e = mem.ent
    mem.scene(1, [e("bathroom_1", "room", name="bathroom"), e("toilet_2", "toilet"), e("sink_3", "sink"),
                  e("tv_4", "tv"), e("tvstand_5", "tvstand"), e("desk_6", "desk"), e("teddybear_7", "teddybear"),
                  e("bed_8", "bed"), e("computer_9", "laptop"), e("remotecontrol_10", "remotecontrol")],
              [("teddybear_7", "on", "tvstand_5"), ("tv_4", "on", "tvstand_5"), ("computer_9", "on", "bed_8"),
               ("remotecontrol_10", "on", "desk_6")])
    return mem.store


@pytest.mark.parametrize("text, where", [
    # a word that names a room to some and a fixture to others: the plan sets the thing in the fixture
    ("put the teddy in the toilet under the sink", "toilet_2"),
    ("put the teddy into a toilet underneath the sink", "toilet_2"),
    # a thing memory holds, said as the first word of another thing's name ("the TV unit" is no TV)
    ("pick up the teddy on the TV unit. put the teddy on the desk", "desk_6"),
    # "the same bed as the laptop": the laptop says which bed
    ("put the teddy on the same bed as the laptop", "bed_8")])
def test_a_place_said_by_other_things_is_no_thing_left_out(bathroom_things, vega, text: str, where: str) -> None:
    r = plan_request(bathroom_things, vega, text, speaker="anna")
    assert r.success and _steps(r)[-1] == ("place", ["teddybear_7", where]), r.error


@pytest.mark.parametrize("text", ["bring the teddy and the tv", "put the teddy on the desk and the tv too",
                                  "bring the teddy and the remote please"])
def test_a_thing_named_alone_is_still_a_thing_left_out(bathroom_things, vega, text: str) -> None:
    # the same words said as things of their own: carrying the teddy alone would be less than was asked
    r = plan_request(bathroom_things, vega, text, speaker="anna")
    picked = [s.args[0] for s in r.plan.steps if s.skill == "pick"] if r.success else []
    assert not r.success or len(picked) == 2, (r.error, picked)


def test_a_word_after_a_name_says_which_thing_only_when_it_is_a_thing_noun() -> None:
    from memory_node.requests.dispatch import _modifies_next

    names = {"milk", "teddybear"}
    # "the TV unit", "the TV stand": the first word says which thing
    assert _modifies_next(["the", "tv", "unit"], 1, names) and _modifies_next(["the", "tv", "stand"], 1, names)
    # a particle, an address or an adverb after a thing's name is no head noun: "the milk lah" is the milk
    for after in ("lah", "sir", "madam", "back", "please", "too"):
        assert not _modifies_next(["the", "tv", after], 1, names), after
    # a part is still the thing's ("the fridge door"), and a name of its own is a second thing ("tv milk")
    assert not _modifies_next(["the", "fridge", "door"], 1, names) and not _modifies_next(["tv", "milk"], 0, names)


@pytest.mark.parametrize("text", ["put the lotion with the teddy on the desk", "put lotion with teddy on desk",
                                  "put the remote with a ball on the desk"])
def test_a_thing_to_come_along_named_as_people_name_it_is_asked_about(mem, vega, text: str) -> None:
    # "teddy" is the teddy bear (a WordNet synonym), "ball" the sports ball (its head noun), "lotion" what the
    # bottle holds: moving the one thing without the other is less than was asked
    e = mem.ent
    mem.scene(1, [e("desk_1", "desk"), e("shelf_2", "shelf"), e("lotionbottle_3", "lotionbottle"),
                  e("teddybear_4", "teddybear"), e("remotecontrol_5", "remotecontrol"), e("sportsball_6", "sportsball")],
              [("lotionbottle_3", "on", "shelf_2"), ("teddybear_4", "on", "shelf_2"), ("remotecontrol_5", "on", "shelf_2"),
               ("sportsball_6", "on", "shelf_2")])
    r = plan_request(mem.store, vega, text, speaker="anna")
    assert not r.success and "Say yes" in r.error and "you also said" in r.error, r.error
    # what it is done with is not carried along
    r = plan_request(mem.store, vega, "wipe the remote with the teddy, then put the remote on the desk", speaker="anna")
    assert r.success and _steps(r)[-1] == ("place", ["remotecontrol_5", "desk_1"]), r.error
    # what the thing has or looks like names nothing memory holds: done
    r = plan_request(mem.store, vega, "put the remote with the red buttons on the desk", speaker="anna")
    assert r.success and _steps(r)[-1] == ("place", ["remotecontrol_5", "desk_1"]), r.error


@pytest.mark.parametrize("text", ["bring me the pear — sorry, the lime", "get me the pear, scratch that, the lime",
                                  "bring me the pear, sorry, I mean the lime"])
def test_a_thing_taken_back_by_a_self_repair_is_not_left_out(mem, vega, text: str) -> None:
    mem.scene(1, [mem.ent("pear_1", "pear"), mem.ent("lime_2", "lime"), mem.ent("table_3", "table")],
              [("pear_1", "on", "table_3"), ("lime_2", "on", "table_3")])
    r = plan_request(mem.store, vega, text, speaker="alice")
    assert r.success, r.error
    assert [s.args[0] for s in r.plan.steps if s.skill == "pick"] == ["lime_2"]


@pytest.fixture
def two_people(mem):
    e = mem.ent
    mem.scene(1, [e("kitchen_201", "room", name="kitchen"),
                  e("person_1", "person", name="anna", position=Point(x=0.0, y=1.0, z=0.9)),
                  e("person_2", "person", name="ben", position=Point(x=3.0, y=1.0, z=0.9)),
                  e("kitchentable_2", "kitchentable", position=Point(x=2.0, y=0.0, z=0.5)),
                  e("stapler_3", "stapler", position=Point(x=2.0, y=0.0, z=0.8)),
                  e("juice_4", "juice", position=Point(x=2.1, y=0.0, z=0.8))],
              [("stapler_3", "on", "kitchentable_2"), ("juice_4", "on", "kitchentable_2")])
    return mem.store


def test_a_person_named_but_left_out_of_the_plan_is_asked_about(two_people, vega) -> None:
    # read as a fetch for the speaker, Ben is named and not handed to
    asked = plan_request(two_people, vega, "grab the stapler, ben needs it", speaker="anna")
    assert not asked.success and "you also said ben" in asked.error and "Say yes" in asked.error
    # "two" for "to" (speech to text) before a name memory knows is "to"
    for text in ("take the stapler to ben", "take the stapler two ben"):
        done = plan_request(two_people, vega, text, speaker="anna")
        assert ("handover", ["stapler_3"]) in _steps(done) and ("navigate_to", ["person_2"]) in _steps(done), text


def test_the_person_who_passed_a_request_on_is_not_left_out(two_people, vega) -> None:
    done = plan_request(two_people, vega, "Ben said I should ask you, can you bring me the stapler?", speaker="anna")
    assert done.success and ("handover", ["stapler_3"]) in _steps(done)
    # ... unless "him" / "her" may make them the one it is for: asked about, not handed to the speaker
    asked = plan_request(two_people, vega, "Ben said bring him the stapler", speaker="anna")
    assert ("navigate_to", ["person_2"]) in _steps(asked) or not asked.success


def test_a_verb_of_going_with_a_thing_carries_it_to_the_person(two_people, vega) -> None:
    done = plan_request(two_people, vega, "run the stapler over to Ben, would you", speaker="anna")
    assert ("navigate_to", ["person_2"]) in _steps(done) and ("pick", ["stapler_3"]) in _steps(done)


def test_an_open_something_is_asked_about_never_guessed(two_people, vega) -> None:
    asked = plan_request(two_people, vega, "bring me something", speaker="anna")
    assert not asked.success and "what would you like" in asked.error
    assert not plan_request(two_people, vega, "put anything from the kitchen on the table", speaker="anna").success
    # a need said beside it says what it is for: the juice, not the stapler
    done = plan_request(two_people, vega, "i'm so thirsty, get me something", speaker="anna")
    assert ("pick", ["juice_4"]) in _steps(done), done


@pytest.mark.parametrize("confidence, acted", [(0.6, False), (0.75, True)])
def test_a_task_read_with_middling_confidence_is_offered_not_done(flat, vega, confidence: float, acted: bool) -> None:
    # the same reading at the confidence its calibration gives: acting on it needs more than answering does
    from memory_node.language import parse
    from memory_node.language.request import Kind

    req = parse("bring me the mug", prefer=Kind.command).model_copy(update={"confidence": confidence})
    r = plan_request(flat, vega, "bring me the mug", speaker="anna", request=req)
    assert r.success is acted, r
    if not acted:
        assert "Do you want me to bring the mug" in r.error
    answered = answer_question(flat, "where is the mug", request=parse("where is the mug", prefer=Kind.question)
                               .model_copy(update={"confidence": confidence}))
    assert answered.success and "kitchentable_2" in answered.answer_ids + answered.evidence_ids + [answered.answer]


@pytest.fixture
def two_rooms(mem):
    e = mem.ent
    mem.scene(1, [e("kitchen_1", "room", name="kitchen"), e("bedroom_2", "room", name="bedroom"),
                  e("person_1", "person", name="anna", position=Point(x=0.0, y=1.0, z=0.9)),
                  e("kitchentable_3", "kitchentable", room="kitchen_1", position=Point(x=2.0, y=0.0, z=0.5)),
                  e("nightstand_4", "nightstand", room="bedroom_2", position=Point(x=8.0, y=0.0, z=0.5)),
                  e("juice_5", "juice", room="bedroom_2", position=Point(x=8.0, y=0.0, z=0.8))],
              [("juice_5", "on", "nightstand_4")])
    return mem.store


def test_a_room_said_that_the_plan_neither_visits_nor_reads_is_asked_about(two_rooms, vega) -> None:
    # "as far as the kitchen" lost: a fetch for the speaker would carry the juice somewhere else than said
    asked = plan_request(two_rooms, vega, "carry the juice, kitchen, thanks", speaker="anna")
    assert not asked.success and "you also said kitchen" in asked.error
    # a room the reading uses (where the thing is taken from, where it goes) is not left out
    for text in ("bring me the juice from the bedroom", "take the juice to the kitchen",
                 "carry the juice as far as the kitchen", "can you carry the juice until the kitchen, please?"):
        r = plan_request(two_rooms, vega, text, speaker="anna")
        assert r.success, (text, r.error)
    assert _steps(plan_request(two_rooms, vega, "carry the juice until the kitchen", speaker="anna"))[2] == \
        ("navigate_to", ["kitchen_1"])


def test_a_phrase_joined_from_words_said_apart_is_asked_about() -> None:
    from memory_node.language.request import Intent, Kind, ObjectRef, Request
    from memory_node.requests.dispatch import _stitched
    joined = Request(text="grab the radio and uh the loo roll and bring them", kind=Kind.command, intent=Intent.fetch,
                     objects=[ObjectRef(text="the radio roll", head="roll")])
    assert _stitched(joined) == ["loo"]
    said = Request(text="bring me the big red mug", kind=Kind.command, intent=Intent.fetch,
                   objects=[ObjectRef(text="the big red mug", head="mug")])
    assert _stitched(said) == []


def test_where_a_thing_is_as_the_speaker_sees_it_does_not_refuse(mem, vega) -> None:
    # "on the right", "in front of you": memory cannot check them; one fridge is that fridge, of two mugs the
    # robot asks which, and a place memory does know still tells things apart
    mem.scene(1, [mem.ent("fridge_1", "fridge"), mem.ent("table_2", "table"), mem.ent("lime_3", "lime"),
                  mem.ent("mug_4", "mug"), mem.ent("mug_5", "mug"), mem.ent("sink_6", "sink")],
              [("lime_3", "on", "table_2"), ("mug_4", "on", "table_2"), ("mug_5", "in", "sink_6")])
    r = plan_request(mem.store, vega, "put the lime in the fridge on the right", speaker="anna")
    assert _steps(r)[-1] == ("place", ["lime_3", "fridge_1"]), r.error
    r = plan_request(mem.store, vega, "bring me the mug in front of you", speaker="anna")
    assert not r.success and "mug_4" in r.error and "mug_5" in r.error, r.error
    assert ("pick", ["mug_5"]) in _steps(plan_request(mem.store, vega, "bring me the mug in the sink", speaker="anna"))


def test_next_to_a_small_thing_is_on_what_it_stands_on(mem, vega) -> None:
    # a mug is no surface: "next to the mug" sets the radio down on the mug's table, never on the mug
    mem.scene(1, [mem.ent("radio_1", "radio", attributes={"grabbable": "true"}),
                  mem.ent("mug_2", "mug", attributes={"grabbable": "true"}),
                  mem.ent("table_3", "table", attributes={"surface": "true"}),
                  mem.ent("shelf_4", "shelf", attributes={"surface": "true"})],
              [("radio_1", "on", "shelf_4"), ("mug_2", "on", "table_3")])
    r = plan_request(mem.store, vega, "put the radio next to the mug", speaker="anna")
    assert _steps(r)[-1] == ("place", ["radio_1", "table_3"]), (r.error, _steps(r))


@pytest.mark.parametrize("text", ["can you not bring the mug", "I don't want the mug", "we no longer need the mug"])
def test_asking_not_to_or_not_wanting_is_no_fetch(flat, vega, text: str) -> None:
    r = plan_request(flat, vega, text, speaker="anna")
    assert not r.success and not _steps(r), r


def test_a_plural_whose_commonest_sense_is_another_thing_is_asked_about(mem, vega) -> None:
    # "my glasses" are spectacles first (WordNet); a wine glass reached through "glass" is a guess, asked about,
    # never fetched; a memory that holds spectacles is answered
    mem.scene(1, [mem.ent("wineglass_1", "wineglass"), mem.ent("table_2", "table")], [("wineglass_1", "on", "table_2")])
    r = plan_request(mem.store, vega, "bring me my glasses", speaker="anna")
    assert not r.success and "Do you mean" in r.error and "wineglass_1" in r.error, r.error
    a = answer_question(mem.store, "where are my glasses?", speaker="anna")
    assert a.confidence < 0.6 and "Do you mean" in a.answer, a.answer
    mem.scene(2, [mem.ent("glasses_3", "glasses")], [("glasses_3", "on", "table_2")])
    a = answer_question(mem.store, "where are my glasses?", speaker="anna")
    assert "glasses_3" in a.answer and "Do you mean" not in a.answer, a.answer
    assert ("pick", ["wineglass_1"]) in _steps(plan_request(mem.store, vega, "bring me the wine glass"))



def test_not_wanting_a_thing_left_somewhere_is_a_reason_not_a_refusal(flat, vega) -> None:
    r = plan_request(flat, vega, "I don't want it left there, so bring me the mug", speaker="anna")
    assert ("pick", ["mug_6"]) in _steps(r), r.error


def test_a_thing_of_someone_memory_does_not_know_is_not_guessed(flat, vega) -> None:
    # "Carol's" names no one memory knows: whichever mug is there would be a guess about whose it is
    a = answer_question(flat, "where is Carol's mug?")
    assert "Carol" in a.answer and not a.answer_ids, a.answer
    r = plan_request(flat, vega, "bring me Carol's mug")
    assert not r.success and "Carol" in r.error, r
    a = answer_question(flat, "where is my mug?")  # the speaker is known: the mug memory holds is theirs to ask
    assert a.answer_ids, a.answer


def test_a_thing_named_for_its_owner_says_whose_it_is_without_knowing_them(mem) -> None:
    e = mem.ent
    mem.scene(1, [e("kitchen_201", "room", name="kitchen"),
                  e("cup_7", "cup", name="Ann's cup", position=Point(x=1.0, y=0.0, z=0.8)),
                  e("cup_8", "cup", position=Point(x=2.0, y=0.0, z=0.8))])
    a = answer_question(mem.store, "where is Ann's cup?")
    assert "cup_7" in a.answer_ids + a.evidence_ids or "cup_7" in a.answer, a
    a = answer_question(mem.store, "where is Carol's cup?")
    assert "Carol" in a.answer and "cup_8" not in a.answer_ids, a
