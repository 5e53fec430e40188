"""The learned reader: an intent distribution with a calibrated confidence, and slot spans, for one utterance.

What it is (``train_reader.py`` makes it, ``reading_policy.py`` decides how it and the rules combine):

- intent: multinomial logistic regression over sparse features of the spaCy parse the rule parser already
  makes (words, word pairs, lemmas, the first words, the root verb, each word's dependency and head, word
  prefixes for misspellings) plus the mean of the pipeline's own 96-wide token vectors (``doc.tensor``), and
  a temperature fitted on a calibration split so that its top probability is a probability (its reliability,
  accuracy per confidence bin, is printed by the training command and by ``bench/reader_eval.py``).
- slots: two linear BIO token taggers over the same parse (word, lemma, shape, tag, dependency, head, the
  preposition and verb that govern the word, neighbours, the token vector), decoded with Viterbi under BIO
  constraints. Layer 1 holds the phrases (object, object2, destination, relation, source, room, anchor,
  anchor_relation, recipient, person, time, state, need, verb, attribute_asked), layer 2 the words that
  describe inside them (colour, attribute, owner, quantity), so "my blue mug" gives object "blue mug" and
  colour "blue" and owner "my".

Why not the MiniLM encoder the package ships (``core/embedding.py``): on this 2-core machine it encodes a
short sentence in ~40 ms (loaded machine), which alone spends the 50 ms parse + ground budget, and ~6k
training sentences would take ~4 min to embed. The features above cost < 1 ms on top of the parse the rules
already run, and the whole model is ~2 MB (int8 sparse weights with a scale per label, gzipped vocabularies,
``reader_model/``); training is ``python -m memory_node.language.train_reader`` (seeded, minutes).

Loaded once per process, lazily and thread-safely (``default_reader()``; the node may call ``load()`` at
start-up). When the model file is missing, ``default_reader()`` is ``None`` and the rules stand alone.
"""

from __future__ import annotations

import functools
import gzip
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

MODEL_DIR = Path(__file__).with_name("reader_model")
LAYER1 = ("object", "object2", "destination", "relation", "source", "room", "anchor", "anchor_relation",
          "recipient", "person", "time", "state", "need", "verb", "attribute_asked")
LAYER2 = ("colour", "attribute", "owner", "quantity")
LAYERS = (LAYER1, LAYER2)


def bio_labels(slots: tuple[str, ...]) -> list[str]:
    return ["O"] + [f"{p}-{s}" for s in slots for p in ("B", "I")]


# ---- features (shared by training and reading) -----------------------------------------------------


def _shape(w: str) -> str:
    if w.isdigit():
        return "d"
    if w.isalpha():
        return "X" if w.isupper() and len(w) > 1 else "Xx" if w[0].isupper() else "x"
    return "p" if not any(c.isalnum() for c in w) else "m"


def _gov(tok: Any, pos: str, hops: int = 4) -> str:
    t = tok
    for _ in range(hops):
        if t.head is t:
            return ""
        t = t.head
        if t.pos_ == pos:
            return t.lemma_.lower()
    return ""


_NO_CLASSES: tuple[str, ...] = ()


def word_classes(tok: Any) -> tuple[str, ...]:
    """WordNet's classes of a verb or a noun (``WordNet.sense_classes``): a verb no writer used ("cruise down
    to the kitchen") shares its kinds with one they did ("go"), so the model reads it as they meant it; ()
    for other words, or without WordNet (training and reading then agree on having none)."""
    pos = "v" if tok.pos_ == "VERB" else "n" if tok.pos_ in ("NOUN", "PROPN") else ""
    if not pos or not tok.is_alpha:
        return _NO_CLASSES
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return wn.sense_classes(tok.lemma_, pos) if wn is not None else _NO_CLASSES


def _files(tok: Any) -> tuple[str, ...]:
    """The lexicographer files among a word's classes (noun.artifact, verb.motion; no synset names)."""
    return tuple(c for c in word_classes(tok) if c.count(".") == 1)


