"""What speech does to words before the parser reads them (language/speech.py), and the readings that follow."""

from __future__ import annotations

import json

import pytest

from memory_node.bench.paraphrase_eval import DATA
from memory_node.language import parser
from memory_node.language.request import Intent, Kind
from memory_node.language.normalise import normalise, normalise_command, normalise_question
from memory_node.language.speech import dictation_fixes, edit_repairs, typing_fixes, without_symbols, word_searches


@pytest.mark.parametrize("heard, meant", [
    ("were is the radio", "where is the radio"),
    ("wear did I leave it", "where did I leave it"),
    ("ok were are my keys", "ok where are my keys"),
    ("is their a mug in the kitchen", "is there a mug in the kitchen"),
    ("go fine the remote and weight their", "go find the remote and wait there"),
    ("bring me the remote hear please", "bring me the remote here please"),
    ("could you fetch the mug four me wood you", "could you fetch the mug for me would you"),
    ("which bowl is the won next to the table", "which bowl is the one next to the table"),
    ("can you clothes it then", "can you close it then"),
    ("what's in the microwave write now", "what's in the microwave right now"),
    ("take the pear two Ben", "take the pear to Ben"),
    ("do you no where the mug is", "do you know where the mug is"),
    ("put it in the top draw", "put it in the top drawer"),
    ("wear is the radio at the moment period", "where is the radio at the moment."),
    ("which phone is the one in the cupboard question mark", "which phone is the one in the cupboard?"),
    ("where WAS the mug", "where was the mug"),
])
def test_dictation_homophones_and_spoken_marks_are_read_as_meant(heard: str, meant: str) -> None:
    assert dictation_fixes(heard) == meant


@pytest.mark.parametrize("said", [
    "were you in the kitchen?", "did you hear that?", "I can hear you", "I want to go there",
    "put the milk in their fridge", "draw me a picture", "is the TV on", "what was the weather like",
    "the four mugs", "which team won", "what period is it in",
])
def test_words_used_in_their_own_sense_are_left_alone(said: str) -> None:
    assert dictation_fixes(said) == said


@pytest.mark.parametrize("said, meant", [
    ("Take the radio to — scratch that, to Ben, not to me.", "Take the radio to Ben, not to me."),
    ("When did you first — no, last, when did you last see the mug?", "when did you last see the mug?"),
    ("Which glass did — sorry — which glass is on the counter?", "which glass is on the counter?"),
    ("put it on the shelf — no, sorry, the table", "put it on the table"),
    ("put the — no wait, take the cup to the kitchen", "take the cup to the kitchen"),
    ("Put the mug on the table, actually in the sink", "Put the mug in the sink"),
    ("bring me the cup, no, the glass", "bring me the glass"),
])
def test_a_self_repair_replaces_the_stretch_it_starts_again(said: str, meant: str) -> None:
    assert edit_repairs(said) == meant


@pytest.mark.parametrize("said", [
    "Bring me the mug, I mean the one on the table",  # says which, takes nothing back
    "Take the mug to the kitchen, sorry to bother you",  # an apology
    "Is it on the table, no?", "Bring me the mug, no rush", "Go to the kitchen, wait there",
    "No, the red one.",
])
def test_what_is_no_repair_is_left_alone(said: str) -> None:
    assert edit_repairs(said) == said


@pytest.mark.parametrize("text, intent, head", [
    ("bring the mug back to me", Intent.fetch, "mug"),
    ("bring the mug back here", Intent.fetch, "mug"),
    ("take the mug back to the kitchen", Intent.fetch, "mug"),
    ("put the mug back", Intent.put_back, "mug"),
    ("bring the mug back", Intent.put_back, "mug"),
])
def test_back_to_someone_is_a_fetch_and_back_alone_a_put_back(text: str, intent: Intent, head: str) -> None:
    req = parser.parse(text, prefer=Kind.command)
    assert req.intent is intent and [o.head for o in req.objects] == [head], (text, req)


def test_them_in_a_later_part_gathers_the_things_of_the_parts_before() -> None:
    req = parser.parse("First, go and get the pear. Then find the lotion. Finally, bring them both back to me.",
                       prefer=Kind.command)
    assert req.intent is Intent.fetch and sorted(o.head for o in req.objects) == ["lotion", "pear"]


