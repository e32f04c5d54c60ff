"""The ``checkpoint`` state file of a checkpoint dir (what ``tf.train.latest_checkpoint`` reads).

``Session.save`` never touches it (docs/contract.md); the standard checkpoint hooks call
:func:`write_state` after the checkpoint files are on disk. TensorFlow's
``update_checkpoint_state`` writes a temporary file and renames it over the old one
(``file_io.atomic_write_string_to_file``), so a reader never sees a half-written file.
"""

from __future__ import annotations

from typing import Optional, Sequence

import tensorflow as tf


def write_state(checkpointDir: str, prefix: str, allPrefixes: Sequence[str]) -> None:
    """Records ``prefix`` as the latest checkpoint and ``allPrefixes`` (oldest first) as kept.

    ``prefix`` is appended to ``allPrefixes`` if missing, as TensorFlow requires it last.
    """
    kept = [p for p in allPrefixes if p != prefix] + [prefix]
    tf.compat.v1.train.update_checkpoint_state(checkpointDir, prefix, all_model_checkpoint_paths=kept)


def latest(checkpointDir: str) -> Optional[str]:
    """The latest checkpoint prefix recorded in ``checkpointDir``, or None."""
    return tf.train.latest_checkpoint(checkpointDir)


def all_prefixes(checkpointDir: str) -> Sequence[str]:
    """Every prefix the state file lists, oldest first; empty when there is no state file."""
    state = tf.train.get_checkpoint_state(checkpointDir)
    return list(state.all_model_checkpoint_paths) if state is not None else []
