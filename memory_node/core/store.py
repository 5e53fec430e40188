"""SQLite memory: latest entity state with full history, relations with validity intervals, events, frames.

One writer (the node's executor thread) owns a ``MemoryStore``; every ingested message is one transaction,
so a crash loses at most the message being written and never leaves half of one behind (WAL mode).
Other threads read through their own read-only connection (``MemoryStore.open_reader``): WAL lets them read
while the writer writes, and each new read transaction sees everything the writer has committed.
Reads "as of" a time use the validity intervals, so nothing a later message did leaks into the past.
Many messages can share one transaction (``with store.transaction(): store.ingest_...``): each message is
then a savepoint inside it, so a message that fails is undone alone and the rest commit together at the end
(one commit instead of one per message; ``python -m memory_node.bench.batch_bench`` measures the gain).
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .models import (
    DEFAULT_SKILL_STATE_EFFECTS,
    HELD_BY_ROBOT,
    RELEASED,
    ROBOT_ID,
    LOCATION_PREDICATES,
    LOCKED_STATES,
    ActivityObservation,
    Entity,
    EntityObservation,
    EntityVersion,
    Event,
    Frame,
    FrameObservation,
    IngestResult,
    InvalidInput,
    MapInfo,
    ObservationRecord,
    Point,
    RejectedInput,
    Relation,
    SceneGraphObservation,
    SeenInterval,
    SkillFeedbackObservation,
    SkillLocationEffects,
    SkillStateEffects,
    UtteranceObservation,
    is_local_id,
    merge_states,
    normalize_label,
    normalize_state,
)
from .limits import DEFAULT_LIMITS, InputLimits
from .rules import apply_utterance
from .storage import Storage, is_database_url, open_storage
from .storage.errors import IncompatibleMemory, MemoryNotWritable, MemoryUnavailable  # noqa: F401 - raised to callers
from .storage.records import DERIVED_TABLES  # noqa: F401 - what forget removes with its evidence
from .storage.records import FAR_FUTURE as _FAR_FUTURE
from .schema import SCHEMA_VERSION  # noqa: F401 - the SQLite schema version, as callers read it here
from .writer_lock import MemoryInUse  # noqa: F401 - MemoryInUse: what a refused writer raises

ROOM_LABEL = "room"
# Lifted positions jitter by a few centimetres from frame to frame (depth noise, a mask's edge); without a
# tolerance every re-observation became a new stored version (10,048 versions for 10,000 sightings). 5 cm
# is below what a person calls "moved" and above the jitter of depth-lifted centroids at room range.
DEFAULT_POSITION_TOLERANCE = 0.05
# Seconds: sightings of an entity closer together than this are one interval of being in view (what
# ``sightings()`` and since/until reads report). A scene-graph stream re-observes what is in view every
# second or so; only a gap longer than this writes a row, so a steady stream costs no extra writes.
DEFAULT_SIGHTING_GAP = 5.0


def _not_writable(path: Path, err: BaseException) -> MemoryNotWritable:
    return MemoryNotWritable(f"memory at {path} could not be written ({err}); the message was not stored, "
                             f"what was stored before is intact")


def _new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def _family(predicate: str) -> str:
    return "location" if predicate in LOCATION_PREDICATES else predicate


class MemoryStore:
    """Typed persistent memory in one database (core/storage/: a SQLite file, or a PostgreSQL database that
    several robots share), frames as image files."""

    def __init__(self, path: str | Path, frame_dir: str | Path | None = None,
                 frame_similarity_threshold: float = 6.0, association_radius: float = 0.5, *,
                 position_tolerance: float = DEFAULT_POSITION_TOLERANCE, read_only: bool = False,
                 sighting_gap: float = DEFAULT_SIGHTING_GAP,
                 skill_state_effects: SkillStateEffects | None = None,
                 skill_location_effects: SkillLocationEffects | None = None, exclusive: bool = False,
                 limits: InputLimits | None = None, robot: str = "", site: str = "", id_namespace: str = ""):
        """``path``: a SQLite file (``:memory:`` for a throwaway one) or a ``postgresql://`` URL.
        ``robot``, ``site``: who writes through this store; every record it writes carries them (a site
        memory tells whose observation a record is). ``id_namespace``: prefix (``<namespace>/``) for the ids
        this robot's messages give and the ids it mints, so two robots sharing a database never mix up their
        "mug_1"s; '' keeps ids as given (one robot, or a site-wide mapper that names things for all).
        ``exclusive``: take a SQLite file's writer lock (core/writer_lock.py), so a second process that asks
        for it too (a second node, a CLI forget) is refused with ``MemoryInUse`` instead of writing beside
        this one. (A PostgreSQL database takes many writers: the server orders their transactions.)"""
        self.url = str(path) if is_database_url(path) else ""
        self.path = Path(path) if not self.url else Path(".")
        # every write passes these (core/limits.py): fields over a limit refuse the message, text is cleaned
        self.limits = limits or DEFAULT_LIMITS
        # what a successful skill leaves true (core.models.DEFAULT_SKILL_STATE_EFFECTS says the format)
        self.skill_state_effects = dict(DEFAULT_SKILL_STATE_EFFECTS if skill_state_effects is None
                                        else skill_state_effects)
        # where a successful skill leaves the things it handled (core.models.SkillLocationEffects)
        self.skill_location_effects = dict(skill_location_effects or {})
        in_memory = str(path) == ":memory:"
        self.read_only = read_only
        if frame_dir:
            self.frame_dir = Path(frame_dir)
        elif self.url:  # a server keeps no files: this robot's frames stay on its own disk
            self.frame_dir = Path.home() / ".local" / "share" / "memory_node" / "site_frames"
        else:
            self.frame_dir = self.path.parent / "frames" if not in_memory else Path("/tmp/memory_node_frames")
        # what stored relative frame paths are read against: the database file's folder
        self._files_root = self.path.resolve().parent if not (self.url or in_memory) else None
        self._in_memory = in_memory
        self.frame_similarity_threshold = frame_similarity_threshold
        self.association_radius = association_radius  # metres, for entities observed without a stable id
        if not position_tolerance >= 0.0:  # also refuses NaN
            raise ValueError(f"position_tolerance must be >= 0 metres, got {position_tolerance}")
        # metres: a re-observed position closer than this to the stored one is jitter, not a move
        self.position_tolerance = position_tolerance
        if not sighting_gap > 0.0:
            raise ValueError(f"sighting_gap must be > 0 seconds, got {sighting_gap}")
        self.sighting_gap_ns = int(sighting_gap * 1e9)
        self.robot, self.site = robot, site
        if "/" in id_namespace:
            raise ValueError(f"id_namespace must not contain '/', got {id_namespace!r}")
        self.id_namespace = id_namespace
        # admission gate state: last admitted thumbnail and visible set per room (rebuilt lazily)
        self._last_frame: dict[str, tuple[list[float], frozenset[str]]] = {}
        # while a scene graph is applied: its entities' JSON by id (None: not in memory), read in one query
        # and kept as this store writes them, so that the graph costs no read per entity
        self._graph_rows: dict[str, str | None] | None = None
        # and its unchanged re-observations (id, seen, JSON), most of a graph: written together after its
        # entities, before anything reads the entities table again
        self._graph_touches: list[tuple[str, int, str]] | None = None
        self._storage: Storage = open_storage(self.url or path, read_only=read_only, exclusive=exclusive)
        if read_only:
            return
        try:
            self._relocate_frame_paths()
        except BaseException:
            self._storage.close()
            raise

    @classmethod
    def open_reader(cls, path: str | Path, frame_dir: str | Path | None = None,
                    limits: InputLimits | None = None) -> MemoryStore:
        """A read-only store on the memory a writer has opened, for reading on another thread.

        Every read method works; every write raises ``MemoryNotWritable`` (a ``sqlite3.OperationalError``).
        Reads run outside any transaction (each statement sees what the writer has committed) unless grouped
        by ``snapshot()``.
        """
        return cls(path, frame_dir, read_only=True, limits=limits)

    @property
    def storage(self) -> Storage:
        """Where memory is kept (core/storage/): every read and write of the schema goes through it."""
        return self._storage

    @property
    def backend(self) -> str:
        """'sqlite' or 'postgresql'."""
        return self._storage.dialect

    # ---- frame files ---------------------------------------------------------------------------

    def _stored_frame_path(self, file: Path) -> str:
        """How a frame file is named in the database: relative to the database's folder when it lies
        under it (the default ``frames/`` beside the file), so a database moved or copied with its
        folder keeps finding its own frames; absolute only for a frame folder kept elsewhere."""
        if self._files_root is not None:
            try:
                return file.resolve().relative_to(self._files_root).as_posix()
            except ValueError:
                pass
        return str(file)

    def frame_file(self, stored: str) -> Path:
        """The file a stored frame path names (relative paths are read against the database's folder)."""
        path = Path(stored)
        return path if path.is_absolute() else (self._files_root or Path.cwd()) / path

    def _owns_frame_file(self, file: Path) -> bool:
        try:
            file.resolve().relative_to(self.frame_dir.resolve())
            return True
        except ValueError:
            return False

    def _relocate_frame_paths(self) -> None:
        """Rows written before frame paths were stored relative (absolute paths): a path under this
        database's folder becomes relative; a path elsewhere (the database was copied or moved) becomes
        this memory's own ``frame_dir/<name>`` when that file is there (the frames were copied along),
        else it stays as it was: readable, but never deleted by this memory (``_owns_frame_file``)."""
        if self._files_root is None:
            return
        rows = self._storage.frames_with_absolute_paths()
        if not rows:
            return
        updates = []
        for frame_id, stored, data in rows:
            file = Path(stored)
            new = self._stored_frame_path(file)
            if Path(new).is_absolute():
                own = self.frame_dir / file.name
                if own.is_file():
                    new = self._stored_frame_path(own)
            if new != stored:
                frame = Frame.model_validate_json(data).model_copy(update={"path": new})
                updates.append((new, frame.model_dump_json(), frame_id))
        if updates:
            with self._tx():
                self._storage.update_frame_paths(updates)

    @property
    def db(self):
        """The SQLite connection itself, for tools and tests that inspect a memory file (the engine reads
        and writes through ``storage``). A PostgreSQL memory has none: use ``storage``."""
        connection = getattr(self._storage, "connection", None)
        if connection is None:
            raise AttributeError(f"a {self.backend} memory has no SQLite connection: use MemoryStore.storage")
        return connection

    def transaction(self) -> contextlib.AbstractContextManager[Storage]:
        """One atomic write: everything inside commits together or not at all.

        ``ingest_*`` calls inside it become savepoints of this one transaction (batched ingest: one commit
        for many messages). A message that raises is rolled back alone; if the exception leaves the
        ``with`` block, the whole batch is rolled back. Nests."""
        return self._tx()

    def snapshot(self) -> contextlib.AbstractContextManager[None]:
        """Reads inside see one committed state of memory, as a request that reads many tables needs.

        On a reader: one read transaction, ended on exit, so the next snapshot sees what the writer has
        committed since (keep it short: while it is open a SQLite writer's log cannot be checkpointed past
        it). On the writer: nothing to do, its own thread is the only one that changes memory. Nests."""
        return self._storage.snapshot()

    @contextmanager
    def _tx(self) -> Iterator[Storage]:
        if self.read_only:
            raise MemoryNotWritable(f"read-only MemoryStore on {self.url or self.path}: writes go through the "
                                    f"writer")
        try:
            with self._storage.transaction() as storage:
                yield storage
        except BaseException:
            if not self._storage.in_transaction:
                self._last_frame.clear()  # the gate may remember a frame the rollback just undid
            raise

    def close(self) -> None:
        self._storage.close()

    # ---- write path ----------------------------------------------------------------------------

    def _record_observation(self, kind: str, stamp_ns: int, source: str, summary: dict) -> str:
        obs_id = _new_id({"scene_graph": "sg", "skill_feedback": "sf", "utterance": "ut",
                          "frame": "fr", "map": "map", "activity": "ac"}.get(kind, "obs"))
        self._storage.insert_observation(obs_id, kind, stamp_ns, source, summary, self.robot, self.site)
        return obs_id

    def ingest_scene_graph(self, graph: SceneGraphObservation, *, strict: bool = False) -> IngestResult:
        """Apply one scene graph: Add/Update/Noop per entity, supersede relation families, and for a
        complete graph of a room mark entities it no longer contains as absent (kept in history).

        What cannot be stored (a relation to an entity memory does not know, a relation of a thing to
        itself, parts the converter dropped) is listed in ``IngestResult.rejected`` and the rest is stored;
        with ``strict`` the whole message is refused instead: ``RejectedInput`` with every reason, nothing
        stored."""
        graph = self.limits.scene_graph(graph)
        t = graph.stamp_ns
        with self._tx():
            obs_id = self._record_observation(
                "scene_graph", t, graph.source,
                {"room": graph.room, "complete": graph.complete, "entities": len(graph.entities),
                 "relations": len(graph.relations)})
            result = IngestResult(observation_id=obs_id, rejected=list(graph.rejected))
            rooms = {graph.room} | {e.room for e in graph.entities}
            graph = self._namespaced(graph, rooms)
            try:
                self._graph_rows = self._read_graph_rows(graph, rooms)
                self._graph_touches = []
                self._apply_graph(graph, rooms, t, obs_id, result)
            finally:
                self._graph_rows = self._graph_touches = None
            if strict and result.rejected:
                raise RejectedInput(result.rejected)  # rolls the message back
        return result

    def _read_graph_rows(self, graph: SceneGraphObservation, rooms: set[str]) -> dict[str, str | None]:
        """The stored JSON of every entity a graph names (its rooms, entities and relation ends; ids that
        association will resolve are read when they are)."""
        ids = {*rooms, *(e.id for e in graph.entities), *(r.subject for r in graph.relations),
               *(r.object for r in graph.relations)}
        ids = {i for i in ids if i and not is_local_id(i)}
        found = self._storage.entities_json_of(sorted(ids))
        return {i: found.get(i) for i in ids}

    def _apply_graph(self, graph: SceneGraphObservation, rooms: set[str], t: int, obs_id: str,
                     result: IngestResult) -> None:
        for room in sorted(r for r in rooms if r):
            self._ensure_room(room, t, obs_id, result)
        graph = self._associate(graph)

        observed = {e.id: e for e in graph.entities}
        known = lambda i: i in observed or self._get_entity_row(i) is not None  # noqa: E731

        new_location: dict[str, Relation] = {}
        other_relations: list[Relation] = []
        for rel in graph.relations:
            if rel.subject == rel.object:
                result.rejected.append(f"relation {rel.subject} {rel.predicate} itself")
                continue
            missing = [i for i in (rel.subject, rel.object) if not known(i)]
            if missing:
                result.rejected.append(
                    f"relation {rel.subject} {rel.predicate} {rel.object}: unknown entity "
                    f"{', '.join(missing)}")
                continue
            r = Relation(subject=rel.subject, predicate=rel.predicate, object=rel.object,
                         since_ns=t, provenance=obs_id)
            if _family(rel.predicate) == "location":
                new_location[rel.subject] = r  # the last one in a message wins
            else:
                other_relations.append(r)

        for ent_id in list(observed) + [s for s in new_location if s not in observed]:
            self._apply_entity(ent_id, observed.get(ent_id), new_location.get(ent_id), t, obs_id,
                               result)
        if self._graph_touches:
            self._storage.touch_entities(self._graph_touches)
            self._graph_touches.clear()
        for r in other_relations:
            self._add_relation(r)

        if graph.complete and graph.room:
            self._remove_absent(graph.room, set(observed), t, obs_id, result)
            # non-location relations of observed subjects that the complete view no longer shows
            shown = {(r.subject, r.predicate, r.object) for r in other_relations}
            for rowid, subject, predicate, obj in self._storage.open_other_relations(observed):
                if (subject, predicate, obj) not in shown:
                    self._storage.close_relation(rowid, t)

    def _associate(self, graph: SceneGraphObservation) -> SceneGraphObservation:
        """Give entities that came without a stable id (local ids ``_:...``) the id of the same thing in
        memory: same label, same room, nearest within ``association_radius`` (or, without a position, the
        only one of that label in the room); else a new id. Same-named objects in different rooms stay
        distinct. Relations in the message follow the mapping."""
        local = [e for e in graph.entities if is_local_id(e.id)]
        if not local:
            return graph
        mapping: dict[str, str] = {}
        taken: set[str] = {e.id for e in graph.entities if not is_local_id(e.id)}
        for e in local:
            candidates = [c for c in self.entities(label=e.label, room=e.room or None)
                          if c.id not in taken and c.label != ROOM_LABEL]
            match = None
            if e.position is not None:
                near = [(c.position.distance(e.position), c.id) for c in candidates if c.position is not None]
                near = [d for d in near if d[0] <= self.association_radius]
                match = min(near)[1] if near else None
            elif len(candidates) == 1:
                match = candidates[0].id
            mapping[e.id] = match or self._own_id(f"{e.label}_{uuid.uuid4().hex[:8]}")
            taken.add(mapping[e.id])
        remap = lambda i: mapping.get(i, i)  # noqa: E731
        return graph.model_copy(update={
            "entities": [e.model_copy(update={"id": remap(e.id)}) for e in graph.entities],
            "relations": [r.model_copy(update={"subject": remap(r.subject), "object": remap(r.object)})
                          for r in graph.relations]})

    def _own_id(self, ent_id: str, rooms: Iterable[str] = ()) -> str:
        """The id under this robot's namespace: an id the robot named (not yet namespaced, not a room, not
        a local ``_:`` id, which association resolves)."""
        if not self.id_namespace or "/" in ent_id or is_local_id(ent_id) or ent_id in rooms:
            return ent_id
        return f"{self.id_namespace}/{ent_id}"

    def _namespaced(self, graph: SceneGraphObservation, rooms: set[str]) -> SceneGraphObservation:
        if not self.id_namespace:
            return graph
        rooms = rooms | {e.id for e in graph.entities if e.label == ROOM_LABEL}
        own = lambda i: self._own_id(i, rooms)  # noqa: E731
        return graph.model_copy(update={
            "entities": [e.model_copy(update={"id": own(e.id)}) for e in graph.entities],
            "relations": [r.model_copy(update={"subject": own(r.subject), "object": own(r.object)})
                          for r in graph.relations]})

    def _ensure_room(self, room: str, t: int, obs_id: str, result: IngestResult) -> None:
        if self._get_entity_row(room) is None:
            ent = Entity(id=room, label=ROOM_LABEL, room=room, first_seen_ns=t, last_seen_ns=t,
                         provenance=obs_id)
            self._write_entity(ent, t, new=True)
            result.added += 1

    def _get_entity_row(self, ent_id: str) -> Entity | None:
        rows = self._graph_rows
        data = rows[ent_id] if rows is not None and ent_id in rows else self._storage.entity_json(ent_id)
        return Entity.model_validate_json(data) if data else None

    def _wrote_entity(self, ent_id: str, data: str) -> None:
        if self._graph_rows is not None:
            self._graph_rows[ent_id] = data

    def _apply_entity(self, ent_id: str, obs: EntityObservation | None, location: Relation | None,
                      t: int, obs_id: str, result: IngestResult) -> None:
        old = self._get_entity_row(ent_id)
        if old is not None and t < old.last_seen_ns:
            # an observation older than what memory already holds cannot change the present
            result.unchanged += 1
            return
        if old is None:
            if obs is None:
                return
            new = Entity(id=obs.id, label=obs.label, raw_label=obs.raw_label, name=obs.name, room=obs.room,
                         position=obs.position,
                         attributes=dict(obs.attributes), states=merge_states([], obs.states),
                         confidence=obs.confidence, location=location, first_seen_ns=t, last_seen_ns=t,
                         provenance=obs_id)
            self._write_entity(new, t, new=True)
            if location is not None:
                self._add_relation(location)
            result.added += 1
            return

        if t - old.last_seen_ns > self.sighting_gap_ns:
            self._close_sighting(old, t)
        # shallow: every field changed below is assigned a new object, none is mutated in place, so `old`
        # stays as read (a deep copy was half the cost of ingesting a 300-entity graph, bench/soak.py)
        new = old.model_copy()
        new.present = True
        if obs is not None:
            new.label = obs.label
            new.raw_label = obs.raw_label or old.raw_label
            new.name = obs.name or old.name
            new.room = obs.room or old.room
            new.position = self._position_after(old.position, obs.position)
            new.attributes = {**old.attributes, **obs.attributes}
            new.states = merge_states(old.states, obs.states)
            new.confidence = obs.confidence
        if location is not None:
            cur = old.location
            if cur is None or (cur.predicate, cur.object) != (location.predicate, location.object):
                self._storage.close_location(ent_id, t)
                self._add_relation(location)
                new.location = location
                if cur is not None:
                    self._add_event(Event(
                        id=_new_id("ev"), kind="change", stamp_ns=t,
                        text=f"{ent_id} moved from {cur.predicate} {cur.object} to "
                             f"{location.predicate} {location.object}",
                        entity_ids=[ent_id, cur.object, location.object],
                        data={"from": cur.model_dump(), "to": location.model_dump()}, provenance=obs_id))
        changed = _content(new) != _content(old)
        new.last_seen_ns = t
        if changed:
            new.provenance = obs_id
            self._write_entity(new, t, new=False)
            result.updated += 1
        else:
            data = new.model_dump_json()
            if self._graph_touches is not None:
                self._graph_touches.append((ent_id, t, data))
            else:
                self._storage.touch_entity(ent_id, t, data)
            self._wrote_entity(ent_id, data)
            result.unchanged += 1

    def _position_after(self, old: Point | None, observed: Point | None) -> Point | None:
        """The position to remember: the observed one, unless it lies within ``position_tolerance`` of the
        stored one. Keeping the stored position (not the latest) makes jitter a no-op, while a slow drift
        still becomes a new version once it adds up to the tolerance."""
        if observed is None:
            return old
        if old is not None and old.distance(observed) <= self.position_tolerance:
            return old
        return observed

    def _close_sighting(self, old: Entity, t: int) -> None:
        """The entity comes back into view after more than ``sighting_gap``: its interval of being in view
        ends at its last sighting and a new one starts now (schema migration 6)."""
        self._storage.close_sighting(old.id, old.first_seen_ns, old.last_seen_ns, t)

    def _write_entity(self, ent: Entity, t: int, new: bool) -> None:
        ent.robot, ent.site = self.robot, self.site
        data = ent.model_dump_json()
        self._storage.upsert_entity(ent.id, ent.label, ent.room, ent.present, ent.last_seen_ns, data)
        self._storage.add_version(ent.id, t, data, close_current=not new)
        self._wrote_entity(ent.id, data)

    def _add_relation(self, r: Relation) -> None:
        family = _family(r.predicate)
        self._storage.add_relation(r.subject, r.predicate, r.object, family, r.since_ns, r.provenance)

    def _remove_absent(self, room: str, seen: set[str], t: int, obs_id: str, result: IngestResult) -> None:
        for ent_id, data in self._storage.present_in_room(room, ROOM_LABEL):
            if ent_id in seen:
                continue
            ent = Entity.model_validate_json(data)
            ent.present = False
            ent.location = None
            ent.provenance = obs_id
            self._storage.close_relations_of(ent_id, t)
            self._write_entity(ent, t, new=False)
            self._add_event(Event(id=_new_id("ev"), kind="change", stamp_ns=t,
                                  text=f"{ent_id} no longer seen in {room}", entity_ids=[ent_id, room],
                                  provenance=obs_id))
            result.removed += 1

    def _add_event(self, ev: Event) -> None:
        ev.robot, ev.site = self.robot, self.site
        self._storage.insert_event(ev.id, ev.kind, ev.stamp_ns, ev.model_dump_json(), ev.entity_ids)

    def ingest_skill_feedback(self, fb: SkillFeedbackObservation) -> IngestResult:
        fb = self.limits.skill_feedback(fb)
        outcome = "succeeded" if fb.success else f"failed ({fb.status or 'FAILURE'})"
        text = f"{fb.robot or 'robot'} {fb.skill}({', '.join(fb.args)}) {outcome}"
        if fb.message:
            text += f": {fb.message}"
        with self._tx():
            obs_id = self._record_observation("skill_feedback", fb.stamp_ns, fb.robot, {"skill": fb.skill})
            ev = Event(id=_new_id("ev"), kind="skill", stamp_ns=fb.stamp_ns, text=text,
                       entity_ids=[fb.target_id, *fb.args] if fb.target_id else list(fb.args),
                       data=fb.model_dump(), provenance=obs_id)
            self._add_event(ev)
            updated = self._remember_outcome(fb, ev)
        return IngestResult(observation_id=ev.id, added=1, updated=updated)

    def _remember_outcome(self, fb: SkillFeedbackObservation, ev: Event) -> int:
        """The states a skill's outcome implies, on the entities it acted on: a success leaves its library's
        effects (``skill_state_effects``: an ``open`` leaves its container open), and one explicit "locked"
        failure is enough to remember a locked (so closed) container: the controller said so. Feedback
        older than what memory last saw of an entity cannot change its present (as for observations)."""
        wanted: dict[str, list[tuple[str, bool]]] = {}
        if fb.success:
            for index, state, negated in self.skill_state_effects.get(fb.skill, ()):
                target = fb.args[index] if index < len(fb.args) else (fb.target_id if index == 0 else "")
                if target:
                    wanted.setdefault(target, []).append((normalize_state(state), negated))
        elif fb.target_id and "locked" in f"{fb.status} {fb.message}".lower():
            wanted[fb.target_id] = [(state, False) for state in LOCKED_STATES]
        updated = 0
        for ent_id, effects in wanted.items():
            ent = self._get_entity_row(ent_id)
            if ent is None or fb.stamp_ns < ent.last_seen_ns:
                continue
            states = list(ent.states)
            for state, negated in effects:
                states = [s for s in states if s != state] if negated else merge_states(states, [state])
            if sorted(set(states)) == sorted(ent.states):
                continue
            ent.states = sorted(set(states))
            ent.provenance = ev.id
            self._write_entity(ent, fb.stamp_ns, new=False)
            updated += 1
        if fb.success:
            updated += self._move_after_skill(fb, ev)
        return updated

    def _move_after_skill(self, fb: SkillFeedbackObservation, ev: Event) -> int:
        """Where a successful skill left what it handled (``skill_location_effects``): a pick puts the thing
        in the robot's hand, a place on or in its target, a handover lets it go. Each move supersedes the old
        location (kept in history) with a ``change`` event, as an observed move does; feedback older than
        what memory last saw of the thing changes nothing (the observation is newer)."""
        moved = 0
        for index, predicate, where in self.skill_location_effects.get(fb.skill, ()):
            thing = fb.args[index] if index < len(fb.args) else (fb.target_id if index == 0 else "")
            ent = self._get_entity_row(thing) if thing else None
            if ent is None or fb.stamp_ns < ent.last_seen_ns:
                continue
            if where == RELEASED:
                moved += self._release(ent, fb, ev)
                continue
            if where == HELD_BY_ROBOT:
                holder = ROBOT_ID
            else:
                holder = fb.args[where] if isinstance(where, int) and where < len(fb.args) else ""
                target = self._get_entity_row(holder) if holder else None
                if target is None:
                    continue
                # a library says "on"; a thing set into something that opens is in it
                if predicate == "on" and {"open", "closed"} & set(target.states):
                    predicate = "in"
            if ent.location is not None and (ent.location.predicate, ent.location.object) == (predicate, holder):
                continue
            old = ent.location
            location = Relation(subject=ent.id, predicate=predicate, object=holder, since_ns=fb.stamp_ns,
                                provenance=ev.id)
            self._storage.close_location(ent.id, fb.stamp_ns)
            self._add_relation(location)
            # last_seen_ns stays: the robot did this, nobody saw it (sightings are not invented)
            self._write_entity(ent.model_copy(update={"location": location, "provenance": ev.id}), fb.stamp_ns,
                               new=False)
            was = f"from {old.predicate} {old.object} " if old is not None else ""
            self._add_event(Event(id=_new_id("ev"), kind="change", stamp_ns=fb.stamp_ns,
                                  text=f"{ent.id} moved {was}to {predicate} {holder} ({fb.skill} succeeded)",
                                  entity_ids=[ent.id, holder, *([old.object] if old else [])],
                                  data={"from": old.model_dump() if old else None, "to": location.model_dump()},
                                  provenance=ev.id))
            moved += 1
        return moved

    def _release(self, ent: Entity, fb: SkillFeedbackObservation, ev: Event) -> int:
        """It left the robot's hand for somewhere memory was not told (a handover): no longer in the hand
        nor where it was before."""
        old = ent.location
        if old is None:
            return 0
        self._storage.close_location(ent.id, fb.stamp_ns)
        new = ent.model_copy(update={"location": None, "provenance": ev.id})
        self._write_entity(new, fb.stamp_ns, new=False)
        self._add_event(Event(id=_new_id("ev"), kind="change", stamp_ns=fb.stamp_ns,
                              text=f"{ent.id} no longer {old.predicate} {old.object}: {fb.skill} succeeded",
                              entity_ids=[ent.id, old.object], data={"from": old.model_dump()},
                              provenance=ev.id))
        return 1

    def ingest_utterance(self, utt: UtteranceObservation) -> IngestResult:
        utt = self.limits.utterance(utt)
        if not utt.text.strip():
            raise InvalidInput("utterance text is empty")
        with self._tx():
            obs_id = self._record_observation("utterance", utt.stamp_ns, utt.speaker, {})
            ev = Event(id=_new_id("ev"), kind="utterance", stamp_ns=utt.stamp_ns,
                       text=f"{utt.speaker or 'someone'} said: {utt.text}", data=utt.model_dump(),
                       provenance=obs_id)
            self._add_event(ev)
            apply_utterance(self, ev)  # corrections and preferences it states (core/rules.py)
        return IngestResult(observation_id=ev.id, added=1)

    def ingest_activity(self, act: ActivityObservation) -> IngestResult:
        """An observed action as an ``activity`` event (append-only, like skill feedback): it is evidence
        for consolidation (core/consolidation.py), which runs later and never here."""
        act = self.limits.activity(act)
        said = act.text or " ".join([act.verb.replace("-", " "), *act.objects])
        text = f"{act.actor or 'someone'}: {said}" + (f" (in {act.location})" if act.location else "")
        with self._tx():
            obs_id = self._record_observation("activity", act.stamp_ns, act.actor, {"verb": act.verb})
            ev = Event(id=_new_id("ev"), kind="activity", stamp_ns=act.stamp_ns, text=text,
                       entity_ids=[act.actor, *act.objects, act.location], data=act.model_dump(),
                       provenance=obs_id)
            self._add_event(ev)
        return IngestResult(observation_id=ev.id, added=1)

    def ingest_frame(self, frame: FrameObservation, visible: Iterable[str] = ()) -> IngestResult:
        """Store a frame unless it nearly duplicates the last admitted frame of its room and shows no
        entity that frame did not show."""
        visible_set = frozenset(v for v in visible if v)
        last = self._last_frame.get(frame.room)
        if last is not None and frame.thumbnail and len(last[0]) == len(frame.thumbnail):
            diff = sum(abs(a - b) for a, b in zip(last[0], frame.thumbnail)) / len(frame.thumbnail)
            if diff < self.frame_similarity_threshold and visible_set <= last[1]:
                return IngestResult(observation_id="", admitted=False, unchanged=1)
        frame_id = _new_id("fr")
        path = self.frame_dir / f"{frame_id}.{frame.format}"
        try:
            self.frame_dir.mkdir(parents=True, exist_ok=True)
            path.write_bytes(frame.encoded)
        except OSError as err:  # full disk, file-size limit, read-only medium
            path.unlink(missing_ok=True)
            raise _not_writable(self.frame_dir, err) from err
        rec = Frame(id=frame_id, stamp_ns=frame.stamp_ns, room=frame.room, path=self._stored_frame_path(path),
                    width=frame.width,
                    height=frame.height, pose=frame.pose, entity_ids=sorted(self._own_id(v, {frame.room}) for v in visible_set),
                    robot=self.robot, site=self.site)
        try:
            with self._tx():
                rec.provenance = self._record_observation("frame", frame.stamp_ns, frame.frame_id,
                                                          {"frame": frame_id})
                self._storage.insert_frame(frame_id, rec.stamp_ns, rec.room, rec.path, rec.model_dump_json(),
                                 rec.entity_ids)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        self._last_frame[frame.room] = (list(frame.thumbnail), visible_set)
        return IngestResult(observation_id=frame_id, added=1)

    def ingest_map(self, info: MapInfo) -> IngestResult:
        """Keep the latest occupancy map's summary (the grid itself is not stored per message)."""
        with self._tx():
            obs_id = self._record_observation("map", info.stamp_ns, info.frame_id,
                                              info.model_dump(exclude={"provenance"}))
            info = info.model_copy(update={"provenance": obs_id})
            self._storage.put_meta(self._meta_key("map"), info.model_dump_json())
        return IngestResult(observation_id=obs_id, added=1)

    def map_info(self) -> MapInfo | None:
        value = self._storage.meta(self._meta_key("map"))
        return MapInfo.model_validate_json(value) if value else None

    def set_meta(self, key: str, value: dict) -> None:
        with self._tx():
            self._storage.put_meta(self._meta_key(key), json.dumps(value))

    def get_meta(self, key: str) -> dict | None:
        value = self._storage.meta(self._meta_key(key))
        return json.loads(value) if value else None

    def _meta_key(self, key: str) -> str:
        """Meta is per robot in a site memory (each its own map and whereabouts); a robot's own memory
        keeps the plain keys it always had."""
        return f"{self.robot}:{key}" if self.url and self.robot else key

    # ---- read path -----------------------------------------------------------------------------

    def entity(self, ent_id: str, as_of_ns: int | None = None) -> Entity | None:
        if as_of_ns is None:
            return self._get_entity_row(ent_id)
        data = self._storage.entity_json_as_of(ent_id, as_of_ns)
        return Entity.model_validate_json(data) if data else None

    def entities(self, label: str | None = None, room: str | None = None, as_of_ns: int | None = None,
                 include_absent: bool = False) -> list[Entity]:
        """Entities newest-seen first, optionally filtered by label (as given or normalised: "coffee_table"
        finds label ``coffeetable``) and room."""
        label = normalize_label(label) if label and label != ROOM_LABEL else label
        if as_of_ns is None:
            return [Entity.model_validate_json(d) for d in self._storage.entities_json(label, room, include_absent)]
        out = [Entity.model_validate_json(d) for d in self._storage.versions_json_as_of(as_of_ns)]
        out = [e for e in out if (not label or e.label == label) and (not room or e.room == room)
               and (include_absent or e.present)]
        return sorted(out, key=lambda e: (-e.last_seen_ns, e.id))

    def history(self, ent_id: str) -> list[EntityVersion]:
        return [EntityVersion(entity=Entity.model_validate_json(d), valid_from_ns=f, valid_to_ns=u)
                for d, f, u in self._storage.history_rows(ent_id)]

    def relations(self, subject: str | None = None, obj: str | None = None, as_of_ns: int | None = None,
                  room: str | None = None, *, since_ns: int | None = None,
                  until_ns: int | None = None) -> list[Relation]:
        """Relations holding now, or at ``as_of_ns``, or at any time in [``since_ns``, ``until_ns``]."""
        window = since_ns is not None or until_ns is not None
        if window and as_of_ns is not None:
            raise InvalidInput("relations: give as_of or a since/until window, not both")
        rows = self._storage.relation_rows(subject, obj, as_of_ns, (since_ns, until_ns) if window else None)
        rels = [Relation(subject=s, predicate=p, object=o, since_ns=a, until_ns=b, provenance=pv)
                for s, p, o, a, b, pv in rows]
        if room:
            in_room = {e.id for e in self.entities(room=room, as_of_ns=until_ns if window else as_of_ns,
                                                   include_absent=window)}
            rels = [r for r in rels if r.subject in in_room]
        return rels

    # ---- what was observed when ----------------------------------------------------------------

    def observations(self, since_ns: int | None = None, until_ns: int | None = None, kind: str | None = None,
                     limit: int = 50) -> list[ObservationRecord]:
        """The observation log newest first: every message ingested with its event time in
        [``since_ns``, ``until_ns``] (either bound may be None), optionally of one kind (scene_graph,
        skill_feedback, utterance, activity, frame, map)."""
        return [ObservationRecord(id=i, kind=k, stamp_ns=s, source=src, summary=json.loads(summary), robot=r,
                                  site=site)
                for i, k, s, src, summary, r, site in self._storage.observation_rows(since_ns, until_ns, kind, limit)]

    def sightings(self, since_ns: int | None = None, until_ns: int | None = None,
                  entity_id: str | None = None) -> list[SeenInterval]:
        """Intervals in which entities were in view that overlap [``since_ns``, ``until_ns``], latest end
        first. An interval joins sightings at most ``sighting_gap`` apart (see DEFAULT_SIGHTING_GAP)."""
        out = [SeenInterval(entity_id=e, from_ns=a, to_ns=b)
               for e, a, b in self._storage.sighting_rows(since_ns, until_ns, entity_id)]
        return sorted(out, key=lambda s: (-s.to_ns, s.entity_id))
    def observed(self, since_ns: int | None = None, until_ns: int | None = None, label: str | None = None,
                 room: str | None = None, entity_id: str | None = None) -> list[Entity]:
        """What was observed in [``since_ns``, ``until_ns``]: each entity seen then, in the state it had at
        its latest sighting in the window, most recently seen first. ``last_seen_ns`` is that sighting
        (to ``sighting_gap``'s resolution); entities absent now are included."""
        latest: dict[str, int] = {}
        for s in self.sightings(since_ns, until_ns, entity_id=entity_id):
            t = s.to_ns if until_ns is None else min(s.to_ns, until_ns)
            latest[s.entity_id] = max(latest.get(s.entity_id, t), t)
        label = normalize_label(label) if label and label != ROOM_LABEL else label
        out = []
        for ent_id, t in latest.items():
            state = self.entity(ent_id, as_of_ns=t)
            if state is None or (label and state.label != label) or (room and state.room != room):
                continue
            out.append(state.model_copy(update={"last_seen_ns": t}))
        return sorted(out, key=lambda e: (-e.last_seen_ns, e.id))

    def events(self, kind: str | None = None, entity_id: str | None = None, since_ns: int | None = None,
               until_ns: int | None = None, limit: int = 50) -> list[Event]:
        """Events newest first."""
        rows = self._storage.timed_json("events", entity_id, since_ns, until_ns, ("kind", kind), limit)
        return [Event.model_validate_json(r) for r in rows]

    def frames(self, room: str | None = None, entity_id: str | None = None, since_ns: int | None = None,
               until_ns: int | None = None, limit: int = 50) -> list[Frame]:
        """Frames newest first."""
        rows = self._storage.timed_json("frames", entity_id, since_ns, until_ns, ("room", room), limit)
        out = []
        for r in rows:
            f = Frame.model_validate_json(r)
            out.append(f.model_copy(update={"path": str(self.frame_file(f.path))}))
        return out

    def observation(self, obs_id: str) -> dict | None:
        """One entry of the observation log as a dict (``observations()`` gives typed records)."""
        row = self._storage.observation_row(obs_id)
        if not row:
            return None
        return {"id": row[0], "kind": row[1], "stamp_ns": row[2], "source": row[3],
                "summary": json.loads(row[4]), "robot": row[5], "site": row[6]}

    def first_stamp_ns(self) -> int | None:
        """Event time of the oldest observation memory holds (None when it holds none): before it, memory
        knew nothing, and a question "as of" then is answered so."""
        return self._storage.observation_span()[0]

    def counts(self) -> dict[str, int]:
        return self._storage.counts()

    # ---- forgetting ----------------------------------------------------------------------------

    def apply_retention(self, frames_per_room: int = 0, max_frame_age_ns: int = 0) -> int:
        """Delete frames beyond the newest ``frames_per_room`` of each room and frames older than
        ``max_frame_age_ns`` before the newest observation (event time, so a replay ages like the live
        robot). 0 disables a limit. Returns how many frames were removed (files too)."""
        doomed: set[str] = set()
        if frames_per_room > 0:
            doomed |= self._storage.frames_beyond_per_room(frames_per_room)
        if max_frame_age_ns > 0:
            newest = self._storage.observation_span()[1]
            if newest is not None:
                doomed |= self._storage.frames_before(newest - max_frame_age_ns)
        return self.forget(ids=sorted(doomed)) if doomed else 0

    def forget(self, ids: Iterable[str] = (), room: str = "", since_ns: int | None = None,
               until_ns: int | None = None, everything: bool = False) -> int:
        """Really delete: records, their history and frame files. Returns how many records were removed.

        ``ids`` may name entities, events or frames; ``room`` removes what was in that room; a time range
        removes events, frames and observations stamped inside it (and entities first seen inside it).
        """
        ids = [i for i in ids if i]
        if not (ids or room or since_ns is not None or until_ns is not None or everything):
            raise InvalidInput("forget needs ids, a room, a time range or everything=true")
        window = None
        if since_ns is not None or until_ns is not None:
            window = (since_ns if since_ns is not None else -_FAR_FUTURE,
                      until_ns if until_ns is not None else _FAR_FUTURE)
        paths: list[str] = []
        with self._tx() as storage:
            if everything:
                removed, paths = storage.delete_everything()
            else:
                ent_ids, ev_ids, fr_ids = storage.doomed(ids, room, window)
                for e in ent_ids:
                    storage.delete_entity(e)
                for ev in ev_ids:
                    storage.delete_event(ev)
                for f in fr_ids:
                    path = storage.delete_frame(f)
                    if path is not None:
                        paths.append(path)
                removed = len(ent_ids) + len(ev_ids) + len(fr_ids) + storage.forget_derived(ev_ids)
        for p in paths:
            file = self.frame_file(p)
            # only this memory's own frame folder: a copied database whose rows still name another copy's
            # files must never delete them (it did, when paths were stored absolute)
            if self._owns_frame_file(file):
                file.unlink(missing_ok=True)
        self._last_frame.clear()
        return removed


def _content(e: Entity) -> str:
    """An entity's state without bookkeeping fields, to tell an update from a no-op."""
    # raw_label: sources that spell one label differently ("Coffee table", "coffee_table") are no change
    # robot, site: another robot seeing the same unchanged thing is a sighting, not a new version
    return e.model_dump_json(exclude={"last_seen_ns", "provenance", "confidence", "raw_label", "robot", "site"})
