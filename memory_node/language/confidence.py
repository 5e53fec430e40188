"""How sure a grounding is, and when the robot should ask back rather than act.

A grounding that picked one entity can still be a guess: "the coffee machine" matched to a washing machine
by the similarity stage, "the medicine cabinet" to the one plain cabinet (the bathroom cabinet beside it
never considered: "medicine" was simply not looked at), "a salty snack" to a candy bar because both are
snacks. Asking back costs the person one word; fetching the wrong thing costs more. So every grounding
gets a confidence in 0..1:

- the grounder's own score of a candidate's name match starts it (``Candidate.confidence``,
  ``names.CONFIDENCE``): an exact label 1.0, a WordNet synonym 0.85, the head noun or an everyday name 0.8,
  a kind or a part 0.7, MiniLM similarity, the last resort, 0.45-0.6; a thing the speaker confirmed is 1.0;
- every **word the phrase says that the entity does not explain** halves it: a compound noun ("medicine"
  cabinet, "dining" table) when memory holds another kind of the same head noun that the word may single
  out (a bathroom cabinet beside the cabinet; a kitchen table beside the coffee table), or, when the head
  itself only matched by kind or similarity, any naming or describing word ("coffee" machine, "salty"
  snack). A compound with no rival kind is a description ("my coffee mug" where every mug is a mug).
  Explained means: a word of the entity's label, name, attribute values or room, or of an everyday name of
  its label (``config/language/names.yaml``). Colours, sizes, states, ordinals and the like are not
  counted here: attribute matching weighs them.

``ASK_BELOW``: a grounding less sure than this is not acted on (``~/plan``) or answered as fact (``~/ask``);
the reply names the best candidates and asks ("Do you mean the washing machine (washingmachine_3) in the
kitchen?"), and a "yes" next finishes the request with that thing (``followup.py``).
"""

from __future__ import annotations

from functools import lru_cache

from ..core.models import Entity
from ..core.text import norm, singular, tokens
from . import lexicon as lx
from .names import Names, default_names

ASK_BELOW = 0.6
UNEXPLAINED_FACTOR = 0.5
WEAK_HEAD = frozenset({"kind", "similar", "category", "wordnet broader"})
# readings that weighed every compound word said against the label themselves (``Names.modified``,
# ``Names.contents``): "mustard" in "mustard jar" is what made the condiment jar the match, not a word left over
COMPOUND_READ = frozenset({"wordnet compound", "shared kind", "named by its modifiers", "contents", "wordnet gloss"})
WHOLE_PHRASE_COSINE = 0.8
WHOLE_PHRASE_MARGIN = 0.095  # cosines are printed to two places; 0.10 apart is apart
WEAK_BUT_EXPLAINED = 0.7  # matched by kind or similarity, but every word said is a word of the thing
# words that describe rather than name a kind of thing: weighed by attribute matching, not here
_DESCRIBING = frozenset({"big", "small", "little", "large", "tiny", "huge", "old", "new", "other", "another", "same",
                         "last", "first", "second", "third", "next", "usual", "favourite", "favorite", "nice",
                         "left", "right", "top", "bottom", "middle", "front", "back", "clean", "dirty", "empty",
                         "full", "wooden", "metal", "plastic", "glass", "ceramic", "paper", "leather", "cotton",
                         "tall", "short", "long", "round", "square", "heavy", "light", "dark", "bright", "pale",
                         "whole", "single", "only", "own", "spare", "main", "one", "ones"})


def _words(text: str) -> set[str]:
    return {singular(norm(w)) for w in tokens(text) if w}


@lru_cache(maxsize=4096)
def _name_words(names: Names, label: str) -> frozenset[str]:
    """Words of every everyday name that may mean ``label``, and of the names it is called by."""
    lk = norm(label)
    out: set[str] = set()
    for said, labels in names.names.items():
        if lk in labels:
            out |= _words(said)
    return frozenset(out)


def explaining_words(ent: Entity, room_label: str = "", names: Names | None = None) -> set[str]:
    """The words that name ``ent``: its label's words, name, attribute values, room, everyday names."""
    names = names or default_names()
    out = {singular(w) for w in names.label_words(ent.label)}
    out |= _words(ent.name) | _words(ent.label) | _words(room_label)
    for v in ent.attributes.values():
        if len(v) <= 40:
            out |= _words(v)
    out |= _name_words(names, ent.label)
    for kind in names.categories.chain(ent.label)[1:]:  # "some fruit" for an apple: the category names it
        out |= {singular(w) for w in names.label_words(kind)}
    return out


def rival_kinds(head: str, label: str, labels: set[str], names: Names | None = None) -> bool:
    """Whether memory holds another kind of thing named by the same head noun ("cabinet": bathroomcabinet
    beside cabinet), which a compound said with the head may single out."""
    names = names or default_names()
    h = singular(norm(head))
    return any(other != label and singular(names.label_words(other)[-1]) == h for other in labels)


