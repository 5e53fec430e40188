"""Where an object goes when no fact or rule covers it: with the corrected objects most like it.

``rules.explain_placement`` walks a label's category chain first (``categories.py``); an object the map
does not know, or whose kinds have no fact or rule yet, lands here. Its words are compared with the
subjects of the current placement facts by sentence embeddings (all-MiniLM-L6-v2, ``embedding.py``), and
the ``K`` most similar facts vote for their receptacle, each with weight similarity x ``KIND_BASE`` ** (the
kinds the two objects share). Kinds are the map's categories (a plum shares fruit, produce and food with
the apple, only produce and food with the carrot; a word the map does not list has those of its nearest
WordNet kind the map lists, ``lexical_categories.py``: a kumquat is fruit too; a label neither lists has
those of the map category whose words its own are clearly nearest in the model's reading, ``embedded_kinds``:
a "smoothie maker" is a small appliance) plus the most specific
kind WordNet says they share, graded by how specific it is (below), plus ``MODIFIER_BONUS`` when their
names share a word before the head that is not an attribute of the map (a party dress and party shoes:
what they are for), plus ``ATTR_BONUS`` for each attribute of the map their names share ("muddy shorts" and a
"soiled shirt" are both dirty; a "white t-shirt" and an "ivory blouse" both light coloured). The
weight grows geometrically with the kinds shared, so one example of the object's own narrow kind (a
hammer for a screwdriver: hand tools) outvotes several that share only a broad one (a spirit level and a
torch: tools). For an object of no kind the map, WordNet or the model knows (a brand name like no kind) its
similarity is all the evidence there is, and it weighs to the power ``UNKNOWN_POWER``: one close example
outweighs several far ones, as the kinds shared do for a known object. The receptacle with the most weight
wins:

- an example the map knows as another kind of thing than a known object (nothing in common: a fork for
  an apple) does not vote unless the two are at least ``CROSS_KIND_MIN`` similar or share a WordNet kind;
- when the nearest example is less than ``MIN_SIMILARITY`` similar, only examples of the object's own kind
  vote (a map category or a specific WordNet kind shared: a wooden block goes where the toy car went,
  however unlike their words; an example of its map kind whose words point away weighs ``KIN_FLOOR``),
  with the low confidence their similarity gives; with none of its kind the answer is "not known" (None),
  never a guess;
- an example said to have another of the object's contrasting attributes (``CategoryMap.contrasts``: a clean
  shirt for a muddy one, a black t-shirt for a white one) has its weight cut to ``CONTRAST``: the person
  told such things apart;
- a receptacle ruled out for the object ("knives don't go in the sink") takes no votes;
- examples of a narrower kind the object is not of, two or more in one place (whether or not others of
  that kind went elsewhere), say where that kind goes, not where the rest of their broader kind goes
  ("hand tools in the toolbox, other tools on the shelf": a spirit level is not a hand tool): their
  weight is cut to ``EXPLAINED``; so are examples with
  an attribute the object is not said to have, two or more in one place, unless they are of all the
  object's kinds ("the muddy jeans and the worn t-shirt in the hamper": dirty things, not jewellery, go
  there; two red and green cutting boards still say where cutting boards go);
- the answer cites the winning voters' events and names them ("things like the banana and the apple"), and
  its confidence is the winner's share of the vote times the nearest winning example's similarity, capped
  at ``MAX_CONFIDENCE`` so that it stays below an explicit fact about the object.

Only reads: texts are embedded on the first question that needs them and kept in a process-wide,
bounded cache (each distinct text once, ~7 ms; nothing on the write path, nothing persisted, so
``forget`` leaves no vectors of forgotten words in the database). Deterministic: ties go to the newer
fact. When the model cannot run, this answers nothing and says so once in the log.

WordNet 3.0 (``wordnet.py``) adds what vectors of short phrases miss. For two objects it finds the most
specific kind they share (``WordNet.shared_kind``, over their senses in a home) and how specific that kind
is, by WordNet's shape alone (intrinsic information content: 1 - log(1 + hyponyms) / log(all nouns); a
viola and a violin share "bowed stringed instrument", 0.78; a violin and a trumpet "musical instrument",
0.55; a cardigan and a blouse "clothing", 0.44; a spatula and a ladle only "instrumentality", 0: too
broad to say anything). The similarity is a blend of the MiniLM cosine and Lin's similarity over that
kind (``WN_WUP``), never below the cosine for two things the map says are of a kind (WordNet's senses are
not always the home's: cumin the seed and paprika the seasoning share nothing specific there), and a
shared kind at least ``WN_KIND_IC`` specific counts as up to ``WN_BONUS`` map categories, in proportion
to its specificity, also across the map's top-level kinds. An object WordNet does not list (by any ending
of its phrase) is compared by vectors alone. "Not known" is still the vectors' call (or a kind shared
with an example, above): any two artifacts share "artifact", and a weather vane is not like a violin
because both are devices. A phrase is looked up by its longest ending WordNet lists, spelt open or closed
("tea pot" is WordNet's "teapot", "oak chopping board" a chopping board), and not at all when that ending
is only an activity or a state ("ball game": its "game" would be the food); words glued into a noun
WordNet lists only as no household thing are passed over for a last word that is one ("leather jacket"
is a jacket, not WordNet's "leatherjacket", a fish); a last word that only measures ("problem set") or a
container the map reads the contents of ("juice bottle": juice) is not what the thing is, and the words
before it are looked up instead.

``K``, ``KIND_BASE``, ``EXPLAINED`` and the WordNet constants were chosen on the even-numbered TidyBot
scenarios and checked on the odd ones; ``ATTR_BONUS``, ``CONTRAST``, ``UNKNOWN_POWER`` and the ``EMB_``
ones on the even ones and on leave-one-out over the seen placements of all of them (``--loo-seen``)
(``python -m memory_node.bench.placement_eval``; the figures are in
``docs/benchmarks.md``); ``MIN_SIMILARITY`` and ``CROSS_KIND_MIN`` are about the 75th and the 99th
percentile of the similarity between unrelated household words (words of different top-level categories
of ``config/categories/household.yaml``), set from the map, not from the benchmark
(``python -m memory_node.bench.placement_eval --noise``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .categories import CategoryMap
from .embedding import TextEmbedder, default_embedder
from .lexical_categories import map_categories
from .text import singular, tokens

log = logging.getLogger(__name__)

K = 10  # voters: the most similar current placement facts
KIND_BASE = 3.0  # a voter's weight is its similarity x this ** (the kinds it shares with the object)
MIN_SIMILARITY = 0.25  # the nearest example must be at least this similar, else "not known"
CROSS_KIND_MIN = 0.42  # an example the map says is another kind of thing counts only from this similarity
MAX_CONFIDENCE = 0.8  # a guess from similar objects never claims what a fact or a rule of the object's kind would
WN_WUP = 0.3  # similarity = (1 - this) x MiniLM cosine + this x WordNet's Lin similarity, where WordNet lists both
WN_KIND_IC = 0.35  # a WordNet kind shared counts from this specificity up ("garment" 0.50, "food" 0.35) ...
WN_BONUS = 2.0  # ... as up to this many map categories, in proportion to how far above WN_KIND_IC it is
MODIFIER_BONUS = 1.0  # a word two names share before their heads ("party dress", "party shoes") counts as this many kinds
EXPLAINED = 0.25  # the weight left to a voter whose own narrower kind, not the object's, explains its place
WN_CATEGORIES = True  # a label the map does not list has the map's categories of its nearest WordNet kind
KIN_FLOOR = 0.05  # an example of the object's own map kind whose words are unlike (cosine <= 0) weighs as barely similar
UNKNOWN_POWER = 2.0  # for an object of no kind the map or WordNet knows, a voter weighs its similarity to this power
ATTR_BONUS = 2.0  # an attribute of the map two names share ("dirty", a dark colour) counts as this many kinds
CONTRAST = 0.5  # the weight left to a voter said to be another of the object's contrasting attributes (clean / dirty)
EMB_KIND_MIN = 0.45  # a label neither the map nor WordNet knows takes the map category its words are this near ...
EMB_KIND_MARGIN = 0.03  # ... and this much nearer than any category not above or below it (else no kind)
EMB_HEAD = 0.5  # the part of that nearness read from the phrase's last word alone (a pasta maker is no pasta)
_WARM_CHUNK = 32  # phrases embedded per call when the map's words are read (``_centroids``)
MAX_FACTS = 5000  # the newest current placement facts compared (bounds the cost of one question)
_CACHE_MAX = 50_000
_WN_LONGEST = 9  # words in WordNet 3.0's longest noun ("united nations office for drug control and crime ...")


class Example(NamedTuple):
    """A current placement fact, as much of it as the vote needs."""

    subject: str  # the object as said ("Lego brick")
    receptacle_key: str  # ``key`` of where it goes
    ref: object = None  # the caller's handle on the fact (a rowid)


@dataclass(frozen=True)
class Vote:
    """The winning receptacle and the examples that voted for it (most similar first)."""

    receptacle_key: str
    voters: list[tuple[Example, float]]  # (example, similarity)
    share: float  # the winner's part of all the weight
    confidence: float


class _Cache:
    """Unit vectors by (model, text as said), least recently used dropped first; thread-safe."""

    def __init__(self, size: int = _CACHE_MAX) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._warned = False

    def vectors(self, embedder: TextEmbedder, texts: Sequence[str]) -> np.ndarray | None:
        """One row per text (``phrase`` of it embedded); None when the model cannot run."""
        model = embedder.model_name
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if (model, t) not in self._vectors]
        new: dict[str, np.ndarray] = {}
        if missing:
            try:
                phrases = [phrase(t, embedder) for t in missing]
                new = dict(zip(missing, embedder.encode(phrases)))
            except Exception as e:  # the model is optional: without it, no similarity answers
                if not self._warned:
                    log.warning("placement by similarity disabled: %s", e)
                    self._warned = True
                return None
        with self._lock:
            for t, v in new.items():
                self._vectors[(model, t)] = np.asarray(v, dtype=np.float32)
            out = []
            for t in texts:
                v = self._vectors.get((model, t))
                if v is None:  # dropped by a concurrent caller's eviction: this one's copy
                    v = new[t]
                else:
                    self._vectors.move_to_end((model, t))
                out.append(v)
            while len(self._vectors) > self._size:
                self._vectors.popitem(last=False)
        return np.stack(out)

    def clear(self) -> None:
        with self._lock:
            self._vectors.clear()


_CACHE = _Cache()


def clear_cache() -> None:
    """Forget every cached vector (tests; a process that wants the memory back)."""
    _CACHE.clear()


def phrase(text: str, embedder: TextEmbedder | None = None) -> str:
    """What to embed for an object phrase: lower case, a trailing number dropped ("pillow 2"), glued
    labels split into words the model knows ("barbiedoll" -> "barbie doll")."""
    ws = re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower().replace("\u2019", "'"))
    while len(ws) > 1 and ws[-1].isdigit():
        ws = ws[:-1]
    split = getattr(embedder, "split_compound", None)
    if split is not None:
        ws = [split(w) for w in ws]
    return " ".join(ws)


def lexical_kind(a: str, b: str, cmap: CategoryMap | None = None) -> tuple[float, float] | None:
    """(Lin similarity, specificity of the most specific kind shared) of two phrases in WordNet
    (``wordnet.WordNet.shared_kind``; of each phrase's longest ending WordNet lists, spelt open or closed:
    "tea pot" is its "teapot", "Acme hand blender" a blender); None when WordNet lists either not."""
    return _lexical_kind(_wn_phrase(a, _weak_head(cmap, a)), _wn_phrase(b, _weak_head(cmap, b)))


def lexical_phrase(cmap: CategoryMap | None, label: str) -> str:
    """What WordNet is asked about a label: its longest ending WordNet lists, open or closed, past a weak
    head ("juice bottle": juice); "" when WordNet lists none."""
    return _wn_phrase(label, _weak_head(cmap, label))


def _weak_head(cmap: CategoryMap | None, label: str) -> bool:
    """Whether the last word of a phrase of several says little of what it is: a word that only measures
    ("problem set", "pile", "slice"), or a container the map reads the contents of ("juice bottle" is juice,
    as ``CategoryMap.chain`` has it; a "plain box" stays a box)."""
    if cmap is None:
        return False
    ws = tokens(label)
    while len(ws) > 1 and ws[-1].isdigit():
        ws = ws[:-1]
    if len(ws) < 2:
        return False
    last = singular(ws[-1])
    if last in cmap.measures and last not in cmap.word_category and last not in cmap.containers:
        return True
    if last in cmap.containers or last in cmap.servings:
        chain = cmap.chain(label)
        return len(chain) > 1 and chain[1] != last
    return False


@lru_cache(maxsize=_CACHE_MAX)
def _lexical_kind(a: str, b: str) -> tuple[float, float] | None:
    from .wordnet import default_wordnet

    wn = default_wordnet()
    if wn is None or not a or not b:
        return None
    found = wn.shared_kind(a, b)
    return (found[0], found[1]) if found is not None else None


@lru_cache(maxsize=_CACHE_MAX)
def _wn_phrase(label: str, weak_head: bool = False) -> str:
    from .wordnet import default_wordnet

    words = " ".join(re.findall(r"[a-z]+", label.lower()))
    wn = default_wordnet()
    if wn is None or not words:
        return ""
    # no noun WordNet lists is longer than 9 words: longer endings of a long label need no look-up
    ws = words.split()[-(_WN_LONGEST + (1 if weak_head else 0)):]
    # the longest ending WordNet lists, spelt open or closed ("tea pot" is its "teapot"); past a weak
    # head, the words before it ("juice bottle": juice)
    endings = [form for i in range(len(ws)) for form in dict.fromkeys((" ".join(ws[i:]), "".join(ws[i:])))
               if i < len(ws) - 1 or not weak_head]
    if weak_head:
        endings += [form for i in range(len(ws) - 1)
                    for form in dict.fromkeys((" ".join(ws[i:-1]), "".join(ws[i:-1])))]
    head_household = None
    for p in endings:
        if wn.known(p):
            if " " not in p and p not in ws and not wn.household(p):
                # words glued into a noun that is no household thing, when the last word is one: a
                # "leather jacket" is a jacket, not WordNet's "leatherjacket" (a fish)
                if head_household is None:
                    head_household = wn.household(ws[-1])
                if head_household:
                    continue
            return p
        if (" " in p or p not in ws) and wn.names_no_thing(p):
            return ""  # the longest ending WordNet lists is an activity or a state ("ball game", "hot water"):
            # its last word alone is another word, whose senses say nothing of this one
    return ""


def kinds(cmap: CategoryMap, label: str, embedder: TextEmbedder | None = None) -> frozenset[str]:
    """The map's categories of a label (not the label itself, its head word or its attributes): what two
    objects can share to be "of a kind" here; for a label the map does not list, those of its nearest
    WordNet kind the map lists (``lexical_categories``); with ``embedder``, for a label neither knows, those
    of the map category its words are clearly nearest (``embedded_kinds``); else empty."""
    if not WN_CATEGORIES:
        return frozenset(c for c in cmap.chain(label) if c in cmap.parent)
    found = _memo(cmap, ("kinds", label), lambda: frozenset(map_categories(cmap, label)))
    if found or embedder is None:
        return found
    return _memo(cmap, ("embedded kinds", embedder.model_name, label), lambda: embedded_kinds(cmap, label, embedder))


def _centroids(cmap: CategoryMap, embedder: TextEmbedder) -> tuple[list[str], np.ndarray] | None:
    """Each map category's own words, embedded and averaged (a unit vector per category, most specific
    words only: a snack's are not a candy's): what the map knows of that kind of thing, as the model reads
    it. Read once per map and model (again when the map grows): ~1,000 short phrases, seconds on a small
    CPU, kept here rather than in the vector cache; None when the model cannot read them (it says so where
    the vote's own texts fail)."""
    memo = ("centroids", embedder.model_name, len(cmap.word_category), len(cmap.parent))
    found = cmap.votes.get(memo)
    if found is None:
        by: dict[str, list[str]] = {}
        for w, c in cmap.word_category.items():
            if w not in cmap.singulars:  # each word as the map writes it, once
                by.setdefault(c, []).append(w)
        cats = sorted(by)
        words = [w for c in cats for w in sorted(by[c])]
        try:
            texts = [phrase(w, embedder) for w in words]
            # a few dozen at a time: each call holds the model (and the BLAS pool) only that long, so a request
            # read on another thread while the node warms this up waits a fraction of a second, not seconds
            vecs = np.concatenate([np.asarray(embedder.encode(texts[i:i + _WARM_CHUNK]), dtype=np.float32)
                                   for i in range(0, len(texts), _WARM_CHUNK)]) if words else None
        except Exception:  # the model is optional (and a test's table lists only its own words)
            vecs = None
        found = False
        if words and vecs is not None and vecs.shape[0] == len(words):
            rows, i = [], 0
            for c in cats:
                m = vecs[i:i + len(by[c])].mean(axis=0)
                rows.append(m / max(float(np.linalg.norm(m)), 1e-9))
                i += len(by[c])
            found = (cats, np.stack(rows))
        cmap.votes[memo] = found
    return found or None  # type: ignore[return-value]


def warm(cmap: CategoryMap | None = None, embedder: TextEmbedder | None = None) -> bool:
    """Read the map categories' words through the model now (``_centroids``: seconds), so that the first
    question about a thing of no known kind does not pay for it; True when they could be read."""
    from .categories import default_map

    return _centroids(cmap or default_map(), embedder or default_embedder()) is not None


def embedded_kinds(cmap: CategoryMap, label: str, embedder: TextEmbedder) -> frozenset[str]:
    """The map category (and its ancestors) whose words (``_centroids``) a label is nearest to in the
    model's reading, the phrase and its last word alone weighed ``1 - EMB_HEAD`` and ``EMB_HEAD`` (a "pasta
    maker" is near pasta by its first word alone, a small appliance with its head), when it is at least
    ``EMB_KIND_MIN`` near and ``EMB_KIND_MARGIN`` nearer than any category not above or below it; else the
    narrowest category above it whose kinds are that much nearer than any other ("Gatorade", as near soft
    drinks as juice, is a beverage); else empty: a "smoothie maker" is a small appliance, "Nutella" a nut;
    "Tostitos" or "Lysol", near no kind's words clearly, stay of no kind. It errs as the model does ("Jenga" reads as a prepared food): what the
    kinds add is weighed in the vote with the rest, and only where the map and WordNet say nothing."""
    cents = _centroids(cmap, embedder)
    v = _CACHE.vectors(embedder, [label]) if cents is not None else None
    if v is None or not phrase(label):
        return frozenset()
    cats, mat = cents
    sims = mat @ v[0]
    ws = phrase(label, embedder).split()
    if len(ws) > 1:
        h = _CACHE.vectors(embedder, [ws[-1]])
        if h is not None:
            sims = (1 - EMB_HEAD) * sims + EMB_HEAD * (mat @ h[0])
    order = np.argsort(-sims, kind="stable").tolist()
    best = cats[order[0]]
    if float(sims[order[0]]) < EMB_KIND_MIN:
        return frozenset()
    # the nearest category, else the narrowest kind above it that is clearly nearer than any other: as near
    # soft drinks as juice ("Gatorade") is a beverage still, as near spices as baking supplies a food
    for up in cmap.ancestors(best):
        line = set(cmap.ancestors(up))
        rival = next((float(sims[j]) for j in order[1:] if cats[j] not in line and up not in cmap.ancestors(cats[j])),
                     -1.0)
        if float(sims[order[0]]) - rival >= EMB_KIND_MARGIN:
            return frozenset(c for c in line if c in cmap.parent)
    return frozenset()


def _memo(cmap: CategoryMap, key: tuple, read: Callable[[], frozenset[str]]) -> frozenset[str]:
    """A reading of a label kept on the map (each pool example is read again for every question)."""
    found = cmap.votes.get(key)
    if found is None:
        if len(cmap.votes) > _CACHE_MAX:
            kept = {k: v for k, v in cmap.votes.items() if k[0] == "centroids"}  # seconds to read again
            cmap.votes.clear()
            cmap.votes.update(kept)
        found = cmap.votes[key] = read()
    return found


_FUNCTION_WORDS = frozenset({"the", "and", "for", "with", "from", "of", "a", "an", "in", "on", "to"})


def _modifiers(cmap: CategoryMap, label: str) -> frozenset[str]:
    """The words before a name's head that say what it is for or made of ("dress" shirt, "garden" hose,
    "fruit" snacks); not the attributes the map already shares across kinds (colours, materials, "dirty")."""
    ws = tokens(label)
    while len(ws) > 1 and ws[-1].isdigit():
        ws = ws[:-1]
    return frozenset(w for w in ws[:-1] if len(w) > 2 and not w.isdigit() and w not in _FUNCTION_WORDS
                     and w not in cmap.attributes)


def _attrs(cmap: CategoryMap, label: str) -> frozenset[str]:
    """The map's attributes a label names ("dirty", "plastic", "black" and its tone "dark colored")."""
    return _memo(cmap, ("attrs", label),
                 lambda: frozenset(a for w in tokens(label)[:-1] for a in cmap.attributes.get(w, ())))


def _contrast(cmap: CategoryMap, mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether two names say different values of an attribute a thing has one of (``CategoryMap.contrasts``:
    a clean shirt and a muddy one, a white one and a black one)."""
    return any(mine & c and theirs & c and not mine & theirs & c for c in cmap.contrasts)


def _explained(cmap: CategoryMap, mine: set[str], my_attrs: frozenset[str], pool: Sequence[Example],
               idx: list[int], embedder: TextEmbedder | None = None) -> set[int]:
    """The voters whose receptacle a kind of theirs that the object is not explains: two or more
    examples of that kind in one receptacle ("hand tools in the toolbox"): for something else of their
    broader kind they say where that narrower kind goes, not where the rest goes ("other tools on the
    shelf"). Others of the kind elsewhere do not make them say more: baking pans on the counter and mixing
    bowls in the cupboard are bakeware split by what each is, and neither pair says where a can opener
    goes (kitchenware too) better than the peeler in the drawer does. So does an attribute the object is not said to have, for examples not of all the object's
    kinds ("the muddy jeans and the worn t-shirt in the hamper" say where dirty things go, not where a
    necklace goes); for examples of its own kind a colour in their names may be no more than a colour."""
    by_kind: dict[str, list[int]] = {}
    for i in idx:
        theirs = kinds(cmap, pool[i].subject, embedder)
        reasons = {*(theirs - mine)}
        if not mine <= theirs:
            reasons.update(f"attribute:{a}" for a in _attrs(cmap, pool[i].subject) - my_attrs)
        for c in reasons:
            by_kind.setdefault(c, []).append(i)
    # two or more of a kind in one receptacle, whatever went elsewhere
    grouped: dict[tuple[str, str], list[int]] = {}
    for c, members in by_kind.items():
        for i in members:
            grouped.setdefault((c, pool[i].receptacle_key), []).append(i)
    return {i for members in grouped.values() if len(members) >= 2 for i in members}


def vote(label: str, candidates: Sequence[Example], denied: set[str], cmap: CategoryMap,
         embedder: TextEmbedder | None = None) -> Vote | None:
    """The receptacle the examples most similar to ``label`` agree on, or None (see the module docstring).

    ``candidates``: current positive placement facts, newest first; ``denied``: receptacle keys ruled out
    for the label."""
    pool = [f for f in candidates if f.receptacle_key not in denied][:MAX_FACTS]
    if not pool or not phrase(label):
        return None
    emb = embedder or default_embedder()
    vecs = _CACHE.vectors(emb, [label, *(f.subject for f in pool)])
    if vecs is None:
        return None
    cosines = np.round(vecs[1:] @ vecs[0], 6)
    rel = [lexical_kind(label, f.subject, cmap) if (WN_WUP or WN_BONUS) else None for f in pool]
    sims = cosines
    if WN_WUP:
        sims = np.round(np.array([(1 - WN_WUP) * c + WN_WUP * r[0] if r is not None else c
                                  for c, r in zip(cosines.tolist(), rel)], dtype=np.float64), 6)
    mine = kinds(cmap, label, emb)
    if WN_WUP and mine:
        # WordNet lowers no similarity between things the map says are of a kind: its senses are not always
        # the home's (cumin the seed, paprika the seasoning; a knife an edge tool, a fork cutlery)
        sims = np.array([c if s < c and mine & kinds(cmap, f.subject, emb) else s
                         for s, c, f in zip(sims.tolist(), cosines.tolist(), pool)], dtype=np.float64)
    my_mods = _modifiers(cmap, label) if MODIFIER_BONUS else frozenset()
    my_attrs = _attrs(cmap, label)
    # a WordNet kind specific enough to count, and as how many map categories
    lex_kin = [r is not None and r[1] >= WN_KIND_IC for r in rel]
    lex_shared = [WN_BONUS * (r[1] - WN_KIND_IC) / (1 - WN_KIND_IC) if kin else 0.0 for r, kin in zip(rel, lex_kin)]

    # the K most similar (ties to the newer fact: the pool is newest first), less those the map says are
    # another kind of thing unless their words are exceptionally close
    order: list[tuple[int, float, bool]] = []  # (pool index, kinds shared with the label, of its kind)
    contrast: set[int] = set()  # voters said to be otherwise on an attribute the object names (a clean shirt)
    for i in np.lexsort((np.arange(len(pool)), -sims)).tolist():
        if len(order) == K:
            break
        theirs = kinds(cmap, pool[i].subject, emb) if mine else frozenset()
        if sims[i] <= 0.0 and not (mine & theirs):
            continue  # unlike in words and of another kind; one of its own kind votes however unlike
        if mine and theirs and not mine & theirs and cosines[i] < CROSS_KIND_MIN and not lex_kin[i]:
            continue
        shared = len(mine & theirs) + lex_shared[i]
        if my_mods and my_mods & _modifiers(cmap, pool[i].subject):
            shared += MODIFIER_BONUS
        kin = shared > 0 or lex_kin[i]  # of its kind; an attribute shared alone is not (a red car, a red apple)
        if my_attrs:
            their_attrs = _attrs(cmap, pool[i].subject)
            shared += ATTR_BONUS * len(my_attrs & their_attrs)
            if _contrast(cmap, my_attrs, their_attrs):
                contrast.add(i)
        order.append((i, shared, kin))
    # "not known" is decided by the vectors, or by a specific kind WordNet says the nearest shares: WordNet
    # alone relates any two artifacts (a weather vane and a violin are both devices)
    nearest = order[0][0] if order else -1
    if not order or (float(cosines[nearest]) < MIN_SIMILARITY and not (
            float(sims[nearest]) >= MIN_SIMILARITY and lex_kin[nearest])):
        # nothing close in words: examples of the same kind (a category of the map, or a specific WordNet
        # kind, shared with the object) still say where such things go — a wooden block goes with the toy
        # car, however unlike their words are; with none of its kind, "not known"
        order = [o for o in order if o[2]]
        if not order:
            return None
    explained = _explained(cmap, mine, my_attrs, pool, [i for i, _, _ in order], emb) if mine else set()
    weights: dict[str, float] = {}
    voters: dict[str, list[tuple[Example, float]]] = {}
    for i, shared, _ in order:
        s = max(float(sims[i]), KIN_FLOOR)
        r = pool[i].receptacle_key
        # an object of no known kind: its similarity is all there is, and one close example outweighs
        # several far ones
        weight = s if mine else s ** UNKNOWN_POWER
        weights[r] = weights.get(r, 0.0) + weight * KIND_BASE ** shared * (EXPLAINED if i in explained else 1.0) * (
            CONTRAST if i in contrast else 1.0)
        voters.setdefault(r, []).append((pool[i], s))
    # the most weight; a tie goes to the receptacle whose best voter ranked first (the dict keeps that order)
    best = max(weights, key=lambda r: round(weights[r], 9))
    share = weights[best] / sum(weights.values())
    top = voters[best][0][1]
    return Vote(receptacle_key=best, voters=voters[best], share=round(share, 3),
                confidence=round(min(share * top, MAX_CONFIDENCE), 3))
