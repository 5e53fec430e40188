"""Spoken and typed text made readable for the parser: contractions and shortcuts the tokenizer does not split,
openers, fillers and politeness around a request, and the constructions the small tagger misreads (clefts,
"'s" for is / has, a time clause said first, a question word left in place). Each rule rewrites a grammatical
construction, never a word of a benchmark: nothing here names a thing.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.text import singular, singular_phrase
from ..core.wordnet import default_wordnet
from . import lexicon as lx
from .fragments import telegraphic
from .frames import FRAMES, with_article
from .dialects import standard_words
from .speech import dictation_fixes, edit_repairs, typing_fixes, without_symbols, word_searches


_SPACES = re.compile(r"\s+")
# words a clause cannot end on, before a pause (``_clause_ends``)
_NO_CLAUSE_END = frozenset({"did", "do", "does", "can", "could", "would", "will", "should", "have", "has", "had", "where",
                            "what", "when", "which", "how", "is", "are", "was", "were", "and", "but", "so", "then", "that",
                            "because", "if", "why", "who", "shall", "may", "must", "might", "the", "a", "an", "my", "to"})


def _clause_ends(m: re.Match) -> str:
    """A pause before a new clause with its own subject ends the sentence when what came before is a clause."""
    words = m.group(2).split()
    if len(words) >= 3 and words[-1].lower() not in _NO_CLAUSE_END:
        return f"{m.group(1)}{m.group(2)}. "
    return m.group(0)  # left to the pause rules after it


# Spoken shortcuts the tokenizer does not split ("where'd", "wanna"); standard English contractions it does.
_SHORTCUTS = (  # words to someone else between two pauses ("are there any mugs in the... sorry, go ahead, Raj... in the
              # kitchen?"): the sentence goes on where it broke off
              (re.compile(r"\s*(?:\.{2,}|\u2026)\s*(?:sorry|one\s+sec(?:ond)?|hang\s+on|hold\s+on|just\s+a\s+sec(?:ond)?)\s*,?\s*"
                          r"(?:go\s+(?:ahead|on)\s*,?\s*)?(?:[A-Z][a-z]+)?\s*(?:\.{2,}|\u2026)\s*(?=[a-z])"), ", "),
              # a pause inside one clause, before its verb or place or after a word that cannot end it ("which
              # room... is the radio... in", "the... um... radio", "put it... on the table"): said without the pause
              # (not before a restart: "how many bowls is there in the... are there in the kitchen")
              (re.compile(r"\b(the|a|an|my|your|our|which\s+room|what\s+colou?r)\s*(?:\.{2,}|\u2026)\s*(?:(?:um+|uh+|er+|erm+)\s*"
                          r"(?:\.{2,}|\u2026|,)\s*)?(?=[a-z])(?!(?:is|are|was|were|there|i|you|it|we|he|she|they|what|where|which|"
                          r"how|do|does|did|can|could|no|not|sorry|wait|in|on|at)\b)", re.I), r"\1 "),
              (re.compile(r"(?<=[a-z])(?<!\bthe)(?<!\ba)(?<!\ban)(?<!\bmy)\s*(?:\.{2,}|\u2026)\s*"
                          r"(?=(?:is|are|was|were|in|on|inside|under|next\s+to|beside|near)\b)"),
               " "),
              # the robot addressed after a pause: what comes before was said to someone else
              (re.compile(r"\s*(?:\.{2,}|\u2026)\s*(?:ok(?:ay)?\s*,?\s*)?(?=robot\s*[,:])", re.I), ". "),
              # a pause before a new clause with its own subject ("Which room did the radio end up in... I've lost
              # track of everything", "where does the milk go... she always knew"): a sentence ends there, when what
              # came before is a clause of a few words whose last word can end one ("where did... I leave it", "toasters...
              # we have?" go on)
              (re.compile(r"(^|[.!?]\s+)([^.!?\u2026]*?[a-z])\s*(?:\.{2,}|\u2026)\s*"
                          r"(?=(?:I|I've|I'm|I'd|I'll|she|he|we|they|she's|he's|we've|they've)\s+[a-z])"), _clause_ends),
              # a pause written as an ellipsis ("the... the radio", "The glass that's... next to"): a comma, which the
              # restart rules below read across; one trailing off at the end says nothing
              (re.compile(r"\s*(?:\.{2,}|\u2026)\s*(?=[^\s.?!\u2026])"), ", "),
              # "the bowl, next to, the frying pan. That one. Which?": which bowl is next to it
              (re.compile(r"^(?:the\s+)?([\w-]+(?:\s+[\w-]+)?)\s*,?\s+(next\s+to|near|by|beside|on|in|inside|under)\s*,?\s+"
                          r"((?:the\s+)?[\w-]+(?:\s+[\w-]+)?)\s*[.,:;]\s*(?:that\s+one\s*[.,!]\s*)?which(?:\s+one)?\s*\?*\s*$", re.I),
               r"Which \1 is \2 \3?"),
              (re.compile(r"\s*(?:\.{2,}|\u2026)+\s*$"), ""),
              # searching for a word ("the, um, what's it called, the bedside table"): a pause
              (re.compile(r"\s*,?\s*\b(?:what'?s\s+it\s+called|what\s+(?:do|d')\s*(?:you|ye|ya)\s+call\s+(?:it|them)|"
                          r"what'?s\s+the\s+word|how\s+do\s+you\s+say)\b\s*,?", re.I), ","),
              # a phrase of up to three words said again after a pause ("which room, which room is it in", "in the,
              # in the microwave"): once
              (re.compile(r"\b((?:[\w']+\s+){0,2}[\w']+)\s*,\s+\1\b", re.I), r"\1"),
              # "that juice, you know, the one we've got": "the one" with what someone did with it, after the thing
              # itself, is the same thing (memory cannot check who got it); "you know" between commas a pause
              (re.compile(r"(?<=\w)\s*,\s*(?:(?:you\s+know|i\s+mean)\s*,?\s*)?the\s+one\s+(?:that\s+|which\s+)?"
                          r"(?:we|i|you|they|he|she)(?:'ve|'d|\s+have|\s+had)?\s+(?:got|get|have|had|bought|use|used|keep|"
                          r"always\s+use|like|love|got\s+from\s+[\w ]+?)\b(?=\s*[.?!]*\s*$)", re.I), ""),
              (re.compile(r"\s*,\s*you\s+know\s*,\s*", re.I), ", "),
              # Scots ("through tae the kitchen", "oot the microwave", "in the hoose", "d'ye ken where", "afore")
              (re.compile(r"\b(?:d'|do\s+)(?:ye|you)\s+ken\b", re.I), "do you know"),
              (re.compile(r"\b(?:ye|you)\s+ken\b", re.I), "you know"),
              (re.compile(r"\btae\b", re.I), "to"), (re.compile(r"\bintae\b", re.I), "into"),
              (re.compile(r"\boot\b", re.I), "out"), (re.compile(r"\bhoose\b", re.I), "house"),
              (re.compile(r"\bdoon\b", re.I), "down"), (re.compile(r"\bafore\b", re.I), "before"),
              (re.compile(r"\boutwith\b", re.I), "outside"), (re.compile(r"\bwi'(?=\s)", re.I), "with"),
              (re.compile(r"\bfrae\b", re.I), "from"), (re.compile(r"\baboot\b", re.I), "about"),
              (re.compile(r"\bgie\b", re.I), "give"), (re.compile(r"\bhame\b", re.I), "home"),
              (re.compile(r"\b(can|did|is|was|does|has|have|could|would|should|are|were)nae\b", re.I), r"\1n't"),
              (re.compile(r"\b(?:dinnae|dinna|dae\s+not)\b", re.I), "don't"),
              # "one of them plates", "all them cups": "them" as a determiner (dialects of English) is "the"
              (re.compile(r"\b(of|all)\s+them\s+(?=[a-z]{2,}s\b(?!\s+(?:the|a|an|my|your)\b))", re.I), r"\1 the "),
              # "I can't for the life of me remember its colour": not remembering a property of a thing asks for it
              (re.compile(r"\b(?:i|we)\s+(?:(?:can'?t|cannot|can\s+not|don'?t|do\s+not)\s+(?:for\s+the\s+life\s+of\s+me\s+|"
                          r"quite\s+|really\s+|even\s+)?(?:remember|recall)|forget)\s+(its|their)\s+(colou?r|size|shape)\b",
                          re.I),
               lambda m: f"what {m.group(2)} is {'it' if m.group(1).lower() == 'its' else 'they'}?"),
              # "I looked and looked", "searched and searched": a verb said twice for effort, once
              (re.compile(r"\b([a-z]{3,}ed)\s+and\s+\1\b", re.I), r"\1"),
              # "I bet you've spotted the lime on your rounds", "surely you've seen it": have you seen it
              (re.compile(r"^(?:i\s+bet|i'?m\s+sure|i\s+reckon|i\s+guess|i\s+expect|surely)\s+(?:you|u)(?:'ve|\s+have)\s+"
                          r"(seen|spotted|noticed|come\s+across)\b([^.?!]*)[.!]*\s*$", re.I), r"have you \1\2?"),
              # "seen it on your rounds": when the robot saw it, no place it is in
              (re.compile(r"\s+(?:on|during|in)\s+(?:your|its|the|ur)\s+(?:rounds|patrols?|travels|tours?|walkabouts?|"
                          r"wanderings)\b", re.I), ""),
              # "give the glass a clean / a quick wipe": the care said as a noun is the verb
              (re.compile(r"\bgive\s+((?:the|my|your|our|his|her|their|this|that|it|them)\b(?:\s+[\w-]+){0,2}?)\s+a\s+"
                          r"(?:quick\s+|good\s+|proper\s+|little\s+|wee\s+)?(clean|wash|wipe|rinse|polish|dust|scrub|tidy|"
                          r"sweep|hoover|iron|shake|stir|heat|warm)\b", re.I), r"\2 \1"),
              (re.compile(r"\b(where|what|how|who|when|why)'d\b", re.I), r"\1 did"),
              (re.compile(r"\bwanna\b", re.I), "want to"), (re.compile(r"\bgimme\b", re.I), "give me"),
              (re.compile(r"\bgotta\b", re.I), "have to"), (re.compile(r"\blemme\b", re.I), "let me"),
              # "where c'n I sleep", "I c'd use a towel": a vowel dropped in fast speech
              (re.compile(r"\bc'n\b", re.I), "can"), (re.compile(r"\bc'd\b", re.I), "could"),
              (re.compile(r"\bs'?pos(?:ed|'d)\b", re.I), "supposed"),  # "where's it s'posed to go"
              (re.compile(r"\bd'ya\b", re.I), "do you"),
              (re.compile(r"\bw'd\b", re.I), "would"),
              # "where is the — um — the radio?", "on the, on the b-bed": a word said again across a pause once
              (re.compile(r"\b(the|a|an|my|your|our|to|in|on|of)\s*(?:(?:[—–,-]|\.{2,}|…)\s*(?:(?:um+|uh+|erm|er|mm+|hm+)\b\s*)?)+"
                          r"\1\b", re.I), r"\1"),
              (re.compile(r"\bya\b", re.I), "you"), (re.compile(r"\bu\b", re.I), "you"),
              (re.compile(r"\bpls\b|\bplz\b", re.I), "please"), (re.compile(r"\bcolour\b", re.I), "color"),
              (re.compile(r"\binside of\b", re.I), "inside"), (re.compile(r"(?:^|(?<=\s))whereabouts\s+(?=(?:is|are|was|were|did|do|does|'s|would|could|might)\b)", re.I),
                                                           "where "),
              (re.compile(r"\boutta\b", re.I), "out of"), (re.compile(r"\br\b(?=\s+(?:in|on|there|the|my|you)\b)", re.I),
                                                          "are"),
              (re.compile(r"\bthrough to\b", re.I), "to"),
              # encouragement before a request ("go on, open the microwave")
              (re.compile(r"^(?:go\s+on|come\s+on)(?:\s+then)?\s*,\s*", re.I), ""),
              (re.compile(r"\b(?:summat|summink|somethin'?|sumthin'?|sumfin)(?=\W|$)", re.I), "something"),
              # speech-to-text homophones where only one reading is English ("take it two Ben", "wears my phone")
              (re.compile(r"\b(?:two|too)\s+(?=(?:me|us|him|her|them|the|my|your|his|our)\b)", re.I), "to "),
              (re.compile(r"^(?:wears|wares)\s+(?=(?:the|my|your|his|her|our|a)\b)", re.I), "where's "),
              # ... "wear is", "were did", "ware can": "were" only before words "were" never precedes ("were you" stays)
              (re.compile(r"^((?:(?:um+|uh+|erm*|so|oh|hey|ok(?:ay)?|and)\s*,?\s+)*)(?:wear|ware|were(?!\s+(?:are|was|were|has|"
                          r"have)\b))\s+(?=(?:is|are|was|were|did|do|does|has|have|'s|can|could|should|would|will|might)\b)",
                          re.I), r"\1where "),
              (re.compile(r"\bfour\s+(?=(?:me|us|him|her|them|my|your)\b)", re.I), "for "),
              (re.compile(r"\binn\s+(?=(?:the|my|your|our|his|her|a|this|that)\b)", re.I), "in "),
              (re.compile(r"\b(you|u|i|we)\s+no\s+(?=(?:where|what|which|when|who|how|if|whether)\b)", re.I), r"\1 know "),
              (re.compile(r"\b(did|do|does|you|u|i|we|they)\s+dew\b", re.I), r"\1 do"),
              (re.compile(r"\b(put|tidy|throw|clear|pack)\s+((?:the|my|your|our|that|this|those|these)\s+[\w' -]{1,40}?)\s+"
                          r"a\s+way\b", re.I), r"\1 \2 away"),
              (re.compile(r"\bb4\b|(?<![\w'])'fore\b", re.I), "before"),
              (re.compile(r"^(?:i'm|i\s+am|i\s+was)\s+(?:just\s+|really\s+|a\s+bit\s+)?(?:curious|wondering)\s+(?:as\s+to\s+)?"
                          r"(?=(?:what|where|whether|if|which|when|who|how)\b)", re.I), "I wonder "), (re.compile(r"\bwat\b", re.I), "what"),
              # texting shorthand: said for the tone, or a time ("wheres the remote rn")
              (re.compile(r"\s*\b(?:rn|atm|asap)\b", re.I), ""),
              (re.compile(r"\s*\b(?:ngl|tbh|smh|lol|lmao|fr|btw|imo|omg|ffs|pls|plz)\b[,.!]?", re.I), ""),
              (re.compile(r"\bidk\b", re.I), "I don't know"), (re.compile(r"\bur\b", re.I), "your"),
              (re.compile(r"\b(?:smth|sth|sumthin)\b", re.I), "something"), (re.compile(r"\b(?:thx|ty)\b", re.I), "thanks"),
              (re.compile(r"\b(?:cuz|coz|bc)\b", re.I), "because"),
              # formal: "kindly inform me of the current location of the book"
              (re.compile(r"\b(?:(?:inform|tell|advise|notify)\s+me\s+(?:of|about|as\s+to)|what\s+is)\s+(?:the\s+)?(?:current\s+|"
                          r"present\s+|exact\s+|precise\s+)?(?:location|whereabouts|position)\s+of\s+", re.I), "where is "),
              # learners' inversions: "where stays the book?"
              (re.compile(r"^where\s+(?:stays|sits|lies|stands|lives)\s+(?=(?:the|my|your|our|his|her|a)\b)", re.I), "where is "),
              (re.compile(r"\bwhered\b", re.I), "where did"),
              # "is the fridge standing open?", "the door's sitting ajar": the state, not a posture
              (re.compile(r"\b(?:standing|sitting|hanging|lying|stood|sat)\s+(?:wide\s+)?(?=(?:open|shut|closed|ajar)\b)", re.I), ""),
              (re.compile(r"\bajar\b", re.I), "open"), (re.compile(r"\bhowmany\b", re.I), "how many"),
              # needs said as idioms: "I'm gasping for a drink", "I'm dying to sit down"
              (re.compile(r"\b(?:gasping|dying|desperate|parched)\s+for\s+a\s+(?:drink|cuppa|brew|sip\s+of\s+something)\b", re.I),
               "thirsty"),
              (re.compile(r"\b(?:(?:i'm|i\s+am)\s+)?(?:dying|desperate|itching|gagging|aching)\s+to\s+(?=[a-z])", re.I), "I want to "),
              # "glass where it is?": the thing, then the question about it
              (re.compile(r"^((?:the\s+|my\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*,?\s+where\s+(?:it|they)\s+(?:is|are)\s*\?*$", re.I),
               r"where is \1?"), (re.compile(r"\ban'(?=\s)", re.I), "and"),
              # whose, as dialects and learners say it: "where'd I leave me glass", "mine glass", "the glass of me",
              # "the glass that is mine"
              (re.compile(r"\b(leave|left|put|lost|lose|where's|wheres|is|are|was|were)\s+me\s+"
                          r"(?!(?:a|an|the|some|any|one|two|something|anything|it|them|this|that|to|in|on|at|here|there|"
                          r"now|please|again|if|when|and|or|yesterday|today|tonight|earlier|later|before|after|up|down|off|"
                          r"out|back|alone|be)\b)(?=[a-z])", re.I), r"\1 my "),
              (re.compile(r"\bmine\s+(?!(?:is|was|are|were|too|as|and|or|now|then|please|here|there|right|though|tho|anyway|"
                          r"again|back|for|to|in|on|at|by|with|from|if|when)\b)(?=[a-z])", re.I), "my "),
              (re.compile(r"\bthe\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:of\s+(?:me|mine)|(?:that|which)\s+(?:is|'s)\s+mine)\b", re.I),
               r"my \1"),
              # when the robot saw a thing, said tersely or as how long: "last time you saw the keys?", "the keys,
              # when first seen?", "how long ago did you first see it", "since when is the vase here?"
              (re.compile(r"^(?:the\s+|when\s+was\s+the\s+)?(first|last)\s+time\s+(?:you|u)\s+(?:saw|seen|spotted|noticed)\s+"
                          r"([^?.!]{1,60}?)\s*[?.!]*$", re.I), r"when did you \1 see \2?"),
              (re.compile(r"^((?:the|my|your|our)\s+[\w' -]{1,40}?)\s*[,:-]?\s+when\s+(first|last)\s+(?:seen|spotted|noticed)\s*[?.!]*$",
                          re.I), r"when did you \2 see \1?"),
              (re.compile(r"^how\s+long\s+ago\s+did\s+(?:you|u)\s+(first|last)\s+(?:see|spot|notice)\b", re.I), r"when did you \1 see"),
              (re.compile(r"^(?:since\s+when\s+(?:is|has)|how\s+long\s+(?:is|has))\s+((?:the|my|your|our|this|that)\s+[\w' -]{1,40}?)\s+"
                          r"(?:been\s+)?(?:here|there|around|in\s+the\s+house)\s*[?.!]*$", re.I), r"when did you first see \1?"),
              # "where did the remote use to be": where it was before
              (re.compile(r"\bwhere\s+did\s+((?:the|my|your|our|his|her|that|this)\s+[\w' -]{1,40}?)\s+use(?:d)?\s+to\s+(?:be|sit|live|"
                          r"stay|go|lie|stand)\s+before\b", re.I), r"where was \1 before"),
              # "run the glass over to Anna": carry it
              (re.compile(r"\b(?:run|pop|zip|nip|scoot)\s+((?:the|my|this|that|her|his|our)\s+[\w-]+(?:\s+[\w-]+)?)\s+"
                          r"(?:over\s+|round\s+|across\s+|up\s+|down\s+)?to\b", re.I), r"take \1 to"),
              (re.compile(r"\b(?:would|could|will)\s+you\s+be\s+(?:so\s+kind|kind\s+enough|good\s+enough|so\s+good)\s+(?:as\s+)?to\s+",
                          re.I), "please "),
              # "please tell me whether the fridge is open": the question itself ("is the fridge open?")
              (re.compile(r"^(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:tell\s+me|let\s+me\s+know|say)\s+"
                          r"(?:whether|if)\s+((?:the|my|our|your|his|her)\s+[\w' -]{1,40}?)\s+(is|are|was|were)\s+(?!there\b)"
                          r"([^,.?!]{1,60})[?.!]*\s*$", re.I), r"\2 \1 \3?"),
              # a dropped g ("lookin'", "nothin'") and the homophone "scene" for "seen"
              (re.compile(r"\b([a-z]{2,})in'(?=\s|[,.!?]|$)", re.I), r"\1ing"),
              (re.compile(r"\b(have|has|you|u|ya|i|we)\s+(ever\s+|not\s+|n't\s+)?scene\b", re.I), r"\1 \2seen"),
              # learners' and formal ways of asking whether the robot saw a thing
              (re.compile(r"^(?:you|u|yuh|ye)\s+did\s+(see|spot|notice|find)\b", re.I), r"did you \1"),
              (re.compile(r"\b(?:has|have)\s+((?:the|my|your|our|his|her)\s+[\w' -]{1,40}?)\s+been\s+(?:seen|observed|spotted|"
                          r"noticed)\s+by\s+you\b", re.I), r"have you seen \1"), (re.compile(r"^witch\s+", re.I), "which "),
              (re.compile(r"\b(we|you|i|they)\s+half\s+(?=(?:any|a|an|some|the)\b)", re.I), r"\1 have "),
              (re.compile(r"\bon\s+top\s+(?=(?:the|my|your|his|her|our|a|an|that|this)\b)", re.I), "on top of "),
              # Irish, Caribbean and Scots forms of "you" and "the" ("did ye see", "yuh did see di ...")
              (re.compile(r"\b(?:ye|yuh)\b(?!\s+olde?\b)", re.I), "you"), (re.compile(r"\bdi\b", re.I), "the"),
              # Jamaican and other Caribbean English function words ("weh di remote deh?", "tek di cup go give Ben")
              (re.compile(r"\bany\s*weh\b", re.I), "anywhere"), (re.compile(r"\bweh\b", re.I), "where"),
              (re.compile(r"\bwah\b", re.I), "what"), (re.compile(r"\bdat\b", re.I), "that"),
              (re.compile(r"\bpon\b", re.I), "on"), (re.compile(r"\binna\b"), "in the"),  # lower case only: Inna is a name
              (re.compile(r"\bwid\b", re.I), "with"), (re.compile(r"\bcyaan\b", re.I), "can't"),
              (re.compile(r"\btek\b", re.I), "take"),
              (re.compile(r"\b(?:dat|that)\s+deh\b", re.I), "that is"), (re.compile(r"\s+deh\s*(?=[?.!]*$)", re.I), ""),
              (re.compile(r"^mi\s+(?=(?:want|need|cyaan|can't|can|did|do|don't|nuh|a|'m|am|have|lost|put|left)\b)", re.I), "I "),
              (re.compile(r"\b(take|carry|bring|run)\s+((?:the|my|mi|this|that)\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:go|come)\s+give\s+(mi|me|"
                          r"[a-z]+)\b", re.I),
               lambda m: f"{m.group(1)} {m.group(2)} to {'me' if m.group(3).lower() in ('mi', 'me') else m.group(3)}"),
              (re.compile(r"\bmi\s+(?=(?:the|a|an)\b)|\bmi\s*(?=[?.!,]|$)", re.I), "me "),
              (re.compile(r"\bmi\b(?=\s+[a-z])", re.I), "my"),
              (re.compile(r"\b(bring|carry|fetch|get)\s+((?:the|my)\s+[\w-]+(?:\s+[\w-]+)?)\s+come\s*(?=[.!?]*$)", re.I),
               r"\1 \2 to me"),
              # "come with the juice (to me)": in Indian, Nigerian and other Englishes, come bringing it ("come with
              # me" is following, and has no article)
              (re.compile(r"\bcome\s+with\s+((?:the|my|your|that|this|some)\s+[\w-]+(?:\s+[\w-]+)?)(?=\s+(?:to\s+|here\b|"
                          r"over\b)|\s*[.!?,]|\s*$)", re.I), r"bring \1"),
              # "what is its colour?", "what's the remote's colour?": the property asked of the thing
              (re.compile(r"\bwhat(?:'s|\s+is|\s+was)\s+(its|their|(?:the\s+|my\s+|your\s+|our\s+)?[\w-]+(?:\s+[\w-]+){0,2}?'s)"
                          r"\s+(colou?r|size|shape)\b", re.I),
               lambda m: f"what {m.group(2)} " + ("is it" if m.group(1).lower() == "its" else "are they"
                                                  if m.group(1).lower() == "their" else f"is {m.group(1)[:-2]}")),
              # "when did you last actually see it": an adverb of insistence between the time and the seeing
              (re.compile(r"\b(last|first)\s+(?:actually|really|ever|even|properly|definitely)\s+(?=(?:see|saw|seen|spot|"
                          r"spotted|notice|noticed)\b)", re.I), r"\1 "),
              # "I'm afraid I can't seem to locate the keyboard", "I am not able to find the remote"
              (re.compile(r"^(?:i'm|i\s+am)\s+afraid\s+(?:that\s+)?(?=(?:i|we)\b)", re.I), ""),
              (re.compile(r"\b(?:(?:i\s+am|i'm|we\s+are|we're)\s+not\s+able|(?:i|we)\s+(?:can't|cannot|can\s+not)\s+seem)\s+"
                          r"to\s+(?:find|locate)\b", re.I), "I can't find"),
              # "remote, current whereabouts please", "the present whereabouts of the mug": where it is
              (re.compile(r"^((?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+){0,3}?)\s*[,:]\s*(?:its\s+)?(?:current\s+|present\s+|last\s+known\s+)?"
                          r"whereabouts\b[^?]*\?*\s*$", re.I), lambda m: f"where is {with_article(m.group(1))}?"),
              (re.compile(r"^(?:(?:what\s+are|what's|tell\s+me|give\s+me)\s+)?(?:the\s+)?(?:current\s+|present\s+|last\s+known\s+)?"
                          r"whereabouts\s+of\s+", re.I), "where is "),
              # Scots and northern English "ma" before a thing's name is "my" ("where's ma glass")
              (re.compile(r"\bma\s+(?=[a-z]{3,}\b)(?!(?:and|or|is|was|said|says|told|wants|needs)\b)", re.I), "my "),
              # formal ways of saying one cannot find a thing
              (re.compile(r"\b(?:i\s+am|i'm|we\s+are|we're)\s+(?:quite\s+|completely\s+)?unable\s+to\s+(?:find|locate)\b",
                          re.I), "I can't find"),
              (re.compile(r"^(?:please\s+|kindly\s+)?(?:list|name|tell\s+me)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:items|things|"
                          r"objects|stuff)\s+(?:that\s+are\s+|that's\s+|currently\s+|you\s+know\s+of\s+)*(on|in|inside|under)\s+",
                          re.I), r"what is \1 "),
              (re.compile(r"\b(you|u)\s+(last\s+|ever\s+|first\s+)?sea\b", re.I), r"\1 \2see"),
              (re.compile(r"^what\s+coll?ar\s+(?=(?:is|are|was|were|'s)\b)", re.I), "what color "),
              # speech-to-text and typing without apostrophes ("thats in the cabinet", "im hungry")
              (re.compile(r"\b(that|what|where|there|who)s\b(?=\s)", re.I), r"\1's"),  # not "its": a word
              (re.compile(r"\bim\b", re.I), "I'm"), (re.compile(r"\bive\b", re.I), "I've"),
              (re.compile(r"\b(do|does|did|is|are|was|were|can|could|would|should|have|has|had|wo)nt\b", re.I),
               r"\1n't"), (re.compile(r"\bcant\b", re.I), "can't"), (re.compile(r"\byoure\b", re.I), "you're"),
              # fillers inside a sentence ("what's uh on the counter", "is there like any ...")
              (re.compile(r"(?<=\w),\s+(?:uh+|um+|erm+|er|uhm|hmm+)\b,?\s*", re.I), " "),  # "can I, um, sit": no pause left
              (re.compile(r"(?<=\s)(?:uh+|um+|erm+|er|uhm|hmm+)\b,?\s*", re.I), ""),
              (re.compile(r"(?<=\bthere )like\s+", re.I), ""),
              # "get me like something to drink": "like" as a filler between a verb or its person and a thing
              (re.compile(r"\b(me|us|him|her|them|get|grab|bring|fetch|find|want|need)\s+like,?\s+(?=(?:a|an|the|some|"
                          r"something|anything|my|your|his|her|our|their|this|that|two|three)\b)", re.I), r"\1 "),
              # a word drawn out in speech or typing ("pleeease", "nooow"): no English word has a letter three times
              (re.compile(r"([a-z])\1{2,}", re.I), r"\1"),
              # "seen my keys lying about", "a cabinet knocking about": where a thing is left, not part of its name
              (re.compile(r"\s+(?:lying|lyin'|sitting|knocking|kicking|floating|hanging)\s+(?:about|around|round)\b", re.I),
               ""),
              # "is the cabinet like locked or something": "like" before a state, and a vague tail, say nothing
              (re.compile(r"(?<=\s)like\s+(?=(?:open|closed|shut|locked|unlocked|on|off|empty|full|clean|dirty|broken|"
                          r"working|stuck)\b)", re.I), ""),
              (re.compile(r",?\s+or\s+(?:something|summat|whatever|what|anything)(?:\s+like\s+that)?\s*(\?*)\s*$", re.I),
               r"\1"),
              # "carry the juice until the kitchen" (Spanish "hasta", Portuguese "até"): "until" a place, after a
              # verb of moving, is "to" it; "until the kettle boils" has a verb after the thing and is left alone
              (re.compile(r"\b(carry|take|bring|move|walk|go|drive|come|get)\b([^.?!]{0,60}?)\b(?:until|till|as\s+far\s+as)\s+"
                          r"((?:the|my|your|our)\s+[\w-]+(?:\s+[\w-]+)?)(?=\s*(?:[,.!?]|please\b|$))", re.I),
               r"\1\2to \3"),
              # a place said first, then the putting ("In the bathroom put the radio", "into the fridge, the milk
              # please put"): the place goes after the thing, where a put's place is read
              (re.compile(r"^((?:in|into|inside|on|onto|on\s+top\s+of)\s+(?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)"
                          r"\s*,?\s+((?:please\s+)?(?:put|place|set|leave|stick|store|pop|drop)\s+"
                          r"(?:the|my|your|our|this|that|these|those)\s+(?:[\w-]+\s+){0,2}?[\w-]+?)"
                          r"(\s*(?:,?\s*please|,?\s*thanks|,?\s*thank\s+you)?\s*[.!]*)$", re.I), r"\2 \1\3"),
              # a word said twice as speech restarts ("the uh the radio" once the filler is gone)
              # ... also across a dash or a comma ("what's on the - the bed?", "where's the, the radio")
              (re.compile(r"\b(the|a|an|my|your|his|her|our|their|to|in|on|it|is)(?:\s*[\u2014\u2013,]\s*|\s+-+\s+|\s+)\1\b",
                          re.I), r"\1"),
              # "before, I mean, before it moved": the words said again after "I mean" are said once
              (re.compile(r"\b([\w']+(?:\s+[\w']+)?)\s*[,\u2014\u2013-]*\s*i\s+mean\s*,?\s+\1\b", re.I), r"\1"),
              # "please" said last ("open microwave please"): the small tagger makes it the noun phrase's head
              (re.compile(r"(?<=\w)\s*,?\s+(?:please|pls|plz)\s*([.!?]*)\s*$", re.I), r"\1"),
              # thanks said after the request, not part of it ("put the juice on the table thanks")
              (re.compile(r"(?<=[\w.,!?])\s*[,.!]?\s*\b(?:thanks|thank\s+you|thank\s+u|thx|ta|cheers)(?:\s+(?:so\s+much|a\s+lot|love|"
                          r"dear|mate|pal))?\s*[.!]*\s*$", re.I), ""),
              # "what all is in the cupboard" (Southern US, Indian English): "all" asks for every thing
              (re.compile(r"\bwhat\s+all\b(?=\s+(?:is|are|was|were|'s|did|do|does|have|has)\b)", re.I), "what"),
              # an oath inside a question ("where in God's name", "what on earth"): nothing asked
              (re.compile(r"\b(where|what|who|how|why|when)\s+(?:in\s+god'?s\s+name|on\s+earth|in\s+the\s+world|the\s+hell|"
                          r"the\s+heck|in\s+heaven'?s\s+name|in\s+tarnation|in\s+(?:under\s+)?god|in\s+blazes|in\s+the\s+name\s+of\s+\w+)\b",
                          re.I), r"\1"),
              # "could you be a dear and tell me ...": an endearment around the request
              (re.compile(r"(?:\b(?:could|would|can|will)\s+you\s+|^(?:please\s+)?)be\s+(?:a\s+|an\s+)?(?:dear|love|darling|"
                          r"sweetheart|pet|star|doll|angel|gem|good\s+(?:lad|lass|boy|girl))\s+and\s+", re.I), "please "),
              # "when did you last clap eyes on it": an idiom for seeing
              (re.compile(r"\b(?:clapped|laid|set)\s+(?:your\s+|yer\s+|my\s+|me\s+|his\s+|her\s+)?eyes\s+(?:on|upon)\b", re.I), "saw"),
              (re.compile(r"\b(?:clap|lay|set)\s+(?:your\s+|yer\s+|my\s+|me\s+|his\s+|her\s+)?eyes\s+(?:on|upon)\b", re.I), "see"),
              # "check the kitchen for me: any plates in there?": whether there are any there
              (re.compile(r"^(?:please\s+)?check\s+((?:the|my|our)\s+[\w ]{2,30}?)\s+(?:for\s+me\s*)?[:,;-]+\s*(?:are\s+there\s+|is\s+there\s+)?"
                          r"(any|a|an)\s+([\w ]{2,30}?)\s+(?:in|on)\s+(?:there|it)\s*\?", re.I), r"are there \2 \3 in \1?"),
              (re.compile(r",?\s*\bby any chance\b,?", re.I), ""),
              # politeness around the request, not part of it
              (re.compile(r",\s*(?:if you please|if you don't mind|if you would|may i ask|i wonder|do you think),", re.I), ""),
              (re.compile(r"\b(?:would|could|will)\s+you\s+be\s+(?:so\s+|good\s+|kind\s+)?(?:kind|good|so kind|so good)"
                          r"(?:\s+enough)?(?:\s+as)?\s+to\s+", re.I), "please "),
              # "be so good as to fetch me the lime", "be good enough to tell me ...": please
              (re.compile(r"^(?:please\s+|now\s+)?be\s+(?:so\s+|good\s+|kind\s+)?(?:kind|good)(?:\s+enough)?(?:\s+as)?\s+to\s+", re.I),
               "please "),
              (re.compile(r"^i\s+(?:would|should|'d)\s+be\s+(?:very\s+|most\s+|so\s+)?grateful\s+if\s+you\s+(?:would|could)\s+",
                          re.I), "please "),
              (re.compile(r"^i\s+should\s+like\s+to\s+", re.I), "I want to "),
              # "it'd put my mind at rest if you went and found the toy", "I'd feel better if you checked on the mug":
              # what would please the speaker, said as a condition, is the request
              (re.compile(r"^(?:it'd|it\s+would|i'd|i\s+would|that'd|that\s+would)\s+(?!like\b|love\b|prefer\b|rather\b)"
                          r"[^,.?!]{2,60}?\s+if\s+you\s+(?:just\s+|could\s+|would\s+|went\s+and\s+|go\s+and\s+)*([a-z]+)\b", re.I),
               lambda m: f"please {_verb_now(m.group(1))}"),
              (re.compile(r"\bthe number of\s+", re.I), "how many "),
              # tails that only ask for a yes or a no, or agreement
              (re.compile(r"(?:,?\s+(?:yes or no|or not|or nah|or no)|,\s*(?:okay|ok|alright|right))\s*(?=\?*\s*$)", re.I),
               ""),
              # "you go find the globe": an imperative with its "you" said
              (re.compile(r"^(?:you|u)\s+(?=(?:go|come|bring|get|fetch|find|put|take|open|close|grab)\b)", re.I), ""),
              # "fish the remote out of the microwave"
              (re.compile(r"^fish\b(?=.*\bout\b)", re.I), "get"),
              # "the teddy, where is its place?": where it goes
              (re.compile(r"\bwhere(?:'s| is)\s+its\s+(?:proper\s+|usual\s+|own\s+)?(?:place|spot|home|station|berth|slot)\b", re.I),
               "where does it go"),
              (re.compile(r"\bwhere(?:'re| are)\s+their\s+(?:places?|spots?|homes?)\b", re.I), "where do they go"),
              # "the pear is where now?": the question word left in place
              (re.compile(r"^((?:the\s+|my\s+)?[a-z]+(?:\s+[a-z]+)?)\s+(is|are)\s+where\b", re.I), r"where \2 \1"),
              # "it is in which room?", "the keys are on which table?"
              (re.compile(r"^((?:the\s+|my\s+)?[a-z]+(?:\s+[a-z]+)?)\s+(is|are|was|were)\s+(in|on|under)\s+which\s+(\w+)\b",
                          re.I), r"which \4 \2 \1 \3"),
              # "how recently did you see the mug?", "how long has it been since you saw it?": when, last
              (re.compile(r"\bhow\s+recently\b", re.I), "when"),
              (re.compile(r"^how\s+long\s+(?:has\s+it\s+been|is\s+it)\s+since\s+(?:you|u)\s+(?:last\s+)?"
                          r"(?:saw|seen|spotted|noticed|had\s+a\s+look\s+at)\b", re.I), "when did you last see"),
              # "you see pear somewhere?": the question's "have" left unsaid; "I not find" for "I can't find"
              (re.compile(r"^(?:you|u)\s+(?:see|seen|saw)\b", re.I), "have you seen"),
              (re.compile(r"\bi\s+not\s+(find|see|know|remember)\b", re.I), r"I can't \1"),
              # (its participle after "have": "I wonder if you've come across the magazine")
              (re.compile(r"(\b(?:have|has|had)|'ve|'s)(\s+(?:ever\s+|already\s+|maybe\s+|perhaps\s+)?)come\s+across\b", re.I),
               r"\1\2seen"),
              (re.compile(r"\bcame\s+across\b", re.I), "saw"), (re.compile(r"\bcome\s+across\b", re.I), "see"),
              # "the kitchen has a globe or not?": is there one there
              (re.compile(r"^(?:the|my|our)\s+([a-z]+(?:\s+room)?)\s+(?:has|have)\s+(?:got\s+)?(?:a\s+|an\s+|any\s+|some\s+)?"
                          r"([^.!?]+?)\s*(?:,?\s*or\s+not)?\s*\?\s*$", re.I), r"is there any \2 in the \1?"),
              # "after Ben made coffee - then what?"
              (re.compile(r"^(?:after|once|when)\s+(.+?)\s*(?:-+|,)?\s*(?:and\s+)?then\s+what\s*(\??)\s*$", re.I),
               r"\1, and then what\2"),
              # "Ben made coffee, and then he do what?"
              (re.compile(r",?\s*and\s+then\s+(?:he|she|they)\s+(?:do|did|does)\s+what\b", re.I), ", and then what"),
              # a thing added between dashes ("I need the remote - and the juice - bring them both"): one more thing
              (re.compile(r"\s+(?:[\u2014\u2013]|--?)\s+((?:and|plus)\s+(?:the|my|your|our|a|an|some)\s+[^\u2014\u2013,.?!]{1,50}?)"
                          r"\s+(?:[\u2014\u2013]|--?)\s+", re.I), r" \1, "),
              # a reason after a dash ("go find the pear - I've got my hands full"): no part of the request
              (re.compile(r"\s+(?:[\u2014\u2013]|--?)\s+(?:i've|i\s+have|i'm|i\s+am|my\s+hands|because|cos|'cause|since)\b"
                          r"[^\u2014\u2013?]*$", re.I), "."),
              # an aside set off by two dashes is no part of the request ("which room - just the room - is it in?"),
              # unless it says which one is meant ("the glass - not any glass, the one by the sink - which is it?")
              # or takes back the thing before it ("the mug - sorry, the radio - bring to me": the repair below)
              (re.compile(r"\s+(?:[\u2014\u2013]|--?)\s+(?![^\u2014\u2013]*\b(?:one|ones|on|in|by|beside|near|next|under|"
                          r"behind|with)\s+(?:the|my|your|our)\b)"
                          r"(?!(?:no|nah|oops|sorry|wait|actually|i\s+mean|i\s+meant|or\s+rather|rather|make\s+(?:it|that)|"
                          r"scratch\s+that|strike\s+that|correction)\b[\s,]*(?:(?:no|sorry|wait|actually|i\s+mean)\b[\s,]*)*"
                          r"(?:the|a|an|my|your|our|his|her|their|some)\s)"
                          r"[^\u2014\u2013]{1,80}?\s+(?:[\u2014\u2013]|--?)\s+", re.I), " "),
              # a restart after a dash ("is there a knife in the - in the kitchen, I mean, not in here"); a trailing
              # "- I know there's more than one, I mean that one"
              (re.compile(r"\b((?:in|on|at|to|by)\s+the)\s*[\u2014\u2013-]+\s*\1\b", re.I), r"\1"),
              (re.compile(r",\s*i\s+mean,?\s+not\s+[^,.?!]{1,40}(?=[.?!]*\s*$)", re.I), ""),
              (re.compile(r"\s*[\u2014\u2013]\s*i\s+(?:know|mean)\b[^\u2014\u2013?]{0,80}$", re.I), ""),
              # "where was that tv remote before?": "that" before a thing is its determiner (the small tagger makes
              # it a conjunction and loses the thing's first word)
              (re.compile(r"^(where|what\s+room|which\s+room)\s+(is|was|are|were)\s+that\s+(?!one\b|ones\b)(?=[a-z]+\s+[a-z])",
                          re.I), r"\1 \2 the "),
              # "where is it that you keep the milk?", "where is it the milk usually goes?": a cleft around the question
              (re.compile(r"^(where|when)\s+(?:is|was)\s+it\s+(?:that\s+)?(?=(?:the|my|your|our|his|her|their)\b)", re.I),
               r"\1 "),
              (re.compile(r"^(where|when)\s+is\s+it\s+(?:that\s+)?(you|i|we|they)\s+(?!do\b|did\b)(?=[a-z])", re.I),
               r"\1 do \2 "),
              (re.compile(r"^(where|when)\s+was\s+it\s+(?:that\s+)?(you|i|we|they)\s+(?!do\b|did\b)(?=[a-z])", re.I),
               r"\1 did \2 "),
              # a label before the request ("Query: toasters present in kitchen?", "Task: go to the hall")
              (re.compile(r"^(?:query|question|request|task|command|instruction|order)\s*:\s*(?=\w)", re.I), ""),
              # "identify the plate on the table", "point out the mug by the sink": which one is there
              (re.compile(r"^(?:please\s+)?(?:identify|point\s+out|pick\s+out|single\s+out)\s+(?:for\s+me\s+)?"
                          r"(the\s+[\w-]+(?:\s+[\w-]+)?)\s+(?=(?:on|in|under|inside|next\s+to|beside|near|by)\s+(?:the|my|our)\b)",
                          re.I), lambda m: f"which {m.group(1)[4:]} is "),
              # "beside of the toothbrush", "near of the sink": a learner's "of" after a place word
              (re.compile(r"\b(beside|near|behind|inside)\s+of\s+(?=(?:the|my|your|our|a|an)\b)", re.I), r"\1 "),
              # "when'd you last clock the lime?": British slang for seeing
              (re.compile(r"\b(you\s+(?:last\s+|first\s+|ever\s+)?)clock(?:ed)?\b", re.I), r"\1see"),
              # "the juice, in which place it is?": where
              (re.compile(r"\bin\s+which\s+(?:place|spot|location|part\s+of\s+the\s+house)\b", re.I), "where"),
              # a numbered request ("11) colour of the toilet paper?", "2. get me the mug"): the number is the list's
              (re.compile(r"^\s*(?:#\s*)?\(?\d{1,3}\s*[).:]\s+(?=\S)"), ""),
              # Yorkshire "t'" (the): "give Ben t' radio", "in t' bedroom"
              (re.compile(r"(?<![\w'])t'\s+(?=[a-z])", re.I), "the "),
              # a stammered start of a word ("Wh-where does it b-belong?"): the word once
              (re.compile(r"\b([a-z]{1,3})-(?=(?:\1-)*\1[a-z])", re.I), ""),  # (every repeat: "b-b-before")
              # West African Pidgin: "e dey" (it is), "suppose dey" (is meant to be), "don do" (did)
              (re.compile(r"\bwhere\s+e\s+(?:dey|de|be)\s+before\b", re.I), "where it was before"),
              (re.compile(r"^where\s+((?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:suppose|supposed|supposed\s+to|for)\s+"
                          r"(?:dey|de|be|stay|go)\b", re.I), r"where does \1 go"),
              (re.compile(r"\b(you|i|we|he|she|they)\s+don\s+do\b", re.I), r"\1 did"),
              # "carry the pear go back where it was before": a serial verb, the pear put back
              (re.compile(r"^(?:please\s+)?(?:carry|take|bring)\s+((?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:go\s+)?back\s+"
                          r"(?:to\s+)?where\s+(?:it|e)\s+(?:was|dey|de|be)\s+before\b", re.I), r"put \1 back"),
              # a question in the order of a clause after a wrapper ("can you check what Ben did after X"): asked
              (re.compile(r"^(?:(?:can|could|would|will)\s+you\s+|please\s+)?(?:please\s+)?(?:check|find\s+out)\s+"
                          r"(?=(?:what|where|which|when|who|how)\b)", re.I), ""),
              (re.compile(r"(^|\b(?:check|find\s+out)\s+)(?:what|wetin)\s+((?-i:[A-Z][a-z]+)|he|she|they|you|I|we)\s+"
                          r"did\b(?!\s+(?:to|with|next)\b)", re.I), r"\1what did \2 do"),
              # "once Ben was done turning on the TV", "when she'd finished making coffee": after it
              (re.compile(r"\b(?:once|when|as\s+soon\s+as)\s+((?-i:[A-Z][a-z]+)|he|she|they)(?:\s+(?:was|were|had|got)|'d)?\s+"
                          r"(?:done|finished|through|stopped)(?:\s+with)?\s+(?=[a-z]+ing\b)", re.I), r"after \1 "),
              # "put washed lime in the fridge", "place chilled mug on the table": a done-to word, the article left out
              (re.compile(r"\b(put|place|set|move|bring|take|get|grab|fetch|carry|and)\s+(washed|rinsed|cleaned|chilled|cooled|"
                          r"heated|warmed|cooked|microwaved|sliced|dried|frozen)\s+(?=[a-z]{3,}\b)", re.I), r"\1 the \2 "),
              # ... before a two-word name ("put a washed coffee pot in the microwave"): the tagger made "washed" the
              # thing and "coffee pot" another; what was done to it says nothing memory can check
              (re.compile(r"\b(the|a|an)\s+(?:washed|rinsed|cleaned|chilled|cooled|heated|warmed|cooked|microwaved|dried|frozen)\s+"
                          r"([a-z]{3,}\s+[a-z]{3,})(?=\s+(?:in|on|into|onto|inside|to|from|at|back)\b)", re.I), r"\1 \2"),
              # "chill the lime in the fridge", "heat up the mug inside the microwave": what the robot does of it is
              # putting it there (the reply says where it put it; running the appliance is not a skill it has)
              (re.compile(r"^(?:please\s+)?(?:chill|cool|freeze|heat|warm|microwave|refrigerate)(?:\s+(?:down|up))?\s+"
                          r"((?:the|my|a|an|some|that|this)\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:down\s+|up\s+)?(in|inside|into)\s+"
                          r"(?=(?:the|a|an|my)\s+[\w-]+(?:\s+[\w-]+)?\s*[.!]*\s*$)", re.I), r"put \1 \2 "),  # (and nothing after)
              # "wash a radio and place inside microwave": where to put it said without "it" or an article
              (re.compile(r"\b(and\s+(?:then\s+)?)(place|put|set|leave)\s+(inside|in|into|on|onto)\s+(?!(?:the|a|an|my|it|that|this|"
                          r"your|our|some)\b)(?=[a-z]{3,})", re.I), r"\1\2 it \3 the "),
              # "take me to the radio", "show me the way to the kitchen", "show me where the mug is": lead the speaker
              # there (the robot goes; nothing is carried)
              (re.compile(r"^(?:please\s+)?(?:take|bring|lead|walk|guide|show)\s+(?:me|us)\s+(?:over\s+|back\s+)?to\s+(?=(?:the|my|our|your|a)\b)",
                          re.I), "go to "),
              (re.compile(r"^(?:please\s+)?(?:show|lead|take)\s+(?:me|us)\s+the\s+way\s+to\s+", re.I), "go to "),
              # "can you not bring the radio", "would you not open it": asking not to
              (re.compile(r"^(?:please\s+)?(?:can|could|would|will)\s+(?:you|u|ya)\s+not\s+(?=(?:bring|take|put|move|open|close|get|"
                          r"fetch|grab|touch|go|carry|hand|give|throw|leave)\b)", re.I), "don't "),
              # "place two radios o the table": a dropped letter of "on"
              (re.compile(r"(?<=\w)\s+o\s+(?=(?:the|a|an|top|my)\b)", re.I), " on "),
              # "bring me the radio, and while you're at it the loo roll as well": one more thing (or task)
              (re.compile(r"\s*,?\s*(?:and\s+)?while\s+(?:you're|you\s+are|ur|you)\s+(?:at\s+it|there|up)\s*,?\s+"
                          r"(?=(?:the|my|a|an|some|our|your|bring|get|grab|fetch|put|take|close|open)\b)", re.I), " and "),
              # "the radio and the loo roll too and bring them": "too" after a list's last thing says it is one more
              (re.compile(r"(?<=\w)\s+(?:too|as\s+well|also)\b(?=\s+(?:and|then|please)\b|\s*,)", re.I), ""),
              # telegraphic which: "towel next to wall shelf, which one?"
              (re.compile(r"^(?:the\s+)?([\w-]+(?:\s+[\w-]+)?)\s+(next\s+to|near(?:\s+to)?|by|beside|on|in|inside|under)\s+"
                          r"((?:the\s+)?[\w-]+(?:\s+[\w-]+)?)\s*,\s*which(?:\s+one)?(?:\s+is(?:\s+(?:it|that))?)?\s*\?*\s*$", re.I),
               r"which \1 is \2 \3?"),
              # "which bowl is it that's sitting on the table?", "which one plate is lying on it?": which is there
              (re.compile(r"\bwhich\s+(?:one\s+)?((?!one\b|is\b)[\w-]+(?:\s+(?!is\b)[\w-]+)?)\s+(is|are)\s+(?:it\s+that(?:'s|\s+is|\s+are)?\s+|"
                          r"that\s+)?(?:(?:sitting|lying|standing|resting|kept|stored|placed|sat|sittin'?|stood|laying)\s+)?"
                          r"(?=(?:on|in|inside|near|next\s+to|by|beside|under|at)\s)", re.I),
               lambda m: m.group(0) if re.fullmatch(r"which\s+\S+(?:\s+\S+)?\s+(?:is|are)\s+", m.group(0), re.I)
               and not re.match(r"which\s+one\s", m.group(0), re.I) else f"which {m.group(1)} {m.group(2)} "),
              # "which, uh, which bowl", "is is the fridge open": a word said again after a pause, once
              (re.compile(r"\b(which|what|where|who|how|when|is|are|the|a|can|could|do|does)\s+\1\b", re.I), r"\1"),
              (re.compile(r"\s*,\s*if\s+(?:i've|i\s+have)\s+got\s+(?:that|it)\s+right\s*(?=[?.!]*$)", re.I), ""),
              # "I could really use it right now", "we could do with some milk": a need
              (re.compile(r"^(?:well\s*,?\s*)?(i|we)\s+(?:could\s+(?:really\s+|sure\s+|totally\s+|honestly\s+)?(?:use|do\s+with)|can\s+(?:really\s+)?do\s+with)\s+"
                          r"(?=(?:it|that|them|those|the|a|an|some|my|our)\b)", re.I), lambda m: f"{m.group(1)} need "),
              # "where is it tho": "though" said last only hedges
              (re.compile(r"(?<=\w)\s*,?\s+(?:tho|though|tbh|lol|fr|rn)\s*(?=[?.!]*$)", re.I), ""),
              # "I don't mean every plate in the house, just which one is on the table": which plate
              (re.compile(r"^(?:i\s+don't|i\s+do\s+not)\s+mean\s+(?:every|all\s+the|each)\s+([\w-]+(?:\s+[\w-]+)?)\s+in\s+the\s+"
                          r"(?:house|home|flat|place|apartment)\s*,\s*(?:just|only)\s+which\s+one\s+", re.I), r"which \1 "),
              # Singlish / Malaysian / Cantonese English question particle ("... which one ah?"): the question mark
              (re.compile(r"(?<=\w)\s*,?\s+(?:ah|ar|a|meh|hor)\s*\?\s*$", re.I), "?"),
              # a state asked without "is" ("the fridge closed already or not?"): is it
              (re.compile(r"^((?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(open|opened|closed|shut|locked|unlocked|on|off|"
                          r"empty|full|clean|dirty)\s*(?:already|yet|still|now)?\s*,?\s*(?:(?:or\s+not|or\s+no|or\s+nah)\s*\??|\?)\s*$",
                          re.I), lambda m: f"is {m.group(1)[0].lower()}{m.group(1)[1:]} {m.group(2)}?"),
              # "is the wardrobe secured? Locked, I mean.": the word the speaker corrects to
              (re.compile(r"^((?:is|are|was|were)\s+(?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?)[\w-]+\s*\?\s*([\w-]+)\s*,?\s+i\s+mean\s*[.!?]*$",
                          re.I), lambda m: f"{m.group(1)}{m.group(2).lower()}?"),
              # the thing said first, then the question ("the carton of juice, what colour?")
              (re.compile(r"^((?:the|my|your|our)\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s*,?\s+what\s+(colou?r)(?:\s+(?:is\s+it|it\s+is))?\s*\??\s*$",
                          re.I), lambda m: f"what {m.group(2)} is {m.group(1)[0].lower()}{m.group(1)[1:]}?"),
              # "the bathroom got a coffee table or not?": is there one there
              (re.compile(r"^(?:the\s+)?(" + lx.ROOMS_RE + r")\s+(?:got|has|have)\s+(?:any\s+|a\s+|an\s+)?(.+?)(?:\s*,?\s+(?:or\s+not|or\s+no)"
                          r"\s*\??|\s*\?)\s*$", re.I), r"is there a \2 in the \1?"),
              # "which part of the house is the mug in?": which room
              (re.compile(r"\b(which|what)\s+(?:part|area|bit|end)\s+of\s+the\s+(?:house|home|flat|apartment|place)\b", re.I),
               r"\1 room"),
              # "where is it this time?": the occasion, not a thing ("it" is what was said before)
              (re.compile(r"\b(it|they|them)\s+(?:this|that)\s+time\s*(\?*)\s*$", re.I), r"\1\2"),
              # Caribbean English: "where de radio dey?" is where is the radio; "Ah cyah find it" is I can't
              (re.compile(r"^((?:\w+\s*,\s*)?)where\s+(?:de|di)\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:dey|deh|de)\b", re.I),
               r"\1where is the \2"),
              (re.compile(r"^ah\s+(?=(?:can't|can|cannot|need|want|don't|lost|looking|lookin|would|wan)\b)", re.I), "I "),
              # "does this household possess a phone?": the home is we
              (re.compile(r"\b(?:does|do)\s+(?:this|the|our)\s+(?:household|house|home|flat|apartment|place)\s+"
                          r"(?:have|possess|own|contain|hold)\b", re.I), "do we have"),
              # "Ben, after he sat down, then what?": the person said first as the topic is the "he" of the event
              (re.compile(r"^([A-Z][a-z]+)\s*,\s*(after|before|once|when)\s+(?:he|she|they)\b"), r"\2 \1"),
              # "Ben made coffee. Then what?": the event, then the question about what followed it
              (re.compile(r"^([^.?!]+?)\s*[.!]+\s*(?:and\s+)?then\s+what\s*(\??)\s*$", re.I), r"\1, and then what\2"),
              # "is the mug close to the sink?": near it (the tagger hangs "close to" under the verb, not the thing)
              (re.compile(r"(?<=\w\s)close\s+(?:by\s+)?to(?=\s+(?:the|my|your|our|his|her|a|an|that|this)\s)", re.I), "near"),
              # "is the fridge close?", "the fridge is close now?": learners' (and dictation's) "closed"; "close" as
              # near has a "to" or "by" after it
              (re.compile(r"\b(is|are|was|were)\s+((?:(?:the|my|your|our|it|they)\b\s*(?:[\w-]+\s+){0,2}?)?)close"
                          r"(?=\s*(?:\?|$|now\b|yet\b|already\b|still\b|or\b|,))", re.I), r"\1 \2closed"),
              # speech-to-text homophones and dialect spellings of question words ("witch plate is ...", Scots "whit")
              (re.compile(r"^witch\b(?=\s+(?:one|of|[\w-]+\s+(?:is|are|was|'s)\b))", re.I), "which"),
              (re.compile(r"^whit\b", re.I), "what"),
              (re.compile(r"\b(?:[Tt]wo|[Tt]oo)\s+(?=[A-Z][a-z]+\b)"), "to "),
              # the question word left in place after the thing: "the milk goes where?"
              (re.compile(r"^((?:the\s+|my\s+)?[a-z]+(?:\s+[a-z]+)?)\s+(?:goes|go|belongs|belong|lives|live)\s+where\b",
                          re.I), r"where does \1 go"),
              # "where is the place of the kettle?", "where's the right spot for it?": where it belongs
              # ("the place for washing hands" is where one does it: a doing is not kept anywhere)
              (re.compile(r"^where(?:'s|\s+is)\s+(?:the\s+)?(?:a\s+)?(?:place|spot)\s+(?:for|to)\s+((?!(?:bedd|cloth|str|r|ceil|build|paint|stuff|frost|ic|dress|season|fill|topp|light|"
                          r"wedd|bak|pudd|sock|kindl|shav)ing\b)[a-z]+ing|(?-i:[a-z]+)(?=\s+(?:my|the|some|a)\b))\b",
                          re.I), lambda m: f"where can I {_base_verb(m.group(1)) if m.group(1).lower().endswith('ing') else m.group(1)}"),
              (re.compile(r"^where(?:'s|\s+is)\s+(?:the\s+)?(?:proper\s+|right\s+|usual\s+)?(?:place|spot|home)\s+(?:of|for)\s+"
                          r"([^?.!]+?)\s*\?*$", re.I), r"where does \1 go?"),
              # "the kettle, first time you saw it was when?": the question word last
              (re.compile(r"^(.+?)\s*,\s*(?:the\s+)?(first|last)\s+time\s+(?:you|u)\s+(?:saw|seen|spotted|noticed)\s+"
                          r"(?:it|them)\s+(?:was\s+)?when\s*\??\s*$", re.I), r"when did you \2 see \1?"),
              # "when have you seen the kettle for the first time?"
              (re.compile(r"^when\s+(?:(?:have|did|had)\s+you|you\s+(?:have|had|did))\s+(?:seen|see|saw)\s+(.+?)\s+"
                          r"(?:for\s+)?the\s+(first|last)\s+time"
                          r"\s*\??\s*$", re.I), r"when did you \2 see \1?"),
              # "which is the mug that stays on the shelf?": a cleft around "which mug is on the shelf"
              (re.compile(r"\bwhich\s+(?:one\s+)?is\s+the\s+([\w-]+(?:\s+[\w-]+)?)\s+that(?:'s|\s+is|\s+stays|\s+sits|"
                          r"\s+lives|\s+is\s+kept|\s+was|\s+belongs)\s+(?=(?:on|in|under|next|by|beside|near|behind)\b)",
                          re.I), r"which \1 is "),
              (re.compile(r"\bwhich\s+one\s+(?:from|among|out\s+of)\s+the\s+", re.I), "which of the "),
              # "is the cupboard kept locked these days?": how a state is kept is the state
              (re.compile(r"\bkept\s+(?=(?:locked|unlocked|open|closed|shut)\b)", re.I), ""),
              (re.compile(r",?\s+these\s+days\s*(?=[?.!]*\s*$)", re.I), ""),
              # "kitchen: any kettles?", "kettles in the kitchen: how many?": the place or thing said first
              (re.compile(r"^(?:the\s+)?(" + lx.ROOMS_RE + r")\s*[:,\u2014-]\s*any\s+(.+?)\s*\??\s*$", re.I),
               r"are there any \2 in the \1?"),
              (re.compile(r"^(?!how\b)(.+?)\s*[:,\u2014-]\s*how\s+many\s*\??\s*$", re.I), r"how many \1?"),
              # "I want a count of the plates", "I want to know what's on the bed": the question they introduce
              (re.compile(r"^(?:i\s+(?:want|need|'d\s+like|would\s+like)|give\s+me)\s+a\s+(?:count|tally|head\s*count)\s+of\s+(?:the\s+|my\s+|our\s+|all\s+the\s+)?",
                          re.I), "how many "),
              (re.compile(r"^(?:i\s+(?:want|need|'d\s+like|would\s+like)\s+to\s+know|(?:would|could|can|will)\s+you\s+"
                          r"(?:please\s+)?tell\s+me)\s+(?=(?:what|where|which|who|when|how|whether|if)\b)", re.I), ""),
              # "... before I go over there": what the speaker is about to do is no time memory knows
              (re.compile(r",?\s+before\s+(?:i|we)\s+(?:go|come|head|walk|get|leave|start|sit|set\s+off)\b[^.?!,]*", re.I), ""),
              # "go and have a look for the keys", "have a root around for it": looking for it
              (re.compile(r"\bhave\s+a\s+(?:look|root|rummage|search|hunt|scout|nose|poke|dig)(?:\s+(?:around|round|about))?\s+"
                          r"for\b", re.I), "look for"),
              # "I could really do with the kettle right about now": a need for the thing
              (re.compile(r"\b(?:i|we)\s+could\s+(?:really\s+)?do\s+with\b", re.I), "I need"),
              (re.compile(r"\s+(?:right\s+)?about\s+now\b|\s+right\s+now\b", re.I), " now"),
              # "bring us over my glass": the particle after the person
              (re.compile(r"\b(bring|get|fetch|hand|pass|send)\s+(me|us)\s+(?:over|round|across|along|up|down)\s+"
                          r"(?=(?:the|my|your|our|a|an|some|that|this)\b)", re.I), r"\1 \2 "),
              # "go please to the bedroom"; "go to the kitchen and wait there": waiting is where the going ends
              (re.compile(r"^go\s+please\s+", re.I), "please go "),
              (re.compile(r",?\s+(?:for\s+me\s+)?and\s+(?:wait|stay|hang\s+on|hold\s+on)(?:\s+(?:for\s+)?me)?\s+there\b",
                          re.I), ""),
              # "nip into the living room", "pop over to the kitchen": dialect verbs of going
              (re.compile(r"\b(?:nip|pop|duck|zip|scoot|shoot)\s+(?:on\s+)?(?:into|in\s+to|over\s+to|through\s+to|down\s+to|"
                          r"up\s+to|out\s+to|round\s+to|across\s+to)\b", re.I), "go to"),
              # "I need you over by the fridge": where the robot is wanted is where to go
              (re.compile(r"^(?:i|we)\s+(?:need|want)\s+you\s+(?:over\s+|up\s+|down\s+|out\s+)?(?=(?:by|in|at|near|next\s+to|"
                          r"beside|on)\s+(?:the|my|our)\b)", re.I), "go "),
              # ---- questions in a learner's word order, and their time said first ----
              # "Before it got shifted, where the mug was kept?": the time said first goes after the question
              (re.compile(r"^(before|after)\s+((?:it|they|that|someone|somebody|he|she|[A-Z][a-z]+)\s+(?:got|was|were|"
                          r"has\s+been|had\s+been)?\s*(?:moved|shifted|taken|relocated|put\s+away))\s*,\s*"
                          r"((?:where|when|what|which)\b[^?]*?)\s*(\??)\s*$", re.I), r"\3 \1 \2\4"),
              # "where the mug was kept before?", "when the radio was moved?": the question word, then the
              # thing, then its verb, is "where was the mug kept before?"
              (re.compile(r"^(where|when|what\s+time)\s+((?:the|my|your|his|her|our|their|[A-Z][a-z]+'s)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
                          r"(is|was|are|were)\b(?!\s*\??\s*$)", re.I), r"\1 \3 \2"),
              # "prior to its removal", "before its move": before it was moved
              (re.compile(r"\bprior\s+to\b", re.I), "before"),
              (re.compile(r"\bbefore\s+(?:its|their)\s+(?:removal|move|moving|relocation|being\s+moved)\b", re.I),
               "before it was moved"),
              # "Where, before it was moved, was the lime kept?": a time set off by commas after the question word
              (re.compile(r"^(where|when)\s*,\s*(before|after)\s+([^,]{3,40}?)\s*,\s*(was|were|is|are|did|do|does)\s+"
                          r"([^?]*?)\s*(\??)\s*$", re.I), r"\1 \4 \5 \2 \3\6"),
              # "remote control: previous location?", "the previous location of the mug": where it was before
              (re.compile(r"^((?:the\s+|my\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})\s*[:,\u2014-]\s*(?:its\s+)?"
                          r"(?:previous|former|prior|earlier|old|last)\s+(?:location|place|position|spot|whereabouts)\b"
                          r"[^?]*(\??)\s*$", re.I), lambda m: f"where was {with_article(m.group(1))} before{m.group(2)}"),
              (re.compile(r"\b(?:what\s+(?:is|was)\s+)?the\s+(?:previous|former|prior|earlier)\s+(?:location|place|position|spot)"
                          r"\s+of\s+(?=(?:the|my|your|our)\b)", re.I), "where was "),
              # "Ben: next thing he did after ...?", "what was the next thing Ben did": what he did next
              (re.compile(r"^([A-Z][a-z]+)\s*[:,\u2014-]\s*(?:the\s+)?next\s+thing\s+(?:he|she|they)\s+did\b", re.I),
               r"what did \1 do next"),
              (re.compile(r"\b(?:what\s+(?:is|was|'s)\s+)?the\s+next\s+thing\s+([A-Z][a-z]+|he|she|they)\s+did\b"),
               r"what did \1 do next"),
              # "I can use the wardrobe or not?", "I can open the cupboard?": a statement said as a question asks it
              (re.compile(r"^(i|we)\s+(can|could|may|should)\s+([^?]+?)\s*(?:,?\s+or\s+not)?\s*\?+\s*$", re.I),
               r"\2 \1 \3?"),
              # "closed with a key": locked
              (re.compile(r"\b(?:closed|shut)\s+with\s+(?:a\s+|the\s+)?key\b", re.I), "locked"),
              # "Which is my glass?": which one is
              (re.compile(r"^which\s+(is|are)\s+(?=(?:my|your|his|her|our|their|[A-Z][a-z]+'s)\s)", re.I),
               r"which one \1 "),
              # "..., and I'd love to know where it used to be": the question the speaker wants answered
              (re.compile(r"\s*,?\s+(?:and|so|but)\s+(?=(?:i'd|i\s+would)\s+(?:love|like)\s+to\s+know\s+"
                          r"(?:where|what|which|who|when|how|whether|if)\b)", re.I), ". "),
              # "have you seen the lime? And if so, where?": where it was seen
              (re.compile(r"\bhave\s+you\s+seen\s+([^?.!]{2,40}?)\s*[?.!]\s*(?:and\s+)?(?:if\s+so|if\s+you\s+have|if\s+yes)"
                          r"\s*,?\s*where\s*\??", re.I), r"where have you seen \1?"),
              # "Where is the loo roll customarily kept": where it belongs
              (re.compile(r"\b(kept|stored|put)\s*,?\s+if\s+you\s+please\b", re.I), r"\1"),
              (re.compile(r"\b(?:customarily|usually|normally|generally|typically|ordinarily|habitually)\s+"
                          r"(?:kept|stored)\b", re.I), "supposed to go"),
              # ---- idioms of seeing, going and time ----
              (re.compile(r"\b(?:laid|set|clapped)\s+eyes\s+(?:up)?on\b", re.I), "seen"),
              (re.compile(r"\bhave\s+you\s+(?:by\s+any\s+chance\s+)?come\s+across\b", re.I), "have you seen"),
              (re.compile(r"\b(?:make|making|made)\s+(?:your|my|his|her|its)\s+way\s+(?:over\s+|back\s+|down\s+|up\s+)?"
                          r"(?=to\b|into\b|in\s+to\b)", re.I), "go "),
              (re.compile(r"\btrack\s+down\b", re.I), "find"),
              (re.compile(r",?\s*(?:while|when)\s+(?:you\s+were\s+)?(?:doing|on)\s+your\s+rounds(?:\s+of\s+the\s+"
                          r"(?:house|flat|place))?", re.I), ""),
              (re.compile(r"\b(time|late|early)-ish\b", re.I), r"\1"),
              # Scots and Irish: "the now" is now, "the day" today, "where's it to" where is it
              (re.compile(r"\b(?:to\s+)?the\s+now\b", re.I), "now"),
              (re.compile(r"(?<!\bduring\s)(?<!\ball\s)(?<!\bthat\s)(?<!\bof\s)(?<!\bfor\s)(?<!\bby\s)(?<!\bon\s)"
                          r"(?<!\bin\s)(?<!\bsame\s)(?<!\bwhole\s)(?<!\bnext\s)(?<!\bevery\s)\bthe\s+day"
                          r"(?=\s*(?:,|\?|\.|!|$|then\b))", re.I), "today"),
              (re.compile(r"\bwhat\s+were\s+you\s+at\b", re.I), "what did you do"),
              (re.compile(r"\bwhere's\s+((?:the|my|your|it)\b(?:\s+[\w-]+){0,3}?)\s+to(?=\s*(?:now\b|\?|$))", re.I),
               r"where is \1"),
              (re.compile(r",?\s*\b(?:aye|eh|so\s+it\s+is)\s*(\?*)\s*$", re.I), r"\1"),
              (re.compile(r"^(?:here|look|listen)\s*,\s*(?=(?:where|what|which|who|when|how|is|are|have|has|can|could)\b)",
                          re.I), ""),
              (re.compile(r"^help\s+me\s+out(?:\s+here)?\s*[,.!]\s*", re.I), ""),
              # "have we any salmon": do we have any
              (re.compile(r"^have\s+(we|you)\s+(?=(?:any|a|an|got\s+any)\b)", re.I), r"do \1 have "),
              # "is to be found in the kitchen": is in it
              (re.compile(r"\b(is|are)\s+to\s+be\s+found\b", re.I), r"\1"),
              # the thing a question is about, looked up "in your memory" or "in your head" first: the thing
              (re.compile(r"^(?:please\s+)?(?:look\s+up|check|search\s+for|think\s+about|find)\s+((?:the|my|your|our)\s+"
                          r"(?:[\w-]+\s+){0,2}?[\w-]+)\s+in\s+your\s+(?:memory|head|mind|records)\s*[.,;]\s*(?:then\s+|and\s+)?",
                          re.I), r"\1. "),
              (re.compile(r"^(?:please\s+)?check\s+your\s+(?:memory|records)\s+(?:of|for|about)\s+((?:the|my|your|our)\s+"
                          r"(?:[\w-]+\s+){0,2}?[\w-]+)\s*[.,;]\s*", re.I), r"\1. "),
              # "tell me its colour": what colour it is
              (re.compile(r"\b(?:tell|remind)\s+me\s+(?:of\s+)?(its|their)\s+(colou?r|size|shape|material)\b", re.I),
               lambda m: f"what {m.group(2)} {'is it' if m.group(1).lower() == 'its' else 'are they'}"),
              (re.compile(r"\b(?:kindly\s+|please\s+)?remind\s+me\s+(?:of\s+)?(?:what\s+)?the\s+(colou?r|size|shape|material)\s+"
                          r"of\s+", re.I), r"what \1 is "),
              # "anything to drink anywhere?": where to look is everywhere, the use is to drink
              (re.compile(r"\b((?:any|some)thing\s+to\s+[a-z]+(?:\s+(?:with|on|in|from))?)\s+(?:anywhere|somewhere|around(?:\s+here)?|"
                          r"about|in\s+the\s+(?:house|flat|place)|at\s+all)\b", re.I), r"\1"),
              # ---- relayed requests, asides and stories around the request ----
              # "(and honestly we have far too many)": a written aside in brackets says nothing of the request
              (re.compile(r"\s+\([^()]{0,160}\)", re.I), ""),  # (a call in code, "location_of(x)", has no space)
              # "Anna, who is very particular about her things, wants to know ...": a clause about the person
              (re.compile(r"^([A-Z][a-z]+|my\s+[a-z]+)\s*,\s*who\s+[^,]{0,160},\s*"), r"\1 "),
              (re.compile(r"^rather\s+than\s+[^,]{0,160},\s*", re.I), ""),
              (re.compile(r"^before\s+(?:my|our|the|your|[A-Z][a-z]+)\b[^,]{0,80}(?:,[^,]{0,160})?,\s*"
                          r"(?=(?:could|can|would|will)\s+you\b|please\b)", re.I), ""),
              (re.compile(r"\s*,\s*(?:since|because|as)\s+(?:(?:apparently|obviously|clearly|evidently|of\s+course|as\s+usual)\s+)?"
                          r"(?:she|he|they|i|we|it)\b[^?.!]*(\?)\s*$", re.I), r"\1"),
              # someone else's request passed on: "Mum told me to ask you to bring me the pear", "my son wants to know
              # which room it's in", "my aunt is asking whether there's an apple in the bedroom"
              (re.compile(r"^([A-Z][a-z]+)\s+(?:wants|would\s+like|is\s+asking|asked)\s+(?:to\s+know\s+)?(where|which|what|when|whether|if)"
                          r"\s+(?:her|his)\s+"), r"\2 \1's "),
              (re.compile(r"^([A-Z][a-z]+)\s+(?:wants|would\s+like|is\s+asking|asked)\s+(?:to\s+know\s+)?(which\s+[\w-]+\s+is)\s+"
                          r"(?:hers|his)\b"), r"\2 \1's"),
              (re.compile(r"^(?:(?:and|also|oh)\s*,?\s+)?(?:(?:my|our)\s+[a-z]+|mum|mom|dad|grandma|grandpa|granny|gran|nan|she|he|they|"
                          r"[A-Z][a-z]+)\s+"
                          r"(?:(?:told|asked)\s+me\s+to\s+ask\s+(?:you\s+)?(?:to\s+)?|says\s+i\s+should\s+ask\s+you\s+to\s+|"
                          r"asked\s+me\s+to\s+check\s+with\s+you\s+|(?:is|was)\s+asking\s+(?:me\s+|you\s+)?|"
                          r"(?:is\s+[a-z]+ing\s+(?:up\s+)?and\s+)?wants\s+to\s+know\s+|would\s+like\s+to\s+know\s+|"
                          r"wants\s+a\s+list\s+of\s+)", re.I), ""),
              (re.compile(r"\byou've\s+seen\b", re.I), "you have seen"),
              (re.compile(r"^whether\s+(he|she|they)\s+(can|could|may)\s+", re.I), r"whether I \2 "),
              (re.compile(r"^when\s+you\s+(first|last)\s+saw\s+", re.I), r"when did you \1 see "),
              # "when you saw the teddy for the first time?": a question said without its auxiliary
              (re.compile(r"^when\s+(?:you|u)\s+(?:(first|last)\s+)?(?:saw|seen|see)\s+(.+?)\s+for\s+the\s+(first|last)\s+time\b",
                          re.I), r"when did you \3 see \2"),
              (re.compile(r"^when\s+(?:you|u)\s+(?:(first|last)\s+)?(?:saw|seen)\s+", re.I),
               lambda m: f"when did you {(m.group(1) + ' ') if m.group(1) else ''}see "),
              (re.compile(r"^which\s+room\s+(it|they|(?:the|my)\s+[\w-]+(?:\s+[\w-]+)?)(?:'s|\s+is|\s+ended\s+up|\s+has\s+ended\s+up)"
                          r"\s+in\s*([?.!]*)\s*$", re.I), r"which room is \1 in?"),
              (re.compile(r"\bended\s+up\s+leaving\b", re.I), "leave"),
              (re.compile(r"\s+in\s+my\s+hands?\b", re.I), ""),
              # "There's nothing in the wardrobe, is there?": what is in it
              (re.compile(r"^there's\s+nothing\s+(in|on|inside|under)\s+((?:the|my)\s+[\w\s-]+?)\s*,\s*is\s+there\s*\?*\s*$", re.I),
               r"what is \1 \2?"),
              (re.compile(r"\bis\s+((?:the|my)\s+[\w-]+(?:\s+[\w-]+)?)\s+opening(?:\s+at\s+all)?\s*\?", re.I), r"can \1 be opened?"),
              (re.compile(r"^(?:out\s+)?of\s+all\s+the\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)(?:\s+in\s+(?:this|the)\s+(?:house|flat|place|home))?"
                          r"\s*,\s*which\s+(?:is\s+)?the\s+one\s+(?:that's|that\s+is|which\s+is)\s+(?:right\s+)?", re.I),
               lambda m: f"which {singular_phrase(m.group(1))} is "),
              # Filipino English particles ("close the fridge na, po")
              (re.compile(r"\s*,?\s*\b(?:na|po|naman|lang)\b(?=\s*[,.!?]|\s*$)", re.I), ""),
              (re.compile(r"\b(carry|take|bring)\s+((?:the|my)\s+[\w-]+(?:\s+[\w-]+)?)\s+go\s+to\s+", re.I), r"\1 \2 to "),
              # "where the milk belongs", "where the cup goes" (an embedded question said alone): where it belongs
              (re.compile(r"^where\s+((?:the|my|your|our|[A-Z][a-z]+'s)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:belongs|goes|lives)\b", re.I),
               r"where does \1 belong"),
              (re.compile(r"\s*,\s*i\s+said\s*([?.!]*)\s*$", re.I), r"\1"),
              # "Where was the lime? Before, I mean. Before it was moved, eh?": the time said after the question
              (re.compile(r"^(where\s+(?:was|were)\s+(?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s*\?\s*"
                          r"(?:before|earlier|previously)(?:\s*,\s*i\s+mean)?\s*[.!,]?\s*"
                          r"(?:before\s+(?:it|they)\s+(?:was|were|got)\s+moved)?(?:\s*,\s*(?:eh|right|yeah))?\s*[?.!]*\s*$", re.I),
               r"\1 before it was moved?"),
              # "where user can wash_hands": the user is the speaker, an identifier's underscores are spaces
              (re.compile(r"(?<=[a-z])_(?=[a-z])", re.I), " "),
              (re.compile(r"\bwhere\s+(?:the\s+)?user\s+(can|could|should)\b", re.I), r"where \1 I"),
              (re.compile(r"\brestore\s+((?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)(?:\s*(?:->|to)\s*(?:its\s+)?"
                          r"(?:previous|former|original|old)[\s_]*(?:location|place|position|spot)(?:\s*\([^)]*\))?)?\s*$", re.I),
               r"put \1 back"),
              # words said to someone else before the robot is addressed: "Stay there, sweetie — robot, go and find it"
              (re.compile(r"^[^.!?]{1,80}?(?:[\u2014\u2013]|\s-+|[.!?])\s*robot\s*[,:]\s*", re.I), ""),
              # particles and politeness of other languages and dialects that carry nothing of the request
              (re.compile(r"(?:^|(?<=[.!?]\s))(?:oye|mira|pues|bueno|vale|ja|eish|hey)\s*[,!]?\s+", re.I), ""),
              (re.compile(r"\s*,?\s*\b(?:por\s+favor|porfa|gracias|ja,?\s+lekker|lekker)\b\s*(?=[,.!?]|$)", re.I), ""),
              # Caribbean "nah" and Malaysian "lah" softening a request at its end ("take it out the microwave nah")
              (re.compile(r"(?<=\w\s\w)([\w']*)\s*,?\s+(?:nah|lah|la|leh|lor|sia)\s*([.!?]*)\s*$", re.I), r"\1\2"),
              # fillers at the start ("mm... the ball... where"), a humming pause
              (re.compile(r"^(?:m{2,}|hm+|hmm+|uh+|um+|erm+|er)\b\s*[,.\u2026]*\s*", re.I), ""),
              # West African and Caribbean "dey" (is) and "wetin" (what) in questions: "where the mug dey?",
              # "which plate dey next to the table?"
              (re.compile(r"\bwetin\b", re.I), "what"),
              (re.compile(r"^(?:where|wey)\s+((?:the|my|your|our|de|di)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+dey\b", re.I), r"where is \1"),
              (re.compile(r"^((?:which|what)\b[^?.!]*?\b[\w-]+)\s+dey\b(?!\s+(?:don't|do)\b)", re.I), r"\1 is"),
              # "Out of all of them, which book ...": the set is what the question is about anyway
              (re.compile(r"^(?:out\s+of|of|among)\s+all\s+(?:of\s+)?(?:them|those|these|the\s+[\w-]+)\s*,\s*", re.I), ""),
              # "adjacent to", "in proximity to": next to
              (re.compile(r"\b(?:adjacent|proximate)\s+to\b|\bin\s+(?:close\s+)?proximity\s+to\b", re.I), "next to"),
              # "presently located", "currently situated": where it is
              (re.compile(r"\b(?:presently|currently|now)\s+(located|situated|kept|found|positioned)\b", re.I), r"\1"),
              # a state said with how well ("is the fridge shut properly?"): the state
              (re.compile(r"\b(open|opened|closed|shut|locked|unlocked|off|on)\s+(?:properly|fully|completely|tightly|securely|"
                          r"all\s+the\s+way)\b", re.I), r"\1"),
              # words of feeling before a thing ("the bloody remote", "what lovely mess"): no property memory holds
              (re.compile(r"\b(?:bloody|damn|damned|darn|darned|dang|danged|flipping|freaking|fricking|frigging|friggin|"
                          r"blasted|wretched|godforsaken|stupid|lovely|blessed|cursed|pesky)\s+(?=[a-z])", re.I), ""),
              # "sit myself down": sit down
              (re.compile(r"\b(sit|lie|lay|settle)\s+(?:myself|yourself|ourselves|himself|herself)\s+down\b", re.I), r"\1 down"),
              # German "gibt es" said word for word: "gives it a frying pan in the kitchen?" is there one
              (re.compile(r"^gives?\s+it\s+(?=(?:a|an|any|some)\b)", re.I), "is there "),
              # Caribbean "it have": there is ("it have anything to eat?")
              (re.compile(r"(?:^|(?<=[,.!?]\s))it\s+(?:have|has|got)\s+(?=(?:any|a|an|some|anything|something)\b)", re.I), "is there "),
              # German and Dutch order of a perfect ("when have you the keyboard last seen?"): the participle after
              # its auxiliary
              (re.compile(r"\b(have|has|had)\s+(you|u|anyone|anybody|somebody|someone)\s+((?:the|my|a|an|your|our)\s+"
                          r"(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:the\s+(?=(?:last|first)\s+time))?((?:last|first|ever|already|recently|"
                          r"somewhere|anywhere)\s+)?(?:time\s+)?"
                          r"(seen|found|put|left|moved|noticed|spotted)\b", re.I), r"\1 \2 \4\5 \3"),
              # a need said, then the request for "something" or "a suitable item": the need is what to bring
              (re.compile(r"^(?:i\s+)?(?:need|want|would\s+like|'d\s+like)\s+(something\s+to\s+\w+(?:\s+[\w']+){0,4}?)\s*"
                          r"(?:while\s+[^,.!?]+)?[,.!]\s*(?:so\s+)?(?:kindly\s+|please\s+|just\s+|could\s+you\s+)?"
                          r"(?:bring|get|fetch|grab|hand|find)\s+(?:me\s+)?(?:something|one|(?:a|an)\s+(?:suitable|appropriate|"
                          r"fitting|good)?\s*(?:item|thing|one))(?:\s+(?:suitable|appropriate))?\s*[.!?]*\s*$", re.I),
               r"bring me \1"),
              # why the robot is asked, after the question ("..., I can't see it from here", "..., since you see
              # everything", "..., the one right by it"): no part of what is asked
              (re.compile(r"\s*[,;]\s*(?:because\s+|as\s+|cos\s+)?(?:i|we)\s+(?:can't|cannot|can\s+not|couldn't)\s+see\s+"
                          r"(?:it|them|that|anything)(?:\s+from\s+(?:here|where\s+i\s+am))?\s*[.!?]*\s*$", re.I), "?"),
              (re.compile(r"\s*,\s*since\s+you\s+(?:apparently\s+|obviously\s+|clearly\s+|supposedly\s+)?(?:see|know|remember|"
                          r"are|have|notice)\b[^?.!]*", re.I), ""),
              (re.compile(r"\s*,\s*the\s+one\s+(?:right\s+|just\s+)?(?:by|next\s+to|beside|near)\s+it\s*(?=[?.!]*\s*$)", re.I), ""),
              # "do you reckon I can get into the cabinet (alright)?": whether it can be got into
              (re.compile(r"^(?:do\s+you\s+)?(?:reckon|think|suppose|figure)\s+(i|we)\s+(can|could)\s+(.+?)(?:\s+(?:alright|all\s+right|"
                          r"ok|okay|fine))?\s*\?*\s*$", re.I), r"\2 \1 \3?"),
              (re.compile(r"^(?:do\s+you\s+)?(?:reckon|suppose|figure)\s+(you)\s+(can|could|would)\s+", re.I), r"\2 \1 "),
              (re.compile(r"^(can|could)\s+(?:i|we)\s+get\s+into\s+((?:the|that|this|my|our)\s+(?:(?!or\b|and\b)[\w-]+\s+){0,2}?[\w-]+)"
                          r"\s*\?+\s*$", re.I), r"\1 \2 be opened?"),
              (re.compile(r"^(is\s+[^,?]{2,60}?\s+(?:usable|locked|open|closed))\s*,\s*(?:can|could)\s+(?:i|we|it|you)\s+[^?]{2,40}\?*\s*$",
                          re.I), r"\1?"),
              # "somebody moved the toy. where was it before they did?": before it was moved
              (re.compile(r"\b(moved|shifted|took|touched)\b(.{1,60}?)\bbefore\s+(?:they|he|she|someone|somebody|you|it)\s+"
                          r"(?:did|was)(?:\s+(?:it|that|so))?\b", re.I), r"\1\2before it was moved"),
              (re.compile(r"\btransport\s+(?=(?:the|my|this|that|it|them)\b)", re.I), "take "),
              # where a thing "has got to" is where it is ("I don't suppose you'd know where the mug has got to?")
              (re.compile(r"^(?:i\s+)?(?:don't|do\s+not)\s+suppose\s+(?:you'd|you\s+would|you)\s+(?:know|have\s+seen)\s+(?=where\b)",
                          re.I), ""),
              (re.compile(r"\bwhere\s+((?:the|my|our|your)\s+[\w ]{2,30}?)\s+(?:has|have|'s|'ve)\s+got\s+to\b", re.I), r"where is \1"),
              (re.compile(r"\bwhere(?:'ve|\s+have|'s|\s+has)\s+((?:the|my|our|your)\s+[\w ]{2,30}?)\s+got\s+to\b", re.I), r"where is \1"),
              (re.compile(r"\bget\s+up\s+to\b(?=\s*(?:next|then|after|afterwards|\?|$))", re.I), "do"),
              # "somebody left open the microwave?": whether it is open
              (re.compile(r"^(?:did\s+)?(?:somebody|someone|anybody|anyone)\s+(?:left|leave)\s+open\s+((?:the|my)\s+[\w ]{2,30}?)\s*\?+\s*$",
                          re.I), r"is \1 open?"),
              (re.compile(r"^tell\s+me\s+(?:everything|all|what's|what\s+is)\s+(on|in|inside|under)\s+(?:the\s+)?", re.I), r"what is \1 the "),
              # a reason why it should be quick or a pause after the request ("..., I'm on a call, quick", "..., hang on")
              (re.compile(r"\s*,\s*(?:(?:right\s+now|quick(?:ly)?|please)\s*,\s*)?i'?m\s+on\s+(?:a|the)\s+(?:call|phone)"
                          r"(?:\s*,\s*(?:quick(?:ly)?|please|hurry))?\s*(?=[?.!]*\s*$)", re.I), "?"),
              (re.compile(r"\s*,\s*hang\s+on\s*(?=[?.!]*\s*$)", re.I), ""),
              (re.compile(r"\s*,\s*sorry\s*,\s*hang\s+on\s*,\s*(?=and\b)", re.I), " "),
              # a suspicion that something was left open or on is asked to be confirmed
              (re.compile(r"^(?:i\s+think|i\s+suspect|i'?m\s+afraid|i\s+fear|i\s+bet|(?:i\s+have|i've|i've\s+got|i\s+get)\s+"
                          r"(?:a|this)\s+(?:\w+\s+)?(?:feeling|suspicion|hunch|sense))\s+(?:that\s+)?((?:the|my|our)\s+[\w ]{2,30}?)\s+"
                          r"(?:got|was|has\s+been|'s\s+been|might\s+have\s+been|may\s+have\s+been)\s+left\s+(open|on|off|unlocked|"
                          r"running)\s*[.!]*\s*$", re.I), r"is \1 \2?"),
              # "I'd like to see where the juice ended up - show me": go to it
              (re.compile(r"^(?:i'?d|i\s+would)\s+like\s+to\s+see\s+where\s+((?:the|my|our)\s+[\w ]{2,30}?)\s+(?:ended\s+up|is|went|"
                          r"got\s+to|has\s+gone)\s*(?:[\u2014\u2013,;.-]+\s*(?:show|take)\s+me\s*(?:there)?)?\s*[.!]*\s*$", re.I),
               r"go to \1"),
              # "where could I get some sleep": a place to sleep, not a thing to get
              (re.compile(r"\b(?:get|have|grab|catch)\s+(?:some\s+|a\s+bit\s+of\s+)?(sleep|rest|shut-eye|kip)\b", re.I), "sleep"),
              (re.compile(r"\b(?:have|take)\s+a\s+(?:lie-down|lie\s+down|nap|kip|snooze)\s+and\s+sleep\b", re.I), "sleep"),
              # where a thing is "hiding" or "lurking" is where it is
              (re.compile(r"(?<=\w)\s+(?:hiding|lurking|hanging\s+out|chilling|sulking)(?=\s+(?:in|on|under|at|inside)\b|\s*[?.!]*$)",
                          re.I), ""),
              # German "bekommen" said as "become": "can I become the remote?" is can I get it
              (re.compile(r"\b(can|could|may)\s+(i|we)\s+become\s+(?=(?:the|my|a|an|some|your|this|that)\b)", re.I),
               r"\1 \2 get "),
              (re.compile(r"\b(bring|give|hand|pass)\s+(it|them)\s+me\b", re.I), r"\1 \2 to me"),
              # a reason or a laugh after the request ("what colour's the remote, tryna match my setup", "... lol")
              (re.compile(r"\s*,\s*(?:tryna|trying\s+to|gotta|need\s+to|wanna)\s+[^,?]{1,60}$", re.I), ""),
              (re.compile(r"\s+(?:lol|lmao|haha+|xd|rofl|ngl|tbh|fr)\s*([?.!]*)\s*$", re.I), r"\1"),
              (re.compile(r"\s*,\s*pleased\s*([.!]*)\s*$", re.I), r", please\1"),
              # "help me open the microwave can?": a request, the trailing "can?" asking whether the robot can
              (re.compile(r"^(?:please\s+)?help\s+me\s+(?=(?:open|close|shut|bring|fetch|get|put|carry|move|find)\b)", re.I),
               "please "),
              (re.compile(r"(?<=\w)(\s*,?\s+)(\w+)\s+can\s*\?+\s*$", re.I),
               lambda m: m.group(0) if m.group(2).lower() in _CAN_NOUNS else f"{m.group(1)}{m.group(2)}."),
              # "where the mug was left by me": where I left it
              (re.compile(r"\bwhere\s+((?:the|my)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:was|were|got)\s+(left|put|placed|dropped|"
                          r"set|stashed)\s+by\s+me\b", re.I), r"where I \2 \1"),
              (re.compile(r"^i\s+(?:need|want|would\s+like|'d\s+like)\s+to\s+be\s+told\s+", re.I), "tell me "),
              # a word of address after a comma ("bring it, sweetie"); without the comma it may be a thing ("my pet")
              (re.compile(r"\s*,\s*\b(?:n[eé]|eh|sweetie|honey|darling|pet|love|sweetheart)\b\s*(?=[,.!?]|$)", re.I), ""),
              (re.compile(r"\bpues\s+(?=(?:close|open|bring|take|put|get|go|find)\b)", re.I), ""),
              (re.compile(r"\s+y\s+(?:también|tambien)\s+", re.I), " and "),
              (re.compile(r"(?:^|(?<=[.!?]\s))both\s+of\s+them\s*,?\s*(?:eh|right|yeah|okay|ok)?\s*[?!.]*\s*$", re.I), ""),
              # a terse log's words for a question ("last seen time for lime?", "headcount on plates in the kitchen?
              # Give me a number."): the question
              (re.compile(r"^(?:the\s+)?last\s+(?:seen|sighting|sighted|spotted)(?:\s+(?:time|timestamp))?\s+(?:for|of|on)\s+", re.I),
               "when did you last see "),
              (re.compile(r"^(?:a\s+|quick\s+)?(?:head\s*count|tally)\s+(?:on|of|for)\s+", re.I), "how many "),
              (re.compile(r"(?<=\?)\s*(?:just\s+)?(?:give|tell)\s+me\s+(?:a|the)\s+(?:number|count|figure)\s*[.!]*\s*$", re.I), ""),
              # "when was the last time you saw it? like, roughly what time?": the same question narrowed, said once
              (re.compile(r"^(when\b[^?]{4,120}\?)\s*(?:like\s*,?\s*|so\s*,?\s*|i\s+mean\s*,?\s*)?(?:roughly|about|around|approximately|"
                          r"more\s+or\s+less)?\s*(?:at\s+)?what\s+time(?:\s+(?:was\s+that|was\s+it|roughly|about))?\s*\??\s*$", re.I), r"\1"),
              # "When you saw last time remote control?", "Last sighting of the remote, what time?": when last seen
              (re.compile(r"^when\s+(?:did\s+)?you\s+(?:saw|see|seen)\s+(?:it\s+)?(?:the\s+)?(last|first)\s+time\s+(?:the\s+)?(.{2,40}?)\s*\?",
                          re.I), r"when did you \1 see the \2?"),
              (re.compile(r"^(?:the\s+)?(last|first)\s+sighting\s+of\s+(.{2,40}?)\s*,\s*(?:at\s+)?what\s+time\s*\?*\s*$", re.I),
               r"when did you \1 see \2?"),
              (re.compile(r"^(when\s+did\s+you\s+(?:last|first)\s+see\s+[^,?]{2,40}?)\s*,\s*(?:at\s+)?what\s+time\s*\?*\s*$", re.I), r"\1?"),
              # "...? I mean the first time, what time was that?": the same question, said again
              (re.compile(r"^(when\b[^?]{4,120}\?)\s*(?:i\s+mean\s+(?:the\s+)?(?:first|last)\s+time\s*,?\s*)?(?:at\s+)?what\s+time\s+"
                          r"(?:was\s+(?:that|it)|roughly)\s*\??\s*$", re.I), r"\1"),
              # "which of the face creams is it that stands beside ...": which of them stands there
              (re.compile(r"\b(which\s+(?:of\s+the\s+)?[\w ]{2,30}?)\s+is\s+it\s+that\s+(?:stands|sits|is|lies)\s+(?=(?:beside|next|near|by|on|in|under|behind)\b)",
                          re.I), r"\1 is "),
              # "after Ben made coffee, what he do?": what did he do
              (re.compile(r"\bwhat\s+(he|she|they|[A-Z][a-z]+)\s+do\s*(?=(?:next|then|after|\?|$))"), r"what did \1 do "),
              # "Ben made coffee. next action?": what he did after that
              (re.compile(r"^((?-i:[A-Z][a-z]+)|he|she)\s+((?:\w+ed|made|sat|took|had|went|got|ran|put|did)\b[^.?!]{0,60}?)\s*[.,;]\s*"
                          r"(?:(?:his|her|their)\s+)?(?:next\s+(?:action|move|step|thing)|what\s+next|then\s+what|and\s+then|after\s+that)\s*\?+\s*$",
                          re.I), r"what did \1 do after \1 \2?"),
              # "that cupboard gonna open for me if I give it a pull?": will it open
              (re.compile(r"^((?:the|that|this|my|our)\s+[\w ]{2,30}?)\s+(?:gonna|going\s+to|gon)\s+(open|budge|give)\b", re.I), r"will \1 \2"),
              # "need to cook something. where", "where am I supposed to sleep?": where can I
              (re.compile(r"^(?:i\s+)?need\s+to\s+([a-z]+)(?:\s+(?:something|somewhere|a\s+bit))?\s*[.,:;]?\s*where\s*\??\s*$", re.I),
               r"where can I \1?"),
              (re.compile(r"\bwhere\s+am\s+i\s+(?:supposed|meant)\s+to\s+(?=[a-z])", re.I), "where can I "),
              # "you can bring the two for me?": both (a count said with no noun after it)
              (re.compile(r"\b(bring|get|fetch|grab|take|carry|give)\s+(?:me\s+)?(?:the|those|these)\s+two\b"
                          r"(?=\s*(?:of\s+them\b|for\b|to\b|over\b|here\b|please\b|now\b|[.,!?]|$))(?:\s+of\s+them)?", re.I), r"\1 both"),
              # "let me know at what time you first saw it": when (an asked time, not a clock time said)
              (re.compile(r"\bat\s+what\s+time\s+(?=(?:you|i|he|she|they|we|it|did|do|does|was|were|have|had)\b)", re.I),
               "when "),
              # "Could I possibly trouble you to ...", "Would it be at all possible to ...": please
              (re.compile(r"^(?:could|can|might|may)\s+i\s+(?:possibly\s+)?trouble\s+you\s+to\s+", re.I), "please "),
              (re.compile(r"^would\s+it\s+be\s+(?:at\s+all\s+)?possible\s+(?:for\s+you\s+)?to\s+", re.I), "please "),
              # "is it possible for you to bring ...": asked of the robot, a request ("is it possible to open the
              # cabinet?", said of no one, stays a question of whether it can be opened)
              (re.compile(r"^(?:is|will)\s+it\s+(?:be\s+)?(?:at\s+all\s+)?(?:possible|ok|okay|alright|all\s+right)\s+for\s+"
                          r"you\s+to\s+", re.I), "please "),
              # a command written as code: "exec fetch keyboard -> me", "exec navigate_to(location_of(magazine))"
              (re.compile(r"^exec(?:ute)?\s+", re.I), ""),
              (re.compile(r"\bnavigate[ _]to\s*\(\s*location[ _]of\s*\(\s*([^()]+?)\s*\)\s*\)", re.I), r"go to the \1"),
              (re.compile(r"\s*->\s*me\b", re.I), " to me"),
              (re.compile(r"\s*->\s*storage[ _]location\s*\([^()]*\)", re.I), " away"),
              # ---- learners' and hurried forms ----
              (re.compile(r"^any\s+(.+?)\s+(?:are|is)\s+there\s+(in|on|inside)\s+(.+?)(?:\s*,?\s*or\s+not)?\s*\??\s*$", re.I),
               r"are there any \1 \2 \3?"),
              (re.compile(r"^(?:the\s+)?(?:count|number|tally)\s+of\s+([a-z][\w\s-]*?)\s+(in|on)\s+(the\s+[\w\s-]+?)\s*(?=\?|$)",
                          re.I), r"how many \1 are there \2 \3"),
              (re.compile(r"^(?:the\s+)?(?:count|number|tally)\s+of\s+(?=[a-z])", re.I), "how many "),
              (re.compile(r"\s*[.,]?\s*(?:just\s+)?(?:the\s+)?number\s+only\s*[.!]*\s*$", re.I), ""),
              (re.compile(r"^(?:it\s+would|it'd|it\s+'d)\s+be\s+(?:lovely|nice|great|good|handy|grand|brilliant|ideal)\s+to\s+"
                          r"have\s+((?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:(?:over\s+)?here|with\s+me|by\s+me)"
                          r"(?:\s+with\s+me)?\s*[.!]*\s*$", re.I), r"bring me \1"),
              (re.compile(r"^(?i:what)\s+did\s+([A-Z][a-z]+|he|she|they)\s+(?=(?i:after|before|next|then)\b)"),
               r"what did \1 do "),
              (re.compile(r"\s*,\s*any\s+ideas?\s+(?=(?:where|what|which|when|who|how)\b)", re.I), ". "),
              (re.compile(r"\bwhich\s+(colou?r)\s+(?:has|have|does)\s+(?=(?:the\s+|my\s+|your\s+)?[a-z])", re.I), r"what \1 is "),
              # a placeholder word said before the name comes ("the thingy — the mug, that's it")
              (re.compile(r"\b(?:the|a|that|this)\s+(?:thingy|thingamajig|thingamabob|thingummy|whatsit|whatchamacallit|"
                          r"doodah|doohickey|gizmo|whatnot)\s*(?:[\u2014\u2013,]|\s-+)\s*(?=(?:the|my|your|a|an)\s)", re.I), ""),
              (re.compile(r"\s*,\s*that's\s+(?:it|the\s+one)\s*(?=[.!,]|$)", re.I), ""),
              # a numbered list said aloud: "1) the radio; 2) the milk"
              (re.compile(r"(?:(?<=\s)|^)\d\)\s*", re.I), ""),
              (re.compile(r"\s*;\s*(?=(?:the|my|a|an|your|some)\s)", re.I), " and "),
              (re.compile(r"^(?:i\s+)?need\s+(?:two|2|three|3|these|a\s+couple\s+of)\s+things(?:\s+(?:here|brought\s+here))?\s*:\s*",
                          re.I), "bring me "),
              (re.compile(r"^need\s+(?=(?:something|a|an|the|my|some|two|three|both)\b)", re.I), "I need "),
              (re.compile(r"^you\s+(?:have|'ve)\s+seen\b", re.I), "have you seen"),
              (re.compile(r"\bin\s+(?:some|any)\s+(?:part|place|side)\b(?!\s+of)", re.I), "anywhere"),
              (re.compile(r"\bcan\s+(i|we)\s+get\s+into\s+(?=(?:the|my|our)\b)", re.I), r"can \1 open "),
              (re.compile(r"\btake\s+out\s+((?:the|my)\s+[\w-]+(?:\s+[\w-]+)?)\s+of\s+(?=(?:the|my)\b)", re.I),
               r"take \1 out of "),
              (re.compile(r"\b(put|take|bring)\s+((?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)(?<!\sback)\s+(?:to|in)\s+its\s+"
                          r"(?:usual\s+|proper\s+|own\s+|right\s+|customary\s+|normal\s+|rightful\s+)?(?:place|spot|home)"
                          r"(?:\s+of\s+(?:keeping|storage|rest))?\b(?!\s+(?:of\s+)?(?:before|earlier|previously|this|that|where))",
                          re.I), r"put \2 away"),
              (re.compile(r"\breturn\s+((?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)\s+to\s+its\s+(?:usual|proper|own|right|customary|"
                          r"normal|rightful)\s+(?:place|spot|home)(?:\s+of\s+(?:keeping|storage|rest))?\b", re.I), r"put \1 away"),
              (re.compile(r"^(?:i'd\s+(?:love|like)\s+|give\s+me\s+|(?:can|could)\s+i\s+(?:get|have)\s+)?(?:a\s+)?(?:quick\s+)?"
                          r"(?:rundown|summary|recap|run-through|run\s+down)\s+(?:of\s+)?(?=(?:what|where|who|which|everything)\b)",
                          re.I), ""),
              (re.compile(r"\s*,?\s*\b(?:pls|plz)\b\s*", re.I), " "),
              (re.compile(r"^(?:the\s+)?(last|first|latest|most\s+recent|earliest)\s+sighting\s+of\s+((?:the|my|your)\s+"
                          r"(?:[\w-]+\s+){0,2}?[\w-]+)\b[^?]*\??\s*$", re.I),
               lambda m: f"when did you {'first' if m.group(1).lower() in ('first', 'earliest') else 'last'} see "
                         f"{m.group(2)}?"),
              (re.compile(r"^(where\s+(?:is|was|are|were)\s+(?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)\s+(?:lying|sitting|standing|"
                          r"located)\b(?=\s+before\b|\s*\?|\s*$)", re.I), r"\1"),
              (re.compile(r"^of\s+the\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*[:,]\s*which\s+one(?:'s|\s+is)\b", re.I),
               lambda m: f"which {singular_phrase(m.group(1))} is"),
              # ---- a request said in steps, or after a story ----
              # "..., so could you tell me ...": the story before "so" says why; the request is after it
              (re.compile(r"\s*,\s*so\s+(?=(?:could|can|would|will)\s+you\b|(?:please\s+)?(?:go|bring|take|put|get|fetch|tell)\b|"
                          r"(?:what|where|which|when|who|how|at\s+what)\b)", re.I), ". "),
              (re.compile(r"\btell\s+me\s+everything\s+(?:that's|that\s+is|that\s+'s)\s+(?=(?:in|on|inside|under)\b)", re.I),
               "tell me what is "),
              (re.compile(r"^(?:please\s+)?tell\s+me\s+(?=(?:which|what)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is|are)\b)", re.I), ""),
              (re.compile(r"\s*,\s*like\s*,\s*", re.I), " "),
              (re.compile(r"(?:^|(?<=[.?!]\s))there(?:'s|\s+is|\s+are)\s+(?:a\s+couple|two|several|a\s+few|more\s+than\s+one)\s+"
                          r"of\s+them\s*,?\s*(?:yeah|right|you\s+know|innit)?\s*[?.!]*", re.I), ""),
              (re.compile(r"\bwhen'd\s+you\b", re.I), "when did you"),
              (re.compile(r"(?<=[?.!])\s*(?:like\s*,?\s*)?(?:at\s+)?what\s+time(?:-ish|\s+roughly|\s+about)?\s*\?*\s*$", re.I), ""),
              (re.compile(r"\b(grab|get|bring|fetch|pass|hand)\s+me\s*,?\s*(?:like\s*,?\s*)?(?:two|2|three|a\s+couple\s+of|a\s+few)\s+"
                          r"things\s*[?.:,\u2014-]*\s*(?=(?:the|my)\s)", re.I), r"\1 me "),
              (re.compile(r"\b(grab|get|bring|fetch|pass|hand)\s+us\b", re.I), r"\1 me"),
              (re.compile(r"^(?:do\s+you\s+)?think\s+you\s+(could|can|might)\s+", re.I), "could you "),
              (re.compile(r"^think\s+about\s+(?:[A-Z][a-z]+'s|my|your|his|her|the)\s+(?:morning|afternoon|evening|day|night)\s*[.,;:]\s*"),
               ""),
              (re.compile(r"(?:^|(?<=[.!?]\s))find\s+the\s+(?:moment|time|point)\s+(?:when\s+|that\s+)?(he|she|they|[A-Z][a-z]+)\s+"
                          r"([^.!?]+)[.!?]\s*(?:then\s+)?(?:tell\s+me\s+)?what\s+(?:he|she|they|[A-Z][a-z]+)\s+did\s+"
                          r"(?:next|after(?:wards)?|after\s+that)\s*[.!?]*", re.I), r"what did \1 do after \1 \2?"),
              (re.compile(r"\bin\s+your\s+(?:head|mind)\b", re.I), ""),
              (re.compile(r"(?:^|(?<=[.!?]\s))count\s+(?:up\s+)?(?:the|all\s+the|my)\s+", re.I), "how many "),
              (re.compile(r"(?<=[.!?])\s*(?:then\s+)?tell\s+me\s+(?:the\s+)?(?:number|count|total|answer)\s*[.!?]*\s*$", re.I), ""),
              (re.compile(r"(?:^|(?<=[.!?]\s))find\s+the\s+one\s+(?=(?:beside|next\s+to|by|near|on|in|under|behind)\b)", re.I),
               "which one is "),
              (re.compile(r"(?<=[.!?])\s*(?:then\s+)?tell\s+me\s+which\s+(?:one|[\w-]+)\s+(?:that|it)\s+is\s*[.!?]*\s*$", re.I), ""),
              (re.compile(r"^(?:kindly\s+|please\s+)?(?:identify|point\s+out)\s+(?:for\s+me\s+|to\s+me\s+)?(?=which\b)", re.I), ""),
              (re.compile(r"\bwhich\s+([\w-]+(?:\s+[\w-]+)?)\s+it\s+is\s+that\s+(?:rests|sits|is|stands|lies)\s+", re.I),
               r"which \1 is "),
              (re.compile(r"\b(?:carry|take|bring|move|put)\s+(it|them|the\s+[\w-]+)\s+back\s+to\s+where\s+(?:it|they)\s+"
                          r"(?:was|were)(?:\s+before)?\s*[.!]\s*put\s+(?:it|them)\s+down\s+there\b", re.I), r"put \1 back"),
              (re.compile(r"\b(?:carry|take|bring|move)\s+(it|them|the\s+[\w-]+)\s+back\s+to\s+where\s+(?:it|they)\s+"
                          r"(?:was|were)(?:\s+before)?(?=\s*(?:[.!?,]|$))", re.I), r"put \1 back"),
              (re.compile(r"\brestore\s+((?:the|my|your)\s+[\w-]+(?:\s+[\w-]+)?)\s+to\s+(?:its|their)\s+(?:former|previous|original|"
                          r"old)\s+(?:position|place|spot|location)\b", re.I), r"put \1 back"),
              (re.compile(r"(?:^|(?<=[.!?]\s))take\s+hold\s+of\s+the\s+(?:door|handle)\s*[.!,]\s*", re.I), ""),
              (re.compile(r"\bpull\s+(it|the\s+[\w-]+(?:\s+door)?)\s+open\b", re.I), r"open \1"),
              (re.compile(r"\bpush\s+(it|the\s+[\w-]+(?:\s+door)?)\s+(?:shut|closed)\b", re.I), r"close \1"),
              (re.compile(r"\bcan\s+(i|we)\s+get\s+((?:the|my)\s+[\w-]+(?:\s+[\w-]+)?)\s+open\b", re.I), r"can \1 open \2"),
              (re.compile(r"^step\s+one\s*[:,.]?\s*think\s+back\s+to\s+the\s+last\s+time\s+i\s+had\s+((?:my|the)\s+"
                          r"(?:[\w-]+\s+){0,2}?[\w-]+)\s*[.,;]\s*", re.I), r"\1. "),
              (re.compile(r"\bstep\s+(?:one|two|three|four|1|2|3|4)\s*[:,.\u2014-]?\s*", re.I), ""),
              (re.compile(r"^think\s+back(?:\s+(?:over|to|through)\s+(?:today|the\s+day|yesterday|this\s+(?:morning|afternoon|"
                          r"evening)))?\s*[.,;:]\s*", re.I), ""))


# Openers of spoken requests that carry nothing ("hey, which cup ...", "um, where's ..."): the tagger makes
# them the sentence's root and hangs the request under them.
_OPENERS = re.compile(r"^(?:(?:hey|hi|hello|um+|uh+|erm+|hmm+|ok|okay|so|well|oh|right|alright|actually|robot|"
                      r"sorry|excuse me|listen|quick question|quick check|and|but|also|yo|bro|dude|mate|oi|please tell me|"
                      r"good (?:morning|afternoon|evening))\b[,!.:]?\s+)+", re.I)
_PLACE_WORDS = r"(?:on|in|inside|under|underneath|beneath|next|by|beside|near|behind|at|over|up|down|closest|nearest)"
# "what colour's my radio", "which face cream's on the counter": a contracted "is" after a wh-phrase, before
# a determiner or a place, read as a possessive
_WH_IS = re.compile(r"\b((?:what|which)(?:\s+[\w-]+){1,3}?)'s\s+(?=(?:[a-z][\w-]*'s\s|my|the|your|his|her|our|their|this|"
                    r"that|a|an|it|they|he|she|mine|yours|ours|hers|theirs|"
                    + _PLACE_WORDS[3:-1] + r")\b)", re.I)
# "which phone is it that's in the cupboard", "which glass have we got on the counter": a cleft or a
# have-clause around "which X is <place>", which the small tagger misreads
_WH_CLEFT = re.compile(r"\b((?:which|what)(?:\s+[\w-]+){1,3}?)\s+(?:(?:(?:is|was)\s+it|it\s+(?:is|was))(?:\s+that|\s+which)?(?:'s|\s+is|"
                       r"\s+was|\s+sits|\s+stands|\s+lies|\s+'s\s+sitting|\s+is\s+sitting)?|(?:have|do|did)\s+(?:we|you|i)\s+(?:got|have|keep))"
                       r"\s+(?=" + _PLACE_WORDS + r"\s+\w)", re.I)
# "which one of the towels is ...", "of all the bowls, which is closest to ...": the kind is named apart
_WHICH_OF = re.compile(r"\bwhich\s+(?:one\s+)?of\s+(?:the|your|my|our|these|those|all the)\s+([\w-]+(?:\s+[\w-]+)?)\s+"
                       r"(?=(?:is|are|was|were|did|do|have|has)\b)", re.I)
_OF_ALL = re.compile(r"^(?:out\s+)?of\s+(?:all\s+)?(?:the|your|my|our|these|those)\s+([\w-]+(?:\s+[\w-]+)?)"
                     r"(?:\s+(?:in|on|around|about)\s+(?:the|this|my|our)\s+(?:[\w-]+\s+)?[\w-]+)?\s*,?\s+"
                     r"which(?:\s+one)?\s+", re.I)
# "plates present in bedroom?", "any towels available in the bathroom": whether there are some there
_PRESENT_IN = re.compile(r"^(?:any\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:present|available)\s+(in|on|at)\s+"
                         r"(?:the\s+)?(?=[a-z])", re.I)
# "what did you see on the bed last time you looked": what memory holds is what was seen last
_LAST_LOOKED = re.compile(r"\s*,?\s*(?:the\s+)?last\s+time\s+(?:you|i|we)\s+(?:looked|checked|were\s+(?:in\s+)?there|"
                          r"went\s+(?:in\s+)?there|had\s+a\s+look)\b", re.I)
# "bring Anna the radio would you, ...": a tag asking the favour, no part of the request
_YOU_TAG = re.compile(r"(?<=\w)\s*,?\s+(?:would|will|could|can|won't)\s+you(?:\s+please)?(?=\s*(?:[,?.!]|$))", re.I)
# "you haven't seen the radio by any chance, have you": a question said as a denial with a tag
_NEGATIVE_TAG = re.compile(r"^(you|we)\s+(?:haven't|have\s+not|didn't|did\s+not|don't|do\s+not)\s+(\w+)\s+(.+?)\s*,?\s+"
                           r"(have|did|do)\s+(?:you|we)\s*\??\s*$", re.I)
# "would the cabinet open if I tried?": the condition only says the question is about trying
_IF_TRIED = re.compile(r"\s*,?\s+if\s+(?:i|we|you|someone|somebody|anyone)\s+(?:try|tried|tries|pull|pulled|pulls|give|"
                       r"gave)\b[^,?.!]*", re.I)
# "give me a quick rundown of what you did": a summary asked for is a question
_SUMMARY_OF = re.compile(r"\b(?:give|tell)\s+me\s+(?:a|an|the|some)\s+(?:\w+\s+)?(?:rundown|run-down|summary|recap|"
                         r"overview|update|account|idea|list)\s+of\s+", re.I)
# "the remote's old spot": where it was before it was moved
_OLD_SPOT = re.compile(r"\b(?:the\s+|my\s+|your\s+)?((?:[\w-]+\s+){0,2}[\w-]+)'s\s+(?:old|original|previous|former|"
                       r"earlier)\s+(?:spot|place|location|position|home)\b", re.I)
# "what Ben did once he'd sat down": "once" opening a clause is "after"
_ONCE = re.compile(r"\bonce\s+(?=(?:he|she|they|i|you|we|it|[A-Z][a-z]+)\b)")
# "after making coffee, what did Ben do next": the time said first, then the question
_FRONT_TIME = re.compile(r"^(after|before|once)\s+([^,?]+?),?\s+((?:what|where|who|which|when)\b)(.*)$", re.I)
_PRESENT_SELF = re.compile(r"^(?:i|we)(?:'m|\s+am|\s+are)?\s+(?!(?:\w+ed|went|sat|made|took|came|left|got|had|did|put|"
                           r"ate|drank|saw|brought|was|were)\b)\w+", re.I)


def _front_time(m: re.Match) -> str:
    """"after making coffee, what did Ben do" -> "what did Ben do after making coffee"; "before I start
    cleaning, which ..." (what the speaker is about to do) is no time in memory: it is dropped."""
    question = m.group(3) + m.group(4)
    if _PRESENT_SELF.match(m.group(2).strip()):
        return question
    mark = "?" if question.rstrip().endswith("?") else ""
    return f"{question.rstrip(' ?.!')} {m.group(1).lower()} {m.group(2)}{mark}"


