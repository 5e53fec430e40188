"""What speech and typing do to a request before anyone reads it: words a dictation engine heard as their
homophones, punctuation said aloud, words shouted in capitals, typing slips ("brign me teh mug"), and self-repairs
where the speaker stops, says an editing term ("no", "sorry", "scratch that") and starts the phrase again.

Typing slips are corrected by pyspellchecker's English word-frequency list (MIT), not by a table: only a word
neither it nor WordNet knows is changed, a swap of two neighbouring letters first ("teh", "tkae"), and any
single edit only for words of six letters or more, and only into a common word, so short words, names, dialect
spellings and labels stay as typed.

Each fix is a construction of spoken English, not a list of sentences: a homophone is replaced only where its
neighbours leave one reading ("were is" can only be "where is", "four me" only "for me"), so a word used in its
own sense is left alone. Self-repairs follow the usual account of them (Levelt 1983): what is said after the
editing term replaces the stretch before it that starts with the same word ("take the radio to — scratch that,
to Ben" -> "take the radio to Ben"), or the whole phrase when the speaker starts it again from its first word.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from . import lexicon as lx

# ---- dictation: homophones in a context where only one of them can be meant --------------------------------

_WH_AFTER = r"(?=\s+(?:is|are|was|were|did|do|does|can|could|should|would|will|has|have|had|abouts|'s)\b)"
_HOMOPHONES: tuple[tuple[re.Pattern[str], Any], ...] = (
    # spelled as said ("wer is the keyboard", "wat culler is it", "were dose the milk go", "cloze the fridge pleez")
    # (the words spelled so in any place are in ``_SHORTHAND``; these only where their neighbours say what is meant)
    (re.compile(r"(^|[.!?,;:/]\s*)(?:wer|wher|whe)(?=\s+(?:is|are|was|were|did|do|does|dose|dus|have|has|can|'s)\b)", re.I),
     r"\1where"),
    (re.compile(r"\b(where|what|how|when|which|were|wer)\s+(?:dose|dus|duz)\b", re.I),
     lambda m: ("where" if m.group(1).lower() in ("were", "wer") else m.group(1)) + " does"),
    (re.compile(r"\b(can't|cant|cannot|can\s+not|couldn't|to)\s+fined\b", re.I), r"\1 find"),
    (re.compile(r"\b(?:sumthin|somethin)'(?![\w'])", re.I), "something"),  # (the apostrophe too: "something'" read as no word)
    (re.compile(r"(^|[.!?,;:/]\s*)(?:cloze|kloze)\b", re.I), r"\1close"),
    (re.compile(r"\bware\s+(?=is\b|are\b|did\b)", re.I), "where "),
    # "were is the radio", "wear did I leave it", "ware are my keys": a question word before an auxiliary
    (re.compile(r"(^|[.!?,;:]\s|\b(?:so|and|but|ok|okay|then|now)\s)(?:were|wear|ware|we're)" + _WH_AFTER, re.I),
     r"\1where"),
    (re.compile(r"\b(you|i|we|they|he|she)\s+(?:no|now)\s+(?=(?:where|whether|if|what|when|which|how|who)\b)", re.I),
     r"\1 know "),
    # "is their a", "are their any", "their is": "there" before or after the verb of being
    (re.compile(r"\b(is|are|was|were|isn't|aren't)\s+(?:their|they're)\b(?!\s+(?:own|own's)\b)"
                r"(?=\s+(?:a|an|any|some|no|more|still|the|two|three|many)\b)", re.I), r"\1 there"),
    (re.compile(r"(^|[.!?,;:]\s)(?:their|they're)(?=\s+(?:is|are|was|were|isn't|aren't)\b)", re.I), r"\1there"),
    # "over their", "wait their", "put it their": "there" at the end of a clause
    (re.compile(r"\b(over|in|out|up|down|right|wait|stay|it|them|from|go)\s+(?:their|they're)(?=\s*(?:[.!?,;]|$|please\b|"
                r"for\b|until\b|and\b|then\b))", re.I), r"\1 there"),
    # "bring it hear", "come hear please": "here" where nothing can be heard
    (re.compile(r"(?<!\byou\s)(?<!\bi\s)(?<!\bcan\s)(?<!\bto\s)(?<!\bwe\s)(?<!\bthey\s)(?<!\bnot\s)(?<!\bdidn't\s)"
                r"(?<!\bcan't\s)\bhear(?=\s*(?:[.!?,;]|$|please\b|now\b|quick|asap\b|to\s+me\b|for\s+me\b|with\s+me\b))",
     re.I), "here"),
    (re.compile(r"\b(from|over|in|out|up|down|near)\s+hear\b", re.I), r"\1 here"),  # "I can't see it from hear"
    (re.compile(r"\b(can't|cannot|can|couldn't|could|didn't|to|I)\s+sea\b", re.I), r"\1 see"),
    (re.compile(r"\bfour\s+(?=(?:me|you|him|her|us|them|my|your|our)\b)", re.I), "for "),
    (re.compile(r"\b(?:too|two)\s+(?=(?:the|my|your|our|his|her|me|him|us|them)\b|[A-Z][a-z]+\b)"), "to "),
    (re.compile(r"\b(?:Too|Two)\s+(?=(?:the|my|your|our|me)\b)"), "To "),
    (re.compile(r"\bwood\s+(?=(?:you|it|that)\b)", re.I), "would "),
    (re.compile(r"\bwrite\s+(?=(?:now|away|here|there|next\s+to|beside|by|behind|in\s+front)\b)", re.I), "right "),
    (re.compile(r"\b(the|that|this|which|each|every|other|a|no)\s+won\b", re.I), r"\1 one"),
    (re.compile(r"\bwitch\s+(?=(?:one|ones|is|are|room|of|was)\b)", re.I), "which "),
    (re.compile(r"\b(you|please|to|and|then|me|just)\s+clothes\s+(?=(?:it|them|the|that|this|my|your)\b)", re.I),
     r"\1 close "),
    (re.compile(r"\b(go|please|you|me|to|and|then|help|can't|cannot|couldn't)\s+fine\s+(?=(?:the|my|your|a|an|it|them|out|"
                r"where)\b)", re.I), r"\1 find "),
    (re.compile(r"\b(and|please|then|just|to|can)\s+(?:weight|wade)\b(?=\s+(?:there|their|here|hear|for|a|until|till)\b|"
                r"\s*[.!?,]|$)", re.I), r"\1 wait"),
    (re.compile(r"(?<!\bthe\s)(?<!\bany\s)\bweather\s+(?=(?:the|it|there|you|i|we|my|your|anyone|anybody|or)\b)", re.I), "whether "),
    (re.compile(r"\b(is|are|one|ones|sitting|standing|lying|right|just|over|it|them)\s+(?:buy|bye)\s+(?=the\b)", re.I),
     r"\1 by "),
    (re.compile(r"\b(right|just|close|nearby|stood|sitting|standing)\s+buy\b", re.I), r"\1 by"),  # "the one right buy it"
    # "pass be the glass": "be" for "me" after a verb of handing
    (re.compile(r"\b(pass|bring|give|hand|get|fetch|grab|show)\s+be\s+(?=(?:the|a|an|my|some|that|this|your)\b)", re.I),
     r"\1 me "),
    (re.compile(r"\bsome\s+one\b", re.I), "someone"),
    (re.compile(r"\bin\s+side\b", re.I), "inside"),
    # "the top draw": a drawer (British speech and dictation both write it so)
    (re.compile(r"\b(the|a|top|bottom|middle|left|right|kitchen|desk|cutlery|sock|my|your|that|this)\s+draw(s?)\b"
                r"(?!\s+(?:a|an|the|me|it|on|with|up)\b)", re.I), r"\1 drawer\2"),
)

# ---- typing ------------------------------------------------------------------------------------------------
# what chat writers leave out or shorten; each is a word no dictionary corrects
_SHORTHAND = {"pls": "please", "plz": "please", "pleez": "please", "thx": "thanks", "thnx": "thanks", "u": "you",
              "ur": "your", "im": "I'm", "ive": "I've", "dont": "don't", "cant": "can't", "wont": "won't",
              "didnt": "didn't", "doesnt": "doesn't", "isnt": "isn't", "arent": "aren't", "wasnt": "wasn't",
              "havent": "haven't", "hasnt": "hasn't", "wouldnt": "wouldn't", "couldnt": "couldn't", "whats": "what's",
              "wheres": "where's", "whos": "who's", "hows": "how's", "thats": "that's", "theres": "there's",
              "youre": "you're", "theyre": "they're", "hav": "have", "wat": "what", "wut": "what", "whr": "where",
              "b4": "before", "abt": "about", "smth": "something", "sth": "something",
              # spelled as said ("wat culler is it", "leeve it", "sumthing to wipe with", "bring it ovr")
              "wot": "what", "whut": "what", "wht": "what", "culler": "colour", "coler": "colour", "cullor": "colour",
              "colur": "colour", "leeve": "leave", "leve": "leave", "sumthing": "something", "sumthin": "something",
              "somethin": "something", "pleeze": "please", "plse": "please", "ovr": "over",
              # Caribbean, Scots and African-American speech, and a dropped letter, write "what" so ("wha colour")
              "wha": "what",
              # Caribbean English: "I cyah find it", "doh touch it"
              "cyah": "can't", "cyaan": "can't", "kyaan": "can't", "doh": "don't",
              # a typist's clipped words ("prev location of mug?", "nav to washer", "anyplace")
              "prev": "previous", "loc": "location", "nav": "navigate", "anyplace": "anywhere"}
# real words typed for others, where the neighbours leave one reading
_SLIPS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(look|looking|search|searching|wait|waiting|ask|asking)\s+fir\b", re.I), r"\1 for"),
    (re.compile(r"^pit\s+(?=(?:the|my|this|that|it|them|a)\b)", re.I), "put "),
    (re.compile(r"\b(is|it's|its|one's|ones)\s+mind\s*(?=\?|$|\.)", re.I), r"\1 mine"),
    (re.compile(r"\bwhich\s+([\w-]+)\s+is\s+mind\b", re.I), r"which \1 is mine"),
    (re.compile(r"\b(what|which)\s+coll?ar\b", re.I), r"\1 colour"),
    (re.compile(r"\bwen\s+(?=(?:you|u|i|we|it|he|she|they|did|was|is)\b)", re.I), "when "),
    (re.compile(r"\b(?:r|are)\s+(?:u|you)\b", re.I), "are you"),
    (re.compile(r"\b(is|are|was|were)\s+((?:the|my|your|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+looked\s*(?=\?|$)", re.I),
     r"\1 \2 locked"),
    (re.compile(r"\b(where|when|what|how|why)\s+dose\b", re.I), r"\1 does"),
    (re.compile(r"^its\s+(?=(?:the|my|your|our)\s)", re.I), "is "),
    (re.compile(r"^pt\s+(?=(?:the|my|it|this|that)\b)", re.I), "put "),
    (re.compile(r"\bfist\s+(?=(?:see|saw|seen|notice|noticed|spot|spotted|time)\b)", re.I), "first "),
    (re.compile(r"\bgot\s+(?:mooed|mived|moed|mvoed)\b", re.I), "got moved"),
)
_OPENING_WORDS = frozenset({"bring", "take", "put", "get", "give", "fetch", "grab", "place", "move", "open", "close",
                            "find", "go", "where", "what", "which", "when", "who", "how", "is", "are", "can", "could",
                            "would", "will", "have", "has", "did", "does", "do", "the", "please", "tell", "show"})
# a three-letter slip is read only as one of the short words people type most (else "tae", Scots "to", is "tea")
_SHORT_TARGETS = frozenset({"the", "and", "you", "can", "not", "for", "are", "was", "how", "who", "why", "any",
                            "get", "put", "its", "has", "had", "did", "one", "our", "out", "now", "off", "all",
                            "but", "see", "saw", "two", "too", "what"})
# a slip of up to five letters other than two swapped is read only as one of the words that carry a request's
# shape ("opin the microwave", "brin me the radio", "put it bak", "tak it awey"): a short thing's name typed
# wrong is the grounding's to read, and a word of these said wrong breaks the whole reading
_SHAPE_WORDS = _SHORT_TARGETS | _OPENING_WORDS | frozenset(lx.COMMAND_VERBS) | lx.WH_WORDS | frozenset({
    "away", "back", "here", "there", "over", "many", "much", "colour", "color", "inside", "under", "near", "next",
    "last", "first", "seen", "room", "with"})
_CLEAR_LEAD = 10  # ... and only where one such word is at least this much commoner than any other one edit away
_speller: object = None
_MOST_WORDS = 80  # words looked at per request: a request is short; a longer text keeps the rest as typed
_LONGEST = 20  # a longer "word" is no slip of a word (and its edits would cost ~50 lookups per letter)
_COMMON = 1000  # how often a word must occur in the frequency list to be taken as what a slip meant


def _spelling() -> object:
    """pyspellchecker's English list, loaded once; False when the package is missing (typing is then read as
    typed)."""
    global _speller
    if _speller is None:
        try:
            from spellchecker import SpellChecker
            _speller = SpellChecker(distance=1)
        except Exception:  # noqa: BLE001 - an optional reader: without it, words are read as typed
            _speller = False
    return _speller


def _shape_word(sp: Any, low: str) -> str | None:
    """The one word of ``_SHAPE_WORDS`` a short slip is one edit from ("opin" -> open, "awey" -> away), or
    None where none is, or two are and neither clearly commoner ("wer": we or were)."""
    near = sorted((w for w in sp.edit_distance_1(low) if w in _SHAPE_WORDS and w in sp), key=lambda w: -sp[w])
    if not near or len(near) > 1 and sp[near[0]] < _CLEAR_LEAD * sp[near[1]]:
        return None
    return near[0]


def _a_thing(word: str) -> bool:
    """WordNet lists the word as a thing a home keeps (an artifact or a food): "jar", "table", "cream"."""
    if not word:
        return False
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return wn is not None and wn.household(word.lower())


@lru_cache(maxsize=4096)
def _fix_word(word: str, first: bool, next_word: str = "") -> str:
    low = word.lower()
    if low in _SHORTHAND:
        fixed = _SHORTHAND[low]
        return fixed[:1].upper() + fixed[1:] if first and word[:1].isupper() else fixed
    sp = _spelling()
    if not sp or not 3 <= len(low) <= _LONGEST or not low.isalpha() or (word[:1].isupper() and not first) or \
            low in sp:
        return word
    from ..core.wordnet import default_wordnet
    wn = default_wordnet()
    if wn is not None and wn.is_word(low):
        return word  # a word WordNet lists (a thing's name the frequency list lacks)
    swaps = [low[:i] + low[i + 1] + low[i] + low[i + 2:] for i in range(len(low) - 1)]
    known = [w for w in swaps if w in sp and (len(low) > 3 or w in _SHORT_TARGETS)]
    # a word said before a thing's name ("kilner jar", "jandal strap") names its kind: a word the list lacks there is
    # a brand or a regional name more often than a slip ("kilner" is no "killer"), unless two letters swapped
    fixed = max(known, key=lambda w: sp[w]) if known else (
        sp.correction(low) if len(low) >= 6 and not _a_thing(next_word) else None)
    if (not fixed or fixed == low or sp[fixed] < _COMMON) and 4 <= len(low) <= 5 and not word[:1].isupper():
        fixed = _shape_word(sp, low) or fixed  # (not a capitalised word: "Brin, the mug" names someone)
    if not fixed or fixed == low or sp[fixed] < _COMMON:
        return word  # a rare word is likelier a word the list lacks ("hoodie", "deh") than a slip for it
    if wn is not None and wn.only_noun(fixed) and fixed not in lx.ROOM_WORDS:
        return word  # a thing's name typed unlike any word ("hoodies" is no slip for "goodies"): grounding reads it
    if first and word[:1].isupper():
        return fixed.capitalize() if fixed in _OPENING_WORDS else word  # a capital may start a name
    return fixed


def typing_fixes(text: str) -> str:
    """The text with chat shorthand spelled out, typing slips corrected and real words typed for others read as
    meant ("brign me teh mug pls" -> "bring me the mug please")."""
    out, read = [], 0
    for m in re.finditer(r"[A-Za-z][A-Za-z0-9']*|[^A-Za-z]+", text):
        piece = m.group(0)
        if piece[:1].isalpha() and "'" not in piece and read < _MOST_WORDS:
            read += 1
            before = text[:m.start()].rstrip()
            after = re.match(r"\s+([A-Za-z]+)", text[m.end():m.end() + 40])
            piece = _fix_word(piece, first=not before or before[-1] in ".!?",
                              next_word=after.group(1) if after is not None else "")
        out.append(piece)
    t = "".join(out)
    for pattern, repl in _SLIPS:
        t = pattern.sub(repl, t)
    return t


# ---- punctuation said aloud ---------------------------------------------------------------------------------
_SPOKEN_MARKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\s*\bquestion\s+mark\b\s*", re.I), "? "),
    (re.compile(r"\s*\bexclamation\s+(?:mark|point)\b\s*", re.I), "! "),
    (re.compile(r"(?<=[a-z])\s+comma\s+(?=[a-z])", re.I), ", "),
    (re.compile(r"(?<=[a-z])\s+comma\s*$", re.I), ""),  # "where was the mug before comma": dictated, then stopped
    (re.compile(r"(?<!\bthe)(?<!\ba)(?<!\bwhat)(?<!\bthis)(?<!\bthat)(?<!\bwhole)(?<!\blong)(?<!\bshort)"
                r"\s+(?:period|full\s+stop)(?=\s*$|\s+(?:new\s+(?:line|sentence|paragraph)\b|[A-Z]))", re.I), ". "),
    (re.compile(r"\s*\bnew\s+(?:line|paragraph)\b\s*", re.I), " "),
)

# words said with stress, written in capitals ("where WAS it"): read as the word; short names of things
# people write in capitals ("TV", "DVD") are left as they are
_SHOUTED = re.compile(r"\b[A-Z]{2,}\b")
_KEEP_CAPS = frozenset({"TV", "DVD", "CD", "PC", "USB", "OK", "UK", "US", "ASAP", "FYI", "AC", "LED", "PS", "ID", "AM",
                        "PM", "BBQ", "HDMI", "GPS", "WC"})
_SHORT_WORDS = frozenset({"is", "it", "in", "on", "me", "my", "do", "no", "to", "up", "so", "we", "he", "or", "at", "an",
                          "be", "by", "of", "if", "go", "us"})


def _unshout(m: re.Match[str]) -> str:
    w = m.group(0)
    if w in _KEEP_CAPS or (len(w) == 2 and w.lower() not in _SHORT_WORDS):
        return w
    return w.lower()


def dictation_fixes(text: str) -> str:
    """The text with punctuation said aloud written as marks, stressed words in lower case and homophones a
    dictation engine wrote in a place where only the other word can be meant."""
    t = text
    if sum(c.isupper() for c in t) < 0.6 * sum(c.isalpha() for c in t):  # all in capitals: leave to the parser
        t = _SHOUTED.sub(_unshout, t)
    for pattern, repl in _SPOKEN_MARKS:
        t = pattern.sub(repl, t)
    for _ in range(2):  # one fix can make the context of another ("weight their" -> "wait their" -> "wait there")
        for pattern, repl in _HOMOPHONES:
            t = pattern.sub(repl, t)
    return re.sub(r"\s+", " ", t).strip()


# ---- symbols and searching for a word ----------------------------------------------------------------------
# a few pictographs say a word; every other one carries tone ("go find the TV remote 🔎") and is no part of a name
_SAID_BY_SYMBOL = {"\U0001F44D": " yes ", "\U0001F44E": " no ", "\U0001F64F": " please "}


def without_symbols(text: str) -> str:
    """The text with emoji and other pictographs (Unicode "So", private-use, joiners and variation selectors)
    dropped, the few that say a word (thumbs up and down, folded hands) written as it."""
    if text.isascii():
        return text
    out = []
    for c in text:
        if c in _SAID_BY_SYMBOL:
            out.append(_SAID_BY_SYMBOL[c])
        elif unicodedata.category(c) in ("So", "Co", "Cs", "Sk") or c in "\u200d\ufe0e\ufe0f":
            out.append(" ")
        else:
            out.append(c)
    return re.sub(r"[ \t]+", " ", "".join(out)).strip()


# a speaker searching for a word says so between pauses ("the... what's it... the juice") or names a placeholder
# first and then the thing ("the thing, the juice"): neither is a thing of its own
_PAUSE = r"(?:\.{2,}|\u2026|,|\s[-\u2013\u2014]+)"
_WORD_SEARCH = re.compile(_PAUSE + r"\s*(?:(?:um+|uh+|erm*|er)\s*,?\s+)?(?:what(?:'s|\s+is)\s+it(?:\s+called)?|"
                          r"what(?:'s|\s+is)\s+(?:the\s+word|its\s+name)|what\s+do\s+(?:you|ya|we|they)\s+call\s+(?:it|them|that)|"
                          r"whatsit|whatchamacallit|what's-its-name|oh\s+what's\s+it)\s*\??\s*" + _PAUSE + r"?\s*", re.I)
_PLACEHOLDER = re.compile(r"\b(?:the|that|this|a)\s+(?:thing|thingy|thingie|thingamajig|thingamabob|thingummy|whatsit|"
                          r"whatchamacallit|doodah|doohickey|gizmo)\s*" + _PAUSE + r"\s*(?=(?:the|a|an|my|your|our|his|her|that)\s+\w)",
                          re.I)
# "... soaps? I think that's the word.": the speaker unsure of the name says so
_UNSURE_OF_WORD = re.compile(r"\s*[,.;]?\s*(?:(?:I\s+think|I\s+guess|I\s+believe)\s+)?(?:that's|that\s+is|if\s+that's)\s+the\s+"
                             r"(?:right\s+)?word\b\s*[.!]*|\s*,?\s+or\s+whatever\s+(?:it's|they're|you)\s+call(?:ed)?(?:\s+(?:it|them))?\b",
                             re.I)


def word_searches(text: str) -> str:
    """The text without the words a speaker says while searching for a name."""
    t = _WORD_SEARCH.sub(" ", text)
    t = _PLACEHOLDER.sub("", t)
    t = _UNSURE_OF_WORD.sub("", t)
    return re.sub(r"\s+", " ", t).strip()


# ---- self-repairs ------------------------------------------------------------------------------------------
# the editing term, set off by a dash or a comma: "— no,", ", sorry,", "— scratch that —", ", I mean"
_EDIT = re.compile(r"(?:\s*(?:[\u2014\u2013]|--?)\s*|\s*,\s*)"
                   r"(?:(?:no|nah|sorry(?!\s+(?:to|for|about|if|that|but)\b)|oops|wait|hang\s+on|actually|i\s+mean|i\s+meant|or\s+rather|rather|"
                   r"scratch\s+that|strike\s+that|correction|let\s+me\s+rephrase|make\s+that|make\s+it)\b"
                   r"(?:\s*[,\u2014\u2013]\s*|\s+-+\s+|\s+))+", re.I)
_WORD = re.compile(r"[A-Za-z][\w']*")
_PLACE_PREPS = frozenset({"on", "in", "into", "onto", "to", "under", "inside", "beside", "by", "near", "at",
                          "behind", "from"})
_RESTART_VERBS = frozenset({"take", "bring", "put", "get", "fetch", "grab", "move", "carry", "place", "go", "open",
                            "close", "find", "give", "hand", "set", "leave", "tell", "show", "check", "look"})
_QUESTION_WORDS = frozenset({"where", "what", "which", "when", "who", "how", "is", "are", "was", "were", "did", "do",
                             "does", "have", "has", "can", "could"})
_REACH = 8  # how far back, in words, a repaired stretch may start


def _key(word: str) -> str:
    return re.sub(r"'s$", "", word.lower())


_NAMED = re.compile(r"\b(?:the|my|your|our|his|her|their)\s+[a-z][\w-]*(?:\s+(?!(?:open|closed|shut|on|off|locked|empty|full|"
                    r"clean|dirty|is|was|in|on|at|to|and|or)\b)[a-z][\w-]*)?", re.I)


def _named_for_it(taken_back: str, again: str) -> str:
    """"is the microwave open — closed, I mean, is it closed?": the thing the words taken back named is the
    "it" of the sentence said again ("put the mug on the table — no, put it in the sink": the mug)."""
    named = _NAMED.search(taken_back)
    if named is None or not re.search(r"\b(?:it|them)\b", again):
        return again
    return re.sub(r"\b(it|them)\b", named.group(0), again, count=1)


def _repair_once(sentence: str) -> str | None:
    for m in _EDIT.finditer(sentence):
        before, after = sentence[:m.start()], sentence[m.end():]
        # "grab the remote - actually no, first tell me where it is": the order word says nothing of what is meant
        after = re.sub(r"^(?:first|instead|rather|just)\s*,?\s+(?=[a-z])", "", after, flags=re.I)
        said = _WORD.findall(after)
        if not said or not after[:1].isalpha():
            continue
        first = _key(said[0])
        if first in ("one", "ones") or said[:2] == ["the", "one"] or said[:2] == ["the", "ones"]:
            continue  # "the mug, I mean the one on the table": says which, takes nothing back
        words = list(_WORD.finditer(before))
        if not words:
            continue
        # the stretch the repair replaces starts with the repair's first word, said again
        for w in reversed(words[-_REACH:]):
            if _key(w.group(0)) == first:
                return sentence[:w.start()] + _named_for_it(sentence[w.start():m.start()], after)
        if first in _PLACE_PREPS:  # "on the table — no, in the sink": a place for a place
            for w in reversed(words[-_REACH:]):
                if _key(w.group(0)) in _PLACE_PREPS:
                    return sentence[:w.start()] + after
        # the whole phrase started again ("when did you first — no, last, when did you last see it")
        start = _key(words[0].group(0))
        later = [i for i, w in enumerate(said[:5]) if _key(w) == start]
        if later and start in _QUESTION_WORDS | _RESTART_VERBS:
            at = [x for x in _WORD.finditer(after)][later[0]]
            again = after[at.start():]
            named = after[:at.start()].strip(" ,;\u2014\u2013-")
            if named and _key(said[0]) in ("the", "my", "your", "our", "a", "an", "his", "her", "their"):
                # "have you seen my — sorry, the radio, have you seen it?": the thing named in the repair is "it"
                again = re.sub(r"\b(it|them)\b", named, again, count=1)
            return sentence[:words[0].start()] + again
        if first in _RESTART_VERBS and start in _RESTART_VERBS:  # "put the — no wait, take the mug"
            return sentence[:words[0].start()] + after
    return None


def edit_repairs(text: str) -> str:
    """The text as the speaker meant it after self-repairs that start a phrase again."""
    parts = re.split(r"(?<=[.!?])\s+", text)
    out = []
    for sentence in parts:
        for _ in range(3):  # a speaker rarely repairs more than twice in one sentence
            fixed = _repair_once(sentence)
            if fixed is None:
                break
            sentence = fixed
        out.append(sentence)
    return " ".join(out)
