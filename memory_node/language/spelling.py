"""British and American spellings of one word, by the rules that separate them, not by a word list.

People in a home say "organiser", "colour", "centre", "catalogue", "jewellery"; WordNet 3.0 and most
label sets spell the American way ("colorprinter", "organizer"), and some datasets spell the British
way. The differences are regular suffix patterns (-ise/-ize, -yse/-yze, -our/-or, -tre/-ter, -ogue/-og,
-mme/-m, a doubled l before a suffix), so a word either way is turned into one canonical (American) form
for comparing with labels, and into its other spellings for looking up a word WordNet does not know as
said. A rule may produce a non-word ("noise" -> "noize"); that is harmless because canonical forms are
only ever compared with other canonical forms, and variants are only tried where the word as said is
unknown.
"""

from __future__ import annotations

import re
from functools import lru_cache

# (British pattern, American replacement), applied at a word's end (the inflections people add included)
_END_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"(?<=[a-z]{3})is(e|es|ed|ing|er|ers|ation|ations)$", r"iz\1"),  # organiser, sanitiser
    (r"(?<=[a-z]{2})ys(e|es|ed|ing|er|ers)$", r"yz\1"),  # analyse, paralyse
    (r"(?<=[a-z]{2}[^aeiou])our(s|ed|ing|ful|less|ite|ites|able)?$", r"or\1"),  # colour, flavours, favourite
    (r"(?<=[a-z]{2})([bt])re(s)?$", r"\1er\2"),  # centre, fibre, litre, theatre
    (r"(?<=[a-z]{3})ogue(s)?$", r"og\1"),  # catalogue, dialogue
    (r"(?<=[a-z]{4})mme(s)?$", r"m\1"),  # programme
    (r"(?<=[a-z][aeiou])ll(ed|ing|er|ers)$", r"l\1"),  # travelled, jeweller
    (r"ellery$", "elry"),  # jewellery
))
# the same patterns anywhere inside a glued label ("colourprinter", "sanitiserbottle")
_INNER_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"(?<=[a-z]{3})is(ation|er)", r"iz\1"),
    (r"(?<=[a-z]{2}[^aeiou])our(?=[a-z])", "or"),
    (r"ellery", "elry"),
))


@lru_cache(maxsize=65536)
def american(word: str) -> str:
    """The American spelling of one lower-case word or glued label ("organiser" -> "organizer",
    "colourprinter" -> "colorprinter"); unchanged where no rule applies."""
    w = word.lower()
    for pat, rep in _END_RULES:
        new = pat.sub(rep, w)
        if new != w:
            w = new
            break
    for pat, rep in _INNER_RULES:
        w = pat.sub(rep, w)
    return w


def canonical(phrase: str) -> str:
    """A phrase with every word in its American spelling ("hand sanitiser" -> "hand sanitizer")."""
    return " ".join(american(w) for w in phrase.split())


@lru_cache(maxsize=65536)
def variants(word: str) -> tuple[str, ...]:
    """Other spellings of one word: its American form, and where it is American its British forms
    ("organizer" -> organiser; "colour" -> color); the word itself is not included."""
    w = word.lower()
    out: dict[str, None] = {}
    us = american(w)
    if us != w:
        out[us] = None
    for pat, rep in ((r"(?<=[a-z]{3})iz(e|es|ed|ing|er|ers|ation|ations)$", r"is\1"),
                     (r"(?<=[a-z]{2})yz(e|es|ed|ing|er|ers)$", r"ys\1"),
                     (r"(?<=[a-z]{2}[^aeiou])or(s)?$", r"our\1"),
                     (r"(?<=[a-z]{2})([bt])er(s)?$", r"\1re\2")):
        gb = re.sub(pat, rep, w)
        if gb != w:
            out[gb] = None
    out.pop(w, None)
    return tuple(out)
