"""The ``checkpoint`` state file and max-to-keep rotation (no TensorFlow import).

The state file is the text proto TensorFlow's ``tf.train.latest_checkpoint`` reads::

    model_checkpoint_path: "model.ckpt-200"
    all_model_checkpoint_paths: "model.ckpt-100"
    all_model_checkpoint_paths: "model.ckpt-200"

Paths are written relative to the checkpoint dir when the checkpoint lies in it (TF resolves
relative paths against the dir). It is written to a temporary file in the same dir and renamed
over the old one (``os.replace``), so a reader or a crash never sees a half-written file.
See docs/contract.md, "Checkpoints".
"""

from __future__ import annotations

import glob
import os
import re
import tempfile
from typing import List, Optional, Sequence

STATE_FILE = "checkpoint"
_LINE = re.compile(r'^\s*(model_checkpoint_path|all_model_checkpoint_paths)\s*:\s*"((?:[^"\\]|\\.)*)"\s*$')


def checkpoint_prefix(checkpointDir: str, checkpointBasename: str, globalStep: int) -> str:
    """``checkpointDir/checkpointBasename-globalStep`` (TF's naming)."""
    return os.path.join(checkpointDir, f"{checkpointBasename}-{int(globalStep)}")


def checkpoint_exists(prefix: str) -> bool:
    """Whether the V2 checkpoint at ``prefix`` has its index and at least one data file."""
    return os.path.exists(prefix + ".index") and bool(glob.glob(glob.escape(prefix) + ".data-*"))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def _relative(checkpointDir: str, prefix: str) -> str:
    if os.path.dirname(os.path.abspath(prefix)) == os.path.abspath(checkpointDir):
        return os.path.basename(prefix)
    return os.path.abspath(prefix)


def _absolute(checkpointDir: str, path: str) -> str:
    return path if os.path.isabs(path) else os.path.join(checkpointDir, path)


def read_state(checkpointDir: str) -> List[str]:
    """The prefixes listed in ``all_model_checkpoint_paths`` (oldest first, made absolute), with
    ``model_checkpoint_path`` last; [] when there is no state file."""
    path = os.path.join(checkpointDir, STATE_FILE)
    if not os.path.exists(path):
        return []
    latest: Optional[str] = None
    all_paths: List[str] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _LINE.match(line)
            if not m:
                continue
            value = _absolute(checkpointDir, _unescape(m.group(2)))
            if m.group(1) == "model_checkpoint_path":
                latest = value
            else:
                all_paths.append(value)
    if latest is not None:
        all_paths = [p for p in all_paths if p != latest] + [latest]
    return all_paths


def write_state(checkpointDir: str, prefixes: Sequence[str]) -> None:
    """Atomically replaces the state file; the last of ``prefixes`` is the latest checkpoint."""
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


def delete_checkpoint(prefix: str) -> None:
    """Removes ``prefix.index``, ``prefix.data-*`` and ``prefix.meta`` if present."""
    for path in [prefix + ".index", prefix + ".meta"] + glob.glob(glob.escape(prefix) + ".data-*"):
        if os.path.exists(path):
            os.remove(path)


class CheckpointState:
    """Static helpers over a checkpoint dir's state file (twin of org.jhooks.hooks.CheckpointState)."""

    @staticmethod
    def latestCheckpoint(checkpointDir: str) -> Optional[str]:
        """The latest checkpoint prefix (as ``tf.train.latest_checkpoint``), None if there is none
        or its files are missing."""
        prefixes = read_state(checkpointDir)
        if not prefixes or not checkpoint_exists(prefixes[-1]):
            return None
        return prefixes[-1]

    @staticmethod
    def allCheckpoints(checkpointDir: str) -> List[str]:
        """Every prefix the state file lists, oldest first (latest last)."""
        return read_state(checkpointDir)

    @staticmethod
    def write(checkpointDir: str, prefixes: Sequence[str]) -> None:
        """Atomically replaces the state file; the last prefix is the latest."""
        write_state(checkpointDir, prefixes)


class CheckpointRotation:
    """The checkpoints a saver keeps, newest last (TF Saver's ``max_to_keep``).

    Seeded from an existing state file (entries whose files still exist), so a restarted job keeps
    rotating old checkpoints. ``maxToKeep`` 0 or None keeps all.
    """

    def __init__(self, checkpointDir: str, maxToKeep: Optional[int]) -> None:
        self.checkpointDir = checkpointDir
        self.maxToKeep = maxToKeep
        self._kept: Optional[List[str]] = None

    @property
    def kept(self) -> List[str]:
        if self._kept is None:
            self._kept = [p for p in read_state(self.checkpointDir) if checkpoint_exists(p)]
        return list(self._kept)

    def record(self, prefix: str) -> List[str]:
        """Adds ``prefix`` (already on disk), writes the state file, then deletes the checkpoints
        that fell out; returns the deleted prefixes. Deleting after the state file is replaced means
        the state file never names a deleted checkpoint."""
        kept = [p for p in self.kept if os.path.abspath(p) != os.path.abspath(prefix)] + [prefix]
        dropped: List[str] = []
        if self.maxToKeep:
            dropped, kept = kept[:-self.maxToKeep], kept[-self.maxToKeep:]
        write_state(self.checkpointDir, kept)
        self._kept = kept
        for p in dropped:
            delete_checkpoint(p)
        return dropped
