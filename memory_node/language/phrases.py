"""Reading the parts of a clause: who did it, when, where, and the object phrases with their modifiers.

The lower half of the parser (``parser.py`` reads the whole utterance, ``clause.py`` decides what a clause
asks): given spaCy tokens, build ``ObjectRef``, ``Anchor`` and ``TimeRef``. Much of it repairs what the small
English pipeline gets wrong on household speech (a noun's second word read as a verb, "the remote" read as an
adjective, a place phrase hung on the wrong word), so each repair says which slip it meets.
"""

from __future__ import annotations

from typing import Any

from ..core.text import singular
from . import lexicon as lx
from .request import Anchor, ObjectRef, TimeRef

_SPATIAL_WORDS = frozenset(lx.SPATIAL_PREPS) | {"right", "close", "next"}
_STATE_OR_USABLE = frozenset(lx.STATE_WORDS) | lx.USABLE_WORDS
_NOT_MODIFIERS = frozenset({"please", "kindly", "only", "just", "also", "even", "there", "here", "anywhere", "now",
                            "how", "many", "much", "else", "exactly", "again", "everywhere", "somewhere", "too"})


def _low(tok: Any) -> str:
    return tok.text.lower()


def _lemma(tok: Any) -> str:
    lemma = tok.lemma_.lower()
    return "I" if lemma == "i" else lemma


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


def _noun_read_as_clause(tok: Any) -> bool:
    """A noun the parser made the verb of a clause whose subject is the noun just before it ("any face creams")."""
    return tok.dep_ in ("ccomp", "xcomp") and tok.pos_ == "NOUN" and tok.tag_ in ("NN", "NNS") and any(
        c.dep_ == "nsubj" and c.pos_ == "NOUN" and c.i == tok.i - 1 for c in tok.children)


