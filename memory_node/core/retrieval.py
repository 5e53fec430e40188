"""Retrieval: one deterministic pipeline that finds the entities and events a piece of text means.

Stages, in order, each adding only records the earlier ones did not find:

1. **structured constraints** (store kind, room, entity, time) narrow the candidates before any text is
   looked at: "where is X now" is a lookup, and as-of queries see only what memory held at that time;
2. **exact**: the text names a record's id, an entity's label ("coffee table" -> ``coffeetable``) or name;
3. **lexical**: SQLite FTS5 (trigram tokens, BM25) over labels, names, attributes, states, rooms and
   locations of entities and over event texts, so words inside compound labels and attribute words match;
4. **semantic**, a fallback that runs only when nothing matched exactly and slots are left: cosine
   similarity of sentence embeddings (all-MiniLM-L6-v2, see ``embedding.py``) between the text and each
   candidate's distinct phrase ("something to drink from" -> mug, wine glass).

``MemoryRecord.score`` says how a record matched and orders the result: exact 1.0; lexical in [0.5, 0.9]
(BM25 relative to the best lexical hit); semantic 0.5 x cosine, so always below 0.5. Among exact matches
an id match comes first, then those that also contain more of the text's words ("the blue mug"); other
ties go to the newest record (latest state first). The result is capped (12 by default) and holds each
record once, at its best stage; each record's JSON is the stored model, with its ``provenance`` (the
observation it came from).

What a query costs follows ``limit`` and the number of distinct phrases, not the size of memory, where
indexes allow: the exact stage reads the best ``limit`` of each named label (newest first, through the
``(label, last_seen_ns DESC, id)`` index, preferring those with the text's other words, found through
the FTS index); the lexical stage is skipped when exact matches fill the result, and otherwise ranks
FTS documents before joining only the best to their records; the semantic stage lists candidate phrases
from ``entity_phrases`` (schema migration 5) and finds events by text through their FTS index. BM25
still scores every document that contains a searched word (a word in a quarter of memory costs that).

Embeddings are computed on the read path only, on the first semantic query, once per distinct text: they
are cached in the ``embedding_cache`` table and in memory. When the model cannot be loaded the semantic
stage is skipped with one warning; the other stages still answer.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .embedding import TextEmbedder, default_embedder, single_blas_thread
from .models import Entity, Event, MemoryRecord, normalize_label
from .storage.errors import storage_errors
from .store import ROOM_LABEL, MemoryStore
from .text import tokens

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 12
KINDS = ("entities", "events")
PHRASE_CHARS = 256  # characters of a label or name an entity phrase is embedded from

EXACT_SCORE = 1.0
LEXICAL_MIN, LEXICAL_MAX = 0.5, 0.9
SEMANTIC_SCALE = 0.5
# A semantic match must reach MIN_COSINE and lie within COSINE_MARGIN of the best one: MiniLM gives
# unrelated household words ~0.2-0.35 against a request, related ones ~0.4-0.7.
MIN_COSINE = 0.3
COSINE_MARGIN = 0.15
# the newest events a semantic query compares (each distinct text is embedded once, then cached)
SEMANTIC_EVENT_CANDIDATES = 256
# BM25 column weights of entities_fts: label, name, id, attributes, states, room, location
ENTITY_FTS_WEIGHTS = (10.0, 8.0, 2.0, 3.0, 3.0, 1.0, 1.0)
_MEMORY_CACHE_MAX = 50_000
_QUERY_CACHE_MAX = 1_000

# Words that say nothing about which record is meant; they never reach the lexical or label matching.
STOPWORDS = frozenset("""
a an the and or of to in on at for from with by into onto off out up down over under is are was were be been
being am it its it's this that these those there here what where which who whom whose how when why can
could would should will shall may might must do does did done i me my mine we us our you your he him his
she her they them their not no any some something someone somewhere thing things stuff please find show
tell give bring get fetch put go look see know remember now currently still just all every each one ones
""".split())

# What an entity's search document holds: the same expressions as the entities_fts triggers of schema
# migration 2 (``test_retrieval`` checks they agree), used to index past states for as-of queries.
_ENTITY_DOC_SQL = """json_extract({d}, '$.label'), json_extract({d}, '$.name'), json_extract({d}, '$.id'),
    (SELECT group_concat(CASE WHEN a.value IN ('true', 'yes') OR a.value NOT GLOB '*[A-Za-z]*' THEN a.key
            ELSE a.key || ' ' || a.value END, ' ')
     FROM json_each({d}, '$.attributes') a),
    (SELECT group_concat(s.value, ' ') FROM json_each({d}, '$.states') s),
    json_extract({d}, '$.room'),
    CASE WHEN json_extract({d}, '$.location') IS NULL THEN '' ELSE
        json_extract({d}, '$.location.predicate') || ' ' || json_extract({d}, '$.location.object') END"""
_ENTITY_FTS_COLUMNS = "label, name, id, attributes, states, room, location"
_NAME_SQL = "json_extract(e.data, '$.name')"
_ID_MATCH = 1000.0  # tiebreak of an exact id match: above label/name matches, which count matched words


def _normalized_name_sql(name: str) -> str:
    """SQL for a name normalised as labels are (what the exact stage compares with label candidates)."""
    return f"lower(replace(replace(replace(coalesce({name}, ''), ' ', ''), '_', ''), '-', ''))"


_NORMALIZED_NAME_SQL = _normalized_name_sql(_NAME_SQL)
# Words the entity FTS documents may lack although ``_entity_words`` has them: an attribute's value is
# indexed only when it has letters and is not 'true' or 'yes' (schema migration 2), so a word without
# letters, or one inside 'true' or 'yes', cannot be looked up through the index.
_FTS_BLIND = frozenset({"tru", "rue", "true", "yes"})
# how many of a label's newest entities (x limit) the exact stage reads looking for the text's other words
_WALK = 16


# ---- text -----------------------------------------------------------------------------------------


def id_tokens(text: str) -> set[str]:
    """What in the text could be a record id (ids are letters, digits and ``_ . : / -``)."""
    return {t.strip(".:/-") for t in re.findall(r"[A-Za-z0-9_.:/\-]+", text)} - {""}


def label_candidates(text: str, max_words: int = 3) -> set[str]:
    """Labels the text may name: runs of up to ``max_words`` words joined the way labels are normalised,
    so "coffee table" names ``coffeetable``; runs made only of stop words name nothing."""
    ws = tokens(text, join_hyphens=False)  # a hyphen separates, as in FTS5's tokenizer
    out: set[str] = set()
    for n in range(1, max_words + 1):
        for i in range(len(ws) - n + 1):
            run = ws[i:i + n]
            if all(w in STOPWORDS for w in run):
                continue
            out.add(normalize_label("".join(run)))
    return out - {""}


def _terms(text: str) -> list[str]:
    """The words lexical matching uses: content words of three or more characters (trigram tokens need
    three; shorter words are left to the exact stage)."""
    return [w for w in dict.fromkeys(tokens(text, join_hyphens=False)) if len(w) >= 3 and w not in STOPWORDS]


def fts_query(text: str) -> str | None:
    """An FTS5 query matching any of the text's content words (BM25 ranks records matching more of them
    higher)."""
    return " OR ".join(f'"{t}"' for t in _terms(text)) or None


def _entity_words(data: dict) -> str:
    """An entity's searchable text (what its FTS document holds), lower case."""
    loc = data.get("location") or {}
    bits = [data.get("label", ""), data.get("name", ""), data.get("id", ""), data.get("room", ""),
            loc.get("predicate", ""), loc.get("object", ""), *data.get("states", [])]
    for key, value in (data.get("attributes") or {}).items():
        bits += [key, value]
    return " ".join(bits).lower()


