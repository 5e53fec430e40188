"""Utterances of several parts: "I need the lime before I head out, where is it?", "there are a few phones
about. which one is by the cupboard?", "Ben used the computer earlier. what did he do after that?".

Each part is read on its own; the part that asks (or commands, on ~/plan) is the request, and its "it" /
"one" / "them" / "that" / "there" are the things, the event or the place the other parts named. The whole
utterance's reading stands when it says as much.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from . import lexicon as lx
from . import parser as _p
from .clause import OPENED_BEFORE_NOTE, _PREPARING_VERBS, Clause
from .names import GENERIC_NOUNS
from .phrases import _lemma, _low
from .request import CARRYING_INTENTS, Anchor, Intent, Kind, ObjectRef, Request, TimeRef

log = logging.getLogger(__name__)


_LEAD = r"(?:(?:and|so|but|oh|then|ok|okay|well|now|also|sorry|please)\b[,]?\s+)*"
_PART_START = re.compile(
    _LEAD + r"(?:(?:what|which|where|when|who|whose|how)\b|"
    r"(?:can|could|would|will|do|does|did|is|are|was|were|have|has|had|should|any)\s+"
    r"(?:you|i|we|it|they|he|she|there|the|my|this|that|a|an|idea)\b|(?:i|we)\s+mean\b|"
    # a need after a remark ("spilled my water, need something to wipe it up")
    r"(?:(?:i|we)\s+)?(?:really\s+)?(?:need|want)\s+(?:something|anything|a\s+thing)\s+(?:to|for)\b)", re.I)
_BOUNDARY = re.compile(r"(?<=[,;:.!?])\s+(?!then\s+what\b)|"
                       # a question run on after a remark without a break ("i need the remote where was it before"):
                       # a question word then a helping verb and its subject, not an embedded "where it was"
                       r"(?<=[a-z])(?<!\bknow)(?<!\btell)(?<!\bwonder)(?<!\bask)(?<!\bremember)(?<!\bidea)(?<!\bsure)(?<!\bsee)"
                       r"(?<!\bout)(?<!\bme)(?<!\bthen)(?<!\band)(?<!\bso)(?<!\bbut)(?<!\bor)(?<!\bnow)\s+(?=(?:where|what|which|when|who|how)\s+(?:is|was|are|were|did|do|does|has|have|had|"
                       r"can|could|would|will)\s+(?:it|they|the|my|that|this|he|she|you|i|we)\b)|\s+(?=which\s+(?:one\s+)?(?:is|was)\s+(?:that|it)\b)|"
                       r"\s+[-\u2013\u2014]+\s+(?!then\s+what\b)|\s+and\s+(?=(?:i|we)\s+mean\b)", re.I)
_DESIRE = re.compile(r"^(?:i|we)(?:'d| would)?\s+(?:really\s+)?(?:need|want|like|fancy)\b", re.I)
# the speaker's own aim or plan, or a reason ("I'm trying to work out who ...", "I'm about to leave", "because ...")
_AIM = re.compile(r"^(?:(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:just\s+|only\s+|really\s+)?(?:trying|about|going|hoping|"
                  r"planning|meaning)\s+to\b|because\b|since\b|so\s+(?:that\s+)?(?:i|we)\s+can\b|'?cause\b|cos\b)", re.I)
# what someone else knew or said, told as a remark ("..., she always knew where everything went", "he said it was
# in the kitchen"): no question of the speaker's, whatever question word it holds
_TOLD_OF = re.compile(r"^(?:she|he|they|mum|mom|dad|my\s+\w+)\s+(?:always\s+|never\s+|just\s+|even\s+|used\s+to\s+)?"
                      r"(?:knew|knows|remembered|remembers|said|says|told|thought|thinks|kept|used)\b[^?]*$"
                      # ... or what the speaker guesses he did ("close the fridge, please... I must have left it")
                      r"|^(?:i|we)\s+(?:must|might|may|probably|think\s+i|guess\s+i)\s+(?:have\s+|'ve\s+)?(?:left|put|forgot|moved|"
                      r"dropped)\b[^?]*$", re.I)
_PLURAL_PRONOUNS = frozenset({"them", "both", "those", "these", "they"})
PRONOUN_HEADS = frozenset({"it", "them", "that", "this", "those", "these", "one", "both", "they"})


def segments(t: str) -> list[str]:
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
    return [q for p in parts for q in _commands_in(p)]


_CAPITAL_WORD = re.compile(r"(?<=[a-z0-9])\s+(?=([A-Z][a-z]+)\b)|(?<=,)\s+(?:(?:and\s+)?then\s+|and\s+)?(?=([a-z]+)\s+"
                           r"(?:the|a|an|it|them|this|that|my|your|his|her|our|their|up|out|down|back|off|away|to|me|us|him)\b)")


def _commands_in(part: str) -> list[str]:
    """The commands one sentence runs together. Typed without a full stop, a command verb written with a capital
    letter mid-sentence starts the next sentence ("Grab the ball on the coffee table Open the washer and put the
    ball in"); so does one after a comma ("take the ball, put it in the fridge, take it out, heat it ...")."""
    out, start = [], 0
    for m in _CAPITAL_WORD.finditer(part):
        verb = (m.group(1) or m.group(2) or "").lower()
        if m.group(2) and not _starts_with_command(part[start:m.start()]) and \
                not _topic_only(part[start:m.start()]):
            continue  # "Anna is missing her glass, take it to her": a remark and its request read whole
        if (verb in lx.COMMAND_VERBS or m.group(2) and verb in _PREPARING) and part[start:m.start()].strip(" ,"):
            out.append(part[start:m.start()].strip(" ,"))
            start = m.end()
    tail = part[start:].strip()
    return [*out, tail] if tail else out or [part]


def _starts_with_command(text: str) -> bool:
    if NEGATED_COMMAND.match(text.strip()):
        return True  # "don't give it to me, take the radio to the bathroom"
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in ("please", "now", "then", "and", "first",
                                                                         "so", "ok", "okay")]
    return bool(words) and (words[0] in lx.COMMAND_VERBS or words[0] in _PREPARING)