def sentence_features(doc: Any) -> list[str]:
    toks = [t for t in doc if not t.is_space]
    low = [t.lower_ for t in toks]
    f = ["bias"]
    f += [f"w={w}" for w in low]
    f += [f"l={t.lemma_.lower()}" for t in toks]
    f += [f"p4={w[:4]}" for w in low if len(w) > 4]
    seq = ["<s>", *low, "</s>"]
    f += [f"b={a}_{b}" for a, b in zip(seq, seq[1:])]
    f += [f"t={a}_{b}_{c}" for a, b, c in zip(seq, seq[1:], seq[2:])]
    if low:
        f += [f"first={low[0]}", f"first2={'_'.join(low[:2])}", f"last={low[-1]}"]
    for t in toks:
        classes = word_classes(t)
        if t.dep_ == "ROOT":
            f += [f"root={t.lemma_.lower()}", f"rootpos={t.pos_}"]
            f += [f"rootc={c}" for c in classes]
        if t.pos_ == "VERB":
            f += [f"vc={c}" for c in classes]
        elif t.dep_ in ("dobj", "nsubj", "nsubjpass", "pobj", "attr"):
            f += [f"{t.dep_}c={c}" for c in classes]
        if t.dep_ in ("dobj", "nsubj", "nsubjpass", "prep", "aux", "auxpass", "advmod", "attr", "acomp", "xcomp",
                      "ccomp", "prt", "neg", "pobj", "dative", "advcl"):
            f += [f"{t.dep_}={t.lemma_.lower()}", f"{t.dep_}>{t.head.lemma_.lower()}"]
        f.append(f"tag={t.tag_}")
        if t.pos_ in ("VERB", "AUX"):
            # the verb's frame, its words left out: "move the radio to the counter" is a verb with an object and a
            # path (a put) whatever the thing is; "move to the counter" has a path and no object (a go)
            deps = sorted({c.dep_ if c.dep_ != "prep" else f"prep_{c.lower_}" for c in t.children
                           if c.dep_ in ("dobj", "dative", "prep", "prt", "nsubj", "ccomp", "xcomp", "acomp")})
            frame = "+".join(deps) or "none"
            f += [f"frame={frame}", f"vframe={t.lemma_.lower()}:{frame}"]
    return f


def token_features(doc: Any) -> list[list[str]]:
    toks = list(doc)
    root = next((t.lemma_.lower() for t in toks if t.dep_ == "ROOT"), "")
    # each word's lexicographer files (noun.artifact, verb.motion), looked up once: a head is many words' head
    files = {t.i: _files(t) for t in toks}
    first = toks[0].lower_ if toks else ""
    out = []
    for i, t in enumerate(toks):
        w = t.lower_
        prep = _gov(t, "ADP")
        verb = _gov(t, "VERB") or _gov(t, "AUX")
        f = ["bias", f"w={w}", f"l={t.lemma_.lower()}", f"sh={_shape(t.text)}", f"suf3={w[-3:]}", f"pre3={w[:3]}",
             f"tag={t.tag_}", f"pos={t.pos_}", f"dep={t.dep_}", f"hl={t.head.lemma_.lower()}",
             f"hp={t.head.pos_}", f"dep_hl={t.dep_}_{t.head.lemma_.lower()}", f"prep={prep}", f"verb={verb}",
             f"prep_verb={prep}_{verb}", f"root={root}", f"root_dep={root}_{t.dep_}", f"first={first}",
             f"root_prep={root}_{prep}", f"dep_prep={t.dep_}_{prep}"]
        for k in (-2, -1, 1, 2):
            j = i + k
            if 0 <= j < len(toks):
                f.append(f"w{k}={toks[j].lower_}")
                f.append(f"pos{k}={toks[j].pos_}")
            else:
                f.append(f"w{k}=<edge>")
        if i > 0:
            f.append(f"bg-1={toks[i - 1].lower_}_{w}")
        if i + 1 < len(toks):
            f.append(f"bg+1={w}_{toks[i + 1].lower_}")
        if any(c.dep_ == "det" for c in t.children):
            f.append("has_det")
        f += [f"c={c}" for c in files[t.i]]
        if t.head is not t:
            f += [f"hc={c}" for c in files.get(t.head.i) or _files(t.head)]
        out.append(f)
    return out


_WORDPIECE: Any = None
_WP_LOCK = threading.Lock()
WP_DIM = 384


def _wordpiece() -> Any:
    """MiniLM's tokenizer and input word-piece embeddings (``core/embedding.py``'s files), or False."""
    global _WORDPIECE
    if _WORDPIECE is None:
        with _WP_LOCK:
            if _WORDPIECE is None:
                try:
                    from memory_node.core.embedding import default_embedder

                    e = default_embedder()
                    e.load()
                    _WORDPIECE = (e._tokenizer, e._w["embeddings.word_embeddings.weight"])
                except Exception as err:  # noqa: BLE001 - the reader works without it, less well
                    log.warning("MiniLM word pieces unavailable for the learned reader: %s", err)
                    _WORDPIECE = False
    return _WORDPIECE


