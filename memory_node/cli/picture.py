"""Memory drawn as a person wants to see it: a top-down map (x right, y up, metres in the map frame) with
each room as a shaded area and its name, each object as a dot with its name, and each relation as an arrow
from the object to what it is in / on / next to, labelled with the predicate; optionally over the robot's
occupancy map. The layout is core/top_down.py's, the same the node's RViz markers use."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memory_node.core.store import MemoryStore
from memory_node.core.top_down import top_down_view

OBJECT_COLOUR = "#d62728"   # objects: one strong colour, readable on the map's greys and the room shades
RELATION_COLOUR = "#555555"
ROOM_COLOURS = ("#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5")
DPI = 100
# Above these, a picture of a whole apartment (300+ objects) is unreadable with every name and predicate on
# it, and matplotlib takes tens of seconds to place them: then only what things are in / on (and named
# objects) keep their names, and relations are drawn without their predicates.
MAX_LABELLED_OBJECTS = 60
MAX_LABELLED_RELATIONS = 40


@dataclass
class Drawn:
    """What went into the picture, with where each object landed in the PNG (pixel column, row)."""
    rooms: list[str] = field(default_factory=list)
    objects: dict[str, tuple[int, int]] = field(default_factory=dict)
    relations: int = 0
    labelled: int = 0  # objects whose name is written beside them
    unplaced: int = 0
    size: tuple[int, int] = (0, 0)  # width, height in pixels


def draw_memory(store: MemoryStore, out: str | Path, map_yaml: str | Path | None = None,
                as_of_ns: int | None = None, title: str = "", size_in: tuple[float, float] = (10.0, 8.0)) -> Drawn:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    view = top_down_view(store, as_of_ns=as_of_ns)
    fig, ax = plt.subplots(figsize=size_in, dpi=DPI)
    drawn = Drawn(unplaced=view.unplaced)
    extent = None
    if map_yaml:
        extent = _draw_map(ax, map_yaml)

    for i, room in enumerate(view.rooms):
        colour = ROOM_COLOURS[i % len(ROOM_COLOURS)]
        ax.add_patch(Rectangle((room.x_min, room.y_min), room.x_max - room.x_min, room.y_max - room.y_min,
                               facecolor=colour, edgecolor="none", alpha=0.45, zorder=1))
        # on the area's top edge, over anything drawn there, so it never hides an object's name inside
        ax.text(room.x_min + 0.05, room.y_max, room.name, ha="left", va="center", fontsize=12,
                fontweight="bold", color="#333333", zorder=6,
                bbox=dict(boxstyle="round,pad=0.15", facecolor=colour, edgecolor="none", alpha=0.8))
        drawn.rooms.append(room.id)

    if view.relations:  # one line per relation, from the object to what it is in / on, the end marked
        ax.add_collection(LineCollection([[r.start[:2], r.end[:2]] for r in view.relations],
                                         colors=RELATION_COLOUR, linewidths=0.8, zorder=3))
        ax.scatter([r.end[0] for r in view.relations], [r.end[1] for r in view.relations], s=90,
                   facecolors="none", edgecolors=RELATION_COLOUR, linewidths=0.8, zorder=3)
    if len(view.relations) <= MAX_LABELLED_RELATIONS:
        for r in view.relations:
            ax.text((r.start[0] + r.end[0]) / 2, (r.start[1] + r.end[1]) / 2, r.relation.predicate, fontsize=7,
                    color=RELATION_COLOUR, ha="center", va="center", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none", alpha=0.7))
    drawn.relations = len(view.relations)

    if view.objects:
        ax.scatter([e.position.x for e in view.objects], [e.position.y for e in view.objects], s=60,
                   color=OBJECT_COLOUR, edgecolors="white", linewidths=0.8, zorder=4)
    labelled = view.objects
    if len(view.objects) > MAX_LABELLED_OBJECTS:
        holders = {r.relation.object for r in view.relations}
        labelled = [e for e in view.objects if e.id in holders or e.name]
    for e in labelled:
        states = f" ({', '.join(e.states)})" if e.states else ""
        ax.annotate((e.name or e.label) + states, (e.position.x, e.position.y), xytext=(5, 5),
                    textcoords="offset points", fontsize=8, zorder=5)
    drawn.labelled = len(labelled)

    bounds = view.bounds()
    if extent is not None:
        bounds = extent if bounds is None else (min(bounds[0], extent[0]), min(bounds[1], extent[1]),
                                                max(bounds[2], extent[2]), max(bounds[3], extent[3]))
    if bounds is not None:
        pad = 0.5
        ax.set_xlim(bounds[0] - pad, bounds[2] + pad)
        ax.set_ylim(bounds[1] - pad, bounds[3] + pad)
    ax.set_aspect("equal", adjustable="box")  # metres are metres both ways; the limits above stay
    ax.set_xlabel("x (m, map frame)")
    ax.set_ylabel("y (m)")
    counts = f"{len(view.objects)} objects, {len(view.rooms)} rooms, {len(view.relations)} relations"
    ax.set_title(f"{title}: {counts}" if title else counts)
    ax.grid(True, alpha=0.2, zorder=0)

    ax.apply_aspect()  # the box the saved figure has, so the data -> pixel transform below is the saved one
    width, height = fig.canvas.get_width_height()
    for e in view.objects:
        px, py = ax.transData.transform((e.position.x, e.position.y))
        drawn.objects[e.id] = (int(round(px)), int(round(height - py)))
    drawn.size = (width, height)
    fig.savefig(str(out), dpi=DPI, format="png")
    plt.close(fig)
    return drawn


def _draw_map(ax, map_yaml: str | Path) -> tuple[float, float, float, float]:
    """The occupancy grid in greys (free white, occupied black, unknown light grey); returns its extent."""
    import numpy as np

    from memory_node.perception.occupancy import load_map

    m = load_map(map_yaml)
    grid = m.grid.astype(np.float32)
    shade = np.where(grid < 0, 0.85, 1.0 - grid / 100.0)
    h, w = m.grid.shape
    x0, y0 = m.origin[0], m.origin[1]
    extent = (x0, y0, x0 + w * m.resolution, y0 + h * m.resolution)
    ax.imshow(shade, cmap="gray", vmin=0.0, vmax=1.0, origin="lower", interpolation="nearest", zorder=0,
              extent=(extent[0], extent[2], extent[1], extent[3]))
    return extent
