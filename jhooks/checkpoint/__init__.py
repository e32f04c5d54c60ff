"""Checkpoint files, below both the standard hooks and the drivers (twin of org.jhooks.checkpoint).

The ``checkpoint`` state file (:mod:`jhooks.checkpoint.state`), checkpoint file names, existence,
deletion and stale temporaries (:mod:`jhooks.checkpoint.files`), max-to-keep rotation
(:mod:`jhooks.checkpoint.rotation`), the savers' shared core (:class:`CheckpointKeeper`), the
snapshot writer (TensorFlow imported on first write) and the errors.
"""

from jhooks.checkpoint.errors import CheckpointSaveError, CheckpointStateError
from jhooks.checkpoint.files import DEFAULT_BASENAME, checkpoint_exists, checkpoint_prefix, validate_basename
from jhooks.checkpoint.keeper import CheckpointKeeper
from jhooks.checkpoint.rotation import CheckpointRotation, record_checkpoint
from jhooks.checkpoint.snapshot_writer import SnapshotWriter
from jhooks.checkpoint.state import (
    STATE_FILE,
    CheckpointState,
    all_checkpoints,
    latest_checkpoint,
    read_state,
    relative_name,
    write_state,
)

__all__ = [
    "DEFAULT_BASENAME",
    "STATE_FILE",
    "CheckpointKeeper",
    "CheckpointRotation",
    "CheckpointSaveError",
    "CheckpointState",
    "CheckpointStateError",
    "SnapshotWriter",
    "all_checkpoints",
    "checkpoint_exists",
    "checkpoint_prefix",
    "latest_checkpoint",
    "read_state",
    "record_checkpoint",
    "relative_name",
    "validate_basename",
    "write_state",
]