def wordpiece_mean(text: str) -> np.ndarray:
    wp = _wordpiece()
    if not wp:
        return np.zeros(WP_DIM, dtype=np.float32)
    tok, emb = wp
    ids = tok.encode(text.lower()).ids[1:-1]  # without [CLS] and [SEP]
    if not ids:
        return np.zeros(WP_DIM, dtype=np.float32)
    return np.asarray(emb[ids], dtype=np.float32).mean(0)


def sentence_dense(doc: Any) -> np.ndarray:
    t = getattr(doc, "tensor", None)
    tensor = np.zeros(96, dtype=np.float32) if t is None or not len(t) else np.asarray(t, dtype=np.float32).mean(0)
    return np.concatenate([tensor, wordpiece_mean(doc.text)])


def token_dense(doc: Any) -> np.ndarray:
    t = getattr(doc, "tensor", None)
    if t is None or len(t) != len(doc):
        return np.zeros((len(doc), 96), dtype=np.float32)
    return np.asarray(t, dtype=np.float32)


# ---- the model at run time ----------------------------------------------------------------------------


_CLAUSE_DEPS = frozenset({"advcl", "xcomp", "ccomp"})  # a clause under the main verb


@dataclass
class Span:
    slot: str
    start: int  # token index in the doc
    end: int  # exclusive
    text: str


@dataclass
class Reading:
    """The model's reading of one utterance."""

    intent: str
    confidence: float  # calibrated probability of ``intent``
    probs: dict[str, float]  # the whole distribution
    spans: list[Span] = field(default_factory=list)
    # False when the sentence's main verb never occurred in training ("dance for me"): the intent is then read
    # from the other words alone, a guess the policy does not let replace the rules' "I do not know how to"
    verb_seen: bool = True

    def top(self, k: int = 3) -> list[tuple[str, float]]:
        return sorted(self.probs.items(), key=lambda x: -x[1])[:k]

    def slot(self, name: str) -> list[Span]:
        return [s for s in self.spans if s.slot == name]


class _Linear:
    """Sparse features (a vocabulary) plus a dense block, times one weight matrix."""

    def __init__(self, vocab: list[str], w_sparse: np.ndarray, w_dense: np.ndarray, bias: np.ndarray,
                 labels: list[str]):
        self.index = {f: i for i, f in enumerate(vocab)}
        self.ws = w_sparse.astype(np.float32)
        self.wd = w_dense.astype(np.float32)
        self.b = bias.astype(np.float32)
        self.labels = labels

    def scores_many(self, feats: list[list[str]], dense: np.ndarray) -> np.ndarray:
        """``scores`` for several rows at once (the tokens of one utterance)."""
        out = dense @ self.wd + self.b
        for row, f in enumerate(feats):
            ids = [self.index[x] for x in f if x in self.index]
            if ids:
                out[row] += self.ws[ids].sum(0)
        return out

    def scores(self, feats: list[str], dense: np.ndarray) -> np.ndarray:
        ids = [self.index[f] for f in feats if f in self.index]
        s = self.b + dense @ self.wd
        if ids:
            s = s + self.ws[ids].sum(0)
        return s


def _sparse(z: Any, name: str) -> np.ndarray:
    """A sparse weight matrix as float32: int8 times its per-row scale (``train_reader.quantise``), or a
    model saved before quantisation as it is."""
    w = z[name]
    scale = z[f"{name}_scale"] if f"{name}_scale" in z.files else None
    return w.astype(np.float32) * scale if scale is not None else w.astype(np.float32)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


