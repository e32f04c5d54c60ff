"""Runs a JVM application's ``main`` in this Python process with Python hooks available to it.

``python -m jhooks java [--classpath CP] MAIN_CLASS [--hook MODULE:CLASS]... [-- APP_ARGS...]``
starts the JVM (jhooks.bridge.process.jvm, one TensorFlow runtime), appends CP, instantiates each
``--hook`` class with no arguments, installs a ``org.jhooks.python.PythonHooks.Loader``
(:mod:`jhooks.bridge.launcher.loader`) and calls ``MAIN_CLASS.main(APP_ARGS)``; Java and Python log
records share Python's ``logging``, INFO shown unless a hook module configured logging
(jhooks.bridge.process.console, docs/logging.md). The app gets the hooks with
``PythonHooks.fromCommandLine()`` or makes more with ``PythonHooks.load("module:Class", args...)``.
See docs/bridge.md, "Launcher".
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from jhooks.bridge.backend.choice import current
from jhooks.bridge.convert.exceptions import java_stack_trace, type_name
from jhooks.bridge.launcher.loader import install
from jhooks.bridge.launcher.specs import LauncherError
from jhooks.bridge.process import console, jvm
from jhooks.bridge.process.calls import from_java, signal_exit
from jhooks.bridge.process.errors import JavaClassNotFoundError


def launch(
    main_class: str, app_args: Sequence[str], hook_specs: Sequence[str] = (), extra_classpath: Sequence[str] = ()
) -> int:
    """Runs ``main_class.main(app_args)``; returns 0, or 1 after printing what the app threw.

    A ``SystemExit`` raised in a Python hook (``sys.exit(n)``), or the ``KeyboardInterrupt`` /
    ``SystemExit(143)`` of a signal (jhooks.bridge.process.signals), that reaches ``main``'s caller is
    raised again, so the process exits with n (130, 143)."""
    jvm.start(extra_classpath=extra_classpath, natives=True)
    install(hook_specs)
    console.show_info_by_default()  # after the --hook modules: they may configure logging on import
    try:
        cls = jvm.find_class(main_class)
    except JavaClassNotFoundError as e:
        raise LauncherError(f"main class: {e}") from None
    backend = current()
    try:
        cls.main(backend.array("java.lang.String", list(app_args)))
    except Exception as e:
        java = backend.java_error(e)
        if java is None:
            if not isinstance(e, RuntimeError):
                raise
            # JPype's own failure when a signal interrupted Java: the signal wins
            ending = signal_exit(e)
            if ending is e:
                raise
            raise ending from e
        original = from_java(java)  # the Java stack trace shows Java and Python frames together
        if isinstance(original, (SystemExit, KeyboardInterrupt)):
            raise original from None  # a hook's sys.exit(n) or a signal: the process exits as asked
        print(f"{main_class}.main threw {type_name(java)}:\n{java_stack_trace(java)}", file=sys.stderr)
        return 1
    return 0
