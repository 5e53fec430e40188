"""WordNet 3.0, read offline: which nouns name the same thing, a kind of it, or a part of it.

People call things by names no label table lists ("pants", "specs", "telly", "bin"); memory's labels are
class names from mappers and datasets ("trousers", "garbagecan", "tv"). WordNet (Princeton, 3.0) relates
them without a hand table: synonyms share a synset ("specs" and "spectacles"), a kind is a hyponym
("a bin" covers a garbage can: ashcan -> bin), and meronymy says what a thing has as parts.

The database is the Debian package ``wordnet-base`` (``scripts/setup.sh`` installs it), read with nltk's
``WordNetCorpusReader``; nothing is downloaded. Debian leaves out the ``lexnames`` file the reader wants
(the names of WordNet's 45 lexicographer files); it is rebuilt from the package's own ``lexnames(5WN)``
manual page. Only the noun index is loaded (~1 s instead of ~8 s for all four), and every lookup is cached
per distinct word, so a request pays for each word once per process.

Only "physical" senses count (artifacts, food, plants, animals, natural objects, substances, and the top
nodes such as ``object``): "monitor" the person or "drawer" the draughtsman never match a household thing.
"""

from __future__ import annotations

import gzip
import math
import io
import logging
import os
import re
import threading
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

WORDNET_DIRS = (os.environ.get("MEMORY_NODE_WORDNET", ""), "/usr/share/wordnet")
LEXNAMES_MAN = "/usr/share/man/man5/lexnames.5WN.gz"
# WordNet's lexicographer files of things a robot can see, hold or walk up to
PHYSICAL_LEXNAMES = frozenset({"noun.artifact", "noun.food", "noun.plant", "noun.animal", "noun.object",
                               "noun.substance", "noun.Tops"})
HOUSEHOLD_LEXNAMES = frozenset({"noun.artifact", "noun.food"})
# lexicographer files of nouns that are no thing at all (a game played, trouble, a feeling); not documents
# ("book", "greeting card": noun.communication), possessions or quantities, which a home holds as things
NOT_THING_LEXNAMES = frozenset({"noun.act", "noun.event", "noun.state", "noun.process", "noun.phenomenon",
                                "noun.feeling", "noun.cognition", "noun.attribute", "noun.time", "noun.motive",
                                "noun.relation"})
MAX_SENSES = 4  # the commoner senses of a word only: rare ones relate too much ("plate" the home base)
MAX_HYPONYM_DISTANCE = 4  # "food" -> an apple is 3 steps; further is a different thing in practice
MAX_PART_DEPTH = 4
MIN_KIND_DEPTH = 4  # kinds nearer WordNet's root than this ("object", "whole") say nothing about a thing ...
MAX_KINDS_BELOW = 3000  # ... nor do kinds with more than this many kinds below them ("artifact", "device")
MAX_CACHED_WORDS = 200_000  # a thing's parts may be listed on one of its kinds (a car door, of any car)
# regular endings of verbs and adjectives and the lemma each comes from (WordNet's morphy rules)
_INFLECTIONS = (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
                ("ing", ""), ("er", ""), ("er", "e"), ("est", ""), ("est", "e"))
_POS_OF = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


@dataclass(frozen=True)
class Relation:
    """How a said noun relates to a label: ``synonym`` (a shared synset), ``hypernym`` (the said noun is a
    kind the label is one of: "bin" for a garbage can), ``hyponym`` (the said noun is a narrower kind of the
    label: "armchair" for a chair), with the number of is-a steps between them."""

    how: str
    distance: int
    said: str  # the synsets' names, for explanations ("ashcan.n.01")
    label: str
    said_rank: int = 0  # which of the said noun's senses, commonest first (0): "stool" is a toilet by its 4th


def _lexnames_text() -> str:
    """The ``lexnames`` file (``NN<TAB>name<TAB>pos``) from the manual page Debian ships with the data."""
    with gzip.open(LEXNAMES_MAN, "rt", encoding="utf-8", errors="replace") as fh:
        rows = re.findall(r"^(\d\d)\t([a-z]+\.[A-Za-z]+)", fh.read(), re.M)
    if len(rows) < 45:
        raise OSError(f"{LEXNAMES_MAN}: {len(rows)} lexicographer files found, WordNet 3.0 has 45")
    return "".join(f"{n}\t{name}\t{_POS_OF[name.split('.')[0]]}\n" for n, name in rows)