_NOT_TOPIC_WORDS = frozenset({"i", "you", "we", "he", "she", "they", "it", "is", "are", "was", "were", "am", "can", "could",
                              "would", "will", "do", "does", "did", "don't", "if", "when", "where", "what", "which",
                              "who", "how", "has", "have", "had", "there", "not", "no"})


def _topic_only(text: str) -> bool:
    """A thing named first, on its own ("teddy bear, give to Ben"): a few words, no subject or helping verb."""
    words = re.findall(r"[a-z']+", text.lower())
    if not 0 < len(words) <= 4 or set(words) & _NOT_TOPIC_WORDS:
        return False
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()  # English words only: "Pakikuha naman ng toy, bring it" is another language's request
    return wn is not None and all(w in ("the", "a", "an", "my", "your", "our", "this", "that") or wn.is_word(w)
                                  for w in words)


# a command said not to be done: "don't give it to me", "please do not open the fridge", "never mind the mug"
NEGATED_COMMAND = re.compile(r"^(?:(?:oh|no|and|but|so|please|just)[,]?\s+)*(?:don'?t|do\s+not|dont|never|no\s+need\s+to|"
                             r"you\s+(?:don'?t|do\s+not)\s+(?:have|need)\s+to)\s+(?:(?:you|ever|even|bother\s+(?:to\s+)?)\s+)?"
                             r"([a-z]+)\b", re.I)


def negated_command(text: str) -> bool:
    m = NEGATED_COMMAND.match(text.strip())
    return m is not None and (m.group(1).lower() in lx.COMMAND_VERBS or m.group(1).lower() in _PREPARING)


_PREPARING = _PREPARING_VERBS | {"microwave"}  # the verbs that ready a thing before a put, as a part's first word


# verbs that set a thing down somewhere: a second command of these after a pick-up is where the thing goes
SET_DOWN = frozenset({"put", "place", "set", "drop", "leave", "stick", "lay", "stand", "store"})
_JOINING = frozenset({"and", "then", "to", "or", "&", "but"})
_SUBJECT_WORDS = lx.PRONOUNS | lx.SPEAKER_WORDS | lx.ROBOT_WORDS | lx.INDEFINITE_PRONOUNS | {
    "he", "she", "they", "who", "which", "someone", "somebody", "anyone", "everyone", "nobody", "what", "whoever",
    "y'all", "u", "ya", "ye"}


def run_on(doc: Any) -> list[str]:
    """Two commands said without a break ("pick up the lime on the table put the lime in the fridge", how
    speech-to-text and hurried typing join them): the parts before and from the second command's verb, when
    that verb sets a thing down somewhere and nothing joins it to the first (a conjunction, a comma, "to" or a
    helping word: "take it and put it away" the rules read whole); [] otherwise."""
    for v in doc:
        nxt = doc[v.i + 1] if v.i + 1 < len(doc) else None
        # the verb says what it sets down right after it ("put the ...", "place it ..."; the tagger may take
        # "place" for a noun); "the book set on the table" describes the book
        if v.i < 3 or nxt is None or _low(v) not in SET_DOWN and _lemma(v) not in SET_DOWN or not (
                nxt.pos_ in ("DET", "PRON", "NUM") or v.pos_ == "VERB" and (nxt.pos_ in ("NOUN", "PROPN") or
                                                                           nxt.dep_ == "prt")):
            continue
        prev = doc[v.i - 1]
        if _low(v) == "left" and _low(prev) in lx.SPOT_WORDS:
            continue  # "in the bottom left worktop": a side, not a verb
        # a pronoun before the verb is its subject ("you put", "I set"); the small tagger also calls a bare
        # noun a pronoun ("from bookshelf put radio on ..."), which is no subject
        # a particle ends the first command ("take it back out place it in the bin", "pick it up put it ...")
        ends_first = prev.dep_ == "prt" or _low(prev) in ("out", "up", "down", "off", "back", "away", "again")
        if prev.is_punct or _low(prev) in _JOINING or prev.pos_ in ("AUX", "PART", "SCONJ", "CCONJ", "VERB",
                                                                    "DET", "ADP", "NUM") and not ends_first or \
                prev.pos_ == "PRON" and (_low(prev) in _SUBJECT_WORDS or not prev.is_alpha):
            continue
        first = [t for t in doc[:v.i] if t.pos_ == "VERB" and _lemma(t) in lx.COMMAND_VERBS]
        said_thing = any(t.pos_ in ("NOUN", "PROPN", "PRON") for t in doc[v.i + 1:])
        placed = any(t.dep_ == "prep" or _low(t) in ("in", "on", "into", "onto", "inside") for t in doc[v.i + 1:])
        if first and placed and said_thing:
            return [doc[:v.i].text, doc[v.i:].text]
    return []


