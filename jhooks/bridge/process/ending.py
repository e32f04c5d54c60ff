"""How the process ends when Python and a JVM share it: the status the program asked for, and an
end that races no Java thread inside Python (docs/bridge.md, "Threads")."""

from __future__ import annotations

import logging
import os
import sys

from jhooks.bridge.process.state import PROCESS


def record_exit(code: object = None) -> None:
    """Records the status the process exits with: ``code`` of ``sys.exit(code)`` (None: 0; not an
    int: 1)."""
    PROCESS.exit.status = 0 if code is None else code if isinstance(code, int) else 1


def end_process(status: int) -> None:
    """Flushes logging and the standard streams and ends the process with ``os._exit(status)``:
    no interpreter shutdown and no JVM destruction, which Java threads inside Python would race."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
