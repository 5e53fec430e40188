"""Corrections and preferences in what people say, as structured facts.

"Put the fork in the drawer", "no, the cups go on the shelf", "forks don't go in the sink", "my mug is the
blue one", "I prefer the red cup": a handful of sentence patterns cover how people tell a robot where
things belong and which thing is theirs. This runs on the write path for every utterance, so it is regular
expressions over one string (tens of microseconds), never a model; a sentence that fits no pattern gives
no fact rather than a guess. Questions ("where do forks go?") and statements of state ("the drawer is
locked", "the fork is in the drawer") state no preference and give none.

Kinds of fact:

- ``placement``: ``subject`` (an object or a category, singular: "fork", "cutlery") belongs ``predicate``
  (in / on / under) ``target`` (the receptacle as said: "top drawer"); ``negated`` for "not there".
- ``possession``: ``owner``'s ``subject`` ("mug") is the one that is ``target`` ("blue").
- ``preference``: ``owner`` prefers the ``subject`` that is ``target`` ("cup", "red"; target may be "").
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from .categories import CategoryMap, default_map, singular, words
from .models import FactKind


class ParsedFact(BaseModel):
    """One fact an utterance states, before memory gives it an id, a time and an event."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: FactKind
    subject: str
    predicate: str
    target: str
    negated: bool = False
    owner: str = ""
    correction: bool = False  # said as a correction of something ("no, ...", "actually ...")


# ---- vocabulary ---------------------------------------------------------------------------------------

_PREPS = {"into": "in", "inside of": "in", "inside": "in", "in": "in", "within": "in", "onto": "on",
          "on top of": "on", "on": "on", "upon": "on", "under": "under", "underneath": "under",
          "beneath": "under"}
_PREP = r"(?P<prep>" + "|".join(sorted((p.replace(" ", r"\s+") for p in _PREPS), key=len, reverse=True)) + r")"
_NEG = (r"(?:don't|dont|do\s+not|doesn't|doesnt|does\s+not|never|shouldn't|shouldnt|should\s+not|"
        r"must\s+not|mustn't|can't|cant|cannot|won't|wont|will\s+not|may\s+not)")
_MODAL = (r"(?:should|must|always|usually|normally|generally|only|need\s+to|needs\s+to|have\s+to|has\s+to|"
          r"ought\s+to|can|will|would)")
_PLACE_VERB = (r"(?:put|place|keep|store|leave|set|stack|hang|throw|toss|drop|return|move|stow|stash|file|"
               r"shelve|pack|stick|tuck|lay)")
_BELONG = (r"(?:go|goes|belong|belongs|live|lives|stay|stays|be\s+(?:kept|put|stored|placed)|"
           r"(?:are|is)\s+(?:always\s+|usually\s+)?(?:kept|stored|put|placed))")

_IMPERATIVE = re.compile(
    r"^(?:(?:i|we)\s+(?:(?:always|usually|normally|generally)\s+|(?=(?:keep|store)\b))|"
    r"you\s+(?:should|must|need\s+to|have\s+to|can|always)\s+)?"
    rf"(?:(?P<neg>{_NEG})\s+)?"
    rf"(?:(?:always|just|only|ever)\s+)?{_PLACE_VERB}(?:\s+(?:away|back))?\s+(?P<x>.+?)\s+"
    rf"(?:(?:back|away|up|down)\s+)?{_PREP}\s+(?P<y>.+)$")
_GENERIC = re.compile(
    rf"^(?!(?:i|we|you)\s)(?P<x>.+?)\s+(?:(?P<neg>{_NEG})\s+|{_MODAL}\s+)*(?:ever\s+)?{_BELONG}\s+(?:back\s+)?{_PREP}\s+(?P<y>.+)$")
_PREFER_PLACE = re.compile(
    rf"^i(?:'d|\s+would)?\s+(?:(?P<neg>don't|dont|do\s+not)\s+)?(?:really\s+|always\s+)?(?:prefer|like|want|wish)"
    rf"\s+(?:to\s+(?:keep|have|put|store|see)\s+|(?:to\s+)?have\s+)?(?P<x>.+?)\s+"
    rf"(?:(?:to\s+)?(?:be|go|stay)\s+(?:kept\s+|stored\s+|put\s+|placed\s+)?|(?:go|goes|belong|belongs)\s+|"
    rf"(?:kept|stored|put|placed)\s+)?"
    rf"{_PREP}\s+(?P<y>.+)$")
