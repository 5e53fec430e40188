"""Named colours of simulated things.

Scene files name colours rather than give RGB so that the colour perception reports (an entity attribute,
"the blue mug") is the same word the scene author wrote; the renderer gets the RGB from this palette.
"""

from __future__ import annotations

# one palette for the renderer and for colour perception (perception/colors.py names pixels with it), so
# what perception reports of a simulated thing is the word the scene author wrote
from memory_node.perception.colors import PALETTE  # noqa: E402

__all__ = ["CATEGORY_COLORS", "CLASS_COLORS", "PALETTE", "color_for", "rgb"]

# Plausible colours per VirtualHome class, for the converter; unknown classes fall back by category.
CLASS_COLORS: dict[str, str] = {
    "apple": "red", "bananas": "yellow", "lime": "lime", "peach": "orange", "plum": "purple",
    "bellpepper": "green", "salmon": "pink", "pie": "brown", "cereal": "yellow", "chips": "orange",
    "crackers": "beige", "candybar": "brown", "creamybuns": "beige", "chocolatesyrup": "brown",
    "whippedcream": "white", "breadslice": "beige", "mug": "blue", "waterglass": "silver",
    "wineglass": "silver", "plate": "white", "dishbowl": "white", "cutleryfork": "silver",
    "cutleryknife": "silver", "fryingpan": "black", "cellphone": "black", "remotecontrol": "black",
    "book": "red", "folder": "blue", "paper": "white", "box": "brown", "photoframe": "black",
    "washingsponge": "yellow", "dishwashingliquid": "green", "condimentbottle": "red",
    "condimentshaker": "white", "pillow": "beige", "clothespile": "blue", "towel": "white",
    "toothbrush": "blue", "toothpaste": "white", "barsoap": "pink", "candle": "white",
    "fridge": "white", "microwave": "silver", "stove": "black", "kitchencounter": "beige",
    "kitchencabinets": "beige", "kitchentable": "brown", "cabinet": "brown", "closet": "brown",
    "bookshelf": "brown", "desk": "brown", "coffeetable": "brown", "tvstand": "black", "sofa": "grey",
    "chair": "brown", "bench": "brown", "bed": "white", "tv": "black", "toilet": "white", "sink": "white",
    "bathtub": "white", "washingmachine": "white", "computer": "black", "cpuscreen": "black",
    "keyboard": "black", "mouse": "grey", "mousemat": "blue", "rug": "red", "wall": "beige",
}
CATEGORY_COLORS: dict[str, str] = {
    "furniture": "brown", "appliances": "silver", "electronics": "black", "food": "orange",
    "props": "grey", "decor": "beige", "lamps": "white",
}


def rgb(name: str) -> tuple[float, float, float]:
    """RGB of a palette colour; KeyError names the palette so a scene author can fix a typo."""
    try:
        return PALETTE[name]
    except KeyError:
        raise KeyError(f"unknown colour {name!r}; known: {', '.join(PALETTE)}") from None


def color_for(label: str, category: str = "") -> str:
    return CLASS_COLORS.get(label) or CATEGORY_COLORS.get(category.lower(), "grey")
