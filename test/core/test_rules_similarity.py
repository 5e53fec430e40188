"""Placement of objects no fact or rule covers, by the corrected objects most similar to them
(core/similarity.py through core/rules.explain_placement), on a real SQLite memory.

Musical instruments are not in the category map (config/categories/household.yaml): only similarity can
place a viola. The real MiniLM model answers the first tests; a fake embedder with fixed vectors checks the
vote's arithmetic exactly.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from memory_node.core import similarity
from memory_node.core.categories import CategoryMap, default_map, default_map_path
from memory_node.core.embedding import EmbeddingUnavailable, model_dir
from memory_node.core.models import UtteranceObservation
from memory_node.core.rules import (
    explain_placement,
    explain_placement_any,
    facts,
    placement_for,
)
from memory_node.core.store import MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    s = MemoryStore(tmp_path / "memory.db")
    yield s
    s.close()


@pytest.fixture
def model() -> None:
    try:
        model_dir()
        import safetensors  # noqa: F401
        import tokenizers  # noqa: F401
    except (EmbeddingUnavailable, ImportError) as e:
        import os

        if os.environ.get("MEMORY_NODE_REQUIRE_ROS") == "1":  # scripts/test.sh installed it
            raise
        pytest.skip(f"MiniLM model not installed: {e}")


def say(store: MemoryStore, t: int, text: str) -> str:
    return store.ingest_utterance(UtteranceObservation(stamp_ns=t, speaker="alice", text=text)).observation_id


@pytest.fixture
def music(store: MemoryStore, model) -> tuple[MemoryStore, list[str]]:
    events = [say(store, 1 * S, "put the violin in the cabinet"),
              say(store, 2 * S, "the cello goes in the cabinet"),
              say(store, 3 * S, "put the stapler in the drawer"),
              say(store, 4 * S, "put the hole punch in the drawer")]
    return store, events


def test_unknown_object_goes_with_its_most_similar_corrected_objects(music) -> None:
    store, (violin, cello, stapler, punch) = music
    assert default_map().chain("viola") == ["viola"]  # the map does not know it: no rule can cover it
    assert explain_placement(store, "viola", similar=False) is None
    ans = explain_placement(store, "viola")
    assert (ans.source, ans.receptacle, ans.predicate) == ("similar", "cabinet", "in")
    # the evidence is the facts that voted for the cabinet, most similar first, not the drawer's
    assert ans.support_event_ids == [violin, cello]
    [violin_fact] = [f for f in facts(store) if f.event_id == violin]
    assert ans.record_id == violin_fact.id and ans.category_name == "things like the violin and the cello"
    assert 0.3 < ans.confidence <= similarity.MAX_CONFIDENCE
    # office things go with office things
    shredder = explain_placement(store, "paper shredder")
    assert shredder.receptacle == "drawer" and shredder.support_event_ids[0] == stapler
    assert set(shredder.support_event_ids) <= {stapler, punch}
    # deterministic, and placement_for says the same
    assert explain_placement(store, "viola") == ans
    assert placement_for(store, "viola") == ("cabinet", "in", [violin, cello], ans.confidence)


def test_nothing_similar_enough_is_not_known(music, monkeypatch) -> None:
    store, _ = music
    assert explain_placement(store, "passport") is None  # nearest example far below the threshold
    assert explain_placement(store, "weather vane") is None
    assert explain_placement(store, "viola") is not None
    monkeypatch.setattr(similarity, "MIN_SIMILARITY", 0.99)
    # no example close in words: those of its WordNet kind (bowed stringed instruments) still place it
    ans = explain_placement(store, "viola")
    assert ans.receptacle == "cabinet" and len(ans.support_event_ids) == 2
    monkeypatch.setattr(similarity, "WN_KIND_IC", 1.01)
    assert explain_placement(store, "viola") is None


def test_a_ruled_out_receptacle_takes_no_votes(music) -> None:
    store, (violin, cello, _, _) = music
    guitar = say(store, 5 * S, "put the guitar on the stand")
    assert explain_placement(store, "viola").receptacle == "cabinet"
    no = say(store, 6 * S, "violas don't go in the cabinet")
    ans = explain_placement(store, "viola")
    assert ans.source == "similar" and ans.receptacle == "stand" and ans.support_event_ids[0] == guitar
    assert not {violin, cello, no} & set(ans.support_event_ids)
    # the negation is about violas: the cello still goes with the violin
    assert explain_placement(store, "double bass").receptacle == "cabinet"


def test_facts_and_rules_come_before_similarity(music) -> None:
    store, _ = music
    told = say(store, 5 * S, "the viola goes on the shelf")
    ans = explain_placement(store, "viola")
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("fact", "shelf", [told])
    # an object known by two names: what was said under either wins over a guess for the first
    ans = explain_placement_any(store, ["small fiddle", "viola"])
    assert (ans.source, ans.receptacle) == ("fact", "shelf")
    assert explain_placement_any(store, ["small fiddle"]).source == "similar"


def test_as_of_sees_no_later_fact(music) -> None:
    store, (violin, cello, _, _) = music
    later = say(store, 10 * S, "no, violins go on the shelf")
    say(store, 11 * S, "the cello goes on the shelf too")
    now = explain_placement(store, "viola")
    assert now.receptacle == "shelf" and later in now.support_event_ids
    then = explain_placement(store, "viola", as_of_ns=5 * S)
    assert then.receptacle == "cabinet" and then.support_event_ids == [violin, cello]
    # before anything was said there is nothing to be like; after the first, only the violin votes
    assert explain_placement(store, "viola", as_of_ns=1 * S - 1) is None
    assert explain_placement(store, "viola", as_of_ns=1 * S).support_event_ids == [violin]


# ---- the vote, with fixed vectors ---------------------------------------------------------------------


class FakeEmbedder:
    """Unit vectors from a table; counts the texts it was asked to embed."""

    def __init__(self, name: str, table: dict[str, list[float]]) -> None:
        self.model_name = name
        self.table = {k: np.asarray(v, np.float32) / np.linalg.norm(v) for k, v in table.items()}
        self.encoded: list[str] = []

    def encode(self, texts):
        self.encoded.extend(texts)
        return np.stack([self.table[t] for t in texts])


def test_shared_kind_outweighs_a_slightly_closer_stranger(store: MemoryStore, monkeypatch) -> None:
    # plum and apple share fruit, produce and food in the map; the crayon is stationery
    table = {"plum": [1, 0, 0], "apple": [0.5, 0.75 ** 0.5, 0], "crayon": [0.6, 0, 0.8]}
    e_apple = say(store, 1 * S, "put the apple in the bowl")
    e_crayon = say(store, 2 * S, "put the crayon in the box")
    monkeypatch.setattr(similarity, "CROSS_KIND_MIN", 0.0)  # let the stranger vote
    # the map's kinds alone, with these fake vectors (WordNet's terms are tested in test/core/test_wordnet.py)
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    emb = FakeEmbedder("fake-kinds", table)
    ans = explain_placement(store, "plum", embedder=emb)
    assert (ans.receptacle, ans.support_event_ids) == ("bowl", [e_apple])
    # 0.5 x 3 ** (3 shared) = 13.5 against 0.6: share 13.5 / 14.1, times the apple's similarity 0.5
    assert ans.confidence == pytest.approx(13.5 / 14.1 * 0.5, abs=1e-3)
    monkeypatch.setattr(similarity, "KIND_BASE", 1.0)
    ans = explain_placement(store, "plum", embedder=FakeEmbedder("fake-kinds-2", table))
    assert (ans.receptacle, ans.support_event_ids) == ("box", [e_crayon])


def test_another_kind_of_thing_votes_only_when_very_similar(store: MemoryStore) -> None:
    say(store, 1 * S, "put the crayon in the box")
    table = {"plum": [1, 0], "crayon": [0.4, 0.84 ** 0.5]}  # 0.4: below CROSS_KIND_MIN
    assert explain_placement(store, "plum", embedder=FakeEmbedder("fake-cross", table)) is None
    table["crayon"] = [0.5, 0.75 ** 0.5]
    assert explain_placement(store, "plum", embedder=FakeEmbedder("fake-cross-2", table)).receptacle == "box"


def test_embeddings_are_cached_and_never_computed_on_the_write_path(store: MemoryStore, monkeypatch) -> None:
    table = {"viola": [1, 0, 0], "violin": [0.9, 0.19 ** 0.5, 0], "stapler": [0, 0, 1], "cello": [0.8, 0.6, 0]}
    emb = FakeEmbedder("fake-cache", table)
    monkeypatch.setattr(similarity, "default_embedder", lambda: emb)
    similarity.clear_cache()  # the cache is the process's: this test runs once per backend
    say(store, 1 * S, "put the violin in the cabinet")
    say(store, 2 * S, "put the stapler in the drawer")
    assert emb.encoded == []  # writing facts embeds nothing
    cmap = CategoryMap.load(default_map_path())  # the shipped map, read afresh for this backend's run
    assert explain_placement(store, "viola", categories=cmap).receptacle == "cabinet"
    # the map's own words are read (a few dozen at a time) once per map and model, for the kinds of a label the
    # map and WordNet give none (similarity.embedded_kinds: this table has no vectors for them, so the first
    # batch fails and they give none); the facts' subjects and the label are embedded once each
    read = Counter(emb.encoded)
    in_map = Counter(similarity.phrase(w) for w in cmap.word_category)
    assert {"viola", "violin", "stapler"} <= set(read)
    assert all(n <= in_map[t] + (t in ("viola", "violin", "stapler")) for t, n in read.items()), read
    n = len(emb.encoded)
    explain_placement(store, "viola", categories=cmap)
    assert len(emb.encoded) == n  # asked again: all from the cache, the map's words not read again
    say(store, 3 * S, "put the cello in the cabinet")
    assert explain_placement(store, "viola", categories=cmap).support_event_ids[1:] != []  # the cello votes too
    assert emb.encoded[n:] == ["cello"]  # only the new text was embedded


def test_without_the_model_nothing_is_guessed(store: MemoryStore) -> None:
    class Broken:
        model_name = "broken"

        def encode(self, texts):
            raise EmbeddingUnavailable("not installed")

    e1 = say(store, 1 * S, "put the violin in the cabinet")
    assert explain_placement(store, "viola", embedder=Broken()) is None
    assert explain_placement(store, "violin", embedder=Broken()).support_event_ids == [e1]  # facts still answer


def test_examples_of_its_kind_place_a_thing_whose_words_are_far_from_all(store: MemoryStore, monkeypatch) -> None:
    # plum and apple share fruit in the map, but their vectors are far apart (0.1, below MIN_SIMILARITY)
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    e_apple = say(store, 1 * S, "put the apple in the bowl")
    say(store, 2 * S, "put the crayon in the box")
    table = {"plum": [1, 0, 0, 0], "apple": [0.1, 0.99 ** 0.5, 0, 0], "crayon": [0.2, 0, 0.96 ** 0.5, 0],
             "passport": [0.1, 0, 0.1, 0.98 ** 0.5]}
    ans = explain_placement(store, "plum", embedder=FakeEmbedder("fake-kin", table))
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("similar", "bowl", [e_apple])
    assert ans.confidence <= 0.1 + 1e-9  # a far example of its kind: a guess, said with low confidence
    # nothing of its kind and nothing close: still not known
    assert explain_placement(store, "passport", embedder=FakeEmbedder("fake-kin-2", table)) is None



def test_an_example_of_its_kind_votes_even_when_their_words_point_apart(store: MemoryStore, monkeypatch) -> None:
    # plum and apple share fruit in the map, but their vectors point apart (cosine -0.1): the apple still
    # says where fruit goes, with the lowest confidence; a stranger as unlike (the crayon) does not vote
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    e_apple = say(store, 1 * S, "put the apple in the bowl")
    say(store, 2 * S, "put the crayon in the box")
    table = {"plum": [1, 0, 0], "apple": [-0.1, 0.99 ** 0.5, 0], "crayon": [-0.05, 0, 0.9975 ** 0.5]}
    ans = explain_placement(store, "plum", embedder=FakeEmbedder("fake-apart", table))
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("similar", "bowl", [e_apple])
    assert ans.confidence <= similarity.KIN_FLOOR + 1e-9
    # with no example of its kind, words pointing apart place nothing
    assert explain_placement(store, "passport", embedder=FakeEmbedder(
        "fake-apart-2", {**table, "passport": [1, 0, 0]})) is None


def test_attributes_said_sort_things_of_a_kind(store: MemoryStore, monkeypatch) -> None:
    # clean pants: closer in words to the muddy shorts (both bottoms) than to the clean shirt; the map's
    # attributes say the clean shirt is like it (both clean) and the muddy shorts are not (dirty, not clean)
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    say(store, 1 * S, "put the muddy shorts in the hamper")
    e_shirt = say(store, 2 * S, "put the clean shirt on the bed")
    table = {"clean pants": [1, 0, 0], "muddy shorts": [0.8, 0.6, 0], "clean shirt": [0.6, 0, 0.8]}
    ans = explain_placement(store, "clean pants", embedder=FakeEmbedder("fake-attrs", table))
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("similar", "bed", [e_shirt])
    # 0.6 x 3 ** (clothing + clean x ATTR_BONUS) against 0.8 x 3 ** (bottoms, clothing) x CONTRAST
    bed = 0.6 * similarity.KIND_BASE ** (1 + similarity.ATTR_BONUS)
    hamper = 0.8 * similarity.KIND_BASE ** 2 * similarity.CONTRAST
    assert ans.confidence == pytest.approx(bed / (bed + hamper) * 0.6, abs=1e-3)
    monkeypatch.setattr(similarity, "ATTR_BONUS", 0.0)
    monkeypatch.setattr(similarity, "CONTRAST", 1.0)
    assert explain_placement(store, "clean pants", embedder=FakeEmbedder("fake-attrs-2", table)).receptacle == "hamper"


def test_for_a_thing_of_no_known_kind_one_close_example_outweighs_two_far_ones(store: MemoryStore, monkeypatch) -> None:
    # neither the map nor WordNet knows a "zorblax": its words are all there is, and the violin is much closer
    # than the trumpet and the drum (0.6 against 0.4 and 0.4): 0.36 against 0.32 with similarities squared
    # (the plain sum would say the shelf: 0.8 against 0.6)
    e_violin = say(store, 1 * S, "put the violin in the cabinet")
    say(store, 2 * S, "put the trumpet on the shelf")
    say(store, 3 * S, "put the drum on the shelf")
    table = {"zorblax": [1, 0, 0, 0], "violin": [0.6, 0.8, 0, 0], "trumpet": [0.4, 0, 0.84 ** 0.5, 0],
             "drum": [0.4, 0, 0, 0.84 ** 0.5]}
    assert similarity.kinds(default_map(), "zorblax") == set()
    ans = explain_placement(store, "zorblax", embedder=FakeEmbedder("fake-unknown", table))
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("similar", "cabinet", [e_violin])
    assert ans.confidence == pytest.approx(0.36 / 0.68 * 0.6, abs=1e-3)
    monkeypatch.setattr(similarity, "UNKNOWN_POWER", 1.0)
    assert explain_placement(store, "zorblax", embedder=FakeEmbedder("fake-unknown-2", table)).receptacle == "shelf"


def test_examples_an_attribute_explains_say_less_about_other_kinds(store: MemoryStore, monkeypatch) -> None:
    # the muddy jeans and the worn shirt are in the hamper because they are dirty: for a necklace (clothing
    # too, by the map) the hoodie, though further, says more about where clean clothing things go
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    say(store, 1 * S, "put the muddy jeans in the hamper")
    say(store, 2 * S, "put the worn shirt in the hamper")
    e_hoodie = say(store, 3 * S, "put the hoodie in the box")
    table = {"necklace": [1, 0, 0, 0], "muddy jeans": [0.5, 0.75 ** 0.5, 0, 0],
             "worn shirt": [0.5, 0, 0.75 ** 0.5, 0], "hoodie": [0.3, 0, 0, 0.91 ** 0.5]}
    ans = explain_placement(store, "necklace", embedder=FakeEmbedder("fake-explained-attr", table))
    assert (ans.source, ans.receptacle, ans.support_event_ids) == ("similar", "box", [e_hoodie])
    # examples of all the object's kinds are not explained away by a colour they happen to share: the red
    # and the green shirt say where tops go, for a sweater too
    e_red = say(store, 4 * S, "put the red shirt in the drawer")
    e_green = say(store, 5 * S, "put the green shirt in the drawer")
    say(store, 6 * S, "put the jeans in the crate")
    table.update({"sweater": [1, 0, 0, 0, 0, 0], "red shirt": [0.5, 0, 0, 0, 0.75 ** 0.5, 0],
                  "green shirt": [0.5, 0, 0, 0, 0, 0.75 ** 0.5], "jeans": [0.9, 0, 0, 0.19 ** 0.5, 0, 0]})
    table = {k: [*v, 0, 0] if len(v) == 4 else v for k, v in table.items()}
    got = explain_placement(store, "sweater", embedder=FakeEmbedder("fake-explained-attr-2", table))
    assert (got.source, got.receptacle, set(got.support_event_ids)) == ("similar", "drawer", {e_red, e_green})


class _KindsEmbedder(FakeEmbedder):
    """A table for the asked texts; every word of the map gets its category's axis (fruit on one, every other
    category on one of its own), so the map's categories have known centroids."""

    def __init__(self, name: str, table: dict[str, list[float]]) -> None:
        super().__init__(name, table)
        cats = sorted(set(default_map().word_category.values()))
        self.axis = {c: i for i, c in enumerate(cats)}
        self.dim = len(cats) + 4
        self.table = {k: np.pad(v, (0, self.dim - len(v))) for k, v in self.table.items()}
        self.category = {similarity.phrase(w): c for w, c in default_map().word_category.items()}

    def encode(self, texts):
        out = []
        for t in texts:
            if t in self.table:
                out.append(self.table[t])
                continue
            v = np.zeros(self.dim, np.float32)
            v[self.axis[self.category[t]]] = 1.0
            out.append(v)
        self.encoded.extend(texts)
        return np.stack(out)


