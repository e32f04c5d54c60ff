"""Scenario JSON <-> Python values: fetch specs, fed tensors, recorded results.

Recorded values are language-neutral JSON: numbers (``"NaN"`` for NaN), nested lists for arrays
(row-major), None for targets or nothing asked, dicts, and ``{"$tuple": [...]}`` for tuples. Twin
of ``org.jhooks.conformance.Values``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

TUPLE = "$tuple"


def fetch_structure(spec: Any) -> Any:
    """A scenario fetch spec as a jhooks fetch structure; ``{"$tuple": [...]}`` becomes a tuple."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, list):
        return [fetch_structure(s) for s in spec]
    if TUPLE in spec:
        return tuple(fetch_structure(s) for s in spec[TUPLE])
    return {k: fetch_structure(v) for k, v in spec.items()}


def tensor_value(spec: Mapping[str, Any]) -> np.ndarray:
    """A scenario tensor value (dtype, shape, row-major values) as a numpy array."""
    return np.array(spec["values"], dtype=np.dtype(spec["dtype"])).reshape(spec["shape"])


def feeds(spec: Mapping[str, Any]) -> dict:
    return {name: tensor_value(v) for name, v in spec.items()}


def _number(x: Any) -> Any:
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    f = float(x)
    return "NaN" if math.isnan(f) else f


def to_json(value: Any) -> Any:
    """A result structure (numpy leaves, None for targets) as recorded JSON."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, tuple):
        return {TUPLE: [to_json(v) for v in value]}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    array = np.asarray(value)
    if array.ndim == 0:
        return _number(array.item())
    return [to_json(v) for v in array]


def structure_to_json(structure: Any) -> Any:
    """A fetch structure of names as JSON (tuples marked), for recording original args."""
    if isinstance(structure, tuple):
        return {TUPLE: [structure_to_json(s) for s in structure]}
    if isinstance(structure, list):
        return [structure_to_json(s) for s in structure]
    if isinstance(structure, Mapping):
        return {k: structure_to_json(v) for k, v in structure.items()}
    return structure
