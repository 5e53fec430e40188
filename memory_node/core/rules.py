"""Placement facts from corrections, and the rules they consolidate into ("cutlery -> drawer").

Written in the same transaction as the utterance that stated them (``MemoryStore.ingest_utterance`` calls
``apply_utterance``), so a fact never exists without its event and a crash loses neither half alone.

Semantics:

- A **fact** holds from its utterance until a later fact about the same subject replaces it ("no, forks
  go on the shelf" ends "forks go in the drawer"); the old one stays in history with ``valid_to_ns``.
  One explicit correction is enough to apply to that object: ``placement_for("fork")`` answers from it.
- A **rule** for a category (see ``core/categories.py``) needs at least two current placement facts of
  that category, from the newest backwards, that agree on the receptacle: the run of agreeing facts is
  its support. It goes to the narrowest category that covers that support: a fork and a spoon make a
  cutlery rule, not a kitchenware one (which would send cups to the cutlery drawer); an apple and a
  carrot make a produce rule. A newer fact of the category that names another receptacle (or denies this one) ends the
  run, and so the rule: its version is closed (``valid_to_ns``) with ``superseded_by`` = the event of the
  contradicting correction, and stays in history. More support replaces a version by a new one
  (``superseded_by`` = the new rule's id). Confidence = n/(n+1) x (n / current facts of the category),
  n = the support: two agreeing facts and nothing else give 0.67.
- ``placement_for(label)`` walks the label's category chain from the most specific level (the label, then
  the endings of a compound: "red plastic mug", "plastic mug", "mug", then its kinds): an explicit
  fact about that level (the label itself, "fork", or a category someone named: "cutlery goes in the
  drawer") or a rule for it, whichever is newer, answers; "not in the sink" facts exclude a receptacle.
  A rule of a broad kind does not answer against corrections about a narrower kind of the label that all
  name another receptacle (a fork in the drawer says more about a spoon, cutlery too, than a rule
  "kitchenware goes in the cupboard" made of a plate and a mug): that narrowest evidence answers instead;
  so do corrections about other compounds of its head word that agree (a kitchen knife in the knife block
  for a fish knife, against a cutlery rule of forks and spoons).
- When nothing along the chain covers the label (a word the map does not know, a kind without a rule),
  ``explain_placement`` asks the current placement facts about the most similar objects
  (``core/similarity.py``: sentence embeddings, a weighted vote, "not known" below a similarity threshold);
  that answer is ``source="similar"``, cites the voting facts' events and never overrides a fact or rule.
- Reads "as of" a time see only facts and rule versions that had begun by then, with the ends and
  successors that came later hidden, so nothing from after that time leaks in.

Receptacles are kept as said ("top drawer") and also resolved, when the utterance is stored, to the memory
entity of that label (the most recently seen one), or of its last word when exactly one entity has it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from . import similarity
from .categories import CategoryMap, default_map, key, words
from .text import singular
from .corrections import ParsedFact, parse_utterance
from .embedding import TextEmbedder
from .lexical_categories import map_categories
from .models import Event, Fact, MemoryRecord, PlacementAnswer, Rule
from .storage.base import Storage
from .storage.learned import FACT_COLUMNS, RULE_COLUMNS

if TYPE_CHECKING:
    from .store import MemoryStore

MIN_SUPPORT = 2
CATEGORY_FACT_CONFIDENCE = 0.9
  # "cutlery goes in the drawer" applied to a spoon: said, but about its kind


class Placement(NamedTuple):
    receptacle: str
    predicate: str
    support_event_ids: list[str]
    confidence: float


# ---- write path ---------------------------------------------------------------------------------------


def apply_utterance(store: MemoryStore, event: Event, categories: CategoryMap | None = None) -> list[Fact]:
    """Store the facts an utterance event states and update the rules they touch.

    Call it inside the transaction that writes ``event`` (it opens none). Returns the facts stored.
    """
    data = event.data or {}
    text = str(data.get("text") or "")
    speaker = str(data.get("speaker") or "")
    cmap = categories or default_map()
    parsed = parse_utterance(text, speaker, cmap)
    if not parsed:
        return []
    db = store.storage
    t = event.stamp_ns
    stored: list[Fact] = []
    touched: dict[str, None] = {}
    for pf in parsed:
        fact = _new_fact(store, pf, speaker, event, cmap)
        fact.valid_to_ns = _supersede(db, fact)
        _insert_fact(db, fact)
        stored.append(fact)
        if fact.kind == "placement" and fact.valid_to_ns is None:  # only current facts count for rules
            chain = cmap.chain(fact.subject)
            db.insert_fact_categories(fact.id, chain)
            touched.update(dict.fromkeys(chain))
    for category in touched:
        _update_rule(db, category, t, event.id, cmap)
    return stored


def _new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def _new_fact(store: MemoryStore, pf: ParsedFact, speaker: str, event: Event, cmap: CategoryMap) -> Fact:
    if pf.kind == "placement":
        target_id = _resolve_receptacle(store, pf.target)
    else:
        target_id = _resolve_owned(store, pf.subject, pf.target)
    return Fact(id=_new_id("fact"), kind=pf.kind, subject=pf.subject, subject_key=key(pf.subject),
                predicate=pf.predicate, target=pf.target, target_id=target_id, negated=pf.negated,
                owner=pf.owner, speaker=speaker, correction=pf.correction, stamp_ns=event.stamp_ns,
                event_id=event.id, valid_from_ns=event.stamp_ns)


def _resolve_receptacle(store: MemoryStore, phrase: str) -> str:
    """The entity a receptacle phrase names: the most recently seen one of that label, else the only
    entity whose label is the phrase's last word ("top drawer" -> the one drawer); "" when unsure."""
    if not phrase:
        return ""
    for label in dict.fromkeys((key(phrase), "".join(words(phrase)))):
        ents = store.entities(label=label)
        if ents:
            return ents[0].id
    ws = words(phrase)
    if len(ws) > 1:
        ents = store.entities(label=key(ws[-1]))
        if len(ents) == 1:
            return ents[0].id
    return ""


