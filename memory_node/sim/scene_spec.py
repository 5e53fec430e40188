"""Our scene file format (YAML): rooms, walls, furniture, small objects and where the robot starts.

Users write their own homes in it (format documented in ``memory_node/sim/README.md`` and in the header of
``config/sim/scenes/small_home.yaml``); ``virtualhome_scene`` converts VirtualHome apartments into it. It
is validated on load so that a typo (an unknown parent, a colour not in the palette, an object ``in`` a
table) fails with a message naming the entry, instead of as a strange simulation later.

Frame: the map frame, x/y on the floor, z up, metres. Boxes are axis-aligned (VirtualHome's are too).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from memory_node.sim.colors import PALETTE

Vec2 = tuple[float, float]
Vec3 = tuple[float, float, float]
Rect = tuple[float, float, float, float]  # xmin, ymin, xmax, ymax
Side = Literal["+x", "-x", "+y", "-y"]

SIDE_NORMALS: dict[str, Vec2] = {"+x": (1.0, 0.0), "-x": (-1.0, 0.0), "+y": (0.0, 1.0), "-y": (0.0, -1.0)}


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def _yaml_on_key(data: Any) -> Any:
    """YAML 1.1 reads an unquoted ``on:`` key as the boolean True; a scene author means the relation."""
    if isinstance(data, dict) and True in data:
        data = dict(data)
        data["on"] = data.pop(True)
    return data


_ID_RE = re.compile(r"^[A-Za-z0-9_.:/\-]{1,128}$")  # the ids memory accepts (core.models)


def _check_id(v: str) -> str:
    if not _ID_RE.match(v):
        raise ValueError(f"id {v!r} must be 1-128 characters of letters, digits and _ . : / -")
    return v


def _colour(v: str) -> str:
    if v not in PALETTE:
        raise ValueError(f"unknown colour {v!r}; known: {', '.join(PALETTE)}")
    return v


class RoomSpec(_Spec):
    id: str
    name: str = ""
    # several rectangles: VirtualHome rooms are unions of 2.5 m floor tiles and need not be rectangles
    floor: list[Rect] = Field(min_length=1)

    _id = field_validator("id")(lambda cls, v: _check_id(v))

    @field_validator("floor")
    @classmethod
    def _rects(cls, v: list[Rect]) -> list[Rect]:
        for r in v:
            if r[2] <= r[0] or r[3] <= r[1]:
                raise ValueError(f"floor rectangle {r} must be [xmin, ymin, xmax, ymax] with xmin<xmax, ymin<ymax")
        return v

    def contains(self, x: float, y: float) -> bool:
        return any(r[0] <= x <= r[2] and r[1] <= y <= r[3] for r in self.floor)

    def centre(self) -> Vec2:
        """Area-weighted centroid of the floor (may lie outside an L-shaped room: callers snap it)."""
        areas = [(r[2] - r[0]) * (r[3] - r[1]) for r in self.floor]
        total = sum(areas)
        return (sum(a * (r[0] + r[2]) / 2 for a, r in zip(areas, self.floor)) / total,
                sum(a * (r[1] + r[3]) / 2 for a, r in zip(areas, self.floor)) / total)

    def bounds(self) -> Rect:
        return (min(r[0] for r in self.floor), min(r[1] for r in self.floor),
                max(r[2] for r in self.floor), max(r[3] for r in self.floor))


class WallSpec(_Spec):
    start: Vec2
    end: Vec2
    thickness: float = Field(default=0.1, gt=0)
    height: float = Field(default=2.5, gt=0)


class ContainerSpec(_Spec):
    """Something things go *in*. ``openable``: it has a door (an articulated body with a revolute joint);
    otherwise it is an open-fronted shelf whose contents are always reachable and visible."""

    openable: bool = True
    closed: bool = True
    locked: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> ContainerSpec:
        if not self.openable and (self.closed or self.locked):
            # an open shelf has no door to be closed or locked
            self.closed = False
            if self.locked:
                raise ValueError("a container that does not open cannot be locked")
        if self.locked and not self.closed:
            raise ValueError("a locked container must be closed")
        return self


class _PlacedSpec(_Spec):
    """Checks and accessors furniture and small objects share: id, colour word, positive size, and the
    ``on``/``in`` that names what holds it. Each declares the fields itself, so dumps keep its field order."""

    _on = model_validator(mode="before")(_yaml_on_key)
    _id = field_validator("id", check_fields=False)(lambda cls, v: _check_id(v))
    _col = field_validator("color", check_fields=False)(lambda cls, v: _colour(v))

    @field_validator("size", check_fields=False)
    @classmethod
    def _positive(cls, v: Vec3) -> Vec3:
        if min(v) <= 0:
            raise ValueError(f"size {v} must be positive in every axis")
        return v

    @property
    def parent(self) -> str | None:
        return self.in_ or self.on  # type: ignore[attr-defined]

    @property
    def relation(self) -> str | None:
        return "in" if self.in_ else ("on" if self.on else None)  # type: ignore[attr-defined]


class FurnitureSpec(_PlacedSpec):
    id: str
    label: str
    name: str = ""
    room: str = ""  # derived from the centre when empty
    center: Vec3
    size: Vec3
    color: str = "brown"
    front: Side = "+x"  # the side a person stands at (door side of a container, approach side)
    on: str | None = None  # another piece of furniture it stands on (a microwave on a counter)
    in_: str | None = Field(default=None, alias="in")  # a container it is in (a drawer in a closet)
    container: ContainerSpec | None = None

    def footprint(self) -> Rect:
        (x, y, _), (sx, sy, _) = self.center, self.size
        return (x - sx / 2, y - sy / 2, x + sx / 2, y + sy / 2)

    @property
    def top(self) -> float:
        return self.center[2] + self.size[2] / 2

    @property
    def bottom(self) -> float:
        return self.center[2] - self.size[2] / 2


class ObjectSpec(_PlacedSpec):
    """A small thing a robot can pick. ``on``/``in`` name furniture; ``at`` is the centre (x, y) on it, or
    (x, y, z) to keep an exact height (shelves inside a cabinet); without ``at`` a free spot is chosen."""

    id: str
    label: str
    name: str = ""
    size: Vec3
    color: str = "grey"
    on: str | None = None
    in_: str | None = Field(default=None, alias="in")
    at: tuple[float, ...] | None = None

    @field_validator("at")
    @classmethod
    def _at(cls, v: tuple[float, ...] | None) -> tuple[float, ...] | None:
        if v is not None and len(v) not in (2, 3):
            raise ValueError("at must be [x, y] or [x, y, z]")
        return v

    @model_validator(mode="after")
    def _one_parent(self) -> ObjectSpec:
        if self.on and self.in_:
            raise ValueError(f"object {self.id} is both on {self.on} and in {self.in_}; give one")
        if not self.on and not self.in_ and (self.at is None or len(self.at) != 3):
            raise ValueError(f"object {self.id} has no parent: give on/in, or at: [x, y, z]")
        return self


class RobotSpec(_Spec):
    x: float = 0.0
    y: float = 0.0
    yaw: float = 0.0


class SceneSpec(_Spec):
    name: str
    description: str = ""
    rooms: list[RoomSpec] = Field(min_length=1)
    walls: list[WallSpec] = Field(default_factory=list)
    furniture: list[FurnitureSpec] = Field(default_factory=list)
    objects: list[ObjectSpec] = Field(default_factory=list)
    robot: RobotSpec = Field(default_factory=RobotSpec)

    @model_validator(mode="after")
    def _references(self) -> SceneSpec:
        ids = [r.id for r in self.rooms] + [f.id for f in self.furniture] + [o.id for o in self.objects]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"duplicate ids: {', '.join(dup)}")
        rooms = {r.id: r for r in self.rooms}
        furniture = {f.id: f for f in self.furniture}
        for f in self.furniture:
            if f.on and f.in_:
                raise ValueError(f"furniture {f.id} is both on {f.on} and in {f.in_}; give one")
            if f.parent is not None and f.parent not in furniture:
                raise ValueError(f"furniture {f.id} is {f.relation} {f.parent!r}, which is no furniture of this "
                                 "scene")
            if f.in_ and furniture[f.in_].container is None:
                raise ValueError(f"furniture {f.id} is in {f.in_}, which is not a container")
            if f.room and f.room not in rooms:
                raise ValueError(f"furniture {f.id} names unknown room {f.room!r}")
            if not f.room:
                f.room = self.room_at(f.center[0], f.center[1]) or ""
        for o in self.objects:
            p = o.parent
            if p is None:
                continue
            if p not in furniture:
                raise ValueError(f"object {o.id} is {o.relation} {p!r}, which is no furniture of this scene")
            if o.in_ and furniture[p].container is None:
                raise ValueError(f"object {o.id} is in {p}, which is not a container (give it container:)")
        return self

    def room_at(self, x: float, y: float) -> str | None:
        """The room whose floor holds (x, y); else the room with the nearest floor (things against a wall
        stick out of VirtualHome's room boxes by a few centimetres)."""
        for r in self.rooms:
            if r.contains(x, y):
                return r.id
        best, best_d = None, float("inf")
        for r in self.rooms:
            for fx0, fy0, fx1, fy1 in r.floor:
                d = max(fx0 - x, 0, x - fx1) ** 2 + max(fy0 - y, 0, y - fy1) ** 2
                if d < best_d:
                    best, best_d = r.id, d
        return best

    def bounds(self) -> Rect:
        bs = [r.bounds() for r in self.rooms]
        return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))


