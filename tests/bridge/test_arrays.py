"""numpy <-> NdArray: every dtype, layout, shape; values, dtype and shape kept; each side owns a copy."""

import jpype
import numpy as np
import pytest

from jhooks.bridge.convert.arrays import dtype_of, to_java, to_numpy

NUMERIC = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "bool"]


def sample(dtype, shape):
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt == np.bool_:
        flat = np.arange(n) % 3 == 0
    elif dt.kind == "f":
        flat = (np.arange(n) - n / 2) * 0.5
        if n > 2:
            flat[1] = np.finfo(dt).max
            flat[2] = np.finfo(dt).tiny
    else:
        info = np.iinfo(dt)
        flat = np.arange(n) + info.min
        if n > 1:
            flat[-1] = info.max
    return flat.astype(dt).reshape(shape)


def at(nd, *index):
    return nd.getObject(jpype.JArray(jpype.JLong)(list(index)))


def layouts(a):
    yield "C", a
    yield "fortran", np.asfortranarray(a)
    if a.ndim and a.shape[0] > 1:
        yield "strided", a[::2]
    if a.dtype.itemsize > 1:
        yield "byteswapped", a.astype(a.dtype.newbyteorder(">"))


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (5,), (4, 3), (2, 3, 4)])
def test_numeric_round_trip_keeps_values_dtype_and_shape_in_every_layout(dtype, shape):
    for layout, a in layouts(sample(dtype, shape)):
        nd = to_java(a)
        assert dtype_of(nd) == dtype, layout
        assert tuple(nd.shape().asArray()) == a.shape, layout
        back = to_numpy(nd)
        assert back.dtype == np.dtype(dtype), layout
        assert back.shape == a.shape, layout
        np.testing.assert_array_equal(back, a, err_msg=layout)
        assert back.flags.writeable and back.flags.c_contiguous


@pytest.mark.parametrize("dtype", NUMERIC)
def test_java_reads_the_values_numpy_wrote(dtype):
    a = sample(dtype, (4, 3))
    nd = to_java(np.asfortranarray(a).astype(a.dtype.newbyteorder(">")))
    for index in [(0, 0), (1, 2), (3, 1), (3, 2)]:
        got = at(nd, *index)
        expected = a[index].item()
        if dtype == "bool":
            assert bool(got) == expected
        elif dtype in ("uint8", "uint16"):  # Java byte/short are signed: same bits
            assert int(got) & (0xFF if dtype == "uint8" else 0xFFFF) == expected
        else:
            assert float(got) == float(expected) if dtype.startswith("float") else int(got) == expected


def test_int64_is_never_narrowed():
    a = np.array([2**62 + 1, -(2**63), 2**63 - 1], dtype=np.int64)
    nd = to_java(a)
    assert [int(at(nd, i)) for i in range(3)] == a.tolist()
    np.testing.assert_array_equal(to_numpy(nd), a)


def test_float16_crosses_as_tensorflow_javas_float16_layout():
    a = np.array([0.1, 65504.0, -(2.0**-24)], dtype=np.float16)
    nd = to_java(a)
    assert isinstance(nd, jpype.JClass("org.tensorflow.ndarray.FloatNdArray"))
    assert [float(at(nd, i)) for i in range(3)] == [float(v) for v in a]
    back = to_numpy(nd)
    assert back.dtype == np.float16 and back.tobytes() == a.tobytes()


def test_bfloat16_crosses_as_tensorflow_javas_bfloat16_layout():
    import ml_dtypes

    a = np.array([0.1, 3.0e38, -(2.0**-20)], dtype=ml_dtypes.bfloat16)
    nd = to_java(a)
    assert [float(at(nd, i)) for i in range(3)] == [float(v) for v in a]
    with jpype.JClass("org.jhooks.tf.TensorValues").tensorOf(nd) as tensor:
        assert str(tensor.dataType()) == "DT_BFLOAT16"
    back = to_numpy(nd)
    assert back.dtype == ml_dtypes.bfloat16 and back.tobytes() == a.tobytes()


@pytest.mark.parametrize("shape", [(), (0,), (2, 2)])
def test_strings_round_trip_as_bytes(shape):
    values = np.array(
        ["héllo", "", "x" * 300, "tab\tnew\nline"][: max(1, int(np.prod(shape)))] if shape != (0,) else [], dtype=object
    ).reshape(shape)
    nd = to_java(values)
    assert dtype_of(nd) == "string"
    if values.size:
        assert str(at(nd, *([0] * len(shape)))) == values.reshape(-1)[0]
    back = to_numpy(nd)
    assert back.dtype == object and back.shape == shape
    assert back.reshape(-1).tolist() == [v.encode("utf-8") for v in values.reshape(-1)]


def test_non_utf8_bytes_cross_unchanged():
    values = np.array([b"\xff\xfe\x00binary", b"ok"], dtype=object)
    back = to_numpy(to_java(values))
    assert back.tolist() == values.tolist()


def test_numpy_fixed_width_strings_cross():
    assert to_numpy(to_java(np.array([b"ab", b"c"]))).tolist() == [b"ab", b"c"]
    assert to_numpy(to_java(np.array(["ab", "ç"]))).tolist() == [b"ab", "ç".encode()]


def test_each_side_owns_its_copy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    nd = to_java(a)
    a[0, 0] = 100.0
    assert float(at(nd, 0, 0)) == 0.0
    back = to_numpy(nd)
    back[0, 1] = -1.0
    assert float(at(nd, 0, 1)) == 1.0


