"""Fetch structures: a name (str), a list/tuple of structures, or a dict of str keys to structures.

Leaves are visited depth-first in list order, then dict insertion order (twin of org.jhooks.Nest).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

_TENSOR_NAME = re.compile(r".+:\d+\Z")


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def flatten(structure: Any) -> list[str]:
    """The names in ``structure`` in leaf order; ValueError on anything else."""
    out: list[str] = []
    _flatten_into(structure, out)
    return out


def _flatten_into(s: Any, out: list[str]) -> None:
    if s is None:
        return
    if isinstance(s, str):
        out.append(s)
    elif isinstance(s, (list, tuple)):
        for e in s:
            if e is None:
                raise ValueError(f"a fetch list holds None: {s!r}")
            _flatten_into(e, out)
    elif isinstance(s, dict):
        for k, v in s.items():
            if not isinstance(k, str):
                raise ValueError(f"a fetch dict key must be a str, got {_describe(k)}")
            if v is None:
                raise ValueError(f"a fetch dict holds None under {k!r}")
            _flatten_into(v, out)
    else:
        raise ValueError(f"a fetch must be a tensor or op name (str), a list, tuple or dict, got {_describe(s)}")


def validate(structure: Any) -> None:
    flatten(structure)


def map_structure(structure: Any, leaf_value: Callable[[str], Any]) -> Any:
    """A structure like ``structure`` whose leaves are ``leaf_value(name)``; tuples stay tuples."""
    if structure is None:
        return None
    if isinstance(structure, str):
        return leaf_value(structure)
    if isinstance(structure, tuple):
        return tuple(map_structure(e, leaf_value) for e in structure)
    if isinstance(structure, list):
        return [map_structure(e, leaf_value) for e in structure]
    return {k: map_structure(v, leaf_value) for k, v in structure.items()}


def pack(structure: Any, values: Iterator[Any]) -> Any:
    """A structure like ``structure`` taking leaves from ``values`` in leaf order."""
    return map_structure(structure, lambda _name: next(values))


def is_tensor_name(name: str) -> bool:
    """Whether ``name`` names a tensor (``op:N``) rather than an op run as a target."""
    return bool(_TENSOR_NAME.match(name))
