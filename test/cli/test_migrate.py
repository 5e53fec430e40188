"""memory-node migrate: a robot's SQLite memory into a PostgreSQL site database and back, whole (issue 21)."""

from cli_helpers import S, T0, fill

from memory_node.core import rules
from memory_node.core.models import ActivityObservation, UtteranceObservation
from memory_node.core.query import query
from memory_node.core.store import MemoryStore


def _snapshot(store: MemoryStore) -> dict:
    """What a reader of this memory sees: every kind of record, now and as of a past time, and search."""
    ents = store.entities(include_absent=True)
    return {
        "entities": [e.model_dump() for e in ents],
        "history": {e.id: [v.model_dump() for v in store.history(e.id)] for e in ents},
        "past": [e.model_dump() for e in store.entities(as_of_ns=T0 + 15 * S, include_absent=True)],
        "relations": [r.model_dump() for r in store.relations()],
        "relations_past": [r.model_dump() for r in store.relations(as_of_ns=T0 + 15 * S)],
        "events": [e.model_dump() for e in store.events(limit=1000)],
        "observations": [o.model_dump() for o in store.observations(limit=1000)],
        "sightings": [s.model_dump() for s in store.sightings()],
        "facts": [f.model_dump() for f in rules.facts(store, history=True)],
        "rules": [r.model_dump() for r in rules.rules(store, history=True)],
        "search": [r.id for r in query(store, text="mug")],
        "counts": store.counts(),
    }


def test_a_memory_goes_to_a_site_database_and_back_whole(tmp_path, site_url, cli):
    path = tmp_path / "vega.db"
    store = MemoryStore(path)
    fill(store)
    for k, what in enumerate(("fork", "spoon")):
        store.ingest_utterance(UtteranceObservation(stamp_ns=T0 + (50 + k) * S, speaker="alex",
                                                    text=f"put the {what} in the drawer"))
    store.ingest_activity(ActivityObservation(stamp_ns=T0 + 60 * S, actor="alex", verb="open", objects=["fridge"]))
    before = _snapshot(store)
    assert before["rules"] and before["facts"] and len(before["history"]["mug_1"]) == 2
    store.close()

    code, out, err = cli("migrate", path, site_url)
    assert code == 0, err
    assert f"{before['counts']['entities']} entities" in out and "secret" not in out
    site = MemoryStore(site_url, frame_dir=tmp_path / "frames")
    assert site.backend == "postgresql"
    assert _snapshot(site) == before
    site.close()

    back = tmp_path / "back.db"
    code, _, err = cli("migrate", site_url, back)
    assert code == 0, err
    again = MemoryStore(back)
    assert _snapshot(again) == before
    # what the copy indexes it indexed on arrival: new writes and searches work as on the original
    again.ingest_utterance(UtteranceObservation(stamp_ns=T0 + 70 * S, text="the knife goes in the drawer too"))
    assert [r.id for r in query(again, text="knife", kind="events")]
    again.close()


def test_a_target_that_holds_a_memory_is_refused(tmp_path, site_url, cli):
    path = tmp_path / "vega.db"
    store = MemoryStore(path)
    fill(store)
    store.close()
    assert cli("migrate", path, site_url)[0] == 0
    code, _, err = cli("migrate", path, site_url)
    assert code != 0 and "not empty" in err
    code, _, err = cli("migrate", tmp_path / "none.db", site_url)
    assert code != 0 and "no memory" in err
