"""WordNet 3.0 as installed by scripts/setup.sh (Debian wordnet-base, read by nltk, nothing downloaded), and
its part in unseen-object placement: garments never corrected go where the corrected garment went, though
their MiniLM vectors alone point elsewhere."""

import pytest

from memory_node.core import similarity
from memory_node.core.categories import CategoryMap, default_map
from memory_node.core.wordnet import WordNet, default_wordnet, wordnet_dir

pytestmark = pytest.mark.skipif(not wordnet_dir(), reason="WordNet 3.0 (wordnet-base) not installed")


def test_the_debian_database_loads_without_its_lexnames_file() -> None:
    wn = WordNet()  # a second reader: the lexnames file is rebuilt from the manual page, not read from disk
    assert wn.known("garbage can") and not wn.known("coffee machine")
    assert wn.relation("trash can", "garbage can").how == "synonym"
    assert wn.relation("glass", "wineglass").how == "hypernym"
    assert wn.relation("armchair", "chair").how == "hyponym"
    assert wn.has_part("car", "door") and not wn.has_part("book", "shelf")
    assert wn.hypernyms("garbage can", depth=1) == ["bin"]


def test_a_thing_like_nothing_told_stays_not_known() -> None:
    told = [similarity.Example("violin", "cabinet", 1), similarity.Example("cello", "cabinet", 2)]
    # both are devices, a kind too broad to count: the vectors decide that nothing told is like it
    lin, kind = similarity.lexical_kind("weather vane", "violin")
    assert lin > 0.2 and 0 < kind < similarity.WN_KIND_IC
    assert similarity.vote("weather vane", told, set(), CategoryMap.from_dict({})) is None


def test_unknown_words_are_not_errors() -> None:
    wn = default_wordnet()
    for junk in ("", "   ", "zzqxv", "a/b", "_", "x" * 300):
        assert wn.senses(junk) == () and wn.relation(junk, "chair") is None


def test_wordnet_kinds_carry_unseen_garments_to_where_the_garment_went() -> None:
    no_map = CategoryMap.from_dict({})  # similarity and WordNet only: no category map to lean on
    told = [similarity.Example("blouse", "wardrobe", 1), similarity.Example("kettle", "counter", 2),
            similarity.Example("spatula", "drawer", 3), similarity.Example("orange", "fruit bowl", 4)]
    for garment in ("cardigan", "anorak"):
        won = similarity.vote(garment, told, set(), no_map)
        assert won is not None and won.receptacle_key == "wardrobe", garment
        assert similarity.lexical_kind(garment, "blouse")[0] > max(
            similarity.lexical_kind(garment, other)[0] for other in ("kettle", "spatula", "orange"))


def test_vectors_alone_misplace_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    told = [similarity.Example("blouse", "wardrobe", 1), similarity.Example("kettle", "counter", 2),
            similarity.Example("spatula", "drawer", 3), similarity.Example("orange", "fruit bowl", 4)]
    won = similarity.vote("cardigan", told, set(), CategoryMap.from_dict({}))
    assert won is not None and won.receptacle_key != "wardrobe"  # what the WordNet terms fix


def test_the_kind_two_things_share_is_graded_by_how_specific_it_is() -> None:
    wn = default_wordnet()
    lin, sweater, name = wn.shared_kind("cardigan", "pullover")
    assert name == "sweater.n.01" and lin > 0.8
    lin_c, clothing, name = wn.shared_kind("cardigan", "blouse")
    assert name == "clothing.n.01" and lin_c < lin and 0.4 < clothing < sweater < 1
    _, broad, _ = wn.shared_kind("spatula", "ladle")  # only "instrumentality": little in common
    assert broad < similarity.WN_KIND_IC < clothing
    assert wn.specificity(wn.senses("cardigan")[0]) > sweater  # fewer kinds of cardigans than of sweaters
    assert wn.shared_kind("zzqxv", "cardigan") is None


