# tilekit.transpose and tilekit.transpose_inplace against NumPy on the CPU.
import numpy as np
import pytest

import tilekit
from conftest import DTYPES, poisoned, values

SHAPES = [(1, 1), (1, 17), (17, 1), (5, 7), (31, 64), (64, 31), (127, 129), (256, 300)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_transpose(shape, order, dtype):
    a = np.asarray(values(shape, dtype), order=order)
    b = tilekit.transpose(a)
    assert b.flags.c_contiguous
    np.testing.assert_array_equal(b, a.T)
    for out_order in "CF":
        out = poisoned(a.T.shape, dtype, out_order)
        assert tilekit.transpose(a, out=out) is out
        np.testing.assert_array_equal(out, a.T)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 7, 32, 33, 100, 257])
@pytest.mark.parametrize("order", ["C", "F"])
def test_transpose_inplace(n, order, dtype):
    a = np.asarray(values((n, n), dtype), order=order)
    want = a.T.copy()
    assert tilekit.transpose_inplace(a) is a
    np.testing.assert_array_equal(a, want)


# m x n: the blocked method (extents sharing 16 or more) and the decomposition
# (1 x n, coprime, sharing 2 or 12), both orders; the result is a view of a's memory.
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 5), (5, 1), (7, 13), (6, 10), (12, 20), (96, 64),
                                   (60, 36), (250, 100)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_transpose_inplace_rectangular(shape, order, dtype):
    a = np.asarray(values(shape, dtype), order=order)
    want = a.T.copy()
    r = tilekit.transpose_inplace(a)
    assert r.shape == want.shape and np.shares_memory(r, a)
    assert r.flags.f_contiguous if order == "F" and 1 not in shape else r.flags.c_contiguous
    np.testing.assert_array_equal(r, want)
    assert a.shape == shape
    # Back again through the view: the original matrix.
    back = tilekit.transpose_inplace(r)
    np.testing.assert_array_equal(back, want.T)


def test_transpose_inplace_needs_matrix_writable():
    with pytest.raises(ValueError, match="2-D"):
        tilekit.transpose_inplace(np.zeros((3, 3, 3), np.float32))
    r = np.zeros((4, 4), np.float32)
    r.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tilekit.transpose_inplace(r)