def naming_modifiers(modifiers: list[str]) -> list[str]:
    """Modifiers that are nouns of things (WordNet), not descriptions: "dish" in "dish soap", not "salty"."""
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    out = []
    for m in modifiers:
        w = singular(norm(m))
        if not w or w in _DESCRIBING or w in lx.COLOUR_WORDS or w in lx.STATE_WORDS or w in lx.ORDINALS or \
                w in lx.NUMBER_WORDS or wn is None:
            continue
        if wn.senses(w):
            out.append(m)
    return out


def own_kind_words(compound: list[str], head: str, label: str, names: Names | None = None) -> bool:
    """The label names its own kind of the head with other words than the compound said ("dish soap" for a
    bar soap, "dining table" for a kitchen table): two specifiers of one head are two kinds until shown
    otherwise. A label that is the head alone ("mug" for "my coffee mug") is described, not contradicted."""
    names = names or default_names()
    words = [singular(w) for w in names.label_words(label)]
    h = singular(norm(head))
    if len(words) < 2 or words[-1] != h:
        return False
    said = {singular(norm(w)) for w in compound}
    return not set(words[:-1]) <= said


def unexplained(words: list[str], compound: list[str], how: str, ent: Entity, room_label: str = "",
                names: Names | None = None, rivals: bool = True, head: str = "") -> list[str]:
    """The naming words of a phrase that ``ent`` does not explain: ``compound`` nouns when the head matched
    weakly or ``rivals`` (another kind with that head is in memory), ``words`` describing it only when the
    head matched weakly."""
    weak = how in WEAK_HEAD
    said = [singular(norm(w)) for w in compound] if (weak or rivals) and how not in COMPOUND_READ else []
    if weak:
        said += [singular(norm(w)) for w in words] + [singular(norm(head))]
    said = [w for w in said if w and w not in _DESCRIBING and w not in lx.COLOUR_WORDS and w not in lx.STATE_WORDS
            and w not in lx.ORDINALS and w not in lx.NUMBER_WORDS and not w.isdigit()]
    if not said:
        return []
    known = explaining_words(ent, room_label, names)
    return [w for w in dict.fromkeys(said) if w not in known]


def names_it_whole(phrase: str, label: str, labels: set[str]) -> bool:
    """The phrase as a whole names this label and no other memory holds: MiniLM similarity at least
    ``WHOLE_PHRASE_COSINE`` and ``WHOLE_PHRASE_MARGIN`` above every other label ("coffee machine" ~ coffee
    maker 0.88, the coffee pot 0.78; "trash can" ~ garbage can 0.89). Words the label does not share are then
    the person's way of saying it, not a kind they single out; "medicine cabinet" ~ cabinet 0.73 or "dish
    soap" ~ bar soap 0.72 stay unexplained and are asked about."""
    from ..core import similarity
    from ..core.embedding import default_embedder

    others = sorted(labels - {label})
    try:
        vecs = similarity._CACHE.vectors(default_embedder(), [phrase, label, *others])
    except Exception:  # noqa: BLE001 - without the model, words are only explained by words
        return False
    if vecs is None:
        return False
    cos = vecs[1:] @ vecs[0]
    return float(cos[0]) >= WHOLE_PHRASE_COSINE and all(float(c) <= cos[0] - WHOLE_PHRASE_MARGIN for c in cos[1:])


def plural_meaning(text: str, head: str, ent: Entity, room_label: str = "", names: Names | None = None) -> list[str]:
    """The plural said (["glasses"]) when its commonest WordNet sense is another thing than its singular's
    (glasses: spectacles; papers: documents) and ``ent`` is not that thing: "my glasses" matched to a wine glass
    through "glass" is a guess, asked about; [] otherwise."""
    from ..core.wordnet import default_wordnet

    h = singular(norm(head))
    for w in tokens(text):
        said = norm(w)
        if said == h or not said.endswith("s") or singular(said) != h:
            continue
        wn = default_wordnet()
        senses = wn.noun_senses(said) if wn is not None else ()
        if not senses:
            return []
        # the sense's other names, as written ("spectacles", "specs", "eyeglasses"; "glasses" itself would
        # singularise back to "glass")
        meant = {norm(n.replace("_", " ")) for n in wn.lemma_names(senses[0])}
        if h in meant:
            return []
        others = {singular(m) for m in meant - {said}}
        known = explaining_words(ent, room_label, names)
        return [] if others & known or any(m.replace(" ", "") == norm(ent.label) for m in meant) else [said]
    return []


def grounding_confidence(how: str, own: float, missing: list[str]) -> float:
    """``own``: the grounder's score of the name match; ``missing``: the words the thing does not explain."""
    base = own
    if how in WEAK_HEAD and not missing:
        base = max(base, WEAK_BUT_EXPLAINED)  # "the teddy" for a teddy bear: every word said is the thing's
    return max(0.0, min(1.0, base * UNEXPLAINED_FACTOR ** len(missing)))
