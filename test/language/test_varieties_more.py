"""Varieties of English and registers the twenty-third session's writers showed (West African and Hawai'i Pidgin,
Hindi and Spanish around English names, Aberdeen Doric, Ulster, Cornish, a pirate's joke talk, archaic and report
registers, a typist's clipped words) and pauses that end a sentence. Each row is this file's own sentence: what the
parser reads, or the normal form where that is the point."""

from __future__ import annotations

import pytest

from memory_node.language import parse
from memory_node.language.normalise import normalise
from memory_node.language.request import Intent, Kind


@pytest.mark.parametrize("text, intent, head", [
    ("Abeg, where my keys dey?", Intent.where, "key"),
    ("Weti be the colour of the kettle?", Intent.attribute, "kettle"),
    ("Before dem move the kettle, where e bin dey?", Intent.where, "kettle"),
    ("the kettle, it shut?", Intent.state, "kettle"),
    ("prev location of kettle?", Intent.where, "kettle"),
    ("last seen time for kettle?", Intent.when_seen, "kettle"),
    ("Wat color da kettle?", Intent.attribute, "kettle"),
    ("Wea da kettle was before somebody wen move 'um?", Intent.where, "kettle"),
    ("kettle ka colour kya hai?", Intent.attribute, "kettle"),
    ("Tumne the kettle dekha kya?", Intent.exists, "kettle"),
    ("kettle last time kab dekha tha?", Intent.when_seen, "kettle"),
    ("Far's the kettle?", Intent.where, "kettle"),
    ("Now where in tarnation did I leave my kettle?", Intent.where, "kettle"),
    ("Canst thou recall where I left the kettle?", Intent.where, "kettle"),
    ("The colour of the kettle is requested to be stated.", Intent.attribute, "kettle"),
    ("What colour has kettle?", Intent.attribute, "kettle"),
    ("Be the oven open, matey?", Intent.state, "oven"),
    ("Hiv we got ony spoons in the hoose?", Intent.exists, "spoon"),
    ("The kettle has not been located despite a careful search.", Intent.where, "kettle"),
    ("Which room did the kettle end up in... I've no idea any more.", Intent.what_room, "kettle"),
    ("Pehli baar kettle kab dekha tha tumne?", Intent.when_seen, "kettle"),
    ("¿Cuándo fue la última vez que viste the kettle? Like, what time?", Intent.when_seen, "kettle"),
    ("When you saw last time kettle?", Intent.when_seen, "kettle"),
    ("Last sighting of the kettle, what time?", Intent.when_seen, "kettle"),
    ("kettle pehle kahan tha?", Intent.where, "kettle"),
    ("The place at which the kettle was kept prior to its having been moved is requested.", Intent.where, "kettle"),
    ("Da cupboard stay locked o wat?", Intent.state, "cupboard"),
    ("Check the kitchen for me: any kettles in there? Yes or no.", Intent.exists, "kettle"),
    ("Ahoy! Have ye laid yer eyes on me kettle, matey?", Intent.exists, "kettle"),
    ("in the oven kya kya hai?", Intent.contents, "oven"),
    ("A list of the items currently placed in the oven is requested.", Intent.contents, "oven"),
    ("Run me through what's in the oven. Go.", Intent.contents, "oven"),
])
def test_questions_in_other_varieties_and_registers(text: str, intent: Intent, head: str) -> None:
    _reads(text, Kind.question, intent, head)


def _reads(text: str, kind: Kind, intent: Intent, head: str) -> None:
    r = parse(text, prefer=kind)
    assert r.intent is intent, (r.intent, r.notes)
    assert r.objects and r.objects[0].head == head, r.objects


