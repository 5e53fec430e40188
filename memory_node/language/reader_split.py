"""Writers' labelled utterances: copied into the package and split before anyone reads them.

Each writer's file (``writer_*.jsonl``; the schema the writers were given is copied to ``corpus/SCHEMA.md``) is split line by line on a seeded hash
of its text: 75 % for training, 25 % held aside. The split depends on nothing but the text, so a file that
grows later keeps every earlier line on the side it was on, and re-running gives the same halves. The held
aside part is never trained on; the first time it is seen, the rule parser reads it once and its intent
reading of each of its lines is written to ``corpus/first_run.json`` (run against the parser as it was before
the learned reader existed; lines a growing file adds later get their first reading when first seen).

    python -m memory_node.language.reader_split /work/wt/corpus   # copy, split, first-run the new ones
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

SEED = "reader-split-2026"
HELD_FRACTION = 0.25
CORPUS = Path(__file__).with_name("corpus")


def held_aside(text: str, seed: str = SEED) -> bool:
    """True for the quarter of texts that are only ever measured on."""
    h = hashlib.sha256(f"{seed}\x00{text.strip()}".encode()).digest()
    return int.from_bytes(h[:8], "big") / 2 ** 64 < HELD_FRACTION


def load_lines(path: Path) -> tuple[list[dict], int]:
    """The well-formed records of a writer's file and how many lines were rejected (bad JSON, no text or
    intent, a slot value that is not a substring of the text is dropped from its record, not fatal)."""
    recs, bad = [], 0
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            bad += 1
            continue
        if not isinstance(r, dict) or not isinstance(r.get("text"), str) or not isinstance(r.get("intent"), str) \
                or not r["text"].strip():
            bad += 1
            continue
        slots = r.get("slots") if isinstance(r.get("slots"), dict) else {}
        r["slots"] = {k: v for k, v in slots.items() if isinstance(v, str) and v and v in r["text"]}
        recs.append(r)
    return recs, bad


def split_file(src: Path, out: Path = CORPUS) -> dict:
    """Copy one writer's file into ``out/writers`` (train) and ``out/heldaside`` (measure)."""
    name = src.stem
    recs, bad = load_lines(src)
    train = [r for r in recs if not held_aside(r["text"])]
    held = [r for r in recs if held_aside(r["text"])]
    for sub, part in (("writers", train), ("heldaside", held)):
        (out / sub).mkdir(parents=True, exist_ok=True)
        with open(out / sub / f"{name}.jsonl", "w", encoding="utf-8") as f:
            for r in part:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return {"writer": name, "lines": len(recs), "rejected": bad, "train": len(train), "held": len(held)}


def rules_readings(recs: list[dict]) -> dict[str, str]:
    """The rule parser's intent for each text (``parse`` with the learned reader switched off)."""
    import os

    os.environ["MEMORY_NODE_READER"] = "off"
    from memory_node.language import parse

    return {r["text"]: parse(r["text"]).intent.value for r in recs}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", type=Path, help="folder with writer_*.jsonl")
    ap.add_argument("--out", type=Path, default=CORPUS)
    ap.add_argument("--no-first-run", action="store_true", help="only copy and split")
    a = ap.parse_args(argv)
    first_path = a.out / "first_run.json"
    first = json.loads(first_path.read_text()) if first_path.is_file() else {}
    if (a.src / "SCHEMA.md").is_file():
        (a.out / "SCHEMA.md").write_text((a.src / "SCHEMA.md").read_text(encoding="utf-8"), encoding="utf-8")
    for src in sorted(a.src.glob("writer_*.jsonl")):
        info = split_file(src, a.out)
        print(json.dumps(info))
        if a.no_first_run:
            continue
        held, _ = load_lines(a.out / "heldaside" / f"{info['writer']}.jsonl")
        seen = first.setdefault(info["writer"], {"items": {}})
        new = [r for r in held if r["text"] not in seen["items"]]
        if new:  # lines a growing file added since the last run get their first reading now
            seen["items"].update(rules_readings(new))
            seen["last_added"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        gold = {r["text"]: r["intent"] for r in held}
        ok = sum(seen["items"].get(t) == g for t, g in gold.items())
        seen["n"], seen["correct"], seen["accuracy"] = len(gold), ok, round(ok / max(1, len(gold)), 4)
        print(f"  first run (rules) on held-aside: {ok}/{len(gold)}", file=sys.stderr)
    first_path.write_text(json.dumps(first, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