# a trailing "do you remember?", "can you help?", "any idea?": it wraps the part before it
_TAG_WORDS = frozenset({"do", "does", "did", "can", "could", "would", "will", "you", "i", "me", "we", "please",
                        "any", "idea", "by", "chance", "at", "all", "possibly", "help", "remember", "recall", "know",
                        "tell", "think", "happen", "to", "wonder", "mind", "it", "that", "out",
                        # tag questions: "the closet isn't locked, is it?"
                        "is", "isn't", "isnt", "are", "aren't", "was", "wasn't", "n't", "not", "they", "there",
                        # "I told you before and um do you remember?": a reminder that it was said, not a question
                        "told", "said", "mentioned", "before", "already", "earlier", "once", "and", "um", "uh", "er",
                        "so", "yet", "surely"})


# a part asked in the form of a question: a question word anywhere ("kitchen have how many books?"), an
# auxiliary among its first words or in a tag; not a statement said with a "?" ("Somebody moved it, no?", whose tag
# ``dialects`` has already taken off)
_QUESTION_FORM = re.compile(
    r"\b(?:what|where|which|when|who|whom|whose|why|how)\b|^\W*(?:[\w']+\W+){0,2}?(?:is|are|was|were|am|do|does|did|"
    r"can|could|will|would|has|have|had|should|shall|may|might|must|any|got)\b"
    # ... or a tag that asks it ("Sighted the radio anywhere, have you?")
    r"|,\s*(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had)(?:n't)?\s+(?:you|ye|ya|u|it|they|we|he|she|"
    r"there)\b", re.I)


def _rank(req: Request, text: str, prefer: Kind | None, tagged: bool = False) -> int:
    words = re.findall(r"[a-z']+", text.lower())
    if req.intent is Intent.unknown and any(o.purpose and o.head in ("something", "anything") for o in req.objects) \
            and not negated_command(text):
        return 2  # "need something to wipe it up" said without "I": a need, as strong as "I need the lime"
    if req.intent is Intent.unknown or words and set(words) <= _TAG_WORDS or negated_command(text):
        return 0  # nothing asked, a tag, or a thing said not to be done
    if req.intent in (Intent.greeting, Intent.inform):
        return 1
    if req.is_command and _DESIRE.match(text.strip()) or "a bare noun phrase" in req.notes:
        return 2  # "I need the lime": a wish, weaker than a question or a command said to the robot
    if _TOLD_OF.match(text.strip()):
        return 1  # "Where does the milk go... she always knew where everything went": the question is the other part
    if _AIM.match(text.strip()):
        return 2  # "When did you last see it? I'm trying to work out who took it": why they ask, not the question
    # of several commands on ~/plan, the one that moves a thing is the task; opening, closing and going its steps
    # ("open the fridge, take the lime out and close it. open the bin, put the lime in, close it")
    moves = prefer is Kind.command and req.intent in (Intent.put, Intent.fetch, Intent.put_away, Intent.put_back) \
        and bool(req.objects)
    # a part asked as a question ("?") before a remark about it ("Which plate is on the table? Can't see it from
    # here.", "Where's the mug? I can't find it."): the question is what was asked, whichever came last
    # ... and asked in a question's form: not a remark said with a "?" ("Where was the mug before? Somebody moved
    # it, no?"),
    # it, no?"), unless a tag after it asked it ("Sighted the radio anywhere, have you?")
    asked = prefer is Kind.question and req.kind is Kind.question and "?" in text and (
        tagged or any(_QUESTION_FORM.search(s) for s in re.split(r"(?<=[.!?])\s+", text)))
    return 3 + (1 if prefer is not None and req.kind is prefer else 0) + (1 if moves else 0) + (1 if asked else 0)


def _open(o: ObjectRef) -> bool:
    """A phrase that names no thing of its own ("it", "one", "both"): the other parts say what it is."""
    return bool(o.pronoun) or not (o.head or o.purpose) or o.head in PRONOUN_HEADS


def _unresolved(req: Request) -> bool:
    return any(_open(o) for o in req.objects) or req.destination is not None and _open(req.destination.ref) or \
        req.time is not None and req.time.clause.strip().lower() in ("that", "it", "this") or \
        req.actor in ("he", "she", "they") or req.recipient in ("him", "her", "them")


