"""Training material for the learned reader (``reader.py``), built from real wording with labels that come from
how it was made, never from reading the text with the rule parser.

    python -m memory_node.language.reader_corpus [--alfred PATH]   # rewrites corpus/alfred_*.jsonl, corpus/dev.jsonl

Every record is ``{"text", "intent", "slots": {name: substring}, "mask": [substring...], "source"}``: ``slots``
are labelled spans, ``mask`` the spans whose label is unknown (their tokens carry no training signal for the
slot tagger, so a place the labels do not name is not taught as "no slot").

ALFRED (``/work/shared/data/alfred``, MIT): its ``train`` split is sampled into ``alfred_train.jsonl``, its
``valid_seen`` split (all of it) into ``alfred_valid_seen.jsonl`` for measuring. Labels by construction:

- goal sentences of ``pick_and_place_simple``, ``pick_two_obj_and_place``, ``pick_and_place_with_movable_recep``
  and the heat / cool / clean-then-place tasks are ``put`` with ``object`` (the task's object class) and
  ``destination`` (its receptacle) and ``relation`` (the preposition before it). Heat / cool / clean goals are
  kept only when they start with a placing verb ("put a warm mug on the table"): one that starts "cook a
  potato and ..." asks for a skill no robot here has, and calling it ``put`` would teach the wrong verb.
  ``look_at_obj_in_light`` goals are left out (no intent of ours).
- steps: "pick up / grab / take the X" -> ``fetch`` (object); "walk to / go to / turn and face the X" ->
  ``go`` (destination = the last thing named, when it is a household class); "open / close the X" -> ``open``
  / ``close``; "put / place / set the X in the Y" -> ``put``. A step with more than one action ("open the
  fridge, take the mug out, close it") and any heat / cool / clean / slice / toggle step is left out.
- the class names (``CoffeeMachine``, ``GarbageCan``) are found in the text through the words people used:
  each class's own words ("coffee", "machine") plus words mined from the train goals that name the class
  (a word seen in >= 10 goals labelled with it, and with it in >= 60 % of the goals that use the word: "bin"
  for GarbageCan, "fridge"...). The span is the noun chunk whose head is such a word, without its
  determiner; a sentence whose labelled thing cannot be found is dropped.
- a balanced sample (caps per intent, seeded) so that ALFRED's put / fetch / go do not swamp the other intents.

The project's paraphrase ``dev.yaml`` templates (not ``heldout.yaml``, not ``writers/``) are filled with
household names of this module's own and mapped to the schema's intents (``dev.jsonl``).
Writers' utterances are copied and split by ``reader_split.py``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

CORPUS = Path(__file__).with_name("corpus")
ALFRED = Path("/work/shared/data/alfred/annotations.jsonl.gz")
SEED = 17
CAPS = {"put": 1100, "fetch": 700, "go": 700, "open": 300, "close": 250}
GOAL_PUT_SHARE = 0.6  # of the put cap, from goal sentences (the rest from steps)

PLACE_VERBS = {"put", "place", "set", "move", "leave", "drop", "position", "return", "bring", "take", "carry",
               "transfer", "deposit", "store", "stow", "lay", "insert"}
PICK_VERBS = {"pick", "grab", "take", "lift", "get", "retrieve", "collect", "remove", "fetch"}
NAV_VERBS = {"walk", "go", "turn", "move", "head", "face", "step", "proceed", "travel", "veer", "hang", "approach",
             "back", "make", "look"}
OTHER_ACTIONS = {"heat", "cook", "microwave", "warm", "chill", "cool", "freeze", "refrigerate", "rinse", "wash",
                 "clean", "slice", "cut", "toggle", "switch", "examine", "inspect", "study", "read", "hold", "check",
                 "view", "light", "dump", "empty", "fill", "pour", "throw", "toss", "water", "sit", "drive"}
REL_WORDS = {"in", "on", "into", "onto", "inside", "atop", "to", "at", "under", "beside", "near", "by", "over",
             "within", "upon", "behind", "next"}
STOP = set("a an the of to in on into onto and then it its from with at by for up down that this is".split())


def class_words(name: str) -> set[str]:
    parts = [p.lower() for p in re.findall(r"[A-Z][a-z]*|[a-z]+|[A-Z]+(?![a-z])", name)]
    return set(parts) | {"".join(parts)}


def _words(text: str) -> list[str]:
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in re.findall(r"[a-z]+", text.lower())]


def mine_aliases(rows: list[dict]) -> dict[str, set[str]]:
    """Words people used for each class, from the train goals that name it (see the module docstring)."""
    with_class: dict[str, Counter] = defaultdict(Counter)
    total: Counter = Counter()
    for r in rows:
        ws = set(_words(r["goal"])) - STOP
        total.update(ws)
        for c in {r[k] for k in ("object", "receptacle", "mrecep", "toggle") if r[k]}:
            with_class[c].update(ws)
    out: dict[str, set[str]] = {}
    for c, cnt in with_class.items():
        own = class_words(c)
        out[c] = own | {w for w, n in cnt.items() if n >= 10 and n / total[w] >= 0.6 and len(w) > 2}
    return out


class Labeller:
    """Finds a class's phrase in a parsed sentence and builds records."""

    def __init__(self, aliases: dict[str, set[str]], nlp):
        self.aliases = aliases
        self.every = set().union(*aliases.values())
        self.nlp = nlp

    def chunks(self, doc) -> list[tuple[int, int, str]]:
        """(start char, end char, root lemma) of each noun chunk, determiners / numbers stripped."""
        out = []
        for ch in doc.noun_chunks:
            toks = [t for t in ch if not (t.dep_ in ("det", "poss", "nummod", "predet") and t.i < ch.root.i)]
            if not toks:
                continue
            out.append((toks[0].idx, toks[-1].idx + len(toks[-1].text), ch.root.lemma_.lower(), ch))
        return out

    def find(self, doc, cls: str | None, after: int = -1, last: bool = False):
        words = self.aliases.get(cls, set()) if cls else self.every
        hits = [c for c in self.chunks(doc) if c[0] > after and (
            c[2] in words or c[2].rstrip("s") in words or doc.text[c[0]:c[1]].lower().replace(" ", "") in words)]
        if not hits:
            return None
        return hits[-1] if last else hits[0]


