"""``Memory``: the engine as a Python library, with plain arguments.

The store (``memory_node.core.store.MemoryStore``) takes typed observation models with integer-nanosecond
stamps, which is what the ROS node converts messages into. A program that writes memory itself should not
have to build four nested models per fact, so this facade takes plain values and builds them:

    mem = Memory("robot.db")
    mem.observe("table_1", "table", position=(1.0, 2.0, 0.0), room="kitchen", t=10.0)
    mem.observe("mug_1", "mug", position=(1.0, 2.0, 0.8), room="kitchen", on="table_1", t=10.0)
    mem.where("mug_1").location.object   # 'table_1'

Times (``t``, ``since``, ``until``) are seconds since the epoch as a number, or a ``datetime`` (naive ones
are local time, as ``datetime.timestamp`` reads them); ``None`` means now for writes and unbounded for
windows. Labels are normalised to one key per class ("coffee_table" -> ``coffeetable``); the label as
given stays on the entity as ``raw_label``, and every read that takes a label normalises it the same way.

Errors are raised, not dropped: with ``strict=True`` (the default) a message memory cannot store whole —
a relation to an entity it does not know, a relation of a thing to itself — raises ``RejectedInput``
(a ``ValueError``) naming each reason, and nothing of it is stored. ``strict=False`` stores what it can,
logs a warning and lists the reasons in ``IngestResult.rejected``. Bad values (an unknown predicate, a
NaN position, an empty label) raise ``InvalidInput`` either way.

Reads return the store's typed records: ``where`` / ``entity`` an ``Entity``, ``query`` ``MemoryRecord``s
whose ``typed()`` is the same model (an entity record gives the ``Entity`` that ``where`` gives).

This module sits above ``core/`` (``ask`` uses the request reader and answerer of ``requests/``, imported
only when asked) and never imports ROS.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from memory_node.core.models import (
    ActivityObservation,
    Entity,
    EntityObservation,
    EntityVersion,
    Event,
    IngestResult,
    InvalidInput,
    MemoryRecord,
    ObservationRecord,
    Point,
    RejectedInput,
    Relation,
    RelationObservation,
    SceneGraphObservation,
    SeenInterval,
    SkillFeedbackObservation,
    UtteranceObservation,
    normalize_label,
)
from memory_node.core.query import DEFAULT_LIMIT
from memory_node.core.query import query as query_memory
from memory_node.core.store import MemoryStore

if TYPE_CHECKING:  # pragma: no cover
    from memory_node.core.models import Answer

log = logging.getLogger(__name__)

Time = float | int | datetime
_NS = 1_000_000_000
# numbers are seconds; a value this large is almost certainly nanoseconds passed by mistake (year 5138)
_MAX_SECONDS = 1e11
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def to_ns(t: Time | None, *, default_now: bool = True) -> int | None:
    """Seconds since the epoch (a number) or a ``datetime`` -> integer nanoseconds; None -> now (or None
    when ``default_now`` is false). Raises InvalidInput for anything else, NaN or a nanosecond count.
    A float near today's epoch seconds carries ~0.2 us of precision; a datetime or an int is exact."""
    if t is None:
        return time.time_ns() if default_now else None
    if isinstance(t, datetime):  # integer arithmetic: exact to the microsecond a datetime holds
        delta = (t if t.tzinfo is not None else t.astimezone()) - _EPOCH
        return (delta.days * 86400 + delta.seconds) * _NS + delta.microseconds * 1000
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        raise InvalidInput(f"a time is seconds since the epoch or a datetime, got {t!r}")
    if not math.isfinite(t):
        raise InvalidInput(f"time must be finite, got {t}")
    if abs(t) > _MAX_SECONDS:
        raise InvalidInput(f"time {t} is too large for seconds since the epoch (nanoseconds? divide by 1e9)")
    return t * _NS if isinstance(t, int) else int(round(t * _NS))


def _readable(err: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ())) or 'value'}: {e.get('msg', '')}"
                     for e in err.errors())


def _point(position: Sequence[float] | Point | None) -> Point | None:
    if position is None or isinstance(position, Point):
        return position
    try:
        x, y, z = (float(v) for v in position)
    except (TypeError, ValueError):
        raise InvalidInput(f"position must be (x, y, z) in metres, got {position!r}") from None
    try:
        return Point(x=x, y=y, z=z)
    except ValidationError as err:
        raise InvalidInput(f"position {position!r}: {_readable(err)}") from None


