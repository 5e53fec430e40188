"""EPIC-KITCHENS-100 action annotations as a person's observed activity, in time order (pure Python, no ROS).

EPIC-KITCHENS-100 (Damen et al., IJCV 2022; https://epic-kitchens.github.io, CC BY-NC 4.0 — non-commercial
use, credit the authors) narrates what 45 people did in their own kitchens, filmed from their heads: one row
per action with its participant, video, start time, verb and nouns. That is the kind of experience a robot
living with someone would observe, so one participant's rows, replayed in order, are a real test of what
memory consolidates into routines, habits and preferences. The annotations are read from where they lie
(``../shared/data/epic_kitchens_100`` beside the repository, or ``$EPIC_KITCHENS_DIR``); they are never
copied into this repository.

Timeline: a participant's videos are laid one after another on one clock starting at ``start_ns``, each
video after the previous one's full duration plus ``video_gap_ns`` (so a video is one session), and an
action's stamp is its video's offset plus the action's ``start_timestamp``.

Vocabulary: by default verbs and nouns are EPIC's own class keys ("pick-up", "grab" and "take" are all
``take``; "saucepan" is ``pan``), because habits only show when the same action is named the same way each
time; the narration itself ("pick up saucepan") is kept as the activity's text. ``raw=True`` keeps the
parsed verb and nouns instead. Compound nouns are spoken ("box:lunch" -> "lunch box").
"""

from __future__ import annotations

import ast
import csv
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_node.core.models import ActivityObservation

SECOND_NS = 1_000_000_000
DEFAULT_START_NS = 1_600_000_000 * SECOND_NS  # event time of the replay: far from the wall clock
DEFAULT_VIDEO_GAP_NS = 3600 * SECOND_NS       # an hour between videos: each video is its own session
ANNOTATION_FILES = ("EPIC_100_validation.csv", "UDA_annotations/*.csv")
_REQUIRED = {"narration_id", "participant_id", "video_id", "start_timestamp", "narration", "verb",
             "verb_class", "all_nouns", "all_noun_classes"}
_VIDEO_RE = re.compile(r"^(?P<p>P\d+)_(?P<n>\d+)$")


def default_data_dir() -> Path:
    """``$EPIC_KITCHENS_DIR``, else ``../shared/data/epic_kitchens_100`` relative to the repository."""
    env = os.environ.get("EPIC_KITCHENS_DIR")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[2]  # memory_node/scenes/ -> repository root
    return repo.parent / "shared" / "data" / "epic_kitchens_100"


@dataclass(frozen=True)
class EpicAction:
    """One annotated action as read from the CSV files, before it becomes an observation."""

    narration_id: str
    participant: str
    video_id: str
    start_s: float
    narration: str
    verb: str
    nouns: tuple[str, ...]


def parse_timestamp(text: str) -> float:
    """``HH:MM:SS.ss`` -> seconds."""
    h, m, s = text.strip().split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def spoken_noun(noun: str) -> str:
    """EPIC writes a noun then its modifiers ("bowl:washing:up"); a person says "washing up bowl"."""
    parts = [p for p in noun.strip().split(":") if p]
    return " ".join(parts[1:] + parts[:1])


def _video_order(video_id: str) -> tuple[str, int, str]:
    m = _VIDEO_RE.match(video_id)
    return (m.group("p"), int(m.group("n")), video_id) if m else (video_id, 0, video_id)


def _class_keys(path: Path) -> dict[int, str]:
    with path.open(newline="") as f:
        return {int(r["id"]): r["key"] for r in csv.DictReader(f)}


def _annotation_paths(data_dir: Path) -> list[Path]:
    paths: list[Path] = []
    for pattern in ANNOTATION_FILES:
        paths += sorted(data_dir.glob(pattern))
    return paths