def test_one_example_of_its_narrow_kind_outvotes_several_of_a_broad_one() -> None:
    # a screwdriver and the hammer are both hand tools; the other four are only tools
    cmap = CategoryMap.from_dict({"categories": {
        "tools": {"words": ["stud finder", "torch", "spirit level", "drill", "glue gun"]},
        "hand tools": {"parent": "tools", "words": ["hammer", "screwdriver", "chisel"]}}})
    told = [similarity.Example("hammer", "toolbox", 1), similarity.Example("stud finder", "shelf", 2),
            similarity.Example("torch", "shelf", 3), similarity.Example("drill", "shelf", 4),
            similarity.Example("glue gun", "shelf", 5), similarity.Example("kettle", "counter", 6)]
    won = similarity.vote("screwdriver", told, set(), cmap)
    assert won is not None and won.receptacle_key == "toolbox"
    # a spirit level, a tool but not a hand tool, goes with the broad examples
    assert similarity.vote("spirit level", told, set(), cmap).receptacle_key == "shelf"


def test_examples_of_a_narrower_kind_it_is_not_say_where_that_kind_goes_not_the_rest() -> None:
    # "hand tools in the toolbox, other tools on the shelf": a spirit level is not a hand tool
    cmap = CategoryMap.from_dict({"categories": {
        "tools": {"words": ["stud finder", "spirit level", "tape measure"]},
        "hand tools": {"parent": "tools", "words": ["hammer", "screwdriver", "chisel", "mallet"]}}})
    # (the stud finder alone, 0.03 like a spirit level in MiniLM's words, weighed less than three hand tools
    # a quarter each once WordNet stopped lowering the hand tools' similarity: the map says they are tools)
    told = [similarity.Example("hammer", "toolbox", 1), similarity.Example("mallet", "toolbox", 2),
            similarity.Example("chisel", "toolbox", 3), similarity.Example("stud finder", "shelf", 4),
            similarity.Example("tape measure", "shelf", 5)]
    assert similarity.vote("spirit level", told, set(), cmap).receptacle_key == "shelf"
    assert similarity.vote("screwdriver", told, set(), cmap).receptacle_key == "toolbox"
    # unknown to the map: nothing says it is not a hand tool, so nothing is discounted
    assert similarity.vote("nail punch", told, set(), cmap).receptacle_key == "toolbox"


def test_a_phrase_is_looked_up_by_its_longest_ending_open_or_closed() -> None:
    assert similarity.lexical_kind("tea pot", "kettle") == similarity.lexical_kind("teapot", "kettle")
    assert similarity.lexical_kind("blue tea pot", "kettle") == similarity.lexical_kind("teapot", "kettle")
    # "pot" alone is a cooking pot first: the compound is the better reading
    assert similarity.lexical_kind("tea pot", "kettle") != similarity.lexical_kind("pot", "kettle")
    assert similarity.lexical_kind("zzqxv wibble", "kettle") is None
    # words glued into a noun WordNet lists only as no household thing are not that noun, when the last word
    # is a household thing: a leather jacket is a jacket (WordNet's "leatherjacket" is a fish and a grub)
    cmap = default_map()
    assert similarity.lexical_phrase(cmap, "leather jacket") == "jacket"
    assert similarity.lexical_phrase(cmap, "dark brown leather jacket") == "jacket"
    assert similarity.lexical_phrase(cmap, "wine glass") == "wineglass"


def test_a_word_two_names_share_before_their_heads_counts_as_a_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    # what the clothes are for, not what they are: gym things to the wash, party things to the wardrobe
    told = [similarity.Example("party dress", "wardrobe", 1), similarity.Example("party shoes", "wardrobe", 2),
            similarity.Example("jogging bottoms", "washing basket", 3),
            similarity.Example("running top", "washing basket", 4), similarity.Example("gym leggings", "washing basket", 5)]
    cmap = default_map()
    assert similarity.vote("gym socks", told, set(), cmap).receptacle_key == "washing basket"
    assert similarity.vote("party socks", told, set(), cmap).receptacle_key == "wardrobe"
    monkeypatch.setattr(similarity, "MODIFIER_BONUS", 0.0)
    assert similarity.vote("gym socks", told, set(), cmap).receptacle_key == "wardrobe"


