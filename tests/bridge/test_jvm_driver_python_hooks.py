"""Python hooks in the JVM MonitoredSession (org.jhooks.tf), alone and mixed with Java hooks."""

import jpype
import numpy as np
import pytest

import jhooks
from jhooks.bridge import as_java_hook, as_java_listener
from jhooks.bridge.process.calls import call_java


def JvmDriver():
    return jpype.JClass("org.jhooks.bridgetest.JvmDriver")


def java_list(*items):
    out = jpype.JClass("java.util.ArrayList")()
    for i in items:
        out.add(i)
    return out


class PyRecorder(jhooks.Hook):
    """Logs into the Java hooks' log; optionally fetches, feeds and stops at a run."""

    def __init__(self, name, log, fetches=None, feeds=None, stop_at=None):
        self.name, self.log, self.fetches, self.feeds, self.stop_at = name, log, fetches, feeds, stop_at
        self.runs = 0

    def beginSession(self):
        self.log.add(f"{self.name}.beginSession")

    def afterCreateSession(self, session, coord):
        step = session.run(session.globalStepTensorName())
        self.log.add(f"{self.name}.afterCreateSession step={step!r}")

    def beforeSessionRun(self, runContext):
        args = runContext.originalArgs
        self.log.add(f"{self.name}.beforeSessionRun caller={args.fetches} x={args.feeds['x:0']!r}")
        if self.fetches is None and self.feeds is None:
            return None
        return jhooks.SessionRunArgs(self.fetches, self.feeds)

    def afterSessionRun(self, runContext, runValues):
        self.runs += 1
        self.log.add(f"{self.name}.afterSessionRun {runValues.results!r}")
        if self.runs == self.stop_at:
            runContext.requestStop()
            assert runContext.stopRequested

    def end(self, session):
        self.log.add(f"{self.name}.end step={session.globalStep()}")


def f32(v):
    return np.array(v, dtype=np.float32)


def test_python_and_java_hooks_interleave_in_the_jvm_driver(java_log):
    log = java_log
    hooks = java_list(
        as_java_hook(PyRecorder("P1", log, fetches=("double:0",))),
        jpype.JClass("org.jhooks.bridgetest.RecordingHook")("J1", "y_times_3:0"),
        as_java_hook(PyRecorder("P2", log, fetches={"d": "double:0", "t": "bump"}, feeds={"y:0": f32(5.0)}, stop_at=2)),
    )
    runs = call_java(JvmDriver().run, hooks, 5, None)
    assert runs == 2

    def run(i):
        x = f32(i + 1)
        return [
            f"P1.beforeSessionRun caller=['train_step'] x={x!r}",
            "J1.beforeSessionRun caller=[train_step]",
            f"P2.beforeSessionRun caller=['train_step'] x={x!r}",
            f"P1.afterSessionRun {(f32(2 * (i + 1)),)!r}",
            "J1.afterSessionRun float32[]=15.0",
            f"P2.afterSessionRun { ({'d': f32(2 * (i + 1)), 't': None})!r}",
        ]

    assert list(map(str, log)) == [
        "P1.beginSession",
        "J1.begin",
        "P2.beginSession",
        f"P1.afterCreateSession step={np.array(0, np.int64)!r}",
        "J1.afterCreateSession step=0",
        f"P2.afterCreateSession step={np.array(0, np.int64)!r}",
        *run(0),
        *run(1),
        "P1.end step=2",
        "J1.end step=2",
        "P2.end step=2",
    ]


