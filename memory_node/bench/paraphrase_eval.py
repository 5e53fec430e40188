"""Paraphrase benchmark: everyday requests to a home robot, graded against ground truth, not wording.

    python -m memory_node.bench.paraphrase_eval [--split dev|heldout|all] [--robot vega|g1] [--seed 0]
                                                [--failures 3]

The utterances live in ``memory_node/bench/paraphrase/{dev,heldout}.yaml``: one record per template
(``intent``, ``service`` ask|plan, ``text`` with ``{slot}``s, optional ``speaker``, earlier ``turns`` of the
same episode and a few intent-specific fields such as ``asks`` or ``need``). They were written as people
talk to a robot at home and split per intent at random with a fixed seed (``--resplit`` redoes it).

Every shipped VirtualHome apartment gets a fresh SQLite memory and a scripted experience: a tour of its
rooms (with a colour for every small object), two people (Anna, Ben), objects moved while the robot was
not looking and seen again later, the fridge seen open, something put in the microwave, a cabinet and one
of two kitchen drawers found locked by failed opens, things people said (possession, where things go),
what Ben was seen doing and what the robot did. Each template is then filled with that apartment's
objects, under everyday names ("the remote", "my phone", "a glass"), and graded semantically: the ids the
answer or plan must contain are computed from the scene plus the script (see ``Expect``).

The harness never looks at how the system parses; it calls ``answer_question`` / ``plan_request`` (and
passes a per-episode ``memory_node.language.Conversation`` when that exists).
"""

from __future__ import annotations

import argparse
import inspect
import random
import re
import string
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import yaml

from memory_node.core.models import (
    ActivityObservation,
    EntityObservation,
    Point,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.store import MemoryStore
from memory_node.scenes.virtualhome import VirtualHomeScene, load_scene

S = 1_000_000_000
MINUTE = 60 * S
T0 = int(datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc).timestamp()) * S  # the tour starts at 09:00
DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
HERE = Path(__file__).resolve().parent / "paraphrase"
SPLITS = ("dev", "heldout")
SPEAKER = "anna"
OTHER = "ben"

# ---- everyday names --------------------------------------------------------------------------------
# VirtualHome label -> ways people say it (singular, plural); the first is the most common. Labels a
# person would name with a mass or plural-only noun are marked so templates never say "where's the chips".
NAMES: dict[str, list[tuple[str, str]]] = {
    "apple": [("apple", "apples")],
    "barsoap": [("soap", "soaps"), ("bar of soap", "bars of soap")],
    "bellpepper": [("pepper", "peppers"), ("bell pepper", "bell peppers")],
    "book": [("book", "books")],
    "cellphone": [("phone", "phones"), ("mobile", "mobiles"), ("cell phone", "cell phones")],
    "clock": [("clock", "clocks")],
    "coffeepot": [("coffee pot", "coffee pots"), ("coffee jug", "coffee jugs")],
    "condimentbottle": [("sauce bottle", "sauce bottles"), ("ketchup bottle", "ketchup bottles")],
    "cookingpot": [("pot", "pots"), ("cooking pot", "cooking pots"), ("saucepan", "saucepans")],
    "cutleryfork": [("fork", "forks")],
    "cutleryknife": [("knife", "knives")],
    "cuttingboard": [("cutting board", "cutting boards"), ("chopping board", "chopping boards")],
    "dishbowl": [("bowl", "bowls")],
    "dishwashingliquid": [("dish soap", "dish soaps"), ("washing-up liquid", "washing-up liquids")],
    "facecream": [("face cream", "face creams"), ("moisturiser", "moisturisers")],
    "folder": [("folder", "folders")],
    "fryingpan": [("frying pan", "frying pans"), ("pan", "pans")],
    "globe": [("globe", "globes")],
    "hairproduct": [("hair gel", "hair gels"), ("hair spray", "hair sprays")],
    "juice": [("juice", "juices"), ("carton of juice", "cartons of juice")],
    "keyboard": [("keyboard", "keyboards")],
    "lime": [("lime", "limes")],
    "lotionbottle": [("lotion", "lotions"), ("bottle of lotion", "bottles of lotion")],
    "magazine": [("magazine", "magazines")],
    "milk": [("milk", "milks"), ("carton of milk", "cartons of milk")],
    "mouse": [("mouse", "mice"), ("computer mouse", "computer mice")],
    "mug": [("mug", "mugs"), ("coffee mug", "coffee mugs")],
    "pear": [("pear", "pears")],
    "pillow": [("pillow", "pillows"), ("cushion", "cushions")],
    "plate": [("plate", "plates")],
    "plum": [("plum", "plums")],
    "radio": [("radio", "radios")],
    "remotecontrol": [("remote", "remotes"), ("TV remote", "TV remotes"), ("remote control", "remote controls")],
    "salmon": [("salmon", "salmon")],
    "sportsball": [("ball", "balls")],
    "teddybear": [("teddy", "teddies"), ("teddy bear", "teddy bears")],
    "toiletpaper": [("toilet paper", "toilet rolls"), ("loo roll", "loo rolls")],
    "toothbrush": [("toothbrush", "toothbrushes")],
    "toothpaste": [("toothpaste", "toothpastes"), ("tube of toothpaste", "tubes of toothpaste")],
    "towel": [("towel", "towels")],
    "toy": [("toy", "toys")],
    "washingsponge": [("sponge", "sponges")],
    "waterglass": [("glass", "glasses"), ("water glass", "water glasses")],
    "wineglass": [("wine glass", "wine glasses")],
    # furniture, appliances, places
    "bathroomcabinet": [("bathroom cabinet", "bathroom cabinets"), ("medicine cabinet", "medicine cabinets")],
    "bathroomcounter": [("bathroom counter", "bathroom counters")],
    "bathtub": [("bathtub", "bathtubs"), ("bath", "baths"), ("tub", "tubs")],
    "bed": [("bed", "beds")],
    "bench": [("bench", "benches")],
    "bookshelf": [("bookshelf", "bookshelves"), ("bookcase", "bookcases")],
    "cabinet": [("cabinet", "cabinets"), ("cupboard", "cupboards")],
    "chair": [("chair", "chairs")],
    "closet": [("wardrobe", "wardrobes"), ("closet", "closets")],
    "coffeemaker": [("coffee machine", "coffee machines"), ("coffee maker", "coffee makers")],
    "coffeetable": [("coffee table", "coffee tables")],
    "computer": [("computer", "computers")],
    "desk": [("desk", "desks")],
    "dishwasher": [("dishwasher", "dishwashers")],
    "drawer": [("drawer", "drawers")],
    "fridge": [("fridge", "fridges"), ("refrigerator", "refrigerators")],
    "garbagecan": [("bin", "bins"), ("trash can", "trash cans")],
    "kitchencabinets": [("kitchen cupboard", "kitchen cupboards"), ("kitchen cabinet", "kitchen cabinets")],
    "kitchencounter": [("kitchen counter", "kitchen counters"), ("worktop", "worktops")],
    "kitchentable": [("kitchen table", "kitchen tables"), ("dining table", "dining tables")],
    "microwave": [("microwave", "microwaves")],
    "nightstand": [("nightstand", "nightstands"), ("bedside table", "bedside tables")],
    "sink": [("sink", "sinks")],
    "sofa": [("sofa", "sofas"), ("couch", "couches")],
    "stove": [("stove", "stoves"), ("cooker", "cookers")],
    "toaster": [("toaster", "toasters")],
    "toilet": [("toilet", "toilets")],
    "towelrack": [("towel rack", "towel racks"), ("towel rail", "towel rails")],
    "tv": [("TV", "TVs"), ("television", "televisions")],
    "tvstand": [("TV stand", "TV stands"), ("TV unit", "TV units")],
    "washingmachine": [("washing machine", "washing machines"), ("washer", "washers")],
    "wallshelf": [("shelf", "shelves"), ("wall shelf", "wall shelves")],
}
ROOM_NAMES = {"kitchen": "kitchen", "livingroom": "living room", "bedroom": "bedroom", "bathroom": "bathroom"}
# Everyday things no apartment here has: "not known" cases.
ABSENT = [("umbrella", "umbrellas"), ("passport", "passports"), ("wallet", "wallets"),
          ("charger", "chargers"), ("backpack", "backpacks"), ("hairbrush", "hairbrushes")]