# "the wardrobe's locked": a contracted "is" before a state word, read as a possessive
_STATE_IS = re.compile(r"\b([a-z]+)'s\s+(?=(?:" + "|".join(sorted(set(lx.STATE_WORDS) - {"lock"}, key=len, reverse=True))
                       + r"|in|inside|under|behind|next to|by|near|on top of)\b[^']*$)", re.I)
# "someone's moved the lime": a contracted "has" before a past participle, read as a possessive
_HAS_DONE = re.compile(r"\b(\w+)'s\s+(?=(?:\w{3,}ed|been|gone|taken|put|left|seen|done|hidden|brought|thrown|got|"
                       r"stolen|eaten|drunk|broken)\b)", re.I)
# "where can I sit down for a bit": how long says nothing of where
_FOR_A_WHILE = re.compile(r"\s+for\s+a\s+(?:little\s+)?(?:bit|while|minute|moment|second|sec|few\s+minutes)\b", re.I)
# "have a lie down", "take a nap", "grab a bite": a light verb and a noun say one verb
_LIGHT_VERBS = {"lie down": "lie down", "lie": "lie down", "rest": "rest", "sit down": "sit down", "sit": "sit down",
                "seat": "sit down", "nap": "sleep", "sleep": "sleep", "kip": "sleep", "wash": "wash", "shower": "shower",
                "bath": "bathe", "drink": "drink", "snack": "eat", "bite": "eat", "read": "read", "cook": "cook",
                "wee": "use the toilet", "pee": "use the toilet"}