def test_tensors_report_their_tensorflow_dtype():
    TUint8 = jpype.JClass("org.tensorflow.types.TUint8")
    TInt64 = jpype.JClass("org.tensorflow.types.TInt64")
    with TUint8.vectorOf(jpype.JByte(1), jpype.JByte(-1)) as t:
        assert dtype_of(t) == "uint8"
        assert to_numpy(t).tolist() == [1, 255]
    with TInt64.scalarOf(2**40) as t:
        back = to_numpy(t)
        assert back.dtype == np.int64 and back.shape == () and int(back) == 2**40


def test_unsupported_dtypes_are_refused_by_name():
    with pytest.raises(TypeError, match="complex128"):
        to_java(np.zeros(2, dtype=np.complex128))
    with pytest.raises(TypeError, match="NdArray"):
        to_numpy([1, 2])


@pytest.mark.parametrize("dtype", [*NUMERIC, "bfloat16"])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (4, 3), (2, 3, 4)])
def test_view_keeps_values_dtype_and_shape_in_every_layout(dtype, shape):
    from jhooks.bridge.convert.arrays import view_to_java

    if dtype == "bfloat16":
        import ml_dtypes

        base = sample("float32", shape).astype(ml_dtypes.bfloat16)
    else:
        base = sample(dtype, shape)
    for layout, a in layouts(base):
        nd = view_to_java(a)
        assert dtype_of(nd) == dtype, layout
        assert tuple(nd.shape().asArray()) == a.shape, layout
        back = to_numpy(nd)
        assert back.dtype == a.dtype.newbyteorder("="), layout
        np.testing.assert_array_equal(back, a, err_msg=layout)


def test_view_shares_the_numpy_memory_and_is_read_only():
    from jhooks.bridge.convert.arrays import view_to_java

    a = np.arange(600, dtype=np.float32).reshape(200, 3)  # above PACKED_MAX_BYTES: a view
    nd = view_to_java(a)
    a[1, 2] = 42.5  # the caller's array, seen through the view: shared, not copied
    assert float(at(nd, 1, 2)) == 42.5
    with pytest.raises(jpype.JClass("java.nio.ReadOnlyBufferException")):
        nd.setFloat(jpype.JFloat(1.0), jpype.JArray(jpype.JLong)([0, 0]))
    copy = jpype.JClass("org.tensorflow.ndarray.NdArrays").ofFloats(nd.shape())
    nd.copyTo(copy)  # the ownership rule's way to keep a value: a copy owns its memory
    a[0, 0] = -1.0
    assert float(at(copy, 0, 0)) == 0.0 and float(at(copy, 1, 2)) == 42.5


def test_a_small_value_crosses_as_a_read_only_copy_in_one_call():
    from jhooks.bridge.convert.arrays import PACKED_MAX_BYTES, view_to_java

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert a.nbytes <= PACKED_MAX_BYTES
    nd = view_to_java(a)
    a[1, 2] = 42.5  # a copy: the caller's later writes are not seen
    assert float(at(nd, 1, 2)) == 5.0
    with pytest.raises(jpype.JClass("java.nio.ReadOnlyBufferException")):
        nd.setFloat(jpype.JFloat(1.0), jpype.JArray(jpype.JLong)([0, 0]))
    back = to_numpy(nd)
    assert back.flags.writeable and back.dtype == np.float32 and back.shape == (2, 3)


def test_view_of_a_read_only_array_needs_no_copy():
    from jhooks.bridge.convert.arrays import view_to_java

    a = np.arange(4, dtype=np.int64)
    a.flags.writeable = False
    nd = view_to_java(a)
    assert [int(at(nd, i)) for i in range(4)] == [0, 1, 2, 3]


def test_views_keep_at_most_the_budget_alive_after_their_callbacks(monkeypatch):
    from jhooks.bridge.convert import arrays

    monkeypatch.setattr(arrays, "VIEW_BUDGET", 3 * 4096)
    monkeypatch.setattr(arrays, "_kept", __import__("collections").deque())
    monkeypatch.setattr(arrays, "_kept_bytes", 0)
    monkeypatch.setattr(arrays, "_retired", [])
    views = []
    for i in range(10):
        views.append(arrays.view_to_java(np.full(1024, i, np.float32)))  # 4096 bytes each
        assert arrays._kept_bytes <= 3 * 4096
    assert [int(a[0]) for a, _ in arrays._kept] == [7, 8, 9]
    # the views of the arrays let go are ended, the retained ones still read their values
    assert [bool(lease.isValid()) for _, lease in arrays._kept] == [True] * 3
    assert [float(at(v, 0)) for v in views[7:]] == [7.0, 8.0, 9.0]
    for v in views[:7]:
        with pytest.raises(jpype.JClass("java.lang.IllegalStateException"), match="float32 value of shape"):
            at(v, 0)


def test_a_view_whose_array_its_caller_still_holds_stays_valid_until_the_caller_lets_go(monkeypatch):
    from jhooks.bridge.convert import arrays

    monkeypatch.setattr(arrays, "VIEW_BUDGET", 4096)
    monkeypatch.setattr(arrays, "_kept", __import__("collections").deque())
    monkeypatch.setattr(arrays, "_kept_bytes", 0)
    monkeypatch.setattr(arrays, "_retired", [])
    held = np.full(1024, 5, np.float32)
    view = arrays.view_to_java(held)
    arrays.view_to_java(np.full(1024, 6, np.float32))  # pushes `held` out of the budget
    assert float(at(view, 3)) == 5.0  # the caller (e.g. a results dict during the callback) holds it
    del held
    with pytest.raises(jpype.JClass("java.lang.IllegalStateException"), match="Copy it inside the callback"):
        at(view, 3)
