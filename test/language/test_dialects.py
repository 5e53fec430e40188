"""Other Englishes' function words and other frames of the same questions, written as the parser reads them
(``language/dialects.py`` and ``normalise``'s frames), and what they then mean."""

from __future__ import annotations

import pytest

from memory_node.language import Intent, Kind, parse
from memory_node.language.normalise import normalise


@pytest.mark.parametrize("text, normal", [
    # Caribbean, Singapore, South African, literary
    ("Fetch de kettle fi me.", "fetch the kettle for me."),
    ("Me cyaan find de scissors.", "I can't find the scissors."),
    ("You got see the kettle anot?", "have you seen the kettle?"),
    ("Got kettle in the kitchen or not?", "is there kettle in the kitchen?"),
    ("The kettle where ah?", "where is the kettle?"),
    ("Eish, where's the kettle, hey?", "where's the kettle?"),
    ("Kindly carry the kettle hither.", "Kindly carry the kettle here."),
    ("Place the kettle upon the table yonder.", "place the kettle upon the table over there."),
    ("Pray, when did you last behold the kettle?", "when did you last see the kettle?"),
    ("Ben his kettle what colour?", "Ben's kettle what color?"),
    # data words around the thing, a verb said last, a question without its "did" or "does"
    ("What's the last known position of the kettle?", "where is the kettle?"),
    ("Are there any sightings of the kettle in your records?", "have you seen the kettle?"),
    ("What's the first-seen timestamp for the kettle?", "when did you first see the kettle?"),
    ("Could you me the kettle bring?", "Could you bring me the kettle?"),
    ("Stands the oven open?", "is the oven open?"),
    ("What you moved today?", "What did you move today?"),
    ("Where my kettle belong?", "where does my kettle belong?"),
    # a restart, a thing added between dashes, a reason after one, an oath
    ("Set it, uh, set it down there.", "set it down there."),
    ("Fetch the kettle — and the scissors — quick.", "fetch the kettle and the scissors, quick."),
    ("Go find the kettle — I'm on a call.", "go find the kettle."),
    ("Damn it, where's the kettle gone?", "where has the kettle gone?"),
    ("Put the kettle on the shelf, any shelf.", "put the kettle on a shelf."),
    # Nigerian, Scots, a French speaker's false friends, radio procedure, Indian English
    ("Abeg where is the kettle?", "where is the kettle?"),
    ("What colour is my kettle sef?", "What color is my kettle?"),
    ("Och, pit the kettle doon on the table.", "put the kettle down on the table."),
    ("Pose the kettle on the shelf.", "put the kettle on the shelf."),
    ("Range the kettle at its place.", "put away the kettle."),
    ("Control, this is Ben. Request location of kettle, over.", "where is kettle."),
    ("Unable to locate kettle. Request its position, over.", "I can't find kettle. where is it."),
    ("Report last sighting of kettle, over.", "when did you last see the kettle?"),
    ("Where the kettle should be stored?", "where should the kettle be stored?"),
    ("Kindly do the needful and bring the kettle.", "Kindly bring the kettle."),
    # a thing named first and then "it"; a generic item for a use; a story, then what is asked
    ("kettle, what colour is it?", "what color is the kettle?"),
    ("oven, what is inside it?", "what is inside the oven?"),
    ("scissors, please put in the drawer.", "put the scissors in the drawer."),
    ("Ben, what is on it?", "Ben, what is on it?"),
    ("Fetch me an item to open the tin with.", "fetch me something to open the tin with."),
    ("I have not got the foggiest idea where the kettle went.", "where is the kettle?"),
    ("Ben is baking for the school fair tomorrow and asked me to check, so do we have a kettle?",
     "do we have a kettle?"),
    ("I have looked in every cupboard twice, and I still can't find the scissors.", "I still can't find the scissors."),
    ("I looked for it all morning, so where is it now?", "I looked for it all morning. where is it now?"),
    ("Ben is after making tea, so what did he do then?", "what did Ben do after making tea?"),
    ("Head over to where the kettle is.", "head to the kettle."),
    # words that only look like the forms above stay as they are
    ("Give Ben his kettle.", "give Ben his kettle."),
    ("Is the mug in the fridge or not?", "Is the mug in the fridge?"),
])
def test_other_englishes_and_frames_are_written_as_the_parser_reads_them(text: str, normal: str) -> None:
    assert normalise(text) == normal


@pytest.mark.parametrize("text, intent", [
    ("The kettle last time was where?", Intent.where),
    ("Where was the kettle last time?", Intent.where),
    ("The kettle supposed to go where?", Intent.goes_where),
    ("How many cups has the kitchen got?", Intent.count),
    ("Of what hue is the kettle?", Intent.attribute),
])
def test_a_thing_said_first_keeps_what_is_asked_of_it(text: str, intent: Intent) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is intent, req
    if "last time" in text:
        assert req.time is not None and req.time.moment == "previous", req
    if "kitchen" in text:
        assert req.objects[0].room == "kitchen" or "kitchen" in str(req.objects[0].anchor), req


@pytest.mark.parametrize("text", ["Haul the kettle over to the kitchen.", "could you lug the kettle to the bedroom",
                                  "Tote my kettle here, please."])