def from_parts(full: Request, parts: list[str], raw: str, prefer: Kind | None, whole_may_stand: bool = True
               ) -> Request:
    try:
        docs = _p.read_many(parts)
        # a part may itself run two commands together ("..., and then take it back out place it in the bin")
        split = [q for d, p in zip(docs, parts) for q in (run_on(d) if d.text == p else []) or [p]]
        if len(split) != len(parts):
            parts = split
            docs = _p.read_many(parts)
        reqs = [_p.read_doc(d, p) for d, p in zip(docs, parts)]
        for i, (d, r) in enumerate(zip(docs, reqs)):
            if r.intent is Intent.put and r.destination is None:
                # "put radio inside coffee maker": a part said without articles is read again with them, as the
                # whole is (parser.rules_reading), when its put found no place
                with_the = _p._add_articles(d)
                if with_the == d.text:
                    continue
                doc = _p.read(with_the)
                again = _p.read_doc(doc, parts[i])
                if again.intent is Intent.put and again.destination is not None:
                    docs[i], reqs[i] = doc, again
        for r in reqs:  # "put it on the counter behind the first one": the place said first, in each part too
            _p._place_before_position(r)
        ranks = [_rank(r, p, prefer) for r, p in zip(reqs, parts)]
        # a question whose "?" came after a tag ("Which cup is it on the counter, do you remember?") was asked,
        # also when a remark follows ("Where does the milk belong, do you know? I should hate to put it wrong")
        ranks = [_rank(r, p + "?", prefer, tagged=True) if "?" not in p and _tag_then_remarks(ranks, parts, i) else ranks[i]
                 for i, (r, p) in enumerate(zip(reqs, parts))]
        k = max(range(len(reqs)), key=lambda i: (ranks[i], i))  # the strongest; among equals the last said
        full_rank = _rank(full, raw, prefer)
        if ranks[k] < full_rank:
            return full
        main = reqs[k]
        _carried_on(main, reqs[k + 1:], docs[k + 1:])
        _fill_from(main, [_things_in(d) for d in docs[:k]], [_things_in(d) for d in docs[k + 1:]], parts[:k])
        _use_from(main, docs[:k])
        _there_from(main, parts[k], docs[:k])
        _place_from(main, docs[:k], parts[k])
        _opened_from(main, reqs[:k], parts[k])
        _room_from(main, docs[:k])
        _time_from(main, docs[:k])
        _described_place_from(main, parts[k], parts[:k])
    except Exception as e:  # noqa: BLE001 - the whole reading stands
        log.warning("parts of %r: %s", raw[:200], e)
        return full
    remarks_only = all(r <= 1 for i, r in enumerate(ranks) if i != k)  # the rest: remarks, tags, nothing
    same_things = {o.head for o in main.objects} <= {o.head for o in full.objects}
    says_as_much = same_things and detail(full) >= detail(main)
    # "grab the milk on the table Open the washer and put it in", "put it on the shelf ... Put it on the counter":
    # a whole that puts the thing somewhere else than the part that puts it mixes the parts
    # ... and so does one that takes it elsewhere than the last part that carries it ("take the mug to the sink,
    # rinse it, then carry it to the table": the table)
    mixed = full.intent is Intent.put and main.intent is Intent.put and full.destination is not None and \
        main.destination is not None and full.destination.ref.head != main.destination.ref.head
    mixed = mixed or full.intent in CARRYING_INTENTS and main.intent in CARRYING_INTENTS and \
        _a_thing_to_set_on(full) and _a_thing_to_set_on(main) and full.destination.ref.head != main.destination.ref.head
    # "Deliver the juice to Ben. Acknowledge. Over.": the whole ran the name into the next word ("Ben Acknowledge")
    # and hands it to "acknowledge"; the part says whom
    mixed = mixed or full.intent in CARRYING_INTENTS and main.intent in CARRYING_INTENTS and bool(main.recipient) and \
        full.recipient.lower() != main.recipient.lower() and full.destination is not None and \
        main.recipient.lower() in full.destination.ref.text.lower().split()
    # "get the pear. Find the lotion. Bring them both to me": the part's "them" gathers things the whole lost
    mixed = mixed or full.intent is main.intent and {o.head for o in full.objects} < {o.head for o in main.objects}
    # "I'll need a couple of things: the pencil case and the stapler. Fetch both?": the whole's thing names nothing
    mixed = mixed or full.intent is main.intent and bool(full.objects) and all(map(_names_nothing, full.objects)) \
        and bool(main.objects) and not any(map(_names_nothing, main.objects))
    if any(negated_command(p) for p in parts):
        mixed = True  # "don't give it to me, take it to the bathroom": the whole reads the command not wanted
    if whole_may_stand and ranks[k] == full_rank and not mixed and (
            _unresolved(main) and not _unresolved(full) or full.intent is main.intent and
            not _unresolved(full) and (says_as_much or not remarks_only)):
        _use_from(full, docs[:k])
        _room_from(full, docs[:k])
        return full  # the whole reading says as much (or more: "the ball is in the microwave, bring it")
    main.text = raw
    main.notes.append(f"read {parts[k]!r}, the part that asks; the rest said what it is about")
    main.part = parts[k]
    return main


def _a_thing_to_set_on(req: Request) -> bool:
    """The request carries its thing to a thing named with "the" (no person, room or "there"): "to the sink"."""
    d = req.destination
    return d is not None and not req.recipient and d.ref.determiner == "the" and not d.ref.pronoun and \
        d.ref.head not in lx.ROOM_WORDS | lx.HOME_WORDS | PRONOUN_HEADS | {"there", "here"}


# verbs that carry a thing, said with no thing after a part that carries one ("..., move to the dining table")
_CARRY_ON_VERBS = frozenset({"move", "take", "carry", "bring", "bear", "transfer", "shift"})


def _carried_on(main: Request, after: list[Request], docs: list[Any]) -> None:
    """"Move the radio to the microwave and heat, move to the dining table": a later part that carries nothing
    named to a place, with a verb of carrying, carries on the thing the task carries: that place is where it ends
    (the task had been planned to the microwave, the last place said dropped)."""
    if main.intent not in CARRYING_INTENTS or not main.objects or main.recipient:
        return  # (brought to someone: where the robot goes afterwards is no place for the thing)
    for r, d in zip(after, docs):
        first = next((t for t in d if not t.is_punct and _low(t) not in ("then", "and", "now", "next", "finally")),
                     None)
        if r.intent is Intent.go and r.destination is not None and not r.objects and first is not None and \
                _lemma(first) in _CARRY_ON_VERBS:
            main.intent = Intent.put if main.intent is Intent.fetch else main.intent
            main.destination = Anchor(relation="at", ref=r.destination.ref)
            main.notes.append(f"carried on to {r.destination.ref.text!r}, said after")