def _rel_before(doc, start: int) -> str | None:
    prev = [t for t in doc if t.idx + len(t.text) <= start]
    while prev and prev[-1].dep_ in ("det", "poss", "nummod") or prev and prev[-1].lower_ in ("the", "a", "an"):
        prev.pop()
    if prev and prev[-1].lower_ in REL_WORDS:
        if prev[-1].lower_ == "to" and len(prev) > 1 and prev[-2].lower_ == "next":
            return "next to"
        return prev[-1].text
    return None


def _mask_rest(doc, labelled: list[str]) -> list[str]:
    """Nouns, adjectives, numbers and prepositions outside the labelled spans: their slot is unknown."""
    text = doc.text
    spans = []
    for v in labelled:
        k = text.find(v)
        if k >= 0:
            spans.append((k, k + len(v)))
    return sorted({t.text for t in doc if t.pos_ in ("NOUN", "PROPN", "ADJ", "NUM", "ADP")
                   and not any(a <= t.idx < b for a, b in spans)})


def _record(doc, intent: str, slots: dict[str, str], source: str) -> dict:
    return {"text": doc.text, "intent": intent, "slots": slots,
            "mask": _mask_rest(doc, list(slots.values())), "source": source}


def label_goal(lab: Labeller, doc, r: dict) -> dict | None:
    tt = r["task_type"]
    if tt == "look_at_obj_in_light":
        return None
    first = next((t for t in doc if t.pos_ in ("VERB", "AUX") or t.i == 0), None)
    if first is None or first.lemma_.lower() not in PLACE_VERBS:
        return None
    obj = lab.find(doc, r["object"])
    if obj is None:
        return None
    dest = lab.find(doc, r["receptacle"], after=obj[1], last=True)
    if dest is None:
        return None
    slots = {"object": doc.text[obj[0]:obj[1]], "destination": doc.text[dest[0]:dest[1]]}
    rel = _rel_before(doc, dest[0])
    if rel:
        slots["relation"] = rel
    if tt == "pick_two_obj_and_place":
        nums = [t.text for t in obj[3] if t.dep_ == "nummod"]
        if nums:
            slots["quantity"] = nums[0]
    return _record(doc, "put", slots, "alfred:goal")


