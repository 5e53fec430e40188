"""Other frames of the same questions and tasks, said as the frame the parser reads.

People who ask where a thing is, when it was seen, what is in a cupboard or to bring two things say it in many
more frames than the parser's rules read: a radio operator's "say position of the glass", a poet's "where does the
juice rest at this hour?", a dispatcher's "two pickups: the pear, then the lotion", a scientist's "what time was
the lime last sighted?", a relayed "Mum wants to know if there's a mouse in the bedroom". Each rule here is a kind
of saying, written for the class and tested on words no writer used (``test/language/test_dialects.py``), never a
writer's sentence. ``normalise`` applies them, in the order written, just before its own table of frames
(``normalise._SAID_OTHERWISE``), after the varieties' function words (``dialects``) and before its shortcuts.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.text import singular_phrase
from .lexicon import ROOMS_RE

# one pause or more said between words ("where does... the loo roll... go", "the cupboard, can I, open it"): the
# ellipsis is still written as said when these frames run (``normalise``'s shortcuts make it a comma later)
_PAUSES = r"(?:\s*(?:,|\.{2,}|…)\s*)+"
_LAST_NP = re.compile(r"\b((?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s*$", re.I)


def with_article(phrase: str) -> str:
    """"ball" -> "the ball"; "my ball", "the ball" as they are."""
    return phrase if re.match(r"(?:the|my|your|our|his|her|their)\s", phrase, re.I) else f"the {phrase}"


def _taken_back(m: re.Match[str]) -> str:
    """A question taken back: nothing of it but the thing it ends on, for an "it" in the question after."""
    np = _LAST_NP.search(m.group(1))
    return f"{np.group(1)}. " if np else ""


# (a which-question is written with its capital: the small tagger reads "which cutting board is ..." with
# "cutting" as the thing, "Which cutting board is ..." as the board)
FRAMES: tuple[tuple[re.Pattern[str], Any], ...] = tuple((re.compile(p, re.I), r) for p, r in (
    # "can you give me the current location of the juice?", "tell me the whereabouts of the lime": where it is
    (r"(?:^|(?<=[.!?]\s))(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:give|tell|send)\s+(?:me\s+|us\s+)?"
     r"(?:the\s+)?(?:current\s+|present\s+|last\s+known\s+|latest\s+|exact\s+)?(?:location|position|whereabouts)\s+of\s+",
     "where is "),
    # "where's the lotion's home position?", "what is the milk's proper place?": where it goes
    (r"^(?:where(?:'s|\s+is)|what(?:'s|\s+is))\s+((?:the|my|our)\s+[\w -]{1,30}?)'s\s+(?:home|proper|usual|rightful|"
     r"designated|normal|right)\s+(?:position|place|spot|location|home)\b", r"where does \1 go"),
    # a thing said first, the question word after it: "the remote was where before they moved it?", "the mouse
    # before was where?"
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:was|were)\s+where\s+before\b", r"where was \1 before"),
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+before\s+(?:was|were)\s+where\b", r"where was \1 before"),
    # what the speaker does not want to know is no part of the question ("I don't want to know where it is now.
    # I want to know where it was before it was moved.")
    (r"(?:^|(?<=[.!?]\s))i\s+(?:don't|do\s+not)\s+(?:want|need)\s+to\s+know\s+[^.?!]{1,80}[.!]\s+(?=\S)", ""),
    # "can you verify that the fridge is properly closed?", "please check whether the cupboard is locked": whether it is
    (r"(?:^|(?<=,\s))(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:verify|confirm|check|make\s+sure|double[- ]?check|see)\s+"
     r"(?:for\s+me\s+)?(?:that|whether|if)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(is|are)\s+(?:still\s+|properly\s+|really\s+|"
     r"definitely\s+|actually\s+|fully\s+)*(open|opened|closed|shut|locked|unlocked|on|off|empty)\b[^?.!]*[?.!]*\s*$",
     r"\2 \1 \3?"),
    # Caribbean "the cupboard lock up?": whether it is locked
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+lock(?:ed)?\s+up\s*\?", r"is \1 locked?"),
    # "do a quick headcount of the glasses in the bedroom": how many
    (r"^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:do|run|take|give\s+me|request|get\s+me|provide)\s+(?:a\s+|the\s+)?(?:quick\s+|"
     r"total\s+)?(?:head\s*count|tally|count|number)\s+of\s+(?:the\s+)?(?=[a-z])", "how many "),
    (r"^(how\s+many\s+[\w -]{1,30}?)\s+(?:present|located|currently|there)\s+(in|on|inside)\b", r"\1 are \2"),
    # "..., the kettle isn't where I put it and I can't find it. Any ideas?": the remark asks where it is
    (r"(?<=[.!])\s*any\s+ideas?\s*\?\s*$", ""),
    # "can you make the microwave open?", "get the fridge shut": open or close it (a name of a few words: "get the
    # milk out of the fridge and shut it" is a fetch and a closing, not "get <the milk ... and> shut")
    (r"^((?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?)(?:make|get)\s+((?:the|my|our)\s+(?:(?!(?:and|then|out|of|from|off|to|in|into|on|with)\b)[\w-]+\s+){0,3}?[\w-]+)\s+(?:(open|opened)|"
     r"(closed|shut))\b", lambda m: f"{m.group(1)}{'open' if m.group(3) else 'close'} {m.group(2)}"),
    # what a thing is called when the word will not come ("open the thingamajig there, the microwave", "where's the
    # thingy, the, ah... the magazine"): the name said after it; "a thingy to eat": something to eat
    (r"\b(?:the|that|this)\s+(?:thing(?:y|ie|amajig|amabob|umajig|umabob)|whatsit|doohickey|whatchamacallit|doodad|gizmo)"
     r"(?:\s+(?:there|here))?\s*,\s*(?:(?:the|ah+|uh+|um+|erm|ugh)\s*(?:,|\.{2,}|…)?\s*)*(?=(?:the|my|your|our|[A-Z]?[a-z]+'s)\s)", ""),
    (r"\b(?:a|some|one\s+of\s+(?:those|them|the))\s+(?:thing(?:y|ie|ies|amajig|amajigs|amabob)|whatsits?)\s+(?=to\s+(?:eat|drink|"
     r"read|sit|wipe|dry|nibble|snack)\b)", "something "),
    (r"\b(?:some\s+|any\s+)?reading\s+material\b", "something to read"),
    # "with what can I cook here?": what it can be done with
    (r"\bwith\s+what\s+(?:can|could)\s+I\s+(cook|write|eat|wash|dry|clean)\b", r"what can I \1 with"),
    (r"\bwith\s+what\s+I\s+(?:can|could)\s+(cook|write|eat|wash|dry|clean)\b", r"what can I \1 with"),
    (r"\b(what\s+(?:can|could|do|should)\s+I\s+(?:cook|write|eat|wash|dry|clean|sit)\s+with)\s+(?:in\s+)?(?:here|around\s+here)\b", r"\1"),
    # "you ain't seen my magazine nowheres, have ya?": anywhere
    (r"\b(seen|found|spotted)\s+((?:the|my|our|your)\s+[\w -]{1,30}?)\s+nowheres?\b", r"\1 \2 anywhere"),
    # "I've turned the place upside down and the juice is still nowhere to be found": where it is
    (r"^(?:[^.?!]{0,80}?\band\s+)?((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:is|are)\s+(?:still\s+)?nowhere\s+to\s+be\s+(?:found|seen)\b[^?.!]*[.!]*\s*$",
     r"where is \1?"),
    # "I'm heading into the kitchen and not sure there's a towel in there": "there" is the room just said
    (r"\b((?:in|into|to)\s+the\s+(" + ROOMS_RE + r")\b[^.?!]{0,80}?\b(?:there's|there\s+is|there\s+are|is\s+there|are\s+there|any)\b"
     r"[^.?!]{0,40}?\b)in\s+there\b", r"\1in the \2"),
    (r"^i'?m\s+(?:heading|going|walking|off)\s+(?:in)?to\s+the\s+(?:" + ROOMS_RE + r")\s+and\s+i'?m\s+(?:honestly\s+|really\s+|just\s+)?"
     r"not\s+sure\s+(?:if\s+|whether\s+)?there(?:'s|\s+is|\s+are)\s+((?:a|an|any|some)\s+[^.?!]{1,60}?)(?:\s+at\s+all)?\s*[.!?]*\s*$",
     r"is there \1?"),
    # "where would I sit down", "where can I go to sleep", "direct me to a place where I can sleep": where one can
    (r"\bwhere\s+(?:would|should|could)\s+I\s+(sit|sleep|lie|rest|nap|wash|cook|eat)\b", r"where can I \1"),
    (r"\bwhere\s+(?:can|could|should|do)\s+I\s+go\s+(?:to\s+|and\s+)?(sleep|sit|rest|lie\s+down|nap|wash)\b", r"where can I \1"),
    (r"^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:direct|point|show)\s+me\s+(?:to\s+)?(?:a|the|some)\s+(?:place|spot)\s+"
     r"(?:where\s+)?I\s+(?:can|could|might)\s+", "where can I "),
    # "walk me through what you did this afternoon", "provide a summary of your actions during this shift": what it did
    (r"^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?walk\s+me\s+through\s+what\s+you\s+(?=did\b|have\s+done\b|tried\b|"
     r"opened\b|were\s+doing\b)", "tell me what you "),
    (r"^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:provide|give)\s+(?:me\s+|us\s+)?(?:a\s+)?(?:brief\s+|short\s+|quick\s+)?"
     r"(?:summary|rundown|recap|report|log|account)\s+of\s+(?:your\s+(?:actions|activities|activity|work)|what\s+you\s+(?:did|have\s+done))\b",
     "what did you do"),
    # "is the door on the microwave closed?": the microwave's door is the microwave's state
    (r"^(is|was|are)\s+the\s+(?:door|lid|doors)\s+(?:on|of)\s+(the\s+[\w -]{1,30}?)\s+(?:still\s+)?(open|opened|closed|shut|locked|unlocked)\b",
     r"\1 \2 \3"),
    # "has the kettle come across your radar today?", "I don't suppose it crossed your path", "lay eyes on": seen
    (r"\b(?:has|have)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:come\s+across|crossed)\s+your\s+(?:radar|path|screen|sensors)\b",
     r"have you seen \1"),
    (r"\bI\s+don't\s+suppose\s+(it|they)\s+(?:crossed|came\s+across)\s+your\s+(?:path|radar)\b[^?.!]*", r"have you seen \1"),
    (r"\b(did|do|have|has|when\s+did)\s+you\s+((?:first|last|ever)\s+)?lay\s+eyes\s+on\b", r"\1 you \2see"),
    (r"\b(haven't|have\s+not|hadn't|never)\s+laid\s+eyes\s+on\b", r"\1 seen"),
    # the place a thing is stored: "identify the designated storage location for the milk"
    (r"^(?:please\s+)?(?:identify|name|state|tell\s+me)\s+the\s+(?:designated\s+|proper\s+|usual\s+)?storage\s+(?:location|place|spot)\s+"
     r"(?:for|of)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s*[.?!]*\s*$", r"where does \1 go?"),
    (r"\b(?:I'd\s+like\s+to|I\s+want\s+to|I\s+need\s+to|let's)\s+confirm\s+the\s+(?:current\s+|exact\s+|present\s+)?(?:location|whereabouts|"
     r"position)\s+of\s+", "where is "),
    # a hope said as an order: "tell me the microwave is closed, I can't face another mess": whether it is
    (r"^tell\s+me\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(is|are)\s+(?:still\s+)?(open|closed|shut|locked|unlocked|off|on|empty)\b[^?]*[.!?]*\s*$",
     r"\2 \1 \3?"),
    # a note with an arrow: "glass -> bring", "toy -> bathroom", "radio -> on desk"
    (r"^([a-z][\w ]{1,30}?)\s*(?:->|→|=>)\s*bring(?:\s+(?:to\s+)?me)?\s*[.!]*\s*$", r"bring me the \1"),
    (r"^([a-z][\w ]{1,30}?)\s*(?:->|→|=>)\s*(on|in|into|onto)\s+(?:the\s+)?([a-z][\w ]{1,30}?)\s*[.!]*\s*$", r"put the \1 \2 the \3"),
    (r"^([a-z][\w ]{1,30}?)\s*(?:->|→|=>)\s*(?:to\s+)?(?:the\s+)?(" + ROOMS_RE + r")\s*[.!]*\s*$", r"take the \1 to the \2"),
    # a learner's "I will be able to open the cupboard, no?": can I open it; Norwegian "when saw you": when did you see
    (r"^I\s+will\s+be\s+able\s+to\s+open\s+((?:the|my|our)\s+[\w -]{1,30}?)\s*,?\s*(?:no|right|yes|yeah|eh|isn't\s+it|won't\s+I)\s*\?",
     r"can I open \1?"),
    (r"\bwhen\s+saw\s+you\b", "when did you see"),
    # "could I become the remote?": a German speaker's "bekommen" (get)
    (r"\b(can|could|may)\s+I\s+become\s+(?=(?:the|my|a|an|some|your)\b)", r"\1 I have "),
    # "return it there": put it back there; "go to where the remote is": go to the remote
    (r"\breturn\s+(it|them)\s+there\b", r"put \1 back there"),
    (r"\bgo\s+(?:over\s+)?to\s+where\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+is\b", r"go to \1"),
    # "the keyboard to Ben. Now.": take it to him
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+to\s+((?-i:[A-Z][a-z]+))\s*[.!]+\s*(?:now|please|quick(?:ly)?|asap)?[.!]*\s*$", r"bring \1 to \2."),
    # "tell me one thing, where is ...": an opener
    (r"^(?:tell\s+me\s+(?:one|a)\s+thing|one\s+(?:quick\s+)?question)\s*[,:]\s*", ""),
    # pauses around the thing in a question ("where does... the loo roll... go", "which bowl... next to... the pan")
    (r"^(where|when|what)\s+(does|did|do|is|was)" + _PAUSES + r"((?:the|my|our)\s+[\w -]{1,30}?)" + _PAUSES +
     r"(go|goes|belong|belongs|live|lives|gone|left|kept)\b", r"\1 \2 \3 \4"),
    (r"^which\s+([\w -]{1,30}?)" + _PAUSES + r"(next\s+to|beside|near|behind|under|on|in)" + _PAUSES + r"((?:the|my|our)\s+)",
     r"which \1 is \2 \3"),
    (r"^which\s+from\s+(?=the\s)", "which of "),
    # "milk -> goes where?", "mug -> where?": a note with an arrow asking
    (r"^([a-z][\w ]{1,30}?)\s*(?:->|→|=>)\s*(?:goes|go|belongs)\s+where\s*\?*\s*$", r"where does the \1 go?"),
    (r"^([a-z][\w ]{1,30}?)\s*(?:->|→|=>)\s*where\s*\?*\s*$", r"where is the \1?"),
    # "someone's shifted the lime and I can't for the life of me remember where it used to be": where it was before
    (r"^[^.?!]{0,40}?\b(?:shifted|moved|relocated|taken|swiped|nicked)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s*,?\s+and\s+(?:now\s+)?(?:I\s+)?"
     r"(?:can't|cannot|can\s+not|don't|do\s+not)\s+(?:for\s+the\s+life\s+of\s+me\s+)?(?:remember|recall|know)\s+where\s+(?:it|they)\s+"
     r"used\s+to\s+(?:be|sit|live|go)\b[^?.!]*[.!]*", r"where was \1 before?"),
    (r"\b(?:I\s+)?(?:can't|cannot|can\s+not|don't|do\s+not)\s+(?:for\s+the\s+life\s+of\s+me\s+)?(?:remember|recall|know)\s+where\s+"
     r"(it|they)\s+used\s+to\s+(?:be|sit|live|go)\b[^?.!]*[.!]*", lambda m: f"where {'was' if m.group(1).lower() == 'it' else 'were'} "
     f"{m.group(1)} before?"),
    (r"^before\s*,\s*where\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:was|were)\s+(?:kept|put|left|sitting|standing)\s*\?", r"where was \1 before?"),
    # "the kitchen holds a modest collection of mugs. How many pieces does it comprise?": how many of those
    (r"^the\s+(" + ROOMS_RE + r")\s+(?:holds|has|contains|keeps)\s+(?:a\s+|an\s+)?(?:[\w-]+\s+)?(?:collection|number|set|bunch|assortment|"
     r"few)\s+of\s+([\w -]{1,30}?)\s*\.\s*how\s+many\s+(?:pieces|items|units|are\s+there|of\s+them)\b[^?]*\?", r"how many \2 are in the \1?"),
    # "how many mugs our in the kitchen": speech to text's "our" for "are"
    (r"^(how\s+many\s+[\w -]{1,30}?)\s+our\s+(in|on|inside|there)\b", r"\1 are \2"),
    # "I can't find me TV remote": "me" for "my" before a thing
    (r"\b(can't\s+find|cannot\s+find|lost|misplaced|where's|where\s+is|where\s+are)\s+me\s+(?!(?:the|a|an|some|any|my|your|it|them|one|"
     r"something|anything|this|that|those|these|to|and|or|please|now|here|there)\b)(?=[a-z])", r"\1 my "),
    (r"\b(saw|see|seen|spotted|find|found|last\s+saw|last\s+seen)\s+(tv|television)\s+remote\b", r"\1 the \2 remote"),
    # "I set my TV remote down earlier": the tagger reads "remote" before a particle as a word about the TV; with the
    # particle first ("set down my TV remote") the two words are one name
    (r"\b(set|put|leave|left|lay|laid|stick|stuck|pop|popped|dump|dumped)\s+((?:my|the|our|your)\s+(?:tv|television)\s+remote)\s+"
     r"(down|away|back)\b(?!\s+(?:somewhere|there|here)\b)", r"\1 \3 \2"),
    # "the remote and the toilet paper": the tagger reads "remote" before "and" as a word about the next thing
    (r"\b(the|my|your|our)\s+remote\s+(?=and\s+(?:the|my|your|our|a|an|some)\b)", r"\1 remote control "),
    # "any bathroom counters in the kitchen" (no verb): whether there are
    (r"^any\s+(?=[a-z][\w -]{1,40}?\s+(?:in|on|inside)\s+the\s+[\w ]{2,30}\??\s*$)", "are there any "),
    # hints instead of questions: "I'd get the remote myself if only I knew which room it was in", "I've no idea what's
    # been left in the microwave", "I'd rather not wrestle with the cupboard if it's gone and locked itself again"
    (r"^I'?d\s+(?:go\s+and\s+)?(?:get|fetch|grab|find)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+myself\s+if\s+only\s+I\s+knew\s+"
     r"(which\s+room|where)\s+(?:it|they)\s+(?:was|were|is|are)(?:\s+in)?\b[^?.!]*[.!]*",
     lambda m: f"which room is {m.group(1)} in?" if m.group(2).lower().startswith("which") else f"where is {m.group(1)}?"),
    (r"\b(?:I've|I\s+have|I've\s+got)\s+no\s+idea\s+what's\s+(?:been\s+)?(?:left\s+|put\s+)?(in|on|inside)\s+"
     r"((?:the|my|our)\s+[\w -]{1,30}?)\s*[.!]*\s*$", r"what is \1 \2?"),
    (r"^I'?d\s+rather\s+not\s+(?:wrestle|fight|struggle|bother)\s+with\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+if\s+"
     r"(?:it's|it\s+has|it\s+is)\s+(?:gone\s+and\s+)?(locked)\b[^?.!]*[.!]*", r"is \1 \2?"),
    # "did y'all leave that microwave a-standin' open?": whether it is open; "will that wardrobe open up if I give it a
    # tug?": whether it can be opened
    (r"\bdid\s+(?:you|y'all|you\s+all|anyone|anybody|someone|somebody)\s+leave\s+(?:that|the|this|my)\s+([\w -]{1,30}?)\s+"
     r"a-(?:standin'?g?|sittin'?g?|hangin'?g?)\s+(open|unlocked|on)\s*\?", r"is the \1 \2?"),
    (r"^will\s+(?:that|the|this)\s+([\w -]{1,30}?)\s+open(?:\s+up)?\s+if\s+I\b[^?]*\?", r"can the \1 be opened?"),
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)" + _PAUSES + r"can\s+I" + _PAUSES + r"open\s+it\s*\?*\s*$", r"can I open \1?"),
    (r"^(do|did|have)\s+(we|you)" + _PAUSES + r"(have|got|see|seen)\s+(any|a|an)" + _PAUSES, r"\1 \2 \3 \4 "),
    (r"^we\s+got\s+us\s+(any|a|an|some)\b", r"do we have \1"),
    (r"\s+a?round\s+here\s*\?\s*$", "?"),
    # speech to text: "watts on the stove", "witch room is the mouse inn"
    (r"^watts?\s+(?=(?:in|on|inside|under)\b)", "what's "),
    (r"\b(is|are)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+inn\b", r"\1 \2 in"),
    # "where can a body set down for a spell?" (Appalachian: where can I sit a while); "the reporting party" is the
    # speaker in a report's words; "identify a location where I can sit down": where I can
    (r"\bwhere\s+(?:can|could|might)\s+a\s+(?:body|fella|feller|person)\s+(?:set|sit)\b(?:\s+down)?(?:\s+for\s+a\s+(?:spell|while|bit|minute))?",
     "where can I sit down"),
    (r"\bthe\s+reporting\s+party\b", "I"),
    (r"^(?:please\s+)?(?:identify|name|find|suggest)\s+(?:a|the)\s+(?:location|place|spot)\s+where\s+I\s+(?:can|could|may|might)\s+",
     "where can I "),
    # "with what might one dry one's hands?", "what I could cook with": what it can be done with
    (r"\bwith\s+what\s+(?:might|may|should|would)\s+(?:one|I|we)\s+(cook|write|eat|wash|dry|clean|wipe)\b(\s+(?:one's|my|our)\s+"
     r"(?:hands|face|feet|hair))?", r"what can I \1\2 with"),  # ("one's hands": the rule after it says "my hands")
    # "get me... something... to wipe this sweat": the pauses around "something"
    (r"\b(get|bring|fetch|grab|find)\s+me" + _PAUSES + r"(something|anything)" + _PAUSES + r"(?=to\s)", r"\1 me \2 "),
    (r"\bone's\s+(hands|face|feet|hair)\b", r"my \1"),
    (r"^what\s+I\s+(can|could)\s+(cook|write|eat|wash|dry|clean|wipe)\s+with\b", r"what \1 I \2 with"),
    # "which glass is my own / my one?", "my glass is which one?": which one is mine
    (r"\b(which\s+[\w -]{1,30}?)\s+is\s+my\s+(?:own|one)\b", r"\1 is mine"),
    (r"^my\s+([\w -]{1,30}?)\s+is\s+which\s+one\s*\?", r"which \1 is mine?"),
    # "which one is the one sitting next to the toothbrush?": which one is next to it
    (r"\bwhich\s+one\s+is\s+the\s+one\s+(?:that's\s+|that\s+is\s+|which\s+is\s+)?(?:sitting\s+|standing\s+|lying\s+|placed\s+)?", "which one is "),
    # a question said again in pieces ("where was the pear before, before it moved, where was it before, where?"): once
    (r"^(where\s+(?:was|were)\s+(?:the|my|our)\s+[\w -]{1,30}?\s+before)(?:\s*,\s*(?:before\s+(?:it|they)\s+(?:was\s+|were\s+|"
     r"got\s+)?moved?|where\s+(?:was|were)\s+(?:it|they)(?:\s+before)?|where|before))+\s*\?", r"\1?"),
    # why it goes there, after saying where ("put it back there, because that's where it lives"): no part of the task
    (r"\s*,?\s+(?:because|since|as|cause|'cause|cos)\s+(?:that's|that\s+is|this\s+is|it's|it\s+is)\s+where\s+(?:it|they)\s+"
     r"(?:lives?|belongs?|goes|go|stays?|sits?)\b[^?.!]*", ""),
    # a bare "colour?" after a question about a thing: its colour
    (r"^\s*(?:and\s+)?(?:the\s+|its\s+)?(colou?r)\s*\?\s*$", r"what \1 is it?"),
    # "did somebody close the fridge properly?": whether it is closed now (what someone did is not on record)
    (r"^did\s+(?:some(?:one|body)|any(?:one|body)|i|we)\s+(?:close|shut)\s+((?:the|my|our)\s+[\w -]{1,30}?)"
     r"(?:\s+(?:properly|right|all\s+the\s+way|fully|again))?\s*\?", r"is \1 closed?"),
    (r"^did\s+(?:some(?:one|body)|any(?:one|body)|i|we)\s+lock\s+((?:the|my|our)\s+[\w -]{1,30}?)"
     r"(?:\s+(?:properly|right|again))?\s*\?", r"is \1 locked?"),
    # "the wardrobe can be opened?": a question said in a statement's order
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+(can|could)\s+be\s+opened\s*\?", r"\2 \1 be opened?"),
    # "our good friend the radio", "my trusty old the kettle": a name for the thing before the thing
    (r"\b(?:our|my|your)\s+(?:(?:good|old|dear|trusty|faithful|little)\s+){0,2}(?:friend|pal|buddy|mate|companion)\s+(?=the\s)",
     ""),
    # "return the pear to its original place": put it back (to its proper place: where it belongs, put away)
    (r"\breturn\s+((?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)\s+to\s+(?:its\s+|the\s+|their\s+)?(?:previous|former|original|"
     r"old)\s+(?:location|place|position|spot)\b", r"put \1 back"),
    # "pop and grab the juice", "nip and get the milk": the second verb is the task
    (r"\b(?:pop|nip|dash|run|hop)\s+(?:and|an'|n)\s+(?=(?:grab|get|fetch|bring|take|pick)\b)", ""),
    # "Two things: bring me ...", "... Go!": framing and urgency around a command
    (r"^(?:two|2|a\s+couple\s+of|three|3)\s+(?:things|items|pickups|objects)(?:\s+for\s+you)?\s*[:,\u2014-]\s*",
     lambda m: "I want " if re.match(r"(?:the|my|a|an)\s", m.string[m.end():], re.I) else ""),
    # "retrieve two items, the pear and the lotion, and hand both to me", "bring me A and B, two thing, please": the
    # count says how many things the list names
    (r"\b(retrieve|bring|fetch|get|grab)\s+(me\s+|us\s+)?(?:two|2|both|the\s+two)\s+(?:items|things|objects)\s*,\s*", r"\1 \2"),
    (r"(\band\s+[\w -]{1,30}?)\s*,\s*(?:two|2)\s+(?:things?|items?)\s*(?=[,.!?]|$)", r"\1"),
    # "the pear, then the lotion" in a list of things to bring: both
    (r"(?<=\w),\s*then\s+(?=(?:the|my|a|an)\s+[\w -]{1,30}?\s*[.!]\s*(?:bring|fetch|get|hand|give)\s+(?:them\s+)?both\b)", " and "),
    # "Both come to me.", "need A and B bring both", "bring the remote and the paper both for me"
    (r"\bboth\s+(?:come|go)\s+to\s+me\b", "bring them both to me"),
    (r"^(?:i\s+)?need\s+([\w -]{2,40}?)\s+and\s+([\w -]{2,40}?)\s*,?\s+bring\s+(?:them\s+)?both\b",
     lambda m: f"bring me {with_article(m.group(1))} and {with_article(m.group(2))}"),
    (r"(\band\s+(?!(?:hand|bring|give|take|get|fetch|pass|carry)\b)(?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)\s+both\s+"
     r"(?=(?:for|to)\s+me\b)", r"\1 "),
    # "Pickup is the lotion, drop-off is me.": a dispatcher's bring
    (r"^pick[\s-]?up\s*(?:is|:)\s*((?:the|my|our)\s+[\w -]{1,30}?)\s*[,;.]\s*drop[\s-]?off\s*(?:is|:)\s*(me|us|[A-Z][a-z]+)\s*(?=[.!]|$)",
     r"bring \1 to \2"),
    (r"(?<=[.!?])\s*(?:go(?:\s*,?\s*go)*|quick(?:ly)?|hurry(?:\s+up)?|chop[\s-]+chop|move\s+it|on\s+the\s+double)\s*[!.]+\s*$",
     lambda m: "" if re.search(r"\b(?:bring|fetch|get|grab|take|put|hand|give|carry)\b", m.string[:m.start()], re.I) else m.group(0)),
    # "let the pear rest upon the table": put it there
    (r"^(?:please\s+)?let\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:rest|sit|stay|lie|repose)\s+(?:up)?(on|in|inside)\s+",
     r"put \1 \2 "),
    # "a quick inventory of what's sitting on the bed", "list everything you've observed in the cupboard", "all the
    # things that are in the wardrobe": what is there
    (r"(?:^|(?<=[.!?]\s))(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:give\s+me\s+|do\s+|run\s+)?(?:a\s+|an\s+)?"
     r"(?:quick\s+|full\s+|complete\s+)?(?:inventory|readout|rundown|run-down)\s+of\s+(?:what(?:'s|\s+is)\s+"
     r"(?:sitting\s+|lying\s+|kept\s+|stored\s+)?|everything\s+(?:that(?:'s|\s+is)\s+)?)?(in|on|inside)\s+", r"what is \1 "),
    (r"(?:^|(?<=[.!?]\s))(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:list|name|tell\s+me)\s+(?:everything|all\s+(?:of\s+)?"
     r"(?:the\s+)?(?:things|items|stuff|objects))\s+(?:that\s+)?(?:you(?:'ve|\s+have)\s+(?:seen|observed|noticed|spotted)\s+|"
     r"(?:that\s+)?(?:are|is|'re)\s+)?(in|on|inside)\s+", r"what is \1 "),
    # "..., if you please", "have you seen it? Report location.": courtesy and a radio's request for the answer
    (r"\s*,?\s*if\s+you\s+please\s*(?=[.!?]*\s*$)", ""),
    (r"(?<=\?)\s*(?:report|give|say|send)\s+(?:(?:its|the|your)\s+)?(?:location|position|whereabouts)\s*[.!]*\s*$", ""),
    # "check for me nah, any toilets in the bathroom?": the question after the request to look
    (r"^(?:please\s+)?check\s+(?:for\s+me|for\s+us|this)?\s*(?:nah|now|quick|please)?\s*[,:]\s+(?=\w[^.!?]*\?)", ""),
    # "might I find any pillows dwelling in the bathroom?": whether there are any there; the verb of being
    # somewhere between the thing and the room says nothing more ("any mugs lurking in the kitchen?")
    (r"^(?:might|could|would|will|can)\s+(?:i|we|one)\s+find\s+(?=any\b|some\b|a\b|an\b)", "are there "),
    (r"(\b(?:any|some)\s+[\w -]{1,30}?)\s+(?:dwelling|lurking|hiding|residing|living|sitting|lying|hanging\s+(?:about|around)|"
     r"knocking\s+(?:about|around)|kicking\s+(?:about|around))\s+(?=(?:in|on|inside|at)\s+(?:the|my|our)\s)", r"\1 "),
    # "the living room: does it currently boast any bathtubs?": the room said first, then asked whether it has any
    (r"^(?:in\s+)?(the\s+(?:" + ROOMS_RE + r"))\s*[:,\u2014-]\s*(?:does|do)\s+(?:it|that|this)\s+(?:[a-z]+ly\s+|now\s+|still\s+)?"
     r"(?:have|hold|contain|boast|possess|got)\s+((?:any|a|an|some)\s+[^?.!]{1,40}?)\s*[?.!]*$", r"are there \2 in \1?"),
    (r"\b(does|do)\s+((?:the|this|our|my)\s+[\w ]{1,40}?)\s+(?:[a-z]+ly\s+)?(?:boast|possess)\s+(?=(?:any|a|an|some)\s)",
     r"\1 \2 have "),
    (r"\b(?:this|our)\s+(?:humble\s+|little\s+|lovely\s+|dear\s+|old\s+)?(?:home|house|flat|apartment)\s+of\s+ours\b", "the house"),
    # "the milk should put where?": a learner's where it goes
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:should|must|(?:is\s+|are\s+)?supposed\s+to|has\s+to|needs\s+to)\s+(?:be\s+)?"
     r"(?:put|kept|placed|stored|go)\s+where\b",
     r"where does \1 go"),
    # "when did you last see it? No, no, first. When did you first see it?": a question taken back for the one after
    # (the thing it named stays, as a part of its own, for an "it" in the one after)
    (r"^([^?]{5,160})\?\s*(?:no|sorry|wait|oops)\s*[,!.]?\s*(?:no\s*[,!.]?\s*)*(?:i\s+mean\s+)?(?:[\w']+\s*){0,3}[.!]\s+"
     r"(?=[^.?!]{5,160}\?\s*$)", _taken_back),
    # "last time you saw the mug, what time was it?", "when you saw the remote last time?", "when'd you last see the
    # lime, what time was that": when it was seen
    (r"^(last|first)\s+time\s+(?:you|u)\s+saw\s+(.+?)(?:\s+today)?\s*[,.]\s*what\s+time\s+(?:was\s+(?:it|that)|did\s+you)\b[^?]*\?*",
     r"when did you \1 see \2?"),
    (r"^when\s+(?:you|u)\s+saw\s+(.+?)\s+(?:for\s+)?(?:the\s+)?(last|first)\s+time\s*\?", r"when did you \2 see \1?"),
    (r"^(when(?:'d|\s+did)\s+you\s+(?:last|first)\s+see\s+[^,?.\u2026]{1,40}?)\s*(?:[,.]+|\u2026)\s*what\s+time\s+was\s+(?:that|it)"
     r"\s*\?*\s*$", r"\1?"),
    # "do you have a record of where I left it?": where I left it
    (r"\b(?:do|would)\s+you\s+(?:have|keep|remember)\s+(?:a\s+|any\s+)?(?:record|note|log|memory|idea)\s+of\s+where\s+(?=i\s)",
     "can you tell me where "),
    # what the speaker says of the robot's cameras between the questions ("You have the cameras, don't you?", "I mean
    # with your camera, the eyes on the front of you."): no thing asked about
    (r"(?:^|(?<=[.!?]\s))(?:you\s+(?:have|'ve\s+got|got)\s+(?:the\s+|your\s+|a\s+)?(?:cameras?|eyes|sensors?)\s*,?\s*"
     r"(?:don't\s+you|haven't\s+you|right|yeah)?\s*\?|i\s+mean\s+with\s+your\s+(?:cameras?|eyes|sensors?)\b[^.?!]{0,60}[.!])\s*", ""),
    # "have we got owt in the way of fridges?", "anything in the way of towels": any
    (r"\b(?:owt|anything|aught)\s+in\s+the\s+way\s+of\s+", "any "),
    # "Colour of the magazine. Report.", "Number of glasses in the kitchen. Report.": asked in a report's words
    (r"^(?:colou?r)\s+of\s+(.+?)\s*[.,:]\s*report\s*[.!]*\s*$", r"what colour is \1?"),
    (r"^(?:number|count)\s+of\s+(.+?)\s*[.,:]\s*report\s*[.!]*\s*$", r"how many \1?"),
    (r"^(?:headcount|count(?:\s+up)?|numbers?)\s*[!:.]\s+(?=how\s+many\b)", ""),
    # "how many glasses we got in the kitchen?": how many there are
    (r"^how\s+many\s+([a-z][\w -]{1,30}?)\s+(?:we|you)\s+(?:got|have)\s+(?=in|on|inside|at|here|\?)", r"how many \1 are there "),
    (r"\s*,\s*(?:gimme|give\s+me)\s+(?:a\s+|the\s+)?(?:count|number|headcount)\s*[.!?]*\s*$", "?"),
    # "what hue adorns the mug?": its colour
    (r"\bwhat\s+(?:hue|shade|tint|colou?r)\s+(?:adorns|graces|covers|marks)\s+", "what colour is "),
    (r"\bwhat\s+(?:hue|shade|tint)\b", "what colour"),
    # "there are many glasses. The one beside the toothbrush, which one?", "there is many glasses; which one is next
    # to the toothbrush?": which glass is there
    (r"^there\s+(?:are|is|'re|'s)\s+(?:so\s+)?(?:many|lots\s+of|several|a\s+few|more\s+than\s+one|two|2)\s+([a-z][\w -]{1,30}?)"
     r"(?:\s+(?:around|about|here|there|in\s+here))?\s*"
     r"(?:\s*,\s*i\s+(?:think|guess|believe))?\s*[.;,:!?]\s*(?:which\s+one(?:'s|\s+is)\s+|the\s+one\s+)(next\s+to|beside|by|near|on|in|under)\s+([^,?.]{1,40}?)\s*"
     r"(?:,\s*which\s+one)?\s*\?*\s*$",
     lambda m: f"Which {singular_phrase(m.group(1))} is {m.group(2)} {m.group(3)}?"),
    # "pear is in which room, please?", "the bottle of lotion in which room?": which room it is in
    (r"^(?:and\s+)?(it|they|that)\s+(?:is|are|'s)\s+in\s+which\s+room\b", r"which room is \1 in"),
    (r"^(?!(?:and|so|but|it|they|he|she|that|this|which|what|where)\b)((?:the\s+|my\s+)?[a-z][\w -]{1,30}?)\s+(?:is\s+|are\s+)?"
     r"in\s+which\s+room(?:\s+(?:it|they)\s+(?:is|are))?\b",
     lambda m: f"which room is {with_article(m.group(1))} in"),
    # "is the cupboard sealed fast under lock and key?": locked
    (r"\b(?:(?:sealed|shut|closed|kept)\s+(?:fast\s+|tight\s+)?)?under\s+lock\s+and\s+key\b", "locked"),
    # "if I give the wardrobe a gentle pull, will it open for me?": can it be opened
    (r"^if\s+(?:i|we)\s+(?:give|gave)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+a\s+(?:[a-z]+\s+)?(?:pull|tug|push|try|yank)\s*,?\s*"
     r"(?:will|would|does)\s+it\s+open\b[^?]*\?", r"can \1 be opened?"),
    # "does the fridge stand open, its door flung wide?": whether it is open
    (r"^(?:tell\s+me\s*,\s*)?does\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:stand|sit|lie|hang|remain|stay)\s+(open|closed|shut|ajar)\b"
     r"[^?]*\?", r"is \1 \2?"),
    # "microwave shut? pls check": the check asked for is the question
    (r"(?<=\?)\s*(?:pls|please|plz|can\s+you)?\s*check(?:\s+(?:pls|please|plz|for\s+me))?\s*[.!]*\s*$", ""),
    # "which plate has made its home on the coffee table?": which one is there
    (r"\b(?:has|have)\s+made\s+(?:its|their)\s+home\s+(?=(?:on|in|inside|by|next\s+to|near)\s)", "is "),
    # "the remote is out of position": it was moved ("put it back where it was before" then says where to)
    (r"\b(is|are)\s+out\s+of\s+(?:position|place)\b", r"\1 moved"),
    # "carry it to the kitchen. When you get to the kitchen, put it down there.": put it down in the kitchen
    (r"\bwhen\s+you\s+(?:get|arrive|are)\s+(?:to|at|in)\s+((?:the|my|our)\s+[\w ]{1,30}?)\s*,\s*(put|set|leave|drop)\s+(it|them)\s+"
     r"(?:down\s+)?(?:there|in\s+there)?\s*(?=[.!?]|$)", r"\2 \3 in \1"),
    # "on the bedside table, the little table next to the bed": the same place said again, described
    (r"(\b(?:on|in|onto|into)\s+the\s+(?:[\w-]+\s+){0,2}?([\w-]+))\s*,\s*the\s+(?:[\w-]+\s+){0,2}?\2\s+(?:next\s+to|by|beside|near|"
     r"in|at)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s*(?=[.!?]|$)", r"\1"),
    # "put it on the desk where it can have a rest": why it goes there, not which desk
    (r"(?<=\w)\s*,?\s+where\s+(?:it|they)\s+(?:can|could|will|'ll|might)\s+(?:have\s+a\s+(?:rest|sit|lie\s+down)|rest|stay|sit|"
     r"be\s+safe|dry(?:\s+off)?|cool(?:\s+down)?|be\s+out\s+of\s+the\s+way)\s*(?=[.!?]|$)", ""),
    # "bring me the pear. And the lotion. The pear and the lotion, both of them.": one list
    (r"^((?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?(?:bring|fetch|get|grab|hand)\s+(?:me\s+|us\s+)?(?:the|my)\s+[\w -]{1,30}?)"
     r"\s*[.!?]\s+and\s*,?\s*(?:um+\s*,?\s*|uh+\s*,?\s*)?((?:the|my)\s+[\w -]{1,30}?)(?:\s+too|\s+as\s+well)?\s*(?:,\s*please)?\s*[.!?]\s*"
     r"(?:(?:(?:the|my)\s+[\w -]{1,30}?\s+and\s+(?:the|my)\s+[\w -]{1,30}?\s*,?\s*)?both(?:\s+of\s+them)?\s*[.!]*)?\s*$",
     r"\1 and \2."),
    # "fetch 'em both", "can you bring me both?": the things said before, both of them
    (r"(?<=\s)'em\b", "them"),
    (r"\b(bring|get|fetch|grab|hand|give|take|carry)\s+(me\s+|us\s+)?both\b(?!\s+(?:the|of|my|your|our|these|those)\b)",
     r"\1 \2them both"),
    # "could you bring me the mouse, and the teddy bear too?": one list
    (r"(?<=\w)\s*,\s*and\s+((?:the|my|a|an)\s+[\w -]{1,30}?)\s+(?:too|as\s+well|also)\s*(?=[?.!]|$)", r" and \1"),
    # "bring me, I pray, the pear, and with it the lotion", "the radio — and what else — oh, the loo roll!": a list
    (r"\s*,\s*i\s+pray\s*,\s*", " "),
    (r"\s*,?\s+and\s+with\s+(?:it|that|them)\s+", " and "),
    (r"\s*[\u2014\u2013]\s*and\s+what\s+else\s*(?:[\u2014\u2013]|\?)\s*(?:oh\s*,?\s*|um+\s*,?\s*|yes\s*,?\s*)?", " and "),
    # "proceed to the position of the ball": to the ball
    (r"\b(to|near|by)\s+the\s+(?:position|location|place)\s+of\s+(?=(?:the|my|our)\s)", r"\1 "),
    # "where's the teddy bear hiding today?", "where does the juice rest at this hour?": where it is
    (r"\bwhere(?:'s|\s+is|\s+are)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:hiding|lurking|hanging\s+out|skulking)\b", r"where is \1"),
    (r"\bwhere\s+does\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:rest|lie|dwell|reside|hide|repose)\b(?:\s+at\s+this\s+hour)?",
     r"where is \1"),
    # "Apologies for the bother.", "How was your day, champ?": courtesy around the question, no part of it
    (r"(?:^|(?<=[.!?])\s+)(?:(?:my\s+)?apologies|sorry|pardon\s+me|excuse\s+me)\s+for\s+(?:the\s+)?(?:bother|trouble|interruption|"
     r"asking|disturbing\s+you|the\s+fuss)\s*[.!]*\s*$", ""),
    (r"^how\s+(?:was|is|'s)\s+your\s+(?:day|morning|afternoon|evening|shift)(?:\s+(?:going|been))?\s*(?:,\s*[\w ]{1,15})?\s*\?\s*(?=\S)", ""),
    # "tell me everything you got done", "what did you try to open earlier?": what the robot did
    (r"\b(?:tell\s+me\s+)?(?:about\s+)?(?:everything|all)\s+(?:that\s+)?you\s+(?:got\s+done|did|have\s+done|'ve\s+done|"
     r"accomplished)(?:\s+(today|this\s+morning))?\s*[.!]*\s*$", lambda m: f"what did you do {m.group(1) or 'today'}?"),
    (r"^what\s+(?:things\s+|all\s+)?(?:did|were)\s+you\s+(?:try(?:ing)?\s+to\s+)?open(?:\s+(today|earlier|this\s+morning))?[^?]*\?",
     lambda m: f"what did you do {m.group(1) or 'today'}?"),
    # "has the ball shown up in any of your recent observations?": whether it was seen
    (r"\bhas\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:shown\s+up|turned\s+up|appeared|come\s+up)\s+in\s+(?:any\s+of\s+)?your\s+"
     r"(?:recent\s+|latest\s+)?(?:observations|scans|footage|logs|records|rounds)\b", r"have you seen \1"),
    # "and what is the colour of it?", "Its current location?": what is asked of the thing before
    (r"\bwhat\s+is\s+the\s+colou?r\s+of\s+(it|them|that)\b", r"what colour is \1"),
    (r"^(?:and\s+)?(?:its|their)\s+(?:current\s+|present\s+|exact\s+)?(?:location|position|whereabouts)\s*\?",
     "where is it?"),
    # "what colour is the toy? Is it red like an apple, or blue like the sky?": the guesses after the question
    (r"(\bwhat\s+colou?r\s+(?:is|are)\s+[^?]{1,40}\?)\s*(?:is|are)\s+(?:it|they)\s+[^?]{1,80}\bor\b[^?]{1,60}\?\s*$", r"\1"),
    (r"\s*,\s*tell\s+me\s*(?=\?\s*$)", ""),
    # "to what did he turn his hand next?", "report his next action after that": what he did next
    (r"\bto\s+what\s+did\s+(he|she|they|[A-Z][a-z]+)\s+turn\s+(?:his|her|their)\s+hands?\s+(next|after\s+that|then)\b",
     r"what did \1 do \2"),
    (r"(?:^|(?<=[.!?]\s))(?:report|say|state|give\s+me)\s+(his|her|their)\s+next\s+(?:action|move|activity)(?:\s+after\s+that)?\b",
     lambda m: f"what did {dict(his='he', her='she', their='they')[m.group(1).lower()]} do after that"),
    # "what is to eat?", "I need something to wipe up a spill. What's available?"
    (r"\bwhat\s+is\s+(?:there\s+)?to\s+(eat|drink)\b", r"what is there to \1"),
    (r"^i\s+need\s+something\s+to\s+([^.?!]{2,40}?)\s*[.!]\s*what(?:'s|\s+is)\s+(?:available|there)\s*\?", r"what can I use to \1?"),
    # "what's tha been doing all day?": thou
    (r"\bwhat's\s+tha\s+been\b", "what have you been"),
    # "where is the juice: the specific piece of furniture it is on, not merely the room": how to answer, not what
    (r"\s*[:;,\u2014-]\s*(?:the\s+|i\s+mean\s+the\s+)?(?:specific|exact|actual|precise)\s+(?:piece\s+of\s+furniture|place|spot|location|"
     r"surface|container|object)[^?.!]*", ""),
    # "where did I put the remote earlier?": where the speaker put it is where it is, not where it was then
    (r"\b(where\s+did\s+(?:i|we)\s+(?:put|leave|set|stash|drop|place)\s+[^?]{1,40}?)\s+(?:earlier|before|just\s+now|"
     r"a\s+(?:while|bit)\s+ago)\s*(?=\?)", r"\1"),
    # "the dishwasher open or not ah?": whether it is
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:can|could)\s+(?:be\s+)?open(?:ed)?\s+or\s+not\b\s*(?:ah|lah|leh|eh)?\s*\?",
     r"can \1 be opened?"),
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)(?<!\bcan)(?<!\bcould)(?<!\bwill)\s+(open|closed|shut|locked|unlocked)\s+or\s+not\b\s*"
     r"(?:ah|lah|leh|eh)?\s*\?", r"is \1 \2?"),
    # "is the cupboard usable, i.e., not locked, so that it can be opened normally?": what "usable" means, said again
    (r"\s*,\s*(?:i\.\s*e\.?\s*,?|ie\s*,|that\s+is\s*,|that\s+is\s+to\s+say\s*,?|meaning|in\s+other\s+words\s*,?)\s+[^,?]{1,40}"
     r"(?:,|(?=\?))", ""),
    (r"\s*,?\s*so\s+that\s+(?:it|they|i|we)\s+can\s+(?:be\s+)?[^?,]{1,30}(?=\?)", ""),
    # "somebody shifted the lime. Last time it was where?": where it was before it was moved
    (r"\blast\s+time\s*,?\s*(it|they)\s+(?:was|were)\s+where\s*\?", r"where was \1 before?"),
    # "go get me that juice, ya heard?": the tag asks for no answer
    (r"\s*,?\s*(?:ya|you|y')\s+heard(?:\s+me)?\s*\?*\s*$", "."),
    # when it was seen, in other words: "what time was the lime last sighted?", "what time was your last visual on the
    # lime?", "what time did you first log the magazine?", "the lime you last see what time?", "when did you last see
    # the mug? Around what time?", "at what time, to the minute, did you first observe it?"
    (r"^what\s+time\s+(?:was|were)\s+((?:the|my|our|that)\s+[\w -]{1,30}?)\s+(last|first)\s+(?:sighted|seen|spotted|observed|logged)\b",
     r"when did you \2 see \1"),
    (r"^what\s+time\s+was\s+your\s+(last|first)\s+(?:visual|sighting|look|glimpse)\s+(?:on|of|at)\s+", r"when did you \1 see "),
    (r"^what\s+time\s+did\s+you\s+(last|first)\s+(?:log|spot|observe|record|clock|notice)\s+", r"when did you \1 see "),
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s+you\s+(last|first)\s+(?:see|saw|seen)\s+what\s+time\b", r"when did you \2 see \1"),
    (r"^(last|first)\s+time\s+(?:you|u)\s+(?:saw|seen|see)\s+(.+?)\s*,\s*what\s+time\s+(?:it\s+was|was\s+it)\b[^?]*\?*",
     r"when did you \1 see \2?"),
    (r"(\bwhen\s+did\s+you\s+(?:last|first)\s+see\s+[^?]{1,40}\?)\s*(?:around|about|roughly|at)?\s*what\s+time(?:\s+(?:was|is)\s+"
     r"(?:that|it))?\s*\?*\s*$", r"\1"),
    (r"\s*,\s*to\s+the\s+(?:minute|second|hour)\s*,\s*", " "),
    # where it was before, in other words: "the lime got relocated. What was its original position?", "where did the
    # lime reside before its unannounced relocation?", "where was it before it got moved"
    (r"\bwhat\s+was\s+(its|their)\s+(?:original|previous|former|old|earlier|last|prior)\s+(?:position|location|place|spot)\b",
     lambda m: "where was it before" if m.group(1).lower() == "its" else "where were they before"),
    # "what was the original position of the remote", "state its prior location", "give me the lime's previous
    # spot": where it was before
    (r"\bwhat\s+(?:was|were|is)\s+the\s+(?:original|previous|former|earlier|prior)\s+(?:position|location|place|spot)\s+of\s+"
     r"((?:the|my|our)\s+[\w -]{1,30}?)(?=\s*[,?.!]|\s+before\b|$)", r"where was \1 before"),
    (r"(?:^|(?<=[.!?]\s))(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:state|give|tell|report|name)\s+(?:me\s+|us\s+)?"
     r"(its|their)\s+(?:original|previous|former|earlier|prior)\s+(?:position|location|place|spot)\b",
     lambda m: "where was it before" if m.group(1).lower() == "its" else "where were they before"),
    (r"\bwhere\s+did\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:reside|rest|dwell)\s+before\b[^?]*", r"where was \1 before"),
    (r"\bbefore\s+(?:it|they)\s+got\s+(?:moved|shifted|relocated)\b", "before it was moved"),
    # "Ben, after turning on the TV, what was his next move?": what he did after it
    (r"^([A-Z][a-z]+)\s*,\s*after\s+([\w ]{3,40}?)\s*,\s*what\s+(?:was|were)\s+(?:his|her|their)\s+next\s+(?:move|action|step)\b[^?]*",
     r"what did \1 do after \2"),
    (r"\bwhat\s+(?:was|were)\s+(his|her|their)\s+next\s+(?:move|action|step)\b",
     lambda m: f"what did {dict(his='he', her='she', their='they')[m.group(1).lower()]} do next"),
    # what the robot did: "what have you been busy with today?", "provide a log of the actions you performed today"
    (r"\bwhat\s+have\s+you\s+been\s+(?:busy\s+with|up\s+to|doing)\b", "what did you do"),
    (r"\b(?:provide|give\s+me|show\s+me|send\s+me)\s+(?:a\s+|the\s+)?(?:log|list|record|report|rundown)\s+of\s+(?:the\s+|all\s+(?:the\s+)?)?"
     r"(?:actions|things|tasks)\s+(?:that\s+)?you\s+(?:performed|did|carried\s+out|attempted|tried)(?:\s+(today|this\s+morning))?[^.?!]*",
     lambda m: f"what did you do {m.group(1) or 'today'}?"),
    # where it is: "where, pray, has the radio taken itself off to?", "the mug's gone walkabout. Can't find it"
    (r"\bwhere\s*,?\s*(?:pray\s*,?\s*)?has\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:taken\s+itself\s+off|got(?:ten)?\s+itself|"
     r"wandered\s+off|run\s+off|disappeared|vanished)\s+to\b[^?]*", r"where is \1"),
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)'s\s+(?:gone\s+(?:walkabout|awol|missing)|disappeared|vanished)\s*[.!]\s*(?:i\s+)?(?:can't|cannot)\s+"
     r"find\s+it\b", r"I can't find \1"),
    # "location on the glass?", "a twenty on the mug": where it is
    (r"^(?:location|position|whereabouts|(?:need\s+)?a\s+twenty)\s+(?:on|of)\s+(?=(?:the|my|our)\s)", "where is "),
    # "just now I put my remote where ah?": where did I put it
    (r"^(?:[\w,' ]{0,20}?\b)?i\s+put\s+((?:my|the|our)\s+[\w -]{1,30}?)\s+where\b", r"where did I put \1"),
    # "can I get into the cupboard?", "mum wants to know if the cupboard opens okay": whether it can be opened
    # (an either-or keeps its second half: "can I get into the cabinet or is it locked up?")
    (r"^can\s+(?:i|we)\s+get\s+into\s+((?:the|that|my|our)\s+(?:(?!or\b)[\w-]+\s?){1,4}?)\s*(?=[,?.!]|$|or\b)",
     lambda m: f"can {m.group(1).strip()} be opened" + (" " if m.string[m.end():].startswith("or") else "")),
    (r"\b(?:if|whether)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+opens(?:\s+(?:okay|ok|fine|alright|properly|all\s+right))?\s*[.?!]*\s*$",
     r"can \1 be opened?"),
    # someone else's question relayed: "mum wants to know if there's a mouse in the bedroom. Is there?", "... when you
    # first saw the juice. Like what time."
    # (not when the question says "her" or "his": "Anna wants to know where her glass is" is about Anna's glass)
    (r"^(?:(?:my\s+)?(?:mum|mom|mam|dad|grandma|grandpa|nan|gran|wife|husband)|[A-Z][a-z]+)\s+wants\s+to\s+know\s+(?=(?:if|whether|when|where|"
     r"what|which|how)\b)(?![^.?!]*\b(?:her|his|she|he|hers)\b)", ""),
    (r"^(?:if|whether)\s+there(?:'s|\s+is|\s+are)\s+([^.?!]{2,50}?)\s*[.!?]\s*(?:(?:is|are)\s+there\s*\?*)?\s*$", r"is there \1?"),
    (r"^when\s+(?:you|u)\s+(last|first)\s+saw\s+", r"when did you \1 see "),
    (r"(?<=[.?!])\s*(?:like\s+)?(?:what|which)\s+time\s*[.?!]*\s*$", ""),
    # "what all you got on the cooker?": what is on it
    (r"^what\s+(?:all\s+)?(?:you|we)\s+(?:got|have)\s+(on|in|inside)\s+", r"what is \1 "),
    # "which room dat lime in now", "which room mouse in": which room it is in
    (r"^which\s+room\s+(?!is\b|are\b|was\b|were\b|do\b|does\b|did\b|has\b|have\b)(?:dat\s+|that\s+|the\s+)?([a-z][\w -]{1,30}?)\s+in\b"
     r"(?:\s+now)?\s*(?=\?|$)", r"which room is the \1 in"),
    # "which cutting board next to microwave": which one is there
    (r"^which\s+(?!one\b)([a-z][\w-]*(?:\s+(?!is\b|are\b|was\b|were\b|dey\b)[a-z][\w-]*)?)\s+(next\s+to|beside|near|by)\s+(?!is\b)",
     lambda m: f"Which {m.group(1)} is {m.group(2)} "
               + ("" if re.match(r"(?:the|my|a|an|our|your)\s", m.string[m.end():], re.I) else "the ")),
    # emoji said as words, a "wait" before the question, a "sorry" after it
    (r"\s*\b(?:skull|praying\s+hands|crying(?:\s+face)?|laughing(?:\s+face)?|thumbs\s+up|heart|fire|sob(?:bing)?|pleading(?:\s+face)?|"
     r"eyes|100|smiley(?:\s+face)?)\s+emoji\b", ""),
    (r"^wait\s*,?\s+(?=(?:is|are|where|what|did|do|does|can|could|was|were|which|how)\b)", ""),
    (r"(?<=\w)\s+(?:bruh|bro|fam)\s+(?=i\s)", ". "),
    (r"(?<=[?.!])\s*sorry\s*[.!]*\s*$", ""),
    # "someplace", "anywheres": somewhere, anywhere
    (r"\bsomeplace\b", "somewhere"), (r"\banywheres\b", "anywhere"), (r"\bsomewheres\b", "somewhere"),
    # whether it was seen: "you had eyes on the lime at all?", "have you come across my juice on your travels?"
    (r"^(?:have\s+|had\s+)?you\s+had\s+eyes\s+on\s+", "have you seen "),
    (r"\b(?:have\s+)?you\s+come\s+across\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:on|in|during)\s+(?:your\s+)?(?:travels|rounds|round|"
     r"patrol|wanderings)(?:\s+(?:around|round|about)\s+the\s+house)?(?:\s+today)?", r"have you seen \1"),
    # "got any bookshelves? In the house?": the place said after the question
    (r"^(?:got|have\s+we\s+got|do\s+we\s+have)\s+any\s+([\w -]{2,30}?)\s*\?\s*in\s+the\s+(?:house|home|flat|apartment)\s*\?\s*$",
     r"do we have any \1?"),
    # "is there, by some miracle, a kitchen cupboard in the kitchen?": an aside between commas
    (r"^(is|are)\s+there\s*,\s*(?:by\s+(?:some|any)\s+(?:miracle|chance)|perchance|perhaps|possibly)\s*,\s*", r"\1 there "),
    # "how many glasses are in the kitchen? Just the number is perfect.": how to answer
    (r"(?<=\?)\s*(?:just|only)\s+(?:the\s+)?(?:number|count|room|colour|color|time)(?:\s+(?:is|would\s+be)\s+(?:perfect|fine|great|enough))?"
     r"(?:\s*,?\s*please)?\s*[.!]*\s*$", ""),
    # which one: "which one of dem bowls is sitting by the radio?", "among the glasses, which one is near the
    # toothbrush?", "of the water glasses, which one's sitting by it?", "I need to ID the bowl on the TV stand. Which one?"
    (r"\bwhich\s+one\s+of\s+(?:dem|them|those|these|the|our|my)\s+([\w -]{1,30}?)\s+(?=is\b|are\b|'s\b)",
     lambda m: f"Which {singular_phrase(m.group(1))} "),
    (r"^(?:among|of)\s+(?:the|our|my|all\s+the)\s+([\w-]+(?:\s+(?!here\b|there\b|in\b|on\b|we\b)[\w-]+)?)"
     r"(?:\s+here|\s+there|\s+we\s+have)?\s*,\s*which\s+one(?:'s|\s+is)\s+",
     lambda m: f"Which {singular_phrase(m.group(1))} is "),
    (r"^i\s+need\s+to\s+(?:id|identify|find|know)\s+(the\s+[\w -]{1,30}?)\s+(on|in|next\s+to|by|near|beside|under)\s+([^.?!]{2,30}?)\s*[.!]\s*"
     r"which\s+one\s+is\s+it\s*\?", lambda m: f"Which {m.group(1)[4:]} is {m.group(2)} {m.group(3)}?"),
    # colour: "need a colour on the magazine so I can ID it"
    (r"^(?:i\s+)?need\s+(?:a|the)\s+colou?r\s+on\s+((?:the|my|our)\s+[\w -]{1,30}?)(?:\s+so\s+[^.?!]{1,40})?\s*[.!]*\s*$",
     r"what colour is \1?"),
    # state: "is the fridge left open, would ya check?", "status check on the microwave: is it secured, closed?",
    # "the microwave. Left open?"
    (r"\s*,\s*(?:would|could|can)\s+(?:ya|you|u)\s+check\s*(?=\?)", ""),
    (r"^status\s+check\s+on\s+((?:the|my|our)\s+[\w -]{1,30}?)\s*:\s*is\s+it\s+(?:secured\s*,?\s*)?(open|closed|shut|locked|on|off)\b",
     r"is \1 \2"),
    (r"^((?:the|my|our)\s+[\w -]{1,30}?)\s*[.,:]\s*(?:left\s+|still\s+)?(open|closed|shut|locked|on|off)\s*\?\s*$", r"is \1 \2?"),
    # contents: "give me a manifest on the stove. What's on it?", "list every item currently on the bed"
    (r"^(?:give\s+me\s+)?(?:a\s+)?(?:manifest|inventory|rundown)\s+(?:on|of|for)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s*[.!]\s*"
     r"what(?:'s|\s+is)\s+(on|in|inside)\s+it\s*\?", r"what is \2 \1?"),
    (r"^list\s+(?:every|each|all\s+the)\s+(?:items?|things?|objects?)\s+(?:currently\s+|that(?:'s|\s+is)\s+)?(on|in|inside)\s+([^;.?!]{2,30}?)"
     r"\s*(?:[;.,].*)?$", r"what is \1 \2?"),
    # what room: "in which room is the remote staying?", "which of our many stately rooms is the radio gracing today?"
    (r"^in\s+which\s+room\s+(?:is|are)\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:staying|sitting|kept|living|hiding)\b",
     r"which room is \1 in"),
    (r"^which\s+of\s+(?:our|the|my)\s+(?:[a-z]+\s+){0,2}rooms\s+is\s+((?:the|my|our)\s+[\w -]{1,30}?)\s+(?:gracing|in|occupying|"
     r"adorning)\b(?:\s+today)?", r"which room is \1 in"),
    # where it goes: "where is the milk's home?"
    (r"^where\s+is\s+((?:the|my|our)\s+[\w -]{1,30}?)'s\s+(?:home|place|spot)\s*\?", r"where does \1 go?"),
    # "is the fridge door shut nice and tight?"
    (r"\s+nice\s+and\s+(?:tight|snug|proper)\b", ""),
    # "of all the glasses here, which one is closest to the toothbrush?": which glass is next to it
    (r"^of\s+all\s+the\s+([\w-]+(?:\s+(?!here\b|there\b|in\b|on\b|we\b)[\w-]+)?)(?:\s+here|\s+there|\s+we\s+have|\s+(?:in|on)\s+the\s+[\w-]+(?:\s+[\w-]+)?)?\s*,\s*"
     r"which\s+one\s+(?=is\b)",
     lambda m: f"Which {singular_phrase(m.group(1))} "),
    (r"\b(?:is|are|sits|'s)\s+(?:the\s+)?(?:closest|nearest)\s+(?:to\s+)?(?=(?:the|my|our|a)\s)", "is next to "),
    # "my own glass, the one that is mine alone": mine
    (r"\s*,\s*the\s+one\s+(?:that(?:'s|\s+is)|which\s+is)\s+mine(?:\s+alone)?\s*(?=[.?!]*\s*$)", ""),
    (r"\bmy\s+(?:very\s+)?own\s+(?=[a-z])", "my "),
))
