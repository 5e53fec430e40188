"""LLM mode of ``~/ask`` and ``~/plan``: a model reads memory through typed tools, memory checks its output.

Two modes (``LlmConfig.mode``, the node's ``llm.mode``):

- ``tools`` (the default, described below): the model answers or plans itself through memory tools;
- ``request``: the model only *understands*: one structured-output call turns the utterance into the typed
  ``Request`` of ``language/request.py`` (llm/request.py says what is asked and what is checked),
  and that request goes through ``answer_question(..., request=req)`` / ``plan_request(..., request=req)``,
  i.e. the same grounding, answering, planning and validation as the deterministic parser's. A reply that is
  not a valid request (not JSON, failing the schema, an unknown intent, a phrase the utterance does not say),
  a refusal, an error or a timeout falls back to the parser, and the account says why. The account records
  the understand call (tokens, latency); ``tool_calls`` stays 0.

Any OpenAI-compatible chat endpoint works (OpenAI, vLLM, Ollama, llama.cpp's server): the model gets the
request and a fixed set of JSON-schema tools (llm/tools.py) implemented over the same functions the
deterministic path uses (retrieval, latest state, history and as-of state, events, scene graph, rules and
preferences, routines and habits, known failures). It never sees memory except through those tools, and
what it returns is only a proposal:

- its final output is a tool call (``answer`` / ``submit_plan``) validated against a pydantic schema;
- an answer may only name ids memory holds, and must rest on at least one memory tool call;
- a plan goes through the same ``PlanValidator`` as every deterministic plan (library skills, memory ids,
  preconditions in a dry run, known failures); an invalid submission is sent back to the model with the
  problems while iterations are left, and otherwise replaced by the deterministic planner's result;
- any error, timeout, malformed output or exhausted budget falls back to ``answer_question`` /
  ``plan_request``, and the account says why. So LLM mode never returns less than the deterministic path
  would, and never a plan the validator rejects.

Budgets bound cost and latency: a question may make at most ``max_question_tool_calls`` memory tool calls,
a plan at most ``max_plan_iterations`` model calls; then one last call is forced to the final tool
(``tool_choice`` naming it, no other tool offered). ``timeout_s`` bounds all model calls of one request
together; client retries are off so the count of calls is the count billed.

Text that comes out of memory (utterances above all, but also names, attributes and event texts) is data:
it reaches the model only inside JSON tool results, quoted and truncated, and the system prompt says it is
never an instruction. What such text can make the model do is bounded by the schemas and the validator
(the hard guarantee); it cannot add tools, skills or ids, or lift a budget.

Every request returns an ``LlmAccount`` (model calls, tokens from the API's ``usage``, latency; the write
side is always zero because memory is written without an LLM). ``LlmStats`` sums accounts for a node's
``/diagnostics``. The ``openai`` package is imported only when a request is made, so the deterministic
path needs nothing of it.

Nothing here writes memory, so a node serves these requests on a thread of its own over a read-only store
(``MemoryStore.open_reader``) while its executor keeps ingesting. Reads are grouped into snapshots
(``MemoryStore.snapshot``): the world state at the start of a request, then one per tool call and one for a
fallback, so each sees whole messages and every tool call sees what was committed before it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..core.models import Answer, Plan, PlanResult, SkillCall
from ..core.store import MemoryStore
from ..language.conversation import Conversation
from ..language.request import Request
from . import request as llm_request
from ..requests.dispatch import answer_question, plan_request
from .tools import DATA_NOTE, MemoryTools, dump_result, quote
from ..world.phrasing import step_text
from ..planning.poses import locate_steps
from ..planning.skills import SkillLibrary
from ..planning.validator import PlanValidator
from ..world.state import WorldState

log = logging.getLogger(__name__)

# Bounds of one request beyond what the tools bound (llm/tools.py).
MAX_TOOL_CALLS_PER_TURN = 8
MAX_PLAN_STEPS = 30
NO_KEY_PLACEHOLDER = "not-needed"  # local servers take any key; the client refuses to start without one
MODES = ("tools", "request")


# ---- configuration and accounting ----------------------------------------------------------------


@dataclass(frozen=True)
class LlmConfig:
    """Where the model is and how much one request may spend (the node's ``llm.*`` parameters)."""

    base_url: str = ""  # '' = the OpenAI API
    model: str = ""
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 20.0  # all model calls of one request together
    max_question_tool_calls: int = 5
    max_plan_iterations: int = 8
    max_output_tokens: int = 1024
    temperature: float = 0.0  # sent to other endpoints than the OpenAI API (see _Request.complete)
    # 'tools': the model answers / plans through memory tools; 'request': it only turns the utterance into
    # the typed Request (structured output), answered / planned by the deterministic path (module docstring)
    mode: str = "tools"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"llm.mode must be one of {', '.join(map(repr, MODES))}, not {self.mode!r}")


