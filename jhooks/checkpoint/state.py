"""The ``checkpoint`` state file (no TensorFlow import; twin of org.jhooks.checkpoint.CheckpointState).

The state file is the text proto TensorFlow's ``tf.train.latest_checkpoint`` reads::

    model_checkpoint_path: "model.ckpt-200"
    all_model_checkpoint_paths: "model.ckpt-100"
    all_model_checkpoint_paths: "model.ckpt-200"

Paths are written relative to the checkpoint dir when the checkpoint lies in it (TF resolves
relative paths against the dir); TF's own Saver may write absolute paths, which are read as they
are. The file is written to a temporary ``checkpoint.tmp*`` file in the same dir and renamed over the
old one (``os.replace``), so a reader or a crash never sees a half-written file.

Reading is strict and the same in both languages: blank lines and numeric fields (the timestamps TF2
adds) are skipped; any other line must be ``name: "value"``; ``model_checkpoint_path`` is required.
Otherwise :class:`CheckpointStateError`. See docs/contract.md, "Checkpoints".
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence

from jhooks.checkpoint.errors import CheckpointStateError
from jhooks.checkpoint.files import checkpoint_exists

STATE_FILE = "checkpoint"
"""The state file's name in a checkpoint directory (TensorFlow's ``CheckpointState`` text proto)."""
_STRING_FIELD = re.compile(r'^(\w+)\s*:\s*"((?:[^"\\]|\\.)*)"$')
_NUMBER_FIELD = re.compile(r"^\w+\s*:\s*[-+0-9.eE]+$")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _relative(checkpointDir: str, prefix: str) -> str:
    if os.path.dirname(os.path.abspath(prefix)) == os.path.abspath(checkpointDir):
        return os.path.basename(prefix)
    return os.path.abspath(prefix)


def _absolute(checkpointDir: str, path: str) -> str:
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(os.path.abspath(checkpointDir), path))


def parse_state(text: str, path: str = STATE_FILE) -> tuple[str, list[str]]:
    """``(model_checkpoint_path, all_model_checkpoint_paths)`` as written.

    Raises CheckpointStateError naming ``path`` and the first bad line, or the missing field.
    """
    latest: str | None = None
    all_paths: list[str] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or _NUMBER_FIELD.match(line):
            continue
        m = _STRING_FIELD.match(line)
        if m is None:
            raise CheckpointStateError(path, f"line {number} is not a CheckpointState field: {raw[:80]!r}")
        value = _unescape(m.group(2))
        if m.group(1) == "model_checkpoint_path":
            latest = value
        elif m.group(1) == "all_model_checkpoint_paths":
            all_paths.append(value)
    if not latest:
        raise CheckpointStateError(path, "no model_checkpoint_path")
    return latest, all_paths


def read_state(checkpointDir: str) -> list[str]:
    """The prefixes listed in ``all_model_checkpoint_paths`` (oldest first, absolute and normalised),
    with ``model_checkpoint_path`` last; [] when there is no state file.

    Raises CheckpointStateError when the file cannot be read (permissions, not a file, not UTF-8)
    or is not a CheckpointState text proto.
    """
    path = os.path.join(checkpointDir, STATE_FILE)
    if not os.path.lexists(path):
        return []
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CheckpointStateError(path, f"cannot be read: {type(e).__name__}: {e}") from e
    latest, all_paths = parse_state(text, path)
    latest = _absolute(checkpointDir, latest)
    prefixes = [_absolute(checkpointDir, p) for p in all_paths]
    return [p for p in prefixes if p != latest] + [latest]


def write_state(checkpointDir: str, prefixes: Sequence[str]) -> None:
    """Atomically replaces the state file; the last of ``prefixes`` is the latest checkpoint.

    Raises OSError when the dir is not writable (the temporary file is removed).
    """
    if not prefixes:
        raise ValueError("write_state: no checkpoint prefixes given")
    lines = [f'model_checkpoint_path: "{_escape(_relative(checkpointDir, prefixes[-1]))}"']
    lines += [f'all_model_checkpoint_paths: "{_escape(_relative(checkpointDir, p))}"' for p in prefixes]
    fd, tmp = tempfile.mkstemp(prefix=STATE_FILE + ".tmp", dir=checkpointDir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, os.path.join(checkpointDir, STATE_FILE))
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


class CheckpointState:
    """Static helpers over a checkpoint dir's state file (twin of org.jhooks.checkpoint.CheckpointState)."""

    @staticmethod
    def latestCheckpoint(checkpointDir: str) -> str | None:
        """The latest checkpoint prefix (as ``tf.train.latest_checkpoint``), None if there is no
        state file or the latest checkpoint's files are missing. Raises CheckpointStateError for
        a garbage or unreadable state file (TF logs and returns None)."""
        prefixes = read_state(checkpointDir)
        if not prefixes or not checkpoint_exists(prefixes[-1]):
            return None
        return prefixes[-1]

    @staticmethod
    def allCheckpoints(checkpointDir: str) -> list[str]:
        """Every prefix the state file lists, oldest first (latest last)."""
        return read_state(checkpointDir)

    @staticmethod
    def write(checkpointDir: str, prefixes: Sequence[str]) -> None:
        """Atomically replaces the state file; the last prefix is the latest."""
        write_state(checkpointDir, prefixes)
