"""What every answer and plan step is computed from: the typed request, one memory snapshot, and grounding.

``Context.one`` / ``Context.all`` turn the request's object phrases into entities with the grounding policy
of ``language/grounding.py`` and stop the request with a ready reply (``Reply``) when a phrase names nothing
memory knows or several things equally well: the reply then says which candidates there are and where, so
the person can say which, and nothing is chosen silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core.models import Answer
from ..core.store import MemoryStore
from ..language.confidence import ASK_BELOW, grounding_confidence, names_it_whole, naming_modifiers, own_kind_words, \
    plural_meaning, rival_kinds, unexplained
from ..language.grounding import Grounder, Grounding, Want
from ..language.request import ObjectRef, Request
from ..language.resolve import Candidate, room_key
from ..core.text import indefinite, norm, singular
from ..world.phrasing import describe, relation_words, sentence
from ..world.state import WorldState

MAX_LISTED = 10


class Reply(Exception):  # noqa: N818 - a reply, not an error: it carries the answer to give
    """Stops a request with the answer to give (nothing found, or which one?)."""

    def __init__(self, answer: Answer, problem: str) -> None:
        super().__init__(problem)
        self.answer = answer
        self.problem = problem


# name matches that are guesses whatever their words: a kind guessed for a word WordNet lacks, a kind only the
# category map shares; and any match this unsure (a far WordNet kind)
GUESSED_HOW = frozenset({"kind guessed", "shared kind"})
GUESS_AT_MOST = 0.5


@dataclass
class Context:
    store: MemoryStore
    world: WorldState
    grounder: Grounder
    request: Request
    grounded: list[str] = field(default_factory=list)  # entity ids the request was about, for "it" next time
    confirmed: dict[str, str] = field(default_factory=dict)  # phrase -> entity id the speaker said yes to
    _labels: set[str] | None = field(default=None, repr=False)

    def ground(self, ref: ObjectRef, want: Want | None = None) -> Grounding:
        ent_id = self.confirmed.get(ref.noun().lower())
        ent = self.world.entities.get(ent_id) if ent_id else None
        if ent is not None:
            return Grounding(ref=ref, status="unique", how="confirmed",
                             candidates=[Candidate(entity=ent, score=1.0, reasons=("confirmed by the speaker",))])
        return self.grounder.ground(ref, want)

    def labels(self) -> set[str]:
        """The labels of what memory holds now (once per request)."""
        if self._labels is None:
            self._labels = {e.label for e in self.world.entities.values()}
        return self._labels

    def confidence(self, g: Grounding) -> float:
        """How sure the grounding's first candidate is what the phrase means (``language/confidence.py``)."""
        return self.sure_of(g, g.candidates[0]) if g.candidates else 0.0

    def sure_of(self, g: Grounding, cand: Candidate) -> float:
        """How sure ``cand`` (one of ``g``'s candidates) is what the phrase means."""
        if g.how == "confirmed":  # the speaker said so: the words it does not explain are theirs to use
            return 1.0
        ent = cand.entity
        room = self.world.room_of(ent.id) or ent.room
        # nouns said before the head name a kind, however the parser tagged them ("dish" soap as an adjective)
        compound = [*g.ref.compound, *naming_modifiers(g.ref.modifiers)]
        rivals = bool(compound) and (rival_kinds(g.ref.head, ent.label, self.labels())
                                     or own_kind_words(compound, g.ref.head, ent.label))
        how = cand.how or g.how
        missing = unexplained(g.ref.modifiers, compound, how, ent, room_key(room) if room else "",
                              rivals=rivals, head=g.ref.head)
        if missing and set(missing) <= {singular(norm(w)) for w in (*compound, g.ref.head)} and \
                names_it_whole(g.ref.noun(), ent.label, self.labels()):
            missing = []  # "the coffee machine": the coffee maker, by the whole phrase, and nothing else near it
        missing += plural_meaning(g.ref.text, g.ref.head, ent, room_key(room) if room else "")
        # the grounder's own confidence in this candidate's name match; the first also carries what the
        # grounding as a whole says (a runner-up of another label as good halves it)
        own = min(cand.confidence, g.confidence) if cand is g.candidates[0] else cand.confidence
        return grounding_confidence(how, own, missing)

    def one(self, ref: ObjectRef | None, want: Want | None = None) -> list[Candidate]:
        """The entity a phrase means, first, with the runners-up after it; ``Reply`` when none or a tie."""
        if ref is None:
            raise Reply(Answer(success=False, answer="I did not catch which object you mean.",
                               error="no object in the request"), "no object")
        return self.settle(self.ground(ref, want))

    def settle(self, g: Grounding) -> list[Candidate]:
        """``one`` for a phrase already grounded."""
        if g.status == "none":
            raise Reply(_none_answer(g), g.problem)
        if g.status == "ambiguous":
            which = self.which_one(g)
            raise Reply(which, which.answer)
        sure = self.confidence(g)
        if sure < ASK_BELOW:
            # of candidates the grounding ranks equal ("a salty snack": a candy bar and crisps, both snacks),
            # one the words surely name is the one meant
            tied = [c for c in g.candidates if c.score >= g.candidates[0].score - 1e-9]
            best = max(tied, key=lambda c: self.sure_of(g, c))
            if best is not g.candidates[0] and self.sure_of(g, best) >= ASK_BELOW:
                g.candidates = [best, *(c for c in g.candidates if c is not best)]
                sure = self.sure_of(g, best)
        if sure < ASK_BELOW:
            ask = self.is_it(g, sure)
            raise Reply(ask, ask.answer)
        self.grounded.append(g.candidates[0].entity.id)
        return g.candidates

    def guessed(self, g: Grounding) -> Answer | None:
        """For answers that list or count every match ("is there a ...", "how many ...", "where are the
        ..."): when the name match itself is a guess (the grounder's own confidence below ``ASK_BELOW``: a
        kind guessed, a similarity, a kind only the category map shares), ask back instead of saying yes."""
        if g.status not in ("all", "unique") or not g.candidates or g.how in ("any thing", "category", "purpose",
                                                                               "previous request", "confirmed"):
            return None
        own = max(c.confidence for c in g.candidates) if g.status == "all" else g.confidence
        # the words the name match leaves unexplained count as they do for one thing ("dish soap" is not the bar
        # soap, whichever room narrowed it to one): the same measure ``settle`` asks back below
        # (the name as one thing: a plural is how one asks whether there are any or how many, not "glasses" for
        # spectacles or "bowls" for the game, which ``plural_meaning`` weighs for one thing asked after)
        one = replace(g, ref=g.ref.model_copy(update={"text": g.ref.noun(), "plural": False}))
        own = min(own, max(self.sure_of(one, c) for c in one.candidates[:MAX_LISTED]))
        guess = g.how in GUESSED_HOW or own <= GUESS_AT_MOST
        if not (guess and 0.0 < own < ASK_BELOW):
            return None  # (a close MiniLM match keeps its say here: "a bar of soap" is the bar soap)
        return self.is_it(g, own)

    def is_it(self, g: Grounding, sure: float) -> Answer:
        """Ask back about a guess instead of acting on it: "Do you mean the washing machine (...)?"; the
        speaker's "yes" finishes the request with it (the conversation keeps the question)."""
        best = g.candidates[0].entity
        others = [c.entity.id for c in g.candidates[1:3]]
        said = (g.ref.text.strip() or _the(g.ref.noun())).replace(" 's ", "'s ")
        a = g.ref.anchor
        if a is not None and a.ref.text and a.ref.text not in said:  # "the microwave above the stove": all of it
            said = f"{said} {'not ' if a.negated else ''}{a.relation.replace('_', ' ')} {a.ref.text}"
        text = f"I am not sure what you mean by {said}. Do you mean {self.place_of(best.id)}?"
        if others:
            text += " Or " + "; or ".join(self.place_of(i) for i in others) + "?"
        conversation = self.grounder.conversation
        if conversation is not None:
            conversation.expect_confirmation(self.grounder.speaker, self.request, g.ref.noun().lower(), best.id)
        return Answer(success=True, answer=text, answer_ids=[best.id, *others],
                      evidence_ids=[c.entity.provenance for c in g.candidates[:3] if c.entity.provenance],
                      confidence=round(sure, 2))

    def all(self, ref: ObjectRef) -> list[Candidate]:
        g = self.ground(ref, "all")
        if g.status == "none":
            raise Reply(_none_answer(g), g.problem)
        self.grounded.extend(c.entity.id for c in g.candidates)
        return g.candidates

    def which_one(self, g: Grounding) -> Answer:
        listed = "; ".join(self.place_of(c.entity.id) for c in g.candidates[:MAX_LISTED])
        more = f" and {len(g.candidates) - MAX_LISTED} more" if len(g.candidates) > MAX_LISTED else ""
        text = (f"I know {len(g.candidates)} things that could be {_the(g.ref.noun())}: {listed}{more}. "
                f"Which one do you mean?")
        return Answer(success=True, answer=text, answer_ids=[c.entity.id for c in g.candidates],
                      evidence_ids=[c.entity.provenance for c in g.candidates if c.entity.provenance],
                      confidence=1.0 / max(len(g.candidates), 1))

    def place_of(self, ent_id: str) -> str:
        """``the mug (mug_1) on the table (table_2) in the kitchen (kitchen_1)``."""
        world = self.world
        text = describe(world, ent_id)
        loc = world.locations.get(ent_id)
        if loc is not None:
            text += f" {relation_words(loc[0])} {describe(world, loc[1])}"
        room = world.room_of(ent_id)
        if room and (loc is None or loc[1] != room):
            text += f" in {describe(world, room)}"
        return text


def _the(noun: str) -> str:
    return f"the {noun}"


def _none_answer(g: Grounding) -> Answer:
    """"I have not seen a remote" is an answer (memory has no evidence), not a failure of the service."""
    text = sentence(g.problem or f"I have not seen {indefinite(g.ref.noun())}") + "."
    return Answer(success=True, answer=text, confidence=0.0)
