"""The map's category of an object the map does not list, through WordNet's is-a links.

The category map (``categories.py``) lists general household words; people name things it cannot list
(a ramekin, a papaya, an egg poacher, an opener). WordNet 3.0 (``wordnet.py``) knows what most of them
are a kind of: a ramekin is a dish, a papaya an edible fruit, a poacher a cooking utensil. The nearest
WordNet kind that the map lists by name gives the object the map's category of that word, so a papaya
shares "fruit" with the apple someone put in the bowl, and a fruit rule covers it, as if the map listed it.

The search goes both ways from each of the label's senses in a home (``WordNet.label_senses``), nearest
first: a synonym the map lists ("bean curd" for tofu), then up to ``MAX_UP`` is-a steps to a broader
kind it lists ("ramekin" -> dish) and down to ``MAX_DOWN`` steps to narrower kinds it lists ("opener" ->
can opener, bottle opener, corkscrew: all the map's cooking utensils, so an opener in a home is one; its
broader WordNet kind, "tool", is two steps up and loses). Narrower kinds count only for a word with few
of them (``MAX_BELOW``): a broad word's narrower kinds are too many and too varied to say what it is. A
broader kind too broad to say anything (WordNet's specificity 0: "artifact", "object") is passed over. Of
several categories at one distance, the one that is a kind of the others (WordNet's edible fruit is both
fruit and produce: fruit), else the most specific one they all are (dishware by one sense, cookware by
another: kitchenware); none, nothing. The words before the phrase WordNet lists keep their part: the
map's modifiers apply to them as to a word it lists ("canned papaya" is canned food, "toy opener" a toy).

Only for words the map does not place: a label whose chain has a category of the map keeps it (the map is
the household's own knowledge; WordNet's senses are not always the home's). Read path only, cached per
label on the map.

Two readings here serve the map's own chain (``CategoryMap.chain``, write path too), both cached per word on
the map: a known word at the end of a glued word counts only where the word is made of it
(``glued_compound``: a "cutleryfork" is a fork, a "megaphone" no phone), and a compound WordNet lists as
one word that is no kind of its head word is read as its own kind (``compound_reading``: a gravy boat is
a dish, though the map files boats with toys).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .categories import CategoryMap
from .text import singular, tokens

MAX_UP = 3  # "shallot" -> onion -> vegetable is 2; further up, WordNet's kinds are the map's broadest anyway
MAX_DOWN = 2  # narrower kinds within two steps name the same everyday thing ("opener" -> can opener)
MAX_BELOW = 30  # ... when it has no more than this many ("opener" has 6; "animal" thousands)
_MEMO_MAX = 50_000  # labels asked about are unbounded; the memo is not
_WN_LONGEST = 9  # words in WordNet 3.0's longest noun: a longer ending is none of its nouns
_LONGEST_LEMMA = 71  # characters in WordNet 3.0's longest noun lemma
_SHORT_PART = 3  # a known word this short ends a glued word only after a word ("laundry|bin", not "clari|tin")
_MIN_WORD = 3  # a word glued before a noun is at least this long ("mo" is a noun; "mo|rebutter" no reading)


def map_categories(cmap: CategoryMap, label: str) -> tuple[str, ...]:
    """The map's categories of ``label`` (most specific first): its chain's when the map places it, else
    those the nearest WordNet kind the map lists gives it (see the module docstring); () when neither
    knows it."""
    own = tuple(c for c in cmap.chain(label) if c in cmap.parent)
    if own:
        return own
    found = cmap.derived.get(label)
    if found is None:
        found = _from_wordnet(cmap, label)
        if len(cmap.derived) > _MEMO_MAX:
            cmap.derived.clear()
        cmap.derived[label] = found
    return found


def _from_wordnet(cmap: CategoryMap, label: str) -> tuple[str, ...]:
    from .similarity import lexical_phrase
    from .wordnet import default_wordnet

    wn = default_wordnet()
    phrase = lexical_phrase(cmap, label) if wn is not None else ""
    if not phrase:
        return ()
    category = _nearest_category(cmap, wn, wn.label_senses(phrase), down=True)
    if not category:
        return ()
    # the words before the phrase WordNet listed, then the category's own key as the head word
    before = _words_before(tokens(label), phrase)
    return tuple(c for c in cmap.chain(" ".join([*before, category])) if c in cmap.parent)


def _nearest_category(cmap: CategoryMap, wn: Any, senses: Sequence[Any], down: bool, in_sense: bool = False,
                      skip: frozenset[str] = frozenset()) -> str:
    """The map's category of the nearest kind of these senses the map lists (see the module docstring);
    lemma names in ``skip`` do not count; narrower kinds only with ``down``; with ``in_sense``, a lemma
    counts only when the kind is one of its senses in a home."""
    found: dict[int, set[str]] = {}
    for sense in senses:
        for synset, d, narrower in wn.neighbours(sense, MAX_UP, MAX_DOWN if down else 0, MAX_BELOW):
            cats = {c for c in (_category_of(cmap, name) for name in wn.lemma_names(synset)
                                if name.lower() not in skip
                                and (not in_sense or synset in wn.label_senses(name.replace("_", " ")))) if c}
            # a broader kind too broad to say anything is passed over (its specificity is counted only here:
            # counting what is below "organism" takes a tenth of a second)
            if cats and (narrower or not d or wn.specificity(synset) > 0.0):
                found.setdefault(d, set()).update(cats)
    for d in sorted(found):
        category = _most_specific(cmap, found[d])
        if category:
            return category
    return ""


def compound_reading(cmap: CategoryMap, ws: list[str], head: str, head_category: str) -> tuple[int, str, str] | None:
    """A compound WordNet lists as one word that is no kind of the map's word it ends in (``head``, of
    ``head_category``), read as its own kind: (where it starts, its key, the map's category of WordNet's
    nearest kind of it), when the map lists one and it and the head word's are not one a kind of the
    other; else None. A gravy boat (or "sauceboat") is a dish in WordNet, no kind of boat, and the map
    files boats with toys; a "coffee cup" is a kind of cup and a "beer mug" of mug, so the head word's
    category stands. The longest ending WordNet lists
    decides, open or glued (the last word alone when the head is only its end). Here a WordNet kind gives
    the map's category of a word only in the sense that word has in a home (``WordNet.label_senses``): a
    fried egg is a dish in the sense of food, not the crockery the map's "dish" is."""
    from .wordnet import default_wordnet

    ws = ws[-_WN_LONGEST:]
    last_is_head = ws[-1] in (head, singular(head)) or singular(ws[-1]) == head
    if not head_category or (len(ws) < 2 and last_is_head):
        return None
    memo = ("compound", *ws, head, head_category)
    if memo in cmap.lexical:
        return cmap.lexical[memo]  # type: ignore[return-value]
    wn = default_wordnet()
    found = None
    for i in range(len(ws) - (1 if last_is_head else 0)) if wn is not None else ():
        # its senses as a thing: a compound WordNet lists only as an idiom ("hot water") is read by its head
        senses = wn.label_senses(" ".join(ws[i:])) or wn.label_senses("".join(ws[i:]))
        if not senses:
            continue
        # a kind of the head word in any of its senses (a game the activity, not only the food), or the head
        # word's own sense in a home; not a sense of the word that only shares its name ("boat")
        heads, home = set(wn.noun_senses(head)), set(wn.label_senses(head))
        if heads and not any(s in home or any(wn.ancestors(s).get(h, 0) > 0 for h in heads) for s in senses):
            category = _nearest_category(cmap, wn, senses, down=False, in_sense=True,
                                         skip=frozenset({head, singular(head)}))
            if category and category not in cmap.ancestors(head_category) and \
                    head_category not in cmap.ancestors(category):
                found = (i, "".join(ws[i:-1]) + singular(ws[-1]), category)
        break
    _remember(cmap, memo, found)
    return found


