"""The Python entry of a JVM that embeds this interpreter (the jep backend, docs/bridge.md "Backends").

``org.jhooks.bridge.EmbeddedPython`` imports this module on each Java thread's interpreter (as
``call``, the jep backend's dispatcher, which it also is) and calls the functions below by name
through handle 0: :func:`start` once, :func:`call_function` for Java code that starts Python work,
``release`` for the proxies the JVM collected, :func:`at_exit` at the JVM's exit.
"""

from __future__ import annotations

import atexit
import importlib
import sys
from typing import Any

from jhooks.bridge.backend import jep_backend
from jhooks.bridge.backend.jep_backend import call, release
from jhooks.bridge.launcher.loader import install_loader
from jhooks.bridge.process import jvm
from jhooks.bridge.process.calls import python_errors

__all__ = ["at_exit", "call", "call_function", "release", "start"]


def start() -> None:
    """Run once by ``EmbeddedPython.start()``: refuses a JVM without the options that let Python's
    TensorFlow and tensorflow-java share one runtime (jhooks.bridge.process.jvm.check_embedding_jvm,
    a JvmError listing the missing flags), then installs the ``PythonHooks`` loader."""
    python_errors(jvm.check_embedding_jvm)()
    install_loader([])


def at_exit() -> None:
    """Run by ``EmbeddedPython`` at the JVM's exit (a shutdown hook, every thread still running):
    Python's ``atexit`` functions, as Python's own exit runs them (the JVM never finalizes this
    interpreter). Among them h5py's, which unregisters the HDF5 converters that HDF5's C exit
    handler would otherwise call into Python, the GIL held by a thread the exiting JVM has stopped."""
    atexit._run_exitfuncs()


def call_function(module: str, function: str, *args: Any) -> Any:
    """What ``EmbeddedPython.callFunction`` runs: ``module.function(*args)``, its exceptions leaving as
    Java ones (jhooks.bridge.process.calls.python_errors). For Java code that starts Python work (the
    conformance runner), not for specs from users: those go through the PythonHooks loader's checks."""
    return python_errors(getattr(importlib.import_module(module), function))(*args)


jep_backend.set_entry(sys.modules[__name__])