def _words_matched(terms: Sequence[str], doc: str) -> int:
    return sum(t in doc for t in terms)


# ---- pipeline -------------------------------------------------------------------------------------


@dataclass
class _Hit:
    stage: int  # 0 exact, 1 lexical, 2 semantic
    score: float
    record: MemoryRecord
    tiebreak: float = 0.0  # exact hits: id match, else how many of the text's words they also contain

    def key(self) -> tuple[int, float, float, int, str]:
        return (self.stage, -self.score, -self.tiebreak, -self.record.stamp_ns, self.record.id)


@dataclass(frozen=True)
class _EntityView:
    """Where the candidate entities live: the ``entities`` table (now) or a per-query temporary copy of
    the versions valid at an as-of time, each with its FTS index."""

    table: str
    fts: str
    join: str  # joins entities (as ``e``) to FTS documents whose rowid is ``{doc}``, documents first
    docs: str  # the FTS rowids of the entities (as ``e``) that satisfy ``{where}``

    def fts_join(self, doc: str) -> str:
        return self.join.format(doc=doc)


_CURRENT = _EntityView(
    table="entities", fts="entities_fts",
    # CROSS JOIN keeps this order: else SQLite may walk a label's entities (in the order of the query)
    # and look each up among the documents
    join="CROSS JOIN search_docs d ON d.doc = {doc} AND d.kind = 'entity' CROSS JOIN entities e ON e.id = d.ref",
    # from the entities (room or id index) to their documents, never the other way round
    docs="SELECT d.doc FROM entities e CROSS JOIN search_docs d ON d.kind = 'entity' AND d.ref = e.id "
         "WHERE {where}")
