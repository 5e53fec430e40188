"""Reading one clause as a request: question, command or statement, and which intent.

Question words and inverted auxiliaries make questions, bare verbs commands, the verb's sense the intent
(``lexicon.COMMAND_VERBS``); wrappers ("can you tell me ...", "would you mind ...") are unwrapped first.
The parts (objects, places, times, actors) are read by ``PhraseReader`` (``phrases.py``).
"""

from __future__ import annotations

import re

from typing import Any

from ..core.models import state_family
from . import lexicon as lx
from .phrases import _STATE_OR_USABLE, PhraseReader, _attach, _lemma, _low
from .request import Anchor, Intent, Kind, ObjectRef, Request, TimeRef

_NEEDS_OBJECT = frozenset({Intent.where, Intent.what_room, Intent.state, Intent.usable, Intent.attribute,
                           Intent.when_seen, Intent.happened_to, Intent.fetch, Intent.put, Intent.put_away,
                           Intent.put_back, Intent.open, Intent.close, Intent.find})
_MOVING_VERBS = frozenset({"move", "shift", "touch", "take", "relocate", "nick", "borrow", "steal", "hide", "swap"})
# what people go somewhere to do ("where can I sit down?"), as opposed to where a thing goes
_PLACE_USES = frozenset({"wash", "cook", "sit", "sleep", "eat", "shower", "bathe", "brush", "read", "work", "relax",
                         "rest", "watch", "lie", "dry", "write", "play", "drink", "nap"})
# "where can I find / get / leave / put ..." asks where a thing is or goes, not for a place to do something
_LOCATING = lx.PLACE_VERBS | lx.GO_VERBS | lx.SEE_VERBS | frozenset({
    "find", "locate", "look", "get", "buy", "be", "have", "hang", "lose", "search", "grab", "fetch", "take", "bring",
    "pick", "return", "throw_out"})
# particles a recipient or a place can hang on ("take it along to Ben", "bring it back over to the table")
_PARTICLES = frozenset({"along", "over", "back", "across", "round", "around", "up", "down", "out", "on"})
_MODAL_ASKING = frozenset({"can", "could", "should", "shall", "may", "might", "do", "would"})
_PURPOSE_VERBS = frozenset({"eat", "drink", "read", "wear", "write", "play", "watch", "sit", "use"})
_KNOWING = frozenset({"know", "tell", "wonder", "remember", "recall", "see", "happen", "check", "think", "say",
                      "guess", "figure"})
_INVERTING = frozenset({"be", "do", "have", "can", "could", "will", "would", "should", "may", "might", "must",
                        "shall"})


# "its place", "its usual spot": where a thing belongs, not a place of its own
# what is done to a thing before it is set down (not a skill of its own here): "rinse the mug and put it away"
_PREPARING_VERBS = frozenset({"clean", "wash", "rinse", "heat", "warm", "cool", "chill", "dry", "wipe"})
# the notes of a first verb read as a step of the request the second verb makes (``reading_policy`` reads them)
STEP_NOTE = "first {verb}: planned as part of it"
PREPARING_NOTE = "I cannot {verb} things: only the {intent} is planned"


def _inside_said(verb: Any) -> bool:
    """The put verb says "in" / "inside" with nothing after it but a spot ("put the radio in directly behind the
    bottle", "place the globe inside to the left of the globe")."""
    return any(_low(c) in ("in", "inside") and c.dep_ in ("prt", "advmod") or
               _low(c) in ("in", "inside") and c.dep_ == "prep" and not any(p.dep_ == "pobj" for p in c.children)
               for c in verb.children)


# ... and of a put into what another part of the utterance opened ("open the fridge. put the milk in it": parts.py)
OPENED_BEFORE_NOTE = "put inside {thing}, opened before"
STEP_NOTE_STARTS = (STEP_NOTE.split("{")[0], PREPARING_NOTE.split("{")[0], OPENED_BEFORE_NOTE.split("{")[0])


def _inner_part(ref: ObjectRef) -> bool:
    """A shelf, rack or tray named bare ("the top shelf"): no other word says whose."""
    return ref.head in lx.INNER_PARTS and ref.anchor is None and not ref.room and not ref.of_noun \
        and not ref.compound and not ref.owner


# words that stand for a place said before ("open the microwave and put the lime in it")
_PLACE_PRONOUNS = frozenset({"it", "there", "that", "this"})
_OWN_PLACE_WORDS = frozenset({"place", "spot", "position", "home", "location", "where"})
# "did you open the fridge?", "did you manage to put the mug on the shelf?": a question about how an action of
# the robot's went, not a command; the note carries the action's intent and verb ("did you: fetch pick")
DID_YOU_NOTE = "did you: "
EITHER_OR_NOTE = "either-or state question"
_STATE_ALTERNATIVES = "open|opened|closed|shut|on|off|locked|unlocked|clean|dirty|full|empty|wet|dry|hot|cold"
_EITHER_OR = re.compile(rf"\b({_STATE_ALTERNATIVES})\s+or\s+({_STATE_ALTERNATIVES})\b\W*$", re.I)


