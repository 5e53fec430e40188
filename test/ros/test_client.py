"""MemoryClient's service calls: a timeout and one retry, against a server that loses a request and against
the real node killed and respawned under a long-lived client."""

import threading
import time
import uuid

import pytest
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

from memory_node.ros.client import ATTEMPTS, MemoryClient
from memory_node.srv import Ask
from ros_messages import T0, entity, graph


class LosingAskServer:
    """``<ns>/memory_node/ask`` that never answers its first ``lose`` requests (as DDS loses a request sent
    before the service's endpoints are matched) and answers the others at once."""

    def __init__(self, ns: str, lose: int):
        self.lose = lose
        self.requests = 0
        self.node = Node(f"fake_{uuid.uuid4().hex[:6]}", namespace=f"/{ns}", use_global_arguments=False)
        self.executor = SingleThreadedExecutor()
        # reentrant: a request left waiting must not hold the next one back (a group would serialise them)
        self.node.create_service(Ask, f"/{ns}/memory_node/ask", self._ask, callback_group=ReentrantCallbackGroup())
        self.executor.add_node(self.node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    async def _ask(self, request, response):
        self.requests += 1
        if self.requests <= self.lose:
            await self.executor.create_future()  # never done: this request is never answered
        response.success = True
        response.answer = f"answer to {request.question}"
        return response

    def _spin(self):
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.05)

    def close(self):
        self._stop.set()
        self._thread.join(timeout=5)
        self.executor.shutdown(timeout_sec=0)
        self.node.destroy_node()


@pytest.fixture
def losing_server(ros):
    servers = []
    ns = f"t{uuid.uuid4().hex[:8]}"

    def start(lose):
        server = LosingAskServer(ns, lose)
        client = MemoryClient(node_name=f"/{ns}/memory_node", namespace=f"/{ns}",
                              client_name=f"client_{uuid.uuid4().hex[:6]}", request_timeout=1.0)
        servers.append((server, client))
        deadline = time.monotonic() + 30
        while not client.clients["ask"].wait_for_service(timeout_sec=0.2):
            assert time.monotonic() < deadline, "fake server not discovered"
        return server, client

    yield start
    for server, client in servers:
        client.close()
        server.close()


def test_lost_requests_are_sent_again_and_answered(losing_server):
    server, client = losing_server(lose=ATTEMPTS - 1)
    started = time.monotonic()
    r = client.ask("where is the mug?")
    took = time.monotonic() - started
    assert r.answer == "answer to where is the mug?"
    assert server.requests == ATTEMPTS
    assert ATTEMPTS - 1 - 0.1 < took < 30, took  # the lost attempts' timeouts (1 s each), then an answer


def test_as_many_lost_requests_as_attempts_are_a_timeout_error(losing_server):
    server, client = losing_server(lose=ATTEMPTS)
    with pytest.raises(TimeoutError, match=f"{ATTEMPTS} times"):
        client.ask("where is the mug?", timeout=0.5)
    assert server.requests == ATTEMPTS
    # nothing is left pending on the client once the call has given up
    assert not client.clients["ask"]._pending_requests


def test_a_long_lived_client_is_answered_after_the_node_is_killed_and_respawned(start_node, tmp_path):
    db = tmp_path / "respawn.db"
    ns = f"t{uuid.uuid4().hex[:8]}"
    node, client = start_node(namespace=ns, database_path=db)
    client.publish_scene_graph(graph(T0, [entity("mug_1", "mug")], []))
    client.sync(timeout=20)
    node.kill()  # kill -9: no shutdown handler runs
    _, fresh = start_node(namespace=ns, database_path=db)  # the same name, on the same file
    # the first client has lived through the respawn; its calls get answered (a lost one is retried)
    client.reset_counts()
    for _ in range(3):
        assert "mug_1" in client.ask("where is the mug?").evidence_ids
    assert "mug_1" in fresh.ask("where is the mug?").evidence_ids
