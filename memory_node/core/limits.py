"""How big a field of anything memory is told may be, and the one door every write goes through.

Why limits at all: a name or label is compared with every phrase of every request, so one 20 KB name made a
question cost minutes, and one 1 MB room value made a query grow the node by gigabytes. Every matcher is
bounded on its own too (core/categories.py, core/embedding.py); these limits keep what memory holds to what a
household has, so a request's cost does not depend on what a buggy or hostile publisher once sent.

Policy: a message with any field over its limit is refused whole (``InvalidInput`` naming the field and the
limit), never cut, because a cut id or name would silently become another thing. Text is cleaned first
(``core.text.clean_text``: NFKC, no control, bidi or zero-width characters), so what is stored, parsed and
said back carries none of them. The node declares each limit as a ``limits.<field>`` parameter with these
defaults; the ``Memory`` library, ``memory-node replay`` and the scene imports use the same ones through
``MemoryStore``. A database written before the limits keeps every record: limits apply to what comes in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields

from .models import (
    ActivityObservation,
    EntityObservation,
    InvalidInput,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from .text import clean_text


@dataclass(frozen=True)
class InputLimits:
    """Defaults are generous for a household (the longest label in the VirtualHome scenes is 22 characters,
    the longest TidyBot name 31) and small enough that matching a request against them stays microseconds."""

    max_id_chars: int = 128            # ids, relation ends, skill targets and arguments, activity objects
    max_label_chars: int = 128         # labels, predicates, skills, verbs, skill statuses, states
    max_name_chars: int = 256          # names, speakers, actors, robots, sources, frame ids
    max_room_chars: int = 128          # rooms and activity locations
    max_attribute_key_chars: int = 64
    max_attribute_value_chars: int = 256
    max_attributes: int = 64           # attributes of one entity
    max_states: int = 32               # states of one entity
    max_list_items: int = 256          # skill arguments, activity objects, ids in one ~/forget
    max_text_length: int = 4000        # utterances, questions, instructions, skill messages, activity text
    max_entities_per_graph: int = 20000
    max_relations_per_graph: int = 100000

    @classmethod
    def from_params(cls, params: Mapping[str, object]) -> InputLimits:
        """From the node's ``limits.<field>`` parameters (missing ones keep their defaults)."""
        given = {f.name: int(params[f"limits.{f.name}"]) for f in fields(cls)  # type: ignore[call-overload]
                 if f"limits.{f.name}" in params}
        return cls(**given)

    # ---- one field -----------------------------------------------------------------------------------

    def text(self, value: str, what: str, limit_name: str) -> str:
        """``value`` cleaned, or InvalidInput when it is longer than the limit (before or after cleaning:
        NFKC may lengthen a string, up to 18 times for one ligature)."""
        limit = getattr(self, limit_name)
        if len(value) > limit:
            raise InvalidInput(f"{what} has {len(value)} characters, over limits.{limit_name} ({limit})")
        cleaned = clean_text(value)
        if len(cleaned) > limit:
            raise InvalidInput(f"{what} has {len(cleaned)} characters after normalisation, over "
                               f"limits.{limit_name} ({limit})")
        return cleaned

    def required(self, value: str, what: str, limit_name: str) -> str:
        """Like ``text``, and not blank once cleaned (a skill named only by a zero-width space is no skill)."""
        cleaned = self.text(value, what, limit_name)
        if not cleaned.strip():
            raise InvalidInput(f"{what} is empty once invisible characters are removed")
        return cleaned

    def items(self, values: Iterable[str], what: str, limit_name: str, count_name: str) -> list[str]:
        values = list(values)
        count = getattr(self, count_name)
        if len(values) > count:
            raise InvalidInput(f"{what} has {len(values)} items, over limits.{count_name} ({count})")
        return [self.text(v, f"{what} item", limit_name) for v in values]

    # ---- whole messages ------------------------------------------------------------------------------

    def scene_graph(self, graph: SceneGraphObservation) -> SceneGraphObservation:
        if len(graph.entities) > self.max_entities_per_graph:
            raise InvalidInput(f"scene graph with {len(graph.entities)} entities, over "
                               f"limits.max_entities_per_graph ({self.max_entities_per_graph})")
        if len(graph.relations) > self.max_relations_per_graph:
            raise InvalidInput(f"scene graph with {len(graph.relations)} relations, over "
                               f"limits.max_relations_per_graph ({self.max_relations_per_graph})")
        return _copy(graph, {
            "source": self.text(graph.source, "scene graph source", "max_name_chars"),
            "room": self.text(graph.room, "scene graph room", "max_room_chars"),
            "entities": [self.entity(e) for e in graph.entities],
            "relations": [self.relation(r) for r in graph.relations]})

    def entity(self, e: EntityObservation) -> EntityObservation:
        where = f"entity {e.id[:40]!r}"
        if len(e.attributes) > self.max_attributes:
            raise InvalidInput(f"{where} has {len(e.attributes)} attributes, over limits.max_attributes "
                               f"({self.max_attributes})")
        attributes = {self.text(k, f"{where} attribute key", "max_attribute_key_chars"):
                      self.text(v, f"{where} attribute {k[:40]!r}", "max_attribute_value_chars")
                      for k, v in e.attributes.items()}
        return _copy(e, {
            "id": self.text(e.id, "entity id", "max_id_chars"),
            "label": self.text(e.label, f"{where} label", "max_label_chars"),
            "raw_label": self.text(e.raw_label, f"{where} label", "max_label_chars"),
            "name": self.text(e.name, f"{where} name", "max_name_chars"),
            "room": self.text(e.room, f"{where} room", "max_room_chars"),
            "attributes": attributes,
            "states": self.items(e.states, f"{where} states", "max_label_chars", "max_states")})

    def relation(self, r: RelationObservation) -> RelationObservation:
        return _copy(r, {"subject": self.text(r.subject, "relation subject", "max_id_chars"),
                                    "predicate": self.text(r.predicate, "relation predicate", "max_label_chars"),
                                    "object": self.text(r.object, "relation object", "max_id_chars")})

    def skill_feedback(self, fb: SkillFeedbackObservation) -> SkillFeedbackObservation:
        return _copy(fb, {
            "robot": self.text(fb.robot, "skill feedback robot", "max_name_chars"),
            "skill": self.required(fb.skill, "skill feedback skill", "max_label_chars"),
            "args": self.items(fb.args, "skill feedback args", "max_id_chars", "max_list_items"),
            "target_id": self.text(fb.target_id, "skill feedback target", "max_id_chars"),
            "status": self.text(fb.status, "skill feedback status", "max_label_chars"),
            "message": self.text(fb.message, "skill feedback message", "max_text_length"),
            "plan_id": self.text(fb.plan_id, "skill feedback plan_id", "max_id_chars")})

    def utterance(self, utt: UtteranceObservation) -> UtteranceObservation:
        return _copy(utt, {"speaker": self.text(utt.speaker, "utterance speaker", "max_name_chars"),
                                      "text": self.required(utt.text, "utterance", "max_text_length")})

    def activity(self, act: ActivityObservation) -> ActivityObservation:
        return _copy(act, {
            "actor": self.text(act.actor, "activity actor", "max_name_chars"),
            "verb": self.required(act.verb, "activity verb", "max_label_chars"),
            "objects": self.items(act.objects, "activity objects", "max_id_chars", "max_list_items"),
            "location": self.text(act.location, "activity location", "max_room_chars"),
            "text": self.text(act.text, "activity text", "max_text_length")})


def _copy(model, update: dict):
    """``model`` with ``update`` applied, or ``model`` itself when nothing changes (the common case: a graph of
    20,000 clean entities is not copied)."""
    changed = {k: v for k, v in update.items() if getattr(model, k) != v}
    return model.model_copy(update=changed) if changed else model


DEFAULT_LIMITS = InputLimits()


def check_time_ns(ns: int | None, what: str) -> int | None:
    """A request's time (``as_of``, ``since``, ``until``) in nanoseconds: None (unset) passes; a negative one
    is refused with one line (memory has no time before the epoch to answer about)."""
    if ns is not None and ns < 0:
        raise InvalidInput(f"{what} is before the epoch ({ns / 1e9:.0f} s); give a time since 1970")
    return ns


def check_seconds(value: float, what: str, *, most: float) -> float:
    """A timeout or a duration in seconds: finite and not negative, at most ``most``."""
    if not math.isfinite(value) or value < 0:
        raise InvalidInput(f"{what} must be a finite number of seconds >= 0, got {value}")
    return min(value, most)
