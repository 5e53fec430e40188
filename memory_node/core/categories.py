"""What kind of thing an object label names: the categories that placement corrections consolidate over.

"Forks go in the drawer" and "put the spoon in the drawer" are about different labels; they support one
rule only if memory can tell that both are cutlery. That is a lookup in a small shipped map
(``config/categories/household.yaml``), not a model: deterministic, microseconds, and the same answer on
the write path and the read path. WordNet checks two of the map's guesses (``lexical_categories``, cached
per word): a known word at the end of a glued word ("cutleryfork", not "megaphone"), and a compound it
lists as one word that is no kind of its last word ("gravy boat": a dish, not a boat). A compound whose
first word is of the kind that the first word of one of the map's compounds of its last word is, is of that
compound's category ("garlic powder" as "chili powder": a spice; "tart tin" as "muffin tin": bakeware).
A label the map does not know still has a chain (itself and its last
word), so corrections about it are kept and applied to that label; they just do not generalise.

A label's *chain* lists its categories from the most specific to the most general::

    "dirty plastic forks" -> ["dirtyplasticfork", "fork", "dirty", "plastic", "cutlery", "kitchenware"]

the label itself, the known word it ends with, the attributes it names, then the category of that word
and its ancestors. Keys are in the form ``normalize_label`` gives entity labels (lower case, no spaces),
so a VirtualHome ``cutleryfork`` and a spoken "fork" meet at ``fork``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from .resources import config_path
from .text import key, singular, tokens as words

_CONFIG_FILE = Path("categories") / "household.yaml"
_MIN_PART = 3  # a known word found inside a compound label ("cutleryfork") and the rest: both this long


def glued_compound(cmap: CategoryMap, word: str, j: int) -> bool:
    from .lexical_categories import glued_compound as read  # it imports this module: imported on first use

    return read(cmap, word, j)


def listed_compound(cmap: CategoryMap, ws: list[str]) -> bool:
    from .lexical_categories import listed_compound as read

    return read(cmap, ws)


def compound_reading(cmap: CategoryMap, ws: list[str], head: str, head_category: str) -> tuple[int, str, str] | None:
    from .lexical_categories import compound_reading as read

    return read(cmap, ws, head, head_category)


def agent_of(cmap: CategoryMap, ws: list[str]) -> str:
    from .lexical_categories import agent_of as read

    return read(cmap, ws)


def analogous_compound(cmap: CategoryMap, ws: list[str], head_category: str) -> str:
    from .lexical_categories import analogous_compound as read

    return read(cmap, ws, head_category)


# ---- the map ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    category: str  # key of the category it decides
    when: str = ""  # key of the category the label must otherwise be in ("" = any)


@dataclass
class CategoryMap:
    """Category tree plus the words that name each category, modifiers, containers and attributes."""

    parent: dict[str, str] = field(default_factory=dict)  # category key -> parent key ("" at the top)
    names: dict[str, str] = field(default_factory=dict)  # category / attribute key -> name as written
    word_category: dict[str, str] = field(default_factory=dict)  # word key -> category key
    modifiers: dict[str, Modifier] = field(default_factory=dict)  # word -> modifier
    containers: frozenset[str] = frozenset()
    # a vessel named after a thing of this category holds a serving of it ("pudding cup": cup -> food)
    servings: dict[str, str] = field(default_factory=dict)
    measures: frozenset[str] = frozenset()
    # a thing named for what it does to a thing of this category is of that category ("meat tenderizer")
    agents: dict[str, str] = field(default_factory=dict)
    # keys added for a compound the map lists in the plural, said of one ("chocolate chip"): not words of its own
    singulars: set[str] = field(default_factory=set)
    # the map's words of two or more words by their last word (singular): (the word before it, category)
    compounds: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    attributes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # word -> attribute keys
    contrasts: tuple[frozenset[str], ...] = ()  # attribute keys of which a thing has one (dirty / clean)
    # (size of word_category, its longest key), refreshed when the map grows
    _longest_cached: tuple[int, int] = field(default=(-1, 0), repr=False, compare=False)
    # categories found for labels the map does not list (``lexical_categories.map_categories``), per label
    derived: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    # what WordNet said about glued words and compounds (``lexical_categories``), per word
    lexical: dict[tuple, object] = field(default_factory=dict, repr=False, compare=False)
    # what the similarity vote read of a label (its kinds, its attributes), asked again for every question
    votes: dict[tuple, object] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: dict) -> CategoryMap:
        m = cls()
        for name, spec in (data.get("categories") or {}).items():
            ck = key(name)
            m.names[ck] = name
            m.parent[ck] = key(spec.get("parent") or "")
            m.word_category.setdefault(ck, ck)
            for w in spec.get("words") or []:
                ws = words(str(w))
                wk = "".join(ws)
                m.word_category.setdefault(wk, ck)
                one = "".join(ws[:-1]) + singular(ws[-1])
                if len(ws) > 1 and one not in m.word_category:  # "chocolate chips": a "chocolate chip" is one
                    m.word_category[one] = ck
                    m.singulars.add(one)
                if len(ws) > 1 and m.word_category[wk] == ck:
                    m.compounds[singular(ws[-1])] = (*m.compounds.get(singular(ws[-1]), ()), (ws[-2], ck))
        for ck, pk in m.parent.items():
            if pk and pk not in m.parent:
                raise ValueError(f"category {m.names[ck]!r} has unknown parent {pk!r}")
        for w, spec in (data.get("modifiers") or {}).items():
            m.modifiers["".join(words(w))] = Modifier(category=key(spec["category"]), when=key(spec.get("when") or ""))
        m.containers = frozenset("".join(words(w)) for w in data.get("containers") or [])
        m.servings = {"".join(words(w)): key(c) for w, c in (data.get("servings") or {}).items()}
        for w, c in m.servings.items():
            if c not in m.parent:
                raise ValueError(f"serving {w!r} names an unknown category {c!r}")
        m.measures = frozenset("".join(words(w)) for w in data.get("measures") or [])
        m.agents = {key(of): key(c) for of, c in (data.get("agents") or {}).items()}
        for of, c in m.agents.items():
            if of not in m.parent or c not in m.parent:
                raise ValueError(f"agents names an unknown category: {of!r} -> {c!r}")
        attrs: dict[str, list[str]] = {}
        for name, ws in (data.get("attributes") or {}).items():
            m.names[key(name)] = name
            for w in ws:
                attrs.setdefault("".join(words(w)), []).append(key(name))
        for tone, ws in (data.get("colors") or {}).items():
            tone_key = key(tone) if tone != "other" else ""
            if tone_key:
                m.names[tone_key] = tone
            for w in ws:
                wk = "".join(words(w))
                if wk in ("dark", "light"):  # "dark gray": the tone, not a colour of its own
                    attrs.setdefault(wk, []).append(tone_key)
                    continue
                m.names.setdefault(wk, w)
                attrs.setdefault(wk, []).extend([wk, tone_key] if tone_key else [wk])
        m.attributes = {w: tuple(dict.fromkeys(a)) for w, a in attrs.items()}
        known = {a for keys in m.attributes.values() for a in keys}
        for group in data.get("contrasts") or []:
            keys = frozenset(key(a) for a in group)
            if not keys <= known:
                raise ValueError(f"contrast {group!r} names attributes the map does not have: {sorted(keys - known)}")
            m.contrasts += (keys,)
        return m

    @classmethod
    def load(cls, path: str | Path) -> CategoryMap:
        return cls.from_dict(yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {})

    # ---- lookups --------------------------------------------------------------------------------------

    def name(self, category_key: str) -> str:
        """How to say a category key ("stuffedanimal" -> "stuffed animal"); unknown keys as they are."""
        return self.names.get(category_key, category_key)

    def ancestors(self, category_key: str) -> list[str]:
        out = []
        c = category_key
        while c and c not in out:
            out.append(c)
            c = self.parent.get(c, "")
        return out

    def _known(self, ws: list[str]) -> tuple[int, str, str] | None:
        """The longest known ending of ``ws``: (index where it starts, the word key it matched, its
        canonical key with the last word singular). Tries the last word as written and in the singular,
        then known words at the end of a compound last word ("cutleryfork"; not "megaphone", whose end
        only spells "phone": ``lexical_categories.glued_compound``)."""
        if not ws:
            return None
        last_forms = list(dict.fromkeys([ws[-1], singular(ws[-1])]))
        # endings longer than the longest known word cannot match: skipping them keeps a stored label of any
        # length (20 KB, one word or thousands) to a bounded number of lookups instead of quadratic joins
        longest = self._longest_word()
        first, size = len(ws) - 1, 0
        while first > 0 and size + len(ws[first - 1]) <= longest:
            first -= 1
            size += len(ws[first])
        for i in range(first, len(ws)):
            for last in last_forms:
                k = "".join(ws[i:-1]) + last
                if k in self.word_category:
                    return i, k, "".join(ws[i:-1]) + singular(ws[-1])
        for last in last_forms:
            for j in range(max(_MIN_PART, len(last) - longest), len(last) - _MIN_PART + 1):
                part = last[j:]
                if part in self.word_category and glued_compound(self, last, j):
                    return len(ws) - 1, part, singular(part)
        return None

    def _longest_word(self) -> int:
        if self._longest_cached[0] != len(self.word_category):  # the map is filled after construction
            self._longest_cached = (len(self.word_category), max(map(len, self.word_category), default=0))
        return self._longest_cached[1]

    def known_ending(self, ws: list[str]) -> int | None:
        """Where the longest known ending of these words starts (None: no known word ends them)."""
        found = self._known(ws)
        return found[0] if found else None

    def own_kind(self, label: str) -> bool:
        """Whether the label is a compound WordNet reads as a kind of its own, not of the map's word it ends
        in (``lexical_categories.compound_reading``): a gravy boat is no boat."""
        ws = words(label)
        while len(ws) > 1 and ws[-1].isdigit():
            ws = ws[:-1]
        found = self._known(ws)
        return found is not None and found[0] == len(ws) - 1 and \
            compound_reading(self, ws, found[1], self.word_category[found[1]]) is not None

    def chain(self, label: str) -> list[str]:
        """Category keys of a label, most specific first (see the module docstring); never empty for a
        label with a word in it."""
        ws = words(label)
        if not ws:
            return []
        label_key = "".join(ws[:-1]) + singular(ws[-1])
        while len(ws) > 1 and ws[-1].isdigit():
            ws = ws[:-1]  # "pillow 2" is another pillow
        # "bag of rice" is rice, "deck of cards" cards; "head of lettuce" keeps its words (no measure)
        if "of" in ws[1:-1]:
            i = ws.index("of", 1)
            if ws[i - 1] in self.measures or singular(ws[i - 1]) in self.measures:
                ws = ws[i + 1:]
                ws = ws[1:] if len(ws) > 1 and ws[0] in ("the", "a", "an") else ws
        found = self._known(ws)
        # "soda can", "tissue box": the container's contents say what it is, when they are known
        if len(ws) > 1 and (ws[-1] in self.containers or singular(ws[-1]) in self.containers) and (
                found is None or found[0] == len(ws) - 1):
            inner = self._known(ws[:-1])
            if inner is not None:
                found = (inner[0], inner[1], inner[2])
        # "pudding cup", "yogurt cup": a serving of a food, not the cup, unless WordNet lists the compound as
        # a thing of its own (an egg cup is crockery); a "coffee cup" or a "pencil cup" stays a cup
        elif len(ws) > 1 and found is not None and found[0] == len(ws) - 1 and (
                serves := self.servings.get(singular(ws[-1]))):
            inner = self._known(ws[:-1])
            if inner is not None and serves in self.ancestors(self.word_category[inner[1]]) and \
                    not listed_compound(self, ws[inner[0]:]):
                found = (inner[0], inner[1], inner[2])
        levels = [label_key]
        if found:
            start, matched, head = found
            category = self.word_category[matched]
            # a compound WordNet lists as one word is its own kind: a "gravy boat" is a dish, not a boat
            compound = compound_reading(self, ws, matched, category) if start == len(ws) - 1 else None
            if compound is not None:
                start, head, category = compound
            levels.append(head)
            # "coffee mug" is also a mug, but a "bread knife" is a kitchen knife, not table cutlery
            if start < len(ws) - 1 and compound is None:
                last = self._known(ws[-1:])
                if last is not None and self.word_category[last[1]] == category:
                    levels.append(last[2])
            # a "tart tin" is a baking tin as a "muffin tin" is, not a storage tin
            if start == len(ws) - 1 and compound is None and len(ws) > 1:
                category = analogous_compound(self, ws, category) or category
        else:
            start, category = len(ws) - 1, ""
            levels.append(singular(ws[-1]))
            # "garlic powder": the map knows no powder, but it knows chili powder (a spice)
            if len(ws) > 1:
                category = analogous_compound(self, ws, "") or agent_of(self, ws)
        before = ws[:start]
        # "toy hammer" is a toy, "stuffed koala" a stuffed animal; "toy story dvd" stays a dvd. A modifier
        # bound to a kind ("dried" fruit, "canned" food) reaches across the words between it and the head
        # ("dried sour cherries", "tinned chopped tomatoes"); the one next to the head has the last word
        for i, w in enumerate(before):
            mod = self.modifiers.get(w)
            if mod is None or (category and i < len(before) - 1 and not mod.when):
                continue
            if not mod.when or mod.when in self.ancestors(category):
                category = mod.category
        attrs = [a for w in before for a in self.attributes.get(w, ())]
        return [c for c in dict.fromkeys([*levels, *attrs, *self.ancestors(category)]) if c]


def default_map_path() -> Path:
    """The shipped category map (source tree or installed share directory)."""
    return config_path(_CONFIG_FILE)


@lru_cache(maxsize=1)
def _shipped_map() -> CategoryMap:
    return CategoryMap.load(default_map_path())


_OVERRIDES: list[CategoryMap] = []


def default_map() -> CategoryMap:
    """The map every reader uses when none is passed: the shipped one, or the one ``using_map`` set."""
    return _OVERRIDES[-1] if _OVERRIDES else _shipped_map()


@contextmanager
def using_map(cmap: CategoryMap | str | Path) -> Iterator[CategoryMap]:
    """Within the block, ``default_map()`` is ``cmap`` (a map or a map file) for every reader (corrections,
    rules, similarity, planners); the shipped map again after it. For benchmarks that compare maps."""
    m = cmap if isinstance(cmap, CategoryMap) else CategoryMap.load(cmap)
    _OVERRIDES.append(m)
    try:
        yield m
    finally:
        _OVERRIDES.remove(m)
