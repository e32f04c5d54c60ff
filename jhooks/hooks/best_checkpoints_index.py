"""The index file of a BestCheckpointsListener (``best_checkpoints.json``): read strictly, written
atomically.

Twin of org.jhooks.hooks.BestCheckpointsIndex: both read every text to the same entries or refuse it
with the same message (tests/hooks/test_best_checkpoints_index_twins.py; a text that is not UTF-8 or
not JSON gets the same start, each parser naming the position its own way), and neither trusts the
file further than its shape::

    {"metric": "<metric>", "mode": "min" | "max",
     "best": [{"step": <global step>, "value": <finite number>, "checkpoint": "<basename>-<step>"}, ...]}

See docs/standard-hooks.md, "Best checkpoints".
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from typing import Any

_MAX_STEP = 2**63 - 1  # a global step is an int64
_SHOWN = 100  # characters of a string or number shown in a message
_STEP = re.compile(r"-?(?:0|[1-9][0-9]*)")
_SCANNED = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]|[-+0-9.eE]+', re.S)  # strings, brackets, number-like runs
_TOP_KEYS = ("metric", "mode", "best")
_ENTRY_KEYS = ("step", "value", "checkpoint")
_REPAIR = "; remove or repair it"


class BestCheckpointsIndex:
    """Reads and writes ``best_checkpoints.json``; a text that is not exactly an index of this
    listener is refused whole (nothing of it is used)."""

    FILE = "best_checkpoints.json"  # its name in the listener's sub-directory
    MAX_BYTES = 16 * 1024 * 1024  # the largest index read (about 150,000 entries)
    MAX_DEPTH = 3  # how deep an index nests: the object, its "best" list, an entry
    MAX_NUMBER = 1000  # the longest number literal read (a double needs 25; Gson reads up to 1024)

    @staticmethod
    def read(path: str, metric: str, mode: str, checkpointBasename: str) -> list[tuple[int, float]]:
        """The ``(global step, value)`` entries of the index at ``path``, in file order.

        Raises:
            OSError: the file cannot be read.
            ValueError: the message says what is wrong and where (``best[i]`` for an entry): more
                than ``MAX_BYTES`` bytes, not UTF-8, nested deeper than the shape above, a number
                longer than ``MAX_NUMBER`` characters, not JSON (also NaN/Infinity literals), a
                key twice, missing or unknown, another metric or mode, a step that is not an integer
                literal from 0 to 2**63 - 1, a value that is not a finite number, a checkpoint other
                than ``<checkpointBasename>-<step>``, a step listed twice.
        """
        with open(path, "rb") as f:
            raw = f.read(BestCheckpointsIndex.MAX_BYTES + 1)
        if len(raw) > BestCheckpointsIndex.MAX_BYTES:
            limit = BestCheckpointsIndex.MAX_BYTES
            raise ValueError(f"is larger than {limit} bytes, more than an index holds{_REPAIR}")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"is not UTF-8 text ({e.reason} at byte {e.start}){_REPAIR}") from e
        _check_before_parsing(text)
        try:
            data = json.loads(
                text,
                object_pairs_hook=_Object,
                parse_int=_Number,
                parse_float=_Number,
                parse_constant=_refuse_constant,
            )
        except json.JSONDecodeError as e:
            raise ValueError(f"is not JSON (line {e.lineno}, column {e.colno}: {e.msg}){_REPAIR}") from e
        return _entries(data, metric, mode, checkpointBasename)

    @staticmethod
    def write(
        directory: str, metric: str, mode: str, entries: list[tuple[int, float]], checkpointBasename: str
    ) -> None:
        """Atomically replaces ``directory/best_checkpoints.json`` with ``entries`` (``(step,
        value)``, best first): to a temporary file in ``directory``, then ``os.replace``."""
        data = {
            "metric": metric,
            "mode": mode,
            "best": [{"step": s, "value": v, "checkpoint": f"{checkpointBasename}-{s}"} for s, v in entries],
        }
        fd, tmp = tempfile.mkstemp(prefix=BestCheckpointsIndex.FILE + ".tmp", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1, allow_nan=False)
                f.write("\n")
            os.replace(tmp, os.path.join(directory, BestCheckpointsIndex.FILE))
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)


class _Object(dict):
    """A JSON object; ``duplicates`` lists the keys given twice (the JSON module keeps the last)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.duplicates: list[str] = []
        for key, value in pairs:
            if key in self and key not in self.duplicates:
                self.duplicates.append(key)
            self[key] = value


class _Number(str):
    """A JSON number as written (its literal), so that a step is judged by its text, as in Java."""


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"is not JSON ({name} is not a JSON number){_REPAIR}")


