"""CheckpointSaverListener (twin of org.jhooks.CheckpointSaverListener and TF's listener)."""

from __future__ import annotations

from typing import Any


class CheckpointSaverListener:
    """Callbacks around each checkpoint save; all no-ops by default."""

    def begin(self) -> None:
        pass

    def beforeSave(self, session: Any, globalStep: int) -> None:
        """Before the save labelled ``globalStep`` starts."""

    def afterSave(self, session: Any, globalStep: int) -> bool:
        """After the checkpoint files and the state file are on disk; True asks training to stop."""
        return False

    def end(self, session: Any, globalStep: int) -> None:
        """Once, after the final save."""
