"""Retrieval's queries on SQLite: FTS5 (trigram tokens, BM25) over the entity and event documents that the
triggers of schema migration 2 keep, and the distinct phrases of migration 5."""

from __future__ import annotations


class SqliteSearch:
    pass
