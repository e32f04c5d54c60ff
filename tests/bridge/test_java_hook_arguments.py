"""Building Java hooks from plain Python values (jhooks.bridge.hooks.construct, docs/bridge.md "Building Java
hooks from Python"): ints, floats, bools, strings, None, lists, tuples, dicts and numpy arrays
converted to the chosen constructor's or builder's parameter types, keyword arguments by Java
parameter name (and TensorFlow's snake_case spelling), and errors naming the class, the candidates
and the values. The hooks are real Java classes in a real JVM; a built hook runs in a real
TensorFlow session."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import jhooks
from jhooks.bridge import JavaHook
from jhooks.bridge.hooks.construct import JavaArgumentsError, snake_to_camel
from jhooks.tf import to_tf_hooks

# Pure reflection and Java hooks that need no TensorFlow natives: any TensorFlow 2.x (marker anytf);
# the two tests building a CheckpointSaverHook stay on the pinned TensorFlow.
anytf = pytest.mark.anytf

ARGS = "org.jhooks.bridgetest.ArgsHook"
STOP = "org.jhooks.hooks.StopAtStepHook"


def got(hook):
    return [str(s) for s in hook.java.got]


@anytf
def test_positional_values_pick_the_constructor_by_their_python_types():
    assert got(JavaHook(ARGS, 5, 0.5, True)) == ["long,Double,boolean", "Long:5", "Double:0.5", "Boolean:true"]
    assert got(JavaHook(ARGS, 7, "seven")) == ["int,String", "Integer:7", "String:seven"]
    # numpy scalars are Python numbers here too
    assert got(JavaHook(ARGS, np.int64(5), np.float32(0.25), np.bool_(False))) == [
        "long,Double,boolean",
        "Long:5",
        "Double:0.25",
        "Boolean:false",
    ]


@anytf
def test_keyword_arguments_by_java_parameter_name_and_unnamed_ones_null_or_false():
    assert got(JavaHook(ARGS, rate=2.0, steps=3)) == ["long,Double,boolean", "Long:3", "Double:2.0", "Boolean:false"]
    assert got(JavaHook(ARGS, steps=[1, 2], weights={"a": 1, "b": 0.5})) == [
        "List<Long>,Map<String,Double>",
        "ArrayList:[1, 2]",
        "LinkedHashMap:{a=1.0, b=0.5}",
    ]
    assert got(JavaHook(ARGS, weights={"a": 1.5})) == ["List<Long>,Map<String,Double>", "null", "LinkedHashMap:{a=1.5}"]


@anytf
def test_paths_arrays_and_varargs():
    assert got(JavaHook(ARGS, "/tmp/x", (2, 3), "a", "b")) == [
        "Path,long[],String...",
        "UnixPath:/tmp/x",
        "long[][2, 3]",
        "String[][a, b]",
    ]
    assert got(JavaHook(ARGS, "/tmp/x", [4])) == ["Path,long[],String...", "UnixPath:/tmp/x", "long[][4]", "String[][]"]
    assert got(JavaHook(ARGS, dir="/d", shape=np.array([5, 6]), tags=["t"])) == [
        "Path,long[],String...",
        "UnixPath:/d",
        "long[][5, 6]",
        "String[][t]",
    ]


@anytf
def test_a_numpy_array_becomes_an_ndarray_with_its_dtype_and_shape():
    hook = JavaHook(ARGS, np.arange(6, dtype=np.float32).reshape(2, 3))
    assert got(hook) == ["NdArray", "Shape:[2, 3]", "String:FloatDenseNdArray"]
    hook = JavaHook(ARGS, array=np.arange(6, dtype=np.int64).reshape(3, 2))
    assert got(hook) == ["NdArray", "Shape:[3, 2]", "String:LongDenseNdArray"]


@anytf
def test_a_python_hook_becomes_its_java_wrapper():
    class Py(jhooks.Hook):
        pass

    assert got(JavaHook(ARGS, other=Py()))[0] == "Hook"


@anytf
def test_a_builder_takes_the_keywords_no_constructor_has():
    assert got(JavaHook(ARGS, "n", everyN=5, label="x")) == ["builder", "String:n", "Integer:5", "String:x"]
    assert got(JavaHook(ARGS, "n", every_n=2)) == ["builder", "String:n", "Integer:2", "String:"]


def test_standard_hooks_with_tensorflow_snake_case_names():
    assert snake_to_camel("every_n_iter") == "everyNIter"
    assert int(JavaHook(STOP, last_step=10).java.lastStep()) == 10
    assert int(JavaHook(STOP, lastStep=12).java.lastStep()) == 12
    saver = JavaHook("org.jhooks.hooks.CheckpointSaverHook", "ckpt", save_steps=100, max_to_keep=3)
    assert saver.javaClassName == "org.jhooks.hooks.CheckpointSaverHook"
    with pytest.raises(JavaArgumentsError, match="'last_step' and 'lastStep' name the same parameter 'lastStep'"):
        JavaHook(STOP, last_step=10, lastStep=10)


@anytf
def test_no_fitting_constructor_names_class_candidates_and_values():
    with pytest.raises(JavaArgumentsError) as e:
        JavaHook(STOP, lastStep="ten")
    message = str(e.value)
    assert message.startswith("cannot build org.jhooks.hooks.StopAtStepHook from (lastStep='ten')")
    assert "StopAtStepHook(Long numSteps, Long lastStep): lastStep: a str for java.lang.Long" in message
    with pytest.raises(JavaArgumentsError) as e:
        JavaHook(ARGS, 2**40, "x")
    assert "ArgsHook(int small, String name): small: 1099511627776 is out of the Java int range" in str(e.value)
    assert "ArgsHook(long steps, Double rate, boolean flag): rate: a str for java.lang.Double" in str(e.value)
    with pytest.raises(JavaArgumentsError, match="no parameter named 'nope'"):
        JavaHook(STOP, nope=1)


@anytf
def test_two_equally_good_constructors_are_an_error_naming_both():
    with pytest.raises(JavaArgumentsError) as e:
        JavaHook(ARGS, None)
    message = str(e.value)
    assert "cannot build org.jhooks.bridgetest.ArgsHook from (None)" in message
    assert "ArgsHook(Hook other)" in message and "ArgsHook(Number number)" in message
    assert "equally well" in message


def test_python_listeners_in_a_list_become_java_listeners():
    class Listener(jhooks.CheckpointSaverListener):
        pass

    saver = JavaHook("org.jhooks.hooks.CheckpointSaverHook", "ckpt", saveSteps=1, listeners=[Listener()])
    assert saver.javaClassName == "org.jhooks.hooks.CheckpointSaverHook"
    with pytest.raises(JavaArgumentsError, match="listeners: an int for org.jhooks.CheckpointSaverListener"):
        JavaHook("org.jhooks.hooks.CheckpointSaverHook", "ckpt", saveSteps=1, listeners=[1])


@anytf
def test_hooks_built_from_plain_values_run_in_a_python_session():
    g = tf.Graph()
    with g.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        read = tf.identity(step, name="step_read")
        with tf.control_dependencies([read]):
            train = tf.compat.v1.assign_add(step, 1, name="train")
        hooks = [
            JavaHook(STOP, last_step=7),
            JavaHook("org.jhooks.hooks.LoggingTensorHook", {"step": "step_read:0"}, every_n_iter=3),
        ]
        runs = 0
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks(hooks)) as sess:
            while not sess.should_stop():
                sess.run(train)
                runs += 1
        assert runs == 7
        lines = [str(line) for line in hooks[1].java.loggedLines()]
        assert [line.split(" (")[0] for line in lines] == ["step = 0", "step = 3", "step = 6"]


@anytf
def test_a_class_not_on_the_classpath_names_the_classpath_searched():
    from jhooks.bridge.process.classpath import classpath
    from jhooks.bridge.process.errors import JavaClassNotFoundError

    with pytest.raises(JavaClassNotFoundError) as e:
        JavaHook("com.example.LossAlarm", 0.5)
    message = str(e.value)
    assert message.startswith(
        f"Java class com.example.LossAlarm not found on the classpath searched ({len(classpath())} jhooks jars, "
        "listed by python -m jhooks info; "
    )
    assert "bridge-test-classes" in message  # a directory added after start-up, by path
    assert classpath()[0] not in message and len(message) < 600  # not every jar: they were 1,000 characters
    assert message.endswith("jhooks.bridge.process.jvm.start(extra_classpath=[...]) in Python")
