"""Trains with one checkpoint saver under a file size limit (RLIMIT_FSIZE); run as a subprocess.

``python fsize_trainer.py DIRECTION KIND CKPT [WHAT]``: DIRECTION as in test_checkpoint_safety.py.
The model holds a 1 MiB variable; the limit (512 KiB) is set after start-up, with SIGXFSZ ignored.
WHAT ``save`` (the default): the variable starts from a Fill op, so ``graph.pbtxt`` and the event
file (~150 KB each) fit and the checkpoint write fails with EFBIG, which TensorFlow reports as
OUT_OF_RANGE. WHAT ``graph``: the variable starts from a constant of 1 MiB in the graph, so the
write of ``graph.pbtxt`` (before the first save, as TF's hook) fails first. Prints ``END runs=N``
if training ended normally (the bug: a failed save taken as end of input), else
``ERROR <class> <globalStep> <prefix>`` and the message, and exits 3.
"""

from __future__ import annotations

import os
import resource
import signal
import sys

import jpype

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hooks_support import Model, in_graph, train  # noqa: E402
from test_checkpoint_safety import make_saver  # noqa: E402

from jhooks.bridge import JavaHook, as_java_hook  # noqa: E402
from jhooks.bridge.process import jvm as jvm_module  # noqa: E402
from jhooks.bridge.process.calls import call_java  # noqa: E402

SIZE = 1 << 18  # float32: 1 MiB
LIMIT = 1 << 19


def jvm_graph(what):
    graph = jpype.JClass("org.tensorflow.Graph")()
    ops = jpype.JClass("org.tensorflow.op.Ops").create(graph)
    TFloat32 = jpype.JClass("org.tensorflow.types.TFloat32")
    shape = ops.constant(jpype.JArray(jpype.JLong)([SIZE]))
    if what == "graph":  # a constant of SIZE floats in the GraphDef
        initial = ops.constant(jpype.JArray(jpype.JFloat)(SIZE))
    else:
        initial = ops.fill(shape, ops.constant(jpype.JFloat(1.0)))
    big = ops.withName("big").variable(initial)
    update = ops.withName("big_update").assignAdd(big, ops.zeros(shape, TFloat32))
    jpype.JClass("org.jhooks.tf.GlobalStep").create(ops, update)
    return graph


def main(direction: str, kind: str, ckpt: str, what: str = "save") -> int:
    driver, _, language, _ = direction.split("-")
    jvm_module.start()
    hook = make_saver(language, kind, ckpt, saveSteps=1)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
    try:
        if driver == "python":
            _, m = in_graph(lambda: Model(size=SIZE, bigFromFill=what == "save"))
            with m.gs.graph.as_default():
                out = train([JavaHook(hook) if language == "java" else hook], m, 3)
            runs = out["runs"]
        else:
            hooks = jpype.JClass("java.util.ArrayList")()
            hooks.add(hook if language == "java" else as_java_hook(hook))
            session = call_java(
                jpype.JClass("org.jhooks.tf.MonitoredSession").builder(jvm_graph(what)).hooks(hooks).build
            )
            try:
                runs = 0
                while runs < 3 and not session.shouldStop():
                    call_java(session.run, "big_update")
                    runs += 1
            finally:
                call_java(session.close)
    except Exception as e:  # noqa: BLE001 - the outcome is printed for the test to check
        print(f"ERROR {type(e).__name__} {getattr(e, 'globalStep', None)} {getattr(e, 'prefix', None)}")
        print(str(e))
        return 3
    print(f"END runs={runs}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