@pytest.mark.parametrize("text, intent, head", [
    ("Abeg carry the kettle go put for the kitchen.", Intent.put, "kettle"),
    ("Carry the kettle and the spoon come give me.", Intent.fetch, "kettle"),
    ("Away and get us the kettle, would ye?", Intent.fetch, "kettle"),
    ("Fess us the kettle, wid ye?", Intent.fetch, "kettle"),
    ("Zara the kettle le aao na.", Intent.fetch, "kettle"),
    ("Jao, the kettle dhoondo.", Intent.find, "kettle"),
    ("Ve a buscar the kettle.", Intent.find, "kettle"),
    ("It is requested that the kettle be brought to me.", Intent.fetch, "kettle"),
    ("It is requested that the kettle be sought out.", Intent.find, "kettle"),
    ("Be so good as to fetch me the kettle.", Intent.fetch, "kettle"),
    ("Eh, try bring da kettle ova hea fo' me, k?", Intent.fetch, "kettle"),
    ("Bring the kettle give Ben, please.", Intent.fetch, "kettle"),
    ("Pray restore the kettle to its former position.", Intent.put_back, "kettle"),
    ("Pray, go forth in search of the kettle.", Intent.find, "kettle"),
    ("fetch kettle", Intent.fetch, "kettle"),
    ("The kettle counter pe rakh do, please.", Intent.put, "kettle"),
    ("Déjame the kettle on the nightstand, ¿sí?", Intent.put, "kettle"),
    ("The kettle, on the desk. Now.", Intent.put, "kettle"),
    ("Pon the kettle back donde estaba, please.", Intent.put_back, "kettle"),
])
def test_commands_in_other_varieties_and_registers(text: str, intent: Intent, head: str) -> None:
    _reads(text, Kind.command, intent, head)


@pytest.mark.parametrize("text, normal", [
    ("nav to sink", "navigate to sink"),
    ("You can bring the two for me?", "You can bring both for me?"),
    ("bring me the two spoons", "bring me the two spoons"),
    ("Away into the kitchen there.", "go into the kitchen there."),
])
def test_normal_forms(text: str, normal: str) -> None:
    assert normalise(text) == normal


def test_a_list_in_hawaii_pidgin_is_two_things() -> None:
    r = parse("Bring me da kettle an' da spoon, k brah?", prefer=Kind.command)
    assert r.intent is Intent.fetch and [o.head for o in r.objects] == ["kettle", "spoon"], r.objects


def test_which_side_is_english_too() -> None:
    r = parse("which side of the bed is the kettle on?", prefer=Kind.question)
    assert r.intent is not Intent.where, (r.intent, r.notes)
    assert normalise("which side the kettle dey?") == "where is the kettle?"


def test_a_list_said_with_a_plus_is_two_things() -> None:
    r = parse("fetch toilet paper + computer mouse", prefer=Kind.command)
    assert r.intent is Intent.fetch and [o.head for o in r.objects] == ["paper", "mouse"], r.objects


def test_a_remark_about_what_someone_else_knew_is_no_question() -> None:
    r = parse("Where does the kettle go... he always knew where everything went.", prefer=Kind.question)
    assert r.intent is Intent.goes_where and r.objects[0].head == "kettle", (r.intent, r.objects)


def test_how_many_said_as_a_headcount_and_a_room_after_a_compound_name() -> None:
    r = parse("Headcount on spoons in the kitchen? Give me a number.", prefer=Kind.question)
    assert r.intent is Intent.count and r.objects[0].head == "spoon", (r.intent, r.objects)
    r = parse("Is there a bathroom counter in the bedroom?", prefer=Kind.question)
    assert r.intent is Intent.exists and r.objects[0].anchor is not None and \
        r.objects[0].anchor.ref.head == "bedroom", r.objects


def test_the_part_says_whom_when_the_whole_runs_a_name_into_the_next_word() -> None:
    r = parse("Deliver the kettle to Ben. Acknowledge. Over.", ["ben", "anna"], Kind.command)
    assert r.intent is Intent.fetch and r.recipient.lower() == "ben", (r.recipient, r.notes)


def test_leaving_it_somewhere_is_no_walk_in_doubt() -> None:
    from memory_node.language.reading_policy import ASK_BACK_BELOW

    r = parse("Um, could you take the kettle to the bathroom? Just leave it in there, I think.", prefer=Kind.command)
    assert r.intent is Intent.put and r.confidence >= ASK_BACK_BELOW, (r.intent, r.confidence, r.alternatives)


@pytest.mark.parametrize("text, normal", [
    ("kettles... we have? Any... at home?", "kettles, we have? Any, at home?"),
    ("where did... I leave the kettle?", "where did, I leave the kettle?"),
])
def test_a_pause_after_a_few_words_or_a_word_that_cannot_end_a_clause_goes_on(text: str, normal: str) -> None:
    assert normalise(text) == normal