def _resolve_owned(store: MemoryStore, subject: str, attribute: str) -> str:
    """The entity "my mug is the blue one" picks out: a ``mug`` whose attributes or name say blue (the most
    recently seen one); "" when memory has none."""
    wanted = set(words(attribute))
    for label in dict.fromkeys((key(subject), key(words(subject)[-1]) if words(subject) else "")):
        if not label:
            continue
        for ent in store.entities(label=label):
            said = set(words(" ".join([ent.name, *ent.attributes.values()])))
            if wanted <= said:
                return ent.id
    return ""


def _supersede(db: Storage, fact: Fact) -> int | None:
    """Close the current facts this one replaces; return when the new one ends (None: it is current).

    A fact older than a current one it would replace (an utterance replayed out of order) goes into history
    only, ending where the newer one begins."""
    rows = db.current_facts_replaced(fact.kind, fact.subject_key, fact.owner, fact.target, key(fact.target),
                                     fact.negated)
    newer = [since for _, since in rows if since > fact.valid_from_ns]
    if newer:
        return min(newer)
    for rowid, _ in rows:
        db.end_fact(rowid, fact.valid_from_ns)
    return None


def _insert_fact(db: Storage, f: Fact) -> None:
    db.insert_fact((f.id, f.kind, f.subject, f.subject_key, f.predicate, f.target, key(f.target), f.target_id,
                    int(f.negated), f.owner, f.speaker, int(f.correction), f.stamp_ns, f.event_id,
                    f.valid_from_ns, f.valid_to_ns))


def _fact(row: tuple) -> Fact:
    d = dict(zip(FACT_COLUMNS, row))
    d["negated"], d["correction"] = bool(d["negated"]), bool(d["correction"])
    return Fact(**d)


def _rule(row: tuple, cmap: CategoryMap) -> Rule:
    d = dict(zip(RULE_COLUMNS, row))
    d["support_event_ids"] = json.loads(d["support_event_ids"])
    d["support_fact_ids"] = json.loads(d["support_fact_ids"])
    return Rule(category_name=cmap.name(d["category"]), **d)


def _support(current: list[Fact]) -> list[Fact]:
    """The newest run of agreeing placement facts (oldest first): see the module docstring."""
    receptacle = ""
    denied: set[str] = set()
    run: list[Fact] = []
    for f in reversed(current):
        k = key(f.target)
        if f.negated:
            if receptacle and k == receptacle:
                break
            denied.add(k)
            continue
        if not receptacle:
            if k in denied:
                return []
            receptacle = k
        if k != receptacle:
            break
        run.append(f)
    return run[::-1]


