"""The packed per-run protocol's Python half (jhooks.bridge.hooks.packed_run): the layout read from
org.jhooks.bridge.PackedRun, and the small results a JVM run packs for a group of Python hooks read
as arrays.from_packed reads them (headers parsed once, one array for hooks given the same bytes)."""

import struct

import jpype
import numpy as np
import pytest

from jhooks.bridge.convert import arrays
from jhooks.bridge.hooks.packed_run import PackedLayout, read_array


def layout():
    return PackedLayout.of(jpype.JClass("org.jhooks.bridge.PackedRun"))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_an_array_read_again_is_what_from_packed_reads_read_only(dtype, shape):
    a = (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)
    packed = arrays.packed_small(a)
    for _ in range(2):  # the second read uses the parsed header
        got = read_array(packed)
        expected = arrays.from_packed(packed)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        assert not got.flags.writeable


def test_values_read_each_hooks_results_in_order_and_share_equal_ones():
    step, loss = np.array(7, np.int64), np.array([0.5, -1.5], np.float32)
    data = b""
    for a in (step, None, loss, step):
        if a is None:
            data += struct.pack("<i", layout().no_results)
        else:
            packed = arrays.packed_small(a)
            data += struct.pack("<i", len(packed)) + packed
    got = layout().values(data, 4)
    assert got[1] is None
    np.testing.assert_array_equal(got[0], step)
    np.testing.assert_array_equal(got[2], loss)
    assert got[3] is got[0]  # one fetched tensor, one array, as TensorFlow's driver hands it
    assert got[2].dtype == np.float32 and got[0].dtype == np.int64


def test_values_that_java_packed_read_back_the_same():
    nd = jpype.JClass("org.tensorflow.ndarray.NdArrays")
    values = jpype.JClass("org.jhooks.SessionRunValues")
    results = [nd.scalarOf(jpype.JLong(3)), None, nd.scalarOf(2.5)]
    java = jpype.JArray(values)([values(r, None, None) for r in results])
    packed = bytes(jpype.JClass("org.jhooks.bridge.PackedRun").values(java))
    got = layout().values(packed, 3)
    assert [None if g is None else (g.dtype.name, g.item()) for g in got] == [("int64", 3), None, ("float64", 2.5)]
