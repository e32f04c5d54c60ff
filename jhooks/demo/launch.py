"""Python hook objects handed to a JVM app through ``org.jhooks.python.PythonHooks``: what
``python -m jhooks java MAIN --hook module:Class`` (jhooks.bridge.launcher.app) installs, but with
hooks built in Python, so the caller can read their results after the app ran."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from jhooks.bridge.launcher.loader import install_hooks, uninstall_hooks


@contextlib.contextmanager
def python_hooks_installed(hooks: Sequence[Any]) -> Iterator[None]:
    """Within the block, ``PythonHooks.fromCommandLine()`` on the JVM returns ``hooks`` (as Java
    hooks, in order; ``PythonHooks.load`` works as under the launcher); uninstalled afterwards."""
    install_hooks(hooks)
    try:
        yield
    finally:
        uninstall_hooks()
