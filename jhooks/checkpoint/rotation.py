"""Max-to-keep rotation of one saver's checkpoints (twin of org.jhooks.checkpoint.CheckpointRotation)."""

from __future__ import annotations

import os

from jhooks.checkpoint.files import checkpoint_exists, delete_checkpoint, is_own_checkpoint
from jhooks.checkpoint.state import CheckpointState, all_checkpoints, read_state, relative_name, write_state


class CheckpointRotation:
    """The checkpoints a saver keeps, newest last (TF Saver's ``max_to_keep``).

    Seeded from an existing state file: only its entries that are this saver's checkpoints
    (``<checkpointDir>/<checkpointBasename>-<step>``) and whose files exist, so a restarted job keeps
    rotating its old checkpoints. Entries of another directory (TF's Saver writes absolute paths: a
    copied run dir names the source run's files) or of another basename are never deleted; the
    state file this saver writes lists only its own kept checkpoints. ``maxToKeep`` 0 or None keeps
    all. Raises CheckpointStateError (from ``kept``/``record``) for a garbage or unreadable state file.
    """

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
        write_state(self.checkpointDir, CheckpointState(names[-1], names))
        self._kept = kept
        for p in dropped:
            delete_checkpoint(self.checkpointDir, self.checkpointBasename, p)
        return dropped


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
