"""The two JVM start modes on the TensorFlow installed here (docs/bridge.md, "Start-up and the runtime
rule"): on the build tensorflow-java wraps (the pinned tensorflow-cpu 2.18.0) the JVM shares its
runtime; on any other TensorFlow 2.x it runs Java hooks only. CI runs these (marker ``anytf``) on
both the pinned release and another one (scripts/test-other-tf).

Each case runs in a fresh process: the mode is chosen once per JVM and a JVM cannot restart."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from jhooks.bridge.process import jvm, runtime
from jhooks.bridge.process.classpath import classpath

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TF_JAVA = runtime.tf_java_version(classpath())
BUILD = runtime.TF_JAVA_RUNTIMES[TF_JAVA]
PINNED = runtime.runtime_problem(runtime.python_tensorflow(), TF_JAVA, classpath()) is None
EXPECTED_MODE = jvm.SHARED_RUNTIME if PINNED else jvm.HOOKS_ONLY

GRAPH = """
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
import tensorflow as tf
import jpype
import jhooks
from jhooks.bridge import JavaHook
from jhooks.bridge.process import errors, jvm, runtime
from jhooks.tf import to_tf_hooks

jvm.start(extra_classpath=[sys.argv[1]])
g = tf.Graph()
with g.as_default():
    step = tf.compat.v1.train.get_or_create_global_step()
    w = tf.compat.v1.get_variable("w", initializer=2.0, use_resource=False)
    loss = tf.identity(w * w, name="loss")
    opt = tf.compat.v1.train.GradientDescentOptimizer(0.1)
    train = tf.group(opt.minimize(loss), tf.compat.v1.assign_add(step, 1), name="train")
model = jhooks.ModelInstance.of(loss="loss:0", trainOp="train", globalStep="global_step:0")

def train(hooks):
    with g.as_default():
        with tf.compat.v1.train.MonitoredTrainingSession(hooks=to_tf_hooks(hooks, model)) as s:
            while not s.should_stop():
                s.run("train")