def test_a_python_hook_error_stops_the_jvm_driver_and_comes_back_as_itself(java_log):
    class Failing(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            raise FloatingPointError("loss is NaN at run 1")

    recorder = PyRecorder("P", java_log)
    with pytest.raises(FloatingPointError, match="loss is NaN at run 1") as e:
        call_java(JvmDriver().run, java_list(as_java_hook(recorder), as_java_hook(Failing())), 5, None)
    # end() is not called after an error; the note names the hook as the JVM driver saw it
    assert [str(s) for s in java_log][-1].startswith("P.afterSessionRun")
    notes = "\n".join(e.value.__notes__)
    failing = f"{Failing.__module__}.{Failing.__qualname__}"
    assert f"hook #2 ({failing}, Python).afterSessionRun: raised org.jhooks.bridge.PythonException" in notes
    assert "at <python>.test_jvm_driver_python_hooks.afterSessionRun(" in notes


def test_after_an_error_the_jvm_driver_closes_python_hooks_that_have_close(java_log):
    # end() is not called after an error; close() (a saver hook's wait for its write in flight) is
    class Failing(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            raise FloatingPointError("loss is NaN at run 1")

    class Closing(jhooks.Hook):
        closed = 0

        def close(self):
            Closing.closed += 1
            raise OSError("background write failed")

    with pytest.raises(FloatingPointError) as e:
        call_java(JvmDriver().run, java_list(as_java_hook(Failing()), as_java_hook(Closing())), 5, None)
    assert Closing.closed == 1
    notes = "\n".join(e.value.__notes__)
    assert "background write failed" in notes, notes


def test_a_python_model_dependent_hook_gets_the_model(java_log):
    class LossLogger(jhooks.ModelDependentHook):
        def beforeSessionRun(self, runContext):
            return jhooks.SessionRunArgs([self.modelInstance.loss])

        def afterSessionRun(self, runContext, runValues):
            java_log.add(f"model {self.modelInstance.loss} {runValues.results!r}")

    model = jpype.JClass("org.jhooks.ModelInstance").of("double:0", "train_step", "global_step:0")
    hook = LossLogger()
    call_java(JvmDriver().run, java_list(as_java_hook(hook)), 1, model)
    assert hook.modelInstance.endpoints == {"loss": "double:0", "trainOp": "train_step", "globalStep": "global_step:0"}
    assert list(map(str, java_log)) == [f"model double:0 {[f32(2.0)]!r}"]


def test_a_python_checkpoint_listener_in_the_jvm_training_session(tmp_path, java_log):
    class Listener(jhooks.CheckpointSaverListener):
        def __init__(self):
            self.calls = []

        def begin(self):
            self.calls.append("begin")

        def beforeSave(self, session, globalStep):
            self.calls.append(("beforeSave", globalStep, int(session.run("global_step:0"))))

        def afterSave(self, session, globalStep):
            self.calls.append(("afterSave", globalStep, sorted(p.name for p in tmp_path.iterdir())[:1]))
            return False

        def end(self, session, globalStep):
            self.calls.append(("end", globalStep))

    listener = Listener()
    path = jpype.JClass("java.nio.file.Path").of(str(tmp_path), jpype.JArray(jpype.JString)(0))
    step = call_java(JvmDriver().train, path, java_list(), java_list(as_java_listener(listener)), 4, 2)
    assert int(step) == 4
    assert listener.calls == [
        "begin",
        ("beforeSave", 0, 0),
        ("afterSave", 0, ["checkpoint"]),
        ("beforeSave", 2, 2),
        ("afterSave", 2, ["checkpoint"]),
        ("beforeSave", 4, 4),
        ("afterSave", 4, ["checkpoint"]),
        ("end", 4),
    ]


def test_a_python_hook_gets_float16_and_bfloat16_from_the_jvm_driver():
    import ml_dtypes

    seen = []

    class HalfReader(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            return jhooks.SessionRunArgs({"half": "x_half:0", "bf16": "x_bfloat16:0"})

        def afterSessionRun(self, runContext, runValues):
            seen.append(sorted((k, v.dtype.name, float(v)) for k, v in runValues.results.items()))

    call_java(JvmDriver().run, java_list(as_java_hook(HalfReader())), 1, None)
    assert seen == [[("bf16", "bfloat16", 1.0), ("half", "float16", 1.0)]]
    assert np.dtype("bfloat16") == np.dtype(ml_dtypes.bfloat16)


def test_python_hooks_after_the_first_of_a_run_get_a_small_value_packed_as_the_others_get_it(java_log):
    seen = []

    class Reader(jhooks.Hook):
        def __init__(self, name, fetches):
            self.name, self.fetches = name, fetches

        def beforeSessionRun(self, runContext):
            return jhooks.SessionRunArgs(self.fetches)

        def afterSessionRun(self, runContext, runValues):
            r = runValues.results
            value = r[0] if isinstance(r, tuple) else r
            seen.append(
                (self.name, type(r).__name__, value.dtype.name, value.shape, float(value), value.flags.writeable)
            )

    # the first hook's values cross unpacked (the run context's id with them), B and C's packed,
    # D's (a tuple of one name: a Java list) unpacked
    hooks = [Reader("A", "double:0"), Reader("B", "double:0"), Reader("C", "y_times_3:0"), Reader("D", ("double:0",))]
    call_java(JvmDriver().run, java_list(*(as_java_hook(h) for h in hooks)), 2, None)
    assert seen == [
        (name, kind, "float32", (), value, False)
        for x in (1.0, 2.0)
        for name, kind, value in (
            ("A", "ndarray", 2 * x),
            ("B", "ndarray", 2 * x),
            ("C", "ndarray", 0.0),
            ("D", "tuple", 2 * x),
        )
    ]
