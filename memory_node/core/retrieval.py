"""Retrieval: one deterministic pipeline that finds the entities and events a piece of text means.

Stages, in order, each adding only records the earlier ones did not find:

1. **structured constraints** (store kind, room, entity, time) narrow the candidates before any text is
   looked at: "where is X now" is a lookup, and as-of queries see only what memory held at that time;
2. **exact**: the text names a record's id, an entity's label ("coffee table" -> ``coffeetable``) or name;
3. **lexical**: the backend's text index (SQLite: FTS5 with trigram tokens and BM25, core/storage/sqlite_search.py;
   PostgreSQL: pg_trgm) over labels, names, attributes, states, rooms and
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

import logging
import re
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .embedding import TextEmbedder, default_embedder, single_blas_thread
from .models import Entity, Event, MemoryRecord, normalize_label
from .storage.documents import entity_words, words_matched
from .storage.errors import storage_errors
from .storage.sqlite_search import fts_match
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

_ID_MATCH = 1000.0  # tiebreak of an exact id match: above label/name matches, which count matched words


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
    """The SQLite FTS5 query of the lexical stage: any of the text's content words (BM25 ranks records
    matching more of them higher)."""
    return fts_match(_terms(text))


_entity_words = entity_words
_words_matched = words_matched


# ---- pipeline -------------------------------------------------------------------------------------


@dataclass
class _Hit:
    stage: int  # 0 exact, 1 lexical, 2 semantic
    score: float
    record: MemoryRecord
    tiebreak: float = 0.0  # exact hits: id match, else how many of the text's words they also contain

    def key(self) -> tuple[int, float, float, int, str]:
        return (self.stage, -self.score, -self.tiebreak, -self.record.stamp_ns, self.record.id)


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
            view = (self._entity_view(entity_id, as_of_ns, lexical=bool(_terms(text)))
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

    def _entity_view(self, entity_id: str | None, as_of_ns: int | None, lexical: bool) -> Any:
        """The candidate entities: the live ones, or for an as-of query the versions valid then (the ones
        ``store.entities(as_of_ns=...)`` returns), so that nothing a later message wrote can match."""
        return self.store.storage.entity_view(as_of_ns, entity_id, lexical)

    @staticmethod
    def _entity_hits(rows: Iterable[Sequence], stage: int, score: float = EXACT_SCORE) -> list[_Hit]:
        """Hits from rows of (entity JSON,) scored ``score``, or of (entity JSON, score)."""
        from .query import describe_entity  # query.py builds on this module

        def record(data: str, s: float) -> MemoryRecord:
            e = Entity.model_validate_json(data)
            return MemoryRecord.of("entity", e.id, describe_entity(e), e, e.last_seen_ns, score=s)
        return _hits(rows, stage, score, record)

    def _entities_newest(self, view: Any, room: str | None, entity_id: str | None, limit: int) -> list[_Hit]:
        return self._entity_hits([(d,) for d in self.store.storage.entities_newest(view, room, entity_id, limit)],
                                 stage=0)

    def _entities_exact(self, view: Any, text: str, room: str | None, entity_id: str | None,
                        limit: int) -> list[_Hit]:
        """Entities the text names by id, then by label or name. Words inside a named id ("mug" in
        "mug_190") name nothing more; an id match ranks above label matches, and among label matches
        those that match more of the text's other words ("the blue mug") come first, then the newest.
        Of each label or name only the best ``limit`` are read (the backend's ``exact_stage``), however many the
        memory holds."""
        storage = self.store.storage
        ids = sorted(id_tokens(text) | {text})
        hits = self._entity_hits([(d,) for d in storage.entities_with_ids(view, ids, room, entity_id)], stage=0)
        rest = text
        for h in hits:
            h.tiebreak = _ID_MATCH
            rest = rest.replace(h.record.id, " ")
        labels = sorted((label_candidates(rest) | {normalize_label(rest)}) - {""})
        if not labels:
            return hits
        terms = _terms(rest)
        # id -> JSON: an entity may be named by its label and by its name
        rows = storage.exact_stage(view, room, entity_id, labels, terms, limit)
        named = self._entity_hits([(data,) for data in rows.values()], stage=0)
        for h in named:
            h.tiebreak = _words_matched(terms, _entity_words(h.record.data()))
        return hits + named

    def _entities_lexical(self, view: Any, text: str, room: str | None, entity_id: str | None,
                          limit: int) -> list[_Hit]:
        """Entities by the backend's text index (SQLite: BM25 over FTS5)."""
        terms = _terms(text)
        if not terms:
            return []
        rows = self.store.storage.entities_lexical(view, terms, room, entity_id, limit)
        return self._entity_hits(_lexical_scores(rows), stage=1)

    # ---- events ---------------------------------------------------------------------------------

    @staticmethod
    def _event_hits(rows: Iterable[Sequence], stage: int, score: float = EXACT_SCORE) -> list[_Hit]:
        """Hits from rows of (event JSON,) scored ``score``, or of (event JSON, score)."""
        def record(data: str, s: float) -> MemoryRecord:
            ev = Event.model_validate_json(data)
            return MemoryRecord.of("event", ev.id, ev.text, ev, ev.stamp_ns, score=s)
        return _hits(rows, stage, score, record)

    def _events_newest(self, room: str | None, entity_id: str | None, as_of_ns: int | None,
                       limit: int) -> list[_Hit]:
        return self._event_hits([(d,) for d in self.store.storage.events_newest(room, entity_id, as_of_ns, limit)],
                                stage=0)

    def _events_exact(self, text: str, room: str | None, entity_id: str | None,
                      as_of_ns: int | None) -> list[_Hit]:
        """Events the text names by id, or that involve an entity it names by id."""
        ids = sorted(id_tokens(text) | {text})
        rows = self.store.storage.events_naming(ids, room, entity_id, as_of_ns)
        hits = self._event_hits([(d,) for d in rows], stage=0)
        terms = _terms(text)
        for h in hits:
            h.tiebreak = _words_matched(terms, h.record.text.lower())
        return hits

    def _events_lexical(self, text: str, room: str | None, entity_id: str | None, as_of_ns: int | None,
                        limit: int) -> list[_Hit]:
        terms = _terms(text)
        if not terms:
            return []
        rows = self.store.storage.events_lexical(terms, room, entity_id, as_of_ns, limit)
        return self._event_hits(_lexical_scores(rows), stage=1)

    # ---- semantic -------------------------------------------------------------------------------

    def _semantic(self, text: str, kinds: Sequence[str], view: Any | None, room: str | None,
                  entity_id: str | None, as_of_ns: int | None, limit: int) -> list[_Hit]:
        """Candidates' phrases by cosine similarity to the text; [] when the model is unavailable."""
        storage = self.store.storage
        phrases: dict[str, list[tuple[str, str]]] = {}  # phrase -> (label, name) groups of entities
        if view is not None:
            for label, name in storage.entity_phrase_keys(view, room, entity_id):
                phrases.setdefault(self._entity_phrase(label, name), []).append((label, name))
        event_texts: list[str] = []
        if "events" in kinds:
            event_texts = list(dict.fromkeys(storage.event_texts(room, entity_id, as_of_ns, SEMANTIC_EVENT_CANDIDATES)))
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
                rows = [(d,) for d in storage.entities_of_phrase(view, room, entity_id, label, name, limit)]
                hits += self._entity_hits(rows, stage=2, score=score)
            if t in event_set:
                rows = [(d,) for d in storage.events_with_text(t, room, entity_id, as_of_ns, limit)]
                hits += self._event_hits(rows, stage=2, score=score)
        return hits

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
