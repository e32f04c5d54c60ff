"""Arrays exact in every dtype the bridge claims (docs/bridge.md, "Arrays"), in every direction, and
numeric conversions that follow numpy's ``astype``, with numpy itself as the oracle."""

from __future__ import annotations

import warnings

import jpype
import ml_dtypes
import numpy as np
import pytest
import tensorflow as tf
from test_bad_inputs import J, java_list

import jhooks
from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.convert import values
from jhooks.bridge.convert.arrays import to_java, to_numpy
from jhooks.bridge.process.calls import call_java
from jhooks.tf import to_tf_hooks

NUMERIC = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16"]
DIRECTIONS = ["python-driver-python-hook", "python-driver-java-hook", "jvm-driver-java-hook", "jvm-driver-python-hook"]


def dt(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def edge_values(name):
    """Edge values of a dtype: its limits, 0, ±1, and for floats ±0.0, ±inf, halves, tiny ones."""
    d = dt(name)
    if d.kind in "iu":
        info = np.iinfo(d)
        picks = {int(info.min), int(info.min) + 1, 0, 1, 127, int(info.max) - 1, int(info.max)}
        if info.min < 0:
            picks.add(-1)
        return np.array(sorted(v for v in picks if info.min <= v <= info.max), dtype=d)
    if name == "bool":
        return np.array([True, False])
    return np.array([0.0, -0.0, 1.5, -2.5, 0.1, np.inf, -np.inf, 3.0e4, 1e-5], dtype=np.float64).astype(d)


ROUND_TRIP = {name: edge_values(name) for name in [*NUMERIC, "bool"]}
ROUND_TRIP["string"] = np.array([b"a\x00b", b"\xff\xfe", b""], dtype=object)


class PyFeedFetch(jhooks.Hook):
    """Returns ``args[n]`` in run n and keeps each run's results (the Python twin of FeedFetchHook)."""

    def __init__(self, args):
        self.args = args
        self.results = []

    def beforeSessionRun(self, runContext):
        return self.args[len(self.results)]

    def afterSessionRun(self, runContext, runValues):
        self.results.append(runValues.results)


def python_graph():
    """The graph of org.jhooks.bridgetest.DTypeGraph in TensorFlow (same names)."""
    g = tf.Graph()
    with g.as_default():
        for name in ROUND_TRIP:
            tf_dtype = tf.string if name == "string" else tf.as_dtype(dt(name))
            tf.identity(tf.compat.v1.placeholder(tf_dtype, name=f"p_{name}"), name=f"id_{name}")
        tf.no_op(name="noop")
    return g


def drive(direction, args):
    """Runs ``args`` (jhooks SessionRunArgs, one per run) through a hook of ``direction``; the
    results of every run, as numpy."""
    if direction.endswith("python-hook"):
        hook = PyFeedFetch(args)
        driver_hook = hook if direction.startswith("python") else as_java_hook(hook)
    else:
        java_args = jpype.JClass("java.util.ArrayList")()
        for a in args:
            java_args.add(values.run_args_to_java(a))
        java = J("DTypeGraph$FeedFetchHook")(java_args)
        driver_hook = JavaHook(java) if direction.startswith("python") else java
    if direction.startswith("python"):
        with python_graph().as_default():
            with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([driver_hook])) as s:
                for _ in args:
                    s.run("noop")
    else:
        call_java(J("DTypeGraph").run, java_list(driver_hook), len(args))
    if direction.endswith("python-hook"):
        return hook.results
    return [values.results_to_python(r, a.fetches) for r, a in zip(java.results, args)]


