"""A Python hook is never called with a Java run context the JVM already collected: the Java caller
keeps each context alive until the Python call returned (org.jhooks.bridge.RunContextIds, which
Python uses to look a context up by id). Before, a context that no Java code read any more could
be collected while the call crossed, and the hook failed with "the Java run context #N is gone"
(seen under load in the signal tests, whose busy threads make a context per call)."""

from __future__ import annotations

import threading

import jpype

import jhooks
from jhooks.bridge import as_java_hook


class Reads(jhooks.Hook):
    """Uses its run context in both per-run callbacks."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    def beforeSessionRun(self, runContext):
        assert runContext.originalArgs is None
        return None

    def afterSessionRun(self, runContext, runValues):
        with self.lock:
            self.calls += 1


def test_contexts_stay_alive_while_python_hooks_use_them():
    hook = Reads()
    failure = jpype.JClass("org.jhooks.bridgetest.ContextChurn").run(as_java_hook(hook), 3, 1_500)
    assert failure is None, str(failure)
    assert hook.calls == 3 * 1_500
