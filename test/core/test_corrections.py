"""The utterance parser (core/corrections.py) and the category map it shares with the rules (core/categories.py)."""

from __future__ import annotations

import pytest

from memory_node.bench.request_cost import odd_utterances
from memory_node.core.categories import CategoryMap, default_map, singular
from memory_node.core.corrections import ParsedFact, parse_utterance
from memory_node.core.text import singular_phrase


def placements(text: str) -> list[tuple[str, str, str, bool]]:
    return [(f.subject, f.predicate, f.target, f.negated) for f in parse_utterance(text, "alice")
            if f.kind == "placement"]


@pytest.mark.parametrize("text, expected", [
    ("put the fork in the drawer", [("fork", "in", "drawer", False)]),
    ("Put the fork into the drawer.", [("fork", "in", "drawer", False)]),
    ("place the plates inside the cabinet", [("plate", "in", "cabinet", False)]),
    ("keep the mugs on the shelf", [("mug", "on", "shelf", False)]),
    ("set the cups onto the top shelf", [("cup", "on", "top shelf", False)]),
    ("forks go in the drawer", [("fork", "in", "drawer", False)]),
    ("the fork goes in the drawer", [("fork", "in", "drawer", False)]),
    ("knives belong in the block", [("knife", "in", "block", False)]),
    ("the cereal belongs on top of the fridge", [("cereal", "on", "fridge", False)]),
    ("the knives should always be kept in the block", [("knife", "in", "block", False)]),
    ("cutlery goes in the drawer please", [("cutlery", "in", "drawer", False)]),
    ("could you please put the mugs in the cabinet?", [("mug", "in", "cabinet", False)]),
    ("put the fork away in the drawer", [("fork", "in", "drawer", False)]),
    ("put the book on the shelf next to the window", [("book", "on", "shelf", False)]),
    ("please put the Rubik's cube in bin 2", [("rubik's cube", "in", "bin 2", False)]),
    ("Put the T-shirts in the drawer", [("t-shirt", "in", "drawer", False)]),
    ("put the potatoes and the tomatoes in the basket",
     [("potato", "in", "basket", False), ("tomato", "in", "basket", False)]),
    ("forks, knives and spoons belong in the top drawer",
     [("fork", "in", "top drawer", False), ("knife", "in", "top drawer", False),
      ("spoon", "in", "top drawer", False)]),
    ("mac and cheese goes in the pantry", [("mac and cheese", "in", "pantry", False)]),
    ("forks go in the drawer and cups go on the shelf",
     [("fork", "in", "drawer", False), ("cup", "on", "shelf", False)]),
    ("I like the cups on the shelf", [("cup", "on", "shelf", False)]),
    ("I'd prefer to keep the towels in the closet", [("towel", "in", "closet", False)]),
    ("I keep my keys in the bowl by the door", [("key", "in", "bowl", False)]),
    ("shoes go under the bed", [("shoe", "under", "bed", False)]),
])
def test_placements(text: str, expected: list) -> None:
    assert placements(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("no, the cups go on the shelf", [("cup", "on", "shelf", False)]),
    ("No the cups go on the shelf", [("cup", "on", "shelf", False)]),
    ("no, the cups on the shelf", [("cup", "on", "shelf", False)]),
    ("nope - the forks go in the drawer", [("fork", "in", "drawer", False)]),
    ("actually, the fork goes in the sink", [("fork", "in", "sink", False)]),
])
def test_corrections_are_facts_marked_as_corrections(text: str, expected: list) -> None:
    facts = parse_utterance(text)
    assert [(f.subject, f.predicate, f.target, f.negated) for f in facts] == expected
    assert all(f.correction for f in facts)
    assert not any(f.correction for f in parse_utterance("the cups go on the shelf"))


@pytest.mark.parametrize("text, expected", [
    ("don't put the knives in the dishwasher", [("knife", "in", "dishwasher", True)]),
    ("never put the pans in the dishwasher", [("pan", "in", "dishwasher", True)]),
    ("forks don't go in the sink", [("fork", "in", "sink", True)]),
    ("the fork should not go in the sink", [("fork", "in", "sink", True)]),
    ("no shoes on the bed", [("shoe", "on", "bed", True)]),
    ("the cups go on the shelf, not in the cabinet", [("cup", "on", "shelf", False), ("cup", "in", "cabinet", True)]),
    ("the cups don't go in the cabinet, they go on the shelf",
     [("cup", "in", "cabinet", True), ("cup", "on", "shelf", False)]),
])
def test_negations(text: str, expected: list) -> None:
    assert placements(text) == expected


