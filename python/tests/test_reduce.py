# tilekit.reduce against NumPy on the CPU.
import numpy as np
import pytest

import tilekit
from conftest import REAL_DTYPES, values

SIZES = [1, 2, 7, 31, 1000, 4099, 100003]


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_reduce_ops(n, dtype):
    a = values((n,), dtype)
    if np.issubdtype(dtype, np.integer):
        assert tilekit.reduce(a, "sum") == int(a.astype(np.int64).sum())
    else:
        exact = float(np.sum(a.astype(np.float64)))
        tol = 4 * np.finfo(dtype).eps * n * float(np.abs(a).sum()) + 1e-30
        assert abs(tilekit.reduce(a, "sum") - exact) <= tol
        assert abs(tilekit.reduce(a, "sum_compensated") - exact) <= np.finfo(dtype).eps * abs(exact) + 1e-30
    assert tilekit.reduce(a, "min") == a.min()
    assert tilekit.reduce(a, "max") == a.max()
    assert tilekit.reduce(a, "argmin") == a.argmin()
    assert tilekit.reduce(a, "argmax") == a.argmax()


@pytest.mark.parametrize("order", ["C", "F"])
def test_reduce_multidimensional_index_is_numpy_flat_index(order):
    a = np.asarray(values((13, 7, 5), np.float64, 3), order=order)
    assert tilekit.reduce(a, "argmin") == a.argmin()
    assert tilekit.reduce(a, "argmax") == a.argmax()
    assert tilekit.reduce(a, "sum") == pytest.approx(a.sum(), rel=1e-12)


def test_reduce_types_of_results():
    assert isinstance(tilekit.reduce(np.arange(10, dtype=np.int32)), int)
    assert tilekit.reduce(np.full(10, 2**31 - 1, np.int32)) == 10 * (2**31 - 1)  # int64 sum
    assert isinstance(tilekit.reduce(np.ones(3, np.float32)), float)


def test_reduce_nan_and_empty():
    a = np.array([1.0, np.nan, -3.0, np.nan])
    assert np.isnan(tilekit.reduce(a, "sum"))
    assert np.isnan(tilekit.reduce(a, "min")) and np.isnan(tilekit.reduce(a, "max"))
    assert tilekit.reduce(a, "argmin") == np.argmin(a) == 1
    assert tilekit.reduce(np.zeros(0, np.float32), "sum") == 0
    for op in ["min", "max", "argmin", "argmax"]:
        with pytest.raises(ValueError, match="empty"):
            tilekit.reduce(np.zeros(0, np.float32), op)


def test_reduce_errors():
    with pytest.raises(ValueError, match="not one of"):
        tilekit.reduce(np.ones(3), "mean")
    with pytest.raises(TypeError, match="sum_compensated"):
        tilekit.reduce(np.ones(3, np.int32), "sum_compensated")
    with pytest.raises(TypeError, match="complex64"):
        tilekit.reduce(np.ones(3, np.complex64))
    with pytest.raises(ValueError, match="not contiguous"):
        tilekit.reduce(np.ones((4, 4))[:, 1])