def _verbs(doc) -> list:
    return [t for t in doc if t.pos_ == "VERB" or t.i == 0 and t.lower_ in PICK_VERBS | PLACE_VERBS | NAV_VERBS
            | {"open", "close"}]


def label_step(lab: Labeller, doc, r: dict) -> dict | None:
    words = [t.lower_ for t in doc]
    if not words or any(t.lemma_.lower() in OTHER_ACTIONS or t.lower_ in OTHER_ACTIONS for t in doc) \
            or "turn on" in doc.text.lower() or "turn off" in doc.text.lower() or len(doc) > 30:
        return None
    lem = [t.lemma_.lower() for t in doc]
    actions = [i for i, t in enumerate(doc) if lem[i] in PICK_VERBS | {"put", "place", "set", "open", "close", "drop",
                                                                       "insert", "leave"}
               and (t.pos_ == "VERB" or i == 0)]
    if len(actions) > 1:
        return None
    tasks = [r[k] for k in ("object", "mrecep", "receptacle", "toggle") if r[k]]
    if not actions:  # navigation
        if lem[0] not in NAV_VERBS or not any(w in ("to", "towards", "toward", "face", "facing") for w in words):
            return None
        dest = lab.find(doc, None, last=True)
        slots = {"destination": doc.text[dest[0]:dest[1]]} if dest else {}
        return _record(doc, "go", slots, "alfred:step")
    i = actions[0]
    if i > 2 and lem[0] not in ("then", "next", "now"):
        return None
    verb = lem[i]
    if verb in ("open", "close"):
        obj = lab.find(doc, None)
        if obj is None or obj[0] < doc[i].idx:
            return None
        return _record(doc, verb, {"object": doc.text[obj[0]:obj[1]]}, "alfred:step")
    obj = None
    for c in (r["object"], r["mrecep"]):
        if c:
            obj = lab.find(doc, c)
            if obj is not None:
                break
    if obj is None or obj[0] < doc[i].idx:
        return None
    dest = None
    for c in (r["receptacle"], r["mrecep"]):
        if c:
            dest = lab.find(doc, c, after=obj[1], last=True)
            if dest is not None:
                break
    rel = _rel_before(doc, dest[0]) if dest is not None else None
    if verb in PICK_VERBS and verb not in ("take",) or verb == "take" and (dest is None or rel not in ("to",)):
        if verb in PICK_VERBS and (dest is None or rel in ("from", None)):
            return _record(doc, "fetch", {"object": doc.text[obj[0]:obj[1]]}, "alfred:step")
        return None
    if dest is None or rel is None or rel in ("from",):
        return None
    return _record(doc, "put", {"object": doc.text[obj[0]:obj[1]], "destination": doc.text[dest[0]:dest[1]],
                                "relation": rel}, "alfred:step")


