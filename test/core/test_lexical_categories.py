"""The map's category of a word it does not list, through WordNet (core/lexical_categories.py), and what
that does for placement: a fruit rule covers a fruit the map never heard of, and examples the map does
not list share kinds in the similarity vote. Real WordNet 3.0 (Debian wordnet-base), real SQLite memory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory_node.core import similarity
from memory_node.core.categories import CategoryMap, default_map
from memory_node.core.lexical_categories import map_categories
from memory_node.core.models import UtteranceObservation
from memory_node.core.rules import explain_placement, explain_placement_any
from memory_node.core.store import MemoryStore
from memory_node.core.wordnet import default_wordnet, wordnet_dir

pytestmark = pytest.mark.skipif(not wordnet_dir(), reason="WordNet 3.0 (wordnet-base) not installed")

S = 1_000_000_000


def own(cmap: CategoryMap, label: str) -> list[str]:
    return [c for c in cmap.chain(label) if c in cmap.parent]


def test_a_word_the_map_does_not_list_takes_its_nearest_wordnet_kind() -> None:
    cmap = default_map()
    for word, category in (("persimmon", "fruit"), ("tureen", "kitchenware"), ("fedora", "accessory")):
        assert own(cmap, word) == [], f"{word} is in the map now: pick a word it does not list"
        assert map_categories(cmap, word)[0] == category, word
        assert map_categories(cmap, word) == tuple(cmap.ancestors(category))


def test_of_two_kinds_at_one_distance_the_narrower_wins() -> None:
    # WordNet's edible fruit is a kind of both "fruit" and "produce"; the map's fruit is produce too
    assert map_categories(default_map(), "kumquat")[0] == "fruit"


def test_narrower_kinds_the_map_lists_place_a_broad_word() -> None:
    # an opener's narrower kinds (can opener, bottle opener, corkscrew) are the map's cooking utensils,
    # one step away; its broader kind "tool" is two steps up
    cmap = default_map()
    assert map_categories(cmap, "opener")[0] == "cookingutensil"
    assert "tool" not in map_categories(cmap, "opener")


def test_a_broad_word_is_not_placed_by_its_many_narrower_kinds() -> None:
    # among the thousands of kinds of animal, WordNet's game (hunted animals) is the map's board game
    cmap = default_map()
    assert map_categories(cmap, "animal") == ()
    wn = default_wordnet()
    (sense,) = wn.label_senses("animal")[:1]
    assert not any(narrower for _, _, narrower in wn.neighbours(sense, 1, 2, max_below=30))
    (sense,) = wn.label_senses("opener")[:1]
    assert sum(narrower for _, _, narrower in wn.neighbours(sense, 1, 2, max_below=30)) >= 3


def test_the_map_keeps_its_own_category() -> None:
    cmap = default_map()
    # WordNet's commoner "game" in a home is the food (game birds); the map says a board game is a toy
    assert map_categories(cmap, "board game") == tuple(own(cmap, "board game"))
    assert "food" not in map_categories(cmap, "board game")


def test_the_words_before_it_keep_the_maps_modifiers() -> None:
    cmap = default_map()
    assert "cannedfood" in map_categories(cmap, "canned persimmon")
    assert map_categories(cmap, "toy tureen")[0] == "toy"
    assert map_categories(cmap, "persimmon 2") == map_categories(cmap, "persimmon")


def test_what_neither_knows_has_no_category() -> None:
    cmap = default_map()
    for label in ("zzqxv", "viola", "", "x" * 300):  # musical instruments: no word of the map near them
        assert map_categories(cmap, label) == ()
    assert map_categories(CategoryMap.from_dict({}), "persimmon") == ()  # an empty map lists nothing


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    s = MemoryStore(tmp_path / "memory.db")
    yield s
    s.close()


def say(store: MemoryStore, t: int, text: str) -> str:
    return store.ingest_utterance(UtteranceObservation(stamp_ns=t, speaker="alice", text=text)).observation_id


def test_a_rule_of_its_wordnet_kind_answers_for_a_word_the_map_does_not_list(store: MemoryStore) -> None:
    e1 = say(store, 1 * S, "put the apple in the fruit bowl")
    e2 = say(store, 2 * S, "put the pear in the fruit bowl")
    say(store, 3 * S, "put the hammer in the toolbox")
    ans = explain_placement(store, "persimmon", similar=False)
    assert ans is not None and (ans.source, ans.category, ans.receptacle) == ("rule", "fruit", "fruit bowl")
    assert ans.support_event_ids == [e1, e2]
    # "not in the fruit bowl", said of fruit, rules it out for the persimmon too
    say(store, 4 * S, "fruit doesn't go in the fruit bowl")
    assert explain_placement(store, "persimmon", similar=False) is None


class FakeEmbedder:
    def __init__(self, name: str, table: dict[str, list[float]]) -> None:
        self.model_name = name
        self.table = {k: np.asarray(v, np.float32) / np.linalg.norm(v) for k, v in table.items()}

    def encode(self, texts):
        return np.stack([self.table[t] for t in texts])


def test_examples_the_map_does_not_list_share_their_wordnet_kind_in_the_vote(store: MemoryStore,
                                                                          monkeypatch) -> None:
    # neither the kumquat nor the persimmon is in the map; WordNet makes both fruit, the crayon is
    # stationery; the crayon's words are a little closer
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    monkeypatch.setattr(similarity, "CROSS_KIND_MIN", 0.0)  # let the stranger vote
    e_fruit = say(store, 1 * S, "put the persimmon in the basket")
    say(store, 2 * S, "put the crayon in the box")
    table = {"kumquat": [1, 0, 0], "persimmon": [0.5, 0.75 ** 0.5, 0], "crayon": [0.6, 0, 0.8]}
    ans = explain_placement(store, "kumquat", embedder=FakeEmbedder("fake-lexcat", table))
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("similar", "basket", [e_fruit])
    monkeypatch.setattr(similarity, "WN_CATEGORIES", False)  # the map alone: no kind shared, words decide
    ans = explain_placement(store, "kumquat", embedder=FakeEmbedder("fake-lexcat-2", table))
    assert ans.receptacle == "box"


def test_what_was_said_of_another_name_comes_before_a_wordnet_category(store: MemoryStore) -> None:
    say(store, 1 * S, "put the apple in the fruit bowl")
    say(store, 2 * S, "put the pear in the fruit bowl")
    e_kaki = say(store, 3 * S, "put the kaki in the fridge")
    # an object called "persimmon" whose label in memory is "kaki": the fact about it under its label
    # answers, not the fruit rule WordNet's category of "persimmon" would apply
    ans = explain_placement_any(store, ["persimmon", "kaki"])
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("fact", "fridge", [e_kaki])
    assert explain_placement_any(store, ["persimmon"]).receptacle == "fruit bowl"
    assert explain_placement(store, "persimmon", similar=False, lexical=False) is None


def test_a_long_label_is_looked_up_by_its_last_words_only(monkeypatch) -> None:
    wn = default_wordnet()
    similarity._wn_phrase.cache_clear()  # the process's cache: each look-up is counted afresh
    asked: list[str] = []
    real = wn.known
    monkeypatch.setattr(wn, "known", lambda p: asked.append(p) or real(p))
    label = "blorp " * 2000 + "kumquat"
    assert map_categories(CategoryMap.from_dict(default_map_data()), label)[0] == "fruit"
    # no noun WordNet lists is longer than 9 words: at most 9 endings, each open and closed
    assert 0 < len(asked) <= 2 * similarity._WN_LONGEST
    assert max(len(p.split()) for p in asked) <= similarity._WN_LONGEST


def default_map_data() -> dict:
    import yaml

    from memory_node.core.categories import default_map_path

    return yaml.safe_load(default_map_path().read_text(encoding="utf-8"))


# ---- glued words and compounds: the map's reading of a word's end only where the word is made of it ----


def test_a_known_word_at_the_end_of_a_glued_word_is_read_only_where_the_word_is_made_of_it() -> None:
    cmap = default_map()
    for part in ("phone", "cracker", "ring", "tractor", "fork", "glass", "oil", "table"):
        assert part in cmap.word_category, f"the map no longer lists {part!r}: pick another word"
    # ordinary words that only end in the letters of a known word: WordNet lists them whole, and they are
    # no kind of it; a longer noun after a word ("fan" + "extractor") is the reading, not "tractor"
    for word, part in (("megaphone", "phone"), ("saxophone", "phone"), ("nutcracker", "cracker"),
                       ("covering", "ring"), ("fanextractor", "tractor")):
        assert part not in cmap.chain(word), word
        assert cmap.known_ending([word]) is None, word
    # compounds of a known word: a coffeepot is a pot (WordNet), an earphone a phone (one synset),
    # a cutlery fork is a fork (WordNet does not list the whole: the known word is its last word)
    for word, part, category in (("coffeepot", "pot", "cookware"), ("earphone", "phone", "electronics"),
                                 ("cutleryfork", "fork", "cutlery"), ("nesquikbottle", "bottle", "drinkware"),
                                 # a kind of what the known word is: WordNet's sailboat is a sailing vessel,
                                 # its boat a small vessel
                                 ("sailboat", "boat", "toyvehicle")):
        assert cmap.chain(word)[1:3] == [part, category], word
    # a known word of three letters is the end of a word WordNet does not list only after a word: a brand
    # that happens to end in its letters is none ("Claritin" is no tin), a laundry bin is a bin
    assert "tin" in cmap.word_category and "bin" in cmap.word_category
    assert cmap.chain("Claritin") == ["claritin"]
    assert cmap.chain("laundrybin")[1] == "bin" and cmap.chain("cookietin")[1] == "tin"
    # a noun that only straddles the join is no reading: "coconu|toil", "glas|stable"
    assert cmap.chain("coconutoil")[1] == "oil"
    assert cmap.chain("glasstable")[1] == "table"


def test_a_compound_wordnet_lists_as_one_word_is_its_own_kind() -> None:
    cmap = default_map()
    toys = set(own(cmap, "sailboat"))
    assert "toy" in toys and "boat" in cmap.word_category
    # WordNet: a gravy boat (sauceboat) is a dish, no kind of boat; the map files boats with toys
    for label in ("gravy boat", "sauce boat", "gravy boats"):
        assert own(cmap, label)[0] == "kitchenware", label
        assert not toys & set(own(cmap, label)), label
    assert "boat" not in cmap.chain("gravy boat")
    # the words before it keep the map's modifiers: a toy gravy boat is a toy
    assert own(cmap, "toy gravy boat")[0] == "toy"
    # a compound that is a kind of its head word keeps the head's category (a coffee cup is a cup)
    # an idiom WordNet lists only as no thing ("hot water": trouble) is read by its head word too
    for label, head in (("coffee cup", "cup"), ("beer mug", "mug"), ("bath towel", "towel"),
                        ("hot water", "water")):
        assert own(cmap, label) == own(cmap, head), label
    # a WordNet kind counts in the sense its word has in a home: a fried egg is a dish of food, not the
    # crockery the map's "dish" is
    assert "kitchenware" not in own(cmap, "fried egg")


def test_a_correction_about_a_compound_teaches_its_own_kind(store: MemoryStore) -> None:
    # write path and read path agree: what was said of a gravy boat is about kitchenware, and says nothing
    # about boats or toys: a toy sailboat goes where the toys went, a sauceboat where the dishes went
    say(store, 1 * S, "put the dump truck in the toy chest")
    say(store, 2 * S, "put the kite in the toy chest")
    say(store, 3 * S, "put the gravy boat in the sideboard")
    say(store, 4 * S, "put the platter in the sideboard")
    ans = explain_placement(store, "toy sailboat", similar=False)
    assert ans is not None and (ans.receptacle, ans.category) == ("toy chest", "toy")
    ans = explain_placement(store, "sauceboat", similar=False)
    assert ans is not None and (ans.receptacle, ans.category) == ("sideboard", "kitchenware")


def test_a_compound_is_read_as_the_maps_compound_of_its_head_whose_first_word_is_of_its_kind() -> None:
    cmap = default_map()
    # the map knows no powder alone, but a chili powder (chili: a vegetable) is a spice: so is a garlic powder
    assert own(cmap, "chili powder")[0] == "spice" and "powder" not in cmap.word_category
    for label in ("garlic powder", "onion powder", "Garlic Powder 2"):
        assert own(cmap, label)[:2] == ["spice", "food"], label
    # a muffin tin is bakeware, not the storage tin the map's "tin" is; a tart (WordNet: a pastry, as a muffin
    # is bakery) names the same use of a tin; a cupcake pan is bakeware as a cake pan is
    assert own(cmap, "tart tin")[0] == "bakeware"
    assert own(cmap, "cupcake pan")[0] == "bakeware"
    # a first word of another kind keeps the head's category: a frying pan is cookware, a steak knife cutlery
    assert own(cmap, "frying pan")[0] == "cookware"
    assert own(cmap, "steak knife")[0] == "cutlery"
    # the map's own compounds' words count only as the map files them: WordNet's "dog" in a home is a hot
    # dog, yet a salad bowl (a prepared food) is no dog bowl
    assert own(cmap, "salad bowl")[0] == "dishware"
    # nor does a kind at the map's top: a carrier (WordNet: a container, as a bin is) bag is no bin bag
    assert "cleaningsupply" not in own(cmap, "carrier bag")
    # attributes say what a thing is made of, not what it is for: a plastic cup is not a plastic bag's kind
    assert own(cmap, "plastic cup")[0] == "drinkware"


def test_a_correction_about_a_compound_of_the_same_use_teaches_its_kind(store: MemoryStore) -> None:
    # write path and read path agree: a spice rule covers garlic powder, a bakeware rule a tart tin
    say(store, 1 * S, "put the paprika on the spice rack")
    say(store, 2 * S, "put the cumin on the spice rack")
    say(store, 3 * S, "put the cake pan in the oven drawer")
    say(store, 4 * S, "put the muffin tin in the oven drawer")
    ans = explain_placement(store, "garlic powder", similar=False)
    assert ans is not None and (ans.receptacle, ans.source, ans.category) == ("spice rack", "rule", "spice")
    ans = explain_placement(store, "tart tin", similar=False)
    assert ans is not None and (ans.receptacle, ans.source, ans.category) == ("oven drawer", "rule", "bakeware")


def test_a_thing_named_for_what_it_does_to_a_food_is_a_kitchen_tool(store: MemoryStore) -> None:
    cmap = default_map()
    assert cmap.agents == {"food": "cookingutensil"}
    # WordNet's "tenderizer" is a substance and its "grinder" a sandwich: named for what they do to a food,
    # a kitchen tool (the verbs "tenderize", "grind", "shred", "separate" are WordNet's)
    for label in ("meat tenderizer", "spice grinder", "meat shredder", "egg separator", "salad spinner"):
        assert own(cmap, label)[:2] == ["cookingutensil", "kitchenware"], label
    # the map's compounds of the word of the same broad kind say which: a coffee maker is a small appliance
    assert own(cmap, "waffle maker")[0] == "smallappliance"
    # not for a word that does nothing ("spinner" of a fidget toy: no food), nor a noun that is no doer
    assert "cookingutensil" not in own(cmap, "fidget spinner")
    assert "cookingutensil" not in own(cmap, "meat platter")
    # write path and read path agree: the peeler's drawer for a meat tenderizer, by the rule of its kind
    say(store, 1 * S, "put the peeler in the drawer")
    say(store, 2 * S, "put the can opener in the drawer")
    say(store, 3 * S, "put the milk in the fridge")
    ans = explain_placement(store, "meat tenderizer", similar=False)
    assert ans is not None and (ans.receptacle, ans.source, ans.category) == ("drawer", "rule", "cookingutensil")