class PhraseReader:
    """Token-level reading shared by every clause reader."""

    def __init__(self, sent: Any, raw: str) -> None:
        self.sent = sent
        self.raw = raw
        self.notes: list[str] = []
        self.outer_subject: Any = None  # the wrapper's subject ("what did you try to do")
        self._compound_of: dict[int, Any] = {}  # a merged noun head -> the token of the words before it
        self._skip_tokens: set[int] = set()

    def _subject_word(self, verb: Any) -> str:
        for c in verb.children:
            if c.dep_ in ("nsubj", "nsubjpass", "expl"):
                return _low(c)
        if self.outer_subject is not None and verb != self.sent.root:
            return _low(self.outer_subject)
        return ""

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
        scope = list(root.subtree)
        if root.dep_ in ("ccomp", "xcomp") and _lemma(root.head) in lx.WRAPPER_VERBS:
            # "do you know what Ben did after he'd sat down": the tagger hung the time on the wrapper
            scope += [t for c in root.head.children if c.dep_ == "advcl" for t in c.subtree]
        for t in scope:
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
        own = _own_clause_words(root)
        low = [_low(t) for t in root.subtree if t.i in own]
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
        lemmas = {_lemma(t) for t in root.subtree if t.i in own}
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
        # "what is there in the fridge" / "what do we have in the fridge" / "is there a bathroom counter in the bedroom"
        # (the tagger may call a compound name after "is there" an adjective complement)
        for c in verb.children:
            if c.dep_ in ("attr", "dobj", "advmod", "expl", "acomp") and c != skip:
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
            # "do we have any face creams?": the parser read "face creams" as a clause ("face" its subject); a noun
            # whose subject is the noun just before it is one phrase
            heads += [c for c in verb.children if _noun_read_as_clause(c) and c.i not in skip][:1]
        if not heads:
            for t in verb.subtree:
                if t.pos_ in ("NOUN", "PROPN") and t.dep_ in ("nsubj", "nsubjpass", "npadvmod", "dobj", "attr") \
                        and t.i not in skip and _low(t) not in lx.WH_WORDS:
                    heads.append(t)
                    break
        second_word: dict[int, Any] = {}  # a list's last thing -> the word that ends its name
        if heads:
            for v in (verb, verb.head if verb.dep_ == "conj" else None):
                if v is None:
                    continue
                for c in v.children:
                    after_and = c.i > 0 and any(_low(x) == "and" for x in self.sent.doc[heads[-1].i:c.i])
                    if (c.dep_ == "conj" or (after_and and c.dep_ in ("punct", "npadvmod", "dep", "dobj"))) and \
                            c.pos_ in ("NOUN", "PROPN") and c.i > heads[-1].i and \
                            all(c.i != h.i for h in heads) and not any(c.i == x.i for h in heads for x in h.conjuncts):
                        before = self.sent.doc[c.i - 1]
                        if any(before.i == x.i for h in heads for x in h.conjuncts if x.i != h.i) and \
                                not any(d.dep_ == "det" for d in c.children) and \
                                c.lemma_.lower() not in lx.COMMAND_VERBS and c.lower_ not in ("come", "go"):
                            # "grab the mouse and the teddy bear": "bear" hung on the verb ends "the teddy"
                            self._compound_of[c.i] = before
                            second_word[before.i] = c
                            continue
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
            ends_list = nxt is not None and nxt.i > 0 and any(doc[nxt.i - 1].i == c.i for c in h.conjuncts if c.i != h.i) \
                and nxt.lemma_.lower() not in lx.COMMAND_VERBS and nxt.lower_ not in ("come", "go", "here", "there")
            if nxt is not None and (nxt.pos_ in ("VERB", "AUX") or ends_list and nxt.pos_ in ("NOUN", "PROPN")) and \
                    nxt.dep_ in ("ccomp", "acl", "xcomp", "relcl", "conj", "advcl") \
                    and nxt.head.i in (h.i, verb.i) and not any(c.dep_ in ("nsubj", "dobj", "det") for c in nxt.children) \
                    and (nxt.i + 1 >= len(doc) or doc[nxt.i + 1].pos_ in ("ADV", "ADP", "PART", "PUNCT", "CCONJ")):
                last = doc[nxt.i - 1]
                if nxt.lower_ in ("come", "go") and last.i != h.i:
                    continue  # "bring the toy and milk come": "come" says where to ("bring it here"), no name
                if last.i != h.i and any(last.i == c.i for c in h.conjuncts):
                    # "the mouse and the teddy bear": the split word ends the last thing of the list, not the first
                    self._compound_of[nxt.i] = last
                    second_word[last.i] = nxt
                    continue
                self._compound_of[nxt.i] = h
                heads[k] = nxt
        out: list[ObjectRef] = []
        for h in heads:
            out += self._split_pair(h) or [self._object(h)]
            for conj in h.conjuncts:
                if conj.i > h.i and conj.pos_ in ("NOUN", "PROPN", "PRON", "ADJ", "NUM"):
                    out.append(self._object(second_word.get(conj.i, conj)))
        return out

    def _split_pair(self, h: Any) -> list[ObjectRef]:
        """"a magazine and TV remote", "the radio and loo roll": the tagger reads one thing whose modifier is
        "magazine and TV" ("a magazine remote"); a noun modifier with a determiner of its own, joined by "and"
        to another noun, is a thing of its own, and the other noun begins the second thing's name ("the red and
        blue mugs" keeps its one determiner on the head: one name, two colours)."""
        doc = self.sent.doc
        for c in h.children:
            if c.dep_ not in ("nmod", "compound") or c.pos_ not in ("NOUN", "PROPN") or c.i >= h.i:
                continue
            det = [d for d in c.children if d.dep_ in ("det", "poss") and d.i < c.i]
            conj = [x for x in c.children if x.dep_ == "conj" and x.pos_ in ("NOUN", "PROPN") and c.i < x.i < h.i]
            if not det or not conj:
                continue
            first = ObjectRef(text=doc[det[0].i:c.i + 1].text, head=c.lemma_.lower(), plural=c.tag_ in ("NNS", "NNPS"),
                              determiner=det[0].lower_ if det[0].dep_ == "det" else "",
                              owner="speaker" if det[0].lower_ == "my" else "")
            second = self._object(h)
            words = [t.lower_ for t in doc[conj[0].i:h.i]]
            second.compound = [w for w in second.compound if w in words]
            second.modifiers = [m for m in second.modifiers if m in words]
            second.text = doc[conj[0].i:h.i + 1].text
            return [first, second]
        return []

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
            if (t.dep_ in ("det", "poss") or _low(t) in ("the", "my", "our", "a", "an", "your")) and \
                    _low(t) not in lx.WH_WORDS:  # "what colour is the remote": the thing follows "the"
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
            if " " in word:  # a room word joined to its noun before the parse ("bathroom counter")
                *lead, last = word.split()
                ref.compound.extend(lead)
                ref.head = singular(last)
                ref.plural = ref.head != last
        glued = [c for c in tok.children if c.dep_ == "nsubj" and c.i == tok.i - 1] if _noun_read_as_clause(tok) else []
        for g in glued:  # "any face creams": the subject the parser gave the noun is its first word
            ref.compound.append(_low(g))
            for d in g.children:
                if d.dep_ == "det":
                    ref.determiner = lx.DETERMINERS.get(_low(d), ref.determiner)  # type: ignore[assignment]
        for c in tok.children:
            cw = _low(c)
            if cw in _NOT_MODIFIERS or c.pos_ in ("INTJ", "PUNCT") or c in glued:
                continue
            if c.dep_ == "predet" and cw == "all":
                ref.determiner = "all"  # "all the apples": every one, not "the apple"
                continue
            if c.dep_ == "det" or (c.dep_ in ("amod", "advmod") and cw in ("any", "all", "every", "both")):
                if ref.determiner == "all" and cw in ("the", "my", "our", "your", "these", "those"):
                    continue
                ref.determiner = lx.DETERMINERS.get(cw, ref.determiner)  # type: ignore[assignment]
            elif c.dep_ == "poss" or (c.dep_ in ("nmod", "compound") and any(d.dep_ == "case" for d in c.children)):
                ref.owner = "speaker" if cw in ("my", "our", "mine") else "robot" if cw == "your" else \
                    "" if cw in ("its", "their", "his", "her") else cw.removesuffix("'s")
            elif c.dep_ == "nummod" or (c.dep_ == "amod" and cw in lx.NUMBER_WORDS and cw not in ("a", "an")):
                n = lx.NUMBER_WORDS.get(cw)
                ref.quantity = int(n) if n is not None and n >= 1 else (int(cw) if cw.isdigit() else None)
            elif cw in lx.ORDINALS and c.dep_ in ("amod", "advmod", "compound"):
                ref.ordinal = lx.ORDINALS[cw]
            elif c.dep_ == "compound" and cw in lx.COLOUR_WORDS:
                ref.modifiers.append(cw)
            elif c.dep_ == "compound":
                ref.compound.append(cw)
                # "the white water glass": the tagger hangs the colour on "water"; it describes the glass
                ref.modifiers.extend(_low(g) for g in c.children if g.dep_ == "amod" and _low(g) in lx.COLOUR_WORDS)
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
                    objs = [x for x in c.children if x.dep_ == "dobj" and x.pos_ != "PRON"]  # "to wipe it up"
                    if objs:
                        ref.purpose = f"{purpose} {_low(objs[0])}"
                    else:
                        # "something to drink out of", "to eat with": a preposition left with nothing after it
                        # makes the thing what the doing is done from or with, not what is drunk or eaten
                        stranded = [x for x in c.children if x.dep_ == "prep" and x.i > c.i]
                        words = [w for x in stranded for w in x.subtree]
                        if words and all(w.pos_ in ("ADP", "PART") for w in words) \
                                and words[-1].i == max(x.i for x in c.subtree):
                            ref.purpose = " ".join([purpose, *(_low(w) for w in words)])
                elif with_preps:
                    for p in c.children:  # "the mug I left on the table", "the one that's right next to it"
                        if ref.anchor is None and (p.dep_ == "prep" or p.dep_ in ("advmod", "acomp") and
                                                   _low(p) in _SPATIAL_WORDS and
                                                   any(g.dep_ == "prep" for g in p.children)):
                            ref.anchor = self._anchor(p)
                            if ref.anchor is not None and any(g.dep_ == "neg" for g in c.children):
                                ref.anchor.negated = True  # "the glass that is not on the table": the others
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
                        if _low(c) in _BESIDE_PREPS:
                            relation = "next_to"  # "in between the pen and the spatula" is beside them, not in
                        break
        if not objs:
            return None
        if _lemma(objs[0]) in lx.NOT_PLACE_NOUNS:
            return None  # "at the moment", "by any chance": when or how, not where
        part = objs[0]
        whole = [p for c in part.children if c.dep_ == "prep" and _low(c) == "of"
                 for p in c.children if p.dep_ == "pobj"]
        if not whole and _lemma(part) in lx.SPOT_WORDS:
            # "on the front, left corner of the counter", "the left near corner of the bed": the "of" hangs
            # further down the spot's words
            whole = [p for c in part.subtree if c.dep_ == "prep" and _low(c) == "of" and c.head.i != part.head.i
                     for p in c.children if p.dep_ == "pobj"][:1]
        if not whole and _lemma(part) in lx.SPOT_WORDS:
            # "in the bottom left bathroom counter", "the front right burner": the tagger ends the phrase at the
            # spot word and makes the rest stray words; the nouns after the spot's words are the place
            doc = part.doc
            k = part.i + 1
            while k < len(doc) and _low(doc[k]) in lx.SPOT_WORDS:
                k += 1
            run = []
            while k < len(doc) and doc[k].pos_ in ("NOUN", "PROPN") and doc[k].is_alpha | (" " in doc[k].text):
                run.append(doc[k])
                k += 1
            # (one spot word is enough when the noun after it was cut loose from the phrase: "in the right
            # worktop" read as "in the right" and a second "worktop"; not a person said to: "on the left, mate")
            loose = run and part.dep_ == "pobj" and run[0].head != part and run[0].dep_ in ("conj", "dep", "appos",
                                                                                            "npadvmod", "dobj")
            if run and (k > part.i + 1 + len(run) or loose and k == part.i + 1 + len(run) and not _said_to(run[-1])):
                last = run[-1]
                words = [w for u in run for w in _low(u).split()]
                ref = ObjectRef(text="the " + " ".join(u.text for u in run), head=singular(words[-1]),
                                compound=words[:-1], determiner="the",
                                plural=last.tag_ in ("NNS", "NNPS"))
                return Anchor(relation="on" if relation == "at" else relation, ref=ref)  # type: ignore[arg-type]
        if _lemma(part) in lx.SPOT_WORDS and whole:
            # "on top of the fridge", "on the foot of the bed", "in the middle of the room": the whole is the place;
            # "to the left of the jug" is beside it
            objs = whole
            inner = _spot_of(whole[0])
            if inner is not None:
                # "to the left of the back of the table", "on top of the back of the counter": a spot on a part
                # of the thing is on the thing
                objs, relation = [inner], "on"
            elif _lemma(part) == "top":
                relation = "on"
            elif _lemma(part) in lx.SIDE_WORDS and word != "to" and any(
                    c.dep_ in ("amod", "compound", "nmod", "advmod") and _low(c) in _ON_SIDE_WORDS
                    for c in part.children):
                # "on the front right of the counter", "at the far left of the table": a spot on it named by two
                # of its parts; the bare "on the right of the sink" is as often beside it and stays so
                relation = "in" if relation == "in" else "on"
            elif _lemma(part) in lx.SIDE_WORDS:
                relation = "next_to"
            elif _lemma(part) == "front" and not any(c.dep_ in ("det", "poss") for c in part.children):
                relation = "in_front_of"  # "in front of the mug" (not in the mug); "in the front of the fridge" is in
        if _low(objs[0]) in ("you", "yourself", "u") and relation not in ("at", "from"):
            return None  # "on the counter in front of you", "to the right of you": where the robot stands now
        ref = self._object(objs[0])
        if objs is whole and ref.anchor is None:
            # "to the right of the knife on the bathroom counter": the tagger hangs the place on the spot word; it
            # says where the knife is, so where on the counter (parser._place_before_position)
            on = next((c for c in part.children if c.dep_ == "prep" and _low(c) in ("on", "in", "inside")), None)
            said = self._anchor(on) if on is not None else None
            if said is not None and said.relation in ("on", "in"):
                ref.anchor = said
        doc = objs[0].doc
        nxt = doc[objs[0].i + 1] if objs[0].i + 1 < len(doc) else None
        if nxt is not None and nxt.pos_ == "NOUN" and nxt.tag_ in ("NN", "NNS") and nxt.head != objs[0] and \
                nxt.dep_ not in ("compound", "conj", "pobj", "dobj", "nsubj") and ref.head and not ref.pronoun:
            # "on the bathroom counter" read as "on the bathroom" + a stray noun "counter": one place
            ref.compound = [*ref.compound, ref.head]
            ref.head = singular(_low(nxt)) if nxt.tag_ == "NNS" else _low(nxt)
            ref.text = f"{ref.text} {nxt.text}"
        if ref.head in lx.HOME_WORDS and ref.anchor is None:
            return None  # "in the house": everywhere memory has been
        if ref.head == "room" and not (ref.compound or ref.modifiers or ref.owner or ref.anchor):
            return None  # "move the limes in the room to the bed": the room they are in, which is no filter
        return Anchor(relation=relation, ref=ref)  # type: ignore[arg-type]


