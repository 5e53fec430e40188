"""Retrieval's queries on PostgreSQL (the same operations as sqlite_search.py): substring matching through
pg_trgm indexes on each entity's document (``entity_doc``, the words of SQLite's FTS documents) and each
event's text. A lexical row's score is negative, lower is better, as SQLite's BM25: minus the number of the
request's terms the record contains, label and name counting extra (as FTS5's column weights do)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .records import marks
from .search_common import EventSearch, entity_filters, event_filters

_NAME = "coalesce(e.data::jsonb->>'name', '')"
_LABEL_NAME_WEIGHT = 4  # a term in the label or name counts this much more than one elsewhere


def _like(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _normalized(name: str) -> str:
    return f"lower(replace(replace(replace({name}, ' ', ''), '_', ''), '-', ''))"


@dataclass(frozen=True)
class EntityView:
    """Where candidate entities come from: the entities table (its documents kept in entity_docs), or the
    versions valid at a time (documents computed as they are read)."""

    source: str
    args: tuple = field(default_factory=tuple)
    doc: str = "entity_doc(e.data::jsonb)"
    join: str = ""


CURRENT = EntityView("entities", doc="d.doc", join="JOIN entity_docs d ON d.id = e.id")




def _term_score(terms: Sequence[str], doc: str, strong: str) -> tuple[str, list]:
    """SQL for minus how many terms ``doc`` contains (those in ``strong`` counting extra), and its args."""
    parts, args = [], []
    for t in terms:
        parts.append(f"({doc} LIKE ?)::int + {_LABEL_NAME_WEIGHT} * ({strong} LIKE ?)::int")
        args += [_like(t), _like(t)]
    return "-(" + " + ".join(parts) + ")", args


class PostgresSearch(EventSearch):
    """Mixed into ``PostgresStorage``."""

    execute: Any

    def _from(self, view: EntityView) -> tuple[str, list]:
        return (view.source if view is CURRENT else f"({view.source})"), list(view.args)

    def _with_doc(self, view: EntityView) -> tuple[str, list]:
        """The source as ``e`` joined to its documents (``view.doc``)."""
        src, sargs = self._from(view)
        return f"{src} e {view.join}", sargs

    # ---- entities -------------------------------------------------------------------------------

    def entity_view(self, as_of_ns: int | None, entity_id: str | None, lexical: bool) -> EntityView:
        if as_of_ns is None:
            return CURRENT
        q = ("SELECT v.entity_id AS id, v.data::jsonb->>'label' AS label, v.data::jsonb->>'room' AS room, "
             "CASE WHEN (v.data::jsonb->>'present')::boolean THEN 1 ELSE 0 END AS present, "
             "(v.data::jsonb->>'last_seen_ns')::bigint AS last_seen_ns, v.data FROM entity_versions v "
             "WHERE v.valid_from_ns <= ? AND (v.valid_to_ns IS NULL OR v.valid_to_ns > ?)")
        args: list = [as_of_ns, as_of_ns]
        if entity_id:
            q += " AND v.entity_id = ?"
            args.append(entity_id)
        return EntityView(q, tuple(args))

    def entities_newest(self, view: EntityView, room: str | None, entity_id: str | None, limit: int) -> list[str]:
        src, sargs = self._from(view)
        where, args = entity_filters(room, entity_id)
        return [r[0] for r in self.execute(f"SELECT e.data FROM {src} e WHERE {where} "
                                           "ORDER BY e.last_seen_ns DESC, e.id LIMIT ?", [*sargs, *args, limit])]

    def entities_with_ids(self, view: EntityView, ids: Sequence[str], room: str | None,
                          entity_id: str | None) -> list[str]:
        src, sargs = self._from(view)
        where, args = entity_filters(room, entity_id)
        return [r[0] for r in self.execute(f"SELECT e.data FROM {src} e WHERE {where} AND e.id IN ({marks(ids)})",
                                           [*sargs, *args, *ids])]

    def _named_phrases_sql(self, view: EntityView, room: str | None, entity_id: str | None,
                           labels: Sequence[str]) -> tuple[str, list]:
        """SQL for the distinct (label, name) of the candidates whose name, normalised as labels are, is one of
        ``labels``, and its args."""
        where, args = entity_filters(room, entity_id)
        if view is CURRENT:  # through the index of the names (schema migration 3)
            return (f"SELECT DISTINCT e.label, d.name FROM entity_docs d JOIN entities e ON e.id = d.id WHERE {where} "
                    f"AND d.name != '' AND d.name_key IN ({marks(labels)})", [*args, *labels])
        src, sargs = self._from(view)
        return (f"SELECT DISTINCT e.label, {_NAME} FROM {src} e WHERE {where} AND {_NAME} != '' "
                f"AND {_normalized(_NAME)} IN ({marks(labels)})", [*sargs, *args, *labels])

    def named_phrases(self, view: EntityView, room: str | None, entity_id: str | None,
                      labels: Sequence[str]) -> list[tuple[str, str]]:
        sql, args = self._named_phrases_sql(view, room, entity_id, labels)
        return [(label, name) for label, name in self.execute(sql, args)]

    def exact_group(self, view: EntityView, room: str | None, entity_id: str | None, label: str, name: str | None,
                    terms: Sequence[str], limit: int) -> list[tuple[str, str]]:
        """(id, JSON) of a label's (and name's) newest ``limit`` entities, and its best ``limit`` by how many
        of the text's other words they contain (then newest)."""
        return list(self.exact_groups(view, room, entity_id, [(label, name)], terms, limit).items())

    def exact_groups(self, view: EntityView, room: str | None, entity_id: str | None,
                     groups: Sequence[tuple[str, str | None]], terms: Sequence[str], limit: int) -> dict[str, str]:
        """id -> JSON of each group's ``exact_group``, in the order of the groups."""
        if not groups:
            return {}
        listed = ",".join(["(?::int, ?::text, ?::text)"] * len(groups))
        return self._ranked_groups(view, room, entity_id, f"VALUES {listed}",
                                   [v for i, (label, name) in enumerate(groups) for v in (i, label, name)], groups,
                                   terms, limit)

    def exact_stage(self, view: EntityView, room: str | None, entity_id: str | None, labels: Sequence[str],
                    terms: Sequence[str], limit: int) -> dict[str, str]:
        """``exact_groups`` of each label, then of each (label, name) whose name is one of the labels (in
        order of label and name), in one query: the names, the newest of every group and the best of each
        label's group by the text's other words. A search's exact stage was a round trip for the names, one
        for each of up to seven label candidates and one for each full group, each waiting on the server
        while robots wrote: most of a search's time in the 99th percentile (bench/fleet_bench.py)."""
        named, named_args = self._named_phrases_sql(view, room, entity_id, labels)
        listed = ",".join(["(?::int, ?::text, NULL::text)"] * len(labels))
        groups = (f"SELECT * FROM (VALUES {listed}) AS labels UNION ALL SELECT (? + row_number() OVER "
                  f"(ORDER BY p.label, p.name))::int, p.label, p.name FROM ({named}) AS p(label, name)")
        return self._ranked_groups(view, room, entity_id, groups,
                                   [*(v for i, label in enumerate(labels) for v in (i, label)), len(labels) - 1,
                                    *named_args], [(label, None) for label in labels], terms, limit)

    def _scored_sql(self, view: EntityView, room: str | None, entity_id: str | None, label: str, name: str | None,
                    other: Sequence[str]) -> tuple[str, list]:
        """SQL for a group's members as (id, JSON, score, last seen) best first by the words ``other``, and
        its args (LIMIT is the caller's)."""
        where, args = entity_filters(room, entity_id)
        where, args = f"{where} AND e.label = ?", [*args, label]
        if name is not None:
            where += f" AND {_NAME} = ?"
            args.append(name)
        src, sargs = self._with_doc(view)
        score, score_args = _term_score(other, view.doc, view.doc)
        return (f"SELECT e.id, e.data, {score} AS s, e.last_seen_ns FROM {src} WHERE {where} "
                "ORDER BY s, e.last_seen_ns DESC, e.id", [*score_args, *sargs, *args])

    def _ranked_groups(self, view: EntityView, room: str | None, entity_id: str | None, groups: str,
                       group_args: list, known: Sequence[tuple[str, str | None]], terms: Sequence[str],
                       limit: int) -> dict[str, str]:
        """id -> JSON of the groups that the SQL ``groups`` lists as (ordinal, label, name or NULL): the newest
        ``limit`` of each and, where a group is full, its best ``limit`` by the text's other words (the words
        its label and name do not hold). The first groups are ``known`` here: their best come in the same
        query (read whether full or not: a group that is not full holds no others); a later one's (a name
        found in the query) in one of their own."""
        src, sargs = self._from(view)
        where, args = entity_filters(room, entity_id)

        def other_words(label: str, name: str | None) -> list[str]:
            shared = label if name is None else f"{label} {name.lower()}"
            return [t for t in terms if t not in shared]

        parts = [f"SELECT g.ordinal, 0 AS part, g.label, g.name, x.id, x.data, 0 AS s, x.last_seen_ns "
                 f"FROM ({groups}) AS g(ordinal, label, name) CROSS JOIN LATERAL "
                 f"(SELECT e.id, e.data, e.last_seen_ns FROM {src} e WHERE {where} AND e.label = g.label AND "
                 f"(g.name IS NULL OR {_NAME} = g.name) ORDER BY e.last_seen_ns DESC, e.id LIMIT ?) x"]
        part_args = [*group_args, *sargs, *args, limit]
        for ordinal, (label, name) in enumerate(known):
            other = other_words(label, name)
            if other:
                scored, scored_args = self._scored_sql(view, room, entity_id, label, name, other)
                parts.append(f"SELECT ?::int, 1, ?::text, ?::text, b.id, b.data, b.s, b.last_seen_ns "
                             f"FROM ({scored} LIMIT ?) b")
                part_args += [ordinal, label, name, *scored_args, limit]
        newest: dict[int, tuple[str, str | None, list, list]] = {}
        for ordinal, part, label, name, ent_id, data, _, _ in self.execute(
                " UNION ALL ".join(f"({p})" for p in parts) + " ORDER BY 1, 2, 7, 8 DESC, 5", part_args):
            newest.setdefault(ordinal, (label, name, [], []))[2 + part].append((ent_id, data))
        rows: dict[str, str] = {}
        for ordinal, (label, name, group, best) in newest.items():
            rows.update(group)
            other = other_words(label, name)
            if len(group) < limit or not other:
                continue
            if ordinal < len(known):
                rows.update(best)
                continue
            scored, scored_args = self._scored_sql(view, room, entity_id, label, name, other)
            rows.update((i, d) for i, d, _, _ in self.execute(f"{scored} LIMIT ?", [*scored_args, limit]))
        return rows

    def entities_lexical(self, view: EntityView, terms: Sequence[str], room: str | None, entity_id: str | None,
                         limit: int) -> list[tuple[str, float]]:
        src, sargs = self._with_doc(view)
        where, args = entity_filters(room, entity_id)
        any_term = " OR ".join([f"{view.doc} LIKE ?"] * len(terms))
        score, score_args = _term_score(terms, view.doc, f"lower(e.label || ' ' || {_NAME})")
        return [(d, float(r)) for d, r in self.execute(
            f"SELECT e.data, {score} AS r FROM {src} WHERE {where} AND ({any_term}) "
            "ORDER BY r, e.last_seen_ns DESC, e.id LIMIT ?",
            [*score_args, *sargs, *args, *[_like(t) for t in terms], limit])]

    def entities_of_phrase(self, view: EntityView, room: str | None, entity_id: str | None, label: str, name: str,
                           limit: int) -> list[str]:
        src, sargs = self._from(view)
        where, args = entity_filters(room, entity_id)
        return [r[0] for r in self.execute(
            f"SELECT e.data FROM {src} e WHERE {where} AND e.label = ? AND {_NAME} = ? "
            "ORDER BY e.last_seen_ns DESC, e.id LIMIT ?", [*sargs, *args, label, name, limit])]

    def entity_phrase_keys(self, view: EntityView, room: str | None, entity_id: str | None) -> list[tuple[str, str]]:
        src, sargs = self._from(view)
        where, args = entity_filters(room, entity_id)
        return [(label, name) for label, name in self.execute(
            f"SELECT DISTINCT e.label, {_NAME} FROM {src} e WHERE {where}", [*sargs, *args])]

    # ---- events ---------------------------------------------------------------------------------

    def events_lexical(self, terms: Sequence[str], room: str | None, entity_id: str | None, as_of_ns: int | None,
                       limit: int) -> list[tuple[str, float]]:
        where, args = event_filters(room, entity_id, as_of_ns)
        text = "lower(v.data::jsonb->>'text')"
        any_term = " OR ".join([f"{text} LIKE ?"] * len(terms))
        score_parts = " + ".join([f"({text} LIKE ?)::int"] * len(terms))
        likes = [_like(t) for t in terms]
        return [(d, float(r)) for d, r in self.execute(
            f"SELECT v.data, -({score_parts}) AS r FROM events v WHERE ({any_term}) AND {where} "
            "ORDER BY r, v.stamp_ns DESC LIMIT ?", [*likes, *likes, *args, limit])]

    def event_texts(self, room: str | None, entity_id: str | None, as_of_ns: int | None, limit: int) -> list[str]:
        where, args = event_filters(room, entity_id, as_of_ns)
        return [r[0] for r in self.execute(f"SELECT v.data::jsonb->>'text' FROM events v WHERE {where} "
                                           "ORDER BY v.stamp_ns DESC LIMIT ?", [*args, limit])]

    def events_with_text(self, text: str, room: str | None, entity_id: str | None, as_of_ns: int | None,
                         limit: int) -> list[str]:
        where, args = event_filters(room, entity_id, as_of_ns)
        return [r[0] for r in self.execute(
            f"SELECT v.data FROM events v WHERE v.data::jsonb->>'text' = ? AND {where} "
            "ORDER BY v.stamp_ns DESC, v.rowid DESC LIMIT ?", [text, *args, limit])]
