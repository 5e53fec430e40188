"""What memory learns from events as named operations (facts and rules from utterances, core/rules.py;
consolidated knowledge, core/consolidation.py; the embedding cache, core/retrieval.py), in SQL that SQLite
and PostgreSQL both run (see records.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .records import marks

FACT_COLUMNS = ("id", "kind", "subject", "subject_key", "predicate", "target", "target_id", "negated", "owner",
                "speaker", "correction", "stamp_ns", "event_id", "valid_from_ns", "valid_to_ns")
RULE_COLUMNS = ("id", "category", "predicate", "receptacle", "receptacle_id", "support_event_ids",
                "support_fact_ids", "confidence", "valid_from_ns", "valid_to_ns", "superseded_by")
_FACTS = ", ".join(FACT_COLUMNS)
_RULES = ", ".join(RULE_COLUMNS)


def _as_of(as_of_ns: int | None, history: bool) -> tuple[str, list]:
    """The validity clause: holding now or at ``as_of_ns``; with ``history`` every version begun by then."""
    if as_of_ns is None:
        return ("" if history else " AND valid_to_ns IS NULL"), []
    if history:
        return " AND valid_from_ns<=?", [as_of_ns]
    return " AND valid_from_ns<=? AND (valid_to_ns IS NULL OR valid_to_ns>?)", [as_of_ns, as_of_ns]


class LearnedRecords:
    """Mixed into a ``Storage``: ``execute``/``executemany``/``total`` come from the backend."""

    execute: Any
    executemany: Any
    total: Any

    # ---- facts ---------------------------------------------------------------------------------

    def insert_fact(self, row: Sequence) -> None:
        """``row``: the FACT_COLUMNS values with ``target_key`` after ``target``."""
        self.execute("INSERT INTO facts(id, kind, subject, subject_key, predicate, target, target_key, target_id, "
                     "negated, owner, speaker, correction, stamp_ns, event_id, valid_from_ns, valid_to_ns) "
                     "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", row)

    def insert_fact_categories(self, fact_id: str, chain: Sequence[str]) -> None:
        self.executemany("INSERT INTO fact_categories(fact_id, category, level) VALUES(?,?,?)",
                         [(fact_id, c, level) for level, c in enumerate(chain)])

    def current_facts_replaced(self, kind: str, subject_key: str, owner: str, target: str, target_key: str,
                               negated: bool) -> list[tuple[int, int]]:
        """(rowid, valid_from_ns) of the current facts a new one would replace."""
        if kind == "placement":
            return self.execute(
                "SELECT rowid, valid_from_ns FROM facts WHERE kind='placement' AND subject_key=? AND "
                "valid_to_ns IS NULL AND (target_key=? OR (?=0 AND negated=0))",
                (subject_key, target_key, int(negated))).fetchall()
        return self.execute(
            "SELECT rowid, valid_from_ns FROM facts WHERE kind=? AND subject_key=? AND owner=? AND "
            "valid_to_ns IS NULL AND (target=? OR (?=0 AND negated=0))",
            (kind, subject_key, owner, target, int(negated))).fetchall()

    def end_fact(self, rowid: int, valid_to_ns: int) -> None:
        self.execute("UPDATE facts SET valid_to_ns=? WHERE rowid=?", (valid_to_ns, rowid))
        # fact_categories indexes current facts only, so a rule update costs what is current, not all
        # that was ever said (otherwise every correction rescans the whole history of its category)
        self.execute("DELETE FROM fact_categories WHERE fact_id=(SELECT id FROM facts WHERE rowid=?)", (rowid,))

    def fact_categories(self, fact_id: str) -> list[tuple[str, int]]:
        return self.execute("SELECT category, level FROM fact_categories WHERE fact_id=?", (fact_id,)).fetchall()

    def current_placements_of_category(self, category: str) -> list[tuple]:
        cols = ", ".join("f." + c for c in FACT_COLUMNS)
        return self.execute(
            f"SELECT {cols} FROM fact_categories fc JOIN facts f ON f.id = fc.fact_id WHERE fc.category=? AND "
            "f.kind='placement' AND f.valid_to_ns IS NULL ORDER BY f.valid_from_ns, f.rowid", (category,)).fetchall()

    def placements_of_category(self, category: str, as_of_ns: int | None) -> list[tuple]:
        """Positive placement facts of a category holding now (or at ``as_of_ns``), newest first."""
        cols = ", ".join("f." + c for c in FACT_COLUMNS)
        clause, extra = _as_of(as_of_ns, False)
        return self.execute(
            f"SELECT {cols} FROM fact_categories fc JOIN facts f ON f.id = fc.fact_id WHERE fc.category=? AND "
            "f.kind='placement' AND f.negated=0" + clause + " ORDER BY f.valid_from_ns DESC, f.rowid DESC",
            (category, *extra)).fetchall()

    def fact_rows(self, kind: str | None, subject_key: str | None, owner: str | None, as_of_ns: int | None,
                  history: bool) -> list[tuple]:
        q, args = f"SELECT {_FACTS} FROM facts WHERE 1=1", []
        for column, value in (("kind", kind), ("subject_key", subject_key)):
            if value:
                q += f" AND {column}=?"
                args.append(value)
        if owner is not None:
            q += " AND owner=?"
            args.append(owner)
        clause, extra = _as_of(as_of_ns, history)
        return self.execute(q + clause + " ORDER BY valid_from_ns DESC, rowid DESC", args + extra).fetchall()

    def denied_targets(self, subject_keys: Sequence[str], as_of_ns: int | None) -> set[str]:
        """Receptacles a current negated placement fact about any of the subjects rules out."""
        clause, extra = _as_of(as_of_ns, False)
        return {r[0] for r in self.execute(
            f"SELECT target_key FROM facts WHERE kind='placement' AND negated=1 AND subject_key IN "
            f"({marks(subject_keys)})" + clause, [*subject_keys, *extra])}

    def placements_of(self, subject_key: str, as_of_ns: int | None) -> list[tuple]:
        clause, extra = _as_of(as_of_ns, False)
        return self.execute(f"SELECT {_FACTS} FROM facts WHERE kind='placement' AND negated=0 AND subject_key=?"
                            + clause + " ORDER BY valid_from_ns DESC, rowid DESC", [subject_key, *extra]).fetchall()

    def placement_pool(self, as_of_ns: int | None, limit: int) -> list[tuple[int, str, str]]:
        """(rowid, subject, target_key) of the newest positive placement facts."""
        clause, extra = _as_of(as_of_ns, False)
        return self.execute("SELECT rowid, subject, target_key FROM facts WHERE kind='placement' AND negated=0"
                            + clause + " ORDER BY valid_from_ns DESC, rowid DESC LIMIT ?", [*extra, limit]).fetchall()

    def facts_by_rowid(self, rowids: Sequence[int]) -> dict[int, tuple]:
        return {r[0]: tuple(r[1:]) for r in self.execute(
            f"SELECT rowid, {_FACTS} FROM facts WHERE rowid IN ({marks(rowids)})", list(rowids))}

    # ---- rules ---------------------------------------------------------------------------------

    def active_rule(self, category: str) -> tuple | None:
        return self.execute(f"SELECT {_RULES} FROM rules WHERE category=? AND valid_to_ns IS NULL",
                            (category,)).fetchone()

    def end_rule(self, rule_id: str, valid_to_ns: int, superseded_by: str) -> None:
        self.execute("UPDATE rules SET valid_to_ns=?, superseded_by=? WHERE id=?", (valid_to_ns, superseded_by, rule_id))

    def insert_rule(self, rule_id: str, category: str, predicate: str, receptacle: str, receptacle_key: str,
                    receptacle_id: str, support_event_ids: list[str], support_fact_ids: list[str],
                    confidence: float, valid_from_ns: int) -> None:
        self.execute("INSERT INTO rules(id, category, predicate, receptacle, receptacle_key, receptacle_id, "
                     "support_event_ids, support_fact_ids, confidence, valid_from_ns, valid_to_ns, superseded_by) "
                     "VALUES(?,?,?,?,?,?,?,?,?,?,NULL,'')",
                     (rule_id, category, predicate, receptacle, receptacle_key, receptacle_id,
                      json.dumps(support_event_ids), json.dumps(support_fact_ids), confidence, valid_from_ns))

    def rule_rows(self, category: str | None, as_of_ns: int | None, history: bool) -> list[tuple]:
        q, args = f"SELECT {_RULES} FROM rules WHERE 1=1", []
        if category:
            q += " AND category=?"
            args.append(category)
        clause, extra = _as_of(as_of_ns, history)
        return self.execute(q + clause + " ORDER BY valid_from_ns DESC, rowid DESC", args + extra).fetchall()

    def latest_rule(self, category: str, as_of_ns: int | None) -> tuple | None:
        clause, extra = _as_of(as_of_ns, False)
        return self.execute(f"SELECT {_RULES} FROM rules WHERE category=?" + clause
                            + " ORDER BY valid_from_ns DESC LIMIT 1", [category, *extra]).fetchone()

    def forget_derived(self, event_ids: set[str]) -> int:
        """What was learned from forgotten events goes with them: facts stated in them, rules they support,
        and consolidated knowledge (recomputed from what remains when next needed)."""
        if not event_ids:
            return 0
        args = sorted(event_ids)
        fact_ids = [r[0] for r in self.execute(f"SELECT id FROM facts WHERE event_id IN ({marks(args)})", args)]
        for f in fact_ids:
            self.execute("DELETE FROM fact_categories WHERE fact_id=?", (f,))
            self.execute("DELETE FROM facts WHERE id=?", (f,))
        rule_ids = [rid for rid, support in self.execute("SELECT id, support_event_ids FROM rules").fetchall()
                    if event_ids & set(json.loads(support))]
        for r in rule_ids:
            self.execute("DELETE FROM rules WHERE id=?", (r,))
        knowledge = self.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0]
        self.execute("DELETE FROM knowledge")
        self.execute("DELETE FROM consolidation_runs")
        return len(fact_ids) + len(rule_ids) + knowledge

    # ---- consolidated knowledge ----------------------------------------------------------------

    def action_event_rows(self, until_ns: int | None, limit: int) -> list[tuple[str, str, int, str]]:
        """(id, kind, stamp_ns, JSON) of the newest activity and skill events up to ``until_ns``."""
        q = "SELECT id, kind, stamp_ns, data FROM events WHERE kind IN ('activity', 'skill')"
        args: list[int] = []
        if until_ns is not None:
            q += " AND stamp_ns<=?"
            args.append(until_ns)
        return self.execute(q + " ORDER BY stamp_ns DESC, rowid DESC LIMIT ?", [*args, limit]).fetchall()

    def action_event_fingerprint(self) -> tuple[int, int, int, int | None, int | None]:
        """(count, newest rowid, sum of stamps, first stamp, last stamp) of activity and skill events: any
        insert or delete changes it."""
        row = self.execute(f"SELECT COUNT(*), COALESCE(MAX(rowid), 0), {self.total('stamp_ns')}, MIN(stamp_ns), "
                           "MAX(stamp_ns) FROM events WHERE kind IN ('activity', 'skill')").fetchone()
        return int(row[0]), int(row[1]), int(row[2]), row[3], row[4]

    def replace_knowledge(self, rows: Sequence[Sequence], run: Sequence) -> None:
        """``rows``: (id, kind, actor, support, confidence, evidence_from_ns, evidence_to_ns, run_id, JSON);
        ``run``: (id, computed_ns, window_from_ns, window_to_ns, events, records, fingerprint, JSON)."""
        self.execute("DELETE FROM knowledge")
        self.executemany("INSERT INTO knowledge(id, kind, actor, support, confidence, evidence_from_ns, "
                         "evidence_to_ns, run_id, data) VALUES(?,?,?,?,?,?,?,?,?)", rows)
        self.execute("INSERT INTO consolidation_runs(id, computed_ns, window_from_ns, window_to_ns, events, records, "
                     "fingerprint, data) VALUES(?,?,?,?,?,?,?,?)", run)

    def latest_run_row(self) -> tuple | None:
        return self.execute("SELECT id, window_from_ns, window_to_ns, events, records, fingerprint, data FROM "
                            "consolidation_runs ORDER BY computed_ns DESC, rowid DESC LIMIT 1").fetchone()

    def knowledge_json(self, kind: str | None, actor: str | None) -> list[str]:
        q, args = "SELECT data FROM knowledge WHERE 1=1", []
        for column, value in (("kind", kind), ("actor", actor)):
            if value:
                q += f" AND {column}=?"
                args.append(value)
        return [r[0] for r in self.execute(q, args)]

    # ---- embedding cache -----------------------------------------------------------------------

    def cached_vectors(self, model: str, texts: Sequence[str]) -> list[tuple[str, int, bytes]]:
        out: list[tuple[str, int, bytes]] = []
        for start in range(0, len(texts), 500):
            chunk = list(texts[start:start + 500])
            out += [(t, d, bytes(v)) for t, d, v in self.execute(
                f"SELECT text, dim, vector FROM embedding_cache WHERE model = ? AND text IN ({marks(chunk)})",
                [model, *chunk])]
        return out

    def cache_vectors(self, model: str, rows: Sequence[tuple[str, int, bytes]]) -> None:
        self.executemany("INSERT INTO embedding_cache(text, model, dim, vector) VALUES(?, ?, ?, ?) "
                         "ON CONFLICT(text, model) DO UPDATE SET dim=excluded.dim, vector=excluded.vector",
                         [(t, model, dim, blob) for t, dim, blob in rows])