def _reader(root: str) -> Any:
    import nltk
    from nltk.corpus.reader.wordnet import NOUN, VERB, WordNetCorpusReader

    if root not in nltk.data.path:
        nltk.data.path.append(root)  # nltk reads corpora only from folders on its data path
    lexnames = _lexnames_text()

    class DebianWordNet(WordNetCorpusReader):  # type: ignore[misc]
        def open(self, fileid: str) -> Any:  # noqa: A003 - nltk's name
            if fileid == "lexnames":
                return io.StringIO(lexnames)
            return super().open(fileid)

        def map_wn(self, version: str = "wordnet") -> None:
            return None  # the mapping to other WordNet versions is for multilingual data, not used here

        def _scan_satellites(self) -> None:
            self.satellite_offsets = set()  # adjective satellites: nouns only here

        def _load_lemma_pos_offset_map(self) -> None:
            # index.noun and index.verb (lemma pos n_synsets n_pointers ptr... n_senses tagged offsets...): nouns
            # for things, verbs for what a use said in other words means ("mop it up": to wash or wipe)
            for name, pos in (("index.noun", NOUN), ("index.verb", VERB)):
                with self.open(name) as fp:
                    for line in fp:
                        if line.startswith(" "):
                            continue
                        f = line.split()
                        n, p = int(f[2]), int(f[3])
                        self._lemma_pos_offset_map[f[0]][pos] = [int(x) for x in f[6 + p:6 + p + n]]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available": not wanted
        return DebianWordNet(root, None)


def wordnet_dir() -> str:
    """The folder holding WordNet's ``index.noun``, or "" when none is installed."""
    return next((d for d in WORDNET_DIRS if d and (Path(d) / "index.noun").is_file()), "")