def same(got, want):
    """Same dtype, shape and exact values (floats bit for bit, every NaN equal)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind == "f" or want.dtype == dt("bfloat16"):
        nan = np.isnan(want.astype(np.float64))
        bits = got.view(f"u{got.itemsize}") == want.view(f"u{want.itemsize}")
        return bool(np.all(np.where(nan, np.isnan(got.astype(np.float64)), bits)))
    return bool(np.array_equal(got, want))


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_every_dtype_feeds_and_fetches_exactly(direction):
    args = jhooks.SessionRunArgs(
        {name: f"id_{name}:0" for name in ROUND_TRIP}, {f"p_{name}:0": v for name, v in ROUND_TRIP.items()}
    )
    (results,) = drive(direction, [args])
    for name, want in ROUND_TRIP.items():
        assert same(results[name], want), f"{name}: fed {want!r}, fetched {results[name]!r}"


# numpy casts every source to the target; the drivers' feeds must give the same (docs/contract.md)
CAST_PAIRS = [(s, t) for s in NUMERIC for t in NUMERIC if s != t]


def numpy_cast(values_, target):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # invalid casts: numpy's x86-64 result is the oracle
        return values_.astype(dt(target))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy warns about invalid casts; its results are the oracle
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_feed_of_another_numeric_dtype_is_cast_as_numpy_does(direction):
    args = [
        jhooks.SessionRunArgs(f"id_{target}:0", {f"p_{target}:0": edge_values(source)}) for source, target in CAST_PAIRS
    ]
    results = drive(direction, args)
    wrong = [
        f"{source}->{target}: fed {edge_values(source).tolist()}, got {np.asarray(got).tolist()}, "
        f"numpy {numpy_cast(edge_values(source), target).tolist()}"
        for (source, target), got in zip(CAST_PAIRS, results)
        if not same(got, numpy_cast(edge_values(source), target))
    ]
    assert not wrong, "\n".join(wrong)


def test_an_unsigned_value_never_comes_out_negative_in_the_jvm_driver():
    # on main a uint8 255 fed to a float32 tensor came out -1.0 (the byte reinterpreted as signed)
    args = [jhooks.SessionRunArgs("id_float32:0", {"p_float32:0": np.array([255, 128], np.uint8)})]
    (got,) = drive("jvm-driver-python-hook", args)
    assert got.tolist() == [255.0, 128.0]


@pytest.mark.parametrize("direction", ["jvm-driver-java-hook", "jvm-driver-python-hook"])
@pytest.mark.parametrize("tensor,dtype", [("as_uint32:0", "DT_UINT32"), ("as_complex64:0", "DT_COMPLEX64")])
def test_a_dtype_jhooks_does_not_move_is_refused_naming_hook_tensor_and_dtype(direction, tensor, dtype):
    args = [jhooks.SessionRunArgs(tensor, {"p_float32:0": np.float32(1)})]
    if direction.endswith("python-hook"):
        hook = as_java_hook(PyFeedFetch(args))
    else:
        java_args = jpype.JClass("java.util.ArrayList")()
        java_args.add(values.run_args_to_java(args[0]))
        hook = J("DTypeGraph$FeedFetchHook")(java_args)
    thrown = J("DTypeGraph").runCatching(java_list(hook), 1)
    assert isinstance(thrown, jpype.JClass("org.jhooks.HookException")), thrown
    message = str(thrown.getMessage())
    assert "FeedFetch" in message and ".beforeSessionRun" in message and tensor in message and dtype in message
    with pytest.raises(jhooks.HookError, match=dtype):
        call_java(J("DTypeGraph").run, java_list(hook), 1)


# --- the conversion table itself, against numpy, over a grid of values ---------------------------

GRID_INTS = [
    0, 1, -1, 2, 7, 100, 127, 128, -128, -129, 255, 256, -255, 1000, 32767, 32768, -32768, -32769, 65535, 65536,
    2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32 - 1, 2**53 + 1, 2**62 + 3, 2**63 - 1, -(2**63),
]  # fmt: skip
GRID_FLOATS = [
    0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, 0.1, 1 / 3, 255.5, 127.9, -128.9, 300.7, -300.7, 65504.0, 65519.9, 65520.0,
    1e10, -1e10, 3e9, -3e9, 2.0**31, 2.0**31 - 0.5, -(2.0**31) - 0.5, 2.0**63, -(2.0**63), 2.0**64, 3.0e38, 1e39,
    1e-5, 5.96e-8, 2.98e-8, 1e-8, 1e-40, 1 + 2**-8, 1 + 2**-8 + 2**-30, 1 + 2**-11 + 2**-40, 1 + 2**-24 + 2**-60,
    float("nan"), float("inf"), float("-inf"),
]  # fmt: skip


def grid(name):
    """The grid values that ``name`` can hold exactly (integers in range), or the float grid in it."""
    d = dt(name)
    if name == "bool":
        return np.array([True, False, True])
    if d.kind in "iu":
        info = np.iinfo(d)
        return np.array([v for v in GRID_INTS if info.min <= v <= info.max], dtype=d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.array(GRID_FLOATS, dtype=np.float64).astype(d)


@pytest.mark.parametrize("source", [*NUMERIC, "bool"])
def test_the_java_conversion_table_is_numpys_astype_for_every_pair(source):
    Arrays = jpype.JClass("org.jhooks.bridge.NumpyArrays")
    src = grid(source)
    wrong = []
    for target in [*NUMERIC, "bool"]:
        got = to_numpy(Arrays.cast(to_java(src), target))
        want = numpy_cast(src, target)
        if not same(got, want):
            wrong.append(f"{source}->{target}: {src.tolist()}\n  java  {got.tolist()}\n  numpy {want.tolist()}")
    assert not wrong, "\n".join(wrong)
