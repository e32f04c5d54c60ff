"""Values shared instead of copied across the bridge (docs/bridge.md, "Arrays and ownership"):
a Python hook in the JVM session reads large fetches as read-only numpy views it may keep; a Java
hook in a Python session reads numpy results as read-only NdArray views."""

import jpype
import numpy as np
import pytest
import tensorflow as tf

import jhooks
from jhooks.bridge import as_java_hook
from jhooks.bridge.java_hooks import JavaHook
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