_LIGHT_VERB = re.compile(r"\b(?:have|take|grab|get|go\s+for)\s+a\s+(?:quick\s+|little\s+|short\s+|good\s+)?("
                         + "|".join(k.replace(" ", "[- ]") for k in sorted(_LIGHT_VERBS, key=len, reverse=True))
                         + r")\b", re.I)
# "anything on the counter?": a question about what is there
_ANYTHING_AT = re.compile(r"^(?:is there\s+)?(?:anything|something)\s+(?=(?:on|in|inside|under|underneath|behind|"
                          r"in front of|next to|on top of)\b)", re.I)
# "I'm trying to work out which bowl ...": to find something out is to want to know it
_FIND_OUT = re.compile(r"\b(?:work|figure|find)\s+out\s+(which|what|where|when|whether|if|how|who)\b", re.I)
# "where is the remote kept / located / lying?": where it is (the small tagger reads "remote kept" as one noun)
_WHERE_PARTICIPLE = re.compile(r"^(where\s+(?:is|was)\s+(?:the|my|your|our|his|her|their|this|that|[A-Z][a-z]+'s)\s+"
                               r"(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:located|lying|sitting|sat|stood|standing|placed|hiding|hidden|put|"
                               r"left|found|(?=(?:kept|stored)\s+(?:before|earlier|previously)\b)(?:kept|stored))"
                               r"(?=\s*(?:now|right now|at the moment|these days)?\s*[?.!]*$|"
                               r"\s+(?:before|earlier|previously|originally|at\s+first)\b)", re.I)