def _narrower_level(db: Storage, category: str, run: list[Fact]) -> bool:
    """Whether all the supporting facts also share a level more specific than ``category``: then the rule
    belongs to that level (the narrowest generalisation of the evidence), not to this one."""
    common: set[str] | None = None
    for f in run:
        rows = db.fact_categories(f.id)
        at = next((lvl for c, lvl in rows if c == category), None)
        below = {c for c, lvl in rows if at is not None and lvl < at}
        common = below if common is None else common & below
        if not common:
            return False
    return bool(common)


def _update_rule(db: Storage, category: str, t: int, event_id: str, cmap: CategoryMap) -> None:
    current = [_fact(r) for r in db.current_placements_of_category(category)]
    run = _support(current)
    if len(run) >= MIN_SUPPORT and _narrower_level(db, category, run):
        run = []  # two forks and a spoon say "cutlery", not "kitchenware": that rule is cutlery's
    row = db.active_rule(category)
    active = _rule(row, cmap) if row else None
    if len(run) < MIN_SUPPORT:
        if active is not None:
            db.end_rule(active.id, max(t, active.valid_from_ns), event_id)
        return
    newest = run[-1]
    positives = sum(1 for f in current if not f.negated)
    n = len(run)
    confidence = round(n / (n + 1) * n / positives, 3)
    support_events = list(dict.fromkeys(f.event_id for f in run))
    support_facts = [f.id for f in run]
    receptacle_id = next((f.target_id for f in reversed(run) if f.target_id), "")
    if active is not None and (key(active.receptacle), active.predicate, active.support_fact_ids,
                               active.confidence, active.receptacle_id) == (
            key(newest.target), newest.predicate, support_facts, confidence, receptacle_id):
        return
    rule_id = _new_id("rule")
    since = t
    if active is not None:
        since = max(t, active.valid_from_ns)
        db.end_rule(active.id, since, rule_id)
    db.insert_rule(rule_id, category, newest.predicate, newest.target, key(newest.target), receptacle_id,
                   support_events, support_facts, confidence, since)


# ---- read path ----------------------------------------------------------------------------------------


def facts(store: MemoryStore, kind: str | None = None, subject: str | None = None, owner: str | None = None,
          as_of_ns: int | None = None, history: bool = False) -> list[Fact]:
    """Facts newest first: those holding now (or at ``as_of_ns``), or with ``history`` every one that had
    begun by then (an end after ``as_of_ns`` is not shown)."""
    out = [_fact(r) for r in store.storage.fact_rows(kind, key(subject) if subject else None, owner, as_of_ns,
                                                     history)]
    if as_of_ns is not None:
        for f in out:
            if f.valid_to_ns is not None and f.valid_to_ns > as_of_ns:
                f.valid_to_ns = None
    return out


def rules(store: MemoryStore, as_of_ns: int | None = None, category: str | None = None, history: bool = False,
          categories: CategoryMap | None = None) -> list[Rule]:
    """Rules holding now (or at ``as_of_ns``), newest first; with ``history`` also the versions that had
    ended, each with its validity interval and what superseded it (as far as known at ``as_of_ns``)."""
    cmap = categories or default_map()
    out = [_rule(r, cmap) for r in store.storage.rule_rows(key(category) if category else None, as_of_ns, history)]
    if as_of_ns is not None:
        for r in out:
            if r.valid_to_ns is not None and r.valid_to_ns > as_of_ns:
                r.valid_to_ns, r.superseded_by = None, ""
    return out


