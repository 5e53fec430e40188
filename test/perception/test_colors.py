"""Colour names from masked pixels: nearest palette colour in CIE Lab, by pixel vote."""

import numpy as np
import pytest

from memory_node.core.models import InvalidInput
from memory_node.perception.colors import PALETTE, color_of_mask, nearest_color, palette_names, to_lab
from memory_node.perception.segmentation_detector import SegmentationDetector
from memory_node.perception.synthetic import head_camera, kitchen_scene


def test_every_palette_colour_names_itself():
    rgb = np.array([PALETTE[n] for n in palette_names()], dtype=np.float32)
    assert [palette_names()[i] for i in nearest_color(rgb)] == palette_names()


def test_lab_of_known_colours():
    lab = to_lab(np.array([[255, 255, 255], [0, 0, 0], [255, 0, 0]], dtype=np.uint8))
    assert lab[0, 0] == pytest.approx(100, abs=0.5) and lab[1, 0] == pytest.approx(0, abs=0.5)
    assert lab[2, 1] > 60  # red: strongly positive a*


def test_shaded_and_noisy_pixels_keep_their_name():
    """A blue face lit at 55-100 % with sensor noise is still blue."""
    rng = np.random.default_rng(0)
    blue = np.array(PALETTE["blue"]) * 255
    pixels = np.clip(blue * rng.uniform(0.55, 1.0, (500, 1)) + rng.normal(0, 6, (500, 3)), 0, 255)
    image = pixels.astype(np.uint8).reshape(20, 25, 3)
    name = color_of_mask(image, np.ones((20, 25), bool))
    assert name.name == "blue" and name.share > 0.6  # the darkest pixels go to purple or black: they lose


def test_minority_background_pixels_lose_the_vote():
    image = np.zeros((10, 10, 3), np.uint8)
    image[:] = (np.array(PALETTE["red"]) * 255).astype(np.uint8)
    image[:, :3] = (np.array(PALETTE["white"]) * 255).astype(np.uint8)  # 30 % of the mask is the wall behind
    name = color_of_mask(image, np.ones((10, 10), bool))
    assert name.name == "red" and name.share == pytest.approx(0.7)


def test_rendered_objects_are_named_by_their_scene_colour():
    scene = kitchen_scene()
    k, pose = head_camera(320, 240)
    frame = scene.render(k, pose, color_noise=4.0, seed=2)
    expected = {"table": "brown", "mug": "blue", "plate": "white", "cabinet": "green", "box": "red",
                "banana": "yellow"}
    got = {}
    for d in SegmentationDetector(scene.labels, min_pixels=5).detect(frame):
        b = d.box
        got[d.label] = color_of_mask(frame.rgb, d.mask, box=(b.x0, b.y0, b.x1, b.y1)).name
    assert got == expected


def test_bad_input_gives_clear_errors():
    image = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(InvalidInput, match="empty"):
        color_of_mask(image, np.zeros((4, 4), bool))
    with pytest.raises(InvalidInput, match="does not match"):
        color_of_mask(image, np.ones((3, 4), bool))
    with pytest.raises(InvalidInput, match="uint8"):
        color_of_mask(image.astype(np.float32), np.ones((4, 4), bool))
    with pytest.raises(InvalidInput, match=r"\(N, 3\)"):
        to_lab(np.zeros((4, 4)))
