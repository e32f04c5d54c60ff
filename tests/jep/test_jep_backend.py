"""The jep backend: Python hooks loaded by spec (``PythonHooks.load``) in a JVM started by plain
``java``, with the promises of the JPype path (docs/bridge.md, "Backends")."""

import json
import os
import re

import pytest

CHECKS = "org.jhooks.jeptest.JepChecks"


def lines(done, prefix):
    return [line[len(prefix) + 1 :] for line in done.stdout.splitlines() if line.startswith(prefix + " ")]


def java_said(done):
    return dict(line.split("=", 1) for line in lines(done, "JAVA"))


def python_said(done):
    out = {}
    for line in lines(done, "PY"):
        out.update(json.loads(line))
    return out


def test_jvm_options_name_the_jar_next_to_its_native_library_and_the_runtime_flags(jep_jar, runtime_options):
    assert re.search(r"/jep/jep-4\.3\.\d+\.jar$", jep_jar)
    assert os.path.exists(os.path.join(os.path.dirname(jep_jar), "libjep.so"))
    keys = [o.split("=", 1)[0] for o in runtime_options]
    assert keys == [
        "-Dorg.bytedeco.javacpp.pathsFirst",
        "-Dorg.bytedeco.javacpp.platform.linkpath",
        "-Dorg.bytedeco.javacpp.cachedir",
    ]


def test_hooks_and_listeners_loaded_by_spec_are_callable_from_any_java_thread(run_java):
    done = run_java(CHECKS, "threads")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert java_said(done) == {"commandLine": "0", "stops": "[false, false, true]", "concurrent": "2000"}
    said = python_said(done)
    assert said["calls"] == 10  # main, one new thread, 8 calls on 4 pool threads
    assert said["threads"] >= 3
    assert said["afterCalls"] == 2000  # 8 Java threads x 250 concurrent calls, none lost
    # a listener on a writer thread: its steps as Python ints, its stop request back as a Java boolean
    assert (said["saves"], said["saveThreads"], said["endStep"]) == ([10, 20, 30], 1, 30)
    # Python -> Java -> Python on another Java thread while the first waits: no deadlock
    assert (said["nestedStop"], said["nestedSaves"]) == (True, [40])


def test_exceptions_keep_type_message_traceback_cause_and_twins(run_java):
    done = run_java(CHECKS, "errors")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    java = java_said(done)
    assert java["begin.chain"] == (
        "org.jhooks.bridge.PythonException(jep_hooks.BadValue)"
        " <- org.jhooks.bridge.PythonException(builtins.LookupError)"
    )
    assert java["begin.message"] == "jep_hooks.BadValue: bad value 42"
    assert java["begin.tracebackNamesHook"] == "true"
    assert java["begin.top"] == "<python>.jep_hooks.beginSession"  # Python frames first, jep's hidden
    # a jhooks.HookError is the Java twin HookException, the PythonException carrying it as cause
    assert (
        java["end.chain"]
        == "org.jhooks.HookException <- org.jhooks.bridge.PythonException(jhooks.api.errors.HookError)"
    )
    assert "refused at the end" in java["end.message"]
    # a Java exception Python re-raises reaches Java as the same object
    assert java["onError.same"] == "true"
    assert python_said(done)["onError"] == "java.lang.IllegalStateException: from Java"
    # a built-in TypeError is Java's standard IllegalArgumentException, caused by its carrier
    assert java["before.chain"] == (
        "java.lang.IllegalArgumentException <- org.jhooks.bridge.PythonException(builtins.TypeError)"
    )
    assert "expected jhooks.SessionRunArgs or None" in java["before.message"]
    assert "LauncherError" in java["load.chain"] and "no_such_module_here" in java["load.message"]
    assert java["alive"] == "true"


def test_values_keep_dtype_shape_and_numbers_and_large_results_are_views(run_java):
    done = run_java(CHECKS, "values")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert java_said(done)["bigDirect"] == "true"
    said = python_said(done)
    assert said["dtypes"] == {
        "f32": "float32",
        "f64": "float64",
        "i32": "int32",
        "i64": "int64",
        "b": "bool",
        "s": "object",
        "big": "float32",
    }
    assert said["shapes"] == {"f32": [2], "f64": [], "i32": [1, 2], "i64": [1], "b": [2], "s": [2], "big": [512, 1024]}
    assert said["values"] == {
        "f32": [1.5, -2.25],
        "f64": 0.1,
        "i32": [[-7, 2147483647]],
        "i64": [9007199254740993],
        "b": [True, False],
        "s": ["héllo", ""],
    }
    # a read-only view of the JVM driver's direct memory: Java's later write shows through
    assert said["bigView"] is True and said["bigFirst"] == 3.5 and said["bigFirstLater"] == -1.0