class LlmAccount(BaseModel):
    """What one request cost and how it ended. ``used_llm``: the result is the model's (validated);
    ``fallback``: the deterministic path answered instead, for ``fallback_reason``."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["question", "plan"]
    mode: Literal["tools", "request"] = "tools"
    model: str = ""
    model_calls: int = 0
    tool_calls: int = 0  # memory tool calls executed for the model
    tokens_in: int = 0  # prompt tokens, as the API's usage reports them
    tokens_out: int = 0  # completion tokens
    calls_without_usage: int = 0  # responses that reported no usage (their tokens are not counted)
    llm_latency_s: float = 0.0  # waiting for the model
    latency_s: float = 0.0  # the whole request: model, tools, validation and any fallback
    forced_final: bool = False  # the budget ran out and the final tool was forced
    used_llm: bool = False
    fallback: bool = False
    fallback_reason: str = ""
    intent: str = ""  # request mode: the intent of the model's request, when it was used
    # Memory is written without an LLM (DESIGN.md): the write side of every request is zero.
    write_model_calls: int = 0
    write_tokens_in: int = 0
    write_tokens_out: int = 0

    def summary(self) -> str:
        how = "llm" if self.used_llm else f"fallback ({self.fallback_reason})"
        if self.mode == "request":
            how += f" (understood as {self.intent})" if self.used_llm else " (request mode: the parser)"
        return (f"{self.kind}: {how}; {self.model_calls} model calls, {self.tool_calls} tool calls, "
                f"{self.tokens_in} tokens in / {self.tokens_out} out, {self.latency_s:.3f} s "
                f"({self.llm_latency_s:.3f} s in the model)")


@dataclass
class LlmStats:
    """Running totals of a node's LLM requests, for ``/diagnostics``. Thread-safe: requests are served on
    one thread and the totals published from another."""

    requests: int = 0
    calls: int = 0
    tool_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    fallbacks: int = 0
    latency_s: float = 0.0
    last_fallback_reason: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)

    def add(self, account: LlmAccount) -> None:
        with self._lock:
            self.requests += 1
            self.calls += account.model_calls
            self.tool_calls += account.tool_calls
            self.tokens_in += account.tokens_in
            self.tokens_out += account.tokens_out
            self.latency_s += account.latency_s
            if account.fallback:
                self.fallbacks += 1
                self.last_fallback_reason = account.fallback_reason

    def as_dict(self) -> dict[str, int | float | str]:
        with self._lock:
            return self._totals()

    def _totals(self) -> dict[str, int | float | str]:
        return {"llm_requests": self.requests, "llm_calls": self.calls, "llm_tool_calls": self.tool_calls,
                "llm_tokens_in": self.tokens_in, "llm_tokens_out": self.tokens_out,
                "llm_fallbacks": self.fallbacks, "llm_latency_s": round(self.latency_s, 3),
                "llm_write_calls": 0, "llm_write_tokens": 0,
                "llm_last_fallback_reason": self.last_fallback_reason}


# ---- what the model must return --------------------------------------------------------------------


class LlmAnswer(BaseModel):
    """Arguments of the ``answer`` tool. Extra keys are ignored; missing or ill-typed ones are not."""

    answer: str = Field(min_length=1, max_length=2000)
    answer_ids: list[str] = Field(default_factory=list, max_length=20)
    evidence_ids: list[str] = Field(default_factory=list, max_length=50)
    confidence: float = Field(ge=0.0, le=1.0)
    known: bool = True  # False: memory holds nothing that answers it (the answer must say so)

    @field_validator("answer")
    @classmethod
    def _one_line(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v:
            raise ValueError("answer must not be empty")
        return v


class LlmStep(BaseModel):
    skill: str = Field(min_length=1, max_length=64)
    args: list[str] = Field(max_length=8)


class LlmPlan(BaseModel):
    """Arguments of the ``submit_plan`` tool: steps, or no steps and a refusal."""

    steps: list[LlmStep] = Field(default_factory=list, max_length=MAX_PLAN_STEPS)
    explanation: str = Field(default="", max_length=500)
    evidence_ids: list[str] = Field(default_factory=list, max_length=50)
    refusal: str = Field(default="", max_length=500)


_ID_LIST = {"type": "array", "items": {"type": "string"}}

ANSWER_TOOL = {
    "type": "function",
    "function": {
        "name": "answer",
        "description": "Give the final answer to the question (call exactly once, at the end).",
        "parameters": {
            "type": "object",
            "properties": {
                "answer": {"type": "string", "description": "One or two sentences for the person."},
                "answer_ids": {**_ID_LIST, "description": "Memory ids the answer is about (where the thing "
                               "is, the events it reports), exactly as tools returned them."},
                "evidence_ids": {**_ID_LIST, "description": "Ids of the records (observations, events) "
                                 "the answer rests on, exactly as tools returned them."},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                "known": {"type": "boolean", "description": "false when memory holds nothing that answers "
                          "it; then say so instead of guessing."},
            },
            "required": ["answer", "answer_ids", "evidence_ids", "confidence", "known"],
        },
    },
}

SUBMIT_PLAN_TOOL = {
    "type": "function",
    "function": {
        "name": "submit_plan",
        "description": "Submit the final open-loop plan (or, with no steps, a refusal with its reason).",
        "parameters": {
            "type": "object",
            "properties": {
                "steps": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"skill": {"type": "string", "description": "A skill of the robot's library."},
                                   "args": {**_ID_LIST, "description": "Memory ids, in the skill's argument "
                                            "order."}},
                    "required": ["skill", "args"]}},
                "explanation": {"type": "string", "description": "One line: what the plan does and why."},
                "evidence_ids": _ID_LIST,
                "refusal": {"type": "string", "description": "Why no plan is possible ('' with steps)."},
            },
            "required": ["steps", "explanation"],
        },
    },
}


# ---- the tool-calling loop -------------------------------------------------------------------------


class _Fallback(Exception):
    """Abandon the LLM path; the message is the recorded reason."""


class _HttpError(_Fallback):
    """The endpoint answered with an HTTP error status."""

    def __init__(self, reason: str, status: int, message: str) -> None:
        super().__init__(reason)
        self.status = status
        self.message = message

    def refuses_format(self) -> bool:
        """The server does not take ``response_format: json_schema`` (older vLLM, llama.cpp servers): a 400
        or 422, or any error that names the field; not an auth, routing or rate-limit error."""
        if self.status in (401, 403, 404, 408, 429):
            return False
        text = self.message.lower()
        return self.status in (400, 422) or "response_format" in text or "json_schema" in text


def _library_text(library: SkillLibrary) -> str:
    lines = []
    for s in library.skills:
        args = ", ".join(f"{a.name}: {a.type}" for a in s.args)
        pre = ", ".join(map(str, s.preconditions)) or "none"
        eff = ", ".join(map(str, s.effects)) or "none"
        lines.append(f"- {s.name}({args}): {s.description} Preconditions: {pre}. Effects: {eff}.")
    return "\n".join(lines)


QUESTION_SYSTEM = """You answer questions about a household from a robot's memory.
Memory is reached only through the tools; answer only from what they return, and cite the ids they return.
You may make at most {budget} memory tool calls; then call `answer`.
If memory holds nothing that answers the question, say so (known=false, confidence 0); never guess.
{data_note}
Memory time: {when}."""

PLAN_SYSTEM = """You turn a request into an open-loop skill plan for the robot {robot}, grounded in its memory.
Memory is reached only through the tools. Every argument of every step must be a memory id exactly as a tool
returned it. Use only these skills, with arguments in this order:
{skills}
Plan from the latest state: go where the object is now (entity_state gives reach_at), open closed containers
around it first (outermost first), never repeat a known failure, apply what people taught (rules_and_preferences).
When done, call `submit_plan` once. If the request cannot be done, call it with no steps and a refusal.
A submitted plan is checked; if it is rejected you are told why and may submit a corrected one.
You have at most {budget} turns.
{data_note}"""


def _named_choice(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name}}


def _json_object(content: str | None) -> dict[str, Any] | None:
    """A JSON object in plain content (some servers answer a forced call that way), else None."""
    if not content:
        return None
    text = content.strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", text, re.S)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        value = json.loads(text[start:end + 1])
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


class _Request:
    """One request's conversation with the model, within its deadline, counted into its account."""

    def __init__(self, client: Any, config: LlmConfig, account: LlmAccount, messages: list[dict[str, Any]]):
        self.client = client
        self.config = config
        self.account = account
        self.messages = messages
        self.deadline = time.monotonic() + config.timeout_s

    def call(self, tools: list[dict[str, Any]], tool_choice: Any) -> Any:
        return self.complete(tools=tools, tool_choice=tool_choice)

    def complete(self, **request: Any) -> Any:
        """One chat completion with ``request`` (tools and tool_choice, or response_format), counted."""
        import openai

        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise _Fallback(f"timeout: llm.timeout_s ({self.config.timeout_s:g} s) spent")
        start = time.monotonic()
        self.account.model_calls += 1
        # The OpenAI API's reasoning models refuse max_tokens and a temperature other than 1; llama.cpp,
        # vLLM and Ollama know max_tokens, and a fixed temperature keeps local runs repeatable.
        if "api.openai.com" in (self.config.base_url or "api.openai.com"):
            sampling: dict[str, Any] = {"max_completion_tokens": self.config.max_output_tokens}
        else:
            sampling = {"max_tokens": self.config.max_output_tokens, "temperature": self.config.temperature}
        try:
            resp = self.client.with_options(timeout=remaining, max_retries=0).chat.completions.create(
                model=self.config.model, messages=self.messages, **request, **sampling)
        except openai.APITimeoutError:
            raise _Fallback(f"timeout: no reply within llm.timeout_s ({self.config.timeout_s:g} s)") from None
        except openai.APIStatusError as e:
            raise _HttpError(f"llm error: HTTP {e.status_code}: {quote(e.message)}", e.status_code,
                             str(e.message)) from None
        except openai.APIError as e:
            raise _Fallback(f"llm error: {type(e).__name__}: {quote(str(e))}") from None
        finally:
            self.account.llm_latency_s += time.monotonic() - start
        usage = getattr(resp, "usage", None)
        if usage is None or usage.prompt_tokens is None:
            self.account.calls_without_usage += 1
        else:
            self.account.tokens_in += int(usage.prompt_tokens or 0)
            self.account.tokens_out += int(usage.completion_tokens or 0)
        if not getattr(resp, "choices", None):
            raise _Fallback("malformed output: response has no choices")
        return resp.choices[0].message

    def remember(self, message: Any, calls: list[Any]) -> None:
        """Append the assistant's turn so the tool results that follow answer its calls."""
        self.messages.append({"role": "assistant", "content": message.content or None, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.function.name,
                                                          "arguments": c.function.arguments or "{}"}}
            for c in calls]})

    def reply(self, call: Any, result: dict[str, Any]) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call.id, "content": dump_result(result)})