_NO_X = re.compile(
    rf"^no\s+(?!(?:the|a|an|my|put|place|keep|i|it|they|not|that|this|those|these|way|thanks|problem)\b)"
    rf"(?P<x>.+?)\s+{_PREP}\s+(?P<y>.+)$")
_VERBLESS = re.compile(rf"^(?P<x>.+?)\s+{_PREP}\s+(?P<y>.+)$")
_NOT_THERE = re.compile(rf"^not\s+(?:{_PREP}\s+)?(?P<y>.+)$")
_POSSESSOR = r"(?P<owner>my|our|[a-z]+'s)"
_POSSESSION_ONE = re.compile(rf"^{_POSSESSOR}\s+(?P<x>.+?)\s+(?:is|are|'s)\s+(?:the\s+)?(?P<attr>.+?)\s+(?:one|ones)$")
_POSSESSION_NOUN = re.compile(rf"^{_POSSESSOR}\s+(?P<x>.+?)\s+(?:is|are|'s)\s+(?:the\s+)?(?P<attr>.+)$")
_POSSESSION_MINE = re.compile(r"^(?P<x>.+?)\s+(?:is|are)\s+(?P<owner>mine|ours|[a-z]+'s)$")
_PREFERENCE = re.compile(
    r"^i(?:\s+(?:(?P<neg>don't|dont|do\s+not)\s+)?(?:really\s+|usually\s+|always\s+|much\s+)?"
    r"(?:prefer|like|love|favou?r)|(?:'d|\s+would)\s+(?:prefer|rather\s+have|rather\s+use))\s+"
    r"(?P<x>.+?)(?:\s+(?:over|to|rather\s+than|instead\s+of|better\s+than|more\s+than)\s+(?P<other>.+))?$")

_CORRECTION = re.compile(
    r"^(?:no|nope|nah|wrong|incorrect|not\s+quite|that's\s+wrong|thats\s+wrong|that\s+is\s+wrong|"
    r"that's\s+not\s+right|actually|i\s+said|i\s+told\s+you|remember|again|sorry)\b[\s,!.:;-]*")
_POLITE = re.compile(
    r"^(?:please|pls|kindly|ok|okay|hey|robot|so|and|also|then|oh|well|just|from\s+now\s+on|"
    r"in\s+(?:the\s+)?future|next\s+time|going\s+forward)\b[\s,!.:;-]*")
_REQUEST = re.compile(r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:always\s+)?")
_TRAILING = re.compile(
    r"[\s,]*\b(?:please|thanks|thank\s+you|from\s+now\s+on|in\s+(?:the\s+)?future|next\s+time|for\s+me|"
    r"ok|okay|instead|again|as\s+well|too|from\s+now|going\s+forward|ok\s+thanks|always|then)$")
_QUESTION_START = re.compile(
    r"^(?:where|what|which|who|whose|why|how|when|is|are|was|were|do|does|did|should|shall|can|could|"
    r"would|will|have|has|am)\b")
_DETERMINER = re.compile(
    r"^(?:all\s+(?:of\s+)?(?:the\s+)?|both\s+(?:of\s+)?(?:the\s+)?|the|a|an|your|his|her|their|its|this|that|these|"
    r"those|any|every|each|some|other|two|three|four|five|several|many|more|most)\s+")
_OWNER = re.compile(r"^(?P<owner>my|our|[a-z]+'s)\s+")
_INNER = re.compile(r"\s+(?:in|on|at|near|next\s+to|by|under|above|below|beside|behind|inside|from|with|for|"
                    r"to|that|which|where|so|because|when|instead\s+of|rather\s+than)\s+.*$")
_SPLIT_SUBJECTS = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+")
_CLAUSE_SEP = re.compile(r"\s*(?:,|;|\s-\s|\bbut\b)\s*")
_SENTENCE_SEP = re.compile(r"(?<=[.!?;])\s+")

