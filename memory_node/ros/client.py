"""A Python client of the memory node's ROS contract: publish experience, wait until it is ingested, ask.

Written only against the topic and service names of the contract, so it is also what an evaluation or a
robot's task layer would write. Used by the demo, the Genesis bridge and the integration tests.

Every service call has a timeout and is sent again when unanswered: measured here, a long-lived client's
requests right after the node was killed and respawned can be lost in DDS service matching (never
answered) for up to ~25 s, while a fresh client is answered at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import rclpy
from rclpy.node import Node
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy

from memory_node.core.models import (
    ActivityObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.msg import Activity, Plan, SceneGraph, SkillFeedback, Utterance
from memory_node.ros import conversions as conv
from memory_node.ros.heartbeat import HeartbeatWatch
from memory_node.srv import Ask, Forget, GetSceneGraph, PlanTask, Query, Sync


# per call: after a respawn, requests were lost for up to ~25 s (see MemoryClient.call), so with 10 s per
# attempt four attempts cover it
ATTEMPTS = 4
REQUEST_TIMEOUT_S = 10.0  # per attempt; deterministic answers take milliseconds, LLM mode up to llm.timeout_s


class MemoryClient:
    """Publishes on the node's input topics and calls its services (``<node_name>/ask`` etc.).

    ``node``: put the client's publishers, subscriptions and service clients on this node instead of one
    of its own (the Genesis bridge does, so its process is one ROS node whatever launch renames).
    ``request_timeout``: seconds one attempt of a service call waits (see :meth:`call`)."""

    def __init__(self, node_name: str = "/memory_node", namespace: str = "", client_name: str = "memory_client",
                 node: Node | None = None, request_timeout: float = REQUEST_TIMEOUT_S):
        if not rclpy.ok():
            rclpy.init()
        self._own_node = node is None
        self.node = Node(client_name, namespace=namespace) if node is None else node
        self.request_timeout = float(request_timeout)
        ns = namespace.rstrip("/")
        self.namespace = f"{ns}/" if ns else ""  # prefix of the input topics ("" = relative names)
        # keep all: memory must not lose an event because the node was busy; publish() waits instead
        qos = QoSProfile(history=HistoryPolicy.KEEP_ALL, depth=1, reliability=ReliabilityPolicy.RELIABLE)
        self.pub_graph = self.node.create_publisher(SceneGraph, f"{ns}/scene_graph" if ns else "scene_graph", qos)
        self.pub_feedback = self.node.create_publisher(SkillFeedback, f"{ns}/skill_feedback" if ns else
                                                       "skill_feedback", qos)
        self.pub_utterance = self.node.create_publisher(Utterance, f"{ns}/user_utterance" if ns else
                                                        "user_utterance", qos)
        self.pub_activity = self.node.create_publisher(Activity, f"{ns}/activity" if ns else "activity", qos)
        base = node_name.rstrip("/")
        self.node_name = base  # the memory node's fully qualified name
        self.diagnostics_name = conv.diagnostics_name(base)  # its /diagnostics status
        self.clients = {
            "ask": self.node.create_client(Ask, f"{base}/ask"),
            "plan": self.node.create_client(PlanTask, f"{base}/plan"),
            "query": self.node.create_client(Query, f"{base}/query"),
            "scene_graph": self.node.create_client(GetSceneGraph, f"{base}/scene_graph"),
            "forget": self.node.create_client(Forget, f"{base}/forget"),
            "sync": self.node.create_client(Sync, f"{base}/sync"),
        }
        self.plans: list[Plan] = []
        self.node.create_subscription(Plan, f"{base}/plans", self.plans.append, 10)
        # ready / alive / restarted, as the node's ~/heartbeat says (updated whenever the client spins)
        self.heartbeat = HeartbeatWatch(self.node, base)
        self.published = {"scene_graphs": 0, "skill_feedback": 0, "utterances": 0, "images": 0, "activities": 0}

    # ---- connection ----------------------------------------------------------------------------

    def wait_for_node(self, timeout: float = 30.0, alive: Callable[[], bool] = lambda: True) -> None:
        """Block until every service is available and the input topics are matched to the node.

        ``alive`` lets a caller that started the node stop waiting as soon as the process died."""
        deadline = time.monotonic() + timeout
        for client in self.clients.values():
            while not client.wait_for_service(timeout_sec=0.2):
                if not alive():
                    raise RuntimeError("the memory node process exited before its services came up")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"memory node service {client.srv_name} not available after {timeout} s")
        for pub in (self.pub_graph, self.pub_feedback, self.pub_utterance, self.pub_activity):
            while pub.get_subscription_count() == 0:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no subscriber on {pub.topic_name} after {timeout} s")
                rclpy.spin_once(self.node, timeout_sec=0.05)

    def call(self, name: str, request: Any, timeout: float | None = None) -> Any:
        """Call service ``name``; an attempt unanswered after ``timeout`` seconds (default
        ``request_timeout``) is sent again, up to ``ATTEMPTS`` in all, and the first answer to any attempt is
        returned. TimeoutError when none is answered.

        Why retries: a request sent just after the node was killed and respawned can be lost in DDS service
        matching. One retry was not enough: in 3 of 5 kill -9 / respawn cycles both attempts were lost, and
        requests were answered again only 20-25 s after the respawn (``python -m memory_node.bench.faults``;
        a new service client fared no better). Earlier attempts stay pending meanwhile, so a slow answer is
        not thrown away. Keep ``timeout`` above the node's slowest answer (LLM mode: ``llm.timeout_s``): a
        retried ``~/plan`` that the node was still working on is planned, and published on ``~/plans``,
        again."""
        timeout = self.request_timeout if timeout is None else float(timeout)
        client = self.clients[name]
        futures = []
        try:
            for _attempt in range(ATTEMPTS):
                futures.append(client.call_async(request))
                end = time.monotonic() + timeout
                while True:
                    answered = next((f for f in futures if f.done()), None)
                    if answered is not None:
                        return answered.result()
                    remaining = end - time.monotonic()
                    if remaining <= 0:
                        break
                    rclpy.spin_once(self.node, timeout_sec=min(0.05, remaining))
            raise TimeoutError(f"{client.srv_name} did not answer within {timeout} s, {ATTEMPTS} times")
        finally:
            for f in futures:  # an answer arriving later is dropped, not kept forever
                if not f.done():
                    client.remove_pending_request(f)

    def spin(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            rclpy.spin_once(self.node, timeout_sec=min(0.05, max(0.0, end - time.monotonic())))

    def close(self) -> None:
        """Destroy the client's own node (a node passed in stays its owner's)."""
        if self._own_node:
            self.node.destroy_node()

    # ---- publishing ----------------------------------------------------------------------------

    def publish_scene_graph(self, graph: SceneGraphObservation | SceneGraph) -> None:
        msg = graph if isinstance(graph, SceneGraph) else conv.observation_to_msg(graph)
        self.pub_graph.publish(msg)
        self.published["scene_graphs"] += 1

    def publish_skill_feedback(self, fb: SkillFeedbackObservation | SkillFeedback) -> None:
        msg = fb if isinstance(fb, SkillFeedback) else conv.skill_feedback_to_msg(fb)
        self.pub_feedback.publish(msg)
        self.published["skill_feedback"] += 1

    def publish_utterance(self, utt: UtteranceObservation | Utterance) -> None:
        msg = utt if isinstance(utt, Utterance) else conv.utterance_to_msg(utt)
        self.pub_utterance.publish(msg)
        self.published["utterances"] += 1

    def publish_activity(self, act: ActivityObservation | Activity) -> None:
        msg = act if isinstance(act, Activity) else conv.activity_to_msg(act)
        self.pub_activity.publish(msg)
        self.published["activities"] += 1

    def reset_counts(self) -> None:
        """Forget what was published: call after (re)starting the node, whose counts start at zero."""
        self.published = dict.fromkeys(self.published, 0)

    def sync(self, timeout: float = 10.0, check: bool = True) -> Sync.Response:
        """Wait until the node has processed everything this client published; with ``check`` a shortfall
        is an error (best-effort camera topics may drop messages: pass ``check=False`` and read counts)."""
        req = Sync.Request(timeout=float(timeout), **self.published)
        resp = self.call("sync", req, timeout=timeout + 5.0)
        if check and not resp.reached:
            got = {k: getattr(resp, k) for k in self.published}
            raise TimeoutError(f"node ingested {got}, client published {self.published}")
        return resp

    # ---- requests ------------------------------------------------------------------------------

    def ask(self, question: str, as_of_ns: int = 0, speaker: str = "", timeout: float | None = None) -> Ask.Response:
        return self.call("ask", Ask.Request(question=question, as_of=conv.ns_to_stamp(as_of_ns), speaker=speaker),
                         timeout)

    def plan(self, instruction: str, robot: str = "", speaker: str = "",
             timeout: float | None = None) -> PlanTask.Response:
        return self.call("plan", PlanTask.Request(instruction=instruction, robot=robot, speaker=speaker), timeout)

    def query(self, store: str = "", text: str = "", room: str = "", entity_id: str = "", as_of_ns: int = 0,
              limit: int = 0, timeout: float | None = None, since_ns: int = 0,
              until_ns: int = 0) -> Query.Response:
        """~/query; ``since_ns``/``until_ns`` (0 = unbounded) ask what was observed in that window."""
        return self.call("query", Query.Request(store=store, text=text, room=room, entity_id=entity_id,
                                                as_of=conv.ns_to_stamp(as_of_ns), limit=limit,
                                                since=conv.ns_to_stamp(since_ns),
                                                until=conv.ns_to_stamp(until_ns)), timeout)

    def scene_graph(self, room: str = "", as_of_ns: int = 0, timeout: float | None = None) -> GetSceneGraph.Response:
        return self.call("scene_graph", GetSceneGraph.Request(room=room, as_of=conv.ns_to_stamp(as_of_ns)), timeout)

    def forget(self, ids: list[str] | None = None, room: str = "", since_ns: int = 0, until_ns: int = 0,
               everything: bool = False, timeout: float | None = None) -> Forget.Response:
        return self.call("forget", Forget.Request(ids=ids or [], room=room, since=conv.ns_to_stamp(since_ns),
                                                  until=conv.ns_to_stamp(until_ns), everything=everything),
                         timeout)