def analogous_compound(cmap: CategoryMap, ws: list[str], head_category: str) -> str:
    """The category of the map's compounds of this label's last word whose word before it is of the kind
    the label's is, when they agree and it is not the head word's own ("" otherwise): the map knows no
    powder but a chili powder is a spice, so a garlic powder (garlic a vegetable as chili is) is one; a
    muffin tin is bakeware, not the storage tin the map's "tin" is, so a tart tin (a baked thing as a
    muffin) is bakeware; a cookie tin (a snack) stays a tin. The label's word is of its map category, else
    WordNet's (``map_categories``: a tart is a pastry); the map's own compounds' words only of the map's
    category (WordNet's first sense of "dog" in a home is a hot dog: a salad bowl is no dog bowl); the map's
    attributes (plastic, paper) say what a thing is made of, not what it is for, and match nothing, and so
    does a kind at the map's top (a carrier, WordNet's container, is not what a bin bag's bin is to it)."""
    if len(ws) < 2:
        return ""
    compounds = cmap.compounds.get(singular(ws[-1]))
    modifier = ws[-2]
    if not compounds or modifier.isdigit() or modifier in cmap.attributes:
        return ""
    memo = ("analogous", modifier, ws[-1], head_category)
    if memo in cmap.lexical:
        return cmap.lexical[memo]  # type: ignore[return-value]
    mine = _kind_of_word(cmap, modifier, lexical=True)
    if not cmap.parent.get(mine):
        mine = ""  # a kind as broad as the map's top ("food", "container") tells one use from another too little
    found = {c for m, c in compounds if mine and m not in cmap.attributes and _kind_of_word(cmap, m) == mine}
    category = found.pop() if len(found) == 1 else ""
    if category == head_category:
        category = ""
    _remember(cmap, memo, category)
    return category


