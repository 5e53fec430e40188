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
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_Rule = tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]


def _rules(*pairs: tuple[str, Any], flags: int = re.I) -> tuple[_Rule, ...]:
    return tuple((re.compile(p, flags), r) for p, r in pairs)


# Caribbean English (Jamaican, Trinidadian): articles, prepositions and pronouns
_CARIBBEAN = _rules(
    # "de remote", "pon de table" ("where de radio dey?" is read whole by ``normalise``)
    (r"\bde\s+(?=[a-z])(?!(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:dey|deh|de)\b)", "the "),
    (r"\bfi\s+(?=me\b|mi\b|us\b|him\b|her\b|them\b)", "for "),  # "put it away fi me"
    (r"\bcaan\b", "can't"),
    # "me cyaan find it", "me nuh see it": "me" as the subject, before a verb group
    (r"^(?:(?:oh|ah|eh|well)\s*,?\s+)?me\s+(?=cyaan\b|can't\b|cannot\b|don't\b|didn't\b|nuh\b|nah\b|need\b|want\b|lost\b)",
     "I "),
    (r"\bnuh\s+(?=see|find|know|have|got)", "didn't "),
)

# Singapore and Malaysian English: sentence-final particles, "got ... or not?", "can?"
_SINGLISH = _rules(
    # "you got see the lime anot?": did you see it
    (r"^(?:you\s+)?got\s+(?:see|seen|spot|spotted|saw)\s+(.+?)\s*,?\s+(?:or\s+not|anot|not)\s*\?*\s*$",
     r"have you seen \1?"),
    # "got bookshelf in the living room or not?": is there one
    (r"^got\s+(?!to\b)(.+?)\s*,?\s+(?:or\s+not|anot)\s*\?*\s*$", r"is there \1?"),
    # particles that end a question or a request ("where ah?", "bring it lah", "can or not"), in any sentence
    (r"\s*,?\s+(?:ah|lah|leh|lor|hor|meh|sia)\s*(?=[?.!]+(?:\s|$)|\s*$)", ""),
    (r"\s*,?\s+anot\s*(?=[?.!]*\s*$)", ""),
    (r"^(?:eh|aiyo|aiyah|alamak|wah)\b\s*[,!.]?\s*", ""),
    # "take the toy and the milk come here": bring them
    (r"\btake\s+(.{2,60}?)\s+come\s+(?:here|over)\b", r"bring \1 here"),
    # "where is the magazine? Cannot see.": the subject left unsaid, after the question it explains
    (r"(?<=[?])\s+(?:i\s+)?(?:cannot|can't|cant|can\s+not)\s+(?:see|find)(?:\s+it)?\s*[.!]*\s*$", ""),
    # "the fridge close already or not?": whether it is closed now
    (r"^(?:the\s+)?((?:my\s+|your\s+|our\s+)?(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:is\s+)?(close|closed|shut|open|opened|on|off|"
     r"locked)\s+already(?:\s*,?\s+(?:or\s+not|anot|not|yet))?\s*\?*\s*$", lambda m: f"is {_the(m.group(1))} {m.group(2)}?"),
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
    (r"\s*,\s*where'?s\s+(?:its|it's|their)\s+(?:spawn(?:\s+point)?|respawn(?:\s+point)?|home\s+base)\s*\?*\s*$", "?"),
)

def _the(phrase: str) -> str:
    """"my mug" stays; "fridge" becomes "the fridge"."""
    return phrase if phrase.split()[0].lower() in ("my", "your", "our") else f"the {phrase}"


# Learners whose own language puts the question word or the verb last (Korean, Japanese, Turkish, Hindi):
# "remote color is what?", "bathroom, towels how many?", "next to radio, which bowl?", "toy bring to me please"
_THING = r"(?:the\s+)?((?:my\s+|your\s+|our\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"  # whose it is is kept
_WORD_ORDER_LEARNER = _rules(
    (r"^" + _THING + r"\s*,?\s+(colou?r|size|material|shape)\s+(?:is\s+)?what\s*\?*\s*$", r"what \2 is the \1?"),
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
     r"where\s+(?:i|to|can\s+i|should\s+i|do\s+i)\s+go\s*\?*\s*$", r"where can I \1\2?"),
    (r"^keep\s+(.{2,40}?)\s+back\b", r"put \1 back"),
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
)

# Scots: verbs and adverbs the shortcuts in ``normalise`` do not cover ("pit it back", "is there e'er a ...")
_SCOTS = _rules(
    (r"\bpit\s+(?=(?:it|them|the|that|this|my|yer|your|oor|our)\b)", "put "),
    (r"\bpit\s+(?=(?:back|doon|down|away)\b)", "put "),
    (r"\s+e'er\s+", " "), (r"\bwhit\b", "what"), (r"\bcannae\b", "can't"), (r"\bwee\s+", ""),
    (r"\bthe\s+now\s*(?=[?.!,]*\s*$)", "now"), (r"^(?:och|aye|ach)\b\s*[,!.]?\s*", ""),
)

