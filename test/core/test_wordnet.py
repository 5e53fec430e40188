"""WordNet 3.0 as installed by scripts/setup.sh (Debian wordnet-base, read by nltk, nothing downloaded), and
its part in unseen-object placement: garments never corrected go where the corrected garment went, though
their MiniLM vectors alone point elsewhere."""

import pytest

from memory_node.core import similarity
from memory_node.core.categories import CategoryMap
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
    # Wu-Palmer alone lifts any two devices; the vectors still decide that nothing told is like it
    assert similarity.lexical_similarity("weather vane", "violin") > 0.5
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
        assert similarity.lexical_similarity(garment, "blouse") > max(
            similarity.lexical_similarity(garment, other) for other in ("kettle", "spatula", "orange"))


def test_vectors_alone_misplace_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    told = [similarity.Example("blouse", "wardrobe", 1), similarity.Example("kettle", "counter", 2),
            similarity.Example("spatula", "drawer", 3), similarity.Example("orange", "fruit bowl", 4)]
    won = similarity.vote("cardigan", told, set(), CategoryMap.from_dict({}))
    assert won is not None and won.receptacle_key != "wardrobe"  # what the WordNet terms fix