@pytest.mark.parametrize("text, intent, head", [
    ("Tell me whether the wardrobe can be opened.", Intent.usable, "wardrobe"),
    ("I'm wondering whether the living room has any pillows in it at all.", Intent.exists, "pillow"),
    ("Would you kindly ascertain whether a microwave is to be found in the kitchen?", Intent.exists, "microwave"),
    ("Have we any pillows in the house at all?", Intent.exists, "pillow"),
    ("I can use the wardrobe or not?", Intent.usable, "wardrobe"),
    ("The wardrobe is closed with key?", Intent.state, "wardrobe"),
    ("Look up the mug in your memory. Then tell me its colour.", Intent.attribute, "mug"),
    ("Kindly remind me of the colour of my glass.", Intent.attribute, "glass"),
    ("Before it got shifted, where the mug was kept?", Intent.where, "mug"),
    ("remote control: previous location, before the move?", Intent.where, "remote"),
    ("Where, prior to its removal, was the lime kept?", Intent.where, "lime"),
    ("Have you by any chance laid eyes upon the juice?", Intent.exists, "juice"),
])
def test_learners_and_formal_questions_are_read(text: str, intent: Intent, head: str) -> None:
    req = parser.parse(text, prefer=Kind.question)
    assert req.intent is intent and any(head in o.text for o in req.objects), (text, req.intent, req.objects)


@pytest.mark.parametrize("text, intent, heads", [
    ("Can you grab me, like, two things? The radio and the mug, yeah?", Intent.fetch, ["mug", "radio"]),
    ("Need two things here: 1) the radio; 2) the mug.", Intent.fetch, ["mug", "radio"]),
    ("Get me the, uh, the thingy — the mug, that's it. Bring it to me.", Intent.fetch, ["mug"]),
    ("radio to me, asap.", Intent.fetch, ["radio"]),
    ("It'd be nice to have my glass here with me.", Intent.fetch, ["glass"]),
    ("Think you could get the radio over to me?", Intent.fetch, ["radio"]),
    ("Would you be so good as to restore the mug to its former position?", Intent.put_back, ["mug"]),
    ("Go to the microwave. Take hold of the door. Pull it open.", Intent.open, ["microwave"]),
    ("Put loo roll to its place.", Intent.put_away, ["roll"]),
    ("Kindly return the magazine to its customary place of keeping.", Intent.put_away, ["magazine"]),
    ("Return the mug to its place of before.", Intent.put_back, ["mug"]),
])
def test_requests_in_hurried_formal_and_listed_forms(text: str, intent: Intent, heads: list[str]) -> None:
    req = parser.parse(text, prefer=Kind.command)
    assert req.intent is intent and sorted(o.head for o in req.objects) == heads, (text, req.intent, req.objects)


def test_a_place_said_before_is_where_a_thing_carried_there_goes() -> None:
    req = parser.parse("I'm going to be working in the kitchen all afternoon, so could you carry the juice in there "
                       "and leave it for me?", prefer=Kind.command)
    assert req.intent is Intent.fetch and req.destination is not None and req.destination.ref.head == "kitchen"
    assert req.destination.relation == "at" and not req.recipient, req


@pytest.mark.parametrize("text, intent, head, room", [
    ("Go through the bedroom in your head. Count the pillows. Then tell me the number.", Intent.count, "pillow",
     "bedroom"),
    ("Count of pillows in the bedroom? Number only.", Intent.count, "pillow", "bedroom"),
    ("Any pillows are there in the bedroom, or not?", Intent.exists, "pillow", "bedroom"),
])
def test_counting_and_existence_keep_the_room_said(text: str, intent: Intent, head: str, room: str) -> None:
    req = parser.parse(text, prefer=Kind.question)
    assert req.intent is intent and req.objects[0].head == head, (text, req)
    assert req.objects[0].room == room or (req.objects[0].anchor and req.objects[0].anchor.ref.head == room), req