def test_a_label_of_no_known_kind_takes_the_map_category_its_words_are_clearly_nearest(monkeypatch) -> None:
    cmap = default_map()
    cats = sorted(set(cmap.word_category.values()))
    n = len(cats) + 4
    fruit, candy, toy = cats.index("fruit"), cats.index("candy"), cats.index("toy")

    def unit(**axes: float) -> list[float]:
        v = np.zeros(n)
        for i, x in axes.items():
            v[int(i[1:])] = x
        return (v / np.linalg.norm(v)).tolist()

    near_fruit = unit(**{f"a{fruit}": 0.8, f"a{n - 1}": 0.6})  # 0.8 to fruit's words, 0 to any other kind's
    torn = unit(**{f"a{fruit}": 0.6, f"a{candy}": 0.6, f"a{n - 1}": 0.53})  # as near fruit as candy
    apart = unit(**{f"a{fruit}": 0.6, f"a{toy}": 0.6, f"a{n - 1}": 0.53})  # as near fruit as toys
    far = unit(**{f"a{fruit}": 0.3, f"a{n - 1}": 0.95})  # nearest fruit, but not near
    emb = _KindsEmbedder("fake-embedded-kinds", {"zorblax": near_fruit, "quuxle": torn, "frobnit": far,
                                                  "glimmet": apart})
    assert similarity.kinds(cmap, "zorblax") == set()  # neither the map nor WordNet knows it
    assert similarity.kinds(cmap, "zorblax", emb) == {"fruit", "produce", "food"}
    # no clear nearest, but both are foods (fruit and candy share nothing narrower): a food
    assert similarity.kinds(cmap, "quuxle", emb) == {"food"}
    assert similarity.kinds(cmap, "glimmet", emb) == set()  # a fruit or a toy: no kind
    assert similarity.kinds(cmap, "frobnit", emb) == set()  # below EMB_KIND_MIN
    assert similarity.kinds(cmap, "apple", emb) == {"fruit", "produce", "food"}  # the map's own, as before
    # an embedder that cannot read the map's words gives no such kinds, and says nothing
    assert similarity.kinds(cmap, "zorblax", FakeEmbedder("fake-table-only", {"zorblax": [1, 0]})) == set()


