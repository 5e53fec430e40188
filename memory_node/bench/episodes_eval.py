"""Episodes: a fresh memory per episode, an experience, then requests graded on ids — six families.

    python -m memory_node.bench.episodes_eval [--split dev|aside|all] [--family NAME] [--per-scene 3]
                                              [--show wrong|all] [--robot vega]

Each episode starts from an empty in-process store, replays one of the shipped VirtualHome apartments
(``../shared/data/virtualhome_graphs/example_graphs``, one complete scene graph per room) and then what its
family is about, before asking its requests through ``requests.answer_question`` / ``plan_request`` (what
``~/ask`` and ``~/plan`` run):

- ``passive``: only the tour; where a thing is, fetch it.
- ``same_names``: one kind of thing in two rooms; the room phrase must pick one.
- ``appearance``: two of a kind told apart by colour; the colour must pick one.
- ``moved``: a thing seen in three places over time; where it is, where it was before its last move, where it
  was first.
- ``failed_action``: a skill failed (a locked container, a shelf out of reach); the answers must say so and the
  next plan must avoid it or say why it cannot.
- ``generalise``: a person said where two or three things of one kind go; a new thing of that kind should go
  to the same place (asked, and planned as "put it away").

An episode succeeds when every one of its requests is right. Replies are classed as in
``real_wording_eval``: right, asked (asks back), refused (declines, claims nothing) or wrong.

The request wording below was written for this benchmark in several styles (plain, polite, terse, spoken
without punctuation); the kinds of things in ``generalise`` are general household knowledge. Episodes are
split by a salted hash of their id into ``dev`` (two thirds: read and fixed against) and ``aside`` (one third:
run, never read; with ``--show`` it prints nothing for aside episodes).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory_node.core.models import (
    Answer,
    EntityObservation,
    PlanResult,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.store import MemoryStore
from memory_node.scenes.virtualhome import VirtualHomeScene, load_scene, room_graphs

S = 1_000_000_000
MINUTE = 60 * S
T0 = 1_767_000_000 * S
GRAPHS = Path(__file__).resolve().parents[3] / "shared" / "data" / "virtualhome_graphs" / "example_graphs"
SPLIT_SALT = "memory_node-episodes-2026-12"
FAMILIES = ("passive", "same_names", "appearance", "moved", "failed_action", "generalise")
CLASSES = ("right", "asked", "refused", "wrong")
SPEAKER = "maria"

# ---- wording (written here, several styles per request) ------------------------------------------

WHERE = ["where is the {o}?", "have you seen the {o} anywhere", "um where did the {o} end up",
         "{o}. where is it?", "could you tell me where the {o} is please?", "do you know where the {o} is"]
FETCH = ["bring me the {o}", "could you fetch the {o} for me please", "i need the {o}, can you get it",
         "get me the {o} pls", "would you mind bringing the {o} over here?"]
WHERE_ROOM = ["where is the {o} in the {r}?", "the {o} in the {r}, where is it", "where's the {o} that is in the {r}",
              "which spot in the {r} is the {o} on"]
FETCH_ROOM = ["bring me the {o} from the {r}", "fetch the {o} that is in the {r} please",
              "can you get me the {o} in the {r}", "go to the {r} and bring me the {o}"]
WHERE_COLOUR = ["where is the {c} {o}?", "where did i put the {c} {o}", "have you seen my {c} {o}",
                "the {c} {o}, where is it?"]
FETCH_COLOUR = ["bring me the {c} {o}", "i want the {c} {o} please", "could you fetch the {c} {o}",
                "get the {c} {o} for me"]
WHERE_BEFORE_LAST = ["where was the {o} before it was last moved?", "before the {o} was moved the last time, where was it",
                     "where had the {o} been before its most recent move?",
                     "where was the {o} just before someone last moved it"]
WHERE_FIRST = ["where was the {o} when you first saw it?", "where was the {o} originally?",
               "where did you first see the {o}"]
FAILED_ASK = ["is the {t} usable?", "can the {t} be opened?", "what happened when you tried to open the {t}?",
              "did opening the {t} work"]
FAILED_OPEN_PLAN = ["open the {t}", "please open the {t}", "could you open the {t} for me", "open up the {t} pls"]
FAILED_FETCH_PLAN = ["get the {o} out of the {t}", "bring me the {o} from the {t}",
                     "take the {o} out of the {t} please"]
REACH_ASK = ["what happened when you tried to put the {o} on the {t}?", "did you manage to put the {o} on the {t}?",
             "can you reach the {t}?"]
REACH_PLAN = ["put the {o2} on the {t}", "place the {o2} on the {t} please", "could you put the {o2} onto the {t}"]
CORRECTION = ["the {a} goes in the {r}", "no, the {a} belongs in the {r}", "please always keep the {a} in the {r}",
              "{a} go in the {r}", "put the {a} in the {r}, that's where it lives"]
GOES_ASK = ["where does the {o} go?", "where should the {o} be kept", "where do we keep the {o}?",
            "where does the {o} belong"]
PUT_AWAY_IN = ["put the {o} away in the {c}", "could you put the {o} away in the {c} please",
               "tidy the {o} away into the {c}", "put away the {o} in the {c}"]
PUT_AWAY = ["put the {o} away", "please tidy the {o} away", "could you put the {o} where it belongs",
            "put away the {o}"]

COLOURS = ("red", "blue", "green", "yellow", "white", "black")
# Kinds of household things and where a household might keep them (general knowledge, written here): the
# receptacle is the first label of its list that the apartment has.
KINDS = {
    "fruit": (("apple", "pear", "banana", "peach", "plum", "orange", "mango", "kiwi", "apricot"),
              ("fridge", "kitchencabinet", "kitchencounter")),
    "reading": (("book", "magazine", "notebook", "novel", "comic book", "atlas", "journal"),
                ("bookshelf", "desk", "nightstand")),
    "clothing": (("shirt", "sweater", "sock", "jacket", "scarf", "blouse", "cardigan", "trousers"),
                 ("closet", "dresser", "bed")),
    "toiletry": (("toothpaste", "shampoo", "soap", "conditioner", "deodorant", "razor", "mouthwash"),
                 ("bathroomcabinet", "bathroomcounter", "sink")),
    "tableware": (("plate", "bowl", "cup", "mug", "saucer", "dish", "tumbler"),
                  ("kitchencabinet", "dishwasher", "kitchencounter")),
    "tool": (("hammer", "screwdriver", "wrench", "pliers", "drill", "chisel", "spanner"),
             ("cabinet", "closet", "desk")),
    "toy": (("teddy bear", "doll", "toy car", "puzzle", "action figure", "rubber duck", "yo-yo"),
            ("closet", "bookshelf", "cabinet")),
}


# ---- episodes ------------------------------------------------------------------------------------


@dataclass
class Req:
    service: str  # "ask" or "plan"
    text: str
    check: Callable[[Answer | PlanResult], bool]
    what: str  # what a right reply does, for --show


@dataclass
class Episode:
    id: str
    family: str
    scene: str
    experience: list = field(default_factory=list)  # observation models, in order
    requests: list[Req] = field(default_factory=list)

    @property
    def split(self) -> str:
        return split_of(self.id)


def split_of(episode_id: str) -> str:
    """``aside`` for one episode in three, by a salted hash of its id (stable, independent of content)."""
    h = int(hashlib.sha1(f"{SPLIT_SALT}:{episode_id}".encode()).hexdigest(), 16)
    return "aside" if h % 3 == 0 else "dev"


def spoken(label: str) -> str:
    """A VirtualHome label as people say it ("kitchencabinet" -> "kitchen cabinet")."""
    for head in ("kitchen", "bathroom", "coffee", "book", "night", "wall", "tv", "dish", "washing", "remote",
                 "cell", "water", "wine", "teddy", "toilet", "cutting", "frying", "coffee"):
        if label.startswith(head) and len(label) > len(head) + 2:
            return f"{head} {label[len(head):]}"
    return label


def _steps(r: PlanResult) -> list[tuple[str, list[str]]]:
    return [(s.skill, list(s.args)) for s in r.plan.steps] if r.success and r.plan else []


def classify(reply: Answer | PlanResult, right: bool) -> str:
    if right:
        return "right"
    text = reply.answer if isinstance(reply, Answer) else (reply.error or (reply.plan.explanation if reply.plan else ""))
    if "?" in text:
        return "asked"
    if not reply.success or (isinstance(reply, Answer) and reply.confidence == 0):
        return "refused"
    return "wrong"


# graders: each returns a check over one reply

def answers_with(expected: str, not_: tuple[str, ...] = ()) -> Callable:
    def check(a: Answer) -> bool:
        return a.success and "?" not in a.answer and expected in a.answer_ids and not set(not_) & set(a.answer_ids)
    return check


def fetches(obj: str, not_: tuple[str, ...] = ()) -> Callable:
    def check(r: PlanResult) -> bool:
        picked = [a[0] for s, a in _steps(r) if s == "pick" and a]
        return obj in picked and not set(not_) & set(picked)
    return check


def places(obj: str, receptacle: str) -> Callable:
    def check(r: PlanResult) -> bool:
        return any(s == "place" and a[:2] == [obj, receptacle] for s, a in _steps(r))
    return check


_REASON = re.compile(r"lock|fail|could ?n[o']t|cannot|can't|did not|didn't|out of reach|unreachable|not usable", re.I)


def says_failed(target: str) -> Callable:
    """An answer that names the failure (its reason) about ``target``."""
    def check(a: Answer) -> bool:
        return bool(_REASON.search(a.answer)) and target in set(a.answer_ids) | set(a.evidence_ids) | \
            set(re.findall(r"[a-z0-9_]+", a.answer))
    return check


def avoids(target: str, skills: tuple[str, ...]) -> Callable:
    """A plan that does not use ``target`` with ``skills``, or a refusal that gives the reason."""
    def check(r: PlanResult) -> bool:
        if not r.success:
            return bool(_REASON.search(r.error))
        return not any(s in skills and target in a for s, a in _steps(r))
    return check


# ---- building episodes from an apartment -----------------------------------------------------------


class Apartment:
    def __init__(self, path: Path):
        self.scene: VirtualHomeScene = load_scene(path)
        sc = self.scene
        self.by_label: dict[str, list[str]] = defaultdict(list)
        for e in sc.entities.values():
            self.by_label[e.label].append(e.id)
        loc = {r.subject: r for r in sc.relations}
        self.loc = loc
        self.small = sorted(e.id for e in sc.entities.values() if e.attributes.get("grabbable") == "true"
                            and len(self.by_label[e.label]) == 1 and e.id in loc
                            and loc[e.id].object in sc.entities and
                            "closed" not in sc.entities[loc[e.id].object].states)
        self.surfaces = sorted(e.id for e in sc.entities.values() if e.attributes.get("surface") == "true"
                               and e.attributes.get("grabbable") != "true" and e.attributes.get("openable") != "true"
                               and len(self.by_label[e.label]) == 1 and e.position is not None)
        self.containers = sorted(e.id for e in sc.entities.values() if e.attributes.get("openable") == "true"
                                 and e.attributes.get("container") == "true" and len(self.by_label[e.label]) == 1
                                 and e.position is not None and e.attributes.get("grabbable") != "true")
        self.room_names = {r: e.name for r, e in sc.rooms.items()}

    def room_say(self, room: str) -> str:
        return {"livingroom": "living room"}.get(self.room_names[room], self.room_names[room])

    def unique_room(self, room: str) -> bool:
        return sum(n == self.room_names[room] for n in self.room_names.values()) == 1

    def tour(self) -> list:
        return room_graphs(self.scene, T0)

    def seen_at(self, ent: EntityObservation, holder: str, t: int, pred: str = "on") -> SceneGraphObservation:
        h = self.scene.entities[holder]
        e = ent.model_copy(update={"room": h.room, "position": h.position})
        return SceneGraphObservation(stamp_ns=t, source="episode", room=h.room, complete=False, entities=[e, h],
                                     relations=[RelationObservation(subject=e.id, predicate=pred, object=holder)])

    def new_thing(self, label: str, ident: int, colour: str = "") -> EntityObservation:
        attrs = {"grabbable": "true", "category": "props"}
        if colour:
            attrs["color"] = colour
        return EntityObservation(id=f"{label.replace(' ', '')}_{ident}", label=label.replace(" ", ""),
                                 attributes=attrs)


def _passive(ap: Apartment, rng: random.Random, eid: str) -> Episode | None:
    if not ap.small:
        return None
    obj = rng.choice(ap.small)
    name = spoken(ap.scene.entities[obj].label)
    ep = Episode(eid, "passive", ap.scene.name, ap.tour())
    ep.requests = [Req("ask", rng.choice(WHERE).format(o=name), answers_with(ap.loc[obj].object), f"where: {ap.loc[obj].object}"),
                   Req("plan", rng.choice(FETCH).format(o=name), fetches(obj), f"pick {obj}")]
    away = [c for c in ap.containers if c != ap.loc[obj].object and "locked" not in ap.scene.entities[c].states]
    if away:  # put away into a place the person names: no correction needed, the place is in the request
        c = rng.choice(away)
        ep.requests.append(Req("plan", rng.choice(PUT_AWAY_IN).format(o=name, c=spoken(ap.scene.entities[c].label)),
                               places(obj, c), f"place {obj} in {c}"))
    return ep


def _two_of(ap: Apartment, rng: random.Random, eid: str, family: str, label: str, holders: list[str],
            colours: tuple[str, str] = ("", "")) -> tuple[Episode, list[str]]:
    ep = Episode(eid, family, ap.scene.name, ap.tour())
    ids = []
    for k, (h, c) in enumerate(zip(holders, colours)):
        thing = ap.new_thing(label, 9500 + k, c)
        ep.experience.append(ap.seen_at(thing, h, T0 + (5 + k) * MINUTE))
        ids.append(thing.id)
    return ep, ids


def _same_names(ap: Apartment, rng: random.Random, eid: str) -> Episode | None:
    rooms = {}
    for s in ap.surfaces:
        r = ap.scene.entities[s].room
        if ap.unique_room(r):
            rooms.setdefault(r, s)
    if len(rooms) < 2:
        return None
    (r1, s1), (r2, s2) = rng.sample(sorted(rooms.items()), 2)
    labels = [x for x in ("mug", "book", "towel", "remote control", "candle", "vase", "hat", "umbrella")
              if x.replace(" ", "") not in ap.by_label]  # two of a kind, both ours: nothing else answers to it
    if not labels:
        return None
    label = rng.choice(labels)
    ep, (a, b) = _two_of(ap, rng, eid, "same_names", label, [s1, s2])
    want, other, room, holder = (a, b, r1, s1) if rng.random() < 0.5 else (b, a, r2, s2)
    ep.requests = [
        Req("ask", rng.choice(WHERE_ROOM).format(o=label, r=ap.room_say(room)), answers_with(holder), f"where: {holder}"),
        Req("plan", rng.choice(FETCH_ROOM).format(o=label, r=ap.room_say(room)), fetches(want, (other,)),
            f"pick {want}, not {other}")]
    return ep


def _appearance(ap: Apartment, rng: random.Random, eid: str) -> Episode | None:
    if len(ap.surfaces) < 2:
        return None
    s1, s2 = rng.sample(ap.surfaces, 2)
    label = rng.choice(["mug", "water glass", "plate", "towel", "pillow", "bowl", "cup"])
    c1, c2 = rng.sample(COLOURS, 2)
    ep, (a, b) = _two_of(ap, rng, eid, "appearance", label, [s1, s2], (c1, c2))
    want, other, c, holder = (a, b, c1, s1) if rng.random() < 0.5 else (b, a, c2, s2)
    ep.requests = [
        Req("ask", rng.choice(WHERE_COLOUR).format(o=label, c=c), answers_with(holder), f"where: {holder}"),
        Req("plan", rng.choice(FETCH_COLOUR).format(o=label, c=c), fetches(want, (other,)), f"pick {want}, not {other}")]
    return ep


def _moved(ap: Apartment, rng: random.Random, eid: str) -> Episode | None:
    if not ap.small or len(ap.surfaces) < 3:
        return None
    obj = rng.choice(ap.small)
    first = ap.loc[obj].object
    b, c = rng.sample([s for s in ap.surfaces if s != first], 2)
    ent = ap.scene.entities[obj]
    ep = Episode(eid, "moved", ap.scene.name, ap.tour())
    ep.experience.append(ap.seen_at(ent, b, T0 + 60 * MINUTE))
    if rng.random() < 0.5:  # seen there later, moved by someone unseen
        ep.experience.append(ap.seen_at(ent, c, T0 + 180 * MINUTE))
    else:  # the robot carried it there (its skill feedback), then saw it there
        t = T0 + 180 * MINUTE
        ep.experience += [
            SkillFeedbackObservation(stamp_ns=t, robot="vega", skill="pick", args=[obj], target_id=obj,
                                     success=True, status="SUCCEEDED"),
            SkillFeedbackObservation(stamp_ns=t + MINUTE, robot="vega", skill="place", args=[obj, c], target_id=c,
                                     success=True, status="SUCCEEDED"),
            ap.seen_at(ent, c, t + 2 * MINUTE)]
    name = spoken(ent.label)
    ep.requests = [
        Req("ask", rng.choice(WHERE).format(o=name), answers_with(c, (b, first)), f"where now: {c}"),
        Req("ask", rng.choice(WHERE_BEFORE_LAST).format(o=name), answers_with(b, (c,)), f"before last move: {b}"),
        Req("ask", rng.choice(WHERE_FIRST).format(o=name), answers_with(first, (c,)), f"first: {first}")]
    return ep


def _failed_action(ap: Apartment, rng: random.Random, eid: str) -> Episode | None:
    ep = Episode(eid, "failed_action", ap.scene.name, ap.tour())
    t = T0 + 30 * MINUTE
    if rng.random() < 0.5 and ap.containers:  # a container found locked
        cont = rng.choice(ap.containers)
        name = spoken(ap.scene.entities[cont].label)
        thing = ap.new_thing(rng.choice(["battery", "key", "candle", "spoon"]), 9600)
        ep.experience += [ap.seen_at(thing, cont, t, "in"),
                          SkillFeedbackObservation(stamp_ns=t + MINUTE, robot="vega", skill="open", args=[cont],
                                                   target_id=cont, success=False, status="EXECUTION_FAILURE",
                                                   message=rng.choice([f"the {name} is locked", "locked",
                                                                       "door would not move: locked"]))]
        ep.requests = [
            Req("ask", rng.choice(FAILED_ASK).format(t=name), says_failed(cont), f"says {cont} failed/locked"),
            Req("plan", rng.choice(FAILED_OPEN_PLAN).format(t=name), avoids(cont, ("open",)), f"no open {cont}"),
            Req("plan", rng.choice(FAILED_FETCH_PLAN).format(o=spoken(thing.label), t=name),
                avoids(cont, ("open",)), f"no open {cont}")]
        return ep
    if len(ap.surfaces) < 2 or len(ap.small) < 2:
        return None
    shelf = rng.choice(ap.surfaces)
    o1, o2 = rng.sample([o for o in ap.small if ap.loc[o].object != shelf], 2)
    n1, n2, sname = spoken(ap.scene.entities[o1].label), spoken(ap.scene.entities[o2].label), \
        spoken(ap.scene.entities[shelf].label)
    ep.experience += [
        SkillFeedbackObservation(stamp_ns=t, robot="vega", skill="pick", args=[o1], target_id=o1, success=True,
                                 status="SUCCEEDED"),
        SkillFeedbackObservation(stamp_ns=t + MINUTE, robot="vega", skill="place", args=[o1, shelf],
                                 target_id=shelf, success=False, status="EXECUTION_FAILURE",
                                 message=rng.choice(["target out of reach", f"the {sname} is unreachable",
                                                     "could not reach the placement pose"]))]
    ep.requests = [
        Req("ask", rng.choice(REACH_ASK).format(o=n1, t=sname), says_failed(shelf), f"says placing on {shelf} failed"),
        Req("plan", rng.choice(REACH_PLAN).format(o2=n2, t=sname), avoids(shelf, ("place",)), f"no place on {shelf}")]
    return ep


def _generalise(ap: Apartment, rng: random.Random, eid: str) -> Episode | None:
    options = []
    for kind, (things, receptacles) in KINDS.items():
        r = next((ap.by_label[lab][0] for lab in receptacles if len(ap.by_label.get(lab, ())) == 1), None)
        if r:
            options.append((kind, things, r))
    if not options:
        return None
    kind, things, recept = rng.choice(options)
    n_seen = rng.choice([2, 3])
    chosen = rng.sample([x for x in things if x.replace(" ", "") not in ap.by_label], n_seen + 1)
    seen, new = chosen[:n_seen], chosen[n_seen]
    rname = spoken(ap.scene.entities[recept].label)
    ep = Episode(eid, "generalise", ap.scene.name, ap.tour())
    t = T0 + 20 * MINUTE
    for k, a in enumerate(seen):
        ep.experience.append(UtteranceObservation(stamp_ns=t + k * MINUTE, speaker=SPEAKER,
                                                  text=rng.choice(CORRECTION).format(a=a, r=rname)))
    thing = ap.new_thing(new, 9700)
    if ap.surfaces:
        ep.experience.append(ap.seen_at(thing, rng.choice([s for s in ap.surfaces if s != recept] or ap.surfaces),
                                        t + 10 * MINUTE))
    ep.requests = [Req("ask", rng.choice(GOES_ASK).format(o=new), answers_with(recept), f"goes: {recept} ({kind})"),
                   Req("plan", rng.choice(PUT_AWAY).format(o=new), places(thing.id, recept),
                       f"place {thing.id} on/in {recept}")]
    return ep


BUILDERS = {"passive": _passive, "same_names": _same_names, "appearance": _appearance, "moved": _moved,
            "failed_action": _failed_action, "generalise": _generalise}


def build_episodes(per_scene: int = 3, graphs: list[Path] | None = None) -> list[Episode]:
    graphs = graphs or sorted(GRAPHS.glob("TestScene*_graph.json"))
    out = []
    for path in graphs:
        ap = Apartment(path)
        for fam, build in BUILDERS.items():
            for k in range(per_scene):
                eid = f"{fam}/{ap.scene.name}/{k}"
                ep = build(ap, random.Random(eid), eid)
                if ep is not None:
                    out.append(ep)
    return out


# ---- running --------------------------------------------------------------------------------------


def ingest(store: MemoryStore, obs) -> None:
    if isinstance(obs, SceneGraphObservation):
        store.ingest_scene_graph(obs)
    elif isinstance(obs, SkillFeedbackObservation):
        store.ingest_skill_feedback(obs)
    elif isinstance(obs, UtteranceObservation):
        store.ingest_utterance(obs)
    else:
        raise TypeError(type(obs))


def run_episode(ep: Episode, library) -> list[tuple[Req, Answer | PlanResult, str]]:
    from memory_node.requests import answer_question, plan_request

    # as the node does: what the robot's skills do to where things are comes from its library
    store = MemoryStore(":memory:", skill_state_effects=library.state_effects(),
                        skill_location_effects=library.location_effects())
    try:
        for obs in ep.experience:
            ingest(store, obs)
        out = []
        for req in ep.requests:
            reply = answer_question(store, req.text, speaker=SPEAKER) if req.service == "ask" else \
                plan_request(store, library, req.text, speaker=SPEAKER)
            out.append((req, reply, classify(reply, req.check(reply))))
        return out
    finally:
        store.close()


def run_episode_ros(ep: Episode, robot: str, workdir: Path) -> list[tuple[Req, Answer | PlanResult, str]]:
    """``run_episode`` through a fresh node process over DDS: the experience published on its topics (a
    ``~/sync`` whenever the topic changes, so messages of different topics are ingested in the order given,
    and before asking), the requests over ``~/ask`` and ``~/plan``."""
    import uuid

    from memory_node.ros import conversions as conv
    from memory_node.ros.client import MemoryClient
    from memory_node.ros.process import NodeProcess

    ns = f"ep{uuid.uuid4().hex[:8]}"
    with open(workdir / f"{ns}.log", "w") as log:
        proc = NodeProcess(robot, log=log, namespace=ns, database_path=str(workdir / f"{ns}.db"))
        client = MemoryClient(node_name=f"/{ns}/memory_node", namespace=f"/{ns}", client_name=f"ep_{ns}")
        try:
            client.wait_for_node(timeout=90, alive=proc.alive)
            last = None
            for obs in ep.experience:
                if last is not None and type(obs) is not last:
                    client.sync(timeout=60)
                last = type(obs)
                if isinstance(obs, SceneGraphObservation):
                    client.publish_scene_graph(obs)
                elif isinstance(obs, SkillFeedbackObservation):
                    client.publish_skill_feedback(obs)
                else:
                    client.publish_utterance(obs)
            client.sync(timeout=60)
            out = []
            for req in ep.requests:
                if req.service == "ask":
                    r = client.ask(req.text, speaker=SPEAKER, timeout=60)
                    reply: Answer | PlanResult = Answer(
                        success=r.success, answer=r.answer, answer_ids=list(r.answer_ids),
                        evidence_ids=list(r.evidence_ids), confidence=r.confidence, error=r.error)
                else:
                    r = client.plan(req.text, speaker=SPEAKER, timeout=60)
                    reply = PlanResult(success=r.success, plan=conv.plan_from_msg(r.plan) if r.success else None,
                                       error=r.error)
                out.append((req, reply, classify(reply, req.check(reply))))
            return out
        finally:
            client.close()
            proc.stop()


def reply_text(reply: Answer | PlanResult) -> str:
    if isinstance(reply, Answer):
        return f"{reply.answer} ids={reply.answer_ids}"
    if reply.success and reply.plan:
        return "; ".join(f"{s.skill}({', '.join(s.args)})" for s in reply.plan.steps)
    return f"FAILED: {reply.error}"


def main(argv: list[str] | None = None) -> int:
    from memory_node.planning.skills import SkillLibrary

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--split", choices=("dev", "aside", "all"), default="dev")
    p.add_argument("--family", choices=FAMILIES, default=None)
    p.add_argument("--per-scene", type=int, default=3)
    p.add_argument("--show", choices=("wrong", "all"), default=None, help="print requests (dev episodes only)")
    p.add_argument("--robot", default="vega")
    p.add_argument("--ros", action="store_true",
                   help="each episode through a fresh node process over DDS (slow: use with --limit)")
    p.add_argument("--limit", type=int, default=0, help="at most this many episodes per family (0: all)")
    args = p.parse_args(argv)
    lib = SkillLibrary.for_robot(args.robot)
    eps = [e for e in build_episodes(args.per_scene)
           if (args.split == "all" or e.split == args.split) and (args.family in (None, e.family))]
    if args.limit:
        eps = [e for fam in FAMILIES for e in [x for x in eps if x.family == fam][:args.limit]]
    ok: dict[str, list[bool]] = defaultdict(list)
    cls: dict[str, Counter] = defaultdict(Counter)
    workdir = None
    if args.ros:
        import tempfile

        import rclpy

        rclpy.init()
        workdir = Path(tempfile.mkdtemp(prefix="episodes_ros_"))
    for ep in eps:
        res = run_episode_ros(ep, args.robot, workdir) if args.ros else run_episode(ep, lib)
        ok[ep.family].append(all(c == "right" for _, _, c in res))
        for req, reply, c in res:
            cls[req.service][c] += 1
            if args.show and ep.split == "dev" and (args.show == "all" or c != "right"):
                print(f"[{c}] {ep.id} {req.service}: {req.text!r} -> {reply_text(reply)[:300]}  (want {req.what})")
    if args.ros:
        import rclpy

        rclpy.shutdown()
    print(f"episodes ({args.split}{', over ROS' if args.ros else ''}): {len(eps)}")
    total = [x for v in ok.values() for x in v]
    for fam in FAMILIES:
        if ok.get(fam):
            v = ok[fam]
            print(f"  {fam:<14} {sum(v):3d}/{len(v):3d}  {sum(v) / len(v):6.1%}")
    if total:
        print(f"  {'all':<14} {sum(total):3d}/{len(total):3d}  {sum(total) / len(total):6.1%}")
    for svc, c in sorted(cls.items()):
        n = sum(c.values())
        print(f"  {svc:<5} requests {n:4d}: " + ", ".join(f"{k} {c[k] / n:.1%}" for k in CLASSES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
