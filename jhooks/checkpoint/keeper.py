"""CheckpointKeeper: the savers' shared core, one saver's checkpoint directory.

Twin of org.jhooks.checkpoint.CheckpointKeeper. Used by both standard saver hooks (sync and async).
No TensorFlow import. See docs/contract.md, "Checkpoints".
"""

from __future__ import annotations

import contextlib
import os
import threading

from jhooks.checkpoint.files import checkpoint_exists, checkpoint_prefix, clean_stale_temporaries, validate_basename
from jhooks.checkpoint.rotation import CheckpointRotation
from jhooks.checkpoint.state import latest_checkpoint


class CheckpointKeeper:
    """Checks the basename, opens the directory, names prefixes and records finished saves.

    Args:
        hook: the saver's name, for errors.
        checkpointDir: the directory (created by ``open``); kept absolute and normalized, as the Java
            twin keeps it, so prefixes (and the savers' log lines) name the same path in both languages.
        checkpointBasename: a plain file name (ValueError naming ``hook`` and the value otherwise).
        maxToKeep: checkpoints kept; 0 or None keeps all.

    Thread-safe (the async saver commits from its writer thread).
    """

    def __init__(self, hook: str, checkpointDir: str, checkpointBasename: str, maxToKeep: int | None) -> None:
        self.checkpointBasename = validate_basename(hook, checkpointBasename)
        self.checkpointDir = os.path.normpath(os.path.abspath(checkpointDir))
        self._rotation = CheckpointRotation(self.checkpointDir, checkpointBasename, maxToKeep)
        self._lock = threading.RLock()

    def open(self) -> None:
        """Creates the dir, reads an existing state file (so rotation continues) and removes what a
        killed save left: its temporaries and the checkpoints its rotation had dropped but not yet
        deleted (``CheckpointRotation.finishInterruptedRotation``). Raises OSError (dir cannot be
        created, a file cannot be deleted) or CheckpointStateError (garbage or unreadable state file)."""
        with self._lock:
            os.makedirs(self.checkpointDir, exist_ok=True)
            _ = self._rotation.kept
            clean_stale_temporaries(self.checkpointDir, self.checkpointBasename)
            self._rotation.finishInterruptedRotation()

    def discardTemporaries(self) -> None:
        """After a failed save: removes the temporaries it left (TF's bundle writer keeps them)."""
        with self._lock, contextlib.suppress(OSError):
            clean_stale_temporaries(self.checkpointDir, self.checkpointBasename)

    def prefixFor(self, step: int) -> str:
        """``checkpointDir/checkpointBasename-step``."""
        return checkpoint_prefix(self.checkpointDir, self.checkpointBasename, step)

    def commit(self, prefix: str) -> list[str]:
        """Records that the files of ``prefix`` are complete: the state file names it the latest,
        then the checkpoints that fell out are deleted (returned). FileNotFoundError when its
        ``.index`` / ``.data-*`` are missing."""
        with self._lock:
            if not checkpoint_exists(prefix):
                raise FileNotFoundError(f"no {prefix}.index / {prefix}.data-* after the save")
            return self._rotation.record(prefix)

    def latestIs(self, step: int) -> bool:
        """Whether the state file's latest checkpoint exists and is this saver's one of ``step``."""
        with self._lock:
            latest = latest_checkpoint(self.checkpointDir)
            return latest is not None and latest == os.path.normpath(os.path.abspath(self.prefixFor(step)))

    def kept(self) -> list[str]:
        """The kept checkpoints' names as the state file lists them, oldest first."""
        with self._lock:
            return [os.path.basename(p) for p in self._rotation.kept]