@pytest.mark.parametrize("typed, meant", [
    ("brign me teh juice pls", "bring me the juice please"),
    ("tkae the juice to Ben pls", "take the juice to Ben please"),
    ("how mnay books are in teh kitchne", "how many books are in the kitchen"),
    ("hav you seen teh radio anywehre?", "have you seen the radio anywhere?"),
    ("im so thristy, get me somthing to drink", "I'm so thirsty, get me something to drink"),
    ("Can you go look fir the remote control?", "Can you go look for the remote control?"),
    ("Which glass is mind?", "Which glass is mine?"),
    ("And what collar is it?", "And what colour is it?"),
    ("wheres teh glass??", "where's the glass??"),
    ("mi cyaan find mi keys", "mi can't find mi keys"),  # Caribbean "can't", read as meant
])
def test_typing_slips_and_chat_shorthand_are_read_as_meant(typed: str, meant: str) -> None:
    assert typing_fixes(typed) == meant


@pytest.mark.parametrize("typed", [
    "how many hoodies are there?",  # a thing's name the word list lacks is no slip for "goodies"
    "Weh di kettle deh?", "Take the juice through tae the kitchen.",  # dialect spellings
    "put it on the hob", "is the mousemat on the desk", "where is the tv", "Alcie wants the mug",
    "where is the kilner jar",  # a brand said before a thing's name ("killer" was read)
])
def test_words_the_lists_lack_and_names_stay_as_typed(typed: str) -> None:
    assert typing_fixes(typed) == typed


@pytest.mark.parametrize("typed, meant", [
    ("opin the microwave", "open the microwave"),  # a slip of a word that shapes the request, one edit away
    ("brin me the radio", "bring me the radio"),
    ("put the milk awey", "put the milk away"),
    ("how meny towels in the kitchen", "how many towels in the kitchen"),
    ("where did i leeve my keys", "where did i leave my keys"),  # a swap ("levee") too rare to be meant
    ("whre is the mug", "where is the mug"),
])
def test_short_slips_of_the_words_that_shape_a_request_are_read_as_meant(typed: str, meant: str) -> None:
    assert typing_fixes(typed) == meant


@pytest.mark.parametrize("typed", [
    "wher is it",  # where or when: two such words one edit away, neither clearly commoner
    "Brin wants the mug",  # a capitalised word may be a name
    "mah phone is lost",  # three letters: a dialect word more often than a slip
])
def test_a_short_slip_with_no_one_reading_stays_as_typed(typed: str) -> None:
    assert typing_fixes(typed) == typed


@pytest.mark.skipif(not (DATA / "virtualhome_graphs").is_dir(), reason=f"no shared data at {DATA}")
def test_no_label_of_the_shipped_homes_is_taken_for_a_slip() -> None:
    graphs = sorted((DATA / "virtualhome_graphs" / "example_graphs").glob("*.json"))
    labels = {n["class_name"] for g in graphs for n in json.loads(g.read_text())["nodes"]}
    assert len(labels) > 100
    assert [w for w in sorted(labels) if typing_fixes(w) != w] == []


def test_a_known_name_typed_in_lower_case_is_not_corrected() -> None:
    req = parser.parse("brign alice teh mug", names=("alice",), prefer=Kind.command)
    assert req.intent is Intent.fetch and req.recipient == "alice" and req.objects[0].head == "mug", req


@pytest.mark.parametrize("text, intent, head", [
    ("Mum told me to ask you to bring me the pear.", Intent.fetch, "pear"),
    ("Dad says I should ask you to bring me both the radio and the mug.", Intent.fetch, "radio"),
    ("robot, radio, to me, now", Intent.fetch, "radio"),
    ("robot, lime, from microwave, to me", Intent.fetch, "lime"),
    ("robot, radio, on bed", Intent.put, "radio"),
    ("Please carry the radio go to the bathroom.", Intent.fetch, "radio"),
    ("Close the fridge na, po.", Intent.close, "fridge"),
])
def test_relayed_and_keyword_requests(text: str, intent: Intent, head: str) -> None:
    req = parser.parse(text, prefer=Kind.command)
    assert req.intent is intent and req.objects[0].head == head, (text, req.intent, req.objects)


