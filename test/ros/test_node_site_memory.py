"""Issue 21 over real DDS: a Vega and a G1 memory node, each in its own namespace, on one PostgreSQL
database (a throwaway cluster the tests start); each answers about what the other saw."""

import json
import uuid

from ros_messages import S, T0, entity, graph


def test_two_robots_answer_about_what_the_other_saw(start_node, site_url):
    vega_ns, g1_ns = f"vega{uuid.uuid4().hex[:6]}", f"g1{uuid.uuid4().hex[:6]}"
    _, vega = start_node("vega", namespace=vega_ns, database_url=site_url, site="home")
    _, g1 = start_node("g1", namespace=g1_ns, database_url=site_url, site="home")

    g1.publish_scene_graph(graph(T0, [entity("mug_1", "mug", color="blue"), entity("table_1", "table", x=1.0)],
                                 [("mug_1", "on", "table_1")]))
    vega.publish_scene_graph(graph(T0 + S, [entity("book_1", "book", room="bedroom"),
                                            entity("shelf_1", "shelf", room="bedroom", x=2.0)],
                                   [("book_1", "on", "shelf_1")], room="bedroom"))
    g1.sync()
    vega.sync()

    # the Vega answers from what the G1 saw, and the record says whose observation it was
    where = vega.ask("where is the blue mug?")
    assert where.answer_ids and where.answer_ids[0] == f"{g1_ns}/table_1", where.answer
    [mug] = [r for r in vega.query(store="entities", text="mug").records if r.id == f"{g1_ns}/mug_1"]
    assert (json.loads(mug.json)["robot"], json.loads(mug.json)["site"]) == (g1_ns, "home")
    # and the G1 from what the Vega saw
    book = g1.ask("where is the book?")
    assert book.answer_ids and book.answer_ids[0] == f"{vega_ns}/shelf_1", book.answer
    # both robots named their things the same way; the ids stayed apart
    vega.publish_scene_graph(graph(T0 + 2 * S, [entity("mug_1", "mug", room="bedroom", color="red")], []))
    vega.sync()
    mugs = {r.id for r in g1.query(store="entities", text="mug").records}
    assert {f"{g1_ns}/mug_1", f"{vega_ns}/mug_1"} <= mugs

    # a plan for the Vega uses the G1's sighting, and comes from the Vega's own skill library
    plan = vega.plan("bring me the blue mug")
    assert plan.success, plan.error
    assert [f"{g1_ns}/mug_1"] in [list(s.args) for s in plan.plan.steps if s.skill == "pick"]
