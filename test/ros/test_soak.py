"""A short soak (bench/soak.py) through the real node over real DDS: 300-entity graphs at 10 Hz, 640x480
frames at 30 Hz and an event a second, half a minute of event time. Nothing published on the reliable
topics is lost, nothing is rejected, memory holds every graph and event, and the node's RSS stays flat
after warm-up. ``scripts/soak.sh --minutes 30`` is the long run of the same code."""

from memory_node.bench.soak import run_soak


def test_a_short_soak_loses_nothing_and_the_node_does_not_grow(ros, tmp_path):
    result = run_soak(0.5, workdir=tmp_path, progress=False, sample_every_s=3.0)
    print(result.report())
    assert result.published["scene_graphs"] == 300 and result.published["events"] == 30
    assert result.lost == {"scene_graphs": 0, "events": 0}
    assert result.processed["scene_graphs"] == 300 and result.processed["events"] == 30
    assert result.rejected == {"scene_graphs": 0, "events": 0, "images": 0}
    # best-effort frames: nearly all processed at this pace; what was admitted is what memory holds
    assert result.processed["images"] >= 0.95 * result.published["images"]
    assert 0 < result.frames_admitted == result.stored["frames"]
    warm = [s.rss_mb for s in result.samples if s.event_s >= 6.0]
    assert max(warm) - warm[0] < 40, [round(s.rss_mb) for s in result.samples]  # MB: no leak per message
    assert float(result.write_ms["write_ms_median_scene_graphs"]) > 0