def load_scene_spec(path: str | Path) -> SceneSpec:
    """Read and validate a scene file; ValueError says which file and entry is wrong."""
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a scene file is a YAML mapping (name, rooms, furniture, objects, robot)")  # noqa: TRY004
    try:
        return SceneSpec.model_validate(data)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from e


def dump_scene_spec(spec: SceneSpec, header: str = "") -> str:
    """YAML with one furniture/object entry per line, so a diff of a shipped scene is readable."""
    data = spec.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    data["robot"] = spec.robot.model_dump(mode="json")
    for item, f in zip(data.get("furniture", []), spec.furniture):
        if f.container is not None:  # spelled out: "container: {}" would hide that it is closed
            item["container"] = f.container.model_dump(mode="json")
    out = [header.rstrip("\n")] if header else []
    for key in ("name", "description"):
        if key in data:
            out.append(yaml.safe_dump({key: data[key]}, width=120, sort_keys=False).rstrip())
    out.append(yaml.safe_dump({"robot": data["robot"]}, default_flow_style=None, sort_keys=False).rstrip())
    for key in ("rooms", "walls", "furniture", "objects"):
        items = data.get(key, [])
        out.append(f"{key}:" + ("" if items else " []"))
        out += ["  - " + yaml.safe_dump(i, default_flow_style=True, width=10_000, sort_keys=False).strip()
                for i in items]
    return "\n".join(out) + "\n"


def shipped_scene(name: str) -> Path:
    """A scene file shipped in ``config/sim/scenes`` (source tree or installed share directory)."""
    from memory_node.core.resources import config_path

    return config_path(Path("sim") / "scenes" / f"{name}.yaml")
