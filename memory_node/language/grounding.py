"""Phrases grounded in what memory was *told* as well as what it saw: "my mug", "Anna's cup", and moments
such as "before I moved it" or "after you opened the fridge".

``resolve.py`` matches words against entity records and nothing else; people also refer to things by whose
they are (a possession fact from an utterance: "my mug is the blue one") and to times by what happened
then. Both need the store, so they live here, and both say which event they rest on so answers can cite it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol

from ..core.models import Entity, Event
from ..core.rules import facts
from ..core.store import ROOM_LABEL, MemoryStore
from ..core.text import indefinite, key, plural, stem
from ..core.wordnet import default_wordnet
from . import lexicon as lx
from .conversation import Conversation
from .names import CATEGORY_BONUS, CONFIDENCE, GENERIC_NOUNS, PACKAGING, Names, default_names
from .request import Anchor, ObjectRef
from .resolve import _attribute_words as attribute_words
from .spelling import american, canonical, variants
from .resolve import NEAR_WORDS, UNDER_WORDS, Candidate, _distance, _HintTest, _rank, norm, resolve_entities, resolve_rooms, room_key, \
    singular, split_hint, words
from .uses import SEAT_OFFER, UseFit, activity_of, content_words, default_uses

log = logging.getLogger(__name__)


class MemoryView(Protocol):
    """What grounding reads of a memory snapshot (``world.state.WorldState`` is one)."""

    entities: dict[str, Entity]
    states: dict[str, set[str]]
    failures: Mapping[tuple[str, str], Any]
    as_of_ns: int | None
    speaker: str
    robot_room: str | None

    def chain(self, ent_id: str) -> list[str]: ...
    def room_of(self, ent_id: str) -> str | None: ...
    def is_room(self, ent_id: str) -> bool: ...
    def is_person(self, ent_id: str) -> bool: ...
    def holder_labels(self) -> frozenset[str]: ...

POSSESSION_SCORE = 4.0  # above any attribute or hint: "my mug" is that mug, wherever it is
DEFAULT_SPEAKER = "user"
# characters of a stored label or name a phrase is compared with: longer ones (stored before the input
# limits) are never said whole, and comparing them whole made a request cost their length
MATCH_CHARS = 256
_OWNER_RE = re.compile(r"^(?:the\s+)?(?P<owner>my|our|mine|[a-z][a-z0-9_\-]*'s)\s+(?P<rest>.+)$")
_PRONOUNS = frozenset({"it", "them", "that", "this", "him", "her"})
# WordNet kinds of a word before "of" that holds, measures, is part of or groups what follows, or says where or what
# it is ("the home of the loo roll", "the colour of the mug"): X of Y is then about Y
_HOLDER_KINDS = ("container", "containerful", "measure", "part", "piece", "portion", "collection", "location", "attribute")
_ABOUT_WORDS = frozenset({"name", "kind", "type", "sort", "brand", "make", "model", "owner"})
# how a match was made that names the thing surely (not a kind, a category or a likeness)
_SURE_MATCHES = frozenset({"exact", "head noun", "everyday name", "wordnet synonym"})
_ROBOT_WORDS = frozenset({"you", "the robot", "robot"})
_MOVE_VERBS = frozenset({"move", "put", "take", "took", "moved", "placed", "place", "carry", "carried",
                         "left", "leave", "brought", "bring", "hid", "hide", "set", "dropped", "drop", "shift",
                         "shifted", "relocate", "relocated", "rearrange", "rearranged", "shuffle", "shuffled",
                         "swap", "swapped", "grab", "grabbed", "pick", "picked", "tidy", "tidied", "stash",
                         "stashed", "knock", "knocked", "push", "pushed", "nudge", "nudged", "end", "ended"})


@dataclass(frozen=True)
class Owned:
    """What memory was told a person owns, for one phrase."""

    owner: str
    entity_ids: tuple[str, ...]
    event_ids: tuple[str, ...]
    said: str  # the fact as text, for explanations


class Grounder:
    """Resolves phrases for one request against one memory snapshot (``world``) and the store it came from."""

    def __init__(self, store: MemoryStore, world: MemoryView, speaker: str = "",
                 conversation: Conversation | None = None, names: Names | None = None) -> None:
        self.store = store
        self.world = world
        self._speaker = speaker or world.speaker
        self.conversation = conversation
        self._names = names
        self.excluded: set[str] = set()  # "no, the other one": what was chosen before is not meant
        # a task names things to act on: the only one of a kind whose landmark memory judges from positions alone
        # and did not see there is asked about (``_anchored``); a question about it is answered ("is the mug next
        # to the sink?": no)
        self.for_a_task = False

    # ---- whose ---------------------------------------------------------------------------------------

    @cached_property
    def speaker(self) -> str:
        """Who "my" means: the request's speaker, else whoever spoke to the robot last (looked up only when
        a phrase is possessive: most requests never need it)."""
        if self._speaker:
            return self._speaker
        last = self.store.events(kind="utterance", until_ns=self.world.as_of_ns, limit=1)
        speaker = str(last[0].data.get("speaker", "")) if last else ""
        return speaker or DEFAULT_SPEAKER

    def owned(self, phrase: str) -> Owned | None:
        """"my mug" / "anna's cup": the entities possession facts say are that person's such thing."""
        m = _OWNER_RE.match(" ".join(phrase.lower().split()))
        if not m:
            return None
        word = m.group("owner")
        owner = self.speaker if word in ("my", "mine", "our") else word.removesuffix("'s")
        head, _ = split_hint(m.group("rest"))
        if not head:
            return None
        keys = {norm(singular(head[-1])), norm("".join(head[:-1]) + singular(head[-1]))}
        owners = dict.fromkeys([owner, DEFAULT_SPEAKER] if word in ("my", "mine", "our") else [owner])
        for who in owners:
            for fact in facts(self.store, kind="possession", owner=who, as_of_ns=self.world.as_of_ns):
                if norm(fact.subject) not in keys and norm(singular(fact.subject.split()[-1])) not in keys:
                    continue
                ids = self._owned_ids(fact.target_id, fact.subject, fact.target)
                if ids:
                    return Owned(owner=who, entity_ids=tuple(ids), event_ids=(fact.event_id,), said=fact.text())
        return None

    def owner_of(self, ent_id: str) -> Owned | None:
        """"whose scarf is on the sofa": the possession fact memory was told that covers this thing."""
        ent = self.world.entities.get(ent_id)
        if ent is None:
            return None
        for fact in facts(self.store, kind="possession", as_of_ns=self.world.as_of_ns):
            if ent_id in self._owned_ids(fact.target_id, fact.subject, fact.target):
                return Owned(owner=fact.owner, entity_ids=(ent_id,), event_ids=(fact.event_id,), said=fact.text())
        return None

    def _owned_ids(self, target_id: str, subject: str, attribute: str) -> list[str]:
        """The fact's entity when it named one; else (said before the thing was seen) the entities of that
        kind whose attributes or name carry the words ("my mug is the blue one" -> blue mugs)."""
        if target_id and target_id in self.world.entities:
            return [target_id]
        wanted = set(words(attribute))
        if not wanted:
            return []
        out = []
        said = subject.split()
        cands = resolve_entities(subject, self.world.entities.values()) or \
            self._kind(ObjectRef(text=subject, head=said[-1] if said else "", compound=said[:-1]))[0]
        for cand in cands:
            ent = cand.entity
            said = set(words(" ".join([ent.name, *ent.attributes.values()])))
            if wanted <= said:
                out.append(ent.id)
        return out

    def find(self, phrase: str) -> list[Candidate]:
        """Candidates for a phrase, a possession fact lifting the speaker's own thing to the top."""
        owned = self.owned(phrase)
        boosts = ({i: (POSSESSION_SCORE, f"{owned.owner}'s: {owned.said}") for i in owned.entity_ids}
                  if owned else None)
        return resolve_entities(phrase, self.world.entities.values(), boosts=boosts)

    # ---- typed phrases ----------------------------------------------------------------------------------

    @property
    def names(self) -> Names:
        if self._names is None:
            self._names = default_names()
        return self._names

    def ground(self, ref: ObjectRef, want: Want | None = None) -> Grounding:
        """The entities an object phrase means, with an explicit outcome (see ``Grounding``).

        Policy: "a/any/some X" takes a usable one (not locked, not known to fail, not shut in something
        locked; the robot's room, then the most recently seen); "the X" and possessives want the one X: a
        room hint, an anchor, the owner, an attribute or the speaker's previous referent make it unique, and
        alike things in one place (two apples in one bowl) are interchangeable; otherwise the result is
        ambiguous and lists the candidates (recency alone never decides). Plurals, "all", "every" and counts
        take them all. A room or anchor that cannot be placed makes the result "none", saying so."""
        want = want or wanted(ref)
        if ref.room and ref.anchor is None:
            # a room slot (a reader may fill it rather than an anchor) is a filter like "in the kitchen"
            room = ObjectRef(text=ref.room, head=ref.room.split()[-1], modifiers=ref.room.split()[:-1])
            ref = ref.model_copy(update={"anchor": Anchor(relation="in", ref=room)})
        if ref.of_noun and not ref.owner and self.people_called(ref.of_noun):
            # "the glass of Anna": whose, as many learners of English say it (a person memory knows by that
            # name), not a glass holding Anna
            ref = ref.model_copy(update={"owner": ref.of_noun, "of_noun": ""})
        speaker = self.speaker if (ref.owner == "speaker" or ref.pronoun) else self._speaker
        if ref.pronoun and ref.pronoun not in ("one", "ones"):
            ids = [i for i in (self.conversation.last(speaker) if self.conversation else []) if i in self.world.entities]
            if not ids:
                return Grounding(ref, "none", [], problem=f"I do not know what {ref.pronoun!r} refers to: "
                                 "name the object, please")
            cands = [Candidate(entity=self.world.entities[i], score=1.0, reasons=("your previous request",))
                     for i in ids]
            return Grounding(ref, "all" if ref.plural or len(ids) > 1 and want == "all" else "unique",
                             cands if (ref.plural or want == "all") else cands[:1], how="previous request")
        if ref.pronoun in ("one", "ones") and not ref.head:
            # "the blue one": the kind of thing the speaker named last, with these words
            last = [self.world.entities[i] for i in (self.conversation.last(speaker) if self.conversation else [])
                    if i in self.world.entities]
            if not last:
                return Grounding(ref, "none", [], problem="I do not know which kind of thing you mean by 'one'")
            ref = ref.model_copy(update={"head": last[0].label, "pronoun": ""})
        if ref.purpose and (not ref.head or ref.head in ("something", "anything", "thing", "stuff", "somewhere",
                                                         "anywhere", "place")):
            return self._by_purpose(ref, want)
        if singular(norm(ref.head)) in GENERIC_NOUNS and not ref.compound and not ref.of_noun:
            cands, how = self._generic(ref), "any thing"
        else:
            cands, how = self._kind(ref, every=want == "all")
        if how in ("any thing", "category") and want == "one":
            want = "all" if ref.plural else "any"  # a filter, not a name: there is no one "the object"
        if cands and self.excluded:
            cands = [c for c in cands if c.entity.id not in self.excluded]
            if not cands:
                return Grounding(ref, "none", [], problem=f"I know no other {ref.noun()} than the one I chose")
        if not cands:
            return Grounding(ref, "none", [], problem=f"I have not seen {indefinite(ref.noun())}")
        # whose: a possession fact lifts the owner's thing; when memory was told, only those count
        if ref.owner and ref.owner != "robot":
            owned = self._owned_by(ref)
            if owned is not None:
                keep = [c for c in cands if c.entity.id in owned.entity_ids]
                if keep:
                    cands = [_boost(c, POSSESSION_SCORE, f"{owned.owner}'s: {owned.said}") for c in keep]
            elif ref.owner != "speaker" and not self.people_called(ref.owner) and \
                    not resolve_entities(ref.owner, self._pool()) and \
                    not resolve_rooms(ref.owner, self.world.entities.values()) and \
                    not any(re.search(rf"\b{re.escape(ref.owner)}\b", c.entity.name or "", re.I) for c in cands):
                # (a thing named for its owner, "Ann's cup", says whose it is though memory knows no Ann)
                # whose it is names no one memory knows ("Carol's glass", a name heard wrong): any glass would be
                # a guess about whose it is, and acting on a guess is the wrong thing confidently
                return Grounding(ref, "none", [], how=how, problem=(
                    f"I know no one called {ref.owner.title()}, so I cannot tell which {ref.noun()} is theirs"))
            else:
                # memory was not told which is this person's: a thing it was told is someone else's is not it
                # ("bring me Ben's mug" must not fetch the mug Anna said is hers)
                whose = {self.speaker.lower(), DEFAULT_SPEAKER} if ref.owner == "speaker" else {ref.owner.lower()}
                others = {c.entity.id: o for c in cands[:64]
                          if (o := self.owner_of(c.entity.id)) is not None and o.owner.lower() not in whose}
                if others:
                    cands = [c for c in cands if c.entity.id not in others]
                    if not cands:
                        o = next(iter(others.values()))
                        who = "your" if ref.owner == "speaker" else f"{ref.owner.title()}'s"
                        return Grounding(ref, "none", [], how=how, problem=(
                            f"I know {indefinite(ref.noun())} only as {o.owner.title()}'s ({o.said}); I was not told "
                            f"which is {who}"))
        cands, problem = self._attributes(ref, cands)
        if problem:
            return Grounding(ref, "none", [], how=how, problem=problem)
        if how == "any thing" and cands:
            cands, problem = self._described(ref, cands)
            if problem:
                return Grounding(ref, "none", [], how=how, problem=problem)
        if ref.anchor is not None:
            cands, problem = self._anchored(ref, cands)
            if problem:
                return Grounding(ref, "none", [], how=how, problem=problem)
        cands.sort(key=_rank)
        present = [c for c in cands if c.entity.present]
        if want == "all":
            return Grounding(ref, "all", present or cands, how=how)
        if want == "any":
            usable = [c for c in present if not self.unusable(c.entity.id)] or present or cands
            room = self.world.robot_room
            usable.sort(key=lambda c: (-c.score, room is not None and self.world.room_of(c.entity.id) != room,
                                       -c.entity.last_seen_ns, c.entity.id))
            return Grounding(ref, "unique", usable, how=how)
        pool = present or cands
        top = [c for c in pool if abs(c.score - pool[0].score) < 1e-9]
        if len(top) == 1:
            return Grounding(ref, "unique", pool, how=how)
        last = set(self.conversation.last(speaker)) if self.conversation else set()
        said_before = [c for c in top if c.entity.id in last]
        if len(said_before) == 1:
            chosen = said_before[0]
            return Grounding(ref, "unique", [chosen] + [c for c in pool if c is not chosen], how=how,
                             note="the one you asked about before")
        if self._interchangeable(top):
            return Grounding(ref, "unique", pool, how=how,
                             note=f"one of {len(top)} alike on {self._support(top[0].entity.id) or 'one place'}")
        # recency alone does not decide: two mugs seen at different times are still two mugs, and choosing
        # the newer silently is the mistake people notice most ("that's not my mug")
        return Grounding(ref, "ambiguous", top, how=how)

    def _support(self, ent_id: str) -> str:
        chain = self.world.chain(ent_id)
        return chain[0] if chain else ""

    def _interchangeable(self, cands: list[Candidate]) -> bool:
        """Two apples in one bowl: same kind, same place, nothing said or seen that tells them apart. Asking
        "which one?" then helps nobody; any of them is what was meant."""
        first = cands[0].entity
        where = self._support(first.id)
        said = _TELLING_ATTRIBUTES
        return bool(where) and all(c.entity.label == first.label and self._support(c.entity.id) == where and
                                   {k: v for k, v in c.entity.attributes.items() if k in said} ==
                                   {k: v for k, v in first.attributes.items() if k in said}
                                   and c.entity.name == first.name and c.entity.present for c in cands)

    def unusable(self, ent_id: str) -> str:
        """Why memory says a thing cannot be used now ("" when nothing is recorded against it)."""
        states = self.world.states.get(ent_id, set())
        if "locked" in states:
            return "it is locked"
        if "broken" in states:
            return "it is broken"
        for f in self.world.failures.values():
            if getattr(f, "target", "") == ent_id:
                return f.reason()
        for outer in self.world.chain(ent_id):
            if "locked" in self.world.states.get(outer, set()):
                return f"it is inside {outer}, which is locked"
        return ""

    def people_called(self, name: str) -> list[str]:
        """The ids of the people memory knows by ``name``, best match first."""
        return [c.entity.id for c in resolve_entities(name, self.world.entities.values())
                if self.world.is_person(c.entity.id)]

    def _holds_what_follows(self, head: str) -> bool:
        """"X of Y" names Y (or a label of both) when X is a part, a package, a container or its fill, a
        portion, a measure, a group, or where or what Y is: "a carton of milk", "a slice of bread", "a bunch of
        bananas", "the home of the loo roll"."""
        word = singular(norm(head))
        if word in lx.PART_WORDS or word in PACKAGING or word in _ABOUT_WORDS:
            return True
        wn = self.names.wordnet
        return wn is None or any(wn.is_kind(word, k) for k in _HOLDER_KINDS)

    def _pool(self, include_rooms: bool = False) -> list[Entity]:
        return [e for e in self.world.entities.values() if include_rooms or e.label != ROOM_LABEL]

    def _kind(self, ref: ObjectRef, every: bool = False) -> tuple[list[Candidate], str]:
        """Entities the noun names: exact label / name / id, then a part naming its whole, then head noun,
        everyday name, WordNet and kind (a category noun: every thing of it), then MiniLM similarity."""
        if ref.of_noun and ref.head and not self._holds_what_follows(ref.head):
            # "the teddy of lotion", "the remote of the tv": the word before "of" is no container, portion or
            # group, so it names the thing itself when memory holds one (the words after say which, at most)
            alone, how = self._kind(ref.model_copy(update={"of_noun": ""}), every)
            if alone and how in _SURE_MATCHES:
                return alone, how
        if ref.of_noun and ref.head:
            # "a carton of milk", "a bottle of water": the thing held, or a label naming both (milkcarton)
            held = ObjectRef(text=ref.of_noun, head=ref.of_noun.split()[-1], compound=ref.of_noun.split()[:-1])
            both = ref.model_copy(update={"compound": [*ref.of_noun.split()], "of_noun": ""})
            for alt in (both, held):
                cands, how = self._kind(alt, every)
                if cands:
                    if alt is held and ref.head in lx.PART_WORDS:  # "the door of the dishwasher"
                        cands = [Candidate(entity=c.entity, score=c.score, reasons=(*c.reasons, f"its {ref.head}"),
                                           confidence=min(c.confidence, CONFIDENCE["part"]), how="part")
                                 for c in cands]
                        how = "part"
                    return cands, how
        nominal = [m for m in ref.modifiers if m not in _COLOURS]
        noun_words = [*nominal, *ref.compound, ref.head] if ref.head else []
        if not noun_words:
            return [], ""
        keys = {key(" ".join(noun_words[i:])): len(noun_words) - i for i in range(len(noun_words))}
        keys.update({norm(" ".join(noun_words[i:])): len(noun_words) - i for i in range(len(noun_words))})
        # the words as said, too: the tagger's lemma can differ from a label ("khakis" -> khaki, "specimen" ->
        # speciman), so the surface form of the phrase is matched as well
        said = words(ref.text)
        for i in range(len(said)):
            keys.setdefault(norm(" ".join(said[i:])), len(said) - i)
            keys.setdefault(key(" ".join(said[i:])), len(said) - i)
        # and either spelling: "the colour printer" is the colorprinter (both sides in American spelling)
        for k, span in list(keys.items()):
            keys.setdefault(american(k), span)
        exact: list[Candidate] = []
        plural_only: list[Candidate] = []  # a plural label reached from a singular noun: "my glass" -> glasses
        for ent in self._pool():
            for field_name, base, value in (("id", 3.0, ent.id), ("name", 2.0, ent.name), ("label", 1.0, ent.label)):
                # labels are sometimes plural ("cutlets", "slippers"): compare singular to singular too. A
                # value longer than anyone says (stored before the input limits) is not compared at all, so
                # a request costs the same whatever memory once took in
                forms = (norm(value), key(value), american(norm(value)), american(key(value))) \
                    if value and len(value) <= MATCH_CHARS else ()
                k = next((x for x in forms if x in keys), "")
                if k:
                    span = keys[k]
                    c = Candidate(entity=ent, score=base + 0.5 * (span - 1), reasons=(f"{field_name} {value}",))
                    weak = field_name == "label" and k != forms[0] and not ref.plural
                    (plural_only if weak else exact).append(c)
                    break
        if exact and plural_only and max(c.score for c in plural_only) > max(c.score for c in exact):
            # "a garden chair" when memory calls them gardenchairs: the label that uses every word said is
            # the thing meant, not a "chair" that leaves "garden" unsaid
            widest = max(c.score for c in plural_only)
            exact = [c for c in plural_only if c.score >= widest]
            plural_only = []
        full = key(" ".join(noun_words))
        part = self._part(ref, exact, keys, len(noun_words))
        if part:
            return part, "part"
        if exact and not (len(noun_words) > 1 and max(keys.get(norm(c.entity.label), 0) for c in exact) < len(noun_words)
                          and full in self.names.names):
            # "the tv remote": a match that leaves the head unsaid is weaker than one that uses all the words
            best_span = max(c.score for c in exact)
            kept = [c for c in exact if c.score >= min(best_span, 1.0)]
            labels = [c for c in kept if c.reasons[0].startswith("label")]
            if labels:  # "wine glasses": the label that uses both words, not also "glasses"
                widest = max(c.score for c in labels)
                kept = [c for c in kept if not c.reasons[0].startswith("label") or c.score >= widest]
            return kept, "exact"
        fallback_exact = exact  # "the medicine cabinet": an everyday name for the whole phrase goes first
        by_label: dict[str, Any] = {}
        out: list[Candidate] = []
        for ent in self._pool():
            if ent.label not in by_label:
                by_label[ent.label] = self.names.match(ref.head, ref.compound, ent.label[:MATCH_CHARS])
            m = by_label[ent.label]
            if m is None and ent.name:
                m = self.names.match(ref.head, ref.compound, ent.name[:MATCH_CHARS])
            if m is not None:
                out.append(Candidate(entity=ent, score=m.score, reasons=(f"{m.how}: {ent.label}",),
                                     confidence=m.confidence, how=m.how))
        if not out or {c.how for c in out} <= {"wordnet kind", "kind"}:
            category = self._category(ref)
            # a filter noun over several kinds; one kind alone is that kind's name, unless the category
            # finds more (honey by name, and the sugar in a shaker by what it holds)
            found = len({c.entity.label for c in out})
            if category and (found != 1 or len({c.entity.label for c in category}) > found):
                return category, "category"
        if out and all(c.how == "shared kind" and c.confidence < ASK_BELOW for c in out):
            # only the category map files them alike: a close MiniLM match of the whole phrase says more
            similar = self._similar(ref)
            if similar:
                return similar, "similar"
        if out:
            best = max(c.score for c in out)
            # the category map's preference picks "the phone" of several kinds; "how many phones" counts them all
            margin = CATEGORY_BONUS + 1e-9 if every else 1e-9
            kept = [c for c in out if c.score >= best - margin]
            if not every:
                # ... but only among things of one kind: "the cream" with a whipped cream (food) and a face cream
                # (toiletry) in memory is either, and the robot asks which rather than fetch the map's favourite
                tops = {self._top_kind(c.entity.label) for c in kept}
                kept += [_boost(c, best - c.score, "another kind of thing the noun names") for c in out
                         if c not in kept and c.how == "head noun" and c.score >= best - CATEGORY_BONUS - 1e-9
                         and self._top_kind(c.entity.label) not in tops]
            return kept, kept[0].reasons[0].split(":")[0]
        if fallback_exact:
            return fallback_exact, "exact"
        if plural_only:  # "the curtain" -> curtains, when nothing is labelled with the singular
            return plural_only, "exact"
        guessed = self._kind_guessed(ref)
        if guessed:
            return guessed, "kind guessed"
        return self._similar(ref), "similar"

    def _top_kind(self, label: str) -> str:
        """The category map's top-level kind of a label (food, toiletry, furniture, ...); the label itself where
        the map has none."""
        chain = self.names.categories.chain(label)
        return chain[-1] if chain else label

    def _kind_guessed(self, ref: ObjectRef) -> list[Candidate]:
        """A noun WordNet does not know in any sense or spelling ("hoodie"), which the category map files
        under a kind: of the things memory holds of that kind, the one MiniLM finds nearest the noun,
        when it is clearly nearest, else all of them. A guess, so its confidence asks back ("Do you mean
        the sweater?"); a noun WordNet knows and relates to nothing here is another thing, not this."""
        from ..core import similarity
        from ..core.embedding import default_embedder

        wn = self.names.wordnet
        if wn is None or not ref.head or ref.of_noun:
            return []
        noun = ref.noun()
        head = singular(norm(ref.head))
        if self.names.said_phrase(ref.compound, ref.head)[0] or \
                any(wn.any_noun(w) for w in (ref.head.lower(), head, *variants(head))):
            return []  # WordNet knows the word (in some sense): it relating it to nothing here is a no
        said = [key(noun), key(ref.head)]
        chain = next((c for k in dict.fromkeys([*said, *(american(x) for x in said)])
                      if len(c := self.names.categories.chain(k)) > 1), [])
        if not chain:
            return []
        kind = chain[1]
        pool = [e for e in self._pool() if kind in self.names.categories.chain(e.label)[1:]]
        labels = sorted({e.label for e in pool})
        if not labels:
            return []
        try:
            vecs = similarity._CACHE.vectors(default_embedder(), [canonical(noun),
                                                                  *(" ".join(self.names.label_words(x)) for x in labels)])
        except Exception as e:  # noqa: BLE001 - without the embedder no guess is made
            log.debug("kind guess unavailable: %s", e)
            vecs = None
        if vecs is None:
            return []
        cos = dict(zip(labels, (vecs[1:] @ vecs[0]).tolist()))
        ranked = sorted(labels, key=lambda x: -cos[x])
        if cos[ranked[0]] < GUESS_MIN_COSINE:
            return []
        if len(ranked) == 1 or cos[ranked[0]] - cos[ranked[1]] >= GUESS_MARGIN:
            ranked = ranked[:1]
        how = "kind guessed"
        return [Candidate(entity=e, score=0.4 + 0.1 * cos[e.label],
                          reasons=(f"a {kind}, like {noun} ({cos[e.label]:.2f}): {e.label}",),
                          confidence=CONFIDENCE[how], how=how)
                for e in pool if e.label in ranked]

    def _generic(self, ref: ObjectRef) -> list[Candidate]:
        """"any objects on the counter?", "is there anything in the fridge": every thing memory holds (not
        rooms, not people), for the anchor, room and attributes to narrow down."""
        how = "any thing"
        return [Candidate(entity=e, score=KIND_MATCH_SCORE, reasons=(f"{how}: {e.label}",),
                          confidence=CONFIDENCE[how], how=how)
                for e in self._pool() if not self.world.is_person(e.id)]

    def _category(self, ref: ObjectRef) -> list[Candidate]:
        """"is there food in the fridge", "any devices in the study": a noun WordNet lists above two or
        more kinds of thing memory holds is a filter, not a name: every thing of those kinds matches
        alike (an apple and a cupcake are both food)."""
        wn = self.names.wordnet
        if wn is None or ref.compound or not ref.head:
            return []
        said = singular(norm(ref.head))
        kinds: dict[str, int] = {}
        for label in {e.label for e in self._pool()}:
            for lp, whole in self.names._label_senses(label):
                d = wn.is_kind_of(lp, said, max_distance=CATEGORY_MAX_STEPS)
                # "chinese food" is food too: a label read by its head word counts when the head is the noun
                if d is not None and (d >= 1 or not whole):
                    kinds[label] = d
                    break
            lw = self.names.label_words(label)
            if label not in kinds and len(lw) > 1 and singular(lw[-1]) in PACKAGING:
                # a sugar shaker, a milk carton: what it holds is what it is asked about as
                d = wn.is_kind_of(" ".join(lw[:-1]), said, max_distance=CATEGORY_MAX_STEPS)
                if d is not None:
                    kinds[label] = d
        if len(kinds) < 2:
            return []
        how = "category"
        return [Candidate(entity=e, score=KIND_MATCH_SCORE, reasons=(f"{how} {said}: {e.label}",),
                          confidence=CONFIDENCE[how], how=how)
                for e in self._pool() if e.label in kinds]

    def _part(self, ref: ObjectRef, exact: list[Candidate], keys: dict[str, int], n: int) -> list[Candidate]:
        """"the oven door", "the fridge handle", "the door of the dishwasher": a part names its whole when
        the words before it name a thing memory holds and no thing is called by the whole phrase. A part is
        a closed-class part word (``lexicon.PART_WORDS``) or a part WordNet lists for that kind of thing."""
        if n < 2 or ref.of_noun:
            return []
        part = singular(norm(ref.head))
        whole_words = [*[m for m in ref.modifiers if m not in _COLOURS], *ref.compound]
        if not whole_words or any(keys.get(norm(c.entity.label), 0) == n for c in exact):
            return []
        whole = " ".join(whole_words)
        wn = self.names.wordnet
        if part not in lx.PART_WORDS and not (wn is not None and wn.is_part(part) and wn.has_part(whole, part)):
            return []
        sub = ObjectRef(text=whole, head=whole_words[-1], compound=whole_words[:-1])
        found, how = self._kind(sub)
        if not found or how not in ("exact", "everyday name", "wordnet synonym", "head noun"):
            return []
        return [Candidate(entity=c.entity, score=c.score, reasons=(*c.reasons, f"its {part}"),
                          confidence=min(c.confidence, CONFIDENCE["part"]), how="part") for c in found]

    def _similar(self, ref: ObjectRef) -> list[Candidate]:
        """Last resort: MiniLM similarity of the noun to each label memory holds (split into words, vectors
        cached per distinct text), kept above ``SIMILAR_MIN_COSINE`` (remote ~ remote control 0.80, couch ~
        sofa 0.86; keys ~ keyboard 0.55 and cup ~ cupboard 0.31 stay out), or above
        ``SIMILAR_SHARED_COSINE`` when the label carries the words said before the head ("coffee machine" ~
        coffee maker). WordNet vetoes a pair it knows to be different things (``Names.compatible``); only
        labels memory holds are candidates."""
        from ..core import similarity
        from ..core.embedding import default_embedder

        noun = ref.noun()
        pool = self._pool()
        labels = sorted({e.label for e in pool})
        if not labels or not noun.strip():
            return []
        try:
            vecs = similarity._CACHE.vectors(default_embedder(), [noun, *labels])
        except Exception as e:  # noqa: BLE001 - similarity is optional: the model may be missing
            log.debug("similarity stage unavailable: %s", e)
            vecs = None
        if vecs is None:
            return []
        cos = dict(zip(labels, (vecs[1:] @ vecs[0]).tolist()))
        comp = [norm(c) for c in ref.compound]
        out = []
        for ent in pool:
            c = cos.get(ent.label, 0.0)
            lw = self.names.label_words(ent.label)
            # the label carries the words said before the head, and more ("coffee maker"; not "tv" for "tv unit")
            shared = bool(comp) and len(lw) > len(comp) and all(w in lw for w in comp)
            if c < SIMILAR_MIN_COSINE and not (shared and c >= SIMILAR_SHARED_COSINE):
                continue
            if not self.names.compatible(ref.compound, ref.head, ent.label):
                continue  # WordNet knows both and they are different things, however close the vectors
            out.append(Candidate(entity=ent, score=0.4 + 0.1 * c, reasons=(f"similar to {ent.label} ({c:.2f})",),
                                 confidence=round(min(0.6, CONFIDENCE["similar"] + max(0.0, c - SIMILAR_MIN_COSINE)), 3),
                                 how="similar"))
        if out:  # the most similar label; others only when as close
            best = max(c.score for c in out)
            out = [c for c in out if c.score >= best - 0.01]
        return out

    def _by_purpose(self, ref: ObjectRef, want: Want) -> Grounding:
        """"something to drink", "where can I wash my hands": things whose kind serves that use, by the
        purposes table and by what WordNet says each thing is for (``uses.py``); "somewhere" wants a place."""
        pool = [e for e in self._pool() if e.present]
        place = ref.head in ("somewhere", "anywhere", "place")
        activity = activity_of(ref.text) if ref.text else ref.purpose
        if not content_words(activity):
            activity = ref.purpose
        snack = activity in ("eat", "eat a snack") and not place
        if snack:
            activity = "eat a snack"  # "something to eat" is had as it is: fruit or a cake before raw meat
        holders = self.world.holder_labels()
        verb = ref.purpose
        if verb in ("use", "need") and content_words(activity):
            verb = content_words(activity)[0]  # "what can I use to clean up a spill": the use is cleaning
        # (a snack names no thing the eating is done to: its kinds, "food", would favour every gloss saying so)
        nouns = [] if snack else [w for w in content_words(activity) if w != verb]
        labels = {e.label for e in pool}

        def fit(use: str, doing: str) -> dict[str, UseFit]:
            return {f.label: f for f in default_uses().rank(use, labels, verb=doing, nouns=nouns, place=place,
                                                            holders=holders)}

        fits = fit(activity, verb)
        if not fits and verb and " " not in verb:
            # the use said in a verb no definition here uses ("something to mop it up"): the verbs WordNet says it
            # in ("to wash or wipe ..."), the first that something here is for
            wn = default_wordnet()
            for other in (wn.verbs_meant(verb)[:4] if wn is not None else ()):
                fits = fit(re.sub(rf"\b{re.escape(verb)}\b", other, activity), other)
                if fits:
                    break
        cap = 1.0
        if not fits and place:
            # no place is made for it, but a thing may be, by name ("where can I dry my hands?": the towel,
            # "for drying or wiping"; not a magazine for "where can I read a book?")
            fits = {f.label: f for f in default_uses().rank(activity, labels, verb=verb, nouns=nouns, holders=holders)
                    if f.names_verb}
        if not fits and place:
            # nothing is made for it: most things people do at home they do sitting, so a seat is offered,
            # as a question (scored below what ``uses.SURE_USE`` states plainly)
            fits = {f.label: f for f in default_uses().rank("sit", labels, verb="sit", place=True, holders=holders)}
            cap = SEAT_OFFER
        cands = [Candidate(entity=e, score=min(cap, fits[e.label].score),
                           reasons=(f"for {ref.purpose}: {e.label} ({fits[e.label].why})",))
                 for e in pool if e.label in fits]
        if not cands:
            return Grounding(ref, "none", [], how="purpose",
                             problem=f"I know of nothing to {ref.purpose} here")
        cands.sort(key=_rank)
        usable = [c for c in cands if not self.unusable(c.entity.id)] or cands
        return Grounding(ref, "all" if want == "all" else "unique", usable, how="purpose")

    def _owned_by(self, ref: ObjectRef) -> Owned | None:
        owner_word = "my" if ref.owner == "speaker" else f"{ref.owner}'s"
        return self.owned(f"{owner_word} {ref.noun()}")

    def _attributes(self, ref: ObjectRef, cands: list[Candidate]) -> tuple[list[Candidate], str]:
        """Adjectives said ("the blue mug", "the big plate"): those that carry them win; a colour said that
        no candidate has, when their colours are known, means none of them."""
        label_words = {w for c in cands[:1] for w in self.names.label_words(c.entity.label)}
        mods = {norm(m) for m in ref.modifiers} | {norm(c) for c in ref.compound if norm(c) not in label_words
                                                   and norm(c) not in norm(cands[0].entity.label if cands else "")}
        if not mods:
            return cands, ""
        out = []
        for c in cands:
            have = _attribute_words(c.entity) & mods
            out.append(_boost(c, 1.0 * len(have), f"attributes {', '.join(sorted(have))}") if have else c)
        carrying = [c for c, orig in zip(out, cands) if c.score > orig.score]
        if carrying:
            return carrying, ""
        colours_said = mods & _COLOURS
        known = [c for c in cands if c.entity.attributes.get("color") or c.entity.attributes.get("colour")]
        if colours_said and known and len(known) == len(cands):
            seen = sorted({(c.entity.attributes.get("color") or c.entity.attributes.get("colour", "")) for c in known})
            return [], (f"I know {len(cands)} {ref.head}{'s' if len(cands) > 1 else ''} but none is "
                        f"{' '.join(sorted(colours_said))} (I saw {', '.join(seen)})")
        return cands, ""

    def _described(self, ref: ObjectRef, cands: list[Candidate]) -> tuple[list[Candidate], str]:
        """"something sweet", "anything soft": a word no thing carries as an attribute is what the things are
        like, read from what WordNet says of each kind (``uses.py``); never ignored (before, "bring me something
        sweet" fetched whatever came first). What it finds is a guess, asked about, not acted on."""
        said = [m for m in ref.modifiers if norm(m) not in _COLOURS | _PLAIN_DESCRIPTORS]
        if not said or len(said) < len(ref.modifiers) or \
                any(_attribute_words(c.entity) & {norm(m) for m in said} for c in cands):
            return cands, ""  # a colour said ("the brown colored object") is what the attributes decide
        phrase = " ".join(said)
        fits = {f.label: f for f in default_uses().rank(f"something {phrase}", {c.entity.label for c in cands})}
        kept = [Candidate(entity=c.entity, score=fits[c.entity.label].score,
                          reasons=(f"{phrase}: {c.entity.label} ({fits[c.entity.label].why})",),
                          confidence=CONFIDENCE["similar"], how="similar")
                for c in cands if c.entity.label in fits]
        if not kept:
            return [], f"I do not know of anything {phrase}"
        return kept, ""

    def _anchored(self, ref: ObjectRef, cands: list[Candidate]) -> tuple[list[Candidate], str]:
        """"the mug on the table", "the apple next to the lemon", "the salmon in the microwave", "the cup in
        the kitchen": keep the candidates the reference holds for. The anchor is grounded like any phrase; a
        room anchor is a room filter; an anchor memory cannot place is said so, never folded into the noun."""
        assert ref.anchor is not None
        if ref.anchor.negated:
            # "the glass that is not on the table": the candidates the anchor does not hold for
            holds, _ = self._anchored(ref.model_copy(update={"anchor": ref.anchor.model_copy(update={"negated": False})}),
                                      cands)
            held = {c.entity.id for c in holds}
            keep = [c for c in cands if c.entity.id not in held]
            if not keep:
                return [], (f"every {ref.noun()} I know is {ref.anchor.relation.replace('_', ' ')} "
                            f"{_definite(ref.anchor.ref.noun())}")
            return keep, ""
        anchor = ref.anchor.ref
        rooms = resolve_rooms(anchor.words(), self.world.entities.values()) if anchor.head else []
        room_ids = {r.id for r in rooms}
        if not room_ids and anchor.head:
            # rooms memory knows only as the room of what it saw (no room record of their own)
            said = norm(anchor.words())
            room_ids = {e.room for e in self.world.entities.values() if e.room and room_key(e.room) in
                        (said, norm(anchor.head))}
        if room_ids and not anchor.anchor:
            keep = [_boost(c, 2.0, f"in {self.world.room_of(c.entity.id)}") for c in cands
                    if self.world.room_of(c.entity.id) in room_ids or c.entity.room in room_ids]
            if not keep:
                where = ", ".join(sorted(room_ids))
                known = f"{len(cands)} {plural(ref.noun())}" if len(cands) > 1 else indefinite(ref.noun())
                return [], (f"I know {known}, but none in the {anchor.words()} ({where}){self._rooms_of(cands)}"
                            if cands else f"I have not seen {indefinite(ref.noun())} in the {anchor.words()}")
            return keep, ""
        grounded = self.ground(anchor, want="all")
        if grounded.status == "none" and (anchor.head in _VIEWER_PLACES or anchor.head in ("the", "a", "an")) and \
                not anchor.anchor:  # ("on the left" with "left" tagged a verb leaves the anchor "the")
            # "the fridge on the right", "the counter in front of you", "in the corner": where it is as the
            # speaker sees it, which memory cannot check; the thing is told apart by the rest (one fridge is
            # that fridge; of several, the robot asks which)
            return cands, ""
        if grounded.status == "none":
            return [], f"I know nothing called {anchor.noun()}, so I cannot tell which {ref.head} you mean"
        anchor_ids = {c.entity.id for c in grounded.candidates}
        if not (anchor.compound or anchor.modifiers or anchor.owner or anchor.anchor):
            # "on the shelf" as a place: a wall shelf is a shelf too (the exact label wins only for the thing)
            anchor_ids |= {e.id for e in self._pool() if e.present and e.label != ROOM_LABEL and
                           self.names.label_words(e.label)[-1] == singular(norm(anchor.head))}
        relation = ref.anchor.relation
        prep = {"near": "near", "next_to": "beside", "under": "under", "above": "on", "behind": "near",
                "in_front_of": "near"}.get(relation, "in")
        by_id = dict(self.world.entities)
        test = _HintTest(prep, anchor_ids, by_id)
        keep = []
        for c in cands:
            holds, closeness, why = test(c.entity)
            if holds:
                extra = 2.0 + (closeness if prep in NEAR_WORDS | UNDER_WORDS else 0.0)
                keep.append(_boost(c, extra, why))
        if not keep and prep in NEAR_WORDS:
            keep = self._clearly_nearest(cands, anchor_ids, by_id)
        if not keep and len(cands) == 1 and relation in _SEEN_BY_POSITION_ONLY and self.for_a_task:
            # "the microwave above the stove" when memory knows one microwave, not above it: a place memory judges
            # from positions alone (no scene graph says "above") is weak evidence against the only one there is;
            # it is asked about ("Do you mean the microwave ... ?"), neither refused nor taken
            c = cands[0]
            return [Candidate(entity=c.entity, score=c.score, hint_holds=False, how=c.how,
                              reasons=(*c.reasons, f"not seen {relation.replace('_', ' ')} {anchor.noun()}"),
                              confidence=min(c.confidence, LANDMARK_UNSEEN_CONFIDENCE))], ""
        if not keep:
            return [], (f"I know {indefinite(ref.noun())}, but none {relation.replace('_', ' ')} "
                        f"{_definite(anchor.noun())}")
        return keep, ""

    def _rooms_of(self, cands: list[Candidate]) -> str:
        """Where the ones memory knows are, said after "none in the kitchen" when there are one or two: the
        asker learns where to look instead of only where not to."""
        if not 0 < len(cands) <= 2:
            return ""
        said = []
        for c in cands:
            room = self.world.room_of(c.entity.id)
            if not room or not room_key(room):
                return ""
            said.append(f"the {c.entity.label} ({c.entity.id}) is in the {room_key(room)} ({room})")
        return ": " + "; ".join(said)

    @staticmethod
    def _clearly_nearest(cands: list[Candidate], anchor_ids: set[str],
                         by_id: Mapping[str, Entity]) -> list[Candidate]:
        """"the plate by the shelf" when no plate is within arm's reach of it: people say "by" of the nearest
        one too, when it is clearly nearer than the others (and still in the same part of the room)."""
        dist = []
        for c in cands:
            ds = [d for a in anchor_ids if a != c.entity.id and (anchor := by_id.get(a)) is not None
                  and (d := _distance(c.entity, anchor)) is not None]
            if ds:
                dist.append((min(ds), c))
        dist.sort(key=lambda x: x[0])
        if not dist or dist[0][0] > NEAR_FALLBACK_M or len(dist) > 1 and dist[0][0] > NEAR_MARGIN * dist[1][0]:
            return []
        d, c = dist[0]
        return [_boost(c, 2.0, f"the nearest, {d:.2f} m away")]

    # ---- when ----------------------------------------------------------------------------------------

    def anchor_event(self, clause: str, subject_id: str = "") -> Event | None:
        """The event a clause such as "I moved it", "you opened the fridge" or "the mug was moved" means:
        the most recent event about the thing it names whose wording carries its verb. "it" is
        ``subject_id``. Moves are also found among observed changes, which is how memory usually learns
        of them."""
        actor, verb, obj = _clause_parts(clause)
        if not verb:
            return None
        if obj in _PRONOUNS or not obj:
            targets = [subject_id] if subject_id else []
        else:
            ref = _phrase_ref(obj)
            g = self.ground(ref, "all") if ref.head else None
            cands = g.candidates if g is not None and g.status != "none" else self.find(obj)
            top = cands[0].score if cands else 0.0
            targets = [c.entity.id for c in cands if c.score == top]
        if not targets:
            # what people did with things memory does not hold as entities ("brushed his teeth", "made
            # coffee"): the activity log, by verb and the object's words
            return self._activity_by_words(actor, verb, obj)
        moving = verb in {stem(v) for v in _MOVE_VERBS}
        best: tuple[int, int] | None = None
        found: Event | None = None
        for target in targets:
            for ev in self.store.events(entity_id=target, until_ns=self.world.as_of_ns, limit=200):
                if not _event_matches(ev, verb, actor, moving):
                    continue
                # what the named actor was seen doing beats the change memory noticed afterwards
                said_actor = str(ev.data.get("actor", "")) == actor
                rank = (int(said_actor), ev.stamp_ns)
                if best is None or rank > best:
                    best, found = rank, ev
        return found

    def _activity_by_words(self, actor: str, verb: str, obj: str) -> Event | None:
        wanted = {stem(w) for w in words(obj) if w not in ("his", "her", "their")}
        for ev in self.store.events(until_ns=self.world.as_of_ns, limit=500):
            if ev.kind not in ("activity", "skill"):
                continue
            if not _event_matches(ev, verb, actor, False):
                continue
            said = {stem(w) for w in re.findall(r"[a-z]+", ev.text.lower())}
            if wanted <= said or not wanted:
                return ev
        return None


