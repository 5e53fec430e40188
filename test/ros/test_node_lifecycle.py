"""The memory node as a managed node (``memory_node --lifecycle``, launch argument ``lifecycle:=true``),
driven through its real lifecycle services (``~/change_state``, ``~/get_state``) by a client node over
real DDS, as a nav2-style lifecycle manager would: unconfigured at start, inputs ignored and counted and
requests refused while inactive, served once active, memory kept across cleanup, and a clean exit after
shutdown."""

import signal
import time
import uuid

import pytest
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState, GetState

from memory_node.msg import Utterance
from memory_node.ros.client import MemoryClient
from memory_node.ros.conversions import ns_to_stamp
from memory_node.ros.node import INACTIVE_ERROR
from memory_node.ros.process import NodeProcess
from ros_messages import T0, entity, graph

S = 1_000_000_000
TIMEOUT_S = 60.0  # configure loads spaCy's pipeline: seconds on a loaded 2-core machine


class LifecycleManager:
    """What nav2's lifecycle manager does with a node: call its change_state / get_state services."""

    def __init__(self, node, fqn: str) -> None:
        self.node = node
        self.change = node.create_client(ChangeState, f"{fqn}/change_state")
        self.get = node.create_client(GetState, f"{fqn}/get_state")

    def _call(self, client, request):
        # one retry: a first request can be lost while DDS matches a service (docs/operators.md: Using it from Python)
        for _ in range(2):
            future = client.call_async(request)
            rclpy.spin_until_future_complete(self.node, future, timeout_sec=TIMEOUT_S / 2)
            if future.done():
                return future.result()
        raise TimeoutError(f"{client.srv_name} did not answer")

    def state(self) -> str:
        return self._call(self.get, GetState.Request()).current_state.label

    def transition(self, transition_id: int) -> bool:
        req = ChangeState.Request()
        req.transition.id = transition_id
        return self._call(self.change, req).success


@pytest.fixture
def managed(ros, tmp_path):
    """(process, manager, memory client) of a node started with --lifecycle in a fresh namespace."""
    ns = f"t{uuid.uuid4().hex[:8]}"
    log_path = tmp_path / "node.log"
    log = open(log_path, "w")
    proc = NodeProcess("vega", log=log, namespace=ns, database_path=str(tmp_path / "memory.db"),
                       arguments=["--lifecycle"], diagnostics_period=0.2)
    node = rclpy.create_node(f"manager_{uuid.uuid4().hex[:6]}")
    manager = LifecycleManager(node, f"/{ns}/memory_node")
    client = MemoryClient(node_name=f"/{ns}/memory_node", namespace=f"/{ns}",
                          client_name=f"client_{uuid.uuid4().hex[:6]}", request_timeout=20.0)
    assert manager.get.wait_for_service(timeout_sec=TIMEOUT_S), log_path.read_text()
    yield proc, manager, client, log_path
    client.close()
    node.destroy_node()
    proc.stop()
    log.close()


def _diagnostics(client: MemoryClient, timeout: float = 20.0) -> dict[str, str]:
    """The node's next /diagnostics values."""
    got: list[DiagnosticArray] = []
    sub = client.node.create_subscription(DiagnosticArray, "/diagnostics", got.append, 10)
    try:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            client.spin(0.1)
            for msg in got:
                for status in msg.status:
                    if status.name == client.diagnostics_name:
                        return {kv.key: kv.value for kv in status.values}
        raise AssertionError("no /diagnostics from the node")
    finally:
        client.node.destroy_subscription(sub)