@pytest.mark.parametrize("text, intent, head", [
    ("My son asked me to check with you whether you've seen the radio anywhere.", Intent.exists, "radio"),
    ("My aunt is asking whether there's a mug in the kitchen.", Intent.exists, "mug"),
    ("My cousin is asking whether he can open the wardrobe.", Intent.usable, "wardrobe"),
    ("Dad wants a list of what's in the microwave.", Intent.contents, "microwave"),
    ("Rather than me walking around the whole house again (which, with this knee, I'd really like to avoid), can "
     "you just tell me which room the radio ended up in?", Intent.what_room, "radio"),
    ("There's nothing in the wardrobe, is there?", Intent.contents, "wardrobe"),
    ("robot, microwave contents", Intent.contents, "microwave"),
    ("robot, radio colour", Intent.attribute, "radio"),
    ("robot, microwave, open or not", Intent.state, "microwave"),
    ("Is the wardrobe looked?", Intent.state, "wardrobe"),
])
def test_relayed_and_keyword_questions(text: str, intent: Intent, head: str) -> None:
    req = parser.parse(text, prefer=Kind.question)
    assert req.intent is intent and any(o.head == head for o in req.objects), (text, req.intent, req.objects)


def test_a_relayed_question_about_her_own_thing_is_about_the_named_person() -> None:
    req = parser.parse("Anna wants to know where her glass is.", prefer=Kind.question)
    assert req.intent is Intent.where and req.objects[0].head == "glass" and req.objects[0].owner == "anna", req


@pytest.mark.parametrize("text, intent, heads", [
    ("Would it be at all possible to take the juice to Ben?", Intent.fetch, ["juice"]),
    ("Oye, bring me the radio y también the mug, por favor.", Intent.fetch, ["mug", "radio"]),
    ("Grab me the radio and the mug, ja, lekker.", Intent.fetch, ["mug", "radio"]),
    ("Stay there, sweetie — robot, go and find the radio.", Intent.find, ["radio"]),
    ("exec navigate_to(location_of(radio))", Intent.go, ["radio"]),
    ("exec restore mug -> previous_location(mug)", Intent.put_back, ["mug"]),
])
def test_particles_asides_to_others_and_commands_written_as_code(text: str, intent: Intent, heads: list[str]) -> None:
    req = parser.parse(text, prefer=Kind.command)
    got = sorted(o.head for o in req.objects) or [req.destination.ref.head if req.destination else ""]
    assert req.intent is intent and got == heads, (text, req.intent, req.objects, req.destination)


@pytest.mark.parametrize("said, kept", [("where is my pet?", "pet"), ("what happened on the day?", "on the day"),
                                        ("bring me the mug, love", "mug")])
def test_a_word_of_address_needs_its_comma(said: str, kept: str) -> None:
    from memory_node.language.normalise import normalise
    assert kept in normalise(said) and "love" not in normalise(said)


def test_pictographs_carry_tone_and_a_few_say_a_word() -> None:
    assert without_symbols("go find the TV remote \U0001F50E") == "go find the TV remote"
    assert without_symbols("bring the mug \u2764\ufe0f\U0001F64F") == "bring the mug please"
    assert without_symbols("\U0001F44D") == "yes"
    assert without_symbols("caf\u00e9 to the kitchen") == "caf\u00e9 to the kitchen"  # letters are no symbols
    req = parser.parse("go find the TV remote \U0001F50E", prefer=Kind.command)
    assert req.intent is Intent.find and req.objects[0].head == "remote"


@pytest.mark.parametrize("said, meant", [
    ("Could you get me the... the thing, the juice?", "Could you get me the... the juice?"),
    ("I need the remote and the... what's it... the juice.", "I need the remote and the the juice."),
    ("bring me the whatsit, the red mug", "bring me the red mug"),
    ("pass me the, what do you call it, the colander", "pass me the the colander"),
])
def test_searching_for_a_word_is_no_thing(said: str, meant: str) -> None:
    assert word_searches(said) == meant


@pytest.mark.parametrize("said", ["bring me the thing on the table", "what's it doing there?", "the thing is broken"])
def test_a_thing_said_as_a_thing_stays(said: str) -> None:
    assert word_searches(said) == said