def _clause_parts(clause: str) -> tuple[str, str, str]:
    """(actor word, verb stem, object phrase) of a clause such as "Ben sat down on the sofa", "you opened the
    fridge", "the mug was moved", "making coffee", read from its dependency parse: spaCy's lemma meets
    irregular forms ("sat" -> sit, "took" -> take) that a suffix stem cannot."""
    from .parser import pipeline

    doc = pipeline()(" ".join(clause.split()))
    if not len(doc):
        return "", "", ""
    verbs = [t for t in doc if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("aux", "auxpass")]
    verb = doc[:].root if doc[:].root.pos_ in ("VERB", "AUX") else (verbs[0] if verbs else doc[:].root)
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    passive = next((c for c in verb.children if c.dep_ == "nsubjpass"), None)
    actor = subj.text.lower() if subj is not None else ("someone" if passive is not None else "")
    if actor in ("he", "she", "they"):
        actor = "someone"
    obj_tok = next((c for c in verb.children if c.dep_ in ("dobj", "attr")), None) or passive
    if obj_tok is None:
        for c in [*verb.children, *(g for p in verb.children if p.dep_ == "prt" for g in p.children)]:
            if c.dep_ == "prep":
                obj_tok = next((p for p in c.children if p.dep_ == "pobj"), None)
                if obj_tok is not None:
                    break
    obj = " ".join(t.text for t in obj_tok.subtree) if obj_tok is not None else ""
    return actor, stem(verb.lemma_.lower()), obj.lower()