# French speakers' false friends around a task: "pose" (poser, to put down), "range" (ranger, to put away)
_FRENCH_LEARNER = _rules(
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
    (r"^nasaan\s+(?:ang|na\s+ang)\s+", "where is the "), (r"^hanapin\s+mo\s+(?:ang|yung)\s+", "find the "),
    (r"^(?:paki(?:kuha|abot|dala)(?:\s+naman)?)\s+(?:ng|ang|yung)\s+", "bring me the "),
)

# Radio procedure, as people who work with radios talk to a robot ("Robot, this is Anna. Request location of
# keyboard, over."): the call sign and the acknowledgements carry no request; "request" and "report" open one
_RADIO = _rules(
    (r"^(?:(?:robot|unit|base|control|vega|g1)\s*,\s*)?this\s+is\s+[A-Za-z]+(?:\s+(?:speaking|calling|here))?\s*[.,!:;]\s*", ""),
    (r"^(?:copy(?:\s+that)?|roger(?:\s+that)?|affirm(?:ative)?|wilco|understood|received)\s*[.,!]\s*(?=\w)", ""),
    (r"^(?:(?:now|then|next)\s+)?(?:request(?:ing)?|report)\s+(?:the\s+)?(?:current\s+|present\s+|last\s+known\s+)?"
     r"(?:location|position|whereabouts)\s+of\s+", "where is "),
    (r"^(?:(?:now|then|next)\s+)?(?:request(?:ing)?|report)\s+(?:the\s+)?(?:time\s+of\s+)?(?:last|latest|most\s+recent)\s+"
     r"(?:sighting|visual|contact)\s+(?:of|on|with)\s+(?:the\s+)?(.+?)\s*(?:,\s*over(?:\s+and\s+out)?)?\s*([.?!]*)$",
     r"when did you last see the \1?"),
    # radio speech drops articles: "which room radio is in"
    (r"^(?:request(?:ing)?\s+|report\s+|tell\s+me\s+)?which\s+room\s+(?!(?:the|my|your|our|a|an|his|her|is|are)\b)"
     r"([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s+(?:is|are)\s+in\b", r"which room is the \1 in"),
    (r"^(?:i\s+am\s+|am\s+)?(?:unable\s+to\s+(?:locate|find)|negative\s+(?:contact|visual|joy)\s+(?:on|with))\s+", "I can't find "),
    (r"(?:^|(?<=[.!,]\s))(?:request(?:ing)?|report)\s+(?:its|their)\s+(?:current\s+)?(?:location|position|whereabouts)\b",
     "where is it"),
    (r"^(?:request(?:ing)?|report)\s+(?:the\s+)?(?:assigned|designated|proper|correct|usual|normal)\s+(?:storage\s+)?"
     r"(?:location|place|position|spot)\s+(?:for|of)\s+(.+?)\s*(?:,\s*over(?:\s+and\s+out)?)?\s*[.?!]*$", r"where does \1 go?"),
    (r"^(?:identify|designate|specify|report)\s+(?:the\s+)?(.+?)\s+(?:located|situated|positioned|sitting|lying|placed)\s+"
     r"(on|in|inside|next\s+to|by|near|beside|under)\s+(.+?)\s*(?:,\s*over(?:\s+and\s+out)?)?\s*[.?!]*$", r"which \1 is \2 \3?"),
    (r"^(?:(?:now|then|next)\s+)?(?:request(?:ing)?|report)\s+(?=(?:which|where|what|whether|if|how|when|who|the|status|"
     r"colou?r|count|number)\b)", "tell me "),
)

# A possessive said as a name and a pronoun ("Anna her glass", Afrikaans and Dutch "Anna se glas", Singlish):
# only at the start, where no verb can take the name as its person ("give Anna her glass" is left as said)
_NAME_HER = re.compile(r"^([A-Z][a-z]+)\s+(?:her|his|se)\s+(?=[a-z])")


def standard_words(text: str) -> str:
    """``text`` with the closed-class words of other varieties of English written as the standard ones."""
    t = _NAME_HER.sub(r"\1's ", text)
    for rules in (_CODE_SWITCH, _CARIBBEAN, _SINGLISH, _SOUTH_AFRICAN, _LITERARY, _NIGERIAN, _SCOTS, _FRENCH_LEARNER,
                  _RADIO, _INTERNET, _WORD_ORDER_LEARNER):
        for pattern, repl in rules:
            t = pattern.sub(repl, t)
    return t
