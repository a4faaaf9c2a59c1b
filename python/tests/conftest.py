# Shared by the tilekit Python tests: dtypes, value generation, poisoning.
import numpy as np
import pytest

import tilekit

DTYPES = [np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128]
REAL_DTYPES = [np.int32, np.int64, np.float32, np.float64]


def values(shape, dtype, seed=0):
    """Distinct-enough values, exact in every dtype."""
    rng = np.random.default_rng(seed)
    v = rng.integers(-1000, 1000, size=shape)
    if np.issubdtype(dtype, np.complexfloating):
        v = v + 1j * rng.integers(-1000, 1000, size=shape)
    return np.asarray(v).astype(dtype)


def poison(dtype):
    """A value no test writes, in dtype (12345, its low bits in 1-byte integers:
    NumPy 2 refuses a Python integer out of a dtype's range)."""
    return np.asarray(12345).astype(dtype)[()]


def poisoned(shape, dtype, order="C"):
    """An output full of a value no test writes."""
    return np.full(shape, poison(dtype), dtype=dtype, order=order)


@pytest.fixture(autouse=True, scope="session")
def _report_build():
    tilekit.initialize()
    yield