def _check_before_parsing(text: str) -> None:
    """Refuses brackets nested deeper than an index's, and numbers longer than ``MAX_NUMBER``
    characters (Gson cannot read them as numbers), before parsing, so that no parser recurses into
    them. Strings are skipped (an unterminated one runs to the end of the text)."""
    depth = 0
    for m in _SCANNED.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth += 1
            if depth > BestCheckpointsIndex.MAX_DEPTH:
                levels = BestCheckpointsIndex.MAX_DEPTH
                raise ValueError(f"nests deeper than an index ({levels} levels) at character {m.start()}{_REPAIR}")
        elif c in "]}":
            depth -= 1
        elif c != '"' and len(m.group()) > BestCheckpointsIndex.MAX_NUMBER:
            limit = BestCheckpointsIndex.MAX_NUMBER
            raise ValueError(f"has a number longer than {limit} characters at character {m.start()}{_REPAIR}")


def _shown(text: str) -> str:
    """``text`` for a message: its first ``_SHOWN`` characters (code points), then ``...``."""
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _kind(value: Any) -> str:
    if isinstance(value, _Object):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, _Number):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return {True: "true", False: "false", None: "null"}[value]


def _check_keys(obj: _Object, where: str, keys: tuple[str, ...]) -> None:
    if obj.duplicates:
        raise ValueError(f"{where}has the key '{_shown(obj.duplicates[0])}' twice{_REPAIR}")
    for key in obj:
        if key not in keys:
            raise ValueError(f"{where}has an unknown key '{_shown(key)}'{_REPAIR}")
    for key in keys:
        if key not in obj:
            raise ValueError(f"{where}has no '{key}'{_REPAIR}")


def _entries(data: Any, metric: str, mode: str, basename: str) -> list[tuple[int, float]]:
    if not isinstance(data, _Object):
        raise ValueError(f"holds {_kind(data)}, not an object of metric, mode and best{_REPAIR}")
    _check_keys(data, "", _TOP_KEYS)
    for key in ("metric", "mode"):
        if not isinstance(data[key], str) or isinstance(data[key], _Number):
            raise ValueError(f"'{key}' is {_kind(data[key])}, not a string{_REPAIR}")
    if data["metric"] != metric or data["mode"] != mode:
        raise ValueError(
            f"ranks '{_shown(data['metric'])}' ({_shown(data['mode'])}), not '{metric}' ({mode}); use another subdir"
        )
    if not isinstance(data["best"], list):
        raise ValueError(f"'best' is {_kind(data['best'])}, not an array of entries{_REPAIR}")
    entries: list[tuple[int, float]] = []
    where: dict[int, int] = {}
    for i, entry in enumerate(data["best"]):
        at = f"best[{i}]"
        if not isinstance(entry, _Object):
            raise ValueError(f"{at} is {_kind(entry)}, not an object of step, value and checkpoint{_REPAIR}")
        _check_keys(entry, at + " ", _ENTRY_KEYS)
        step = _step(entry["step"], at)
        value = _value(entry["value"], at)
        checkpoint = entry["checkpoint"]
        if not isinstance(checkpoint, str) or isinstance(checkpoint, _Number):
            raise ValueError(f"{at}: checkpoint is {_kind(checkpoint)}, not a string{_REPAIR}")
        if checkpoint != f"{basename}-{step}":
            raise ValueError(
                f"{at}: checkpoint '{_shown(checkpoint)}' is not '{basename}-{step}', step {step} of this listener's "
                "basename; use another subdir"
            )
        if step in where:
            raise ValueError(f"{at}: step {step} is listed twice (also best[{where[step]}]){_REPAIR}")
        where[step] = i
        entries.append((step, value))
    return entries


def _step(value: Any, at: str) -> int:
    expected = f"not a global step (an integer from 0 to {_MAX_STEP})"
    if not isinstance(value, _Number):
        raise ValueError(f"{at}: step is {_kind(value)}, {expected}{_REPAIR}")
    # the literal's length first: Python refuses to parse integers of thousands of digits
    if not _STEP.fullmatch(value) or len(value) > len(str(_MAX_STEP)) or not 0 <= int(value) <= _MAX_STEP:
        raise ValueError(f"{at}: step {_shown(value)} is {expected}{_REPAIR}")
    return int(value)


def _value(value: Any, at: str) -> float:
    if not isinstance(value, _Number):
        raise ValueError(f"{at}: value is {_kind(value)}, not a number{_REPAIR}")
    number = float(value)  # a literal beyond the doubles is infinite, as Java's Double.parseDouble
    if not math.isfinite(number):
        raise ValueError(f"{at}: value {_shown(value)} is not a finite number{_REPAIR}")
    return number
