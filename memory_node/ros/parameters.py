"""Declaring a node's parameters so that ``ros2 param set`` tells the truth.

Before, every parameter took any value at run time and answered "successful" while the node went on with
the value it had read at start-up, and ``-p some.double:=0`` (an integer where a double is declared) ended
start-up in rclpy's InvalidParameterTypeException traceback. Here:

- a parameter the node cannot apply while running is declared ``read_only`` (rclpy refuses a set, saying so);
- a range, where one makes sense, goes into the descriptor (rclpy refuses a value outside it, naming it);
- an integer given for a double parameter is taken as that double, at start-up and at run time;
- any other type mismatch at start-up is one line naming the parameter and both types (``ParameterError``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rclpy.exceptions import InvalidParameterTypeException, InvalidParameterValueException
from rclpy.node import Node
from rclpy.parameter import Parameter

Range = tuple[float, float]


class ParameterError(RuntimeError):
    """A parameter given at start-up that the node cannot take (wrong type)."""


_TYPE_WORDS = {bool: "a boolean", int: "an integer", float: "a double", str: "a string"}


def _ros_type(default: Any) -> Parameter.Type | None:
    if isinstance(default, (list, tuple)) and not default:
        return None  # an empty list: any array type is its type
    return Parameter.Type(Parameter.Type.from_parameter_value(default))


def _word(value: Any) -> str:
    return _TYPE_WORDS.get(type(value), type(value).__name__)


def descriptor(name: str, default: Any, description: str, *, read_only: bool,
               value_range: Range | None = None) -> ParameterDescriptor:
    d = ParameterDescriptor(name=name, description=description, read_only=read_only)
    if value_range is not None:
        lo, hi = value_range
        if isinstance(default, bool):
            raise ValueError(f"{name}: a boolean has no range")
        if isinstance(default, int):
            d.integer_range = [IntegerRange(from_value=int(lo), to_value=int(hi), step=0)]
        elif isinstance(default, float):
            d.floating_point_range = [FloatingPointRange(from_value=float(lo), to_value=float(hi), step=0.0)]
    return d


def declare_parameters(node: Node, parameters: Mapping[str, tuple[Any, str]], *,
                       runtime: Iterable[str] = (), ranges: Mapping[str, Range] | None = None) -> dict[str, Any]:
    """Declare ``parameters`` (name -> (default, description)) on ``node``: those in ``runtime`` may be
    set while it runs (the caller applies them, e.g. in a post-set callback), every other one is read-only;
    ``ranges`` bound numbers. Returns the values in use after start-up overrides."""
    runtime = set(runtime)
    ranges = dict(ranges or {})
    doubles = {name for name, (default, _) in parameters.items() if type(default) is float}
    overrides = node._parameter_overrides  # rclpy keeps -p / params-file values here until declared
    for name, (default, _) in parameters.items():
        given = overrides.get(name)
        if given is None or given.type_ == Parameter.Type.NOT_SET:
            continue
        value = given.value
        if name in doubles and given.type_ == Parameter.Type.INTEGER:
            overrides[name] = Parameter(name, Parameter.Type.DOUBLE, float(value))
        elif _ros_type(default) is not None and given.type_ != _ros_type(default):
            raise ParameterError(f"parameter {name}: {value!r} is {_word(value)}, {name} takes "
                                 f"{_word(default)} (e.g. {default!r})")

    def integers_as_doubles(params: list[Parameter]) -> list[Parameter]:
        return [Parameter(p.name, Parameter.Type.DOUBLE, float(p.value))
                if p.name in doubles and p.type_ == Parameter.Type.INTEGER else p for p in params]

    node.add_pre_set_parameters_callback(integers_as_doubles)
    for name, (default, description) in parameters.items():
        try:
            node.declare_parameter(name, default, descriptor(name, default, description,
                                                             read_only=name not in runtime,
                                                             value_range=ranges.get(name)))
        except (InvalidParameterValueException, InvalidParameterTypeException) as err:
            value = overrides[name].value if name in overrides else default
            if name in ranges:
                lo, hi = ranges[name]
                raise ParameterError(f"parameter {name}: {value!r} is outside {lo}..{hi}") from None
            raise ParameterError(f"parameter {name}: {value!r} is refused ({err})") from None
    return {name: node.get_parameter(name).value for name in parameters}
