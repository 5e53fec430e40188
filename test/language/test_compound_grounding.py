"""Compound names grounded a word at a time through WordNet 3.0 (the installed wordnet-base), the category map
and MiniLM, on a real SQLite memory with glued labels: British spellings by rule, glued labels WordNet does not
list split into its nouns, a modifier that is a kind of the label's, a modifier in WordNet's gloss of the label
head's sense, shared modifiers whose WordNet kind is the label's category, a head that names no kind, a
packaging head naming its contents, a kind guessed for a word WordNet lacks (asked back, never acted on), and
the plural label that uses every word said. Each also says no where it should."""

from pathlib import Path

import pytest

from memory_node.core.categories import CategoryMap, default_map
from memory_node.core.models import EntityObservation, SceneGraphObservation
from memory_node.core.store import MemoryStore
from memory_node.core.wordnet import default_wordnet
from memory_node.language import parse
from memory_node.language.grounding import Grounder, Grounding
from memory_node.language.names import Names, default_names
from memory_node.language.spelling import american, canonical, variants
from memory_node.requests import answer_question
from memory_node.world.state import WorldState

pytest.importorskip("spacy")
pytestmark = pytest.mark.skipif(default_wordnet() is None, reason="WordNet 3.0 (wordnet-base) not installed")
T = 1_700_000_000 * 1_000_000_000


@pytest.fixture
def store(tmp_path: Path):
    """A real SQLite memory holding (id, label) things in a kitchen (a hall for ids ending "_h"); each call opens
    another database (``name``), closed when the test ends."""
    opened: list[MemoryStore] = []

    def make(labels: list[tuple[str, str]], name: str = "m") -> MemoryStore:
        s = MemoryStore(tmp_path / f"{name}.db")
        opened.append(s)
        ents = [EntityObservation(id="kitchen_1", label="room", name="kitchen", room="kitchen_1"),
                EntityObservation(id="hall_2", label="room", name="hall", room="hall_2"),
                *(EntityObservation(id=i, label=lab, room="hall_2" if i.endswith("_h") else "kitchen_1")
                  for i, lab in labels)]
        s.ingest_scene_graph(SceneGraphObservation(stamp_ns=T, source="test", entities=ents))
        return s

    yield make
    for s in opened:
        s.close()


def _ground(store: MemoryStore, text: str, names: Names | None = None) -> Grounding:
    req = parse(text)
    ref = req.objects[0] if req.objects else req.destination.ref
    return Grounder(store, WorldState.from_store(store), names=names).ground(ref)


# ---- spelling ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("british", "us"), [
    ("organiser", "organizer"), ("sanitisers", "sanitizers"), ("colour", "color"), ("flavours", "flavors"),
    ("centre", "center"), ("fibre", "fiber"), ("catalogue", "catalog"), ("jewellery", "jewelry"),
    ("analyse", "analyze"), ("programme", "program"), ("travelled", "traveled")])
def test_british_spellings_become_american_by_rule(british: str, us: str) -> None:
    assert american(british) == us
    assert us in variants(british) and british in variants(us) or american(us) == us


@pytest.mark.parametrize("word", ["hour", "tour", "four", "flour", "table", "mouse", "fire", "kettle", "mug"])
def test_words_no_rule_fits_are_left_alone(word: str) -> None:
    assert american(word) == word


def test_a_british_phrase_meets_an_american_label(store) -> None:
    s = store([("jewelrybox_1", "jewelrybox"), ("box_1", "box"), ("colorprinter_1", "colorprinter")])
    assert canonical("jewellery box") == "jewelry box"
    assert _ground(s, "where is the jewellery box?").ids[:1] == ["jewelrybox_1"]
    assert _ground(s, "where is the colour printer?").ids == ["colorprinter_1"]
    # and the other way round: a label spelt the British way, said the American way
    s = store([("colourprinter_1", "colourprinter"), ("printer_1", "printer")], "gb")
    assert _ground(s, "where is the color printer?").ids == ["colourprinter_1"]


# ---- glued labels ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "parts"), [("pcdesk", ("pc", "desk")), ("cdrack", ("cd", "rack")),
                                              ("petbed", ("pet", "bed"))])
def test_glued_labels_wordnet_does_not_list_split_into_its_nouns(label: str, parts: tuple[str, ...]) -> None:
    assert default_names().label_words(label) == parts


def test_labels_wordnet_or_the_vocabulary_know_whole_stay_whole() -> None:
    names = default_names()
    assert names.label_words("pillow") == ("pillow",)
    assert names.label_words("kettle") == ("kettle",)


# ---- a compound read a word at a time --------------------------------------------------------------------

def test_a_modifier_that_is_a_kind_of_the_labels_names_it(store) -> None:
    # mustard is a condiment (WordNet, one is-a step): the condiment jar; not the honey jar nor the cookie jar
    s = store([("condimentjar_1", "condimentjar"), ("honeyjar_1", "honeyjar"), ("cookiejar_1", "cookiejar")])
    g = _ground(s, "where is the mustard jar?")
    assert g.ids == ["condimentjar_1"] and g.how == "wordnet compound"
    assert not g.should_ask()
    reply = answer_question(s, "where is the mustard jar?")
    assert "condimentjar_1" in reply.answer and "not sure" not in reply.answer
    assert _ground(s, "where is the button jar?").status == "none"  # buttons are no condiment
    assert "condimentjar_1" not in _ground(s, "where is the jam jar?").ids  # nor is jam (a conserve)