class Memory:
    """A robot memory in one SQLite file (``":memory:"`` for a throw-away one), written and read with
    plain Python values. ``store`` is the underlying ``MemoryStore`` for everything the facade does not
    wrap; extra keyword arguments go to it (``position_tolerance``, ``sighting_gap``, ...)."""

    def __init__(self, path: str | Path = ":memory:", *, strict: bool = True, source: str = "python",
                 **store_options: Any):
        self.store = MemoryStore(path, **store_options)
        self.strict = strict
        self.source = source

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- writing -------------------------------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator[Memory]:
        """Many writes in one transaction: one commit at the end instead of one per write (several
        times faster; ``python -m memory_node.bench.batch_bench``). A write that raises inside is undone
        alone if you catch it; an exception leaving the block undoes the whole batch."""
        with self.store.transaction():
            yield self

    def observe(self, entity_id: str, label: str, *, position: Sequence[float] | Point | None = None,
                room: str = "", name: str = "", attributes: Mapping[str, Any] | None = None,
                states: Iterable[str] = (), confidence: float = 1.0, on: str | None = None,
                inside: str | None = None, held_by: str | None = None, t: Time | None = None,
                strict: bool | None = None) -> IngestResult:
        """One sighting of an entity: what it is, where, and optionally what it is on / inside / held by
        (an entity memory must already know, or that is observed in the same batch before this call)."""
        where = [(p, o) for p, o in (("on", on), ("in", inside), ("held_by", held_by)) if o]
        if len(where) > 1:
            raise InvalidInput(f"{entity_id}: give at most one of on=, inside=, held_by= (got {len(where)})")
        try:
            ent = EntityObservation(
                id=entity_id, label=label, name=name, room=room, position=_point(position),
                attributes={str(k).strip().lower(): str(v) for k, v in (attributes or {}).items()},
                states=list(states), confidence=confidence)
            rels = [RelationObservation(subject=entity_id, predicate=p, object=o) for p, o in where]
        except ValidationError as err:
            raise InvalidInput(f"entity {entity_id!r}: {_readable(err)}") from None
        return self._ingest(SceneGraphObservation(stamp_ns=to_ns(t), source=self.source, room=room,
                                                  entities=[ent], relations=rels), strict)

    def relate(self, subject: str, predicate: str, obj: str, *, t: Time | None = None,
               strict: bool | None = None) -> IngestResult:
        """An observed relation between two entities memory knows: ``on``/``in``/``held_by``/``at`` (where
        a thing is: a new one supersedes the old), ``near``, ``next_to``, ``under``, ``connected_to``, ..."""
        try:
            rel = RelationObservation(subject=subject, predicate=predicate, object=obj)
        except ValidationError as err:
            raise InvalidInput(f"relation {subject} {predicate} {obj}: {_readable(err)}") from None
        return self._ingest(SceneGraphObservation(stamp_ns=to_ns(t), source=self.source, relations=[rel]),
                            strict)

    def observe_graph(self, graph: SceneGraphObservation, *, strict: bool | None = None) -> IngestResult:
        """A whole scene graph (the typed model the ROS node ingests), under this memory's strictness."""
        return self._ingest(graph, strict)

    def _ingest(self, graph: SceneGraphObservation, strict: bool | None) -> IngestResult:
        strict = self.strict if strict is None else strict
        result = self.store.ingest_scene_graph(graph, strict=strict)
        if result.rejected:
            log.warning("stored part of an observation; dropped: %s", "; ".join(result.rejected))
        return result

    def event(self, verb: str, objects: Iterable[str] = (), *, actor: str = "", location: str = "",
              text: str = "", t: Time | None = None) -> IngestResult:
        """Something someone did ("open", ["fridge"], actor="alice"): activity memory, the evidence that
        routines and habits are consolidated from."""
        try:
            act = ActivityObservation(stamp_ns=to_ns(t), actor=actor, verb=verb, objects=list(objects),
                                      location=location, text=text)
        except ValidationError as err:
            raise InvalidInput(f"event {verb!r}: {_readable(err)}") from None
        return self.store.ingest_activity(act)

    def said(self, text: str, *, speaker: str = "", t: Time | None = None) -> IngestResult:
        """Something a person told the robot ("forks go in the drawer"): corrections and preferences in it
        are remembered."""
        try:
            utt = UtteranceObservation(stamp_ns=to_ns(t), speaker=speaker, text=text)
        except ValidationError as err:
            raise InvalidInput(f"utterance: {_readable(err)}") from None
        return self.store.ingest_utterance(utt)

    def skill(self, skill: str, args: Iterable[str] = (), *, success: bool, target: str = "",
              status: str = "", message: str = "", robot: str = "", t: Time | None = None) -> IngestResult:
        """The outcome of a skill the robot ran. The states it implies are remembered on what it acted on: a
        successful ``open`` leaves its container open (the store's ``skill_state_effects``), an explicit
        "locked" failure leaves the target locked and closed."""
        try:
            fb = SkillFeedbackObservation(stamp_ns=to_ns(t), robot=robot, skill=skill, args=list(args),
                                          target_id=target, success=success, status=status, message=message)
        except ValidationError as err:
            raise InvalidInput(f"skill feedback {skill!r}: {_readable(err)}") from None
        return self.store.ingest_skill_feedback(fb)

    # ---- reading -------------------------------------------------------------------------------

    def where(self, entity_id: str, *, t: Time | None = None) -> Entity | None:
        """The entity as memory knows it now (or at time ``t``): ``position``, ``room``, ``location`` (the
        relation saying what it is on or in), states; None when memory never saw it."""
        return self.store.entity(entity_id, as_of_ns=to_ns(t, default_now=False))

    entity = where

    def entities(self, label: str | None = None, room: str | None = None, *, t: Time | None = None,
                 include_absent: bool = False) -> list[Entity]:
        """Entities newest-seen first; ``label`` as given or normalised ("coffee_table" == "coffeetable")."""
        return self.store.entities(label=label, room=room, as_of_ns=to_ns(t, default_now=False),
                                   include_absent=include_absent)

    def history(self, entity_id: str) -> list[EntityVersion]:
        """Every state the entity had, oldest first, each with the interval it held."""
        return self.store.history(entity_id)

    def observed(self, since: Time | None = None, until: Time | None = None, *, label: str | None = None,
                 room: str | None = None) -> list[Entity]:
        """What was observed between two times: each entity seen then, in the state it was seen in, with
        ``last_seen_ns`` its latest sighting in the window."""
        return self.store.observed(to_ns(since, default_now=False), to_ns(until, default_now=False),
                                   label=label, room=room)

    def sightings(self, entity_id: str | None = None, since: Time | None = None,
                  until: Time | None = None) -> list[SeenInterval]:
        """When entities were in view: intervals of sightings, latest first."""
        return self.store.sightings(to_ns(since, default_now=False), to_ns(until, default_now=False),
                                    entity_id=entity_id)

    def observations(self, since: Time | None = None, until: Time | None = None, *, kind: str | None = None,
                     limit: int = 50) -> list[ObservationRecord]:
        """The log of ingested messages between two times, newest first."""
        return self.store.observations(to_ns(since, default_now=False), to_ns(until, default_now=False),
                                       kind=kind, limit=limit)

    def events(self, kind: str | None = None, entity_id: str | None = None, since: Time | None = None,
               until: Time | None = None, limit: int = 50) -> list[Event]:
        """Events newest first: skill outcomes, utterances, activities and changes memory derived."""
        return self.store.events(kind=kind, entity_id=entity_id, since_ns=to_ns(since, default_now=False),
                                 until_ns=to_ns(until, default_now=False), limit=limit)

    def relations(self, subject: str | None = None, obj: str | None = None, *,
                  t: Time | None = None) -> list[Relation]:
        return self.store.relations(subject=subject, obj=obj, as_of_ns=to_ns(t, default_now=False))

    def query(self, store: str = "", text: str = "", *, room: str = "", entity_id: str = "",
              t: Time | None = None, since: Time | None = None, until: Time | None = None,
              limit: int = DEFAULT_LIMIT) -> list[MemoryRecord]:
        """What ~/query answers: records of one store ('' = entities and events), ``text`` ranked by
        match; ``t`` for memory as it stood then, or a ``since``/``until`` window."""
        return query_memory(self.store, kind=store, text=text, room=room, entity_id=entity_id,
                            as_of_ns=to_ns(t, default_now=False), limit=limit,
                            since_ns=to_ns(since, default_now=False), until_ns=to_ns(until, default_now=False))

    def ask(self, question: str, *, t: Time | None = None, speaker: str = "") -> Answer:
        """A question in English, answered from memory ("where is my mug?"), as ~/ask answers it. Needs
        the request parser (spaCy's small English pipeline; ``pip install 'memory_node[language]'``)."""
        from memory_node.requests.dispatch import answer_question  # spaCy loads on first use (~1-2 s)

        return answer_question(self.store, question, as_of_ns=to_ns(t, default_now=False), speaker=speaker)

    @staticmethod
    def label_key(label: str) -> str:
        """The key memory stores a label under ("Coffee table" -> "coffeetable")."""
        return normalize_label(label)

    @staticmethod
    def check_semantic() -> None:
        """Raise ``EmbeddingUnavailable`` (with what to install) unless the semantic retrieval stage can
        run; without it, text queries still answer by exact and lexical match, with one log warning."""
        from memory_node.core.embedding import default_embedder

        default_embedder().load()


__all__ = ["Memory", "InvalidInput", "RejectedInput", "to_ns"]
