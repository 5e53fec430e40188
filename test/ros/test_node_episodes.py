"""Episodes (``bench/episodes_eval.py``) through the real node over DDS: a fresh node process per episode, its
experience published on the node's topics (scene graphs, skill feedback, utterances; ``~/sync`` before asking),
then its requests over ``~/ask`` and ``~/plan``, graded on ids. One dev episode of each family whose capability
this round built (a thing moved twice, a failed action, placement generalised from corrections, a colour that
singles one out, put away in a named place), each of which must come out right, and the same as in process."""

import pytest

from memory_node.bench import episodes_eval as ee
from memory_node.planning.skills import SkillLibrary

FAMILIES = ("passive", "appearance", "moved", "failed_action", "generalise")


@pytest.fixture(scope="module")
def episodes():
    if not ee.GRAPHS.is_dir():
        pytest.skip(f"the VirtualHome apartments are not here: {ee.GRAPHS}")
    eps = [e for e in ee.build_episodes(per_scene=3) if e.split == "dev"]
    picked = {}
    for e in eps:
        picked.setdefault(e.family, e)
    return [picked[f] for f in FAMILIES]


def test_episodes_over_dds_come_out_right_and_as_in_process(ros, tmp_path, episodes):
    lib = SkillLibrary.for_robot("vega")
    for ep in episodes:
        over_ros = ee.run_episode_ros(ep, "vega", tmp_path)
        in_process = ee.run_episode(ep, lib)
        got = [(req.text, c, ee.reply_text(reply)) for req, reply, c in over_ros]
        assert all(c == "right" for _, c, _ in got), (ep.id, got)
        assert [c for _, _, c in in_process] == [c for _, c, _ in got], ep.id