_AS_OF = _EntityView(
    table="temp.retrieval_asof", fts="retrieval_asof_fts",
    join="CROSS JOIN temp.retrieval_asof e ON e.doc = {doc}",
    docs="SELECT e.doc FROM temp.retrieval_asof e WHERE {where}")


def _hits(rows: Iterable[Sequence], stage: int, score: float,
          record: Callable[[str, float], MemoryRecord]) -> list[_Hit]:
    """Hits from rows of (JSON,) scored ``score``, or of (JSON, score), made records by ``record``."""
    out = []
    for row in rows:
        s = row[1] if len(row) > 1 else score
        out.append(_Hit(stage, s, record(row[0], s)))
    return out


class Retriever:
    """Searches one store. Keep one per store (``retriever_for``): it holds the embedding cache.

    ``embedder`` defaults to the process-wide MiniLM embedder, loaded on the first semantic query;
    ``semantic=False`` turns the semantic stage off.
    """

    def __init__(self, store: MemoryStore, embedder: TextEmbedder | None = None, semantic: bool = True,
                 min_cosine: float = MIN_COSINE, cosine_margin: float = COSINE_MARGIN):
        self.store = store
        self._embedder = embedder
        self.semantic = semantic
        self.min_cosine = min_cosine
        self.cosine_margin = cosine_margin
        self._vectors: dict[str, np.ndarray] = {}
        self._phrases: dict[tuple[str, str], str] = {}
        self._queries: dict[str, np.ndarray] = {}
        self._lock = threading.RLock()
        self._warned = False
        # the as-of copy in temporary tables: ((as_of_ns, entity_id), memory's change counters, indexed)
        self._as_of: tuple[tuple[int, str | None], tuple[int, int], bool] | None = None

    @property
    def embedder(self) -> TextEmbedder:
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    # ---- public ---------------------------------------------------------------------------------

    def search(self, text: str, kind: str | None = None, room: str | None = None, entity_id: str | None = None,
               as_of_ns: int | None = None, limit: int = DEFAULT_LIMIT) -> list[MemoryRecord]:
        """Entities and/or events (``kind`` 'entities', 'events' or None for both) that ``text`` means,
        best first, at most ``limit``."""
        if kind not in (None, "", *KINDS):
            raise ValueError(f"retrieval searches {', '.join(KINDS)}, not {kind!r}")
        limit = max(1, int(limit))
        text = text.strip()
        kinds = KINDS if not kind else (kind,)
        with self._lock:
            view = (self._entity_view(entity_id, as_of_ns, lexical=fts_query(text) is not None)
                    if "entities" in kinds else None)
            hits: dict[tuple[str, str], _Hit] = {}

            def add(new: Iterable[_Hit]) -> None:
                for h in new:
                    k = (h.record.kind, h.record.id)
                    if k not in hits or h.key() < hits[k].key():
                        hits[k] = h

            if not text:  # no text: the structured constraints alone, newest first
                if view is not None:
                    add(self._entities_newest(view, room, entity_id, limit))
                if "events" in kinds:
                    add(self._events_newest(room, entity_id, as_of_ns, limit))
                return self._ranked(hits, limit)

            if view is not None:
                add(self._entities_exact(view, text, room, entity_id, limit))
            if "events" in kinds:
                add(self._events_exact(text, room, entity_id, as_of_ns))
            exact = sum(h.stage == 0 for h in hits.values())
            # Every lexical hit ranks below every exact one: when the exact hits fill the result, the
            # lexical stage could not change it (and for a common label it is the costly part).
            if exact < limit:
                if view is not None:
                    add(self._entities_lexical(view, text, room, entity_id, limit * 4))
                if "events" in kinds:
                    add(self._events_lexical(text, room, entity_id, as_of_ns, limit * 4))
            if self.semantic and not exact and len(hits) < limit:
                add(self._semantic(text, kinds, view, room, entity_id, as_of_ns, limit))
            return self._ranked(hits, limit)

    # ---- entities -------------------------------------------------------------------------------

    def _entity_view(self, entity_id: str | None, as_of_ns: int | None, lexical: bool) -> _EntityView:
        """The candidate entities: the live table, or for an as-of query the versions valid then (the
        ones ``store.entities(as_of_ns=...)`` returns), copied into temporary tables with their own FTS
        index so that nothing a later message wrote can match. The copy is kept until memory changes,
        so follow-up questions about the same moment cost no rebuild."""
        if as_of_ns is None:
            return _CURRENT
        db = self.store.db
        key = (as_of_ns, entity_id)
        snapshot = (db.total_changes, db.execute("PRAGMA data_version").fetchone()[0])
        if self._as_of is None or self._as_of[0] != key or self._as_of[1] != snapshot:
            db.execute("DROP TABLE IF EXISTS temp.retrieval_asof_fts")
            db.execute("DROP TABLE IF EXISTS temp.retrieval_asof")
            db.execute("CREATE TEMP TABLE retrieval_asof(doc INTEGER PRIMARY KEY, id TEXT UNIQUE, label TEXT, "
                       "room TEXT, present INTEGER, last_seen_ns INTEGER, data TEXT)")
            q = ("INSERT OR REPLACE INTO temp.retrieval_asof(id, label, room, present, last_seen_ns, data) "
                 "SELECT entity_id, json_extract(data, '$.label'), json_extract(data, '$.room'), "
                 "json_extract(data, '$.present'), json_extract(data, '$.last_seen_ns'), data FROM entity_versions "
                 "WHERE valid_from_ns <= ? AND (valid_to_ns IS NULL OR valid_to_ns > ?)")
            args: list = [as_of_ns, as_of_ns]
            if entity_id:
                q += " AND entity_id = ?"
                args.append(entity_id)
            db.execute(q, args)
            self._as_of = (key, (db.total_changes, snapshot[1]), False)
        if lexical and not self._as_of[2]:  # indexing costs ~20 us an entity: only when words are searched
            db.execute(f"CREATE VIRTUAL TABLE temp.retrieval_asof_fts USING fts5({_ENTITY_FTS_COLUMNS}, "
                       "tokenize='trigram')")
            db.execute(f"INSERT INTO temp.retrieval_asof_fts(rowid, {_ENTITY_FTS_COLUMNS}) "
                       f"SELECT e.doc, {_ENTITY_DOC_SQL.format(d='e.data')} FROM temp.retrieval_asof e "
                       "WHERE e.present = 1")
            self._as_of = (self._as_of[0], (db.total_changes, self._as_of[1][1]), True)
        return _AS_OF

    @staticmethod
    def _entity_filters(room: str | None, entity_id: str | None) -> tuple[str, list]:
        where, args = ["e.present = 1"], []
        if room:
            where.append("e.room = ?")
            args.append(room)
        if entity_id:
            where.append("e.id = ?")
            args.append(entity_id)
        return " AND ".join(where), args

    @staticmethod
    def _entity_hits(rows: Iterable[Sequence], stage: int, score: float = EXACT_SCORE) -> list[_Hit]:
        """Hits from rows of (entity JSON,) scored ``score``, or of (entity JSON, score)."""
        from .query import describe_entity  # query.py builds on this module

        def record(data: str, s: float) -> MemoryRecord:
            e = Entity.model_validate_json(data)
            return MemoryRecord.of("entity", e.id, describe_entity(e), e, e.last_seen_ns, score=s)
        return _hits(rows, stage, score, record)

    def _entities_newest(self, view: _EntityView, room: str | None, entity_id: str | None,
                         limit: int) -> list[_Hit]:
        where, args = self._entity_filters(room, entity_id)
        rows = self.store.db.execute(f"SELECT e.data FROM {view.table} e WHERE {where} "
                                     "ORDER BY e.last_seen_ns DESC, e.id LIMIT ?", [*args, limit])
        return self._entity_hits(rows, stage=0)

    def _entities_exact(self, view: _EntityView, text: str, room: str | None, entity_id: str | None,
                        limit: int) -> list[_Hit]:
        """Entities the text names by id, then by label or name. Words inside a named id ("mug" in
        "mug_190") name nothing more; an id match ranks above label matches, and among label matches
        those that match more of the text's other words ("the blue mug") come first, then the newest.
        Of each label or name only the best ``limit`` are read (``_exact_group``), however many the
        memory holds."""
        db = self.store.db
        where, args = self._entity_filters(room, entity_id)
        ids = sorted(id_tokens(text) | {text})
        hits = self._entity_hits(db.execute(
            f"SELECT e.data FROM {view.table} e WHERE {where} AND e.id IN ({_marks(ids)})", [*args, *ids]), stage=0)
        rest = text
        for h in hits:
            h.tiebreak = _ID_MATCH
            rest = rest.replace(h.record.id, " ")
        labels = sorted((label_candidates(rest) | {normalize_label(rest)}) - {""})
        if not labels:
            return hits
        terms = _terms(rest)
        rows: dict[str, str] = {}  # id -> JSON: an entity may be named by its label and by its name
        for label, name in [(label, None) for label in labels] + self._named(view, where, args, labels):
            rows.update(self._exact_group(view, where, args, label, name, terms, limit))
        named = self._entity_hits([(data,) for data in rows.values()], stage=0)
        for h in named:
            h.tiebreak = _words_matched(terms, _entity_words(h.record.data()))
        return hits + named

    def _named(self, view: _EntityView, where: str, args: list, labels: list[str]) -> list[tuple[str, str]]:
        """(label, name) of the entities whose name, normalised as labels are, is one of ``labels``: from
        the distinct phrases (schema migration 5) now, from the temporary copy as of a time."""
        if view is _CURRENT:  # phrases of entities no longer present find nothing in _exact_group
            q = (f"SELECT p.label, p.name FROM entity_phrases p WHERE p.name != '' "
                 f"AND {_normalized_name_sql('p.name')} IN ({_marks(labels)})")
            return [(label, name) for label, name in self.store.db.execute(q, labels)]
        q = (f"SELECT DISTINCT e.label, {_NAME_SQL} FROM {view.table} e WHERE {where} AND {_NAME_SQL} != '' "
             f"AND {_NORMALIZED_NAME_SQL} IN ({_marks(labels)})")
        return [(label, name) for label, name in self.store.db.execute(q, [*args, *labels])]

    def _exact_group(self, view: _EntityView, where: str, args: list, label: str, name: str | None,
                     terms: Sequence[str], limit: int) -> list[tuple[str, str]]:
        """(id, JSON) of at most 2 x ``limit`` entities of one label (and name, when given) that hold its
        best ``limit`` by how many of the text's words they contain, then newest first.

        Every member contains the label (and the name); the other words tell members apart. The best
        ``limit`` lie among the group's newest ``limit`` and the best ``limit`` of the members that contain
        any of the other words (members containing none are outranked by every newer member). Those
        members are found through the FTS index, restricted to the group: when they are few they are
        ranked in SQL; when many, the group's newest ``_WALK`` x ``limit`` usually hold ``limit`` that
        contain all the words, which are then the best; else all of them are ranked in SQL. Words no
        member contains are left out first (they count for none)."""
        db = self.store.db
        where, args = f"{where} AND e.label = ?", [*args, label]
        shared = label
        if name is not None:
            where += f" AND coalesce({_NAME_SQL}, '') = ?"
            args.append(name)
            shared += " " + name.lower()
        order = "e.last_seen_ns DESC, e.id"
        rows = db.execute(f"SELECT e.id, e.data FROM {view.table} e WHERE {where} ORDER BY {order} LIMIT ?",
                          [*args, limit]).fetchall()
        other = [t for t in terms if t not in shared]
        if len(rows) < limit or not other:  # the whole group, or members all equal in the words they contain
            return rows
        indexed = view is _CURRENT or (self._as_of is not None and self._as_of[2])
        if not indexed or any(_fts_blind(t) for t in other):  # rare: rank the whole group here
            return db.execute(f"SELECT e.id, e.data FROM {view.table} e WHERE {where}", args).fetchall()
        # the FTS query restricted to the group's label (and name); trigrams cannot match under 3 characters
        within = [f"{column} : {_fts_phrase(value)}" for column, value in (("label", label), ("name", name or ""))
                  if len(value) >= 3]
        fts = view.fts
        if len(other) > 1:  # a word no member contains counts for none ("the big red mug" when none is big)
            other = [t for t in other if db.execute(f"SELECT 1 FROM {fts} WHERE {fts} MATCH ? LIMIT 1",
                                                    [" AND ".join([*within, _fts_phrase(t)])]).fetchone()]
            if not other:
                return rows
        match = " AND ".join([*within, "(" + " OR ".join(_fts_phrase(t) for t in other) + ")"])
        walk = _WALK * limit
        docs = [doc for (doc,) in db.execute(f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? LIMIT ?", [match, walk + 1])]
        if len(docs) > walk:  # many: the newest containing every word are likely among the group's newest
            found = []
            newest = db.execute(f"SELECT e.id, e.data FROM {view.table} e WHERE {where} ORDER BY {order} LIMIT ?",
                                [*args, walk])
            try:
                for row in newest:
                    if _words_matched(other, _entity_words(json.loads(row[1]))) == len(other):
                        found.append(row)
                        if len(found) == limit:
                            return rows + found
            finally:
                newest.close()
            source, source_args = f"SELECT rowid AS doc FROM {fts} WHERE {fts} MATCH ?", [match]
        else:
            source, source_args = "SELECT value AS doc FROM json_each(?)", [json.dumps(docs)]
        counts: list[str] = []
        if len(other) > 1:  # members containing more of the words first
            order = " + ".join([f"(m.doc IN (SELECT rowid FROM {fts} WHERE {fts} MATCH ?))"] * len(other)) + \
                " DESC, " + order
            counts = [" AND ".join([*within, _fts_phrase(t)]) for t in other]
        rows += db.execute(
            f"SELECT e.id, e.data FROM {view.table} e WHERE e.rowid IN (SELECT e.rowid FROM ({source}) m "
            f"{view.fts_join('m.doc')} WHERE {where} ORDER BY {order} LIMIT ?)",
            [*source_args, *args, *counts, limit]).fetchall()
        return rows

    def _entities_lexical(self, view: _EntityView, text: str, room: str | None, entity_id: str | None,
                          limit: int) -> list[_Hit]:
        """Entities by BM25. The FTS table ranks its documents alone and only the best ``limit`` are
        joined to their entities (for a common word the join cost more than the ranking); a room or
        entity constraint first narrows the ranked documents to that room's or entity's."""
        match = fts_query(text)
        if match is None:
            return []
        db = self.store.db
        where, args = self._entity_filters(room, entity_id)
        weights = ", ".join(str(w) for w in ENTITY_FTS_WEIGHTS)
        rank = f"SELECT rowid AS doc, bm25({view.fts}, {weights}) AS r FROM {view.fts} WHERE {view.fts} MATCH ?"
        rank_args: list = [match]
        if room or entity_id:
            # a unary + keeps SQLite from running the MATCH once per document of a room
            rank += f" AND {'rowid' if entity_id else '+rowid'} IN ({view.docs.format(where=where)})"
            rank_args += args
        q = (f"SELECT e.data, m.r FROM ({rank} ORDER BY r LIMIT ?) m {view.fts_join('m.doc')} "
             f"WHERE {where} ORDER BY m.r LIMIT ?")
        rows = db.execute(q, [*rank_args, limit, *args, limit]).fetchall()
        if len(rows) < limit and not (room or entity_id):  # some of the best are absent: rank them all
            rows = db.execute(q, [*rank_args, -1, *args, limit]).fetchall()
        return self._entity_hits(_lexical_scores(rows), stage=1)

    # ---- events ---------------------------------------------------------------------------------

    @staticmethod
    def _event_filters(room: str | None, entity_id: str | None, as_of_ns: int | None) -> tuple[str, list]:
        where: list[str] = ["1 = 1"]
        args: list[object] = []
        if as_of_ns is not None:
            where.append("v.stamp_ns <= ?")
            args.append(as_of_ns)
        for linked in (room, entity_id):
            if linked:
                where.append("v.id IN (SELECT event_id FROM event_entities WHERE entity_id = ?)")
                args.append(linked)
        return " AND ".join(where), args

    @staticmethod
    def _event_hits(rows: Iterable[Sequence], stage: int, score: float = EXACT_SCORE) -> list[_Hit]:
        """Hits from rows of (event JSON,) scored ``score``, or of (event JSON, score)."""
        def record(data: str, s: float) -> MemoryRecord:
            ev = Event.model_validate_json(data)
            return MemoryRecord.of("event", ev.id, ev.text, ev, ev.stamp_ns, score=s)
        return _hits(rows, stage, score, record)

    def _events_newest(self, room: str | None, entity_id: str | None, as_of_ns: int | None,
                       limit: int) -> list[_Hit]:
        where, args = self._event_filters(room, entity_id, as_of_ns)
        rows = self.store.db.execute(f"SELECT v.data FROM events v WHERE {where} "
                                     "ORDER BY v.stamp_ns DESC, v.rowid DESC LIMIT ?", [*args, limit])
        return self._event_hits(rows, stage=0)

    def _events_exact(self, text: str, room: str | None, entity_id: str | None,
                      as_of_ns: int | None) -> list[_Hit]:
        """Events the text names by id, or that involve an entity it names by id."""
        ids = sorted(id_tokens(text) | {text})
        marks = _marks(ids)
        where, args = self._event_filters(room, entity_id, as_of_ns)
        rows = self.store.db.execute(
            f"SELECT v.data FROM events v WHERE {where} AND (v.id IN ({marks}) OR v.id IN "
            f"(SELECT event_id FROM event_entities WHERE entity_id IN ({marks}))) "
            "ORDER BY v.stamp_ns DESC LIMIT 1000", [*args, *ids, *ids])
        hits = self._event_hits(rows, stage=0)
        terms = _terms(text)
        for h in hits:
            h.tiebreak = _words_matched(terms, h.record.text.lower())
        return hits

    def _events_lexical(self, text: str, room: str | None, entity_id: str | None, as_of_ns: int | None,
                        limit: int) -> list[_Hit]:
        match = fts_query(text)
        if match is None:
            return []
        where, args = self._event_filters(room, entity_id, as_of_ns)
        if args:  # constrained: rank the matching events that satisfy the constraints
            rows = self.store.db.execute(
                "SELECT v.data, bm25(events_fts) AS r FROM events_fts "
                "JOIN search_docs d ON d.doc = events_fts.rowid AND d.kind = 'event' JOIN events v ON v.id = d.ref "
                f"WHERE events_fts MATCH ? AND {where} ORDER BY r, v.stamp_ns DESC LIMIT ?",
                [match, *args, limit]).fetchall()
        else:  # only the best documents are joined to their events (ties at the cut: the later written)
            rows = self.store.db.execute(
                "SELECT v.data, m.r FROM (SELECT rowid AS doc, bm25(events_fts) AS r FROM events_fts "
                "WHERE events_fts MATCH ? ORDER BY r, doc DESC LIMIT ?) m "
                "CROSS JOIN search_docs d ON d.doc = m.doc AND d.kind = 'event' CROSS JOIN events v ON v.id = d.ref "
                "ORDER BY m.r, v.stamp_ns DESC", [match, limit]).fetchall()
        return self._event_hits(_lexical_scores(rows), stage=1)

    # ---- semantic -------------------------------------------------------------------------------

    def _semantic(self, text: str, kinds: Sequence[str], view: _EntityView | None, room: str | None,
                  entity_id: str | None, as_of_ns: int | None, limit: int) -> list[_Hit]:
        """Candidates' phrases by cosine similarity to the text; [] when the model is unavailable."""
        db = self.store.db
        phrases: dict[str, list[tuple[str, str]]] = {}  # phrase -> (label, name) groups of entities
        if view is not None:
            for label, name in self._entity_phrase_keys(view, room, entity_id):
                phrases.setdefault(self._entity_phrase(label, name), []).append((label, name))
        event_texts: list[str] = []
        if "events" in kinds:
            where, args = self._event_filters(room, entity_id, as_of_ns)
            event_texts = list(dict.fromkeys(r[0] for r in db.execute(
                f"SELECT json_extract(v.data, '$.text') FROM events v WHERE {where} "
                "ORDER BY v.stamp_ns DESC LIMIT ?", [*args, SEMANTIC_EVENT_CANDIDATES])))
        texts = list(dict.fromkeys([*phrases, *event_texts]))
        if not texts:
            return []
        vectors = self._embed(text, texts)
        if vectors is None:
            return []
        with single_blas_thread():
            cosines = vectors[1:] @ vectors[0]
        best = float(cosines.max())
        floor = max(self.min_cosine, best - self.cosine_margin)
        ranked = sorted(((float(c), t) for c, t in zip(cosines, texts) if c >= floor), key=lambda x: -x[0])
        hits: list[_Hit] = []
        event_set = set(event_texts)
        for cosine, t in ranked:
            if len(hits) >= limit:
                break
            score = SEMANTIC_SCALE * cosine
            for label, name in phrases.get(t, ()):
                where, args = self._entity_filters(room, entity_id)
                rows = db.execute(
                    f"SELECT e.data FROM {view.table} e WHERE {where} AND e.label = ? "  # type: ignore[union-attr]
                    f"AND coalesce({_NAME_SQL}, '') = ? ORDER BY e.last_seen_ns DESC, e.id LIMIT ?",
                    [*args, label, name, limit])
                hits += self._entity_hits(rows, stage=2, score=score)
            if t in event_set:
                hits += self._event_hits(self._events_with_text(t, room, entity_id, as_of_ns, limit),
                                         stage=2, score=score)
        return hits

    def _events_with_text(self, text: str, room: str | None, entity_id: str | None, as_of_ns: int | None,
                          limit: int) -> list[tuple[str]]:
        """JSON of the newest events whose text is ``text``, found through the FTS index by the text's
        longest word (each event's text is indexed whole) rather than by reading every event."""
        where, args = self._event_filters(room, entity_id, as_of_ns)
        longest = max(text.split(), key=len, default="")
        if len(longest) < 3:  # trigram tokens: shorter strings cannot be looked up
            source, source_args = "events v WHERE", []
        else:
            source = ("events_fts CROSS JOIN search_docs d ON d.doc = events_fts.rowid AND d.kind = 'event' "
                      "CROSS JOIN events v ON v.id = d.ref WHERE events_fts MATCH ? AND")
            source_args = [_fts_phrase(longest)]
        return self.store.db.execute(
            f"SELECT v.data FROM {source} json_extract(v.data, '$.text') = ? AND {where} "
            "ORDER BY v.stamp_ns DESC, v.rowid DESC LIMIT ?", [*source_args, text, *args, limit]).fetchall()

    def _entity_phrase_keys(self, view: _EntityView, room: str | None, entity_id: str | None) -> list[tuple[str, str]]:
        """The distinct (label, name) of the candidate entities. Now: the entity_phrases table (schema
        migration 5), less the phrases no present entity (of the room) has, each checked through the
        label indexes, so this costs the number of distinct phrases, not of entities. As of a time, or
        for one entity: from the candidates themselves."""
        where, args = self._entity_filters(room, entity_id)
        if view is _CURRENT and not entity_id:
            q = (f"SELECT p.label, p.name FROM entity_phrases p WHERE EXISTS (SELECT 1 FROM entities e WHERE "
                 f"e.label = p.label AND {where} AND coalesce({_NAME_SQL}, '') = p.name)")
        else:
            q = f"SELECT DISTINCT e.label, coalesce({_NAME_SQL}, '') FROM {view.table} e WHERE {where}"
        return [(label, name) for label, name in self.store.db.execute(q, args)]

    def _entity_phrase(self, label: str, name: str) -> str:
        """What an entity is, in words the model knows: compound labels split ("wine glass"), and its
        name; rooms are their name ("bedroom")."""
        # a phrase says what a thing is in a few words; a long stored name (from before the input limits)
        # is compared by its start, so its cost and its cache entry stay bounded
        label, name = label[:PHRASE_CHARS], name[:PHRASE_CHARS]
        key = (label, name)
        phrase = self._phrases.get(key)
        if phrase is None:
            split = getattr(self.embedder, "split_compound", None)
            label_words = split(label) if split else label
            if label == ROOM_LABEL and name:
                phrase = name
            elif name and normalize_label(name) != label:
                phrase = f"{label_words} {name}"
            else:
                phrase = label_words
            self._phrases[key] = phrase
        return phrase

    def _embed(self, query: str, texts: list[str]) -> np.ndarray | None:
        """Unit vectors for the query (row 0) and the texts: from memory, else the embedding_cache table,
        else the model. Candidates' vectors are cached in the table; the query's stay in memory only (a
        request is not memory). None when the model cannot run."""
        try:
            model = self.embedder.model_name
            missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
            if missing:
                self._vectors.update(self._cached(model, missing))
                missing = [t for t in missing if t not in self._vectors]
            query_vec: np.ndarray | None = self._queries.get(query)
            batch = missing + ([query] if query_vec is None else [])
            if batch:
                new = self.embedder.encode(batch)
                if query_vec is None:
                    query_vec = new[-1]
                    if len(self._queries) >= _QUERY_CACHE_MAX:
                        self._queries.clear()
                    self._queries[query] = query_vec
                if missing:
                    self._remember(model, dict(zip(missing, new[:len(missing)])))
        except Exception as e:  # the model is optional: a missing or broken one costs the stage, not the query
            if not self._warned:
                log.warning("semantic retrieval disabled: %s", e)
                self._warned = True
            return None
        assert query_vec is not None
        return np.stack([query_vec, *(self._vectors[t] for t in texts)]).astype(np.float32, copy=False)

    def _cached(self, model: str, texts: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for t, dim, blob in self.store.storage.cached_vectors(model, texts):
            vec = np.frombuffer(blob, dtype=np.float32)
            if vec.shape == (dim,):
                out[t] = vec
        return out

    def _remember(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        if len(self._vectors) + len(vectors) > _MEMORY_CACHE_MAX:
            self._vectors.clear()
        self._vectors.update({t: np.asarray(v, dtype=np.float32) for t, v in vectors.items()})
        if self.store.read_only:  # a reader's vectors stay in memory; the writer caches its own
            return
        try:
            with self.store.transaction() as storage:
                storage.cache_vectors(model, [(t, v.shape[0], np.asarray(v, dtype=np.float32).tobytes())
                                              for t, v in vectors.items()])
        except storage_errors() as e:  # e.g. another process holds the write lock: keep them in memory only
            log.debug("embedding cache not written: %s", e)

    # ---- merge ----------------------------------------------------------------------------------

    @staticmethod
    def _ranked(hits: dict[tuple[str, str], _Hit], limit: int) -> list[MemoryRecord]:
        return [h.record for h in sorted(hits.values(), key=_Hit.key)[:limit]]


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


def _fts_phrase(text: str) -> str:
    """A string as one FTS5 phrase (trigram tokens: it matches where the string occurs)."""
    return '"' + text.replace('"', '""') + '"'


def _fts_blind(term: str) -> bool:
    """Whether an entity may contain the word where its FTS document does not (see ``_FTS_BLIND``)."""
    return re.search("[a-z]", term) is None or term in _FTS_BLIND


def _lexical_scores(rows: list[Sequence]) -> list[tuple[str, float]]:
    """BM25 (negative, lower is better) to [LEXICAL_MIN, LEXICAL_MAX] relative to the best row."""
    if not rows:
        return []
    best = min(r[1] for r in rows)
    out = []
    for data, r in rows:
        rel = r / best if best < 0 else 1.0
        out.append((data, round(LEXICAL_MIN + (LEXICAL_MAX - LEXICAL_MIN) * max(0.0, min(1.0, rel)), 6)))
    return out


_RETRIEVERS: weakref.WeakKeyDictionary[MemoryStore, Retriever] = weakref.WeakKeyDictionary()
_RETRIEVERS_LOCK = threading.Lock()


def retriever_for(store: MemoryStore) -> Retriever:
    """The store's retriever (one per store, so its embedding cache lives as long as the store)."""
    with _RETRIEVERS_LOCK:
        r = _RETRIEVERS.get(store)
        if r is None:
            r = _RETRIEVERS[store] = Retriever(store)
        return r
