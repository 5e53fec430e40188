"""Relations from boxes: on (support within a vertical tolerance, overlapping footprints), in (inside a
container's box), near (small gap), one location relation per object."""

import numpy as np
import pytest

from memory_node.perception.boxes import Box3D
from memory_node.perception.relations import PlacedObject, RelationTolerances, infer_relations


def obj(id, label, center, size):
    return PlacedObject(id, label, Box3D.from_center_size(np.array(center, float), np.array(size, float)))


TABLE = obj("table_1", "table", (0, 0, 0.375), (1.0, 1.0, 0.75))


def rels(*objects, **tol):
    return {(r.subject, r.predicate, r.object) for r in infer_relations(list(objects), RelationTolerances(**tol))}


def test_resting_on_a_support():
    mug = obj("mug_1", "mug", (0.2, 0.1, 0.80), (0.08, 0.08, 0.10))
    assert ("mug_1", "on", "table_1") in rels(mug, TABLE)


@pytest.mark.parametrize("z, expected", [(0.80, True), (0.82, True), (0.79, True), (0.86, False), (0.70, False)])
def test_on_needs_the_bottom_within_the_vertical_tolerance(z, expected):
    """Default 3 cm: a lifted bottom a voxel or two off is still on; floating 6 cm above or sunk is not."""
    mug = obj("mug_1", "mug", (0.2, 0.1, z), (0.08, 0.08, 0.10))
    assert (("mug_1", "on", "table_1") in rels(mug, TABLE)) is expected


@pytest.mark.parametrize("x, expected", [(0.48, True), (0.52, False), (0.60, False)])
def test_on_needs_most_of_the_footprint_over_the_support(x, expected):
    """At the table's edge (x 0.5): half of the footprint over it is enough, less is not."""
    mug = obj("mug_1", "mug", (x, 0.0, 0.80), (0.08, 0.08, 0.10))
    assert (("mug_1", "on", "table_1") in rels(mug, TABLE)) is expected


def test_the_highest_support_wins():
    book = obj("book_1", "book", (0.0, 0.0, 0.77), (0.3, 0.2, 0.04))
    mug = obj("mug_1", "mug", (0.0, 0.0, 0.84), (0.08, 0.08, 0.10))
    r = rels(book, mug, TABLE)
    assert ("mug_1", "on", "book_1") in r and ("book_1", "on", "table_1") in r
    assert ("mug_1", "on", "table_1") not in r


def test_a_thing_on_a_mat_on_a_desk_is_on_the_mat_though_noise_put_the_desk_higher():
    """The mat (1 cm) lies on the desk; its top came out 1 mm below the desk's (as under 3 cm depth noise on
    small_home): both are within the mouse's tolerance, and the mat, resting on the desk, is the support."""
    mat = obj("mat_1", "mousemat", (0.2, 0.0, 0.7545), (0.3, 0.25, 0.009))  # top 0.759
    mouse = obj("mouse_1", "mouse", (0.2, 0.0, 0.78), (0.06, 0.1, 0.04))
    desk = obj("desk_1", "desk", (0, 0, 0.38), (1.2, 0.8, 0.76))  # top 0.76
    r = rels(mat, mouse, desk)
    assert ("mouse_1", "on", "mat_1") in r and ("mat_1", "on", "desk_1") in r
    # two thin things that each pass for resting on the other: the highest top decides, as before
    mat2 = obj("mat_2", "mousemat", (0.2, 0.0, 0.7555), (0.3, 0.25, 0.009))  # top 0.760
    assert ("mouse_1", "on", "mat_2") in rels(mat, mat2, mouse)


def test_inside_a_container_and_not_on_its_shelf():
    cabinet = obj("cabinet_1", "cabinet", (2, 0, 0.45), (0.5, 0.6, 0.9))
    box = obj("box_1", "box", (2, 0, 0.12), (0.2, 0.2, 0.2))
    r = rels(box, cabinet)
    assert ("box_1", "in", "cabinet_1") in r and not any(p == "on" for _, p, _ in r)