def _phrase_ref(phrase: str) -> ObjectRef:
    ws = [w for w in words(phrase) if w not in ("his", "her", "their")]
    return ObjectRef(text=phrase, head=singular(ws[-1]) if ws else "", compound=ws[:-1])


def _event_matches(ev: Event, verb: str, actor: str, moving: bool) -> bool:
    if moving and ev.kind == "change" and "from" in ev.data:
        return True  # memory saw it somewhere else
    text_stems = {stem(w) for w in re.findall(r"[a-z]+", ev.text.lower())}
    if ev.kind == "skill":
        skill_stems = {stem(w) for w in re.findall(r"[a-z]+", str(ev.data.get("skill", "")))}
        return actor in _ROBOT_WORDS and (verb in skill_stems or verb in text_stems)
    if ev.kind == "activity":
        return actor not in _ROBOT_WORDS and (verb == stem(str(ev.data.get("verb", ""))) or verb in text_stems)
    return ev.kind != "utterance" and verb in text_stems


# ---- typed grounding results --------------------------------------------------------------------------

Want = Literal["one", "any", "all"]
NEAR_FALLBACK_M = 2.5  # "by the shelf" of the one clearly nearest it: at most this far ...
NEAR_MARGIN = 0.6  # ... and at most this share of the next nearest one's distance
SIMILAR_MIN_COSINE = 0.78
# a kind guessed for a noun WordNet does not know: the nearest of memory's things of that kind, at least this
# close, and this much closer than the next, is offered alone; otherwise the closest few are
GUESS_MIN_COSINE = 0.45
GUESS_MARGIN = 0.08
# where a thing is as the speaker sees it ("on the left", "in front of you", "in the corner", "by the wall"):
# memory holds no such thing to check a phrase against
_VIEWER_PLACES = lx.SPOT_WORDS | {"you", "me", "us", "wall", "walls", "window", "door", "floor", "ceiling",
                                  "room", "way", "distance", "view", "sight", "leftmost", "rightmost"}