def test_a_modifier_in_the_gloss_of_the_label_heads_sense_names_it() -> None:
    # WordNet's caster (a kind of shaker) is "for sprinkling powdered sugar"; what it is made of is no rival kind
    names = default_names()
    assert names.match("shaker", ["sugar"], "silver caster").how == "wordnet compound"
    assert names.match("shaker", ["salt"], "silver caster") is None
    # a label word naming another thing makes it another kind: a pepper caster is not what "sugar shaker" says
    assert names.match("shaker", ["sugar"], "pepper caster") is None


def test_shared_modifiers_and_wordnets_kind_as_the_labels_category(store) -> None:
    data = {"categories": {"toiletry": {"parent": None, "words": ["toiletry", "face product"]},
                           "tool": {"parent": None, "words": ["tool", "face towel"]}}}
    names = Names({}, {}, CategoryMap.from_dict(data))
    # face powder is makeup, a cosmetic, a toiletry (WordNet); the map files a face product as a toiletry
    assert names.match("powder", ["face"], "faceproduct").how == "shared kind"
    assert names.match("powder", ["face"], "facetowel") is None  # shares the word, not the kind
    s = store([("faceproduct_1", "faceproduct"), ("facetowel_1", "facetowel")])
    assert _ground(s, "where is the face powder?", names).ids == ["faceproduct_1"]


def test_a_head_naming_no_kind_is_named_by_its_modifiers(store) -> None:
    s = store([("shoerack_1", "shoerack"), ("shoe_1", "shoe"), ("wallshelf_1", "wallshelf")])
    g = _ground(s, "where is the shoe unit?")
    assert g.ids == ["shoerack_1"] and g.how == "named by its modifiers"
    s = store([("shoerack_1", "shoerack"), ("shoebox_1", "shoebox")], "two")
    g = _ground(s, "where is the shoe unit?")
    assert g.status == "ambiguous" and set(g.ids) == {"shoerack_1", "shoebox_1"}  # asked which


def test_a_packaging_head_names_what_it_holds(store) -> None:
    s = store([("shampoo_1", "shampoo"), ("ice_1", "ice")])
    g = _ground(s, "where is the shampoo bottle?")
    assert g.ids == ["shampoo_1"] and g.how == "contents"
    # WordNet lists an icebox as a refrigerator, not a box of ice
    assert "ice_1" not in _ground(s, "where is the ice box?").ids


def test_the_plural_label_using_every_word_beats_a_narrower_exact_one(store) -> None:
    s = store([("gardenchairs_h", "gardenchairs"), ("chair_1", "chair")])
    assert _ground(s, "is there a garden chair?").ids == ["gardenchairs_h"]
    reply = answer_question(s, "is there a garden chair in the kitchen?")
    assert reply.answer.startswith("No")  # the kitchen holds a chair, not a garden chair
    assert {c for c in _ground(s, "where is the chair?").ids} == {"chair_1"}


# ---- a kind guessed for a word WordNet does not know ------------------------------------------------------

def test_a_word_wordnet_lacks_is_guessed_by_its_category_and_asked_about(store) -> None:
    assert default_wordnet().any_noun("hoodie") is False and len(default_map().chain("hoodie")) > 1
    s = store([("sweater_1", "sweater"), ("blouse_1", "blouse"), ("kettle_1", "kettle")])
    g = _ground(s, "where is my hoodie?")
    assert g.how == "kind guessed" and "kettle_1" not in g.ids
    assert g.ids[0] == "sweater_1" and g.should_ask()  # a guess: asked, never acted on
    reply = answer_question(s, "where is my hoodie?")
    assert "Do you mean" in reply.answer and "sweater_1" in reply.answer
    # a word WordNet knows and relates to nothing here is another thing, not a guess
    assert _ground(s, "where is my passport?").status == "none"


def test_a_label_named_by_a_part_of_the_said_thing_in_its_gloss(store) -> None:
    # WordNet: a dresser is "furniture with drawers for keeping clothes", a drawer one of its parts
    names = default_names()
    assert names.match("dresser", [], "clothesdrawer").how == "wordnet gloss"
    assert names.match("wardrobe", [], "clothesdrawer") is None  # clothes in its gloss, but no drawer part
    s = store([("clothesdrawer_1", "clothesdrawer"), ("kettle_1", "kettle")])
    assert _ground(s, "where is the dresser?").ids == ["clothesdrawer_1"]


def test_a_category_word_counts_a_packaged_thing_as_its_contents(store) -> None:
    s = store([("sugarshaker_1", "sugarshaker"), ("honey_1", "honey"), ("kettle_1", "kettle")])
    g = _ground(s, "are there any sweeteners?")
    assert set(g.ids) == {"sugarshaker_1", "honey_1"} and g.how == "category"


def test_yes_count_and_list_answers_ask_back_when_the_name_is_a_guess(store) -> None:
    s = store([("sweater_1", "sweater"), ("sweater_2", "sweater"), ("blouse_1", "blouse")])
    for q in ("is there a hoodie?", "how many hoodies are there?", "where are the hoodies?"):
        reply = answer_question(s, q)
        assert "Do you mean" in reply.answer and not reply.answer.startswith("Yes"), (q, reply.answer)
    assert answer_question(s, "is there a sweater?").answer.startswith("Yes")
