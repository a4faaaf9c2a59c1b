# Bad arguments raise TypeError / ValueError naming the problem, and nothing
# is written.
import numpy as np
import pytest

import tilekit
from conftest import poisoned, values


def untouched(out):
    return bool(np.all(out == 12345))


def test_not_an_array():
    with pytest.raises(TypeError, match="not an array"):
        tilekit.permute([[1, 2], [3, 4]], (1, 0))
    with pytest.raises(TypeError, match="not an array"):
        tilekit.reduce(3.0)


@pytest.mark.parametrize("dtype", [np.longdouble, np.clongdouble, "datetime64[s]", "U3", object])
def test_unsupported_dtypes(dtype):
    x = np.zeros((3, 4), dtype)
    if x.dtype in (np.float64, np.complex128):
        pytest.skip("long double is double here")
    with pytest.raises(TypeError, match="dtype"):
        tilekit.permute(x, (1, 0))


def test_out_dtype_shape_order():
    a = values((3, 4, 5), np.float32)
    out = poisoned((5, 3, 4), np.float64)
    with pytest.raises(TypeError, match="out has dtype float64"):
        tilekit.permute(a, (2, 0, 1), out=out)
    assert untouched(out)
    out = poisoned((5, 4, 3), np.float32)
    with pytest.raises(ValueError, match=r"out has shape \(5, 4, 3\), expected \(5, 3, 4\)"):
        tilekit.permute(a, (2, 0, 1), out=out)
    assert untouched(out)
    with pytest.raises(ValueError, match="shape"):
        tilekit.transpose(values((3, 4), np.int32), out=poisoned((3, 4), np.int32))


def test_non_contiguous():
    # Strided views are taken (test_strided.py); the in-place transpose and
    # the reduction take contiguous arrays only, and say so.
    a = values((6, 8), np.float64)
    with pytest.raises(ValueError, match="not contiguous"):
        tilekit.transpose_inplace(a[:, ::2])
    with pytest.raises(ValueError, match="not contiguous"):
        tilekit.reduce(a[::2])
    out = poisoned((16, 6), np.float64)
    with pytest.raises(ValueError, match="shape"):
        tilekit.transpose(a, out=out[::3])
    assert untouched(out)
    # A transposed view is F-contiguous: accepted, read in place.
    np.testing.assert_array_equal(tilekit.transpose(a.T), a)


def test_rank_limits():
    with pytest.raises(ValueError, match="rank 9"):
        tilekit.permute(np.zeros((1,) * 9, np.float32), tuple(range(9)))
    with pytest.raises(ValueError, match="rank 0"):
        tilekit.permute(np.zeros((), np.float32), ())
    with pytest.raises(ValueError, match="rank 3"):
        tilekit.transpose(np.zeros((2, 2, 2), np.float32))


def test_bad_axes():
    a = values((2, 3, 4), np.float32)
    for axes in [(0, 1), (0, 1, 1), (0, 1, 3), (0, 1, 2, 3)]:
        with pytest.raises(ValueError, match="not a permutation"):
            tilekit.permute(a, axes)


def test_aliasing_rejected():
    a = values((6, 6), np.float32)
    with pytest.raises(ValueError, match="shares memory"):
        tilekit.transpose(a, out=a)
    with pytest.raises(ValueError, match="shares memory"):
        tilekit.permute(a, (1, 0), out=a)
    b = values((4, 8), np.float32)
    flat = b.reshape(-1)
    with pytest.raises(ValueError, match="shares memory"):
        tilekit.permute(flat[:16].reshape(4, 4), (1, 0), out=flat[8:24].reshape(4, 4))
    np.testing.assert_array_equal(b, values((4, 8), np.float32))


def test_read_only_out():
    a = values((3, 4), np.float32)
    out = poisoned((4, 3), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tilekit.permute(a, (1, 0), out=out)
    assert untouched(out)


def test_scalars():
    a = values((3, 4), np.int32)
    out = poisoned((4, 3), np.int32)
    with pytest.raises(TypeError, match="integer"):
        tilekit.permute(a, (1, 0), out=out, alpha=0.5)
    with pytest.raises(TypeError, match="complex"):
        tilekit.permute(values((3, 4), np.float32), (1, 0), alpha=1j)
    with pytest.raises(ValueError, match="beta"):
        tilekit.permute(a, (1, 0), beta=1)
    assert untouched(out)


def test_misaligned():
    raw = np.zeros(8 * 17 + 4, np.uint8)
    a = raw[4:4 + 8 * 16].view(np.float64).reshape(4, 4)  # 4-byte aligned doubles
    if a.ctypes.data % 8 == 0:
        pytest.skip("the allocator gave a layout that is aligned after all")
    with pytest.raises(ValueError, match="multiple of 8"):
        tilekit.transpose(a)
