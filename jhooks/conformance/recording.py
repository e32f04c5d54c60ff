"""One trace for hooks of both languages: a Python recorder that writes into the Java
``org.jhooks.conformance.Recorder``, so Java and Python hooks append to one ordered list (the Java
recorder is synchronized; events keep the order the callbacks happened in)."""

from __future__ import annotations

import json
from typing import Any


class JavaBackedRecorder:
    """The Python Recorder interface (event, result, listenerEvent, saved) over a Java Recorder."""

    def __init__(self, java: Any = None) -> None:
        from jhooks.bridge.backend.choice import current

        self.java = java if java is not None else current().jclass("org.jhooks.conformance.Recorder")()
        self._parse = current().jclass("com.google.gson.JsonParser").parseString

    def event(self, hook: str, label: str) -> None:
        self.java.event(hook, label)

    def result(self, hook: str, at: str, what: str, value: Any) -> None:
        self.java.result(hook, at, what, self._parse(json.dumps(value)))

    def listenerEvent(self, listener: str, label: str) -> None:
        self.java.listenerEvent(listener, label)

    def saved(self, globalStep: int) -> None:
        from jhooks.bridge.backend.choice import current

        self.java.saved(current().jlong(int(globalStep)))

    def snapshot(self) -> dict[str, Any]:
        return {
            "trace": [str(e) for e in self.java.trace()],
            "results": json.loads(str(self.java.results().toString())),
            "listenerTrace": [str(e) for e in self.java.listenerTrace()],
            "saves": [int(s) for s in self.java.saves()],
        }
