"""The learned reader against the rules, on wording nobody trained on.

    python -m memory_node.bench.reader_eval [--alfred-limit N] [--json out.json]

Requests are read as the node would read them on the service they were meant for (``prefer``: ~/ask or ~/plan;
the first-run figures were recorded without it).

- each writer's held-aside quarter (``language/corpus/heldaside``, split before anyone read it): intent accuracy
  of the rules at their first run (``corpus/first_run.json``), of the rules now (``MEMORY_NODE_READER=off``),
  of the model alone, and of the combined reading (``parse``, through ``reading_policy``); and for the combined
  reading how often it would act right / ask back (confidence below ``ASK_BACK_BELOW``) / refuse (unknown) /
  act wrong (a wrong intent read with confidence at or above the threshold);
- ALFRED ``valid_seen`` (``corpus/alfred_valid_seen.jsonl``): intent accuracy and the labelled thing's head
  word (object, and destination for put / go) for rules, model and combined;
- reliability: accuracy per confidence band of the model alone and of the combined reading (held-aside sets).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from memory_node.language import Kind, parse
from memory_node.language.normalise import normalise
from memory_node.language.parser import read
from memory_node.language.reader import default_reader
from memory_node.language.reading_policy import ASK_BACK_BELOW, family
from memory_node.language.train_reader import reliability

CORPUS = Path(__file__).parents[1] / "language" / "corpus"


def _prefer(rec: dict) -> Kind | None:
    """What the node's service would pass: a question on ~/ask, a command on ~/plan (ALFRED: ~/plan)."""
    if rec.get("source", "").startswith("alfred"):
        return Kind.command
    return {"ask": Kind.question, "plan": Kind.command}.get(rec.get("service", ""))


def _rules(text: str, prefer: Kind | None = None):
    os.environ["MEMORY_NODE_READER"] = "off"
    try:
        return parse(text, prefer=prefer)
    finally:
        os.environ["MEMORY_NODE_READER"] = "on"