def test_inside_needs_a_container_label_and_the_box_within_the_margin():
    table_like = obj("crate_1", "table", (2, 0, 0.45), (0.5, 0.6, 0.9))
    box = obj("box_1", "box", (2, 0, 0.12), (0.2, 0.2, 0.2))
    assert ("box_1", "in", "crate_1") not in rels(box, table_like)
    cabinet = obj("cabinet_1", "cabinet", (2, 0, 0.45), (0.5, 0.6, 0.9))
    poking_out = obj("box_2", "box", (2, 0.25, 0.5), (0.2, 0.2, 0.2))  # 5 cm out of the side
    assert ("box_2", "in", "cabinet_1") not in rels(poking_out, cabinet)
    assert ("box_2", "in", "cabinet_1") in rels(poking_out, cabinet, in_margin=0.06)


def test_innermost_container_wins():
    closet = obj("closet_1", "closet", (0, 0, 1.0), (1.0, 1.0, 2.0))
    basket = obj("basket_1", "basket", (0, 0, 0.2), (0.4, 0.4, 0.3))
    sock = obj("sock_1", "sock", (0, 0, 0.1), (0.1, 0.1, 0.05))
    r = rels(sock, basket, closet)
    assert ("sock_1", "in", "basket_1") in r and ("sock_1", "in", "closet_1") not in r
    assert ("basket_1", "in", "closet_1") in r


def test_near_is_symmetric_once_and_not_for_located_pairs():
    mug = obj("mug_1", "mug", (0.2, 0.1, 0.80), (0.08, 0.08, 0.10))
    plate = obj("plate_1", "plate", (0.2, -0.15, 0.76), (0.24, 0.24, 0.02))
    far = obj("apple_1", "apple", (3.0, 3.0, 0.05), (0.08, 0.08, 0.08))
    r = rels(mug, plate, far, TABLE)
    assert ("mug_1", "near", "plate_1") in r and ("plate_1", "near", "mug_1") not in r
    assert not any(p == "near" and "table_1" in (s, o) and "mug_1" in (s, o) for s, p, o in r)  # on, not near
    assert not any("apple_1" in (s, o) for s, _, o in r)


def test_near_is_limited_to_the_nearest_neighbours():
    cups = [obj(f"cup_{i}", "cup", (0.1 * i, 3.0, 0.05), (0.05, 0.05, 0.1)) for i in range(8)]
    r = rels(*cups, near_max=2)
    counts = {c.id: sum(c.id in (s, o) for s, p, o in r if p == "near") for c in cups}
    assert max(counts.values()) <= 4  # its own two nearest, plus being someone else's nearest


def test_a_thing_whose_bottom_was_cut_off_rests_on_the_highest_support_below_it():
    """Its lowest part was below the image's lower edge: the box's bottom is an upper bound, so a mug whose
    seen part starts 5 cm above the table top is on it (and on the stool below, it would not be)."""
    cut = PlacedObject("mug_1", "mug", Box3D.from_center_size(np.array([0.2, 0.1, 0.84]), np.array([0.08, 0.08, 0.08])),
                       bottom_open=True)
    seen = PlacedObject("mug_1", "mug", cut.box)
    stool = obj("stool_1", "stool", (0.2, 0.1, 0.2), (0.4, 0.4, 0.4))
    assert ("mug_1", "on", "table_1") in rels(cut, TABLE, stool)
    assert not {r for r in rels(seen, TABLE, stool) if r[1] == "on"}
    sunk = PlacedObject("mug_1", "mug",
                        Box3D.from_center_size(np.array([0.2, 0.1, 0.74]), np.array([0.08, 0.08, 0.08])),
                        bottom_open=True)
    assert ("mug_1", "on", "table_1") not in rels(sunk, TABLE)  # cut or not, it cannot sink into the top


