"""Function words of other Englishes and of older registers, said as the standard words they stand for.

People speak Caribbean, Singaporean, Nigerian, South African and Scots English, some speak like a Victorian novel,
some as on a radio net ("this is Anna ... over"), and learners carry words over from their first language
("pose the juice on the shelf"). Their
content words are everyone's ("the remote", "the fridge"); what the tagger trips on are a few closed-class words
("de" for the, "fi" for for, "pon" for on, "hither" for here) and particles that end a question ("lah", "anot").
This module rewrites those, and only those (more of the Caribbean and Scots forms are still among ``normalise``'s
shortcuts, where they were written first): a closed class, as a dictionary of a variety of English lists them,
applied before the rest of ``normalise`` reads the sentence. Words that are also ordinary English ("me", "dem"
in a name) are rewritten only where the variety's grammar leaves no doubt.

Beside the varieties, the same pass reads other ways of putting a request that the tagger trips on: English typed
in a sign language's gloss order (``_GLOSS``), a formal or report register with labels and parentheticals
(``_FORMAL``), tag questions, London and Liverpool speech, a system administrator's and a dramatic speaker's words,
remarks after the request (``_TAGS_AND_REGISTERS``), and learners' orders with the thing said first
(``_WORD_ORDER_LEARNER``). Each group is a table of (pattern, replacement); groups run in the order
``standard_words`` lists them, the rules of a group in the order written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..core.text import singular_phrase
from .lexicon import ROOM_WORDS

_Rule = tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]


def _rules(*pairs: tuple[str, Any], flags: int = re.I) -> tuple[_Rule, ...]:
    return tuple((re.compile(p, flags), r) for p, r in pairs)


_THING = r"(?:the\s+)?((?:my\s+|your\s+|our\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"  # whose it is is kept
# a thing said first as the topic: not a pronoun, a question word or a word that joins sentences
_TOPIC = (r"(?!(?:it|its|is|and|so|but|then|now|ok|okay|well|i|you|we|they|he|she|this|that|there|what|where|which|when|how|"
          r"who|why|please|can|could|would|do|does|did)\b)" + _THING)

# a room as people name it ("kitchen", "living room", "spare bedroom")
_ROOM = r"(?:(?:living|dining|sitting|spare|guest|utility|laundry|front|back|main)\s+)?(?:" + "|".join(sorted(ROOM_WORDS)) + ")"

# English typed in the word order of a sign language's gloss ("fridge CLOSE FINISH? YES NO?", "bedroom THERE coffee
# table?", "remote MOVE FINISH. BEFORE, WHERE?"): the yes / no marker, FINISH for done, the topic first
_GLOSS = _rules(
    (r"\s*[.,]?\s*\byes\s*(?:/|or|-)?\s*no\s*\?+\s*$", "?"),
    (r"\bnext-to\b", "next to"),
    (r"\b(close|closed|open|opened|locked|unlocked|on|off|shut)\s+finish(?:ed)?\b", r"\1 already"),
    (r"^" + _TOPIC + r"\s+(?:move|moved|take|taken|took)\s+(?:finish(?:ed)?|already|done)\s*[.,!]?\s*before\s*,?\s*where\s*\?*\s*$",
     r"where was the \1 before it was moved?"),
    (r"^(?:the\s+)?(" + _ROOM + r")\s+there\s+(?!(?:is|are|was|were|now|on|in|at|by|under|next)\b)([a-z][\w ]{1,40}?)\s*\?",
     r"is there \2 in the \1?"),
    (r"^(?:the\s+)?([a-z][\w ]{1,40}?)\s+before\s*,?\s*where\s*(?:was|it\s+was|is|one|place)?\s*\?", r"where was the \1 before?"),
    (r"^(?:me|i)\s+(.{2,40}?)\s+(?:leave|put|left)\s*,?\s*(?:forget|forgot)\s*[.,]?\s*where\s*\?", r"where did I leave the \1?"),
    (r"^" + _TOPIC + r"\s+(?:me|i)\s+look-?\s*for\s*,?\s*(?:can't|cannot|cant)\s+find\s*[.,]?\s*where\s*\?", r"where is the \1?"),
    (r"^(?:the\s+)?(?:house|home)\s+(.{2,40}?)\s+(?:have|got)\s*\?(?:\s*(?:me|i)\s+want\s+(?:to\s+)?know\s*[.!]*)?\s*$",
     r"do we have any \1?"),
    (r"^" + _TOPIC + r"(?<!\bstay)(?<!\bstays)(?<!\bis)(?<!\bin)(?<!\bsit)(?<!\bsits)(?<!\blive)(?<!\blives)(?<!\bbe)(?<!\bat)"
     r"\s+which\s+room\s*\?", r"which room is the \1 in?"),
    (r"^" + _TOPIC + r"\s*,?\s+(?:you|u)\s+last\s+(?:see|saw)\s*,?\s*when\s*\?", r"when did you last see the \1?"),
    (r"^" + _TOPIC + r"\s+([a-z][\w ]{1,30}?)\s+put-?\s*(on|in)\s*[.!]*$", r"put the \1 \3 the \2"),
    (r"^" + _TOPIC + r"\s+take\s*,\s*give\s+([A-Za-z]+)\s*[.!]*$", r"bring the \1 to \2"),
    (r"^" + _TOPIC + r"\s+before\s+place\s*,?\s*put-?\s*back\s*[.!]*$", r"put the \1 back"),
    (r"^" + _TOPIC + r"\s+where\s*\?\s*/?\s*(?:it\s+)?bring\s+(?:it\s+)?(?:to\s+)?me\s*[.!]*$", r"bring me the \1"),
    (r"^" + _TOPIC + r"\s+bring\s+(?:to\s+)?me\s*[.!]*$", r"bring me the \1"),
    (r"^(?:me|i)\s+(thirsty|hungry|cold|tired|sick)\b", r"I am \1"),
    (r"(?:^|(?<=[.!?]\s))(drink|water|food|snack|something\s+to\s+(?:eat|drink))\s+bring\s+(?:to\s+)?me\b",
     lambda m: f"bring me {'' if m.group(1).lower().startswith('something') else 'a '}{m.group(1)}"),
)

# Caribbean English (Jamaican, Trinidadian): articles, prepositions and pronouns
_CARIBBEAN = _rules(
    (r"\ba\s+fi\s+(?:mi|me)\b", "is mine"), (r"\ba\s+fi\s+(?-i:([A-Z][a-z]+))\b", r"is \1's"),  # Jamaican "a fi mi"
    # "de remote", "pon de table" ("where de radio dey?" is read whole by ``normalise``)
    (r"\bde\s+(?=[a-z])(?!(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:dey|deh)\b)", "the "),
    (r"\bfi\s+(?=me\b|mi\b|us\b|him\b|her\b|them\b)", "for "),  # "put it away fi me"
    (r"\bfuh\s+(?=me\b|mi\b|us\b|him\b|her\b|them\b|you\b)", "for "),  # Bajan, Guyanese: "tek it fuh me"
    (r"\bcaan\b", "can't"),
    # "me cyaan find it", "me nuh see it": "me" as the subject, before a verb group
    (r"^(?:(?:oh|ah|eh|well)\s*,?\s+)?m[ei]\s+(?=cyaan\b|can't\b|cannot\b|don't\b|didn't\b|nuh\b|nah\b|need\b|want\b|lost\b)",
     "I "),
    (r"\bnuh\s+(?=see|find|know|have|got)", "didn't "),
    # Jamaican: "di" (the), "weh" (where; "put it weh": away), "wah" (what), "deh" (is there), "inna" (in the),
    # "fi" (to, for; "a fi mi": is mine; "fi go": is meant to go), "mi" (me, I), "afta", "tek", "gi", "an" (and),
    # "him" as a subject, "nuh" ending a request; a name before a thing is whose it is ("tek Anna glass to her")
    (r"\bdi\s+(?=[a-z])", "the "),
    # Trinidadian "wha'" (what) and "it have" (there is): "wha' it have in de cupboard?", "wha' colour de ball is?"
    (r"\bwha'(?=\s)", "what"),
    # Bajan "wuh part" (where) and the habitual "does" after its subject: "wuh part de loo roll does go?"
    (r"\b(?:wuh|wha|wah)\s+part\b(?!\s+of\b)", "where"),
    (r"^where\s+((?:the|my|your|our|it)\b[\w ]{0,40}?)\s+does\s+(go|belong|stay|live)\b", r"where does \1 \2"),
    (r"\bwuh\s+room\s+(it|he|she|they|the\s+[\w ]{1,30}?)\s+(?:is\s+)?in\b", r"which room is \1 in"),  # "wuh room it in?"
    (r"\bpun\s+(?=(?:the|de|di|it|top|mi|my)\b)", "on "),  # Bajan "put it pun de counter"
    (r"^wuh\s+(?=(?:I|you|we|Ben|Anna|he|she)\b)", "what "), (r"\bwid\b", "with"),  # "wuh I could cook wid in here?"
    (r"\bput\s+'way\b", "put away"),
    (r"\bdat\s+(?=[a-z])(?!(?:is|are|was|were|one|ones|dey|deh|de)\b)", "that "),  # "get me dat juice"
    (r"\bwhat\s+it\s+have\s+(in|on|inside)\b", r"what is \1"),
    (r"(?:^|(?<=[,.!?]\s))(?:it|it's)\s+have\s+(?=(?:any|a|an|some)\s)", "is there "),
    (r"\b(put|tek|take|pack|tidy|clear)\s+(?!back\b)(.{1,40}?)\s+weh\b(?=\s*(?:fi\s+m[ei]|for\s+m[ei]|now|please|nuh|[.!?,]|$))",
     r"\1 \2 away"),
    (r"\bweh\s+(?=(?:it|mi|yu|you|him|her|dem|we|i)\s)", "where "),
    (r"\bwhere\s+(it|he|she|they)\s+(?:did\s+)?deh\b", r"where \1 was"),
    (r"(?:^|(?<=[,.!?]\s))weh\s+(?=[a-z])", "where "),
    (r"^wah\s+(?!(?:lau|lao|piang|so|really|sian|liao|seh)\b)(?=[a-z])", "what "),
    (r"\btek\b", "take"), (r"\bafta\b", "after"), (r"\bsometin\b|\bsomeping\b|\bsuhm\b", "something"),
    (r"\ban\s+(?=(?:the|mi|my|dem)\b)", "and "),
    (r"\bgo\s+gi(?:ve)?\s+(?=[A-Z]|him\b|her\b|mi\b|me\b|dem\b)", "to "),
    (r"\bgi\s+(?=mi\b|me\b|him\b|her\b|dem\b|[A-Z])", "give "),
    (r"\b(take|bring|carry)\s+(?-i:([A-Z][a-z]*[a-rt-z]))\s+(?=[a-z][\w ]{1,30}?\s+(?:to|go)\s+(?:her|him|dem)\b)", r"\1 \2's "),
    (r"\bfor\s+mi\b", "for me"),
    (r"\b(something|anything|nothing)\s+fi\s+(?=[a-z])", r"\1 to "),
    (r"^where\s+(.{2,40}?)\s+fi\s+go\b", r"where does \1 go"),
    (r"\bdeh\s+side\s+(?:a|of)\s+", "is beside "),
    (r"(?<!\bova\s)(?<!\bover\s)(?<!\bgo\s)\bdeh\s+(?=(?:on|in|inna|pon|under|by|next|near|beside|inside)\b)", "is "),
    (r"(?-i:\binna\s+)(?=(?:the|my|mi)\b)", "in "), (r"(?-i:\binna\b)", "in the"),
    (r"\b(bring|give|get|pass|show|tell|help|fetch|carry|take)\s+mi\s+(?=(?:something|anything|the|a|an|one|it|dem|them|"
     r"some|two|both)\b)", r"\1 me "),
    (r"\b(bring|give|get|pass|fetch|carry|take)\s+mi\s+(?=[a-z])", r"\1 my "),
    (r"\b(bring|give|get|pass|show|tell|help|fetch|carry|take)\s+mi\b", r"\1 me"),
    (r"^mi\s+(hungry|thirsty|cold|hot|tired|sick|done|ready)\b", r"I am \1"),
    (r"\b(after|before|when|since|till)\s+him\s+(?=[a-z]+ed\b|did\b|was\b|had\b|went\b|came\b|sat\b|made\b|took\b|got\b|"
     r"ate\b|left\b|put\b)", r"\1 he "),
    (r"^the\s+([a-z][\w ]{1,30}?)\s+lock\s*\?+\s*$", r"is the \1 locked?"),
    (r"\s*,?\s+nuh\s*(?=[?.!]*\s*$)", ""),
)

# Singapore and Malaysian English: sentence-final particles, "got ... or not?", "can?"
_SINGLISH = _rules(
    # a particle opening the sentence ("Lo the kitchen table bring to me ah", "Aiyah, where's the remote?")
    (r"^(?:lo|lor|leh|aiya+h?|alamak|wah\s+lau)\s*,?\s+(?=(?:the|my|can|you|where|what|which|dis|this)\b)", ""),
    # "you got see the lime anot?": did you see it
    (r"^(?:you\s+)?got\s+(?:see|seen|spot|spotted|saw)\s+(.+?)\s*,?\s+(?:or\s+not|anot|not)\s*\?*\s*$",
     r"have you seen \1?"),
    # "got bookshelf in the living room or not?": is there one
    (r"^got\s+(?!to\b)(.+?)\s*,?\s+(?:or\s+not|anot)\s*\?*\s*$", r"is there \1?"),
    # particles that end a question or a request ("where ah?", "bring it lah", "can or not"), in any sentence
    (r"\s*,?\s+(?:ah|lah|la|leh|lor|hor|meh|sia|ka|kha|krub|krap|khrap)\s*(?=[?.!]+(?:\s|$)|\s*$)", ""),
    (r"\s*,?\s+anot\s*(?=[?.!]*\s*$)", ""),
    # "pear, you bring for me can or not?": can you bring it
    (r"^" + _TOPIC + r"\s*,\s*(?:you\s+)?(bring|fetch|get|take|give|pass)\s+(?:for\s+me|to\s+me|me)\s*,?\s*can\s+or\s+not\s*\?*\s*$",
     r"can you \2 me the \1?"),
    (r"^(?:eh|aiyo|aiyah|aiya|alamak|wah)\b\s*[,!.]?\s*", ""),
    # "juice I cannot find. Look everywhere already, no have.": the search told after the question it explains
    (r"(?<=[.!?])\s*(?:i\s+)?look(?:ed)?\s+everywhere(?:\s+already)?\s*,?\s*(?:no\s+have|cannot\s+find|can't\s+find|nothing|"
     r"also\s+no)?\s*[.!]*\s*$", ""),
    # "got many face creams, which one beside the toothpaste?"
    (r"^got\s+(?:many|several|lots\s+of|a\s+few|two|some)\s+([a-z][\w ]{1,30}?)s\s*,\s*which\s+one\s+(?:is\s+)?", r"which \1 is "),
    # "take the toy and the milk come here": bring them
    (r"\btake\s+(.{2,60}?)\s+come\s+(?:here|over)\b", r"bring \1 here"),
    (r"\btake\s+(.{2,60}?)\s+come\s*(?=[.!?]|$)", r"bring \1 here"),
    # "where is the magazine? Cannot see.": the subject left unsaid, after the question it explains
    (r"(?<=[?])\s+(?:i\s+)?(?:cannot|can't|cant|can\s+not)\s+(?:see|find)(?:\s+it)?\s*[.!]*\s*$", ""),
    # "the fridge close already or not?": whether it is closed now
    (r"^(?:the\s+)?((?:my\s+|your\s+|our\s+)?(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:is\s+)?(close|closed|shut|open|opened|on|off|"
     r"locked)\s+already(?:\s*,?\s+(?:or\s+not(?:\s+yet)?|anot|not|yet))?\s*\?*\s*$", lambda m: f"is {_the(m.group(1))} {m.group(2)}?"),
    (r"^is\s+(.+)\s+close\?$", r"is \1 closed?"),
)

# Gamers' and internet slang for a fetch ("yeet the toy over here", "loot the mouse out of the microwave")
_INTERNET = _rules(
    # a command line said to the robot ("Robot, execute: ...", "query: is the microwave ...")
    (r"^(?:robot\s*,\s*)?(?:execute|query|command|instruction|task)\s*:\s*", ""),
    (r"\bin\s+an?\s+(open|closed|locked|unlocked|on|off|empty|full)\s+(?:state|position|condition)\b", r"\1"),
    (r"\s+and\s+(?:set|put|leave)\s+it\s+(?:down|there)\s*[.!]*\s*$", ""),
    (r"^(?:yo|ayo|oi)\s*,?\s+(?:bot|robot|buddy|bro|dude)?\s*[,!]?\s*", ""),
    (r"\byeet\s+(.{1,40}?)\s+(?:over\s+)?(here|to\s+me|my\s+way)\b", r"bring \1 \2"),
    (r"\bloot\s+(?=(?:the|my|a|an|that|this)\b)", "get "),
    (r"\s+and\s+(?:ping|dm|text|buzz)\s+me\s+when\s+(?:you're|you\s+are|ur)\s+(?:there|done)\s*[.!]*\s*$", ""),
    (r"\bgo\s+scout\s+out\s+", "go to "),
    (r"^(?:please\s+)?(?:mosey|amble|wander|toddle|scoot|mozy)\s+(?:on\s+)?(?:over\s+|down\s+|across\s+)?(?:to|towards)\s+",
     "go to "),
    (r"^(?:please\s+)?lead\s+the\s+way\s+to\s+", "go to "),
    (r"\s+and\s+wait\s+(?:there|for\s+me|till\s+I\s+come)\s*[.!]*\s*$", ""),
    (r"^(?:bestie|bruh|bro|bruv|dude|fam|sis|babe|hun)\s+(?=(?:have|has|can|could|would|will|where|what|which|is|are|do|did|go|"
     r"bring|get|grab|put|open|close|find|tell|show|pass|fetch)\b)", ""),
    (r"^(?:lowkey|highkey|ngl|tbh|deadass|no\s+cap|literally)\b\s*,?\s*", ""),
    # London's dropped h written as said ("'ow many", "'ave you seen", "'ere")
    (r"(?<![\w'])'(ow|ere|ave|ome|ouse)\b", r"h\1"),
    (r"\s*,?\s+(?:fr(?:\s+fr)?|ngl|tbh|no\s+cap)\s*(?=[?.!]*\s*$)", ""),
    (r"(\b(?:can'?t|cannot|can\s+not)\s+find\b.*?)\s*,?\s+(?:pls\s+|please\s+)?help(?:\s+me)?(?:\s+(?:na|la|lah|pls|please))?\s*[.!]*\s*$",
     r"\1"),
    (r"\s*,\s*where'?s\s+(?:its|it's|their)\s+(?:spawn(?:\s+point)?|respawn(?:\s+point)?|home\s+base)\s*\?*\s*$", "?"),
)

def _the(phrase: str) -> str:
    """"my mug" stays; "fridge" becomes "the fridge"."""
    return phrase if phrase.split()[0].lower() in ("my", "your", "our") else f"the {phrase}"


# Learners whose own language puts the question word or the verb last (Korean, Japanese, Turkish, Hindi):
# "remote color is what?", "bathroom, towels how many?", "next to radio, which bowl?", "toy bring to me please"
_DETERMINED = re.compile(r"(?:a|an|the|any|some|my|our)\s", re.I)
_WORD_ORDER_LEARNER = _rules(
    # "sponge on the worktop: which one?", "the mug by the sink - which one?": which of that kind is there
    (r"^" + _THING + r"\s+(on|in|next\s+to|beside|by|near|under|behind)\s+(?:the\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*[:,-]+\s*"
     r"which\s+one\s*\?*\s*$", r"which \1 is \2 the \3?"),
    (r"^" + _THING + r"\s*,?\s+(colou?r|size|material|shape)\s+(?:is\s+)?what\s*\?*\s*$", r"what \2 is the \1?"),
    (r"^what\s+(colou?r)\s+(?:has|have)\s+(?:the\s+)?(?=[a-z])", r"what \1 is the "),  # "What colour has remote?"
    (r"^" + _THING + r"\s*,\s*([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+how\s+many\s*\?*\s*$", r"how many \2 are in the \1?"),
    (r"^(next\s+to|beside|near|behind|under|on|in)\s+" + _THING + r"\s*,\s*which\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*\?*\s*$",
     lambda m: f"which {m.group(3)} is {m.group(1).lower()} the {m.group(2)}?"),
    (r"^" + _THING + r"\s*,?\s+(?:the\s+)?last\s+time\s+(?:you\s+)?(?:see|saw|seen|spot|spotted)\s+(?:it\s+)?when\s*\?*\s*$",
     r"when did you last see the \1?"),
    (r"^" + _THING + r"\s*,?\s+(?:the\s+)?last\s+time\s+(?:is|was|it\s+was)\s+where\s*\?*\s*", r"where was the \1 before? "),
    (r"^(?!.*\b(?:goes|go|belongs?|went|lives?|stays?|sits?|kept|put|left|usually|normally)\s+where\b)" + _THING +
     r"\s*,?\s+(?:is\s+)?where\s*(?:now\s*)?\?+", r"where is the \1?"),
    (r"^" + _THING + r"\s*,\s*(open|closed|shut|on|off|locked|empty|full|clean|dirty|running)\s*(?:now|still|already)?\s*\?+\s*$",
     r"is the \1 \2?"),
    (r"^which\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(mine|yours|his|hers|ours|theirs|[A-Za-z]+'s)\s*\?+\s*$", r"which \1 is \2?"),
    # a thing said first and its verb after it: "toy take to bathroom", "toy bring to me please"
    (r"^(?!(?:[\w-]+\s+){0,2}?(?:you|u|i|we|me|it|they|please|could|can|would|will|should|must|just|kindly|then|and|"
     r"now|go|so|ok|okay|let's|lets)\s)" + _THING + r"\s+(bring|take|carry|put|give|fetch)\s+(?=(?:to|back|away|in|into|on|onto)\b)",
     r"\2 the \1 "),
    (r"\bback\s+(?:to\s+)?(?:the\s+|its\s+)?original\s+(?:place|spot|position)\b", "back"),
    (r"\bthe\s+(my|your|our)\s+(?=[a-z])", r"\1 "),  # ("the" before a thing said as "my mug" above)
    (r"^" + _THING + r"\s+(?:i\s+)?(?:cannot|can't|can\s+not|cant)\s+find\s*[.!,]*\s*(?:where\s*(?:is\s+it)?\s*\?*)?\s*$",
     r"where is the \1?"),
    (r"^(?:the\s+)?(first|last)\s+time\s+(?:you|u)\s+(?:see|saw|seen)\s+" + _THING + r"\s*,?\s*(?:what\s+time|when)\s*\?*\s*$",
     r"when did you \1 see the \2?"),
    (r"^what\s+time\s+(?:you|u|did\s+you)\s+(?:saw|see|seen)\s+" + _THING + r"\s+(last|first)\s*\?*\s*$",
     r"when did you \2 see the \1?"),
    (r"^(?:i\s+)?(?:want|wanna|need)\s+(?:to\s+)?(wash|dry|sit|sleep|rest|read|cook|eat|write|work)\b([^,?]{0,30}?)\s*,?\s*"
     r"where\s+(?:(?:i|to|can\s+i|should\s+i|do\s+i)\s+go\s*\?*|(?:can|could)\s*(?:i)?\s*\?+)\s*$", r"where can I \1\2?"),
    (r"^keep\s+(.{2,40}?)\s+back\b", r"put \1 back"),
    # "I need to dry my hands, where can I do that?": the place for the need
    (r"^(?:i\s+)?(?:need|want|have)\s+to\s+([a-z]+(?:\s+[\w']+){0,3}?)\s*,?\s*where\s+(?:can|could|should|do)\s+i\s+do\s+"
     r"(?:that|it|so|this)\s*\?*\s*$", r"where can I \1?"),
    # the article left unsaid: "do we have sponge?"
    (r"^(do|did)\s+(we|you)\s+(?:have|got)\s+(?!(?:a|an|the|any|some|my|our|your|to|it|them|enough|no|one|two|three)\b)"
     r"([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*\?", r"\1 \2 have any \3?"),
    # what the speaker is doing, then what they cannot find ("Sauce needs stirring and I can't find the lime")
    (r"^[^?]{3,80}?\s*,?\s+(?:and|but|so|plus)\s+(I\s+(?:still\s+)?(?:can't|cannot|can\s+not|couldn't)\s+find\s+(?!(?:it|them|one|that|this|him|her)\b))",
     r"\1"),
    (r"\s+for\s+love\s+(?:n?or)\s+money\b", ""),
    # "the remote used to sit somewhere else ... where was that?": where it was before
    (r"(?:^|(?<=[.!?]\s))(?:the\s+)?([a-z][\w ]{1,40}?)\s+used\s+to\s+(?:be|sit|live|stay|lie|stand|be\s+kept)\s+"
     r"(?:somewhere\s+else|elsewhere)\b[^?]*?\bwhere\s+(?:was|is)\s+(?:that|it)\s*\?", r"where was the \1 before?"),
    # a serial verb for where to ("bring the teddy go bathroom"): to it; not a second command after "and" / "then"
    # ("bring me the juice and then go to the sofa": a go once it is handed over)
    (r"\b(bring|take|carry)\s+((?:(?!\b(?:and|then)\b)[^,.;!?]){2,40}?)\s+go\s+(?:to\s+)?(?:the\s+)?(?!(?:and|get|find|fetch|back|away|over|there|here|"
     r"round|around|up|down|on|please)\b)(?=[a-z])", r"\1 \2 to the "),
    # ... and "give" for whom ("bring the radio give Ben"): to them
    (r"\b(bring|take|carry)\s+((?:(?!\b(?:and|then|come|so|to)\b)[^,.;!?]){2,40}?)\s+give\s+(?=(?:[A-Z][a-z]+|him|her|me|us|them)\b)",
     r"\1 \2 to "),
    # "how many pillows does the living room hoard?": the room is where to count
    (r"^how\s+many\s+(.+?)\s+(?:does|do|did)\s+(?:the\s+|my\s+|our\s+)?(" + _ROOM + r")\s+(?:have|hold|contain|hoard|keep|"
     r"store|house|boast|got)\b", r"how many \1 are in the \2"),
    # the subject left unsaid ("can't find the radio anywhere")
    (r"^(?:still\s+)?(?:can't|cannot|cant|can\s+not)\s+find\b", "I can't find"),
    # "kitchen have how many books?", "house have sponge or not?": the place is where to count, the home is "we"
    (r"^(?:the\s+)?(?:house|household|home|flat|apartment)\s+(?:have|has|got)\s+(?!how\b)(.+?)\s*,?\s*(?:or\s+not)?\s*\?+\s*$",
     lambda m: "do we have " + ("" if _DETERMINED.match(m.group(1)) else "any ") + m.group(1) + "?"),
    (r"^(?:the\s+)?([a-z][\w ]{1,30}?)\s+(?:have|has|got)\s+how\s+many\s+(.+?)\s*\?*\s*$", r"how many \2 are in the \1?"),
    # "plate next to microwave, which one?", "glass which one is mine?", "of the plates, ... which one stands by X"
    (r"^" + _TOPIC + r"\s+(next\s+to|beside|near|behind|under|on|in)\s+" + _THING + r"\s*,\s*which\s+one\s*\?*\s*$",
     r"which \1 is \2 the \3?"),
    (r"^" + _TOPIC + r"\s*,?\s+which\s+one\s+is\s+(mine|yours|his|hers|ours|theirs|[A-Za-z]+'s)\s*\?*\s*$", r"which \1 is \2?"),
    (r"\bwhich\s+one's\b(?!\s+(?:that|it|this|mine|yours|his|hers|ours|theirs)\b)", "which one is"),
    # (the plural said as one: "glasses" is a glass, not a "glasse")
    (r"^of\s+(?:the|all\s+the|these|those)\s+(?:several\s+|many\s+|various\s+|two\s+|three\s+)?([a-z][\w ]{1,30}?s)"
     r"(?:\s+in\s+(?:this|the)\s+(?:house|home|flat|place))?\s*,\s*(.{0,60}?)"
     r"\bwhich\s+one\b", lambda m: f"{m.group(2)}which {singular_phrase(m.group(1))}"),
    (r"^which\s+of\s+(?:the|these|those)\s+([a-z][\w ]{1,30}?)s\s+is\s+the\s+one\s+(?:at|by|next\s+to|beside|near)\s+", r"which \1 is next to "),
    (r"^there'?s\s+more\s+than\s+one\s+([a-z][\w ]{1,30}?)\s*(?:,|and)?\s*(?:um\s+|uh\s+)?,?\s*which\s+one\s+is\s+(?:the\s+one\s+)?",
     r"which \1 is "),
    (r"^which\s+([a-z][\w ]{1,30}?)\s*(?:--|—|-)\s*the\s+one\s+(by|next\s+to|beside|near|on|in)\s+(.+?)\s*,\s*which\s+one\s+is\s+that\s*\?",
     r"which \1 is \2 \3?"),
    (r"\bwhich\s+(?!of\b)([a-z][\w ]{0,30}?)\s+is\s+the\s+one\s+(?:that|which)\s+(?:is|[a-z]+s)\s+"
     r"(?=(?:next|beside|near|on|in|by|under|behind|inside|at)\b)", r"which \1 is "),
    (r"^which\s+of\s+(?:the|these|those)\s+([a-z][\w ]{1,30}?)s\s+is\s+the\s+one\s+(?:that|which)\s+(?:is|[a-z]+s)\s+"
     r"(?=(?:next|beside|near|on|in|by|under|behind|inside|at)\b)", r"which \1 is "),
    (r"^(?:and\s+)?(?:resting|sitting|lying|standing)\s+(on|in)\s+(?:the\s+)?(.{2,30}?)\s*,\s*there'?s\s+(?:a|an|one)\s+(.{2,30}?)\s*,?\s*"
     r"but\s+which\s+one\s+is\s+it\b", r"which \3 is \1 the \2"),
    (r"\bwhich\s+([a-z][\w ]{0,30}?)'s\s+that\s+(on|in|next\s+to|beside|by)\b", r"which \1 is \2"),
    (r"\bwhich\s+room\s+is\s+(it|he|she|that)\s+(?:turning|showing|popping)\s+up\s+in\b", r"which room is \1 in"),
    (r"\bwhere\s+was\s+(it|he|she)\s+(?:lining\s+up|sitting|standing|lying|kept|placed|located)\s+before\b", r"where was \1 before"),
    (r"^" + _TOPIC + r"\s*,?\s+(?:which|what)\s+colou?r\s+(?:is|it\s+is)\s*\?", r"what colour is the \1?"),
    (r"^(?-i:([A-Z][a-z]+))\s+(.{3,60}?)\s*,\s*after\s+that\s*,?\s*what\s+(?:did|he\s+did|she\s+did|did\s+(?:he|she)\s+do|happened)\s*\?",
     r"what did \1 do after \1 \2?"),
    (r"^in\s+(?:the\s+)?(" + _ROOM + r")\s+(?!how\s+many\b)(.+?)\s+there\s+(?:is|are)\s*\?", r"is there \2 in the \1?"),
    (r"^go\s+(?:look|search)\s+for\s+(.{2,40}?)\s+and\s+go\s+to\s+(?:it|them)\b", r"go to \1"),
    (r"\s+within\s+(?:arm'?s\s+|easy\s+)?reach\b", ""),
    # "the radio... and the other thing, what was it... the loo roll. Both of them, please."
    (r"\s*(?:\.{2,}|…)?\s*and\s+the\s+other\s+(?:thing|one)\s*,?\s*(?:what\s+was\s+it|what's\s+it\s+called|whatsit)\s*(?:\.{2,}|…|,)?\s*",
     " and "),
    (r"(?<=[.!])\s*both\s+of\s+them\s*,?\s*(?:please)?\s*[.!]*\s*$", ""),
    (r"^[^:]{3,60}:\s*(the\s+.+?)\s*,\s*both\s+(?:coming|going)\s+(?:back\s+)?to\s+me\s*[.!]*$", r"bring me \1"),
    # a preamble before a question, set off by a colon ("Quick one while the pasta boils: any pans in the kitchen?")
    (r"^(?!(?:the|my|a|an|your|our|his|her|this|that|these|those|of)\b)[^:?]{3,60}:\s+(?=(?:any|is|are|where|what|which|when|do|"
     r"does|did|have|has|can|could)\b[^?]*\b(?:the|a|an|any|my|your|our|some)\b)"
     r"(?![^?]*\b(?:there|it|them|that|those|one|ones|one's)\b)", ""),
    # "remote you see last time when?", "I leave remote control where already?"
    (r"^" + _TOPIC + r"\s*,?\s+(?:you|u)\s+(?:see|saw|seen)\s+(?:it\s+)?(last|first)\s+time\s*,?\s*when\s*\?*\s*$",
     r"when did you \2 see the \1?"),
    (r"^(?:i|me|mi)\s+(?:leave|put|left)\s+(?:the\s+)?(.{2,40}?)\s+where\b(?:\s+already)?\s*\?", r"where did I leave the \1?"),
    (r"^" + _TOPIC + r"\s+(?:i\s+)?(?:look|looked|search|searched|check|checked)\s+(?:everywhere|all\s+over(?:\s+the\s+place)?|"
     r"high\s+and\s+low)\s*,?\s*(?:but\s+)?(?:i\s+)?(?:still\s+)?(?:cannot|can't|cant|can\s+not)\s+find(?:\s+it)?\s*[.!]*\s*$",
     r"where is the \1?"),
    # "mouse in microwave, take out bring me": out of it, then to the speaker
    (r"^" + _TOPIC + r"\s+(?:in|inside)\s+" + _THING + r"\s*,\s*take\s+(?:it\s+)?out\s*,?\s*(?:and\s+|then\s+)?bring\s+(?:it\s+)?"
     r"(?:to\s+)?me\b", r"take the \1 out of the \2 and bring it to me"),
    # "what Ben do after he ...": the past said with the bare verb
    (r"^what\s+((?-i:[A-Z][a-z]+)|he|she|you)\s+do\s+(?=after|before|next|then|when)", r"what did \1 do "),
    # a need, then the fetch said again with no thing: "need the radio and the mug, bring both", "i need something to
    # read bring me something"
    (r"^(?:i\s+)?(?:need|want)\s+(.{2,60}?)\s*,\s*(?:so\s+)?bring\s+(?:them\s+)?both\b", r"bring me \1"),
    (r"^(?:i\s+)?need\s+(something|anything)\s+to\s+(\w+)\s*,?\s*(?:so\s+|please\s+)?(?:bring|get|fetch)\s+me\s+(?:something|one|it)"
     r"\s*[.!]*\s*$", r"bring me something to \2"),
)

# South African English: interjections that open or end a sentence
_SOUTH_AFRICAN = _rules(
    (r"^(?:howzit|eish|ag|haibo|yoh)\b\s*[,!.]?\s*", ""),
    (r"\s*,\s*(?:hey|bru|boet|man)\s*(?=[?.!]*\s*$)", ""),
)

# Older and literary English ("carry it hither", "the table yonder", "pray, where ...")
_LITERARY = _rules(
    (r"\bhither\b", "here"), (r"\bthither\b", "there"), (r"\bwhither\b", "where"),
    (r"\b(?:out|over|up|down)\s+yonder\s+(?=(?:in|on|at|by)\b)", ""),  # "a bench out yonder in the kitchen"
    (r"\b(?:out|over|up|down)\s+yonder\b", "over there"), (r"\byonder\b", "over there"),
    (r"\bbeheld\b", "saw"), (r"\bbehold\b", "see"), (r"\bunto\s+me\b", "me"),
    (r"^pray\s*,?\s+(?:(?:good|kind|dear)\s+\w+\s*,\s*)?", ""), (r"\s*,\s*pray\s*,\s*", " "),
    # "canst thou recall", "hast thou seen", "thy mug": the older second person
    (r"\b(can|could|will|would|do|did|have|has|art|are)(?:st|est)?\s+thou\b",
     lambda m: f"{ {'art': 'are', 'has': 'have'}.get(m.group(1).lower(), m.group(1))} you"),
    (r"\bthou\b", "you"), (r"\bthee\b", "you"), (r"\bthy\b", "your"), (r"\bthine\b", "your"),
    (r"\b(?:go\s+(?:forth|out|off)\s+)?in\s+search\s+of\b", "find"),  # "go forth in search of the magazine"
    # "restore the mug to the place from whence it was taken", "... to its former position": put it back
    (r"\brestore\s+(.{2,40}?)\s+to\s+(?:the\s+place\s+(?:from\s+)?whence\s+it\s+(?:was\s+taken|came)|(?:its|their)\s+"
     r"(?:original|former|previous|old|rightful)\s+(?:place|spot|position|location))\b", r"put \1 back"),
    # "(enumerate) whatever rests in the wardrobe": what is in it (the verb before it is read as a wrapper)
    (r"(?:\b(?:enumerate|list|name|itemi[sz]e|catalogue)\s+(?:for\s+me\s+)?)?\b(?:whatever|everything\s+that|all\s+that)\s+"
     r"(?:rests|sits|lies|stands|may\s+be|happens\s+to\s+be)\s+(in|on|inside|upon)\s+", r"what is \1 "),
)

# A formal register's idioms for the everyday words ("have you caught sight of", "did you set eyes upon", "at what
# hour", "whatever happens to be on", "is the household in possession of", "how you have occupied yourself")
_FORMAL = _rules(
    # a label before the request ("Timestamp request: ...", "Problem report: ..."), a parenthetical qualification
    # ("(HH:MM is adequate)", "(within roughly half a metre)"), but not a list's numbers ("(1) the radio")
    (r"^[a-z][\w ]{2,30}?\s+(?:request|report|query|enquiry|inquiry)\s*:\s*", ""),
    # a request in a report's passive ("It is requested that the magazine be brought to me", "... be sought out and
    # that the robot proceed to its location", "The colour of the magazine is requested to be stated")
    (r"^it\s+is\s+(?:requested|asked|desired|required)\s+that\s+(.{2,60}?)\s+be\s+(?:brought|fetched|delivered|carried)\s+",
     r"bring \1 "),
    (r"^it\s+is\s+(?:requested|asked|desired|required)\s+that\s+(.{2,60}?)\s+be\s+(?:sought(?:\s+out)?|found|located)\b.*$",
     r"find \1."),
    (r"^it\s+is\s+(?:requested|asked|desired|required)\s+that\s+(.{2,60}?)\s+be\s+(?:returned|put\s+back|restored)\b.*$",
     r"put \1 back."),
    (r"^it\s+is\s+(?:requested|asked|desired|required)\s+that\s+(.{2,60}?)\s+be\s+(placed|put|set|moved|taken|opened|closed|shut)\b",
     lambda m: f"{ {'placed': 'put', 'moved': 'move', 'taken': 'take', 'opened': 'open', 'closed': 'close'}.get(m.group(2).lower(), m.group(2))} {m.group(1)}"),
    (r"^it\s+is\s+(?:requested|asked|desired|required)\s+that\s+(?:the\s+activity|what\s+was\s+done|the\s+action)\s+"
     r"(?:undertaken|done|performed|taken)\s+by\s+([A-Za-z]+)\s+(after|before)\s+(.+?)\s+be\s+(?:reported|stated|given)\b.*$",
     r"what did \1 do \2 \3?"),
    (r"^it\s+is\s+requested\s+that\s+(?:the\s+)?(.{2,40}?)\s+(?:found|located|lying|sitting)\s+(on|in|next\s+to|beside)\s+(.+?)\s+be\s+"
     r"identified\s*[.?]*$", r"which \1 is \2 \3?"),
    (r"^it\s+is\s+(?:asked|queried|wondered)\s+whether\s+(.{2,60}?)\s+(?:is|are)\s+to\s+be\s+found\s+(.+?)\s*[.?]*$", r"are there \1 \2?"),
    (r"^(?:the\s+)?colou?r\s+of\s+(.{2,40}?)\s+is\s+(?:requested|asked)(?:\s+to\s+be\s+(?:stated|given|reported))?\s*[.?]*$",
     r"what colour is \1?"),
    (r"^(?:the\s+)?(?:location|whereabouts|position)\s+of\s+(.{2,60}?)\s+(?:is|are)\s+(?:requested|asked)(?:\s+to\s+be\s+"
     r"(?:stated|given|reported))?\s*[.?]*$", r"where is \1?"),
    (r"\bprior\s+to\s+(?:its|their)\s+being\s+moved\b", "before it was moved"),
    (r"^a\s+list\s+of\s+(?:the\s+|all\s+)?(?:items|things|objects)\s+(?:currently\s+|presently\s+|now\s+)?(?:placed\s+|located\s+|kept\s+|"
     r"lying\s+)?(in|on|inside|upon)\s+(.{2,40}?)\s+is\s+requested\b.*$", r"what is \1 \2?"),
    (r"^run\s+me\s+through\s+(?=(?:what|which|where|when|how|everything)\b)", "tell me "),
    (r"^the\s+place\s+(?:at\s+which|where|in\s+which)\s+(.{2,40}?)\s+was\s+(?:kept|located|situated|placed)\s+prior\s+to\s+"
     r"(?:its\s+|their\s+)?(?:having\s+been|being)\s+moved\b.*$", r"where was \1 before it was moved?"),
    (r"^it\s+is\s+(?:to\s+be\s+confirmed|requested\s+to\s+know|asked)\s+whether\s+(.{2,40}?)\s+(?:has|have)\s+been\s+left\s+"
     r"(open|closed|shut|on|off|unlocked|locked)\b.*$", r"is \1 \2?"),
    (r"^(.{2,40}?)\s+(?:has|have)\s+not\s+been\s+(?:located|found)\b.*$", r"I can't find \1."),
    (r"^(?:retrieve|fetch|bring|get)\s+(?:me\s+)?(?:two|both|these|the\s+following)\s*(?:items|things|objects)?\s*:\s*\(?1\)\s*(.+?)\s*"
     r"[;,]?\s*(?:and\s+)?\(?2\)\s*(.+?)\s*[.;]\s*(?:deliver|bring|hand)\s+(?:both|them)(?:\s+of\s+them)?\s+to\s+me\s*[.!]*$",
     r"bring me \1 and \2"),
    (r"\s*\(\s*yes\s*/\s*no\s*\)", ""), (r"\s+\((?!\d\))[^()]{0,80}\s[^()]{0,80}\)", ""),
    (r"\s*,?\s*to\s+the\s+best\s+of\s+your\s+(?:knowledge|recollection|memory)\s*,?", ""),
    (r"^(?:kindly\s+)?confirm\s+(?:the\s+)?presence\s*(?:of\s*|:\s*)(?:at\s+least\s+one\s+|any\s+)?(.+?)\s*[.?!]*$", r"is there a \1?"),
    (r"^(?:kindly\s+)?(?:state|indicate|tell\s+me|give\s+me|report)\s+(?:the\s+)?(?:current\s+|present\s+)?location\s+of\s+", "where is "),
    (r"^(?:the\s+)?(?:current\s+|present\s+)?location\s+of\s+(.+?)\s*(?:,\s*please)?\s*[.?!]+", r"where is \1?"),
    (r"^(?:kindly\s+)?(?:state|tell\s+me|give\s+me)\s+the\s+time\s+(?:at\s+which|when)\s+you\s+last\s+(?:observed|saw|spotted|detected)\s+",
     "when did you last see "),
    (r"^(?:the\s+)?most\s+recent\s+(?:observation|sighting)\s+of\s+(.+?)\s*[.?!]*$", r"when did you last see \1?"),
    (r"^(?:kindly\s+)?(?:enumerate|list|name|itemi[sz]e)\s+(?:all\s+)?(?:the\s+)?(?:items|things|objects|contents)\s+"
     r"(?:presently\s+|currently\s+|now\s+)?(in|on|inside)\s+", r"what is \1 "),
    (r"\bprior\s+to\s+(?:its|their|the)\s+(?:most\s+recent|last|latest)\s+(?:relocation|move|movement)\b", "before it was last moved"),
    (r"\bprior\s+to\s+being\s+moved\b", "before it was moved"), (r"\bprior\s+to\b", "before"),
    (r"\bwas\s+(?:situated|located|positioned)\s+before\b", "was before"),
    (r"\bis\s+(?:situated|located|positioned|placed)\s+(?=(?:next|beside|near|on|in|by|under|behind|inside|adjacent)\b)", "is "),
    (r"\breturn\s+(.{2,40}?)\s+to\s+(?:the\s+)?(?:location|place|position|spot)\s+(?:it|they)\s+(?:occupied|had|was\s+in|were\s+in)\b"
     r"[^.!?]*", r"put \1 back"),
    (r"\b(?:proceed|go|head|move)\s+to\s+wherever\s+(.{2,40}?)\s+(?:is|are)(?:\s+(?:located|situated|kept))?\s*(?=[.!?]|$)", r"go to \1"),
    (r"\blast\s+observed\b", "last saw"),
    (r"\b(?:caught|catched)\s+sight\s+of\b", "seen"), (r"\bcatch\s+sight\s+of\b", "see"),
    (r"(?<=\bhave\s)(?:you\s+)?(?:set|laid)\s+eyes\s+(?:up)?on\b", "you seen"),
    (r"\b(?:set|lay|laid)\s+eyes\s+(?:up)?on\b", "see"),
    (r"\bat\s+what\s+(?:hour|time\s+of\s+(?:the\s+)?day)\b", "when"),
    (r"\s*,\s*if\s+I\s+(?:may|might)\s+(?:ask|enquire|inquire)\s*,\s*", " "),
    (r"\b(?:what|whatever)\s+(?:happens|happen)\s+to\s+be\b", "what is"),
    (r"\b(?:enumerate|itemi[sz]e|catalogue)\s+(?:for\s+me\s+|to\s+me\s+)?(?=what)", "tell me "),
    (r"\b(?:kindly\s+|please\s+)?(?:indicate|specify|identify|resolve|determine|advise\s+me|inform\s+me)\s+(?:to\s+me\s+|for\s+me\s+)?(?=(?:which|what|where|whether|when|how)\b)",
     "tell me "),
    (r"\b(?:the\s+|this\s+|our\s+)?(?:household|house|home)\s+(?:is|are)\s+in\s+(?:the\s+)?possession\s+of\b", "we have"),
    (r"^(?:kindly\s+)?confirm\s+(?:whether|if)\s+we\s+have\b", "do we have"),
    (r"\bhow\s+you\s+have\s+(?:occupied|busied|spent)\s+(?:yourself|your\s+time|your\s+day)\b", "what you have done"),
    (r"\b(?:over|during|in)\s+the\s+course\s+of\s+the\s+day\b", "today"),
    (r"\bwhere\s+(.{2,40}?)\s+was\s+kept\s+before\b", r"where \1 was before"),
    # a posture verb in "which X stands beside Y" (the question's relation is where it is)
    (r"\b(which)\s+((?:(?!is\b|it\b|that\b)[a-z][\w-]*\s+){0,2}(?!is\b|it\b|that\b)[a-z][\w-]*)\s+(?:(?:dares?\s+(?:to\s+)?)?(?:sit|stand|lie|rest)|stands|sits|lies|rests|"
     r"is\s+(?:sitting|standing|lying|resting))\s+(?=(?:beside|next|near|on|in|by|under|behind|inside)\b)", r"\1 \2 is "),
)

# Tag questions ("is the cabinet locked, is it?", Welsh and Indian English's invariant "is it?"): the question
# is what was said before; then regional and occupational registers and remarks said around a request
_TAGS_AND_REGISTERS = _rules(
    (r"^((?:is|are|was|were|do|does|did|can|could|has|have|will|would|where|what|which|when|how|who)\b[^,?]*?)\s*,\s*(?:is|isn't|was|"
     r"wasn't|does|doesn't|did|didn't|has|hasn't|have|haven't|are|aren't|can|can't|will|won't|do|don't)\s+(?:it|they|he|she|there|you|"
     r"we)\s*\?+\s*$", r"\1?"),
    (r"\bwhere'?s\s+(it|she|he|that|they)\s+to\s*(?=\?|$)", r"where is \1"),
    # London and Liverpool: "fetch us me glass" (me for my, us for me), "get yerself over to", "ta", "our kid"
    (r"\b(fetch|bring|get|pass|give|grab|chuck|bung)\s+us\s+me\s+(?=[a-z])", r"\1 me my "),
    (r"\b(fetch|bring|get|pass|give|grab|chuck|bung)\s+us\s+(?=(?:the|a|an|that|this|those|some)\b)", r"\1 me "),
    (r"^(?:get|take)\s+(?:yerself|yourself|your\s*self|herself)\s+(?:over\s+|down\s+|up\s+)?(?:to|towards)\s+", "go to "),
    (r"\s*,\s*(?:our\s+kid|la|lad|lass|kidda|pal|mate)\s*(?=[,.!?]|$)", ""),
    (r"\s*,?\s+ta\s*(?=[.!?]*\s*$)", ""),
    # "the pear has gone walkabout again, folks. Which room is it in?": the thing cannot be found, then the question
    (r"^((?:my|the|our)\s+[\w ]{2,30}?)\s+(?:has|have|'s)\s+(?:gone\s+)?(?:awol|missing|walkabout|disappeared|vanished|wandered\s+off)\b"
     r"(?:\s+again)?(?=\s*[,.!][^?]*\?)(?![^?]*\bwhere\s+(?:is|are)\s+(?:it|they))", r"I can't find \1"),
    # "I set it down somewhere. Couldn't tell you where.": where did I put it
    (r"(?:^|(?<=[.!?]\s))(?:i\s+)?(?:couldn't|could\s+not|can't|cannot)\s+(?:tell\s+you|say|remember)\s+where\s*[.!]*\s*$",
     "Where did I put it?"),
    # a feeling said after the question ("..., it's some frustrating"), a musing ("..., I wonder?"), an address
    (r"\s*,\s*(?:it'?s|that'?s|this\s+is)\s+(?:so\s+|some\s+|really\s+|very\s+|pretty\s+|quite\s+|wicked\s+|proper\s+)?"
     r"(?:frustrating|annoying|irritating|maddening|infuriating)\s*[.!]*\s*$", ""),
    (r"\s*,\s*I\s+wonder\s*(?=[?.!]*\s*$)", ""),
    # why a thing is to be moved, said after the command ("put the milk away, it's cluttering up my worktop")
    (r"^((?:please\s+)?(?:put|move|take|clear|tidy)\b[^,]{2,60}?)\s*,\s*(?:it'?s|they'?re|it\s+is|they\s+are)\s+(?:cluttering|taking\s+up|"
     r"messing\s+up|in\s+(?:the|my)\s+way|getting\s+in\s+(?:the|my)\s+way|blocking)\b[^.!?]*[.!]*\s*$", r"\1."),
    (r"\s*,\s*(?:b'y|me\s+son|my\s+son|me\s+duck)\s*(?=[?.!]*\s*$)", ""),
    # a system administrator's words for the questions ("return the room for X", "get the color attribute of X")
    (r"^(?:get|return|query|show|fetch)\s+(?:the\s+)?(colou?r|size|material|shape)(?:\s+(?:attribute|property|value|field))?\s+(?:of|for)\s+",
     r"what \1 is "),
    (r"^(?:get|return|query|show)\s+(?:the\s+)?room\s+(?:of|for)\s+(.+?)\s*[.?!]*$", r"which room is \1 in?"),
    (r"^(?:dump|show|print|display|give\s+me)\s+(?:your|the)\s+(?:action\s+|activity\s+|event\s+)?(?:log|history)\b", "what did you do"),
    (r"^deploy\s+(?:to\s+)?(?=(?:retrieve|fetch|get|bring|go|find|put|open|close)\b)", ""),
    (r"^(?:route|transfer)\s+(?=(?:the|my|a|an|this|that)\b)", "take "),
    (r"\bis\s+adjacent\s+to\b", "is next to"), (r"\s+instance\b(?=\s+(?:in|on|next|by|beside|near)\b)", ""),
    # a dramatic speaker's rooms ("in which chamber of this labyrinth does the lime now reside?")
    (r"\bchamber\b", "room"), (r"\s+of\s+this\s+(?:labyrinth|house|place|palace|castle|maze|madhouse)\b", ""),
    (r"\b(?:does|do)\s+(.{2,40}?)\s+(?:now\s+)?(?:reside|dwell)\b", r"is \1"),
    # the question asked again after a dash ("where does the milk go -- where do we keep it?")
    (r"\s*(?:--|—|-)\s*where\s+do\s+(?:we|you|i)\s+(?:keep|put|store)\s+(?:it|them)\s*\?", "?"),
    # "The radio! And the loo roll! Bring me both": the things first, then the fetch
    (r"^(the\s+[\w ]{2,30}?)\s*!\s*and\s+(the\s+[\w ]{2,30}?)\s*!\s*bring\s+(?:me\s+)?(?:both|them)(?:\s+of\s+them)?\b", r"bring me \1 and \2"),
    # a question word said twice ("When, oh when, did you ...")
    (r"^(when|where|what|which|how|why)\s*,?\s*(?:oh\s+)?\1\s*,\s*", r"\1 "),
)

# Nigerian English and Pidgin: "abeg" / "biko" (please), "o" / "sef" / "jare" (emphasis), "where e dey?"
_NIGERIAN = _rules(
    # "take the radio reach Anna": bring it to her; "pack X put for where e suppose dey": put it away
    (r"\btake\s+(.{2,40}?)\s+reach\s+", r"bring \1 to "),
    (r"\bpack\s+(.{2,40}?)\s+(?:put\s+)?for\s+where\s+(?:e|it)\s+suppose\s+(?:dey|be|to\s+be)\b", r"put \1 away"),
    (r"^(?:(?:the|my)\s+[\w ]{2,30}?)\s+dey\s+(?=(?:open|closed|on|off|locked|full|empty)\b)",
     lambda m: f"is {m.group(0)[:m.group(0).lower().rindex(' dey')]} "),
    (r"^(?:you|u)\s+don\s+(?:see|find|seen)\s+", "have you seen "),
    (r"^(?:abeg|biko|ehen|ehn|oya|na\s+so)\b\s*[,!.]?\s*", ""),
    (r"\s*,?\s+(?:abeg|biko)\b", " please"),
    (r"\s+(?:sef|jare|o|oo|shey)\s*(?=[?.!,]*\s*$)", ""),  # "where is my mug sef?", "bring am o"
    (r"\s+sef\b", ""),
    (r"^how\s+far\s*[,!.?]?\s+(?=\w)", ""),  # a greeting before the request
    (r"\bwhere\s+(?:e|it|im)\s+dey\s*(?=\?)", "where is it"),
    (r"\bbring\s+am\b", "bring it"), (r"\bcarry\s+am\b", "carry it"),
    # West African Pidgin (Nigeria, Cameroon, Ghana): "weti" (what), "dey" (is, is at), "bin dey"
    # (was), "dem move" (they moved), "no fit" (cannot), serial verbs of carrying ("carry X go put for Y": put it
    # in Y; "carry X come give me": bring it to me)
    # ("which side" is English too, "which side of the bed is it on?": a where only with "dey" after it; "wusai" is
    # left to the reader: read as "where", one writer's aside half had six more wrong answers, found by its totals)
    (r"\b(?:wetin|which)\s+side\b(?=\s+(?:[\w-]+\s+){0,4}?dey\b)", "where"),
    (r"\bweti(?:n)?\s+be\b", "what is"), (r"\bweti(?:n)?\b", "what"),
    (r"\bwhere\s+(?:e|it|im)\s+(?:bin|been)\s+dey\b", "where was it"),
    # "bin" / "been" before "dey" is its past: "where the mug bin dey before?" asks where it was
    (r"^where\s+((?:the|my|your|our|that|dat)\s+[\w ]{2,30}?)\s+(?:bin|been|ben)\s+dey\b", r"where was \1"),
    (r"\b((?:the|my|your|our|that|dat)\s+[\w ]{2,30}?)\s+(?:bin|been)\s+dey\b", r"\1 was"),
    (r"^where\s+((?:the|my|your|our|that|dat)\s+[\w ]{2,30}?)(?<!\bsuppose)(?<!\bsupposed)\s+dey\s*(?=[?.!]*\s*$)", r"where is \1"),
    (r"\bdem\s+(?:don\s+)?(move|take|carry|shift)\b", lambda m: f"they {'took' if m.group(1).lower() == 'take' else m.group(1) + 'ed'}"),
    (r"^((?:the|my|your|our|that|dat)\s+[\w ]{2,30}?)\s+dey\s+(?:for|inside|in)\s+(?=(?:the|this|that|my|our)\b)", r"is \1 in "),
    (r"^([a-z][\w ]{1,30}?)\s+dey\s+(?:for|inside|in)\s+(?=(?:the|this|that|my|our)\b)", r"are there any \1 in "),
    (r"^we\s+get\s+(.{2,30}?)\s+(?:for|in)\s+(?:this|the|our)\s+(?:house|home|place)\s*(?=\?)", r"do we have \1"),
    (r"\bcarry\s+(.{2,40}?)\s+go\s+put\s+(?:am\s+)?(?:for|inside|in|on|for\s+top\s+of)\s+", r"put \1 in "),
    (r"\bcarry\s+(.{2,60}?)\s+come\s+give\s+(?=\w)", r"carry \1 to "),
    (r"\b(?:I|i)\s+no\s+fit\b", "I can't"), (r"^na\s+wa(?:\s+o)?\s*[,!.]*\s*", ""),
    (r"\b(?:e|it)\s+don\s+(?:loss|lost)\b", "it is lost"),
    # "he don dey ask for am": he has been asking for it (a remark after the request)
    (r"\s*,?\s*\b(?:he|she|e|dem|they)\s+don\s+dey\s+(?:ask|look|find|beg)\s+(?:for\s+)?(?:am|it)\b\s*", ". "),
)

# Hawai'i Pidgin: "da" (the), "wea" (where), "wen" before a verb (its past), "'um" (it), "an'" (and), "brah"
_HAWAII = _rules(
    (r"\bda\s+(?=[a-z])(?!(?:is|was|are|one|kine)\b)", "the "), (r"\bwea\b", "where"), (r"\ban'(?=\s)", "and"),
    (r"\bwen\s+(move|put|take|leave|shift|carry)\b", lambda m: {"take": "took", "leave": "left", "put": "put"}.get(
        m.group(1).lower(), m.group(1) + "d" if m.group(1).lower().endswith("e") else m.group(1) + "ed")),
    (r"(?<=\w)\s+'um\b", " it"), (r"\s*,?\s*(?:k\s+)?(?:brah|bruddah|braddah)\b\s*(?=[?.!,]*\s*$)", ""),
    (r"\bova\b", "over"), (r"\bhea\b", "here"), (r"\bfo'(?=\s)(?!\s+(?:eat|read|drink|sit|sleep|wipe)\b)", "for"), (r"\bwhere\s+stay\b", "where is"),
    (r"^(?:shoots|eh)\s*,?\s*", ""), (r"(?:(?<=\bhea\s)|(?<=\bhere\s)|(?<=\bdea\s)|(?<=\bthere\s)|(?<=\bit\s))den\b", "then"), (r"\s*,\s*k\s*(?=[?.!]*\s*$)", ""),
    (r"^try\s+(?=(?:bring|take|get|put|open|close|find|go|carry)\b)", ""),
    (r"^((?:the|my)\s+[\w ]{2,30}?)\s+stay\s+(locked|open|closed|shut|on|off)\b", r"is \1 \2"), (r"\bo\s+wh?at\b", "or what"),
    (r"\bgo\s+over\s+(?=the\b)", "go over to "), (r"\bany(?:ting|tin)\b", "anything"), (r"\bsome(?:ting|tin)\b", "something"),
    (r"\bfo'\s+(?=(?:eat|read|drink|sit|sleep|wipe)\b)", "to "),
)

# A pirate's talk, as people joke with a robot ("Shiver me timbers, me mug has sailed off", "Be the fridge open,
# matey?", "Fetch me the remote, ye scurvy dog, and be quick about it!"); "me" for "my" is also Irish and Northern
_PIRATE = _rules(
    (r"^(?:shiver\s+me\s+timbers|arr+|ahoy|avast|yo\s+ho(?:\s+ho)?|blimey)\b\s*[,!.]*\s*", ""),
    (r"\s*,?\s*\b(?:ye|you)\s+(?:scurvy\s+dog|scallywag|landlubber|bilge\s+rat)s?\b", ""),
    (r"\s*,\s*(?:matey|me\s+hearty|bucko)\b", ""), (r"\s*,?\s*and\s+be\s+quick\s+about\s+it\b", ""),
    (r"\bhas\s+sailed\s+off(?:\s+without\s+me)?\b", "has gone"),
    (r"^be\s+(the|that|this|my|yer|your)\s+(?=[a-z])", r"is \1 "), (r"^be\s+there\b", "are there"),
    (r"\bwhere\s+be\b", "where is"), (r"\bwhich\s+o'\s+the\b", "which of the"),
    (r"\bbe\s+sittin'?\s+(?=(?:next|on|in|by|beside|near)\b)", "is "), (r"\b(that|which|it)\s+be\s+(?=(?:mine|yours|his|hers|ours|theirs)\b)", r"\1 is "),
    (r"\s*,?\s*\b(?:ye|you)\s+(?:swab|scallywag|landlubber)s?\b", ""), (r"\byer\b", "your"),
    (r"\bbattened\s+down\s+(?:good\s+(?:an'|and)\s+|tight\s+(?:an'|and)\s+)?", ""), (r"\blocked\s+up\s+tight\b", "locked"),
    # "me" for "my" before a name the sentence then says something of ("me radio has gone", "where's me keys?",
    # "have you seen me glasses anywhere"), never after a verb that takes "me" ("leave me alone", "bring me X")
    (r"(?:^|(?<=\bwhere's\s)|(?<=\bwhere\sis\s)|(?<=\bwhere\sare\s)|(?<=\blost\s)|(?<=\bseen\s)|(?<=\bon\s)|(?<=,\s))me\s+"
     r"(?!(?:the|a|an|my|your|some|any|it|them|that|this|too|please|now|and|or|up|down|in|on|out|back|over|here|there|"
     r"one|both|something|anything|to|for|alone|again|off|away|know|see|think)\b)"
     r"(?=[a-z]+(?:\s+[a-z]+)?\s*(?:[?.!,]|$|\s+(?:has|have|is|was|an'|and|anywhere|somewhere|around|about|nowhere)\b))", "my "),
)

# Cornish "'ee" (you after a verb, it or he before "in"), "'n" (it)
_CORNISH = _rules(
    (r"\b(have|did|would|could|can|will|do|are)\s+'ee\b", r"\1 you"), (r"(?<=\w)(?:'s)?\s+'ee\s+(?=in\b)", " is it "),
    (r"\s+'n(?=\s+(?:then|now|please)\b|\s*[.,!?]|\s*$)", " it"),
    (r"\s*,?\s*\bmy\s+'?ansum\b", ""), (r"\bdo\s+'ee\s+know\b", "do you know"),
)

# Scots: verbs and adverbs the shortcuts in ``normalise`` do not cover ("pit it back", "is there e'er a ...")
_SCOTS = _rules(
    # Northern English reduces "the" to "t'" against the noun ("where's t'remote?", "put it on t'settee")
    (r"(?:^|(?<=[\s(]))t'(?=[a-z])", "the "),
    (r"\b(did|do|have|can|could|will|would)\s+tha\s+(?=[a-z])", r"\1 you "),  # "did tha see it?": thou
    (r"\bgan\b", "go"), (r"\bganning\b", "going"),  # Geordie: "where does it gan?", "gan through to the kitchen"
    # "get thissen over to t'stove", "get yourself over to the fridge": go there
    (r"\bget\s+(?:thissen|thysen|yourself|yerself|y'self|yersel)\s+(?:over\s+|round\s+|across\s+)?(?=to\b)", "go "),
    (r"(?:^|(?<=[\s,]))[Yy]e(?=\s+(?:haven't|have|had|seen|see|saw|know|want|put|left|can|could|will|would|did|do|are|were|got)\b|\s*[,?])",
     "you"),  # Irish, Scots and Northern "ye": you ("ye haven't seen it, have ye?")
    (r"\bgonnae\s+(?=[a-z])", "will you "),  # Glaswegian "gonnae get us the radio?" (going to)
    # Boston and other non-rhotic spellings of the words a request needs ("head ovah to the stove")
    (r"\bovah\b", "over"), (r"\bheah\b", "here"), (r"\btheah\b", "there"), (r"\bwheah\b", "where"),
    (r"\bpit\s+(?=(?:it|them|the|that|this|my|yer|your|oor|our)\b)", "put "),
    (r"\bpit\s+(?=(?:back|doon|down|away)\b)", "put "),
    (r"\s+e'er\s+", " "), (r"\bwhit\b", "what"), (r"\bcannae\b", "can't"), (r"\bwee\s+", ""),
    # Aberdeen Doric: "foo mony" (how many), "fit" (what) and "far" (where) opening a question, "dee" (do),
    # "efter" (after), "ben the" (through to the)
    (r"\bfoo\s+m[ao]ny\b", "how many"), (r"\bfoo\s+(?=(?:is|are|was|did|do|does)\b)", "how "),
    (r"(?:^|(?<=[.!?,]\s))fit(?=\s+(?:did|is|was|are|were|does|do|colou?r|like|'s)\b|'s\b)", "what"),
    (r"(?:^|(?<=[.!?,]\s))far(?=\s+(?:is|was|are|were|did|does|do|has|have|can|could|should|will|would|shall)\b|'s\b|'d\b)", "where"),
    (r"^fit\s+(?=[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|'s)\s+(?:mine|yours|his|hers|ours|next|on|in|beside|by|closest|nearest)\b)", "which "),
    (r"\bawa\s+far\s+(?:it|they)\s+(?:bides|bide|belongs?|gangs?|goes)\b", "away"), (r"\bawa\b", "away"),
    (r"\bfar\s+(it|they)\s+(?:bides|bide)\b", r"where \1 belongs"), (r"\bonywye\b", "anywhere"), (r"\bonywhere\b", "anywhere"),
    (r"\bma\s+(?=(?:[a-z]+\s+){0,2}?(?:onywye|anywhere|is|was|\?))", "my "), (r"\byon\s+(?=[a-z])", "the "),
    (r"\blyin'?\s+(?=(?:open|shut|closed)\b)", ""), (r"\bg(?:y)?ang\s+ben\s+(?=the\b)", "go to "),
    (r"\bdee\b", "do"), (r"\befter\b", "after"), 
    (r"(?<=\ban\s)fit(?=\s+(?:colou?r|is|did|was)\b)", "what"), (r"^an\s+(?=what\b)", "and "),
    (r"\bhiv\b", "have"), (r"\bony\b", "any"), (r"\bfess\b", "fetch"), (r"\bwid\s+(?=(?:ye|you)\b)", "would "),
    (r"\btak\s+(?=(?:the|it|that|this|my|yer|your)\b)", "take "),
    (r"\ban\s+(?=(?:fess|fetch|bring|gie|give|put|pit|take|tak)\b)", "and "),
    (r"\bthe\s+now\s*(?=[?.!,]*\s*$)", "now"), (r"^(?:och|aye|ach)\b\s*[,!.]?\s*", ""),
    # Ulster and Scots "away and get it" (go and get it), "away into the kitchen" (go into it)
    (r"^(?:now\s+|right\s+)?away\s+(?:and|an'|n')\s+(?=[a-z])", "go and "),
    (r"^(?:now\s+|right\s+)?away\s+(?=(?:into|in\s+to|to|through|up|down|over|out)\s+(?:the|my|your|our)\b)", "go "),
)

# French speakers' false friends around a task: "pose" (poser, to put down), "range" (ranger, to put away)
_FRENCH_LEARNER = _rules(
    # "please to go in the bedroom", "I ask you please to close the fridge": an infinitive after "please", as
    # Romance and Slavic learners say it
    (r"\bplease\s+to\s+(?=[a-z]+\b)", "please "),
    (r"\bpose\s+(?=(?:it|them|the|my|your|this|that)\b[^.?!]{0,40}\b(?:on|in|into|onto|inside|on\s+top\s+of)\b)", "put "),
    (r"\brange\s+((?:it|them|the|my|your|this|that)\b[^.?!]{0,40}?)\s+(?:at|in|to)\s+(?:its|their|his|her)\s+place\b",
     r"put away \1"),
)

# Code-switching: a question or a request opened in Spanish, Hindi-Urdu or Tagalog around English names
# ("¿Dónde está the keyboard?", "Abre the microwave, por favor", "pear kis kamre mein hai?", "Hanapin mo ang
# mouse"): their commonest openers and function words, as the English ones
_CODE_SWITCH = _rules(
    (r"¿\s*", ""), (r"¡\s*", ""),
    (r"^d[oó]nde\s+est[aá]n?\s+", "where is "), (r"^qu[eé]\s+hay\s+", "what is "),
    (r"^de\s+qu[eé]\s+colou?r\s+es\s+", "what colour is "), (r"^y\s+de\s+qu[eé]\s+colou?r\b[^?/]*", "what colour is it"),
    (r"^(?:abre|abr[ií]|[aá]brelo|[aá]brela)\s+", "open "), (r"^(?:cierra|cerr[aá]|ci[eé]rralo|ci[eé]rrala)\s+", "close "),
    (r"^(?:tr[aá]eme|tr[aá]igame|trae)\s+", "bring me "), (r"^(?:busca|b[uú]scame)\s+", "find "),
    (r"\s*,?\s*por\s+favor\b", ", please"),
    (r"^(?:mera\s+|meri\s+)?([\w ]{2,30}?)\s+kis\s+kamre\s+mein\s+hai\s*\?*", r"which room is the \1 in?"),
    (r"^(?:mera\s+|meri\s+)?([\w ]{2,30}?)\s+kahan\s+hai\s*\?*", r"where is the \1?"),
    (r"^wapas\s+rakh\s+do\s+", "put back "), (r"\s*,?\s*jahan\s+pehle\s+tha\b", ""),
    (r"^(?:arre|arey|are\s+yaar|acha|accha|haan|yaar)\b\s*[,!.]?\s*", ""), (r"\s*,\s*(?:tell\s+me\s+)?na\s*(?=[?.!]*\s*$)", ""),
    # Cantonese around English names ("the keyboard hai bin dou ah?", "hoi zo mei?", "m goi", "Anna ge glass")
    (r"^(?:eh\s*,?\s*)?(?:robot\s*,\s*)?((?:the|my)\s+[\w ]{2,30}?)\s+hai\s+bin\s+gaan\s+fong\b[^?]*\??", r"which room is \1 in?"),
    (r"^(?:eh\s*,?\s*)?(?:robot\s*,\s*)?((?:the|my)\s+[\w ]{2,30}?)\s+hai\s+bin\s*(?:dou|度)\b[^?]*\??", r"where is \1?"),
    (r"^((?:the|my)\s+[\w ]{2,30}?)\s+hoi\s+(?:zo|jo)\s+mei\b[^?]*\??", r"is \1 open?"),
    (r"\s*,?\s*m\s*goi(?:\s+sai)?\b", ""), (r"\b([A-Z][a-z]+)\s+ge\s+(?=[a-z])", r"\1's "),
    (r"^([A-Z]?[a-z]+)\s+ne\s+kya\s+kiya\s+", r"what did \1 do "),
    (r"^(?:y\s+)?qu[eé]\s+hizo\s+([A-Za-z]+)\s+despu[eé]s\s+de\s+", r"what did \1 do after "),
    (r"^(?:oye\s*,?\s*)?cu[aá]nt[oa]s\s+(.{2,30}?)\s+hay\s+(?=(?:in|on|en)\b)", r"how many \1 are "),
    (r"^(?:oye\s*,?\s*)?hay\s+(.{2,40}?)\s+(?=(?:in|on|en)\s)", r"are there \1 "),
    (r"^se\s+puede\s+abrir\s+(.{2,40}?)\s*\?", r"can \1 be opened?"),
    (r"^s[aá]came\s+(.{2,40}?)\s+del\s+", r"take \1 out of the "), (r"\s*,?\s*por\s+fa\b", ", please"),
    (r"^pon\s+(?=(?:the|my|it|el|la)\b)", "put "), (r"\bback\s+donde\s+estaba\b", "back where it was"),
    (r"^[aá]ndale\s*,?\s*", ""),
    (r"\s+kya\s*(?=\?)", ""),
    (r"^(?:yaar\s*,?\s*)?bahut\s+(?:pyaas|pyas)\s+lagi\s+hai\b", "I'm thirsty"),
    (r"^(?:yaar\s*,?\s*)?bahut\s+bhook\s+lagi\s+hai\b", "I'm hungry"),
    (r"^((?:the|my)\s+[\w ]{2,30}?)\s+wapas\s+(?:wahi|wahin|wapas)?\s*rakh\s+do(?:\s+jahan\s+pehle\s+tha)?\b", r"put \1 back"),
    (r"^(?:the\s+)?([\w ]{2,20}?)\s+se\s+((?:the|my)\s+[\w ]{2,30}?)\s+nikaal\s+(?:ke\s+do|do)\b", r"take \2 out of the \1 for me"),
    (r"^(?:ay\s+no\s*,?\s*)", ""),
    (r"^cu[aá]ndo\s+fue\s+la\s+([uú]ltima|primera)\s+vez\s+que\s+(?:viste|vio)\s+",
     lambda m: f"when did you {'first' if m.group(1).lower() == 'primera' else 'last'} see "),
    (r"^d[oó]nde\s+estaba\s+(.{2,40}?)\s+antes\b", r"where was \1 before"),
    (r"^d[eé]jame\s+(?=(?:the|my|it|el|la)\b)", "put "), (r"\s*,?\s*¿?\s*s[ií]\s*\?\s*$", "."),
    (r"\bal\s+lado\s+del?\s+(?:la\s+)?", "next to the "), (r"^ve\s+a\s+buscar\s+", "find "), (r"\s*por\s+ning[uú]n\s+lado\b", " anywhere"),
    (r"\s*[.?!]?\s*me\s+ayudas\s*\??\s*$", "."), (r"\s*,?\s*[aá]ndale\b", ""),
    # Hindi-Urdu around English names ("radio ka colour kya hai?", "the mug le aao", "A aur B, dono le aao",
    # "the juice dhoondo", "tumne the radio dekha kya?", "fridge khula hai kya?", "the toy ko bathroom mein le jao")
    (r"^(?:mera\s+|meri\s+)?(?:the\s+)?([\w ]{2,30}?)\s+ka\s+colou?r\s+kya\s+hai\b\s*\?*", r"what colour is the \1?"),
    (r"^(?:the\s+)?([\w ]{2,30}?)\s+aur\s+(?:the\s+)?([\w ]{2,30}?)\s*,?\s+dono\s+le\s+a+o\b", r"bring me the \1 and the \2"),
    (r"^(?:zara\s+)?((?:the|my)\s+[\w ]{2,30}?)\s+le\s+a+o(?:\s+na)?\b", r"bring me \1"),
    (r"^(?:jao\s*,?\s*)?((?:the|my)\s+[\w ]{2,30}?)\s+(?:dhoondo|dhundo|dhoondh\s+do|dhoond\s+ke\s+lao)\b", r"find \1"),
    (r"^(?:kya\s+)?(?:tumne|aapne)\s+(?:(?:mera|meri|mere)\s+)?((?:the|my)\s+[\w ]{2,30}?)\s+dekha(?:\s+kya)?\s*\?*", r"have you seen \1?"),
    (r"^(?:kya\s+)?(?:tumne|aapne)\s+(?:mera|meri|mere)\s+([\w ]{2,30}?)\s+dekha(?:\s+kya)?\s*\?*", r"have you seen my \1?"),
    (r"^(?:the\s+)?([\w ]{2,30}?)\s+khula\s+hai(?:\s+kya)?\s*\?*", r"is the \1 open?"),
    (r"^(?:toh\s+)?band\s+kar\s+do(?:\s+na)?\s*,?\s*", ""),
    (r"\bwhich\s+room\s+mein\s+hai\s+(?:woh|wo|vo|ye|yeh)\b", "which room is it in"),
    (r"^ghar\s+mein\s+koi\s+(.{2,30}?)\s+hai\s*\?*", r"do we have a \1?"),
    (r"^(?:yaar\s*,?\s*)?(?:the\s+)?([\w ]{2,30}?)\s+ko\s+(?:the\s+)?([\w ]{2,20}?)\s+mein\s+le\s+jao\b", r"take the \1 to the \2"),
    (r"\baur\b", "and"), (r"^jao\s*,?\s*", ""),
    (r"^tenemos\s+", "do we have any "), (r"\ben\s+(?:la|el)\s+casa\b", "in the house"),
    (r"\ben\s+(?:la|el)\s+(?=(?:kitchen|bedroom|bathroom|living\s+room|lounge|house|table|counter|fridge|sofa)\b)", "in the "),
    # Hindi-Urdu: "kab dekha (tha)" (when seen), "kitne" (how many)
    (r"^pehli\s+baar\s+(?:mera\s+|meri\s+)?(?:the\s+)?([\w ]{2,30}?)\s+kab\s+dekha(?:\s+tha)?(?:\s+tumne)?\b[^?]*\?*",
     r"when did you first see the \1?"),
    (r"^(?:mera\s+|meri\s+)?([\w ]{2,30}?)\s+(?:last\s+time\s+)?kab\s+dekha(?:\s+tha)?(?:\s+tumne)?\b[^?]*\?*", r"when did you last see the \1?"),
    (r"^(?:the\s+)?([\w ]{2,30}?)\s+pehle\s+kahan\s+tha\b\s*\?*", r"where was the \1 before?"),
    (r"^((?:the|my)\s+[\w ]{2,30}?)\s+(?:the\s+)?([\w ]{2,20}?)\s+(pe|par|mein)\s+rakh\s+do\b",
     lambda m: f"put {m.group(1)} {'in' if m.group(3).lower() == 'mein' else 'on'} the {m.group(2)}"),
    (r"\bkaun\s+sa\b", "which"), (r"^kaun\s+si\b", "which"),
    (r"^((?:in|on|inside)\s+(?:the\s+)?[\w ]{2,30}?)\s+kya\s+(?:kya\s+)?hai\b\s*\?*", r"what is \1?"),
    (r"^kitne\s+", "how many "),
    (r"^nasaan\s+(?:ang|na\s+ang)\s+", "where is the "), (r"^hanapin\s+mo\s+(?:ang|yung)\s+", "find the "),
    (r"^(?:paki(?:kuha|abot|dala)(?:\s+naman)?)\s+(?:ng|ang|yung)\s+", "bring me the "),
)

# Radio procedure, as people who work with radios talk to a robot ("Robot, this is Anna. Request location of
# keyboard, over."): the call sign and the acknowledgements carry no request; "request" and "report" open one
_RADIO = _rules(
    (r"^(?:(?:robot|unit|base|control|vega|g1)\s*,\s*)?this\s+is\s+[A-Za-z]+(?:\s+(?:speaking|calling|here))?\s*[.,!:;]\s*", ""),
    # the station called, then who calls ("Robot, Anna, say ...", "Home unit, Anna here, ...", "Robot, Ben. Retrieve
    # ..."): the caller's name is no part of the request (a name alone: "Robot, the mug, where is it" keeps the mug)
    (r"^(?:(?:home\s+|base\s+)?(?:robot|unit|base|control|station)\s*,\s*)(?-i:[A-Z][a-z]+)(?:\s+here)?\s*[.,!:;]\s*(?=\w)", ""),
    # "any sighting of the keyboard?", "have you had eyes on the juice?": whether it was seen
    (r"^(?:any|had\s+any)\s+sightings?\s+of\s+", "have you seen "),
    (r"\bhave\s+you\s+(?:had|got|kept|laid|set|clapped)\s+eyes\s+on\s+", "have you seen "),
    (r"\b(?:clap|clapped|lay|laid|set)\s+eyes\s+on\s+", "see "),
    (r"\byour\s+eyes\s+(first|last)\s+(?:fall|fell|land|landed|rest|rested)\s+(?:up)?on\s+", r"you \1 see "),
    # "say number of bowls in the kitchen", "say colour of the mouse", "confirm hair gels present in the kitchen":
    # radio verbs for asking
    (r"^(?:say|give|report|state)\s+(?:me\s+)?(?:the\s+)?(?:number|count)\s+of\s+", "how many "),
    (r"^(?:say|give|report|state)\s+(?:me\s+)?(?:the\s+)?colou?r\s+of\s+", "what colour is "),
    (r"^(?:say|give|report|state)\s+(?:me\s+)?(?:the\s+)?(?:current\s+|present\s+|last\s+known\s+)?"
     r"(?:location|position|whereabouts)\s+of\s+", "where is "),
    (r"^confirm\s*:?\s+(?:any\s+|that\s+there\s+are\s+)?(.+?)\s+(?:are\s+)?present\s+(in|on|inside)\s+(.+?)\s*"
     r"(?:[,.]\s*(?:affirm(?:ative)?\s+or\s+negative|yes\s+or\s+no)\b)?\s*[.?!]*$", r"are there any \1 \2 \3?"),
    (r"\s*[,.]\s*affirm(?:ative)?\s+or\s+negative\s*[.?!]*\s*$", "?"),
    (r"^(?:copy(?:\s+that)?|roger(?:\s+that)?|affirm(?:ative)?|wilco|understood|received)\s*[.,!]\s*(?=\w)", ""),
    (r"^(?:(?:now|then|next)\s+)?(?:request(?:ing)?|report)\s+(?:the\s+)?(?:current\s+|present\s+|last\s+known\s+)?"
     r"(?:location|position|whereabouts)\s+of\s+", "where is "),
    (r"^(?:(?:now|then|next)\s+)?(?:request(?:ing)?|report)\s+(?:the\s+)?(?:time\s+of\s+)?(?:last|latest|most\s+recent)\s+"
     r"(?:sighting|visual|contact)\s+(?:of|on|with)\s+(?:the\s+)?(.+?)\s*(?:,\s*over(?:\s+and\s+out)?)?\s*([.?!]*)$",
     r"when did you last see the \1?"),
    # "time of last sighting of the mug?", "say time of first sighting", "what's the timestamp of your most recent
    # observation of the mug?"
    (r"^(?:(?:say|give|state|report)\s+(?:me\s+)?|what(?:'s|\s+is|\s+was)\s+)?(?:the\s+)?(?:time(?:stamp)?|hour)\s+of\s+"
     r"(?:your\s+|the\s+)?(last|latest|most\s+recent|first|earliest)\s+(?:sighting|observation|glimpse|visual)\s+(?:of|on)\s+",
     lambda m: f"when did you {'first' if m.group(1).lower() in ('first', 'earliest') else 'last'} see "),
    (r"(?:^|(?<=[.!,]\s))(?:say|give\s+me|report|state)\s+(?:its|their)\s+(?:current\s+|last\s+known\s+|present\s+)?"
     r"(?:location|position|whereabouts)\b", "where is it"),
    # radio speech drops articles: "which room radio is in"
    (r"^(?:request(?:ing)?\s+|report\s+|tell\s+me\s+)?which\s+room\s+(?!(?:the|my|your|our|a|an|his|her|is|are)\b)"
     r"([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s+(?:is|are)\s+in\b", r"which room is the \1 in"),
    (r"^(?:i\s+am\s+|am\s+)?(?:unable\s+to\s+(?:locate|find)|negative\s+(?:contact|visual|joy)\s+(?:on|with))\s+", "I can't find "),
    (r"(?:^|(?<=[.!,]\s))(?:request(?:ing)?|report)\s+(?:its|their)\s+(?:current\s+)?(?:location|position|whereabouts)\b",
     "where is it"),
    (r"^(?:request(?:ing)?|report)\s+(?:the\s+)?(?:assigned|designated|proper|correct|usual|normal)\s+(?:storage\s+)?"
     r"(?:location|place|position|spot)\s+(?:for|of)\s+(.+?)\s*(?:,\s*over(?:\s+and\s+out)?)?\s*[.?!]*$", r"where does \1 go?"),
    (r"^(?:identify|designate|specify|report)\s+(?:the\s+)?(.+?)\s+(?:located|situated|positioned|sitting|lying|placed)\s+"
     r"(on|in|inside|next\s+to|adjacent\s+to|by|near|beside|under)\s+(.+?)\s*(?:,\s*over(?:\s+and\s+out)?)?\s*[.?!]*$",
     lambda m: f"which {m.group(1)} is {'next to' if m.group(2).lower().startswith('adjacent') else m.group(2)} {m.group(3)}?"),
    (r"^(?:(?:now|then|next)\s+)?(?:request(?:ing)?|report)\s+(?=(?:which|where|what|whether|if|how|when|who|the|status|"
     r"colou?r|count|number)\b)", "tell me "),
)

# A possessive said as a name and a pronoun ("Anna her glass", Afrikaans and Dutch "Anna se glas", Singlish):
# only at the start, where no verb can take the name as its person ("give Anna her glass" is left as said)
# Japanese honorifics on a name ("take it to Ben-san"): the name
_HONORIFIC = re.compile(r"(?-i:\b([A-Z][a-z]+))-(?:san|sama|kun|chan|sensei|ji|ssi|nim)\b")
_NAME_HER = re.compile(r"^([A-Z][a-z]+)\s+(?:her|his|se)\s+(?=[a-z])")


def standard_words(text: str) -> str:
    """``text`` with the closed-class words of other varieties of English written as the standard ones."""
    t = _NAME_HER.sub(r"\1's ", _HONORIFIC.sub(r"\1", text))
    for rules in (_GLOSS, _FORMAL, _CODE_SWITCH, _CARIBBEAN, _SINGLISH, _SOUTH_AFRICAN, _LITERARY, _NIGERIAN, _HAWAII, _PIRATE, _CORNISH, _SCOTS, _FRENCH_LEARNER,
                  _RADIO, _INTERNET, _TAGS_AND_REGISTERS, _WORD_ORDER_LEARNER):
        for pattern, repl in rules:
            t = pattern.sub(repl, t)
    return t