def test_a_thing_neither_map_nor_wordnet_knows_goes_with_the_kind_its_words_are_nearest(store: MemoryStore,
                                                                                      model) -> None:
    # a "smoothie maker" is near the smoothie and the juice in words; as the model reads it, it is nearest the
    # map's small appliances, so it shares a kind with the toaster and the kettle and goes with them (a "pasta
    # maker" the map now reads itself: a thing that makes a food, as a coffee maker is a small appliance)
    e_toaster = say(store, 1 * S, "put the toaster in the cabinet")
    e_kettle = say(store, 2 * S, "put the kettle in the cabinet")
    say(store, 3 * S, "put the orange juice on the shelf")
    say(store, 4 * S, "put the smoothie on the shelf")
    cmap = default_map()
    assert similarity.kinds(cmap, "smoothie maker") == set()
    assert "smallappliance" in similarity.kinds(cmap, "smoothie maker", similarity.default_embedder())
    ans = explain_placement(store, "smoothie maker")
    assert (ans.source, ans.receptacle, set(ans.support_event_ids)) == ("similar", "cabinet", {e_toaster, e_kettle})


def test_examples_of_a_narrower_kind_split_between_places_still_say_only_where_they_go(monkeypatch) -> None:
    # hammers and mallets in the toolbox, chisels and files in the drawer: hand tools split by what each
    # is; neither pair says where a spirit level (a tool, no hand tool) goes better than the stud finder does
    monkeypatch.setattr(similarity, "WN_WUP", 0.0)
    monkeypatch.setattr(similarity, "WN_BONUS", 0.0)
    cmap = CategoryMap.from_dict({"categories": {
        "tools": {"words": ["stud finder", "spirit level"]},
        "hand tools": {"parent": "tools", "words": ["hammer", "mallet", "chisel", "file", "pliers"]}}})
    told = [similarity.Example("hammer", "toolbox", 1), similarity.Example("mallet", "toolbox", 2),
            similarity.Example("chisel", "drawer", 3), similarity.Example("file", "drawer", 4),
            similarity.Example("stud finder", "shelf", 5)]
    table = {"spirit level": [1, 0, 0, 0, 0, 0, 0], "hammer": [0.5, 0.75 ** 0.5, 0, 0, 0, 0, 0],
             "mallet": [0.5, 0, 0.75 ** 0.5, 0, 0, 0, 0], "chisel": [0.1, 0, 0, 0.99 ** 0.5, 0, 0, 0],
             "file": [0.1, 0, 0, 0, 0.99 ** 0.5, 0, 0], "stud finder": [0.4, 0, 0, 0, 0, 0.84 ** 0.5, 0],
             "pliers": [0, 0.8, 0.6, 0, 0, 0, 0]}
    emb = FakeEmbedder("fake-split-kind", table)
    # toolbox 2 x 0.5 x 3 x EXPLAINED = 0.75 (it was 3.0 while the drawer's two hand tools kept the kind from
    # counting as explained), drawer 0.15, shelf 0.4 x 3 = 1.2
    won = similarity.vote("spirit level", told, set(), cmap, emb)
    assert won.receptacle_key == "shelf"
    assert won.share == pytest.approx(1.2 / 2.1, abs=1e-3)
    # a hand tool is not explained by its own kind: the hammer and the mallet say where it goes
    assert similarity.vote("pliers", told, set(), cmap, emb).receptacle_key == "toolbox"