class Clause(PhraseReader):
    """One sentence being read: finds the clause that carries the request, then its parts."""

    def __init__(self, sent: Any, raw: str) -> None:
        super().__init__(sent, raw)
        self.polite = any(_low(t) in ("please", "kindly") for t in sent) or sent[0].tag_ == "MD"
        self.unwrapped = False
        self.outer_question = False

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
            clause = re.sub(r"^(?:after|once|when)\s+", "", clause, flags=re.I)  # "after Ben made coffee - then what?"
            if clause:
                return self._req(Kind.question, Intent.around, actor=self._actor(sent.root),
                                 time=TimeRef(relation="after", clause=clause))
        counted = self._count_command(sent)
        if counted is not None:
            return counted
        tagged = self._tag_question(sent.root)
        if tagged is not None:  # "I left the fridge open, didn't I?": the question is the clause before the tag
            inner = self._unwrap(tagged)
            return self._yes_no(inner, inner)
        remark = _lemma(sent.root) in lx.WRAPPER_VERBS and self._subject_word(sent.root) in ("i", "we")
        root = self._unwrap(sent.root)
        lead = self._leading_verb(sent)
        # "look for my wallet, I think it's in the hallway": a command first, then a remark about it
        if lead is not None and (not self.unwrapped or remark and lead.i < sent.root.i) and \
                (lead != root or root.tag_ != "VB"):
            return self._command(lead)
        inner = self._clause_command(sent, root)
        if inner is not None:
            return self._command(inner)
        return self._read(root)

    def _count_command(self, sent: Any) -> Request | None:
        """"count the plates in the cupboard", "can you count how many cups are in the sink": a count asked
        as a command."""
        verb = next((t for t in sent if _lemma(t) == "count" and t.pos_ == "VERB"), None)
        if verb is None or self._subject_word(verb) not in ("", "you"):
            return None
        inner = [c for c in verb.children if c.dep_ in ("ccomp", "xcomp", "advcl")
                 and any(_low(t) == "how" for t in c.subtree)]
        if inner:
            wh = next(t for t in inner[0].subtree if _low(t) == "how")
            return self._count(inner[0], wh)
        objs = self._things(verb)
        if not objs:
            return None
        obj = objs[0]
        obj.determiner = "all"
        place = self._place_of(verb, skip=None)
        if place is not None and obj.anchor is None and place[1].text not in obj.text:
            obj.anchor = Anchor(relation=place[0], ref=place[1])  # type: ignore[arg-type]
        return self._req(Kind.question, Intent.count, objects=[obj])

    def _tag_question(self, root: Any) -> Any | None:
        """The clause a tag question asks about, when the parser made the tag ("did I?", "isn't it?") the root."""
        if _lemma(root) not in ("do", "be", "have", "can", "will", "would", "could", "should") or \
                not self.sent.text.rstrip().endswith("?"):
            return None
        subj = [c for c in root.children if c.dep_ == "nsubj" and c.i > root.i and c.pos_ == "PRON"]
        before = [c for c in root.children if c.dep_ in ("ccomp", "advcl") and c.i < root.i and c.pos_ in ("VERB", "AUX")
                  and any(g.dep_ in ("nsubj", "nsubjpass", "expl") for g in c.children)]  # not "have a look, would you?"
        return before[0] if subj and before else None

    def _clause_command(self, sent: Any, root: Any) -> Any | None:
        """"the remote was fine where it was, put it back", "I spilled something, bring me a cloth": a
        command verb opening a later clause (after a comma, "and", "so", "then") is the request."""
        if root.tag_ == "VB" and _lemma(root) in lx.COMMAND_VERBS:
            return None
        toks = list(sent)
        for t in toks:  # "could you put the iron back, it's cooled down now": the parser hung the request on the remark
            if t != root and _lemma(t) in lx.COMMAND_VERBS and t.pos_ == "VERB" and _lemma(t) not in lx.WRAPPER_VERBS and \
                    any(c.tag_ == "MD" for c in t.children) and any(_low(c) == "you" and c.dep_ == "nsubj"
                                                                   for c in t.children):
                return t
        for k, t in enumerate(toks[1:], start=1):
            before = toks[k - 1]
            opens = before.is_punct and before.text in (",", ";", "-", ":") or _low(before) in ("and", "so", "then",
                                                                                              "please", "now")
            if opens and _lemma(t) in lx.COMMAND_VERBS and (t.tag_ in ("VB", "VBD", "VBP", "NN") or t.tag_ == "JJ"
                                                            and k + 1 < len(toks) and toks[k + 1].pos_ in ("PRON",
                                                                                                       "DET")) and \
                    t.pos_ != "AUX" and k + 1 < len(toks) and not toks[k + 1].is_punct:
                return t  # "close" read as an adjective in "..., close it"
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
            if _lemma(root) == "mean" and any(c.dep_ == "auxpass" for c in root.children):
                break  # "where's the blender meant to go": a passive, not "I mean ..."
            if _lemma(root) in ("want", "need") and self._subject_word(root) not in ("i", "we", "you", ""):
                break  # "the magazine needs putting away": the thing needs it, see _statement
            if _lemma(root) in ("want", "need", "like", "love") and self._subject_word(root) in ("i", "we") \
                    and not any(c.dep_ in ("nsubj", "dobj") and _low(c) == "you" for c in inner[0].children) \
                    and _lemma(inner[0]) not in set(lx.COMMAND_VERBS) | _KNOWING:  # "I want to know how many ..."
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
        said_first = next((t for t in self.sent if not t.is_punct and t.dep_ not in ("intj", "discourse")), first)
        if _low(said_first) == "did" and subj == "you" and lemma in lx.COMMAND_VERBS and lemma not in lx.SEE_VERBS \
                and lemma not in ("find", "get", "have"):
            objs = self._things(root)
            return self._req(Kind.question, Intent.robot_did, objects=objs, destination=self._destination(root, objs),
                             actor="robot", notes=[f"{DID_YOU_NOTE}{lx.COMMAND_VERBS[lemma].value} {lemma}"])
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
                if obj.determiner in ("any", "a", "some") or (self.sent.text.strip().endswith("?") and (
                        obj.room or obj.anchor is not None)):
                    # "washer in the bathroom?", "the mug on the desk?": whether it is there, a yes or a no
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
        if w == "what" and lemma in ("go", "happen") and any(_low(t) == "wrong" for t in root.children):
            # "what went wrong with the drawer?": what happened to it, not where it goes
            return self._req(Kind.question, Intent.happened_to, objects=self._things(root, exclude={wh}))
        goes = self._goes_where(root, w, lemma)
        if goes is not None:
            return goes
        habitual = self._habitual(root) or (self._aux(root) == "do" and self._aux_tense(root) in ("VBZ", "VBP")
                                            and time is not None and time.relation in ("after", "before"))
        thing_subject = subj_tok is not None and subj_tok.pos_ == "NOUN" and _low(subj_tok) not in lx.ROOM_WORDS
        if w == "where" and lemma in lx.GO_VERBS | {"belong", "live"} and thing_subject and (
                habitual or root.tag_ in ("VBZ", "VBP") and not self._aux(root)):
            # "where would the mug normally go?", "tell me where the mug goes": where a thing belongs
            return self._req(Kind.question, Intent.goes_where, objects=self._things(root))
        if habitual and w in ("how", "what", "where", "which", "when") and self._actor(root) not in ("robot", "speaker"):
            return self._req(Kind.question, Intent.habit, objects=self._things(root), time=time)
        if w == "where" and lemma in _PLACE_USES and self._subject_word(root) in ("i", "we", "one", "you") and \
                not any(c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") and not any(
                    g.dep_ == "poss" for g in c.children) for c in root.children):
            # "where can I sit down", "where could we eat", "where can I wash my hands": a place with that use
            obj = ObjectRef(text=self.sent.text, head="somewhere", purpose=lemma)
            return self._req(Kind.question, Intent.where, objects=[obj], verb=lemma,
                             notes=["where to do something: a place with that use"])
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
            if (lemma in _PLACE_USES | {"clean", "charge", "store", "wipe", "cut", "heat", "call"} or (
                    lemma not in _LOCATING | _KNOWING and root.pos_ == "VERB" and self._aux(root) in _MODAL_ASKING
                    and self._aux_tense(root) != "VBD")) and self._subject_word(root) in ("i", "we", "one", "you"):
                # "where can I throw away this wrapper?", "where could we charge the phone?": any doing that is
                # not finding or leaving a thing asks for a place that serves it (``uses.py`` reads which)
                obj = ObjectRef(text=self.sent.text, head="somewhere", purpose=lemma)
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
            if lemma in lx.SEE_VERBS and self._passive_of(root, set(lx.SEE_VERBS)):  # "... last spotted?"
                moment = "first" if any(_low(t) == "first" for t in root.subtree) else "last"
                return self._req(Kind.question, Intent.when_seen, objects=self._things(root),
                                 time=TimeRef(moment=moment))
            return self._req(Kind.question, Intent.when_did, objects=self._things(root),
                             actor=self._actor(root), verb=lemma, time=TimeRef(clause=self._clause_text(root)))
        if w == "how" and nxt is not None and _low(nxt) == "long" and lemma in lx.SEE_VERBS and \
                self._actor(root) == "robot":  # "how long ago did you see the scissors?"
            return self._req(Kind.question, Intent.when_seen, objects=self._things(root), time=TimeRef(moment="last"))
        if w == "how" and any(_low(t) in ("many", "much") for t in wh.head.subtree if t.i <= wh.i + 2):
            return self._count(root, wh)
        if w in ("what", "which"):
            return self._what(root, wh, subj_tok, time)
        if w == "whose":  # "whose scarf is on the sofa?": the owner of the thing placed so
            objs = self._things(root)
            place = self._place_of(root)
            if objs and place is not None and objs[0].anchor is None and place[1].text not in objs[0].text:
                _attach(objs[0], Anchor(relation=place[0], ref=place[1]))
            for o in objs:
                o.owner = "" if o.owner == "whose" else o.owner
            return self._req(Kind.question, Intent.which, objects=objs[:1], attribute="owner")
        if w == "who":
            return self._req(Kind.question, Intent.when_did, objects=self._things(root), verb=lemma,
                             time=TimeRef(clause=self._clause_text(root)), notes=["who: answered with the event"])
        if w == "how":
            if lemma == "be" and any(_low(t) in ("look", "doing") for t in root.subtree):
                return self._req(Kind.question, Intent.state, objects=self._things(root))
            if self._actor(root) == "speaker" and lemma not in _LOCATING | _KNOWING and root.pos_ == "VERB" and \
                    self._aux(root) in _MODAL_ASKING:
                # "how can I warm up dinner?": what in the home serves that doing (``uses.py``)
                obj = ObjectRef(text=self.sent.text, head="something", purpose=lemma)
                return self._req(Kind.question, Intent.exists, objects=[obj], verb=lemma,
                                 notes=["how to do something: the things with that use"])
            if self._actor(root) in ("robot", "speaker"):
                return self._req(Kind.question, Intent.unknown, notes=["how-to questions about skills"])
            return self._req(Kind.question, Intent.habit, objects=self._things(root), time=time)
        if w == "why" and self._subject_word(root) == "you" and lemma in lx.COMMAND_VERBS:
            # "why couldn't you open the drawer?": how that action went and why; never a command to do it
            objs = self._things(root)
            return self._req(Kind.question, Intent.robot_did, objects=objs, destination=self._destination(root, objs),
                             actor="robot", notes=[f"{DID_YOU_NOTE}{lx.COMMAND_VERBS[lemma].value} {lemma}"])
        return self._req(Kind.question, Intent.unknown, notes=[f"question word {w!r} not handled"])

    def _goes_where(self, root: Any, w: str, lemma: str) -> Request | None:
        """Where a thing belongs, said without "where does X go": "where are the bulbs usually kept" (kept is
        where it goes, not a habit), "where does the grey blanket belong" with "belong" tagged a noun, "the
        usual spot for the leash", "which drawer do the tea towels go in"."""
        subject = self._subject_word(root)
        past = any(c.dep_ in ("aux", "auxpass") and _low(c) in ("had", "was", "were", "did", "been", "has", "have")
                   for c in root.children)  # "where had it been sitting": where it was, not where it goes
        if w == "where" and lemma in lx.GO_VERBS and subject in ("it", "they", "these", "those", "this", "that") \
                and not past:
            # "where do they usually go?": the things of the last request, not a habit of someone called they
            plural = subject in ("they", "these", "those")
            ref = ObjectRef(text=subject, pronoun="them" if plural else "it", plural=plural)
            return self._req(Kind.question, Intent.goes_where, objects=[ref])
        if w == "where" and lemma in ("keep", "store") and (self._passive_of(root, {"keep", "store"}) or subject and
                                                            subject not in lx.SPEAKER_WORDS | lx.ROBOT_WORDS):
            return self._req(Kind.question, Intent.goes_where, objects=self._things(root))
        doc = self.sent.doc
        if w == "where" and root.pos_ in ("NOUN", "PROPN") and _low(root) in lx.GO_VERBS and root.i > 0 and \
                doc[root.i - 1].pos_ in ("NOUN", "PROPN", "ADJ"):
            obj = self._object(doc[root.i - 1])
            said = [t for t in root.children if t.dep_ in ("amod", "compound") and t.i < root.i - 1
                    and _low(t) not in obj.text.lower().split()]
            obj.compound = [_low(t) for t in said] + obj.compound  # "the salad spinner": "salad" hung on the verb
            return self._req(Kind.question, Intent.goes_where, objects=[obj])
        if w in ("where", "what"):
            for t in root.subtree:
                if _lemma(t) in ("spot", "place", "home", "location") and t.dep_ in ("nsubj", "attr", "dobj"):
                    held = [p for c in t.children if c.dep_ == "prep" and _low(c) == "for"
                            for p in c.children if p.dep_ == "pobj"]
                    if held:  # "what's the right place for the umbrella"
                        return self._req(Kind.question, Intent.goes_where, objects=[self._object(held[0])])
        if w in ("which", "what") and lemma in ("go", "belong", "live") and \
                not any(c.dep_ == "prep" and _low(c) == "to" for c in root.children):  # "belongs to Anna": whose
            subj = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
            if subj:  # "which drawer do the tea towels go in"
                return self._req(Kind.question, Intent.goes_where, objects=[self._object(subj[0])])
        return None

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
            objs = self._things(root, exclude={wh_noun})
            if time is not None:  # "which room was the lime in before?": where it was then
                return self._req(Kind.question, Intent.where, objects=objs, time=time)
            return self._req(Kind.question, Intent.what_room, objects=objs)
        stranded = [c for c in root.children if c.dep_ == "prep" and not list(c.children)
                    and lx.SPATIAL_PREPS.get(_low(c)) in ("on", "in")]
        if wh_noun is not None and lemma == "be" and stranded and wh_noun.i < root.i:
            # "which spot in the bathroom is the umbrella on", "which shelf is the book on": where the thing is
            objs = [o for o in self._things(root, exclude={wh_noun}) if o.head not in lx.ROOM_WORDS]
            if objs:
                rooms = [a for c in wh_noun.children if c.dep_ == "prep" and (a := self._anchor(c)) is not None
                         and a.ref.head in lx.ROOM_WORDS]
                if rooms and objs[0].anchor is None:
                    objs[0].anchor = Anchor(relation="in", ref=rooms[0].ref)
                return self._req(Kind.question, Intent.where, objects=objs[:1], time=time)
        if lemma in ("happen", "go") and any(_low(c) in ("to", "with") for c in root.children if c.dep_ == "prep"):
            return self._req(Kind.question, Intent.happened_to, objects=self._things(root))
        if time is not None and time.relation in ("before", "after") and time.clause:
            actor = self._actor(root) if lemma == "do" else ""
            return self._req(Kind.question, Intent.around, actor=actor, time=time)
        if self._actor(root) == "robot" and (lemma in ("do", "get", "manage", "accomplish", "achieve", "try") or (
                lemma == "be" and any(_low(t) == "up" for t in root.subtree)) or wh_noun_word in (
                "job", "task", "chore", "thing", "work")):
            return self._req(Kind.question, Intent.robot_did, time=time, actor="robot")
        subject = self._subject_word(root)
        to_verbs = [t for t in root.subtree if t != root and t.pos_ == "VERB" and
                    any(c.dep_ == "aux" and _low(c) == "to" for c in t.children) and
                    not any(c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") for c in t.children)]
        stranded = any(c.dep_ == "prep" and _low(c) in ("with", "on", "in") and
                       all(_low(g) in lx.WH_WORDS for g in c.children) for c in root.children)
        if to_verbs and lemma in ("be", "have", "get", "use", "need", "find") and subject in ("i", "we", "one", "you",
                                                                                        "there", ""):
            # "what is there to read?", "what have we got to cook with?", "what can I use to dry off?"
            obj = ObjectRef(text=self.sent.text, head="something", purpose=_lemma(to_verbs[0]))
            return self._req(Kind.question, Intent.exists, objects=[obj])
        if stranded and subject in ("i", "we", "one") and self._aux(root) in ("can", "could", "should", "do") \
                and lemma not in ("be", "have", "do", "get"):
            # "what can I cook with?", "what could I write on?"
            obj = ObjectRef(text=self.sent.text, head="something", purpose=lemma)
            return self._req(Kind.question, Intent.exists, objects=[obj])
        if lemma in _PURPOSE_VERBS and self._subject_word(root) in ("i", "we", "one") and wh.dep_ == "dobj":
            # "what can I eat?", "what could we read?": things with that use
            obj = ObjectRef(text=self.sent.text, head="something", purpose=lemma)
            return self._req(Kind.question, Intent.exists, objects=[obj])
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
            for c in root.children:  # "what's on the desk in the living room": the room says which desk
                if c.dep_ == "prep" and lx.SPATIAL_PREPS.get(_low(c)) == "in" and rel != "in":
                    room = self._anchor(c)
                    if room is not None and room.ref.text not in ref.text:
                        _attach(ref, room)
            return self._req(Kind.question, Intent.contents, objects=[ref], destination=Anchor(relation=rel, ref=ref))
        if lemma in ("be",) and subj_tok is not None and subj_tok is not wh:
            return self._req(Kind.question, Intent.where, objects=self._things(root), notes=["what is X: where"])
        if (lemma == "be" and subject == "there" or lemma in ("have", "get") and subject in ("we", "you", "i")) and \
                wh.dep_ in ("attr", "dobj", "nsubj"):
            # "I fancy reading something, what is there?": anything, for the use said before (see parser)
            obj = ObjectRef(text=self.sent.text, head="something", determiner="any")
            return self._req(Kind.question, Intent.exists, objects=[obj], notes=["what is there: for what?"])
        return self._req(Kind.question, Intent.unknown, notes=["a what-question I could not read"])

    def _which(self, root: Any, noun: Any) -> Request:
        named = [c for c in root.children if c.dep_ == "attr" and c.pos_ in ("NOUN", "PROPN") and c != noun]
        if _low(noun) in ("one", "ones") and named:
            # "which one is Anna's glass?": the thing is named after the verb, and whose it is with it
            obj = self._object(named[0], with_preps=False)
            owner, obj.owner = obj.owner, ""
            return self._req(Kind.question, Intent.which, objects=[obj], recipient=owner,
                             notes=[] if owner or obj.modifiers else ["which: no criterion"])
        obj = self._object(noun, with_preps=False)
        rest = [t for t in root.children if t.dep_ in ("acomp", "attr", "prep", "advmod", "ccomp", "oprd",
                                                        "agent", "dobj", "xcomp") and t != noun]
        state = ""
        anchor = None
        owner = ""
        for t in rest:
            if t.dep_ == "prep" or _low(t) in lx.SPATIAL_PREPS:
                a = self._anchor(t)
                if a is not None and anchor is None:
                    anchor = a
                elif a is not None:  # "on the chair in the hallway": the second place is where the first is
                    if anchor.ref.head in lx.ROOM_WORDS and anchor.ref.anchor is None and a.ref.head not in lx.ROOM_WORDS:
                        anchor, a = a, anchor  # "in the kitchen on the table": the table is in the kitchen
                    _attach(anchor.ref, a)
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
        for t in rest:  # "which folder is the one beside the cabinet", "... the one that's in the cabinet"
            if t.dep_ == "attr" and _low(t) in ("one", "ones") and anchor is None:
                for p in [*t.children, *(g for c in t.children if c.dep_ in ("relcl", "acl") for g in c.children)]:
                    if p.dep_ in ("prep", "advmod", "amod") and anchor is None:
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
        if after and _low(after[0]) == "of":  # "how many of Mia's toys"
            after = [p for p in after[0].children if p.dep_ == "pobj"] + after[1:]
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
        # "is the fridge open or closed", "is the TV on or off": either-or, answered with the state word
        pair = _EITHER_OR.search(self.sent.text)
        if pair is not None and things and lx.STATE_WORDS[pair.group(1).lower()] in state_family(
                lx.STATE_WORDS[pair.group(2).lower()]):
            state = lx.STATE_WORDS[pair.group(1).lower()]
            for o in things:
                o.modifiers = [m for m in o.modifiers if m not in (pair.group(1).lower(), pair.group(2).lower())]
                o.text = re.sub(rf"\s+(?:{pair.group(1)}|{pair.group(2)})\b.*$", "", o.text, flags=re.I) or o.text
            return self._req(Kind.question, Intent.state, objects=things, state=state, notes=[EITHER_OR_NOTE])
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
        if lemma in _MOVING_VERBS and things and subj not in ("i", "we"):
            # "did someone move the mug?", "has anyone touched my keys?": what happened to it
            return self._req(Kind.question, Intent.happened_to, objects=things)
        if lemma == "be" and (subj == "it" or any(_low(c) in ("able", "possible", "ok", "okay", "safe")
                                                   for c in root.children if c.dep_ in ("acomp", "attr"))):
            inner = [c for c in root.subtree if c.dep_ in ("xcomp", "ccomp") and _lemma(c) in ("open", "use", "reach",
                                                                                             "access", "get", "close")]
            if inner:  # "is it possible to open the cabinet?", "is the toaster okay to use?"
                return self._req(Kind.question, Intent.usable, objects=self._things(inner[0]) or things)
        if lemma in ("open", "close", "work", "function", "lock", "unlock") and things and \
                subj not in ("i", "we", "you", "one", "") and not self._passive_of(root, {lemma}) and \
                not (_lemma(first) == "be" and first.i < root.i):  # "is the window closed": closed read as a past tense
            return self._req(Kind.question, Intent.usable, objects=things)  # "does the bin open?"
        # "can the drawer be opened", "can I use the oven", "does the microwave work", "is X usable"
        words = {_low(t) for t in root.subtree} | {_lemma(t) for t in root.subtree}
        # "is the microwave (still) opened?" asks its state, as "is it open?" does; "can it be opened?" (a modal
        # before the passive) asks whether it can be
        opened_state = lemma == "open" and _low(root) == "opened" and \
            any(c.dep_ == "auxpass" and _low(c) in ("is", "are", "'s", "am") for c in root.children) and \
            not any(c.tag_ == "MD" for c in root.children) and not words & {"able", "possible", "can", "could"}
        if not opened_state and (lemma in ("open", "use", "reach", "access", "work", "function", "operate") and
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
        if not state and lemma == "be" and things:
            # "is the washing machine running?", "are the curtains open in the living room?": the state word
            # hung on the subject, after it
            subj_tok = self._subj_tok(root)
            after = [c for c in (subj_tok.children if subj_tok is not None else ()) if c.i > subj_tok.i
                     and c.dep_ in ("amod", "acl", "acomp") and _low(c) in lx.STATE_WORDS]
            if after:
                state = lx.STATE_WORDS[_low(after[0])]
                things[0].modifiers = [m for m in things[0].modifiers if m != _low(after[0])]
        last = next((t for t in reversed(list(self.sent)) if not t.is_punct), None)
        if not state and lemma == "be" and last is not None and last != root and _low(last) in lx.STATE_WORDS and \
                _low(last) not in ("on", "off", "free", "dry", "hot", "cold", "lock") and last.i > root.i:
            # "is the microwave shut": the state word said last, whatever the tagger made of it
            state = lx.STATE_WORDS[_low(last)]
            things = [o for o in things if o.head != _low(last)] or self._things(root, exclude={last})
            for o in things:
                o.modifiers = [m for m in o.modifiers if m != _low(last)]
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
            particle = next((_low(c) for c in root.children if c.dep_ == "prt" and _low(c) in ("on", "off")), "")
            if particle and _lemma(root) in ("turn", "switch", "leave", "shut"):
                return lx.STATE_WORDS[particle]  # "is the oven turned off", "was the TV left on"
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
             and (c.head.i in near_verb or c.head.head == root and _low(c.head) in ("there", "here", "please"))}
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
        if intent is Intent.find and lemma == "find" and any(
                c.dep_ in ("dative", "iobj", "dobj", "nsubj") and _low(c) in ("me", "us") for c in children) and any(
                _low(t) in ("something", "anything") for t in root.subtree
                if t.dep_ in ("dobj", "ccomp", "attr", "oprd")):
            # "find me something to eat": an open thing found for someone is brought; "find me the juice" is
            # said by people who want it found (a find), so a named thing stays a find
            intent = Intent.fetch
        conj_verbs = [c for c in children if c.dep_ == "conj" and c.pos_ == "VERB"]
        # "open the refrigerator and place the lime inside": the tagger may hang the second command on the
        # first one's object, as if "place" were a second thing opened
        conj_verbs += [g for c in children if c.dep_ == "dobj" for g in c.children
                       if g.dep_ == "conj" and g.pos_ == "VERB" and _lemma(g) in lx.COMMAND_VERBS]
        if intent is None:
            for c in conj_verbs:  # "go and get the apple"
                if _lemma(c) in lx.COMMAND_VERBS:
                    return self._command(c)
            for c in [*children, *(d for v in conj_verbs for d in v.children)]:
                if c.dep_ in ("ccomp", "xcomp", "advcl") and _lemma(c) in lx.COMMAND_VERBS:
                    return self._command(c)  # "see if you can find the pear"
            going = {_low(c) for c in children if c.dep_ in ("prt", "advmod")} & {
                "over", "across", "round", "around", "back", "down", "up", "out"}
            motion = [c for c in children if c.dep_ == "prep" and any(p.dep_ == "pobj" for p in c.children) and (
                _low(c) in ("into", "towards", "toward") or _low(c) == "to" and (going or any(
                    _low(p) in lx.ROOM_WORDS for p in c.children if p.dep_ == "pobj")))]
            if (motion or going) and objs and root.pos_ == "VERB" and any(c.dep_ == "dobj" for c in children):
                # "run the pear over to Ben", "zip the keys across to the hall": a verb of going said with a thing
                # as its object carries the thing to where the path ends
                who = self._recipient(root)
                dest = self._anchor(motion[0]) if motion else None
                if who or dest is not None:
                    return self._req(Kind.command, Intent.fetch, objects=objs, recipient=who,
                                     destination=None if who or dest is None else Anchor(relation="at", ref=dest.ref),
                                     notes=[f"'{lemma}' read as carrying (a path, a thing)"])
            if motion and not objs and root.pos_ == "VERB":
                # "nip into the living room", "scoot over to the fridge": a verb of going said with a word the
                # lexicon lacks; nothing is carried, so it is a go to where the path ends
                dest = self._anchor(motion[0])
                if dest is not None:
                    return self._req(Kind.command, Intent.go, destination=Anchor(relation="at", ref=dest.ref),
                                     notes=[f"'{lemma}' read as going (a path, nothing carried)"])
            return self._req(Kind.command, Intent.unknown, objects=objs,
                             notes=[f"I do not know how to {lemma}"])
        # a second command verb decides: "open the fridge and get me the milk" is a fetch
        for c in conj_verbs:
            ci = lx.COMMAND_VERBS.get(_lemma(c))
            if ci in (Intent.fetch, Intent.put, Intent.put_away) and intent in (Intent.open, Intent.go, Intent.find) or \
                    ci is Intent.put and lemma in _PREPARING_VERBS:  # "clean the toy and put it on the table"
                req = self._command(c)
                req.notes.append(PREPARING_NOTE.format(verb=lemma, intent=ci.value) if lemma in _PREPARING_VERBS
                                 else STEP_NOTE.format(verb=lemma))
                if intent is Intent.open and req.intent is Intent.put and objs and (
                        req.destination is None or _inner_part(req.destination.ref)
                        or (req.destination.ref.pronoun or req.destination.ref.head) in _PLACE_PRONOUNS
                        and req.destination.ref.anchor is None
                        # "open the toilet, put the radio in directly behind the bottle": in it, the spot where
                        or req.destination.relation in lx.BESIDE_RELATIONS and _inside_said(c)):
                    # "open the cupboard and put the jug inside", "open the fridge and put the lime on the top
                    # shelf", "open the microwave and put the lime in it": inside what was opened (a shelf, rack
                    # or tray named bare is the opened thing's own; "it" is the thing just opened)
                    req.destination = Anchor(relation="in", ref=objs[0])
                went = self._destination(root, objs) if intent is Intent.go else None
                if went is not None and went.ref.head in lx.ROOM_WORDS and req.objects and \
                        req.objects[0].anchor is None and not req.objects[0].room:
                    # "go to the bedroom and bring me the umbrella": the umbrella in the bedroom
                    req.objects[0].anchor = Anchor(relation="in", ref=went.ref)
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
                                                   Intent.close) or intent is Intent.go and \
                        lx.COMMAND_VERBS[_lemma(c)] is Intent.find:  # "go find the globe"
                    return self._command(c)
        usual = {_low(t) for t in root.subtree} & {"belongs", "belong", "goes", "lives", "usual", "usually",
                                                   "normally", "proper", "properly", "home"}
        if any(_lemma(t) in lx.GO_VERBS and any(_low(c) == "where" for c in t.children) for t in root.subtree):
            usual.add("where it goes")  # "put my keys where they go"
        if "away" in particles and intent in (Intent.put, Intent.fetch, Intent.put_away):
            intent = Intent.put_away
        elif usual and intent in (Intent.put, Intent.put_back) and ("back" in particles or lemma == "return" or
                                                                    not self._destination(root, objs)):
            intent = Intent.put_away  # "put the blender back where it belongs", "in its usual spot"
        elif intent is Intent.put_away and lemma == "clean" and not ({"up", "away"} & particles):
            intent = Intent.put_away
        elif "back" in particles and intent in (Intent.put, Intent.fetch) or lemma == "return" and not \
                self._destination(root, objs):
            said = self._destination(root, objs) if intent in (Intent.put, Intent.fetch) else None
            # "bring it back to me", "carry them back here": back to the speaker, a fetch, not a put back
            to_someone = intent is Intent.fetch and (bool(self._recipient(root)) or
                                                     any(_low(t) == "here" for t in root.subtree))
            if not to_someone and (said is None or said.ref.head in _OWN_PLACE_WORDS or said.ref.pronoun):
                intent = Intent.put_back  # "put the book back on the shelf": where it goes is said, a put there
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
        for o in objs:  # "bring the coffee pot and the lime to me": the tagger hung "to me" on the last thing
            if o.anchor is not None and o.anchor.relation == "at" and o.anchor.ref.head.lower() in ("me", "us"):
                o.anchor, recipient = None, recipient or "speaker"
        if intent is Intent.fetch and len(objs) > 1 and not recipient and self._is_name(objs[0]):
            # "bring Anna the radio", "give Ben the keys": a name before the thing is whom it is for
            recipient, objs = objs[0].head, objs[1:]
        if recipient in ("him", "her", "them"):
            owners = [o.owner for o in objs if o.owner and o.owner not in ("speaker", "robot")]
            if owners:  # "take Anna's glass to her"
                recipient = owners[0]
        if intent is Intent.fetch and dest is None and recipient == "speaker" and objs and objs[0].anchor is not None \
                and objs[0].anchor.relation == "at" and self._is_name(objs[0].anchor.ref):
            # "hand the teddy to Anna for me": Anna gets it, the speaker asks the favour
            recipient, objs[0].anchor = objs[0].anchor.ref.head, None
        if intent in (Intent.fetch, Intent.put) and dest is None and not recipient and objs and \
                objs[0].anchor is not None and objs[0].anchor.relation == "at" and objs[0].anchor.ref.anchor is None:
            # "bring the car keys to Anna, she's on the balcony": "to Anna" hung on the keys is where they go
            dest, objs[0].anchor = objs[0].anchor, None
            if not dest.ref.determiner and not dest.ref.owner and not dest.ref.compound:
                recipient = dest.ref.head  # a name: grounding decides whether it is a person or a place
        if intent is Intent.fetch and dest is not None and not recipient:
            for c in conj_verbs:  # "take the mug on top of the table and place it in the sink": the first place
                if lx.COMMAND_VERBS.get(_lemma(c)) is Intent.put:  # is where it is, the second where it goes
                    second_dest = self._destination(c, objs)
                    if second_dest is not None and not self._recipient(c):
                        if objs and objs[0].anchor is None:
                            objs[0].anchor = dest
                        dest, intent = second_dest, Intent.put
                        break
        if intent is Intent.fetch and dest is None and not recipient:
            for c in conj_verbs:  # "grab the blanket off the sofa and bring it to the bedroom"
                second = lx.COMMAND_VERBS.get(_lemma(c))
                if second in (Intent.fetch, Intent.put):
                    dest, recipient = self._destination(c, objs), self._recipient(c)
                    if second is Intent.put and dest is not None and not recipient:
                        intent = Intent.put  # "get the juice and put it in the fridge": taken there, not to me
                    if dest is not None or recipient:
                        break
        moving = any(_low(c) in ("into", "onto", "to", "toward", "towards") for c in children if c.dep_ in ("prep",
                                                                                                     "dative"))
        if intent is Intent.fetch and dest is not None and moving and recipient == "speaker" and \
                not any(self._recipient_of(c) == "speaker" and _low(c) not in ("for",) for c in children):
            # "carry the radio into the kitchen for me": "for me" asks a favour; where it goes is the kitchen
            recipient = ""
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
        if intent is Intent.fetch and not objs and lemma in ("give", "hand", "pass") and (recipient or dest is not None):
            # "teddy bear, give to Ben": a handing-over names its thing elsewhere (``parts`` fills "it")
            who = recipient or (dest.ref.head if dest is not None and not dest.ref.determiner else "")
            if who:
                return self._req(Kind.command, Intent.fetch, objects=[ObjectRef(text="it", pronoun="it")],
                                 recipient=who)
        if intent in (Intent.put, Intent.fetch) and not objs and (dest is not None or lemma in ("move", "stand")):
            intent = Intent.go  # "move to the bedroom", "stand by the washer"
        if intent is Intent.put and dest is None and objs and lemma in ("stow", "store", "stash") and not particles:
            intent = Intent.put_away  # "stow the magazine": where it is kept
        if intent is Intent.put_away:
            # "put the apple away in a drawer": the place said is kept (the planner puts it there); "away in
            # its usual spot" names no place
            said = dest if dest is not None and dest.ref.head not in _OWN_PLACE_WORDS else None
            return self._req(Kind.command, Intent.put_away, objects=objs, destination=said)
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
        if intent is Intent.put and dest is not None and objs:
            self._room_after_destination(objs[0], dest)
        return self._req(Kind.command, intent, objects=objs, destination=dest, recipient=recipient)

    def _room_after_destination(self, obj: ObjectRef, dest: Anchor) -> None:
        """"put the radio on the bathroom counter in the bathroom": a room said after the destination is where
        the destination is, not where the thing is ("put the mug in the kitchen on the table" keeps it)."""
        anchor = obj.anchor
        if anchor is None or anchor.relation != "in" or dest.ref.room or \
                anchor.ref.head.lower() not in lx.ROOM_WORDS or anchor.ref.anchor is not None:
            return
        text = self.sent.text.lower()
        at_room, at_dest = text.rfind(anchor.ref.text.lower()), text.find(dest.ref.text.lower())
        if at_room < 0 or at_dest < 0 or at_room < at_dest + len(dest.ref.text):
            return
        dest.ref.room = re.sub(r"^(?:the|a|an|my|our|this|that)\s+", "", anchor.ref.text.lower()).strip()
        obj.anchor = None

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
            held_in = [a for a in found if a.relation in ("in", "inside", "into") and
                       a.ref.head not in lx.ROOM_WORDS | lx.HOME_WORDS | lx.INNER_PARTS | lx.SPOT_WORDS]
            if held_in and any(a.ref.head in lx.INNER_PARTS for a in found):
                # "place the lime on the top shelf in the fridge, near the middle": a shelf in a container
                dest = held_in[-1]
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
                if c.dep_ == "prep" and (_low(c) in ("on", "onto", "in", "into", "inside", "under", "beside") or _low(c) == "to"
                                         and lemma in ("move", "take", "carry") and _low(c.head) != "next"
                                         and _verb_of(c).i == root.i):  # not a later verb's "move to the table"
                    a = self._anchor(c)
                    if a is not None and (not objs or a.ref.text not in objs[0].text):
                        return a
        return None

    def _is_person_word(self, ref: ObjectRef) -> bool:
        return ref.head in ("me", "I", "us", "we") or ref.owner == "" and ref.head in ("person",)

    def _is_name(self, ref: ObjectRef) -> bool:
        """A bare capitalised word ("Anna"), not "the teddy": how people are named."""
        tok = next((t for t in self.sent if _low(t) == ref.head), None)
        return tok is not None and tok.pos_ == "PROPN" and tok.text[:1].isupper() and not ref.determiner and \
            not ref.compound and not ref.modifiers and not ref.owner

    def _recipient(self, root: Any) -> str:
        """Who it is for: "bring me" -> speaker; "to alice", "for bob" -> the name; "to the kitchen" is not a
        recipient but a destination (grounding decides which a name is). "to Anna" beats "for me"."""
        if _lemma(root) in ("look", "search", "hunt", "check"):
            return ""  # "look for my glasses": what to look for, not whom for
        said = [self._recipient_of(c) for c in root.children]
        # "take the keyboard along to Ben", "run it over to Ben": the tagger hangs "to Ben" on the particle
        said += [self._recipient_of(g) for c in root.children
                 if c.dep_ in ("prt", "advmod", "prep") and _low(c) in _PARTICLES for g in c.children]
        # "hand the teddy bear to Anna": the tagger may hang "to Anna" on the thing
        said += [_low(p) for o in root.children if o.dep_ in ("dobj", "ccomp") and o.pos_ in ("NOUN", "PROPN")
                 for c in o.children if c.dep_ == "prep" and _low(c) == "to"
                 for p in c.children if p.dep_ == "pobj" and p.pos_ == "PROPN" and not list(p.children)]
        said = [s for s in said if s]
        named = [s for s in said if s != "speaker"]
        return (named or said or [""])[0]

    def _recipient_of(self, c: Any) -> str:
        if c.dep_ == "dative" and c.pos_ == "PROPN":
            return _low(c)  # "give Ben the radio"
        if c.dep_ in ("dative", "iobj") and _low(c) in ("me", "us"):
            return "speaker"
        if c.dep_ in ("dobj",) and _low(c) in ("me", "us") and any(d.dep_ == "dobj" for d in c.head.children if d != c):
            return "speaker"
        if c.dep_ in ("prep", "dative") and _low(c) in lx.RECIPIENT_PREPS:
            for p in c.children:
                if p.dep_ == "pobj":
                    if _low(p) in ("me", "us"):
                        return "speaker"
                    if _low(p) in ("him", "her", "them"):
                        return _low(p)
                    if _low(p) in lx.ROOM_WORDS | lx.HOME_WORDS:
                        return ""  # "bring the globe to kitchen": a place, said without its article
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
            needs = [lx.NEED_STATES[_low(c)] for c in root.children
                     if c.dep_ in ("acomp", "attr") and _low(c) in lx.NEED_STATES]
            if "drink" in needs:
                return self._req(Kind.command, Intent.fetch, recipient="speaker",
                                 objects=[ObjectRef(text=lx.need_text("drink"), head="something", purpose="drink")])
            asked = [t for t in self.sent if t.i != root.i and t.pos_ == "VERB" and
                     lx.COMMAND_VERBS.get(_lemma(t)) is Intent.fetch and self._things(t)]
            if needs and asked:
                return self._command(asked[0])  # "im hungry get me a snack": what was asked for is the request
            if "eat" in needs:
                return self._req(Kind.command, Intent.fetch, recipient="speaker",
                                 objects=[ObjectRef(text=lx.need_text("eat"), head="something", purpose="eat")])
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
            said = self._np_after_det(self.sent.root)  # "what colour is the remote": "remote" tagged an adjective
            if said is not None and said.head not in lx.ATTRIBUTE_NOUNS:
                kw["objects"] = [said]
            else:
                kw["objects"] = [ObjectRef(text="it", pronoun="it")]
                notes = [*notes, "no thing named: the one asked about before"]
        polite = kw.pop("polite", self.polite)
        return Request(text=self.raw, kind=kind, intent=intent, polite=polite, notes=self.notes + list(notes), **kw)


def _verb_of(tok: Any) -> Any:
    """The nearest verb above a token (the token's own clause), or the sentence root."""
    t = tok.head
    while t.pos_ not in ("VERB", "AUX") and t.head.i != t.i:
        t = t.head
    return t
