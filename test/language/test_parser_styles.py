"""Speaking styles the parser reads: telegraphic questions said with a question noun, opinions wrapped around a
question, particles between a verb and its recipient, needs said beside an open "something", dialect and
speech-to-text words. The sentences are our own, not a benchmark's."""

import pytest

from memory_node.language import Intent, parse
from memory_node.language.request import Kind
from memory_node.language.normalise import normalise

pytest.importorskip("spacy")
NAMES = frozenset({"ben", "alice"})


def _reads_as(text: str, intent: Intent, head: str, prefer: Kind | None = None) -> None:
    req = parse(text, prefer=prefer)
    assert req.intent is intent and req.objects and req.objects[0].head == head, req


@pytest.mark.parametrize("text, intent, head", [
    ("Colour of the scarf?", Intent.attribute, "scarf"),
    ("kettle colour?", Intent.attribute, "kettle"),
    ("My lamp: colour?", Intent.attribute, "lamp"),
    ("Contents of the drawer?", Intent.contents, "drawer"),
    ("Last sighting of the stapler? Time.", Intent.when_seen, "stapler"),
    ("charger. room?", Intent.what_room, "charger"),
    ("Count of towels, bathroom?", Intent.count, "towel"),
    ("What colour would you say the sofa is?", Intent.attribute, "sofa"),
    ("Thanks. What colour would you say the sofa is?", Intent.attribute, "sofa"),
])
def test_a_question_said_as_a_noun_beside_the_thing(text: str, intent: Intent, head: str) -> None:
    _reads_as(text, intent, head)


def test_a_count_said_tersely_keeps_its_room() -> None:
    req = parse("Count of towels, bathroom?")
    assert req.objects[0].room == "bathroom" or (req.objects[0].anchor and req.objects[0].anchor.ref.head == "bathroom")


def test_a_previous_spot_is_the_place_before() -> None:
    req = parse("lamp, previous spot?")
    assert req.intent is Intent.where and req.objects[0].head == "lamp"
    assert req.time is not None and req.time.moment in ("previous", "original"), req


@pytest.mark.parametrize("text", ["the living room", "my room", "spare room?"])
def test_names_that_end_in_a_question_noun_are_not_questions_about_a_thing(text: str) -> None:
    req = parse(text)
    assert req.intent not in (Intent.count, Intent.what_room), req


@pytest.mark.parametrize("text", ["take the charger along to Alice", "could you take the charger back over to Alice",
                                  "zip the charger over to Alice, would you"])
def test_a_recipient_hung_on_a_particle(text: str) -> None:
    req = parse(text, names=NAMES)
    assert req.intent is Intent.fetch, req
    assert req.recipient == "alice" and req.objects[0].head == "charger", req


@pytest.mark.parametrize("text, use", [("i'm parched could you get me something", "drink"),
                                       ("I'm famished, fetch us summat", "eat"),
                                       ("get me something for drinking", "drink")])
def test_an_open_thing_takes_the_need_said_beside_it(text: str, use: str) -> None:
    req = parse(text)
    assert req.intent is Intent.fetch, req
    assert req.objects[0].head == "something" and req.objects[0].purpose == use, req


def test_bring_me_something_stays_open() -> None:
    req = parse("bring me something")
    assert req.intent is Intent.fetch and req.objects[0].head == "something" and not req.objects[0].purpose


@pytest.mark.parametrize("text, normal", [("wears the stapler", "where's the stapler"),
                                          ("bring it two me", "bring it to me"),
                                          ("were did I put the tape", "where did I put the tape"),
                                          ("pass the salt four me", "pass the salt for me"),
                                          ("any spoons inn the drawer", "any spoons in the drawer"),
                                          ("do you no if the door is locked", "do you know if the door is locked"),
                                          ("put those shoes a way", "put those shoes away"),
                                          ("is there a way", "is there a way"),
                                          ("wat did you dew", "what did you do"),
                                          ("where was it b4 lunch", "where was it before lunch"),
                                          ("the four of us", "the four of us")])
def test_speech_to_text_homophones(text: str, normal: str) -> None:
    from memory_node.language.normalise import normalise
    assert normalise(text) == normal


def test_a_thing_moved_along_a_path_is_carried_not_walked_to() -> None:
    # the model's words lean to "go" ("to the counter" is how walks are said); the verb's object rules it out
    req = parse("Please, move the kettle to the kitchen counter", prefer=Kind.command)
    assert req.intent is Intent.put and req.confidence >= 0.5, req
    assert parse("move to the kitchen counter", prefer=Kind.command).intent is Intent.go


def test_on_with_an_object_is_a_place_not_switched_on() -> None:
    assert parse("Is the scarf on the bed?").intent is Intent.exists
    assert parse("is the telly on?").intent is Intent.state


def test_an_unseen_main_word_is_not_a_sure_task() -> None:
    req = parse("dance for me", prefer=Kind.command)
    assert req.intent is Intent.unknown, req


@pytest.mark.parametrize("text, intent", [("Grasp the stapler", Intent.fetch), ("lift the stapler", Intent.fetch),
                                          ("Might you find me a little something to eat?", Intent.fetch)])
def test_picking_up_and_finding_for_someone_are_fetches(text: str, intent: Intent) -> None:
    assert parse(text).intent is intent


def test_a_command_verb_said_is_no_greeting() -> None:
    req = parse("Okay, you bring me the stapler.", prefer=Kind.command)
    assert req.intent is Intent.fetch, req