@pytest.mark.parametrize("text, intent, heads", [
    ("The radio is to be brought to me.", Intent.fetch, ["radio"]),
    ("The pear and the lotion are to be brought to me.", Intent.fetch, ["pear", "lotion"]),
    ("the mug needs to be put in the sink please", Intent.put, ["mug"]),
    ("The fridge must be closed.", Intent.close, ["fridge"]),
    ("Where's the mug? Bring it here.", Intent.fetch, ["mug"]),
])
def test_passive_commands_and_a_question_before_the_command(text: str, intent: Intent, heads: list[str]) -> None:
    req = parser.parse(text, prefer=Kind.command)
    assert req.intent is intent and [o.head for o in req.objects] == heads, (text, req.intent, req.objects)
    assert req.confidence >= 0.7, (text, req.confidence, req.notes)  # done, not offered


def test_a_passive_that_asks_for_nothing_is_no_command() -> None:
    assert normalise_command("the milk should be left where it is") == "the milk should be left where it is"


@pytest.mark.parametrize("said, meant", [
    ("The fridge is close now?", "The fridge is closed now?"),
    ("is the fridge close?", "is the fridge closed?"),
    ("is the mug close to the sink?", "is the mug near the sink?"),
    ("Wha colour the radio is?", "What color the radio is?"),
    ("Robot, where de radio dey?", "where is the radio?"),
    ("Ah cyah find the remote", "I can't find the remote"),
    ("Where is it this time?", "Where is it?"),
    ("Ben... after he sat down on the sofa... then what", "after Ben sat down on the sofa, then what"),
])
def test_learners_and_dialect_questions(said: str, meant: str) -> None:
    assert normalise(said) == meant


@pytest.mark.parametrize("said, meant", [
    ("Where can food be cooked here?", "where can I cook food here?"),
    ("where can i cook something, i'm starving", "where can i cook something?"),
    ("Is there anywhere in this place a person could sleep?", "Is there anywhere I could sleep?"),
    ("where can I get something, I'm starving", "where can I get something, I'm starving"),  # the need says what
    ("Where can a person wash their hands around here?", "where can I wash their hands?"),
    ("Where's a fella supposed to sleep around here?", "where can I sleep?"),
    ("where does one put the keys", "where do I put the keys"),
    ("where is one of the mugs", "where is one of the mugs"),  # a thing, not a person
    ("Somewhere to sleep?", "where can I sleep?"),
    ("Where is the place for washing the hands?", "where can I wash the hands?"),
    ("where is the place for bedding?", "where does bedding go?"),  # a thing kept, not a doing
])
def test_where_a_thing_can_be_done(said: str, meant: str) -> None:
    assert normalise_question(normalise(said)) == meant


@pytest.mark.parametrize("said, meant", [
    ("which one is the face cream on the bathroom counter?", "which face cream is on the bathroom counter?"),
    ("The glass on the desk is which one?", "which glass is on the desk?"),
    ("Anna says the loo roll has a proper place, where is that?", "where does the loo roll go?"),
    ("Earlier the mug was kept where?", "where was the mug before?"),
    ("which one is the mug?", "which one is the mug?"),
])
def test_questions_said_in_another_order(said: str, meant: str) -> None:
    assert normalise_question(normalise(said)) == meant


def test_a_list_without_articles_is_two_things() -> None:
    req = parser.parse("Take radio and loo roll to me.", prefer=Kind.command)
    assert req.intent is Intent.fetch and [o.head for o in req.objects] == ["radio", "roll"], req.objects