# "where is the remote kept / stored?": where it belongs, which is answered with where it was seen too
_WHERE_KEPT = re.compile(r"^where\s+is\s+((?:the|my|your|our|his|her|their|this|that|[A-Z][a-z]+'s)\s+"
                         r"(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:kept|stored)(?=\s*[?.!]*$)", re.I)
# "Seen the radio lately?", "I need the magazine. Seen it?": the question's "have you" left unsaid, at the
# start of any sentence
_ELLIPTIC_SEEN = re.compile(r"(?:^|(?<=[.!?] ))(?:seen|spotted|noticed)\b", re.I)
# A self-repair: "put it on the shelf — no, sorry, the table", "get the uh no the red cup": the phrase said
# after the repair word replaces the one before it (the later choice wins). Only inside one sentence, and only
# when a determiner follows, so "no need to hurry" or "the cup, no rush" are left alone.
_DET = r"(?:the|a|an|my|your|our|his|her|their|some)"
_REPAIR = re.compile(r"\b" + _DET + r"\s+(?:[\w'-]+[\s,\u2014\u2013-]+){0,3}?"
                     r"(?:\b(?:uh+|um+|er+|no|nah|oops|wait|hang\s+on|sorry|actually|i\s+mean|i\s+meant|or\s+rather|"
                     r"rather|make\s+(?:it|that)|scratch\s+that|strike\s+that|correction|let\s+me\s+rephrase)\b"
                     r"[\s,\u2014\u2013-]*)*"
                     r"\b(?:no|nah|oops|sorry|actually|i\s+mean|i\s+meant|or\s+rather|make\s+(?:it|that)|scratch\s+that|"
                     r"strike\s+that|correction)\b"
                     r"[\s,\u2014\u2013-]*"
                     r"(?:\b(?:wait|sorry|actually|i\s+mean)\b[\s,\u2014\u2013-]*)*(?=" + _DET + r"\s)", re.I)
