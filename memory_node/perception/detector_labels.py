"""A learned detector's class names as memory's labels: COCO's "couch" is a sofa, "dining table" a table.

The route is documented in ``config/perception/detector_labels.yaml`` (the vocabulary's spellings, the few
household words that differ from a class name, the head noun of compounds the category map does not know
whole). It is applied once per class when a detector is built, so it costs nothing per frame, and it is the
same for every scene: no table names a scene's objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import yaml

from memory_node.core.categories import CategoryMap, default_map
from memory_node.core.models import normalize_label
from memory_node.core.resources import config_path
from memory_node.core.text import key, tokens

_CONFIG = "perception/detector_labels.yaml"


@dataclass(frozen=True)
class DetectorLabels:
    spellings: Mapping[str, str] = field(default_factory=dict)  # vocabulary spelling key -> class name
    words: Mapping[str, str] = field(default_factory=dict)  # class name key -> household word
    ignore: frozenset[str] = frozenset()  # memory labels not kept (normalised)
    categories: CategoryMap | None = None

    @classmethod
    def load(cls, categories: CategoryMap | None = None) -> DetectorLabels:
        data = yaml.safe_load(config_path(_CONFIG).read_text(encoding="utf-8")) or {}
        return cls(spellings={key(k): str(v) for k, v in (data.get("spellings") or {}).items()},
                   words={key(k): str(v) for k, v in (data.get("words") or {}).items()},
                   ignore=frozenset(normalize_label(str(w)) for w in data.get("ignore") or []),
                   categories=categories or default_map())

    def label(self, class_name: str) -> str:
        """Memory's label for one class name (normalised as entity labels are)."""
        name = self.spellings.get(key(class_name), class_name)
        word = self.words.get(key(name))
        if word is not None:
            return normalize_label(word)
        ws = tokens(name)
        cmap = self.categories
        if len(ws) > 1 and cmap is not None and key(name) not in cmap.word_category \
                and ws[-1] in cmap.word_category:
            return normalize_label(ws[-1])
        return normalize_label(name)

    def table(self, names: Mapping[int, str], ignore: Iterable[str] | None = None) -> dict[int, str]:
        """class id -> memory label for a model's names, without the ignored labels (``ignore`` replaces the
        shipped list when given; it takes class names or memory labels)."""
        out = {int(i): self.label(str(n)) for i, n in names.items()}
        dropped = self.ignore if ignore is None else frozenset(self.label(w) for w in ignore if str(w).strip())
        return {i: lab for i, lab in out.items() if lab not in dropped}


@lru_cache(maxsize=1)
def default_labels() -> DetectorLabels:
    return DetectorLabels.load()
