"""Max-to-keep rotation of one saver's checkpoints (twin of org.jhooks.checkpoint.CheckpointRotation)."""

from __future__ import annotations

import logging
import os
import tempfile

from jhooks.checkpoint.files import checkpoint_exists, delete_checkpoint, is_own_checkpoint
from jhooks.checkpoint.state import (
    STATE_FILE,
    CheckpointState,
    all_checkpoints,
    read_state,
    relative_name,
    write_state,
)

logger = logging.getLogger(__name__)

ROTATION_FILE = STATE_FILE + ".rotation"
"""The rotation's journal in the checkpoint dir: the checkpoints a save dropped, one state-file name
per line, written before the state file and removed once they are deleted, so a kill between the
two leaves a list for the next saver's ``finishInterruptedRotation`` instead of orphans."""


class CheckpointRotation:
    """The checkpoints a saver keeps, newest last (TF Saver's ``max_to_keep``).

    Seeded from an existing state file: only its entries that are this saver's checkpoints
    (``<checkpointDir>/<checkpointBasename>-<step>``) and whose files exist, so a restarted job keeps
    rotating its old checkpoints. Entries of another directory (TF's Saver writes absolute paths: a
    copied run dir names the source run's files) or of another basename are never deleted; the
    state file this saver writes lists only its own kept checkpoints. ``maxToKeep`` 0 or None keeps
    all. Raises CheckpointStateError (from ``kept``/``record``) for a garbage or unreadable state file.

    Crash-safe: the checkpoints a save drops are listed in ``ROTATION_FILE`` before the state file
    is replaced and deleted after it; a process killed in between leaves that list, and
    ``finishInterruptedRotation`` (the savers' ``begin``) deletes what it names and the state file
    no longer lists. TensorFlow's Saver keeps no such list: its kill there leaves the dropped
    checkpoint's files forever.
    """

    ROTATION_FILE = ROTATION_FILE

    def __init__(self, checkpointDir: str, checkpointBasename: str, maxToKeep: int | None) -> None:
        self.checkpointDir = checkpointDir
        self.checkpointBasename = checkpointBasename
        self.maxToKeep = maxToKeep
        self._kept: list[str] | None = None

    @property
    def kept(self) -> list[str]:
        if self._kept is None:
            self._kept = [
                p
                for p in all_checkpoints(self.checkpointDir)
                if is_own_checkpoint(self.checkpointDir, self.checkpointBasename, p) and checkpoint_exists(p)
            ]
        return list(self._kept)

    def record(self, prefix: str) -> list[str]:
        """Adds ``prefix`` (already on disk), writes the state file, then deletes the checkpoints
        that fell out; returns the deleted prefixes. Deleting after the state file is replaced means
        the state file never names a deleted checkpoint."""
        absolute = os.path.normpath(os.path.abspath(prefix))
        kept = [p for p in self.kept if p != absolute] + [absolute]
        dropped: list[str] = []
        if self.maxToKeep:
            dropped, kept = kept[: -self.maxToKeep], kept[-self.maxToKeep :]
        names = [relative_name(self.checkpointDir, p) for p in kept]
        if dropped:
            self._writeJournal([relative_name(self.checkpointDir, p) for p in dropped])
        write_state(self.checkpointDir, CheckpointState(names[-1], names))
        self._kept = kept
        for p in dropped:
            delete_checkpoint(self.checkpointDir, self.checkpointBasename, p)
        if dropped:
            os.remove(os.path.join(self.checkpointDir, ROTATION_FILE))
        return dropped

    def finishInterruptedRotation(self) -> list[str]:
        """Deletes the checkpoints a killed save had dropped (``ROTATION_FILE``'s names that are
        this saver's checkpoints and that the state file does not list), then the journal; returns
        the prefixes whose files it deleted. Without a journal nothing is deleted. Raises
        CheckpointStateError for a garbage or unreadable state file, OSError when a file cannot be
        deleted."""
        journal = os.path.join(self.checkpointDir, ROTATION_FILE)
        try:
            with open(journal, encoding="utf-8") as f:
                names = f.read().splitlines()
        except FileNotFoundError:
            return []
        listed = set(all_checkpoints(self.checkpointDir))
        deleted = []
        directory, basename = self.checkpointDir, self.checkpointBasename
        for name in names:
            prefix = os.path.normpath(os.path.join(directory, name))
            own = name and prefix not in listed and is_own_checkpoint(directory, basename, prefix)
            if own and delete_checkpoint(directory, basename, prefix):
                deleted.append(prefix)
        os.remove(journal)
        if deleted:
            logger.info("Finished the rotation an interrupted save began in %s: deleted %s", journal, deleted)
        return deleted

    def _writeJournal(self, names: list[str]) -> None:
        fd, tmp = tempfile.mkstemp(prefix=STATE_FILE + ".tmp", dir=self.checkpointDir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write("".join(n + "\n" for n in names))
            os.replace(tmp, os.path.join(self.checkpointDir, ROTATION_FILE))
        except BaseException:
            if os.path.exists(tmp):
                os.remove(tmp)
            raise


def record_checkpoint(
    checkpointDir: str, checkpointBasename: str, prefix: str, maxToKeep: int | None
) -> CheckpointState:
    """Records the checkpoint just written at ``prefix`` as the latest of a fresh
    :class:`CheckpointRotation` of ``checkpointDir`` and ``checkpointBasename`` (``maxToKeep`` 0 or
    None keeps all); returns the new state."""
    CheckpointRotation(checkpointDir, checkpointBasename, maxToKeep).record(prefix)
    state = read_state(checkpointDir)
    assert state is not None, "record wrote it"
    return state
