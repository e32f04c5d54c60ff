"""The last resort after a signal: ``org.jhooks.bridge.ExitWatchdog`` and its Python half.

:func:`arm_watchdog` (after the JVM starts) installs ``ExitWatchdog`` for the signals jhooks handles
(:mod:`jhooks.bridge.process.signals`): at the first signal it starts a watchdog here that ends the
process with ``os._exit(128 + signal)`` if it is still alive ``signals.exit_seconds()`` later (a
main thread stuck in a Java loop that never returns to Python), and Java halts it a little later
still if even that could not run. See docs/bridge.md, "Threads".
"""

from __future__ import annotations

import logging
import signal
import threading
import time

from jhooks.bridge.backend.choice import current
from jhooks.bridge.process import signals
from jhooks.bridge.process.calls import python_errors
from jhooks.bridge.process.ending import end_process
from jhooks.bridge.process.state import PROCESS

log = logging.getLogger(__name__)


class _Watchdog:
    """What ``ExitWatchdog`` calls (``IntConsumer.accept``, on a Java thread) at the first signal: a
    Python thread that ends the process at the deadline."""

    @python_errors
    def accept(self, signum: int) -> None:
        signals.received(int(signum))
        status = 128 + int(signum)
        at = PROCESS.signals.signalled_at
        end = (time.monotonic() if at is None else at) + signals.exit_seconds()

        def watch() -> None:
            time.sleep(max(0.0, end - time.monotonic()))
            log.warning(
                "the process did not end within %.1f s of signal %d; ending it", signals.exit_seconds(), status - 128
            )
            end_process(status)

        threading.Thread(target=watch, name="jhooks-exit-watchdog", daemon=True).start()


def arm_watchdog() -> None:
    """Installs ``org.jhooks.bridge.ExitWatchdog`` for the signals jhooks handles; call once the
    JVM runs."""
    handled = PROCESS.signals.handled
    if not handled:
        return
    signals.arm_session_stop()  # behind the watchdog, in front of JPype's handlers
    backend = current()
    backend.jclass("org.jhooks.bridge.ExitWatchdog").install(
        backend.jlong(int(signals.exit_seconds() * 1000) + 1500),  # Java's halt: the last resort
        signal.SIGTERM in handled,
        signal.SIGINT in handled,
        backend.proxy("java.util.function.IntConsumer", _Watchdog()),
    )