def _spin_until(client: MemoryClient, done, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not done():
        assert time.monotonic() < deadline, what
        client.spin(0.05)


def _publish_mug(client: MemoryClient, t_ns: int, mug: str = "mug_1") -> None:
    client.publish_scene_graph(graph(t_ns, [entity("table_1", "table"), entity(mug, "mug", color="blue")],
                                     [(mug, "on", "table_1")]))


def test_transitions_through_the_real_lifecycle_services(managed) -> None:
    proc, manager, client, log_path = managed
    assert manager.state() == "unconfigured"
    assert not client.clients["ask"].wait_for_service(timeout_sec=1.0)  # nothing served before configure

    assert manager.transition(Transition.TRANSITION_CONFIGURE)
    assert manager.state() == "inactive"
    # inactive: inputs are ignored (and counted as handled, so ~/sync returns), requests answer an error
    client.wait_for_node(timeout=TIMEOUT_S, alive=proc.alive)
    _publish_mug(client, T0, mug="mug_ignored")
    client.publish_utterance(_utterance("the ignored mug is mine"))
    assert client.sync(timeout=20).reached
    ask = client.ask("where is the mug?")
    assert not ask.success and ask.error == INACTIVE_ERROR and "inactive" in ask.error
    plan = client.plan("bring me the mug")
    assert not plan.success and plan.error == INACTIVE_ERROR
    assert client.query(store="entities").error == INACTIVE_ERROR
    assert client.scene_graph().error == INACTIVE_ERROR
    assert client.forget(everything=True).error == INACTIVE_ERROR
    diag = _diagnostics(client)
    assert diag["active"] == "False"
    assert diag["ignored_scene_graphs"] == "1" and diag["ignored_utterances"] == "1"
    assert diag["stored_entities"] == "0"
    # the heartbeat goes from configure on, saying inactive; activate says active at once
    _spin_until(client, lambda: client.heartbeat.ready, "no heartbeat from a configured node")
    assert client.heartbeat.last.active is False

    assert manager.transition(Transition.TRANSITION_ACTIVATE)
    assert manager.state() == "active"
    _spin_until(client, lambda: client.heartbeat.last.active, "the heartbeat did not say active")
    _publish_mug(client, T0 + S)
    assert client.sync(timeout=20).reached
    ask = client.ask("where is the mug?")
    assert ask.success and "mug_1" in ask.answer and ask.answer_ids[0] == "table_1", ask
    ids = {r.id for r in client.query(store="entities").records}
    assert "mug_1" in ids and "mug_ignored" not in ids  # what came while inactive was never written
    assert client.plan("bring me the mug").success

    assert manager.transition(Transition.TRANSITION_DEACTIVATE)
    assert manager.state() == "inactive"
    assert client.ask("where is the mug?").error == INACTIVE_ERROR

    # cleanup closes memory; configure + activate open it again with everything committed before
    assert manager.transition(Transition.TRANSITION_CLEANUP)
    assert manager.state() == "unconfigured"
    assert manager.transition(Transition.TRANSITION_CONFIGURE)
    assert manager.transition(Transition.TRANSITION_ACTIVATE)
    assert "(mug_1) is on the table" in client.ask("where is the mug?").answer

    # shutdown from active: memory closed, the node finalized; it exits 0 on SIGINT like the plain node
    assert manager.transition(Transition.TRANSITION_ACTIVE_SHUTDOWN)
    assert manager.state() == "finalized"
    assert proc.alive()
    proc.proc.send_signal(signal.SIGINT)
    assert proc.proc.wait(timeout=30) == 0
    out = log_path.read_text()
    assert "shut down: memory closed (finalized)" in out
    for bad in ("Traceback", "RCLError", "KeyboardInterrupt", "terminate called"):
        assert bad not in out, out


def test_an_invalid_transition_is_refused_and_sigint_while_unconfigured_exits_0(managed) -> None:
    proc, manager, client, log_path = managed
    assert not manager.transition(Transition.TRANSITION_ACTIVATE)  # unconfigured cannot be activated
    assert manager.state() == "unconfigured"
    proc.proc.send_signal(signal.SIGTERM)
    assert proc.proc.wait(timeout=30) == 0
    assert "SIGTERM: shutting down" in log_path.read_text()


def _utterance(text: str) -> Utterance:
    msg = Utterance(speaker="alice", text=text)
    msg.header.stamp = ns_to_stamp(T0 + 1)
    return msg


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_configure_exits_0_with_memory_closed(managed, signum) -> None:
    """Configure loads memory and the parser (seconds): a signal meanwhile lets it finish, then the node
    cleans up and exits 0, as the plain node does during start-up."""
    proc, manager, client, log_path = managed
    req = ChangeState.Request()
    req.transition.id = Transition.TRANSITION_CONFIGURE
    manager.change.wait_for_service(timeout_sec=TIMEOUT_S)
    manager.change.call_async(req)
    deadline = time.monotonic() + TIMEOUT_S
    while "memory at" not in log_path.read_text() and time.monotonic() < deadline:
        rclpy.spin_once(manager.node, timeout_sec=0.05)  # until configure has opened memory
    proc.proc.send_signal(signum)
    assert proc.proc.wait(timeout=30) == 0
    out = log_path.read_text()
    assert f"{signal.Signals(signum).name}: shutting down" in out, out
    for bad in ("Traceback", "RCLError", "KeyboardInterrupt", "terminate called"):
        assert bad not in out, out