def _tag_then_remarks(ranks: list[int], parts: list[str], i: int) -> bool:
    """After part i, a tag that carries the "?" and asks nothing ("do you know?"), then at most remarks."""
    j = next((k for k in range(i + 1, len(parts)) if "?" in parts[k]), None)
    return j is not None and not any(ranks[i + 1:j + 1]) and all(x <= 1 for x in ranks[j + 1:])


def detail(req: Request) -> int:
    """How much a reading says beyond its intent: places, attributes, owners, uses, times, where to."""
    return sum((o.anchor is not None) + len(o.modifiers) + bool(o.owner) + bool(o.purpose) for o in req.objects) + \
        (req.time is not None) + bool(req.state) + (req.destination is not None) + bool(req.recipient)


# a noun after these says when, not what: "I've been hunting for it since lunch"
_TIME_PREPS = frozenset({"since", "until", "till", "during"})  # not "after": "I'm after the face cream"
_PHYSICAL_LEXNAMES = frozenset({"noun.artifact", "noun.food", "noun.object", "noun.plant", "noun.substance",
                                "noun.animal", "noun.possession", "noun.quantity"})


def _can_be_it(tok: Any) -> bool:
    """Whether a later "it" can mean the thing a noun names: not a time said with "since" / "until", not a word
    WordNet knows only as no physical thing ("idea", "eyesight", "the time", "the word", "the usual spots")."""
    if tok.dep_ == "pobj" and _low(tok.head) in _TIME_PREPS:
        return False
    if tok.dep_ == "attr" and _lemma(tok.head) == "be" and any(
            c.dep_ == "nsubj" and _low(c) in ("that", "this") for c in tok.head.children) and any(
            c.dep_ == "det" and _low(c) in ("a", "an") for c in tok.children):
        return False  # "that's a long walk for me, so would you fetch it": what "that" is like, no thing said
    word = _lemma(tok) if tok.tag_ in ("NNS", "NNPS") else _low(tok)
    if word in lx.NOT_PLACE_NOUNS or word in _NOT_REFERENTS:
        return False
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    if wn is None or not word.isalpha() or " " in word:
        return True
    before = tok.doc[tok.i - 1] if tok.i > 0 else None
    lead = _low(before) if before is not None and before.head == tok and before.dep_ in ("compound", "amod") else ""
    senses = (wn.noun_senses(f"{lead} {word}") if lead.isalpha() else ()) or wn.noun_senses(word)
    # ("remote control" is a device though "control" alone is not; a word WordNet does not know may be a name)
    return not senses or any(s.lexname() in _PHYSICAL_LEXNAMES for s in senses[:6])


# (meals are not here: "since lunch" is a time by the since/until rule, and "I made tea, bring it to me" means the tea)
_NOT_REFERENTS = frozenset({"spot", "place", "area", "way", "word", "idea", "clue", "time"})


# prepositions after which a thing is a place or a path ("for": "I'm off to work" / "leave for work")
_PLACE_PREPS = frozenset(lx.SPATIAL_PREPS) | lx.DESTINATION_PREPS | {"for"}


def _split_compound(first: Any, second: Any) -> bool:
    """Two nouns side by side that the tagger made two objects of one verb ("put my TV remote down": "TV" and
    "remote" both its objects): one name, whose last noun is the thing."""
    return first.pos_ in ("NOUN", "PROPN") and second.pos_ == "NOUN" and first.dep_ == second.dep_ == "dobj" and \
        first.head.i == second.head.i


def _things_in(doc: Any) -> list[ObjectRef]:
    """The things a part names, in the order said, each read with what was said of it."""
    out, placed = [], []
    nouns = {t.i for t in _p.thing_nouns(doc, roots=True) if _can_be_it(t)}
    for tok in doc:
        if tok.i in nouns and tok.i + 1 < len(doc) and _split_compound(tok, doc[tok.i + 1]):
            continue  # "I put my TV remote down": the tagger made "TV" and "remote" two things; the next is the one
        if tok.i in nouns:
            ref = Clause(tok.sent, doc.text)._object(tok)
            if tok.i >= 1 and _split_compound(doc[tok.i - 1], tok):
                first = doc[tok.i - 1]
                ref.compound = [first.lower_, *ref.compound]
                ref.owner = ref.owner or next((("speaker" if _low(c) in ("my", "our") else "") for c in first.children
                                               if c.dep_ == "poss"), "")
                ref.text = f"{first.text} {ref.text}" if first.text not in ref.text else ref.text
            out.append(ref)
            # a place: after a preposition of place or a path ("in the fridge", "to the table"); not "done with
            # the magazine", "a story about the radio"
            placed.append(tok.dep_ == "pobj" and _low(tok.head) in _PLACE_PREPS)
        elif tok.lower_ == "one" and any(c.dep_ == "prep" for c in tok.children):
            # "I mean the one on the counter": a kind said before, told apart by where it is
            clause = Clause(tok.sent, doc.text)
            ref = clause._object(tok)
            ref.anchor = ref.anchor or next((a for c in tok.children if c.dep_ == "prep"
                                             and (a := clause._anchor(c)) is not None), None)
            if ref.anchor is not None:
                ref.head, ref.pronoun = "", "one"
                out.append(ref)
                placed.append(False)
    # a thing said as where or what for ("leave for work", "put it on the table") is the last a later "it"
    # means: "I'm off to work and I need my keys, where are they?" asks for the keys
    order = sorted(range(len(out)), key=lambda i: placed[i])
    kept = [i for i in order if out[i].head and out[i].head not in PRONOUN_HEADS and not out[i].pronoun
            or out[i].pronoun == "one"]
    if all(placed[i] for i in kept) and any(t.lower_ in ("it", "them") and t.dep_ in ("dobj", "nsubjpass")
                                            and t.head.pos_ == "VERB" and _lemma(t.head) in lx.COMMAND_VERBS
                                            for t in doc):
        # "take the radio, put it in the fridge, take it out": the part moves a thing it calls "it"; a later
        # "it" is that thing, said further back, not the place
        return []
    out = [out[i] for i in kept]
    # a phrase inside a longer one said of the same words ("no TV" in "no TV remote anywhere", the tagger having
    # made "remote" a verb) is that longer phrase's start, not a thing of its own
    out = [o for o in out if not any(p is not o and p.text.lower().startswith(o.text.lower() + " ") and p.head != o.head
                                     and p.head not in lx.ROOM_WORDS for p in out)]
    if not out:
        # "I need to get into the cupboard. Will it open?": a thing said as where to go is still the thing a
        # later "it" means; the last such noun, not a room or the home
        places = [t for t in doc if t.pos_ == "NOUN" and t.dep_ in ("pobj", "dobj") and not t.ent_type_
                  and t.lemma_.lower() not in lx.ROOM_WORDS | lx.HOME_WORDS and _can_be_it(t)]
        if places:
            out = [Clause(places[-1].sent, doc.text)._object(places[-1])]
    return out


