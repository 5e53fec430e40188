"""Inferred knowledge: routines, habits and preferences consolidated from skill and activity events.

Consolidation reads what was done (successful skill calls, observed activities) and counts what recurs:

- **routines**: ordered runs of 3-5 actions ("take sponge > wash plate > put plate") that recur within
  sessions (an actor's actions with no gap longer than ``session_gap_ns``; repeats of one action count
  once). ``support`` = occurrences, ``confidence`` = how often the routine was completed once its first
  action was done (P(rest | first)). Only the longest form of a pattern with the same support is kept.
- **habits**: "after X, usually Y": ``confidence`` = P(next action is Y | X), ``support`` = count(X then Y).
- **preferences**: where a category goes (the receptacle of its put/place/insert actions), and which
  instance of a category someone uses when memory knows several of them.

Every record carries the ids of the events it rests on and the window they span. It is statistics over an
append-only log, so it is cheap to recompute, and it is computed **off the write path**: on demand (a
request for knowledge finds the stored results stale) and periodically (the node's timer). A run replaces
the stored knowledge and records a fingerprint of the events it saw; a request "as of" time t is served
from storage only when that run saw nothing after t, otherwise it is recomputed from the events stamped up
to t. So knowledge as of t never rests on evidence from after t, and forgetting events (the fingerprint
changes) drops what was inferred from them at the next request or run.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from .models import Knowledge, KnowledgeKind
from .store import ROOM_LABEL, MemoryStore

SECOND_NS = 1_000_000_000
ACTION_KINDS = ("activity", "skill")
KNOWLEDGE_KINDS: tuple[KnowledgeKind, ...] = ("routine", "habit", "preference")
# Verbs that put their first object into/onto their second (EPIC class keys, common phrasings, skills).
PLACING_VERBS = frozenset({"put", "place", "insert", "put-in", "put-on", "put-into", "put-down", "put-away",
                           "put-back", "store", "hang", "stow", "load"})


@dataclass(frozen=True)
class ConsolidationParams:
    session_gap_ns: int = 600 * SECOND_NS  # a pause this long ends a session
    min_support: int = 3                   # occurrences before anything counts as knowledge
    min_confidence: float = 0.2            # habits and routines: rarer continuations are noise
    min_preference_confidence: float = 0.5  # a preference is the majority choice
    min_routine_length: int = 3
    max_routine_length: int = 5
    max_routines_per_actor: int = 20
    max_habits_per_action: int = 3
    max_events: int = 200_000              # newest events read per run

    def digest(self) -> str:
        return hashlib.sha1(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:8]


DEFAULT_PARAMS = ConsolidationParams()


@dataclass(frozen=True)
class Action:
    """One thing an actor did, read from an event."""

    event_id: str
    stamp_ns: int
    actor: str
    verb: str
    objects: tuple[str, ...]
    location: str = ""

    @property
    def key(self) -> str:
        """verb + first object: what recurs ("open fridge"); other objects vary too much to count."""
        return f"{self.verb} {self.objects[0]}" if self.objects else self.verb


@dataclass
class Step:
    """One step of a session: an action, with the events of its immediate repeats merged in."""

    key: str
    actions: list[Action] = field(default_factory=list)


@dataclass
class Session:
    actor: str
    index: int
    steps: list[Step] = field(default_factory=list)


@dataclass
class ConsolidationRun:
    """What one run saw and produced."""

    id: str
    events: int
    records: int
    counts: dict[str, int]
    window_from_ns: int | None
    window_to_ns: int | None
    seconds: float


# ---- reading evidence -----------------------------------------------------------------------------


def load_actions(store: MemoryStore, until_ns: int | None = None,
                 params: ConsolidationParams = DEFAULT_PARAMS) -> list[Action]:
    """Successful skill calls and observed activities stamped up to ``until_ns``, oldest first."""
    rows = store.storage.action_event_rows(until_ns, params.max_events)
    out: list[Action] = []
    for ev_id, kind, stamp, data in reversed(rows):
        d = json.loads(data).get("data") or {}
        if kind == "activity":
            verb, objects = d.get("verb", ""), d.get("objects") or []
            actor = d.get("actor") or "someone"
        else:
            if not d.get("success"):
                continue  # a failed attempt is not something one does habitually
            verb, objects = d.get("skill", ""), d.get("args") or ([d["target_id"]] if d.get("target_id") else [])
            actor = d.get("robot") or "robot"
        if verb:
            out.append(Action(ev_id, stamp, actor, verb, tuple(objects), d.get("location", "")))
    return out


def sessions_of(actions: Iterable[Action], session_gap_ns: int) -> list[Session]:
    """Per actor, runs of actions without a long pause; an action repeated back to back is one step."""
    by_actor: dict[str, list[Action]] = defaultdict(list)
    for a in actions:
        by_actor[a.actor].append(a)
    out: list[Session] = []
    for actor, acts in by_actor.items():
        current: Session | None = None
        last_ns = None
        for a in acts:
            if current is None or last_ns is None or a.stamp_ns - last_ns > session_gap_ns:
                current = Session(actor=actor, index=len(out))
                out.append(current)
            if current.steps and current.steps[-1].key == a.key:
                current.steps[-1].actions.append(a)
            else:
                current.steps.append(Step(a.key, [a]))
            last_ns = a.stamp_ns
    return out


# ---- statistics -----------------------------------------------------------------------------------


def _spoken(key: str) -> str:
    verb, _, rest = key.partition(" ")
    return " ".join(p for p in (verb.replace("-", " "), rest) if p)


def _record(kind: KnowledgeKind, actor: str, steps: list[str], text: str, confidence: float, support: int,
            sessions: int, evidence: list[Action], data: dict | None = None) -> Knowledge:
    variant = (data or {}).get("level") or (data or {}).get("preference") or ""
    ident = hashlib.sha1(f"{kind}|{actor}|{'>'.join(steps)}|{variant}".encode()).hexdigest()[:12]
    ids = list(dict.fromkeys(a.event_id for a in evidence))
    stamps = [a.stamp_ns for a in evidence]
    return Knowledge(id=f"{kind}-{ident}", kind=kind, actor=actor, steps=steps, text=text,
                     confidence=round(confidence, 4), support=support, sessions=sessions, evidence_ids=ids,
                     evidence_from_ns=min(stamps), evidence_to_ns=max(stamps), data=data or {})


def find_habits(sessions: list[Session], params: ConsolidationParams = DEFAULT_PARAMS) -> list[Knowledge]:
    """"After X, usually Y": the next step's distribution after each step X, per actor.

    Y is a step ("put bowl") or, where what follows X varies in its object but not its verb ("after
    opening the fridge: take milk, take butter, take squash..."), a verb alone ("take something",
    ``data.level == "verb"``), with its most frequent objects as examples."""
    followed: Counter[tuple[str, str]] = Counter()
    pairs: dict[tuple[str, str, str], list[tuple[Session, int]]] = defaultdict(list)
    verb_pairs: dict[tuple[str, str, str], list[tuple[Session, int]]] = defaultdict(list)
    for s in sessions:
        for i in range(len(s.steps) - 1):
            x, nxt = s.steps[i].key, s.steps[i + 1]
            followed[(s.actor, x)] += 1
            pairs[(s.actor, x, nxt.key)].append((s, i))
            verb_pairs[(s.actor, x, nxt.actions[0].verb)].append((s, i))
    strongest_step: Counter[tuple[str, str, str]] = Counter()  # best step support per next verb
    for (actor, x, y), occ in pairs.items():
        verb = y.partition(" ")[0]
        strongest_step[(actor, x, verb)] = max(strongest_step[(actor, x, verb)], len(occ))

    candidates: dict[tuple[str, str], list[Knowledge]] = defaultdict(list)
    for level, table in (("step", pairs), ("verb", verb_pairs)):
        for (actor, x, y), occ in table.items():
            support, total = len(occ), followed[(actor, x)]
            confidence = support / total
            if support < params.min_support or confidence < params.min_confidence:
                continue
            data: dict = {"after": x, "next": y, "of": total, "level": level}
            next_words = _spoken(y)
            if level == "verb":
                if strongest_step[(actor, x, y)] >= 0.8 * support:
                    continue  # one step already says it
                objects = Counter(s.steps[i + 1].actions[0].objects[0] for s, i in occ
                                  if s.steps[i + 1].actions[0].objects)
                data["examples"] = [o for o, _ in objects.most_common(3)]
                next_words = f"{_spoken(y)} something" + (
                    f" (most often {', '.join(data['examples'])})" if data["examples"] else "")
            # the transition itself is the evidence: the last X before it and the first Y after it
            evidence = [a for s, i in occ for a in (s.steps[i].actions[-1], s.steps[i + 1].actions[0])]
            text = (f"{actor}: after {_spoken(x)}, next usually {next_words} "
                    f"({support} of {total} times, {confidence:.0%})")
            candidates[(actor, x)].append(_record("habit", actor, [x, y], text, confidence, support,
                                                  len({s.index for s, _ in occ}), evidence, data))
    out = []
    for habits in candidates.values():
        out += sorted(habits, key=lambda k: (-k.support, k.id))[:params.max_habits_per_action]
    return out


def find_routines(sessions: list[Session], params: ConsolidationParams = DEFAULT_PARAMS) -> list[Knowledge]:
    """Recurring ordered runs of steps (n-grams of verb+object within a session), longest form kept."""
    support: dict[tuple[str, tuple[str, ...]], list[tuple[Session, int]]] = {}
    started: Counter[tuple[str, str, int]] = Counter()
    lengths = range(params.min_routine_length, params.max_routine_length + 1)
    for n in lengths:
        for s in sessions:
            keys = [st.key for st in s.steps]
            next_free: dict[tuple[str, ...], int] = {}
            for i in range(len(keys) - n + 1):
                started[(s.actor, keys[i], n)] += 1
                gram = tuple(keys[i:i + n])
                if i < next_free.get(gram, 0):
                    continue  # occurrences do not overlap
                next_free[gram] = i + n
                support.setdefault((s.actor, gram), []).append((s, i))
    frequent = {k: v for k, v in support.items() if len(v) >= params.min_support}
    # support of the strongest one-step-longer pattern that extends each pattern at either end
    extended: Counter[tuple[str, tuple[str, ...]]] = Counter()
    for (actor, gram), occ in frequent.items():
        for part in (gram[1:], gram[:-1]):
            extended[(actor, part)] = max(extended[(actor, part)], len(occ))
    closed = [(actor, gram, occ) for (actor, gram), occ in frequent.items()
              if extended[(actor, gram)] < len(occ)]
    out: list[Knowledge] = []
    per_actor: dict[str, list[Knowledge]] = defaultdict(list)
    for actor, gram, occ in closed:
        n = len(gram)
        confidence = len(occ) / started[(actor, gram[0], n)]
        if confidence < params.min_confidence:
            continue
        evidence = [a for s, i in occ for st in s.steps[i:i + n] for a in st.actions]
        sessions = len({s.index for s, _ in occ})
        text = (f"{actor}: {' > '.join(_spoken(k) for k in gram)} ({len(occ)} times in {sessions} sessions; "
                f"completed {confidence:.0%} of the times it began)")
        per_actor[actor].append(_record("routine", actor, list(gram), text, confidence, len(occ), sessions,
                                        evidence))
    for routines in per_actor.values():
        out += sorted(routines, key=lambda k: (-k.support * (len(k.steps) - 1), -k.confidence, k.id)
                      )[:params.max_routines_per_actor]
    return out


def find_preferences(store: MemoryStore, actions: list[Action], until_ns: int | None = None,
                     params: ConsolidationParams = DEFAULT_PARAMS) -> list[Knowledge]:
    """Where each category goes (from put/place actions with a receptacle) and which instance of a
    category someone uses when memory knows more than one."""
    entity_cache: dict[str, str | None] = {}

    def label(obj: str) -> str | None:
        if obj not in entity_cache:
            ent = store.entity(obj, as_of_ns=until_ns)
            entity_cache[obj] = ent.label if ent is not None and ent.label != ROOM_LABEL else None
        return entity_cache[obj]

    placed: dict[tuple[str, str], dict[str, list[Action]]] = defaultdict(lambda: defaultdict(list))
    used: dict[tuple[str, str], dict[str, list[Action]]] = defaultdict(lambda: defaultdict(list))
    for a in actions:
        if a.verb in PLACING_VERBS and len(a.objects) >= 2 and a.objects[0] != a.objects[1]:
            placed[(a.actor, label(a.objects[0]) or a.objects[0])][a.objects[1]].append(a)
        for obj in dict.fromkeys(a.objects):
            lab = label(obj)
            if lab is not None:
                used[(a.actor, lab)][obj].append(a)

    out: list[Knowledge] = []
    for (actor, category), targets in placed.items():
        total = sum(len(v) for v in targets.values())
        target, evidence = max(targets.items(), key=lambda kv: (len(kv[1]), kv[0]))
        confidence = len(evidence) / total
        if len(evidence) < params.min_support or confidence < params.min_preference_confidence:
            continue
        text = f"{actor}: puts {category} in/on {target} ({len(evidence)} of {total} times, {confidence:.0%})"
        out.append(_record("preference", actor, [category, target], text, confidence, len(evidence), 0,
                           evidence, {"preference": "receptacle", "category": category, "target": target,
                                      "of": total}))
    for (actor, category), instances in used.items():
        known = store.entities(label=category, as_of_ns=until_ns, include_absent=True)
        if len(known) < 2:
            continue  # one mug is no choice
        total = sum(len(v) for v in instances.values())
        inst, evidence = max(instances.items(), key=lambda kv: (len(kv[1]), kv[0]))
        confidence = len(evidence) / total
        if len(evidence) < params.min_support or confidence < params.min_preference_confidence:
            continue
        text = (f"{actor}: uses {inst} of the {len(known)} {category}s ({len(evidence)} of {total} times, "
                f"{confidence:.0%})")
        out.append(_record("preference", actor, [category, inst], text, confidence, len(evidence), 0, evidence,
                           {"preference": "instance", "category": category, "target": inst, "of": total,
                            "known": len(known)}))
    return out


def consolidate(store: MemoryStore, until_ns: int | None = None,
                params: ConsolidationParams = DEFAULT_PARAMS) -> list[Knowledge]:
    """All knowledge from the events stamped up to ``until_ns`` (all when None); pure, stores nothing."""
    actions = load_actions(store, until_ns, params)
    sessions = sessions_of(actions, params.session_gap_ns)
    return (find_routines(sessions, params) + find_habits(sessions, params)
            + find_preferences(store, actions, until_ns, params))


# ---- storing and serving --------------------------------------------------------------------------


def fingerprint(store: MemoryStore, params: ConsolidationParams = DEFAULT_PARAMS) -> tuple[str, int, int | None,
                                                                                               int | None]:
    """(fingerprint, count, first stamp, last stamp) of the evidence: any insert or delete changes it."""
    n, top, total, lo, hi = store.storage.action_event_fingerprint()
    return f"{n}:{top}:{total}:{params.digest()}", n, lo, hi


def run_consolidation(store: MemoryStore, params: ConsolidationParams = DEFAULT_PARAMS,
                      force: bool = False) -> ConsolidationRun | None:
    """Recompute and replace the stored knowledge; None (nothing done) when it is already up to date."""
    start = time.perf_counter()
    fp, n, lo, hi = fingerprint(store, params)
    last = latest_run(store)
    if not force and last is not None and last["fingerprint"] == fp:
        return None
    records = consolidate(store, None, params)
    run = ConsolidationRun(id=f"kr-{uuid.uuid4().hex[:12]}", events=n, records=len(records),
                           counts=dict(Counter(k.kind for k in records)), window_from_ns=lo, window_to_ns=hi,
                           seconds=0.0)
    with store.transaction() as db:
        run.seconds = round(time.perf_counter() - start, 4)
        db.replace_knowledge([(k.id, k.kind, k.actor, k.support, k.confidence, k.evidence_from_ns,
                               k.evidence_to_ns, run.id, k.model_dump_json()) for k in records],
                             (run.id, time.time_ns(), lo, hi, n, len(records), fp, json.dumps(asdict(run))))
    return run


def latest_run(store: MemoryStore) -> dict | None:
    row = store.storage.latest_run_row()
    if row is None:
        return None
    keys = ("id", "window_from_ns", "window_to_ns", "events", "records", "fingerprint")
    return {**dict(zip(keys, row[:6])), **json.loads(row[6])}


def knowledge(store: MemoryStore, kind: KnowledgeKind | None = None, actor: str | None = None,
              as_of_ns: int | None = None, params: ConsolidationParams = DEFAULT_PARAMS) -> list[Knowledge]:
    """Knowledge as memory stood at ``as_of_ns`` (now when None), strongest first.

    Now: the stored results, after consolidating on demand if events changed since the last run (a
    read-only store cannot store a run: it computes the same records without storing them).
    As of t: the stored results if the last run saw no event after t, else recomputed from events up to t.
    """
    fp, _, _, _ = fingerprint(store, params)
    last = latest_run(store)
    fresh = last is not None and last["fingerprint"] == fp
    if not fresh and as_of_ns is None and not store.read_only:
        run_consolidation(store, params)
        fresh = True
    if fresh and (as_of_ns is None or last is None or last["window_to_ns"] is None
                  or last["window_to_ns"] <= as_of_ns):
        records = [Knowledge.model_validate_json(d) for d in store.storage.knowledge_json(kind, actor)]
    else:
        records = [k for k in consolidate(store, as_of_ns, params)
                   if (not kind or k.kind == kind) and (not actor or k.actor == actor)]
    return sorted(records, key=lambda k: (KNOWLEDGE_KINDS.index(k.kind), -k.support, -k.confidence, k.id))
