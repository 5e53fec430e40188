"""Real people's wording: request templates from OpenEQA, SayCan and HuRIC, graded right / asked / refused / wrong.

    python -m memory_node.bench.real_wording_eval [--split dev|aside|all] [--robot vega] [--seed 0]
                                                  [--failures 5] [--data DIR]

The templates are read at run time from ``../shared/data/real_wording/templates.json`` (their README says
why they must not be copied into the project). Each template's ``{slot}`` is filled with one thing of a
shipped VirtualHome apartment under an everyday name, in the scripted apartments of the paraphrase
benchmark (``paraphrase_eval.build_world``: a tour, things moved while the robot was away, the fridge seen
open, a cabinet found locked, what people said and did), and graded on ids, not on wording
(``paraphrase_eval.grade``).

Every reply falls in one of four classes, reported per service:

- **right**: the grader accepts it;
- **asked**: it asks back (a question in the reply: "which mug do you mean?") instead of acting;
- **refused**: it declined without asking: ``success`` false, or an answer with confidence 0 (memory has no
  record, "I do not know what 'it' refers to"), which claims nothing;
- **wrong**: it answered or planned, and the answer or plan is wrong. A wrong plan is the dangerous one: a
  robot that fetches the wrong thing; its share of plan requests is the figure to keep near zero.

The set was split by template id (a hash, ``SPLIT_SALT``) *before* anyone here read its sentences: ``dev``
(two thirds) may be read to find classes of failure; ``aside`` (one third) is run, not read, and its figure
is the estimate for wording nobody here has seen.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_node.bench import paraphrase_eval as pe

DATA = pe.DATA / "real_wording"
SPLIT_SALT = "memory_node-real-wording-2026-12"
SERVICE = {"loc": "ask", "loc_was": "ask", "room": "ask", "room_has": "ask", "which_surf": "ask", "under": "ask",
           "state_yn": "ask", "state_word": "ask", "exists_yn": "ask", "empty_yn": "ask", "fullness": "ask",
           "clean_full": "ask", "obj_on_yn": "ask", "there_yn": "ask", "colour": "ask", "colour_obj": "ask",
           "contents": "ask", "functional": "ask",
           "fetch": "plan", "pick": "plan", "fetch_class": "plan", "put": "plan", "deliver_room": "plan",
           "open": "plan", "find": "plan", "navigate": "plan"}
# what a contents question's ``filter`` keeps (the apartment's own category attribute)
FILTER_CATEGORIES = {"device": {"electronics", "appliances"}, "food": {"food"}, "fruit": {"food"},
                     "decor": {"decor", "decoration"}}
CLASSES = pe.CLASSES
classify = pe.classify


def split_of(template_id: str) -> str:
    """``aside`` for one template in three, by a salted hash of its id (stable, independent of the text)."""
    h = int(hashlib.sha1(f"{SPLIT_SALT}:{template_id}".encode()).hexdigest(), 16)
    return "aside" if h % 3 == 0 else "dev"


def load_templates(data: Path = DATA, split: str = "all") -> list[dict]:
    raw = json.loads((data / "templates.json").read_text())
    out = []
    for part in ("openeqa", "actions"):
        for t in raw.get(part, []):
            t = dict(t, part=part, split=split_of(t["id"]))
            if split in ("all", t["split"]):
                out.append(t)
    return out


# ---- what memory holds, in the roles a slot can take -----------------------------------------------


class Roles:
    """Entities of one scripted apartment that a slot type may name, each with one everyday name there."""

    def __init__(self, w: pe.World) -> None:
        self.w = w
        named = [e for e in w.ents.values() if e.label in pe.NAMES and e.label != "person"]
        unique = [e for e in named if w.count(e.label) == 1]
        a = lambda e, k: e.attributes.get(k) == "true"  # noqa: E731
        self.obj = sorted(e.id for e in unique if a(e, "grabbable") and e.id in w.loc and not pe._plural_only(e.label)
                          and pe._holder_ok(w, e.id))
        self.furn = sorted(e.id for e in unique if w.furniture(e.id) and e.label != "drawer")
        self.dev = sorted(e.id for e in unique if a(e, "switchable") and w.furniture(e.id))
        self.cont = sorted(e.id for e in unique if a(e, "openable") and a(e, "container") and e.label != "drawer")
        self.surf = [s for s in w.cast["surfaces"] if w.ents[s].label in pe.NAMES]
        self.rooms = w.unique_rooms()
        self.moved = [m for m in w.cast["moved"] if m in self.obj]

    def holder(self, obj: str) -> str:
        return self.w.loc[obj][1]


@dataclass
class Filled:
    text: str
    expect: pe.Expect


def _say(w: pe.World, ent: str, plural: bool = False) -> str:
    return w.say(ent, plural)


def _surface_word(w: pe.World, ent: str) -> str:
    """The class word of a piece of furniture ("table" for a kitchen table)."""
    return _say(w, ent).split()[-1]


def _pick(seq: list[str], v: int) -> str | None:
    return seq[v % len(seq)] if seq else None


def fill(t: dict, r: Roles, v: int) -> Filled | None:
    """The template with its slots filled for variant ``v`` and what a right reply contains; None where the
    apartment has nothing that fits."""
    w, kind, slots, params = r.w, t["kind"], set(t["slots"]) - {"none"}, t["params"]
    plural = bool(params.get("plural"))
    vals: dict[str, str] = {}
    rng = random.Random(f"{t['id']}:{v}:{w.name}")

    def name_obj(obj: str) -> None:
        vals["obj"] = _say(w, obj, plural)

    def ids_of(classes: Any) -> set[str]:
        if isinstance(classes, str) and classes.startswith("@"):
            cat = classes[1:]
            return {e.id for e in w.ents.values() if e.attributes.get("category") == cat or
                    (cat == "fruit" and e.label in pe.NEEDS["eat"] and e.attributes.get("category") == "food")}
        return {e.id for e in w.ents.values() if e.label in set(classes or ())}

    if kind in ("loc", "which_surf", "loc_was", "colour", "room", "find", "fetch", "pick"):
        pool = r.moved if kind == "loc_was" and r.moved else r.obj
        obj = _pick(pool, v)
        if obj is None or "obj" not in slots:
            return None
        name_obj(obj)
        holder = r.holder(obj)
        if "room" in slots:
            vals["room"] = w.room_say(w.room[obj])
        for s in ("surf", "cont"):
            if s in slots:
                vals[s] = _say(w, holder)
        if "surfcls" in slots:
            vals["surfcls"] = _surface_word(w, holder)
        if kind in ("loc", "which_surf"):
            exp = pe._where(w, obj)
        elif kind == "loc_was":
            exp = pe.Expect("ids_any", ids=(obj,), accept=frozenset({holder, w.origin.get(obj, holder)}))
        elif kind == "colour":
            exp = pe.Expect("colour", ids=(obj,), words=(w.colour[obj],))
        elif kind == "room":
            exp = pe.Expect("ids_any", ids=(obj,), accept=frozenset({w.room[obj]}))
        elif kind == "find":
            exp = pe.Expect("navigate", ids=(obj,), accept=frozenset({holder, obj, *w.chain(obj)}))
        else:
            exp = pe.Expect("fetch", ids=(obj,), me=f"person_{pe.SPEAKER}")
    elif kind in ("room_has",):
        obj = _pick(r.obj, v)
        if obj is None or not r.rooms:
            return None
        truth = v % 2 == 0 or len(r.rooms) == 1
        room = w.room[obj] if truth else rng.choice([x for x in r.rooms if x != w.room[obj]] or r.rooms)
        truth = room == w.room[obj] or any(e != obj and w.ents[e].label == w.label(obj) and w.room[e] == room
                                           for e in w.ents)
        name_obj(obj)
        vals["room"] = w.room_say(room)
        exp = pe.Expect("yesno", ids=(obj,), truth=truth)
    elif kind in ("obj_on_yn", "there_yn"):
        obj = _pick(r.obj, v)
        if obj is None:
            return None
        holder = r.holder(obj)
        truth = v % 2 == 0
        place = holder if truth else rng.choice([s for s in r.surf if s != holder] or [holder])
        truth = place == holder
        name_obj(obj)
        for s in ("surf", "cont", "furn"):
            if s in slots:
                vals[s] = _say(w, place)
        if "room" in slots:
            vals["room"] = w.room_say(w.room[place])
        exp = pe.Expect("yesno", ids=(obj,), truth=truth)
    elif kind in ("state_yn", "state_word"):
        pool = r.dev if "dev" in slots else r.cont if "cont" in slots else r.furn
        fam = params.get("family") or {"on": "on", "off": "on"}.get(params.get("ask", ""), "open")
        pool = [p for p in pool if w.states.get(p, set()) & ({"open", "closed"} if fam == "open" else {"on", "off"})]
        ent = _pick(pool, v)
        if ent is None:
            return None
        for s in ("dev", "cont", "furn", "obj"):
            if s in slots:
                vals[s] = _say(w, ent, plural)
        if "room" in slots:
            vals["room"] = w.room_say(w.room[ent])
        st = w.states[ent]
        if kind == "state_word":
            word = next(x for x in (("open", "closed") if fam == "open" else ("on", "off")) if x in st)
            exp = pe.Expect("words", ids=(ent,), words=(word,))
        else:
            exp = pe.Expect("yesno", ids=(ent,), truth=params.get("ask", "open") in st)
    elif kind == "exists_yn":
        truth = v % 2 == 0
        if "cls" in slots or "obj" in slots:
            key = "cls" if "cls" in slots else "obj"
            if truth:
                obj = _pick(r.obj, v)
                if obj is None:
                    return None
                vals[key] = _say(w, obj, plural)
                place = r.holder(obj)
            else:
                absent = w.cast["absent"]
                if not absent:
                    return None
                sing, plur = absent[v % len(absent)]
                vals[key] = plur if plural else sing
                place = _pick(r.surf, v)
            if "surf" in slots:
                vals["surf"] = _say(w, place)
            if "room" in slots:
                vals["room"] = w.room_say(w.room[place])
            exp = pe.Expect("yesno" if truth else "not_known_or_no", truth=truth)
        else:
            return None
    elif kind in ("empty_yn", "contents", "fullness", "clean_full", "under", "colour_obj"):
        pool = r.cont if "cont" in slots else r.surf if "surf" in slots else r.furn
        filt = FILTER_CATEGORIES.get(params.get("filter", ""), set())

        def inside(h: str) -> set[str]:
            got = w.contents(h)
            return {c for c in got if w.ents[c].attributes.get("category") in filt} if filt else got
        if kind == "colour_obj":
            pool = [h for h in pool if any(list(w.colour.get(c) for c in inside(h)).count(w.colour.get(o)) == 1
                                           for o in inside(h) if o in w.colour)]
        elif kind in ("contents", "fullness", "clean_full", "under") or v % 2 == 0:
            pool = [h for h in pool if inside(h)]
        else:
            pool = [h for h in pool if not w.contents(h)] or pool
        h = _pick(pool, v)
        if h is None:
            return None
        for s in ("surf", "cont", "furn"):
            if s in slots:
                vals[s] = _say(w, h)
        if "room" in slots:
            vals["room"] = w.room_say(w.room[h])
        if "cls" in slots:
            vals["cls"] = "things"
        got = inside(h)
        if kind == "empty_yn":
            exp = pe.Expect("yesno", ids=(h,), truth=not got)
        elif kind == "colour_obj":
            obj = next(o for o in sorted(got) if o in w.colour and
                       [w.colour.get(c) for c in got].count(w.colour[o]) == 1)
            vals["colour"] = w.colour[obj]
            exp = pe.Expect("which", ids=(obj,), accept=frozenset({obj}))
        else:
            exp = pe.Expect("contents", ids=(h,), accept=frozenset(got))
    elif kind in ("functional", "fetch_class"):
        ids = ids_of(params.get("classes"))
        if "cls" in slots:
            obj = _pick([o for o in r.obj], v)
            if obj is None:
                return None
            vals["cls"] = _say(w, obj, plural)
            ids = {e.id for e in w.ents.values() if e.label == w.label(obj)}
        if not ids:
            return None
        if "room" in slots:
            room = w.room[sorted(ids)[v % len(ids)]]
            vals["room"] = w.room_say(room)
            ids = {i for i in ids if w.room.get(i) == room} or ids
        if kind == "functional":
            exp = pe.Expect("ids_any", accept=frozenset(ids) | frozenset(
                h for i in ids if i in w.loc for h in [w.loc[i][1]]))
        else:
            exp = pe.Expect("pick_any", accept=frozenset(ids), me=f"person_{pe.SPEAKER}")
    elif kind in ("put", "deliver_room"):
        obj = _pick(r.obj, v)
        if obj is None:
            return None
        name_obj(obj)
        src = params.get("from", "")
        holder = r.holder(obj)
        if kind == "deliver_room":
            rooms = [x for x in r.rooms if x != w.room[obj]]
            if not rooms:
                return None
            room = rooms[v % len(rooms)]
            vals["room"] = w.room_say(room)
            for s in ("surf", "cont"):
                if s in slots:
                    vals[s] = _say(w, holder)
            exp = pe.Expect("bring_room", ids=(obj,), room=room)
        else:
            dest_slot = next((s for s in ("surf", "cont", "furn") if s in slots and s != src), "")
            if not dest_slot:
                return None
            pool = r.cont if dest_slot == "cont" else r.surf
            pool = [p for p in pool if p != holder and not ({"locked"} & w.states.get(p, set()))]
            dest = _pick(pool, v)
            if dest is None:
                return None
            vals[dest_slot] = _say(w, dest)
            if src in ("surf", "cont"):
                vals[src] = _say(w, holder)
            if "room" in slots:
                vals["room"] = w.room_say(w.room[holder] if src == "room" else w.room[dest])
            exp = pe.Expect("place", ids=(obj,), accept=frozenset({dest}))
    elif kind == "open":
        pool = [c for c in (r.cont if "cont" in slots else r.furn) if "closed" in w.states.get(c, set())
                and "locked" not in w.states.get(c, set()) and w.ents[c].attributes.get("openable") == "true"]
        ent = _pick(pool, v)
        if ent is None:
            return None
        for s in ("cont", "furn"):
            if s in slots:
                vals[s] = _say(w, ent)
        if "room" in slots:
            vals["room"] = w.room_say(w.room[ent])
        exp = pe.Expect("open", ids=(ent,))
    elif kind == "navigate":
        if "room" in slots and not ({"furn", "surf"} & slots):
            room = _pick(r.rooms, v)
            if room is None:
                return None
            vals["room"] = w.room_say(room)
            exp = pe.Expect("navigate", accept=frozenset({room}))
        else:
            s = "furn" if "furn" in slots else "surf"
            ent = _pick(r.furn if s == "furn" else r.surf, v)
            if ent is None:
                return None
            vals[s] = _say(w, ent)
            if "room" in slots:
                vals["room"] = w.room_say(w.room[ent])
            exp = pe.Expect("navigate", accept=frozenset({ent}))
    else:
        return None
    missing = slots - set(vals)
    if missing:
        return None
    try:
        text = t["text"].format(**vals)
    except (KeyError, IndexError):
        return None
    return Filled(text, exp)


# ---- the four classes ----------------------------------------------------------------------------------

@dataclass
class Outcome:
    world: str
    template: str
    kind: str
    part: str
    split: str
    service: str
    text: str
    cls: str
    why: str
    reply: str


def evaluate(templates: list[dict], robot: str = "vega", seed: int = 0, variants: int = 2,
             services: pe.Services | None = None) -> list[Outcome]:
    from memory_node.planning.skills import SkillLibrary, default_library_path

    svc = services or pe.Services(SkillLibrary.load(default_library_path(robot)))
    graphs = sorted((pe.DATA / "virtualhome_graphs" / "example_graphs").glob("TestScene*_graph.json"))
    out: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="real_wording_eval_") as d:
        for gi, path in enumerate(graphs):
            w = pe.build_world(path, seed, Path(d))
            if w is None:
                continue
            roles = Roles(w)
            for ti, t in enumerate(templates):
                for k in range(variants):
                    try:
                        f = fill(t, roles, ti + gi + 7 * k)
                    except KeyError:  # a place the filling would name has no everyday name in pe.NAMES
                        f = None
                    if f is None:
                        continue
                    service = SERVICE[t["kind"]]
                    reply, why = None, ""
                    try:
                        reply = svc.call(w.store, service, f.text, pe.SPEAKER, svc.episode(pe.SPEAKER))
                        ok, why = pe.grade(w, svc.lib, f.expect, service, reply)
                    except Exception as exc:  # noqa: BLE001 - a crash is a failed request, reported as such
                        ok, why = False, f"exception {type(exc).__name__}: {exc}"
                    out.append(Outcome(w.name, t["id"], t["kind"], t["part"], t["split"], service, f.text,
                                       classify(service, reply, ok), why, pe._short_reply(service, reply)))
            w.store.close()
    return out


def table(outcomes: list[Outcome], key, out=sys.stdout) -> None:
    pe.class_table(outcomes, key, 28, out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=("dev", "aside", "all"))
    ap.add_argument("--robot", default="vega")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variants", type=int, default=2, help="fillings per template and apartment")
    ap.add_argument("--failures", type=int, default=0, help="print this many failures per class (dev split only)")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--json", default="", help="write every outcome to this file (dev split only)")
    args = ap.parse_args(argv)
    templates = load_templates(Path(args.data), args.split)
    outcomes = evaluate(templates, robot=args.robot, seed=args.seed, variants=args.variants)
    print(f"real wording ({args.split}): {len(templates)} templates, {len(outcomes)} requests, robot {args.robot}")
    print("by service:")
    table(outcomes, lambda o: o.service)
    print("by source:")
    table(outcomes, lambda o: f"{o.part}/{o.service}")
    print("by kind:")
    table(outcomes, lambda o: o.kind)
    plans = [o for o in outcomes if o.service == "plan"]
    asks = [o for o in outcomes if o.service == "ask"]
    right = sum(o.cls == "right" for o in outcomes)
    print(f"right {100.0 * right / max(1, len(outcomes)):.1f} % of all; wrong plans "
          f"{100.0 * sum(o.cls == 'wrong' for o in plans) / max(1, len(plans)):.1f} % of plan requests; wrong answers "
          f"{100.0 * sum(o.cls == 'wrong' for o in asks) / max(1, len(asks)):.1f} % of questions")
    if args.json and args.split != "aside":
        Path(args.json).write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    if args.failures and args.split != "aside":
        for cls in ("wrong", "refused", "asked"):
            bad = [o for o in outcomes if o.cls == cls]
            print(f"\n{cls} ({len(bad)}):")
            for o in bad[: args.failures]:
                print(f"  [{o.kind}] {o.text!r}\n      {o.why} | {o.reply[:220]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