@pytest.mark.parametrize("said, meant", [
    ("Please specify the colour of the radio.", "what color is the radio?"),
    ("Identify the room in which the pear is presently located.", "which room is the pear in?"),
    ("Please list all items currently located on the coffee table.", "what is on the coffee table?"),
    ("Of the plates in the home, identify the one adjacent to the sink.", "which plate is next to the sink?"),
    ("Please confirm whether the fridge is currently closed.", "is the fridge currently closed?"),
    ("Gives it a frying pan in the kitchen?", "is there a frying pan in the kitchen?"),
    ("When have you the keyboard last seen?", "When have you last seen the keyboard?"),
    ("I need to be told where the mug was left by me.", "tell me where I left the mug."),
    ("Where the mug dey?", "where is the mug?"),
    ("Which plate dey next to the sink?", "Which plate is next to the sink?"),
    ("mm... the ball... where...", "where is the ball?"),
    ("Where can I, um, sit myself down?", "Where can I sit down?"),
    ("Do we have any... um, soaps? I think that's the word.", "Do we have any soaps?"),
    ("Is the refrigerator shut properly?", "Is the refrigerator shut?"),
    ("Could you tell me where the toilet paper belongs, please?", "where does the toilet paper belong?"),
    ("When you saw the teddy bear for the first time?", "when did you first see the teddy bear?"),
    ("Request previous location of mouse, prior to move. Over.", "where was mouse before?"),
    ("Where did my mug go, since apparently it grows legs?", "Where did my mug go?"),
])
def test_questions_said_as_instructions_dialects_and_pauses(said: str, meant: str) -> None:
    assert normalise_question(normalise(said)) == meant


@pytest.mark.parametrize("said, meant", [
    ("Anna wants you over by the bed.", "go by the bed."),
    ("Make the microwave open, please.", "open the microwave."),
    ("Please return the milk to its designated storage place.", "Please put the milk away."),
    ("Take out the lime from the microwave nah.", "take out the lime from the microwave."),
    ("Bring me the toy and the milk, move!", "bring me the toy and the milk."),
])
def test_commands_said_otherwise(said: str, meant: str) -> None:
    assert normalise_command(normalise(said)) == meant


def test_a_time_question_read_as_where_is_asked_as_a_time_question() -> None:
    req = parser.parse("When you saw the teddy bear for the first time?", prefer=Kind.question)
    assert req.intent is Intent.when_seen and req.objects[0].head == "bear"


@pytest.mark.parametrize("text, intent, head", [
    # both readings are questions; the rules' "which" is judged unlikely and the model is sure of contents
    ("So what lovely mess is sitting in the fridge right now?", Intent.contents, "fridge"),
    # the rules' fallback "is there" gives way to a sure where
    ("I not find the mug, you know where?", Intent.where, "mug"),
    # ... but the fallback where of a thing described and placed stays ("which thing is that")
    ("what is the yellow thing on the bed?", Intent.where, "something"),
])
def test_a_sure_model_and_the_rules_fallbacks(text: str, intent: Intent, head: str) -> None:
    req = parser.parse(text, prefer=Kind.question)
    assert req.intent is intent and any(o.head == head for o in req.objects), (req.intent, req.objects, req.notes)


@pytest.mark.parametrize("said, meant", [
    ("Give Ben t' radio, love.", "give Ben the radio."),
    ("Wh-where does the lotion b-belong?", "where does the lotion belong?"),
    ("11) colour of the toilet paper?", "what color is the toilet paper?"),
    ("Where the loo roll suppose dey?", "where does the loo roll go?"),
    ("Wetin you don do today?", "what did you do today?"),
    ("Can you check what Ben did after using the computer?", "what did Ben do after using the computer?"),
    ("towel next to wall shelf, which one?", "which towel is next to the wall shelf?"),
    ("wait does the bathroom actually have a microwave in it", "is there a microwave in the bathroom?"),
])
def test_dialect_stammer_numbering_and_telegraphic_questions(said: str, meant: str) -> None:
    assert normalise_question(normalise(said)) == meant


@pytest.mark.parametrize("said, meant", [
    ("Carry the pear go back where e dey before.", "put the pear back."),
    ("grab the radio and uh the loo roll too and bring them here", "grab the radio and the loo roll and bring them here"),
])
def test_serial_verbs_and_a_list_with_too(said: str, meant: str) -> None:
    assert normalise_command(normalise(said)) == meant


@pytest.mark.parametrize("said, meant", [
    ("The fridge closed already or not?", "is the fridge closed?"),
    ("The fridge shut?", "is the fridge shut?"),
    ("Is the wardrobe secured? Locked, I mean.", "Is the wardrobe locked?"),
    ("The radio what colour ah?", "what color is the radio?"),
    ("Where is place of loo roll?", "where does loo roll go?"),
    ("The bathroom got coffee table or not ah?", "is there a coffee table in the bathroom?"),
])
def test_questions_said_without_their_verb_or_with_a_particle(said: str, meant: str) -> None:
    assert normalise_question(normalise(said)) == meant