def test_a_head_that_only_holds_or_measures_is_not_what_the_thing_is() -> None:
    cmap = default_map()
    # the map reads a juice bottle as juice: so does WordNet here, a drink like lemonade, not a vessel
    assert similarity.lexical_kind("juice bottle", "lemonade", cmap)[1] > 0
    assert similarity.lexical_kind("juice bottle", "jar", cmap)[1] < similarity.WN_KIND_IC
    assert similarity.lexical_kind("juice bottle", "jar")[1] >= similarity.WN_KIND_IC  # read as a bottle
    # "set" only groups things: a problem set is not a stage set, and WordNet has nothing else to say
    assert similarity.lexical_kind("maths problem set", "statue", cmap) is None
    assert similarity.lexical_kind("maths problem set", "statue") is not None
    assert similarity.lexical_kind("plain box", "trunk", cmap) == similarity.lexical_kind("box", "trunk")


def test_any_noun_knows_words_of_every_sense_and_gloss_words_read_a_senses_definition() -> None:
    wn = default_wordnet()
    # "night" is a time, no physical thing: a noun all the same (a glued label may begin with it)
    assert wn.any_noun("night") and not wn.known("night")
    assert not wn.any_noun("hoodie") and not wn.any_noun("qzxv")
    # a caster (the shaker) is for sprinkling powdered sugar
    assert "sugar" in wn.gloss_words("caster.n.02") and "salt" not in wn.gloss_words("caster.n.02")
    assert wn.gloss_words("no_such.n.01") == frozenset()


def test_is_word_knows_every_part_of_speech_inflected_and_is_kind_reads_every_noun_sense() -> None:
    wn = default_wordnet()
    # verbs and adjectives, regular and irregular forms, besides nouns: the reader's noun index alone
    # does not know "chopped" or "remaining"
    for word in ("chopped", "remaining", "bigger", "other", "sliced", "kitchen", "fan"):
        assert wn.is_word(word), word
    for letters in ("xylo", "coconu", "glas", "cafetie", "", "fork2"):
        assert not wn.is_word(letters), letters
    # a guidebook is a book only as a publication (no physical sense): every noun sense counts
    assert wn.is_kind("guidebook", "book") and wn.is_kind("coffeepot", "pot") and wn.is_kind("earphone", "phone")
    assert not wn.is_kind("megaphone", "phone") and not wn.is_kind("extractor", "tractor")
    assert not wn.is_kind("zzqxv", "phone") and not wn.is_kind("phone", "zzqxv")


def test_a_phrase_whose_longest_listed_ending_is_no_thing_is_not_read_by_its_last_word() -> None:
    # WordNet lists "ball game" only as an activity: its "game" in a home (the food) is another word's
    # reading, and says nothing of it; a phrase listed as a thing, a document or a possession keeps its
    # reading, and a label whose ending WordNet does not list still falls back to its last word
    cmap = default_map()
    assert default_wordnet().names_no_thing("ball game") and default_wordnet().names_no_thing("hot water")
    for label in ("ball game", "video game", "hot water"):
        assert similarity.lexical_phrase(cmap, label) == "", label
        assert similarity.lexical_kind(label, "venison", cmap) is None, label
    assert similarity.lexical_phrase(cmap, "game") == "game"
    assert similarity.lexical_phrase(cmap, "greeting card") == "card"  # a card a home holds, WordNet's message
    assert similarity.lexical_phrase(cmap, "playing card") == "playing card"
    assert similarity.lexical_phrase(cmap, "blue water") == "water"