def _calls(message: Any) -> list[Any]:
    calls = list(getattr(message, "tool_calls", None) or [])
    for n, c in enumerate(calls):
        if not getattr(c, "id", None):
            c.id = f"call_{n}"
    return [c for c in calls if getattr(c, "function", None) is not None]


def _arguments(call: Any, what: str) -> dict[str, Any]:
    try:
        value = json.loads(call.function.arguments or "")
    except json.JSONDecodeError as e:
        raise _Fallback(f"malformed output: {what} arguments are not JSON ({e.msg})") from None
    if not isinstance(value, dict):
        raise _Fallback(f"malformed output: {what} arguments are not a JSON object")
    return value


def _schema_problem(err: ValidationError) -> str:
    first = err.errors()[0]
    return f"{'.'.join(str(p) for p in first['loc']) or '(top)'}: {first['msg']}"


class LlmPlanner:
    """LLM mode for one node (or one program): holds the client and answers/plans with fallback.

    ``client`` is any object shaped like ``openai.OpenAI`` (made from ``config`` when None).
    """

    def __init__(self, config: LlmConfig, client: Any = None) -> None:
        self.config = config
        self._client = client
        # request mode asks for json_schema output until the server refuses it, then for a JSON object
        self.response_format: llm_request.ResponseFormat = "json_schema"

    def prepare(self) -> str:
        """Make the client now (importing ``openai`` takes about a second): '' when ready, else why every
        request will fall back. A node calls this at start-up so its first request is not the slow one."""
        try:
            self._client_or_reason()
        except _Fallback as why:
            return str(why)
        return ""

    def _client_or_reason(self) -> Any:
        if self._client is not None:
            return self._client
        if not self.config.model:
            raise _Fallback("llm.model is not set")
        key = os.environ.get(self.config.api_key_env, "") if self.config.api_key_env else ""
        if not key and not self.config.base_url:
            raise _Fallback(f"no API key in ${self.config.api_key_env} for the OpenAI API "
                            "(set llm.base_url for a local server)")
        try:
            import openai
        except ImportError:
            raise _Fallback("the openai package is not installed") from None
        self._client = openai.OpenAI(api_key=key or NO_KEY_PLACEHOLDER, base_url=self.config.base_url or None,
                                     timeout=self.config.timeout_s, max_retries=0)
        return self._client

    # ---- questions ------------------------------------------------------------------------------

    def answer(self, store: MemoryStore, question: str, as_of_ns: int | None = None,
               speaker: str = "", conversation: Conversation | None = None) -> tuple[Answer, LlmAccount]:
        """Answer ``question`` through the model; the deterministic answer when the model's cannot be used."""
        start = time.monotonic()
        account = LlmAccount(kind="question", mode=self.config.mode, model=self.config.model)

        def deterministic() -> Answer:
            with store.snapshot():
                return answer_question(store, question, as_of_ns=as_of_ns, speaker=speaker.strip(),
                                       conversation=conversation)

        try:
            if not question or not question.strip():
                raise _Fallback("empty question")
            if self.config.mode == "request":
                req = self._understand(store, question.strip(), speaker.strip(), account)
                with store.snapshot():
                    result = answer_question(store, question, as_of_ns=as_of_ns, speaker=speaker.strip(),
                                             conversation=conversation, request=req)
            else:
                result = self._answer(store, question.strip(), as_of_ns, account, speaker.strip())
            account.used_llm = True
        except _Fallback as why:
            result = self._fallback(account, str(why), deterministic)
        except Exception as err:  # noqa: BLE001 - any failure of the LLM path is a fallback, never an outage
            log.exception("LLM question path failed")
            result = self._fallback(account, f"internal error: {type(err).__name__}: {quote(str(err))}",
                                    deterministic)
        account.latency_s = time.monotonic() - start
        log.info("llm %s", account.summary())  # the node logs it as a warning on fallback
        return result, account

    def _answer(self, store: MemoryStore, question: str, as_of_ns: int | None, account: LlmAccount,
                speaker: str = "") -> Answer:
        client = self._client_or_reason()
        with store.snapshot():
            world = WorldState.from_store(store, as_of_ns=as_of_ns, speaker=speaker)
        tools = MemoryTools(store, world)
        specs = [t.spec() for t in tools.tools()] + [ANSWER_TOOL]
        budget = max(0, self.config.max_question_tool_calls)
        when = "now" if as_of_ns is None else f"as it stood at t={as_of_ns} ns (tools only see up to then)"
        req = _Request(client, self.config, account, [
            {"role": "system", "content": QUESTION_SYSTEM.format(budget=budget, data_note=DATA_NOTE, when=when)},
            {"role": "user", "content": question + _asked_by(speaker)}])
        used = 0
        while True:
            forced = used >= budget
            account.forced_final = forced
            message = req.call([ANSWER_TOOL] if forced else specs,
                               _named_choice("answer") if forced else "auto")
            calls = _calls(message)
            final = next((c for c in calls if c.function.name == "answer"), None)
            if final is not None:
                args = _arguments(final, "answer")
                break
            if not calls:
                parsed = _json_object(message.content)
                if parsed is None:
                    raise _Fallback("malformed output: neither a tool call nor a JSON answer")
                args = parsed
                break
            if forced:
                raise _Fallback(f"budget exhausted: {budget} memory tool calls used and no answer when forced")
            req.remember(message, calls)
            for n, c in enumerate(calls):
                if used >= budget or n >= MAX_TOOL_CALLS_PER_TURN:
                    req.reply(c, {"error": "memory tool budget exhausted: call answer now"})
                    continue
                used += 1
                account.tool_calls += 1
                req.reply(c, tools.call(c.function.name, c.function.arguments))
        return self._checked_answer(args, tools, used)

    @staticmethod
    def _checked_answer(args: dict[str, Any], tools: MemoryTools, used: int) -> Answer:
        try:
            out = LlmAnswer.model_validate(args)
        except ValidationError as e:
            raise _Fallback(f"malformed output: answer {_schema_problem(e)}") from None
        if used == 0:
            raise _Fallback("ungrounded answer: the model called no memory tool")
        known = tools.seen_ids | set(tools.world.entities)
        invented = [i for i in out.answer_ids if i not in known]
        if invented:
            raise _Fallback(f"invented ids: answer names {', '.join(map(quote, invented[:5]))}, which memory "
                            "did not return")
        evidence = [i for i in dict.fromkeys(out.evidence_ids) if i in tools.seen_ids]
        confidence = out.confidence if (out.known and evidence) else 0.0
        return Answer(success=True, answer=out.answer, answer_ids=list(dict.fromkeys(out.answer_ids)),
                      evidence_ids=evidence, confidence=confidence)

    # ---- plans ----------------------------------------------------------------------------------

    def plan(self, store: MemoryStore, library: SkillLibrary, instruction: str, robot: str | None = None,
             as_of_ns: int | None = None, speaker: str = "",
             conversation: Conversation | None = None) -> tuple[PlanResult, LlmAccount]:
        """Plan ``instruction`` through the model; the deterministic planner's result when the model's plan
        cannot be used. Whatever is returned with success passed ``PlanValidator``."""
        start = time.monotonic()
        account = LlmAccount(kind="plan", mode=self.config.mode, model=self.config.model)
        robot = robot or library.robot

        def deterministic() -> PlanResult:
            with store.snapshot():
                return plan_request(store, library, instruction, robot=robot, as_of_ns=as_of_ns,
                                    speaker=speaker.strip(), conversation=conversation)

        try:
            if robot != library.robot:
                raise _Fallback(f"robot {robot!r} does not match skill library {library.robot!r}")
            if not instruction or not instruction.strip():
                raise _Fallback("empty instruction")
            if self.config.mode == "request":
                req = self._understand(store, instruction.strip(), speaker.strip(), account)
                with store.snapshot():
                    result = plan_request(store, library, instruction, robot=robot, as_of_ns=as_of_ns,
                                          speaker=speaker.strip(), conversation=conversation, request=req)
                if not result.success and not (result.error or "").strip():  # a reply is never empty
                    result.error = f"no plan for '{quote(instruction)}'"
            else:
                result = self._plan(store, library, instruction.strip(), robot, as_of_ns, account, speaker.strip())
            account.used_llm = True
        except _Fallback as why:
            result = self._fallback(account, str(why), deterministic)
        except Exception as err:  # noqa: BLE001
            log.exception("LLM plan path failed")
            result = self._fallback(account, f"internal error: {type(err).__name__}: {quote(str(err))}",
                                    deterministic)
        account.latency_s = time.monotonic() - start
        log.info("llm %s", account.summary())  # the node logs it as a warning on fallback
        return result, account

    def _plan(self, store: MemoryStore, library: SkillLibrary, instruction: str, robot: str,
              as_of_ns: int | None, account: LlmAccount, speaker: str = "") -> PlanResult:
        client = self._client_or_reason()
        with store.snapshot():
            world = WorldState.from_store(store, as_of_ns=as_of_ns, hands=library.hands, speaker=speaker)
        tools = MemoryTools(store, world)
        specs = [t.spec() for t in tools.tools()] + [SUBMIT_PLAN_TOOL]
        iterations = max(0, self.config.max_plan_iterations)
        state = (f"Robot {robot}: at {world.robot_at or 'unknown'}, room {world.robot_room or 'unknown'}, "
                 f"holding {', '.join(sorted(world.holding)) or 'nothing'}, {library.hands} hand(s).")
        req = _Request(client, self.config, account, [
            {"role": "system", "content": PLAN_SYSTEM.format(robot=robot, skills=_library_text(library),
                                                             budget=iterations, data_note=DATA_NOTE)},
            {"role": "user", "content": f"{instruction}\n\n({state}){_asked_by(speaker)}"}])
        last_problem = ""
        for turn in range(iterations + 1):
            forced = turn == iterations
            account.forced_final = forced
            message = req.call([SUBMIT_PLAN_TOOL] if forced else specs,
                               _named_choice("submit_plan") if forced else "auto")
            calls = _calls(message)
            final = next((c for c in calls if c.function.name == "submit_plan"), None)
            if final is None and not calls:
                parsed = _json_object(message.content)
                if parsed is None:
                    raise _Fallback("malformed output: neither a tool call nor a JSON plan")
                result, last_problem = self._checked_plan(parsed, library, world, tools, instruction, robot)
                if result is not None:
                    return result
                if forced:
                    break
                req.messages.append({"role": "assistant", "content": message.content})
                req.messages.append({"role": "user", "content": f"Plan rejected: {last_problem}. Use "
                                     "submit_plan."})
                continue
            if final is None and forced:
                raise _Fallback(f"budget exhausted: {iterations} turns and no plan when forced")
            req.remember(message, calls)
            for n, c in enumerate(calls):
                if c is final:
                    result, last_problem = self._checked_plan(_arguments(c, "submit_plan"), library, world,
                                                              tools, instruction, robot)
                    if result is not None:
                        return result
                    req.reply(c, {"accepted": False, "problems": last_problem})
                elif final is not None:
                    req.reply(c, {"error": "not run: submit_plan ends the turn"})
                elif n >= MAX_TOOL_CALLS_PER_TURN:
                    req.reply(c, {"error": f"at most {MAX_TOOL_CALLS_PER_TURN} tool calls per turn"})
                else:
                    account.tool_calls += 1
                    req.reply(c, tools.call(c.function.name, c.function.arguments))
            if forced:
                break
        raise _Fallback(last_problem or "budget exhausted")

    @staticmethod
    def _checked_plan(args: dict[str, Any], library: SkillLibrary, world: WorldState, tools: MemoryTools,
                      instruction: str, robot: str) -> tuple[PlanResult | None, str]:
        """(the plan, '') when it validates, else (None, why). A refusal or a malformed plan ends the
        LLM path (the deterministic planner decides); an invalid plan may be resubmitted."""
        try:
            out = LlmPlan.model_validate(args)
        except ValidationError as e:
            raise _Fallback(f"malformed output: submit_plan {_schema_problem(e)}") from None
        if not out.steps:
            raise _Fallback(f"model refused: {quote(out.refusal)}" if out.refusal.strip()
                            else "malformed output: a plan with no steps and no refusal")
        steps = []
        for s in out.steps:
            skill = library.skill(s.skill)
            role = skill.role if skill is not None else s.skill
            steps.append(SkillCall(skill=s.skill, args=list(s.args), text=step_text(world, role, s.args)))
        plan = Plan(robot=robot, instruction=instruction, steps=steps)
        problems = PlanValidator(library).validate(plan, world)
        if problems:
            return None, "invalid plan: " + "; ".join(problems)
        plan.evidence_ids = _evidence(world, plan, [i for i in out.evidence_ids if i in tools.seen_ids])
        explanation = " ".join(out.explanation.split()) or "plan from the LLM"
        plan.explanation = quote(explanation)
        return PlanResult(success=True, plan=locate_steps(plan, world, library)), ""

    # ---- request mode: understanding only --------------------------------------------------------

    def _understand(self, store: MemoryStore, text: str, speaker: str, account: LlmAccount) -> Request:
        """The model's typed request for ``text`` (llm/request.py), or ``_Fallback`` saying why the
        parser must read it instead."""
        client = self._client_or_reason()
        if len(" ".join(text.split())) > llm_request.MAX_UTTERANCE_CHARS:
            raise _Fallback(f"utterance longer than {llm_request.MAX_UTTERANCE_CHARS} characters: not sent")
        with store.snapshot():  # names only: the model writes what was said, ids come from grounding
            people = sorted({e.name for e in store.entities(label="person", include_absent=True) if e.name})
        kind = self.response_format
        req = _Request(client, self.config, account, llm_request.messages(text, speaker, people, kind))
        try:
            message = req.complete(response_format=llm_request.response_format(kind))
        except _HttpError as e:
            if kind != "json_schema" or not e.refuses_format():
                raise
            log.info("the endpoint refused response_format json_schema (%s); asking for a JSON object", e)
            self.response_format = kind = "json_object"
            req.messages = llm_request.messages(text, speaker, people, kind)
            message = req.complete(response_format=llm_request.response_format(kind))
        refusal = getattr(message, "refusal", None)
        if refusal:
            raise _Fallback(f"model refused: {quote(refusal)}")
        try:
            understood = llm_request.read_request(message.content, text)
        except llm_request.RequestRejected as why:
            raise _Fallback(str(why)) from None
        account.intent = understood.intent.value
        return understood

    # ---- fallback -------------------------------------------------------------------------------

    @staticmethod
    def _fallback(account: LlmAccount, reason: str, deterministic: Callable[[], Any]) -> Any:
        account.fallback, account.used_llm, account.fallback_reason = True, False, reason
        account.intent = ""
        return deterministic()


