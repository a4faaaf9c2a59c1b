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


def test_transpose_inplace_needs_square_writable():
    with pytest.raises(ValueError, match="square"):
        tilekit.transpose_inplace(np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="square"):
        tilekit.transpose_inplace(np.zeros((3, 3, 3), np.float32))
    r = np.zeros((4, 4), np.float32)
    r.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tilekit.transpose_inplace(r)