def _load(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _head(s: str) -> str:
    w = re.findall(r"[a-z]+", s.lower())
    if not w:
        return ""
    h = w[-1]
    return h[:-1] if len(h) > 3 and h.endswith("s") and not h.endswith("ss") else h


def _req_things(req) -> dict[str, str]:
    out = {}
    if req.objects:
        out["object"] = _head(req.objects[0].noun())
    if req.destination is not None:
        out["destination"] = _head(req.destination.ref.noun())
    elif req.recipient and req.recipient != "speaker":
        out["destination"] = _head(req.recipient)
    return out


def _model_things(reading) -> dict[str, str]:
    out = {}
    for slot in ("object", "destination"):
        sp = reading.slot(slot)
        if sp:
            out[slot] = _head(sp[0].text)
    return out


def _readings(reader, r: dict):
    """One record read three ways: the rules alone, the model alone, and the policy (as the node reads it)."""
    return (_rules(r["text"], _prefer(r)), reader.read(read(normalise(r["text"]) or r["text"])),
            parse(r["text"], prefer=_prefer(r)))


def writers(reader, first: dict) -> dict:
    res: dict = {}
    model_conf, model_ok, pol_conf, pol_ok = [], [], [], []
    for f in sorted((CORPUS / "heldaside").glob("*.jsonl")):
        recs = _load(f)
        c = defaultdict(int)
        for r in recs:
            gold = r["intent"]
            rules, reading, pol = _readings(reader, r)
            c["n"] += 1
            c["rules"] += rules.intent.value == gold
            c["model"] += reading.intent == gold
            ok = pol.intent.value == gold
            c["policy"] += ok
            if pol.confidence < ASK_BACK_BELOW:
                c["asked"] += 1
                # would the question back offer the right reading first (the reading itself, else the best
                # alternative)?
                c["asked_first_right"] += ok or bool(pol.alternatives) and pol.alternatives[0].intent.value == gold
            elif ok:
                c["right"] += 1
            elif pol.intent.value == "unknown":
                c["refused"] += 1
            else:
                c["wrong"] += 1
                c["wrong_family"] += family(pol.intent.value) != family(gold)
            c["rules_wrong"] += rules.intent.value not in (gold, "unknown")
            model_conf.append(reading.confidence)
            model_ok.append(reading.intent == gold)
            pol_conf.append(pol.confidence)
            pol_ok.append(family(pol.intent.value) == family(gold))  # what the confidence stands for
            c["policy_family"] += family(pol.intent.value) == family(gold)
        fr = first.get(f.stem, {})
        n = max(1, c["n"])
        res[f.stem] = {"n": c["n"], "first_run": fr.get("accuracy"), "rules_now": round(c["rules"] / n, 3),
                       "model": round(c["model"] / n, 3), "policy": round(c["policy"] / n, 3),
                       "policy_family": round(c["policy_family"] / n, 3),
                       "right": round(c["right"] / n, 3), "asked": round(c["asked"] / n, 3),
                       "refused": round(c["refused"] / n, 3), "wrong": round(c["wrong"] / n, 3),
                       "wrong_family": round(c["wrong_family"] / n, 3),
                       "rules_wrong": round(c["rules_wrong"] / n, 3),
                       "asked_offer_right": round(c["asked_first_right"] / max(1, c["asked"]), 3)}
    mc, mo, pc, po = map(np.array, (model_conf, model_ok, pol_conf, pol_ok))
    return {"writers": res, "reliability_model": reliability(mc, mo), "reliability_policy": reliability(pc, po)}


def alfred(reader, limit: int | None) -> dict:
    recs = _load(CORPUS / "alfred_valid_seen.jsonl")
    if limit:
        recs = recs[::max(1, len(recs) // limit)][:limit]
    c = defaultdict(int)
    for r in recs:
        gold = r["intent"]
        rules, reading, pol = _readings(reader, r)
        c["n"] += 1
        for name, intent, things in (("rules", rules.intent.value, _req_things(rules)),
                                     ("model", reading.intent, _model_things(reading)),
                                     ("policy", pol.intent.value, _req_things(pol))):
            c[f"{name}_intent"] += intent == gold
            for slot in ("object", "destination"):
                if slot in r["slots"]:
                    c[f"n_{slot}"] += name == "rules"
                    c[f"{name}_{slot}"] += things.get(slot) == _head(r["slots"][slot])
    n = max(1, c["n"])
    out = {"n": c["n"]}
    for name in ("rules", "model", "policy"):
        out[name] = {"intent": round(c[f"{name}_intent"] / n, 3),
                     **{slot: round(c[f"{name}_{slot}"] / max(1, c[f"n_{slot}"]), 3) for slot in ("object", "destination")}}
    out["n_object"], out["n_destination"] = c["n_object"], c["n_destination"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--alfred-limit", type=int, default=None, help="measure on an even sample of valid_seen")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args(argv)
    reader = default_reader()
    if reader is None:
        print("no learned reader model; run python -m memory_node.language.train_reader", file=sys.stderr)
        return 1
    first_path = CORPUS / "first_run.json"
    first = json.loads(first_path.read_text()) if first_path.is_file() else {}
    w = writers(reader, first)
    print(f"writers' held-aside quarters (intent accuracy; the combined reading's right / asked / refused / wrong at "
          f"ASK_BACK_BELOW={ASK_BACK_BELOW}):")
    cols = ("n", "first_run", "rules_now", "model", "policy", "policy_family", "right", "asked", "refused", "wrong", "wrong_family", "rules_wrong",
            "asked_offer_right")
    print("  " + "writer".ljust(24) + "".join(c[:10].rjust(11) for c in cols))
    tot = defaultdict(float)
    for name, row in w["writers"].items():
        print("  " + name.ljust(24) + "".join(str(row[c]).rjust(11) for c in cols))
        for c in cols:
            if row.get(c) is not None:
                tot[c] += row[c] * (1 if c == "n" else row["n"] * row["asked"] if c == "asked_offer_right" else row["n"])
    def total(c: str) -> str:
        if c == "n":
            return str(int(tot[c]))
        return f"{tot[c] / max(1e-9, tot['asked'] if c == 'asked_offer_right' else tot['n']):.3f}"

    print("  " + "all".ljust(24) + "".join(total(c).rjust(11) for c in cols))
    print("  (policy_family: the intent's family right; wrong: a wrong intent read with confidence >= the threshold, "
          "wrong_family: of those, a wrong family (fetch for put, a question for a command); rules_wrong: the rules alone read a wrong intent other than unknown; asked_offer_right: of those asked back, "
          "the share whose reading or first alternative is the intent meant)")
    print("reliability, model alone:", json.dumps(w["reliability_model"]))
    print("reliability, combined reading (its confidence is P(intent family right)):",
          json.dumps(w["reliability_policy"]))
    al = alfred(reader, a.alfred_limit)
    print(f"ALFRED valid_seen, {al['n']} sentences ({al['n_object']} with an object, {al['n_destination']} with a "
          f"destination): intent / object head / destination head")
    for name in ("rules", "model", "policy"):
        print(f"  {name:7s} {al[name]['intent']:.3f}  {al[name]['object']:.3f}  {al[name]['destination']:.3f}")
    if a.json:
        a.json.write_text(json.dumps({"writers": w, "alfred": al}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
