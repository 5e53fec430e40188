"""How much of a benchmark's object vocabulary the category map holds word for word.

The category map (``config/categories/household.yaml``) must come from general knowledge of household things,
not from a benchmark's object names: a map that lists the benchmark's own names measures lookup, not
generalisation. This counts the TidyBot object names (seen and unseen objects of all scenarios) that are a
map word or category name verbatim, in the form the map matches them (``categories.key``: lower case, no
spaces/hyphens/apostrophes, last word singular), and lists them by category.

    python -m memory_node.bench.category_overlap [--categories PATH] [--quiet]

Generic nouns ("fork", "apple", "shirt") are expected in both; what should not be there are names only a
benchmark would list (brands, oddly specific compounds). ``--categories`` measures another map file, e.g.
``memory_node/bench/data/household_with_tidybot_names.yaml`` (the map before issue 9).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import yaml

from memory_node.bench import shared_data
from memory_node.core.categories import CategoryMap, default_map_path, key, words

TIDYBOT = shared_data("tidybot", "benchmark", "scenarios.yml")


def tidybot_names(scenarios: list[dict]) -> tuple[dict[str, str], set[str]]:
    """Every object name (key -> first spelling seen) and the keys of the unseen (placed) objects."""
    names: dict[str, str] = {}
    unseen: set[str] = set()
    for sc in scenarios:
        for o in sc["seen_objects"] + sc["unseen_objects"]:
            names.setdefault(key(o), o)
        unseen.update(key(o) for o in sc["unseen_objects"])
    return names, unseen


def map_words(data: dict) -> dict[str, tuple[str, str]]:
    """Map word keys (both forms the map matches: as written and last word singular) -> (word, category)."""
    out: dict[str, tuple[str, str]] = {}
    for cat, spec in (data.get("categories") or {}).items():
        for w in [cat, *[str(x) for x in spec.get("words") or []]]:
            for k in ("".join(words(w)), key(w)):
                out.setdefault(k, (w, cat))
    return out


def overlap(data: dict, names: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """Category -> [(map word, TidyBot name)] for every TidyBot name that is a map word verbatim."""
    mw = map_words(data)
    by_cat: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for k, name in sorted(names.items()):
        hit = mw.get(k) or mw.get("".join(words(name)))
        if hit:
            by_cat[hit[1]].append((hit[0], name))
    return by_cat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--categories", type=Path, default=None, help="category map file (default: the shipped one)")
    parser.add_argument("--quiet", action="store_true", help="counts only, no word lists")
    args = parser.parse_args(argv)
    path = args.categories or default_map_path()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    scenarios = yaml.safe_load(TIDYBOT.read_text(encoding="utf-8"))
    names, unseen = tidybot_names(scenarios)
    by_cat = overlap(data, names)
    hits = [(w, name) for pairs in by_cat.values() for w, name in pairs]
    mw = map_words(data)
    spellings = {o for sc in scenarios for o in sc["seen_objects"] + sc["unseen_objects"]}
    n_spelled = sum(1 for o in spellings if key(o) in mw or "".join(words(o)) in mw)
    n_words = len(mw)
    multi = [h for h in hits if len(words(h[1])) > 1]
    cmap = CategoryMap.from_dict(data)
    categorised = sum(1 for k, name in names.items() if any(c in cmap.parent for c in cmap.chain(name)))
    print(f"category map {path}")
    print(f"  {n_spelled} of TidyBot's {len(spellings)} object names are map words verbatim; as distinct keys "
          f"{len(hits)} of {len(names)} ({len(hits) - len(multi)} one-word, {len(multi)} multi-word), "
          f"{sum(1 for _, n in hits if key(n) in unseen)} of its {len(unseen)} unseen-object names")
    print(f"  {len(data.get('categories') or {})} categories, {n_words} word keys; "
          f"{categorised} of the {len(names)} TidyBot names get a category (by their ending, verbatim or not)")
    if not args.quiet:
        for cat, pairs in sorted(by_cat.items()):
            print(f"  {cat} ({len(pairs)}): " + ", ".join(sorted(w for w, _ in pairs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
