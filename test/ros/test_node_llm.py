"""The node with llm.enabled talks to an OpenAI-compatible server on loopback (a scripted one, in this test
process) and still answers when the server fails; /diagnostics counts the calls; a slow model does not hold up
ingestion."""

import sys
import time
from pathlib import Path

import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from memory_node.srv import Ask
from ros_messages import T0, S, entity, graph

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "planning"))
from llm_server import ScriptedLlm, reply, tool_call, tool_results  # noqa: E402

PLAN = [("navigate_to", ["cabinet_1"]), ("open", ["cabinet_1"]), ("pick", ["mug_1"]), ("handover", ["mug_1"])]


def publish_mug_story(client):
    """A mug seen on the table, later inside the closed cabinet."""
    client.pub_graph.publish(graph(T0, [entity("mug_1", "mug"), entity("table_1", "table", x=1),
                                        entity("cabinet_1", "cabinet", x=2, states=["closed"])],
                                   [("mug_1", "on", "table_1")], complete=True))
    client.pub_graph.publish(graph(T0 + 60 * S, [entity("mug_1", "mug", x=2)], [("mug_1", "in", "cabinet_1")]))
    client.published["scene_graphs"] += 2
    client.sync(timeout=10)


def diagnostics(client, until):
    seen = []
    sub = client.node.create_subscription(DiagnosticArray, "/diagnostics", seen.append, 10)
    deadline = time.monotonic() + 5
    values = {}
    while time.monotonic() < deadline:
        client.spin(0.1)
        for d in seen:
            for s in d.status:
                if s.name == client.diagnostics_name:
                    values = {kv.key: kv.value for kv in s.values}
        if until(values):
            break
    client.node.destroy_subscription(sub)
    return values


def test_ask_and_plan_through_the_llm_with_fallback(start_node):
    def answer(body):
        (found,) = tool_results(body)
        assert found["entities"][0]["id"] == "mug_1"
        return reply(tool_call("answer", {"answer": "The mug is in the cabinet.", "answer_ids": ["cabinet_1"],
                                          "evidence_ids": [], "confidence": 0.7, "known": True}))

    with ScriptedLlm([reply(tool_call("find_entities", {"query": "mug"})), answer,
                      reply(tool_call("entity_state", {"entity_id": "mug_1"})),
                      reply(tool_call("submit_plan", {"steps": [{"skill": s, "args": a} for s, a in PLAN],
                                                      "explanation": "fetch the mug from the cabinet"})),
                      reply(status=500)]) as server:
        _, client = start_node("vega", **{"llm.enabled": True, "llm.base_url": server.url,
                                          "llm.model": "scripted"})
        publish_mug_story(client)

        r = client.ask("where is the mug?")
        assert r.success and r.answer == "The mug is in the cabinet." and list(r.answer_ids) == ["cabinet_1"]
        p = client.plan("bring me the mug")
        assert p.success, p.error
        assert [(s.skill, list(s.args)) for s in p.plan.steps] == PLAN
        assert p.plan.explanation == "fetch the mug from the cabinet"
        fallback = client.ask("where is the mug?")  # the server fails: the deterministic answer
        assert fallback.success and "cabinet_1" in fallback.answer_ids and fallback.answer != r.answer
        assert not server.errors, server.errors

        values = diagnostics(client, lambda v: v.get("llm_requests") == "3")
        assert values["llm_enabled"] == "True"
        assert (values["llm_requests"], values["llm_calls"], values["llm_fallbacks"]) == ("3", "5", "1")
        assert values["llm_tokens_in"] == str(server.tokens_in) and values["llm_tokens_out"] == str(server.tokens_out)
        assert values["llm_write_calls"] == "0" and "HTTP 500" in values["llm_last_fallback_reason"]