@functools.lru_cache(maxsize=8)
def _bio_moves(labels: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Transition scores (0 allowed, -1e9 not: an I-X only after B-X or I-X) and the allowed first tags."""
    k = len(labels)
    allowed = np.zeros((k, k), dtype=bool)  # from -> to
    for a, la in enumerate(labels):
        for b, lb in enumerate(labels):
            allowed[a, b] = not lb.startswith("I-") or la[2:] == lb[2:] and la != "O"
    start_ok = np.array([not lb.startswith("I-") for lb in labels])
    return np.where(allowed, 0.0, -1e9), start_ok


def viterbi(logp: np.ndarray, labels: list[str]) -> list[str]:
    """Best BIO sequence: an I-X only after B-X or I-X."""
    n, k = logp.shape
    trans, start_ok = _bio_moves(tuple(labels))
    score = np.where(start_ok, logp[0], -1e9)
    back = np.zeros((n, k), dtype=np.int64)
    for i in range(1, n):
        cand = score[:, None] + trans
        back[i] = cand.argmax(0)
        score = cand.max(0) + logp[i]
    best = [int(score.argmax())]
    for i in range(n - 1, 0, -1):
        best.append(int(back[i][best[-1]]))
    return [labels[j] for j in reversed(best)]


def spans_of(tags: list[str], doc: Any) -> list[Span]:
    out: list[Span] = []
    cur: list = []
    for i, tag in enumerate([*tags, "O"]):
        if cur and not (tag.startswith("I-") and tag[2:] == cur[0]):
            s, e = cur[1], i
            out.append(Span(cur[0], s, e, doc[s:e].text))
            cur = []
        if tag.startswith("B-"):
            cur = [tag[2:], i]
    return out


class Reader:
    """The trained intent classifier and slot taggers (``reader_model/``)."""

    def __init__(self, path: Path = MODEL_DIR):
        self.path = path
        self._lock = threading.Lock()
        self.intent: _Linear | None = None
        self.taggers: list[_Linear] = []
        self.temperature = 1.0
        self.meta: dict = {}
        self.load_s = 0.0

    @property
    def loaded(self) -> bool:
        return self.intent is not None

    def load(self) -> "Reader":
        with self._lock:
            if self.intent is not None:
                return self
            t0 = time.perf_counter()
            meta = json.loads((self.path / "meta.json").read_text(encoding="utf-8"))
            with gzip.open(self.path / "vocab.json.gz", "rt", encoding="utf-8") as f:
                meta |= json.load(f)
            z = np.load(self.path / "weights.npz")
            self.intent = _Linear(meta["intent_vocab"], _sparse(z, "intent_ws"), z["intent_wd"], z["intent_b"],
                                  meta["intents"])
            self.taggers = [_Linear(meta[f"tag{k}_vocab"], _sparse(z, f"tag{k}_ws"), z[f"tag{k}_wd"],
                                    z[f"tag{k}_b"], bio_labels(layer)) for k, layer in enumerate(LAYERS)]
            self.temperature = float(meta["temperature"])
            self.meta = {k: v for k, v in meta.items() if not k.endswith("_vocab")}
            _wordpiece()  # MiniLM's word pieces now too, not on the first request
            self.load_s = time.perf_counter() - t0
        log.info("learned reader loaded in %.0f ms", self.load_s * 1000)
        return self

    def read(self, doc: Any) -> Reading:
        """The reading of a parsed utterance (a spaCy ``Doc`` from ``parser.read``)."""
        if self.intent is None:
            self.load()
        assert self.intent is not None
        z = self.intent.scores(sentence_features(doc), sentence_dense(doc)) / self.temperature
        p = _softmax(z)
        k = int(p.argmax())
        spans: list[Span] = []
        if len(doc):
            feats = token_features(doc)
            dense = token_dense(doc)
            for tagger in self.taggers:
                logp = np.log(_softmax(tagger.scores_many(feats, dense)) + 1e-12)
                spans += spans_of(viterbi(logp, tagger.labels), doc)
        ix = self.intent.index
        # a verb counts as seen where training had it at least twice, as the main verb or elsewhere ("snag me a
        # towel" tagged as a noun phrase in training is still the verb)
        verb_seen = all(f"root={t.lemma_.lower()}" in ix or f"l={t.lemma_.lower()}" in ix if t.pos_ == "VERB" else
                        f"w={t.lower_}" in ix or f"l={t.lemma_.lower()}" in ix for t in doc if t.dep_ == "ROOT") or \
            any(t.pos_ == "VERB" and t.dep_ in _CLAUSE_DEPS and f"root={t.lemma_.lower()}" in ix for t in doc)
        # ... or the request's own verb, in a clause under one it never saw ("I would appreciate it if you
        # fetched the glass": "appreciate" is new, "fetch" is the task)
        return Reading(self.intent.labels[k], float(p[k]),
                       {lab: float(v) for lab, v in zip(self.intent.labels, p)}, spans, verb_seen)


_reader: Reader | None = None
_reader_lock = threading.Lock()


def default_reader() -> Reader | None:
    """The shipped model, loaded once per process; ``None`` when it is not there (the rules stand alone)."""
    global _reader
    if _reader is None:
        with _reader_lock:
            if _reader is None:
                if not (MODEL_DIR / "weights.npz").is_file():
                    log.warning("no learned reader at %s: the rule parser reads alone", MODEL_DIR)
                    return None
                _reader = Reader().load()
    return _reader


def load() -> float:
    """Load the shipped model now (node start-up); seconds it took, 0.0 when it is not there."""
    r = default_reader()
    return r.load_s if r is not None else 0.0
