"""One console for both languages when Python drives the JVM (docs/logging.md).

:func:`install` (called by ``jhooks.bridge.process.jvm.start()``) installs ``org.jhooks.bridge.PythonConsole``:

- Java log records (``System.Logger`` and ``java.util.logging``, the JDK's default backend of
  ``System.Logger``) go to Python ``logging`` under the Java logger's name
  (``org.jhooks.hooks.LoggingTensorHook``), so ``logging.getLogger("org.jhooks")`` silences,
  filters or redirects them like any Python logger. Levels: SEVERE -> ERROR, WARNING -> WARNING,
  INFO -> INFO, CONFIG and FINE -> DEBUG, FINER and FINEST -> 5. The message arrives formatted, the
  exception as its Java stack trace (``record.exc_text``), the Java thread's name as
  ``record.threadName``.
- Python keeps the Java levels in step with its own (after every ``Logger.setLevel`` and
  ``logging.disable``), so a record Python would drop costs the Java side one ``isLoggable`` check.
  Set levels with ``setLevel`` (assigning ``logger.level`` directly is not seen until the next
  ``setLevel`` anywhere).
- Java progress bars (``org.jhooks.hooks.ProgressBarHook`` with the default stream) are drawn by
  the Python bar display, so bars and log lines of both languages never share a line.

:func:`uninstall` gives the JVM its own console handler back (also done at interpreter exit, so
records logged by Java threads while Python shuts down still reach stderr).
"""

from __future__ import annotations

import atexit
import logging
import pkgutil
from typing import Any

from jhooks.bridge.backend.choice import current
from jhooks.bridge.convert.values import value_to_python
from jhooks.bridge.process.callbacks import crossing
from jhooks.bridge.process.signals import deliver_outside
from jhooks.bridge.process.state import PROCESS

_state = PROCESS.console
_OFF = logging.CRITICAL + 10  # above every level a Java record maps to

DEFAULT_FORMAT = "%(asctime)s %(levelname).1s %(name)s: %(message)s"
"""The format of :func:`show_info_by_default`: ``2026-01-31 12:00:00,123 I org.jhooks.hooks.X: text``."""


def _log(name: Any, level: int, message: Any, thrown: Any, thread: Any, millis: int) -> None:
    logger = logging.getLogger(str(name)) if str(name) else logging.getLogger()
    level = int(level)
    if not logger.isEnabledFor(level):
        return
    record = logger.makeRecord(logger.name, level, "(java)", 0, str(message), (), None)
    record.created = int(millis) / 1000.0
    record.msecs = int(millis) % 1000
    if thread is not None:
        record.threadName = str(thread)
    if thrown is not None:
        record.exc_text = str(thrown)
    logger.handle(record)


_log_crossing = crossing(_log, lambda error: error)  # its exceptions reach Java as Python raised them


class _Sink:
    """What ``PythonConsole.Sink`` calls (from any Java thread); each call is in flight for the
    bounded exit (``callbacks.crossing``), its exceptions left as Python raised them."""

    def log(self, name: Any, level: int, message: Any, thrown: Any, thread: Any, millis: int) -> None:
        _log_crossing(name, level, message, thrown, thread, millis)

    def create(self, spec: Any, type_: Any, args: Any) -> Any:
        """A Python object for Java code of jhooks (``PythonConsole.create``): ``spec``
        (``module:Name``, named by jhooks' own Java code, e.g. the progress bar's display) called
        with ``args``, as a proxy implementing ``type_``."""
        obj = pkgutil.resolve_name(str(spec))(*[value_to_python(a) for a in (args or [])])
        return current().proxy(str(type_.getName()), obj)


# Java logs from inside hooks and drops a record it cannot hand over: a SIGINT/SIGTERM raised in here
# would be lost with it, so it waits until the main thread has left (signals.deliver_outside).
deliver_outside(_Sink.log.__code__)


def lowest_enabled(logger: logging.Logger) -> int:
    """The lowest level ``logger.isEnabledFor`` accepts (above CRITICAL when it accepts none)."""
    if logger.disabled:
        return _OFF
    return max(logger.getEffectiveLevel(), logger.manager.disable + 1, 1)


def levels() -> dict[str, int]:
    """What the Java side needs to filter as Python does: the root ("") and every logger whose
    lowest enabled level differs from its parent's."""
    root = logging.getLogger()
    out = {"": lowest_enabled(root)}
    for name, logger in list(root.manager.loggerDict.items()):
        if not isinstance(logger, logging.Logger):
            continue
        mine = lowest_enabled(logger)
        parent = logger.parent
        if parent is None or mine != lowest_enabled(parent):
            out[name] = mine
    return out


def sync_levels() -> None:
    """Sends :func:`levels` to the Java side (called after every Python level change)."""
    backend = current()
    if not _state.installed or not backend.jvm_started():
        return
    now = levels()
    backend.jclass("org.jhooks.bridge.PythonConsole").setLevels(
        backend.array("java.lang.String", list(now)), backend.array("int", list(now.values()))
    )


def install() -> None:
    """Routes Java logging to Python and installs the console (idempotent; the JVM must run)."""
    backend = current()
    with _state.lock:
        if _state.installed:
            return
        backend.jclass("org.jhooks.bridge.PythonConsole").install(
            backend.proxy("org.jhooks.bridge.PythonConsole$Sink", _Sink())
        )
        manager = logging.Logger.manager
        original = _state.original_clear_cache = manager._clear_cache  # type: ignore[attr-defined]

        def clear_cache_and_sync() -> None:
            original()
            sync_levels()

        manager._clear_cache = clear_cache_and_sync  # type: ignore[attr-defined]
        _state.installed = True
        atexit.register(uninstall)
    sync_levels()


def uninstall() -> None:
    """Gives the JVM its own ``java.util.logging`` console handler and levels back."""
    backend = current()
    with _state.lock:
        if not _state.installed:
            return
        _state.installed = False
        if _state.original_clear_cache is not None:
            logging.Logger.manager._clear_cache = _state.original_clear_cache  # type: ignore[attr-defined]
            _state.original_clear_cache = None
        if backend.jvm_started():
            backend.jclass("org.jhooks.bridge.PythonConsole").uninstall()


def show_info_by_default() -> bool:
    """Shows INFO records of both languages on stderr (:data:`DEFAULT_FORMAT`) unless the program
    configured logging itself; returns whether it did.

    What ``python -m jhooks java`` does before the app's main: a JVM app shows INFO by default
    (``java.util.logging``'s console handler), and so do TensorFlow's runtime and its Python logger
    in an interactive session. As TensorFlow's ``tf.get_logger()``, nothing is changed when the root
    logger already has a handler (the program, or a ``--hook`` module on import, configured logging).
    """
    if logging.getLogger().handlers:
        return False
    logging.basicConfig(level=logging.INFO, format=DEFAULT_FORMAT)
    return True