def _said_to(tok: Any) -> bool:
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return wn is not None and wn.names_a_person(_low(tok))


def _spot_of(tok: Any) -> Any:
    """The thing a spot word belongs to ("the back of the table" -> "table"), else None."""
    if _lemma(tok) not in lx.PART_NOUNS:
        return None
    return next((p for c in tok.children if c.dep_ == "prep" and _low(c) == "of"
                 for p in c.children if p.dep_ == "pobj" and _lemma(p) not in lx.SPOT_WORDS), None)


# the words that make a side a spot on a thing ("the front right of the counter", "the far left of the table")
_ON_SIDE_WORDS = frozenset({"front", "back", "rear", "far", "near", "top", "bottom", "middle", "centre", "center",
                            "upper", "lower"})

# prepositions that say a place beside things, whatever word comes before them ("in between", "in among")
_BESIDE_PREPS = frozenset({"between", "among", "amongst", "amid", "amidst"})


def _own_clause_words(root: Any) -> set[int]:
    """The indices of the words of ``root``'s subtree that belong to the clause that asks (or to one above it
    that only wraps it), not to a clause of its own with another subject: in "where did I leave the lime - I
    had it this morning" the morning is when the speaker had it, not the time the question asks about (which
    is now); in "the remote got moved, where was it originally" the time is the question's."""
    wh = next((t for t in root.sent if t.lower_ in _WH_WORDS and t.dep_ in ("advmod", "attr", "dobj", "nsubj",
                                                                               "det", "pobj")), None)
    asking = _clause_of(wh if wh is not None else root)
    above = {a.i for a in asking.ancestors}
    return {t.i for t in root.subtree if _in_asking_clause(_clause_of(t), asking, above)}


def _in_asking_clause(clause: Any, asking: Any, above: set[int]) -> bool:
    if clause.i == asking.i:
        return True
    if clause.dep_ == "advcl" and _clause_of(clause.head).i == asking.i:
        return True  # an adverbial clause of the question: "where was it when you first saw it"
    # a clause above the one that asks counts when it only wraps it ("can you tell me where it was this
    # morning": the tagger hangs the morning on "tell")
    return clause.i in above and (_lemma(clause) in lx.WRAPPER_VERBS or clause.pos_ == "AUX")


def _clause_of(tok: Any) -> Any:
    """The verb heading the clause a word is in: the nearest verb above it (or itself) that has a subject
    of its own or heads the sentence."""
    t = tok
    while True:
        if t.head.i == t.i:
            return t
        if t.pos_ in ("VERB", "AUX") and (t.dep_ in ("ccomp", "parataxis", "conj", "relcl", "advcl") and any(
                c.dep_ in ("nsubj", "nsubjpass", "expl") for c in t.children)):
            return t
        t = t.head


_WH_WORDS = frozenset({"where", "when", "what", "which", "who", "how", "whose"})