def _every_pair(objects, tol=RelationTolerances()):
    """The relations by testing every pair (the definition the fast pre-filter must keep)."""
    from memory_node.perception import relations as r
    out, located = [], set()
    for a in objects:
        inside = [b for b in objects if b.id != a.id and b.label in r.DEFAULT_CONTAINER_LABELS and r._is_in(a, b, tol)]
        supports = [b for b in objects if b.id != a.id and r._is_on(a, b, tol)]
        if inside:
            b = min(inside, key=lambda o: (o.box.volume, o.id))
            out.append((a.id, "in", b.id))
        elif supports:
            b = max(supports, key=lambda o: (o.box.top, o.id))
            out.append((a.id, "on", b.id))
        else:
            continue
        located.add(frozenset((a.id, b.id)))
    near = set()
    for a in objects:
        for gap, b_id in sorted((a.box.gap(b.box), b.id) for b in objects if b.id != a.id)[:tol.near_max]:
            pair = frozenset((a.id, b_id))
            if gap <= tol.near_distance and pair not in located and pair not in near:
                near.add(pair)
                out.append((*sorted(pair)[:1], "near", sorted(pair)[1]))
    return out


def test_the_pair_filter_finds_what_testing_every_pair_finds():
    rng = np.random.default_rng(7)
    for _ in range(15):
        objects = []
        for k in range(int(rng.integers(2, 80))):
            big = rng.random() < 0.2
            center = (rng.uniform(0, 5), rng.uniform(0, 5), rng.uniform(0.2, 0.5) if big else rng.uniform(0, 1.2))
            size = (rng.uniform(0.5, 2), rng.uniform(0.5, 1.5), rng.uniform(0.4, 1)) if big else \
                tuple(rng.uniform(0.05, 0.3, 3))
            label = rng.choice(["table", "cabinet", "shelf"] if big else ["mug", "apple", "bowl"])
            o = obj(f"o{k}", label, center, size)
            sigma = rng.uniform(0.0, 0.05, 3) if rng.random() < 0.5 else None  # depth noise left in some boxes
            objects.append(PlacedObject(o.id, o.label, o.box, bottom_open=bool(rng.random() < 0.1), sigma=sigma))
        got = [(r.subject, r.predicate, r.object) for r in infer_relations(objects)]
        assert got == _every_pair(objects)


def test_noise_left_in_the_boxes_widens_the_vertical_tolerance():
    """A mug lifted 6 cm above the table top is not on it from exact depth; when lifting says its faces and
    the table's are off by 2 cm (sigma along z) each, 3 cm + 2 x 2.8 cm is, and 10 cm above still is not."""
    sigma = np.array([0.03, 0.03, 0.02])
    for z, expected in ((0.86, True), (0.90, False)):
        mug = obj("mug_1", "mug", (0.2, 0.1, z), (0.08, 0.08, 0.10))
        noisy_mug = PlacedObject("mug_1", "mug", mug.box, sigma=sigma)
        noisy_table = PlacedObject("table_1", "table", TABLE.box, sigma=sigma)
        assert ("mug_1", "on", "table_1") not in rels(mug, TABLE)
        assert (("mug_1", "on", "table_1") in rels(noisy_mug, noisy_table)) is expected
        assert ("mug_1", "on", "table_1") not in rels(noisy_mug, noisy_table, noise_k=0.0)


def test_a_thing_on_a_container_within_the_noise_margin_is_on_it_not_in_it():
    """Under noise the containment margin grows; a folder on top of a cabinet, its box within that margin of
    the cabinet's, has its centre above the cabinet's top: on, not in. A box inside stays in."""
    sigma = np.array([0.04, 0.04, 0.04])
    cabinet = PlacedObject("cabinet_1", "cabinet", Box3D.from_center_size(np.array([2.0, 0, 0.45]),
                                                                            np.array([0.5, 0.6, 0.9])), sigma=sigma)
    folder = PlacedObject("folder_1", "folder", Box3D.from_center_size(np.array([2.0, 0, 0.92]),
                                                                         np.array([0.3, 0.3, 0.06])), sigma=sigma)
    inner = PlacedObject("box_1", "box", Box3D.from_center_size(np.array([2.0, 0, 0.3]),
                                                                 np.array([0.2, 0.2, 0.2])), sigma=sigma)
    r = rels(folder, inner, cabinet)
    assert ("folder_1", "on", "cabinet_1") in r and ("folder_1", "in", "cabinet_1") not in r
    assert ("box_1", "in", "cabinet_1") in r
