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
label on the map; the write path (rules, ``categories.chain``) stays a table lookup.
"""

from __future__ import annotations

from .categories import CategoryMap
from .text import singular, tokens

MAX_UP = 3  # "shallot" -> onion -> vegetable is 2; further up, WordNet's kinds are the map's broadest anyway
MAX_DOWN = 2  # narrower kinds within two steps name the same everyday thing ("opener" -> can opener)
MAX_BELOW = 30  # ... when it has no more than this many ("opener" has 6; "animal" thousands)
_MEMO_MAX = 50_000  # labels asked about are unbounded; the memo is not


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
    found: dict[int, set[str]] = {}
    for sense in wn.label_senses(phrase):
        for synset, d, narrower in wn.neighbours(sense, MAX_UP, MAX_DOWN, MAX_BELOW):
            cats = {c for c in (_category_of(cmap, name) for name in wn.lemma_names(synset)) if c}
            # a broader kind too broad to say anything is passed over (its specificity is counted only here:
            # counting what is below "organism" takes a tenth of a second)
            if cats and (narrower or not d or wn.specificity(synset) > 0.0):
                found.setdefault(d, set()).update(cats)
    for d in sorted(found):
        category = _most_specific(cmap, found[d])
        if category:
            # the words before the phrase WordNet listed, then the category's own key as the head word
            before = _words_before(tokens(label), phrase)
            return tuple(c for c in cmap.chain(" ".join([*before, category])) if c in cmap.parent)
    return ()


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