def _place_from(main: Request, before: list[Any], text: str = "") -> None:
    """"kitchen. go.": a go that names no place goes to the place a part before it said on its own;
    "table. put the radio there.": so does a put whose place is "there"."""
    putting = main.intent is Intent.put and main.destination is None and main.objects and \
        re.search(r"\bthere\b", text, re.I) is not None
    if not putting and (main.intent is not Intent.go or main.destination is not None or main.objects):
        return
    for doc in before[::-1]:
        roots = [t for t in doc if t.dep_ == "ROOT" and t.pos_ in ("NOUN", "PROPN")]
        if roots:
            main.destination = Anchor(relation="on" if putting else "at",
                                      ref=Clause(roots[0].sent, doc.text)._object(roots[0]))
            return


_INSIDE = re.compile(r"\b(?:in|inside|into)\s*(?:it|there)?\s*[.!,;]*\s*(?:$|\b(?:and|then)\b)|\binside\b", re.I)


_INSIDE_A_SPOT = re.compile(r"\b(?:in|inside)\s*,?\s+(?:(?:directly|right|just|somewhere)\s+)?(?:behind|beside|next\s+to|"
                            r"near|in\s+front\s+of|to\s+the\s+(?:left|right)\s+of|on\s+the\s+(?:left|right)\s+of)\b",
                            re.I)


def _opened_from(main: Request, before: list[Request], text: str) -> None:
    """"Open the coffee machine from the left, and place the radio inside", "open the bin. put the ball in": a put
    into no place said, or into "it" ("open the fridge, put the milk in it, and close it"), goes into the thing a
    part before it opened."""
    dest = main.destination
    # ("open the toilet, put the radio in directly behind the bottle", "... place the globe inside to the left of
    # the globe": in what was opened, and the spot after it says where in it)
    spot_inside = dest is not None and dest.relation in lx.BESIDE_RELATIONS and _INSIDE_A_SPOT.search(text)
    if main.intent is not Intent.put or dest is not None and not (
            dest.ref.pronoun in ("it", "there") and dest.ref.anchor is None) and not spot_inside or \
            not _INSIDE.search(text) and not spot_inside:
        return
    opened = [r for r in before if r.intent is Intent.open and r.objects and not _open(r.objects[0])]
    if opened:
        ref = opened[-1].objects[0].model_copy(deep=True)
        if ref.anchor is not None and ref.anchor.ref.head in lx.SPOT_WORDS:
            ref.anchor = None  # "open the coffee machine from the left": how it was opened, not which
        main.destination = Anchor(relation="in", ref=ref)
        main.notes.append(OPENED_BEFORE_NOTE.format(thing=repr(main.destination.ref.text)))


_THERE = re.compile(r"\b(in|on|inside|under)\s+there\b", re.I)
_CARRY_THERE = re.compile(r"\b(?:carry|take|bring|put|move|leave|drop|set)\s+(?:it|them|the\s+[\w-]+(?:\s+[\w-]+)?)\s+"
                          r"(?:(?:in|into|over|down|up)\s+)?there\b", re.I)
_INTO = {"in": "in", "into": "in", "inside": "in", "to": "in", "on": "on", "onto": "on", "under": "under"}