def agent_of(cmap: CategoryMap, ws: list[str]) -> str:
    """The category the map gives a thing named for what it does to a thing of a kind (``CategoryMap.agents``:
    a meat tenderizer, a spice grinder, an egg separator are cooking utensils): the last word, one the map
    does not list, is one who does what a verb of WordNet's says ("tenderize", "grind", "shred"), and the word
    before it is of that kind by the map's own words; "" otherwise (a "fidget spinner" is of no kind). Where the
    map lists compounds of the word of the same broad kind, all of one category, theirs: a waffle maker is a
    small appliance as a coffee maker is."""
    if len(ws) < 2 or not cmap.agents:
        return ""
    head, modifier = singular(ws[-1]), ws[-2]
    memo = ("agent", modifier, head)
    if memo in cmap.lexical:
        return cmap.lexical[memo]  # type: ignore[return-value]
    found = ""
    kinds = [c for c in cmap.chain(modifier) if c in cmap.parent]
    of = next((cmap.agents[c] for c in kinds if c in cmap.agents), "")
    if of and _agent_noun(head):
        # the map's own compounds of the word, of the same broad kind, say which tool: a coffee maker is a small
        # appliance, so a waffle maker is one; a box cutter (a tool of another kind) says nothing of a pizza cutter
        top = cmap.ancestors(of)[-1]
        theirs = {c for _, c in cmap.compounds.get(head, ()) if cmap.ancestors(c)[-1] == top}
        found = theirs.pop() if len(theirs) == 1 else of
    _remember(cmap, memo, found)
    return found


def _agent_noun(word: str) -> bool:
    """Whether a word is one who does what a verb says: the verb and -er or -or ("grinder", "tenderizer",
    "shredder", "separator"), the verb listed in WordNet."""
    from .wordnet import default_wordnet

    wn = default_wordnet()
    if wn is None or len(word) < 5 or not word.endswith(("er", "or")):
        return False
    stem = word[:-2]
    verbs = [stem, stem + "e"] + ([stem[:-1]] if len(stem) > 2 and stem[-1] == stem[-2] else [])
    if word.endswith("ator"):
        verbs.append(word[:-3] + "e")
    return any(wn.verb_base(v) == v for v in verbs)


def _kind_of_word(cmap: CategoryMap, word: str, lexical: bool = False) -> str:
    """The most specific map category of one word: the map's, else (with ``lexical``) WordNet's nearest
    kind's; ""."""
    found = map_categories(cmap, word) if lexical else [c for c in cmap.chain(word) if c in cmap.parent]
    return found[0] if found else ""


def listed_compound(cmap: CategoryMap, ws: list[str]) -> bool:
    """Whether WordNet lists these words as a noun, open or glued ("egg cup" is its "eggcup", crockery);
    without WordNet, no."""
    from .wordnet import default_wordnet

    wn = default_wordnet()
    if wn is None or not ws or len(ws) > _WN_LONGEST:
        return False
    memo = ("listed", *ws)
    if memo in cmap.lexical:
        return bool(cmap.lexical[memo])
    found = any(wn.noun_senses(p) for p in dict.fromkeys((" ".join(ws), "".join(ws))))
    _remember(cmap, memo, found)
    return found


