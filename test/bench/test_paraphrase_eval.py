"""The paraphrase benchmark's harness itself: its data, its split and its graders (not how well the system
scores on it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_node.bench import paraphrase_eval as pe
from memory_node.core.models import Answer, EntityObservation, Plan, PlanResult, SkillCall
from memory_node.core.store import MemoryStore
from memory_node.planning.skills import SkillLibrary, default_library_path
from memory_node.scenes.virtualhome import VirtualHomeScene

SCENE = pe.DATA / "virtualhome_graphs" / "example_graphs" / "TestScene2_graph.json"


def test_data_loads_and_is_big_enough():
    records = pe.load_records("all")
    assert len(records) >= 400
    assert len({r["intent"] for r in records}) >= 25
    assert pe.check_records(records) == []
    assert {r["intent"] for r in records} == set(pe.INTENTS)
    texts = [(r["intent"], r["text"], r["service"]) for r in records]
    assert len(texts) == len(set(texts)), "a template is listed twice"


def test_both_splits_have_every_intent():
    dev, held = pe.load_records("dev"), pe.load_records("heldout")
    assert {r["intent"] for r in dev} == {r["intent"] for r in held} == set(pe.INTENTS)
    assert abs(len(dev) - len(held)) <= len(pe.INTENTS)


def test_files_are_the_seeded_split():
    split = pe.split_records(pe.load_records("all"), 2026)
    for name in pe.SPLITS:
        on_disk = [{k: v for k, v in r.items() if k != "split"} for r in pe.load_records(name)]
        assert on_disk == split[name]


@pytest.fixture
def tiny(tmp_path: Path):
    room = EntityObservation(id="kitchen_1", label="room", name="kitchen", room="kitchen_1")
    ents = {e.id: e for e in [
        EntityObservation(id="table_1", label="kitchentable", room="kitchen_1",
                          attributes={"category": "furniture", "surface": "true"}),
        EntityObservation(id="cabinet_1", label="cabinet", room="kitchen_1",
                          attributes={"category": "furniture", "container": "true", "openable": "true"}),
        EntityObservation(id="sofa_1", label="sofa", room="kitchen_1", attributes={"category": "furniture"}),
        EntityObservation(id="mug_1", label="mug", room="kitchen_1", attributes={"grabbable": "true"}),
        EntityObservation(id="mug_2", label="mug", room="kitchen_1", attributes={"grabbable": "true"}),
    ]}
    scene = VirtualHomeScene(name="tiny", rooms={"kitchen_1": room}, entities=ents)
    store = MemoryStore(tmp_path / "tiny.db")
    loc = {"mug_1": ("on", "table_1"), "mug_2": ("in", "cabinet_1")}
    w = pe.World("tiny", scene, store, dict(ents), loc, {i: e.room for i, e in ents.items()})
    yield w, SkillLibrary.load(default_library_path("vega"))
    store.close()


def _ans(text: str, ids=(), confidence: float = 1.0) -> Answer:
    return Answer(success=True, answer=text, answer_ids=list(ids), confidence=confidence)


def _plan(*steps: tuple[str, list[str]], explanation: str = "done") -> PlanResult:
    return PlanResult(success=True, plan=Plan(robot="vega", instruction="x", explanation=explanation,
                                              steps=[SkillCall(skill=s, args=a) for s, a in steps]))


def test_answer_graders_accept_right_and_reject_wrong(tiny):
    w, lib = tiny
    g = lambda exp, reply: pe.grade(w, lib, exp, "ask", reply)[0]  # noqa: E731
    where = pe.Expect("ids_any", accept=frozenset({"table_1"}))
    assert g(where, _ans("It's on the kitchen table.", ["table_1"]))
    assert not g(where, _ans("It's in the cabinet.", ["cabinet_1"]))
    assert not g(where, _ans("", ["table_1"]))  # an empty answer fails even with the right id
    assert pe.is_empty("ask", _ans("  ", ["table_1"]))
    no = pe.Expect("yesno", truth=False)
    assert g(no, _ans("No, the cabinet is closed."))
    assert not g(no, _ans("Yes, it is open."))
    maybe = pe.Expect("yesno_or_unknown", ids=("cabinet_1",), truth=False)
    assert g(maybe, _ans("No, it is not locked.", ["cabinet_1"]))
    assert g(maybe, _ans("I have no record of whether the cabinet is locked.", ["cabinet_1"], confidence=0.0))
    assert not g(maybe, _ans("Yes, the cabinet is locked.", ["cabinet_1"]))
    assert g(pe.Expect("count", number=2), _ans("There are two mugs in the kitchen."))
    assert not g(pe.Expect("count", number=2), _ans("3 mugs"))
    assert g(pe.Expect("colour", words=("blue",)), _ans("It is blue."))
    assert not g(pe.Expect("colour", words=("blue",)), _ans("It is red."))
    stamp = pe.T0 + (6 * 60 + 40) * pe.MINUTE
    assert g(pe.Expect("time", stamp_ns=stamp), _ans("I last saw it at 3:40 pm."))
    assert not g(pe.Expect("time", stamp_ns=stamp), _ans("I last saw it at 09:00."))
    unknown = pe.Expect("not_known")
    assert g(unknown, _ans("I have not seen an umbrella.", confidence=0.0))
    assert not g(unknown, _ans("The umbrella is on the table.", ["table_1"]))
    amb = pe.Expect("ambiguity", ids=("mug_1", "mug_2"), accept=frozenset({"table_1", "cabinet_1"}))
    assert g(amb, _ans("Which mug: mug_1 on the table or mug_2 in the cabinet?", ["mug_1", "mug_2"]))
    assert not g(amb, _ans("The mug is on the table.", ["table_1"]))
    which = pe.Expect("which", accept=frozenset({"mug_1"}), avoid=frozenset({"mug_2"}))
    assert g(which, _ans("That one: mug_1", ["mug_1"]))
    assert not g(which, _ans("Both", ["mug_1", "mug_2"]))


def test_plan_graders_accept_right_and_reject_wrong(tiny):
    w, lib = tiny
    g = lambda exp, reply: pe.grade(w, lib, exp, "plan", reply)[0]  # noqa: E731
    fetch = pe.Expect("fetch", ids=("mug_1",))
    right = _plan(("navigate_to", ["table_1"]), ("pick", ["mug_1"]), ("handover", ["mug_1"]))
    assert g(fetch, right)
    assert not g(fetch, _plan(("navigate_to", ["cabinet_1"]), ("pick", ["mug_2"]), ("handover", ["mug_2"])))
    assert not g(fetch, _plan(("pick", ["mug_1"]), ("pick", ["sofa_1"]), ("handover", ["mug_1"])))  # furniture
    assert not g(fetch, _plan(("navigate_to", ["table_1"]), ("pick", ["mug_1"])))  # never handed over
    w.ents["person_anna"] = EntityObservation(id="person_anna", label="person", name="anna", room="kitchen_1")
    w.ents["person_ben"] = EntityObservation(id="person_ben", label="person", name="ben", room="kitchen_1")
    to_me = pe.Expect("fetch", ids=("mug_1",), me="person_anna")
    assert g(to_me, _plan(("pick", ["mug_1"]), ("navigate_to", ["person_anna"]), ("handover", ["mug_1"])))
    assert not g(to_me, _plan(("pick", ["mug_1"]), ("navigate_to", ["person_ben"]), ("handover", ["mug_1"])))
    empty = _plan(("navigate_to", ["table_1"]), ("pick", ["mug_1"]), ("handover", ["mug_1"]), explanation="")
    assert not g(fetch, empty) and pe.is_empty("plan", empty)
    refusal = pe.Expect("refusal")
    assert g(refusal, PlanResult(success=False, error="a sofa cannot be picked up"))
    assert not g(refusal, PlanResult(success=False, error=""))
    assert not g(refusal, _plan(("pick", ["sofa_1"]), ("handover", ["sofa_1"])))
    put = pe.Expect("place", ids=("mug_1",), accept=frozenset({"table_1"}))
    assert g(put, _plan(("pick", ["mug_1"]), ("navigate_to", ["table_1"]), ("place", ["mug_1", "table_1"])))
    assert not g(put, _plan(("pick", ["mug_1"]), ("place", ["mug_1", "cabinet_1"])))
    nav = pe.Expect("navigate", accept=frozenset({"table_1"}), avoid=frozenset({"cabinet_1"}))
    assert g(nav, _plan(("navigate_to", ["table_1"])))
    assert not g(nav, _plan(("navigate_to", ["table_1"]), ("navigate_to", ["cabinet_1"])))
    amb = pe.Expect("ambiguity", ids=("mug_1", "mug_2"))
    assert g(amb, PlanResult(success=False, error="which mug do you mean: mug_1 or mug_2?"))
    assert not g(amb, right)


@pytest.mark.skipif(not SCENE.exists(), reason="VirtualHome apartments not present")
def test_every_template_fills_and_empty_replies_are_counted(tmp_path: Path):
    """One apartment, the system replaced by stubs that answer nothing: every template is filled, every
    reply counts as empty and as failed."""
    w = pe.build_world(SCENE, 0, tmp_path)
    assert w is not None
    lib = SkillLibrary.load(default_library_path("vega"))
    svc = pe.Services(lib, ask_fn=lambda store, text, **kw: Answer(success=True, answer=""),
                      plan_fn=lambda store, lib, text, **kw: PlanResult(success=False, error=""))
    records = pe.load_records("all")
    outcomes = [o for k, r in enumerate(records) if (o := pe.run_record(w, svc, r, k)) is not None]
    w.store.close()
    assert len(outcomes) >= 0.95 * len(records)
    assert all(o.empty and not o.ok for o in outcomes)
    assert "{" not in "".join(o.text for o in outcomes)  # no slot left unfilled


def test_the_other_writers_sets_are_well_formed() -> None:
    files = sorted(str(p) for p in (pe.HERE / "writers").glob("*.yaml"))
    later = ("d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x",
             "y", "z", "aa", "ab", "ac", "ad", "ae", "af", "ag", "ah", "ai", "aj", "ak", "al", "am", "an", "ao", "ap", "aq",
             "ar", "as", "at", "au", "av", "aw", "ax", "ay", "az", "ba", "bb", "bc", "bd", "be", "bf", "bg", "bh",
             "bi", "bj", "bk", "bl")
    assert len(files) == 2 + 2 * len(later)
    records = pe.load_files(files)
    assert len(records) >= 1480 and not pe.check_records(records)
    assert {r["split"] for r in records} == {"other_writer_b", "other_writer_c",
                                             *(f"other_writer_{w}_{half}" for w in later for half in ("dev", "aside"))}
    # the later writers' sets were split before anyone read them: no template in both halves
    for w in later:
        dev = {r["text"] for r in records if r["split"] == f"other_writer_{w}_dev"}
        aside = {r["text"] for r in records if r["split"] == f"other_writer_{w}_aside"}
        assert dev and aside and not dev & aside
    assert {r["intent"] for r in records} >= {"which_on_in", "which_next_to", "followup_pronoun", "functional"}


def test_a_new_writers_file_is_split_before_reading(tmp_path) -> None:
    lines = ["# writer x: a header", *(f'- {{"intent": "where_is", "service": "ask", "text": "where is the {{obj}} {i}"}}'
                                       for i in range(60))]
    src = tmp_path / "other_writer_x.yaml"
    src.write_text("\n".join(lines) + "\n")
    dev, aside = pe.aside_split(src)
    d, a = pe.load_files([str(dev)]), pe.load_files([str(aside)])
    assert len(d) + len(a) == 60 and 10 <= len(a) <= 30  # about one in three aside
    assert dev.read_text().startswith("# writer x") and aside.read_text().startswith("# writer x")
    again = pe.aside_split(src)  # by a hash of the text: the same split every time, in any order
    assert pe.load_files([str(again[1])]) == a
    src.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    pe.aside_split(src)
    assert sorted(r["text"] for r in pe.load_files([str(aside)])) == sorted(r["text"] for r in a)


def test_replies_are_classed_right_asked_refused_wrong() -> None:
    from types import SimpleNamespace as NS
    plan = NS(success=True, plan=NS(steps=[], explanation="x", instruction="x"), error="")
    assert pe.classify("plan", plan, True) == "right"
    assert pe.classify("plan", plan, False) == "wrong"  # a validated plan for the wrong thing
    assert pe.classify("plan", NS(success=False, plan=None, error="which mug do you mean?"), False) == "asked"
    assert pe.classify("plan", NS(success=False, plan=None, error="I have not seen a mug"), False) == "refused"
    assert pe.classify("ask", NS(success=True, answer="No record.", confidence=0.0, error=""), False) == "refused"
    assert pe.classify("ask", NS(success=True, answer="It is on the table.", confidence=1.0, error=""), False) == "wrong"