def test_a_verb_wordnet_files_under_carrying_carries_the_thing(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is Intent.fetch and req.objects and req.objects[0].head == "kettle", req


def test_a_verb_of_pulling_without_a_place_is_not_read_as_carrying() -> None:
    # "draw" is pulling in WordNet's commonest sense; "draw the curtains" says no place to carry them to
    assert normalise("draw the curtains") == "draw the curtains"


@pytest.mark.parametrize("text", ["Ben will bring the kettle", "I'll open the oven", "Ben's going to fetch the kettle",
                                  "Alice is putting the kettle on the shelf", "Ben can close the oven"])
def test_a_task_said_of_someone_else_is_news_not_a_task(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert not req.is_command and req.confidence == 0.0, req


@pytest.mark.parametrize("text", ["Ben, bring the kettle", "could someone bring me the kettle?", "you will bring the kettle",
                                  "fetch me the kettle, I've got my hands full", "I want you to open the oven",
                                  "the oven's been left open, close it",
                                  "can you take the kettle to Ben, he keeps asking for it"])
def test_requests_with_a_name_or_a_person_in_them_stay_requests(text: str) -> None:
    assert parse(text, prefer=Kind.command).is_command


def test_we_may_include_the_robot_so_it_is_offered_not_done() -> None:
    from memory_node.language.reading_policy import OFFER_BELOW
    req = parse("we'll get the kettle later", prefer=Kind.command)
    assert req.is_command and req.confidence < OFFER_BELOW, req


def test_the_thing_said_instead_is_no_part_of_the_task() -> None:
    req = parse("bring me the kettle instead of the scissors", prefer=Kind.command)
    assert [o.head for o in req.objects] == ["kettle"], req


@pytest.mark.parametrize("text, sentence", [
    ("The kettle... shelf. On the shelf. Put.", "put the kettle on the shelf."),
    ("The kettle... away. Put... its place.", "put the kettle away."),
    ("The oven... the tray... out. Take out. For me.", "take the tray out of the oven for me."),
    ("The kettle... and... the scissors. Both. Bring me.", "bring me the kettle and the scissors."),
    ("The oven... open? Is... open?", "is the oven open?"),
    ("In the hall... umbrellas... how many?", "how many umbrellas are in the hall?"),
    ("The kettle... you saw... when? Last time?", "when did you last see the kettle?"),
    ("Lost... the... scissors. Can't... can't find.", "I can't find the scissors."),
    # a filler between pauses, a place broken after its article, a person after "to", a verb said alone
    ("The... um... kettle. Where... where is it?", "where is the kettle?"),
    ("The kettle... on the... the shelf. Put it.", "put the kettle on the shelf."),
    ("The kettle... to Ben. Give him.", "give the kettle to Ben."),
    ("Need... the kettle. And... the dish rack. Bring. Both.", "bring me the kettle and the dish rack."),
    ("The kettle... bring... to me. Please.", "bring me the kettle."),
])
def test_speech_in_fragments_is_the_sentence_they_make(text: str, sentence: str) -> None:
    from memory_node.language.fragments import telegraphic

    assert telegraphic(text) == sentence


@pytest.mark.parametrize("text", ["Could you... um... bring me the... the kettle?", "The kettle... where?",
                                  # which one, and what someone did next, are the parser's to read
                                  "The mug... on the shelf. Which one?", "Ben... made tea... then? What then?",
                                  "Fetch the kettle. Then the scissors. Then the tray.", "kettle. open."])
def test_a_sentence_with_pauses_or_too_few_fragments_is_left_as_said(text: str) -> None:
    from memory_node.language.fragments import telegraphic

    assert telegraphic(text) == text


@pytest.mark.parametrize("text, normal", [
    ("At what time did you last see the kettle, if I may ask?", "when did you last see the kettle?"),
    ("Anyone seen the kettle? Robot, you seen it?", "have you seen the kettle?"),
    ("Could you identify which kettle is next to the oven?", "which kettle is next to the oven?"),
    ("How much umbrellas are there in the hall?", "how many umbrellas are there in the hall?"),
    ("Colour of the kettle? Quick!", "what color is the kettle?"),
    ("I don't arrive to find the kettle.", "I can't find the kettle."),
])
def test_courtesy_urgency_and_learners_frames_around_a_question(text: str, normal: str) -> None:
    assert normalise(text) == normal


@pytest.mark.parametrize("text, normal", [
    # the question word or the verb last (Korean, Japanese, Turkish speakers' order)
    ("bathroom, towels how many?", "how many towels are in the bathroom?"),
    ("Next to radio, which bowl?", "which bowl is next to the radio?"),
    ("kettle color is what?", "what color is the kettle?"),
    ("my kettle where?", "where is my kettle?"),  # whose it is stays
    ("Ben sat down on the sofa. What did he do next?", "Ben sat down on the sofa. What did he do next?"),
    ("kettle, last time you see when?", "when did you last see the kettle?"),
    ("microwave door, open now?", "is the microwave door open?"),
    ("Which glass mine?", "which glass is mine?"),
    ("kettle bring to me please.", "bring the kettle to me"),
    # Singapore English: particles in any sentence, "close already", the subject left unsaid
    ("Eh the kettle where ah? Cannot see leh.", "where is the kettle?"),
    ("The fridge close already or not?", "is the fridge closed?"),
    # repairs typed with the dash against the word, and words said to someone else between dashes
    ("Where did I put the— where did I leave the kettle?", "where did I leave the kettle?"),
    ("Get me the radio and the— and the kettle as well.", "get me the radio and the kettle as well."),
    ("Where was the kettle — Sam, I said no — where was it before somebody moved it?", "where was the kettle before?"),
    ("Find the— go to where the kettle is.", "go to the kettle."),
    # gamers' slang, dictation homophones, an asked time, a need then "a suitable item"
    ("yo bot, yeet the kettle over here", "bring the kettle here"),
    ("is the fridge shut, I can't sea it from hear", "is the fridge shut?"),
    ("Have you seen my— sorry, the kettle, have you seen it?", "have you seen the kettle?"),
    ("Is the fridge open— closed, I mean, is it closed?", "is the fridge closed?"),
    ("Get the kettle out of the — Leo, hot, don't touch — out of the microwave for me.",
     "get the kettle out of the microwave for me"),
    ("pass be the kettle", "pass me the kettle"),
    ("Somebody helpfully moved the kettle. Where was it before they did?",
     "Somebody helpfully moved the kettle. Where was it before?"),
    ("¿Dónde está the kettle?", "where is the kettle?"),
    ("Abre the microwave, por favor.", "open the microwave"),
    ("kettle kis kamre mein hai?", "which room is the kettle in?"),
    ("Hanapin mo ang kettle, go find it.", "find the kettle, go find it"),
    ("Mosey on over to the stove and wait there.", "go to the stove"),
    ("Reckon I can get into that cabinet alright?", "can that cabinet be opened?"),
    ("kettle I cannot find. Where?", "where is the kettle?"),
    ("I've a nagging feeling the fridge got left open.", "is the fridge open?"),
    # spelled as said, Nigerian and Cantonese English, robot command lines, stories and asides around a question
    ("were dose the kettle go", "where does the kettle go"),
    ("wat culler is the kettle", "what color is the kettle"),
    ("cloze the fridge pleez", "close the fridge"),
    ("get me sumthing to wipe with", "get me something to wipe with"),
    ("I'm parched. Bring me somethin' to drink.", "I'm parched. Bring me something to drink"),
    ("The fridge dey open?", "is The fridge open?"),
    ("Abeg take the kettle reach Anna for me.", "bring the kettle to Anna for me"),
    ("Eh robot, the kettle hai bin dou ah? Where is it?", "where is the kettle? Where is it?"),
    ("Robot, query: is the microwave in a closed state?", "is the microwave closed?"),
    ("Robot, execute: transport the kettle to the bathroom and set it down.", "take the kettle to the bathroom"),
    ("My kettle has gone AWOL. Where is it?", "where is My kettle?"),
    ("I don't suppose you'd know where the kettle has got to?", "where is the kettle?"),
    ("First time you see the kettle, what time?", "when did you First see the kettle?"),
    ("That cupboard locked?", "is the cupboard locked?"),
    ("where's the kettle, I'm on a call, quick", "where's the kettle?"),
    ("Keep the kettle back where it was before.", "put the kettle back where it was before"),
    ("Grab the kettle — actually no, first tell me where the kettle is.", "tell me where the kettle is"),
    ("I'd like to see where the kettle ended up — show me.", "go to the kettle"),
    ("Could you let me know at what time you first saw the kettle?",
     "Could you let me know when you first saw the kettle?"),
    ("I would like something to wipe the table with. Kindly bring me a suitable item.",
     "bring me something to wipe the table with"),
    ("which room is the kettle hiding in lol", "which room is the kettle in"),
    ("I want wash hands, where can?", "where can I wash hands?"),
])
def test_word_orders_repairs_and_slang_are_written_as_the_parser_reads_them(text: str, normal: str) -> None:
    assert normalise(text).rstrip(".?!") == normal.rstrip(".?!")


@pytest.mark.parametrize("text", ["the kettle goes where?", "where was the kettle left?", "Ben, where is it?"])
def test_a_question_word_last_after_a_verb_is_not_rewritten(text: str) -> None:
    assert "where is the" not in normalise(text).lower() or text.lower().startswith("ben")


def test_what_someone_did_after_a_story_of_what_they_did() -> None:
    for text in ("ok so Ben used the computer, what was his next move?", "Ben made coffee, then after that he do what?",
                 "Ben used the computer, after that what he do?"):
        req = parse(text)
        assert req.intent is Intent.around and req.actor == "ben" and req.time.relation == "after", text


def test_a_use_ending_in_its_preposition_wants_the_vessel_or_the_tool() -> None:
    from memory_node.language.uses import default_uses

    labels = {"milk", "juice", "mug", "waterglass", "fork", "apple"}
    drink_from = [f.label for f in default_uses().rank("drink out of", labels, verb="drink")]
    assert drink_from and not {"milk", "juice"} & set(drink_from)
    assert {"milk", "juice"} & {f.label for f in default_uses().rank("drink", labels, verb="drink")}
    assert parse("bring me something to drink out of").objects[0].purpose == "drink out of"


def test_a_place_said_after_the_one_thing_put_is_where_it_goes() -> None:
    req = parse("Lay the lotion on the table, please.", prefer=Kind.command)
    assert req.intent is Intent.put and req.destination is not None and req.destination.ref.head == "table"
    assert req.objects[0].anchor is None
    # where the thing is now, said before the place it goes, stays which thing is meant
    req = parse("put the cup from the table in the sink", prefer=Kind.command)
    assert req.destination.ref.head == "sink" and req.objects[0].anchor.ref.head == "table"


Q, C = Kind.question, Kind.command


@pytest.mark.parametrize("text, prefer, intent, head", [
    # Jamaican: "di", "weh", "wah", "deh", "inna", "fi", "a fi mi", "afta ... him", "go gi", "tek Name thing"
    ("Weh di scissors fi go?", Q, Intent.goes_where, "scissor"),
    ("Wah deh pon di shelf?", Q, Intent.contents, "shelf"),
    ("Which cup deh side a di kettle?", Q, Intent.which, "cup"),
    ("How much cups deh inna di kitchen?", Q, Intent.count, "cup"),
    ("Which scarf a fi mi?", Q, Intent.which, "scarf"),
    ("Carry di kettle go gi Ben.", C, Intent.fetch, "kettle"),
    ("Put di scissors weh fi mi.", C, Intent.put_away, "scissor"),
    ("Put back di scissors weh it did deh.", C, Intent.put_back, "scissor"),
    ("Mi thirsty, bring mi sometin fi drink.", C, Intent.fetch, "something"),
    # a sign language's gloss typed in English
    ("garage THERE ladder? YES NO?", Q, Intent.exists, "ladder"),
    ("oven CLOSE FINISH? YES NO?", Q, Intent.state, "oven"),
    ("scissors MOVE FINISH. BEFORE, WHERE?", Q, Intent.where, "scissor"),
    ("ME scissors LEAVE, FORGET. WHERE?", Q, Intent.where, "scissor"),
    ("kettle YOU LAST SEE, WHEN?", Q, Intent.when_seen, "kettle"),
    ("kettle WHICH ROOM?", Q, Intent.what_room, "kettle"),
    ("kettle SHELF PUT-ON.", C, Intent.put, "kettle"),
    ("kettle TAKE, GIVE Ben.", C, Intent.fetch, "kettle"),
    ("kettle BEFORE PLACE, PUT-BACK.", C, Intent.put_back, "kettle"),
    ("scissors WHERE? / IT BRING ME.", C, Intent.fetch, "scissor"),
    # a formal register, labels and parentheticals
    ("Kindly state, to the best of your knowledge, the current location of the kettle.", Q, Intent.where, "kettle"),
    ("Timestamp request: most recent observation of the kettle (HH:MM is adequate).", Q, Intent.when_seen, "kettle"),
    ("Confirm presence (yes/no): at least one ladder in the garage.", Q, Intent.exists, "ladder"),
    ("Kindly enumerate all items presently in the oven.", Q, Intent.contents, "oven"),
    ("Kindly indicate where the kettle was situated prior to its most recent relocation.", Q, Intent.where, "kettle"),
    ("Kindly return the kettle to the location it occupied prior to being moved.", C, Intent.put_back, "kettle"),
    ("Retrieve two items: (1) the kettle; (2) the scissors. Deliver both to me.", C, Intent.fetch, "kettle"),
    ("At what hour, if I may ask, did you first set eyes upon the kettle?", Q, Intent.when_seen, "kettle"),
    ("Might I enquire whether the household is in possession of a ladder?", Q, Intent.exists, "ladder"),
    # London and Liverpool, teenagers, learners' orders
    ("'Ow many cups we got in the kitchen, then?", Q, Intent.count, "cup"),
    ("Fetch us me scarf, would ya?", C, Intent.fetch, "scarf"),
    ("Get yerself over to the shelf, bruv.", C, Intent.go, "shelf"),
    ("bestie have u seen the scarf", Q, Intent.exists, "scarf"),
    ("lowkey can't find the scarf anywhere help", Q, Intent.where, "scarf"),
    ("garage have how many ladders?", Q, Intent.count, "ladder"),
    ("House have ladder or not?", Q, Intent.exists, "ladder"),
    ("kettle you see last time when?", Q, Intent.when_seen, "kettle"),
    ("scarf which colour is?", Q, Intent.attribute, "scarf"),
    ("scissors in drawer, take out bring me.", C, Intent.fetch, "scissor"),
    ("kettle, you bring for me can or not?", C, Intent.fetch, "kettle"),
    # a system administrator's and a dramatic speaker's words, Thai particles, musings and reasons said after
    ("Return the room for the kettle.", Q, Intent.what_room, "kettle"),
    ("Get the color attribute of the scarf.", Q, Intent.attribute, "scarf"),
    ("Transfer the kettle to Ben.", C, Intent.fetch, "kettle"),
    ("In which chamber of this labyrinth does the kettle now reside?", Q, Intent.what_room, "kettle"),
    ("The kettle! And the scarf! Bring me both, darling, before I perish.", C, Intent.fetch, "kettle"),
    ("Which of the cups is the one at the kettle?", Q, Intent.which, "cup"),
    ("There's more than one cup and um which one is the one next to the kettle?", Q, Intent.which, "cup"),
    ("Which cup -- the one by the kettle, which one is that?", Q, Intent.which, "cup"),
    ("Of all the cups in this house, which one dares sit beside the kettle?", Q, Intent.which, "cup"),
    ("When did you last see the kettle, I wonder?", Q, Intent.when_seen, "kettle"),
    ("Where does the kettle go -- where do we keep it?", Q, Intent.goes_where, "kettle"),
    ("Cannot find the scarf la, help me na.", Q, Intent.where, "scarf"),
    ("Got any cups in the kitchen ka?", Q, Intent.exists, "cup"),
    ("Put the kettle away, it's cluttering up my worktop.", C, Intent.put_away, "kettle"),
    # readings the rules above must leave as they were
    ("The kettle stay which room?", Q, Intent.what_room, "kettle"),
    ("'Is the oven open?' Well, is it?", Q, Intent.state, "oven"),
    ("Of the cups: which one's by the kettle?", Q, Intent.which, "cup"),
    ("Which cup is the one that next to the kettle stands?", Q, Intent.which, "cup"),
    ("Go ova deh by di shelf.", C, Intent.go, "shelf"),
    ("Bring mi scarf come.", C, Intent.fetch, "scarf"),
    ("Open the oven, would you?", C, Intent.open, "oven"),
    ("Fetch us me scarf, would ya?", C, Intent.fetch, "scarf"),
])
def test_other_englishes_read_as_what_they_ask(text: str, prefer: Kind, intent: Intent, head: str) -> None:
    req = parse(text, prefer=prefer)
    said = req.objects[0].head if req.objects else req.destination.ref.head if req.destination else ""
    assert req.intent is intent and said == head, (normalise(text), req)


def test_a_question_asked_before_a_remark_is_the_question() -> None:
    # the remark after the question names no thing; "it" there is the thing asked about, and the question stands
    req = parse("Which cup is on the shelf? Can't see it properly from here.", prefer=Q)
    assert req.intent is Intent.which and req.objects[0].head == "cup", req
    req = parse("What colour is my scarf? I told you before and um do you remember?", prefer=Q)
    assert req.intent is Intent.attribute and req.objects[0].head == "scarf", req
    # what the speaker is busy with is no thing they cannot find
    req = parse("Sauce needs stirring and I can't find the scissors anywhere, it's driving me mad.", prefer=Q)
    assert req.intent is Intent.where and req.objects[0].head == "scissor", req
    # a place named first as the topic is a filter; "how many" is a count, never a list
    req = parse("How many cushions does the living room hoard? Count them for me!", prefer=Q)
    assert req.intent is Intent.count and (req.objects[0].room or req.objects[0].anchor.ref.head == "room"), req
    # a statement that only says a thing is lost is not rewritten into a question unless one follows
    assert "can't find" not in normalise("The kettle seems to have wandered off again.")
    assert normalise("The cup on the counter: which one is that?").lower().startswith("the cup")
    # a preamble that names the place a later "there" means is kept
    assert "bathroom" in normalise("Before I go all the way to the bathroom: is there a towel in there?")
    assert "Annas's" not in normalise("can you take Annas glass to her")


def test_a_plural_compound_the_parser_reads_as_a_clause_is_one_thing() -> None:
    # the tagger is right ("face" NN, "creams" NNS) but the parse makes "face" the subject of "creams"
    req = parse("Do we have any face creams?", prefer=Q)
    assert req.intent is Intent.exists and (req.objects[0].head, req.objects[0].compound) == ("cream", ["face"]), req


@pytest.mark.parametrize("text, intent, head", [
    # a caller's name after the station called, radio verbs for asking, a sighting, eyes on a thing
    ("Robot, Ben, say number of kettles in the kitchen, over.", Intent.count, "kettle"),
    ("Robot, Ben. Say colour of the kettle, over.", Intent.attribute, "kettle"),
    ("Home unit, Ben here, say position of the kettle, over.", Intent.where, "kettle"),
    ("Robot, Ben, confirm kettles present in the kitchen, affirm or negative.", Intent.exists, "kettle"),
    ("Any sighting of the kettle? Report location.", Intent.exists, "kettle"),
    ("Have you had eyes on the kettle?", Intent.exists, "kettle"),
    ("Time of last sighting of the kettle?", Intent.when_seen, "kettle"),
    ("What's the timestamp of your most recent observation of the kettle?", Intent.when_seen, "kettle"),
    ("When did your eyes first fall upon the kettle?", Intent.when_seen, "kettle"),
    ("Could you give me the current location of the kettle, please?", Intent.where, "kettle"),
    # Northern English "t'", Geordie "gan", Trinidadian "wha'" and "it have"
    ("Where's t'kettle?", Intent.where, "kettle"),
    ("Where does t'kettle gan, pet?", Intent.goes_where, "kettle"),
    ("Wha' it have in de cupboard?", Intent.contents, "cupboard"),
    # frames of the same questions
    ("Where's the kettle's home position?", Intent.goes_where, "kettle"),
    ("The kettle should put where?", Intent.goes_where, "kettle"),
    ("The kettle was where before they moved it?", Intent.where, "kettle"),
    ("Did somebody shut the oven properly?", Intent.state, "oven"),
    ("Which room is our good friend the kettle in today?", Intent.where, "kettle"),
    ("Of all the mugs here, which one is closest to the kettle?", Intent.which, "mug"),
    ("Give me a quick inventory of what's sitting on the shelf.", Intent.contents, "shelf"),
    ("Can you list everything you've observed in the drawer?", Intent.contents, "drawer"),
    ("The kitchen: does it currently boast any kettles?", Intent.exists, "kettle"),
    ("Might I find any kettles lurking in the bathroom, I wonder?", Intent.exists, "kettle"),
])
def test_more_frames_of_the_same_questions(text: str, intent: Intent, head: str) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is intent and req.objects and req.objects[0].head == head, req


def test_the_room_said_with_a_verb_of_being_there_stays_a_filter() -> None:
    req = parse("Might I find any kettles lurking in the bathroom, I wonder?", prefer=Kind.question)
    assert req.objects[0].room == "bathroom" or (req.objects[0].anchor and req.objects[0].anchor.ref.head == "bathroom"), req


@pytest.mark.parametrize("text, normal", [
    # a question taken back for the one after keeps the thing it named
    ("When did you last see the kettle? No, no, first. When did you first see it?",
     "the kettle. When did you first see it?"),
    ("Could you pop and grab the kettle for me?", "Could you grab the kettle for me?"),
    ("Two things: bring me the kettle and the scissors. Go!", "bring me the kettle and the scissors."),
    ("Let the kettle rest upon the table, if you please.", "put the kettle on the table."),
    ("Please return the kettle to its original place.", "Please put the kettle back."),
    ("Someone moved the kettle. I don't want to know where it is now. Where was it before?",
     "Someone moved the kettle. Where was it before?"),
    # what only looks like them stays
    ("What colour, if you please, is the kettle?", "What color is the kettle?"),
    ("Robot, the kettle, where is it?", "the kettle, where is it?"),  # (the thing named stays)
    ("Did you close the oven?", "Did you close the oven?"),
    # a pause inside one clause is said without it; one before "robot," ends what was said to someone else
    ("which room... is the kettle... in", "which room is the kettle in"),
    ("The mug... on the shelf. Which one?", "Which mug is on the shelf?"),
    ("The mug... next to... the kettle. That one. Which?", "Which mug is next to the kettle?"),
    ("one sec Sam, I'm looking for something... robot, where's the kettle?", "where's the kettle?"),
    ("when'd you last see the kettle... what time was that", "when did you last see the kettle?"),
    # other frames: a time asked after the sighting, a record of where, remarks on the robot's cameras
    ("Last time you saw the kettle, what time was it?", "when did you Last see the kettle?"),
    ("When you saw the kettle last time?", "when did you last see the kettle?"),
    ("I put my kettle down somewhere. You have the cameras, don't you? Do you have a record of where I left it?",
     "I put my kettle down somewhere. can you tell me where I left it?"),
    ("Have we got owt in the way of kettles?", "do we have got any kettles?"),
    ("Colour of the kettle. Report.", "what color is the kettle?"),
    ("How many mugs we got in the kitchen?", "how many mugs are there in the kitchen?"),
    ("What hue adorns the kettle?", "what color is the kettle?"),
    ("There are many mugs. The one beside the kettle, which one?", "Which mug is beside the kettle?"),
    ("kettle is in which room, please?", "which room is the kettle in?"),
    ("Is the pantry sealed fast under lock and key?", "Is the pantry locked?"),
    ("If I give the pantry a gentle pull, will it open for me?", "can the pantry be opened?"),
    ("Tell me, does the oven stand open, its door flung wide?", "is the oven open?"),
    ("Which mug has made its home on the shelf?", "Which mug is on the shelf?"),
    ("Okay, quick one for you: where's the kettle hiding today?", "where is the kettle today?"),
    ("Tell me, where does the kettle rest at this hour?", "Tell me, where is the kettle?"),
    ("Are there any kettles in the hall? Apologies for the bother.", "Are there any kettles in the hall?"),
    ("How was your day, champ? Tell me everything you got done!", "what did you do today?"),
    ("What did you try to open earlier?", "what did you do earlier?"),
    ("Has the kettle shown up in any of your recent observations?", "have you seen the kettle?"),
    ("And what is the colour of it?", "what color is it?"),
    ("Its current location?", "where is it?"),
    ("What colour is the kettle? Is it red like an apple, or blue like the sky?", "What color is the kettle?"),
    ("And once Ben had made tea, to what did he turn his hand next?", "what did he do next after Ben had made tea?"),
    ("I need something to wipe up a spill. What's available?", "what can I use to wipe up a spill?"),
    ("Ye haven't seen the kettle, have ye?", "have you seen the kettle?"),
    # what only looks like them stays
    ("I waited... and waited. Where is the kettle?", "I waited, and waited. Where is the kettle?"),
    # when it was seen, where it was before, what someone did next, what the robot did
    ("What time was the kettle last sighted?", "when did you last see the kettle?"),
    ("What time was your last visual on the kettle?", "when did you last see the kettle?"),
    ("What time did you first log the kettle today?", "when did you first see the kettle today?"),
    ("The kettle you last see what time ah?", "when did you last see The kettle?"),
    ("When did you last see the kettle? Around what time?", "When did you last see the kettle?"),
    ("The kettle got relocated. What was its original position?", "where was The kettle got relocated before?"),
    ("Where did the kettle reside before its unannounced relocation?", "where was the kettle before?"),
    ("Ben, after making tea, what was his next move?", "what did Ben do after making tea?"),
    ("So, what have you been busy with today?", "what did you do today?"),
    ("Provide a log of the actions you performed today, including any that failed.", "what did you do today?."),
    # where it is, whether it was seen, what is there, whether it is open, which one, which room
    ("Where, pray, has the kettle taken itself off to this time?", "where is the kettle?"),
    ("The kettle's gone walkabout. Can't find it anywhere.", "I can't find The kettle anywhere."),
    ("Location on the kettle?", "where is the kettle?"),
    ("You had eyes on the kettle at all? Where?", "have you seen the kettle at all? Where?"),
    ("Have you come across my kettle on your travels around the house today?", "have you seen my kettle?"),
    ("Got any kettles? In the house?", "do we have any kettles?"),
    ("Mum wants to know if there's a kettle in the kitchen. Is there?", "is there a kettle in the kitchen?"),
    ("What all you got on the cooker, cher?", "what is on the cooker?"),
    ("Is the oven left open, would ya check?", "Is the oven left open?"),
    ("Status check on the oven: is it secured, closed?", "is the oven closed?"),
    ("Can I get into that pantry?", "can that pantry be opened?"),
    ("Can I get into the pantry or is it locked up?", "can the pantry be opened or is it locked up?"),
    ("Need a colour on the kettle so I can ID it.", "what color is the kettle?"),
    ("Of the water glasses, which one's sitting by the kettle?", "which water glass is by the kettle?"),
    ("Which one of dem mugs is sittin' right by the kettle?", "Which mug is sitting right by the kettle?"),
    ("which mug next to kettle", "Which mug is next to the kettle"),
    ("Which room dat kettle in now?", "which room is the kettle in?"),
    ("In which room is the kettle staying?", "which room is the kettle in?"),
    ("Where is the kettle's home? Where does it belong?", "where does the kettle go? Where does it belong?"),
    ("wait is the pantry locked?? skull emoji", "is the pantry locked??"),
    ("The pantry can open or not?", "can The pantry be opened?"),
    ("The oven open or not ah?", "is The oven open?"),
    ("And it is in which room?", "which room is it in?"),
    # what only looks like them stays
    ("The mug which is on the shelf, that is which one?", "The mug which is on the shelf, that is which one?"),
    ("Anna wants to know where her glass is.", "where Anna's glass is."),  # (her glass: Anna's)
    ("Which plate dey next to the sink?", "Which plate is next to the sink?"),
])
def test_frames_and_pauses_written_as_the_parser_reads_them(text: str, normal: str) -> None:
    assert normalise(text) == normal


@pytest.mark.parametrize("text, intent, heads", [
    # a count said with the list ("two items: A and B"), "then" in a list, "both" said before or after it
    ("Two pickups: the kettle, then the mug. Bring both to me.", Intent.fetch, ["kettle", "mug"]),
    ("Two items for you: the kettle and the mug. Both come to me.", Intent.fetch, ["kettle", "mug"]),
    ("Retrieve two items, the kettle and the mug, and hand both to me.", Intent.fetch, ["kettle", "mug"]),
    ("Bring me kettle and mug, two thing, please.", Intent.fetch, ["kettle", "mug"]),
    ("need kettle and dish rack bring both", Intent.fetch, ["kettle", "rack"]),
    ("Could you bring me the kettle? And, um, the mug too, please. Both of them.", Intent.fetch, ["kettle", "mug"]),
    ("Bring the kettle and the mug both for me.", Intent.fetch, ["kettle", "mug"]),
    ("Pickup is the kettle, drop-off is me. Go.", Intent.fetch, ["kettle"]),
    ("sorry, could you bring me the kettle... and, um, the mug too? sorry", Intent.fetch, ["kettle", "mug"]),
    ("I need the kettle and the mug! Can you bring me both?", Intent.fetch, ["kettle", "mug"]),
])
def test_two_things_listed_and_then_asked_for_are_both_fetched(text: str, intent: Intent, heads: list[str]) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is intent and [o.head for o in req.objects] == heads, req


@pytest.mark.parametrize("text, intent, head, said", [
    # a question asked before a remark, or after counting aloud; "s'posed", "d'ya"; Bajan "wuh part" and "does go"
    ("Where does the kettle belong, do you know? I'd hate to put it in the wrong place.", Intent.goes_where, "kettle", ""),
    ("Three, four... where does the kettle live, love? I always forget where it belongs.", Intent.goes_where, "kettle", ""),
    ("Where's the kettle s'posed to go, d'ya know?", Intent.goes_where, "kettle", ""),
    ("Wuh part de kettle does go?", Intent.goes_where, "kettle", ""),
    # whether it is: "opened" as a state, asked to check, Caribbean "lock up", a door said for its thing
    ("Is the oven still opened?", Intent.state, "oven", "open"),
    ("Could you check for me whether the pantry is still locked?", Intent.state, "pantry", "locked"),
    ("De pantry lock up?", Intent.state, "pantry", "locked"),
    ("Is the door on the oven closed?", Intent.state, "oven", "closed"),
    # where it was before, said otherwise or said again in pieces
    ("What was the original position of the kettle, before it got moved?", Intent.where, "kettle", "previous"),
    ("The kettle has been moved. State its prior location.", Intent.where, "kettle", "previous"),
    ("Where was the kettle before, before it moved, where was it before, where?", Intent.where, "kettle", "previous"),
    # a count asked as a headcount; lost, as a remark; "in there" after the room it means
    ("Could you do a quick headcount of the mugs in the kitchen?", Intent.count, "mug", ""),
    ("I've looked everywhere and the kettle is still nowhere to be found.", Intent.where, "kettle", ""),
    ("You ain't seen my kettle nowheres, have ya?", Intent.exists, "kettle", ""),
    ("I'm off to the garage and I'm not sure there's a kettle in there at all.", Intent.exists, "kettle", "garage"),
    ("Where's the thingy, the, um... the kettle?", Intent.where, "kettle", ""),
    # where one can, and what one can do it with
    ("Where would I lie down for a bit, I'm shattered.", Intent.where, "somewhere", ""),
    ("Could you point me to a spot where I can sit?", Intent.where, "somewhere", ""),
    ("With what can I cook here? I'd like to make lunch.", Intent.exists, "", ""),
    # seen said otherwise; where it is stored; a hope said as an order; a count requested; a learner's tag question
    ("Has the kettle come across your radar at all today?", Intent.exists, "kettle", ""),
    ("Sixteen... when did you first lay eyes on the kettle, dear? What time was that?", Intent.when_seen, "kettle", ""),
    ("When saw you the kettle for the first time?", Intent.when_seen, "kettle", ""),
    ("Identify the designated storage location for the kettle.", Intent.goes_where, "kettle", ""),
    ("Today I'd like to confirm the current location of the kettle. Are you able to help me with that?", Intent.where,
     "kettle", ""),
    ("Oh for Pete's sake, the kettle isn't where I put it and I just can't find it. Any ideas?", Intent.where, "kettle", ""),
    ("Tell me the oven is closed, I cannot deal with another mess today.", Intent.state, "oven", "closed"),
    ("Request a count of mugs present in the kitchen.", Intent.count, "mug", ""),
    ("Can you provide the total number of mugs located in the kitchen?", Intent.count, "mug", ""),
    ("I will be able to open the pantry, no?", Intent.usable, "pantry", ""),
    ("Before I escalate this, can you confirm whether the pantry is locked?", Intent.state, "pantry", "locked"),
    ("Yuh see de kettle? / Wuh room it in?", Intent.what_room, "kettle", ""),
    # pauses around the thing; a note with an arrow; where it used to be; a collection counted; "our", "me", "TV remote"
    ("where does... the kettle... go", Intent.goes_where, "kettle", ""),
    ("which mug... next to... the kettle", Intent.which, "mug", ""),
    ("Which from the mugs stands next to the kettle?", Intent.which, "mug", ""),
    ("kettle -> goes where?", Intent.goes_where, "kettle", ""),
    ("Ben's moved the kettle and I can't for the life of me remember where it used to be.", Intent.where, "kettle",
     "previous"),
    ("Before, where the kettle was kept? Someone has shifted it.", Intent.where, "kettle", "previous"),
    ("The kitchen holds a modest collection of mugs. How many pieces does it comprise?", Intent.count, "mug", ""),
    ("how many mugs our in the kitchen", Intent.count, "mug", ""),
    ("I can't find me kettle nowhere, bab. It's gone walkabout.", Intent.where, "kettle", ""),
    ("When was the last time you saw TV remote?", Intent.when_seen, "remote", ""),
    # hints instead of questions, Southern "a-standin'", speech to text's homophones
    ("I'd go and get the kettle myself if only I knew which room it was in.", Intent.what_room, "kettle", ""),
    ("I haven't looked, so I've no idea what's been left in the oven.", Intent.contents, "oven", ""),
    ("I'd rather not wrestle with the pantry if it's gone and locked itself again.", Intent.state, "pantry", "locked"),
    ("Did y'all leave that oven a-standin' open?", Intent.state, "oven", "open"),
    ("Will that pantry open up if I give it a tug?", Intent.usable, "pantry", ""),
    ("the pantry... can I... open it", Intent.usable, "pantry", ""),
    ("do we... have any... kettles", Intent.exists, "kettle", ""),
    ("We got us any kettles round here?", Intent.exists, "kettle", ""),
    ("watts on the stove", Intent.contents, "stove", ""),
    ("witch room is the kettle inn", Intent.what_room, "kettle", ""),
    # where one can sit or what one can use, said otherwise; which one is mine
    ("Where can a body set down for a spell?", Intent.where, "somewhere", ""),
    ("Identify a location where the reporting party can lie down.", Intent.where, "somewhere", ""),
    ("For guests: with what might one wash one's hands?", Intent.exists, "something", ""),
    ("Wuh I could cook wid in here?", Intent.exists, "something", ""),
    ("Which kettle is my own?", Intent.which, "kettle", ""),
    ("My kettle is which one?", Intent.which, "kettle", ""),
    # "TV remote" before a particle; "any X in the room" with no verb
    ("I set my TV remote down earlier. Where did I leave it?", Intent.where, "remote", ""),
    ("any bathroom counters in the kitchen", Intent.exists, "counter", ""),
    # "the home of X" is where X goes, not a thing of its own before "of"
    ("Where is the rightful home of the kettle, the place it ought to rest?", Intent.goes_where, "", ""),
])
def test_frames_of_questions_from_the_twentieth_session(text: str, intent: Intent, head: str, said: str) -> None:
    req = parse(text, prefer=Kind.question)
    assert req.intent is intent, req
    if head:
        assert req.objects and req.objects[0].head == head, req
    if said == "previous":
        assert req.time is not None and req.time.moment == "previous", req
    elif said == "garage":
        assert "garage" in normalise(text), normalise(text)
    elif said:
        assert req.state == said, req


@pytest.mark.parametrize("text", ["Walk me through what you did this morning.", "Give me a brief summary of your actions today."])
def test_a_summary_of_its_actions_is_what_the_robot_did(text: str) -> None:
    assert parse(text, prefer=Kind.question).intent is Intent.robot_did


@pytest.mark.parametrize("text, intent, head, dest", [
    ("Can you get the oven opened?", Intent.open, "oven", None),
    ("Make the pantry shut, please.", Intent.close, "pantry", None),
    ("Open the whatsit there, the oven.", Intent.open, "oven", None),
    ("Fetch me a thingy to drink.", Intent.fetch, "something", None),
    ("Find me some reading material.", Intent.fetch, "something", None),
    # a note with arrows; a German speaker's "become" (bekommen: get); Bajan "pun" (on) and "'way" (away)
    ("kettle -> bring", Intent.fetch, "kettle", None),
    ("kettle -> on shelf", Intent.put, "kettle", ("on", "shelf")),
    ("Could I become the kettle, please? I need it here by me.", Intent.fetch, "kettle", None),
    ("Put de kettle pun de counter.", Intent.put, "kettle", ("on", "counter")),
    ("Put 'way de kettle fuh me.", Intent.put_away, "kettle", None),
    ("The kettle to Ben. Now.", Intent.fetch, "kettle", None),
    ("fetch me... something... to dry my hands", Intent.fetch, "something", None),
    ("Lo the kettle bring to me ah", Intent.fetch, "kettle", None),
    ("I'm going to need two items from you: the remote and the kettle. Can you bring both over?", Intent.fetch, "control",
     None),
    ("Could you pop and grab the kettle for me? I'm run off my feet.", Intent.fetch, "kettle", None),
    # what was done to it before a two-word name is no part of the name
    ("Put a washed coffee pot in the sink.", Intent.put, "pot", ("in", "sink")),
    # "put ... for me" with no place is a put (asked where), never a fetch to the speaker
    ("put the kettle for me", Intent.put, "kettle", None),
    # "for me" with a place to take it to is done for the speaker, not brought to them
    ("Take the kettle in the kitchen for me.", Intent.fetch, "kettle", ("at", "kitchen")),
    ("Carry the kettle in the cupboard for me.", Intent.put, "kettle", ("in", "cupboard")),
    # the place that says which thing is not where it goes; the place before "under" is
    ("put the kettle that is on the shelf in the sink", Intent.put, "kettle", ("in", "sink")),
    ("Put the kettle in the cupboard under the sink.", Intent.put, "kettle", ("in", "cupboard")),
    ("Place the kettle on top of the counter in front of you.", Intent.put, "kettle", ("on", "counter")),
    # why it goes there is no part of the task
    ("Where was the kettle before somebody moved it? Put it back there, because that's where it lives.", Intent.put_back,
     "kettle", None),
])
def test_frames_of_tasks_from_the_twentieth_session(text: str, intent: Intent, head: str, dest) -> None:
    req = parse(text, prefer=Kind.command)
    assert req.intent is intent and req.objects and req.objects[0].head == head, req
    if dest:
        assert req.destination is not None and (req.destination.relation, req.destination.ref.head) == dest, req
    # a "for me" with nothing to take it to stays a fetch to the speaker
    assert parse("bring the kettle in the kitchen for me", prefer=Kind.command).intent is Intent.fetch


def test_which_one_is_the_one_next_to_keeps_the_anchor() -> None:
    req = parse("Of the mugs we've got, which one is the one sitting next to the kettle?", prefer=Kind.question)
    assert req.intent is Intent.which and req.objects[0].head == "mug", req
    assert req.objects[0].anchor is not None and req.objects[0].anchor.ref.head == "kettle", req