SIMILAR_SHARED_COSINE = 0.6  # ... enough when the label carries every word said before the head
KIND_MATCH_SCORE = 0.6  # a filter noun ("food", "objects") matches every thing it covers alike
CATEGORY_MAX_STEPS = 6  # is-a steps from a label up to a category word ("food" -> an apple: 3)
ASK_BELOW = 0.6  # a grounding less sure than this is asked back, not acted on (``Grounding.should_ask``)
# words that describe no property of a kind of thing ("the brown colored object", "that little thing")
_PLAIN_DESCRIPTORS = frozenset({"colored", "coloured", "little", "small", "big", "large", "old", "new", "other",
                                "random", "whole", "same", "single", "main"})
CLOSE_MARGIN = 0.05  # a runner-up of another kind this close in score makes the best one a guess
# attributes a person would tell two things apart by (a size in centimetres is not one of them)
_TELLING_ATTRIBUTES = frozenset({"color", "colour", "material", "brand", "pattern", "shape", "owner", "label_text"})
_COLOURS = lx.COLOUR_WORDS


@dataclass
class Grounding:
    """What a phrase means in memory: ``unique`` (``candidates[0]`` is it; the rest are runners-up),
    ``ambiguous`` (the tied candidates, for the reply to list), ``all`` (every one, for counts, lists and
    plurals) or ``none`` (``problem`` says why, as the user should hear it)."""

    ref: ObjectRef
    status: Literal["unique", "ambiguous", "all", "none"]
    candidates: list[Candidate] = field(default_factory=list)
    how: str = ""  # exact, head noun, everyday name, kind, similar, purpose, previous request
    problem: str = ""
    note: str = ""  # how a tie was broken

    @property
    def entity(self) -> Entity | None:
        return self.candidates[0].entity if self.candidates and self.status in ("unique", "all") else None

    @property
    def ids(self) -> list[str]:
        return [c.entity.id for c in self.candidates]

    @property
    def confidence(self) -> float:
        """How sure the grounding is, 0..1: the best candidate's name-match confidence (exact label 1.0,
        everyday name / WordNet synonym ~0.8, a kind or a part ~0.7, similarity <= 0.6), halved when a
        runner-up of another kind is as good, and divided among tied candidates when ambiguous."""
        if self.status == "none" or not self.candidates:
            return 0.0
        top = self.candidates[0]
        if self.status == "ambiguous":
            return round(top.confidence / len(self.candidates), 3)
        if self.status == "all" or self.how in ("any thing", "category", "previous request", "purpose"):
            return round(top.confidence, 3)
        close = any(c.entity.label != top.entity.label and c.score >= top.score - CLOSE_MARGIN
                    and c.confidence >= top.confidence - CLOSE_MARGIN for c in self.candidates[1:])
        return round(top.confidence * (0.5 if close else 1.0), 3)

    def should_ask(self, threshold: float = ASK_BELOW) -> bool:
        """Ask back rather than act: ambiguous, or less sure than ``threshold``."""
        return self.status == "ambiguous" or (self.status == "unique" and self.confidence < threshold)

    def options(self, n: int = 3) -> list[Option]:
        """The best candidates for a question back, best first: distinct entities with their confidence."""
        out: list[Option] = []
        for c in self.candidates:
            if len(out) == n:
                break
            if all(o.id != c.entity.id for o in out):
                out.append(Option(id=c.entity.id, label=c.entity.label, name=c.entity.name,
                                  room=c.entity.room or "", confidence=round(c.confidence, 3), how=c.how))
        return out

    def question(self, n: int = 2) -> str:
        """"Do you mean the garbage can (garbagecan_99) in the kitchen?"; two or more: "... or ...?"."""
        opts = self.options(n)
        if not opts:
            return ""
        return "Do you mean " + " or ".join(o.said() for o in opts) + "?"


