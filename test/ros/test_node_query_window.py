"""~/query's since/until window over real DDS: what was observed between two times, through the node."""

import json

from memory_node.msg import Utterance
from memory_node.ros.conversions import ns_to_stamp
from memory_node.srv import Query
from ros_messages import S, T0, entity, graph


def test_query_since_until_over_dds(start_node):
    _, client = start_node()
    # the mug on the table at T0..T0+10 s, then out of view, then seen in the sink at T0+100 s
    client.pub_graph.publish(graph(T0, [entity("table_1", "coffee_table", x=1), entity("sink_1", "sink", x=3)], []))
    for k in range(0, 11, 2):
        client.pub_graph.publish(graph(T0 + k * S, [entity("mug_1", "mug", x=1)], [("mug_1", "on", "table_1")]))
    client.pub_graph.publish(graph(T0 + 100 * S, [entity("mug_1", "mug", x=3)], [("mug_1", "in", "sink_1")]))
    utt = Utterance(speaker="alex", text="the mug needs washing")
    utt.header.stamp = ns_to_stamp(T0 + 101 * S)
    client.pub_utterance.publish(utt)
    client.published["scene_graphs"] += 8
    client.published["utterances"] += 1
    assert client.sync(timeout=20).reached

    early = client.query(store="entities", since_ns=T0 + 3 * S, until_ns=T0 + 9 * S)
    assert not early.error and [r.id for r in early.records] == ["mug_1"]
    seen = json.loads(early.records[0].json)
    assert seen["location"]["object"] == "table_1" and seen["raw_label"] == "mug"
    # in view throughout (sightings 2 s apart, within the 5 s sighting gap): seen until the window's end
    assert early.records[0].stamp.sec == (T0 + 9 * S) // S

    late = client.query(store="entities", since_ns=T0 + 50 * S)  # open-ended window
    assert [r.id for r in late.records] == ["mug_1"] and json.loads(late.records[0].json)["location"]["object"] == "sink_1"
    assert not client.query(store="entities", since_ns=T0 + 20 * S, until_ns=T0 + 90 * S).records

    both = client.query(since_ns=T0 + 99 * S, until_ns=T0 + 102 * S)  # '' = entities and events
    texts = [(r.kind, r.text) for r in both.records]
    assert texts[0] == ("event", "alex said: the mug needs washing")
    assert ("event", "mug_1 moved from on table_1 to in sink_1") in texts and len(texts) == 3
    assert [r.id for r in both.records if r.kind == "entity"] == ["mug_1"]
    log = client.query(store="observations", since_ns=T0 + 1 * S, until_ns=T0 + 9 * S)
    assert [r.stamp.sec - T0 // S for r in log.records] == [8, 6, 4, 2]
    table = client.query(store="entities", entity_id="table_1").records
    assert json.loads(table[0].json)["raw_label"] == "coffee_table"

    bad = client.query(store="entities", as_of_ns=T0 + S, since_ns=T0)
    assert not bad.records and "not both" in bad.error
    # a request that leaves the new fields at zero is answered as before: memory now
    now = client.call("query", Query.Request(store="entities", entity_id="mug_1"), None)
    assert json.loads(now.records[0].json)["location"]["object"] == "sink_1"
