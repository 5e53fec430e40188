"""Text handling shared by every layer: words, singulars, stems and the normalised keys labels are compared by.

One module so that memory, retrieval, the category map and the request parser split and compare words the
same way: a label written ``coffee_table`` by a mapper, ``Coffee table`` by a person and ``coffeetable`` in
memory meet on one key. Rule-based on purpose: it runs on every write and every request, in microseconds.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Words that carry no identity in an object phrase: articles, possessives, quantifiers, fillers.
FILLER_WORDS = frozenset({
    "the", "a", "an", "my", "your", "our", "his", "her", "their", "its", "this", "that", "these", "those",
    "some", "any", "me", "us", "please", "now", "currently", "right", "again", "today", "one",
})

_PLURAL_ONLY = frozenset("""pants jeans shorts trousers leggings tights khakis chinos joggers sweatpants overalls
slacks capris pliers scissors tongs tweezers binoculars goggles earmuffs headphones earphones earbuds
sunglasses pajamas pyjamas clothes news series species boxers briefs panties suspenders dice means
electronics toiletries groceries sweets leftovers""".split())
_IRREGULAR = {"knives": "knife", "wives": "wife", "lives": "life", "leaves": "leaf", "loaves": "loaf",
              "shelves": "shelf", "halves": "half", "wolves": "wolf", "scarves": "scarf", "calves": "calf",
              "thieves": "thief", "elves": "elf", "men": "man", "women": "woman", "children": "child",
              "feet": "foot", "teeth": "tooth", "geese": "goose", "mice": "mouse", "people": "person",
              "cacti": "cactus"}
_IE_WORDS = frozenset("""cookies movies brownies pies ties hoodies smoothies zombies selfies goalies onesies
beanies veggies rookies calories lies genies budgies aussies freebies hippies yuppies newbies prairies
pixies sorties lassies""".split())
_OES_WORDS = frozenset("shoes toes canoes oboes horseshoes tiptoes snowshoes".split())


def singular(word: str) -> str:
    """The singular of one English noun, by rule and a short exception list ("knives" -> "knife",
    "cookies" -> "cookie", "pants" stays). Good enough for object labels; never raises."""
    w = word
    if len(w) <= 3 or w in _PLURAL_ONLY or not w.endswith("s"):
        return w
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w.endswith(("ss", "us", "is")):
        return w
    if w.endswith("ies"):
        return w[:-1] if w in _IE_WORDS else w[:-3] + "y"
    if w.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return w[:-2]
    if w.endswith("oes"):
        return w[:-1] if w in _OES_WORDS else w[:-2]
    return w[:-1]


def singular_phrase(phrase: str) -> str:
    """A noun phrase with its last word singular ("water glasses" -> "water glass")."""
    words = phrase.split()
    return " ".join(words[:-1] + [singular(words[-1])]) if words else phrase


def tokens(text: str, join_hyphens: bool = True) -> list[str]:
    """Lower-case words (letters and digits, any script) in order. Apostrophes join ("chef's" -> "chefs"),
    and so do hyphens unless ``join_hyphens`` is False ("t-shirt" -> "tshirt" or "t", "shirt")."""
    t = text.lower().replace("\u2019", "'").replace("'", "")
    if join_hyphens:
        t = t.replace("-", "")
    t = re.sub(r"&", " and ", t) if " & " in t else t.replace("&", "")
    return re.findall(r"[^\W_]+", t)


def content_words(text: str) -> list[str]:
    """Lower-case words without a possessive 's and without filler words: what names a thing."""
    out = []
    for raw in re.findall(r"[a-z0-9_'\u2019\-]+", text.lower()):
        w = re.sub(r"['\u2019]s$|['\u2019]$", "", raw).replace("'", "").replace("\u2019", "")
        if w and w not in FILLER_WORDS:
            out.append(w)
    return out


@lru_cache(maxsize=65536)  # labels, names and ids repeat on every request: compare them once
def norm(text: str) -> str:
    """Letters and digits only, lower case: compares labels, names, ids and words on one footing."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=65536)
def key(text: str) -> str:
    """The canonical key of a phrase: its words joined, last word singular ("Coffee Mugs" -> "coffeemug")."""
    ws = tokens(text)
    if not ws:
        return ""
    ws[-1] = singular(ws[-1])
    return "".join(ws)


def stem(word: str) -> str:
    """Crude verb stem, so the forms people and logs use meet: "opened" ~ "open", "putting" ~ "put",
    "taking" ~ "take"; irregular forms ("took") stay as they are and are listed where they matter."""
    w = word.lower()
    for suffix in ("ing", "es", "ed", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith("ss")):
            w = w[: -len(suffix)]
            break
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]  # putting -> putt -> put
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]  # take ~ taking
    return w


# Spelling is a poor guide to the sound: "a unicorn", "a one-way valve", "an hour", "an heirloom".
_YOO_OR_WUH = re.compile(r"^(uni|use|usu|ute|uk|eu|ewe|one|once)")
_SILENT_H = re.compile(r"^(hour|honest|honou?r|heir)")


def indefinite(noun: str) -> str:
    n = noun.lower()
    vowel_sound = (n[:1] in "aeiou" and not _YOO_OR_WUH.match(n)) or bool(_SILENT_H.match(n))
    return f"{'an' if vowel_sound else 'a'} {noun}"


def plural(noun: str) -> str:
    """The plural of a noun phrase's last word, by rule ("glass" -> "glasses", "shelf" -> "shelves")."""
    head, _, last = noun.rpartition(" ")
    w = last
    if not w or w.endswith("s") and singular(w) != w:
        out = w
    elif w.endswith(("s", "x", "z", "ch", "sh")):
        out = w + "es"
    elif w.endswith("y") and len(w) > 1 and w[-2] not in "aeiou":
        out = w[:-1] + "ies"
    elif w.endswith("f") and w not in ("roof", "chief", "belief"):
        out = w[:-1] + "ves"
    elif w.endswith("fe"):
        out = w[:-2] + "ves"
    else:
        out = w + "s"
    return f"{head} {out}" if head else out


# Characters that change how text is shown without being text: bidi overrides and isolates, zero-width
# characters, the BOM (all Cf), C0/C1 controls (Cc), lone surrogates (Cs), private-use (Co) and unassigned
# (Cn) code points, and U+FFFD, which only says a decoder met bytes that were not text. A name or reply that
# keeps them renders reversed or invisible in a user interface (a stored "\u202emug" reads "gum").
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_LINE_BREAKS = frozenset("\t\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def clean_text(text: str) -> str:
    """``text`` as memory stores, parses and says it: Unicode NFKC (full-width and compatibility forms folded:
    "ｍｕｇ" -> "mug"), tabs and line breaks made spaces, every invisible or control character above removed.
    Linear in the text's length; printable text in any script is kept as it is."""
    import unicodedata

    if text.isascii() and text.isprintable():
        return text  # the common case, without building a new string
    out = []
    for ch in unicodedata.normalize("NFKC", text):
        if ch in _LINE_BREAKS:
            out.append(" ")
        elif ch != "\ufffd" and unicodedata.category(ch) not in _INVISIBLE_CATEGORIES:
            out.append(ch)
    return "".join(out)