def glued_compound(cmap: CategoryMap, word: str, j: int) -> bool:
    """Whether a glued word names a kind of the known word at its end (``word[j:]``: "cutleryfork",
    "coffeepot"), not a word that only ends in its letters ("megaphone", "covering", "fanextractor"). A
    longer noun WordNet lists at the end of the word decides, when it is the whole word or what stands
    before it is a word or two ("fan" extractor): it must be a kind of the known word or of what the
    known word is one step up (a coffeepot is a pot, an earphone a phone, a sailboat a vessel as a boat is;
    an extractor is no tractor, a megaphone no phone). A noun that only
    straddles the join ("coconu|toil", "glas|stable") is no reading of the word. With no such noun the
    known word is the word's last word, whatever stands before it (a brand: "nesquikbottle"), when it is
    longer than three letters: a word of three ends too many words by chance ("claritin" is no tin), and
    counts only after a word or two ("laundrybin"); without WordNet, likewise."""
    from .wordnet import default_wordnet

    wn = default_wordnet()
    if wn is None:
        return True
    # a word longer than this has no noun of WordNet's before its last _LONGEST_LEMMA letters: not kept
    memo = ("glued", word, j) if len(word) <= 3 * _LONGEST_LEMMA else None
    if memo in cmap.lexical:
        return bool(cmap.lexical[memo])

    def is_word(w: str) -> bool:
        return len(w) >= _MIN_WORD and (w in cmap.word_category or w in cmap.attributes or wn.is_word(w))

    def words_before(i: int) -> bool:
        # what stands before a noun ending at i: nothing, or a word or two (WordNet's or the map's)
        rest = word[:i]
        return not rest or (len(rest) <= 2 * _LONGEST_LEMMA and (is_word(rest) or any(
            is_word(rest[:k]) and is_word(rest[k:]) for k in range(_MIN_WORD, len(rest) - _MIN_WORD + 1))))

    # no noun of WordNet's is longer than _LONGEST_LEMMA: longer endings of a 20 KB label need no look-up
    longer = next((word[i:] for i in range(max(0, len(word) - _LONGEST_LEMMA), j)
                   if wn.any_noun(word[i:]) and words_before(i)), "")
    if longer:
        found = wn.is_kind(longer, word[j:], broader=1)
    else:
        # no longer noun: the known word is the word's last word, glued to a brand ("nesquik|bottle"); a known
        # word of three letters ends too many words by chance ("clari|tin", "cabi|net") unless what stands
        # before it is a word or two ("laundry|bin", "cookie|tin")
        found = len(word) - j > _SHORT_PART or words_before(j)
    if memo is not None:
        _remember(cmap, memo, found)
    return found


def _remember(cmap: CategoryMap, memo: tuple, found: object) -> None:
    if len(cmap.lexical) > _MEMO_MAX:
        cmap.lexical.clear()
    cmap.lexical[memo] = found


def _most_specific(cmap: CategoryMap, found: set[str]) -> str:
    """Of categories found at one distance, the one that is a kind of all the others (an edible fruit is
    both "fruit" and "produce" in WordNet: fruit), else the most specific one they all are; "" if none."""
    ups = {c: cmap.ancestors(c) for c in sorted(found)}
    for c, up in ups.items():
        if all(o in up for o in found):
            return c
    shared = [a for a in next(iter(ups.values())) if all(a in up for up in ups.values())]
    return shared[0] if shared else ""


def _words_before(ws: list[str], phrase: str) -> list[str]:
    """The words of a label before the ending WordNet listed (open or closed), past a trailing number."""
    while len(ws) > 1 and ws[-1].isdigit():
        ws = ws[:-1]
    for end in (len(ws), len(ws) - 1):  # the phrase may stop before a weak head ("juice bottle")
        for i in range(end):
            if phrase.replace(" ", "") == "".join(ws[i:end]):
                return ws[:i]
    return []


def _category_of(cmap: CategoryMap, lemma: str) -> str:
    """The map's category of a WordNet lemma name ("cooking_utensil"), when the map lists it as a word."""
    ws = tokens(lemma.replace("_", " "))
    if not ws:
        return ""
    for k in dict.fromkeys(("".join(ws), "".join(ws[:-1]) + singular(ws[-1]))):
        c = cmap.word_category.get(k)
        if c:
            return c
    return ""