def _there_from(main: Request, text: str, before: list[Any]) -> None:
    """"I'm popping into the bathroom, will I find any towels in there?": "there" is the place said before."""
    m = _THERE.search(text)
    carried = main.intent in (Intent.fetch, Intent.put) and main.destination is None and \
        main.recipient in ("", "speaker") and main.objects and _CARRY_THERE.search(text)
    if carried:  # "I'll be working in the kitchen, so could you carry the juice in there": there is where it goes
        places = [p for d in before for t in d if t.dep_ == "prep" and _low(t) in _INTO
                  for p in t.children if p.dep_ == "pobj" and p.pos_ in ("NOUN", "PROPN")] or _rooms_said_alone(before)
        if places:
            rel = "at" if main.intent is Intent.fetch else "in"  # a fetch's place is where it goes (planner.run)
            main.destination = Anchor(relation=rel, ref=Clause(places[-1].sent, places[-1].doc.text)._object(places[-1]))
            main.recipient = ""  # "... and leave it for me": for whom, not where
            for o in main.objects:
                if o.room and o.room == _room_words(places[-1]):
                    o.room = ""  # the reader took the place for where the thing is
            return
    if m is None or not main.objects or main.objects[0].anchor is not None:
        return
    places = [p for d in before for t in d if t.dep_ == "prep" and _low(t) in _INTO
              for p in t.children if p.dep_ == "pobj" and p.pos_ in ("NOUN", "PROPN")]
    places = places or _rooms_said_alone(before)  # "the bathroom - is there a ball in there?"
    if not places:  # "Not the whole flat, just the bathroom: any chairs in there?": the room a verbless part names
        places = [t for d in before if not any(x.pos_ in ("VERB", "AUX") for x in d) for t in d if _names_a_room(t)]
    if places:
        place = places[-1]
        rel = {"inside": "in"}.get(m.group(1).lower(), m.group(1).lower())
        main.objects[0].anchor = Anchor(relation=rel, ref=Clause(place.sent, place.doc.text)._object(place))


_ASKS_THAT_PLACE = re.compile(r"^(?:so\s+)?where(?:'s|\s+is|\s+was|\s+would)\s+(?:that|it|this)\b", re.I)
_WHERE_IT_BELONGS = re.compile(r"\bwhere\s+(?:it|they|that|this)\s+(?:belongs?|goes|go|lives?)\b", re.I)
_WHERE_IT_WAS = re.compile(r"\bwhere\s+(?:it|they|that|this)\s+(?:was|were|used\s+to\s+be)\b", re.I)


def _described_place_from(main: Request, text: str, before: list[str]) -> None:
    """"I want to put the remote where it belongs - where's that?", "I liked the lime where it was before -
    where was that again?": "that" is the place the other part described, not where the thing is now."""
    if main.intent is not Intent.where or not _ASKS_THAT_PLACE.match(text.strip()):
        return
    said = " ".join(before)
    if _WHERE_IT_BELONGS.search(said):
        main.intent = Intent.goes_where
        main.time = None
    elif _WHERE_IT_WAS.search(said):
        main.time = TimeRef(moment="previous")


def _rooms_said_alone(before: list[Any]) -> list[Any]:
    """Rooms a part before said on their own, as its whole ("bedroom.", "the bathroom -")."""
    return [t for d in before for t in d if t.dep_ == "ROOT" and _names_a_room(t)]


def _names_a_room(tok: Any) -> bool:
    """A noun naming a room, alone or with its compounds ("kitchen", "living room")."""
    return tok.pos_ in ("NOUN", "PROPN") and (_low(tok) in lx.ROOM_WORDS or _room_words(tok) in lx.ROOM_WORDS)


def _room_words(tok: Any) -> str:
    """A room noun with its compounds, as said ("living room")."""
    return " ".join(_low(x) for x in tok.subtree if x.dep_ == "compound" or x == tok)


def _room_from(main: Request, before: list[Any]) -> None:
    """"bedroom. any teddies?", "kitchen - how many cups?": a room said on its own before a question about
    things is where the question looks."""
    if main.intent not in (Intent.exists, Intent.count, Intent.where, Intent.fetch, Intent.find) or \
            not main.objects or any(o.room or o.anchor is not None for o in main.objects):
        return
    rooms = _rooms_said_alone(before)
    if not rooms and main.intent in (Intent.count, Intent.exists):
        # "go through the bedroom in your head. count the pillows": the room a part before looks through
        rooms = [t for d in before for t in d if t.dep_ in ("pobj", "dobj") and _names_a_room(t)]
    if rooms:
        room = _room_words(rooms[-1])
        for o in main.objects:
            o.room = room


def _time_from(main: Request, before: list[Any]) -> None:
    """"The lime, before, where it was?", "yesterday evening... the remote, where was it?": a moment said in a
    part without a verb before a question that names none is the moment the question asks about."""
    if not main.is_question or main.time is not None or main.intent not in (
            Intent.where, Intent.what_room, Intent.contents, Intent.attribute, Intent.state, Intent.exists):
        return
    for d in reversed(before):
        if any(t.pos_ in ("VERB", "AUX") for t in d):
            continue  # a clause with its own verb says when something else happened
        for sent in d.sents:
            said = Clause(sent, d.text)._time(sent.root)
            if said is not None and said.moment:
                main.time = said
                main.notes.append(f"the moment said before the question: {d.text.strip()[:40]!r}")
                return


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


# nouns that count or group what follows "of" ("a couple of things", "a pair of items")
_COUNTING_NOUNS = frozenset({"couple", "pair", "few", "bunch", "handful", "number", "lot", "load", "set"})


def _names_nothing(o: ObjectRef) -> bool:
    """Said only as a kind of anything ("I can never remember these things", "a couple of things"): nothing a
    later "it" or "both" could mean."""
    if o.purpose:
        return False  # "something to eat": a use names what is meant
    if o.head in _COUNTING_NOUNS and not o.modifiers:
        of = (o.of_noun or "").split()[-1:] or [""]
        return of[0] in GENERIC_NOUNS or of[0].rstrip("s") in GENERIC_NOUNS
    return o.head in GENERIC_NOUNS and not o.modifiers