def read_actions(participant: str, data_dir: str | Path | None = None, raw: bool = False) -> list[EpicAction]:
    """Every annotated action of one participant across the annotation files (each action once), in
    replay order: videos in recording order (P03_02 ... P03_28, then the 2020 extension P03_101 ...),
    actions by start time within a video."""
    data_dir = Path(data_dir) if data_dir else default_data_dir()
    paths = _annotation_paths(data_dir)
    if not paths:
        raise FileNotFoundError(f"no EPIC-KITCHENS-100 annotations under {data_dir} "
                                f"(expected {', '.join(ANNOTATION_FILES)}; set EPIC_KITCHENS_DIR)")
    verbs: dict[int, str] = {}
    nouns: dict[int, str] = {}
    if not raw:
        verbs = _class_keys(data_dir / "EPIC_100_verb_classes.csv")
        v2 = data_dir / "EPIC_100_noun_classes_v2.csv"
        nouns = _class_keys(v2 if v2.exists() else data_dir / "EPIC_100_noun_classes.csv")
    seen: dict[str, EpicAction] = {}
    for path in paths:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            if not _REQUIRED <= set(reader.fieldnames or ()):
                continue  # a timestamps-only split (test sets) carries no labels
            for row in reader:
                if row["participant_id"] != participant or row["narration_id"] in seen:
                    continue
                if raw:
                    verb = row["verb"]
                    noun_list = ast.literal_eval(row["all_nouns"])
                else:
                    verb = verbs.get(int(row["verb_class"]), row["verb"])
                    noun_list = [nouns.get(int(c), "") for c in ast.literal_eval(row["all_noun_classes"])]
                seen[row["narration_id"]] = EpicAction(
                    narration_id=row["narration_id"], participant=participant, video_id=row["video_id"],
                    start_s=parse_timestamp(row["start_timestamp"]), narration=row["narration"].strip(),
                    verb=verb, nouns=tuple(dict.fromkeys(spoken_noun(n) for n in noun_list if n)))
    return sorted(seen.values(), key=lambda a: (_video_order(a.video_id), a.start_s,
                                                int(a.narration_id.rsplit("_", 1)[-1])))


def video_durations(data_dir: str | Path | None = None) -> dict[str, float]:
    """Seconds per video from ``EPIC_100_video_info.csv`` (empty when the file is missing)."""
    path = Path(data_dir or default_data_dir()) / "EPIC_100_video_info.csv"
    if not path.exists():
        return {}
    with path.open(newline="") as f:
        return {r["video_id"]: float(r["duration"]) for r in csv.DictReader(f)}


def to_observations(actions: Iterable[EpicAction], durations: dict[str, float] | None = None,
                    start_ns: int = DEFAULT_START_NS,
                    video_gap_ns: int = DEFAULT_VIDEO_GAP_NS) -> Iterator[ActivityObservation]:
    """Lay the actions on one timeline (see module docstring); a video without a known duration lasts
    until its last action starts."""
    durations = durations or {}
    by_video: dict[str, list[EpicAction]] = {}
    for a in actions:
        by_video.setdefault(a.video_id, []).append(a)
    offset_ns = start_ns
    for video_id in sorted(by_video, key=_video_order):
        acts = sorted(by_video[video_id], key=lambda a: a.start_s)
        for a in acts:
            yield ActivityObservation(
                stamp_ns=offset_ns + round(a.start_s * SECOND_NS), actor=a.participant, verb=a.verb,
                objects=list(a.nouns), location=f"kitchen_{a.participant}", text=a.narration)
        length_s = max(durations.get(video_id, 0.0), acts[-1].start_s)
        offset_ns += round(length_s * SECOND_NS) + video_gap_ns


def load_participant(participant: str, data_dir: str | Path | None = None, raw: bool = False,
                     max_videos: int | None = None, start_ns: int = DEFAULT_START_NS,
                     video_gap_ns: int = DEFAULT_VIDEO_GAP_NS) -> list[ActivityObservation]:
    """One participant's actions as activity observations in time order (the first ``max_videos``
    videos only, when given)."""
    actions = read_actions(participant, data_dir, raw=raw)
    if max_videos is not None:
        keep = set(sorted({a.video_id for a in actions}, key=_video_order)[:max_videos])
        actions = [a for a in actions if a.video_id in keep]
    return list(to_observations(actions, video_durations(data_dir), start_ns=start_ns,
                                video_gap_ns=video_gap_ns))
