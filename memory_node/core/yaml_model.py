"""A pydantic model read from a YAML file, every failure one line naming the file: the skill libraries and the
executor's skill-server maps are written by hand on robots, and a traceback is no answer to a typo."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def load_yaml_model(model: type[M], path: str | Path, what: str, shape: str, error: type[Exception]) -> M:
    """``what``: how the file is named in errors ("skill library"); ``shape``: what its top level must hold
    ("robot, hands and skills"); ``error``: the exception raised, with one line saying what is wrong."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise error(f"cannot read {what} {path}: {e}") from e
    except yaml.YAMLError as e:
        raise error(f"{what} {path} is not valid YAML: {e}") from e
    if not isinstance(data, dict):
        raise error(f"{what} {path} must be a mapping with {shape}")
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg']}" for err in e.errors())
        raise error(f"{what} {path} is malformed: {problems}") from e
