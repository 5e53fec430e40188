"""What a thing is for, read from WordNet's definitions rather than a table of uses.

"Where can I write?" wants the desk ("a piece of furniture with a writing surface"), "is there anything to
tell the time?" the clock ("a timepiece that shows the time of day"), "where can I store clothes?" the closet
("a small room or cabinet used for storage space"), "where can I get water?" the sink or the tap. No table
written here lists every use of every household thing in every wording; WordNet's glosses say what most of
them are for, in words people use. A use said in a request is scored against each label memory holds by:

* the MiniLM similarity of the use ("store clothes") and the label's definition ("closet: a small room ...");
* the gloss naming the use's own words: the verb or a form of it (write -> writing, store -> storage, by
  shared stem), or a kind the thing said belongs to (a shirt is a garment, clothing);
* the purposes table of ``config/language/names.yaml`` (a label named for the use: a sponge, to clean), the
  strongest evidence there is.

Places (furniture, fixtures, appliances, rooms, bins: what one goes to) are told from small things (what one
picks up) by WordNet's kinds and by what memory holds on or in them, so "where can I read?" offers a sofa,
not the book. Scores are comparable across labels of one request only; ``USE_FLOOR`` keeps a use nothing fits
from naming the least unlikely thing.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..core.embedding import default_embedder
from ..core.text import norm, singular
from ..core.wordnet import default_wordnet
from .names import Names, default_names

USE_FLOOR = 0.38  # below this similarity + evidence nothing is offered (measured: unrelated pairs sit at 0.1-0.35)
USE_MARGIN = 0.06  # labels within this of the best are offered together (a chair and a sofa, to sit)
SURE_USE = 0.62  # a fit this good is said plainly; below it the reply asks whether that will do
SEAT_OFFER = 0.4  # the score of a seat offered for a doing nothing is made for (always asked about)
TABLE_WEIGHT = 0.3  # a label the purposes table names for the use
STEM_WEIGHT = 0.12  # each word of the use (or a kind of the thing said) the gloss names, at most two
MAX_GLOSSES = 2
WARM_BATCH = 4  # labels embedded per batch when warming: a request waits for the encoder at most one batch
# where one gets a thing is named for the thing ("a water basin"): the thing's words count for such places
GETTING_VERBS = frozenset({"get", "fetch", "obtain", "find", "fill", "draw"})
KIND_STEPS = 3  # a shirt -> garment -> clothing; further up is too general to say what a thing is for
# kinds of things one goes to rather than picks up (WordNet noun phrases)
PLACE_KINDS = ("furniture", "home appliance", "plumbing fixture", "room", "bin", "storage space", "fixture",
               "white goods")
# gloss words that say nothing about a use (every artifact is "used", a "piece" of something, "a device")
_EMPTY = frozenset({"used", "use", "using", "piece", "device", "thing", "object", "something", "usually", "often",
                    "especially", "consisting", "made", "one", "two", "form", "kind", "type", "part", "also", "etc",
                    "with", "that", "which", "from", "into", "for", "the", "and", "or", "of", "in", "on", "to", "a",
                    "an", "as", "by", "at", "its", "it", "is", "are", "be", "can", "may", "you", "your", "my", "i",
                    "me", "we", "our", "some", "any", "anything", "somewhere", "where", "what", "up", "out", "down",
                    "off", "over", "away", "get", "have", "put", "let", "like", "small", "large", "new"})
_WORD = re.compile(r"[a-z]+")
_STRANDED = re.compile(r"\b(?:of|from|with|off|in|into|on|onto|out)$", re.I)  # a use ending in its preposition
# WordNet kinds of what is eaten or drunk, and the uses food serves (any other use is not food's)
FOOD_KINDS = frozenset({"food", "foodstuff", "nutriment", "beverage", "dish", "meal", "produce", "edible_fruit",
                        "helping"})  # (a helping: "a quantity of food taken as part of a meal": a cutlet, a slice)
CONSUMING_VERBS = frozenset({"eat", "drink", "snack", "cook", "bake", "fry", "boil", "heat", "warm", "make", "prepare",
                             "feed", "taste", "munch", "nibble", "chew", "sip", "serve", "bite", "have", "quench",
                             "fill", "hydrate", "refresh", "nourish", "season", "sweeten", "flavour", "flavor"})


@dataclass(frozen=True)
class UseFit:
    label: str
    score: float
    why: str  # the gloss it rests on, for the reply ("a piece of furniture with a writing surface")
    names_verb: bool = False  # the gloss says the doing itself ("a towel ... for drying or wiping")


@lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    # Snowball is pure Python (~50 us a word) and a rank stems the same few words for every label
    from nltk.stem.snowball import SnowballStemmer  # pure Python, no data files

    return _stemmer(SnowballStemmer)(word)


@lru_cache(maxsize=1)
def _stemmer(cls: type) -> object:
    return cls("english").stem


def _same_stem(a: str, b: str) -> bool:
    """write/writing, store/storage, dry/drying, warm/warmth: one stem, or one a prefix of the other's with
    at most one letter left over (stems of four letters or more only: "bed" and "bedding" stay apart)."""
    if a == b:
        return True
    if min(len(a), len(b)) < 4:
        return False
    short, long_ = sorted((a, b), key=len)
    common = 0
    for x, y in zip(short, long_):
        if x != y:
            break
        common += 1
    return common >= 4 and common >= len(short) - 1


_ASKING = re.compile(r"^\W*(?:(?:so|and|ok|okay|hey|um|uh|please|robot)\W+)*(?:(?:where|what|which|how)\s+(?:else\s+|exactly\s+)?"
                     r"|is there \w+ |are there \w+ )?(?:(?:can|could|should|shall|may|might|would|do|does)\s+)?"
                     r"(?:(?:i|we|one|you|someone|somebody)\s+)?(?:(?:can|could|should|use|go)\s+)?(?:to\s+)?", re.I)


def activity_of(text: str) -> str:
    """"Where can I lay down and read a book?" -> "lay down and read a book": the use, without the asking."""
    said = " ".join(text.split()).rstrip("?.! ")
    rest = _ASKING.sub("", said, count=1).strip()
    return rest or said


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _EMPTY and len(w) > 2]


class Uses:
    """Labels scored against a use, with each label's definition and place-ness cached per process."""

    def __init__(self, names: Names | None = None) -> None:
        self.names = names or default_names()
        self.wordnet = default_wordnet()
        self._lock = threading.Lock()
        self._gloss: dict[str, tuple[str, str]] = {}
        self._vec: dict[str, np.ndarray] = {}
        self._place: dict[str, bool] = {}
        self._food: dict[str, bool] = {}
        self._stem_cache: dict[str, frozenset[str]] = {}

    # ---- what a label is -----------------------------------------------------------------------------

    def _phrases(self, label: str) -> tuple[str, ...]:
        """The ways WordNet may list a label: whole, as the words it is glued from, cut in two where WordNet
        knows the two-word phrase ("garbagecan" -> garbage can), and its last word."""
        words = self.names.label_words(label)
        key = norm(label)
        cuts = tuple(f"{key[:i]} {key[i:]}" for i in range(3, len(key) - 2)) if key.isalpha() and len(key) <= 24 \
            else ()
        return tuple(dict.fromkeys((key, " ".join(words), *cuts, words[-1])))

    def _senses(self, label: str) -> tuple:
        if self.wordnet is None:
            return ()
        for phrase in self._phrases(label):
            ss = self.wordnet.label_senses(phrase)
            if ss:
                return ss[:MAX_GLOSSES]
        return ()

    def gloss(self, label: str) -> str:
        """"desk: a piece of furniture with a writing surface ..." (the label's words when WordNet has none)."""
        return self._texts(label)[1]

    def _texts(self, label: str) -> tuple[str, str]:
        """The label's own definition, and the definition with its kind's added."""
        with self._lock:
            cached = self._gloss.get(label)
        if cached is None:
            words = " ".join(self.names.label_words(label))
            senses = self._senses(label)
            defs = [s.definition() for s in senses]
            # the kind it is says what it is for where its own gloss is narrow ("a refrigerator in which the
            # coolant is pumped around ...": a refrigerator is "white goods in which food can be stored ...")
            # (only where it has one kind: "toothbrush" is a brush and a toiletry, which WordNet's reader returns
            # in no fixed order; taking the first made a use's answer change with the process's hash seed)
            kinds = senses[0].hypernyms() if senses else []
            kind = [kinds[0].definition()] if len(kinds) == 1 else []
            cached = (f"{words}: " + "; ".join(defs) if defs else words,
                      f"{words}: " + "; ".join(defs + kind) if defs else words)
            with self._lock:
                self._gloss[label] = cached
        return cached

    def is_place(self, label: str) -> bool:
        """Something one goes to (furniture, a fixture, an appliance, a room, a bin), by WordNet's kinds."""
        with self._lock:
            cached = self._place.get(label)
        if cached is None:
            cached = self.wordnet is not None and any(
                self.wordnet.is_kind_of(phrase, kind) is not None
                for phrase in self._phrases(label) if self.wordnet.label_senses(phrase) for kind in PLACE_KINDS)
            with self._lock:
                self._place[label] = cached
        return cached

    def is_food(self, label: str) -> bool:
        """Something eaten or drunk, by the kinds of its household senses (a cutlet, a bread slice, juice)."""
        with self._lock:
            cached = self._food.get(label)
        if cached is None:
            cached = self.wordnet is not None and any(
                k.name().split(".")[0] in FOOD_KINDS for sense in self._senses(label)[:1]
                for k in self.wordnet.ancestors(sense))
            with self._lock:
                self._food[label] = cached
        return cached

    def _vectors(self, labels: Sequence[str]) -> np.ndarray:
        """Two unit vectors per label: its own definition, and with its kind's (the better fit counts)."""
        todo = [lb for lb in dict.fromkeys(labels) if lb not in self._vec]
        if todo:
            m = default_embedder().encode([t for lb in todo for t in self._texts(lb)])
            m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
            with self._lock:
                self._vec.update((lb, m[2 * i:2 * i + 2]) for i, lb in enumerate(todo))
        return np.stack([self._vec[lb] for lb in labels])

    def _kinds_of(self, nouns: Iterable[str]) -> set[str]:
        """The words of the kinds the said nouns are (a shirt: garment, clothing, clothes), to find them named
        in a gloss ("storage space for clothes")."""
        out: set[str] = set()
        if self.wordnet is None:
            return out
        for n in nouns:
            # the household senses first: "fruit" the food, not the seed-bearing part of a plant
            for sense in self.wordnet.label_senses(n)[:MAX_GLOSSES]:
                for kind, d in self.wordnet.ancestors(sense).items():
                    if d <= KIND_STEPS:
                        for lemma in kind.lemma_names():
                            out.update(content_words(lemma.replace("_", " ")))
        return out

    def warm(self, labels: Iterable[str]) -> int:
        """Read and embed these labels' definitions now (a node does it for what memory holds at start-up,
        off the request path: ~20-50 ms a label on this CPU), so a request pays only for labels new to it."""
        labels = sorted(set(labels))
        for label in labels:
            self.is_place(label)
            self._stems(label)
        for i in range(0, len(labels), WARM_BATCH):
            self._vectors(labels[i:i + WARM_BATCH])
        return len(labels)

    def _stems(self, label: str) -> frozenset[str]:
        """The stems of the label's definition (with its kind's), cached: stemming is most of a warm rank."""
        with self._lock:
            cached = self._stem_cache.get(label)
        if cached is None:
            gloss = self.gloss(label)
            definition = gloss.split(":", 1)[1] if ":" in gloss else ""
            cached = frozenset(_stem(w) for w in content_words(definition))
            with self._lock:
                self._stem_cache[label] = cached
        return cached

    # ---- scoring -------------------------------------------------------------------------------------

    def rank(self, use: str, labels: Iterable[str], verb: str = "", nouns: Sequence[str] = (),
             place: bool = False, holders: frozenset[str] = frozenset(),
             receptacle: bool = False) -> list[UseFit]:
        """The labels that serve ``use`` ("store clothes"), best first, those within ``USE_MARGIN`` of the best
        and above ``USE_FLOOR`` only. ``verb`` is the use's verb, ``nouns`` the things it names; with
        ``place`` only what one goes to counts (``holders``: labels memory saw things on or in), never the
        thing the use names ("where can I read a book?" is not answered with the book). ``receptacle``:
        the use is keeping the named things (their kinds in a gloss count: "storage space for clothes")."""
        labels = sorted(set(labels))
        verb_word = verb.split()[0] if verb else ""
        said = {norm(n) for n in nouns} | {singular(norm(n)) for n in nouns}
        # the things the use names are what it is done to, never what serves it ("clean the counter")
        labels = [lb for lb in labels if not said & {norm(lb), self.names.label_words(lb)[-1]}]
        getting = verb_word in GETTING_VERBS
        # "drink out of", "eat with": the thing is the vessel or the tool, never what is drunk or eaten
        instrument = bool(_STRANDED.search(use.strip())) and verb_word in CONSUMING_VERBS
        if verb_word and (verb_word not in CONSUMING_VERBS or instrument) and not getting:
            # food is eaten, not used as a tool: cutlets do not cut, though WordNet says they "have been cut"
            labels = [lb for lb in labels if not self.is_food(lb) or
                      (not instrument and self.names.serves(verb_word, lb) >= 1.0)]
        if place and not getting:  # where one gets water may be a tap or a bottle: anything that gives it
            # a place for doing something with a thing is not where that thing is kept (a bookshelf, to read)
            labels = [lb for lb in labels if (lb in holders or self.is_place(lb))
                      and not said & set(self.names.label_words(lb))]
        if not labels or not use.strip():
            return []
        # a place is for the doing whatever it is done to ("write a letter": a writing surface), so the verb
        # alone is matched too, and the better of the two counts
        queries = [use, verb_word] if place and verb_word and verb_word != use.strip() else [use]
        q = default_embedder().encode(queries)
        q = q / np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-9)
        sims = (self._vectors(labels) @ q.T).max(axis=(1, 2))
        # a place is named for the doing ("a writing surface"), not for the things it holds ("keep books")
        use_stems = {_stem(w) for w in (verb.split() if place and verb and not getting else content_words(use))}
        kind_stems = set() if place and not receptacle else {_stem(w) for w in self._kinds_of(nouns)} - use_stems
        verb_stem = _stem(verb_word) if verb_word else ""
        fits = []
        served_labels: set[str] = set()  # labels the purposes table names for the use
        for label, sim in zip(labels, sims):
            g_stems = self._stems(label)
            named = sum(1 for u in use_stems if any(_same_stem(u, g) for g in g_stems))
            named += sum(1 for k in kind_stems if k in g_stems)
            score = float(sim) + STEM_WEIGHT * min(named, 2)
            table = self.names.serves(verb_word, label) if verb_word and not instrument else 0.0
            score += TABLE_WEIGHT * table
            if table >= 1.0:
                served_labels.add(label)
            own = self._texts(label)[0]
            says_verb = bool(verb_stem) and any(_same_stem(verb_stem, g) for g in g_stems)
            fits.append(UseFit(label, score, own.split(":", 1)[1].strip() if ":" in own else "", says_verb))
        fits.sort(key=lambda f: (-f.score, f.label))
        if not fits:
            return []
        served = [f for f in fits if f.label in served_labels]
        if served and not receptacle:
            # what the table names for a use ("eat": every food; "wash": a sink) all serve it; which of the
            # storage furniture it names keeps *these* things is for the glosses to say
            return served
        best = fits[0].score
        if best < USE_FLOOR:
            return []
        return [f for f in fits if f.score >= best - USE_MARGIN]


@lru_cache(maxsize=1)
def default_uses() -> Uses:
    return Uses()
