"""Checkpoint files, below both the standard hooks and the drivers (twin of org.jhooks.checkpoint).

The ``checkpoint`` state file (:mod:`jhooks.checkpoint.state`), checkpoint file names, existence,
deletion and stale temporaries (:mod:`jhooks.checkpoint.files`), max-to-keep rotation
(:mod:`jhooks.checkpoint.rotation`), the savers' shared core (:class:`CheckpointKeeper`), the
snapshot writer (TensorFlow imported on first write) and the errors.
"""

from jhooks.checkpoint.errors import CheckpointSaveError, CheckpointStateError
from jhooks.checkpoint.files import DEFAULT_BASENAME, checkpoint_exists, checkpoint_prefix, validate_basename
from jhooks.checkpoint.keeper import CheckpointKeeper
from jhooks.checkpoint.rotation import CheckpointRotation
from jhooks.checkpoint.snapshot_writer import SnapshotWriter
from jhooks.checkpoint.state import STATE_FILE, CheckpointState, read_state, write_state

__all__ = [
    "DEFAULT_BASENAME",
    "STATE_FILE",
    "CheckpointKeeper",
    "CheckpointRotation",
    "CheckpointSaveError",
    "CheckpointState",
    "CheckpointStateError",
    "SnapshotWriter",
    "checkpoint_exists",
    "checkpoint_prefix",
    "read_state",
    "validate_basename",
    "write_state",
]
