"""The ``checkpoint`` state file (no TensorFlow import).

:class:`CheckpointState` is the file's content, twin of org.jhooks.checkpoint.CheckpointState; the
functions here read and write it in a checkpoint dir, twins of the static methods of
org.jhooks.checkpoint.Checkpoints (``readState``, ``writeState``, ``allCheckpoints``,
``latestCheckpoint``, ``relativeName``).

The state file is the text proto TensorFlow's ``tf.train.latest_checkpoint`` reads::

    model_checkpoint_path: "model.ckpt-200"
    all_model_checkpoint_paths: "model.ckpt-100"
    all_model_checkpoint_paths: "model.ckpt-200"

jhooks writes paths relative to the checkpoint dir when the checkpoint lies in it
(:func:`relative_name`; TF resolves relative paths against the dir); TF's own Saver may write
absolute paths, which are read as they are. The file is written to a temporary ``checkpoint.tmp*``
file in the same dir and renamed over the old one (``os.replace``), so a reader or a crash never
sees a half-written file.

Reading is strict and the same in both languages: blank lines and numeric fields (the timestamps TF2
adds) are skipped; any other line must be ``name: "value"``; ``model_checkpoint_path`` is required.
Otherwise :class:`CheckpointStateError`. See docs/contract.md, "Checkpoints".
"""

from __future__ import annotations

import dataclasses
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


@dataclasses.dataclass(frozen=True)
class CheckpointState:
    """The content of a checkpoint dir's ``checkpoint`` state file, TensorFlow's ``CheckpointState``
    proto in text form. Immutable; equal when both fields are. Twin of
    org.jhooks.checkpoint.CheckpointState.

    Args:
        modelCheckpointPath: the latest checkpoint prefix, as stored (relative to the dir, or
            absolute). ValueError when empty.
        allModelCheckpointPaths: the kept prefixes, oldest first, the latest last; stored as a tuple.
    """

    modelCheckpointPath: str
    allModelCheckpointPaths: tuple[str, ...]

    def __init__(self, modelCheckpointPath: str, allModelCheckpointPaths: Sequence[str]) -> None:
        if not modelCheckpointPath:
            raise ValueError("CheckpointState needs a model_checkpoint_path")
        object.__setattr__(self, "modelCheckpointPath", modelCheckpointPath)
        object.__setattr__(self, "allModelCheckpointPaths", tuple(allModelCheckpointPaths))

    def toText(self) -> str:
        """The text proto, as TensorFlow's ``update_checkpoint_state`` writes it."""
        lines = [f'model_checkpoint_path: "{_escape(self.modelCheckpointPath)}"']
        lines += [f'all_model_checkpoint_paths: "{_escape(p)}"' for p in self.allModelCheckpointPaths]
        return "\n".join(lines) + "\n"

    @staticmethod
    def parse(text: str) -> CheckpointState:
        """Parses the text proto: blank lines and numeric fields (the timestamps TF2 adds) are
        skipped, any other line must be ``name: "value"`` (unknown names are ignored), and
        ``model_checkpoint_path`` is required.

        Raises ValueError naming the first bad line, or the missing (or empty) field.
        """
        latest: str | None = None
        allPaths: list[str] = []
        for number, raw in enumerate(text.split("\n"), start=1):
            line = raw.strip()
            if not line or _NUMBER_FIELD.match(line):
                continue
            m = _STRING_FIELD.match(line)
            if m is None:
                raise ValueError(f"line {number} is not a CheckpointState field: {raw[:80]!r}")
            value = _unescape(m.group(2))
            if m.group(1) == "model_checkpoint_path":
                latest = value
            elif m.group(1) == "all_model_checkpoint_paths":
                allPaths.append(value)
        if not latest:
            raise ValueError("no model_checkpoint_path")
        return CheckpointState(latest, allPaths)


def relative_name(checkpointDir: str, prefix: str) -> str:
    """The name the state file records for ``prefix``: its file name when it lies in
    ``checkpointDir``, else its absolute path."""
    if os.path.dirname(os.path.abspath(prefix)) == os.path.abspath(checkpointDir):
        return os.path.basename(prefix)
    return os.path.abspath(prefix)


def _absolute(checkpointDir: str, path: str) -> str:
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(os.path.abspath(checkpointDir), path))


def read_state(checkpointDir: str) -> CheckpointState | None:
    """The state file of ``checkpointDir``, None when there is none.

    Raises CheckpointStateError naming the file when it cannot be read (permissions, not a file,
    not UTF-8) or is not a CheckpointState text proto (the message of :meth:`CheckpointState.parse`).
    """
    path = os.path.join(checkpointDir, STATE_FILE)
    if not os.path.lexists(path):
        return None
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CheckpointStateError(path, f"cannot be read: {type(e).__name__}: {e}") from e
    try:
        return CheckpointState.parse(text)
    except ValueError as e:
        raise CheckpointStateError(path, str(e)) from e


def all_checkpoints(checkpointDir: str) -> list[str]:
    """Every prefix the state file lists (``all_model_checkpoint_paths``), absolute and normalised,
    oldest first with ``model_checkpoint_path`` last; [] without a state file.

    Raises CheckpointStateError as :func:`read_state`.
    """
    state = read_state(checkpointDir)
    if state is None:
        return []
    latest = _absolute(checkpointDir, state.modelCheckpointPath)
    prefixes = [_absolute(checkpointDir, p) for p in state.allModelCheckpointPaths]
    return [p for p in prefixes if p != latest] + [latest]


def latest_checkpoint(checkpointDir: str) -> str | None:
    """The latest checkpoint prefix, absolute (as ``tf.train.latest_checkpoint``); None if there is
    no state file or the latest checkpoint's files are missing.

    Raises CheckpointStateError for a garbage or unreadable state file (TF logs and returns None).
    """
    state = read_state(checkpointDir)
    if state is None:
        return None
    latest = _absolute(checkpointDir, state.modelCheckpointPath)
    return latest if checkpoint_exists(latest) else None


def write_state(checkpointDir: str, state: CheckpointState) -> None:
    """Atomically replaces the state file of ``checkpointDir`` with ``state`` (paths as given: see
    :func:`relative_name`): to a temporary file in the dir, fsynced, then ``os.replace``.

    Raises OSError when the dir is not writable (the temporary file is removed).
    """
    fd, tmp = tempfile.mkstemp(prefix=STATE_FILE + ".tmp", dir=checkpointDir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(state.toText())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, os.path.join(checkpointDir, STATE_FILE))
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