def explain_placement(store: MemoryStore, label: str, as_of_ns: int | None = None,
                      categories: CategoryMap | None = None, similar: bool = True,
                      embedder: TextEmbedder | None = None, lexical: bool = True) -> PlacementAnswer | None:
    """Where ``label`` goes, from the most specific fact or rule that covers it; else (with ``similar``)
    where the corrected objects most like it went (``source="similar"``, see ``core/similarity.py``);
    None when memory was not told anything that covers it or is close enough to it. A label the map does
    not list is covered by the rules of the category WordNet gives it (``lexical_categories``; not with
    ``lexical=False``)."""
    cmap = categories or default_map()
    chain = _levels(cmap, label)
    if not chain:
        return None
    if lexical and not any(c in cmap.parent for c in chain):
        # a word the map does not list: the rules of the map's category of its nearest WordNet kind
        chain += [c for c in map_categories(cmap, label) if c not in chain]
    db = store.storage
    # "not in the sink", said about the object or any of its kinds, rules the sink out
    denied = db.denied_targets(chain, as_of_ns)
    narrow: tuple[str, list[Fact]] | None = None  # the narrowest kind of it with corrections and no rule
    for level, category in enumerate(chain):
        fact = next((f for f in map(_fact, db.placements_of(category, as_of_ns)) if key(f.target) not in denied),
                    None)
        rule_row = db.latest_rule(category, as_of_ns)
        rule = _rule(rule_row, cmap) if rule_row else None
        if rule is not None and key(rule.receptacle) in denied:
            rule = None
        if fact is not None and (rule is None or fact.valid_from_ns >= rule.valid_from_ns):
            return PlacementAnswer(label=label, receptacle=fact.target, receptacle_id=fact.target_id,
                                   predicate=fact.predicate, support_event_ids=[fact.event_id],
                                   confidence=1.0 if level == 0 else CATEGORY_FACT_CONFIDENCE, source="fact",
                                   category=category, category_name=cmap.name(category), record_id=fact.id)
        if rule is not None:
            if narrow is None:
                narrow = _same_head(store, label, denied, as_of_ns, cmap)
            if narrow is not None and key(narrow[1][0].target) != key(rule.receptacle):
                return _narrow_answer(label, narrow, rule, cmap)
            return PlacementAnswer(label=label, receptacle=rule.receptacle, receptacle_id=rule.receptacle_id,
                                   predicate=rule.predicate, support_event_ids=list(rule.support_event_ids),
                                   confidence=rule.confidence, source="rule", category=category,
                                   category_name=rule.category_name, record_id=rule.id)
        if narrow is None and level > 0 and category in cmap.parent:
            told = [f for f in map(_fact, db.placements_of_category(category, as_of_ns))
                    if key(f.target) not in denied]
            if told and len({key(f.target) for f in told}) == 1:
                narrow = (category, told)
    if not similar:
        return None
    return _similar_placement(store, label, denied, as_of_ns, cmap, embedder)


def _levels(cmap: CategoryMap, label: str) -> list[str]:
    """The label's category chain with the endings of a compound between the label and its known head:
    "red plastic mug" -> redplasticmug, plasticmug, mug, ...: what was said about plastic mugs is more
    specific to it than what was said about mugs."""
    chain = cmap.chain(label)
    if len(chain) < 2:
        return chain
    ws = words(label)
    while len(ws) > 1 and ws[-1].isdigit():
        ws = ws[:-1]
    endings = ["".join(ws[i:-1]) + singular(ws[-1]) for i in range(1, len(ws) - 1)]
    endings = [e for e in endings if e not in chain]
    return [chain[0], *endings, *chain[1:]]


def _same_head(store: MemoryStore, label: str, denied: set[str], as_of_ns: int | None,
               cmap: CategoryMap) -> tuple[str, list[Fact]] | None:
    """Corrections about other compounds of the label's head word ("kitchen knife" for a fish knife), when
    they all name one receptacle: the same everyday kind of thing, whatever the map files them under. Not
    a compound that is a kind of its own (a gravy boat is no boat: ``CategoryMap.own_kind``)."""
    ws = [w for w in words(label) if not w.isdigit()]
    if len(ws) < 2:
        return None
    head = singular(ws[-1])
    if cmap.own_kind(label):
        return None
    rows = [r for r in store.storage.placement_pool(as_of_ns, similarity.MAX_FACTS)
            if r[2] not in denied and (sw := [w for w in words(r[1]) if not w.isdigit()])
            and len(sw) >= 2 and singular(sw[-1]) == head and not cmap.own_kind(r[1])]
    if not rows or len({r[2] for r in rows}) != 1:
        return None
    by = store.storage.facts_by_rowid([r[0] for r in rows])
    told = [_fact(by[r[0]]) for r in rows]
    return head, told