@pytest.mark.parametrize("text", [
    "where is the fork?", "where is the fork", "where do forks go?", "where should I put the fork?",
    "is the fork in the drawer?", "the drawer is locked", "the fork is in the drawer", "the forks are in the drawer",
    "bring me the fork", "put it there", "put the fork in it", "put the fork away", "open the drawer",
    "what did you do", "I put the keys on the table", "the storage box has toys in it", "toys in the storage box",
    "I'd like the red cup", "I like to cook", "my mug is dirty", "my mug is in the kitchen", "my name is Anna",
    "thank you", "no", "yes", "", "   ", "put", "put the in the", "no, not in the drawer", "everything goes in the box",
])
def test_sentences_that_state_no_fact(text: str) -> None:
    assert parse_utterance(text, "alice") == []


def test_possession() -> None:
    mine = ParsedFact(kind="possession", subject="mug", predicate="is", target="blue", owner="alice")
    assert parse_utterance("my mug is the blue one", "alice") == [mine]
    assert parse_utterance("My mug is blue.", "alice") == [mine]
    assert parse_utterance("my mug is the blue mug", "alice") == [mine]
    assert parse_utterance("the blue mug is mine", "alice") == [mine]
    assert parse_utterance("my coffee mug is the big red one", "bob") == [
        ParsedFact(kind="possession", subject="coffee mug", predicate="is", target="big red", owner="bob")]
    assert parse_utterance("Anna's mug is the green one", "alice") == [
        ParsedFact(kind="possession", subject="mug", predicate="is", target="green", owner="anna")]
    assert parse_utterance("the red cup is anna's") == [
        ParsedFact(kind="possession", subject="cup", predicate="is", target="red", owner="anna")]
    # "my" without a known speaker still has an owner
    assert parse_utterance("my mug is the blue one")[0].owner == "user"


def test_preference() -> None:
    assert parse_utterance("I prefer the red cup", "alice") == [
        ParsedFact(kind="preference", subject="cup", predicate="prefers", target="red", owner="alice")]
    assert parse_utterance("I'd prefer the red cups over the blue ones", "alice")[0].target == "red"
    assert parse_utterance("I prefer tea", "alice") == [
        ParsedFact(kind="preference", subject="tea", predicate="prefers", target="", owner="alice")]
    no = parse_utterance("I don't like the blue mug", "alice")
    assert len(no) == 1 and no[0].negated and (no[0].subject, no[0].target) == ("mug", "blue")


def test_owner_of_a_placement_is_the_speaker() -> None:
    f = parse_utterance("my books go on the shelf", "alice")
    assert [(x.subject, x.owner) for x in f] == [("book", "alice")]


@pytest.mark.parametrize("word, one", [
    ("forks", "fork"), ("knives", "knife"), ("cookies", "cookie"), ("berries", "berry"), ("glasses", "glass"),
    ("boxes", "box"), ("dishes", "dish"), ("potatoes", "potato"), ("shoes", "shoe"), ("pants", "pants"),
    ("jeans", "jeans"), ("gloves", "glove"), ("shelves", "shelf"), ("vases", "vase"), ("bus", "bus"),
    ("glass", "glass"), ("tennis", "tennis"), ("t-shirts", "t-shirt"),
])
def test_singular(word: str, one: str) -> None:
    assert singular(word) == one


@pytest.mark.parametrize("phrase, one", [("water glasses", "water glass"), ("knives", "knife"),
                                         ("cutting boards", "cutting board"), ("pants", "pants"), ("", "")])
def test_singular_phrase_changes_only_the_last_word(phrase: str, one: str) -> None:
    assert singular_phrase(phrase) == one


@pytest.mark.parametrize("label, chain", [
    ("fork", ["fork", "cutlery", "kitchenware"]),
    ("cutleryfork", ["cutleryfork", "fork", "cutlery", "kitchenware"]),  # a VirtualHome class name
    ("dirty plastic forks", ["dirtyplasticfork", "fork", "dirty", "plastic", "cutlery", "kitchenware"]),
    ("Coffee Mugs", ["coffeemug", "mug", "drinkware", "kitchenware"]),
    ("bread knife", ["breadknife", "kitchenknife", "cookingutensil", "kitchenware"]),  # not table cutlery
    ("toy hammer", ["toyhammer", "hammer", "toy"]),
    ("stuffed koala", ["stuffedkoala", "koala", "stuffedanimal", "toy"]),
    ("canned tuna", ["cannedtuna", "tuna", "cannedfood", "food"]),
    # a modifier bound to a kind reaches across the words before the head; one that is not does not
    ("tinned chopped tomatoes", ["tinnedchoppedtomato", "tomato", "cannedfood", "food"]),
    ("dried sour cherries", ["driedsourcherry", "cherry", "driedfruit", "snack", "food"]),
    ("toy story dvd", ["toystorydvd", "dvd", "media"]),
    ("soda can", ["sodacan", "soda", "softdrink", "beverage"]),  # a can of soda: what is in it
    ("tissue box", ["tissuebox", "tissue", "paperproduct"]),  # "box" is a kind too, the contents decide
    # a cup named after a food is a serving of it; after a drink or another thing, or a compound WordNet
    # lists (the egg cup: crockery), a cup
    ("yogurt cups", ["yogurtcup", "yogurt", "dairyandegg", "food"]),
    ("applesauce cup", ["applesaucecup", "applesauce", "snack", "food"]),
    ("coffee cup", ["coffeecup", "cup", "drinkware", "kitchenware"]),
    ("pencil cup", ["pencilcup", "cup", "drinkware", "kitchenware"]),
    ("egg cup", ["eggcup", "dishware", "kitchenware"]),
    ("large bag of rice", ["largebagofrice", "rice", "pantrystaple", "food"]),
    ("head of lettuce", ["headoflettuce", "lettuce", "vegetable", "produce", "food"]),  # "head": no measure
    ("pillow 2", ["pillow2", "pillow", "bedding"]),
    ("dark gray jeans", ["darkgrayjeans", "jeans", "darkcolored", "gray", "bottom", "clothing"]),
    ("widget gizmo", ["widgetgizmo", "gizmo"]),  # unknown: the label and its last word, nothing more
    ("", []),
])
def test_category_chain(label: str, chain: list[str]) -> None:
    assert default_map().chain(label) == chain