"""


@pytest.fixture(scope="module")
def java_test_classes(jvm):
    """tests/bridge/java compiled (the conftest's ``jvm`` fixture has compiled them for this process)."""
    return os.path.join(REPO, "build", "bridge-test-classes")


def run_script(body, classes, *args, timeout=300):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = textwrap.dedent(GRAPH) + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", code, classes, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_standard_and_user_written_java_hooks_run_in_a_python_session(tmp_path, java_test_classes):
    out = run_script(
        """
        log = jpype.JClass("org.jhooks.bridgetest.RecordingHook").LOG
        losses = []

        class Losses(jhooks.ModelDependentHook):
            def beforeSessionRun(self, runContext):
                return jhooks.SessionRunArgs(self.modelInstance.loss)

            def afterSessionRun(self, runContext, runValues):
                losses.append(str(runValues.results))  # float32, printed as Java prints it

        train([
            JavaHook("org.jhooks.hooks.StopAtStepHook", None, jpype.JLong(4)),
            JavaHook("org.jhooks.hooks.StepCounterHook", jpype.JInt(1), None, sys.argv[2], None),
            JavaHook("org.jhooks.bridgetest.RecordingHook", "user", "loss:0"),
            Losses(),
        ])
        print(json.dumps({"mode": jvm.mode(), "tf": tf.__version__, "log": [str(e) for e in log],
                          "losses": losses, "events": sorted(os.listdir(sys.argv[2]))}))
        """,
        java_test_classes,
        str(tmp_path),
    )
    import tensorflow as tf

    assert out["mode"] == EXPECTED_MODE and out["tf"] == tf.__version__
    assert len(out["losses"]) == 4
    runs = [e for e in out["log"] if e.startswith("user.afterSessionRun")]
    assert runs == [f"user.afterSessionRun float32[]={loss}" for loss in out["losses"]]
    assert out["log"][0] == "user.begin" and out["log"][-1] == "user.end step=4"
    assert len(out["events"]) == 1 and out["events"][0].startswith("events.out.tfevents.")


def test_a_java_hook_that_needs_tensorflow_natives(tmp_path, java_test_classes):
    """The asynchronous saver writes with TensorFlow ops of its own: it saves on the pinned build and
    is refused when it is built, with TensorFlowRuntimeError naming it, on any other TensorFlow
    (not at its first save), which then also refuses a JVM session (start(natives=True)) and
    org.jhooks.tf classes; the process does not crash."""
    out = run_script(
        """
        result = {"mode": jvm.mode()}
        try:
            saver = JavaHook("org.jhooks.hooks.AsyncCheckpointSaverHook", sys.argv[2], None, jpype.JInt(2),
                             None, None, None, None, None)
            train([JavaHook("org.jhooks.hooks.StopAtStepHook", None, jpype.JLong(4)), saver])
        except errors.TensorFlowRuntimeError as e:
            result["hook_error"] = [type(e).__name__, str(e), e.hook, e.callback, type(e.__cause__).__name__]
        for name, call in (("session", lambda: jvm.start(natives=True)),
                           ("tf_class", lambda: JavaHook("org.jhooks.tf.MonitoredSession"))):
            try:
                call()
                result[name] = "ok"
            except Exception as e:  # on the pinned build: TypeError, the class is no hook (checked before construction)
                result[name] = [type(e).__name__, str(e)]
        result["files"] = sorted(os.listdir(sys.argv[2]))
        print(json.dumps(result))
        """,
        java_test_classes,
        str(tmp_path),
    )
    assert out["mode"] == EXPECTED_MODE
    if PINNED:
        assert "hook_error" not in out and out["session"] == "ok"
        assert out["tf_class"] == [
            "TypeError",
            "org.jhooks.tf.MonitoredSession does not implement org.jhooks.Hook; it was not constructed",
        ]
        assert {"model.ckpt-2.index", "model.ckpt-4.index", "checkpoint"} <= set(out["files"])
        return
    installed = runtime.python_tensorflow()
    reason = (
        f"Python TensorFlow {installed.version} ({installed.distribution}) is not the TensorFlow build "
        f"tensorflow-java {TF_JAVA} wraps ({BUILD.distribution} {BUILD.release}); one process can hold only one "
        "TensorFlow runtime"
    )
    fix = (
        f"Install {BUILD.distribution}=={BUILD.release} (pip install 'jhooks[tf]') to use TensorFlow from Java in "
        "this process (JVM sessions, the launcher, org.jhooks.tf, Java hooks that run TensorFlow ops such as "
        "AsyncCheckpointSaverHook); Java hooks that use no TensorFlow natives run with any TensorFlow 2.x"
    )
    hook = "org.jhooks.hooks.AsyncCheckpointSaverHook"
    assert out["hook_error"] == [
        "TensorFlowRuntimeError",
        f"{hook}.<init>: needs TensorFlow's native runtime, but this process's JVM runs Java hooks only, "
        f"without TensorFlow natives, because {reason} (JPype cannot restart a JVM). {fix}",
        hook,
        "<init>",
        "java.lang.IllegalStateException",
    ]
    assert out["session"] == [
        "TensorFlowVersionError",
        f"{reason}; this process's JVM was started for Java hooks only and JPype cannot restart it. {fix}",
    ]
    assert out["tf_class"][0] == "TensorFlowRuntimeError"
    assert out["tf_class"][1].startswith("org.jhooks.tf.MonitoredSession needs TensorFlow's native runtime")
    assert not any(f.endswith(".index") for f in out["files"])


def test_the_launcher_refuses_another_tensorflow_before_starting(tmp_path):
    if PINNED:
        pytest.skip("the pinned build runs the launcher (tests/bridge/test_launcher.py)")
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, "-m", "jhooks", "java", "org.jhooks.examples.TrainLinearModel", "--", str(tmp_path), "3"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    installed = runtime.python_tensorflow()
    assert done.returncode == 2, done.stderr[-3000:]
    assert done.stderr.startswith(
        f"python -m jhooks java: Python TensorFlow {installed.version} ({installed.distribution}) is not the "
        f"TensorFlow build tensorflow-java {TF_JAVA} wraps"
    ), done.stderr[-3000:]
    assert os.listdir(tmp_path) == []