class WordNet:
    """Cached noun lookups over one WordNet reader (thread-safe: the reader's file handles are shared)."""

    def __init__(self, root: str | None = None) -> None:
        root = root or wordnet_dir()
        if not root:
            raise OSError("WordNet 3.0 is not installed (Debian package wordnet-base; scripts/setup.sh)")
        self._wn = _reader(root)
        self._root = root
        self._other_words: tuple[frozenset[str], frozenset[str]] | None = None
        self._adverbs: frozenset[str] | None = None
        self._lock = threading.RLock()
        self._senses: dict[str, tuple[Any, ...]] = {}
        self._up: dict[Any, dict[Any, int]] = {}
        self._kind_of: dict[tuple[str, str, int], int | None] = {}
        self._label_senses: dict[str, tuple[Any, ...]] = {}
        self._ic: dict[Any, float] = {}
        self._gloss: dict[str, frozenset[str]] = {}
        self._is_kind: dict[tuple[str, str, int], bool] = {}
        self._nouns: dict[str, tuple[Any, ...]] = {}
        self._classes: dict[tuple[str, str], tuple[str, ...]] = {}
        self._n_synsets = 0

    # ---- senses ----------------------------------------------------------------------------------------

    def senses(self, phrase: str) -> tuple[Any, ...]:
        """The physical noun senses of a phrase ("trash can", "wineglass", "pants"), commonest first; the
        phrase whole only (a compound WordNet does not list has none: its head is the caller's business)."""
        k = "_".join(phrase.lower().split())
        cached = self._senses.get(k)
        if cached is None:
            with self._lock:
                try:
                    found = self._wn.synsets(k, pos="n")
                except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                    found = []
            cached = tuple(s for s in found if s.lexname() in PHYSICAL_LEXNAMES)[:MAX_SENSES]
            if len(self._senses) > MAX_CACHED_WORDS:
                self._senses.clear()  # words said are unbounded (typos, junk): the cache is not
            self._senses[k] = cached
        return cached

    def label_senses(self, phrase: str) -> tuple[Any, ...]:
        """The senses a memory label has in a home: a label is a class of things a mapper saw in a house,
        so where it names an artifact or a food its plant and animal senses go ("mouse" the device, "box"
        the container, "bananas" the fruit; an "orchid" stays a plant), and of several senses the ones
        WordNet's tagged corpus uses at least half as often as the commonest ("closet" the cupboard, not
        the water closet)."""
        k = "_".join(phrase.lower().split())
        cached = self._label_senses.get(k)
        if cached is None:
            ss = self.senses(phrase)
            home = tuple(s for s in ss if s.lexname() in HOUSEHOLD_LEXNAMES)
            ss = home or ss
            with self._lock:
                counts = [sum(lm.count() for lm in s.lemmas() if lm.name().lower() == k) for s in ss]
            top = max(counts, default=0)
            if top >= 2:
                ss = tuple(s for s, c in zip(ss, counts) if 2 * c >= top)
            cached = self._label_senses[k] = tuple(ss)
        return cached

    def known(self, phrase: str) -> bool:
        return bool(self.senses(phrase))

    def household(self, phrase: str) -> bool:
        """Whether WordNet lists the phrase as an artifact or a food (a thing a home keeps), not only as a
        plant, an animal or a substance ("leatherjacket" is a fish and a grub)."""
        return any(s.lexname() in HOUSEHOLD_LEXNAMES for s in self.senses(phrase))

    def body_part(self, word: str) -> bool:
        """The word's commonest noun sense is a part of the body ("hands", "back", "feet"): "I've got my
        hands full" names no thing to carry."""
        ss = self.noun_senses(word)
        with self._lock:
            return bool(ss) and ss[0].lexname() == "noun.body"

    def names_a_person(self, word: str, animal: bool = False) -> bool:
        """The word's commonest noun sense is a person (or, with ``animal``, an animal) and neither of its two
        commonest a household thing: "mate", "hero", "sir", "oracle" can be said to someone ("chuck us the
        mug, mate"); "printer" and "toast" are things first or too (a list "bread, butter, toast" names no one)."""
        ss = self.noun_senses(word)
        kinds = ("noun.person", "noun.animal") if animal else ("noun.person",)
        with self._lock:
            return bool(ss) and ss[0].lexname() in kinds \
                and not any(s.lexname() in HOUSEHOLD_LEXNAMES for s in ss[:2])

    def verbs_meant(self, verb: str) -> tuple[str, ...]:
        """Other verbs a verb's commonest sense is said in: its synonyms and the verbs of its definition ("mop":
        swab, mop up; "to wash or wipe with or as if with a mop": wash, wipe)."""
        v = verb.lower().strip()
        with self._lock:
            try:
                senses = self._wn.synsets(v, pos="v")[:1]  # the commonest sense ("mop": not the face one pulls)
            except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                return ()
            out: list[str] = []
            for ss in senses:
                out += [n.replace("_", " ") for n in ss.lemma_names()]
                for w in re.findall(r"[a-z]+", ss.definition().lower()):
                    if w != v and len(w) > 2 and self._wn._lemma_pos_offset_map.get(w, {}).get("v"):
                        out.append(w)
        return tuple(w for w in dict.fromkeys(out) if w != v and w not in _LIGHT_VERBS)

    def sense_classes(self, word: str, pos: str) -> tuple[str, ...]:
        """What the learned reader may know a word by when it never saw the word itself: for a verb, its two
        commonest senses and their kinds two steps up ("cruise" -> travel, as "go" and "walk" are; "snag" ->
        obtain, get) and their lexicographer files (verb.motion); for a noun, the files of its two commonest
        senses (noun.artifact, noun.food, noun.location). Two senses, because the commonest alone is often not
        the household one ("snag" catches on something first). ``pos`` is "v" or "n"; () for words WordNet
        does not know."""
        key = (word.lower(), pos)
        cached = self._classes.get(key)
        if cached is not None:
            return cached
        out: list[str] = []
        with self._lock:
            try:
                commonest = self._wn.synsets(key[0], pos=pos)[:2]
            except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                commonest = []
            for ss in commonest:
                out.append(ss.lexname())
                if pos == "v":
                    level = [ss]
                    for _ in range(2):
                        out += [s.name() for s in level]
                        level = [h for s in level for h in s.hypernyms()]
                    out += [s.name() for s in level]
        cached = tuple(dict.fromkeys(out))
        if len(self._classes) > MAX_CACHED_WORDS:
            self._classes.clear()  # words said are unbounded (typos, junk): the cache is not
        self._classes[key] = cached
        return cached

    def verb_base(self, word: str) -> str:
        """The verb an inflected form is of ("sitting" -> "sit", "writing" -> "write"), by WordNet's own
        morphology; "" when WordNet knows no such verb."""
        with self._lock:
            try:
                return self._wn.morphy(word.lower(), "v") or ""
            except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                return ""

    def verb_bases(self, word: str) -> tuple[str, ...]:
        """Every verb an inflected form may be of, by WordNet's morphology and its exception lists ("found" ->
        found, find; "checked" -> check): the caller picks (a past tense wants the one it is not)."""
        with self._lock:
            try:
                return tuple(self._wn._morphy(word.lower(), "v"))
            except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                return ()

    def any_noun(self, word: str) -> bool:
        """WordNet lists the word as a noun in any sense (a time, a place, a feeling too): "day" in
        "daybed" is no physical thing but a word all the same."""
        k = "_".join(word.lower().split())
        with self._lock:
            try:
                return bool(self._wn._lemma_pos_offset_map.get(k, {}).get("n")) or bool(self._wn.morphy(k, "n"))
            except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                return False

    def adverb(self, word: str) -> bool:
        """WordNet lists the word as an adverb ("still", "back", "counter"): after a noun it may say how or when."""
        with self._lock:
            if self._adverbs is None:  # the reader loads the noun and verb indexes only: read once on first use
                try:
                    text = (Path(self._root) / "index.adv").read_text(encoding="utf-8", errors="replace")
                except OSError:
                    text = ""
                self._adverbs = frozenset(line.split(" ", 1)[0] for line in text.splitlines()
                                          if line and not line.startswith(" "))
            return word.lower() in self._adverbs

    def is_word(self, word: str) -> bool:
        """The word is a WordNet lemma of any part of speech, inflected or not ("chopped", "bigger",
        "remaining", "other", "kitchen"): a word, not letters that happen to stand before another word."""
        w = word.lower()
        if not w.isalpha():
            return False
        return self.any_noun(w) or self._other_pos(w)

    def only_noun(self, word: str) -> bool:
        """WordNet lists the word as a noun and as nothing else ("goodies", "kettle"; not "locked", "bring")."""
        w = word.lower()
        return w.isalpha() and self.any_noun(w) and not self._other_pos(w)

    def _other_pos(self, w: str) -> bool:
        """A verb, adjective or adverb of WordNet's, inflected or not."""
        lemmas, inflected = self._words_not_nouns()
        return w in lemmas or w in inflected or any(
            w.endswith(end) and w[:len(w) - len(end)] + base in lemmas for end, base in _INFLECTIONS)

    def _words_not_nouns(self) -> tuple[frozenset[str], frozenset[str]]:
        """Lemmas of WordNet's verb, adjective and adverb indexes, and the irregular forms of its exception
        lists: read once on first use (the reader loads the noun index only)."""
        with self._lock:
            if self._other_words is None:
                lemmas: set[str] = set()
                inflected: set[str] = set()
                for pos in ("verb", "adj", "adv"):
                    for name, into in ((f"index.{pos}", lemmas), (f"{pos}.exc", inflected)):
                        try:
                            text = (Path(self._root) / name).read_text(encoding="utf-8", errors="replace")
                        except OSError:
                            continue
                        into.update(line.split(" ", 1)[0] for line in text.splitlines()
                                    if line and not line.startswith(" "))
                self._other_words = (frozenset(lemmas), frozenset(inflected))
            return self._other_words

    def noun_senses(self, phrase: str) -> tuple[Any, ...]:
        """Every noun sense of a phrase, physical or not ("guidebook": a publication), commonest first."""
        k = "_".join(phrase.lower().split())
        cached = self._nouns.get(k)
        if cached is None:
            with self._lock:
                try:
                    cached = tuple(self._wn.synsets(k, pos="n"))
                except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                    cached = ()
            if len(self._nouns) > MAX_CACHED_WORDS:
                self._nouns.clear()
            self._nouns[k] = cached
        return cached

    def names_no_thing(self, phrase: str) -> bool:
        """WordNet lists the phrase as a noun, and only as an activity, a state or the like ("ball game",
        "hot water": trouble), never as a thing, a document, a possession or an amount."""
        ss = self.noun_senses(phrase)
        with self._lock:
            return bool(ss) and all(s.lexname() in NOT_THING_LEXNAMES for s in ss)

    def is_kind(self, phrase: str, kind: str, max_distance: int = MAX_HYPONYM_DISTANCE, broader: int = 0) -> bool:
        """Some noun sense of ``phrase`` is a sense of ``kind`` or a kind of one within ``max_distance``
        is-a steps, over all noun senses, not only physical ones: a guidebook is a book (a publication), a
        coffeepot a pot, an earphone a phone (one synset); a megaphone is no phone, a nutcracker no cracker.
        With ``broader``, a kind of what ``kind`` is, up to that many steps, counts too: a sailboat is a
        vessel, as a boat is (WordNet's boat is a small vessel, its sailboat a sailing vessel)."""
        memo = ("_".join(phrase.lower().split()), "_".join(kind.lower().split()), broader)
        cached = self._is_kind.get(memo)
        if cached is None:
            wholes, kinds = self.noun_senses(phrase), set(self.noun_senses(kind))
            # with ``broader``, the kinds a sense of ``kind`` is, up to that many steps, count too
            kinds |= {k for s in list(kinds) for k, d in self._ancestors(s).items() if 0 < d <= broader}
            cached = any(d <= max_distance for w in wholes for s, d in self._ancestors(w).items() if s in kinds)
            if len(self._is_kind) > MAX_CACHED_WORDS:
                self._is_kind.clear()
            self._is_kind[memo] = cached
        return cached

    def gloss_words(self, synset_name: str) -> frozenset[str]:
        """The words of a sense's definition and usage examples ("stand.n.04": a small table for holding
        articles of various kinds; "a small table for holding articles"), lower case."""
        cached = self._gloss.get(synset_name)
        if cached is None:
            with self._lock:
                try:
                    s = self._wn.synset(synset_name)
                    text = " ".join([s.definition(), *s.examples()])
                except Exception:  # noqa: BLE001 - an unknown name has no gloss
                    text = ""
            cached = self._gloss[synset_name] = frozenset(re.findall(r"[a-z]+", text.lower()))
        return cached

    def lemmas(self, phrase: str) -> list[str]:
        """Synonyms of the phrase's senses ("specs" -> spectacles, eyeglasses, glasses), commonest first."""
        out: dict[str, None] = {}
        for s in self.senses(phrase):
            with self._lock:
                names = s.lemma_names()
            for n in names:
                out.setdefault(n.replace("_", " ").lower())
        out.pop(" ".join(phrase.lower().split()), None)
        return list(out)

    def ancestors(self, synset: Any) -> dict[Any, int]:
        return self._ancestors(synset)

    def _ancestors(self, synset: Any) -> dict[Any, int]:
        """Every hypernym (instance hypernyms too) with its fewest is-a steps, the synset itself at 0."""
        cached = self._up.get(synset)
        if cached is None:
            cached, frontier, d = {synset: 0}, [synset], 0
            with self._lock:
                while frontier and d < 12:
                    d += 1
                    nxt = []
                    for s in frontier:
                        for h in (*s.hypernyms(), *s.instance_hypernyms()):
                            if h not in cached:
                                cached[h] = d
                                nxt.append(h)
                    frontier = nxt
            self._up[synset] = cached
        return cached

    def neighbours(self, synset: Any, up: int, down: int, max_below: int) -> list[tuple[Any, int, bool]]:
        """The kinds near a synset as (kind, is-a steps, narrower?): itself (0), broader ones up to ``up``
        steps and narrower ones down to ``down`` steps, nearest first; the narrower ones only when there
        are at most ``max_below`` of them (a broad word's narrower kinds are too many and too varied to
        say what it is, and counting them is what costs)."""
        out = sorted(((s, d, False) for s, d in self._ancestors(synset).items() if d <= up),
                     key=lambda x: (x[1], x[0].name()))  # (by name within a step: WordNet's reader has no order)
        below: list[tuple[Any, int, bool]] = []
        frontier, d = [synset], 0
        with self._lock:
            while frontier and d < down:
                d += 1
                frontier = [h for s in frontier for h in sorted(s.hyponyms(), key=lambda x: x.name())]
                below.extend((h, d, True) for h in frontier)
                if len(below) > max_below:
                    return out
        return out + below

    def lemma_names(self, synset: Any) -> list[str]:
        """A synset's lemma names as WordNet writes them ("cooking_utensil")."""
        with self._lock:
            return synset.lemma_names()

    def verb_is_a(self, verb: str, kinds: frozenset[str], steps: int = 1) -> bool:
        """Whether the commonest sense of ``verb`` is one of the synsets ``kinds`` ("pull.v.01") or a kind of one
        within ``steps`` is-a steps ("haul": to draw slowly or heavily, a kind of pulling)."""
        with self._lock:
            try:
                senses = self._wn.synsets(verb.lower().strip(), pos="v")[:1]
            except Exception:  # noqa: BLE001 - a malformed word is simply not in WordNet
                return False
            level = senses
            for _ in range(steps + 1):
                if any(s.name() in kinds for s in level):
                    return True
                level = [h for s in level for h in s.hypernyms()]
        return False

    def hypernyms(self, phrase: str, depth: int = 3) -> list[str]:
        """The kinds the phrase's commonest sense is ("garbage can" -> bin, container), nearest first."""
        ss = self.senses(phrase)
        if not ss:
            return []
        up = self._ancestors(ss[0])
        return [_name(s) for s, d in sorted(up.items(), key=lambda x: (x[1], x[0].name())) if 0 < d <= depth]

    def kinds(self, phrase: str, steps: int, min_depth: int) -> frozenset[str]:
        """The kinds the phrase's commonest physical sense is, up to ``steps`` is-a steps up and no nearer
        WordNet's root than ``min_depth`` ("plum" -> edible fruit, produce; not "food", "matter")."""
        ss = self.senses(phrase)
        if not ss:
            return frozenset()
        out = set()
        with self._lock:
            for s, d in self._ancestors(ss[0]).items():
                if 0 < d <= steps and s.min_depth() >= min_depth:
                    out.add(s.name())
        return frozenset(out)

    # ---- relations -------------------------------------------------------------------------------------

    def relation(self, said: str, label: str, max_distance: int = MAX_HYPONYM_DISTANCE) -> Relation | None:
        """How the said noun (any of its commoner senses) relates to the label noun (its senses in a home,
        ``label_senses``), or None."""
        a, b = self.senses(said), self.label_senses(label)
        if not a or not b:
            return None
        return _relation(self, a, b, max_distance)

    def related(self, said: str, label: str) -> bool:
        return self.relation(said, label) is not None

    def is_kind_of(self, phrase: str, category: str, max_distance: int = 8) -> int | None:
        """Is-a steps from the phrase's senses up to the category's ("apple" -> "food": 3), or None."""
        memo = (phrase, category, max_distance)
        if memo not in self._kind_of:
            if len(self._kind_of) > MAX_CACHED_WORDS:
                self._kind_of.clear()
            self._kind_of[memo] = self._steps_up(phrase, category, max_distance)
        return self._kind_of[memo]

    def _steps_up(self, phrase: str, category: str, max_distance: int) -> int | None:
        cats = set(self.senses(category))
        best: int | None = None
        for s in self.label_senses(phrase):
            up = self._ancestors(s)
            for c in cats:
                d = up.get(c)
                if d is not None and d <= max_distance and (best is None or d < best):
                    best = d
        return best

    def has_part(self, whole: str, part: str) -> bool:
        """WordNet lists ``part`` (or a kind of it) among the parts of ``whole`` or of one of its kinds
        ("car" has a "car door"; a "cabinet" has a "shelf")."""
        wholes, parts = self.senses(whole), self.senses(part)
        if not wholes or not parts:
            return False
        with self._lock:
            for w in wholes:
                for anc, d in self._ancestors(w).items():
                    if d > MAX_PART_DEPTH:
                        continue
                    for m in anc.part_meronyms():
                        for p in parts:
                            if m == p or p in self._ancestors(m) or m in self._ancestors(p):
                                return True
        return False

    def is_part(self, part: str) -> bool:
        """The noun names a part of something in WordNet (a door, a handle, a lid, a shelf)."""
        with self._lock:
            for s in self.senses(part):
                for anc, d in self._ancestors(s).items():
                    if d <= 1 and anc.part_holonyms():
                        return True
        return False

    def specificity(self, synset: Any) -> float:
        """How specific a kind is, from WordNet's shape alone (intrinsic information content, Seco et al.
        2004): 1 - log(1 + its hyponyms) / log(all noun synsets); a kind with nothing below it is 1,
        "violin" 0.88, "musical instrument" 0.55, "clothing" 0.44, "device" 0.30; 0 for kinds nearer the
        root than ``MIN_KIND_DEPTH`` or with more than ``MAX_KINDS_BELOW`` below them ("artifact"), whose
        hyponyms are not counted (that took a third of a second for "artifact" alone)."""
        cached = self._ic.get(synset)
        if cached is None:
            with self._lock:
                if synset.min_depth() < MIN_KIND_DEPTH:
                    cached = 0.0
                else:
                    if not self._n_synsets:
                        self._n_synsets = len({o for by_pos in self._wn._lemma_pos_offset_map.values()
                                               for o in by_pos.get("n", ())})
                    below = _count_below(synset, MAX_KINDS_BELOW)
                    cached = 0.0 if below > MAX_KINDS_BELOW else \
                        max(0.0, 1.0 - math.log(1 + below) / math.log(max(self._n_synsets, 2)))
            self._ic[synset] = cached
        return cached

    def shared_kind(self, a: str, b: str) -> tuple[float, float, str] | None:
        """The most specific kind two labels share (over their senses in a home, ``label_senses``): (Lin's
        similarity 2 x specificity(kind) / (specificity(a) + specificity(b)), the kind's specificity, its
        name); None when WordNet lists either not at all. A cardigan and a pullover share "sweater" (0.88,
        0.86), a cardigan and a blouse only "clothing" (0.47, 0.44), a kettle and a cardigan "artifact" (0, 0)."""
        xs, ys = self.label_senses(a), self.label_senses(b)
        if not xs or not ys:
            return None
        best: tuple[float, float, str] | None = None
        for x in xs:
            up_x = self._ancestors(x)
            for y in ys:
                up_y = self._ancestors(y)
                for c in up_x.keys() & up_y.keys():
                    ic = self.specificity(c)
                    if best is None or ic > best[1]:
                        denom = self.specificity(x) + self.specificity(y)
                        best = (min(1.0, 2 * ic / denom) if denom else 0.0, ic, c.name())
        return best or (0.0, 0.0, "")

    def similarity(self, a: str, b: str, first_only: bool = False) -> float:
        """Wu-Palmer similarity of the two phrases' closest physical senses (with ``first_only``, of their
        commonest ones); 0 when either is unknown."""
        best = 0.0
        n = 1 if first_only else MAX_SENSES
        for x in self.senses(a)[:n]:
            for y in self.senses(b)[:n]:
                with self._lock:
                    s = x.wup_similarity(y) or 0.0
                best = max(best, s)
        return best