def test_help_me_is_for_me() -> None:
    req = parser.parse("The juice help me put in the kitchen.", prefer=Kind.command)
    assert req.intent is Intent.put and req.objects[0].head == "juice" and req.destination.ref.head == "kitchen"


@pytest.mark.parametrize("said, meant", [
    ("Wh-where was the remote b-b-before?", "where was the remote before?"),  # every repeat of a stammer
    ("Where is the pear dear", "Where is the pear"),  # an endearment said last, no comma written
    ("Which room is that in dear?", "Which room is that in?"),
    ("where is my darling", "where is my darling"),  # after "my": no address
])
def test_stammers_and_endearments_said_last_are_read_away(said: str, meant: str) -> None:
    assert normalise(said) == meant


def test_a_repeated_stammer_leaves_no_letter_to_fetch() -> None:
    req = parser.parse("Get me the remote, p-p-please.", prefer=Kind.command)
    assert req.intent is Intent.fetch and [o.head for o in req.objects] == ["remote"], req


def test_sending_me_a_question_noun_asks_it() -> None:
    assert normalise("shoot me the colour of the mug") == "what color is the mug?"
    req = parser.parse("drop me the location of the toy", prefer=Kind.question)
    assert req.intent is Intent.where and req.objects[0].head == "toy", req


def test_a_thing_the_tagger_took_for_a_place_to_go_is_what_is_looked_for() -> None:
    req = parser.parse("Go hunt down the remote for me.", prefer=Kind.command)
    assert req.intent is Intent.find and [o.head for o in req.objects] == ["remote"] and req.destination is None, req


@pytest.mark.parametrize("said, meant", [
    ("14. What time did you first see the juice?", "What time did you first see the juice?"),  # not "what did time do"
    ("2) bring me the mug", "bring me the mug"),
    ("I need 2. Bring them", "I need 2. Bring them"),
    ("What is its colour?", "what color is it?"),
    ("what's the remote's colour?", "what color is the remote?"),
    ("When did you last actually see the remote?", "When did you last see the remote?"),
    ("I'm afraid I can't seem to locate the keyboard.", "I can't find the keyboard."),
    ("I am not able to find the remote.", "I can't find the remote."),
    ("remote, current whereabouts please.", "where is the remote?"),
    ("TV remote: previous location?", "where was the tv remote before?"),
    ("where's ma glass?", "where's my glass?"),
    ("Kindly come with the juice to me.", "Kindly bring the juice to me."),
    ("come with me to the kitchen", "come with me to the kitchen"),  # following, not carrying
    ("radio and loo roll to me.", "bring the radio and the loo roll to me"),
    ("Put the radio on the table, not on the floor like last time.", "put the radio on the table."),
    ("In the kitchen, is there bookshelf?", "is there bookshelf in the kitchen?"),
    ("Once Ben was done turning on the TV, what'd he get up to?", "what did he do after Ben turning on the tv?"),
    ("What color is my mug, sugar?", "What color is my mug?"),
    ("close the refrigerator bro", "close the refrigerator"),
    ("do we have sugar?", "do we have any sugar?"),
    ("go to where the radio is", "go to the radio"),  # a place to go, not a question
    ("take me to where the radio is", "go to the radio"),  # leading the speaker there, not carrying the radio
    ("take me to the radio", "go to the radio"),
    ("show me the way to the kitchen", "go to the kitchen"),
    ("take me the radio", "take me the radio"),  # this one is carrying it
    ("go over to where the remote control is, that thing", "go to the remote control"),
    ("Go and search juice, please.", "go and search for juice."),
    ("search the kitchen", "search the kitchen"),
    ("go hunt down the radio, would you", "go find the radio"),
    ("It'd put my mind at rest if you went and found the toy.", "please find the toy."),
    ("I'd like it if you brought me the mug", "I'd like it if you brought me the mug"),
    ("bring me the radio, and while you're at it the loo roll as well", "bring me the radio and the loo roll as well"),
])
def test_lists_properties_and_other_ways_of_asking(said: str, meant: str) -> None:
    assert normalise(said) == meant