COLOURS = ["red", "blue", "green", "yellow", "white", "black", "grey", "orange", "purple", "pink", "brown"]
# what "a table", "a shelf"... may be
KINDS: dict[str, tuple[str, ...]] = {
    "table": ("kitchentable", "coffeetable"),
    "shelf": ("bookshelf", "wallshelf", "shelf"),
    "counter": ("kitchencounter", "bathroomcounter"),
    "sofa": ("sofa",),
    "bed": ("bed",),
    "desk": ("desk",),
    "nightstand": ("nightstand",),
}
NEEDS: dict[str, tuple[str, ...]] = {
    "drink": ("juice", "milk", "wine", "bottlewater", "alcohol", "milkshake", "coffeepot"),
    "wipe": ("towel", "washingsponge", "toiletpaper", "paper", "towelrolled"),
    "eat": ("apple", "bananas", "plum", "lime", "pear", "peach", "cereal", "chips", "crackers", "candybar",
            "cupcake", "pie", "breadslice", "creamybuns", "poundcake", "carrot", "salad", "pudding",
            "chinesefood", "pancake", "sundae", "bellpepper"),
    "read": ("book", "magazine", "notes", "paper", "folder"),
    "wash_hands": ("sink", "faucet", "barsoap"),
    "sit": ("sofa", "chair", "bench"),
    "sleep": ("bed",),
    "cook": ("stove", "oventray", "fryingpan", "cookingpot", "microwave"),
    "dry": ("towel", "towelrack", "towelrolled"),
}
REFUSABLE = ("sofa", "fridge", "bed", "tv", "washingmachine", "stove", "bathtub", "toilet", "bookshelf",
             "kitchentable", "desk", "dishwasher", "microwave", "coffeetable", "closet", "sink")
PAIR_LABELS = ("mug", "waterglass", "plate", "dishbowl", "wineglass", "towel", "pillow", "apple", "book")
# Ben's evening, in order: (verb, label, past phrase, -ing phrase, words an answer about it would use)
ACTS = [
    ("turn-on", "tv", "turned on the TV", "turning on the TV", ("turn", "tv", "television")),
    ("sit", "sofa", "sat down on the sofa", "sitting down on the sofa", ("sit", "sat", "sofa", "couch")),
    ("use", "computer", "used the computer", "using the computer", ("use", "computer")),
    ("make", "coffeemaker", "made coffee", "making coffee", ("make", "made", "coffee")),
    ("brush", "toothbrush", "brushed his teeth", "brushing his teeth", ("brush", "teeth", "toothbrush")),
    ("take", "bathtub", "had a bath", "having a bath", ("bath", "tub")),
]
# where a thing plausibly "goes" (the correction Anna makes)
STORAGE = ("bookshelf", "wallshelf", "shelf", "kitchencounter", "desk", "nightstand", "tvstand", "coffeetable",
           "bathroomcounter", "kitchentable", "cabinet", "bathroomcabinet", "kitchencabinets", "closet")
FURNITURE_CATEGORIES = {"furniture", "appliances", "electronics"}

# ---- the scripted apartment -----------------------------------------------------------------------


def _plural_only(label: str) -> bool:
    return label in {"bananas", "chips", "crackers", "slippers", "glasses", "crayons", "notes", "cutlets"}


@dataclass
class World:
    """One apartment after the script: memory plus the ground truth every expectation is computed from."""

    name: str
    scene: VirtualHomeScene
    store: MemoryStore
    ents: dict[str, EntityObservation]  # every entity memory was shown (scene + injected), last version
    loc: dict[str, tuple[str, str]]  # entity -> (predicate, holder) now
    room: dict[str, str]  # entity -> room now
    origin: dict[str, str] = field(default_factory=dict)  # moved entity -> holder before the move
    seen_first: dict[str, int] = field(default_factory=dict)
    seen_last: dict[str, int] = field(default_factory=dict)
    colour: dict[str, str] = field(default_factory=dict)
    states: dict[str, set[str]] = field(default_factory=dict)
    cast: dict[str, Any] = field(default_factory=dict)
    names: dict[str, tuple[str, str]] = field(default_factory=dict)  # label -> chosen (singular, plural)

    def label(self, ent_id: str) -> str:
        return self.ents[ent_id].label

    def say(self, ent_id: str, plural: bool = False) -> str:
        return self.say_label(self.label(ent_id), plural)

    def say_label(self, label: str, plural: bool = False) -> str:
        sing, plur = self.names.get(label) or NAMES[label][0]
        return plur if plural else sing

    def count(self, label: str) -> int:
        return sum(e.label == label for e in self.ents.values())

    def unique(self, label: str) -> str | None:
        ids = [e.id for e in self.ents.values() if e.label == label]
        return ids[0] if len(ids) == 1 else None

    def chain(self, ent_id: str) -> list[str]:
        """What holds ``ent_id`` now, innermost first, without rooms."""
        out, cur = [], ent_id
        while cur in self.loc and self.loc[cur][1] not in out and self.loc[cur][1] in self.ents:
            cur = self.loc[cur][1]
            out.append(cur)
        return out

    def contents(self, holder: str) -> set[str]:
        return {e for e, (_, h) in self.loc.items() if h == holder}

    def rooms_named(self, spoken: str) -> list[str]:
        return [r for r, e in self.scene.rooms.items() if ROOM_NAMES.get(e.name, e.name) == spoken]

    def room_say(self, room: str) -> str:
        n = self.scene.rooms[room].name
        return ROOM_NAMES.get(n, n)

    def unique_rooms(self) -> list[str]:
        return [r for r in self.scene.rooms if len(self.rooms_named(self.room_say(r))) == 1]

    def furniture(self, ent_id: str) -> bool:
        e = self.ents.get(ent_id)
        if e is None or e.label == "room":
            return False
        return e.attributes.get("grabbable") != "true" and (
            e.attributes.get("category", "") in FURNITURE_CATEGORIES or e.label in REFUSABLE
            or e.label in ("drawer", "person"))


# Everyday things the tour may add to an apartment that has too few uniquely named small objects.
EXTRA_OBJECTS = ("remotecontrol", "cellphone", "mug", "magazine", "toothbrush", "juice", "globe", "teddybear",
                 "sportsball", "pear", "cuttingboard", "lotionbottle", "clock", "radio")
ROLE_OBJECTS = 7  # moved x3, put in the microwave, three that stay put


def _holder_ok(w: World, ent_id: str) -> bool:
    h = w.loc.get(ent_id, ("", ""))[1]
    return h in w.ents and "closed" not in w.ents[h].states


