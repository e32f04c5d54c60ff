"""What ``python -m jhooks conformance`` reports beside its table: one line per failure on the
console, JUnit XML for CI systems (``--junit-xml``), and the log records each case produced.

Cases log on purpose (the JVM driver's recovery logs the recoverable error with its Java stack
trace, NaN and final-ops hooks warn), some 280 stack-trace lines over the whole suite. They are
captured per case (:class:`CaseLogs`): kept off the console unless ``--verbose``, and written as
each test case's ``system-err`` in the JUnit XML. The XML is written with ``junitparser``.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"
CLASSNAME = "jhooks.conformance"

# characters XML 1.0 cannot hold even escaped (a control character in a hook's message would make
# the whole report unreadable to the CI system)
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def failure_line(result: Any) -> str:
    """``FAILED <scenario>[<combo>]: <first line of the first mismatch>`` (+ how many lines more)."""
    lines = result.detail.splitlines() or ["(no detail)"]
    more = f" (+{len(lines) - 1} more lines)" if len(lines) > 1 else ""
    return f"FAILED {result.id}: {lines[0]}{more}"


def failure_message(result: Any) -> str:
    """The JUnit failure ``message``: the scenario, the combination and the first mismatch line."""
    first = (result.detail.splitlines() or ["(no detail)"])[0]
    return f"{result.scenario} [{result.combo}]: {first}"


class CaseLogs(logging.Handler):
    """Collects the formatted log records (with any stack trace) of the case that is running.

    Records logged before the first case, or by a background thread after its case ended, count
    for the case running when they arrive."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter(LOG_FORMAT))
        self._current = ""
        self._texts: dict[str, list[str]] = {}

    def start(self, case_id: str) -> None:
        with self.lock:  # type: ignore[union-attr]  # Handler.createLock made it
            self._current = case_id

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)  # Handler.handle holds self.lock here
        self._texts.setdefault(self._current, []).append(text)

    def text(self, case_id: str) -> str:
        with self.lock:  # type: ignore[union-attr]
            return "\n".join(self._texts.get(case_id, []))


@contextmanager
def captured_logs(verbose: bool) -> Iterator[CaseLogs]:
    """Routes log records of both languages (Java's arrive through jhooks.bridge.process.console) to a
    :class:`CaseLogs` on the root logger for the run, and with ``verbose`` also to stderr.

    A root handler also keeps Python's last-resort handler, and TensorFlow's own handler (which
    TensorFlow adds only when the root has none at its first log), from printing them."""
    root = logging.getLogger()
    logs = CaseLogs()
    handlers: list[logging.Handler] = [logs]
    if verbose:
        console = logging.StreamHandler(sys.stderr)
        console.setFormatter(logging.Formatter(LOG_FORMAT))
        handlers.append(console)
    for h in handlers:
        root.addHandler(h)
    try:
        yield logs
    finally:
        for h in handlers:
            root.removeHandler(h)


def write_junit_xml(
    path: str,
    results: Sequence[Any],
    durations: Mapping[str, float],
    logs: CaseLogs | None = None,
    properties: Mapping[str, str] | None = None,
) -> None:
    """Writes one ``testsuite`` per combination (named by its id, in first-seen order), one
    ``testcase`` per result: name ``<scenario>[<combo>]``, classname ``jhooks.conformance``, time
    in seconds. ``failed`` -> ``failure`` (message: scenario, combination, first mismatch line;
    text: every mismatch); ``skipped`` -> ``skipped`` with the reason; ``xfailed`` -> ``skipped``
    of type ``xfail`` (as pytest reports them) with the listed reason and the mismatches. A case's
    captured log records become its ``system-err``. ``properties`` go on every suite."""
    from junitparser import Failure, JUnitXml, Skipped, TestCase, TestSuite

    suites: dict[str, TestSuite] = {}
    for r in results:
        suite = suites.get(r.combo)
        if suite is None:
            suite = suites[r.combo] = TestSuite(r.combo)
            for name, value in (properties or {}).items():
                suite.add_property(name, _xml(value))
        case = TestCase(r.id, CLASSNAME, round(durations.get(r.id, 0.0), 3))
        if r.outcome == "failed":
            failure = Failure(_xml(failure_message(r)), "ConformanceMismatch")
            failure.text = _xml(r.detail)
            case.result = [failure]
        elif r.outcome == "skipped":
            case.result = [Skipped(_xml(r.detail))]
        elif r.outcome == "xfailed":
            skipped = Skipped(_xml(f"expected failure: {r.detail}"), "xfail")
            skipped.text = _xml("\n".join(r.mismatches))
            case.result = [skipped]
        text = logs.text(r.id) if logs is not None else ""
        if text:
            case.system_err = _xml(text)
        suite.add_testcase(case)
    xml = JUnitXml("jhooks conformance")
    for suite in suites.values():
        suite.update_statistics()
        xml.add_testsuite(suite)
    xml.update_statistics()
    xml.write(path, pretty=True)


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)
