"""The shipped category map stays a general household taxonomy, not a copy of a benchmark's vocabulary
(config/categories/README.md): how many TidyBot object names it holds word for word, and no compound that
its own last word already places. The map before issue 9 is kept only for comparison (bench/data)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from memory_node.bench import category_overlap as co
from memory_node.core.categories import CategoryMap, default_map, default_map_path, key, using_map, words

OLD_MAP = Path(co.__file__).resolve().parent / "data" / "household_with_tidybot_names.yaml"


def _first_category(cmap: CategoryMap, label: str) -> str:
    return next((c for c in cmap.chain(label) if c in cmap.parent), "")


@pytest.mark.skipif(not co.TIDYBOT.is_file(), reason=f"shared data not found at {co.TIDYBOT}")
def test_tidybot_names_held_word_for_word(capsys: pytest.CaptureFixture[str]) -> None:
    scenarios = yaml.safe_load(co.TIDYBOT.read_text(encoding="utf-8"))
    names, _ = co.tidybot_names(scenarios)
    old = yaml.safe_load(OLD_MAP.read_text(encoding="utf-8"))
    shipped = yaml.safe_load(default_map_path().read_text(encoding="utf-8"))
    n_old = sum(len(p) for p in co.overlap(old, names).values())
    n_new = sum(len(p) for p in co.overlap(shipped, names).values())
    assert n_old == 594  # distinct keys; 605 of the 1,076 spellings (issue 9)
    # generic nouns ("fork", "apple") are in both; measured 246. A TidyBot name added to the map must be one a
    # person would list without seeing the benchmark: raise this bound only with that argued in the README
    assert n_new <= 250
    assert co.main(["--quiet"]) == 0
    assert "of TidyBot's 1076 object names are map words verbatim" in capsys.readouterr().out


def test_no_compound_is_placed_by_its_own_last_word_already() -> None:
    """A multi-word entry earns its place only if the map without it would put the phrase, or the label
    written as one word, elsewhere ("bread knife" would be cutlery, "paper towel" a towel, a VirtualHome
    "lotionbottle" a bottle); "basmati rice" is rice by its ending."""
    data = yaml.safe_load(default_map_path().read_text(encoding="utf-8"))
    cmap = CategoryMap.from_dict(data)
    redundant = []
    for name, spec in data["categories"].items():
        for w in spec.get("words") or []:
            if len(words(str(w))) < 2 or key(str(w)) in cmap.parent:  # a category's own name is always known
                continue
            without = copy.deepcopy(data)  # without it and its other spellings ("play dough", "playdough")
            k = "".join(words(str(w)))
            without["categories"][name]["words"] = [x for x in spec["words"] if "".join(words(str(x))) != k]
            smaller = CategoryMap.from_dict(without)
            if all(_first_category(smaller, form) == _first_category(cmap, form) for form in (str(w), k)):
                redundant.append(f"{name}: {w}")
    assert redundant == [], "\n".join(redundant)


def test_using_map_swaps_the_default_for_a_block() -> None:
    shipped = default_map()
    with using_map(OLD_MAP) as old:
        assert default_map() is old and "santokuknife" in old.word_category
    assert default_map() is shipped and "santokuknife" not in shipped.word_category