def _narrow_answer(label: str, narrow: tuple[str, list[Fact]], rule: Rule, cmap: CategoryMap) -> PlacementAnswer:
    """Corrections about a narrower kind of the label that all name one receptacle, against a rule of a
    broader kind that says another: the narrowest evidence answers (the fork's drawer, not the kitchenware
    rule's cupboard, for a spoon), no surer than a rule of that many facts nor than the rule it overrides."""
    category, told = narrow
    newest = told[0]
    n = len(told)
    return PlacementAnswer(label=label, receptacle=newest.target,
                           receptacle_id=next((f.target_id for f in told if f.target_id), ""),
                           predicate=newest.predicate, support_event_ids=list(dict.fromkeys(f.event_id for f in told)),
                           confidence=round(min(n / (n + 1), rule.confidence), 3), source="rule", category=category,
                           category_name=cmap.name(category), record_id=newest.id)


def _similar_placement(store: MemoryStore, label: str, denied: set[str], as_of_ns: int | None,
                       cmap: CategoryMap, embedder: TextEmbedder | None) -> PlacementAnswer | None:
    """The vote of the current placement facts most similar to ``label`` (``core/similarity.py``)."""
    pool = [similarity.Example(subject, target_key, rowid)
            for rowid, subject, target_key in store.storage.placement_pool(as_of_ns, similarity.MAX_FACTS)]
    won = similarity.vote(label, pool, denied, cmap, embedder)
    if won is None:
        return None
    rowids = [ex.ref for ex, _ in won.voters]
    by_rowid = {rowid: _fact(row) for rowid, row in store.storage.facts_by_rowid(rowids).items()}
    facts_ = [by_rowid[r] for r in rowids]
    newest = max(facts_, key=lambda f: f.valid_from_ns)
    names = [f"the {n}" for n in dict.fromkeys(f.subject for f in facts_)][:3]
    like = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return PlacementAnswer(label=label, receptacle=newest.target,
                           receptacle_id=next((f.target_id for f in facts_ if f.target_id), ""),
                           predicate=newest.predicate,
                           support_event_ids=list(dict.fromkeys(f.event_id for f in facts_)),
                           confidence=won.confidence, source="similar", category=key(label),
                           category_name=f"things like {like}", record_id=facts_[0].id)


def explain_placement_any(store: MemoryStore, phrases: Iterable[str], as_of_ns: int | None = None,
                          categories: CategoryMap | None = None,
                          embedder: TextEmbedder | None = None) -> PlacementAnswer | None:
    """``explain_placement`` for an object known by several phrases (its name, its label): the first that
    a fact or rule covers answers; only when none is covered do the objects most similar to it vote (for
    the first phrase that has any close enough), so a guess never hides what was said about the object
    under another of its names, and a category WordNet gives one name never hides what the map or a
    fact says about another."""
    tried = [p for p in dict.fromkeys(phrases) if p]
    for lexical in (False, True):
        for p in tried:
            ans = explain_placement(store, p, as_of_ns=as_of_ns, categories=categories, similar=False,
                                    lexical=lexical)
            if ans is not None:
                return ans
    for p in tried:
        ans = explain_placement(store, p, as_of_ns=as_of_ns, categories=categories, embedder=embedder)
        if ans is not None:
            return ans
    return None


def placement_for(store: MemoryStore, label: str, as_of_ns: int | None = None,
                  categories: CategoryMap | None = None, similar: bool = True) -> Placement | None:
    """(receptacle, predicate, support_event_ids, confidence) for ``label``, or None; see
    ``explain_placement`` for which fact or rule (or, with ``similar``, which similar objects) answered."""
    ans = explain_placement(store, label, as_of_ns=as_of_ns, categories=categories, similar=similar)
    return Placement(ans.receptacle, ans.predicate, list(ans.support_event_ids), ans.confidence) if ans else None


def correction_records(store: MemoryStore, kind: str, as_of_ns: int | None = None,
                      entity_id: str = "") -> list[MemoryRecord]:
    """The ``rules`` or ``facts`` store of ~/query as generic records (holding at ``as_of_ns``)."""
    out: list[MemoryRecord] = []
    if kind == "rules":
        for r in rules(store, as_of_ns=as_of_ns):
            if not entity_id or r.receptacle_id == entity_id:
                out.append(MemoryRecord.of("rule", r.id, r.text(), r, r.valid_from_ns, score=r.confidence))
    elif kind == "facts":
        for f in facts(store, as_of_ns=as_of_ns):
            if not entity_id or f.target_id == entity_id:
                out.append(MemoryRecord.of("fact", f.id, f.text(), f, f.valid_from_ns))
    return out