def _evidence(world: WorldState, plan: Plan, cited: list[str]) -> list[str]:
    """The observations that say where each argument is and what state it is in (as the deterministic
    planner cites them), then what the model cited that memory had shown it."""
    out: list[str] = []
    for step in plan.steps:
        for ent_id in step.args:
            ent = world.entities.get(ent_id)
            if ent is None:
                continue
            for chain_id in [ent_id, *world.chain(ent_id)]:
                out.append(world.location_provenance.get(chain_id, ""))
            out.append(ent.provenance)
    return [e for e in dict.fromkeys(out + cited) if e]


def _asked_by(speaker: str) -> str:
    """Who "my" is, for the model: possession facts (rules_and_preferences) are keyed by this name."""
    return f"\n\n(asked by {quote(speaker)!r})" if speaker else ""


def llm_answer_question(store: MemoryStore, question: str, config: LlmConfig, as_of_ns: int | None = None,
                        client: Any = None) -> tuple[Answer, LlmAccount]:
    """``answer_question`` through an LLM (see ``LlmPlanner.answer``)."""
    return LlmPlanner(config, client).answer(store, question, as_of_ns=as_of_ns)


def llm_plan_request(store: MemoryStore, library: SkillLibrary, instruction: str, config: LlmConfig,
                     robot: str | None = None, as_of_ns: int | None = None,
                     client: Any = None) -> tuple[PlanResult, LlmAccount]:
    """``plan_request`` through an LLM (see ``LlmPlanner.plan``)."""
    return LlmPlanner(config, client).plan(store, library, instruction, robot=robot, as_of_ns=as_of_ns)