@pytest.mark.parametrize("said, meant", [
    ("radio. table.", "put the radio on the table"),
    ("juice, fridge", "put the juice in the fridge"),
    ("radio. kitchen.", "radio. kitchen."),  # a room: where to take it, read elsewhere
    ("table. radio.", "table. radio."),  # furniture is not the thing put
])
def test_a_thing_then_furniture_is_putting_it_there(said: str, meant: str) -> None:
    assert normalise_command(normalise(said)) == meant


@pytest.mark.parametrize("said, meant", [
    ("put washed lime in the refrigerator.", "put the washed lime in the refrigerator."),
    ("Place two radios o the dining table.", "place two radios on the dining table."),
    ("Wash a radio and place inside microwave.", "Wash a radio and place it inside the microwave."),
    ("chill the lime in the fridge", "put the lime in the fridge"),
    ("Cool down the mug inside the fridge.", "put the mug inside the fridge."),
    ("heat the soup", "heat the soup"),  # no appliance said: not a putting
])
def test_crowd_written_household_instructions(said: str, meant: str) -> None:
    assert normalise(said) == meant


@pytest.mark.parametrize("said, meant", [
    ("Which bowl is it that's sittin' on the dining table?", "which bowl is on the dining table?"),
    ("Which one plate is lying on the coffee table?", "which plate is on the coffee table?"),
    ("The plate in the microwave, which one is it?", "which plate is in the microwave?"),
    ("I don't mean every plate in the house, just which one is on the dining table.",
     "which plate is on the dining table."),
    ("Which, uh, which bowl is on the bathroom counter?", "Which bowl is on the bathroom counter?"),
    ("Which mug is it that's sitting on the desk, if I've got that right?", "which mug is on the desk?"),
    ("Which one is on the desk?", "Which one is on the desk?"),  # no kind said: asked as it is
])
def test_which_one_is_said_many_ways(said: str, meant: str) -> None:
    assert normalise_question(normalise(said)) == meant


@pytest.mark.parametrize("said, meant", [
    ("where is it tho", "where is it"),
    ("I could really use it right now.", "I need it now."),
    ("I can use the wardrobe or not?", "can I use the wardrobe?"),  # whether it is usable, not a need
    ("we could do with some milk", "we need some milk"),
])
def test_hedges_and_needs_said_otherwise(said: str, meant: str) -> None:
    assert normalise(said) == meant


def test_a_noun_the_tagger_made_a_verb_after_is_gets_its_article() -> None:
    from memory_node.language import Intent, Kind, parse

    req = parse("Where is pear?", prefer=Kind.question)
    assert req.intent is Intent.where and req.objects and req.objects[0].head == "pear", req.objects
    assert parse("where was it left?", prefer=Kind.question).objects[0].pronoun == "it"


@pytest.mark.parametrize("said, meant", [
    ("Don't bring the keyboard to me — hand it to Ben.", "hand the keyboard to Ben."),
    ("Don't tell me whether it's open — just close the fridge.", "close the fridge."),
    ("Don't pick anything up — just go and stand by the washer.", "go and stand by the washer."),
    ("don't put the mug in the sink, put it on the table", "put the mug on the table"),
    ("don't close the fridge", "don't close the fridge"),  # nothing instead: refused as said
    ("Don't just bring the pear — bring me the lotion as well.",
     "Don't just bring the pear — bring me the lotion as well."),  # both: not an instead
    ("Go search the coffee pot, please.", "go search the coffee pot."),  # searching a thing with an article: as said
    ("do not open the fridge, it is full", "do not open the fridge, it is full"),
    ("Step one: think about where the loo roll belongs. Step two: tell me where that is, so I can put it there.",
     "where does the loo roll belong?"),
])
def test_what_to_do_instead_and_which_place_is_asked(said: str, meant: str) -> None:
    assert normalise(said) == meant


@pytest.mark.parametrize("said, meant", [
    ("bring the remote but not the mug", "bring the remote"),
    ("bring me the remote, not the keyboard", "bring me the remote"),
    ("bring me a mug but not the blue one", "bring me a mug but not the blue one"),  # a choice among mugs
])
def test_a_thing_named_to_be_left_out_is_not_fetched(said: str, meant: str) -> None:
    assert normalise(said) == meant
