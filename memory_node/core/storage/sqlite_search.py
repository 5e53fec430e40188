"""Retrieval's queries on SQLite (core/retrieval.py runs the stages): FTS5 (trigram tokens, BM25) over the
entity and event documents that the triggers of schema migration 2 keep, the distinct phrases of migration
5, and for as-of queries a temporary copy of the versions valid then with its own FTS index.

A ``view`` names where the candidate entities live (``CURRENT`` or ``AS_OF``); rows come back as stored
JSON, lexical rows with their BM25 score (negative, lower is better)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .documents import entity_words, fts_blind, words_matched
from .records import marks
from .search_common import EventSearch, GroupSearch, entity_filters, event_filters

# What an entity's search document holds: the same expressions as the entities_fts triggers of schema
# migration 2 (``test_retrieval`` checks they agree), used to index past states for as-of queries.
ENTITY_DOC_SQL = """json_extract({d}, '$.label'), json_extract({d}, '$.name'), json_extract({d}, '$.id'),
    (SELECT group_concat(CASE WHEN a.value IN ('true', 'yes') OR a.value NOT GLOB '*[A-Za-z]*' THEN a.key
            ELSE a.key || ' ' || a.value END, ' ')
     FROM json_each({d}, '$.attributes') a),
    (SELECT group_concat(s.value, ' ') FROM json_each({d}, '$.states') s),
    json_extract({d}, '$.room'),
    CASE WHEN json_extract({d}, '$.location') IS NULL THEN '' ELSE
        json_extract({d}, '$.location.predicate') || ' ' || json_extract({d}, '$.location.object') END"""
_ENTITY_FTS_COLUMNS = "label, name, id, attributes, states, room, location"
# BM25 column weights of entities_fts: label, name, id, attributes, states, room, location
ENTITY_FTS_WEIGHTS = (10.0, 8.0, 2.0, 3.0, 3.0, 1.0, 1.0)
_NAME_SQL = "json_extract(e.data, '$.name')"
# how many of a label's newest entities (x limit) the exact stage reads looking for the text's other words
_WALK = 16


def _normalized_name_sql(name: str) -> str:
    """SQL for a name normalised as labels are (what the exact stage compares with label candidates)."""
    return f"lower(replace(replace(replace(coalesce({name}, ''), ' ', ''), '_', ''), '-', ''))"


def fts_phrase(text: str) -> str:
    """A string as one FTS5 phrase (trigram tokens: it matches where the string occurs)."""
    return '"' + text.replace('"', '""') + '"'


def fts_match(terms: Sequence[str]) -> str | None:
    """An FTS5 query matching any of the terms (BM25 ranks records matching more of them higher)."""
    return " OR ".join(f'"{t}"' for t in terms) or None


@dataclass(frozen=True)
class EntityView:
    """Where the candidate entities live: the ``entities`` table (now) or a per-query temporary copy of
    the versions valid at an as-of time, each with its FTS index."""

    table: str
    fts: str
    join: str  # joins entities (as ``e``) to FTS documents whose rowid is ``{doc}``, documents first
    docs: str  # the FTS rowids of the entities (as ``e``) that satisfy ``{where}``

    def fts_join(self, doc: str) -> str:
        return self.join.format(doc=doc)


CURRENT = EntityView(
    table="entities", fts="entities_fts",
    # CROSS JOIN keeps this order: else SQLite may walk a label's entities (in the order of the query)
    # and look each up among the documents
    join="CROSS JOIN search_docs d ON d.doc = {doc} AND d.kind = 'entity' CROSS JOIN entities e ON e.id = d.ref",
    # from the entities (room or id index) to their documents, never the other way round
    docs="SELECT d.doc FROM entities e CROSS JOIN search_docs d ON d.kind = 'entity' AND d.ref = e.id "
         "WHERE {where}")
AS_OF = EntityView(
    table="temp.retrieval_asof", fts="retrieval_asof_fts",
    join="CROSS JOIN temp.retrieval_asof e ON e.doc = {doc}",
    docs="SELECT e.doc FROM temp.retrieval_asof e WHERE {where}")




class SqliteSearch(GroupSearch, EventSearch):
    """Mixed into ``SqliteStorage``. The caller (one Retriever per store) serialises calls."""

    execute: Any
    _db: Any
    # the as-of copy in temporary tables: ((as_of_ns, entity_id), memory's change counters, indexed)
    _as_of: tuple[tuple[int, str | None], tuple[int, int], bool] | None = None

    # ---- entities -------------------------------------------------------------------------------

    def entity_view(self, as_of_ns: int | None, entity_id: str | None, lexical: bool) -> EntityView:
        """The candidate entities: the live table, or for an as-of query the versions valid then (the
        ones ``store.entities(as_of_ns=...)`` returns), copied into temporary tables with their own FTS
        index so that nothing a later message wrote can match. The copy is kept until memory changes,
        so follow-up questions about the same moment cost no rebuild."""
        if as_of_ns is None:
            return CURRENT
        db = self._db
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
                       f"SELECT e.doc, {ENTITY_DOC_SQL.format(d='e.data')} FROM temp.retrieval_asof e "
                       "WHERE e.present = 1")
            self._as_of = (self._as_of[0], (db.total_changes, self._as_of[1][1]), True)
        return AS_OF

    def entities_newest(self, view: EntityView, room: str | None, entity_id: str | None, limit: int) -> list[str]:
        where, args = entity_filters(room, entity_id)
        return [r[0] for r in self.execute(f"SELECT e.data FROM {view.table} e WHERE {where} "
                                           "ORDER BY e.last_seen_ns DESC, e.id LIMIT ?", [*args, limit])]

    def entities_with_ids(self, view: EntityView, ids: Sequence[str], room: str | None,
                          entity_id: str | None) -> list[str]:
        where, args = entity_filters(room, entity_id)
        return [r[0] for r in self.execute(f"SELECT e.data FROM {view.table} e WHERE {where} AND e.id IN ({marks(ids)})",
                                           [*args, *ids])]

    def named_phrases(self, view: EntityView, room: str | None, entity_id: str | None,
                      labels: Sequence[str]) -> list[tuple[str, str]]:
        """(label, name) of the entities whose name, normalised as labels are, is one of ``labels``: from
        the distinct phrases (schema migration 5) now, from the temporary copy as of a time."""
        if view is CURRENT:  # phrases of entities no longer present find nothing in exact_group
            q = (f"SELECT p.label, p.name FROM entity_phrases p WHERE p.name != '' "
                 f"AND {_normalized_name_sql('p.name')} IN ({marks(labels)})")
            return [(label, name) for label, name in self.execute(q, labels)]
        where, args = entity_filters(room, entity_id)
        q = (f"SELECT DISTINCT e.label, {_NAME_SQL} FROM {view.table} e WHERE {where} AND {_NAME_SQL} != '' "
             f"AND {_normalized_name_sql(_NAME_SQL)} IN ({marks(labels)})")
        return [(label, name) for label, name in self.execute(q, [*args, *labels])]

    def exact_group(self, view: EntityView, room: str | None, entity_id: str | None, label: str, name: str | None,
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
        db = self._db
        where, args = entity_filters(room, entity_id)
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
        indexed = view is CURRENT or (self._as_of is not None and self._as_of[2])
        if not indexed or any(fts_blind(t) for t in other):  # rare: rank the whole group here
            return db.execute(f"SELECT e.id, e.data FROM {view.table} e WHERE {where}", args).fetchall()
        # the FTS query restricted to the group's label (and name); trigrams cannot match under 3 characters
        within = [f"{column} : {fts_phrase(value)}" for column, value in (("label", label), ("name", name or ""))
                  if len(value) >= 3]
        fts = view.fts
        if len(other) > 1:  # a word no member contains counts for none ("the big red mug" when none is big)
            other = [t for t in other if db.execute(f"SELECT 1 FROM {fts} WHERE {fts} MATCH ? LIMIT 1",
                                                    [" AND ".join([*within, fts_phrase(t)])]).fetchone()]
            if not other:
                return rows
        match = " AND ".join([*within, "(" + " OR ".join(fts_phrase(t) for t in other) + ")"])
        walk = _WALK * limit
        docs = [doc for (doc,) in db.execute(f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? LIMIT ?", [match, walk + 1])]
        if len(docs) > walk:  # many: the newest containing every word are likely among the group's newest
            found = []
            newest = db.execute(f"SELECT e.id, e.data FROM {view.table} e WHERE {where} ORDER BY {order} LIMIT ?",
                                [*args, walk])
            try:
                for row in newest:
                    if words_matched(other, entity_words(json.loads(row[1]))) == len(other):
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
            counts = [" AND ".join([*within, fts_phrase(t)]) for t in other]
        rows += db.execute(
            f"SELECT e.id, e.data FROM {view.table} e WHERE e.rowid IN (SELECT e.rowid FROM ({source}) m "
            f"{view.fts_join('m.doc')} WHERE {where} ORDER BY {order} LIMIT ?)",
            [*source_args, *args, *counts, limit]).fetchall()
        return rows

    def entities_lexical(self, view: EntityView, terms: Sequence[str], room: str | None, entity_id: str | None,
                         limit: int) -> list[tuple[str, float]]:
        """(JSON, BM25) of the best entities. The FTS table ranks its documents alone and only the best
        ``limit`` are joined to their entities (for a common word the join cost more than the ranking); a
        room or entity constraint first narrows the ranked documents to that room's or entity's."""
        match = fts_match(terms)
        if match is None:
            return []
        where, args = entity_filters(room, entity_id)
        weights = ", ".join(str(w) for w in ENTITY_FTS_WEIGHTS)
        rank = f"SELECT rowid AS doc, bm25({view.fts}, {weights}) AS r FROM {view.fts} WHERE {view.fts} MATCH ?"
        rank_args: list = [match]
        if room or entity_id:
            # a unary + keeps SQLite from running the MATCH once per document of a room
            rank += f" AND {'rowid' if entity_id else '+rowid'} IN ({view.docs.format(where=where)})"
            rank_args += args
        q = (f"SELECT e.data, m.r FROM ({rank} ORDER BY r LIMIT ?) m {view.fts_join('m.doc')} "
             f"WHERE {where} ORDER BY m.r LIMIT ?")
        rows = self.execute(q, [*rank_args, limit, *args, limit]).fetchall()
        if len(rows) < limit and not (room or entity_id):  # some of the best are absent: rank them all
            rows = self.execute(q, [*rank_args, -1, *args, limit]).fetchall()
        return rows

    def entities_of_phrase(self, view: EntityView, room: str | None, entity_id: str | None, label: str, name: str,
                           limit: int) -> list[str]:
        where, args = entity_filters(room, entity_id)
        return [r[0] for r in self.execute(
            f"SELECT e.data FROM {view.table} e WHERE {where} AND e.label = ? AND coalesce({_NAME_SQL}, '') = ? "
            "ORDER BY e.last_seen_ns DESC, e.id LIMIT ?", [*args, label, name, limit])]

    def entity_phrase_keys(self, view: EntityView, room: str | None, entity_id: str | None) -> list[tuple[str, str]]:
        """The distinct (label, name) of the candidate entities. Now: the entity_phrases table (schema
        migration 5), less the phrases no present entity (of the room) has, each checked through the
        label indexes, so this costs the number of distinct phrases, not of entities. As of a time, or
        for one entity: from the candidates themselves."""
        where, args = entity_filters(room, entity_id)
        if view is CURRENT and not entity_id:
            q = (f"SELECT p.label, p.name FROM entity_phrases p WHERE EXISTS (SELECT 1 FROM entities e WHERE "
                 f"e.label = p.label AND {where} AND coalesce({_NAME_SQL}, '') = p.name)")
        else:
            q = f"SELECT DISTINCT e.label, coalesce({_NAME_SQL}, '') FROM {view.table} e WHERE {where}"
        return [(label, name) for label, name in self.execute(q, args)]

    # ---- events ---------------------------------------------------------------------------------

    def events_lexical(self, terms: Sequence[str], room: str | None, entity_id: str | None, as_of_ns: int | None,
                       limit: int) -> list[tuple[str, float]]:
        match = fts_match(terms)
        if match is None:
            return []
        where, args = event_filters(room, entity_id, as_of_ns)
        if args:  # constrained: rank the matching events that satisfy the constraints
            return self.execute(
                "SELECT v.data, bm25(events_fts) AS r FROM events_fts "
                "JOIN search_docs d ON d.doc = events_fts.rowid AND d.kind = 'event' JOIN events v ON v.id = d.ref "
                f"WHERE events_fts MATCH ? AND {where} ORDER BY r, v.stamp_ns DESC LIMIT ?",
                [match, *args, limit]).fetchall()
        # only the best documents are joined to their events (ties at the cut: the later written)
        return self.execute(
            "SELECT v.data, m.r FROM (SELECT rowid AS doc, bm25(events_fts) AS r FROM events_fts "
            "WHERE events_fts MATCH ? ORDER BY r, doc DESC LIMIT ?) m "
            "CROSS JOIN search_docs d ON d.doc = m.doc AND d.kind = 'event' CROSS JOIN events v ON v.id = d.ref "
            "ORDER BY m.r, v.stamp_ns DESC", [match, limit]).fetchall()

    def event_texts(self, room: str | None, entity_id: str | None, as_of_ns: int | None, limit: int) -> list[str]:
        """Texts of the newest events."""
        where, args = event_filters(room, entity_id, as_of_ns)
        return [r[0] for r in self.execute(f"SELECT json_extract(v.data, '$.text') FROM events v WHERE {where} "
                                           "ORDER BY v.stamp_ns DESC LIMIT ?", [*args, limit])]

    def events_with_text(self, text: str, room: str | None, entity_id: str | None, as_of_ns: int | None,
                         limit: int) -> list[str]:
        """JSON of the newest events whose text is ``text``, found through the FTS index by the text's
        longest word (each event's text is indexed whole) rather than by reading every event."""
        where, args = event_filters(room, entity_id, as_of_ns)
        longest = max(text.split(), key=len, default="")
        if len(longest) < 3:  # trigram tokens: shorter strings cannot be looked up
            source, source_args = "events v WHERE", []
        else:
            source = ("events_fts CROSS JOIN search_docs d ON d.doc = events_fts.rowid AND d.kind = 'event' "
                      "CROSS JOIN events v ON v.id = d.ref WHERE events_fts MATCH ? AND")
            source_args = [fts_phrase(longest)]
        return [r[0] for r in self.execute(
            f"SELECT v.data FROM {source} json_extract(v.data, '$.text') = ? AND {where} "
            "ORDER BY v.stamp_ns DESC, v.rowid DESC LIMIT ?", [*source_args, text, *args, limit])]