_PRONOUNS = frozenset("it they them this that these those one ones".split())
_VAGUE = frozenset("everything something anything stuff things thing all mine yours ours theirs here there "
                   "what which who where it's its the a an my your our of in on to".split())
_VERBS = frozenset("is are was were be been am goes go went put placed".split())
_NOT_OWNERS = frozenset("it what that there here who one where let".split())
_SIZE_WORDS = frozenset("big small large little tall short tiny huge round square old new long wide narrow "
                        "striped spotted dotted plain patterned shiny".split())
_STATES = frozenset(("dirty", "clean"))  # attribute keys that are a state, not an identifying property
_MAX_SUBJECT_WORDS = 6
_MAX_CHARS = 1000  # longer text is not one instruction; its start is parsed and the rest ignored
_MAX_CLAUSE_PIECES = 6


# ---- parsing ------------------------------------------------------------------------------------------


def parse_utterance(text: str, speaker: str = "", categories: CategoryMap | None = None) -> list[ParsedFact]:
    """The facts one utterance states, in the order said; [] for anything else. Pure and cheap.

    ``speaker`` becomes the owner of "my ..." (``"user"`` when unknown). ``categories`` decides which
    phrases are one thing although they contain "and" ("mac and cheese") and which words are attributes.
    """
    if not text or not text.strip():
        return []
    cmap = categories or default_map()
    t = " ".join(text.lower().replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"').split())
    t = t.replace('"', "")[:_MAX_CHARS]
    out: list[ParsedFact] = []
    for sentence in _SENTENCE_SEP.split(t):
        out.extend(_sentence(sentence, speaker or "user", cmap))
    return list(dict.fromkeys(out))


def _strip_prefixes(s: str) -> tuple[str, bool, bool]:
    """Remove lead-ins; say whether the sentence was a correction and whether it was a request."""
    correction = request = False
    while True:
        m = _CORRECTION.match(s)
        if m and m.end() > 0 and not _NO_X.match(s):
            correction, s = True, s[m.end():]
            continue
        m = _POLITE.match(s) or _REQUEST.match(s)
        if m and m.end() > 0:
            request = request or m.re is _REQUEST
            s = s[m.end():]
            continue
        return s, correction, request


def _sentence(sentence: str, speaker: str, cmap: CategoryMap) -> list[ParsedFact]:
    question = sentence.rstrip().endswith("?")
    s = sentence.strip(" .!?;,")
    s, correction, request = _strip_prefixes(s)
    if (question or _QUESTION_START.match(s)) and not request:
        return []
    facts: list[ParsedFact] = []
    pieces = [p for p in _CLAUSE_SEP.split(s) if p]
    previous: list[ParsedFact] = []
    i = 0
    while i < len(pieces):
        # a clause may span pieces split at commas ("forks, knives and spoons go in the drawer")
        for j in range(i + 1, min(len(pieces), i + _MAX_CLAUSE_PIECES) + 1):
            clause = ", ".join(pieces[i:j])
            got = _clause(clause, speaker, cmap, correction, previous)
            if got:
                facts.extend(got)
                previous = [f for f in got if f.kind == "placement"] or previous
                i = j
                break
        else:
            i += 1
    return facts


def _clause(c: str, speaker: str, cmap: CategoryMap, correction: bool,
            previous: list[ParsedFact]) -> list[ParsedFact]:
    c, more_correction, _ = _strip_prefixes(_TRAILING.sub("", c.strip()))
    correction = correction or more_correction
    if not c:
        return []
    m = _NOT_THERE.match(c)
    if m and previous:  # "forks go in the drawer, not the sink"
        target = _receptacle(m.group("y"))
        prep = _PREPS.get(" ".join((m.group("prep") or "").split()), previous[-1].predicate)
        return [f.model_copy(update={"predicate": prep, "target": target, "negated": True})
                for f in previous if target and target != f.target]
    m = _NO_X.match(c)
    if m:
        return _placements(m, speaker, cmap, correction, previous, negated=True)
    for pattern in (_IMPERATIVE, _GENERIC, _PREFER_PLACE):
        m = pattern.match(c)
        if m:
            return _placements(m, speaker, cmap, correction, previous, negated=bool(m.group("neg")))
    for parse in (_possession, _preference):
        got = parse(c, speaker, cmap)
        if got:
            return got
    if correction:  # "no, the cups on the shelf"
        m = _VERBLESS.match(c)
        if m and not (set(m.group("x").split()) & _VERBS):
            return _placements(m, speaker, cmap, correction, previous, negated=False)
    return []


def _placements(m: re.Match[str], speaker: str, cmap: CategoryMap, correction: bool,
                previous: list[ParsedFact], negated: bool) -> list[ParsedFact]:
    prep = _PREPS[" ".join(m.group("prep").split())]
    subjects = _subjects(m.group("x"), speaker, cmap)
    if not subjects:
        return []
    mine = [ParsedFact(kind="placement", subject=s, predicate=prep, target="", owner=o) for s, o in subjects
            if s not in _PRONOUNS] or previous
    # "forks go in the drawer and cups go on the shelf": the receptacle ends where another clause starts
    y, more = m.group("y"), []
    for sep in list(re.finditer(r"\s+(?:and|but|then|and\s+then|while)\s+", y))[:_MAX_CLAUSE_PIECES]:
        more = _clause(y[sep.end():], speaker, cmap, correction, mine)
        if more:
            y = y[:sep.start()]
            break
    target = _receptacle(y)
    if not target:
        return []
    out: list[ParsedFact] = []
    for subject, owner in subjects:
        if subject in _PRONOUNS:
            out.extend(f.model_copy(update={"predicate": prep, "target": target, "negated": negated,
                                            "correction": correction}) for f in previous)
            continue
        out.append(ParsedFact(kind="placement", subject=subject, predicate=prep, target=target,
                              negated=negated, owner=owner, correction=correction))
    return out + more


def _phrase(text: str, names: bool = False) -> tuple[str, str]:
    """(noun phrase without determiners, owner word or "") — "all of my coffee mugs" -> ("coffee mugs", "my").

    "Anna's" is an owner only where ``names`` says so: in "Rubik's cube" or "chef's knife" it is part of
    the name, and placements are about kinds of things, not whose they are."""
    p = text.strip(" ,.")
    owner = ""
    for _ in range(4):
        m = _OWNER.match(p)
        if m and (names or m.group("owner") in ("my", "our")) and \
                m.group("owner").removesuffix("'s") not in _NOT_OWNERS:
            owner, p = m.group("owner"), p[m.end():]
            continue
        m = _DETERMINER.match(p)
        if m:
            p = p[m.end():]
            continue
        break
    return p.strip(), owner


def _owner_name(owner_word: str, speaker: str) -> str:
    if owner_word in ("my", "mine", "i", "me"):
        return speaker
    if owner_word in ("our", "ours"):
        return "us"
    return owner_word.removesuffix("'s")


def _singular_phrase(p: str) -> str:
    ws = p.split()
    if ws and not ws[-1].isdigit():
        ws[-1] = singular(ws[-1])
    return " ".join(ws)


def _subjects(x: str, speaker: str, cmap: CategoryMap) -> list[tuple[str, str]]:
    """Subject phrases (singular) and their owners: "forks and knives" -> [("fork", ""), ("knife", "")]."""
    x = _INNER.sub("", x.strip())
    parts = _split_list(x, cmap)
    out = []
    for part in parts:
        phrase, owner_word = _phrase(part)
        if not phrase or phrase in _VAGUE or len(phrase.split()) > _MAX_SUBJECT_WORDS:
            continue
        if not re.search(r"[a-z]", phrase) or set(phrase.split()) & _VERBS or phrase.split()[0] == "not":
            continue
        out.append((phrase if phrase in _PRONOUNS else _singular_phrase(phrase),
                    _owner_name(owner_word, speaker) if owner_word else ""))
    return out


def _split_list(x: str, cmap: CategoryMap) -> list[str]:
    """"forks, knives and spoons" is three things; "mac and cheese" and "Better Homes and Gardens magazine"
    are one: a list splits where each item starts with an article or names a known kind of thing."""
    parts = [p for p in _SPLIT_SUBJECTS.split(x) if p]
    if len(parts) < 2:
        return [x]
    whole, _ = _phrase(x)
    ws = words(whole)
    found = cmap.known_ending(ws)
    if found is not None and "and" in ws[found:]:  # the known thing itself has "and" in it
        return [x]
    if all(_DETERMINER.match(p) or _OWNER.match(p) for p in parts[1:]):
        return parts
    if all(cmap.known_ending(words(_phrase(p)[0])) is not None for p in parts):
        return parts
    return [x]


def _receptacle(y: str) -> str:
    """The receptacle as said, without articles or trailing qualifiers: "the top drawer in the kitchen,
    please" -> "top drawer"."""
    y = _TRAILING.sub("", y.strip(" ,."))
    y = _INNER.sub("", y)
    phrase, _ = _phrase(y)
    if not phrase or phrase in _PRONOUNS or phrase in _VAGUE or len(phrase.split()) > _MAX_SUBJECT_WORDS:
        return ""
    if set(phrase.split()) & _VERBS:
        return ""
    return _singular_phrase(phrase)


def _split_attribute(phrase: str, cmap: CategoryMap) -> tuple[str, str]:
    """("blue", "coffee mug") from "blue coffee mug": leading colour, material and size words."""
    ws = phrase.split()
    n = 0
    while n < len(ws) - 1 and ("".join(words(ws[n])) in cmap.attributes or ws[n] in _SIZE_WORDS):
        n += 1
    return " ".join(ws[:n]), " ".join(ws[n:])


def _is_attribute(text: str, cmap: CategoryMap) -> bool:
    """Words that tell one thing from another of its kind (colour, material, size), not its state."""
    def identifying(w: str) -> bool:
        attrs = cmap.attributes.get("".join(words(w)), ())
        return w in _SIZE_WORDS or (bool(attrs) and not _STATES.intersection(attrs))

    ws = text.split()
    return bool(ws) and all(identifying(w) for w in ws)


def _possession(c: str, speaker: str, cmap: CategoryMap) -> list[ParsedFact]:
    m = _POSSESSION_ONE.match(c)
    attr = ""
    if m:
        attr = m.group("attr")
    else:
        m = _POSSESSION_NOUN.match(c)
        if m:
            a = m.group("attr")
            head = m.group("x").split()[-1] if m.group("x").split() else ""
            aw = a.split()
            if len(aw) > 1 and singular(aw[-1]) == singular(head):  # "my mug is the blue mug"
                attr = " ".join(aw[:-1])
            elif _is_attribute(a, cmap):  # "my mug is blue"
                attr = a
            else:
                m = None
    if m is not None and attr:
        owner_word = m.group("owner")
        if owner_word.removesuffix("'s") in _NOT_OWNERS:
            return []
        subject, _ = _phrase(m.group("x"), names=True)
        if not subject or subject in _PRONOUNS or subject in _VAGUE or set(subject.split()) & _VERBS:
            return []
        return [ParsedFact(kind="possession", subject=_singular_phrase(subject), predicate="is",
                           target=attr.strip(), owner=_owner_name(owner_word, speaker))]
    m = _POSSESSION_MINE.match(c)
    if m:
        phrase, _ = _phrase(m.group("x"))
        attr, subject = _split_attribute(phrase, cmap)
        if not subject or subject in _PRONOUNS or subject in _VAGUE or set(subject.split()) & _VERBS:
            return []
        owner = m.group("owner")
        if owner.removesuffix("'s") in _NOT_OWNERS:
            return []
        return [ParsedFact(kind="possession", subject=_singular_phrase(subject), predicate="is", target=attr,
                           owner=_owner_name(owner, speaker))]
    return []


def _preference(c: str, speaker: str, cmap: CategoryMap) -> list[ParsedFact]:
    m = _PREFERENCE.match(c)
    if not m:
        return []
    phrase, _ = _phrase(m.group("x"))
    if phrase.startswith("to "):  # "I like to cook": an activity, not a thing
        return []
    attr, subject = _split_attribute(phrase, cmap)
    if (not subject or subject in _PRONOUNS or subject in _VAGUE or set(subject.split()) & _VERBS
            or len(subject.split()) > _MAX_SUBJECT_WORDS):
        return []
    return [ParsedFact(kind="preference", subject=_singular_phrase(subject), predicate="prefers", target=attr,
                       negated=bool(m.group("neg")), owner=speaker)]