def _fill_from(main: Request, before: list[list[ObjectRef]], after: list[list[ObjectRef]], texts: list[str]) -> None:
    """Give ``main``'s pronouns the things the other parts named (the nearest part before it first; for
    "them" / "both" every thing named before it)."""
    # a thing said only as a kind of anything ("I can never remember these things") names nothing to refer to
    before = [[o for o in things if not _names_nothing(o)] for things in before]
    after = [[o for o in things if not _names_nothing(o)] for things in after]
    nearest = next((things for things in before[::-1] + after if things), [])
    ones = [o for o in nearest if o.pronoun == "one" and o.anchor is not None]
    if ones and nearest[0].pronoun != "one":
        # "I don't mean all the glasses, just the one beside the toothbrush": the kind, told apart by the place
        nearest = [o for o in nearest if o.head][:1]
        if nearest:
            nearest = [nearest[0].model_copy(update={"anchor": ones[0].anchor, "determiner": "the",
                                                     "plural": False, "quantity": None})]
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
            owner = _OWNING_PRONOUNS.get(o.head) if not o.compound and not o.modifiers else None
            if owner is not None and nearest[0].head:
                # "don't bring me just any glass, bring me mine": the kind said before, the owner said now
                filled.append(nearest[0].model_copy(update={"owner": owner, "determiner": "the", "anchor": None}))
                continue
            if not _open(o):  # a use ("where can I sit down?") names what is wanted too
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
        if main.intent is Intent.count and len(main.objects) == 1 and _only_a_room(main.objects[0]) and \
                nearest[0].head and not _only_a_room(nearest[0]):
            # "I'm short of towels. How many are in the bathroom?": the towels, counted in the bathroom
            room = main.objects[0].words()
            filled = [nearest[0].model_copy(deep=True, update={"room": room, "anchor": None})]
        if not main.objects and main.intent in _ASKS_OF_A_THING and nearest[0].head:
            # "Let's count the forks! One, two... how many are there?": the question names no thing; the part
            # before did
            filled = [nearest[0].model_copy(deep=True)]
        dest = main.destination
        if main.intent is Intent.go and (dest is None or _open(dest.ref)) and not main.objects:
            # "juice. go to it.", "kitchen. go.": where to go is the thing or place said before
            main.destination = Anchor(relation=dest.relation if dest is not None else "at",
                                      ref=nearest[0].model_copy(deep=True))
        if filled != main.objects:
            main.objects = filled
            if main.intent is Intent.where and any(o.anchor is not None for o in filled) and \
                    main.notes and any("what is X" in n for n in main.notes):
                main.intent = Intent.which  # "the plate by the microwave, which is that one?"
    if main.intent is Intent.person_did and main.time is None:
        # "I missed it all, but I'm curious: after Ben made coffee, what did he do next?": the event a part
        # before named (an aside such as "I think it was" between them is skipped)
        for text in texts[::-1]:
            m = _AFTER_EVENT.search(text.strip())
            clause = " ".join(_ASIDE_TAIL.sub("", m.group(2)).replace(",", " ").split()) if m else ""
            if m is not None and 2 <= len(clause.split()) <= 12:
                main.intent = Intent.around  # a pause inside it ("after Ben... turned on the TV") is no break
                main.time = TimeRef(relation=m.group(1).lower(), clause=clause.strip(" .!?"))
                break
    if main.time is not None and main.time.clause.strip().lower() in ("that", "it", "this") and texts:
        main.time.clause = re.sub(r"\s+(?:earlier|before|today|just now)$", "", texts[-1].strip(" .,!?"), flags=re.I)
    people = [w for text in texts for w in re.findall(r"\b[A-Z][a-z]+\b", text) if w.lower() not in _NOT_NAMES]
    if people and main.actor in ("he", "she", "they", "him", "her"):
        main.actor = people[-1].lower()
    if people and main.recipient in ("him", "her", "them"):
        main.recipient = people[-1].lower()


def _only_a_room(o: ObjectRef) -> bool:
    return not o.pronoun and o.head in lx.ROOM_WORDS and (o.anchor is None or o.anchor.ref.head == o.head)


_OWNING_PRONOUNS = {"mine": "speaker", "ours": "speaker", "yours": "robot"}
_ASKS_OF_A_THING = frozenset({Intent.count, Intent.where, Intent.attribute, Intent.when_seen, Intent.which})
_AFTER_EVENT = re.compile(r"(?:^|[:;,]\s*)(?:(?:so|and|but|ok|okay|well)[,]?\s+)*(after|before)\s+(\w[^:;]{3,})$", re.I)
# an aside at the end of the event said ("after Ben turned on the TV, I think it was")
_ASIDE_TAIL = re.compile(r"\s*,?\s*\b(?:i\s+think(?:\s+it\s+was)?|i\s+believe|i\s+guess|if\s+i\s+remember(?:\s+right(?:ly)?)?|"
                         r"was\s+it|or\s+something|right)\s*$", re.I)


# capitalised words that start or fill sentences without naming anyone
_NOT_NAMES = frozenset({"i", "the", "a", "an", "there", "this", "that", "it", "my", "our", "your", "his", "her",
                        "we", "you", "he", "she", "they", "erm", "um", "so", "and", "but", "oh", "sorry", "ok",
                        "okay", "well", "hey", "please", "can", "could", "would", "will", "do", "did", "is", "are",
                        "what", "which", "where", "when", "who", "how", "tv"})