def _relation(wn: WordNet, a: tuple[Any, ...], b: tuple[Any, ...], max_distance: int) -> Relation | None:
    shared = set(a) & set(b)
    if shared:
        s = min(shared, key=lambda x: (a.index(x), x.name()))
        return Relation("synonym", 0, s.name(), s.name(), a.index(s))
    best: Relation | None = None
    for i, x in enumerate(a):
        for y in b:
            d = wn._ancestors(y).get(x)  # the label is a kind of what was said
            if d is not None and d <= max_distance and (best is None or d < best.distance):
                best = Relation("hypernym", d, x.name(), y.name(), i)
            d = wn._ancestors(x).get(y)  # what was said is a kind of the label
            if d is not None and d <= max_distance and (best is None or d < best.distance):
                best = Relation("hyponym", d, x.name(), y.name(), i)
    return best


def _count_below(synset: Any, cap: int) -> int:
    """How many kinds (and instances) WordNet lists below a synset, counting stops past ``cap``."""
    seen: set[Any] = set()
    frontier = [synset]
    while frontier and len(seen) <= cap:
        nxt = []
        for s in frontier:
            for h in (*s.hyponyms(), *s.instance_hyponyms()):
                if h not in seen:
                    seen.add(h)
                    nxt.append(h)
        frontier = nxt
    return len(seen)


def _name(synset: Any) -> str:
    return synset.lemma_names()[0].replace("_", " ").lower()


_LOCK = threading.Lock()
# verbs that say nothing of a use when a definition names them ("make", "cause to be", "have")
_LIGHT_VERBS = frozenset({"make", "cause", "have", "get", "put", "take", "give", "use", "become", "let", "keep",
                          "move", "come", "set", "bring", "hold", "being", "like", "seem"})


@lru_cache(maxsize=1)
def _default() -> WordNet | None:
    try:
        return WordNet()
    except Exception as e:  # noqa: BLE001 - grounding works without it, with fewer everyday names
        log.warning("WordNet unavailable, lexical grounding off: %s", e)
        return None


def default_wordnet() -> WordNet | None:
    """The process's WordNet (loaded on first use, ~1 s), or None when it is not installed."""
    with _LOCK:
        return _default()
