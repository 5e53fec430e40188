"""How a thing a person names can match a label memory holds, beyond spelling it the same way.

Memory's labels come from mappers, datasets and detectors (``remotecontrol``, ``cutleryfork``,
``kitchentable``); people say "the remote", "a fork", "the table". Four ways, tried in this order, each
weaker than the one before and reported as such (``KindMatch.how``):

1. **head noun**: the label's last word is the noun said ("glass" -> ``wineglass``, "table" ->
   ``coffeetable``). Glued labels are split with the embedding model's own vocabulary (``Embedder.
   split_compound``), and the category map's known endings are used too ("cutleryfork" ends in fork);
2. **everyday name**: ``config/language/names.yaml`` ("remote" -> remote control, "couch" -> sofa);
3. **kind**: the noun names a category of the category map ("fruit", "cutlery", "drinks") and the label
   is one of its members;
4. **similarity** (``grounding.py``, through ``core/retrieval.py``): MiniLM, above a strict threshold.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import yaml

from ..core.categories import CategoryMap, default_map
from ..core.embedding import default_embedder
from ..core.resources import config_path
from ..core.text import key, norm, singular, tokens

# What a thing comes in (a closed class of packaging words, not object names): "lotion bottle" is lotion.
PACKAGING = frozenset({"bottle", "jar", "can", "tin", "box", "carton", "tube", "pack", "packet", "bag", "tub",
                       "container", "sachet", "pouch", "spray", "dispenser", "roll"})
HEAD_SCORE = 0.8  # below an exact label match (1.0): "table" for coffeetable is a weaker reading
NAME_SCORE = 0.7
KIND_SCORE = 0.6


@dataclass(frozen=True)
class KindMatch:
    score: float
    how: str  # "head noun", "everyday name", "kind"


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
            chain = self.categories.chain(label)
            ending = chain[1] if len(chain) > 1 and chain[1] != label and label.endswith(chain[1]) else ""
            if ending and (not ws or ws[-1] != ending):
                ws.append(ending)  # the category map knows the ending even where the vocabulary does not
            cached = self._label_words[label] = tuple(ws) or (label,)
        return cached

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
                bonus += 0.05  # the map reads the label as that noun (sports ball: a ball; balance ball: gym kit)
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
                if any(key(" ".join(lw)) == alt or alt.endswith(lw[-1]) for alt in self.names.get(said, [])):
                    return KindMatch(NAME_SCORE - 0.1, "everyday name")
        cat = self.category_key(h)
        if cat and cat != lkey and cat in self.categories.chain(label)[1:]:
            return KindMatch(KIND_SCORE, "kind")
        return None

    def category_key(self, noun: str) -> str:
        """The category a noun names ("fruit", "drinks", "cutlery"), or ""."""
        k = key(noun)
        if k in self.categories.parent:
            return k
        return ""

    def serves(self, purpose: str, label: str) -> bool:
        """Whether a thing with this label serves the purpose ("drink" -> milk, juice; "wash" -> sink)."""
        verb = purpose.split()[0] if purpose else ""
        p = self.purposes.get(verb)
        if p is None:
            return False
        lk = norm(label)
        if lk in p.words or (self.label_words(label)[-1] in p.words):
            return True
        return bool(set(self.categories.chain(label)) & p.categories)


@lru_cache(maxsize=1)
def default_names() -> Names:
    return Names.load()