def test_category_map_from_dict_checks_parents() -> None:
    m = CategoryMap.from_dict({"categories": {"cutlery": {"parent": "kitchenware", "words": ["fork"]},
                                              "kitchenware": {"parent": None, "words": []}}})
    assert m.chain("forks") == ["fork", "cutlery", "kitchenware"]
    with pytest.raises(ValueError, match="unknown parent"):
        CategoryMap.from_dict({"categories": {"cutlery": {"parent": "nowhere", "words": ["fork"]}}})
    with pytest.raises(ValueError, match="unknown category"):
        CategoryMap.from_dict({"categories": {"food": {"words": ["jam"]}}, "servings": {"cup": "snacks"}})
    with pytest.raises(ValueError, match="agents names an unknown category"):
        CategoryMap.from_dict({"categories": {"food": {"words": ["jam"]}}, "agents": {"food": "tools"}})
    m = CategoryMap.from_dict({"categories": {"food": {"words": ["jam"]}, "dishes": {"words": ["cup"]}},
                               "servings": {"cup": "food"}})
    assert m.chain("jam cup") == ["jamcup", "jam", "food"]
    assert CategoryMap.from_dict({"categories": {"food": {"words": ["jam"]}, "dishes": {"words": ["cup"]}}}).chain(
        "jam cup") == ["jamcup", "cup", "dish"]  # without the servings line, a cup


def test_a_compound_the_map_lists_in_the_plural_is_matched_said_of_one() -> None:
    # the map says "chocolate chips" (baking); a correction stores "chocolate chip", which is not a salty chip
    m = CategoryMap.from_dict({"categories": {"baking supply": {"words": ["chocolate chips"]},
                                              "salty snack": {"words": ["chip", "chips"]}}})
    for label in ("chocolate chips", "chocolate chip", "Chocolate-Chip"):
        assert m.chain(label) == ["chocolatechip", "bakingsupply"], label
    assert m.chain("potato chip") == ["potatochip", "chip", "saltysnack"]
    # the key it adds is no word of the map's own (the model's reading of a category uses those only)
    assert m.singulars == {"chocolatechip"}
    assert default_map().chain("chocolate chip")[-2:] == ["bakingsupply", "food"]


def test_category_map_contrasts_name_its_attributes() -> None:
    assert frozenset({"dirty", "clean"}) in default_map().contrasts
    assert frozenset({"darkcolored", "lightcolored"}) in default_map().contrasts
    m = CategoryMap.from_dict({"attributes": {"dirty": ["muddy"], "clean": ["washed"]},
                               "contrasts": [["dirty", "clean"]]})
    assert m.contrasts == (frozenset({"dirty", "clean"}),)
    with pytest.raises(ValueError, match="attributes the map does not have"):
        CategoryMap.from_dict({"attributes": {"dirty": ["muddy"]}, "contrasts": [["dirty", "tidy"]]})


def test_odd_input_never_raises_and_stays_cheap(monkeypatch) -> None:
    # cheap is counted, not timed (the time is ``python -m memory_node.bench.request_cost``'s last line): every
    # sentence is read once and every clause of it at most once per way it can be split, whatever the words
    import memory_node.core.corrections as corr

    calls = {"clause": 0}
    real = corr._clause

    def counted(*a, **kw):
        calls["clause"] += 1
        return real(*a, **kw)

    monkeypatch.setattr(corr, "_clause", counted)
    for text in odd_utterances():
        calls["clause"] = 0
        parse_utterance(text)
        assert calls["clause"] <= 2 * len(text.split()) + 2, text
    # a chain of 30 clauses is parsed once each, not exponentially
    many = " and ".join(f"put the thing{i} in the box{i}" for i in range(30))
    calls["clause"] = 0
    assert len(parse_utterance(many)) == 30
    assert calls["clause"] <= 2 * 30 + 2, calls