@dataclass(frozen=True)
class Option:
    """One candidate offered back to the user: entity id, label, room, and how sure and how matched."""

    id: str
    label: str
    name: str
    room: str
    confidence: float
    how: str

    def said(self) -> str:
        """"the garbage can (garbagecan_99) in the kitchen": the label split into words."""
        words_ = default_names().label_words(self.label) if self.label.isalnum() else self.label.split()
        noun = self.name or " ".join(words_)
        room = re.sub(r"[_\-\s]*\d+$", "", self.room).replace("_", " ")
        room = " ".join(default_names().label_words(room)) if room.isalnum() else room  # livingroom
        where = f" in the {room or self.room}" if self.room else ""
        return f"the {noun} ({self.id}){where}"


def wanted(ref: ObjectRef) -> Want:
    if ref.determiner in ("all", "every", "both") or (ref.quantity or 0) > 1 or \
            (ref.plural and ref.determiner not in ("a", "any", "some")):
        return "all"
    if ref.determiner in ("a", "any", "some", "no") or ref.head in ("something", "anything"):
        return "any"
    return "one"


# relations memory judges from positions alone; "in" and "on" are what scene graphs say, so a mismatch there stands
_SEEN_BY_POSITION_ONLY = frozenset({"under", "above", "behind", "in_front_of", "near", "next_to"})
# below ASK_BELOW (language/confidence.py): the only candidate, its landmark not seen, is asked about
LANDMARK_UNSEEN_CONFIDENCE = 0.45


def _boost(c: Candidate, extra: float, why: str) -> Candidate:
    return Candidate(entity=c.entity, score=c.score + extra, reasons=(*c.reasons, why), hint_holds=True,
                     confidence=c.confidence, how=c.how)


def _attribute_words(ent: Entity) -> set[str]:
    """Attribute words (as the phrase matcher reads them) and the words of the entity's name."""
    return attribute_words(ent) | {norm(w) for w in re.split(r"[\s_\-]+", ent.name) if w}


def _definite(noun: str) -> str:
    return f"the {noun}"
