"""Benchmark P11's measurement in a process of its own: the peak extra resident memory of one save
by AsyncCheckpointSaverHook (``py``: the Python hook in a Python session, ``jvm``: the Java hook
in the JVM session) of a model of float32 variables of the given sizes.

    python benchmarks/save_peak.py py|jvm DIR MB [MB ...]

Prints one JSON line: ``{"extra": bytes, "model": bytes, "step": saved global step}``. A process of
its own because memory an earlier session freed may stay with the allocator (TensorFlow's, the
JVM's, malloc's) and be reused without the resident set growing, so in a process that ran
anything big before, a save's new memory would not show.
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import measure  # noqa: E402 - starts the JVM with TensorFlow's natives first


def main() -> None:
    language, directory, *sizes = sys.argv[1:]
    peak = {"py": measure.python_async_save_peak, "jvm": measure.java_async_save_peak}[language]
    extra, nbytes, step = peak(tuple(float(x) for x in sizes), directory)
    print(json.dumps({"extra": extra, "model": nbytes, "step": step}), flush=True)


if __name__ == "__main__":
    main()
