"""Name an object's colour from its masked pixels: nearest palette colour in CIE Lab, by pixel vote.

Why Lab: distances in it follow what people see as different far better than RGB distances do, so
"nearest" means nearest to the eye. Why a vote over pixels rather than the mean colour: a lit top and a
shaded side of one blue box average to something no palette entry names well, while most of its pixels
are still nearest to blue; a specular highlight or a few background pixels at the mask's edge lose the vote.

The palette uses the simulator's colour words (``memory_node/sim/colors.py``: the words scene files and
users say, "the blue mug"), with the same sRGB values, so a rendered object is named by the word its scene
author wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from memory_node.core.models import InvalidInput

# sRGB in [0, 1]; the simulator renders with the same palette (sim/colors.py), so its scenes name colours
# that perception reads back as the same words
PALETTE: dict[str, tuple[float, float, float]] = {
    "red": (0.80, 0.10, 0.10),
    "orange": (0.95, 0.55, 0.10),
    "yellow": (0.95, 0.85, 0.15),
    "green": (0.20, 0.65, 0.20),
    "lime": (0.55, 0.85, 0.20),
    "blue": (0.15, 0.30, 0.85),
    "purple": (0.50, 0.20, 0.60),
    "pink": (0.95, 0.55, 0.70),
    "brown": (0.50, 0.32, 0.18),
    "beige": (0.85, 0.78, 0.62),
    "white": (0.93, 0.93, 0.93),
    "grey": (0.55, 0.55, 0.55),
    "black": (0.08, 0.08, 0.08),
    "silver": (0.75, 0.75, 0.78),
}

# Lightness counts half in the distance (as CMC l:c = 2:1 does for acceptability): lighting and shading
# move lightness far more than hue or chroma, and a shaded face should keep its colour's name.
LIGHTNESS_WEIGHT = 0.5
# At most this many pixels vote: a 640x480 mask of a table would otherwise cost milliseconds for nothing.
MAX_VOTING_PIXELS = 1024


def to_lab(rgb: np.ndarray) -> np.ndarray:
    """(N, 3) RGB (uint8 0-255 or float 0-1) -> (N, 3) float32 CIE Lab (L 0-100), via OpenCV."""
    arr = np.asarray(rgb)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise InvalidInput(f"colours must be an (N, 3) array, got {arr.shape}")
    f = arr.astype(np.float32) / 255.0 if arr.dtype == np.uint8 else arr.astype(np.float32)
    # float input in [0, 1] gives L in [0, 100], a and b about [-128, 127]
    return cv2.cvtColor(f.reshape(-1, 1, 3), cv2.COLOR_RGB2Lab).reshape(-1, 3)


_NAMES = list(PALETTE)
_PALETTE_LAB = to_lab(np.array([PALETTE[n] for n in _NAMES], dtype=np.float32))
_WEIGHTS = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0], dtype=np.float32)


@dataclass(frozen=True)
class ColorName:
    name: str
    share: float  # fraction of the voting pixels nearest to this colour


def nearest_color(rgb: np.ndarray) -> np.ndarray:
    """Index into the palette's names of the nearest colour of each (N, 3) RGB value."""
    lab = to_lab(rgb)
    d = (((lab[:, None, :] - _PALETTE_LAB[None, :, :]) * _WEIGHTS) ** 2).sum(axis=2)
    return np.argmin(d, axis=1)


def color_of_mask(image_rgb: np.ndarray, mask: np.ndarray, *, box: tuple[int, int, int, int] | None = None,
                  seed: int = 0) -> ColorName:
    """The palette colour most of the masked pixels are nearest to. ``box`` (x0, y0, x1, y1), the mask's
    pixel box when the caller has it, limits the work to it."""
    if image_rgb.ndim != 3 or image_rgb.shape[2] != 3 or image_rgb.dtype != np.uint8:
        raise InvalidInput(f"image must be HxWx3 uint8 RGB, got {image_rgb.shape} {image_rgb.dtype}")
    if mask.shape != image_rgb.shape[:2]:
        raise InvalidInput(f"mask shape {mask.shape} does not match the image {image_rgb.shape[:2]}")
    if box is not None:
        x0, y0, x1, y1 = box
        image_rgb, mask = image_rgb[y0:y1, x0:x1], mask[y0:y1, x0:x1]
    pixels = image_rgb[mask.astype(bool)]
    if len(pixels) == 0:
        raise InvalidInput("mask is empty: no pixels to name a colour from")
    if len(pixels) > MAX_VOTING_PIXELS:
        # a fixed seed: the same frame always gets the same name
        pick = np.random.default_rng(seed).choice(len(pixels), MAX_VOTING_PIXELS, replace=False)
        pixels = pixels[pick]
    votes = np.bincount(nearest_color(pixels), minlength=len(_NAMES))
    best = int(np.argmax(votes))
    return ColorName(name=_NAMES[best], share=float(votes[best]) / float(votes.sum()))


def palette_names() -> list[str]:
    return list(_NAMES)
