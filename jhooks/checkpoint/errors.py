"""Errors of the checkpoint package (twins of org.jhooks.checkpoint.*Exception)."""

from __future__ import annotations

from jhooks.api.errors import HookError


class CheckpointSaveError(HookError):
    """A checkpoint save failed: the files, the ``checkpoint`` state file or a rotation could not
    be written (disk full, a file size limit, an unwritable or vanished directory, ...), or a save
    left no checkpoint files. Raised on the training thread (for AsyncCheckpointSaverHook: at the
    callback after the background write failed); ``__cause__`` is the original error.

    Never end of input: TensorFlow reports some write failures (a file size limit) as
    ``OutOfRangeError``; wrapped in this error they stop training as an error (docs/contract.md,
    "End of input"). ``hook``, ``callback``, ``globalStep`` and ``prefix`` name the failed save.
    Twin of ``org.jhooks.checkpoint.CheckpointSaveException``.
    """

    def __init__(self, hook: str, callback: str, globalStep: int, prefix: str, cause: BaseException) -> None:
        super().__init__(
            hook,
            callback,
            f"checkpoint save of global step {globalStep} to {prefix} failed: {type(cause).__name__}: {cause}",
        )
        self.globalStep = globalStep
        self.prefix = prefix


class CheckpointStateError(ValueError):
    """The ``checkpoint`` state file exists but cannot be read or is not a CheckpointState text
    proto (binary garbage, a line that is no ``name: "value"`` field, no
    ``model_checkpoint_path``). TensorFlow's ``get_checkpoint_state`` logs and ignores such a file
    and then overwrites the checkpoints it no longer knows; jhooks refuses it instead: savers raise
    a HookError naming the hook in ``begin`` and write or delete nothing (docs/contract.md,
    "Checkpoints"). ``path`` is the state file. Twin of
    ``org.jhooks.checkpoint.CheckpointStateException``.
    """

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"checkpoint state file {path}: {problem}")
        self.path = path
