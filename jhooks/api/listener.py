"""CheckpointSaverListener and SaveDecision (twins of org.jhooks.CheckpointSaverListener and
org.jhooks.SaveDecision; TensorFlow's listener, which cannot skip a save: TF #20992)."""

from __future__ import annotations

import enum
from typing import Any


class SaveDecision(enum.Enum):
    """What a listener's ``beforeSave`` may return (twin of Java's ``org.jhooks.SaveDecision``)."""

    SAVE = "SAVE"
    """Let the save go ahead (what returning None means)."""
    SKIP = "SKIP"
    """Skip this save: no checkpoint files, the ``checkpoint`` state file untouched, no listener's
    ``afterSave``."""


class CheckpointSaverListener:
    """Callbacks around each checkpoint save; all no-ops by default."""

    def begin(self) -> None:
        pass

    def beforeSave(self, session: Any, globalStep: int) -> SaveDecision | None:
        """Before the save labelled ``globalStep`` starts. Return ``SaveDecision.SKIP`` to skip it
        (see :meth:`decideSave`); None (TensorFlow's listeners) or ``SaveDecision.SAVE`` lets it go
        ahead."""
        return None

    def decideSave(self, session: Any, globalStep: int) -> Any:
        """What the savers call before each save, for every listener in order (on the training
        thread): :meth:`beforeSave`'s decision, None counting as ``SaveDecision.SAVE``. If any
        listener decides ``SKIP`` the save writes no files, leaves the ``checkpoint`` state file
        untouched and calls no ``afterSave``. Twin of Java's ``decideSave`` (Java keeps
        ``beforeSave`` void for existing listeners). Anything but None or a SaveDecision is handed
        back as it is: the saver raises a HookError naming itself, the callback, the listener and
        the value.
        """
        decision = self.beforeSave(session, globalStep)
        return SaveDecision.SAVE if decision is None else decision

    def afterSave(self, session: Any, globalStep: int) -> bool:
        """After the checkpoint files and the state file are on disk; True asks training to stop."""
        return False

    def end(self, session: Any, globalStep: int) -> None:
        """Once, after the final save."""
