"""Values shared instead of copied across the bridge (docs/bridge.md, "Arrays and ownership"):
a Python hook in the JVM session reads large fetches as read-only numpy views it may keep; a Java
hook in a Python session reads numpy results as read-only NdArray views."""

import jpype
import numpy as np
import pytest
import tensorflow as tf

import jhooks
from jhooks.bridge import as_java_hook
from jhooks.bridge.hooks.java_hooks import JavaHook
from jhooks.tf import to_tf_hooks

ELEMENTS = 1 << 20  # 4 MB of float32: held in direct memory by the JVM driver


class Keep(jhooks.Hook):
    """Fetches big0:0 in runs of train_step and keeps every value it is given."""

    def __init__(self):
        self.kept = []

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs("big0:0")

    def afterSessionRun(self, runContext, runValues):
        self.kept.append(runValues.results)


def java_list(*items):
    out = jpype.JClass("java.util.ArrayList")()
    for i in items:
        out.add(i)
    return out


def test_python_hook_in_jvm_session_keeps_read_only_views_with_exact_values():
    graph = jpype.JClass("org.jhooks.bench.BigVariableGraph").build(ELEMENTS, True)
    keep = Keep()
    session = jpype.JClass("org.jhooks.tf.MonitoredSession").builder(graph).hooks(java_list(as_java_hook(keep))).build()
    try:
        steps = 80  # 320 MB of values: past the driver's 256 MB budget, so its memory is reused
        for _ in range(steps):
            session.run("train_step")
    finally:
        session.close()
        graph.close()
    assert len(keep.kept) == steps
    for i, value in enumerate(keep.kept):
        # each run fetched the variable with the step's add, in one run: it holds step i or i + 1
        assert value.dtype == np.float32 and value.shape == (ELEMENTS,)
        assert not value.flags.writeable
        assert value[0] == value[-1] == value[ELEMENTS // 2]
        assert value[0] in (i, i + 1)
    firsts = [float(v[0]) for v in keep.kept]
    assert firsts == sorted(firsts) and len(set(firsts)) == steps  # none overwritten by a later step
    with pytest.raises(ValueError):
        keep.kept[0][0] = 1.0
    writable = keep.kept[0].copy()
    writable[0] = -1.0
    assert keep.kept[0][0] != -1.0


def test_java_hook_in_python_session_reads_a_read_only_view():
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.train.get_or_create_global_step()
        v = tf.compat.v1.get_variable("big0", initializer=np.arange(ELEMENTS, dtype=np.float32))
        train_op = tf.compat.v1.assign_add(v, tf.ones([ELEMENTS]))
        hook = jpype.JClass("org.jhooks.bench.FetchHook")("big0:0")
        session = tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([JavaHook(hook)]))
    with session:
        session.run(train_op)
    assert int(hook.lastSize()) == ELEMENTS


def test_java_hook_that_keeps_a_view_past_its_callback_gets_a_clear_error_not_freed_memory(monkeypatch):
    """The rule "valid during the callback, copy to keep", broken: a Java hook keeps the view of its
    first fetch and reads it in later callbacks, on its thread and on another one. While the numpy
    array is still retained (the byte budget) it reads the first run's values; once the array is let
    go, every read throws IllegalStateException naming the value and saying to copy it; the copy the
    hook made inside the callback keeps its values."""
    from jhooks.bridge.convert import arrays

    elements = 1 << 18  # 1 MB of float32
    monkeypatch.setattr(arrays, "VIEW_BUDGET", 2 * 4 * elements)  # retains two steps' values
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.train.get_or_create_global_step()
        v = tf.compat.v1.get_variable("big0", initializer=np.full(elements, 7.0, dtype=np.float32))
        train_op = tf.compat.v1.assign_add(v, tf.ones([elements]))
        hook = jpype.JClass("org.jhooks.bridgetest.StashingHook")("big0:0")
        session = tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([JavaHook(hook)]))
    with session:
        for _ in range(6):
            session.run(train_op)
    reads = [str(r) for r in hook.reads]
    assert len(reads) == 12, reads
    ok = [r for r in reads if " ok " in r]
    failed = [r for r in reads if " ok " not in r]
    # the first run's view read in that callback and while it is retained: the first run's values
    assert ok and all(r.endswith(" ok 7.0 7.0") for r in ok), ok
    assert ok[:2] == ["1 callback ok 7.0 7.0", "1 thread ok 7.0 7.0"]
    # then released: a clear error on either thread, in every later run, never other numbers
    assert len(failed) >= 6 and failed == reads[len(ok) :], reads
    for r in failed:
        assert " java.lang.IllegalStateException: a float32 value of shape [262144] is a read-only view" in r, r
        assert "Copy it inside the callback" in r, r
    assert {r.split()[1] for r in failed} == {"callback", "thread"}
    assert float(hook.copiedFirst()) == 7.0
    with pytest.raises(jpype.JClass("java.lang.IllegalStateException"), match="Copy it inside the callback"):
        hook.stashedAt(0)


def test_python_hook_in_jvm_session_keeps_only_slices_and_reads_them_on_another_thread():
    """The other direction of the ownership rule: a Python hook's numpy view of a Java value keeps
    the Java memory alive, also through a slice of it after the view itself is gone, so the JVM
    driver never reuses memory a Python hook can still read (read here on another thread after 80
    steps of reuse past the driver's 256 MB budget)."""
    import threading

    class KeepSlices(Keep):
        def afterSessionRun(self, runContext, runValues):
            self.kept.append(runValues.results[-3:])  # the full view is dropped here

    graph = jpype.JClass("org.jhooks.bench.BigVariableGraph").build(ELEMENTS, True)
    keep = KeepSlices()
    session = jpype.JClass("org.jhooks.tf.MonitoredSession").builder(graph).hooks(java_list(as_java_hook(keep))).build()
    try:
        for _ in range(80):
            session.run("train_step")
    finally:
        session.close()
        graph.close()
    read: list = []
    reader = threading.Thread(target=lambda: read.extend(float(s[0]) for s in keep.kept))
    reader.start()
    reader.join()
    assert len(read) == 80
    for i, (first, s) in enumerate(zip(read, keep.kept)):
        assert first in (i, i + 1) and s[0] == s[1] == s[2], (i, s)
    assert read == sorted(read) and len(set(read)) == 80