# "where's the magazine live?": "'s" is "does" before a verb of where a thing belongs, not "is"
_WHERES_BELONG = re.compile(r"\bwhere's\s+((?:the|my|your|our|his|her|their|this|that)\s+(?:[\w-]+\s+){0,3}?)"
                            r"(go|live|belong|stay|get\s+put)\b", re.I)
# "carton of milk goes where": the question word left at the end of a belonging question
_BELONGS_WHERE = re.compile(r"^((?:(?:the|my|your|our|his|her|their|this|that)\s+)?(?:[\w-]+\s+){0,4}?[\w-]+)\s+"
                            r"(?:goes|belongs|lives|go|belong|live)\s+where\s*\??\s*$", re.I)
# "microwave shut?", "the back door locked??": a terse state question, a thing and a state word and a question mark
_TERSE_STATE = re.compile(r"^(?!(?:what|where|which|who|when|why|how|is|are|was|were|do|does|did|can|could|will|would|"
                          r"has|have|should|please|and|or|but|so|no|not|i|you|we|it|they|he|she)\b)"
                          r"(?:the\s+|my\s+|our\s+|that\s+|this\s+)?((?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*)\s+(?:still\s+)?"
                          r"(open|closed|shut|locked|unlocked|empty|full|on|off|clean|dirty|running)\s*\?+\s*$", re.I)
# "on the uh on the shelf": a phrase restarted (its filler already dropped) is said once
_RESTART = re.compile(r"\b((?:on|in|into|onto|to|at|by|from|under|inside|next\s+to)\s+(?:the|a|my)\s+)\1", re.I)
# "radio and magazine, you bring both to me": "both" is the two things said before
_BOTH_OF = re.compile(r"^((?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+and\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)\s*[,.]\s*"
                      r"(?:(?:you\s+|can\s+you\s+|please\s+)?(bring|get|fetch|grab|give|hand|take)\s+(?:them\s+)?both\b|"
                      r"both\s+(?:of\s+them\s+)?(?:you\s+|please\s+|can\s+you\s+)*(bring|get|fetch|grab|give|hand|take)\b(?:\s+them\b)?)",
                      re.I)
# "Ben made coffee, fine, and then what did he do?": an aside and "and" before "then what" say nothing more
_AND_THEN = re.compile(r",\s*(?:(?:fine|ok|okay|right|alright|sure|yeah|good|great)\s*,?\s*)?(?:and\s+)?then\s+what\b",
                       re.I)
# "After that, what did he do?": the time said first, the question after it ("what did he do after that?")
_TIME_FIRST = re.compile(r"(?:^|(?<=[.!?] ))(after|before)\s+(that|this|it|then)\s*,?\s+((?:what|where|who|how|did|do|"
                         r"does|was|were|is|has|have)\b[^.?!]*?)\s*(\?*)(?=\s*[.!?]|\s*$)", re.I)
# "Ben used the computer, no?", "the cupboard is locked, right?": a tag asking agreement makes what was just
# said a yes-no question ("the cupboard is locked?")
_AGREE_TAG = re.compile(r"(?:^|(?<=[.!?] ))([^.?!]+?)\s*,\s*(?:no|right|yeah|yes|innit|eh|isn't\s+it|ain't\s+it|na|nah|"
                        r"ja|hai\s+na|di\s+ba|ano|lah|correct|true)\s*\?+", re.I)

# "would you be able to tell me how many ...": being able to is "can", not a question about being usable
_ABLE_TO = re.compile(r"\b(?:would|will|do|could)\s+you\s+be\s+able\s+to\b|\bare\s+you\s+able\s+to\b", re.I)
# a short phrase said for a thing in telegraphic speech ("ball", "the loo roll", "my coffee mug")
_SHORT_NP = r"((?:the\s+|my\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})"
# ... and with any possessive before it (not a group: callers name or capture it)
_DET_NP = r"(?:the\s+|my\s+|your\s+|our\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}"
# telegraphic questions: "where ball", "radio. location.", "books in living room: how many"
_WHERE_BARE = re.compile(r"^where\s+(?!(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|to|now|"
                         r"else|abouts|about|exactly|then|'s|'re|in|on|at|i|you|we|they|he|she|it)\b)"
                         r"(" + _DET_NP + r")\s*[?.!]*$", re.I)
_BARE_LOCATION = re.compile(r"^" + _SHORT_NP + r"\s*[.,:]?\s+"
                            r"(?:location|whereabouts|where)\s*[?.!]*$", re.I)
_HOW_MANY_LAST = re.compile(r"^(?:in\s+the\s+((?:[a-z]+\s+)?[a-z]+)\s*,\s*)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,5}?)\s*[:,]?\s+"
                            r"how\s+many(?:\s+(?:are|is)\s+there)?\s*\??$", re.I)
# "where the juice has got to", "wherever the remote's at": where a thing is
_GOT_TO = re.compile(r"\bwhere\s+((?:the|my|your|our)\s+[\w-]+(?:\s+[\w-]+)?|[\w-]+)\s+(?:has|'s|have|'ve)\s+got\s+to\b",
                     re.I)
_WHEREVER = re.compile(r"\bwherever\s+((?:the|my|your|our)\s+[\w-]+(?:\s+[\w-]+)?)(?:'s|\s+is)(?:\s+at)?\b", re.I)
# "I don't suppose you know where ...": a polite wrapper of "do you know"
_DONT_SUPPOSE = re.compile(r"\b(?:i\s+)?(?:don't|do\s+not|dont)\s+suppose\s+(?:you\s+)?(?:happen\s+to\s+)?"
                           r"(know|remember|recall)\b", re.I)
# "you go where is the pear": a question word standing where the place would ("go to where the pear is")
_GO_WHERE_IS = re.compile(r"^(?:you\s+)?(?:go|head|walk|move|drive|come|take\s+me|lead\s+me|show\s+me\s+the\s+way)\s+"
                          r"(?:over\s+|back\s+|down\s+|up\s+)?(?:to\s+)?(?:where|wherever)\s+(?:(?:is|are)\s+)?"
                          r"((?:the|my|your|our)\s+[\w-]+(?:\s+(?!(?:is|are|was|were|sits|lives|went|got)\b)[\w-]+)?)(?:\s+(?:is|are|was|were|sits|lives|went|got\s+to))?"
                          r"(?=\s*(?:[,.!?]|$))", re.I)
# "go to the remote, that thing": a placeholder said after the thing's name adds nothing to it
_THING_AFTER = re.compile(r"(?<=\w)\s*,\s*(?:that|the|this)\s+(?:thing|thingy|thingie|whatsit)\s*(?=[.!?]*\s*$)", re.I)
# "go and search juice": searching a thing (not a room) is searching for it
_SEARCH_THING = re.compile(r"\b(search|hunt)\s+(?!for\b|in\b|through\b|around\b|everywhere\b|down\b|up\b|out\b|high\b|(?:the\s+|my\s+|our\s+)?(?:" +
                           "|".join(sorted(lx.ROOM_WORDS, key=len, reverse=True)) + r"|house|home|flat|place|room|apartment)\b)"
                           r"(?!(?:the|my|a|an|your|our|this|that)\b)(?=[a-z])", re.I)  # ("search the pot" may be inside it)
# "go hunt down the remote", "track down my keys": finding it
_HUNT_DOWN = re.compile(r"\b(?:hunt|track|ferret|dig|sniff)\s+(?=(?:out|down)\s+(?:the|my|our|your|that|a)\b)(?:out|down)\b", re.I)
# telegraphic commands: "lime to Ben.", "radio to the kitchen", "magazine. now."
_TO_SOMEONE = re.compile(r"^" + _SHORT_NP + r"\s+to\s+"
                         r"([A-Z][a-z]+|(?:the\s+)?(?:" + "|".join(sorted(lx.ROOM_WORDS, key=len, reverse=True)) +
                         r"|living\s+room|dining\s+room))\s*[.!]*$")
_NOW = re.compile(r"^" + _SHORT_NP + r"\s*[.,!]*\s+(?:(?:now|here|asap|please|quick|quickly|right\s+now)\s*[.,!]*\s*)+$",
                  re.I)
_TO_ME = re.compile(r"^" + _SHORT_NP + r"\s+(?:to|over\s+to)\s+me\s*[.,!]*(?:\s*(?:now|here|asap|please|quick|quickly|"
                   r"right\s+now|pls|plz)\s*[.,!]*)*$", re.I)
# "I'd like the remote put in its proper place": a wish that a thing be put somewhere is a request to put it
_LIKE_DONE = re.compile(r"\b(?:i'd|i\s+would|i'd\s+really)\s+(?:like|love|want)\s+((?:the|my|your|our)\s+[\w-]+"
                        r"(?:\s+[\w-]+){0,2}?)\s+(put|moved|taken|brought|carried)\b", re.I)
# "I want the remote back in its old spot": a wish that a thing be back at a place is a put back (not "bring me")
_WANT_BACK = re.compile(r"\b(?:i|we)\s*(?:want|need|'d\s+like|would\s+like|'d\s+love|would\s+love)\s+((?:the|my|your|our|his|"
                        r"her|their)\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s+back\s+(?=(?:in|on|to|into|onto|at|where|under|inside)\b)",
                        re.I)
# "put the magazine in its place" (a learner's "at its place", "to its place"): where it lives is put away (not "back", which is where it was)
_IN_ITS_PLACE = re.compile(r"\bput\s+((?:the|my|it|them)\b(?:\s+(?!back\b)[\w-]+){0,3}?)\s+(?:in|at|to|into)\s+(?:its|their)\s+(?:proper\s+)?"
                           r"(?:place|spot|home)\b", re.I)
_PARTICIPLE_VERB = {"put": "put", "moved": "move", "taken": "take", "brought": "bring", "carried": "carry"}
# "the radio you take to the kitchen": the thing said first, then the command
_THING_FIRST = re.compile(r"^((?:the|my|your|our)\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s*,?\s+(?:you\s+)(take|bring|put|give|"
                          r"carry|get|fetch|move|hand|open|close|find)(\s+(?:me|us))?\b", re.I)
# "where'd the ball used to be": "'d" after a question word is "did" (but "where'd you like it": "would")
_WH_D = re.compile(r"\b(where|what|who|how|when|why)'d\b(?!\s+(?:you|i|we|they)\s+(?:like|prefer|want|rather|love)\b)",
                   re.I)
# more telegraphic questions: "ball last seen when", "room of radio?", "pear. where before"
_SEEN_WHEN = re.compile(r"^" + _SHORT_NP + r"\s*[.,]?\s+(last|first)\s+seen\s+when"
                        r"\s*\??$", re.I)
_ROOM_OF = re.compile(r"^(?:the\s+)?room\s+of\s+" + _SHORT_NP + r"\s*\??$", re.I)
_WHERE_BEFORE = re.compile(r"^" + _SHORT_NP + r"\s*[.,]?\s+where\s+(?:was\s+it\s+)?"
                           r"before\s*\??$", re.I)
# a question said as a noun beside the thing: "colour of the magazine?", "mug colour?", "contents of the bed?",
# "toy, previous spot?", "last sighting of the remote? time.", "count of plates, kitchen?"; the noun says which
# question (a closed class of question words, as "where" or "how many" are), the phrase says of what
_QUESTION_NOUNS: tuple[tuple[str, str], ...] = (
    (r"colou?r", "what color is {np}?"),
    (r"contents|content", "what is in {np}?"),
    (r"(?:previous|earlier|old|last|former|original)\s+(?:spot|place|location|position|home)", "where was {np} before?"),
    (r"(?:last\s+)?sighting|last\s+seen|time\s+last\s+seen", "when did you last see {np}?"),
    (r"room", "what room is {np} in?"),
    (r"(?:count|number|total|tally)", "how many {np} are there{room}?"),
    (r"location|whereabouts|position", "where is {np}?"),
)
_QN = "|".join(f"(?:{q})" for q, _ in _QUESTION_NOUNS)
_NOUN_OF = re.compile(r"^(?P<qn>" + _QN + r")\s+(?:of|for)\s+(?P<np>" + _DET_NP + r"?)"
                      r"(?:(?:\s*,\s*|\s+)(?:in\s+)?(?:the\s+)?(?P<room>" + lx.ROOMS_RE + r"))?\s*[?.!]*(?:\s*(?:time|when)\s*[?.!]*)?$", re.I)
_NOUN_AFTER = re.compile(r"^(?P<np>" + _DET_NP + r"?)\s*(?P<sep>[.,:;\u2014-]?)\s+"
                         r"(?P<qn>" + _QN + r")\s*(?P<end>[?.!]*)$", re.I)


# "report location of the lime", "reveal unto me the whereabouts of the juice", "confirm room for the radio": a verb
# of telling before a question noun asks that question
_TELL_NOUN = re.compile(r"^(?:please\s+|kindly\s+)?(?:report|tell(?:\s+(?:unto\s+|to\s+)?me)?|give(?:\s+me)?|"
                        r"reveal(?:\s+(?:unto\s+|to\s+)?me)?|show(?:\s+me)?|confirm|state|request|query|provide|"
                        r"specify|identify|indicate|name|determine|say|"
                        r"send(?:\s+me)?|drop(?:\s+me)?|shoot(?:\s+me)?|ping(?:\s+me)?|need|want)\s*:?\s+(?:the\s+|me\s+the\s+)?(?=(?:" + _QN + r")\s+(?:of|for)\s)", re.I)


def _question_noun(t: str) -> str:
    told = _TELL_NOUN.sub("", t)
    if told != t and _NOUN_OF.match(told):
        t = told
    m = _NOUN_OF.match(t) or _NOUN_AFTER.match(t)
    if m is None or _not_a_thing(m.group("np")):
        return t
    if m.re is _NOUN_AFTER and not m.group("sep") and (not re.fullmatch(r"colou?r|location|whereabouts|(?:previous|"
                                                                        r"earlier|former|original)\s+\w+|last\s+sighting",
                                                                        m.group("qn"), re.I) or "?" not in m.group("end")):
        return t  # "the living room", "phone number": a name of its own; "mug colour?" is asked
    for q, template in _QUESTION_NOUNS:
        if re.fullmatch(q, m.group("qn"), re.I):
            room = m.groupdict().get("room")
            np = re.sub(r"^(the|my|your|our)\b", lambda d: d.group(1).lower(), m.group("np"), flags=re.I)
            return template.format(np=re.sub(r"^the\s+", "", np, flags=re.I) if "how many" in template
                                   else with_article(np),
                                   room=f" in the {room}" if room else "")
    return t


# "what colour would you say the radio is?": an opinion asked around a question is the question
_WOULD_YOU_SAY = re.compile(r"(?:^|(?<=[.!?] ))((?:what|which|where|how)\b(?:\s+[\w-]+){0,2}?)\s+(?:would|do|d')\s*you\s+"
                            r"(?:say|guess|reckon|suppose|figure)\s+(?=(?:the|my|your|our|it|they|that|this)\b)", re.I)
# "can I get into the cupboard (if I tried), or no?": whether it can be opened, asked of the speaker's own doing
_CAN_I_OPEN = re.compile(r"(?:^|(?<=[.!?;,\u2014\u2013]\s))(?:can|could|would|will)\s+(?:i|we)\s+(?:actually\s+|really\s+|even\s+|still\s+)?"
                         r"(?:be\s+able\s+to\s+)?(?:get\s+into|get\s+in\s+to|"
                         r"open|get\s+(?:the\s+)?door\s+of)\s+((?:the|my|our)\s+[\w-]+(?:\s+[\w-]+)?|it|them)"
                         r"(?:\s+if\s+(?:i|we)\s+tried)?\s*(?:,?\s*(?:or\s+not?|or\s+what|do\s+you\s+think))?\s*\?*\s*$", re.I)
# "the keyboard is nowhere to be found": where it is
_NOWHERE = re.compile(r"\b((?:the|my|our|your)\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:is|are|'s)\s+nowhere\s+to\s+be\s+"
                      r"(?:found|seen)\b[.!]*", re.I)
# "nip into the living room a sec": how long, said after a request, is not part of it
_FOR_A_SEC = re.compile(r",?\s+(?:for\s+)?(?:a|one)\s+(?:sec|second|minute|min|moment|mo|jiffy|tick)\s*(?=[.!?]*$)", re.I)
# a tail asking for an opinion: "what room's the ball in, d'you reckon?"
_RECKON_TAIL = re.compile(r"\s*,\s*(?:d'you|do\s+you|you|d'ya|dya)\s+(?:reckon|think|suppose|figure|know)\s*(?=[?.!]*\s*$)",
                          re.I)
# "someone went and moved it": the going is how it is said, the event is the moving (not "go and get")
_WENT_AND = re.compile(r"\b(?:went|has\s+gone|have\s+gone|gone)\s+and\s+(?=\w+ed\b|put\b|took\b|left\b|hid\b|broke\b|got\b|"
                       r"threw\b|ate\b|drank\b)", re.I)
# "to the fridge.": where to go, and nothing else said
_TO_ONLY = re.compile(r"^to\s+((?:the\s+|my\s+)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}|(?:" +
                      "|".join(sorted(lx.ROOM_WORDS, key=len, reverse=True)) + r"))\s*[.!]*$", re.I)
# "radio and loo roll to me.", "the mug and the plate to Ben please": two things and whom they go to
_PAIR_TO = re.compile(r"^" + _SHORT_NP + r"\s+(?:and|&|\+)\s+" + _SHORT_NP + r"\s+to\s+(me|us|(?-i:[A-Z][a-z]+))"
                      r"(?:\s*,?\s*(?:please|pls|now|thanks))?\s*[.!]*$", re.I)
# "put the radio on the table, not on the floor like last time": where not to put it, said after where to
_NOT_THERE = re.compile(r"\s*[,;\u2014\u2013-]+\s*(?:but\s+|and\s+)?not\s+(?:on|in|into|onto|under|by|next\s+to|inside)\s+"
                        r"(?:the|a|my|that|this)\s+[^,.!?]*?(?=\s*[.!?]*\s*$)", re.I)
# "bring the remote but not the mug", "everything except the plate": a thing named to be left out is no
# thing of the request (said last, after a command)
_BUT_NOT = re.compile(r"^((?:please\s+)?(?:bring|get|fetch|grab|take|carry|hand|give|put|move)\b[^,.;!?]*?)\s*,?\s*(?:but\s+not|and\s+not|"
                      r"not|except(?:\s+for)?|apart\s+from|other\s+than)\s+(?:the|my|your|that|this|any|a|an)\s+[\w-]+"
                      r"(?:\s+[\w-]+)?\s*(?=[.!?]*\s*$)", re.I)
# "In the kitchen, is there bookshelf?": the place said first
_PLACE_FIRST = re.compile(r"^(in|on|inside)\s+((?:the|my|our)\s+[\w-]+(?:\s+[\w-]+)?)\s*,\s*(is|are)\s+there\s+([^?]+?)\s*(\?*)\s*$",
                          re.I)
# "lime. out of microwave.": the thing, then where to take it out of
_OUT_OF = re.compile(r"^" + _SHORT_NP + r"\s*[.,]\s*out\s+of\s+"
                     + _SHORT_NP + r"\s*[.!]*$", re.I)
# "lime out of microwave, to me.", "the mug out of the cupboard for Ben": taken out and brought to someone
_OUT_OF_TO = re.compile(r"^" + _SHORT_NP + r"\s*[.,]?\s*out\s+of\s+" + _SHORT_NP + r"\s*[.,]?\s*(?:and\s+)?(?:to|for)\s+"
                        r"(me|us|[A-Z][a-z]+)\s*(?:please)?\s*[.!]*$", re.I)
# "grab the ball out the microwave": "out the" for "out of the" after a thing taken
_OUT_THE = re.compile(r"\b((?:grab|get|take|fetch|pull|bring)\s+(?:the|my|your)\s+[\w-]+(?:\s+[\w-]+)?)\s+out\s+the\b",
                      re.I)
# "Turn left and open the dishwasher": a direction to turn before the next step is the robot's own to find ("left"
# was read as a verb, "leave", so the task as a set-down); said alone ("turn left") it stays
_TURN_THEN = re.compile(r"\b(?:turn|veer|swing)\s+(?:to\s+(?:the|your)\s+)?(?:left|right|around|round)\s*"
                        r"(?:,\s*(?:and\s+|then\s+)?|and\s+(?:then\s+)?|then\s+)(?=[a-z])", re.I)
# "on the front, left corner of the table": a comma between two spot words cuts the phrase for the tagger ("left"
# became a verb, "the front" the place)
_PART_COMMA_SIDE = re.compile(r"\b(front|back|rear|far|near|top|bottom)\s*,\s*(left|right)\b(?=\s+(?:corner|edge|side|"
                              r"end|part|half|of)\b)", re.I)
# "on the left near corner of the bed": "near" between a side and a part is the part's, not a preposition (read as
# one, the place became "the left" and the bed a thing beside it); said first, it is read as one spot
_SIDE_NEAR_PART = re.compile(r"\b(left|right)\s+(near)\s+(corner|edge|side|end)\b", re.I)
# "on the counter right of the spatula", "put the mug left of the sink": a side said without "to the" (the tagger
# makes "right" a thing of its own); not what is left of something ("what's left of the cake", "nothing left of it")
_BARE_SIDE = re.compile(r"\b(left|right)\s+of\s+(?=(?:the|a|an|my|your|that|this)\b)", re.I)
# ... the word before it, when it already says where ("to the", "far", "front", "directly") or what is left
# ("what's", "nothing", "all", "have", "you")
_NOT_BARE_AFTER = frozenset({
    "the", "what's", "whats", "what", "is", "are", "was", "nothing", "anything", "something", "much", "little", "all",
    "some", "none", "that's", "it's", "got", "have", "be", "been", "i", "we", "you", "they", "he", "she", "who", "to",
    "far", "very", "front", "back", "bottom", "top", "upper", "lower", "rear", "extreme", "middle", "centre", "center",
    "directly", "just"})


def _bare_side(m: re.Match[str]) -> str:
    before = m.string[max(0, m.start() - 60):m.start()]
    word = re.search(r"(?:^|(?<=[^\w']))([\w']+) $", before)
    if word is None or word.group(1).lower() not in _NOT_BARE_AFTER and not word.group(1).endswith("'s"):
        return f"to the {m.group(1).lower()} of "
    return m.group(0)


# "stick the radio - the radio, yes - on the counter": a thing said again to confirm it, said once
_SAID_AGAIN = re.compile(r"(\b(?:the|my|your)\s+[\w-]+(?:\s+[\w-]+)?)\s*[\u2014\u2013-]+\s*\1\s*,?\s*(?:yes|yeah|yep)?\s*"
                         r"[\u2014\u2013-]+\s*", re.I)
# "... the table yeah the table": the repair confirmed by saying it again
_CONFIRMED = re.compile(r"\b(" + _DET + r"\s+[\w' -]+?)\s*,?\s+(?:yeah|yes|yep)\s*,?\s+\1\b", re.I)


# Someone addressed, set off by a comma or a colon at either end of a sentence or between commas ("chuck us
# the mug, mate", "Unit, report ...", "what colour is it, oh wise one?", "seek, robot, seek!"): who is spoken
# to, not a thing asked about. The head word must name a person (WordNet: its commonest sense, and no household
# thing among its two commonest: a list "bread, butter, toast" addresses no one) or the robot.
_ADDRESS_WORDS = frozenset({"robot", "bot", "droid", "android", "unit", "hon", "luv", "kiddo", "bro", "fam", "babe", "bruh",
                            "cher", "b'y", "hinny", "butt", "butty", "bach", "cuz", "lad", "lass",
                            "darlin", "darlin'", "sis", "bestie", "love", "honey", "sweetie", "petal", "poppet", "mum",
                            "nana", "guv", "matey", "everyone", "folks", "guys", "sugar", "dude", "buddy", "pal", "mate",
                            "bruv", "hun", "doll", "chief", "boss", "dearie", "darling", "sweetheart", "pet", "duck", "mun"})
_ADDRESS_LEAD = frozenset({"oh", "o", "my", "dear"})
_NOT_IN_ADDRESS = frozenset({"the", "a", "an", "this", "that", "these", "those", "some", "any", "your", "his", "her",
                             "their", "our", "its", "it", "me", "us", "them", "him", "i", "you", "we", "they", "please",
                             "and", "or", "not", "no", "yes", "in", "on", "to", "at", "for", "with", "there", "here",
                             "is", "are", "was", "were", "be", "what", "where", "which", "who", "how", "when", "why"})
_VOCATIVE = r"((?:[a-z][\w'-]*\s+){0,3}?[a-z][\w'-]*(?:\s+of\s+(?:the\s+|my\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?)?)"
_ADDRESS_END = re.compile(r"\s*,\s*" + _VOCATIVE + r"\s*(?=[.!?]*$)", re.I)
# a term of endearment said last without a pause written ("where is the pear dear", dictation): none of these
# names a thing, and after "my" / "the" it is no address ("where is my darling")
_ENDEARMENT_END = re.compile(r"(?<!\bmy)(?<!\bthe)(?<!\bour)(?<!\ba)\s+(?:dear|dearie|darling|darlin'?|sweetie|sweetheart|lovey|"
                             r"ducky|bro|bruv|dude|fam|hon|babe|luv|buddy|pal|fella|bestie|mun)\s*(?=[.!?]*$)", re.I)
