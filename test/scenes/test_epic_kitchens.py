"""EPIC-KITCHENS-100 annotations as one participant's activity in time order (read from ../shared/data)."""

from __future__ import annotations

import ast
import csv
import os
from pathlib import Path

import pytest

from memory_node.scenes import epic_kitchens as ek

DATA = Path(os.environ.get("EPIC_KITCHENS_DIR")
            or Path(__file__).resolve().parents[3] / "shared" / "data" / "epic_kitchens_100")
needs_data = pytest.mark.skipif(not (DATA / "EPIC_100_validation.csv").is_file(),
                                reason=f"EPIC-KITCHENS-100 annotations not found at {DATA}")
PARTICIPANT = "P23"  # 553 actions in 5 videos: moderate


def _rows(participant: str) -> dict[str, dict[str, str]]:
    """The participant's rows straight from the CSV files, independently of the loader."""
    rows: dict[str, dict[str, str]] = {}
    for path in [DATA / "EPIC_100_validation.csv", *sorted((DATA / "UDA_annotations").glob("*.csv"))]:
        with path.open(newline="") as f:
            for r in csv.DictReader(f):
                if r.get("participant_id") == participant and "verb" in r:
                    rows[r["narration_id"]] = r
    return rows


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, str]]:
    return _rows(PARTICIPANT)


@pytest.fixture(scope="module")
def obs() -> list:
    return ek.load_participant(PARTICIPANT, DATA)


def test_spoken_nouns_and_timestamps():
    assert ek.spoken_noun("box:lunch") == "lunch box"
    assert ek.spoken_noun("bowl:washing:up") == "washing up bowl"
    assert ek.spoken_noun("tap") == "tap"
    assert ek.parse_timestamp("00:01:02.50") == pytest.approx(62.5)
    assert ek.parse_timestamp("01:00:00.000") == 3600.0


def test_missing_data_says_where_it_looked(tmp_path):
    with pytest.raises(FileNotFoundError, match="EPIC_KITCHENS_DIR"):
        ek.read_actions("P01", tmp_path)


@needs_data
def test_one_participant_in_time_order_on_one_timeline(rows, obs):
    assert len(obs) == len(rows) > 300  # every annotated action once, across the annotation files
    stamps = [o.stamp_ns for o in obs]
    assert stamps == sorted(stamps)
    assert all(o.actor == PARTICIPANT and o.location == f"kitchen_{PARTICIPANT}" and o.text for o in obs)
    assert {o.text for o in obs} <= {r["narration"].strip() for r in rows.values()}

    # videos one after another, each starting an hour after the previous one ended
    actions = ek.read_actions(PARTICIPANT, DATA)
    videos = list(dict.fromkeys(a.video_id for a in actions))
    assert videos == sorted(videos, key=lambda v: int(v.split("_")[1])) and len(videos) == 5
    durations = ek.video_durations(DATA)
    first = actions[0]
    assert obs[0].stamp_ns == ek.DEFAULT_START_NS + round(first.start_s * ek.SECOND_NS)
    second = next(i for i, a in enumerate(actions) if a.video_id == videos[1])
    offset = ek.DEFAULT_START_NS + round(durations[videos[0]] * ek.SECOND_NS) + ek.DEFAULT_VIDEO_GAP_NS
    assert obs[second].stamp_ns == offset + round(actions[second].start_s * ek.SECOND_NS)
    assert obs[second].stamp_ns - obs[second - 1].stamp_ns > ek.DEFAULT_VIDEO_GAP_NS


@needs_data
def test_class_keys_by_default_parsed_words_on_request(rows, obs):
    with (DATA / "EPIC_100_verb_classes.csv").open(newline="") as f:
        verb_keys = {r["key"] for r in csv.DictReader(f)}
    assert {o.verb for o in obs} <= verb_keys  # "pick-up", "grab", "get" are all "take"
    raw = ek.load_participant(PARTICIPANT, DATA, raw=True)
    parsed = {r["verb"] for r in rows.values()}
    assert {o.verb for o in raw} == parsed and parsed - verb_keys
    nouns = {ek.spoken_noun(n) for r in rows.values() for n in ast.literal_eval(r["all_nouns"])}
    assert {x for o in raw for x in o.objects} <= nouns


@needs_data
def test_first_videos_only(rows):
    obs = ek.load_participant(PARTICIPANT, DATA, max_videos=1)
    first_video = ek.read_actions(PARTICIPANT, DATA)[0].video_id
    assert len(obs) == sum(1 for r in rows.values() if r["video_id"] == first_video)