def build_alfred(path: Path, out: Path, nlp) -> dict:
    rows = [json.loads(line) for line in gzip.open(path, "rt", encoding="utf-8")]
    train = [r for r in rows if r["split"] == "train"]
    valid = [r for r in rows if r["split"] == "valid_seen"]
    lab = Labeller(mine_aliases(train), nlp)
    rng = random.Random(SEED)
    # candidates first (cheap), parsed in a shuffled order until each intent's cap is met
    goals = [(g, r) for r in train for g in [r["goal"].strip()] if g]
    steps = [(s.strip(), r) for r in train for s in r["steps"] if s.strip()]
    rng.shuffle(goals)
    rng.shuffle(steps)
    got: dict[str, list[dict]] = defaultdict(list)
    goal_cap = int(CAPS["put"] * GOAL_PUT_SHARE)
    for (text, r), doc in zip(goals[:goal_cap * 3], nlp.pipe(g for g, _ in goals[:goal_cap * 3])):
        if len(got["put"]) >= goal_cap:
            break
        rec = label_goal(lab, doc, r)
        if rec:
            got["put"].append(rec)
    batch = 4000
    for k in range(0, len(steps), batch):
        if all(len(got[i]) >= c for i, c in CAPS.items()):
            break
        part = steps[k:k + batch]
        for (text, r), doc in zip(part, nlp.pipe(s for s, _ in part)):
            rec = label_step(lab, doc, r)
            if rec and len(got[rec["intent"]]) < CAPS[rec["intent"]]:
                got[rec["intent"]].append(rec)
    train_recs = [x for i in sorted(got) for x in got[i]]
    vrecs = []
    vgoals = [(r["goal"].strip(), r, "goal") for r in valid] + [(s.strip(), r, "step") for r in valid for s in r["steps"]]
    for (text, r, kind), doc in zip(vgoals, nlp.pipe(t for t, _, _ in vgoals)):
        rec = (label_goal if kind == "goal" else label_step)(lab, doc, r)
        if rec:
            vrecs.append(rec)
    _write(out / "alfred_train.jsonl", train_recs)
    _write(out / "alfred_valid_seen.jsonl", vrecs)
    (out / "alfred_aliases.json").write_text(json.dumps({c: sorted(w) for c, w in sorted(lab.aliases.items())},
                                                        indent=0) + "\n")
    return {"train": dict(Counter(r["intent"] for r in train_recs)),
            "valid_seen": dict(Counter(r["intent"] for r in vrecs))}


# ---- the project's own dev templates, filled with names of this module's own -------------------------------

DEV_INTENTS = {
    "where_is": "where", "where_did_i_leave": "where", "cant_find": "where", "where_before": "where",
    "is_there": "exists", "do_we_have": "exists", "whats_in_on": "contents", "what_room": "what_room",
    "open_or_closed": "state", "locked_or_usable": "usable", "colour": "attribute", "how_many": "count",
    "which_next_to": "which", "which_on_in": "which", "when_seen": "when_seen", "after_activity": "around",
    "what_did_you_do": "robot_did", "where_does_it_go": "goes_where", "fetch": "fetch", "fetch_two": "fetch",
    "bring_to": "fetch", "put_on": "put", "put_away": "put_away", "put_back": "put_back", "find": "find",
    "go_to": "go", "out_of_container": "fetch", "open_close": "",  # open or close, by the verb written
}
THINGS = ["hairbrush", "stapler", "flashlight", "umbrella", "thermos", "water bottle", "phone charger", "scarf",
          "wallet", "sunglasses", "notebook", "teapot", "cutting board", "soup ladle", "tape measure", "hammer",
          "slippers", "hoodie", "backpack", "yoga mat", "blanket", "toothbrush", "hand cream", "lunch box",
          "cereal box", "jam jar", "baby monitor", "headphones", "game controller", "picture frame", "candle",
          "watering can", "dog leash", "screwdriver", "tea towel", "frying pan", "rolling pin", "sewing kit",
          "cookbook", "alarm clock", "lint roller", "reading lamp", "flower pot", "hot water bottle", "torch"]