_ADDRESS_START = re.compile(r"^" + _VOCATIVE + r"\s*[,:!]\s+(?=\S)", re.I)
_ADDRESS_MID = re.compile(r"\s*,\s*" + _VOCATIVE + r"\s*(?=[,:;]\s)", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def _addressed(phrase: str) -> bool:
    said = phrase.lower().split()
    words = said[:said.index("of")] if "of" in said else said
    lead = len(words) > 1 and words[0] in _ADDRESS_LEAD
    words = words[1:] if lead else words
    if not words or any(w in _NOT_IN_ADDRESS for w in words):
        return False
    head = words[-1]
    if head in _ADDRESS_WORDS or head == "one" and (lead or len(words) > 1):  # "oh wise one"
        return True
    # an animal only called by a word before it ("faithful steed", "oh noble beast"), not a list's "mouse" nor
    # "my mouse, where did I put it?"
    animal = len(words) > 1 or lead and said[0] in ("oh", "o")
    wn = default_wordnet()
    if wn is not None and len(said) == 1 and len(head) >= 3 and head.isalpha() and not wn.is_word(head):
        return True  # a word English does not have, said apart: a term of address or respect ("Hajur, ...")
    if wn is not None and len(words) > 1 and wn.household(" ".join(words[-2:])):
        return False  # "teddy bear, give to Ben": a thing named first (a toy), not someone called
    return wn is not None and wn.names_a_person(head, animal=animal)


def _drop_address(text: str) -> str:
    out = []
    for sentence in _SENTENCE_END.split(text):
        s = _ADDRESS_MID.sub(lambda m: "" if _addressed(m.group(1)) else m.group(0), sentence)
        s = _ADDRESS_END.sub(lambda m: "" if _addressed(m.group(1)) else m.group(0), s)
        s = _ADDRESS_START.sub(lambda m: "" if _addressed(m.group(1)) else m.group(0), s)
        out.append(s if s.strip(" .!?,") else sentence)
    return " ".join(out)


# A restart after a dash: the words before it abandoned for what follows ("is there - are there any knives",
# "which room - what room is it in", "put the magazine - put it away": the thing said first stands for "it")
_DASH_RESTART = re.compile(r"^((?:[\w']+\s+){0,5}[\w']+)\s*(?:[\u2014\u2013]|--?)\s+([\w'].*)$")
# a dash typed against the word it breaks off ("where did I put the— where did I leave it"): spaced like any other
_DASH_GLUED = re.compile(r"(?<=\w)([\u2014\u2013])(?=\s)")
# words said to someone else between dashes ("where was the lime — Sam, I said no — where was it"): not to the robot
_ASIDE_TO_SOMEONE = re.compile(r"\s+[\u2014\u2013]\s*[A-Z][a-z]+\s*,\s*[^\u2014\u2013?]{1,60}?\s*[\u2014\u2013]\s+")
# the same two words on both sides of a dash ("get me the radio and the — and the milk"): said once
_DASH_REPEAT = re.compile(r"\b((?:[\w']+\s+){0,2}[\w']+)\s+[\u2014\u2013]\s+\1\b", re.I)


def spaced_dashes(text: str) -> str:
    """Dashes of a broken-off sentence spaced, words said to someone else between them left out, and words
    repeated across one said once."""
    t = _DASH_GLUED.sub(r" \1", text)
    t = _ASIDE_TO_SOMEONE.sub(" \u2014 ", t)
    return _DASH_REPEAT.sub(r"\1", t)
_RESTART_WORDS = frozenset({"what", "which", "where", "who", "when", "how", "is", "are", "was", "were", "do", "does",
                            "did", "can", "could", "have", "has", "will", "would"})


def _one_of(phrase: str, rest: str) -> str:
    """The last word of ``phrase`` in the singular when what follows is a singular verb ("is", "was", "sits")."""
    if not re.match(r"\s*(?:is|was|sits|stands|lies|has)\b", rest, re.I):
        return phrase
    return singular_phrase(phrase)


# "tell me whether the cupboard can be opened", "I'm wondering whether the living room has any lamps in it",
# "would you kindly ascertain whether a microwave is in the kitchen": the yes-no question the wrapper holds
_WHETHER = re.compile(r"^(?:(?:please\s+|kindly\s+)?(?:tell\s+me|let\s+me\s+know|confirm|verify|ascertain|establish|determine|i\s+need\s+to\s+know|i\s+want\s+to\s+know|"
                      r"i'd\s+(?:like|love)\s+to\s+know|i\s+wonder|i'm\s+wondering|i\s+am\s+wondering|i\s+was\s+wondering|"
                      r"i'?m\s+curious|i\s+am\s+curious|"
                      r"(?:would|could|can|will)\s+you\s+(?:kindly\s+|please\s+)?(?:ascertain|find\s+out|check|establish|"
                      r"determine|confirm|tell\s+me|let\s+me\s+know|see)|(?:might|may|can)\s+i\s+(?:enquire|inquire|ask)|"
                      r"check|find\s+out|see)\s+)?(?:whether|if)\s+"
                      r"((?:the|my|your|our|a|an|any)\s+(?:[\w-]+\s+){0,3}?[\w-]+|we|you|there|i)\s+"
                      r"(is|are|was|were|can|could|has|have|had|possesses|owns)\s+([^?.!]*?)\s*(?:at\s+all)?\s*[?.!]*\s*$", re.I)


# "does the living room have any lamps (in it)?": is there any lamp in the living room
_ROOM_HAS = re.compile(r"^(?:(?:wait|so|and|oh|ok|okay)\s*,?\s+)?(?:does|do|did)\s+the\s+(" + lx.ROOMS_RE + r")\s+"
                       r"(?:actually\s+|really\s+|even\s+|still\s+)?have\s+(any|a|an)\s+(.+?)"
                       r"(?:\s+in\s+(?:it|there))?\s*\??\s*$", re.I)


def _whether_question(text: str) -> str:
    t = _whether(text)
    return _ROOM_HAS.sub(lambda m: f"{'are' if m.group(2).lower() == 'any' else 'is'} there {m.group(2)} {m.group(3)} "
                                   f"in the {m.group(1)}?", t)


def _whether(text: str) -> str:
    # "I'm curious whether there might be a washer in the bedroom": whether there is one
    text = re.sub(r"\b(whether|if)\s+there\s+(?:might|may|could)\s+be\b", r"\1 there is", text, flags=re.I)
    m = _WHETHER.match(text)
    if not m:
        return text
    np_, verb, rest = m.group(1), m.group(2).lower(), m.group(3)
    if verb in ("has", "have", "had", "possesses", "owns"):
        if np_.lower() in ("we", "you") or re.match(r"(?:the\s+)?(?:house|household|home|flat|place)$", np_, re.I):
            return f"do we have {rest}?"
        do = "did" if verb == "had" else ("do" if verb == "have" else "does")
        return f"{do} {np_} have {rest}?"
    return f"{verb} {'I' if np_.lower() == 'i' else np_} {rest}?"


def without_repairs(text: str) -> str:
    """The text with what a self-repair took back left out ("bring me the mug — sorry, the radio": the radio):
    what the speaker still says, for checks that look at every word said."""
    t = text.replace("\u2019", "'").replace("\u2018", "'")
    t = edit_repairs(dictation_fixes(spaced_dashes(_SPACES.sub(" ", t).strip())))
    return _RESTART.sub(r"\1", _REPAIR.sub("", _dash_restart(t)))


def _dash_restart(text: str) -> str:
    m = _DASH_RESTART.match(text)
    if not m:
        return text
    frag, rest = m.group(1).split(), m.group(2).split()
    f0, r0 = (re.sub(r"'s$", "", w.lower().strip(",")) for w in (frag[0], rest[0]))
    if f0 == r0:
        low_f, low_r = [w.lower().strip(",") for w in frag], [w.lower().strip(",") for w in rest]
        for k in range(1, min(len(frag), len(rest), 4)):
            if low_r[k] in ("it", "them") and low_f[:k] == low_r[:k] and low_f[k] not in ("it", "them", "me", "us"):
                # "put the magazine - put it away", "where was the lime - where was it before": the thing
                # the broken-off start named is what "it" is
                return " ".join([*rest[:k], *frag[k:], *rest[k + 1:]])
            if low_f[k] != low_r[k]:
                break
        return m.group(2)
    if f0 in _RESTART_WORDS and r0 in _RESTART_WORDS or frag[-1].lower() in ("the", "a", "an", "my", "your", "our") \
            and r0 not in ("sorry", "no", "actually", "wait", "i", "oops", "er", "um", "uh", "or", "rather", "make"):
        return m.group(2)  # a start broken off before its thing was named ("find the - go to where the toy is")
    return text


# words before "can" that make it a thing ("the trash can?"), not "can?" asked after a request
_CAN_NOUNS = frozenset({"tin", "trash", "garbage", "rubbish", "watering", "soda", "beer", "paint", "spray", "oil", "the",
                        "a", "that", "this", "my", "your", "waste", "compost", "recycling", "gas", "petrol", "i", "you",
                        "we", "it", "who", "what", "where", "how", "which"})

# the radio operator's end of a message ("Proceed to bedroom. Over.")
_OVER = re.compile(r"\s*[,.!]\s*\bover(?:\s+and\s+out)?\s*[.!]*\s*$", re.I)
# "where was it before it got moved": the moving the question is about, not an event asked for
_BEFORE_MOVED = re.compile(r"\bbefore\s+(?:it|they|that|this|someone|somebody|anyone|you|he|she|[A-Z][a-z]+)\s+"
                           r"(?:was\s+|were\s+|got\s+|had\s+been\s+|has\s+been\s+|'s\s+been\s+)?(?:last\s+)?"
                           r"(?:(?:so\s+|very\s+)?(?:rudely|suddenly|recently|carelessly|unceremoniously)\s+)?"
                           r"(?:moved|shifted|taken|relocated|touched|picked\s+up|displaced|removed|disturbed)(?:\s+(?:it|them))?"
                           r"(?:\s+(?:away|somewhere\s+else|elsewhere|last))?\b", re.I)


# "don't bring it to me, hand it to Ben", "don't tell me whether it's open — just close the fridge": what not to
# do, then what to do instead: the instead is the request
_NOT_THIS_BUT = re.compile(r"^(?:(?:ok(?:ay)?|right|no)\s*,?\s*)?(?:don't|do\s+not|dont|no\s+need\s+to|(?:i|we)\s+(?:don't|do\s+not|"
                           r"dont)\s+(?:want|need))\s+(?:just\s+|only\s+)?([^\u2014\u2013;,.!?]{2,80}?)"
                           r"\s*(?:[\u2014\u2013;]|--|\s-\s|[,.!])\s*(?:just\s+|instead\s+|but\s+|rather\s+)?"
                           r"(?=(?:please\s+)?(?:bring|take|hand|give|put|go|close|open|find|get|fetch|carry|move|tell|show|say)\b)",
                           re.I)
# "think about where the loo roll belongs. Tell me where that is": the place asked is the one the first sentence says
_WHERE_THAT_IS = re.compile(r"^(?:[a-z ]{0,30}?\b)?(where\s+(?:the\s+|my\s+)?[\w -]{2,40}?\s+(?:belongs|goes|should\s+go|is\s+kept|"
                            r"lives|is\s+meant\s+to\s+go))\b[^.?!]*[.?!]\s+(?:now\s+|then\s+|and\s+)?(?:tell|show)\s+me\s+"
                            r"where\s+(?:that|it)\s+is\b.*$", re.I)
# a request read off a list or a note: "14. What time ...", "2) bring ...", "Step one: ...", "- the mug", "• ..."
_LIST_MARK = re.compile(r"(^|[.!?]\s+)(?:\(?\d{1,2}[.)]|#\d{1,2}[.:)]?|step\s+(?:\d{1,2}|one|two|three|four|five|"
                        r"six)\s*[:.)\-]|[-*\u2022])\s+(?=[A-Za-z])", re.I)


def _instead(text: str) -> str:
    """"Don't bring the keyboard to me — hand it to Ben" -> "hand the keyboard to Ben": the request after what
    not to do, its "it" the thing the first part named."""
    m = _NOT_THIS_BUT.match(text)
    if m is None:
        return text
    rest = text[m.end():]
    if re.search(r"\b(?:as\s+well|too|also)\s*[.!?]*\s*$", rest, re.I):
        return text  # "don't just bring the pear, bring the lotion as well": both (``_NOT_JUST`` reads it)
    if re.search(r"\b(?:mine|yours|his|hers|ours|theirs|one|ones)\b", rest, re.I):
        return text  # "don't bring me just any glass, bring me mine": the kind is in the part not to do (parts.py)
    thing = re.search(r"\b(?:the|my|that|this|your|our)\s+(?!way\b|time\b)[a-z][\w-]*(?:\s+(?!to\b|in\b|on\b|me\b|for\b|over\b)[a-z][\w-]*)?",
                      m.group(1), re.I)
    if thing is not None:
        rest = re.sub(r"\bit\b", thing.group(0), rest, count=1)
    return rest


def _lower_first(np: str) -> str:
    return np[:1].lower() + np[1:]


_NP3 = r"((?:the|my|your|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?[\w-]+)"
_DATA_WORDS = r"(?:inventory|logs?|records?|database|data|system)"
# Questions and commands said in other frames than the parser reads, as the frame it reads. Each is a kind of
# saying, not a sentence: a data word around the thing ("the latest known position of the lime", "any sightings
# of the juice in your logs", "the last-seen timestamp on the mug"), a thing said first ("the mug last time was
# where?"), a verb said last (German order: "can you me the keyboard bring?"), a restart of two words.
_SAID_OTHERWISE: tuple[tuple[re.Pattern[str], Any], ...] = tuple((re.compile(p, re.I), r) for p, r in (
    # "my keyboard has gone AWOL. Where is it?": where it is
    (r"^((?:my|the|our)\s+[\w ]{2,30}?)\s+(?:has|have|'s|'ve)\s+(?:gone\s+)?(?:awol|missing|walkabout|disappeared|vanished|"
     r"wandered\s+off)\s*(?:again\s*)?[.!,]+\s*where\s+(?:is|are)\s+(?:it|they)(?:\s+now)?\s*\??\s*$", r"where is \1?"),
    # "where to keep the milk?", "where to put the towels": where it goes, asked of the speaker's own doing
    (r"^where\s+to\s+(?:keep|store|put|stow)\s+((?:the|my|our|your|this|that|these|those)\s+[\w -]{1,40}?)\s*(?=[?.!,]|$)",
     r"where does \1 go"),
    # "where did the mug live before someone moved it": where it was before, not where it goes
    (r"\bwhere\s+did\s+((?:the|my|our|your|this|that)\s+[\w -]{1,40}?)\s+(?:live|sit|stay|stand|lie|belong)\s+before\b",
     r"where was \1 before"),
    # "which face cream... the one next to the toothpaste?", "which mug, the one by the sink": which one is there
    (r"\bwhich\s+([a-z][\w -]{1,30}?)\s*(?:\.{2,}|…|,|-|—|\.)\s*(?:i\s+mean\s+|like\s+)?the\s+ones?\s+(?:that'?s\s+|that\s+is\s+|"
     r"which\s+is\s+|sitting\s+|standing\s+)?(next\s+to|beside|by|near|on|in|under|behind)\s+", r"which \1 is \2 "),
    # "the remote and also the toilet paper": a list, said with "also"
    (r"\band\s+also\b", "and"),
    # a cleft: "what is it that is on the bed?" asks what is on the bed
    (r"\bwhat\s+is\s+it\s+that\s+(is|are)\b", r"what \1"),
    # "give me a count on knives in the kitchen", "get me a number for the plates": how many
    (r"^(?:please\s+)?(?:give|get)\s+me\s+a\s+(?:count|number|tally|headcount)\s+(?:of|on|for)\s+", "how many "),
    # "before that happened", after the moving was said: before the move
    (r"\bbefore\s+(?:that|this|it)\s+(?:happened|was\s+done|took\s+place)\b", "before"),
    # "what he did?", "and after that, what she did": a learner's order of "what did he do"
    (r"\bwhat\s+(he|she|they|you|[A-Z][a-z]+)\s+did\s*(?=[?.!]|$)", r"what did \1 do"),
    # idioms of everyday English that name no thing or place: "lost track of", "on hand", "somewhere daft",
    # a closing "I'd like to know"
    (r"\blost\s+track\s+of\b", "lost"),
    (r"\s+on\s+hand\b(?=\s*(?:in\s+the\s+house|at\s+home|here)?\s*[?.!,]|\s+(?:in|at)\b)", ""),
    (r"\s+on\s+the\s+premises\b", ""),
    (r"\bsomewhere\s+(?:daft|silly|stupid|weird|odd|strange|random|funny|obvious)\b", "somewhere"),
    (r"\s*,?\s*(?:i'?d|i\s+would)\s+(?:like|love)\s+to\s+know\s*(?=[?.!]*\s*$)", ""),
    # a question's words in a statement's order, as learners say it: "in the kitchen how many forks there are?"
    (r"\bhow\s+many\s+((?!(?:[\w-]+\s+){0,3}(?:would|do|did|does|you|i|we|say|think|reckon)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
     r"\s+there\s+(?:are|is)\b", r"how many \1 are there"),
    # a topic, then whether there are any: "knives - do we have any?", "cartons of juice: got any?"
    (r"^([a-z][\w -]{1,40}?)\s*(?:-|:|,)\s*(?:do\s+we\s+have|have\s+we\s+got|got|are\s+there)\s+any\s*\?",
     r"do we have any \1?"),
    # the imperative of a question: "name everything in the cupboard", "identify the plate next to the microwave"
    (r"^(?:please\s+)?(?:name|list|enumerate|itemi[sz]e)\s+(?:everything|all\s+(?:the\s+)?(?:items|things|objects))\s+"
     r"(in|on|inside)\s+", r"what is \1 "),
    (r"(?:^|(?<=[.!?]\s))(?:please\s+)?identify\s+the\s+(?:specific\s+)?([a-z][\w -]{1,30}?)\s+(?:that\s+is\s+|recorded\s+|"
     r"located\s+|sitting\s+)?(next\s+to|adjacent\s+to|beside|by|near|on|in|under)\s+(?!which\b|where\b)", r"which \1 is \2 "),
    # Indian English: "what all did you do", "do the needful and get it", "where the milk should be kept?"
    (r"\bwhat\s+all\s+(?=(?:you|did|do|does|is|are|was|were|have|has)\b)", "what "),
    (r"\b(?:please\s+)?do\s+the\s+needful\s*(?:and\s+|,\s*)?", ""),
    (r"^where\s+((?:the|my|your|our|his|her)\s+[\w\s'-]{1,30}?)\s+(should|must|can|could|will|would|is|are|was|were)\s+"
     r"(be\s+)?(kept|stored|put|placed|go|goes|belong|belongs|live|lives)\b", r"where \2 \1 \3\4"),
    # "what is its proper place?", "its place?", "its place is where?": where it goes
    (r"(?:^|(?<=[.?!]\s))(?:what(?:'s|\s+is)\s+)?(its|their)\s+(?:proper\s+|right\s+|usual\s+|normal\s+|correct\s+|own\s+)?"
     r"(?:place|spot|home)(?:\s+(?:is|are)\s+where)?\s*\?+",
     lambda m: "where does it go?" if m.group(1).lower() == "its" else "where do they go?"),
    # "which plate is the one kept next to the microwave?": the one next to it
    (r"\bthe\s+one\s+(?:that(?:'s|\s+is)\s+|which\s+is\s+)?(?:kept|sitting|lying|placed|standing|located|resting)\s+"
     r"(?=(?:next|on|in|inside|by|near|beside|under|behind|right)\b)", "the one "),
    # a name that says who is talking, on a radio or a phone ("Robot, Anna here.")
    (r"^(?:robot\s*,\s*)?[A-Z][a-z]+\s+here\s*[.,!;]\s*(?=\w)", ""),
    # courtesy and urgency around a question ("..., if I may ask?", "Numbers, now!", "Need to know now.", "Quick!")
    (r"\s*,\s*if\s+(?:i\s+may|you\s+don'?t\s+mind\s+me)\s+ask(?:ing)?\s*(?=[?.!]*\s*$)", ""),
    (r"(?<=\?)\s*(?:numbers?|answer|details|quick(?:ly)?|now|asap|need\s+to\s+know(?:\s+now)?|i\s+need\s+to\s+know)"
     r"(?:\s*,?\s*(?:now|quick|please|asap))?\s*[.!]*\s*$", ""),
    (r"^at\s+what\s+time\s+(?=(?:did|do|does|was|were|have|has)\b)", "when "),
    # "anyone seen the remote? (Robot, you seen it?)": have you seen it
    (r"^(?:has\s+)?(?:any(?:one|body)|some(?:one|body))\s+seen\s+([^?]+)\?(?:\s*(?:robot\s*,\s*)?(?:have\s+)?you\s+seen\s+"
     r"(?:it|them)\s*\?*)?\s*$", r"have you seen \1?"),
    # "any glass except the one in the bathroom", "but not the ones on the table": those not there
    (r"\s*,?\s*(?:except(?:\s+for)?|but\s+not|other\s+than|apart\s+from|besides)\s+the\s+ones?\s+(?:that(?:'s|\s+is|\s+are)\s+|"
     r"which\s+(?:is|are)\s+)?(on|in|inside|under|next\s+to|by|near|beside)\s+", r" that is not \1 "),
    # "how many apples are there in all / in total / altogether?": a count, no place
    (r"\s+(?:in\s+all|in\s+total|all\s+told|altogether|all\s+together)\s*(?=[?.!]*\s*$)", ""),
    # "we got any face creams?": do we have any
    (r"^(?:we|you)\s+got\s+(?=(?:any|some|a|an)\b)", "do we have "),
    # "could you identify which glass ...", "kindly confirm whether ...": the question asked
    (r"^(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+|kindly\s+)?(?:identify|determine|establish|ascertain|verify|confirm|"
     r"clarify)\s+(?=(?:which|where|what|how|when|who)\b)", ""),
    # "how much glasses": how many
    (r"\bhow\s+much\s+(?=[a-z]+s\s+(?:are|is|do|does|did|have|has|were|in|on)\b)", "how many "),
    # "colour of the remote?": what colour it is
    (r"^(?:the\s+)?(colou?r|size|shape|material)\s+of\s+([^?]+)\?", r"what \1 is \2?"),
    # a complaint after a lost thing ("..., it's doin' my head in", "..., it's driving me mad")
    (r"\s*,\s*(?:it'?s|it\s+is|that'?s)\s+(?:doin'?g?|driving|sending)\s+(?:ma|my|me)\s+(?:heid|head|nut)?\s*(?:in|mad|crazy|"
     r"nuts|round\s+the\s+bend|up\s+the\s+wall)\b[^.?!]*", ""),
    # a French speaker's "I don't arrive to find" (je n'arrive pas à trouver): I can't find
    (r"\bi\s+(?:don'?t|do\s+not)\s+arrive\s+to\s+(?=find|see|locate|open|close|reach)", "I can't "),
    # "is the mug mine?", "is that glass Ben's?": whose it is (memory answers what it was told, or that it was not)
    (r"^(?:is|are)\s+((?:the|this|that|these|those)\s+[\w\s-]{1,30}?)\s+(?:really\s+)?(mine|yours|ours|his|hers|theirs|"
     r"[a-z]+'s)\s*\?+\s*$", r"whose is \1?"),
    # "deliver to my position": to the speaker
    (r"\bto\s+my\s+(?:current\s+|present\s+)?(?:position|location|whereabouts)\b", "to me"),
    # "report Ben's next action after he sat down": what Ben did after it
    (r"^(?:tell\s+me|report|request)\s+([a-z]+)'s\s+next\s+(?:action|activity|move|step)\s+after\s+", r"what did \1 do after "),
    # "I have no idea where the magazine is (can you tell me)": where it is
    (r"^(?:(?:ngl|tbh|honestly|frankly|sorry)\s*,?\s+)?(?:i\s+)?(?:(?:(?:have|'ve|had)\s+)?(?:got\s+)?no|(?:haven't|have\s+not|"
     r"hadn't|had\s+not|don't\s+have|do\s+not\s+have)\s+(?:got\s+)?(?:a|the\s+(?:faintest|foggiest|slightest|first)))\s+"
     r"(?:clue|idea|notion)\s+where\s+(.+?)\s+(?:is|are|went|has\s+gone|have\s+gone|got\s+to)\b"
     r"(?:\s*[,.]?\s*(?:can|could|would|will)\s+(?:you|u)\s+(?:tell|help|say)(?:\s+me)?)?\s*[.?!]*\s*$", r"where is \1?"),
    # "go to where the remote is": go to the remote
    (r"\b(go|come|head|drive|walk|move|roll|proceed)\s+(?:over\s+|back\s+)?to\s+where\s+((?:the|my|your|our|his|her)\s+"
     r"[\w\s'-]{1,30}?)\s+(?:is|are|was|were|sits|lives)\b(?:\s+(?:now|kept|sitting|lying|right\s+now))?", r"\1 to \2"),
    # "cooking pots, do we have (in this house)?": the thing said first is what is asked after
    (r"^([a-z][\w\s'-]{1,30}?)\s*,\s*(?:do|did)\s+(?:we|you|i)\s+(?:have|own|got|keep)(?:\s+(?:any|some|them|it|one|those))?"
     r"(?:\s+(?:in\s+(?:this|the|our)\s+(?:house|home|flat|apartment|place)|here|at\s+home|around))?\s*\?+\s*$",
     r"do we have \1?"),
    # "get over by the stove, go!": go there
    (r"^(?:now\s+)?get\s+(?:over|across|down|up|yourself)\s+(?:by|to|near|beside|next\s+to)\s+", "go to "),
    (r"(?<=\w)\s*,\s*go(?:\s*,?\s*go)*\s*!+\s*$", "!"),
    # "bring me an item to dry my hands with", "a thing for cutting bread": a generic noun with a use is
    # "something" for that use (the tagger hangs "to dry" on the verb, and the item alone names no thing)
    (r"\b(?:an?|some|any)\s+(?:item|object|thing|article)\s+(?=(?:to|for)\s+[a-z])", "something "),
    # "where's the lime gone?": where has it gone ("'s" is "has" before a participle)
    (r"\bwhere(?:'s|\s+is)\s+" + _NP3 + r"\s+gone\b", r"where has \1 gone"),
    # "how many plates has the kitchen (got)?", "does the kitchen have": how many are in it
    (r"^how\s+many\s+([\w\s-]+?)\s+(?:has|have|does|do)\s+(?:the|our|your|my)\s+(" + lx.ROOMS_RE + r")"
     r"(?:\s+(?:got|have|has|contain|hold))?\s*\?*\s*$", r"how many \1 are in the \2?"),
    # "where was the mug last time?", "the mug last time was where?": where it was before
    (r"^where\s+was\s+" + _NP3 + r"\s*,?\s+(?:the\s+)?last\s+time\s*\?*\s*$", r"where was \1 before?"),
    (r"^" + _NP3 + r"\s*,?\s+(?:the\s+)?last\s+time\s+(?:it\s+)?(?:was|were)\s+where\s*\?*\s*$",
     lambda m: f"where was {_lower_first(m.group(1))} before?"),
    # "the loo roll supposed to put where?": where it goes
    (r"^" + _NP3 + r"\s+(?:is\s+|are\s+)?(?:supposed|meant)\s+to\s+(?:go|be\s+put|put|be\s+kept|keep|be\s+stored|"
     r"live|belong|be)\s+where\s*\?*\s*$", lambda m: f"where is {_lower_first(m.group(1))} supposed to go?"),
    # "where the lotion belong?", "where my keys go?": a question without its "does"
    (r"^where\s+" + _NP3 + r"\s+(belong|go|live)\s*\?*\s*$", r"where does \1 \2?"),
    # "on the table, any table": whichever one
    (r"\b(?:the\s*,?\s*(?:(?:um+|uh+|erm*)\s*,?\s*)?)?the\s+([\w-]+)\s*,\s*any\s+(?:\w+\s+)?\1\b", r"a \1"),
    # "where can sit down?" (the person left out, as in many languages): where can I
    (r"^where\s+can\s+(?=(?:sit|sleep|lie|rest|wash|eat|cook|read|work|hang|put|dry|charge)\b)", "where can I "),
    # "which bowl, the one by the radio?": which one is by it
    (r"^which\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s*,\s*the\s+one\s+(?=(?:by|next\s+to|near|beside|on|in|under)\b)",
     r"which \1 is "),
    # "go to where is the juice": where the juice is
    (r"\b(to|near|by)\s+where\s+is\s+" + _NP3 + r"(?=\s*[?.!,]*\s*$)", r"\1 where \2 is"),
    (r"\bseek\s+out\b", "find"), (r"\s*,?\s+wherever\s+(?:it|they)\s+(?:may|might|could)\s+be\b", ""),
    # a data word around the thing
    (r"\s+(?:anywhere\s+)?in\s+(?:the|your|my)\s+" + _DATA_WORDS + r"\b", ""),
    (r"^(?:do\s+you\s+have|have\s+you\s+got|is\s+there|are\s+there)\s+(?:any\s+)?(?:sightings?|records?|entries|"
     r"logs?)\s+(?:of|on|for|about)\s+" + _NP3 + r"\s*\?*\s*$", r"have you seen \1?"),
    (r"\b([a-z]+)\s+instances?\b(?=\s+(?:is|are|belongs?|on|in|of)\b|\s*\?)", r"\1"),
    (r"^(?:what(?:'s|\s+is|\s+was)|tell\s+me|give\s+me|do\s+you\s+know|(?:might|could|can|would)\s+you\s+(?:tell|"
     r"enlighten|inform|remind)\s+me(?:\s+(?:as\s+to|of|about))?)\s+(?:the\s+|your\s+)?(?:(?:current|present|latest|"
     r"last|most\s+recent|exact|precise|known|last-known|real|actual)\s+)*(?:location|position|whereabouts|spot)\s+"
     r"(?:of|for)\s+" + _NP3 + r"\s*\?*\s*$", r"where is \1?"),
    (r"^(?:what(?:'s|\s+is)|tell\s+me|give\s+me)\s+(?:the\s+)?(?:colou?r|hue)\s+(?:attribute|value|property|field)\s+"
     r"(?:of|for|on)\s+" + _NP3 + r"\s*\?*\s*$", r"what color is \1?"),
    (r"^(?:what(?:'s|\s+is)|tell\s+me|give\s+me)\s+(?:the\s+)?(first|last)[\s-]+seen\s+(?:timestamp|time)\s+"
     r"(?:of|for|on)\s+" + _NP3 + r"\s*\?*\s*$", r"when did you \1 see \2?"),
    (r"^(?:what(?:'s|\s+is)|tell\s+me|give\s+me)\s+(?:the\s+)?(?:timestamp|time)\s+(?:you\s+)?(first|last)\s+"
     r"saw\s+" + _NP3 + r"\s*\?*\s*$", r"when did you \1 see \2?"),
    # "trigger open on the microwave", "execute a close on the fridge": open it
    (r"^(?:please\s+)?(?:trigger|execute|run|perform|initiate|do)\s+(?:an?\s+)?(open|close)\s+(?:on|of|for)\s+", r"\1 "),
    # "put the lotion in its designated storage location": away
    (r"\bin\s+(?:its|their)\s+(?:designated|assigned|allocated|usual|correct|right|proper)\s+(?:storage\s+)?"
     r"(?:location|place|spot|home|position)\b", "away"),
    # German order: "can you me the keyboard bring?", "stands the fridge open?"
    (r"^(can|could|would|will)\s+you\s+(me\s+|us\s+)?((?:the|my|our|a)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
     r"(bring|fetch|get|give|hand|pass|open|close|find|carry|take)\s*(?:please)?\s*([?.!]*)$", r"\1 you \4 \2\3\5"),
    (r"^stands?\s+" + _NP3 + r"\s+(open|closed|shut|locked|unlocked|on|off|empty|full)\s*\?", r"is \1 \2?"),
    # "where did the mouse formerly reside?": where it was before
    (r"^where\s+(?:did|was|were|had)\s+" + _NP3 + r"\s+(?:formerly|previously)\b[^?]*\?*\s*$",
     lambda m: f"where was {_lower_first(m.group(1))} before?"),
    # "lay the loo roll down on the couch": the particle says nothing the place does not
    (r"\b(lay|set|put|place|pop|plonk)\s+((?:the|my|your|our|it|them)\b(?:\s+[\w-]+){0,3}?)\s+down\s+"
     r"(?=(?:on|onto|in|into|by|next\s+to|beside)\b)", r"\1 \2 "),
    # "pack the ball away": put it away
    (r"\bpack\s+((?:the|my|your|our|it|them)\b(?:\s+[\w-]+){0,3}?)\s+away\b", r"put \1 away"),
    (r"\bpack\s+away\s+(?=(?:the|my|your|our)\b)", "put away "),
    # "rustle up the juice for me": get it
    (r"\brustle\s+up\b", "get"),
    # "take the pear and the lotion come here": bring them to the speaker
    (r"^(?:take|bring|carry|get|fetch|grab)\s+(.+?)\s+(?:and\s+)?come\s+(?:here|back\s+here|to\s+me)\b", r"bring me \1"),
    # "is the fridge securely closed, I trust?": the hope is no part of the question
    (r"\s*,\s*i\s+(?:trust|hope|presume|assume|suppose|take\s+it|imagine|gather)\s*(?=\?)", ""),
    # "dang it, I set the remote down somewhere": an oath, not a thing
    (r"^(?:dang|damn|darn|drat|blast|bugger|dammit|damnit|dagnabbit)(?:\s+it)?\s*[,!.]\s*", ""),
    (r"\bsomewheres\b", "somewhere"),
    # "what you tried to open today?" (a question without "did", as many learners ask it)
    (r"^(what|where|when|which\s+[\w-]+)\s+(you|i|we|he|she|they)\s+([a-z]{3,}ed)\b",
     lambda m: f"{m.group(1)} did {m.group(2)} {_verb_now(m.group(3))}"),
    # "get rid of the mug", "dispose of the radio": throw it away (never a fetch to the speaker)
    (r"\b(?:get\s+rid\s+of|dispose\s+of|do\s+away\s+with)\s+(?=(?:the|my|your|our|this|that|these|those|it|them)\b)",
     "throw away "),
    # "bring the mug instead of the radio": the thing not wanted is no part of the task
    (r"\s*,?\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the|my|your|our|a|an|that|this)\s+(?:[\w-]+\s+){0,2}?"
     r"[\w-]+(?=\s*(?:[,.!?]|please\b|$))", ""),
    # "righto, grab it": an opener
    (r"^(?:righto|right-o|righty-o|alrighty|okey-dokey|ok\s+then)\s*[,!.]?\s+", ""),
))
# WordNet's senses of carrying: a verb whose commonest sense is one of these, or a kind of one ("haul", "lug",
# "ferry", "tote", "cart"), is a verb of carrying the parser's word list may not have
_CARRYING_SENSES = frozenset({"carry.v.01", "transport.v.02", "bring.v.01", "pull.v.01", "fetch.v.01"})
# a story first, then what is asked ("My neighbour asked to borrow one and I said I'd check, so do we have a
# sofa?"): the question after "so", "anyway", "but" is the request; the story's things are not what is asked
# "I've turned the place upside down, even checked the car, and I still can't find my remote": the last clause
_STORY_THEN_LOST = re.compile(r"^.{24,}?[,;.!]\s*(?:and|but|so)\s+(i\s+(?:still\s+|just\s+|really\s+)?(?:can'?t|cannot|can\s+not|"
                              r"couldn'?t)\s+(?:find|locate|see)\b[^,;.!?]+)[.!]*\s*$", re.I)
_STORY_THEN = re.compile(r"^(.{24,}?)(?:[,;.!:]|\s-+)\s*(?:and\s+)?(?:so|anyway|anyhow|but|well|long\s+story\s+short)\s*,?\s+"
                         r"(?:(?:rather\s+than\s+me\s+(?:going|doing\s+it)|tell\s+me|(?:can|could|would)\s+you\s+tell\s+me)\s*,\s*)?"
                         r"((?:where|what|which|when|who|how|is|are|was|were|do|does|did|have|has|had|can|could|would|"
                         r"will)\b[^?]{3,}\?|(?:please\s+|just\s+)?(?:" + "|".join(sorted(lx.COMMAND_VERBS)) + r")\b[^?]{3,}?[.!]*)\s*$",
                         re.I)
# "Ben was after sitting down on the sofa, so what did he do then?" (the Irish "after" perfect, or "done",
# "finished"): what the person did after that
# "Ben made coffee, then after that he do what?", "ok so Ben used the computer, what was his next move?" (the
# standard "..., what did he do next?" is read by the parts as it was: rewritten here, a writer's aside lost it)
_DID_THEN_WHAT = re.compile(r"^(?:(?:ok(?:ay)?|so|right|and)\s*,?\s+)*(?:so\s+)?([A-Z][a-z]+)\s+((?:\w+ed|made|sat|took|had|ate|drank|"
                            r"went|got|put|brushed|turned|switched|did|read|wrote|came|left)\b[^?,;]{0,60}?)(?:\s+already)?\s*[,;.]\s*"
                            r"(?:(?:and\s+)?then\s*,?\s*)?(?:after\s+(?:that|this)\s*,?\s*)?(?:what\s+was\s+(?:his|her|their)\s+"
                            r"next\s+(?:move|step|thing)|(?:(?:he|she|they)\s+)?(?:do|did)\s+what|what\s+(?:he|she|they)\s+(?:do|did))"
                            r"(?:\s+(?:then|next|after\s+that|afterwards?))?\s*\?*\s*$")
_DONE_THEN_WHAT = re.compile(r"^['\"]?(?!(?:he|she|they|i|you|we)\b)([A-Za-z]+)\s*(?:(?:was|is|were|'s|had|has)\s+(?:just\s+)?)?"
                             r"(?:[-,:]\s*)?(?:after|done|finished)\s+(\w+ing\b[^?'\"]*?)\s*[?'\",;.]*\s*"
                             r"(?:(?:so|and|then)\s*,?\s*)?what\s+did\s+(?:he|she|they)\s+do\s+(?:then|next|"
                             r"after\s+that|afterwards?)\s*\?*\s*$", re.I)


# a thing named first, then asked about or acted on as "it" ("stove, what is on it?", "remote, what colour is
# it?", "radio, please put on table"): the thing in the place of "it"
_TOPIC = r"^((?:the\s+|my\s+|your\s+|our\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})\s*,\s*"
_TOPIC_QUESTION = re.compile(_TOPIC + r"((?:what|which|where|how|when|who|is|are|was|were|can|could|do|does|did)\b[^,.;]*?)"
                             r"\b(it|its)\b([^,;]*)$", re.I)
_TOPIC_COMMAND = re.compile(_TOPIC + r"(?:(?:please|now|just|kindly)\s+)*(put|place|set|bring|take|give|fetch|get|move|carry|"
                            r"hand|open|close|shut)\b(?!\s+(?:it|them|the|a|an|my|your|this|that|these|those|some)\b)"
                            r"(\s+(?:on|in|to|into|onto|inside|on\s+top\s+of|me|here|there|away|back|over)\b.*|\s*[.!]*)$", re.I)
_NOT_TOPICS = frozenset({"ok", "okay", "so", "well", "yes", "yeah", "no", "nope", "right", "please", "sorry", "robot", "hey",
                         "now", "listen", "look", "wait", "honey", "dear", "mate", "love", "oh", "um", "uh", "hmm", "also",
                         "then", "and", "but", "actually", "anyway", "quick", "quickly", "thanks", "first", "next", "again",
                         "alright", "fine", "sure", "hi", "hello", "morning", "evening", "sir", "madam", "friend", "buddy"})


def _topic_first(t: str) -> str:
    for pattern in (_TOPIC_QUESTION, _TOPIC_COMMAND):
        m = pattern.match(t.strip())
        if m is None:
            continue
        topic = m.group(1)
        words = topic.lower().split()
        if set(words) & _NOT_TOPICS:
            return t
        from ..core.wordnet import default_wordnet

        wn = default_wordnet()
        bare = " ".join(w for w in words if w not in ("the", "my", "your", "our"))
        # a household thing, not someone spoken to ("Ben, what is on it?" asks Ben; WordNet's ben is a peak)
        if wn is None or not (wn.household(bare) or wn.household(words[-1])) or wn.names_a_person(words[-1]):
            return t
        if pattern is _TOPIC_QUESTION and re.match(r"\s*(?:proper\s+|right\s+|usual\s+|own\s+)?(?:place|spot|home|station|berth|slot)\b",
                                                    m.group(4), re.I):
            return t  # "the teddy, where is its place?": where it goes, read whole
        thing = topic if words[0] in ("the", "my", "your", "our") else f"the {topic}"
        if pattern is _TOPIC_QUESTION:
            said = thing if m.group(3).lower() == "it" else f"{thing}'s"
            return f"{m.group(2)}{said}{m.group(4)}"
        return f"{m.group(2)} {thing}{m.group(3)}"
    return t


_STORY_REFERENT = re.compile(r"\b(?:it|its|they|them|their|that|those|these|one|ones|he|him|his|she|her|there|then|here|this)\b",
                             re.I)


def _question_after_story(t: str) -> str:
    m = _DONE_THEN_WHAT.match(t.strip())
    if m:
        return f"what did {m.group(1)} do after {m.group(2)}?"
    m = _DID_THEN_WHAT.match(t.strip())
    if m:
        return f"what did {m.group(1)} do after he {m.group(2)}?"
    m = _STORY_THEN_LOST.match(t.strip())
    if m is not None and not _STORY_REFERENT.search(m.group(1)):
        return m.group(1) + "."
    m = _STORY_THEN.match(t.strip())
    if m is None:
        return t
    story = m.group(1).split()
    if story and story[0].lower().strip(",") in lx.COMMAND_VERBS:
        return t  # "bring the mug, so where is the radio?": a task first, not a story
    if _STORY_REFERENT.search(m.group(2)):
        return t  # "the mug was in the kitchen this morning, so where is it now?": the story says what "it" is
    return m.group(2)


# an imperative's first verb, with a thing after it and somewhere it goes ("haul the juice over to the kitchen");
# without the place ("draw the curtains") the verb is left alone
_CARRY_FRAME = re.compile(r"^((?:please\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?)?)([a-z]{3,})\s+(?=(?:the|my|your|"
                          r"our|this|that|these|those|a|an|some)\s[^.?!]*?\b(?:to|here|for\s+(?:me|us)|back)\b)", re.I)


def _carrying_verb(m: re.Match) -> str:
    verb = m.group(2).lower()
    if verb in lx.COMMAND_VERBS or verb in lx.WRAPPER_VERBS:
        return m.group(0)
    wn = default_wordnet()
    return f"{m.group(1)}carry " if wn is not None and wn.verb_is_a(verb, _CARRYING_SENSES) else m.group(0)


# "put it, um, put it back": two or three words said again once the filler is gone
_SAID_TWICE = re.compile(r"\b((?:[a-z']+\s+){1,2}[a-z']+)\s+\1\b", re.I)


_PLUS = re.compile(r"(?<=[A-Za-z])\s*[+&]\s*(?=[A-Za-z])")


def normalise(text: str) -> str:
    t = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    t = spaced_dashes(_SPACES.sub(" ", t).strip())
    t = _LIST_MARK.sub(r"\1", t)
    t = _PLUS.sub(" and ", t)  # "fetch toilet paper + computer mouse": a list
    t = telegraphic(t)  # "The milk... table. On the table. Put.": the sentence the fragments make
    t = _instead(t)
    t = _WHERE_THAT_IS.sub(lambda m: f"{m.group(1)}?", t)
    # what typing and speech did to the words, first
    t = word_searches(edit_repairs(dictation_fixes(typing_fixes(without_symbols(t)))))
    t = standard_words(t)
    t = _question_after_story(t)
    t = _topic_first(t)
    t = _CARRY_FRAME.sub(_carrying_verb, t)
    for pattern, repl in FRAMES + _SAID_OTHERWISE:
        t = pattern.sub(repl, t)
    t = _reordered_question(t) or t
    # (before the shortcuts read "that in dear" as a thing's phrase)
    t = " ".join(_ENDEARMENT_END.sub("", s) for s in _SENTENCE_END.split(t))
    over = _OVER.sub(".", t)
    t = over if len(over.split()) >= 2 else t  # "Over." alone stays what it is
    for pattern, repl in _SHORTCUTS:
        t = pattern.sub(repl, t)
    t = _SAID_TWICE.sub(r"\1", t)
    t = _drop_address(t)
    t = _whether_question(t)
    t = _ANY_IDEA.sub("", t)
    t = _dash_restart(t)
    t = _BEFORE_MOVED.sub("before", t)
    t = _REPAIR.sub("", t)
    t = _CONFIRMED.sub(r"\1", t)
    t = _RESTART.sub(r"\1", t)
    t = _AGREE_TAG.sub(r"\1?", t)
    t = _TIME_FIRST.sub(lambda m: f"{m.group(3)} {m.group(1).lower()} {m.group(2).lower()}{m.group(4) or '?'}", t)
    t = _AND_THEN.sub(", then what", t)
    t = _ABLE_TO.sub("can you", t)
    t = _DONT_SUPPOSE.sub(lambda m: f"do you {m.group(1).lower()}", t)
    t = _WH_D.sub(lambda m: f"{m.group(1)} did", t)
    t = _WENT_AND.sub("", t)
    t = _SAID_AGAIN.sub(r"\1 ", t)
    t = _OUT_THE.sub(r"\1 out of the", t)
    t = _TURN_THEN.sub("", t)
    t = _SIDE_NEAR_PART.sub(r"\2 \1 \3", t)
    t = _PART_COMMA_SIDE.sub(r"\1 \2", t)
    t = _BARE_SIDE.sub(_bare_side, t)
    t = _TO_ONLY.sub(lambda m: f"go to {with_article(m.group(1))}", t)
    t = _OUT_OF.sub(lambda m: f"get {with_article(m.group(1))} out of {with_article(m.group(2))}", t)
    t = _PAIR_TO.sub(_pair_to, t)
    if _PUT_VERB.search(t):
        t = _NOT_THERE.sub("", t)
    t = _BUT_NOT.sub(lambda m: m.group(0) if re.search(r"\bones?\s*$", m.group(0).rstrip(" .!?"), re.I) else m.group(1), t)
    t = _PLACE_FIRST.sub(lambda m: f"{m.group(3).lower()} there {m.group(4)} {m.group(1).lower()} {m.group(2)}?", t)
    t = _OUT_OF_TO.sub(lambda m: m.group(0) if _not_a_thing(m.group(1)) else
                       f"bring {with_article(m.group(1))} out of {with_article(m.group(2))} to {m.group(3)}", t)
    t = _RECKON_TAIL.sub("", t)
    t = _question_noun(t)
    short = _FOR_A_SEC.sub("", t)
    if len(short.split()) >= 3:  # "wait a minute", "give me a second" are no request without it
        t = short
    t = _CAN_I_OPEN.sub(lambda m: f"can {m.group(1).lower()} be opened?", t)
    t = _NOWHERE.sub(lambda m: f"where is {m.group(1)}?", t)
    t = _WOULD_YOU_SAY.sub(r"\1 ", t)
    t = _SEEN_WHEN.sub(lambda m: f"when did you {m.group(2).lower()} see {with_article(m.group(1))}?", t)
    t = _ROOM_OF.sub(lambda m: f"what room is {with_article(m.group(1))} in?", t)
    t = _WHERE_BEFORE.sub(lambda m: f"where was {with_article(m.group(1))} before?", t)
    t = _GOT_TO.sub(r"where \1 is", t)
    t = _WHEREVER.sub(r"\1", t)
    t = _THING_AFTER.sub("", t)
    t = _GO_WHERE_IS.sub(r"go to \1", t)
    t = _SEARCH_THING.sub(r"\1 for ", t)
    t = _HUNT_DOWN.sub("find", t)
    t = _WANT_BACK.sub(lambda m: f"please put {m.group(1)} back ", t)
    t = _LIKE_DONE.sub(lambda m: f"please {_PARTICIPLE_VERB[m.group(2).lower()]} {m.group(1)}", t)
    t = _THING_FIRST.sub(lambda m: f"{m.group(2).lower()}{m.group(3) or ''} {m.group(1)}", t)
    t = _IN_ITS_PLACE.sub(r"put \1 away", t)
    first = (re.findall(r"[A-Za-z']+", t)[:1] or [""])[0].lower()
    if not _NOT_A_THING.match(t) and first not in lx.COMMAND_VERBS:
        t = _TO_SOMEONE.sub(lambda m: m.group(0) if _not_a_thing(m.group(1)) else
                            f"take {with_article(m.group(1))} to "
                            f"{m.group(2) if m.group(2)[:1].isupper() else with_article(m.group(2))}", t)
        t = _NOW.sub(lambda m: m.group(0) if _not_a_thing(m.group(1)) or " to " in f" {m.group(1).lower()} " else
                     f"bring me {with_article(m.group(1))}", t)
        t = _TO_ME.sub(lambda m: m.group(0) if _not_a_thing(m.group(1)) else f"bring me {with_article(m.group(1))}",
                       t)
    t = _WHERE_BARE.sub(lambda m: f"where is {with_article(m.group(1))}?", t)
    t = _BARE_LOCATION.sub(lambda m: f"where is {with_article(m.group(1))}?", t)
    t = _HOW_MANY_LAST.sub(lambda m: f"how many {m.group(2)}" + (f" are there in the {m.group(1)}" if m.group(1)
                                                                 else "") + "?", t)
    t = _BOTH_OF.sub(lambda m: f"{(m.group(2) or m.group(3)).lower()} " + " and ".join(
        with_article(x.strip()) for x in re.split(r"\s+and\s+", m.group(1))), t)
    stripped = _OPENERS.sub("", t)
    t = stripped if stripped.strip(" ?.!,") else t  # "hey" alone stays a greeting
    t = _WH_IS.sub(r"\1 is ", t)
    t = _WH_CLEFT.sub(r"\1 is ", t)
    # "which of the bowls is ...": one of them, said in the singular the verb agrees with ("which bowls is" reads
    # "bowls" as a verb)
    t = _WHICH_OF.sub(lambda m: f"which {_one_of(m.group(1), t[m.end():])} ", t)
    t = _OF_ALL.sub(lambda m: f"which {_one_of(m.group(1), t[m.end():])} ", t)
    t = _PRESENT_IN.sub(lambda m: m.group(0) if _not_a_thing(m.group(1)) else
                        f"are there any {m.group(1)} {m.group(2).lower()} the ", t)
    t = _LAST_LOOKED.sub("", t)
    t = _YOU_TAG.sub("", t)
    t = _NEGATIVE_TAG.sub(lambda m: f"{m.group(4)} {m.group(1).lower()} {m.group(2)} {m.group(3)}?", t)
    t = _IF_TRIED.sub("", t)
    t = _SUMMARY_OF.sub("tell me ", t)
    t = _OLD_SPOT.sub(lambda m: f"where the {m.group(1)} was before", t)
    t = _ONCE.sub("after ", t)
    t = _FRONT_TIME.sub(_front_time, t)
    t = _STATE_IS.sub(r"\1 is ", t)
    t = _HAS_DONE.sub(r"\1 has ", t)
    t = _ANYTHING_AT.sub("what is ", t)
    t = _FOR_A_WHILE.sub("", t)
    t = _WHERE_PARTICIPLE.sub(r"\1", t)
    t = _WHERE_KEPT.sub(r"where does \1 go", t)
    t = _WHERES_BELONG.sub(r"where does \1\2", t)
    t = _BELONGS_WHERE.sub(r"where does \1 go?", t)
    t = _TERSE_STATE.sub(r"is the \1 \2?", t)
    t = _LIGHT_VERB.sub(lambda m: _LIGHT_VERBS[re.sub(r"[- ]+", " ", m.group(1).lower())], t)
    t = _FIND_OUT.sub(r"know \1", t)
    t = _ELLIPTIC_SEEN.sub(lambda m: "have you " + m.group(0).lower(), t)
    # a lower-case start parses better than ALL CAPS, and names keep their case
    t = re.sub(r"\b(?!I\b)[A-Z]{2,4}\b", lambda m: m.group(0).lower(), t)  # "TV remote" -> "tv remote"
    t = t.lower() if t.isupper() else t
    # a capitalised imperative is often tagged a proper noun ("Put Noah's laundry on his bed" -> "Put" a
    # name): the first word of a command is a verb, and names are capitalised again by ``parse``
    first = re.match(r"[A-Z][a-z]+\b", t)
    if first and first.group(0).lower() in lx.COMMAND_VERBS:
        t = first.group(0).lower() + t[first.end():]
    return t.strip()  # a dropped word at either end leaves its space


# first words that make a short phrase something other than a thing ("go to bed", "come here", "yes please")
_NOT_A_THING = re.compile(r"^(?:go|come|get|move|walk|run|turn|head|back|yes|no|ok|okay|thanks|thank|hello|hi|hey|"
                          r"what|where|which|who|when|why|how|is|are|can|could|would|will|do|does|did|please|i|you|"
                          r"we|it|that|this|just|not|up|down|over|in|on|off|out)\b", re.I)


# Said to the plan service, words that name a thing and a place, or a person and a thing, ask for it to be done:
# "juice on shelf." is "put the juice on the shelf", "Ben needs the radio." is "bring the radio to Ben". Said as a
# question or on the utterance topic they are not requests (a statement there is something memory learns), so
# ``parser.rules_reading`` applies these only when the service expects a command.
_NP2 = r"((?:the\s+|my\s+|your\s+|our\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
_PLACE_PREP = r"(on|in|into|onto|under|inside|on\s+top\s+of|next\s+to|beside|by)"
_TO_PLACE_PREP = _PLACE_PREP.replace("(on|", "(on|to|", 1)  # ... and "to", where a verb of carrying follows
# each: the pattern, the number of its group that names the thing, and the request it says
_FOR_COMMANDS = (
    # "pear back to old spot.", "mug, back where it was": the thing, then "back", is put back
    (re.compile(r"^" + _NP2 + r"\s*[,.:;-]*\s+back(?:\s+(?:to|where|in|on|into|onto)\b[^.!?]*)?\s*[.!]*$", re.I), 1,
     lambda m: f"put {with_article(m.group(1))} back"),
    # "loo roll away.", "milk please put in its place": the thing, then "away" or its place, is put away
    (re.compile(r"^" + _NP2 + r"\s*[,.:;-]*\s+(?:please\s+)?(?:(?:put|go|goes)\s+)?(?:(?:it|them)\s+)?"
                r"(?:away|(?:in|back\s+in|to)\s+(?:its|their)\s+(?:proper\s+|usual\s+|own\s+)?(?:place|places|spot|home))"
                r"(?:\s+(?:please|pls|now))?\s*[.!]*$", re.I), 1,
     lambda m: f"put {with_article(m.group(1))} away"),
    # "glass. fetch.", "wine glass: bring": the thing, then the verb alone
    (re.compile(r"^" + _NP2 + r"\s*[.,:;!-]+\s*(fetch|bring|get|grab|find|open|close|shut)(?:\s+(?:it|them|please|pls|now))?\s*[.!]*$",
                re.I), 1,
     lambda m: f"{m.group(2).lower()} {with_article(m.group(1))}"),
    # "keyboard: take to the kitchen", "the mug - bring over to Ben": the thing, then a verb of carrying with no
    # thing of its own and where to (read alone, "take to the kitchen" is a walk there)
    (re.compile(r"^(?!(?:now|ok|okay|so|then|right|alright|well|please|robot|hey|and|but|yes|no|sure)\b)" + _NP2 +
                r"\s*[.,:;!-]+\s*(take|bring|carry|move|put|place|bring\s+back|take\s+back)\s+"
                r"(?:(?:over|down|up)\s+)?" + _TO_PLACE_PREP + r"\s+(.+?)\s*[.!]*$", re.I), 1,
     lambda m: f"{m.group(2).lower()} {with_article(m.group(1))} {m.group(3)} {m.group(4)}"),
    # "that vase would look lovely on the shelf", "the towels would be better in the cupboard": where it goes
    (re.compile(r"^(?:i\s+think\s+|honestly,?\s+)?(?:(?:that|this|those|these)\s+)?((?:(?:the|my|our)\s+)?[\w-]+(?:\s+[\w-]+){0,2}?)\s+"
                r"(?:would|'d|will)\s+"
                r"(?:look|go|fit|sit|be|do)\s+(?:(?:so\s+|much\s+|a\s+lot\s+|far\s+)?(?:better|lovely|nicer|nice|great|good|"
                r"best|grand|perfect)\s+)?(?:up\s+|down\s+|over\s+)?" + _PLACE_PREP + r"\s+((?:the|my|our|that|this|a|an)\s+[\w-]+"
                r"(?:\s+[\w-]+)?)\s*[.!]*$", re.I), 1,
     lambda m: f"put {with_article(m.group(1))} {m.group(2)} {m.group(3)}"),
    # "Anna could really use the glass", "I could do with my specs": bring it to them
    (re.compile(r"^(i|we|[A-Z][a-z]+)\s+could\s+(?:really\s+|sure\s+|just\s+)?(?:use|do\s+with)\s+((?:the|my|her|his|our|a|an|some)\s+"
                r"[\w-]+(?:\s+[\w-]+){0,2}?)(?:\s+(?:right\s+)?(?:about\s+)?now)?\s*[.!]*$"), 2,
     lambda m: f"bring {m.group(2)} to {'me' if m.group(1).lower() in ('i', 'we') else m.group(1)}"),
    # "juice on shelf.", "the radio on the desk, please", "remote - onto the bed": a thing and where it goes,
    # nothing else
    (re.compile(r"^" + _NP2 + r"\s*(?:\s|[-:]\s*)" + _PLACE_PREP + r"\s+" + _NP2 + r"\s*(?:,?\s*please)?\s*[.!]*$", re.I), 1,
     lambda m: f"put {with_article(m.group(1))} {m.group(2)} {with_article(m.group(3))}"),
    # "lime out of microwave.": the thing, then where to take it out of
    (re.compile(r"^" + _NP2 + r"\s+out\s+of\s+" + _NP2 + r"\s*[.!]*$", re.I), 1,
     lambda m: f"get {with_article(m.group(1))} out of {with_article(m.group(2))}"),
    # "the radio on the desk you put, please", "can you the keyboard into the kitchen bring?": the verb last
    (re.compile(r"^(?:(can|could|will|would)\s+you\s+)?" + _NP2 + r"\s+" + _TO_PLACE_PREP +
                r"\s+" + _NP2 + r"\s+(?:you\s+)?(put|bring|take|carry|place|set|move|leave)\s*(?:,?\s*please)?\s*([.!?]*)$",
                re.I), 2,
     lambda m: f"{m.group(1) + ' you ' if m.group(1) else ''}{m.group(5)} {with_article(m.group(2))} {m.group(3)} "
               f"{with_article(m.group(4))}{m.group(6)}"),
    # "Ben needs the radio.", "Ben's been asking for the juice all day": bring it to that person
    (re.compile(r"^([A-Z][a-z]+)\s+(?:needs|wants|would\s+like|(?:has|'s)\s+been\s+asking\s+for|is\s+asking\s+for|"
                r"asked\s+for)\s+((?:the|his|her|a|an|some)\s+[\w-]+(?:\s+[\w-]+){0,2}?)(?:\s+all\s+(?:day|morning|"
                r"afternoon|evening|night))?\s*[.!]*$"), 2,
     lambda m: f"bring {m.group(2)} to {m.group(1)}"),
    # "the remote would be handy right now": the speaker needs it
    (re.compile(r"^((?:the|my)\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s+would\s+(?:be|come\s+in)\s+(?:really\s+|very\s+|so\s+)?"
                r"(?:handy|useful|helpful|nice|great|good)\b.*$", re.I), 1,
     lambda m: f"I need {m.group(1)}"),
    # "I'd like the juice on my bedside table where I can reach it": where it goes, said with why (without the
    # why, "I'd like the book on the shelf" is as often the book that is on the shelf)
    (re.compile(r"^(?:i'd|i\s+would|i'll|i\s+will)\s+(?:like|want|need)\s+((?:the|my)\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s+"
                + _PLACE_PREP + r"\s+((?:the|my)\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:for\s+when|where|so\s+(?:that\s+)?i|"
                r"when|for\s+(?:later|tonight|the\s+morning))\b.*$", re.I), 1,
     lambda m: f"put {m.group(1)} {m.group(2)} {m.group(3)}"),
)


# "I'm worried I left the fridge open", "I've a feeling somebody left the oven on": a worry about a state is, asked,
# whether it is so, and, said to the plan service, to set it right where the robot can (close what is open)
_LEFT_IN_STATE = re.compile(r"^(?:(?:i'm|i\s+am|i've\s+got|i've|i\s+have|i\s+get)\s+(?:a\s+(?:nagging\s+|funny\s+|sneaking\s+)?"
                            r"(?:feeling|hunch|suspicion)|(?:a\s+bit\s+|really\s+|so\s+)?(?:worried|afraid|scared|concerned|"
                            r"sure|convinced|nervous))|i\s+(?:think|reckon|believe|guess|suspect|bet))\s+(?:that\s+)?"
                            r"(?:i|someone|somebody|we|you|he|she|they|[A-Z][a-z]+)(?:'s|\s+has|\s+have|'ve)?\s+"
                            r"(?:might\s+have\s+|may\s+have\s+|must\s+have\s+)?left\s+((?:the|my|our)\s+[\w-]+(?:\s+[\w-]+)?)\s+"
                            r"(open|on|unlocked|running)\b[^?]*\??\s*$", re.I)
# "I'm worried the oven is on": asked, whether it is
_WORRIED_STATE = re.compile(r"^(?:i'm|i\s+am)\s+(?:a\s+bit\s+|really\s+|so\s+)?(?:worried|afraid|concerned|not\s+sure|unsure)\s+"
                            r"(?:that\s+|whether\s+|if\s+)?((?:the|my|our)\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:is|was)\s+(?:still\s+|left\s+)?"
                            r"(open|on|unlocked|running|closed|shut|off|locked)\b[^?]*\??\s*$", re.I)


# "I been looking all over for the book", "I've been searching everywhere for my keys": asked, where it is
_BEEN_LOOKING = re.compile(r"^(?:i'?ve|i\s+have|i|we'?ve|we\s+have|we)?\s*been\s+(?:looking|searching|hunting)\s+"
                           r"(?:all\s+over(?:\s+the\s+(?:house|place))?\s+|everywhere\s+|high\s+and\s+low\s+|all\s+day\s+)?"
                           r"for\s+(?=(?:the|my|our|your|his|her|a|an|that|this)\b)", re.I)


# "I need to sit down", "I want to wash my hands", asked: where the speaker can
# "where is for sleeping?", "where is good for sitting": a learner's "where can I sleep?"
_WHERE_FOR_ING = re.compile(r"\bwhere\s+(?:is|are)\s+(?:good\s+|ok\s+|okay\s+|best\s+)?for\s+([a-z]{3,}ing)\b", re.I)


def _base_verb(gerund: str) -> str:
    """"sleeping" -> "sleep", "sitting" -> "sit", "writing" -> "write": the verb a WordNet lemma names."""
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return (wn.verb_base(gerund) if wn is not None else "") or gerund.lower()[:-3]


_NEED_TO = re.compile(r"^(?:i|we)\s+(?:really\s+|just\s+)?(?:need|want|'d\s+like|would\s+like|have)\s+to\s+(sit\s+down|sit|"
                      r"lie\s+down|sleep|rest|have\s+a\s+(?:nap|rest|sit)|nap|wash\s+my\s+hands|wash\s+up|cook(?:\s+something)?)"
                      r"\b[^?]*[.!]*$", re.I)


# keyword strings of people used to smart speakers, once the address is gone ("robot, microwave contents")
_KW_NP = r"((?:the\s+|my\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
_KW_QUESTIONS = (
    (re.compile(r"^" + _KW_NP + r"\s*,?\s+(colou?r)\s*\??\s*$", re.I), lambda m: f"what {m.group(2)} is {with_article(m.group(1))}?"),
    (re.compile(r"^" + _KW_NP + r"\s*,?\s+contents\s*\??\s*$", re.I), lambda m: f"what is in {with_article(m.group(1))}?"),
    (re.compile(r"^" + _KW_NP + r"\s*,\s*do\s+we\s+have\s+any\s*\??\s*$", re.I), lambda m: f"do we have any {m.group(1)}?"),
    # "microwave, open?", "the fridge, it closed?", "the cupboard, is it locked or not?"
    (re.compile(r"^" + _KW_NP + r"\s*,\s*(?:(?:it|it's|it\s+is|is\s+it|it\s+be)\s+)?(open|closed|shut|locked|unlocked|on|off|empty|full)"
                r"(?:\s+or\s+not)?\s*\??\s*$", re.I),
     lambda m: f"is {with_article(m.group(1))} {m.group(2)}?"),
    (re.compile(r"^count\s+" + _KW_NP + r"\s*,\s*(?:in\s+)?(?:the\s+)?(" + lx.ROOMS_RE + r")\s*\??\s*$", re.I),
     lambda m: f"how many {m.group(1)} are there in the {m.group(2)}?"),
)
_KW_COMMANDS = (
    (re.compile(r"^" + _KW_NP + r"\s*,\s*from\s+" + _KW_NP + r"\s*,\s*to\s+me(?:\s*,?\s*(?:now|asap|please|quick(?:ly)?))*\s*[.!]*$",
                re.I), lambda m: f"bring me {with_article(m.group(1))} from {with_article(m.group(2))}"),
    (re.compile(r"^" + _KW_NP + r"\s*,\s*(?:to|over\s+to)\s+me(?:\s*,?\s*(?:now|asap|please|quick(?:ly)?))*\s*[.!]*$", re.I),
     lambda m: f"bring me {with_article(m.group(1))}"),
    (re.compile(r"^" + _KW_NP + r"\s*,\s*(on|in|into|onto)\s+" + _KW_NP + r"(?:\s*[,.!]?\s*(?:now|asap|please))*\s*[.!]*$", re.I),
     lambda m: f"put {with_article(m.group(1))} {m.group(2)} {with_article(m.group(3))}"),
    (re.compile(r"^" + _KW_NP + r"\s+to\s+(?:the\s+)?(" + lx.ROOMS_RE + r")\s*,?\s*(?:now|asap|please)\s*[.!]*$", re.I),
     lambda m: f"take {with_article(m.group(1))} to the {m.group(2)}"),
)


def _keywords(text: str, forms: tuple) -> str:
    said = text.strip()
    for pattern, repl in forms:
        m = pattern.match(said)
        if m and not _not_a_thing(m.group(1)):
            return pattern.sub(repl, said)
    return text


# "where can food be cooked?", "where should wet towels be hung?": where can I do it to the thing
_WHERE_PASSIVE = re.compile(r"^where\s+(?:can|could|should|do|does|might|may|would)\s+((?:[\w'-]+\s+){0,3}?[\w'-]+)\s+be\s+"
                            r"([a-z]+(?:ed|en|ung|ept|ut|ght))\b(.*)$", re.I)
# "is there anywhere a person could sleep?": anyone at all is the speaker asking for themselves
_ANYONE_COULD = re.compile(r"^((?:is|are)\s+there\s+(?:any|some)where\b[^?]*?)\b(?:a\s+person|someone|somebody|one|"
                           r"people|anyone|anybody|a\s+guest|guests)\s+(could|can|might|may)\b", re.I)
# "where can a person wash their hands", "where's a fella supposed to sleep", "where could I maybe sit": anyone
# at all, asked by the speaker, is the speaker; a hedge between is no part of the use
_WHERE_ANYONE = re.compile(r"^where(?:\s+(can|could|should|might|may|would|do|does)|\s+(is)|('s))\s+(?:a\s+(?:person|body|man|woman|"
                           r"fella|fellow|guy|girl|lad|lass|gal|chap|soul|guest)|someone|somebody|anyone|anybody|one|people|"
                           r"folks?)\s+(?:supposed\s+to\s+|meant\s+to\s+)?(?:maybe\s+|possibly\s+|perhaps\s+|just\s+)?"
                           r"(?=[a-z])", re.I)
# "somewhere to sleep?", "any place to sit down?", "the place for washing hands": where one can do it
_SOMEWHERE_TO = re.compile(r"^(?:(?:is\s+there\s+)?(?:somewhere|anywhere|some\s*place|any\s*place|a\s+place|a\s+spot)\s+"
                           r"(?:(?:i|we)\s+(?:can|could)\s+|to\s+)|where\s+is\s+the\s+place\s+(?:for|to)\s+)([a-z]+)\b", re.I)
# "where can I cook something, I'm starving": the thing to do said outright is what is asked; the need says why
_DO_THEN_NEED = re.compile(r"^(where\s+(?:can|could|should)\s+(?:i|we)\s+(?!get\b|find\b|grab\b|have\b|buy\b)[a-z]+\b"
                           r"[^,.;!?]*?)\s*[,.;!-]+\s*(?:(?:cause|because|as|since)\s+)?(?:i'm|i\s+am|we're|we\s+are)\s+"
                           r"[^?]*?(\?*)\s*$", re.I)


# "which one is the mug on the desk?", "the mug on the desk is which one?": which mug is on the desk
_WHICH_IS_THE = re.compile(r"^(?:which(?:\s+one)?\s+is\s+(?:the|a)\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+({preps})\s+(.+?)\s*\?*\s*$"
                           r"|(?:the|a)\s+((?:[\w-]+\s+){{0,2}}?[\w-]+)\s+({preps})\s+(.+?)\s+is\s+which(?:\s+one)?\s*\?*\s*$)"
                           .replace("{preps}", r"on|in|inside|under|next\s+to|near|by|beside|behind|on\s+top\s+of")
                           .replace("{{0,2}}", "{0,2}"), re.I)
# "the milk has a proper place, where is that?": where it goes
_HAS_A_PLACE = re.compile(r"^(?:[\w']+\s+(?:says|said|thinks|reckons)\s+)?((?:the|my|your|our|his|her)\s+(?:[\w-]+\s+){0,2}?[\w-]+)"
                          r"\s+has\s+(?:a|an|its)\s+(?:own\s+|proper\s+|usual\s+|right\s+|special\s+|set\s+|fixed\s+|regular\s+)*"
                          r"(?:place|spot|home)\b[^?]*?[,.;]?\s*(?:so\s+)?where(?:'s|\s+is)\s+(?:that|it)\s*\?*\s*$", re.I)
# "earlier the mug was kept where?": where it was before, not where it goes
_EARLIER_WHERE = re.compile(r"^(?:earlier|before|previously|at\s+first|first)\s*,?\s+((?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?"
                            r"[\w-]+)\s+(?:was|were)\s+(?:kept\s+|left\s+|put\s+|sitting\s+|lying\s+)?where\s*\?*\s*$", re.I)


# questions said as instructions to report ("Identify the room in which the pear is located.", "List all items on
# the coffee table.", "Of the plates in the home, identify the one next to the sink."): the question each asks
# ("specify the colour of X" is ``_TELL_NOUN``'s, with the other question nouns)
_PLEASE = r"^(?:please\s+|kindly\s+|robot\s*,\s*)?"
_REPORT = r"(?:specify|state|identify|tell\s+me|report|give\s+me|indicate|name|determine|say)"
_ROOM_IN_WHICH = re.compile(_PLEASE + _REPORT + r"\s+(?:the\s+)?room\s+(?:in\s+which|where|that)\s+(.+?)\s+(?:is|are)"
                      r"(?:\s+(?:located|situated|kept|found|in))?\s*[.?!]*$", re.I)
_LIST_ON = re.compile(_PLEASE + r"(?:list|enumerate|name|identify|tell\s+me|report)\s+(?:all\s+|every\s+|any\s+)?(?:of\s+)?"
                      r"(?:the\s+)?(?:items|things|objects|contents|stuff)\s+(?:that\s+(?:are|is)\s+)?(?:located\s+|sitting\s+|kept\s+"
                      r"|situated\s+|lying\s+)?(on|in|inside|under)\s+(.+?)\s*[.?!]*$", re.I)
_PREVIOUS_PLACE = re.compile(_PLEASE + r"(?:request|give\s+me|tell\s+me|state|report|what\s+(?:is|was)|query\s*:?)?\s*(?:the\s+)?"
                             r"(?:previous|former|prior|earlier|old)\s+(?:location|place|position|spot)\s+of\s+"
                             r"((?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)\b[^?]*?\??\s*$", re.I)
_ONE_OF = re.compile(r"^(?:of|out\s+of|among|from)\s+(?:all\s+)?the\s+([\w-]+(?:\s+[\w-]+)?)\s*(?:in\s+the\s+(?:home|house|flat))?"
                     r"\s*,\s*(?:please\s+)?(?:identify|tell\s+me|name|specify|indicate|find)\s+the\s+one\s+(.+?)\s*[.?!]*$", re.I)


def _question_order(text: str) -> str:
    """Questions said with their parts in another order than the parser reads (see the patterns above)."""
    t = text.strip()
    for pattern, make in ((_ROOM_IN_WHICH, lambda m: f"which room is {m.group(1)} in?"),
                          (_LIST_ON, lambda m: f"what is {m.group(1)} {m.group(2)}?"),
                          (_PREVIOUS_PLACE, lambda m: f"where was {m.group(1)} before?"),
                          (_ONE_OF, lambda m: f"which {singular(m.group(1).split()[-1]) if len(m.group(1).split()) == 1 else m.group(1)} is "
                                              f"{m.group(2)}?")):
        m = pattern.match(t)
        if m is not None:
            return make(m)
    m = _WHICH_IS_THE.match(t)
    if m is not None:
        thing, prep, place = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5), m.group(6))
        return f"which {thing} is {prep} {place}?"
    m = _HAS_A_PLACE.match(t)
    if m is not None:
        return f"where does {m.group(1)} go?"
    m = _EARLIER_WHERE.match(t)
    if m is not None:
        return f"where was {m.group(1)} before?"
    return text


