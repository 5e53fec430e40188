"""How a thing a person names can match a label memory holds, beyond spelling it the same way.

Memory's labels come from mappers, datasets and detectors (``remotecontrol``, ``cutleryfork``,
``kitchentable``); people say "the remote", "a fork", "the table". Four ways, tried in this order, each
weaker than the one before and reported as such (``KindMatch.how``):

1. **head noun**: the label's last word is the noun said ("glass" -> ``wineglass``, "table" ->
   ``coffeetable``). Glued labels are split with the embedding model's own vocabulary (``Embedder.
   split_compound``), and the category map's known endings are used too ("cutleryfork" ends in fork);
2. **everyday name**: ``config/language/names.yaml`` ("remote" -> remote control, "couch" -> sofa);
3. **WordNet** (``core/wordnet.py``): the noun and the label share a synset ("pants" -> trousers, "specs"
   -> spectacles), the label is a kind of the noun ("bin" -> garbage can, "device" -> remote control) or
   the noun a narrower kind of the label ("fridge" -> refrigerator); fewer is-a steps score higher;
4. **kind**: the noun names a category of the category map ("fruit", "cutlery", "drinks") and the label
   is one of its members;
5. **similarity** (``grounding.py``): MiniLM similarity of the phrase to each label memory holds, above a
   strict threshold (lower when the label carries the words said before the head: "coffee machine" ~
   coffee maker).

WordNet also says no: where it knows both the noun and the label and relates them in no way, a head-word
everyday name or a similarity hit is dropped ("specs" is not a wine glass, "sponge" not a mouse mat, a
"coffee machine" not a washing machine, though their spellings or vectors are close). Each match carries
a confidence in 0..1 (``KindMatch.confidence``) for the caller to decide whether to ask back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import yaml

from ..core.categories import CategoryMap, default_map
from ..core.embedding import default_embedder
from ..core.resources import config_path
from ..core.text import key, norm, singular, tokens
from ..core.wordnet import WordNet, default_wordnet
from .spelling import american, variants

# What a thing comes in (a closed class of packaging words, not object names): "lotion bottle" is lotion.
PACKAGING = frozenset({"bottle", "jar", "can", "tin", "box", "carton", "tube", "pack", "packet", "bag", "tub",
                       "container", "sachet", "pouch", "spray", "dispenser", "roll", "shaker"})
CATEGORY_BONUS = 0.05  # the category map files the label under the noun said (a sports ball is "a ball")
HEAD_SCORE = 0.8  # below an exact label match (1.0): "table" for coffeetable is a weaker reading
NAME_SCORE = 0.7
KIND_SCORE = 0.6
# WordNet stage (ranked between everyday names and the category map's kinds)
# (below an everyday name, which is written for a household's sense: WordNet's "cupboard" is also a closet)
SYNONYM_SCORE = 0.65
HYPERNYM_SCORE = 0.62  # the label is a kind of the noun said, one is-a step away; less per further step
HYPERNYM_STEP = 0.02
HYPONYM_SCORE = 0.55  # the noun said is a narrower kind of the label ("armchair" for a chair)
# How sure a match is (0..1), by how it was made: what the dispatcher weighs to act or to ask back
CONFIDENCE = {"exact": 1.0, "head noun": 0.8, "contents": 0.75, "everyday name": 0.8, "wordnet synonym": 0.85,
              "wordnet kind": 0.75, "wordnet broader": 0.6, "part": 0.7, "kind": 0.7, "category": 0.7,
              "any thing": 0.7, "similar": 0.45, "wordnet compound": 0.7, "shared kind": 0.65,
              "named by its modifiers": 0.6, "kind guessed": 0.45, "wordnet gloss": 0.65}
MAX_MEMO = 200_000  # (phrase, label) WordNet readings kept
SERVES_KIND_STEPS = 2  # a label this many is-a steps below a thing the purposes table names serves the use too
MAX_WN_PHRASE = 60  # longer label phrases are no WordNet lemma: not looked up (a stored label may be long)
# A kind this many is-a steps above the label, whose words MiniLM finds this far apart, is a guess (asked about):
# true members sit at 0.5-0.75 ("vegetable"/carrot 0.74, "fruit"/lime 0.47), a sense nobody means at 0.39
# ("vegetable"/chips, through french fries)
FAR_KIND_STEPS = 3
FAR_KIND_MIN_COSINE = 0.42
FAR_KIND_CONFIDENCE = 0.5
# a match through the word's third or later sense stands only when the words are this close ("stool"/toilet: 0.67,
# "television"/tv 0.96, "pants"/trousers 0.86 by their second senses)
RARE_SENSE_RANK = 2
RARE_SENSE_MIN_COSINE = 0.8
# Nouns that name no kind of thing at all: "any objects on the counter?" asks about whatever is there
# compounds read a word at a time (``Names.modified``), ranked below WordNet's readings of the whole noun
COMPOUND_SCORE = 0.6  # "sugar shaker" ~ silver caster, "mustard jar" ~ condiment jar
SHARED_KIND_SCORE = 0.58  # "face powder" ~ face product: same modifier, WordNet's kind is the label's category
MODIFIERS_SCORE = 0.56  # "the shoe unit": a head naming no kind; the words before it say which thing
SHARED_MAP_CONFIDENCE = 0.5
GLOSS_SCORE = 0.57  # "dresser" ~ clothes drawer: the label's words are the gloss's, its head a part of it
MAX_MODIFIER_STEPS = 2  # "mustard" is a condiment one is-a step up; further is another thing in practice
MAX_WORDNET_LABEL = 48  # characters: longer than any compound WordNet lists (a stored label may be any length)
GENERIC_NOUNS = frozenset({"object", "thing", "item", "stuff", "something", "anything", "everything",
                           "belonging", "objects", "things", "items",
                           # words for whatever lies about ("what mess is on the stove?", "what's the loot in there?")
                           "clutter", "mess", "loot", "junk", "whatnot"})


@dataclass(frozen=True)
class KindMatch:
    score: float
    how: str  # "head noun", "everyday name", "wordnet synonym", "wordnet kind", "wordnet broader", "kind"
    confidence: float = 0.0

    def __post_init__(self) -> None:
        if not self.confidence:
            base = CONFIDENCE.get(self.how, 0.5)
            if self.how == "wordnet kind":  # a kind several is-a steps away is a weaker reading than one step
                base -= 2.5 * (HYPERNYM_SCORE - self.score)
            object.__setattr__(self, "confidence", round(base, 3))


@dataclass(frozen=True)
class Purpose:
    categories: frozenset[str]
    words: frozenset[str]


class Names:
    """The everyday-name table, the purposes table and the category map, with per-label caches."""

    def __init__(self, names: dict[str, list[str]], purposes: dict[str, Purpose], categories: CategoryMap):
        # what people say -> label keys it may be, and the head words of those ("remote control" -> control)
        self.names = {key(k): [key(v) for v in vs] for k, vs in names.items()}
        self.name_heads = {key(k): [singular(tokens(v)[-1]) for v in vs if tokens(v)] for k, vs in names.items()}
        self.purposes = purposes
        self.categories = categories
        self._label_words: dict[str, tuple[str, ...]] = {}
        self._lexical: dict[tuple[str, str], KindMatch | None] = {}
        self._label_wn: dict[str, list[tuple[str, bool]]] = {}
        self._wordnet: WordNet | None | bool = False  # False: not loaded yet

    @property
    def wordnet(self) -> WordNet | None:
        if self._wordnet is False:
            self._wordnet = default_wordnet()
        return self._wordnet  # type: ignore[return-value]

    @classmethod
    def load(cls) -> Names:
        data = yaml.safe_load(config_path("language/names.yaml").read_text(encoding="utf-8")) or {}
        purposes = {k: Purpose(categories=frozenset(key(c) for c in (v.get("categories") or [])),
                               words=frozenset(key(w) for w in (v.get("words") or [])))
                    for k, v in (data.get("purposes") or {}).items()}
        return cls({str(k): [str(x) for x in v] for k, v in (data.get("names") or {}).items()}, purposes,
                   default_map())

    def label_words(self, label: str) -> tuple[str, ...]:
        """The words a glued label is made of ("remotecontrol" -> remote, control), cached per label."""
        cached = self._label_words.get(label)
        if cached is None:
            split = default_embedder().split_compound(norm(label)) if label.isalnum() else " ".join(tokens(label))
            ws = [w for w in split.split() if w]
            if len(ws) == 1 and ws[0] == norm(label) and label.isalpha():
                ws = self._wordnet_split(ws[0]) or ws
            chain = self.categories.chain(label)
            ending = chain[1] if len(chain) > 1 and chain[1] != label and label.endswith(chain[1]) else ""
            if ending and (not ws or ws[-1] != ending):
                ws.append(ending)  # the category map knows the ending even where the vocabulary does not
            cached = self._label_words[label] = tuple(ws) or (label,)
        return cached

    def _wordnet_split(self, glued: str) -> list[str]:
        """A glued label the embedder's vocabulary keeps whole and WordNet does not list ("pcdesk",
        "cdrack", "petbed"), split where both sides are WordNet nouns and the last names a
        physical thing: its head noun is then what the label is, its first word what kind."""
        wn = self.wordnet
        if wn is None or len(glued) > MAX_WORDNET_LABEL or wn.known(glued):
            return []
        best: list[str] = []
        for i in range(2, len(glued) - 2):
            first, last = glued[:i], glued[i:]
            # a two-letter first word only where it names a thing itself ("tv", "pc"), not any abbreviation
            if wn.known(last) and (wn.known(first) if len(first) < 3 else wn.any_noun(first)):
                if not best or len(last) > len(best[-1]):
                    best = [first, last]
        return best

    def match(self, head: str, compound: list[str], label: str) -> KindMatch | None:
        """How the noun (``compound`` + ``head``) can mean ``label``, or None."""
        if not head:
            return None
        h = singular(norm(head))
        lw = self.label_words(label)
        comp = [norm(c) for c in compound]
        if lw and (lw[-1] == h or singular(lw[-1]) == h) and len(lw) > 1:
            # "tv stand" must not be a "tv": the head is the label's last word; a compound said must be in it.
            # Of several, the one the category map files under the bare noun is the usual one
            bonus = 0.05 * sum(c in lw for c in comp)
            if h in self.categories.chain(label)[1:2]:
                bonus += CATEGORY_BONUS  # the map reads the label as that noun (sports ball: a ball; balance ball: gym kit)
            if all(c in lw for c in comp) or not comp:
                return KindMatch(HEAD_SCORE + bonus, "head noun")
        held = key(" ".join([*compound, h]))
        if any(norm(label) in (held + p, held + p + "s") for p in PACKAGING):
            # "the lotion" -> lotionbottle, "the ketchup" -> ketchupbottle: a label naming what it holds and
            # what it comes in is the thing people name by its contents
            return KindMatch(HEAD_SCORE - 0.05, "contents")
        lkey = norm(label)
        phrase = key(" ".join([*compound, head]))
        for said in dict.fromkeys([phrase, h]):
            if lkey in self.names.get(said, []):
                return KindMatch(NAME_SCORE, "everyday name")
            # "the bedside table" -> nightstand; "the telly" -> any television ("tv" names it whole)
            if len(lw) > 1 and lw[-1] in self.name_heads.get(said, []) and not (comp and said != phrase):
                if any(key(" ".join(lw)) == alt or alt.endswith(lw[-1]) for alt in self.names.get(said, [])) \
                        and self.compatible(compound, head, label):
                    return KindMatch(NAME_SCORE - 0.1, "everyday name")
        # the lexical readings in order, each tried only when the ones before found nothing
        found = (self.lexical(compound, head, label) or self.contents(compound, h, label)
                 or self.modified(compound, head, label) or self.glossed(compound, head, label))
        if found is not None:
            return found
        cat = self.category_key(h)
        if cat and cat != lkey and cat in self.categories.chain(label)[1:]:
            return KindMatch(KIND_SCORE, "kind")
        return None

    # ---- WordNet ---------------------------------------------------------------------------------------

    def label_phrases(self, label: str) -> list[str]:
        """How WordNet may list a label: glued ("dishwasher", "wineglass"), split ("garbage can", "coffee
        maker"), else its head word ("tvstand" -> stand); the first it knows, or []."""
        return [p for p, _ in self._label_senses(label)]

    def _label_senses(self, label: str) -> list[tuple[str, bool]]:
        """``label_phrases`` with whether the phrase is the whole label (False: only its head word)."""
        cached = self._label_wn.get(label)
        if cached is None:
            cached = self._label_wn[label] = self._read_label_senses(label)
        return cached

    def _read_label_senses(self, label: str) -> list[tuple[str, bool]]:
        wn = self.wordnet
        if wn is None:
            return []
        lw = self.label_words(label)
        glued = norm(label)
        if len(glued) > MAX_WORDNET_LABEL:
            return []  # no word WordNet lists is this long; splitting it would cost a lookup per position
        whole = [glued, " ".join(lw)]
        if len(lw) == 1 and glued.isalpha():
            # a glued label the embedder's vocabulary left whole ("garbagecan"): WordNet's own compounds
            whole += [f"{glued[:i]} {glued[i:]}" for i in range(3, len(glued) - 2)]
        known = [p for p in dict.fromkeys(whole) if wn.known(p)]
        if known:
            return [(known[0], True)]
        if len(lw) > 1:
            return [(lw[-1], False)] if wn.known(lw[-1]) else []
        # else its longest ending WordNet lists as a word ("mousemat" -> mat)
        head = next((glued[i:] for i in range(3, len(glued) - 2) if wn.known(glued[i:])), "")
        return [(head, False)] if head else []

    def said_phrase(self, compound: list[str], head: str) -> tuple[str, list[str]]:
        """The said noun as WordNet knows it: the whole phrase ("trash can") when listed, else its head,
        with the words left over that a label must then carry ("coffee machine" -> machine, [coffee])."""
        wn = self.wordnet
        h = singular(norm(head))
        comp = [norm(c) for c in compound]
        if wn is None or not h:
            return "", comp
        # each as said, then in its other spellings ("organiser" is listed, if at all, as "organizer")
        for p in dict.fromkeys([" ".join([*comp, head.lower()]), " ".join([*comp, h]),
                                *(" ".join([*comp, v]) for v in variants(h))]):
            if comp and wn.known(p):
                return p, []
        # the head as said and as the tagger lemmatised it: "specs" is spectacles, its lemma "spec" is not
        for p in dict.fromkeys([head.lower(), h, h + "s", *variants(h)]):
            if wn.known(p):
                return p, comp
        return "", comp

    def contents(self, compound: list[str], head: str, label: str) -> KindMatch | None:
        """"the milk carton", "a shampoo bottle": a packaging head names what it holds, where memory holds
        that thing under its own label and WordNet does not list the phrase as some other thing ("icebox"
        is a refrigerator, not a box of ice)."""
        if head not in PACKAGING or not compound:
            return None
        held = american(key(" ".join(compound)))
        if held not in (american(norm(label)), american(key(label))):
            return None
        wn = self.wordnet
        phrase = " ".join([*compound, head])
        if wn is not None:
            for p in (phrase, "".join([*compound, head])):  # "ice box" is listed as "icebox"
                if wn.known(p) and wn.is_kind_of(p, "container", max_distance=6) is None:
                    return None
        return KindMatch(HEAD_SCORE - 0.1, "contents")

    def modified(self, compound: list[str], head: str, label: str) -> KindMatch | None:
        """A compound read a word at a time, where no reading of it whole matched (see ``_modified``);
        cached per pair."""
        memo = ("modified " + " ".join([*compound, head]), label)
        if memo not in self._lexical:
            if len(self._lexical) > MAX_MEMO:
                self._lexical.clear()
            self._lexical[memo] = self._modified(compound, head, label)
        return self._lexical[memo]

    def _modified(self, compound: list[str], head: str, label: str) -> KindMatch | None:
        """Three readings of "<modifier> <head>" against a label of two or more words, each needing
        evidence for every modifier said:

        - the heads match or WordNet files the label's head under the one said (a stand is a small
          shaker), and each modifier is the label's, a kind of the label's or one of it one or two is-a
          steps away ("mustard jar" ~ condiment jar), or a word of WordNet's gloss of the label head's
          sense (a caster is "for sprinkling powdered sugar": "sugar shaker" ~ silver caster);
        - the modifiers are the label's and WordNet's kind of the thing said is the category the map
          files the label under ("face powder" is a toiletry; a face product is filed as one);
        - the head names no kind of thing (WordNet's senses of it are all near its root, "unit",
          "piece"), so the modifiers say what it is: "the shoe unit" is the one thing whose label is
          "shoe" and a head."""
        wn = self.wordnet
        if wn is None or not compound:
            return None
        lw = [american(w) for w in self.label_words(label)]
        if len(lw) < 2:
            return None
        comp = [american(norm(c)) for c in compound]
        h = american(singular(norm(head)))
        lh, lmods = singular(lw[-1]), lw[:-1]
        said_head = self.said_phrase([], head)[0]
        if h in GENERIC_NOUNS or (said_head and self._names_no_kind(said_head)):
            if all(c in lmods for c in comp) and h != lh:
                return KindMatch(MODIFIERS_SCORE, "named by its modifiers")
            return None
        if not said_head:
            return None
        sense = ""  # the label head's sense the said head reached (its gloss may carry a modifier)
        if lh != h:
            rel = wn.relation(said_head, lh)
            if rel is not None and rel.how in ("synonym", "hypernym") and rel.distance <= MAX_MODIFIER_STEPS:
                sense = rel.label
            elif all(c in lmods for c in comp):
                return self._shared_kind(comp, said_head, label)
            else:
                return None
        for c in comp:
            if c in lmods or any(self._modifier_related(c, m) for m in lmods):
                continue
            if sense and c in wn.gloss_words(sense):
                continue
            return None
        for m in lmods:
            # a word of the label that names a thing of its own says what kind it is (a "pepper" caster holds
            # pepper): said by nobody, nor anything like it, it makes the label another kind than the one said
            # (what it is made of is no kind: a "silver" caster is a caster)
            if m not in comp and wn.known(m) and not any(x.lexname() == "noun.substance" for x in wn.senses(m)) \
                    and not any(self._modifier_related(c, m) for c in comp):
                return None
        if all(c in lmods for c in comp) and lh == h:
            return None  # the head-noun reading's business, not a compound's
        return KindMatch(COMPOUND_SCORE, "wordnet compound")

    def _shared_kind(self, comp: list[str], said_head: str, label: str) -> KindMatch | None:
        wn = self.wordnet
        assert wn is not None
        phrase = " ".join([*comp, said_head])
        said = phrase if wn.known(phrase) else said_head
        kinds = {key(k) for k in wn.hypernyms(said, depth=3)}
        label_kinds = set(self.categories.chain(label)[1:])
        if kinds & label_kinds:
            return KindMatch(SHARED_KIND_SCORE, "shared kind")
        if set(self.categories.chain(key(phrase))[1:2]) & label_kinds:
            # only the category map files both under one kind (a floor mop and a floor cleaner: cleaning
            # supplies; but so would a mop and a bleach be): a guess, asked about
            return KindMatch(SHARED_KIND_SCORE - 0.02, "shared kind", confidence=SHARED_MAP_CONFIDENCE)
        return None

    def glossed(self, compound: list[str], head: str, label: str) -> KindMatch | None:
        """The label names the said thing by a part of it, in words WordNet's gloss of it uses: a dresser is
        "furniture with drawers for keeping clothes", and WordNet lists a drawer among its parts, so a label
        "clothesdrawer" is the dresser. Every word of the label must be in the gloss and its head a
        part of the said thing. Cached per pair."""
        memo = ("glossed " + " ".join([*compound, head]), label)
        if memo not in self._lexical:
            self._lexical[memo] = self._glossed(compound, head, label)
        return self._lexical[memo]

    def _glossed(self, compound: list[str], head: str, label: str) -> KindMatch | None:
        wn = self.wordnet
        if wn is None:
            return None
        said, rest = self.said_phrase(compound, head)
        lw = [singular(w) for w in self.label_words(label)]
        if not said or rest or len(lw) < 2:
            return None
        for s in wn.senses(said):
            gloss = {singular(w) for w in wn.gloss_words(s.name())}
            if all(w in gloss for w in lw) and wn.has_part(said, lw[-1]):
                return KindMatch(GLOSS_SCORE, "wordnet gloss")
        return None

    def _modifier_related(self, said: str, label_word: str) -> bool:
        """A modifier said and one of the label's name the same thing or one is a kind of the other, a
        step or two apart ("mustard" / condiment, "sugar" / sweetener)."""
        wn = self.wordnet
        if wn is None or said == label_word:
            return said == label_word
        rel = wn.relation(said, label_word, max_distance=MAX_MODIFIER_STEPS)
        return rel is not None

    def _names_no_kind(self, noun: str) -> bool:
        """WordNet's every physical sense of the noun sits near its root or above thousands of kinds
        ("unit": a whole, a building block): it says nothing about what the thing is."""
        wn = self.wordnet
        senses = wn.senses(noun) if wn is not None else ()
        return bool(senses) and all(wn.specificity(s) == 0.0 for s in senses)  # type: ignore[union-attr]

    def lexical(self, compound: list[str], head: str, label: str) -> KindMatch | None:
        """The WordNet reading of the noun as ``label`` (see the module docstring), cached per pair."""
        memo = (" ".join([*compound, head]), label)
        if memo in self._lexical:
            return self._lexical[memo]
        if len(self._lexical) > MAX_MEMO:
            self._lexical.clear()  # a long-running node meets new phrases forever: bound the memo
        out: KindMatch | None = None
        said, rest = self.said_phrase(compound, head)
        wn = self.wordnet
        if said and wn is not None and not (said in GENERIC_NOUNS or singular(said) in GENERIC_NOUNS) \
                and not (rest and self._names_no_kind(said)):  # "shoe unit": what "unit" is a kind of says nothing
            lw = self.label_words(label)
            if all(r in lw for r in rest):  # "coffee machine" must not be read as any machine
                for lp, whole in self._label_senses(label):
                    rel = wn.relation(said, lp)
                    if rel is None or (not whole and rel.how == "hyponym"):
                        # a label known by its head only ("dishwashing liquid" -> liquid) is a narrower thing
                        # than its head: "coffee" is a liquid but not that one
                        continue
                    if rel.how == "synonym":
                        out = KindMatch(SYNONYM_SCORE, "wordnet synonym")
                    elif rel.how == "hypernym":
                        out = KindMatch(round(HYPERNYM_SCORE - HYPERNYM_STEP * (rel.distance - 1), 3), "wordnet kind")
                        if rel.distance >= FAR_KIND_STEPS and self._unlike(said, label):
                            # several is-a steps through a sense nobody means ("vegetable" -> chips, by way of
                            # fried potatoes): WordNet says it, the words are far apart, so it is asked about
                            out = KindMatch(out.score, "wordnet kind", confidence=FAR_KIND_CONFIDENCE)
                    elif rel.distance <= 2:
                        out = KindMatch(HYPONYM_SCORE, "wordnet broader")
                    if out is not None and out.confidence > FAR_KIND_CONFIDENCE and (
                            rel.said_rank >= RARE_SENSE_RANK and self._unlike(said, label, RARE_SENSE_MIN_COSINE)
                            or rel.said_rank > 0 and self._unlike(said, label)):
                        # only through a rarer sense of the word said ("stool" is a toilet by its fourth sense):
                        # unless the words are close ("television" is a tv by its second), it is asked about
                        out = KindMatch(out.score, out.how, confidence=FAR_KIND_CONFIDENCE)
                    break
        self._lexical[memo] = out
        return out

    def _unlike(self, said: str, label: str, below: float = 0.0) -> bool:
        """MiniLM finds the said noun and the label's words far apart (below ``below``, by default
        ``FAR_KIND_MIN_COSINE``)."""
        below = below or FAR_KIND_MIN_COSINE
        try:
            v = default_embedder().encode([said, " ".join(self.label_words(label))])
        except Exception:  # noqa: BLE001 - without the embedder WordNet's reading stands as it was
            return False
        a, b = v[0], v[1]
        denom = float((a @ a) ** 0.5 * (b @ b) ** 0.5) or 1.0
        return float(a @ b) / denom < below

    def compatible(self, compound: list[str], head: str, label: str) -> bool:
        """False only where WordNet knows what was said and the label and relates them in no way, and the
        label carries none of the words said besides the head: a spelling or vector neighbour is then
        another thing ("specs" / wine glass, "sponge" / mouse mat, "coffee machine" / washing machine)."""
        wn = self.wordnet
        if wn is None:
            return True
        said, rest = self.said_phrase(compound, head)
        lw = self.label_words(label)
        if rest:
            return any(r in lw for r in rest) or (bool(said) and self.lexical([], said, label) is not None)
        lps = self.label_phrases(label)
        if not said or not lps:
            return True  # WordNet cannot say: leave it to the other signals
        if compound and lw[-1] in (singular(norm(head)), norm(head)):
            return True  # two kinds of one thing ("dining table" / kitchen table): similarity decides
        return any(wn.relation(said, lp) is not None for lp in lps)

    def category_key(self, noun: str) -> str:
        """The category a noun names ("fruit", "drinks", "cutlery"), or ""."""
        k = key(noun)
        if k in self.categories.parent:
            return k
        return ""

    def serves(self, purpose: str, label: str) -> float:
        """How well a thing with this label serves the purpose ("drink" -> milk, juice; "wash" -> sink): 1.0
        for a thing named for it (a sponge, to clean) or of a kind that serves it, 0.5 for one whose head noun
        is (a toothbrush is a brush, but for teeth), 0.0 for none."""
        verb = purpose.split()[0] if purpose else ""
        p = self.purposes.get(verb)
        if p is None:
            return 0.0
        lk = norm(label)
        if lk in p.words or set(self.categories.chain(label)) & p.categories:
            return 1.0
        if self.label_words(label)[-1] in p.words:
            return 0.5
        # a kind of a thing named for it, by WordNet's is-a of the label's commonest sense ("toilet paper" is a
        # tissue, to wipe with): the table names kinds, never every label a home may hold. Only the commonest
        # sense: over all senses chips are a stool (to sit on), a toilet a pot (to cook in), a folder a book
        wn = self.wordnet
        said = " ".join(self.label_words(label))
        if wn is not None and len(said) <= MAX_WN_PHRASE and \
                set(wn.hypernyms(said, depth=SERVES_KIND_STEPS)) & set(p.words):
            return 1.0
        return 0.0


@lru_cache(maxsize=1)
def default_names() -> Names:
    return Names.load()