CONTAINERS = ["wardrobe", "pantry door", "dishwasher", "freezer", "medicine cabinet", "tool chest", "oven",
              "garage door", "laundry hamper", "filing cabinet", "sideboard", "toy chest", "bread bin"]
PLACES = ["windowsill", "bookcase", "hall table", "nightstand", "workbench", "ironing board", "shoe rack",
          "kitchen island", "coat stand", "bedside table", "bench", "chest of drawers", "desk"]
ROOMS = ["kitchen", "hallway", "garage", "study", "nursery", "laundry room", "attic", "bathroom", "bedroom",
         "living room", "dining room", "porch", "utility room"]
PEOPLE = ["Marta", "Kofi", "Grandma", "Ines", "Tomasz", "Priya", "Uncle Joe", "Leila", "Sven"]
ACTS = [("ate breakfast", "eating breakfast"), ("watered the plants", "watering the plants"),
        ("came home", "coming home"), ("fed the cat", "feeding the cat"), ("made coffee", "making coffee")]
PREPS = ["in", "on", "under", "inside"]


def _plural(w: str) -> str:
    return w + ("es" if w.endswith(("sh", "ch", "x", "s")) else "s")


def build_dev(src: Path, out: Path, variants: int = 3) -> dict:
    import yaml

    rng = random.Random(SEED)
    recs = []
    for t in yaml.safe_load(src.read_text()) or []:
        bench = t.get("intent", "")
        if bench not in DEV_INTENTS or "turns" in t:
            continue
        for _ in range(variants):
            rec = _fill(t, bench, rng)
            if rec:
                recs.append(rec)
    _write(out / "dev.jsonl", recs)
    return dict(Counter(r["intent"] for r in recs))


def _fill(t: dict, bench: str, rng: random.Random) -> dict | None:
    text = t["text"]
    things = rng.sample(THINGS, 2)
    act = rng.choice(ACTS)
    values = {"obj": things[0], "obj2": things[1], "thing": things[0], "things": _plural(things[0]),
              "container": rng.choice(CONTAINERS), "recept": rng.choice(PLACES + CONTAINERS),
              "room": rng.choice(ROOMS), "furniture": rng.choice(PLACES), "person": rng.choice(PEOPLE),
              "anchor": rng.choice(PLACES), "support": rng.choice(PLACES), "prep": rng.choice(PREPS),
              "act_past": act[0], "act_ing": act[1]}
    names = re.findall(r"\{(\w+)\}", text)
    if any(n not in values for n in names):
        return None
    filled = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], text)
    intent = DEV_INTENTS[bench]
    if bench == "open_close":
        low = filled.lower()
        intent = "close" if re.search(r"\b(close|shut)\b", low) else "open" if re.search(r"\bopen\b", low) else ""
        if not intent:
            return None
    slot_of = {"obj": "object", "obj2": "object2", "thing": "object", "things": "object", "container": "object",
               "anchor": "anchor", "support": "anchor",
               "room": "destination" if intent in ("go", "fetch") and bench != "is_there" else "room",
               "furniture": "destination", "person": "recipient" if intent == "fetch" else "person"}
    slots, mask = {}, []
    for n in names:
        if n in slot_of and slot_of[n] not in slots:
            slots[slot_of[n]] = values[n]
        elif n in ("recept", "prep", "act_past", "act_ing"):
            mask.append(values[n])
    return {"text": filled, "intent": intent, "service": t.get("service", ""), "slots": slots, "mask": mask,
            "source": "dev"}


def _write(path: Path, recs: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--alfred", type=Path, default=ALFRED)
    ap.add_argument("--out", type=Path, default=CORPUS)
    a = ap.parse_args(argv)
    from .parser import pipeline

    nlp = pipeline()
    dev = Path(__file__).parents[1] / "bench" / "paraphrase" / "dev.yaml"
    print("dev:", build_dev(dev, a.out))
    print("alfred:", build_alfred(a.alfred, a.out, nlp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
