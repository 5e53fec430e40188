from memory_node.core.store import MemoryStore
from memory_node.language.resolve import norm, resolve_entities, resolve_rooms, singular, words


def ids(text: str, store: MemoryStore, **kw) -> list[str]:
    return [c.entity.id for c in resolve_entities(text, store.entities(include_absent=True), **kw)]


def test_word_normalisation() -> None:
    assert words("Where's my Wine-Glass?") == ["where", "wine-glass"]
    assert [singular(w) for w in ("mugs", "glasses", "knives", "shelves", "boxes", "berries", "glass")] == \
        ["mug", "glass", "knife", "shelf", "box", "berry", "glass"]
    assert norm("Wine glass") == "wineglass"


def test_multiword_and_plural_labels(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("wg_1", "wine glass"), mem.ent("mug_1", "mug")])
    assert ids("the wine glass", store) == ["wg_1"]
    assert ids("wine glasses", store) == ["wg_1"]
    assert ids("wineglass", store) == ["wg_1"]
    assert ids("my mugs", store) == ["mug_1"]
    assert ids("the spoon", store) == []


def test_id_and_name_match(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("mug_1", "mug"), mem.ent("mug_2", "mug", name="grandpa mug")])
    assert ids("mug_1", store) == ["mug_1"]
    assert ids("grandpa's mug", store)[0] == "mug_2"
    assert ids("the grandpa mug", store)[0] == "mug_2"


def test_attribute_words_disambiguate(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("mug_blue", "mug", attributes={"color": "blue"})])
    mem.scene(2, [mem.ent("mug_red", "mug", attributes={"color": "red"})])  # seen later
    assert ids("the mug", store)[0] == "mug_red"  # newest first without other cues
    assert ids("the blue mug", store)[0] == "mug_blue"
    assert ids("my red mug", store)[0] == "mug_red"


def test_room_hint_picks_the_one_in_that_room(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("mug_k", "mug", room="kitchen_201")])
    mem.scene(2, [mem.ent("mug_b", "mug", room="bedroom_3")])
    assert ids("the mug", store)[0] == "mug_b"
    assert ids("the mug in the kitchen", store)[0] == "mug_k"
    assert ids("the mug in the bedroom", store)[0] == "mug_b"
    assert [r.id for r in resolve_rooms("the kitchen", store.entities())] == ["kitchen_201"]


def test_furniture_hint_with_nested_room_hint(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("t_k", "table"), mem.ent("t_b", "table", room="bedroom_3"),
                  mem.ent("mug_k", "mug"), mem.ent("mug_b", "mug", room="bedroom_3")],
              [("mug_k", "on", "t_k"), ("mug_b", "on", "t_b")])
    assert ids("the mug on the table in the bedroom", store)[0] == "mug_b"
    assert ids("the mug on the table in the kitchen", store)[0] == "mug_k"


def test_present_before_absent(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("mug_old", "mug", room="bedroom_3")], room="bedroom_3")
    mem.scene(2, [mem.ent("mug_k", "mug")])
    mem.scene(3, [], room="bedroom_3", complete=True)  # the bedroom mug is gone; that view is newest
    assert ids("the mug", store) == ["mug_k", "mug_old"]


def test_rooms_are_not_objects(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("mug_1", "mug")])
    assert ids("kitchen_201", store) == []
    assert ids("kitchen_201", store, include_rooms=True) == ["kitchen_201"]


def test_apostrophe_in_a_name_is_not_only_a_possessive(store: MemoryStore, mem) -> None:
    mem.scene(1, [mem.ent("candy_1", "werthers original"), mem.ent("mug_1", "mug"),
                  mem.ent("mug_2", "mug", name="grandpa mug")])
    assert ids("the Werther's Original", store) == ["candy_1"]
    assert ids("grandpa's mug", store)[0] == "mug_2"