def test_a_room_put_into_is_the_destination_not_a_filter() -> None:
    req = parse("could you put the kettle in the bathroom?")
    assert req.intent is Intent.put and req.destination is not None, req
    assert not req.objects[0].room, req


@pytest.mark.parametrize("text, use", [("I'm parched.", "drink"), ("we're starving", "eat"),
                                       ("I am famished.", "eat"),
                                       ("Something to read.", "read"),
                                       ("I'm proper peckish, fetch us something to nibble on.", "eat")])
def test_a_need_said_as_a_statement_is_a_request_for_what_serves_it(text: str, use: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.fetch and req.objects and req.objects[0].purpose == use, req
    asked = parse(text, prefer=Kind.question)
    assert asked.intent in (Intent.where, Intent.exists) and asked.objects[0].purpose == use, asked


def test_someone_elses_state_is_not_a_request() -> None:
    assert parse("the dog is starving", prefer=Kind.command).intent is not Intent.fetch


@pytest.mark.parametrize("text, intent, head", [
    ("Has somebody gone and left the oven open again?", Intent.state, "oven"),
    ("Can I get into the wardrobe or not?", Intent.usable, "wardrobe"),
    ("Could we get into the shed if we tried, do you think?", Intent.usable, "shed"),
    ("Honestly, my scarf is nowhere to be found.", Intent.where, "scarf"),
    ("I need the stapler for a sec. Seen it?", Intent.exists, "stapler"),
    ("Number of towels in the bathroom.", Intent.count, "towel"),
])
def test_everyday_question_shapes(text: str, intent: Intent, head: str) -> None:
    _reads_as(text, intent, head, prefer=Kind.question)


def test_a_kind_said_as_liked_is_what_is_wanted() -> None:
    req = parse("I love biscuits, could you bring me something I'd enjoy?")
    assert req.intent is Intent.fetch and req.objects[0].head == "biscuit", req
    open_ = parse("bring me something I would like")
    assert open_.objects[0].head == "something" and not open_.objects[0].purpose, open_


@pytest.mark.parametrize("text", ["go close to the wardrobe", "drive to the bathtub", "head over to the sofa"])
def test_a_path_with_nothing_carried_is_a_sure_go(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.go and req.confidence >= 0.5, req


@pytest.mark.parametrize("text, intent, head", [("Go on, open the oven for us.", Intent.open, "oven"),
                                                ("come on then, bring me the stapler", Intent.fetch, "stapler"),
                                                ("Something to dry my hands on. Quick.", Intent.fetch, "something")])
def test_encouragement_and_fragments_around_a_request(text: str, intent: Intent, head: str) -> None:
    _reads_as(text, intent, head, prefer=Kind.command)


@pytest.mark.parametrize("text, intent, head", [
    # fillers, restarts and drawn-out words of speech
    ("could you get me like a towel", Intent.fetch, "towel"),
    ("bring the stapler pleeease", Intent.fetch, "stapler"),
    ("um wear is the uh the stapler", Intent.where, "stapler"),
    ("when did you last sea the kettle", Intent.when_seen, "kettle"),
    # courtesy said after the request is not the thing's name
    ("put the kettle on the counter thanks", Intent.put, "kettle"),
    ("open fridge please", Intent.open, "fridge"),
    ("Please, open fridge.", Intent.open, "fridge"),
    # oaths, endearments and idioms around a question
    ("Where on earth did I leave the stapler?", Intent.where, "stapler"),
    ("Where in God's name is my scarf?", Intent.where, "scarf"),
    ("Would you be a love and tell me what's in the drawer?", Intent.contents, "drawer"),
    ("What all is there in the drawer?", Intent.contents, "drawer"),
    ("Be a love and grab us the stapler.", Intent.fetch, "stapler"),
    ("When did you last clap eyes on the stapler?", Intent.when_seen, "stapler"),
    ("You haven't seen my stapler lying about, have you?", Intent.exists, "stapler"),
    ("Oi, whereabouts is the stapler then?", Intent.where, "stapler"),
    ("is the wardrobe like locked or something", Intent.state, "wardrobe"),
])
def test_speech_around_a_request(text: str, intent: Intent, head: str) -> None:
    _reads_as(text, intent, head)


def test_thanks_alone_is_still_thanks() -> None:
    assert parse("thanks").intent is Intent.greeting
    assert parse("thank you").intent is Intent.greeting


def test_it_is_the_thing_said_as_a_place_in_the_sentence_before() -> None:
    req = parse("I need to get into the wardrobe. Will it open?", prefer=Kind.question)
    assert req.objects and req.objects[0].head == "wardrobe", req


@pytest.mark.parametrize("text, intent", [
    # the rules read a fetch ("I need X", "got any X") where the question service and a sure model say a question
    ("I need the stapler and I haven't the foggiest where it is.", Intent.where),
    ("Got any staplers?", Intent.exists),
])
def test_the_service_decides_a_disagreement_the_model_is_sure_of(text: str, intent: Intent) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is intent and req.objects and req.objects[0].head == "stapler", req
    assert req.confidence >= 0.5, req
    # sent to ~/plan, the same words stay the rules' task: the service does not favour the model there
    assert parse(text, prefer=Kind.command).intent is Intent.fetch


@pytest.mark.parametrize("text", ["I want the kettle back in its old spot.", "we'd like the kettle back where it was",
                                  "I need my kettle back on the shelf"])
def test_wanting_a_thing_back_at_a_place_is_putting_it_back_not_a_fetch(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent in (Intent.put_back, Intent.put) and req.objects[0].head == "kettle", req
    assert parse("I want my kettle back").intent is not Intent.put_back  # no place: it is wanted here


def test_it_is_the_thing_the_utterance_names_whichever_reading_is_taken() -> None:
    req = parse("my stapler - seen it anywhere?", prefer=Kind.question)
    assert req.is_question and req.objects[0].head == "stapler", req


def test_a_very_sure_model_replaces_a_rule_reading_the_calibration_finds_very_unlikely() -> None:
    req = parse("Which one from the towels is beside the sink?", prefer=Kind.question)
    assert req.intent is Intent.which and req.objects[0].head.startswith("towel"), req
    # ... but not a "what is X" the rules read on purpose as where ("what is the red item on the bed")
    req = parse("What is the green coloured object on the shelf?", prefer=Kind.question)
    assert req.intent is not Intent.attribute, req


@pytest.mark.parametrize("text, intent, head", [
    ("stapler previous spot?", Intent.where, "stapler"),
    ("the kettle goes where?", Intent.goes_where, "kettle"),
    ("Where is the place of the stapler?", Intent.goes_where, "stapler"),
    ("The stapler, first time you saw it was when?", Intent.when_seen, "stapler"),
    ("When have you seen the stapler for the first time?", Intent.when_seen, "stapler"),
    ("Which is the towel that stays on the rail?", Intent.which, "towel"),
    ("Is the wardrobe kept locked these days?", Intent.state, "wardrobe"),
    ("garage: any ladders?", Intent.exists, "ladder"),
    ("ladders in the garage: how many?", Intent.count, "ladder"),
    ("I want a count of the towels in the bathroom.", Intent.count, "towel"),
    ("I want to know what's in the drawer before I go over there.", Intent.contents, "drawer"),
    ("Would you tell me which towel it is that's on the rail?", Intent.which, "towel"),
    ("witch towel is next to the sink", Intent.which, "towel"),
    ("Whit colour's the towel?", Intent.attribute, "towel"),
    ("Which room \u2014 just the room, not the exact spot \u2014 is the towel in?", Intent.what_room, "towel"),
    ("Please, the towel, in which place it is?", Intent.where, "towel"),
    ("When you have seen the towel the first time?", Intent.when_seen, "towel"),
    ("Contents of the TV stand?", Intent.contents, "stand"),
    ("I need something out of the wardrobe \u2014 can I actually get into it?", Intent.usable, "wardrobe"),
])
def test_questions_with_the_question_word_moved_or_wrapped(text: str, intent: Intent, head: str) -> None:
    _reads_as(text, intent, head, prefer=Kind.question)


@pytest.mark.parametrize("text, intent", [
    ("Go and have a root around for the stapler.", Intent.find),
    ("I could really do with the stapler right about now.", Intent.fetch),
    ("take the stapler two Alice", Intent.fetch),
])
def test_commands_said_with_idioms(text: str, intent: Intent) -> None:
    req = parse(text, names=NAMES, prefer=Kind.command)
    assert req.intent is intent and req.objects[0].head == "stapler", req


def test_where_the_robot_is_wanted_is_where_it_goes() -> None:
    req = parse("I need you over by the fridge.", prefer=Kind.command)
    assert req.intent is Intent.go and req.destination is not None and req.destination.ref.head == "fridge", req


@pytest.mark.parametrize("text, intent, head, where", [
    ("stapler on shelf.", Intent.put, "stapler", "shelf"),
    ("The stapler on the desk you put, please.", Intent.put, "stapler", "desk"),
    ("Can you the stapler into the office bring?", Intent.put, "stapler", "office"),
    ("I'd like the stapler on my desk for when I'm back.", Intent.put, "stapler", "desk"),
    ("The stapler on the desk. Go.", Intent.put, "stapler", "desk"),
])
def test_on_the_plan_service_a_thing_and_a_place_is_where_to_put_it(text, intent, head, where) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is intent and req.objects[0].head == head and req.destination.ref.head == where, req


def test_the_same_words_asked_are_a_question_and_told_are_a_statement() -> None:
    assert parse("stapler on shelf?", prefer=Kind.question).is_question
    assert parse("Alice needs the stapler.", names=NAMES).intent is Intent.inform
    # without a reason said, the book on the shelf is as often the one that is there: not a put
    assert parse("I'd like the stapler on the shelf.", prefer=Kind.command).intent is not Intent.put


@pytest.mark.parametrize("text, recipient", [
    ("Alice needs the stapler.", "alice"), ("Alice's been asking for the stapler all day.", "alice"),
    ("The stapler would be handy right now.", "speaker"), ("Bring us over my stapler, would ya.", "speaker"),
    ("stapler out of drawer.", ""),  # taken out; the planner hands it to the speaker
])
def test_on_the_plan_service_a_need_said_is_a_fetch(text: str, recipient: str) -> None:
    req = parse(text, names=NAMES, prefer=Kind.command)
    assert req.intent is Intent.fetch and req.objects[0].head == "stapler" and req.recipient == recipient, req


@pytest.mark.parametrize("text, intent", [
    ("Locate stapler. Go.", Intent.find), ("The stapler you put in its place.", Intent.put_away),
    ("put the stapler back in its place", Intent.put_back),
])
def test_an_urging_word_and_a_place_it_lives(text: str, intent: Intent) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is intent and req.objects[0].head == "stapler", req


@pytest.mark.parametrize("text", ["Go please to the office.", "Would you go through to the office for me and wait there?",
                                  "Nip into the office a sec."])
def test_going_somewhere_said_in_other_ways(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.go and req.destination.ref.head == "office", req


def test_a_worry_about_a_state_is_asked_or_set_right() -> None:
    for text in ("I'm worried I left the fridge open.", "I've got a feeling somebody left the fridge open"):
        asked = parse(text, prefer=Kind.question)
        assert asked.intent is Intent.state and asked.objects[0].head == "fridge", asked
        done = parse(text, prefer=Kind.command)
        assert done.intent is Intent.close and done.objects[0].head == "fridge", done
    assert parse("I'm worried I left the fridge open.").intent is not Intent.close  # told: memory learns it


@pytest.mark.parametrize("text, intent, head", [
    ("Is there a towel in the \u2014 in the bathroom, I mean, not in here.", Intent.exists, "towel"),
    ("Which towel is on the rail \u2014 I know there's more than one, I mean that one.", Intent.which, "towel"),
    ("When'd you last clock the stapler?", Intent.when_seen, "stapler"),
])
def test_restarts_and_afterthoughts(text: str, intent: Intent, head: str) -> None:
    _reads_as(text, intent, head, prefer=Kind.question)


def test_it_is_never_a_remark_about_things_in_general() -> None:
    last = parse("Ah, and what colour is it again? I can never remember these things.", prefer=Kind.question)
    assert last.objects and last.objects[0].pronoun == "it", last  # left to the conversation, not "these things"


@pytest.mark.parametrize("text", ["can you the one into the office bring?", "Alice needs the one.",
                                  "the one out of the drawer."])
def test_a_reply_naming_only_one_is_never_rewritten_as_a_task(text: str) -> None:
    # whichever shape says the task, "the one" tells apart a thing asked about before: the rewrite leaves it alone
    from memory_node.language.normalise import normalise_command

    assert normalise_command(text) == text


def test_a_persons_own_body_is_no_thing_to_fetch() -> None:
    """"I've got my hands full" beside a request names no second thing to carry."""
    req = parse("Quick, fetch me the stapler, I've got my hands full.", prefer=Kind.command)
    assert req.intent is Intent.fetch and [o.head for o in req.objects] == ["stapler"], req


def test_them_after_a_list_is_every_thing_of_the_list() -> None:
    req = parse("I need the glue and the tape also, you bring them?", prefer=Kind.command)
    assert req.intent is Intent.fetch and [o.head for o in req.objects] == ["glue", "tape"], req
    one = parse("The kettle is in the hall, bring it to me", prefer=Kind.command)
    assert [o.head for o in one.objects] == ["kettle"]


def test_a_question_taken_whole_for_a_name_is_no_reading() -> None:
    """A question the rules cannot parse is not "where is <the whole question>": the learned reading stands."""
    req = parse("Is the garage door shut, would you know?", prefer=Kind.question)
    assert req.intent is Intent.state and req.objects and req.objects[0].head in ("door", "garage"), req
    assert req.state == "closed", req  # "shut", as the rules read it, though the tagger took it for a noun


def test_a_task_verb_under_a_polite_verb_never_seen() -> None:
    req = parse("I would appreciate it if you fetched the towel for me.", prefer=Kind.command)
    assert req.intent is Intent.fetch and req.objects and req.objects[0].head == "towel", req


def test_the_state_asked_for_rules_out_an_unsure_opposite() -> None:
    """"The oven you make open": "open" said after "make" and no "close" said: an unsure "close" from the model
    is ruled out; a complaint ("left open") still reads as a request to close it."""
    req = parse("The oven you make open, please.", prefer=Kind.command)
    assert req.intent is Intent.open and req.objects and req.objects[0].head == "oven", req
    assert parse("go close to the oven", prefer=Kind.command).intent is Intent.go


def test_his_or_her_is_the_one_person_named() -> None:
    req = parse("Tom keeps asking for his mug; take it to him.", prefer=Kind.command)
    assert req.intent is Intent.fetch and req.objects[0].owner == "tom" and req.recipient == "tom", req
    # two people named: whose is not guessed
    two = parse("Tom told Ana about his mug; take it to him.", prefer=Kind.command)
    assert not two.objects or two.objects[0].owner != "ana"


@pytest.mark.parametrize("text, normal", [
    ("witch towel is on the rail", "which towel is on the rail"),
    ("do we half any candles", "do we have any candles"),
    ("set it on top the fridge", "set it on top of the fridge"),
    ("did ye see the kettle", "did you see the kettle"),
    ("I am unable to locate the charger.", "I can't find the charger."),
    ("Kindly list the items currently in the cupboard.", "what is in the cupboard."),
])
def test_dialect_and_formal_forms(text: str, normal: str) -> None:
    from memory_node.language.normalise import normalise
    assert normalise(text) == normal


@pytest.mark.parametrize("text, head, where", [
    ("pick up the stapler on the desk put the stapler in the drawer", "stapler", "drawer"),
    ("Grab the towel on the chair Put the towel down on the bed", "towel", "bed"),
    ("take the cup off the shelf place it in the sink", "cup", "sink"),
])
def test_a_pick_up_run_into_a_put_down_is_a_put(text: str, head: str, where: str) -> None:
    """Two commands said without a break: the thing goes where the second one sets it down (the whole reading
    took the first place for where it goes, or fetched it to the speaker)."""
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.put and req.objects[0].head == head and req.destination.ref.head == where, req


def test_a_thing_described_by_a_participle_is_no_second_command() -> None:
    assert parse("find the book set on the table", prefer=Kind.command).intent is Intent.find
    assert parse("get the book from the place it is in", prefer=Kind.command).intent is Intent.fetch


@pytest.mark.parametrize("text, where", [
    ("Put the plate on the table, to the left of the jug.", "table"),
    ("put the pen in the drawer at the back", "drawer"),
    ("Move the vase to the shelf beside the clock", "shelf"),
])
def test_the_place_said_first_is_where_it_goes_and_a_spot_on_it_is_not(text: str, where: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.put and req.destination.ref.head == where and req.objects[0].anchor is None, req


def test_back_with_a_place_said_is_a_put_there() -> None:
    """"put the book back on the shelf" says where it goes: a put there, not memory's previous place (which may
    be another shelf); "put the book back" alone is put_back."""
    req = parse("put the jug back on the windowsill", prefer=Kind.command)
    assert req.intent is Intent.put and req.destination.ref.head == "windowsill", req
    assert parse("put the jug back", prefer=Kind.command).intent is Intent.put_back
    assert parse("put the jug back in its place", prefer=Kind.command).intent is Intent.put_back


def test_what_is_done_to_a_thing_before_it_is_set_down() -> None:
    req = parse("rinse the jug and put it on the windowsill", prefer=Kind.command)
    assert req.intent is Intent.put and req.objects[0].head == "jug" and req.destination.ref.head == "windowsill", req
    cleaned = parse("clean the jug and put it on the windowsill", prefer=Kind.command)
    assert cleaned.intent is Intent.put and any("cannot clean" in n for n in cleaned.notes), cleaned
    assert parse("clean up the toys", prefer=Kind.command).intent is Intent.put_away


def test_of_several_commands_on_plan_the_one_that_moves_a_thing_is_the_task() -> None:
    req = parse("Open the cupboard. Put the jug inside it. Close the cupboard.", prefer=Kind.command)
    assert req.intent is Intent.put and req.objects[0].head == "jug", req


def test_put_after_opening_goes_inside_what_was_opened() -> None:
    req = parse("open the cupboard and put the jug in", prefer=Kind.command)
    assert req.intent is Intent.put and req.destination.ref.head == "cupboard" and req.confidence >= 0.5, req
    req = parse("Take the jug off the table. Open the cupboard and place the jug inside.", prefer=Kind.command)
    assert req.intent is Intent.put and req.destination.ref.head == "cupboard", req


@pytest.mark.parametrize("text, normal", [
    ("wheres the kettle rn", "where's the kettle"),
    ("ngl idk where the kettle went", "I don't know where the kettle went"),
    ("Kindly inform me of the current location of the kettle.", "Kindly where is the kettle."),
    ("Where stays the kettle?", "where is the kettle?"),
])
def test_texting_formal_and_learner_forms_of_where(text: str, normal: str) -> None:
    from memory_node.language.normalise import normalise
    assert normalise(text) == normal
    assert parse(text, prefer=Kind.question).intent is Intent.where


@pytest.mark.parametrize("text", ["Has the kettle been observed by you at any point today?", "You did see the kettle?",
                                  "have you scene the kettle", "I been lookin' all over for the kettle."])
def test_have_you_seen_said_formally_by_learners_and_by_speech_to_text(text: str) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent in (Intent.where, Intent.exists) and req.objects[0].head == "kettle", req
    assert req.objects[0].anchor is None, req  # "at any point" is when, not where


@pytest.mark.parametrize("text, state", [
    ("Would you be so kind as to tell me whether the oven is on?", "on"),
    ("I think somebody's left the back door open.", "open"),
    ("I'm worried the oven is still on", "on"),
])
def test_a_state_asked_through_a_wrapper_or_a_worry(text: str, state: str) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is Intent.state and req.state == state and req.objects[0].head in ("oven", "door"), req


@pytest.mark.parametrize("text, intent, head", [
    ("That vase would look lovely on the windowsill.", Intent.put, "vase"),
    ("the towels would be better in the cupboard", Intent.put, "towel"),
    ("Tom could really use the stapler right about now.", Intent.fetch, "stapler"),
    ("Quick, run the stapler over to Tom, he's waiting.", Intent.fetch, "stapler"),
])
def test_hints_and_idioms_on_the_plan_service(text: str, intent: Intent, head: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is intent and req.objects[0].head == head, req
    assert parse("the kids would be happier in the garden", prefer=Kind.command).intent is not Intent.put


@pytest.mark.parametrize("text", ["where did the kettle use to be before", "where was the kettle sitting before",
                                  "Where was the kettle lying before it was moved?", "Where was the kettle kept before?",
                                  "i need the kettle where was it before you moved it"])
def test_where_a_thing_was_before_in_other_shapes(text: str) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is Intent.where and req.objects[0].head == "kettle" and req.time is not None, req


def test_a_question_run_on_after_a_remark_is_a_part_of_its_own() -> None:
    from memory_node.language.parts import segments
    assert segments("i need the kettle where was it before you moved it") == ["i need the kettle",
                                                                             "where was it before you moved it"]
    assert len(segments("do you know where is the kettle")) == 1  # an embedded question stays whole
    assert len(segments("the shelf where it is")) == 1


@pytest.mark.parametrize("text, moment", [
    ("first time you saw the kettle?", "first"), ("last time you saw the kettle?", "last"),
    ("the kettle, when first seen?", "first"), ("how long ago did you first see the kettle", "first"),
    ("Since when is the kettle here?", "first"), ("how long has the kettle been there", "first"),
])
def test_when_the_robot_saw_a_thing_said_tersely_or_as_how_long(text: str, moment: str) -> None:
    """Read as "is there a kettle" these were answered "Yes: ..." - an answer to a question nobody asked."""
    req = parse(text, prefer=Kind.question)
    assert req.intent is Intent.when_seen and req.objects[0].head == "kettle", req
    assert (req.time is not None and req.time.moment == "first") == (moment == "first"), req


@pytest.mark.parametrize("text, normal", [
    ("where'd I leave me kettle", "where did I leave my kettle"), ("where's mine kettle", "where's my kettle"),
    ("where is the kettle of me", "where is my kettle"), ("did you see me yesterday", "did you see me yesterday"),
    ("is that mine or yours", "is that mine or yours"), ("leave me alone", "leave me alone"),
])
def test_whose_as_dialects_and_learners_say_it(text: str, normal: str) -> None:
    from memory_node.language.normalise import normalise
    assert normalise(text) == normal


@pytest.mark.parametrize("text, normal", [
    ("Which kettle is it that sits beside the sink?", "Which kettle is beside the sink?"),
    ("Go an' look for the kettle", "go and look for the kettle"),
])
def test_a_cleft_with_a_posture_verb_and_a_dropped_d(text: str, normal: str) -> None:
    from memory_node.language.normalise import normalise
    assert normalise(text) == normal


@pytest.mark.parametrize("text, normal", [
    ("I'm gasping for a drink.", "I'm thirsty."), ("I'm dying to sit down.", "I want to sit down."),
    ("kettle where it is?", "where is kettle?"), ("uh howmany mugs in the hall", "how many mugs in the hall"),
])
def test_needs_as_idioms_and_glued_or_learners_questions(text: str, normal: str) -> None:
    from memory_node.language.normalise import normalise
    assert normalise(text) == normal


def test_a_need_to_do_something_asked_is_where_one_can() -> None:
    req = parse("I need to sit down.", prefer=Kind.question)
    assert req.kind is Kind.question and req.objects and req.objects[0].purpose, req


@pytest.mark.parametrize("text, normal", [
    ("Weh di kettle deh?", "where is the kettle?"), ("Tek di kettle go give Ben.", "take the kettle to Ben."),
    ("Carry di kettle come give mi.", "carry the kettle to me."), ("mi cyaan find mi keys", "I can't find my keys"),
    ("Yuh did see di kettle anyweh?", "did you see the kettle anywhere?"), ("the data is on the disk", "the data is on the disk"),
])
def test_caribbean_english_function_words(text: str, normal: str) -> None:
    from memory_node.language.normalise import normalise
    assert normalise(text) == normal


@pytest.mark.parametrize("text", ["Is the oven door standing open?", "is the oven door ajar"])
def test_a_state_said_with_a_posture_or_ajar(text: str) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is Intent.state and req.state == "open", req


@pytest.mark.parametrize("text", ["The kettle seems to have wandered off again.", "Funny, the kettle was here a minute ago.",
                                  "I could swear I put the kettle down somewhere.", "The kettle's hiding from me again."])
def test_a_remark_that_a_thing_is_lost_asks_where_it_is(text: str) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is Intent.where and req.objects[0].head == "kettle" and req.confidence >= 0.5, req
    assert parse(text, prefer=Kind.command).intent is not Intent.where  # on ~/plan it is no question


@pytest.mark.parametrize("text, intent", [("kettle. fetch.", Intent.fetch), ("oven door: open!", Intent.open)])
def test_the_thing_then_the_verb_alone(text: str, intent: Intent) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is intent and req.objects and req.objects[0].head in ("kettle", "oven", "door"), req


def test_a_dialect_word_that_is_also_a_name_keeps_the_name() -> None:
    from memory_node.language.normalise import normalise
    assert normalise("bring Inna's mug") == "bring Inna's mug" and normalise("di cup inna cupboard") == "the cup in the cupboard"


@pytest.mark.parametrize("text, intent, head", [
    ("kettle back to its old spot.", Intent.put_back, "kettle"),
    ("scissors, back where they were", Intent.put_back, "scissor"),
    ("tea towel away.", Intent.put_away, "towel"),
    ("sugar please put in its place.", Intent.put_away, "sugar"),
])
def test_terse_back_and_away_on_the_plan_service(text: str, intent: Intent, head: str) -> None:
    _reads_as(text, intent, head, Kind.command)
    # "back" after a verb of going is no thing put back
    assert parse("go back to the kitchen", prefer=Kind.command).intent is Intent.go


def test_a_thing_out_of_a_place_to_someone() -> None:
    req = parse("kettle out of cupboard, to me.", prefer=Kind.command)
    assert req.intent is Intent.fetch and req.objects[0].head == "kettle" and req.recipient == "speaker", req


def test_a_learners_of_after_a_place_word() -> None:
    req = parse("Which of the cups is beside of the kettle?")
    assert req.intent is Intent.which and req.objects[0].anchor is not None, req
    assert req.objects[0].anchor.ref.head == "kettle", req


def test_a_thing_then_here_and_now() -> None:
    _reads_as("tea towel. here. now.", Intent.fetch, "towel", Kind.command)


def test_an_opening_task_verb_hung_under_a_later_clause_is_still_the_task() -> None:
    from memory_node.language.reading_policy import OFFER_BELOW
    req = parse("Put the sugar away - wherever it goes, you know where, I'm in a rush.", prefer=Kind.command)
    assert req.intent is Intent.put_away and req.confidence >= OFFER_BELOW, req


@pytest.mark.parametrize("text, intent, head, prefer", [
    # a pause written as an ellipsis, the word searched for, a phrase said again after a pause
    ("Where's the... the glass, where'd it go?", Intent.where, "glass", Kind.question),
    ("Put the radio on the, um, what's it called, the bedside table.", Intent.put, "radio", Kind.command),
    ("The radio... which room, which room is it in?", Intent.what_room, "radio", Kind.question),
    ("Can you close the... the fridge, somebody left it...", Intent.close, "fridge", Kind.command),
    # Scots function words
    ("D'ye ken where the glass is?", Intent.where, "glass", Kind.question),
    ("Take the juice through tae the kitchen.", Intent.fetch, "juice", Kind.command),
    # "them" as a determiner; the care said as a noun
    ("Which one of them plates is next to the microwave?", Intent.which, "plate", Kind.question),
    ("I want to give the glass a clean, where is it?", Intent.where, "glass", Kind.question),
    # effort said twice; a bet that the robot saw it; when it saw it is no place
    ("i looked and looked and i can't find my mug", Intent.where, "mug", Kind.question),
    ("I bet you've spotted the lime somewhere on your rounds.", Intent.exists, "lime", Kind.question),
    ("I'm trying to describe the ball to someone and I can't for the life of me remember its colour.",
     Intent.attribute, "ball", Kind.question),
])
def test_pauses_restarts_and_dialect_words(text: str, intent: Intent, head: str, prefer: Kind) -> None:
    _reads_as(text, intent, head, prefer)


def test_a_restart_across_a_pause_keeps_the_place() -> None:
    req = parse("The lime's in the... in the microwave, get it out for me, would you?", prefer=Kind.command)
    assert req.objects[0].head == "lime" and req.objects[0].anchor.ref.head == "microwave"
    assert normalise("Put it on the, um, what's it called, the shelf") == "put it on the shelf"


def test_the_time_said_first_and_a_tag_asking_agreement() -> None:
    assert normalise("After that, what did he do?") == "what did he do after that?"
    assert normalise("Ben made coffee, no? After that what did he do?") == "Ben made coffee? what did he do after that?"
    assert normalise("Is the fridge open, right?") == "Is the fridge open?"
    req = parse("Ben used the computer, no? After that what did he do?", prefer=Kind.question)
    assert req.intent is Intent.around and req.time is not None and req.time.clause == "Ben used the computer"


def test_why_the_speaker_asks_is_not_the_question() -> None:
    req = parse("When did you last see the remote? I'm trying to work out who took it.", prefer=Kind.question)
    assert req.intent is Intent.when_seen and req.objects[0].head == "remote"
    # "it" is the thing needed, not where the speaker is going
    req = parse("I'm about to leave for work and I need my keys, where did I leave them?", prefer=Kind.question)
    assert req.intent is Intent.where and req.objects[0].head == "key"


@pytest.mark.parametrize("text, head, where", [("stapler: take to the kitchen", "stapler", "kitchen"),
                                               ("the kettle - bring over to Ben", "kettle", None),
                                               ("towel; carry into the bathroom", "towel", "bathroom")])
def test_a_thing_then_a_verb_of_carrying_with_no_thing_of_its_own_is_that_thing_carried(text, head, where) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent in (Intent.put, Intent.fetch) and [o.head for o in req.objects] == [head], (req.intent, req.notes)
    if where:
        assert where in req.destination.ref.words()


@pytest.mark.parametrize("text", ["robot: take to the kitchen", "now, take it to the kitchen"])
def test_an_address_or_a_word_of_time_before_a_verb_of_carrying_is_no_thing(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert not any(o.head in ("robot", "now") for o in req.objects), req.objects


@pytest.mark.parametrize("text", ["please go in the bedroom.", "Please go into the bedroom.", "Please to go in the bedroom.",
                                  "just go in the bedroom"])
def test_please_before_a_verb_and_a_place_is_no_thing_put_there(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.go and "bedroom" in req.destination.ref.words(), (req.intent, req.objects)


@pytest.mark.parametrize("text", ["Please to put the milk at its place.", "put the milk to its place"])
def test_a_learner_s_at_its_place_is_where_it_lives(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.put_away and [o.head for o in req.objects] == ["milk"], (req.intent, req.notes)


@pytest.mark.parametrize("text, intent, head", [
    ("Lost track of the stapler. Where did I leave it?", Intent.where, "stapler"),  # no "track" to look for
    ("do we have any batteries on hand?", Intent.exists, "battery"),  # "on hand" is no place called hand
    ("I've put the stapler somewhere silly again, where is it?", Intent.where, "stapler"),
    ("How many cushions are in the den, I'd like to know?", Intent.count, "cushion"),
    ("In the kitchen how many spoons there are?", Intent.count, "spoon"),  # a statement's order, asked
    ("spoons - do we have any?", Intent.exists, "spoon"),
    ("Name everything in the pantry.", Intent.contents, "pantry"),
    ("Identify the cup next to the kettle.", Intent.which, "cup"),
])
def test_everyday_idioms_name_no_thing_and_imperatives_ask(text, intent, head) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is intent and req.objects and req.objects[0].head == head, (req.intent, req.objects, req.notes)


@pytest.mark.parametrize("text, intent, heads", [
    ("Go to sink.", Intent.go, ["sink"]),  # the tagger read "to sink" as an infinitive
    ("head to fridge please", Intent.go, ["fridge"]),
    ("Stow the kettle.", Intent.put_away, ["kettle"]),  # stowing names where it is kept
    ("the kettle bring for me", Intent.fetch, ["kettle"]),  # a learner's thing before the verb: no one else doing it
    ("Secure the oven. Close it.", Intent.close, ["oven"]),  # "Secure the oven" is a clause, not a name
    ("Bring kettle and tea towel.", Intent.fetch, ["kettle", "towel"]),  # two things without articles
    ("tea towel - onto the rail", Intent.put, ["towel"]),
])
def test_commands_said_short_or_in_another_order(text, intent, heads) -> None:
    req = parse(text, prefer=Kind.command)
    got = [o.head for o in req.objects] if intent is not Intent.go else [req.destination.ref.head]
    assert req.intent is intent and got == heads, (req.intent, req.objects, req.destination, req.notes)


def test_going_to_sleep_is_no_place() -> None:
    req = parse("go to sleep", prefer=Kind.command)
    assert not (req.intent is Intent.go and req.destination is not None and req.destination.ref.head == "sleep")


def test_a_named_person_doing_it_is_still_news_not_a_task() -> None:
    req = parse("Ben will bring the kettle", prefer=Kind.command)
    assert req.intent is Intent.inform


@pytest.mark.parametrize("text, intent, head", [
    ("so tired, mm, where c'n I sit?", Intent.where, None),  # a vowel dropped; a question, never a greeting
    ("where is the — um — the kettle?", Intent.where, "kettle"),  # the word said again across a pause, once
    ("I wonder if you've come across the kettle?", Intent.exists, "kettle"),  # have you seen it, not when
    ("Where to keep the kettle?", Intent.goes_where, "kettle"),
    ("Where to keep the kettle? Its place is where?", Intent.goes_where, "kettle"),
    ("Where did the kettle live before someone tidied up?", Intent.where, "kettle"),  # where it was before
    ("um, which cup... the one next to the kettle?", Intent.which, "cup"),
    ("Which moisturiser is the one by the side of the kettle?", Intent.which, "moisturiser"),  # never the anchor
    ("Which cutting board, pray, is the one near the kettle?", Intent.which, "board"),
    ("How many spoons would you say there are in the den? I've lost count.", Intent.count, "spoon"),
    ("Someone's left the oven open again, innit? Is it open?", Intent.state, "oven"),
    ("Let's count the spoons in the den! One, two... how many are there, robot?", Intent.count, "spoon"),
    ("Give me a count on spoons in the den.", Intent.count, "spoon"),
    ("Hajur, where is the kettle?", Intent.where, "kettle"),  # a term of respect English does not have
    ("It feels like the kettle has been moved. Where was it originally, before that happened?", Intent.where, "kettle"),
    ("What is it that is on the bed?", Intent.contents, "bed"),
    ("Do we have a kettle on the premises?", Intent.exists, "kettle"),
])
def test_spoken_questions_read_as_asked(text, intent, head) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is intent, (req.intent, req.objects, req.notes)
    if head:
        assert req.objects and req.objects[0].head == head, req.objects
    if "originally" in text:  # where it first was
        assert req.time is not None and req.time.moment == "original", req.time
    elif "before" in text:  # the place before, or before the moving said
        assert req.time is not None and (req.time.moment == "previous" or req.time.relation == "before"), req.time
    if any(w in text for w in ("next to the kettle", "near the kettle", "side of the kettle")):
        assert req.objects[0].anchor is not None and req.objects[0].anchor.ref.head == "kettle"
    if "in the den" in text:
        assert req.objects[0].room == "den" or req.objects[0].anchor is not None, req.objects


def test_a_which_question_read_about_another_thing_than_it_names_is_asked_back() -> None:
    from memory_node.language import reading_policy as rp
    from memory_node.language.request import ObjectRef, Request

    req = Request(text="which face cream... the one by the toothpaste?", kind=Kind.question, intent=Intent.which,
                  objects=[ObjectRef(text="the toothpaste", head="toothpaste")])
    assert rp._which_thing_left_out(req)
    req.objects = [ObjectRef(text="which face cream", head="cream", compound=["face"])]
    assert not rp._which_thing_left_out(req)


def test_what_he_did_in_a_learner_s_order_asks_what_happened_after() -> None:
    req = parse("And after Ben sat down on the sofa, what he did?", prefer=Kind.question)
    assert req.intent in (Intent.around, Intent.person_did) and req.time is not None and req.time.relation == "after"


@pytest.mark.parametrize("text", ["spilled my tea... need something to wipe it up",
                                  "I spilled my tea, need something to wipe it up",
                                  "spilled tea. need something to wipe it up"])
def test_a_need_after_a_remark_is_what_to_bring_not_the_thing_the_remark_names(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.fetch and [o.head for o in req.objects] == ["something"], (req.objects, req.notes)
    assert req.objects[0].purpose.startswith("wipe")


def test_a_list_said_with_also_is_every_thing_in_it() -> None:
    req = parse("Bring me kettle and also tea towel.", prefer=Kind.command)
    assert req.intent is Intent.fetch and [o.head for o in req.objects] == ["kettle", "towel"], req.objects
