"""`CheckpointGuard`: the session-level signal that keeps NaN weights out of checkpoints.

Twin of ``org.jhooks.CheckpointGuard``. One guard belongs to one raw session (a session
re-created by recovery, restored from the last finite checkpoint, starts with a clear guard); every
hook of that session, in either language, reaches the same guard with
:meth:`CheckpointGuard.of(session) <CheckpointGuard.of>`. ``NanTensorHook`` watches its loss tensor
here and reports a NaN; the checkpoint saver hooks fetch the watched losses with every run, report
a NaN they see themselves (so the order of the hooks does not matter) and write no checkpoint of
the reported step or any later one (docs/standard-hooks.md, "No poisoned checkpoints").
TensorFlow has no such signal: its ``CheckpointSaverHook`` writes the NaN weights.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, ClassVar

_ATTR = "_jhooks_checkpoint_guard"


class CheckpointGuard:
    """What the hooks of one raw session know about NaN losses. Thread-safe.

    - :meth:`watchLoss` (``NanTensorHook`` in ``afterCreateSession``): savers fetch these tensors.
    - :meth:`reportNanLoss`: the first global step whose checkpoint would hold weights updated by a
      run whose loss was NaN (the global step after that run); the lowest reported step is kept.
    - :meth:`allowsSave`: whether a checkpoint labelled ``step`` may be written (``step`` below the
      reported step, or nothing reported).
    """

    _registry: ClassVar[weakref.WeakKeyDictionary[Any, CheckpointGuard]] = weakref.WeakKeyDictionary()
    _registryLock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._losses: list[str] = []
        self._nanStep: int | None = None
        self._nanLoss: str | None = None

    @staticmethod
    def of(session: Any) -> CheckpointGuard:
        """The guard of ``session`` (a jhooks Session view): ``session.checkpointGuard()`` when the
        view has it (jhooks' views do: TensorFlow's raw session, the bridge views), else one guard
        per view object. Twin of Java's ``CheckpointGuard.of(Session)``."""
        own = getattr(session, "checkpointGuard", None)
        if own is not None:
            return own()
        return CheckpointGuard.attachedTo(session)

    @staticmethod
    def attachedTo(owner: Any) -> CheckpointGuard:
        """The guard stored on ``owner`` (created on first use): an attribute, else a weak registry."""
        with CheckpointGuard._registryLock:
            guard = getattr(owner, _ATTR, None)
            if isinstance(guard, CheckpointGuard):
                return guard
            try:
                guard = CheckpointGuard._registry.get(owner)
            except TypeError:  # not weak-referenceable
                guard = None
            if guard is not None:
                return guard
            guard = CheckpointGuard()
            try:
                setattr(owner, _ATTR, guard)
            except (AttributeError, TypeError):
                CheckpointGuard._registry[owner] = guard
            return guard

    def watchLoss(self, tensorName: str) -> None:
        """Asks every saver of the session to fetch ``tensorName`` (a float tensor of any shape)
        with each run and to treat a NaN in it as :meth:`reportNanLoss`. Idempotent."""
        with self._lock:
            if tensorName not in self._losses:
                self._losses.append(str(tensorName))

    def watchedLosses(self) -> list[str]:
        """The watched loss tensors, in the order first watched."""
        with self._lock:
            return list(self._losses)

    def reportNanLoss(self, globalStep: int, lossTensor: str) -> None:
        """Records that the weights of global step ``globalStep`` (and later) come from a run whose
        ``lossTensor`` was NaN; the lowest step reported is kept."""
        with self._lock:
            if self._nanStep is None or int(globalStep) < self._nanStep:
                self._nanStep = int(globalStep)
                self._nanLoss = str(lossTensor)

    def nanStep(self) -> int | None:
        """The first global step no saver may checkpoint, or None."""
        with self._lock:
            return self._nanStep

    def nanLoss(self) -> str | None:
        """The loss tensor that was NaN at :meth:`nanStep`, or None."""
        with self._lock:
            return self._nanLoss

    def allowsSave(self, globalStep: int) -> bool:
        """Whether a checkpoint labelled ``globalStep`` may be written."""
        step = self.nanStep()
        return step is None or int(globalStep) < step

    def __repr__(self) -> str:
        return f"CheckpointGuard(watched={self.watchedLosses()}, nanStep={self.nanStep()})"