def build_world(path: Path, seed: int, tmp: Path) -> World | None:
    """Replay the scripted experience of one apartment into a fresh store; None if it lacks what the
    script needs (a kitchen, living room, bedroom, microwave)."""
    scene = load_scene(path)
    rng = random.Random(f"{seed}:{scene.name}")
    ents = {e.id: e for e in scene.entities.values()}
    loc = {r.subject: (r.predicate, r.object) for r in scene.relations}
    room = {e.id: e.room for e in ents.values()}
    byname = {e.name: r for r, e in scene.rooms.items()}
    kitchen, living, bedroom = byname.get("kitchen"), byname.get("livingroom"), byname.get("bedroom")
    if not kitchen or not living or not bedroom:
        return None
    store = MemoryStore(tmp / f"{scene.name}.db")
    w = World(scene.name, scene, store, ents, loc, room)
    # one everyday name per kind of thing and apartment, the most common one more often than not
    w.names = {lab: v[0] if len(v) == 1 or rng.random() < 0.6 else rng.choice(v[1:]) for lab, v in NAMES.items()}

    def count(label: str) -> int:
        return sum(e.label == label for e in ents.values())

    surfaces = sorted(e.id for e in ents.values() if e.attributes.get("surface") == "true"
                      and e.attributes.get("grabbable") != "true" and e.position is not None
                      and e.attributes.get("openable") != "true"
                      and count(e.label) == 1 and e.label in NAMES)

    # the same-label pair (ambiguity, possession): two of one label, one blue and one red
    pair_label = next((lab for lab in PAIR_LABELS if count(lab) == 2 and all(
        e.id in loc for e in ents.values() if e.label == lab)), None)
    if pair_label is None:  # add one (or two) so that there are exactly two, on different surfaces
        def put(label: str, surf: str, base: EntityObservation | None) -> None:
            s_ent = ents[surf]
            e = (base.model_copy(update={"id": f"{label}_{9001 + len(ents)}", "room": s_ent.room,
                                         "position": s_ent.position}) if base else
                 EntityObservation(id=f"{label}_{9001 + len(ents)}", label=label, room=s_ent.room,
                                   position=s_ent.position, attributes={"category": "props", "grabbable": "true"}))
            ents[e.id], loc[e.id], room[e.id] = e, ("on", surf), s_ent.room
        for lab in PAIR_LABELS:
            have = [e for e in ents.values() if e.label == lab]
            if len(have) == 1 and have[0].id in loc:
                put(lab, next(x for x in surfaces if x != loc[have[0].id][1]), have[0])
                pair_label = lab
                break
        else:
            lab = next((x for x in PAIR_LABELS if count(x) == 0), None)
            if lab is None or len(surfaces) < 2:
                store.close()
                return None
            put(lab, surfaces[0], None)
            put(lab, surfaces[-1], None)
            pair_label = lab
    pair = sorted(e.id for e in ents.values() if e.label == pair_label)

    # enough small things with one name each; the tour adds everyday ones where the apartment is short
    def candidates() -> list[str]:
        return sorted(e.id for e in ents.values() if e.attributes.get("grabbable") == "true" and e.label in NAMES
                      and not _plural_only(e.label) and count(e.label) == 1 and e.id in loc and _holder_ok(w, e.id))
    for label in EXTRA_OBJECTS:
        if len(candidates()) >= ROLE_OBJECTS:
            break
        if count(label) == 0:
            surf = rng.choice(surfaces)
            s_ent = ents[surf]
            e = EntityObservation(id=f"{label}_{9100 + len(ents)}", label=label, room=s_ent.room,
                                  position=s_ent.position, attributes={"category": "props", "grabbable": "true"})
            ents[e.id], loc[e.id], room[e.id] = e, ("on", surf), s_ent.room
    objs = candidates()
    if len(objs) < ROLE_OBJECTS:
        store.close()
        return None
    rng.shuffle(objs)

    # colours: the pair is blue and red, every other small thing gets one
    w.colour[pair[0]], w.colour[pair[1]] = "blue", "red"
    for e in sorted(ents.values(), key=lambda x: x.id):
        if e.attributes.get("grabbable") == "true" and e.id not in w.colour:
            w.colour[e.id] = rng.choice([c for c in COLOURS if e.label != pair_label or c not in ("blue", "red")])
    for i, c in w.colour.items():
        ents[i] = ents[i].model_copy(update={"attributes": {**ents[i].attributes, "color": c}})

    # two people and two kitchen drawers
    sofa = next((e for e in ents.values() if e.label == "sofa" and e.room == living), None)
    ppos = sofa.position if sofa and sofa.position else scene.rooms[living].position
    extra = [EntityObservation(id="person_anna", label="person", name="anna", room=living, position=ppos,
                               attributes={"category": "characters"}),
             EntityObservation(id="person_ben", label="person", name="ben", room=bedroom,
                               position=scene.rooms[bedroom].position, attributes={"category": "characters"})]
    counter = next((e for e in ents.values() if e.label == "kitchencounter" and e.room == kitchen), None)
    cpos = (counter.position if counter else None) or scene.rooms[kitchen].position or Point(x=0, y=0, z=0)
    for k, did in enumerate(("drawer_left", "drawer_right")):
        extra.append(EntityObservation(
            id=did, label="drawer", room=kitchen, position=Point(x=cpos.x + 0.6 * k, y=cpos.y, z=0.7),
            states=["closed"], attributes={"category": "furniture", "openable": "true", "container": "true",
                                           "size": "0.500,0.500,0.200"}))
    for e in extra:
        ents[e.id], room[e.id] = e, e.room
    w.states = {i: set(e.states) for i, e in ents.items()}

    # 09:00 the tour: one complete graph per room, a minute apart
    for k, r in enumerate(scene.rooms):
        t = T0 + k * MINUTE
        members = [e for e in ents.values() if room[e.id] == r]
        ids = {e.id for e in members}
        store.ingest_scene_graph(SceneGraphObservation(
            stamp_ns=t, source="paraphrase", room=r, complete=True, entities=[scene.rooms[r], *members],
            relations=[RelationObservation(subject=s, predicate=p, object=o) for s, (p, o) in loc.items()
                       if s in ids and o in ents]))
        for i in ids:
            w.seen_first[i] = w.seen_last[i] = t

    def unique_of(labels, exclude=()) -> str | None:
        for lab in labels:
            ids = [e.id for e in ents.values() if e.label == lab]
            if len(ids) == 1 and ids[0] not in exclude:
                return ids[0]
        return None

    microwave = unique_of(("microwave",))
    fridge = unique_of(("fridge", "dishwasher", "washingmachine"))
    locked = unique_of(("cabinet", "washingmachine", "dishwasher", "garbagecan", "closet", "bathroomcabinet"),
                       exclude={fridge, microwave})
    if not microwave or not fridge or not locked:
        store.close()
        return None

    def observe(t: int, ent_id: str, holder: str, pred: str = "on") -> None:
        h = ents[holder]
        ents[ent_id] = ents[ent_id].model_copy(update={"room": h.room, "position": h.position})
        store.ingest_scene_graph(SceneGraphObservation(
            stamp_ns=t, source="paraphrase", room=h.room, complete=False, entities=[ents[ent_id], h],
            relations=[RelationObservation(subject=ent_id, predicate=pred, object=holder)]))
        loc[ent_id], room[ent_id], w.seen_last[ent_id] = (pred, holder), h.room, t

    # 15:40 on: three things moved while the robot was elsewhere, seen again in their new places
    moved, inner, static = objs[:3], objs[3], objs[4:]
    t_moves = T0 + (6 * 60 + 40) * MINUTE
    for k, obj in enumerate(moved):
        here = loc[obj][1]
        there = [s for s in surfaces if s != here and ents[s].room != room[obj]] or \
                [s for s in surfaces if s != here]
        w.origin[obj] = here
        observe(t_moves + 7 * k * MINUTE, obj, rng.choice(there))
    # 17:00 the robot opened the fridge
    t = T0 + 8 * 60 * MINUTE
    store.ingest_skill_feedback(SkillFeedbackObservation(stamp_ns=t, robot="vega", skill="open", args=[fridge],
                                                         target_id=fridge, success=True, status="SUCCEEDED"))
    ents[fridge] = ents[fridge].model_copy(update={"states": ["open"]})
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=t + S, source="paraphrase", room=room[fridge],
                                                   complete=False, entities=[ents[fridge]]))
    w.states[fridge] = {"open"}
    # 17:10 something turned up in the (closed) microwave
    w.origin[inner] = loc[inner][1]
    observe(t + 10 * MINUTE, inner, microwave, "in")
    # 17:20 / 17:25 a cabinet and the left kitchen drawer would not open
    for dt, c in ((20, locked), (25, "drawer_left")):
        store.ingest_skill_feedback(SkillFeedbackObservation(
            stamp_ns=t + dt * MINUTE, robot="vega", skill="open", args=[c], target_id=c, success=False,
            status="EXECUTION_FAILURE", message=f"the {w.say(c)} is locked"))
        w.states[c] = w.states[c] | {"locked"}
    # 18:00 what Anna said
    recept = [s for s in surfaces if s != loc[static[1]][1] and ents[s].label in STORAGE] or \
        [s for s in surfaces if s != loc[static[1]][1]]
    goes_to = rng.choice(recept)
    prep = "in" if ents[goes_to].attributes.get("container") == "true" else "on"
    common = lambda i: NAMES[ents[i].label][0][0]  # noqa: E731  (what people said used the common name)
    said = [f"my {common(pair[0])} is the blue one",
            f"the {common(static[1])} goes {prep} the {common(goes_to)}",
            f"the {common(static[0])} goes in the drawer"]
    t = T0 + 9 * 60 * MINUTE
    for k, text in enumerate(said):
        store.ingest_utterance(UtteranceObservation(stamp_ns=t + k * MINUTE, speaker=SPEAKER, text=text))
    # 19:00 what Ben did, a few minutes apart
    acts = []
    for verb, label, past, ing, words in ACTS:
        ids = sorted(e.id for e in ents.values() if e.label == label)
        if ids:
            acts.append((verb, ids[0], past, ing, words))
    t = T0 + 10 * 60 * MINUTE
    for k, (verb, obj, past, _, _) in enumerate(acts):
        store.ingest_activity(ActivityObservation(stamp_ns=t + 4 * k * MINUTE, actor=OTHER, verb=verb,
                                                  objects=[obj], location=room[obj], text=f"{OTHER} {past}"))
    # a closed container nothing is known against (no lock, no switch that is off): usable
    plain = unique_of(("closet", "garbagecan", "kitchencabinets", "bathroomcabinet", "cabinet", "dishwasher",
                       "washingmachine", "toilet"), exclude={fridge, microwave, locked})
    plain = plain if plain and not w.states[plain] & {"off", "locked", "broken"} else fridge
    w.cast = dict(pair=pair, plain=plain, pair_label=pair_label, own=pair[0], moved=moved, inner=inner, static=static,
                  microwave=microwave, fridge=fridge, locked=locked, drawers=["drawer_left", "drawer_right"],
                  goes=(static[1], goes_to), drawer_obj=static[0], acts=acts, surfaces=surfaces,
                  absent=[a for a in ABSENT if not any(a[0].replace(" ", "") in e.label for e in ents.values())])
    return w


# ---- expectations and graders -----------------------------------------------------------------------


@dataclass
class Expect:
    """What a right reply contains, in ids (``kind`` picks the grader)."""

    kind: str
    ids: tuple[str, ...] = ()  # the thing(s) asked about / to be picked
    accept: frozenset[str] = frozenset()  # acceptable answer or target ids
    avoid: frozenset[str] = frozenset()  # ids a right reply must not name first / navigate to last
    truth: bool | None = None
    words: tuple[str, ...] = ()
    number: int | None = None
    stamp_ns: int | None = None
    person: str = ""  # whom it must be handed to (navigated to before the handover)
    room: str = ""
    me: str = ""  # the speaker's person id: "bring me X" must not go to somebody else