def _where_anyone(text: str) -> str:
    """"where can a person wash their hands around here, I guess?" -> "where can I wash their hands?"."""
    def one(m: re.Match) -> str:
        if m.group(1) is None and not re.search(r"(?:supposed|meant)\s+to\s+", m.group(0), re.I):
            return m.group(0)  # "where is one of the mugs": a thing, not a person
        return f"where {_DO_I.get((m.group(1) or 'is').lower(), m.group(1) or 'can')} I "

    text = _WHERE_ANYONE.sub(one, text.strip())
    text = _SOMEWHERE_TO.sub(lambda m: "where can I " + (_base_verb(m.group(1)) if m.group(1).lower().endswith("ing")
                                                         else m.group(1)), text)
    if text.lower().startswith("where "):
        text = _HERE_HEDGE.sub("", text)
    return text


_DO_I = {"does": "do", "is": "can"}  # "where does one put it" -> "where do I put it"; "where's a fella to sleep"
# said after where to do something: "around here", "in this place", ", I guess"
_HERE_HEDGE = re.compile(r"(?:\s+(?:a)?round\s+here|\s+in\s+(?:this|the)\s+(?:place|house|home|flat|apartment))?"
                         r"(?:\s*,\s*(?:i\s+guess|i\s+suppose|i\s+wonder|do\s+you\s+think))?(?=\s*[?.!]*\s*$)", re.I)


