"""ALFRED end to end: crowd-written household instructions sent to ``~/plan``, graded by the plan that comes back.

    python -m memory_node.bench.alfred_plan_eval [--split dev|aside|all] [--robot vega] [--seed 0]
                                                 [--variants goal,steps] [--failures 5] [--data FILE]

Source: ``../shared/data/alfred/annotations.jsonl.gz``, rows with ``split == "valid_seen"`` only (820 people's
descriptions of 251 tasks). The ``train`` rows are the learned reader's training data and are never read here.
(``language/corpus/alfred_valid_seen.jsonl`` has the goal text but neither the trial nor the task's receptacle
class, which the filling needs.)

What is graded. Six of ALFRED's seven task types end with one thing at one place:
``pick_and_place_simple``, ``pick_two_obj_and_place`` (the two-object phrase grades like one object),
``pick_clean_then_place_in_recep``, ``pick_heat_then_place_in_recep``, ``pick_cool_then_place_in_recep`` and
``pick_and_place_with_movable_recep``. Each is a put of ``object`` into / onto ``receptacle``. Cleaning, heating
and cooling are no robot skill here; the graded part is that the plan puts the right thing at the right place
(``paraphrase_eval`` ``Expect("place")``), or asks back / refuses rather than doing something wrong. With a
movable receptacle (a bowl holding the thing, carried to the table) the bowl's words name another thing memory
holds, and putting the thing into that stand-in also counts; no apartment has a small container memory holds
alone, so the stand-in is a small thing that is no container, the sentence asks for something memory says is
not so, and the report gives the figures without this task type as well (only the goal variant has it). ``look_at_obj_in_light`` is left out and counted: its goal is to look at a thing under a lamp
(a "look" and a lamp switch, neither a put nor a fetch), and many of its goals do not name the thing at all
("Turn off the lamp").

Filling. The sentence names the object and the receptacle in the writer's own words; those words are
located (``locate``) and replaced by a thing memory holds and a receptacle that exists in one of the project's
scripted VirtualHome apartments (``paraphrase_eval.build_world``), chosen as ``paraphrase_eval.case_put_on``
chooses them (one of the static and moved things of the script; a unique surface, or a unique openable
container where the writer said "in" / "into" / "inside"). Everything else stays as written: the writer's
determiners (only "a" / "an" follow the new noun), adjectives, the heating or chilling, typos. A place the
thing is taken from ("from the counter", and in the pick-up step "the mug on the counter") names where memory
holds the thing instead. Sentences where the spans are not found are skipped and counted by reason.

The matcher (``locate``), from the AI2-THOR class name to words in the sentence, with no table of wordings:
candidate phrases are the class split into words ("AlarmClock" -> "alarm clock") and every contiguous part of
it (a single word only if WordNet knows it as a physical noun, and not "top" / "side", which are position
words in these sentences: "on top of"), the class written as one word, and the WordNet 3.0 synonyms of the
class phrase's senses and of their direct hypernyms (``memory_node.core.wordnet``: "garbage can" -> trash
can, ashcan, bin; "fridge" -> refrigerator). Words are compared in a crude singular (``_singular``). The
receptacle is the longest match, the last one if tied (destinations come last); the object the longest match
outside it, the first if tied. A span grows over physical nouns either side ("kitchen table", "counter top",
"toilet paper roll"), over "<piece|slice|bar|...> of" before it and "of <candidate word>" after it ("box of
tissues"). Precision on the dev half (40 rows read by hand when this was written, goal variant): see
``docs/benchmarks.md``.

Two variants per annotation: ``goal`` (the one-sentence goal) and ``steps`` (the step that picks the thing up
and the step that puts it down, joined as written: "Pick up the mug on the counter. Put the mug in the
coffee maker.").

Split. Annotations are split by trial (a salted hash, ``SPLIT_SALT``; every description of one task falls in
the same half) into ``dev`` and ``aside`` halves before anyone read a sentence of either. ``dev`` may be read to
find classes of failure; ``aside`` is run, its table printed, its sentences and failures never.

Every reply falls in one of four classes (``paraphrase_eval.classify``): right / asked back / refused / wrong.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from memory_node.bench import paraphrase_eval as pe

DATA_FILE = pe.DATA / "alfred" / "annotations.jsonl.gz"
SPLIT_SALT = "memory_node-alfred-plan-2026-12"
SOURCE_SPLIT = "valid_seen"
PUT_TYPES = ("pick_and_place_simple", "pick_two_obj_and_place", "pick_clean_then_place_in_recep",
             "pick_heat_then_place_in_recep", "pick_cool_then_place_in_recep", "pick_and_place_with_movable_recep")
LEFT_OUT = {"look_at_obj_in_light": "looking at a thing under a lamp is neither a put nor a fetch"}
VARIANTS = ("goal", "steps")
CLASSES = pe.CLASSES

# position words that are also nouns ("on top of the toilet", "the left side of the sink")
NOT_NAMES = frozenset({"top", "side"})
# a portion of a thing said before it ("a slice of bread", "two bars of soap")
PARTITIVES = frozenset({"piece", "slice", "bar", "roll", "box", "bottle", "head", "loaf", "half", "chunk",
                        "wedge", "bunch", "pair", "can", "carton", "tube", "cake", "stick", "set"})
DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "its", "their", "his", "her",
                         "my", "your", "some", "one", "two", "both"})
FUNCTION = DETERMINERS | frozenset({"of", "to", "in", "into", "on", "onto", "from", "and", "then", "it", "with",
                                    "at", "by", "for", "up", "down", "off", "out", "inside", "under", "near",
                                    "next", "back", "front", "left", "right", "away", "over", "there", "here",
                                    "place", "put",
                                    "set", "move", "take", "pick", "grab", "turn", "walk", "go", "carry", "bring"})
PLURAL_CUES = frozenset({"two", "both", "three", "some"})
INTO = frozenset({"in", "into", "inside", "within"})
PICK_VERBS = re.compile(r"\b(pick|picks|picked|take|takes|grab|grabs|get|gets|lift|lifts|remove|removes|"
                        r"retrieve|collect|hold)\b", re.I)
PUT_VERBS = re.compile(r"\b(put|puts|place|places|set|sets|drop|drops|leave|leaves|throw|throws|toss|"
                       r"deposit|insert|store|move|moves|lay|return)\b", re.I)


def split_of(trial: str) -> str:
    """``aside`` for one trial in two, by a salted hash of its id (stable, independent of order and text)."""
    h = int(hashlib.sha1(f"{SPLIT_SALT}:{trial}".encode()).hexdigest(), 16)
    return "aside" if h % 2 else "dev"


def load_rows(path: Path = DATA_FILE, split: str = "all") -> list[dict]:
    """``valid_seen`` annotations of one half (or both), each tagged with its half; never a ``train`` row."""
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r.get("split") != SOURCE_SPLIT:
                continue
            r["half"] = split_of(r["trial"])
            if split in ("all", r["half"]):
                out.append(r)
    return out


# ---- the matcher: class name -> the words that name it in a sentence ---------------------------------------


def _singular(word: str) -> str:
    """A crude singular, enough to compare nouns ("knives", "boxes", "potatoes", "keys")."""
    w = word.lower()
    if len(w) <= 3 or w.endswith(("ss", "us", "is")):
        return w
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("ives"):
        return w[:-3] + "fe"
    if w.endswith(("ches", "shes", "xes", "sses", "toes", "zes")):
        return w[:-2]
    if w.endswith("s"):
        return w[:-1]
    return w


def _wordnet():
    from memory_node.core.wordnet import default_wordnet
    return default_wordnet()


def class_words(cls: str) -> tuple[str, ...]:
    """"AlarmClock" -> ("alarm", "clock"); "CD" -> ("cd",); "Glassbottle" -> ("glass", "bottle") where
    WordNet knows both halves."""
    parts = tuple(p.lower() for p in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", cls))
    if len(parts) == 1:
        wn = _wordnet()
        word = parts[0]
        if wn is not None and not wn.known(word):
            for i in range(3, len(word) - 2):
                if wn.known(word[:i]) and wn.known(word[i:]):
                    return (word[:i], word[i:])
    return parts


@lru_cache(maxsize=None)
def candidates(cls: str) -> tuple[tuple[str, ...], ...]:
    """The phrases (word tuples, singular) that may name ``cls`` in a sentence, longest first."""
    words = class_words(cls)
    wn = _wordnet()
    out: set[tuple[str, ...]] = {tuple(_singular(w) for w in words), ("".join(words),)}
    for i in range(len(words)):
        for j in range(i + 1, len(words) + 1):
            part = words[i:j]
            if len(part) == len(words):
                continue
            if len(part) == 1 and (part[0] in NOT_NAMES or len(part[0]) < 3 or wn is None or not wn.known(part[0])):
                continue
            out.add(tuple(_singular(w) for w in part))
    if wn is not None:
        parts = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
        for phrase in sorted(parts | {"".join(words)}):
            if phrase in NOT_NAMES or len(phrase) < 3:
                continue
            names = list(wn.lemmas(phrase))
            senses = wn.senses(phrase)
            if senses:
                for h in senses[0].hypernyms():
                    names += [n.replace("_", " ").lower() for n in wn.lemma_names(h)]
            for n in names:
                toks = tuple(_singular(t) for t in re.findall(r"[a-z]+", n))
                if toks and not (len(toks) == 1 and toks[0] in NOT_NAMES):
                    out.add(toks)
    return tuple(sorted(out, key=lambda c: (-len(c), c)))


@dataclass(frozen=True)
class Span:
    start: int  # token indices, end exclusive
    end: int
    plural: bool = False
    core: tuple[str, ...] = ()  # the candidate phrase matched, before the span grew around it


_TOKEN = re.compile(r"[A-Za-z]+")


def tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _matches(toks: list[tuple[str, int, int]], cls: str, exclude: set[int]) -> list[tuple[int, int]]:
    sing = [_singular(t[0]) for t in toks]
    low = [t[0].lower() for t in toks]
    found = []
    for cand in candidates(cls):
        n = len(cand)
        for i in range(len(toks) - n + 1):
            if any(k in exclude for k in range(i, i + n)):
                continue
            if all(sing[i + k] == cand[k] or low[i + k] == cand[k] for k in range(n)):
                found.append((i, i + n))
    return found


def _physical(word: str) -> bool:
    wn = _wordnet()
    w = word.lower()
    return w not in FUNCTION and len(w) > 2 and wn is not None and (wn.known(w) or wn.known(_singular(w)))


def _noun(word: str) -> bool:
    wn = _wordnet()
    return word not in FUNCTION and len(word) > 2 and wn is not None and wn.any_noun(word)


def _grow(toks: list[tuple[str, int, int]], i: int, j: int, cls: str, exclude: set[int]) -> tuple[int, int]:
    low = [t[0].lower() for t in toks]
    words = {w for c in candidates(cls) for w in c}
    # the rest of a compound the writer said in full ("coffee maker" for CoffeeMachine, "toilet paper holder")
    whole = tuple(_singular(w) for w in class_words(cls))
    core = tuple(_singular(w) for w in low[i:j])
    prefix = len(core) < len(whole) and whole[: len(core)] == core
    while i > 0 and i - 1 not in exclude and _physical(low[i - 1]):
        i -= 1
    while j < len(toks) and j not in exclude and (_physical(low[j]) or (prefix and _noun(low[j]))):
        j += 1
    for k in (1, 2):  # "bottles of spray", "bottles of cleaning spray"
        if j + k < len(toks) and low[j] == "of" and _singular(low[j + k]) in words and \
                not (set(range(j, j + k + 1)) & exclude) and all(x not in FUNCTION for x in low[j + 1:j + k + 1]):
            j += k + 1
            break
    for k in (2, 3):  # "a slice of bread", "a piece of the apple"
        if i >= k and low[i - k + 1] == "of" and _singular(low[i - k]) in PARTITIVES and \
                all(x in DETERMINERS for x in low[i - k + 2:i]) and not (set(range(i - k, i)) & exclude):
            i -= k
            break
    return i, j


def _plural(toks: list[tuple[str, int, int]], i: int, j: int) -> bool:
    low = [t[0].lower() for t in toks]
    head = low[j - 1]
    if i > 0 and low[i - 1] in PLURAL_CUES:
        return True
    return _singular(head) != head and head not in ("glass", "lettuce")


def locate(text: str, cls: str, exclude: set[int] = frozenset(), last: bool = False) -> Span | None:
    """The span naming ``cls`` in ``text`` (token indices), or None: the longest candidate match, the first
    (``last``: the last) of equally long ones, grown over the noun phrase around it."""
    toks = tokens(text)
    found = _matches(toks, cls, set(exclude))
    if not found:
        return None
    longest = max(j - i for i, j in found)
    best = [m for m in found if m[1] - m[0] == longest]
    i, j = max(best) if last else min(best)
    core = tuple(_singular(t[0]) for t in toks[i:j])
    i, j = _grow(toks, i, j, cls, set(exclude))
    return Span(i, j, _plural(toks, i, j), core)


# ---- filling --------------------------------------------------------------------------------------------


@dataclass
class Filled:
    text: str
    expect: pe.Expect
    obj: str
    dest: str


class Skip(Exception):
    """Why an annotation could not be filled (counted by reason)."""


def _article_for(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


class Editor:
    """Replacements of token spans in one sentence, applied right to left; "a" / "an" before a replaced span
    follows the new noun."""

    def __init__(self, text: str) -> None:
        self.text, self.toks, self.edits = text, tokens(text), []

    def used(self) -> set[int]:
        return {k for i, j, _ in self.edits for k in range(i, j)}

    def replace(self, span: Span, new: str) -> None:
        self.edits.append((span.start, span.end, new))
        if span.start > 0 and self.toks[span.start - 1][0].lower() in ("a", "an"):
            art = _article_for(new)
            old = self.toks[span.start - 1][0]
            self.edits.append((span.start - 1, span.start, art.capitalize() if old[0].isupper() else art))

    def result(self) -> str:
        out = self.text
        for i, j, new in sorted(self.edits, key=lambda e: -e[0]):
            out = out[: self.toks[i][1]] + new + out[self.toks[j - 1][2]:]
        return out


_SOURCE = ("from", "off", "out")
RELATIVE = frozenset({"that", "s", "is", "which", "sitting", "lying", "laying", "located", "resting", "currently",
                      "standing", "placed"})
# where the name of a source place ends ("from the left cabinet under the sink": "left cabinet")
SOURCE_STOP = frozenset({"to", "into", "onto", "on", "in", "inside", "and", "then", "at", "under", "near", "next",
                         "by", "with", "of", "from", "behind", "beside", "above", "below", "before", "after",
                         "put", "place", "set", "that", "which", "it", "turn", "walk", "go", "so"}) | DETERMINERS
# a receptacle one opens, or puts things inside of, is a container even where the writer said "on" or "to"
INSIDE_CUE = re.compile(r"\b(open|opens|opened|opening|inside)\b|\bin (there|it)\b|\bin[.,]?$", re.I)


def repeats(ed: Editor, span: Span, cls: str, keep: set[int] = frozenset()) -> list[Span]:
    """Other mentions of the words the span matched ("open the drawer ... close the drawer door"), each
    grown like the first, outside what is replaced already and outside ``keep`` (the other thing's words:
    "toilet" in "the toilet paper roll" is no mention of the toilet)."""
    low = [_singular(t[0]) for t in ed.toks]
    n, used = len(span.core), ed.used() | set(range(span.start, span.end)) | set(keep)
    out = []
    for i in range(len(low) - n + 1):
        if n and tuple(low[i:i + n]) == span.core and not (set(range(i, i + n)) & used):
            a, b = _grow(ed.toks, i, i + n, cls, used)
            out.append(Span(a, b, _plural(ed.toks, a, b), span.core))
            used |= set(range(a, b))
    return out


def _source_span(ed: Editor, after: int, before: int, near_object: bool) -> tuple[int, Span] | None:
    """A phrase naming where the thing is taken from, between token ``after`` and ``before``: "from (the) X",
    "off (of) (the) X", "out of (the) X"; in a pick-up step also "on / in / at (the) X" right after the
    object; "<part> of (the) X" names X ("on top of the desk"). Returns (index of the preposition, or -1
    where a part stands between it and X, and the span of X)."""
    low = [t[0].lower() for t in ed.toks]
    used = ed.used()
    k = after
    while k < before:
        if near_object and k == after:  # "the egg that is on the counter", "the mug sitting in the sink"
            while k < before and low[k] in RELATIVE:
                k += 1
            after = k
            if k >= before:
                return None
        w = low[k]
        preps = _SOURCE + (("on", "in", "inside", "at") if near_object and k == after else ())
        if w in preps and k not in used:
            p = k
            k += 1
            if w in ("off", "out") and k < before and low[k] == "of":
                k += 1
            elif w == "out":
                return None
            while k < before and low[k] in DETERMINERS:
                k += 1
            start = k
            while k < before and low[k] not in SOURCE_STOP and k not in used:
                k += 1
            if k - start == 1 and k < before and low[k] == "of":  # "on top of the desk": the desk
                k += 1
                while k < before and low[k] in DETERMINERS:
                    k += 1
                start, p = k, -1
                while k < before and low[k] not in SOURCE_STOP and k not in used:
                    k += 1
            if k > start and k - start <= 4:
                return p, Span(start, k)
            return None
        k += 1
    return None


def _preposition(ed: Editor, start: int) -> str:
    """The preposition a noun phrase follows ("into a small grey bin" -> "into"), or ""."""
    k = start - 1
    while k >= 0 and ed.toks[k][0].lower() not in FUNCTION - DETERMINERS:
        k -= 1
    return ed.toks[k][0].lower() if k >= 0 and start - k <= 5 else ""


def _name(w: pe.World, ent: str, plural: bool = False) -> str:
    return w.say(ent, plural)


def _pick_step(steps: list[str], cls: str) -> str | None:
    for s in steps:
        if PICK_VERBS.search(s) and locate(s, cls) is not None:
            return s
    return None


def _put_step(steps: list[str], cls: str) -> str | None:
    for s in reversed(steps):
        if PUT_VERBS.search(s) and locate(s, cls, last=True) is not None:
            return s
    return None


def fill(row: dict, w: pe.World, roles, v: int, variant: str = "goal") -> Filled:
    """The annotation's sentence(s) with the object and receptacle replaced by a thing memory holds and a
    place of ``w``; raises ``Skip`` with the reason where it cannot."""
    if row["task_type"] not in PUT_TYPES:
        raise Skip(f"task type {row['task_type']} left out")
    obj_cls, rec_cls, mrec_cls = row["object"], row["receptacle"], row.get("mrecep") or ""
    obj = pe._pick([w.cast["static"][2], w.cast["moved"][2], w.cast["static"][1]], v)
    holder = w.loc[obj][1]
    if variant == "goal":
        sentences = [row["goal"]]
    else:
        if mrec_cls:
            raise Skip("a movable receptacle takes more than a pick-up and a put-down step")
        pick, put = _pick_step(row["steps"], obj_cls), _put_step(row["steps"], rec_cls)
        if pick is None:
            raise Skip("no pick-up step naming the object")
        if put is None:
            raise Skip("no put-down step naming the receptacle")
        sentences = [pick, put] if pick != put else [pick]
    out, dest, into = [], None, None
    mrec_obj = None
    for si, text in enumerate(sentences):
        ed = Editor(text)
        is_pick = variant == "steps" and si == 0 and len(sentences) == 2
        rspan = None if is_pick else locate(text, rec_cls, last=True)
        if rspan is None and not is_pick:
            raise Skip("receptacle words not found")
        excl = set(range(rspan.start, rspan.end)) if rspan else set()
        ospan = locate(text, obj_cls, exclude=excl)
        if ospan is None and (variant == "goal" or is_pick):
            raise Skip("object words not found")
        if rspan is not None:
            keep = set(range(ospan.start, ospan.end)) if ospan else set()
            rspans = [rspan, *repeats(ed, rspan, rec_cls, keep)]
            into = any(_preposition(ed, sp.start) in INTO for sp in rspans) or bool(INSIDE_CUE.search(text))
            if dest is None:
                pool = roles.cont if into else roles.surf
                pool = [p for p in pool if p != holder and "locked" not in w.states.get(p, set())]
                dest = pe._pick(pool, v)
                if dest is None:
                    raise Skip("no receptacle of that kind in the apartment")
            for sp in rspans:
                ed.replace(sp, _name(w, dest, sp.plural))
        if ospan is not None and set(range(ospan.start, ospan.end)) & ed.used():
            ospan = None  # the object's words repeat the receptacle's ("the toilet paper" / "toilet paper holder")
        if ospan is not None:
            for sp in [ospan, *repeats(ed, ospan, obj_cls)]:
                ed.replace(sp, _name(w, obj, sp.plural))
            if mrec_cls:
                excl2 = ed.used()
                mspan = locate(text, mrec_cls, exclude=excl2)
                if mspan is None and variant == "goal":
                    raise Skip("movable receptacle words not found")
                if mspan is not None:
                    if mrec_obj is None:
                        pool = [o for o in roles.obj if o not in (obj, dest) and w.loc[o][1] != obj]
                        mrec_obj = pe._pick(pool, v + 1)
                        if mrec_obj is None:
                            raise Skip("no second thing for the movable receptacle")
                    ed.replace(mspan, _name(w, mrec_obj, mspan.plural))
            # where the sentence picks the thing up ("take the mug on the desk and ..."), what follows it is where
            # it is now
            picked = is_pick or bool(PICK_VERBS.search(text[:ed.toks[ospan.start][1]]))
            src = _source_span(ed, ospan.end, rspan.start if rspan and rspan.start > ospan.end else len(ed.toks),
                               near_object=picked)
            if src is not None:
                p, sspan = src
                ed.replace(sspan, _name(w, holder))
                if p >= 0 and ed.toks[p][0].lower() in ("on", "in", "inside", "at"):
                    ed.edits.append((p, p + 1, pe._prep(w, holder)))
        out.append(ed.result().strip())
    if dest is None:
        raise Skip("receptacle words not found")
    accept = {dest} | ({mrec_obj} if mrec_obj else set())
    return Filled(" ".join(out), pe.Expect("place", ids=(obj,), accept=frozenset(accept)), obj, dest)


# ---- running --------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    world: str
    trial: str
    task_type: str
    variant: str
    half: str
    text: str
    cls: str
    why: str
    reply: str
    obj: str = ""  # what a right plan puts ...
    dest: str = ""  # ... where


def evaluate(rows: list[dict], robot: str = "vega", seed: int = 0, variants: tuple[str, ...] = VARIANTS,
             services: pe.Services | None = None, graphs: list[Path] | None = None
             ) -> tuple[list[Outcome], Counter]:
    from memory_node.bench.real_wording_eval import Roles
    from memory_node.planning.skills import SkillLibrary, default_library_path

    svc = services or pe.Services(SkillLibrary.load(default_library_path(robot)))
    graphs = graphs or sorted((pe.DATA / "virtualhome_graphs" / "example_graphs").glob("TestScene*_graph.json"))
    out: list[Outcome] = []
    skipped: Counter = Counter()
    with tempfile.TemporaryDirectory(prefix="alfred_plan_eval_") as d:
        for gi, path in enumerate(graphs):
            w = pe.build_world(path, seed, Path(d))
            if w is None:
                skipped["apartment lacks what the script needs"] += 1
                continue
            roles = Roles(w)
            for ri, row in enumerate(rows):
                for variant in variants:
                    try:
                        f = fill(row, w, roles, ri + gi, variant)
                    except Skip as why:
                        skipped[f"{variant}: {why}"] += 1
                        continue
                    except KeyError:  # a place the filling would name has no everyday name in pe.NAMES
                        skipped[f"{variant}: a place without an everyday name"] += 1
                        continue
                    reply, why = None, ""
                    try:
                        reply = svc.call(w.store, "plan", f.text, pe.SPEAKER, svc.episode(pe.SPEAKER))
                        ok, why = pe.grade(w, svc.lib, f.expect, "plan", reply)
                    except Exception as exc:  # noqa: BLE001 - a crash is a failed request, reported as such
                        ok, why = False, f"exception {type(exc).__name__}: {exc}"
                    out.append(Outcome(w.name, row["trial"], row["task_type"], variant, row["half"], f.text,
                                       pe.classify("plan", reply, ok), why, pe._short_reply("plan", reply),
                                       f.obj, f.dest))
            w.store.close()
    return out, skipped


def table(outcomes: list[Outcome], key, out=sys.stdout) -> None:
    pe.class_table(outcomes, key, 36, out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=("dev", "aside", "all"))
    ap.add_argument("--robot", default="vega")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="goal, steps or both (comma-separated)")
    ap.add_argument("--failures", type=int, default=0, help="print this many failures per class (dev split only)")
    ap.add_argument("--data", default=str(DATA_FILE))
    ap.add_argument("--json", default="", help="write every outcome to this file (dev split only)")
    args = ap.parse_args(argv)
    variants = tuple(v for v in args.variants.split(",") if v)
    if set(variants) - set(VARIANTS):
        ap.error(f"--variants: one of {VARIANTS}")
    rows = load_rows(Path(args.data), args.split)
    outcomes, skipped = evaluate(rows, robot=args.robot, seed=args.seed, variants=variants)
    print(f"ALFRED {SOURCE_SPLIT} ({args.split}): {len(rows)} annotations of {len({r['trial'] for r in rows})} "
          f"tasks, {len(outcomes)} plan requests over {len({o.world for o in outcomes})} apartments, "
          f"robot {args.robot}")
    print("by variant:")
    table(outcomes, lambda o: o.variant)
    print("by task type:")
    table(outcomes, lambda o: o.task_type)
    if args.split == "all":
        print("by half:")
        table(outcomes, lambda o: f"{o.half}/{o.variant}")
    print("all:")
    table(outcomes, lambda o: "plan")
    # a movable receptacle's stand-in is a small thing memory does not know as a container: apart as well
    table([o for o in outcomes if o.task_type != "pick_and_place_with_movable_recep"],
          lambda o: "plan, without movable receptacle")
    print(f"skipped (per annotation, variant and apartment): {sum(skipped.values())}")
    for why, n in skipped.most_common():
        print(f"  {n:6d}  {why}")
    if args.json and args.split == "dev":
        Path(args.json).write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    if args.failures and args.split == "dev":
        for cls in ("wrong", "refused", "asked"):
            bad = [o for o in outcomes if o.cls == cls]
            print(f"\n{cls} ({len(bad)}):")
            for o in bad[: args.failures]:
                print(f"  [{o.task_type}/{o.variant}] {o.text!r}\n      {o.why} | {o.reply[:220]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