_YES = {"yes", "yeah", "yep", "yup", "sure", "indeed", "correct"}
_NO = {"no", "nope", "nah"}
_NUM_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "eleven", "twelve"]
_NEG = re.compile(r"\b(not|no|never|none|nothing|nowhere|unknown)\b|n't|\bdon't know\b", re.I)


def _first_word(text: str) -> str:
    m = re.match(r"\W*([A-Za-z']+)", text or "")
    return m.group(1).lower() if m else ""


def _named(ids: set[str], text: str, cands) -> set[str]:
    return {c for c in cands if c in ids or re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", text or "")}


def _steps(lib, result) -> list[tuple[str, list[str]]]:
    if not result.success or result.plan is None:
        return []
    out = []
    for s in result.plan.steps:
        sk = lib.skill(s.skill)
        out.append((sk.role if sk is not None else "?", list(s.args)))
    return out


def reply_text(service: str, reply) -> str:
    if service == "ask":
        return reply.answer or ""
    if reply.success and reply.plan is not None:
        return reply.plan.explanation or ""
    return reply.error or ""


def is_empty(service: str, reply) -> bool:
    return not reply_text(service, reply).strip()


def _time_strings(stamp_ns: int) -> list[str]:
    dt = datetime.fromtimestamp(stamp_ns / S, tz=timezone.utc)
    h12 = dt.hour % 12 or 12
    return [f"{dt.hour:02d}:{dt.minute:02d}", f"{dt.hour}:{dt.minute:02d}", f"{h12}:{dt.minute:02d}"]


def _fetched(w: World, steps, obj: str) -> int | None:
    """Index of the step releasing ``obj`` (handover or place) after a pick of it, else None."""
    pick = next((i for i, (r, a) in enumerate(steps) if r == "pick" and a[:1] == [obj]), None)
    if pick is None:
        return None
    return next((i for i, (r, a) in enumerate(steps[pick + 1:], pick + 1)
                 if r in ("handover", "place") and a[:1] == [obj]), None)


def _handed_elsewhere(w: World, steps, obj: str, me: str) -> str:
    """The other person ``obj`` is carried to before its handover, if any ("bring me" means the speaker)."""
    if not me:
        return ""
    pick = next((i for i, (r, a) in enumerate(steps) if r == "pick" and a[:1] == [obj]), None)
    rel = _fetched(w, steps, obj)
    if pick is None or rel is None or steps[rel][0] != "handover":
        return ""
    people = [a[0] for r, a in steps[pick + 1:rel] if r == "navigate" and a and a[0] in w.ents
              and w.ents[a[0]].label == "person"]
    return people[-1] if people and people[-1] != me else ""


def _furniture_picked(w: World, steps) -> list[str]:
    return [a[0] for r, a in steps if r == "pick" and a and w.furniture(a[0])]


def grade(w: World, lib, exp: Expect, service: str, reply) -> tuple[bool, str]:
    """(ok, why-not). Any empty reply fails."""
    text = reply_text(service, reply)
    if not text.strip():
        return False, "empty reply"
    low = text.lower()
    k = exp.kind
    if service == "ask":
        ids = set(reply.answer_ids)
        allids = ids | set(reply.evidence_ids)
        if k == "ids_any":
            if ids & exp.accept:
                return True, ""
            # a receptacle said in words memory could not ground ("the worktop") still answers "where does
            # it go" when the answer names it and nothing else
            named = exp.words and not ids and any(re.search(rf"\b{re.escape(x)}\b", low) for x in exp.words)
            return bool(named), f"want one of {sorted(exp.accept)[:6]}"
        if k == "before":
            ok = bool(ids & exp.accept) and not (reply.answer_ids and reply.answer_ids[0] in exp.avoid)
            return ok, f"want {sorted(exp.accept)} not {sorted(exp.avoid)}"
        if k == "which":
            return bool(ids & exp.accept) and not (ids & exp.avoid), f"want {sorted(exp.accept)}"
        if k == "yesno_or_unknown" and _first_word(text) not in _YES | _NO:
            return reply.confidence == 0 and not [i for i in ids if i in w.ents and i not in exp.ids], \
                "want no (or an honest 'no record')"
        if k in ("yesno", "yesno_or_unknown"):
            fw = _first_word(text)
            if exp.truth:
                return fw in _YES, "want yes"
            return fw in _NO, "want no"
        if k == "colour":
            want = {exp.words[0]} | ({"gray"} if exp.words[0] == "grey" else set())
            return any(re.search(rf"\b{c}\b", low) for c in want), f"want {exp.words[0]}"
        if k == "count":
            n = exp.number
            pats = [rf"(?<![\d.]){n}(?![\d.])"] + ([rf"\b{_NUM_WORDS[n]}\b"] if n is not None and n < len(_NUM_WORDS)
                                                    and n > 0 else [])
            return any(re.search(p, low) for p in pats), f"want {n}"
        if k == "contents":
            got = len(ids & exp.accept)
            return got >= max(1, round(0.8 * len(exp.accept))), f"named {got} of {len(exp.accept)}"
        if k == "time":
            strs = _time_strings(exp.stamp_ns)
            return any(re.search(rf"(?<!\d){re.escape(s)}(?!\d)", text) for s in strs), f"want {strs[0]}"
        if k == "words":
            return bool(ids & exp.accept) or any(re.search(rf"\b{x}", low) for x in exp.words), \
                f"want {exp.words}"
        if k == "robot_did":
            named = bool(allids & exp.accept) or any(x in low for x in exp.words[1:])
            return ("open" in low) and named, "want the opens it tried"
        if k == "not_known_or_no" and _first_word(text) in _NO:
            return not [i for i in ids if i in w.ents], "want no"
        if k in ("not_known", "not_known_or_no"):
            invented = [i for i in ids if i in w.ents]
            ok = not invented and (reply.confidence == 0 or bool(_NEG.search(text)))
            return ok, f"invented {invented}" if invented else "want an honest 'not known'"
        if k == "ambiguity":
            cands = _named(allids, text, exp.ids)
            places = _named(allids, text, exp.accept)
            colours = [c for c in exp.words if re.search(rf"\b{c}\b", low)]
            ok = len(cands) >= 2 or len(places) >= 2 or len(colours) >= 2
            return ok, "want both candidates named"
        if k == "refusal":
            return False, "a plan request was expected"
        return False, f"grader {k} does not apply to an answer"
    # plan
    steps = _steps(lib, reply)
    furn = _furniture_picked(w, steps)
    if k == "refusal":
        return (not reply.success and bool(reply.error.strip())), "want a refusal"
    if k == "ambiguity":
        if reply.success:
            return False, "chose one silently"
        allids = set(reply.plan.evidence_ids) if reply.plan else set()
        cands = _named(allids, text, exp.ids)
        colours = [c for c in exp.words if re.search(rf"\b{c}\b", low)]
        places = _named(allids, text, exp.accept)
        return len(cands) >= 2 or len(colours) >= 2 or len(places) >= 2, "want both candidates named"
    if not reply.success:
        return False, "refused"
    if furn:
        return False, f"picked furniture {furn}"
    if k == "fetch":
        for obj in exp.ids:
            rel = _fetched(w, steps, obj)
            if rel is None:
                return False, f"want pick+release of {obj}"
            other = _handed_elsewhere(w, steps, obj, exp.me)
            if other:
                return False, f"handed to {other}, not to the speaker {exp.me}"
            if exp.person:
                pick = next(i for i, (r, a) in enumerate(steps) if r == "pick" and a[:1] == [obj])
                goal = {exp.person, w.room.get(exp.person, "")} | set(w.chain(exp.person))
                navs = [a[0] for r, a in steps[pick + 1:rel] if r == "navigate" and a]
                if steps[rel][0] != "handover" or not (set(navs) & goal or exp.person in steps[rel][1]):
                    return False, f"want a handover to {exp.person}"
        return True, ""
    if k == "bring_room":
        obj = exp.ids[0]
        pick = next((i for i, (r, a) in enumerate(steps) if r == "pick" and a[:1] == [obj]), None)
        if pick is None:
            return False, f"want pick {obj}"
        later = steps[pick + 1:]
        nav = [i for i, (r, a) in enumerate(later) if r == "navigate" and a and
               (a[0] == exp.room or w.room.get(a[0]) == exp.room)]
        rel = [i for i, (r, a) in enumerate(later) if r == "place" and a[:1] == [obj]]
        ok = bool(nav) and bool(rel) and rel[-1] > nav[0]
        return ok, f"want it taken to {exp.room}"
    if k == "place":
        obj = exp.ids[0]
        targets = [a[1] for r, a in steps if r == "place" and a[:1] == [obj] and len(a) > 1]
        return bool(targets) and targets[-1] in exp.accept, f"want place({obj}, one of {sorted(exp.accept)[:5]})"
    if k == "navigate":
        navs = [a[0] for r, a in steps if r == "navigate" and a]
        ok = bool(set(navs) & exp.accept) and not (navs and navs[-1] in exp.avoid)
        return ok, f"want navigate to one of {sorted(exp.accept)[:5]}"
    if k in ("open", "close"):
        return any(r == k and a[:1] == [exp.ids[0]] for r, a in steps), f"want {k}({exp.ids[0]})"
    if k == "pick_any":
        for r, a in steps:
            if r == "pick" and a and a[0] in exp.accept and _fetched(w, steps, a[0]) is not None:
                other = _handed_elsewhere(w, steps, a[0], exp.me)
                return not other, f"handed to {other}, not to the speaker {exp.me}" if other else ""
        return False, f"want one of {sorted(exp.accept)[:6]} fetched"
    return False, f"grader {k} does not apply to a plan"


# ---- intents: which slots a template may use, and how to fill and grade it -----------------------


def _where(w: World, obj: str) -> Expect:
    return Expect("ids_any", ids=(obj,), accept=frozenset({w.loc[obj][1]}),
                  avoid=frozenset({w.origin[obj]} if obj in w.origin else ()))


def _obj_slot(w: World, obj: str) -> dict[str, str]:
    return {"obj": w.say(obj), "objs": w.say(obj, plural=True)}


def _pick(seq, variant):
    seq = list(seq)
    return seq[variant % len(seq)] if seq else None


def case_location(kind_of: str):
    def build(w: World, rec: dict, v: int):
        pools = {"moved": w.cast["moved"] + [w.cast["inner"]], "static": w.cast["static"],
                 "mixed": [w.cast["moved"][2], w.cast["static"][2], w.cast["inner"], w.cast["static"][0]]}
        obj = _pick(pools[kind_of], v)
        return _obj_slot(w, obj), _where(w, obj)
    return build


def case_what_room(w, rec, v):
    obj = _pick([w.cast["static"][2], w.cast["moved"][1], w.cast["inner"]], v)
    return _obj_slot(w, obj), Expect("ids_any", ids=(obj,), accept=frozenset({w.room[obj]}))


def _present_pairs(w: World) -> list[tuple[str, str]]:
    out = set()
    for e in w.ents.values():
        if e.label in NAMES and e.label not in ("drawer",) and not _plural_only(e.label) and e.label != "person":
            out.add((e.label, w.room[e.id]))
    return sorted(out)


def case_is_there(w, rec, v):
    rooms = w.unique_rooms()
    pairs = [(lab, r) for lab, r in _present_pairs(w) if r in rooms]
    rng = random.Random(f"{w.name}:{rec['text']}")
    if v % 2 == 0:
        lab, r = rng.choice(pairs)
        truth = True
    else:
        labels = sorted({lab for lab, _ in pairs})
        opts = [(lab, r) for lab in labels for r in rooms if (lab, r) not in set(_present_pairs(w))]
        if not opts:
            return None
        lab, r = rng.choice(opts)
        truth = False
    return ({"thing": w.say_label(lab), "things": w.say_label(lab, True), "room": w.room_say(r)},
            Expect("yesno", truth=truth))


def case_do_we_have(w, rec, v):
    rng = random.Random(f"{w.name}:{rec['text']}")
    if v % 2 == 0:
        lab = rng.choice(sorted({lab for lab, _ in _present_pairs(w)}))
        return ({"thing": w.say_label(lab), "things": w.say_label(lab, True)}, Expect("yesno", truth=True))
    sing, plur = rng.choice(w.cast["absent"])
    return ({"thing": sing, "things": plur}, Expect("not_known_or_no"))


def _prep(w: World, holder: str) -> str:
    """How people say where something is: in a container (fridge, cabinet), on anything else."""
    return "in" if w.ents[holder].attributes.get("container") == "true" else "on"


def case_whats_in(w, rec, v):
    holders = []
    for h in sorted({hh for _, hh in w.loc.values()}):
        if h in w.ents and w.ents[h].label in NAMES and w.count(w.ents[h].label) == 1 \
                and w.ents[h].attributes.get("grabbable") != "true" and 1 <= len(w.contents(h)) <= 8:
            holders.append(h)
    h = _pick(sorted(holders, key=lambda x: (x != w.cast["microwave"], x)), v)
    if h is None:
        return None
    return ({"recept": w.say(h), "prep": _prep(w, h)}, Expect("contents", accept=frozenset(w.contents(h))))


def case_open_closed(w, rec, v):
    c = _pick([w.cast["fridge"], w.cast["microwave"]], v)
    is_open = "open" in w.states[c]
    truth = is_open if rec.get("asks", "open") == "open" else not is_open
    return {"container": w.say(c)}, Expect("yesno", truth=truth)


def case_locked(w, rec, v):
    c = _pick([w.cast["locked"], w.cast["plain"]], v)
    locked = "locked" in w.states[c]
    if rec.get("asks", "locked") == "locked":
        # never found locked: "no" or an honest "I have not tried it" (nothing says either way)
        return {"container": w.say(c)}, Expect("yesno" if locked else "yesno_or_unknown", ids=(c,), truth=locked)
    return {"container": w.say(c)}, Expect("yesno", truth=not locked)


def case_colour(w, rec, v):
    obj = _pick([w.cast["static"][0], w.cast["moved"][0], w.cast["static"][2]], v)
    return _obj_slot(w, obj), Expect("colour", words=(w.colour[obj],))


def case_how_many(w, rec, v):
    rooms = w.unique_rooms()
    touched = set(w.cast["moved"]) | {w.cast["inner"]} | set(w.cast["pair"])
    per: dict[tuple[str, str], int] = defaultdict(int)
    for e in w.ents.values():
        if e.label in NAMES and e.attributes.get("grabbable") == "true" and e.id not in touched \
                and w.room[e.id] in rooms:
            per[(e.label, w.room[e.id])] += 1
    opts = sorted(k for k, n in per.items() if 2 <= n <= 6
                  and not any(x.label == k[0] and x.id in touched for x in w.ents.values()))
    if not opts:
        return None
    lab, r = random.Random(f"{w.name}:{rec['text']}:{v}").choice(opts)
    return ({"things": w.say_label(lab, True), "room": w.room_say(r)}, Expect("count", number=per[(lab, r)]))


def _dist(a, b) -> float:
    return a.position.distance(b.position)


def case_which_next_to(w, rec, v):
    touched = set(w.cast["moved"]) | {w.cast["inner"]}
    ents = [e for e in w.ents.values() if e.position is not None and e.id not in touched and e.label != "person"]
    found = []
    for e in sorted(ents, key=lambda x: x.id):
        if w.count(e.label) < 2 or e.attributes.get("grabbable") != "true" or e.label not in NAMES:
            continue
        others = [o for o in w.ents.values() if o.label == e.label and o.id != e.id]
        for anchor in sorted(ents, key=lambda x: _dist(e, x)):
            if anchor.label == e.label or w.count(anchor.label) != 1 or anchor.label not in NAMES:
                continue
            if _dist(e, anchor) > 0.6:
                break
            if all(o.position is not None and _dist(o, anchor) > 1.5 for o in others):
                found.append((e.id, anchor.id, tuple(o.id for o in others)))
                break
    c = _pick(found, v)
    if c is None:
        return None
    e, anchor, others = c
    return ({"thing": w.say(e), "things": w.say(e, True), "anchor": w.say(anchor)},
            Expect("which", accept=frozenset({e}), avoid=frozenset(others)))


def case_which_on(w, rec, v):
    touched = set(w.cast["moved"]) | {w.cast["inner"]}
    found = []
    for e in sorted(w.ents.values(), key=lambda x: x.id):
        if e.id in touched or e.id not in w.loc or e.label not in NAMES or w.count(e.label) < 2 \
                or e.attributes.get("grabbable") != "true" or _plural_only(e.label):
            continue
        pred, h = w.loc[e.id]
        if h not in w.ents or w.count(w.ents[h].label) != 1 or w.ents[h].label not in NAMES:
            continue
        others = [o.id for o in w.ents.values() if o.label == e.label and o.id != e.id]
        if any(w.loc.get(o, ("", ""))[1] == h for o in others):
            continue
        found.append((e.id, h, pred, tuple(others)))
    c = _pick(found, v)
    if c is None:
        return None
    e, h, pred, others = c
    return ({"thing": w.say(e), "support": w.say(h), "prep": _prep(w, h)},
            Expect("which", accept=frozenset({e}), avoid=frozenset(others)))


def case_when_seen(w, rec, v):
    if rec.get("asks", "last") == "last":
        obj = _pick(w.cast["moved"][:2] + [w.cast["inner"]], v)
        return _obj_slot(w, obj), Expect("time", stamp_ns=w.seen_last[obj])
    obj = _pick([w.cast["static"][0], w.cast["moved"][2]], v)
    return _obj_slot(w, obj), Expect("time", stamp_ns=w.seen_first[obj])


def case_where_before(w, rec, v):
    obj = _pick(w.cast["moved"][:2] + [w.cast["inner"]], v)
    return _obj_slot(w, obj), Expect("before", accept=frozenset({w.origin[obj]}),
                                     avoid=frozenset({w.loc[obj][1]}))


def case_after_activity(w, rec, v):
    acts = w.cast["acts"]
    if len(acts) < 2:
        return None
    a = v % (len(acts) - 1)
    _, _, past, ing, _ = acts[a]
    _, nobj, _, _, words = acts[a + 1]
    return ({"person": OTHER.capitalize(), "act_past": past, "act_ing": ing},
            Expect("words", accept=frozenset({nobj}), words=words))


def case_robot_did(w, rec, v):
    cs = [w.cast["fridge"], w.cast["locked"], "drawer_left"]
    return {}, Expect("robot_did", accept=frozenset(cs),
                      words=("open",) + tuple(w.say(c).lower() for c in cs))


def case_where_goes(w, rec, v):
    obj, target = w.cast["goes"]
    names = tuple(n.lower() for n, _ in NAMES[w.label(target)]) + (w.label(target),)
    return _obj_slot(w, obj), Expect("ids_any", accept=frozenset({target}), words=names)


def case_fetch(w, rec, v):
    obj = _pick([w.cast["static"][2], w.cast["moved"][2], w.cast["static"][1], w.cast["moved"][0]], v)
    return _obj_slot(w, obj), Expect("fetch", ids=(obj,))


def case_fetch_two(w, rec, v):
    a = _pick([w.cast["static"][2], w.cast["moved"][1]], v)
    b = _pick([w.cast["static"][1], w.cast["moved"][2]], v)
    return ({"obj": w.say(a), "obj2": w.say(b)}, Expect("fetch", ids=(a, b)))


def case_bring_to(w, rec, v):
    obj = _pick([w.cast["static"][2], w.cast["moved"][2]], v)
    slots = _obj_slot(w, obj)
    if "{person}" in rec["text"]:
        other = "person_ben" if rec.get("speaker", SPEAKER) == SPEAKER else "person_anna"
        slots["person"] = w.ents[other].name.capitalize()
        return slots, Expect("fetch", ids=(obj,), person=other)
    # a room nobody is in, so that handing it to someone there is not mistaken for taking it there
    occupied = {w.room[e.id] for e in w.ents.values() if e.label == "person"}
    rooms = [r for r in w.unique_rooms() if r != w.room[obj] and r not in occupied] or \
        [r for r in w.unique_rooms() if r != w.room[obj]]
    r = _pick(rooms, v)
    slots["room"] = w.room_say(r)
    return slots, Expect("bring_room", ids=(obj,), room=r)


def case_put_on(w, rec, v):
    kind = rec.get("target_kind", "table")
    targets = frozenset(e.id for e in w.ents.values() if e.label in KINDS[kind])
    if not targets:
        return None
    obj = _pick([w.cast["static"][2], w.cast["moved"][2], w.cast["static"][1]], v)
    if w.loc[obj][1] in targets and len(targets) == 1:
        obj = w.cast["moved"][1]
    return _obj_slot(w, obj), Expect("place", ids=(obj,), accept=targets)


def case_put_away(w, rec, v):
    if v % 2 == 0:
        obj, target = w.cast["goes"]
        return _obj_slot(w, obj), Expect("place", ids=(obj,), accept=frozenset({target}))
    obj = w.cast["drawer_obj"]
    return _obj_slot(w, obj), Expect("place", ids=(obj,), accept=frozenset({"drawer_right"}))


def case_put_back(w, rec, v):
    obj = _pick(w.cast["moved"][:2], v)
    return _obj_slot(w, obj), Expect("place", ids=(obj,), accept=frozenset({w.origin[obj]}))


def case_open_close(w, rec, v):
    if rec.get("asks", "open") == "close":
        c = w.cast["fridge"]
        return {"container": w.say(c)}, Expect("close", ids=(c,))
    c = w.cast["microwave"]
    return {"container": w.say(c)}, Expect("open", ids=(c,))


def case_find(w, rec, v):
    obj = _pick(w.cast["moved"] + [w.cast["static"][0]], v)
    accept = frozenset({obj, *w.chain(obj)})
    return _obj_slot(w, obj), Expect("navigate", accept=accept,
                                     avoid=frozenset({w.origin[obj]} if obj in w.origin else ()))


def case_go_to(w, rec, v):
    if "{room}" in rec["text"]:
        r = _pick(w.unique_rooms(), v)
        return {"room": w.room_say(r)}, Expect("navigate", accept=frozenset({r}))
    furn = [e.id for e in w.ents.values() if e.label in ("sofa", "bed", "fridge", "desk", "kitchentable", "tv",
                                                          "bookshelf", "washingmachine", "stove", "bathtub")
            and w.count(e.label) == 1]
    f = _pick(sorted(furn), v)
    return {"furniture": w.say(f)}, Expect("navigate", accept=frozenset({f}))


def case_functional(w, rec, v):
    need = rec["need"]
    ids = frozenset(e.id for e in w.ents.values() if e.label in NEEDS[need])
    if not ids:
        return None
    if rec["service"] == "plan":
        return {}, Expect("pick_any", accept=ids)
    rooms = {w.room[i] for i in ids}
    return {}, Expect("ids_any", accept=ids | rooms)


def case_followup(w, rec, v):
    exp = rec["expect"]
    obj = _pick([w.cast["moved"][2], w.cast["static"][2], w.cast["inner"]], v)
    slots = _obj_slot(w, obj)
    if exp == "fetch":
        return slots, Expect("fetch", ids=(obj,))
    if exp == "colour":
        return slots, Expect("colour", words=(w.colour[obj],))
    if exp == "room":
        return slots, Expect("ids_any", accept=frozenset({w.room[obj]}))
    if exp == "where":
        return slots, _where(w, obj)
    if exp == "put_back":
        obj = _pick(w.cast["moved"][:2], v)
        return _obj_slot(w, obj), Expect("place", ids=(obj,), accept=frozenset({w.origin[obj]}))
    if exp == "close":
        c = w.cast["fridge"]
        return {"container": w.say(c)}, Expect("close", ids=(c,))
    raise ValueError(f"followup expect {exp!r}")


def case_possessive(w, rec, v):
    own = w.cast["own"]
    slots = {"own": w.say(own), "owner": SPEAKER.capitalize()}
    exp = rec["expect"]
    if exp == "where":
        return slots, Expect("ids_any", accept=frozenset({w.loc[own][1]}))
    if exp == "which":
        return slots, Expect("which", accept=frozenset({own}), avoid=frozenset(w.cast["pair"][1:]))
    if exp == "colour":
        return slots, Expect("colour", words=(w.colour[own],))
    if exp == "fetch":
        to_her = " to her" in rec["text"]
        return slots, Expect("fetch", ids=(own,), person="person_anna" if to_her else "")
    raise ValueError(f"possessive expect {exp!r}")


def case_ambiguity(w, rec, v):
    pair = w.cast["pair"]
    locs = {w.loc[p][1] for p in pair}
    return ({"amb": w.say(pair[0]), "ambs": w.say(pair[0], True)},
            Expect("ambiguity", ids=tuple(pair), accept=frozenset(locs) if len(locs) == 2 else frozenset(),
                   words=tuple(w.colour[p] for p in pair)))


def case_refusal(w, rec, v):
    furn = sorted(e.id for e in w.ents.values() if e.label in REFUSABLE and w.count(e.label) == 1)
    f = _pick(furn, v)
    return {"furniture": w.say(f)}, Expect("refusal")


def case_out_of(w, rec, v):
    obj = w.cast["inner"]
    return ({**_obj_slot(w, obj), "container": w.say(w.cast["microwave"])}, Expect("fetch", ids=(obj,)))


def case_unknown(w, rec, v):
    sing, plur = _pick(w.cast["absent"], v)
    if rec["service"] == "plan":
        return {"absent": sing, "absents": plur}, Expect("refusal")
    return {"absent": sing, "absents": plur}, Expect("not_known")


@dataclass(frozen=True)
class Intent:
    build: Callable
    slots: frozenset[str]
    roles: tuple[str, ...] = ()  # skill roles a plan needs; intents whose roles the library lacks are skipped


_OBJ = frozenset({"obj", "objs"})
INTENTS: dict[str, Intent] = {
    "where_is": Intent(case_location("mixed"), _OBJ),
    "where_did_i_leave": Intent(case_location("moved"), _OBJ),
    "have_you_seen": Intent(case_location("mixed"), _OBJ),
    "cant_find": Intent(case_location("moved"), _OBJ),
    "is_there": Intent(case_is_there, frozenset({"thing", "things", "room"})),
    "do_we_have": Intent(case_do_we_have, frozenset({"thing", "things"})),
    "whats_in_on": Intent(case_whats_in, frozenset({"recept", "prep"})),
    "what_room": Intent(case_what_room, _OBJ),
    "open_or_closed": Intent(case_open_closed, frozenset({"container"})),
    "locked_or_usable": Intent(case_locked, frozenset({"container"})),
    "colour": Intent(case_colour, _OBJ),
    "how_many": Intent(case_how_many, frozenset({"things", "room"})),
    "which_next_to": Intent(case_which_next_to, frozenset({"thing", "things", "anchor"})),
    "which_on_in": Intent(case_which_on, frozenset({"thing", "support", "prep"})),
    "when_seen": Intent(case_when_seen, _OBJ),
    "where_before": Intent(case_where_before, _OBJ),
    "after_activity": Intent(case_after_activity, frozenset({"person", "act_past", "act_ing"})),
    "what_did_you_do": Intent(case_robot_did, frozenset()),
    "where_does_it_go": Intent(case_where_goes, _OBJ),
    "fetch": Intent(case_fetch, _OBJ, ("pick",)),
    "fetch_two": Intent(case_fetch_two, frozenset({"obj", "obj2"}), ("pick",)),
    "bring_to": Intent(case_bring_to, _OBJ | {"person", "room"}, ("pick", "navigate")),
    "put_on": Intent(case_put_on, _OBJ, ("pick", "place")),
    "put_away": Intent(case_put_away, _OBJ, ("pick", "place")),
    "put_back": Intent(case_put_back, _OBJ, ("pick", "place")),
    "open_close": Intent(case_open_close, frozenset({"container"}), ("open", "close")),
    "find": Intent(case_find, _OBJ, ("navigate",)),
    "go_to": Intent(case_go_to, frozenset({"room", "furniture"}), ("navigate",)),
    "functional": Intent(case_functional, frozenset()),
    "followup_pronoun": Intent(case_followup, _OBJ | {"container"}),
    "possessive": Intent(case_possessive, frozenset({"own", "owner"})),
    "ambiguity": Intent(case_ambiguity, frozenset({"amb", "ambs"})),
    "refusal": Intent(case_refusal, frozenset({"furniture"})),
    "out_of_container": Intent(case_out_of, _OBJ | {"container"}, ("pick",)),
    "unknown_object": Intent(case_unknown, frozenset({"absent", "absents"})),
}


# ---- data -------------------------------------------------------------------------------------------


def load_records(split: str = "all") -> list[dict]:
    """Template records of one split ('dev', 'heldout') or both ('all'), each tagged with its split."""
    out = []
    for name in (SPLITS if split == "all" else (split,)):
        recs = yaml.safe_load((HERE / f"{name}.yaml").read_text(encoding="utf-8")) or []
        for r in recs:
            out.append({**r, "split": name})
    return out


def load_files(paths: list[str]) -> list[dict]:
    """Template records of other files (the other writers' sets under ``paraphrase/writers``), each tagged
    with its file's stem as the split."""
    out = []
    for path in paths:
        for r in yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []:
            out.append({**r, "split": Path(path).stem})
    return out


def template_slots(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def check_records(records: list[dict]) -> list[str]:
    """What is wrong with the data: unknown intents or services, slots an intent does not fill."""
    problems = []
    for r in records:
        intent = INTENTS.get(r.get("intent", ""))
        if intent is None:
            problems.append(f"unknown intent {r.get('intent')!r}: {r.get('text')!r}")
            continue
        if r.get("service") not in ("ask", "plan"):
            problems.append(f"bad service {r.get('service')!r}: {r['text']!r}")
        texts = [r["text"]] + [t["text"] for t in r.get("turns", [])]
        for t in texts:
            extra = template_slots(t) - intent.slots
            if extra:
                problems.append(f"{r['intent']}: slots {sorted(extra)} not filled: {t!r}")
    return problems


def split_records(records: list[dict], seed: int = 2026) -> dict[str, list[dict]]:
    """Per intent, templates shuffled with a fixed seed; the first half (rounded up) is dev."""
    by_intent: dict[str, list[dict]] = defaultdict(list)
    for r in sorted(records, key=lambda x: (x["intent"], x["text"], x["service"])):
        by_intent[r["intent"]].append({k: v for k, v in r.items() if k != "split"})
    out: dict[str, list[dict]] = {s: [] for s in SPLITS}
    for intent in sorted(by_intent):
        recs = by_intent[intent]
        random.Random(f"{seed}:{intent}").shuffle(recs)
        half = (len(recs) + 1) // 2
        out["dev"] += recs[:half]
        out["heldout"] += recs[half:]
    return out


ASIDE_SALT = "memory_node-writers-aside-2026-12"


def aside_split(path: Path) -> tuple[Path, Path]:
    """Split a new writer's file *before anyone reads it*: one template in three (by a salted hash of its
    text, so the split does not depend on order) goes to ``<stem>_aside.yaml``, to be run and never read;
    the rest to ``<stem>_dev.yaml``, whose failures may be read. The file's lines are copied as they are
    (comments kept), so nothing of the text is printed or rewritten on the way."""
    import hashlib
    lines = path.read_text(encoding="utf-8").splitlines()
    header = [ln for ln in lines[:5] if ln.startswith("#")]
    dev, aside = list(header), list(header)
    for ln in lines:
        if not ln.startswith("- "):
            continue
        text = (yaml.safe_load(ln) or [{}])[0].get("text", "")
        h = int(hashlib.sha1(f"{ASIDE_SALT}:{text}".encode()).hexdigest(), 16)
        (aside if h % 3 == 0 else dev).append(ln)
    out = path.with_name(f"{path.stem}_dev.yaml"), path.with_name(f"{path.stem}_aside.yaml")
    for target, part in zip(out, (dev, aside)):
        target.write_text("\n".join(part) + "\n", encoding="utf-8")
    return out


def write_split(split: dict[str, list[dict]]) -> None:
    import json
    for name, recs in split.items():
        lines = [f"# memory_node paraphrase benchmark, {name} split ({len(recs)} templates; see "
                 f"memory_node/bench/paraphrase_eval.py for slots and grading)"]
        last = None
        for r in recs:
            if r["intent"] != last:
                lines.append(f"# {r['intent']}")
                last = r["intent"]
            lines.append("- " + json.dumps(r, ensure_ascii=False))
        (HERE / f"{name}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---- running ------------------------------------------------------------------------------------------


def _conversation_class():
    try:
        from memory_node.language import Conversation  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - the layer may not exist yet, or may fail to import
        return None
    return Conversation


def _accepts(fn, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


class Services:
    """The two entry points, called the way the ROS services call them, with a per-episode conversation
    when ``memory_node.language.Conversation`` exists."""

    def __init__(self, lib, ask_fn=None, plan_fn=None):
        if ask_fn is None:
            from memory_node.requests import answer_question as ask_fn
        if plan_fn is None:
            from memory_node.requests import plan_request as plan_fn
        self.lib, self.ask_fn, self.plan_fn = lib, ask_fn, plan_fn
        self.conv_cls = _conversation_class()
        self.conv_ask = self.conv_cls is not None and _accepts(ask_fn, "conversation")
        self.conv_plan = self.conv_cls is not None and _accepts(plan_fn, "conversation")

    def episode(self, speaker: str):
        if self.conv_cls is None:
            return None
        for make in (lambda: self.conv_cls(), lambda: self.conv_cls(speaker=speaker)):
            try:
                return make()
            except TypeError:
                continue
        return None

    def call(self, store, service: str, text: str, speaker: str, conv):
        if service == "ask":
            kw = {"conversation": conv} if conv is not None and self.conv_ask else {}
            return self.ask_fn(store, text, speaker=speaker, **kw)
        kw = {"conversation": conv} if conv is not None and self.conv_plan else {}
        return self.plan_fn(store, self.lib, text, speaker=speaker, **kw)


CLASSES = ("right", "asked", "refused", "wrong")


def class_table(outcomes, key, width: int, out=sys.stdout) -> None:
    """The right / asked / refused / wrong shares of ``outcomes`` (each with a ``cls``), one row per ``key``."""
    groups: dict[str, Counter] = defaultdict(Counter)
    for o in outcomes:
        groups[key(o)][o.cls] += 1
    print(f"  {'':{width}} {'n':>5} " + " ".join(f"{c:>8}" for c in CLASSES), file=out)
    for g in sorted(groups):
        c = groups[g]
        n = sum(c.values())
        print(f"  {g:{width}} {n:5d} " + " ".join(f"{100.0 * c[x] / n:7.1f}%" for x in CLASSES), file=out)
_ASKS = re.compile(r"\?|\bdo you mean\b|\bwhich (one|of)\b", re.I)


def classify(service: str, reply, ok: bool) -> str:
    """right / asked / refused / wrong. A reply that asks back ("which mug do you mean?") or declines (no
    plan; an answer of confidence 0, which claims nothing) is not wrong; a plan or an answer that claims
    something and fails the grade is. A wrong plan is the dangerous class: a robot that fetches the wrong
    thing."""
    if ok:
        return "right"
    text = reply_text(service, reply) if reply is not None else ""
    if reply is not None and _ASKS.search(text or ""):
        return "asked"
    if reply is None or not reply.success or (service == "ask" and float(reply.confidence) == 0.0):
        return "refused"
    return "wrong"


@dataclass
class Outcome:
    world: str
    intent: str
    split: str
    service: str
    text: str
    ok: bool
    empty: bool
    why: str
    reply: str
    cls: str = ""


def _short_reply(service: str, reply) -> str:
    if reply is None:
        return ""
    if service == "ask":
        return f"success={reply.success} answer={reply.answer!r} ids={reply.answer_ids[:6]} " \
               f"conf={reply.confidence:.2f}" + (f" error={reply.error!r}" if reply.error else "")
    if reply.success and reply.plan is not None:
        steps = " ".join(f"{s.skill}({','.join(s.args)})" for s in reply.plan.steps)
        return f"plan: {steps} | {reply.plan.explanation!r}"
    return f"refused: {reply.error!r}"


def run_record(w: World, svc: Services, rec: dict, variant: int) -> Outcome | None:
    intent = INTENTS[rec["intent"]]
    if any(svc.lib.by_role(role) is None for role in intent.roles):
        return None
    built = intent.build(w, rec, variant)
    if built is None:
        return None
    slots, exp = built
    texts = [rec["text"]] + [t["text"] for t in rec.get("turns", [])]
    if any(template_slots(t) - set(slots) for t in texts):
        return None  # a template naming slots this case does not fill together ({person} and {room}): skipped
    speaker = rec.get("speaker", SPEAKER)
    if exp.kind in ("fetch", "pick_any") and not exp.person:
        exp.me = f"person_{speaker}"
    conv = svc.episode(speaker)
    reply = None
    text = rec["text"].format(**slots)
    try:
        for turn in rec.get("turns", []):
            svc.call(w.store, turn["service"], turn["text"].format(**slots), speaker, conv)
        reply = svc.call(w.store, rec["service"], text, speaker, conv)
        ok, why = grade(w, svc.lib, exp, rec["service"], reply)
        empty = is_empty(rec["service"], reply)
    except Exception as exc:  # noqa: BLE001 - a crash is a failed request, reported as such
        ok, why, empty = False, f"exception {type(exc).__name__}: {exc}", False
    if rec.get("turns"):
        text = " / ".join(t["text"].format(**slots) for t in rec["turns"]) + " / " + text
    return Outcome(w.name, rec["intent"], rec["split"], rec["service"], text, ok, empty,
                   why, _short_reply(rec["service"], reply), classify(rec["service"], reply, ok))


def evaluate(records: list[dict], robot: str = "vega", seed: int = 0, services: Services | None = None,
             graphs: list[Path] | None = None) -> tuple[list[Outcome], list[str]]:
    from memory_node.planning.skills import SkillLibrary, default_library_path
    svc = services or Services(SkillLibrary.load(default_library_path(robot)))
    graphs = graphs or sorted((DATA / "virtualhome_graphs" / "example_graphs").glob("TestScene*_graph.json"))
    outcomes, skipped = [], []
    index: dict[str, int] = defaultdict(int)
    order = []
    for r in records:
        order.append((r, index[r["intent"]]))
        index[r["intent"]] += 1
    with tempfile.TemporaryDirectory(prefix="paraphrase_eval_") as d:
        for gi, path in enumerate(graphs):
            w = build_world(path, seed, Path(d))
            if w is None:
                skipped.append(f"{path.stem}: lacks what the script needs")
                continue
            for rec, k in order:
                o = run_record(w, svc, rec, k + gi)
                if o is None:
                    skipped.append(f"{w.name}: {rec['intent']}: {rec['text']!r}")
                else:
                    outcomes.append(o)
            w.store.close()
    return outcomes, skipped


def _pct(ok: int, n: int) -> str:
    return f"{100.0 * ok / n:5.1f}%" if n else "    -"


def report(outcomes: list[Outcome], skipped: list[str], splits: list[str], failures: int, out=sys.stdout) -> None:
    p = lambda *a: print(*a, file=out)  # noqa: E731
    by: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by[(o.intent, o.split)].append(o)
        by[(o.intent, "all")].append(o)
    cols = splits + (["all"] if len(splits) > 1 else [])
    w = max([len(i) for i in INTENTS] + [8])
    p(f"  {'intent'.ljust(w)}  " + "  ".join(f"{c:>7} n  ok%   " for c in cols) + " empty")
    for intent in INTENTS:
        cells = []
        for c in cols:
            os_ = by.get((intent, c), [])
            cells.append(f"{len(os_):9d} {_pct(sum(o.ok for o in os_), len(os_))}  ")
        empty = sum(o.empty for o in by.get((intent, "all"), []))
        p(f"  {intent.ljust(w)}  " + "  ".join(cells) + f" {empty:5d}")
    cells = []
    for c in cols:
        os_ = [o for o in outcomes if c == "all" or o.split == c]
        cells.append(f"{len(os_):9d} {_pct(sum(o.ok for o in os_), len(os_))}  ")
    n_empty = sum(o.empty for o in outcomes)
    p(f"  {'overall'.ljust(w)}  " + "  ".join(cells) + f" {n_empty:5d}")
    intents_seen = {o.intent for o in outcomes}
    macro = [sum(o.ok for o in by[(i, 'all')]) / len(by[(i, 'all')]) for i in intents_seen]
    p(f"\n  {len(outcomes)} graded requests over {len(intents_seen)} intents; mean of per-intent success "
      f"{100.0 * sum(macro) / max(1, len(macro)):.1f}%")
    p(f"  empty replies: {n_empty} ({_pct(n_empty, len(outcomes)).strip()} of all replies)")
    p(f"  exceptions: {sum(o.why.startswith('exception') for o in outcomes)}; skipped instances "
      f"(an apartment lacks what the template needs): {len(skipped)}")
    p("\n  right / asked back / refused / wrong, by split and service:")
    p(f"  {'':24} {'n':>5} " + " ".join(f"{c:>8}" for c in CLASSES))
    for c in cols:
        for service in ("ask", "plan"):
            os_ = [o for o in outcomes if (c == "all" or o.split == c) and o.service == service]
            if os_:
                n = len(os_)
                p(f"  {(c + '/' + service):24} {n:5d} "
                  + " ".join(f"{100.0 * sum(o.cls == k for o in os_) / n:7.1f}%" for k in CLASSES))
    amb = [o for o in outcomes if o.intent == "ambiguity"]
    if amb:
        p(f"\n  ambiguity cases ({sum(o.ok for o in amb)}/{len(amb)} asked which / named both):")
        for o in amb[:24]:
            p(f"    [{'ok' if o.ok else '--'}] {o.world} {o.service}: {o.text!r} -> {o.reply[:150]}")
        if len(amb) > 24:
            p(f"    ... {len(amb) - 24} more")
    if failures:
        p("\n  failing examples:")
        for intent in INTENTS:
            bad = [o for o in by.get((intent, "all"), []) if not o.ok][:failures]
            if bad:
                p(f"  {intent}:")
                for o in bad:
                    p(f"    [{o.cls}] {o.world} {o.service} {o.text!r}\n      -> {o.reply[:300]}\n      ({o.why})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--robot", default="vega", choices=("vega", "g1"))
    parser.add_argument("--seed", type=int, default=0, help="scripted experience (moves, colours, names)")
    parser.add_argument("--failures", type=int, default=3, help="failing examples shown per intent")
    parser.add_argument("--file", action="append", default=[], metavar="YAML",
                        help="evaluate these template files instead (a split per file, named by its stem), e.g. "
                             "memory_node/bench/paraphrase/writers/other_writer_b.yaml")
    parser.add_argument("--resplit", type=int, metavar="SEED", default=None,
                        help="re-split the templates of both files at random per intent with this seed")
    parser.add_argument("--aside-split", metavar="YAML", default=None,
                        help="split a new writer's file before reading it: <stem>_dev.yaml (two thirds, may be "
                             "read) and <stem>_aside.yaml (one third, run only)")
    args = parser.parse_args(argv)
    if args.aside_split:
        for target in aside_split(Path(args.aside_split)):
            print(f"{target}: {sum(1 for ln in target.read_text().splitlines() if ln.startswith('- '))} templates")
        return 0
    if args.resplit is not None:
        split = split_records(load_records("all"), args.resplit)
        write_split(split)
        print(", ".join(f"{k}: {len(v)} templates" for k, v in split.items()))
        return 0
    records = load_files(args.file) if args.file else load_records(args.split)
    problems = check_records(records)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    t0 = time.monotonic()
    outcomes, skipped = evaluate(records, args.robot, args.seed)
    splits = [Path(f).stem for f in args.file] if args.file else list(SPLITS) if args.split == "all" else [args.split]
    print(f"memory_node paraphrase benchmark: robot {args.robot}, split {args.split}, seed {args.seed}, "
          f"{len(records)} templates x {len({o.world for o in outcomes})} VirtualHome apartments, "
          f"conversation {'on' if _conversation_class() else 'absent'} ({time.monotonic() - t0:.0f} s)")
    report(outcomes, skipped, splits, args.failures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