def test_every_dtype_crosses_both_ways_with_its_bytes(run_java):
    import jep_hooks  # pytest puts tests/jep on sys.path: the same arrays, made here

    done = run_java(CHECKS, "dtypes")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    java = java_said(done)
    sent = jep_hooks.every_dtype()
    for name, array in sent.items():
        dtype, rest = java[f"feed.{name}"].split(" ", 1)
        shape, data = rest.rsplit(" ", 1)
        assert (dtype, shape) == (name, str(list(array.shape))), name
        if name == "string":
            assert data == "".join(bytes(v).hex() + "," for v in array.tolist())
        else:
            assert data == array.tobytes().hex(), name
    assert python_said(done)["sameBack"] == {name: True for name in sent}


def test_python_objects_are_released_when_the_jvm_collects_their_proxies(run_java):
    done = run_java(CHECKS, "release")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    java = java_said(done)
    assert int(java["loaded"]) == 300  # one registered object per hook (its PythonHookTarget)
    assert int(java["left"]) <= 10


def test_a_jvm_without_the_runtime_options_is_refused_naming_the_exact_flags(run_java, runtime_options):
    done = run_java(CHECKS, "threads", options=[])
    assert done.returncode != 0
    assert "JvmError" in done.stderr
    for flag in runtime_options[:2]:
        assert flag in done.stderr
    assert "SIGSEGV" not in done.stderr and "hs_err" not in done.stdout + done.stderr


def test_without_jep_on_the_classpath_the_error_says_how_to_get_it(run_java):
    done = run_java(CHECKS, "no-python", jep=False)
    assert done.returncode == 1
    assert "JAVA available=false" in done.stdout
    assert "IllegalStateException" in done.stderr and "jvm-options --jep-jar" in done.stderr


def test_exit_is_bounded_with_a_python_callback_stuck_on_a_java_thread(run_java):
    done = run_java(CHECKS, "stuck-exit", timeout=120)
    assert done.returncode == 3, done.stdout[-3000:] + done.stderr[-3000:]
    assert "JAVA exiting" in done.stdout


def test_main_returning_with_a_python_callback_stuck_on_a_daemon_thread_exits_0(run_java):
    done = run_java(CHECKS, "stuck-return", timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "JAVA returning" in done.stdout


STUCK_SHAPES = [
    pytest.param(["jep_hooks:Sleeper"], id="idle-on-a-java-thread"),
    pytest.param(["jep_hooks:TfSleeper"], id="tensorflow-idle-on-a-java-thread"),
    pytest.param(["jep_hooks:TfSleeper", "main"], id="tensorflow-idle-on-main"),
    pytest.param(["jep_hooks:TfSpinner"], id="tensorflow-busy-on-a-java-thread"),
    pytest.param(["jep_hooks:TfSpinner", "main"], id="tensorflow-busy-on-main"),
    pytest.param(["jep_hooks:TfJavaWaiter", "main"], id="tensorflow-in-a-java-call-on-main"),
]


@pytest.mark.parametrize("shape", STUCK_SHAPES)
def test_sigterm_ends_the_jvm_with_143_while_a_python_callback_is_stuck(run_java, sigterm_when, shape):
    """Python idle, busy (the GIL held) or inside a Java call, with or without TensorFlow (and h5py)
    imported, on the main thread or another Java thread."""

    def sleeping(line):
        return line.startswith("PY ") and json.loads(line[3:]).get("sleeping")

    done = sigterm_when(
        run_java.command(CHECKS, "stuck-signal", *shape),
        sleeping,
        env=run_java.environment(),
        cwd=os.path.dirname(os.path.abspath(__file__)),
    )
    said = json.loads(done.before[-1][3:]) if done.before and sleeping(done.before[-1]) else {}
    assert said.get("h5py", "Tf" not in shape[0]), said  # the shape holds what it names
    assert done.status == 143, done.err[-3000:]
    assert "SIGSEGV" not in done.err and "hs_err" not in done.err


def test_conformance_jvm_driver_with_python_and_mixed_hooks_passes_on_jep(run_java):
    done = run_java("org.jhooks.conformance.EmbeddedConformance", "jvm-driver-python-hooks", "jvm-driver-mixed-hooks")
    outcomes = re.findall(r"^(passed|failed|xfailed|skipped) (\S+)$", done.stdout, re.M)
    failed = [case for outcome, case in outcomes if outcome == "failed"]
    assert not failed and done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    from jhooks.conformance import combos, runner

    jvm_cases = [
        runner.case_id(n, c.id)
        for n, c in runner.all_cases([combos.parse("jvm-driver-python-hooks"), combos.parse("jvm-driver-mixed-hooks")])
    ]
    assert sorted(case for _, case in outcomes) == sorted(jvm_cases)