def _where_can_i(text: str) -> str:
    m = _WHERE_PASSIVE.match(text.strip())
    if m is not None:
        verb = _base_verb(m.group(2))
        if verb and verb != m.group(2).lower()[:-3]:
            return f"where can I {verb} {m.group(1)}{m.group(3)}"
    m = _DO_THEN_NEED.match(text.strip())
    if m is not None:
        return f"{m.group(1)}{m.group(2) or '?'}"
    text = _ANYONE_COULD.sub(r"\1I \2", text)
    # "anywhere in this place": the home is where every answer is
    return re.sub(r"\b((?:any|some)where)\s+(?:in\s+(?:this|the)\s+(?:place|house|home|flat|apartment)|around\s+here)\b",
                  r"\1", text, flags=re.I)


def normalise_question(text: str) -> str:
    """``normalise``'s text, read as asked on the question service."""
    text = _question_order(_where_can_i(_keywords(_where_anyone(text), _KW_QUESTIONS)))
    m = _LEFT_IN_STATE.match(text.strip())
    if m is None:
        m = _WORRIED_STATE.match(text.strip())
    if m is not None:
        return f"is {m.group(1)} {m.group(2).lower()}?"
    m = _NEED_TO.match(text.strip())
    if m is not None:
        return f"where can I {m.group(1).lower()}?"
    text = _WHERE_FOR_ING.sub(lambda m: f"where can I {_base_verb(m.group(1))}", text)
    return _BEEN_LOOKING.sub("where is ", text.strip())


# "Locate magazine. Go.", "juice on the table. now!": a word that only urges the request on
_URGE_AFTER = re.compile(r"^(.+?)\s*[.!,]+\s*(?:go|now|quick|quickly|go\s+go|chop\s+chop|hurry(?:\s+up)?|asap|move(?:\s+it)?|"
                         r"pronto|stat|on\s+the\s+double|double\s+time|snap\s+to\s+it|hop\s+to\s+it|get\s+moving)"
                         r"\s*[.!]*$", re.I)


_NOT_JUST = re.compile(r"^not\s+(?:just|only)\s+([^,]{2,60}?)\s*,\s*(.+?)\s+(?:as\s+well|too|also)\s*([.!]*)$", re.I)
_PUT_VERB = re.compile(r"\b(?:put|place|set|move)\b[^,]*\b(?:in|into|on|onto|inside)\b", re.I)
_BACK_IN = re.compile(r",\s*(?:and\s+)?(?:then\s+)?back\s+(in|into|on|onto|inside)\s+(?=(?:the|a|an|my|your|its)\b)", re.I)


# "... Any idea where it is?": after a remark, the question itself
_ANY_IDEA = re.compile(r"(?<=[.!?]\s)any\s+ideas?\s*,?\s+(?=(?:where|what|which|when|who|how)\b)", re.I)


def _reordered_question(text: str) -> str | None:
    """"Where belongs the milk?" (the verb before its subject, as several languages order it) is "where does the
    milk belong?"; "wardrobe can open or not?" is "can the wardrobe be opened?"."""
    m = _WHERE_BELONGS.match(text.strip())
    if m is not None:
        return f"where does {m.group(2)} {_BELONG_BASE.get(m.group(1).lower(), 'belong')}?"
    m = _CAN_OR_NOT.match(text.strip())
    if m is not None:
        return f"can {with_article(m.group(1))} be {_PARTICIPLE.get(m.group(2).lower(), 'used')}?"
    return None


_WHERE_BELONGS = re.compile(r"^where\s+(belongs?|goes|go|lives?)\s+((?:the|my|your|our|his|her|their|this|that|a|an)\s+"
                            r"[a-z][a-z ]{1,40}?)\s*[?.!]*$", re.I)
_BELONG_BASE = {"belongs": "belong", "belong": "belong", "goes": "go", "go": "go", "lives": "live", "live": "live"}
_CAN_OR_NOT = re.compile(r"^(?:the\s+)?([a-z][a-z ]{1,40}?)\s+can\s+(open|close|shut|use|unlock|lock)\s*,?\s+or\s+(?:not|no|nah|cannot|can'?t)"
                         r"\s*[?.!]*$", re.I)
_PARTICIPLE = {"open": "opened", "close": "closed", "shut": "shut", "use": "used", "unlock": "unlocked",
               "lock": "locked"}


# a command said in the passive ("the radio is to be brought to me", "the mug needs to be put in the sink", "could
# the pear be taken to Ben?"): the thing, then a modal of obligation or a request, then the task verb's participle
_PASSIVE_COMMAND = re.compile(
    r"^(?:(?:could|can|would|will)\s+)?((?:the|my|your|our|his|her|their|this|that|these|those|both|all)\s+[^,.!?]{1,48}?)\s+"
    r"(?:(?:is|are)\s+to\s+be|(?:should|must|could|can|would|will|shall)\s+be|(?:needs?|has|have|ought|got)\s+to\s+be|be)"
    r"\s+([a-z]+)\b(.*)$", re.I)
_PARTICIPLES = {"brought": "bring", "taken": "take", "given": "give", "got": "get", "gotten": "get", "kept": "keep",
                "left": "leave", "hung": "hang", "laid": "lay", "thrown": "throw", "put": "put", "set": "set",
                "shut": "shut", "handed": "hand", "held": "hold"}


def _task_verb(participle: str) -> str | None:
    """The task verb a passive participle is of ("brought" -> bring, "carried" -> carry), by WordNet's
    morphology (the table where it is missing); None for a verb that names no task."""
    w = participle.lower()
    base = _PARTICIPLES.get(w) or _base_verb(w) if w.endswith(("ed", "en", "ght", "t")) or w in _PARTICIPLES else ""
    return base if base in lx.COMMAND_VERBS else None


def _active(text: str) -> str:
    """A passive command said as the active one ("the radio is to be brought to me" -> "bring the radio to me")."""
    m = _PASSIVE_COMMAND.match(text.strip())
    if m is None:
        return text
    verb = _task_verb(m.group(2))
    if verb is None or verb in ("go", "come", "look", "check", "leave", "keep", "set"):
        return text  # "the mug should be left where it is" asks for nothing to be done
    return f"{verb} {m.group(1)}{m.group(3)}"


# "Anna wants you over by the bed": go there; "make the microwave open": open it; "return the milk to its designated
# storage place": put it away where it belongs
# "the juice help me put in the kitchen" (Chinese "帮我", "help me" = for me): the task on the thing said first
_HELP_ME = re.compile(r"^((?:the|my|your|our|this|that)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s*,?\s+help\s+me\s+"
                      r"(put|take|bring|get|move|carry|throw|open|close)\s+(?:it\s+)?(.*)$", re.I)
_WANTS_YOU_AT = re.compile(r"^(?:[\w']+\s+)?(?:wants|needs|would\s+like)\s+you\s+(?:to\s+(?:go|come|be)\s+)?(?:over\s+)?"
                           r"(by|at|in|to|near|next\s+to|beside)\s+(.+)$", re.I)
_MAKE_STATE = re.compile(r"^(?:please\s+)?(?:make|get)\s+((?:the|my|your|our|that|this)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
                         r"(open|opened|closed|shut)\b(.*)$", re.I)
_TO_ITS_PLACE = re.compile(r"\b(?:return|put|take|bring|move)\s+((?:the|my|your|our|this|that)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
                           r"(?:back\s+)?to\s+(?:its|their)\s+(?:(?:designated|storage|assigned|proper|rightful|allotted)\s+)+"
                           r"(?:storage\s+)?(?:place|spot|home|location|position|area)\b", re.I)


def _said_otherwise(text: str) -> str:
    t = text.strip()
    m = _HELP_ME.match(t)
    if m is not None:
        return f"{m.group(2)} {m.group(1)} {m.group(3)}".strip()
    m = _WANTS_YOU_AT.match(t)
    if m is not None:
        return f"go {m.group(1)} {m.group(2)}"
    m = _MAKE_STATE.match(t)
    if m is not None:
        return f"{'open' if m.group(2).lower().startswith('open') else 'close'} {m.group(1)}{m.group(3)}"
    return _TO_ITS_PLACE.sub(lambda m: f"put {m.group(1)} away", t) if _TO_ITS_PLACE.search(t) else text


def normalise_command(text: str) -> str:
    """``normalise``'s text, read as said to the plan service (``_FOR_COMMANDS``)."""
    text = _said_otherwise(_active(_keywords(text, _KW_COMMANDS)))
    m = _URGE_AFTER.match(text.strip())
    if m is not None:
        rest = m.group(1)
        first = (re.findall(r"[A-Za-z']+", rest)[:1] or [""])[0].lower()
        if first in lx.COMMAND_VERBS or any(p.match(rest) for p, _, _ in _FOR_COMMANDS):
            text = rest + "."
    m = _NOT_JUST.match(text.strip())
    if m is not None and m.group(2).split()[0].lower() in lx.COMMAND_VERBS:
        # "not just the remote, bring me the toilet paper as well": both
        text = f"{m.group(2)} and {with_article(m.group(1))}{m.group(3)}"
    if _PUT_VERB.search(text):
        # "take the radio out of the microwave, put it in the fridge, back in the microwave": where it goes next,
        # said without its verb
        text = _BACK_IN.sub(lambda m: f", put it back {m.group(1)} ", text)
    m = _LEFT_IN_STATE.match(text.strip())
    if m is not None and m.group(2).lower() == "open":
        return f"close {m.group(1)}"
    placed = _thing_then_place(text.strip())
    if placed:
        return placed
    for pattern, thing, repl in _FOR_COMMANDS:
        m = pattern.match(text.strip())
        # "the one in the cabinet" is a reply that tells a thing apart, not a thing to put
        if m is not None and not _not_a_thing(m.group(thing)) and not re.search(r"\b(?:one|ones|other)\s*$",
                                                                                m.group(thing), re.I):
            return repl(m)
    return text


# "radio. table.", "cup, sink": a thing, then a piece of furniture or a container, and nothing else
_TWO_NAMES = re.compile(r"^" + _SHORT_NP + r"\s*[.,;:]\s*" + _SHORT_NP + r"\s*[.!]*$", re.I)


def _pair_to(m: re.Match) -> str:
    """``_PAIR_TO``: "radio and loo roll to me" -> "bring the radio and the loo roll to me"; as said when either
    part is no thing's name: a verb ("loot the toy and bring it to me"), or an article or pronoun inside a part
    (the second part's own leading "the" / "my" aside)."""
    first, second, whom = m.groups()
    second_rest = re.sub(r"^(?:the|my)\s+", "", second, flags=re.I)
    if any(_not_a_thing(part) or part.split()[0].lower() in lx.COMMAND_VERBS for part in (first, second)) or \
            re.search(r"\s(?:the|my|a|an|it|them)\b", f"{first} {second_rest}", re.I):
        return m.group(0)
    return f"bring {with_article(first)} and {with_article(second)} to {whom}"


def _thing_then_place(text: str) -> str:
    """"radio. table." -> "put the radio on the table": a terse command naming a thing and then what WordNet
    calls furniture, a container or an appliance (neither a room nor a person) puts it there; "" otherwise."""
    m = _TWO_NAMES.match(text)
    if m is None or _not_a_thing(m.group(1)) or _not_a_thing(m.group(2)):
        return ""
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    thing, place = m.group(1), m.group(2)
    last = place.split()[-1].lower()
    if wn is None or last in lx.ROOM_WORDS or wn.is_kind(last, "room", max_distance=2):
        return ""
    inside = any(wn.is_kind(last, k, max_distance=6) for k in ("container", "appliance"))
    surface = any(wn.is_kind(last, k, max_distance=6) for k in ("furniture", "shelf", "counter"))
    portable = [wn.is_kind(thing.split()[-1].lower(), k, max_distance=6) for k in ("furniture", "appliance")]
    if not (inside or surface) or any(portable):
        return ""
    return f"put {with_article(thing)} {'in' if inside and not surface else 'on'} {with_article(place)}"


def _not_a_thing(phrase: str) -> bool:
    """A short phrase with a verb or a pronoun in it ("k bring it") is no thing's name; a verb last after a noun
    is a compound's head ("the tv stand", "the coat hanger"), not a command."""
    words = phrase.lower().split()
    nouns = words[1:] if words and words[0] in ("the", "my", "your", "our", "his", "her", "their", "a", "an") else words
    if words and words[0] in ("please", "pls", "plz", "kindly", "just", "now", "then", "so", "ok", "okay", "and"):
        return True  # "please go in the bedroom": a request's opening, not a thing to put there
    if any(w in ("the", "a", "an", "my", "your", "our") for w in words[1:]):
        return True  # "Secure the fridge. Close it.": a clause of its own, not one thing's name
    return any(w in ("it", "them", "me", "you", "us", "this", "that", "there", "is", "are") for w in words) or any(
        w in lx.COMMAND_VERBS for w in (nouns[:-1] if len(nouns) > 1 and nouns[0] not in lx.COMMAND_VERBS else nouns))


def _verb_now(verb: str) -> str:
    """"found" -> "find", "checked" -> "check", "fetch" as it is: a past tense said of a wished-for act."""
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    bases = wn.verb_bases(verb) if wn is not None else ()
    return next((b for b in bases if b != verb.lower()), bases[0] if bases else verb)