def test_a_slow_llm_request_does_not_hold_up_ingestion(start_node):
    """While the model takes seconds over a question, a scene graph published meanwhile is ingested and
    queryable at once; the model's next memory tool call already sees it (its reader sees what the writer
    committed)."""
    delay = 3.0
    seen: dict[str, list[str]] = {}

    def answer(body):
        (found,) = tool_results(body)
        seen["ids"] = [e["id"] for e in found["entities"]]
        return reply(tool_call("answer", {"answer": "The apple is on the table.", "answer_ids": ["apple_1"],
                                          "evidence_ids": [], "confidence": 0.7, "known": True}))

    with ScriptedLlm([reply(tool_call("find_entities", {"query": "apple"}), sleep_s=delay), answer]) as server:
        _, client = start_node("vega", **{"llm.enabled": True, "llm.base_url": server.url,
                                          "llm.model": "scripted", "llm.timeout_s": 15.0})
        publish_mug_story(client)

        pending = client.clients["ask"].call_async(Ask.Request(question="where is the apple?"))
        deadline = time.monotonic() + 10
        while server.calls == 0 and time.monotonic() < deadline:  # the model has the question
            client.spin(0.01)
        assert server.calls == 1
        sent = time.monotonic()
        client.pub_graph.publish(graph(T0 + 120 * S, [entity("apple_1", "apple", x=1)], [("apple_1", "on", "table_1")]))
        client.published["scene_graphs"] += 1
        client.sync(timeout=10)
        ingested_s = time.monotonic() - sent
        apple = client.query(store="entities", entity_id="apple_1").records
        queried_s = time.monotonic() - sent
        print(f"scene graph ingested {ingested_s * 1000:.0f} ms and queried {queried_s * 1000:.0f} ms after it "
              f"was published, with an LLM request in flight")
        assert [r.id for r in apple] == ["apple_1"]
        assert not pending.done(), "the LLM answer came first: ingestion waited for it"
        assert queried_s < delay / 2, f"ingestion took {queried_s:.2f} s while the model was busy"

        rclpy.spin_until_future_complete(client.node, pending, timeout_sec=20)
        r = pending.result()
        assert r is not None and r.success and r.answer == "The apple is on the table."
        assert list(r.answer_ids) == ["apple_1"] and "apple_1" in seen["ids"]
        assert not server.errors, server.errors


def test_request_mode_over_the_services(start_node):
    """llm.mode request: the model writes the typed request; the node grounds, answers, plans and validates
    it as the parser's; an unusable reply falls back to the parser, and /diagnostics says so."""
    import json

    def where(body):
        assert body["response_format"]["type"] == "json_schema" and "tools" not in body
        assert json.loads(body["messages"][-1]["content"])["utterance"] == "where did the mug get to?"
        return reply(content=json.dumps({"kind": "question", "intent": "where",
                                         "objects": [{"text": "the mug", "head": "mug", "determiner": "the"}]}))

    fetch = reply(content=json.dumps({"kind": "command", "intent": "fetch", "recipient": "speaker", "polite": True,
                                      "objects": [{"text": "the mug", "head": "mug", "determiner": "the"}]}))
    with ScriptedLlm([where, fetch, reply(content="The mug? Somewhere, I guess.")]) as server:
        _, client = start_node("vega", **{"llm.enabled": True, "llm.mode": "request", "llm.base_url": server.url,
                                          "llm.model": "scripted"})
        publish_mug_story(client)

        r = client.ask("where did the mug get to?")
        assert r.success and "cabinet_1" in r.answer and list(r.answer_ids)[0] == "cabinet_1", r.answer
        p = client.plan("could you grab the mug for me?")
        assert p.success, p.error
        steps = [(s.skill, list(s.args)) for s in p.plan.steps]
        assert steps.index(("open", ["cabinet_1"])) < steps.index(("pick", ["mug_1"]))
        fallback = client.ask("where did the mug get to?")  # not JSON: the parser reads it
        assert fallback.success and "cabinet_1" in fallback.answer_ids
        assert not server.errors, server.errors

        values = diagnostics(client, lambda v: v.get("llm_requests") == "3")
        assert (values["llm_requests"], values["llm_calls"], values["llm_fallbacks"]) == ("3", "3", "1")
        assert values["llm_tool_calls"] == "0" and values["llm_tokens_in"] == str(server.tokens_in)
        assert "not JSON" in values["llm_last_fallback_reason"]
